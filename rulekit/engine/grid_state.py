"""The part of a game state that lives on a grid board: the display, the own decks, the token.

Pipeline place: compiler → **engine**. A `GridState` sits in `state.extra["grid"]`. The
display maps (row, col) to a card id and back; `mask` is the set of card ids on it and
`occ` a bitmask of occupied cells in a fixed frame, so that move lists can be cached per
display shape. Geometry the scoring expressions ask for (rows, regions, the bounding box)
is computed once per display and dropped whenever a card moves.
"""
from __future__ import annotations

from . import grid

#: The frame of `occ`, a cache key for the display's shape: cell (r, c) is bit
#: (r + OFFSET) * WIDTH + (c + OFFSET). A display reaching beyond it has no key (occ -1).
WIDTH = 24
OFFSET = 11


def cell_bit(pos) -> int:
    return (pos[0] + OFFSET) * WIDTH + pos[1] + OFFSET


def in_frame(pos) -> bool:
    """Inside the frame with a free cell all round, so every neighbour has a bit too."""
    return -OFFSET < pos[0] < OFFSET and -OFFSET < pos[1] < OFFSET


class Geometry:
    """Card masks by row, column and region of one display (its bounding box as the square)."""

    __slots__ = ("box", "rows", "cols", "regions", "near")

    def __init__(self, cells: dict):
        self.near: dict[int, int] = {}      # card * 16 + adjacency -> mask of its neighbours
        self.box = grid.bounds(cells)
        self.rows: dict[int, int] = {}
        self.cols: dict[int, int] = {}
        corner = edge = centre = 0
        rmin, rmax, cmin, cmax = self.box or (0, 0, 0, 0)
        rows, cols = self.rows, self.cols
        for (r, c), card in cells.items():       # as grid.is_corner / is_edge / is_centre
            bit = 1 << card
            rows[r] = rows.get(r, 0) | bit
            cols[c] = cols.get(c, 0) | bit
            on_row, on_col = r == rmin or r == rmax, c == cmin or c == cmax
            if on_row or on_col:
                edge |= bit
                if on_row and on_col:
                    corner |= bit
            else:
                centre |= bit
        self.regions = {"corner": corner, "edge": edge, "centre": centre}


class GridState:
    """Display, decks, revealed cards, placing order, tie-breaker token and removed cards."""

    __slots__ = ("cells", "where", "mask", "occ", "decks", "tiebreaker", "revealed", "queue",
                 "passer", "effect", "removed", "_geo", "_points", "_points_key")

    def __init__(self, players: int):
        self.cells: dict[tuple[int, int], int] = {}
        self.where: dict[int, tuple[int, int]] = {}
        self.mask = 0
        self.occ = 0                    # -1 once a card lies outside the bit frame
        self.decks: list[list[int]] = [[] for _ in range(players)]
        self.tiebreaker = 0
        self.revealed: list[int | None] = [None] * players
        self.queue: list[int] = []      # seats still to place this round, in order
        self.passer = None              # seat that passes the token after placing
        self.effect = None              # (seat, card, moves or None) while a placed card's move is pending
        self.removed = [0] * players    # masks of cards out of the game, per owner
        self._geo = None
        self._points = None
        self._points_key = None

    def copy(self) -> "GridState":
        other = GridState.__new__(GridState)
        other.cells, other.where = dict(self.cells), dict(self.where)
        other.mask, other.occ, other.tiebreaker = self.mask, self.occ, self.tiebreaker
        other.decks = [list(d) for d in self.decks]
        other.revealed, other.queue = list(self.revealed), list(self.queue)
        other.passer, other.effect, other.removed = self.passer, self.effect, list(self.removed)
        other._geo, other._points, other._points_key = self._geo, None, None
        return other

    # ---- changing the display -------------------------------------------------------------

    def put(self, card: int, pos) -> None:
        self.cells[pos] = card
        self.where[card] = pos
        self.mask |= 1 << card
        if self.occ >= 0:
            self.occ = self.occ | 1 << cell_bit(pos) if in_frame(pos) else -1
        self._geo = self._points = None

    def lift(self, card: int):
        pos = self.where.pop(card)
        del self.cells[pos]
        self.mask &= ~(1 << card)
        if self.occ >= 0:
            self.occ &= ~(1 << cell_bit(pos))
        self._geo = self._points = None
        return pos

    def shift(self, moves) -> None:
        """Move several cards at once: `moves` is a list of (old, new) positions."""
        cards = [(self.cells[old], new) for old, new in moves]
        for card, _ in cards:
            self.lift(card)
        for card, new in cards:
            self.put(card, new)

    def reframe(self) -> None:
        """Recompute `occ` from the cells (after a restore)."""
        self.occ = 0
        for pos in self.cells:
            if not in_frame(pos):
                self.occ = -1
                return
            self.occ |= 1 << cell_bit(pos)
        self._geo = self._points = None

    # ---- questions about the display ------------------------------------------------------

    @property
    def geometry(self) -> Geometry:
        geo = self._geo
        if geo is None:
            geo = self._geo = Geometry(self.cells)
        return geo

    def neighbour_mask(self, card: int, adjacency: int) -> int:
        geo = self.geometry
        key = card * 16 + adjacency
        mask = geo.near.get(key)
        if mask is None:
            mask = 0
            pos = self.where.get(card)
            if pos is not None:
                cells = self.cells
                for other in grid.neighbours(pos, adjacency):
                    found = cells.get(other)
                    if found is not None:
                        mask |= 1 << found
            geo.near[key] = mask
        return mask

    def line_mask(self, card: int, line: str) -> int:
        pos = self.where.get(card)
        if pos is None:
            return 0
        geo = self.geometry
        return geo.rows[pos[0]] if line == "row" else geo.cols[pos[1]]

    def region_mask(self, region: str) -> int:
        return self.geometry.regions[region] if self.cells else 0

    def points_memo(self, key) -> dict:
        """The memo of card points for the state as it is at `key` (fresh when `key` changed)."""
        if self._points_key != key or self._points is None:
            self._points, self._points_key = {}, key
        return self._points
