"""The tables a server holds: each a game in memory, its stored form, its bots, and
the listeners to tell when it changes. Every change goes through ``Table.play``: the
move is checked and made, then committed to the store, and only then acknowledged and
announced; bots play their seats here, on the server."""
from __future__ import annotations

import asyncio
import secrets
import sys
from collections import deque
from dataclasses import dataclass

from .. import interpreter
from ..interpreter import IllegalMove, RuleError, bot_move, bot_seed, make_bot
from .present import LastMove, fallen, may_fall, opening
from .store import SPECTATOR, MoveTaken, Store, StoredTable
from .words import REFUSALS, fill

TOKEN_BYTES = 24     # 192 bits from `secrets` per link
MOVES_SHOWN = 60     # the latest moves a seat's document lists (as the log keeps 60 messages)


class MoveRefused(Exception):
    """A move a seat may not make now: ``status`` is the HTTP status to answer with,
    ``code`` the reason (a key of web/words.py REFUSALS, whose sentence, with ``fields``,
    says why in English and gives nothing away a seat may not see)."""

    def __init__(self, status: int, code: str, **fields: str):
        self.message = fill(REFUSALS[code], **fields)
        super().__init__(self.message)
        self.status = status
        self.code = code
        self.fields = fields


@dataclass(frozen=True)
class Link:
    table: Table
    seat: int       # 0-based, or SPECTATOR


class Writer:
    """Writes the moves of every table of a server to its store off the event loop, the
    moves that come while a write is under way together in the next transaction (one
    sync to disk for all of them: a commit costs about 10 ms of waiting for the disk)."""

    def __init__(self, store: Store):
        self.store = store
        self.queue: list[tuple[tuple[str, int, str], asyncio.Future]] = []
        self.task: asyncio.Task | None = None

    async def write(self, table_id: str, number: int, move: str) -> None:
        """Returns once the move is committed; MoveTaken when its number was taken."""
        future = asyncio.get_running_loop().create_future()
        self.queue.append(((table_id, number, move), future))
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._flush())
        if not await future:
            raise MoveTaken(number)

    async def _flush(self) -> None:
        while self.queue:
            batch, self.queue = self.queue, []
            try:
                stored = await asyncio.to_thread(self.store.add_moves, [row for row, _ in batch])
            except Exception as e:  # noqa: BLE001 - each waiting move gets the error
                for _, future in batch:
                    if not future.done():
                        future.set_exception(e)
                continue
            for (_, future), ok in zip(batch, stored):
                if not future.done():     # (a request given up meanwhile)
                    future.set_result(ok)


class Table:
    """One game at one table."""

    def __init__(self, stored: StoredTable, ruleset, store: Store, writer: Writer | None = None):
        self.stored = stored
        self.ruleset = ruleset
        self.store = store
        self.writer = writer or Writer(store)
        self.program = ruleset.for_players(stored.players)
        self.game = ruleset.new_game(players=stored.players, seed=stored.seed)
        self.game.undo_limit = 1     # a move whose commit fails is taken back
        self.bots = {s: make_bot(spec, bot_seed(stored.seed, 0, s), play_time=interpreter.PLAY_TIME)
                     for s, spec in stored.bots.items()}
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()
        # the chance results of the set-up (an opening roll) each seat may know, and
        # whether those of each move are looked for (a game that hides nothing)
        self.opening = opening(self.game, stored.seed)
        self.tells_chance = may_fall(self.game)
        # the latest moves, as each seat saw them
        self.made: deque[LastMove] = deque(maxlen=MOVES_SHOWN)
        for k, move in enumerate(stored.moves):     # the stored moves, played again
            if k >= len(stored.moves) - MOVES_SHOWN:
                self._apply(move)
            else:
                self.game.apply(move)
        self._bots_task: asyncio.Task | None = None

    @property
    def id(self) -> str:
        return self.stored.id

    def links(self) -> dict[int, str]:
        """Seat (SPECTATOR for the spectator) -> its token."""
        return {seat: token for token, seat in self.stored.links.items()}

    def record(self) -> dict:
        """The game's record (meeple replay reads it), as plain data."""
        from ..interpreter import record
        stored = self.stored
        seats = [stored.bots.get(s, "human") for s in range(stored.players)]
        return record.Record(stored.ruleset, stored.players, stored.seed, list(stored.variants),
                             stored.locale, list(stored.moves), seats,
                             result=self.game.result,
                             state_digest=record.digest(self.game)).to_dict()

    @property
    def version(self) -> int:
        """The number of moves made: a later state has a greater one."""
        return len(self.stored.moves)

    @property
    def last(self) -> LastMove | None:
        """The last move, as each seat saw it."""
        return self.made[-1] if self.made else None

    def _apply(self, move) -> None:
        """Makes a move (a Move, or its text as stored) and keeps it among the latest."""
        move = self.game.find_move(move)
        last = LastMove(self.game, move)
        copy = self.game.copy() if self.tells_chance else None   # (to find the dice that fall)
        self.game.apply(move)
        fell = fallen(copy, self.game, move) if copy is not None else []
        self.made.append(last.played(self.game, fell))

    def _announce(self) -> None:
        self.changed.set()
        self.changed = asyncio.Event()

    def sync(self) -> bool:
        """Plays the moves another server process stored since (a shared database);
        whether there were any. Called under the lock."""
        new = self.store.moves_from(self.id, len(self.stored.moves))
        for move in new:
            self._apply(move)
            self.stored.moves.append(move)
        if new:
            self._announce()
            self.start_bots()
        return bool(new)

    async def _commit(self, move) -> None:
        """Makes ``move`` (a legal Move) and stores it; taken back if the store fails
        (MoveTaken: another process stored a move first; this one has caught up).
        Called under the lock, which it keeps while the move is written: nobody sees a
        move before it is stored."""
        text = self.game.move_text(move)
        dropped = self.made[0] if len(self.made) == self.made.maxlen else None
        self._apply(move)
        try:
            await self.writer.write(self.id, len(self.stored.moves), text)
        except MoveTaken:
            self._take_back(dropped)
            self.sync()
            raise
        except Exception:
            self._take_back(dropped)
            raise
        self.stored.moves.append(text)
        self._announce()

    def _take_back(self, dropped: LastMove | None) -> None:
        """Takes back the move just made (its commit failed); ``dropped``: the move the
        list of the latest let go for it."""
        self.game.undo()
        self.made.pop()
        if dropped is not None:
            self.made.appendleft(dropped)

    async def play(self, seat: int, notation: str) -> str:
        """Plays a human seat's move given by its notation; the notation played, once
        committed. MoveRefused when the seat may not make it."""
        async with self.lock:
            self.sync()
            game = self.game
            if seat == SPECTATOR:
                raise MoveRefused(403, "spectator")
            if seat in self.bots:
                raise MoveRefused(403, "bot_seat")
            if game.over:
                raise MoveRefused(409, "game_over")
            if seat not in game.deciding:
                raise MoveRefused(409, "not_your_turn")
            try:
                move = game.find_move(notation, seat=seat)
            except IllegalMove:
                raise MoveRefused(422, "illegal", notation=notation) from None
            try:
                await self._commit(move)
            except RuleError:
                raise MoveRefused(422, "rules_fail") from None
            except MoveTaken:
                raise MoveRefused(409, "move_taken") from None
            notation = move.notation
        self.start_bots()
        return notation

    def start_bots(self) -> None:
        """Lets the bots play while one of theirs is to move (one task per table)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:       # not serving yet: the server starts them (app.py)
            return
        if self._bots_task is None or self._bots_task.done():
            self._bots_task = loop.create_task(self._run_bots())

    def _bot_to_move(self) -> int | None:
        for seat in self.game.deciding:
            if seat in self.bots:
                return seat
        return None

    async def _run_bots(self) -> None:
        while True:
            async with self.lock:
                self.sync()
                seat = self._bot_to_move()
                if seat is None:
                    return
                # the bot thinks on a copy, in a thread: the game stays readable meanwhile
                copy = self.game.copy()
                version = self.version
            try:
                index = await asyncio.to_thread(bot_move, self.bots[seat], copy, seat)
            except Exception as e:  # noqa: BLE001 - a bot that fails stops; the server goes on
                print(f"table {self.id}: the bot of seat {seat + 1} failed: {e}", file=sys.stderr)
                return
            async with self.lock:
                if self.version != version:
                    continue
                try:
                    await self._commit(self.game.legal_moves(seat)[index])
                except MoveTaken:       # another process's bot was first
                    continue
                except RuleError as e:
                    print(f"table {self.id}: the bot of seat {seat + 1} could not move: {e}",
                          file=sys.stderr)
                    return
            await asyncio.sleep(0)


class Tables:
    """Every table a server holds, found by the tokens of its links."""

    def __init__(self, store: Store, loader=None):
        self.store = store
        self.writer = Writer(store)
        self.loader = loader or (lambda name, variants, locale: interpreter.load(
            name, variants=variants, locale=locale))
        self.by_id: dict[str, Table] = {}
        self.by_token: dict[str, Link] = {}

    def _add(self, table: Table) -> None:
        self.by_id[table.id] = table
        for token, seat in table.stored.links.items():
            self.by_token[token] = Link(table, seat)

    def restore(self) -> list[str]:
        """Loads every stored table, its moves played again; the problems of those that
        could not be (a ruleset that is gone or changed), one line each."""
        problems = []
        for stored in self.store.tables():
            try:
                ruleset = self.loader(stored.ruleset, stored.variants, stored.locale)
                self._add(Table(stored, ruleset, self.store, self.writer))
            except (OSError, ValueError, IllegalMove, RuleError, interpreter.MeepleError) as e:
                problems.append(f"table {stored.id} ({stored.ruleset}) is not served: {e}")
        return problems

    def create(self, ruleset_name: str, ruleset, players: int, variants: list[str],
               locale: str | None, seed: int, bots: dict[int, str]) -> Table:
        """A new table, stored with a secret link per seat and one for spectators."""
        links = {secrets.token_urlsafe(TOKEN_BYTES): seat for seat in range(players)}
        links[secrets.token_urlsafe(TOKEN_BYTES)] = SPECTATOR
        stored = StoredTable(secrets.token_hex(8), ruleset_name, players, list(variants),
                             locale, seed, dict(bots), links)
        table = Table(stored, ruleset, self.store, self.writer)   # (starts the game: a bad one is not stored)
        self.store.create(stored)
        self._add(table)
        return table

    def find(self, token: str) -> Link | None:
        """The link of a token: one of the tables held, or one another server process
        stored since (a shared database), loaded then."""
        link = self.by_token.get(token)
        if link is None:
            stored = self.store.table_with_token(token)
            if stored is None or stored.id in self.by_id:
                return None
            ruleset = self.loader(stored.ruleset, stored.variants, stored.locale)
            self._add(Table(stored, ruleset, self.store, self.writer))
            link = self.by_token.get(token)
        return link
