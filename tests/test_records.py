"""Game records: exact replay of odd move texts, per-move digests, owner-only atomic
saving, safe reading, old formats, the CLI's record paths, and a mutation fuzz."""
from __future__ import annotations

import copy
import json
import os
import random
import stat
from functools import cache, lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from meeple.cli.main import app
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import IllegalMove, Move, RuleError
from meeple.interpreter.play import record as records
from typer.testing import CliRunner

from meeple import interpreter

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, [str(a) for a in args], input=input)


# ---------------------------------------------------------------- odd move texts

@lru_cache(maxsize=256)
def odd_program(options: tuple, verb: str | None):
    """A ruleset whose every move picks one of ``options`` (texts), four moves a game."""
    lits = ", ".join(json.dumps(o, ensure_ascii=False) for o in options)
    as_verb = f' as "{verb}"' if verb is not None else ""
    text = (f"ruleset odd\nplayers 1..3\nvar n: int = 0\n"
            f"turn {{\n  choose w from [{lits}]{as_verb}\n  n = n + 1\n}}\nend when n >= 4\n")
    src = SourceSet(base=parse(text, "odd.meeple"), sources={"odd.meeple": text})
    return interpreter.compile_sources(src)


ODD_CHARS = st.sampled_from(list("aAbBzZ   ") + ["é", "É", "ß", "ẞ", "ǅ", "İ", "ı", "ﬁ", "Ω", "ω", "7"])
ODD_TEXT = st.text(ODD_CHARS, max_size=6)


def _save_and_load(rec, program, path: Path) -> records.Record:
    records.complete(rec, program)
    rec.save(path)
    return records.load(path)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(options=st.lists(ODD_TEXT, min_size=1, max_size=6), verb=st.sampled_from([None, "pick", "Pick"]),
       picks=st.lists(st.integers(0, 10), min_size=4, max_size=4), players=st.integers(1, 3))
def test_every_saved_record_with_odd_move_texts_replays_exactly(tmp_path, options, verb, picks, players):
    program = odd_program(tuple(options), verb)
    game = program.new_game(players, 5)
    notations = []
    for k in picks:
        if game.over:
            break
        moves = game.legal_moves()
        notations.append(game.apply(moves[k % len(moves)]).notation)
    rec = records.Record("odd", players, 5, [], None, notations)
    back = _save_and_load(rec, program, tmp_path / "odd.json")
    assert back.moves == notations                    # exact notations are stored
    replayed = records.replay(program, back)
    assert records.digest(replayed) == records.digest(game)
    assert back.digests and len(back.digests) == len(notations)


def test_exact_notation_wins_and_an_ambiguous_text_lists_the_moves():
    game = odd_program(("a  b", "A b", "", "c"), "pick").new_game(2, 1)
    by_text = {m.notation: m for m in game.legal_moves()}
    assert set(by_text) == {"pick a  b", "pick A b", "pick ", "pick c"}
    assert game.copy().apply("pick A b").value == "A b"      # exact
    assert game.copy().apply("A b").value == "A b"           # exact without the verb
    assert game.copy().apply("pick ").value == ""            # the empty option
    assert game.copy().apply("PICK C").value == "c"          # relaxed, one match
    with pytest.raises(IllegalMove, match="could be any of 2 moves"):
        game.copy().apply("pick a b")                        # relaxed, two matches


def test_a_move_for_a_seat_that_is_not_deciding_is_refused():
    game = odd_program(("x", "y"), "pick").new_game(2, 1)
    m = game.legal_moves()[0]
    assert m.player == game.active_player == 0
    forged = Move(m.index, m.value, m.notation, 1)
    before = game.to_json()
    with pytest.raises(IllegalMove, match="for seat 2, but seat 1 is deciding"):
        game.apply(forged)
    assert game.to_json() == before
    game.apply(m)
    assert game.active_player == 1


# ---------------------------------------------------------------- saving

@cache
def cherokee():
    return interpreter.load("cherokee")


def played(n_moves: int = 30, seed: int = 4):
    rs = cherokee()
    game = rs.new_game(2, seed)
    notes = []
    for k in range(n_moves):
        if game.over:
            break
        moves = game.legal_moves()
        notes.append(game.apply(moves[(k * 3) % len(moves)]).notation)
    rec = records.Record("cherokee", 2, seed, [], None, notes, ["human", "human"])
    return game, records.complete(rec, rs)


def test_a_record_with_secrets_is_owner_only_and_says_so(tmp_path):
    game, rec = played()
    path = tmp_path / "r.json"
    rec.note = records.describe(rec, path, game.over)
    rec.save(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["secrets"] is True and "hidden" in data["note"] and "--resume" in data["note"]
    assert data["format"] == "meeple-record/2" and len(data["digests"]) == len(data["moves"])
    # a game without hidden information is not made owner-only
    public = odd_program(("x",), None)
    prec = records.complete(records.Record("odd", 1, 0, [], None, ["x"]), public)
    assert prec.secrets is False
    prec.save(tmp_path / "p.json")
    assert stat.S_IMODE(os.stat(tmp_path / "p.json").st_mode) & 0o044 == 0o644 & ~_umask() & 0o044


def _umask() -> int:
    old = os.umask(0)
    os.umask(old)
    return old


def test_an_interrupted_save_leaves_the_old_file_intact(tmp_path, monkeypatch):
    _, rec = played()
    path = tmp_path / "r.json"
    path.write_text("old record", encoding="utf-8")

    def killed(src, dst):   # the process dies between writing the temp file and the rename
        raise KeyboardInterrupt

    monkeypatch.setattr(records.os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        rec.save(path)
    assert path.read_text(encoding="utf-8") == "old record"
    assert os.listdir(tmp_path) == ["r.json"]    # no temp file left behind

    def disk_full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(records.os, "fsync", disk_full)
    with pytest.raises(records.SaveError, match="No space left"):
        rec.save(path)
    assert path.read_text(encoding="utf-8") == "old record"


def test_a_replay_that_diverges_stops_at_the_first_bad_move():
    _game, rec = played(40)
    rs = cherokee()
    # play another legal move at some point: the moves after it may still be legal
    replayed = rs.new_game(2, rec.seed)
    for k, m in enumerate(rec.moves):
        others = [x.notation for x in replayed.legal_moves() if x.notation != m]
        if others and k >= 5:
            break
        replayed.apply(m)
    edited = copy.deepcopy(rec)
    edited.moves[k] = others[0]
    with pytest.raises(records.RecordError,
                       match=rf"move {k + 1} '.*': the replayed state differs from the recorded one"):
        records.replay(rs, edited)


def test_old_records_without_digests_still_replay():
    game, rec = played()
    old = {"format": "meeple-record/1", "ruleset": "cherokee", "players": 2, "seed": rec.seed,
           "moves": rec.moves, "variants": [], "locale": None}
    back = records.from_dict(old)
    assert back.digests is None
    assert records.digest(records.replay(cherokee(), back)) == records.digest(game)


# ---------------------------------------------------------------- reading

def test_special_and_huge_files_are_refused_before_reading(tmp_path, monkeypatch):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(records.RecordError, match="FIFO"):
        records.load(fifo)            # does not block: opened non-blocking, checked by fstat
    with pytest.raises(records.RecordError, match="folder"):
        records.load(tmp_path)
    with pytest.raises(records.RecordError, match="device"):
        records.load("/dev/zero")
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(records.MAX_RECORD_BYTES + 1)
    with pytest.raises(records.RecordError, match="more than the limit"):
        records.load(big)


@pytest.mark.parametrize("text,match", [
    ('{"a": ' * 5000 + "1" + "}" * 5000, "not a record"),
    ('{"format": "meeple-record/2", "seed": ' + "9" * 5000 + "}", "not a record"),
    ('{"format": "meeple-record/2", "ruleset": "\\ud800", "players": 2, "seed": 1, "moves": []}',
     "lone surrogate"),
    ('{"format": "meeple-record/2", "ruleset": "cherokee", "players": 2, "seed": 1, "moves": ["a"], '
     '"digests": []}', "1 moves"),
], ids=["deep", "huge-int", "surrogate", "digests-count"])
def test_bad_record_texts_are_one_clear_error(tmp_path, text, match):
    p = tmp_path / "r.json"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(records.RecordError, match=match):
        records.load(p)


def _mutate(data, rnd: random.Random):
    d = copy.deepcopy(data)
    garbage = [None, True, 0, -1, 3.0, 2 ** 200, "", "x" * 5000, [], {}, ["a"], "\ud800", [[[]]]]
    for _ in range(rnd.choice((1, 2))):
        key = rnd.choice(list(d) + ["extra"])
        what = rnd.randrange(5)
        if what == 0:
            d.pop(key, None)
        elif what == 1 and isinstance(d.get(key), list) and d[key]:
            i = rnd.randrange(len(d[key]))
            d[key][i] = rnd.choice(garbage + [d[key][-1], d[key][0].upper()])
        elif what == 2 and isinstance(d.get(key), list) and len(d[key]) > 1:
            rnd.shuffle(d[key])
        else:
            d[key] = rnd.choice(garbage)
    return d


def test_mutated_records_are_refused_with_a_record_error_only():
    _game, rec = played(60)
    data = json.loads(json.dumps(rec.to_dict()))
    rnd = random.Random("records")
    outcomes = {"refused": 0, "replayed": 0}
    for _ in range(300):
        d = _mutate(data, rnd)
        try:
            r = records.from_dict(d)
            records.replay(cherokee(), r)
            outcomes["replayed"] += 1
        except records.RecordError:
            outcomes["refused"] += 1
        except RuleError:   # documented: the rules fail on a move (not expected here)
            outcomes["refused"] += 1
    assert outcomes["refused"] > 150 and outcomes["replayed"] > 5, outcomes


# ---------------------------------------------------------------- the CLI

@pytest.fixture()
def unfinished(tmp_path) -> Path:
    rec = tmp_path / "u.json"
    r = run("play", "cherokee", "--players", 2, "--seed", 7, "--bot", "2=random", "--record", rec,
            input="1\nquit\n")
    assert r.exit_code == 0, r.output
    return rec


def test_replay_of_an_unfinished_game_shows_no_secrets_by_default(unfinished):
    r = run("replay", unfinished, "--quiet")
    assert r.exit_code == 0, r.output
    assert "as seen by a spectator" in r.output and "seed 7" not in r.output
    refused = run("replay", unfinished, "--reveal")
    assert refused.exit_code == 2 and "--unfinished" in refused.output
    shown = run("replay", unfinished, "--reveal", "--unfinished", "--quiet")
    assert shown.exit_code == 0 and "as seen by everything" in shown.output
    assert run("replay", unfinished, "--as", 1, "--quiet").exit_code == 0


def test_play_record_path_is_checked_before_the_first_move(tmp_path, unfinished):
    before = unfinished.read_bytes()
    r = run("play", "cherokee", "--seed", 1, "--record", unfinished, input="1\nquit\n")
    assert r.exit_code == 2 and "already exists; use --force" in r.output
    assert unfinished.read_bytes() == before
    r = run("play", "cherokee", "--seed", 1, "--record", tmp_path / "no" / "r.json", input="quit\n")
    assert r.exit_code == 2 and "does not exist" in r.output
    r = run("play", "cherokee", "--seed", 1, "--record", tmp_path, input="quit\n")
    assert r.exit_code == 2 and "not a regular file" in r.output
    r = run("play", "cherokee", "--seed", 1, "--bot", "2=random", "--record", unfinished, "--force",
            input="quit\n")
    assert r.exit_code == 0 and unfinished.read_bytes() != before


def test_a_quit_game_resumes_and_saves_back_to_its_record(unfinished):
    first = json.loads(unfinished.read_text(encoding="utf-8"))
    assert "meeple play --resume" in first["note"]
    r = run("play", "--resume", unfinished, input="1\nquit\n")
    assert r.exit_code == 0, r.output
    assert "resumed after" in r.output
    again = json.loads(unfinished.read_text(encoding="utf-8"))
    assert again["moves"][: len(first["moves"])] == first["moves"]
    assert len(again["moves"]) > len(first["moves"])
    assert run("replay", unfinished, "-q").exit_code == 0
    r = run("play", "cherokee", "--resume", unfinished, "--seed", 3)
    assert r.exit_code == 2 and "come from the record" in r.output


def test_ctrl_c_saves_the_record_then_exits_130(tmp_path, monkeypatch):
    import meeple.cli.play  # noqa: F401 - loads cli.play for the attribute below

    from meeple import cli
    answers = iter(["1"])

    def typed(*_):
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr(cli.play, "input", typed, raising=False)
    rec = tmp_path / "c.json"
    r = run("play", "cherokee", "--seed", 2, "--bot", "2=random", "--record", rec)
    assert r.exit_code == 130, r.output
    assert len(json.loads(rec.read_text(encoding="utf-8"))["moves"]) >= 1


def test_a_failed_save_exits_1(tmp_path, monkeypatch):
    def broken(*_a, **_k):
        raise records.SaveError("cannot save x: Input/output error")

    monkeypatch.setattr(records, "write_atomic", broken)
    r = run("play", "cherokee", "--seed", 2, "--bot", "2=random", "--record", tmp_path / "f.json",
            input="quit\n")
    assert r.exit_code == 1 and "Input/output error" in r.output


def test_simulate_saves_records_that_replay(tmp_path):
    folder = tmp_path / "recs"
    r = run("simulate", "cherokee", "-n", 2, "-q", "--seed", 3, "--records", folder)
    assert r.exit_code == 0, r.output
    saved = sorted(folder.iterdir())
    assert [p.name for p in saved] == ["cherokee-seed-3.json", "cherokee-seed-4.json"]
    for p in saved:
        assert stat.S_IMODE(os.stat(p).st_mode) == 0o600
        rec = records.load(p)
        assert rec.digests and records.replay(cherokee(), rec).over
    again = run("simulate", "cherokee", "-n", 2, "-q", "--seed", 3, "--records", folder)
    assert again.exit_code == 2 and "already exists" in again.output


def test_replay_never_opens_a_path_named_in_the_record(tmp_path, unfinished):
    data = json.loads(unfinished.read_text(encoding="utf-8"))
    for target in ("/dev/zero", "/proc/self/environ", str(tmp_path)):
        data["ruleset"] = target
        p = tmp_path / "evil.json"
        p.write_text(json.dumps(data), encoding="utf-8")
        r = run("replay", p)
        assert r.exit_code == 2 and "never opened" in r.output
    fifo = tmp_path / "ruleset-fifo"
    os.mkfifo(fifo)
    r = run("replay", unfinished, "--ruleset", fifo)     # refused by stat, never opened
    assert r.exit_code == 2 and "not a ruleset file or folder" in r.output
    # a changed ruleset is named in a warning; the digests decide whether it replays
    bundled = Path(interpreter.__file__).resolve().parent.parent / "rulesets" / "cherokee"
    data["ruleset"], data["ruleset_digest"] = "cherokee", "0" * 64
    p.write_text(json.dumps(data), encoding="utf-8")
    r = run("replay", p, "--ruleset", bundled, "-q")
    assert r.exit_code == 0 and "differs from the one the record was played with" in r.output


def test_a_seed_that_a_record_could_not_hold_is_refused_before_the_game(tmp_path):
    """Every record play and simulate write replays: a seed beyond the record's range
    (|seed| < 2^128) is a usage error, not a record that cannot be read back."""
    from meeple.cli.main import app
    from typer.testing import CliRunner
    big = str(2 ** 128)
    for args in (["play", "cherokee", "--players", "2", "--bot", "2=random", "--seed", big,
                  "--record", str(tmp_path / "r.json")],
                 ["simulate", "cherokee", "--games", "2", "--seed", str(2 ** 128 - 1)]):
        r = CliRunner().invoke(app, args, input="quit\n")
        assert r.exit_code == 2, r.output
        assert "--seed" in r.output and "Traceback" not in r.output
    assert not (tmp_path / "r.json").exists()


def test_a_save_never_replaces_a_device_or_a_fifo(tmp_path):
    """Saving onto a file that is no regular file is refused and leaves it as it was: an
    atomic save replaces the file at the path, and as root `--out /dev/null` made
    /dev/null a regular file (every later `> /dev/null` filled it)."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(records.SaveError, match=r"FIFO.*not a regular file"):
        records.write_atomic(fifo, b"{}")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]   # no temporary file left
    (tmp_path / "sub").mkdir()
    with pytest.raises(records.SaveError, match="a folder, not a regular file"):
        records.write_atomic(tmp_path / "sub", b"{}")
    assert (tmp_path / "sub").is_dir()
