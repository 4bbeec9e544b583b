"""Interned grid moves that name a cell, listed from cell masks a frame row at a time.

Pipeline place: **engine** (used by `grid_steps.PlaceCards`). A place move (`place bee at
1,2`) or a relocation (`move sun to 0,3`) names a card and a cell; its argument holds the
cell's bit in the state's frame (`grid.BitBoard`), which lies at an origin. So a move is
made once per (card or text, origin, cell) and then handed out again: a legal list is the
interned moves of a mask of free cells, and a move is checked by being the interned move of
a cell the mask holds: a list (`CellList`) knows its mask and the table its moves come from.

Listing a mask bit by bit costs a few operations per cell; instead the moves of one frame
row's cells are kept as a tuple per pattern of that row, so a list takes one look-up per
row the mask touches. What is kept is bounded by the board (cells and row patterns per
key and origin); past `limit` tables, all are forgotten and made again when needed.
"""
from __future__ import annotations

from .moves import Move


class CellList(list):
    """A list of the interned moves of the cells of `free`, from the table `cells` (a move per
    cell bit): a move is in it when it is the table's move of a cell of `free`."""

    __slots__ = ("free", "cells")


class SlideList(list):
    """A list of slide moves, interned per slide number, and their slides in this position
    (`entries`, as `grid.BitBoard.slides` gives them), in the same order."""

    __slots__ = ("entries",)


class CellMoves:
    """Moves per (key, origin, cell bit), made by `make(key, origin, bit)` when first needed."""

    __slots__ = ("board", "make", "limit", "tables")

    def __init__(self, board, make, limit: int):
        self.board, self.make, self.limit = board, make, limit
        #: (key, origin) -> (move per cell bit or None, per frame row: pattern -> tuple of moves)
        self.tables: dict = {}

    def table(self, key, origin):
        """The table of (key, origin): (move per cell bit or None, per frame row: pattern -> its moves)."""
        table = self.tables.get((key, origin))
        if table is None:
            if len(self.tables) >= self.limit:
                self.tables.clear()
            board = self.board
            table = self.tables[key, origin] = ([None] * board.size, [{} for _ in range(board.height)])
        return table

    def move(self, key, origin, bit: int) -> Move:
        """The interned move of one cell."""
        cells = self.table(key, origin)[0]
        move = cells[bit]
        if move is None:
            move = cells[bit] = self.make(key, origin, bit)
        return move

    def listed(self, key, origin, mask: int) -> CellList:
        """The moves of the cells of `mask`, in bit order (row by row): a new list."""
        out = CellList()
        table = self.tables.get((key, origin)) or self.table(key, origin)
        out.free, out.cells = mask, table[0]
        if not mask:
            return out
        rows, width, full = table[1], self.board.width, self.board.full_row
        row = ((mask & -mask).bit_length() - 1) // width
        mask >>= row * width
        while mask:
            pattern = mask & full
            if pattern:
                found = rows[row].get(pattern)
                if found is None:
                    found = rows[row][pattern] = self.row(key, origin, row, pattern)
                out += found
            mask >>= width
            row += 1
        return out

    def row(self, key, origin, row: int, pattern: int) -> tuple[Move, ...]:
        """The moves of the cells of one frame row's pattern, in bit order (not kept here)."""
        cells, make = self.table(key, origin)[0], self.make
        start, moves = row * self.board.width, []
        while pattern:
            low = pattern & -pattern
            bit = start + low.bit_length() - 1
            move = cells[bit]
            if move is None:
                move = cells[bit] = make(key, origin, bit)
            moves.append(move)
            pattern ^= low
        return tuple(moves)
