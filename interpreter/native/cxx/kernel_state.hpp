// What the generated code of a kernel needs of its state once St is declared (written
// into every kernel by interpreter/native/kernel.py, after the state's helpers).
//
// The order of options that are items (Runtime._ordered with _hidden_key): an item the
// decider sees (or none) by its id, one they may not know after those, by its place (the
// zone, then the position from the bottom); a list of items with one they may not know
// has its items in that order, and lists go by size, then item by item (the keys, IKey,
// and the sorts by them are the runtime's: kernel_rt.hpp).
static inline int zone_pos(St& s, Id z, Id v) {
    int k = 0;
    for (Id i = s.z.head[z]; i >= 0; i = s.z.nxt[i], ++k)
        if (i == v) return k;
    bail();
}
static IKey item_key(St& s, Id v, Id p) {
    if (v < 0 || sees(s, v, p)) return {0, v, 0};
    Id z = s.z.loc(v);
    if (z < 0) bail();   // (Python looks for it in no zone: an error)
    return {1, z, zone_pos(s, z, v)};
}
static List<Id> ordered_items(St& s, std::vector<Id>&& v, Id p) {
    std::vector<KeyedItem> kv;
    kv.reserve(v.size());
    for (Id x : v) kv.push_back({item_key(s, x, p), x});
    return by_keys(kv);
}
// the same of a list as the rules made it: that list itself where the decider sees every
// item (or it is none) and each is before the next (their order then is their ids')
static List<Id> ordered_items(St& s, const List<Id>& l, Id p) {
    bool plain = true;
    for (size_t i = 0; plain && i < l.size(); ++i)
        plain = (l[i] < 0 || sees(s, l[i], p)) && (i == 0 || l[i - 1] < l[i]);
    return plain ? l : ordered_items(s, std::vector<Id>(l.begin(), l.end()), p);
}
static List<List<Id>> ordered_item_lists(St& s, std::vector<List<Id>>&& v, Id p);
// (lists of items: where every item is one the decider sees, none is none, and each list
// is before the next, lists by size then item by item)
static List<List<Id>> ordered_item_lists(St& s, const List<List<Id>>& l, Id p) {
    bool plain = ascending(l);
    for (size_t i = 0; plain && i < l.size(); ++i)
        for (Id x : l[i])
            if (x < 0 || !sees(s, x, p)) {
                plain = false;
                break;
            }
    return plain ? l : ordered_item_lists(s, std::vector<List<Id>>(l.begin(), l.end()), p);
}
static List<List<Id>> ordered_item_lists(St& s, std::vector<List<Id>>&& v, Id p) {
    std::vector<KeyedList> kv;
    kv.reserve(v.size());
    for (List<Id>& o : v) {
        bool hidden = false;   // (Runtime._sets_by_place: a none before one it may not know fails)
        for (Id x : o) {
            if (x < 0) bail();
            if (!sees(s, x, p)) {
                hidden = true;
                break;
            }
        }
        std::vector<IKey> keys;
        for (Id x : o) keys.push_back(item_key(s, x, p));
        if (hidden) sort_by_keys(keys, o);
        kv.push_back({std::move(keys), o});
    }
    return by_keys(kv);
}
// where an item lies for a seat that may not know it: (zone, position from 1, the
// zone's size), or false where it sees it (Runtime.hidden_place)
static PyObject* place_py(St& s, Id v, Id p) {
    if (v < 0 || v >= NI || sees(s, v, p)) Py_RETURN_FALSE;
    Id z = s.z.loc(v);
    if (z < 0) Py_RETURN_NONE;
    int k = 0;
    for (Id i = s.z.head[z]; i >= 0 && i != v; i = s.z.nxt[i]) ++k;
    return Py_BuildValue("(iii)", (int)z, k + 1, (int)s.z.len[z]);
}

// Reading a Python state (Gen.import_code).
static PyObject* item(PyObject* d, const char* key) {
    if (!PyDict_CheckExact(d)) throw PyFail();
    PyObject* v = PyDict_GetItemString(d, key);
    if (!v) throw PyFail();
    return v;
}
// whether d[key] is the text ``want`` (owned reference, consumed), or missing where
// ``present`` is false
static bool same(PyObject* d, const char* key, PyObject* want, bool present) {
    PyObject* v = PyDict_GetItemString(d, key);
    bool ok;
    if (!present) ok = v == nullptr || v == Py_None;
    else ok = v != nullptr && want != nullptr && PyUnicode_Check(v) && PyUnicode_Compare(v, want) == 0;
    if (present) Py_XDECREF(want);
    PyErr_Clear();
    return ok;
}
