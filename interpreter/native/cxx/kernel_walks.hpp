// Walks over a board in a kernel (interpreter/native/kernel_walks.py: connected's cells
// found) and the lists of cells they make (groups of like stones and their empty
// neighbours). Part of the runtime every kernel starts with (after cxx/kernel_rt.hpp,
// precompiled with it: interpreter/native/kernel_types.runtime_cxx).
namespace mk {

// The cells a walk found (kernel.py, Gen._connected), in a buffer sized ahead (room(k)
// before k cells are looked at): each cell looked at written at the end, kept or not by
// its condition's truth added to the length, with no branch on it. The buffer is one of
// a pool, one per walk in progress (a walk's condition may walk too), kept for the next
// walk at its depth: a walk allocates its list alone (inline up to four cells), with no
// buffer made and no zeros written before its cells.
struct Walked {
    static inline std::vector<Vec<Id>*> pool_;
    static inline size_t depth_ = 0;
    Vec<Id>& v;
    size_t n = 0;
    static Vec<Id>& take() {
        if (depth_ == pool_.size()) pool_.push_back(new Vec<Id>(64));
        return *pool_[depth_++];
    }
    Walked() : v(take()) {}
    ~Walked() { --depth_; }
    Walked(const Walked&) = delete;
    void room(size_t k) {
        if (n + k > v.size()) v.resize(2 * (n + k));
    }
    void push_back(Id x) {
        room(1);
        v[n++] = x;
    }
    void push_if(Id x, bool c) {
        v[n] = x;
        n += c;
    }
    size_t size() const { return n; }
    Id operator[](size_t i) const { return v[i]; }
    List<Id> list() const { return List<Id>::of_n(v.data(), n); }
};

// distinct() of ids (cells, items...), more than a few: each marked as met, by
// generation, in a table by id (the liberties of a group, made again as it grows: the
// same list as cxx/kernel_rt.hpp's distinct, with one look per element rather than one
// per element before it); none or ids beyond the table's bound by that one
static inline List<Id> distinct(const List<Id>& l) {
    size_t n = l.size();
    if (n <= 8) return distinct<Id>(l);
    const Id* d = l.begin();
    uint32_t top = 0;
    for (size_t i = 0; i < n; ++i) top = std::max(top, (uint32_t)d[i]);
    if (top >= (1u << 20)) return distinct<Id>(l);
    static std::vector<uint32_t> met;
    static uint32_t gen = 0;
    if (met.size() <= top) met.resize((size_t)top + 1, 0);
    if (++gen == 0) {
        std::fill(met.begin(), met.end(), 0u);
        gen = 1;
    }
    size_t i = 0;
    for (; i < n; ++i) {   // (up to the first met before: none, and the list is itself)
        uint32_t x = (uint32_t)d[i];
        if (met[x] == gen) break;
        met[x] = gen;
    }
    if (i == n) return l;
    Vec<Id> v(n);
    std::memcpy(v.data(), d, i * sizeof(Id));
    size_t k = i;
    for (++i; i < n; ++i) {   // (each written at the end, kept by whether it is new)
        uint32_t x = (uint32_t)d[i];
        v[k] = d[i];
        k += met[x] != gen;
        met[x] = gen;
    }
    v.resize(k);
    return List<Id>(std::move(v));
}

// until's value where it is read only by size, empty, first and last (a parameter of a
// rule function, interpreter/native/kernel_walk_views.py): the walked list's first n
// elements, with no list of them made; ``own`` holds the list walked (``d`` null: read
// through it, as a short list's elements are inside its handle and move with it), but a
// ray's kept for good (kernel_walks.py, ray_prefixes), read where it is kept (``d``).
template <class T>
struct Walk {
    const T* d = nullptr;
    size_t n = 0;
    List<T> own;
    size_t size() const { return n; }
    bool empty() const { return n == 0; }
    const T* data() const { return d ? d : own.begin(); }
    const T& operator[](size_t i) const { return data()[i]; }
};
// a ray kept for good, read in place: its cells and their number plus one (0: not yet
// made); a ray of a list's handle's few cells or fewer keeps them here (``at``: the
// list's handle is not where the ray is kept), its entry never moved
struct RaySpan {
    const Id* d;
    uint32_t n1;
    Id at[List<Id>::HANDLE > 0 ? List<Id>::HANDLE : 1];
};
template <class T>
static T lfirst(const Walk<T>& l) { return l.n == 0 ? none_of<T>() : l.data()[0]; }
template <class T>
static T llast(const Walk<T>& l) { return l.n == 0 ? none_of<T>() : l.data()[l.n - 1]; }

// Takes out of the list l of cells the cells x for which out(x) holds (a kept list of
// cells that lost some, a group's empty neighbours: kernel_components.py), the others in
// their order: in place where nothing else holds its header (its hash forgotten), else in a
// list of its own; a list of at most HANDLE then in its handle, as every list of so few.
template <class F>
static void take_out(List<Id>& l, F out) {
    constexpr size_t HANDLE = List<Id>::HANDLE;
    size_t k = l.size(), m = 0;
    if (l.in_handle()) {   // (its own, in its handle: the rest written again there)
        Id r[HANDLE];
        for (size_t i = 0; i < k; ++i)
            if (!out(l.h.at[i])) r[m++] = l.h.at[i];
        l = List<Id>::of_n(r, m);
        return;
    }
    List<Id>::Rep* p = l.h.p;
    if (!p || k == 0) return;
    if (p->rc == 1) {   // (its own header: the rest moved down in place)
        for (size_t i = 0; i < k; ++i)
            if (!out(p->d[i])) p->d[m++] = p->d[i];
        if (m > HANDLE) {
            if (!p->inline_()) p->v.resize(m);
            p->n = (uint32_t)m;
            p->h = 0;
            l.h.k = (uint32_t)m;
            return;
        }
        l = List<Id>::of_n(p->d, m);   // (made before the header is let go)
        return;
    }
    Vec<Id> w;
    w.reserve(k);
    for (size_t i = 0; i < k; ++i)
        if (!out(p->d[i])) w.push_back(p->d[i]);
    l = List<Id>(std::move(w));
}

// A relation's row from a cell of the zones' index as the index's bits (a word per 64
// cells, as occ) and how many cells it lists (interpreter/native/kernel_areas.py).
template <int NW>
struct AreaRow {
    uint64_t b[NW];
    uint32_t n;
};
// The component of the cell of bit ``at`` through the rows: the cells that pass the test
// (bits of ``p ^ pf``) reached from it through cells that pass it, it included where it
// passes (else none). Its cells' bits (g), the bits of their rows' cells (near) and the
// lengths of their rows summed (deg): flooded a ring at a time, each cell's row ORed in
// once, no cell looked at twice.
template <int NW>
static inline void area_walk(const AreaRow<NW>* rows, uint32_t at, const uint64_t* p, uint64_t pf, uint64_t* g,
                             uint64_t* near, I& deg) {
    uint64_t f[NW];
    for (int w = 0; w < NW; ++w) g[w] = near[w] = f[w] = 0;
    deg = 0;
    if (!(((p[at >> 6] ^ pf) >> (at & 63)) & 1)) return;
    f[at >> 6] = g[at >> 6] = 1ULL << (at & 63);
    for (;;) {
        uint64_t nb[NW] = {};
        for (int w = 0; w < NW; ++w)
            for (uint64_t m = f[w]; m; m &= m - 1) {
                const AreaRow<NW>& r = rows[w * 64 + __builtin_ctzll(m)];
                for (int v = 0; v < NW; ++v) nb[v] |= r.b[v];
                deg += r.n;
            }
        uint64_t any = 0;
        for (int w = 0; w < NW; ++w) {
            near[w] |= nb[w];
            f[w] = nb[w] & (p[w] ^ pf) & ~g[w];
            g[w] |= f[w];
            any |= f[w];
        }
        if (!any) return;
    }
}
// The bits of the rows' cells of the cells of g (near, ORed in) and the lengths of their
// rows summed (deg, added to): the cells beside a component by another relation.
template <int NW>
static inline void area_near(const AreaRow<NW>* rows, const uint64_t* g, uint64_t* near, I& deg) {
    for (int w = 0; w < NW; ++w)
        for (uint64_t m = g[w]; m; m &= m - 1) {
            const AreaRow<NW>& r = rows[w * 64 + __builtin_ctzll(m)];
            for (int v = 0; v < NW; ++v) near[v] |= r.b[v];
            deg += r.n;
        }
}
// A count of a component kept with what its walk read (kernel_areas.py): the component's
// bits (g), the cells the walk and the count read (r: the component and its rows'
// cells) and the bits of the two tests' rows there (ps, qs). The same walk from any cell
// of g reads only cells of r, so in any state whose rows have those bits on r it finds
// the same component, count and work.
template <int NW, class E>
static inline bool area_same(const E& e, uint32_t b, const uint64_t* p, const uint64_t* q) {
    uint64_t bad = ~(e.g[b >> 6] >> (b & 63)) & 1;
    for (int w = 0; w < NW; ++w) bad |= ((p[w] & e.r[w]) ^ e.ps[w]) | ((q[w] & e.r[w]) ^ e.qs[w]);
    return !bad;
}
// The count of the component g kept at its lowest cell with the bits of the rows p and q
// on the cells read (r: g and the cells of its rows, of each relation read), and each of
// its cells pointed at it (of); a component of no cell is not kept.
template <int NW, class E>
static inline void area_keep(E* keep, uint32_t* of, const uint64_t* g, const uint64_t* read, const uint64_t* p,
                             const uint64_t* q, I v, I w) {
    int c = -1;
    for (int x = 0; x < NW && c < 0; ++x)
        if (g[x]) c = x * 64 + __builtin_ctzll(g[x]);
    if (c < 0) return;
    E& e = keep[c];
    for (int x = 0; x < NW; ++x) {
        const uint64_t r = read[x];
        e.g[x] = g[x], e.r[x] = r, e.ps[x] = p[x] & r, e.qs[x] = q[x] & r;
    }
    e.v = v, e.w = w;
    for (int x = 0; x < NW; ++x)
        for (uint64_t m = g[x]; m; m &= m - 1) of[x * 64 + __builtin_ctzll(m)] = (uint32_t)c;
}

}  // namespace mk
