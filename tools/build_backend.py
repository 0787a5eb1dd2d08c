"""The build backend: setuptools' own, which also asks for Cython when
``MEEPLE_NATIVE=1`` asks for the compiled engine (setup.py says what that is).

    MEEPLE_NATIVE=1 pip install .      # the engine compiled with Cython and the C compiler
    pip install .                      # pure Python (the default)
"""
from __future__ import annotations

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 - every hook of setuptools' backend

CYTHON = "cython>=3.0"


def _native() -> list[str]:
    return [CYTHON] if os.environ.get("MEEPLE_NATIVE") == "1" else []


def get_requires_for_build_wheel(config_settings=None):
    return _setuptools.get_requires_for_build_wheel(config_settings) + _native()
