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
  made through ``RZ``, and how many (none: its value lasts as it is).

No kernel is compiled: the facts are read beside the source ``Gen`` writes."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from meeple.interpreter.native import kernel, kernel_lasting
from meeple.interpreter.native.cxx_text import Static
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
    """Each ``Static`` is a static list of ids declared as such (or one of an array of
    them, indexed), and each list of a table printed alone is one; the count of each."""
    declared = {m.group(1): m.group(2) for m in re.finditer(r"static List<Id> (T\d+)(\[\d+\])?;", "\n".join(gen.tables.statics))}
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

    def recorded(body):   # (each body a lasting keep was asked for, as recorded wrote it)
        out = real(body)
        bodies.append(out)
        return out
    real = kernel_lasting.recorded
    monkeypatch.setattr(kernel_lasting, "recorded", recorded)
    for where, prog in _programs(name):
        gen = _Seen(prog)
        source = gen.source()
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
    for body in bodies:
        if body is not None:
            assert isinstance(body, kernel_lasting.Recorded)
            assert body.zones == len(_RZ_READ.findall(body)) and (body.zones > 0) == ("RZ." in body), body
    assert fields > 0
    if name == "go":
        assert any(b is not None and b.zones for b in bodies)   # (its groups: read through RZ)
    if name in ("chess", "brotherhood-of-nine", "clans-and-glory", "go"):
        assert statics > 0   # (each reads a board's cells or a relation's row so)
