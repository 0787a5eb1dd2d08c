"""The ``meeple`` command: validate rulesets, play them in the terminal (hot seat, with
bots), simulate many games with bots, and replay game records.

The app is assembled here, in one way: each command is a module ``cli/cmd_<name>.py``
that names its command (``NAME``) and defines it as one function, ``command``, whose
parameters are its arguments and options; ``COMMANDS`` lists those modules in the order
of ``--help``. What they share lives beside them (``common``, ``options``, ``batch``,
``recorded``), never in this module. Every other list of commands (the --json formats,
the tests) is read from the app."""
from __future__ import annotations

import importlib
import os
import sys
from collections.abc import MutableMapping
from pathlib import Path

import typer
import typer.core
import typer.exceptions
import typer.main
import typer.models

from ..dsl import settings
from ..dsl.settings import SettingError
from . import foreign, jsonout
from .codes import interrupted
from .options import NO_COLOR_HELP, no_colour, set_colour
from .version import compiled_engine, version_line  # noqa: F401 - compiled_engine: API

# the command modules, in the order of --help; each is imported when its command is
# first needed (to run it, or for a help that shows it): `meeple --version` imports none,
# `meeple list` only cmd_list
COMMANDS = ("cmd_validate", "cmd_list", "cmd_bots", "cmd_play", "cmd_perft", "cmd_simulate",
            "cmd_replay", "cmd_lsp", "cmd_cache", "cmd_test", "cmd_rulebook", "cmd_arena",
            "cmd_serve")


class _Lazy(MutableMapping):
    """The app's commands by name, in the order of ``COMMANDS``: each built (by Typer,
    from its module's ``command``) when first looked up."""

    def __init__(self):
        self._built: dict = {}

    def __getitem__(self, name: str):
        if name not in self._built:
            if f"cmd_{name}" not in COMMANDS:
                raise KeyError(name)
            module = importlib.import_module(f"{__package__}.cmd_{name}")
            info = typer.models.CommandInfo(name=module.NAME, callback=module.command, cls=_Command)
            self._built[name] = typer.main.get_command_from_info(
                info, pretty_exceptions_short=app.pretty_exceptions_short,
                rich_markup_mode=app.rich_markup_mode)
        return self._built[name]

    def __iter__(self):
        return (m.removeprefix("cmd_") for m in COMMANDS)

    def outline(self, name: str):
        """The command as built, or, when it is not yet, one with its name and help only:
        the docstring of its module's ``command``, read from the source (not imported),
        for the list of commands of ``meeple --help``."""
        if name in self._built:
            return self._built[name]
        try:
            source = Path(__file__).with_name(f"cmd_{name}.py").read_text(encoding="utf-8")
            function = _command_function(source)
        except (OSError, ValueError, SyntaxError, StopIteration):   # no source: import it
            return self[name]
        import ast
        return typer.core.TyperCommand(name=name, help=ast.get_docstring(function))

    def __len__(self) -> int:
        return len(COMMANDS)

    def __setitem__(self, name: str, command) -> None:
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        raise TypeError("the commands of meeple are fixed")


def _command_function(source: str):
    """The ``command`` function of a command module's source, as ``ast`` reads it: from
    its ``def`` to the end of its docstring only where that reads as the same function
    (parsing a whole module was a quarter of ``meeple --help``), else the whole source.
    StopIteration when there is none."""
    import ast
    start = source.find("\ndef command(")
    opening = source.find('"""', start) if start >= 0 else -1
    closing = source.find('"""', opening + 3) if opening >= 0 else -1
    if closing >= 0:
        try:
            head = ast.parse(source[start + 1:closing + 3]).body
        except SyntaxError:
            head = []
        if len(head) == 1 and isinstance(head[0], ast.FunctionDef) and head[0].name == "command" \
                and ast.get_docstring(head[0]) is not None:
            return head[0]
    return next(n for n in ast.parse(source).body
                if isinstance(n, ast.FunctionDef) and n.name == "command")


def _unset_flags_false(params) -> None:
    """Typer's own flags (--help, --install-completion, --show-completion) are None when
    not given, and Typer builds a pydantic validator to coerce that None to a bool: a
    quarter of a second of imports on every command line. False means the same to their
    callbacks (they act on a true value only) and Typer passes a bool as it is."""
    for p in params:
        if p.name in _TYPER_FLAGS and getattr(p, "is_flag", False) and p.default is None:
            p.default = False


_TYPER_FLAGS = ("help", "install_completion", "show_completion")


class _FlagsFalse:
    def get_params(self, ctx):
        params = super().get_params(ctx)
        _unset_flags_false(params)
        return params


class _Command(_FlagsFalse, typer.core.TyperCommand):
    """A command of the app (see ``_unset_flags_false``)."""


class _Commands(_FlagsFalse, typer.core.TyperGroup):
    """The app's group: its commands are imported one by one, as they are needed."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.commands = _Lazy()

    def format_commands(self, ctx, formatter) -> None:
        """The list of commands of ``meeple --help``, without importing them."""
        lazy = self.commands
        assert isinstance(lazy, _Lazy)
        self.commands = {name: lazy.outline(name) for name in lazy}
        try:
            super().format_commands(ctx, formatter)
        finally:
            self.commands = lazy


app = typer.Typer(
    name="meeple",
    cls=_Commands,
    help="Meeple: validate, play, simulate and replay games written in the Meeple rules language.",
    no_args_is_help=True,
    add_completion=True,    # --install-completion, --show-completion
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},   # inherited by every command
)


def _show_version(value: bool) -> None:
    if value:
        print(version_line())
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
    from ..dsl import diskcache
    jsonout.reset()
    set_colour(not no_color)
    diskcache.set_enabled(not no_cache)    # interpreter.use_cache, without loading it


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
        from . import render
        return self._stream.write(render.literal(s))

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _run_app():
    settings.check()   # every switch, not only those the command reads (a typo is seen)
    try:
        return app(standalone_mode=False, prog_name=_prog_name())
    finally:
        foreign.command_over()


def main() -> None:
    """The ``meeple`` command (see cli/entry.py): the app, with Ctrl-C anywhere exiting
    130 and never a traceback (``play`` saves its record before), and click's usage
    errors printed with the typed values escaped, an environment variable set to a value it
    does not take (dsl/settings.py) as usage errors too. Exit codes: 0, 1, 2, 130."""
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
    except SettingError as e:   # an environment variable's value it does not take: usage
        from .common import error
        error(str(e), e.hint)
        code = 2
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
