"""The error of a saved state that is not valid, and what its checks share (state.py,
frames.py): a located message, the name of a value's kind, the bound of an integer."""
from __future__ import annotations

INT_LIMIT = 2 ** 64        # any integer in a state is below this in size


class StateError(ValueError):
    """A saved game state that is not valid for the program (nothing was changed)."""

    code = "state/invalid"


def _bad(where: str, message: str) -> StateError:
    return StateError(f"invalid state at {where}: {message}")


def _kind(v) -> str:
    return {bool: "true/false", int: "an integer", float: "a fraction", str: "a text",
            list: "a list", dict: "an object", type(None): "none"}.get(type(v), type(v).__name__)
