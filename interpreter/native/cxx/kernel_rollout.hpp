// A search bot's random rollout in a kernel (bots/search.py, SearchBot._playout; the
// Python side is KernelGame.random_moves): up to ``limit`` steps in one call, each a
// chance step drawn from the state's generator (Game.sample_chance) or a move of the
// seat deciding drawn by the bot's own ``random.Random`` (``randrange(move_count)``).
// Written into every kernel by interpreter/native/kernel_module.py after
// cxx/kernel_playout.hpp.

// (its generator, BlockMT, read_random and write_random: cxx/kernel_random.hpp)

// rollout(rng, limit): the steps of a rollout from this state, played on it, moves drawn
// by ``rng`` (a random.Random, left as the draws leave it). Stops when the game is over,
// after ``limit`` steps, or before a step it cannot take (no seat deciding, a count it
// does not draw): the caller takes that one. Gives None where it cannot read ``rng``
// (nothing played), else (steps, trail, stop): the steps taken, what was played as
// int32 pairs (option, seat; a drawn chance step: -1, -1), and None, or the step the
// kernel drew but could not play (a rule error, a budget: the state is then unusable
// and Python plays it): -1 for a chance step, else (option, seat); or the exception of
// a signal (Ctrl-C) that came meanwhile (the steps before it taken: the caller raises it).
static PyObject* k_rollout(PyObject* self, PyObject* const* args, Py_ssize_t n) {
    BlockMT g;
    long long limit = n == 2 ? PyLong_AsLongLong(args[1]) : -1;
    if (n != 2 || (limit == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "rollout(rng, limit)");
        return nullptr;
    }
    if (!read_random(args[0], g)) Py_RETURN_NONE;
    St& s = *((KState*)self)->s;
    std::vector<int32_t> trail;
    long long steps = 0;
    PyObject* stop = Py_None;
    Py_INCREF(stop);
    while (steps < limit && s.phase != 3) {
        if ((steps & 4095) == 4095 && PyErr_CheckSignals() < 0) {
            PyObject *type, *value, *tb;
            PyErr_Fetch(&type, &value, &tb);
            PyErr_NormalizeException(&type, &value, &tb);
            if (tb && value) PyException_SetTraceback(value, tb);
            Py_XDECREF(type);
            Py_XDECREF(tb);
            Py_DECREF(stop);
            stop = value;
            break;
        }
        if (s.step.p) {   // (explicit chance: Game.sample_chance)
            try {
                resolve(s, below(s.rng, s.step_n));
            } catch (...) {
                s.site = -2;   // unusable
                s.step.reset(nullptr);
                Py_DECREF(stop);
                stop = PyLong_FromLong(-1);
                break;
            }
            trail.push_back(-1);
            trail.push_back(-1);
            ++steps;
            continue;
        }
        if (s.site < 0) break;
        Id seat = s.player;
        int c = site_count(s, seat);
        if (c <= 0 || c >= (1 << 30)) break;
        int i = g.below(c);
        try {
            take(s, i, seat);
        } catch (...) {
            s.site = -2;   // unusable
            Py_DECREF(stop);
            stop = Py_BuildValue("(ii)", i, (int)seat);
            break;
        }
        trail.push_back(i);
        trail.push_back(seat);
        ++steps;
    }
    PyObject* bytes = PyBytes_FromStringAndSize((const char*)trail.data(), (Py_ssize_t)(trail.size() * sizeof(int32_t)));
    bool written = write_random(args[0], g);
    PyObject* out = stop && bytes && written ? Py_BuildValue("(LOO)", steps, bytes, stop) : nullptr;
    Py_XDECREF(bytes);
    Py_XDECREF(stop);
    return out;
}
