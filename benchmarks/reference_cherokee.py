"""A hand-written Python Cherokee engine: the baseline the interpreter is measured
against, and an independent reading of the rulebook for differential tests.

It plays from a position taken from an interpreter game (so both start alike) and
writes its legal moves in the interpreter's notation, so the two can be compared move
by move. It knows the game; the interpreter does not.
"""
from __future__ import annotations

import random

ROWS = 8


def cell_name(r: int, c: int) -> str:
    return f"r{r}c{c}"


class Cherokee:
    """State: pyramid[(row, col)] -> card index; hands[p] -> list of card indices."""

    def __init__(self, cards, pyramid, hands, clans, active, direction=1, neutral=None,
                 open_clans=False):
        self.cards = cards          # index -> (clan, sex, value, notation)
        self.pyr = dict(pyramid)
        self.hands = [list(h) for h in hands]
        self.clans = clans          # player -> clan
        self.n = len(hands)
        self.active = active
        self.dir = direction
        self.neutral = set(neutral or ())
        self.open = open_clans
        self.passes = 0
        self.discard = []
        self.over = False
        self.turns = 0
        # the decision in progress
        self.stage = None
        self.options: list = []
        self._start_turn()

    # ------------------------------------------------------------ geometry
    @staticmethod
    def beside(r, c):
        return [(r, c2) for c2 in (c - 1, c + 1) if 1 <= c2 <= r]

    @staticmethod
    def below(r, c):
        return [(r + 1, c), (r + 1, c + 1)] if r < ROWS else []

    def may_use(self, clan) -> bool:
        if not self.open:
            return True
        return clan == self.clans[self.active] or clan in self.neutral

    def attackers(self, t):
        tc = self.cards[self.pyr[t]][0]
        out = []
        for a in self.beside(*t) + self.below(*t):
            if a in self.pyr:
                ac = self.cards[self.pyr[a]][0]
                if ac != tc and self.may_use(ac):
                    out.append(a)
        return out

    def wins(self, t, group) -> bool:
        below = set(self.below(*t))
        total = sum(self.cards[self.pyr[a]][2] for a in group)
        defence = self.cards[self.pyr[t]][2] - (1 if any(a in below for a in group) else 0)
        return total > defence

    def attackable(self, t) -> bool:
        att = self.attackers(t)
        by_clan = {}
        for a in att:
            by_clan.setdefault(self.cards[self.pyr[a]][0], []).append(a)
        return any(self.wins(t, g) for g in by_clan.values())

    # ------------------------------------------------------------ the turn
    def _start_turn(self):
        targets = [t for t in sorted(self.pyr, key=lambda x: x) if self.attackable(t)]
        if not targets or not self.hands[self.active]:
            self.passes += 1
            self._end_turn()
            return
        self.passes = 0
        self.stage, self.options = "chase", targets

    def _end_turn(self):
        self.turns += 1
        if all(not h for h in self.hands) or self.passes >= self.n:
            self.over = True
            self.stage, self.options = None, []
            return
        self.active = (self.active + self.dir) % self.n
        self._start_turn()

    def legal(self) -> list[str]:
        if self.stage == "chase":
            return [f"chase {cell_name(*t)}" for t in self.options]
        if self.stage == "with":
            return ["with " + "+".join(cell_name(*a) for a in s) for s in self.options]
        if self.stage == "tie":
            return [f"tie {cell_name(*a)}" for a in self.options]
        if self.stage == "play":
            return [f"play {self.cards[i][3]}" for i in self.options]
        return []

    def apply(self, index: int):
        choice = self.options[index]
        getattr(self, "_after_" + self.stage)(choice)

    def _after_chase(self, t):
        self.target = t
        att = self.attackers(t)
        subsets = []
        for k in range(1, len(att) + 1):
            for combo in _combinations(att, k):
                clans = {self.cards[self.pyr[a]][0] for a in combo}
                if len(clans) == 1 and self.wins(t, combo):
                    subsets.append(list(combo))
        self.stage, self.options = "with", sorted(subsets, key=lambda s: (len(s), s))

    def _key(self, cell):
        _clan, sex, value, _ = self.cards[self.pyr[cell]]
        return (value, sex == "woman")

    def _after_with(self, group):
        t = self.target
        self.discard.append(self.pyr.pop(t))
        best = max(self._key(a) for a in group)
        leader = next(a for a in group if self._key(a) == best)
        self.pyr[t] = self.pyr.pop(leader)
        self.gap = leader
        self._cascade()

    def _cascade(self):
        while self.gap[0] < ROWS:
            succ = self.below(*self.gap)
            keys = [self._key(s) for s in succ]
            if keys[0] == keys[1]:
                self.stage, self.options = "tie", succ
                return
            s = succ[0] if keys[0] > keys[1] else succ[1]
            self._fill(s)
        self.stage, self.options = "play", sorted(self.hands[self.active])

    def _fill(self, s):
        self.pyr[self.gap] = self.pyr.pop(s)
        self.gap = s

    def _after_tie(self, s):
        self._fill(s)
        self._cascade()

    def _after_play(self, card):
        self.hands[self.active].remove(card)
        self.pyr[self.gap] = card
        self._end_turn()

    # ------------------------------------------------------------ scores
    def scores(self):
        out = []
        for p in range(self.n):
            out.append(sum(ROWS - r for (r, c), i in self.pyr.items() if self.cards[i][0] == self.clans[p]))
        return out


def _combinations(xs, k):
    if k == 0:
        yield ()
        return
    for i in range(len(xs)):
        for rest in _combinations(xs[i + 1:], k - 1):
            yield (xs[i],) + rest


def from_game(game) -> Cherokee:
    """A reference engine in the same position as an interpreter game at turn start."""
    prog, R = game.program, game.R
    cards = {it.id: (it.attrs.get("clan"), it.attrs.get("sex"), it.attrs.get("value"), it.notation)
             for it in prog.items}
    pyramid, hands, clans, neutral = {}, [[] for _ in range(R.n_players)], [None] * R.n_players, []
    for z in prog.zones:
        items = R.zones[z.id]
        if z.cell is not None and items:
            pyramid[(z.cell.coords["row"], z.cell.coords["col"])] = items[-1]
        elif z.name == "hand" and z.owner is not None and z.owner < R.n_players:
            hands[z.owner] = list(items)
        elif z.name == "clan" and z.owner is not None and z.owner < R.n_players:
            clans[z.owner] = cards[items[-1]][0]
        elif z.name == "neutral":
            neutral = [cards[i][0] for i in items]
    return Cherokee(cards, pyramid, hands, clans, R.active, prog.direction, neutral,
                    open_clans="open_clans" in prog.variants)


def random_game(seed: int, players: int = 3, deck=None) -> Cherokee:
    """A complete game dealt by this engine's own shuffle (for the speed baseline)."""
    rnd = random.Random(seed)
    clans = ["birds", "blue", "wild_potato", "deer", "wolf", "long_hair"]
    cards = {}
    i = 0
    for sex, lo in (("man", 4), ("woman", 3)):
        for c in clans:
            for v in range(lo, lo + 6):
                cards[i] = (c, sex, v, f"{c}-{sex}-{v}")
                i += 1
    order = list(cards)
    rnd.shuffle(order)
    pyramid = {}
    for r in range(1, ROWS + 1):
        for c in range(1, r + 1):
            pyramid[(r, c)] = order.pop()
    hands = [order[p::players] for p in range(players)]
    secret = rnd.sample(clans, players)
    return Cherokee(cards, pyramid, hands, secret, rnd.randrange(players))
