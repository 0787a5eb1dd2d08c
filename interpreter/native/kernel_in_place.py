"""Kept lists read where they are kept (a part of ``kernel.Gen``, its methods on the
generator's state; kernel_memo.py's keeps offer them).

A keep's function returns its list by value: a copy of the list its entry holds (a count
of holders more, and one less when the copy is dropped, or the elements of a short list
copied). Where the list is only measured, ``size(f(x))`` or ``empty(f(x))`` (a
``size(liberties(group(n))) > 1`` for each neighbour of each cell tried), the copy is
made for nothing: the call is printed instead as ``f``'s keep read in place,
``uKR_f``, ``uCR_f`` (kernel_memo.py's ``_kept_hop`` and ``_walks``), returning a const
reference to the list its entry holds, and a function whose value is such a call
(``uP_group``: ``uPR_group``) likewise.

Why the reference cannot outlive its list: it is read in the same expression, at once
(the primitive's C++ is ``(X).size()`` or ``(X).empty()``, nothing evaluated between the
call and the read), and an entry's list changes only when a keep's function runs. Its
argument, where it is itself such a call (``liberties(group(n))``, the call's only
argument, so no other argument is evaluated between), is read by the keep's part in line
(its entry found and compared) before anything else runs; the part out of line, which
may evaluate rule functions and so change entries, is given a copy of each argument
first. The value of the part out of line is held in a table of the function's own (one
list) until its next call: the reference read at once is to that."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

# the built-ins that only measure their list argument (their C++ reads it at once:
# interpreter/core/primitives.py)
MEASURES = ("size", "len", "empty", "occupied")


def ref_name(made: str) -> str:
    """The name of the function ``made``'s read in place (``uK_f``: ``uKR_f``)."""
    tag, rest = made.split("_", 1)
    return f"{tag}R_{rest}"


def _ref_sig(sig: str, rt: str, made: str) -> str:
    """The signature of the read in place of the keep's function of ``sig``."""
    return f"static inline MK_AI const {rt}& {ref_name(made)}({sig.split('(', 1)[1]}"


class InPlaceReads:
    """``Gen``'s methods for kept lists read in place."""

    if TYPE_CHECKING:
        protos: list[str]
        fns: list[str]

        def ty(self, e) -> Any: ...

    def _in_place_state(self) -> tuple[dict, dict, dict, dict]:
        """The nodes whose call is read in place (by id, the node held), the calls'
        read in place pieces (by id: the function, state and arguments), the keeps'
        parts in line that may be read in place (by function) and the forms made."""
        d = self.__dict__
        return (d.setdefault("in_place", {}), d.setdefault("ref_alt", {}), d.setdefault("ref_parts", {}),
                d.setdefault("ref_made", {}))

    def measured(self, e) -> None:
        """Marks the list argument of the built-in call ``e`` read in place where it
        only measures it and the argument is a call of a rule function."""
        marks = self._in_place_state()[0]
        if e.func in MEASURES and len(e.args) == 1 and e.args[0].node == "Call" and self.ty(e.args[0]).tag == "list":
            marks[id(e.args[0])] = e.args[0]

    def unmeasured(self, e, text: str) -> str:
        """Takes back ``measured``'s mark (the argument printed, or not at all); the
        C++ ``text`` of the built-in call ``e``, where its argument was read in place, in
        a function of its own (called at once): the read of the list and its measure then
        run with no other call between (the calls of one expression, such as
        ``size(f(a)) + size(f(b))``, may otherwise run before either measure)."""
        if not e.args:
            return text
        self._in_place_state()[0].pop(id(e.args[0]), None)
        if self.__dict__.setdefault("in_place_used", {}).pop(id(e.args[0]), None) is None:
            return text
        return f"([&]() MK_AI {{ return {text}; }}())"

    def offer_in_place(self, made: str, sig: str, rt: str, inline: str, args: str) -> None:
        """Notes that the keep's function ``made`` (of signature ``sig``, value ``rt``)
        may be read in place: its part in line before the call of its part out of line
        (``inline``, C++ that returns the entry's list where it serves), the names of
        its arguments ``args`` (``, a, b``)."""
        self._in_place_state()[2][made] = ("keep", sig, rt, inline, args)

    def offer_wrapper(self, made: str, sig: str, rt: str, body, text: str) -> None:
        """Notes that the function ``made`` (of signature ``sig``, value ``rt``) whose
        body is the call ``body``, printed ``text``, may be read in place where that
        call may be."""
        alt = self._in_place_state()[1].get(id(body))
        if body.node == "Call" and alt is not None and text == f"{alt[0]}({alt[1]}{alt[2]})":
            self._in_place_state()[2][made] = ("wrapper", sig, rt, alt)

    def _ref_form(self, made: str) -> str | None:
        """The name of ``made``'s read in place (made once), or None where it has none."""
        _marks, _alts, parts, forms = self._in_place_state()
        if made in forms:
            return forms[made]
        forms[made] = None
        part = parts.get(made)
        if part is None:
            return None
        if part[0] == "wrapper":
            inner = self._ref_form(part[3][0])
            if inner is None:
                return None
            body = f"return {inner}({part[3][1]}{part[3][2]});"
        else:
            _kind, _sig, rt, inline, args = part
            # (the part out of line given a copy of each argument: it may change the
            # entry an argument read in place is; itself out of line, as the keep's own
            # is, so the part read in the caller stays as short; its value held in a
            # list of its own, made with the module)
            copies = "".join(f", std::decay_t<decltype({a})>({a})" for a in args.split(", ")[1:])
            ref, rest = ref_name(made), part[1].split("(", 1)[1]
            self.fns.append(f"static {rt} {ref}_out; __attribute__((noinline)) static const {rt}& {ref}_slow({rest} "
                            f"{{ {ref}_out = {made}_slow(s{copies}); return {ref}_out; }}")
            body = f"{inline}return {ref}_slow(s{args});"
        sig = _ref_sig(part[1], part[2], made)
        self.protos.append(sig + ";")
        self.fns.append(f"{sig} {{ {body} }}")
        forms[made] = ref_name(made)
        return forms[made]

    def in_place_call(self, e, made: str, st: str, args: str, given: tuple) -> str:
        """The C++ of the call ``e`` of the function ``made`` (its state ``st``, its
        arguments' C++ ``args``, each ``given``): read in place where it is marked and
        ``made`` may be; its only argument too where that may be."""
        marks, alts, _parts, _forms = self._in_place_state()
        alts[id(e)] = (made, st, args, e)
        if marks.pop(id(e), None) is None:
            return f"{made}({st}{args})"
        ref = self._ref_form(made)
        if ref is None:
            return f"{made}({st}{args})"
        inner = alts.get(id(e.args[0])) if len(given) == 1 else None
        # (the argument as printed just now: that call, by value)
        if inner is not None and given[0] == f"{inner[0]}({inner[1]}{inner[2]})":
            inner_ref = self._ref_form(inner[0])
            if inner_ref is not None:
                args = f", {inner_ref}({inner[1]}{inner[2]})"
        self.__dict__.setdefault("in_place_used", {})[id(e)] = e
        return f"{ref}({st}{args})"
