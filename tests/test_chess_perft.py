"""Chess move generation against the published perft counts (the number of move paths
of N plies, promotions counted once per piece, https://www.chessprogramming.org/Perft_Results):
from the start, from "Kiwipete" (castling, en passant, promotion and pins all at once)
and from the wiki's positions 3, 4 and 5 (start to depth 4, Kiwipete to depth 3: a few
seconds). Deeper counts are in benchmarks/bench_chess_perft.py."""
from __future__ import annotations

import pytest
from chess_fen import KIWIPETE, START, fen_position

from meeple import interpreter

POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"


def test_perft_from_the_start_is_20_400_8902():
    game = interpreter.load("chess").new_game(2, 0)
    assert [interpreter.perft(game, d) for d in (1, 2, 3)] == [20, 400, 8902]


def test_perft_from_the_start_at_depth_4_is_197281():
    """The issue's own figure (depth 5, 4,865,609, is in benchmarks/bench_chess_perft.py)."""
    assert interpreter.perft(interpreter.load("chess").new_game(2, 0), 4) == 197_281


def test_the_fen_start_position_is_the_rulesets_setup():
    game = fen_position(START)
    assert [interpreter.perft(game, d) for d in (1, 2)] == [20, 400]
    assert sorted(m.notation for m in game.legal_moves()) == sorted(
        m.notation for m in interpreter.load("chess").new_game(2, 0).legal_moves())


def test_perft_from_kiwipete_is_48_2039_97862():
    game = fen_position(KIWIPETE)
    assert [interpreter.perft(game, d) for d in (1, 2, 3)] == [48, 2039, 97_862]


@pytest.mark.parametrize("fen,counts", [
    (POSITION_3, [14, 191, 2812]),
    (POSITION_4, [6, 264, 9467]),
    (POSITION_5, [44, 1486]),
], ids=["position 3", "position 4", "position 5"])
def test_perft_from_the_wikis_test_positions(fen, counts):
    game = fen_position(fen)
    assert [interpreter.perft(game, d) for d in range(1, len(counts) + 1)] == counts


def test_divide_from_kiwipete_names_every_first_move():
    d = interpreter.divide(fen_position(KIWIPETE), 1)
    assert len(d) == 48 and {"move " + m for m in ("O-O", "O-O-O", "e5-f7", "d5-e6", "g2-h3", "f3-f6")} <= set(d)


def test_meeple_perft_counts_kiwipete_from_a_saved_position(tmp_path):
    from meeple.cli.main import app
    from typer.testing import CliRunner
    state = tmp_path / "kiwipete.json"
    state.write_text(fen_position(KIWIPETE).to_json(), encoding="utf-8")
    r = CliRunner().invoke(app, ["perft", "chess", "--position", str(state), "-d", "2", "-q"])
    assert r.exit_code == 0 and r.output.startswith("depth 2: 2,039 paths"), r.output
    r = CliRunner().invoke(app, ["perft", "chess", "--position", str(state), "-d", "1", "-q",
                                 "--after", "e5-f7"])
    assert r.output.startswith("depth 1: 44 paths"), r.output       # Kiwipete's divide
