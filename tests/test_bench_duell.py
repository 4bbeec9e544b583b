"""The hand-written yardstick in benchmarks/hand_duell.py plays Duell der Tiere as the rule file does.

A speed ratio means something only if both sides play the same game. So the yardstick is
played against rulekit's `rules/duell-der-tiere.rules` move by move over many random games:
the same decks, hands and tie-breaker token at the start (read from rulekit's full view),
then at every decision the same player to move and the same legal moves (as texts, and in
the same order), one of them picked at random and applied to both, and at the end the same
scores and winners.
"""
from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import pytest

import rulekit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import hand_duell as hd  # noqa: E402

GAMES = 200
CARD = {text: card for card, text in enumerate(hd.TEXTS)}


def started(seed: int):
    """rulekit's game on `seed` and the yardstick set up from its full view."""
    state = rulekit.load("duell-der-tiere").new_game(players=2, seed=seed)
    view = state.view()
    hand = hd.State(seed, decks=[[CARD[t] for t in deck] for deck in view["decks"]],
                    hands=[[CARD[t] for t in cards] for cards in view["hands"]], tiebreaker=view["tiebreaker"])
    return state, hand


def play_both(seed: int, kinds: Counter) -> None:
    state, hand = started(seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        assert not hand.is_terminal
        assert hand.current_player == state.current_player
        ours, theirs = state.legal_moves(), hand.legal_moves()
        texts = [m.text for m in theirs]
        assert sorted(texts) == sorted(m.text for m in ours), (seed, len(state.history))
        assert texts == [m.text for m in ours]          # the order too (not needed, but it holds)
        assert all(str(m) == m.text for m in theirs)
        move = rng.choice(ours)
        kinds[move.text.split()[0]] += 1
        state.apply(move)
        hand.apply(theirs[texts.index(move.text)])
    assert hand.is_terminal and hand.legal_moves() == []
    assert hand.scores == state.scores
    assert hand.winners == state.winners


def test_the_yardstick_plays_the_rule_file_move_by_move():
    kinds = Counter()
    for seed in range(GAMES):
        play_both(seed, kinds)
    # every kind of decision was met, the Deer's slides and the Raccoon's moves included
    assert set(kinds) == {"choose", "place", "slide", "move"}
    assert min(kinds.values()) > 100


def test_its_own_games_end_with_winners_by_the_tie_breaks():
    out, tied = hd.api_games(60, 3), 0
    assert out["decisions"] >= 60 * 32 and out["seconds"] > 0
    for seed in range(200):
        state, rnd = hd.State(seed), random.Random(seed).random
        while not state.is_terminal:
            moves = state.legal_moves()
            state.apply(moves[int(rnd() * len(moves))])
        assert state.winners and state.current_player is None
        tied += state.scores[0] == state.scores[1]
    assert tied      # some games are decided by the tie-breaks


def test_illegal_moves_are_refused():
    state = hd.State(1)
    with pytest.raises(hd.IllegalMove):
        state.apply(hd.Move(hd.CHOOSE, 0, "choose crow"))      # not one of the listed moves
    state = hd.State(1)
    card = next(c for c in range(hd.CARDS) if not state.hands[0] >> c & 1)
    with pytest.raises(hd.IllegalMove):
        state.apply(hd.CHOICES[card])                       # not in the hand
