"""Turn screens fit the terminal: every bundled game, at every player count and with
each of its variants, drawn by the CLI's own screen function (``PlaySession.show``,
which uses ``meeple.cli.layout.fit_screen``) on a recording console of 80×24, at
several positions of seeded random games, takes at most 23 lines (the 24th is the
prompt), no line is wider than 80 columns, and every move and name it shows is whole.
``--layout full`` draws everything at any size."""
from __future__ import annotations

import io
import random
import re
from pathlib import Path

import bundled
import pytest
from meeple.cli import render
from meeple.cli.main import app
from meeple.cli.play import HUMAN, PlaySession
from meeple.dsl import load as dsl_load
from meeple.interpreter.play import display
from meeple.interpreter.play.views import view
from rich.console import Console
from scale import scaled
from typer.testing import CliRunner

from meeple import interpreter

CONFIGS = [(name, variants)
           for name in bundled.names()
           for variants in [()] + [(v,) for v in bundled.variants(name)]]


def console(width: int = 80, height: int = 24) -> Console:
    return render.console(file=io.StringIO(), record=True, width=width, height=height)


def draw(game, seat: int, layout: str = "auto", width: int = 80, height: int = 24) -> str:
    """The turn screen as ``meeple play`` prints it for ``seat``."""
    c = console(width, height)
    session = PlaySession(c, game, [HUMAN] * view(game, seat)["players"], {}, None, None,
                          Path("unused.json"), layout=layout)
    session.show(seat)
    return c.export_text(styles=False)


_PLAYED: dict[tuple, list] = {}


def positions(rs, players: int, seed: int) -> list:
    """Positions along a seeded random game: the start, a quarter, the middle, three
    quarters, the last decision, and the ones with the most moves, the most items of
    the seat to move and the longest message. Each game is played once in a test
    process; each caller gets copies of its positions."""
    key = (rs.name, tuple(rs.variants), rs.locale, players, seed)
    if key not in _PLAYED:
        _PLAYED[key] = _positions(rs, players, seed)
    return [game.copy() for game in _PLAYED[key]]


def _positions(rs, players: int, seed: int) -> list:
    game = rs.new_game(players, seed)
    rnd = random.Random(seed)
    seen, sizes = [], []
    while not game.over:
        moves = game.legal_moves()
        v = view(game, game.active_player)
        own = sum(len(c) for k, c in v["zones"].items()
                  if k.endswith(f":{game.active_player}") and isinstance(c, list))
        seen.append(game.copy())
        sizes.append((len(moves), own, max((len(x) for x in v["log"]), default=0)))
        game.apply(moves[rnd.randrange(len(moves))])
    n = len(seen)
    picks = {0, n // 4, n // 2, 3 * n // 4, n - 1}
    picks |= {max(range(n), key=lambda i: sizes[i][k]) for k in range(3)}
    return [seen[i] for i in sorted(picks)]


def check_screen(text: str, game, width: int, height: int, own: bool = True) -> None:
    """The screen fits, shows every move whole and every name it shows whole; with
    ``own`` it shows the seat's own items (a tiny terminal may leave them to 'zones')."""
    lines = text.splitlines()
    assert len(lines) + 1 <= height, f"{len(lines)} lines + the prompt:\n{text}"
    assert max(len(x) for x in lines) <= width, text
    assert "…" not in text and "..." not in text, text
    prog, seat = game.program, game.active_player
    v = view(game, seat)
    # every legal move, whole: its number, then its notation (the verb every move
    # shares may be left out: the prompt says it)
    moves = game.legal_moves()
    verbs = {m.notation.split(" ", 1)[0] for m in moves}
    # more moves than the screen has room for (a decision on the cells of a board keeps
    # the board; a tiny terminal): the first ones, and a line that counts the others
    more = re.search(r"(?:^|\s)(\d+)\s+more\s+moves:\s+type\s+'moves'\s+to\s+see\s+them\s+all\.", text)
    if more:
        assert 0 < int(more[1]) <= len(moves), text
        moves = moves[:len(moves) - int(more[1])]
    for m in moves:
        note = m.notation
        forms = [note] + ([note.split(" ", 1)[1]] if len(verbs) == 1 and " " in note else [])
        assert any(re.search(rf"(^|\s){m.index + 1}\.\s+{re.escape(f)}(\s|$)", text, re.M)
                   for f in forms), (m.notation, text)
    # seats by their names, whole (the seat to move at least); its own items by their
    # short labels, whole
    names = sorted((display.player_name(prog, p) for p in range(v["players"])), key=len,
                   reverse=True)
    assert display.player_name(prog, seat) in text
    first = names[-1].split()[0]
    for at in (mt.start() for mt in re.finditer(re.escape(first), text)):
        assert any(text.startswith(name, at) for name in names), text[at:at + 40]
    for z in prog.zones:
        if own and z.owner == 0 and z.board is None:
            content = v["zones"].get(f"{z.name}:{seat}", [])
            # (a zone hidden from its owner too is a count: no items to look for)
            for it in content if isinstance(content, list) else []:
                label = display.item_label(prog, it, True, v.get("ivars"))
                assert re.search(rf"(^|\s){re.escape(label)}(\s|$)", text, re.M), (label, text)


def cherokee_after(moves: int, players: int = 3):
    """A 3-player Cherokee game after a few moves (first legal move each time)."""
    game = interpreter.load("cherokee").new_game(players, 1)
    for _ in range(moves):
        game.apply(0)
    return game


@pytest.fixture(scope="module", params=CONFIGS, ids=lambda c: "+".join((c[0],) + c[1]))
def config(request):
    name, variants = request.param
    return interpreter.load(name, variants=list(variants))


def test_turn_screens_fit_80x24(config):
    seeds = (1, 2) if not config.variants else (1,)
    for players in range(config.min_players, config.max_players + 1):
        for seed in seeds:
            for game in positions(config, players, seed):
                check_screen(draw(game, game.active_player), game, 80, 24)


# the game whose positions are drawn at other sizes; the short form's is one the test at
# 80x24 plays too (the same positions, each game played once)
SIZES_SEED = scaled(3, 1)


@pytest.mark.parametrize("size", scaled([(40, 12), (60, 20), (100, 30), (132, 50)], [(40, 12), (132, 50)]))
def test_screens_fit_other_sizes_too(size):
    width, height = size
    for name in dsl_load.bundled_names():
        rs = interpreter.load(name)
        players = rs.max_players
        for game in positions(rs, players, SIZES_SEED)[::2]:
            check_screen(draw(game, game.active_player, width=width, height=height),
                         game, width, height, own=width >= 60)


def test_the_full_layout_draws_everything_at_a_big_size():
    game = cherokee_after(5)
    seat = game.active_player
    text = draw(game, seat, layout="full", width=160, height=80)
    # the cells' names under the rows, the zones table with its headings, the log title
    for c in range(1, 9):
        assert f"r8c{c}" in text.split()
    assert "Recent events" in text and "(you)" in text
    # every move with its notation and its readable text
    for m in game.legal_moves():
        _, readable = render.describe_move(game, m, game.decision.type, seat)
        assert re.search(rf"{m.index + 1}\.\s+{re.escape(m.notation)}\s+"
                         rf"{re.escape(readable.plain)}", text), m.notation
    # the full layout is drawn whole even on a small terminal (it scrolls)
    assert len(draw(game, seat, layout="full").splitlines()) > 24


def test_auto_is_full_when_the_full_screen_fits_and_compact_when_not():
    game = cherokee_after(5)
    seat = game.active_player
    big = draw(game, seat, width=160, height=80)
    assert big == draw(game, seat, layout="full", width=160, height=80)
    small = draw(game, seat)
    assert small != draw(game, seat, layout="full") and len(small.splitlines()) < 24
    # compact at a big size: still the compact layout (no zones table), with room to spare
    compact = draw(game, seat, layout="compact", width=160, height=80)
    assert compact != big and "r8c1" in compact.split()   # room for the cells' names


def test_details_are_a_command_away():
    game = cherokee_after(5)
    seat = game.active_player
    c = console()
    session = PlaySession(c, game, [HUMAN] * 3, {}, None, None, Path("unused.json"))
    for what in ("board", "zones", "log", "moves"):
        session.details(seat, what)
    text = c.export_text(styles=False)
    assert all(f"r{r}c1" in text.split() for r in range(1, 9))      # the board's names
    assert "(you)" in text                                              # the zones table
    assert view(game, seat)["log"][-1] in text                          # the log
    for m in game.legal_moves():                                        # the moves, whole
        _, readable = render.describe_move(game, m, game.decision.type, seat)
        assert re.search(rf"{m.index + 1}\.\s+{re.escape(m.notation)}\s+"
                         rf"{re.escape(readable.plain)}", text), m.notation


def test_play_takes_a_layout_and_bots_play_to_the_end():
    runner = CliRunner()
    for name in dsl_load.bundled_names():
        rs = interpreter.load(name)
        n = rs.max_players
        bots = [a for s in range(1, n + 1) for a in ("--bot", f"{s}=random")]
        r = runner.invoke(app, ["play", name, "--players", str(n), "--seed", "5",
                                "--layout", "compact", *bots], env={"COLUMNS": "80", "LINES": "24"})
        assert r.exit_code == 0, r.output
        assert re.search(r"(Winner|Shared win|No winner|Draw)", r.output), r.output[-2000:]
        # the end fits the terminal: from the blank line before 'Game over' to the seed
        # line, and the shell's prompt under it
        end = r.output.splitlines()
        start = max(i for i, line in enumerate(end) if "Game over" in line) - 1
        assert len(end) - start + 1 <= 24 and max(len(x) for x in end[start:]) <= 80, r.output
    r = runner.invoke(app, ["play", "cherokee", "--layout", "wide"])
    assert r.exit_code == 2 and "wide" in r.output


def test_an_empty_cell_to_choose_shows_the_number_of_its_move():
    """Without the cells' names (no room for them), the empty cells the seat may choose
    show the numbers of their moves on the board."""
    rs = interpreter.load("brotherhood-of-nine")
    game, rnd = rs.new_game(2, 1), random.Random(1)
    while not (game.decision.type == "cell" and len(game.legal_moves()) > 1):
        moves = game.legal_moves()
        game.apply(moves[rnd.randrange(len(moves))])
    seat, moves = game.active_player, game.legal_moves()
    text = draw(game, seat)
    prog = game.program
    shared = [display.name(prog, z.name) for z in prog.zones
              if z.owner is None and z.board is None]
    lines = text.splitlines()[1:]
    board = lines[:next(i for i, x in enumerate(lines) if x.split(":")[0] in shared)]
    names_shown = all(m.notation.split()[-1] in " ".join(board).split() for m in moves)
    numbers = " ".join(board).split()
    assert names_shown or all(str(m.index + 1) in numbers for m in moves), text
    assert not names_shown      # at 80x24 this board has no room for its names
    # the full layout writes the names, not the numbers
    full = draw(game, seat, layout="full", width=160, height=80)
    assert all(m.notation.split()[-1] in full.split() for m in moves)


def test_a_stack_to_choose_reads_as_the_board_draws_it():
    """A cell holding a stack of alike items is written in the moves as the board draws
    it ('o×4'), not as its top item alone."""
    game = interpreter.load("kalah").new_game(2, 1)
    text = draw(game, 0, layout="full", width=120, height=60)
    option_lines = [x for x in text.splitlines() if "sow a1" in x]
    assert option_lines and "sow a1  o×4" in option_lines[0], text


def test_a_game_with_nothing_per_seat_draws_no_seat_lines():
    """Without per-player zones or variables there is nothing to show under each seat's
    name, so the empty 'Player 1:' lines are left out; a game with them keeps them."""
    game = interpreter.load("kalah").new_game(2, 1)
    for layout, size in (("compact", (80, 24)), ("full", (120, 60))):
        text = draw(game, 0, layout=layout, width=size[0], height=size[1])
        assert not re.search(r"^Player [12]( \(you\))?:\s*$", text, re.M), text
    assert re.search(r"^\s*Player 1 \(you\)", draw(cherokee_after(0), 0, layout="compact"),
                     re.M)


def test_per_player_variables_show_without_per_player_zones(tmp_path):
    """A game whose only per-seat data are variables shows them in every layout."""
    f = tmp_path / "tally.meeple"
    f.write_text("ruleset tally\nplayers 2..2\nvar wins: int per player = 0\n"
                 "var rounds: int = 0\nturn {\n  choose n from [1, 2] as \"add\"\n"
                 "  wins(active) = wins(active) + n\n  rounds = rounds + 1\n}\n"
                 "end when rounds == 4\nscore(p) = wins(p)\n", encoding="utf-8")
    game = interpreter.load(str(f)).new_game(2, 1)
    game.apply("add 2")
    for layout, size in (("full", (100, 30)), ("compact", (60, 12))):
        text = draw(game, 1, layout=layout, width=size[0], height=size[1])
        assert "wins" in text and re.search(r"Player 1\b.*\b2\b", text), text


def test_a_move_onto_an_empty_cell_reads_as_its_notation_alone(tmp_path, monkeypatch):
    """Choosing among empty cells, each move is its notation: no 'empty' beside every
    one, and a move played prints no dangling ' — '."""
    game = interpreter.load("dots-and-boxes").new_game(2, 1)
    text = draw(game, 0)
    assert "draw a1b1" in text and "empty" not in text, text
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(app, ["play", "dots-and-boxes", "--bot", "1=first", "--bot", "2=first",
                                 "--seed", "1"], env={"COLUMNS": "80", "LINES": "24"})
    assert r.exit_code == 0, r.output
    played = [x for x in r.output.splitlines() if x.startswith("Player 1 (first-move bot): ")]
    assert played and all(not x.rstrip().endswith("—") and "empty" not in x for x in played)


def test_a_move_whose_text_repeats_its_notation_is_written_once(tmp_path):
    """'add 2', not 'add 2  2': a readable text that says only what the notation says
    is left out; one that says more (an item's label on a cell) stays."""
    f = tmp_path / "adder.meeple"
    f.write_text("ruleset adder\nplayers 2..2\nvar total: int = 0\nturn {\n"
                 "  choose n from [1, 2] as \"add\"\n  total = total + n\n}\n"
                 "end when total > 5\n", encoding="utf-8")
    text = draw(interpreter.load(str(f)).new_game(2, 1), 0)
    lines = [x for x in text.splitlines() if "add 1" in x]
    assert lines and not re.search(r"add 1\s+1\b", lines[0]), text
    kalah = draw(interpreter.load("kalah").new_game(2, 1), 0, layout="full", width=120, height=60)
    assert "sow a1  o×4" in kalah


def test_a_turn_screen_reads_the_seat_s_view_a_few_times_not_once_a_move(monkeypatch):
    """Each move's text is written from the view of the seat the screen has already
    made: the screen of a decision of many moves (go's first: every point) reads the
    view a few times in all, not twice a move."""
    from meeple.interpreter.play import views
    game = interpreter.load("go").new_game(2, 1)
    assert len(game.legal_moves()) > 80
    real, made = views.view, []

    def counted(g, seat):
        made.append(seat)
        return real(g, seat)
    monkeypatch.setattr(views, "view", counted)
    check_screen(draw(game, 0), game, 80, 24)
    assert 0 < len(made) <= 4, len(made)


def test_a_small_terminal_finds_the_moves_that_fit_without_drawing_each_count(monkeypatch):
    """At 40x12 only some of go's 82 first moves fit: the screen tries a few counts of
    them on each layout it tries (by bisection), not every count from the most down (it
    drew 1,050 candidate screens)."""
    from meeple.cli import layout
    game = interpreter.load("go").new_game(2, 1)
    moves = game.legal_moves()
    real, drawn = layout.compact_lines, []

    def counted(*args, **kwargs):
        drawn.append(kwargs.get("shown"))
        return real(*args, **kwargs)
    monkeypatch.setattr(layout, "compact_lines", counted)
    check_screen(draw(game, 0, width=40, height=12), game, 40, 12, own=False)
    assert any(k is not None for k in drawn) and len(drawn) < 3 * len(moves), len(drawn)
