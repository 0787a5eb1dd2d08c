"""Private values held by locals and by variables of any type (the secrets promise: a
message, a bot's input). A local that takes the value of a variable declared ``owner``
or ``hidden`` carries it: a message may not show it (``check/private-value``), and a
search bot's sample sets it back, as it sets back the variables themselves, of every
type (a hidden role used to stay as it was in every sample)."""
from __future__ import annotations

import random

import pytest
from meeple.dsl.errors import MeepleError

from meeple import interpreter

HEAD = """ruleset private_locals
players 2..2
enum Role { good, evil }
var limit: int per player owner = 3
var role: Role per player owner = good
var got: int = 0
function twice(p: player): int = 2 * limit(p)
setup {
  roll l from 3..4
  limit(players[1]) = l
  pick r at random from Role
  role(players[1]) = r
}
"""

TURN = """turn {
  let x = limit(players[1])
  let who = role(players[1])
  choose y from [1, 2] as "pick"
  got = x + y
  end game
}
score(p) = got
"""


def _load(tmp_path, text: str):
    path = tmp_path / "private_locals.meeple"
    path.write_text(text, encoding="utf-8")
    return interpreter.load(str(path))


@pytest.mark.parametrize("body, local", [
    ("let x = limit(players[1])\n  log said \"{x}\"", "x"),
    ("let x = twice(players[1]) + 1\n  log said \"{x}\"", "x"),             # through a function
    ("let y = 0\n  let x = y + limit(players[1])\n  log said \"{x}\"", "x"),  # through a local
    ("for v in [limit(p) for p in players] {\n    log said \"{v}\"\n  }", "v"),
    ("best q in players by limit(q) tie first\n  log said \"{q}\"", "q"),
    ("let x = 0\n  if got > 0 {\n    x = x + limit(players[1])\n  }\n  log said \"{x}\"", "x"),
    ("let xs = [0, 0]\n  xs[1] = limit(players[1])\n  log said \"{xs}\"", "xs"),
    ("let w = role(players[1])\n  log said \"{w}\"", "w"),
    # a die given in one branch only: where it is not, the local keeps the secret
    ("let x = limit(players[1])\n  roll a from 1..3\n  if a == 1 {\n    x = a\n  }\n  log said \"{x}\"", "x"),
    ("let x = limit(players[1])\n  if got == 7 {\n    let x = 1\n  }\n  log said \"{x}\"", "x"),
    # a loop's body runs again: what it sets after the message is shown next round
    ("let x = 0\n  for i in [1, 2] {\n    log said \"{x}\"\n    x = limit(players[1])\n  }", "x"),
    ("let x = 0\n  let n = 0\n  while n < 2 max 3 {\n    log said \"{x}\"\n    let y = 0\n"
     "    y = limit(players[1])\n    x = y\n    n = n + 1\n  }", "x"),
])
def test_a_message_may_not_show_a_local_holding_a_private_value(tmp_path, body, local):
    with pytest.raises(MeepleError) as err:
        _load(tmp_path, HEAD + "turn {\n  " + body + "\n  end game\n}\nscore(p) = got\n")
    text = str(err.value)
    assert "check/private-value" in text and f"'{local}'" in text
    assert "private_locals.meeple:" in text   # (located)


def test_a_local_bound_again_from_a_public_value_may_be_shown(tmp_path):
    prog = _load(tmp_path, HEAD + """turn {
  let x = limit(players[1])
  got = x
  for x in [1, 2] {
    log said "{x}"
  }
  end game
}
score(p) = got
""")
    assert prog.checked.private_locals["turn"].keys() == {"x"}


def _samples(prog, seat: int, seeds) -> dict:
    """The sample of each game's position for ``seat``, by the hidden values it has."""
    out: dict = {}
    for seed in seeds:
        game = prog.new_game(2, seed=seed)
        hidden = (game.state["pvars"]["limit"][1], game.state["pvars"]["role"][1])
        sample = interpreter.determinize(game, seat, random.Random(7))
        out.setdefault(hidden, set()).add(repr((sample.state["pvars"], sample.state["stack"])))
    return out


def test_a_sample_keeps_nothing_of_the_others_private_values(tmp_path):
    """Player 1's samples are the same whatever Player 2's hidden limit and role, read
    by the locals ``x`` and ``who`` of the turn under way (both used to be kept)."""
    prog = _load(tmp_path, HEAD + TURN)
    assert prog.checked.private_locals["turn"].keys() == {"x", "who"}
    samples = _samples(prog, 0, range(60))
    assert len(samples) == 4    # (both limits and both roles were dealt: the check means something)
    assert len(set().union(*samples.values())) == 1
    game = prog.new_game(2, seed=0)
    sample = interpreter.determinize(game, 0, random.Random(7))
    assert sample.state["stack"][-1]["L"]["x"] == 0 and sample.state["stack"][-1]["L"]["who"] == "good"
    assert sample.state["pvars"]["role"] == ["good", "good"]


def test_a_seat_keeps_its_own_private_values(tmp_path):
    prog = _load(tmp_path, HEAD + TURN)
    for seed in range(20):
        game = prog.new_game(2, seed=seed)
        sample = interpreter.determinize(game, 1, random.Random(7))
        assert sample.state["pvars"]["limit"][1] == game.state["pvars"]["limit"][1]
        assert sample.state["pvars"]["role"][1] == game.state["pvars"]["role"][1]


def test_a_hidden_list_of_dice_is_not_in_the_others_samples():
    """Liar's poker keeps each hand of dice in a list declared ``owner``: a sample for
    Player 1 used to hold Player 2's real dice."""
    prog = interpreter.load("tests/testdata/liars_poker")
    game = prog.new_game(2, seed=3)
    while game.state["pvars"]["hand"][1] == [] and not game.over:
        game.apply(0)
    assert game.state["pvars"]["hand"][1]
    sample = interpreter.determinize(game, 0, random.Random(1))
    assert sample.state["pvars"]["hand"][1] == []
    assert sample.state["pvars"]["hand"][0] == game.state["pvars"]["hand"][0]


ROLLED = """ruleset rolled
players 2..2
var got: int = 0
var pot: int hidden = 0
var shown: int = 0
turn {
  roll d from 1..6
  let e = d * 2
  roll f from 1..6
  shown = f
  choose y from [1, 2] as "pick"
  got = e + y
  end game
}
score(p) = got
"""


def test_a_die_rolled_unseen_before_a_decision_is_not_in_a_sample(tmp_path):
    """``d`` is rolled and nothing shows it before the decision (``got`` takes it only
    after): a sample holds none of it, nor of ``e`` computed from it; ``f`` is shown
    (a public variable takes it) and stays. (The game hides something: ``pot``.)"""
    path = tmp_path / "rolled.meeple"
    path.write_text(ROLLED, encoding="utf-8")
    prog = interpreter.load(str(path))
    assert prog.checked.unshown_random["turn"].keys() == {"d", "e"}
    kept = set()
    for seed in range(30):
        game = prog.new_game(2, seed=seed)
        local = interpreter.determinize(game, 0, random.Random(7)).state["stack"][-1]["L"]
        assert (local["d"], local["e"]) == (0, 0)
        assert local["f"] == game.state["stack"][-1]["L"]["f"]
        kept.add(local["f"])
    assert len(kept) > 1


def test_the_bundled_games_keep_their_shown_rolls():
    """Backgammon shows its dice (``dice``, a message) and Hearts its passing direction
    before any decision: none of their locals is private."""
    for name in ("backgammon", "hearts", "cherokee"):
        assert interpreter.load(name).checked.private_locals == {}


def test_a_game_that_hides_nothing_keeps_its_rolls_in_a_sample(tmp_path):
    """Where nothing is hidden the front ends tell each die as it falls
    (``views.chance_seen``): a sample keeps it, as the players know it."""
    path = tmp_path / "rolled.meeple"
    path.write_text(ROLLED.replace("var pot: int hidden = 0\n", ""), encoding="utf-8")
    prog = interpreter.load(str(path))
    assert not prog.hidden_information
    game = prog.new_game(2, seed=4)
    sample = interpreter.determinize(game, 0, random.Random(7))
    assert sample.state["stack"] == game.state["stack"]


@pytest.mark.parametrize("procs, body, local", [
    # a parameter given a private value, directly or through a local
    ("procedure tell(v: int) {\n  log said \"{v}\"\n}\n", "call tell(limit(players[1]))", "v"),
    ("procedure tell(v: int) {\n  log said \"{v}\"\n}\n",
     "let x = limit(players[1])\n  call tell(x)", "v"),
    # a procedure's result read from one, directly or from its parameter
    ("procedure peek(): int {\n  return limit(players[1])\n}\n",
     "let x = call peek()\n  log said \"{x}\"", "x"),
    ("procedure same(v: int): int {\n  return v\n}\n",
     "let x = call same(limit(players[1]))\n  log said \"{x}\"", "x"),
    # the procedure declared after its caller, through two calls
    ("", "call outer(limit(players[1]))", "w"),
    # a die returned in one branch only: where it is not, the local keeps the secret
    ("procedure die(): int {\n  roll a from 1..3\n  return a\n}\n",
     "let x = limit(players[1])\n  if got == 7 {\n    x = call die()\n  }\n  log said \"{x}\"", "x"),
])
def test_a_procedure_carries_a_private_value_in_and_out(tmp_path, procs, body, local):
    after = ("procedure outer(v: int) {\n  call inner(v + 1)\n}\n"
             "procedure inner(w: int) {\n  log said \"{w}\"\n}\n") if not procs else ""
    with pytest.raises(MeepleError) as err:
        _load(tmp_path, HEAD + procs + "turn {\n  " + body + "\n  end game\n}\n" + after
              + "score(p) = got\n")
    text = str(err.value)
    assert "check/private-value" in text and f"'{local}'" in text


@pytest.mark.parametrize("procs, body, frame, local", [
    ("procedure ask(v: int) {\n  choose y from [1, 2] as \"pick\"\n  got = v + y\n}\n",
     "call ask(limit(players[1]))", -1, "v"),
    ("procedure peek(): int {\n  return limit(players[1])\n}\n",
     "let x = call peek()\n  choose y from [1, 2] as \"pick\"\n  got = x + y", 0, "x"),
])
def test_a_sample_keeps_no_private_value_passed_to_or_from_a_procedure(tmp_path, procs, body, frame, local):
    prog = _load(tmp_path, HEAD.replace("roll l from 3..4", "roll l from 5..6") + procs
                 + "turn {\n  " + body + "\n  end game\n}\nscore(p) = got\n")
    for seed in range(6):
        game = prog.new_game(2, seed=seed)
        assert game.state["stack"][frame]["L"][local] in (5, 6)
        sample = interpreter.determinize(game, 0, random.Random(7))
        assert sample.state["stack"][frame]["L"][local] == 0


def test_a_procedure_given_public_values_may_show_them(tmp_path):
    prog = _load(tmp_path, HEAD + "procedure tell(v: int) {\n  log said \"{v}\"\n}\n"
                 + "turn {\n  let x = limit(players[1])\n  x = 0\n  call tell(got)\n  end game\n}\n"
                 + "score(p) = got\n")
    assert "tell" not in prog.checked.private_locals


HANDED_ON = """ruleset rolled
players 2..2
var screened: int per player owner = 0
var got: int = 0
"""


@pytest.mark.parametrize("procs, body, frame, local", [
    # a roll given to a procedure that asks before showing it
    ("procedure ask(v: int) {\n  choose y from [1, 2] as \"pick\"\n  got = v + y\n}\n",
     "roll d from 1..6\n  call ask(d)", -1, "v"),
    # a roll a procedure returns, not shown before the decision
    ("procedure r(): int {\n  roll d from 1..6\n  return d\n}\n",
     "let x = call r()\n  choose y from [1, 2] as \"pick\"\n  got = x + y", 0, "x"),
])
def test_a_sample_keeps_no_unshown_roll_passed_to_or_from_a_procedure(tmp_path, procs, body, frame, local):
    prog = _load(tmp_path, HANDED_ON + procs + "turn {\n  " + body + "\n  end game\n}\nscore(p) = got\n")
    held = set()
    for seed in range(12):
        game = prog.new_game(2, seed=seed)
        held.add(game.state["stack"][frame]["L"][local])
        sample = interpreter.determinize(game, 1, random.Random(7))
        assert sample.state["stack"][frame]["L"][local] == 0
    assert len(held) > 1   # (the rolls differ: the check means something)
