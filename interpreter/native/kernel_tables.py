"""The static tables of a kernel (interpreter/native/kernel.py): a program's constant data as
C++ arrays made once per module (the values of an attribute per item or cell, the
cells of a board, relations, cells by coordinates, enums' names for Python), each
named by the order it was first asked for."""
from __future__ import annotations

from ...dsl.types import T
from .cxx_text import Static, c_chars, ident, literal
from .kernel_types import Unsupported

# across(edges, c[, closed]): the cells beside c whose edges hold no item (and are not in
# closed): helpers._across
_ACROSS = (
    "static inline List<Id> across(St& s, const List<Id>* cells, const List<Id>* edges, Id c, "
    "const List<Id>& closed = List<Id>()) { if (c < 0) return List<Id>(); const List<Id>& n = cells[c]; "
    "const List<Id>& e = edges[c]; Vec<Id> o; for (size_t i = 0; i < n.size(); ++i) "
    "if (s.z.size(e[i]) == 0 && !contains(closed, e[i])) o.push_back(n[i]); return List<Id>(std::move(o)); }")


class Tables:
    """The static tables of one program: ``statics`` their declarations, ``inits`` the
    code that fills them when the module loads."""

    def __init__(self, prog):
        self.p = prog
        self.c = prog.checked
        self.ns = prog.ns
        self.nz = len(prog.zones)
        self.statics: list[str] = []      # static tables (declarations)
        self.inits: list[str] = []        # code run once when the module loads
        self.made: dict[tuple, str] = {}  # what a static table is named, by its key
        self.cell_types: dict[str, list[str]] = {}  # a search of cells by coordinates: their C++ types
        self.sizes: dict[str, int] = {}   # the static lists' sizes, by name (``size_of``)

    def table(self, key: tuple, decl, init=None) -> str:
        """A static table made once: ``decl(name)`` declares it, ``init(name)`` fills it
        (the name written in place: no text is replaced in code that holds a ruleset's
        texts). ``key``: what it is (a tuple of the parts that tell it apart)."""
        name = self.made.get(key)
        if name is None:
            name = self.made[key] = f"T{len(self.made)}"
            self.statics.append(decl(name))
            if init is not None:
                self.inits.append(init(name))
        return name

    def id_list(self, key: tuple, values: list) -> Static:
        """A static List<Id> (a board's cells, a kind's items, an enum's values...): its
        name, a ``Static``."""
        for v in values:
            if v is not None and not isinstance(v, int):
                raise Unsupported(f"a table {key} of {type(v).__name__}")
        ids = [-1 if v is None else v for v in values]
        name = self.table(key, lambda t: f"static List<Id> {t}; {self._ids(t + '_d', ids)}",
                          lambda t: f"{t} = List<Id>(Vec<Id>({t}_d, {t}_d + {len(ids)}));")
        self.sizes[name] = len(ids)
        return Static(name)

    def size_of(self, xs: str, src: str) -> str:
        """The C++ of the size of the list ``xs`` bound to the C++ ``src``: a number
        where ``src`` names a static list (its size known as the kernel is written, so
        the compiler folds the work counted over it: a list's size read from memory each
        time cost a small board's win test 3-4% of a game's time, docs/performance.md),
        else ``xs.size()``."""
        n = self.sizes.get(src) if isinstance(src, Static) else None
        return f"{xs}.size()" if n is None else f"(size_t){n}"

    @staticmethod
    def _ids(name: str, ids: list[int]) -> str:
        """A constant array of ids (data, not code: a list of lists written as code was
        most of a kernel's build time at -O0)."""
        return f"static const Id {name}[{max(len(ids), 1)}] = {{{', '.join(map(str, ids)) or '-1'}}};"

    def _rows(self, name: str, rows: list) -> tuple[str, str]:
        """An array of lists of ids, one per row (a row with none left the empty list):
        its declaration with its data (the ids of every row in a row, and where each
        row starts), and the loop that fills it when the module loads."""
        flat, starts = [], [0]
        for row in rows:
            flat.extend(row)
            starts.append(len(flat))
        decl = (f"static List<Id> {name}[{max(len(rows), 1)}]; {self._ids(name + '_d', flat)} "
                f"static const int {name}_o[{len(starts)}] = {{{', '.join(map(str, starts))}}};")
        fill = (f"for (int r_ = 0; r_ < {len(rows)}; ++r_) if ({name}_o[r_ + 1] > {name}_o[r_]) "
                f"{name}[r_] = List<Id>(Vec<Id>({name}_d + {name}_o[r_], {name}_d + {name}_o[r_ + 1]));")
        return decl, fill

    def value_table(self, key: tuple, values: list, t: T) -> str:
        """A static array of the values of a type, one per item or zone."""
        if t.tag == "str":
            return self._text_table(key, values)
        ctype, body, empty = self._constants(key, values, t)
        return self.table(key, lambda name: f"static const {ctype} {name}[{max(len(values), 1)}] = {{{body or empty}}};")

    def _constants(self, key: tuple, values: list, t: T) -> tuple[str, str, str]:
        """A constant array's C++ type, its values and the one value of an empty one."""
        if t.tag == "int":
            for v in values:
                if v is not None and (type(v) is not int or not -(1 << 62) < v < (1 << 62)):
                    raise Unsupported(f"a value {v!r} in {key}")
            return "I", ", ".join("NONE_I" if v is None else f"{v}LL" for v in values), "0"
        if t.tag == "bool":
            return "bool", ", ".join("true" if v else "false" for v in values), "false"
        if t.tag == "enum":
            order = {v: i for i, v in enumerate(self.c.enums[t.arg])}
            return "Id", ", ".join("-1" if v is None else str(order[v]) for v in values), "-1"
        if t.tag in ("player", "item", "cell", "zone"):
            return "Id", ", ".join("-1" if v is None else str(v) for v in values), "-1"
        raise Unsupported(f"a table {key} of {t}")

    def _text_table(self, key: tuple, values: list) -> str:
        """An array of texts (filled when the module loads)."""
        texts = [v if isinstance(v, str) else "" for v in values]
        return self.table(key, lambda t: f"static Str {t}[{max(len(values), 1)}]; {self._chars(t, texts)}",
                          lambda t: f"for (int i_ = 0; i_ < {len(texts)}; ++i_) {t}[i_] = Str({t}_c[i_], {t}_n[i_]);")

    @staticmethod
    def _chars(name: str, texts: list[str]) -> str:
        """Constant arrays of texts' bytes (``name_c``) and their sizes (``name_n``)."""
        parts = [c_chars(v) for v in texts] or [('""', 0)]
        return (f"static const char* const {name}_c[{len(parts)}] = {{{', '.join(c for c, _ in parts)}}}; "
                f"static const size_t {name}_n[{len(parts)}] = {{{', '.join(str(n) for _, n in parts)}}};")

    def relation(self, name: str) -> tuple[str, str]:
        """A relation of two cells: the related cells of each (``REL``, in order) and a
        test of one pair (``RELSET``)."""
        r = self.c.relations[name]
        if len(r.params) != 2:
            raise Unsupported(f"relation '{name}' of {len(r.params)} cells")
        rows = self.ns[f"REL_{name}"]
        per_cell = [rows[z] if z < len(rows) else () for z in range(self.nz)]
        lists = self.table(("REL", name), lambda t: self._rows(t, per_cell)[0], lambda t: self._rows(t, per_cell)[1])
        words = (self.nz + 63) // 64
        bits = []
        for z in range(self.nz):
            w = [0] * words
            for y in rows[z]:
                w[y // 64] |= 1 << (y % 64)
            bits.append(w)
        body = ", ".join(f"{x}ULL" for w in bits for x in w)
        sets = self.table(("RELSET", name), lambda t: f"static const uint64_t {t}[{self.nz * words}] = {{{body}}};")
        test = self.table(("RELTEST", name),
                          lambda t: f"static inline bool {t}(Id a, Id b) {{ nn(a); return b >= 0 && "
                          f"(({sets}[a * {words} + b / 64] >> (b % 64)) & 1); }}")
        return lists, test

    def edges(self, board: str) -> tuple[str, str]:
        """An edges board's tables (compile.py: ``ACROSS_b``): for each zone, the cells
        beside it, in cell order, and the edges between, in the same order. (With them,
        once, the C++ of ``across``: a kernel without an edges board has none.)"""
        self.table(("ACROSS_FN",), lambda t: _ACROSS)
        rows = self.ns[f"ACROSS_{board}"]
        out = []
        for part in (0, 1):
            per = [[pair[part] for pair in rows[z]] if z < len(rows) else () for z in range(self.nz)]
            out.append(self.table(("ACROSS", board, part), lambda t, per=per: self._rows(t, per)[0],
                                  lambda t, per=per: self._rows(t, per)[1]))
        return out[0], out[1]

    def cell_at(self, board: str, keys: tuple[str, ...]) -> str:
        """A function of the coordinates' values that gives the board's cell, or none
        (``cell(board, k: v, ...)``; the first cell wins where several have them)."""
        key = ("CELLAT", board, keys)
        if key in self.made:
            return self.made[key]
        cells = self.p.boards.get(board, [])
        rows = []
        for z in cells:
            vals = [self.ns[f"C_{k}"][z] if k != "name" else self.ns["CELL_NAME"][z] for k in keys]
            rows.append((vals, z))
        if any(type(v) is not int for vals, _ in rows for v in vals):
            return self._cell_search(key, keys, rows)
        los = [min((r[0][i] for r in rows), default=0) for i in range(len(keys))]
        his = [max((r[0][i] for r in rows), default=-1) for i in range(len(keys))]
        size = 1
        for lo, hi in zip(los, his):
            size *= max(hi - lo + 1, 1)
        if size > 1 << 20:
            raise Unsupported(f"cell({board}, ...) over a sparse range of coordinates")
        dense = [-1] * size
        for vals, z in reversed(rows):
            k = 0
            for v, lo, hi in zip(vals, los, his):
                k = k * (hi - lo + 1) + (v - lo)
            dense[k] = z
        arr = self.table(("CELLAT_T", board, keys),
                         lambda t: f"static const Id {t}[{max(size, 1)}] = {{{', '.join(map(str, dense)) or -1}}};")
        params = ", ".join(f"I k{i}" for i in range(len(keys)))
        test = " || ".join(f"k{i} < {lo}LL || k{i} > {hi}LL" for i, (lo, hi) in enumerate(zip(los, his)))
        index = "0"
        for i, (lo, hi) in enumerate(zip(los, his)):
            index = f"({index}) * {hi - lo + 1} + (k{i} - {lo})"
        fn = f"CA{len(self.made)}"
        self.made[key] = fn
        self.statics.append(f"static inline Id {fn}({params}) {{ if ({test or 'false'}) return NONE_ID; "
                            f"return {arr}[{index}]; }}")
        return fn

    def _cell_search(self, key: tuple, keys: tuple[str, ...], rows: list) -> str:
        """``cell(board, k: v, ...)`` by coordinates some of which are texts: the cells
        looked at in order, the first whose coordinates are the values given."""
        types = []
        for i, k in enumerate(keys):
            kinds = {type(vals[i]) for vals, _ in rows}
            if kinds <= {int}:
                types.append("I")
            elif kinds <= {str}:
                types.append("Str")
            else:
                raise Unsupported(f"cell(...) by a coordinate '{k}' of several types")
        params = ", ".join(f"{'const Str&' if t == 'Str' else 'I'} k{i}" for i, t in enumerate(types))

        def lit(v, t):
            return literal(v) if t == "Str" else f"{v}LL"
        tests = " ".join(
            f"if ({' && '.join(f'k{i} == {lit(v, t)}' for i, (v, t) in enumerate(zip(vals, types)))}) return {z};"
            for vals, z in rows)
        fn = f"CA{len(self.made)}"
        self.made[key] = fn
        self.cell_types[fn] = types
        self.statics.append(f"static Id {fn}({params}) {{ {tests} return NONE_ID; }}")
        return fn

    def relation_n(self, name: str, nargs: int) -> str:
        """A relation of more than two cells (compile.Program._relation_n): all its
        cells given, whether they are related; fewer, the list of the rest related to
        them, in cell order (the last cells alone when one is left, else lists)."""
        r = self.c.relations[name]
        n = len(r.params)
        rel, related = self.ns[f"REL_{name}"], self.ns[f"RELSET_{name}"]
        bits = max(self.nz, 2).bit_length()
        if bits * n > 62:
            raise Unsupported(f"relation '{name}' of {n} cells on so large a board")

        def code(t) -> int:
            out = 0
            for z in t:
                out = (out << bits) | z
            return out
        fn = ident(f"R{nargs}", name)
        if ("RELN", name, nargs) in self.made:
            return fn
        self.made["RELN", name, nargs] = fn
        args = ", ".join(f"Id a{i}" for i in range(nargs))
        key = " | ".join(f"((uint64_t)a{i} << {bits * (nargs - 1 - i)})" for i in range(nargs))
        anynone = " || ".join(f"a{i} < 0" for i in range(nargs))
        if nargs == n:
            codes = sorted(code(t) for t in related)
            arr = self.table(("RELSET", name), lambda t: f"static const uint64_t {t}[{max(len(codes), 1)}] = "
                                                         f"{{{', '.join(f'{c}ULL' for c in codes) or '0'}}};")
            self.statics.append(f"static bool {fn}({args}) {{ if ({anynone}) return false; "
                                f"return std::binary_search({arr}, {arr} + {len(codes)}, (uint64_t)({key})); }}")
            return fn
        entries = sorted((code(k), v) for k, v in rel.items() if len(k) == nargs)
        rest = n - nargs
        ct = "List<Id>" if rest == 1 else "List<List<Id>>"
        keys_arr = self.table(("RELKEYS", name, nargs), lambda t: f"static const uint64_t {t}[{max(len(entries), 1)}] = "
                                                                 f"{{{', '.join(f'{c}ULL' for c, _ in entries) or '0'}}};")
        if rest == 1:
            table = self.table(("RELVALS", name, nargs), lambda t: self._rows(t, [v for _, v in entries])[0],
                               lambda t: self._rows(t, [v for _, v in entries])[1])
            vals = None
        else:
            vals = ["List<List<Id>>(std::vector<List<Id>>{" + ", ".join(
                f"List<Id>(std::vector<Id>{{{', '.join(map(str, x))}}})" for x in v) + "})" for _, v in entries]
        if vals is not None:
            table = self.table(("RELVALS", name, nargs), lambda t: f"static {ct} {t}[{max(len(entries), 1)}];",
                               lambda t: "".join(f"{t}[{i}] = {v};" for i, v in enumerate(vals)))
        self.statics.append(
            f"static {ct} {fn}({args}) {{ if ({anynone}) return {ct}(); uint64_t k_ = {key}; "
            f"const uint64_t* at_ = std::lower_bound({keys_arr}, {keys_arr} + {len(entries)}, k_); "
            f"if (at_ == {keys_arr} + {len(entries)} || *at_ != k_) return {ct}(); return {table}[at_ - {keys_arr}]; }}")
        return fn

    def enum_names(self, enum: str) -> str:
        values = self.c.enums[enum]
        return self.table(("ENUMNAMES", enum),
                          lambda t: f"static PyObject* {t}[{max(len(values), 1)}]; {self._chars(t, list(values))}",
                          lambda t: f"for (int i_ = 0; i_ < {len(values)}; ++i_) "
                                    f"{t}[i_] = PyUnicode_InternFromString(Str({t}_c[i_], {t}_n[i_]).c_str());")
