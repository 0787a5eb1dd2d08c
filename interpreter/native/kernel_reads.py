"""What of the state the C++ of an expression reads, noted by the kernel's printer at
each place it writes the state (issue 35: a printer decides from what it printed, noted as
it printed it, never by reading the text back).

Three of the kernel's keeps need to know what an expression's C++ reads of the state:
a lasting keep (kernel_lasting.py: nothing but zones' items, each read noted through
``RZ``), a list kept one element per cell (kernel_elementwise.py: nothing but the items
of the element's own cell), a component rechecked by membership (kernel_components.py:
its condition reads nothing but its cell's items). Each prints the expression with a
``Reads`` in its scope (under the key ``READS``, a name no rule gives), and every printer
that writes the state (``s``) into the C++ notes, in the ``Reads`` of the scope it prints
in, what it writes:

- ``zones``: a read of a zone's items (``size``, ``top``, ``top_any``, ``bottom``,
  ``items``, ``topn``: ``zone_read``), with the C++ of the zone;
- ``counted``: the state given to a helper that reads nothing of it but the budgets'
  counters or a walk's marks (``W``, ``range_work``, ``irange``, ``wcat``, ``wappend``,
  ``wappend1``, ``scat``, ``counted_again``, ``Seen``: ``counters``);
- ``calls``: a plain call of a rule function (``uF_name(s, args...)``), with its
  arguments' C++;
- ``other``: anything else (a variable of the rules, an item's variable or place, the
  active seat, a keep's or a table's helper given the state: ``state``).

A scope's ``Reads`` goes with it into the scopes made from it (a copy of it, or a
function's body written in place: ``carried``), never into the scope of a function
written apart (its own, fresh): what a called function reads is its own ``Reads``'s.

A ``Reads`` also says how its zones' reads are printed (``through``): ``s.z`` (the
state's zones), or ``RZ`` (kernel_lasting.py's recorder, which notes each zone read);
and a scope may hold zones already noted (``NOTED``: on the right of an ``&&`` whose left
tests a read of that zone, which the left noted), read there through ``RZ.s.z``, without
noting them again."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

# the scope's keys (no name of the rules starts with $): its Reads, the zones noted
READS = "$reads"
NOTED = "$noted"
# a rule function's reads made once at its entry (kernel_tops.Entry), kept by the
# scopes of its body and of bodies put in line in it
ENTRY = "$entry"
# the reads of a zone's items a printer writes (cxx/kernel_zones.hpp, and ZR's own)
ZONE_READS = ("size", "top", "top_any", "bottom", "items", "topn")


class Reads:
    """What the C++ printed in a scope reads of the state (see the module)."""

    def __init__(self, through: str = "s.z"):
        self.through = through
        self.zones: list[tuple[str, str]] = []   # (the read, the zone's C++)
        self.counted = 0
        self.calls: list[tuple[str, tuple[str, ...]]] = []   # (the function, its arguments' C++)
        self.other = 0

    def only_zones(self, ops=ZONE_READS, zone: str | None = None, counted: bool = True) -> bool:
        """Whether nothing but reads ``ops`` of zones (of ``zone`` alone, where given) was
        noted, budgets' counters aside where ``counted``, and no call."""
        return not self.other and not self.calls and (counted or not self.counted) and all(
            op in ops and (zone is None or z == zone) for op, z in self.zones)


def reads_of(sc: dict) -> Reads | None:
    """The ``Reads`` of the scope ``sc``, or None where nothing asks."""
    got = sc.get(READS)
    return got[0] if got is not None else None


def reading(sc: dict, reads: Reads) -> dict:
    """The scope ``sc`` with ``reads`` noting what is printed in it."""
    return {**sc, READS: (reads, None)}


def carried(sc: dict) -> dict:
    """What a scope made anew for C++ written in the place of ``sc``'s takes of it (a
    function's body put in line: its ``Reads``, the zones noted)."""
    return {k: v for k, v in sc.items() if k in (READS, NOTED, ENTRY)}


def state(sc: dict) -> str:
    """``s``, the state, written where something other than a zone's items or the budgets'
    counters reads it, noted in ``sc``'s ``Reads``."""
    r = reads_of(sc)
    if r is not None:
        r.other += 1
    return "s"


def counters(sc: dict) -> str:
    """``s``, the state, given to a helper that reads nothing of it but the budgets'
    counters or a walk's marks, noted in ``sc``'s ``Reads``."""
    r = reads_of(sc)
    if r is not None:
        r.counted += 1
    return "s"


def called(sc: dict, name: str, args: tuple[str, ...]) -> None:
    """Notes a plain call of the rule function ``name`` (its arguments' C++ ``args``)."""
    r = reads_of(sc)
    if r is not None:
        r.calls.append((name, args))


def zone_read(sc: dict, op: str, zone: str, more: str = "") -> str:
    """The C++ of the read ``op`` of the zone whose C++ is ``zone`` (``more``: the C++ of
    the arguments after it, each after ", "), noted in ``sc``'s ``Reads``: through its
    ``through``, or the state's zones unnoted where ``zone`` is noted already."""
    r = reads_of(sc)
    if r is None:
        return f"s.z.{op}({zone}{more})"
    r.zones.append((op, zone))
    noted = sc.get(NOTED)
    through = f"{r.through}.s.z" if noted is not None and zone == noted[0] else r.through
    return f"{through}.{op}({zone}{more})"


class StateReads:
    """``Gen``'s methods for the native forms of built-ins (core/primitives.py): the
    state, a zone's read, written and noted as above; and the scope of the right of an
    ``and`` whose left noted a zone."""

    if TYPE_CHECKING:
        facts: Any

        def ty(self, e) -> Any: ...

    def noted_right(self, left, sc: dict) -> dict:
        """The scope of the right of an ``and`` (``&&``, or ``&`` of occupied_and's first
        test) whose left is ``left``: where its zones' reads go through ``RZ`` and
        ``left`` is ``occupied(x)`` or ``empty(x)`` of a name ``x`` of the scope (printed
        ``(RZ.size(x) > 0)``, ``== 0``: primitives.py), x noted (``NOTED``): the left,
        evaluated first, notes it. Not inside such a right (no zone noted twice so)."""
        r = reads_of(sc)
        if r is None or r.through != "RZ" or NOTED in sc or not (
                left.node == "Call" and left.func in ("occupied", "empty") and len(left.args) == 1
                and self.facts.call_kind(left) == "builtin" and left.args[0].node == "Var"
                and left.args[0].name in sc and self.ty(left.args[0]).tag in ("zone", "cell")):
            return sc
        return {**sc, NOTED: (sc[left.args[0].name][0], None)}

    @staticmethod
    def state(sc: dict) -> str:
        return state(sc)

    @staticmethod
    def counters(sc: dict) -> str:
        return counters(sc)

    @staticmethod
    def zone_read(sc: dict, op: str, zone: str, more: str = "") -> str:
        return zone_read(sc, op, zone, more)
