"""Chess: one test for every rule, each on a hand-built position (written in FEN, see
tests/chess_fen.py), named after the rule (docs/rulesets/chess.md, "Rules summary").
Moves are written from-to (e2-e4), e7-e8=Q for a promotion, O-O and O-O-O for castling;
a player may also type them in standard algebraic notation (e4, Nf3) or as UCI (e2e4)."""
from __future__ import annotations

import pytest
from chess_fen import fen_position, program
from meeple.interpreter.analysis import testing

from meeple import interpreter


def moves(game) -> list[str]:
    return testing.options(game, "move")


def from_square(game, square: str) -> list[str]:
    """The moves of the man on a square, as their target squares (and promotions)."""
    return sorted(m.split("-", 1)[1] for m in moves(game) if m.startswith(square + "-"))


def man(game, square: str) -> tuple[str, str] | None:
    """(colour, role) of the man on a square, or None."""
    held = testing.at(game, f"square:{square}")
    if not held:
        return None
    item = held[-1]
    return game.program.items[item].attrs["colour"], game.state["ivars"]["role"][item]


def result(game) -> str:
    assert game.over
    r = game.result
    return "draw" if r["draw"] else f"seat {r['winners'][0] + 1} wins"


def last_log(game) -> str:
    from meeple.interpreter.play import views
    return views.view(game, -1)["log"][-1]


# ---------------------------------------------------------------- the setup
def test_the_setup_puts_each_man_on_its_square_and_white_moves_first():
    game = interpreter.load("chess").new_game(2, 0)
    assert man(game, "e1") == ("white", "king") and man(game, "d8") == ("black", "queen")
    assert man(game, "a2") == ("white", "pawn") and man(game, "g8") == ("black", "knight")
    assert all(man(game, f"{f}{r}") is None for f in "abcdefgh" for r in range(3, 7))
    assert game.active_player == 0 and len(moves(game)) == 20


# ---------------------------------------------------------------- how the men move
def test_a_pawn_steps_one_square_or_two_from_its_first_rank():
    game = fen_position("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    assert from_square(game, "e2") == ["e3", "e4"]
    game = fen_position("4k3/8/8/8/8/4P3/8/4K3 w - - 0 1")
    assert from_square(game, "e3") == ["e4"]
    game = fen_position("4k3/4p3/8/8/8/8/8/4K3 b - - 0 1")
    assert from_square(game, "e7") == ["e5", "e6"]


def test_a_pawn_is_blocked_by_any_man_in_front():
    game = fen_position("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1")
    assert from_square(game, "e2") == []
    game = fen_position("4k3/8/8/8/4n3/8/4P3/4K3 w - - 0 1")
    assert from_square(game, "e2") == ["e3"]


def test_a_pawn_takes_diagonally_forward_only():
    game = fen_position("4k3/8/8/3p1P2/4P3/8/8/4K3 w - - 0 1")
    assert from_square(game, "e4") == ["d5", "e5"]           # not its own man on f5


def test_a_knight_jumps_over_men():
    game = fen_position("4k3/8/8/8/8/8/PPP5/NK6 w - - 0 1")
    assert from_square(game, "a1") == ["b3"]
    game = fen_position("4k3/7p/8/3N4/8/8/8/4K3 w - - 0 1")
    assert from_square(game, "d5") == ["b4", "b6", "c3", "c7", "e3", "e7", "f4", "f6"]


def test_a_bishop_slides_diagonally_up_to_the_first_man():
    game = fen_position("4k3/8/5p2/8/3B4/2P5/8/4K3 w - - 0 1")
    assert from_square(game, "d4") == ["a7", "b6", "c5", "e3", "e5", "f2", "f6", "g1"]


def test_a_rook_slides_along_ranks_and_files():
    game = fen_position("4k3/3p4/8/8/1P1R2n1/8/8/4K3 w - - 0 1")
    assert from_square(game, "d4") == ["c4", "d1", "d2", "d3", "d5", "d6", "d7", "e4", "f4",
                                       "g4"]


def test_a_queen_moves_as_a_rook_or_a_bishop():
    game = fen_position("4k3/8/8/8/8/8/1P6/Q3K3 w - - 0 1")
    assert from_square(game, "a1") == ["a2", "a3", "a4", "a5", "a6", "a7", "a8", "b1", "c1",
                                       "d1"]


def test_a_king_steps_one_square_but_never_into_check():
    game = fen_position("4k3/7p/8/8/8/8/8/4K3 w - - 0 1")
    assert from_square(game, "e1") == ["d1", "d2", "e2", "f1", "f2"]
    game = fen_position("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1")
    assert from_square(game, "e1") == ["d2", "f1"]            # takes the rook, or f1


def test_the_kings_never_stand_side_by_side():
    game = fen_position("8/7p/8/8/8/4k3/8/4K3 w - - 0 1")
    assert from_square(game, "e1") == ["d1", "f1"]


# ---------------------------------------------------------------- castling
def test_castling_on_either_side_moves_king_and_rook():
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    game = fen_position(fen)
    assert {"O-O", "O-O-O"} <= set(moves(game))
    testing.play(game, "O-O")
    assert man(game, "g1") == ("white", "king") and man(game, "f1") == ("white", "rook")
    assert man(game, "h1") is None and man(game, "e1") is None
    testing.play(game, "O-O-O")
    assert man(game, "c8") == ("black", "king") and man(game, "d8") == ("black", "rook")
    assert man(game, "a8") is None


def test_castling_needs_the_squares_between_empty():
    game = fen_position("4k3/8/8/8/8/8/8/RN2K1NR w KQ - 0 1")
    assert "O-O" not in moves(game) and "O-O-O" not in moves(game)
    game = fen_position("4k3/8/8/8/8/8/8/R3K1NR w KQ - 0 1")
    assert "O-O-O" in moves(game) and "O-O" not in moves(game)


def test_no_castling_out_of_check():
    game = fen_position("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1")
    assert "O-O" not in moves(game) and "O-O-O" not in moves(game)


def test_no_castling_through_an_attacked_square():
    game = fen_position("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1")     # f1 attacked
    assert "O-O" not in moves(game) and "O-O-O" in moves(game)
    game = fen_position("4k3/8/8/8/8/8/3r4/R3K2R w KQ - 0 1")     # d1 attacked
    assert "O-O-O" not in moves(game) and "O-O" in moves(game)


def test_no_castling_into_check():
    game = fen_position("4k3/8/8/8/8/8/6r1/R3K2R w KQ - 0 1")     # g1 attacked
    assert "O-O" not in moves(game)
    game = fen_position("4k3/8/8/8/8/8/2r5/R3K2R w KQ - 0 1")     # c1 attacked
    assert "O-O-O" not in moves(game)


def test_an_attacked_b1_does_not_stop_castling_long():
    game = fen_position("4k3/8/8/8/8/8/1r6/R3K3 w Q - 0 1")
    assert "O-O-O" in moves(game)


def test_castling_rights_are_lost_when_the_king_moves():
    game = fen_position("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    testing.play(game, "e1-e2", "e8-d8", "e2-e1", "d8-e8")
    assert "O-O" not in moves(game) and "O-O-O" not in moves(game)


def test_castling_rights_are_lost_on_the_side_of_a_rook_that_moves():
    game = fen_position("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    testing.play(game, "h1-h2", "e8-d8", "h2-h1", "d8-e8")
    assert "O-O" not in moves(game) and "O-O-O" in moves(game)


def test_castling_rights_are_lost_on_the_side_of_a_rook_that_is_taken():
    # another rook that comes to h1 later has moved: it may not castle either
    game = fen_position("4k3/8/8/8/7R/8/6b1/R3K2R b KQ - 0 1")
    testing.play(game, "g2-h1", "h4-h2", "h1-c6", "h2-h1", "c6-b7")
    assert man(game, "h1") == ("white", "rook")
    assert "O-O" not in moves(game) and "O-O-O" in moves(game)


# ---------------------------------------------------------------- en passant
def test_en_passant_takes_the_pawn_that_passed():
    game = fen_position("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    testing.play(game, "d7-d5")
    assert "e5-d6" in moves(game)
    testing.play(game, "e5-d6")
    assert man(game, "d6") == ("white", "pawn") and man(game, "d5") is None


def test_en_passant_only_on_the_very_next_move():
    game = fen_position("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    testing.play(game, "d7-d5", "e1-e2", "e8-e7")
    assert "e5-d6" not in moves(game)
    # a pawn that stepped one square only cannot be taken en passant
    game = fen_position("4k3/8/3p4/4P3/8/8/8/4K3 b - - 0 1")
    testing.play(game, "d6-d5")
    assert "e5-d6" not in moves(game)


def test_en_passant_may_not_expose_the_king():
    # both pawns leave the fifth rank: the rook on h5 would check the king on a5
    game = fen_position("4k3/3p4/8/K3P2r/8/8/8/8 b - - 0 1")
    testing.play(game, "d7-d5")
    assert "e5-d6" not in moves(game) and "e5-e6" in moves(game)


# ---------------------------------------------------------------- promotion
def test_a_pawn_on_the_last_rank_becomes_a_queen_rook_bishop_or_knight():
    game = fen_position("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert from_square(game, "a7") == ["a8=B", "a8=N", "a8=Q", "a8=R",
                                       "b8=B", "b8=N", "b8=Q", "b8=R"]
    for letter, role in (("Q", "queen"), ("R", "rook"), ("B", "bishop"), ("N", "knight")):
        g = fen_position("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
        testing.play(g, f"a7-b8={letter}")
        assert man(g, "b8") == ("white", role) and man(g, "a7") is None


def test_a_promoted_queen_moves_as_a_queen():
    game = fen_position("4k3/P7/8/8/8/8/8/7K w - - 0 1")
    testing.play(game, "a7-a8=Q")
    assert from_square(game, "e8") == ["d7", "e7", "f7"]          # the queen holds the 8th rank


# ---------------------------------------------------------------- check, mate, stalemate
def test_check_must_be_answered():
    game = fen_position("4k3/8/8/8/8/1N6/3PPP2/r3K3 w - - 0 1")     # take or block
    assert moves(game) == ["b3-a1", "b3-c1"]
    game = fen_position("4k3/8/8/8/8/8/3P1P2/r3K3 w - - 0 1")       # or step aside
    assert moves(game) == ["e1-e2"]


def test_a_check_is_announced():
    game = fen_position("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    testing.play(game, "a1-a8")
    assert last_log(game) == "Player 2 is in check" and from_square(game, "e8") == [
        "d7", "e7", "f7"]


def test_a_pinned_man_may_not_leave_the_line():
    game = fen_position("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1")
    assert from_square(game, "e2") == []
    game = fen_position("4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1")
    assert from_square(game, "e2") == ["e3", "e4", "e5", "e6", "e7"]


def test_a_man_pinned_on_a_diagonal_may_move_only_along_it():
    # the bishop on e3 is pinned by the bishop on g5 against the king on c1 (c1-d2-e3-f4-g5)
    game = fen_position("4k3/7p/8/6b1/8/4B3/7P/2K5 w - - 0 1")
    assert from_square(game, "e3") == ["d2", "f4", "g5"]
    # a rook there may not move at all: it cannot stay on the diagonal
    game = fen_position("4k3/7p/8/6b1/8/4R3/7P/2K5 w - - 0 1")
    assert from_square(game, "e3") == []


def test_only_a_rook_or_a_queen_pins_along_a_file_and_only_a_bishop_or_a_queen_on_a_diagonal():
    # a bishop beyond the knight on the e-file, a rook beyond the one on the diagonal: no pin
    game = fen_position("k3b3/8/8/8/8/4N3/8/4K3 w - - 0 1")
    assert from_square(game, "e3") == ["c2", "c4", "d1", "d5", "f1", "f5", "g2", "g4"]
    game = fen_position("4k3/8/8/8/7r/8/5N2/4K3 w - - 0 1")
    assert from_square(game, "f2") == ["d1", "d3", "e4", "g4", "h1", "h3"]
    game = fen_position("4k3/8/8/8/7q/8/5N2/4K3 w - - 0 1")   # a queen pins on the diagonal
    assert from_square(game, "f2") == []


def test_a_man_on_a_line_with_its_king_behind_another_man_is_not_pinned():
    game = fen_position("4k3/4r3/8/8/4N3/8/4P3/4K3 w - - 0 1")  # the pawn shields the king
    assert from_square(game, "e4") == ["c3", "c5", "d2", "d6", "f2", "f6", "g3", "g5"]


def test_a_king_in_check_may_not_step_back_along_the_line_of_the_check():
    game = fen_position("4k3/8/8/8/8/8/8/r3K3 w - - 0 1")     # not to f1, behind the king
    assert from_square(game, "e1") == ["d2", "e2", "f2"]
    game = fen_position("4k3/7p/8/8/1b6/8/3K3P/8 w - - 0 1")  # not to e1
    assert from_square(game, "d2") == ["c1", "c2", "d1", "d3", "e2", "e3"]


def test_a_sliding_man_stops_on_the_first_man_of_its_line_taking_it_if_it_is_the_enemys():
    game = fen_position("4k3/8/3n4/8/3Q1P2/8/8/4K3 w - - 0 1")
    targets = from_square(game, "d4")
    assert "d6" in targets and "d7" not in targets          # takes the knight, stops there
    assert "e4" in targets and "f4" not in targets and "g4" not in targets  # own pawn on f4
    assert {"a1", "a7", "g7", "h8", "d1", "a4"} <= set(targets)


def test_checkmate_ends_the_game_and_the_mating_side_wins():
    game = fen_position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    testing.play(game, "a1-a8")
    assert result(game) == "seat 1 wins"
    assert "Checkmate" in last_log(game)
    game = fen_position("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2")
    testing.play(game, "d8-h4")                                  # the fool's mate
    assert result(game) == "seat 2 wins"


def test_stalemate_is_a_draw():
    game = fen_position("7k/8/6Q1/8/8/8/8/K7 w - - 0 1")
    testing.play(game, "g6-f7")
    assert result(game) == "draw" and "Stalemate" in last_log(game)


# ---------------------------------------------------------------- draws
def test_fifty_moves_without_a_capture_or_a_pawn_move_draw():
    game = fen_position("4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    testing.play(game, "a1-a2")
    assert result(game) == "draw" and "50 moves" in last_log(game)


def test_a_capture_or_a_pawn_move_starts_the_fifty_moves_again():
    game = fen_position("4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80")
    testing.play(game, "e2-e3")
    assert not game.over and game.state["vars"]["quiet_moves"] == 0
    game = fen_position("4k3/8/8/8/8/8/n7/R3K3 w - - 99 80")
    testing.play(game, "a1-a2")
    assert not game.over and game.state["vars"]["quiet_moves"] == 0


def test_the_third_repetition_of_a_position_draws():
    game = fen_position("4k1n1/8/8/8/8/8/8/4K1N1 w - - 0 1")
    shuffle = ["g1-f3", "g8-f6", "f3-g1", "f6-g8"]
    testing.play(game, *shuffle)            # the start position, a second time
    assert not game.over
    testing.play(game, *shuffle[:3])
    assert not game.over
    testing.play(game, shuffle[3])          # and a third time
    assert result(game) == "draw" and "3 times" in last_log(game)


def test_a_repetition_counts_only_with_the_same_castling_rights():
    game = fen_position("r3k3/8/8/8/8/8/8/4K1N1 b q - 0 1")
    testing.play(game, "a8-a7", "g1-f3", "a7-a8", "f3-g1")   # the rook has moved: rights lost
    testing.play(game, "a8-a7", "g1-f3", "a7-a8", "f3-g1")
    assert not game.over                    # the start (with rights) is a different position
    testing.play(game, "a8-a7")             # the rook on a7 a third time
    assert result(game) == "draw"


def test_a_king_against_a_king_and_a_knight_cannot_mate():
    game = fen_position("4k3/8/8/8/8/8/3r4/4K1N1 w - - 0 1")
    testing.play(game, "e1-d2")
    assert result(game) == "draw" and "can mate" in last_log(game)
    game = fen_position("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1")      # bishops of both colours
    assert not game.over


def test_bishops_all_on_one_colour_of_square_cannot_mate():
    game = fen_position("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1")         # c1 and f8: both dark
    assert game.over and result(game) == "draw"


def test_the_turn_passes_to_the_other_side():
    game = program().new_game(2, 0)
    testing.play(game, "e2-e4")
    assert game.active_player == 1 and from_square(game, "e7") == ["e5", "e6"]


# ---------------------------------------------------------------- the variant fide_claims
def claims_position(fen: str):
    from chess_fen import fen_position as build
    return build(fen, variants=("fide_claims",))


def test_fide_claims_fifty_moves_let_the_player_claim_or_play_on():
    game = claims_position("4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    testing.play(game, "a1-a2")
    assert not game.over and testing.notations(game) == ["play", "claim draw"]
    testing.play(game, "play")
    assert not game.over and "e8-d8" in moves(game)
    testing.play(game, "e8-d8", "claim draw")
    assert result(game) == "draw" and "claims a draw" in last_log(game)


def test_fide_claims_seventy_five_moves_draw_at_once():
    game = claims_position("4k3/8/8/8/8/8/8/R3K3 w - - 149 80")
    testing.play(game, "play", "a1-a2")
    assert result(game) == "draw" and "75 moves" in last_log(game)


def test_fide_claims_a_threefold_repetition_may_be_claimed_and_a_fivefold_draws():
    game = claims_position("4k1n1/8/8/8/8/8/8/4K1N1 w - - 0 1")
    shuffle = ["g1-f3", "g8-f6", "f3-g1", "f6-g8"]
    testing.play(game, *shuffle, *shuffle)           # the start position a third time
    assert testing.notations(game) == ["play", "claim draw"]
    for _ in range(2):
        for move in shuffle:                   # every position of the cycle: a 3rd time or more
            assert testing.notations(game) == ["play", "claim draw"]
            testing.play(game, "play", move)
    assert result(game) == "draw" and "5 times" in last_log(game)


# ---------------------------------------------------------------- other notations
def typed(game, text: str) -> str:
    """The move a player who types ``text`` makes (its own notation, without the verb)."""
    return game.find_move(text).notation.removeprefix("move ")


def test_from_the_start_e4_nf3_and_e2e4_are_moves_as_players_write_them():
    game = interpreter.load("chess").new_game(2, 0)
    assert typed(game, "e4") == typed(game, "e2e4") == typed(game, "e2-e4") == "e2-e4"
    assert typed(game, "Nf3") == typed(game, "g1f3") == typed(game, "move Nf3") == "g1-f3"
    assert typed(game, "e3") == "e2-e3" and typed(game, "Nc3") == "b1-c3"
    assert typed(game, "nf3") == "g1-f3"         # any letter case, when it names one move
    with pytest.raises(interpreter.IllegalMove, match="not a legal move"):
        game.find_move("e5")
    with pytest.raises(interpreter.IllegalMove, match="not a legal move"):
        game.find_move("Ng3")


def test_a_capture_is_written_with_x_and_a_pawn_capture_after_the_pawns_file():
    game = fen_position("4k3/8/8/3p4/4P3/8/8/2B1K3 w - - 0 1")
    assert typed(game, "exd5") == typed(game, "e4d5") == "e4-d5"
    assert typed(game, "e5") == "e4-e5"
    game = fen_position("4k3/8/8/8/8/8/3p4/2B1K3 w - - 0 1")
    assert game.aliases("c1-d2")[0] == "Bxd2" and typed(game, "Bxd2") == "c1-d2"
    assert typed(game, "Kxd2") == "e1-d2"


def test_two_knights_that_reach_one_square_are_told_apart_by_file_then_rank_then_both():
    game = fen_position("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")       # Nb1 and Nf1 reach d2
    assert typed(game, "Nbd2") == "b1-d2" and typed(game, "Nfd2") == "f1-d2"
    assert typed(game, "Na3") == "b1-a3"                          # only one reaches a3
    assert game.aliases("b1-d2")[0] == "Nbd2" and game.aliases("b1-a3")[0] == "Na3"
    game = fen_position("4k3/8/8/1N6/8/8/8/1N2K3 w - - 0 1")      # Nb1 and Nb5 reach a3
    assert game.aliases("b1-a3")[0] == "N1a3" and game.aliases("b5-a3")[0] == "N5a3"
    assert typed(game, "N1a3") == "b1-a3" and typed(game, "N5a3") == "b5-a3"
    game = fen_position("4k3/8/8/1N6/8/8/8/1N1NK3 w - - 0 1")     # b1, b5 and d1 reach c3
    assert game.aliases("b1-c3")[0] == "Nb1c3" and typed(game, "Nb1c3") == "b1-c3"
    assert typed(game, "N5c3") == "b5-c3" and typed(game, "Ndc3") == "d1-c3"
    with pytest.raises(interpreter.IllegalMove, match="not a legal move"):
        game.find_move("Nc3")                    # it must say which knight


def test_a_promotion_is_written_with_the_new_role():
    game = fen_position("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert typed(game, "a8=Q") == "a7-a8=Q" and typed(game, "a8=N") == "a7-a8=N"
    assert typed(game, "axb8=R") == "a7-b8=R" and typed(game, "a7b8b") == "a7-b8=B"
    assert typed(game, "a7a8q") == "a7-a8=Q"
    with pytest.raises(interpreter.IllegalMove, match="not a legal move"):
        game.find_move("a8")                     # a pawn on the last rank must become a man


def test_castling_is_o_o_or_the_kings_move_in_uci():
    game = fen_position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert typed(game, "O-O") == typed(game, "e1g1") == typed(game, "o-o") == "O-O"
    assert typed(game, "O-O-O") == typed(game, "e1c1") == "O-O-O"
    assert typed(game, "Kf1") == "e1-f1" and typed(game, "Rb1") == "a1-b1"


def test_en_passant_is_written_as_the_pawns_capture():
    game = fen_position("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    testing.play(game, "d5")
    assert typed(game, "exd6") == typed(game, "e5d6") == "e5-d6"


def test_a_text_that_could_be_two_moves_is_refused_naming_both():
    game = fen_position("4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1")   # b2 and d2 take c3
    assert typed(game, "bxc3") == "b2-c3" and typed(game, "Bxc3") == "d2-c3"
    with pytest.raises(interpreter.IllegalMove, match="'move b2-c3', 'move d2-c3'"):
        game.find_move("BXC3")


def test_a_check_or_mate_sign_may_follow_a_move():
    game = fen_position("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert typed(game, "Ra8+") == typed(game, "Ra8#") == typed(game, "Ra8") == "a1-a8"


def test_the_aliases_never_change_the_record():
    from meeple.interpreter import record
    typed_game = interpreter.load("chess").new_game(2, 0)
    written = interpreter.load("chess").new_game(2, 0)
    entries = [record.entry(typed_game.apply(t)) for t in
               ("e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O")]
    assert entries == ["move e2-e4", "move e7-e5", "move g1-f3", "move b8-c6", "move f1-b5",
                       "move a7-a6", "move b5-c6", "move d7-c6", "move O-O"]
    testing.play(written, *entries)
    assert typed_game.state == written.state


# ---------------------------------------------------------------- against OpenSpiel
CASTLE = {("O-O", 0): "e1g1", ("O-O-O", 0): "e1c1", ("O-O", 1): "e8g8", ("O-O-O", 1): "e8c8"}
LETTERS = {"pawn": "p", "knight": "n", "bishop": "b", "rook": "r", "queen": "q", "king": "k"}


def lan(notation: str, seat: int) -> str:
    """A move in OpenSpiel's long algebraic notation: move e7-e8=Q -> e7e8q."""
    m = notation.split(" ", 1)[1]
    if m.startswith("O-O"):
        return CASTLE[(m, seat)]
    m = m.replace("-", "")
    return m[:4] + (m[5].lower() if "=" in m else "")


def placement(game) -> str:
    """The board in FEN's first field."""
    rows = []
    for r in range(8, 0, -1):
        row, gap = "", 0
        for f in "abcdefgh":
            held = man(game, f"{f}{r}")
            if held is None:
                gap += 1
                continue
            row += (str(gap) if gap else "") + (LETTERS[held[1]].upper() if held[0] == "white"
                                                 else LETTERS[held[1]])
            gap = 0
        rows.append(row + (str(gap) if gap else ""))
    return "/".join(rows)


def test_random_games_agree_with_openspiel_chess():
    """Random games played move by move in Meeple and in OpenSpiel's `chess`: at every
    decision the same legal moves, after every move the same board, and at the end the
    same result (mate, stalemate, and the automatic draws); in the first three, the same
    standard algebraic notation of every move. OpenSpiel's player 0 is Black."""
    import random
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (open-spiel) is not installed")
    from pyspiel import chess as spiel_chess
    spiel = pyspiel.load_game("chess")
    prog = interpreter.load("chess")
    for seed in range(12):
        rnd = random.Random(seed)
        game, state = prog.new_game(2, seed), spiel.new_initial_state()
        while not (game.over or state.is_terminal()):
            seat = game.active_player
            ours = {lan(m.notation, seat): m for m in game.legal_moves()}
            theirs = {spiel_chess.action_to_move(a, state.board()).to_lan(): a
                      for a in state.legal_actions()}
            assert set(ours) == set(theirs), (seed, str(state), sorted(set(ours) ^ set(theirs)))
            if seed < 3:   # the standard algebraic notation a player may type: OpenSpiel's
                sans = {spiel_chess.action_to_move(a, state.board()).to_san(state.board())
                        .rstrip("+#"): a for a in state.legal_actions()}
                assert {game.aliases(m)[0]: theirs[k] for k, m in ours.items()} == sans, seed
            pick = rnd.choice(sorted(ours))
            game.apply(ours[pick], safe=False)
            state.apply_action(theirs[pick])
            assert placement(game) == str(state).split()[0], (seed, str(state))
        assert game.over and state.is_terminal(), seed
        white, black = state.returns()[1], state.returns()[0]
        expected = "draw" if white == black else "seat 1 wins" if white > black else "seat 2 wins"
        assert result(game) == expected, (seed, str(state))


# ---------------------------------------------------------------- the hint for bots
def test_the_heuristic_counts_material_and_how_far_pawns_have_advanced():
    game = interpreter.load("chess").new_game(2, 0)
    assert game.heuristic(0) == game.heuristic(1) == 8 * 10 + 2 * 30 + 2 * 30 + 2 * 50 + 90
    # White: queen, rook and a pawn on e5 (3 ranks up); Black: rook, knight, a pawn on a6
    game = fen_position("r3k3/8/p7/4P3/8/2n5/8/QR2K3 w - - 0 1")
    assert game.heuristic(0) == 90 + 50 + 10 + 3
    assert game.heuristic(1) == 50 + 30 + 10 + 1


def test_the_heuristic_drives_a_bare_king_to_the_edge_and_brings_its_own_king_near():
    # Black has a rook's worth or less: White counts 2 per step of Black's king from the
    # centre and loses 1 per square between the kings
    near_edge = fen_position("k7/8/2K5/8/8/8/8/7Q w - - 0 1")
    assert near_edge.heuristic(0) == 90 + 2 * 7 - 2
    in_centre = fen_position("8/8/8/3k4/8/8/8/K6Q w - - 0 1")
    assert in_centre.heuristic(0) == 90 + 2 * 1 - 4
    assert near_edge.heuristic(1) == in_centre.heuristic(1) == 0   # White keeps its queen
