"""Checks for auctions, decisions and the roles they set.

Pipeline place: nodes → merge → checker (**auction checks**) → compiler. `clause(checker, c)`
checks an `auction { ... }` or `choose trump, ...` clause of `round` (called by
`Checker.check_round`); `run(checker)` reports role names (`declarer`, `makers`, ...) read in
a game whose round sets no roles; `seat_words` are the seats they add to `first led by ...`.
Every problem goes through `checker.report`, in the rule language's own words.
"""
from __future__ import annotations

from ..compile.auction import ROLE_NAMES, ROLE_SEATS, has_roles
from ..compile.exprs import suggest
from ..compile.leads import uses_rules
from . import auction_nodes as an
from . import nodes as n

CLAUSES = (an.Auction, an.ChooseTrump, an.OrderUp)
ALL_PASS = ("redeal", "void", "dealer")
#: More calls than this make an auction no one can read (and a long list of moves).
MAX_CALLS = 500


def sets_roles(checker) -> bool:
    rnd = checker.s.get("round")
    return bool(rnd) and has_roles(rnd.clauses)


def declarer_every_round(checker, before=None) -> bool:
    """Whether every round that goes on has a declarer: an auction, or a trump decision that
    always happens (not only `when turned card is ...`). `before`: only clauses other than it."""
    rnd = checker.s.get("round")
    return any(c is not before and (isinstance(c, (an.Auction, an.OrderUp)) or
                                    (isinstance(c, an.ChooseTrump) and c.option(an.ChoiceWhenTurned) is None))
               for c in (rnd.clauses if rnd else ()))


def seat_words(checker) -> tuple[str, ...]:
    return ROLE_SEATS if declarer_every_round(checker) else ()


def unset_role_seat(checker, ref: n.SeatRef, before=None) -> bool:
    """Report `declarer` named as a seat where no declarer is known; True if reported."""
    if ref.name is None or ref.name.text not in ROLE_SEATS or declarer_every_round(checker, before):
        return False
    checker.report(ref.name, f"`{ref.name.text}` is set by an auction or a trump decision, "
                             "but the round has none that sets it every round", _ROLE_HINT)
    return True


_ROLE_HINT = "add an `auction { ... }` or a `choose trump, ...` clause to the round"


def clause(checker, item) -> None:
    if isinstance(item, an.Auction):
        check_auction(checker, item)
    elif isinstance(item, an.OrderUp):
        check_order_up(checker, item)
    else:
        check_choice(checker, item)


# ---- auction -------------------------------------------------------------------------------

def check_auction(checker, auction: an.Auction) -> None:
    seen = {}
    for part in auction.items:
        kind = an.CallsSuits if isinstance(part, an.Calls) else type(part)
        if kind in seen:
            checker.report(part, "the auction says this twice", "keep one line of each kind")
        seen[kind] = part
    calls = auction.part(an.Calls) or auction.part(an.CallsSuits)
    if calls is None:
        checker.report(auction, "the auction has no calls", "add a line like `calls 1..5`")
    else:
        check_calls(checker, calls, auction)
    start = auction.part(an.AuctionFrom)
    if start is not None:
        check_first(checker, start.seat)
    end = auction.part(an.AuctionEnd)
    if end is not None and end.kind == "all but one" and auction.part(an.Higher) is None:
        checker.report(end, "this auction may never end: calls need not beat the last one, "
                            "so the seats still in can go on calling",
                       "add `higher than last`, or let each seat speak `once each`")
    all_pass = auction.part(an.AllPass)
    if all_pass is not None:
        check_all_pass(checker, all_pass, "call", start.seat if start else None)


def check_calls(checker, calls, auction) -> None:
    suits = _suit_names(checker)
    order = auction.part(an.CallOrder)
    with_suits = isinstance(calls, an.CallsSuits) or calls.with_ is not None
    if isinstance(calls, an.CallsSuits):
        checker.word(calls.word, ("suits",), "kind of call")
        count = len(suits)
    else:
        if calls.with_ is not None:
            checker.word(calls.with_, ("suits",), "kind of call")
        if calls.low > calls.high:
            checker.report(calls, f"`{calls.low}..{calls.high}` is an empty range of calls")
        count = max(0, calls.high - calls.low + 1) * (len(suits) if with_suits else 1)
        check_call_names(checker, calls)
    if count > MAX_CALLS:
        checker.report(calls, f"the auction has {count} different calls; at most {MAX_CALLS} are supported")
    if with_suits and not suits:
        checker.report(calls, "calls name a suit, but the deck has no suits")
    if order is not None:
        check_order(checker, order, suits, with_suits)
    elif with_suits and auction.part(an.Higher) is not None and not _deck_suits_ordered(checker):
        checker.report(calls, "calls must beat the last one, but the suits have no order",
                       f"add `order {' < '.join(suits) or 'clubs < hearts'}` to the auction, lowest first")


def check_call_names(checker, calls: an.Calls) -> None:
    named = set()
    for name in calls.names:
        if not calls.low <= name.level <= calls.high:
            checker.report(name, f"{name.level} is not a call: calls go from {calls.low} to {calls.high}")
        if name.level in named:
            checker.report(name, f"call {name.level} is named twice")
        named.add(name.level)
        if name.name.text in ("pass",):
            checker.report(name.name, "`pass` is the word for passing; name the call otherwise")
    words = [c.name.text for c in calls.names]
    for word in set(words):
        if words.count(word) > 1:
            checker.report(calls, f"two calls are named `{word}`", "give each call its own name")


def check_order(checker, order: an.CallOrder, suits: list[str], with_suits: bool) -> None:
    if not with_suits:
        checker.report(order, "the order ranks suits, but the calls name no suit",
                       "remove the `order` line, or call `suits` (or `1..7 with suits`)")
        return
    seen, unknown = set(), False
    for name in order.names:
        if name.text not in suits:
            unknown = True
            checker.report(name, f"unknown suit `{name.text}` in the order of calls",
                           suggest(name.text, suits) or f"the suits are: {', '.join(suits)}")
        elif name.text in seen:
            checker.report(name, f"`{name.text}` is ranked twice")
        seen.add(name.text)
    missing = [s for s in suits if s not in seen]
    if missing and not unknown:
        checker.report(order, f"the order of calls leaves out {', '.join(missing)}",
                       "rank every suit, lowest first")


def check_first(checker, ref: n.SeatRef) -> None:
    if ref.kind == "highest_bidder" or (ref.name is not None and ref.name.text in ROLE_SEATS):
        checker.report(ref, "the auction starts before anyone has won it",
                       "start with `dealer` or `left of dealer`")
        return
    checker.word(ref.name, ("dealer",), "seat")


def check_all_pass(checker, clause: an.AllPass, verb: str, start) -> None:
    action, must = clause.action, clause.must
    if not checker.word(action, ALL_PASS, "thing to do when all pass"):
        return
    if action.text == "dealer":
        if must is None or must.text != verb:
            checker.report(clause, f"write `if all pass -> dealer must {verb}`")
        elif start is not None and not (start.kind == "left_of" and start.name and start.name.text == "dealer"):
            checker.report(clause, "the dealer must speak last to be forced, but the turn does not "
                                   "end with the dealer", "start from `left of dealer`")
    elif must is not None:
        checker.report(must, f"`{action.text}` takes no `must ...`", f"write `if all pass -> {action.text}`")


# ---- decisions -----------------------------------------------------------------------------

def _once_each(checker, options) -> None:
    """Each kind of option at most once."""
    seen = set()
    for option in options:
        if type(option) in seen:
            checker.report(option, "this option is given twice")
        seen.add(type(option))


def check_choice(checker, choice: an.ChooseTrump) -> None:
    _once_each(checker, choice.options)
    by, in_turn = choice.option(an.ChoiceBy), choice.option(an.ChoiceInTurn)
    if by is not None and in_turn is not None:
        checker.report(in_turn, "the trump is chosen either by one seat or in turn, not both",
                       "keep `by ...` or `in turn from ...`")
    if by is None and in_turn is None:
        checker.report(choice, "the rules do not say who chooses the trump",
                       "add `by declarer`, `by dealer` or `in turn from left of dealer`")
    for option in (by, in_turn):
        if option is not None and not unset_role_seat(checker, option.seat, before=choice):
            _choice_seat(checker, option.seat, in_turn=option is in_turn)
    if not _suit_names(checker):
        checker.report(choice, "the trump is a suit, but the deck has no suits")
    check_turned_options(checker, choice)
    check_alone(checker, choice)
    all_pass = choice.option(an.AllPass)
    if all_pass is not None:
        if choice.option(an.ChoiceMayPass) is None:
            checker.report(all_pass, "nobody may pass this decision", "add `or pass`, or remove this option")
        check_all_pass(checker, all_pass, "choose", in_turn.seat if in_turn else None)


def check_order_up(checker, order: an.OrderUp) -> None:
    _once_each(checker, order.options)
    rnd = checker.s.get("round")
    if not any(isinstance(c, n.TrumpTurned) for c in rnd.clauses):
        checker.report(order, "no card is turned after the deal", "add `trump suit of turned card` to the round")
    in_turn = order.option(an.ChoiceInTurn)
    if in_turn is not None and not unset_role_seat(checker, in_turn.seat, before=order):
        _choice_seat(checker, in_turn.seat, in_turn=True)
    check_alone(checker, order)
    all_pass = order.option(an.AllPass)
    choice = next((c for c in rnd.clauses if isinstance(c, an.ChooseTrump)), None)
    if all_pass is not None and choice is not None and choice.option(an.ChoiceInTurn) is not None:
        checker.report(all_pass, "when all pass, the round goes on to its `choose trump` in turn",
                       "say what happens when all pass there, and remove this option")
    elif all_pass is not None:
        check_all_pass(checker, all_pass, "order", in_turn.seat if in_turn else None)


def check_alone(checker, decision) -> None:
    """`or alone` needs partners to leave out, and plain tricks (lead rules do not skip seats)."""
    alone = decision.option(an.MayAlone)
    if alone is None:
        return
    if "teams" not in checker.s:
        checker.report(alone, "a seat plays alone by leaving its partners out, but the rules declare no teams",
                       "add `teams opposite`, or remove `or alone`")
    if "follow" in checker.s and uses_rules(checker.s):
        checker.report(alone, "playing alone cannot be combined with lead rules (a `lead` section, "
                              "first-trick or always-playable follow cases) yet",
                       "remove `or alone`, or those rules")


def _choice_seat(checker, ref: n.SeatRef, in_turn: bool) -> None:
    if ref.kind == "highest_bidder":
        if checker.bid is None:
            checker.report(ref, "`highest bidder` needs a bidding clause in the round")
        return
    checker.word(ref.name, ("dealer",) + (() if in_turn else ROLE_SEATS), "seat")


def check_turned_options(checker, choice: an.ChooseTrump) -> None:
    turned = choice.option(an.ChoiceNotTurned) or choice.option(an.ChoiceWhenTurned)
    rnd = checker.s.get("round")
    if turned is not None and not any(isinstance(c, n.TrumpTurned) for c in rnd.clauses):
        checker.report(turned, "no card is turned after the deal", "add `trump suit of turned card` to the round")
    when = choice.option(an.ChoiceWhenTurned)
    if when is not None:
        for pred in _preds(when.pred):
            if isinstance(pred, (n.PSameAsLead, n.PFollowed, n.PTrump)):
                checker.report(pred, "the turned card is looked at before any trick or trump",
                               "name suits or cards here, like `when turned card is jester`")
        checker.pred(when.pred)


def _preds(pred):
    stack = [pred]
    while stack:
        item = stack.pop()
        yield item
        stack += [getattr(item, f) for f in ("left", "right", "operand") if getattr(item, f, None) is not None]


# ---- roles read where nothing sets them ------------------------------------------------------

def run(checker) -> None:
    if sets_roles(checker):
        return
    for expr in _expressions(checker.s):
        for node in n.walk(expr):
            if isinstance(node, n.Ref) and node.name in ROLE_NAMES:
                checker.report(node, f"`{node.name}` is set by an auction or a trump decision, "
                                     "but the round has neither", _ROLE_HINT)


def _expressions(s: dict):
    score = s.get("score")
    for case in score.cases if score else ():
        if isinstance(case.condition, n.CondExpr):
            yield case.condition.expr
        yield case.expr
    end = s.get("end")
    if isinstance(end, n.EndWhen):
        yield end.condition
    winner = s.get("winner")
    for key in winner.keys if winner else ():
        yield key.expr
    if "final score" in s:
        yield s["final score"].expr


def _suit_names(checker) -> list[str]:
    deck = checker.s.get("deck")
    suits = next((i for i in deck.items if isinstance(i, n.Suits)), None) if deck else None
    return [name.text for name in suits.names] if suits else []


def _deck_suits_ordered(checker) -> bool:
    deck = checker.s.get("deck")
    suits = next((i for i in deck.items if isinstance(i, n.Suits)), None) if deck else None
    return bool(suits and suits.ordered)
