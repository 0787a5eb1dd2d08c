"""What the fast code's printer says of the texts it writes (codegen_base.Code): a name
or a constant as a whole, its kind said where the text is written and never read back
from it. Every Code made while compiling each bundled ruleset is what its kind says,
as Python's own parser reads the text; the printer's wrappers keep or drop the kind
as they must."""
from __future__ import annotations

import ast
import copy
import pickle
from collections import Counter
from types import SimpleNamespace

import pytest
from meeple.dsl.load import bundled_names
from meeple.dsl.types import T
from meeple.interpreter import load
from meeple.interpreter.compiler import codegen, codegen_base, codegen_text, compile_functions
from meeple.interpreter.compiler.codegen_base import (
    Code,
    in_parens,
    int_value,
    is_name,
    is_simple,
    negated,
    same_value,
)
from meeple.interpreter.compiler.codegen_lines import (
    BREAK,
    ELSE,
    EMPTY,
    FOR,
    HOLDS,
    IF,
    MARKED_TABLES,
    TABLES,
    TOP,
    Line,
    Plan,
    keyed_read,
    plain,
    render,
    step_lines,
    table_read,
    top_read,
)
from meeple.interpreter.core import primitives
from meeple.interpreter.native import kernel
from meeple.interpreter.play import inplace


def _name(node: ast.expr) -> str | None:
    return node.id if isinstance(node, ast.Name) else None


def _local(node: ast.expr) -> bool:
    return isinstance(node, ast.Subscript) and _name(node.value) == "L" \
        and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)


def _number(node: ast.expr, ref) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node, ref = node.operand, -ref
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value == ref


def _const(node: ast.expr) -> bool:
    if isinstance(node, ast.Attribute):
        return _name(node.value) == "R" and node.attr in ("active", "n_players")
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


# what the parsed text of a Code of each kind is (parentheses removed)
_KINDS = {
    "param": lambda node, ref: _name(node) == f"v_{ref}",
    "loop": lambda node, ref: (_name(node) or "").startswith(f"w{ref}_"),
    "kept": lambda node, ref: _name(node) == ref and ref.startswith(("once_", "lazy_")),
    "temp": lambda node, ref: _name(node) == ref and ref.startswith("s_"),
    "local": lambda node, ref: _local(node) and node.slice.value == ref,
    "int": _number,
    "word": lambda node, ref: isinstance(node, ast.Constant) and node.value in (True, False, None)
    and type(node.value) is not int,
    "const": lambda node, ref: _const(node),
    "table": lambda node, ref: _name(node) is not None,
}


@pytest.mark.parametrize("name", bundled_names())
def test_every_code_is_what_it_says(monkeypatch, name):
    made: list[Code] = []
    monkeypatch.setattr(Code, "__init__", lambda self, *args, **kwargs: made.append(self))
    load(name, cache=False)
    assert len({c.kind for c in made}) >= 5   # (the printer wrote names and constants)
    for code in made:
        p = code.parens
        assert code.startswith("(" * p) and code.endswith(")" * p) and code[p:len(code) - p] == code.bare, code
        # (a procedure's local read while the statement form is printed is marked: its
        # text written out is Python)
        assert _KINDS[code.kind](ast.parse(plain(code), mode="eval").body, code.ref), (code, code.kind, code.ref)


def _reads_r(lines: list[str], body: str) -> bool:
    # (the printer's text marks the bodies it writes in place, play/inplace.py: Python
    # is the text without the marks)
    code = inplace.unmarked("".join(f"    {line}\n" for line in lines) + f"    return {body}\n")
    tree = ast.parse(f"def f(R):\n{code}")
    return any(isinstance(n, ast.Name) and n.id == "R" for n in ast.walk(tree))


@pytest.mark.parametrize("name", bundled_names())
def test_a_function_reads_r_where_the_printer_says(monkeypatch, name):
    # (compile_functions tables and keeps functions by the printer's note, never by
    # reading their text: Python's parser reads the text here)
    seen: dict[str, tuple[bool, bool]] = {}
    define = compile_functions.FunctionCompiler._function_def

    def noted(self, fname, lines, body, *args):
        if self.p.optimize and self.p._fast_ready:
            seen[fname] = (self.reads_r[fname], _reads_r(lines, body))
        return define(self, fname, lines, body, *args)
    monkeypatch.setattr(compile_functions.FunctionCompiler, "_function_def", noted)
    load(name, cache=False)
    assert seen and any(said for said, _ in seen.values())
    assert all(said == read for said, read in seen.values()), {k: v for k, v in seen.items() if v[0] != v[1]}


def _gives_r(lines: list[str]) -> bool:
    code = inplace.unmarked("".join(f"    {line}\n" for line in lines))
    tree = ast.parse(f"def f(R):\n{code}")
    return any(isinstance(n, ast.Lambda) or (isinstance(n, ast.Call) and _name(n.func) != "_out_of_work"
               and any(_name(a) == "R" for a in n.args)) for n in ast.walk(tree))


def test_statements_give_r_to_a_function_where_the_printer_says(monkeypatch):
    # (the statement form counts the work budget in a local name only where it gives R
    # to no function, codegen_text.localize, as the printer noted: ExprCompiler.gave_r)
    seen: list[tuple[bool, bool]] = []
    localize = codegen.localize

    def noted(out, value, gives_r, tops):
        seen.append((gives_r, _gives_r([*render(out), f"v_ = {value.render()}"])))
        return localize(out, value, gives_r, tops)
    monkeypatch.setattr(codegen, "localize", noted)
    for name in ("go", "chess", "brotherhood-of-nine", "clans-and-glory"):
        load(name, cache=False)
    assert {said for said, _ in seen} == {True, False}
    assert all(said == gives for said, gives in seen), seen.count((True, False))


def _is(line: Line) -> bool:
    """Whether a line of the statement form is what its kind says, as Python's parser
    reads its text."""
    text = inplace.unmarked(plain(line.text))
    if line.kind in (IF, FOR):
        node = ast.parse(text + " pass").body[0]
        if line.kind == IF:
            return isinstance(node, ast.If)
        return isinstance(node, ast.For) and \
            ast.dump(node.iter) == ast.dump(ast.parse(inplace.unmarked(plain(line.walks)), mode="eval").body)
    if line.kind in (ELSE, BREAK):
        return text == ("else:" if line.kind == ELSE else "break")
    return line.kind is None and not text.endswith(":") and text != "break"


def test_a_line_says_what_block_it_opens(monkeypatch):
    # (tabulate_tops and localize find the loops and branches around a line, and
    # estimate a loop's turns from what its for line walks, as the printer said where it
    # wrote them: Python's parser reads the lines here)
    seen: list[list[Line]] = []
    turns = codegen_text._turns

    def noted(out, size):
        seen.append(out)
        return turns(out, size)
    monkeypatch.setattr(codegen_text, "_turns", noted)
    for name in ("go", "brotherhood-of-nine", "clans-and-glory"):
        load(name, cache=False)
    lines = [line for out in seen for line in out]
    assert sum(line.kind == FOR for line in lines) > 20 and {line.kind for line in lines} == {FOR, IF, ELSE, BREAK, None}
    for line in lines:
        assert _is(line), line
    for out in seen:  # (each as deep as the blocks around it: Python's parser says so)
        ast.parse(inplace.unmarked("def f(R):\n" + "".join(f"    {x}\n" for x in render(out)) + "    return 0\n"))
    loop = Line("    ", "for v_x in BOARD_g:", FOR, "BOARD_g")
    assert loop.depth == 1 and loop.render() == "    for v_x in BOARD_g:"
    again = loop.deeper(2).deeper(-1)
    assert (again.depth, again.text, again.kind, again.walks) == (2, loop.text, FOR, "BOARD_g")


def _r_reads(rows: list[Line]) -> Counter:
    """The reads of R's tables and of procedures' locals in the statement form's lines
    as written out, as Python's parser finds them (``L`` for a local)."""
    code = "".join(f"    {x}\n" for x in render(rows[:-1])) + f"    return {rows[-1].render()}\n"
    found: Counter = Counter()
    for n in ast.walk(ast.parse(f"def f(R, L):\n{code}")):
        if isinstance(n, ast.Attribute) and _name(n.value) == "R" and n.attr in TABLES:
            found[n.attr] += 1
        elif _local(n):
            found["L"] += 1
    return found


def test_every_read_of_r_is_said(monkeypatch):
    # (localize and tabulate_tops decide from the reads of R's tables the printer marked
    # where it wrote them, never from the text: each is there, and only those, as
    # Python's parser reads the lines written out)
    seen: list[tuple[Counter, Counter]] = []
    localize = codegen.localize

    def noted(out, value, gives_r, tops):
        said: Counter = Counter()
        for row in [*out, value]:
            for read in row.reads():
                said["L" if read.table is None else read.table] += 1
        seen.append((said, _r_reads([*out, value])))
        return localize(out, value, gives_r, tops)
    monkeypatch.setattr(codegen, "localize", noted)
    for name in ("go", "chess", "clans-and-glory", "cherokee"):
        load(name, cache=False)
    said_all = sum((said for said, _ in seen), Counter())
    assert {"zones", "work", "L", "ivars"} <= set(said_all), said_all
    assert all(said == found for said, found in seen), next((s, f) for s, f in seen if s != f)


def test_marks_are_read_and_written():
    # (a marked text parses into its reads, and is written out as Python, or as a plan says)
    top = top_read(TOP, top_read(EMPTY, "v_z"))
    text = f"{keyed_read('ivars', 'hp')}[{keyed_read(None, 'i')}] + {top} + len({table_read('zones')}[0]) + COMP"
    assert len(text) == len(plain(text))   # (each mark as long as what it stands for)
    assert plain(text) == "R.ivars['hp'][L['i']] + (R.zones[(not R.zones[v_z])] or _NO_ITEM)[-1] + len(R.zones[0]) + COMP"
    line = Line(1, text)
    assert [(r.table, r.key, r.top is not None) for r in line.reads()] == [
        ("ivars", "hp", False), (None, "i", False), ("zones", None, True), ("zones", None, True), ("zones", None, False)]
    plan = Plan({"zones": "z_"}, {("ivars", "hp"): "ivk_hp"}, tops=True)
    assert line.render(plan) == "    ivk_hp[L['i']] + T_[(T_[v_z] is None)] + len(z_[0]) + COMP"
    assert "({R.facing}[{0}] >= 0)".format("v", R=MARKED_TABLES) == f"({table_read('facing')}[v] >= 0)"


def test_the_forms_say_their_reads_of_r():
    # (a built-in's Python form names R's tables as fields, {R.zones}, and a zone's top
    # or emptiness by its kind: written plain, or marked, the same Python; the marked
    # text parses into the read the kind says)
    assert set(primitives.FORM_TABLES) <= set(TABLES)
    assert vars(primitives.PyCall.tables) == {t: f"R.{t}" for t in primitives.FORM_TABLES}
    assert {t: plain(m) for t, m in vars(MARKED_TABLES).items()} == vars(primitives.PyCall.tables)
    plain_call = primitives.PyCall(None, SimpleNamespace(func="top"), ["v_z"])
    shapes = {TOP: ast.Subscript, HOLDS: ast.UnaryOp, EMPTY: ast.UnaryOp}
    for kind in primitives.ZONE_TOPS:
        text = plain_call.zone_top(kind)
        assert plain(top_read(kind, "v_z")) == text
        node = ast.parse(text, mode="eval").body
        assert isinstance(node, shapes[kind]) and "R.zones[v_z]" in ast.unparse(node), (kind, text)
        assert isinstance(node, ast.Subscript) or isinstance(node.op, ast.Not)
        (read,) = Line(0, top_read(kind, "v_z")).parts
        assert (read.table, read.top, read.inner) == ("zones", kind, ["v_z"])
        assert Line(0, top_read(kind, "v_z")).render(Plan({}, {}, tops=False)) == text
    assert plain_call.fill("len({R.zones}[{0}])") == "len(R.zones[v_z])"


@pytest.mark.parametrize("kind", [*primitives.PRIMITIVES, "list"])
def test_a_loop_step_says_its_blocks(kind):
    # (an aggregate's loop step, core/primitives.py StepLine: each line's depth and kind
    # as Python's parser reads its lines, written in a loop; a step that leaves the loop
    # says so)
    step = codegen_base._LOOPS[kind].step
    if not step:
        return
    loop = primitives.PyLoop(None, kind, "r_", "e_")
    lines = step_lines(1, step, loop)
    assert [line.depth - 1 for line in lines] == [s.depth for s in step]
    assert [line.kind for line in lines] == [s.kind for s in step]
    tree = ast.parse("for x in xs:\n" + "\n".join(render(lines)))
    first: dict = {}   # the statement each line starts with
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno > 1 and (
                node.lineno not in first or node.col_offset < first[node.lineno].col_offset):
            first[node.lineno] = node
    found = [(n.col_offset // 4 - 1, IF if isinstance(n, ast.If) and n.body[0].lineno > n.lineno
              else BREAK if isinstance(n, ast.Break) else None) for _, n in sorted(first.items())]
    assert found == [(s.depth, s.kind) for s in step], kind
    assert codegen_base._LOOPS[kind].step_breaks == any(isinstance(n, ast.Break) for n in ast.walk(tree))


def test_wrappers_keep_what_a_text_is():
    v = Code("v_x", "param", "x")
    assert in_parens(v) == "(v_x)" and is_simple(in_parens(v)) and not is_name(in_parens(v))
    assert in_parens(v).bare == "v_x" and is_name(v)
    assert int_value(negated(Code("3", "int", 3))) == -3 and negated(Code("3", "int", 3)).bare == "-3"
    assert int_value(negated(in_parens(Code("3", "int", 3)))) is None   # "(-(3))" is not a number's text
    assert not is_simple(negated(v)) and not is_simple("(v_x + 1)")
    assert not is_simple(Code("CONST_xs", "table")) and is_name(Code("CONST_xs", "table"))
    for again in (copy.deepcopy(in_parens(v)), pickle.loads(pickle.dumps(in_parens(v)))):  # noqa: S301 - its own bytes
        assert again == "(v_x)" and (again.kind, again.ref, again.parens, again.bare) == ("param", "x", 1, "v_x")
    assert codegen_base.named_index(Code("L['i']", "local")) and not codegen_base.named_index(Code("once_1", "kept", "once_1"))


def test_the_same_value_is_told_by_what_the_printer_said():
    v = Code("v_x", "param", "x")
    assert same_value(v, Code("v_x", "param", "x")) and same_value(in_parens(v), in_parens(v))
    assert not same_value(v, Code("v_y", "param", "y")) and not same_value(v, in_parens(v))
    assert same_value(Code("L['c']", "local", "c"), Code("L['c']", "local", "c"))
    assert not same_value(Code("L['c']", "local", "c"), Code("L['d']", "local", "d"))
    assert same_value(Code("w3_x", "loop", 3), Code("w3_x", "loop", 3))
    assert not same_value(Code("w3_x", "loop", 3), Code("w4_x", "loop", 4))
    # a table's name may be a list that each evaluation makes; a plain str is no value told
    assert not same_value(Code("CONST_c", "table"), Code("CONST_c", "table"))
    assert not same_value("(v_x + 1)", "(v_x + 1)")


def test_the_kernel_orders_options_as_their_type_says():
    # (Proc.by_value: options put in order by value alone, ``ordered``, which the
    # kernel's none-first options read from the type, not from the text of the order)
    for t in (T("int"), T("cell"), T("str"), T("item"), T("list", T("item")), T("list", T("int"))):
        assert kernel.Proc.order(t, "v_", "who_").startswith("ordered(") == kernel.Proc.by_value(t), t
    assert kernel.Proc.by_value(T("cell")) and not kernel.Proc.by_value(T("item"))
