"""What tells a value apart in the fast code (a part of ``codegen.ExprCompiler``): the
key under which a value computed once is kept (core/once.py ``value_key``), and the
numbers of the variables it depends on, for a variable, an inlined function's
parameters and a value the code named."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .codegen_base import Code, Env


class ValueKeys:
    """Methods of ``codegen.ExprCompiler`` (its ``t``, ``c``, ``pre``, ``avail``,
    ``deps``, ``perm_here``, ``memo_ok``)."""

    if TYPE_CHECKING:
        t: Any
        c: Any
        pre: Any
        avail: Any
        deps: dict
        perm_here: bool
        memo_ok: bool

    def _value_key(self, e, env: Env, perm: bool | None = None):
        """What tells the value of ``e`` apart, and the numbers of the variables it
        depends on (core/once.py, ``value_key``), or None (its evaluation may count work:
        computed at each use). The names are this code's: a variable or parameter by its
        text and number, an inlined function's parameter by its argument's key
        (``env.keys``), an operand the statement form computed before (``pre``) by its
        name; a value used in any order (a component found from any of its cells, see
        _memo_call: ``perm``, else perm_here) is another value."""
        def named(n):
            done = self.pre.get(id(n)) if self.pre else None
            if done is not None:
                return self._name_key(done, env)
            if n.node != "Var":
                return None
            key = env.keys.get(n.name)
            if key is not None:
                return key
            text = env.lookup(n.name)
            if text is None:
                return None
            return self._var_key(n.name, text, env)
        any_order = (self.perm_here if perm is None else perm) and self.memo_ok
        return self.t.facts.value_key(e, named, "any order" if any_order else None)

    def _arg_keys(self, e, env: Env, texts: list[str], perms: list[bool], own=None) -> dict:
        """Inside the body of the rule function called by ``e`` written in place, what
        tells each parameter's value apart (see _value_key): its argument's key (its
        text's where it has none, or where ``own`` says the code named it anew)."""
        if self.avail is None:
            return {}
        keys = {}
        for i, (p, a, text, perm) in enumerate(zip(self.c.functions[e.func].params, e.args, texts, perms)):
            got = self._value_key(a, env, perm) if own is None or own[i] else None
            keys[p.name] = got if got is not None else self._name_key(text, env)
        return keys

    def _var_key(self, name: str, text: str, env: Env):
        """The key of a variable this code names by ``text`` (a parameter or a loop's
        variable ``v_x``, a loop's of the statement form ``wN_x``, a local ``L['x']``) and
        the number of the variable it depends on (``env.ids``; none for a local, which
        no loop binds)."""
        bound = name in env.subst or name in env.params
        return ("named", text), ((env.ids.get(name, 0),) if bound else ())

    def _name_key(self, text: str, env: Env):
        """The key of a value this code names (``text``: a name or a constant, see Code,
        a name in parentheses is the name; or a name of the program's tables) and the
        numbers of the variables it depends on: a parameter's or a loop's variable's,
        those of a value computed before (the ones it was found with), none for a local,
        a constant or a table."""
        if not isinstance(text, Code):  # a table's name (CONST_x, BOARD_x...): no variable
            return ("named", text), ()
        kind = text.kind
        if kind == "param":
            ids: tuple = (env.ids.get(text.ref, 0),)
        elif kind == "loop":
            ids = (text.ref,)
        else:
            ids = self.deps.get(text.ref, ()) if kind in ("kept", "temp") else ()
        return ("named", text.bare), ids
