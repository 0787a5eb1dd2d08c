"""The disk cache of compiled rulesets (dsl/diskcache.py, interpreter/compiler/cache.py): a
ruleset loaded from it plays exactly like one compiled afresh; a changed source, a bad
entry or a folder other users may write into is never read; turned off, it writes
nothing. Every test here has its own cache folder (MEEPLE_CACHE_DIR in tmp_path)."""
from __future__ import annotations

import os
import random
import shutil
import threading
from pathlib import Path

import console
import pytest
from meeple.dsl import diskcache, parse as dsl_parse
from meeple.dsl.load import bundled_names, resolve_path
from meeple.interpreter.play import record

from meeple import interpreter

BUNDLED = bundled_names()


@pytest.fixture
def cache_dir(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(folder))
    monkeypatch.delenv("MEEPLE_NO_CACHE", raising=False)
    interpreter.use_cache(True)
    yield folder
    interpreter.use_cache(True)


def ruleset_entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("ruleset-*.cache"))


def play_out(ruleset, players: int, seed: int, moves: int) -> list:
    """What a short random game shows: each decision's legal moves and state, and the
    record's digest at the end."""
    game = ruleset.new_game(players=players, seed=seed)
    rng, seen, played = random.Random(seed), [], []
    for _ in range(moves):
        if game.over:
            break
        legal = game.legal_moves()
        seen.append(([m.notation for m in legal], game.state))
        move = rng.choice(legal)
        played.append(move.notation)
        game.apply(move)
    seen.append(game.state)
    rec = record.Record(ruleset.name, players, seed, list(ruleset.variants), ruleset.locale, played)
    seen.append(record.digest(record.replay(ruleset, rec)))
    return seen


@pytest.mark.parametrize("name", BUNDLED)
def test_a_ruleset_from_the_cache_plays_exactly_like_a_fresh_one(name, cache_dir, monkeypatch):
    fresh = interpreter.load(name, cache=False)
    assert not cache_dir.exists() or not ruleset_entries(cache_dir)
    interpreter.load(name)                       # compiles and stores it
    assert len(ruleset_entries(cache_dir)) == 1
    monkeypatch.setattr(dsl_parse, "parse", lambda *a, **k: pytest.fail("parsed: not from the cache"))
    cached = interpreter.load(name)
    assert (cached.name, cached.title, cached.min_players, cached.max_players) == \
        (fresh.name, fresh.title, fresh.min_players, fresh.max_players)
    assert cached.warnings == fresh.warnings
    for players in sorted({fresh.min_players, fresh.max_players}):
        for seed in (1, 2):
            assert play_out(cached, players, seed, 25) == play_out(fresh, players, seed, 25)


def test_variants_and_locales_are_entries_of_their_own(cache_dir):
    base = interpreter.load("cherokee")
    german = interpreter.load("cherokee", locale="de")
    assert len(ruleset_entries(cache_dir)) == 2
    assert interpreter.load("cherokee", locale="de").locale == german.locale == "de"
    assert interpreter.load("cherokee").locale is base.locale is None


def test_editing_a_source_file_invalidates_the_entry(cache_dir, tmp_path):
    game = tmp_path / "kalah"
    shutil.copytree(resolve_path("kalah"), game)
    first = interpreter.load(game)
    base = next(game.glob("*.meeple"))
    text = base.read_text(encoding="utf-8")
    assert f'title "{first.title}"' in text
    base.write_text(text.replace(f'title "{first.title}"', 'title "Kalah, edited"'), encoding="utf-8")
    assert interpreter.load(game).title == "Kalah, edited"
    assert len(ruleset_entries(cache_dir)) == 2


@pytest.mark.parametrize("turn, said", [("turn { x = 1 }", "bad.meeple:4"),   # (a check error)
                                         ("turn {{ }", "bad.meeple:4")])     # (a syntax error)
def test_a_ruleset_with_problems_is_never_cached_and_says_them_each_time(turn, said, cache_dir, tmp_path):
    # (a file with a syntax error is not kept parsed either: dsl/load.py, parsed_file)
    bad = tmp_path / "bad.meeple"
    bad.write_text(f'ruleset bad\ntitle "Bad"\nplayers 2..2\n{turn}\n', encoding="utf-8")
    messages = []
    for _ in range(2):
        with pytest.raises(interpreter.MeepleError) as e:
            interpreter.load(bad)
        messages.append(e.value.render())
    assert messages[0] == messages[1] and said in messages[0]
    assert not ruleset_entries(cache_dir)
    assert not parsed_entries(cache_dir) or "{{" not in turn


@pytest.mark.parametrize("damage", ["truncated", "flipped", "foreign", "empty", "not a pickle"])
def test_a_bad_entry_is_ignored_and_rebuilt(damage, cache_dir, monkeypatch):
    fresh = interpreter.load("kalah", cache=False)
    interpreter.load("kalah")
    [entry] = ruleset_entries(cache_dir)
    for kept in parsed_entries(cache_dir):   # (the files kept parsed: damaged alike)
        kept.write_bytes(damaged(kept.read_bytes(), damage))
    data = damaged(entry.read_bytes(), damage)
    entry.write_bytes(data)
    again = interpreter.load("kalah")          # no traceback: loaded afresh
    assert play_out(again, 2, 5, 20) == play_out(fresh, 2, 5, 20)
    assert entry.read_bytes() != data          # and the entry was written again
    monkeypatch.setattr(dsl_parse, "parse", lambda *a, **k: pytest.fail("parsed: not from the cache"))
    interpreter.load("kalah")
    # (and the files parsed were kept again: a locale not loaded before parses nothing)
    assert interpreter.load("kalah", locale="de").locale == "de"


def damaged(data: bytes, damage: str) -> bytes:
    head = data.index(b"\n", len(diskcache.MAGIC)) + 1
    if damage == "truncated":
        data = data[:len(data) // 2]
    elif damage == "flipped":
        data = data[:-10] + bytes([data[-10] ^ 0xFF]) + data[-9:]
    elif damage == "foreign":
        data = b"meeple-cache 0\n" + data[len(diskcache.MAGIC):]
    elif damage == "empty":
        data = b""
    else:   # the digest is right, the payload is not a pickle
        payload = b"garbage"
        import hashlib
        data = data[:head] + hashlib.sha256(payload).digest() + payload
    return data


def test_a_bad_grammar_entry_is_rebuilt(cache_dir):
    dsl_parse.parser.cache_clear()
    try:
        dsl_parse.parser()
        [entry] = cache_dir.glob("grammar-*.cache")
        entry.write_bytes(entry.read_bytes()[:1000])
        dsl_parse.parser.cache_clear()
        assert dsl_parse.parse("ruleset x\n", "x.meeple").name == "x"
        assert len(entry.read_bytes()) > 1000
    finally:
        dsl_parse.parser.cache_clear()


def test_turned_off_it_writes_nothing(cache_dir, monkeypatch):
    monkeypatch.setenv("MEEPLE_NO_CACHE", "1")
    interpreter.load("kalah")
    assert not cache_dir.exists() or not list(cache_dir.iterdir())
    monkeypatch.delenv("MEEPLE_NO_CACHE")
    interpreter.use_cache(False)
    interpreter.load("kalah")
    assert not cache_dir.exists() or not list(cache_dir.iterdir())
    interpreter.use_cache(True)
    interpreter.load("kalah", cache=False)
    assert not cache_dir.exists() or not ruleset_entries(cache_dir)


def meeple_cli(*args) -> tuple[int, str]:
    run = console.meeple_cli(*args)
    return run.code, run.out + run.err


def test_the_no_cache_option_writes_nothing_and_the_cache_command(cache_dir):
    code, _ = meeple_cli("--no-cache", "simulate", "kalah", "--games", "1")
    assert code == 0
    assert not cache_dir.exists() or not ruleset_entries(cache_dir)
    code, _ = meeple_cli("simulate", "kalah", "--games", "1")
    assert code == 0 and len(ruleset_entries(cache_dir)) == 1
    n = len(list(cache_dir.glob("*.cache")))    # the grammar's tables too, if made here
    code, out = meeple_cli("cache")
    assert code == 0 and str(cache_dir) in out and "state:   on" in out and f"entries: {n} " in out
    code, out = meeple_cli("cache", "clear")
    assert code == 0 and f"removed {n} entr" in out
    assert not list(cache_dir.glob("*.cache"))
    code, out = meeple_cli("cache", "bogus")
    assert code == 2 and "choose info or clear" in out


class Planted:
    """A pickle that runs code when it is read."""
    ran = False

    def __reduce__(self):
        return (_plant, ())


def _plant():
    Planted.ran = True
    return None


def _plant_entry(folder: Path, name, value=None) -> Path:
    """An entry another user could have planted: right key, right digest, a pickle
    that runs code (or ``value``)."""
    from meeple.interpreter.compiler import cache as icache
    budgets = interpreter.Budgets()
    raw = icache.read(resolve_path(name), budgets)
    k = icache.entry_key(raw, (), None, budgets)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    assert diskcache.put(icache.KIND, k, Planted() if value is None else value)
    return folder / f"{icache.KIND}-{k}{diskcache.SUFFIX}"


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX owners and modes")
def test_a_folder_others_may_write_into_is_not_trusted(cache_dir):
    _plant_entry(cache_dir, "kalah")
    os.chmod(cache_dir, 0o777)
    Planted.ran = False
    assert interpreter.load("kalah").title        # loaded afresh
    assert not Planted.ran
    info = interpreter.cache_info()
    assert not info["trusted"] and "other users may write" in info["reason"]
    _code, out = meeple_cli("cache")
    assert "not used: other users may write" in out
    os.chmod(cache_dir, 0o700)
    assert interpreter.cache_info()["trusted"]


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX owners and modes")
def test_an_entry_others_may_write_is_not_read(cache_dir):
    entry = _plant_entry(cache_dir, "kalah")
    os.chmod(entry, 0o666)
    Planted.ran = False
    assert interpreter.load("kalah").title
    assert not Planted.ran


def test_a_trusted_entry_is_what_is_read(cache_dir):
    """The other side of the two tests above: the planted entry, in a trusted folder,
    is read (so those tests do test the trust check)."""
    _plant_entry(cache_dir, "kalah")
    Planted.ran = False
    interpreter.load("kalah")
    assert Planted.ran


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_a_fifo_in_place_of_an_entry_is_never_waited_for(cache_dir):
    # (opened without O_NONBLOCK, a FIFO blocked every later load until someone wrote
    # into it)
    entry = _plant_entry(cache_dir, "kalah")
    entry.unlink()
    os.mkfifo(entry, 0o600)
    assert without_waiting(lambda: interpreter.load("kalah"), entry).title == "Kalah"
    assert entry.is_file()        # stored again, as a regular file


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_a_fifo_or_a_link_is_never_read_as_an_entry(tmp_path):
    fifo, target, link = tmp_path / "fifo", tmp_path / "target", tmp_path / "link"
    os.mkfifo(fifo, 0o600)
    target.write_bytes(b"data")
    os.chmod(target, 0o600)
    link.symlink_to(target)
    assert without_waiting(lambda: diskcache.read_own(fifo), fifo) is None
    assert diskcache.read_own(link) is None
    assert diskcache.read_own(target) == b"data"


def without_waiting(work, fifo: Path):
    """What ``work()`` returns, run in a thread; fails if it waits on ``fifo`` (which is
    then opened for writing, so that the thread goes on)."""
    got = []
    t = threading.Thread(target=lambda: got.append(work()), daemon=True)
    t.start()
    t.join(120)    # (only against a hang: no time is asserted)
    if t.is_alive():
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass
        t.join(10)
        pytest.fail(f"waited for a writer on the FIFO {fifo}")
    return got[0]


def test_an_entry_of_the_right_key_but_wrong_content_is_compiled_afresh(cache_dir):
    _plant_entry(cache_dir, "kalah", ("not", "a", "ruleset"))
    assert interpreter.load("kalah").title == interpreter.load("kalah", cache=False).title


def test_a_cache_folder_that_cannot_be_made_means_no_cache(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(blocker / "cache"))
    assert interpreter.load("kalah").title
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(blocker))
    assert interpreter.load("kalah").title
    assert blocker.read_text() == "not a folder"


def test_the_folder_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("MEEPLE_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert diskcache.folder() == tmp_path / "xdg" / "meeple"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")      # ignored, as the spec says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert diskcache.folder() == tmp_path / "home" / ".cache" / "meeple"


def test_the_key_separates_its_parts():
    assert diskcache.key("ab", "c") != diskcache.key("a", "bc")
    assert diskcache.key(b"x") == diskcache.key("x")


def test_the_suite_does_not_use_the_users_cache():
    assert os.environ["MEEPLE_CACHE_DIR"] != str(Path.home() / ".cache" / "meeple")


def test_the_warnings_of_a_cached_ruleset_are_those_of_a_fresh_compile(cache_dir, tmp_path, monkeypatch):
    game = tmp_path / "ttt.meeple"
    text = (Path(__file__).parent / "testdata" / "ttt" / "ttt.meeple").read_text(encoding="utf-8")
    game.write_text(text + '\ntext never_used "nobody says this"\n', encoding="utf-8")
    fresh = interpreter.load(game, cache=False)
    assert [w.code for w in fresh.warnings] == ["check/unused-text"]
    interpreter.load(game)
    monkeypatch.setattr(dsl_parse, "parse", lambda *a, **k: pytest.fail("parsed: not from the cache"))
    cached = interpreter.load(game)
    assert [w.render(cached.sources.sources) for w in cached.warnings] == \
        [w.render(fresh.sources.sources) for w in fresh.warnings]


def test_a_cached_rulesets_sources_compile_again_with_other_variants():
    # ruleset.sources of a cached ruleset holds its files' texts, unparsed: compiling them
    # again (with a variant and a locale, as meeple.openspiel does) parses them
    interpreter.load("cherokee")
    cached = interpreter.load("cherokee")
    again = interpreter.compile_sources(cached.sources, ["open_clans"], "de", cached.budgets)
    assert again.variants == ["open_clans"] and again.locale == "de"
    assert again.for_players(3).new_game(3, 1).legal_moves()


def test_the_code_key_covers_every_module_of_the_stages_subpackages_too(monkeypatch):
    """Meeple's own code in the key: a change to any module of dsl/ or interpreter/,
    in a subpackage too (interpreter/play/runtime.py), and a module moved to another
    subpackage, make a new key (an entry pickles its classes by module path)."""
    from meeple.interpreter.compiler import cache as icache
    monkeypatch.setenv("MEEPLE_NO_CACHE", "1")     # the files read, none remembered
    root = Path(icache.__file__).resolve().parent.parent
    fingerprint = icache.code_fingerprint.__wrapped__
    plain = Path.read_bytes
    base = fingerprint()
    for name in ("play/runtime.py", "native/kgame.py", "compiler/cache.py"):
        target = root / name
        monkeypatch.setattr(Path, "read_bytes",
                            lambda p, t=target: plain(p) + (b"#" if p == t else b""))
        assert fingerprint() != base, name
    monkeypatch.setattr(Path, "read_bytes", plain)
    assert fingerprint() == base
    files = diskcache._code_files()
    assert ("play/runtime.py", root / "play" / "runtime.py") in files
    moved = [("bots/runtime.py" if n == "play/runtime.py" else n, f) for n, f in files]
    monkeypatch.setattr(diskcache, "_code_files", lambda: moved)
    assert fingerprint() != base


def test_the_code_fingerprint_is_remembered_only_while_no_file_changed(cache_dir, tmp_path,
                                                                       monkeypatch):
    """docs/trust.md: the fingerprint of Meeple's code is kept under its files' sizes,
    times, inodes; a file changed since (in size, in its times), one changed too recently
    to be told apart by its times, or a damaged entry: the files are read again."""
    code = [tmp_path / "a.py", tmp_path / "b.lark"]
    for f in code:
        f.write_text("x = 1\n", encoding="utf-8")
        os.utime(f, ns=(10**18, 10**18))
    monkeypatch.setattr(diskcache, "_code_files", lambda: [(f.name, f) for f in code])
    fingerprint = diskcache.code_fingerprint.__wrapped__
    remembered = lambda: sorted(cache_dir.glob(f"{diskcache.FINGERPRINT}-*"))  # noqa: E731

    def read_afresh():
        with monkeypatch.context() as m:
            m.setenv("MEEPLE_NO_CACHE", "1")
            return fingerprint()

    monkeypatch.setattr(diskcache, "SETTLED_NS", 10**19)     # every file "just changed"
    first = fingerprint()
    assert first == read_afresh() and not remembered()
    monkeypatch.setattr(diskcache, "SETTLED_NS", 0)          # they have settled
    assert fingerprint() == first and len(remembered()) == 1
    with monkeypatch.context() as m:                         # now the files are not read
        m.setattr(Path, "read_bytes", lambda p: b"never read")
        assert fingerprint() == first
    for change in ("x = 22\n", "x = 2\n"):                    # its size, then its time
        code[0].write_text(change, encoding="utf-8")
        os.utime(code[0], ns=(10**18, 10**18 + len(change)))
        before = remembered()
        assert fingerprint() == read_afresh() != first        # the old entry: not used
    changed = read_afresh()
    [entry] = set(remembered()) - set(before)
    entry.write_bytes(entry.read_bytes()[:-64] + b"0" * 64)  # damaged: not used
    with monkeypatch.context() as m:
        m.setattr(Path, "read_bytes", lambda p: b"read")
        assert fingerprint() != changed                      # read again (here: b"read")
    k = entry.name[len(diskcache.FINGERPRINT) + 1:-len(diskcache.SUFFIX)]
    assert diskcache.put(diskcache.FINGERPRINT, k, "not a fingerprint")
    assert fingerprint() == changed


def test_the_keys_sha256_is_hashlibs():
    """The cache hashes with CPython's own SHA-256 module (no OpenSSL to load): the same
    digests as hashlib, so the keys and the entries of earlier versions still match."""
    import hashlib
    for data in (b"", b"meeple", bytes(range(256)) * 300):
        assert diskcache.sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
    h = diskcache.sha256()
    h.update(b"mee")
    h.update(b"ple")
    assert h.digest() == hashlib.sha256(b"meeple").digest()


# ---------------------------------------------------------------- files kept parsed
# (dsl/load.py, parsed_file: each file of a ruleset kept parsed under its name and text)

def parsed_entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("parsed-*.cache"))


def counting_parses(monkeypatch) -> list[str]:
    """The names of the files the parser is asked for from now on (it still parses)."""
    asked: list[str] = []
    real = dsl_parse.parse

    def parse(text, file="<string>", budgets=None):
        asked.append(Path(file).name)
        return real(text, file, budgets)
    monkeypatch.setattr(dsl_parse, "parse", parse)
    return asked


def test_a_locale_or_variant_not_loaded_before_parses_no_file_again(cache_dir, monkeypatch):
    interpreter.load("cherokee")
    files = len(dsl_load_files("cherokee"))
    assert files >= 7 and len(parsed_entries(cache_dir)) == files
    asked = counting_parses(monkeypatch)
    german = interpreter.load("cherokee", locale="de")   # (entries of their own: compiled)
    assert interpreter.load("cherokee", ["open_clans"], "de").variants == ["open_clans"]
    assert asked == [] and len(ruleset_entries(cache_dir)) == 3
    monkeypatch.undo()
    fresh = interpreter.load("cherokee", locale="de", cache=False)
    assert german.locale == fresh.locale == "de"
    for seed in (1, 2):
        assert play_out(german, 4, seed, 25) == play_out(fresh, 4, seed, 25)


def dsl_load_files(name: str) -> list[Path]:
    from meeple.dsl.load import source_files
    return source_files(resolve_path(name))


def test_an_edited_file_alone_is_parsed_again(cache_dir, tmp_path, monkeypatch):
    game = tmp_path / "cherokee"
    shutil.copytree(resolve_path("cherokee"), game)
    interpreter.load(game, locale="de")
    locale = game / "locales" / "de.meeple"
    text = locale.read_text(encoding="utf-8")
    edited = text.replace('title "Cherokee"', 'title "Cherokee (bearbeitet)"')
    assert edited != text
    locale.write_text(edited, encoding="utf-8")
    asked = counting_parses(monkeypatch)
    assert interpreter.load(game, locale="de").title == "Cherokee (bearbeitet)"
    assert asked == ["de.meeple"]


def test_a_fresh_load_parses_every_file_and_keeps_none(cache_dir, monkeypatch):
    interpreter.load("kalah")
    kept = parsed_entries(cache_dir)
    asked = counting_parses(monkeypatch)
    interpreter.load("kalah", cache=False)
    assert sorted(asked) == sorted(f.name for f in dsl_load_files("kalah"))
    asked.clear()
    interpreter.use_cache(False)
    interpreter.load("kalah", locale=None, variants=())
    interpreter.use_cache(True)
    assert sorted(asked) == sorted(f.name for f in dsl_load_files("kalah"))
    assert parsed_entries(cache_dir) == kept


def test_a_file_kept_parsed_is_the_file_parsed(cache_dir, monkeypatch):
    from meeple.dsl.budgets import Budgets
    from meeple.dsl.load import parsed_file
    [base] = [f for f in dsl_load_files("chess") if f.parent == resolve_path("chess")]
    text = base.read_text(encoding="utf-8")
    fresh = dsl_parse.parse(text, str(base))
    assert parsed_file(text, str(base), Budgets()) == fresh      # (parsed, then kept)
    assert len(parsed_entries(cache_dir)) == 1
    asked = counting_parses(monkeypatch)
    again = parsed_file(text, str(base), Budgets())              # (read back)
    assert again == fresh and again is not fresh and asked == []
    # another name, other budgets or another text: not that entry
    parsed_file(text, str(base) + ".copy", Budgets())
    parsed_file(text, str(base), Budgets(nesting=90))
    parsed_file(text + "\n", str(base), Budgets())
    assert len(parsed_entries(cache_dir)) == 4 and len(asked) == 3
