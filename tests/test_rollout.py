"""Search play-outs run inside the engine (issue 16: "ISMCTS and `rulekit check` use
[`state.playout`]"): a rollout is `state.playout` seeded from the agent's generator, so it
costs no API round trip per decision and replays move for move through the API."""
from __future__ import annotations

import random

import rulekit
from rulekit.agents import ISMCTSAgent
from rulekit.agents.base import rollout


def test_a_rollout_is_a_playout_to_the_end_of_the_round_seeded_from_the_agents_generator():
    game = rulekit.load("instinct")
    state = game.new_game(players=3, seed=4)
    twin = state.clone()
    rewards = rollout(state, random.Random(9), list(state.scores))
    twin.playout(seed=random.Random(9).getrandbits(64), round_only=True)
    assert state.history == twin.history and state.round == 2 and not state.is_terminal
    assert len(rewards) == 3 and all(0.0 <= r <= 1.0 for r in rewards)


def test_a_rollout_of_a_game_scored_at_the_end_plays_to_the_end():
    game = rulekit.load("duell-der-tiere")
    state = game.new_game(players=2, seed=1)
    rewards = rollout(state, random.Random(2), list(state.scores), whole_game=True)
    assert state.is_terminal and sorted(rewards) in ([0.0, 1.0], [0.5, 0.5])


def test_a_rollout_that_starts_after_its_round_makes_no_move():
    state = rulekit.load("instinct").new_game(players=3, seed=4)
    state.playout(seed=1, round_only=True)
    made = len(state.history)
    rollout(state, random.Random(3), list(state.scores), start_round=1)
    assert len(state.history) == made


def test_ismcts_stays_deterministic_for_a_seed():
    game = rulekit.load("insidious-sevens")
    chosen = []
    for _ in range(2):
        state = game.new_game(players=3, seed=5)
        chosen.append(ISMCTSAgent(12, seed=7).choose(state.for_seat(state.current_player)).text)
    assert chosen[0] == chosen[1]
