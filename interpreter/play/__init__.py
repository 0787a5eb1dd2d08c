"""Playing a game: ``runtime`` (the state as the rules change it, and the run loop),
``game`` (the public ``Game``), ``state`` and ``staterror`` (a saved state checked),
``results``, ``ordering`` (the order of a decision's options), ``failures`` and
``helpers`` (what rule code calls, and its errors), ``rng`` (the only randomness),
``views`` (what a seat may see), ``display`` (how values are written), ``record`` and
``journal`` (games saved as their moves)."""
