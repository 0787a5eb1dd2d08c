"""The package's top: ``import meeple`` gives the interpreter's public names, lazily, and
the stages are subpackages of ``meeple`` (no top-level module of their own)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import meeple
from meeple import interpreter

ROOT = Path(__file__).resolve().parent.parent


def test_the_top_gives_the_interpreters_public_names():
    for name in interpreter.__all__:
        assert getattr(meeple, name) is getattr(interpreter, name), name
    assert set(interpreter.__all__) <= set(dir(meeple))
    game = meeple.load("cherokee").new_game(players=2, seed=1)
    assert game.legal_moves()


def test_an_unknown_name_is_an_attribute_error():
    try:
        meeple.no_such_name  # noqa: B018 - the lookup is the test
    except AttributeError as e:
        assert "no_such_name" in str(e)
    else:
        raise AssertionError("meeple.no_such_name did not raise")


def test_the_version_is_the_projects():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'version = {attr = "meeple.__version__"}' in text
    assert re.fullmatch(r"\d+\.\d+\.\d+", meeple.__version__)


def _run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout.strip()


def test_importing_the_language_does_not_load_the_interpreter():
    assert _run("import sys, meeple.dsl.check; print('meeple.interpreter' in sys.modules)") == "False"


def test_the_stages_are_subpackages_of_meeple():
    """Every module of the stages is imported as meeple.<stage>...; code inside them uses
    relative imports, so no top-level dsl, interpreter or cli module is ever loaded."""
    loaded = _run("import sys, meeple.cli.main, meeple.interpreter.analysis.leaks; "
                  "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in "
                  "('dsl', 'interpreter', 'cli', 'rulesets'))))")
    assert loaded == ""
    for folder in ("dsl", "interpreter", "cli"):
        for f in (ROOT / folder).rglob("*.py"):
            text = f.read_text(encoding="utf-8")
            assert not re.search(r"^\s*(from|import) (dsl|interpreter|cli)\b", text, re.M), f


def test_every_subpackage_of_the_stages_is_a_package_of_the_wheel():
    # pyproject.toml lists the packages by hand (the stages' folders become meeple.*):
    # a new subpackage left out of the list is left out of every install
    import tomllib
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = set(setup["packages"])
    for package, folder in setup["package-dir"].items():
        for init in sorted((ROOT / folder).rglob("__init__.py")):
            rel = init.parent.relative_to(ROOT / folder)
            if "__pycache__" not in rel.parts:
                name = ".".join((package, *rel.parts))
                assert name in listed, f"{name} ({init.parent.relative_to(ROOT)}) is not in pyproject's packages"


def test_openspiel_is_a_test_dependency_only_where_it_has_wheels():
    """The test extra names open_spiel with a marker for the platforms PyPI has its wheels
    for (so installing the extra never compiles it), and .ci/lowest pins its floor with
    the marker kept for pip to evaluate."""
    from packaging.markers import Marker

    script = (ROOT / ".ci" / "lowest").read_text(encoding="utf-8")
    code = script.split("<<'PY'\n", 1)[1].split("\nPY\n", 1)[0]
    pins = _run(code).splitlines()
    assert "pytest==8" in pins and "lark==1.1.9" in pins
    (spiel,) = [p for p in pins if p.startswith("open_spiel==")]
    marker = Marker(spiel.split(";", 1)[1])

    def where(platform: str, machine: str, python: str = "3.11") -> bool:
        return marker.evaluate({"sys_platform": platform, "platform_machine": machine,
                                "python_version": python})
    assert where("linux", "x86_64") and where("linux", "aarch64", "3.14")
    assert where("darwin", "arm64") and where("win32", "AMD64")
    assert not where("darwin", "x86_64") and not where("win32", "ARM64")
    assert not where("linux", "x86_64", "3.15") and not where("linux", "ppc64le")



def test_ci_lowest_tests_every_dependency_s_floor_with_test_files_that_exist():
    """.ci/lowest runs, against the floors, the test files its FLOORS table names for each
    direct dependency (of the package and of the test extra): every dependency has a
    line, every line is a dependency, every file named is a test file of tests/, and the
    run is given those files (not the whole suite, not none)."""
    import tomllib
    script = (ROOT / ".ci" / "lowest").read_text(encoding="utf-8")
    table = script.split('FLOORS="\n', 1)[1].split('\n"\n', 1)[0]
    floors = {}
    for line in table.splitlines():
        name, *files = line.split()
        assert name not in floors and files, line
        floors[name] = files
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = {re.split(r"[><=;\s]", req, maxsplit=1)[0]
                for req in project["dependencies"] + project["optional-dependencies"]["test"]}
    assert set(floors) == declared, sorted(set(floors) ^ declared)
    for files in floors.values():
        for name in files:
            path, _, test = name.partition("::")
            assert re.fullmatch(r"tests/test_\w+\.py", path) and (ROOT / path).is_file(), name
            assert not test or re.search(rf"^def {re.escape(test)}\(", (ROOT / path).read_text(
                encoding="utf-8"), re.M), name
    run = [ln for ln in script.splitlines() if ln.lstrip().startswith('"${files[@]}"')]
    assert len(run) == 1 and '"$@"' in run[0], run


def _imports(path: Path):
    """Every import of a module (at any depth, in functions too): (module, names, level)."""
    import ast
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            yield node.module or "", [a.name for a in node.names], node.level
        elif isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, [], 0


def test_the_cli_uses_the_interpreters_public_api_only():
    # (web/, the web table, is a front end like cli/: the same rule)
    for path in sorted([*(ROOT / "cli").glob("*.py"), *(ROOT / "web").glob("*.py")]):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\.R\b", text), f"{path.name} reaches into a game's Runtime (.R)"
        for module, names, level in _imports(path):
            if level == 1:  # a front end's own modules may share their helpers
                continue
            private = [n for n in names if n.startswith("_") and n != "__version__"]
            assert not private, f"{path.name} imports private {private} from {module}"


def test_the_tests_use_the_public_state_not_a_games_runtime():
    """Tests read a game through its public API (``game.state``, views, moves), not the
    live ``Runtime`` behind it, so the runtime's layout may change freely."""
    for path in sorted((ROOT / "tests").glob("*.py")):
        if path.name == "test_package.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\.R\b", text), f"{path.name} reaches into a game's Runtime (.R)"


def _resolves(dotted: str) -> bool:
    """Whether ``a.b.c`` is a module, or an attribute of one (``meeple.interpreter.load``)."""
    import importlib
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(obj, name):
                return False
            obj = getattr(obj, name)
        return True
    return False


def test_every_python_path_the_docs_name_exists():
    """A module or a name of the stages that the documentation gives as
    ``meeple.interpreter...`` (or imports in an example: ``from meeple.interpreter.views
    import view``) is there, whatever folder its code lives in."""
    texts = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    named = set()
    for path in texts:
        text = path.read_text(encoding="utf-8")
        named |= set(re.findall(r"\bmeeple\.(?:dsl|interpreter|cli)(?:\.[A-Za-z_]\w*)*", text))
        for module, names in re.findall(r"^\s*from (meeple\.(?:dsl|interpreter|cli)(?:\.\w+)*) import ([\w, ]+)",
                                        text, re.M):
            named |= {f"{module}.{n.split(' as ')[0].strip()}" for n in names.split(",")}
    assert "meeple.interpreter.views.view" in named and "meeple.interpreter.record" in named
    missing = sorted(n for n in named if not _resolves(n.rstrip(".")))
    assert missing == []


def test_the_documented_module_paths_are_the_moved_modules_themselves():
    """interpreter/ is grouped in subpackages; the paths docs/ gives its modules stay,
    as the very modules (one module: its functions, its constants, what a test patches)."""
    import importlib
    moved = {"views": "play.views", "record": "play.record", "journal": "play.journal",
             "display": "play.display", "testing": "analysis.testing",
             "invariants": "analysis.invariants", "arena": "analysis.arena",
             "simulation": "analysis.simulation", "parallel": "analysis.parallel",
             "stats": "analysis.stats", "rulebook": "documents.rulebook",
             "rulebook_view": "documents.rulebook_view"}
    for old, new in moved.items():
        module = importlib.import_module(f"meeple.interpreter.{new}")
        assert importlib.import_module(f"meeple.interpreter.{old}") is module, old
        assert getattr(interpreter, old) is module, old
    from meeple.interpreter.record import Record
    from meeple.interpreter.views import view
    assert view.__module__ == "meeple.interpreter.play.views" and Record.__module__ == "meeple.interpreter.play.record"
