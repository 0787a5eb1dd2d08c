"""--backend ray: the same games on a (local) Ray instance give the same numbers as the
local run, for simulate, arena and test. Ray is in the test extra where PyPI has its
wheels (pyproject.toml); elsewhere this module is skipped, saying so."""
from __future__ import annotations

import json

import pytest

from test_arena import meeple, reproducible

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'meeple[ray]')")


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
