"""meeple arena and the work on every core: the Wilson interval, the seat rotation, the
--json document, the same numbers whatever --jobs is (simulate, arena, test), a rule
error in a worker reported as in a local run, Ctrl-C, and bad options."""
from __future__ import annotations

import collections
import gc
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import jsonschema
import pytest
from console import Run, meeple_cli
from meeple.interpreter.analysis import arena, parallel, simulation

from meeple import interpreter

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "docs" / "schema" / "cli-arena.schema.json").read_text(encoding="utf-8"))
NOT_REPRODUCIBLE = ("seconds", "games_per_second", "seconds_per_move")


def meeple(*args) -> Run:
    """``meeple ARGS...`` as the console script runs it."""
    return meeple_cli(*args)


def reproducible(doc):
    """A --json document without the timings."""
    if isinstance(doc, dict):
        return {k: reproducible(v) for k, v in doc.items() if k not in NOT_REPRODUCIBLE}
    if isinstance(doc, list):
        return [reproducible(v) for v in doc]
    return doc


# ---------------------------------------------------------------- the statistics

@pytest.mark.parametrize("wins,games,low,high", [
    (5, 10, 0.2366, 0.7634),      # known values of the Wilson score interval (z = 1.96)
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (90, 100, 0.8256, 0.9448),
    (1, 3, 0.0615, 0.7923),
])
def test_wilson_interval_matches_known_values(wins, games, low, high):
    got = arena.wilson(wins, games)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_without_games_is_everything():
    assert arena.wilson(0, 0) == (0.0, 1.0)


def test_seats_rotate_so_each_bot_plays_each_seat_once_per_rotation():
    assert arena.seating(3, 0) == [0, 1, 2]
    assert arena.seating(3, 1) == [2, 0, 1]    # bot 0 moved to seat 1
    for k in (2, 3, 4):
        for seat in range(k):
            assert sorted(arena.seating(k, g)[seat] for g in range(k)) == list(range(k))
    plan = arena.schedule(["random", "first", "random"], 6, seed=4)
    assert [g.seed for g in plan] == [4, 5, 6, 7, 8, 9]
    assert plan[1].bots == ("random", "random", "first")
    assert plan[1].bot_seeds == tuple(interpreter.bot_seed(4, 1, s) for s in range(3))


def test_a_match_counts_each_bots_games_at_each_seat():
    ruleset = interpreter.load("kalah")
    report = arena.play(ruleset, ["first", "random"], games=6, seed=2, jobs=1)
    assert report["balanced"] and report["games"] == 6
    for bot in report["bots"]:
        assert bot["seats"] == [3, 3]
        assert bot["wins"] + bot["draws"] + bot["losses"] == bot["games"] == 6
        low, high = bot["ci95"]
        assert low <= bot["win_rate"] <= high
    # the wins are those of the games themselves, seat by seat
    wins = [0, 0]
    for g in arena.schedule(["first", "random"], 6, seed=2):
        res = simulation.play_game(ruleset, g)["result"]
        for seat, outcome in enumerate(res["outcomes"]):
            wins[arena.seating(2, g.game)[seat]] += outcome == "win"
    assert [b["wins"] for b in report["bots"]] == wins


def test_an_incomplete_rotation_is_said_and_seats_stay_within_one_game():
    r = meeple("arena", "kalah", "first", "random", "first", "--games", 1, "-q", "--json")
    assert r.code == 2 and "Kalah is for 2 to 2 players" in r.err, r     # (3 bots: no)
    r = meeple("arena", "cherokee", "first", "random", "random", "--games", 4, "-j", 1, "-q", "--json")
    assert r.code == 0, r
    assert "not a multiple of 3 bots" in r.err
    doc = json.loads(r.out)
    assert doc["balanced"] is False
    for bot in doc["bots"]:
        assert max(bot["seats"]) - min(bot["seats"]) <= 1 and sum(bot["seats"]) == bot["games"]


# ---------------------------------------------------------------- the command

def test_arena_json_has_every_bots_results():
    r = meeple("arena", "kalah", "random", "first", "--games", 8, "--seed", 3, "-j", 1, "--json")
    assert r.code == 0 and r.err == "", r
    doc = json.loads(r.out)
    jsonschema.validate(doc, SCHEMA)
    assert doc["format"] == "meeple-arena/1" and doc["ok"] and doc["players"] == 2
    assert [b["spec"] for b in doc["bots"]] == ["random", "first"]
    for b in doc["bots"]:
        assert {"spec", "games", "wins", "draws", "losses", "win_rate", "ci95", "mean_score"} <= set(b)
        assert b["win_rate"] == b["wins"] / b["games"] and len(b["ci95"]) == 2
        assert b["ci95"] == pytest.approx(list(arena.wilson(b["wins"], b["games"])))
    assert doc["turns"]["min"] <= doc["turns"]["mean"] <= doc["turns"]["max"]
    text = meeple("arena", "kalah", "random", "first", "--games", 8, "--seed", 3, "-j", 1)
    assert text.code == 0
    first = doc["bots"][0]
    assert f"{100 * first['win_rate']:.1f}% ({100 * first['ci95'][0]:.1f}–" in text.out
    assert f"mean {doc['turns']['mean']:.1f}" in text.out


@pytest.mark.parametrize("args,message", [
    (["kalah", "random", "nosuchbot"], "unknown bot 'nosuchbot'"),
    (["kalah", "random:depth=3", "first"], "takes no options"),
    (["kalah", "random"], "at least two bots"),
    (["kalah", "random", "first", "random"], "Kalah is for 2 to 2 players: give one bot per seat"),
    (["kalah", "random", "first", "--games", 0], "--games must be at least 1"),
    (["kalah", "random", "first", "--jobs", 0], "--jobs must be at least 1"),
    (["kalah", "random", "first", "--backend", "spark"], "--backend spark: choose one of local, ray"),
    (["kalah", "random", "first", "--address", "1.2.3.4:6379"], "--address goes with --backend ray"),
])
def test_arena_bad_input_is_a_usage_error(args, message):
    r = meeple("arena", *args, "--json")
    assert r.code == 2 and message in r.err and r.out == "", r


def test_simulate_bad_jobs_is_a_usage_error():
    r = meeple("simulate", "kalah", "--jobs", -1)
    assert r.code == 2 and "--jobs must be at least 1" in r.err, r
    r = meeple("simulate", "kalah", "--bot", "nosuchbot")
    assert r.code == 2 and "unknown bot 'nosuchbot'" in r.err, r


def test_ray_missing_is_a_usage_error_with_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)    # `import ray` fails
    for command in (["simulate", "kalah"], ["arena", "kalah", "random", "first"],
                    ["test", "kalah"]):
        r = meeple(*command, "--backend", "ray", "--games" if command[0] != "test" else "-n", 2)
        assert r.code == 2, r
        assert "needs Ray" in r.err and "pip install 'meeple[ray]'" in r.err, r


# ---------------------------------------------------------------- the same whatever --jobs

def test_simulate_gives_the_same_numbers_whatever_jobs():
    args = ["simulate", "cherokee", "--players", 3, "--games", 7, "--seed", 11, "--json"]
    one, two = meeple(*args, "--jobs", 1), meeple(*args, "--jobs", 2)
    assert one.code == two.code == 0, (one, two)
    assert reproducible(json.loads(one.out)) == reproducible(json.loads(two.out))


def test_many_games_go_to_the_workers_in_shares_in_order_each_counted():
    # enough games that each worker is sent several at once (simulation.SHARE): the
    # summaries are still those of the games in their order, and on_game is called once
    # for each game
    ruleset = interpreter.load("kalah")
    plan = simulation.specs(2, lambda i: ("random", "random"), 48, seed=3)
    here = [simulation.play_game(ruleset, g) for g in plan]
    counted = []
    there = list(simulation.play_games(ruleset, plan, jobs=2, on_game=lambda: counted.append(1)))
    assert [s["seed"] for s in there] == [g.seed for g in plan]
    assert [(s["result"], s["moves"]) for s in there] == [(s["result"], s["moves"]) for s in here]
    assert len(counted) == len(plan)


def test_arena_gives_the_same_numbers_whatever_jobs():
    args = ["arena", "kalah", "random", "first", "--games", 9, "--seed", 5, "--json"]
    one, two = meeple(*args, "--jobs", 1), meeple(*args, "--jobs", 2)
    assert one.code == two.code == 0, (one, two)
    assert reproducible(json.loads(one.out)) == reproducible(json.loads(two.out))


def test_results_come_back_in_task_order_whatever_finishes_first():
    rules = parallel.Rules.of(interpreter.load("kalah"))
    done = []
    got = list(parallel.run(_slow_first, rules, range(6), jobs=2,
                            on_progress=lambda i, info: done.append(i) if info is None else None))
    assert got == [0, 10, 20, 30, 40, 50]
    assert sorted(done) == list(range(6))


def test_a_worker_that_dies_is_an_error_not_a_hang():
    rules = parallel.Rules.of(interpreter.load("kalah"))
    with pytest.raises(parallel.WorkerDied):
        list(parallel.run(_die, rules, range(3), jobs=2))


def test_a_run_settles_the_heap_once_its_first_task_is_done():
    # the rules compiled by the first task are put out of the garbage collector's reach
    # (gc.freeze): in this process only when asked (meeple simulate and arena ask), in a
    # worker process always
    rules = parallel.Rules.of(interpreter.load("kalah"))
    try:
        gc.unfreeze()
        assert list(parallel.run(_frozen, rules, range(3), jobs=1)) == [0, 0, 0]
        got = list(parallel.run(_frozen, rules, range(3), jobs=1, settle=True))
        assert got[0] == 0 and got[1] > 0 and got[2] == got[1]
    finally:
        gc.unfreeze()
    # 5 tasks on 2 workers: each worker's first task sees nothing frozen, its next ones do
    got = list(parallel.run(_frozen, rules, range(5), jobs=2))
    assert 1 <= got.count(0) <= 2 and sum(1 for x in got if x > 0) >= 3


@pytest.mark.skipif(parallel.start_method() != "fork", reason="workers are spawned here")
def test_forked_workers_begin_with_the_rules_this_process_compiled():
    # (a spawned worker compiled the rules again, and loaded their kernel again)
    ruleset = interpreter.load("kalah")
    got = list(parallel.run(_which_ruleset, parallel.Rules.of(ruleset), range(4), jobs=2))
    assert got == [id(ruleset)] * 4


def _which_ruleset(rules, task, tick):
    return id(rules.ruleset())


class _Counted:
    """A task that counts the times it is pickled (in this process: the queue's feeder)."""

    pickled = 0

    def __init__(self, n: int):
        self.n = n

    def __reduce__(self):
        type(self).pickled += 1
        return (_Counted, (self.n,))


@pytest.mark.skipif(parallel.start_method() != "fork", reason="workers are spawned here")
def test_forked_workers_are_sent_the_tasks_numbers_only():
    # (they have the tasks from the fork: pickling a game's spec cost as much as sending
    # its summary back, docs/performance.md)
    _Counted.pickled = 0
    tasks = [_Counted(n) for n in range(6)]
    got = list(parallel.run(_task_number, parallel.Rules.of(interpreter.load("kalah")), tasks, jobs=2))
    assert got == [0, 1, 2, 3, 4, 5] and _Counted.pickled == 0


def _task_number(rules, task, tick):
    return task.n


def test_results_come_back_as_they_were_plain_data_or_not():
    # plain data travels as marshal's bytes, anything else pickled: either way the same
    # values of the same types
    got = list(parallel.run(_result_of, parallel.Rules.of(interpreter.load("kalah")), range(4), jobs=2))
    for k in (0, 2, 3):
        assert got[k] == _result_of(None, k, None)
    assert [type(x) for x in got[2]] == [tuple, frozenset, float, bool, str]
    assert type(got[3]) is collections.Counter
    assert isinstance(got[1]["error"], interpreter.RuleError) and str(got[1]["error"]) == "no move"


def _result_of(rules, task, tick):
    return [{"seed": 2 ** 130 + task, "result": {"scores": [1, -2]}, "kinds": {"": [0]}, "error": None},
            {"error": interpreter.RuleError("no move")},
            ((1, 2), frozenset({3}), -0.5, True, "\udcff"),
            collections.Counter("aab")][task]


_SIGNALLED_AT_FORK = """
import os, signal, sys
from meeple import interpreter
from meeple.interpreter.analysis import parallel

def stop(signum, frame):   # (as Ray's driver does)
    raise SystemExit(3)

def pid(rules, task, tick):
    return os.getpid()

first = os.getpid()
signal.signal(signal.SIGTERM, stop)
rules = parallel.Rules.of(interpreter.load("tests/testdata/ttt"))
# each worker is sent SIGTERM the moment it is forked, before it could drop this handler
os.register_at_fork(after_in_child=lambda: os.kill(os.getpid(), signal.SIGTERM))
try:
    outcome = str(len(list(parallel.run(pid, rules, range(4), jobs=2))))
except parallel.WorkerDied:
    outcome = "died"
finally:
    if os.getpid() != first:
        print("a worker ran the caller's code", flush=True)
        os._exit(0)
print(outcome, flush=True)
"""


@pytest.mark.skipif(parallel.start_method() != "fork", reason="workers are spawned here")
def test_a_worker_signalled_as_it_is_forked_ends_and_never_runs_the_caller_s_code():
    # this process's SIGTERM handler raises; a worker that ran it (a signal between the
    # fork and the worker's own handlers: terminate() of a worker no longer needed) went
    # on with the caller's code, here a second pytest run (tests/test_results.py)
    done = subprocess.run([sys.executable, "-c", _SIGNALLED_AT_FORK], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert "caller's code" not in done.stdout
    assert done.stdout.split() == ["died"], done.stdout + done.stderr


def test_workers_end_when_the_run_is_closed_whatever_handlers_this_process_has():
    # a forked worker does not keep a signal handler installed here (this one ignores
    # SIGTERM): closing the run ends its workers
    old = signal.signal(signal.SIGTERM, lambda signum, frame: None)
    pids = []
    try:
        run = parallel.run(_busy_after_the_first, parallel.Rules.of(interpreter.load("kalah")),
                           range(4), jobs=2)
        pids.append(next(run))
        run.close()
        assert not _alive(pids[0])
    finally:
        signal.signal(signal.SIGTERM, old)
        for pid in pids:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def _busy_after_the_first(rules, task, tick):
    if task:
        time.sleep(600)     # (ended by the run's close, not waited for)
    return os.getpid()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)     # (a worker that ended has been waited for by the run)
    except ProcessLookupError:
        return False
    return True


def _frozen(rules, task, tick):
    rules.ruleset().new_game(2, task)
    return gc.get_freeze_count()


def _die(rules, task, tick):
    if task == 1:
        os._exit(3)      # as if killed
    return task


def _slow_first(rules, task, tick):
    if task == 0:
        time.sleep(0.5)     # the first task ends last
    return task * 10


BROKEN = """ruleset tiny
title "Tiny"
players 2..2
kind Card { value: int }
zone deck: Card hidden
zone hand: Card per player owner
deck cards into deck { Card(value: v) for v in 1..4 }
var done: bool = false
turn {
  move top(deck) to hand(active)
  move top(deck) to hand(active)
  move top(deck) to hand(active)
  choose c from items(hand(active)) as "keep"
  move top(deck) to hand(active)
  move top(deck) to hand(active)
  done = true
}
end when done
score(p) = count(c for c in items(hand(p)))
"""


def test_a_rule_error_in_a_worker_is_reported_as_in_a_local_run(tmp_path):
    path = tmp_path / "tiny.meeple"
    path.write_text(BROKEN, encoding="utf-8")
    runs = {}
    for jobs in (1, 2):
        records = tmp_path / f"records-{jobs}"
        runs[jobs] = meeple("simulate", path, "--games", 3, "--seed", 7, "--json",
                            "--records", records, "--jobs", jobs)
        assert runs[jobs].code == 1, runs[jobs]
        assert sorted(p.name for p in records.iterdir()) == ["tiny-seed-7.json"]
    one, two = (json.loads(runs[j].out) for j in (1, 2))
    assert one["failed_game"]["game"] == 1 and one["failed_game"]["seed"] == 7
    assert one["error"]["rule"]["line"] and one["error"]["rule"]["file"] == str(path)
    assert one["error"]["rule"] == two["error"]["rule"]
    assert one["error"]["message"].replace("records-1", "records-2") == two["error"]["message"]
    assert runs[1].err.replace("records-1", "records-2") == runs[2].err
    saved = [json.loads((tmp_path / f"records-{j}" / "tiny-seed-7.json").read_text()) for j in (1, 2)]
    assert saved[0] == saved[1] and "The next move failed" in saved[0]["note"]


def test_records_are_the_same_whatever_jobs(tmp_path):
    for jobs in (1, 2):
        r = meeple("simulate", "kalah", "--games", 3, "--seed", 2, "-q", "--records",
                   tmp_path / str(jobs), "--jobs", jobs)
        assert r.code == 0, r
    names = sorted(p.name for p in (tmp_path / "1").iterdir())
    assert names == ["kalah-seed-2.json", "kalah-seed-3.json", "kalah-seed-4.json"]
    for name in names:
        assert (tmp_path / "1" / name).read_text() == (tmp_path / "2" / name).read_text()


def test_ctrl_c_stops_the_workers_and_exits_130(tmp_path):
    records = tmp_path / "records"    # (games played: seen from outside)
    proc = _interruptible([sys.executable, "-m", "meeple", "simulate", "kalah", "--games",
                           "3000", "--jobs", "2", "-q", "--records", str(records)])
    try:
        # meeple's 2 workers, and games played
        _wait_for(proc, lambda: len(_workers(proc.pid)) >= 2 and records.is_dir()
                  and len(list(records.iterdir())) >= 3)
        os.killpg(proc.pid, signal.SIGINT)     # as a terminal sends it: to the whole group
        out, err = proc.communicate(timeout=60)   # (only against a hang: no time is asserted)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)     # the workers too
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err and out == ""
    deadline = time.monotonic() + 60   # (only against a hang)
    while time.monotonic() < deadline and _session(proc.pid):
        time.sleep(0.05)
    assert _session(proc.pid) == []       # no worker left behind


# the moments of a start that a Ctrl-C may hit, each seen from outside: the command's
# own cache folder made (the ruleset being loaded), then the workers it has started
# (forked, or spawned: then the queues' resource tracker started first is not counted)
MOMENTS = {"loading": 0, "a worker started": 1, "both workers started": 2}


@pytest.mark.parametrize("moment", list(MOMENTS))
def test_ctrl_c_while_the_workers_start_exits_130_at_once(moment, tmp_path):
    # (a Ctrl-C while the tasks were being queued left a queue's lock taken or its
    # feeding thread blocked on a full pipe: the process never exited)
    cache = tmp_path / "cache"
    proc = _interruptible([sys.executable, "-m", "meeple", "simulate", "kalah", "--games",
                           "3000", "--jobs", "2", "-q"], MEEPLE_CACHE_DIR=str(cache))
    try:
        workers = MOMENTS[moment]
        _wait_for(proc, lambda: cache.exists() and len(_workers(proc.pid)) >= workers)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)   # (only against a hang: no time is asserted)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and out == ""


TRIGGER = r"""
import os, signal
from meeple.cli.entry import main
real = os.sched_getaffinity    # asked by the command for the cores it may use


def interrupted_in_a_text(pid):
    # a Ctrl-C that lands while a text is evaluated (namedtuple and dataclasses do it)
    exec("os.kill(os.getpid(), signal.SIGINT)\nfor _ in range(1000): pass",
         {"os": os, "signal": signal})
    return real(pid)


os.sched_getaffinity = interrupted_in_a_text
main()
"""


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="Linux's sched_getaffinity")
def test_ctrl_c_inside_an_evaluated_text_exits_130_under_python_m(tmp_path):
    # CPython run with -m (as `python -m meeple`) killed itself by SIGINT (exit -2) when
    # the Ctrl-C it handled had ended a text given to exec or eval
    (tmp_path / "interrupted_meeple.py").write_text(TRIGGER, encoding="utf-8")
    proc = _interruptible([sys.executable, "-m", "interrupted_meeple", "simulate", "kalah", "--games", "2",
                           "-q"], PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    try:
        out, err = proc.communicate(timeout=120)   # (only against a hang)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err and out == ""


def _wait_for(proc, seen) -> None:
    """Waits until ``seen()`` (the command still running); fails if it never comes."""
    deadline = time.monotonic() + 120      # (only against a hang: no time is asserted)
    while not seen():
        assert proc.poll() is None, "the command ended before the moment came"
        assert time.monotonic() < deadline, "the moment never came"
        time.sleep(0.02)


def _interruptible(args: list, **env) -> subprocess.Popen:
    """A command in a session of its own, as a terminal starts it: Ctrl-C's default
    action restored (a shell runs background commands with SIGINT ignored, which a
    child inherits: a test suite started with '&' would wait for it forever); ``env``:
    variables set for it."""
    return subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **env},
                            start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # noqa: PLW1509 - before exec


def _session(sid: int) -> list[int]:
    """The processes of a session (a zombie is not counted): read from /proc where there
    is one (cheap enough to ask often), else from ps."""
    if not os.path.isdir("/proc/self"):
        out = subprocess.run(["ps", "-o", "pid=,stat=", "-s", str(sid)], capture_output=True, text=True,
                             check=False)
        return [int(line.split()[0]) for line in out.stdout.splitlines()
                if line.split() and not line.split()[1].startswith("Z")]
    found = []
    for name in os.listdir("/proc"):
        try:
            stat = (Path("/proc") / name / "stat").read_text() if name.isdigit() else ""
        except OSError:     # ended meanwhile
            continue
        fields = stat[stat.rfind(")") + 2:].split()   # state, ppid, group, session...
        if len(fields) > 3 and int(fields[3]) == sid and fields[0] != "Z":
            found.append(int(name))
    return found


def _workers(pid: int) -> list[int]:
    """The worker processes of a command: its children, but the resource tracker that
    spawned workers' queues need (a forked worker runs the command's own command line)."""
    return [p for p in _session(pid) if p != pid and _parent(p) == pid
            and "resource_tracker" not in _command_line(p)]


def _parent(pid: int) -> int | None:
    if not os.path.isdir("/proc/self"):
        out = subprocess.run(["ps", "-o", "ppid=", "-p", str(pid)], capture_output=True, text=True,
                             check=False).stdout.strip()
        return int(out) if out.isdigit() else None
    try:
        stat = (Path("/proc") / str(pid) / "stat").read_text()
    except OSError:     # ended meanwhile
        return None
    return int(stat[stat.rfind(")") + 2:].split()[1])


def _command_line(pid: int) -> str:
    if not os.path.isdir("/proc/self"):
        return subprocess.run(["ps", "-o", "args=", "-p", str(pid)], capture_output=True, text=True,
                              check=False).stdout
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def test_meeple_test_gives_the_same_games_whatever_jobs():
    # 30 examples: two shards (25 + 5), so two workers share them with --jobs 2
    args = ["test", "kalah", "--examples", 30, "--seed", 3, "--json", "-q"]
    one, two = meeple(*args, "--jobs", 1), meeple(*args, "--jobs", 2)
    assert one.code == two.code == 0, (one, two)
    a, b = json.loads(one.out), json.loads(two.out)
    assert a == b and a["games"] == 30 and a["states"] > 30


def test_meeple_test_reports_the_first_failing_shard_whatever_jobs(tmp_path):
    leaky = ROOT / "tests" / "broken" / "leaky_view"
    docs = []
    for jobs in (1, 2):
        r = meeple("test", leaky, "--players", 3, "--examples", 30, "--json", "-q",
                   "--out", tmp_path / f"failure-{jobs}.json", "--jobs", jobs)
        assert r.code == 1, r
        docs.append(json.loads(r.out))
    for d in docs:
        d["failure"].pop("record")
    assert docs[0] == docs[1] and docs[0]["failure"]["check"] == "secret 'hand'"
    saved = [(tmp_path / f"failure-{j}.json").read_text() for j in (1, 2)]
    assert saved[0].replace("failure-1.json", "failure-2.json") == saved[1]


def test_ray_is_an_extra_and_in_the_test_extra_where_it_has_wheels():
    import tomllib

    from packaging.markers import Marker
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"]
    assert [r.split(";")[0] for r in extras["ray"]] == ["ray>=2.60.0"]
    (ray,) = [r for r in extras["test"] if r.startswith("ray>=")]
    marker = Marker(" ".join(ray.split(";", 1)[1].replace("\\", " ").split()))
    env = {"sys_platform": "linux", "platform_machine": "x86_64", "python_version": "3.11"}
    assert marker.evaluate(env)
    assert not marker.evaluate({**env, "sys_platform": "darwin"})     # macOS x86_64: no wheel


def test_arena_reports_a_failing_game_with_its_rule(tmp_path):
    path = tmp_path / "tiny.meeple"
    path.write_text(BROKEN, encoding="utf-8")
    r = meeple("arena", path, "random", "first", "--games", 4, "--seed", 7, "--json", "-j", 2)
    assert r.code == 1, r
    doc = json.loads(r.out)
    jsonschema.validate(doc, SCHEMA)
    assert doc["failed_game"] == {"game": 1, "seed": 7, "record": None}
    assert doc["error"]["rule"]["file"] == str(path) and "game 1 (seed 7)" in r.err




def test_the_workers_end_when_meeple_is_killed(tmp_path):
    """A `meeple simulate` killed outright (SIGKILL, or a SIGTERM that gives it no time to
    stop its workers) leaves no worker behind: each worker ends once its parent is gone
    (they went on with the queued games for minutes, on every core)."""
    records = tmp_path / "records"
    proc = _interruptible([sys.executable, "-m", "meeple", "simulate", "kalah", "--games",
                           "20000", "--jobs", "2", "-q", "--records", str(records)])
    try:
        _wait_for(proc, lambda: len(_workers(proc.pid)) >= 2 and records.is_dir()
                  and len(list(records.iterdir())) >= 3)
        os.kill(proc.pid, signal.SIGKILL)          # meeple only, not its group
        proc.communicate(timeout=60)
        deadline = time.monotonic() + 60   # (only against a hang: no time is asserted)
        while time.monotonic() < deadline and _session(proc.pid):
            time.sleep(0.05)
        assert _session(proc.pid) == []       # no worker left behind
    finally:
        if _session(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
