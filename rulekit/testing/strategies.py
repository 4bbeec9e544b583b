"""Hypothesis strategies over games: states reached by legal play, whole games, moves.

Pipeline place: api → **testing** (strategies) → your property tests. Every state is reached
by legal moves from a seeded new game, so a failing example is a seed and a move list; the
strategies draw each move's index, so Hypothesis shrinks towards fewer moves and earlier
choices in the legal list, and the shrunk example replays with
`game.new_game(players, seed)` and `state.apply` of `state.history`: each strategy
`note()`s exactly that, so a failing test prints the seed and the moves.
"""
from __future__ import annotations

import random

import attrs
from hypothesis import note
from hypothesis import strategies as st

#: Moves `states` plays at most, unless told otherwise.
MAX_MOVES = 200


def player_counts(game, players=None):
    """A player count: from `players` (an int or a list), or any count the game allows."""
    if players is None:
        return st.sampled_from(list(game.players))
    if isinstance(players, int):
        return st.just(players)
    return st.sampled_from(list(players))


def seeds():
    return st.integers(min_value=0, max_value=2**32 - 1)


def moves(state):
    """A legal move of `state` (shrinks towards the first in `legal_moves()`)."""
    return st.sampled_from(state.legal_moves())


@st.composite
def states(draw, game, players=None, max_moves: int = MAX_MOVES, min_moves: int = 0):
    """A state reached from a seeded new game by up to `max_moves` legal moves.

    The state's `history` and `seed` replay it. It may be a finished game when the game is
    shorter than `max_moves`.
    """
    count = draw(player_counts(game, players))
    seed = draw(seeds())
    state = game.new_game(players=count, seed=seed)
    wanted = draw(st.integers(min_value=min_moves, max_value=max_moves))
    for _ in range(wanted):
        if state.is_terminal:
            break
        legal = state.legal_moves()
        state.apply(legal[draw(st.integers(min_value=0, max_value=len(legal) - 1))])
    note(_replay_note(count, seed, state.history))
    return state


def _replay_note(players: int, seed: int, moves) -> str:
    """What Hypothesis prints with a failing example: the state's seed and moves, to replay."""
    return (f"state = game.new_game(players={players}, seed={seed}); "
            f"for move in {list(moves)!r}: state.apply(move)")


@attrs.frozen
class Playout:
    """A whole game: its rules, player count, seed and the move texts that were played."""
    game: object
    players: int
    seed: int
    moves: tuple[str, ...]

    def steps(self):
        """`(before, move, after)` for every move; `before` and `after` are independent states."""
        state = self.game.new_game(players=self.players, seed=self.seed)
        for move in self.moves:
            before = state.clone()
            state.apply(move)
            yield before, move, state.clone()

    @property
    def final(self):
        """The state at the end of the game."""
        state = self.game.new_game(players=self.players, seed=self.seed)
        for move in self.moves:
            state.apply(move)
        return state


@st.composite
def playouts(draw, game, players=None, max_moves: int = 200_000):
    """A whole game played with random legal moves (shrinks towards seed 0 and its games).

    Play stops early only when a game breaks its own rules: no legal move, or more than
    `max_moves` moves; `Playout.final.is_terminal` then says so.
    """
    count = draw(player_counts(game, players))
    seed = draw(seeds())
    rng = random.Random(draw(seeds()))
    state = game.new_game(players=count, seed=seed)
    played = []
    while not state.is_terminal and len(played) < max_moves:
        legal = state.legal_moves()
        if not legal:
            break
        played.append(rng.choice(legal).text)
        state.apply(played[-1])
    note(_replay_note(count, seed, played))
    return Playout(game, count, seed, tuple(played))
