"""Checks every example of the language reference (docs/language.md, and
docs/tutorial.md when it exists), and that the reference stays in sync with the
implementation.

Conventions (also explained at the top of docs/language.md):

* a ```meeple block starting with ``ruleset NAME`` is a complete file: it must load
  without errors, and games of it are played with random moves;
* a block starting with ``variant NAME`` or ``locale NAME`` has a ``# base: NAME``
  comment naming a ruleset block of the docs (or a bundled ruleset); it is applied to
  that base and must load;
* any other ```meeple block is a fragment: declarations are added to the ``examples``
  ruleset of docs/language.md (replacing its declarations with the same key), and
  statements become a procedure that is called at the end of its setup; the result
  must load and start a 2-player game;
* a ```meeple-error block must fail with the code of its ``# error: CODE`` comment:
  when loaded, or (``rule/...`` codes) while a game is played;
* a ```meeple block with a ``# warning: CODE`` comment must load with exactly that
  warning; every other ```meeple block must load without warnings;
* a Markdown table with the columns "Expression" and "Value" is evaluated in the
  examples ruleset (2 players, after its setup): the two expressions of each row must
  be equal;
* a complete ruleset block must also pass the checks of ``meeple test`` on a few games
  (``interpreter.invariants.play_and_check``), unless a ``# fails: NAME`` comment names
  the invariant it breaks on purpose; a locale block is loaded with the variant blocks of
  its base beside it, as in a folder;
* a ```meeple block whose first line is ``# quoted from FILE`` is an excerpt of that
  bundled file and must appear in it as written;
* a ```python block runs in a folder holding every complete ruleset block as
  ``NAME.meeple`` (and the worked example as ``rulesets/frog_race/``); its ``test_*``
  functions are called, and a ```text block right after it is what it must print.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from docs_support import (
    ALL_BLOCKS,
    CARDS,
    CLAIM,
    COMPLETE,
    DOC_FILES,
    DOC_TEXT,
    ERRORS,
    EXAMPLES,
    FLAT_DOC,
    FRAGMENTS,
    GRAMMAR,
    LANGUAGE,
    MEEPLE,
    OVERLAYS,
    PYTHON,
    QUOTES,
    ROOT,
    RULESETS,
    Block,
    _load,
    _load_error,
    _no_code,
    _players,
    _program,
    _prose,
    _run,
    _sources,
    assert_warnings,
    compile_block,
    compile_fragment,
    play_randomly,
)
from meeple.dsl import ast as ir, boards, builtins, check, errors
from meeple.dsl.load import read_sources, resolve_path
from meeple.dsl.parse import parse
from meeple.interpreter.analysis import invariants, testing
from meeple.interpreter.analysis.invariants import Config, Failure, play_and_check
from meeple.interpreter.play import helpers, runtime, views
from meeple.interpreter.play.helpers import RuleError

from meeple import interpreter


def test_the_docs_have_examples():
    assert "examples" in RULESETS
    assert len(MEEPLE) > 40 and len(ERRORS) > 10
    assert {b.comment("warning") for b in MEEPLE} >= {"check/unused-text", "check/unknown-placeholder"}


@pytest.mark.parametrize("block", COMPLETE, ids=lambda b: f"{b.id}-{b.header[1]}")
def test_complete_ruleset_blocks_load_and_play(block):
    prog = compile_block(block)
    assert_warnings(block, prog)
    for n in _players(prog):
        for seed in range(2):
            play_randomly(prog.new_game(n, seed), seed)


@pytest.mark.parametrize("block", COMPLETE, ids=lambda b: f"{b.id}-{b.header[1]}")
def test_complete_ruleset_blocks_pass_the_checks_of_meeple_test(block):
    prog = compile_block(block)
    cfgs = [Config(n) for n in _players(prog)]
    fails = block.comment("fails")
    if fails:  # broken on purpose: the search finds the invariant it names
        failure = invariants.explore(lambda c: prog, cfgs, 30, 0, invariants.Stats())
        assert failure is not None and failure.check == f"invariant '{fails}'", failure
        return
    for c in cfgs:
        for seed in range(3):
            play_and_check(prog, c, seed, [seed * 7 + i for i in range(80)])


@pytest.mark.parametrize("block", OVERLAYS, ids=lambda b: f"{b.id}-{b.header[1]}")
def test_variant_and_locale_blocks_load_and_play(block):
    prog = compile_block(block)
    assert_warnings(block, prog)
    for n in _players(prog)[:2]:
        play_randomly(prog.new_game(n, 1), 1)


@pytest.mark.parametrize("block", FRAGMENTS, ids=lambda b: b.id)
def test_fragments_check_and_run_in_the_examples_ruleset(block):
    prog, mode = compile_fragment(block.text, f"{block.doc.name}:{block.line}")
    assert_warnings(block, prog)
    game = prog.new_game(2, 0)  # runs the setup, and the statements of the fragment
    if mode == "statements":
        assert game.state["phase"] != "setup" or game.decision is not None


@pytest.mark.parametrize("block", ERRORS, ids=lambda b: b.id)
def test_error_blocks_fail_with_their_code(block):
    code = block.comment("error")
    assert code, f"{block.id}: a meeple-error block needs an '# error: CODE' comment"
    runtime_error = code.startswith("rule/")
    try:
        if block.header:
            prog = compile_block(block)
        else:
            prog, _ = compile_fragment(block.text, f"{block.doc.name}:{block.line}")
    except errors.MeepleError as e:
        assert not runtime_error, f"expected {code} during a game, got:\n{e.render()}"
        assert e.diagnostics[0].code == code, e.render()
        return
    assert runtime_error, f"{block.id}: loads without the error {code}"
    with pytest.raises(RuleError) as info:
        play_randomly(prog.new_game(max(prog.min_players, 2), 0))
    assert info.value.code == code, str(info.value)


# ---------------------------------------------------------------- quoted files, Python

@pytest.mark.parametrize("block", QUOTES, ids=lambda b: b.id)
def test_quoted_excerpts_are_in_their_files(block):
    real = (ROOT / block.quoted_from).read_text(encoding="utf-8")
    excerpt = block.text.split("\n", 1)[1]
    assert excerpt.strip() and excerpt in real


def _output_of(block: Block) -> str | None:
    """The text block right after a block, if there is one."""
    i = ALL_BLOCKS.index(block)
    if i + 1 < len(ALL_BLOCKS):
        after = ALL_BLOCKS[i + 1]
        between = block.doc.read_text(encoding="utf-8")[block.end:after.start]
        if after.doc == block.doc and after.lang == "text" and not between.strip():
            return after.text
    return None


@pytest.mark.parametrize("block", PYTHON, ids=lambda b: b.id)
def test_python_blocks_run(block, tmp_path, monkeypatch, capsys):
    for name, b in RULESETS.items():
        (tmp_path / f"{name}.meeple").write_text(b.text, encoding="utf-8")
    _frog_race(tmp_path / "rulesets")
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "doc_example"}
    exec(compile(block.text, block.id, "exec"), namespace)  # noqa: S102 - the docs' own code
    for name, fn in list(namespace.items()):
        if name.startswith("test_") and callable(fn):
            fn()
    expected = _output_of(block)
    if expected is not None:
        assert capsys.readouterr().out.strip() == expected.strip()


def test_the_python_examples_are_checked():
    outputs = [b for b in PYTHON if _output_of(b) is not None]
    assert len(PYTHON) >= 7 and len(outputs) >= 5
    assert sum("def test_" in b.text for b in PYTHON) >= 1


# ---------------------------------------------------------------- expression tables

def _tables(text: str) -> list[tuple[int, str, str]]:
    """(line, expression, value) for every row of the Expression | Value tables."""
    rows, lines = [], text.splitlines()
    for i, line in enumerate(lines):
        if re.match(r"\|\s*Expression\s*\|\s*Value\s*\|", line):
            j = i + 2
            while j < len(lines) and lines[j].startswith("|"):
                cells = [c.strip() for c in lines[j].strip().strip("|").split("|")]
                a, b = (re.fullmatch(r"`(.*)`", c).group(1) for c in cells[:2])
                rows.append((j + 1, a, b))
                j += 1
    return rows


TABLE_ROWS = [(d, *row) for d in DOC_FILES for row in _tables(d.read_text(encoding="utf-8"))]


def _evaluate(rows):
    decls, stmts = [], []
    for k, (_, _, a, b) in enumerate(rows):
        decls.append(f"var doc_{k}: bool = false")
        stmts.append(f"doc_{k} = ({a}) == ({b})")
    variant = "variant doc_eval\n" + "\n".join(decls) + "\nextend setup {\n" + "\n".join(stmts) + "\n}\n"
    src = _sources({"examples.meeple": EXAMPLES, "variants/doc_eval.meeple": variant})
    game = interpreter.compile_sources(src, ["doc_eval"]).new_game(2, 0)
    return [game.state["vars"][f"doc_{k}"] for k in range(len(rows))]


def test_expression_tables():
    assert len(TABLE_ROWS) > 60
    try:
        results = _evaluate(TABLE_ROWS)
    except errors.MeepleError:  # find the rows that do not check, one by one
        bad = []
        for row in TABLE_ROWS:
            try:
                _evaluate([row])
            except errors.MeepleError as e:
                bad.append(f"{row[0].name}:{row[1]}: {row[2]}: {e.diagnostics[0].message}")
        pytest.fail("\n".join(bad))
    wrong = [f"{d.name}:{line}: {a} is not {b}"
             for (d, line, a, b), ok in zip(TABLE_ROWS, results) if not ok]
    assert not wrong, "\n".join(wrong)


# ---------------------------------------------------------------- what the examples claim

def _notations(prog, zone_key: str, game) -> list[str]:
    return [prog.items[i].notation for i in testing.at(game, zone_key)]


def test_examples_ruleset_position_after_setup():
    prog = _program("examples")
    game = prog.new_game(2, 0)
    assert _notations(prog, "hand:0", game) == ["blue-8", "blue-6", "blue-4"]
    assert _notations(prog, "hand:1", game) == ["blue-7", "blue-5", "blue-3"]
    assert _notations(prog, "draw", game) == [f"red-{v}" for v in range(1, 9)] + ["green-1"]
    grid = [_notations(prog, f"grid:r{r}c{c}", game)[0] for r in (1, 2, 3) for c in (1, 2, 3)]
    assert grid == ["blue-2", "blue-1"] + [f"green-{v}" for v in range(8, 1, -1)]
    for n in (3, 4):
        play_randomly(prog.new_game(n, n), n)


def test_deal_goes_round_the_table_from_the_active_player():
    prog = _program("deal_demo")
    game = prog.new_game(3, 0)
    values = {k: [prog.items[i].attrs["value"] for i in testing.at(game, k)]
              for k in ("hand:0", "hand:1", "hand:2", "pile")}
    assert values == {"hand:1": [7, 4], "hand:2": [6, 3], "hand:0": [5, 2], "pile": [1]}


def test_notation_and_option_order():
    game = _program("notation_demo").new_game(2, 0)
    assert testing.notations(game) == ["play spades-2", "play hearts-2"]
    game.apply("play spades-2")
    assert testing.notations(game) == ["call spades", "call hearts"]  # declaration order
    game.apply("SPADES")  # without the verb, in any case
    assert testing.notations(game) == ["take spades-2+hearts-2"]
    game.apply(0)
    assert testing.notations(game) == ["tie spades-2", "tie hearts-2"]
    assert game.active_player == 0


def _line_demo_values(exprs):
    text = RULESETS["line_demo"].text + "".join(
        f"var doc_{k}: bool = false\n" for k in range(len(exprs)))
    text += "setup {\n" + "".join(f"  doc_{k} = ({a}) == ({b})\n"
                                  for k, (a, b) in enumerate(exprs)) + "}\n"
    (tmp := Path(__import__("tempfile").mkdtemp()) / "line_demo.meeple").write_text(text)
    game = interpreter.load(str(tmp)).new_game(2, 0)
    return [game.state["vars"][f"doc_{k}"] for k in range(len(exprs))]


def test_a_relation_of_three_cells():
    claims = [("line(cell(1, 1))",
               "[[cell(1, 2), cell(1, 3)], [cell(2, 1), cell(3, 1)], [cell(2, 2), cell(3, 3)]]"),
              ("line(cell(1, 1), cell(2, 2))", "[cell(3, 3)]"),
              ("line(cell(1, 1), cell(2, 2), cell(3, 3))", "true"),
              ("line(cell(1, 1), cell(2, 2), cell(3, 2))", "false"),
              ("line(cell(2, 2), cell(1, 2))", "[]"),  # r0c2 is off the board
              ("line(cell(1, 2))", "[[cell(2, 2), cell(3, 2)]]")]
    assert _line_demo_values(claims) == [True] * len(claims)
    for a, b in claims[:3]:
        assert f"`{a}` is\n`{b}`" in DOC_TEXT or f"`{a}` is `{b}`" in FLAT_DOC
    game = _program("line_demo").new_game(2, 0)
    for m in ["place r1c1", "place r3c3"]:
        game.apply(m)
    assert not game.over
    game.apply("place r2c2")  # the middle last
    assert game.over
    # the cells of a relation of more than two cells are of one board
    bad = RULESETS["line_demo"].text.replace(
        "board grid: grid(rows: 3, cols: 3) holds Stone",
        "board grid: grid(rows: 3, cols: 3) holds Stone\nboard side: grid(rows: 1, cols: 2) holds Stone"
    ).replace("c: grid) =", "c: side) =")
    d = _load_error(bad)
    assert d.code == "check/type-mismatch"
    assert "relates cells of one board" in d.message


def test_two_kinds_on_two_layers():
    game = _program("layers_demo").new_game(2, 0)
    assert testing.notations(game)[0] == "fall field.r1c1"
    game.apply("fall field.r1c1")
    zones = views.view(game, 0)["zones"]
    assert zones["field:r1c1"] == [] and len(zones["flags:r1c1"]) == 1
    assert "there is no\n`holds Piece or Flag`" in DOC_TEXT
    # no union of kinds: a board holds one kind
    d = _load_error(RULESETS["layers_demo"].text.replace(
        "grid(rows: 1, cols: 3) holds Piece", "grid(rows: 1, cols: 3) holds Piece or Flag"))
    assert d.code.startswith("parse/")


def test_fences_stand_on_the_edges_between_cells():
    game = _program("fences_demo").new_game(2, 0)
    assert testing.notations(game) == ["step b1", "step a2"]
    game.apply("step b1")
    fences = testing.notations(game)
    assert len(fences) == 12 and fences[:3] == ["fence side.a1-b1", "fence side.a1-a2", "fence side.b1-c1"]
    game.apply("fence side.a1-b1")
    # the fence closes the side between a1 and b1: no step back to a1
    assert testing.notations(game) == ["step c1", "step b2"]
    assert len(views.view(game, 0)["zones"]["side:a1-b1"]) == 1
    # a third fence would cut c3 off: it is not offered (the others are)
    game = _program("fences_demo").new_game(2, 0)
    for m in ["step b1", "fence side.b1-c1", "step b2", "fence side.b2-c2", "step b3"]:
        game.apply(m)
    fences = testing.notations(game)
    assert "fence side.b3-c3" not in fences and "fence side.a3-b3" in fences and len(fences) == 9
    game.apply("fence side.a3-b3")
    game.apply("step c3")
    assert game.over and game.result["outcomes"] == ["win", "loss"]


def test_a_move_without_an_object():
    rules = _program("pass_demo")
    game = rules.new_game(2, 0)
    assert testing.notations(game) == ["pass", "play 3"]
    game.apply("play 3")
    assert testing.notations(game) == ["pass", "play 2"]
    game.apply("pass")
    assert game.state["pending"]["alone"] == "pass"
    game = rules.resume(json.loads(json.dumps(game.state)))  # a saved state resumes
    assert testing.notations(game) == ["pass"]  # an empty hand: no error, only the verb
    game.apply("PASS")
    assert game.over
    assert "`pass` and\n`play 3`" in DOC_TEXT
    # without 'or', the pending decision keeps its old shape
    assert "alone" not in _program("notation_demo").new_game(2, 0).state["pending"]
    d = _load_error(RULESETS["pass_demo"].text.replace('or "pass"', 'or "play"'))
    assert d.code == "check/bad-value"
    assert "the two verbs are both 'play'" in d.message


def test_several_moves_without_an_object():
    # language.md 6.6: draw_demo's moves, and what 'how' holds, as the text says
    rules = _program("draw_demo")
    game = rules.new_game(2, 0)
    assert testing.notations(game) == ["draw", "pass", "play 4"]
    assert "`draw`, `pass` and `play 4`" in DOC_TEXT
    game.apply("draw")
    assert game.state["pending"]["alone"] == ["draw", "pass"]
    game.apply("pass")
    assert testing.notations(game) == ["draw", "pass", "play 2", "play 4"]
    assert "`draw`, `pass`, `play 2` and `play 4`" in DOC_TEXT
    game.apply("play 4")
    assert game.state["vars"]["passes"] == 0
    d = _load_error(RULESETS["draw_demo"].text.replace('or "draw" or "pass"', 'or "pass" or "pass"'))
    assert d.code == "check/bad-value" and "offered twice" in d.message


def test_the_parts_of_tuples_beside_a_move_without_an_object():
    # language.md 6.6: place_or_pass's moves, and its parts none after "pass"
    game = _program("place_or_pass").new_game(2, 0)
    notations = testing.notations(game)
    assert notations[:2] == ["pass", "place a1 turn left"] and notations[-1] == "place b2 turn right"
    assert len(notations) == 9 and "`pass`, then `place a1 turn left` .. `place b2 turn right`" in DOC_TEXT
    game.apply("pass")
    game.apply("place b1 turn right")
    assert game.state["vars"] == {"passes": 0, "rights": 1}
    game.apply("pass")
    game.apply("pass")
    assert game.over and game.result["scores"] == [1, 1]


def test_a_choose_of_a_local_s_name_sets_that_local():
    # language.md 6.1: asked again in a branch, `choose n` sets the n of the turn
    rules = _load("ruleset ask_again\nplayers 2..2\nvar got: int = 0\nvar done: bool = false\n"
                  "turn {\n  choose n from [1, 2] as \"first\"\n  if n == 1 {\n"
                  "    choose n from [5, 6] as \"second\"\n  }\n  got = n\n  done = true\n}\n"
                  "end when done\nscore(p) = got\n")
    for moves, got in ((["first 1", "second 6"], 6), (["first 2"], 2)):
        game = rules.new_game(2, 0)
        testing.play(game, *moves)
        assert game.over and game.result["scores"] == [got, got]
    assert "and for a `choose` of such a name" in DOC_TEXT


def test_a_move_over_two_cells():
    game = _program("slide_demo").new_game(2, 0)
    assert testing.notations(game) == ["slide r1c1+r1c2", "slide r1c1+r2c1"]
    game.apply("slide r1c1+r1c2")
    assert testing.notations(game) == ["slide r1c2+r1c1", "slide r1c2+r2c2"]
    assert "`slide r1c1+r1c2` and\n`slide r1c1+r2c1`" in DOC_TEXT


def test_hidden_information_in_views_and_messages():
    game = _program("hidden_demo").new_game(2, 0)
    assert game.over
    mine, theirs = views.view(game, 0), views.view(game, 1)
    assert mine["log"] == ["Player 1 draws a card", "Player 1 drew card 2", "Player 1 plays card 2"]
    assert theirs["log"] == ["Player 1 draws a card", "Player 1 drew a card", "Player 1 plays card 2"]
    assert views.view(game, views.SPECTATOR)["log"] == theirs["log"]
    assert theirs["zones"]["hand:0"] == {"count": 1}
    assert theirs["zones"]["pile"] == {"count": 1}
    assert isinstance(mine["zones"]["hand:0"], list)


def test_log_templates_and_their_translation():
    base = _program("message_demo").new_game(2, 0)
    assert views.view(base, 0)["log"] == ["Player 1 plays 3 and keeps 2"]
    fr = next(b for b in OVERLAYS if b.header == ("locale", "fr") and b.comment("base") == "message_demo")
    game = compile_block(fr).new_game(2, 0)
    assert views.view(game, 0)["log"] == ["Joueur 1 joue 3 (il en reste 2)"]


def test_shared_win():
    game = _program("shared_win").new_game(3, 0)
    assert game.result["winners"] == [0, 1] and game.result["ranking"] == [[0, 1], [2]]
    assert game.result["ranks"] == [1, 1, 3] and game.result["outcomes"] == ["win", "win", "loss"]
    assert game.result["draw"] is False
    game = _program("shared_win").new_game(2, 0)
    assert game.result["outcomes"] == ["draw", "draw"] and game.result["draw"] is True
    assert game.result["winners"] == [] and game.result["ranks"] == [1, 1]


def test_against_the_bank_outcomes_by_rule():
    """Standing on 8 beats the bank (6), on 6 draws, on 4 loses, whatever the others do."""
    prog = _program("against_the_bank")
    for n in (1, 2, 3):
        for choice in range(3):
            game = prog.new_game(n, 0)
            while not game.over:
                game.apply(choice)
            expected = ["loss", "draw", "win"][choice]
            assert game.result["outcomes"] == [expected] * n
            assert game.result["draw"] == (expected == "draw" and True)
            assert game.result["winners"] == ([] if expected != "win" else list(range(n)))
    game = prog.new_game(3, 0)
    for c in (2, 0, 1):
        game.apply(c)
    assert game.result["outcomes"] == ["win", "loss", "draw"] and game.result["ranks"] == [1, 3, 2]
    assert game.result["draw"] is False


def test_an_outcome_can_read_the_place():
    for n in (2, 4):
        r = _program("tied_players_share_the_victory").new_game(n, 0).result
        assert r["outcomes"] == ["win"] * n and r["winners"] == list(range(n)) and not r["draw"]


def test_a_dealer_participant_scores_without_being_a_seat():
    prog = _program("dealer_duel")
    seen = set()
    for seed in range(40):
        for choice, outcome in ((0, "loss"), (2, "win")):
            game = prog.new_game(1, seed)
            game.apply(choice)
            r = game.result
            dealer = r["participants"]["dealer"]
            seen.add(dealer)
            assert r["outcomes"] == [outcome] and r["scores"] == [[16, 18, 21][choice]]
            assert len(r["ranks"]) == 1 and dealer in (17, 18, 19, 20)
        game = prog.new_game(1, seed)
        game.apply(1)                                     # 18 against the dealer
        d = game.result["participants"]["dealer"]
        assert game.result["outcomes"] == ["win" if d < 18 else "draw" if d == 18 else "loss"]
    assert seen == {17, 18, 19, 20}


def test_partners_share_their_team_result():
    game = _program("partners").new_game(4, 0)
    for c in (1, 0, 0, 0):      # Player 1 takes 2, the others 1: team (1, 3) has 3, (2, 4) 2
        game.apply(c)
    r = game.result
    assert r["teams"] == [{"seats": [0, 2], "score": 3, "rank": 1},
                          {"seats": [1, 3], "score": 2, "rank": 2}]
    assert r["outcomes"] == ["win", "loss", "win", "loss"] and r["ranks"] == [1, 2, 1, 2]
    assert r["ranking"] == [[0, 2], [1, 3]] and r["winners"] == [0, 2]


def test_sealed_bid_payoffs_are_the_winners_gain():
    prog = _program("sealed_bid")
    game = prog.new_game(2, 0)
    game.apply(next(m for m in game.legal_moves() if m.notation == "bid 2"))
    game.apply(next(m for m in game.legal_moves() if m.notation == "bid 5"))
    assert game.result["payoffs"] == [0, 1] and game.result["winners"] == [1]
    for choices in ((0, 0), (1, 0), (0, 1), (1, 1)):       # pennies: always zero-sum
        game = _program("pennies").new_game(2, 0)
        for c in choices:
            game.apply(c)
        first = 1 if choices[0] == choices[1] else -1
        assert game.result["payoffs"] == [first, -first]


def test_active_in_a_score_is_the_player_of_the_last_turn():
    for players, scores in ((2, [0, 1]), (3, [1, 0, 0])):
        game = _program("last_mover_bonus").new_game(players, 0)
        while not game.over:
            game.apply(game.legal_moves()[0])
        assert game.result["scores"] == scores


def test_budget_example():
    prog = compile_block(next(b for b in ERRORS if b.header == ("ruleset", "endless")))
    with pytest.raises(RuleError) as info:
        prog.new_game(2, 0)
    assert info.value.code == "rule/budget"
    assert "max of 1000" in str(info.value)


def _ir(decls) -> list[str]:
    return [ir.show(d) for d in decls]


def test_the_quoted_cherokee_variant_is_the_real_one():
    block = next(b for b in OVERLAYS if b.header == ("variant", "open_clans"))
    real = read_sources(resolve_path("cherokee")).variants["open_clans"]
    assert _ir(parse(block.text).decls) == _ir(real.decls)


def test_the_cherokee_setup_deals_the_clans_in_a_procedure():
    src = read_sources(resolve_path("cherokee"))
    decls = src.base.decls
    setup = next(d for d in decls if d.node == "SetupDecl")
    calls = [s.proc for s in setup.body.stmts if s.node == "CallProc"]
    assert calls == ["deal_clans", "choose_start_player"]
    deal = next(d for d in decls if d.node == "ProcedureDecl" and d.name == "deal_clans")
    assert [ir.show(s) for s in deal.body.stmts] == [
        ir.show(s) for s in parse("ruleset x procedure p() { shuffle clan_pile\n deal 1 from clan_pile to clan }").decls[0].body.stmts]
    assert ("`procedure deal_clans()` (`shuffle clan_pile`, `deal 1 from clan_pile to clan`), called before "
            "`call choose_start_player()`") in FLAT_DOC
    # the variant's neutral clans are laid out before the Dutch start player is chosen
    game = interpreter.load("cherokee", ["open_clans"], "nl").new_game(3, 0)
    assert testing.notations(game)[0] == "start p1" and len(testing.at(game, "neutral")) == 2
    # the two messages of a turn in which the player passes
    logs = {s.key: s.template for s in ir.walk(next(d for d in decls if d.node == "TurnDecl"))
            if s.node == "Log"}
    assert logs == {"no_cards": "{active} has no hand card left and passes",
                    "passes": "{active} cannot attack and passes",
                    "chased": logs["chased"]}
    assert ('"Player 1 has no hand card left and passes" when the hand is empty, '
            '"Player 1 cannot attack and passes" when no attack is possible') in FLAT_DOC


def test_the_quoted_dutch_locale_is_part_of_the_real_one():
    block = next(b for b in OVERLAYS if b.header == ("locale", "nl"))
    real = set(_ir(read_sources(resolve_path("cherokee")).locales["nl"].decls))
    assert set(_ir(parse(block.text).decls)) <= real


def test_dutch_cherokee_turn_order():
    prog = interpreter.load("cherokee", locale="nl")
    assert prog.direction == -1
    game = prog.new_game(3, 5)
    assert testing.notations(game) == ["start p1", "start p2", "start p3"]
    assert game.active_player == 0
    game.apply("start p2")
    seen = {}  # turn number -> active player
    while not game.over and len(seen) < 4:
        seen[game.state["turn"]] = game.state["active"]
        game.apply(0)
    assert len(seen) >= 3
    assert all(active == [1, 0, 2][turn % 3] for turn, active in seen.items())  # seats 2, 1, 3


# ---------------------------------------------------------------- claims of the prose

def test_end_condition_is_checked_after_setup_and_after_each_turn():
    game = _run("var n: int = 0\nsetup { n = 5 }\nturn { n = n + 1 }\nend when n >= 5")
    assert game.over and game.state["vars"]["n"] == 5 and game.state["turn"] == 0
    game = _run("var n: int = 0\nturn { n = n + 1\n n = n + 1 }\nend when n >= 1")
    assert game.state["vars"]["n"] == 2 and game.state["turn"] == 1  # not in the middle of a turn


def test_end_game_skips_the_rest_then_at_end_then_scores():
    game = _run("var n: int = 0\nturn { n = 1\n end game\n n = 2 }\nat end { n = n + 10 }\n"
                "score(p) = n + seat(p)")
    assert game.state["vars"]["n"] == 11
    assert game.result["scores"] == [12, 13] and game.result["winners"] == [1]


def test_turns_pass_to_the_player_after_active():
    game = _run("var seen: list of int = []\nvar k: int = 0\n"
                "turn { seen = seen + [seat(active)]\n k = k + 1\n"
                " if k == 2 { active = players[2] } }\nend when k >= 5", players=4)
    assert game.state["vars"]["seen"] == [1, 2, 4, 1, 2]
    game = _run("order counterclockwise\nvar seen: list of int = []\n"
                "turn { seen = seen + [seat(active)] }\nend when size(seen) >= 4", players=3)
    assert game.state["vars"]["seen"] == [1, 3, 2, 1]


def test_the_heuristic_example_values_each_player_by_its_own_standing():
    block = next(b for b in ALL_BLOCKS if b.lang == "meeple" and "ruleset race_to_ten" in b.text)
    game = interpreter.compile_sources(_sources({"race_to_ten.meeple": block.text})).new_game(2, 0)
    assert (game.has_heuristic, game.heuristic(0), game.heuristic(1)) == (True, 0, 0)
    game.apply("run 3")
    assert (game.heuristic(0), game.heuristic(1)) == (30, 0)   # as the text says
    plain = _run("var done: bool = false\nturn { done = true }\nend when done")
    assert not plain.has_heuristic and plain.heuristic(0) is None


def test_a_heuristic_is_an_int_and_its_errors_are_located():
    assert _load_error(CLAIM + "var n: int = 0\nturn { n = 1 }\nend when n == 1\n"
                       "heuristic(p) = n == 1").code == "check/type-mismatch"
    game = _run("var n: int = 0\nturn { n = 1 }\nend when n == 1\nheuristic(p) = 10 / (n - 1)")
    with pytest.raises(RuleError, match=r"in the heuristic at claim.meeple:7:16: division by zero"):
        game.heuristic(0)


def test_meeple_test_evaluates_the_heuristic_in_every_state():
    turn = "var n: int = 0\nturn { choose x from [1] as \"go\"\n n = n + x }\nend when n >= 3\n"
    prog = _load(CLAIM + turn + "heuristic(p) = 6 / (2 - n)\n")
    with pytest.raises(Failure) as info:
        play_and_check(prog, Config(2), 0, [])
    assert info.value.check == "heuristic" and info.value.moves == ["go 1", "go 1"]
    assert "could not be evaluated (move 2): in the heuristic at" in info.value.message
    assert "division by zero" in info.value.message and info.value.span.line == 7
    play_and_check(_load(CLAIM + turn + "heuristic(p) = 6 / (5 - n)\n"), Config(2), 0, [])


def test_tiebreaks_in_order_and_higher_is_better():
    game = _run("var done: bool = false\nturn { done = true }\nend when done\n"
                "score(p) = 1\ntiebreak a(p) = if seat(p) == 1 then 0 else 1\n"
                "tiebreak b(p) = seat(p)", players=3)
    assert game.result["ranking"] == [[2], [1], [0]]
    assert game.result["tiebreaks"] == {"a": [0, 1, 1], "b": [1, 2, 3]}


def test_move_and_lists():
    game = _run(CARDS + "var order: list of int = []\nvar done: bool = false\n"
                "turn { move bottom(pile) to pile\n"          # already there: no change
                " move top(pile, 2) to other\n"                 # 4 then 3: 3 on top
                " move items(other) to hand(active)\n"          # keeps the stack order
                " for c in items(pile) { move c to other }\n"   # the loop list is fixed
                " order = [c.value for c in items(hand(active))] + [c.value for c in items(other)]\n"
                " done = true }\nend when done")
    assert game.state["vars"]["order"] == [4, 3, 1, 2]


def test_reveal_makes_a_zone_public_for_good():
    game = _run(CARDS + "var done: bool = false\n"
                "turn { reveal other\n move top(pile) to other\n done = true }\nend when done")
    assert views.view(game, views.SPECTATOR)["zones"]["other"] == testing.at(game, "other")


def test_decisions():
    game = _run(CARDS + "var done: bool = false\n"
                "turn { choose c from [top(pile)] as \"take\"\n"
                " best b in items(pile) by b.value > 2 tie first\n"
                " best x in items(pile) by 0 tie choose by players[1]\n done = true }\nend when done")
    assert testing.notations(game) == ["take 4"]  # a single option is still a move
    game.apply(0)
    assert game.active_player == 1 and testing.notations(game) == ["tie 1", "tie 2", "tie 3", "tie 4"]
    assert game.state["stack"][-1]["L"]["b"] == testing.item(game.program, value=3)  # tie first


def test_randomness_is_seeded():
    body = CARDS + ("var seen: list of int = []\nsetup { shuffle pile }\n"
                    "turn { pick c at random from items(pile)\n"
                    " best b in items(pile) by 0 tie random\n"
                    " seen = seen + [c.value, b.value] }\nend when size(seen) >= 8")
    runs = [_run(body, seed=s).state["vars"]["seen"] for s in (1, 1, 2, 3, 4)]
    assert runs[0] == runs[1]
    assert len({tuple(r) for r in runs}) > 1


def test_a_rule_error_undoes_the_move():
    game = _run(CARDS + "var done: bool = false\n"
                "turn { choose c from items(pile)\n move c to other\n move top(hand(active)) to pile\n"
                " done = true }\nend when done")
    before = game.to_json()
    with pytest.raises(RuleError) as info:
        game.apply(0)
    assert info.value.code == "rule/error" and "claim.meeple:" in str(info.value)
    assert game.to_json() == before


def test_budgets():
    with pytest.raises(RuleError) as info:
        _run("function f(n: int): int = f(n + 1)\nvar n: int = 0\nturn { n = f(0) }\nend when n > 0")
    assert info.value.code == "rule/budget"
    with pytest.raises(RuleError) as info:
        _run("var n: int = 0\nturn { n = size(1..100001) }\nend when n > 0")
    assert info.value.code == "rule/budget"
    with pytest.raises(RuleError) as info:
        _run("var n: int = 0\nturn { n = size(subsets([i for i in 1..17])) }\nend when n > 0")
    assert info.value.code == "rule/budget"
    with pytest.raises(RuleError) as info:
        _run("var n: int = 0\nturn { n = n + 1 }\nend when n < 0")  # nobody ever decides
    assert info.value.code == "rule/budget"


def test_variants_apply_in_order_and_locales_last(tmp_path):
    base = "ruleset v\ntitle \"V\"\nplayers 2..2\nvar n: int = 1\nturn { n = n * 10 }\nend when n > 5\n"
    a = "variant a\ntitle \"A\"\nreplace var n: int = 2\nextend turn { n = n + 1 }\n"
    b = "variant b\nreplace var n: int = 3\nextend turn { n = n + 2 }\n"
    loc = "locale xx\nlanguage \"Xx\"\ntitle \"Vé\"\nreplace var n: int = 4\n"
    src = _sources({"v.meeple": base, "variants/a.meeple": a, "variants/b.meeple": b,
                    "locales/xx.meeple": loc})
    prog = interpreter.compile_sources(src, ["a", "b"])
    assert prog.new_game(2).state["vars"]["n"] == 33  # 3 * 10 + 1 + 2
    assert prog.title == "V" and prog.checked.variant_titles == {"a": "A", "b": "b"}
    prog = interpreter.compile_sources(src, ["b", "a"], "xx")
    assert prog.new_game(2).state["vars"]["n"] == 43  # the locale comes last
    assert prog.title == "Vé" and prog.checked.language == "Xx"


def test_overlay_conflicts():
    base = "ruleset v\nplayers 2..2\nvar n: int = 1\nname n \"N\"\nturn { n = 2 }\nend when n > 1\n"
    for overlay, ok in [("variant a\nvar n: int = 2\n", False),
                        ("variant a\nname n \"M\"\n", False),
                        ("variant a\nreplace name n \"M\"\n", True),
                        ("variant a\nreplace var m: int = 2\n", False),
                        ("variant a\nremove zone n\n", False),
                        ("variant a\nextend procedure p { n = 3 }\n", False),
                        ("variant a\nextend at end { n = 3 }\n", True),
                        ("locale a\nname n \"M\"\n", True),
                        ("locale a\nvar n: int = 2\n", False)]:
        src = _sources({"v.meeple": base, "x/a.meeple": overlay})
        kind = overlay.split()[0]
        try:
            interpreter.compile_sources(src, ["a"] if kind == "variant" else [],
                                        "a" if kind == "locale" else None)
            assert ok, overlay
        except errors.MeepleError as e:
            assert not ok, e.render()
            assert e.diagnostics[0].code == "overlay/conflict"


def test_load_errors(tmp_path):
    (tmp_path / "empty").mkdir()
    assert read_sources(tmp_path / "empty").diagnostics[0].code == "load/io"
    two = tmp_path / "two"
    two.mkdir()
    for n in ("a", "b"):
        (two / f"{n}.meeple").write_text(f"ruleset {n}\nplayers 1..1\nturn {{ end game }}\n")
    assert read_sources(two).diagnostics[0].code == "load/two-bases"
    src = read_sources(two / "a.meeple")
    for variants, locale, code in [(["nope"], None, "load/unknown-variant"),
                                   ([], "nope", "load/unknown-locale")]:
        with pytest.raises(errors.MeepleError) as info:
            interpreter.compile_sources(src, variants, locale)
        assert info.value.diagnostics[0].code == code


def test_a_move_that_is_not_legal():
    game = _program("notation_demo").new_game(2, 0)
    with pytest.raises(interpreter.IllegalMove) as info:
        game.apply("play clubs-1")
    assert info.value.code == "move/illegal"


def test_rendered_error_sample():
    """The sample error of section 15.1 is what the checker prints."""
    block = next(b for b in ERRORS if b.header == ("ruleset", "typo"))
    i = ALL_BLOCKS.index(block)
    shown = ALL_BLOCKS[i + 1]
    assert shown.lang == "text"
    with pytest.raises(errors.MeepleError) as info:
        compile_block(block)
    assert info.value.render().strip() == shown.text.strip()


# ---------------------------------------------------------------- the worked example

def _frog_race(tmp_path) -> Path:
    folder = tmp_path / "frog_race"
    (folder / "variants").mkdir(parents=True)
    (folder / "locales").mkdir()
    (folder / "frog_race.meeple").write_text(RULESETS["frog_race"].text, encoding="utf-8")
    for b in OVERLAYS:
        if b.comment("base") == "frog_race":
            kind, name = b.header
            (folder / f"{kind}s" / f"{name}.meeple").write_text(b.text, encoding="utf-8")
    return folder


def test_worked_example_plays_to_the_end(tmp_path):
    folder = _frog_race(tmp_path)
    src = read_sources(folder)
    assert not src.diagnostics
    assert set(src.variants) == {"long_pond", "big_hands"} and set(src.locales) == {"fr"}
    for variants, locale in [((), None), (("long_pond",), None), (("big_hands",), None),
                             (("long_pond", "big_hands"), "fr")]:
        prog = interpreter.load(str(folder), variants, locale)
        last = 15 if "long_pond" in variants else 10
        for n in (2, 3, 4):
            for seed in range(4):
                game = play_randomly(prog.new_game(n, seed), seed, max_moves=1000)
                assert game.over
                res = game.result
                assert len(res["scores"]) == n and set(res["winners"]) == set(res["ranking"][0])
                assert max(res["scores"]) <= last
                assert all(1 <= h <= n for h in res["tiebreaks"]["on_top"])


def test_worked_example_moves_and_messages(tmp_path):
    folder = _frog_race(tmp_path)
    game = interpreter.load(str(folder)).new_game(2, 1)
    notations = testing.notations(game)
    assert notations and all(re.fullmatch(r"jump [123]", m) for m in notations)
    assert notations == sorted(notations)
    game.apply(notations[-1])
    length = int(notations[-1].split()[1])
    log = views.view(game, 0)["log"]
    assert re.fullmatch(r"Player [12] starts", log[0])
    assert re.fullmatch(rf"Player [12] jumps {length} to pad {1 + length}", log[1])
    fr = interpreter.load(str(folder), locale="fr").new_game(2, 1)
    fr.apply(notations[-1])
    log = views.view(fr, 0)["log"]
    assert re.fullmatch(r"Joueur [12] commence", log[0])
    assert re.fullmatch(rf"Joueur [12] saute de {length} jusqu'au nénuphar {1 + length}", log[1])
    assert testing.notations(fr) == testing.notations(game)  # notation ignores the locale


# ---------------------------------------------------------------- the docs stay in sync

def test_the_embedded_grammar_is_the_grammar():
    lark = [b for b in ALL_BLOCKS if b.doc == LANGUAGE and b.lang == "lark"]
    assert len(lark) == 1
    assert lark[0].text.strip() == GRAMMAR.read_text(encoding="utf-8").strip()


def _grammar_names() -> set[str]:
    text = GRAMMAR.read_text(encoding="utf-8")
    rules = set(re.findall(r"^[?!]?([a-z][a-z0-9_]*)\s*:", text, re.M))
    aliases = set(re.findall(r"->\s*([a-z][a-z0-9_]*)", text))
    terminals = set(re.findall(r"^([A-Z][A-Z_]*)\s*:", text, re.M))
    return rules | aliases | terminals


def test_every_grammar_rule_is_documented():
    prose = _prose(DOC_TEXT)
    missing = sorted(n for n in _grammar_names() if f"`{n}`" not in prose)
    assert not missing, f"grammar rules not mentioned in docs/language.md: {missing}"


def test_every_builtin_is_documented():
    prose = _prose(DOC_TEXT)
    missing = sorted(n for n in builtins.BUILTINS if f"`{n}(" not in prose)
    assert not missing
    assert all(f"`{n}(e for" in prose for n in builtins.AGGREGATES)
    assert all(f"`{n}` ({c.meaning})" in prose for n, c in builtins.CONSTANTS.items())


def test_every_board_generator_is_documented():
    prose = _prose(DOC_TEXT)
    for name, g in boards.GENERATORS.items():
        row = next((ln for ln in prose.splitlines() if ln.startswith(f"| `{name}(")), None)
        assert row, name
        for word in g.names() + g.coords:
            assert f"`{word}`" in row, (name, word)


def test_every_colour_is_documented():
    assert all(f"`{c}`" in DOC_TEXT for c in check.COLORS)


def _error_codes() -> set[str]:
    """Every error code written in dsl/ and interpreter/, including the codes that
    interpreter/compiler/compile.py makes for what it builds before a game (``_static("deck", ...)``
    gives ``check/deck-not-constant``)."""
    codes = set()
    for folder in ("dsl", "interpreter"):
        for f in sorted((ROOT / folder).rglob("*.py")):
            text = f.read_text(encoding="utf-8")
            codes |= set(re.findall(r"[\"']((?:parse|check|load|overlay|rule|move|record)/[a-z-]+)[\"']", text))
            if 'f"check/{what}-not-constant"' in text:
                codes |= {f"check/{w}-not-constant" for w in re.findall(r'_static\(\s*"(\w+)"', text)}
    return codes


def test_every_error_code_is_documented():
    codes = _error_codes()
    assert {"check/board-not-constant", "check/deck-not-constant", "check/relation-not-constant",
            "check/board-size"} <= codes
    missing = sorted(c for c in codes if f"| `{c}` |" not in DOC_TEXT)
    assert not missing
    # and the table lists no code that does not exist (any more)
    table = set(re.findall(r"^\| `((?:parse|check|load|overlay|rule|move|record)/[a-z-]+)` \|", DOC_TEXT, re.M))
    assert table - codes == set()
    assert "relation-not-static" not in DOC_TEXT


def test_keywords_appendix_lists_the_grammar_words():
    words = set(re.findall(r'"([a-z]+)"', GRAMMAR.read_text(encoding="utf-8")))
    appendix = DOC_TEXT.split("## Appendix B", 1)[1]
    assert set(re.findall(r"`([a-z_]+)`", appendix)) == words


def test_budgets_are_documented_with_their_values():
    for value in (helpers.MAX_STEPS, helpers.MAX_CALLS, helpers.MAX_RANGE):
        assert f"| {value:,} |" in DOC_TEXT, value
    assert f"| {helpers.MAX_SUBSET_BASE} |" in DOC_TEXT
    assert f"{helpers.MAX_SUBSET_BASE} elements" in DOC_TEXT
    assert f"up to {errors.MAX_DIAGNOSTICS}" in DOC_TEXT
    assert f"latest {runtime.LOG_KEEP} messages" in DOC_TEXT


def test_internal_links_resolve():
    def anchor(title: str) -> str:
        t = re.sub(r"[^\w\- ]", "", title.strip().lower())
        return t.replace(" ", "-")
    for doc in DOC_FILES:
        text = doc.read_text(encoding="utf-8")
        anchors = {anchor(m) for m in re.findall(r"^#+ (.*)$", _no_code(text), re.M)}
        links = re.findall(r"\]\(#([^)]+)\)", text)
        assert links or doc.name == "tutorial.md"   # the tutorial links to the reference
        assert not [a for a in links if a not in anchors]


