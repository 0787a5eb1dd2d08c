// The Python side of a generated kernel: a game state (KState) and the module's
// functions. The program's part (written by interpreter/native/kernel.py before this) gives
// St, run, new_state, site_count, site_py, site_take, the export_* and import_* functions.

// (the state lies in the object itself, ``own``: a copy is one allocation, with no
// allocator's header of its own; ``s`` points at it)
struct KState {
    PyObject_HEAD
    St* s;
    alignas(St) unsigned char own[sizeof(St)];
};
static_assert(alignof(St) <= 16, "PyObject_Malloc aligns to 16 bytes");

static PyTypeObject KStateType = {PyVarObject_HEAD_INIT(nullptr, 0)};

// a Python state holding a copy of s
static PyObject* wrap_copy(const St& s) {
    KState* o = PyObject_New(KState, &KStateType);
    if (!o) return nullptr;
    o->s = new (o->own) St(s);
    return (PyObject*)o;
}

// a Python state holding s (made with new: moved into the object, then deleted)
static PyObject* wrap(St* s) {
    KState* o = PyObject_New(KState, &KStateType);
    if (o) o->s = new (o->own) St(std::move(*s));
    delete s;
    return (PyObject*)o;
}

static void k_dealloc(PyObject* self) {
    ((KState*)self)->s->~St();
    PyObject_Free(self);
}

// the state after the setup when the setup draws nothing: every game starts from a
// copy of it (with its own generator), as Game.new does
static St* START = nullptr;
static int START_KNOWN = 0;  // 0: not known yet; 1: START serves; 2: the setup draws

// a new game from the generator state ``rng`` in the seeded chance mode (nullptr where
// the kernel cannot play its setup): a copy of START where the setup draws nothing
static St* fresh(uint64_t rng) {
    if (START_KNOWN == 1) {
        St* s = new St(*START);
        s->rng = rng;
        return s;
    }
    St* s = new_state(rng, false);
    if (!s) return nullptr;
    if (START_KNOWN == 0) {
        if (s->rng == rng) {
            START = new St(*s);
            START_KNOWN = 1;
        } else {
            START_KNOWN = 2;
        }
    }
    return s;
}

// start(rng, explicit=False): a new game (None where the kernel cannot play its
// setup); ``explicit``: in explicit chance mode
static PyObject* k_start(PyObject*, PyObject* const* args, Py_ssize_t n) {
    if (n < 1 || n > 2) {
        PyErr_SetString(PyExc_TypeError, "start(rng, explicit=False)");
        return nullptr;
    }
    unsigned long long rng = PyLong_AsUnsignedLongLong(args[0]);
    if (PyErr_Occurred()) return nullptr;
    if (n == 2 && PyObject_IsTrue(args[1])) {
        St* s = new_state(rng, true);
        if (!s) Py_RETURN_NONE;
        return wrap(s);
    }
    St* s = fresh(rng);
    if (!s) Py_RETURN_NONE;
    return wrap(s);
}

// the seat an optional argument names (default: the seat deciding now), -2 on an
// error, -3 for no seat of the game
static Id seat_arg(St& s, PyObject* const* args, Py_ssize_t n, Py_ssize_t at) {
    if (n <= at || args[at] == Py_None) return s.player;
    long seat = PyLong_AsLong(args[at]);
    if (seat == -1 && PyErr_Occurred()) return -2;
    return seat < 0 || seat >= NP ? -3 : (Id)seat;
}

// plays option i of the seat (the decision taken; the rules run on when it is made)
static void take(St& s, int i, Id seat) {
    s.moves += 1;
    if (site_take(s, i, seat)) run(s);
}

// the index and seat of apply() and play(): 1 when option i of the seat is a move now,
// 0 when it is not (nothing changes), -1 with Python's error set
static int take_args(St& s, PyObject* const* args, Py_ssize_t n, const char* usage, long& i, Id& seat) {
    if (n < 1 || n > 2) {
        PyErr_SetString(PyExc_TypeError, usage);
        return -1;
    }
    i = PyLong_AsLong(args[0]);
    if (i == -1 && PyErr_Occurred()) return -1;
    seat = seat_arg(s, args, n, 1);
    if (seat == -2) return -1;
    int count = s.site < 0 || seat < 0 ? -1 : site_count(s, seat);
    return i >= 0 && i < count ? 1 : 0;
}

// apply(i, seat=None): option i of the seat (default: the seat deciding now). Returns
// (value, seat, decision) on success; False when it is not a move now (nothing
// changed); None when the kernel cannot decide the move (its state is then unusable:
// the caller plays the moves again in Python).
static PyObject* k_apply(PyObject* self, PyObject* const* args, Py_ssize_t n) {
    St& s = *((KState*)self)->s;
    long i;
    Id seat;
    int now = take_args(s, args, n, "apply(index, seat=None)", i, seat);
    if (now < 0) return nullptr;
    if (!now) Py_RETURN_FALSE;
    PyObject* value = site_py(s, (int)i, seat);
    if (!value) return nullptr;
    int site = s.site;
    try {
        take(s, (int)i, seat);
    } catch (...) {
        Py_DECREF(value);
        s.site = -2;  // unusable
        Py_RETURN_NONE;
    }
    PyObject* out = PyTuple_New(3);
    if (!out) return nullptr;
    PyTuple_SET_ITEM(out, 0, value);
    PyTuple_SET_ITEM(out, 1, PyLong_FromLong(seat));
    PyTuple_SET_ITEM(out, 2, PyLong_FromLong(site));
    return out;
}

// play(index, seat=None): apply without the move's value: who acts now, as status()
// says; False for no such move, None where the kernel cannot go on (its state is then
// unusable)
static PyObject* k_status(PyObject* self, PyObject*);
static PyObject* k_play(PyObject* self, PyObject* const* args, Py_ssize_t n) {
    St& s = *((KState*)self)->s;
    long i;
    Id seat;
    int now = take_args(s, args, n, "play(index, seat=None)", i, seat);
    if (now < 0) return nullptr;
    if (!now) Py_RETURN_FALSE;
    try {
        take(s, (int)i, seat);
    } catch (...) {
        s.site = -2;  // unusable
        Py_RETURN_NONE;
    }
    return k_status(self, nullptr);
}

struct Interrupted {};  // a signal (Ctrl-C) came while the kernel counted: Python raises it

// the move paths of ``depth`` decisions from a state (perft.perft); in a simultaneous
// decision each seat's choice is one, the first seat still to choose first. Each move is
// played on a copy of its position made into the buffer of its depth (Buffers: the
// states' lists and stacks keep their storage from one copy to the next, no allocation
// per position), and the last decision's moves are counted, not played.
struct Buffers {
    St* at[65] = {};
    ~Buffers() {
        for (St* s : at) delete s;
    }
    St& of(int depth, const St& s) {
        if (!at[depth]) at[depth] = new St(s);
        else *at[depth] = s;
        return *at[depth];
    }
};

static unsigned ticks = 0;
static long long count_paths(const St& s, int depth, Buffers& b);
// count_paths(c, 1) of the state move i leads to: the options of its decision counted
// where the site can count them without making them (``COUNTING``: the rules run as
// ever, up to the decision, whose options are not ordered, copied and kept, only
// counted: kernel.py, Proc._ask_body), else made and counted
static long long counted_after(St& c, int i, Buffers& b) {
    COUNTED = -1;
    COUNTING = true;
    try {
        take(c, i, c.player);
    } catch (...) {
        COUNTING = false;
        throw;
    }
    COUNTING = false;
    if (COUNTED < 0 || c.phase == 3 || c.site < 0) return count_paths(c, 1, b);
    if ((++ticks & 1023) == 0 && PyErr_CheckSignals() < 0) throw Interrupted();
    return COUNTED;
}
static long long count_paths(const St& s, int depth, Buffers& b) {
    if ((++ticks & 1023) == 0 && PyErr_CheckSignals() < 0) throw Interrupted();
    if (depth == 0) return 1;
    if (s.phase == 3 || s.site < 0) return 0;
    int n = site_count(const_cast<St&>(s), s.player);
    if (depth == 1) return n;
    long long total = 0;
    for (int i = 0; i < n; ++i) {
        St& c = b.of(depth, s);
        if (depth == 2) {
            total += counted_after(c, i, b);
            continue;
        }
        take(c, i, c.player);
        total += count_paths(c, depth - 1, b);
    }
    return total;
}

// perft(depth): the move paths of ``depth`` decisions, or None where the kernel cannot
// decide a move on the way (Python counts them then)
static PyObject* k_perft(PyObject* self, PyObject* arg) {
    long depth = PyLong_AsLong(arg);
    if (depth == -1 && PyErr_Occurred()) return nullptr;
    if (depth < 0 || depth > 64) Py_RETURN_NONE;
    try {
        Buffers b;
        return PyLong_FromLongLong(count_paths(*((KState*)self)->s, (int)depth, b));
    } catch (Interrupted&) {
        return nullptr;   // (the signal's exception is set: KeyboardInterrupt)
    } catch (...) {
        Py_RETURN_NONE;
    }
}

// divide(depth, first=0, last=None): for each move ``first`` <= i < ``last`` of the seat
// deciding now (perft.divide), the move paths of ``depth`` decisions that begin with it,
// in one list; an empty list where no seat decides; None where the kernel cannot decide a
// move on the way (Python counts them then)
static PyObject* k_divide(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs < 1 || nargs > 3) {
        PyErr_SetString(PyExc_TypeError, "divide(depth, first=0, last=None)");
        return nullptr;
    }
    const St& s = *((KState*)self)->s;
    long depth = PyLong_AsLong(args[0]);
    if (depth == -1 && PyErr_Occurred()) return nullptr;
    if (depth < 1 || depth > 64) Py_RETURN_NONE;
    int n = s.phase == 3 || s.site < 0 ? 0 : site_count(const_cast<St&>(s), s.player);
    long first = nargs > 1 ? PyLong_AsLong(args[1]) : 0;
    long last = nargs > 2 && args[2] != Py_None ? PyLong_AsLong(args[2]) : n;
    if (PyErr_Occurred()) return nullptr;
    first = std::max(0L, std::min(first, (long)n));
    last = std::max(first, std::min(last, (long)n));
    PyObject* out = PyList_New(last - first);
    if (!out) return nullptr;
    try {
        Buffers b;
        for (long i = first; i < last; ++i) {
            St& c = b.of(depth, s);
            take(c, (int)i, c.player);
            PyList_SET_ITEM(out, i - first, PyLong_FromLongLong(count_paths(c, (int)depth - 1, b)));
        }
        return out;
    } catch (Interrupted&) {
        Py_DECREF(out);
        return nullptr;
    } catch (...) {
        Py_DECREF(out);
        Py_RETURN_NONE;
    }
}

// count(seat=None): the options of the seat (0 where it does not decide now)
static PyObject* k_count(PyObject* self, PyObject* const* args, Py_ssize_t n) {
    St& s = *((KState*)self)->s;
    Id seat = seat_arg(s, args, n, 0);
    if (seat == -2) return nullptr;
    int count = s.site < 0 || seat < 0 ? -1 : site_count(s, seat);
    return PyLong_FromLong(count < 0 ? 0 : count);
}

static PyObject* k_over(PyObject* self, PyObject*) {
    return py_bool(((KState*)self)->s->phase == 3);
}

static PyObject* k_player(PyObject* self, PyObject*) {
    St& s = *((KState*)self)->s;
    if (s.site < 0) Py_RETURN_NONE;
    return PyLong_FromLong(s.player);
}

static PyObject* k_turn(PyObject* self, PyObject*) {
    return PyLong_FromLongLong(((KState*)self)->s->turn);
}

static PyObject* k_site(PyObject* self, PyObject*) {
    return PyLong_FromLong(((KState*)self)->s->site);
}

// options(seat=None): the options of the seat, as Python values ([] where it does not
// decide now)
static PyObject* k_options(PyObject* self, PyObject* const* args, Py_ssize_t n) {
    St& s = *((KState*)self)->s;
    Id seat = seat_arg(s, args, n, 0);
    if (seat == -2) return nullptr;
    int count = s.site < 0 || seat < 0 ? -1 : site_count(s, seat);
    PyObject* out = PyList_New(count < 0 ? 0 : count);
    if (!out) return nullptr;
    for (int i = 0; i < count; ++i) {
        PyObject* x = site_py(s, i, seat);
        if (!x) {
            Py_DECREF(out);
            return nullptr;
        }
        PyList_SET_ITEM(out, i, x);
    }
    return out;
}

// the index and the seat (default: the one deciding now) of a call (i, seat=None): 1
// when option i of that seat is a move now, 0 when not, -1 on an error
static int option_args(St& s, PyObject* const* args, Py_ssize_t n, long* i, Id* seat) {
    *i = n >= 1 ? PyLong_AsLong(args[0]) : -1;
    if (*i == -1 && PyErr_Occurred()) return -1;
    *seat = seat_arg(s, args, n, 1);
    if (*seat == -2) return -1;
    int count = s.site < 0 || *seat < 0 ? -1 : site_count(s, *seat);
    return *i >= 0 && *i < count;
}

// option(i, seat=None): one option of the seat, as a Python value
static PyObject* k_option(PyObject* self, PyObject* const* args, Py_ssize_t n) {
    St& s = *((KState*)self)->s;
    long i;
    Id seat;
    int ok = option_args(s, args, n, &i, &seat);
    if (ok < 0) return nullptr;
    if (!ok) {
        PyErr_SetString(PyExc_IndexError, "no such option");
        return nullptr;
    }
    return site_py(s, (int)i, seat);
}

// place(item, seat): where an item lies for a seat that may not know it, as (zone,
// position from the bottom from 1, the zone's size); False where the seat sees it
static PyObject* k_place(PyObject* self, PyObject* const* args, Py_ssize_t n) {
    St& s = *((KState*)self)->s;
    if (n != 2) {
        PyErr_SetString(PyExc_TypeError, "place(item, seat)");
        return nullptr;
    }
    long item = PyLong_AsLong(args[0]), seat = PyLong_AsLong(args[1]);
    if (PyErr_Occurred()) return nullptr;
    if (seat < 0 || seat >= NP) Py_RETURN_FALSE;
    return place_py(s, (Id)item, (Id)seat);
}

// hidden(i, seat=None): whether option i of the seat names an item the seat may not
// know (its move is then written by the item's place)
static PyObject* k_hidden(PyObject* self, PyObject* const* args, Py_ssize_t n) {
    St& s = *((KState*)self)->s;
    long i;
    Id seat;
    int ok = option_args(s, args, n, &i, &seat);
    if (ok < 0) return nullptr;
    return py_bool(ok && site_hidden(s, (int)i, seat));
}

// hidden_any(seat=None): whether any option of the seat names an item it may not know
static PyObject* k_hidden_any(PyObject* self, PyObject* const* args, Py_ssize_t n) {
    St& s = *((KState*)self)->s;
    Id seat = seat_arg(s, args, n, 0);
    if (seat == -2) return nullptr;
    int count = s.site < 0 || seat < 0 ? -1 : site_count(s, seat);
    for (int i = 0; i < count; ++i)
        if (site_hidden(s, i, seat)) Py_RETURN_TRUE;
    Py_RETURN_FALSE;
}

// simul(): None, or a simultaneous decision's (seats, waiting, chosen) as tuples of seats
static PyObject* k_simul(PyObject* self, PyObject*) {
    St& s = *((KState*)self)->s;
    if (s.site < 0 || !s.simul) Py_RETURN_NONE;
    PyObject* seats = PyTuple_New(s.each_n);
    for (int k = 0; k < s.each_n; ++k) PyTuple_SET_ITEM(seats, k, PyLong_FromLong(s.each_seats[k]));
    PyObject* waiting = PyTuple_New(s.nwaiting);
    for (int k = 0; k < s.nwaiting; ++k) PyTuple_SET_ITEM(waiting, k, PyLong_FromLong(s.waiting[k]));
    PyObject* chosen = PyTuple_New(s.nchosen);
    for (int k = 0; k < s.nchosen; ++k) PyTuple_SET_ITEM(chosen, k, PyLong_FromLong(s.chosen[k]));
    PyObject* out = PyTuple_Pack(3, seats, waiting, chosen);
    Py_DECREF(seats);
    Py_DECREF(waiting);
    Py_DECREF(chosen);
    return out;
}

static PyObject* k_copy(PyObject* self, PyObject*) {
    return wrap_copy(*((KState*)self)->s);
}

// result(): None before the end; else (scores, tiebreaks, outcome indices, team values
// or None, participants' scores (None for one without a score), payoffs or None)
static PyObject* result_py(const St& s) {
    if (s.phase != 3) Py_RETURN_NONE;
    PyObject* scores = PyList_New(NP);
    PyObject* outcomes = PyList_New(NP);
    PyObject* ties = PyList_New(NTIES);
    for (int p = 0; p < NP; ++p) {
        PyList_SET_ITEM(scores, p, PyLong_FromLongLong(s.scores[p]));
        PyList_SET_ITEM(outcomes, p, PyLong_FromLong(s.outcomes[p]));
    }
    for (int k = 0; k < NTIES; ++k) {
        PyObject* t = PyList_New(NP);
        for (int p = 0; p < NP; ++p) PyList_SET_ITEM(t, p, PyLong_FromLongLong(s.ties[k][p]));
        PyList_SET_ITEM(ties, k, t);
    }
    PyObject* teams = Py_None;
    Py_INCREF(teams);
    if (HAS_TEAMS) {
        Py_DECREF(teams);
        teams = PyList_New(NP);
        for (int p = 0; p < NP; ++p) PyList_SET_ITEM(teams, p, team_py(s.teams[p]));
    }
    PyObject* parts = PyList_New(NPARTS);
    for (int k = 0; k < NPARTS; ++k)
        PyList_SET_ITEM(parts, k, PART_SCORED[k] ? PyLong_FromLongLong(s.parts[k]) : (Py_INCREF(Py_None), Py_None));
    PyObject* payoffs = Py_None;
    Py_INCREF(payoffs);
    if (HAS_PAYOFFS) {
        Py_DECREF(payoffs);
        payoffs = PyList_New(NP);
        for (int p = 0; p < (HAS_PAYOFFS ? NP : 0); ++p) PyList_SET_ITEM(payoffs, p, PyLong_FromLongLong(s.payoffs[p]));
    }
    PyObject* out = PyTuple_Pack(6, scores, ties, outcomes, teams, parts, payoffs);
    Py_DECREF(payoffs);
    Py_DECREF(scores);
    Py_DECREF(ties);
    Py_DECREF(outcomes);
    Py_DECREF(teams);
    Py_DECREF(parts);
    return out;
}

static PyObject* k_result(PyObject* self, PyObject*) { return result_py(*((KState*)self)->s); }

// heuristic(p): the ruleset's heuristic for seat p, or None where the kernel cannot
// decide it (Python computes it then)
static PyObject* k_heuristic(PyObject* self, PyObject* arg) {
#ifdef HAS_HEURISTIC
    St& s = *((KState*)self)->s;
    long p = PyLong_AsLong(arg);
    if (p == -1 && PyErr_Occurred()) return nullptr;
    if (p < 0 || p >= NP) Py_RETURN_NONE;
    // (budgets of its own, as runtime._heuristic gives it: an expression changes
    // nothing else of the state)
    I work = s.work, calls = s.calls, depth = s.depth;
    ++EPOCH;
    s.calls = s.depth = 0;
    s.work = WORK;
    PyObject* out;
    try {
        out = PyLong_FromLongLong(heuristic_of(s, (Id)p));
    } catch (...) {
        out = Py_None;
        Py_INCREF(out);
    }
    s.work = work, s.calls = calls, s.depth = depth;
    return out;
#else
    (void)self;
    (void)arg;
    Py_RETURN_NONE;
#endif
}

// (export() writes its dict with the runtime's code: cxx/kernel_values.hpp)
static void export_pending_at(const char* state, PyObject* d) { export_pending(*(St*)state, d); }

// export(): the parts of the state the kernel keeps, as the Python state writes them
static PyObject* k_export(PyObject* self, PyObject*) {
    St& s = *((KState*)self)->s;
    Exported e;
    e.zone_at.push_back(0);
    for (int z = 0; z < NZ; ++z) {
        for (Id i = s.z.head[z]; i >= 0; i = s.z.nxt[i]) e.items.push_back(i);
        e.zone_at.push_back((int)e.items.size());
    }
    for (int i = 0; i < NI; ++i) {
        e.loc.push_back(s.z.loc(i));
        e.facing.push_back(s.facing[i]);
    }
    for (int z = 0; z < NZ; ++z)
        if (s.revealed[z]) e.revealed.push_back(z);
    e.active = s.active, e.turn = s.turn, e.moves = s.moves, e.spent = WORK - s.work, e.called = s.calls;
    e.rng = s.rng, e.phase = s.phase;
    e.frame0 = (const char*)s.stack.data(), e.nframes = s.stack.size(), e.frame_size = sizeof(Frame);
    e.proc_off = offsetof(Frame, proc), e.pc_off = offsetof(Frame, pc), e.ret_off = offsetof(Frame, ret);
    e.xchance = s.xchance, e.taken = taken_list(s.taken), e.step = s.step.p, e.nchance = s.nchance;
    e.deciding = s.site >= 0, e.player = s.player;
    return export_py(e, (const char*)&s, VARS, NVARS, NP, NI, FIELDS, FIELDS_AT, PROC_NAMES, RET_SLOT,
                     export_pending_at);
}

// status(): who acts now, in one call: -4 the game is over, -1 a chance step, -2 a
// simultaneous decision, -3 nothing (the state is unusable), else the seat deciding
static PyObject* k_status(PyObject* self, PyObject*) {
    St& s = *((KState*)self)->s;
    return PyLong_FromLong(s.phase == 3 ? -4 : s.step.p ? -1 : s.site < 0 ? -3 : s.simul ? -2 : s.player);
}

// chance(): the pending chance step (as Runtime.draw writes it), or None
static PyObject* k_chance(PyObject* self, PyObject*) {
    St& s = *((KState*)self)->s;
    PyObject* step = s.step.p ? s.step.p : Py_None;
    Py_INCREF(step);
    return step;
}

// the outcome set, or None where the kernel cannot go on (its state is then unusable)
static PyObject* resolved(St& s, int raw) {
    try {
        resolve(s, raw);
    } catch (...) {
        s.site = -2;
        s.step.reset(nullptr);
        Py_RETURN_NONE;
    }
    return PyLong_FromLong(raw);
}

// resolve(raw): sets candidate ``raw`` of the pending chance step (Game._resolve); its
// index back, False where no step is pending or it has no such candidate, None where the
// kernel cannot decide what follows
static PyObject* k_resolve(PyObject* self, PyObject* arg) {
    St& s = *((KState*)self)->s;
    long raw = PyLong_AsLong(arg);
    if (raw == -1 && PyErr_Occurred()) return nullptr;
    if (!s.step.p || raw < 0 || raw >= s.step_n) Py_RETURN_FALSE;
    return resolved(s, (int)raw);
}

// sample(): draws the pending step's candidate from the generator (Game.sample_chance)
// and sets it: the candidate drawn, False or None as resolve
static PyObject* k_sample(PyObject* self, PyObject*) {
    St& s = *((KState*)self)->s;
    if (!s.step.p) Py_RETURN_FALSE;
    return resolved(s, (int)below(s.rng, s.step_n));
}

// (cxx/kernel_playout.hpp, written after this file)
static PyObject* k_playouts(PyObject* self, PyObject* const* args, Py_ssize_t n);
// (cxx/kernel_rollout.hpp)
static PyObject* k_rollout(PyObject* self, PyObject* const* args, Py_ssize_t n);

static PyMethodDef k_methods[] = {
    {"chance", (PyCFunction)k_chance, METH_NOARGS, "the pending chance step, or None"},
    {"status", (PyCFunction)k_status, METH_NOARGS, "-4 over, -1 chance, -2 simultaneous, else the seat"},
    {"resolve", (PyCFunction)k_resolve, METH_O, "resolve(raw): sets a candidate of the chance step"},
    {"sample", (PyCFunction)k_sample, METH_NOARGS, "draws the chance step's candidate and sets it"},
    {"apply", (PyCFunction)(void (*)(void))k_apply, METH_FASTCALL,
     "apply(index, seat=None): (value, seat, decision), False or None"},
    {"count", (PyCFunction)(void (*)(void))k_count, METH_FASTCALL, "count(seat=None): the seat's options"},
    {"play", (PyCFunction)(void (*)(void))k_play, METH_FASTCALL,
     "play(index, seat=None): apply without the value; who acts now (as status), False, or None"},
    {"options", (PyCFunction)(void (*)(void))k_options, METH_FASTCALL, "options(seat=None): their values"},
    {"option", (PyCFunction)(void (*)(void))k_option, METH_FASTCALL, "option(i, seat=None): one's value"},
    {"place", (PyCFunction)(void (*)(void))k_place, METH_FASTCALL, "place(item, seat): where it lies, or False"},
    {"hidden", (PyCFunction)(void (*)(void))k_hidden, METH_FASTCALL, "hidden(i, seat=None): names an unknown item"},
    {"hidden_any", (PyCFunction)(void (*)(void))k_hidden_any, METH_FASTCALL, "hidden_any(seat=None): an option names one"},
    {"perft", (PyCFunction)k_perft, METH_O, "the move paths of a depth, or None"},
    {"divide", (PyCFunction)(void (*)(void))k_divide, METH_FASTCALL, "the move paths after each move, or None"},
    {"over", (PyCFunction)k_over, METH_NOARGS, "whether the game is over"},
    {"player", (PyCFunction)k_player, METH_NOARGS, "the seat deciding (the first still to choose), or None"},
    {"turn", (PyCFunction)k_turn, METH_NOARGS, "the turns completed"},
    {"site", (PyCFunction)k_site, METH_NOARGS, "the decision's number (-1: none)"},
    {"simul", (PyCFunction)k_simul, METH_NOARGS, "None, or (seats, waiting, chosen)"},
    {"copy", (PyCFunction)k_copy, METH_NOARGS, "an independent copy"},
    {"result", (PyCFunction)k_result, METH_NOARGS, "(scores, tiebreaks, outcomes) once over"},
    {"heuristic", (PyCFunction)k_heuristic, METH_O, "the heuristic of a seat, or None"},
    {"export", (PyCFunction)k_export, METH_NOARGS, "the state, as far as the kernel keeps it"},
    {"playouts", (PyCFunction)(void (*)(void))k_playouts, METH_FASTCALL,
     "playouts(games, max_moves): random games from copies of this state"},
    {"rollout", (PyCFunction)(void (*)(void))k_rollout, METH_FASTCALL,
     "rollout(mt, limit): a search bot's random rollout on this state"},
    {nullptr, nullptr, 0, nullptr},
};

static PyObject* k_last_bail(PyObject*, PyObject*) { return PyLong_FromLong(mk::last_bail); }

// a state's chance (explicit chance mode: Runtime.draw): the outcomes set for the
// running random statement, the pending step (kept as it is: a Python state is checked
// before it is loaded) and how many outcomes were set so far
static void load_chance(St& s, PyObject* ch) {
    s.xchance = true;
    PyObject* taken = item(ch, "taken");
    if (!PyList_CheckExact(taken)) throw PyFail();
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(taken); ++k) {
        I raw = from_py_int(PyList_GET_ITEM(taken, k));
        if (raw < 0 || raw > INT32_MAX) throw PyFail();
        s.taken.push_back((int)raw);
    }
    s.nchance = from_py_int(item(ch, "n"));
    PyObject* step = item(ch, "step");
    if (step == Py_None) return;
    PyObject* of = item(step, "of");
    if (!PyList_CheckExact(of) || PyList_GET_SIZE(of) < 2) throw PyFail();
    Py_INCREF(step);
    s.step.reset(step);
    s.step_n = (int)PyList_GET_SIZE(of);
}

// load(state): a kernel's state from a Python game's (Runtime.to_state) standing at a
// decision, or None where it holds anything a kernel does not keep (what it holds is
// read and checked by the runtime's code: cxx/kernel_values.hpp)
static St* load_state(PyObject* d) {
    St* s = new St();
    try {
        Loaded l;
        load_py(d, l, NI, NZ, NP, PROC_NAMES, PROC_END, NPROCS);
        s->z.clear();
        for (int z = 0; z < NZ; ++z)
            for (int k = l.zone_at[z]; k < l.zone_at[z + 1]; ++k) s->z.append(l.items[k], z);
        for (int i = 0; i < NI; ++i) s->facing[i] = l.facing[i];
        for (int z = 0; z < NZ; ++z) s->revealed[z] = 0;
        for (Id z : l.revealed) s->revealed[z] = 1;
        if (l.chance) load_chance(*s, l.chance);
        import_vars(*s, l.vars, l.pvars, l.ivars);
        s->active = l.active, s->turn = l.turn, s->moves = l.moves, s->rng = l.rng, s->phase = (int8_t)l.phase;
        for (size_t k = 0; k < l.frames.size(); ++k) {
            int proc = l.frames[k].proc;
            s->push(proc);
            Frame& fr = s->stack.back();
            fr.pc = l.frames[k].pc;
            int ret = locals_from_py((char*)&fr, proc, l.frames[k].L, k == 0 ? -1 : s->stack[k - 1].proc, FIELDS,
                                     FIELDS_AT, ret_code);
            if (ret >= 0) fr.ret = ret;
        }
        PyObject* p = l.pending;
        if (s->step.p) {   // (at a chance step: no decision pending)
            if (p != Py_None) throw PyFail();
            s->site = -1;
            s->player = -1;
            return s;
        }
        if (!PyDict_CheckExact(p) || PyDict_GetItemString(p, "seats")) throw PyFail();
        s->player = from_py_id(item(p, "player"), NP);
        if (s->player < 0) throw PyFail();
        const Frame& top = s->stack.back();
        s->site = import_pending(*s, p, top.proc, top.pc);
    } catch (...) {
        PyErr_Clear();
        delete s;
        return nullptr;
    }
    return s;
}

static PyObject* k_load(PyObject*, PyObject* d) {
    St* s = load_state(d);
    if (!s) Py_RETURN_NONE;
    return wrap(s);
}

// kept_reads(): the values of rule functions read from a keep since the module loaded
// (kernel_memo.py: each read counts the work its evaluation counted)
static PyObject* k_kept_reads(PyObject*, PyObject*) { return PyLong_FromUnsignedLongLong(KEPT_READS); }

static PyMethodDef module_methods[] = {
    {"start", (PyCFunction)(void (*)(void))k_start, METH_FASTCALL, "start(rng, explicit=False): a new game, or None"},
    {"last_bail", (PyCFunction)k_last_bail, METH_NOARGS, "the source line where the kernel last stopped"},
    {"load", (PyCFunction)k_load, METH_O, "a state from a Python game's at a decision, or None"},
    {"playouts", (PyCFunction)(void (*)(void))k_playouts, METH_FASTCALL,
     "playouts(games, max_moves): random games, each from its own start"},
    {"kept_reads", (PyCFunction)k_kept_reads, METH_NOARGS, "the values of rule functions read from a keep"},
    {nullptr, nullptr, 0, nullptr},
};

static int kernel_init();

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, KERNEL_NAME, nullptr, -1, module_methods};

#define KERNEL_INIT_NAME2(n) PyInit_##n
#define KERNEL_INIT_NAME(n) KERNEL_INIT_NAME2(n)

extern "C" PyMODINIT_FUNC KERNEL_INIT_NAME(KERNEL_SYMBOL)(void) {
    KStateType.tp_name = KERNEL_NAME ".KState";
    KStateType.tp_basicsize = sizeof(KState);
    KStateType.tp_flags = Py_TPFLAGS_DEFAULT;
    KStateType.tp_dealloc = k_dealloc;
    KStateType.tp_methods = k_methods;
    KStateType.tp_doc = "a game's state in a kernel";
    if (PyType_Ready(&KStateType) < 0) return nullptr;
    try {
        kernel_init();
    } catch (...) {
        PyErr_SetString(PyExc_RuntimeError, "the kernel's tables could not be made");
        return nullptr;
    }
    PyObject* m = PyModule_Create(&module_def);
    if (!m) return nullptr;
    Py_INCREF(&KStateType);
    PyModule_AddObject(m, "KState", (PyObject*)&KStateType);
    PyModule_AddStringConstant(m, "KEY", KERNEL_KEY);
    return m;
}
