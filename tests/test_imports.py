"""Data flows one way through the stages (source -> parse -> check -> IR -> compile ->
run -> view): no module of dsl/, interpreter/ or cli/ imports, even inside a function,
one that imports it back (in cli/, the app is assembled in cli/main.py from the
commands' modules, which never import it); the language never imports the interpreter or the command line,
the interpreter never imports the command line; inside the interpreter, each subpackage
imports only those of lower layers (README.md, Layout); and each module imports alone."""
from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STAGES = ("dsl", "interpreter", "cli", "web")
# each module by its dotted path below meeple ("interpreter.play.runtime"); a
# package's own module is its __init__ ("interpreter.bots.__init__")
MODULES = sorted(".".join(p.relative_to(ROOT).with_suffix("").parts) for stage in STAGES
                 for p in (ROOT / stage).rglob("*.py"))


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _import_nodes(tree: ast.AST):
    """Every import statement, at any depth, but those only for type checkers."""
    for child in ast.iter_child_nodes(tree):
        if _type_checking(child):
            yield from (n for s in child.orelse for n in _import_nodes_of(s))
            continue
        yield from _import_nodes_of(child)


def _import_nodes_of(node: ast.AST):
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node
    yield from _import_nodes(node)


def _target(module: str, name: str) -> str | None:
    """The stage module named by an import of ``name`` from ``module`` ("dsl",
    "interpreter.record"...), or None when it is not one of ours."""
    module = ".".join(p for p in module.split(".") if p and p != "meeple")
    joined = ".".join(p for p in (module, name) if p)
    for candidate in (joined, f"{joined}.__init__", module, f"{module}.__init__"):
        if candidate in MODULES:
            return candidate
    return None


def imports(module: str) -> set[str]:
    """The stage modules that ``module`` imports (a package counts as its __init__)."""
    parts = module.split(".")
    package = parts[:-1]   # (the package of an __init__ is its own folder)
    tree = ast.parse(ROOT.joinpath(*parts[:-1], f"{parts[-1]}.py").read_text(encoding="utf-8"))
    out = set()
    for node in _import_nodes(tree):
        if isinstance(node, ast.Import):
            pairs = [(a.name, "") for a in node.names]
        elif node.level == 0:
            pairs = [(node.module or "", a.name) for a in node.names]
        else:
            base = package[:len(package) - node.level + 1]   # level 2 from a stage: meeple
            mod = ".".join(p for p in (*base, node.module or "") if p)
            pairs = [(mod, a.name) for a in node.names]
        out |= {t for mod, name in pairs if (t := _target(mod, name)) and t != module}
    return out


@cache
def graph() -> dict[str, set[str]]:
    """Each module's stage imports, made when a test first asks (not at collection: each
    pytest-xdist worker imports this file; parsing every module takes about 2 s)."""
    out = {m: imports(m) for m in MODULES}
    # cli/main.py imports each command's module when the command is needed, by its name
    # (importlib): those listed in its COMMANDS
    out["cli.main"] |= {f"cli.{m}" for m in ast.literal_eval(ast.unparse(next(
        n.value for n in ast.parse((ROOT / "cli" / "main.py").read_text(encoding="utf-8")).body
        if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == "COMMANDS")))}
    # the package meeple.interpreter imports each name of its API when first asked for
    # (importlib), from the module its _LAZY table gives
    lazy = ast.parse((ROOT / "interpreter" / "__init__.py").read_text(encoding="utf-8"))
    out["interpreter.__init__"] |= {t for v in ast.walk(next(
        n.value for n in lazy.body if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == "_LAZY"))
        if isinstance(v, ast.Constant) and isinstance(v.value, str) and v.value.startswith(".")
        and (t := _target(("interpreter" + v.value) if not v.value.startswith("..") else v.value[2:], ""))}
    return out


def cycle_from(start: str) -> list[str] | None:
    """A path of imports from ``start`` back to itself, if there is one."""
    seen, stack = set(), [(start, [start])]
    while stack:
        node, path = stack.pop()
        for nxt in graph()[node]:
            if nxt == start:
                return path + [start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, path + [nxt]))
    return None


def test_the_graph_sees_imports_inside_functions():
    assert "interpreter.__init__" in graph()["cli.cmd_list"]  # from .. import interpreter
    assert "dsl.ast" in graph()["interpreter.compiler.codegen"]   # from ...dsl import ast as ir
    assert "interpreter.native.kgame" in graph()["interpreter.compiler.compile"]  # (inside new_game)
    assert "interpreter.compiler.compile" not in graph()["interpreter.play.runtime"]  # for type checkers only
    # from a subpackage: a sibling package's module, and a package's own module
    assert "interpreter.play.helpers" in graph()["interpreter.compiler.fused"]  # from ..play.helpers
    assert "interpreter.bots.__init__" in graph()["interpreter.analysis.arena"]  # from ..bots import ...
    # the package's API, imported when first used (its _LAZY table)
    assert {"interpreter.bots.__init__", "interpreter.play.runtime", "dsl.errors"} <= graph()["interpreter.__init__"]
    assert "interpreter.play.rng" in graph()["interpreter.analysis.playouts"]  # from ..play import rng


@pytest.mark.parametrize("module", MODULES)
def test_no_module_imports_itself_back(module):
    assert cycle_from(module) is None, " -> ".join(cycle_from(module))


def test_the_commands_never_import_the_app():
    """cli/main.py assembles the app from the commands' modules: none of them, nor what
    they share, imports it back (only the schemas' writer reads the app)."""
    assert {m for m in MODULES if m.startswith("cli.cmd_")} <= graph()["cli.main"]
    for module in MODULES:
        if module.startswith("cli.") and module not in ("cli.schemas", "cli.entry"):
            assert "cli.main" not in graph()[module], module


def test_the_language_never_imports_the_interpreter_or_the_command_line():
    for module in MODULES:
        if module.startswith("dsl."):
            assert not {m for m in graph()[module] if not m.startswith("dsl.")}, module


def test_the_interpreter_never_imports_the_command_line():
    for module in MODULES:
        if module.startswith("interpreter."):
            assert not {m for m in graph()[module] if m.startswith(("cli.", "web."))}, module


def test_the_web_table_is_a_front_end_beside_the_command_line():
    """web/ imports the interpreter (and the language's schema writer), never cli/;
    only the command `meeple serve` imports it."""
    web = [m for m in MODULES if m.startswith("web.")]
    assert web
    for module in web:
        assert not {m for m in graph()[module] if m.startswith("cli.")}, module
    users = {m for m in MODULES if not m.startswith("web.") and any(
        t.startswith("web.") for t in graph()[m])}
    assert users == {"cli.cmd_serve"}, users


# Each module imported in a Python of its own that has imported no module of Meeple:
# forked (where there is os.fork) from one Python that has imported every other module
# Meeple's modules use (pydantic, lark... with their submodules, and the standard
# library's: those that importing all of them brings, found in a first child), so that
# each child pays for Meeple's own modules only, not for the interpreter's start-up and
# pydantic again; without fork, a process each. Prints the modules that failed, with the
# end of their traceback, as JSON.
IMPORT_EACH = """import importlib, json, os, subprocess, sys, traceback
wanted = json.loads(sys.argv[1])
if not hasattr(os, "fork"):
    procs = {m: subprocess.Popen([sys.executable, "-c", f"import meeple.{m}"],
                                 stderr=subprocess.PIPE, text=True) for m in wanted}
    print(json.dumps({m: p.communicate()[1][-300:] for m, p in procs.items() if p.wait()}))
    sys.exit()

def forked(what):
    # what(pipe) in a child; its exit status and what it wrote
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        code = 0
        try:
            what(w)
        except BaseException:
            os.write(w, traceback.format_exc()[-300:].encode())
            code = 1
        os._exit(code)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        said = f.read().decode()
    return os.waitpid(pid, 0)[1], said

def all_of_them(w):
    for m in wanted:
        importlib.import_module("meeple." + m)
    # (in the order they were imported: a package before its modules)
    os.write(w, json.dumps([n for n in sys.modules
                            if n.split(".")[0] not in ("meeple", "__main__")]).encode())

status, said = forked(all_of_them)
if status:
    print(json.dumps({"(all of them)": said}))
    sys.exit()
for name in json.loads(said):
    try:   # (only to save the children the work: one that fails here is theirs to import)
        importlib.import_module(name)
    except Exception:
        pass
assert not [n for n in sys.modules if n.split(".")[0] == "meeple"], "no Meeple module yet"
failed = {}
for m in wanted:
    status, said = forked(lambda w: importlib.import_module("meeple." + m))
    if status:
        failed[m] = said
print(json.dumps(failed))
"""


def test_each_module_of_the_language_and_the_interpreter_imports_alone():
    wanted = [m for m in MODULES if not m.startswith("cli.") and not m.endswith("__main__")]
    done = subprocess.run([sys.executable, "-c", IMPORT_EACH, json.dumps(wanted)], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    failed = json.loads(done.stdout)
    assert not failed


# The interpreter's layers, lowest first (README.md, Layout): a module imports only
# from its own subpackage, from a lower layer or from dsl/. The top-level modules of
# interpreter/ (the package itself and the aliases that keep documented paths) stand
# above every subpackage.
LAYERS = (("play",), ("core",), ("native",), ("compiler",), ("bots", "documents"), ("analysis",),
          ("",))
RANK = {part: rank for rank, parts in enumerate(LAYERS) for part in parts}


def part_of(module: str) -> str:
    """The subpackage of an interpreter module ("play"), or "" for one at its top."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 else ""


def test_every_interpreter_module_has_a_layer():
    """A new subpackage is given its place in LAYERS (and in README.md, Layout)."""
    found = {part_of(m) for m in MODULES if m.startswith("interpreter.")}
    assert found == set(RANK), found ^ set(RANK)


def test_the_aliases_at_the_top_of_the_interpreter_are_in_the_graph():
    """The modules left at the top of interpreter/ are the package and the aliases of
    documented paths (each one the module it names); the layer test covers them."""
    top = {m for m in MODULES if m.startswith("interpreter.") and part_of(m) == ""}
    aliases = top - {"interpreter.__init__"}
    assert len(aliases) >= 12 and "interpreter.record" in aliases
    for alias in aliases:
        assert len(graph()[alias]) == 1 and part_of(next(iter(graph()[alias]))), alias
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    said = readme[readme.index("modules at the top of `interpreter/`"):].split("\n\n")[0]
    assert {f"interpreter.{name}" for name in re.findall(r"`(\w+)`", said)} \
        >= aliases, "README.md names each stable path"


@pytest.mark.parametrize("module", [m for m in MODULES if m.startswith("interpreter.")])
def test_no_interpreter_module_imports_from_a_higher_layer(module):
    part = part_of(module)
    upward = sorted(t for t in graph()[module] if t.startswith("interpreter.")
                    and part_of(t) != part and RANK[part_of(t)] >= RANK[part])
    assert not upward, f"{module} (layer {part or 'top'}) imports from a layer not below it: {upward}"
