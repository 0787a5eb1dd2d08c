"""The structure of a procedure recovered from its instructions alone (a pass over the
core, for the engines that write structured code: fused.py): the flat list cut back
into blocks of statements, each statement a range of instructions, from the layout of
``core.lower``:

- ``ForInit`` at k: a ``for`` loop; its ``ForStep`` at k+1 ends at ``end``, its body is
  k+2 .. end-2 and the loop's jump back is at end-1 (``WhileInit``: a ``while``, alike);
- ``Branch`` at k: an ``if``; each test's body runs up to the jump just before the
  test's ``target``, which closes the test (it goes to the end of the whole ``if``);
  at the target, a ``Branch`` of the same statement (the same span: the tests of one
  ``if`` are located at it) is the next test (``elif``), else the instructions up to the
  end are the ``else`` body;
- any other instruction: a statement of its own (a call for a result stored elsewhere
  and its ``StoreResult`` are two).

Statements are told apart by their first instruction's index, ``start``.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import ops


@dataclass(frozen=True)
class Block:
    """The statements of instructions ``start`` .. ``end``-1, in order."""
    start: int
    end: int
    stmts: tuple


@dataclass(frozen=True)
class Test:
    """One test of an ``if``: the ``Branch`` at ``at``, its ``body``; the jump that
    closes it is at ``body.end``."""
    at: int
    body: Block


@dataclass(frozen=True)
class Stmt:
    """A statement: its instructions ``start`` .. ``end``-1 (the first, ``code[start]``,
    says which: Branch, ForInit, WhileInit or a statement of one instruction); an ``if``'s
    ``tests`` and ``other`` (its ``else`` body, None without one), a loop's ``body``."""
    start: int
    end: int
    tests: tuple = ()
    other: Block | None = None
    body: Block | None = None

    @property
    def loop(self) -> Block:
        """A loop's body (a TypeError for any other statement)."""
        if self.body is None:
            raise TypeError(f"the statement at instruction {self.start} is not a loop")
        return self.body

    def blocks(self) -> list[Block]:
        """The blocks inside it, in order."""
        out = [t.body for t in self.tests] + ([self.other] if self.other is not None else [])
        return out + ([self.body] if self.body is not None else [])


def structure(code: list) -> Block:
    """The procedure's instructions as one block of statements."""
    return _block(code, 0, len(code))


def _block(code: list, start: int, end: int) -> Block:
    stmts, k = [], start
    while k < end:
        s = _stmt(code, k)
        stmts.append(s)
        k = s.end
    if k != end:
        raise ValueError(f"instructions {start}..{end - 1} are not whole statements")
    return Block(start, end, tuple(stmts))


def _stmt(code: list, k: int) -> Stmt:
    i = code[k]
    if isinstance(i, (ops.ForInit, ops.WhileInit)):
        end = code[k + 1].end
        return Stmt(k, end, body=_block(code, k + 2, end - 1))
    if not isinstance(i, ops.Branch):
        return Stmt(k, k + 1)
    tests, at = [], k
    while True:
        closing = code[at].target - 1
        tests.append(Test(at, _block(code, at + 1, closing)))
        end, nxt = code[closing].target, code[at].target
        if nxt < end and isinstance(code[nxt], ops.Branch) and code[nxt].span == i.span:
            at = nxt
            continue
        other = _block(code, nxt, end) if nxt < end else None
        return Stmt(k, end, tests=tuple(tests), other=other)
