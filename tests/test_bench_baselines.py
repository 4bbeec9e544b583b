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


def _cards_of_mask(mask: int) -> list[int]:
    import hand_instinct_masks as hm

    return [hm.MOVE_OF[i].arg for i in range(66) if mask >> i & 1]


def _cards_of_suits(masks: list[int]) -> list[int]:
    return [suit << 4 | rank + 1 for suit in range(5) for rank in range(12) if masks[suit] >> rank & 1] + \
        [hi.TRUMP] * masks[hi.TRUMP_SUIT].bit_count()


@pytest.mark.parametrize("layout", ["State", "SuitState"])
@pytest.mark.parametrize("seed", range(8))
def test_the_mask_engines_play_the_list_engines_game(seed, layout):
    """benchmarks/hand_instinct_masks.py changes only how hands are held (66-bit masks, or a
    small mask per suit): on one seed it deals the same hands, lists the same legal moves
    at every decision (in id order, where the list engine keeps deal order) and ends with
    the same scores."""
    import hand_instinct_masks as hm

    cards_of = _cards_of_mask if layout == "State" else _cards_of_suits
    lists, masks = hi.State(4, seed), getattr(hm, layout)(4, seed)
    rng = random.Random(seed)
    while not lists.is_terminal:
        assert masks.current_player == lists.current_player and masks.bidding == lists.bidding
        for hand, mask in zip(lists.hands, masks.hands):
            assert sorted(cards_of(mask)) == sorted(card for bucket in hand for card in bucket)
        ours, theirs = lists.legal_moves(), masks.legal_moves()
        assert sorted(m.text for m in ours) == sorted(m.text for m in theirs)
        move = rng.choice(ours)
        lists.apply(move)
        masks.apply(move)                     # the moves are the same interned objects
    assert masks.is_terminal and masks.scores == lists.scores


@pytest.mark.parametrize("layout", ["State", "SuitState"])
def test_the_mask_engines_refuse_illegal_moves(layout):
    import copy

    import hand_instinct_masks as hm

    state = getattr(hm, layout)(4, 1)
    with pytest.raises(hi.IllegalMove):
        state.apply(hi.PLAYS[hi.TRUMP])       # a bid is due
    before = copy.deepcopy(state.hands)
    for _ in range(4):
        state.apply(state.legal_moves()[0])
    led = state.legal_moves()[0]
    state.apply(led)
    follow = state.legal_moves()
    stranger = next(m for m in hi.PLAYS.values() if m not in follow)
    with pytest.raises(hi.IllegalMove):
        state.apply(stranger)
    assert state.hands[state.current_player] == before[state.current_player]
