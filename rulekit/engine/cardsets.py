"""Cards in hand → interned moves, fast.

Pipeline place: **engine**. Card ids of one suit are contiguous, so a hand splits into a few
small per-suit numbers; the move list for each such number is built once and reused.
Identical copies (six equal trumps) give one move: the lowest copy held stands for all.
"""
from __future__ import annotations

from .moves import Move


class MoveTable:
    """Moves with one verb over single cards (`play blue 9`, `bid yellow 3`)."""

    def __init__(self, deck, verb: str):
        self.deck = deck
        self.verb = verb
        self.moves = [Move(verb, deck.face[c], f"{verb} {deck.texts[c]}") for c in range(deck.size)]
        self.by_text = {m.text: m for m in self.moves}
        self.face_masks = [sum(1 << d for d in range(deck.size) if deck.face[d] == deck.face[c])
                           for c in range(deck.size)]
        self.segments = _segments(deck)
        self.caches = [dict() for _ in self.segments]

    def for_mask(self, mask: int) -> list[Move]:
        """The distinct moves for the cards in `mask`, in card order."""
        out = []
        for (shift, width), cache in zip(self.segments, self.caches):
            sub = (mask >> shift) & width
            if sub:
                found = cache.get(sub)
                if found is None:
                    found = cache[sub] = self._build(sub, shift)
                out += found
        return out

    def _build(self, sub: int, shift: int) -> list[Move]:
        moves, seen = [], set()
        while sub:
            low = sub & -sub
            card = low.bit_length() - 1 + shift
            sub ^= low
            face = self.deck.face[card]
            if face not in seen:
                seen.add(face)
                moves.append(self.moves[card])
        return moves

    def held(self, hand: int, card: int) -> int:
        """The id of the copy of `card`'s face held in `hand` (the lowest one)."""
        if hand >> card & 1:
            return card
        copies = hand & self.face_masks[card]
        return (copies & -copies).bit_length() - 1


def _segments(deck) -> list[tuple[int, int]]:
    """Runs of contiguous card ids sharing a suit: (first id, bit mask of the run's width)."""
    segments, start = [], 0
    for card in range(1, deck.size + 1):
        if card == deck.size or deck.suit[card] != deck.suit[start]:
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
