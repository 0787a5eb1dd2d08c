"""The balance report: ``meeple.interpreter.stats`` (the figures) and ``meeple simulate
--report FILE.html`` (the page: its tables hold the figures of --json, every text is
escaped, it is written whole or not at all, and it works without matplotlib)."""
from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import console
import pytest
from meeple.cli import report
from meeple.interpreter.analysis import stats

import meeple

EVIL_TITLE = "<script>alert('t')</script> & Co"
EVIL_VERB = "<img src=x onerror=alert(1)>"

# two seats; each turn: a move with a verb (1, 2 or 3 points), then one without (0 or 1);
# six turns; the score is the points picked
EVIL = f"""\
ruleset evil
title "{EVIL_TITLE}"
players 2..2
var picked: int per player = 0
var turns: int = 0
turn {{
  choose x from [1, 2, 3] as "{EVIL_VERB}"
  picked(active) = picked(active) + x
  choose y from [0, 1]
  turns = turns + 1
}}
end when turns == 6
score(p) = picked(p)
"""


@pytest.fixture(scope="module")
def evil(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("evil") / "evil.meeple"
    path.write_text(EVIL, encoding="utf-8")
    return path


def meeple_cli(*args) -> tuple[int, str, str]:
    """``meeple ARGS...`` as the console script runs it: exit code, stdout, stderr."""
    run = console.meeple_cli(*args)
    return run.code, run.out, run.err


class Page(HTMLParser):
    """What a browser would find in the page: its tables (caption -> rows of cell
    texts), its images, its scripts and the whole visible text."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tables: dict[str, list[list[str]]] = {}
        self.images: list[dict] = []
        self.tags: Counter = Counter()
        self.text: list[str] = []
        self._caption = self._cell = self._row = None
        self._in = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags[tag] += 1
        if tag == "img":
            self.images.append(dict(attrs))
        elif tag == "caption":
            self._caption = []
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []
        self._in.append(tag)

    def handle_endtag(self, tag):
        if tag == "caption":
            self._current = "".join(self._caption)
            self.tables[self._current] = []
            self._caption = None
        elif tag in ("td", "th") and self._cell is not None:
            self._row.append("".join(self._cell))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.tables[self._current].append(self._row)
            self._row = None

    def handle_data(self, data):
        self.text.append(data)
        for part in (self._caption, self._cell):
            if part is not None:
                part.append(data)

    def table(self, caption: str) -> dict[str, list[str]]:
        """A table's rows by their first cell (the header row under "")."""
        head, *rows = self.tables[caption]
        return {"": head[1:], **{r[0]: r[1:] for r in rows}}


def simulate_with_report(tmp_path: Path, ruleset, *more) -> tuple[dict, str, str]:
    out = tmp_path / "report.html"
    code, stdout, stderr = meeple_cli("simulate", ruleset, "--games", 24, "--seed", 3,
                                      "--json", "--report", out, *more)
    assert code == 0, stderr
    return json.loads(stdout), out.read_text(encoding="utf-8"), stderr


# ---------------------------------------------------------------- the statistics

def test_wilson_interval_matches_the_formula_and_stays_within_0_and_1():
    lo, hi = stats.wilson(50, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.4038, 0.5962)
    assert stats.wilson(0, 10) == (0.0, pytest.approx(0.2775, abs=1e-4))
    assert stats.wilson(10, 10) == (pytest.approx(0.7225, abs=1e-4), 1.0)
    assert stats.wilson(0, 0) == (0.0, 1.0)


def summary(outcomes, scores, first, turns=3, moves=6, kinds=None):
    return {"seed": None, "result": {"outcomes": outcomes, "scores": scores,
                                     "winners": [s for s, o in enumerate(outcomes) if o == "win"],
                                     "draw": all(o == "draw" for o in outcomes)},
            "moves": moves, "turns": turns, "first": first, "kinds": kinds or {}}


def test_balance_counts_wins_the_starting_seat_and_move_kinds_in_any_order():
    games = [summary(["win", "loss"], [3, 1], 0, kinds={"play": [2, 1], "(int)": [1, 0]}),
             summary(["win", "loss"], [5, 2], 1, turns=5, kinds={"play": [1, 2]}),
             summary(["loss", "win"], [0, 4], 1, turns=4),
             summary(["draw", "draw"], [2, 2], 0)]
    f = stats.aggregate(games, 2)
    assert f == stats.aggregate(games[::-1], 2)
    assert [(s["wins"], s["draws"], s["losses"]) for s in f["seats"]] == [(2, 1, 1), (1, 1, 2)]
    assert f["fair_share"] == 3 / 8 and f["drawn_games"] == 1 and f["shared_wins"] == 0
    fp = f["first_player"]
    assert fp["started"] == [2, 2] and (fp["wins"], fp["draws"], fp["losses"]) == (2, 1, 1)
    assert fp["ci95"] == list(stats.wilson(2, 4)) and fp["advantage"] == 2 / 4 - 3 / 8
    assert not fp["significant"]
    assert [(k["kind"], k["verb"], k["count"], k["seats"]) for k in f["kinds"]] == [
        ("play", "play", 6, [3, 3]), ("(int)", None, 1, [1, 0])]
    assert f["kinds"][0]["share"] == 6 / 7 and f["kinds"][0]["per_game"] == 6 / 4
    assert (f["turns"]["min"], f["turns"]["median"], f["turns"]["max"]) == (3, 3.5, 5)
    assert f["seats"][1]["score"]["mean"] == 9 / 4
    assert sum(b["counts"][0] for b in f["score_histogram"]) == 4


def test_a_starting_seat_that_always_wins_is_a_significant_advantage():
    games = [summary(["win", "loss"] if s % 2 == 0 else ["loss", "win"], [1, 0], s % 2)
             for s in range(40)]
    f = stats.aggregate(games, 2)
    assert [s["win_rate"] for s in f["seats"]] == [0.5, 0.5]
    assert not any(s["significant"] for s in f["seats"])
    fp = f["first_player"]
    assert fp["win_rate"] == 1.0 and fp["significant"] and fp["advantage"] == 0.5


def test_histogram_bins_whole_numbers_and_fractions():
    assert stats.histogram(Counter({3: 2, 5: 1})) == [
        {"low": 3, "high": 3, "count": 2}, {"low": 4, "high": 4, "count": 0},
        {"low": 5, "high": 5, "count": 1}]
    wide = stats.histogram(Counter(dict.fromkeys(range(100), 1)))
    assert len(wide) <= stats.MAX_BINS and sum(b["count"] for b in wide) == 100
    assert wide[0]["low"] == 0 and wide[-1]["high"] == 99
    frac = stats.histogram(Counter({0.5: 1, 1.25: 3}))
    assert sum(b["count"] for b in frac) == 4 and frac[-1]["count"] == 3


def test_game_tally_notes_the_kind_and_seat_of_every_move(evil):
    game = meeple.load(str(evil)).new_game(players=2, seed=1)
    tally = stats.GameTally()
    while not game.over:
        tally.note(game)
        game.apply(game.legal_moves()[0])
    s = tally.summary(game, seed=1)
    assert s["kinds"] == {EVIL_VERB: [3, 3], "(int)": [3, 3]}
    assert (s["moves"], s["turns"], s["first"], s["seed"]) == (12, 6, 0, 1)
    assert s["result"]["scores"] == game.result["scores"]
    json.dumps(s)   # plain data


# both seats show a hand at once (a simultaneous decision), then the first one picks
SHOW = """\
ruleset show
players 2..2
var shown: int per player = 0
var rounds: int = 0
turn {
  choose shown(p) from [1, 2, 3] for each p in players as "show"
  choose k from [0, 1]
  rounds = rounds + 1
}
end when rounds == 3
score(p) = rounds
"""


@pytest.mark.parametrize("which", ["evil", "show"])
def test_a_simulated_games_kinds_verbs_and_seat_moves_are_those_of_its_decisions(which, evil, tmp_path):
    # the tally keeps each decision's counts by the decision object (a simultaneous one
    # is made anew for each move) and play_game's verbs come from it: both must count
    # what a plain loop over the same moves counts
    from meeple.interpreter.analysis import simulation
    if which == "evil":
        path = evil
    else:
        path = tmp_path / "show.meeple"
        path.write_text(SHOW, encoding="utf-8")
    rules = meeple.load(str(path))
    for seed in range(3):
        spec = simulation.specs(2, lambda i: ("random", "random"), 1, seed=seed, keep_moves=True)[0]
        out = simulation.play_game(rules, spec)
        assert out["error"] is None
        game = rules.new_game(players=2, seed=seed)
        kinds, verbs, seats = {}, Counter(), [0, 0]
        for notation, _ in out["played"]:
            d = game.decision
            kinds.setdefault(stats.move_kind(d), [0, 0])[d.player] += 1
            verbs[d.verb or ""] += 1
            seats[d.player] += 1
            game.apply(notation)
        assert game.over and out["balance"]["kinds"] == kinds
        assert out["verbs"] == dict(verbs) and list(out["verbs"]) == list(verbs)
        assert out["seat_moves"] == seats and out["moves"] == sum(seats)
        assert out["balance"]["first"] == (None if which == "show" else 0)


# ---------------------------------------------------------------- the page

def test_the_report_holds_the_figures_of_json(evil, tmp_path):
    doc, text, err = simulate_with_report(tmp_path, evil)
    f = doc["balance"]
    page = Page(text)
    assert "report written to" in err
    seats = page.table("Wins per seat")
    for s, name in zip(f["seats"], ("Player 1", "Player 2")):
        assert seats[name][:4] == [str(s["wins"]), str(s["draws"]), str(s["losses"]),
                                   f"{100 * s['win_rate']:.1f}%"]
        assert seats[name][4] == f"{100 * s['ci95'][0]:.1f}–{100 * s['ci95'][1]:.1f}%"
        assert s["wins"] == next(x for x in doc["seats"] if x["seat"] == s["seat"])["wins"]
    first = page.table("The seat that made the first move")["Starting seat"]
    fp = f["first_player"]
    assert first[:4] == [str(fp["games"]), str(fp["wins"]), str(fp["draws"]), str(fp["losses"])]
    kinds = page.table("Moves by kind")
    assert kinds[""] == ["Moves", "Share", "Per game", "Player 1", "Player 2"]
    assert {k: v[0] for k, v in kinds.items() if k} == {EVIL_VERB: "144", "(int)": "144"}
    assert kinds["(int)"][3:] == ["72", "72"]
    lengths = page.table("Game length")
    assert lengths["Turns"][0] == "6" and lengths["Moves"][0] == "12"
    scores = page.table("Scores per seat")
    assert scores["Player 1"][0] == f"{f['seats'][0]['score']['mean']:,.1f}"
    by_score = page.table("Games by final score")
    assert sum(int(r[0]) for k, r in by_score.items() if k) == 24
    assert doc["title"] in "".join(page.text)
    # the charts: SVG images with their figures as alternative text
    assert len(page.images) == 4
    for img in page.images:
        assert img["src"].startswith("data:image/svg+xml;base64,") and img["alt"]
        assert base64.b64decode(img["src"].split(",", 1)[1]).lstrip().startswith(b"<?xml")
    # the command, seed, version and date it was made with
    footer = "".join(page.text).split("Made by Meeple", 1)[1]
    assert meeple.__version__ in footer and "UTC" in footer
    assert "--games 24 --players 2 --seed 3 --bot random --report" in footer


def test_the_report_is_the_same_for_the_same_seed(evil, tmp_path):
    runs = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        doc, text, _ = simulate_with_report(tmp_path / name, evil)
        runs.append((doc["balance"], text.split("Made by Meeple", 1)[0]))   # but the date
    assert runs[0] == runs[1]


def test_every_text_from_the_ruleset_is_escaped(evil, tmp_path):
    _, text, _ = simulate_with_report(tmp_path, evil)
    page = Page(text)
    assert page.tags["script"] == 0
    assert [i for i in page.images if not i["src"].startswith("data:image/svg+xml;base64,")] == []
    assert "<script>alert" not in text and "<img src=x" not in text
    assert "&lt;script&gt;alert(&#x27;t&#x27;)&lt;/script&gt; &amp; Co" in text
    assert EVIL_TITLE in "".join(page.text) and EVIL_VERB in page.table("Moves by kind")


def test_without_matplotlib_the_report_has_the_tables_and_says_how_to_get_charts(
        evil, tmp_path, monkeypatch):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)   # import matplotlib fails
    doc, text, err = simulate_with_report(tmp_path, evil)
    page = Page(text)
    assert page.images == [] and "data:image" not in text
    assert report.INSTALL in "".join(page.text) and report.INSTALL in err
    assert "warning: the report has no charts" in err
    assert page.table("Wins per seat")["Player 1"][0] == str(doc["balance"]["seats"][0]["wins"])


def test_a_path_that_cannot_be_written_is_refused_before_playing(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for bad, why in ((tmp_path, "is a folder"), (tmp_path / "no" / "r.html", "does not exist"),
                     (fifo, "not a regular file")):
        code, out, err = meeple_cli("simulate", "cherokee", "--games", 100000, "--report", bad,
                                    "--json")
        assert code == 2 and out == "" and why in err, (bad, err)
        assert err.startswith("error: --report: ")


def test_the_report_replaces_a_file_whole_or_leaves_it(evil, tmp_path, monkeypatch):
    out = tmp_path / "report.html"
    out.write_text("old", encoding="utf-8")
    real_replace = os.replace

    def failing(src, dst):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", failing)
    code, stdout, err = meeple_cli("simulate", evil, "--games", 3, "--report", out, "--json")
    assert code == 1 and "cannot write the report" in err and "No space left" in err
    assert json.loads(stdout)["ok"] is False
    assert out.read_text(encoding="utf-8") == "old" and os.listdir(tmp_path) == ["report.html"]
    monkeypatch.setattr(os, "replace", real_replace)
    code, _, _ = meeple_cli("simulate", evil, "--games", 3, "--report", out, "--quiet")
    assert code == 0 and out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert os.listdir(tmp_path) == ["report.html"]
    umask = os.umask(0o022)
    os.umask(umask)
    assert (out.stat().st_mode & 0o777) == 0o666 & ~umask


def test_matplotlib_is_loaded_only_for_a_report_and_never_opens_a_window(tmp_path):
    code = ("import sys, meeple.cli.main as m\n"
            "print('matplotlib' in sys.modules)\n"
            "sys.argv = ['meeple', 'simulate', 'cherokee', '-n', '1', '-q', '--report', sys.argv[1]]\n"
            "try:\n    m.main()\nexcept SystemExit:\n    pass\n"
            "import matplotlib\nprint(matplotlib.get_backend().lower())\n")
    env = {**os.environ, "MPLBACKEND": "TkAgg", "DISPLAY": ""}
    root = Path(__file__).resolve().parent.parent
    r = subprocess.run([sys.executable, "-c", code, str(tmp_path / "r.html")], cwd=root, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.stdout.split()[:1] == ["False"] and r.stdout.split()[-1] == "agg", r
    assert (tmp_path / "r.html").exists()
