"""The C++ each kernel would be built from, hashed, for every bundled ruleset and every
ruleset of tests/testdata (a folder with a ``.meeple`` file, or a single file): a pass
that should change no kernel but some is checked by running this before and after it
and comparing (``diff``). Nothing is compiled: the source a kernel's build is handed is
hashed, and the build stopped. The first player count the ruleset takes of 2, 3, 4, 1.

    python3 benchmarks/kernel_sources.py > before.txt   # (then again after, and diff)

``--games``: the C++ after the runtime every kernel starts with (a change of the
runtime's headers changes every kernel's C++; this tells which games' own code changed).

Each line: the ruleset's name and the first 12 hex digits of the SHA-1 of its kernel's
C++ ("-": no kernel was asked for; "ERR" and the error's kind where loading failed).
"""
from __future__ import annotations

import hashlib
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from meeple.interpreter.native import kernel  # noqa: E402
from meeple.interpreter.native.kernel_types import runtime_cxx  # noqa: E402

from meeple import interpreter  # noqa: E402


def rulesets() -> list[str]:
    names = sorted(p.name for p in (ROOT / "rulesets").iterdir() if p.is_dir())
    data = ROOT / "tests" / "testdata"
    names += sorted(str(p) for p in data.iterdir()
                    if (p.is_dir() and any(p.glob("*.meeple"))) or p.suffix == ".meeple")
    return names


def main() -> None:
    warnings.simplefilter("ignore")
    seen: list[str] = []

    runtime = runtime_cxx() if "--games" in sys.argv[1:] else ""

    def hashed(source: str, on_build=None):
        own = source.split(runtime, 1)[1] if runtime and runtime in source else source
        seen.append(hashlib.sha1(own.encode()).hexdigest()[:12])
        raise kernel.KernelError("hashed, not built")

    kernel.load_or_build = hashed
    for name in rulesets():
        seen.clear()
        try:
            rules = interpreter.load(name, native=True, cache=False)
            for players in (2, 3, 4, 1):
                try:
                    program = rules.for_players(players)
                except (ValueError, interpreter.MeepleError):
                    continue
                _ = program.kernel
                break
            text = " ".join(seen) or "-"
        except Exception as e:  # noqa: BLE001 - said on its line, the others still hashed
            text = (" ".join(seen) + " ERR " + type(e).__name__).strip()
        print(Path(name).name, text, flush=True)


if __name__ == "__main__":
    main()
