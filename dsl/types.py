"""The checker's types. A type is a small frozen value: ``T("int")``, ``T("item", "Card")``,
``T("cell", "board")``, ``T("zone", "Card")``, ``T("list", T(...))``."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class T:
    tag: str  # int bool str player none enum item cell zone list tuple board error
    arg: str | T | None = None
    parts: tuple[T, ...] = ()   # a tuple's: the types of its parts

    def __str__(self) -> str:
        match self.tag:
            case "list":
                return f"list of {self.arg}"
            case "tuple":
                return "(" + ", ".join(map(str, self.parts)) + ")"
            case "item" | "enum":
                return str(self.arg)
            case "cell":
                return f"cell of {self.arg}"
            case "zone":
                return f"zone of {self.arg}"
            case "board":
                return f"board {self.arg}"
            case "error":
                return "?"
        return self.tag

    @property
    def is_error(self) -> bool:
        return self.tag == "error"


def tuple_of(parts) -> T:
    """The type of a tuple of parts of these types."""
    return T("tuple", None, tuple(parts))


# the types of a tuple's parts: values a move's notation writes by themselves
TUPLE_PARTS = ("int", "str", "bool", "player", "cell", "enum", "none", "error")

INT, BOOL, STR, PLAYER, NONE, ERROR = T("int"), T("bool"), T("str"), T("player"), T("none"), T("error")
NULLABLE = ("item", "cell", "player", "enum")


def type_code(t: T) -> str:
    """How a value of this type is written in moves and records."""
    if t.tag == "list":
        return "list:" + type_code(t.arg)
    if t.tag == "enum":
        return f"enum:{t.arg}"
    if t.tag == "tuple":
        return "tuple(" + ",".join(map(type_code, t.parts)) + ")"
    return t.tag


def tuple_parts(code: str) -> list[str]:
    """The type codes of the parts of a tuple's type code (``tuple(cell,enum:Turn)``)."""
    parts, depth, start = [], 0, 6
    for i, ch in enumerate(code[6:-1], 6):
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            parts.append(code[start:i])
            start = i + 1
    parts.append(code[start:-1])
    return parts


def has_none(t: T) -> bool:
    """Whether a type is ``none`` or a list of it (``[]``, ``[[]]``): a value that a
    declared type may give its type."""
    return t.tag == "none" or (t.tag == "list" and isinstance(t.arg, T) and has_none(t.arg))


def written(t: T) -> str | None:
    """How a type is written in the rules (``list of grid`` for a list of cells of the
    board ``grid``), or None for one that cannot be written (a tuple)."""
    match t.tag:
        case "list":
            inner = written(t.arg) if isinstance(t.arg, T) else None
            return None if inner is None else f"list of {inner}"
        case "item" | "enum" | "cell":
            return str(t.arg)
        case "zone":
            return "zone" if t.arg == "?" else f"zone of {t.arg}"
        case "int" | "bool" | "str" | "player":
            return t.tag
    return None


def list_of(t: T) -> T:
    return T("list", t)


def compatible(expected: T, got: T) -> bool:
    """Whether a value of type ``got`` may stand where ``expected`` is wanted."""
    if expected.is_error or got.is_error or expected == got:
        return True
    if got.tag == "none" and expected.tag in NULLABLE:
        return True
    if expected.tag == "list" and got.tag == "list":
        return got.arg.tag == "none" or compatible(expected.arg, got.arg)
    if expected.tag == "tuple" and got.tag == "tuple":
        return len(expected.parts) == len(got.parts) and all(map(compatible, expected.parts, got.parts))
    if expected.tag == "zone" and got.tag == "cell":
        return True  # a cell holds items like any zone (kind checked separately)
    if expected == T("zone", "?") and got.tag == "zone":
        return True  # the type `zone`: a zone of any kind
    return False


def unify(a: T, b: T) -> T | None:
    """The common type of two branches, or None."""
    if a.tag == "tuple" and b.tag == "tuple" and len(a.parts) == len(b.parts):
        parts = [unify(x, y) for x, y in zip(a.parts, b.parts)]
        return None if None in parts else tuple_of(parts)
    la, lb = a.arg, b.arg
    if isinstance(la, T) and isinstance(lb, T) and a.tag == b.tag == "list" and la.tag == lb.tag == "tuple":
        u = unify(la, lb)
        return None if u is None else T("list", u)
    if compatible(a, b):
        return a if not a.is_error and a.tag != "none" else b
    if compatible(b, a):
        return b
    return None
