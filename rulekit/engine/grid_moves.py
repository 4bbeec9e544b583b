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
frame row (or per `span` cells of it on a wider board; or per two rows on a narrow one,
`runs` then holding the cells below too). What is kept is
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


#: a pick takes two frame rows at once when their cells number at most this (2 ** PAIR pickers)
PAIR = 10


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

    __slots__ = ("board", "make", "limit", "tables", "span", "rows", "takes", "cells", "places")

    def __init__(self, board, make, limit: int):
        self.board, self.make, self.limit = board, make, limit
        #: (key, origin) -> (move per cell bit or None, per bit: the moves of the `span` cells from
        #: it, and of those below them when a pick takes two frame rows)
        self.tables: dict = {}
        self.span = span = min(board.cols + 1, SPAN)
        self.rows = rows = 2 if 2 * span <= PAIR else 1       # frame rows a pick takes
        self.takes = tuple(_take(pattern) for pattern in range(1 << rows * span))
        m = board.margin        # the interior and the ring around it: where a list's cells and picks lie
        reach = board.rect(m - 1, m + 2 * board.rows - 1, m - 1, m + 2 * board.cols - 1)
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
            size, span, width = self.board.size, self.span, self.board.width
            cells = [None] * size
            for (bit, _), move in zip(places, self.make(key, places)):
                cells[bit] = move
            padded, runs = cells + [None] * (width + span), [None] * size       # a pick starts at a cell of a list
            for bit, _ in places:
                runs[bit] = tuple(padded[bit:bit + span] if self.rows == 1 else
                                  padded[bit:bit + span] + padded[bit + width:bit + width + span])
            table = self.tables[key, origin] = (cells, runs)
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
