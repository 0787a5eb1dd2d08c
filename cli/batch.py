"""Many games at once (``simulate``, ``arena``, ``test``): the checks of --jobs,
--backend and --address, the games played by the workers, and the exit of a run that a
failed game stops."""
from __future__ import annotations

from contextlib import closing, contextmanager
from typing import TYPE_CHECKING

import typer

from . import foreign, jsonout
from .common import fail, rule_fail

if TYPE_CHECKING:   # (imported where used: `meeple <command> --help` loads no interpreter)
    pass


def check_jobs(jobs: int | None, backend: str, address: str | None) -> None:
    """--jobs, --backend and --address: usage errors (exit 2). With --backend ray, what
    Ray prints from its own threads goes to stderr from now on (cli/foreign.py)."""
    from ..interpreter.analysis import parallel
    if jobs is not None and jobs < 1:
        raise fail(f"--jobs must be at least 1, not {jobs}", 2)
    if backend not in parallel.BACKENDS:
        raise fail(f"--backend {backend}: choose one of {', '.join(parallel.BACKENDS)}", 2)
    if address is not None and backend != "ray":
        raise fail("--address goes with --backend ray", 2)
    if backend == "ray":
        try:
            parallel.require_ray()
        except parallel.BackendError as e:
            raise fail(str(e), 2, hint=e.hint) from None
        foreign.keep_stdout()


@contextmanager
def backend_errors():
    from ..interpreter.analysis import parallel
    try:
        yield
    except parallel.BackendError as e:
        raise fail(str(e), 1, hint=e.hint) from None
    except parallel.WorkerDied as e:
        raise fail(str(e)) from None


def played_games(prog, plan, jobs, backend, address, on_game):
    """The summaries of the games of ``plan`` in order (simulation.play_games), the
    workers stopped when the loop ends early; a backend that fails is an error (exit 1)."""
    from ..interpreter.analysis import simulation
    with backend_errors():
        games = simulation.play_games(prog, plan, jobs, backend, address, on_game, settle=True)
    with closing(games), backend_errors():
        yield from games


def compact_games(program, games: int, seed: int, max_moves: int, jobs, on_games):
    """The batches of random games of ``program`` in the compact form, in order
    (simulation.play_compact: (first game, its Compact)), as ``played_games``."""
    from ..interpreter.analysis import simulation
    with backend_errors():
        batches = simulation.play_compact(program, games, seed, max_moves, jobs, on_games, settle=True)
    with closing(batches), backend_errors():
        yield from batches


def failed_game(prog, summary: dict, keep, jout) -> typer.Exit:
    """The exit of a run stopped by a game that failed: it names the game and its seed
    (and its record with --records), as text and in the --json document."""
    from ..interpreter import RuleError
    e, number, gseed = summary["error"], summary["game"] + 1, summary["seed"]
    path = keep.save(summary, failed=str(e)) \
        if keep is not None and summary.get("digest") is not None else None
    message = f"game {number} (seed {gseed}): {e}" + (f" (its record: {path})" if path else "")
    error = {"message": message}
    if isinstance(e, RuleError):
        error.update(hint=e.hint, rule=jsonout.rule_error(e))
    jout.emit({"ok": False, "error": error,
               "failed_game": {"game": number, "seed": gseed, "record": str(path) if path else None}})
    if isinstance(e, RuleError):
        return rule_fail(message, e, prog)
    return fail(message)
