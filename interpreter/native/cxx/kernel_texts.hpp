// Texts made by the rules (written into every kernel by interpreter/native/kernel_module.py
// once St is declared).
//
// a part of a join of texts that is never none (kernel_text_parts.py): read with no test
// for none (``nn``), as the text it holds everywhere else
struct Sure {
    const Str& s;
    operator const Str&() const { return s; }
};
static inline Sure sure(const Str& s) { return Sure{s}; }
static inline const Str& nn(const Sure& x) { return x.s; }

// the bytes of x after the k bytes of buf (64 bytes of text, 24 more of room): a short
// text, kept inside its object, copied as its 24 bytes at once
static inline size_t put_short(char* buf, size_t k, const Str& x) { return k + x.put(buf + k); }

// whether the k bytes at b (with 8 more readable after them) are ASCII, none above 0x7f:
// then each byte is a character
static inline bool ascii_bytes(const char* b, size_t k) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t any = 0, w;
    size_t i = 0;
    for (; i + 8 <= k; i += 8) {
        __builtin_memcpy(&w, b + i, 8);
        any |= w;
    }
    if (i < k) {   // (the bytes after the end masked off)
        __builtin_memcpy(&w, b + i, 8);
        any |= w & (~0ULL >> (64 - 8 * (k - i)));
    }
    return (any & 0x8080808080808080ULL) == 0;
#else
    for (size_t i = 0; i < k; ++i)
        if ((unsigned char)b[i] > 0x7f) return false;
    return true;
#endif
}

// a + b + c ... (kernel_operators.py: _texts_joined, the left operands of + all the way down):
// one text made, its bytes copied once, where the reference makes a text at each +. The
// work is the reference's: each + counts the characters of both its sides, so
// ((a + b) + c) counts |a| + |b|, then |a| + |b| + |c|. A none text among them stops
// (nn), as at its own +. A short text is made from the stack, and where its bytes are
// ASCII each part's characters are its bytes (one test of the whole, where counting the
// characters of each part cost a sixth of the making of a move's name).
template <size_t N>
static I joined_work(const I (&c)[N]) {
    I run = c[0], work = 0;
    for (size_t i = 1; i < N; ++i) {
        run += c[i];
        work += run;
    }
    return work;
}
template <class... T>
static Str scatn(St& s, const T&... x) {
    I len[sizeof...(T)] = {(I)nn(x).size()...};   // (in order: the first none stops)
    size_t bytes = 0;
    for (I b : len) bytes += (size_t)b;
    if (bytes <= 64) {   // (a short text: made from the stack at once)
        char buf[64 + 24];
        size_t k = 0;
        ((k = put_short(buf, k, x)), ...);
        if (!ascii_bytes(buf, k)) {
            size_t i = 0;
            ((len[i++] = chars(x)), ...);
        }
        W(s, joined_work(len));
        return Str::of_buffer(buf, k);
    }
    size_t i = 0;
    ((len[i++] = chars(x)), ...);
    W(s, joined_work(len));
    Str out;
    out.reserve(bytes);
    (out.append(x), ...);
    return out;
}

// How many options ordered(l) has (the last decision of a perft, counted, not made:
// kernel_glue.hpp, count_paths): texts of at most 7 bytes each by its first 8 bytes and
// its length (two such texts are equal where both are), counted once each in a table
// of their hashes, where ordered_short_texts sorted them, then copied each into a list.
template <class T>
static size_t count_ordered(const List<T>& l) {
    if (ascending(l)) return l.size();
    return ordered(l).size();
}
static inline size_t count_ordered(const List<Str>& l) {
    size_t n = l.size();
    if (n > 128) return ordered(l).size();
    size_t cap = 16;
    while (cap < 2 * n) cap <<= 1;
    uint64_t seen[256];
    std::memset(seen, 0, cap * sizeof(uint64_t));
    size_t k = 0;
    for (size_t i = 0; i < n; ++i) {
        const Str& x = l[i];
        size_t b = x.size();
        if (b > 7) return ordered(l).size();
        uint64_t v = (text_key(x) | b) + 1;   // (its 8th byte 0: never 0)
        size_t h = (size_t)((v * 0x9E3779B97F4A7C15ULL) >> 56) & (cap - 1);
        while (seen[h] != 0 && seen[h] != v) h = (h + 1) & (cap - 1);
        k += seen[h] == 0;
        seen[h] = v;
    }
    return k;
}
