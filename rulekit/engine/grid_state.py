"""The part of a game state that lives on a grid board: the display, the own decks, the token.

Pipeline place: compiler → **engine**. A `GridState` sits in `state.extra["grid"]`. The
display is kept as bits of the board's frame (`grid.BitBoard`): `occ` holds the occupied
cells, `at` maps a cell's bit to its card and `where` a card to its bit; `origin` is the
display coordinate of frame bit 0 (the first card lies at 0,0, and the frame moves along
when the display wanders). `mask` is the set of card ids on the display. Geometry the
scoring expressions ask for (a region's cells, the cells of some cards) is worked out when
asked; the cells of each kind of card (`Kinds`: a card name, a seat's cards) are kept as
cards come and go, since card rules read them most, and the cards' points are kept for the
position they were worked out for (`points_memo`).
"""
from __future__ import annotations

from .grid import BitBoard

#: a region's place in `BitBoard.regions`
_REGIONS = {"corner": 0, "edge": 1, "centre": 2}


class Kinds:
    """Card masks whose cells a `GridState` keeps up to date (`kind_cells`): `index` maps a
    mask to its slot, `of[card]` lists the slots of the masks that hold the card."""

    def __init__(self, masks, size: int):
        self.masks = list(dict.fromkeys(masks))
        self.index = {mask: i for i, mask in enumerate(self.masks)}
        self.of = [tuple(i for i, mask in enumerate(self.masks) if mask >> card & 1) for card in range(size)]


class _NoSlots:
    def __getitem__(self, card: int) -> tuple:
        return ()


#: no kinds kept (a GridState made outside a compiled game)
NO_KINDS = Kinds((), 0)
NO_KINDS.of = _NoSlots()


class GridState:
    """Display, decks, revealed cards, placing order, tie-breaker token and removed cards."""

    __slots__ = ("board", "origin", "occ", "at", "where", "mask", "decks", "tiebreaker", "revealed",
                 "queue", "passer", "effect", "removed", "returning", "kinds", "kind_cells", "_box", "_points", "_points_key")

    def __init__(self, players: int, board: BitBoard, kinds: Kinds = NO_KINDS):
        self.board, self.kinds = board, kinds
        self.kind_cells = [0] * len(kinds.masks)    # per slot of `kinds`: its cards' cells
        self.origin = board.home
        self.occ = 0
        self.at: dict[int, int] = {}        # frame bit -> card
        self.where: dict[int, int] = {}     # card -> frame bit
        self.mask = 0
        self.decks: list[list[int]] = [[] for _ in range(players)]
        self.tiebreaker = 0
        self.revealed: list[int | None] = [None] * players
        self.queue: list[int] = []      # seats still to place this round, in order
        self.passer = None              # seat that passes the token after placing
        self.effect = None              # (seat, card, moves or None) while a placed card's move is pending
        self.removed = [0] * players    # masks of cards out of the game, per owner
        self.returning = [0] * players  # masks of drawn cards not kept, still to go back to the deck
        self._box = self._points = self._points_key = None

    def copy(self) -> "GridState":
        other = GridState.__new__(GridState)
        other.board, other.origin, other.occ, other.mask = self.board, self.origin, self.occ, self.mask
        other.kinds, other.kind_cells = self.kinds, list(self.kind_cells)
        other.at, other.where = dict(self.at), dict(self.where)
        other.decks = [list(d) for d in self.decks]
        other.tiebreaker, other.passer, other.effect = self.tiebreaker, self.passer, self.effect
        other.revealed, other.queue, other.removed = list(self.revealed), list(self.queue), list(self.removed)
        other.returning = list(self.returning)
        other._box, other._points, other._points_key = self._box, None, None
        return other

    # ---- positions ------------------------------------------------------------------------

    @property
    def cells(self) -> dict[tuple[int, int], int]:
        """The display as {(row, col): card}, row by row."""
        pos, origin = self.board.pos, self.origin
        return {pos(bit, origin): self.at[bit] for bit in sorted(self.at)}

    def bit_of(self, pos) -> int:
        return self.board.bit(pos, self.origin)

    @property
    def box(self):
        """The display's bounding box in the frame (None when empty)."""
        box = self._box
        if box is None and self.occ:
            box = self._box = self.board.box(self.occ)
        return box

    # ---- changing the display -------------------------------------------------------------

    def put(self, card: int, bit: int) -> None:
        self.at[bit] = card
        self.where[card] = bit
        self.mask |= 1 << card
        self.occ |= 1 << bit
        cells = self.kind_cells
        for slot in self.kinds.of[card]:
            cells[slot] |= 1 << bit
        self._box = self._points = None

    def lift(self, card: int) -> int:
        bit = self.where.pop(card)
        del self.at[bit]
        self.mask &= ~(1 << card)
        self.occ &= ~(1 << bit)
        cells = self.kind_cells
        for slot in self.kinds.of[card]:
            cells[slot] &= ~(1 << bit)
        self._box = self._points = None
        return bit

    def shift(self, moves) -> None:
        """Move several cards at once: `moves` holds (old bit, new bit) pairs."""
        at = self.at
        cards = [(at[old], new) for old, new in moves]
        for card, _ in cards:
            self.lift(card)
        for card, new in cards:
            self.put(card, new)

    def recentre(self) -> None:
        """Move the frame so that the display lies in the middle of its interior."""
        board = self.board
        r0, r1, c0, c1 = board.box(self.occ)
        dr = board.margins[0] + (2 * board.rows - 1 - (r1 - r0 + 1)) // 2 - r0
        dc = board.margins[1] + (2 * board.cols - 1 - (c1 - c0 + 1)) // 2 - c0
        by = dr * board.width + dc
        self.origin = (self.origin[0] - dr, self.origin[1] - dc)
        self.at = {bit + by: card for bit, card in self.at.items()}
        self.where = {card: bit for bit, card in self.at.items()}
        self.occ = self.occ << by if by >= 0 else self.occ >> -by
        self.kind_cells = [cells << by if by >= 0 else cells >> -by for cells in self.kind_cells]
        self._box = self._points = None

    def load(self, cells: dict) -> None:
        """Lay out a display {(row, col): card} that fits the board (a restored view)."""
        board = self.board
        self.origin, self.occ, self.mask, self.at, self.where = board.home, 0, 0, {}, {}
        self.kind_cells = [0] * len(self.kinds.masks)
        if not all(board.inside(pos, board.home) for pos in cells):
            rmin, cmin = min(r for r, _ in cells), min(c for _, c in cells)
            self.origin = (rmin - board.margins[0], cmin - board.margins[1])
        for pos, card in cells.items():
            self.put(card, board.bit(pos, self.origin))
        if self.occ & board.outside:        # the display left the frame's interior
            self.recentre()
        self._box = self._points = None

    # ---- questions about the display ------------------------------------------------------
    # Sets of places come as cell masks (bits of the frame); `cells_of` and `cards_at` turn
    # card masks into cell masks and back. (The generated end of a grid game asks each once
    # per position, compile/codegen_grid_points.py: nothing here is kept between questions.)

    def cells_of(self, cards: int) -> int:
        """The cells of the cards of a card mask that lie on the display."""
        slot = self.kinds.index.get(cards)
        return self.kind_cells[slot] if slot is not None else _mapped(cards & self.mask, self.where)

    def cards_at(self, cells: int) -> int:
        """The cards on the cells of a cell mask, as a card mask."""
        return _mapped(cells, self.at)

    def near_cells(self, card: int, adjacency: int) -> int:
        """The occupied cells next to a card (none when it is not on the display)."""
        bit = self.where.get(card)
        return 0 if bit is None else self.board.around(bit, adjacency) & self.occ

    def line_cells(self, card: int, line: str) -> int:
        """The occupied cells of a card's row or column (none when it is not on the display)."""
        bit = self.where.get(card)
        if bit is None:
            return 0
        r, c = divmod(bit, self.board.width)
        return self.occ & (self.board.row_cells[r] if line == "row" else self.board.col_cells[c])

    def region_cells(self, region: str) -> int:
        """The occupied cells of a region of the display's bounding box: "corner", "edge"
        (corners included) or "centre" (the cells off the edge)."""
        return self.region_masks()[_REGIONS[region]]

    def region_masks(self) -> tuple[int, int, int]:
        """The occupied (corner, edge, centre) cells."""
        occ = self.occ
        if not occ:
            return (0, 0, 0)
        corner, edge, centre = self.board.regions(self.box)
        return (occ & corner, occ & edge, occ & centre)

    def in_region(self, card: int, region: str) -> bool:
        bit = self.where.get(card)
        if bit is None:
            return False
        return self.region_masks()[_REGIONS[region]] >> bit & 1 == 1

    def points_memo(self, key) -> dict:
        """The memo of card points for the state as it is at `key` (fresh when `key` changed)."""
        if self._points_key != key or self._points is None:
            self._points, self._points_key = {}, key
        return self._points


def _mapped(mask: int, to) -> int:
    """The mask of the bits `to[i]` for the bits i of `mask` (a card's cell, a cell's card)."""
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << to[low.bit_length() - 1]
        mask ^= low
    return out
