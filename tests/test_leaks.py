"""Leak detection by non-interference (`meeple test`, interpreter/analysis/leaks.py): exchanging two
items a seat has never been shown must not change anything that seat is shown. Rulesets
broken on purpose (tests/broken/leaky_*) leak a hidden card through a message, a public
variable, the options of a decision and the notation of an option; each is reported with
the seat, the items and where it showed. A ruleset that hides its cards properly passes."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from meeple.cli.main import app
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter.analysis import leaks, testing
from meeple.interpreter.analysis.invariants import Config, Failure, Stats, explore, play_and_check
from meeple.interpreter.play import record, views
from typer.testing import CliRunner

from meeple import interpreter

BROKEN = Path(__file__).resolve().parent / "broken"
runner = CliRunner()


def meeple(*args):
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.output


def compiled(text: str, name: str = "t.meeple"):
    return interpreter.compile_sources(SourceSet(base=parse(text, name), sources={name: text}))


# A ruleset that keeps its secrets: cards drawn are named in messages only for their owner,
# laid face down for their owner, and shown (flip) before anything public depends on them.
TIDY = """ruleset tidy
title "Tidy secrets"
players 2..3

enum Colour { red, blue, green }
kind Card { colour: Colour, value: int, var marks: int = 0 }

zone draw: Card hidden
zone hand: Card per player owner
zone table: Card public
zone discard: Card public

deck cards into draw { Card(colour: c, value: v) for c in Colour for v in 1..4 }

var left: int = 0
var last_played: Colour = red
var last_card: Card = none

setup {
  shuffle draw
  deal 2 from draw to hand
}

turn {
  if occupied(hand(active)) {
    choose card from items(hand(active)) as "play"
    card.marks = card.marks + 1
    move card to table face down for active
    last_card = card
    log hid "{active} lays {card} face down"
    if size(table) >= 2 {
      flip items(table) face up
      last_played = top(table).colour
      log shown "{top(table)} is shown"
      move items(table) to discard
    }
  }
  if occupied(draw) {
    let c = top(draw)
    move c to hand(active)
    log drew "{active} draws {c}"
  }
  left = size(draw)
}

end when all(empty(hand(p)) for p in players)
score(p) = size(discard)
secret hand
"""


@pytest.mark.parametrize("name,where,line", [
    ("leaky_log", "in the log: 'Player 1 draws a ", 'log drew "{active} draws a {c.colour} card"'),
    ("leaky_variable", "in variable last_colour: ", "var last_colour: Colour = red"),
    ("leaky_options", "in the options: 'do wait' exists in one game and not in the other",
     "choose act from (if top(draw).colour == red"),
    ("leaky_option_texts", "in the options: 'announce ", 'choose colour from [top(draw).colour] as "announce"'),
])
def test_meeple_test_reports_each_kind_of_leak(tmp_path, name, where, line):
    out = tmp_path / "failure.json"
    code, text = meeple("test", BROKEN / name, "--players", 2, "--examples", 150, "--seed", 1,
                        "--out", out, "--quiet")
    assert code == 1, text
    # the seat, by name
    assert re.search(r"FAILED secrets/non-interference: (Player \d|the spectator) is shown", text), text
    assert "is shown something that depends on items it cannot see" in text
    assert where in text, text                                            # where it showed
    assert text.count("Card ") >= 2 and "exchanged" in text               # the two items
    assert line in text and "^" in text                                   # the rule's line
    rec = json.loads(out.read_text())
    assert rec["players"] == 2 and len(rec["moves"]) <= 8, rec["moves"]   # shrunk
    # the saved game replays up to the move that showed the leak
    game = record.replay(interpreter.load(str(BROKEN / name)), record.load(out))
    assert game.state["moves"] == len(rec["moves"])


def test_a_ruleset_that_keeps_its_secrets_passes_and_is_probed(tmp_path):
    path = tmp_path / "tidy.meeple"
    path.write_text(TIDY, encoding="utf-8")
    code, text = meeple("test", path, "--examples", 80, "--quiet")
    assert code == 0, text
    assert "every invariant held" in text
    # the check really ran: twins were made and played along
    rules = compiled(TIDY)
    stats = Stats()
    assert explore(lambda c: rules, [Config(2), Config(3)], 40, 0, stats) is None
    assert stats.probes >= 10 and stats.twin_moves >= 10, stats


# What a player is asked depends on its own hand: the rules show everyone whether it
# holds a red card. The others learn it from the rules, not through a leak: when the
# deciding seat is asked something else in the twin, the comparison ends there.
OWN_HAND = """ruleset own_hand
title "Own hand"
players 2..3

enum Colour { red, blue, green }
kind Card { colour: Colour, value: int }

zone draw: Card hidden
zone hand: Card per player owner
zone discard: Card public

deck cards into draw { Card(colour: c, value: v) for c in Colour for v in 1..4 }

setup {
  shuffle draw
  deal 2 from draw to hand
}

turn {
  let reds = [c for c in items(hand(active)) if c.colour == red]
  if occupied(reds) {
    choose card from reds as "discard"
    move card to discard
  } else {
    choose x from [1, 2] as "pass"
  }
  if occupied(draw) {
    move top(draw) to hand(active)
  }
}

end when empty(draw)
score(p) = size(hand(p))
"""


def test_what_a_seat_is_asked_may_depend_on_what_it_sees():
    rules = compiled(OWN_HAND)
    stats = Stats()
    assert explore(lambda c: rules, [Config(2), Config(3)], 80, 0, stats) is None
    assert stats.probes >= 20, stats


def test_a_probe_names_the_seat_the_items_and_where_and_keeps_the_moves_up_to_the_leak():
    rules = interpreter.load(str(BROKEN / "leaky_log"))
    # after the setup, player 2 (seat 1) gets two cards exchanged: the draw pile's top card
    # and another card it has never seen; player 1 then draws the top card
    with pytest.raises(Failure) as e:
        play_and_check(rules, Config(2), 1, [], probes=[(0, 1, 0, 0)])
    f = e.value
    assert f.check == "secrets/non-interference"
    assert f.message.startswith("Player 2 is shown something that depends on items it cannot see, "
                                "in the log: 'Player 1 draws a ")
    assert "(draw#8)" in f.message and "exchanged after the setup" in f.message
    assert f.span.line == 27 and f.span.file.endswith("leaky_log.meeple")
    assert f.moves == ["play red-3"]         # the game up to the move that showed it
    # the spectator (seat number = players) is probed too
    with pytest.raises(Failure, match="the spectator is shown something"):
        play_and_check(rules, Config(2), 1, [], probes=[(0, 2, 0, 0)])
    # without probes nothing is exchanged, and the game passes the other checks
    assert play_and_check(rules, Config(2), 1, []).over


def test_the_pytest_entry_point_reports_a_leak():
    with pytest.raises(AssertionError, match=r"secrets/non-interference \(.*leaky_variable.meeple:16\)"):
        testing.check_ruleset(str(BROKEN / "leaky_variable"), players=2, examples=60, seed=1)


# ---------------------------------------------------------------- the exchange

def test_an_exchange_swaps_places_and_every_reference_but_not_who_sees_a_place():
    rules = compiled(TIDY)
    game = rules.new_game(2, seed=4)
    game.apply(0)                      # player 1 lays a card face down for itself
    prog, state = game.program, game.state
    table, draw = testing.zone(prog, "table"), testing.zone(prog, "draw")
    laid = state["zones"][table][0]
    other = state["zones"][draw][2]
    assert state["facing"][laid] == 1 and state["vars"]["last_card"] == laid
    twin = leaks.exchange(game, laid, other).state
    assert twin["zones"][table] == [other] and twin["loc"][other] == state["loc"][laid]
    assert twin["zones"][draw][2] == laid and twin["loc"][laid] == state["loc"][other]
    assert twin["facing"][other] == 1 and twin["facing"][laid] == -1   # facing stays with the place
    assert twin["vars"]["last_card"] == other                          # variables follow
    said = [e for e in twin["log"] if prog.logs[e[0]].key == "hid"][-1]
    assert said[1][1] == other                                         # and so do messages
    assert game.state["zones"][table] == [laid]                        # the game is unchanged
    # player 2 and the spectator see the same in both games; player 1 does not
    for seat in (1, views.SPECTATOR):
        assert views.view(game, seat) == views.view(leaks.exchange(game, laid, other), seat)
    assert views.view(game, 0) != views.view(leaks.exchange(game, laid, other), 0)


def test_the_pending_options_follow_the_exchange_in_the_order_the_rules_give():
    rules = compiled(TIDY)
    game = rules.new_game(2, seed=4)
    prog, zones = game.program, game.state["zones"]
    mine = sorted(zones[testing.zone(prog, "hand:0")])
    deck = zones[testing.zone(prog, "draw")]
    pick = next(i for i in deck if prog.items[i].attrs != prog.items[mine[0]].attrs)
    twin = leaks.exchange(game, mine[0], pick)
    assert [m.value for m in twin.legal_moves()] == sorted([pick, mine[1]])


def test_only_items_a_seat_has_never_been_shown_are_exchanged():
    rules = compiled(TIDY)
    game = rules.new_game(2, seed=4)
    known = leaks.Knowledge(len(game.program.items), 2)
    known.update(game)
    hand0 = set(game.state["zones"][testing.zone(game.program, "hand:0")])
    assert not hand0 & set(leaks.candidates(game, 0, known))       # its own hand
    assert hand0 <= set(leaks.candidates(game, 1, known))           # another's hand
    game.apply(0)
    game.apply(0)                                                   # both laid cards are shown
    known.update(game)
    shown = set(game.state["zones"][testing.zone(game.program, "discard")])
    assert len(shown) == 2
    for seat in (0, 1, views.SPECTATOR):
        assert not shown & set(leaks.candidates(game, seat, known))
    # a card once shown stays known even when it goes back into hiding
    state, draw, back = game.state, testing.zone(game.program, "draw"), sorted(shown)[0]
    state["zones"][state["loc"][back]].remove(back)
    state["zones"][draw].append(back)
    state["loc"][back] = draw
    game = rules.resume(state)
    assert back not in leaks.candidates(game, 1, known)
