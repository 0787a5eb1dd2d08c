"""The ``meeple`` command: validate rulesets, play them in the terminal (hot seat, with
bots), simulate many games with bots, and replay game records.

The app is assembled here, in one way: each command is a module ``cli/cmd_<name>.py``
that names its command (``NAME``) and defines it as one function, ``command``, whose
parameters are its arguments and options; ``COMMANDS`` lists those modules in the order
of ``--help``. What they share lives beside them (``common``, ``options``, ``batch``,
``recorded``), never in this module. Every other list of commands (the --json formats,
the tests) is read from the app."""
from __future__ import annotations

import os
import sys

import typer
import typer.exceptions

from .. import __version__, interpreter
from . import (
    cmd_arena,
    cmd_bots,
    cmd_cache,
    cmd_list,
    cmd_lsp,
    cmd_perft,
    cmd_play,
    cmd_replay,
    cmd_rulebook,
    cmd_simulate,
    cmd_test,
    cmd_validate,
    foreign,
    jsonout,
    render,
)
from .common import interrupted
from .options import NO_COLOR_HELP, no_colour

COMMANDS = (cmd_validate, cmd_list, cmd_bots, cmd_play, cmd_perft, cmd_simulate, cmd_replay,
            cmd_lsp, cmd_cache, cmd_test, cmd_rulebook, cmd_arena)

app = typer.Typer(
    name="meeple",
    help="Meeple: validate, play, simulate and replay games written in the Meeple rules language.",
    no_args_is_help=True,
    add_completion=True,    # --install-completion, --show-completion
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},   # inherited by every command
)

for _module in COMMANDS:
    app.command(_module.NAME)(_module.command)


def _show_version(value: bool) -> None:
    if value:
        print(f"meeple {__version__}" + (" (compiled engine)" if interpreter.compiled_engine() else ""))
        raise typer.Exit(0)


@app.callback()
def _options(
    version: bool = typer.Option(False, "--version", "-V", callback=_show_version,
                                 is_eager=True, help="Print 'meeple VERSION' and exit."),
    no_color: bool = typer.Option(False, "--no-color", callback=no_colour, is_eager=True,
                                  help=NO_COLOR_HELP),
    no_cache: bool = typer.Option(False, "--no-cache",
                                  help="Neither read nor write the cache of compiled rulesets "
                                       "(also: MEEPLE_NO_CACHE=1); see 'meeple cache'."),
) -> None:
    """Meeple: validate, play, simulate and replay games written in the Meeple rules language."""
    # the options of one command line only (tests run many in one process)
    jsonout.reset()
    render.set_colour(not no_color)
    interpreter.use_cache(not no_cache)


def command_names() -> list[str]:
    """The names of the app's commands, in the order of --help."""
    return list(typer.main.get_command(app).commands)


def json_commands() -> list[str]:
    """The commands that take --json (each writes the format meeple-COMMAND/1)."""
    group = typer.main.get_command(app)
    return [name for name, c in group.commands.items()
            if any("--json" in p.opts for p in c.params)]


def _prog_name() -> str:
    """How usage lines and completion scripts name the command: 'python -m meeple' when
    run so, else 'meeple' (the console script, or main() called by another program)."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    return "python -m meeple" if spec is not None and spec.name in ("meeple", "meeple.__main__") \
        else "meeple"


class _LiteralStream:
    """A text stream that writes everything through ``render.literal``: click's own
    messages (a bad option value, a missing argument) quote what the user typed."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, s: str) -> int:
        return self._stream.write(render.literal(s))

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _run_app():
    try:
        return app(standalone_mode=False, prog_name=_prog_name())
    finally:
        foreign.command_over()


def main() -> None:
    """The ``meeple`` command (see cli/entry.py): the app, with Ctrl-C anywhere exiting
    130 and never a traceback (``play`` saves its record before), and click's usage
    errors printed with the typed values escaped. Exit codes: 0, 1, 2, 130."""
    jsonout.reset()
    try:
        code = _run_app()
    except typer.exceptions.TyperException as e:   # click's usage errors: exit 2
        stream = _LiteralStream(sys.stderr)
        if callable(getattr(e, "show", None)):
            e.show(file=stream)
        else:  # pragma: no cover - every such error has show() today
            stream.write(f"error: {e.format_message()}\n")
        code = e.exit_code
    except typer.Abort as e:
        # click turns Ctrl-C (and the end of the input in its own prompts) into Abort
        if isinstance(e.__context__, KeyboardInterrupt):
            code = interrupted()
        else:
            sys.stderr.write("Aborted!\n")
            code = 1
    except KeyboardInterrupt:
        code = interrupted()
    except BrokenPipeError:
        # the output was closed (`meeple ... | head`): stop quietly, as other tools do
        # (`play` saves its game first); what Python still holds for it is dropped
        _drop_stdout()
        code = 1
    sys.exit(code if isinstance(code, int) else 0)


def _drop_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":  # pragma: no cover
    main()
