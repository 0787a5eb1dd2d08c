"""Terminal play as a player meets it: what happened since a seat's last move after a
hand-over (as that seat may see it, never more), moves typed by a unique prefix, and
the words the line editor completes."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from meeple.cli import line_input
from meeple.cli.main import app
from meeple.interpreter.play import display, record, views
from typer.testing import CliRunner

from meeple import interpreter

TERMINAL = {"TTY_COMPATIBLE": "1", "TERM": "dumb", "COLUMNS": "80", "LINES": "24"}

PIG = (Path(__file__).parent / "testdata" / "pig.meeple").read_text(encoding="utf-8")


def run(*args, input: str, env: dict | None = None):
    r = CliRunner().invoke(app, [str(a) for a in args], input=input, env=env or TERMINAL)
    assert "Traceback" not in r.output, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return r


def segments(output: str) -> dict[str, list[str]]:
    """What each seat was shown: the output cut at each hand-over."""
    parts = re.split(r"Pass the terminal to (Player \d)\. Press Enter\.", output)
    out: dict[str, list[str]] = {}
    for i in range(1, len(parts), 2):
        out.setdefault(parts[i], []).append(parts[i + 1])
    return out


def turns(output: str) -> dict[str, list[str]]:
    """What each seat was shown in a game that hides nothing (no hand-over): the output
    cut where the turn screen's heading names another seat."""
    parts = re.split(r"─ [^\n]* — (Player \d) ─", output)
    out: dict[str, list[str]] = {}
    last = None
    for i in range(1, len(parts), 2):
        if parts[i] == last:
            out[last][-1] += parts[i + 1]
        else:
            out.setdefault(parts[i], []).append(parts[i + 1])
        last = parts[i]
    return out


def labels(prog, items) -> set[str]:
    return {x for i in items for x in (display.item_label(prog, i),
                                        display.item_label(prog, i, True),
                                        prog.items[i].notation)}


def test_after_a_hand_over_a_seat_reads_what_it_may_see_of_the_passes(tmp_path):
    """Hearts, four humans passing cards in secret: after each hand-over the seat is
    told who has chosen since its last move, and never which card (nor any card of
    another hand): the summary comes from its own view."""
    rec = tmp_path / "h.json"
    r = run("play", "hearts", "--seed", 1, "--record", rec, "--no-color", "--layout", "full",
            input="\n1\n1\n1\n" * 4 + "quit\n")
    assert r.exit_code == 0, r.output
    prog = interpreter.load("hearts")
    assert len(record.load(rec).moves) == 12
    game = prog.new_game(4, seed=1)   # (the hands as dealt: nothing moves before the passes)
    segs = segments(r.output)
    # Player 4, the last to pass, is told of the three others' passes (once each,
    # though each passed three cards)
    last = segs["Player 4"][0]
    assert "Since the game began" in last   # (Player 4 has not moved yet)
    for p in (1, 2, 3):
        assert last.count(f"Player {p} has chosen in secret.") == 1
    zones = game.state["zones"]
    for seat in range(4):
        hidden = [i for z, zone in enumerate(prog.zones)
                  if zone.owner is not None and zone.owner != seat
                  for i in zones[z]]
        assert hidden   # (the check is meaningful: the others hold cards)
        secret = labels(prog, hidden)
        for seg in segs[f"Player {seat + 1}"]:
            assert not [s for s in secret if s in seg], (seat, seg)


def test_after_a_hand_over_the_other_seat_s_moves_are_told(tmp_path):
    r = run("play", "cherokee", "--players", 2, "--seed", 11, "--no-color", "--layout", "full",
            "--record", tmp_path / "c.json", input="\n1\n" * 12 + "quit\n")
    assert r.exit_code == 0, r.output
    later = segments(r.output)
    told = [seg for segs in later.values() for seg in segs[1:]]
    assert told and all("Since your last move" in seg for seg in told)
    assert any(re.search(r"Player \d: chase r\d+c\d+", seg) for seg in told)


@pytest.fixture
def pig(tmp_path):
    path = tmp_path / "pig.meeple"
    path.write_text(PIG, encoding="utf-8")
    return path


def test_a_unique_prefix_is_the_move_it_begins(pig, tmp_path):
    game = interpreter.load(str(pig)).new_game(2, seed=1)
    hold = next(m.notation for m in game.legal_moves() if m.notation.startswith("hold "))
    r = run("play", pig, "--seed", 1, "--bot", "2=first", "--record", tmp_path / "p.json",
            input="hold\nquit\n")
    assert f"Player 1: {hold}" in r.output, r.output
    assert "Illegal move" not in r.output
    assert record.load(tmp_path / "p.json").moves[0] == hold


def test_a_prefix_stops_where_a_word_or_part_ends(pig, tmp_path):
    r = run("play", pig, "--seed", 1, "--bot", "2=first", "--record", tmp_path / "p.json",
            input="hol\nquit\n")
    assert "Illegal move: 'hol' is not a legal move now" in r.output, r.output


def test_a_move_without_a_value_is_written_as_its_notation(pig, tmp_path):
    r = run("play", pig, "--seed", 1, "--bot", "2=first", "--record", tmp_path / "p.json",
            input="roll\nquit\n")
    assert re.search(r"^Player 1: roll$", r.output, re.M), r.output
    assert "roll — -" not in r.output and "roll  -" not in r.output


def test_the_editor_completes_the_legal_moves_from_the_start_of_the_line():
    words = ["chase r1c1", "r1c1", "chase r2c1", "r2c1", "help", "hold 3"]
    assert line_input.completions("ch", words) == ["chase r1c1", "chase r2c1"]
    assert line_input.completions("CHASE  R2", words) == ["chase r2c1"]
    assert line_input.completions("h", words) == ["help", "hold 3"]
    assert line_input.completions("chase ", words) == ["chase r1c1", "chase r2c1"]
    assert line_input.completions("x", words) == []
    # Tab writes what all of them begin with
    assert line_input.common_start(["play E4", "play E5"]) == "play E"
    assert line_input.common_start(["abc", "ab"]) == "ab" and line_input.common_start([]) == ""


def test_no_editor_without_a_terminal():
    # the tests' stdin and stdout are not terminals: play reads plain lines
    assert line_input.editor() is None


def test_legend_says_what_each_short_label_stands_for(tmp_path):
    prog = interpreter.load("cherokee")
    r = run("play", "cherokee", "--players", 3, "--bot", "2=random", "--bot", "3=random",
            "--seed", 1, "--record", tmp_path / "c.json", "--no-color",
            input="legend\nquit\n", env={"COLUMNS": "80", "LINES": "24"})
    shown = r.output.split("What the short labels stand for")[1].split("Type 'screen'")[0]
    game = record.replay(prog, record.load(tmp_path / "c.json"))   # (as at the legend)
    # the key of the short forms, then each item the seat sees by both its labels
    assert "Bi Birds ·" in shown and "LH Long Hair ·" in shown and "m man" in shown
    hand = game.state["zones"][prog.zone_index["hand"] + 0]
    for i in hand:
        short, full = display.item_label(prog, i, True), display.item_label(prog, i)
        assert re.search(rf"{re.escape(short)}\s+{re.escape(full)}", shown), (short, shown)
    # nothing the seat may not see: the other hands are not in it
    others = [i for p in (1, 2) for i in game.state["zones"][prog.zone_index["hand"] + p]]
    board = {i for z in game.state["zones"] if isinstance(z, list) for i in z} - set(hand)
    secret = {display.item_label(prog, i) for i in others} - {
        display.item_label(prog, i) for i in board if i not in others}
    assert secret and not [s for s in secret if re.search(rf"\b{re.escape(s)}\b", shown)]


def test_the_latest_move_is_marked_on_the_board(tmp_path):
    """Go: the stone the bot just played is drawn between brackets, in the spaces beside
    it (so the board keeps its columns, with NO_COLOR too)."""
    r = run("play", "go", "--bot", "2=random", "--seed", 1, "--record", tmp_path / "g.json",
            input="D4\nquit\n", env={**TERMINAL, "NO_COLOR": "1"})
    bot = re.search(r"Player 2 \(random bot\): play ([A-J])(\d)", r.output)
    assert bot, r.output
    col, row = bot[1], bot[2]
    screen = r.output.split(bot[0])[1]
    line = next(x for x in screen.splitlines() if x.startswith(f"{row} "))
    cols = "ABCDEFGHJ"
    assert line[2 + 2 * cols.index(col) - 1: 2 + 2 * cols.index(col) + 2] == "[O]", line
    assert line.count("[") == 1 and len(line.rstrip()) <= 2 + 2 * 9


def test_a_mark_in_the_first_column_takes_the_space_after_the_row_label():
    from meeple.cli import render
    prog = interpreter.load("go")
    game = prog.new_game(2, seed=1)
    from meeple.interpreter.play.views import view
    board = next(iter(prog.boards))
    a5 = next(z for z in prog.boards[board] if prog.zones[z].cell.name == "A5")
    lines = [t.plain for t in render.board_lines(prog, view(game, 0), board, names=False,
                                                 last=frozenset({a5}))]
    assert "5[·]· · · · · · · ·" in lines, lines
    assert sum(x.count("[") for x in lines) == 1


def test_the_compact_screen_keeps_a_line_of_what_happened(tmp_path):
    """80x24, Cherokee hot seat: the screen is full, yet after the hand-over Player 2
    reads what Player 1's turn did (its latest message) rather than the typing hint."""
    r = run("play", "cherokee", "--players", 2, "--seed", 11, "--no-color",
            "--record", tmp_path / "c.json", input="\n1\n" * 12 + "quit\n")
    later = segments(r.output)["Player 2"]
    assert later and all(re.search(r"^  Player 1 chases .* away with \d+ against \d+$", seg, re.M)
                         for seg in later), later


def test_the_line_editor_completes_with_tab_and_keeps_a_history_per_seat():
    """prompt_toolkit fed keys as a terminal would send them: Tab completes the one
    legal move the line begins; the up arrow brings back that seat's own line, never
    another seat's (a card passed in secret)."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    words = ["pass nine-clubs", "pass ace-clubs", "help"]
    with create_pipe_input() as keys:
        editor = line_input.LineEditor(keys, DummyOutput())

        def typed(text: str, seat: int | None) -> str:
            keys.send_text(text)
            return editor.read("> ", seat, lambda: words)
        assert typed("pass a\t\r", 0) == "pass ace-clubs"
        assert typed("\x1b[A\r", 0) == "pass ace-clubs"      # seat 1's own history
        assert typed("\x1b[Ahelp\r", 1) == "help"            # seat 2 recalls nothing
        assert typed("\x1b[A\r", 1) == "help"
        assert typed("x\r", None) == "x"                     # the hand-over: no history
        assert len(editor.histories) == 2


def test_after_the_passes_each_seat_is_told_which_cards_arrived(tmp_path):
    """Hearts: once the three cards of each player have been passed, the next screen of
    Player 2 names the three it received (its own view: its hand), and no other."""
    rec = tmp_path / "h.json"
    r = run("play", "hearts", "--seed", 1, "--record", rec, "--no-color", "--layout", "full",
            input="\n1\n1\n1\n" * 4 + "\nquit\n")
    prog = interpreter.load("hearts")
    start = prog.new_game(4, seed=1)
    game = record.replay(prog, record.load(rec))
    hand = prog.zone_index["hand"] + 1
    got = [i for i in game.state["zones"][hand] if i not in start.state["zones"][hand]]
    assert len(got) == 3
    seg = segments(r.output)["Player 2"][-1]
    line = next(x for x in seg.splitlines() if x.startswith("  New in your hand: "))
    assert sorted(line[len("  New in your hand: "):].split(", ")) == sorted(
        display.item_label(prog, i) for i in got)
def _rolled(game_before, game_after) -> int:
    """The die Pig's 'roll' threw, from the totals its 'hold' offers before and after."""
    def total(g):
        return next(int(m.notation.split()[1]) for m in g.legal_moves()
                    if m.notation.startswith("hold "))
    return total(game_after) - total(game_before)


def test_the_die_is_shown_as_it_falls(pig, tmp_path):
    """Pig: the die of the first roll is on the first screen, and each roll is told
    right after the move that threw it ('rolled 4'), from the chance steps the move
    took, which the ruleset never logs."""
    prog = interpreter.load(str(pig))
    start = prog.new_game(2, seed=2)
    first = int(next(m.notation for m in start.legal_moves() if m.notation.startswith("hold "))[5:])
    r = run("play", pig, "--seed", 2, "--bot", "2=first", "--record", tmp_path / "p.json",
            "--no-color", input="roll\nquit\n")
    # (before this seat has moved, what it is told is what happened since the game began)
    assert re.search(rf"Since the game began\n  Player 1 rolled {first}\n", r.output), r.output
    assert "Since your last move" not in r.output.split("Player 1: roll")[0], r.output
    after = record.replay(prog, record.load(tmp_path / "p.json"))
    assert after.active_player == 0   # (seed 2: the second die is no 1)
    assert re.search(rf"^Player 1: roll\n  Player 1 rolled {_rolled(start, after)}$", r.output,
                     re.M), r.output


def test_the_other_seat_reads_the_dice_after_the_hand_over(pig, tmp_path):
    """Two humans at Pig: Player 2's summary tells each die Player 1 threw, in order,
    among the moves and the messages."""
    r = run("play", pig, "--seed", 2, "--record", tmp_path / "p.json", "--no-color",
            "--layout", "full", input="roll\nroll\nhold\nquit\n")
    assert "Pass the terminal" not in r.output   # (Pig hides nothing: no hand-over)
    prog = interpreter.load(str(pig))
    game = prog.new_game(2, seed=2)
    dice = []
    for move in ("roll", "roll"):
        before = game.copy()
        game.apply(move)
        dice.append(_rolled(before, game))
    second = turns(r.output)["Player 2"][0]
    told = second.split("Since the game began")[1]
    rolls = re.findall(r"^  Player 1 rolled (\d)$", told, re.M)
    assert rolls[1:] == [str(d) for d in dice], told
    # (the hold, which Pig's message names with its player and value: told by it alone)
    assert re.search(r"  Player 1 rolled \d\n  Player 1 "
                     r"holds \d+ and has \d+\n  Player 2 rolled \d", told), told


SECRET_DIE = """ruleset secret_die
title "Secret die"
players 2..2
var luck: int per player owner = 0
var shown: int = 0
turn {
  roll a from 1..6
  luck(active) = a
  roll b from 1..6
  shown = b
  choose x from [1, 2] as "pick"
}
end when turn_number() == 4
score(p) = luck(p)
"""


def test_a_die_kept_from_a_seat_is_never_told_to_it(tmp_path):
    """In a game that hides anything, no seat is told a chance result by the screen
    (whether a die fell, and which, may follow from a hidden value: a die added to a
    hidden bonus, or rolled only when a hidden value allows); the game's own messages,
    filtered by the views, say what it wants told. Here a die goes into a variable only
    its roller sees and another into a public one: neither is told as a generic note."""
    from meeple.interpreter.views import chance_seen
    path = tmp_path / "secret_die.meeple"
    path.write_text(SECRET_DIE, encoding="utf-8")
    prog = interpreter.load(str(path))
    game = prog.new_game(2, seed=5)
    before = game.copy()
    m = game.apply(game.legal_moves()[0])
    assert game.state["pvars"]["luck"][1] is not None   # (a die fell, into the secret)
    assert chance_seen(before, m) == []
    r = run("play", path, "--seed", 5, "--bot", "2=first", "--record", tmp_path / "s.json",
            "--no-color", input="1\nquit\n")
    assert " rolled " not in r.output, r.output


def _shape(line: str) -> int:
    """How richly the first move of a move list is written: 3 with its verb and its full
    text, 2 its full text, 1 its short label, 0 its notation alone (Cherokee's cards)."""
    first = re.split(r"\s{3,}\d+\. ", line.strip())[0]
    full = re.search(r"[A-Z][a-z]+(?: [A-Z][a-z]+)? (?:man|woman) \d", first)
    if full:
        return 3 if re.match(r"1\.\s+(with|tie|play) ", first) else 2   # (a lone move: "1.  with")
    return 1 if re.search(r"\s\d[mw][A-Z][A-Za-z]+$", first) else 0


def test_a_move_list_keeps_its_shape_from_turn_to_turn(tmp_path):
    """80x24, Cherokee: once a decision's moves had to be written more briefly (short
    labels, no text), later turns of that decision are written the same way, never
    again richer (a list that changed from 'birds-man-6 6mBi' to 'play birds-man-7
    Birds man 7' read as two different games)."""
    r = run("play", "cherokee", "--players", 2, "--seed", 11, "--bot", "2=random",
            "--no-color", "--record", tmp_path / "c.json", input="1\n" * 20 + "quit\n")
    lines = r.output.splitlines()
    shapes: dict[str, list[int]] = {}
    for i, line in enumerate(lines[:-1]):
        verb = re.match(r"Player 1: Choose: (\w+)$", line)
        if verb:
            shapes.setdefault(verb[1], []).append(_shape(lines[i + 1]))
    assert len(shapes.get("play", [])) >= 4, shapes
    for verb, seen in shapes.items():
        assert seen == sorted(seen, reverse=True), (verb, seen)


def test_the_set_up_s_results_are_told_only_in_a_game_hiding_nothing():
    """Backgammon hides nothing: its opening dice are told to every seat. Hearts hides
    the hands: its draw of where the cards go is not told by the screen (its own message
    says it), as no result is in a game that hides anything."""
    from meeple.interpreter.views import SPECTATOR, chance_seen_at_start
    prog = interpreter.load("backgammon")
    fallen = chance_seen_at_start(prog, 2, 1)
    assert fallen and all(f.kind == "roll" and f.seats == {0, 1, SPECTATOR} for f in fallen)
    assert chance_seen_at_start(interpreter.load("hearts"), 4, 1) == []


YES_NO = {"de": ("ja", "nein"), "fr": ("oui", "non"), "nl": ("ja", "nee"), "ru": ("да", "нет")}


@pytest.mark.parametrize("lang", sorted(YES_NO))
def test_a_yes_no_value_reads_in_the_locale_s_language(tmp_path, lang):
    """A locale without its own ``yes``/``no`` texts still writes true and false in its
    language, on the screen and in messages (Cherokee has every locale)."""
    prog = interpreter.load("cherokee", locale=lang)
    assert "yes" not in prog.checked.texts and "no" not in prog.checked.texts
    assert (display.yes_no(prog, True), display.yes_no(prog, False)) == YES_NO[lang]
    assert display.value_text(prog, False, "bool") == YES_NO[lang][1]


def test_a_locale_s_own_yes_no_texts_come_first(tmp_path):
    root = tmp_path / "yn"
    (root / "locales").mkdir(parents=True)
    (root / "yn.meeple").write_text('ruleset yn\nplayers 2..2\nvar done: bool = false\n'
                                    'turn { choose d from [1] as "go"  done = true }\n'
                                    'end when done\nscore(p) = 0\n', encoding="utf-8")
    (root / "locales" / "de.meeple").write_text('locale de\ntext no "nö"\n', encoding="utf-8")
    prog = interpreter.load(str(root), locale="de")
    assert (display.yes_no(prog, True), display.yes_no(prog, False)) == ("ja", "nö")
    assert display.yes_no(interpreter.load(str(root)), False) == "no"


def test_the_german_hearts_screen_says_nein(tmp_path):
    r = run("play", "hearts", "--locale", "de", "--seed", 1, "--no-color", "--layout", "full",
            "--record", tmp_path / "h.json",
            "--bot", "2=first", "--bot", "3=first", "--bot", "4=first", input="quit\n")
    assert "Herz gebrochen: nein" in r.output and ": no " not in r.output


def hearts_passes(tmp_path, first: str) -> str:
    """The terminal's output of Hearts (seed 1, four humans) while the cards are passed,
    up to the message that reveals them: Player 1 picks ``first`` (three lines), the
    others their first card three times."""
    r = run("play", "hearts", "--seed", 1, "--no-color", "--layout", "full", "--force",
            "--record", tmp_path / "h.json", input="\n" + first + "\n1\n1\n1\n" * 3 + "\nquit\n")
    assert r.exit_code == 0, r.output
    return r.output[:r.output.index("Each player passes three cards")]


def test_three_cards_are_passed_in_one_hand_over_each_telling_nobody_anything(tmp_path):
    """Hearts, four humans: each seat picks its three cards in one hand-over (not one
    per card), and what the others are shown, hand-overs included, is the same
    whichever three cards Player 1 picks."""
    lows = hearts_passes(tmp_path, "1\n1\n1\n")
    highs = hearts_passes(tmp_path, "13\n12\n11\n")
    one, two = segments(lows), segments(highs)
    # to Player 1 at the start, to Players 2, 3 and 4 to pass, to Player 2 (who holds the
    # two of clubs) once the cards are passed
    assert lows.count("Pass the terminal to") == highs.count("Pass the terminal to") == 5
    assert [len(one[f"Player {p}"]) for p in (1, 2, 3, 4)] == [1, 2, 1, 1]
    # Player 1 saw its own picks, different ones
    assert "Player 1: pass" in one["Player 1"][0] and one["Player 1"] != two["Player 1"]
    # the other seats' screens are the same, byte for byte
    for p in (2, 3, 4):
        assert one[f"Player {p}"] == two[f"Player {p}"]
        assert one[f"Player {p}"][0].count("your move") == 3


def test_a_seat_s_own_cards_put_aside_to_pass_are_not_new_to_it(tmp_path):
    """Hearts, two humans: each passes its three cards in one hand-over; the cards it
    moved from its hand to its pass zone are its own choice, never "new" to it (only
    cards that came from elsewhere are)."""
    r = run("play", "hearts", "--seed", 1, "--no-color", "--layout", "full", "--record", tmp_path / "h.json",
            "--bot", "3=first", "--bot", "4=first", input="\n1\n1\n1\n" * 2 + "\nquit\n")
    assert r.exit_code == 0, r.output
    assert "has chosen in secret" in r.output
    assert "New in your cards to pass" not in r.output


def test_a_move_marked_across_two_rows_has_both_brackets_hugging_each_cell():
    """Backgammon's points are wider than their stacks (``x×4`` in four columns): each
    marked cell reads ``[x×4]``, brackets in its padding or the space beside it, the
    other cells where they were; the first cell of a row gets its ``[`` too."""
    from meeple.cli import render
    from meeple.interpreter.play.views import view
    prog = interpreter.load("backgammon")
    game = prog.new_game(2, seed=3)
    board = next(iter(prog.boards))
    cell = {prog.zones[z].cell.name: z for z in prog.boards[board]}
    v = view(game, 0)
    plain = [t.plain for t in render.board_lines(prog, v, board)]
    for names in (("p12", "p19"), ("p13", "p6"), ("p24", "p1")):
        lines = [t.plain for t in render.board_lines(prog, v, board, last=frozenset(cell[n] for n in names))]
        assert sum(x.count("[") for x in lines) == 2 == sum(x.count("]") for x in lines), lines
        for x in lines:
            assert not re.search(r"\[ | \]", x), x
            assert x.count("[") == x.count("]"), x
            for m in re.finditer(r"\[([^\]]*)\]", x):
                assert m[1].strip() and "[" not in m[1], x
        for x, y in zip(lines, plain):
            if "[" in x and not x.startswith("["):
                assert x.replace("[", " ").replace("]", " ").rstrip() == y, (x, y)


def test_a_roll_the_ruleset_tells_itself_is_not_told_twice(tmp_path):
    """Pig that says each throw itself ("Player 1 throws 4", right after the roll): the
    summary after the hand-over tells each die once, in the ruleset's words; a die no
    message names right after it (Pig as it is) keeps the generic line."""
    says = tmp_path / "pig_says.meeple"
    says.write_text(PIG.replace("ruleset pig", "ruleset pig_says").replace(
        "    roll d from 1..6\n",
        '    roll d from 1..6\n    log threw "{active} throws {d}"\n'), encoding="utf-8")
    r = run("play", says, "--seed", 2, "--no-color", "--layout", "full", "--record", tmp_path / "p.json",
            input="roll\nroll\nhold\nquit\n")
    told = turns(r.output)["Player 2"][0].split("Since the game began")[1]
    thrown = re.findall(r"^  Player 1 throws (\d)$", told, re.M)
    assert len(thrown) == 3, told
    assert not re.search(r"Player \d rolled", told), told
    assert re.search(r"^  Player 2 throws \d$", told, re.M), told
    first = turns(r.output)["Player 1"][0].split("Since the game began\n")[1]
    assert re.match(r"  Player 1 throws \d\n", first) and "rolled" not in first.split("\n\n")[0], first


def _since(screen: str) -> list[str]:
    """The lines under a screen's "Since ..." heading."""
    return re.split(r"\nSince (?:your last move|the game began)\n", screen)[1].split("\n\n")[0].splitlines()


def test_a_move_the_ruleset_tells_itself_is_not_told_twice(tmp_path):
    """Chess says every move ("Player 1: e2-e4"), Kalah too ("Player 1 sows a2"): what
    a seat is told since its last move has each move once, in the ruleset's words, not
    also as a move line ("Player 1: move e2-e4"; views.move_told)."""
    r = run("play", "chess", "--no-color", "--layout", "full", "--record", tmp_path / "c.json",
            input="e2e4\ne7e5\nd2d4\nquit\n")
    seen = turns(r.output)
    assert _since(seen["Player 2"][0]) == ["  Player 1: e2-e4"], r.output
    assert _since(seen["Player 1"][1]) == ["  Player 1: e2-e4", "  Player 2: e7-e5"], r.output
    assert _since(seen["Player 2"][1]) == ["  Player 2: e7-e5", "  Player 1: d2-d4"], r.output
    r = run("play", "kalah", "--no-color", "--layout", "full", "--record", tmp_path / "k.json",
            input="1\n" * 6 + "quit\n")
    told = [line for screen in turns(r.output)["Player 2"] for line in _since(screen)]
    assert any(re.fullmatch(r"  Player 1 sows a\d", line) for line in told), told
    assert not [line for line in told if re.search(r"Player \d: sow", line)], told


TOLD = """ruleset told
players 2..2
kind Card { value: int }
zone deck: Card hidden
zone hand: Card per player
zone table: Card
deck cards into deck { Card(value: v) for v in 1..4 }
label Card "{value}"
setup {
  shuffle deck
  deal 2 from deck to hand
}
turn {
  choose c from items(hand(active)) as "play"
  move c to table
  log played "{active} plays {c}"
  choose n from [1, 2] as "say"
  log said "{active} says {n}"
}
end when turn_number() == 2
"""


def test_a_move_is_told_by_its_message_only_where_every_seat_reads_its_value(tmp_path):
    """views.move_told: a number said in the move's first message with its player tells
    the move; a card never does (a message may hide an item from a seat: leaving the
    line out would tell that seat which card the message names)."""
    ruleset = tmp_path / "told.meeple"
    ruleset.write_text(TOLD, encoding="utf-8")
    game = interpreter.load(ruleset, cache=False).new_game(2, seed=1)
    told = []
    for verb in ("play", "say"):
        before = game.copy()
        move = game.apply(next(m for m in game.legal_moves() if m.notation.startswith(verb)))
        told.append([views.move_told(before, move, game.state, s) for s in (0, 1)])
    assert told == [[False, False], [True, True]]
    said = views.view(game, 1)["log"][-2:]   # (what the two messages read: card and number)
    assert re.fullmatch(r"Player 1 plays [1-4]", said[0]) and said[1] == "Player 1 says 1", said


def test_a_move_written_without_cells_is_marked_where_the_board_changed(tmp_path):
    """Chess writes its moves as text (``a7-a6``), no cell in the value: the board
    still marks the bot's move, both the square it left and the one it took."""
    r = run("play", "chess", "--bot", "2=first", "--seed", 1, "--record", tmp_path / "c.json",
            input="e4\nquit\n", env={**TERMINAL, "NO_COLOR": "1"})
    bot = re.search(r"Player 2 \(first-move bot\): (?:move )?([a-h])([1-8])-([a-h])([1-8])", r.output)
    assert bot, r.output
    screen = r.output.split(bot[0])[1].split("Player 1 (you)")[0]
    marked = {(line[0], m.group(1)) for line in screen.splitlines() if line[:1].isdigit()
              for m in re.finditer(r"\[([^\]]*)\]", line)}
    assert marked == {(bot[2], "·"), (bot[4], "bP")}, screen
    cols = "abcdefgh"
    for row, col in ((bot[2], bot[1]), (bot[4], bot[3])):
        line = next(x for x in screen.splitlines() if x[:1] == row and x[1:2] in " [")
        at = line.index("[")
        assert 2 + 4 * cols.index(col) - 1 <= at <= 2 + 4 * cols.index(col), (line, col)


def test_a_turn_of_several_moves_is_marked_as_a_whole(tmp_path):
    """Backgammon: the bot's turn is several checker moves; the board marks the cells
    of all of them (each point left and reached), not only the last move's."""
    r = run("play", "backgammon", "--bot", "2=first", "--seed", 3, "--no-color",
            "--record", tmp_path / "b.json", input="1\n1\nquit\n", env={**TERMINAL, "NO_COLOR": "1"})
    bot = re.findall(r"Player 2 \(first-move bot\): move (p\d+)\+(p\d+)", r.output)
    assert len(bot) > 1, r.output
    screen = r.output.split("Since your last move")[-2].rsplit("board\n", 1)[1]
    marks = sum(line.count("[") for line in screen.splitlines())
    assert marks == len({c for m in bot for c in m}), screen


@pytest.mark.parametrize("lang, words", [(None, "Type 1 (the only move), its notation"),
                                         ("de", "Gib 1 ein (der einzige Zug)")])
def test_a_single_move_is_offered_as_1_not_1_to_1(tmp_path, lang, words):
    """Cherokee: after a chase the seat has one way to fight it out; the hint says to
    type 1 rather than 'a number from the list (1 to 1)'."""
    r = run("play", "cherokee", "--players", 2, "--seed", 1, "--bot", "2=random", "--no-color",
            *(["--locale", lang] if lang else []), "--record", tmp_path / "c.json",
            input="1\nquit\n", env={**TERMINAL, "COLUMNS": "120", "LINES": "60"})
    after = r.output.split("\nPlayer 1: chase ")[-1] if lang is None else r.output.split(": chase ")[-1]
    assert words in after and "(1 to 1)" not in r.output and "(1 bis 1)" not in r.output, after


def _screens(output: str, title: str) -> list[list[str]]:
    """Each turn screen of the output: its lines from the title rule to the prompt."""
    out, cur = [], None
    for line in output.splitlines():
        if line.startswith("─") and title in line:
            cur = []
        if cur is not None:
            cur.append(line)
            if ", your move (" in line:
                out.append(cur)
                cur = None
    return out


@pytest.mark.parametrize("env", [TERMINAL, {**TERMINAL, "NO_COLOR": "1"}])
def test_a_compact_move_onto_a_card_names_the_card(tmp_path, env):
    """80x24, Cherokee for 3 after the bots' moves: the compact board draws the cards,
    not the cells' names, so a move written as its cell alone ('1. r2c2') could not be
    told from the others without typing 'moves'. Every move onto a card names it beside
    its cell ('r2c2  5wBi'), the other seats' lines left to 'zones' first, and each
    screen still fits in 24 lines."""
    r = run("play", "cherokee", "--players", 3, "--bot", "2=random", "--bot", "3=random",
            "--seed", 11, "--no-color", "--record", tmp_path / "c.json",
            input="1\n" * 12 + "quit\n", env=env)
    screens = _screens(r.output, "Cherokee — turn")
    cells = 0
    for lines in screens:
        assert len(lines) <= 24, "\n".join(lines)
        for line in lines[lines.index(next(x for x in lines if ": Choose: " in x)) + 1:]:
            for entry in re.findall(r"(?<!\d)\d+\. r\d+c\d+(?:  +\S+)?", line):
                cells += 1
                assert re.search(r"r\d+c\d+  +\d[mw][A-Z]", entry), "\n".join(lines)
    assert cells >= 20, r.output


def test_a_lone_checker_is_written_as_the_board_draws_it(tmp_path):
    """Backgammon: a move from a point holding one checker reads `o + empty`, as a stack
    reads `o×4` and the board draws it, not `white checker` (a label many items share
    tells nothing the board does not); a card keeps its name (Cherokee's chases)."""
    r = run("play", "backgammon", "--seed", 5, "--no-color", "--layout", "full",
            "--record", tmp_path / "b.json", input="\n1\nquit\n")
    assert re.search(r"move p11\+p7\s+o \+ empty", r.output), r.output
    assert "white checker" not in r.output, r.output
    r = run("play", "cherokee", "--players", 2, "--seed", 5, "--no-color", "--layout", "full",
            "--record", tmp_path / "c.json", input="\nquit\n")
    prog = interpreter.load("cherokee").for_players(2)
    game = prog.new_game(2, seed=5)
    chase = game.legal_moves()[0]
    card = views.view(game, 0)["zones"][prog.zones[chase.value].key][-1]
    assert display.told_apart(prog, card)
    assert re.search(rf"{re.escape(chase.notation)}\s+{display.item_label(prog, card)}", r.output), r.output


def test_a_game_that_hides_nothing_has_no_hand_over(tmp_path):
    """Chess with two humans at one terminal: no seat has anything to hide, so the
    next seat's screen follows the move with no "Pass the terminal" to press Enter at;
    it tells the move just made. (A game that hides something keeps its hand-overs:
    the tests of Cherokee and Hearts above.)"""
    r = run("play", "chess", "--seed", 1, "--record", tmp_path / "c.json",
            input="e4\ne5\nquit\n", env={**TERMINAL, "NO_COLOR": "1"})
    assert "Pass the terminal" not in r.output
    seats = turns(r.output)
    assert len(seats["Player 1"]) == 2 and len(seats["Player 2"]) == 1
    assert "Player 1: e2-e4" in seats["Player 2"][0]
    assert "Player 2: e7-e5" in seats["Player 1"][1]


def test_undo_refused_to_another_seat_does_not_name_a_secret_pick(tmp_path):
    """Hearts, four humans: Player 2, asked to pass after Player 1's three picks, types
    undo; the refusal says who made the latest move, never which card it passed (it
    used to quote 'pass ace-clubs')."""
    rec = tmp_path / "h.json"
    r = run("play", "hearts", "--seed", 1, "--no-color", "--layout", "full", "--force",
            "--record", rec, input="\n1\n1\n1\n" + "\nundo\nquit\n")
    assert r.exit_code == 0, r.output
    shown = segments(r.output)["Player 2"][0]
    picks = [m.split(": ")[-1] for m in record.load(rec).moves]
    assert len(picks) == 3 and all(p.startswith("pass ") for p in picks)
    assert "Cannot undo" in shown and "Player 1" in shown
    for p in picks:
        assert p.split()[1] not in shown


DISCARD = """ruleset discard
players 2..2
kind Card { value: int }
zone deck: Card hidden
zone hand: Card per player owner
zone pile: Card
deck cards into deck { Card(value: v) for v in 1..8 }
setup {
  shuffle deck
  deal 4 from deck to hand
}
turn {
  choose c from items(hand(active)) as "discard"
  move c to pile face down
}
end when count(items(pile)) == 4
score(p) = 0
"""


def test_undo_refused_to_another_seat_does_not_name_a_card_it_never_saw(tmp_path):
    """Player 1 discards a card face down; Player 2 types undo: the refusal says the
    move as Player 2 saw it (the verb alone), never the card (it used to quote the
    notation, which names it)."""
    path = tmp_path / "discard.meeple"
    path.write_text(DISCARD, encoding="utf-8")
    rec = tmp_path / "d.json"
    r = run("play", path, "--seed", 3, "--no-color", "--layout", "full", "--record", rec,
            input="\n1\n\nundo\nquit\n")
    assert r.exit_code == 0, r.output
    played = record.load(rec).moves[0]
    assert played.startswith("discard ") and played != "discard"
    shown = segments(r.output)["Player 2"][0]
    assert "Cannot undo: the latest move ('discard') was made by Player 1" in shown, shown
    assert played not in shown
