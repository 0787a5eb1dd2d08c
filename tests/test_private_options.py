"""The options of a decision are shown to the seat that decides (the secrets promise: what
a seat may not see never reaches it). They may not read a value private to another seat,
a variable declared ``owner`` read for another seat or one declared ``hidden``
(``check/private-options``, dsl/check_options.py): not in the list, its filter, a verb's
``when``, a subset's ``where``, a ``for each`` decision, through a local or a function.
The deciding seat's own values, and items of zones (named by their place), are fine.
The static check and ``meeple test``'s dynamic leak check agree on these decisions."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from meeple.dsl.check import check
from meeple.dsl.errors import Diagnostics, MeepleError
from meeple.dsl.load import SourceSet, merge
from meeple.dsl.parse import parse
from meeple.interpreter.analysis.invariants import Config, Stats, explore
from meeple.interpreter.compiler.compile import Ruleset

from meeple import interpreter

ROOT = Path(__file__).resolve().parent.parent
NAME = "private_options.meeple"

HEAD = """ruleset private_options
players 2..2
kind Card { value: int }
zone pile: Card hidden
zone hand: Card per player
deck cards into pile { Card(value: v) for v in 1..6 }
var limit: int per player owner = 3
var pot: int hidden = 2
var bid: int per player owner = 0
var picks: list of int per player owner = []
var shown: int = 0
var rounds: int = 0
function cap(p: player): list of int = 1..limit(p)
setup {
  roll a, b from 2..4
  limit(players[0]) = a
  limit(players[1]) = b
  deal 2 from pile to hand
}
turn {
BODY
  rounds = rounds + 1
}
end when rounds == 4
score(p) = rounds
"""


def text_of(body: str) -> str:
    return HEAD.replace("BODY", "\n".join("  " + line for line in body.splitlines()))


def _load(tmp_path, body: str):
    path = tmp_path / NAME
    path.write_text(text_of(body), encoding="utf-8")
    return interpreter.load(str(path))


# (body, what the error points at: the text at the caret)
LEAKS = [
    ('choose y from [limit(players[1])] as "pick"', "limit"),
    ('choose y from [limit(players[1])] by players[0] as "pick"', "limit"),
    ('choose y from 1..limit(active) by players[1] as "pick"', "limit"),
    ('let m = limit(players[1])\nchoose y from 1..m by players[0] as "pick"', "m"),
    ('choose y from cap(players[1]) by players[0] as "pick"', "cap(players[1])"),
    ('choose y from [i for i in 1..6 if i <= limit(players[1])] as "pick"', "limit"),
    # only through a count or a test: the options still tell something of it
    ('choose y from 1..size([i for i in 1..6 if i < limit(players[1])]) as "pick"', "limit"),
    ('choose y from [1, 2] by players[0] as "pick" or "pass" when limit(players[1]) > 3', "limit"),
    ('choose xs subset of [1, 2, 3] where size(xs) < limit(players[1]) by players[0] as "take"', "limit"),
    ('choose bid(p) from 0..limit(players[1]) for each p in [players[0]] as "bid"', "limit"),
    ('choose bid(p) from [limit(q) for q in players] for each p in players as "bid"', "limit"),
    ('choose 2 picks(p) from [i for i in 1..5 if i != limit(players[1])] for each p in [players[0]] as "pick"',
     "limit"),
    ('choose y from 1..pot by players[0] as "pick"', "pot"),
    ('best q in players by limit(q) tie choose', "limit"),
    # the local holds the value of the seat that was active: another one decides
    ('let m = limit(active)\nactive = next_player(active)\nchoose y from 1..m as "pick"', "m"),
    ('let m = limit(active)\nfor i in [1, 2] {\n  choose y from 1..m as "pick"\n  active = next_player(active)\n}',
     "m"),
    # a value the loop's body sets, read by the decision of the next round: the seat it
    # was read for then, which the loop sets again (or another one)
    ('let m = limit(active)\nfor i in [1, 2] {\n  choose y from 1..m as "pick"\n'
     '  m = limit(next_player(active))\n}', "m"),
    ('let m = 0\nfor q in players {\n  choose y from 0..m by q as "pick"\n  m = limit(q)\n}', "m"),
    # a comprehension naming its variable as the local binds it only inside itself
    ('let m = limit(players[1])\nchoose y from [m for m in 1..2] + [m] by players[0] as "pick"', "m"),
    # a die given in one branch only: where it is not, the local keeps the secret
    ('let m = limit(players[1])\nroll a from 1..3\nif a == 1 {\n  m = a\n}\nchoose y from 1..m by players[0] as "pick"',
     "m"),
    # bound again in a branch only (the same local): where the branch does not run, it
    # still holds the secret
    ('let m = limit(players[1])\nif rounds == 7 {\n  let m = 1\n}\nchoose y from 1..m by players[0] as "pick"', "m"),
    ('let m = limit(players[1])\nif rounds == 7 {\n  roll m from 1..3\n}\nchoose y from 1..m by players[0] as "pick"',
     "m"),
    ('let m = limit(players[1])\nif rounds == 7 {\n  best m in [1, 2] by 1 tie first\n}\n'
     'choose y from 1..m by players[0] as "pick"', "m"),
    # a seat known to be the decider's no longer: either name set again in between (in a
    # branch, a loop's later round), or set the same only where a branch runs
    ('let me = active\nactive = next_player(active)\nchoose y from 1..limit(me) as "pick"', "limit"),
    ('let me = active\nlet m = limit(me)\nactive = next_player(active)\nchoose y from 1..m as "pick"', "m"),
    ('let me = active\nif rounds == 7 {\n  active = next_player(active)\n}\nchoose y from 1..limit(me) as "pick"',
     "limit"),
    ('let me = players[1]\nif rounds == 7 {\n  me = active\n}\nchoose y from 1..limit(me) as "pick"', "limit"),
    ('let me = players[1]\nfor i in [1, 2] {\n  choose y from 1..limit(me) as "pick"\n  me = active\n}', "limit"),
    ('let me = active\nfor i in [1, 2] {\n  choose y from 1..limit(me) as "pick"\n  active = next_player(active)\n}',
     "limit"),
    ('for p in players {\n  active = p\n  p = players[1]\n  choose y from 1..limit(p) as "pick"\n}', "limit"),
    ('let me = active\nchoose bid(p) from 0..limit(me) for each p in [players[1]] as "bid"', "limit"),
    # set again in a branch only: where it does not run, the local holds the other seat's
    ('let m = limit(players[0])\nif active == players[1] {\n  m = limit(players[1])\n}\n'
     'choose y from 1..m by players[1] as "pick"', "m"),
    ('let m = limit(players[0])\nm = m + limit(players[1])\nchoose y from 1..m by players[1] as "pick"', "m"),
]

FINE = [
    'choose y from 1..limit(active) as "pick"',
    'choose y from 1..limit(players[0]) by players[0] as "pick"',
    'choose y from 1..limit(players[1]) by players[1] as "pick"',
    'let m = limit(active)\nchoose y from [i for i in 1..m] as "pick"',
    'choose y from cap(active) as "pick"',
    'choose y from [1, 2] as "pick" or "pass" when limit(active) > 3',
    'choose bid(p) from 0..limit(p) for each p in players as "bid"',
    'choose bid(p) from cap(active) for each p in [active] as "bid"',
    'choose 2 picks(p) from [i for i in 1..5 if i != limit(p)] for each p in players as "pick"',
    'best q in players by shown tie choose',
    # items of a hand only its seat sees, and of a hidden pile: named by their place
    'choose c from items(hand(active)) as "play"\nmove c to pile',
    'choose c from items(pile) as "take"',
    'choose bid(p) from [c.value for c in items(hand(p))] for each p in players as "bid"',
    # a private value shown to its own seat, then made public: the options may read the copy
    'shown = limit(players[1])\nchoose y from 1..shown by players[0] as "pick"',
    # set in the loop from the seat that decides, which the loop does not change
    'let m = 0\nfor i in [1, 2] {\n  m = limit(active)\n  choose y from 1..m as "pick"\n}',
    'let m = limit(active)\nfor i in [1, 2] {\n  choose y from 1..m as "pick"\n  m = limit(active)\n}',
    'let m = limit(players[1])\nchoose y from [m for m in 1..2] by players[0] as "pick"',
    # a local or ``active`` known to hold the seat that decides, while nothing sets either
    'let me = active\nchoose y from 1..limit(me) as "pick"',
    'for p in players {\n  active = p\n  choose y from 1..limit(p) as "pick"\n}',
    'let me = active\nlet you = me\nlet m = limit(you)\nif rounds == 7 {\n  shown = 1\n}\n'
    'choose y from 1..m as "pick"',
    'let q = active\nchoose y from 1..limit(active) by q as "pick"',
    # set again, unconditionally, from the seat that decides: what it held before is gone
    'let m = limit(players[0])\nif active == players[1] {\n  m = limit(players[1])\n'
    '  choose y from 1..m by players[1] as "pick"\n}',
]


def _located(err: MeepleError, body: str, at: str) -> None:
    text = err.render()
    assert "error[check/private-options]" in text, text
    m = re.search(rf"{NAME}:(\d+):(\d+): the options of a decision are shown to the seat that decides", text)
    assert m, text
    line, col = int(m.group(1)), int(m.group(2))
    src = text_of(body).splitlines()[line - 1]
    assert src[col - 1:].startswith(at), (src, col, at)
    caret = text.splitlines()[text.splitlines().index(f" {line} | {src}") + 1]
    assert caret.endswith(" " * (col - 1) + "^" * len(at.split("(")[0])), caret
    assert re.search(r"\nhint: .*let the seat the value belongs to decide", text), text


@pytest.mark.parametrize("body, at", LEAKS)
def test_options_reading_another_seats_secret_are_refused_where_they_read_it(tmp_path, body, at):
    with pytest.raises(MeepleError) as err:
        _load(tmp_path, body)
    _located(err.value, body, at)
    assert [d.code for d in err.value.diagnostics] == ["check/private-options"]


@pytest.mark.parametrize("body", FINE)
def test_options_reading_the_deciders_own_values_are_accepted(tmp_path, body):
    assert _load(tmp_path, body).name == "private_options"


def test_the_message_names_the_local_and_the_variable_it_holds(tmp_path):
    with pytest.raises(MeepleError) as err:
        _load(tmp_path, 'let m = limit(players[1])\nchoose y from 1..m as "pick"')
    assert "they read 'm', holding the value of 'limit' of another seat (declared 'owner'" in str(err.value)
    with pytest.raises(MeepleError) as err:
        _load(tmp_path, 'choose y from 1..pot as "pick"')
    assert "they read 'pot' (declared 'hidden': no seat may see it)" in str(err.value)
    with pytest.raises(MeepleError) as err:
        _load(tmp_path, 'choose y from cap(players[1]) as "pick"')
    assert "they read 'limit' through 'cap' of another seat" in str(err.value)
    with pytest.raises(MeepleError) as err:    # (whose value 'm' holds is not known here)
        _load(tmp_path, 'let m = limit(active)\nactive = next_player(active)\nchoose y from 1..m as "pick"')
    assert "of a seat that may be another" in str(err.value)
    assert "hint: read it in the options, for the seat that decides named as the decision names it " \
           "('limit(active)'); else let the seat" in str(err.value)


def test_a_parameter_shadowed_by_a_comprehension_is_each_elements_seat(tmp_path):
    text = text_of('choose y from everyones(active) as "pick"').replace(
        "turn {", "function everyones(p: player): list of int = [limit(p) for p in players]\nturn {")
    path = tmp_path / NAME
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MeepleError) as err:
        interpreter.load(str(path))
    assert "they read 'limit' through 'everyones' of a seat that may be another" in str(err.value)


def test_a_procedures_parameter_holding_a_secret_is_anybodys(tmp_path):
    """A value handed to a procedure is followed, but not whose it is: the procedure may be
    called for any seat."""
    text = text_of('call offer(limit(active))').replace(
        "turn {", 'procedure offer(m: int) {\n  choose y from 1..m as "pick"\n}\nturn {')
    path = tmp_path / NAME
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MeepleError) as err:
        interpreter.load(str(path))
    assert "check/private-options" in str(err.value) and "'m', holding the value of 'limit'" in str(err.value)


def test_a_die_returned_in_a_branch_leaves_the_secret_a_local_held(tmp_path):
    """``m = call die()`` in a branch: where the branch does not run, ``m`` still holds
    the other seat's value."""
    body = 'let m = limit(players[1])\nif rounds == 7 {\n  m = call die()\n}\nchoose y from 1..m by players[0] as "pick"'
    text = text_of(body).replace(
        "turn {", "procedure die(): int {\n  roll a from 1..3\n  return a\n}\nturn {")
    path = tmp_path / NAME
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MeepleError) as err:
        interpreter.load(str(path))
    assert "check/private-options" in str(err.value) and "'m', holding the value of 'limit'" in str(err.value)


def _refused(tmp_path, body: str, procedures: str) -> str:
    path = tmp_path / NAME
    path.write_text(text_of(body).replace("turn {", procedures + "turn {"), encoding="utf-8")
    with pytest.raises(MeepleError) as err:
        interpreter.load(str(path))
    assert [d.code for d in err.value.diagnostics] == ["check/private-options"]
    return err.value.render()


def test_a_call_between_ends_what_is_known_of_active(tmp_path):
    """A procedure may set ``active``: ``me`` is no longer known to be the seat that
    decides."""
    text = _refused(tmp_path, 'let me = active\ncall turn_over()\nchoose y from 1..limit(me) as "pick"',
                    "procedure turn_over() {\n  active = next_player(active)\n}\n")
    assert "they read 'limit' of 'me', a seat that may be another" in text
    assert "hint: if 'me' is the seat that decides, say so: ask it 'by me' (or read 'limit(active)')" in text


def test_a_parameter_is_not_followed_to_its_argument_and_the_hint_says_by(tmp_path):
    """``ask(active)``: the check does not follow the argument into the procedure (it may
    be called for another seat); the hint tells how to write it so that it is accepted."""
    ask = "procedure ask(q: player) {\n  ASK\n}\n"
    text = _refused(tmp_path, "call ask(active)", ask.replace("ASK", 'choose y from 1..limit(q) as "pick"'))
    assert "hint: if 'q' is the seat that decides, say so: ask it 'by q' (or read 'limit(active)')" in text
    for written in ('choose y from 1..limit(q) by q as "pick"', 'choose y from 1..limit(active) as "pick"'):
        path = tmp_path / NAME     # (each way the hint offers is accepted)
        path.write_text(text_of("call ask(active)").replace("turn {", ask.replace("ASK", written) + "turn {"),
                        encoding="utf-8")
        assert interpreter.load(str(path)).name == "private_options"


def test_a_procedures_result_is_anybodys_and_the_hint_names_the_read(tmp_path):
    """``let m = call mine()``: whose value a procedure returns is not followed."""
    mine = "procedure mine(): int {\n  return limit(active)\n}\n"
    text = _refused(tmp_path, 'let m = call mine()\nchoose y from 1..m as "pick"', mine)
    assert "they read 'm', holding the value of 'limit' of a seat that may be another" in text
    assert "hint: read it in the options, for the seat that decides named as the decision names it " \
           "('limit(active)')" in text


@pytest.mark.parametrize("name", ["phantom_ttt", "dark_hex", "first_price_auction.meeple", "liars_poker"])
def test_the_rulesets_with_private_values_still_load(name):
    assert interpreter.load(str(ROOT / "tests" / "testdata" / name)).checked.vars


# ---------------------------------------------------------------- the dynamic check agrees

def _unchecked(body: str):
    """The ruleset compiled whatever the checker says, and the codes of its errors."""
    text = text_of(body)
    src = SourceSet(base=parse(text, NAME), sources={NAME: text})
    diags = Diagnostics()
    checked, diags = check(merge(src, [], None, diags), diags)
    return Ruleset(checked, src), [d.code for d in diags.errors()]


# decisions asked of one seat only (the dynamic check stops where the other seat's own
# options differ: it is told privately), each with whether it leaks
AGREE = [
    ('choose y from [limit(players[1])] by players[0] as "pick"', True),
    ('let m = limit(players[1])\nchoose y from 1..m by players[0] as "pick"', True),
    ('choose y from cap(players[1]) by players[0] as "pick"', True),
    ('choose y from [1, 2] by players[0] as "pick" or "pass" when limit(players[1]) > 3', True),
    ('choose bid(p) from 0..limit(players[1]) for each p in [players[0]] as "bid"', True),
    ('choose y from 1..pot by players[0] as "pick"', True),
    ('choose y from 1..limit(players[0]) by players[0] as "pick"', False),
    ('choose y from cap(players[0]) by players[0] as "pick" or "pass" when limit(players[0]) > 3', False),
    ('choose bid(p) from 0..limit(p) for each p in [players[0]] as "bid"', False),
    ('let m = limit(players[0])\nchoose y from 1..m by players[0] as "pick"', False),
    ('let m = limit(active)\nfor i in [1, 2] {\n  choose y from 1..m as "pick"\n'
     '  m = limit(next_player(active))\n}', True),
    ('let m = 0\nfor i in [1, 2] {\n  m = limit(active)\n  choose y from 1..m as "pick"\n}', False),
    ('let m = limit(players[1])\nchoose y from [m for m in 1..2] + [m] by players[0] as "pick"', True),
    ('let m = limit(players[1])\nchoose y from [m for m in 1..2] by players[0] as "pick"', False),
    ('let m = limit(players[1])\nroll a from 1..3\nif a == 1 {\n  m = a\n}\nchoose y from 1..m by players[0] as "pick"',
     True),
    ('let m = limit(players[0])\nroll a from 1..3\nif a == 1 {\n  m = a\n}\nchoose y from 1..m by players[0] as "pick"',
     False),
    ('let m = limit(players[1])\nif rounds == 7 {\n  let m = 1\n}\nchoose y from 1..m by players[0] as "pick"', True),
    ('let m = limit(players[1])\nif rounds == 7 {\n  roll m from 1..3\n}\nchoose y from 1..m by players[0] as "pick"',
     True),
    ('let m = limit(players[1])\nlet m = 1\nchoose y from 1..m by players[0] as "pick"', False),
    # a local or ``active`` known to hold the seat that decides, while nothing sets either
    ('let me = active\nchoose y from 1..limit(me) as "pick"', False),
    ('for p in players {\n  active = p\n  choose y from 1..limit(p) as "pick"\n}', False),
    ('let m = limit(players[0])\nif active == players[1] {\n  m = limit(players[1])\n'
     '  choose y from 1..m by players[1] as "pick"\n}', False),
    ('let me = players[1]\nif rounds == 1 {\n  me = active\n}\nchoose y from 1..limit(me) as "pick"', True),
]


@pytest.mark.parametrize("body, leaks", AGREE)
def test_the_dynamic_leak_check_agrees_with_the_static_one(body, leaks):
    rules, codes = _unchecked(body)
    assert codes == (["check/private-options"] if leaks else [])
    failure = explore(lambda config: rules, [Config(2)], 40, 0, Stats())
    if leaks:
        assert failure is not None and failure.check == "secrets/non-interference"
        assert re.search(r"Player \d is shown something that depends on variables it may not see, "
                         r"in the options", failure.message), failure.message
    else:
        assert failure is None, failure.message
