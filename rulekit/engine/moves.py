"""Moves: small interned objects whose `str()` is the contract's move text.

Pipeline place: compiler → **engine**. A game creates each move once (`play blue 9`,
`bid 3`) and `legal_moves()` hands out those same objects, so listing moves allocates
nothing and `apply` can test legality by identity.
"""
from __future__ import annotations

import re

_SPACES = re.compile(r"\s+")
_COORDINATES = re.compile(r"(\d), (-?\d)")


def normalize(text: str) -> str:
    """Move text as compared: lower case, single spaces, no space before commas; a space
    after each comma except inside coordinates (`at 1,2`)."""
    text = _SPACES.sub(" ", str(text).strip().lower())
    text = text.replace(" ,", ",").replace(",", ", ").replace(",  ", ", ")
    return _COORDINATES.sub(r"\1,\2", text)


class Move:
    """One decision. `kind` is the verb (`play`, `bid`, `pass`, ...), `arg` its payload."""

    # `_code`: set when a rule set's history table first codes the move (engine/history.py)
    __slots__ = ("kind", "arg", "text", "_code")

    def __init__(self, kind: str, arg, text: str):
        self.kind = kind
        self.arg = arg
        self.text = text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r})"

    def __eq__(self, other) -> bool:
        if isinstance(other, Move):
            return self.text == other.text
        if isinstance(other, str):
            return normalize(other) == self.text
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)

    def __reduce__(self):
        """Pickled and copied without `_code`: a code means something in its own process only."""
        return Move, (self.kind, self.arg, self.text)


class CardMove(Move):
    """A move of one card, any copy of its face (`play blue 9`, `bid yellow 3`): `cards` is
    the mask of the copies that make it, `card` the card's id, or -1 when the face has
    copies. A `MoveTable` makes its moves of a subclass of its own (`card_move_class`), so a
    move's type tells whose it is: generated code checks a move with one `type()` test and
    reads its cards from it."""

    __slots__ = ("cards", "card")

    def __init__(self, kind: str, arg, text: str, cards: int, card: int):
        Move.__init__(self, kind, arg, text)
        self.cards = cards
        self.card = card


def card_move_class() -> type:
    """A fresh subclass of `CardMove` for one table's moves (same layout, its own identity)."""
    return type("CardMove", (CardMove,), {"__slots__": (), "__module__": __name__})
