"""The JSON schemas in docs/schema/: up to date, and they accept what the tools write
(the IR of every bundled file, a record of a played game) and reject broken data."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from meeple.dsl import ast as ir, schema
from meeple.dsl.load import RULESETS_DIR, SUFFIX, bundled_names
from meeple.dsl.parse import parse, parse_file
from meeple.interpreter.documents import schemas
from meeple.interpreter.play import record

from meeple import interpreter

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "docs" / "schema"
BUNDLED_FILES = sorted(RULESETS_DIR.rglob(f"*{SUFFIX}"))


def load_schema(name: str) -> dict:
    return json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def ir_validator():
    s = load_schema("ir.schema.json")
    jsonschema.Draft202012Validator.check_schema(s)
    return jsonschema.Draft202012Validator(s)


@pytest.fixture(scope="module")
def record_validator():
    s = load_schema("record.schema.json")
    jsonschema.Draft202012Validator.check_schema(s)
    return jsonschema.Draft202012Validator(s)


# ---------------------------------------------------------------- freshness

@pytest.mark.parametrize("name", sorted(schemas.generated()))
def test_committed_schema_is_up_to_date(name):
    path = SCHEMA_DIR / name
    assert path.exists(), f"{path} is missing: run `python -m meeple.interpreter.documents.schemas`"
    committed = path.read_text(encoding="utf-8")
    assert committed == schemas.generated()[name], \
        f"{path} is stale (the IR or the record format changed): run `python -m meeple.interpreter.documents.schemas`"


def test_schema_files_are_pretty_sorted_and_end_with_a_newline():
    for name in ("ir.schema.json", "record.schema.json"):
        text = (SCHEMA_DIR / name).read_text(encoding="utf-8")
        assert text.endswith("}\n")
        data = json.loads(text)
        assert text == json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def test_ir_schema_header():
    s = schema.ir_schema()
    assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert s["$id"].endswith("ir.schema.json")
    assert s["title"] and s["description"]
    assert s["properties"]["node"]["const"] == "File"
    # every IR node class is described
    for cls in ("BinOp", "Choose", "ZoneDecl", "Replace", "Extend", "Remove", "Span"):
        assert cls in s["$defs"]


def test_record_schema_is_the_interpreters():
    assert load_schema("record.schema.json") == record.RECORD_SCHEMA


def test_main_writes_both_files(tmp_path, capsys):
    assert schemas.main([str(tmp_path)]) == 0
    for name, text in schemas.generated().items():
        assert (tmp_path / name).read_text(encoding="utf-8") == text
    assert "record.schema.json" in capsys.readouterr().out


# ---------------------------------------------------------------- the IR

def test_there_are_bundled_files():
    assert bundled_names(), "no bundled rulesets found"
    assert len(BUNDLED_FILES) >= len(bundled_names())


@pytest.mark.parametrize("path", BUNDLED_FILES, ids=lambda p: str(p.relative_to(RULESETS_DIR)))
def test_bundled_file_ir_validates(path, ir_validator):
    f, _ = parse_file(path)
    data = schema.ir_json(f)
    json.dumps(data)  # plain JSON
    ir_validator.validate(data)
    assert data["node"] == "File" and data["kind"] in ("ruleset", "variant", "locale")
    # the JSON reads back into the same IR
    assert type(f).model_validate(data) == f


def test_ir_json_of_every_construct_validates(ir_validator):
    text = """ruleset all
title "All"
players 1..3
order counterclockwise
enum E { a, b }
kind K { v: int, e: E, l: list of int, var hp: int = 2 }
board b: grid(rows: 2, cols: 2) named "{col:a}{row}" holds K hidden
board c: cells { x(x: 0, y: 0) y(x: 1, y: 0) } drawn at (2 * x, -y) holds K hidden dark
board s: edges(of: b) holds K
zone z: K per player owner
zone pile: K
deck d into pile { 2 of K(v: i, e: a, l: [i]) for i in 1..3 }
supply spare: 4 of K(v: 0, e: b, l: [])
var n: int per player = 0
var m: list of int per player = []
relation near(p: b, q: b) = p.row == q.row
function f(x: int): int = if x > 0 then -x else x % 2
function pair(t: (b, int)): list of (b, int) = [t]
const fs: list of int = [f(i) for i in 1..3]
procedure p(x: int) { call p(x - 1) }
procedure g(x: int): int { let c1 = cell(b, row: 1, col: x) let r1 = ray(c1, row: 1, col: 0) return x }
setup { shuffle pile  deal all from pile to z  fill b from pile }
turn {
  let xs = [k for k in items(z(active)) if k.v > 1]
  n(active) = sum(k.v for k in xs)
  if empty(pile) { end game } elif true { reveal pile } else { log k "{active}" }
  reveal top(pile) to active
  for i in 1..2 { pick r at random from players }
  roll d1, d2 from 1..6
  while false max 3 { move top(pile) to pile face down for active  flip top(pile) face up }
  choose q from players by active as "pick"
  choose q2, how from players as "pick" or "draw" when n(active) > 0 or "pass"
  let ls = [1, 2]
  ls[0] = 3
  choose n(p) from [1, 2] for each p in players as "bid"
  choose 2 m(p) from [1, 2, 3] for each p in players as "bids"
  let k1 = top(pile)
  k1.hp = 1
  choose s subset of xs where size(s) == 1
  best m in xs by m.v, m.e == a tie random
  let y = if none == top(pile) then xs[0].v else "s" == "t"
  let v1 = call g(1)
  let ns = [1, 2]
  ns[0] += 3
  let bs: list of b = []
  make K at pile face down with hp = 3
  remove top(pile)
  permute [cell(b, row: 1, col: 1)] to [cell(b, row: 1, col: 2)]
  choose (t1, _) from [(t, "x") for t in 1..2] as "take"
}
end when turn_number() > 3
at end { }
score(p) = n(p)
heuristic(p) = n(p) * 2
alias "pick"(x) = ["p" + "1", "q"]
payoff(p) = n(p) per 2 summing to 0
tiebreak t(p) = 0
team(p) = seat(p) % 2
outcome(p) { win when n(p) > 2  draw when n(p) == 2  loss otherwise }
participant bank score = 3
invariant i at turn end: size(K) > 0
bound 9 turns
secret z until end
name E.a "A" "a"
name E.b "B" m {gen: "Bs"}
text k "t"
prose turn "Take a card."
label K "{v}"
color E.a red
color K by e
offscreen n
"""
    data = schema.ir_json(parse(text, "all.meeple"))
    ir_validator.validate(data)
    overlay = """variant v
language "Deutsch"
replace zone pile: K hidden
extend setup { }
extend procedure p { }
extend at end { }
remove var n
"""
    ir_validator.validate(schema.ir_json(parse(overlay, "v.meeple")))
    # the two files use every kind of IR node
    used = {n.node for t in (text, overlay) for n in ir.walk(parse(t))}
    every = {c.model_fields["node"].default for c in vars(ir).values()
             if isinstance(c, type) and issubclass(c, ir.Node) and c is not ir.Node}
    assert every - used == set()


@pytest.mark.parametrize("bad", [
    {"node": "File", "kind": "ruleset"},                                    # no name
    {"node": "File", "kind": "ruleset", "name": "x", "extra": 1},          # unknown field
    {"node": "File", "kind": "ruleset", "name": "x", "decls": [{"node": "Nope"}]},
    {"node": "File", "kind": "ruleset", "name": "x",
     "decls": [{"node": "Players", "min": "two", "max": 4}]},
    {"node": "File", "kind": "ruleset", "name": "x",
     "decls": [{"node": "EndDecl", "cond": {"node": "Block", "stmts": []}}]},  # a block is no expr
])
def test_ir_schema_rejects_malformed_ir(bad, ir_validator):
    assert not ir_validator.is_valid(bad)


# ---------------------------------------------------------------- records

@pytest.fixture(scope="module")
def played_record(tmp_path_factory):
    name = bundled_names()[0]
    prog = interpreter.load(name)
    game = prog.new_game(prog.min_players, seed=3)
    moves = []
    while not game.over and len(moves) < 2000:
        m = game.apply(game.legal_moves()[-1])
        moves.append(m.notation)
    rec = record.Record(name, prog.min_players, 3, [], None, moves, seats=["random"] * prog.min_players,
                        result=game.result, state_digest=record.digest(game))
    path = tmp_path_factory.mktemp("rec") / "game.json"
    rec.save(path)
    return path


def test_written_record_validates(played_record, record_validator):
    data = json.loads(played_record.read_text(encoding="utf-8"))
    record_validator.validate(data)
    assert data["format"] == record.RECORD_FORMAT
    assert data["moves"] and data["result"]["winners"]


def test_written_record_loads_and_replays(played_record):
    rec = record.load(played_record)
    game = record.replay(interpreter.load(rec.ruleset, rec.variants, rec.locale), rec)
    assert game.over and record.digest(game) == rec.state_digest


def _minimal():
    return {"format": "meeple-record/1", "ruleset": "x", "players": 2, "seed": 0, "moves": []}


@pytest.mark.parametrize("change", [
    lambda d: d.pop("moves"),
    lambda d: d.pop("seed"),
    lambda d: d.update(format="meeple-record/9"),
    lambda d: d.update(players=0),
    lambda d: d.update(players="2"),
    lambda d: d.update(seed=1.5),
    lambda d: d.update(moves=["ok", "x" * 1001]),
    lambda d: d.update(moves="a b"),
    lambda d: d.update(ruleset=""),
    lambda d: d.update(variants="open"),
    lambda d: d.update(state_digest="abc"),
    lambda d: d.update(surprise=True),
], ids=["no-moves", "no-seed", "format", "players-0", "players-str", "seed-float",
        "long-move", "moves-str", "empty-ruleset", "variants-str", "digest", "extra-field"])
def test_invalid_records_are_rejected(change, record_validator):
    d = _minimal()
    assert record_validator.is_valid(d)
    change(d)
    assert not record_validator.is_valid(d)
    with pytest.raises(record.RecordError, match="invalid record"):
        record.from_dict(d)


@pytest.mark.parametrize("change", [
    lambda d: d.update(players=2.0),
    lambda d: d.update(seed=3.0),
    lambda d: d.update(seed=True),
    lambda d: d.update(players=True),
], ids=["players-float", "seed-float-whole", "seed-bool", "players-bool"])
def test_whole_floats_and_bools_are_not_integers_in_a_record(change):
    d = _minimal()
    change(d)
    with pytest.raises(record.RecordError, match=r"invalid record at (players|seed)"):
        record.from_dict(d)


def test_schemas_in_docs_include_the_state():
    assert load_schema("state.schema.json")["title"] == "Meeple game state"


def test_record_that_is_not_json_is_rejected(tmp_path):
    p = tmp_path / "r.json"
    p.write_text("{not json", encoding="utf-8")
    with pytest.raises(record.RecordError, match="not JSON"):
        record.load(p)


def test_a_node_is_checked_against_its_own_class_only(ir_validator):
    # a choice between node classes is keyed on 'node' (if/then), not a oneOf that
    # checks a node against every class and their children in turn (seconds a ruleset)
    s = load_schema("ir.schema.json")
    text = json.dumps(s)
    assert '"oneOf"' not in text and text.count('"if"') >= 30
    data = schema.ir_json(parse_file(RULESETS_DIR / "kalah" / "kalah.meeple")[0])
    ir_validator.validate(data)
    node = next(n for n in _nodes(data) if n.get("node") == "BinOp")
    node["op"] = 7
    assert "7 is not of type 'string'" in jsonschema.exceptions.best_match(ir_validator.iter_errors(data)).message
    node["op"], node["node"] = "+", "NoSuchNode"
    assert "'NoSuchNode' is not one of" in jsonschema.exceptions.best_match(ir_validator.iter_errors(data)).message


def _nodes(data):
    if isinstance(data, dict):
        yield data
        for v in data.values():
            yield from _nodes(v)
    elif isinstance(data, list):
        for v in data:
            yield from _nodes(v)
