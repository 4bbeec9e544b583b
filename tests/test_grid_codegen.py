"""The generated grid round (compile/codegen_grid.py): a placement written into the state's
`apply`, and the rest of a round after its last placement (the draws, `end_round`, the next
round's choosing) in one generated function, must leave every state exactly as the engine's
steps and `State.advance` do: compared move by move with the generator switched off."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulekit
from rulekit.compile import codegen

from test_codegen import GAMES, IDS, _players, _reference

GRID = [(p, v) for p, v in GAMES if rulekit.load(p, variant=v).ruleset(_players(rulekit.load(p, variant=v))).grid is not None]


def _same(ours, theirs) -> None:
    assert (ours._step, ours.current_player, ours.round, ours.is_terminal) == \
        (theirs._step, theirs.current_player, theirs.round, theirs.is_terminal)
    assert type(ours._at).__name__.startswith(("Grid", type(theirs._at).__name__)) or ours._at is None
    assert ours.view() == theirs.view()
    assert ours.last_round == theirs.last_round and ours.history == theirs.history


def test_there_is_a_grid_game_with_a_generated_round_tail():
    source = codegen.source_of(rulekit.load("duell-der-tiere").ruleset(2))
    assert "def after_placing_" in source and "rules.end_round(st)" in source


@pytest.mark.parametrize("path,variant", GRID, ids=[f"{Path(p).stem}-{v or 'base'}" for p, v in GRID])
def test_generated_placing_and_round_ends_step_as_the_engine_does(path, variant, monkeypatch):
    generated = rulekit.load(path, variant=variant)
    reference = _reference(path, variant, monkeypatch)
    players = _players(generated)
    for seed in range(12):
        ours, theirs = generated.new_game(players, seed=seed), reference.new_game(players, seed=seed)
        rng = random.Random(seed)
        _same(ours, theirs)
        while not theirs.is_terminal:
            legal = theirs.legal_moves()
            pick = rng.randrange(len(legal))
            ours.apply(ours.legal_moves()[pick])
            theirs.apply(legal[pick])
            _same(ours, theirs)
        assert ours.winners == theirs.winners and ours.scores == theirs.scores
