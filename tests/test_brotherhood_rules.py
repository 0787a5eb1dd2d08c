"""Brotherhood of Nine: Hexostrategy: one test for every rule, each on a hand-built position.

The rulebook is shared/rulebooks/brotherhood-of-nine.ru.txt; the facts from public sources
and the assumptions are in shared/rulebooks/NOTES.md; every choice made in the ruleset is
documented in docs/rulesets/brotherhood-of-nine.md.

Pieces are written as type letter + colour letter: "Kr" is a red Kveblir (cavalry), "Lb" a
blue Linda (archer), "Sg" a green Surron (berserker), "Dy" a yellow Drantul (heavy
infantry), "Er" a red Ekvil (light infantry), "Fb" the blue flag. Seat 1 (index 0) plays
red, seat 2 blue, seat 3 green, seat 4 yellow. Hexes are named like the moves: "q1r-2" is
q = 1, r = -2 (s = 1). With 2 players the field has radius 3, with 3 radius 4, with 4
radius 5.
"""
from __future__ import annotations

import functools

import pytest
from meeple.interpreter import IllegalMove
from meeple.interpreter.analysis import testing
from meeple.interpreter.play.views import view

from meeple import interpreter

TYPES = {"K": "kveblir", "L": "linda", "S": "surron", "D": "drantul", "E": "ekvil", "F": "flag"}
COLOURS = {"r": "red", "b": "blue", "g": "green", "y": "yellow"}
SEAT_COLOURS = ["red", "blue", "green", "yellow"]
HEALTH = {"kveblir": 2, "linda": 2, "surron": 2, "drantul": 3, "ekvil": 2}
HIDDEN = {"hidden": True}
VARIANTS = ["allies", "allies_crosswise", "archer_lines", "capture_the_flag", "cavalry_jumps", "round_limit"]


# ---------------------------------------------------------------- helpers

@functools.cache
def ruleset(variants: tuple = (), locale: str | None = None):
    return interpreter.load("brotherhood-of-nine", variants=list(variants), locale=locale)


def prog_for(players: int, variants: tuple = (), locale: str | None = None):
    return ruleset(tuple(variants), locale).for_players(players)


def hexes(prog) -> dict[str, dict]:
    """Every hex of the field: name -> coordinates."""
    return {z.cell.name: z.cell.coords for z in prog.zones if z.board == "field"}


def distance(a: dict, b: dict) -> int:
    return max(abs(a["q"] - b["q"]), abs(a["r"] - b["r"]), abs(a["s"] - b["s"]))


def code(prog, item: int) -> str:
    a = prog.items[item].attrs
    return {v: k for k, v in TYPES.items()}[a["type"]] + {v: k for k, v in COLOURS.items()}[a["colour"]]


def build(players: int = 2, field: dict[str, str] | None = None, wounds: dict[str, int] | None = None,
          shielded=(), bearers=(), active: int = 0, starter: int = 0, variants: tuple = (),
          locale: str | None = None, fallen: dict[int, list[str]] | None = None):
    """A game at the start of ``active``'s turn with these pieces on the field (face up),
    ``wounds`` on them, the shield on the warriors of ``shielded`` and (capture the flag)
    the flag on the warriors of ``bearers``. Pieces not listed stay in the box."""
    prog = prog_for(players, variants, locale)
    pools: dict[str, list[int]] = {}
    zones: dict = {}
    placed: dict[str, int] = {}

    def take(c: str) -> int:
        pool = pools.setdefault(c, testing.items(prog, "Piece", type=TYPES[c[0]], colour=COLOURS[c[1]]))
        return pool.pop(0)
    for cell, c in (field or {}).items():
        placed[cell] = take(c)
        zones[f"field:{cell}"] = placed[cell]
    for seat, codes in (fallen or {}).items():
        zones[f"fallen:{seat}"] = [take(c) for c in codes]
    ivars = {"wounds": {placed[c]: n for c, n in (wounds or {}).items()},
             "guard": {placed[c]: "shielded" for c in shielded},
             "banner": {placed[c]: "bearer" for c in bearers}}
    return testing.position(prog, players, zones, active=active, vars={"starter": starter},
                            pvars={"colour": SEAT_COLOURS[:players]}, ivars=ivars)


def at(g, cell: str) -> str | None:
    """The piece on a hex ("Kr"), or None."""
    items = testing.at(g, f"field:{cell}")
    assert len(items) <= 1
    return code(g.program, items[0]) if items else None


def piece(g, cell: str) -> int:
    return testing.at(g, f"field:{cell}")[0]


def ivar(g, name: str, cell: str):
    return g.state["ivars"][name][piece(g, cell)]


def board(g) -> dict[str, str]:
    return {name: at(g, name) for name in hexes(g.program) if at(g, name)}


options = testing.options  # the legal moves of one verb, without it


def actions(g) -> list[str]:
    return options(g, "action")


def destinations(g, cell: str) -> set[str]:
    g = g.copy()
    g.apply("action move")
    g.apply(f"warrior {cell}")
    return set(options(g, "to"))


def targets(g, cell: str) -> set[str]:
    g = g.copy()
    g.apply("action attack")
    g.apply(f"warrior {cell}")
    return set(options(g, "target"))


def move(g, src: str, dst: str):
    testing.play(g, "action move", f"warrior {src}", f"to {dst}")


def attack(g, src: str, *dsts: str):
    testing.play(g, "action attack", f"warrior {src}", "target " + "+".join(dsts))


def defend(g, cell: str):
    testing.play(g, "action shield", f"warrior {cell}")


def end_turn(g):
    g.apply("action stop")


def log(g, seat=0) -> list[str]:
    return view(g, seat)["log"]


def winners(g) -> list[int]:
    assert g.over
    return g.result["winners"]


def setup_until(g, verb: str):
    """Plays the first option of every decision until a decision with this verb."""
    while g.decision is not None and g.decision.verb != verb:
        g.apply(0)
    return g


def test_helpers_build_the_position_they_are_told():
    g = build(2, {"q0r0": "Kr", "q1r0": "Db", "q-1r0": "Fb"}, wounds={"q1r0": 2},
              shielded=["q0r0"])
    assert board(g) == {"q0r0": "Kr", "q1r0": "Db", "q-1r0": "Fb"}
    assert ivar(g, "wounds", "q1r0") == 2 and ivar(g, "guard", "q0r0") == "shielded"
    # its only warrior carries the shield already: nothing to defend, the shield may come off
    assert g.active_player == 0 and actions(g) == ["attack", "move", "stop", "surrender", "unshield"]


# ---------------------------------------------------------------- the field

@pytest.mark.parametrize("players, radius, count", [(2, 3, 37), (3, 4, 61), (4, 5, 91)])
def test_field_in_use_depends_on_the_player_count(players, radius, count):
    # 2 players: the inner field; 3: inner field + middle ring; 4: the whole board
    cells = hexes(prog_for(players))
    assert len(cells) == count
    assert max(c["ring"] for c in cells.values()) == radius
    assert cells["q0r0"] == {"q": 0, "r": 0, "s": 0, "ring": 0}
    assert cells[f"q{radius}r-{radius}"]["ring"] == radius
    assert all(c["s"] == -c["q"] - c["r"] for c in cells.values())


def test_neighbours_are_the_six_hexes_at_distance_one():
    # an Ekvil walks one hex: its destinations are its neighbours
    g = build(2, {"q0r0": "Er", "q3r0": "Eb"})
    assert destinations(g, "q0r0") == {"q1r0", "q-1r0", "q0r1", "q0r-1", "q1r-1", "q-1r1"}
    # at a corner of the field only three neighbours exist
    g = build(2, {"q3r-3": "Er", "q-3r3": "Eb"})
    assert destinations(g, "q3r-3") == {"q2r-3", "q2r-2", "q3r-2"}


def zone_options(players: int, seat: int) -> set[str]:
    """The hexes offered to a seat for its first warrior, in a real setup."""
    rs = ruleset()
    for seed in range(40):
        g = rs.new_game(players, seed)
        setup_until(g, "deploy")
        if g.active_player == seat:
            g.apply(0)
            return set(options(g, "at"))
    raise AssertionError("that seat never deploys first")


def rotate(c: dict, k: int = 1) -> dict:
    """k sixths of a turn clockwise (as drawn) around the centre."""
    for _ in range(k):
        c = {"q": -c["r"], "r": -c["s"], "s": -c["q"]}
    return c


def mirror(c: dict) -> dict:
    """The reflection that swaps the top side (r = -R) and the upper right one (q = R)."""
    return {"q": -c["r"], "r": -c["q"], "s": -c["s"]}


def name(c: dict) -> str:
    return f"q{c['q']}r{c['r']}"


def image(cells: dict, zone: set, f) -> set:
    return {name(f(cells[h])) for h in zone}


@pytest.mark.parametrize("players, size", [(2, 9), (3, 11), (4, 9)])
def test_deployment_zones_lie_along_the_edge_symmetric_and_apart(players, size):
    cells = hexes(prog_for(players))
    radius = max(c["ring"] for c in cells.values())
    zones = [zone_options(players, seat) for seat in range(players)]
    for z in zones:
        assert len(z) == size >= 9
        # along the edge: the two outer rows of the field in use
        assert all(cells[h]["ring"] >= radius - 1 for h in z)
        assert any(cells[h]["ring"] == radius for h in z)
    assert sum(len(z) for z in zones) == len(set().union(*zones))   # no hex in two zones
    # the first zone lies along the top side
    assert all(cells[h]["r"] <= -(radius - 1) for h in zones[0])
    # symmetric: 2 players face each other (half a turn), 3 players hold every other
    # side (a third of a turn), 4 players two opposite pairs of sides: seat 2 is seat 1
    # mirrored across their common corner, seats 3 and 4 face seats 1 and 2
    if players == 2:
        assert zones[1] == image(cells, zones[0], lambda c: rotate(c, 3))
    elif players == 3:
        assert zones[1] == image(cells, zones[0], lambda c: rotate(c, 2))
        assert zones[2] == image(cells, zones[0], lambda c: rotate(c, 4))
    else:
        assert zones[1] == image(cells, zones[0], mirror)
        assert zones[2] == image(cells, zones[0], lambda c: rotate(c, 3))
        assert zones[3] == image(cells, zones[1], lambda c: rotate(c, 3))


def test_four_player_zones_give_both_seatings_of_the_allies():
    cells = hexes(prog_for(4))
    zones = [zone_options(4, seat) for seat in range(4)]

    def gap(a, b):
        return min(distance(cells[x], cells[y]) for x in zones[a] for y in zones[b])
    # seats 1+2 and 3+4 are neighbours across a corner ("стенка на стенку"), seats 1+3
    # and 2+4 face each other across the field ("крест-накрест")
    assert gap(0, 1) == gap(2, 3) == 2
    assert gap(0, 2) == gap(1, 3) == 8
    assert {name({"q": -cells[h]["q"], "r": -cells[h]["r"]}) for h in zones[0]} == zones[2]


# ---------------------------------------------------------------- setup: the secret choice

def test_each_player_secretly_chooses_nine_of_thirteen_warriors():
    g = ruleset().new_game(2, seed=1)
    prog = g.program
    assert g.active_player == 0
    assert [len(testing.at(g, f"barracks:{p}")) for p in (0, 1)] == [13, 13]
    counts = {}
    for i in testing.at(g, "barracks:0"):
        counts[code(prog, i)] = counts.get(code(prog, i), 0) + 1
    assert counts == {"Kr": 2, "Lr": 2, "Sr": 3, "Dr": 3, "Er": 3}
    # one option per type left, the others see neither the options nor the reserve
    assert options(g, "enlist") == ["kveblir-red#1", "linda-red#1", "surron-red#1",
                                    "drantul-red#1", "ekvil-red#1"]
    assert "options" not in view(g, 1)["pending"]
    for pick in ["kveblir-red#1", "kveblir-red#2", "drantul-red#1", "drantul-red#2",
                 "drantul-red#3", "linda-red#1", "ekvil-red#1", "ekvil-red#2"]:
        g.apply(f"enlist {pick}")
    assert "kveblir-red#3" not in options(g, "enlist")
    assert options(g, "enlist") == ["linda-red#2", "surron-red#1", "ekvil-red#3"]
    g.apply("enlist surron-red#1")
    assert len(testing.at(g, "army:0")) == 9 and len(testing.at(g, "barracks:0")) == 4
    # now seat 2 chooses; seat 2 and spectators see seat 1's army and reserve as counts
    assert g.active_player == 1
    for seat in (1, -1):
        v = view(g, seat)
        assert v["zones"]["army:0"] == {"count": 9} and v["zones"]["barracks:0"] == {"count": 4}
        secret = {str(i) for i in testing.at(g, "army:0") + testing.at(g, "barracks:0")}
        assert not secret & set(v["ivars"]["wounds"])
    assert view(g, 0)["zones"]["army:0"] == testing.at(g, "army:0")
    assert log(g, 1) == ["Player 1 has chosen 9 warriors"]


def test_the_first_player_is_drawn_after_the_choice_and_deploys_first():
    starters = set()
    for seed in range(12):
        g = ruleset().new_game(3, seed)
        for _ in range(27):
            assert g.decision.verb == "enlist"
            g.apply(0)
        assert g.decision.verb == "deploy"
        starters.add(g.active_player)
        assert g.state["vars"]["starter"] == g.active_player
        # then the others in clockwise order
        order = []
        while g.decision.verb in ("deploy", "at"):
            if not order or order[-1] != g.active_player:
                order.append(g.active_player)
            g.apply(0)
        first = g.state["vars"]["starter"]
        assert order == [(first + k) % 3 for k in range(3)]
        assert g.active_player == first and g.decision.verb == "action"
    assert starters == {0, 1, 2}                       # at random


def test_deployment_is_face_down_in_the_own_zone_and_hidden_from_the_others():
    g = ruleset().new_game(2, seed=3)
    setup_until(g, "deploy")
    p = g.active_player
    other = 1 - p
    army = testing.at(g, f"army:{p}")
    g.apply(0)
    zone = options(g, "at")
    assert len(zone) == 9
    g.apply(f"at {zone[4]}")
    it = piece(g, zone[4])
    assert it in army and g.state["facing"][it] == 1 << p
    mine, theirs, spectator = view(g, p), view(g, other), view(g, -1)
    assert mine["zones"][f"field:{zone[4]}"] == [it]
    assert theirs["zones"][f"field:{zone[4]}"] == [HIDDEN]
    assert spectator["zones"][f"field:{zone[4]}"] == [HIDDEN]
    assert str(it) not in theirs["ivars"]["wounds"] and str(it) in mine["ivars"]["wounds"]
    assert theirs["log"][-1] == f"Player {p + 1} places a piece face down at {zone[4]}"
    assert mine["log"][-1].startswith(f"Player {p + 1} places ") and "a piece" not in mine["log"][-1]
    # the hex is taken: the next warrior goes elsewhere in the zone
    g.apply(0)
    assert set(options(g, "at")) == set(zone) - {zone[4]}


def test_all_pieces_are_revealed_only_when_every_army_is_placed():
    g = ruleset().new_game(2, seed=4)
    setup_until(g, "deploy")
    first = g.active_player
    for _ in range(18 + 17):
        g.apply(0)
    # the second player places their last warrior: until then everything is face down
    assert g.decision.verb == "at" and g.active_player == 1 - first
    placed = [i for z in g.program.zones if z.board == "field" for i in g.state["zones"][z.id]]
    assert len(placed) == 17 and all(g.state["facing"][i] >= 0 for i in placed)
    for seat, hidden in ((1 - first, 9), (first, 8), (-1, 17)):
        shown = [x for z in view(g, seat)["zones"].values() if isinstance(z, list) for x in z]
        assert shown.count(HIDDEN) == hidden                     # all but the own, face down
    g.apply(0)
    placed = [i for z in g.program.zones if z.board == "field" for i in g.state["zones"][z.id]]
    assert len(placed) == 18 and all(g.state["facing"][i] == -1 for i in placed)
    for seat in (0, 1, -1):
        shown = [x for z in view(g, seat)["zones"].values() if isinstance(z, list) for x in z]
        assert HIDDEN not in shown
    assert log(g, 1)[-1] == f"All Brotherhoods are revealed; Player {first + 1} moves first"
    assert g.active_player == first and g.decision.verb == "action"


# ---------------------------------------------------------------- a turn

def test_a_turn_is_up_to_three_actions():
    g = build(2, {"q0r0": "Er", "q-1r0": "Sr", "q0r-2": "Lr", "q2r1": "Eb"})
    move(g, "q0r0", "q1r0")
    move(g, "q-1r0", "q-1r1")
    assert g.active_player == 0
    move(g, "q0r-2", "q0r-1")
    # three actions: the turn passes without asking
    assert g.active_player == 1 and g.state["turn"] == 1


def test_the_player_may_stop_early_or_do_nothing():
    g = build(2, {"q0r0": "Er", "q1r1": "Eb"})
    assert actions(g) == ["move", "shield", "stop", "surrender"]
    end_turn(g)
    assert g.active_player == 1 and g.state["turn"] == 1 and board(g) == {"q0r0": "Er", "q1r1": "Eb"}
    move(g, "q1r1", "q0r1")
    # surrender is offered after an action too (see test_surrender_at_any_decision_of_the_turn)
    assert actions(g) == ["attack", "shield", "stop", "surrender"]
    end_turn(g)
    assert g.active_player == 0


def test_a_warrior_does_at_most_two_actions_never_the_same_twice():
    # the rulebook's example: the Surron moves one hex and attacks the Kveblir
    g = build(2, {"q0r0": "Sr", "q0r-2": "Er", "q2r-1": "Kb", "q-3r3": "Eb"})
    move(g, "q0r0", "q1r0")
    g2 = g.copy()
    g2.apply("action move")
    assert options(g2, "warrior") == ["q0r-2"]                  # it may not move again
    with pytest.raises(IllegalMove):
        g2.apply("warrior q1r0")
    attack(g, "q1r0", "q2r-1")
    assert ivar(g, "acted", "q1r0") == ["move", "attack"]
    # two actions done: the third one is another warrior's, and it may not defend either
    g2 = g.copy()
    g2.apply("action shield")
    assert options(g2, "warrior") == ["q0r-2"]
    assert "attack" not in actions(g)                           # nobody else can attack
    move(g, "q0r-2", "q0r-1")
    assert g.active_player == 1
    # a new turn: the Surron may act again
    end_turn(g)
    assert ivar(g, "acted", "q1r0") == []
    g.apply("action move")
    assert "q1r0" in options(g, "warrior")


def test_the_same_warrior_may_defend_then_move():
    g = build(2, {"q0r0": "Dr", "q-1r0": "Er", "q3r0": "Eb"})
    defend(g, "q0r0")
    move(g, "q0r0", "q0r1")
    g2 = g.copy()
    g2.apply("action shield")
    assert options(g2, "warrior") == ["q-1r0"]                 # the Drantul has done two
    assert ivar(g, "guard", "q0r1") == "shielded"               # the shield went along


def test_a_warrior_may_not_defend_twice_in_a_turn():
    g = build(2, {"q0r0": "Dr", "q-1r0": "Er", "q-2r0": "Kr", "q3r0": "Eb"})
    defend(g, "q0r0")
    defend(g, "q-1r0")                                           # the Drantul is bare again
    g.apply("action shield")
    assert options(g, "warrior") == ["q-2r0"]                   # but it defended already
    with pytest.raises(IllegalMove):
        g.apply("warrior q0r0")


# ---------------------------------------------------------------- movement

def test_a_warrior_moves_to_an_empty_neighbouring_hex():
    g = build(2, {"q0r0": "Dr", "q1r0": "Eb", "q0r1": "Er", "q-3r3": "Lb"})
    assert destinations(g, "q0r0") == {"q-1r0", "q0r-1", "q1r-1", "q-1r1"}
    move(g, "q0r0", "q-1r0")
    assert at(g, "q-1r0") == "Dr" and at(g, "q0r0") is None
    assert log(g)[-1] == "Player 1: Drantul q0r0 → q-1r0"


def test_kveblir_moves_two_hexes_through_empty_hexes_only():
    g = build(2, {"q0r0": "Kr", "q-3r3": "Eb"})
    reach = destinations(g, "q0r0")
    cells = hexes(g.program)
    assert reach == {h for h, c in cells.items() if 1 <= distance(c, cells["q0r0"]) <= 2}
    # walled in on the right by three warriors of any side: the hexes that are reached
    # only through them are out of reach
    wall = {"q1r-1", "q1r0", "q0r1"}
    g = build(2, {"q0r0": "Kr", "q1r-1": "Er", "q1r0": "Eb", "q0r1": "Er"})
    near = {h for h, c in cells.items() if 1 <= distance(c, cells["q0r0"]) <= 2}
    assert destinations(g, "q0r0") == near - wall - {"q2r-2", "q2r-1", "q2r0", "q1r1", "q0r2"}
    move(g, "q0r0", "q-1r-1")                                    # two hexes in one action
    assert at(g, "q-1r-1") == "Kr" and at(g, "q0r0") is None


def test_variant_cavalry_jumps_passes_over_occupied_hexes():
    field = {"q0r0": "Kr", "q1r-1": "Er", "q1r0": "Eb", "q0r1": "Er"}
    reach = destinations(build(2, field, variants=("cavalry_jumps",)), "q0r0")
    assert {"q2r0", "q2r-1", "q2r-2", "q1r1", "q0r2"} <= reach
    assert not {"q1r-1", "q1r0", "q0r1"} & reach                  # it still lands on an empty hex
    # other warriors still walk one hex
    assert destinations(build(2, field, variants=("cavalry_jumps",)), "q1r-1") == \
        {"q1r-2", "q2r-2", "q2r-1", "q0r-1"}


# ---------------------------------------------------------------- attack

def test_warriors_attack_an_adjacent_enemy_for_one_wound():
    g = build(2, {"q0r0": "Kr", "q1r0": "Sb", "q0r2": "Eb", "q-1r0": "Er"})
    assert targets(g, "q0r0") == {"q1r0"}                       # not the friend, not at range 2
    attack(g, "q0r0", "q1r0")
    assert ivar(g, "wounds", "q1r0") == 1
    assert log(g, 1)[-1] == "Player 1: Kveblir q0r0 wounds Player 2's Surron q1r0 (1 of 2)"


def test_linda_shoots_any_hex_within_two():
    g = build(2, {"q0r0": "Lr", "q1r1": "Sb", "q2r0": "Eb", "q0r-1": "Db", "q3r0": "Kb"})
    # q1r1 is at distance 2 off the six lines; q3r0 at distance 3 is out of range
    assert targets(g, "q0r0") == {"q1r1", "q2r0", "q0r-1"}
    attack(g, "q0r0", "q1r1")
    assert ivar(g, "wounds", "q1r1") == 1
    # the others only reach their neighbours
    g = build(2, {"q0r0": "Er", "q2r0": "Eb", "q0r-1": "Db"})
    assert targets(g, "q0r0") == {"q0r-1"}


def test_variant_archer_lines_shoots_along_the_six_lines_only():
    field = {"q0r0": "Lr", "q1r1": "Sb", "q2r0": "Eb", "q0r-1": "Db", "q-2r2": "Kb"}
    g = build(2, field, variants=("archer_lines",))
    assert targets(g, "q0r0") == {"q2r0", "q0r-1", "q-2r2"}


def test_surron_strikes_two_enemies_at_the_cost_of_one_health():
    g = build(2, {"q0r0": "Sr", "q1r0": "Eb", "q-1r0": "Kb", "q0r1": "Er", "q3r0": "Lb"})
    g.apply("action attack")
    g.apply("warrior q0r0")
    # one enemy or two different ones, never a friend
    assert options(g, "target") == ["q-1r0", "q1r0", "q-1r0+q1r0"]
    g.apply("target q-1r0+q1r0")
    assert ivar(g, "wounds", "q1r0") == 1 and ivar(g, "wounds", "q-1r0") == 1
    assert ivar(g, "wounds", "q0r0") == 1                       # "платит 1 жизнь"
    assert log(g, 1)[-1] == ("Player 1: Surron q0r0 pays 1 health for its double strike "
                             "(1 of 2)")


def test_surron_single_strike_costs_nothing():
    g = build(2, {"q0r0": "Sr", "q1r0": "Eb", "q-1r0": "Kb"})
    attack(g, "q0r0", "q1r0")
    assert ivar(g, "wounds", "q0r0") == 0 and ivar(g, "wounds", "q1r0") == 1


def test_surron_may_die_of_its_double_strike():
    g = build(2, {"q0r0": "Sr", "q1r0": "Eb", "q-1r0": "Kb", "q-3r3": "Er"}, wounds={"q0r0": 1})
    attack(g, "q0r0", "q-1r0", "q1r0")
    assert at(g, "q0r0") is None
    assert [code(g.program, i) for i in testing.at(g, "fallen:0")] == ["Sr"]
    assert ivar(g, "wounds", "q1r0") == 1


def test_only_the_surron_strikes_twice():
    g = build(2, {"q0r0": "Dr", "q1r0": "Eb", "q-1r0": "Kb"})
    g.apply("action attack")
    g.apply("warrior q0r0")
    assert options(g, "target") == ["q-1r0", "q1r0"]


def test_ekvil_deals_two_wounds_to_a_drantul_only():
    g = build(2, {"q0r0": "Er", "q1r0": "Db", "q-1r0": "Er", "q-1r1": "Sb"})
    attack(g, "q0r0", "q1r0")
    assert ivar(g, "wounds", "q1r0") == 2
    attack(g, "q-1r0", "q-1r1")
    assert ivar(g, "wounds", "q-1r1") == 1
    # another Drantul is hit by other warriors for one wound
    g = build(2, {"q0r0": "Kr", "q1r0": "Db"})
    attack(g, "q0r0", "q1r0")
    assert ivar(g, "wounds", "q1r0") == 1


@pytest.mark.parametrize("kind", ["K", "L", "S", "D", "E"])
def test_drantul_has_three_health_the_others_two(kind):
    health = 3 if kind == "D" else 2
    g = build(2, {"q0r0": "Kr", "q1r0": kind + "b", "q-3r3": "Eb"}, wounds={"q1r0": health - 2})
    attack(g, "q0r0", "q1r0")
    assert at(g, "q1r0") == kind + "b"                           # one wound short
    g = build(2, {"q0r0": "Kr", "q1r0": kind + "b", "q-3r3": "Eb"}, wounds={"q1r0": health - 1})
    attack(g, "q0r0", "q1r0")
    assert at(g, "q1r0") is None                                 # "убирается с поля"
    assert [code(g.program, i) for i in testing.at(g, "fallen:1")] == [kind + "b"]
    assert log(g)[-1] == f"Player 2's {TYPES[kind].capitalize()} q1r0 is destroyed"


def test_wounds_are_counters_on_the_piece_shown_in_its_label():
    from meeple.interpreter.play import display
    g = build(2, {"q0r0": "Er", "q1r0": "Db"}, shielded=["q0r0"])
    attack(g, "q0r0", "q1r0")
    v = view(g, 1)
    it = piece(g, "q1r0")
    assert display.item_label(g.program, it, True, v["ivars"]) == "Db2"
    assert display.item_label(g.program, it, False, v["ivars"]) == "blue Drantul, wounds 2"
    assert display.item_label(g.program, piece(g, "q0r0"), True, v["ivars"]) == "Er0s"


# ---------------------------------------------------------------- the shield

def test_defend_puts_the_one_shield_on_a_warrior_and_moves_it():
    g = build(2, {"q0r0": "Dr", "q-1r0": "Er", "q-2r0": "Kr", "q3r0": "Eb"})
    defend(g, "q0r0")
    assert ivar(g, "guard", "q0r0") == "shielded"
    g2 = g.copy()
    g2.apply("action shield")
    assert options(g2, "warrior") == ["q-2r0", "q-1r0"]         # not the one that has it
    defend(g, "q-1r0")
    # one shield per player: it left the Drantul
    assert ivar(g, "guard", "q-1r0") == "shielded" and ivar(g, "guard", "q0r0") == "bare"
    assert log(g, 1)[-1] == "Player 1: the shield goes onto Ekvil q-1r0"


def test_the_shield_stays_on_its_warrior_and_moves_with_it():
    g = build(2, {"q0r0": "Dr", "q3r0": "Eb"}, shielded=["q0r0"])
    move(g, "q0r0", "q1r0")
    end_turn(g)
    end_turn(g)
    assert ivar(g, "guard", "q1r0") == "shielded"


def test_an_attack_knocks_the_shield_off_without_a_wound():
    g = build(2, {"q0r0": "Kr", "q-1r0": "Er", "q1r0": "Db"}, shielded=["q1r0"], active=0)
    g2 = build(2, {"q0r0": "Er", "q1r0": "Db"}, shielded=["q1r0"])
    attack(g2, "q0r0", "q1r0")                                   # even an Ekvil's double blow
    assert ivar(g2, "wounds", "q1r0") == 0 and ivar(g2, "guard", "q1r0") == "bare"
    attack(g, "q0r0", "q1r0")
    assert ivar(g, "wounds", "q1r0") == 0 and ivar(g, "guard", "q1r0") == "bare"
    assert log(g, 1)[-1] == "Player 1: Kveblir q0r0 knocks the shield off Player 2's Drantul q1r0"
    # the next attack wounds
    move(g, "q-1r0", "q-1r1")
    end_turn(g)
    end_turn(g)
    attack(g, "q0r0", "q1r0")
    assert ivar(g, "wounds", "q1r0") == 1


def test_a_double_strike_knocks_one_shield_and_wounds_the_other_enemy():
    g = build(2, {"q0r0": "Sr", "q1r0": "Eb", "q-1r0": "Kb"}, shielded=["q1r0"])
    attack(g, "q0r0", "q-1r0", "q1r0")
    assert ivar(g, "guard", "q1r0") == "bare" and ivar(g, "wounds", "q1r0") == 0
    assert ivar(g, "wounds", "q-1r0") == 1 and ivar(g, "wounds", "q0r0") == 1


def test_the_shield_does_not_take_the_surrons_own_rage():
    g = build(2, {"q0r0": "Sr", "q1r0": "Eb", "q-1r0": "Kb", "q-3r3": "Er"},
              wounds={"q0r0": 1}, shielded=["q0r0"])
    attack(g, "q0r0", "q-1r0", "q1r0")
    assert at(g, "q0r0") is None
    fallen = testing.at(g, "fallen:0")[0]
    assert g.state["ivars"]["guard"][fallen] == "bare"                    # the shield is free again
    defend(g, "q-3r3")
    assert ivar(g, "guard", "q-3r3") == "shielded"


def test_the_player_may_take_their_own_shield_off():
    """"Маркер «Щит» может оставаться на фишке-воине, неопределённое время: пока игрок сам
    не снимет с воина этот маркер, или противник не выбьет её." — "The Shield marker may
    stay on the warrior for an indefinite time: until the player himself takes it off the
    warrior, or an opponent knocks it off." Taking it off costs one of the turn's actions
    (assumption) and is no action of the warrior."""
    g = build(2, {"q0r0": "Dr", "q-1r0": "Er", "q3r0": "Eb"})
    assert "unshield" not in actions(g)                          # no shield on the field
    g = build(2, {"q0r0": "Dr", "q-1r0": "Er", "q3r0": "Eb"}, shielded=["q0r0"])
    assert actions(g) == ["move", "shield", "stop", "surrender", "unshield"]
    g.apply("action unshield")
    assert ivar(g, "guard", "q0r0") == "bare"
    assert log(g, 1)[-1] == "Player 1: the shield comes off Drantul q0r0"
    assert "unshield" not in actions(g) and "shield" in actions(g)
    move(g, "q0r0", "q1r0")                                       # the Drantul still acts twice
    defend(g, "q1r0")
    assert ivar(g, "guard", "q1r0") == "shielded"
    assert g.active_player == 1                                   # three actions: the turn is over


# ---------------------------------------------------------------- the end

def test_the_last_army_standing_wins_at_once():
    g = build(2, {"q0r0": "Kr", "q1r0": "Eb", "q-2r0": "Er"}, wounds={"q1r0": 1})
    attack(g, "q0r0", "q1r0")
    assert g.over and winners(g) == [0]
    assert g.result["scores"] == [1, 0]
    assert g.state["vars"]["victors"] == [1]


def test_an_eliminated_player_is_skipped_and_the_others_fight_on():
    g = build(3, {"q0r0": "Kr", "q1r0": "Eb", "q-3r0": "Eg"}, wounds={"q1r0": 1})
    attack(g, "q0r0", "q1r0")
    assert not g.over
    end_turn(g)
    # seat 2 has no warrior left: its turn passes without a decision
    assert g.active_player == 2 and g.state["turn"] == 2
    assert log(g)[-1] == "Player 2 has no warriors left"
    move(g, "q-3r0", "q-2r0")
    end_turn(g)
    assert g.active_player == 0


def test_surrender_is_a_move_that_removes_the_brotherhood():
    g = build(2, {"q0r0": "Kr", "q1r0": "Eb", "q2r0": "Db"}, active=1)
    g.apply("action surrender")
    assert g.over and winners(g) == [0]
    assert board(g) == {"q0r0": "Kr"}
    assert sorted(code(g.program, i) for i in testing.at(g, "fallen:1")) == ["Db", "Eb"]
    assert log(g)[-1] == "Player 2 surrenders; their Brotherhood leaves the field"


def test_surrender_with_three_players_leaves_the_other_two_fighting():
    g = build(3, {"q0r0": "Kr", "q1r0": "Eb", "q-3r0": "Eg"}, active=1)
    g.apply("action surrender")
    assert not g.over and board(g) == {"q0r0": "Kr", "q-3r0": "Eg"}
    assert g.active_player == 2


def test_surrender_at_any_decision_of_the_turn():
    """"Партия считается законченной, если на поле остались представители только одного
    Братства или если противник сдается (его Братство полностью убирается с поля)." — "The
    game is over when only one Brotherhood is left on the field or when the opponent
    surrenders (his Brotherhood is removed from the field entirely)." The rulebook puts no
    moment on it: surrender is offered after some actions of the turn too."""
    g = build(2, {"q0r0": "Kr", "q1r0": "Eb", "q3r0": "Db"}, active=1)
    move(g, "q3r0", "q2r0")
    assert "surrender" in actions(g)
    attack(g, "q1r0", "q0r0")
    assert actions(g)[-1] == "surrender"
    g.apply("action surrender")
    assert g.over and winners(g) == [0] and board(g) == {"q0r0": "Kr"}


def test_surrender_with_three_or_four_players_puts_that_player_out():
    """With 3 or 4 players the winner is "Тот игрок, чьи воины остались последними на поле"
    ("the player whose warriors remained on the field last"): the one who surrenders in
    the middle of a turn is out at once (their turns pass, they lose), the others fight on
    until one is left; with allies the partner fights on for the team ("Побеждает группа
    союзников, чьи фишки остались на игровом поле")."""
    g = build(3, {"q0r0": "Kr", "q1r0": "Eb", "q-3r0": "Eg"}, active=1)
    move(g, "q1r0", "q2r-1")
    g.apply("action surrender")                                  # after an action
    assert not g.over and board(g) == {"q0r0": "Kr", "q-3r0": "Eg"}
    assert g.active_player == 2 and log(g)[-1] == "Player 2 surrenders; their Brotherhood leaves the field"
    end_turn(g)
    end_turn(g)
    assert g.active_player == 2 and "Player 2 has no warriors left" in log(g)     # skipped
    g.apply("action surrender")
    assert g.over and winners(g) == [0] and g.result["outcomes"] == ["win", "loss", "loss"]
    g = build(4, {"q0r0": "Kr", "q1r0": "Eb", "q3r0": "Eg", "q-3r0": "Ey"}, variants=("allies",))
    move(g, "q0r0", "q-1r0")
    g.apply("action surrender")                                  # red gives up; blue fights on
    assert not g.over and g.active_player == 1
    g.apply("action surrender")                                  # now the whole team is out
    assert g.over and winners(g) == [2, 3]


def test_mutual_destruction_is_a_draw():
    # the Surron kills the last enemy warrior and dies of its own double strike
    g = build(2, {"q0r0": "Sr", "q1r0": "Eb", "q-1r0": "Kb"}, wounds={"q0r0": 1, "q1r0": 1, "q-1r0": 1})
    attack(g, "q0r0", "q-1r0", "q1r0")
    assert board(g) == {}
    assert g.over and winners(g) == [] and g.result["outcomes"] == ["draw", "draw"]
    assert g.result["draw"] is True and g.result["ranking"] == [[0, 1]]
    # with 3 players, the one eliminated before does not share it
    g = build(3, {"q0r0": "Sr", "q1r0": "Eb", "q-1r0": "Kb"}, wounds={"q0r0": 1, "q1r0": 1, "q-1r0": 1})
    attack(g, "q0r0", "q-1r0", "q1r0")
    assert g.over and g.result["outcomes"] == ["draw", "draw", "loss"]
    assert g.result["scores"] == [1, 1, 0] and g.result["ranks"] == [1, 1, 3]


def test_the_rulebook_has_no_round_limit():
    """"Партия считается законченной, если на поле остались представители только одного
    Братства или если противник сдается" — "The game is over when only one Brotherhood is
    left on the field or when the opponent surrenders": no limit of rounds (the 40 rounds
    are the variant round_limit, off by default)."""
    g = build(3, {"q0r0": "Kr", "q3r0": "Eb", "q-3r0": "Eg"})
    g = g.program.resume({**g.state, "turn": 40 * 3 - 3})  # round 40 begins
    for _ in range(3 * 3):                                       # rounds 40, 41, 42
        end_turn(g)
    assert not g.over and g.active_player == 0
    assert board(g) == {"q0r0": "Kr", "q3r0": "Eb", "q-3r0": "Eg"}
    # `meeple test` is told so: a game may go on for ever (stopped after 1,000 turns);
    # the variant's bound must hold
    assert prog_for(3).bound == (1000, "turns") and prog_for(3).checked.endless
    assert prog_for(3, ("round_limit",)).bound == (160, "turns")
    assert not prog_for(3, ("round_limit",)).checked.endless


def test_variant_round_limit_ends_the_game_in_a_draw_after_forty_rounds():
    g = build(3, {"q0r0": "Kr", "q3r0": "Eb", "q-3r0": "Eg"}, variants=("round_limit",))
    g = g.program.resume({**g.state, "turn": 40 * 3 - 3})  # round 40 begins
    end_turn(g)
    assert not g.over and g.active_player == 1
    end_turn(g)
    assert not g.over and g.active_player == 2                   # the last turn of round 40
    end_turn(g)
    assert g.over and g.result["scores"] == [1, 1, 1]
    assert g.result["outcomes"] == ["draw"] * 3 and winners(g) == [] and g.result["draw"] is True
    g = build(3, {"q0r0": "Kr", "q3r0": "Eb"}, variants=("round_limit",))   # green is out already
    g = g.program.resume({**g.state, "turn": 40 * 3 - 1})
    end_turn(g)
    assert g.result["outcomes"] == ["draw", "draw", "loss"] and winners(g) == []


# ---------------------------------------------------------------- allies

def test_allies_side_by_side_teams_share_the_win():
    field = {"q0r0": "Kr", "q1r0": "Eb", "q0r1": "Eg", "q-5r5": "Ly"}
    g = build(4, field, wounds={"q0r1": 1}, variants=("allies",))
    # seats 1 and 2 are allies: the Kveblir may strike the green Ekvil only
    assert targets(g, "q0r0") == {"q0r1"}
    attack(g, "q0r0", "q0r1")
    assert not g.over                                            # yellow is still there
    g = build(4, {"q0r0": "Kr", "q1r0": "Eb", "q0r1": "Eg"}, wounds={"q0r1": 1},
              variants=("allies",))
    attack(g, "q0r0", "q0r1")
    assert g.over and winners(g) == [0, 1]                       # the whole team wins


def test_allies_crosswise_teams():
    g = build(4, {"q0r0": "Kr", "q1r0": "Eb", "q0r1": "Eg", "q-1r0": "Ey"},
              variants=("allies_crosswise",))
    # seats 1 and 3 (red, green) against seats 2 and 4 (blue, yellow)
    assert targets(g, "q0r0") == {"q1r0", "q-1r0"}
    g = build(4, {"q0r0": "Kr", "q1r0": "Eb", "q0r1": "Eg"}, wounds={"q1r0": 1},
              variants=("allies_crosswise",))
    attack(g, "q0r0", "q1r0")
    assert g.over and winners(g) == [0, 2]


def test_an_eliminated_ally_leaves_the_team_fighting_and_winning():
    g = build(4, {"q0r0": "Kr", "q1r0": "Eg", "q3r0": "Ey"}, wounds={"q1r0": 1},
              variants=("allies",))                              # blue is out already
    attack(g, "q0r0", "q1r0")
    assert not g.over
    end_turn(g)
    assert g.active_player == 3                                  # blue and green skipped
    g.apply("action surrender")
    assert g.over and winners(g) == [0, 1]


def test_allies_need_four_players():
    g = build(2, {"q0r0": "Kr", "q1r0": "Eb"}, variants=("allies",))
    assert targets(g, "q0r0") == {"q1r0"}
    g = build(3, {"q0r0": "Kr", "q1r0": "Eb", "q-1r0": "Eg"}, variants=("allies_crosswise",))
    assert targets(g, "q0r0") == {"q1r0", "q-1r0"}


def test_allies_are_announced_at_the_start():
    g = ruleset(("allies",)).new_game(4, seed=1)
    for _ in range(4 * 27):
        g.apply(0)
    assert "Allies: Player 1 and Player 2 against Player 3 and Player 4" in log(g)
    g = ruleset(("allies_crosswise",), "ru").new_game(4, seed=1)
    for _ in range(4 * 27):
        g.apply(0)
    assert "Союзники: Игрок 1 и Игрок 3 против Игрок 2 и Игрок 4 (крест-накрест)" in log(g)


# ---------------------------------------------------------------- capture the flag

def test_the_flag_goes_on_a_warrior_in_secret_before_the_reveal():
    g = ruleset(("capture_the_flag",)).new_game(2, seed=2)
    setup_until(g, "flag")
    p = g.active_player
    assert p == g.state["vars"]["starter"]
    # the options name the player's own warriors (they know them), the others see nothing
    notes = options(g, "flag")
    assert len(notes) == 9 and all(n.split("-")[1].startswith("red" if p == 0 else "blue")
                                   for n in notes)
    assert "options" not in view(g, 1 - p)["pending"]
    g.apply(f"flag {notes[0]}")
    bearer = [i for i, b in enumerate(g.state["ivars"]["banner"]) if b == "bearer"]
    assert len(bearer) == 1 and g.state["facing"][bearer[0]] == 1 << p   # still face down
    other = view(g, 1 - p)
    assert str(bearer[0]) not in other["ivars"]["banner"]
    assert view(g, p)["ivars"]["banner"][str(bearer[0])] == "bearer"
    assert other["log"][-1] == f"Player {p + 1} puts the flag on a piece"
    g.apply(0)
    # both flags placed: the reveal shows them to everyone
    assert g.decision.verb == "action"
    assert sum(b == "bearer" for b in view(g, 1 - p)["ivars"]["banner"].values()) == 2


def test_the_flag_bearer_attacks_but_neither_moves_nor_takes_the_shield():
    g = build(2, {"q0r0": "Dr", "q-1r0": "Er", "q1r0": "Eb"}, bearers=["q0r0"],
              variants=("capture_the_flag",))
    assert targets(g, "q0r0") == {"q1r0"}
    g2 = g.copy()
    g2.apply("action move")
    assert options(g2, "warrior") == ["q-1r0"]
    g2 = g.copy()
    g2.apply("action shield")
    assert options(g2, "warrior") == ["q-1r0"]
    # in the base game the same warrior could
    g = build(2, {"q0r0": "Dr", "q-1r0": "Er", "q1r0": "Eb"}, bearers=["q0r0"])
    g.apply("action move")
    assert "q0r0" in options(g, "warrior")


def test_the_flag_stays_where_its_bearer_fell():
    g = build(2, {"q0r0": "Lr", "q2r0": "Db", "q3r-1": "Eb", "q-3r0": "Er"}, wounds={"q2r0": 2},
              bearers=["q2r0"], variants=("capture_the_flag",))
    attack(g, "q0r0", "q2r0")                                    # shot from two hexes away
    assert at(g, "q2r0") == "Fb" and not g.over                  # no red warrior next to it
    assert [code(g.program, i) for i in testing.at(g, "fallen:1")] == ["Db"]
    assert log(g, 1)[-1] == "Player 2's flag stays on q2r0"
    end_turn(g)
    # the flag blocks its hex (its own side's Ekvil stands next to it, without effect)
    assert "q2r0" not in destinations(g, "q3r-1")
    g.apply("action move")
    assert options(g, "warrior") == ["q3r-1"]                   # the flag is no warrior
    g.apply("warrior q3r-1")
    g.apply("to q3r-2")
    end_turn(g)
    # it cannot be attacked: the Linda has nothing to shoot at
    assert "attack" not in actions(g) and at(g, "q2r0") == "Fb"


def test_destroying_the_bearer_and_standing_next_to_the_flag_wins():
    g = build(2, {"q0r0": "Kr", "q1r0": "Eb", "q-3r3": "Db"}, wounds={"q1r0": 1},
              bearers=["q1r0"], variants=("capture_the_flag",))
    attack(g, "q0r0", "q1r0")
    assert at(g, "q1r0") == "Fb"
    assert g.over and winners(g) == [0]                          # blue still has a warrior


def test_after_a_shot_another_warrior_must_step_next_to_the_flag():
    # "если воин противника с флагом уничтожен, но воин игрока тоже уничтожен, то для
    # победы надо встать возле вражеского флага другим воином"
    g = build(2, {"q0r0": "Lr", "q2r0": "Db", "q-1r0": "Er", "q-3r3": "Eb"},
              wounds={"q2r0": 2}, bearers=["q2r0"], variants=("capture_the_flag",))
    attack(g, "q0r0", "q2r0")
    assert not g.over
    move(g, "q-1r0", "q-1r1")                                    # not next to it yet
    assert not g.over
    end_turn(g)
    end_turn(g)
    move(g, "q0r0", "q1r0")                                      # next to the flag
    assert g.over and winners(g) == [0]


def test_a_surron_dying_with_the_bearer_does_not_capture():
    g = build(2, {"q0r0": "Sr", "q1r0": "Db", "q-1r0": "Kb", "q-3r3": "Er"},
              wounds={"q0r0": 1, "q1r0": 2}, bearers=["q1r0"], variants=("capture_the_flag",))
    attack(g, "q0r0", "q-1r0", "q1r0")
    assert at(g, "q0r0") is None and at(g, "q1r0") == "Fb"
    assert not g.over


def test_the_own_flag_is_never_captured_by_its_team():
    g = build(4, {"q0r0": "Kr", "q1r0": "Fb", "q3r0": "Eg", "q-3r0": "Ey"},
              variants=("allies", "capture_the_flag"))
    move(g, "q0r0", "q0r1")                                      # still next to it: an ally's
    assert not g.over
    g = build(4, {"q0r0": "Kr", "q1r0": "Fg", "q3r0": "Eg", "q-3r0": "Ey"},
              variants=("allies", "capture_the_flag"))
    move(g, "q0r0", "q0r1")                                      # next to an enemy flag
    assert g.over and winners(g) == [0, 1]


def test_only_the_player_who_acts_captures_a_flag():
    # "когда воин игрока уничтожает воина противника с флагом, и при этом остается стоять
    # возле фишки флага, то игрок объявляется победителем": the player whose warrior
    # destroyed the bearer wins; the others must stand next to the flag on their own turn.
    g = build(3, {"q0r0": "Lr", "q2r0": "Db", "q3r-1": "Eg", "q-3r3": "Eb"}, wounds={"q2r0": 2},
              bearers=["q2r0"], variants=("capture_the_flag",))
    # the red Linda shoots the bearer from afar; only the green Ekvil stands next to the
    # flag: nobody captures it yet (a third party does not win on red's action)
    attack(g, "q0r0", "q2r0")
    assert not g.over and at(g, "q2r0") == "Fb"
    end_turn(g)
    assert g.active_player == 1                                  # blue
    end_turn(g)
    assert g.active_player == 2 and not g.over                   # green's turn: one action
    move(g, "q3r-1", "q3r0")                                     # still next to the flag
    assert g.over and winners(g) == [2]
    g = build(3, {"q1r0": "Er", "q2r0": "Db", "q3r-1": "Eg", "q-3r3": "Eb"}, wounds={"q2r0": 1},
              bearers=["q2r0"], variants=("capture_the_flag",))
    attack(g, "q1r0", "q2r0")                                    # red and green: red acts
    assert g.over and winners(g) == [0]


def test_surrender_takes_the_flag_off_the_field():
    g = build(3, {"q0r0": "Kr", "q2r0": "Fb", "q-3r0": "Eb", "q3r0": "Eg"}, active=1,
              variants=("capture_the_flag",))
    g.apply("action surrender")
    assert board(g) == {"q0r0": "Kr", "q3r0": "Eg"}
    assert not g.over


# ---------------------------------------------------------------- variants and locales

def test_every_variant_alone_and_all_together_play_for_every_player_count():
    combos = [(v,) for v in VARIANTS] + [tuple(VARIANTS), ("allies", "capture_the_flag")]
    for combo in combos:
        for players in (2, 3, 4):
            g = ruleset(combo).new_game(players, seed=7)
            for _ in range(players * 30):
                if g.over:
                    break
                g.apply(0)
            assert g.decision is not None or g.over


def test_russian_words():
    g = build(2, {"q0r0": "Er", "q1r0": "Db"}, locale="ru")
    assert g.program.title == "Братство девяти: Гексостратегия"
    attack(g, "q0r0", "q1r0")
    assert log(g, 1)[-1] == "Игрок 1: Эквил q0r0 ранит фишку Дрантул q1r0 (Игрок 2): ранений 2 из 3"
    from meeple.interpreter.play import display
    v = view(g, 0)
    names = [display.name(g.program, f"Type.{t}") for t in TYPES.values()]
    assert names == ["Квеблир", "Линда", "Суррон", "Дрантул", "Эквил", "флаг"]
    assert display.name(g.program, "Action.shield") == "защита (щит)"
    assert display.item_label(g.program, piece(g, "q1r0"), False, v["ivars"]) == \
        "Дрантул (синий), ранений: 2"
    assert display.item_label(g.program, piece(g, "q1r0"), True, v["ivars"]) == "Дс2"
    assert display.text(g.program, "action", "") == "Выберите действие"
    # the moves are written the same way in every language
    en = build(2, {"q0r0": "Er", "q1r0": "Db"})
    attack(en, "q0r0", "q1r0")
    assert testing.notations(g) == testing.notations(en)


def test_english_locale_is_the_base_words():
    en = prog_for(2, (), "en")
    base = prog_for(2)
    assert en.checked.names == {**base.checked.names, **en.checked.names}
    assert en.checked.labels == base.checked.labels


def test_the_map_shows_type_owner_wounds_shield_and_flag():
    from meeple.cli import render
    g = build(2, {"q0r0": "Dr", "q1r0": "Eb", "q-1r0": "Fb"}, wounds={"q0r0": 2},
              shielded=["q0r0"], bearers=["q1r0"], variants=("capture_the_flag",))
    lines = [t.plain for t in render.board_lines(g.program, view(g, 1), "field")]
    middle = lines[6].split()
    assert middle == ["·", "·", "Fb0", "Dr2s", "Eb0f", "·", "·"]
    assert lines[7].split()[:4] == ["q-3r0", "q-2r0", "q-1r0", "q0r0"]
    # the whole board of 4 players fits in 80 columns
    g = build(4, {"q0r0": "Dr"})
    lines = [t.plain for t in render.board_lines(g.program, view(g, 0), "field", width=80)]
    assert len(lines) == 22 and max(len(x) for x in lines) <= 80


def test_the_options_are_shown_with_wounds_and_where_a_warrior_stands():
    from meeple.cli import render
    g = ruleset(("capture_the_flag",)).new_game(2, seed=2)
    setup_until(g, "flag")
    p = g.active_player
    moves = g.legal_moves()
    text = render.describe_move(g, moves[0], "item", p)[1].plain
    where = [z.cell.name for z in g.program.zones if z.board == "field"
             and g.state["zones"][z.id] == [moves[0].value]]
    assert text.endswith(f", wounds 0 ({where[0]})")          # the flag goes on the warrior there
    # the others read neither the warrior nor the notation
    notation, text = render.describe_move(g, moves[0], "item", 1 - p)
    assert notation == "flag" and text.plain == "a piece"
