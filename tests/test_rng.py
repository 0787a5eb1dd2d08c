"""The game's generator (interpreter/play/rng.py): ``below`` and ``shuffle`` draw in place what
the plain definitions draw (every record and seed replays through them)."""
import pytest
from hypothesis import given, settings, strategies as st
from meeple.interpreter.play import rng

MASK = (1 << 64) - 1


def plain_below(state: int, n: int) -> tuple[int, int]:
    limit = ((1 << 64) // n) * n
    while True:
        state, z = rng.next_u64(state)
        if z < limit:
            return state, z % n


def plain_shuffle(state: int, items: list) -> int:
    for i in range(len(items) - 1, 0, -1):
        state, j = plain_below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


@settings(max_examples=300, deadline=None)
@given(st.integers(0, MASK), st.integers(1, 5000))
def test_below_draws_as_the_plain_definition(state, n):
    assert rng.below(state, n) == plain_below(state, n)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, MASK), st.lists(st.integers(), max_size=1100))
def test_shuffle_draws_as_the_plain_definition(state, items):
    mine, plain = list(items), list(items)
    assert rng.shuffle(state, mine) == plain_shuffle(state, plain)
    assert mine == plain


def test_a_draw_that_is_thrown_away_draws_again():
    # n just above 2**63: almost half the 64-bit draws are at or above the limit
    n = (1 << 63) + 1
    states = [s for s in range(200) if rng.next_u64(s)[1] >= ((1 << 64) // n) * n]
    assert states, "no state whose first draw is thrown away"
    for s in states[:20]:
        assert rng.below(s, n) == plain_below(s, n)
        assert rng.below(s, n)[0] != rng.next_u64(s)[0]  # a second draw was made


def test_below_nothing_is_an_error():
    with pytest.raises(ZeroDivisionError):
        rng.below(1, 0)


def test_a_known_stream():
    # the draws of seed 42, as the plain definitions made them (records replay them)
    state = rng.seed_state(42)
    deck = list(range(10))
    state = rng.shuffle(state, deck)
    assert deck == [4, 6, 7, 0, 9, 5, 1, 2, 3, 8]
    assert state == 5605426464406752082
    assert rng.below(state, 6) == (17006141283729950567, 2)
