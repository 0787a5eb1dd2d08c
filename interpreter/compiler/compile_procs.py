"""Procedures -> instructions: each procedure of a ruleset as a flat list of instructions
``fn(R, L) -> next pc``, so a game can stop at any player decision and resume from plain
data (the procedure's name, an instruction index and its locals). ``compile.Program``
calls ``compile_proc`` per procedure.

The statements are lowered once into the core's instructions (``core.lower``: the
layout, the same for every engine); each instruction's Python form is its reference
meaning (``core.reference``); the frame's stops are derived from the instructions
(``core.lower.shape``); where the program runs the fast code, runs of them are fused
(fused.py: a pass over the instructions alone, ``FuseInput``). The kernel (kernel.py)
prints the same instructions at the same indices as C++.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...dsl import ast as ir
from ..core.lower import lower, shape
from ..core.reference import Builder, LogTemplate, same_kind  # noqa: F401 - (here as before)
from ..play import frames
from . import fused
from .codegen import Env

if TYPE_CHECKING:
    from .compile import Program


@dataclass
class Proc:
    name: str
    code: list = field(default_factory=list)
    lines: list = field(default_factory=list)  # span of each instruction
    fused: bool = False  # some instructions run runs of statements at once (see fused.py)
    frame: frames.Shape | None = None  # what a saved frame of it holds (see frames.py)
    core: list | None = None  # its instructions (core.ops), of which ``code`` is the Python form
    plain: list | None = None  # ``code`` as the reference makes it, before fused.py (by index)


def compile_proc(prog: Program, name: str, params: list[str], body: ir.Block) -> Proc:
    """The instructions of one procedure (setup, the turn and at end are procedures
    without parameters), fused where the program runs the fast code (see fused.py)."""
    low = lower(prog, name, params, body)
    b = Builder(prog, Env(locals_=low.locals))
    plain = b.code(low.code)
    proc = Proc(name, list(plain), [i.span for i in low.code], frame=shape(prog, low), core=low.code,
                plain=plain)
    if prog.optimize:
        fused.fuse(prog, FuseInput(proc, low.code, b.made))
    proc.params = params
    return proc


@dataclass
class FuseInput:
    """What fused.py reads of a compiled procedure: ``proc``, its instructions (``code``,
    core.ops) and the functions the reference made for them (``made``, by index, see
    ``core.reference.Builder``): no statement of the IR."""
    proc: Proc
    code: list
    made: dict
