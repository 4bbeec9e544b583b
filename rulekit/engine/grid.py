"""Geometry of a floating-origin grid display of cards.

A *display* is a ``dict[(row, col), payload]``; payloads are opaque here.
Coordinates live in one fixed frame (the first card placed lies at (0, 0));
they may be negative and are never re-based when cards move.  The display
must always fit in a ``rows`` x ``cols`` square (whose position is not fixed
until it is full) and be connected under ``adjacency`` (4: orthogonal
neighbours, 8: orthogonal and diagonal neighbours).  All results are
deterministic and sorted (row, then col).

Sliding a new card into a line (``slides``)
-------------------------------------------
A *line* is a row whose index lies in the display's current row range, or a
column whose index lies in its current column range, holding between 1 and
``length - 1`` cards (``length`` is ``cols`` for a row, ``rows`` for a
column).  The sliding card enters from one side ('left'/'right' for a row,
'top'/'bottom' for a column) and pushes away from that side.  Let the
*front* card be the line's card farthest from the entry side and ``k`` the
number of cards in the line.  For a push distance ``s >= 0``:

* the front card moves ``s`` cells in the push direction;
* the other line cards close up (keeping their order) into a contiguous
  block directly behind the front card;
* the sliding card lands on the cell directly behind the block (the
  ``target``); all other cards stay where they are.

No card ever moves backwards.  A distance is *legal* when the resulting
display fits in ``rows`` x ``cols`` and is connected.  The slide uses the
largest legal ``s`` ("as far as you can"); when no ``s`` is legal the slide
is unavailable.  If the line holds every card of the display, the result is
the same shape for every ``s``, so ``s = 0`` is used (the front card stays).
For a 4 x 4 square under 8-adjacency the legal distances form an interval
(property-tested), and ``s = 0`` can fail only because the sliding card
would stick out of the square; so "largest legal" is also where pushing
step by step from the first legal distance gets blocked.

Slides are ordered rows first (by index, 'left' before 'right'), then
columns (by index, 'top' before 'bottom').

Moving one of the player's other cards (``relocations``)
--------------------------------------------------------
A move ``(src, dst)`` is legal when ``src`` is one of the given mover
positions holding a card, ``dst`` is an empty cell other than ``src``, and,
with the card lifted from ``src``: ``dst`` is adjacent to a remaining card,
the display after the move fits the square, and it is connected.

Regions of a box
----------------
``BitBoard.regions(box)`` gives, for a ``box`` = (rmin, rmax, cmin, cmax), normally the
display's bounds, its corner cells (the four corners), its edge cells (its border, corners
included) and its centre cells (the others: the middle 2x2 of a 4x4 box).  Once the
display is full the box is the ``rows`` x ``cols`` square; mid-game it is the display's
current bounding box, which is what the regions then describe.
"""
from __future__ import annotations

import functools
from typing import Iterable, Mapping

Pos = tuple[int, int]
NEAR_TABLE_CELLS = 4096        # past this, neighbours by a shifted pattern (`BitBoard.around`)
Box = tuple[int, int, int, int]

_OFFSETS: dict[int, tuple[Pos, ...]] = {
    4: ((-1, 0), (0, -1), (0, 1), (1, 0)),
    8: ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)),
}

# (line, side, push step along the line), in the documented slide order.
_ENTRIES = (
    ("row", "left", 1), ("row", "right", -1),
    ("column", "top", 1), ("column", "bottom", -1),
)


def _offsets(adjacency: int) -> tuple[Pos, ...]:
    try:
        return _OFFSETS[adjacency]
    except KeyError:
        raise ValueError(f"adjacency must be 4 or 8, not {adjacency!r}") from None


def neighbours(pos: Pos, adjacency: int = 8) -> list[Pos]:
    """The 4 or 8 cells around ``pos``, sorted."""
    r, c = pos
    return [(r + dr, c + dc) for dr, dc in _offsets(adjacency)]


def bounds(cells: Iterable[Pos]) -> Box | None:
    """(rmin, rmax, cmin, cmax) of ``cells``, or None when there are none."""
    cells = list(cells)
    if not cells:
        return None
    rows, cols = [r for r, _ in cells], [c for _, c in cells]
    return min(rows), max(rows), min(cols), max(cols)


def _rect(width: int, height: int, r_lo: int, r_hi: int, c_lo: int, c_hi: int) -> int:
    """Rows r_lo..r_hi by columns c_lo..c_hi of a frame of ``height`` x ``width`` cells (cell
    (r, c) is bit r * width + c), clipped to the frame."""
    r_lo, r_hi = max(r_lo, 0), min(r_hi, height - 1)
    c_lo, c_hi = max(c_lo, 0), min(c_hi, width - 1)
    if r_lo > r_hi or c_lo > c_hi:
        return 0
    band = ((1 << (c_hi - c_lo + 1)) - 1) << c_lo
    # the band in every row (times a bit per row: no carries), cut to the rows asked; no loop
    return band * _every_row(width, height) & (1 << (r_hi + 1) * width) - (1 << r_lo * width)


@functools.lru_cache(maxsize=64)
def _every_row(width: int, height: int) -> int:
    """Bit 0 of each of the ``height`` rows of a frame ``width`` cells wide."""
    return ((1 << height * width) - 1) // ((1 << width) - 1)


def fits(cells: Iterable[Pos], rows: int, cols: int) -> bool:
    """True when ``cells`` fit in a ``rows`` x ``cols`` square (empty fits)."""
    b = bounds(cells)
    return b is None or (b[1] - b[0] < rows and b[3] - b[2] < cols)


class _Frame:
    """Cells as bits of an int: (r, c) is bit (r - r0) * width + (c - c0), with ``margin``
    empty rows and columns around ``box`` so that shifting by one cell never wraps a
    card's bit onto another row's card. Flood fills and neighbourhoods are then a few int
    shifts, which is what keeps move generation fast."""

    __slots__ = ("r0", "c0", "width", "height", "shifts")

    def __init__(self, box: Box, margin: int, offs: tuple[Pos, ...]):
        rmin, rmax, cmin, cmax = box
        self.r0, self.c0 = rmin - margin, cmin - margin
        self.width = cmax - cmin + 1 + 2 * margin
        self.height = rmax - rmin + 1 + 2 * margin
        self.shifts = tuple(dr * self.width + dc for dr, dc in offs)

    def mask(self, cells: Iterable[Pos]) -> int:
        r0, c0, width = self.r0, self.c0, self.width
        mask = 0
        for r, c in cells:
            mask |= 1 << ((r - r0) * width + c - c0)
        return mask

    def bit(self, pos: Pos) -> int:
        return 1 << ((pos[0] - self.r0) * self.width + pos[1] - self.c0)

    def cells(self, mask: int) -> list[Pos]:
        """Positions of the bits of ``mask``, sorted (row, then col)."""
        out, width, r0, c0 = [], self.width, self.r0, self.c0
        while mask:
            low = mask & -mask
            r, c = divmod(low.bit_length() - 1, width)
            out.append((r + r0, c + c0))
            mask ^= low
        return out

    def grow(self, mask: int) -> int:
        """``mask`` with every neighbour of its cells."""
        grown = mask
        for shift in self.shifts:
            grown |= mask << shift if shift > 0 else mask >> -shift
        return grown

    def groups(self, mask: int) -> list[int]:
        """The connected groups of ``mask``, each as a mask."""
        out = []
        while mask:
            reach = mask & -mask
            while True:
                grown = self.grow(reach) & mask
                if grown == reach:
                    break
                reach = grown
            out.append(reach)
            mask &= ~reach
        return out

    def rect(self, r_lo: int, r_hi: int, c_lo: int, c_hi: int) -> int:
        """The cells of rows r_lo..r_hi and columns c_lo..c_hi that lie in the frame."""
        r0, c0 = self.r0, self.c0
        return _rect(self.width, self.height, r_lo - r0, r_hi - r0, c_lo - c0, c_hi - c0)

    def window(self, box: Box, rows: int, cols: int) -> int:
        """Cells where one more card keeps a display with bounding ``box`` in rows x cols."""
        rmin, rmax, cmin, cmax = box
        return self.rect(rmax - rows + 1, rmin + rows - 1, cmax - cols + 1, cmin + cols - 1)


def is_connected(cells: Iterable[Pos], adjacency: int = 8) -> bool:
    """True when ``cells`` form one group under ``adjacency`` (empty: True)."""
    cells = set(cells)
    frame = _Frame(bounds(cells) or (0, 0, 0, 0), 1, _offsets(adjacency))
    return len(frame.groups(frame.mask(cells))) <= 1


def placements(display: Mapping[Pos, object], rows: int, cols: int,
               adjacency: int = 8) -> list[Pos]:
    """Empty cells adjacent to a card where a new card keeps the display
    inside ``rows`` x ``cols``.  An empty display gives [(0, 0)]."""
    if not display:
        return [(0, 0)]
    box = bounds(display)
    frame = _Frame(box, 1, _offsets(adjacency))
    occupied = frame.mask(display)
    return frame.cells(frame.grow(occupied) & ~occupied & frame.window(box, rows, cols))


class Slide:
    """One way to slide a new card into a line: ``moves`` holds (old, new) for every card of
    the line, in old-position order (``dict(slide.moves)`` is the mapping; a pair may be
    unchanged); ``target`` is where the sliding card ends."""

    __slots__ = ("line", "index", "side", "moves", "target")

    def __init__(self, line: str, index: int, side: str, step: int, xs, push: int):
        self.line, self.index, self.side = line, index, side
        front = (xs[-1] if step > 0 else xs[0]) + step * push
        order = xs[::-1] if step > 0 else xs        # front card first
        self.moves = tuple(sorted((_at(line, index, x), _at(line, index, front - step * j))
                                  for j, x in enumerate(order)))
        self.target = _at(line, index, front - step * len(xs))

    def __repr__(self) -> str:
        return f"Slide({self.line} {self.index} from {self.side}: {self.moves} -> {self.target})"


def _at(line: str, index: int, x: int) -> Pos:
    return (index, x) if line == "row" else (x, index)


class _Lines:
    """One display prepared for slides: its cards by row and by column, and a frame with
    room around it for pushed cards (``length`` cells on every side)."""

    def __init__(self, display, rows: int, cols: int, offs):
        self.rows, self.cols = rows, cols
        self.by = {"row": {}, "column": {}}
        for r, c in display:
            self.by["row"].setdefault(r, []).append(c)
            self.by["column"].setdefault(c, []).append(r)
        for places in self.by.values():
            for xs in places.values():
                xs.sort()
        frame = self.frame = _Frame(bounds(display), max(rows, cols) + 1, offs)
        self.occupied = frame.mask(display)

    def cells(self, line: str, index: int, lo: int, hi: int) -> int:
        """Mask of places lo..hi of a line (the part inside the frame)."""
        if line == "row":
            return self.frame.rect(index, index, lo, hi)
        return self.frame.rect(lo, hi, index, index)

    def others(self, line: str, index: int):
        """(extent of the other cards along the line, the neighbourhood mask of each of
        their groups): the pushed block joins the display when it meets every group's
        neighbourhood."""
        others = self.occupied & ~self.cells(line, index, -(1 << 20), 1 << 20)
        if not others:
            return None, ()
        across = self.by["column" if line == "row" else "row"]
        keys = [x for x, ys in across.items() if len(ys) > 1 or ys[0] != index]
        return (min(keys), max(keys)), tuple(map(self.frame.grow, self.frame.groups(others)))

    def distances(self, line: str, index: int, step: int, every: bool = False) -> list[int]:
        """Legal push distances (the largest, or all ascending if ``every``)."""
        xs = self.by[line].get(index, ())
        length = self.cols if line == "row" else self.rows
        k = len(xs)
        if not 0 < k < length:
            return []
        extent, touches = self.others(line, index)
        if extent is None:
            return [0]
        olo, ohi = extent
        front = xs[-1] if step > 0 else xs[0]
        # the block [lo, hi] fits with the others when hi < olo + length and lo > ohi - length
        if step > 0:
            top, bottom = olo + length - 1 - front, ohi - length + k + 1 - front
        else:
            top, bottom = front - ohi + length - 1, front + k - olo - length + 1
        legal = []
        for s in range(top, max(bottom, 0) - 1, -1):
            f = front + step * s
            block = self.cells(line, index, f - k, f) if step > 0 else self.cells(line, index, f, f + k)
            for touch in touches:
                if not touch & block:
                    break
            else:
                if not every:
                    return [s]
                legal.append(s)
        return legal[::-1]


def slides(display: Mapping[Pos, object], rows: int, cols: int,
           adjacency: int = 8) -> list[Slide]:
    """Every available slide of a new card into a line (see module doc)."""
    if not display:
        return []
    lines = _Lines(display, rows, cols, _offsets(adjacency))
    box = bounds(display)
    out = []
    for line, lo, hi, sides in (("row", box[0], box[1], _ENTRIES[:2]), ("column", box[2], box[3], _ENTRIES[2:])):
        for index in range(lo, hi + 1):
            for _, side, step in sides:
                legal = lines.distances(line, index, step)
                if legal:
                    out.append(Slide(line, index, side, step, lines.by[line][index], legal[-1]))
    return out


def relocations(display: Mapping[Pos, object], mover_positions: Iterable[Pos],
                rows: int, cols: int, adjacency: int = 8) -> list[tuple[Pos, Pos]]:
    """Every legal (src, dst) move of one card from ``mover_positions``.

    With the card lifted, the rest falls into groups; ``dst`` must touch every group
    (then the display is connected again) and keep it inside the square.
    """
    if not display:
        return []
    frame = _Frame(bounds(display), 1, _offsets(adjacency))
    occupied = frame.mask(display)
    out = []
    for src in sorted(set(mover_positions)):
        if src not in display:
            continue
        rest = occupied & ~frame.bit(src)
        if not rest:
            continue
        touching = -1
        for group in frame.groups(rest):
            touching &= frame.grow(group)
        box = bounds(p for p in display if p != src)
        free = touching & ~rest & ~frame.bit(src) & frame.window(box, rows, cols)
        out.extend((src, dst) for dst in frame.cells(free))
    return out


# --- bit tables for the engine ---------------------------------------------------------------
MAX_BOXES = 4096        # boxes of a frame's interior that `BitBoard.boxes` holds at most

class BitBoard:
    """The geometry above as int operations, for one board size: what the game engine uses.

    Cells are bits of a fixed frame, ``height`` x ``width`` cells; frame cell (fr, fc) is bit
    ``fr * width + fc``. The frame's inner part (``interior``: ``margins`` cells in, rows - 1
    at the top and bottom, cols - 1 at the sides, at least 1) is 2*rows-1 by 2*cols-1 cells, so
    every display that fits the board and holds the cell in its middle lies inside it; the
    margins leave room for a placed card (1 cell out) and a pushed line (``length - 1`` cells
    along it at most) without leaving the frame or wrapping from one frame row to the next.
    A state keeps where its frame lies (its origin), moved when the display leaves the interior.

    Placements are bit operations, equal to ``placements`` above (tested); slides and a
    moved card's targets are worked out by ``slides`` and ``relocations`` above, in the
    frame's bits. This is the reference: a compiled game lists its moves with generated
    code (``compile/codegen_grid.py``), tested against it.
    """

    def __init__(self, rows: int, cols: int, adjacency: int = 8):
        _offsets(adjacency)
        self.rows, self.cols, self.adjacency = rows, cols, adjacency
        self.margins = mr, mc = max(rows, 2) - 1, max(cols, 2) - 1      # a column's push, a row's
        self.width = width = 2 * cols - 1 + 2 * mc
        self.height = 2 * rows - 1 + 2 * mr
        self.size = width * self.height
        #: the origin (absolute cell of frame bit 0) of a display around (0, 0)
        self.home = (-(rows - 1) - mr, -(cols - 1) - mc)
        self.interior = self.rect(mr, mr + 2 * rows - 2, mc, mc + 2 * cols - 2)
        self.outside = ((1 << self.size) - 1) & ~self.interior
        self.row_cells = [self.rect(r, r, 0, width - 1) for r in range(self.height)]
        self.col_cells = [self.rect(0, self.height - 1, c, c) for c in range(width)]
        #: the (first, last) frame rows, then columns, of a box in the interior (where a display lies when listed)
        self.spans = [[(a, b) for a in range(m, m + 2 * n - 1) for b in range(a, min(a + n, m + 2 * n - 1))] for n, m in ((rows, mr), (cols, mc))]
        self._near: dict[int, list[int]] = {}
        self.boxes = self._boxes()
        self._regions: dict[Box, tuple[int, int, int]] = {}

    # -- cells and masks
    def bit(self, pos: Pos, origin: Pos) -> int:
        return (pos[0] - origin[0]) * self.width + pos[1] - origin[1]

    def pos(self, bit: int, origin: Pos) -> Pos:
        r, c = divmod(bit, self.width)
        return r + origin[0], c + origin[1]

    def inside(self, pos: Pos, origin: Pos) -> bool:
        """``pos`` lies in the interior of a frame at ``origin``."""
        r, c = pos[0] - origin[0], pos[1] - origin[1]
        return 0 <= r < self.height and 0 <= c < self.width and self.interior >> r * self.width + c & 1 == 1

    def rect(self, r_lo: int, r_hi: int, c_lo: int, c_hi: int) -> int:
        """Frame rows r_lo..r_hi by frame columns c_lo..c_hi (clipped to the frame)."""
        return _rect(self.width, self.height, r_lo, r_hi, c_lo, c_hi)

    def near(self, adjacency: int) -> list[int]:
        """Per frame bit: the mask of its 4 or 8 neighbours inside the frame."""
        table = self._near.get(adjacency)
        if table is None:
            width, height, offs = self.width, self.height, _offsets(adjacency)
            table = self._near[adjacency] = [0] * self.size
            for bit in range(self.size):
                r, c = divmod(bit, width)
                around = 0          # the neighbours from the cell up and to the left, then shifted once
                for dr, dc in offs:
                    if 0 <= r + dr < height and 0 <= c + dc < width:
                        around |= 1 << (dr + 1) * width + dc + 1
                at = bit - width - 1
                table[bit] = around << at if at >= 0 else around >> -at
        return table

    def around(self, bit: int, adjacency: int) -> int:
        """The cells next to interior cell ``bit`` (where a display lies): ``near``'s entry, or on
        a large frame the pattern shifted to the cell, equal there and with no per-cell table."""
        if self.size <= NEAR_TABLE_CELLS:
            return self.near(adjacency)[bit]
        return self.pattern(adjacency) << bit >> self.width + 1

    def pattern(self, adjacency: int) -> int:
        """The 4 or 8 neighbours of the cell at bit ``width + 1`` (row 1, column 1)."""
        return sum(1 << (dr + 1) * self.width + dc + 1 for dr, dc in _offsets(adjacency))

    def grow(self, mask: int) -> int:
        """``mask`` with every neighbour of its cells (under the board's adjacency)."""
        width = self.width
        wide = mask | mask << 1 | mask >> 1
        if self.adjacency == 8:
            return wide | wide << width | wide >> width
        return wide | mask << width | mask >> width

    def box(self, mask: int) -> Box:
        """(first row, last row, first column, last column) of a non-empty mask, in the frame."""
        width = self.width
        r0 = ((mask & -mask).bit_length() - 1) // width
        r1 = (mask.bit_length() - 1) // width
        rows, across = mask >> r0 * width, 0
        for _ in range(r1 - r0 + 1):
            across |= rows
            rows >>= width
        across &= (1 << width) - 1
        return r0, r1, (across & -across).bit_length() - 1, across.bit_length() - 1

    def window(self, box: Box) -> int:
        """Cells where one more card keeps a display with this bounding box inside the board."""
        r0, r1, c0, c1 = box
        return self.rect(r1 - self.rows + 1, r0 + self.rows - 1, c1 - self.cols + 1, c0 + self.cols - 1)

    def _boxes(self) -> dict | None:
        """Per box of `spans`: its window, and the first and past-last bits of the rows a placed card may take; None past `MAX_BOXES`."""
        rows, cols, width, spans = self.rows, self.cols, self.width, self.spans
        if len(spans[0]) * len(spans[1]) > MAX_BOXES:
            return None
        across = {(r0, r1): self.rect(r1 - rows + 1, r0 + rows - 1, 0, width - 1) for r0, r1 in spans[0]}
        down = {(c0, c1): self.rect(0, self.height - 1, c1 - cols + 1, c0 + cols - 1) for c0, c1 in spans[1]}
        return {(r0, r1, c0, c1): (across[r0, r1] & down[c0, c1], max(r0 - 1, r1 - rows + 1) * width + max(c0 - 1, c1 - cols + 1),
                                   (min(r1 + 1, r0 + rows - 1) + 1) * width + max(c0 - 1, c1 - cols + 1))
                for r0, r1 in spans[0] for c0, c1 in spans[1]}

    def regions(self, box: Box) -> tuple[int, int, int]:
        """(corner, edge, centre) cells of a bounding box, as the module docstring says."""
        found = self._regions.get(box)
        if found is None:
            r0, r1, c0, c1 = box
            inside = self.rect(r0, r1, c0, c1)
            rows = self.rect(r0, r0, c0, c1) | self.rect(r1, r1, c0, c1)
            cols = self.rect(r0, r1, c0, c0) | self.rect(r0, r1, c1, c1)
            found = self._regions[box] = (rows & cols, rows | cols, inside & ~(rows | cols))
        return found

    # -- moves
    def placements(self, occ: int, box: Box) -> int:
        """Empty cells next to a card where a new card keeps the display inside the board."""
        return self.grow(occ) & ~occ & self.window(box)

    def _display(self, occ: int) -> dict:
        """The cells of a mask as a display (frame cells as positions, no payloads)."""
        return {self.pos(bit, (0, 0)): None for bit in range(occ.bit_length()) if occ >> bit & 1}

    def targets(self, occ: int, box: Box, src: int) -> int:
        """Cells the card at bit ``src`` of a connected display may move to (``relocations``,
        in the frame's bits; ``box`` is the display's)."""
        found = 0
        for _, dst in relocations(self._display(occ), [self.pos(src, (0, 0))], self.rows, self.cols, self.adjacency):
            found |= 1 << self.bit(dst, (0, 0))
        return found

    def slides(self, occ: int, box: Box, lines: str) -> list[tuple]:
        """``slides`` of a non-empty connected display in the frame's bits, only into lines
        named in ``lines`` ("row", "column" or both), in the same order: (the slide's number,
        the line's cells, the bits from one place of the line to the next, the first cell of
        the pushed block, the sliding card's cell) each, which ``slide_cells`` turns into
        moves; the number says the line and side (``slide_name``) and grows in slide order."""
        display, out = self._display(occ), []
        for slide in slides(display, self.rows, self.cols, self.adjacency):
            if slide.line in lines:
                cells = sum(1 << self.bit(old, (0, 0)) for old, _ in slide.moves)
                first = min(self.bit(new, (0, 0)) for _, new in slide.moves)
                number = 2 * (slide.index if slide.line == "row" else self.height + slide.index)
                out.append((number + (slide.side in ("right", "bottom")), cells,
                            1 if slide.line == "row" else self.width, first, self.bit(slide.target, (0, 0))))
        return out

    def slide_name(self, number: int) -> tuple[str, int, str]:
        """(line, frame index, side) of a slide's number (``slides``)."""
        if number < 2 * self.height:
            return "row", number >> 1, ("left", "right")[number & 1]
        return "column", (number >> 1) - self.height, ("top", "bottom")[number & 1]


def slide_cells(slide: tuple) -> tuple[list[tuple[int, int]], int]:
    """((old bit, new bit) for each card of the line, lowest first; the sliding card's bit)
    of one entry of ``BitBoard.slides``."""
    _, line, stride, first, target = slide
    pairs = []
    while line:
        low = line & -line
        pairs.append((low.bit_length() - 1, first))
        first += stride
        line ^= low
    return pairs, target
