// Texts made by the rules (written into every kernel by interpreter/native/kernel_module.py
// once St is declared).
//
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
        char buf[64];
        size_t k = 0;
        for (size_t i = 0; i < n; ++i) {
            std::memcpy(buf + k, v[i]->data(), v[i]->size());
            k += v[i]->size();
        }
        return Str(buf, k);
    }
    Str out;
    out.reserve(bytes);
    for (size_t i = 0; i < n; ++i) out.append(*v[i]);
    return out;
}
