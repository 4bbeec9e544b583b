"""Interned grid moves that name a cell, listed from cell masks a frame row or two at a time.

Pipeline place: **engine** (used by `grid_steps.PlaceCards`). A place move (`place bee at
1,2`) or a relocation (`move sun to 0,3`) names a card and a cell by its text coordinates
(the first card at 0,0), which do not depend on where the state's frame (`grid.BitBoard`)
lies. So its argument holds the cell's *virtual* code, not its frame bit: the virtual grid
is the frame widened by `drift` (the board's rows above and below, its columns left and
right; `width` cells a row, so that no text column wraps onto the next row), and frame bit b
of a frame at origin o is virtual cell `virtual[b] + base(o)`. One table per key (card or
text) serves every origin within `drift` of the board's home (`shared`), so a display that
wanders meets the same move objects again; an origin farther away (a long drift, a restored
view) gets a table of its own with base 0 (`private`), so every coordinate stays correct.
Back to the frame: `frame_bit[v - base]` (past the frame, and for any difference of two
virtual cells that is below 0: a bit no mask holds).

A table's moves are made when a list first names them: a table keeps, per virtual cell, the
moves of the `span` cells from it (and of the `span` below them when a pick takes two rows:
`rows`), made by the table's `run(v)` the first time a pick reads them, and `takes[pattern]`
picks a pattern's moves out of them at once (pattern bit i: the i-th of those cells). So a
new origin costs a dict entry, and a table holds the moves of the cells lists named. A list
(`CellList`) knows its mask of free frame cells, the table its moves come from and its base,
and a move is legal when it is the table's move of its virtual cell and that cell's frame bit
is in the mask. A list's cells lie within the board's columns + 1 columns of each frame row.
Past `limit` tables (or `limit // 16` private ones, or `CELLS_HELD` virtual cells in all: a
large board's table is big), all are forgotten and made again when needed.
"""
from __future__ import annotations

from operator import itemgetter

#: the most cells of a row a picker takes (more are taken in parts): 2 ** SPAN pickers
SPAN = 8
#: a pick takes two frame rows at once when their cells number at most this (2 ** PAIR pickers)
PAIR = 10
CELLS_HELD = 1 << 23       # the virtual cells of all tables held (two slots each): about 128 MB


class CellList(list):
    """The interned moves of the frame cells of `free`, from the table `cells` (a move per
    virtual cell) at `base` (frame bit b is virtual cell `virtual[b] + base`)."""

    __slots__ = ("free", "cells", "base")


class SlideList(list):
    """Slide moves, interned per card text and line, with their slides (`entries`, as
    `grid.BitBoard.slides` gives them) in the same order."""

    __slots__ = ("entries",)


_PICKERS: dict = {}


def pickers(count: int) -> tuple:
    """By pattern of `count` bits, what picks the items at the pattern's places out of a
    sequence, as a sequence (a slice for one run of places, so that one item still comes as
    a sequence): made once per count (every table of every game with that pick shares
    them), a pattern's places from its pattern without its lowest bit."""
    found = _PICKERS.get(count)
    if found is None:
        places = [()]
        for pattern in range(1, 1 << count):
            low = pattern & -pattern
            places.append((low.bit_length() - 1,) + places[pattern ^ low])
        found = _PICKERS[count] = (itemgetter(slice(0)),) + tuple(
            itemgetter(slice(p[0], p[-1] + 1)) if p[-1] - p[0] == len(p) - 1 else itemgetter(*p) for p in places[1:])
    return found


class CellMoves:
    """Moves per (key, virtual cell): `make(key, cells)` makes the moves of cells (virtual
    cell, the cell's `row,col` text) a list names."""

    __slots__ = ("board", "make", "limit", "tables", "by_key", "shared", "private", "span", "rows", "takes",
                 "drift", "width", "size", "virtual", "frame_bit", "home")

    def __init__(self, board, make, limit: int):
        self.board, self.make, self.limit = board, make, limit
        self.tables: dict = {}      # (key, origin) -> (move per virtual cell or None, pick per virtual cell or None, base, run)
        self.by_key: dict = {}      # key -> {origin: its table}, the same tables as `tables`
        self.shared: dict = {}      # key -> (moves, picks, run) of the origins near home
        self.private = 0            # tables of origins far from home
        self.span = span = min(board.cols + 1, SPAN)
        self.rows = rows = 2 if 2 * span <= PAIR else 1
        self.takes = pickers(rows * span)
        self.drift = drift = (board.rows, board.cols)      # how far an origin near home lies, at most
        self.width = width = board.width + 2 * drift[1]
        height = board.height + 2 * drift[0]
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
        dr, dc = origin[0] - self.home[0] + self.drift[0], origin[1] - self.home[1] + self.drift[1]
        if 0 <= dr <= 2 * self.drift[0] and 0 <= dc <= 2 * self.drift[1]:
            return dr * self.width + dc
        return None

    def base(self, origin) -> int:
        """Where frame bit 0 of a frame at `origin` lies in its tables (0 in tables of its own)."""
        base = self.near(origin)
        return 0 if base is None else base

    def bit(self, v: int, origin) -> int:
        """The frame bit of virtual cell `v` of the table of `origin` (a move's argument)."""
        return self.frame_bit[v - self.base(origin)]

    def origins(self, key) -> dict:
        """{origin: table} of `key`'s tables (`table`), one dict for good (emptied when all
        are forgotten): generated code reads a card's by its origin alone."""
        return self.by_key.setdefault(key, {})

    def clear(self) -> None:
        self.tables.clear()
        for tables in self.by_key.values():
            tables.clear()
        self.shared.clear()
        self.private = 0

    def table(self, key, origin):
        """(move per virtual cell or None, per virtual cell: the moves a pick from it takes
        from or None, the base of `origin`, what makes the picks' moves of a virtual cell and
        returns them: `runs[v] or run(v)`)."""
        table = self.tables.get((key, origin))
        if table is None:
            if len(self.tables) >= self.limit or self.private >= max(self.limit // 16, 1) or (
                    len(self.shared) + self.private) * self.size >= CELLS_HELD:
                self.clear()
            base = self.near(origin)
            if base is not None:
                found = self.shared.get(key)
                if found is None:
                    found = self.shared[key] = self._new(key, self.home[0] - self.drift[0], self.home[1] - self.drift[1])
            else:
                self.private, base = self.private + 1, 0
                found = self._new(key, origin[0], origin[1])
            cells, runs, run = found
            table = self.tables[key, origin] = self.origins(key)[origin] = (cells, runs, base, run)
        return table

    def _new(self, key, row0: int, col0: int) -> tuple:
        """A new table of `key`'s moves, virtual cell v naming the text cell (row0 + its row,
        col0 + its column): (moves, picks, the function that makes a virtual cell's pick)."""
        width, span, size, make = self.width, self.span, self.size, self.make
        cells, runs = [None] * size, [None] * size
        two = self.rows == 2

        def run(at: int) -> tuple:
            """The picks' moves of virtual cell `at` (its `span` cells', and the `span` below
            when a pick takes two rows), their moves made first (none for the cells past
            the end of a virtual row: no pick takes them)."""
            n = min(span, width - at % width)
            places = (*range(at, at + n), *range(at + width, at + width + n)) if two else range(at, at + n)
            new = [v for v in places if cells[v] is None]
            if new:
                for v, move in zip(new, make(key, [(v, f"{v // width + row0},{v % width + col0}") for v in new])):
                    cells[v] = move
            found = runs[at] = (*cells[at:at + span], *cells[at + width:at + width + span]) if two \
                else tuple(cells[at:at + span])
            return found

        return cells, runs, run

    def listed(self, key, origin, mask: int) -> CellList:
        """The moves of the frame cells of `mask`, in bit order (row by row): a new list."""
        out = CellList()
        cells, _, base, run = self.table(key, origin)
        out.free, out.cells, out.base, virtual = mask, cells, base, self.virtual
        while mask:
            low = mask & -mask
            v = virtual[low.bit_length() - 1] + base
            out.append(cells[v] or run(v)[0])
            mask ^= low
        return out
