"""Checks merged sections and reports every problem at once, in the language's own words.

Pipeline place: nodes → merge → **checker** → compiler. The checker never stops at the
first problem: each `report` adds a diagnostic and the walk goes on. The compiler only
ever sees sections the checker passed.
"""
from __future__ import annotations

from ..compile.deck import ATTRIBUTES
from ..compile.cardsets_expr import SetExprCompiler
from ..compile.exprs import BASE_NAMES, BID_NAMES, ExprCompiler, suggest
from ..compile.auction import ROLE_NAMES
from ..compile.teams import extra_names
from . import analysis, check_auction, check_cards, check_grid, check_table, check_teams
from . import nodes as n
from .merge import clause_key

MAX_PLAYERS = 16
MAX_CARDS = 1024

DEALER_FIRST = ("random", "first")
DEALER_THEN = ("next", "same")
DIRECTIONS = ("left", "right", "across")
LEADERS = ("dealer", "winner")
BID_BOUNDS = ("hand",)          # `bid 0..hand`
TRICK_COUNTS = ("all",)         # `tricks all`


class Checker:
    """Walks one game's sections; `report(node, message, hint)` collects the problems."""

    def __init__(self, sections: dict, report, memo: dict | None = None):
        self.s, self.report = sections, report
        #: Results of checks already run on the same section objects (the base game's and
        #: each variant's share most of them): one dict for a whole file, see `cached`.
        self.memo = {} if memo is None else memo
        self.card_names: set[str] = set()
        self.colour_names: set[str] = set()
        self.bid = None
        self.card_words = check_grid.words_from_sections(sections)
        self.extra_names = extra_names(sections)      # teams, counters, named bids

    def run(self) -> None:
        for key in ("players", "deck"):
            if key not in self.s and not (key == "deck" and "player decks" in self.s):
                self.report(None, f"the rules have no `{key}` section",
                            f"add a `{key} ...` section; see the rule-language reference")
        self.check_players()
        self.check_deck()
        self.check_round()
        self.check_follow()
        check_cards.check_lead(self)
        self.check_trick_winner()
        self.cached(Checker.check_tables, *(v for k, v in self.s.items() if k.startswith("table ")))
        self.check_score()
        self.check_end()
        self.check_winner()
        check_teams.run(self)
        check_grid.run(self)
        check_auction.run(self)
        check_table.run(self)
        analysis.run(self)

    # ---- helpers -------------------------------------------------------------------------

    def cached(self, check, *inputs) -> None:
        """Run `check(self)` once per set of input nodes: a variant that keeps the sections a
        check reads gets the base game's findings again without the work. Only for checks
        that read nothing but `inputs` (and what the checker derives from them)."""
        key = (check.__name__,) + tuple(id(x) for x in inputs)
        hit = self.memo.get(key)
        if hit is None:
            found, report = [], self.report
            self.report = lambda node, message, hint=None: found.append((node, message, hint))
            try:
                check(self)
            finally:
                self.report = report
            hit = self.memo[key] = (inputs, found)      # the inputs kept alive: ids stay theirs
        for finding in hit[1]:
            self.report(*finding)

    def word(self, name: n.Name | None, allowed, what: str) -> bool:
        if name is None or name.text in allowed:
            return True
        self.report(name, f"unknown {what} `{name.text}`",
                    suggest(name.text, allowed) or f"use one of: {', '.join(allowed)}")
        return False

    def exprs(self, extra_names=None) -> ExprCompiler:
        names = dict(BASE_NAMES, **ROLE_NAMES)
        names.update(self.extra_names)
        names.update(extra_names or {})
        tables = {key[6:]: (lambda k: 0) for key in self.s if key.startswith("table ")}
        return SetExprCompiler(names, tables, self.report, self.card_words)

    @property
    def players_range(self) -> tuple[int, int]:
        players = self.s.get("players")
        return (players.low, players.high) if players else (2, 2)

    # ---- sections ------------------------------------------------------------------------

    def check_players(self) -> None:
        players = self.s.get("players")
        if players is None:
            return
        if players.low < 1 or players.low > players.high:
            self.report(players, f"`players {players.low}..{players.high}` is an empty range",
                        "write the smallest count first, like `players 2..6`")
        if players.high > MAX_PLAYERS:
            self.report(players, f"at most {MAX_PLAYERS} players are supported")

    def check_deck(self) -> None:
        deck = self.s.get("deck")
        if deck is None:
            return
        kinds: dict[type, object] = {}
        for item in deck.items:
            if type(item) in kinds and not isinstance(item, (n.Special, n.ColourGroup)):
                self.report(item, "the deck declares this twice", "keep one line of each kind")
            kinds[type(item)] = item
        suits, ranks = kinds.get(n.Suits), kinds.get(n.Ranks)
        specials = [i for i in deck.items if isinstance(i, n.Special)]
        names = [s for s in suits.names] if suits else []
        names += [s.name for s in specials]
        seen = set()
        for name in names:
            if name.text in seen:
                self.report(name, f"the card name `{name.text}` is used twice")
            seen.add(name.text)
        self.card_names = seen
        if suits and not ranks:
            self.report(suits, "suits need ranks", "add a line like `ranks 1..12`")
        if ranks and ranks.low > ranks.high:
            self.report(ranks, f"`{ranks.low}..{ranks.high}` is an empty range of ranks")
        size = (len(suits.names) if suits else 0) * (max(0, ranks.high - ranks.low + 1) if ranks else 0)
        size += sum(s.copies for s in specials)
        for special in specials:
            if special.copies < 1:
                self.report(special, "a card needs at least one copy")
        if size > MAX_CARDS:
            self.report(deck, f"the deck has {size} cards; at most {MAX_CARDS} are supported")
        if size == 0:
            self.report(deck, "the deck has no cards", "declare suits and ranks, or special cards")
        self.deck_size = size
        order = kinds.get(n.Order)
        if order:
            for key in order.keys:
                if self.word(key, list(ATTRIBUTES), "card attribute") and ATTRIBUTES[key.text] == "suit" \
                        and suits and not suits.ordered:
                    self.report(key, "the order compares suits, but the suits have no order",
                                "list the suits with `<`, lowest first: `suits red < blue`")
        check_cards.check_deck(self, deck)

    def check_round(self) -> None:
        rnd = self.s.get("round")
        if rnd is None:
            return
        clauses = {}
        for clause in rnd.clauses:
            key = clause_key(clause)          # `tricks 7` and `tricks all` are one kind
            if key in clauses:
                self.report(clause, "this round clause is given twice")
            clauses[key] = clause
        for clause in rnd.clauses:
            if isinstance(clause, (n.BidNumber, n.BidCard)):
                self.bid = clause
        deal = next((c for c in rnd.clauses if isinstance(c, n.Deal)), None)
        self.deal = deal
        for clause in rnd.clauses:
            handler = getattr(self, "clause_" + type(clause).__name__.lower(), None)
            if isinstance(clause, check_auction.CLAUSES):
                check_auction.clause(self, clause)
            elif handler is None:
                check_grid.clause(self, clause)
            else:
                handler(clause)

    def clause_dealer(self, clause: n.Dealer) -> None:
        self.word(clause.first, DEALER_FIRST, "dealer rule")
        self.word(clause.then, DEALER_THEN, "dealer rotation")

    def clause_deal(self, clause: n.Deal) -> None:
        low, high = self.players_range
        most = max(clause.counts)
        size = getattr(self, "deck_size", 0)
        if size and high * most > size:
            self.report(clause, f"{high} players × {most} cards is {high * most}, "
                                f"but the deck has only {size} cards",
                        f"deal at most {size // high} each" + (
                            f", or allow at most {size // most} players" if size // most >= low else ""))

    def clause_pass(self, clause: n.Pass) -> None:
        most = max(self.deal.counts) if self.deal else 0
        for item in clause.items:
            if item.count and item.direction is None:
                self.report(item, f"passing {item.count} cards needs a direction",
                            "add `left`, `right` or `across`")
            self.word(item.direction, DIRECTIONS, "direction")
            if self.deal and item.count > most:
                self.report(item, f"cannot pass {item.count} cards from a hand of {most}")
        if self.deal is None:
            self.report(clause, "cards are passed, but no cards are dealt", "add `deal N each`")

    def clause_bidnumber(self, clause: n.BidNumber) -> None:
        if clause.limit is not None:
            check_teams.check_bid_limit(self, clause)
        elif clause.upto is not None:
            self.bid_up_to_hand(clause)
        elif clause.low > clause.high:
            self.report(clause, f"`{clause.low}..{clause.high}` is an empty range of bids")
        for option in clause.options:
            self.bid_option(option)

    def bid_up_to_hand(self, clause: n.BidNumber) -> None:
        """`bid 0..hand`: the word, a deal to size the hands, and a lowest bid every hand reaches."""
        if not self.word(clause.upto, BID_BOUNDS, "bid limit"):
            return
        if self.deal is None:
            self.report(clause.upto, "the highest bid is the cards in hand, but no cards are dealt",
                        "add `deal N each`")
        elif clause.low > min(self.deal.counts):
            fewest = min(self.deal.counts)
            rnd = self.deal.counts.index(fewest) + 1
            self.report(clause, f"the lowest bid is {clause.low}, but round {rnd} deals only "
                                f"{fewest} card{'s' if fewest != 1 else ''} each",
                        f"start the range at {fewest} or lower, like `bid 0..hand`")

    def clause_bidcard(self, clause: n.BidCard) -> None:
        if self.deal is None:
            self.report(clause, "bids are made with a card, but no cards are dealt", "add `deal N each`")
        if not any(isinstance(o, n.Value) for o in clause.options):
            self.report(clause, "a card bid needs the attribute that gives its value",
                        "add `, value number`")
        for option in clause.options:
            self.bid_option(option)

    def bid_option(self, option) -> None:
        if isinstance(option, n.NotAllowed):
            self.bid_restriction(option)
        elif isinstance(option, n.Value):
            self.word(option.attr, list(ATTRIBUTES), "card attribute")
        elif isinstance(option, n.InTurn):
            if option.seat.kind == "highest_bidder":
                self.report(option.seat, "bidding cannot start with the highest bidder: nobody has bid yet",
                            "start with `dealer` or `left of dealer`")
            else:
                self.seat(option.seat, bidding=False)
            if isinstance(self.bid, n.BidCard):
                self.report(option, "bids made with a card are simultaneous and hidden",
                            "remove `in turn from ...`, or bid a number: `bid 0..7, in turn from dealer`")

    def bid_restriction(self, option: n.NotAllowed) -> None:
        """`not allowed when C`: C is a condition read for the bidder, per candidate bid."""
        if isinstance(self.bid, n.BidCard):
            self.report(option, "`not allowed when` restricts number bids, but bids are made with a card",
                        "bid a number: `bid 0..hand, in turn from left of dealer, not allowed when ...`")
        elif any(isinstance(o, n.Simultaneous) for o in self.bid.options):
            self.report(option, "`not allowed when` reads the bids made before, but simultaneous bids "
                                "are hidden until all are made",
                        "bid in turn: `in turn from dealer` instead of `simultaneous`")
        self.exprs(BID_NAMES).compile(option.condition, "bool")

    def seat(self, ref: n.SeatRef, bidding: bool = True, winner_ok: bool = False) -> None:
        if ref.kind == "holder":
            check_cards.holder(self, ref)
            return
        if ref.kind == "highest_bidder":
            if self.bid is None and bidding:
                self.report(ref, "`highest bidder` needs a bidding clause in the round")
            return
        if check_auction.unset_role_seat(self, ref):
            return
        allowed = (LEADERS if winner_ok else ("dealer",)) + check_auction.seat_words(self)
        self.word(ref.name, allowed, "seat")

    def clause_trumpfrombid(self, clause: n.TrumpFromBid) -> None:
        if self.word(clause.attr, list(ATTRIBUTES), "card attribute") and ATTRIBUTES[clause.attr.text] != "suit":
            self.report(clause.attr, "trump is a suit", "write `trump suit of highest bid`")
        if not isinstance(self.bid, n.BidCard):
            self.report(clause, "the trump comes from the highest bid card, but bids are not made with cards",
                        "use `bid with a card, value number`")

    def clause_trumpturned(self, clause: n.TrumpTurned) -> None:
        if self.word(clause.attr, list(ATTRIBUTES), "card attribute") and ATTRIBUTES[clause.attr.text] != "suit":
            self.report(clause.attr, "trump is a suit", "write `trump suit of turned card`")
        if self.deal is None:
            self.report(clause, "the trump comes from the card turned after the deal, but no cards are dealt",
                        "add `deal N each`")
            return
        size = getattr(self, "deck_size", 0)
        low, high = self.players_range
        if size and all(players * count >= size for players in range(max(low, 1), high + 1)
                        for count in self.deal.counts):
            self.report(clause, "every deal gives out the whole deck, so no card is ever left to turn",
                        "deal fewer cards, or choose the trump another way (`trump hearts`)")

    def clause_trumplastdealt(self, clause: n.TrumpLastDealt) -> None:
        check_teams.check_trump_last_dealt(self, clause)

    def clause_trumpfixed(self, clause: n.TrumpFixed) -> None:
        self.word(clause.suit, sorted(self.card_names) + ["none"], "suit")

    def clause_tricks(self, clause: n.Tricks) -> None:
        self.tricks_common(clause)
        if self.deal and clause.count > min(self.deal.counts):
            self.report(clause, f"{clause.count} tricks need {clause.count} cards in each hand, "
                                f"but only {min(self.deal.counts)} are dealt",
                        "play as many tricks as the round deals: `tricks all, ...`"
                        if len(set(self.deal.counts)) > 1 else None)

    def clause_tricksall(self, clause: n.TricksAll) -> None:
        self.tricks_common(clause)
        clauses = self.s["round"].clauses
        if any(isinstance(c, check_grid.GRID_CLAUSES) for c in clauses) and \
                not any(isinstance(c, check_grid.TRICK_CLAUSES) for c in clauses):
            self.report(clause, "a round either plays tricks or places cards, not both")
        if self.word(clause.word, TRICK_COUNTS, "number of tricks") and self.deal is None:
            self.report(clause, "`tricks all` plays the cards dealt, but no cards are dealt",
                        "add `deal N each`, or give the number of tricks: `tricks 7, ...`")

    def tricks_common(self, clause) -> None:
        self.word(clause.taken, ("face up", "face down"), "way to keep taken tricks")
        self.seat(clause.first)
        self.seat(clause.then, winner_ok=True)
        for key in ("follow", "trick winner", "score"):
            if key not in self.s and not (key == "score" and any(isinstance(v, n.Score) for v in self.s.values())):
                self.report(clause, f"tricks are played, but the rules have no `{key}` section")

    def clause_repeat(self, clause: n.Repeat) -> None:
        if not isinstance(self.bid, n.BidCard):
            self.report(clause, "`repeat bidding` needs bids made with a card")
        self.exprs().compile(clause.condition, "bool", per_seat_ok=False)
        for action in clause.actions:
            if isinstance(action, n.Award):
                self.seat(action.seat)
                self.exprs().compile(action.points, "int", per_seat_ok=False)
        self.out_of_cards(clause)

    def out_of_cards(self, clause: n.Repeat) -> None:
        """`when no cards are left, ...`: once per block, and only where hands can run out."""
        said = [a for a in clause.actions if isinstance(a, n.OutOfCards)]
        for extra in said[1:]:
            self.report(extra, "this block says twice what happens when no cards are left",
                        "keep one `when no cards are left, ...` line")
        if said and not any(isinstance(a, n.SetAside) for a in clause.actions):
            self.report(said[0], "no hand can run out of cards here: bid cards stay in the hands",
                        "add `set aside bid cards` to the block, or remove this line")

    # ---- follow and winner ---------------------------------------------------------------

    def pred(self, pred) -> None:
        if isinstance(pred, n.PNamed):
            if pred.name.text not in self.card_names | self.colour_names:
                self.report(pred.name, f"unknown suit or card `{pred.name.text}`",
                            suggest(pred.name.text, self.card_names | {"trump", "card"}))
        elif isinstance(pred, (n.PCard, n.PCompare)):
            check_cards.pred_atom(self, pred)
        elif isinstance(pred, n.PSameAsLead):
            self.word(pred.attr, list(ATTRIBUTES), "card attribute")
        elif isinstance(pred, n.PNot):
            self.pred(pred.operand)
        elif isinstance(pred, (n.PAnd, n.POr)):
            self.pred(pred.left)
            self.pred(pred.right)

    def cases(self, cases, what: str, allowed) -> None:
        for index, case in enumerate(cases):
            condition = case.condition
            if not isinstance(condition, allowed):
                self.report(condition, f"`{what}` cases cannot test this",
                            "use `lead is ...`, `always` or `otherwise`" if what == "follow" else None)
            if isinstance(condition, (n.Otherwise, n.Always)) and index < len(cases) - 1:
                self.report(cases[index + 1], f"this `{what}` case can never apply",
                            f"`{'otherwise' if isinstance(condition, n.Otherwise) else 'always'}` "
                            "catches every case, so it must come last")
            if isinstance(condition, (n.LeadIs, n.AnyPlayed)):
                self.pred(condition.pred)
        if cases and not any(isinstance(c.condition, (n.Otherwise, n.Always)) for c in cases):
            self.report(cases[-1], f"`{what}` needs an `otherwise` case",
                        "add a last case `otherwise -> ...` for when no other case applies")

    def check_follow(self) -> None:
        follow = self.s.get("follow")
        if follow is None:
            return
        self.cases(follow.cases, "follow", (n.LeadIs, n.FirstTrick, n.Always, n.Otherwise))
        for case in follow.cases:
            if isinstance(case.result, n.FollowIfAble):
                self.pred(case.result.pred)
        check_cards.check_follow_extras(self, follow)

    def check_trick_winner(self) -> None:
        rule = self.s.get("trick winner")
        if rule is None:
            return
        self.cases(rule.cases, "trick winner", (n.LeadIs, n.AnyPlayed, n.Always, n.Otherwise))
        for case in rule.cases:        # whether each case finds a card: analysis.cases_find_a_card
            self.pred(case.pred)

    def check_tables(self) -> None:
        constant = ExprCompiler({}, {}, self.report)
        for key, table in self.s.items():
            if not key.startswith("table "):
                continue
            keyed = []
            for entry in table.entries:
                constant.compile(entry.value, "int")
                if entry.low is not None and entry.low > entry.high:
                    self.report(entry, f"`{entry.low}..{entry.high}` is an empty range")
                elif entry.low is not None:
                    keyed.append(entry)
            for entry in _overlapping(keyed):
                self.report(entry, "this key is already in the table", "each key may appear once")
            if sum(e.low is None for e in table.entries) > 1:
                self.report(table, "the table has more than one `else`")

    def table_covers(self, name: str, low: int, high: int, at) -> None:
        table = self.s.get(f"table {name}")
        if table is None:
            return
        if any(e.low is None for e in table.entries):
            return
        missing = _gaps([(e.low, e.high) for e in table.entries], low, high, 7)
        if missing:
            shown = ", ".join(map(str, missing[:6])) + (" ..." if len(missing) > 6 else "")
            self.report(at, f"table `{name}` has no entry for {shown}, but a bid can be {low}..{high}",
                        "add those keys, or an `else:` entry")

    def bid_range(self) -> tuple[int, int] | None:
        if isinstance(self.bid, n.BidNumber):
            if self.bid.upto is not None:           # `0..hand`: up to the largest deal
                return (self.bid.low, max(self.bid.low, max(self.deal.counts))) if self.deal else None
            if self.bid.limit is not None:
                return None
            return (min(self.bid.low, 0) if self.bid.named else self.bid.low), self.bid.high   # a named bid is 0
        if isinstance(self.bid, n.BidCard):
            ranks = next((i for i in self.s["deck"].items if isinstance(i, n.Ranks)), None) \
                if "deck" in self.s else None
            return (ranks.low, ranks.high) if ranks else None
        return None

    def check_score(self) -> None:
        score = self.s.get("score")
        if score is None:
            return
        compiler = self.exprs()
        for case in score.cases:
            if isinstance(case.condition, (n.Made, n.Missed)) and self.bid is None:
                self.report(case.condition, "`made` and `missed` compare tricks with the bid, "
                                            "but the round has no bidding",
                            "after an auction, test `contract_made`" if check_auction.sets_roles(self) else None)
            if isinstance(case.condition, n.CondExpr):
                compiler.compile(case.condition.expr, "bool")
            compiler.compile(case.expr, "int")
            self.score_tables(case.expr, case)
        conditions = [type(c.condition) for c in score.cases]
        if not (n.Otherwise in conditions or {n.Made, n.Missed} <= set(conditions)):
            self.report(score, "some results score nothing: the cases do not cover every seat",
                        "add `otherwise -> 0` (or both `made` and `missed`)")

    def score_tables(self, expr, case) -> None:
        span = self.bid_range()
        for node in n.walk(expr):
            if isinstance(node, n.Index) and isinstance(node.key, n.Ref) and node.key.name == "bid" and span:
                self.table_covers(node.table, span[0], span[1], node)

    def check_end(self) -> None:
        end = self.s.get("end")
        if end is None:
            self.report(None, "the rules never say when the game ends",
                        "add `end when max(score) >= 100` or `end after 7 rounds`")
        elif isinstance(end, n.EndWhen):
            self.exprs().compile(end.condition, "bool", per_seat_ok=False)
        elif end.rounds < 1:
            self.report(end, "the game must last at least one round")

    def check_winner(self) -> None:
        winner = self.s.get("winner")
        if winner is None:
            return
        compiler = self.exprs()
        for key in winner.keys:
            if key.pick not in ("highest", "lowest"):
                self.report(key, f"the winner is decided by `highest` or `lowest`, not `{key.pick}`")
            compiler.compile(key.expr, "int")


def _overlapping(entries) -> list:
    """Entries whose keys meet the keys of an entry written before them: one sort and one
    sweep, so a table of n entries costs O(n log n)."""
    order = sorted(range(len(entries)), key=lambda i: (entries[i].low, i))
    found, reach = set(), None         # reach: (highest key so far, index of its entry)
    for i in order:
        entry = entries[i]
        if reach is not None and entry.low <= reach[0]:
            found.add(max(i, reach[1]))
        if reach is None or entry.high > reach[0]:
            reach = (entry.high, i)
    return [entries[i] for i in sorted(found)]


def _gaps(ranges, low: int, high: int, limit: int) -> list[int]:
    """Up to `limit` keys of `low..high` that no (low, high) range covers, smallest first."""
    missing, key = [], low
    for start, end in sorted(ranges):
        while key < min(start, high + 1) and len(missing) < limit:
            missing.append(key)
            key += 1
        if len(missing) >= limit:
            break
        key = max(key, end + 1)
    while key <= high and len(missing) < limit:
        missing.append(key)
        key += 1
    return missing


def _admits_lead(pred) -> bool:
    """True when the lead card always satisfies `pred` (so a pick over it finds a card)."""
    if isinstance(pred, (n.PAny, n.PSameAsLead, n.PFollowed)):
        return True
    if isinstance(pred, n.POr):
        return _admits_lead(pred.left) or _admits_lead(pred.right)
    if isinstance(pred, n.PAnd):
        return _admits_lead(pred.left) and _admits_lead(pred.right)
    return False
