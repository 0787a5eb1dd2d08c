"""Environment variables that take one of a few values, checked in one place: a value a
variable does not take is an error that names the variable, the value and the values it
takes (``SettingError``), never read as one of them. Standard library only: the command
line imports it before any command (cli/main.py turns the error into exit code 2)."""
from __future__ import annotations

import os


class SettingError(ValueError):
    """An environment variable set to a value it does not take. ``name``, ``value`` and
    ``allowed`` (each value it takes, with what it means) say which; ``hint`` lists them."""

    def __init__(self, name: str, value: str, allowed: dict[str, str]):
        self.name, self.value, self.allowed = name, value, dict(allowed)
        super().__init__(f"the environment variable {name} is {value!r}, not a value it takes")
        self.hint = f"{name} takes " + ", ".join(
            f"{v!r} ({meaning})" if v else f"nothing (unset or empty: {meaning})"
            for v, meaning in self.allowed.items())


def choice(name: str, value: str, allowed: dict[str, str]) -> str:
    """``value``, the value of the variable ``name``, when ``allowed`` has it; else
    raises SettingError."""
    if value not in allowed:
        raise SettingError(name, value, allowed)
    return value


ON, OFF = ("1", "true", "yes", "on"), ("0", "false", "no", "off")

# The switches: environment variables that turn something on or off, each with what it
# means on, off, and whether it is on when unset (docs/cli.md, "Environment variables").
SWITCHES: dict[str, tuple[str, str, bool]] = {
    "MEEPLE_KERNEL": ("kernels where a compiler is", "no kernels", True),
    "MEEPLE_KERNEL_QUICK": ("a quick kernel first, the optimised one built in the background",
                            "the optimised kernel built at once", True),
    "MEEPLE_KERNEL_PCH": ("the kernels' runtime precompiled once", "the runtime compiled with each kernel", True),
    "MEEPLE_KERNEL_PGO": ("the background build guided by a profile of random games", "the plain optimised build",
                          True),
    "MEEPLE_KERNEL_AREAS": ("the sizes of groups of cells counted by bits in kernels",
                            "those groups walked as lists (to compare)", True),
    "MEEPLE_NO_CACHE": ("no cache", "the cache used", False),
    "MEEPLE_NO_NATIVE": ("Python by default", "kernels by default", False),
    "MEEPLE_PLAIN_INPUT": ("plain lines read", "the line editor where it can be had", False),
}


def on(name: str) -> bool:
    """Whether the switch ``name`` (one of ``SWITCHES``) is on: ``1``, ``true``, ``yes`` or
    ``on`` is on, ``0``, ``false``, ``no`` or ``off`` off (in any case, spaces around
    ignored), nothing (unset or empty) its default; any other value raises SettingError."""
    yes, no, default = SWITCHES[name]
    value = os.environ.get(name, "")
    word = value.strip().lower()
    if not word:
        return default
    if word in ON or word in OFF:
        return word in ON
    error = SettingError(name, value, {"1": yes, "0": no, "": yes if default else no})
    error.hint += " (also true/false, yes/no, on/off)"
    raise error


def check() -> None:
    """Raises SettingError for the first switch set to a value it does not take (the
    command line checks them all before a command runs, not only those it reads)."""
    for name in SWITCHES:
        on(name)
