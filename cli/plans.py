"""Choices made ahead at one keyboard: after its move, a seat that is still to choose,
with nothing it may not see happening in between but the other seats' secret choices
(``interpreter.play.ahead``), makes its next choices at once, on a copy of the game
whose secrets are drawn from what the seat sees (``interpreter.determinize``);
they are played in the game when it comes to them, each only if the seat's view is
then what it was shown, so that passing three cards in Hearts is one hand-over per
seat, not three."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from .i18n import tr

if TYPE_CHECKING:
    from ..interpreter.play.game import Game
    from .play import PlaySession


class Plans:
    """The choices each seat made ahead, in order, each as (``ahead.plan_key`` of the
    game it was made on, its notation); the seats whose choices no longer fitted."""

    def __init__(self) -> None:
        self.made: dict[int, list[tuple[str, str]]] = {}
        self.dropped: set[int] = set()
        # the two copies a choice is being made on (``ahead.ahead``)
        self.games: tuple[Game, Game] | None = None

    def make(self, session: PlaySession, seat: int) -> None:
        """After ``seat``'s move: while it can choose ahead, it does (the session asks it
        on a copy of the game: ``session.ask``); nothing when it is the only human."""
        import random

        from ..interpreter import determinize
        from ..interpreter.play.ahead import ahead
        real = session.game
        if len(session.humans) < 2 or real.over or real.active_player == seat:
            return   # (one human, or it is asked next anyway: no hand-over to spare)
        # on a sample of what the seat may not see, not on the game: whether it may choose
        # ahead (the others' secret choices filled in from their own options) and what it
        # is shown then follow from what it may see alone, not from the others' secrets
        sample = determinize(real, seat, random.Random(0))
        games = ahead((sample, sample.copy()), seat)
        try:
            while games is not None:
                self.games = games
                session.game = games[0]
                session.show(seat)   # (whole: the screen says the choice is made ahead)
                if not session.ask(seat):
                    return
                games = ahead(games, seat)
        finally:
            session.game = real
            self.games = None

    def lines(self, lang) -> list[tuple[bool, Text]]:
        """The line a turn screen ends its account of what happened with while a choice
        is made ahead (as a message: the screen keeps it), else none."""
        if self.games is None:
            return []
        return [(True, Text(tr(lang, "Your next choice, made now: it is played once the "
                                     "others have made theirs."), style="bold"))]

    def apply(self, seat: int, move) -> tuple:
        """A choice of ``seat`` made ahead, on the copies: (Move, copy before it, no
        chance results)."""
        from ..interpreter.play.ahead import plan_key
        assert self.games is not None   # (only while a choice is made ahead)
        first, last = self.games
        before = first.copy()
        key = plan_key(first, seat)
        m = first.apply(move, seat=seat)
        last.apply(m.notation, seat=seat)
        self.made.setdefault(seat, []).append((key, m.notation))
        return m, before, []

    def play(self, session: PlaySession, seat: int) -> bool:
        """Plays the choice ``seat`` made ahead for the decision now, if it still fits
        (who chose is told, never what: a choice made ahead is a secret one)."""
        notation = self.next(session.game, seat)
        if notation is None:
            return False
        session.apply(seat, notation)
        session.console.print(Text(tr(session.lang, "{player} has chosen in secret.",
                                      player=session.pname(seat)), style="dim"))
        return True

    def next(self, game, seat: int) -> str | None:
        """The choice ``seat`` made ahead for its decision now, when its view is the one
        it was made on; else None (and its other choices made ahead are dropped: it is
        asked again)."""
        from ..interpreter.play.ahead import plan_key
        made = self.made.get(seat)
        if not made:
            return None
        key, notation = made[0]
        if plan_key(game, seat) != key:
            del self.made[seat]
            self.dropped.add(seat)
            return None
        made.pop(0)
        return notation

    def note_dropped(self, session: PlaySession, seat: int) -> None:
        """Tells a seat asked again that its choices made ahead no longer fitted."""
        if seat in self.dropped:
            self.dropped.discard(seat)
            session.console.print(Text(tr(
                session.lang, "The choices you made ahead no longer fit the game: choose "
                              "again."), style="yellow"))
