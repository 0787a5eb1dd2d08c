"""A counted decision's texts told apart by their keys, not made (a part of ``kernel.Gen``
and of ``kernel.Proc``).

A perft counts the options of its last decision (cxx/kernel_glue.hpp, ``counted_after``:
the rules run with ``COUNTING`` set up to the decision, whose distinct options are
counted, and the state is dropped). Where those options are texts that a ``let`` made
just before (``let names = [notation(m, r) for m in moves ...]``, then ``choose mv from
names``), the count needs only how many of them differ: for texts of at most 7 bytes,
their keys (their bytes as one number) and lengths, as ``count_ordered`` reads them. So
with ``COUNTING`` set the let makes no text: it walks the same loops, and each element is
printed as its key (``TK``, cxx/kernel_texts.hpp) by ``text_key``: a text written in the
rules is a key known before any game; ``a + b ...`` joins the parts' keys (``tk_join``,
which counts the work ``scatn`` counts for that join and stops where it stops, at a
part that is none); ``if c then x else y`` takes one side's key; a plain call of a rule
function whose value is a text calls that function's body printed the same way
(``uT_name``); anything else is the text made, then its key (``tk``). The same lists are
walked, the same functions called, the same work and calls counted, in the same order.

The decision then counts the keys (``count_keys``): where one of the texts is longer
than 7 bytes or none, or there is no text, or more than 128, the work and calls are put
back as they were before the let and the let is made as ever (the same values again:
the rules' functions read the state, which nothing changed), and the decision counts
the list as before. Only where the let is one of those that run straight into the
decision (none of them a jump's target), its value a comprehension of texts, the
decision's options that local itself (no verb offered alone, no condition), and no let
between them reads it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import ops
from .kernel_reads import called, counters
from .kernel_types import BOOL, STR
from .kernel_unread import names

if TYPE_CHECKING:
    from ...dsl.types import T

# how many bytes of a text its key holds (the first 8, the last of them 0 where it is
# told apart: at most 7)
KEY_BYTES = 7


def literal_key(text: str) -> str:
    """The C++ key of a text written in the rules (a ``TKs``, never none): its first 8
    bytes as a number (the first the highest), its bytes, its characters."""
    b = text.encode("utf-8")
    k = int.from_bytes(b[:8].ljust(8, b"\0"), "big")
    return f"TKs{{{{{k:#x}ULL, {len(b)}, {len(text)}}}}}"


class TextKeys:
    """``Gen``'s printer of a text's key (see the module)."""

    if TYPE_CHECKING:
        c: Any
        ns: Any
        tables: Any
        facts: Any
        recursive: Any
        fns: list
        fns_made: set
        protos: list

        def expr(self, e, sc: dict, want: T | None = None) -> str: ...
        def ty(self, e) -> T: ...
        def typeref(self, tr) -> T: ...
        def param_type(self, p) -> T: ...
        def called_plainly(self, e) -> bool: ...
        def arg_type(self, t: T) -> str: ...
        def function(self, name: str, any_order: bool = False) -> str: ...
        def _never_none(self, e) -> bool: ...

    def text_key(self, e, sc: dict) -> str:
        """The C++ of the key (``TK``) of the text ``e``: its key where it is the text
        ``e`` would make, with the same work counted on the way (see the module)."""
        match e.node:
            case "StrLit":
                return literal_key(e.value)
            case "CondExpr":
                return (f"({self.expr(e.cond, sc, BOOL)} ? {self.text_key(e.then, sc)} "
                        f": {self.text_key(e.other, sc)})")
            case "BinOp" if e.op == "+" and self.ty(e).tag == "str":
                parts = [e.right]
                while e.left.node == "BinOp" and e.left.op == "+" and self.ty(e.left).tag == "str":
                    e = e.left
                    parts.append(e.right)
                parts.append(e.left)
                parts.reverse()
                fixed = self._fixed_join(parts, sc)
                if fixed is not None:
                    return fixed
                joined = ", ".join(self.text_key(x, sc) for x in parts)
                return f"tk_join({counters(sc)}, {joined})"
            case "Attr" if e.name == "name" and self.ty(e.obj).tag == "cell":
                # (a cell's name: a table of the names' keys, as the table of the names,
                # kernel_names.py, holds "" where no cell is)
                keys = [literal_key(v if isinstance(v, str) else "") for v in self.ns["CELL_NAME"]]
                table = self.tables.table(("CELL_NAME_KEY",), lambda t: (
                    f"static const TKs {t}[{len(keys)}] = {{{', '.join(keys)}}};"))
                return f"{table}[nn({self.expr(e.obj, sc)})]"
            case "Call" if self._keyed_call(e):
                fd = self.c.functions[e.func]
                given = tuple(self.expr(a, sc, self.param_type(p)) for p, a in zip(fd.params, e.args))
                self.function(e.func)   # (its own, made too: what it reads is noted there)
                called(sc, e.func, given)
                return f"{self.key_function(e.func)}(s{''.join(', ' + a for a in given)})"
        code = self.expr(e, sc, STR)
        return f"tk(sure({code}))" if self._never_none(e) else f"tk({code})"

    def fixed_size(self, e) -> tuple[int, int] | None:
        """(bytes, characters) of every text ``e`` can be, where they are known before
        any game (never none then): a text of the rules, a cell's name where all the
        cells' names have them, a condition between two such texts of one size, a join of
        such texts, a plain call of a rule function whose body is one; else None."""
        match e.node:
            case "StrLit":
                return len(e.value.encode("utf-8")), len(e.value)
            case "CondExpr":
                a = self.fixed_size(e.then)
                return a if a is not None and a == self.fixed_size(e.other) else None
            case "BinOp" if e.op == "+" and self.ty(e).tag == "str":
                a, b = self.fixed_size(e.left), self.fixed_size(e.right)
                return (a[0] + b[0], a[1] + b[1]) if a is not None and b is not None else None
            case "Attr" if e.name == "name" and self.ty(e.obj).tag == "cell":
                sizes = {(len(v.encode("utf-8")), len(v)) for v in self.ns["CELL_NAME"] if isinstance(v, str)}
                return sizes.pop() if len(sizes) == 1 else None
            case "Call" if self._keyed_call(e):
                return self.fixed_size(self.c.functions[e.func].body)
        return None

    def _sure_text(self, e) -> bool:
        """Whether the text ``e`` is never none: of a size known (``fixed_size``), or as
        kernel_text_parts.py tells, or a condition between two such texts."""
        if e.node == "CondExpr":
            return self._sure_text(e.then) and self._sure_text(e.other)
        return self.fixed_size(e) is not None or self._never_none(e)

    def _fixed_join(self, parts: list, sc: dict) -> str | None:
        """The key of the join of ``parts`` (two or more) where all but the last have a
        size known before any game (``fixed_size``) and the last is never none: each
        part's key shifted by the bytes before it (known: no loop, no test) and the work
        ``tk_join`` counts, as a sum of the parts' characters by weights known (the k-th
        of n parts' characters are counted by each + from the k-th on: n - k + 1 times,
        the first's n - 1 times, as the second's); else None (``tk_join``)."""
        sizes = [z for z in (self.fixed_size(x) for x in parts[:-1]) if z is not None]
        if len(sizes) < len(parts) - 1 or not self._sure_text(parts[-1]):
            return None
        n, at, chars, work, lit, keys, made = len(parts), 0, 0, 0, 0, [], []
        for k, (x, (b, c)) in enumerate(zip(parts[:-1], sizes)):
            if x.node == "StrLit":
                if at < 8:
                    lit |= int.from_bytes(x.value.encode("utf-8")[:8].ljust(8, b"\0"), "big") >> (8 * at)
            elif at < 8:
                # (each part evaluated in its turn, as the reference joins them: one of no
                # bytes too, for the work, calls and errors of what decides it is empty;
                # past the key's bytes the decision makes the texts again: count_keys)
                made.append(f"const TK p{k}_ = {self.text_key(x, sc)}; ")
                if b:
                    keys.append(f"(p{k}_.k >> {8 * at})")
            work += c * (n - max(k, 1))
            at, chars = at + b, chars + c
        keys.append(f"{lit:#x}ULL")
        key = " | ".join(keys)
        s = counters(sc)
        tail = self.text_key(parts[-1], sc)
        shift = f"(l_.k >> {8 * at})" if at < 8 else "0"
        return (f"([&]() MK_AI -> TKs {{ {''.join(made)}const uint64_t k_ = {key}; const TK l_ = {tail}; "
                f"W({s}, {work} + l_.c); const size_t b_ = {at} + l_.b; "
                f"return TKs{{{{b_ <= 7 ? k_ | {shift} : 0, b_, {chars} + l_.c}}}}; }}())")

    def _keyed_call(self, e) -> bool:
        """Whether ``e`` calls a rule function whose value is a text, plainly (no keep,
        no count of its calls, not recursive: kernel_memo.py)."""
        if self.facts.call_kind(e) != "function" or e.func in self.recursive:
            return False
        fd = self.c.functions[e.func]
        return self.typeref(fd.result).tag == "str" and self.called_plainly(e)

    def key_function(self, name: str) -> str:
        """``uT_name``: the rule function ``name`` (its value a text) giving its value's
        key (written once, when first called); its name."""
        made = f"uT_{name}"
        if made in self.fns_made:
            return made
        self.fns_made.add(made)
        fd = self.c.functions[name]
        params = [(p.name, self.param_type(p)) for p in fd.params]
        # (in line where called, as perft's count and a let's texts both call it: GCC
        # left it out of line once called twice; never one that may call itself,
        # _keyed_call)
        sig = "static inline MK_AI TK " + made + "(St& s" + "".join(
            f", {self.arg_type(t)} uA_{n}" for n, t in params) + ")"
        self.protos.append(sig + ";")
        sc = {n: (f"uA_{n}", t) for n, t in params}
        self.fns.append(f"{sig} {{ return {self.text_key(fd.body, sc)}; }}")
        return made


def counted_texts(gen, core: list) -> dict[int, int]:
    """For each let whose texts a counted decision tells apart by their keys, its index:
    the decision's index (see the module's docstring)."""
    targets = {t for i in core for t in i.jumps if isinstance(t, int)}
    out: dict[int, int] = {}
    for a, ask in enumerate(core):
        if not (isinstance(ask, ops.Ask) and ask.alone is None and not ask.when
                and ask.options.node == "Var"):
            continue
        j = a
        while j > 0 and isinstance(core[j - 1], ops.SetLocal) and j not in targets:
            j -= 1
            let = core[j]
            if let.var == ask.options.name:
                v = let.value
                if v.node == "Comprehension" and gen.ty(v) == gen.ty(ask.options) \
                        and gen.ty(v).arg.tag == "str" and ask.var != let.var \
                        and ask.options.name not in names(ask.chooser):
                    out[j] = a
                break
            if ask.options.name in names(let.value):
                break
    return out


class KeyedLets:
    """What kernel.Proc prints for the lets of ``counted_texts`` and their decisions."""

    def __init__(self, proc):
        self.proc = proc
        self.lets = counted_texts(proc.gen, proc.core)
        self.asks = set(self.lets.values())

    def let(self, pc: int, assign: str, target: str | None = None) -> str:
        """The C++ of the let at ``pc`` (its assignment ``assign``, to ``target``): with
        ``COUNTING``, its texts' keys counted (``KEYED``), the let made only where they do
        not serve; else its texts made from their keys (``made``) where it has a target."""
        if pc not in self.lets:
            return assign
        g = self.proc.gen
        g.text_keys = True
        e = self.proc.core[pc].value
        keys = "TKEYS"
        body = g.loops(e, self.proc.sc, lambda inner: f"{keys}.push_back(tk_told({g.text_key(e.elem, inner)}));",
                       reserve=keys, whole=True)
        made = self.made(e, target) if target is not None else assign
        return (f"if (COUNTING) {{ I kw_ = s.work, kc_ = s.calls; {keys}.clear(); {body} "
                f"KEYED = count_keys({keys}); if (KEYED < 0) {{ s.work = kw_; s.calls = kc_; {assign} }} }} "
                f"else {{ {made} }}")

    def made(self, e, target: str) -> str:
        """The C++ of ``target = e`` (a comprehension of texts) with each text made from
        its key (``tk_text``: a few shifts, where joining the parts' bytes, ``scatn``,
        walks each part) where it has at most 7 bytes, as a move's name; the first that
        has more (or is none) is made again as the rules make it, the work and calls its
        key counted put back, and the rest then too (no key tried again: a game whose
        names are long pays one key a let)."""
        g = self.proc.gen
        out, slow = g.fresh("out"), g.fresh("slow")

        def put(inner: dict) -> str:
            key = g.text_key(e.elem, inner)
            text = g.expr(e.elem, inner, STR)
            return (f"{{ bool made_ = false; if (!{slow}) {{ const I kw_ = s.work, kc_ = s.calls; "
                    f"const TK t_ = {key}; if (t_.b <= 7) {{ {out}.push_back(tk_text(t_)); made_ = true; }} "
                    f"else {{ s.work = kw_; s.calls = kc_; {slow} = true; }} }} "
                    f"if (!made_) {out}.push_back({text}); }}")

        body = g.loops(e, self.proc.sc, put, reserve=out, whole=True)
        return (f"{target} = ([&]() -> List<Str> {{ Vec<Str> {out}; bool {slow} = false; {body} "
                f"return List<Str>(std::move({out})); }}());")

    def counted(self, pc: int, body: str) -> str:
        """The C++ of the decision at ``pc`` (its options put, or counted, by ``body``):
        with ``COUNTING``, the count of its let's keys where they served."""
        if pc not in self.asks:
            return body
        return f"if (COUNTING && KEYED >= 0) COUNTED = KEYED; else {{ {body} }}"
