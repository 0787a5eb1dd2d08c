"""--backend ray: the same games on a (local) Ray instance give the same numbers as the
local run, for simulate, arena and test; stdout holds only what Meeple writes (the
--json document) even when Ray reports a worker killed; a cluster that cannot be
reached or started is one line on stderr and exit 1. Ray is in the test extra where
PyPI has its wheels (pyproject.toml); elsewhere this module is skipped, saying so."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from console import meeple_cli
from test_arena import meeple, reproducible

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'meeple[ray]')")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def local_ray():
    """One small local Ray instance for the module; the commands find it running."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def test_ray_gives_the_same_numbers_as_the_local_run(local_ray):
    commands = [
        ["simulate", "kalah", "--games", 6, "--seed", 4, "--json", "-q"],
        ["arena", "kalah", "random", "first", "--games", 5, "--seed", 1, "--json", "-q"],
        ["test", "kalah", "--examples", 4, "--seed", 2, "--json", "-q"],
    ]
    for args in commands:
        here = meeple(*args, "--jobs", 1)
        there = meeple(*args, "--backend", "ray")
        assert here.code == there.code == 0, (here, there)
        assert reproducible(json.loads(here.out)) == reproducible(json.loads(there.out)), args
    assert ray.is_initialized()   # a command leaves a Ray instance it did not start running


class Watching(io.StringIO):
    """A stream that makes the file ``marker`` once ``text`` has been written to it."""

    def __init__(self, text: str, marker: Path):
        super().__init__()
        self.text, self.marker = text, marker

    def write(self, s: str) -> int:
        n = super().write(s)
        if self.text in self.getvalue() and not self.marker.exists():
            self.marker.touch()
        return n


def killing_a_worker(tmp_path: Path, monkeypatch, always: bool = False) -> Path:
    """The tasks Meeple sends to Ray, wrapped: the first one run kills its worker (every
    one, with ``always``: then Ray does not try again); the others wait until what Ray
    reports of it has been printed (the file returned appears), so that it is printed
    while the command runs."""
    died, said = str(tmp_path / "died"), tmp_path / "said"
    real_remote = ray.remote
    told = str(said)

    def remote(fn):
        def dies(*args):
            import os
            import time
            if always or not os.path.exists(died):
                open(died, "w").close()
                os._exit(1)                  # as if killed
            deadline = time.monotonic() + 60   # (only against a hang)
            while not os.path.exists(told) and time.monotonic() < deadline:
                time.sleep(0.05)
            return fn(*args)
        return real_remote(max_retries=0)(dies) if always else real_remote(dies)
    monkeypatch.setattr(ray, "remote", remote)
    return said


def test_a_worker_killed_mid_run_leaves_stdout_to_the_json_document(local_ray, tmp_path, monkeypatch):
    # Ray prints "(raylet) A worker died..." on stdout, from a thread of its own
    args = ["simulate", "kalah", "--games", 6, "--seed", 4, "--json", "-q"]
    here = meeple(*args, "--jobs", 1)
    said = killing_a_worker(tmp_path, monkeypatch)
    out, err = Watching("A worker died", said), Watching("A worker died", said)
    there = meeple_cli(*args, "--backend", "ray", out=out, err=err)
    assert there.code == 0, there
    assert reproducible(json.loads(there.out)) == reproducible(json.loads(here.out))   # Ray tried again
    assert "A worker died" in there.err


def test_a_worker_that_always_dies_is_an_error_and_stdout_only_its_document(local_ray, tmp_path, monkeypatch):
    said = killing_a_worker(tmp_path, monkeypatch, always=True)
    out, err = Watching("A worker died", said), Watching("A worker died", said)
    run = meeple_cli("simulate", "kalah", "--games", 4, "--json", "-q", "--backend", "ray", out=out, err=err)
    assert run.code == 1, run
    doc = json.loads(run.out)
    assert doc["ok"] is False and "a Ray worker ended without finishing its task" in doc["error"]["message"]
    assert "error: a Ray worker ended without finishing its task" in run.err


def cli(*args, **env) -> subprocess.CompletedProcess:
    """``python -m meeple ARGS`` in a process of its own, not connected to Ray (nor told
    of a cluster but by ``env``)."""
    env = {**{k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}, **env}
    return subprocess.run([sys.executable, "-m", "meeple", *map(str, args)], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=False, timeout=300)   # (only against a hang)


@pytest.mark.parametrize("how", ["--address", "RAY_ADDRESS", "RAY_TMPDIR"])
def test_a_ray_that_cannot_start_is_one_line_and_exit_1(how, tmp_path):
    # an address where nothing answers (Ray itself tried again for some 12 minutes), and
    # a local instance that cannot start (a traceback)
    args, env = ["simulate", "kalah", "--games", 2, "--json", "--backend", "ray"], {}
    if how == "--address":
        args += ["--address", "127.0.0.1:1"]
    elif how == "RAY_ADDRESS":
        env["RAY_ADDRESS"] = "127.0.0.1:1"
    else:
        (tmp_path / "a-file").write_text("not a folder")
        env["RAY_TMPDIR"] = str(tmp_path / "a-file" / "ray")
    done = cli(*args, **env)
    assert done.returncode == 1, done.stderr
    doc = json.loads(done.stdout)
    assert doc["ok"] is False and "\n" not in doc["error"]["message"]
    errors = [line for line in done.stderr.splitlines() if line.startswith("error: ")]
    assert errors == [f"error: {doc['error']['message']}"]
    assert "Traceback" not in done.stderr
    want = "cannot start a local Ray instance" if how == "RAY_TMPDIR" else \
        "cannot connect to Ray at 127.0.0.1:1: nothing answers there"
    assert doc["error"]["message"].startswith(want)
