// Texts made by the rules (written into every kernel by interpreter/native/kernel_module.py
// once St is declared).
//
// the bytes of x after the k bytes of buf (64 bytes of text, 16 more of room): a short
// text kept inside its object (std::string's own buffer) copied as 16 bytes at once, read
// from that object alone, where a call of memcpy for each part of a text (a name of 2
// bytes) cost more than the copy
static inline size_t put_short(char* buf, size_t k, const Str& x) {
    const char* q = x.data();
    uintptr_t at = (uintptr_t)q, self = (uintptr_t)&x;
    if (at >= self && at + 16 <= self + sizeof(Str))
        __builtin_memcpy(buf + k, q, 16);
    else
        std::memcpy(buf + k, q, x.size());
    return k + x.size();
}

// a + b + c ... (kernel.py: Gen._texts_joined, the left operands of + all the way down):
// one text made, its bytes copied once, where the reference makes a text at each +. The
// work is the reference's: each + counts the characters of both its sides, so
// ((a + b) + c) counts |a| + |b|, then |a| + |b| + |c|. A none text among them stops
// (nn), as at its own +.
template <class... T>
static Str scatn(St& s, const T&... x) {
    const Str* v[] = {&x...};
    constexpr size_t n = sizeof...(T);
    I run = 0, work = 0;
    size_t bytes = 0;
    for (size_t i = 0; i < n; ++i) {
        run += chars(nn(*v[i]));
        if (i) work += run;
        bytes += v[i]->size();
    }
    W(s, work);
    if (bytes <= 64) {   // (a short text: made from the stack at once)
        char buf[64 + 16];
        size_t k = 0;
        for (size_t i = 0; i < n; ++i) k = put_short(buf, k, *v[i]);
        return Str(buf, k);
    }
    Str out;
    out.reserve(bytes);
    for (size_t i = 0; i < n; ++i) out.append(*v[i]);
    return out;
}
