"""The game's only source of randomness: SplitMix64, whose whole state is one integer
kept in the game state, so a record (seed + moves) replays exactly on any machine. The
random bots draw from a generator of their own of the same kind (``pick``)."""
from __future__ import annotations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """The generator state for a user seed (any integer)."""
    _, out = next_u64(seed & MASK)
    return out


def next_u64(state: int) -> tuple[int, int]:
    """Returns (new state, a uniformly random 64-bit integer)."""
    state = (state + GOLDEN) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Returns (new state, a uniform integer in 0..n-1), without modulo bias."""
    limit = _LIMITS[n] if 0 < n < _TABLED else ((1 << 64) // n) * n
    while True:
        # (next_u64, in place)
        state = (state + GOLDEN) & MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        if z < limit:
            return state, z % n


def pick(state: int, n: int) -> tuple[int, int]:
    """Returns (new state, a uniform integer in 0..n-1) as a random bot draws its move
    among ``n`` (bots.RandomBot, the playouts' seats): the top ``k`` bits of the next
    64-bit output, ``k`` the bit length of ``n - 1``, drawn again until below ``n``
    (no division: the kernels draw so too); for ``n == 1``, 0 and nothing drawn."""
    if n <= 1:
        if n == 1:
            return state, 0
        raise ValueError(f"no move to pick among {n}")
    shift = 64 - (n - 1).bit_length()
    while True:
        # (next_u64, in place)
        state = (state + GOLDEN) & MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        r = (z ^ (z >> 31)) >> shift
        if r < n:
            return state, r


def shuffle(state: int, items: list) -> int:
    """Fisher-Yates shuffle in place; returns the new state."""
    limits, mask, golden = _LIMITS, MASK, GOLDEN
    for i in range(len(items) - 1, 0, -1):
        # (state, j = below(state, i + 1), in place: a deck's shuffle draws once per card)
        n = i + 1
        limit = limits[n] if n < _TABLED else ((1 << 64) // n) * n
        while True:
            state = (state + golden) & mask
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        items[i], items[j] = items[j], items[i]
    return state


# the largest multiple of n that a 64-bit draw stays below to be kept, for small n
_TABLED = 1024
_LIMITS = [0] + [((1 << 64) // n) * n for n in range(1, _TABLED)]
