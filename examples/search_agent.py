"""A tiny Monte Carlo agent: try every legal move in sampled worlds, keep the best on average.

    python examples/search_agent.py [seed]

For each decision the agent samples a few *worlds*: the full state with the cards it cannot
see (the other hands and the undealt cards) shuffled among their owners, rebuilt with
`game.restore`. In each world it `clone()`s the state once per legal move, makes the move,
plays the rest of the round at random and notes what the round scored for its seat.
`clone()` is a few list copies, so this stays fast; seeded, so the run is reproducible.
"""
from __future__ import annotations

import random
import sys

import rulekit

WORLDS = 16         # sampled deals per decision
ROUNDS = 3          # rounds to play in this demo


def sample_world(game, state, seat: int, rng: random.Random):
    """The state with every card hidden from `seat` dealt again at random (sizes kept)."""
    view = state.view()                       # the full truth; only card *counts* are used below
    others = [p for p in range(view["players"]) if p != seat]
    unseen = [card for p in others for card in view["hands"][p]] + view["undealt"]
    rng.shuffle(unseen)
    for p in others:
        size = len(view["hands"][p])
        view["hands"][p], unseen = unseen[:size], unseen[size:]
    view["undealt"] = unseen
    return game.restore(view)


def rollout(state, seat: int, rng: random.Random) -> int:
    """Play at random to the end of the round; return the points `seat` scored in it."""
    start_round, before = state.round, state.scores[seat]
    while not state.is_terminal and state.round == start_round:
        state.apply(rng.choice(state.legal_moves()))
    return state.scores[seat] - before


def monte_carlo_move(game, state, rng: random.Random):
    seat = state.current_player
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    totals = [0] * len(moves)
    for _ in range(WORLDS):
        world = sample_world(game, state, seat, rng)
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
            move = monte_carlo_move(game, state, rng)
        else:
            move = rng.choice(state.legal_moves())
        state.apply(move)
    print(f"after {ROUNDS} rounds of {game.title}, 3 players:")
    print("scores:", state.scores, "(seat 0 searches; seats 1 and 2 play at random)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
