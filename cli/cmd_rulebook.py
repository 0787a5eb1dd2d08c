"""`meeple rulebook`: a ruleset's rulebook, as Markdown, HTML or PDF, in the language of its
locale (the model is ``interpreter.rulebook``, the writing ``interpreter.rulebook_view``;
this command only writes it out)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from .common import compile_ruleset, fail, resolve
from .options import locale_option, no_color_option, ruleset_argument, variant_option

if TYPE_CHECKING:   # (imported where used: `meeple <command> --help` loads no interpreter)
    pass

NAME = "rulebook"

FORMATS = ("md", "html", "pdf")


def command(
    ruleset: str = ruleset_argument(),
    locale: str | None = locale_option("A locale: the rulebook in its language, e.g. de."),
    variant: list[str] = variant_option("A variant to include in the rules (repeatable)."),
    fmt: str = typer.Option("md", "--format", "-f", metavar="md|html|pdf",
                            help="Markdown (to include in a page; headings from ##), one styled "
                                 "HTML page, or a PDF (needs the pdf extra)."),
    output: Path | None = typer.Option(None, "--output", "-o", metavar="FILE",
                                          help="Write the rulebook to FILE (default: standard output)."),
    no_color: bool = no_color_option(),
    check: bool = typer.Option(False, "--check",
                               help="Write no rulebook: list the rules that lack prose and the "
                                    "things that lack a name in each locale (or --locale), over "
                                    "the base game and every variant (or the game with the "
                                    "--variant ones), as a translation tool lists missing "
                                    "strings; exit 1 when some do."),
) -> None:
    """Write a ruleset's rulebook: overview and goal, components with their counts,
    setup, the turn and every action, procedures, scoring and the end, each
    variant's changes and the game's vocabulary, in the language of the locale
    (English sentences where Meeple has none for it, with a note)."""
    from ..interpreter import record as records
    if check:
        _check_prose(ruleset, locale, list(variant))
        return
    if fmt not in FORMATS:
        raise fail(f"--format must be md, html or pdf, not '{fmt}'", 2)
    if fmt == "pdf":
        _check_pdf(output)
    if output is not None:
        # refused before anything is made: a folder, a fifo (which would hang), a
        # device, a missing or read-only folder; an existing file is replaced
        problem = records.check_target(output, overwrite=True)
        if problem:
            raise fail(f"cannot write the rulebook to {output}: {problem}")
    program = compile_ruleset(resolve(ruleset), ruleset, list(variant), locale)
    # (the rulebook's model and writer: imported by this command only)
    from ..interpreter import rulebook as books, rulebook_view
    book = books.build(program)
    if fmt == "pdf":
        data = rulebook_view.pdf(book)
    else:
        data = (rulebook_view.markdown(book) if fmt == "md" else rulebook_view.html(book)).encode("utf-8")
    if output is None:
        if fmt == "pdf":
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(data.decode("utf-8"))
            sys.stdout.flush()
        return
    try:   # atomically: a reader never sees half a rulebook
        records.write_atomic(output, data, private=False)
    except records.SaveError as e:
        raise fail(f"cannot write the rulebook to {output}: {e}") from None


def _check_prose(ruleset: str, locale: str | None, variants: list[str]) -> None:
    """``--check``: for each locale of the folder (the base files when it has none), the
    rules whose prose its own file lacks, over the base game and each variant (with
    ``--variant``: the game with those variants, and their own prose), and the things
    players see that it gives no name, or no gender where its language needs one for
    its articles (listed only: the book reads without)."""
    from ..interpreter import rulebook as books
    where = resolve(ruleset)
    base = compile_ruleset(where, ruleset, [], None)
    src = books.sources_of(base)   # (texts only when it comes from the disk cache)
    locales = [locale] if locale else (list(src.locales) or [None])
    choices = [variants] if variants else [[]] + [[v] for v in src.variants]
    lacking = 0
    for loc in locales:
        progs = [compile_ruleset(where, ruleset, vs, loc) for vs in choices]
        missing = books.missing_prose(progs, variants or None)
        unnamed = books.missing_names(progs)
        label = loc or "base"
        if missing:
            print(f"{label}: {len(missing)} without prose: {', '.join(missing)}")
        else:
            print(f"{label}: every rule has prose")
        if unnamed:
            print(f"{label}: {len(unnamed)} without a name: {', '.join(unnamed)}")
        # (a gender is optional: the book says such a name without an article)
        genderless = books.missing_genders(progs)
        if genderless:
            print(f"{label}: {len(genderless)} without a gender: {', '.join(genderless)}")
        lacking += bool(missing or unnamed)
    if lacking:
        raise typer.Exit(1)


def _check_pdf(output: Path | None) -> None:
    """Refuses a PDF before anything is made: where WeasyPrint is missing (with how to
    install it) and where it would go to a terminal (binary on a screen)."""
    from ..interpreter import rulebook_view
    problem = rulebook_view.pdf_problem()
    if problem:
        raise fail(f"--format pdf: {problem}", 2,
                   hint=f"install the pdf extra: {rulebook_view.INSTALL_PDF} (WeasyPrint; it needs "
                        "Pango, see https://doc.courtbouillon.org/weasyprint/stable/first_steps.html)")
    if output is None and (not hasattr(sys.stdout, "buffer") or sys.stdout.isatty()):
        raise fail("--format pdf writes a binary file: give -o FILE (or redirect stdout)", 2)
