"""An installed Meeple works anywhere: the wheel built from the repository, and
``pip install .`` (not editable), each into a fresh virtual environment without the
system's site-packages (so the declared dependencies must be complete), then the
``meeple`` command run from an empty folder elsewhere.

The repository is copied first (building writes build/ and *.egg-info/ next to the
sources, and a stale build/ could hide a missing file). Installing fetches the
dependencies through pip as configured on the machine (its cache keeps it short); the
tests take about a minute, so they carry the ``install`` marker:
``pytest -m "not install"`` leaves them out (the lowest-versions run of .ci/lowest does).

What the tests build (the copy, the wheel, the installed virtual environment) is built
once a run, whichever pytest-xdist worker asks first (``_once``): the others wait for it
and use it, each running its commands in an empty folder of its own. Builds are few: the
wheel the tests read is the one a build for the compiled engine makes where there is no
C compiler, which setup.py makes the default, pure-Python package (a test compares its
files with those ``pip install .`` installs); the virtual environments have no pip of
their own (this Python's pip installs into them: ``ensurepip`` costs seconds each), and
the one of the compiled engine takes the dependencies from the system's site-packages
(the plain install has shown the declared ones complete).

In the short form (tests/scale.py) only ``pip install .``, the README's command, builds
in an isolated build environment, which pip makes by installing the backend's
requirements (about ten seconds of CPU a build): the wheel and the compiled engine are
built with this Python's setuptools and Cython (``--no-build-isolation``), and what the
backend asks an isolated build for (Cython, for the compiled engine) is checked by
asking it (``test_the_backend_asks_for_cython_only_for_the_compiled_engine``); the
compiled engine plays fewer games. The long form (``MEEPLE_TESTS=full``) builds
everything isolated and installs the wheel too."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from contextlib import contextmanager
from pathlib import Path

import pytest
from scale import scaled

pytestmark = pytest.mark.install

ROOT = Path(__file__).resolve().parent.parent
# what the wheel must carry, as (folder in the repository, folder in the package): every
# file of the stages (code, the grammar, whatever data they read) and of the rulesets
DATA = [("meeple", "meeple"), ("dsl", "meeple/dsl"), ("interpreter", "meeple/interpreter"),
        ("cli", "meeple/cli"), ("web", "meeple/web"), ("rulesets", "meeple/rulesets"),
        ("docs/schema", "meeple/schema")]
COMMANDS = ("validate", "list", "play", "simulate", "replay", "test")
RULESETS = ("backgammon", "brotherhood-of-nine", "cherokee", "chess", "clans-and-glory",
            "dots-and-boxes", "go", "hearts")
IGNORE = shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__",
                                "*.pyc", ".pytest_cache", ".hypothesis", ".venv",
                                "meeple-*.json", "meeple-*.json.journal")
# (a journal: what a game played in the repository's folder keeps until it ends, by
# another test running at the same time; it may vanish while the tree is copied)
TIMEOUT = 600
# what a build that is not the README's `pip install .` builds with (see above)
ISOLATION = scaled([], ["--no-build-isolation"])


def _env(**extra: str) -> dict[str, str]:
    """The machine's environment without what would let the checkout or the user's
    site-packages leak into the virtual environment; wide, colourless output. The
    commands read the bytecode pip compiled when it installed them (the installed
    Meeple's, pip's, the build backend's), as they do on a user's machine, not the test
    run's folder of bytecode (tests/conftest.py), where each would compile its modules
    from source first: seconds of CPU per virtual environment, and for pip."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PIP_USER",
                        "VIRTUAL_ENV", "PYTHONSAFEPATH", "PYTHONPYCACHEPREFIX")}
    env.update(COLUMNS="200", NO_COLOR="1", PYTHONIOENCODING="utf-8", PYTHONDONTWRITEBYTECODE="1",
               **extra)
    return env


def _run(args, cwd: Path, input: str | None = None, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], cwd=cwd, env=_env(**extra), input=input,
                          capture_output=True, text=True, timeout=TIMEOUT)


def _ok(args, cwd: Path, input: str | None = None, **extra: str) -> str:
    """Run a command, insist on exit 0 and no traceback, return stdout + stderr."""
    done = _run(args, cwd, input, **extra)
    out = done.stdout + done.stderr
    assert done.returncode == 0, f"{args} exited {done.returncode}:\n{out}"
    assert "Traceback" not in out, out
    return out


def _data_files() -> list[tuple[str, str]]:
    """Every file of the stages (dsl/grammar.lark too), of rulesets/ and docs/schema/*.json,
    as (path in the repository, path in the wheel)."""
    files = []
    for folder, package in DATA:
        for path in sorted((ROOT / folder).rglob("*")):
            rel = path.relative_to(ROOT / folder)
            if path.is_file() and "__pycache__" not in rel.parts and path.suffix != ".pyc":
                if folder != "docs/schema" or path.suffix == ".json":
                    files.append((f"{folder}/{rel.as_posix()}", f"{package}/{rel.as_posix()}"))
    return files


@contextmanager
def _once(tmp_path_factory, name: str):
    """A folder for ``name`` shared by the run's pytest-xdist workers (the parent of
    their own temporary folders), and whether it still has to be made: the first worker
    to ask makes it while holding a lock, the others wait for the lock and find it made
    (its ``done`` file). Where there is no fcntl, or without workers, a folder of this
    process's own."""
    try:
        import fcntl
    except ImportError:
        fcntl = None
    base = tmp_path_factory.getbasetemp()
    if fcntl is None or not os.environ.get("PYTEST_XDIST_WORKER"):
        yield tmp_path_factory.mktemp(name), True
        return
    folder = base.parent / f"shared-{name}"
    with open(base.parent / f"shared-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            made = (folder / "done").exists()
            if not made:   # (a failed attempt is started again from an empty folder)
                shutil.rmtree(folder, ignore_errors=True)
                folder.mkdir()
            yield folder, not made
            if not made:
                (folder / "done").touch()
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    """A copy of the repository to build from."""
    with _once(tmp_path_factory, "source") as (folder, make):
        if make:
            shutil.copytree(ROOT, folder / "meeple", ignore=IGNORE)
    return folder / "meeple"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel of ``MEEPLE_NATIVE=1 pip wheel`` where the C compiler (``CC``) is
    missing: the build says so (its output is kept beside it, ``build.log``) and makes the
    default, pure-Python package (setup.py gives setuptools no extension module either
    way), so it serves the tests of the wheel's files as well as those of the fallback."""
    # built from a copy of its own: another worker may be installing from ``source``, and
    # pip builds in the source folder
    with _once(tmp_path_factory, "wheel") as (out, make):
        if make:
            done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", *ISOLATION, "-v",
                                   "-w", out, _fresh_source(tmp_path_factory)],
                                  cwd=out, env=_env(MEEPLE_NATIVE="1", CC=str(out / "no-such-cc")),
                                  capture_output=True, text=True, timeout=TIMEOUT)
            assert done.returncode == 0, done.stdout + done.stderr
            (out / "build.log").write_text(done.stdout + done.stderr, encoding="utf-8")
    wheels = list(out.glob("meeple-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


class Installed:
    """A fresh virtual environment with Meeple installed (in ``root``, made when
    ``make``), and an empty folder of this process's own to run commands in (``cwd``).
    The environment has no pip of its own: this Python's pip installs into it. With
    ``deps=False`` it sees the system's site-packages and takes the dependencies from
    there (Meeple itself is the one installed in it)."""

    def __init__(self, root: Path, what: Path, cwd: Path, make: bool = True, deps: bool = True):
        self.root = root / "venv"
        if make:
            shared = [] if deps else ["--system-site-packages"]
            subprocess.run([sys.executable, "-m", "venv", "--without-pip", *shared, self.root],
                           check=True, env=_env(), timeout=TIMEOUT)
        bin_ = self.root / ("Scripts" if os.name == "nt" else "bin")
        self.python, self.meeple = bin_ / "python", bin_ / "meeple"
        self.cwd = cwd
        if make:
            alone = [] if deps else ["--no-deps", "--ignore-installed"]
            _ok([sys.executable, "-m", "pip", "--python", self.python, "--disable-pip-version-check",
                 "install", "-q", *alone, what], self.cwd)

    def __call__(self, *args, input: str | None = None, **extra: str) -> str:
        return _ok([self.meeple, *args], self.cwd, input, **extra)


# The short form installs with the README's `pip install .` (which builds the same wheel
# through the same backend); the long form installs the wheel built above too.
@pytest.fixture(scope="module", params=scaled(["wheel", "pip install ."], ["pip install ."]))
def installed(request, tmp_path_factory) -> Installed:
    what = request.getfixturevalue("wheel" if request.param == "wheel" else "source")
    cwd = tmp_path_factory.mktemp("elsewhere")
    with _once(tmp_path_factory, "install-" + request.param.replace(" ", "-")) as (root, make):
        return Installed(root, what, cwd, make)


def test_the_wheel_holds_only_the_meeple_package(wheel: Path):
    names = zipfile.ZipFile(wheel).namelist()
    dist_info = wheel.name.split("-")[0] + "-" + wheel.name.split("-")[1] + ".dist-info/"
    strays = [n for n in names if not n.startswith(("meeple/", dist_info))]
    assert strays == [], f"files outside meeple/ in the wheel: {strays}"
    assert zipfile.ZipFile(wheel).read(dist_info + "top_level.txt").split() == [b"meeple"]
    for stage in ("dsl", "interpreter", "cli", "interpreter/play", "interpreter/native"):
        assert f"meeple/{stage}/__init__.py" in names


def test_the_wheel_holds_every_file_of_the_stages_rulesets_and_schemas(wheel: Path):
    names = set(zipfile.ZipFile(wheel).namelist())
    files = _data_files()
    assert {"meeple/rulesets/cherokee/cherokee.meeple", "meeple/dsl/grammar.lark",
            "meeple/schema/record.schema.json"} <= {inside for _, inside in files}
    missing = [repo for repo, inside in files if inside not in names]
    assert missing == [], f"not in the wheel: {missing}"


def _record(lines: str) -> set[tuple[str, str]]:
    """The files of a RECORD with their hashes, but the installer's own (the bytecode
    it compiled, the scripts, INSTALLER, REQUESTED, direct_url.json and RECORD)."""
    out = set()
    for line in lines.splitlines():
        path, digest, _ = line.rsplit(",", 2)
        name = path.rsplit("/", 1)[-1]
        if digest and not path.startswith("..") and "__pycache__" not in path and \
                name not in ("INSTALLER", "REQUESTED", "direct_url.json", "RECORD"):
            out.add((path, digest))
    return out


def test_the_default_build_installs_the_very_files_of_the_wheel(installed: Installed, wheel: Path):
    # the wheel of the tests above is the fallback of a native build: the default build
    # (``pip install .``) gives the same files, byte for byte
    records = list(installed.root.rglob("meeple-*.dist-info/RECORD"))
    assert len(records) == 1, records
    dist_info = records[0].parent.name
    in_wheel = _record(zipfile.ZipFile(wheel).read(f"{dist_info}/RECORD").decode("utf-8"))
    assert ("meeple/dsl/grammar.lark" in {path for path, _ in in_wheel}
            and f"{dist_info}/METADATA" in {path for path, _ in in_wheel})
    assert _record(records[0].read_text(encoding="utf-8")) == in_wheel


def test_the_installed_package_is_the_one_in_the_venv(installed: Installed):
    out = _ok([installed.python, "-c",
               "import meeple, meeple.dsl, meeple.rulesets, meeple.schema\n"
               "for m in (meeple, meeple.dsl, meeple.rulesets, meeple.schema):\n"
               "    print(*m.__path__, sep='\\n')"], installed.cwd)
    paths = out.split()
    assert len(paths) == 4, paths   # one folder each: not the checkout's extended __path__
    assert all(Path(p).resolve().is_relative_to(installed.root.resolve()) for p in paths), paths
    assert (Path(paths[2]) / "cherokee" / "locales" / "de.meeple").is_file()


def test_help(installed: Installed):
    out = installed("--help")
    assert "Usage:" in out
    assert all(command in out for command in COMMANDS), out


def test_python_m_meeple_help(installed: Installed):
    out = _ok([installed.python, "-m", "meeple", "--help"], installed.cwd)
    assert "Usage:" in out and "meeple" in out
    assert all(command in out for command in COMMANDS), out


def test_the_pygments_lexer_is_registered(installed: Installed):
    out = _ok([installed.python, "-c",
               "from pygments.lexers import get_lexer_by_name, get_lexer_for_filename\n"
               "print(get_lexer_by_name('meeple').name, get_lexer_for_filename('x.meeple').name)"],
              installed.cwd)
    assert out.split() == ["Meeple", "Meeple"], out


def test_list(installed: Installed):
    out = installed("list")
    assert all(name in out for name in RULESETS), out
    assert "Cherokee" in out and "open_clans" in out


def test_validate_a_bundled_ruleset(installed: Installed):
    out = installed("validate", "cherokee")
    assert out.startswith("ok"), out
    assert "Cherokee" in out and "open_clans" in out and "nl" in out


def test_simulate(installed: Installed):
    out = installed("simulate", "cherokee", "--games", "3", "--players", "3", "--seed", "1")
    assert "3 games" in out and "Player 3" in out, out


def test_simulate_natively_with_a_kernel_in_a_plain_install(installed: Installed):
    # the kernel's C++ (interpreter/native/cxx/) is in the package: a C++ compiler is all it needs
    from meeple import interpreter
    if interpreter.kernel_status() is not None:
        pytest.skip(f"no kernel can be built here: {interpreter.kernel_status()}")
    cache = installed.cwd / "kernel-cache"   # (built here, from the installed C++)
    out = installed("simulate", "kalah", "--games", "4", "--native", "--json", "-j", "1",
                    MEEPLE_CACHE_DIR=str(cache))
    assert "building the kernel of kalah (2 players)" in out, out
    assert '"games": 4' in out and "no kernel" not in out, out


def test_meeple_test_property_tests_in_a_plain_install(installed: Installed):
    games = scaled(3, 1)
    out = installed("test", "cherokee", "--examples", str(games))   # needs hypothesis
    assert "ok" in out and f"{games} games" in out and "every invariant held" in out, out


def test_play_with_bots_then_replay(installed: Installed):
    out = installed("play", "cherokee", "--players", "3", "--seed", "5", "--bot", "1=random",
                    "--bot", "2=first", "--bot", "3=random", "--record", "game.json", input="")
    assert "Winner" in out and "Seed: 5" in out, out
    saved = json.loads((installed.cwd / "game.json").read_text(encoding="utf-8"))
    assert saved["ruleset"] == "cherokee" and saved["seed"] == 5 and saved["result"]
    out = installed("replay", "game.json")
    assert "Winner" in out, out


# ---------------------------------------------------------------- the compiled engine
# (MEEPLE_NATIVE=1: interpreter/play/runtime.py, helpers.py, game.py, ordering.py compiled with Cython; setup.py)
# (each ruleset in the short form too, on fewer games)
SAME_GAMES = [["simulate", "hearts", "--games", scaled("12", "4")],
              ["simulate", "cherokee", "--games", scaled("12", "4"), "--players", "3"],
              ["simulate", "clans-and-glory", "--games", scaled("12", "3"), "--players", "4"],
              ["simulate", "brotherhood-of-nine", "--games", scaled("4", "1"), "--players", "4",
               "--variant", "allies"],
              ["simulate", "backgammon", "--games", scaled("3", "1")],
              ["perft", "chess", "--depth", "3"],
              ["perft", "go", "--depth", "2"]]
TIMES = ("seconds", "games_per_second", "elapsed")


def _fresh_source(tmp_path_factory) -> Path:
    """A copy of the repository of its own (pip builds in the source folder: a native
    build leaves compiled modules in its build/, which must not reach another build)."""
    copy = tmp_path_factory.mktemp("fresh-source") / "meeple"
    shutil.copytree(ROOT, copy, ignore=IGNORE)
    return copy


@pytest.fixture(scope="module")
def native_wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("native-wheel")
    source = _fresh_source(tmp_path_factory)
    # built unoptimised, as the suite builds the other native code: the same code, built
    # in a quarter of the time
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", *ISOLATION, "-q", "-w", out,
                           source],
                          cwd=out, env=_env(MEEPLE_NATIVE="1", CFLAGS="-O0 -g0"),
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stdout + done.stderr
    return next(out.glob("meeple-*.whl"))


def _results(text: str) -> dict:
    data = json.loads(text)
    for key in TIMES:
        data.pop(key, None)
    return data


# the command lines of SAME_GAMES, each as `meeple` runs it (cli/main.py's main, its exit
# code checked), one after the other in one Python: whether the engine is the compiled
# one, then the output of each (a process each would cost a second of start-up each)
RUN_ALL = """import contextlib, io, json, sys
from meeple import interpreter
from meeple.cli.main import main
docs = []
for args in json.loads(sys.argv[1]):
    sys.argv, out = ["meeple", *args], io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            main()
            code = 0
        except SystemExit as e:
            code = e.code
    assert code in (0, None), (args, code, out.getvalue())
    docs.append(out.getvalue())
print(json.dumps({"compiled": interpreter.compiled_engine(), "outputs": docs}))
"""


# the checkout's modules, as the other tests' commands read them (tests/conftest.py)
RUN_BYTECODE = {"PYTHONPYCACHEPREFIX": os.environ["PYTHONPYCACHEPREFIX"]} \
    if "PYTHONPYCACHEPREFIX" in os.environ else {}


def _run_all(python, cwd: Path, env: dict[str, str] | None = None) -> tuple[bool, list[dict]]:
    commands = [args + (["-j", "1"] if args[0] == "simulate" else []) + ["--json"]
                for args in SAME_GAMES]
    done = json.loads(_ok([python, "-c", RUN_ALL, json.dumps(commands)], cwd, **(env or {})))
    return done["compiled"], [_results(text) for text in done["outputs"]]


def test_the_compiled_engine_plays_exactly_the_games_of_the_python_one(native_wheel: Path, tmp_path_factory):
    names = zipfile.ZipFile(native_wheel).namelist()
    for module in ("runtime", "helpers", "game", "ordering"):
        assert any(n.startswith(f"meeple/interpreter/play/{module}.") and n.endswith((".so", ".pyd")) for n in names), names
    native = Installed(tmp_path_factory.mktemp("native"), native_wheel, tmp_path_factory.mktemp("elsewhere"),
                       deps=False)
    assert native("--version").endswith(" (compiled engine)\n")
    compiled, compiled_results = _run_all(native.python, native.cwd)
    plain, python_results = _run_all(sys.executable, ROOT, RUN_BYTECODE)
    assert (compiled, plain) == (True, False)
    assert len(compiled_results) == len(python_results) == len(SAME_GAMES)
    for args, a, b in zip(SAME_GAMES, compiled_results, python_results):
        assert a == b, args


def test_the_backend_asks_for_cython_only_for_the_compiled_engine(tmp_path):
    # what pip installs into an isolated build environment (pyproject.toml's
    # build-system requires, then what tools/build_backend.py asks for), asked of the
    # backend as pip asks it (the short form builds the wheels without isolation); no C
    # compiler: setup.py translates nothing while it is asked
    ask = ("import json, build_backend\n"
           "print(json.dumps(build_backend.get_requires_for_build_wheel()))")
    source = tmp_path / "meeple"
    shutil.copytree(ROOT, source, ignore=IGNORE)
    for native, cython in (("1", True), ("", False)):
        out = _ok([sys.executable, "-c", ask], source, PYTHONPATH=str(source / "tools"),
                  MEEPLE_NATIVE=native, CC=str(tmp_path / "no-such-cc"))
        asked = json.loads(out.splitlines()[-1])
        assert ("cython>=3.0" in asked) == cython, (native, asked)


def test_without_a_compiler_the_native_build_installs_the_python_engine(wheel: Path):
    said = (wheel.parent / "build.log").read_text(encoding="utf-8")
    assert "meeple: the compiled engine is left out (OSError: no C compiler:" in said, said
    assert "no-such-cc" in said
    assert not [n for n in zipfile.ZipFile(wheel).namelist() if n.endswith((".so", ".pyd"))]
