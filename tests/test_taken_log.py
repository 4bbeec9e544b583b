"""The cards each seat has taken (`state.taken`) are kept as masks plus a log of the tricks
won since the masks were last read (`State.taken`, `State._won`).

A trick's end appends the trick's (seat, card) pairs and its winner to the log instead of adding its cards to the
winner's mask: most decisions never read the taken cards, so the hot path leaves the work to
the reader. What must hold: every read sees exactly the cards of the tricks each seat won this
round (checked against a model built only from what the public state shows after each move:
which seat's `tricks_won` grew, and `last_trick`), whenever it reads, however reads, clones,
pickles and restores interleave with play, and on every trick game, generated or not.
"""
from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import rulekit

TRICK_GAMES = ("instinct", "insidious-sevens", "examples/heart-hunt.rules", "examples/oh-hell.rules",
               "examples/plain-whist.rules")


def _load(name: str):
    if name.endswith(".rules"):
        return rulekit.load(str(Path(__file__).resolve().parent.parent / name))
    return rulekit.load(name)


GAMES = {name: _load(name) for name in TRICK_GAMES}


class Model:
    """The taken cards as the public state tells them: after a move that ends a trick, the
    seat whose `tricks_won` grew took the cards of `last_trick`; a new round starts empty."""

    def __init__(self, state):
        self.round, self.won = state.round, list(state.tricks_won)
        self.taken = [0] * state.n

    def after(self, state) -> None:
        if state.is_terminal:
            return
        if state.round != self.round:
            self.__init__(state)
            return
        for seat, (before, now) in enumerate(zip(self.won, state.tricks_won)):
            if now == before + 1:
                self.taken[seat] |= sum(1 << card for _, card in state.last_trick)
        self.won = list(state.tricks_won)


def _random_move(state, rng):
    moves = state.legal_moves()
    return moves[rng.randrange(len(moves))]


@pytest.mark.parametrize("name", TRICK_GAMES)
def test_every_read_sees_the_tricks_each_seat_won(name):
    game, rng = GAMES[name], random.Random(5)
    for seed in range(6):
        state = game.new_game(seed=seed)
        model = Model(state)
        while not state.is_terminal:
            state.apply(_random_move(state, rng))
            model.after(state)
            if not state.is_terminal and rng.random() < 0.3:
                assert state.taken == model.taken
                assert not state._won          # a read brings the masks up to date


def test_a_trick_s_end_logs_it_and_a_read_adds_it_to_its_winner():
    """"The player who played the highest card of the led suit wins the trick" (Instinct):
    the trick goes to the log as it is; a read gives the winner its four cards."""
    state, rng = GAMES["instinct"].new_game(players=4, seed=2), random.Random(2)
    while state.tricks_played == 0:
        state.apply(_random_move(state, rng))
    assert state._won == [*state.last_trick, state.leader]
    cards = sum(1 << card for _, card in state.last_trick)
    assert state.taken[state.leader] == cards and sum(state.taken) == cards
    assert state._won == []


def test_clones_keep_their_own_log_and_masks():
    state, rng = GAMES["instinct"].new_game(players=4, seed=3), random.Random(3)
    while state.tricks_played < 3:
        state.apply(_random_move(state, rng))
    other = state.clone()
    assert other._won == state._won and other._won is not state._won
    taken = list(state.taken)                 # the original's read leaves the clone's log
    assert other._won and other.taken == taken
    while other.tricks_played < 5:
        other.apply(_random_move(other, rng))
    assert state.taken == taken and other.taken != taken
    assert all(mine & ~theirs == 0 for mine, theirs in zip(taken, other.taken))


def test_a_restore_or_a_pickle_carries_the_logged_tricks():
    game, rng = GAMES["insidious-sevens"], random.Random(4)
    state = game.new_game(seed=4)
    while state.tricks_played < 2:
        state.apply(_random_move(state, rng))
    view = state.view()                      # the full view reads the taken cards
    state.apply(_random_move(state, rng))
    while state._won == [] and not state.is_terminal:
        state.apply(_random_move(state, rng))
    copy = pickle.loads(pickle.dumps(state))
    assert copy.taken == state.taken and copy.view() == state.view()
    restored = game.restore(view)
    assert restored._won == [] and restored.view() == view


def test_setting_the_taken_cards_drops_the_log():
    state, rng = GAMES["instinct"].new_game(players=3, seed=6), random.Random(6)
    while state.tricks_played < 2:
        state.apply(_random_move(state, rng))
    assert state._won
    state.taken = [0, 0, 0]
    assert state._won == [] and state.taken == [0, 0, 0]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(TRICK_GAMES), st.integers(0, 10_000), st.lists(st.sampled_from("mrcp"), max_size=400))
def test_reads_clones_and_pickles_in_any_order_agree_with_the_model(name, seed, actions):
    """m: a move, r: a read, c: go on with a clone, p: go on with a pickled copy."""
    game, rng = GAMES[name], random.Random(seed)
    state = game.new_game(seed=seed)
    model = Model(state)
    for action in actions:
        if state.is_terminal:
            break
        if action == "m":
            state.apply(_random_move(state, rng))
            model.after(state)
        elif action == "r":
            assert state.taken == model.taken
        elif action == "c":
            state = state.clone()
        else:
            state = pickle.loads(pickle.dumps(state))
    if not state.is_terminal:
        assert state.taken == model.taken
