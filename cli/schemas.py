"""The JSON Schemas of the ``--json`` documents (``cli/jsonout.py`` writes the documents),
published in ``docs/schema/cli-<command>.schema.json`` and refreshed with
``python -m meeple.cli.schemas [FOLDER]``; a test fails when they are stale. One schema
per command that takes --json: the list of those commands is read from the app."""
from __future__ import annotations

import sys

from ..dsl.schema import dumps as dump_schema, write
from .jsonout import format_name
from .main import json_commands


def schema_file(command: str) -> str:
    return f"cli-{command}.schema.json"


def _s(kind, description: str, **more) -> dict:
    return {"type": kind, "description": description, **more}


def _obj(description: str, props: dict, required: list[str] | None = None) -> dict:
    return {"type": "object", "description": description, "properties": props,
            "required": sorted(props) if required is None else required,
            "additionalProperties": False}


_INT = "integer"
_NAMES = {"type": "array", "items": {"type": "string"}}
_ERROR = _obj("why the command failed (exit code 1); its text is also on the standard "
              "error", {"message": _s("string", "the error message, as printed after 'error: '"),
                        "hint": _s(["string", "null"], "how to fix it, as printed after "
                                   "'hint: ' (e.g. the bundled rulesets), or null"),
                        "rule": _obj("for an error in the rules while a game ran: which rule "
                                     "and where", {
                                         "code": _s("string", "rule/error or rule/budget"),
                                         "rule": _s(["string", "null"], "the rule: turn, setup, "
                                                    "at end, procedure NAME, function NAME, the "
                                                    "end condition, the scoring..."),
                                         "detail": _s("string", "what went wrong, in plain words"),
                                         "file": _s(["string", "null"], "the source file"),
                                         "line": _s([_INT, "null"], "1-based line"),
                                         "column": _s([_INT, "null"], "1-based column")})},
              required=["message"])
_DIAGNOSTIC = _obj("a problem in a ruleset, as printed by meeple validate", {
    "severity": {"enum": ["error", "warning"], "description": "an error fails validation; "
                 "a warning does not"},
    "code": _s("string", "stable namespaced code, e.g. check/unknown-zone", pattern="^[a-z-]+/[a-z-]+$"),
    "file": _s("string", "the source file (or the path as given, for cli/ codes)"),
    "line": _s([_INT, "null"], "1-based line; null when the problem is about the whole file"),
    "column": _s([_INT, "null"], "1-based column; null when line is null"),
    "message": _s("string", "what is wrong"),
    "hint": _s(["string", "null"], "how to fix it, e.g. did you mean 'hand'?"),
})
_PLAYERS = _obj("how many players the ruleset allows", {
    "min": _s(_INT, "fewest players"), "max": _s(_INT, "most players"),
    "default": _s(_INT, "the usual count (players A..B default N), else the fewest: what "
                        "play, simulate and the adapters take when given no number")})
_VARIANT = _obj("a variant", {"name": _s("string", "its name, as given to --variant"),
                              "title": _s("string", "its title")})
_LOCALE = _obj("a locale", {"name": _s("string", "its name, as given to --locale"),
                            "language": _s(["string", "null"],
                                           "the language it declares, if any")})
_RESULT = _obj("the result of a finished game, as in the Python API (game.result)", {
    "scores": {"type": "array", "items": {"type": "number"}, "description": "score per seat"},
    "tiebreaks": {"type": "object", "additionalProperties": {"type": "array"},
                  "description": "tiebreak name -> value per seat"},
    "ranking": {"type": "array", "items": {"type": "array", "items": {"type": _INT}},
                "description": "groups of seats, best first (a group: a tie)"},
    "winners": {"type": "array", "items": {"type": _INT},
                "description": "the seats whose outcome is a win"},
    "ranks": {"type": "array", "items": {"type": _INT},
              "description": "each seat's place, from 1 (equals share it)"},
    "outcomes": {"type": "array", "items": {"enum": ["win", "draw", "loss"]},
                 "description": "each seat's outcome"},
    "draw": _s("boolean", "whether every seat drew"),
    "teams": {"type": "array", "description": "with a team declaration: each team's seats, "
              "score (the sum of theirs) and rank", "items": {"type": "object"}},
    "participants": {"type": "object", "additionalProperties": {"type": [_INT, "null"]},
                     "description": "with participant declarations: each one's score (or null)"},
    "payoffs": {"type": "array", "items": {"type": _INT},
                "description": "with a payoff declaration: each seat's payoff"},
    "payoffs_per": {"type": _INT, "minimum": 1, "description": "with a payoff declared 'per D': D, "
                    "the parts of one that the payoffs count (7 per 6 is 7/6)"},
}, ["scores", "tiebreaks", "ranking", "winners", "ranks", "outcomes", "draw"])


def _document(command: str, title: str, description: str, props: dict,
              on_success: list[str]) -> dict:
    """A command's document: format, ok, error, and its own keys (``on_success`` are
    required when ok is true)."""
    body = {
        "format": {"const": format_name(command), "description": "this format and its version"},
        "ok": _s("boolean", "true when the command succeeded (exit code 0)"),
        "error": _ERROR,
        **props,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://meeple.dev/schema/{schema_file(command)}",
        "title": title,
        "description": description + " Written on the standard output by `meeple "
                       f"{command} --json` (see docs/cli.md).",
        "type": "object",
        "properties": body,
        "required": ["format", "ok"],
        "additionalProperties": False,
        "if": {"properties": {"ok": {"const": True}}},
        "then": {"required": on_success, "not": {"required": ["error"]}},
    }


def validate_schema() -> dict:
    ruleset = _obj("one PATH of the command line and what checking it found", {
        "input": _s("string", "the PATH as given on the command line"),
        "path": _s(["string", "null"], "the file or folder checked (a variant or locale "
                   "file is checked with its ruleset folder); null when there is none"),
        "ok": _s("boolean", "no error (warnings allowed)"),
        "name": _s(["string", "null"], "the ruleset's name, when it loads"),
        "title": _s(["string", "null"], "the ruleset's title, when it loads"),
        "players": {"oneOf": [_PLAYERS, {"type": "null"}]},
        "variants": {"type": "array", "items": _VARIANT, "description": "its variants"},
        "locales": {"type": "array", "items": _LOCALE, "description": "its locales"},
        "files": _s(_INT, "how many source files were checked"),
        "diagnostics": {"type": "array", "items": _DIAGNOSTIC,
                        "description": "every error and warning, each once"},
    })
    return _document("validate", "meeple validate --json",
                     "What checking each ruleset found: its problems (file, line, column, "
                     "code, message, hint) or, when it loads, its players, variants and "
                     "locales. ok is false (exit code 1) when any PATH has an error.",
                     {"rulesets": {"type": "array", "items": ruleset,
                                   "description": "one entry per PATH, in order"}}, ["rulesets"])


def list_schema() -> dict:
    entry = _obj("a bundled ruleset", {
        "name": _s("string", "the name to give commands, e.g. meeple play NAME"),
        "ok": _s("boolean", "false when it has errors (run meeple validate NAME)"),
        "title": _s(["string", "null"], "its title (null when it has errors)"),
        "players": {"oneOf": [_PLAYERS, {"type": "null"}]},
        "variants": {**_NAMES, "description": "the names of its variants"},
        "locales": {**_NAMES, "description": "the names of its locales"},
    })
    return _document("list", "meeple list --json", "The bundled rulesets, by name.",
                     {"rulesets": {"type": "array", "items": entry,
                                   "description": "every bundled ruleset, by name"}},
                     ["rulesets"])


def simulate_schema() -> dict:
    seat = _obj("one seat's wins", {
        "seat": _s(_INT, "the seat, from 0"),
        "player": _s("string", "the seat's name"),
        "wins": _s(_INT, "games won (a shared win counts for each winner)"),
        "draws": _s(_INT, "games this seat drew"),
        "losses": _s(_INT, "games this seat lost"),
        "win_rate": _s("number", "wins / games, from 0 to 1"),
        "mean_payoff": _s("number", "the seat's payoff averaged over the games (only when "
                                    "the ruleset declares a payoff)"),
    }, required=["seat", "player", "wins", "draws", "losses", "win_rate"])
    props = {
        "ruleset": _s("string", "the RULESET as given"),
        "title": _s("string", "the ruleset's title"),
        "variants": {**_NAMES, "description": "the variants played"},
        "locale": _s(["string", "null"], "the locale"),
        "players": _s(_INT, "players per game"),
        "bot": _s("string", "the bot in every seat"),
        "games": _s(_INT, "games played"),
        "seeds": _obj("game i used seed first + i", {"first": _s(_INT, "the first game's seed"),
                                                     "last": _s(_INT, "the last game's seed")}),
        "seats": {"type": "array", "items": seat, "description": "wins per seat"},
        "shared_wins": _s(_INT, "games with several winners"),
        "drawn_games": _s(_INT, "games where every seat drew"),
        "turns": _obj("game length in completed turns", {
            "mean": _s("number", "mean"), "min": _s(_INT, "shortest"), "max": _s(_INT, "longest")}),
        "moves": _s(_INT, "player decisions in all games"),
        "moves_per_turn": _s(["number", "null"], "moves / turns (null without turns)"),
        "seconds": _s("number", "time taken (not reproducible)"),
        "games_per_second": _s(["number", "null"], "games / seconds (not reproducible)"),
        "balance": _balance_schema(),
        "failed_game": _obj("the game that hit an error (when ok is false)", {
            "game": _s(_INT, "its number, from 1"),
            "seed": _s(_INT, "its seed"),
            "record": _s(["string", "null"], "its record, with --records DIR"),
        }),
    }
    return _document("simulate", "meeple simulate --json",
                     "Statistics of many bot games: wins per seat, game length, moves.",
                     props, ["ruleset", "title", "variants", "locale", "players", "bot",
                             "games", "seeds", "seats", "shared_wins", "drawn_games", "turns", "moves",
                             "moves_per_turn", "seconds", "games_per_second", "balance"])


def _balance_schema() -> dict:
    """The figures of interpreter.stats.Balance (also in simulate's --report)."""
    num_or_null = ["number", "null"]
    ci95 = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2,
            "description": "the 95% confidence interval of the win rate (Wilson): low, high"}
    bins = {"type": "array", "description": "at most 12 bins of equal width, lowest first",
            "items": _obj("a bin", {"low": _s("number", "its lowest value"),
                                    "high": _s("number", "its highest value (included)"),
                                    "count": _s(_INT, "how many values fall in it")})}
    dist = _obj("a distribution", {
        "count": _s(_INT, "how many values"), "mean": _s(num_or_null, "mean"),
        "sd": _s(num_or_null, "standard deviation (of the population)"),
        "min": _s(num_or_null, "lowest"), "median": _s(num_or_null, "median"),
        "max": _s(num_or_null, "highest"), "histogram": bins})
    seat = _obj("one seat", {
        "seat": _s(_INT, "the seat, from 0"), "wins": _s(_INT, "games won"),
        "draws": _s(_INT, "games drawn"), "losses": _s(_INT, "games lost"),
        "win_rate": _s("number", "wins / games"), "ci95": ci95,
        "significant": _s("boolean", "the fair share lies outside ci95"),
        "score": {**dist, "description": "its final scores"},
        "payoff": {**dist, "description": "its payoffs (only when the ruleset declares a "
                                          "payoff)"}},
        ["seat", "wins", "draws", "losses", "win_rate", "ci95", "significant", "score"])
    first = _obj("the seat that made the first decision of each game (a game whose first "
                 "decision is simultaneous has none)", {
        "games": _s(_INT, "games with a starting seat"),
        "started": {"type": "array", "items": {"type": _INT},
                    "description": "how many games each seat started"},
        "wins": _s(_INT, "games the starting seat won"),
        "draws": _s(_INT, "games the starting seat drew"),
        "losses": _s(_INT, "games the starting seat lost"),
        "win_rate": _s(num_or_null, "wins / games (null without games)"), "ci95": ci95,
        "advantage": _s(num_or_null, "win_rate - fair_share"),
        "significant": _s("boolean", "the fair share lies outside ci95")})
    kind = _obj("one kind of move", {
        "kind": _s("string", "its verb, or (TYPE) for a decision without a verb"),
        "verb": _s(["string", "null"], "its verb (null without one)"),
        "count": _s(_INT, "moves of this kind"), "share": _s("number", "count / all moves"),
        "per_game": _s("number", "count / games"),
        "seats": {"type": "array", "items": {"type": _INT},
                  "description": "moves of this kind per seat"}})
    score_bins = {"type": "array", "description": "the final scores of every seat in the "
                  "same bins (at most 12), lowest first",
                  "items": _obj("a bin", {"low": _s("number", "its lowest score"),
                                          "high": _s("number", "its highest score (included)"),
                                          "counts": {"type": "array", "items": {"type": _INT},
                                                     "description": "games per seat"}})}
    return _obj("balance figures (see docs/cli.md, simulate --report)", {
        "games": _s(_INT, "games counted"), "players": _s(_INT, "seats per game"),
        "fair_share": _s("number", "all wins / (games x seats): the win rate of a seat "
                         "if none had an advantage"),
        "shared_wins": _s(_INT, "games with several winners"),
        "drawn_games": _s(_INT, "games where every seat drew"),
        "seats": {"type": "array", "items": seat, "description": "per seat"},
        "first_player": first,
        "turns": {**dist, "description": "game length in completed turns"},
        "moves": {**dist, "description": "game length in moves (decisions)"},
        "score_histogram": score_bins,
        "kinds": {"type": "array", "items": kind, "description": "the kinds of move chosen, "
                  "most frequent first"}})


def meeple_test_schema() -> dict:
    by_kind = {"hidden_items": _s(_INT, "items in zones the seat sees only as a count"),
               "face_down_items": _s(_INT, "items face down in zones it sees"),
               "item_variables": _s(_INT, "item variables of items it may not know"),
               "owner_variables": _s(_INT, "values of variables declared owner, of other seats"),
               "hidden_variables": _s(_INT, "values of variables declared hidden"),
               "secret_choices": _s(_INT, "choices of other seats in a simultaneous decision"),
               "dark_places": _s(_INT, "where items of dark zones it may not see lie")}
    config = _obj("a configuration: a player count with variants or a locale", {
        "players": _s(_INT, "number of players"),
        "variants": {**_NAMES, "description": "its variants"},
        "locale": _s(["string", "null"], "the locale")})
    failure = _obj("the first failing game, after shrinking", {
        "check": _s("string", "the check that failed, e.g. secret 'hand'"),
        "message": _s("string", "what went wrong"),
        "file": _s(["string", "null"], "the source file of the declaration it breaks"),
        "line": _s([_INT, "null"], "its 1-based line"),
        "column": _s([_INT, "null"], "its 1-based column"),
        "configuration": {"oneOf": [config, {"type": "null"}],
                          "description": "the game's configuration (null for secrets/unchecked, "
                                         "which has no game)"},
        "seed": _s([_INT, "null"], "the game's seed (null for secrets/unchecked)"),
        "moves": {**_NAMES, "description": "every move of the shrunk game, in notation"},
        "record": _s(["string", "null"], "the file the game was saved in (null if it "
                     "could not be saved)"),
        "cycle": {"oneOf": [_obj("a bound failure's moves that come back to a position", {
            "start": _s(_INT, "after this many moves..."),
            "length": _s(_INT, "...this many moves come back to the same position")}),
            {"type": "null"}], "description": "null unless the game goes round in circles"},
    })
    cut = _obj("a game whose full checks a limit cut short", {
        "example": _s(_INT, "which game of the run, from 1"),
        "configuration": config,
        "seed": _s(_INT, "the game's seed"),
        "checked_moves": _s(_INT, "its moves checked in full (the states after them all)"),
        "moves": _s(_INT, "its moves in all"),
        "limit": {"enum": ["check_moves", "deadline"], "description": "the limit reached: "
                  "--check-moves or --deadline"}})
    props = {
        "ruleset": _s("string", "the RULESET as given"),
        "title": _s("string", "the ruleset's title"),
        "invariants": _s(_INT, "declared invariants"),
        "secrets": _s(_INT, "declared secret zones"),
        "bound": _obj("how long a game may last", {
            "count": _s(_INT, "how many"), "unit": _s("string", "moves or turns"),
            "default": _s("boolean", "true when the ruleset declares none"),
            "endless": _s("boolean", "declared 'or endless': a game may go on for ever")}),
        "configurations": {"type": "array", "items": config,
                           "description": "every configuration tested"},
        "examples": _s(_INT, "--examples"),
        "seed": _s(_INT, "--seed"),
        "games": _s(_INT, "games played"),
        "states": _s(_INT, "states checked"),
        "turn_end_checks": _s(_INT, "times the turn-end invariants were checked"),
        "exchanges": _s(_INT, "twins made to look for leaks (each varies one kind of secret, or "
                        "hidden and face-down items together)"),
        "exchanges_by_kind": _obj("twins made, by kind of secret varied", by_kind),
        "secrets_found": _obj("states probed where a seat's view kept such a secret from it "
                              "(one that could differ), by kind", by_kind),
        "endless_games": _s(_INT, "games stopped at a bound declared 'or endless'"),
        "endless_cycles": _s(_INT, "of those, games stopped before the bound, going round "
                             "in circles"),
        "check_moves": _s([_INT, "null"], "--check-moves: the moves of each game checked in "
                          "full at most (null: every move)"),
        "deadline": _s(["number", "null"], "--deadline: the seconds of full checks each game "
                       "may take at most (null: no limit)"),
        "light_moves": _s(_INT, "moves played past one of those limits, checked only for the "
                          "bound, a way on, rule errors and the results"),
        "cut_short": {"type": "array", "items": cut, "description": "the games a limit cut "
                      "short (before any failure), in the order they were drawn"},
        "failure": {"oneOf": [failure, {"type": "null"}],
                    "description": "null when every check held"},
    }
    return _document("test", "meeple test --json",
                     "The result of checking a ruleset's invariants on many random games. "
                     "ok is false (exit code 1) when a check failed: failure says which, "
                     "with the shrunk game.",
                     props, ["ruleset", "title", "invariants", "secrets", "bound",
                             "configurations", "examples", "seed", "games", "states",
                             "turn_end_checks", "exchanges", "exchanges_by_kind", "secrets_found",
                             "endless_games", "endless_cycles", "check_moves", "deadline",
                             "light_moves", "cut_short", "failure"])


def replay_schema() -> dict:
    move = _obj("one move, as the viewer may see it", {
        "number": _s(_INT, "from 1"),
        "seat": _s(_INT, "who moved, from 0"),
        "player": _s("string", "who moved, by name"),
        "notation": _s("string", "the move's notation; only its verb when it names an item "
                       "the viewer may not see"),
        "text": _s("string", "the move in words, as the viewer may see it"),
    })
    props = {
        "record": _s("string", "the RECORD file as given"),
        "ruleset": _s("string", "the record's ruleset"),
        "title": _s("string", "the ruleset's title"),
        "variants": {**_NAMES, "description": "the record's variants"},
        "locale": _s(["string", "null"], "the locale"),
        "players": {**_NAMES, "description": "the seats' names, seat 0 first"},
        "seed": _s([_INT, "null"], "the seed: null while the game is not over (unless "
                   "--reveal --unfinished), since it decides the hidden items"),
        "seen_by": _s(["integer", "string"], "the seat whose view is shown (--as, from 0), "
                      "\"spectator\", or \"everything\" (--reveal)"),
        "moves": {"type": "array", "items": move,
                  "description": "every move (empty with --quiet)"},
        "move_count": _s(_INT, "how many moves the record has"),
        "over": _s("boolean", "the game is over"),
        "result": {"oneOf": [_RESULT, {"type": "null"}], "description": "null while not over"},
        "to_move": _s([_INT, "null"], "the seat to move when not over, else null"),
    }
    return _document("replay", "meeple replay --json",
                     "A checked game record: its moves as one viewer may see them, then the "
                     "result or who is to move.", props,
                     ["record", "ruleset", "title", "variants", "locale", "players", "seed",
                      "seen_by", "moves", "move_count", "over", "result", "to_move"])


def perft_schema() -> dict:
    props = {
        "ruleset": _s("string", "the RULESET as given"),
        "title": _s("string", "the ruleset's title"),
        "variants": {**_NAMES, "description": "the variants played"},
        "players": _s(_INT, "players"),
        "seed": _s(_INT, "the game's seed"),
        "position": _s(["string", "null"], "the --position state file counted from, else null"),
        "after": {**_NAMES, "description": "the --after moves played first, in order"},
        "depth": _s(_INT, "decisions counted"),
        "paths": _s(_INT, "the move paths of that many decisions"),
        "divide": {"type": ["object", "null"], "additionalProperties": {"type": _INT},
                   "description": "with --divide: each first move's notation -> its paths"},
        "seconds": _s("number", "time taken (not reproducible)"),
    }
    return _document("perft", "meeple perft --json",
                     "Move paths of a number of decisions from a position.", props,
                     ["ruleset", "title", "variants", "players", "seed", "after", "depth",
                      "paths", "divide", "seconds"])


def arena_schema() -> dict:
    bot = _obj("one bot's results", {
        "bot": _s(_INT, "its place in the command line's list of bots, from 1"),
        "spec": _s("string", "the bot as given (NAME[:KEY=VALUE,...])"),
        "games": _s(_INT, "games it played"),
        "wins": _s(_INT, "games it won (a shared win counts for each winner)"),
        "draws": _s(_INT, "games it drew"),
        "losses": _s(_INT, "games it lost"),
        "win_rate": _s("number", "wins / games, from 0 to 1"),
        "ci95": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2,
                 "description": "the 95% Wilson score interval of win_rate: [low, high]"},
        "mean_score": _s("number", "its mean score"),
        "mean_payoff": _s("number", "its mean payoff (only when the ruleset declares a payoff)"),
        "seats": {"type": "array", "items": {"type": _INT},
                  "description": "games it played at each seat (seat 0 first)"},
        "moves": _s(_INT, "moves it chose, in all games"),
        "seconds_per_move": _s(["number", "null"], "its mean time to choose a move (not "
                               "reproducible; null without moves)"),
    }, ["bot", "spec", "games", "wins", "draws", "losses", "win_rate", "ci95", "mean_score",
        "seats", "moves", "seconds_per_move"])
    props = {
        "ruleset": _s("string", "the RULESET as given"),
        "title": _s("string", "the ruleset's title"),
        "variants": {**_NAMES, "description": "the variants played"},
        "locale": _s(["string", "null"], "the locale"),
        "players": _s(_INT, "players per game: one per bot"),
        "seeds": _obj("game i used seed first + i", {"first": _s(_INT, "the first game's seed"),
                                                     "last": _s(_INT, "the last game's seed")}),
        "games": _s(_INT, "games played"),
        "balanced": _s("boolean", "whether games is a multiple of the number of bots (each "
                       "bot played each seat equally often)"),
        "bots": {"type": "array", "items": bot, "description": "per bot, in the order given"},
        "turns": _obj("game length in completed turns", {
            "mean": _s("number", "mean"), "min": _s(_INT, "shortest"), "max": _s(_INT, "longest")}),
        "moves": _s(_INT, "player decisions in all games"),
        "shared_wins": _s(_INT, "games with several winners"),
        "seconds": _s("number", "time taken (not reproducible)"),
        "failed_game": _obj("the game that hit an error (when ok is false)", {
            "game": _s(_INT, "its number, from 1"),
            "seed": _s(_INT, "its seed"),
            "record": _s(["string", "null"], "always null: arena keeps no records"),
        }),
    }
    return _document("arena", "meeple arena --json",
                     "Bots against each other, seats rotated: per bot its wins, draws, "
                     "losses, win rate with its 95% confidence interval and mean score.",
                     props, ["ruleset", "title", "variants", "locale", "players", "seeds",
                             "games", "balanced", "bots", "turns", "moves", "shared_wins",
                             "seconds"])

def bots_schema() -> dict:
    option = _obj("an option, written NAME:KEY=VALUE", {
        "name": _s("string", "its KEY"),
        "type": {"enum": ["int", "float", "switch"],
                 "description": "a whole number, any number, or a switch (on or off)"},
        "default": _s(["number", "string", "null"], "its value when not given (null: no "
                      "limit, or as its help says; a switch: on or off)"),
        "help": _s("string", "what it does"),
    })
    bot = _obj("a bot", {
        "name": _s("string", "the NAME to give --bot"),
        "description": _s("string", "what it is, in one line"),
        "options": {"type": "array", "items": option, "description": "its options"},
    })
    return _document("bots", "meeple bots --json", "The bots, with their options.",
                     {"bots": {"type": "array", "items": bot, "description": "every bot"}},
                     ["bots"])


def serve_schema() -> dict:
    url = _s("string", "a link: http://HOST:PORT/t/TOKEN (the token is the secret)")
    seats = {"type": "object", "additionalProperties": url, "propertyNames": {"pattern": "^[1-9][0-9]*$"},
             "description": "each seat's link, by seat number from 1: whoever holds it plays "
                            "that seat"}
    table = _obj("a table the server serves", {
        "id": _s("string", "the table's id (not a secret)"),
        "title": _s("string", "the ruleset's title"),
        "over": _s("boolean", "whether its game is over"),
        "seats": seats,
        "spectator": url,
    })
    return _document("serve", "meeple serve --json",
                     "The links of the tables served, written as one line once the server "
                     "accepts connections.",
                     {"seats": seats,
                      "spectator": _s("string", "the new table's link for spectators (the "
                                      "public view)"),
                      "table": _s("string", "the new table's id"),
                      "lobby": _s("string", "the lobby's link, to start more tables (new at "
                                  "each start of the server)"),
                      "tables": {"type": "array", "items": table,
                                 "description": "every table served (the new one too)"}},
                     ["tables", "lobby"])


SCHEMAS = {"validate": validate_schema, "list": list_schema, "simulate": simulate_schema,
           "test": meeple_test_schema, "replay": replay_schema, "perft": perft_schema,
           "arena": arena_schema, "bots": bots_schema, "serve": serve_schema}


def schema(command: str) -> dict:
    return SCHEMAS[command]()


def commands() -> list[str]:
    """The commands that write a --json document, read from the app."""
    return json_commands()


def generated() -> dict[str, str]:
    """File name -> the text it should have in docs/schema/: one per command that takes
    --json (a command without a schema here is an error)."""
    return {schema_file(c): dump_schema(schema(c)) for c in commands()}


def main(argv: list[str] | None = None) -> int:
    """``python -m meeple.cli.schemas [FOLDER]``: writes the schemas (default docs/schema)."""
    return write(generated(), argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
