"""Interned grid moves that name a cell, listed from cell masks a frame row at a time.

Pipeline place: **engine** (used by `grid_steps.PlaceCards`). A place move (`place bee at
1,2`) or a relocation (`move sun to 0,3`) names a card and a cell; its argument holds the
cell's bit in the state's frame (`grid.BitBoard`), which lies at an origin. So a move is
made once per (card or text, origin, cell) and then handed out again: a legal list is the
interned moves of a mask of free cells, and a move is checked by being the interned move of
a cell the mask holds: a list (`CellList`) knows its mask and the table its moves come from.

The moves of a (key, origin) are all made when it is first needed: one per cell a list can
name (the frame's interior and the ring around it), so listing never makes one. The cells
of a list lie within the board's columns + 1 columns of each frame row; a table keeps, per
bit, the moves of the `span` cells from it (`runs`: that many, at most `SPAN`), and
`takes[pattern]` picks a pattern's moves out of them at once: a list takes one pick per
frame row (or per `span` cells of it on a wider board). What is kept is
bounded by the board (cells per key and origin); past `limit` tables, all are forgotten and
made again when needed.
"""
from __future__ import annotations

from operator import itemgetter

from .moves import Move


class CellList(list):
    """A list of the interned moves of the cells of `free`, from the table `cells` (a move per
    cell bit): a move is in it when it is the table's move of a cell of `free`."""

    __slots__ = ("free", "cells")


class SlideList(list):
    """A list of slide moves, interned per slide number, and their slides in this position
    (`entries`, as `grid.BitBoard.slides` gives them), in the same order."""

    __slots__ = ("entries",)


#: the most cells a picker takes from (a row's free cells, board.cols + 1 of them, are taken in
#: parts of at most this many cells on wider boards): 2 ** SPAN pickers per board
SPAN = 8


def _take(pattern: int) -> itemgetter:
    """What picks the items at the set bits of `pattern` out of a sequence, as a sequence
    (a slice for one run of bits, so that one item still comes as a sequence)."""
    bits = [bit for bit in range(pattern.bit_length()) if pattern >> bit & 1]
    if not bits or bits[-1] - bits[0] == len(bits) - 1:
        return itemgetter(slice(bits[0], bits[-1] + 1) if bits else slice(0))
    return itemgetter(*bits)


class CellMoves:
    """Moves per (key, origin, cell bit): `make(key, cells)` makes the moves of the cells (bit,
    the cell's `row,col` text at the origin) a list can name, when (key, origin) is first needed."""

    __slots__ = ("board", "make", "limit", "tables", "span", "takes", "cells", "places")

    def __init__(self, board, make, limit: int):
        self.board, self.make, self.limit = board, make, limit
        #: (key, origin) -> (move per cell bit or None, per bit: the moves of the `span` cells from it)
        self.tables: dict = {}
        self.span = span = min(board.cols + 1, SPAN)
        self.takes = tuple(_take(pattern) for pattern in range(1 << span))
        reach = board.grow(board.interior)
        self.cells = tuple((bit, *divmod(bit, board.width)) for bit in range(board.size) if reach >> bit & 1)
        self.places: dict = {}      # origin -> (bit, `row,col`) of those cells

    def table(self, key, origin):
        """The table of (key, origin): (move per cell bit or None, per bit: the moves of the `span` cells from it)."""
        table = self.tables.get((key, origin))
        if table is None:
            if len(self.tables) >= self.limit:
                self.tables.clear()
                self.places.clear()
            places = self.places.get(origin)
            if places is None:
                dr, dc = origin
                places = self.places[origin] = [(bit, f"{r + dr},{c + dc}") for bit, r, c in self.cells]
            cells, span = [None] * self.board.size, self.span
            for (bit, _), move in zip(places, self.make(key, places)):
                cells[bit] = move
            table = self.tables[key, origin] = (cells, [tuple(cells[bit:bit + span]) for bit in range(len(cells))])
        return table

    def move(self, key, origin, bit: int) -> Move:
        """The interned move of one cell."""
        return self.table(key, origin)[0][bit]

    def listed(self, key, origin, mask: int) -> CellList:
        """The moves of the cells of `mask`, in bit order (row by row): a new list."""
        out, cells = CellList(), self.table(key, origin)[0]
        out.free, out.cells = mask, cells
        while mask:
            low = mask & -mask
            out.append(cells[low.bit_length() - 1])
            mask ^= low
        return out
