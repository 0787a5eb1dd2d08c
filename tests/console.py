"""Runs ``meeple ARGS...`` in this process as the console script does (``cli.main``):
its exit code, stdout and stderr, and never a traceback; and the cells of the result
table it prints. Shared by the CLI tests."""
from __future__ import annotations

import io
import json
import sys
from contextlib import redirect_stderr, redirect_stdout

from meeple.cli import main as cli


class Run:
    def __init__(self, code: int, out: str, err: str):
        self.code, self.out, self.err = code, out, err

    def json(self) -> dict:
        return json.loads(self.out)   # the whole of stdout is one document

    def __repr__(self):
        return f"exit {self.code}\n--- stdout\n{self.out}\n--- stderr\n{self.err}"


def meeple_cli(*args, typed: str = "", out: io.StringIO | None = None, err: io.StringIO | None = None) -> Run:
    """``meeple ARGS...`` as the console script runs it, ``typed`` on its stdin (``out``,
    ``err``: the streams to catch stdout and stderr in, new ones by default)."""
    out, err = out or io.StringIO(), err or io.StringIO()
    saved = sys.argv, sys.stdin
    sys.argv, sys.stdin = ["meeple", *map(str, args)], io.StringIO(typed)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                cli.main()
                code = 0
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.argv, sys.stdin = saved
    result = Run(code, out.getvalue(), err.getvalue())
    assert "Traceback" not in result.out + result.err, result
    return result


def result_rows(out: str) -> list[list[str]]:
    """The cells of the result table's rows (after its header), by column."""
    lines = out[out.rindex("Result"):].splitlines()
    return [[c.strip() for c in line.strip("│┃").split("│" if "│" in line else "┃")]
            for line in lines if line.startswith(("│", "┃"))]
