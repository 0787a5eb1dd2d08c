"""The JSON Schema of what a seat's link answers (``GET SEAT_URL`` with ``Accept:
application/json``, and each ``state`` event of ``SEAT_URL/events``), published as
docs/schema/web-seat.schema.json and refreshed with ``python -m meeple.web.schema
[FOLDER]`` (a test fails when it is stale)."""
from __future__ import annotations

import sys
from pathlib import Path

from ..dsl.schema import dumps
from .present import FORMAT

FILE = "web-seat.schema.json"


def _s(kind, description: str, **more) -> dict:
    return {"type": kind, "description": description, **more}


def _obj(description: str, props: dict) -> dict:
    return {"type": "object", "description": description, "properties": props,
            "required": sorted(props), "additionalProperties": False}


def _list(items: dict, description: str) -> dict:
    return {"type": "array", "items": items, "description": description}


def seat_schema() -> dict:
    seat = _s("integer", "a seat, counted from 0 as in the view", minimum=0)
    cell = _obj("a cell", {"key": _s("string", "its zone key in view.zones (BOARD:NAME)"),
                           "name": _s("string", "its name, as moves write it"),
                           "col": _s("integer", "its column on the board's grid, from 0"),
                           "row": _s("integer", "its row on the board's grid, from 0")})
    fell = _obj("a run of chance results alike (the dice of one throw)", {
        "kind": _s("string", "roll, pick or tie"),
        "player": _s(["integer", "null"], "whose turn it fell in (null: nobody's)"),
        "said": _s("integer", "how many messages had been said before it fell", minimum=0),
        "values": _list(_s("string", "a value, written for people"), "its values")})
    made = _obj("a move made, as this seat saw it", {
        "player": seat,
        "notation": _s(["string", "null"], "its notation; its verb alone (null when it has "
                       "none) when this seat may not know what was chosen (a secret choice, "
                       "an item it never saw)"),
        "text": _s(["string", "null"], "the move in words as this seat may read it (as a "
                   "legal move's text); the verb alone, as the notation, when it may not"),
        "cells": _list(_s("string", "a cell's key in view.zones"),
                       "the cells it names (none when its notation is not shown)"),
        "said_before": _s("integer", "how many messages the game had said before it "
                          "(a message's number is log_dropped + its index in log)", minimum=0),
        "said": _s("integer", "how many messages the game had said once it was made: "
                   "those numbered from said_before on came with it", minimum=0),
        "fell": _list(fell, "the dice, random picks and random ties that fell with it, in "
                            "a game that hides nothing, unless the ruleset's own message "
                            "right after them names them (views.chance_runs)"),
        "told": _s("boolean", "whether the first message that came with it (number "
                   "said_before) names its player and its value, as every seat reads them "
                   "(views.move_told): a client that writes each move among its messages "
                   "then leaves the move's own line out, not to tell it twice")})
    body = {
        "format": {"const": FORMAT, "description": "this format and its version"},
        "title": _s("string", "the ruleset's title (in the table's locale)"),
        "seat": _s(["integer", "null"], "the seat of this link (from 0); null for a spectator"),
        "players": _list(_obj("a seat", {"seat": seat, "name": _s("string", "its name"),
                                         "bot": _s("boolean", "whether a bot plays it")}),
                         "every seat, in order"),
        "version": _s("integer", "the number of moves made so far: a later document has a "
                                 "greater one"),
        "over": _s("boolean", "whether the game is over"),
        "to_move": _list(seat, "the seats that must decide now (several in a simultaneous "
                               "decision; none once over)"),
        "simultaneous": _s("boolean", "whether the seats to move choose at once, in secret"),
        "moves": _list(_obj("a legal move", {
            "notation": _s("string", 'its notation: POST {"move": NOTATION} to SEAT_URL/moves'),
            "start": {"description": "what the move acts on first (its chosen value; the first "
                      "part of a tuple, the first element of a list): a cell or a zone by its key "
                      "in view.zones, or an item this document's items name; null otherwise",
                      "oneOf": [{"type": "null"},
                                _obj("a cell or a zone", {"zone": _s("string", "its key")}),
                                _obj("an item", {"item": _s("string", "its id, a key of items")})]},
            "text": _s("string", "the move in words: its verb and its value with the items "
                                 "by their labels and the cells with what the seat sees on "
                                 "them ('play Wolf man 6'), else its notation")}),
            "this seat's legal moves when it is to move (and not a bot's), else empty"),
        "picked": _list(_s("string", "a pick, its value in words as a move's text writes "
                                     "it ('ace of spades')"),
                        "in a decision of several picks each (choose 3 ...), this seat's own "
                        "picks so far, in order, while it is to move; else empty"),
        "prompt": _s(["string", "null"], "the ruleset's own words asking for this seat's "
                     "decision (its locale's text for the verb), when it has moves and the "
                     "ruleset gives them; else null"),
        "last_move": {"description": "the last move made, as this seat saw it; null before "
                      "the first", "oneOf": [{"type": "null"}, made]},
        "moves_made": _list(made, "the latest moves made (at most 60), oldest first, as this "
                                  "seat saw them"),
        "opening": _list(fell, "the chance results of the set-up (an opening roll) as in a "
                               "move's fell, while moves_made begins with the first move"),
        "boards": _list(_obj("a board", {"name": _s("string", "its name"),
                                         "title": _s("string", "its name for people"),
                                         "cells": _list(cell, "its cells")}),
                        "the boards, each cell placed by its drawing coordinates"),
        "zones": _list(_obj("a zone off the boards", {
            "key": _s("string", "its key in view.zones (NAME, or NAME:SEAT for one per seat)"),
            "name": _s("string", "its name"),
            "title": _s("string", "its name for people"),
            "owner": _s(["integer", "null"], "the seat it belongs to, or null when shared")}),
            "the zones this seat is shown, off the boards"),
        "items": {"type": "object", "description": "the items the view shows, by id (as "
                  "in view.zones): only those", "additionalProperties": _obj("an item", {
                      "label": _s("string", "its label"),
                      "short": _s("string", "its short label"),
                      "color": _s(["string", "null"], "its colour, if it has one"),
                      "notation": _s("string", "how moves name it")})},
        "legend": _list(_obj("a short form", {"short": _s("string", "as short labels write it"),
                                              "name": _s("string", "what it stands for")}),
                        "what the short forms of the labels on the boards stand for (the "
                        "values of the items' enumerated attributes: 'Bi' Birds, 'm' man)"),
        "variables": _list(_obj("a shared variable", {
            "name": _s("string", "its name"), "title": _s("string", "its name for people"),
            "value": _s(["string", "integer", "number"], "its value, written for people")}),
            "the shared variables shown"),
        "player_variables": _list(_obj("a per-seat variable (scores...)", {
            "name": _s("string", "its name"), "title": _s("string", "its name for people"),
            "values": _list(_s(["string", "integer", "number"], "a value"),
                            "each seat's value, written for people ('?' when hidden)")}),
            "the per-seat variables shown"),
        "log": _list(_s("string", "a message"), "the latest messages, as this seat reads them"),
        "log_dropped": _s("integer", "how many earlier messages are no longer kept", minimum=0),
        "result": {"type": ["object", "null"], "description": "the result once the game is "
                   "over (game.result, docs/api.md), else null"},
        "view": {"type": "object", "description": "the seat's view (meeple.interpreter.views."
                 "view, docs/api.md 'What a seat may see')"},
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://meeple.dev/schema/{FILE}",
        "title": "A seat of a web table",
        "description": "What GET SEAT_URL answers with Accept: application/json, and the data "
                       "of each 'state' event of SEAT_URL/events (meeple serve, docs/web.md).",
        "type": "object", "properties": body, "required": sorted(body),
        "additionalProperties": False,
    }


def generated() -> str:
    return dumps(seat_schema())


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0]) if args else Path(__file__).resolve().parent.parent / "docs" / "schema"
    path = folder / FILE
    path.write_text(generated(), encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
