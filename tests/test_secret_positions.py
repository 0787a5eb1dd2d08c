"""Secret positions (issue 37, item 7): places declared ``dark`` and ``reveal ITEM to
PLAYER`` (docs/language.md, "Secret positions").

A seat's view of a dark zone or of a dark board's cell lists only the items it may see,
in their order, and nothing of the others: neither a count nor a place. These tests show
it on every consumer of views (the view and its JSON, the terminal, the OpenSpiel
adapter's information state, observation and tensor, the search bots'
determinizations, ``meeple test``'s secrets and leak check), and check
tests/testdata/phantom_ttt (and its variant abrupt) and tests/testdata/dark_hex against
OpenSpiel's ``phantom_ttt`` and ``dark_hex`` (the `open_spiel` package, a test-only
dependency: the comparisons skip without it): along random games both agree on who
moves, on the legal moves, on each seat's observation (its view of the board: its own
marks and those it found), on which histories a deciding seat can tell apart
(information states) and on the returns; and the kernel plays phantom tic-tac-toe as
Python does."""
from __future__ import annotations

import json
import random
import re
import tempfile
from functools import cache
from pathlib import Path

import pytest
from kernel_support import needs_kernel
from lockstep import kernel_difference
from meeple.dsl.parse import parse
from meeple.interpreter import bots, testing, views
from meeple.interpreter.bots import determinize
from scale import scaled

from meeple import interpreter

DATA = Path(__file__).resolve().parent / "testdata"

# every cell holds a stone, seen only by the seat that laid it; the pile is dark too
DARK = """ruleset dark_demo
players 2..2
kind Stone { seat: int }
board b: grid(rows: 2, cols: 2) holds Stone hidden dark
zone pile: Stone
zone bag: Stone per player dark
deck stones into pile { 4 of Stone(seat: s) for s in 1..2 }
var done: bool = false
turn {
  choose c from cells(b) as "lay"
  move first(s for s in items(pile) if s.seat == seat(active)) to c face down for active
  done = turn_number() > 3
}
end when done
"""


@cache
def phantom(variants: tuple = ()):
    return interpreter.load(str(DATA / "phantom_ttt"), variants=list(variants)).for_players(2)


def compiled(text: str, players: int):
    """The program of a ruleset written here, for ``players`` seats."""
    folder = Path(tempfile.mkdtemp())
    name = text.split()[1]
    (folder / f"{name}.meeple").write_text(text, encoding="utf-8")
    return interpreter.load(folder / f"{name}.meeple", cache=False).for_players(players)


def dark_program():
    return compiled(DARK, 2)


def test_dark_is_read_on_zones_and_boards_and_nothing_else_changes():
    f = parse(DARK, "dark_demo.meeple")
    decls = {d.name: d for d in f.decls if d.node in ("BoardDecl", "ZoneDecl")}
    assert decls["b"].dark and decls["bag"].dark and not decls["pile"].dark
    assert decls["b"].visibility == "hidden" and decls["bag"].visibility == "owner"
    # a ruleset without the word: the IR says so
    plain = parse(DARK.replace(" dark\n", "\n"), "x.meeple")
    assert not any(d.dark for d in plain.decls if d.node in ("BoardDecl", "ZoneDecl"))


def test_a_seat_sees_only_its_own_stones_and_no_count_of_the_others():
    game = dark_program().new_game(2, 0)
    testing.play(game, "lay r1c1", "lay r1c1", "lay r2c2")
    mine = views.view(game, 0)["zones"]
    theirs = views.view(game, 1)["zones"]
    everyone = views.view(game, views.SPECTATOR)["zones"]
    s1, s2 = testing.at(game, "b:r1c1")   # seat 1's stone below seat 2's
    assert mine["b:r1c1"] == [s1] and theirs["b:r1c1"] == [s2] and everyone["b:r1c1"] == []
    assert mine["b:r2c2"] != [] and theirs["b:r2c2"] == [] and everyone["b:r2c2"] == []
    # nothing in the JSON tells where the unseen stones lie or how many there are
    for key in ("b:r1c1", "b:r2c2", "bag:0", "bag:1"):
        for v in (theirs, everyone):
            assert "count" not in json.dumps(v[key]) and "hidden" not in json.dumps(v[key])
    # the "all" view (a referee's) shows everything
    assert views.view(game, "all")["zones"]["b:r1c1"] == [s1, s2]
    # what the seat is kept from: the unseen stones, as hidden items
    assert set(views.secrets(game, 1)["hidden items"]) >= {s1, testing.at(game, "b:r2c2")[0]}
    assert views.secrets(game, 1)["face-down items"] == []


def twins():
    """Two games that differ only in which dark cell holds seat 1's unseen stone."""
    games = []
    for cell in ("lay r1c2", "lay r2c1"):
        g = dark_program().new_game(2, 0)
        testing.play(g, cell, "lay r2c2")
        games.append(g)
    return games


def test_where_an_unseen_stone_lies_changes_nothing_seat_2_is_shown():
    from meeple import openspiel
    a, b = twins()
    assert a.state["zones"] != b.state["zones"]
    enc = openspiel.Encoding(a.program)
    for seat in (1, views.SPECTATOR):
        assert views.view(a, seat) == views.view(b, seat)
        assert openspiel.observation(a, seat) == openspiel.observation(b, seat)
        if seat >= 0:
            assert (enc.encode(views.view(a, seat)) == enc.encode(views.view(b, seat))).all()
            # every dark place may hold something the seat does not see
            assert a.unsure_zones(seat) == b.unsure_zones(seat)
            assert {f"b:r{r}c{c}" for r in (1, 2) for c in (1, 2)} <= set(a.unsure_zones(seat))
    # seat 1 itself sees the difference
    assert views.view(a, 0) != views.view(b, 0)


def test_a_determinization_does_not_read_where_unseen_stones_lie():
    a, b = twins()
    samples = [determinize.determinize(g, 1, random.Random(7)) for g in (a, b)]
    assert samples[0].state["zones"] == samples[1].state["zones"]
    for g, s in zip((a, b), samples):
        # what seat 2 sees stays as it is, and the stones keep their number
        assert views.view(s, 1)["zones"] == views.view(g, 1)["zones"]
        assert sorted(i for z in s.state["zones"] for i in z) == sorted(i for z in g.state["zones"] for i in z)
    # over several draws, seat 1's unseen stone goes to more than one cell
    cells = {tuple(map(len, determinize.determinize(a, 1, random.Random(k)).state["zones"]))
             for k in range(12)}
    assert len(cells) > 1


def test_a_search_bot_is_given_the_same_games_in_both_twins():
    """The games a search bot's ``Position`` draws for seat 2 (with its past or not),
    and the move it then plays, are the same in both twins."""
    samples, picks = [], []
    for g in twins():
        testing.play(g, "lay r1c1")   # seat 2 decides next
        pos = bots.Position(g, 1)
        samples.append([pos.sample(random.Random(k), history=k % 2 == 1).state["zones"] for k in range(6)])
        picks.append(interpreter.bot_move(interpreter.make_bot("ismcts:iterations=30", seed=3), g, 1))
    assert samples[0] == samples[1] and picks[0] == picks[1]


# ---------------------------------------------------------------- reveal ... to

REVEAL = """ruleset reveal_to_demo
players 3..3
kind Card { value: int }
zone pile: Card hidden
zone table: Card dark
deck cards into pile { Card(value: v) for v in 1..4 }
var done: bool = false
turn {
  move top(pile) to table face down for players[0]
  reveal top(table) to players[2]
  reveal top(table) to players[2]
  reveal [top(pile)] to players[1]
  done = true
}
end when done
"""


def test_reveal_to_shows_an_item_to_one_more_seat_where_it_lies():
    game = compiled(REVEAL, 3).new_game(3, 0)
    card = game.state["zones"][testing.zone(game.program, "table")][0]
    top = game.state["zones"][testing.zone(game.program, "pile")][-1]
    assert views.view(game, 0)["zones"]["table"] == [card]
    assert views.view(game, 2)["zones"]["table"] == [card]
    assert views.view(game, 1)["zones"]["table"] == []          # dark: not even counted
    assert game.state["facing"][card] == 0b101                  # seats 1 and 3, face down
    # an item of a hidden pile shown to seat 2 alone: it lies in the pile, which seat 2
    # still sees as a count (not dark), and seat 2 knows it, face down
    assert views.view(game, 1)["zones"]["pile"] == {"count": 3}
    assert views.view(game, 1)["face_down"] == [top]
    assert views.view(game, 0)["face_down"] == [card] and views.view(game, 2)["face_down"] == [card]


def test_reveal_to_is_checked():
    from meeple.dsl.errors import MeepleError
    bad = REVEAL.replace("reveal top(table) to players[2]\n  reveal top(table)", "reveal table")
    bad = bad.replace("reveal [top(pile)] to players[1]", "reveal top(pile) to 3")
    with pytest.raises(MeepleError) as e:
        compiled(bad, 3)
    assert "check/type-mismatch" in str(e.value)


# ---------------------------------------------------------------- phantom tic-tac-toe

def board_string(game, seat: int, kind: str = "Mark") -> str:
    """OpenSpiel's view of a 3 x 3 board for a seat ("x" seat 1, "o" seat 2, "." unknown),
    written from the seat's Meeple view alone."""
    zones = views.view(game, seat, log=False)["zones"]
    o = set(testing.items(game.program, kind, seat=2))
    rows = []
    for r in range(1, 4):
        row = ""
        for c in range(1, 4):
            seen = zones[f"b:r{r}c{c}"]
            row += "." if not seen else "o" if seen[0] in o else "x"
        rows.append(row)
    return "\n".join(rows)


def action(notation: str) -> int:
    """OpenSpiel's action of a cell: row x 3 + column, from 0."""
    (r, c), = [(int(notation[-3]) - 1, int(notation[-1]) - 1)]
    return r * 3 + c


# OpenSpiel's hex writes a stone joined to a side with other letters: x, y, z (black),
# o, p, q (white), capitals for a winning one
HEX_LETTERS = str.maketrans({"y": "x", "z": "x", "X": "x", "p": "o", "q": "o", "O": "o", " ": None})


def looks(game, seat: int) -> str:
    """The seat's view (no messages) with each item written as what it looks like (its
    seat): items alike are told apart by their numbers alone, which OpenSpiel does not
    have (a found mark's number would say which of the other's marks it is)."""
    view = views.view(game, seat, log=False)

    def look(i):
        return game.program.items[i].attrs["seat"] if isinstance(i, int) else i
    view["zones"] = {k: [look(i) for i in c] if isinstance(c, list) else c for k, c in view["zones"].items()}
    view["face_down"] = sorted(look(i) for i in view["face_down"])
    return json.dumps(view, sort_keys=True)


def agree_with_openspiel(prog, spiel, kind: str, games: int) -> dict[str, int]:
    """Random games in both: at each step the same seat decides, with the same legal
    moves; after it each seat's observation is its Meeple view of the board (the
    spectator sees no stone at all); at the end the returns are the outcomes. And the
    information states agree: at each decision, two histories give the deciding seat the
    same OpenSpiel information state exactly when they give it the same Meeple
    information (its successive views, items by their looks, and its own moves)."""
    rnd = random.Random(0)
    seen = {"again": 0, "found": 0, "draws": 0}
    spiel_to_meeple: dict = {}
    meeple_to_spiel: dict = {}
    for g in range(games):
        game, st = prog.new_game(2, g), spiel.new_initial_state()
        known: dict[int, list[str]] = {0: [looks(game, 0)], 1: [looks(game, 1)]}
        while not st.is_terminal():
            seat = st.current_player()
            assert game.deciding == [seat]
            a, b = (seat, st.information_state_string(seat)), (seat, "|".join(known[seat]))
            assert spiel_to_meeple.setdefault(a, b) == b and meeple_to_spiel.setdefault(b, a) == a
            legal = game.legal_moves(seat)
            assert sorted(action(m.notation) for m in legal) == st.legal_actions(), str(st)
            m = legal[rnd.randrange(len(legal))]
            game.apply(m, seat=seat)
            st.apply_action(action(m.notation))
            known[seat].append(m.notation)
            for p in (0, 1):
                if known[p][-1] != looks(game, p):
                    known[p].append(looks(game, p))
            seen["again"] += not st.is_terminal() and st.current_player() == seat
            seen["found"] += board_string(game, seat, kind).count("xo"[1 - seat]) > 0
            for p in (0, 1):
                assert board_string(game, p, kind) == st.observation_string(p).translate(HEX_LETTERS), \
                    (str(st), p)
            assert set(board_string(game, views.SPECTATOR, kind)) <= {".", "\n"}
        assert game.over
        assert game.result["outcomes"] == ["win" if x > 0 else "loss" if x < 0 else "draw"
                                           for x in st.returns()]
        seen["draws"] += game.result["draw"]
    seen["information states"] = len(spiel_to_meeple)
    return seen


@pytest.mark.parametrize("variants, spiel_name", [
    ((), "phantom_ttt"), (("abrupt",), "phantom_ttt(gameversion=abrupt)")])
def test_phantom_tic_tac_toe_agrees_with_openspiel_along_random_games(variants, spiel_name):
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    seen = agree_with_openspiel(phantom(variants), pyspiel.load_game(spiel_name), "Mark", scaled(400, 60))
    # a seat tries again after a taken cell in the classical game only; both find marks
    assert (seen["again"] > 0) == (not variants) and seen["found"] > 0 and seen["draws"] > 0
    assert seen["information states"] > 300


def test_dark_hex_agrees_with_openspiel_along_random_games():
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    spiel = pyspiel.load_game("dark_hex(gameversion=adh,num_rows=3,num_cols=3)")
    prog = interpreter.load(str(DATA / "dark_hex")).for_players(2)
    seen = agree_with_openspiel(prog, spiel, "Stone", scaled(400, 60))
    assert seen["found"] > 0 and seen["draws"] == 0 and seen["again"] == 0
    assert seen["information states"] > 300


def test_dark_hex_passes_meeple_test():
    from meeple.interpreter.analysis import testing as checks
    checks.check_ruleset(str(DATA / "dark_hex"), players=2, examples=20)


def test_abrupt_phantom_tic_tac_toe_passes_meeple_test():
    """The abrupt game tells nobody whether another's try hit a taken cell: ``meeple
    test``'s leak check, dark places included, finds nothing. (The classical game lets a
    player try again, which shows the others that the cell was taken: the check reports
    it, language.md 18.9.)"""
    from meeple.interpreter.analysis import testing as checks
    checks.check_ruleset(str(DATA / "phantom_ttt"), variants=["abrupt"], players=2, examples=20)
    with pytest.raises(AssertionError, match="secrets/non-interference"):
        checks.check_ruleset(str(DATA / "phantom_ttt"), variants=[], players=2, examples=20)


def test_phantom_tic_tac_toe_tells_a_seat_nothing_of_the_other_s_tries():
    game = phantom().new_game(2, 0)
    testing.play(game, "mark r2c2")
    before = views.view(game, 0)
    testing.play(game, "mark r2c2")   # seat 2 finds r2c2 taken: it tries again
    assert views.view(game, 0) == before | {"pending": views.view(game, 0)["pending"]}
    assert views.view(game, 1)["zones"]["b:r2c2"] == before["zones"]["b:r2c2"]
    testing.play(game, "mark r1c1")
    after = views.view(game, 0)
    # what changed for seat 1: seat 2's supply is one mark shorter (its turn is over)
    assert after["zones"] == before["zones"] | {"supply:1": {"count": 8}}
    assert after["pvars"]["tried"][1] == {"hidden": True}


@needs_kernel
@pytest.mark.kernels
def test_phantom_tic_tac_toe_plays_the_same_in_its_kernel(monkeypatch):
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    rules = interpreter.load(str(DATA / "phantom_ttt"))
    assert rules.use_native(report=False)
    fast = rules.for_players(2)
    assert fast.kernel
    moves = 0
    for seed in range(scaled(6, 2)):
        a, b = fast.new_game(2, seed), phantom().new_game(2, seed)
        rnd = random.Random(seed)
        while not b.over:
            assert kernel_difference(a.kernel_state(), b) is None, (seed, moves)
            i = rnd.randrange(b.move_count())
            a.apply(i, safe=False)
            b.apply(i, safe=False)
            moves += 1
        assert a.over and a.result == b.result
    assert moves > 10 and fast.native_fallbacks == 0


# ---------------------------------------------------------------- meeple test

def test_meeple_test_varies_where_unseen_items_of_a_dark_board_lie(tmp_path, monkeypatch):
    """tests/testdata/dark_ships.meeple passes ``meeple test``; the same with a public
    variable that counts the ships of the first row fails, by the variation of dark
    places alone (exchanging unseen ships, as before, leaves the count as it is)."""
    from meeple.interpreter.analysis import testing as checks, variations
    good = DATA / "dark_ships.meeple"
    checks.check_ruleset(str(good), players=2, examples=20)
    text = good.read_text(encoding="utf-8")
    text = text.replace("var shots: int = 0\n", "var shots: int = 0\nvar north: int = 0\n")
    text = text.replace("  shots += 1\n", "  shots += 1\n  north = count(c for c in cells(sea) "
                                          "if c.row == 1 and occupied(c))\n")
    bad = tmp_path / "dark_ships.meeple"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(AssertionError) as e:
        checks.check_ruleset(str(bad), players=2, examples=40)
    assert "secrets/non-interference" in str(e.value)
    assert "where items it cannot see lie, in variable north" in str(e.value)
    assert "moved to sea:" in str(e.value)
    monkeypatch.setitem(variations.VARIATIONS, "dark places",
                        lambda ctx, first, second, whole, probe=False: False if probe else None)
    checks.check_ruleset(str(bad), players=2, examples=40)


def test_the_secrets_of_a_seat_list_the_unseen_items_of_dark_places():
    game = dark_program().new_game(2, 0)
    testing.play(game, "lay r1c1", "lay r2c2")
    s2 = testing.at(game, "b:r2c2")[0]
    kept = views.secrets(game, 0)
    assert s2 in kept["dark places"] and s2 in kept["hidden items"]
    assert testing.at(game, "b:r1c1")[0] not in kept["dark places"]


def test_the_openspiel_adapter_tells_a_seat_nothing_of_where_the_other_played():
    """meeple.openspiel on tests/testdata/phantom_ttt: two games in which seat 1 marked
    different cells give seat 2 the same information state, observation and tensor."""
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    from meeple import openspiel
    game = openspiel.load(interpreter.load(str(DATA / "phantom_ttt")), 2)

    def play(st, seat: int, notation: str) -> None:
        # (a secret choice: a simultaneous node in which the other seat waits)
        joint = [next(a for a in st.legal_actions(p)
                      if st.action_to_string(p, a) == (notation if p == seat else "wait")) for p in (0, 1)]
        st.apply_actions(joint)

    states = []
    for first in ("mark r1c2", "mark r2c1"):
        st = game.new_initial_state()
        play(st, 0, first)
        play(st, 1, "mark r2c2")
        states.append(st)
    a, b = states
    assert a.information_state_string(1) == b.information_state_string(1)
    assert a.observation_string(1) == b.observation_string(1)
    assert a.observation_tensor(1) == b.observation_tensor(1)
    assert a.information_state_string(0) != b.information_state_string(0)


def test_the_terminal_draws_each_seat_only_the_marks_it_may_see():
    from meeple.cli import render
    game = phantom().new_game(2, 0)
    testing.play(game, "mark r2c2", "mark r2c2", "mark r1c1")   # seat 2 found r2c2 taken

    def marks(seat: int) -> list[str]:
        lines = [t.plain for t in render.board_lines(game.program, views.view(game, seat), "b")]
        return [line.split() for line in lines if not line.lstrip().startswith("r")]

    assert marks(0) == [["·", "·", "·"], ["·", "1", "·"], ["·", "·", "·"]]
    assert marks(1) == [["2", "·", "·"], ["·", "1", "·"], ["·", "·", "·"]]
    assert marks(views.SPECTATOR) == [["·"] * 3] * 3


def test_a_replay_as_a_seat_does_not_name_the_cells_the_other_tried(tmp_path):
    """``meeple replay --as SEAT`` writes another seat's secret choice into an ``owner``
    variable by its verb alone (the choice is never shown to that seat): the record of
    phantom tic-tac-toe shown as player 2 does not say where player 1 played."""
    from console import meeple_cli
    rec = tmp_path / "game.json"
    rec.write_text(json.dumps({"format": "meeple-record/2", "ruleset": "phantom_ttt", "variants": ["abrupt"],
                               "locale": None, "players": 2, "seed": 0,
                               "moves": ["mark r2c2", "mark r2c2", "mark r1c1"]}), encoding="utf-8")

    def shown(*args) -> list[str]:
        r = meeple_cli("replay", rec, "--ruleset", DATA / "phantom_ttt", "--json", *args)
        assert r.code == 0, r
        return [m["notation"] for m in json.loads(r.out)["moves"]]

    assert shown("--as", 2) == ["mark", "mark r2c2", "mark"]
    assert shown("--as", 1) == ["mark r2c2", "mark", "mark r1c1"]
    assert shown() == ["mark", "mark", "mark"]                     # a spectator


def test_the_pettingzoo_observation_tells_nothing_of_where_the_other_played():
    """meeple.pettingzoo on tests/testdata/phantom_ttt: player_1's observation after
    player_0 marked one cell or another is the same tensor."""
    pytest.importorskip("pettingzoo", reason="PettingZoo (pettingzoo) is not installed")
    from meeple import openspiel, pettingzoo
    rules = interpreter.load(str(DATA / "phantom_ttt"))
    labels = openspiel.ActionSpace(rules.for_players(2))
    seen = []
    for cell in ("r1c2", "r2c1"):
        env = pettingzoo.env(rules, 2)
        env.reset(seed=0)
        assert env.agent_selection == "player_0"
        legal = env.observe("player_0")["action_mask"].nonzero()[0]
        env.step(next(int(a) for a in legal if labels.label(int(a)) == cell))
        assert env.agent_selection == "player_1"
        seen.append(env.observe("player_1")["observation"])
    assert (seen[0] == seen[1]).all()


def test_the_rulebook_says_which_places_are_dark_and_who_is_shown_what():
    md = interpreter.rulebook_view.markdown(interpreter.rulebook.build(
        interpreter.load(str(DATA / "phantom_ttt"), variants=["abrupt"])))
    assert "`b` is dark: each player sees there only what it may see" in md
    assert "`supply` is dark" in md
    assert "Show the top piece of *c* to the active player" in md


@pytest.mark.parametrize("old, new, message", [
    ("move top(pile) to table face down for players[0]\n", "", "'reveal ... to' of nothing"),
    ("reveal [top(pile)] to players[1]",
     "let nobody = players[0]\n  nobody = none\n  reveal top(pile) to nobody", "'reveal ... to' nobody"),
])
def test_reveal_to_of_none_is_a_rule_error(old, new, message):
    from meeple.interpreter import RuleError
    assert old in REVEAL
    with pytest.raises(RuleError, match=re.escape(message)):
        compiled(REVEAL.replace(old, new), 3).new_game(3, 0)
