"""Game records read back (``replay`` and ``play --resume``): the record or journal, the
ruleset it was played with, and its moves replayed with a clear error."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .common import compile_ruleset, err, fail, resolve, rule_fail, text
from .i18n import language, tr

if TYPE_CHECKING:   # (imported where used: `meeple <command> --help` loads no interpreter)
    from ..interpreter.play import record as records


def mover(game, notation: str) -> int:
    """The seat of a record's move (in a simultaneous decision, ``p2: ...`` is seat 2's)."""
    from ..interpreter import IllegalMove
    try:
        return game.find_move(notation).player
    except IllegalMove:
        return game.active_player   # the replay reports the illegal move itself


def read_record(path: Path) -> records.Record:
    """A record, or a game's journal read as its record (with a note when its last line
    was cut short)."""
    from ..interpreter.play import journal as journals, record as records
    try:
        rec = journals.load(path)
    except records.RecordError as e:
        raise fail(str(e)) from None
    if rec.recovered:
        err().print(text("note: ", style="cyan") + text(rec.recovered), soft_wrap=True)
    return rec


def record_ruleset(rec: records.Record, explicit: str | None, budgets=None):
    """The ruleset of a record: the explicit --ruleset PATH, else the bundled ruleset the
    record names. A path written inside a record is never opened."""
    from ..dsl import load as dsl_load
    from ..interpreter.play import record as records
    if explicit is not None:
        path, label = resolve(explicit), explicit
        if not (path.is_dir() or path.is_file()):   # stat only: a FIFO is never opened
            raise fail(f"--ruleset {explicit}: not a ruleset file or folder", 2)
    elif rec.ruleset in dsl_load.bundled_names():
        path, label = dsl_load.RULESETS_DIR / rec.ruleset, rec.ruleset
    else:
        raise fail(f"the record's ruleset '{records.printable(rec.ruleset)}' is not a bundled "
                   f"ruleset, and a path inside a record is never opened: give the ruleset "
                   f"with --ruleset PATH", 2)
    prog = compile_ruleset(path, label, rec.variants, rec.locale, budgets, from_options=False)
    recorded, now = rec.ruleset_digest, records.ruleset_digest(prog)
    lang = language(prog)
    if recorded and now and recorded != now:
        err().print(text(tr(lang, "warning: "), style="bold yellow") + text(
            tr(lang, "the ruleset {ruleset} differs from the one the record was played with; "
                     "the replay stops at the first move whose state differs", ruleset=label)),
            soft_wrap=True)
    elif not rec.digests and rec.moves:
        err().print(text(tr(lang, "warning: "), style="bold yellow") + text(
            tr(lang, "this record has no per-move digests (an older format): a diverging "
                     "replay is found only at its end, if at all")), soft_wrap=True)
    return prog


def replay_record(prog, rec: records.Record, on_move=None):
    from ..interpreter import RuleError
    from ..interpreter.play import record as records
    try:
        return records.replay(prog, rec, on_move)
    except records.RecordError as e:
        raise fail(f"invalid record: {e}") from None
    except RuleError as e:
        raise rule_fail(f"the replay hits an error in the rules: {e}", e, prog) from None
