"""Chess positions for the tests of rulesets/chess, written in Forsyth-Edwards Notation
(FEN, as the perft literature publishes them): ``fen_position`` builds the game with
``testing.position``, independently of the ruleset's own rules (they only run from there)."""
from __future__ import annotations

from functools import cache

from meeple.interpreter.analysis import testing

from meeple import interpreter

ROLES = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen", "k": "king"}
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


@cache
def program(variants: tuple[str, ...] = ()):
    return interpreter.load("chess", variants=list(variants)).for_players(2)


def fen_position(fen: str, variants: tuple[str, ...] = ()):
    """The game at the start of the turn of the side to move in ``fen``: the board, the
    side to move, the castling rights (a king or rook that may still castle has not
    moved; every other man has), the en passant square and the half-move clock."""
    prog = program(tuple(variants))
    fields = fen.split()
    rows, side = fields[0].split("/"), fields[1]
    rights = fields[2] if len(fields) > 2 else "-"
    ep = fields[3] if len(fields) > 3 else "-"
    clock = int(fields[4]) if len(fields) > 4 else 0
    spare = {(c, r): testing.items(prog, "Piece", colour=c, first=r)
             for c in ("white", "black") for r in ROLES.values()}
    zones, roles, moved = {}, {}, {}
    for i, row in enumerate(rows):
        rank, file = 8 - i, 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
                continue
            file += 1
            colour = "white" if ch.isupper() else "black"
            role = ROLES[ch.lower()]
            pool = spare[(colour, role)] or spare[(colour, "pawn")]   # a promoted pawn
            item = pool.pop(0)
            square = "abcdefgh"[file - 1] + str(rank)
            zones[f"square:{square}"] = [item]
            roles[item] = role
            moved[item] = not _may_castle(role, colour, square, rights)
    vars_ = {"quiet_moves": clock}
    if ep != "-":
        vars_["en_passant"] = testing.zone(prog, f"square:{ep}")
    return testing.position(prog, 2, zones, active=0 if side == "w" else 1, vars=vars_,
                            ivars={"role": roles, "moved": moved})


def _may_castle(role: str, colour: str, square: str, rights: str) -> bool:
    home = "1" if colour == "white" else "8"
    marks = {"e": "KQ", "h": "K", "a": "Q"}
    if role not in ("king", "rook") or square[1] != home or square[0] not in marks:
        return False
    if (role == "king") != (square[0] == "e"):
        return False
    wanted = marks[square[0]]
    wanted = wanted if colour == "white" else wanted.lower()
    return any(m in rights for m in wanted)
