"""A tiny Monte Carlo agent: try every legal move in sampled worlds, keep the best on average.

    python examples/search_agent.py [seed]

The agent sees only its seat's handle, `state.for_seat(seat)`: its view, its legal moves,
and `determinize()`, which samples a *world* — a full state the seat cannot tell apart from
the real one, consistent with everything it has seen (cards passed, suits others showed
they lack). In each world it `clone()`s the state once per legal move, makes the move,
plays the rest of the round at random and notes what the round scored for its seat.
`rulekit.agents` has this agent (`FlatMonteCarloAgent`) and a stronger one (`ISMCTSAgent`).
"""
from __future__ import annotations

import random
import sys

import rulekit

WORLDS = 16         # sampled deals per decision
ROUNDS = 3          # rounds to play in this demo


def sample_world(handle, rng: random.Random):
    """A full state the seat cannot tell apart from the real one (hidden cards dealt again)."""
    return handle.determinize(rng)


def rollout(state, seat: int, rng: random.Random) -> int:
    """Play at random to the end of the round; return the points `seat` scored in it."""
    start_round, before = state.round, state.scores[seat]
    while not state.is_terminal and state.round == start_round:
        state.apply(rng.choice(state.legal_moves()))
    return state.scores[seat] - before


def monte_carlo_move(handle, rng: random.Random):
    seat = handle.seat
    moves = handle.legal_moves()
    if len(moves) == 1:
        return moves[0]
    totals = [0] * len(moves)
    for _ in range(WORLDS):
        world = sample_world(handle, rng)
        for index, move in enumerate(moves):
            trial = world.clone()                  # independent copy: the world is untouched
            trial.apply(move.text)
            totals[index] += rollout(trial, seat, rng)
    return moves[max(range(len(moves)), key=totals.__getitem__)]


def main(seed: int = 3) -> None:
    game = rulekit.load("instinct")
    state = game.new_game(players=3, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal and state.round <= ROUNDS:
        if state.current_player == 0:
            move = monte_carlo_move(state.for_seat(0), rng)
        else:
            move = rng.choice(state.legal_moves())
        state.apply(move)
    print(f"after {ROUNDS} rounds of {game.title}, 3 players:")
    print("scores:", state.scores, "(seat 0 searches; seats 1 and 2 play at random)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
