"""`state.playout(seed)`: random play inside the engine, move for move the public loop's
(contract: shared/design/architecture.md, "Additions")."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulekit

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").rglob("*.rules"))
GAMES = [(name, None) for name in rulekit.bundled()] + [(str(p), None) for p in EXAMPLES]


def _public_loop(state, seed, round_only=False):
    rng = random.Random(seed)
    start = state.round
    while not state.is_terminal and not (round_only and state.round != start):
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])


@pytest.mark.parametrize("name,variant", GAMES, ids=[Path(g[0]).stem for g in GAMES])
def test_a_playout_makes_the_moves_of_the_public_loop(name, variant):
    game = rulekit.load(name, variant=variant)
    players = 4 if 4 in game.players else game.players[0]
    for seed in (1, 2):
        ours, theirs = game.new_game(players=players, seed=seed), game.new_game(players=players, seed=seed)
        made = ours.playout(seed=seed * 7)
        _public_loop(theirs, seed * 7)
        assert ours.is_terminal and ours.history == theirs.history and made == len(theirs.history)
        assert ours.view() == theirs.view()


def test_a_round_playout_stops_at_the_end_of_the_round():
    game = rulekit.load("instinct")
    state, again = game.new_game(players=4, seed=3), game.new_game(players=4, seed=3)
    made = state.playout(seed=5, round_only=True)
    _public_loop(again, 5, round_only=True)
    assert state.round == 2 and state.view()["phase"] == "bid" and state.history == again.history
    assert made == 4 + 44                          # four bids, eleven tricks of four
    assert state.playout(seed=5, round_only=True) > 0 and state.round == 3


def test_a_playout_from_a_clone_leaves_the_original_alone():
    state = rulekit.load("insidious-sevens").new_game(players=3, seed=2)
    before = state.view()
    state.clone().playout(seed=1)
    assert state.view() == before
    assert state.clone().playout() > 0                          # no seed: a fresh random one


def test_a_playout_of_a_finished_game_makes_no_move_and_bad_seeds_are_refused():
    state = rulekit.load("instinct").new_game(players=3, seed=2)
    state.playout(seed=0)
    assert state.playout(seed=0) == 0
    for bad in ("1", 1.5, True):
        with pytest.raises(TypeError):
            rulekit.load("instinct").new_game(players=3, seed=2).playout(seed=bad)
