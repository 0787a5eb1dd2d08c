"""The interpreter's semantics, statement by statement, on small synthetic rulesets
written here (a deck of twelve cards, hands, a table, a line board).

The deck is created in order: red 1..6 are items 0..5, blue 1..6 are items 6..11, and
the last item created (blue 6, item 11) is on top of the deck."""
from __future__ import annotations

import json
import re
from functools import cache

import pytest
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import BudgetError, IllegalMove, RuleError, compile_sources
from meeple.interpreter.play import views
from meeple.interpreter.play.runtime import revealed_since

FILE = "t.meeple"

PRELUDE = """ruleset t
players 1..4
order {order}
enum Suit {{ red, blue }}
kind Card {{ suit: Suit, rank: int }}
zone deck: Card hidden
zone hand: Card per player
zone table: Card
zone vault: Card hidden
board row: line(length: 3) holds Card
deck cards into deck {{ Card(suit: s, rank: r) for s in Suit for r in 1..6 }}
var done: bool = false
var n: int = 0
var gold: int per player = 0
"""
PRELUDE_LINES = PRELUDE.count("\n")
WAIT = 'turn { choose w from [0] as "wait" }\nend when done\n'


@cache
def program(rules: str, order: str = "clockwise"):
    text = PRELUDE.format(order=order) + rules
    src = SourceSet(base=parse(text, FILE), sources={FILE: text})
    return compile_sources(src)


def game(rules: str, players: int = 2, seed: int = 0, order: str = "clockwise"):
    return program(rules, order).new_game(players, seed)


def after_setup(setup: str, players: int = 2, seed: int = 0, extra: str = "", order: str = "clockwise"):
    """A game whose setup is ``setup`` and whose turns wait for a move that does nothing."""
    return game(f"{extra}\nsetup {{\n{setup}\n}}\n{WAIT}", players, seed, order)


def line_of(rules: str, fragment: str) -> int:
    """The line (in the whole file) of the first rules line containing fragment."""
    for i, line in enumerate(rules.split("\n")):
        if fragment in line:
            return PRELUDE_LINES + 1 + i
    raise AssertionError(fragment)


def zone(g, key: str) -> list[int]:
    for z in g.program.zones:
        if z.key == key:
            return list(g.state["zones"][z.id])
    raise KeyError(key)


def notations(g) -> list[str]:
    return [m.notation for m in g.legal_moves()]


RED = {r: r - 1 for r in range(1, 7)}
BLUE = {r: r + 5 for r in range(1, 7)}


def test_deck_layout():
    g = after_setup("")
    assert zone(g, "deck") == list(range(12))
    assert [it.notation for it in g.program.items[:2]] == ["red-1", "red-2"]
    assert g.program.items[BLUE[6]].attrs == {"suit": "blue", "rank": 6}


# ---------------------------------------------------------------- variables and control flow

def test_let_assign_and_if_elif_else():
    g = after_setup("""
  let x = 3
  x = x + 1
  if x > 10 { n = 1 } elif x == 4 { n = 2 } elif x == 4 { n = 3 } else { n = 4 }
  if false { done = true }
  if x == 0 { gold(players[0]) = 1 } else { gold(players[1]) = x }
""")
    assert g.state["vars"]["n"] == 2 and g.state["vars"]["done"] is False
    assert g.state["pvars"]["gold"] == [0, 4]


def test_for_and_while():
    g = after_setup("""
  for i in 1..4 { n = n + i }
  let k = 0
  while k < 3 max 3 { k = k + 1  gold(players[1]) = gold(players[1]) + k }
  for c in items(deck) { if c.rank == 6 { move c to table } }
""")
    assert g.state["vars"]["n"] == 10
    assert g.state["pvars"]["gold"] == [0, 6]
    assert zone(g, "table") == [RED[6], BLUE[6]]


def test_while_may_run_exactly_its_max():
    g = after_setup("while n < 5 max 5 { n = n + 1 }")
    assert g.state["vars"]["n"] == 5


def test_while_beyond_its_max_is_a_budget_error_naming_the_line():
    rules = "setup {\n  n = 1\n  while true max 5 { n = n + 1 }\n}\n" + WAIT
    with pytest.raises(BudgetError) as e:
        game(rules)
    line = line_of(rules, "while true")
    assert f"{FILE}:{line}" in str(e.value)
    assert "max of 5" in str(e.value) and e.value.code == "rule/budget"


def test_per_player_variables():
    g = after_setup("gold(players[1]) = 5\ngold(players[0]) = gold(players[1]) * 2", players=3,
                    extra="var lives: int per player = 3")
    assert g.state["pvars"]["gold"] == [10, 5, 0]
    assert g.state["pvars"]["lives"] == [3, 3, 3]
    assert views.view(g, 2)["pvars"]["gold"] == [10, 5, 0]


# ---------------------------------------------------------------- decisions

def test_choose_asks_the_active_player_with_sorted_options():
    g = game("""
turn {
  choose x from [3, 1, 2] as "pick"
  n = x
  done = true
}
end when done
""")
    assert g.active_player == 0
    assert notations(g) == ["pick 1", "pick 2", "pick 3"]
    assert [m.index for m in g.legal_moves()] == [0, 1, 2]
    m = g.apply("pick 3")
    assert (m.value, m.notation, m.player) == (3, "pick 3", 0)
    assert g.state["vars"]["n"] == 3 and g.over


def test_choose_by_another_player_and_moves_by_index_or_bare_notation():
    g = game("""
turn {
  choose c from items(deck) by next_player(active)
  move c to table
  choose p from players by players[0] as "name"
  n = seat(p)
}
end when size(table) > 0
""", players=3)
    assert g.active_player == 1
    # the deck is hidden: its cards are named by place (1 = bottom), not by what they are
    assert notations(g)[:2] == ["deck#1", "deck#2"]        # no verb: the bare notation
    g.apply("DECK#12")                                      # notation is case-insensitive
    assert notations(g) == ["name p1", "name p2", "name p3"] and g.active_player == 0
    g.apply("p2")                                           # the verb may be left out
    assert zone(g, "table") == [BLUE[6]] and g.state["vars"]["n"] == 2 and g.over


def test_choose_from_nothing_is_a_rule_error():
    with pytest.raises(RuleError, match="'choose x' has nothing to choose from"):
        game("turn { choose x from items(table) }\nend when done\n")


def test_choose_subset_where():
    g = game("""
setup { for c in items(deck) { if c.rank <= 4 and c.suit == red { move c to hand(players[0]) } } }
turn {
  choose s subset of items(hand(active)) where sum(c.rank for c in s) == 5 as "pair"
  move s to table
  done = true
}
end when done
""")
    assert notations(g) == ["pair red-1+red-4", "pair red-2+red-3"]
    g.apply("pair red-2+red-3")
    assert zone(g, "table") == [RED[2], RED[3]] and zone(g, "hand:0") == [RED[1], RED[4]]


def test_choose_subset_lists_smaller_subsets_first():
    g = game('turn { choose s subset of [1, 2, 3] as "take"  n = sum(s)  done = true }\nend when done\n')
    assert notations(g) == ["take 1", "take 2", "take 3", "take 1+2", "take 1+3", "take 2+3", "take 1+2+3"]
    g.apply("take 1+3")
    assert g.state["vars"]["n"] == 4


def test_choose_subset_without_a_fitting_subset_is_a_rule_error():
    with pytest.raises(RuleError, match="no subset that satisfies"):
        game("turn { choose s subset of [1, 2] where sum(s) > 5 }\nend when done\n")


def test_subsets_of_too_many_elements_is_a_budget_error():
    with pytest.raises(BudgetError, match="subsets of 20 elements"):
        game("turn { choose s subset of 1..20 }\nend when done\n")


def best(keys: str) -> str:
    return f"""
setup {{
  for c in items(deck) {{ if c.rank >= 5 {{ move c to table }} }}
  best b in items(table) by {keys}
  move b to row_first()
}}
function row_first(): row = cells(row)[0]
""" + WAIT


def test_best_with_a_single_winner_and_second_keys():
    assert zone(game(best("b.rank, b.suit == blue")), "row:s1") == [BLUE[6]]
    assert zone(game(best("b.rank, b.suit == red")), "row:s1") == [RED[6]]
    assert zone(game(best("0 - b.rank, b.suit == red")), "row:s1") == [RED[5]]
    assert zone(game(best("b.suit == blue, 0 - b.rank")), "row:s1") == [BLUE[5]]


def test_best_tie_first_takes_the_first_in_list_order():
    g = game(best("b.rank tie first"))
    assert zone(g, "row:s1") == [RED[6]]
    assert g.state["rng"] == after_setup("").state["rng"]   # no randomness used


def test_best_tie_random_is_decided_by_the_seed():
    rules = best("b.rank tie random")
    picks = {seed: zone(game(rules, seed=seed), "row:s1")[0] for seed in range(12)}
    assert set(picks.values()) == {RED[6], BLUE[6]}
    assert all(zone(game(rules, seed=s), "row:s1")[0] == p for s, p in picks.items())
    assert game(rules).state["rng"] != game(best("b.rank tie first")).state["rng"]


def test_best_tie_choose_asks_among_the_tied_only():
    g = game(best("b.rank"), players=3)
    assert g.active_player == 0 and notations(g) == ["tie red-6", "tie blue-6"]
    g.apply("tie blue-6")
    assert zone(g, "row:s1") == [BLUE[6]]
    g = game(best("b.rank tie choose by players[2]"), players=3)
    assert g.active_player == 2 and len(g.legal_moves()) == 2


def test_best_of_nothing_is_a_rule_error():
    with pytest.raises(RuleError, match="'best b' has an empty list"):
        after_setup("best b in items(table) by b.rank tie first")


# ---------------------------------------------------------------- effects

def test_move_single_items_and_lists():
    g = after_setup("""
  move top(deck) to table
  move [c for c in items(deck) if c.rank == 1] to table
  move top(deck, 2) to cells(row)[1]
  move bottom(table) to hand(players[1])
""")
    assert zone(g, "table") == [RED[1], BLUE[1]]
    assert zone(g, "hand:1") == [BLUE[6]]
    assert zone(g, "row:s2") == [BLUE[5], BLUE[4]]          # top(deck, 2): the top first
    assert len(zone(g, "deck")) == 12 - 5
    assert g.state["loc"][BLUE[6]] == g.program.zone_index["hand"] + 1


def test_move_of_none_is_a_rule_error():
    with pytest.raises(RuleError, match="'move' of nothing"):
        after_setup("move top(table) to deck")


def test_shuffle_is_deterministic_by_seed():
    orders = {seed: zone(after_setup("shuffle deck", seed=seed), "deck") for seed in (1, 2, 3)}
    assert orders[1] == zone(after_setup("shuffle deck", seed=1), "deck")
    assert sorted(orders[1]) == list(range(12))
    assert len({tuple(o) for o in orders.values()}) == 3
    assert after_setup("shuffle deck", seed=1).state["rng"] != after_setup("", seed=1).state["rng"]


def test_deal_n_goes_round_the_table_from_the_active_player():
    g = after_setup("active = players[1]\ndeal 2 from deck to hand", players=3)
    assert [zone(g, f"hand:{p}") for p in range(3)] == [[9, 6], [11, 8], [10, 7]]
    g = after_setup("active = players[1]\ndeal 2 from deck to hand", players=3, order="counterclockwise")
    assert [zone(g, f"hand:{p}") for p in range(3)] == [[10, 7], [11, 8], [9, 6]]


def test_deal_all():
    g = after_setup("active = players[1]\ndeal all from deck to hand", players=3)
    assert [zone(g, f"hand:{p}") for p in range(3)] == [[9, 6, 3, 0], [11, 8, 5, 2], [10, 7, 4, 1]]
    g = after_setup("move top(deck) to table\ndeal all from deck to hand", players=2)
    assert [len(zone(g, f"hand:{p}")) for p in range(2)] == [6, 5]     # uneven: the first gets more


def test_deal_more_than_there_is_is_a_rule_error():
    with pytest.raises(RuleError, match="cannot deal 5 to each of 3 players from 12 items"):
        after_setup("deal 5 from deck to hand", players=3)


def test_fill_puts_the_top_item_into_each_empty_cell_in_order():
    g = after_setup("move bottom(deck) to cells(row)[1]\nfill row from deck")
    assert [zone(g, f"row:s{i}") for i in (1, 2, 3)] == [[11], [0], [10]]


def test_fill_running_out_is_a_rule_error():
    with pytest.raises(RuleError, match="'fill row' ran out of items"):
        after_setup("for c in items(deck) { if c.rank > 1 { move c to table } }\nfill row from deck")


def test_pick_at_random_is_decided_by_the_seed():
    rules = "pick c at random from items(deck)\nmove c to table"
    picks = {seed: zone(after_setup(rules, seed=seed), "table") for seed in range(8)}
    assert all(len(p) == 1 for p in picks.values()) and len({p[0] for p in picks.values()}) > 1
    assert picks[5] == zone(after_setup(rules, seed=5), "table")
    with pytest.raises(RuleError, match="'pick c at random' has an empty list"):
        after_setup("pick c at random from items(table)")


def test_call_procedure_with_parameters():
    g = after_setup("call pay(players[1], 5)\ncall pay(players[1], 2)\ncall pay(players[0], 1)",
                    extra="procedure pay(p: player, amount: int) { gold(p) = gold(p) + amount }")
    assert g.state["pvars"]["gold"] == [1, 7]


def test_a_decision_inside_a_procedure_resumes_where_it_stopped():
    g = after_setup("call ask(players[1], 3)\nn = n * 10", extra="""
procedure ask(p: player, k: int) {
  choose x from 1..k by p as "pick"
  n = x
}""")
    assert g.active_player == 1 and notations(g) == ["pick 1", "pick 2", "pick 3"]
    g.apply("pick 2")
    assert g.state["vars"]["n"] == 20 and notations(g) == ["wait 0"] and g.active_player == 0


def test_end_game_stops_at_once_then_at_end_and_scoring_run():
    g = game("""
turn {
  choose x from [1, 2] as "go"
  n = n + x
  if n >= 3 { end game }
  n = n + 100
}
end when false
at end { gold(players[0]) = n }
score(p) = gold(p)
""")
    g.apply("go 2")
    assert g.state["vars"]["n"] == 102
    g.apply("go 1")
    assert g.over and g.state["vars"]["n"] == 103            # 'n = n + 100' did not run
    assert g.result["scores"] == [103, 0] and g.legal_moves() == [] and g.active_player is None


def test_reveal_makes_a_zone_public():
    g = after_setup("move top(deck) to vault\nmove top(deck) to hand(players[1])")
    before = g.state
    assert views.view(g, 0)["zones"]["vault"] == {"count": 1}
    g2 = after_setup("move top(deck) to vault\nmove top(deck) to hand(players[1])\n"
                     "reveal vault\nreveal hand(players[1])")
    for seat in (0, 1, -1):
        assert views.view(g2, seat)["zones"]["vault"] == [BLUE[6]]
        assert views.view(g2, seat)["zones"]["hand:1"] == [BLUE[5]]
    assert g2.state["revealed"] == sorted([g2.program.zone_index["vault"], g2.program.zone_index["hand"] + 1])
    # seat 0 learnt two items, seat 1 only the vault's
    assert [g2.state["seen"][p] - before["seen"][p] for p in (0, 1)] == [2, 1]


def test_moving_into_a_revealed_zone_is_seen():
    g = after_setup("reveal vault\nmove top(deck) to vault")
    assert g.state["seen"] == [1, 1]
    assert views.view(g, 0)["zones"]["vault"] == [BLUE[6]]


def test_log_messages_render_in_views_and_hide_unseen_items():
    g = game("""
turn {
  let c = top(deck)
  move c to hand(active)
  log drew "{active} draws {c} ({c.rank})"
  move top(deck) to table
  log shown "{active} shows {top(table)}"
  choose x from [1] as "ok"
}
end when done
""")
    assert views.view(g, 0)["log"] == ["Player 1 draws Card blue 6 (6)", "Player 1 shows Card blue 5"]
    assert views.view(g, 1)["log"] == ["Player 1 draws a Card (6)", "Player 1 shows Card blue 5"]
    assert views.view(g, -1)["log"][0] == "Player 1 draws a Card (6)"
    assert views.view(g, "all")["log"][0] == "Player 1 draws Card blue 6 (6)"


# ---------------------------------------------------------------- turns, the end, results

TURNS = """
turn {
  choose x from [1] as "go"
  n = n + 1
}
end when n >= 7
"""


def deciders(g) -> list[int]:
    out = []
    while not g.over:
        out.append(g.active_player)
        g.apply(0)
    return out


def test_turn_order_clockwise_and_counterclockwise():
    assert deciders(game(TURNS, players=3)) == [0, 1, 2, 0, 1, 2, 0]
    assert deciders(game(TURNS, players=3, order="counterclockwise")) == [0, 2, 1, 0, 2, 1, 0]
    assert deciders(game(TURNS, players=1)) == [0] * 7


def test_next_and_previous_player_follow_the_order():
    rules = "gold(players[0]) = seat(next_player(players[0]))\ngold(players[1]) = seat(previous_player(players[0]))"
    assert after_setup(rules, players=4).state["pvars"]["gold"][:2] == [2, 4]
    assert after_setup(rules, players=4, order="counterclockwise").state["pvars"]["gold"][:2] == [4, 2]


def test_the_end_condition_is_checked_after_setup_and_after_every_turn():
    g = game(TURNS, players=2)
    assert g.state["turn"] == 0 and not g.over
    for _ in range(6):
        g.apply(0)
    assert not g.over and g.state["vars"]["n"] == 6
    g.apply(0)
    assert g.over and g.state["turn"] == 7
    g = game("setup { n = 9 }\n" + TURNS)
    assert g.over and g.state["moves"] == 0 and g.result is not None


def test_the_end_condition_is_not_checked_in_the_middle_of_a_turn():
    g = game('turn { n = 10  choose x from [1] as "go"  n = 0 }\nend when n >= 10\n')
    assert not g.over and g.state["vars"]["n"] == 10
    g.apply(0)
    assert not g.over and g.state["vars"]["n"] == 10     # the next turn already set n again


RESULTS = """
setup {{ {setup} }}
turn {{ end game }}
end when false
score(p) = gold(p)
tiebreak first_tb(p) = {tb1}
tiebreak second_tb(p) = {tb2}
"""


def result(gold, tb1="0", tb2="0"):
    setup = "\n".join(f"gold(players[{i}]) = {v}" for i, v in enumerate(gold))
    g = game(RESULTS.format(setup=setup, tb1=tb1, tb2=tb2), players=len(gold))
    assert g.over
    return g.result


def test_scores_rank_players_highest_first():
    r = result([5, 9, 1])
    assert r["scores"] == [5, 9, 1] and r["ranking"] == [[1], [0], [2]] and r["winners"] == [1]


def test_tiebreaks_apply_in_order_of_declaration():
    r = result([7, 7, 7, 1], tb1="if seat(p) == 1 then 0 else 1", tb2="seat(p)")
    assert r["tiebreaks"] == {"first_tb": [0, 1, 1, 1], "second_tb": [1, 2, 3, 4]}
    assert r["ranking"] == [[2], [1], [0], [3]] and r["winners"] == [2]


def test_a_tie_left_after_the_tiebreaks_is_a_shared_win():
    r = result([7, 7, 3, 7], tb1="if seat(p) == 4 then 0 else 1")
    assert r["ranking"] == [[0, 1], [3], [2]] and r["winners"] == [0, 1]
    assert r["ranks"] == [1, 1, 4, 3] and r["outcomes"] == ["win", "win", "loss", "loss"]
    assert r["draw"] is False


def test_everyone_tied_is_a_draw_not_a_shared_win():
    r = result([2, 2])
    assert r["ranking"] == [[0, 1]] and r["ranks"] == [1, 1]
    assert r["outcomes"] == ["draw", "draw"] and r["draw"] is True and r["winners"] == []


def test_at_end_runs_once_before_scoring():
    g = game("""
turn { choose x from [1] as "go"  n = n + 1 }
end when n == 2
at end { gold(players[1]) = gold(players[1]) + 10  n = n + 100 }
score(p) = gold(p) + n
""")
    g.apply(0)
    g.apply(0)
    assert g.over and g.state["vars"]["n"] == 102 and g.result["scores"] == [102, 112]


def test_end_game_inside_at_end_stops_it_and_scoring_follows():
    g = game("""
turn { choose x from [1] as "go"  end game }
end when false
at end { n = n + 1  end game  n = n + 100 }
score(p) = n
""", players=1)
    g.apply(0)
    assert g.over and g.state["vars"]["n"] == 1 and g.result["scores"] == [1]


# ---------------------------------------------------------------- budgets and rule errors

def test_endless_recursion_names_the_function():
    rules = "function forever(x: int): int = forever(x + 1) + 1\nsetup { n = forever(1) }\n" + WAIT
    with pytest.raises(RuleError) as e:
        game(rules)
    msg = str(e.value)
    assert "'forever'" in msg and f"{FILE}:{line_of(rules, 'setup')}" in msg


def test_mutual_recursion_names_the_functions():
    rules = ("function ping(x: int): int = pong(x + 1)\nfunction pong(x: int): int = ping(x + 1)\n"
             "setup { n = ping(0) }\n" + WAIT)
    with pytest.raises(RuleError) as e:
        game(rules)
    assert "'ping'" in str(e.value) and "'pong'" in str(e.value)


def test_bounded_recursion_works():
    rules = "function down(x: int): int = if x == 0 then 0 else 1 + down(x - 1)\nsetup { n = down(200) }\n" + WAIT
    assert game(rules).state["vars"]["n"] == 200


def test_a_huge_range_is_a_budget_error():
    rules = "setup {\n  n = size(1..1000000)\n}\n" + WAIT
    with pytest.raises(BudgetError) as e:
        game(rules)
    assert "the range 1..1000000" in str(e.value) and f"{FILE}:{line_of(rules, 'size(')}" in str(e.value)


def test_too_many_statements_in_one_move_is_a_budget_error():
    with pytest.raises(BudgetError, match="more than 100000 statements"):
        after_setup("while true max 1000000 { n = n + 1 }")


def test_turns_that_never_ask_anyone_are_a_budget_error():
    with pytest.raises(BudgetError, match="without asking any player"):
        game("turn { }\nend when done\n")


DIVIDE = """
turn {
  choose d from [0, 1, 2] as "div"
  move top(deck) to table
  n = 12 / d
}
end when n == 6
"""


def test_a_rule_error_during_apply_leaves_the_game_unchanged():
    g = game(DIVIDE)
    before = g.to_json()
    moves_before = notations(g)
    with pytest.raises(RuleError) as e:
        g.apply("div 0")
    assert "division by zero" in str(e.value) and f"{FILE}:{line_of(DIVIDE, '12 / d')}" in str(e.value)
    assert g.to_json() == before and notations(g) == moves_before
    g.apply("div 1")
    assert g.state["vars"]["n"] == 12 and zone(g, "table") == [BLUE[6]]
    g.apply("div 2")
    assert g.over


def test_a_budget_error_during_apply_leaves_the_game_unchanged():
    g = game('turn {\n  choose k from [1, 10] as "loop"\n  let i = 0\n'
             '  while i < k max 5 { i = i + 1  n = n + 1  move top(deck) to table }\n}\nend when n > 100\n')
    g.apply("loop 1")
    before = g.to_json()
    with pytest.raises(BudgetError, match="max of 5"):
        g.apply("loop 10")
    assert g.to_json() == before and notations(g) == ["loop 1", "loop 10"]
    g.apply("loop 1")
    assert g.state["vars"]["n"] == 2 and len(zone(g, "table")) == 2


def test_an_illegal_move_raises_with_a_reason_and_changes_nothing():
    g = game(DIVIDE)
    before = g.to_json()
    with pytest.raises(IllegalMove, match=r"'div 7' is not a legal move now"):
        g.apply("div 7")
    with pytest.raises(IllegalMove, match="did you mean 'div 1'"):
        g.apply("dvi 1")
    with pytest.raises(IllegalMove, match="there is no move number 3; there are 3 moves"):
        g.apply(3)
    with pytest.raises(IllegalMove):
        g.apply(-1)
    assert g.to_json() == before
    g.apply(1)
    g.apply(2)
    assert g.over
    with pytest.raises(IllegalMove, match="the game is over"):
        g.apply(0)
    assert IllegalMove.code == "move/illegal"


def test_a_rule_error_in_the_end_condition_or_scoring_is_reported():
    with pytest.raises(RuleError, match=r"in the end condition at t.meeple:\d+:\d+: division by zero"):
        game("turn { choose x from [1] }\nend when 1 / n > 0\n")
    with pytest.raises(RuleError, match="in the scoring"):
        game("turn { end game }\nend when false\nscore(p) = [1][5]\n")


# ---------------------------------------------------------------- views

VIEWS = """
setup {
  move top(deck) to hand(players[0])
  move top(deck) to hand(players[1])
  move top(deck) to table
  move top(deck) to vault
}
turn {
  choose c from items(hand(active)) as "play"
  move c to table
  log played "{active} plays {c}"
}
end when empty(hand(active))
"""


def test_views_hide_zones_a_seat_cannot_see():
    g = game(VIEWS, players=3)
    v0, v1, spectator = views.view(g, 0), views.view(g, 1), views.view(g, -1)
    assert v0["zones"]["hand:0"] == [BLUE[6]] and v0["zones"]["hand:1"] == {"count": 1}
    assert v1["zones"]["hand:0"] == {"count": 1} and v1["zones"]["hand:1"] == [BLUE[5]]
    assert v0["zones"]["hand:2"] == {"count": 0}
    for v in (v0, v1, spectator):
        assert v["zones"]["table"] == [BLUE[4]]
        assert v["zones"]["vault"] == {"count": 1} and v["zones"]["deck"] == {"count": 8}
        assert v["zones"]["row:s1"] == []
    assert spectator["zones"]["hand:0"] == {"count": 1}
    assert views.view(g, "all")["zones"]["vault"] == [BLUE[3]]


def test_views_show_pending_options_to_the_decider_only():
    g = game(VIEWS, players=3)
    assert views.view(g, 0)["pending"] == {"player": 0, "verb": "play", "options": ["play blue-6"]}
    assert views.view(g, 1)["pending"] == {"player": 0, "verb": "play"}
    assert views.view(g, -1)["pending"] == {"player": 0, "verb": "play"}


def test_views_never_hold_the_generator_the_stack_or_locations():
    g = game(VIEWS, players=2)
    for seat in (0, 1, -1):
        v = views.view(g, seat)
        assert not {"rng", "stack", "loc", "seen", "revealed"} & set(v)
        text = json.dumps(v)
        assert str(g.state["rng"]) not in text


def test_views_do_not_leak_hidden_items_held_by_variables():
    g = game("""
var latest: Card = none
var mine: list of Card per player = []
setup {
  move top(deck) to hand(players[0])
  latest = top(hand(players[0]))
  mine(players[0]) = items(hand(players[0]))
  mine(players[1]) = [top(deck)]
}
""" + WAIT)
    v0, v1 = views.view(g, 0), views.view(g, 1)
    assert v0["vars"]["latest"] == BLUE[6] and v0["pvars"]["mine"] == [[BLUE[6]], [{"hidden": True}]]
    assert v1["vars"]["latest"] == {"hidden": True}
    assert v1["pvars"]["mine"] == [[{"hidden": True}], [{"hidden": True}]]   # the deck is hidden
    assert v0["vars"]["n"] == 0 and v1["vars"]["done"] is False
    assert views.view(g, "all")["pvars"]["mine"] == [[BLUE[6]], [BLUE[5]]]


def test_revealed_since():
    g = game(VIEWS, players=2)
    s0 = json.loads(g.to_json())      # (game.state shares the live containers: take a copy)
    g.apply(0)                        # seat 0 plays its card onto the public table
    s1 = json.loads(g.to_json())
    assert not revealed_since(s0, s1, 0)          # seat 0 knew the card
    assert revealed_since(s0, s1, 1)              # seat 1 did not
    g2 = after_setup("", seed=3)
    s2 = g2.state
    g3 = after_setup("shuffle deck", seed=3)
    assert revealed_since(s2, g3.state, 0) and revealed_since(s2, g3.state, 1)   # the generator was used


def test_state_is_plain_json_and_resumes():
    g = game(DIVIDE)
    g.apply(1)
    state = json.loads(g.to_json())
    h = g.program.resume(state)
    assert h.to_json() == g.to_json() and notations(h) == notations(g)
    h.apply("div 2")
    g.apply("div 2")
    assert h.to_json() == g.to_json() and h.over
    with pytest.raises(ValueError, match="not a Meeple game state"):
        g.program.resume({"format": "other"})


def test_player_counts_outside_the_ruleset_are_refused():
    prog = program(WAIT)
    with pytest.raises(ValueError, match="for 1 to 4 players, not 5"):
        prog.new_game(5)


def test_generated_code_never_runs_ruleset_text():
    # a string literal that looks like Python stays a string
    g = after_setup('log says "{n}"', extra='text says "__import__(\'os\').system(\'false\')"')
    assert views.view(g, 0)["log"] == ["__import__('os').system('false')"]
    g = after_setup('let s = "\\"); n = (1"\nif s == "x" { n = 5 }')
    assert g.state["vars"]["n"] == 0
    assert re.fullmatch(r"[0-9]+", str(g.state["rng"]))


# ---------------------------------------------------------------- messages keep the moment's visibility

def test_an_old_message_never_reveals_an_item_that_becomes_visible_later():
    g = game("""
turn {
  let c = top(deck)
  move c to hand(active)
  log drew "{active} draws {c}"
  move c to table
  log played "{active} plays {c}"
  choose x from [1] as "ok"
}
end when done
""")
    # when it was drawn, only the drawer saw it; that it is now on the table changes nothing
    assert views.view(g, 1)["log"] == ["Player 1 draws a Card", "Player 1 plays Card blue 6"]
    assert views.view(g, 0)["log"] == ["Player 1 draws Card blue 6", "Player 1 plays Card blue 6"]
    assert views.view(g, -1)["log"][0] == "Player 1 draws a Card"


# ---------------------------------------------------------------- options

def test_enum_options_follow_the_declaration_order():
    g = game('turn {\n  choose s from [blue, red] as "suit"\n  done = true\n}\nend when done\n')
    assert notations(g) == ["suit red", "suit blue"]  # enum Suit { red, blue }


def test_sort_of_enum_values_follows_the_declaration_order():
    g = game('var order: list of Suit = sort([blue, red, blue])\n' + WAIT)
    assert g.state["vars"]["order"] == ["red", "blue", "blue"]


def test_equal_options_are_one_move():
    g = game('turn {\n  choose x from [3, 1, 3, 1] as "n"\n  done = true\n}\nend when done\n')
    assert notations(g) == ["n 1", "n 3"]


def test_any_value_compares_with_none():
    g = game("""
turn {
  let xs = [c.rank for c in items(hand(active))]
  if last(xs) == none and top(hand(active)) == none {
    n = 1
  }
  choose x from [1] as "ok"
}
end when done
""")
    assert g.state["vars"]["n"] == 1


def test_a_zone_parameter_takes_any_zone():
    g = game('function cnt(z: zone): int = size(z)\nvar k: int = cnt(deck) + cnt(hand(players[0]))\n'
             + WAIT)
    assert g.state["vars"]["k"] == 12


def test_a_literal_index_outside_its_list_is_a_rule_error_naming_the_line():
    rules = 'turn {\n  let xs = [1, 2]\n  n = xs[5]\n}\nend when done\n'
    with pytest.raises(RuleError, match=rf"t.meeple:{line_of(rules, 'xs[5]')}:\d+: an index is outside"):
        game(rules)


# ---------------------------------------------------------------- compile-time diagnostics

def load_errors(rules: str) -> list[str]:
    from meeple.dsl.errors import MeepleError
    text = PRELUDE.format(order="clockwise") + rules
    src = SourceSet(base=parse(text, FILE), sources={FILE: text})
    with pytest.raises(MeepleError) as e:
        compile_sources(src)
    return [f"{d.code}:{d.span.line}" for d in e.value.diagnostics]


def test_a_deck_that_needs_the_game_is_reported_at_its_entry():
    rules = 'deck more into deck { Card(suit: red, rank: n) }\n' + WAIT
    assert load_errors(rules) == [f"check/deck-not-constant:{line_of(rules, 'deck more')}"]


def test_a_relation_that_reads_the_game_is_reported_at_the_relation():
    rules = 'relation odd(a: row, b: row) = n > a.pos\n' + WAIT
    assert load_errors(rules) == [f"check/relation-not-constant:{line_of(rules, 'relation odd')}"]


def test_texts_without_a_rule_and_unknown_placeholders_are_warnings():
    rules = ('turn {\n  log drew "{active} draws"\n  choose x from [1] as "go"\n}\nend when done\n'
             'text drw "x"\ntext drew "{actve} zieht"\ntext go "{1}"\ntext player "P{n}"\n')
    text = PRELUDE.format(order="clockwise") + rules
    prog = compile_sources(SourceSet(base=parse(text, FILE), sources={FILE: text}))
    got = sorted((w.code, w.severity, w.hint) for w in prog.warnings)
    assert got == [("check/unknown-placeholder", "warning", "available: none"),
                   ("check/unknown-placeholder", "warning", "did you mean 'active'?"),
                   ("check/unused-text", "warning", "did you mean 'drew'?")]


# ---------------------------------------------------------------- tables that depend on the player count

SIZED = """
board track: line(length: 2 * player_count() + 1) holds Card
relation next(a: track, b: track) = b.pos == a.pos + 1 and b.pos <= player_count() + 1
deck extra into vault { Card(suit: blue, rank: 10 + i) for i in 1..player_count() }
var cells_in_track: int = size(cells(track))
var linked: int = count(c for c in cells(track) if not empty(next(c)))
""" + WAIT


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_board_sizes_decks_and_relations_may_depend_on_the_player_count(players):
    g = game(SIZED, players=players)
    assert g.state["vars"]["cells_in_track"] == 2 * players + 1
    assert g.state["vars"]["linked"] == players           # pos 1..n link to the next one
    assert len(zone(g, "vault")) == players     # the extra deck
    assert len(g.program.items) == 12 + players
    assert [z.key for z in g.program.zones if z.name == "hand"] == [f"hand:{p}" for p in range(players)]


def test_a_board_size_out_of_range_for_some_player_count_is_reported_for_it():
    rules = "board big: line(length: 60 * player_count()) holds Card\n" + WAIT
    errs = load_errors(rules)
    assert errs == [f"check/board-size:{line_of(rules, 'board big')}"]


# ---------------------------------------------------------------- face down

FACES = """
turn {
  move top(deck) to table face down
  move top(deck) to table face down for active
  let mine = top(table)
  move top(deck) to table
  n = count(c for c in items(table) if face_down(c))
  choose x from [1] as "ok"
  flip mine face up
  n = n * 10 + count(c for c in items(table) if face_down(c))
  done = true
}
end when done
"""


def test_face_down_items_lie_in_sight_but_stay_unknown():
    g = game(FACES)
    top3 = zone(g, "table")          # blue 6 (face down), blue 5 (for seat 0), blue 4
    assert top3 == [BLUE[6], BLUE[5], BLUE[4]] and g.state["vars"]["n"] == 2
    hidden = {"hidden": True}
    assert views.view(g, 0)["zones"]["table"] == [hidden, BLUE[5], BLUE[4]]
    assert views.view(g, 1)["zones"]["table"] == [hidden, hidden, BLUE[4]]
    assert views.view(g, -1)["zones"]["table"] == [hidden, hidden, BLUE[4]]
    assert views.view(g, "all")["zones"]["table"] == top3


def test_flip_face_up_shows_the_item_and_counts_as_seen():
    g = game(FACES)
    before = g.state["seen"][:]
    g.apply(0)
    assert g.state["vars"]["n"] == 21
    assert views.view(g, 1)["zones"]["table"] == [{"hidden": True}, BLUE[5], BLUE[4]]
    assert g.state["seen"][1] == before[1] + 1 and g.state["seen"][0] == before[0]


def test_moving_a_face_down_item_again_turns_it_face_up():
    g = game("""
turn {
  move top(deck) to table face down
  move top(table) to hand(active)
  choose x from [1] as "ok"
}
end when done
""")
    assert views.view(g, 0)["zones"]["hand:0"] == [BLUE[6]]
    assert g.state["facing"][BLUE[6]] == -1


def test_face_down_for_a_list_of_items_and_the_check_of_for():
    g = game("""
turn {
  move top(deck, 3) to table face down for active
  choose x from [1] as "ok"
}
end when done
""")
    assert views.view(g, 0)["zones"]["table"] == [BLUE[6], BLUE[5], BLUE[4]]
    assert views.view(g, 1)["zones"]["table"] == [{"hidden": True}] * 3
    errs = load_errors('turn {\n  move top(deck) to table face up for active\n}\nend when done\n')
    assert errs == [f"check/bad-value:{PRELUDE_LINES + 2}"]


def test_a_message_about_a_face_down_item_hides_it():
    g = game("""
turn {
  move top(deck) to table face down
  log laid "{active} lays {top(table)}"
  choose x from [1] as "ok"
}
end when done
""")
    assert views.view(g, 0)["log"] == ["Player 1 lays a Card"]
    assert views.view(g, "all")["log"] == ["Player 1 lays Card blue 6"]


# ---------------------------------------------------------------- the strip generator

def test_strip_parts_sides_slots_and_columns():
    g = game("board strip_: strip(parts: player_count() + 1, slots: 3) holds Card\n"
             "relation opposite(a: strip_, b: strip_) = a.col == b.col and a.side != b.side\n"
             "var names: list of str = [c.name for c in cells(strip_) if c.part == 2]\n"
             "var across: int = count(c for c in cells(strip_) if size(opposite(c)) == 1)\n" + WAIT,
             players=2)
    assert g.state["vars"]["names"] == ["p2a1", "p2a2", "p2a3", "p2b1", "p2b2", "p2b3"]
    assert g.state["vars"]["across"] == 18
    cells = [z.cell for z in g.program.zones if z.board == "strip_"]
    assert {c.y for c in cells} == {0, 2}                      # side 1 above side 2
    a3, a4 = (next(c for c in cells if c.name == n) for n in ("p1a3", "p2a1"))
    assert a4.x - a3.x == 3                                    # a gap between parts


# ---------------------------------------------------------------- item variables

TOKENS = """
kind Token { colour: Suit, var wounds: int = 0, var tags: list of str = [] }
zone pool: Token
deck tokens into pool { Token(colour: s) for s in Suit }
turn {
  let t = top(pool)
  t.wounds = t.wounds + 2
  t.tags = t.tags + ["hit"]
  n = sum(k.wounds for k in items(pool))
  choose x from [1] as "ok"
  done = true
}
end when done
"""


def test_item_variables_start_at_their_value_and_change_per_item():
    g = game(TOKENS)
    pool = zone(g, "pool")
    assert g.state["vars"]["n"] == 2
    assert [g.state["ivars"]["wounds"][i] for i in pool] == [0, 2]
    assert g.state["ivars"]["tags"][pool[-1]] == ["hit"] and g.state["ivars"]["tags"][pool[0]] == []
    assert g.state["ivars"]["wounds"][0] is None          # a Card has no wounds
    assert views.view(g, 1)["ivars"]["wounds"] == {str(pool[0]): 0, str(pool[1]): 2}
    again = program(TOKENS).resume(json.loads(g.to_json()))
    assert again.state["ivars"] == g.state["ivars"]


def test_item_variables_are_hidden_with_their_items():
    g = game(TOKENS.replace("zone pool: Token", "zone pool: Token hidden"))
    assert views.view(g, 0)["ivars"]["wounds"] == {}
    assert views.view(g, "all")["ivars"]["wounds"] != {}


@pytest.mark.parametrize("rules,code", [
    ("kind T { var w: int }\n" + WAIT, "check/missing"),
    ("kind T { w: int = 3 }\n" + WAIT, "check/bad-value"),
    ("kind T { v: int, var w: int = 0 }\nzone p: T\ndeck d into p { T(v: 1, w: 2) }\n" + WAIT,
     "check/bad-value"),
    ("turn {\n  let c = top(deck)\n  c.rank = 3\n}\nend when done\n", "check/bad-value"),
    ("kind T { var w: int = 0 }\nzone p: T\nturn {\n  let c = top(p)\n  c.w = true\n}\nend when done\n",
     "check/type-mismatch"),
    ("turn {\n  let c = 3\n  c.w = 1\n}\nend when done\n", "check/type-mismatch"),
])
def test_item_variable_mistakes_are_reported(rules, code):
    assert [e.split(":")[0] for e in load_errors(rules)] == [code]


def test_options_the_decider_may_not_know_are_named_and_ordered_by_place():
    g = game("""
setup {
  shuffle deck
  move top(deck, 3) to table face down
  move top(deck) to table
}
turn {
  choose c from items(table) as "take"
  move c to hand(active)
  done = true
}
end when done
""", seed=3)
    table = zone(g, "table")
    moves = g.legal_moves()
    known = g.program.items[table[3]].notation
    assert moves[0].notation == f"take {known}"             # the face-up one by name, first
    assert [m.notation for m in moves[1:]] == ["take table#1", "take table#2", "take table#3"]
    assert [m.value for m in moves[1:]] == table[:3]       # by place, whatever their ids
    g.apply("take table#2")
    assert zone(g, "hand:0") == [table[1]]


def test_a_label_shows_item_variables_from_the_state_or_a_view():
    from meeple.interpreter.play import display
    g = game(TOKENS + 'label Token "{colour} ({wounds})"\n')
    pool = zone(g, "pool")
    v = views.view(g, 0)
    assert display.item_label(g.program, pool[-1], ivars=v["ivars"]) == "blue (2)"
    assert display.item_label(g.program, pool[-1], ivars=g.state["ivars"]) == "blue (2)"
    assert display.item_label(g.program, pool[-1]) == "blue (?)"


def test_a_message_shows_item_variables_as_they_were_when_it_was_said():
    g = game(TOKENS.replace('  n = sum(k.wounds for k in items(pool))',
                            '  log hit "{t} is hit"\n  t.wounds = 9\n  n = 1')
             + 'label Token "{colour} ({wounds})"\n')
    assert views.view(g, 1)["log"] == ["blue (2) is hit"]
    assert views.view(g, "all")["log"] == ["blue (2) is hit"]


def test_a_subset_of_hidden_items_does_not_tell_their_hidden_order():
    g = game("""
setup {
  shuffle deck
}
turn {
  choose s subset of reverse(items(deck)) where size(s) == 2 as "pick"
  done = true
}
end when done
""", seed=4)
    for m in g.legal_moves():
        places = [int(p.split("#")[1]) for p in m.notation.split(" ")[1].split("+")]
        assert places == sorted(places), m.notation   # bottom first, whatever the list said


def test_sort_of_ids_puts_none_first_then_the_ids_in_order():
    # items, cells and players are ids: sorted as plain numbers, none first
    g = after_setup("""
  its = sort([top(deck), none, first(items(deck)), top(deck)])
  ps = sort([players[1], players[0], none])
  cs = sort(cells(row))
  plain = sort([top(deck), first(items(deck))])
  pls = sort([[players[1], none], [players[0]], [players[0], players[1]], [none]])
  ns = sort([[2, 1], [1], [1, 3], [1, 2], [-5, 7, 0]])
  shuffle deck
  its2 = sort(items(deck))
""", extra="var its: list of Card = []\nvar ps: list of player = []\n"
           "var cs: list of row = []\nvar plain: list of Card = []\n"
           "var pls: list of list of player = []\nvar ns: list of list of int = []\n"
           "var its2: list of Card = []")
    v = g.state["vars"]
    # lists: by size, then element by element (none first)
    assert v["pls"] == [[None], [0], [0, 1], [1, None]]
    assert v["ns"] == [[1], [1, 2], [1, 3], [2, 1], [-5, 7, 0]]
    assert v["its2"] == list(range(12)) and g.state["zones"][0] != list(range(12))
    assert v["its"] == [None, 0, 11, 11]
    assert v["ps"] == [None, 0, 1]
    assert v["plain"] == [0, 11]
    assert v["cs"] == sorted(v["cs"]) and len(v["cs"]) == 3


def test_text_options_are_in_plain_text_order_each_once():
    from lockstep import straight
    rules = 'turn {\n  choose x from ["b", "B", "a", "b", "ab"] as "say"\n  done = true\n}\nend when done\n'
    with straight():
        slow = notations(game(rules))
    assert notations(game(rules)) == slow == ["say B", "say a", "say ab", "say b"]


def test_cells_chosen_from_a_walk_of_the_board_come_in_board_order():
    from lockstep import straight
    rules = ('turn {\n  choose c from [c for c in cells(row) if empty(c)] as "put"\n'
             '  move top(deck) to c\n  n = n + 1\n  done = n == 3\n}\nend when done\n')
    def played(moves):
        g = game(rules)
        for m in moves:
            g.apply(m)
        return notations(g)
    for moves in ([], [1], [1, 0]):
        with straight():
            slow = played(moves)
        assert played(moves) == slow
    assert notations(game(rules)) == ["put s1", "put s2", "put s3"]


def test_cells_chosen_from_a_function_that_walks_the_board_are_known_in_board_order(monkeypatch):
    # [c for c in free() if ...] and free() itself, free() a walk of the board's cells
    # (with an option alone, none, or not): asked without checking the options' order
    # (Runtime.ask_in_order), as a walk is
    from lockstep import straight
    from meeple.interpreter.play import runtime
    asked = []
    plain_ask = runtime.Runtime.ask_in_order

    def ask_in_order(R, *args):
        asked.append(list(args[2]))
        return plain_ask(R, *args)
    monkeypatch.setattr(runtime.Runtime, "ask_in_order", ask_in_order)
    for options, alone in (("[c for c in free() if c != cell(row, pos: 2)]", ""), ("free()", ""),
                           ("free()", ' or "skip"')):
        rules = ("function free(): list of row = [c for c in cells(row) if empty(c)]\n"
                 f'turn {{\n  choose c from {options} as "put"{alone}\n'
                 "  if c != none { move top(deck) to c }\n  n = n + 1\n  done = n == 2\n}\nend when done\n")
        text = PRELUDE.format(order="clockwise") + rules
        src = SourceSet(base=parse(text, FILE), sources={FILE: text})
        prog = compile_sources(src)
        del asked[:]
        g = prog.new_game(2, 0)
        with straight():
            slow = prog.new_game(2, 0)
        assert notations(g) == notations(slow)
        g.apply(notations(g)[-1])
        slow.apply(notations(slow)[-1])
        assert notations(g) == notations(slow) and g.state == slow.state
        assert asked and all(a == sorted(set(a)) for a in asked)
        if alone:
            assert notations(g)[0] == "skip" and g.state["pending"]["alone"] == "skip"
