"""Interned grid moves (engine/grid_moves.py): a (key, origin)'s moves are made at once for
every cell a list can name, the pickers take a row pattern's moves in bit order (of two rows
on narrow boards), and a list of a mask is the interned moves of its cells, whatever the board."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from rulekit.engine import grid
from rulekit.engine.grid_moves import CellMoves, _bits, _take
from rulekit.engine.moves import Move

BOARDS = [(4, 4, 8), (3, 5, 4), (2, 2, 8), (5, 3, 8), (2, 9, 8)]     # pairs of rows, rows, parts of rows


def _moves(board):
    return CellMoves(board, lambda key, cells: [Move("place", bit, f"place {key} at {at}") for bit, at in cells], 3)


@given(st.integers(0, (1 << 12) - 1), st.lists(st.integers(), min_size=12, max_size=12))
def test_a_picker_takes_the_items_of_its_pattern_in_order_as_a_sequence(pattern, items):
    assert list(_take(_bits(pattern))(tuple(items))) == [items[bit] for bit in _bits(pattern)]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(BOARDS), st.integers(-5, 5), st.integers(-5, 5), st.data())
def test_a_list_is_the_interned_moves_of_its_cells(shape, dr, dc, data):
    board = grid.BitBoard(*shape)
    moves, origin = _moves(board), (board.home[0] + dr, board.home[1] + dc)
    m = board.margin
    reach = board.rect(m - 1, m + 2 * board.rows - 1, m - 1, m + 2 * board.cols - 1)
    mask = data.draw(st.integers(0, reach)) & reach
    listed = moves.listed("bee", origin, mask)
    assert [m.text for m in listed] == ["place bee at {},{}".format(*board.pos(bit, origin)) for bit in _bits(mask)]
    assert listed.free == mask and all(listed.cells[m.arg] is m for m in listed)
    assert all(moves.table("bee", origin)[0][m.arg] is m for m in listed)       # interned
    cells, runs = moves.table("bee", origin)
    assert [bit for bit, move in enumerate(cells) if move is not None] == _bits(reach)
    at, span = data.draw(st.sampled_from(_bits(reach))), moves.span
    row = (1 << span) - 1
    pattern, below = mask >> at & row, mask >> at + board.width & row       # a pick of two rows: both
    if moves.rows == 2:
        assert list(moves.takes[pattern | below << span](runs[at])) == \
            [cells[at + bit] for bit in _bits(pattern)] + [cells[at + board.width + bit] for bit in _bits(below)]
    assert list(moves.takes[pattern](runs[at])) == [cells[at + bit] for bit in _bits(pattern)]


def test_tables_past_the_limit_are_made_again():
    board = grid.BitBoard(2, 2)
    moves = _moves(board)
    first = moves.table("a", board.home)[0][board.bit((0, 0), board.home)]
    for key in "bcd":
        moves.table(key, board.home)
    again = moves.table("a", board.home)[0][board.bit((0, 0), board.home)]
    assert again is not first and again.text == first.text and len(moves.tables) <= 3
