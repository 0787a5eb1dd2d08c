"""Playing a game: ``runtime`` (the state as the rules change it, and the run loop),
``game`` (the public ``Game``), ``state``, ``staterror`` and ``frames`` (a saved state
checked), ``relabel`` (items renamed in a copy of a game),
``results``, ``ordering`` (the order of a decision's options), ``failures`` and
``helpers`` (what rule code calls, and its errors), ``rng`` (the only randomness),
``views`` (what a seat may see), ``display`` (how values are written), ``record`` and
``journal`` (games saved as their moves).

The lowest layer of the interpreter (README.md, Layout): the machine compiled rules run
on; it imports nothing of the rest of it (a ``Program`` is handed to it)."""
