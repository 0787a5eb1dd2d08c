"""Cherokee: one test for every rule of the rulebooks, each on a hand-built position.

The rulebooks are shared/rulebooks/cherokee.{en,de,fr,nl,ru}.txt; the choices made where
they are silent are documented in docs/rulesets/cherokee.md.

Positions are written as readable card codes: clan + value + sex, e.g. "Bl7m" is the
Blue man of value 7 and "LH3w" the Long Hair woman of value 3. Cells are named like the
move notation: "r3c2" is row 3 (1 = top, 8 = base), column 2. Each test starts from one
full pyramid (BASE) and sets the few cells it is about; the cells around a target (its
two neighbours in the row and the two cells below it) and the cells along a cascade are
always set explicitly, so nothing a test checks depends on the rest of BASE.
"""
from __future__ import annotations

import functools
import json
import re

import pytest
from meeple.interpreter import IllegalMove
from meeple.interpreter.analysis import testing
from meeple.interpreter.play.views import view

from meeple import interpreter

CLANS = {"Bi": "birds", "Bl": "blue", "WP": "wild_potato", "De": "deer", "Wo": "wolf",
         "LH": "long_hair"}
SEXES = {"m": "man", "w": "woman"}
ALL_CODES = ([f"{c}{v}m" for c in CLANS for v in range(4, 10)]
             + [f"{c}{v}w" for c in CLANS for v in range(3, 9)])

# Every row alternates man / woman, so two neighbours in a row never have the same value
# and sex: a cascade through BASE never asks the active player to break a tie.
BASE = [
    "Bi9m",
    "Bl9m De8w",
    "WP9m Wo8w LH9m",
    "Bi8m Bl8w De9m WP8w",
    "Wo9m LH8w Bi7m Bl7w De8m",
    "WP7m Wo7w LH8m Bi6w Bl7m De7w",
    "Wo6m LH6w Bi6m Bl5w De6m WP6w Wo5m",
    "LH5m Bi5w Bl6m De5w WP5m Wo4w LH4m Bi4w",
]

# A full pyramid without a single Blue or Wolf member (for the scoring tests, where
# seat 0 holds the Blue clan card and seat 1 the Wolf one).
NO_BLUE_NO_WOLF = [
    "WP9m",
    "LH9m Bi8w",
    "Bi9m De8w WP8m",
    "De9m WP8w LH8m Bi7w",
    "WP7m LH8w Bi8m De7w WP6m",
    "LH7m Bi6w De8m WP7w LH6m Bi5w",
    "Bi7m De6w WP5m LH7w Bi6m De5w WP4m",
    "De7m WP6w LH5m Bi4w De6m WP5w LH4m Bi3w",
]

DEFAULT_CLANS = ["blue", "wolf", "deer", "birds"]
CELL = re.compile(r"r(\d)c(\d)")


# ---------------------------------------------------------------- helpers

@functools.cache
def program(variants: tuple = (), locale: str | None = None):
    return interpreter.load("cherokee", variants=list(variants), locale=locale)


def member(prog, code: str) -> int:
    m = re.fullmatch(r"(Bi|Bl|WP|De|Wo|LH)(\d)([mw])", code)
    assert m, f"bad card code {code!r}"
    return testing.item(prog, "Member", clan=CLANS[m[1]], sex=SEXES[m[3]], value=int(m[2]))


def clan_card(prog, clan: str) -> int:
    return testing.item(prog, "ClanCard", clan=clan)


def code(prog, item: int) -> str:
    a = prog.items[item].attrs
    short = {v: k for k, v in CLANS.items()}[a["clan"]]
    return f"{short}{a['value']}{a['sex'][0]}"


def layout_of(rows: list[str]) -> dict[str, str]:
    assert [len(r.split()) for r in rows] == list(range(1, 9)), "a pyramid has rows of 1..8"
    return {f"r{r}c{c}": x for r, row in enumerate(rows, 1) for c, x in enumerate(row.split(), 1)}


def _replacement(taken: set[str], old: str) -> str:
    """An unused card of the same sex, as close in value as possible."""
    sex, value = old[-1], int(old[2:-1])
    free = [x for x in ALL_CODES if x not in taken and x[-1] == sex]
    return min(free, key=lambda x: (abs(int(x[2:-1]) - value), ALL_CODES.index(x)))


def build(players: int = 2, cells: dict[str, str] | None = None, rows: list[str] | None = None,
          hands: list[list[str]] | None = None, clans: list[str] | None = None, active: int = 0,
          passes: int | None = None, neutral: list[str] | None = None,
          variants: tuple = (), locale: str | None = None):
    """A game at the start of ``active``'s turn. ``cells`` sets single cells on top of
    ``rows`` (BASE by default); a BASE card that a test uses elsewhere is replaced by an
    unused card of the same sex. Hands default to two unused cards each."""
    prog = program(tuple(variants), locale)
    cells = dict(cells or {})
    layout = layout_of(rows or BASE)
    pinned = set(cells.values()) | {x for h in (hands or []) for x in h}
    layout.update(cells)
    for key, x in list(layout.items()):
        if key not in cells and x in pinned:
            layout[key] = _replacement(pinned | set(layout.values()), x)
    taken = set(layout.values()) | pinned
    if hands is None:
        free = [x for x in ALL_CODES if x not in taken]
        hands = [free[2 * p: 2 * p + 2] for p in range(players)]
    everything = list(layout.values()) + [x for h in hands for x in h]
    assert len(everything) == len(set(everything)), "a card is used twice"
    zones: dict = {f"pyramid:{k}": member(prog, x) for k, x in layout.items()}
    for p, h in enumerate(hands):
        zones[f"hand:{p}"] = [member(prog, x) for x in h]
    for p, c in enumerate((clans or DEFAULT_CLANS)[:players]):
        zones[f"clan:{p}"] = clan_card(prog, c)
    if neutral is not None:
        zones["neutral"] = [clan_card(prog, c) for c in neutral]
    vars = {"passes": passes} if passes is not None else None
    return testing.position(prog, players, zones=zones, active=active, vars=vars)


def at(game, cell: str) -> str | None:
    """The card code in a pyramid cell (None when empty)."""
    items = testing.at(game, f"pyramid:{cell}")
    assert len(items) <= 1
    return code(game.program, items[0]) if items else None


def hand(game, seat: int) -> list[str]:
    return [code(game.program, i) for i in testing.at(game, f"hand:{seat}")]


def discard(game) -> list[str]:
    return [code(game.program, i) for i in testing.at(game, "discard")]


moves = testing.options  # the legal moves of one verb, without it


def targets(game) -> set[str]:
    return set(moves(game, "chase"))


def attacks(game, target: str) -> set[frozenset[str]]:
    """Every attacking group offered against ``target``, as sets of cells."""
    g = game.copy()
    g.apply(f"chase {target}")
    return {frozenset(x.split("+")) for x in moves(g, "with")}


def groups(*gs: str) -> set[frozenset[str]]:
    return {frozenset(x.split("+")) for x in gs}


def finish_turn(game) -> None:
    """Plays the active player's turn to its end, taking the first option each time."""
    seat = game.state["active"]
    turn = game.state["turn"]
    while not game.over and game.state["turn"] == turn:
        assert game.active_player == seat
        game.apply(0)


def snapshot(game) -> dict[str, str | None]:
    return {f"r{r}c{c}": at(game, f"r{r}c{c}") for r in range(1, 9) for c in range(1, r + 1)}


def fork(game):
    """An independent copy of the game, through its JSON state."""
    return game.program.resume(json.loads(game.to_json()))


def test_helpers_build_the_position_they_are_told():
    g = build(cells={"r4c2": "Bi9m"}, hands=[["Bl3w"], ["Wo3w"]])
    assert at(g, "r4c2") == "Bi9m"
    assert at(g, "r1c1") != "Bi9m" and at(g, "r1c1").endswith("m")   # replaced in BASE
    assert hand(g, 0) == ["Bl3w"] and hand(g, 1) == ["Wo3w"]
    assert sum(x is not None for x in snapshot(g).values()) == 36
    assert g.active_player == 0 and g.state["active"] == 0


# ---------------------------------------------------------------- the attack

# A weak Wild Potato man at r4c2 with a stronger member of a different clan on each side
# and on each of the two cells below it, and the two strongest men above it.
AROUND_R4C2 = {"r4c2": "WP4m",
               "r3c1": "LH9m", "r3c2": "Wo9m",       # above r4c2 (r4c2 is below them)
               "r4c1": "Bi6m", "r4c3": "Bl6w",       # beside
               "r5c2": "De6m", "r5c3": "Wo5w"}       # below


def test_attack_only_sideways_or_upwards():
    g = build(cells=AROUND_R4C2)
    assert "r4c2" in targets(g)
    # the four attackers each win alone; the two above (9 against 4) are never offered
    assert attacks(g, "r4c2") == groups("r4c1", "r4c3", "r5c2", "r5c3")


def test_never_attack_downwards():
    # A Deer woman 3 at r7c3 surrounded by her own clan beside and below: only the
    # Blue and Birds 9s above her are stronger, and they may not attack downwards.
    g = build(cells={"r7c3": "De3w", "r7c2": "De4m", "r7c4": "De4w", "r8c3": "De5m",
                     "r8c4": "De5w", "r6c2": "Bl9m", "r6c3": "Bi9m"})
    assert "r7c3" not in targets(g)
    # the same cell is a target as soon as one member below her is of another clan
    g = build(cells={"r7c3": "De3w", "r7c2": "De4m", "r7c4": "De4w", "r8c3": "Wo4m",
                     "r8c4": "De5w", "r6c2": "Bl9m", "r6c3": "Bi9m"})
    assert attacks(g, "r7c3") == groups("r8c3")


def test_attacker_and_target_of_different_clans():
    # Strong Blue members all round a weak Blue man: same-clan attacks are not offered.
    g = build(cells={"r4c2": "Bl4m", "r4c1": "Bl9m", "r4c3": "Bl8w", "r5c2": "Bl8m",
                     "r5c3": "Bl7w"})
    assert "r4c2" not in targets(g)
    # With one Wolf beside, only the Wolf attacks; the Blue members never join in.
    g = build(cells={"r4c2": "Bl4m", "r4c1": "Bl9m", "r4c3": "Wo5m", "r5c2": "Bl8m",
                     "r5c3": "Bl7w"})
    assert attacks(g, "r4c2") == groups("r4c3")


def test_attack_needs_a_strictly_higher_total():
    around = {"r4c2": "De6m", "r4c3": "De7w", "r5c2": "De4m", "r5c3": "De3w"}
    equal = build(cells={**around, "r4c1": "Bl6w"})       # 6 against 6
    assert "r4c2" not in targets(equal)
    higher = build(cells={**around, "r4c1": "Bl7w"})      # 7 against 6
    assert attacks(higher, "r4c2") == groups("r4c1")


def test_no_age_penalty_for_a_purely_sideways_attack():
    # Sideways a 6 does not beat a 6 (from below it would: see the next test).
    g = build(cells={"r4c2": "De6m", "r4c1": "Bl6w", "r4c3": "Wo6w", "r5c2": "De4m",
                     "r5c3": "De3w"})
    assert "r4c2" not in targets(g)


def test_age_penalty_when_attacked_from_below():
    around = {"r4c2": "De6m", "r4c1": "De7w", "r4c3": "De8w", "r5c3": "De3w"}
    # From below the target's 6 counts as 5: a 5 is still not enough ...
    g = build(cells={**around, "r5c2": "Bl5m"})
    assert "r4c2" not in targets(g)
    # ... but a 6 is (6 against 5).
    g = build(cells={**around, "r5c2": "Bl6w"})
    assert attacks(g, "r4c2") == groups("r5c2")
    testing.play(g, "chase r4c2", "with r5c2")
    assert view(g, 0)["log"] == ["Player 1 chases Deer man 6 away with 6 against 5"]
    assert at(g, "r4c2") == "Bl6w"


def test_age_penalty_applies_to_a_combined_sideways_and_below_attack():
    # Blue 5 beside + Blue 4 below = 9 against the Deer 9 lowered to 8: it wins, though
    # 9 against 9 would not. Alone neither is enough.
    g = build(cells={"r4c2": "De9m", "r4c1": "Bl5w", "r5c2": "Bl4m", "r4c3": "De7w",
                     "r5c3": "De3w"})
    assert attacks(g, "r4c2") == groups("r4c1+r5c2")
    testing.play(g, "chase r4c2", "with r4c1+r5c2")
    assert view(g, 0)["log"] == ["Player 1 chases Deer man 9 away with 9 against 8"]
    assert discard(g) == ["De9m"]


def test_combined_attack_of_one_clan_adds_values():
    # Two Blues beside: 5 + 4 = 9 against 8; alone 5 or 4 is not enough.
    g = build(cells={"r4c2": "De8m", "r4c1": "Bl5m", "r4c3": "Bl4w", "r5c2": "De4m",
                     "r5c3": "De3w"})
    assert attacks(g, "r4c2") == groups("r4c1+r4c3")
    # Three Blues: 3 + 4 + 4 = 11 against 9 - 1 = 8; every pair falls short (the best
    # pair, 4 + 4 with one below, makes 8 against 8).
    g = build(cells={"r4c2": "De9m", "r4c1": "Bl3w", "r4c3": "Bl4w", "r5c2": "Bl4m",
                     "r5c3": "De3w"})
    assert attacks(g, "r4c2") == groups("r4c1+r4c3+r5c2")


def test_combined_attack_must_be_one_clan():
    # Blue 5 + Wolf 4 would make 9 against 8, but a mixed-clan group may not attack.
    g = build(cells={"r4c2": "De8m", "r4c1": "Bl5m", "r4c3": "Wo4w", "r5c2": "De4m",
                     "r5c3": "De3w"})
    assert "r4c2" not in targets(g)
    # Two clans that each win alone are offered one clan at a time, never together.
    g = build(cells={"r4c2": "De4m", "r4c1": "Bl5m", "r4c3": "Wo5w", "r5c2": "De5m",
                     "r5c3": "De3w"})
    assert attacks(g, "r4c2") == groups("r4c1", "r4c3")


def test_combined_attack_is_optional_any_winning_group_of_one_clan_may_attack():
    # The Blue 7 wins alone; adding the Blue 4 is allowed; the Blue 4 alone is not enough.
    g = build(cells={"r4c2": "De6m", "r4c1": "Bl7m", "r4c3": "Bl4w", "r5c2": "De4m",
                     "r5c3": "De3w"})
    assert attacks(g, "r4c2") == groups("r4c1", "r4c1+r4c3")


def test_defender_never_gets_help():
    # The Deer 7 is surrounded by Deer (above, beside and below); still a Blue 8 beats it.
    g = build(cells={"r4c2": "De7m", "r3c1": "De9m", "r3c2": "De8w", "r4c1": "De8m",
                     "r5c2": "De6w", "r5c3": "De5w", "r4c3": "Bl8m"})
    assert attacks(g, "r4c2") == groups("r4c3")
    testing.play(g, "chase r4c2", "with r4c3")
    assert discard(g) == ["De7m"] and at(g, "r4c2") == "Bl8m"


# ---------------------------------------------------------------- the effect of an attack

def test_target_is_discarded():
    g = build(cells=AROUND_R4C2)
    target = testing.at(g, "pyramid:r4c2")
    testing.play(g, "chase r4c2", "with r4c1")
    assert testing.at(g, "discard") == target
    assert discard(g) == ["WP4m"]
    assert "WP4m" not in snapshot(g).values()


def test_strongest_attacker_moves_into_the_target_place():
    # Blue 5 + Blue 6 beside the Deer 9: the 6 (at r4c3) takes r4c2; the 5 stays.
    g = build(cells={"r4c2": "De9m", "r4c1": "Bl5w", "r4c3": "Bl6m", "r5c2": "De4m",
                     "r5c3": "De3w"})
    testing.play(g, "chase r4c2", "with r4c1+r4c3")
    assert at(g, "r4c2") == "Bl6m"
    assert at(g, "r4c1") == "Bl5w"
    assert at(g, "r4c3") not in ("Bl6m", None)        # refilled from below


@pytest.mark.parametrize("woman_at, man_at", [("r4c1", "r4c3"), ("r4c3", "r4c1")])
def test_equal_attackers_the_woman_moves_up(woman_at, man_at):
    g = build(cells={"r4c2": "De9m", woman_at: "Bl6w", man_at: "Bl6m", "r5c2": "De4m",
                     "r5c3": "De3w"})
    assert attacks(g, "r4c2") == groups("r4c1+r4c3")
    testing.play(g, "chase r4c2", "with r4c1+r4c3")
    assert at(g, "r4c2") == "Bl6w"
    assert at(g, man_at) == "Bl6m"


# The cascade tests: a Blue 7 at r5c2 chases the weak Deer at r4c2 from below (its Deer
# neighbours cannot help nor attack), so the first gap is r5c2, resting on r6c2 and r6c3.
CHASE_FROM_R5C2 = {"r4c2": "De4m", "r4c1": "De5w", "r4c3": "De6w", "r5c3": "De3w",
                   "r5c2": "Bl7m"}


def test_gap_filled_by_the_stronger_successor():
    # The stronger successor moves up, man or woman, left or right.
    g = build(cells={**CHASE_FROM_R5C2, "r6c2": "LH5w", "r6c3": "Wo6m"})
    testing.play(g, "chase r4c2", "with r5c2")
    assert at(g, "r4c2") == "Bl7m" and at(g, "r5c2") == "Wo6m" and at(g, "r6c2") == "LH5w"
    g = build(cells={**CHASE_FROM_R5C2, "r6c2": "LH7w", "r6c3": "Wo6m"})
    testing.play(g, "chase r4c2", "with r5c2")
    assert at(g, "r5c2") == "LH7w" and at(g, "r6c3") == "Wo6m"


@pytest.mark.parametrize("woman_at, man_at", [("r6c2", "r6c3"), ("r6c3", "r6c2")])
def test_equal_successors_the_woman_moves_up(woman_at, man_at):
    g = build(cells={**CHASE_FROM_R5C2, woman_at: "LH6w", man_at: "Wo6m"})
    testing.play(g, "chase r4c2", "with r5c2")
    assert at(g, "r5c2") == "LH6w" and at(g, man_at) == "Wo6m"


def test_equal_successors_of_same_value_and_sex_the_active_player_chooses():
    # Wolf 6 man and Long Hair 6 man below the gap at r5c2; seat 1 of 3 is playing.
    cells = {**CHASE_FROM_R5C2, "r6c2": "Wo6m", "r6c3": "LH6m",
             "r7c2": "Bi4w", "r7c3": "WP7m", "r7c4": "Bi5w",    # below r6c2 / r6c3
             "r8c3": "Wo3w", "r8c4": "LH4w", "r8c5": "WP3w"}    # below r7c3 / r7c4
    g = build(players=3, cells=cells, active=1)
    testing.play(g, "chase r4c2", "with r5c2")
    assert g.active_player == 1
    assert moves(g, "tie") == ["r6c2", "r6c3"]
    left, right = fork(g), fork(g)
    testing.play(left, "tie r6c2")
    assert at(left, "r5c2") == "Wo6m" and at(left, "r6c2") == "WP7m"       # r7c3 > r7c2
    assert at(left, "r7c3") == "LH4w" and at(left, "r8c4") is None         # r8c4 > r8c3
    testing.play(right, "tie r6c3")
    assert at(right, "r5c2") == "LH6m" and at(right, "r6c3") == "WP7m"     # r7c3 > r7c4
    assert at(right, "r7c3") == "LH4w" and at(right, "r8c4") is None
    assert left.active_player == 1 and right.active_player == 1
    assert moves(left, "play") == moves(right, "play")


def test_cascade_continues_to_the_base_row():
    cells = {**CHASE_FROM_R5C2,
             "r6c2": "Wo7m", "r6c3": "LH6w",      # r6c2 moves up to r5c2
             "r7c2": "WP5w", "r7c3": "Bi6m",      # r7c3 moves up to r6c2
             "r8c3": "LH4m", "r8c4": "Wo5w"}      # r8c4 moves up to r7c3
    g = build(cells=cells, hands=[["Bl3w", "Bi4m"], ["Wo3w"]])
    before = snapshot(g)
    testing.play(g, "chase r4c2", "with r5c2")
    assert set(moves(g, "play")) == {"birds-man-4", "blue-woman-3"}
    assert at(g, "r8c4") is None                  # the one gap left is in the base row
    testing.play(g, "play blue-woman-3")
    after = snapshot(g)
    assert (after["r4c2"], after["r5c2"], after["r6c2"], after["r7c3"], after["r8c4"]) == \
        ("Bl7m", "Wo7m", "Bi6m", "Wo5w", "Bl3w")
    changed = {k for k in after if after[k] != before[k]}
    assert changed == {"r4c2", "r5c2", "r6c2", "r7c3", "r8c4"}
    assert discard(g) == ["De4m"]


def test_attacker_from_the_base_row_leaves_its_gap_in_the_base():
    # A base-row attacker moves up sideways ... in the base row: no cascade at all.
    g = build(cells={"r8c2": "De4m", "r8c1": "Bl5m", "r8c3": "De5w"}, hands=[["Bl3w"], ["Wo3w"]])
    before = snapshot(g)
    testing.play(g, "chase r8c2", "with r8c1", "play blue-woman-3")
    after = snapshot(g)
    assert {k for k in after if after[k] != before[k]} == {"r8c1", "r8c2"}
    assert (after["r8c1"], after["r8c2"]) == ("Bl3w", "Bl5m")


def test_hand_card_fills_the_base_gap():
    g = build(players=3, cells=AROUND_R4C2, active=2,
              hands=[["Bl3w"], ["Wo3w"], ["Bl4m", "Bi3w", "LH3w"]])
    testing.play(g, "chase r4c2", "with r4c1")
    assert g.active_player == 2
    # the choices are exactly the active player's hand cards
    assert set(moves(g, "play")) == {"blue-man-4", "birds-woman-3", "long_hair-woman-3"}
    with pytest.raises(IllegalMove):
        g.apply("play wolf-woman-3")              # another player's card
    empty = [k for k, v in snapshot(g).items() if v is None]
    assert len(empty) == 1 and empty[0].startswith("r8")
    testing.play(g, "play birds-woman-3")
    assert at(g, empty[0]) == "Bi3w"
    assert hand(g, 2) == ["Bl4m", "LH3w"] and hand(g, 0) == ["Bl3w"] and hand(g, 1) == ["Wo3w"]
    assert g.state["active"] == 0                        # and the turn is over


def test_a_turn_is_one_attack_then_one_hand_card():
    g = build(cells=AROUND_R4C2, hands=[["Bl3w", "Bi4m"], ["Wo3w"]])
    assert g.active_player == 0
    with pytest.raises(IllegalMove):
        g.apply("play blue-woman-3")              # no playing before chasing
    testing.play(g, "chase r4c2", "with r4c3", "play blue-woman-3")
    assert g.state["active"] == 1 and g.active_player == 1
    assert hand(g, 0) == ["Bi4m"] and len(discard(g)) == 1


# ---------------------------------------------------------------- turn order

@pytest.mark.parametrize("locale", [None, "en", "de", "fr", "ru"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_turn_passes_clockwise(locale, players):
    for seat in range(players):
        g = build(players=players, cells=AROUND_R4C2, active=seat, locale=locale)
        finish_turn(g)
        assert g.state["active"] == (seat + 1) % players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_dutch_turn_passes_to_the_right(players):
    for seat in range(players):
        g = build(players=players, cells=AROUND_R4C2, active=seat, locale="nl")
        finish_turn(g)
        assert g.state["active"] == (seat - 1) % players     # after seat 0 comes seat n-1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_dutch_start_player_is_chosen_by_the_first_seat(players):
    prog = program((), "nl")
    for chosen in range(players):
        g = prog.new_game(players, seed=5)
        assert g.active_player == 0                    # seat 1 (p1) enters the choice
        assert testing.notations(g) == [f"start p{p + 1}" for p in range(players)]
        g.apply(f"start p{chosen + 1}")
        assert g.state["active"] == chosen and g.active_player == chosen
        assert testing.notations(g)[0].startswith("chase ")


@pytest.mark.parametrize("locale", [None, "en", "de", "fr", "ru"])
def test_start_player_is_chosen_at_random(locale):
    prog = program((), locale)
    starts = set()
    for seed in range(40):
        g = prog.new_game(3, seed=seed)
        assert not any(n.startswith("start") for n in testing.notations(g))
        starts.add(g.state["active"])
    assert starts == {0, 1, 2}
    # the same seed always gives the same start player
    assert prog.new_game(3, seed=7).state["active"] == prog.new_game(3, seed=7).state["active"]


def test_translations_change_only_the_dutch_order_and_start():
    # en/de/fr/ru play the same game from the same seed, move for move.
    games = {loc: program((), loc).new_game(3, seed=11) for loc in ("en", "de", "fr", "ru")}
    for _ in range(60):
        notes = {loc: testing.notations(g) for loc, g in games.items()}
        assert len({tuple(n) for n in notes.values()}) == 1
        if games["en"].over:
            break
        for g in games.values():
            g.apply(len(notes["en"]) // 2)
    assert len({g.to_json().replace(f'"locale":"{loc}"', "") for loc, g in games.items()}) == 1


# ---------------------------------------------------------------- passing and the end

def test_player_with_an_empty_hand_passes():
    g = build(cells=AROUND_R4C2, hands=[[], ["Wo3w"]], active=0)
    # seat 0 could attack r4c2 but has no card for the base: they pass
    assert view(g, 1)["log"] == ["Player 1 has no hand card left and passes"]
    assert g.state["active"] == 1 and g.active_player == 1 and g.state["turn"] == 1
    assert not g.over and "r4c2" in targets(g)
    assert at(g, "r4c2") == "WP4m" and discard(g) == []


# Open clans, 2 players: seat 0 is Blue, seat 1 Wolf, the neutral clans Birds and Deer.
# The pyramid holds only Wild Potato, Wolf and Long Hair (exactly 36 cards), so seat 0
# has no member it may attack with, while seat 1 attacks with the Wolves.
NO_BLUE_BIRDS_DEER = [f"{c}{v}{s}" for c in ("WP", "Wo", "LH")
                      for v, s in [(9, "m"), (8, "w"), (8, "m"), (7, "w"), (7, "m"), (6, "w"),
                                   (6, "m"), (5, "w"), (5, "m"), (4, "w"), (4, "m"), (3, "w")]]
NO_ATTACK_ROWS = [" ".join(NO_BLUE_BIRDS_DEER[r * (r - 1) // 2: r * (r + 1) // 2])
                  for r in range(1, 9)]


def test_player_without_a_legal_attack_passes():
    g = build(rows=NO_ATTACK_ROWS, hands=[["Bl3w"], ["Bi3w"]], clans=["blue", "wolf"],
              neutral=["birds", "deer"], variants=("open_clans",))
    assert view(g, 1)["log"] == ["Player 1 cannot attack and passes"]
    assert g.state["active"] == 1 and g.active_player == 1 and not g.over
    assert hand(g, 0) == ["Bl3w"] and discard(g) == []
    assert targets(g)                               # the Wolves can attack
    # (seat 1 playing a turn set the passes in a row back to 0)
    assert g.state["vars"]["passes"] == 0


# A full pyramid in which nobody can attack anything, whatever their clan (found with a
# small integer program; each row of the bottom is one value, and where two clans meet
# higher up, the member below is too weak):
NO_ATTACK_AT_ALL = [
    "Wo8m",
    "Wo9m Wo8w",
    "LH4w LH3w LH4m",
    "LH9m LH8w LH5m LH8m",
    "De7m WP7w LH7m LH7w Wo7w",
    "De6w Wo6m Bl6w De6m Bi6m Bl6m",
    "De5m WP5w Bi5w LH5w WP5m Wo5w Bl5m",
    "Bi4w Bl4w Wo4m De4w Bl4m Bi4m De4m WP4w",
]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_game_ends_when_every_player_has_passed_in_a_row(players):
    # Nobody can attack: every player passes in turn, and the game ends though every
    # hand still holds a card.
    hands = [["Bl3w"], ["Wo3w"], ["Bi3w"], ["WP3w"]][:players]
    g = build(players=players, rows=NO_ATTACK_AT_ALL, hands=hands, active=1)
    assert g.over and g.state["vars"]["passes"] == players
    assert view(g, 0)["log"] == [f"Player {(1 + k) % players + 1} cannot attack and passes"
                                 for k in range(players)]
    assert [hand(g, p) for p in range(players)] == hands and discard(g) == []
    # Blue: r6c3 2 + r6c6 2 + r7c7 1 + two in the base = 5 (women: Bl6w, Bl4w);
    # Wolf: r1c1 7 + r2c1 6 + r2c2 6 + r5c5 3 + r6c2 2 + r7c6 1 = 25 (women: 8, 7, 5)
    assert g.result["scores"][:2] == [5, 25]
    assert g.result["tiebreaks"]["women"][:2] == [2, 3]


def test_passes_before_this_turn_count_too():
    # Open clans: seat 1 passed just before; now seat 0 cannot attack either, so the
    # game ends, though seat 1 could attack now.
    g = build(rows=NO_ATTACK_ROWS, hands=[["Bl3w"], ["Bi3w"]], clans=["blue", "wolf"],
              neutral=["birds", "deer"], variants=("open_clans",), passes=1)
    assert g.over and g.state["vars"]["passes"] == 2
    assert hand(g, 0) == ["Bl3w"] and hand(g, 1) == ["Bi3w"]
    # Wolf holds cells 13..24 in reading order: r5c3-r5c5 (3 feathers each), all of
    # row 6 (2 each) and r7c1-r7c3 (1 each): 9 + 12 + 3 = 24. No Blue in the pyramid.
    assert g.result["scores"] == [0, 24]


def test_passes_in_a_row_are_counted_until_someone_plays():
    # Two players of three passed in a row; the third plays, so the count starts again.
    g = build(players=3, cells=AROUND_R4C2, passes=2)
    assert not g.over and g.state["vars"]["passes"] == 0 and g.active_player == 0
    finish_turn(g)
    assert not g.over and g.state["vars"]["passes"] == 0
    # The same with the third one unable to play too: the game is over.
    g = build(players=3, cells=AROUND_R4C2, passes=2, hands=[[], ["Wo3w"], ["Bi3w"]])
    assert g.over and g.state["vars"]["passes"] == 3


def test_game_ends_when_all_hands_are_empty():
    g = build(cells=AROUND_R4C2, hands=[["Bl3w"], ["Wo3w"]], active=0)
    finish_turn(g)
    assert not g.over and hand(g, 0) == [] and g.state["active"] == 1
    finish_turn(g)
    assert g.over and hand(g, 1) == []
    # it ends at once: nobody has to pass first
    assert g.state["turn"] == 2 and not any("passes" in line for line in view(g, 0)["log"])
    assert g.result is not None and g.active_player is None and testing.notations(g) == []
    with pytest.raises(IllegalMove):
        g.apply(0)


def test_game_does_not_end_while_a_hand_still_has_cards():
    # Seat 1 passed (empty hand), seat 0 still plays its last cards alone.
    g = build(cells=AROUND_R4C2, hands=[["Bl3w", "Bi3w"], []], active=1)
    assert view(g, 0)["log"] == ["Player 2 has no hand card left and passes"]
    assert g.state["active"] == 0 and not g.over
    finish_turn(g)
    assert not g.over and g.state["active"] == 0 and len(hand(g, 0)) == 1   # seat 1 passed again
    assert view(g, 0)["log"][-1] == "Player 2 has no hand card left and passes"
    finish_turn(g)
    assert g.over


# ---------------------------------------------------------------- scoring

def scored(cells: dict[str, str], players: int = 2, clans=None):
    """A finished game: the pyramid NO_BLUE_NO_WOLF plus ``cells``, all hands empty."""
    g = build(players=players, rows=NO_BLUE_NO_WOLF, cells=cells, hands=[[]] * players,
              clans=clans)
    assert g.over
    return g.result


@pytest.mark.parametrize("row, feathers", [(1, 7), (2, 6), (3, 5), (4, 4), (5, 3), (6, 2),
                                           (7, 1), (8, 0)])
def test_feathers_seven_to_one_by_row_and_none_in_the_base(row, feathers):
    result = scored({f"r{row}c1": "Bl5m"})
    assert result["scores"] == [feathers, 0]


def test_score_is_the_feathers_of_every_member_of_ones_secret_clan():
    # Blue (seat 0): r1c1 7 + r2c2 6 + r3c1 5 + r5c3 3 + r8c4 0 = 21
    # Wolf (seat 1): r2c1 6 + r4c4 4 + r7c7 1 = 11; Deer (seat 2): the rest of the pyramid.
    result = scored({"r1c1": "Bl9m", "r2c2": "Bl8w", "r3c1": "Bl4m", "r5c3": "Bl3w",
                     "r8c4": "Bl7m", "r2c1": "Wo9m", "r4c4": "Wo3w", "r7c7": "Wo4m"},
                    players=3)
    assert result["scores"][:2] == [21, 11]
    # Deer in NO_BLUE_NO_WOLF, minus the cells overwritten above: by hand,
    # r3c2 5, r4c1 4, r5c4 3, r6c3 2, r7c2 1, r7c6 1, r8c1 0, r8c5 0 = 16
    assert result["scores"][2] == 16
    assert result["winners"] == [0] and result["ranking"] == [[0], [2], [1]]


def test_ties_broken_by_most_women_of_ones_clan_in_the_pyramid():
    # Both score 6; Blue has 3 women in the pyramid (two in the base row, where they earn
    # nothing), Wolf 1. The many women of other clans count for nobody.
    result = scored({"r2c1": "Bl8w", "r8c1": "Bl3w", "r8c2": "Bl4w",
                     "r2c2": "Wo9m", "r8c3": "Wo3w"})
    assert result["scores"] == [6, 6]
    assert result["tiebreaks"]["women"] == [3, 1]
    assert result["winners"] == [0] and result["ranking"] == [[0], [1]]


def test_tiebreak_does_not_beat_more_feathers():
    result = scored({"r2c1": "Bl8m", "r8c1": "Wo3w", "r8c2": "Wo4w", "r8c3": "Wo5w",
                     "r3c1": "Wo9m"})
    assert result["scores"] == [6, 5] and result["tiebreaks"]["women"] == [0, 3]
    assert result["winners"] == [0]


def test_still_tied_is_a_shared_win():
    result = scored({"r2c1": "Bl8w", "r2c2": "Wo8w", "r8c1": "Bl4m", "r8c2": "Wo4m"})
    assert result["scores"] == [6, 6] and result["tiebreaks"]["women"] == [1, 1]
    assert result["winners"] == [0, 1] and result["ranking"] == [[0, 1]]
    assert result["outcomes"] == ["win", "win"] and result["draw"] is False   # not a draw


# ---------------------------------------------------------------- the open-clans variant

@pytest.mark.parametrize("players, face_down", [(2, 2), (3, 1), (4, 0)])
def test_open_clans_clan_cards_and_two_neutral_clans_are_public(players, face_down):
    prog = program(("open_clans",))
    g = prog.new_game(players, seed=3)
    for seat in range(players):
        zones = view(g, seat)["zones"]
        for other in range(players):
            assert isinstance(zones[f"clan:{other}"], list) and len(zones[f"clan:{other}"]) == 1
        assert isinstance(zones["neutral"], list) and len(zones["neutral"]) == 2
        assert zones["clan_pile"] == {"count": face_down}     # unused, face down
    clans = [prog.items[i].attrs["clan"] for z in
             [f"clan:{p}" for p in range(players)] + ["neutral", "clan_pile"]
             for i in testing.at(g, z)]
    assert sorted(clans) == sorted(CLANS.values())            # all six, each once


OPEN_POSITION = {
    # r4c2: attackable by Blue (own), Birds (neutral), Wolf (seat 1's) and Long Hair
    "r4c2": "WP4m", "r4c1": "Bl6m", "r4c3": "Wo6w", "r5c2": "Bi5m", "r5c3": "LH5w",
    # r7c3: attackable only by a Long Hair 7 beside it
    "r7c3": "WP3w", "r7c2": "LH7m", "r7c4": "WP6m", "r8c3": "WP4w", "r8c4": "WP5w",
}


def test_open_clans_attack_only_with_own_clan_or_the_neutral_clans():
    kw = dict(cells=OPEN_POSITION, clans=["blue", "wolf"], neutral=["birds", "deer"],
              variants=("open_clans",))
    g = build(active=0, **kw)
    assert attacks(g, "r4c2") == groups("r4c1", "r5c2")     # Blue and Birds
    assert "r7c3" not in targets(g)                          # Long Hair: nobody's
    g = build(active=1, **kw)
    assert attacks(g, "r4c2") == groups("r4c3", "r5c2")     # Wolf and Birds
    assert "r7c3" not in targets(g)


def test_base_game_allows_attacking_with_any_clan():
    g = build(cells=OPEN_POSITION, clans=["blue", "wolf"])
    assert attacks(g, "r4c2") == groups("r4c1", "r4c3", "r5c2", "r5c3")
    assert attacks(g, "r7c3") == groups("r7c2")


# ---------------------------------------------------------------- setup and secrecy

@pytest.mark.parametrize("locale", [None, "nl"])
@pytest.mark.parametrize("players, hand_size", [(2, 18), (3, 12), (4, 9)])
def test_deal(players, hand_size, locale):
    prog = program((), locale)
    g = prog.new_game(players, seed=players)
    members = [i.id for i in prog.items if i.kind == "Member"]
    assert len(members) == 72 and len({code(prog, i) for i in members}) == 72
    pyramid = [testing.at(g, f"pyramid:r{r}c{c}") for r in range(1, 9) for c in range(1, r + 1)]
    assert len(pyramid) == 36 and all(len(x) == 1 for x in pyramid)
    hands = [testing.at(g, f"hand:{p}") for p in range(players)]
    assert [len(h) for h in hands] == [hand_size] * players
    assert sorted([x for part in pyramid + hands for x in part]) == sorted(members)
    assert testing.at(g, "draw") == [] and testing.at(g, "discard") == []
    assert [len(testing.at(g, f"clan:{p}")) for p in range(players)] == [1] * players
    assert len(testing.at(g, "clan_pile")) == 6 - players
    assert g.state["vars"]["passes"] == 0


def test_secret_clan_cards_are_hidden_from_other_players():
    g = program().new_game(3, seed=1)
    for seat in range(3):
        zones = view(g, seat)["zones"]
        assert zones[f"clan:{seat}"] == testing.at(g, f"clan:{seat}")
        for other in set(range(3)) - {seat}:
            assert zones[f"clan:{other}"] == {"count": 1}
        assert zones["clan_pile"] == {"count": 3}
    assert "neutral" not in view(g, 0)["zones"]


def test_clan_cards_are_revealed_at_the_end():
    g = build(players=3, cells=AROUND_R4C2, hands=[[], [], []], clans=["blue", "wolf", "deer"])
    assert g.over
    for seat in range(3):
        zones = view(g, seat)["zones"]
        for other in range(3):
            assert zones[f"clan:{other}"] == testing.at(g, f"clan:{other}")
        assert zones["clan_pile"] == {"count": 3}             # the unused ones stay hidden


def test_hands_are_hidden_from_other_players():
    g = program().new_game(4, seed=2)
    for seat in range(4):
        v = view(g, seat)
        assert v["zones"][f"hand:{seat}"] == testing.at(g, f"hand:{seat}")
        for other in set(range(4)) - {seat}:
            assert v["zones"][f"hand:{other}"] == {"count": 9}
        seen = {i for z in v["zones"].values() if isinstance(z, list) for i in z}
        for other in set(range(4)) - {seat}:
            assert not seen & set(testing.at(g, f"hand:{other}"))
            assert not seen & set(testing.at(g, f"clan:{other}"))
        assert v["zones"]["pyramid:r1c1"] == testing.at(g, "pyramid:r1c1")   # public
