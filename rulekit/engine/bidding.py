"""Bids by name beside numbers (`bid 1..13 or nil, in turn from left of dealer`) and bids up
to a number read for the bidder (`bid 0..(13 - round), ...`).

Pipeline place: compiler → **engine**. A named bid is worth 0 where bids are read as
numbers (`bid`, `team_bid`, `sum(bid)`), and `state.extra["bid_names"]` (a tuple, one entry
per seat: the name, or None) says which seats bid by name; the word itself (`nil`) is true
for such a seat in expressions. Only a rule file with named bids or such a bound uses these steps.
"""
from __future__ import annotations

from .moves import Move
from .steps import BidNumberLimited

#: The highest bid a bound read for the bidder may give (a larger one is cut to it).
MAX_BID = 1000


class BidNamed(BidNumberLimited):
    """`BidNumberLimited` with named bids after the numbers in the legal list."""

    def __init__(self, low: int, high: int, first, named: tuple[str, ...], up_to_hand: bool = False,
                 forbidden=None):
        super().__init__(low, high, first, False, up_to_hand, forbidden)
        self.named = [Move("bid", 0, f"bid {word}") for word in named]
        self.word_of = {id(move): word for move, word in zip(self.named, named)}

    def enter(self, st) -> bool:
        st.extra["bid_names"] = (None,) * st.n
        return BidNumberLimited.enter(self, st)

    def legal(self, st) -> list[Move]:
        return self.numbers(st) + self.named

    def numbers(self, st) -> list[Move]:
        if self.up_to_hand or self.forbidden is not None:
            return BidNumberLimited.legal(self, st)
        return self.moves

    def apply(self, st, move) -> bool:
        word = self.word_of.get(id(move))
        if word is not None:
            names = list(st.extra["bid_names"])
            names[st.current_player] = word
            st.extra["bid_names"] = tuple(names)
        return BidNumberLimited.apply(self, st, move)


class BidUpTo(BidNamed):
    """`bid 0..(E)`: the numbers from the lowest bid up to `E`, read for the bidder when it
    is to bid (at least the lowest bid); Moves made once per number and kept."""

    def __init__(self, low: int, high: int, first, named: tuple[str, ...], up_to_hand: bool, forbidden, limit):
        super().__init__(low, high, first, named, up_to_hand, forbidden)
        self.limit, self.made = limit, {move.arg: move for move in self.moves}

    def numbers(self, st) -> list[Move]:
        seat = st.current_player
        high = max(self.low, min(self.limit(st, seat), MAX_BID))
        moves = [self.made.get(v) or self._make(v) for v in range(self.low, high + 1)]
        return self.not_forbidden(st, seat, moves)

    def _make(self, value: int) -> Move:
        move = self.made[value] = Move("bid", value, f"bid {value}")
        return move
