"""The agent protocol, the random agent, and building agents from their short names.

Pipeline place: api → **agents**. Shared by the search agents: random play-outs and the
reward a finished play-out gives each seat.
"""
from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from ..errors import RulekitError


class AgentError(RulekitError, ValueError):
    """An agent name or option that does not exist (`make_agent`, `--agents`)."""


@runtime_checkable
class Agent(Protocol):
    """Plays one seat: `choose` gets the seat's handle (`state.for_seat(seat)`) when the
    seat is to move and returns one of `handle.legal_moves()`."""

    name: str

    def choose(self, handle):
        ...


class RandomAgent:
    """A legal move drawn uniformly. Deterministic for a seed."""

    def __init__(self, seed=None):
        self.name = "random"
        self.rng = random.Random(seed)

    def choose(self, handle):
        moves = handle.legal_moves()
        return moves[self.rng.randrange(len(moves))]


def to_the_end(state) -> bool:
    """Whether play-outs run to the end of the game: when rounds score nothing (the rule
    file has only a final score); otherwise to the end of the round."""
    return state.rules.score is None


def rollout(state, rng: random.Random, scores_before: list[int], start_round: int | None = None,
            whole_game: bool | None = None) -> list[float]:
    """Play `state` on at random until the round `start_round` (default: the current one)
    is over, or the game when `whole_game` (default: `to_the_end`); then each seat's reward
    in [0, 1] (`reward`). The random moves are made inside the engine (`state.playout`,
    seeded from `rng`): no round trip through the API per decision."""
    if whole_game is None:
        whole_game = to_the_end(state)
    if start_round is None:
        start_round = state.round
    if not state.is_terminal and (whole_game or state.round == start_round):
        state.playout(seed=rng.getrandbits(64), round_only=not whole_game)
    return reward(state, scores_before)


def reward(state, scores_before: list[int]) -> list[float]:
    """A seat's reward: its share of the win when the game is over; otherwise the share of
    the other seats whose score grew less than its own since the search began (ties
    count half). Scale-free, so any rule file's scores work."""
    n = state.n
    if state.is_terminal:
        winners = state.winners
        share = 1.0 / len(winners) if winners else 0.0
        return [share if seat in winners else 0.0 for seat in range(n)]
    gains = [after - before for after, before in zip(state.scores, scores_before)]
    if n == 1:
        return [1.0 if gains[0] > 0 else 0.5]
    out = []
    for seat in range(n):
        beaten = sum(1.0 if gains[seat] > g else 0.5 if gains[seat] == g else 0.0
                     for other, g in enumerate(gains) if other != seat)
        out.append(beaten / (n - 1))
    return out


def _number(text: str, kind, name: str):
    try:
        value = kind(text)
    except ValueError:
        raise AgentError(f"agent {name!r}: {text!r} is not a number") from None
    if value <= 0:
        raise AgentError(f"agent {name!r}: the budget must be positive")
    return value


def make_agent(spec: str, seed=None):
    """An agent from its short name: `random`, `flatmc[:N]` (N samples per move),
    `ismcts[:N]` (N iterations a decision) or `ismcts:0.5s` (a time budget)."""
    from .search import FlatMonteCarloAgent, ISMCTSAgent

    if not isinstance(spec, str):
        raise AgentError(f"an agent is named by a string, not {type(spec).__name__}")
    name, _, option = spec.strip().lower().partition(":")
    if name == "random":
        if option:
            raise AgentError("agent 'random' takes no option")
        return RandomAgent(seed)
    if name == "flatmc":
        return FlatMonteCarloAgent(samples=_number(option, int, name) if option else 16, seed=seed)
    if name == "ismcts":
        if option.endswith("s"):
            return ISMCTSAgent(seconds=_number(option[:-1], float, name), seed=seed)
        return ISMCTSAgent(iterations=_number(option, int, name) if option else 200, seed=seed)
    raise AgentError(f"no agent {name!r}: agents are {', '.join(AGENTS)}")


#: The agents `make_agent` knows, with what their option means.
AGENTS = {"random": "a uniformly random legal move",
          "flatmc": "flat Monte Carlo: flatmc:N samples per legal move (default 16)",
          "ismcts": "information-set MCTS: ismcts:N iterations (default 200) or ismcts:0.5s"}


def parse_agents(text: str) -> list[str]:
    """`random,ismcts:100` -> the names, each checked (an AgentError names a bad one)."""
    names = [part.strip() for part in str(text).split(",") if part.strip()]
    if not names:
        raise AgentError("name at least one agent")
    for name in names:
        make_agent(name, 0)
    return names
