// The driver of a kernel (runtime._run and what it calls), the same for every program:
// written into every kernel by interpreter/native/kernel.py, after the program's procedures.
// runtime._score and _results: the seats' scores and tiebreaks, their teams (units of
// seats with equal team values, in the order of their first seats: a unit's score and
// tiebreaks are its seats' sums), the participants' scores, the payoffs (results._payoffs),
// each seat's outcome (by the rank of its unit: 1 + the units placed before it)
static void score(St& s) {
    for (Id p = 0; p < NP; ++p) s.scores[p] = score_of(s, p);
    for (int k = 0; k < NTIES; ++k)
        for (Id p = 0; p < NP; ++p) s.ties[k][p] = tie_of(s, k, p);
    int unit[NP], first[NP], units = 0;
    for (Id p = 0; p < NP; ++p) {
        if (HAS_TEAMS) s.teams[p] = team_of(s, p);
        int u = 0;
        while (u < units && !(HAS_TEAMS && eq(s.teams[first[u]], s.teams[p]))) ++u;
        if (u == units) first[units++] = p;
        unit[p] = u;
    }
    for (int k = 0; k < NPARTS; ++k)
        if (PART_SCORED[k]) s.parts[k] = part_of(s, k);
    if (HAS_PAYOFFS) {   // (a sum other than the one declared: Python's located rule error)
        I sum = 0;
        for (Id p = 0; p < NP; ++p) {
            s.payoffs[p] = PAYOFF_SHARED && p > 0 ? s.payoffs[0] : payoff_of(s, p);
            sum = add(sum, s.payoffs[p]);
        }
        if (HAS_PAYOFF_TOTAL && sum != PAYOFF_TOTAL) bail();
    }
    I key[NP][NTIES + 1];
    for (int u = 0; u < units; ++u)
        for (int k = 0; k <= NTIES; ++k) key[u][k] = 0;
    for (Id p = 0; p < NP; ++p) {
        key[unit[p]][0] = add(key[unit[p]][0], s.scores[p]);
        for (int k = 0; k < NTIES; ++k) key[unit[p]][k + 1] = add(key[unit[p]][k + 1], s.ties[k][p]);
    }
    for (Id p = 0; p < NP; ++p) {
        I rank = 1;
        for (int u = 0; u < units; ++u) {
            int c = 0;
            for (int k = 0; k <= NTIES && c == 0; ++k)
                c = key[u][k] > key[unit[p]][k] ? 1 : key[u][k] < key[unit[p]][k] ? -1 : 0;
            if (c > 0) ++rank;
        }
        s.outcomes[p] = HAS_OUTCOMES ? outcome_of(s, p, rank) : -1;
    }
    s.phase = 3;
}

// the seat after ``a`` in the turns' direction: pmod(a + DIR), the usual cases with no
// division
static inline Id next_seat(Id a) {
    const I b = (I)a + DIR;
    return (Id)((uint64_t)b < (uint64_t)NP ? b : b == NP ? 0 : b == -1 ? NP - 1 : pmod(b));
}

// a turn over (counted, the epoch renewed): whether the game ends there (the ending not
// yet begun)
static inline MK_AI bool last_turn(St& s) {
    ++s.turn;
    ++EPOCH;
    return end_holds(s);
}

static void next_phase(St& s) {
    if (s.phase == 1) {
        if (last_turn(s)) return begin_ending(s);
        s.active = next_seat(s.active);
        if (TURN_PROC < 0) bail();
        s.push(TURN_PROC);
    } else if (s.phase == 0) {
        s.phase = 1;
        if (ended(s)) return;
        if (TURN_PROC < 0) bail();
        s.push(TURN_PROC);
    } else if (s.phase == 2) {
        score(s);
    }
}

// The turn's procedure at its end, ``f`` its frame: where that frame is the only one and
// nothing stops the run (no decision or chance step pending, no end asked), what run()
// would do next, its frame popped (next_phase: the next turn begun in a new frame, then
// run_top calling the procedure), done here: the next turn begun in the same frame,
// made anew, and true: the procedure goes on at its start with no return to run() (the
// frame and the loop around each turn were about a tenth of a small game's
// instructions). Else false, the frame popped, as the procedure always ended: run() goes
// on (and where the game ends here, it has begun its ending: an ending's procedure is
// pushed once the turn's frame is gone, as next_phase pushes it)
static inline MK_AI bool turn_again(St& s, Frame* f) {
    if (s.site >= 0 || s.phase != 1 || s.step.p || s.end_req || s.stack.size() != 1) {
        s.stack.pop_back();
        return false;
    }
    STEP(s);   // (run()'s, before next_phase)
    if (last_turn(s)) {
        s.stack.pop_back();
        begin_ending(s);
        return false;
    }
    s.active = next_seat(s.active);
    f->~Frame();
    new (f) Frame(TURN_PROC);
    return true;
}

static void run(St& s) {
    ++EPOCH;   // (another state may have been evaluated since)
    s.steps = 0;
    s.calls = s.depth = 0;
    s.work = WORK;
    // (stopped at a chance step: the random statement runs again once it is set)
    while (s.site < 0 && s.phase != 3 && !s.step.p) {
        if (s.end_req) {
            s.end_req = false;
            s.stack.clear();
            if (s.phase != 2) begin_ending(s);
            continue;
        }
        if (s.stack.empty()) {
            STEP(s);
            next_phase(s);
            continue;
        }
        run_top(s);
    }
}

// the outcome set for the pending chance step (candidate ``raw``), then the rules run on
// (Game._resolve)
static void resolve(St& s, int raw) {
    s.taken.push_back(raw);
    s.step.reset(nullptr);
    s.step_n = 0;
    s.nchance += 1;
    run(s);
}

static St* new_state(uint64_t rng, bool xchance) {
    St* s = new St();
    s->xchance = xchance;
    try {
        s->z.clear();
        for (int i = 0; i < NI; ++i) s->facing[i] = -1;
        for (int z = 0; z < NZ; ++z) s->revealed[z] = 0;
        for (int i = 0; i < NINITIAL; ++i) s->z.append(INITIAL[i][0], INITIAL[i][1]);
        s->rng = rng;
        s->work = WORK;
        init_vars(*s);
        if (SETUP_PROC >= 0) s->push(SETUP_PROC);
        run(*s);
    } catch (...) {
        delete s;
        return nullptr;
    }
    return s;
}
