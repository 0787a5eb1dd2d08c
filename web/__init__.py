"""``meeple serve``: a web table for any ruleset, each seat played in a browser by its
own secret link (docs/web.md). A front end like ``cli/``: it uses the public API only
(docs/api.md) and names no game. Needs the ``web`` extra (``pip install meeple[web]``).

- ``store``: the one layer over the database (SQLite): tables, links, moves;
- ``tables``: the games in memory, every move committed before it is acknowledged, bots;
- ``present``: the JSON a seat's link answers with, from the seat's view only;
- ``app``: the Starlette application (pages, JSON, moves, server-sent events);
- ``server``: uvicorn, and the links printed once it listens;
- ``words``: the page's own words, in English (``meeple serve`` gives their translations).
"""
