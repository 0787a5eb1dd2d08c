"""The optional native path: a program's generated rule code compiled with Cython and
the C compiler into one extension module, then run instead of the same code in Python.

Pure Python stays the default and the fallback. ``Ruleset.use_native()`` (or
``interpreter.load(..., native=True)``) asks for it; a program is then compiled twice:
first in Python as always (that program records every piece of code it compiles:
its functions, its expressions, their fast forms), then again with each piece served by
the extension module, built from those texts (or found in the disk cache by their
hash). Left in Python: the straightforward functions where fast ones are made (they
run only after a fast code failed) and expressions without a call or a loop (no faster
natively); see docs/performance.md. Where Cython, the compiler or the build is missing
or fails, the Python program is used, and the reason is reported once.

Exactly the same games: every expression the interpreter calls is, natively, a
wrapper that runs the compiled code and, where it fails (a rule error, a budget), sets
the work and call counters back and runs the program's Python code of that expression
instead, which fails the same way and at the same place as without the native path
(the fast code's fallback, ``SLOW_k``, is the Python one too). The compiled code reads
the program's tables (``A_<attribute>``, ``REL_<relation>``...) through a per-program
closure made by the module's ``make(ns, twins)``, bound from the program's namespace
each time the program compiles a piece of code (so that code run while the program is made, a board
size or a deck, sees what the Python code would see) and once it is made.

The texts are compiled as they are but for three rewrites that keep what they do
(``work_in_c``): the work budget is counted in a C integer inside each function,
written back to ``R.work`` before any call given ``R``, a return, or where paths
join; the runtime's attributes that never change (``R.zones``...) are read once per call;
a subscript by a computed index, a zone's top, are C helpers with a path for a list
and an int. Anything else (a budget too large for C, another type) takes the
general path or fails, and then the Python code runs.

The module is kept in the disk cache's folder (``native/`` in it) under the sha256 of
its source, Cython's version, the Python ABI, the platform and the compiler flags;
an entry is written atomically, read only from a folder owned by the user and
writable by nobody else (a regular file, never waited for: see
``diskcache.read_own``), and checked against the digest written beside it: one that
does not match, or that does not load, is built again. What is loaded is exactly the
bytes checked: a copy nobody can change (``_load``), never the kept file again. A
module is built in a temporary folder of its own, removed when the build ends,
whether it succeeded or not.
"""
from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import importlib.machinery
import importlib.util
import io
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import tokenize
from pathlib import Path

from ...dsl import diskcache, files
from ..play import helpers

SUBFOLDER = "native"
KEEP = 64                      # modules kept; the least recently written go first
FORMAT = "2"                   # the layout of the generated module (part of its key)
BUILD_TIMEOUT = 600            # seconds for Cython and the C compiler together
_loaded: dict[str, object] = {}  # key -> the extension module, once loaded in this process
_reported: set[str] = set()      # reasons already reported in this process
_held: list[int] = []            # the sealed memory files modules were loaded from (see _load)
MAX_HELD = 256                   # past that many, modules are loaded from private files
MAX_MODULE_BYTES = 1 << 30       # a module built larger than that is refused


class NativeError(Exception):
    """The native code cannot be built or loaded here (``str(e)`` says why)."""


# ------------------------------------------------------------ is it there?

def status() -> str | None:
    """None when native code can be built here; else why not, in one sentence."""
    if importlib.util.find_spec("Cython") is None:
        return "Cython is not installed (pip install 'meeple[native]')"
    try:
        import Cython  # noqa: F401
    except Exception as e:  # noqa: BLE001 - a broken install is "not there"
        return f"Cython cannot be imported ({type(e).__name__}: {e})"
    if importlib.util.find_spec("setuptools") is None:   # it drives the C compiler
        return "setuptools is not installed (pip install 'meeple[native]')"
    cc = _compiler_command()
    if cc is None:
        return "no C compiler was found (set CC, or install gcc or clang)"
    return None


def _compiler_command() -> list[str] | None:
    """The C compiler's command (``CC``, else the one Python was built with), or None
    when it is not on the PATH (on Windows, where setuptools finds MSVC: "cl")."""
    if sysconfig.get_platform().startswith("win"):
        return ["cl"]
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = cc.split()
    if not words or shutil.which(words[0]) is None:
        return None
    return words


def cython_version() -> str:
    import Cython
    return Cython.__version__


# ------------------------------------------------------------ the module's source

class Pieces:
    """What a program compiled in Python: the text of each piece of code, in order
    (mode ``exec``: function definitions; ``eval``: a lambda), and, for each lambda,
    the Python function made from it (the twin the native code falls back to)."""

    fallback_ns = None   # the straightforward code's namespace: the program's own

    def __init__(self):
        self.order: list[tuple[str, str]] = []   # (mode, source), each once
        self.twins: dict[str, object] = {}       # lambda source -> Python function
        self._seen: set[tuple[str, str]] = set()

    def run(self, prog, src: str, filename: str, mode: str, python):
        out = python()
        # whether a piece is worth it depends on where it is compiled, not on its text
        # alone (a function's fast code may read as its straightforward code, left in
        # Python): a text is recorded the first time it is worth it, not the first time
        # it is seen, as the second compile (``Served``) asks for it each time it is
        if (mode, src) not in self._seen and _worth(prog, src, filename, mode):
            self._seen.add((mode, src))
            self.order.append((mode, src))
            if mode == "eval":
                self.twins[src] = out
        return out

    def finish(self, prog) -> None:
        pass


class Served:
    """Serves a program's pieces of code from the extension module (the second
    compile of a program): function definitions go into its namespace, lambdas are
    the module's wrappers; a piece the module does not have is compiled in Python."""

    def __init__(self, module, pieces: Pieces, python_program):
        self.module, self.pieces, self.python = module, pieces, python_program
        self.served = self.bind = self.stats = None
        self.missed = 0   # pieces the module should have served but did not have

    @property
    def fallback_ns(self) -> dict:
        """Where the straightforward code run after a fast code's failure lives: the
        Python program's namespace."""
        return self.python.ns

    def run(self, prog, src: str, filename: str, mode: str, python):
        if self.served is None:
            self.served, self.bind, self.stats = self.module.make(prog.ns, self.pieces.twins)
        if not _worth(prog, src, filename, mode):   # as Pieces decided: left in Python
            return python()
        got = self.served.get((mode, src))
        if got is None:
            self.missed += 1
            return python()
        if mode == "exec":
            prog.ns.update(got)
            self.bind()
            return None
        self.bind()
        return got

    def finish(self, prog) -> None:
        """Once the program is made: the values kept by the functions that read nothing of
        the state (``KEPT_name``) are shared with the Python program, so that a value is
        computed once whichever code asks first (as without the native path: a kept value
        also spares the work budget), then the names are bound."""
        for name, table in self.python.ns.items():
            if name.startswith(("KEPT_", "KEPTV_", "KEPTD_")) and name in prog.ns:
                prog.ns[name] = table
        if self.bind is not None:
            self.bind()
        if self.missed:
            raise NativeError(f"{self.missed} piece(s) of code differ between the two compiles "
                              "of the program (a bug in Meeple)")

    @property
    def fallbacks(self) -> int:
        return self.stats[0] if self.stats else 0


def _worth(prog, src: str, filename: str, mode: str) -> bool:
    """Whether a piece is compiled natively. Not the straightforward functions where
    the fast ones are made (they run only after a fast code failed, in Python then),
    nor an expression without a call or a loop (natively no faster): half the C code."""
    if mode == "exec":
        return not (filename == "<functions>" and prog.optimize and not prog._fast_ready)
    return _calls_or_loops(src)


@functools.lru_cache(maxsize=4096)
def _calls_or_loops(src: str) -> bool:
    """Whether a lambda's body has a call or a comprehension (asked of each expression
    by both compiles of a program)."""
    tree = ast.parse(src, mode="eval")
    return any(isinstance(n, (ast.Call, ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp))
               for n in ast.walk(tree.body.body))


def module_source(pieces: Pieces, names, rewrite: bool = True) -> str:
    """The Cython source of a program's code: ``make(ns, twins)`` returns, for this
    program, what serves each piece (by mode and text: the functions an ``exec`` piece
    defines, by name, or the function of an ``eval`` piece), ``bind()`` and the count of
    failures. ``names`` are the program's namespace's names (its tables, helpers,
    functions): the names the code reads from it. ``rewrite=False``: without the
    rewrites of ``work_in_c`` (what the module is kept under: they take a tenth of a
    second for a large ruleset, made only to build it)."""
    keep = work_in_c if rewrite else (lambda text: text)
    chunks, table, used = [], {}, set()
    for i, (mode, src) in enumerate(pieces.order):
        tree = ast.parse(src, mode=mode)
        if any(isinstance(n, (ast.Global, ast.Nonlocal)) for n in ast.walk(tree)):
            # the module's names are not the program's namespace: such code would differ
            raise NativeError("the rule code declares global names, which native code cannot serve")
        used |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        if mode == "exec":
            text, defined = _defs(src, tree, i)
            text = keep(text)
            table[(mode, src)] = ("exec", defined)
            used |= set(defined)
        else:
            text = keep(_entry(src, tree.body, i))
            table[(mode, src)] = ("eval", f"_e{i}")
        chunks.append(text)
    inlined = set(HELPERS_INLINED)
    outer = sorted((used & set(names)) - inlined)
    lines = [HEADER % {"MAX_RANGE": helpers.MAX_RANGE}]
    lines.append("def make(dict ns, dict twins):")
    lines.append("    _stats = [0]")
    for n in outer:
        lines.append(f"    {n} = None")
    for i, (mode, _src) in enumerate(pieces.order):
        if mode == "eval":
            lines.append(f"    _t{i} = None")
    lines.append("")
    for text in chunks:
        lines.append(_indent(text))
    lines.append("    def bind():")
    bound = outer + [f"_t{i}" for i, (mode, _) in enumerate(pieces.order) if mode == "eval"]
    if bound:
        for k in range(0, len(bound), 40):
            lines.append("        nonlocal " + ", ".join(bound[k:k + 40]))
    lines.append("        g = ns.get")
    for n in outer:
        lines.append(f"        {n} = g({n!r})")
    for i, (mode, src) in enumerate(pieces.order):
        if mode == "eval":
            lines.append(f"        _t{i} = twins.get({src!r})")
    lines.append("    served = {}")
    for (mode, src), (kind, what) in table.items():
        if kind == "exec":
            items = ", ".join(f"{name!r}: {inner}" for name, inner in what.items())
            lines.append(f"    served[({mode!r}, {src!r})] = {{{items}}}")
        else:
            lines.append(f"    served[({mode!r}, {src!r})] = {what}")
    lines.append("    return served, bind, _stats")
    return "\n".join(lines) + "\n"


def _defs(src: str, tree: ast.Module, i: int) -> tuple[str, dict]:
    """Function definitions under names of their own (``_d<i>_F_x``): the names the
    program sees are its namespace's (the fast and the straightforward code define
    the same names one after the other)."""
    defined = {}
    lines = src.split("\n")
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            raise NativeError(f"unexpected code at the top of a piece: {type(node).__name__}")
        inner = f"_d{i}_{node.name}"
        defined[node.name] = inner
        row = lines[node.lineno - 1]
        lines[node.lineno - 1] = row.replace(f"def {node.name}(", f"def {inner}(", 1)
    text = "\n".join(lines)
    if all(name.startswith("FAST_") for name in defined):
        # an expression's fast code runs its straightforward code after a failure: count it
        text = text.replace("\n    except Exception:\n", "\n    except Exception:\n        _stats[0] += 1\n")
    return text, defined


def _entry(src: str, lam, i: int) -> str:
    """A lambda as a function that falls back on its Python twin where it fails."""
    if not isinstance(lam, ast.Lambda) or lam.args.vararg or lam.args.kwarg or not lam.args.args:
        raise NativeError("unexpected expression piece")
    params = [a.arg for a in lam.args.args]
    body = ast.get_source_segment(src, lam.body)
    r, args = params[0], ", ".join(params)
    return (f"def _e{i}({args}):\n"
            f"    _nw = {r}.work\n    _nc = {r}.calls\n"
            f"    try:\n        return {body}\n"
            f"    except Exception:\n        {r}.work = _nw\n        {r}.calls = _nc\n"
            f"        _stats[0] += 1\n"
            f"    return _t{i}({args})\n")


def _indent(text: str) -> str:
    return "\n".join(("    " + row) if row.strip() else row for row in text.split("\n"))



# ------------------------------------------------------------ the work budget in a C local

class _Unsure(Exception):
    """A function the work rewrite leaves as it is (a construct it does not follow)."""


_DEAD_ENDS = ("_out_of_work", "_too_many_calls", "_too_deep")   # helpers that always raise
_W_HELPERS = {"_it": "_itw", "_cat": "_catw", "_range": "_rangew"}  # their forms on the C counter
_W_ADDR = "__w_addr__"    # written ``&_w`` once unparsed
_W_DECL = "__w_decl__"    # written ``cdef Py_ssize_t _w`` once unparsed


def work_in_c(text: str) -> str:
    """The functions of a piece with the work budget (``R.work``) counted in a C integer
    ``_w`` where it can be: a function loads it from ``R.work`` when it first counts,
    and writes it back before any call that is given ``R`` (the callee counts on
    ``R.work``), before it returns, and where the straightforward and the counted paths
    join. Where an exception leaves a function, ``R.work`` may be behind: every place
    that catches one (a fast code's fallback, an expression's wrapper) sets ``R.work``
    back to what it was before running the Python code again, so it is never read.
    A function with a construct this does not follow is left as it is; a budget too
    large for a C integer makes the load fail, and the Python code runs instead."""
    tree = ast.parse(text)
    out = []
    for node in tree.body:
        try:
            new = _WorkRewrite().function(node)
        except _Unsure:
            new = None
        new = _read_once(new or node) or new
        new = _subscripts(new or node) or new
        out.append(ast.unparse(ast.fix_missing_locations(new)) if new is not None else
                   ast.get_source_segment(text, node, padded=True))
    return _in_place("\n\n".join(out) + "\n", {_W_ADDR: "&_w", _W_DECL: "cdef Py_ssize_t _w"})


def _in_place(code: str, names: dict[str, str]) -> str:
    """``code`` with these names written as given where they stand as names: never
    inside a string (a ruleset's text may spell one), nor inside a longer name."""
    if not any(n in code for n in names):
        return code
    lines = code.splitlines(keepends=True)
    found = [t for t in tokenize.generate_tokens(io.StringIO(code).readline)
             if t.type == tokenize.NAME and t.string in names]
    for t in reversed(found):   # (from the end: the columns before stay where they are)
        (row, col), (_, end) = t.start, t.end
        lines[row - 1] = lines[row - 1][:col] + names[t.string] + lines[row - 1][end:]
    return "".join(lines)


# the attributes of the runtime that it sets once (Runtime.__init__) and rule code only reads
SET_ONCE = ("zones", "vars", "pvars", "ivars", "loc", "facing", "n_players", "players", "dir")


def _read_once(fn):
    """The function with each of ``R.zones``, ``R.vars``... (SET_ONCE) read once, into a local,
    where it reads one more than once or in a loop (an attribute read is a dictionary look-up in
    the type and a call); None when there is none."""
    if not isinstance(fn, ast.FunctionDef) or not fn.args.args or fn.args.args[0].arg != "R":
        return None
    uses = _set_once_reads(fn)
    if uses is None:
        return None
    looped = _read_in_loops(fn)
    hoist = sorted(a for a, k in uses.items() if k > 1 or a in looped)
    if not hoist:
        return None
    body = [_HoistReads(hoist).visit(st) for st in fn.body]
    at = 1 if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Name) \
        and body[0].value.id == _W_DECL else 0
    fn.body = body[:at] + [_stmt(f"_R_{a} = R.{a}") for a in hoist] + body[at:]
    return fn


def _of_runtime(n) -> bool:
    """Whether the node is an attribute of the runtime: ``R.<attr>``."""
    return isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "R"


def _set_once_reads(fn) -> dict[str, int] | None:
    """How many times the function reads each SET_ONCE attribute of ``R``; None when it
    writes one, or already uses a local ``_R_...``."""
    uses: dict[str, int] = {}
    for n in ast.walk(fn):
        if _of_runtime(n) and n.attr in SET_ONCE:
            if not isinstance(n.ctx, ast.Load):
                return None
            uses[n.attr] = uses.get(n.attr, 0) + 1
        if isinstance(n, ast.Name) and n.id.startswith("_R_"):
            return None
    return uses


_LOOPS = (ast.For, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _read_in_loops(fn) -> set[str]:
    """The attributes of ``R`` the function reads in a loop or a comprehension."""
    loops = [n for n in ast.walk(fn) if isinstance(n, _LOOPS)]
    return {m.attr for n in loops for m in ast.walk(n) if _of_runtime(m)}


class _HoistReads(ast.NodeTransformer):
    """``R.<attr>`` as the local ``_R_<attr>``, for each of the attributes given."""

    def __init__(self, hoist: list[str]):
        self.hoist = hoist

    def visit_Attribute(self, n):
        if isinstance(n.value, ast.Name) and n.value.id == "R" and n.attr in self.hoist:
            return ast.copy_location(ast.Name(f"_R_{n.attr}", ast.Load()), n)
        return self.generic_visit(n)


def _subscripts(fn):
    """The function with its subscripts by a computed index in the module's C helpers:
    ``xs[i]`` as ``_sub(xs, i)`` (a list or tuple and an int: the element at once;
    otherwise ``xs[i]``), a zone's top ``(z or _NO_ITEM)[-1]`` as ``_top(z)``. None when
    there is none."""
    if not isinstance(fn, ast.FunctionDef):
        return None
    changed = []

    class T(ast.NodeTransformer):
        def visit_Subscript(self, n):
            self.generic_visit(n)
            if not isinstance(n.ctx, ast.Load) or isinstance(n.slice, (ast.Slice, ast.Constant, ast.Tuple)) \
                    or _number(n.slice) is not None:
                if isinstance(n.ctx, ast.Load) and _is_top(n):
                    changed.append(n)
                    return ast.copy_location(ast.Call(ast.Name("_top", ast.Load()), [n.value.values[0]], []), n)
                return n
            changed.append(n)
            return ast.copy_location(ast.Call(ast.Name("_sub", ast.Load()), [n.value, n.slice], []), n)

    fn = T().visit(fn)
    return fn if changed else None


def _number(node):
    """The int a constant index is (``3``, ``-1``), else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        k = _number(node.operand)
        return -k if k is not None else None
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def _is_top(n) -> bool:
    v = n.value
    return _number(n.slice) == -1 and isinstance(v, ast.BoolOp) and isinstance(v.op, ast.Or) and len(v.values) == 2 \
        and isinstance(v.values[1], ast.Name) and v.values[1].id == "_NO_ITEM"


def _is_work(node) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "work" and isinstance(node.value, ast.Name) \
        and node.value.id == "R"


def _stmt(src: str) -> ast.stmt:
    return ast.parse(src).body[0]


class _WorkRewrite:
    """States: "W" (the count is in ``_w``), "R" (in ``R.work``), None (no path gets here)."""

    def __init__(self):
        self.used = False
        self.loops: list[str] = []
        self.temps = 0

    def function(self, fn):
        if not isinstance(fn, ast.FunctionDef) or not fn.args.args or fn.args.args[0].arg != "R":
            raise _Unsure()
        for n in ast.walk(fn):
            if n is not fn and isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.While,
                                              ast.With, ast.AsyncWith, ast.AsyncFor, ast.Global, ast.Nonlocal,
                                              ast.Yield, ast.YieldFrom, ast.Await, ast.Match)):
                raise _Unsure()
            if isinstance(n, ast.Name) and n.id in ("R", "_w") and isinstance(n.ctx, (ast.Store, ast.Del)):
                raise _Unsure()
            if isinstance(n, (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)) \
                    and any(_is_work(m) for m in ast.walk(n)):
                raise _Unsure()
        body, state = self.block(fn.body, "R")
        if state == "W":
            body.append(self.flush())
        if not self.used:
            return None
        fn.body = [ast.Expr(ast.Name(_W_DECL, ast.Load()))] + body
        return fn

    # -------------------------------------------------- statements

    def block(self, stmts, state):
        out = []
        for st in stmts:
            if state is None:       # not reached: as it is
                out.append(st)
                continue
            done, state = self.statement(st, state)
            out.extend(done)
        return out, state

    def statement(self, st, state):
        if isinstance(st, ast.If):
            return self.if_(st, state)
        if isinstance(st, ast.For):
            return self.for_(st, state)
        if isinstance(st, ast.Try):
            return self.try_(st, state)
        if isinstance(st, ast.Return):
            return self.return_(st, state)
        if isinstance(st, (ast.Break, ast.Continue)):
            if not self.loops:
                raise _Unsure()
            return self.to(state, self.loops[-1]) + [st], None
        if isinstance(st, ast.Raise):
            if self.touches(st):
                raise _Unsure()
            return [st], None
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Name) \
                and st.value.func.id in _DEAD_ENDS:
            return [st], None       # raises: where the count is does not matter
        if any(_is_work(t) for target in _targets(st) for t in ast.walk(target)):
            if isinstance(st, ast.AugAssign):
                if not (_is_work(st.target) and isinstance(st.op, ast.Sub)) or self.touches(st.value):
                    raise _Unsure()
                pre, state = self.to(state, "W"), "W"
                st = ast.AugAssign(ast.Name("_w", ast.Store()), ast.Sub(), self.rewrite(st.value))
                return pre + [st], state
            if self.touches(st) or self.mentions(st.value):
                raise _Unsure()
            return [st], "R"            # R.work set: the count is there
        return self.simple(st, state)

    def simple(self, st, state):
        """A statement without a block: before a call given R, the count goes back to
        ``R.work``; a statement that counts gets it in ``_w``; one that only reads it,
        from where it is."""
        if self.touches(st):
            return self.to(state, "R") + [st], "R"
        if self.counts(st):
            return self.to(state, "W") + [self.rewrite(st)], "W"
        if state == "W" and self.mentions(st):
            return [self.rewrite(st)], "W"
        return [st], state

    def head(self, expr, state):
        """The expression in a block statement's head: (statements before, the expression, state)."""
        if expr is None:
            return [], expr, state
        if self.touches(expr):
            return self.to(state, "R"), expr, "R"
        if self.counts(expr):
            return self.to(state, "W"), self.rewrite(expr), "W"
        if state == "W" and self.mentions(expr):
            return [], self.rewrite(expr), "W"
        return [], expr, state

    def if_(self, st, state):
        pre, st.test, state = self.head(st.test, state)
        body, a = self.block(st.body, state)
        orelse, b = self.block(st.orelse, state)
        a, b, body, orelse = self.join(a, b, body, orelse)
        st.body, st.orelse = body or [ast.Pass()], orelse
        return pre + [st], a if a is not None else b

    def for_(self, st, state):
        if self.touches(st.target) or self.mentions(st.target):
            raise _Unsure()
        pre, st.iter, state = self.head(st.iter, state)
        self.loops.append(state)
        body, end = self.block(st.body, state)
        body += self.to(end, state)
        self.loops.pop()
        orelse, end = self.block(st.orelse, state)
        orelse += self.to(end, state)
        st.body, st.orelse = body or [ast.Pass()], orelse
        return pre + [st], state

    def try_(self, st, state):
        if st.orelse or any(self.touches(s) or self.mentions(s) for s in st.finalbody) \
                or any(isinstance(n, (ast.Return, ast.Break, ast.Continue)) for s in st.finalbody
                       for n in ast.walk(s)):
            raise _Unsure()
        body, end = self.block(st.body, state)
        ends = [end]
        for h in st.handlers:
            h.body, hend = self.handler(h.body)
            ends.append(hend)
        live = {e for e in ends if e is not None}
        if len(live) > 1:            # the try's own end is W, a handler's R
            body += self.flush_list(end)
            live = {"R"}
        st.body = body
        return [st], (live.pop() if live else None)

    def handler(self, stmts):
        """An except block: the count may be in either place when it starts; it must set
        ``R.work`` before anything counts or calls, or leave by raising."""
        out = []
        for i, s in enumerate(stmts):
            if isinstance(s, ast.Raise) and not self.touches(s):
                return out + stmts[i:], None
            if any(_is_work(t) for target in _targets(s) for t in ast.walk(target)) \
                    and not isinstance(s, ast.AugAssign) and not self.touches(s) and not self.mentions(s.value):
                rest, end = self.block(stmts[i + 1:], "R")
                return out + [s] + rest, end
            if self.touches(s) or self.mentions(s) or not isinstance(s, (ast.Assign, ast.AugAssign, ast.Expr,
                                                                         ast.Pass)):
                raise _Unsure()
            out.append(s)
        raise _Unsure()

    def return_(self, st, state):
        if st.value is None or self.touches(st.value) or not self.mentions(st.value) \
                or (state == "R" and not self.counts(st.value)):
            return self.to(state, "R") + [st], None
        pre = self.to(state, "W")
        self.temps += 1
        name = f"_wr{self.temps}"
        keep = ast.Assign([ast.Name(name, ast.Store())], self.rewrite(st.value))
        return pre + [keep, self.flush(), ast.Return(ast.Name(name, ast.Load()))], None

    # -------------------------------------------------- where the count is

    def join(self, a, b, body, orelse):
        if a is not None and b is not None and a != b:
            if a == "W":
                body = body + [self.flush()]
            else:
                orelse = orelse + [self.flush()]
            a = b = "R"
        return a, b, body, orelse

    def to(self, state, want) -> list:
        if state is None or state == want:
            return []
        self.used = True
        return [self.flush()] if want == "R" else [_stmt("_w = R.work")]

    def flush_list(self, state) -> list:
        return [self.flush()] if state == "W" else []

    def flush(self):
        return _stmt("R.work = _w")

    # -------------------------------------------------- expressions

    @staticmethod
    def _helper(call) -> bool:
        return isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in _W_HELPERS \
            and call.args and isinstance(call.args[0], ast.Name) and call.args[0].id == "R" \
            and not call.keywords and not any(isinstance(a, ast.Starred) for a in call.args)

    def _calls(self, node):
        """The calls in ``node`` outside lambdas and generator expressions, and whether R
        appears inside one of those."""
        inner = False
        stack, out = [node], []
        while stack:
            n = stack.pop()
            if isinstance(n, (ast.Lambda, ast.GeneratorExp)):
                inner |= any(isinstance(m, ast.Name) and m.id == "R" for m in ast.walk(n))
                continue
            if isinstance(n, ast.Call):
                out.append(n)
            stack.extend(ast.iter_child_nodes(n))
        return out, inner

    def touches(self, node) -> bool:
        """Whether running ``node`` may run code that reads or sets ``R.work``: R used
        otherwise than to read an attribute (``R.zones``) or to count with a helper
        (rewritten), as when given to a function, or inside a lambda."""
        calls, inner = self._calls(node)
        if inner:
            return True
        fine = {id(c.args[0]) for c in calls if self._helper(c)}
        for n in _walk_outside(node):
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "R":
                fine.add(id(n.value))
        called = {id(c.func.value) for c in calls if isinstance(c.func, ast.Attribute)}
        return any(isinstance(n, ast.Name) and n.id == "R" and (id(n) not in fine or id(n) in called)
                   for n in _walk_outside(node))

    def counts(self, node) -> bool:
        """Whether ``node`` counts work with a helper."""
        calls, _ = self._calls(node)
        return any(self._helper(c) for c in calls)

    def mentions(self, node) -> bool:
        """Whether ``node`` counts or reads the work budget (``R.work``, a counting helper)."""
        calls, _ = self._calls(node)
        return any(_is_work(n) for n in ast.walk(node)) or any(self._helper(c) for c in calls)

    def rewrite(self, node):
        """``R.work`` read as ``_w``, the counting helpers on ``&_w``."""
        self.used = True
        rw = self

        class T(ast.NodeTransformer):
            def visit_Lambda(self, n):
                return n

            def visit_GeneratorExp(self, n):
                return n

            def visit_Attribute(self, n):
                if _is_work(n) and isinstance(n.ctx, ast.Load):
                    return ast.copy_location(ast.Name("_w", ast.Load()), n)
                return self.generic_visit(n)

            def visit_Call(self, n):
                self.generic_visit(n)
                if rw._helper(n):
                    n.func = ast.Name(_W_HELPERS[n.func.id], ast.Load())
                    n.args[0] = ast.Name(_W_ADDR, ast.Load())
                return n

        return T().visit(node)


def _walk_outside(node):
    """The nodes of ``node`` outside lambdas and generator expressions."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if not isinstance(n, (ast.Lambda, ast.GeneratorExp)):
            stack.extend(ast.iter_child_nodes(n))


def _targets(st) -> list:
    if isinstance(st, ast.Assign):
        return st.targets
    if isinstance(st, (ast.AugAssign, ast.AnnAssign)):
        return [st.target]
    return []


# the helpers of helpers.py that the module has in C (the same behaviour)
HELPERS_INLINED = ("_it", "_cat", "_range", "_mul", "_index", "_div", "_mod", "_first", "_last")

HEADER = """# cython: language_level=3, binding=False, embedsignature=False
# cython: boundscheck=True, wraparound=True
# The rule code of one Meeple program (generated by interpreter/native/cython_code.py). The helpers
# below do what those of interpreter/play/helpers.py do where these succeed, and fail where
# those fail (how does not matter: a failure runs the Python code again).


class _Failed(Exception):
    pass


cdef inline object _it(object R, object xs):
    R.work -= len(xs)
    if R.work < 0:
        raise _Failed()
    return xs


cdef inline object _cat(object R, object a, object b):
    R.work -= len(a) + len(b)
    if R.work < 0:
        raise _Failed()
    return a + b


cdef object _range(object R, object a, object b, object limit=%(MAX_RANGE)d):
    n = b - a + 1
    if n > limit:
        raise _Failed()
    if n > 0:
        R.work -= n
        if R.work < 0:
            raise _Failed()
    return list(range(a, b + 1))


cdef inline object _itw(Py_ssize_t* w, object xs):
    w[0] -= len(xs)
    if w[0] < 0:
        raise _Failed()
    return xs


cdef inline object _catw(Py_ssize_t* w, object a, object b):
    w[0] -= len(a) + len(b)
    if w[0] < 0:
        raise _Failed()
    return a + b


cdef object _rangew(Py_ssize_t* w, object a, object b, object limit=%(MAX_RANGE)d):
    n = b - a + 1
    if n > limit:
        raise _Failed()
    if n > 0:
        w[0] = w[0] - n
        if w[0] < 0:
            raise _Failed()
    return list(range(a, b + 1))


cdef inline object _sub(object xs, object i):
    cdef Py_ssize_t k
    if type(i) is int:
        if type(xs) is list:
            k = i
            if 0 <= k < len(<list>xs):
                return (<list>xs)[k]
        elif type(xs) is tuple:
            k = i
            if 0 <= k < len(<tuple>xs):
                return (<tuple>xs)[k]
    return xs[i]


cdef inline object _top(object z):
    if type(z) is list:
        if len(<list>z):
            return (<list>z)[-1]
        return None
    return (z or [None])[-1]


cdef inline object _mul(object a, object b, object limit):
    r = a * b
    if -limit <= r <= limit:
        return r
    raise _Failed()


cdef inline object _div(object a, object b):
    if b == 0:
        raise _Failed()
    return a // b


cdef inline object _mod(object a, object b):
    if b == 0:
        raise _Failed()
    return a %% b


cdef inline object _index(object xs, object i):
    cdef Py_ssize_t k
    if type(i) is int and type(xs) is list:
        k = i
        if 0 <= k < len(<list>xs):
            return (<list>xs)[k]
        raise _Failed()
    if not 0 <= i < len(xs):
        raise _Failed()
    return xs[i]


cdef inline object _first(object xs):
    return xs[0] if xs else None


cdef inline object _last(object xs):
    return xs[-1] if xs else None


"""

# ------------------------------------------------------------ building and loading

def compile_flags() -> list[str]:
    """The C compiler's options added to Python's own: ``MEEPLE_NATIVE_CFLAGS`` (split at
    spaces), else optimized, without debugging information or warnings (generated
    code). ``-O0`` builds about five times faster and runs slower than Python (the
    tests use it: the code does the same)."""
    own = os.environ.get("MEEPLE_NATIVE_CFLAGS", "").split()
    if own:
        return own
    if sysconfig.get_platform().startswith("win"):
        return ["/O2"]
    return ["-O2", "-g0", "-w"]


def module_key(source: str) -> str:
    """The sha256 a module is kept under: its source (before the rewrites), this file
    (which rewrites it), Cython's version, the Python ABI, the platform and the
    compiler flags."""
    return diskcache.key("meeple-native", FORMAT, source, _own_digest(), cython_version(), sys.version,
                         sysconfig.get_config_var("SOABI") or "", sys.implementation.cache_tag or "",
                         sysconfig.get_platform(), " ".join(compile_flags()),
                         os.environ.get("CC", ""), os.environ.get("CFLAGS", ""))


def _own_digest() -> str:
    if not _digest:
        _digest.append(hashlib.sha256(Path(__file__).read_bytes()).hexdigest())
    return _digest[0]


_digest: list[str] = []


def module_name(key: str) -> str:
    return f"meeple_native_{key[:40]}"


def _suffix() -> str:
    return importlib.machinery.EXTENSION_SUFFIXES[0]


def folder() -> Path | None:
    """Where built modules are kept: ``native/`` in the disk cache's folder, made if
    missing; None when the cache is off or its folder is not the user's own (then each
    process builds its modules in a temporary folder)."""
    if not diskcache.enabled():
        return None
    top = diskcache.folder()
    if top is None:
        return None
    path = top / SUBFOLDER
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    if diskcache.untrusted_reason(top) or diskcache.untrusted_reason(path):
        return None
    return path


def load_or_build(source: str, on_build=None, final=None) -> tuple[object, bool, float]:
    """The extension module of this source: (module, built now, seconds spent);
    ``on_build()`` is called before a build starts; ``final()``, when given, is the text
    built (kept under ``source``'s key). Raises NativeError when it cannot be built or
    loaded."""
    key = module_key(source)
    name = module_name(key)

    def build(folder: Path) -> Path:
        return _build(name, (final() if final is not None else source) + f"\nKEY = {key!r}\n", folder)
    mod, built, seconds = obtain(_loaded, key, name, build, on_build=on_build)
    if mod is None:
        raise NativeError("the module built does not load")
    return mod, built, seconds


def obtain(loaded: dict, key: str, name: str, build, usable=None, on_build=None):
    """A module by its key: already ``loaded`` in this process, kept in the cache, or
    built now (``build(folder)``: the module's path, built in that new temporary folder,
    which is removed afterwards) and kept there: (the module, or None when the one built
    does not load; built now; seconds spent). ``usable``: see _load. Raises NativeError
    when there is no temporary folder to build in or the module built cannot be read.
    (kernel.py's modules come this way too.)"""
    if key in loaded:
        return loaded[key], False, 0.0
    where = folder()
    if where is not None:
        mod = _cached(where, name, key, usable)
        if mod is not None:
            loaded[key] = mod
            return mod, False, 0.0
    if on_build is not None:
        on_build()
    t0 = time.perf_counter()
    data = _built(build)
    if where is not None:
        _keep(where, name, data)
    mod = _load(name, data, key, usable)
    if mod is not None:
        loaded[key] = mod
    return mod, True, time.perf_counter() - t0


def _built(build) -> bytes:
    """The bytes of the module ``build(folder)`` makes in a new temporary folder, which
    is removed before this returns or raises."""
    try:
        tmp = Path(tempfile.mkdtemp(prefix="meeple-native-"))
    except OSError as e:
        raise NativeError(f"no temporary folder to build in ({e.strerror or e})") from None
    try:
        return files.read_regular_file(build(tmp), MAX_MODULE_BYTES)
    except files.Refused as e:
        raise NativeError(f"the module built cannot be read: {e}") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _cached(where: Path, name: str, key: str, usable=None):
    """The module kept in the cache, or None: missing, not the user's own, not a regular
    file, its bytes not those whose digest was written beside it, or not loading as this
    key's (a kernel's modules too: interpreter/native/kernel.py, with ``usable`` its own test).
    The bytes loaded are the bytes checked."""
    so, digest = where / (name + _suffix()), where / (name + ".sha256")
    data, want = diskcache.read_own(so), diskcache.read_own(digest)
    if data is None or want is None:
        return None
    if hashlib.sha256(data).hexdigest().encode() != want.strip():
        return None
    return _load(name, data, key, usable)


def _load(name: str, data: bytes, key: str, usable=None):
    """The extension module made of exactly ``data`` when it loads, names ``key`` and is
    ``usable`` (by default: it has ``make``, as this module's do); else None. The bytes
    are loaded from a copy nobody can change (``_private_copy``): the file they were
    read from may have changed since."""
    try:
        with _private_copy(name, data) as path:
            loader = importlib.machinery.ExtensionFileLoader(name, path)
            spec = importlib.util.spec_from_file_location(name, path, loader=loader)
            mod = importlib.util.module_from_spec(spec)
            loader.exec_module(mod)
    except Exception:  # noqa: BLE001 - a module that does not load is built again
        return None
    ok = usable(mod) if usable is not None else callable(getattr(mod, "make", None))
    if getattr(mod, "KEY", None) != key or not ok:
        return None
    return mod


@contextlib.contextmanager
def _private_copy(name: str, data: bytes):
    """A path to ``data`` that nobody can change while it is loaded: a sealed memory file
    (Linux: no write, no resize, no new seal), else a file in a new folder of the
    user's own, removed once the module is loaded (a loaded module needs neither). A
    memory file stays open while the process runs: the dynamic loader knows a library
    by its path, and ``/proc/self/fd/N`` must not name another module later."""
    fd = _sealed(name, data) if len(_held) < MAX_HELD else None
    if fd is not None:
        _held.append(fd)
        yield f"/proc/self/fd/{fd}"
        return
    tmp = tempfile.mkdtemp(prefix="meeple-native-")
    try:
        path = os.path.join(tmp, name + _suffix())
        out = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
                      | getattr(os, "O_BINARY", 0), 0o500)
        with os.fdopen(out, "wb") as f:
            f.write(data)
        yield path
    finally:
        shutil.rmtree(tmp, ignore_errors=True)   # (Windows keeps a loaded module's file)


def _sealed(name: str, data: bytes) -> int | None:
    """A memory file holding ``data``, sealed against any change, or None where there is
    no such thing (or no /proc to name it by)."""
    memfd_create = getattr(os, "memfd_create", None)
    if memfd_create is None or not os.path.isdir("/proc/self/fd"):
        return None
    try:
        import fcntl
        seals = fcntl.F_SEAL_SEAL | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE
        fd = memfd_create(name, os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    except (ImportError, AttributeError, OSError):
        return None
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        fcntl.fcntl(fd, fcntl.F_ADD_SEALS, seals)
    except OSError:
        os.close(fd)
        return None
    return fd


_BUILD = """
import sys
from setuptools import Extension, setup
from Cython.Build import cythonize
name, flags = sys.argv[1], sys.argv[2:]
ext = Extension(name, [name + ".pyx"], extra_compile_args=flags)
setup(name=name, script_args=["-q", "build_ext", "--inplace"],
      ext_modules=cythonize([ext], quiet=True, language_level=3))
"""


def _build(name: str, text: str, tmp: Path) -> Path:
    """Cython then the C compiler, in the folder ``tmp``: the module's path."""
    (tmp / f"{name}.pyx").write_text(text, encoding="utf-8")
    try:
        done = subprocess.run([sys.executable, "-c", _BUILD, name, *compile_flags()], cwd=tmp, check=False,
                              capture_output=True, text=True, timeout=BUILD_TIMEOUT,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError) as e:
        raise NativeError(f"the build could not run ({type(e).__name__}: {e})") from None
    found = sorted(tmp.glob(name + "*" + _suffix())) or sorted(tmp.glob(name + ".*.so")) \
        or sorted(tmp.glob(name + "*.pyd"))
    if done.returncode != 0 or not found:
        last = [r for r in (done.stderr or done.stdout or "").splitlines() if r.strip()][-3:]
        raise NativeError("the build failed" + (": " + " / ".join(last) if last else ""))
    return found[0]


def _keep(where: Path, name: str, data: bytes) -> None:
    """Writes the module into the cache, atomically, with its digest beside it (not
    kept, when that fails: it is loaded all the same)."""
    so = where / (name + _suffix())
    try:
        _write(where, so, data)
        _write(where, where / (name + ".sha256"), hashlib.sha256(data).hexdigest().encode())
        _prune(where)
    except OSError:
        pass


def _write(where: Path, target: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=where, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o600)
        os.replace(tmp, target)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


# the modules kept in the folder: the rule code compiled by Cython, and the kernels
# (interpreter/native/kernel.py, which keeps its modules here the same way)
PREFIXES = ("meeple_native_", "meeple_kernel_")


def _modules(where: Path) -> list[Path]:
    try:
        found = [p for p in where.iterdir() if p.name.startswith(PREFIXES)
                 and not p.name.endswith(".sha256")]
    except OSError:
        return []
    return sorted(found, key=lambda p: p.stat().st_mtime if p.exists() else 0.0)


def _prune(where: Path) -> None:
    found = _modules(where)
    for p in found[:max(0, len(found) - KEEP)]:
        for f in (p, where / (p.name.split(".")[0] + ".sha256")):
            try:
                f.unlink()
            except OSError:
                pass


def clear() -> int:
    """Removes every module kept in the cache; returns how many."""
    top = diskcache.folder()
    where = top / SUBFOLDER if top is not None else None
    if where is None or not where.is_dir():
        return 0
    n = 0
    for p in list(where.iterdir()):
        try:
            p.unlink()
            n += p.name.startswith(PREFIXES) and not p.name.endswith(".sha256")
        except OSError:
            pass
    return n


def info() -> dict:
    """The modules kept: ``entries`` and ``bytes``."""
    top = diskcache.folder()
    where = top / SUBFOLDER if top is not None else None
    found = _modules(where) if where is not None and where.is_dir() else []
    return {"entries": len(found), "bytes": diskcache.total_size(found)}


# ------------------------------------------------------------ a program, natively

def program(python_program, make_program, report=None):
    """The native twin of ``python_program`` (compiled with a ``Pieces`` recorder):
    ``make_program(served)`` compiles it again with its code served by the module.
    Raises NativeError when the module cannot be built or loaded."""
    why = status()
    if why is not None:
        raise NativeError(why)
    pieces = python_program._native
    source = module_source(pieces, python_program.ns, rewrite=False)
    name = python_program.name
    mod, built, seconds = load_or_build(
        source, (lambda: report(f"compiling {name} natively ({python_program.n} players)…"))
        if callable(report) else None, lambda: module_source(pieces, python_program.ns))
    served = Served(mod, pieces, python_program)
    prog = make_program(served)
    prog.native_build_seconds = seconds if built else 0.0
    return prog


def say_once(reason: str, report) -> None:
    """Reports why the native code is not used, once per process and reason
    (``report=False``: not at all)."""
    say(f"native code unavailable: {reason}; running in pure Python", report)


def say(message: str, report) -> None:
    """Reports a message about native code once per process (``report=False``: not at
    all; None: as a NativeWarning)."""
    if report is False or message in _reported:
        return
    _reported.add(message)
    if report is not None:
        report(message)
    else:
        import warnings
        warnings.warn(message, NativeWarning, stacklevel=3)


class NativeWarning(UserWarning):
    """The native code was asked for but cannot be used here; the games run in Python."""
