"""``meeple serve``: a web table, each seat played in a browser by its own secret link
(the server itself: ``web/``, docs/web.md)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from . import jsonout
from .common import (
    check_seed,
    fail,
    load,
    note,
    players as player_count,
    record_name,
    seat_bots,
)
from .options import (
    bot_names,
    locale_option,
    no_color_option,
    players_option,
    ruleset_argument,
    seat_bots_option,
    seed_option,
    variant_option,
)

NAME = "serve"

PUBLIC_WARNING = ("listening on {host}, beyond this machine: anyone who has a link plays "
                  "that seat; the links are the only protection (no passwords, no TLS: put "
                  "a proxy with HTTPS in front)")


def command(
    ruleset: str | None = ruleset_argument("A bundled ruleset name or a path: a new table of "
                                           "it (without it: the tables stored in --db).",
                                           optional=True),
    players: int | None = players_option("Number of players (default: the ruleset's usual "
                                         "count)."),
    variant: list[str] = variant_option("A variant to play (repeatable)."),
    locale: str | None = locale_option("A locale, e.g. de."),
    seed: int | None = seed_option("Random seed (default: 63 random bits from the "
                                   "operating system)."),
    bot: list[str] = seat_bots_option("SEAT=BOT: a bot plays this seat (1-based) on the server "
                                      "(repeatable). Bots: " + bot_names()),
    host: str = typer.Option("127.0.0.1", "--host", metavar="H",
                             help="The address to listen on (beyond loopback only with "
                                  "--public)."),
    port: int = typer.Option(8000, "--port", metavar="P",
                             help="The port to listen on (0: any free port)."),
    public: bool = typer.Option(False, "--public",
                                help="Allow a --host beyond this machine (the links are then "
                                     "the only protection)."),
    rulesets: Path | None = typer.Option(None, "--rulesets", metavar="DIR",
                                            help="Offer the rulesets in this folder in the "
                                                 "lobby too (besides the bundled ones)."),
    db: str | None = typer.Option(None, "--db", metavar="FILE",
                                     help="The SQLite file of the tables (default: tables.sqlite "
                                          "in the user's data folder), or a postgresql:// URL "
                                          "(several servers may share it)."),
    json_out: bool = typer.Option(False, "--json",
                                  help="Once the server accepts connections, print its links as "
                                       "one JSON line on stdout (format meeple-serve/1, see "
                                       "docs/cli.md)."),
    no_color: bool = no_color_option(),
) -> None:
    """Serve a web table: each seat plays in a browser by its own secret link, bots play
    the --bot seats on the server, and a lobby (its own secret link) starts more. Every
    move is stored (--db) before it is acknowledged; run again with the same --db to
    serve the tables where they were."""
    jsonout.begin("serve", json_out)
    try:
        from ..web import lobby as web_lobby, server, store, tables as web_tables
    except ImportError as e:
        raise fail(f"meeple serve needs the web extra: pip install 'meeple[web]' ({e})") from None
    if not 0 <= port <= 65535:
        raise fail(f"--port {port}: a port is a number from 0 to 65535", 2)
    if not server.is_loopback(host) and not public:
        raise fail(f"--host {host} listens beyond this machine: add --public to allow it", 2)
    if ruleset is None and (players is not None or variant or seed is not None or bot):
        raise fail("--players, --variant, --seed and --bot describe a new table: "
                   "name its RULESET", 2)
    speech = catalog_speech()
    if ruleset is None and locale and speech.locale_language(locale) is None \
            and locale.replace("_", "-").split("-")[0] != "en":
        raise fail(f"--locale {locale}: the lobby speaks {', '.join(speech.languages())}", 2)
    path = db if db else _default_db()
    try:
        tables = web_tables.Tables(store.open_store(path))
    except (OSError, ValueError, store.sqlite3.Error) as e:
        raise fail(f"--db {path}: {e}") from None
    for problem in tables.restore():
        note(problem)
    if rulesets is not None and not rulesets.is_dir():
        raise fail(f"--rulesets {rulesets}: not a folder", 2)
    new = _new_table(tables, ruleset, players, variant, locale, seed, bot) \
        if ruleset is not None else None
    lobby = web_lobby.Lobby(tables, rulesets)
    if not server.is_loopback(host):
        note(PUBLIC_WARNING.format(host=host))

    def ready(bound: int) -> None:
        base = server.base_url(host, bound)
        if json_out:
            doc = _document(tables, new, base)
            doc["lobby"] = f"{base}/l/{lobby.token}"
            print(json.dumps(doc, separators=(",", ":")), flush=True)
        else:
            _print_links(tables, new, base)
            print(f"Lobby (start more tables): {base}/l/{lobby.token}", flush=True)
    server.run(tables, host, port, ready, lobby, speech, locale)


def _default_db() -> Path:
    import platformdirs
    return Path(platformdirs.user_data_dir("meeple")) / "tables.sqlite"


def _new_table(tables, ruleset: str, players: int | None, variant: list[str],
               locale: str | None, seed: int | None, bot: list[str]):
    from ..interpreter import RuleError
    prog = load(ruleset, variant, locale)
    n = player_count(prog, players)
    bots = seat_bots(bot, n)
    if seed is None:
        import secrets
        seed = secrets.randbits(63)
    else:
        check_seed(seed, seed)
    try:
        return tables.create(record_name(ruleset), prog, n, list(variant), locale, seed, bots)
    except RuleError as e:
        raise fail(f"the game cannot start: {e}") from None


def _document(tables, new, base: str) -> dict:
    """The --json line: the new table's links (when one was made) and every table's."""
    from ..web.server import links
    doc: dict = {"format": "meeple-serve/1", "ok": True}
    if new is not None:
        doc.update(links(new, base))
        doc["table"] = new.id
    doc["tables"] = [{"id": t.id, "title": t.program.title, "over": t.game.over,
                      **links(t, base)} for t in tables.by_id.values()]
    return doc


def _print_links(tables, new, base: str) -> None:
    from ..web.server import links
    for table in tables.by_id.values():
        mark = " (new)" if table is new else ""
        print(f"{table.program.title} — table {table.id}{mark}")
        found = links(table, base)
        for seat, url in found["seats"].items():
            bot = table.stored.bots.get(int(seat) - 1)
            print(f"  seat {seat}{' (bot ' + bot + ')' if bot else ''}: {url}")
        print(f"  spectator: {found['spectator']}")
    print("Press Ctrl-C to stop the server.", file=sys.stderr, flush=True)


def catalog_speech():
    """The server's words (web/words.py: the table page's, the lobby's, why a move is
    refused) from the command line's catalogs: a table's in the language of its ruleset's
    locale, the lobby's in that of --locale or the visitor's Accept-Language (English for
    a sentence a catalog lacks); tests/test_i18n.py counts them among the sentences every
    catalog translates."""
    from ..web.words import Speech
    from . import i18n

    class CatalogSpeech(Speech):
        def languages(self) -> list[str]:
            return i18n.languages()

        def table_language(self, prog) -> str | None:
            return i18n.language(prog)

        def locale_language(self, locale: str | None) -> str | None:
            codes = i18n.catalogs()
            for code in (locale or "", (locale or "").replace("_", "-").split("-")[0]):
                if code in codes and code != "en":
                    return code
            return None

        def say(self, lang: str | None, text: str) -> str:
            return i18n.tr(lang, text)
    return CatalogSpeech()

