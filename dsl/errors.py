"""Diagnostics: every message the language tools print, in one module.

A diagnostic has a stable namespaced code (``parse/unexpected-token``,
``check/unknown-name``), a span, a message and an optional hint. ``render`` prints::

    error[check/unknown-zone]: mygame.meeple:12:9: unknown zone 'hnad'
       12 |   deal all from draw to hnad
          |                         ^^^^
    hint: did you mean 'hand'?
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from .ast import Span

MAX_DIAGNOSTICS = 100


@dataclass
class Diagnostic:
    code: str
    span: Span
    message: str
    hint: str | None = None
    severity: str = "error"
    length: int = 1

    def location(self) -> str:
        if self.span.line <= 0:  # about a whole file (it cannot be read...)
            return self.span.file
        return f"{self.span.file}:{self.span.line}:{self.span.column}"

    def render(self, sources: dict[str, str] | None = None) -> str:
        head = f"{self.severity}[{self.code}]: {self.location()}: {self.message}"
        lines = [head]
        text = (sources or {}).get(self.span.file)
        if text is not None and self.span.line > 0:
            src_lines = text.splitlines()
            if self.span.line <= len(src_lines):
                src = src_lines[self.span.line - 1]
                num = str(self.span.line)
                pad = " " * len(num)
                col = self.span.column
                if len(src) > 160:  # a long line: the part around the column
                    start = max(0, col - 80)
                    src = ("..." if start else "") + src[start:start + 160] + "..."
                    col = col - start + (3 if start else 0)
                lines.append(f" {num} | {_shown_source(src)}")
                width = max(1, min(self.length, len(src) - col + 1))
                lines.append(f" {pad} | {' ' * (col - 1)}{'^' * width}")
        if self.hint:
            lines.append(f"hint: {self.hint}")
        lines[0] = escape(lines[0])
        if self.hint:
            lines[-1] = escape(lines[-1])
        return "\n".join(lines)


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def escape(text: str) -> str:
    """Text from a ruleset or a user, safe to print: control characters, lone
    surrogates and bidi controls written as escapes (a terminal never interprets them)."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}" if ord(m.group()) > 0xff
                        else f"\\x{ord(m.group()):02x}", text)


def _shown_source(line: str) -> str:
    """A source line under which a caret is drawn: one column per character."""
    return _CONTROL.sub(lambda m: " " if m.group() == "\t" else "\ufffd", line)


class MeepleError(Exception):
    """Raised with every diagnostic found when a ruleset cannot be loaded."""

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, str] | None = None):
        self.diagnostics = diagnostics
        self.sources = sources or {}
        super().__init__(self.render())

    def render(self) -> str:
        return "\n\n".join(d.render(self.sources) for d in self.diagnostics)


@dataclass
class Diagnostics:
    """Collects diagnostics and keeps going (up to MAX_DIAGNOSTICS)."""

    items: list[Diagnostic] = field(default_factory=list)

    def add(self, diag: Diagnostic) -> None:
        if len(self.items) < MAX_DIAGNOSTICS:
            self.items.append(diag)

    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "error"]

    def __bool__(self) -> bool:
        return bool(self.errors())


# ---------------------------------------------------------------- suggestions

def _norm(s: str) -> str:
    return s.lower().replace("_", "")


def _distance(a: str, b: str) -> int:
    """Edit distance where swapping two neighbouring letters counts as one edit."""
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


def suggest(name: str, candidates: Iterable[str]) -> str | None:
    """The closest candidate by edit distance (ignoring case and underscores)."""
    best, best_d = None, None
    n = _norm(name)
    for c in sorted(set(candidates)):
        d = _distance(n, _norm(c))
        if d <= max(1, (len(n) + 1) // 3) and (best_d is None or d < best_d):
            best, best_d = c, d
    return best


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    s = suggest(name, candidates)
    return f"did you mean '{s}'?" if s else None


# ---------------------------------------------------------------- wording, one per kind

def unexpected_token(span: Span, token: str, expected: list[str], length: int) -> Diagnostic:
    shown = ", ".join(sorted(expected)[:8])
    hint = f"expected one of: {shown}" if expected else None
    return Diagnostic("parse/unexpected-token", span, f"unexpected {token}", hint, length=length)


def comprehension_slip(span: Span, token: str, expected: list[str], length: int) -> Diagnostic:
    """A syntax error inside a comprehension or an aggregate: the form, and where the
    language reference explains it."""
    d = unexpected_token(span, token, expected, length)
    d.hint = (f"{d.hint + '; ' if d.hint else ''}a comprehension is [ELEMENT for x in LIST], then "
              "any 'for y in LIST' and 'if CONDITION' clauses, in order (docs/language.md, "
              "section 7.5)")
    return d


def reserved_word(span: Span, word: str) -> Diagnostic:
    """A reserved word (docs/language.md, Appendix B) written where it is read as its
    keyword, though a name was meant."""
    return Diagnostic("parse/reserved-word", span, f"`{word}` is a reserved word",
                      f"it cannot be used as a name here; rename it, for example to `{word}_` "
                      f"or `my_{word}` (the reserved words are listed in Appendix B of the "
                      f"language reference)", length=len(word))


def call_without_call(span: Span, name: str, args: str, is_procedure: bool, length: int) -> Diagnostic:
    """`start()` written as a statement: the parser reads an assignment to a per-player
    variable and stops at the missing `=`; say what was probably meant."""
    if is_procedure:
        hint = f"to run the procedure {name}, write `call {name}({args})`"
    else:
        hint = (f"to run a procedure, write `call {name}({args})`; to set a per-player "
                f"variable, write `{name}({args}) = VALUE`")
    return Diagnostic("parse/unexpected-token", span,
                      f"`{name}({args})` on its own is not a statement", hint, length=length)


def statements_in_function(span: Span, block: bool, length: int) -> Diagnostic:
    """`let` (or a `{ ... }` block) in a function: its body is one expression."""
    what = "a `{ ... }` block" if block else "`let`"
    return Diagnostic(
        "parse/unexpected-token", span,
        f"a function's body is one expression after `=`; {what} cannot be used in it",
        "write the value directly (`function double(x: int): int = x * 2`), put a part of "
        "it in another function and call that, or use a procedure (run with `call`) for "
        "statements", length=length)


def one_player_target(name: str) -> tuple[str, str]:
    """`NAME(a, b) = ...`: a per-player variable takes one player."""
    return (f"`{name}(...) = ...` sets a per-player variable and takes one player",
            f"write `{name}(p) = VALUE`; to set an item variable, write `ITEM.attribute = VALUE`")


def unexpected_char(span: Span, char: str) -> Diagnostic:
    return Diagnostic("parse/unexpected-character", span, f"unexpected character {char!r}")


def unexpected_end(span: Span, expected: list[str]) -> Diagnostic:
    shown = ", ".join(sorted(expected)[:8])
    return Diagnostic("parse/unexpected-end", span, "the file ends too early",
                      f"expected one of: {shown}; is a '}}' missing?")


def unknown(span: Span, what: str, name: str, candidates: Iterable[str],
            code: str = "check/unknown-name") -> Diagnostic:
    return Diagnostic(code, span, f"unknown {what} '{name}'", did_you_mean(name, candidates),
                      length=len(name))


def unknown_grammar(span: Span, what: str, name: str, choices: Iterable[str]) -> Diagnostic:
    """A ``name``'s gender or case that is none of the language's: the ones there are."""
    choices = list(choices)
    # (a word a choice abbreviates, ``fem``, ``plural``: that choice; else a near one)
    short = max((c for c in choices if name.casefold().startswith(c)), key=len, default=None)
    guess = f"did you mean '{short}'?" if short and short != name else (
        did_you_mean(name, choices) if len(name) > 1 else None)
    listed = f"A name's {what} is one of {', '.join(choices)}"
    return Diagnostic(f"check/unknown-{what}", span, f"unknown {what} '{name}'",
                      f"{guess} {listed}" if guess else listed, length=len(name))


def unknown_choice(base, what: str, name: str, choices: Iterable[str]) -> Diagnostic:
    """A variant or locale the ruleset ``base`` (its parsed base file) does not have:
    about the ruleset as a whole (no line), listing the choices."""
    choices = sorted(choices)
    guess = suggest(name, choices)
    listed = (f"the {what}s of {base.name}: {', '.join(choices)}" if choices
              else f"{base.name} has no {what}s")
    hint = (f"did you mean '{guess}'? " if guess else "") + listed[0].upper() + listed[1:]
    span = Span(file=base.span.file, line=0, column=0)
    code = "load/unknown-variant" if what == "variant" else "load/unknown-locale"
    return Diagnostic(code, span, f"{base.name} has no {what} '{name}'", hint)


def duplicate(span: Span, what: str | None, name: str, first: Span) -> Diagnostic:
    """``what`` is None for declarations without a name (``turn``, ``at end``...)."""
    message = f"{what} '{name}' is declared twice" if what else f"'{name}' is declared twice"
    return Diagnostic("check/duplicate", span, message,
                      f"the first declaration is at line {first.line}", length=len(name))


def type_mismatch(span: Span, context: str, expected: str, got: str) -> Diagnostic:
    return Diagnostic("check/type-mismatch", span, f"{context}: expected {expected}, found {got}")


def local_mismatch(span: Span, context: str, name: str, expected, got) -> Diagnostic:
    """A value that does not fit a local (or variable); a local that an empty list made a
    ``list of none`` is told how to declare its element type."""
    from .types import has_none, written
    typed = written(got) if has_none(expected) and expected.tag == "list" and not has_none(got) else None
    hint = f"declare the local's type: let {name}: {typed} = []" if typed is not None else None
    return Diagnostic("check/type-mismatch", span, f"{context}: expected {expected}, found {got}", hint)


def list_element(span: Span, expected: str, got: str) -> Diagnostic:
    """Elements of one list literal of different types."""
    return Diagnostic("check/type-mismatch", span, f"list element: expected {expected}, found {got}",
                      "a list's elements have one type; to join values of different kinds in one "
                      "value (a move of a cell and a number), write a tuple: (a, b)")


def tuple_index(span: Span, parts: int) -> Diagnostic:
    """A tuple's part read by an index that is not a constant within its size."""
    return Diagnostic("check/bad-value", span,
                      f"a part of a tuple is read by a number written in the rules, from 0 to {parts - 1}",
                      "write t[0], t[1]..., or name the parts: choose (a, b) from ... "
                      "(see the language reference, 9.3)")


def tuple_alone(span: Span, verb: str, name: str, got: str) -> Diagnostic:
    """``choose (a, b) from ... as "x" or "pass"`` where part ``name`` has no none (it is
    none after that move): a number, a string or a bool."""
    return Diagnostic("check/bad-value", span,
                      f"the part '{name}' of 'choose (...)' ({got}) cannot be none, as it is after the "
                      f"move without an object ('or \"{verb}\"')",
                      "name it _, or make the move an option of its own: a tuple of a word and none parts, "
                      "the options told apart by the word")


def tuple_pattern(span: Span, names: int, got: str) -> Diagnostic:
    """``choose (a, b) from LIST`` where LIST's elements are no tuples of that size."""
    return Diagnostic("check/type-mismatch", span,
                      f"'choose (...)' names {names} parts: expected a list of tuples of {names} parts, "
                      f"found {got}",
                      f"build the options as tuples of {names}: [(a, b) for a in ... for b in ...]")


def tuple_part(span: Span, got: str) -> Diagnostic:
    """A part of a tuple that a move's notation cannot write by itself."""
    return Diagnostic("check/bad-value", span,
                      f"a part of a tuple is a cell, a player, a number, a string, a bool, an enum "
                      f"value or none, not a {got}",
                      "give an item by its cell, or choose it in a decision of its own")


def tuple_type_here(span: Span) -> Diagnostic:
    """A tuple's type written where values are kept or shown (a variable, a const, an
    attribute, a procedure's parameter): only a function's and a local's may be one."""
    return Diagnostic("check/bad-value", span,
                      "a tuple type is written only for a function's parameters and result, "
                      "and a local's type (let t: (grid, int) = ...)",
                      "keep each part in a variable of its own, or a list of tuples in a local")


def wrong_arity(span: Span, func: str, expected: str, got: int) -> Diagnostic:
    return Diagnostic("check/arity", span,
                      f"'{func}' takes {expected} argument(s), {got} given", length=len(func))


def no_attribute(span: Span, type_name: str, attr: str, candidates: Iterable[str]) -> Diagnostic:
    return Diagnostic("check/unknown-attribute", span,
                      f"{type_name} has no attribute '{attr}'", did_you_mean(attr, candidates),
                      length=len(attr))


def missing_value(span: Span, name: str, type_name: str) -> Diagnostic:
    return Diagnostic("check/missing", span, f"the item variable '{name}' has no initial value",
                      f"write var {name}: {type_name} = ...", length=len(name))


def misplaced(span: Span, message: str, hint: str | None = None) -> Diagnostic:
    return Diagnostic("check/misplaced", span, message, hint)


def missing(span: Span, what: str, hint: str | None = None) -> Diagnostic:
    return Diagnostic("check/missing", span, f"the ruleset has no {what}", hint)


def bad_value(span: Span, message: str, hint: str | None = None) -> Diagnostic:
    return Diagnostic("check/bad-value", span, message, hint)


def outcome_otherwise(span: Span, last: bool) -> Diagnostic:
    """An ``outcome`` declaration must end with exactly one ``otherwise`` clause."""
    if last:
        return Diagnostic("check/outcome", span, "the outcome declaration must end with an "
                          "'otherwise' clause (no player may be left without an outcome)",
                          "write e.g. 'loss otherwise' after this clause")
    return Diagnostic("check/outcome", span, "a clause after 'otherwise' is never used",
                      "'otherwise' must be the last clause: move it down or remove this one")


def not_a_seat(span: Span, name: str) -> Diagnostic:
    return Diagnostic("check/not-a-seat", span,
                      f"'{name}' is a participant, not a seat: it is never asked to decide and "
                      f"is not a value of the rules",
                      "a participant acts by the rules: write its play as statements (if, best, "
                      "pick ... at random); keep what it holds in its own zones and variables",
                      length=len(name))


def overlay_error(span: Span, message: str, hint: str | None = None) -> Diagnostic:
    return Diagnostic("overlay/conflict", span, message, hint)


def io_error(path: str, message: str) -> Diagnostic:
    return Diagnostic("load/io", Span(file=path), message)


# ---------------------------------------------------------------- procedure results, cell literals

def return_misplaced(span: Span, rule: str) -> Diagnostic:
    return Diagnostic("check/misplaced", span, f"'return' belongs in a procedure, and {rule} is not one",
                      "put these statements in a procedure and 'call' it from here", length=6)


def return_without_result(span: Span, proc: str, got: str) -> Diagnostic:
    return Diagnostic("check/no-result", span,
                      f"procedure '{proc}' declares no result type, so 'return' cannot give a value",
                      f"declare what it gives: 'procedure {proc}(...): {got} {{ ... }}'", length=6)


def call_without_result(span: Span, proc: str) -> Diagnostic:
    return Diagnostic("check/no-result", span, f"procedure '{proc}' gives no value to keep",
                      f"declare its result type and return a value: 'procedure {proc}(...): int "
                      f"{{ ... return n }}', or run it alone with 'call {proc}(...)'")


def bare_return(span: Span, proc: str, result: str) -> Diagnostic:
    return Diagnostic("check/missing-return", span,
                      f"procedure '{proc}' gives {_an(result)}: its 'return' needs a value",
                      "write 'return VALUE'", length=6)


def missing_return(span: Span, proc: str, result: str) -> Diagnostic:
    return Diagnostic("check/missing-return", span,
                      f"procedure '{proc}' can reach its end here without returning {_an(result)}",
                      "end every path with 'return VALUE' (an 'if' needs an 'else' that returns "
                      "too; a loop may run zero times)")


def no_such_cell(span: Span, board: str, wanted: str, hint: str | None, length: int = 1) -> Diagnostic:
    return Diagnostic("check/no-such-cell", span, f"board '{board}' has no cell with {wanted}", hint,
                      length=length)


def cell_not_unique(span: Span, board: str, keys: list[str], count: int, example: str,
                    coords: Iterable[str]) -> Diagnostic:
    return Diagnostic("check/bad-value", span,
                      f"{', '.join(keys)} alone does not pick one cell of '{board}': "
                      f"{count} cells have {example}",
                      f"give more coordinates ({', '.join(coords)}) or the name: "
                      f"cell({board}, name: \"...\")", length=4)


def ray_not_unique(span: Span, board: str, keys: list[str], count: int, example: str,
                   coords: Iterable[str]) -> Diagnostic:
    """``ray(...)`` steps by coordinates that several cells of the board share."""
    return Diagnostic("check/bad-value", span,
                      f"a ray steps by {', '.join(keys)}, which do not tell the cells of "
                      f"'{board}' apart: {count} cells have {example}",
                      f"step by more of its coordinates ({', '.join(coords)}), giving 0 to "
                      f"those that do not change", length=3)


def _an(type_name: str) -> str:
    return ("an " if type_name[:1] in "aeiou" else "a ") + type_name


def procedure_in_expression(span: Span, proc: str, gives: bool) -> Diagnostic:
    """A procedure called like a function, inside an expression."""
    if gives:
        hint = f"keep its value first: 'let v = call {proc}(...)', then use v"
    else:
        hint = (f"run it with 'call {proc}(...)'; for a value, declare its result type "
                f"('procedure {proc}(...): int {{ ... return n }}') and write 'let v = call {proc}(...)'")
    return Diagnostic("check/unknown-function", span,
                      f"'{proc}' is a procedure: it cannot be used inside an expression", hint,
                      length=len(proc))


def cell_without_names(span: Span) -> Diagnostic:
    """``cell(board, 2, 3)``: the cell literal names its coordinates."""
    return Diagnostic("check/unknown-function", span,
                      "cell(...) takes the board and named coordinates",
                      "write cell(BOARD, row: 2, col: 3), or cell(BOARD, name: \"r2c3\") for a "
                      "cell's name", length=4)
