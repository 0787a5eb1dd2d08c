"""``meeple cache``: where the cache of compiled rulesets is and what it holds, or clear it."""
from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from .common import fail, out
from .options import no_color_option

if TYPE_CHECKING:   # (imported where used: `meeple <command> --help` loads no interpreter)
    pass

NAME = "cache"


def command(
    action: str = typer.Argument("info", metavar="[info|clear]",
                                 help="info: where the cache is and what it holds; "
                                      "clear: remove every entry."),
    no_color: bool = no_color_option(),
) -> None:
    """The cache of compiled rulesets (and of the grammar's tables) that makes loading
    a ruleset fast the second time: where it is, how big, or clear it. Its folder is
    MEEPLE_CACHE_DIR, else XDG_CACHE_HOME/meeple, else ~/.cache/meeple; MEEPLE_NO_CACHE=1
    or --no-cache turns it off."""
    from .. import interpreter
    if action not in ("info", "clear"):
        raise fail(f"unknown action '{action}'; choose info or clear", 2)
    console = out()
    if action == "clear":
        n = interpreter.clear_cache()
        console.print(f"removed {n} entr{'y' if n == 1 else 'ies'} from "
                      f"{interpreter.cache_info()['folder']}", markup=False, soft_wrap=True)
        return
    info = interpreter.cache_info()
    state = "on" if info["enabled"] and info["trusted"] else \
        ("off" if not info["enabled"] else f"not used: {info['reason']}")
    console.print(f"folder:  {info['folder']}", markup=False, soft_wrap=True)
    console.print(f"state:   {state}", markup=False, soft_wrap=True)
    console.print(f"entries: {info['entries']} ({info['bytes'] / 1e6:.1f} MB)", markup=False)
    native = info["native"]
    if native["entries"]:
        console.print(f"native:  {native['entries']} module(s) ({native['bytes'] / 1e6:.1f} MB; "
                      f"kernels, --native)", markup=False)
