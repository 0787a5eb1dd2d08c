"""A seat's picks so far in a decision of several picks (Hearts' ``choose 3 passed(p)
... as "pass"``, issue 39 §1), written as the seat reads its cards: the terminal's
prompt says ``picked: two of clubs, seven of diamonds`` (not the notations ``pass
two-clubs``), and the web table's document (``picked``, which its status line says)
the same words."""
from __future__ import annotations

import asyncio
import re

import pytest
from meeple.cli.main import app
from meeple.interpreter import display
from meeple.interpreter.play import views
from meeple.web import present
from meeple.web.store import SPECTATOR, SQLiteStore
from meeple.web.tables import Tables
from typer.testing import CliRunner

from meeple import interpreter

TERMINAL = {"TTY_COMPATIBLE": "1", "TERM": "dumb", "COLUMNS": "80", "LINES": "24"}
SEED = 3


def _first_cards(locale: str | None, count: int) -> list[str]:
    """The names of the cards Player 1 picks by typing 1 ``count`` times: the first of
    its moves each time."""
    game = interpreter.load("hearts", locale=locale).new_game(4, seed=SEED)
    names = []
    for _ in range(count):
        move = game.legal_moves(0)[0]
        names.append(display.item_label(game.program, move.value))
        game.apply(move)
    return names


@pytest.mark.parametrize(("locale", "said"), [(None, "picked:"), ("de", "gewählt:")])
def test_the_prompt_names_the_cards_picked_so_far(tmp_path, locale, said):
    bots = [arg for s in (2, 3, 4) for arg in ("--bot", f"{s}=first")]
    r = CliRunner().invoke(app, ["play", "hearts", *(["--locale", locale] if locale else []),
                                 "--players", "4", *bots, "--seed", str(SEED), "--no-color",
                                 "--record", str(tmp_path / "h.json")],
                           input="1\n1\nquit\n", env=TERMINAL)
    assert "Traceback" not in r.output, r.output
    text = " ".join(r.output.split())      # (the prompt wraps at 80 columns)
    one, two = _first_cards(locale, 2)
    assert re.search(rf"— {said} {re.escape(one)} 1\. ", text), text
    assert f"— {said} {one}, {two} " in text, text
    assert f"{said} pass " not in text and f"{said} weitergeben " not in text


def test_the_web_document_names_the_seats_own_picks_and_nobody_elses(tmp_path):
    tables = Tables(SQLiteStore(tmp_path / "t.sqlite"))
    table = tables.create("hearts", interpreter.load("hearts", locale="de"), 4, [], "de", SEED, {})
    assert present.document(table, 0)["picked"] == []
    one, two = _first_cards("de", 2)
    for _ in range(2):
        asyncio.run(table.play(0, table.game.legal_moves(0)[0].notation))
    assert present.document(table, 0)["picked"] == [one, two]
    assert present.document(table, 1)["picked"] == []
    assert present.document(table, SPECTATOR)["picked"] == []


def test_the_values_of_the_picks_are_read_back_from_the_view():
    game = interpreter.load("hearts").new_game(4, seed=SEED)
    first = game.legal_moves(0)[0]
    game.apply(first)
    view = views.view(game, 0)
    assert view["pending"]["picked"] == [first.notation]
    assert display.picked_values(game.program, view, "item") == [first.value]
    # another seat's view tells nothing of them
    assert display.picked_values(game.program, views.view(game, 1), "item") == []
