"""Procedures -> instructions: each procedure of a ruleset as a flat list of instructions
``fn(R, L) -> next pc``, so a game can stop at any player decision and resume from plain
data (the procedure's name, an instruction index and its locals). ``compile.Program``
calls ``compile_proc`` per procedure.

The statements are lowered once into the core's instructions (``core.lower``: the
layout, the same for every engine); each instruction's Python form is its reference
meaning (``core.reference``); the frame's stops are derived from the instructions
(``core.lower.shape``); where the program runs the fast code, runs of them are fused
(fused.py, from what ``FuseInput`` gives it). The kernel (kernel.py) prints the same
instructions at the same indices as C++.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..dsl import ast as ir
from . import frames, fused
from .codegen import Env
from .core import ops
from .core.lower import lower, shape
from .core.reference import Builder, LogTemplate, same_kind  # noqa: F401 - (here as before)

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


def compile_proc(prog: Program, name: str, params: list[str], body: ir.Block) -> Proc:
    """The instructions of one procedure (setup, the turn and at end are procedures
    without parameters), fused where the program runs the fast code (see fused.py)."""
    low = lower(prog, name, params, body)
    b = Builder(prog, Env(locals_=low.locals))
    proc = Proc(name, b.code(low.code), [i.span for i in low.code], frame=shape(prog, low), core=low.code)
    if prog.optimize:
        fused.fuse(prog, FuseInput(proc, low, b.made), body)
    proc.params = params
    return proc


class FuseInput:
    """What fused.py reads of a compiled procedure: ``proc``; by statement (``id``), the
    index of its first instruction (``starts``), of the one after its last (``ends``), and
    for the statements it writes in place, the parts it writes (``meta``), derived from the
    instruction at the statement's start and the functions made for it."""

    def __init__(self, proc: Proc, low, made: dict):
        self.proc, self.starts, self.ends = proc, low.starts, low.ends
        self.meta = {}
        for sid, pc in low.starts.items():
            if sid in low.tests:
                self.meta[sid] = ("if", [made[t]["cond"] for t in low.tests[sid]])
                continue
            m = _meta(low.code, made, pc)
            if m is not None:
                self.meta[sid] = m


def _meta(code: list, made: dict, pc: int) -> tuple | None:
    ins, fns = code[pc], made.get(pc, {})
    match ins:
        case ops.ForInit():
            return ("for", ins.it, ins.ix, ins.var, fns["items"])
        case ops.WhileInit():
            return ("while", ins.count, made[pc + 1]["cond"], ins.limit, code[pc + 1].where)
        case ops.SetLocal():
            return ("local", ins.var, fns["value"])
        case ops.SetPlayerVar():
            return ("pv", ins.var, fns["value"], fns["player"])
        case ops.SetGlobal():
            return ("global", ins.var, fns["value"])
        case ops.Move() if ins.face == ops.AS_PLACE and not ins.unsure:
            return ("move", fns["what"], fns["to"], ins.many)
        case ops.SetItemVar():
            return ("attr", fns["holder"], ins.attr, fns["value"], ins.where)
        case ops.Log():
            return ("log", fns["log"], fns["args"])
    return None
