"""What a seat sees of the items a decision offers (a part of ``runtime.Runtime``): whether
it knows where each item is, so that options are ordered by identity, and whether an
option is written as it is to that seat."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .ordering import _int_lists


class SeatSight:
    """Methods of ``runtime.Runtime`` (its ``facing``, ``loc``, ``seers``, ``revealed``,
    ``public``)."""

    if TYPE_CHECKING:
        facing: list
        loc: list
        seers: list
        revealed: set
        public: bool

    def _items_known(self, items: list, player: int) -> bool:
        """Whether ``player`` knows exactly where each of these items (ints) is, so that
        they are ordered by identity: in a game that hides nothing, every item in a zone;
        else every item the seat sees."""
        if self.public:
            return _in_zones(self.loc, items)
        return self._seen_all(items, player)

    def _seen_all(self, items: list | tuple, p: int) -> bool:
        """Whether seat p sees every one of these items (ints): ``sees_item`` for each."""
        facing, loc, seers, rev = self.facing, self.loc, self.seers, self.revealed
        known = None  # (the zone of the last item found seen: most options lie in one zone)
        for i in items:
            f = facing[i]
            if f >= 0:
                if not f >> p & 1:
                    return False
                continue
            z = loc[i]
            if z != known:
                if z < 0 or not (seers[z] >> p & 1 or z in rev):
                    return False
                known = z
        return True

    def sees_value(self, v, type_code: str, p: int) -> bool:
        """Whether seat p sees every item of an option (True: it is written as it is);
        False also when this quick look cannot tell (a type other than item and
        list:item): the option is then looked at item by item."""
        if type_code == "item":
            return v is None or (v.__class__ is int and self._seen_all((v,), p))
        return type_code == "list:item" and self._all_seen((v,), p)

    def _all_seen(self, options: list | tuple, p: int) -> bool:
        """Whether every option is a list of items (ints) that seat p all sees."""
        if not _int_lists(options):
            return False
        for o in options:
            if not self._seen_all(o, p):
                return False
        return True


def _in_zones(loc: list, items: list) -> bool:
    """Whether every one of these items (ints) lies in a zone."""
    for i in items:
        if loc[i] < 0:
            return False
    return True
