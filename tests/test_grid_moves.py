"""Interned grid moves (engine/grid_moves.py): a key's moves are interned by virtual cell, one
table for every origin within `drift` of home (the same objects wherever the frame lies), a
table of its own farther away; the pickers take a row pattern's moves in bit order (of two
rows on narrow boards), and a list of a mask is the interned moves of its cells, whose
arguments lead back to their frame bits, whatever the board and the origin."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from rulekit.engine import grid
from rulekit.engine.grid_moves import CellMoves, _bits, _take
from rulekit.engine.moves import Move

BOARDS = [(4, 4, 8), (3, 5, 4), (2, 2, 8), (5, 3, 8), (2, 9, 8)]     # pairs of rows, rows, parts of rows


def _moves(board, limit=3):
    return CellMoves(board, lambda key, cells: [Move("place", v, f"place {key} at {at}") for v, at in cells], limit)


def _reach(board) -> int:
    m = board.margin
    return board.rect(m - 1, m + 2 * board.rows - 1, m - 1, m + 2 * board.cols - 1)


@given(st.integers(0, (1 << 12) - 1), st.lists(st.integers(), min_size=12, max_size=12))
def test_a_picker_takes_the_items_of_its_pattern_in_order_as_a_sequence(pattern, items):
    assert list(_take(_bits(pattern))(tuple(items))) == [items[bit] for bit in _bits(pattern)]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(BOARDS), st.integers(-14, 14), st.integers(-14, 14), st.data())
def test_a_list_is_the_interned_moves_of_its_cells(shape, dr, dc, data):
    """Near home and far from it (a table of its own): the texts are the cells' at the origin,
    an argument leads back to its frame bit, and the picks of a cell take its pattern's moves."""
    board = grid.BitBoard(*shape)
    moves, origin = _moves(board), (board.home[0] + dr, board.home[1] + dc)
    reach = _reach(board)
    mask = data.draw(st.integers(0, reach)) & reach
    listed = moves.listed("bee", origin, mask)
    assert [m.text for m in listed] == ["place bee at {},{}".format(*board.pos(bit, origin)) for bit in _bits(mask)]
    assert listed.free == mask and all(listed.cells[m.arg] is m for m in listed)
    assert [moves.frame_bit[m.arg - listed.base] for m in listed] == _bits(mask)
    assert [moves.bit(m.arg, origin) for m in listed] == _bits(mask) and listed.base == moves.base(origin)
    assert (moves.near(origin) is not None) == (max(abs(dr), abs(dc)) <= moves.drift)
    cells, runs, base = moves.table("bee", origin)
    assert cells is listed.cells and base == listed.base
    for bit in _bits(reach):                # every cell a list may name has its move
        assert cells[moves.virtual[bit] + base].text == "place bee at {},{}".format(*board.pos(bit, origin))
    at, span = data.draw(st.sampled_from(_bits(reach))), moves.span
    row = (1 << min(span, board.width - at % board.width)) - 1          # a pick's cells lie in its frame row
    pattern, below, v = mask >> at & row, mask >> at + board.width & row, moves.virtual[at] + base  # two rows: both
    if moves.rows == 2:
        assert list(moves.takes[pattern | below << span](runs[v])) == \
            [cells[moves.virtual[at + bit] + base] for bit in _bits(pattern)] + \
            [cells[moves.virtual[at + board.width + bit] + base] for bit in _bits(below)]
    assert list(moves.takes[pattern](runs[v])) == [cells[moves.virtual[at + bit] + base] for bit in _bits(pattern)]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(BOARDS), st.lists(st.tuples(st.integers(-6, 6), st.integers(-6, 6)), min_size=2, max_size=6))
def test_a_cell_s_move_is_one_object_at_every_origin_near_home(shape, shifts):
    """Origins met one after another (a wandering display): a text cell is one move object at
    all of them that lie near home, its text the cell's, and the picks built for earlier
    origins take the moves later origins made."""
    board = grid.BitBoard(*shape)
    moves, reach = _moves(board, limit=1024), _reach(board)      # nothing forgotten
    seen: dict = {}
    for dr, dc in shifts:
        origin = (board.home[0] + dr, board.home[1] + dc)
        listed = moves.listed("bee", origin, reach)
        for bit, move in zip(_bits(reach), listed):
            pos = board.pos(bit, origin)
            assert move.text == "place bee at {},{}".format(*pos)
            if moves.near(origin) is not None:
                assert seen.setdefault(pos, move) is move
        cells, runs, base = moves.table("bee", origin)
        for bit in _bits(reach):
            v = moves.virtual[bit] + base
            assert list(runs[v][:moves.span]) == [cells[v + k] for k in range(moves.span)]
    near = {(dr, dc) for dr, dc in shifts if max(abs(dr), abs(dc)) <= moves.drift}
    assert len(moves.shared) == (1 if near else 0)


def test_a_far_frame_bit_of_a_virtual_cell_is_no_frame_bit():
    """`frame_bit` of any difference of a virtual cell and a base is the frame bit of that cell
    or a bit past the frame (no mask holds it): a move of another origin is never taken for
    one of this frame's cells."""
    board = grid.BitBoard(4, 4, 8)
    moves = _moves(board)
    frame = {v: bit for bit, v in enumerate(moves.virtual)}
    bases = {moves.base((board.home[0] + dr, board.home[1] + dc)) for dr in range(-9, 10) for dc in range(-9, 10)}
    for base in bases:
        for v in range(moves.size):
            assert moves.frame_bit[v - base] == frame.get(v - base, board.size)


def test_tables_past_the_limit_are_made_again():
    board = grid.BitBoard(2, 2)
    moves = _moves(board)
    at = board.bit((0, 0), board.home)
    cells, _, base = moves.table("a", board.home)
    first = cells[moves.virtual[at] + base]
    for key in "bcd":
        moves.table(key, board.home)
    cells, _, base = moves.table("a", board.home)
    again = cells[moves.virtual[at] + base]
    assert again is not first and again.text == first.text and len(moves.tables) <= 3


def test_tables_of_far_origins_are_bounded():
    """Origins far from home (any coordinates a restored view may hold) each get a table of
    their own; past `limit // 16` of them all are forgotten."""
    board = grid.BitBoard(4, 4)
    moves = _moves(board, limit=64)
    for far in range(100):
        origin = (board.home[0] + 1000 + far, board.home[1] - 7 * far)
        assert moves.listed("a", origin, 1 << board.bit((0, 0), board.home))[0].text == \
            "place a at {},{}".format(*board.pos(board.bit((0, 0), board.home), origin))
        assert moves.private <= 4 and len(moves.tables) <= 64
