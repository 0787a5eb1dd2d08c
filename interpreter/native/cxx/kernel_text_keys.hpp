// The keys of texts a counted decision tells apart without making them (written into a
// kernel by interpreter/native/kernel_module.py after kernel_texts.hpp, where
// kernel_text_keys.py prints a let's texts as keys).
//
// a text's key: its first 8 bytes as a number, the first the highest (0 after its end),
// its bytes (TK_NONE: none) and its characters (Python's len); two texts of at most 7
// bytes are equal where their keys and bytes are (as count_ordered reads them)
constexpr size_t TK_NONE = SIZE_MAX;
struct TK {
    uint64_t k;
    size_t b;
    I c;
};
// the key of a text that is never none (kernel_text_parts.py: a text of the rules, a
// cell's name, a join): a part of a join read with no test for none
struct TKs : TK {};
// the key of a text made (none kept as none: a part of a join stops there, tk_join)
static inline TK tk(const Str& x) {
    if (is_none_s(x)) return TK{0, TK_NONE, 0};
    size_t b = x.size();
    uint64_t k = x.key();
    return TK{k, b, b <= 7 && (k & 0x8080808080808080ULL) == 0 ? (I)b : chars(x)};
}
static inline TKs tk(const Sure& x) {
    size_t b = x.s.size();
    uint64_t k = x.s.key();
    return TKs{{k, b, b <= 7 && (k & 0x8080808080808080ULL) == 0 ? (I)b : chars(x.s)}};
}
// a + b + c ...: scatn's work (joined_work of the parts' characters: each part after the
// first adds the characters so far), a part that is none stopping it as there; the key of
// the text scatn makes (where it has at most 7 bytes), each part's shifted after those
// before it (written out part by part: no array, no loop)
struct TKJoin {
    uint64_t k = 0;
    size_t b = 0;
    I c = 0, work = 0;
    MK_AI void add(const TK& p) {
        if (p.b == TK_NONE) bail();
        put(p);
    }
    MK_AI void add(const TKs& p) { put(p); }
    MK_AI void put(const TK& p) {
        k |= b < 8 ? p.k >> (8 * b) : 0;
        b += p.b;
        c += p.c;
        work += c;
    }
};
template <class F, class... T>
static inline TKs tk_join(St& s, const F& first, const T&... x) {
    TKJoin j;
    j.add(first);
    j.work = 0;
    (j.add(x), ...);
    W(s, j.work);
    return TKs{{j.b <= 7 ? j.k : 0, j.b, j.c}};
}

// the keys of a let's texts (kernel_text_keys.py), each as the number count_ordered
// hashes for it ((key | bytes) + 1: never 0, its 8th byte 0), or 0 where it has more than
// 7 bytes or is none; and how many of them differ (-1: they do not tell: the let is made
// as ever, and its list counted)
static std::vector<uint64_t> TKEYS;
static long long KEYED = -1;
static inline uint64_t tk_told(const TK& x) { return x.b <= 7 ? (x.k | x.b) + 1 : 0; }
// how many of the keys l differ: count_ordered's table of hashes, where each text has at
// most 7 bytes and there are at most 128; else -1 (one longer, none, or none at all)
static long long count_keys(const std::vector<uint64_t>& l) {
    size_t n = l.size();
    if (n == 0 || n > 128) return -1;
    size_t cap = 16;
    while (cap < 2 * n) cap <<= 1;
    uint64_t seen[256];
    std::memset(seen, 0, cap * sizeof(uint64_t));
    long long k = 0;
    for (size_t i = 0; i < n; ++i) {
        uint64_t v = l[i];
        if (v == 0) return -1;   // (longer, or none)
        size_t h = (size_t)((v * 0x9E3779B97F4A7C15ULL) >> 56) & (cap - 1);
        while (seen[h] != 0 && seen[h] != v) h = (h + 1) & (cap - 1);
        k += seen[h] == 0;
        seen[h] = v;
    }
    return k;
}

// the text whose key t is, where it has at most 7 bytes (kernel_text_keys.py: a let of
// texts made from their keys, where each is one): its bytes in order, 0 after its end
// (as a short text's words are), the key's bytes past it dropped
static inline Str tk_text(const TK& t) {
    uint64_t k = t.b ? t.k & (~0ULL << (64 - 8 * t.b)) : 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    k = __builtin_bswap64(k);   // (the first byte the lowest in memory)
#endif
    char b[24] = {0};
    std::memcpy(b, &k, 8);
    return Str::of_buffer(b, t.b);
}
