"""What a player types at the move prompt, read (a part of ``play.PlaySession``): a move's
notation, the verb's word, an alias (e4 for e2-e4), a unique prefix, or a command; and
why a text is not a move."""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import render
from .i18n import tr

if TYPE_CHECKING:
    from ..interpreter.play.game import Game

# the commands that show a part of the game whole (``details``)
DETAIL_WORDS = {"board", "zones", "log", "moves", "legend"}


class TypedMoves:
    """Methods of ``play.PlaySession`` (its ``game``, ``lang``)."""

    if TYPE_CHECKING:
        game: Game
        lang: str | None

    def move_keys(self, m) -> set[str]:
        """How a move may be typed (``render.typed_keys``)."""
        return render.typed_keys(self.game.program, getattr(self.game.decision, "verb", None), m.notation)

    def words(self) -> list[str]:
        """What the line editor completes: the legal moves as they may be typed (with and
        without the verb, and each move's first alias, such as Nf3), then the commands."""
        from ..interpreter import RuleError
        from ..interpreter.play import display
        verb = getattr(self.game.decision, "verb", None) or ""
        out: list[str] = []
        for m in self.game.legal_moves():
            out += dict.fromkeys([m.notation, display.worded(self.game.program, m.notation, verb)])
            if verb and m.notation.startswith(verb + " "):
                out.append(m.notation[len(verb) + 1:])
        try:
            out += [texts[0] for texts in map(self.game.aliases, self.game.legal_moves()) if texts]
        except RuleError:
            pass   # (typed, such a text is refused with the reason)
        commands = ["help", "screen", *sorted(DETAIL_WORDS), "undo", "quit"]
        return out + commands

    def unique_prefix(self, line: str, moves: list) -> str | None:
        """The notation of the one move that ``line`` begins (``hold`` for ``hold 3``,
        ``birds-man`` for ``play birds-man-7``), when it is not a move itself and begins
        exactly one. A prefix ends where a word or a part of a value ends (before a
        space, ``-``, ``+`` or ``.``), so ``r1c1`` never stands for ``r1c10``."""
        want = " ".join(line.split()).casefold()
        if not want or any(want in self.move_keys(m) for m in moves) or self.aliased(want, moves):
            return None
        found = self.prefixed(want, moves)
        return found[0].notation if len(found) == 1 else None

    def aliased(self, want: str, moves: list) -> list:
        """The moves one of whose aliases (the ruleset's other ways to type them, like
        a short e4 for e2-e4) is ``want`` (folded), with or without the verb."""
        from ..interpreter import RuleError
        verb = (getattr(self.game.decision, "verb", None) or "").casefold()
        bare = want[len(verb) + 1:] if verb and want.startswith(verb + " ") else want
        try:
            return [m for m in moves
                    if bare in {" ".join(t.split()).casefold() for t in self.game.aliases(m)}]
        except RuleError:
            return []

    def prefixed(self, want: str, moves: list) -> list:
        """The moves that ``want`` (folded) begins, up to where a word or part ends."""
        return [m for m in moves
                if any(len(k) > len(want) and k.startswith(want) and k[len(want)] in " -+."
                       for k in self.move_keys(m))] if want else []

    def illegal_text(self, line: str, moves: list) -> str:
        """Why a typed notation is not a move, in the CLI's language: it fits several
        moves (ignoring case, spaces and the verb), or none (with the closest one)."""
        from ..dsl.errors import suggest
        want = " ".join(line.split()).casefold()
        found = [m for m in moves if want in self.move_keys(m)] or self.aliased(want, moves) \
            or self.prefixed(want, moves)
        shown = render.literal(line, newlines=False)
        if len(found) > 1:
            listed = ", ".join(f"'{render.literal(m.notation)}'" for m in found[:8])
            return tr(self.lang, "'{text}' could be any of {n} moves ({moves}); type it exactly "
                      "or give its number.", text=shown, n=len(found), moves=listed)
        close = suggest(want, [m.notation for m in moves])
        if close:
            return tr(self.lang, "'{text}' is not a legal move now; did you mean '{move}'?",
                      text=shown, move=render.literal(close))
        return tr(self.lang, "'{text}' is not a legal move now; type a number from 1 to "
                  "{count}, a move's notation, or help.", text=shown, count=len(moves))
