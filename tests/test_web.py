"""`meeple serve`, the web table (web/, docs/web.md): its HTTP API against a real SQLite
file, the secrets each link keeps, refused moves, and a server killed with SIGKILL that
comes back with every acknowledged move."""
from __future__ import annotations

import html
import json
import random
import re
import sqlite3
from types import SimpleNamespace

import pytest

pytest.importorskip("starlette", reason="the web extra (pip install 'meeple[web]') is not installed")

import httpx2
import jsonschema
from console import meeple_cli
from meeple.cli.cmd_serve import catalog_speech
from meeple.interpreter import display, views
from meeple.web import present, schema
from meeple.web.app import create_app
from meeple.web.store import SPECTATOR, MoveTaken, SQLiteStore
from meeple.web.tables import Tables
from starlette.testclient import TestClient
from web_support import (
    JSON,
    ROOT,
    Server,
    Unseen,
    assert_hides,
    hearts_tables,
    path_of,
    wait_for_people,
)

from meeple import interpreter

SEAT_SCHEMA = json.loads((ROOT / "docs" / "schema" / schema.FILE).read_text(encoding="utf-8"))


@pytest.fixture
def hearts(tmp_path):
    tables, table = hearts_tables(tmp_path / "tables.sqlite")
    with TestClient(create_app(tables)) as client:
        yield SimpleNamespace(tables=tables, table=table, client=client, db=tmp_path / "tables.sqlite")


def test_the_published_seat_schema_is_up_to_date():
    assert (ROOT / "docs" / "schema" / schema.FILE).read_text(encoding="utf-8") == schema.generated(), \
        "run python -m meeple.web.schema"


def test_a_seat_gets_its_view_names_and_moves_as_json(hearts):
    doc = wait_for_people(hearts.client, path_of(hearts.table, 0))   # the bots have chosen
    jsonschema.Draft202012Validator(SEAT_SCHEMA).validate(doc)
    game = hearts.table.game
    assert doc["view"] == json.loads(json.dumps(views.view(game, 0)))
    assert doc["seat"] == 0 and doc["to_move"] == [0, 1] and doc["simultaneous"]
    assert [m["notation"] for m in doc["moves"]] == [m.notation for m in game.legal_moves(0)]
    hand = doc["view"]["zones"]["hand:0"]
    assert len(hand) == 13 and sorted(doc["items"]) == sorted(str(i) for i in hand)
    assert [p["bot"] for p in doc["players"]] == [False, False, True, True]
    spectator = hearts.client.get(path_of(hearts.table, SPECTATOR), headers=JSON).json()
    assert spectator["seat"] is None and spectator["moves"] == [] and spectator["items"] == {}


def test_the_page_is_escaped_html_with_a_policy_and_no_inline_script(hearts):
    answer = hearts.client.get(path_of(hearts.table, 1), headers={"Accept": "text/html"})
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
    csp = answer.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert answer.headers["referrer-policy"] == "no-referrer"
    assert answer.headers["cache-control"] == "no-store"
    page = answer.text
    assert "<title>Hearts — Player 2</title>" in page
    assert re.findall(r"<script[^>]*>", page) == ['<script src="/static/table.js" defer>']
    assert not re.search(r"\son\w+=", page)
    assert hearts.client.get("/static/table.js").status_code == 200


def test_a_title_written_as_html_is_shown_as_text(tmp_path):
    folder = tmp_path / "odd"
    folder.mkdir()
    (folder / "odd.meeple").write_text(
        'ruleset odd\ntitle "<script>alert(1)</script> & co"\nplayers 2..2\nvar turns: int = 0\n'
        'turn { choose x from [1, 2] as "pick"  turns = turns + 1 }\nend when turns == 2\n'
        'score(p) = 0\n', encoding="utf-8")
    tables = Tables(SQLiteStore(tmp_path / "t.sqlite"))
    table = tables.create(str(folder), interpreter.load(str(folder)), 2, [], None, 1, {})
    with TestClient(create_app(tables)) as client:
        page = client.get(path_of(table, 0)).text
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in page


@pytest.mark.parametrize("locale, words", [
    ("de", ["Deine Züge", "Tisch", "Verlauf", "Du bist am Zug.", "Letzter Zug: {player}: {move}"]),
    ("fr", ["Vos coups", "Joueurs", "Journal", "À vous de jouer."]),
    ("nl", ["Jouw zetten", "Spelers", "Verloop", "Jij bent aan zet."]),
    ("ru", ["Ваши ходы", "Игроки", "Журнал", "Ваш ход."]),
    (None, ["Your moves", "Players", "Log", "Your move.", "Last move: {player}: {move}"]),
])
def test_the_page_speaks_the_tables_language(tmp_path, locale, words):
    """The page's headings (in its HTML) and its script's sentences (the body's
    data-words) come from the CLI's catalogs, in the table's locale."""
    tables = Tables(SQLiteStore(tmp_path / "t.sqlite"))
    table = tables.create("cherokee", interpreter.load("cherokee", locale=locale), 2, [], locale,
                          1, {})
    with TestClient(create_app(tables, words=catalog_speech())) as client:   # as meeple serve does
        page = client.get(path_of(table, 0)).text
    said = json.loads(html.unescape(re.search(r'<body data-words="([^"]*)">', page).group(1)))
    found = [w for w in words if w in page or w in said.values()]
    assert found == words
    assert set(said) >= {"your_move", "last_move", "moves_from", "over", "hidden"}
    if locale:       # nothing left in English
        assert "Your moves" not in page and "Your move." not in said.values()


def _refusals(locale, tmp_path) -> list[dict]:
    """The answers to refused moves at a table of Cherokee in ``locale``, as meeple serve
    gives them: a move by the seat not to move, a notation that is no legal move, a body
    that is not JSON."""
    tables = Tables(SQLiteStore(tmp_path / f"refused-{locale}.sqlite"))
    table = tables.create("cherokee", interpreter.load("cherokee", locale=locale), 2, [], locale,
                          1, {})
    waiting = next(s for s in range(2) if s not in table.game.deciding)
    with TestClient(create_app(tables, words=catalog_speech())) as client:
        answers = [_post(client, path_of(table, waiting), {"move": "x"}),
                   _post(client, path_of(table, 1 - waiting), {"move": "nonsense"}),
                   _post(client, path_of(table, 1 - waiting), raw=b"{")]
    return [{"status": a.status_code, **a.json()} for a in answers]


def test_a_refused_move_is_explained_in_the_tables_language(tmp_path):
    """The message of a refused move is in the table's locale; its error code is the
    same in every language."""
    english, french = _refusals(None, tmp_path), _refusals("fr", tmp_path)
    assert [(a["status"], a["error"]) for a in french] == [(a["status"], a["error"]) for a in english] \
        == [(409, "not_your_turn"), (422, "illegal"), (400, "not_json")]
    assert [a["message"] for a in english] == [
        "It is not your turn to move.", "'nonsense' is not one of your legal moves now.",
        'The body is not JSON; send an object with one key, "move": the notation.']
    assert [a["message"] for a in french] == [
        "Ce n'est pas à vous de jouer.", "« nonsense » n'est pas un de vos coups légaux maintenant.",
        'Le corps n\'est pas du JSON ; envoyez un objet à une clé, "move" : la notation.']


def _lobby_page(tmp_path, headers, locale=None) -> str:
    from meeple.web.lobby import Lobby
    tables = Tables(SQLiteStore(tmp_path / "lobby.sqlite"))
    lobby = Lobby(tables)
    with TestClient(create_app(tables, lobby, words=catalog_speech(), locale=locale)) as client:
        answer = client.get(f"/l/{lobby.token}", headers=headers)
    assert answer.status_code == 200 and "Accept-Language" in answer.headers["vary"]
    return answer.text


def _lobby_words(page: str) -> dict:
    return json.loads(html.unescape(re.search(r'<body data-words="([^"]*)">', page).group(1)))


def test_the_lobby_speaks_the_visitors_language(tmp_path):
    """Without --locale the lobby is in the language the visitor's Accept-Language wants
    most among those the catalogs have; English when none."""
    page = _lobby_page(tmp_path, {"Accept-Language": "de"})
    assert '<html lang="de">' in page and "<h1>Einen Tisch eröffnen</h1>" in page
    assert ">Tisch eröffnen</button>" in page and ">Spieler</label>" in page
    assert "Start a table" not in page and _lobby_words(page)["seat"] == "Platz {seat}"
    wanted = _lobby_page(tmp_path, {"Accept-Language": "ja, nl-BE;q=0.5, fr;q=0.8, ru;q=0"})
    assert '<html lang="fr">' in wanted and "Ouvrir une table" in wanted
    for header in ({"Accept-Language": "ja, *;q=0.1"}, {}):
        page = _lobby_page(tmp_path, header)
        assert '<html lang="en">' in page and "<h1>Start a table</h1>" in page


def test_the_servers_locale_chooses_the_lobbys_language(tmp_path):
    page = _lobby_page(tmp_path, {"Accept-Language": "de"}, locale="ru")
    assert '<html lang="ru">' in page and "Открыть стол" in page and "Tisch" not in page


def test_a_wrong_token_is_404_and_says_nothing(hearts):
    token = hearts.table.links()[0]
    wrong = ["/t/" + token[:-1] + ("A" if token[-1] != "A" else "B"), "/t/" + "x" * 32, "/t/short",
             "/t/" + token + "x", "/nowhere"]
    answers = [hearts.client.get(u, headers=JSON) for u in wrong]
    answers += [hearts.client.post(u + "/moves", json={"move": "pass two-clubs"}) for u in wrong[:3]]
    answers += [hearts.client.get(u + "/events") for u in wrong[:3]]
    assert {(a.status_code, a.text) for a in answers} == {(404, "Not Found")}


def test_links_are_long_random_and_distinct(hearts):
    tokens = list(hearts.table.links().values())
    assert len(set(tokens)) == 5 and all(re.fullmatch(r"[A-Za-z0-9_-]{32}", t) for t in tokens)


def _post(client, url, body=None, raw=None, content_type="application/json"):
    data = raw if raw is not None else json.dumps(body).encode()
    return client.post(url + "/moves", content=data, headers={"Content-Type": content_type})


def test_refused_moves_get_a_clear_4xx(hearts):
    c, t = hearts.client, hearts.table
    one, two = path_of(t, 0), path_of(t, 1)
    cases = [
        (_post(c, one, {"move": "pass nonsense"}), 422, "illegal", "'pass nonsense' is not one of your legal moves"),
        (_post(c, one, {"moves": "x"}), 400, "bad_body", '"move": the notation'),
        (_post(c, one, ["pass"]), 400, "bad_body", '"move": the notation'),
        (_post(c, one, {"move": 3}), 400, "bad_body", "string"),
        (_post(c, one, {"move": ""}), 400, "notation_length", "1 to 400 characters"),
        (_post(c, one, raw=b"\xff\xfe{"), 400, "not_json", "not JSON"),
        (_post(c, one, raw=b'{"move": "x"}', content_type="text/plain"), 415, "content_type",
         "application/json"),
        (_post(c, one, raw=b'{"move": "' + b"a" * 10_000 + b'"}'), 413, "too_large",
         "too large (at most 4096 bytes)"),
        (_post(c, path_of(t, SPECTATOR), {"move": "pass two-clubs"}), 403, "spectator", "spectator"),
        (_post(c, path_of(t, 2), {"move": "pass two-clubs"}), 403, "bot_seat", "bot"),
    ]
    for answer, status, code, words in cases:
        got = answer.json()
        assert answer.status_code == status and got["ok"] is False, answer.text
        assert got["error"] == code and words in got["message"], answer.text
    # a seat that has chosen (its three cards) is not to move until the others have
    start = wait_for_people(c, one)["version"]
    for k in range(3):
        first = t.game.legal_moves(0)[0].notation
        assert _post(c, one, {"move": first}).json() == {"ok": True, "played": first,
                                                          "version": start + 1 + k}
    late = _post(c, one, {"move": t.game.legal_moves(1)[0].notation})
    assert late.status_code == 409 and late.json() == {
        "ok": False, "error": "not_your_turn", "message": "It is not your turn to move."}
    assert _post(c, two, {"move": t.game.legal_moves(1)[0].notation}).status_code == 200
    assert c.get(one, headers=JSON).json()["version"] >= start + 4


def test_a_seat_passes_its_three_cards_at_once_and_the_others_learn_nothing(tmp_path):
    """Hearts at the web table: seat 1 is offered its three passes one after the other
    without waiting for anyone (`choose 3`), and seat 2's document is the same whether
    seat 1 passed its three lowest cards or its three highest."""
    seen = []
    for k, which in enumerate((slice(0, 3), slice(10, 13))):
        tables, table = hearts_tables(tmp_path / f"tables{k}.sqlite")
        with TestClient(create_app(tables)) as c:
            one, two = path_of(table, 0), path_of(table, 1)
            doc = wait_for_people(c, one)
            chosen = [m["notation"] for m in doc["moves"]][which]
            for n, notation in enumerate(chosen):
                doc = c.get(one, headers=JSON).json()
                assert doc["to_move"] == [0, 1] and len(doc["moves"]) == 13 - n
                assert notation in [m["notation"] for m in doc["moves"]]
                assert _post(c, one, {"move": notation}).status_code == 200
            doc = c.get(one, headers=JSON).json()
            assert doc["to_move"] == [1] and doc["moves"] == []
            shown = c.get(two, headers=JSON).json()
            assert not any(x in json.dumps(shown) for x in chosen)
            seen.append(shown)
    assert seen[0] == seen[1]


def test_any_body_gets_an_answer_below_500(hearts):
    rnd = random.Random(5)
    url = path_of(hearts.table, 0)
    bodies = [bytes(rnd.randrange(256) for _ in range(rnd.randrange(64))) for _ in range(40)]
    bodies += [json.dumps(v).encode() for v in (None, 1, "x", [], {}, {"move": None},
                                                {"move": "p9: pass two-clubs"}, {"move": "p2: x"},
                                                {"move": "\x00"}, {"move": "pass " * 80})]
    for body in bodies:
        answer = _post(hearts.client, url, raw=body)
        assert 400 <= answer.status_code < 500 or answer.status_code == 200, (body, answer.text)


def test_seat_2_is_never_shown_seat_1s_cards_in_a_whole_game(hearts):
    """Seats 1 and 2 play a whole game through the API (bots play 3 and 4): at every step
    seat 2's JSON and page hold no card of seat 1's hand it was never shown, and its
    document is the same for any game it cannot tell apart from this one (the hidden
    cards and the secret choices drawn again: interpreter.determinize)."""
    c, t = hearts.client, hearts.table
    urls = {0: path_of(t, 0), 1: path_of(t, 1)}
    unseen = Unseen(t.game, 1)
    rnd = random.Random(1)
    steps = 0
    while True:
        doc = wait_for_people(c, urls[1])
        unseen.note(t.game)
        words = unseen.words(t.game, 0)
        assert_hides(json.dumps(doc, ensure_ascii=False), words)
        # the last move and the moves' starts name no card seat 2 was never shown (held
        # by any other seat, or passed between them)
        assert_hides(json.dumps(doc["last_move"], ensure_ascii=False), unseen.never(t.game))
        assert all(m["start"] is None or int(m["start"]["item"]) in unseen.seen
                   for m in doc["moves"])
        assert_hides(c.get(urls[1]).text, words)
        if steps % 7 == 0:
            twin = SimpleNamespace(game=interpreter.determinize(t.game, 1, rnd), program=t.program,
                                   bots=t.bots, version=t.version, last=t.last, made=t.made,
                                   opening=t.opening)
            assert present.document(twin, 1) == present.document(t, 1)
        if doc["over"]:
            break
        seat = next(s for s in doc["to_move"] if s in urls)
        moves = c.get(urls[seat], headers=JSON).json()["moves"]
        answer = _post(c, urls[seat], {"move": rnd.choice(moves)["notation"]})
        assert answer.status_code == 200, answer.text
        steps += 1
    assert steps >= 26 and doc["result"] is not None and t.game.over
    record = c.get(urls[0] + "/record")
    assert record.status_code == 200 and record.json()["moves"] == t.stored.moves
    saved = hearts.db.parent / "record.json"
    saved.write_text(record.text, encoding="utf-8")
    replayed = meeple_cli("replay", saved, "--json")     # the record replays, to the same end
    assert replayed.code == 0 and replayed.json()["result"] == t.game.result, replayed


def _made(move: dict) -> dict:
    """A move made as a document lists it, without the numbers of its messages, its
    chance results and whether its message tells it."""
    return {k: v for k, v in move.items() if k not in ("said", "said_before", "fell", "told")}


def test_a_secret_choice_is_the_last_move_by_its_verb_alone(hearts):
    c, t = hearts.client, hearts.table
    one, two = path_of(t, 0), path_of(t, 1)
    wait_for_people(c, one)           # the bots have passed: seats 1 and 2 choose at once
    move = t.game.legal_moves(0)[0]
    assert _post(c, one, {"move": move.notation}).status_code == 200
    mine = c.get(one, headers=JSON).json()
    assert _made(mine["last_move"]) == {"player": 0, "notation": move.notation, "cells": [],
                                        "text": mine["moves_made"][-1]["text"]}
    assert mine["last_move"]["text"] == "pass " + display.item_label(t.program, move.value)
    shown = c.get(two, headers=JSON).json()
    verb = t.game.decision.verb
    assert _made(shown["last_move"]) == {"player": 0, "notation": verb, "cells": [], "text": verb}
    assert shown["moves_made"][-1] == shown["last_move"]
    assert move.notation not in json.dumps(shown) and move.notation not in c.get(two).text
    assert c.get(path_of(t, SPECTATOR), headers=JSON).json()["last_move"]["notation"] == "pass"


def test_a_secret_bid_is_shown_once_every_seat_has_bid(tmp_path):
    folder = tmp_path / "bids"
    folder.mkdir()
    (folder / "bids.meeple").write_text(
        'ruleset bids\nplayers 2..2\nvar bid: int per player = 0\nvar rounds: int = 0\n'
        'turn { choose bid(p) from [1, 2, 3] for each p in players as "bid"\n'
        '  rounds = rounds + 1 }\nend when rounds == 2\nscore(p) = bid(p)\n', encoding="utf-8")
    tables = Tables(SQLiteStore(tmp_path / "t.sqlite"))
    table = tables.create(str(folder), interpreter.load(str(folder)), 2, [], None, 1, {})
    with TestClient(create_app(tables)) as client:
        one, two = path_of(table, 0), path_of(table, 1)
        assert client.get(two, headers=JSON).json()["last_move"] is None
        assert _post(client, one, {"move": "bid 3"}).status_code == 200
        assert client.get(two, headers=JSON).json()["last_move"]["notation"] == "bid"
        assert client.get(one, headers=JSON).json()["last_move"]["notation"] == "bid 3"
        assert _post(client, two, {"move": "bid 2"}).status_code == 200   # the bids are shown
        assert _made(client.get(one, headers=JSON).json()["last_move"]) == {
            "player": 1, "notation": "bid 2", "cells": [], "text": "bid 2"}
        again = Tables(SQLiteStore(tmp_path / "t.sqlite"))      # a server started again
        again.restore()
        assert present.document(again.by_id[table.id], 0)["last_move"]["notation"] == "bid 2"


def _said_first(doc: dict, move: dict) -> str | None:
    """The first message that came with a move the document lists (None: none it keeps)."""
    k = move["said_before"] - doc["log_dropped"]
    return doc["log"][k] if move["said"] > move["said_before"] and 0 <= k < len(doc["log"]) else None


@pytest.mark.parametrize("ruleset", ["chess", "kalah"])
def test_a_move_its_first_message_tells_is_marked_told_to_every_seat(tmp_path, ruleset):
    """Chess says every move ("Player 1: e2-e4"), Kalah too ("Player 1 sows a2"): each
    move made is listed as told (views.move_told) to both seats and the spectator, so the
    page writes it once, by that message (the notation alone is not enough: told names
    the message that says it)."""
    tables = Tables(SQLiteStore(tmp_path / "t.sqlite"))
    table = tables.create(ruleset, interpreter.load(ruleset), 2, [], None, 4, {})
    rnd = random.Random(5)
    with TestClient(create_app(tables)) as client:
        for _ in range(6):
            seat = table.game.deciding[0]
            doc = client.get(path_of(table, seat), headers=JSON).json()
            assert _post(client, path_of(table, seat),
                         {"move": rnd.choice(doc["moves"])["notation"]}).status_code == 200
        for seat in (0, 1, SPECTATOR):
            doc = client.get(path_of(table, seat), headers=JSON).json()
            jsonschema.Draft202012Validator(SEAT_SCHEMA).validate(doc)
            assert len(doc["moves_made"]) == 6 and doc["last_move"] == doc["moves_made"][-1]
            for move in doc["moves_made"]:
                said, value = _said_first(doc, move), move["notation"].split(" ", 1)[1]
                assert move["told"] is True, (move, said)
                assert said is not None and said.startswith(f"Player {move['player'] + 1}") \
                    and value in said, (move, said)


SECRET_BIDS = """ruleset bids
players 2..2
var bid: int per player owner = 0
var rounds: int = 0
turn {
  choose bid(p) from [1, 2] for each p in players as "bid"
  rounds = rounds + 1
  log counted "{players[1]} counts {rounds}"
}
end when rounds == 2
score(p) = bid(p)
"""


def test_a_move_is_told_by_a_message_only_to_a_seat_that_may_know_its_value(tmp_path):
    """A secret bid of 1 (an owner variable) whose round's message happens to name its
    bidder and the number 1 ("Player 2 counts 1"): told to the bidder, never to the other
    seat nor the spectator, who may not know the bid (views.move_told: a choice the seat
    may not see never counts); a message that names another number tells it to nobody."""
    folder = tmp_path / "bids"
    folder.mkdir()
    (folder / "bids.meeple").write_text(SECRET_BIDS, encoding="utf-8")
    tables = Tables(SQLiteStore(tmp_path / "t.sqlite"))
    table = tables.create(str(folder), interpreter.load(str(folder)), 2, [], None, 1, {})
    with TestClient(create_app(tables)) as client:
        one, two = path_of(table, 0), path_of(table, 1)
        told = []
        for first, second in (("bid 2", "bid 1"), ("bid 1", "bid 1")):
            assert _post(client, one, {"move": first}).status_code == 200
            assert _post(client, two, {"move": second}).status_code == 200
            docs = [client.get(path_of(table, s), headers=JSON).json() for s in (0, 1, SPECTATOR)]
            for doc in docs:
                jsonschema.Draft202012Validator(SEAT_SCHEMA).validate(doc)
            told.append([[m["told"] for m in doc["moves_made"][-2:]] for doc in docs])
        assert _said_first(docs[1], docs[1]["moves_made"][1]) == "Player 2 counts 1"
        assert _said_first(docs[1], docs[1]["moves_made"][3]) == "Player 2 counts 2"
        assert docs[0]["moves_made"][1]["notation"] == "bid"       # (seat 1 never sees it)
    # (round 1: seat 2's bid of 1, "Player 2 counts 1"; round 2: "counts 2", no bid of 2)
    assert told == [[[False, False], [False, True], [False, False]],
                    [[False, False], [False, False], [False, False]]]


@pytest.mark.parametrize("ruleset", ["kalah", "cherokee"])
def test_each_move_starts_at_the_cell_or_item_it_acts_on(tmp_path, ruleset):
    """A move's start is the cell or the item its value chooses first: a click on that
    cell or item picks it; the last move names the cells its notation names."""
    tables = Tables(SQLiteStore(tmp_path / "t.sqlite"))
    table = tables.create(ruleset, interpreter.load(ruleset), 2, [], None, 4, {})
    rnd = random.Random(2)
    kinds = set()
    with TestClient(create_app(tables)) as client:
        for _ in range(40):
            if table.game.over:
                break
            seat = table.game.deciding[0]
            doc = client.get(path_of(table, seat), headers=JSON).json()
            jsonschema.Draft202012Validator(SEAT_SCHEMA).validate(doc)
            names = {c["key"]: c["name"] for b in doc["boards"] for c in b["cells"]}
            for m in doc["moves"]:
                first = m["notation"].split()[1].split("+")[0]     # 'sow a1', 'with r3c1+r4c3'
                if "zone" in (m["start"] or {}):
                    assert names[m["start"]["zone"]] == first, m
                    kinds.add("cell")
                elif "item" in (m["start"] or {}):
                    assert doc["items"][m["start"]["item"]]["notation"] == first, m
                    kinds.add("item")
                else:
                    assert m["notation"].split()[0] in ("pass", "stop"), m
            played = rnd.choice(doc["moves"])["notation"]
            assert _post(client, path_of(table, seat), {"move": played}).status_code == 200
            last = client.get(path_of(table, 1 - seat), headers=JSON).json()["last_move"]
            assert last["player"] == seat and last["notation"] == played
            assert [names[k] for k in last["cells"]] == [w for w in played.split()[1].split("+")
                                                         if w in names.values()]
    assert kinds == ({"cell"} if ruleset == "kalah" else {"cell", "item"})


def test_the_record_is_not_given_before_the_end(hearts):
    answer = hearts.client.get(path_of(hearts.table, 0) + "/record")
    assert answer.status_code == 409 and answer.json()["error"] == "record_not_yet"
    assert "over" in answer.json()["message"]


def test_a_store_opened_again_gives_the_tables_where_they_were(hearts):
    c, t = hearts.client, hearts.table
    for seat in (0, 1):
        _post(c, path_of(t, seat), {"move": t.game.legal_moves(seat)[0].notation})
    wait_for_people(c, path_of(t, 0))
    again = Tables(SQLiteStore(hearts.db))
    assert again.restore() == []
    other = again.by_id[t.id]
    assert other.game.to_json() == t.game.to_json() and other.version == t.version
    assert other.links() == t.links()
    assert again.find(t.links()[1]).seat == 1
    with pytest.raises(MoveTaken):       # a move number is stored once
        again.store.add_move(t.id, 0, "pass two-clubs")
    n = len(t.stored.moves)
    # several moves in one transaction; one whose number is taken is refused alone
    assert again.store.add_moves([(t.id, n, "a"), (t.id, n + 1, "b")]) == [True, True]
    assert again.store.add_moves([(t.id, n + 1, "c"), (t.id, n + 2, "d")]) == [False, True]
    assert again.store.moves_from(t.id, n) == ["a", "b", "d"]


# ---------------------------------------------------------------- the command and a real server

def test_serve_refuses_a_public_address_without_public_and_bad_options(tmp_path):
    db = str(tmp_path / "t.sqlite")
    r = meeple_cli("serve", "hearts", "--host", "0.0.0.0", "--db", db)
    assert r.code == 2 and "--public" in r.err
    r = meeple_cli("serve", "--rulesets", str(tmp_path / "none"), "--db", db)
    assert r.code == 2 and "not a folder" in r.err
    r = meeple_cli("serve", "hearts", "--players", "9", "--db", db)
    assert r.code == 2
    r = meeple_cli("serve", "hearts", "--bot", "7=random", "--db", db)
    assert r.code == 2 and "no seat 7" in r.err
    r = meeple_cli("serve", "--seed", "3", "--db", db)
    assert r.code == 2 and "RULESET" in r.err
    r = meeple_cli("serve", "--locale", "xx", "--db", db)    # the lobby's language
    assert r.code == 2 and "--locale xx" in r.err and "de, en, fr" in r.err


def test_serve_json_failures_are_documents_and_public_warns(tmp_path):
    import jsonschema as js
    from meeple.cli import schemas as cli_schemas
    r = meeple_cli("serve", "nope", "--json", "--db", str(tmp_path / "t.sqlite"))
    assert r.code == 1 and "nope" in r.err
    doc = r.json()
    js.Draft202012Validator(cli_schemas.schema("serve")).validate(doc)
    assert doc["ok"] is False and "nope" in doc["error"]["message"]
    server = Server("kalah", "--host", "0.0.0.0", "--public", "--db", str(tmp_path / "p.sqlite"))
    links = server.links
    err = server.stop()
    js.Draft202012Validator(cli_schemas.schema("serve")).validate(links)
    assert "the links are the only protection" in err and links["tables"][0]["id"] == links["table"]
    assert all(url.startswith("http://127.0.0.1:") for url in links["seats"].values())
    assert links["spectator"] not in err and links["seats"]["1"].split("/t/")[1] not in err


def test_the_lobby_starts_tables_from_its_list_only(tmp_path):
    from meeple.web.lobby import Lobby
    own = tmp_path / "mine"
    own.mkdir()
    (own / "duel.meeple").write_text(
        'ruleset duel\ntitle "Duel"\nplayers 2..2\nvar turns: int = 0\n'
        'turn { choose x from [1, 2] as "pick"  turns = turns + 1 }\nend when turns == 2\n'
        'score(p) = 0\n', encoding="utf-8")
    tables = Tables(SQLiteStore(tmp_path / "t.sqlite"))
    lobby = Lobby(tables, own)
    url = f"/l/{lobby.token}"
    with TestClient(create_app(tables, lobby)) as client:
        doc = client.get(url, headers=JSON).json()
        names = {r["name"]: r for r in doc["rulesets"]}
        assert {"hearts", "kalah", "duel"} <= set(names) and names["duel"]["title"] == "Duel"
        assert names["cherokee"]["variants"] == ["open_clans"] and "random" in doc["bots"]
        assert "<script src=\"/static/lobby.js\" defer>" in client.get(url).text
        bad = [({"ruleset": "../etc/passwd"}, "no such ruleset"),
               ({"ruleset": "/work"}, "no such ruleset"),
               ({"ruleset": "kalah", "players": 5}, "2 to 2 players"),
               ({"ruleset": "cherokee", "variants": ["nope"]}, "variants"),
               ({"ruleset": "cherokee", "variants": [["open_clans"]]}, "variants"),
               ({"ruleset": "kalah", "players": 2, "seats": ["human", "mcts:nope=1"]}, "seat 2"),
               ({"ruleset": "kalah", "seats": ["human"]}, "one entry per seat"),
               ({"ruleset": "kalah", "extra": 1}, '{"ruleset": NAME'),
               ([1], '{"ruleset": NAME')]
        for body, words in bad:
            answer = client.post(url + "/tables", json=body)
            assert answer.status_code == 400 and words in answer.json()["error"], (body, answer.text)
        assert client.post(url + "/tables", content=b"{", headers={
            "Content-Type": "application/json"}).status_code == 400
        wrong = client.post(url + "/tables", content=b'{"ruleset": "kalah"}',
                            headers={"Content-Type": "text/plain"})
        assert wrong.status_code == 415 and "application/json" in wrong.json()["error"]
        big = client.post(url + "/tables", content=b'{"ruleset": "' + b"k" * 8192 + b'"}',
                          headers={"Content-Type": "application/json"})
        assert big.status_code == 413 and "too large" in big.json()["error"]
        made = client.post(url + "/tables", json={"ruleset": "duel", "players": 2,
                                                  "seats": ["human", "random"]})
        assert made.status_code == 201, made.text
        seat1 = made.json()["seats"]["1"]
        first = client.get(seat1, headers=JSON).json()
        assert first["title"] == "Duel" and [p["bot"] for p in first["players"]] == [False, True]
        assert client.get(f"/l/{'x' * 32}", headers=JSON).status_code == 404
        assert client.post(f"/l/{'x' * 32}/tables", json={"ruleset": "kalah"}).status_code == 404
    again = Tables(SQLiteStore(tmp_path / "t.sqlite"))
    assert again.restore() == [] and [t.stored.ruleset for t in again.by_id.values()] == [
        str((own / "duel.meeple").resolve())]


def _events(url: str) -> dict:
    """The first 'state' event of a link's event stream."""
    with httpx2.stream("GET", url + "/events", timeout=30) as answer:
        assert answer.headers["content-type"].startswith("text/event-stream")
        event = None
        for line in answer.iter_lines():
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "state":
                return json.loads(line[6:])
    raise AssertionError("no state event")


def _settled(url: str, timeout: float = 60) -> dict:
    import time
    end = time.monotonic() + timeout
    while True:
        doc = httpx2.get(url, headers=JSON, timeout=30).json()
        if doc["over"] or not any(doc["players"][s]["bot"] for s in doc["to_move"]):
            return doc
        assert time.monotonic() < end
        time.sleep(0.05)


def test_a_killed_server_comes_back_with_every_acknowledged_move(tmp_path):
    """`meeple serve` in a child process: moves made over HTTP, then SIGKILL; started
    again on the same --db, it serves the table where it was, with every move it had
    acknowledged. Seat 2's event stream holds none of seat 1's cards."""
    db = str(tmp_path / "tables.sqlite")
    server = Server("hearts", "--players", "4", "--bot", "3=random", "--bot", "4=random",
                    "--seed", "11", "--db", db)
    try:
        assert set(server.links) == {"format", "ok", "seats", "spectator", "table", "tables", "lobby"}
        seats = server.links["seats"]
        game = interpreter.load("hearts").new_game(players=4, seed=11)
        unseen = Unseen(game, 1)
        assert_hides(json.dumps(_events(seats["2"]), ensure_ascii=False), unseen.words(game, 0))
        acknowledged = []
        rnd = random.Random(2)
        for _ in range(12):
            doc = _settled(seats["1"])
            seat = next(s for s in doc["to_move"] if s in (0, 1))
            moves = httpx2.get(seats[str(seat + 1)], headers=JSON, timeout=30).json()["moves"]
            answer = httpx2.post(seats[str(seat + 1)] + "/moves", timeout=30,
                                json={"move": rnd.choice(moves)["notation"]})
            assert answer.status_code == 200, answer.text
            acknowledged.append(answer.json()["played"])
        before = {s: _settled(url) for s, url in seats.items()}
    finally:
        server.kill()
    stored = [m for (m,) in sqlite3.connect(db).execute("SELECT move FROM moves ORDER BY number")]
    plain = iter(m.split(": ", 1)[-1] for m in stored)   # (p2: NOTATION in a simultaneous decision)
    assert all(a in plain for a in acknowledged)           # in order, none lost
    again = Server("--db", db)
    try:
        assert again.links["tables"][0]["id"] == server.links["table"]
        urls = {s: u.replace(_base(u), _base(again.links["tables"][0]["spectator"]))
                for s, u in seats.items()}
        after = {s: _settled(url) for s, url in urls.items()}
        assert after == before and after["1"]["version"] == len(stored)
    finally:
        again.stop()


def _base(url: str) -> str:
    return url.split("/t/")[0]
