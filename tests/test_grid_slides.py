"""The generated slides of short lines read the lines on either side of a line from one table
(compile/codegen_grid_slides.py, `_near_table`): on boards whose lines it covers, every connected
display (or every n-th of the larger boards), anywhere in its frame, gives the slides
`grid.slides` defines (`BitBoard.slides`), the reference the other slide paths are tested
against too."""
from __future__ import annotations

import pytest

from rulekit.compile import codegen_grid_slides
from rulekit.engine import grid
from rulekit.engine.grid_state import GridState

from test_grid_codegen import _generated_slides

#: (rows, cols, adjacency, every n-th connected display, the display's shift in the frame)
BOARDS = [(4, 4, 8, 9, (0, 0)), (4, 4, 4, 4, (1, -2)), (3, 5, 8, 4, (-1, 1)), (5, 3, 4, 2, (2, 0)),
          (3, 3, 8, 1, (-2, -2)), (2, 2, 4, 1, (0, 1)), (1, 4, 8, 1, (0, 0))]


def _connected_displays(rows: int, cols: int, adjacency: int):
    """Every connected display of the board's cells (cards numbered in cell order)."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    for pattern in range(1, 1 << len(cells)):
        display = {cell: i for i, cell in enumerate(cells) if pattern >> i & 1}
        if grid.is_connected(display, adjacency):
            yield display


@pytest.mark.parametrize("rows,cols,adjacency,every,shift", BOARDS)
def test_the_slides_from_the_neighbouring_lines_table_are_the_geometry_s(rows, cols, adjacency, every, shift):
    assert cols * (rows - 1) <= codegen_grid_slides.NEAR_BITS and rows * (cols - 1) <= codegen_grid_slides.NEAR_BITS
    bits, (by_row, by_column) = _generated_slides(rows, cols, adjacency)
    dr, dc = shift
    for n, display in enumerate(_connected_displays(rows, cols, adjacency)):
        if n % every:
            continue
        gs = GridState(2, bits)
        gs.load({(r + dr, c + dc): card for (r, c), card in display.items()})
        found = []
        by_row(gs.occ, gs.box, found)
        by_column(gs.occ, gs.box, found)
        assert found == bits.slides(gs.occ, gs.box, "row or column"), display


def test_the_table_has_every_place_for_no_lines_and_one_entry_per_packing():
    table = codegen_grid_slides._near_table(4, 3, 8)
    assert len(table) == 1 << 12
    field = 2 * 4 + 1
    assert table[0] == sum(((1 << field) - 1) << (k - 1) * field for k in range(1, 4))


@pytest.mark.parametrize("rows,cols,adjacency", [(4, 4, 8), (3, 5, 4), (2, 9, 8), (5, 3, 8)])
@pytest.mark.parametrize("kind", ["move", "slide"])
def test_a_moved_or_slid_card_keeps_the_display_s_box_right(rows, cols, adjacency, kind):
    """The generated `relocate_N` keeps the display's box (grown to the card's new cell) unless
    the card leaves a first or last line of it empty, `slide_N` when the other lines reach both
    ends of the box along the line: after every move of a game the kept box is the one worked
    out from the cells."""
    import random

    import rulekit
    from test_grid_codegen import SLIDING
    from test_grid_listing import MOVING

    text = MOVING if kind == "move" else SLIDING
    game = rulekit.loads(text.format(rows=rows, cols=cols, adjacency=adjacency, cells=rows * cols))
    made = kept = 0
    for seed in range(12):
        state, rng = game.new_game(2, seed=seed), random.Random(seed)
        while not state.is_terminal:
            moves = state.legal_moves()
            move = moves[rng.randrange(len(moves))]
            state.apply(move)
            gs = state.extra["grid"]
            if move.kind == kind:
                made += 1
                kept += gs._box is not None
            assert gs._box is None or gs._box == gs.board.box(gs.occ)
    assert made > 10 and kept > 3
