"""Environment variables that take one of a few values, checked in one place: a value a
variable does not take is an error that names the variable, the value and the values it
takes (``SettingError``), never read as one of them. Standard library only: the command
line imports it before any command (cli/main.py turns the error into exit code 2)."""
from __future__ import annotations


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
