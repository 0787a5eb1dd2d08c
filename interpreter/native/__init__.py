"""Native code, optional (``Ruleset.use_native``): ``cython_code`` compiles a program's
generated rule code with Cython and keeps the modules it builds; ``kernel`` and its parts
``kernel_*`` write a program's rules as C++ over compact state (the headers every kernel
shares in ``cxx/``, names and texts as C++ in ``cxx_text``); ``kgame`` plays a kernel
behind the Python game."""
