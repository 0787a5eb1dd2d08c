// The zones of a kernel's state and its generator (interpreter/native/kernel.py writes
// the rest), after cxx/kernel_rt.hpp in every kernel (kernel_types.runtime_cxx).
namespace mk {

// ------------------------------------------------------------------ zones
// Every zone (a cell is one) is a list of items, bottom to top, linked through the
// items: taking an item from anywhere and putting it on top cost the same, and the
// whole layout is a few arrays (a copy of a game is a copy of them).
// (each array of the narrowest type that holds its values: an item's id or -1, a
// link, a count of items; they are read as Id)
// An item keeps no zone of its own: the links at the ends of a zone z (under its bottom
// item, on its top one) hold -2 - z, and an item's zone is found at the nearer end of
// its list (``loc``: one step for an item alone, at the top or at the bottom; an item in
// no zone has the links -1). Where the ends' values fit the links' type as the items
// do (fewer zones than the type holds below 0), this is NI bytes less for every copy.
// STAMPED: each zone also holds the stamp of its last change, a number no other change
// of any zone of any state was given (ZONE_CLOCK): two states whose zone has the same
// stamp hold the same items there (a copy of a state copies its stamps). The kernel's
// lasting keeps read them (interpreter/native/kernel_lasting.py).
// Each change of a STAMPED zone is told to ZONE_TOUCH (the zone, or -1: every zone),
// where a kernel sets it: its lasting keeps' entries that read the zone are then no
// longer clean (kernel_lasting.py's watchers). A STAMPED state's lineage is a number
// no other state was given: a copy of a state gets a fresh one (so does the state a
// copy is assigned to), so the changes of a state are those told to ZONE_TOUCH while
// its lineage is the same.
static void (*ZONE_TOUCH)(int) = nullptr;
static uint64_t LINEAGE_CLOCK = 0;
struct Lineage {
    uint64_t id;
    Lineage() : id(++LINEAGE_CLOCK) {}
    Lineage(const Lineage&) : id(++LINEAGE_CLOCK) {}
    Lineage& operator=(const Lineage&) { id = ++LINEAGE_CLOCK; return *this; }
};
struct NoLineage {};
static uint64_t ZONE_CLOCK = 0;
// OCC_N > 0: the zones OCC_LO .. OCC_LO + OCC_N - 1 (the cells of the boards, in their
// order) each have a bit in ``occ``, set while the zone holds an item (append and unlink
// keep it): a loop over a board's cells whose condition is false on an empty cell walks
// the bits set (interpreter/native/kernel_occupancy.py), in the cells' order.
// (the bits a..b of the index, of those in its word w: a loop over a board's cells)
static inline uint64_t occ_mask(int w, int a, int b) {
    int lo = a - 64 * w, hi = b - 64 * w;
    uint64_t m = lo <= 0 ? ~0ULL : ~0ULL << lo;
    return hi >= 63 ? m : m & ((1ULL << (hi + 1)) - 1);
}
// TOPS::N > 0 (with OCC_N > 0): per value of an attribute that no statement changes, or
// of an item variable (TOPS::MUT, its slots in ``tag``: see below) (a
// slot 0 .. TOPS::N - 1, TOPS::of(item) the slots of an item's values as bits), a bit per
// zone of ``occ``'s, set while the zone's top item has that value (append and unlink keep
// it): a loop over a board's cells whose condition holds only where the top item has a
// value walks those bits, a count of them is how many are set
// (interpreter/native/kernel_tops.py). A value no item has reads the row ``no_tops``, of
// no bit, kept out of the state (a word less to copy).
// (the bits set in a word, with no call where the processor's instruction is not
// assumed: -O2 for any x86-64 calls libgcc's __popcountdi2 for __builtin_popcountll.
// There the processor's POPCNT where it has it, asked of libgcc's record of the
// processor as the word is counted, a test of a byte in memory; else, or built with
// -DMK_NO_POPCNT (tests/test_playouts.py), the bits summed in the word's halves)
static inline int bits_set(uint64_t x) {
#if defined(__POPCNT__) || !defined(__x86_64__)
    return __builtin_popcountll(x);
#else
#if (defined(__GNUC__) || defined(__clang__)) && !defined(MK_NO_POPCNT)
    if (__builtin_expect(__builtin_cpu_supports("popcnt"), 1)) {
        uint64_t n;
        __asm__("popcntq %1, %0" : "=r"(n) : "rm"(x));
        return (int)n;
    }
#endif
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}
// the place of the bit set in x that has i set below it (0 <= i < bits_set(x)): the
// option of index i among options kept as bits (interpreter/native/kernel_bit_picks.py).
// With no branch (a loop clearing i bits mispredicts its end in random positions: a
// 3 x 3 board's random games 5-8% slower in CPU time): the bits set in each byte
// summed from the lowest (s: byte b holds how many are set in bytes 0..b), the byte
// of the bit the bytes whose sums are at most i (their top bits, counted by a
// multiplication), then the bit within it from a table (S. Vigna, "Broadword
// implementation of rank/select queries", 2008)
struct NthSet8 {
    uint8_t at[256][8];
    constexpr NthSet8() : at() {
        for (int m = 0; m < 256; ++m)
            for (int b = 0, k = 0; b < 8; ++b)
                if ((m >> b) & 1) at[m][k++] = (uint8_t)b;
    }
};
static constexpr NthSet8 NTH_SET8{};
static inline int nth_set(uint64_t x, int i) {
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t s = x - ((x >> 1) & 0x5555555555555555ULL);
    s = (s & 0x3333333333333333ULL) + ((s >> 2) & 0x3333333333333333ULL);
    s = ((s + (s >> 4)) & 0x0F0F0F0F0F0F0F0FULL) * ones;
    const uint64_t at_most = (((uint64_t)i * ones | highs) - s) & highs;
    const int byte = (int)(((at_most >> 7) * ones) >> 56);
    const int below = (int)(((s << 8) >> (8 * byte)) & 0xFF);
    return 8 * byte + NTH_SET8.at[(x >> (8 * byte)) & 0xFF][i - below];
}
struct NoTops { static constexpr int N = 0; static constexpr bool MUT = false; static inline uint32_t of(Id) { return 0; } };
template <int NI, int NZ, bool STAMPED = false, int OCC_LO = 0, int OCC_N = 0, class TOPS = NoTops>
struct Zones {
    typedef Fit<-1, NI> It;
    typedef Fit<-1 - NZ, NI> Ln;
    Ln prv[NI > 0 ? NI : 1];  // the item under it (-2 - z: the bottom of zone z)
    Ln nxt[NI > 0 ? NI : 1];  // the item on it (-2 - z: the top of zone z)
    It head[NZ > 0 ? NZ : 1]; // the bottom item of a zone (-1: empty)
    It tail[NZ > 0 ? NZ : 1]; // the top item
    It len[NZ > 0 ? NZ : 1];  // (0 .. NI)
    uint64_t stamp[STAMPED && NZ > 0 ? NZ : 0];  // (STAMPED: see above)
    [[no_unique_address]] std::conditional_t<STAMPED, Lineage, NoLineage> lin;
    uint64_t occ[(OCC_N + 63) / 64];  // (OCC_N > 0: see above; else no byte)
    static constexpr int NT = OCC_N > 0 ? TOPS::N : 0;
    uint64_t tops[NT][(OCC_N + 63) / 64];   // (NT > 0: see above; else no byte)
    static constexpr uint64_t no_tops[(OCC_N + 63) / 64 > 0 ? (OCC_N + 63) / 64 : 1] = {};
    // TOPS::MUT: slots of an attribute that statements change (an item variable), each
    // item's in ``tag`` (the slots of its value as bits, TOPS::of's static ones beside
    // them), set by ``retag`` where a statement sets the variable, the state is made or
    // loaded (kernel_tops.py); a value with no slot, no bit
    static constexpr bool MT = NT > 0 && TOPS::MUT;
    typedef std::conditional_t<(NT <= 8), uint8_t, std::conditional_t<(NT <= 16), uint16_t, uint32_t>> Tag;
    Tag tag[MT ? NI : 0];

    // the bits of value slot k (NT: a value no item has, no bit)
    const uint64_t* tops_of(int k) const {
        if constexpr (NT > 0) return k < NT ? tops[k] : no_tops;
        else return no_tops;
    }
    // the slots of item t's values as bits
    uint32_t slots_of(Id t) const {
        if constexpr (MT) return TOPS::of(t) | tag[t];
        else return TOPS::of(t);
    }
    // item i's slots of a variable anew (``keep``: the bits of its other slots; ``bits``:
    // its value's), and the bits of the zone it tops, where it is a top
    void retag(Id i, uint32_t keep, uint32_t bits) {
        if constexpr (MT) {
            tag[i] = (Tag)((tag[i] & keep) | bits);
            const Id n = nxt[i];
            if (n <= -2) tops_put((Id)(-2 - n), i);
        }
    }
    // the bits of zone z in ``tops`` anew, its top item now t (-1: none), where it has them
    void tops_put(Id z, Id t) {
        if constexpr (NT > 0) {
            uint32_t b = (uint32_t)(z - OCC_LO);
            if (b < (uint32_t)OCC_N) {
                uint32_t on = t >= 0 ? slots_of(t) : 0, sh = b & 63;
                uint64_t keep = ~(1ULL << sh);
                for (int k = 0; k < NT; ++k)
                    tops[k][b >> 6] = (tops[k][b >> 6] & keep) | ((uint64_t)((on >> k) & 1) << sh);
            }
        }
    }

    // the bit of zone z in ``occ`` set (``on``) or cleared, where it has one
    void occ_set(Id z, bool on) {
        if constexpr (OCC_N > 0) {
            uint32_t b = (uint32_t)(z - OCC_LO);
            if (b < (uint32_t)OCC_N) {
                uint64_t m = 1ULL << (b & 63);
                occ[b >> 6] = on ? occ[b >> 6] | m : occ[b >> 6] & ~m;
            }
        }
    }

    void clear() {
        for (int i = 0; i < NI; ++i) prv[i] = nxt[i] = -1;
        for (int z = 0; z < NZ; ++z) head[z] = tail[z] = -1, len[z] = 0;
        if constexpr (OCC_N > 0) std::fill(occ, occ + (OCC_N + 63) / 64, 0ULL);
        if constexpr (NT > 0) for (int k = 0; k < NT; ++k) std::fill(tops[k], tops[k] + (OCC_N + 63) / 64, 0ULL);
        if constexpr (STAMPED) {
            uint64_t t = ++ZONE_CLOCK;
            for (int z = 0; z < NZ; ++z) stamp[z] = t;
            if (ZONE_TOUCH) ZONE_TOUCH(-1);
        }
    }
    // the zone an item is in, or -1 (from both ends of its list at once)
    Id loc(Id item) const {
        Id a = prv[item], b = nxt[item];
        for (;;) {
            if (a < 0) return a == -1 ? -1 : -2 - a;
            if (b < 0) return -2 - b;
            a = prv[a], b = nxt[b];
        }
    }
    void append(Id item, Id z) {
        if constexpr (STAMPED) { stamp[z] = ++ZONE_CLOCK; if (ZONE_TOUCH) ZONE_TOUCH(z); }
        Id t = tail[z];
        prv[item] = t >= 0 ? t : -2 - z;
        nxt[item] = -2 - z;
        if (t >= 0) nxt[t] = item; else head[z] = item;
        tail[z] = item;
        ++len[z];
        if constexpr (OCC_N > 0) occ_set(z, true);
        tops_put(z, item);
    }
    // (the item's own links are left as they were: ``move`` appends it at once)
    void unlink(Id item, Id z) {
        Id p = prv[item], n = nxt[item];
        if constexpr (STAMPED) { stamp[z] = ++ZONE_CLOCK; if (ZONE_TOUCH) ZONE_TOUCH(z); }
        if (p >= 0) nxt[p] = n; else head[z] = n >= 0 ? n : -1;
        if (n >= 0) prv[n] = p; else tail[z] = p >= 0 ? p : -1;
        --len[z];
        if constexpr (OCC_N > 0) if (len[z] == 0) occ_set(z, false);
        if (n < 0) tops_put(z, p >= 0 ? p : -1);   // (the top taken: the one under it now)
    }
    // Runtime.move of an item that nobody sees face down: to the top of ``to``
    // (nothing changes when it is there already)
    void move(Id item, Id to) {
        if (item < 0 || to < 0) bail();
        move_in(item, loc(item), to);
    }
    // ``move`` of an item known to be in zone ``from`` (-1: none; found by a walk of its
    // items, no item moved since): its zone not looked for, the walk along its list to an
    // end that ``loc`` takes (a small game's random moves: 3-5% of its time,
    // docs/performance.md)
    void move_in(Id item, Id from, Id to) {
        if (item < 0 || to < 0) bail();
        if (from == to) return;
        if (from >= 0) unlink(item, from);
        append(item, to);
    }
    // (a zone that holds items has a top one, which append and unlink keep: where the
    // rules ask for the top of a zone they know is not empty, ``occupied(c) and
    // top(c)...``, the compiler drops the test that it is not none)
    Id top(Id z) const {
        Id t = tail[nn(z)];
        if (len[z] > 0 && t < 0) __builtin_unreachable();
        return t;
    }
    // (a cell a walk of the occupied cells' bits gives, kernel_occupancy.py: it holds an
    // item; said to the compiler, which then drops the tests of ``occupied(c)`` and
    // ``empty(c)`` in what it puts in line, and of a top that is none with ``top``'s own
    // hint; the top's test said too cost one ruleset's kernel a function no longer put in
    // line, 2% more instructions)
    void held(Id z) const {
        if (len[z] <= 0) __builtin_unreachable();
    }
    // (a cell a walk of the empty cells' bits gives: it holds none, which drops the
    // tests of ``empty(c)`` a list of the empty cells writes again)
    void bare(Id z) const {
        if (len[z] != 0) __builtin_unreachable();
    }
    // the top item of ``z``, or item 0 where it holds none: read where the rules read
    // the top only if the zone is occupied, the test and the read made together with no
    // branch (``occupied(c) and top(c).seat == s``: kernel_early.py, occupied_and)
    Id top_any(Id z) const {
        Id t = tail[nn(z)];
        return t < 0 ? 0 : t;
    }
    Id bottom(Id z) const { return head[nn(z)]; }
    I size(Id z) const { return len[nn(z)]; }
    List<Id> items(Id z) const {
        Vec<Id> v;
        v.reserve((size_t)len[nn(z)]);
        for (Id i = head[z]; i >= 0; i = nxt[i]) v.push_back(i);
        return List<Id>(std::move(v));
    }
    List<Id> topn(Id z, I n) const {  // helpers._topn: the top n, the top one first
        nn(z);
        Vec<Id> v;
        for (Id i = tail[z]; i >= 0 && (I)v.size() < n; i = prv[i]) v.push_back(i);
        return List<Id>(std::move(v));
    }
    void set_items(Id z, const std::vector<Id>& v) {  // a zone's items, bottom to top, anew
        head[z] = tail[z] = -1;
        len[z] = 0;
        occ_set(z, false);
        tops_put(z, -1);
        for (Id i : v) append(i, z);
    }
};

// ------------------------------------------------------------------ the generator
// SplitMix64, as interpreter/play/rng.py: the state is one 64-bit int kept in the game.
static inline uint64_t next_u64(uint64_t& state) {
    state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
// rng.below: a uniform int in 0..n-1 without modulo bias (a draw at or above the
// largest multiple of n below 2**64 is drawn again)
static inline I below(uint64_t& state, I n) {
    if (n <= 0) bail();
    uint64_t un = (uint64_t)n;
    uint64_t rest = (UINT64_MAX % un + 1) % un;  // 2**64 mod n
    for (;;) {
        uint64_t z = next_u64(state);
        if (rest == 0 || z < (uint64_t)0 - rest) return (I)(z % un);
    }
}

}  // namespace mk
