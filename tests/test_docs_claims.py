"""What docs/language.md claims of the language, each claim tried (the examples
themselves: tests/test_docs.py)."""
from __future__ import annotations

import itertools
import json
import re

import pytest
from docs_support import (
    ALL_BLOCKS,
    CARDS,
    CLAIM,
    DOC_TEXT,
    ERRORS,
    EXAMPLES,
    FLAT_DOC,
    FRAGMENTS,
    OVERLAYS,
    ROOT,
    RULESETS,
    _load,
    _load_error,
    _program,
    _run,
    _sources,
    compile_block,
    compile_fragment,
    play_randomly,
)
from meeple.dsl import errors
from meeple.dsl.load import SourceSet, read_sources, resolve_path
from meeple.dsl.parse import parse
from meeple.interpreter.analysis import invariants, leaks, testing
from meeple.interpreter.analysis.invariants import Config, Failure, play_and_check
from meeple.interpreter.play import display, runtime, views
from meeple.interpreter.play.helpers import RuleError

from meeple import interpreter


def test_variables_are_public_but_hidden_items_are_not():
    game = _run(CARDS + "var mine: Card = none\nvar k: int per player = 3\nvar done: bool = false\n"
                "turn { move top(pile) to other\n mine = top(other)\n done = true }\nend when done")
    theirs = views.view(game, 1)
    assert theirs["pvars"]["k"] == [3, 3] and theirs["vars"]["done"] is True
    assert theirs["vars"]["mine"] != game.state["vars"]["mine"]  # the item in a hidden zone is masked
    assert views.view(game, "all")["vars"]["mine"] == game.state["vars"]["mine"]


# ---------------------------------------------------------------- scopes, none, zone, order, texts

def test_block_scoping():
    block = next(b for b in FRAGMENTS if "let doubled" in b.text)
    prog, _ = compile_fragment(block.text, "scope.meeple")
    assert prog.new_game(2, 0).state["pvars"]["points"][0] == 36
    # a local is known in its block and the blocks nested in it, not after
    for stmts in ["if true { let x = 1 }\n n = x",
                  "for i in 1..3 { n = i }\n n = i",
                  "while n < 3 max 5 { let y = 1\n n = n + y }\n n = y",
                  "if false { n = 1 } elif true { let z = 2 } else { n = 3 }\n n = z",
                  "if true { choose c from [1, 2] }\n n = c",
                  "if true { best b in [1, 2] by b }\n n = b",
                  "if true { pick r at random from [1] }\n n = r",
                  "if true { choose s subset of [1, 2] }\n n = size(s)",
                  "if true { if true { let w = 1 }\n n = w }"]:
        d = _load_error(CLAIM + "var n: int = 0\nturn { " + stmts + " }\nend when n > 0")
        assert d.code == "check/unknown-name", stmts
    # nested blocks see the outer locals; assignment to an outer local persists; a
    # 'let' or 'for' of an outer local's name sets that local
    game = _run("var n: int = 0\nturn { let x = 1\n if true { if true { x = x + 4 } }\n"
                " for i in 1..2 { x = x + i }\n n = x }\nend when n > 0")
    assert game.state["vars"]["n"] == 8
    game = _run("var n: int = 0\nturn { let x = 1\n if true { let x = 5 }\n n = x }\nend when n > 0")
    assert game.state["vars"]["n"] == 5
    game = _run("var n: int = 0\nturn { let i = 10\n for i in 1..3 { n = n + i }\n n = n * 100 + i }\n"
                "end when n > 0")
    assert game.state["vars"]["n"] == 603
    # sibling blocks may use one name for locals of different types
    game = _run("enum C { a, b }\nvar n: int = 0\nvar m: C = a\n"
                "turn { if true { let x = 1\n n = x }\n for x in C { m = x } }\nend when n > 0")
    assert (game.state["vars"]["n"], game.state["vars"]["m"]) == (1, "b")


def test_anything_compares_with_none():
    game = _run("var ok: list of bool = []\n"
                "turn { ok = [last([1]) != none, first([x for x in [1] if x > 1]) == none,\n"
                " none == first([\"a\"]), last([true]) == none, 3 != none] }\nend when size(ok) > 0")
    assert game.state["vars"]["ok"] == [True, True, False, False, True]


def test_the_zone_types():
    block = RULESETS["zone_demo"]
    game = compile_block(block).new_game(2, 0)
    assert game.over
    values = {k: [game.program.items[i].attrs["value"] for i in testing.at(game, k)]
              for k in ("hand:0", "hand:1", "discard", "pile")}
    assert values == {"hand:0": [6, 4], "hand:1": [5, 3], "discard": [2, 1], "pile": []}
    demo = block.text
    # 'zone of Card' accepts zones, per-player zones and cells that hold cards; the items
    # taken from it are cards: they can be moved and their attributes read
    game = _run(CARDS + "board b: line(length: 2) holds Card\nvar done: bool = false\nvar seen: int = 0\n"
                "procedure give(src: zone of Card, dst: zone of Card) { seen = seen + top(src).value\n"
                " move top(src) to dst }\n"
                "turn { call give(pile, hand(active))\n call give(pile, cells(b)[0])\n"
                " call give(cells(b)[0], other)\n done = true }\nend when done")
    assert [len(testing.at(game, k)) for k in ("pile", "hand:0", "b:s1", "other")] == [2, 1, 0, 1]
    assert game.state["vars"]["seen"] == 4 + 3 + 3
    # ... and no place of another kind
    d = _load_error(demo + "\nkind Pawn { n: int }\nzone bag: Pawn\nsetup { call take(bag, discard) }\n")
    assert d.code == "check/type-mismatch" and "expected zone of Card, found zone of Pawn" in d.message
    # the plain 'zone' accepts any place, to count and inspect, shuffle and reveal
    game = _run(CARDS + "kind Pawn { n: int }\nzone bag: Pawn\ndeck pawns into bag { Pawn(n: 1) }\n"
                "board b: line(length: 2) holds Card\nvar ok: list of bool = []\n"
                "function look(z: zone): list of bool = [size(z) > 0, empty(z), occupied(z), top(z) == none,\n"
                " size(items(z)) == len(z), owner(z) == none]\n"
                "procedure mix(z: zone) { shuffle z\n reveal z }\n"
                "turn { call mix(pile)\n ok = look(bag) + look(cells(b)[0]) + [owner(hand(active)) == active] }\n"
                "end when size(ok) > 0")
    assert game.state["vars"]["ok"] == [True, False, True, False, True, True,
                              False, True, False, True, True, True, True]
    # moving into a plain 'zone' is an error, with a hint to write 'zone of Kind'
    block = next(b for b in ERRORS if "procedure put(z: zone)" in b.text)
    with pytest.raises(errors.MeepleError) as info:
        compile_fragment(block.text, "put.meeple")
    d = info.value.diagnostics[0]
    assert d.code == "check/type-mismatch" and "zone of Card" in d.message, d.message
    # the items of a plain 'zone' have an unknown kind
    d = _load_error(demo + "\nfunction v(z: zone): int = top(z).value\n")
    assert d.code == "check/unknown-attribute"
    d = _load_error(demo + "\nprocedure drop(z: zone) { move top(z) to discard }\n")
    assert d.code == "check/type-mismatch" and "'zone of Kind'" in d.message
    # from a plain 'zone' to another loads, as it did before 'zone of Kind' (issue 34): the
    # kinds are compared when it is played (test_the_plain_zone_messages_are_quoted)
    _load(demo + "\nprocedure drop(z: zone of Card) { move top(pile) to z }\n"
          "procedure pass(z: zone, y: zone) { move top(z) to y }\n")
    d = _load_error(demo + "\nfunction same(z: zone): bool = top(z) == top(pile)\n")
    assert d.code == "check/type-mismatch"
    d = _load_error(demo + "\nfunction n(z: zone of Crd): int = 1\n")
    assert d.code == "check/unknown-kind"


def test_option_order_and_equal_options():
    game = _run("enum Suit { spades, hearts, diamonds }\nvar done: bool = false\n"
                "var sorted: list of Suit = []\n"
                "turn { choose s from Suit as \"call\"\n"
                " choose t subset of [diamonds, spades, hearts] where size(t) <= 2 as \"pick\"\n"
                " choose n from [3, 1, 3, 2, 1] as \"n\"\n"
                " choose y from [hearts, spades, hearts] as \"y\"\n"
                " sorted = sort([diamonds, spades, hearts])\n done = true }\nend when done")
    assert testing.notations(game) == ["call spades", "call hearts", "call diamonds"]
    game.apply(0)
    assert testing.notations(game) == ["pick spades", "pick hearts", "pick diamonds",
                                       "pick spades+hearts", "pick diamonds+spades",
                                       "pick diamonds+hearts"]
    game.apply(0)
    assert testing.notations(game) == ["n 1", "n 2", "n 3"]
    game.apply(0)
    assert testing.notations(game) == ["y spades", "y hearts"]
    game.apply(0)
    assert game.state["vars"]["sorted"] == ["spades", "hearts", "diamonds"]


def test_booleans_are_written_with_the_yes_and_no_texts():
    body = ("kind Chip { lucky: bool }\nzone bag: Chip\ndeck chips into bag { Chip(lucky: b) for b in [true, false] }\n"
            "var done: bool = false\nlabel Chip \"chip {lucky}\"\n{texts}\n"
            "turn { log l \"{top(bag)} {done} {[true, false]}\"\n done = true }\nend when done")
    game = _run(body.replace("{texts}", ""))
    assert views.view(game, 0)["log"] == ["chip no no yes, no"]
    game = _run(body.replace("{texts}", "text yes \"ja\"\ntext no \"nein\""))
    assert views.view(game, 0)["log"] == ["chip nein nein ja, nein"]
    assert not game.program.warnings


def test_an_index_outside_its_list():
    for index, message in [("5", "an index is outside its list"),
                           ("k", "index 5 is outside a list of 2 elements"),
                           ("-1", "index -1 is outside a list of 2 elements")]:
        with pytest.raises(RuleError) as info:
            _run(f"var n: int = 0\nturn {{ let k = 5\n let xs = [1, 2]\n n = xs[{index}] }}\nend when n > 0")
        assert info.value.code == "rule/error"
        assert message in str(info.value) and "claim.meeple:7" in str(info.value), str(info.value)


def test_names_in_two_roles():
    for decls, line in [("zone x: Card\nvar x: int = 0", 10), ("enum E { a, pile }", 9),
                        ("function done(): bool = true", 9), ("board pile: line(length: 2) holds Card", 9)]:
        d = _load_error(CLAIM + CARDS + "var done: bool = false\n" + decls + "\nturn { done = true }\nend when done")
        assert (d.code, d.span.line) == ("check/duplicate", line), d.render()
    # an enum value may not be named like an enum, its own included; the messages name both roles
    for decls, message in [("enum C { red, C }", "'C' names both an enum and a value of enum C"),
                           ("enum C { red }\nenum D { C }", "'C' names both an enum and a value of enum D"),
                           ("enum E { a, pile }", "'pile' names both a zone and a value of enum E"),
                           ("var pile: int = 0", "'pile' names both a zone and a variable")]:
        d = _load_error(CLAIM + CARDS + decls + "\nturn { end game }")
        assert (d.code, d.message) == ("check/duplicate", message)
        assert message in FLAT_DOC or decls.startswith(("enum C { red }", "var"))
    block = next(b for b in ERRORS if "enum Shade" in b.text)
    with pytest.raises(errors.MeepleError) as info:
        compile_fragment(block.text, "shade.meeple")
    assert info.value.diagnostics[0].message == "'Shade' names both an enum and a value of enum Shade"
    # two enums may share a value name, written with its enum
    game = _run("enum A { x, y }\nenum B { x, z }\nvar done: bool = false\n"
                "turn { done = A.x == A.x and B.x != none }\nend when done")
    assert game.state["vars"]["done"] is True


def test_deck_and_relation_errors_point_at_their_declaration():
    d = _load_error(CLAIM + CARDS + "var k: int = 2\ndeck more into pile {\n  Card(value: 1)\n  Card(value: k)\n}\n"
                    "turn { end game }")
    assert (d.code, d.span.line, d.span.column) == ("check/deck-not-constant", 11, 3)
    d = _load_error(CLAIM + "kind Card { value: int }\nboard g: line(length: 3) holds Card\n"
                    "relation r(a: g, b: g) = a.pos < size(items(b))\nturn { end game }")
    assert (d.code, d.span.line) == ("check/relation-not-constant", 5)
    d = _load_error(CLAIM + "kind Card { value: int }\nboard g: line(length: 3) holds Card\n"
                    "relation r(a: g, b: g) = seat(active) == a.pos\nturn { end game }")
    assert (d.code, d.span.line) == ("check/relation-not-constant", 5)
    # constants, functions of constants, other relations and the number of players are fine
    _load(CLAIM + CARDS + "function f(): int = 3\ndeck more into pile { Card(value: f()) }\n"
          "deck seats into pile { Card(value: seat(p)) for p in players }\n"
          "board g: line(length: 3) holds Card\nrelation r(a: g, b: g) = a.pos < b.pos\nrelation s(a: g, b: g) = r(b, a)\n"
          "relation t(a: g, b: g) = a.pos < player_count() and b.pos == 1\n"
          "turn { end game }")


def test_boards_sized_by_the_number_of_players():
    rules = _program("board_demo")
    for n, field, table in [(2, 37, 24), (3, 91, 30), (4, 91, 36)]:
        prog = rules.for_players(n)
        assert (len(prog.boards["field"]), len(prog.boards["table"])) == (field, table)
        game = rules.new_game(n, 0)
        assert game.program is prog
        assert len(game.program.items) == n  # one stone per player
        centre = next(z.key for z in prog.zones if z.board == "field" and z.cell.coords["ring"] == 0)
        assert [prog.items[i].attrs["seat"] for i in testing.at(game, centre)] == [n]
    assert ("field has 37 cells (radius 3) and the table 2 × 12 = 24; with 3 players 91 and "
            "2 × 15 = 30; with 4 players 91 and 2 × 18 = 36") in FLAT_DOC


def test_a_board_size_is_checked_for_every_number_of_players():
    block = next(b for b in ERRORS if b.header == ("ruleset", "too_long"))
    with pytest.raises(errors.MeepleError) as info:
        compile_block(block)
    assert [d.code for d in info.value.diagnostics] == ["check/board-size"]
    d = info.value.diagnostics[0]
    assert d.message == "board 'track': length is 250 with 5 players; sizes are 1 to 200"
    assert f'the error says "{d.message}"' in FLAT_DOC
    assert (d.span.line, d.span.column) == (5, 19)  # at the argument
    # sizes are whole numbers; they may not read the game
    d = _load_error(CLAIM + "kind Card { value: int }\nboard g: grid(rows: 2, cols: true) holds Card\nturn { end game }")
    assert d.code == "check/type-mismatch" and d.message.startswith("the board size 'cols': expected int")
    block = next(b for b in ERRORS if b.comment("error") == "check/board-not-constant" and "size(draw)" in b.text)
    with pytest.raises(errors.MeepleError) as info:
        compile_fragment(block.text, "lane.meeple")
    d = info.value.diagnostics[0]
    assert "cannot use a zone" in d.message
    assert (d.span.line, d.span.column) == (2, block.text.splitlines()[1].index("length") + 1)
    d = _load_error(CLAIM + "kind Card { value: int }\nboard g: line(length: 12 / (player_count() - 1)) holds Card\n"
                    "turn { end game }")
    assert d.code == "check/board-not-constant" and "for 1 players" in d.message
    # a ruleset for more than 8 numbers of players: the others when a game starts
    rules = _load("ruleset claim\nplayers 1..12\nkind Card { value: int }\n"
                  "board g: line(length: if player_count() == 5 then 0 else 3) holds Card\nturn { end game }")
    rules.new_game(4)
    with pytest.raises(errors.MeepleError) as info:
        rules.new_game(5)
    assert info.value.diagnostics[0].code == "check/board-size"


def test_a_deck_that_depends_on_the_number_of_players():
    block = next(b for b in FRAGMENTS if "player_count() == 2 then 6 else 8" in b.text)
    rules, _ = compile_fragment(block.text, "deck.meeple")
    counts = {n: len(rules.for_players(n).items) - 3 for n in (2, 3, 4)}  # without the 3 pawns
    assert counts == {2: 18, 3: 24, 4: 24}
    assert "It makes 18 cards with 2 players and 24 with 3 or 4 players." in DOC_TEXT
    assert max(i.attrs["value"] for i in rules.for_players(2).items if i.kind == "Card") == 6
    assert max(i.attrs["value"] for i in rules.for_players(3).items if i.kind == "Card") == 8


def test_per_player_zones_and_the_ruleset_api():
    rules = _program("examples")
    assert isinstance(rules, interpreter.Ruleset) and rules.warnings == []
    for n in (2, 3, 4):
        prog = rules.for_players(n)
        assert isinstance(prog, interpreter.Program)
        assert [z.key for z in prog.zones if z.name == "hand"] == [f"hand:{p}" for p in range(n)]
        assert rules.for_players(n) is prog
    assert rules.zones is rules.for_players(2).zones  # the smallest number of players
    with pytest.raises(ValueError):
        rules.for_players(5)
    game = rules.new_game(3, 0)
    assert game.program is rules.for_players(3)
    again = rules.resume(game.state)
    assert again.program is game.program and again.to_json() == game.to_json()
    # testing.position takes the ruleset and uses the program for that number of players
    blue8 = testing.item(rules, colour="blue", value=8)
    pos = testing.position(rules, 4, zones={"hand:3": [blue8]}, active=3)
    assert pos.program is rules.for_players(4) and testing.at(pos, "hand:3")[-1] == blue8
    assert testing.notations(pos)[-1] == "play blue-8"


def _warnings(text: str) -> list[tuple[str, str | None]]:
    return [(w.code, w.hint) for w in _load(text).warnings]


def test_text_warnings():
    rules = (CLAIM + "var done: bool = false\nend when done\n"
             "turn { choose c from [1, 2] as \"take\"\n log says \"{active} says {c}\"\n done = true }\n")
    fine = ("text player \"P{n}\"\ntext hidden \"some {kind}\"\ntext yes \"ja\"\ntext no \"nee\"\n"
            "text take \"Take one\"\ntext says \"{active}: {c} {1} {2}\"\n")
    assert _warnings(rules + fine) == []
    assert _warnings(rules + "text tie \"Pick\"\n")[0][0] == "check/unused-text"  # no tie choose
    assert _warnings(rules.replace("done = true", "best b in [1] by 0\n done = true")
                     + "text tie \"Pick\"\n") == []
    assert _warnings(rules + "text sayz \"x\"\n") == [("check/unused-text", "did you mean 'says'?")]
    assert _warnings(rules + "text says \"{activ}\"\n") == [("check/unknown-placeholder",
                                                            "did you mean 'active'?")]
    assert _warnings(rules + "text says \"{3}\"\n")[0][0] == "check/unknown-placeholder"
    assert _warnings(rules + "text take \"{n}\"\n")[0][0] == "check/unknown-placeholder"
    assert _warnings(rules + "text player \"P{seat}\"\n") == [("check/unknown-placeholder",
                                                              "available: {n}")]
    # both point at the text's key
    for text, code in [("text   sayz \"x\"\n", "check/unused-text"),
                       ("text  says \"{activ}\"\n", "check/unknown-placeholder")]:
        (w,) = _load(rules + text).warnings
        key = text.split()[1]
        assert (w.code, w.span.line, w.span.column) == (code, rules.count("\n") + 1, text.index(key) + 1)
    assert "Both point at the text's key (`paly`, `player`)" in FLAT_DOC


def test_meeple_validate_prints_warnings_and_succeeds(tmp_path):
    from meeple.cli.main import app
    from typer.testing import CliRunner
    path = tmp_path / "w.meeple"
    path.write_text(CLAIM + "var done: bool = false\nturn { done = true }\nend when done\n"
                    "text bye \"Goodbye\"\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert re.search(r"warning\[check/unused-text\]: \S*w\.meeple:6:\d+: ", result.output), result.output
    assert "ok " in result.output


def test_a_bad_literal_has_a_position_and_a_hint():
    with pytest.raises(errors.MeepleError) as info:
        _load(CLAIM + "var done: bool = false\nfunction f(): str = \"a \\x b\"\nturn { done = true }\nend when done")
    d = info.value.diagnostics[0]
    assert (d.code, d.span.line, d.span.column) == ("parse/bad-literal", 4, 24)  # the backslash
    assert d.message == "unknown escape '\\x' in a string"
    assert "\\\\" in d.hint and "\\n" in d.hint
    assert "with the message \"unknown escape '\\x' in a string\"" in FLAT_DOC
    # in every string, at the backslash
    rules = ("ruleset claim\ntitle \"T\"\nplayers 1..4\nkind Card { value: int }\nzone pile: Card\n"
             "var done: bool = false\nturn { choose c from [1] as \"take\"\n log said \"{c}\"\n"
             " done = \"a\" == \"b\" }\nend when done\nname done \"D\"\ntext said \"S\"\nlabel Card \"C\"\n")
    _load(rules)
    for good in ['"a"', '"\\u00e9 \\" \\\\ \\n \\t"']:
        _load(rules.replace('"a"', good))
    for string in ('"T"', '"take"', '"{c}"', '"a"', '"D"', '"S"', '"C"'):
        line = rules[:rules.index(string)].count("\n") + 1
        column = rules.index(string) - rules.rfind("\n", 0, rules.index(string))
        for bad, shown in [("\\x", "\\x"), ("\\u00g9", "\\u"), ("\\U0041", "\\U")]:
            with pytest.raises(errors.MeepleError) as info:
                _load(rules.replace(string, string[0] + bad + string[1:], 1))
            d = info.value.diagnostics[0]
            assert (d.code, d.span.line, d.span.column) == ("parse/bad-literal", line, column + 1), (string, bad)
            assert d.message == f"unknown escape '{shown}' in a string"
    game = _run("var s: str = \"\"\nturn { s = \"\\u00e9\\\"\\\\\\t\" }\nend when s != \"\"")
    assert game.state["vars"]["s"] == "é\"\\\t"


def test_the_warning_examples_and_their_hints():
    hints = {}
    for block in FRAGMENTS:
        if block.comment("warning"):
            prog, _ = compile_fragment(block.text, block.id)
            hints[block.comment("warning")] = prog.warnings[0].hint
    assert hints == {"check/unused-text": "did you mean 'play'?",
                     "check/unknown-placeholder": "available: {n}",
                     "check/unknown-verb": "did you mean 'play'?"}
    assert "The warning asks \"did you mean 'play'?\"" in DOC_TEXT
    assert "The first warning asks \"did you mean 'play'?\"" in DOC_TEXT
    assert "the second lists the placeholder that\nexists, `{n}`" in DOC_TEXT


# ---------------------------------------------------------------- face down, the strip, item variables

def test_the_plain_zone_messages_are_quoted():
    d = _load_error(RULESETS["zone_demo"].text + "\nprocedure put(z: zone) { move top(pile) to z }\n")
    assert d.code == "check/type-mismatch"
    assert f'here "{d.message}"' in FLAT_DOC
    # from a plain zone to another: the kinds are compared when played (issue 34: it
    # loaded before zone of Kind, so it loads; tests/test_compat.py)
    text = RULESETS["zone_demo"].text.replace("end when empty(pile)", "") + \
        "kind Pawn { }\nzone camp: Pawn\ndeck pawns into camp { Pawn() }\n" + \
        "procedure pass(a: zone, b: zone) { move top(a) to b }\n" + \
        "setup { call pass(pile, discard)\n call pass(camp, discard) }\nend when empty(pile)\n"
    src = SourceSet(base=parse(text, "zone_demo.meeple"), sources={"zone_demo.meeple": text})
    with pytest.raises(RuleError) as e:
        interpreter.compile_sources(src).new_game(2, 0)
    assert e.value.code == "rule/error"
    assert str(e.value).endswith("'move' of a Pawn to discard, which holds Card")
    assert f'("{str(e.value).split(": ", 1)[1]}")' in FLAT_DOC


def test_item_variables():
    rules = _program("squad")
    game = rules.new_game(2, 0)
    assert game.over and game.result["scores"] == [5, 5]
    field = testing.at(game, "field")
    assert [game.program.items[i].attrs for i in field] == [{"strength": s} for s in (1, 2, 3)]
    assert [game.state["ivars"]["wounds"][i] for i in field] == [1, 1, 3]
    assert views.view(game, 1)["ivars"] == {"wounds": {str(i): w for i, w in zip(field, [1, 1, 3])}}
    assert ("the top unit (strength 3) ends with 3 wounds and the other two with 1 each, so "
            "both players score 5") in FLAT_DOC
    # the declaration fragment: every item starts with the value, the deck leaves it out
    block = next(b for b in FRAGMENTS if "var tags: list of str" in b.text)
    text = block.text + "zone barracks: Unit\ndeck units into barracks { Unit(colour: c) for c in Colour }\n"
    prog, _ = compile_fragment(text, "unit.meeple")
    game = prog.new_game(2, 0)
    units = testing.at(game, "barracks")
    assert [(game.state["ivars"]["wounds"][u], game.state["ivars"]["tags"][u]) for u in units] == [(0, [])] * 3
    assert game.state["ivars"]["wounds"][testing.at(game, "draw")[0]] is None  # a Card has no wounds
    # a global variable holds the item too; the value is computed once, the same for all
    game = _run(CARDS.replace("kind Card { value: int }", "kind Card { value: int, var w: int = player_count() * 10 }")
                + "var kept: Card = none\nvar done: bool = false\n"
                "turn { kept = top(pile)\n kept.w = kept.w + 1\n done = true }\nend when done", players=3)
    assert [game.state["ivars"]["w"][i] for i in testing.at(game, "pile")] == [30, 30, 30, 31]
    # only items the seat may know show their item variables
    game = _run(CARDS.replace("kind Card { value: int }", "kind Card { value: int, var w: int = 1 }")
                + "var done: bool = false\nturn { move top(pile) to other\n move top(pile) to hand(active)\n"
                "done = true }\nend when done")
    pile, other, mine = (testing.at(game, k) for k in ("pile", "other", "hand:0"))
    assert views.view(game, 0)["ivars"]["w"] == {str(i): 1 for i in pile + mine}
    assert views.view(game, 1)["ivars"]["w"] == {str(i): 1 for i in pile}
    assert views.view(game, "all")["ivars"]["w"] == {str(i): 1 for i in pile + other + mine}
    # the mistakes of section 5.3 and 6.2, and setting through 'none'
    codes = sorted(b.comment("error") for b in ERRORS if "kind Unit" in b.text or "c.value = 9" in b.text)
    assert codes == ["check/bad-value", "check/bad-value", "check/bad-value", "check/missing",
                     "check/type-mismatch"]
    with pytest.raises(RuleError) as info:
        _run(CARDS.replace("kind Card { value: int }", "kind Card { value: int, var w: int = 1 }")
             + "turn { let c = top(other)\n c.w = 2 }\nend when false")
    assert info.value.code == "rule/error"
    # any item expression may stand before the dot (issue 11 §4; a syntax error before)
    _load(CLAIM + "kind Unit { var w: int = 0 }\nzone field: Unit\nturn { top(field).w = 1 }\nend when true")
    with pytest.raises(RuleError) as info:
        _run(CARDS.replace("kind Card { value: int }", "kind Card { value: int, var w: int = 1 }")
             + "turn { top(other).w = 2 }\nend when false")
    assert info.value.code == "rule/error"


def _cells_of(prog, board: str):
    return [z.cell for z in prog.zones if z.board == board]


def test_the_strip_generator():
    block = next(b for b in FRAGMENTS if "board bench: strip(parts: 3, slots: 2)" in b.text)
    prog, _ = compile_fragment(block.text, "bench.meeple")
    cells = _cells_of(prog.for_players(2), "bench")
    names = [c.name for c in cells]
    assert names == ["p1a1", "p1a2", "p2a1", "p2a2", "p3a1", "p3a2",
                     "p1b1", "p1b2", "p2b1", "p2b2", "p3b1", "p3b2"]
    assert ("`p1a2`, `p2a1`, `p2a2`, `p3a1`, `p3a2` (side 1, in this order), then `p1b1` .. "
            "`p3b2` (side 2)") in FLAT_DOC
    by_name = {c.name: c for c in cells}
    assert by_name["p2b1"].coords == {"part": 2, "side": 2, "slot": 1, "col": 3}
    assert "`p2b1` has `part` 2, `side` 2, `slot` 1 and `col` 3" in FLAT_DOC
    # facing cells share their col; side 1 above side 2, a free row between; a gap between parts
    assert all(by_name[n.replace("a", "b", 1)].coords["col"] == by_name[n].coords["col"]
               for n in names[:6])
    assert {c.y for c in cells if c.coords["side"] == 1} == {0} and {c.y for c in cells if c.coords["side"] == 2} == {2}
    xs = [by_name[n].x for n in names[:6]]
    assert [b - a for a, b in itertools.pairwise(xs)] == [2, 3, 2, 3, 2]
    row = next(ln for ln in DOC_TEXT.splitlines() if ln.startswith("| `strip("))
    assert "`p3a2` (part 3, side 1, slot 2)" in row and "side 1 from left to right, then side 2" in row



def test_strip_single_cells_at_the_ends():
    # issue 11 §5: `ends: 1` adds a cell at each short end; the relations of the example
    # make them face each other across the whole strip and touch both long sides
    rules = _program("end_cells_demo")
    prog = rules.for_players(2)
    cells = _cells_of(prog, "table")
    assert [c.name for c in cells] == ["p1a1", "p1a2", "p2a1", "p2a2", "p1b1", "p1b2", "p2b1",
                                       "p2b2", "p1e0", "p2e3"]
    assert "The table has 10 cells: `p1a1` .. `p2a2`, `p1b1` .. `p2b2`, then `p1e0` and `p2e3`." in FLAT_DOC
    by_name = {c.name: c for c in cells}
    assert by_name["p1e0"].coords == {"part": 1, "side": 0, "slot": 0, "col": 0}
    assert by_name["p2e3"].coords == {"part": 2, "side": 0, "slot": 3, "col": 5}
    # drawn between the two long sides, before the first and after the last column
    assert (by_name["p1e0"].y, by_name["p2e3"].y) == (1, 1)
    xs = [c.x for c in cells if c.coords["side"] == 1]
    assert by_name["p1e0"].x < min(xs) and by_name["p2e3"].x > max(xs)
    game = rules.new_game(2, 0)
    assert testing.at(game, "table:p1e0")
    assert sorted(testing.options(game, "at")) == ["p1a1", "p1b1", "p2e3"]
    assert ("the first turn offers `p1a1` and `p1b1` (beside it) and `p2e3` (across the table "
            "from it)") in FLAT_DOC
    # the other end: beside the last cell of both sides, across from the first end cell
    game.apply("at p2e3")
    assert sorted(testing.options(game, "at")) == ["p1a1", "p1b1", "p2a2", "p2b2"]
    # without `ends` (or with 0) a strip is what it always was
    plain = _cells_of(_load(CLAIM + "kind C { v: int }\nboard t: strip(parts: 3, slots: 2) holds C\n"
                            "turn { end game }").for_players(2), "t")
    zero = _cells_of(_load(CLAIM + "kind C { v: int }\nboard t: strip(parts: 3, slots: 2, ends: 0) "
                           "holds C\nturn { end game }").for_players(2), "t")
    assert plain == zero and len(plain) == 12 and all(c.coords["side"] for c in plain)
    big = _cells_of(_load(CLAIM + "kind C { v: int }\nboard t: strip(parts: 3, slots: 2, ends: 1) "
                          "holds C\nturn { end game }").for_players(2), "t")
    assert big[:12] == plain and big[-1].name == "p3e3" and big[-1].coords["col"] == 7
    assert "with `strip(parts: 3, slots: 2, ends: 1)` it is `p3e3` (`col` 7)" in FLAT_DOC
    # one part: the two end cells are still two
    one = _cells_of(_load(CLAIM + "kind C { v: int }\nboard t: strip(parts: 1, slots: 2, ends: 1) "
                          "holds C\nturn { end game }").for_players(2), "t")
    assert [c.name for c in one][-2:] == ["p1e0", "p1e3"]


def test_strip_two_single_cells_at_each_end():
    # issue 39 §5: `ends: 2` closes each long side with a single cell; the two at one end
    # face each other across the strip, and the long sides' relations reach them
    rules = _program("end_pairs_demo")
    cells = _cells_of(rules.for_players(2), "table")
    names = [c.name for c in cells]
    assert names == ["p1a1", "p1a2", "p2a1", "p2a2", "p1b1", "p1b2", "p2b1", "p2b2",
                     "p1a0", "p1b0", "p2a3", "p2b3"]
    assert ("The table has 12 cells: `p1a1` .. `p2b2`, then `p1a0`, `p1b0`, `p2a3` and "
            "`p2b3`.") in FLAT_DOC
    by_name = {c.name: c for c in cells}
    assert by_name["p1b0"].coords == {"part": 1, "side": 2, "slot": 0, "col": 0}
    assert by_name["p2a3"].coords == {"part": 2, "side": 1, "slot": 3, "col": 5}
    # drawn on the row of their long side, before the first and after the last column
    assert (by_name["p1a0"].y, by_name["p1b0"].y) == (0, 2)
    assert by_name["p1a0"].x < by_name["p1a1"].x and by_name["p2b3"].x > by_name["p2b2"].x
    game = rules.new_game(2, 0)
    assert testing.at(game, "table:p1a0")
    assert sorted(testing.options(game, "at")) == ["p1a1", "p1b0"]
    assert "the first turn offers `p1a1` (beside it) and `p1b0`" in FLAT_DOC
    big = _cells_of(_load(CLAIM + "kind C { v: int }\nboard t: strip(parts: 3, slots: 2, ends: 2) "
                          "holds C\nturn { end game }").for_players(2), "t")
    assert [c.name for c in big[12:]] == ["p1a0", "p1b0", "p3a3", "p3b3"]
    assert [c.coords["col"] for c in big[12:]] == [0, 0, 7, 7]
    assert ("with `strip(parts: 3, slots: 2, ends: 2)` they are `p1a0` and `p1b0` (`slot` 0, "
            "`col` 0), `p3a3` and `p3b3` (`slot` 3, `col` 7)") in FLAT_DOC


def test_strip_ends_other_than_0_to_2_are_located_errors():
    for value, bad in [("3", "3"), ("player_count() - 3", "-2")]:
        err = _load_error(CLAIM + "kind C { v: int }\n"
                          f"board t: strip(parts: 3, slots: 2, ends: {value}) holds C\nturn {{ end game }}")
        assert (err.code, err.span.line, err.span.column) == ("check/board-size", 4, 36)
        assert err.message.startswith(f"board 't': ends is {bad} with ")
        assert err.message.endswith("; ends may be 0 to 2")
    assert "\"board 'bench': ends is 3 with 2 players; ends may be 0 to 2\"" in FLAT_DOC
    err = _load_error(CLAIM + "kind C { v: int }\nboard t: strip(parts: 3, slots: 2, end: 1) holds C\n"
                      "turn { end game }")
    assert (err.code, err.span.column, err.hint) == ("check/unknown-name", 36, "did you mean 'ends'?")
    err = _load_error(CLAIM + "kind C { v: int }\nboard t: strip(parts: 3, ends: 1) holds C\n"
                      "turn { end game }")
    assert err.code == "check/arity" and "strip needs slots" in err.message

def test_board_sizes_may_call_functions_and_count_enums_and_earlier_boards():
    rules = _program("strip_demo")
    for n, market, stock in [(2, 12, 6), (3, 12, 6), (4, 18, 9)]:
        prog = rules.for_players(n)
        assert (len(prog.boards["market"]), len(prog.boards["stock"])) == (market, stock)
        names = [c.name for c in _cells_of(prog, "market")]
        assert names[0] == "p1a1" and names[market // 2 - 1] == f"p{market // 6}a3"
        assert names[market // 2] == "p1b1" and names[-1] == f"p{market // 6}b3"
        game = rules.new_game(n, 0)
        assert all(len(testing.at(game, f"market:{c}")) == 1 for c in names)
    assert ("With 2 or 3 players the market has 2 parts of 3 slots a side, 12 cells (`p1a1` .. "
            "`p2a3`, then `p1b1` .. `p2b3`), and the stock 6; with 4 players 3 parts, 18 cells, and "
            "the stock 9.") in FLAT_DOC
    # a board sized by a later board, reported at the argument
    block = next(b for b in ERRORS if "size(cells(track))" in b.text)
    with pytest.raises(errors.MeepleError) as info:
        compile_fragment(block.text, "later.meeple")
    d = info.value.diagnostics[0]
    assert d.code == "check/board-not-constant"
    assert (d.span.line, d.span.column) == (2, block.text.splitlines()[1].index("length") + 1)
    # ... and so is a function that reads the game
    d = _load_error(CLAIM + CARDS + "function w(): int = size(pile)\nboard b: line(length: w()) holds Card\n"
                    "turn { end game }")
    assert d.code == "check/board-not-constant" and "cannot use a zone" in d.message


def test_face_down_views_messages_and_undo():
    rules = _program("face_down_demo")
    game = rules.new_game(2, 0)
    card = {testing.item(game.program, value=v): v for v in range(1, 7)}
    c = {v: i for i, v in card.items()}
    hidden = {"hidden": True}
    assert testing.at(game, "table") == [c[6], c[5], c[4]]
    assert views.view(game, 0)["zones"]["table"] == [hidden, c[5], c[4]]
    for seat in (1, views.SPECTATOR):
        v = views.view(game, seat)
        assert v["zones"]["table"] == [hidden, hidden, c[4]]
        assert v["vars"]["bid"] == hidden
        assert v["log"] == ["Player 1 bids a card"]
    assert views.view(game, 0)["vars"]["bid"] == c[5]
    assert views.view(game, 0)["log"] == ["Player 1 bids card 5"]
    assert testing.notations(game) == ["show false", "show true"]
    before = game.copy().state
    game.apply("show true")
    for seat in (0, 1, views.SPECTATOR):
        assert views.view(game, seat)["zones"]["table"] == [hidden, c[5], c[4]]
    assert views.view(game, 1)["log"] == ["Player 1 bids a card"]
    assert runtime.revealed_since(before, game.state, 1) and not runtime.revealed_since(before, game.state, 0)
    assert "player 1's view lists the table as `{\"hidden\": true}`, card 5, card 4" in FLAT_DOC
    assert '"Player 1 bids card 5", the others "Player 1 bids a card"' in FLAT_DOC
    # not showing: nothing newly seen
    game = rules.new_game(2, 0)
    before = game.copy().state
    game.apply("show false")
    assert not runtime.revealed_since(before, game.state, 1)


def test_face_down_moves_and_flips():
    def run(stmts: str):
        prog, _ = compile_fragment(stmts, "faces.meeple")
        return prog.new_game(2, 0)
    hidden = {"hidden": True}
    # the fragment of 'move': face down, face down for the active player, face up
    block = next(b for b in FRAGMENTS if "move top(draw) to discard face down" in b.text)
    game = run(block.text)
    green1, red8, red7 = (testing.item(game.program, colour=col, value=v)
                          for col, v in (("green", 1), ("red", 8), ("red", 7)))
    assert testing.at(game, "discard") == [green1, red7]
    assert [game.state["facing"][i] for i in (green1, red8, red7)] == [0, 1, -1]
    assert views.view(game, 0)["zones"]["discard"] == [hidden, red7]
    assert views.view(game, 0)["zones"]["tableau:0"] == [red8]
    assert views.view(game, 1)["zones"]["tableau:0"] == [hidden]
    # the fragment of 'flip': turns items where they lie
    block = next(b for b in FRAGMENTS if "flip top(cell(1, 1)) face up" in b.text)
    game = run(block.text)
    row1 = [testing.at(game, f"grid:r1c{k}")[0] for k in (1, 2, 3)]
    assert [game.state["facing"][i] for i in row1] == [-1, 1, 0]
    assert views.view(game, 1)["zones"]["grid:r1c2"] == [hidden]
    assert views.view(game, 0)["zones"]["grid:r1c2"] == [row1[1]]
    # face_down() with or without 'for'; a plain move follows the new place; moving to the
    # same place only sets the facing; reveal leaves face-down items unknown; a face-up
    # flip in a hidden pile leaves the item unseen; a list; none
    game = run("move top(draw) to discard face down\nmove top(draw) to discard face down for active\n"
               "points(players[0]) = count(c for c in items(discard) if face_down(c))\n"
               "move bottom(discard) to hand(active)\nmove top(discard) to discard\n"
               "move top(draw) to discard\nmove top(discard) to discard face down\n"
               "flip top(draw) face down\nflip top(draw) face up\n"
               "reveal draw\nflip items(hand(players[1])) face down for players[1]\n"
               "round = count(c for c in items(hand(players[1])) if face_down(c))\n")
    assert game.state["pvars"]["points"][0] == 2 and game.state["vars"]["round"] == 3
    green1 = testing.item(game.program, colour="green", value=1)
    red8, red7 = (testing.item(game.program, colour="red", value=v) for v in (8, 7))
    assert testing.at(game, "discard") == [red8, red7] and testing.at(game, "hand:0")[-1] == green1
    assert game.state["facing"][green1] == -1 and game.state["facing"][red8] == -1 and game.state["facing"][red7] == 0
    assert views.view(game, views.SPECTATOR)["zones"]["discard"] == [red8, hidden]
    assert views.view(game, 0)["zones"]["hand:1"] == {"count": 3}
    assert views.view(game, 1)["zones"]["hand:1"] == testing.at(game, "hand:1")
    game = run("move top(draw) to discard face down\nreveal discard\n")
    assert views.view(game, 1)["zones"]["discard"] == [hidden]
    game = run("move top(draw) to draw face down for players[1]\n")
    assert views.item_visible(game, testing.at(game, "draw")[-1], 1)
    game = run("move top(draw) to draw face down for players[1]\nflip top(draw) face up\n")
    assert not views.item_visible(game, testing.at(game, "draw")[-1], 1)
    assert views.view(game, 1)["zones"]["draw"] == {"count": 9}
    for stmts in ("flip top(discard) face up", "move top(discard) to draw face down"):
        with pytest.raises(RuleError) as info:
            run(stmts)
        assert info.value.code == "rule/error"
    d = _load_error(CLAIM + CARDS + "turn { flip top(pile) face down for 3 }\nend when true")
    assert d.code == "check/type-mismatch"


# ---------------------------------------------------------------- options a player may not know

def test_options_a_player_may_not_know_are_named_and_ordered_by_place():
    rules = _program("blind_pick")
    game = rules.new_game(2, 0)
    assert testing.notations(game) == ["take 4", "take 8", "take deck#1", "take deck#2", "take deck#3",
                                       "take table#2", "take s1", "take hand:p2#1"]
    assert ("Player 1's moves are `take 4`, `take 8` (the cards they know, in creation order), then "
            "`take deck#1`, `take deck#2`, `take deck#3`, `take table#2`, `take s1`, `take hand:p2#1`") in FLAT_DOC
    # the older notation, with the seat counted from 0, is still accepted (older records)
    assert game.find_move("take hand:1#1").notation == "take hand:p2#1"
    assert game.find_move("TAKE HAND:1#1").notation == "take hand:p2#1"
    with pytest.raises(runtime.IllegalMove):
        game.find_move("take hand:0#1")  # seat 1's hand: not an option
    # messages (test failures, leaks) write places as moves do; view keys stay 0-based
    in_hand = testing.at(game, "hand:1")[0]
    assert leaks.place(game, in_hand) == "hand:p2#1"
    assert display.zone_notation(game.program, testing.zone(game.program, "hand:1")) == "hand:p2"
    # what player 1 does not know is there all the same: deck 1..3, table 8 and 7, 6, 5, 4
    prog = game.program
    value = {i: prog.items[i].attrs["value"] for i in range(len(prog.items))}
    assert [value[i] for i in testing.at(game, "deck")] == [1, 2, 3]
    assert [value[i] for i in testing.at(game, "table")] == [8, 7]
    assert [value[i] for k in ("hand:1", "row:s1", "row:s2") for i in testing.at(game, k)] == [6, 5, 4]
    game.apply("take deck#2")
    assert [value[i] for i in testing.at(game, "hand:0")] == [2]
    assert views.view(game, 0)["zones"]["hand:0"] == testing.at(game, "hand:0")
    # a subset of the table: 8 and the face-down 7
    text = RULESETS["blind_pick"].text.replace(
        "turn {\n", "turn {\n  choose s subset of items(table) as \"pair\"\n")
    game = interpreter.compile_sources(_sources({"b.meeple": text})).new_game(2, 0)
    assert testing.notations(game) == ["pair 8", "pair table#2", "pair 8+table#2"]
    # the same place names for subsets (shorter first, element by element) and for a tie;
    # with two boards a cell is board.cell, with two items in it cell#n; per-player zones
    # come zone by zone, each seat by seat
    game = _run("kind Card { value: int }\nzone deck: Card hidden\nzone table: Card\nzone hand: Card per player\n"
                "zone bag: Card per player\nboard a: line(length: 1) holds Card\nboard b: line(length: 1) holds Card\n"
                "deck cards into deck { Card(value: v) for v in 1..9 }\nvar done: bool = false\n"
                "setup { move top(deck) to table\n move top(deck) to table face down\n"
                " move top(deck) to bag(players[0]) face down\n move top(deck) to hand(players[1])\n"
                " move top(deck) to cells(a)[0] face down\n move top(deck) to cells(b)[0]\n"
                " move top(deck) to cells(b)[0] face down }\n"
                "turn { choose s subset of items(table) where size(s) == 2 as \"pair\"\n"
                " choose c from items(bag(players[0])) + items(hand(players[1])) + items(cells(a)[0])"
                " + items(cells(b)[0]) as \"take\"\n"
                " best t in items(deck) by 0 tie choose\n done = true }\nend when done")
    assert testing.notations(game) == ["pair 9+table#2"]
    game.apply(0)
    assert testing.notations(game) == ["take 4", "take a.s1", "take b.s1#2", "take hand:p2#1",
                                       "take bag:p1#1"]  # bag:p1: not known to its owner either
    game.apply("take a.s1")
    assert testing.notations(game) == ["tie deck#1", "tie deck#2"]
    assert "`take deck#1`" in FLAT_DOC and "`8+table#2`" in FLAT_DOC and "`s1#2`" in FLAT_DOC


def test_views_list_the_face_down_items_the_seat_knows():
    game = _program("face_down_demo").new_game(2, 0)
    card5 = testing.item(game.program, value=5)
    assert views.view(game, 0)["face_down"] == [card5]
    assert views.view(game, 1)["face_down"] == [] and views.view(game, views.SPECTATOR)["face_down"] == []
    assert set(views.view(game, "all")["face_down"]) == {card5, testing.item(game.program, value=6)}
    game.apply("show true")
    assert views.view(game, 0)["face_down"] == []
    assert "player 1's view has card 5 there" in FLAT_DOC


def test_bots_get_the_view_and_the_notations_only():
    import inspect

    from meeple.interpreter import bots
    game = _program("blind_pick").new_game(2, 0)
    notations = testing.notations(game)
    for name, cls in bots.BOTS.items():
        if getattr(cls, "wants_position", False):
            # a search bot gets a Position: the seat, its notations, its view, and games
            # drawn from what the seat knows (never the game itself)
            assert list(inspect.signature(cls.choose_position).parameters) == ["self", "position"]
            position = bots.Position(game, 0)
            assert position.moves == list(notations) and position.view == views.view(game, 0)
            i = bots.make_bot(f"{name}:iterations=4" if name != "greedy" else name, 1).choose_position(position)
        else:
            i = cls(1).choose(views.view(game, 0), list(notations))
            assert list(inspect.signature(cls.choose).parameters) == ["self", "view", "moves"]
        assert 0 <= i < len(notations)
    assert "`bot.choose(view, notations)`" in FLAT_DOC and "`Position`" in FLAT_DOC


def test_a_label_may_show_item_variables():
    block = next(b for b in FRAGMENTS if 'label Unit "{colour} unit"' in b.text)
    prog, _ = compile_fragment(block.text + "zone barracks: Unit\n"
                               "deck units into barracks { Unit(colour: c) for c in Colour }\n", "label.meeple")
    game = prog.new_game(2, 0)
    red = testing.item(game.program, "Unit", colour="red")
    assert display.item_label(game.program, red) == "red unit"
    assert display.item_label(game.program, red, True) == "red?"
    assert display.item_label(game.program, red, True, game.state["ivars"]) == "red0"
    assert display.item_label(game.program, red, True, views.view(game, 0)["ivars"]) == "red0"


def test_a_locale_may_translate_the_texts_of_a_variant_not_chosen():
    fr = next(b for b in OVERLAYS if b.header == ("locale", "fr") and b.comment("base") == "toss")
    variant = next(b for b in OVERLAYS if b.header == ("variant", "commentary"))
    base = RULESETS["toss"].text
    files = {"toss.meeple": base, "variants/commentary.meeple": variant.text, "locales/fr.meeple": fr.text}
    assert interpreter.compile_sources(_sources(files), (), "fr").warnings == []
    rules = interpreter.compile_sources(_sources(files), ["commentary"], "fr")
    assert rules.warnings == []
    log = views.view(rules.new_game(2, 0), 0)["log"]
    assert len(log) == 4 and all(re.fullmatch(r"Joueur [12] lance : [0-4] face\(s\) jusqu'ici", m) for m in log)
    del files["variants/commentary.meeple"]
    assert [w.code for w in interpreter.compile_sources(_sources(files), (), "fr").warnings] == ["check/unused-text"]
    # a typo in a variant's text is still reported when the variant is chosen
    files["variants/commentary.meeple"] = variant.text
    files["locales/fr.meeple"] = fr.text.replace("{heads}", "{head}")
    assert interpreter.compile_sources(_sources(files), (), "fr").warnings == []
    assert [w.code for w in interpreter.compile_sources(_sources(files), ["commentary"], "fr").warnings] \
        == ["check/unknown-placeholder"]


# ---------------------------------------------------------------- invariants and meeple test

def _section_18_fragments() -> str:
    blocks = [b for b in FRAGMENTS if re.match(r"\s*(invariant|bound|secret)\b", b.text)]
    assert len(blocks) == 3
    return "".join(b.text for b in blocks)


def test_the_declared_checks_of_section_18_hold_for_the_examples_ruleset():
    prog, mode = compile_fragment(_section_18_fragments(), "checks.meeple")
    assert mode == "declarations"
    stats = invariants.Stats()
    for n in (2, 3, 4):
        for seed in range(4):
            play_and_check(prog, Config(n), seed, [seed * 3 + i for i in range(20)], stats)
    assert stats.moments == {"after setup": 12, "at turn end": 3 * 4 * (2 + 3 + 4), "at end": 12}
    p2 = prog.for_players(2)
    assert [(name, moment) for name, moment, _, _ in p2.invariants] == [
        ("all_cards", "after setup"), ("full_grid", "always"), ("three_cards_at_most", "at turn end"),
        ("all_played", "at end")]
    assert p2.bound == (12, "turns") and p2.secrets == [("hand", False), ("draw", True)]
    # the bound is tight: 4 players play 12 cards
    tight, _ = compile_fragment(_section_18_fragments().replace("bound 12 turns", "bound 11 turns"), "b.meeple")
    play_and_check(tight, Config(3), 0, [])
    with pytest.raises(Failure) as info:
        play_and_check(tight, Config(4), 0, [])
    assert info.value.check == "bound" and "within its bound of 11 turns" in info.value.message
    assert f"within {invariants.DEFAULT_BOUND[0]:,} {invariants.DEFAULT_BOUND[1]}" in FLAT_DOC
    assert f"| `bound` | the game goes on after its bound (declared, or {invariants.DEFAULT_BOUND[0]:,} moves), " \
        in DOC_TEXT


def test_the_moments_of_the_invariants():
    def moments(body):
        seen = []
        game = interpreter.compile_sources(_sources({"m.meeple": CLAIM + body})).new_game(
            2, 0, hook=lambda moment, R: seen.append((moment, R.turn, R.phase, R.result is not None)))
        while not game.over:
            game.apply(0)
        return seen
    turn = "var n: int = 0\nturn { choose x from [1] as \"go\"\n n = n + 1 }\n"
    assert moments(turn + "end when n >= 2") == [
        ("after setup", 0, "play", False), ("at turn end", 1, "play", False),
        ("at turn end", 2, "play", False), ("at end", 2, "over", True)]
    # a turn cut short by 'end game' is not completed
    assert moments(turn.replace("n = n + 1", "n = n + 1\n if n == 2 { end game }") + "end when false") == [
        ("after setup", 0, "play", False), ("at turn end", 1, "play", False), ("at end", 1, "over", True)]
    # ... nor a setup that ends the game
    assert moments("var n: int = 0\nsetup { end game }\nturn { n = 1 }\nend when n >= 5") == [
        ("at end", 0, "over", True)]
    # 'after setup' comes before the end condition is first checked
    assert moments("var n: int = 0\nsetup { n = 5 }\nturn { n = 1 }\nend when n >= 5") == [
        ("after setup", 0, "play", False), ("at end", 0, "over", True)]
    # 'always': at the start and after every move
    prog = _load(CLAIM + turn + "end when n >= 3\ninvariant small: n < 2\n")
    with pytest.raises(Failure) as info:
        play_and_check(prog, Config(2), 0, [])
    assert (info.value.check, info.value.message, info.value.moves) == (
        "invariant 'small'", "does not hold (move 2)", ["go 1", "go 1"])
    # one that cannot be evaluated breaks too; a condition must be a bool; names are unique
    prog = _load(CLAIM + turn + "end when n >= 3\ninvariant odd at turn end: min([x for x in [n] if x > 5]) > 0\n")
    with pytest.raises(Failure, match="could not be evaluated"):
        play_and_check(prog, Config(2), 0, [])
    for decls, code in [("invariant a: 1", "check/type-mismatch"), ("invariant a: true\ninvariant a: true",
                        "check/duplicate"), ("bound 0 moves", "check/bad-value"), ("secret nowhere",
                        "check/unknown-zone"), ("board b: line(length: 2) holds Card\nsecret b", "check/unknown-zone"),
                        ("bound 3 turns\nbound 3 moves", "check/duplicate")]:
        d = _load_error(CLAIM + CARDS + turn + "end when n >= 3\n" + decls)
        assert d.code == code, decls
    # plain games ignore them
    game = _load(CLAIM + turn + "end when n >= 3\ninvariant never: false\nbound 1 moves\n").new_game(2, 0)
    play_randomly(game)
    assert game.over


def test_secrets():
    body = CARDS + "var n: int = 0\nsetup { deal 1 from pile to hand }\n"
    turn = "turn { choose x from [1] as \"go\"\n n = n + 1 }\nend when n >= 2\n"
    play_and_check(_load(CLAIM + body + turn + "secret hand\nsecret other\n"), Config(2), 0, [])
    # a shared secret zone: nobody's view, not even a face_down list
    leak = turn.replace("n = n + 1", "n = n + 1\n move top(pile) to other face down for players[0]")
    with pytest.raises(Failure) as info:
        play_and_check(_load(CLAIM + body + leak + "secret other\n"), Config(2), 0, [])
    assert info.value.check == "secret 'other'" and info.value.message.startswith("player 1 can see")
    assert info.value.span.line == (CLAIM + body + leak).count("\n") + 1
    play_and_check(_load(CLAIM + body + leak + "secret hand\n"), Config(2), 0, [])
    # a public zone shows it at once; 'until end' lets 'at end' show it
    shown = turn + "at end { reveal other }\n"
    with pytest.raises(Failure, match="secret 'other'"):
        play_and_check(_load(CLAIM + body + shown.replace("n = n + 1", "n = n + 1\n move top(pile) to other")
                             + "secret other\n"), Config(2), 0, [])
    at_end = CLAIM + body.replace("deal 1 from pile to hand", "deal 1 from pile to hand\n move top(pile) to other") \
        + shown
    play_and_check(_load(at_end + "secret other until end\n"), Config(2), 0, [])
    with pytest.raises(Failure) as info:
        play_and_check(_load(at_end + "secret other\n"), Config(2), 0, [])
    assert info.value.message.startswith("player 1 can see") and info.value.moves == ["go 1", "go 1"]


def test_overlays_add_replace_and_remove_checks():
    base = EXAMPLES + _section_18_fragments()
    overlay = ("variant v\nremove invariant all_played\nremove secret draw\nreplace bound 50 turns\n"
               "replace invariant full_grid: size(draw) <= 9\nreplace secret hand until end\n"
               "invariant nine_at_most: size(draw) <= 9\n")
    prog = interpreter.compile_sources(_sources({"examples.meeple": base, "variants/v.meeple": overlay}), ["v"])
    p2 = prog.for_players(2)
    assert [(n, m) for n, m, _, _ in p2.invariants] == [
        ("all_cards", "after setup"), ("full_grid", "always"), ("three_cards_at_most", "at turn end"),
        ("nine_at_most", "always")]
    assert p2.bound == (50, "turns") and p2.secrets == [("hand", True)]
    # Cherokee's open clans: without 'remove secret clan' the face-up clan cards leak
    src = read_sources(resolve_path("cherokee"))
    real = src.sources[src.variants["open_clans"].span.file]
    assert "remove secret clan\n" in real
    files = {src.base.span.file: src.sources[src.base.span.file],
             "variants/open_clans.meeple": real.replace("remove secret clan\n", "")}
    rules = interpreter.compile_sources(_sources(files), ["open_clans"])
    with pytest.raises(Failure) as info:
        play_and_check(rules, Config(2, ("open_clans",)), 0, [])
    assert info.value.check == "secret 'clan'" and info.value.moves == []
    play_and_check(interpreter.load("cherokee", ["open_clans"]), Config(2, ("open_clans",)), 0, [])


def test_the_table_of_checks_names_every_check():
    source = (ROOT / "interpreter" / "analysis" / "invariants.py").read_text(encoding="utf-8")
    names = set(re.findall(r'(?:_fail|Failure)\("([a-z /-]+)"', source))
    assert 'f"invariant \'{name}\'"' in source and "f\"secret '{" in source
    table = DOC_TEXT.split("### 18.5", 1)[1].split("###", 1)[0]
    rows = re.findall(r"^\| `([^`]+)` \|", table, re.M)
    assert set(rows) == names | {"invariant 'NAME'", "secret 'ZONE'"}
    assert len(rows) == len(set(rows))


def test_the_samples_of_a_game_that_may_not_end(tmp_path, monkeypatch):
    from meeple.cli.main import app
    from typer.testing import CliRunner
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "300")
    text = RULESETS["shuttle"].text
    assert text.rstrip().endswith("bound 40 turns or endless")
    numbers = re.compile(r"\d+")

    def shown(start: str) -> list[str]:
        block = next(b for b in ALL_BLOCKS if b.lang == "text" and b.text.startswith(start))
        return [numbers.sub("#", ln) for ln in block.text.strip().splitlines()]
    (tmp_path / "shuttle.meeple").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["test", "shuttle.meeple"])
    assert result.exit_code == 0, result.output
    got = [numbers.sub("#", ln) for ln in result.output.strip().splitlines()]
    assert got == shown("$ meeple test shuttle.meeple")[1:]
    # without its last two words: the failure shown in 18.2
    (tmp_path / "shuttle.meeple").write_text(text.replace(" or endless", ""), encoding="utf-8")
    result = CliRunner().invoke(app, ["test", "shuttle.meeple"])
    assert result.exit_code == 1
    got = [numbers.sub("#", ln) for ln in result.output.strip().splitlines()]
    assert got[1:4] == shown("FAILED bound: the game never ends"), result.output


def test_games_are_drawn_from_choices_modulo_the_moves_then_first_moves():
    checker = invariants.GameChecker(_program("race_to_ten"), Config(2), 0)
    game = checker.play([4, 256 + 7])  # 4 % 3 = 1 and 263 % 3 = 2, then the first move
    assert game.state["vars"]["total"] == 10 and checker.moves == ["add 2", "add 3"] + ["add 1"] * 5
    src = read_sources(resolve_path("cherokee"))

    def load(c):
        return interpreter.compile_sources(src, list(c.variants), c.locale)
    cfgs = invariants.configs(src, load)
    assert len(cfgs) == 3 * 2 + 3 * len(src.locales)  # counts x (no variant, open_clans), locales alone
    assert Config(3, ("open_clans",)) in cfgs and Config(2, (), "nl") in cfgs
    assert invariants.configs(src, load, ["open_clans"], 3) == [Config(3, ("open_clans",))]


def test_the_sample_failure_of_meeple_test(tmp_path, monkeypatch):
    from meeple.cli.main import app
    from typer.testing import CliRunner
    (tmp_path / "race_to_ten.meeple").write_text(RULESETS["race_to_ten"].text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")
    result = CliRunner().invoke(app, ["test", "race_to_ten.meeple"])
    assert result.exit_code == 1
    shown = next(b for b in ALL_BLOCKS if b.lang == "text" and "$ meeple test race_to_ten.meeple" in b.text)
    expected = shown.text.strip().splitlines()[1:]
    got = result.output.strip().splitlines()
    assert len(got) == len(expected), result.output
    shrunk = re.compile(r"\(move \d+\)|\d+ move\(s\)|moves: .*")  # what shrinking found
    for g, e in zip(got, expected):
        assert shrunk.sub("#", g) == shrunk.sub("#", e), (g, e)
    rec = json.loads((tmp_path / "meeple-test-failure.json").read_text(encoding="utf-8"))
    assert rec["ruleset"].endswith("race_to_ten.meeple") and rec["players"] == 2
    game = play_and_check(_program("race_to_ten"), Config(2), 0, [])  # the first moves never fail
    assert game.over
    replayed = CliRunner().invoke(app, ["replay", "meeple-test-failure.json", "--ruleset",
                                        "race_to_ten.meeple", "--quiet"])
    assert replayed.exit_code == 0, replayed.output
