"""The compiled engine, built only when asked: ``MEEPLE_NATIVE=1 pip install .``
compiles the interpreter's run loop and its helpers (interpreter/play/runtime.py,
helpers.py, game.py and ordering.py, the same source) with Cython and the C compiler. Where that
fails (no compiler, a Cython error), the build says so and installs the pure-Python
modules, which are the default and behave exactly the same. Everything else about the
package is in pyproject.toml."""
from __future__ import annotations

import os
import shutil
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# modules of interpreter/ compiled natively (dotted paths below interpreter/)
ENGINE = ("play.runtime", "play.helpers", "play.game", "play.ordering")
BUILDING = any(word in sys.argv for word in ("bdist_wheel", "build_ext", "build", "install"))


def _left_out(what: str, e: BaseException) -> None:
    print(f"meeple: {what} is left out ({type(e).__name__}: {e}); it runs as Python, "
          "which gives the same games", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """Each compiled module is optional: one that fails to build is left out."""

    def run(self):
        try:
            super().run()
        except Exception as e:  # noqa: BLE001 - e.g. no C compiler at all
            _left_out("the compiled engine", e)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as e:  # noqa: BLE001 - the Python module serves
            _left_out(ext.name, e)


def _no_compiler() -> str | None:
    """Why the C compiler cannot be there (None: it may be): checked before Cython
    translates the modules (half a minute) only to find no compiler to build them."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "").split()
    if cc and shutil.which(cc[0]) is None:
        return f"no C compiler: {cc[0]!r} is not found"
    return None


def engine() -> list:
    if os.environ.get("MEEPLE_NATIVE") != "1":
        return []
    why = _no_compiler()
    if why is not None:
        if BUILDING:
            _left_out("the compiled engine", OSError(why))
        return []
    try:
        from Cython.Build import cythonize
        modules = [Extension(f"meeple.interpreter.{name}", [f"interpreter/{name.replace('.', '/')}.py"])
                   for name in ENGINE]
        return cythonize(modules, build_dir=os.path.join("build", "cython"), quiet=True,
                         compiler_directives={"language_level": "3",
                                              # the annotations are hints, as in Python
                                              "annotation_typing": False})
    except Exception as e:  # noqa: BLE001 - the pure-Python package serves
        if BUILDING:    # (not while pip only asks what the build needs)
            _left_out("the compiled engine", e)
        return []


setup(ext_modules=engine(), cmdclass={"build_ext": OptionalBuildExt})
