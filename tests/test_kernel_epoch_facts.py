"""Which variables the kernel's kept values read, a fact of the IR (core/pure.py,
``variables_read``; native/kernel_epoch.py, ``read_by_keeps``: issue 35, printers decide
from data, never by reading back the text they printed), checked against the C++ the
kernel printed on every bundled ruleset, each variant and player count: a variable read
by a kept function, or by a function it hands the state to, that the fact leaves out
fails here, and so does one the fact names that no such function reads.

The text is read here alone, as kernel_epoch.py once read it: each function of the
module (a text may define several: a keep's part in line and its part out of line), the
variables it reads (``s.uG_x``, ``s.uP_x``, ``s.uI_x``) and the functions it hands the
state to (``f(s, ...)``), from the keeps (``uK_``, ``uC_``) on. No kernel is compiled."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from meeple.interpreter.native import kernel

from meeple import interpreter

ROOT = Path(__file__).resolve().parents[1] / "rulesets"
BUNDLED = sorted(p.name for p in ROOT.iterdir() if p.is_dir())
# (a board's walls read by across: tests/testdata/quoridor)
OTHERS = [str(Path(__file__).resolve().parent / "testdata" / "quoridor")]

# a function of the module defined (a prototype, ending in ";", defines nothing)
_DEFINED = re.compile(r"\b(u[A-Z0-9]+_\w*)\((?:const )?St& s\b")
# the state handed to a callee, and a variable of the rules read
_HANDED = re.compile(r"\b(\w+)\(s(?=[,)])")
_VARIABLE = re.compile(r"\bs\.(u[GIP]_\w+)")
# the runtime's helpers given the state that read of it nothing but the budgets'
# counters, the zones, the faces, the seats or a walk's marks
_HELPERS = frozenset({"W", "range_work", "irange", "wcat", "scat", "scatn", "counted_again", "d_", "seen_", "RZ",
                      "zin", "cell_of", "face_down", "sees", "bail", "fresh", "across"})
_STEP = re.compile(r"#define STEP_(u[GIP]_\w+)\(s\) (STEP0?)\(s\)")


def _programs(path: str, name: str):
    """Each variant (none, then each alone) and each player count of a ruleset."""
    for v in [()] + [(p.stem,) for p in sorted((Path(path) / "variants").glob("*.meeple"))]:
        base = interpreter.load(path, variants=list(v))
        for n in range(base.min_players, base.max_players + 1):
            yield f"{name}{'+' + v[0] if v else ''}/{n}", base.for_players(n)


def read_in_text(fns: list[str], where: str) -> set[str]:
    """The variables (their fields) that the keeps the module defines, and every function
    they hand the state to, read, as their C++ says."""
    defined: dict[str, str] = {}
    for text in fns:
        if not text.rstrip().endswith(";"):
            for name in _DEFINED.findall(text):
                defined.setdefault(name, "")
                defined[name] += text
    todo = [n for n in defined if n.startswith(("uK_", "uC_"))]
    seen, read = set(todo), set()
    while todo:
        text = defined[todo.pop()]
        read.update(_VARIABLE.findall(text))
        for callee in _HANDED.findall(text):
            assert callee in defined or callee in _HELPERS, (where, callee)   # (known to read no variable)
            if callee in defined and callee not in seen:
                seen.add(callee)
                todo.append(callee)
    return read


def _check(path: str, name: str) -> tuple[int, int]:
    """Each program's fact against its text; the count of programs with a keep and of
    the variables read."""
    kept = reads = 0
    for where, prog in _programs(path, name):
        gen = kernel.Gen(prog)
        source = gen.source()
        fact = gen.read_by_keeps()
        assert fact == read_in_text(gen.fns, where), where
        # each step that sets a variable renews the epoch where a kept value reads it
        steps = dict(_STEP.findall(source))
        assert steps.keys() == getattr(gen, "step_writes", set()), where
        assert {f for f, step in steps.items() if step == "STEP"} == fact & steps.keys(), where
        kept += bool(gen.kept_made)
        reads += len(fact)
    return kept, reads


@pytest.mark.parametrize("name", BUNDLED)
def test_the_variables_kept_values_read_agree_with_the_printed_text(name):
    kept, reads = _check(str(ROOT / name), name)
    if name in ("chess", "brotherhood-of-nine", "go", "hearts"):
        assert kept > 0, name   # (each keeps values: the check reads their text)
    if name in ("chess", "brotherhood-of-nine"):
        assert reads > 0, name   # (chess's en passant, brotherhood's colours)


@pytest.mark.parametrize("path", OTHERS)
def test_the_variables_kept_values_read_agree_with_the_printed_text_of_tests(path):
    assert _check(path, Path(path).name)[0] > 0


def test_a_variable_no_kept_value_reads_keeps_the_epoch():
    # chess's keeps read en passant and its pieces' roles and moves; a quiet move's
    # count does not renew the epoch. go's read no variable (its groups: the zones
    # alone, read through ``fresh``): setting the ko point keeps the epoch too
    chess = kernel.Gen(interpreter.load("chess").for_players(2))
    source = chess.source()
    assert chess.read_by_keeps() == {"uG_en_passant", "uI_moved", "uI_role"}
    assert "#define STEP_uG_en_passant(s) STEP(s)" in source and "#define STEP_uG_quiet_moves(s) STEP0(s)" in source
    go = kernel.Gen(interpreter.load("go").for_players(2))
    source = go.source()
    assert go.kept_made and go.read_by_keeps() == set()
    assert "#define STEP_uG_ko(s) STEP0(s)" in source
