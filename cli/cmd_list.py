"""``meeple list``: the bundled rulesets with their players, variants and locales."""
from __future__ import annotations

from rich.console import Console, Group
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from .. import interpreter
from ..dsl import load as dsl_load
from ..dsl.errors import MeepleError
from ..interpreter import RuleError
from . import jsonout, render
from .common import counts_text, out, player_counts
from .options import json_option, no_color_option

NAME = "list"

LIST_COLUMNS = ("Name", "Title", "Players", "Variants", "Locales")


def command(
    json_out: bool = json_option("the bundled rulesets"),
    no_color: bool = no_color_option(),
) -> None:
    """List the bundled rulesets with their players, variants and locales. A table when
    the terminal is wide enough for it, else one block per ruleset: names are never cut."""
    jout = jsonout.begin("list", json_out)
    entries = []
    for name in dsl_load.bundled_names():
        src = dsl_load.read_sources(dsl_load.resolve_path(name))
        entry = {"name": name, "ok": False, "title": None, "players": None,
                 "variants": sorted(src.variants), "locales": sorted(src.locales)}
        try:
            prog = interpreter.compile_sources(src)
            entry.update(ok=True, title=prog.title,
                         players=player_counts(prog))
        except (MeepleError, RuleError):
            pass
        entries.append(entry)
    if jout.on:
        jout.emit({"ok": True, "rulesets": entries})
        return
    console = out()
    table = _list_table(entries)
    natural = Measurement.get(console, console.options.update_width(10_000), table).maximum
    if natural <= console.width:
        console.print(table)
    else:
        console.print(_list_blocks(console, entries))


def _list_cells(e: dict) -> list[Text]:
    players = counts_text(e["players"]) if e["ok"] else ""
    title = render.safe_text(e["title"]) if e["ok"] else Text(
        "(has errors: run meeple validate)", style="red")
    return [render.safe_text(e["name"], style="bold"), title, Text(players),
            render.safe_text("\n".join(e["variants"]) or "-"),
            render.safe_text(", ".join(e["locales"]) or "-")]


def _list_table(entries: list[dict]) -> Table:
    """One row per ruleset, a variant per line: for a terminal wide enough for all of it."""
    t = Table(header_style="bold")
    for col in LIST_COLUMNS:
        t.add_column(col, overflow="fold")
    for e in entries:
        t.add_row(*_list_cells(e))
    return t


def _list_blocks(console: Console, entries: list[dict]) -> Group:
    """One block per ruleset, for a narrow terminal: the name and title, then players,
    variants and locales on lines of their own; long lists wrap between names (a name
    longer than the line folds onto the next one, never cut)."""
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
    return Group(*parts)


LIST_INDENT = len("  variants ")


def _wrapped(console: Console, text: Text, indent: int) -> list[Text]:
    """``text`` in lines that fit beside ``indent`` columns, broken between words, a word
    too long for a line folded; no trailing spaces."""
    lines = text.wrap(console, max(console.width - indent, 8), overflow="fold")
    for line in lines:
        line.rstrip()
    return list(lines)
