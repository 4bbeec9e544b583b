#!/usr/bin/env python3
"""Duell der Tiere written by hand behind rulekit's step API: the yardstick for the grid game.

    python benchmarks/hand_duell.py [--games N] [--seed S]    -> one JSON line

`State` plays Instinkt: Duell der Tiere for 2 players as `rules/duell-der-tiere.rules` says,
with the readings of docs/interpretations.md ("Instinkt: Duell der Tiere") and the geometry
of docs/language-grid.md: both players choose a card (`choose wolf`, seat 0 then seat 1), the
cards are revealed, a Snake removes both, else the higher number places first (equal numbers:
the tie-breaker holder, who then passes the token), on an empty space next to a card keeping
the display within 4x4 (`place wolf at 0,1`, the first card at 0,0); the Deer slides into a
row or column of 1-3 cards (`slide deer into row 1 from left`, pushed as far as the display
stays connected and within 4x4), the Raccoon's owner then moves one of their other cards
(`move cat to -1,0`, skipped when no move is legal), each draws 1, and the game ends after the
round that fills the display (or leaves no card in hand); the cards score at the end, winners
by score, then by own cards that scored, then by the hand's numbers.

It is the same shape as `hand_instinct.State`: `legal_moves()` returns a list of move objects
whose `.text` (and str) is rulekit's notation, `apply(move)` checks that the move is one of
them and plays it, `is_terminal`, `scores`, `winners`, `current_player`. Written as tightly as
we could in plain Python: the display is bits of a 16 x 16 frame (row r is bits 16r..16r+15)
that moves along when the display wanders, the placements are a few int operations, the
moves are interned per card, frame origin and cell (and listed per frame row's pattern of
cells), as rulekit's engine interns them, and the Deer's slides read each side's groups of
cards from a table by that side's shape on the 4x4 box (rulekit's generated code also works
slides out from tables over 4x4 shapes). It caches nothing the engine could not cache too
(no position, no list of a position's moves). Set-up is not timed by `api_games`, as
`bench_play.py` does not time rulekit's `new_game`.

`tests/test_bench_duell.py` plays it against rulekit's `duell-der-tiere` move by move (the
same decks, hands and token): the same player and the same legal moves at every decision,
the same scores and winners at the end.
"""
from __future__ import annotations

import argparse
import json
import random
import time

TEXTS = ("crow", "bat", "moth", "spider 4", "spider 5", "cat", "owl", "wolf", "jackalope", "deer",
         "raccoon", "snake")
CROW, BAT, MOTH, SPIDER4, SPIDER5, CAT, OWL, WOLF, JACKALOPE, DEER, RACCOON, SNAKE = range(12)
CARDS = 12
#: the numbers on the cards; the Snake's X counts 0
NUMBER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0)
HAND = 3
SIDE = 4            # the display is SIDE x SIDE
FULL = SIDE * SIDE

# ---- the frame: cell (r, c) of the frame is bit r * W + c -------------------------------------
W = 16
ROW = (1 << W) - 1
#: frame row and column of display cell 0,0 while the frame lies at home
HOME = 6
#: cards stay in frame rows and columns LO..HI (else the frame moves): a card placed next to
#: them, a pushed line (at most SIDE - 1 cells out) and a neighbourhood never leave the frame
LO, HI = 3, 12
OUTSIDE = ((1 << W * W) - 1) & ~sum(((1 << (HI - LO + 1)) - 1) << (r * W + LO) for r in range(LO, HI + 1))
ROW_CELLS = tuple(ROW << (r * W) for r in range(W))
COL_CELLS = tuple(sum(1 << (r * W + c) for r in range(W)) for c in range(W))
#: RUN[n]: n consecutive cells of a row, from bit 0
RUN = tuple((1 << n) - 1 for n in range(SIDE + 2))
#: by a box's (first * W + last) row (column): the frame rows (columns) where one more card
#: keeps the display within SIDE rows (columns)
ROW_WINDOW = [0] * (W * W)
COL_WINDOW = [0] * (W * W)
for _a in range(W):
    for _b in range(_a, W):
        _lo, _hi = max(_b - SIDE + 1, 0), min(_a + SIDE - 1, W - 1)
        ROW_WINDOW[_a * W + _b] = sum(ROW_CELLS[r] for r in range(_lo, _hi + 1))
        COL_WINDOW[_a * W + _b] = sum(COL_CELLS[c] for c in range(_lo, _hi + 1))
#: the columns (bit numbers) of a row's 16 cells, by the row's mask
COLUMNS = tuple(tuple(c for c in range(W) if m >> c & 1) for m in range(1 << W))

# moves: kind, argument, text
CHOOSE, PLACE, SLIDE, MOVE = range(4)


class Move:
    __slots__ = ("kind", "arg", "text")

    def __init__(self, kind: int, arg, text: str):
        self.kind, self.arg, self.text = kind, arg, text

    def __str__(self) -> str:
        return self.text

    __repr__ = __str__


class IllegalMove(ValueError):
    pass


CHOICES = tuple(Move(CHOOSE, card, "choose " + TEXTS[card]) for card in range(CARDS))
#: the choose moves of a hand, by its mask
HAND_CHOICES = tuple(tuple(CHOICES[c] for c in range(CARDS) if hand >> c & 1) for hand in range(1 << CARDS))


class _Tables:
    """The moves of one frame origin, made when first listed: per card and frame row r, the
    place (move) moves of a pattern of the row's cells (`listed`), each move
    made once per card and cell (`cells`); and the Deer's slides by line and side (`slides`)."""

    __slots__ = ("origin", "place", "move", "cells", "slides")

    def __init__(self, origin):
        self.origin = origin
        self.place = [[{} for _ in range(W)] for _ in range(CARDS)]
        self.move = [[{} for _ in range(W)] for _ in range(CARDS)]
        self.cells: dict = {}
        self.slides = [None] * (4 * W)

    def listed(self, kind: int, card: int, r: int, bits: int) -> tuple:
        """The moves of `card` to the cells `bits` of frame row r, kept in the row's table."""
        moves = []
        for i in range(W):
            if bits >> i & 1:
                bit = r * W + i
                key = (kind, card, bit)
                move = self.cells.get(key)
                if move is None:
                    at = f"{bit // W + self.origin[0]},{bit % W + self.origin[1]}"
                    if kind == PLACE:
                        move = Move(PLACE, bit, f"place {TEXTS[card]} at {at}")
                    else:
                        move = Move(MOVE, card * W * W + bit, f"move {TEXTS[card]} to {at}")
                    self.cells[key] = move
                moves.append(move)
        found = (self.place if kind == PLACE else self.move)[card][r][bits] = tuple(moves)
        return found

    def slide(self, number: int) -> Move:
        """Slide number 2r + side (0: from left, 1: from right) into frame row r, or 2W + 2c +
        side (0: from top, 1: from bottom) into frame column c."""
        line, side = divmod(number, 2)
        if line < W:
            move = Move(SLIDE, None, f"slide deer into row {line + self.origin[0]} from {('left', 'right')[side]}")
        else:
            move = Move(SLIDE, None, f"slide deer into column {line - W + self.origin[1]} from {('top', 'bottom')[side]}")
        self.slides[number] = move
        return move


_TABLES: dict = {}


def tables(origin) -> _Tables:
    found = _TABLES.get(origin)
    if found is None:
        found = _TABLES[origin] = _Tables(origin)
    return found


def grow(mask: int) -> int:
    wide = mask | mask << 1 | mask >> 1
    return wide | wide << W | wide >> W


def touches(mask: int) -> list[int]:
    """The neighbourhood (the cells and the cells around them) of each 8-connected group of `mask`."""
    out = []
    while mask:
        reach = mask & -mask
        while True:
            wide = reach | reach << 1 | reach >> 1
            near = wide | wide << W | wide >> W
            grown = near & mask
            if grown == reach:
                break
            reach = grown
        out.append(near)
        mask ^= reach
    return out


def box_of(mask: int) -> tuple[int, int, int, int]:
    """(first row, last row, first column, last column) of a non-empty mask, in the frame."""
    r0 = ((mask & -mask).bit_length() - 1) // W
    r1 = (mask.bit_length() - 1) // W
    across, rows = 0, mask >> (r0 * W)
    for _ in range(r1 - r0 + 1):
        across |= rows & ROW
        rows >>= W
    return r0, r1, (across & -across).bit_length() - 1, across.bit_length() - 1


def _ring_connected(pattern: int) -> bool:
    """Whether the cells of `pattern` (a 3 x 3 block, bit 3i + j, the middle left out) are
    one non-empty 8-connected group: then lifting the middle card leaves a connected display
    connected (a path through it goes round through them)."""
    cells = {(b // 3, b % 3) for b in range(9) if pattern >> b & 1 and b != 4}
    if not cells:
        return False
    seen, todo = set(), [next(iter(cells))]
    while todo:
        r, c = todo.pop()
        if (r, c) in seen:
            continue
        seen.add((r, c))
        todo += [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (r + dr, c + dc) in cells]
    return seen == cells


#: by the 3 x 3 block around a card (`_ring_connected`)
RING_CONNECTED = tuple(_ring_connected(p) for p in range(1 << 9))

# The Deer's slides are worked out on the display's box as 4 x 4 bits (cell (i, j) of the box
# is bit 4i + j), a row i of it as 4 bits; columns on the box turned over (`SPREAD`).
COUNT4 = tuple(bin(m).count("1") for m in range(16))
LOW4 = tuple((m & -m).bit_length() - 1 for m in range(16))
HIGH4 = tuple(m.bit_length() - 1 for m in range(16))
#: a row of the box as a column of the box turned over
SPREAD = tuple(sum(1 << (4 * j) for j in range(4) if m >> j & 1) for m in range(16))
#: by up to 3 rows of the box on one side of a line, nearest first: the columns they hold
ACROSS = tuple((p | p >> 4 | p >> 8) & 15 for p in range(1 << 12))


def _shadows(part: int) -> tuple[int, ...]:
    """Up to 3 rows on one side of a line (nearest first, 4 bits each): for each 8-connected
    group of their cells, the places of the line next to its cells in the nearest row, as bits
    j + 4 (j = -1..4). Every group has cells there (the display is connected), so a pushed
    block meets the group when it covers one of these places."""
    cells = {(b // 4, b % 4) for b in range(12) if part >> b & 1}
    out = []
    while cells:
        todo, group = [cells.pop()], []
        while todo:
            r, c = todo.pop()
            group.append((r, c))
            for near in [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]:
                if near in cells:
                    cells.remove(near)
                    todo.append(near)
        shadow = 0
        for r, c in group:
            if r == 0:
                shadow |= 7 << (c + 3)
        out.append(shadow)
    return tuple(out)


SHADOWS = tuple(_shadows(p) for p in range(1 << 12))


def shuffled_decks(rnd) -> list[list[int]]:
    """Each player's twelve cards, shuffled (Fisher-Yates), top first."""
    decks = []
    for _ in range(2):
        deck = list(range(CARDS))
        for i in range(CARDS - 1):
            j = i + int(rnd() * (CARDS - i))
            deck[i], deck[j] = deck[j], deck[i]
        decks.append(deck)
    return decks


# ---- scoring, once at the end ------------------------------------------------------------------

def _near(offsets) -> tuple[int, ...]:
    out = []
    for bit in range(W * W):
        r, c, mask = bit // W, bit % W, 0
        for dr, dc in offsets:
            if 0 <= r + dr < W and 0 <= c + dc < W:
                mask |= 1 << ((r + dr) * W + c + dc)
        out.append(mask)
    return tuple(out)


#: per frame bit, the cells around it (8 and 4 neighbours)
NEAR8 = _near([(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc])
NEAR4 = _near([(-1, 0), (0, -1), (0, 1), (1, 0)])
#: by (first * W + last): the frame rows (columns) first..last, 0 when last < first
ROW_SPAN = tuple(sum(ROW_CELLS[r] for r in range(a, b + 1)) for a in range(W) for b in range(W))
COL_SPAN = tuple(sum(COL_CELLS[c] for c in range(a, b + 1)) for a in range(W) for b in range(W))


def points(where: list, occ: int, r0: int, r1: int, c0: int, c1: int) -> list:
    """Each card's points, by seat * 12 + card (None for a card not on the display); the
    corners, edge and centre are those of the display's box (the 4 x 4 square at the end)."""
    inside = ROW_SPAN[r0 * W + r1] & COL_SPAN[c0 * W + c1]
    centre = ROW_SPAN[(r0 + 1) * W + r1 - 1] & COL_SPAN[(c0 + 1) * W + c1 - 1]     # 0 when too thin
    edge = inside & ~centre
    corner = (ROW_CELLS[r0] | ROW_CELLS[r1]) & (COL_CELLS[c0] | COL_CELLS[c1])
    first = 0
    for bit in where[:CARDS]:
        if bit is not None:
            first |= 1 << bit
    own = [first, occ ^ first]
    moths = 0
    for bit in (where[MOTH], where[CARDS + MOTH]):
        if bit is not None:
            moths |= 1 << bit
    out = [None] * (2 * CARDS)
    for seat in (0, 1):
        base, mine, theirs = seat * CARDS, own[seat], own[1 - seat]
        crow = where[base + CROW]
        if crow is not None:
            n = (NEAR8[crow] & moths).bit_count()
            out[base + CROW] = 3 if n == 2 else 1 if n else 0
        bit = where[base + BAT]
        if bit is not None:
            out[base + BAT] = 3 if crow is not None and NEAR4[bit] >> crow & 1 else 0
        bit = where[base + MOTH]
        if bit is not None:
            out[base + MOTH] = 0 if not centre >> bit & 1 else 3 if (centre & moths).bit_count() == 1 else 2
        spiders = [where[base + SPIDER4], where[base + SPIDER5]]
        both = None not in spiders and corner >> spiders[0] & 1 and corner >> spiders[1] & 1
        for code, bit in zip((base + SPIDER4, base + SPIDER5), spiders):
            if bit is not None:
                out[code] = 0 if not corner >> bit & 1 else 3 if both else 2
        bit = where[base + CAT]
        if bit is not None:
            out[base + CAT] = 3 if edge >> bit & 1 and not corner >> bit & 1 else 0
        bit = where[base + OWL]
        if bit is not None:
            out[base + OWL] = ((ROW_CELLS[bit // W] | COL_CELLS[bit % W]) & mine).bit_count() - 1
        bit = where[base + WOLF]
        if bit is not None:
            out[base + WOLF] = (NEAR8[bit] & theirs).bit_count()
        for code in (base + DEER, base + RACCOON, base + SNAKE):
            if where[code] is not None:
                out[code] = 0
    for seat in (0, 1):                 # the Jackalope copies its best own neighbour (4 around)
        base = seat * CARDS
        bit = where[base + JACKALOPE]
        if bit is not None:
            near, best = NEAR4[bit], 0
            for code in range(base, base + CARDS):
                other = where[code]
                if other is not None and near >> other & 1 and out[code] > best:
                    best = out[code]
            out[base + JACKALOPE] = best
    return out


# ---- the game behind the step API --------------------------------------------------------------

class State:
    """A game of Duell der Tiere with `legal_moves()` / `apply(move)` / `is_terminal` / `scores`."""

    __slots__ = ("rnd", "hands", "decks", "tiebreaker", "current_player", "is_terminal", "scores", "winners",
                 "phase", "pending", "revealed", "second", "occ", "count", "at", "where", "r0", "r1", "c0", "c1", "window",
                 "origin", "tables", "_legal", "_slides")

    def __init__(self, seed: int, decks=None, hands=None, tiebreaker=None):
        """`decks` (top first) and `hands` as lists of card numbers per seat (else shuffled and
        drawn here), `tiebreaker` the seat holding the token (else tossed)."""
        self.rnd = random.Random(seed).random
        if decks is None:
            decks = shuffled_decks(self.rnd)
            hands = [deck[:HAND] for deck in decks]
            decks = [deck[HAND:] for deck in decks]
        self.decks = [deck[::-1] for deck in decks]       # the top card last: drawn by pop()
        self.hands = [sum(1 << c for c in hand) for hand in hands]
        self.tiebreaker = int(self.rnd() * 2) if tiebreaker is None else tiebreaker
        self.is_terminal = False
        self.scores = [0, 0]
        self.winners = []
        self.occ = self.count = 0
        self.at = [None] * (W * W)          # frame bit -> seat * 12 + card
        self.where = [None] * (2 * CARDS)   # seat * 12 + card -> frame bit
        self.r0 = self.r1 = self.c0 = self.c1 = HOME
        self.window = 0                     # where one more card keeps the display within 4x4
        self.origin = (-HOME, -HOME)
        self.tables = tables(self.origin)
        self.pending = [None, None]
        self.revealed = [None, None]
        self.second = None
        self._legal = self._slides = None
        self.phase = CHOOSE
        self.current_player = 0 if self.hands[0] else 1

    # -- moves
    def legal_moves(self) -> list[Move]:
        if self.is_terminal:
            return []
        phase = self.phase
        if phase == CHOOSE:
            legal = [*HAND_CHOICES[self.hands[self.current_player]]]
        elif phase == PLACE:
            card = self.revealed[self.current_player]
            occ = self.occ
            legal = self._slide_moves() if card == DEER and occ else None
            if not legal:
                tables = self.tables
                rows = tables.place[card]
                if occ:
                    wide = occ | occ << 1 | occ >> 1
                    free = (wide | wide << W | wide >> W) & ~occ & self.window
                    r = ((free & -free).bit_length() - 1) // W
                    free >>= r * W
                    legal = []
                    while free:
                        bits = free & ROW
                        if bits:
                            legal += rows[r].get(bits) or tables.listed(PLACE, card, r, bits)
                        free >>= W
                        r += 1
                else:                           # the first card: at 0,0
                    legal = [*(rows[HOME].get(1 << HOME) or tables.listed(PLACE, card, HOME, 1 << HOME))]
        else:
            legal = self._legal if self._legal is not None else self._relocations()
        self._legal = legal
        return legal

    def apply(self, move: Move) -> None:
        legal = self._legal if self._legal is not None else self.legal_moves()
        if move not in legal:
            raise IllegalMove(f"{move} is not a legal move")
        self._legal = None
        kind, seat = move.kind, self.current_player
        if kind == CHOOSE:
            hands = self.hands
            hands[seat] ^= 1 << move.arg
            self.pending[seat] = move.arg
            if seat == 0 and hands[1]:
                self.current_player = 1
            else:
                self._reveal()
            return
        if kind == PLACE:
            bit = move.arg
            card = self.revealed[seat]
            code = seat * CARDS + card
            self.at[bit] = code
            self.where[code] = bit
            self.occ |= 1 << bit
            self.count += 1
            r, c = bit >> 4, bit & 15           # bit // W, bit % W (the first card is at HOME, HOME)
            if r < self.r0:
                self.r0 = r
            elif r > self.r1:
                self.r1 = r
            elif c < self.c0:
                self.c0 = c
            elif c > self.c1:
                self.c1 = c
            elif self.count != 1:
                r = None                        # the box is the same
            if r is not None:
                if c < self.c0:
                    self.c0 = c
                elif c > self.c1:
                    self.c1 = c
                self.window = ROW_WINDOW[self.r0 * W + self.r1] & COL_WINDOW[self.c0 * W + self.c1]
            if self.occ & OUTSIDE:
                self._recentre()
            if card == RACCOON:
                moves = self._relocations()
                if moves:                       # the same seat moves one of its other cards
                    self.phase = MOVE
                    self._legal = moves
                    return
        elif kind == SLIDE:
            base, stride, xs, side, front = self._slides[legal.index(move)]
            at, where = self.at, self.where
            olds = [base + stride * x for x in xs]
            codes = [at[old] for old in olds]
            occ = self.occ
            for old in olds:
                at[old] = None
                occ ^= 1 << old
            k = len(xs)
            first = front - k + 1 if side == 1 else front     # the block closes up behind the front card
            for j in range(k):
                new = base + stride * (first + j)
                at[new] = codes[j]
                where[codes[j]] = new
                occ |= 1 << new
            target = base + stride * (front - k if side == 1 else front + k)
            code = seat * CARDS + DEER
            at[target] = code
            where[code] = target
            self.occ = occ | 1 << target
            self.count += 1
            self.r0, self.r1, self.c0, self.c1 = box_of(self.occ)
            self.window = ROW_WINDOW[self.r0 * W + self.r1] & COL_WINDOW[self.c0 * W + self.c1]
            if self.occ & OUTSIDE:
                self._recentre()
        else:                                   # the Raccoon's move
            card, dst = divmod(move.arg, W * W)
            code = seat * CARDS + card
            at = self.at
            src = self.where[code]
            at[src] = None
            at[dst] = code
            self.where[code] = dst
            self.occ ^= 1 << src | 1 << dst
            self.r0, self.r1, self.c0, self.c1 = box_of(self.occ)
            self.window = ROW_WINDOW[self.r0 * W + self.r1] & COL_WINDOW[self.c0 * W + self.c1]
            if self.occ & OUTSIDE:
                self._recentre()
        # this seat has placed: the other one now, or the round ends
        seat = self.second
        if seat is not None:
            self.second = None
            if self.count < FULL:
                self.phase = PLACE
                self.current_player = seat
                return
            # no room left: that card leaves the game
        self._end_round()

    # -- the round
    def _reveal(self) -> None:
        a, b = revealed = self.pending
        self.pending = [None, None]
        if a == SNAKE or b == SNAKE:            # both revealed cards leave the game
            self._end_round()
            return
        self.revealed = revealed
        if a is None or b is None:              # (a seat with an empty hand: not with these cards)
            first, self.second = (1 if a is None else 0), None
        else:
            na, nb = NUMBER[a], NUMBER[b]
            if na == nb:
                first = self.tiebreaker
                self.tiebreaker = 1 - first     # passed once the holder has placed: nobody looks before
            else:
                first = 0 if na > nb else 1
            self.second = 1 - first
        self.phase = PLACE
        self.current_player = first

    def _end_round(self) -> None:
        hands = self.hands
        first, second = self.decks
        if first:
            hands[0] |= 1 << first.pop()
        if second:
            hands[1] |= 1 << second.pop()
        if self.count == FULL or not (hands[0] or hands[1]):
            self._finish()
            return
        self.phase = CHOOSE
        self.current_player = 0 if hands[0] else 1

    def _finish(self) -> None:
        self.is_terminal = True
        self.current_player = None
        got = points(self.where, self.occ, self.r0, self.r1, self.c0, self.c1)
        mine, theirs = got[:CARDS], got[CARDS:]
        self.scores = scores = [sum(p for p in mine if p), sum(p for p in theirs if p)]
        if scores[0] != scores[1]:
            self.winners = [0 if scores[0] > scores[1] else 1]
            return
        scoring = [sum(1 for p in mine if p), sum(1 for p in theirs if p)]
        if scoring[0] != scoring[1]:
            self.winners = [0 if scoring[0] > scoring[1] else 1]
            return
        totals = [sum(NUMBER[c] for c in range(CARDS) if hand >> c & 1) for hand in self.hands]
        if totals[0] != totals[1]:
            self.winners = [0 if totals[0] > totals[1] else 1]
            return
        self.winners = [0, 1]

    # -- the display
    def _recentre(self) -> None:
        """Move the frame so that the display's box starts at frame row and column HOME."""
        dr, dc = HOME - self.r0, HOME - self.c0
        by = dr * W + dc
        at = [None] * (W * W)
        where = self.where
        for code in range(2 * CARDS):
            if where[code] is not None:
                where[code] += by
                at[where[code]] = code
        self.at = at
        self.occ = self.occ << by if by >= 0 else self.occ >> -by
        self.r0, self.r1, self.c0, self.c1 = self.r0 + dr, self.r1 + dr, self.c0 + dc, self.c1 + dc
        self.window = ROW_WINDOW[self.r0 * W + self.r1] & COL_WINDOW[self.c0 * W + self.c1]
        self.origin = (self.origin[0] - dr, self.origin[1] - dc)
        self.tables = tables(self.origin)

    def _slide_moves(self) -> list[Move]:
        """The Deer's slides, rows first (by index, from left before from right), then columns
        (from top before from bottom); `_slides` gets each one's (first bit of its line, bits
        from one place to the next, its cards' places, side, where the front card ends).

        A line's cards close up behind the one farthest from the Deer, which is pushed as far
        as it can go (s cells): the block with the Deer behind it must stay within 4 cells of
        the other cards' extent along the line and meet every group of the other cards on
        either side (`SHADOWS`)."""
        occ, tables = self.occ, self.tables
        slides = tables.slides
        r0, r1, c0, c1 = self.r0, self.r1, self.c0, self.c1
        base = r0 * W + c0
        shape = across = 0
        for i in range(r1 - r0 + 1):
            line = occ >> (base + i * W) & 15
            shape |= line << 4 * i
            across |= SPREAD[line] << i
        out, entries = [], []
        for row, lines, count, first, other in ((True, shape, r1 - r0 + 1, r0, c0), (False, across, c1 - c0 + 1, c0, r0)):
            above = 0
            for i in range(count):
                line = lines >> 4 * i & 15
                k = COUNT4[line]
                if k < SIDE:
                    below = lines >> 4 * (i + 1)
                    xs = COLUMNS[line]
                    extent = ACROSS[above] | ACROSS[below]
                    if extent:
                        shadows = SHADOWS[above] + SHADOWS[below]
                        lo, hi = LOW4[extent], HIGH4[extent]
                        run = RUN[k + 1]
                        front = xs[-1]          # from the left (top): the block is [f - k, f]
                        for ahead in range(lo + SIDE - 1 - front, max(hi - SIDE + 1 + k - front, 0) - 1, -1):
                            block = run << (front + ahead - k + 4)
                            for shadow in shadows:
                                if not shadow & block:
                                    break
                            else:
                                break
                        else:
                            ahead = None
                        front = xs[0]           # from the right (bottom): the block is [f, f + k]
                        for back in range(front - hi + SIDE - 1, max(front + k - lo - SIDE + 1, 0) - 1, -1):
                            block = run << (front - back + 4)
                            for shadow in shadows:
                                if not shadow & block:
                                    break
                            else:
                                break
                        else:
                            back = None
                    else:                       # the line holds every card
                        ahead = back = 0
                    if ahead is not None or back is not None:
                        at = first + i
                        places = [other + x for x in xs]
                        number = 2 * at if row else 2 * (W + at)
                        start, stride = (at * W, 1) if row else (at, W)
                        if ahead is not None:
                            out.append(slides[number] or tables.slide(number))
                            entries.append((start, stride, places, 1, places[-1] + ahead))
                        if back is not None:
                            out.append(slides[number + 1] or tables.slide(number + 1))
                            entries.append((start, stride, places, -1, places[0] - back))
                above = above << 4 & 4095 | line
        self._slides = entries
        return out

    def _relocations(self) -> list[Move]:
        """The Raccoon owner's moves of one of their other cards (empty when none is legal):
        to an empty cell next to the rest of the display that joins all of it again and keeps
        it within 4x4."""
        seat = self.current_player
        occ, where, tables = self.occ, self.where, self.tables
        base = seat * CARDS
        movers = sorted([(where[code], code - base) for code in range(base, base + CARDS)
                         if where[code] is not None and code - base != RACCOON])
        out = []
        r0, r1, c0, c1 = self.r0, self.r1, self.c0, self.c1
        for src, card in movers:
            lifted = 1 << src
            rest = occ ^ lifted
            ring = (occ >> (src - W - 1) & 7) | (occ >> (src - 1) & 5) << 3 | (occ >> (src + W - 1) & 7) << 6
            if RING_CONNECTED[ring]:            # the rest stays one group
                wide = rest | rest << 1 | rest >> 1
                touching = wide | wide << W | wide >> W
            else:
                touching = -1
                for near in touches(rest):
                    touching &= near
            r, c = src >> 4, src & 15
            if (r == r0 or r == r1) and not rest & ROW_CELLS[r] or (c == c0 or c == c1) and not rest & COL_CELLS[c]:
                b0, b1, d0, d1 = box_of(rest)   # the box shrinks
                window = ROW_WINDOW[b0 * W + b1] & COL_WINDOW[d0 * W + d1]
            else:
                window = ROW_WINDOW[r0 * W + r1] & COL_WINDOW[c0 * W + c1]
            free = touching & ~rest & ~lifted & window
            if free:
                rows = tables.move[card]
                r = ((free & -free).bit_length() - 1) // W
                free >>= r * W
                while free:
                    bits = free & ROW
                    if bits:
                        out += rows[r].get(bits) or tables.listed(MOVE, card, r, bits)
                    free >>= W
                    r += 1
        return out


def api_games(games: int, seed: int) -> dict:
    """Random games through the step API, with the benchmark's loop and draw idiom, each game
    on its own seed. As `bench_play.py` times rulekit's games, the set-up (shuffling, the
    first hands, the token) is not timed: only the play."""
    rnd = random.Random(seed).random
    decisions, elapsed = 0, 0.0
    for game in range(games):
        state = State(seed + game)
        began = time.perf_counter()
        while not state.is_terminal:
            moves = state.legal_moves()
            state.apply(moves[int(rnd() * len(moves))])
            decisions += 1
        elapsed += time.perf_counter() - began
    return {"decisions": decisions, "seconds": elapsed, "games": games}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    api = api_games(args.games, args.seed)
    print(json.dumps({"api_dps": round(api["decisions"] / api["seconds"]),
                      "us_per_decision": round(api["seconds"] / api["decisions"] * 1e6, 3),
                      "decisions_per_game": round(api["decisions"] / args.games, 2)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
