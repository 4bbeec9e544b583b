"""The generated listings of a grid game (compile/codegen_grid.py) on boards of every shape the
generator treats apart: lines longer than its slide tables (`SHORT_LINE`: the masks worked out
instead) and rows wider than one picker (`grid_moves.SPAN`: picked in parts) give the slides
`grid.slides` defines, and a whole game lists and plays as the engine's steps do."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

import rulekit
from rulekit.compile import codegen, codegen_grid
from rulekit.engine import grid_moves
from rulekit.engine.grid_state import GridState

from test_grid import naive_placements
from test_grid_codegen import SLIDING, _generated_slides, _same

#: (rows, cols): a line longer than the tables each way, a row wider than a picker (18 cells: the cards)
SHAPES = [(2, 9), (9, 2)]
assert all(max(r, c) > codegen_grid.SHORT_LINE and max(r, c) + 1 > grid_moves.SPAN for r, c in SHAPES)


@st.composite
def long_boards(draw):
    """A long board and a display grown on it by the naive rules."""
    rows, cols = draw(st.sampled_from(SHAPES))
    adjacency = draw(st.sampled_from([4, 8]))
    d = {}
    for i in range(draw(st.integers(1, rows * cols))):
        legal = naive_placements(d, rows, cols, adjacency)
        if not legal:
            break
        d[legal[draw(st.integers(0, len(legal) - 1))]] = i
    return rows, cols, adjacency, d


@settings(max_examples=150, deadline=None)
@given(long_boards(), st.integers(-4, 4), st.integers(-4, 4))
def test_the_generated_slides_of_long_lines_are_those_of_the_geometry(board, dr, dc):
    rows, cols, adjacency, d = board
    bits, (by_row, by_column) = _generated_slides(rows, cols, adjacency)
    gs = GridState(2, bits)
    gs.load({(r + dr, c + dc): card for (r, c), card in d.items()})
    found = []
    by_row(gs.occ, gs.box, found)
    by_column(gs.occ, gs.box, found)
    assert found == bits.slides(gs.occ, gs.box, "row or column")


@pytest.mark.parametrize("rows,cols", SHAPES)
@pytest.mark.parametrize("adjacency", [4, 8])
def test_a_game_on_a_long_board_lists_and_plays_as_the_engine_does(rows, cols, adjacency, monkeypatch):
    text = SLIDING.format(rows=rows, cols=cols, adjacency=adjacency, cells=rows * cols)
    generated = rulekit.loads(text)
    with monkeypatch.context() as patch:
        patch.setattr(codegen, "ENABLED", False)
        reference = rulekit.loads(text)
        reference.ruleset(2)
    assert "def place_legal_" in codegen.source_of(generated.ruleset(2))
    for seed in range(8):
        ours, theirs = generated.new_game(2, seed=seed), reference.new_game(2, seed=seed)
        rng = random.Random(seed)
        while not theirs.is_terminal:
            legal = theirs.legal_moves()
            mine = ours.legal_moves()
            assert [m.text for m in mine] == [m.text for m in legal]
            pick = rng.randrange(len(legal))
            ours.apply(mine[pick])
            theirs.apply(legal[pick])
            _same(ours, theirs)
