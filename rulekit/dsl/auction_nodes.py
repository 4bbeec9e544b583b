"""Syntax-tree nodes of auctions and decisions: `auction { ... }` and `choose trump, ...`.

Pipeline place: text → **nodes** → checker → compiler, beside `nodes.py` (which holds the
rest of the language). Like every node, each ends with its `span`; each docstring shows the
rule-file text it stands for. `parse_auction.AuctionParts` builds them.
"""
from __future__ import annotations

from .nodes import Name, SeatRef, Span, node


@node
class CallName:
    """`5 as nap`: the call of level 5 reads `bid nap`."""
    level: int
    name: Name
    span: Span | None = None


@node
class Calls:
    """`calls 1..5, 5 as nap` (a number of tricks) or `calls 6..10 with suits` (a level and a
    suit: `bid 7 hearts`). `with_` is the word after `with` (the checker wants `suits`)."""
    low: int
    high: int
    with_: Name | None
    names: tuple[CallName, ...]
    span: Span | None = None


@node
class CallsSuits:
    """`calls suits`: a call names a suit (`bid hearts`). `word` is the word written."""
    word: Name
    span: Span | None = None


@node
class CallOrder:
    """`order clubs < diamonds < hearts < spades`: how suits rank in calls, lowest first."""
    names: tuple[Name, ...]
    span: Span | None = None


@node
class AuctionFrom:
    """`from left of dealer`: the first seat to speak."""
    seat: SeatRef
    span: Span | None = None


@node
class AuctionEnd:
    """`once each` (every seat speaks once) or `until all but one pass` (seats that pass are
    out; the last one left wins). `kind` is "once each" or "all but one"."""
    kind: str
    span: Span | None = None


@node
class Higher:
    """`higher than last`: a call must beat the highest call made so far."""
    span: Span | None = None


@node
class AllPass:
    """`if all pass -> redeal`, `-> void`, or `-> dealer must call`: what happens when every
    seat passes. `must` is the word after `must` (`call`, or `choose` in a decision)."""
    action: Name
    must: Name | None
    span: Span | None = None


@node
class Auction:
    """`auction { calls 1..5  from left of dealer  once each  higher than last }`: the parts
    in any order, each at most once (the checker says so)."""
    items: tuple
    span: Span | None = None

    def part(self, kind):
        return next((item for item in self.items if isinstance(item, kind)), None)


@node
class ChoiceBy:
    """Decision option `by declarer`: that seat decides alone."""
    seat: SeatRef
    span: Span | None = None


@node
class ChoiceInTurn:
    """Decision option `in turn from left of dealer`: each seat in turn, until one decides."""
    seat: SeatRef
    span: Span | None = None


@node
class ChoiceMayPass:
    """Decision option `or pass`."""
    span: Span | None = None


@node
class ChoiceNotTurned:
    """Decision option `except turned suit`: the suit of the turned card may not be named."""
    span: Span | None = None


@node
class ChoiceWhenTurned:
    """Decision option `when turned card is jester`: the decision happens only when the card
    turned after the deal matches the card predicate."""
    pred: object
    span: Span | None = None


@node
class ChooseTrump:
    """`choose trump, by declarer` or `choose trump, in turn from left of dealer, or pass`."""
    options: tuple
    span: Span | None = None

    def option(self, kind):
        return next((item for item in self.options if isinstance(item, kind)), None)


@node
class MayAlone:
    """Decision option `or alone`: the seat that decides may play alone (`order up alone`,
    `choose hearts alone`); its partners sit the round out."""
    span: Span | None = None


@node
class DealerTakes:
    """Option `dealer takes it`: once the turned card is ordered up, the dealer takes it into
    hand and discards a card face down (`discard hearts 9`)."""
    span: Span | None = None


@node
class OrderUp:
    """`order up turned card, in turn from left of dealer, dealer takes it`: each seat in turn
    accepts the turned card's suit as trump (`order up`) or passes; the seat that orders it
    up is the declarer. When all pass the round goes on to a `choose trump` in turn."""
    options: tuple
    span: Span | None = None

    def option(self, kind):
        return next((item for item in self.options if isinstance(item, kind)), None)
