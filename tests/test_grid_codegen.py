"""The generated grid round (compile/codegen_grid.py): choosing, placing, sliding and moving
cards written into the state's `legal_moves` and `apply`, and the rest of a round after its
last placement (the draws, `end_round`, the next round's choosing) in one generated function,
must leave every state exactly as the engine's steps and `State.advance` do: compared move by
move with the generator switched off, on Duell and on two placement games made for these
tests (tests/grid_games/: other board sizes, orthogonal placement, lowest first, a token that
stays, slides into rows or columns only, moves of any other card or of a kind of card, two
draws a round, a draft)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulekit
from rulekit.compile import codegen

from codegen_check import assert_only_generator_names
from rulekit.errors import IllegalMoveError
from test_codegen import GAMES, _players, _reference

HERE = Path(__file__).resolve().parent
MADE = [str(p) for p in sorted((HERE / "grid_games").glob("*.rules"))]
GRID = [(p, v) for p, v in GAMES if rulekit.load(p, variant=v).ruleset(_players(rulekit.load(p, variant=v))).grid is not None]
GRID += [(p, v) for p in MADE for v in [None, *rulekit.load(p).variants]]
GRID_IDS = [f"{Path(p).stem}-{v or 'base'}" for p, v in GRID]


def _same(ours, theirs) -> None:
    assert (ours._step, ours.current_player, ours.round, ours.is_terminal) == \
        (theirs._step, theirs.current_player, theirs.round, theirs.is_terminal)
    assert type(ours._at).__name__.startswith(("Grid", type(theirs._at).__name__)) or ours._at is None
    assert ours.view() == theirs.view()
    assert ours.last_round == theirs.last_round and ours.history == theirs.history


def test_there_is_a_grid_game_with_a_generated_round_tail():
    source = codegen.source_of(rulekit.load("duell-der-tiere").ruleset(2))
    assert "def after_placing_" in source and "rules.end_round(st)" in source


def test_the_games_made_for_these_tests_have_every_kind_of_grid_move():
    kinds = set()
    for path in MADE:
        game = rulekit.load(path)
        for seed in range(10):
            state = game.new_game(2, seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal:
                legal = state.legal_moves()
                kinds |= {(m.kind, " at " in m.text and m.kind == "move") for m in legal}
                state.apply(rng.choice(legal))
    # a moved card told apart by its place: `move sun at 0,1 to 1,1`
    assert kinds == {("choose", False), ("place", False), ("slide", False), ("move", False), ("move", True)}


@pytest.mark.parametrize("path,variant", GRID, ids=GRID_IDS)
def test_the_generated_grid_module_holds_only_generator_names(path, variant):
    game = rulekit.load(path, variant=variant)
    source = codegen.source_of(game.ruleset(_players(game)))
    assert_only_generator_names(source)
    assert "def place_legal_" in source and "def after_placing_" in source


@pytest.mark.parametrize("path,variant", GRID, ids=GRID_IDS)
def test_generated_placing_and_round_ends_step_as_the_engine_does(path, variant, monkeypatch):
    generated = rulekit.load(path, variant=variant)
    reference = _reference(path, variant, monkeypatch)
    players = _players(generated)
    for seed in range(12 if path not in MADE else 30):
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


@pytest.mark.parametrize("path,variant", GRID, ids=GRID_IDS)
def test_an_illegal_grid_move_changes_nothing(path, variant):
    """A move of another position (the same text elsewhere, a stale list's move), a move
    object of another kind and text that is no move are refused, and the state stays."""
    game = rulekit.load(path, variant=variant)
    players = _players(game)
    for seed in range(4):
        state, rng, stale = game.new_game(players, seed=seed), random.Random(seed), []
        while not state.is_terminal:
            legal = state.legal_moves()
            texts = {m.text for m in legal}
            before = (state.view(), state.history)
            for bad in [m for m in stale if m.text not in texts][:3] + [object(), "place nothing at 9,9", 7]:
                with pytest.raises(IllegalMoveError):
                    state.apply(bad)
                assert (state.view(), state.history) == before
            stale = legal
            state.apply(legal[rng.randrange(len(legal))])
