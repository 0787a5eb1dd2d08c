// Random playouts in a kernel (interpreter/analysis/playouts.py): whole games of random
// moves played in C++, one call for many games. Written into every kernel by
// interpreter/native/kernel_module.py after cxx/kernel_glue.hpp.
//
// Each seat draws its moves as a random bot does (bots.RandomBot, bots._random_mover):
// SplitMix64 from rng.seed_state(seed), a move drawn as rng.pick draws it (bot_pick). A chance
// step (a state in explicit chance mode) is drawn from the state's generator
// (Game.sample_chance); in the seeded mode the rules draw from it as always. The
// generators and their seeding: cxx/kernel_random.hpp, part of the runtime. While a game
// is played out, a decision of one seat is taken where the rules ask it (auto_take, its
// C++ written by interpreter/native/kernel.py, Proc._Ask), so a game is mostly one run.

// what one playout gives back to Python
struct Playout {
    I moves = 0;
    Id first = -1;             // the seat of the first decision (-1: none, or several seats')
    std::vector<I> counts;     // moves per decision and seat: [site * NP + seat]
    std::vector<size_t> order; // those counted, in the order of their first moves
};

// rng.pick: a random seat's move among ``n`` (1 <= n < 2**30): 0 for one, nothing drawn;
// else the top bits, as many as n - 1 has, of the generator's next output, until below n
static inline int bot_pick(uint64_t& state, int n) {
    if (n == 1) return 0;
    const int shift = __builtin_clzll((unsigned long long)(n - 1));   // (64 - (n - 1).bit_length())
    uint64_t r;
    do r = next_u64(state) >> shift; while (r >= (uint64_t)n);
    return (int)r;
}

// One move of a playout at the decision pending: counted (the playout's moves, its first
// seat, its moves per decision and seat) and drawn by the seat's generator: the option's
// index, with the seat in ``seat``; -1 where the playout stops here, ``stop`` saying why
// (1: the kernel cannot decide the move, Python plays the game; 2: ``max_moves`` moves
// made), nothing counted or drawn. playout_draw: its part once the seat and its ``n``
// options are known (auto_pick's too)
static inline MK_AI int playout_draw(St& s, uint64_t* seats, Playout& out, int& stop, Id seat, int n) {
    if (n <= 0 || n >= (1 << 30)) return stop = 1, -1;
    if (out.moves == 0) out.first = s.simul && s.each_n != 1 ? -1 : seat;
    size_t at = (size_t)s.site * NP + seat;
    if (out.counts[at]++ == 0) out.order.push_back(at);
    out.moves += 1;
    return bot_pick(seats[seat], n);
}
static inline MK_AI int playout_pick(St& s, uint64_t* seats, I max_moves, Playout& out, int& stop, Id& seat) {
    if (s.site < 0) return stop = 1, -1;
    if (out.moves >= max_moves) return stop = 2, -1;
    seat = s.player;
    return playout_draw(s, seats, out, stop, seat, site_count(s, seat));
}

// the playout in progress (AUTO): its seats' generators, its moves' limit, its answer
struct AutoPlay {
    uint64_t* seats = nullptr;
    I max_moves = 0;
    Playout* out = nullptr;
};
static AutoPlay AUTO_PLAY;
// AUTO set for a playout (and cleared as it ends, whichever way)
struct AutoOn {
    AutoOn(uint64_t* seats, I max_moves, Playout& out) {
        AUTO_PLAY = AutoPlay{seats, max_moves, &out};
        AUTO = true;
    }
    ~AutoOn() { AUTO = false; }
    AutoOn(const AutoOn&) = delete;
};

// the run begun again after a move taken in place, as run() begins it
static inline MK_AI void auto_renew(St& s) {
    ++EPOCH;
    s.steps = 0;
    s.calls = s.depth = 0;
    s.work = WORK;
}

// A decision of one seat asked in a playout (AUTO): its move picked as play_out picks it
// and taken here, where the procedure asked it, and the run begun again as run() begins
// it (its steps, calls and work anew, the epoch renewed): true, and the procedure goes on
// at its next instruction, as the run that take() began would have gone on (where the
// move was a return to the playout's loop, a take() and a new run(): about 4 % of a small
// game's instructions, docs/performance.md). False where play_out is to stop, nothing
// done (the procedure returns as it always did, and the loop sees why), or where the
// move taken does not go on (a decision of several seats, still waiting: as take()).
static bool auto_take(St& s) {   // (AUTO: never while a perft counts; a one-seat site)
    int stop = 0;
    Id seat = -1;
    int i = playout_pick(s, AUTO_PLAY.seats, AUTO_PLAY.max_moves, *AUTO_PLAY.out, stop, seat);
    if (i < 0) return false;
    s.moves += 1;   // (take)
    if (!site_take(s, i, seat)) return false;
    auto_renew(s);
    return true;
}
// auto_take where the decision's ``n`` options (by value, none of them none) are still
// where the procedure made them, not yet in ``s.opts`` (s.site and s.player set): the
// option's index drawn and the move counted as taken, the procedure then setting its
// local to that option and calling auto_renew; -1 where play_out is to stop (the options
// then put in ``s.opts`` and the procedure returns). A decision's list made and kept in
// the state, then read through site_count and site_take, was up to a sixth of a small
// game's time (docs/performance.md)
static int auto_pick(St& s, size_t n) {
    int stop = 0;
    if (AUTO_PLAY.out->moves >= AUTO_PLAY.max_moves) return -1;
    int i = playout_draw(s, AUTO_PLAY.seats, *AUTO_PLAY.out, stop, s.player, (int)std::min(n, (size_t)1 << 30));
    if (i >= 0) s.moves += 1;   // (take)
    return i;
}

// plays ``s`` to its end with the seats' generators: 0 the game is over, 1 the kernel
// cannot decide a move (Python plays the game: it gives the result or error), 2 the game
// did not end within ``max_moves`` moves (Python says so). Each decision of one seat is
// taken where the rules ask it (auto_take), so a whole game is mostly one run.
static int play_out(St& s, uint64_t* seats, I max_moves, Playout& out) {
    out.counts.assign((size_t)(NSITES > 0 ? NSITES : 1) * NP, 0);
    out.order.clear();
    out.moves = 0;
    out.first = -1;
    AutoOn on(seats, max_moves, out);
    try {
        while (s.phase != 3) {
            if (s.step.p) {   // (explicit chance: Game.sample_chance)
                resolve(s, below(s.rng, s.step_n));
                continue;
            }
            int stop = 0;
            Id seat = -1;
            int i = playout_pick(s, seats, max_moves, out, stop, seat);
            if (i < 0) return stop;
            take(s, i, seat);
        }
    } catch (Interrupted&) {
        throw;
    } catch (...) {
        return 1;
    }
    return 0;
}

// the seats' generators of the listed games first..first+count-1 (each (rng, states): per
// seat its generator's state, rng.seed_state of its bot's seed) into ``out``; false where
// a game is not so
static bool seeded(PyObject* list, Py_ssize_t first, Py_ssize_t count, uint64_t* out) {
    for (Py_ssize_t k = 0; k < count; ++k) {
        PyObject* game = PyList_GET_ITEM(list, first + k);
        PyObject* states = PyTuple_Check(game) && PyTuple_GET_SIZE(game) == 2 ? PyTuple_GET_ITEM(game, 1) : nullptr;
        if (!states || !PyTuple_Check(states) || PyTuple_GET_SIZE(states) != NP) return false;
        for (int p = 0; p < NP; ++p) {
            PyObject* v = PyTuple_GET_ITEM(states, p);
            if (!PyLong_Check(v)) return false;
            out[(size_t)(k * NP + p)] = PyLong_AsUnsignedLongLong(v);
            if (PyErr_Occurred()) return false;
        }
    }
    return true;
}

// A game's result as the kernel holds it, and the Python value made of it: the games of
// a call end in few different ways, each made once (a game's answer holds the one made
// for an equal result; Python reads it and never changes it)
struct ResultKey {
    I scores[NP];
    I ties[NTIES][NP];
    int outcomes[NP];
    TeamT teams[HAS_TEAMS ? NP : 0];
    I parts[NPARTS];
    I payoffs[HAS_PAYOFFS ? NP : 0];
    explicit ResultKey(const St& s) {
        for (int p = 0; p < (HAS_PAYOFFS ? NP : 0); ++p) payoffs[p] = s.payoffs[p];
        for (int p = 0; p < NP; ++p) scores[p] = s.scores[p], outcomes[p] = s.outcomes[p];
        for (int k = 0; k < NTIES; ++k)
            for (int p = 0; p < NP; ++p) ties[k][p] = s.ties[k][p];
        for (int p = 0; p < (HAS_TEAMS ? NP : 0); ++p) teams[p] = s.teams[p];
        for (int k = 0; k < NPARTS; ++k) parts[k] = PART_SCORED[k] ? s.parts[k] : 0;
    }
    bool operator==(const ResultKey& o) const {
        for (int p = 0; p < NP; ++p)
            if (scores[p] != o.scores[p] || outcomes[p] != o.outcomes[p]) return false;
        for (int k = 0; k < NTIES; ++k)
            for (int p = 0; p < NP; ++p)
                if (ties[k][p] != o.ties[k][p]) return false;
        for (int p = 0; p < (HAS_TEAMS ? NP : 0); ++p)
            if (!eq(teams[p], o.teams[p])) return false;
        for (int k = 0; k < NPARTS; ++k)
            if (parts[k] != o.parts[k]) return false;
        for (int p = 0; p < (HAS_PAYOFFS ? NP : 0); ++p)
            if (payoffs[p] != o.payoffs[p]) return false;
        return true;
    }
};
// What Python asks the answers of a call to be (analysis/playouts.py), where it asks:
// per game the playout's dict, {"seed", "result", "moves", "turns", "first", "kinds",
// "error"} and "game" (its index in the call) where ``numbered``; else the tuple of
// ``playout_py``
struct Shape {
    PyObject* names = nullptr;   // per decision (site), the name of its kind of move
    PyObject* make = nullptr;    // game.result made of a result as the kernel gives it
    PyObject* seeds = nullptr;   // per game its seed (a sequence)
    bool numbered = false;
    PyObject* keys[8] = {};      // (the dict's keys, made once)
    PyObject* blank = nullptr;   // (a dict of those keys, each None: each game's is a copy)
    long long seed0 = 0, step = 0;   // (seeds a range of these: seed g is seed0 + g * step)
    bool ranged = false;
    bool distinct = false;   // (each decision's kind a name no other has)
    Shape() {}
    Shape(const Shape&) = delete;
    ~Shape() { Py_XDECREF(blank); }
    bool read(PyObject* shape) {
        int num = 0;
        if (!PyTuple_Check(shape)) {
            PyErr_SetString(PyExc_TypeError, "playouts: the shape is a tuple");
            return false;
        }
        if (!PyArg_ParseTuple(shape, "O!OOp", &PyTuple_Type, &names, &make, &seeds, &num)) return false;
        if (PyTuple_GET_SIZE(names) < NSITES) {
            PyErr_SetString(PyExc_ValueError, "playouts: a name for each kind of move");
            return false;
        }
        numbered = num != 0;
        static const char* const NAMES[8] = {"seed", "result", "moves", "turns", "first", "kinds", "error", "game"};
        static PyObject* made[8] = {};
        for (int k = 0; k < 8; ++k)
            if (!made[k] && !(made[k] = PyUnicode_InternFromString(NAMES[k]))) return false;
        std::copy(made, made + 8, keys);
        if (!(blank = PyDict_New())) return false;
        for (int k = 0; k < (numbered ? 8 : 7); ++k)
            if (PyDict_SetItem(blank, keys[k], Py_None) < 0) return false;
        ranged = PyRange_Check(seeds) && range_of(seeds, seed0, step);
        distinct = true;
        for (Py_ssize_t a = 0; distinct && a < NSITES; ++a)
            for (Py_ssize_t b = 0; distinct && b < a; ++b) {
                int same = PyObject_RichCompareBool(PyTuple_GET_ITEM(names, a), PyTuple_GET_ITEM(names, b), Py_EQ);
                if (same < 0) return false;
                distinct = same == 0;
            }
        return true;
    }
    // a new reference to game g's seed
    PyObject* seed(Py_ssize_t g) const {
        long long at;
        if (ranged && !__builtin_mul_overflow((long long)g, step, &at) && !__builtin_add_overflow(at, seed0, &at))
            return PyLong_FromLongLong(at);
        return PySequence_GetItem(seeds, g);
    }
    // a range's start and step where both fit in a long long
    static bool range_of(PyObject* r, long long& start, long long& step) {
        PyObject* a = PyObject_GetAttrString(r, "start");
        PyObject* b = a ? PyObject_GetAttrString(r, "step") : nullptr;
        int over_a = 0, over_b = 0;
        start = a ? PyLong_AsLongLongAndOverflow(a, &over_a) : -1;
        step = b ? PyLong_AsLongLongAndOverflow(b, &over_b) : -1;
        Py_XDECREF(a);
        Py_XDECREF(b);
        bool ok = a && b && !over_a && !over_b && !PyErr_Occurred();
        PyErr_Clear();
        return ok;
    }
};

// whether ``o`` is an immutable atom (a number, string, None), shared by a copy
static inline bool result_atom(PyObject* o) {
    PyTypeObject* t = Py_TYPE(o);
    return o == Py_None || t == &PyLong_Type || t == &PyBool_Type || t == &PyUnicode_Type || t == &PyFloat_Type
           || t == &PyBytes_Type;
}

// a copy of ``o`` (a result made by Python) no part of which is shared with it but its
// immutable atoms (numbers, strings, None): lists, dicts and tuples copied in C (a list
// whole, in one step, then each item of it that is not an atom copied in its place; a
// dict made at its size, each of its keys put once with its value's copy), any other
// object by copy.deepcopy (as marshal or deepcopy would give it, for each game)
static PyObject* result_copy(PyObject* o) {
    PyTypeObject* t = Py_TYPE(o);
    if (result_atom(o)) {
        Py_INCREF(o);
        return o;
    }
    if (t == &PyList_Type) {
        PyObject* out = PyList_GetSlice(o, 0, Py_SIZE(o));
        for (Py_ssize_t k = 0; out && k < Py_SIZE(out); ++k) {
            PyObject* was = PyList_GET_ITEM(out, k);
            if (result_atom(was)) continue;
            PyObject* x = result_copy(was);
            if (!x) Py_CLEAR(out);
            else PyList_SetItem(out, k, x);   // (gives up ``was``)
        }
        return out;
    }
    if (t == &PyTuple_Type) {
        Py_ssize_t n = Py_SIZE(o);
        PyObject* out = PyTuple_New(n);
        for (Py_ssize_t k = 0; out && k < n; ++k) {
            PyObject* x = result_copy(PyTuple_GET_ITEM(o, k));
            if (!x) Py_CLEAR(out);
            else PyTuple_SET_ITEM(out, k, x);
        }
        return out;
    }
    if (t == &PyDict_Type) {   // (made at its size, each key put once: none looked up twice)
        PyObject* out = _PyDict_NewPresized(PyDict_GET_SIZE(o));
        PyObject *key, *value;
        Py_ssize_t at = 0;
        while (out && PyDict_Next(o, &at, &key, &value)) {
            PyObject* x = result_copy(value);
            if (!x || PyDict_SetItem(out, key, x) < 0) Py_CLEAR(out);
            Py_XDECREF(x);
        }
        return out;
    }
    PyObject* mod = PyImport_ImportModule("copy");
    PyObject* out = mod ? PyObject_CallMethod(mod, "deepcopy", "O", o) : nullptr;
    Py_XDECREF(mod);
    return out;
}

// A call's results: the games of a call end in few different ways, each made once
// (``of``: the kernel's tuple, one object for equal results; ``made``: Python's
// game.result of it, which ``Shape.make`` gives and each game's dict holds a copy of)
struct Results {
    static constexpr size_t KEEP = 32;   // (results kept: more are made anew)
    struct Kept {
        ResultKey key;
        PyObject* raw;
        PyObject* made;
        Py_ssize_t index;   // (its place in ``listed``, where the call lists its results)
    };
    std::vector<Kept> kept;
    PyObject* listed = nullptr;   // (the compact form: each result made, in order; an equal one may recur)
    Results() {}
    Results(const Results&) = delete;
    ~Results() {
        for (auto& m : kept) Py_DECREF(m.raw), Py_XDECREF(m.made);
    }
    Kept* find(const St& s) {
        ResultKey key(s);
        for (auto& m : kept)
            if (m.key == key) return &m;
        PyObject* r = result_py(s);
        if (!r) return nullptr;
        if (kept.size() == KEEP) {   // (a full list: the last one made anew each time)
            Py_DECREF(kept.back().raw);
            Py_XDECREF(kept.back().made);
            kept.pop_back();
        }
        Py_ssize_t index = listed ? PyList_GET_SIZE(listed) : -1;
        if (listed && PyList_Append(listed, r) < 0) {
            Py_DECREF(r);
            return nullptr;
        }
        kept.push_back({key, r, nullptr, index});
        return &kept.back();
    }
    // a new reference to the Python value of s's result
    PyObject* of(const St& s) {
        Kept* k = find(s);
        if (k) Py_INCREF(k->raw);
        return k ? k->raw : nullptr;
    }
    // a new game.result of s's result (``make``: Shape.make)
    PyObject* made(const St& s, PyObject* make) {
        Kept* k = find(s);
        if (k && !k->made) k->made = PyObject_CallOneArg(make, k->raw);
        return k && k->made ? result_copy(k->made) : nullptr;
    }
};

// one game's answer: (result, moves, turns, first seat or None, [site, seat, count, ...]
// in the order of their first moves)
static PyObject* playout_py(const St& s, const Playout& o, Results& results) {
    PyObject* out = PyTuple_New(5);
    PyObject* counts = PyList_New((Py_ssize_t)(3 * o.order.size()));
    if (!out || !counts) {
        Py_XDECREF(out);
        Py_XDECREF(counts);
        return nullptr;
    }
    Py_ssize_t at = 0;
    for (size_t k : o.order) {
        long long parts[3] = {(long long)(k / NP), (long long)(k % NP), (long long)o.counts[k]};
        for (long long v : parts) PyList_SET_ITEM(counts, at++, PyLong_FromLongLong(v));
    }
    PyTuple_SET_ITEM(out, 0, results.of(s));
    PyTuple_SET_ITEM(out, 1, PyLong_FromLongLong((long long)o.moves));
    PyTuple_SET_ITEM(out, 2, PyLong_FromLongLong((long long)s.turn));
    PyTuple_SET_ITEM(out, 3, o.first < 0 ? (Py_INCREF(Py_None), Py_None) : PyLong_FromLong(o.first));
    PyTuple_SET_ITEM(out, 4, counts);
    for (int k = 0; k < 5; ++k)
        if (!PyTuple_GET_ITEM(out, k)) {
            Py_DECREF(out);
            return nullptr;
        }
    return out;
}

// the kinds of moves of a playout, as stats.GameTally gives them: each kind's name (in
// the order of its first move) -> the moves of each seat. Where each decision's kind
// has a name of its own (``Shape.distinct``), each list is made once, whole, from the
// counts of its decision; else the counts of decisions of one name are added up.
static PyObject* kinds_py(const Playout& o, const Shape& shape) {
    PyObject* kinds = PyDict_New();
    if (kinds && shape.distinct) {
        for (size_t i = 0; i < o.order.size(); ++i) {
            size_t site = o.order[i] / NP, j = 0;
            while (j < i && o.order[j] / NP != site) ++j;
            if (j < i) continue;   // (its list made already: a few decisions a game)
            PyObject* seats = PyList_New(NP);
            for (int p = 0; seats && p < NP; ++p) {
                PyObject* v = PyLong_FromLongLong((long long)o.counts[site * NP + (size_t)p]);
                if (!v) Py_CLEAR(seats);
                else PyList_SET_ITEM(seats, p, v);
            }
            int bad = !seats || PyDict_SetItem(kinds, PyTuple_GET_ITEM(shape.names, (Py_ssize_t)site), seats) < 0;
            Py_XDECREF(seats);
            if (bad) {
                Py_DECREF(kinds);
                return nullptr;
            }
        }
        return kinds;
    }
    for (size_t k : o.order) {
        if (!kinds) return nullptr;
        PyObject* name = PyTuple_GET_ITEM(shape.names, (Py_ssize_t)(k / NP));
        PyObject* seats = PyDict_GetItemWithError(kinds, name);
        if (!seats && !PyErr_Occurred()) {
            seats = PyList_New(NP);
            for (int p = 0; seats && p < NP; ++p) PyList_SET_ITEM(seats, p, PyLong_FromLong(0));
            if (!seats || PyDict_SetItem(kinds, name, seats) < 0) Py_CLEAR(kinds);
            Py_XDECREF(seats);   // (the dict holds it)
        }
        if (!seats || !kinds) {
            Py_XDECREF(kinds);
            return nullptr;
        }
        Py_ssize_t seat = (Py_ssize_t)(k % NP);
        long long had = PyLong_AsLongLong(PyList_GET_ITEM(seats, seat));
        PyObject* now = PyLong_FromLongLong(had + (long long)o.counts[k]);
        if (!now) Py_CLEAR(kinds);
        else PyList_SetItem(seats, seat, now);
    }
    return kinds;
}

// one game's playout as Python's dict (Shape), game ``g`` of the call: a copy of the
// shape's blank dict (its keys in their order, no dict grown key by key), its values set
static PyObject* playout_dict(const St& s, const Playout& o, Results& results, const Shape& shape, Py_ssize_t g) {
    PyObject* out = PyDict_Copy(shape.blank);
    PyObject* seed = shape.seed(g);
    // (the game's number: its seed's object where they are equal, a run from seed 0)
    bool same = shape.numbered && shape.ranged && shape.seed0 == 0 && shape.step == 1 && seed;
    PyObject* values[8] = {seed, results.made(s, shape.make),
                           PyLong_FromLongLong((long long)o.moves), PyLong_FromLongLong((long long)s.turn),
                           o.first < 0 ? (Py_INCREF(Py_None), Py_None) : PyLong_FromLong(o.first),
                           kinds_py(o, shape), nullptr,
                           !shape.numbered ? nullptr : same ? (Py_INCREF(seed), seed) : PyLong_FromSsize_t(g)};
    for (int k = 0; k < 8; ++k) {
        if (k == 6 || (k == 7 && !shape.numbered)) continue;   // (error: None, as the blank has it)
        if (!values[k] || (out && PyDict_SetItem(out, shape.keys[k], values[k]) < 0)) Py_CLEAR(out);
    }
    for (int k = 0; k < 8; ++k) Py_XDECREF(values[k]);
    return out;
}

// The compact answers of a call (no shape): per game its numbers, 64-bit integers, each
// column an array('q') made here and written in place (analysis/playouts.py, Compact):
// its moves, its turns, its first seat (-1: none), its result's place in the call's list
// of results (-1: the kernel could not finish it, Python plays it), per game and seat its
// score, (a ruleset with payoffs) per game and seat its payoff, then per decision (site)
// per game and seat the moves made at it (Playout::counts). With them, what Python would
// otherwise find by reading every game's numbers again: how many games the kernel could
// not finish, and per decision whether any game made a move at it (else None in its
// column's place). (Made and written once: fresh memory costs its first writing; a
// bytes of all the numbers, copied into the columns after and the columns scanned, was
// a fifth to a quarter of a small game's batch, docs/performance.md.)
struct Compact {
    static constexpr int NCOLS = 6 + NSITES;
    Py_ssize_t games = 0;
    PyObject* cols[NCOLS] = {};   // (array('q') each; payoffs' none without payoffs)
    long long* at[NCOLS] = {};
    Py_ssize_t unfinished = 0;
    unsigned char made[NSITES > 0 ? NSITES : 1] = {};
    bool ok = false;
    Compact(const Compact&) = delete;
    explicit Compact(Py_ssize_t n) : games(n) {
        if (n == 0) return;
        PyObject* mod = PyImport_ImportModule("array");
        PyObject* one = mod ? PyObject_CallMethod(mod, "array", "s[i]", "q", 0) : nullptr;
        Py_XDECREF(mod);
        ok = one != nullptr;
        for (int c = 0; ok && c < NCOLS; ++c) {
            const Py_ssize_t width = c < 4 ? 1 : c == 5 && !HAS_PAYOFFS ? 0 : NP;
            if (width == 0) continue;
            cols[c] = PySequence_Repeat(one, width * n);   // (zeros: the columns' memory written once more)
            Py_buffer view;
            ok = cols[c] && PyObject_GetBuffer(cols[c], &view, PyBUF_WRITABLE) == 0;
            if (!ok) break;
            ok = view.itemsize == 8 && view.len == 8 * width * n;
            at[c] = (long long*)view.buf;   // (the array keeps it: never resized while held here)
            PyBuffer_Release(&view);
            if (!ok) PyErr_SetString(PyExc_SystemError, "playouts: an array('q') of 8-byte numbers");
        }
        Py_XDECREF(one);
    }
    ~Compact() {
        for (PyObject* c : cols) Py_XDECREF(c);
    }
    // (columns, results, unfinished): a new reference, or nullptr with Python's error set
    PyObject* answer(PyObject* results) const {
        PyObject* out = PyTuple_New(NCOLS);
        for (int c = 0; out && c < NCOLS; ++c) {
            PyObject* col = cols[c] && (c < 6 || made[c - 6]) ? cols[c] : Py_None;
            Py_INCREF(col);
            PyTuple_SET_ITEM(out, c, col);
        }
        PyObject* done = PyLong_FromSsize_t(unfinished);
        PyObject* both = out && done ? PyTuple_Pack(3, out, results, done) : nullptr;
        Py_XDECREF(out);
        Py_XDECREF(done);
        return both;
    }
    // game g's numbers (``s`` null: not finished); false with Python's error set
    bool set(const St* s, const Playout& o, Results& results, Py_ssize_t g) {
        Results::Kept* k = s ? results.find(*s) : nullptr;
        if (s && !k) return false;
        unfinished += s ? 0 : 1;
        at[0][g] = s ? (long long)o.moves : 0;
        at[1][g] = s ? (long long)s->turn : 0;
        at[2][g] = s ? (long long)o.first : -1;
        at[3][g] = s ? (long long)k->index : -1;
        for (int p = 0; p < NP; ++p) at[4][g * NP + p] = s ? (long long)s->scores[p] : 0;
        for (int p = 0; p < (HAS_PAYOFFS ? NP : 0); ++p) at[5][g * NP + p] = s ? (long long)s->payoffs[p] : 0;
        for (int j = 0; j < NSITES; ++j)
            for (int p = 0; p < NP; ++p) {
                const long long c = s ? (long long)o.counts[(size_t)j * NP + p] : 0;
                at[6 + j][g * NP + p] = c;
                made[j] |= (unsigned char)(c != 0);
            }
        return true;
    }
};

// rng.seed_state(seed): the generator of a game of seed ``seed``
static uint64_t seed_state(long long seed) {
    uint64_t s = (uint64_t)seed;
    return next_u64(s);
}

// The state a call's games are played in, one after the other: each game's a copy of its
// start made in the place of the one before (no allocation a game), as fresh() makes it
struct GameSlot {
    unsigned char* at = (unsigned char*)::operator new(sizeof(St));   // (aligned for St: KState's assert)
    St* s = nullptr;
    GameSlot() {}
    GameSlot(const GameSlot&) = delete;
    ~GameSlot() {
        if (s) s->~St();
        ::operator delete(at);
    }
    // a copy of ``from`` with the generator ``rng``, in the place of the game before
    St* copy(const St& from, uint64_t rng) {
        if (s) s->~St();
        s = nullptr;
        s = new (at) St(from);
        s->rng = rng;
        return s;
    }
};

// Python's signals (Ctrl-C) are checked after a game once SIGNAL_MOVES moves were
// played since they last were, not after every game: a check is about 50 instructions,
// a hundredth of a game of nine cells' (1,024 moves: about 140 such games, some 70 us)
constexpr I SIGNAL_MOVES = 1024;
static I UNSIGNALLED = 0;   // (moves played since; a game counts one more, played or not)

// one game played from ``from`` (a copy of it, its generator set to ``rng``) or from its
// start: its answer (game ``g`` of the call), or None where the kernel cannot play it
// to its end; nullptr with Python's error set (a signal)
static PyObject* one_playout(const St* from, uint64_t rng, uint64_t* seats, I max_moves, Playout& o,
                             Results& results, const Shape* shape, Py_ssize_t g, Compact* compact, GameSlot& slot) {
    if (!from && START_KNOWN == 1) from = START;   // (fresh(rng)'s copy, made in the slot)
    St* own = from ? nullptr : fresh(rng);
    St* s = from ? slot.copy(*from, rng) : own;
    int status = s ? play_out(*s, seats, max_moves, o) : 1;
    PyObject* got = compact ? (compact->set(status == 0 ? s : nullptr, o, results, g) ? (Py_INCREF(Py_None), Py_None)
                                                                                      : nullptr)
                    : status != 0 ? (Py_INCREF(Py_None), Py_None)
                    : shape ? playout_dict(*s, o, results, *shape, g) : playout_py(*s, o, results);
    delete own;
    UNSIGNALLED += o.moves + 1;
    if (got && UNSIGNALLED >= SIGNAL_MOVES) {
        UNSIGNALLED = 0;
        if (PyErr_CheckSignals() < 0) {
            Py_DECREF(got);
            return nullptr;
        }
    }
    return got;
}

// playouts(games, max_moves[, shape]), of a state (each game from a copy of it) or of
// the module (each game from its own start, as start(rng) makes it). ``games``: a list
// of (rng, seeds) — the generator state a game starts with (for a state: replacing its
// own), and per seat its bot's generator state (as ``seeded`` reads it); or (seed, first, count),
// the games first..first+count-1 of a run from ``seed`` (simulation.specs): game i of
// generator rng.seed_state(seed + i), seat s's bot seeded bot_seed(seed, i, s).
// ``shape``: (names, make, seeds, numbered), see Shape. Gives a list with per game its
// playout's dict where a shape is given, else (result, moves, turns, first, counts); or
// None where the kernel cannot play it to its end (Python then plays it). ``shape``
// None: the compact form, (columns, results, unfinished): see Compact.
static PyObject* k_playouts(PyObject* self, PyObject* const* args, Py_ssize_t n) {
    long long run[3] = {0, 0, 0};
    bool listed = (n == 2 || n == 3) && PyList_Check(args[0]);
    if ((n != 2 && n != 3) || (!listed && !PyArg_ParseTuple(args[0], "LLL", &run[0], &run[1], &run[2]))) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "playouts(games, max_moves[, shape])");
        return nullptr;
    }
    long long max_moves = PyLong_AsLongLong(args[1]);
    if (max_moves == -1 && PyErr_Occurred()) return nullptr;
    Shape shape;
    bool compact = n == 3 && args[2] == Py_None;
    if (n == 3 && !compact && !shape.read(args[2])) return nullptr;
    const St* from = Py_TYPE(self) == &KStateType ? ((KState*)self)->s : nullptr;
    Py_ssize_t games = listed ? PyList_GET_SIZE(args[0]) : (Py_ssize_t)std::max(0LL, run[2]);
    Compact numbers(compact ? games : 0);
    Results results;
    PyObject* out = compact ? (results.listed = PyList_New(0)) : PyList_New(games);
    if (!out || (compact && games > 0 && !numbers.ok)) {
        Py_XDECREF(out);
        return nullptr;
    }
    // (the games in groups, their seats' generators seeded together)
    const Py_ssize_t group = std::max(1, SEED_GROUP / NP);
    std::vector<uint64_t> seats((size_t)(group * NP));
    Playout o;
    GameSlot slot;
    for (Py_ssize_t g = 0; g < games; ++g) {
        unsigned long long rng = 0;
        uint64_t* mine = &seats[(size_t)(g % group * NP)];
        Py_ssize_t count = std::min(group, games - g);
        if (!listed) {
            long long i = run[1] + g;
            rng = seed_state(run[0] + i);
            if (g % group == 0) bot_generators(run[0], i, seats.data(), (size_t)(count * NP), NP);
        } else if ((g % group == 0 && !seeded(args[0], g, count, seats.data()))
                   || (rng = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(PyList_GET_ITEM(args[0], g), 0)),
                       PyErr_Occurred())) {
            PyErr_Clear();
            Py_DECREF(out);
            PyErr_SetString(PyExc_ValueError, "playouts: each game is (rng, one generator state per seat)");
            return nullptr;
        }
        PyObject* got = one_playout(from, rng, mine, max_moves, o, results, n == 3 ? &shape : nullptr, g,
                                    compact ? &numbers : nullptr, slot);
        if (!got) {
            Py_DECREF(out);
            return nullptr;
        }
        if (compact) Py_DECREF(got);
        else PyList_SET_ITEM(out, g, got);
    }
    if (!compact) return out;
    PyObject* answer = numbers.answer(out);
    Py_DECREF(out);   // (results.listed: the tuple holds it now)
    return answer;
}
