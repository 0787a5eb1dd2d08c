"""``meeple bots``: the bots with their options and defaults."""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import jsonout
from .common import out
from .options import json_option, no_color_option

if TYPE_CHECKING:   # (imported where used: `meeple <command> --help` loads no interpreter)
    pass

NAME = "bots"


def command(
    json_out: bool = json_option("the bots and their options"),
    no_color: bool = no_color_option(),
) -> None:
    """List the bots with their options and defaults. A bot is given as
    NAME[:KEY=VALUE,...], e.g. --bot 2=ismcts:iterations=400 or --bot 2=mcts:time=1.5."""
    from rich.table import Table
    from rich.text import Text

    from ..interpreter.bots import describe as describe_bots
    jout = jsonout.begin("bots", json_out)
    bots = describe_bots()
    if jout.on:
        jout.emit({"ok": True, "bots": bots})
        return
    console = out()
    for b in bots:
        console.print(Text(b["name"], style="bold") + Text(f": {b['description']}"))
        table = Table(box=None, show_header=False, padding=(0, 1, 0, 4))
        for o in b["options"]:
            default = "-" if o["default"] is None else str(o["default"])
            table.add_row(f"{o['name']}={o['type']}", default, o["help"])
        if b["options"]:
            console.print(table)
