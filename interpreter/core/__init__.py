"""The lowered core: the statements of a ruleset's procedures as a small set of
instructions that are data, shared by every engine.

- ``ops``: the instruction set (one frozen dataclass per kind, each with its meaning),
  with explicit operations for budgets, visibility and randomness;
- ``lower``: a checked procedure -> its instructions, in the layout saved states hold
  (instruction indices, hidden slot names), and ``shape``, the pass that derives where a
  frame can stop and what it holds there (play/frames.py) from the instructions;
- ``reference``: the reference meaning of each kind, as the Python form
  ``fn(R, L) -> next pc`` the straightforward engine runs.
- ``blocks``: the statements, blocks and loops of a procedure recovered from its
  instructions alone (the pass fused.py decides its runs with);
- ``primitives``: each built-in function's Python and C++ forms, for every engine.
- ``evaluate``: the reference meaning of expressions, a tree walk of the checked IR
  (each built-in by its Python form), which the engines are proven against.
- ``facts``: what the printers of expressions (codegen's Python, the kernel's C++) know
  of them before they run, found once per program (``prog.facts``): the calls between
  rule functions, loops and the work they count, lists read from static tables, and
  whether a value reads a list in any order (``orderfree``), the loops of an
  expression around each of its parts and those its value reads (``hoist``), the
  static part of a loop's condition over a board's cells (``cells``), the rule
  functions written in place of their calls (``inline``), which evaluations have the
  same value (``once``).

``compiler.compile_procs.compile_proc`` puts them together; fused.py writes runs of the
instructions as one Python function, kernel.py prints each as C++.

Statements are lowered; expressions are not: an instruction holds the checked IR of its
expressions, which are already data (a tree of about twenty kinds of node, each with
its type) and have no control flow a frame could stop in. Their meaning is the walk
(``evaluate``), each built-in's and operator's taken from its table; the printers
(codegen's Python, the kernel's C++) write each kind of node from the same tree and the
same ``facts``, and tests/test_evaluate.py proves every kind of node, call, built-in and
operator against the walk on every engine (nothing falls back unseen). What makes a
printer fast and means nothing new (which list a loop walks, what is kept between
moves) is its own pass, checked against the reference by the lockstep tests.

The layer above play/ and below native/ and compiler/ (README.md, Layout): nothing here
imports those.
"""
