"""Running independent pieces of work (games, shards of ``meeple test``) on every core,
or on a Ray cluster, with the results handed back in order.

``Rules.of(ruleset)`` is what a worker needs to rebuild a ruleset: its source texts,
variants, locale and budgets (plain data, so it travels to another process or machine,
where no file of the ruleset is read). ``run(fn, rules, tasks, jobs=...)`` calls
``fn(rules, task, tick)`` for each task, in ``jobs`` worker processes (``jobs=1``: in this
process), and yields the results **in the order of the tasks**, whatever order they
finish in: a computation that depends only on each task gives the same numbers for any
``jobs``. ``fn`` must be a module-level function (it is sent by name); ``tick(info)``
reports progress from inside a task (``on_progress(task_number, info)`` receives it, in
this process), and ``on_progress(task_number, None)`` is called when a task is done.

Closing the iterator early (a ``break``, an exception, Ctrl-C) stops the workers at once.
"""
from __future__ import annotations

import contextlib
import gc
import hashlib
import marshal
import multiprocessing
import os
import queue as _queue
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from ...dsl import load as dsl_load
from ...dsl.budgets import Budgets

BACKENDS = ("local", "ray")
RAY_INSTALL = "pip install 'meeple[ray]'"


class BackendError(RuntimeError):
    """A backend that cannot run here (Ray not installed, no cluster at the address):
    ``str(e)`` says why and ``hint`` what to do."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.hint = hint


class WorkerDied(RuntimeError):
    """A worker process ended without finishing its task (killed, out of memory)."""


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class Rules:
    """A ruleset as plain data: its files' texts (name, text, in reading order), the
    variants, locale and budgets. ``ruleset()`` compiles it (once per process)."""

    texts: tuple[tuple[str, str], ...]
    variants: tuple[str, ...] = ()
    locale: str | None = None
    budgets: Budgets | None = None
    key: str = ""
    native: bool = False   # the rules run on native code where it can be built (use_native)
    kernel_only: bool = False   # ... on a kernel or in Python (use_native(kernel_only=True))
    _local: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    @classmethod
    def of(cls, ruleset) -> Rules:
        """The portable form of a compiled ``Ruleset`` (or ``Program``)."""
        src = getattr(ruleset, "sources", None) or dsl_load.SourceSet()
        rules = cls.from_sources(src, ruleset.budgets, ruleset.variants, ruleset.locale,
                                 native=bool(getattr(ruleset, "native", False)),
                                 kernel_only=bool(getattr(ruleset, "kernel_only", False)))
        rules._local[(rules.variants, rules.locale)] = ruleset
        _CACHE[(rules.key, rules.variants, rules.locale, rules.engine)] = ruleset
        return rules

    @classmethod
    def from_sources(cls, src, budgets: Budgets | None = None, variants=(), locale=None,
                     native: bool = False, kernel_only: bool = False) -> Rules:
        """The portable form of a ruleset's files as read (``dsl.load.read_sources``);
        ``native``: its games run on native code where it can be built (``kernel_only``:
        on a kernel, else in Python)."""
        texts = tuple(src.sources.items())
        h = hashlib.sha256(repr(budgets).encode())
        for name, text in texts:
            h.update(name.encode() + b"\0" + text.encode() + b"\0")
        return cls(texts, tuple(variants), locale, budgets, h.hexdigest(), native, native and kernel_only)

    @property
    def engine(self) -> tuple[bool, bool]:
        return self.native, self.kernel_only

    def __getstate__(self):
        return {"texts": self.texts, "variants": self.variants, "locale": self.locale,
                "budgets": self.budgets, "key": self.key, "native": self.native,
                "kernel_only": self.kernel_only}

    def __setstate__(self, state):
        for k, v in state.items():
            object.__setattr__(self, k, v)
        object.__setattr__(self, "_local", {})

    def ruleset(self, variants=None, locale=None):
        """The compiled ruleset, with its own variants and locale or the ones given."""
        if variants is None and locale is None:
            variants, locale = self.variants, self.locale
        variants = tuple(variants or ())
        found = self._local.get((variants, locale)) or _CACHE.get((self.key, variants, locale, self.engine))
        if found is None:
            from ..compiler.loading import compile_sources
            src = dsl_load.SourceSet()
            for name, text in self.texts:
                dsl_load.add_text(src, name, text, self.budgets)
            found = compile_sources(src, list(variants), locale, self.budgets)
            _CACHE[(self.key, variants, locale, self.engine)] = found
        if self.native and not found.native:   # silent: the process that asked says why, if it cannot
            found.use_native(report=False, kernel_only=self.kernel_only)
        self._local[(variants, locale)] = found
        return found


_CACHE: dict = {}   # the rulesets compiled in this process, by (key, variants, locale, engine)


def settle_heap() -> None:
    """Collects the garbage there is, then puts every object alive (the imported modules,
    the compiled rules) out of the cyclic garbage collector's reach (``gc.freeze``): a long
    run of games then does not walk them again at each full collection (a rule-heavy
    game's run spent up to 13 % there; docs/performance.md). For a process whose work is that run:
    the worker processes do it after their first task, ``run(..., settle=True)`` in this
    process (``meeple simulate`` does)."""
    gc.collect()
    gc.freeze()


def run(fn: Callable, rules: Rules, tasks: Iterable, jobs: int | None = None,
        backend: str = "local", address: str | None = None,
        on_progress: Callable | None = None, settle: bool = False) -> Iterator:
    """The results of ``fn(rules, task, tick)`` for each task, in the tasks' order (see
    the module's text). ``jobs``: worker processes (None: every core; 1: this process);
    with ``backend="ray"``, at most that many tasks at a time (None: as the cluster
    allows), on the Ray cluster at ``address`` (None: a local one, or the one this
    process is already connected to). Raises BackendError when the backend cannot run.
    ``settle``: this process calls ``settle_heap`` once its first task is done (with
    ``jobs`` 1: the rules compiled by then), or before it starts its workers (they then
    begin settled where they are forked; it only gathers their results); a worker process
    always does once its first task is done."""
    tasks = list(tasks)
    if jobs is not None and jobs < 1:
        raise ValueError("jobs must be at least 1")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; backends are: {', '.join(BACKENDS)}")
    if backend == "ray":
        return _ray_run(fn, rules, tasks, jobs, address, on_progress)
    jobs = min(jobs or default_jobs(), len(tasks)) or 1
    if jobs == 1:
        return _here(fn, rules, tasks, on_progress, settle)
    return _pool(fn, rules, tasks, jobs, on_progress, settle)


def _here(fn, rules, tasks, on_progress, settle: bool = False) -> Iterator:
    for i, task in enumerate(tasks):
        tick = (lambda info, i=i: on_progress(i, info)) if on_progress else _no_tick
        result = fn(rules, task, tick)
        if settle and i == 0:
            settle_heap()
        if on_progress:
            on_progress(i, None)
        yield result


def _no_tick(info=None) -> None:
    pass


# ---------------------------------------------------------------- worker processes

def _context():
    """How the workers start: by ``fork`` where the platform has a safe one, so that each
    worker begins with this process's imports, compiled rules and loaded kernels (a
    spawned worker spends about a second of CPU on them); else by ``spawn`` (macOS, whose
    system libraries are not safe to use after a fork, and Windows): each worker a fresh
    Python that imports Meeple from this process's sys.path. ``START`` chooses."""
    return multiprocessing.get_context(START or start_method())


def start_method() -> str:
    """``fork`` where the platform has a safe one, else ``spawn`` (see ``_context``)."""
    if "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin":
        return "fork"
    return "spawn"


#: how the worker processes start: None (``start_method()``), "fork" or "spawn"
START: str | None = None


def _forked() -> None:
    """A forked worker drops what it copied of this process's state that only this
    process may use: the signal handlers installed in Python (a spawned worker has the
    defaults: ``terminate`` must end it) and the standard streams, whose locks another
    thread of this process (a progress bar's) may have held at the fork: a worker that
    wrote on them (a traceback) would wait for them forever. (What they held unwritten
    was written before the fork, by multiprocessing.) The copies are kept, never used."""
    for sig in signal.valid_signals():
        with contextlib.suppress(OSError, ValueError, TypeError):
            if callable(signal.getsignal(sig)):
                signal.signal(sig, signal.SIG_DFL)
    _COPIED.extend((sys.stdout, sys.stderr))
    sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - the worker's, for its life
    try:
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115
    except OSError:   # (no standard error)
        sys.stderr = sys.stdout


_COPIED: list = []   # a forked worker's copies of the parent's standard streams (never used)


def _orphan_watch(parent: int, every: float = 0.25) -> None:
    """Ends this worker once its parent is gone (killed, or stopped by a signal that left
    it no time to stop its workers): an orphaned worker would go on with the queued
    tasks for minutes. A daemon thread polling the parent's pid (which becomes another
    process's, init's or a subreaper's, once the parent is gone)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(1)
    threading.Thread(target=watch, name="meeple-orphan-watch", daemon=True).start()


def _worker(fn, rules: Rules, todo, done, parent: int | None = None, forked: bool = False,
            tasks: list | None = None) -> None:
    """A worker process: takes tasks until None, puts ("tick"|"done"|"plain"|"error",
    number, payload) on ``done`` (see ``_packed``); ends when its parent process does.
    ``forked``: started by a fork of the parent (see ``_forked``). ``tasks``: the tasks,
    copied with the parent by the fork, ``todo`` giving their numbers; else ``todo``
    gives (number, task)."""
    if forked:
        _forked()
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the parent's to handle
    if forked and _HELD:   # (the signals held since the fork: see _signals_held)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    if parent is not None:
        _orphan_watch(parent)
    settled = False
    while True:
        item = todo.get()
        if item is None:
            return
        i, task = (item, tasks[item]) if tasks is not None else item
        try:
            result = fn(rules, task, lambda info, i=i: done.put(("tick", i, info)))
        except BaseException as e:  # noqa: BLE001 - reported in the parent, in order
            done.put(("error", i, _portable_error(e)))
            continue
        done.put(_packed(i, result))
        if not settled:   # (the rules are compiled by now)
            settle_heap()
            settled = True


def _packed(i: int, result) -> tuple:
    """A task's result as a worker sends it: plain data (dicts, lists, numbers, text:
    a game's summary) as ``marshal``'s bytes, which this Python writes and reads in about
    half the time ``pickle`` takes, the parent unpacking every result of a run (see
    ``_collect``); anything else as is, for the queue to pickle."""
    try:
        return ("plain", i, marshal.dumps(result))
    except ValueError:   # (an object marshal does not write: an exception, a class's)
        return ("done", i, result)


def _portable_error(e: BaseException) -> BaseException:
    import pickle
    try:
        pickle.loads(pickle.dumps(e))  # noqa: S301 - our own bytes, just made
        return e
    except Exception:  # noqa: BLE001 - an exception that does not pickle: its text
        return RuntimeError(f"{type(e).__name__}: {e}")


def _pool(fn, rules, tasks, jobs, on_progress, settle: bool = False) -> Iterator:
    ctx = _context()
    todo, done = ctx.Queue(), ctx.Queue()
    # Neither queue is flushed at exit: after Ctrl-C (at any moment, even while the tasks
    # are being queued) the thread that feeds a full pipe nobody reads would hold the
    # process forever; a run that ends normally has handed every task out.
    todo.cancel_join_thread()
    done.cancel_join_thread()
    workers = []
    try:
        with _ctrl_c_held():
            # a forked worker has the tasks already: it is sent their numbers only (the
            # tasks pickled here and unpickled there cost as much as the rest of the
            # trip: a game's spec and its 256-bit seeds, docs/performance.md)
            forked = ctx.get_start_method() == "fork"
            for item in (range(len(tasks)) if forked else enumerate(tasks)):
                todo.put(item)
            for _ in range(jobs):
                todo.put(None)
            if settle:
                settle_heap()
            workers = [ctx.Process(target=_worker, args=(fn, rules, todo, done, os.getpid(), forked,
                                                         tasks if forked else None),
                                   daemon=True)
                       for _ in range(jobs)]
            with _fork_warning_quiet(), _signals_held(forked):
                for w in workers:
                    w.start()
        yield from _collect(tasks, done, workers, on_progress)
    finally:
        started = [w for w in workers if w.pid is not None]
        for w in started:
            if w.is_alive():
                w.terminate()
        for w in started:
            w.join(5)


@contextlib.contextmanager
def _signals_held(forked: bool):
    """Every signal held back (blocked) while the workers are forked, in this process and
    so in each worker until it has dropped this process's handlers (``_worker``): a
    signal that reached a worker in between (this process's ``terminate()`` of a worker
    it no longer needs, sent as the worker begins) would run a handler of this process
    inside the copy, and its exception (a ``SystemExit``, a ``KeyboardInterrupt``) would
    go on running this process's code there: the caller's, a second time. Held, it comes
    once the worker's handlers are the defaults, and ends it as it ends a spawned one.
    This process gets what it was sent meanwhile once the workers are started."""
    block = getattr(signal, "pthread_sigmask", None)
    if not forked or block is None:
        yield
        return
    global _HELD
    every = set(signal.valid_signals()) - {signal.SIGKILL, signal.SIGSTOP}
    old = block(signal.SIG_BLOCK, every)
    _HELD = every - set(old)
    try:
        yield
    finally:
        block(signal.SIG_SETMASK, old)


_HELD: set = set()   # the signals a forked worker releases once it has dropped the handlers


@contextlib.contextmanager
def _fork_warning_quiet():
    """Python 3.12+ warns when a process with threads forks: ``_forked`` drops what a
    worker copied of theirs (the progress bar's, the queues' feeding thread's)."""
    import warnings
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r".*fork\(\) may lead to deadlocks",
                                category=DeprecationWarning)
        yield


@contextlib.contextmanager
def _ctrl_c_held():
    """Ctrl-C held back until the block ends, where the interpreter has a signal mask:
    a KeyboardInterrupt raised inside ``Queue.put`` can leave the queue's lock taken,
    and the queue's clean-up at exit then waits for it forever."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None:
        yield
        return
    old = mask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, old)


def _collect(tasks, done, workers, on_progress) -> Iterator:
    finished: dict = {}
    nxt = 0
    while nxt < len(tasks):
        if nxt in finished:
            kind, payload = finished.pop(nxt)
            nxt += 1
            if kind == "error":
                raise payload
            yield payload
            continue
        try:
            kind, i, payload = done.get(timeout=0.2)
        except _queue.Empty:
            if _lost(workers, done):
                raise WorkerDied("a worker process ended without finishing its task") from None
            continue
        if kind == "tick":
            if on_progress:
                on_progress(i, payload)
            continue
        if on_progress:
            on_progress(i, None)
        if kind == "plain":
            kind, payload = "done", marshal.loads(payload)
        finished[i] = (kind, payload)


def _lost(workers, done) -> bool:
    """Whether a worker died (killed, out of memory), or all have ended with work
    still missing (what they sent last may still be on its way: waited for a moment)."""
    if any(w.exitcode not in (None, 0) for w in workers):
        return True
    if any(w.is_alive() for w in workers):
        return False
    time.sleep(1.0)
    return done.empty()


# ---------------------------------------------------------------- Ray

def require_ray() -> None:
    """Raises BackendError, saying how to install it, when Ray cannot be imported."""
    _import_ray()


def _import_ray():
    try:
        import ray
    except ImportError:
        raise BackendError("the Ray backend needs Ray, which is not installed",
                           f"install it with: {RAY_INSTALL}") from None
    return ray


def _ray_chunk(fn, rules, chunk):
    """A Ray task: several tasks in a row (their results, or the first exception)."""
    out = []
    for task in chunk:
        try:
            out.append(("done", fn(rules, task, _no_tick)))
        except Exception as e:  # noqa: BLE001 - reported in the driver, in order
            out.append(("error", _portable_error(e)))
            break
    return out


CONNECT_TIMEOUT = 10   # seconds to wait for a cluster's address to answer at all


def _ray_run(fn, rules, tasks, jobs, address, on_progress) -> Iterator:
    ray = _import_ray()
    started = False
    if not ray.is_initialized():
        where = address if address is not None else os.environ.get("RAY_ADDRESS") or None
        _answers(where)
        try:
            with _ray_speaks_on_stderr():
                ray.init(address=address, include_dashboard=False, log_to_driver=False,
                         configure_logging=False)
        except Exception as e:  # noqa: BLE001 - whatever Ray raises, one line says it
            with contextlib.suppress(Exception), _ray_speaks_on_stderr():
                ray.shutdown()        # what a failed start left behind
            if where is None:
                raise BackendError(f"cannot start a local Ray instance: {_first_line(e)}") from None
            raise BackendError(f"cannot connect to Ray at {where}: {_first_line(e)}", CLUSTER_HINT) from None
        started = True
    return _ray_results(ray, fn, rules, tasks, jobs, on_progress, started)


CLUSTER_HINT = "start a cluster with 'ray start --head', or give its --address"


def _answers(address: str | None) -> None:
    """Raises BackendError when nothing answers at a cluster's HOST:PORT (Ray itself
    would try again for many minutes); other forms (auto, local) are Ray's to read."""
    import socket
    found = re.fullmatch(r"(?:ray://)?\[?([^\[\]/]+?)\]?:(\d{1,5})", (address or "").strip())
    if found is None or int(found.group(2)) > 65535:
        return
    try:
        socket.create_connection((found.group(1), int(found.group(2))), CONNECT_TIMEOUT).close()
    except (OSError, ValueError) as e:
        raise BackendError(f"cannot connect to Ray at {address}: nothing answers there "
                           f"({getattr(e, 'strerror', None) or e})", CLUSTER_HINT) from None


def _first_line(e: BaseException) -> str:
    lines = [line.strip() for line in str(e).splitlines() if line.strip()]
    return (lines[0] if lines else type(e).__name__)[:300]


@contextlib.contextmanager
def _ray_speaks_on_stderr():
    """What Ray prints on stdout while this process calls it (starting, stopping: the
    reports it gathered) goes to stderr: stdout is the caller's (a --json document)."""
    with contextlib.redirect_stdout(sys.stderr):
        yield


def _ray_results(ray, fn, rules, tasks, jobs, on_progress, started) -> Iterator:
    width = jobs or max(1, int(ray.cluster_resources().get("CPU", 1)))
    size = max(1, min(50, -(-len(tasks) // (4 * width))))
    chunks = [(s, tasks[s:s + size]) for s in range(0, len(tasks), size)]
    remote = ray.remote(_ray_chunk)
    shared = ray.put(rules)
    pending: dict = {}
    finished: dict = {}
    nxt = 0   # the next chunk to hand back
    waiting = list(chunks)
    try:
        while nxt < len(chunks):
            while waiting and len(pending) < width:
                start, chunk = waiting.pop(0)
                pending[remote.remote(fn, shared, chunk)] = start
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.2)
            for ref in ready:
                start = pending.pop(ref)
                results = _ray_get(ray, ref)
                if on_progress:
                    for k in range(len(results)):
                        on_progress(start + k, None)
                finished[start] = results
            while nxt < len(chunks) and chunks[nxt][0] in finished:
                for kind, payload in finished.pop(chunks[nxt][0]):
                    if kind == "error":
                        raise payload
                    yield payload
                nxt += 1
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            with _ray_speaks_on_stderr():
                ray.shutdown()


def _ray_get(ray, ref):
    """A task's results; WorkerDied when Ray could not run it (its worker killed, out of
    memory, a node lost: after the retries Ray makes)."""
    try:
        return ray.get(ref)
    except ray.exceptions.WorkerCrashedError:
        raise WorkerDied("a Ray worker ended without finishing its task (killed, out of memory)") from None
    except ray.exceptions.RayError as e:
        raise WorkerDied(f"Ray could not run a task: {_first_line(e)}") from None
