"""Hot-seat play in the terminal: humans and bots around one game.

Each human seat sees only its own view and its own legal moves. Before a human
decides, when the previous human decision was another seat's, the screen is cleared
and a handover screen (which shows nothing secret) waits for Enter; it accepts only
Enter or quit, so nothing typed there can draw a seat's screen for the wrong person.
Everything from the ruleset or typed by a user is printed literally (see
``render.console``).
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rich.columns import Columns
from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from . import render, saving, told
from .i18n import language, tr
from .layout import TurnInfo, fit_screen, flow, height, moves_full
from .line_input import LineEditor, editor as line_editor
from .render import HUMAN, seat_label  # (defined there: simulate needs no play)
from .typed import DETAIL_WORDS, TypedMoves

if TYPE_CHECKING:   # (imported where used: `meeple <command> --help` loads no interpreter)
    from ..interpreter.play import journal as journals, record as records
    from ..interpreter.play.game import Game

QUIT_WORDS = {"quit", "exit", "q"}
HELP_WORDS = {"help", "?", "h"}
UNDO_WORDS = {"undo", "u"}
SHOW_WORDS = {"screen", "show", "look"}


class Quit(Exception):
    """The player asked to stop (or the input ended)."""


class Interrupted(Quit):
    """Ctrl-C: stop like quit (the record is saved), then exit with 130."""


MAX_MOVE_NUMBER_DIGITS = 9  # a longer number is out of range for any list of moves
MAX_MOVE_TEXT = 500         # a longer line is not a move of any game (and is not echoed whole)


@dataclass
class Done:
    """One move made: who made it, its notation, and what undo checks of the game just
    before it (``marks``: see ``marks_of``; ``revealing``: the move was the last secret
    choice of a simultaneous decision, which shows everyone's). The game itself takes
    the move back (``Game.undo``): no copy of it is kept."""

    seat: int
    notation: str
    marks: dict
    text: str | None = None   # as the record writes it (``p2: bid 4`` in a simultaneous decision)
    revealing: bool = False
    secret: bool = False      # a choice made in secret (a simultaneous decision): not to be named
    seen: dict = field(default_factory=dict)   # a human seat -> the notation as it saw it

    @classmethod
    def before(cls, game: Game, seat: int, move: str | None = None) -> Done:
        """What to keep of ``game`` before a move of ``seat`` (its notation and record
        text are filled in once it is played, or given as ``move``)."""
        return cls(seat, move or "", marks_of(game), move,
                   game.simultaneous and len(game.deciding) == 1, game.simultaneous)


def marks_of(game: Game) -> dict:
    """What ``revealed_since`` compares of a state: the generator, what each seat has
    seen, how many chance outcomes were set (copied: the game goes on)."""
    s = game.state
    marks = {"rng": s["rng"], "seen": list(s["seen"])}
    if "chance" in s:
        marks["chance"] = {"n": s["chance"]["n"]}
    return marks


def read_line(console: Console, prompt: str, editor: LineEditor | None = None,
              seat: int | None = None, words=list) -> str:
    """One line of input; EOF means quit, Ctrl-C interrupts. When the input is not a
    terminal (a pipe, a test) the line is echoed (escaped) so the transcript reads like
    a session. Bytes that are not text come in as lone surrogates (surrogateescape)
    and are only ever printed escaped. With an ``editor`` (``line_input``) the line is
    edited there, with ``seat``'s history and ``words()`` as completions."""
    try:
        if editor is not None:
            line = editor.read(prompt, seat, words)
        else:
            console.print(prompt, end="", markup=False, highlight=False)
            line = input()
    except EOFError:
        console.print()
        raise Quit() from None
    except KeyboardInterrupt:
        console.print()
        raise Interrupted() from None
    except UnicodeDecodeError:   # an input stream that was not opened with surrogateescape
        line = "\ufffd"
    if not _isatty(sys.stdin):
        shown = line if len(line) <= MAX_MOVE_TEXT else line[:MAX_MOVE_TEXT] + "..."
        console.print(render.safe_text(shown))
    return line.strip()


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _verb_of(v: dict) -> str:
    """The verb of the decision a view shows (what the move styles are kept by)."""
    return (v.get("pending") or {}).get("verb") or ""


def is_ascii_number(s: str) -> bool:
    """'12' yes; '²', '١٢', '-1', '1e9', '' no (str.isdigit accepts the first two)."""
    return s.isascii() and s.isdigit()


class PlaySession(TypedMoves):
    """One game at the terminal. Its journal is written beside where its record goes
    (``journal.path_for``) as moves are made, and removed once the record is saved (or
    the game is over): a game killed without saving leaves it, to be resumed or replayed."""

    def __init__(self, console: Console, game: Game, seats: list[str], bots: dict,
                 rec: records.Record, record_path: Path | None, quit_path: Path,
                 layout: str = "auto"):
        from ..interpreter.play.views import SPECTATOR
        self.console = console
        self.game = game
        self.prog = game.program
        self.seats = seats
        self.bots = bots
        self.rec = rec
        self.record_path = record_path
        self.quit_path = quit_path
        self.layout = layout        # layout.LAYOUTS: how turn screens fit the terminal
        self.history: list[Done] = []
        self.last_human: int | None = None
        self.last_drawn = None
        humans = [s for s, kind in enumerate(seats) if kind == HUMAN]
        self.humans = humans
        # who reads bot announcements: the only human, else a spectator
        self.announce_to = humans[0] if len(humans) == 1 else SPECTATOR
        self.lang = language(self.prog)   # the CLI's words follow the ruleset's locale
        self.journal: journals.Journal | None = None
        self.signals = saving.Signals()   # SIGTERM and SIGHUP stop the game like quit
        # what each human seat has not yet been shown since its last move, as it may see
        # it (the moves written from its view, the messages of its view's log), each line
        # with the number of the move that made it (undo takes those lines back) and
        # whether it is a message
        self.since: dict[int, list[tuple[int, bool, Text]]] = {s: [] for s in humans}
        self.log_known: dict[int, int] = {}
        self.own_seen: dict[int, set[int]] = {}   # its zones' items at its last move
        # seat -> the cells of the other seats' latest run of moves (``told.marked``)
        self.last_cells: dict[int, frozenset] = {}
        self.last_mover: dict[int, int] = {}
        # decision verb -> the barest way its moves have been written (``layout.Fit.moves``):
        # a move list never gets richer again, so it keeps one shape from turn to turn
        self.move_styles: dict[str, str] = {}
        for s in humans:
            self.know(s)
        self.editor = line_editor()   # line editing, history, completion on a terminal

    # ------------------------------------------------------------ helpers
    def pname(self, seat: int) -> str:
        from ..interpreter.play import display
        return render.literal(display.player_name(self.prog, seat))

    def save(self, path: Path) -> bool:
        """Saves the record (atomically; owner-only for a game with hidden information),
        with a digest after each move got by replaying it. False (and a message) if not."""
        from ..interpreter import RuleError
        from ..interpreter.play import record as records
        g, rec = self.game, self.rec
        rec.moves = [d.text or d.notation for d in self.history]
        try:
            records.complete(rec, self.prog)
        except (records.RecordError, RuleError) as e:
            # the moves are kept all the same; only the digests are missing
            rec.digests = None
            rec.state_digest = records.digest(g)
            rec.result = g.result if g.over else None
            rec.secrets = self.prog.hidden_information
            self.console.print(Text(tr(self.lang, "warning: "), style="yellow") + Text(
                tr(self.lang, "the record is saved without digests: {error}", error=e)))
        rec.note = records.describe(rec, path, g.over)
        try:
            with self.signals.held():
                rec.save(path)
        except records.SaveError as e:
            self.problem(tr(self.lang, "error: "), str(e), "bold red")
            return False
        return True

    def keep(self, path: Path) -> Path | None:
        """Saves the record to ``path`` or, when that fails, to a new file in the fallback
        folder (``saving.fallback_folder``), saying so; the path it went to (then the
        journal is no longer needed), or None (then the journal stays, and says where)."""
        if self.save(path):
            self.drop_journal()
            return path
        other = saving.free_target(saving.fallback_folder() / path.name)
        if self.save(other):
            self.problem(tr(self.lang, "warning: "), tr(
                self.lang, "{path} could not be written; the record is saved to {other} instead.",
                path=path, other=other), "yellow")
            self.drop_journal()
            return other
        self.keep_journal()
        return None

    def problem(self, label: str, text: str, style: str) -> None:
        """A warning or error on stderr (nothing when stderr is gone too)."""
        try:
            render.console(stderr=True).print(Text(label, style=style) + Text(text),
                                              soft_wrap=True)
        except OSError:
            pass

    # ------------------------------------------------------------ the journal
    def open_journal(self) -> None:
        """Starts the journal beside where the record goes; when that folder cannot be
        written and no --record was given, the game goes to the fallback folder."""
        from ..interpreter.play import journal as journals, record as records
        target = self.record_path or self.quit_path
        try:
            self.journal = journals.Journal.start(journals.path_for(target), self.journal_head())
            return
        except records.SaveError as e:
            problem = str(e)
        if self.record_path is None:
            folder = saving.fallback_folder()
            self.quit_path = saving.free_target(folder / self.quit_path.name)
            try:
                self.journal = journals.Journal.start(journals.path_for(self.quit_path),
                                                      self.journal_head())
                self.problem(tr(self.lang, "note: "), tr(
                    self.lang, "{problem}; this game is kept in {folder} instead.",
                    problem=problem, folder=folder), "cyan")
                return
            except records.SaveError as e:
                problem = str(e)
        self.problem(tr(self.lang, "warning: "), tr(
            self.lang, "{problem}; the game has no journal (it is saved when it ends or stops, "
                       "as usual).", problem=problem), "yellow")

    def journal_head(self) -> records.Record:
        """The journal's first line: the record of the moves made so far (with their
        digests when the record had them)."""
        from ..interpreter.play import record as records
        r = self.rec
        moves = [d.text or d.notation for d in self.history]
        digests = r.digests if r.digests is not None and len(r.digests) == len(moves) else None
        if not moves:
            digests = []
        return records.Record(r.ruleset, r.players, r.seed, r.variants, r.locale, moves,
                              list(self.seats), digests=digests,
                              ruleset_digest=records.ruleset_digest(self.prog) or r.ruleset_digest,
                              secrets=self.prog.hidden_information)

    def journal_write(self, what: str, *args) -> None:
        """A line of the journal (``move`` or ``undo``); if it cannot be written the game
        goes on without one, saying so."""
        from ..interpreter.play import record as records
        if self.journal is None:
            return
        try:
            getattr(self.journal, what)(*args)
        except records.SaveError as e:
            self.journal.close()
            self.journal = None
            self.problem(tr(self.lang, "warning: "), tr(
                self.lang, "{problem}; the game goes on without a journal.", problem=str(e)),
                "yellow")

    def drop_journal(self) -> None:
        if self.journal is not None:
            self.journal.remove()
            self.journal = None

    def keep_journal(self) -> None:
        """The game could not be saved: its journal stays, and says how to go on."""
        if self.journal is None:
            return
        self.journal.close()
        path, self.journal = self.journal.path, None
        self.problem(tr(self.lang, "note: "), tr(
            self.lang, "the game's moves are kept in {path}; continue it with "
                       "'meeple play --resume {path}'.", path=path), "cyan")

    def know(self, seat: int) -> None:
        """``seat`` has seen everything up to now: its messages, its own zones."""
        from ..interpreter.play.views import view
        v = view(self.game, seat)
        self.log_known[seat] = v.get("log_dropped", 0) + len(v["log"])
        self.own_seen[seat] = self.own_items(seat, v)

    def own_items(self, seat: int, v: dict) -> set[int]:
        """The items the view ``v`` shows in ``seat``'s own zones (not on a board)."""
        return {i for z in self.prog.zones
                if z.owner == seat and z.board is None and isinstance(v["zones"].get(z.key), list)
                for i in v["zones"][z.key] if isinstance(i, int)}

    def note_since(self, seat: int, m, before: Game, fallen: list) -> None:
        """After ``seat``'s move: each other human seat's lines of what happened, written
        from that seat's view only (a secret choice as "has chosen in secret"); the
        mover has seen all there was up to its move: its lines start anew with the
        messages its move caused. A move whose first message names its player and its
        value ("Player 1: a2-a4", "Player 1 holds 13") is told by that message alone
        (``views.move_told``). The chance results that fell (``fallen``) are told
        among the messages, where they fell, to the seats that may know them."""
        from ..interpreter.play.views import move_told, view
        k = len(self.history) - 1
        tc = self.type_code(before)
        for s in self.humans:
            v, before_view = view(self.game, s), None
            if s == seat:
                self.since[s] = []
            elif before.simultaneous:
                line = Text(tr(self.lang, "{player} has chosen in secret.", player=self.pname(seat)),
                            style="dim")
                # (a seat's picks in a row, choose 3 ...: said once)
                if not self.since[s] or self.since[s][-1][2].plain != line.plain:
                    self.since[s].append((k, False, line))
            else:
                before_view = view(before, s)
                seen = render.describe_move(before, m, tc, s, self.game, before_view=before_view)
                self.history[k].seen[s] = seen[0]   # (an item it may not see: the verb alone)
                if not move_told(before, m, self.game.state, s):   # (its message tells it)
                    self.since[s].append((k, False, render.move_line(Text(f"{self.pname(seat)}: "), *seen)))
            self.last_cells[s] = told.marked(s, seat, m, before, before_view, v,
                                             self.last_mover.get(s),
                                             self.last_cells.get(s, frozenset()))
            self.last_mover[s] = seat
            if s == seat:
                self.own_seen[s] = self.own_items(s, v)
            total = v.get("log_dropped", 0) + len(v["log"])
            new = max(0, min(total - self.log_known[s], len(v["log"])))
            said = [(total - new + j, 1, Text("  " + render.literal(msg)))
                    for j, msg in enumerate(v["log"][len(v["log"]) - new:] if new else [])]
            fell = [(at, 0, line) for at, line in told.chance_lines(
                self.prog, self.lang, fallen, s, self.game.state)]
            for _, _, line in sorted(said + fell, key=lambda e: (e[0], e[1])):
                self.since[s].append((k, True, line))
            self.log_known[s] = total

    def apply(self, seat: int, move) -> tuple:
        """Plays a move and records it in the history; returns (Move, game before, the
        chance results that fell: ``views.chance_seen``). (The game before is a copy
        made to describe the move, dropped once it is described: undo takes moves back
        with ``Game.undo``.)"""
        from ..interpreter.play import record as records
        before = self.game.copy()
        done = Done.before(self.game, seat)
        with self.signals.held():   # the move, its place in the history and in the journal
            m = self.game.apply(move, seat=seat)
            done.notation, done.text = m.notation, before.move_text(m)
            self.history.append(done)
            self.journal_write("move", done.text or done.notation, records.short_digest(self.game))
        fallen = told.fallen(before, m, seat) if done.marks["rng"] != self.game.state["rng"] else []
        self.note_since(seat, m, before, fallen)
        return m, before, fallen

    def type_code(self, game: Game) -> str:
        # non-secret metadata of the current decision: how its options are written
        return game.decision.type

    # ------------------------------------------------------------ the game loop
    def run(self) -> int:
        """Plays until the end (0), a typed quit or end of input (0, after saving), Ctrl-C
        (130, after saving), SIGHUP or SIGTERM (129 or 143, after saving), or a failed save
        or bot error (1). The journal is written meanwhile (see ``open_journal``)."""
        with self.signals:
            try:
                return self.play()
            finally:
                self.signals.stopping = True
                if self.journal is not None:   # (not saved: a bot's error, or a bug)
                    if self.game.over:
                        self.drop_journal()
                    else:
                        self.keep_journal()

    def play(self) -> int:
        try:
            self.open_journal()
            for s, lines in told.at_start(self.game, self.rec.seed, self.humans,
                                          self.lang, self.history).items():
                self.since[s] += [(-1, True, line) for line in lines]   # (an opening roll)
            while not self.game.over:
                seat = self.game.active_player
                if seat is None:  # pragma: no cover - a running game always has a decider
                    break
                if self.seats[seat] == HUMAN:
                    self.human_turn(seat)
                else:
                    if not self.bot_turn(seat):
                        return 1
        except saving.Stopped as s:
            return self.stop(128 + s.signum, s.name)
        except Interrupted:
            return self.stop(130)
        except Quit:
            return self.stop(0)
        except KeyboardInterrupt:
            return self.stop(130)
        except BrokenPipeError:
            return self.output_closed()
        try:
            with self.signals.held():   # a signal now waits until the record is saved
                return 0 if self.finish() else 1
        except saving.Stopped as s:
            return 128 + s.signum
        except BrokenPipeError:
            return self.output_closed()

    def output_closed(self) -> int:
        """The output was closed mid-game (``meeple play ... | head``): nothing more can
        be shown, so the game stops like quit, its record saved and the note written to
        stderr; exit 1. A finished game's record is saved as finished."""
        from ..interpreter.play import record as records
        self.console = render.console(stderr=True)
        if self.game.over:
            path = self.keep(self.record_path or records.free_path(self.quit_path))
            if path is None:
                return 1
            self.console.print(tr(self.lang, "The output was closed. Record saved to {path}.",
                                  path=path), markup=False, highlight=False, soft_wrap=True)
            return 1
        self.console.print(tr(self.lang, "The output was closed."), markup=False,
                           highlight=False, soft_wrap=True)
        return self.stop(1)

    def stop(self, code: int, signal: str | None = None) -> int:
        """Saves the unfinished game (never over another file unless it is ours; where it
        cannot be written, to the fallback folder). Exit ``code``; 1 when it could not be
        saved, or not to the --record file."""
        from ..interpreter.play import record as records
        self.signals.stopping = True   # a second signal does not cut the save short
        path = self.record_path or records.free_path(self.quit_path)
        self.tell("")
        if signal:
            self.tell(tr(self.lang, "Stopped by {signal}.", signal=signal))
        saved = self.keep(path)
        if saved is None:
            return 1
        n = len(self.history)
        self.tell(tr(self.lang, "Game stopped after {n} moves. The record is saved to {path}; "
                     "continue it with '{resume}', or replay it with '{replay}'.", n=n,
                     path=saved, resume=records.resume_command(self.rec, saved),
                     replay=f"meeple replay {saved}"))
        return 1 if saved != path and self.record_path is not None else code

    def tell(self, text: str) -> None:
        """A line for the players; nothing when the terminal is gone (SIGHUP)."""
        try:
            self.console.print(text, markup=False, highlight=False, soft_wrap=True)
        except OSError:
            pass

    def finish(self) -> bool:
        from ..interpreter.play.views import SPECTATOR, view
        c, g = self.console, self.game
        c.print()
        c.print(Rule(tr(self.lang, "Game over")))
        result = render.result_table(self.prog, g.result)
        # the final board fitted in what the other lines leave: the blank line and the
        # rule above it, a blank line, the result, the seed, the record and the shell's
        # prompt under it
        reserve = 3 + height(c, [result]) + 1 + (self.record_path is not None) + 1
        for part in fit_screen(c, self.prog, view(g, SPECTATOR), SPECTATOR,
                                      layout=self.layout, reserve=reserve, log_lines=8):
            c.print(part)
        c.print()
        c.print(result)
        # the game is over: the seed may be shown now, so that it can be played again
        c.print(tr(self.lang, "Seed: {seed} (play the same game again with --seed {seed})",
                   seed=self.rec.seed), markup=False, highlight=False, soft_wrap=True)
        if self.record_path is None:
            self.drop_journal()
            return True
        saved = self.keep(self.record_path)
        if saved is None:
            return False
        c.print(tr(self.lang, "Record saved to {path}.", path=saved), markup=False,
                highlight=False, soft_wrap=True)
        return saved == self.record_path

    # ------------------------------------------------------------ bots
    def bot_turn(self, seat: int) -> bool:
        from ..interpreter import IllegalMove, RuleError
        g = self.game
        moves = g.legal_moves()
        tc = self.type_code(g)
        # the bot is given only what its seat may see (a search bot: games drawn from it)
        try:
            idx = self.think(seat)
        except RuleError as e:  # (the ruleset's heuristic broke a rule)
            self.console.print(Text(tr(self.lang, "rule error "), style="red") + Text(
                tr(self.lang, "while {player} ({bot}) was thinking: {error}",
                   player=self.pname(seat), bot=seat_label(self.lang, self.seats[seat]),
                   error=e)))
            if self.record_path is not None:
                self.keep(self.record_path)
            return False
        try:
            m, before, fallen = self.apply(seat, moves[idx])
        except (RuleError, IllegalMove) as e:
            # the notation may name the bot's hidden items: write it as the reader sees it
            shown, _ = render.describe_move(g, moves[idx], tc, self.announce_to)
            self.console.print(Text(tr(self.lang, "rule error "), style="red") + Text(
                tr(self.lang, "while {player} ({bot}) played '{move}': {error}",
                   player=self.pname(seat), bot=seat_label(self.lang, self.seats[seat]),
                   move=shown, error=e)))
            if self.record_path is not None:
                self.keep(self.record_path)
            return False
        if before.simultaneous:
            # a secret choice: who chose is public, what it chose is not (until the reveal)
            self.console.print(Text(tr(self.lang, "{player} ({bot}) has chosen in secret.",
                                       player=self.pname(seat),
                                       bot=seat_label(self.lang, self.seats[seat])), style="cyan"))
        else:
            notation, text = render.describe_move(before, m, tc, self.announce_to, g)
            self.console.print(render.move_line(Text(
                f"{self.pname(seat)} ({seat_label(self.lang, self.seats[seat])}): ", style="cyan"),
                notation, text))
        for _, line in told.chance_lines(self.prog, self.lang, fallen, self.announce_to):
            self.console.print(line)
        return True

    def think(self, seat: int) -> int:
        """The bot's move; a search bot on a terminal shows that it is thinking while it
        searches (a note that goes away with its move)."""
        from ..interpreter import bot_move
        bot = self.bots[seat]
        if not (self.console.is_terminal and getattr(bot, "wants_position", False)):
            return bot_move(bot, self.game, seat)
        note = tr(self.lang, "{player} ({bot}) is thinking...", player=self.pname(seat),
                  bot=seat_label(self.lang, self.seats[seat]))
        with self.console.status(Text(note, style="cyan")):
            return bot_move(bot, self.game, seat)

    # ------------------------------------------------------------ humans
    def clear(self) -> None:
        """Clears the screen and, on a terminal, its scrollback too, so the next player
        cannot scroll up to the previous player's hand."""
        c = self.console
        c.clear()
        if c.is_terminal:
            c.file.write("\033[3J")
            c.file.flush()

    def handover(self, seat: int) -> None:
        c = self.console
        self.last_drawn = None
        self.clear()
        c.print(Rule())
        c.print(Text(tr(self.lang, "Pass the terminal to {player}. Press Enter.",
                        player=self.pname(seat)), style="bold"))
        c.print(Rule())
        # only Enter goes on and only quit stops: a command typed here (board, help,
        # undo, a move...) must not draw the next seat's screen for whoever typed it
        while True:
            line = read_line(c, "", self.editor)
            if not line:
                break
            if line.lower() in QUIT_WORDS:
                raise Quit()
            c.print(Text(tr(self.lang, "Only {player} may see what comes next. When {player} "
                            "has the terminal, press Enter (or type quit to stop and save).",
                            player=self.pname(seat)), style="yellow"))
        self.clear()

    def show(self, seat: int, force: bool = True) -> None:
        """Draws the seat's turn screen, fitted to the console (``layout.fit_screen``);
        when the same seat decides again and nothing it can see has changed, only the
        new decision is shown."""
        from ..interpreter.play.views import view
        c, g = self.console, self.game
        v = view(g, seat)
        key = (seat, json.dumps(v["zones"], sort_keys=True), len(v["log"]))
        body = force or key != self.last_drawn
        self.last_drawn = key
        info = self.turn_info(seat, v)
        for part in fit_screen(c, self.prog, v, seat, info, self.layout, body=body):
            c.print(part)
        self.move_styles[_verb_of(v)] = info.used

    def turn_info(self, seat: int, v: dict) -> TurnInfo:
        """The CLI's own words on a turn screen and the seat's moves."""
        g = self.game
        tc = self.type_code(g)
        entries, marks = [], {}
        for m in g.legal_moves():
            notation, text = render.describe_move(g, m, tc, seat, before_view=v)
            short = render.describe_move(g, m, tc, seat, short=True, before_view=v)[1]
            entries.append((m.index + 1, notation, text, short))
            if tc == "cell":
                marks[m.value] = str(m.index + 1)
        title = tr(self.lang, "{title} — turn {turn} — {player}", title=render.literal(self.prog.title),
                   turn=v["turn"] + 1, player=self.pname(seat))
        return TurnInfo(
            title=title,
            prompt=Text(f"{self.pname(seat)}: {self.prompt_text(seat)}", style="bold"),
            hint=Text(tr(self.lang, "Type 1 (the only move), its notation, or help for the commands.")
                      if len(entries) == 1 else
                      tr(self.lang, "Type a number from the list (1 to {count}), a move's notation, "
                                    "or help for the commands.", count=len(entries)), style="dim"),
            entries=entries, marks=marks,
            since=[(msg, line) for _, msg, line in self.since.get(seat, [])]
            + [(True, line) for line in told.arrived(self.prog, self.lang,
                                                     self.own_seen.get(seat, set()), seat, v)],
            since_title=told.since_title(self.lang, self.history, seat),
            last=self.last_cells.get(seat, frozenset()),
            most=self.move_styles.get(_verb_of(v), "text"))

    def prompt_text(self, seat: int) -> str:
        from ..interpreter.play import display
        from ..interpreter.play.views import view
        v = view(self.game, seat)
        pending = v["pending"]
        verb = pending["verb"] or "move"
        text = display.text(self.prog, verb, tr(self.lang, "Choose: {verb}", verb=display.verb_word(self.prog, verb)))
        if pending.get("picked"):   # (several picks each: the seat's own so far, in words)
            text += " — " + tr(self.lang, "picked: {items}", items=", ".join(told.picked(self.game, v)))
        return render.literal(text)

    def details(self, seat: int, what: str) -> None:
        """A details view, whole whatever the terminal's size (it may scroll): the boards
        with their cells' names, every zone, the whole log, or every move."""
        from ..interpreter.play.views import view
        c, g = self.console, self.game
        v = view(g, seat)
        lang = self.lang
        c.print()
        if what == "board":
            for part in render.boards_full(self.prog, v):
                c.print(part)
        elif what == "zones":
            c.print(render.zones_table(self.prog, v, seat))
        elif what == "legend":
            c.print(Text(tr(lang, "What the short labels stand for"), style="bold underline"))
            forms = render.legend_key(self.prog, v)
            key = [Text(k + (" ·" if n < len(forms) - 1 else "")) for n, k in enumerate(forms)]
            for line in flow(key, c.size.width, indent=2, first=Text("  ")) if key else []:
                c.print(line)
            pairs = render.legend(self.prog, v)
            c.print(Columns([Text("  ") + short + Text("  ") + full for short, full in pairs],
                            padding=(0, 2)) if pairs else Text("  " + tr(lang, "(none yet)")))
        elif what == "log":
            if self.since.get(seat):
                c.print(Text(told.since_title(lang, self.history, seat), style="bold underline"))
                for _, _, line in self.since[seat]:
                    c.print(line)
            c.print(Text(tr(lang, "Events so far"), style="bold underline"))
            if v.get("log_dropped"):
                c.print(Text("  " + tr(lang, "… {n} earlier messages are no longer kept",
                                       n=v["log_dropped"]), style="dim"))
            for line in v["log"] or [tr(lang, "(none yet)")]:
                c.print(Text("  " + render.literal(line)))
        else:
            info = self.turn_info(seat, v)
            c.print(info.prompt)
            c.print(moves_full(info.entries))
        c.print(Text(tr(lang, "Type 'screen' to see your turn screen again."), style="dim"))

    def human_turn(self, seat: int) -> None:
        # (where nothing is hidden every seat may see every screen: no hand-over)
        if self.last_human != seat and (self.last_human is not None or len(self.humans) > 1) \
                and self.prog.hidden_information:
            self.handover(seat)
        self.last_human = seat
        self.show(seat, force=False)
        self.ask(seat)

    def ask(self, seat: int) -> bool:
        """Reads ``seat``'s commands until it makes a move (True) or takes one back."""
        c = self.console
        while True:
            line = read_line(c, tr(self.lang, "{player}, your move (a number from the list, a "
                                   "notation, or help): ",
                                   player=self.pname(seat)), self.editor, seat, self.words)
            low = line.lower()
            if not line:
                continue
            if low in QUIT_WORDS:
                raise Quit()
            if low in HELP_WORDS:
                self.help(seat)
                continue
            if low in SHOW_WORDS:
                self.show(seat)
                continue
            if low in DETAIL_WORDS:
                self.details(seat, low)
                continue
            if low in UNDO_WORDS:
                if self.undo(seat):
                    return False
                continue
            if self.try_move(seat, line):
                return True

    def try_move(self, seat: int, line: str) -> bool:
        from ..interpreter import IllegalMove, RuleError
        c, g = self.console, self.game
        moves = g.legal_moves()
        tc = self.type_code(g)
        if is_ascii_number(line):
            digits = line.lstrip("0") or "0"
            n = int(digits) if len(digits) <= MAX_MOVE_NUMBER_DIGITS else None
            if n is None or not 1 <= n <= len(moves):
                c.print(Text(tr(self.lang, "Illegal move: "), style="red") + Text(
                    tr(self.lang, "there is no move number {number}; choose 1 to {count}.",
                       number=digits if n is not None else digits[:12] + '...',
                       count=len(moves))))
                return False
            choice = moves[n - 1]
        elif len(line) > MAX_MOVE_TEXT:
            c.print(Text(tr(self.lang, "Illegal move: "), style="red") + Text(
                tr(self.lang, "that line is {n} characters long, no move is; type a number "
                   "from 1 to {count} or help.", n=len(line), count=len(moves))))
            return False
        else:
            choice = self.unique_prefix(line, moves) or line
        try:
            m, before, fallen = self.apply(seat, choice)
        except IllegalMove:
            c.print(Text(tr(self.lang, "Illegal move: "), style="red")
                    + Text(self.illegal_text(line, moves)))
            return False
        except RuleError as e:
            c.print(Text(tr(self.lang, "This move breaks a rule of the ruleset (the game is "
                                       "unchanged): "), style="red") + Text(str(e)))
            excerpt = render.rule_excerpt(e, self.prog)
            if excerpt:
                c.print(Text(excerpt))
            if e.hint:
                c.print(Text("hint: ") + Text(e.hint))
            return False
        notation, text = render.describe_move(before, m, tc, seat, g)
        c.print(render.move_line(Text(f"{self.pname(seat)}: ", style="green"), notation, text))
        for _, fell in told.chance_lines(self.prog, self.lang, fallen, seat):
            c.print(fell)
        return True

    def undo(self, seat: int) -> bool:
        """Takes back this seat's latest move and the bots' moves made after it (back to
        this seat's decision), when no other human has moved since and nothing hidden
        was learnt or drawn since; the game takes them back itself (``Game.undo``)."""
        from ..interpreter.play.runtime import revealed_since
        c = self.console
        if not self.history:
            c.print(Text(tr(self.lang, "Cannot undo: "), style="yellow")
                    + Text(tr(self.lang, "no move has been made yet.")))
            return False
        k = len(self.history) - 1
        while k > 0 and self.seats[self.history[k].seat] != HUMAN:
            k -= 1  # the bots' moves since the latest human move go back with it
        last = self.history[k]
        if last.seat != seat:
            # (a secret choice is not named, nor an item the seat asking may not see)
            named = None if last.secret else last.seen.get(
                seat, last.notation if not self.prog.hidden_information else None)
            refusal = tr(self.lang, "the latest move was made in secret by {player}; you can only "
                         "undo your own latest move.", player=self.pname(last.seat)) if named is None \
                else tr(self.lang, "the latest move ('{move}') was made by {player}; you can only "
                        "undo your own latest move.", move=render.literal(named),
                        player=self.pname(last.seat))
            c.print(Text(tr(self.lang, "Cannot undo: "), style="yellow") + Text(refusal))
            return False
        taken = self.history[k:]
        revealing = next((d for d in taken if d.revealing), None)
        if revealing is not None:
            # the last secret choice showed everyone's: choosing again would use them
            c.print(Text(tr(self.lang, "Cannot undo: "), style="yellow") + Text(
                tr(self.lang, "'{move}' revealed the secret choices, so the move stands.",
                   move=render.literal(last.notation))))
            return False
        if revealed_since(last.marks, self.game.state, seat) or self.game.can_undo < len(taken):
            c.print(Text(tr(self.lang, "Cannot undo: "), style="yellow") + Text(
                tr(self.lang, "since '{move}' you have seen hidden information (or chance was "
                   "used), so the move stands.", move=render.literal(last.notation))))
            return False
        with self.signals.held():
            for _ in taken:
                self.game.undo()
            del self.history[k:]
            self.journal_write("undo", len(taken))
        for s in self.humans:   # the lines of the moves taken back go with them
            self.since[s] = [e for e in self.since[s] if e[0] < k]
            self.know(s)
            self.last_cells[s] = frozenset()
            self.last_mover.pop(s, None)
        bots = len(taken) - 1
        if bots:
            # (what the bots played is not named: it may name their hidden items)
            c.print(Text(tr(self.lang, "Undone: {move} (and {n} bot moves after it)",
                            move=render.literal(last.notation), n=bots), style="green"))
        else:
            c.print(Text(tr(self.lang, "Undone: {move}", move=render.literal(last.notation)),
                         style="green"))
        return True

    def help(self, seat: int) -> None:
        from ..interpreter.play.runtime import LOG_KEEP
        moves = self.game.legal_moves()
        ex = render.literal(moves[0].notation) if moves else "..."
        bare = ex.split(" ", 1)[-1]
        c = self.console
        lang = self.lang
        c.print(Text(tr(lang, "Commands"), style="bold underline"))
        t = Table.grid(padding=(0, 2))
        t.add_column(style="bold")
        t.add_column()
        # the command words stay English (they are what is typed); what they do is translated
        t.add_row(tr(lang, "<number>"), tr(lang, "play the move with that number in the list (to "
                                              "type a number value, write the move's verb "
                                              "before it)"))
        t.add_row(tr(lang, "<move>"), tr(lang, "play a move by its notation, e.g. '{example}'; "
                                            "the verb may be left out ('{bare}')",
                                            example=ex, bare=bare))
        t.add_row("screen", tr(lang, "draw your turn screen again"))
        t.add_row("board", tr(lang, "the boards in full, with the names of their cells"))
        t.add_row("zones", tr(lang, "every zone in full, yours and the other players'"))
        t.add_row("log", tr(lang, "the messages of the game so far (the latest {count} are kept)",
                            count=LOG_KEEP))
        t.add_row("moves", tr(lang, "your moves, one a line, with their full text"))
        t.add_row("legend", tr(lang, "what each short label on the screen stands for"))
        t.add_row("undo", tr(lang, "take back your latest move, if nobody moved since and it "
                                   "showed you nothing hidden"))
        t.add_row("help", tr(lang, "this help"))
        t.add_row("quit", tr(lang, "stop; the game record is saved so it can be replayed"))
        c.print(t)
        c.print(Text(tr(lang, "How moves are written"), style="bold underline"))
        c.print("  " + tr(lang, "A move is its verb and its value. Cells are written by their "
                                "names (shown under the board's rows by 'board'); items by their "
                                "attribute values joined by '-' (a '#n' is added when two items "
                                "are alike); several values are joined by '+'."), highlight=False)
