"""mypy on dsl/ interpreter/ cli/ meeple/, against a baseline that only shrinks.

    python3 tools/mypy_baseline.py           # fails on an error not in the baseline
    python3 tools/mypy_baseline.py --prune   # drops the baseline's lines that are gone
    python3 tools/mypy_baseline.py --write   # the baseline anew (after moving files)

The baseline (tools/mypy-baseline.txt) holds the type errors the code had when the
checker came, one a line as ``path: [code] message``: no line numbers, since lines move
as the code changes; an error that occurs twice in a file is there twice. A check fails
when an error is not in the baseline (fix it; the baseline is not the place for new ones)
and when a baseline line no longer occurs (run --prune, so the fix stays fixed). --write
is for when files move or mypy changes; its diff shows what it adds.

The stages are subpackages of the installed package `meeple` (pyproject.toml,
[tool.setuptools.package-dir]) but top-level folders of the checkout, so mypy runs on a
copy laid out as installed: meeple/, meeple/dsl/, meeple/interpreter/, meeple/cli/; the
paths it reports are turned back into the checkout's (dsl/parse.py).
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "tools" / "mypy-baseline.txt"
STAGES = ("dsl", "interpreter", "cli", "web")   # and meeple/ itself
_ERROR = re.compile(r"^(?P<path>[^:\n]+):\d+(?::\d+)?: error: (?P<msg>.*?)(?:  \[(?P<code>[a-z-]+)\])?$")


def entry(line: str) -> str | None:
    """A baseline entry for one line of mypy's output (None for anything but an error):
    the file, the error code and the message, without the line; a line number inside
    the message ('already defined on line 12') goes too."""
    m = _ERROR.match(line.rstrip("\n"))
    if m is None:
        return None
    msg = re.sub(r"\bline \d+\b", "line N", m["msg"])
    return f"{m['path']}: [{m['code'] or 'misc'}] {msg}"


def entries(lines) -> Counter:
    return Counter(e for e in map(entry, lines) if e is not None)


def read_baseline(path: Path = BASELINE) -> Counter:
    if not path.exists():
        return Counter()
    return Counter(ln for ln in path.read_text(encoding="utf-8").splitlines()
                   if ln.strip() and not ln.startswith("#"))


def write_baseline(found: Counter, path: Path = BASELINE) -> None:
    head = ("# mypy's errors in dsl/ interpreter/ cli/ meeple/ when the checker came; the list only\n"
            "# shrinks (tools/mypy_baseline.py). One error a line: path: [code] message.\n")
    path.write_text(head + "".join(f"{e}\n" for e in sorted(found.elements())), encoding="utf-8")


def compare(found: Counter, baseline: Counter) -> tuple[Counter, Counter]:
    """(new, gone): the errors beyond the baseline's count, the baseline's lines beyond
    what occurs."""
    return found - baseline, baseline - found


def run_mypy() -> list[str]:
    """mypy's output lines, on a copy of the stages laid out as installed."""
    with tempfile.TemporaryDirectory(prefix="meeple-mypy-") as tmp:
        pkg = Path(tmp) / "meeple"
        skip = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.c", "*.cpp")
        shutil.copytree(ROOT / "meeple", pkg, ignore=skip)
        for stage in STAGES:
            shutil.copytree(ROOT / stage, pkg / stage, ignore=skip)
        cmd = [sys.executable, "-m", "mypy", "-p", "meeple", "--config-file",
               str(ROOT / "pyproject.toml"), "--cache-dir", str(ROOT / ".mypy_cache"),
               "--no-error-summary", "--no-pretty", "--show-error-codes",
               "--hide-error-context", "--no-color-output"]
        r = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, check=False)
    if r.returncode not in (0, 1) or (r.returncode == 1 and not entries(r.stdout.splitlines())):
        sys.exit(f"mypy did not run ({r.returncode}):\n{r.stdout}{r.stderr}")
    # the checkout's paths again: meeple/dsl/parse.py is dsl/parse.py
    stages = "|".join(STAGES)
    return [re.sub(rf"^meeple/({stages})/", r"\1/", ln) for ln in r.stdout.splitlines()]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    what = ap.add_mutually_exclusive_group()
    what.add_argument("--prune", action="store_true", help="drop the baseline's lines that are gone")
    what.add_argument("--write", action="store_true", help="write the baseline anew from mypy's errors")
    args = ap.parse_args(argv)
    lines = run_mypy()
    found, baseline = entries(lines), read_baseline()
    if args.write:
        write_baseline(found)
        print(f"{BASELINE.relative_to(ROOT)}: {sum(found.values())} error(s)")
        return 0
    new, gone = compare(found, baseline)
    if args.prune:
        write_baseline(baseline - gone)
        print(f"{BASELINE.relative_to(ROOT)}: {sum(gone.values())} line(s) dropped, "
              f"{sum((baseline - gone).values())} left")
        gone = Counter()
    status = 0
    if new:
        status = 1
        print(f"mypy: {sum(new.values())} new error(s), not in {BASELINE.relative_to(ROOT)} "
              "(fix them; the baseline only shrinks). Where (each such error, by line):")
        for line in lines:
            if entry(line) in new:
                print(f"  {line}")
    if gone:
        status = 1
        print(f"mypy: {sum(gone.values())} baseline line(s) no longer occur: well done; "
              "drop them with python3 tools/mypy_baseline.py --prune:")
        for e in sorted(gone.elements()):
            print(f"  {e}")
    if status == 0:
        print(f"mypy: no new error ({sum(found.values())} in the baseline)")
    return status


if __name__ == "__main__":
    sys.exit(main())
