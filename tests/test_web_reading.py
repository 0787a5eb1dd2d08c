"""The web table's moves written for people (web/reading.py, issue 39 item 1): each legal
move and each move made in words from the seat's view, the latest moves made in order
with the messages they caused, a key to the short labels on the boards; a server
started again lists the same moves."""
from __future__ import annotations

import asyncio
import itertools
import json
import random
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (pip install 'meeple[web]') is not installed")

import jsonschema
from meeple.interpreter import display
from meeple.web import present, schema
from meeple.web.reading import legend_key
from meeple.web.store import SPECTATOR, SQLiteStore
from meeple.web.tables import MOVES_SHOWN, Tables
from web_support import ROOT

from meeple import interpreter

SEAT_SCHEMA = json.loads((ROOT / "docs" / "schema" / schema.FILE).read_text(encoding="utf-8"))


def _table(tmp_path, ruleset: str, players: int = 2, seed: int = 4):
    tables = Tables(SQLiteStore(tmp_path / "t.sqlite"))
    return tables, tables.create(ruleset, interpreter.load(ruleset), players, [], None, seed, {})


def _made_moves(table, n: int, rnd: random.Random) -> list[str]:
    """Plays ``n`` random moves through the table (as a server does, without storing
    them); their notations."""
    out = []
    for _ in range(n):
        if table.game.over:
            break
        move = rnd.choice(table.game.legal_moves())
        out.append(move.notation)
        table._apply(move)
    return out


def test_a_move_choosing_an_item_reads_by_the_item_s_label(tmp_path):
    """Cherokee: 'play wolf-man-6' is 'play Wolf man 6', as the hand shows the card, and a
    chase names the card on the cell ('chase r2c1: Wild Potato woman 4')."""
    _, table = _table(tmp_path, "cherokee")
    prog = table.program
    doc = present.document(table, 0)
    jsonschema.Draft202012Validator(SEAT_SCHEMA).validate(doc)
    names = {c["key"]: c["name"] for b in doc["boards"] for c in b["cells"]}
    for m in doc["moves"]:
        cell = names[m["start"]["zone"]]
        lying = doc["view"]["zones"][m["start"]["zone"]]
        assert m["text"] == f"chase {cell}: {doc['items'][str(lying[-1])]['label']}"
    rnd = random.Random(1)
    while table.game.decision.verb != "play":
        _made_moves(table, 1, rnd)
    seat = table.game.deciding[0]
    doc = present.document(table, seat)
    for m in doc["moves"]:
        item = doc["items"][m["start"]["item"]]
        assert m["notation"] == "play " + item["notation"]
        assert m["text"] == "play " + item["label"] != m["notation"]
    move = table.game.legal_moves(seat)[0]
    table._apply(move)
    other = present.document(table, 1 - seat)
    # (the card goes to the discard pile, face up: the other seat reads it too)
    assert other["last_move"]["text"] == "play " + display.item_label(prog, move.value)
    assert other["moves_made"][-1] == other["last_move"]


def test_stones_and_checkers_are_not_named_on_their_cells(tmp_path):
    """A cell holding pieces that their labels do not tell apart (a checker, a stack of
    them) is written by its name alone: 'move p13 + p10'."""
    _, table = _table(tmp_path, "backgammon")
    doc = present.document(table, table.game.deciding[0])
    assert doc["moves"] and all(m["text"] == m["notation"].replace("+", " + ") for m in doc["moves"])


def test_go_s_moves_are_listed_with_the_messages_they_caused(tmp_path):
    """Go says nothing in its log while stones go down: the moves made are listed all the
    same, oldest first, as each seat saw them; each with the numbers of the messages
    said before it and with it, so that a pass's message follows the pass."""
    _, table = _table(tmp_path, "go")
    asks = table.program.checked.texts["play"]          # the ruleset's words for its decision
    assert present.document(table, 0)["prompt"] == asks and asks.startswith("Choose a point")
    assert present.document(table, 1)["prompt"] is None      # (not to move: no moves)
    played = _made_moves(table, 6, random.Random(3))
    table._apply(next(m for m in table.game.legal_moves() if m.notation == "pass"))
    played.append("pass")
    for seat in (0, 1, SPECTATOR):
        doc = present.document(table, seat)
        jsonschema.Draft202012Validator(SEAT_SCHEMA).validate(doc)
        assert [m["notation"] for m in doc["moves_made"]] == played
        assert [m["player"] for m in doc["moves_made"]] == [k % 2 for k in range(7)]
        said = [(m["said_before"], m["said"]) for m in doc["moves_made"]]
        assert all(a <= b for a, b in said) and all(b == a for (_, b), (a, _) in itertools.pairwise(said))
        last = doc["moves_made"][-1]
        assert last["said"] == doc["log_dropped"] + len(doc["log"]) > last["said_before"]
        assert "passes" in doc["log"][last["said_before"] - doc["log_dropped"]]


def test_the_list_of_moves_made_keeps_the_latest_and_comes_back_with_the_server(tmp_path):
    _, table = _table(tmp_path, "go", seed=1)
    rnd = random.Random(5)
    for _ in range(MOVES_SHOWN + 5):     # through the server's own path: stored
        seat = table.game.deciding[0]
        notation = rnd.choice([m for m in table.game.legal_moves() if m.notation != "pass"]).notation
        asyncio.run(table.play(seat, notation))
    doc = present.document(table, 0)
    assert len(doc["moves_made"]) == MOVES_SHOWN
    assert [m["notation"] for m in doc["moves_made"]] == table.stored.moves[-MOVES_SHOWN:]
    again = Tables(SQLiteStore(tmp_path / "t.sqlite"))     # a server started again
    assert again.restore() == []
    assert present.document(again.by_id[table.id], 0)["moves_made"] == doc["moves_made"]


def test_a_key_says_what_the_short_labels_on_the_boards_stand_for(tmp_path):
    _, table = _table(tmp_path, "cherokee")
    legend = {k["short"]: k["name"] for k in present.document(table, 0)["legend"]}
    assert legend["Bi"] == "Birds" and legend["m"] == "man" and legend["w"] == "woman"
    prog = interpreter.load("brotherhood-of-nine").for_players(2)
    legend = {k["short"]: k["name"] for k in legend_key(prog, range(len(prog.items)))}
    assert legend["s"] == "shielded" and legend["K"] == "Kveblir"   # (not ', shielded')

    (tmp_path / "h").mkdir()
    _, hearts = _table(tmp_path / "h", "hearts", players=4)
    assert present.document(hearts, 0)["legend"] == []      # (no board: no short labels)


PIG = (Path(__file__).parent / "testdata" / "pig.meeple").read_text(encoding="utf-8")


@pytest.fixture
def pig(tmp_path):
    folder = tmp_path / "pig"
    folder.mkdir()
    (folder / "pig.meeple").write_text(PIG, encoding="utf-8")
    return folder


def _hold(game) -> int:
    return next(int(m.notation.split()[1]) for m in game.legal_moves() if m.notation.startswith("hold "))


def test_the_dice_are_listed_where_they_fell(pig, tmp_path):
    """Pig never logs its die: the set-up's first throw is the document's opening, and
    each roll's die is among the move's chance results, for every seat, where it fell
    among the messages ('Player 1 rolls a 1' comes after the die that made it)."""
    tables = Tables(SQLiteStore(tmp_path / "t.sqlite"))
    table = tables.create(str(pig), interpreter.load(str(pig)), 2, [], None, 2, {})
    first = _hold(table.game)
    for seat in (0, 1, SPECTATOR):
        doc = present.document(table, seat)
        jsonschema.Draft202012Validator(SEAT_SCHEMA).validate(doc)
        assert doc["opening"] == [{"kind": "roll", "player": 0, "said": 0, "values": [str(first)]}]
    rolls = []
    while len(rolls) < 6:
        before = table.game.copy()
        asyncio.run(table.play(table.game.active_player, "roll"))    # (stored, as a server does)
        if table.game.over:
            break
        rolls.append((before.active_player, table.game.active_player, _hold(table.game) - _hold(before)
                      if table.game.active_player == before.active_player else None))
    doc = present.document(table, 1)
    assert len(doc["moves_made"]) == len(rolls) and any(die is None for *_, die in rolls)
    for m, (player, after, die) in zip(doc["moves_made"], rolls):
        if die is not None:          # (the same player rolls again: the die is the difference)
            assert m["fell"] == [{"kind": "roll", "player": player, "said": m["said"],
                                  "values": [str(die)]}]
        else:                        # a 1, its message, then the next player's first die
            assert m["fell"][0] == {"kind": "roll", "player": player, "said": m["said_before"],
                                    "values": ["1"]}
            assert "rolls a 1" in doc["log"][m["said_before"] - doc["log_dropped"]]
            assert m["fell"][-1]["player"] == after and m["fell"][-1]["said"] == m["said"]
    assert present.document(again_restored(tmp_path, table), 1)["moves_made"] == doc["moves_made"]


def again_restored(tmp_path, table):
    again = Tables(SQLiteStore(tmp_path / "t.sqlite"))
    assert again.restore() == []
    return again.by_id[table.id]


def test_a_die_the_ruleset_tells_itself_is_not_listed_twice(tmp_path):
    """Backgammon says each throw itself ('Player 2 rolls 2 and 5'): no move lists it again."""
    _, table = _table(tmp_path, "backgammon", seed=5)
    _made_moves(table, 12, random.Random(1))
    doc = present.document(table, 0)
    assert any("rolls" in line for line in doc["log"])
    assert all(m["fell"] == [] for m in doc["moves_made"]) and doc["opening"] == []
