"""``meeple list``: the bundled rulesets with their players, variants and locales.

What it shows of a ruleset (title, player counts, variants, locales, whether it loads)
is kept in the disk cache under the sha256 of the ruleset's files and of Meeple's own
code (``diskcache.code_fingerprint``): with a warm cache, ``list`` reads neither the
grammar nor the interpreter. A file that changes, or another version of Meeple, makes a
new key; with the cache off (``--no-cache``) every ruleset is loaded afresh."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..dsl import budgets as dsl_budgets, diskcache, files
from . import jsonout
from .options import json_option, no_color_option

if TYPE_CHECKING:   # (imported where used: `meeple <command> --help` loads neither
    # the interpreter nor rich)
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

NAME = "list"

LIST_COLUMNS = ("Name", "Title", "Players", "Variants", "Locales")

KIND = "list"     # the entries of the disk cache this command writes


def command(
    json_out: bool = json_option("the bundled rulesets"),
    no_color: bool = no_color_option(),
) -> None:
    """List the bundled rulesets with their players, variants and locales. A table when
    the terminal is wide enough for it, else one block per ruleset: names are never cut."""
    from . import render
    jout = jsonout.begin("list", json_out)
    entries = [_entry(name) for name in files.bundled_names()]
    if jout.on:
        jout.emit({"ok": True, "rulesets": entries})
        return
    console = render.console()
    table = _fitting_table(console, entries)
    console.print(table if table is not None else _list_blocks(console, entries))


def _fitting_table(console: Console, entries: list[dict]) -> Table | None:
    """The table of the rulesets when the terminal is wide enough for all of it (rich
    measures it), else None. Not made when it is surely too wide: its width is at least
    that of the widest line of each column, plus a space each side and a rule between
    and around the columns (``_least_width``); rich.table is not even imported then."""
    if _least_width(entries) > console.width:
        return None
    from rich.measure import Measurement
    table = _list_table(entries)
    natural = Measurement.get(console, console.options.update_width(10_000), table).maximum
    return table if natural <= console.width else None


def _least_width(entries: list[dict]) -> int:
    """The narrowest the table can be without folding a line of a cell: as rich
    measures a ``Text`` (the cell width of its widest line)."""
    from rich.cells import cell_len
    columns = zip(LIST_COLUMNS, *([t.plain for t in _list_cells(e)] for e in entries))
    widest = [max((cell_len(line) for cell in column for line in cell.splitlines()), default=0)
              for column in columns]
    return sum(w + 2 for w in widest) + len(widest) + 1


def _entry(name: str) -> dict:
    """What ``list`` shows of one bundled ruleset: from the disk cache when its files and
    Meeple's code are those of the entry, else loaded (and then kept)."""
    path = files.bundled_folder(name)
    key = _key(path)
    hit = diskcache.get(KIND, key) if key else None
    if isinstance(hit, dict) and hit.get("name") == name:
        return hit
    entry = _loaded(name, path)
    if key:
        diskcache.put(KIND, key, entry)
    return entry


def _key(path: Path) -> str | None:
    """The key of a ruleset's entry: the names and bytes of its files and Meeple's code;
    None when the cache is off or a file cannot be read (the ruleset is then loaded,
    which says why)."""
    if not diskcache.enabled():
        return None
    parts: list = [KIND, diskcache.code_fingerprint()]
    for f in files.source_files(path):
        try:
            parts += [str(f), files.read_regular_file(f, dsl_budgets.DEFAULT.file_size)]
        except (ValueError, OSError):
            return None
    return diskcache.key(*parts)


def _loaded(name: str, path: Path) -> dict:
    """The entry of a ruleset read and compiled for its player counts."""
    from .. import interpreter
    from ..dsl import load as dsl_load
    from ..dsl.errors import MeepleError
    from .common import player_counts
    src = dsl_load.read_sources(path)
    entry = {"name": name, "ok": False, "title": None, "players": None,
             "variants": sorted(src.variants), "locales": sorted(src.locales)}
    try:
        prog = interpreter.compile_sources(src)
        entry.update(ok=True, title=prog.title, players=player_counts(prog))
    except (MeepleError, interpreter.RuleError):
        pass
    return entry


def _list_cells(e: dict) -> list[Text]:
    from rich.text import Text

    from . import render
    players = render.counts_text(e["players"]) if e["ok"] else ""
    title = render.safe_text(e["title"]) if e["ok"] else Text(
        "(has errors: run meeple validate)", style="red")
    return [render.safe_text(e["name"], style="bold"), title, Text(players),
            render.safe_text("\n".join(e["variants"]) or "-"),
            render.safe_text(", ".join(e["locales"]) or "-")]


def _list_table(entries: list[dict]) -> Table:
    """One row per ruleset, a variant per line: for a terminal wide enough for all of it."""
    from rich.table import Table
    t = Table(header_style="bold")
    for col in LIST_COLUMNS:
        t.add_column(col, overflow="fold")
    for e in entries:
        t.add_row(*_list_cells(e))
    return t


def _list_blocks(console: Console, entries: list[dict]) -> Text:
    """One block per ruleset, for a narrow terminal: the name and title, then players,
    variants and locales on lines of their own; long lists wrap between names (a name
    longer than the line folds onto the next one, never cut). One text of many lines:
    printed as a whole, not as a group of lines (fewer renders, the same bytes)."""
    from rich.text import Text

    from . import render
    parts = []
    for k, e in enumerate(entries):
        name, title, players, _, locales = _list_cells(e)
        if k:
            parts.append(Text(""))
        parts.extend(_wrapped(console, Text.assemble(name, " — ", title), 0))
        fields = [("players", players)] if e["ok"] else []
        fields += [("variants", render.safe_text(", ".join(e["variants"]) or "-")),
                   ("locales", locales)]
        for label, value in fields:
            for i, line in enumerate(_wrapped(console, value, LIST_INDENT)):
                head = f"  {label}".ljust(LIST_INDENT) if i == 0 else " " * LIST_INDENT
                parts.append(Text.assemble((head, "dim"), line))
    return Text("\n").join(parts)


LIST_INDENT = len("  variants ")


def _wrapped(console: Console, text: Text, indent: int) -> list[Text]:
    """``text`` in lines that fit beside ``indent`` columns, broken between words, a word
    too long for a line folded; no trailing spaces."""
    lines = text.wrap(console, max(console.width - indent, 8), overflow="fold")
    for line in lines:
        line.rstrip()
    return list(lines)
