// Lists built in a kernel beyond cxx/kernel_rt.hpp's List, Grow and Build. Part of the
// runtime every kernel starts with (after cxx/kernel_rt.hpp, precompiled with it:
// interpreter/native/kernel_types.runtime_cxx).
namespace mk {

// The elements of a list of numbers or ids whose size k is known before the first is
// made (a comprehension with no condition over a range: kernel.py, Gen._Comprehension;
// kernel_rows.py), written in their places in the list itself, made at once for k (in
// its handle, its header or a buffer of its own), where Build kept the first of them on
// the stack, then copied them into a vector grown past its stack, then that vector into
// the list's header (a 6 × 6 board's 36 cells after a quadrant turned). Exactly k
// elements are pushed; the list is its size from the start (a kernel that bails drops it
// unfinished).
template <class T>
struct Fill {
    typedef typename List<T>::S S;
    typedef typename List<T>::Rep Rep;
    List<T> l;
    S* d = nullptr;
    explicit Fill(size_t k) {
        if (k == 0) return;
        if constexpr (List<T>::HANDLE > 0) {
            if (k <= List<T>::HANDLE) {   // (the bytes after them stay 0: List::same)
                l.h.k = (uint32_t)k;
                d = l.h.at;
                return;
            }
        }
        if (k > UINT32_MAX) bail();
        Rep* r = new Rep;
        l.h.p = r;
        if (k <= List<T>::INLINE) {
            r->d = reinterpret_cast<S*>(r->inl);
        } else {
            r->v.resize(k);
            r->d = r->v.data();
        }
        r->n = (uint32_t)k;
        if constexpr (List<T>::HANDLE > 0) l.h.k = (uint32_t)k;
        d = r->d;
    }
    Fill(const Fill&) = delete;
    void push_back(const T& x) { *d++ = (S)x; }
    List<T> list() { return std::move(l); }
};

// A list of numbers or ids read by index at each element of a list filled (kernel_rows.py,
// views): its elements and size taken once before the loop, where each read found them
// again through the list's handle (in it or in a header?), since the elements written
// could have been its own as far as the compiler knew. Nothing changes a list while an
// expression is evaluated.
template <class T>
struct ListView {
    const T* d;
    size_t n;
    explicit ListView(const List<T>& l) : d(l.begin()), n(l.size()) {}
    size_t size() const { return n; }
    const T& operator[](size_t i) const { return d[i]; }
    const T* begin() const { return d; }
    const T* end() const { return d + n; }
};
template <class T>   // (at of a List: the same test, the same bail)
MK_AI static inline const T& at(const ListView<T>& l, I i) {
    if (i < 0 || (size_t)i >= l.n) bail();
    return l.d[(size_t)i];
}

// The size a comprehension's vector is first given where a later loop's size is not
// known before it runs (kernel_ordered.py, reserve_size): the guess, or the most the
// same comprehension made lately (``seen``, one per place in the rules), if larger.
// Capacity alone: the elements and their order are the same (the moves of a
// decision among many pieces, 2 a piece at first, more later, grown at every decision).
MK_AI static inline size_t at_least_seen(size_t guess, size_t seen) {
    return guess > seen ? guess : seen;
}
// the size just made, kept for the next times: the most made, fading by a sixteenth of
// its excess at each list made smaller (the last size alone: the positions of a search
// alternate, and one of more moves than the last grew; no more than ``most``: a vector
// grows past it)
MK_AI static inline void keep_seen(size_t& seen, size_t made, size_t most) {
    size_t x = made >= seen ? made : seen - (seen - made) / 16;
    seen = x < most ? x : most;
}

}  // namespace mk
