"""The move lists a grid step keeps per hand are bounded: a long run of games meeting ever new
hands (a big deck, large hands, a draft that keeps a few of many) cannot fill memory. When a
step's memo is full it is emptied and its lists are made again: the games are the same."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulekit
from rulekit.engine import grid_steps

GAMES = [("duell-der-tiere", None), (str(Path(__file__).parent / "grid_games" / "meadow.rules"), "draft")]


def _play(name, variant, games):
    """Seeded random games through the public API: their move texts, and the steps' memos' sizes."""
    game = rulekit.load(name, variant=variant)
    texts, largest = [], 0
    for seed in range(games):
        st, rng = game.new_game(seed=seed), random.Random(seed)
        while not st.is_terminal:
            moves = st.legal_moves()
            move = moves[rng.randrange(len(moves))]
            texts.append(move.text)
            st.apply(move)
            largest = max([largest] + [len(step.cache) for step in st.rules.steps
                                       if isinstance(getattr(step, "cache", None), dict)])
    return texts, largest


@pytest.mark.parametrize("name, variant", GAMES)
def test_a_full_memo_is_emptied_and_the_games_stay_the_same(name, variant, monkeypatch):
    expected, unbounded = _play(name, variant, 30)
    assert unbounded > 3                  # the games meet more hands than the small limit below
    monkeypatch.setattr(grid_steps, "_CACHE_LIMIT", 3)
    texts, largest = _play(name, variant, 30)
    assert largest <= 3
    assert texts == expected
