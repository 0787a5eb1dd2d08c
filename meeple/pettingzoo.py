"""Every Meeple ruleset as a PettingZoo AEC environment (see docs/api.md, "PettingZoo").

    from meeple import pettingzoo
    env = pettingzoo.env("kalah")
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else \\
            env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Agents are ``player_0`` ... (seat 0 ...). An observation is a dict: ``observation``, the
seat's view as a tensor (``meeple.openspiel.Encoding``), and ``action_mask``, its legal
actions over the fixed action space (``meeple.openspiel.ActionSpace``). The seats
deciding now take turns as agents (each seat of a simultaneous decision in turn: none
sees the others' choices, which its view does not show). Rewards are given once, when
the game ends (``returns``: ``"outcomes"``, ``"scores"`` or ``"payoffs"``, as for OpenSpiel). Games are
played in Meeple's seeded mode: ``reset(seed=s)`` plays the game of seed ``s``, by the
ruleset's kernel where one can be built here (``native``: ``openspiel.played_program``).
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from meeple import interpreter
from meeple.interpreter.play import views
from meeple.openspiel import (
    MAX_MOVES,
    ActionSpace,
    Encoding,
    check_returns,
    default_returns,
    played_program,
    returns_of,
)


def env(ruleset, players: int | None = None, variants=(), locale: str | None = None,
        returns: str | None = None, max_moves: int = MAX_MOVES, render_mode: str | None = None,
        native: bool = True):
    """A ruleset (a bundled name, a path or a loaded ``Ruleset``) as an AEC environment,
    wrapped as PettingZoo's own games are (an illegal action ends the game with a penalty
    for the agent that played it; stepping out of order is an error). ``native``: the
    games are played by the ruleset's kernel where one can be built (the same games)."""
    e = raw_env(ruleset, players, variants, locale, returns, max_moves, render_mode, native)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """The unwrapped environment (see ``env``)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "meeple", "is_parallelizable": False}

    def __init__(self, ruleset, players: int | None = None, variants=(), locale: str | None = None,
                 returns: str | None = None, max_moves: int = MAX_MOVES, render_mode: str | None = None,
                 native: bool = True):
        super().__init__()
        if isinstance(ruleset, str):
            ruleset = interpreter.load(ruleset, variants, locale)
        returns = returns or default_returns(ruleset)
        check_returns(ruleset, returns)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.ruleset, self.mode, self.render_mode = ruleset, returns, render_mode
        self.program = ruleset.for_players(players or ruleset.default_players)
        self.metadata = dict(self.metadata, name=f"meeple_{ruleset.name}")
        self.space = ActionSpace(self.program, max_moves)
        self.encoding = Encoding(self.program)
        self.possible_agents = [f"player_{s}" for s in range(self.program.n)]
        obs = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.encoding.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.space.size,), np.int8)})
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs)
        self.action_spaces = {a: spaces.Discrete(self.space.size) for a in self.possible_agents}
        self.game = None
        self.native, self._played = native, None
        self._seeds = np.random.default_rng()

    @property
    def played(self):
        """The program the games are played by (``played_program``: made at the first reset)."""
        if self._played is None:
            self._played = played_program(self.ruleset, self.program.n, self.native)
        return self._played

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------ playing
    def reset(self, seed: int | None = None, options=None):
        """A new game: the game of ``seed``; without one, of a seed drawn from the
        environment's generator (itself seeded by the last seed given)."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        else:
            seed = int(self._seeds.integers(2 ** 31))
        self.game = self.played.new_game(self.program.n, seed=seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        g = self.game
        if g.over:
            self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]
        else:
            self.agent_selection = self.possible_agents[g.deciding[0]]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.space.size, np.int8)
        if self.game is not None and seat in self.game.deciding:
            mask[list(self.space.moves(self.game, seat))] = 1
        return {"observation": self.encoding.encode(views.view(self.game, seat), self.game),
                "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        moves = self.space.moves(self.game, seat)
        if action not in moves:
            raise ValueError(f"action {action} is not legal for {agent} now")
        self._cumulative_rewards[agent] = 0.0
        self.game.apply(moves[action])
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.game.over:
            for a, r in zip(self.possible_agents, returns_of(self.game.result, self.program.n, self.mode)):
                self.rewards[a] = r
                self.terminations[a] = True
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ------------------------------------------------------------ drawing
    def render(self):
        """The board as ``meeple play`` draws it for a spectator (what everyone may
        see), with the result once the game is over: printed (``"human"``) or returned
        as text (``"ansi"``)."""
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("render() without a render_mode: give env(..., render_mode='ansi')")
            return None
        from meeple.cli import layout, render
        out = render.console(record=True, width=100, file=_Null())
        for part in layout.full_parts(self.program, views.view(self.game, views.SPECTATOR),
                                      views.SPECTATOR, None):
            out.print(part)
        if self.game.over:
            out.print(render.result_table(self.program, self.game.result))
        text = out.export_text()
        if self.render_mode == "ansi":
            return text
        print(text, end="")
        return None

    def close(self):
        pass


class _Null:
    """A file that drops what is written (the console records it)."""

    def write(self, s):
        return len(s)

    def flush(self):
        pass
