"""Variants and locales laid over a base ruleset, observed in the compiled program and
in games played from it."""
from __future__ import annotations

from pathlib import Path

import pytest
from meeple.dsl.load import bundled_names
from meeple.interpreter.play import display, views

from meeple import interpreter

BASE = """ruleset mini
title "Mini"
players 2..4
order clockwise
kind Card { v: int }
zone pile: Card hidden
zone hand: Card per player
zone table: Card
deck cards into pile { Card(v: i) for i in 1..20 }
var rounds: int = 0
function hand_size(): int = 2
function bonus(p: player): int = 0
procedure start() { active = players[0] }
setup {
  for i in 1..hand_size() { deal 1 from pile to hand }
  call start()
}
turn {
  choose c from items(hand(active)) as "play"
  move c to table
  log played "{active} plays {c}"
}
end when all(empty(hand(p)) for p in players)
score(p) = bonus(p)
tiebreak seat_no(p) = seat(p)
name hand "hand"
name Card "card"
"""

VARIANTS = {
    "bigger": """variant bigger
title "Bigger hands"
replace function hand_size(): int = 3
""",
    "huge": """variant huge
title "Huge hands"
replace function hand_size(): int = 4
""",
    "bonus": """variant bonus
zone reserve: Card public
extend setup { move top(pile) to reserve }
replace function bonus(p: player): int = size(reserve) * 10 + seat(p)
""",
    "late_start": """variant late_start
extend procedure start { active = players[player_count() - 1] }
""",
    "rounds": """variant rounds
extend turn { rounds = rounds + 1 }
extend at end { rounds = rounds * 100 }
""",
    "plain": """variant plain
remove tiebreak seat_no
remove var rounds
""",
    "after_bonus": """variant after_bonus
replace zone reserve: Card hidden
extend setup { move top(pile) to reserve }
""",
}

LOCALES = {
    "de": """locale de
language "Deutsch"
title "Mini (deutsch)"
name hand "Handkarten"
name Card "Karte"
text player "Spieler {n}"
text played "{active} spielt {c}"
text play "Wähle eine Karte"
""",
    "nl": """locale nl
language "Nederlands"
name hand "handkaarten"
replace order counterclockwise
replace procedure start() { choose first from players by players[0] as "start"  active = first }
""",
}


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("rulesets") / "mini"
    (root / "variants").mkdir(parents=True)
    (root / "locales").mkdir()
    (root / "mini.meeple").write_text(BASE, encoding="utf-8")
    for n, text in VARIANTS.items():
        (root / "variants" / f"{n}.meeple").write_text(text, encoding="utf-8")
    for n, text in LOCALES.items():
        (root / "locales" / f"{n}.meeple").write_text(text, encoding="utf-8")
    return root


def load(root, *variants, locale=None):
    return interpreter.load(str(root), variants=list(variants), locale=locale)


def hand_sizes(game) -> list[int]:
    state = game.state
    base = game.program.zone_index["hand"]
    return [len(state["zones"][base + p]) for p in range(game.players)]


def deciders(game, n: int) -> list[int]:
    """Who decides in each of the next n moves (always playing the first move)."""
    out = []
    while not game.over and len(out) < n:
        out.append(game.active_player)
        game.apply(0)
    return out


# ---------------------------------------------------------------- variants

def test_base_ruleset(root):
    prog = load(root)
    game = prog.new_game(3)
    assert hand_sizes(game) == [2, 2, 2]
    assert prog.title == "Mini" and prog.variants == [] and prog.locale is None
    assert "reserve" not in prog.zone_index


def test_replaced_function_changes_the_game(root):
    game = load(root, "bigger").new_game(3)
    assert hand_sizes(game) == [3, 3, 3]


def test_variant_adds_a_zone_and_extends_setup_after_the_base_setup(root):
    prog = load(root, "bonus")
    assert prog.zone_index["reserve"] is not None
    game = prog.new_game(2)
    reserve = game.state["zones"][prog.zone_index["reserve"]]
    assert len(reserve) == 1
    # the base setup dealt first (from the top of the pile), then the extension ran
    dealt = sorted(i for p in range(2) for i in game.state["zones"][prog.zone_index["hand"] + p])
    assert dealt == [16, 17, 18, 19] and reserve == [15]
    while not game.over:
        game.apply(0)
    assert game.result["scores"] == [11, 12]      # the replaced bonus function


def test_extend_procedure_appends_to_its_body(root):
    assert deciders(load(root).new_game(3), 3) == [0, 1, 2]
    assert deciders(load(root, "late_start").new_game(3), 3) == [2, 0, 1]


def test_extend_turn_and_extend_at_end_without_a_base_at_end(root):
    prog = load(root, "rounds")
    assert "at end" in prog.procs and "at end" not in load(root).procs
    game = prog.new_game(2)
    while not game.over:
        game.apply(0)
    assert game.state["vars"]["rounds"] == 4 * 100          # 4 turns, then at end


def test_remove_declarations(root):
    base, plain = load(root), load(root, "plain")
    assert [n for n, _ in base.tiebreaks] == ["seat_no"] and plain.tiebreaks == []
    assert "rounds" in base.var_inits and "rounds" not in plain.var_inits
    game = plain.new_game(2)
    while not game.over:
        game.apply(0)
    assert game.result["tiebreaks"] == {} and game.result["ranking"] == [[0, 1]]  # a tie:
    assert game.result["outcomes"] == ["draw", "draw"] and game.result["winners"] == []  # a draw


def test_several_variants_apply_in_the_given_order(root):
    assert hand_sizes(load(root, "bigger", "huge").new_game(2)) == [4, 4]
    assert hand_sizes(load(root, "huge", "bigger").new_game(2)) == [3, 3]
    prog = load(root, "bonus", "late_start", "rounds", "bigger")
    assert prog.variants == ["bonus", "late_start", "rounds", "bigger"]
    game = prog.new_game(3)
    assert hand_sizes(game) == [3, 3, 3]
    assert len(game.state["zones"][prog.zone_index["reserve"]]) == 1
    assert game.active_player == 2


def test_a_variant_may_build_on_an_earlier_one(root):
    prog = load(root, "bonus", "after_bonus")
    assert len(prog.new_game(2).state["zones"][prog.zone_index["reserve"]]) == 2
    assert prog.checked.zones["reserve"].visibility == "hidden"
    with pytest.raises(interpreter.MeepleError) as e:   # in the other order, 'reserve' is not there yet
        load(root, "after_bonus", "bonus")
    assert [(d.code, d.message) for d in e.value.diagnostics] == [
        ("overlay/conflict", "'replace' of zone reserve, which the ruleset does not declare")]


def test_variant_titles_do_not_rename_the_game(root):
    prog = load(root, "bigger", "bonus")
    assert prog.title == "Mini"
    assert prog.checked.variant_titles == {"bigger": "Bigger hands", "bonus": "bonus"}


# ---------------------------------------------------------------- locales

def test_locale_renames_silently_and_sets_title_and_language(root):
    prog = load(root, locale="de")
    assert prog.locale == "de" and prog.checked.language == "Deutsch"
    assert prog.title == "Mini (deutsch)"
    assert display.name(prog, "hand") == "Handkarten"
    assert display.name(load(root), "hand") == "hand"
    assert display.player_name(prog, 1) == "Spieler 2"
    assert display.text(prog, "play", "play") == "Wähle eine Karte"


def test_locale_texts_render_log_messages(root):
    base, de = load(root), load(root, locale="de")
    logs = {}
    for name, prog in (("base", base), ("de", de)):
        game = prog.new_game(2)
        m = game.apply(0)
        logs[name] = views.view(game, 1)["log"]
        card = prog.items[m.value].attrs["v"]
    assert logs["base"] == [f"Player 1 plays card {card}"]
    assert logs["de"] == [f"Spieler 1 spielt Karte {card}"]


def test_locale_does_not_change_notation(root):
    a, b = load(root).new_game(2, seed=4), load(root, locale="de").new_game(2, seed=4)
    assert [m.notation for m in a.legal_moves()] == [m.notation for m in b.legal_moves()]
    assert a.to_json().replace('"locale":"de"', '"locale":null') == \
        b.to_json().replace('"locale":"de"', '"locale":null')


def test_locale_rule_patches_turn_order_and_start_player(root):
    base, nl = load(root), load(root, locale="nl")
    assert (base.direction, nl.direction) == (1, -1)
    game = nl.new_game(3)
    assert [m.notation for m in game.legal_moves()] == ["start p1", "start p2", "start p3"]
    assert game.active_player == 0
    game.apply("start p2")
    assert deciders(game, 6) == [1, 0, 2, 1, 0, 2]          # to the right: counterclockwise
    assert deciders(base.new_game(3), 6) == [0, 1, 2, 0, 1, 2]


def test_locale_is_applied_after_the_variants(root):
    prog = load(root, "bigger", "late_start", locale="nl")
    game = prog.new_game(4)
    assert hand_sizes(game) == [3, 3, 3, 3]
    # the locale's 'replace procedure start' comes last: late_start's extension is gone
    game.apply("start p2")
    assert deciders(game, 4) == [1, 0, 3, 2]


def test_counterclockwise_deal_goes_round_to_the_right(root):
    game = load(root, locale="nl").new_game(3)
    hand = game.program.zone_index["hand"]
    # active is 0 at the deal; cards go 0, 2, 1 from the top of the pile (19, 18, 17...)
    assert [game.state["zones"][hand + p] for p in range(3)] == [[19, 16], [17, 14], [18, 15]]


# ---------------------------------------------------------------- bundled rulesets

def test_bundled_rulesets_with_every_overlay_compile():
    for name in bundled_names():
        from meeple.dsl.load import read_sources, resolve_path
        src = read_sources(resolve_path(name))
        for v in src.variants:
            assert load(name, v).variants == [v]
        for loc in src.locales:
            assert load(name, locale=loc).locale == loc


@pytest.mark.skipif("cherokee" not in bundled_names(), reason="Cherokee is not bundled")
def test_cherokee_overlays():
    base, nl, open_clans = load("cherokee"), load("cherokee", locale="nl"), load("cherokee", "open_clans")
    assert (base.direction, nl.direction) == (1, -1)
    assert [m.notation for m in nl.new_game(3).legal_moves()] == ["start p1", "start p2", "start p3"]
    game = open_clans.new_game(3, seed=2)
    assert len(game.state["zones"][open_clans.zone_index["neutral"]]) == 2
    # open clans: everyone sees every clan card
    v = views.view(game, 0)
    assert all(isinstance(v["zones"][f"clan:{p}"], list) for p in range(3))
    v = views.view(base.new_game(3, seed=2), 0)
    assert isinstance(v["zones"]["clan:0"], list) and v["zones"]["clan:1"] == {"count": 1}


def test_a_locale_may_translate_the_second_verb_of_a_variants_decision(tmp_path):
    """A locale's text for a verb only a variant uses is no unused text, the second verb
    of `as "claim" or "play"` included."""
    folder = tmp_path / "claims"
    (folder / "variants").mkdir(parents=True)
    (folder / "locales").mkdir()
    (folder / "claims.meeple").write_text(
        'ruleset claims\nplayers 2..2\nvar done: bool = false\nturn { done = true }\n'
        'end when done\n', encoding="utf-8")
    (folder / "variants" / "ask.meeple").write_text(
        'variant ask\nreplace turn {\n  choose c from ["draw"] as "claim" or "play"\n'
        '  done = true\n}\n', encoding="utf-8")
    (folder / "locales" / "de.meeple").write_text(
        'locale de\nlanguage "Deutsch"\ntext claim "Remis?"\ntext play "Weiter"\n',
        encoding="utf-8")
    rs = interpreter.load(str(folder), locale="de")
    assert [w.code for w in rs.for_players(2).warnings] == []
    game = interpreter.load(str(folder), variants=["ask"], locale="de").new_game(2, 0)
    assert [m.notation for m in game.legal_moves()] == ["play", "claim draw"]
