"""Playing many games to learn about a ruleset: ``simulation`` (bot games, on every core
through ``parallel``), ``arena`` (matches between bots), ``stats`` (balance figures),
``perft`` (move paths), ``invariants`` (``meeple test``: its invariants, ``leaks`` and
``variations`` for secrets, ``cycles``), and ``testing`` (helpers for ruleset authors'
tests)."""
