"""Where an error is in Python code that writes rule functions in place of their calls
(core/inline.py): the rule functions it is in, as if they had been called.

An error inside a rule function is located in that function (docs/language.md 15.2):
``failures._placed`` takes the innermost ruleset function on the stack (a frame named
``F_name``). A body written in place has no frame of its own, so the printer
(compiler/codegen.py, ``_expanded``) marks where it wrote it: the body between
``OPEN name SHUT`` and ``CLOSE``, each argument it was given (the caller's code) between
``OPEN SHUT`` and ``CLOSE``. The marks never reach Python: ``compile_marked`` takes
them out before the text is compiled, so the code run is exactly the code without them
(natively too: the native path is given the text without them, ``unmarked``), and it
keeps beside the code objects where the marked parts lie. Only when an error is located
(``functions_at``, for a frame of the traceback) is the place Python was at (the
instruction's columns, ``co_positions``) looked up among them. So every engine locates
the error where the tree walk (core/evaluate.py) does, which calls every function."""
from __future__ import annotations

import itertools
import weakref

OPEN, SHUT, CLOSE = "\x10", "\x11", "\x12"   # (no other code of the printer's holds them)


def body(text: str, name: str) -> str:
    """The text of rule function ``name``'s body written in place, marked."""
    return f"{OPEN}{name}{SHUT}{text}{CLOSE}"


def argument(text: str) -> str:
    """The text of an argument of a body written in place (the caller's code), marked."""
    return f"{OPEN}{SHUT}{text}{CLOSE}"


def written_len(text: str) -> int:
    """The length of a text without its marks."""
    return len(unmarked(text))


def unmarked(src: str) -> str:
    """The text without its marks (the code that runs)."""
    return _parts(src)[0] if CLOSE in src else src


def _parts(src: str) -> tuple[str, tuple]:
    """The text without its marks, and the parts they marked: (start, end, name), the
    offsets in that text, the name "" for an argument, outermost first."""
    out: list[str] = []
    regions: list[list] = []
    opened: list[list] = []
    at = 0   # (the length of the text written so far)
    i = 0
    while True:
        j = min((k for k in (src.find(OPEN, i), src.find(CLOSE, i)) if k >= 0), default=-1)
        if j < 0:
            out.append(src[i:])
            break
        out.append(src[i:j])
        at += j - i
        if src[j] == OPEN:
            shut = src.index(SHUT, j)
            opened.append([at, None, src[j + 1:shut]])
            regions.append(opened[-1])
            i = shut + 1
        else:
            opened.pop()[1] = at
            i = j + 1
    return "".join(out), tuple((s, e, n) for s, e, n in regions)


# per code object compiled from a marked text: [a weak reference to it, the text run,
# its marked parts, where its lines start (found when first asked)], by id
_MARKED: dict[int, list] = {}


def compile_marked(src: str, filename: str, mode: str):
    """``compile()`` of a generated text, its marks taken out and kept (see the
    module's docstring)."""
    if CLOSE not in src:
        return compile(src, filename, mode)
    plain, regions = _parts(src)
    code = compile(plain, filename, mode)
    _keep(code, plain, regions)
    return code


def _keep(code, plain: str, regions: tuple) -> None:
    key = id(code)

    def forget(_ref) -> None:   # (the code object is gone)
        _MARKED.pop(key, None)
    _MARKED[key] = [weakref.ref(code, forget), plain, regions, None]
    for inner in code.co_consts:   # (a lambda's, a comprehension's code)
        if hasattr(inner, "co_positions"):
            _keep(inner, plain, regions)


def functions_at(code, lasti: int) -> list[str]:
    """The rule functions written in place that the instruction at ``lasti`` of ``code``
    is in, outermost first (none where the code holds no marked text)."""
    kept = _MARKED.get(id(code))
    if kept is None or kept[0]() is not code:
        return []
    pos = next(itertools.islice(code.co_positions(), lasti // 2, None), None)
    if pos is None or None in pos:
        return []
    if kept[3] is None:   # (once per code object: a runaway recursion has many frames)
        lines = kept[1].split("\n")
        kept[3] = lines, list(itertools.accumulate((len(x) + 1 for x in lines), initial=0))
    lines, starts = kept[3]

    def offset(line: int, col: int) -> int:   # (a column counts the line's UTF-8 bytes)
        return starts[line - 1] + len(lines[line - 1].encode()[:col].decode(errors="ignore"))
    start, end = offset(pos[0], pos[2]), offset(pos[1], pos[3])
    inside: list[str] = []
    for s, e, name in kept[2]:
        if s <= start and end <= e:
            if name:
                inside.append(name)
            elif inside:   # (an argument: the caller's code again)
                inside.pop()
    return inside
