"""Auction and decision clauses → steps; the role names score rules read.

Pipeline place: checker → **compiler** (auctions) → engine. `round_steps` builds the steps
of `auction { ... }` and `choose trump, ...` for `game._build_round`, only when the round
has those clauses; `ROLE_NAMES` are the names (`declarer`, `makers`, `contract`, ...) that
expressions read once they are set; `install` makes a thrown-in round score nothing.
"""
from __future__ import annotations

from ..dsl import auction_nodes as an
from ..dsl import nodes as n
from ..engine import auction as eng
from ..engine import sit_out
from ..engine.cardsets import MoveTable
from ..engine.steps import TricksAll
from .exprs import NameDef
from .scoring import override_round_points
from .tricks import PredicateTables


def _roles(st):
    return st.extra.get("roles")


def _is_declarer(st, seat) -> bool:
    roles = st.extra.get("roles")
    return roles is not None and roles[0] == seat


def _is_maker(st, seat) -> bool:
    roles = st.extra.get("roles")
    return roles is not None and seat in roles[2]


def _is_defender(st, seat) -> bool:
    roles = st.extra.get("roles")
    return roles is not None and seat not in roles[2]


def _contract(st, seat) -> int:
    roles = st.extra.get("roles")
    return roles[1] if roles is not None else 0


def _makers_tricks(st, seat) -> int:
    roles = st.extra.get("roles")
    return sum(st.tricks_won[s] for s in roles[2]) if roles is not None else 0


def _defenders_tricks(st, seat) -> int:
    roles = st.extra.get("roles")
    return sum(st.tricks_won) - _makers_tricks(st, seat) if roles is not None else 0


def _contract_made(st, seat) -> bool:
    roles = st.extra.get("roles")
    return roles is not None and _makers_tricks(st, seat) >= roles[1]


def _alone(st, seat) -> bool:
    return bool(st.extra.get("sitting"))


#: Names set by an auction or a decision in turn, readable in every expression after it.
ROLE_NAMES = {
    "declarer": NameDef("bool", True, _is_declarer, "the seat won the auction (or chose the trump in turn)"),
    "makers": NameDef("bool", True, _is_maker, "the seat is on the declarer's side (the declarer, or its team)"),
    "defenders": NameDef("bool", True, _is_defender, "the seat plays against the makers"),
    "contract": NameDef("int", False, _contract, "the level of the winning call (0 without one)"),
    "makers_tricks": NameDef("int", False, _makers_tricks, "tricks the makers took together this round"),
    "defenders_tricks": NameDef("int", False, _defenders_tricks, "tricks the defenders took together"),
    "contract_made": NameDef("bool", False, _contract_made, "the makers took at least `contract` tricks"),
    "alone": NameDef("bool", False, _alone, "the declarer plays alone, its partners sitting out"),
}

#: Seat words an auction or decision adds to `first led by ...` and friends.
ROLE_SEATS = ("declarer",)


def has_roles(clauses) -> bool:
    """Whether a round's clauses set the roles: an auction, or a decision in turn or by a seat."""
    return any(isinstance(c, (an.Auction, an.ChooseTrump, an.OrderUp)) for c in clauses)


def seat_fn(ref: n.SeatRef):
    """A seat reference → `state -> seat`, for the seats an auction round may name."""
    word = ref.name.text if ref.name is not None else "dealer"
    if word == "declarer":
        base = lambda st: st.extra["roles"][0]          # noqa: E731
    else:
        base = lambda st: st.dealer                     # noqa: E731
    if ref.kind == "left_of":
        return lambda st: (base(st) + 1) % st.n
    return base


def round_steps(rules, clauses: dict) -> list:
    """The steps of a round's auction and decision, in play order (none without them)."""
    auction, choice = clauses.get(an.Auction), clauses.get(an.ChooseTrump)
    order = clauses.get(an.OrderUp)
    if auction is None and choice is None and order is None:
        return []
    steps = [eng.ClearRoles()]
    if auction is not None:
        steps.append(auction_step(rules.deck, auction))
    if order is not None:
        steps += order_steps(rules.deck, order, choice)
    if choice is not None:
        steps.append(choice_step(rules.deck, choice))
    rules.decisions = steps
    return steps


def auction_step(deck, auction: an.Auction) -> eng.Auction:
    calls = auction.part(an.Calls) or auction.part(an.CallsSuits)
    start = auction.part(an.AuctionFrom)
    first = seat_fn(start.seat) if start else seat_fn(n.SeatRef("left_of", n.Name("dealer")))
    end = auction.part(an.AuctionEnd)
    once = end is None or end.kind == "once each"
    return eng.Auction(call_list(deck, calls, auction.part(an.CallOrder)), first, once,
                       auction.part(an.Higher) is not None, _all_pass(auction.part(an.AllPass)))


def call_list(deck, calls, order) -> list[tuple[int, int, str]]:
    """Every call, lowest first: `(level, suit, text)`; suit -1 for a number alone."""
    suits = suit_order(deck, order)
    if isinstance(calls, an.CallsSuits):
        return [(0, s, f"bid {deck.suit_names[s]}") for s in suits]
    names = {c.level: c.name.text for c in calls.names}
    out = []
    for level in range(calls.low, calls.high + 1):
        word = names.get(level, str(level))
        if calls.with_ is None:
            out.append((level, -1, f"bid {word}"))
        else:
            out += [(level, s, f"bid {word} {deck.suit_names[s]}") for s in suits]
    return out


def suit_order(deck, order) -> list[int]:
    """The suits in calls, lowest first: the auction's `order`, else the deck's."""
    if order is None:
        return list(range(deck.regular_suits))
    return [deck.suit_names.index(name.text) for name in order.names]


def choice_step(deck, choice: an.ChooseTrump) -> eng.ChooseTrump:
    by, in_turn = choice.option(an.ChoiceBy), choice.option(an.ChoiceInTurn)
    ref = (by or in_turn).seat if (by or in_turn) else n.SeatRef("named", n.Name("dealer"))
    when = choice.option(an.ChoiceWhenTurned)
    mask = None
    if when is not None:
        mask = PredicateTables(deck).compile(when.pred)(-1, -1)
    return eng.ChooseTrump(deck, seat_fn(ref), in_turn is not None,
                           choice.option(an.ChoiceMayPass) is not None,
                           choice.option(an.ChoiceNotTurned) is not None, mask,
                           _all_pass(choice.option(an.AllPass)), choice.option(an.MayAlone) is not None)


def order_steps(deck, order: an.OrderUp, choice) -> list:
    """`order up turned card, ...`, and the dealer's discard with `dealer takes it`."""
    in_turn = order.option(an.ChoiceInTurn)
    first = seat_fn(in_turn.seat if in_turn else n.SeatRef("left_of", n.Name("dealer")))
    goes_on = choice is not None and choice.option(an.ChoiceInTurn) is not None
    all_pass = None if goes_on else _all_pass(order.option(an.AllPass))
    takes = order.option(an.DealerTakes) is not None
    steps = [eng.OrderUp(deck, first, takes, all_pass, order.option(an.MayAlone) is not None)]
    if takes:
        steps.append(eng.DealerDiscards(MoveTable(deck, "discard")))
    return steps


def allows_alone(clauses) -> bool:
    """Whether a decision of the round lets its maker play alone (the tricks then skip seats)."""
    return any(isinstance(c, (an.OrderUp, an.ChooseTrump)) and c.option(an.MayAlone) is not None
               for c in clauses)


def tricks_class(clauses, plain):
    """The tricks step for a round: `plain` (Tricks or TricksAll), or its sit-out form when a
    maker may play alone."""
    if not allows_alone(clauses):
        return plain
    return sit_out.SitOutTricksAll if issubclass(plain, TricksAll) else sit_out.SitOutTricks


def _all_pass(clause) -> str:
    if clause is None or clause.action.text == "void":
        return eng.VOID
    return eng.REDEAL if clause.action.text == "redeal" else eng.FORCED


def install(rules, clauses: dict) -> None:
    """After scoring is built: a round thrown in (`if all pass -> void`) scores nothing (and,
    with scores in parts, changes no counter)."""
    if not has_roles(clauses.values()):
        return
    score, parts = rules.score, rules.round_points
    if score is not None:
        rules.score = lambda st, seat: 0 if st.extra.get("void") else score(st, seat)
    if parts is not None:
        override_round_points(rules, _void_points)


def _void_points(st) -> list[int] | None:
    """A round thrown in scores nothing (and changes no counter)."""
    return [0] * st.n if st.extra.get("void") else None


# ---- views ---------------------------------------------------------------------------------

def view_keys(rules, st, out: dict) -> None:
    """The auction and its result, open to every seat: `calls`, `declarer`, `makers`,
    `contract` (and `trump_passes` during a decision in turn)."""
    auction = _step(rules, eng.Auction)
    extra = st.extra
    if auction is not None:
        out["calls"] = [[seat, auction.moves[i].text if i >= 0 else "pass"] for seat, i in extra.get("calls", ())]
    roles = extra.get("roles")
    out["declarer"] = roles[0] if roles is not None else None
    out["makers"] = list(roles[2]) if roles is not None else None
    out["contract"] = roles[1] if roles is not None else None
    if any(getattr(s, "may_alone", False) for s in rules.decisions):
        sitting = extra.get("sitting", 0)
        out["sitting_out"] = [seat for seat in range(st.n) if sitting >> seat & 1]
    choice = _step(rules, eng.ChooseTrump)
    if (choice is not None and choice.may_pass) or _step(rules, eng.OrderUp) is not None:
        out["trump_passes"] = extra.get("choice_turns", 0)


def restore_keys(rules, st, data: dict) -> None:
    """The inverse of `view_keys`, for `Game.restore`."""
    auction = _step(rules, eng.Auction)
    extra = st.extra
    calls, high, out = (), None, 0
    if auction is not None:
        for seat, text in data.get("calls", []):
            seat, index = _seat(st, seat), auction.call_index(str(text))
            calls += ((seat, index),)
            if index < 0:
                out |= 1 << seat
            elif high is None or index > high[0]:
                high = (index, seat)
    extra["calls"], extra["high"], extra["out"], extra["void"] = calls, high, out, False
    declarer = data.get("declarer")
    extra["roles"] = None if declarer is None else (
        _seat(st, declarer), int(data.get("contract") or 0), tuple(_seat(st, s) for s in data.get("makers") or [declarer]))
    extra["choice_turns"] = int(data.get("trump_passes", 0))
    extra["sitting"] = sum(1 << _seat(st, seat) for seat in data.get("sitting_out") or [])
    extra["takes"] = 0 <= st.step < len(rules.steps) and isinstance(rules.steps[st.step], eng.DealerDiscards)


def _seat(st, value) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < st.n:
        raise ValueError(f"no seat {value!r}")
    return value


def _step(rules, kind):
    return next((s for s in rules.decisions if isinstance(s, kind)), None)
