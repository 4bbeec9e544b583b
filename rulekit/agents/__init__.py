"""Agents: programs that play a seat, for any rule file.

Pipeline place: api → **agents** → simulate / cli. An agent receives the seat's read-only
handle, `state.for_seat(seat)` (what the seat may see, its legal moves, `determinize()`),
and returns one of its legal moves. It never sees the real state, so it cannot cheat.

    from rulekit.agents import ISMCTSAgent
    agent = ISMCTSAgent(iterations=200, seed=1)
    move = agent.choose(state.for_seat(state.current_player))

`make_agent("ismcts:200", seed)` builds one from the short names the CLI takes.
"""
from .base import Agent, RandomAgent, make_agent, AGENTS, parse_agents
from .search import FlatMonteCarloAgent, ISMCTSAgent

__all__ = ["Agent", "RandomAgent", "FlatMonteCarloAgent", "ISMCTSAgent", "make_agent", "parse_agents",
           "AGENTS"]
