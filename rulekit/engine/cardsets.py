"""Cards in hand → interned moves, fast.

Pipeline place: **engine**. Card ids of one suit are contiguous, so a hand splits into a few
small per-suit masks; the move list for each such mask is built once and reused (a follow
mask inside one suit is a single lookup). The cache is bounded by the deck's shape: at most
2**MAX_RUN lists per run of ids.
Identical copies (six equal trumps) give one move: the lowest copy held stands for all.
"""
from __future__ import annotations

from .moves import Move, card_move_class


class MoveTable:
    """Moves with one verb over single cards (`play blue 9`, `bid yellow 3`).

    Every copy of a face shares one interned `Move`, so a move is legal for a hand when
    it is of the table's own class and the hand holds any card of its `cards` (`allows`):
    a class test and an AND. `for_mask` builds a new list from cached pieces, one per run of a suit's cards.
    """

    def __init__(self, deck, verb: str):
        self.deck = deck
        self.verb = verb
        faces: dict[int, int] = {}
        for d, face in enumerate(deck.face):
            faces[face] = faces.get(face, 0) | 1 << d
        self.face_masks = [faces[face] for face in deck.face]
        self.move_class = kind = card_move_class()     # the type of this table's moves only
        first = {}
        for c in range(deck.size):
            face, mask = deck.face[c], self.face_masks[c]
            if face not in first:
                first[face] = kind(verb, face, f"{verb} {deck.texts[c]}", mask, face if mask & (mask - 1) == 0 else -1)
        self.moves = [first[deck.face[c]] for c in range(deck.size)]
        self.by_text = {m.text: m for m in self.moves}
        #: the masks of the runs of card ids that share a suit
        self.runs = [width << shift for shift, width in _segments(deck)]
        #: a mask inside one run -> its moves, a tuple (`for_mask` hands out lists)
        self.cache: dict[int, tuple[Move, ...]] = {}

    def for_mask(self, mask: int) -> list[Move]:
        """The distinct moves for the cards in `mask`, in card order: a new list."""
        found = self.cache.get(mask)
        if found is not None:
            return list(found)
        return self.by_runs(mask)

    def by_runs(self, mask: int) -> list[Move]:
        """`for_mask` for a mask that likely spans several runs (a whole hand): piece by piece."""
        get = self.cache.get
        out = []
        for run in self.runs:
            part = mask & run
            if part:
                found = get(part)
                out += found if found is not None else self.run_moves(part)
        return out

    def run_moves(self, part: int) -> tuple[Move, ...]:
        """The moves for cards inside one run (a face's copies give one), built once and cached."""
        found = self.cache[part] = tuple(dict.fromkeys(self.moves[card] for card in cards_of(part)))
        return found

    def allows(self, mask: int, move) -> bool:
        """Whether `move` is one of this table's moves for a card in `mask` (its class is the
        table's own, and it carries the mask of the cards that make it)."""
        return move.__class__ is self.move_class and mask & move.cards != 0

    def held(self, hand: int, card: int) -> int:
        """The id of the copy of `card`'s face held in `hand` (the lowest one)."""
        if hand >> card & 1:
            return card
        copies = hand & self.face_masks[card]
        return (copies & -copies).bit_length() - 1


#: Widest run of card ids one cache covers: its cache holds at most 2**MAX_RUN lists.
MAX_RUN = 14


def _segments(deck) -> list[tuple[int, int]]:
    """Runs of contiguous card ids sharing a suit: (first id, bit mask of the run's width).

    A long suit is cut into runs of at most MAX_RUN ids, never between two copies of a face.
    """
    segments, start = [], 0
    for card in range(1, deck.size + 1):
        if (card == deck.size or deck.suit[card] != deck.suit[start]
                or (card - start >= MAX_RUN and deck.face[card] != deck.face[card - 1])):
            segments.append((start, (1 << (card - start)) - 1))
            start = card
    return segments


def cards_of(mask: int) -> list[int]:
    """Card ids in a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards) -> int:
    """The mask of some card ids."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask
