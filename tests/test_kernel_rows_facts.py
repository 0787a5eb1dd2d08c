"""Which parts of a list's elements the kernel may table by the list's index, a fact of
the IR (core/pure.py, ``given_alone``; native/kernel_rows.py: issue 35, printers decide
from data, never by reading back the text they printed), checked against the C++ the
kernel prints for each such part on every bundled ruleset and variant, and on the tests'
pentago: a part the fact tables that reads the state or counts work or calls fails here,
and so does one it refuses that reads and counts nothing.

The text is read here alone, as kernel_rows.py once read it: the part's C++ (its loop's
variable and its locals of enum types given), then the body of each rule function it
calls, down to 8 calls deep: no call of a function that counts its calls or may call
itself, no quote, no mention of the state ``s`` but in the calls of rule functions
(``f(s, ...)``). No kernel is compiled, no whole source written: each part is printed
alone."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from meeple.dsl import ast as ir
from meeple.interpreter.native import kernel
from meeple.interpreter.native.cxx_text import ident
from meeple.interpreter.native.kernel_types import INT, Unsupported

from meeple import interpreter

ROOT = Path(__file__).resolve().parents[1] / "rulesets"
BUNDLED = sorted(p.name for p in ROOT.iterdir() if p.is_dir())
PENTAGO = str(Path(__file__).resolve().parent / "testdata" / "pentago")

_STATE = re.compile(r"(?<![\w.])s(?![\w])")   # (the state, a name of its own)
_DEPTH = 8


def _programs(path: str):
    """Each variant (none, then each alone) of a ruleset, for its fewest players (the
    parts and their C++ are the same for any count)."""
    for v in [()] + [(p.stem,) for p in sorted((Path(path) / "variants").glob("*.meeple"))]:
        base = interpreter.load(path, variants=list(v))
        yield "+".join(v) or "-", base.for_players(base.min_players)


def _roots(c):
    """The declarations of the checked program ``c`` (each holds expressions)."""
    for v in vars(c).values():
        for x in v.values() if isinstance(v, dict) else v if isinstance(v, list) else [v]:
            if isinstance(x, ir.Node):
                yield x


def _parts(gen):
    """Each expression of the program the kernel could table were it a list's element
    (kernel_rows.py asks the fact of a part of one, ``[at[P(k, q)] for k in 0..35]``): a
    number, not a name or a literal, that holds no variable of the rules; each with the
    scope it is printed in, every name of a local in it given (``a0_``, ``a1_``...) with
    its type, as kernel_rows.py prints a part to make its row (``k_``, ``a0_``...)."""
    c = gen.c
    declared = set(c.consts) | set(c.enum_of_value) | set(c.enums) | set(c.kinds) | set(c.zones) \
        | set(c.functions) | {"players", "active"}
    for root in _roots(c):
        for part in ir.walk(root):
            if part.node in ("Var", "IntLit") or c.type_of(part).tag != "int":
                continue
            names = {x.name: x for x in ir.walk(part) if x.node == "Var"}
            if names.keys() & c.vars.keys():
                continue
            local = sorted((n, gen.ty(x)) for n, x in names.items() if n not in declared)
            yield part, {n: (f"a{i}_", t) for i, (n, t) in enumerate(local)}


def _reads_nothing_in_text(gen, code: str, depth: int) -> bool:
    """Whether the C++ ``code`` reads nothing of the state and counts no work or calls,
    directly or through the rule functions it calls, as its text says."""
    if '"' in code or depth > _DEPTH:
        return False
    for g, fd in gen.c.functions.items():
        f = ident("F", g)
        if f"{f}(s, " not in code and f"{f}(s)" not in code:
            continue
        if g in gen.recursive or g in gen.counting:
            return False
        sc = {p.name: (ident("A", p.name), gen.param_type(p)) for p in fd.params}
        if not _reads_nothing_in_text(gen, gen.expr(fd.body, sc, gen.typeref(fd.result)), depth + 1):
            return False
        code = code.replace(f"{f}(s, ", f"{f}(").replace(f"{f}(s)", f"{f}()")
    return _STATE.search(code) is None


def _check(path: str) -> tuple[int, int]:
    """Each part's fact against its text; the count of parts tabled and refused."""
    told = {True: 0, False: 0}
    for where, prog in _programs(path):
        gen = kernel.Gen(prog)
        for part, sc in _parts(gen):
            try:
                code = gen.expr(part, sc, INT)
                text = _reads_nothing_in_text(gen, code, 0)
            except Unsupported:
                continue   # (a part the kernel writes only in its own place: none tabled)
            fact = prog.facts.given_alone(part, set(sc))
            assert fact == text, (path, where, code)
            told[fact] += 1
    return told[True], told[False]


@pytest.mark.parametrize("name", BUNDLED)
def test_the_parts_tabled_agree_with_the_printed_text(name):
    tabled, refused = _check(str(ROOT / name))
    assert tabled > 0 and refused > 0   # (each ruleset has both: the check reads their text)


def test_pentago_tables_the_marble_a_quadrant_turns():
    # ``[at[source(k / 6, k % 6, q, d)] for k in 0..35]``: the index whose marble comes
    # to k is read from a row made once, in the element's own place
    assert _check(PENTAGO)[0] > 0
    source = kernel.Gen(interpreter.load(PENTAGO).for_players(2)).source()
    assert ident("P", "$row") in source
    # the element printed with the row's read in the part's place: at(board, row[k - 0]),
    # the board read through a view taken before the loop (cxx/kernel_lists.hpp, ListView)
    assert re.search(r"const ListView<I> (\w+_view)\(s\.\w+\); .*push_back\(at\(\1, \w+_row\[\w+_k - \(0LL\)\]\)\)",
                     source)
