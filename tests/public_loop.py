"""The public loop of the performance issue, for tests: a playout must make exactly its moves.

`state.playout(seed)` promises the moves of `moves = state.legal_moves();
state.apply(moves[rng.randrange(len(moves))])` with `rng = random.Random(seed)`; the
generated steps' walks (`compile/codegen*.py`) are tested against it game by game.
"""
from __future__ import annotations

import random


def assert_playout_makes_the_public_loop_moves(game, players: int, seed: int) -> None:
    """A playout and the public loop, from the same seeded start, reach the same game."""
    ours, theirs = game.new_game(players, seed=seed), game.new_game(players, seed=seed)
    made = ours.playout(seed=seed)
    rng = random.Random(seed)
    while not theirs.is_terminal:
        legal = theirs.legal_moves()
        theirs.apply(legal[rng.randrange(len(legal))])
    assert ours.history == theirs.history and made == len(theirs.history)
    assert ours.view() == theirs.view() and ours.winners == theirs.winners
