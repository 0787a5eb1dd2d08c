// The C++ that every generated kernel shares (interpreter/native/kernel.py writes the rest).
//
// A kernel runs one program's rules over compact state: ints, ids, strings and
// immutable reference-counted lists. It decides only what it is sure of. Anything a
// rule could fail at (a none where a value is needed, an index outside a list, a
// division by zero, a budget that may run out, an int that leaves 64 bits) throws
// Bail, and the caller plays the move again in Python, which gives the game its
// exact result or error. So a kernel never needs to say why: the Python code does.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <new>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// MK_PREBUILT (interpreter/native/kernel_prebuilt.py): 1 where the kernel is linked with
// the object of the instantiations named by MK_INST (each then an extern template, the
// kernel calling the object's) and of the functions marked MK_SHARED; 2 in that object
// (each an explicit instantiation, each function compiled); not defined: the kernel
// instantiates and compiles what it uses, as any unit.
#if defined(MK_PREBUILT) && MK_PREBUILT == 1
#define MK_INST extern template
#define MK_SHARED_HERE 0
#define MK_SHARED __attribute__((visibility("hidden")))
#elif defined(MK_PREBUILT)
#define MK_INST template
#define MK_SHARED_HERE 1
#define MK_SHARED __attribute__((visibility("hidden")))
#else
#define MK_SHARED_HERE 1
#define MK_SHARED static  // (the kernel's own: left out where it calls none)
#endif
// MK_AI: a function (or a lambda the generated code calls at once) put in line at every
// call. Only where the build optimises (__OPTIMIZE__: -Og, -O1 and up): at -O0 (the
// tests' kernels, MEEPLE_KERNEL_CXXFLAGS) a call is a call, which compiles a fifth to a
// third faster (every call put in line made the unit's code a third bigger) and plays
// the same games.
#ifdef __OPTIMIZE__
#define MK_AI __attribute__((always_inline))
#else
#define MK_AI
#endif

namespace mk {

typedef int64_t I;       // an int (none: NONE_I)
typedef int32_t Id;      // an item, a cell or zone, a player, an enum value (none: NONE_ID)

// A text (Str), its UTF-8 bytes: up to 23 of them kept inside the object, every byte
// after them 0, so that a copy of a short text is its object's 32 bytes and two short
// texts are equal where their words are; a longer one on the heap (its bytes and a 0
// after them). std::string kept 15 inside and made, copied and compared each text
// through calls of its library: a move's name made, copied into a decision's options
// and compared there cost more than the rules that chose the move.
class Str {
public:
    static constexpr size_t IN = 23;   // (bytes kept inside)
    Str() noexcept : n_(0) { clear_words(); }
    Str(const char* s, size_t n) { init(s, n); }
    Str(const Str& o) {
        if (o.n_ <= IN) copy_words(o);
        else init(o.h_.p, o.n_);
    }
    Str(Str&& o) noexcept {
        copy_words(o);
        o.n_ = 0;
        o.clear_words();
    }
    ~Str() { release(); }
    Str& operator=(const Str& o) {
        if (o.n_ <= IN) {
            release();
            copy_words(o);
        } else if (this != &o) {
            Str t(o);
            *this = std::move(t);
        }
        return *this;
    }
    Str& operator=(Str&& o) noexcept {
        if (this != &o) {
            release();
            copy_words(o);
            o.n_ = 0;
            o.clear_words();
        }
        return *this;
    }
    // the n bytes at b, the bytes after them up to b + 24 0 already where n <= IN (a text
    // made on the stack of texts' put: kernel_texts.hpp, scatn; the last one's own 0s
    // after it reach past b + 24 where it starts): a short text's words read at once
    static Str of_buffer(const char* b, size_t n) {
        if (n > IN) return Str(b, n);
        Str t;
        __builtin_memcpy(t.w_, b, 24);
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
        t.clear_words();
        std::memcpy(t.in_, b, n);
#endif
        t.n_ = n;
        return t;
    }
    // its bytes written at d, where 24 bytes may be written (a short text's 24 at once)
    size_t put(char* d) const {
        if (n_ <= IN) __builtin_memcpy(d, w_, 24);
        else std::memcpy(d, h_.p, n_);
        return n_;
    }
    size_t size() const noexcept { return n_; }
    size_t length() const noexcept { return n_; }
    bool empty() const noexcept { return n_ == 0; }
    bool inside() const noexcept { return n_ <= IN; }
    const char* data() const noexcept { return n_ <= IN ? in_ : h_.p; }
    const char* c_str() const noexcept { return data(); }
    const char* begin() const noexcept { return data(); }
    const char* end() const noexcept { return data() + n_; }
    char operator[](size_t i) const noexcept { return data()[i]; }
    // its first 8 bytes as a number, the first the highest (0 after its end)
    uint64_t key() const noexcept {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        if (n_ <= IN) return __builtin_bswap64(w_[0]);
#endif
        uint64_t k = 0;
        const char* q = data();
        for (size_t i = 0; i < 8 && i < n_; ++i) k |= (uint64_t)(unsigned char)q[i] << (56 - 8 * i);
        return k;
    }
    int compare(const Str& o) const noexcept {
        size_t m = n_ < o.n_ ? n_ : o.n_;
        int c = m ? std::memcmp(data(), o.data(), m) : 0;
        if (c) return c;
        return n_ < o.n_ ? -1 : n_ > o.n_;
    }
    bool operator==(const Str& o) const noexcept {
        if (n_ != o.n_) return false;
        if (n_ <= IN) return ((w_[0] ^ o.w_[0]) | (w_[1] ^ o.w_[1]) | (w_[2] ^ o.w_[2])) == 0;
        return std::memcmp(h_.p, o.h_.p, n_) == 0;
    }
    bool operator!=(const Str& o) const noexcept { return !(*this == o); }
    bool operator<(const Str& o) const noexcept { return compare(o) < 0; }
    bool operator<=(const Str& o) const noexcept { return compare(o) <= 0; }
    bool operator>(const Str& o) const noexcept { return compare(o) > 0; }
    bool operator>=(const Str& o) const noexcept { return compare(o) >= 0; }
    void reserve(size_t) {}
    Str& append(const Str& x) {
        size_t n = n_ + x.n_;
        if (n <= IN) {
            std::memcpy(in_ + n_, x.in_, x.n_);
            n_ = n;
            return *this;
        }
        char* p = (char*)std::malloc(n + 1);
        if (!p) throw std::bad_alloc();
        std::memcpy(p, data(), n_);
        std::memcpy(p + n_, x.data(), x.n_);
        p[n] = 0;
        release();
        h_.p = p;
        n_ = n;
        return *this;
    }

private:
    union {
        uint64_t w_[3];
        char in_[24];
        struct { char* p; } h_;
    };
    size_t n_;
    void clear_words() noexcept { w_[0] = w_[1] = w_[2] = 0; }
    void copy_words(const Str& o) noexcept {
        w_[0] = o.w_[0];
        w_[1] = o.w_[1];
        w_[2] = o.w_[2];
        n_ = o.n_;
    }
    void release() noexcept {
        if (n_ > IN) std::free(h_.p);
    }
    void init(const char* s, size_t n) {
        n_ = n;
        clear_words();
        if (n <= IN) {
            if (n) std::memcpy(in_, s, n);
            return;
        }
        char* p = (char*)std::malloc(n + 1);
        if (!p) throw std::bad_alloc();
        std::memcpy(p, s, n);
        p[n] = 0;
        h_.p = p;
    }
};

constexpr I NONE_I = INT64_MIN;
constexpr Id NONE_ID = -1;
// a text's none: one byte no UTF-8 text has, so no text of a rule is equal to it
static const Str NONE_S("\xff", 1);
static inline bool is_none_s(const Str& s) { return s.size() == 1 && (unsigned char)s[0] == 0xff; }

struct Bail {};

static int last_bail = 0;  // the line of the generated source that bailed last (diagnostics)
[[noreturn]] __attribute__((noinline, cold)) static void bail_at(int line) {
    last_bail = line;
    throw Bail();
}
#define bail() ::mk::bail_at(__LINE__)

// ------------------------------------------------------------------ narrow fields
// The narrowest signed integer type that holds every value of LO..HI: a state keeps
// each field in it (a copy of the state is then a copy of fewer bytes).
template <long long LO, long long HI>
using Fit = typename std::conditional<
    (LO >= INT8_MIN && HI <= INT8_MAX), int8_t,
    typename std::conditional<(LO >= INT16_MIN && HI <= INT16_MAX), int16_t,
                              typename std::conditional<(LO >= INT32_MIN && HI <= INT32_MAX), int32_t,
                                                        int64_t>::type>::type>::type;

// A field kept narrow (interpreter/native/kernel_layout.py): it reads as the value it
// holds; a value beyond the range it was made for is never stored (bail: the move is
// played in Python, which gives its exact result), so narrowing never changes a game.
template <int N>  // an id below N, or none (-1)
struct NId {
    Fit<-1, N> v;
    operator Id() const { return v; }
    NId& operator=(Id x) {
        if (x < -1 || x >= N) bail();
        v = (Fit<-1, N>)x;
        return *this;
    }
};
template <long long LO, long long HI>  // an int of LO..HI, or none (the type's least: below LO)
struct NInt {
    typedef Fit<LO - 1, HI> T;
    static constexpr T NONE = std::numeric_limits<T>::min();
    T v;
    operator I() const { return v == NONE ? NONE_I : (I)v; }
    NInt& operator=(I x) {
        if (x == NONE_I) {
            v = NONE;
            return *this;
        }
        if (x < LO || x > HI) bail();
        v = (T)x;
        return *this;
    }
    NInt& operator++() { return *this = (I) * this + 1; }
};

// A field that has one value V in every state of a program (the facing of its items
// where none can be turned, the zones revealed where none can be): kept in no byte;
// another value is never stored (bail), so it never changes a game.
template <long long V>
struct Fixed {
    struct R {
        const R& operator=(I x) const {
            if (x != V) bail();
            return *this;
        }
        operator I() const { return V; }
    };
    R operator[](long) const { return R(); }
};

// A number that is V in every state of a program (the chance cursor of a program with no
// random statement): kept in no byte (a member ``[[no_unique_address]]``); another value
// is never stored (bail), so it never changes a game.
template <long long V>
struct Always {
    operator I() const { return V; }
    Always& operator=(I x) {
        if (x != V) bail();
        return *this;
    }
    Always& operator+=(I x) { return *this = V + x; }
    I operator++(int) {
        *this = V + 1;
        return V;
    }
};

// The stack of a state's frames, one after the other: the first in the state itself (a
// state at rest mostly has one frame: its copy is one allocation, not two), a buffer of
// its own once there are more (kept by a state made again from another, ``=``).
template <class F>
struct Frames {
    alignas(F) unsigned char in_[sizeof(F)];
    F* heap_ = nullptr;  // (nullptr: the frames are in in_)
    uint32_t n_ = 0, cap_ = 1;

    Frames() {}
    Frames(const Frames& o) { copy_from(o); }
    Frames(Frames&& o) noexcept {
        if (o.heap_) {
            heap_ = o.heap_, n_ = o.n_, cap_ = o.cap_;
            o.heap_ = nullptr, o.n_ = 0, o.cap_ = 1;
            return;
        }
        for (uint32_t k = 0; k < o.n_; ++k) new (data() + k) F(std::move(o.data()[k]));
        n_ = o.n_;
        o.clear();
    }
    Frames& operator=(const Frames& o) {
        if (this != &o) {
            clear();
            copy_from(o);
        }
        return *this;
    }
    Frames& operator=(Frames&& o) = delete;
    ~Frames() {
        clear();
        ::operator delete(heap_);
    }
    F* data() { return heap_ ? heap_ : reinterpret_cast<F*>(in_); }
    const F* data() const { return heap_ ? heap_ : reinterpret_cast<const F*>(in_); }
    size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    F& back() { return data()[n_ - 1]; }
    F& operator[](size_t k) { return data()[k]; }
    const F& operator[](size_t k) const { return data()[k]; }
    template <class... A>
    void emplace_back(A&&... a) {
        if (n_ == cap_) grow(cap_ * 2);
        new (data() + n_) F(std::forward<A>(a)...);
        ++n_;
    }
    void pop_back() { data()[--n_].~F(); }
    void clear() {
        F* d = data();
        for (uint32_t k = 0; k < n_; ++k) d[k].~F();
        n_ = 0;
    }

  private:
    void copy_from(const Frames& o) {   // (this one empty)
        if (o.n_ > cap_) grow(o.n_);
        const F* from = o.data();
        F* to = data();
        for (uint32_t k = 0; k < o.n_; ++k) new (to + k) F(from[k]);
        n_ = o.n_;
    }
    void grow(uint32_t cap) {
        F* h = static_cast<F*>(::operator new(sizeof(F) * cap));
        F* d = data();
        for (uint32_t k = 0; k < n_; ++k) {
            new (h + k) F(std::move(d[k]));
            d[k].~F();
        }
        ::operator delete(heap_);
        heap_ = h, cap_ = cap;
    }
};

// A program with no random statement (no draw) keeps no chance step's outcomes nor its
// step (explicit chance mode has none to set): in no byte, empty; setting one bails.
struct NoTaken {
    size_t size() const { return 0; }
    int operator[](size_t) const { bail(); }
    void push_back(int) { bail(); }
    void clear() {}
};
struct NoStep {
    static constexpr PyObject* p = nullptr;
    void reset(PyObject* q) {  // (takes q's reference)
        if (q) {
            Py_DECREF(q);
            bail();
        }
    }
};
// the outcomes set, as a list (an empty one where the program keeps none)
static inline const std::vector<int>* taken_list(const std::vector<int>& t) { return &t; }
static inline const std::vector<int>* taken_list(const NoTaken&) {
    static const std::vector<int> none;
    return &none;
}

// ------------------------------------------------------------------ lists
// The buffers of lists come from free lists, one per size (a power of two bytes): the
// rules make and drop lists at every turn of their loops, and malloc and free were a
// quarter of a kernel's time. The GIL keeps one thread in a kernel at a time, and the
// free lists are this kernel's own (hidden: no other module shares them; the object of
// instantiations linked into it, interpreter/native/kernel_prebuilt.py, does).
namespace pool __attribute__((visibility("hidden"))) {
constexpr int CLASSES = 17;  // 16 bytes .. 1 MiB; larger buffers are the allocator's
inline void* free_[CLASSES];
inline int cls(size_t bytes) {
    if (bytes <= 16) return 0;
    int c = 64 - __builtin_clzll((unsigned long long)(bytes - 1)) - 4;  // 2**(c+4) >= bytes
    return c < CLASSES ? c : -1;
}
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MK_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(MK_ASAN)
// (built with AddressSanitizer: every buffer its own, so a use after free is seen)
inline void* take(size_t bytes) { return ::operator new(bytes); }
inline void give(void* p, size_t) { ::operator delete(p); }
#else
inline void* take(size_t bytes) {
    int c = cls(bytes);
    if (c < 0) return ::operator new(bytes);
    if (void* p = free_[c]) {
        free_[c] = *(void**)p;
        return p;
    }
    return ::operator new((size_t)16 << c);
}
inline void give(void* p, size_t bytes) {
    int c = cls(bytes);
    if (c < 0) return ::operator delete(p);
    *(void**)p = free_[c];
    free_[c] = p;
}
#endif
}  // namespace pool

template <class T>
struct Alloc {
    typedef T value_type;
    Alloc() noexcept {}
    template <class U>
    Alloc(const Alloc<U>&) noexcept {}
    T* allocate(size_t n) { return static_cast<T*>(pool::take(n * sizeof(T))); }
    void deallocate(T* p, size_t n) noexcept { pool::give(p, n * sizeof(T)); }
    template <class U>
    bool operator==(const Alloc<U>&) const noexcept { return true; }
    template <class U>
    bool operator!=(const Alloc<U>&) const noexcept { return false; }
};
// the vector a list is built in (std::vector works too: its elements are then copied)
template <class T>
using Vec = std::vector<T, Alloc<T>>;

// Lists are values (a rule never changes one in place), so copies share one vector.
// an element's share of its list's hash (List::hash): even, so that the sum with the
// odd part of the size is never 0
static inline uint32_t hash_share(uint32_t i, uint64_t x) {
    return (uint32_t)(((x * 0x9E3779B97F4A7C15ULL + i) * 0xBF58476D1CE4E5B9ULL) >> 32) & ~1u;
}
// The places of a list's elements by their hashes (List::Rep's index: contains), open
// addressing, at most half full: ``hs`` each element's hash in order, ``at`` the places.
struct HashIndex {
    std::vector<uint32_t> hs;
    std::vector<int32_t> at = std::vector<int32_t>(16, -1);
    uint32_t mask = 15, bits = 4;
    uint32_t slot(uint32_t h) const { return (uint32_t)(h * 2654435769u) >> (32 - bits); }
    void place(int32_t i) {
        uint32_t k = slot(hs[(size_t)i]);
        while (at[k] >= 0) k = (k + 1) & mask;
        at[k] = i;
    }
    void add(uint32_t h) {
        hs.push_back(h);
        if (2 * hs.size() > at.size()) {
            ++bits;
            mask = (1u << bits) - 1;
            at.assign((size_t)mask + 1, -1);
            for (size_t i = 0; i < hs.size(); ++i) place((int32_t)i);
        } else {
            place((int32_t)(hs.size() - 1));
        }
    }
};
// The header of a list (List::Rep): its count of holders, its hash, its elements
// (bools kept as bytes: std::vector<bool> has no data()).
template <class S>
struct ListRep {
    // A list of at most INLINE numbers, ids or bools past its handle's (three cells, two
    // ints) keeps them in its header (``inl``), with no buffer of its own: one
    // allocation, from the free list of 64 bytes, where a vector's buffer made two.
    static constexpr size_t INLINE_BYTES = 16;
    static constexpr uint32_t INLINE = std::is_arithmetic<S>::value ? INLINE_BYTES / sizeof(S) : 0;
    int32_t rc = 1;
    uint32_t h = 0;  // (its elements' hash once asked for, else 0: see hash)
    uint32_t n = 0;  // (its size)
    S* d = nullptr;  // (its elements: v's buffer, or inl)
    Vec<S> v;        // (empty where its elements are inline)
    alignas(8) unsigned char inl[INLINE_BYTES];
    bool inline_() const { return (const void*)d == (const void*)inl; }
    // (a list of what cannot be inline, lists of lists among them, keeps in inl an
    // index of its first elements by their hashes once ``contains`` asked for one,
    // null before: its elements are never changed, append only adds more)
    ListRep() {
        if constexpr (INLINE == 0) std::memset(inl, 0, sizeof inl);
    }
    explicit ListRep(int32_t count) : ListRep() { rc = count; }   // (NONE_REP's)
    ~ListRep() {
        if constexpr (INLINE == 0) delete index();
    }
    ListRep(const ListRep&) = delete;
    HashIndex*& index() { return *reinterpret_cast<HashIndex**>(inl); }
    // (lists are made and dropped at every turn of a rule's loops: their headers
    // come from a free list; the GIL keeps one thread in a kernel at a time)
    static void* operator new(size_t size) { return pool::take(size); }
    static void operator delete(void* p, size_t size) { pool::give(p, size); }
};
// A list's handle: its header (p), or for a list of at most 8 bytes of numbers, ids or
// bools (a move of two cells, a step of one number) its elements themselves (``at``, in
// p's bytes), with no header: made, copied and dropped as 12 or 16 bytes, where a header
// from the free list was made, counted and given back (the options of a decision, made
// at every decision). k: its size, whichever holds them (so a size is read with no
// branch; more than HANDLE: p is the header; 0: empty, or none where p is NONE_REP). Ids
// and bools: 12 bytes aligned to 4 (a state's list of cells takes 4 bytes more, not 8);
// 8-byte numbers: 16 (one of them); lists of texts and of lists: p alone.
template <class S, int W = std::is_arithmetic<S>::value ? (sizeof(S) <= 4 ? 4 : 8) : 0>
struct ListHandle {
    static constexpr uint32_t HANDLE = 0;
    static constexpr uint32_t k = 0;
    ListRep<S>* p = nullptr;
};
#define MK_LIST_HANDLE(W)                                                                        \
    template <class S>                                                                           \
    struct ListHandle<S, W> {                                                                    \
        static constexpr uint32_t HANDLE = 8 / sizeof(S);                                        \
        union {                                                                                  \
            ListRep<S>* p = nullptr;                                                             \
            S at[HANDLE];                                                                        \
            uint64_t all;   /* (the bytes after the elements 0: equal lists, equal words) */    \
        };                                                                                       \
        uint32_t k = 0;                                                                          \
    };
#pragma pack(push, 4)
MK_LIST_HANDLE(4)
#pragma pack(pop)
MK_LIST_HANDLE(8)
#undef MK_LIST_HANDLE
template <class T>
struct List {
    typedef typename std::conditional<std::is_same<T, bool>::value, uint8_t, T>::type S;
    typedef ListRep<S> Rep;
    static constexpr uint32_t HANDLE = ListHandle<S>::HANDLE;
    static constexpr uint32_t INLINE = Rep::INLINE;
    ListHandle<S> h;
    // none as a list (the move without an object of ``choose xs from ... or "pass"``):
    // a header of no element that no other list has, shared (its count never reaches 0)
    static inline Rep NONE_REP{1 << 30};

    List() {}
    static List none() {
        List l;
        l.h.p = &NONE_REP;
        if constexpr (HANDLE == 0) ++NONE_REP.rc;   // (else none is counted by no holder)
        return l;
    }
    bool is_none() const { return !h.k && h.p == &NONE_REP; }
    // its elements are in its handle
    bool in_handle() const { return h.k - 1 < HANDLE; }
    // it has a header that counts its holders
    bool has_rep() const {
        if constexpr (HANDLE > 0) return h.k > HANDLE;
        return h.p != nullptr;
    }
    // its header (none's too), or nullptr
    Rep* rep() const { return h.k - 1 < HANDLE ? nullptr : h.p; }
    // no element and not none
    bool bare() const { return !h.k && !h.p; }
    template <class A>
    MK_AI explicit List(std::vector<T, A>&& v) {
        size_t k = v.size();
        if (k == 0) return;
        if constexpr (HANDLE > 0) {
            if (k <= HANDLE) {
                for (size_t i = 0; i < k; ++i) h.at[i] = (S)v[i];
                h.k = (uint32_t)k;
                return;
            }
        }
        h.p = make(std::move(v));
        if constexpr (HANDLE > 0) h.k = (uint32_t)k;
    }
    // a list of these elements (a list written in the rules, [a, b]): inline where they fit
    static List of(std::initializer_list<T> xs) { return of_n(xs.begin(), xs.size()); }
    // a list of the k elements at xs: in its handle or header where they fit
    static List of_n(const T* xs, size_t k) {
        List l;
        if (k == 0) return l;
        if constexpr (HANDLE > 0) {
            if (k <= HANDLE) {
                for (size_t i = 0; i < k; ++i) l.h.at[i] = (S)xs[i];
                l.h.k = (uint32_t)k;
                return l;
            }
        }
        if (k > UINT32_MAX) bail();
        Rep* r = l.h.p = new Rep;
        if (k <= INLINE) {
            r->d = reinterpret_cast<S*>(r->inl);
            for (size_t i = 0; i < k; ++i) r->d[i] = (S)xs[i];
        } else {
            r->v.assign(xs, xs + k);
            r->d = r->v.data();
        }
        r->n = (uint32_t)k;
        if constexpr (HANDLE > 0) l.h.k = (uint32_t)k;
        return l;
    }
    List(const List& o) : h(o.h) {
        if (has_rep()) ++h.p->rc;
    }
    List(List&& o) noexcept : h(o.h) { o.clear(); }
    ~List() { drop(); }
    List& operator=(const List& o) {
        ListHandle<S> x = o.h;
        if (o.has_rep()) ++x.p->rc;
        drop();
        h = x;
        return *this;
    }
    List& operator=(List&& o) noexcept {
        if (this != &o) {
            drop();
            h = o.h;
            o.clear();
        }
        return *this;
    }
    // (inlined where a list goes out of scope: the buffer's release, the rare part, is a
    // call of its own)
    MK_AI void drop() {
        if (has_rep() && --h.p->rc == 0) release(h.p);
        clear();
    }
    __attribute__((noinline)) static void release(Rep* r) { delete r; }
    // the same list: the same header (or both empty), or the same elements in the
    // handle (a memo's arguments); with no branch: p is all's bytes, after the elements 0
    bool same(const List& o) const {
        if constexpr (HANDLE > 0) return (h.k == o.h.k) & (h.all == o.h.all);
        return h.p == o.h.p;
    }
    // one list made once, shared: the same header, or both empty (none in a handle)
    bool shares(const List& o) const { return h.p == o.h.p && h.k == o.h.k && !in_handle(); }
    // a number that same lists have (a memo's key)
    uint64_t ident() const {
        if constexpr (HANDLE > 0)
            if (h.k <= HANDLE) return (h.all * 0x9E3779B97F4A7C15ULL) ^ h.k;
        return (uint64_t)(uintptr_t)h.p;
    }
    // appends b in place (cat's value) where nothing else holds this list's buffer: false
    // where another does (then nothing is done)
    bool append(const List& b) {
        if (b.bare()) return true;
        if (bare()) {
            *this = b;
            return true;
        }
        size_t k = size(), bn = b.size(), n = k + bn;
        const S* bs = reinterpret_cast<const S*>(b.begin());
        if constexpr (HANDLE > 0) {
            if (in_handle()) {   // (its own: b's elements after them, here or in a header)
                if (n <= HANDLE) {
                    for (size_t i = 0; i < bn; ++i) h.at[k + i] = bs[i];   // (b may be this)
                    h.k = (uint32_t)n;
                    return true;
                }
                if (n > UINT32_MAX) bail();
                Rep* r = new Rep;
                if (n <= INLINE) {
                    r->d = reinterpret_cast<S*>(r->inl);
                } else {
                    r->v.resize(n);
                    r->d = r->v.data();
                }
                for (size_t i = 0; i < k; ++i) r->d[i] = h.at[i];
                for (size_t i = 0; i < bn; ++i) r->d[k + i] = bs[i];
                r->n = (uint32_t)n;
                h.p = r;
                h.k = (uint32_t)n;
                return true;
            }
        }
        Rep* p = h.p;
        if (p->rc != 1) return false;
        if (n > UINT32_MAX) bail();
        if (p->inline_() && n <= INLINE) {   // (still inline: b's elements after them)
            std::memcpy(p->d + p->n, bs, bn * sizeof(S));
        } else {
            if (p->inline_()) {   // (grown past its header: into a buffer of its own)
                p->v.reserve(n);
                p->v.assign(p->d, p->d + p->n);
            }
            if (bn == 1) p->v.push_back(bs[0]); else p->v.insert(p->v.end(), bs, bs + bn);   // (one: no range)
            p->d = p->v.data();
        }
        p->n = (uint32_t)n;
        p->h = 0;
        if constexpr (HANDLE > 0) h.k = (uint32_t)n;
        return true;
    }
    // its first n elements (n <= its size; until's value): this list itself where n is
    // its size, else a list of their own (in its handle or header where they fit)
    List prefix(size_t n) const {
        if (n == size()) return *this;
        return of_n(begin(), n);
    }
    size_t size() const {
        if constexpr (HANDLE > 0) return h.k;
        return h.p ? h.p->n : 0;
    }
    bool empty() const {
        if constexpr (HANDLE > 0) return h.k == 0;
        return !h.p || h.p->n == 0;
    }
    const T& operator[](size_t i) const { return begin()[i]; }
    const T* begin() const {
        if constexpr (HANDLE > 0)
            return h.k <= HANDLE ? reinterpret_cast<const T*>(h.at) : reinterpret_cast<const T*>(h.p->d);
        return h.p ? reinterpret_cast<const T*>(h.p->d) : nullptr;
    }
    const T* end() const { return begin() + size(); }
    // a hash of a list of numbers, ids or bools (odd, never 0), made once for its buffer
    // (explicitly instantiated for every list: kernel_prebuilt.py), each time for a list
    // in its handle (a few elements):
    // equal lists have the same (a list is changed in place by append alone, which
    // forgets it). It is a sum of each element's share at its place (hash_share), so
    // that a list made from another with a few elements changed has its hash from the
    // other's (kernel_elementwise.py: set_hash)
    uint32_t hash() const {
        if constexpr (HANDLE > 0) {
            if (h.k <= HANDLE) {   // (empty and none: 1)
                uint32_t x = (h.k * 0x85EBCA6Bu) | 1u;
                for (uint32_t i = 0; i < h.k; ++i) x += hash_share(i, (uint64_t)(int64_t)h.at[i]);
                return x;
            }
        }
        Rep* p = h.p;
        if (!p) return 1;
        if (p->h) return p->h;
        uint32_t x = ((uint32_t)p->n * 0x85EBCA6Bu) | 1u;
        if constexpr (std::is_arithmetic<S>::value)   // (other lists: by their size alone)
            for (uint32_t i = 0; i < p->n; ++i) x += hash_share(i, (uint64_t)(int64_t)p->d[i]);
        return p->h = x;
    }
    // the hash made already, else 0 (a list in its handle keeps none); a hash given to a
    // list just made (the one hash() would make)
    uint32_t known_hash() const { return has_rep() ? h.p->h : 0; }
    void set_hash(uint32_t x) const {
        if (has_rep()) h.p->h = x;
    }

  private:
    void clear() {
        h.p = nullptr;
        if constexpr (HANDLE > 0) h.k = 0;
    }
    template <class A>
    static Rep* make(std::vector<T, A>&& v) {
        if (v.size() > UINT32_MAX) bail();
        Rep* r = new Rep;
        if constexpr (std::is_same<std::vector<T, A>, Vec<S>>::value) {
            r->v = std::move(v);  // (the buffer, as it is)
        } else {  // (bools, or another allocator's vector: the elements moved across)
            r->v.reserve(v.size());
            for (auto&& x : v) r->v.push_back((S)std::move(x));
        }
        r->d = r->v.data();
        r->n = (uint32_t)r->v.size();
        return r;
    }
};

// The elements of ``[x for x in xs if cond]`` (numbers or ids: kernel.py, Gen._Comprehension),
// each written at a counter that adds the condition's truth: sized to xs first, cut to the
// counter after the loop. Up to 256 bytes, on the stack and unset until written (a vector
// sized so sets every element to 0 first, and takes a buffer of its own), the list made
// of the elements kept (inline in its header where they fit); longer, in a vector.
template <class T>
struct Grow {
    static constexpr size_t SMALL = 256 / sizeof(T);
    T small[SMALL];
    Vec<T> big;
    T* d = small;
    size_t n = 0;
    size_t extra = 0;   // (room kept after them for a join's elements written out: put)
    Grow() {}
    Grow(const Grow&) = delete;
    // k elements, the first of them kept, with room for extra more after them: a
    // position's 64 cells then its 6 numbers (kernel_joins.py), where the list of the
    // 64 grew into a buffer twice its size, all of them copied, to take the 6
    void resize(size_t k) {
        size_t room = k + extra;
        if (d == small && room > SMALL) {
            big.resize(room);
            std::copy(small, small + (n < k ? n : k), big.data());
            d = big.data();
        } else if (d != small) {
            big.resize(room);
            d = big.data();
        }
        n = k;
    }
    // x after them, in the room kept (extra, less one)
    void put(const T& x) {
        d[n++] = x;
        --extra;
    }
    T& operator[](size_t i) { return d[i]; }
    List<T> list() {
        if (d == small) return List<T>::of_n(small, n);
        big.resize(n);
        return List<T>(std::move(big));
    }
};

// The elements of any other comprehension of numbers or ids (kernel.py, Gen._Comprehension:
// [t for dc in ds for t in [...] if cond], a range's, a zone's items), pushed one by one:
// the first 128 bytes of them on the stack, the rest in a vector, the list made of them
// (inline in its header where they fit), where a vector took a buffer of its own at
// every call (``targets(c, s)`` of each piece: 3 cells or fewer).
template <class T>
struct Build {
    static constexpr size_t SMALL = 128 / sizeof(T);
    T small[SMALL];
    Vec<T> big;   // (all the elements, once more than SMALL)
    size_t n = 0;
    size_t hint = 0;   // (how many elements are expected, room for them made at once)
    Build() {}
    Build(const Build&) = delete;
    // k more elements expected (a loop's list, a part of a join: kernel_joins.py): no
    // buffer taken while they fit on the stack; past it, room for all of them at once,
    // where the vector grew twice over from SMALL (a position's 64 cells and 6 more)
    void reserve(size_t k) {
        if (n > SMALL) big.reserve(big.size() + k);
        else hint += k;
    }
    void push_back(const T& x) {
        if (n < SMALL) {
            small[n++] = x;
            return;
        }
        if (n == SMALL) {
            big.reserve(hint > 2 * SMALL ? hint : 2 * SMALL);
            big.assign(small, small + SMALL);
            n = SMALL + 1;
        }
        big.push_back(x);
    }
    // x kept where c holds, with no branch on c while the elements fit on the stack
    // (written past the last, then counted or not: a filter's random truths)
    void push_if(const T& x, bool c) {
        if (n < SMALL) {
            small[n] = x;
            n += c;
            return;
        }
        if (c) push_back(x);
    }
    List<T> list() {
        if (n <= SMALL) return List<T>::of_n(small, n);
        return List<T>(std::move(big));
    }
    // the elements pushed, walked where they are (a loop over a function's list made in
    // its place: kernel_memo.py, fused_loop)
    size_t size() const { return n <= SMALL ? n : big.size(); }
    const T* data() const { return n <= SMALL ? small : big.data(); }
};

// ------------------------------------------------------------------ the order of items
// The key of an item for a seat (kernel_state.hpp, item_key, writes it): one it sees (or
// none) by its id, one it may not know after those, by its zone and its place there.
struct IKey {
    int a;
    Id b;
    int c;
};
static inline int kcmp(const IKey& x, const IKey& y) {
    if (x.a != y.a) return x.a < y.a ? -1 : 1;
    if (x.b != y.b) return x.b < y.b ? -1 : 1;
    return x.c < y.c ? -1 : x.c > y.c;
}
typedef std::pair<IKey, Id> KeyedItem;
typedef std::pair<std::vector<IKey>, List<Id>> KeyedList;
// items by their keys (a stable sort), the same item once where it comes twice in a row
MK_SHARED List<Id> by_keys(std::vector<KeyedItem>& kv);
// the items of o (and their keys, in the same order) sorted by their keys
MK_SHARED void sort_by_keys(std::vector<IKey>& keys, List<Id>& o);
// lists of items by their keys: by size, then key by key (stable), equal lists in a row once
MK_SHARED List<List<Id>> by_keys(std::vector<KeyedList>& kv);

}  // namespace mk

// The instantiations every kernel makes, compiled once (see MK_PREBUILT): vectors of
// ints, the lists of the runtime and their vectors (member templates named too, where
// the runtime calls them).
#ifdef MK_PREBUILT
#define MK_VEC(T, A)                                                          \
    MK_INST class std::vector<T, A>;                                          \
    MK_INST T& std::vector<T, A>::emplace_back<T>(T &&);                      \
    MK_INST std::vector<T, A>::vector(const T*, const T*, const A&);          \
    MK_INST std::vector<T, A>::iterator std::vector<T, A>::insert<const T*, void>( \
        std::vector<T, A>::const_iterator, const T*, const T*);
#define MK_LIST(T)              \
    MK_INST struct mk::List<T>; \
    MK_VEC(mk::List<T>::S, mk::Alloc<mk::List<T>::S>)
MK_VEC(int32_t, std::allocator<int32_t>)
MK_VEC(int64_t, std::allocator<int64_t>)
MK_VEC(uint32_t, std::allocator<uint32_t>)
MK_VEC(uint64_t, std::allocator<uint64_t>)
MK_LIST(mk::Id)
MK_LIST(mk::I)
MK_LIST(bool)
MK_LIST(mk::Str)
MK_LIST(mk::List<mk::Id>)
MK_LIST(mk::List<mk::I>)
MK_VEC(mk::IKey, std::allocator<mk::IKey>)
MK_VEC(mk::KeyedItem, std::allocator<mk::KeyedItem>)
MK_VEC(mk::KeyedList, std::allocator<mk::KeyedList>)
#undef MK_LIST
#undef MK_VEC
#endif

namespace mk {

// ------------------------------------------------------------------ equality, order
// The order of options (helpers.sort_key for one type): none first, numbers and ids
// by value, false before true, strings by code point (UTF-8 bytes sort so), lists by
// size and then element by element.
static inline bool eq(I a, I b) { return a == b; }
static inline bool eq(Id a, Id b) { return a == b; }
static inline bool eq(bool a, bool b) { return a == b; }
static inline bool eq(const Str& a, const Str& b) { return a == b; }
// lists of numbers, ids or bools (compared by their bytes)
template <class T>
struct is_plain_list : std::false_type {};
template <class T>
struct is_plain_list<List<T>>
    : std::integral_constant<bool, std::is_same<T, I>::value || std::is_same<T, Id>::value || std::is_same<T, bool>::value> {};
template <class T>
static bool eq(const List<T>& a, const List<T>& b) {
    if (a.same(b)) return true;
    size_t n = a.size();
    if (n != b.size()) return false;
    if (n == 0) return a.is_none() == b.is_none();   // (none is no empty list)
    if constexpr (is_plain_list<List<T>>::value) {
        // (numbers, ids and bools are equal where their bytes are: one memcmp, unless
        // their hashes, where both were made, differ)
        uint32_t ha = a.known_hash(), hb = b.known_hash();
        if (ha && hb && ha != hb) return false;
        return std::memcmp(a.begin(), b.begin(), n * sizeof(typename List<T>::S)) == 0;
    }
    for (size_t i = 0; i < n; ++i)
        if (!eq(a[i], b[i])) return false;
    return true;
}

static inline int cmp(I a, I b) { return a < b ? -1 : a > b; }
static inline int cmp(Id a, Id b) { return a < b ? -1 : a > b; }
static inline int cmp(bool a, bool b) { return (int)a - (int)b; }
static inline int cmp(const Str& a, const Str& b) {
    bool na = is_none_s(a), nb = is_none_s(b);
    if (na || nb) return na == nb ? 0 : na ? -1 : 1;  // none first
    int c = a.compare(b);
    return c < 0 ? -1 : c > 0;
}
// (written where it is used: the options of a decision that are lists, a move of two
// cells, are checked in order at every decision, a call each was a tenth of the time)
template <class T>
MK_AI static inline int cmp(const List<T>& a, const List<T>& b) {
    size_t n = a.size(), m = b.size();
    if (n != m) return n < m ? -1 : 1;
    if (n == 0) return (int)b.is_none() - (int)a.is_none();   // (none first)
    const T *x = a.begin(), *y = b.begin();
    for (size_t i = 0; i < n; ++i) {
        int c = cmp(x[i], y[i]);
        if (c) return c;
    }
    return 0;
}

// a tuple of the rules (``(c, "turn", q)``: docs/language.md 6.6), its parts of the
// kernel's own types (no list, no tuple: the checker says so): equal and ordered part by
// part, as Python orders them (helpers.sort_key: none first, an enum by its index)
template <class... P>
struct Tup : std::tuple<P...> {
    using std::tuple<P...>::tuple;
    bool nil = false;   // none as a tuple (the move without an object beside tuples)
    Tup() {}
    static Tup none() {
        Tup t;
        t.nil = true;
        return t;
    }
    bool is_none() const { return nil; }
};
template <class... P, size_t... K>
static bool tup_eq(const Tup<P...>& a, const Tup<P...>& b, std::index_sequence<K...>) {
    return (eq(std::get<K>(a), std::get<K>(b)) && ...);
}
template <class... P>
static bool eq(const Tup<P...>& a, const Tup<P...>& b) {
    if (a.nil || b.nil) return a.nil == b.nil;
    return tup_eq(a, b, std::index_sequence_for<P...>{});
}
template <class... P, size_t... K>
static int tup_cmp(const Tup<P...>& a, const Tup<P...>& b, std::index_sequence<K...>) {
    int c = 0;
    ((c = c ? c : cmp(std::get<K>(a), std::get<K>(b))), ...);
    return c;
}
template <class... P>
static int cmp(const Tup<P...>& a, const Tup<P...>& b) {
    if (a.nil || b.nil) return (int)b.nil - (int)a.nil;   // (none first)
    return tup_cmp(a, b, std::index_sequence_for<P...>{});
}

template <class T>
struct Less {
    bool operator()(const T& a, const T& b) const { return cmp(a, b) < 0; }
};

// sorted, equal ones once (Runtime._ordered: the options of a decision). Two options
// the order calls equal are the same value, and one of them is kept: an unstable sort
// serves (and takes no buffer, as std::stable_sort does at every call). Options in
// their order already, each once (the cells of a board, filtered), are taken as they are.
// (bools: false if any, then true if any, as the sort below would give them: a sort of
// a vector of bits was a fifth of the machine code of a kernel that ordered bools)
template <class It>
static List<bool> ordered_bools(It first, It last) {
    bool no = false, yes = false;
    for (It x = first; x != last; ++x) (*x ? yes : no) = true;
    Vec<bool> out;
    if (no) out.push_back(false);
    if (yes) out.push_back(true);
    return List<bool>(std::move(out));
}
template <class T, class A>
static List<T> ordered(std::vector<T, A>&& v) {
    if constexpr (std::is_same<T, bool>::value) {
        return ordered_bools(v.begin(), v.end());
    } else {
        size_t up = 1;
        while (up < v.size() && cmp(v[up - 1], v[up]) < 0) ++up;
        if (up >= v.size()) return List<T>(std::move(v));
        std::sort(v.begin(), v.end(), Less<T>());
        size_t k = 0;
        for (size_t i = 0; i < v.size(); ++i)
            if (k == 0 || !eq(v[k - 1], v[i])) {
                if (k != i) v[k] = std::move(v[i]);
                ++k;
            }
        v.resize(k);
        return List<T>(std::move(v));
    }
}

// ordered() of a list as the rules made it: where each option is before the next (a
// list made in the options' order, as most are), that list itself, shared, else sorted
template <class T>
static bool ascending(const T* b, const T* e) {
    if (b == e) return true;
    for (const T* x = b + 1; x < e; ++x)
        if (cmp(x[-1], *x) >= 0) return false;
    return true;
}
template <class T>
static bool ascending(const List<T>& l) {
    return ascending(l.begin(), l.end());
}
template <class T>
static List<T> ordered(const List<T>& l) {
    if (ascending(l)) return l;
    if constexpr (std::is_same<T, bool>::value) {
        return ordered_bools(l.begin(), l.end());
    } else {
        std::vector<T> v(l.begin(), l.end());
        return ordered(std::move(v));
    }
}

// the first 8 bytes of a text as a number whose order is the texts' (bytes as unsigned,
// the shorter first where one begins the other: 0 after its end): texts whose keys differ
// are in the order of their keys, those whose keys are equal are compared whole
static inline uint64_t text_key(const Str& s) { return s.key(); }

// texts in order, each once: their keys and addresses sorted, each text then moved
// (``v`` a vector the call owns) or copied (a list) once into the result, where a sort
// of the texts themselves would move each many times (a text's move copies its bytes);
// none, which comes first, by its own order
// (texts of at most 7 bytes, none holding a byte 0, and at most 256 of them, none of
// them none, as a move's name: each one's key, its bytes in order, with its place in
// the last byte, sorted as numbers, where a sort of keys and addresses compared two
// fields; two texts are equal where their keys but the last byte are; else false)
template <class X>
static bool ordered_short_texts(X* first, X* last, Vec<Str>& out) {
    size_t n = (size_t)(last - first);
    if (n > 256) return false;
    uint64_t ks[256];
    for (size_t i = 0; i < n; ++i) {
        const Str& x = first[i];
        size_t b = x.size();
        if (b > 7 || is_none_s(x)) return false;
        uint64_t k = text_key(x);
        uint64_t w = k | (~0ULL >> (8 * b));   // (the bytes after its end: not 0)
        if (((w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL) != 0) return false;   // (a byte 0)
        ks[i] = k | i;
    }
    std::sort(ks, ks + n);
    out.reserve(n);
    for (size_t i = 0; i < n; ++i)
        if (i == 0 || (ks[i - 1] >> 8) != (ks[i] >> 8))
            out.push_back(std::move(first[ks[i] & 255]));   // (a copy of a const text)
    return true;
}
template <class X>
static List<Str> ordered_texts(X* first, X* last) {
    {
        Vec<Str> out;
        if (ordered_short_texts(first, last, out)) return List<Str>(std::move(out));
    }
    struct K { uint64_t k; X* p; };
    static std::vector<K> at;
    at.clear();
    bool none = false;
    for (X* x = first; x != last; ++x) {
        at.push_back({text_key(*x), x});
        none |= is_none_s(*x);
    }
    if (none)
        std::sort(at.begin(), at.end(), [](const K& a, const K& b) { return cmp(*a.p, *b.p) < 0; });
    else
        std::sort(at.begin(), at.end(), [](const K& a, const K& b) {
            return a.k != b.k ? a.k < b.k : a.p->compare(*b.p) < 0;
        });
    Vec<Str> out;
    out.reserve(at.size());
    for (size_t i = 0; i < at.size(); ++i)   // (texts whose keys differ differ)
        if (i == 0 || (at[i - 1].k != at[i].k || !eq(out.back(), *at[i].p)))
            out.push_back(std::move(*at[i].p));   // (a copy of a const text)
    return List<Str>(std::move(out));
}
template <class A>
static List<Str> ordered(std::vector<Str, A>&& v) {
    return ordered_texts(v.data(), v.data() + v.size());
}
// ascending(l) for texts: neighbours by their keys, whole only where their keys are equal
// (none, first in the order, by its own)
static inline bool ascending(const Str* l, const Str* e) {
    size_t n = (size_t)(e - l);
    uint64_t prev = n ? text_key(l[0]) : 0;
    for (size_t i = 1; i < n; ++i) {
        uint64_t k = text_key(l[i]);
        if (is_none_s(l[i]) || is_none_s(l[i - 1])) {
            if (cmp(l[i - 1], l[i]) >= 0) return false;
        } else if (k < prev || (k == prev && l[i - 1].compare(l[i]) >= 0)) {
            return false;
        }
        prev = k;
    }
    return true;
}
// (texts of a list as the rules made it, as ordered(const List<T>&) does, the template
// above would copy the list, then sort the copies as texts: it cannot see this overload)
static inline List<Str> ordered(const List<Str>& l) {
    if (ascending(l.begin(), l.end())) return l;
    return ordered_texts(l.begin(), l.end());
}

// The options of a decision that may be declined (``or "pass"``): ``w`` holds none, then
// the others but none; none stays first, the others become ordered() of them. One buffer
// is made: the list takes it as it is where they are in their order already (a board's
// cells, filtered), where a copy into a vector, its sorted copy and a third with none
// before it were made at every decision.
template <class T>
static List<T> none_then_ordered(Vec<T>&& w) {
    if (!ascending(w.data() + 1, w.data() + w.size())) {
        List<T> o = ordered(std::vector<T>(std::make_move_iterator(w.begin() + 1), std::make_move_iterator(w.end())));
        w.resize(1);
        w.insert(w.end(), o.begin(), o.end());
    }
    return List<T>(std::move(w));
}
// The same where the options are known to hold no none and to be in their order (a
// board's cells in the board's order, filtered: kernel.py's Proc._plain_options): none,
// then them, copied at once (numbers or ids).
template <class T>
static List<T> none_then(const List<T>& a, T none) {
    size_t n = a.size();
    Vec<T> w(n + 1);
    w[0] = none;
    if (n) std::memcpy(w.data() + 1, a.begin(), n * sizeof(T));
    return List<T>(std::move(w));
}

template <class T>
static std::vector<T> vec(const List<T>& l) {
    return std::vector<T>(l.begin(), l.end());
}

// ------------------------------------------------------------------ ints
// Python's ints do not overflow; where a 64-bit int would, the kernel bails.
static inline I add(I a, I b) {
    I r;
    if (a == NONE_I || b == NONE_I || __builtin_add_overflow(a, b, &r) || r == NONE_I) bail();
    return r;
}
static inline I sub(I a, I b) {
    I r;
    if (a == NONE_I || b == NONE_I || __builtin_sub_overflow(a, b, &r) || r == NONE_I) bail();
    return r;
}
static inline I mul(I a, I b, I limit) {  // helpers._mul: the integer budget
    I r;
    if (a == NONE_I || b == NONE_I || __builtin_mul_overflow(a, b, &r) || r > limit || r < -limit) bail();
    return r;
}
static inline I neg(I a) {
    if (a == NONE_I) bail();
    return -a;
}
static inline I floordiv(I a, I b) {  // Python's //
    if (a == NONE_I || b == NONE_I || b == 0) bail();
    I q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}
static inline I mod(I a, I b) {  // Python's %
    if (a == NONE_I || b == NONE_I || b == 0) bail();
    I r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}
static inline I iabs(I a) {
    if (a == NONE_I) bail();
    return a < 0 ? -a : a;
}
static inline I nn(I a) {  // an int that must not be none (an order, an index...)
    if (a == NONE_I) bail();
    return a;
}
static inline Id nn(Id a) {
    if (a < 0) bail();
    return a;
}
static inline I stored(I v, I limit) {  // ProcCompiler.value_fn: the integer budget
    if (v != NONE_I && (v > limit || v < -limit)) bail();
    return v;
}
static inline bool lt(I a, I b) { return nn(a) < nn(b); }
static inline bool le(I a, I b) { return nn(a) <= nn(b); }
static inline const Str& nn(const Str& a) {
    if (is_none_s(a)) bail();
    return a;
}
static inline bool lt(const Str& a, const Str& b) { return nn(a) < nn(b); }
static inline bool le(const Str& a, const Str& b) { return nn(a) <= nn(b); }

// characters of a UTF-8 text (Python's len of a str)
static inline I chars(const Str& s) {
    I n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
}

// ------------------------------------------------------------------ list helpers
template <class T>   // (always inlined: a call cost more than its two tests)
MK_AI static inline const T& at(const List<T>& l, I i) {  // helpers._index
    if (i < 0 || (size_t)i >= l.size()) bail();
    return l[(size_t)i];
}
template <class T>
static List<T> cat(const List<T>& a, const List<T>& b) {
    if (a.empty()) return b;
    if (b.empty()) return a;
    Vec<T> v;
    v.reserve(a.size() + b.size());
    v.insert(v.end(), a.begin(), a.end());
    v.insert(v.end(), b.begin(), b.end());
    return List<T>(std::move(v));
}
// the index of a list of lists by their hashes (List::Rep's index), made when first asked
// for and brought up to the elements appended since: each hash read from its list once
template <class T>
static HashIndex& hash_index(const List<T>& l) {
    auto* r = l.rep();
    HashIndex*& ix = r->index();
    if (!ix) ix = new HashIndex();
    while (ix->hs.size() < r->n) ix->add(l[ix->hs.size()].hash());
    return *ix;
}
template <class T>
static bool contains(const List<T>& l, const typename std::common_type<T>::type& x) {  // (x: converted)
    if constexpr (is_plain_list<T>::value) {
        // (lists of numbers in a list, e.g. the positions seen: by their hashes first,
        // each made once per list, where the lists are long)
        size_t n = x.size();
        if (n >= 16) {
            if (!l.rep()) return false;
            uint32_t h = x.hash();
            // (the elements of the same hash looked at alone: rare, laid out of the way)
            const HashIndex& ix = hash_index(l);
            for (uint32_t k = ix.slot(h);; k = (k + 1) & ix.mask) {
                int32_t i = ix.at[k];
                if (i < 0) return false;
                if (__builtin_expect(ix.hs[(size_t)i] == h, 0) && l[(size_t)i].size() == n && eq(x, l[(size_t)i])) return true;
            }
        }
    }
    for (const T& y : l)
        if (eq(x, y)) return true;
    return false;
}
// how many elements of l are equal to x (count(q for q in l if q == x), x the same at
// every turn: kernel.py, Gen.count_equal); long lists of numbers among 16 or more (or
// among those an index was made of), by their hashes, as contains finds them: the
// elements of x's hash looked at alone (the positions seen, counted for a repetition at
// every turn). Fewer are compared one by one: a hash costs more than a few comparisons.
template <class T>
static I count_eq(const List<T>& l, const typename std::common_type<T>::type& x) {
    I c = 0;
    if constexpr (is_plain_list<T>::value) {
        size_t n = x.size();
        if (n >= 16 && l.rep() && (l.rep()->n >= 16 || l.rep()->index())) {
            uint32_t h = x.hash();
            const HashIndex& ix = hash_index(l);
            for (uint32_t k = ix.slot(h);; k = (k + 1) & ix.mask) {
                int32_t i = ix.at[k];
                if (i < 0) return c;
                c += ix.hs[(size_t)i] == h && l[(size_t)i].size() == n && eq(x, l[(size_t)i]);
            }
        }
    }
    for (const T& y : l) c += eq(x, y);
    return c;
}
template <class T>
static List<T> reversed(const List<T>& l) {
    Vec<T> v(l.begin(), l.end());
    std::reverse(v.begin(), v.end());
    return List<T>(std::move(v));
}
template <class T>
static List<T> replace_at(const List<T>& l, I i, const T& x) {  // helpers._replace_at
    if (i < 0 || (size_t)i >= l.size()) bail();
    Vec<T> v(l.begin(), l.end());
    v[(size_t)i] = x;
    return List<T>(std::move(v));
}
template <class T>
static List<T> sorted(const List<T>& l) {  // sort(): a stable sort by the options' order
    Vec<T> v(l.begin(), l.end());
    std::stable_sort(v.begin(), v.end(), Less<T>());
    return List<T>(std::move(v));
}
// distinct(): the first of equal ones, in order (dict.fromkeys: lists cannot be keys);
// a list whose elements all differ is itself, shared (the elements before the first that
// equals one before it are copied once it is met)
template <class T>
static bool seen_in(const T* b, const T* e, const T& x) {
    for (const T* y = b; y != e; ++y)
        if (eq(x, *y)) return true;
    return false;
}
template <class T>
static List<T> distinct(const List<T>& l) {
    size_t n = l.size(), i = 1;
    while (i < n && !seen_in(l.begin(), l.begin() + i, l[i])) ++i;
    if (i >= n) return l;
    Vec<T> v;
    v.reserve(n);
    v.insert(v.end(), l.begin(), l.begin() + i);
    for (++i; i < n; ++i) {
        bool seen = false;
        for (const T& y : v)   // (a vector of bools has no data())
            if (eq(l[i], y)) {
                seen = true;
                break;
            }
        if (!seen) v.push_back(l[i]);
    }
    return List<T>(std::move(v));
}
template <class T>
static List<List<T>> distinct(const List<List<T>>&) {
    bail();
}
static inline I isum(const List<I>& l) {
    I s = 0;
    for (I x : l) s = add(s, x);
    return s;
}
// min and max of a list (helpers._min): an error when empty; none among two or more
// cannot be compared
template <class T>
static T lmin(const List<T>& l) {
    if (l.empty()) bail();
    if (l.size() == 1) return l[0];
    T m = nn(l[0]);
    for (const T& x : l)
        if (nn(x) < m) m = x;
    return m;
}
template <class T>
static T lmax(const List<T>& l) {
    if (l.empty()) bail();
    if (l.size() == 1) return l[0];
    T m = nn(l[0]);
    for (const T& x : l)
        if (nn(x) > m) m = x;
    return m;
}
// (a list's or a tuple's: its own none)
template <class T>
static inline T none_of() { return T::none(); }
template <>
inline I none_of<I>() { return NONE_I; }
template <>
inline Id none_of<Id>() { return NONE_ID; }
template <>
inline Str none_of<Str>() { return NONE_S; }
template <class T>
static T lfirst(const List<T>& l) { return l.empty() ? none_of<T>() : l[0]; }
template <class T>
static T llast(const List<T>& l) { return l.empty() ? none_of<T>() : l[l.size() - 1]; }
static inline bool lany(const List<bool>& l) {
    for (bool b : l)
        if (b) return true;
    return false;
}
static inline bool lall(const List<bool>& l) {
    for (bool b : l)
        if (!b) return false;
    return true;
}
// subsets(): every non-empty subset, smallest first, each in the list's order
template <class T>
static List<List<T>> subsets(const List<T>& l) {
    size_t n = l.size();
    if (n > 16) bail();
    Vec<List<T>> out;
    std::vector<size_t> idx;
    for (size_t k = 1; k <= n; ++k) {
        idx.resize(k);
        for (size_t i = 0; i < k; ++i) idx[i] = i;
        for (;;) {
            Vec<T> s;
            s.reserve(k);
            for (size_t i : idx) s.push_back(l[i]);
            out.push_back(List<T>(std::move(s)));
            size_t i = k;
            while (i > 0 && idx[i - 1] == n - k + i - 1) --i;
            if (i == 0) break;
            ++idx[i - 1];
            for (size_t j = i; j < k; ++j) idx[j] = idx[j - 1] + 1;
        }
    }
    return List<List<T>>(std::move(out));
}

#if MK_SHARED_HERE
// ------------------------------------------------------------------ shared functions
// (compiled once in the object of instantiations where there is one: MK_PREBUILT)
static bool key_less(const KeyedItem& a, const KeyedItem& b) { return kcmp(a.first, b.first) < 0; }

List<Id> by_keys(std::vector<KeyedItem>& kv) {
    std::stable_sort(kv.begin(), kv.end(), key_less);
    Vec<Id> out;
    for (auto& e : kv)
        if (out.empty() || out.back() != e.second) out.push_back(e.second);
    return List<Id>(std::move(out));
}

void sort_by_keys(std::vector<IKey>& keys, List<Id>& o) {
    std::vector<KeyedItem> items;
    for (size_t i = 0; i < keys.size(); ++i) items.push_back({keys[i], o[i]});
    std::stable_sort(items.begin(), items.end(), key_less);
    Vec<Id> sorted_;
    for (size_t i = 0; i < items.size(); ++i) keys[i] = items[i].first, sorted_.push_back(items[i].second);
    o = List<Id>(std::move(sorted_));
}

static bool keys_less(const KeyedList& a, const KeyedList& b) {
    if (a.first.size() != b.first.size()) return a.first.size() < b.first.size();
    for (size_t i = 0; i < a.first.size(); ++i) {
        int c = kcmp(a.first[i], b.first[i]);
        if (c) return c < 0;
    }
    return false;
}

List<List<Id>> by_keys(std::vector<KeyedList>& kv) {
    std::stable_sort(kv.begin(), kv.end(), keys_less);
    Vec<List<Id>> out;
    for (auto& e : kv)
        if (out.empty() || !eq(out.back(), e.second)) out.push_back(e.second);
    return List<List<Id>>(std::move(out));
}
#endif

}  // namespace mk
