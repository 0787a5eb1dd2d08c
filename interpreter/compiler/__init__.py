"""Compiling a checked ruleset into a program: ``compile`` (the ``Program`` and the
``Ruleset``; procedures in ``compile_procs``, rule functions in ``compile_functions``),
``codegen`` and its parts ``codegen_*`` (expressions as Python code), ``fused`` (runs of
statements), ``primitives`` (each built-in's Python and C++ forms), ``frames`` (what a
saved frame may hold) and ``cache`` (a ruleset through the disk cache)."""
