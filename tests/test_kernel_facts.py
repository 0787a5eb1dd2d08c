"""The facts the kernel's printer carries with the C++ it writes (issue 35: printers decide
from data, never by reading back the text they printed), checked against that text on
every bundled ruleset, each variant and player count: a fact that said something the
text does not fails here.

- ``Static`` (cxx_text.py): a text naming a static table's list (a board's cells, a
  relation's row), which a loop over ``(if c then xs else ys)`` reads in place;
- ``Stored`` (kernel_layout.py): the C++ type a field is kept in, with its bytes, the
  count of an ``NId`` and the span of an ``NInt``, which the state's layout and the
  bridge to Python read;
- ``Recorded`` (kernel_lasting.py): a kept function's body with its reads of the zones
  made through ``RZ``, and how many (none: its value lasts as it is);
- ``Reads`` (kernel_reads.py): what of the state the C++ of an expression reads, noted
  by the printer where it writes the state, which decides whether a keep lasts
  (``recorded``), a list is kept one element per cell (``_own_cell``) and a component is
  rechecked by its cells (``_own_cond``): each checked against what the regular
  expressions that decided it before read in the text (kept here alone, as the test's
  reading of the text; a part of an element tabled by rows is the IR's fact
  ``given_alone``, checked in test_kernel_rows_facts.py); and every mention of the state
  an expression's C++ makes noted in the ``Reads`` of its scope (a mention no note saw
  would make a keep think the expression reads nothing).

No kernel is compiled: the facts are read beside the source ``Gen`` writes."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from meeple.interpreter.native import kernel, kernel_lasting, kernel_reads
from meeple.interpreter.native.cxx_text import Static, ident
from meeple.interpreter.native.kernel_layout import Stored, fit_width, plain
from meeple.interpreter.native.kernel_module import ModuleWriter
from meeple.interpreter.native.kernel_types import IDS

from meeple import interpreter

ROOT = Path(__file__).resolve().parents[1] / "rulesets"
BUNDLED = sorted(p.name for p in ROOT.iterdir() if p.is_dir())


def _programs(name: str):
    """Each variant (none, then each alone) and each player count of a bundled ruleset."""
    for v in [()] + [(p.stem,) for p in sorted((ROOT / name / "variants").glob("*.meeple"))]:
        base = interpreter.load(name, variants=list(v))
        for n in range(base.min_players, base.max_players + 1):
            yield f"{name}{'+' + v[0] if v else ''}/{n}", base.for_players(n)


# what the texts the facts describe are, as the printer writes them (read here alone)
_STATIC = re.compile(r"(T\d+)(\[nn\(.+\)\])?")
_TYPE = re.compile(r"NId<(\d+)>|NInt<(-?\d+)LL, (-?\d+)LL>")
_PLAIN_WIDTH = {"bool": 1, "Id": 4, "List<Id>": 4, "List<bool>": 4}


class _Seen(kernel.Gen):
    """A kernel's printer that notes each expression it printed with the C++ it gave."""

    def expr(self, e, sc, want=None):
        code = super().expr(e, sc, want)
        self.__dict__.setdefault("printed", []).append((e, code))
        return code


def _check_static(gen, where: str) -> int:
    """Each ``Static`` is a static list declared as such (of ids, or of numbers or lists
    of them written out: kernel_fold.py's; or one of an array of them, indexed), and each
    list of a table printed alone is one; the count of each."""
    declared = {m.group(1): m.group(2) for m in re.finditer(r"static List<(?:Id|I|List<I>)> (T\d+)(\[\d+\])?;",
                                                            "\n".join(gen.tables.statics))}
    seen = 0
    for e, code in gen.__dict__.get("printed", []):
        if isinstance(code, Static):
            m = _STATIC.fullmatch(code)
            assert m and m.group(1) in declared, (where, code)
            assert (m.group(2) is None) == (declared[m.group(1)] is None), (where, code)   # (a row of an array)
            seen += 1
        elif gen.facts.table_list(e) is not None and gen.facts.call_kind(e) in ("builtin", "row"):
            assert not _STATIC.fullmatch(code), (where, code)   # (a table's list said so)
    return seen


def _check_stored(t, stored: Stored, where: str) -> None:
    """A field's type text against what it says of itself."""
    assert isinstance(stored, Stored), (where, stored)
    m = _TYPE.fullmatch(stored)
    if m is None:
        assert stored.ids is None and stored.span is None, (where, stored)
        assert stored.width == _PLAIN_WIDTH.get(stored, 8), (where, stored)
        return
    if m.group(1) is not None:
        assert t is None or t.tag in IDS
        assert stored.ids == int(m.group(1)) and stored.span is None, (where, stored)
        assert stored.width == fit_width(-1, stored.ids), (where, stored)
    else:
        lo, hi = int(m.group(2)), int(m.group(3))
        assert stored.span == (lo, hi) and stored.ids is None, (where, stored)
        assert stored.width == fit_width(lo - 1, hi), (where, stored)


_RZ_READ = re.compile(r"\bRZ\.(?:s\.z\.)?(?:size|top|top_any|bottom|items|topn)\(")


@pytest.mark.parametrize("name", BUNDLED)
def test_facts_agree_with_the_printed_text(name, monkeypatch):
    statics = fields = 0
    bodies: list = []
    kept: list = []

    def recorded(body, reads):   # (each body a lasting keep was asked for, as recorded wrote it)
        out = real(body, reads)
        bodies.append((body, out))
        return out
    real = kernel_lasting.recorded
    monkeypatch.setattr(kernel_lasting, "recorded", recorded)
    seen: dict = {"lasting": set(), "cells": set(), "conds": set()}
    for where, prog in _programs(name):
        gen = _Noted(prog)
        source = gen.source()
        _check_reads(gen, bodies[len(kept):], where, seen)
        kept.extend(bodies[len(kept):])
        statics += _check_static(gen, where)
        c, layout = gen.c, gen.layout
        for var, v in c.vars.items():
            t = gen.typeref(v.type)
            _check_stored(t, layout.stored(t, var), where)
            fields += 1
        for f, stored in ModuleWriter(gen).frame_types(layout).items():
            _check_stored(None, stored, where)
            assert f"{stored} {f.split('.')[1]};" in source, (where, f, stored)
            fields += 1
        for f, (_k, _local, t) in gen.field_names.items():
            assert gen.fields[f] == plain(gen.ct(t), t) == gen.ct(t), (where, f)
    for _body, body in bodies:
        if body is not None:
            assert isinstance(body, kernel_lasting.Recorded)
            # (each read printed counted once: a text printed once may be written twice;
            # a body that notes the cells it meets itself reads them through the state)
            reads = len(_RZ_READ.findall(body)) + (len(_ZONE.findall(body)) if "RZ.note(" in body else 0)
            assert 0 < body.zones <= reads if "RZ." in body else body.zones == 0, body
    assert fields > 0
    if name == "go":   # (its groups read through RZ, its position kept cell by cell, its walks rechecked)
        assert any(b is not None and b.zones for _t, b in bodies)
        assert seen["lasting"] == seen["conds"] == {True} and seen["cells"] == {True, False}
    if name == "brotherhood-of-nine":   # (its kept functions read more than zones)
        assert seen["lasting"] == {False}
    if name in ("chess", "brotherhood-of-nine", "clans-and-glory", "go"):
        assert statics > 0   # (each reads a board's cells or a relation's row so)


# ---------------------------------------------------------------- what the printer noted
# the text tests that decided before what an expression's C++ reads of the state (the
# printers' own now read what they noted: kernel_reads.py), the test's reading of the text
_ZONE = re.compile(r"\bs\.z\.(size|top|top_any|bottom|items|topn)\(")
_GIVEN = re.compile(r"(?:\bW|\brange_work|\birange|\bwcat|\bwappend1?|\bscat|\bcounted_again|\bSeen seen_)\($")
_STATE = re.compile(r"(?<![\w.])s(?![\w])")
_TESTED = re.compile(r"\(RZ\.(?:size|top|bottom)\((\w+)\) (?:>|<|==|!=|>=|<=) \w+\) &&? \(")
_OWN_READ = r"\bs\.z\.(?:size|top|bottom|items|topn)\({v}[,)]"
_ANY_READ = re.compile(r"\bs\.z\.(\w+)\(")


def _counters_only(code: str) -> bool:
    """Whether each mention of the state in ``code`` gives it to a budgets' helper."""
    return all(_GIVEN.search(code[max(0, m.start() - 20):m.start()]) is not None and code[m.end():m.end() + 1] in ",)"
               for m in _STATE.finditer(code))


def _text_noted_once(body: str) -> str:
    out, at = [], 0
    for m in _TESTED.finditer(body):
        if m.start() < at:
            continue
        end, depth = m.end(), 1
        while end < len(body) and depth:
            depth += {"(": 1, ")": -1}.get(body[end], 0)
            end += 1
        right = re.sub(rf"\bRZ\.(size|top|top_any|bottom|items|topn)\({m.group(1)}\)",
                       rf"RZ.s.z.\1({m.group(1)})", body[m.end():end])
        out.append(body[at:m.end()] + right)
        at = end
    return "".join(out) + body[at:]


def _text_recorded(body: str):
    """The body with its zones' reads through RZ, and how many, or None (the text's)."""
    if '"' in body:
        return None
    out, zones = _ZONE.subn(lambda m: f"RZ.{m.group(1)}(", body)
    return (_text_noted_once(out), zones) if _counters_only(out) else None


def _text_own_cell(gen, code: str, var, depth: int) -> bool:
    if '"' in code or depth > 8:
        return False
    out = code if var is None else re.sub(_OWN_READ.format(v=re.escape(var)), lambda m: "ZONE_" + m.group(0)[-1], code)
    for g, fd in gen.c.functions.items():
        f = ident("F", g)
        if f"{f}(s, " not in out and f"{f}(s)" not in out:
            continue
        if g in gen.recursive or g in gen.counting:
            return False
        sc = {p.name: (ident("A", p.name), gen.param_type(p)) for p in fd.params}
        inner = gen.expr(fd.body, sc, gen.typeref(fd.result))
        if _text_own_cell(gen, inner, None, depth + 1):
            out = out.replace(f"{f}(s, ", f"{f}(").replace(f"{f}(s)", f"{f}()")
            continue
        if var is None or len(fd.params) != 1 or not _text_own_cell(gen, inner, sc[fd.params[0].name][0], depth + 1):
            return False
        out = out.replace(f"{f}(s, {var})", "ZONE_)")
        if f"{f}(s" in out:
            return False
    return _counters_only(out)


def _text_own_zone_only(cond: str, var: str) -> bool:
    if '"' in cond:
        return False
    uses = 0
    for m in _ANY_READ.finditer(cond):
        if m.group(1) not in ("size", "top", "top_any", "bottom", "items") or not cond.startswith(f"{var})", m.end()):
            return False
        uses += 1
    return len(_STATE.findall(cond)) == uses


class _Noted(_Seen):
    """A printer that keeps the C++ printed with each ``Reads`` (the outermost expression
    printed in its scope) and each decision read from one."""

    def __init__(self, prog):
        super().__init__(prog)
        self.texts: list = []      # (the Reads, the C++ printed with it)
        self.open: set = set()
        self.own_cells: list = []  # (_own_cell's) Reads, var, depth, decision
        self.conds: list = []      # (_own_cond's) C++, var, decision

    def expr(self, e, sc, want=None):
        r = kernel_reads.reads_of(sc)
        outer = r is not None and id(r) not in self.open
        if outer:
            self.open.add(id(r))
        try:
            code = super().expr(e, sc, want)
        finally:
            if outer:
                self.open.discard(id(r))
        if outer:
            self.texts.append((r, code))
        return code

    def text_of(self, reads):
        return next(code for r, code in reversed(self.texts) if r is reads)

    def _own_cell(self, reads, var, depth):
        got = super()._own_cell(reads, var, depth)
        self.own_cells.append((reads, var, depth, got))
        return got

    def _own_cond(self, name, cond_e, var_name, var, el):
        n = len(self.texts)
        got = super()._own_cond(name, cond_e, var_name, var, el)
        self.conds.append((self.texts[-1][1], var, got is not None))
        assert len(self.texts) > n
        return got



def _check_reads(gen, bodies: list, where: str, seen: dict) -> None:
    """Each decision read from what the printer noted (``gen``: a ``_Noted``; ``bodies``:
    each lasting body recorded, with what ``recorded`` gave) as the text tests decided."""
    for body, out in bodies:
        # (the text as the zones' own reads print it: the old test read that; a walk's
        # own notes of the cells it meets, RZ.noted and RZ.note, read nothing of the state)
        body = body.replace("RZ.noted(", "noted_(").replace("RZ.note(", "note_(")
        text = _text_recorded(body.replace("RZ.s.z.", "s.z.").replace("RZ.", "s.z."))
        assert (text is None) == (out is None), (where, body)
        if out is not None:   # (a text printed once may be written twice: a walk's condition)
            # (a body that notes its cells itself reads their zones through the state:
            # the text read so is not its own, only what it reads is compared)
            same = "note_(" in body or text[0] == out
            assert same and 0 < out.zones <= text[1] if text[1] else out.zones == 0, (where, body)
        seen["lasting"].add(out is not None)
    for reads, var, depth, got in gen.own_cells:
        assert _text_own_cell(gen, gen.text_of(reads), var, depth) == got, (where, gen.text_of(reads))
        seen["cells"].add(got)
    for cond, var, got in gen.conds:
        assert _text_own_zone_only(cond, var) == got, (where, cond)
        seen["conds"].add(got)

# a ruleset of functions each asked of each decision: what they read decides it
READS_RULES = """ruleset reads
players 2..2
kind Mark { seat: int }
board b: grid(rows: 3, cols: 3) holds Mark
zone supply: Mark
deck marks into supply { 5 of Mark(seat: s) for s in 1..2 }
relation adj(a: b, c: b) = abs(a.col - c.col) + abs(a.row - c.row) == 1
var ko: int = 0
function n(c: b): int = size(c)
function mine(c: b, k: int): bool = occupied(c) and top(c).seat == k
function busy(): int = count(c for c in cells(b) if occupied(c))
function pile(c: b): bool = occupied(c) and size(c) > 1
function with_ko(c: b): int = size(c) + ko
function placed(m: Mark): bool = m in supply
function seats(c: b): int = sum(m.seat for m in items(c))
function named(c: b): str = "cell " + c.name
function half(c: b): int = c.row / 2
function code(c: b): int = if empty(c) then 0 else top(c).seat
function position(): list of int = [code(c) for c in cells(b)]
function halves(): list of int = [half(c) + n(c) for c in cells(b)]
function crowd(): list of int = [count(x for x in adj(c) if occupied(x)) for c in cells(b)]
function watched(): list of int = [size(c) + ko for c in cells(b)]
function pairs(c: b): list of b = [y for x in adj(c) for y in adj(x) if occupied(y)]
function lonely(): list of int = [if empty(pairs(c)) then 1 else 0 for c in cells(b)]
function group(c: b, k: int): list of b = connected(x for x in adj(c) if occupied(x) and top(x).seat == k)
function spill(c: b): list of b = connected(x for x in adj(c) if occupied(x) and size(supply) > 0)
function grudge(c: b): list of b = connected(x for x in adj(c) if occupied(x) and ko == 0)
function step(k: int): int = k * 3
function tripled(): list of int = [step(k) * 2 for k in 1..4]
function stocked(): list of int = [k + size(supply) for k in 1..4]
turn {
  choose x from [c for c in cells(b) if empty(c)] as "mark"
  move first(m for m in items(supply)) to x
  ko = ko + busy() + n(x) + with_ko(x) + seats(x) + half(x) + size(position()) + size(halves()) + size(crowd()) + size(lonely())
    + size(watched()) + size(group(x, 1)) + size(spill(x)) + size(grudge(x)) + sum(tripled()) + sum(stocked())
    + count(m for m in items(x) if placed(m)) + (if named(x) == "r1c1" then 1 else 0) + (if mine(x, 1) or pile(x) then 1 else 0)
}
end when size(supply) == 0
score(p) = ko
"""


def test_each_decision_reads_what_the_printer_noted(monkeypatch):
    from lockstep import program_of
    bodies: list = []

    def recorded(body, reads):
        out = real(body, reads)
        bodies.append((body, out))
        return out
    real = kernel_lasting.recorded
    monkeypatch.setattr(kernel_lasting, "recorded", recorded)
    gen = _Noted(program_of(READS_RULES, "reads.meeple", False))
    gen.source()
    fns = gen.c.functions
    # kept values that outlast a step: zones' items alone (through RZ, a zone tested on
    # the left of an and read unnoted on its right), the budgets' counters aside
    lasting = {f: gen.lasting(f) for f in ("n", "mine", "busy", "pile", "with_ko", "placed", "seats", "named", "half")}
    assert {f for f, v in lasting.items() if v is not None} == {"n", "mine", "busy", "pile", "half"}
    assert not gen.notes("half") and gen.notes("n")   # (half reads nothing of the state)
    kept = gen.__dict__["lasting_body"]
    assert kept["n"] == "RZ.size(uA_c)" and kept["n"].zones == 1
    assert "(RZ.size(uA_c) > 0) & (eq(" in kept["mine"] and "RZ.s.z.top_any(uA_c)" in kept["mine"]
    assert "W(s, " in kept["busy"] and "RZ.size(" in kept["busy"]
    # (the right of && unnoted whatever its form: here not parenthesised, where the text
    # test left it noted; the same zones listed either way, a zone noted again unread)
    assert kept["pile"] == "((RZ.size(uA_c) > 0) && lt(((I)1LL), RZ.s.z.size(uA_c)))"
    # lists kept one element per cell: each element its own cell's items alone
    kept_cells = {f: gen.elementwise(fns[f].body, {}) for f in ("position", "halves", "crowd", "watched", "lonely")}
    assert {f for f, v in kept_cells.items() if v is not None} == {"position", "halves"}
    # (lonely's element tests pairs(c) in place, kernel_emptiness.py: its reads its own)
    assert any("s.z.size(" in gen.text_of(r) and "uF_pairs" not in gen.text_of(r) for r, var, _d, got in gen.own_cells
               if var == "xE_" and not got)
    # components rechecked by their cells: COND reads its cell's items alone
    rechecked = {f: gen.component_recheck(f) for f in ("group", "spill", "grudge")}
    assert {f for f, v in rechecked.items() if v is not None} == {"group"}
    # parts of an element tabled by rows: they read nothing of the state
    rows = {f: gen.tabled_rows(fns[f].body, {}) for f in ("tripled", "stocked")}
    assert {f for f, v in rows.items() if v is not None} == {"tripled"}
    # each decided as the text said (pile aside, above), each both ways
    seen: dict = {"lasting": set(), "cells": set(), "conds": set()}
    _check_reads(gen, [(body, out) for body, out in bodies if out is not kept["pile"]], "reads", seen)
    assert all(v == {True, False} for v in seen.values()), seen


# ------------------------------------------------------- every state written, noted
_BARE = re.compile(r"(?<![\w.])s(?![\w])")   # (the state, as the printers write it)
_MARK = re.compile(r"\bs[OCZ](\d+)_")        # (the state as _marked's notes write it)
_TEXT = re.compile(r'"(?:[^"\\]|\\.)*"')


def _marked(monkeypatch) -> dict:
    """kernel_reads.py's notes made to write the state marked with the number of the
    ``Reads`` they noted it in (``sO3_``, ``sC3_``, ``sZ3_.z``: state, counters, a zone's
    read; 0: none asked), in every module that imported them; the numbers, by the
    Reads' id."""
    numbers: dict = {}

    def number(sc) -> int:
        r = kernel_reads.reads_of(sc)
        return 0 if r is None else numbers.setdefault(id(r), len(numbers) + 1)

    real = {n: getattr(kernel_reads, n) for n in ("state", "counters", "zone_read")}

    def state(sc):
        real["state"](sc)
        return f"sO{number(sc)}_"

    def counters(sc):
        real["counters"](sc)
        return f"sC{number(sc)}_"

    def zone_read(sc, op, zone, more=""):
        return real["zone_read"](sc, op, zone, more).replace("s.z.", f"sZ{number(sc)}_.z.", 1)

    made = {"state": state, "counters": counters, "zone_read": zone_read}
    for module in [m for name, m in sys.modules.items() if name.startswith("meeple.interpreter")]:
        for name, f in real.items():
            if getattr(module, name, None) is f:
                monkeypatch.setattr(module, name, made[name])
    return numbers


class _Marked(kernel.Gen):
    """A printer that prints each expression not printed inside another with a ``Reads``
    of its own, the state written marked (``_marked``): a mention of the state unmarked,
    or marked for another ``Reads``, is one no note saw (``missed``)."""

    def __init__(self, prog, numbers: dict):
        super().__init__(prog)
        self.numbers, self.missed, self.checked = numbers, [], 0

    def expr(self, e, sc, want=None):
        if kernel_reads.READS in sc:
            return super().expr(e, sc, want)
        reads = kernel_reads.Reads()
        code = super().expr(e, kernel_reads.reading(sc, reads), want)
        text = _TEXT.sub('""', str(code))
        for g, _args in reads.calls:   # (a rule function's call: noted by its name)
            text = re.sub(rf"\b{ident('F', g)}\(s\b", "(", text)
        mine = self.numbers.get(id(reads))
        if _BARE.search(text) or any(int(m.group(1)) != mine for m in _MARK.finditer(text)):
            self.missed.append(text)
        self.checked += 1
        return code


@pytest.mark.parametrize("name", BUNDLED)
def test_every_state_an_expression_writes_is_noted(name, monkeypatch):
    # (a write of the state no note saw would make a keep think an expression reads
    # nothing of it: silently wrong)
    numbers = _marked(monkeypatch)
    base = interpreter.load(name)
    gen = _Marked(base.for_players(base.min_players), numbers)
    gen.source()
    assert gen.checked > 0 and numbers
    assert gen.missed == [], gen.missed[:3]


def test_a_state_written_unnoted_is_seen(monkeypatch):
    # (the check above, on a printer that writes a variable's state without its note)
    numbers = _marked(monkeypatch)
    real = kernel.Gen._Var

    def unnoted(self, e, sc):
        code = real(self, e, sc)
        return re.sub(r"^sO\d+_\.", "s.", code)
    monkeypatch.setattr(kernel.Gen, "_Var", unnoted)
    from lockstep import program_of
    gen = _Marked(program_of(READS_RULES, "reads.meeple", False), numbers)
    gen.source()
    assert any("s.uG_ko" in t for t in gen.missed)
