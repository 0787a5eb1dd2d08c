"""The order of a decider's options (``Runtime.ask``): sorted by the type's order and
distinct, items the decider may not know ordered by their place rather than by identity,
so that the order of the moves reveals nothing. ``R`` is the game's ``Runtime``."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .helpers import _size_then_items, sort_key as helpers_sort_key

if TYPE_CHECKING:
    from .runtime import Runtime


def _hidden_key(R: Runtime, seat: int, type_code: str):
    """Options that hold items the decider may not know are ordered by place, not by
    identity, so that the order of the moves reveals nothing."""
    base = R.prog.sort_key(type_code)

    def item_key(v):
        if v is None or R.sees_item(v, seat):
            return (0, v if v is not None else -1, 0)
        return (1, R.loc[v], R.zones[R.loc[v]].index(v))

    if type_code == "item":
        return item_key
    if type_code == "list:item":
        return lambda vs: (len(vs), tuple(item_key(v) for v in vs))
    return base


def ordered(R: Runtime, player: int, options: list, type_code: str, fast: bool) -> list:
    """A decider's options, sorted (by place for items it may not know) and distinct."""
    if fast:
        if _plain_order(R, type_code, options, player):
            return sorted(set(options))  # (plain ints: as _distinct(sorted(options)))
        if type_code == "list:item":
            if R._all_seen(options, player):
                # lists of items the decider sees: by size, then item by item (as the
                # keys below, which are then (0, item, 0) for each item)
                return _distinct(sorted(options, key=_size_then_items))
        elif type_code.startswith("list:") and _int_lists(options) \
                and R.prog.sort_key(type_code) is helpers_sort_key:
            # lists of numbers (no bools): by size, then element by element
            return _distinct(sorted(options, key=_size_then_items))
    key = _hidden_key(R, player, type_code) if type_code in ("item", "list:item") \
        else R.prog.sort_key(type_code)
    if type_code == "list:item":
        options = _sets_by_place(R, player, options)
    return _distinct(sorted(options, key=key))


def _sets_by_place(R: Runtime, player: int, options: list) -> list:
    """A set of items that holds some the decider may not know lists them by place,
    so that its order does not tell the hidden order they had in a list. (Apart from
    ``ordered``, whose every call would otherwise make this closure's cells.)"""
    inner = _hidden_key(R, player, "item")
    return [sorted(o, key=inner) if any(not R.sees_item(i, player) for i in o) else o
            for o in options]


def _plain_order(R: Runtime, type_code: str, options: list, player: int) -> bool:
    """Whether the options sort as plain values do: numbers (no bools) of a type
    ordered by value, bools or strings alone, or items the decider sees (in a game
    that hides nothing: all in zones), ordered by identity."""
    for o in options:
        if o.__class__ is not int:
            # (bools sort as plain numbers too: False before True)
            if type_code == "bool" and all(x.__class__ is bool for x in options):
                return R.prog.sort_key(type_code) is helpers_sort_key
            if type_code == "str" and all(x.__class__ is str for x in options):
                # (strings sort as plain strings too: helpers.sort_key is (3, text))
                return R.prog.sort_key(type_code) is helpers_sort_key
            return False
    if type_code == "item":
        return R._items_known(options, player)
    return R.prog.sort_key(type_code) is helpers_sort_key


def _int_lists(options: list | tuple) -> bool:
    """Whether every option is a list of plain numbers (no bools)."""
    for o in options:
        if o.__class__ is not list:
            return False
        for x in o:
            if x.__class__ is not int:
                return False
    return True


def _distinct(options: list) -> list:
    """Equal options are one move."""
    out = [options[0]] if options else []
    for o in options[1:]:
        if o != out[-1]:
            out.append(o)
    return out
