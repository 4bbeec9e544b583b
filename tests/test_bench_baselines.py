"""The hand-written yardsticks in benchmarks/hand_instinct.py play Instinct as the rule file does.

A speed ratio means something only if both sides play the same game. So the engine behind
the step API is played against rulekit's `rules/instinct.rules` move by move (same hands
each round, same moves): the same legal moves at every decision and the same scores after
every round. The tight loop is played against that engine on one random stream: the same
draws must give the same game, move for move.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import rulekit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import hand_instinct as hi  # noqa: E402


def card_of(text: str) -> int:
    if text == "trump":
        return hi.TRUMP
    suit, rank = text.split()
    return hi.SUITS.index(suit) << 4 | int(rank)


def hands_of(state) -> list[list[list[int]]]:
    hands = []
    for cards in state.view()["hands"]:
        hand = [[], [], [], [], [], []]
        for card in sorted(map(card_of, cards)):
            hand[card >> 4].append(card)
        hands.append(hand)
    return hands


@pytest.mark.parametrize("seed", range(6))
def test_the_step_api_engine_plays_the_rule_file(seed):
    state = rulekit.load("instinct").new_game(players=4, seed=seed)
    hand = hi.State(4, seed, hands=hands_of(state), dealer=state.view()["dealer"])
    rng = random.Random(seed)
    round_ = state.round
    while not state.is_terminal:
        assert hand.current_player == state.current_player
        ours, theirs = state.legal_moves(), hand.legal_moves()
        assert sorted(m.text for m in ours) == sorted(m.text for m in theirs)
        move = rng.choice(ours)
        state.apply(move)
        hand.apply(next(m for m in theirs if m.text == move.text))
        if state.round != round_ and not state.is_terminal:   # a new deal: the same hands for both
            round_ = state.round
            assert hand.scores == state.scores
            assert hand.dealer == state.view()["dealer"]
            hand.hands = hands_of(state)
    assert hand.is_terminal
    assert hand.scores == state.scores


@pytest.mark.parametrize("seed", range(20))
def test_the_tight_loop_plays_the_step_api_engines_game(seed):
    """One random stream for the deal and the decisions: identical draws, identical games."""
    rnd = random.Random(seed).random
    decisions, scores = hi.tight_game(rnd, 4)

    stream = random.Random(seed)
    state = hi.State.__new__(hi.State)
    state.__init__(4, 0)                          # replaced below by the shared stream
    state.rnd = stream.random
    state.scores = [0] * 4
    state.dealer = int(state.rnd() * 4)
    state.is_terminal = False
    state._start_round()
    made = 0
    while not state.is_terminal:
        moves = state.legal_moves()
        state.apply(moves[int(state.rnd() * len(moves))])
        made += 1
    assert (made, state.scores) == (decisions, scores)


def test_illegal_moves_are_refused():
    state = hi.State(4, 1)
    with pytest.raises(hi.IllegalMove):
        state.apply(hi.PLAYS[hi.TRUMP])
