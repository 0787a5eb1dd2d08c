"""Compiling a checked ruleset into a program: ``compile`` (the ``Program`` and the
``Ruleset``; procedures in ``compile_procs``, rule functions in ``compile_functions``),
``codegen`` and its parts ``codegen_*`` (expressions as Python code), ``fused`` (runs of
statements), ``cache`` (a ruleset through the disk cache) and ``loading``
(``compile_sources``). The layer above play/, core/ and native/: a ``Ruleset`` picks the
engine its games run on (README.md, Layout)."""
