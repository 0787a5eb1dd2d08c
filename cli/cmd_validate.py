"""``meeple validate``: check rulesets, their variants and locales."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from . import complete, jsonout
from .common import err, error, note, out, parse_budgets, player_counts
from .options import budget_option, json_option, no_color_option

if TYPE_CHECKING:   # (imported where used: `meeple <command> --help` loads neither
    # the interpreter nor rich)
    from rich.console import Console

NAME = "validate"


def command(
    paths: list[str] = typer.Argument(..., metavar="PATH", show_default=False,
                                      autocompletion=complete.rulesets,
                                      help="Ruleset files or folders (or bundled names)."),
    budget: list[str] = budget_option(),
    json_out: bool = json_option("every ruleset's problems (or what it holds)"),
    no_color: bool = no_color_option(),
) -> None:
    """Check rulesets: the base, each variant alone, all variants together and each
    locale. Prints every problem with its place in the source; exit 1 if any."""
    jout = jsonout.begin("validate", json_out)
    budgets = parse_budgets(budget)
    checked = [validate_one(name, budgets, jout.on) for name in paths]
    ok = all(c["ok"] for c in checked)
    jout.emit({"ok": ok, "rulesets": checked})
    if not ok:
        raise typer.Exit(1)


def _diag_key(d):
    return (d.code, d.span.file, d.span.line, d.span.column, d.message)


def _unique(found: list, seen: set, ds) -> None:
    for d in ds:
        if _diag_key(d) not in seen:
            seen.add(_diag_key(d))
            found.append(d)


def validate_one(name: str, budgets, as_json: bool) -> dict:
    """Checks one PATH; prints what it found (problems on stderr, a summary on stdout
    unless ``as_json``) and returns it as a --json entry."""
    from ..dsl import load as dsl_load
    entry = {"input": name, "path": None, "ok": False, "name": None, "title": None,
             "players": None, "variants": [], "locales": [], "files": 0, "diagnostics": []}
    try:
        found = dsl_load.resolve(name)
    except dsl_load.NoRuleset as e:
        error(str(e), e.hint)
        entry["diagnostics"].append(jsonout.cli_diagnostic("load/io", name, str(e), e.hint))
        return entry
    if found.note:
        note(found.note)
    path, src = _sources(found.path, budgets, as_json)
    entry["path"], entry["files"] = str(path), len(src.sources)
    checked = _Checked()
    if src.diagnostics:
        _unique(checked.diags, checked.seen, src.diagnostics)
    else:
        checked.compile_all(src, path, budgets)
    checked.print_problems(src, path)
    entry["diagnostics"] = checked.json()
    entry["ok"] = not checked.diags and not checked.rule_errors
    if checked.diags or ((), None) not in checked.progs:
        return entry
    _describe(entry, src, checked.progs)
    if not as_json and entry["ok"]:
        _print_validated(out(), path, entry)
    return entry


def _sources(path: Path, budgets, as_json: bool):
    """The ruleset's texts; a variant or locale file alone is checked with the ruleset
    it belongs to (its folder): that folder and its texts."""
    from ..dsl import load as dsl_load
    src = dsl_load.read_sources(path, budgets)
    if src.base is None and path.is_file() and path.parent.name in ("variants", "locales"):
        if not as_json:
            out().print(f"{path} is a {path.parent.name[:-1]} file; checking its ruleset folder "
                        f"{path.parent.parent}", soft_wrap=True, markup=False)
        path = path.parent.parent
        src = dsl_load.read_sources(path, budgets)
    return path, src


def _combinations(src) -> list:
    """(variants, locale) to check: the base, each variant alone, all variants together
    (when there are several) and each locale."""
    variants = sorted(src.variants)
    combos = [((), None)] + [((v,), None) for v in variants]
    if len(variants) > 1:
        combos.append((tuple(variants), None))
    return combos + [((), loc) for loc in sorted(src.locales)]


class _Checked:
    """What checking a ruleset's combinations found: the programs compiled, the
    problems (each once) and the errors of the rules while compiling."""

    def __init__(self):
        self.diags, self.seen, self.progs, self.rule_errors = [], set(), {}, []
        self.warnings: list = []

    def compile_all(self, src, path: Path, budgets) -> None:
        from rich.text import Text

        from .. import interpreter
        from ..dsl.errors import MeepleError
        from ..interpreter import RuleError
        for vs, loc in _combinations(src):
            try:
                self.progs[(vs, loc)] = interpreter.compile_sources(src, list(vs), loc, budgets)
            except MeepleError as e:
                _unique(self.diags, self.seen, e.diagnostics)
            except RuleError as e:
                message = (f"{e} (variants: {', '.join(vs) or 'none'}, "
                           f"locale: {loc or 'none'})")
                err().print(Text("error: ", style="bold red") + Text(f"{path}: {message}"))
                self.rule_errors.append(jsonout.cli_diagnostic(
                    getattr(e, "code", "rule/error"), str(path), message))

    def print_problems(self, src, path: Path) -> None:
        from rich.text import Text
        console = err()
        if self.diags:
            console.print("\n\n".join(d.render(src.sources) for d in self.diags), markup=False,
                          soft_wrap=True)
            console.print(Text(f"\n{path}: {len(self.diags)} problem(s)", style="bold red"))
        wseen: set = set()
        for prog in self.progs.values():
            _unique(self.warnings, wseen, getattr(prog, "warnings", []))
        if self.warnings and not self.diags:
            console.print("\n\n".join(w.render(src.sources) for w in self.warnings) + "\n",
                          markup=False, soft_wrap=True, style="yellow")

    def json(self) -> list:
        return [jsonout.diagnostic(d) for d in self.diags + self.warnings] + self.rule_errors


def _describe(entry: dict, src, progs: dict) -> None:
    """What a ruleset holds, into its --json entry: its name, title, players, variants
    and locales."""
    base = progs[((), None)]
    entry.update(name=base.name, title=base.title, players=player_counts(base))
    for v in sorted(src.variants):
        prog = progs.get(((v,), None))
        title = prog.checked.variant_titles.get(v, v) if prog else v
        entry["variants"].append({"name": v, "title": title})
    for loc in sorted(src.locales):
        prog = progs.get(((), loc))
        entry["locales"].append({"name": loc, "language": prog.checked.language if prog else None})


def _print_validated(console: Console, path: Path, entry: dict) -> None:
    from rich.text import Text

    from . import render
    console.print(Text("ok ", style="bold green") + Text(f"{path}: {entry['title']} ({entry['name']})"))
    console.print(f"  players:  {render.counts_text(entry['players'])}")
    console.print("  variants: " + (", ".join(f"{v['name']} ({v['title']})" for v in entry["variants"])
                                    or "none"), markup=False, soft_wrap=True)
    locs = [f"{loc['name']} ({loc['language']})"
            if loc["language"] and loc["language"] != loc["name"] else loc["name"]
            for loc in entry["locales"]]
    console.print("  locales:  " + (", ".join(locs) or "none"), soft_wrap=True, markup=False)
    console.print(f"  files:    {entry['files']} checked")
