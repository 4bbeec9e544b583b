"""Any rule file as a PettingZoo AEC environment: `env(game, players=..., variant=...)`.

Pipeline place: api → **envs**. Needs the extra: `pip install "rulekit-cards[pettingzoo]"`.

- Agents are `player_0` .. `player_{n-1}` (seat numbers); the agent to act is the engine's
  current player.
- Observations are `{"observation": float32 array, "action_mask": int8 array}`: the seat's
  observation (`state.observation(seat)`, layout in `rulekit.engine.observe`) followed by one
  slot per action marking the parts chosen so far of a move made in parts; the mask covers
  the game's fixed action space (`game.actions(players)`) and is all zero for an agent not
  to act.
- A move that picks several cards (a pass) is one action per card: the same agent acts
  again until its last card is chosen, then the move is made.
- Rewards: each seat's score change after every move (scores change at the end of a
  round), and at the end of the game the result: +1 for a winner, -1 for the others (0 for
  all when every seat wins). `rewards="score"` or `"result"` keeps one of the two.
- `reset(seed=s)` deals the game of `game.new_game(players, seed=s)`; a later `reset()`
  without a seed deals the next game of a sequence that `s` fixes.
- `render()` gives the current position as text (`render_mode="ansi"` returns it,
  `"human"` prints it). `max_moves` truncates long games.
"""
from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ._table import Table, load, render

REWARDS = ("score+result", "score", "result")


def env(game, players: int | None = None, variant=None, *, render_mode: str | None = None,
        rewards: str = "score+result", max_moves: int | None = None) -> "RulekitEnv":
    """An AEC environment for a game: a `rulekit.Game`, a bundled name or a rule file's path."""
    return RulekitEnv(game, players, variant, render_mode=render_mode, rewards=rewards, max_moves=max_moves)


class RulekitEnv(AECEnv):
    """A rulekit game as a PettingZoo AEC environment (see the module docstring)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "rulekit_v0", "is_parallelizable": False}

    def __init__(self, game, players=None, variant=None, *, render_mode=None, rewards="score+result",
                 max_moves=None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        if rewards not in REWARDS:
            raise ValueError(f"rewards must be one of {', '.join(REWARDS)}, not {rewards!r}")
        self.game = load(game, variant)
        self.table = Table(self.game, self.game.checked_players(players))
        self.render_mode, self.reward_mode, self.max_moves = render_mode, rewards, max_moves
        self.metadata = dict(self.metadata, name=f"rulekit_{_slug(self.game.name)}_v0")
        self.possible_agents = [f"player_{seat}" for seat in range(self.table.n)]
        actions = len(self.table.space)
        observation = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.table.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), np.int8),
        })
        self._observation_spaces = {a: observation for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self._seeds = random.Random()

    def observation_space(self, agent):
        return self._observation_spaces[agent]

    def action_space(self, agent):
        return self._action_spaces[agent]

    # ---- the AEC protocol -------------------------------------------------------------------

    def reset(self, seed=None, options=None):
        if seed is not None:                 # the game of `new_game(seed=seed)`; later resets go on from it
            self._seeds = random.Random(seed)
            self.table.start(int(seed))
        else:
            self.table.start(self._seeds.randrange(2**63))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.moves = 0
        self.agent_selection = self.possible_agents[self.table.state.current_player]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        mask = np.zeros(len(self.table.space), dtype=np.int8)
        state = self.table.state
        if not state.is_terminal and seat == state.current_player and agent in self.agents \
                and not (self.terminations[agent] or self.truncations[agent]):
            mask[self.table.legal()] = 1
        return {"observation": self.table.observation(seat), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.table.state
        before = list(state.scores)
        self._cumulative_rewards[agent] = 0
        made = self.table.act(int(action))
        self.moves += made
        self.rewards = {a: 0 for a in self.agents}
        if made:
            self._score_rewards(before, state)
        if state.is_terminal:
            self.terminations = {a: True for a in self.agents}
        elif self.max_moves is not None and self.moves >= self.max_moves:
            self.truncations = {a: True for a in self.agents}
        if state.is_terminal or self.truncations[agent]:
            self.agent_selection = self.agents[(self.agents.index(agent) + 1) % len(self.agents)]
        else:
            self.agent_selection = self.possible_agents[state.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _score_rewards(self, before, state) -> None:
        for seat, agent in enumerate(self.possible_agents):
            reward = 0
            if self.reward_mode != "result":
                reward += state.scores[seat] - before[seat]
            if state.is_terminal and self.reward_mode != "score" and len(state.winners) < state.n:
                reward += 1 if seat in state.winners else -1
            self.rewards[agent] = reward

    def render(self):
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("render() needs a render_mode: env(..., render_mode='ansi' or 'human')")
            return None
        text = render(self.table.state.view())
        if self.table.chosen:
            text += "\nchosen so far: " + ", ".join(self.table.space[a] for a in self.table.chosen)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        """Nothing to release: the game lives in this process and draws nothing."""


def _slug(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name)
