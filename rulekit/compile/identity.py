"""Trump-dependent card identity: each card's effective suit and order key under a trump.

Pipeline place: checker → compiler (deck → **identity** → trick tables). A deck may group
its suits by colour (`colour red: diamonds, hearts`) and name the cards that become the
highest trumps when a suit is trump (`top trumps 11 of trump suit, 11 of trump colour`):
those cards then belong to the trump suit (they follow it, and are no longer of their
printed suit) and outrank every other trump, in the order listed. All of it is worked out
once per trump at load time; a deck without top trumps shares one identity for every trump.
"""
from __future__ import annotations

from .._records import frozen


@frozen
class Identity:
    """The cards under one trump: card id → effective suit, card id → order key."""
    suit: list
    key: list
    promoted: int = 0            # mask of the top trumps moved into the trump suit


def identities(deck) -> list[Identity]:
    """One `Identity` per trump (index trump + 1; trump -1 is no trump)."""
    base = Identity(deck.suit, deck.key)
    trumps = range(-1, len(deck.suit_names))
    if not deck.top_trumps:
        return [base for _ in trumps]
    return [_promoted(deck, trump, base) if 0 <= trump < deck.regular_suits else base for trump in trumps]


def _promoted(deck, trump: int, base: Identity) -> Identity:
    suit, key = list(base.suit), list(base.key)
    top = max(base.key, default=0) + 1
    entries = deck.top_trumps
    promoted = 0
    for place, entry in enumerate(entries):
        for card in _entry_cards(deck, entry, trump):
            if not promoted >> card & 1:
                promoted |= 1 << card
                suit[card] = trump
                key[card] = top + len(entries) - place
    return Identity(suit, key, promoted)


def _entry_cards(deck, entry, trump: int) -> list[int]:
    """The cards one `top trumps` entry names under `trump`: (kind, rank, text)."""
    kind, rank, text = entry
    if kind == "card":
        return [c for c in range(deck.size) if deck.texts[c] == text]
    if kind == "suit":
        suits = {trump}
    else:
        colour = deck.suit_colour[trump]
        suits = {s for s, c in enumerate(deck.suit_colour) if c == colour and c >= 0}
    return [c for c in range(deck.size) if deck.suit[c] in suits and deck.rank[c] == rank]


def colour_of(deck, suit: int) -> int:
    """The colour group of a suit (-1: none; a special card's suit has none)."""
    return deck.suit_colour[suit] if suit < len(deck.suit_colour) else -1
