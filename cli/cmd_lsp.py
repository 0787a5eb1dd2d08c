"""``meeple lsp``: the language server for ruleset files (the server: ``cli/lsp.py``)."""
from __future__ import annotations

import re

import typer

from .common import fail

NAME = "lsp"


def command(
    tcp: str | None = typer.Option(None, "--tcp", metavar="[HOST:]PORT",
                                      help="Listen on a TCP port instead of stdin/stdout."),
    stdio: bool = typer.Option(True, "--stdio", hidden=True,
                               help="Speak on stdin/stdout (the default; editors pass it)."),
) -> None:
    """A language server for ruleset files (the Language Server Protocol): the checker's
    diagnostics as you type, hover text, go to definition and completion. Editors start
    it themselves; see docs/editors.md. Needs pygls: pip install "meeple[lsp]"."""
    del stdio
    try:
        import pygls  # noqa: F401 - only to say clearly when it is missing
    except ImportError:
        raise fail("meeple lsp needs pygls, which is not installed", 2,
                   hint='pip install "meeple[lsp]"') from None
    if tcp is not None and not re.fullmatch(r"(?:[\w.-]+:)?\d{1,5}", tcp):
        raise fail(f"--tcp '{tcp}': write PORT or HOST:PORT, e.g. --tcp 2087", 2)
    from . import lsp as server
    server.serve(tcp)
