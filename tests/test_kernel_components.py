"""Kept groups and liberties checked by their points (issue 36 item 4,
interpreter/native/kernel_components.py): a group kept in one position serves a later
one where the points its walk read that changed are still in it or still out of it (a
stone of the other colour beside it), and kept liberties lose the points filled since.
Go's positions where that happens, and where it must not (a stone that joins a group, a
capture that frees its points), played by the kernel and the reference side by side:
the legal points, the state and the work counted after every move are the reference's,
in one game, two games in turns and a copy."""
from __future__ import annotations

import json
import random
import re

import pytest
from kernel_support import kernels_on, lists_walked, needs_kernel  # noqa: F401 - the fixtures
from meeple.interpreter.native import kernel, kernel_components
from meeple.interpreter.native.kgame import KernelGame
from meeple.interpreter.play.game import Game
from test_go_rules import build, legal
from test_kernel_lasting import both, kernel_go, play, same, step_both

from meeple import interpreter

pytestmark = [pytest.mark.kernels, needs_kernel, pytest.mark.usefixtures("lists_walked")]

# A black chain (C3 D3 E3) under White's C4 D4: White fills its liberty E4 (the chain
# the same, its liberty gone), Black's F3 joins it (walked again), White's B3 and G3
# fill two more, Black takes C4 D4 E4 with C5 D5 E5 F4 B4 ... (points freed beside the
# chain: its liberties made again); White then plays into the points freed.
BESIDE = dict(black="C3 D3 E3 C6 D6 E6 B5 F5", white="C4 D4 A1", active=1)
BESIDE_MOVES = ["play E4", "play F3", "play B3", "play C5", "play G3", "play D5", "play J9",
                "play E5", "play J8", "play B4", "play J7", "play F4", "play D4", "play H1"]


def test_a_stone_beside_a_kept_group_leaves_it_and_takes_a_liberty():
    kern, ref = both(**BESIDE)
    same(kern, ref, BESIDE_MOVES)


# Stones that join kept groups: Black's F3 joins C3 D3 E3 and G3 H3 (the walk of the
# group asked for carried on from the point played, through the other group), C4 joins
# C5 to them, D5 and B5 join more; White fills the joined group's liberties (kept
# liberties carried on with the points beside the stones added, then losing those
# filled) until A5 takes all ten stones; both then play into the points freed (C4 takes
# C3 again).
JOIN = dict(black="C3 D3 E3 G3 H3 C5 A9", white="C2 D2 E2 F2 G2 H2 J3 B3 A1", active=0)
JOIN_MOVES = ["play F3", "play D4", "play C4", "play E4", "play J9", "play F4", "play J8", "play G4",
              "play D5", "play H4", "play J7", "play B4", "play B5", "play C6", "play H9", "play B6",
              "play G9", "play E5", "play F9", "play D6", "play E9", "play A5", "play D3", "play E3",
              "play C3", "play C4", "play F3", "play D9"]


def test_stones_that_join_kept_groups_play_as_the_reference():
    kern, ref = both(**JOIN)
    same(kern, ref, JOIN_MOVES)   # (D3, C3, F3: points of the stones A5 took)


def fresh_go():
    """Go's program for two, on a kernel generated now (no ruleset cached)."""
    rules = interpreter.load("go", cache=False)
    assert rules.use_native(report=False, kernel_only=True)
    return rules.for_players(2)


def join_on(prog):
    """The position JOIN as ``prog`` (a kernel's) plays it and as the reference does."""
    ref = build(**JOIN)
    return KernelGame.adopt(Game(prog, json.loads(json.dumps(ref.state)))), ref


def go_program(carried: bool, monkeypatch):
    """Go's program on a kernel built now, whose kept walks and liberties are carried on
    where a stone joins them (kernel_components.py's ``component_extend`` and
    ``filter_extend``), or (``carried`` false) made again."""
    with monkeypatch.context() as m:
        if not carried:
            m.setattr(kernel_components.ComponentChecks, "component_extend", lambda self, name: None)
            m.setattr(kernel_components.ComponentChecks, "filter_extend", lambda self, name: None)
        prog = fresh_go()
        assert prog.kernel
        source = kernel.Gen(prog).source()
    assert ("uX_stones(s, e.v, e.deps, j_, w_" in source) == carried
    assert ("uY_liberties(s, e.v, e.deps, add_)" in source) == carried
    return prog


def test_a_stone_that_joins_a_kept_group_reads_it_rather_than_walking_it_again(monkeypatch):
    # the same moves on a kernel that walks a joined group and makes its liberties again:
    # the same games, the states, legal points and work the reference's (above), and
    # fewer values read from the keeps (each walk carried on, and each liberties carried
    # on, reads its entry)
    reads = {}
    for carried in (True, False):
        prog = go_program(carried, monkeypatch)
        kern, ref = join_on(prog)
        before = prog.kernel_kept_reads
        for step, move in enumerate(JOIN_MOVES):
            step_both(kern, ref, step, move)
        assert prog.native_fallbacks == 0
        reads[carried] = prog.kernel_kept_reads - before
    assert reads[True] > reads[False], reads


def test_games_in_turns_and_a_copy_recheck_what_the_other_renewed():
    # one game renews the stamps of a kept walk or liberties in its position; the other,
    # a move behind or ahead, checks them against its own points
    rnd = random.Random(3)
    a, ra = both(**BESIDE)
    b, rb = both(**BESIDE)
    for step in range(40):
        for kern, ref in ((a, ra), (b, rb)):
            moves = [m.notation for m in ref.legal_moves() if m.notation != "pass"]
            if ref.over or not moves:
                return
            step_both(kern, ref, step, rnd.choice(moves))
        if step == 10:
            c, rc = a.copy(), ra.copy()
        if step > 10:
            moves = [m.notation for m in rc.legal_moves() if m.notation != "pass"]
            if not rc.over and moves:
                move = rnd.choice(moves)
                play(c, move)
                play(rc, move)
                assert legal(c) == legal(rc), (step, move)


def test_go_rechecks_its_groups_and_liberties_by_their_points():
    gen = kernel.Gen(kernel_go())
    source = gen.source()
    assert "uV_stones(s, e.v, e.deps" in source       # (the group's walk)
    assert "uW_liberties(s, e.v, e.deps" in source    # (the liberties kept)
    assert gen.filter_recheck("stones") is None        # (a walk, not a filtered list)
    assert gen.component_recheck("region") is not None


def test_kept_liberties_are_found_by_the_first_point_of_their_group():
    # each group's liberties in the entry of its first point (no two groups held at
    # once share one, as they could share a slot of a table by the list's hash), a list
    # of no cells or of other values by its hash after them; the games the same
    # (the lockstep tests above and test_kernel_lasting.py)
    source = kernel.Gen(kernel_go()).source()
    for head in ("static inline MK_AI List<Id> uK_liberties(St& s, const List<Id>& uA_g) {",
                 "__attribute__((noinline)) static List<Id> uK_liberties_slow(St& s, const List<Id>& uA_g) {"):
        body = source[source.index(head):]
        body = body[:body.index("\n")]
        assert "size_t i_ = uA_g.size() && (size_t)uA_g[0] < (size_t)NZ ? (size_t)uA_g[0] " \
            ": (size_t)NZ + " in body
    assert "[NZ + 256];" in source


def test_a_kept_group_or_liberties_clean_is_read_in_the_caller():
    # (the entry's tests and its read in the caller, inlined; the rest, rechecks and
    # walks, a call of its own: the same values, work and calls counted either way)
    source = kernel.Gen(kernel_go()).source()
    for name, args in (("uC_stones", "s, uA_c, uA_k"), ("uK_liberties", "s, uA_g")):
        at = source.index(f"static inline MK_AI List<Id> {name}(St& s")
        body = source[at:source.index("\n", at)]
        assert "e.clean & (e.lin == s.z.lin.id)" in body and "++KEPT_READS;" in body
        # (its tests joined with no branch each: one branch on them all)
        test = body[body.index("if (", body.index("auto& e = ")):body.index("++KEPT_READS;")]
        assert "&&" not in test and "||" not in test
        assert body.endswith(f"return {name}_slow({args}); }}")
        assert f"__attribute__((noinline)) static List<Id> {name}_slow(St& s" in source


def test_a_group_checked_again_points_its_points_at_it_only_where_one_moved():
    # (a point of a kept group pointed at another walk's entry marks the group moved;
    # checked again by its points, a group none of whose points moved points none again)
    source = kernel.Gen(kernel_go()).source()
    at = source.index("__attribute__((noinline)) static List<Id> uC_stones_slow(St& s")
    body = source[at:source.index("\n", at)]
    assert "m_.moved = false;" in body and "if (uJ_stones(s, r_, uA_c, uA_k))" in body
    at = source.index("static bool uJ_stones(St& s, int32_t r_, Id uA_c, Id uA_k) {")
    body = source[at:source.index("\n", at)]
    assert re.search(r"if \(e\.moved\) \{ e\.moved = false; for \(Id x_ : e\.v\)", body)
    # (a walk carried on points the cells it found beyond the old ones, all where one moved)
    assert "for (size_t i_ = e.moved ? 0 : k0_; i_ < v_.size(); ++i_)" in body
    assert re.search(r"g_\.clean = false; g_\.moved = true;", source)


def test_groups_and_liberties_are_checked_by_the_points_noted_as_changed():
    # an unclean kept group or liberties list checks only the points noted as changed
    # since it was checked (each entry notes the zones told to it, TOUCHED at most),
    # where its points all point at it and it is of the state's lineage; else by the
    # stamps of every point its walk or list read
    source = kernel.Gen(kernel_go()).source()
    n = kernel_components.TOUCHED
    at = source.index("static bool uJ_stones(St& s, int32_t r_, Id uA_c, Id uA_k) {")
    body = source[at:source.index("\n", at)]
    assert f"if (!e.moved && e.lin == s.z.lin.id && e.nt <= {n} && e.v.size()) {{ for (uint32_t t_ = 0; " in body
    assert re.search(r"bool was_ = T\d+\[z_\] == r_;", body)
    assert "else if (!uV_stones(s, e.v, e.deps, uA_c, uA_k, &j_)) return false;" in body
    at = source.index("__attribute__((noinline)) static List<Id> uK_liberties_slow(St& s")
    body = source[at:source.index("\n", at)]
    assert "if (uT_liberties(s, e, uA_g))" in body and "if (uT_liberties(s, e, e_g_))" in body
    at = source.index("template <class E> static bool uT_liberties(St& s, E& e, const List<Id>& uA_g) {")
    body = source[at:source.index("\n", at)]
    assert (f"if (e.moved || e.lin != s.z.lin.id || e.nt > {n}) "
            "return !(e.took && e.lin != s.z.lin.id) && uW_liberties(s, e.v, e.deps, uA_g);") in body
    # (a cell taken out by the zones noted: another lineage makes the list again)
    assert "e.took = true; return true; }" in body
    # (both tables' touches note the zone, with no branch, in one walk of the points
    # related to the zone changed: the last ZONE_TOUCH set calls every toucher; a zone
    # the entry noted last, told again by another point of the group beside it, is
    # not counted again)
    touch = source[source.rindex("ZONE_TOUCH = [](int z_) {"):]
    touch = touch[:touch.index("};") + 2]
    noted = (rf"uint32_t n_ = g_\.nt; g_\.nt = n_ \+ \(\(n_ <= {n}\) & \(\(n_ == 0\) \| "
             rf"\(g_\.tz\[\(n_ \+ {n}\) % \({n} \+ 1\)\] != \(Id\)z_\)\)\); g_\.tz\[n_ % \({n} \+ 1\)\] = \(Id\)z_;")
    assert len(re.findall(noted, touch)) == 2
    assert len(re.findall(r"for \(int32_t k_ = T\d+_at\[z_\];", touch)) == 1


def test_kept_liberties_that_lose_points_take_them_out_in_place():
    # a kept liberties list that loses points (a stone played on one) takes them out of
    # its own list (take_out: in place where the entry alone holds it), checked by the
    # zones noted or by the stamps, no list copied whole
    source = kernel.Gen(kernel_go()).source()
    for head in ("template <class E> static bool uT_liberties(St& s, E& e, const List<Id>& uA_g) {",
                 "static bool uW_liberties(St& s, List<Id>& v_, const List<uint64_t>& d_, const List<Id>& uA_g) {"):
        at = source.index(head)
        body = source[at:source.index("\n", at)]
        assert "take_out(e.v, [&](Id x_)" in body or "take_out(v_, [&](Id x_)" in body
        assert "std::move(w_)" not in body


@pytest.mark.parametrize("touched", [1, kernel_components.TOUCHED])
def test_random_games_check_by_the_points_noted_as_the_reference_plays(touched, monkeypatch):
    # random games, joins and captures, one game and a copy played on in turns (another
    # lineage: the stamps checked): with one zone noted at most, most checks past it
    # (by the stamps), with TOUCHED, most by the zones noted; every move as the reference
    from meeple.interpreter.native import kernel_memo
    monkeypatch.setattr(kernel_components, "TOUCHED", touched)
    monkeypatch.setattr(kernel_memo, "TOUCHED", touched)
    prog = fresh_go()
    assert f"e.nt <= {touched} && e.v.size()" in kernel.Gen(prog).source()
    rnd = random.Random(11)
    kern, ref = join_on(prog)
    pairs = [(kern, ref)]
    for step in range(70):
        if step == 20:
            pairs.append((kern.copy(), ref.copy()))
        for k, r in pairs:
            moves = [m.notation for m in r.legal_moves()]
            if r.over or not moves:
                continue
            step_both(k, r, step, rnd.choice([m for m in moves if m != "pass"] or moves))
    assert prog.native_fallbacks == 0


def test_the_walks_that_make_or_check_an_entry_are_compiled_apart():
    # (kernel_lasting.APART: run far less often than an entry is read, each is its own
    # function, not a copy in the function reading the entries: go's uK_liberties_slow
    # and uC_stones_slow keep their common paths small for the instruction cache)
    source = kernel.Gen(kernel_go()).source()
    for name in ("uR_stones", "uV_stones", "uX_stones", "uR_liberties", "uW_liberties", "uY_liberties"):
        line = next(r for r in source.splitlines() if f" {name}(St& s" in r and r.rstrip().endswith("}"))
        assert line.startswith("__attribute__((noinline)) static "), name


def test_kept_liberties_keep_each_point_the_first_time_its_zone_is_read():
    # (distinct of the points beside a group that pass their own test: each kept where
    # its zone is noted the first time, no list made and then made distinct; carried on
    # for the stones added, the points of the kept list, noted already, are left out
    # with no search; the lockstep tests above play them as the reference)
    gen = kernel.Gen(kernel_go())
    source = gen.source()
    assert gen.distinct_walked("liberties") is not None
    assert gen.distinct_walked("stones") is None and gen.distinct_walked("region") is None
    for name in ("uR_liberties", "uY_liberties"):
        line = next(r for r in source.splitlines() if f" {name}(St& s" in r and r.rstrip().endswith("}"))
        assert "distinct(" not in line and "const bool new_ = !RZ.noted(" in line, name
        assert "(bool)(new_ & (bool)((s.z.size(" in line, name
    line = next(r for r in source.splitlines() if " uY_liberties(St& s" in r and r.rstrip().endswith("}"))
    assert "std::find" not in line


def test_kept_liberties_checked_again_point_their_points_only_where_one_moved():
    # (an entry rechecked for its own group: its points point at it still unless one
    # was pointed elsewhere since it was sealed)
    source = kernel.Gen(kernel_go()).source()
    at = source.index("__attribute__((noinline)) static List<Id> uK_liberties_slow(St& s")
    body = source[at:source.index("\n", at)]
    assert re.search(r"if \(uT_liberties\(s, e, uA_g\)\) \{ e\.epoch = EPOCH; e\.clean = true; bool mv_ = e\.moved; "
                     r"e\.moved = false; e\.nt = 0; e\.lin = s\.z\.lin\.id; if \(mv_\) for \(Id x_ : uA_g\)", body)
    # (carried on for a group a stone joined: the points added alone, all where one moved)
    assert "for (size_t j_ = mv_ ? 0 : e_g_.size(); j_ < uA_g.size(); ++j_) { Id x_ = uA_g[j_];" in body


def test_a_walk_carried_on_copies_the_kept_points_at_once():
    source = kernel.Gen(kernel_go()).source()
    line = next(r for r in source.splitlines() if " uX_stones(St& s" in r and r.rstrip().endswith("}"))
    assert "std::memcpy(found_.v.data(), v0_.begin(), k0_ * sizeof(Id));" in line
    assert "found_.push_back(x_)" not in line
