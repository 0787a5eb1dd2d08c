"""Finding a ruleset's files and laying variants and locales over the base.

A ruleset folder holds one base file (header ``ruleset NAME``), optional
``variants/*.meeple`` (header ``variant NAME``) and ``locales/*.meeple`` (header
``locale NAME``). ``load`` parses them, applies the chosen overlays in order (variants
as given, then the locale) and returns the merged declarations for the checker.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from . import ast as ir, budgets as budget, errors, files
from .files import SUFFIX, bundled_names, source_files
from .resources import RULESETS_DIR

DISPLAY = ("NameDecl", "TextDecl", "LabelDecl", "ColorDecl", "KindColorDecl", "OffscreenDecl",
           "ProseDecl")


@dataclass
class SourceSet:
    """Every file of one ruleset folder, parsed (or with the diagnostics of why not)."""

    base: ir.File | None = None
    variants: dict[str, ir.File] = field(default_factory=dict)
    locales: dict[str, ir.File] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    diagnostics: list[errors.Diagnostic] = field(default_factory=list)


@dataclass
class Merged:
    """The declarations of a base ruleset with overlays applied."""

    name: str
    decls: list
    variants: list[str]
    locale: str | None
    variant_titles: dict[str, str]
    language: str | None = None
    # log keys and verbs of every variant of the ruleset, chosen or not: a locale may
    # translate them all
    variant_texts: set[str] = field(default_factory=set)
    file: str = "<string>"  # the base file, for problems of the ruleset as a whole
    # every variant of the ruleset's folder, chosen or not: ``name variant.NAME "..."``
    # may give any of them its title in a locale
    variant_names: list[str] = field(default_factory=list)
    # the procedures every variant declares or replaces, chosen or not (their prose)
    variant_procedures: set[str] = field(default_factory=set)
    # the names every variant declares or its rules name, chosen or not: a locale may
    # give them players' words (``name neutral "..."``)
    variant_words: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Resolved:
    """What a ruleset argument means: a bundled ruleset or a file or folder."""

    path: Path
    bundled: bool
    note: str | None = None   # set when a bare name could also mean a file or folder here


class NoRuleset(FileNotFoundError):
    """A ruleset argument that names nothing: ``str(e)`` says so, ``e.hint`` lists the
    choices."""

    def __init__(self, name: str, message: str, hint: str | None):
        super().__init__(message)
        self.name, self.hint = name, hint


def looks_like_path(name_or_path: str) -> bool:
    """A path, not a bare name: it has a folder separator (``./my-game``,
    ``rulesets/x``), is ``.``/``..``, starts with ``~`` or ends with ``.meeple``."""
    s = name_or_path
    return ("/" in s or os.sep in s or (os.altsep is not None and os.altsep in s)
            or s in (".", "..") or s.startswith("~") or s.endswith(SUFFIX))


def resolve(name_or_path: str) -> Resolved:
    """A bare name means the bundled ruleset of that name; a path means a file or folder.
    A bare name that is not bundled but is a file or folder here means that file or
    folder. When a bare name is both, the bundled ruleset is used and ``note`` says how
    to name the other. Raises ``NoRuleset`` (listing the bundled names) otherwise."""
    if looks_like_path(name_or_path):
        p = Path(name_or_path).expanduser()
        if _exists(p):
            return Resolved(p, False)
        raise NoRuleset(name_or_path, f"no file or folder '{name_or_path}'", None)
    local = Path(name_or_path)
    names = bundled_names()
    if name_or_path in names:
        note = None
        if _exists(local):
            kind = "folder" if local.is_dir() else "file"
            note = (f"'{name_or_path}' is the bundled ruleset; for the {kind} of that name "
                    f"here, write ./{name_or_path}")
        return Resolved(RULESETS_DIR / name_or_path, True, note)
    if _exists(local):
        return Resolved(local, False)
    guess = errors.suggest(name_or_path, names)
    hint = (f"did you mean '{guess}'? " if guess else "") + \
        (f"Bundled rulesets: {', '.join(names)}" if names else "No ruleset is bundled")
    raise NoRuleset(name_or_path, f"no ruleset '{name_or_path}': not a bundled ruleset, "
                                  f"nor a file or folder here", hint)


def resolve_path(name_or_path: str) -> Path:
    """The file or folder a ruleset argument means (see ``resolve``)."""
    return resolve(name_or_path).path


def _exists(p: Path) -> bool:
    """Whether a path exists; a name the system cannot even look up (too long, a NUL
    byte) does not."""
    try:
        return p.exists()
    except (OSError, ValueError):
        return False


def read_sources(path: str | Path, budgets: budget.Budgets | None = None, cache: bool = True) -> SourceSet:
    """Parses a ruleset file, or a folder with its variants and locales (each file read
    back from the disk cache where it was kept parsed, unless ``cache=False``:
    ``parsed_file``)."""
    budgets = budget.check(budgets)
    path = Path(path)
    out = SourceSet()
    files = source_files(path)
    if not files:
        out.diagnostics.append(errors.io_error(str(path), f"no {SUFFIX} files in this folder"))
    for f in files:
        _read_one(f, out, budgets, cache)
    if out.base is None and not out.diagnostics:
        out.diagnostics.append(errors.io_error(str(path), "no file with a 'ruleset NAME' header"))
    return out


def read_text(f: Path | str, limit: int) -> str:
    """A file's UTF-8 text, read safely (``dsl.files.read_regular_file``: no FIFO,
    device or folder, at most ``limit`` bytes). Raises ValueError with the reason."""
    try:
        data = files.read_regular_file(f, limit)
    except files.TooBig as e:
        raise ValueError(f"{e} (the file_size budget); {budget.hint('file_size')}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise ValueError(f"not UTF-8 text: a bad byte on line {line}") from None


def _read_one(f: Path, out: SourceSet, budgets: budget.Budgets = budget.DEFAULT, cache: bool = True) -> None:
    try:
        text = read_text(f, budgets.file_size)
    except ValueError as e:
        out.diagnostics.append(errors.io_error(str(f), str(e)))
        return
    add_text(out, str(f), text, budgets, cache=cache)


def add_text(out: SourceSet, name: str, text: str, budgets: budget.Budgets | None = None,
             parsed: ir.File | None = None, cache: bool = True, keep: bool = True) -> None:
    """Adds one file's text (already read) to a source set: parses it (unless ``parsed``
    is given) and files it as the base, a variant or a locale. The file is read back
    from the disk cache where it was kept parsed, and kept there once parsed
    (``parsed_file``): not with ``cache=False``; ``keep=False``: read back, not kept (a
    text being edited)."""
    budgets = budget.check(budgets)
    if len(text) > budgets.file_size:
        out.diagnostics.append(errors.io_error(name, f"the text has more than {budgets.file_size:,} "
                                                     f"characters; {budget.hint('file_size')}"))
        return
    out.sources[name] = text
    try:
        parsed = parsed if parsed is not None else parsed_file(text, name, budgets, cache, keep)
    except errors.MeepleError as e:
        out.diagnostics.extend(e.diagnostics)
        return
    if parsed.kind == "ruleset":
        if out.base is not None:
            out.diagnostics.append(errors.Diagnostic(
                "load/two-bases", parsed.span, "a second base ruleset in the same folder",
                f"the first is {out.base.span.file}"))
        else:
            out.base = parsed
    elif parsed.kind == "variant":
        out.variants[parsed.name] = parsed
    else:
        out.locales[parsed.name] = parsed


PARSED = "parsed"   # the disk cache's kind for a file parsed (parsed_file)


def parsed_file(text: str, name: str, budgets: budget.Budgets, cache: bool = True,
                keep: bool = True) -> ir.File:
    """The file ``name`` whose text is ``text`` parsed (``dsl.parse.parse``; its
    MeepleError where it has a syntax error), from the disk cache where it was kept:
    a ruleset loaded again with another locale, variant or budget, or with one of its
    files changed, parses only the files that changed (reading one back takes about a
    tenth of parsing it: docs/performance.md, "Loading and compiling"). Kept under its
    name (the places in it name the file), its text, the budgets and Meeple's code (``code_fingerprint``).
    ``cache=False`` (or the cache off: ``MEEPLE_NO_CACHE``, ``--no-cache``): parsed
    afresh, nothing kept; ``keep=False``: read from the cache but not written (a text
    being edited, which would fill it). A file with an error is never kept."""
    from . import diskcache
    on = cache and diskcache.enabled()
    try:
        k = diskcache.key(PARSED, diskcache.code_fingerprint(), name, text, repr(budgets)) if on else ""
    except UnicodeEncodeError:   # (a lone surrogate: the parser says where it is)
        on, k = False, ""
    hit = diskcache.get(PARSED, k) if on else None
    if isinstance(hit, ir.File):
        return hit
    from .parse import parse  # here: a file read back from the disk cache needs no parser
    made = parse(text, name, budgets)
    if on and keep:
        diskcache.put(PARSED, k, made)
    return made


def merge(src: SourceSet, variants: list[str] = (), locale: str | None = None,
          diags: errors.Diagnostics | None = None) -> Merged:
    """Applies the chosen variants (in order) and the locale to the base ruleset."""
    diags = diags if diags is not None else errors.Diagnostics()
    base = src.base
    table: dict[str, object] = {}
    for d in base.decls:
        if isinstance(d, (ir.Replace, ir.Extend, ir.Remove)):
            diags.add(errors.overlay_error(d.span, f"'{d.node.lower()}' belongs in a variant or a locale",
                                           "write the declaration itself in the base ruleset"))
            continue
        key = ir.decl_key(d)
        if key in table:
            what, _, name = key.partition(" ")
            if not name or d.node == "AtEndDecl":  # turn, setup, at end...: no name
                what, name = None, key
            diags.add(errors.duplicate(d.span, what, name, table[key].span))
            continue
        table[key] = d
    titles = {}
    for v in variants:
        f = src.variants.get(v)
        if f is None:
            diags.add(errors.unknown_choice(base, "variant", v, src.variants))
            continue
        titles[v] = next((d.text for d in f.decls if d.node == "Title"), v)
        _apply(f, table, diags, own={"Title", "Language"})
    language = None
    if locale is not None:
        f = src.locales.get(locale)
        if f is None:
            diags.add(errors.unknown_choice(base, "locale", locale, src.locales))
        else:
            language = next((d.text for d in f.decls if d.node == "Language"), locale)
            _apply(f, table, diags, own={"Language"}, display_replaces=True)
    variant_texts = {k for f in src.variants.values() for k in _text_keys(f)}
    return Merged(base.name, _supplied(list(table.values())), list(variants), locale, titles, language,
                  variant_texts, base.span.file, list(src.variants),
                  {p for f in src.variants.values() for p in _procedures(f)},
                  {w for f in src.variants.values() for w in _words(f)})


def _supplied(decls: list) -> list:
    """The declarations with each ``supply`` followed by what it declares: its zone
    (shared and public: its items are alike and hide nothing) and the deck that fills it
    when a game starts."""
    out = []
    for d in decls:
        out.append(d)
        if d.node == "SupplyDecl":
            holds = ir.trusted(ir.TypeRef, span=d.entry.span, name=d.entry.kind, item=None)
            out.append(ir.trusted(ir.ZoneDecl, span=d.span, name=d.name, holds=holds, per_player=False,
                                  visibility="public"))
            out.append(ir.trusted(ir.DeckDecl, span=d.span, name=d.name, into=d.name, entries=[d.entry]))
    return out


def _procedures(f: ir.File) -> list[str]:
    """The procedures a variant declares or replaces."""
    decls = [d.decl if isinstance(d, ir.Replace) else d for d in f.decls]
    return [d.name for d in decls if isinstance(d, ir.ProcedureDecl)]


def _words(f: ir.File) -> set[str]:
    """The names a variant declares (zones, variables, enums, kinds, functions...) or its
    rules name (locals, loop variables)."""
    decls = [getattr(d, "decl", d) for d in f.decls]
    return ({n for d in decls if isinstance(n := getattr(d, "name", None), str)}
            | {n.name for n in ir.walk(f) if getattr(n, "node", "") == "Var"})


def _text_keys(f: ir.File) -> set[str]:
    keys = set()
    for n in ir.walk(f):
        if n.node == "Log":
            keys.add(n.key)
        elif n.node in ir.DECIDING and n.verb:
            keys.add(n.verb)
            if getattr(n, "alone", None):      # the second verb: as "play" or "pass"
                keys.add(n.alone)
                keys.update(getattr(n, "more", ()))
        elif n.node == "Best" and n.tie == "choose":
            keys.add("tie")
    return keys


def _apply(f: ir.File, table: dict, diags: errors.Diagnostics, own: set[str],
           display_replaces: bool = False) -> None:
    for d in f.decls:
        if d.node in own:
            continue
        if isinstance(d, ir.Replace):
            key = ir.decl_key(d.decl)
            if key not in table:
                diags.add(errors.overlay_error(
                    d.span, f"'replace' of {key}, which the ruleset does not declare",
                    errors.did_you_mean(key, table) or "drop 'replace' to add a new declaration"))
                continue
            table[key] = d.decl
        elif isinstance(d, ir.Extend):
            _extend(d, table, diags)
        elif isinstance(d, ir.Remove):
            key = f"{d.what} {d.name}"
            if table.pop(key, None) is None:
                diags.add(errors.overlay_error(d.span, f"'remove' of {key}, which is not declared",
                                               errors.did_you_mean(key, table)))
        else:
            key = ir.decl_key(d)
            if key in table and not (display_replaces and d.node in DISPLAY) and d.node != "Title":
                diags.add(errors.overlay_error(
                    d.span, f"{key} is already declared by the base ruleset",
                    f"write 'replace {key.split(' ')[0]} ...' to replace it"))
                continue
            table[key] = d


def _extend(d: ir.Extend, table: dict, diags: errors.Diagnostics) -> None:
    key = f"procedure {d.name}" if d.target == "procedure" else d.target
    old = table.get(key)
    if old is None:
        if d.target == "at end":
            table[key] = ir.trusted(ir.AtEndDecl, span=d.span, body=d.body)
            return
        diags.add(errors.overlay_error(d.span, f"'extend' of {key}, which is not declared",
                                       errors.did_you_mean(key, table)))
        return
    body = ir.trusted(ir.Block, span=old.body.span, stmts=list(old.body.stmts) + list(d.body.stmts))
    table[key] = old.model_copy(update={"body": body})
