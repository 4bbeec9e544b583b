"""Lark tree → auction and decision nodes: the parser's methods for `auction { ... }` and
`choose trump, ...`.

Pipeline place: **text → nodes** (beside `parser.py`, whose `_ToNodes` inherits this mixin
and supplies `_span`, `_name` and `_i`).
"""
from __future__ import annotations

from lark import Transformer, v_args

from .nodes import SeatRef
from .auction_nodes import (AllPass, Auction, AuctionEnd, AuctionFrom, CallName, CallOrder, Calls,
                            CallsSuits, ChoiceBy, ChoiceInTurn, ChoiceMayPass, ChoiceNotTurned,
                            ChoiceWhenTurned, ChooseTrump, DealerTakes, Higher, MayAlone, OrderUp)


@v_args(meta=True)
class AuctionParts(Transformer):
    """One method per grammar alternative of the auction and decision clauses."""

    def auction(self, meta, c):
        return Auction(tuple(c), self._span(meta))

    def calls_numbers(self, meta, c):
        names = tuple(x for x in c[3:] if x is not None)
        return Calls(self._i(c[0]), self._i(c[1]), self._name(c[2]), names, self._span(meta))

    def calls_suits(self, meta, c):
        return CallsSuits(self._name(c[0]), self._span(meta))

    def call_name(self, meta, c):
        return CallName(self._i(c[0]), self._name(c[1]), self._span(meta))

    def call_order(self, meta, c):
        return CallOrder(tuple(self._name(t) for t in c), self._span(meta))

    def from_named(self, meta, c):
        return AuctionFrom(SeatRef("named", self._name(c[0]), self._span(meta)), self._span(meta))

    def from_left_of(self, meta, c):
        return AuctionFrom(SeatRef("left_of", self._name(c[0]), self._span(meta)), self._span(meta))

    def end_once_each(self, meta, c):
        return AuctionEnd("once each", self._span(meta))

    def end_all_but_one(self, meta, c):
        return AuctionEnd("all but one", self._span(meta))

    def auction_higher(self, meta, c):
        return Higher(self._span(meta))

    def all_pass(self, meta, c):
        return AllPass(self._name(c[0]), self._name(c[1]), self._span(meta))

    def choose_trump(self, meta, c):
        return ChooseTrump(tuple(c), self._span(meta))

    def choice_by(self, meta, c):
        return ChoiceBy(c[0], self._span(meta))

    def choice_in_turn(self, meta, c):
        return ChoiceInTurn(c[0], self._span(meta))

    def choice_may_pass(self, meta, c):
        return ChoiceMayPass(self._span(meta))

    def choice_not_turned(self, meta, c):
        return ChoiceNotTurned(self._span(meta))

    def choice_when_turned(self, meta, c):
        return ChoiceWhenTurned(c[0], self._span(meta))

    def order_up(self, meta, c):
        return OrderUp(tuple(c), self._span(meta))

    def dealer_takes(self, meta, c):
        return DealerTakes(self._span(meta))

    def may_alone(self, meta, c):
        return MayAlone(self._span(meta))
