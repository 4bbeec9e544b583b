"""Interned grid moves that name a cell, listed from cell masks a frame row or two at a time.

Pipeline place: **engine** (used by `grid_steps.PlaceCards`). A place move (`place bee at
1,2`) or a relocation (`move sun to 0,3`) names a card and a cell by its text coordinates
(the first card at 0,0), which do not depend on where the state's frame (`grid.BitBoard`)
lies. So its argument holds the cell's *virtual* code, not its frame bit: the virtual grid
is the frame widened by `drift` cells on every side (`width` cells a row, so that no text
column wraps onto the next row), and frame bit b of a frame at origin o is virtual cell
`virtual[b] + base(o)`. One table per key (card or text) serves every origin within `drift`
cells of the board's home (`shared`), so a display that wanders meets the same move objects
again; an origin farther away (a long drift, a restored view) gets a table of its own with
base 0 (`private`), so every coordinate stays correct. Back to the frame: `frame_bit[v -
base]` (past the frame, and for any difference of two virtual cells that is below 0: a bit
no mask holds).

A table's moves are made when an origin first needs them, for the cells a list can name there
(the frame's interior and the ring around it; cells other origins made are reused). A list
(`CellList`) knows its mask of free frame cells, the table its moves come from and its base,
and a move is legal when it is the table's move of its virtual cell and that cell's frame bit
is in the mask. A list's cells lie within the board's columns + 1 columns of each frame row;
a table keeps, per virtual cell, the moves of the `span` cells from it (and of the `span`
below them when a pick takes two rows: `rows`), and `takes[pattern]` picks a pattern's moves
out of them at once (pattern bit i: the i-th of those cells). Past `limit` tables (or
`limit // 16` private ones), all are forgotten and made again when needed.
"""
from __future__ import annotations

from operator import itemgetter

#: the most cells of a row a picker takes (more are taken in parts): 2 ** SPAN pickers
SPAN = 8
#: a pick takes two frame rows at once when their cells number at most this (2 ** PAIR pickers)
PAIR = 10


class CellList(list):
    """The interned moves of the frame cells of `free`, from the table `cells` (a move per
    virtual cell) at `base` (frame bit b is virtual cell `virtual[b] + base`)."""

    __slots__ = ("free", "cells", "base")


class SlideList(list):
    """Slide moves, interned per card text and line, with their slides (`entries`, as
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
    """Moves per (key, virtual cell): `make(key, cells)` makes the moves of cells (virtual
    cell, the cell's `row,col` text) a list can name."""

    __slots__ = ("board", "make", "limit", "tables", "shared", "private", "span", "rows", "takes", "cells",
                 "drift", "width", "size", "virtual", "frame_bit", "home")

    def __init__(self, board, make, limit: int, drift: int | None = None):
        self.board, self.make, self.limit = board, make, limit
        self.tables: dict = {}      # (key, origin) -> (move per virtual cell or None, per virtual cell: its pick's moves, base)
        self.shared: dict = {}      # key -> (moves, picks' moves) of the origins near home
        self.private = 0            # tables of origins far from home
        self.span = span = min(board.cols + 1, SPAN)
        self.rows = rows = 2 if 2 * span <= PAIR else 1
        self.takes = tuple(_take(_bits(pattern)) for pattern in range(1 << rows * span))
        m = board.margin
        reach = board.rect(m - 1, m + 2 * board.rows - 1, m - 1, m + 2 * board.cols - 1)
        self.cells = tuple((bit, *divmod(bit, board.width)) for bit in range(board.size) if reach >> bit & 1)
        self.drift = drift = max(board.rows, board.cols) if drift is None else drift
        self.width = width = board.width + 2 * drift
        height = board.height + 2 * drift
        self.size = size = (height + rows) * width + span       # room for the picks' cells past the last row
        self.virtual = tuple(r * width + c for r, c in map(lambda bit: divmod(bit, board.width), range(board.size)))
        frame_bit = [board.size] * (2 * size)                   # [d] for d in -size..size (below 0: from the end)
        for bit, v in enumerate(self.virtual):
            frame_bit[v] = bit
        self.frame_bit = tuple(frame_bit)
        self.home = board.home

    def near(self, origin) -> int | None:
        """Where frame bit 0 of a frame at `origin` lies in the shared tables, or None when
        the origin is farther than `drift` cells from home (its tables are its own)."""
        dr, dc = origin[0] - self.home[0] + self.drift, origin[1] - self.home[1] + self.drift
        if 0 <= dr <= 2 * self.drift and 0 <= dc <= 2 * self.drift:
            return dr * self.width + dc
        return None

    def base(self, origin) -> int:
        """Where frame bit 0 of a frame at `origin` lies in its tables (0 in tables of its own)."""
        base = self.near(origin)
        return 0 if base is None else base

    def bit(self, v: int, origin) -> int:
        """The frame bit of virtual cell `v` of the table of `origin` (a move's argument)."""
        return self.frame_bit[v - self.base(origin)]

    def clear(self) -> None:
        self.tables.clear()
        self.shared.clear()
        self.private = 0

    def table(self, key, origin):
        """(move per virtual cell or None, per virtual cell of a list: the moves a pick from it
        takes from, the base of `origin`)."""
        table = self.tables.get((key, origin))
        if table is None:
            if len(self.tables) >= self.limit or self.private >= max(self.limit // 16, 1):
                self.clear()
            base = self.near(origin)
            pair = self.shared.get(key) if base is not None else None
            if pair is None:
                pair = ([None] * self.size, [None] * self.size)
                if base is not None:
                    self.shared[key] = pair
                else:
                    self.private, base = self.private + 1, 0
            cells, runs = pair
            virtual, new = self.virtual, []
            for bit, r, c in self.cells:
                v = virtual[bit] + base
                if cells[v] is None:
                    new.append((v, f"{r + origin[0]},{c + origin[1]}"))
            if new:
                for (v, _), move in zip(new, self.make(key, new)):
                    cells[v] = move
                self._picks(cells, runs, [v for v, _ in new])
            table = self.tables[key, origin] = (cells, runs, base)
        return table

    def _picks(self, cells: list, runs: list, new: list[int]) -> None:
        """The picks' moves (`runs`) of every cell with a move whose picks reach a `new` one:
        its `span` cells' moves, then (two rows a pick) the `span` cells' below them."""
        width, span = self.width, self.span
        below = (0, width) if self.rows == 2 else (0,)
        for at in {v - k - row for v in new for k in range(span) for row in below}:
            if at >= 0 and cells[at] is not None:
                runs[at] = tuple(cells[at:at + span]) + tuple(cells[at + width:at + width + span]) \
                    if self.rows == 2 else tuple(cells[at:at + span])

    def listed(self, key, origin, mask: int) -> CellList:
        """The moves of the frame cells of `mask`, in bit order (row by row): a new list."""
        out = CellList()
        cells, _, base = self.table(key, origin)
        out.free, out.cells, out.base, virtual = mask, cells, base, self.virtual
        while mask:
            low = mask & -mask
            out.append(cells[virtual[low.bit_length() - 1] + base])
            mask ^= low
        return out
