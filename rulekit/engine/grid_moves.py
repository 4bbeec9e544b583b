"""Interned grid moves that name a cell, listed from cell masks a frame row or two at a time.

Pipeline place: **engine** (used by `grid_steps.PlaceCards`). A place move (`place bee at
1,2`) or a relocation (`move sun to 0,3`) names a card and a cell; its argument holds the
cell's bit in the state's frame (`grid.BitBoard`), which lies at an origin. All the moves of
a (card or text, origin) are made when it is first needed, one per cell a list can name (the
frame's interior and the ring around it), and handed out again: a list (`CellList`) knows
its mask of free cells and the table its moves come from, and a move is legal when it is the
table's move of a cell of the mask. A list's cells lie within the board's columns + 1 columns
of each frame row; a table keeps, per bit, the moves of the `span` cells from it (and of those
below them when a pick takes two rows: `rows`), and `takes[pattern]` picks a pattern's moves
out of them at once. Past `limit` tables, all are forgotten and made again when needed.
"""
from __future__ import annotations

from operator import itemgetter

#: the most cells of a row a picker takes (more are taken in parts): 2 ** SPAN pickers
SPAN = 8
#: a pick takes two frame rows at once when their cells number at most this (2 ** PAIR pickers)
PAIR = 10


class CellList(list):
    """The interned moves of the cells of `free`, from the table `cells` (a move per cell bit)."""

    __slots__ = ("free", "cells")


class SlideList(list):
    """Slide moves, interned per slide number, with their slides (`entries`, as
    `grid.BitBoard.slides` gives them) in the same order."""

    __slots__ = ("entries",)


def _bits(pattern: int) -> list[int]:
    return [bit for bit in range(pattern.bit_length()) if pattern >> bit & 1]


def _take(places: list[int]) -> itemgetter:
    """What picks the items at `places` (ascending) out of a sequence, as a sequence (a
    slice for one run of places, so that one item still comes as a sequence)."""
    if not places or places[-1] - places[0] == len(places) - 1:
        return itemgetter(slice(places[0], places[-1] + 1) if places else slice(0))
    return itemgetter(*places)


class CellMoves:
    """Moves per (key, origin, cell bit): `make(key, cells)` makes the moves of the cells (bit,
    the cell's `row,col` text at the origin) a list can name."""

    __slots__ = ("board", "make", "limit", "tables", "span", "rows", "takes", "cells", "places")

    def __init__(self, board, make, limit: int):
        self.board, self.make, self.limit = board, make, limit
        self.tables: dict = {}      # (key, origin) -> (move per cell bit or None, per bit: its pick's moves)
        self.span = span = min(board.cols + 1, SPAN)
        self.rows = rows = 2 if 2 * span <= PAIR else 1
        width = board.width       # a pattern's bit span + i: the cell `width` after bit i, below it
        self.takes = tuple(_take([bit if bit < span else bit - span + width for bit in _bits(pattern)])
                           for pattern in range(1 << rows * span))
        m = board.margin
        reach = board.rect(m - 1, m + 2 * board.rows - 1, m - 1, m + 2 * board.cols - 1)
        self.cells = tuple((bit, *divmod(bit, board.width)) for bit in range(board.size) if reach >> bit & 1)
        self.places: dict = {}      # origin -> (bit, `row,col`) of those cells

    def table(self, key, origin):
        """(move per cell bit or None, per cell bit of a list: the moves a pick from it takes from)."""
        table = self.tables.get((key, origin))
        if table is None:
            if len(self.tables) >= self.limit:
                self.tables.clear()
                self.places.clear()
            places = self.places.get(origin)
            if places is None:
                places = self.places[origin] = [(bit, f"{r + origin[0]},{c + origin[1]}") for bit, r, c in self.cells]
            size, span, width = self.board.size, self.span, self.board.width
            cells, runs = [None] * size, [None] * size
            for (bit, _), move in zip(places, self.make(key, places)):
                cells[bit] = move
            padded, reach = tuple(cells) + (None,) * (width + span), (width if self.rows == 2 else 0) + span
            for bit, _ in places:
                runs[bit] = padded[bit:bit + reach]
            table = self.tables[key, origin] = (cells, runs)
        return table

    def listed(self, key, origin, mask: int) -> CellList:
        """The moves of the cells of `mask`, in bit order (row by row): a new list."""
        out, cells = CellList(), self.table(key, origin)[0]
        out.free, out.cells = mask, cells
        while mask:
            low = mask & -mask
            out.append(cells[low.bit_length() - 1])
            mask ^= low
        return out
