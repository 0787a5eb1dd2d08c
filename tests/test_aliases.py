"""`alias "verb"(m) = ...` (docs/language.md 9.3): other texts a player may type for a
decision's moves, checked at load, matched after the notations, refused when they name
two moves, never written in records nor shown for an item the decider may not know."""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from meeple.dsl.errors import MeepleError
from meeple.interpreter.analysis import testing

from meeple import interpreter

BASE = """ruleset adder
players 2..2
var total: int = 0
turn {
  choose n from [1, 2, 3] as "add"
  total = total + n
}
end when total >= 6
score(p) = total
"""


def rules(extra: str, base: str = BASE, variants: dict[str, str] | None = None):
    """The ruleset ``base + extra`` (with these variant files, all chosen), from a folder."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "rules"
        (root / "variants").mkdir(parents=True)
        (root / "rules.meeple").write_text(base + extra, encoding="utf-8")
        for name, text in (variants or {}).items():
            (root / "variants" / f"{name}.meeple").write_text(text, encoding="utf-8")
        return interpreter.load(str(root), variants=list(variants or ()))


def codes(extra: str, base: str = BASE) -> list[str]:
    with pytest.raises(MeepleError) as e:
        rules(extra, base)
    return [d.code for d in e.value.diagnostics]


def test_a_move_is_found_by_its_alias_after_its_notation():
    game = rules('alias "add"(n) = if n == 1 then ["one", "add 3"] else []\n').new_game(2)
    assert game.aliases(0) == ["one", "add 3"] and game.aliases("add 2") == []
    assert game.find_move("one").notation == "add 1"
    assert game.find_move("ONE").notation == "add 1"         # any case, when unique
    assert game.find_move("add one").notation == "add 1"     # with the verb
    # the notation comes first: "add 3" is move 3, not the alias of move 1
    assert game.find_move("add 3").notation == "add 3"
    with pytest.raises(interpreter.IllegalMove, match="not a legal move"):
        game.find_move("two")


def test_an_alias_of_two_moves_is_refused_naming_both():
    game = rules('alias "add"(n) = if n == 3 then ["big"] else ["small"]\n').new_game(2)
    assert game.find_move("big").notation == "add 3"
    with pytest.raises(interpreter.IllegalMove, match="'add 1', 'add 2'"):
        game.find_move("small")


def test_a_decision_without_a_verb_takes_an_alias_without_one():
    base = BASE.replace(' as "add"', "")
    game = rules('alias(n) = "#" + ["a", "b", "c"][n - 1]\n', base).new_game(2)
    assert game.find_move("#b").notation == "2"


def test_an_alias_never_changes_what_is_played_nor_the_record():
    from meeple.interpreter import record
    prog = rules('alias "add"(n) = ["one", "two", "three"][n - 1]\n')
    typed, written = prog.new_game(2, seed=3), prog.new_game(2, seed=3)
    entries = [record.entry(typed.apply(t)) for t in ("three", "one", "two")]
    assert entries == ["add 3", "add 1", "add 2"]
    testing.play(written, *entries)
    assert typed.state == written.state and typed.over


def test_an_alias_is_computed_in_the_position_of_the_decision():
    game = rules('alias "add"(n) = "to " + ["0", "1", "2", "3", "4", "5", "6", "7", "8"]'
                 '[total + n]\n').new_game(2)
    assert game.aliases(1) == ["to 2"]
    game.apply("to 3")
    assert game.aliases(1) == ["to 5"] and game.find_move("to 4").notation == "add 1"


def test_an_alias_is_checked_at_load():
    assert codes('alias "ad"(n) = "x"\n') == ["check/unknown-name"]       # no such verb
    assert codes('alias(n) = "x"\n') == ["check/unknown-name"]            # every one has a verb
    assert codes('alias "add"(n) = n\n') == ["check/type-mismatch"]       # not a text
    assert codes('alias "add"(n) = "x"\nalias "add"(n) = "y"\n') == ["check/duplicate"]
    assert codes('alias "add"(n) = n + "x"\n') != []                      # n is an int
    two = BASE.replace('total = total + n\n', 'total = total + n\n  choose b from [true] as "add"\n')
    assert codes('alias "add"(n) = "x"\n', two) == ["check/type-mismatch"]  # int and bool


def test_a_rule_error_in_an_alias_is_located_at_it():
    game = rules('alias "add"(n) = ["a", "b"][n]\n').new_game(2)
    with pytest.raises(interpreter.RuleError) as e:
        game.aliases(2)
    assert "alias" in str(e.value)
    # typed, a text that is no notation is an illegal move that says why
    with pytest.raises(interpreter.IllegalMove, match="alias broke a rule"):
        game.find_move("three")
    assert game.find_move("add 3").notation == "add 3"   # a notation needs no alias


def test_an_item_the_decider_may_not_know_has_no_alias():
    base = """ruleset guess
players 2..2
kind Card { rank: int }
zone hand: Card per player owner
zone pile: Card
zone table: Card
deck cards into pile { Card(rank: r) for r in 1..2 }
var done: bool = false
setup { deal 1 from pile to hand }
turn {
  choose c from items(hand(next_player(active))) + items(hand(active)) as "take"
  move c to table
  done = true
}
end when done
score(p) = 0
"""
    game = rules('alias "take"(c) = "rank " + ["0", "1", "2"][c.rank]\n', base).new_game(2, seed=1)
    mine, theirs = [m for m in game.legal_moves() if "hand" not in m.notation], \
        [m for m in game.legal_moves() if "hand" in m.notation]
    assert len(mine) == len(theirs) == 1
    assert game.aliases(theirs[0]) == []
    rank = game.aliases(mine[0])[0]
    assert game.find_move(rank) == mine[0]


def test_a_variant_replaces_an_alias():
    prog = rules('alias "add"(n) = "old"\n',
                 variants={"new": 'variant new\nreplace alias "add"(n) = "new"\n'})
    assert prog.new_game(2).aliases(0) == ["new"]


@needs_kernel
def test_a_ruleset_with_aliases_is_played_by_its_kernel_and_typed_in_python():
    from meeple.interpreter.native.kgame import KernelGame
    chess = interpreter.load("chess")
    assert chess.use_native(report=False)
    game = chess.new_game(2, 0)
    assert isinstance(game, KernelGame)
    played = [game.apply(t).notation for t in ("e4", "e7e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6")]
    assert played == ["move e2-e4", "move e7-e5", "move g1-f3", "move b8-c6", "move f1-b5",
                      "move a7-a6", "move b5-c6"]
    game.apply(0)             # (a typed move is found by Python; the kernel takes over again)
    assert game.live and chess.for_players(2).native_fallbacks == 0


PICK = """ruleset pick
players 2..2
var done: bool = false
turn {
  choose s from ["a-b", "x", "y"] as "take"
  done = true
}
end when done
score(p) = 0
alias "take"(s) = if s == "x" then ["a", "z"] elif s == "y" then ["z"] else []
"""


def test_meeple_play_takes_an_alias_before_a_prefix_and_names_both_moves_of_an_ambiguous_one(
        tmp_path):
    from meeple.cli.main import app
    from meeple.interpreter import record
    from typer.testing import CliRunner
    path = tmp_path / "pick.meeple"
    path.write_text(PICK, encoding="utf-8")
    env = {"TTY_COMPATIBLE": "1", "TERM": "dumb", "COLUMNS": "80", "LINES": "24"}
    r = CliRunner().invoke(app, ["play", str(path), "--seed", "1", "--bot", "2=first",
                                 "--no-color", "--record", str(tmp_path / "p.json")],
                           input="z\na\n", env=env)
    assert "Traceback" not in r.output, r.output
    assert "'z' could be any of 2 moves ('take x', 'take y')" in r.output, r.output
    assert record.load(tmp_path / "p.json").moves == ["take x"]   # "a" is x, not a-b
    r = CliRunner().invoke(app, ["play", "chess", "--seed", "1", "--bot", "2=first", "--no-color",
                                 "--record", str(tmp_path / "c.json")], input="Nf3\nquit\n", env=env)
    assert record.load(tmp_path / "c.json").moves[0] == "move g1-f3", r.output


def test_the_web_table_takes_an_alias_and_stores_the_moves_own_notation(tmp_path):
    from meeple.web.app import create_app
    from meeple.web.store import SQLiteStore
    from meeple.web.tables import Tables
    from starlette.testclient import TestClient
    tables = Tables(SQLiteStore(tmp_path / "tables.sqlite"))
    table = tables.create("chess", interpreter.load("chess"), 2, [], None, 1, {})
    white = "/t/" + table.links()[0]
    with TestClient(create_app(tables)) as client:
        answer = client.post(white + "/moves", json={"move": "Nf3"})
        assert answer.json() == {"ok": True, "played": "move g1-f3", "version": 1}, answer.text
    assert list(table.stored.moves) == ["move g1-f3"]


def test_an_alias_leaves_the_kernel_code_of_the_rest_as_it_was(tmp_path):
    """Chess's alias calls legal_now() in a loop: were it counted with the rules, the
    functions it calls would be memoised (a change of every engine's code) for a
    declaration that no game runs."""
    from meeple.interpreter.native import kernel
    text = (Path(__file__).resolve().parent.parent / "rulesets" / "chess" / "chess.meeple") \
        .read_text(encoding="utf-8")
    start = text.index('alias "move"(mv) =')
    plain = text[:start] + text[text.index("function legal_now", start):]
    folder = tmp_path / "chess"
    folder.mkdir()
    (folder / "chess.meeple").write_text(plain, encoding="utf-8")
    with_alias = interpreter.load("chess").for_players(2)
    without = interpreter.load(str(folder)).for_players(2)
    assert with_alias.checked.aliases and not without.checked.aliases
    assert kernel.Gen(with_alias).source() == kernel.Gen(without).source()


def test_a_hand_written_record_may_use_aliases():
    from meeple.interpreter import record
    chess = interpreter.load("chess")
    rec = record.Record("chess", 2, 0, [], None, ["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4"])
    game = record.replay(chess, rec)
    written = testing.play(chess.new_game(2, 0), "e2-e4", "c7-c5", "g1-f3", "d7-d6", "d2-d4",
                           "c5-d4", "f3-d4")
    assert game.state == written.state


def test_the_line_editor_completes_each_moves_first_alias():
    import io

    from meeple.cli import line_input, render
    from meeple.cli.play import HUMAN, PlaySession
    game = interpreter.load("chess").new_game(2, 0)
    c = render.console(file=io.StringIO(), width=100)
    words = PlaySession(c, game, [HUMAN, HUMAN], {}, None, None, Path("unused.json")).words()
    assert line_input.completions("N", words) == ["Na3", "Nc3", "Nf3", "Nh3"]
    assert "e4" in words and "e2e4" not in words and "move e2-e4" in words
