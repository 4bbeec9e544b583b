"""Checked sections → a `Ruleset`: the steps of a round and the rules around them.

Pipeline place: checker → **compiler** → engine. Everything a game needs while playing is
built here once: card tables, follow and winner tables, score closures, the steps. The
`Ruleset` then starts games, ends rounds (scores, end condition, winners) and turns states
into views; `views.py` holds the view and restore code.
"""
from __future__ import annotations

from ..dsl import nodes as n
from ..engine import steps as st_
from ..engine.bidding import BidNamed, BidUpTo
from ..engine.dealing import DealShowLast
from ..engine import trick_rules
from ..engine.history import MoveCodes, seal
from ..engine.state import State
from . import auction as auctions
from . import views
from .scoring import build_scoring
from .teams import extra_names, team_plan
from .view_hooks import named_bid_hooks, shown_hooks
from .cardsets_expr import SetExprCompiler, words_for_deck
from .deck import DeckModel, build_deck
from .exprs import BASE_NAMES, BID_NAMES, ExprCompiler, compile_table
from . import codegen, leads
from .tricks import PredicateTables, follow_table, winner_rule

#: A game that has not ended after this many rounds is stopped (its rules may loop forever):
#: it is over with no winners, and its view says `"capped": true`.
MAX_ROUNDS = 10_000

_OFFSETS = {"left": 1, "right": -1, "across": None}


class Ruleset:
    """A compiled game: what `Game` runs. Built by `build_ruleset`."""

    def __init__(self, title: str, players: range, deck: DeckModel):
        self.title, self.players, self.deck = title, players, deck
        self.variants: list[str] = []
        self.steps: list = []
        self.round_start = 0          # steps before this index run once, at set-up
        self.taken_face_up = False    # may every seat look at the tricks a seat took?
        self.fixed_trump = -1
        self.turns_card = False       # is a card turned face up after the deal (view key `turned`)?
        self.trick_count = _no_tricks  # state -> how many tricks this round plays (`round_tricks`)
        self.dealer_first, self.dealer_then = "first", "same"
        self.score = None
        self.end = None
        self.winner_keys: list = []
        self.final_score = None       # `score at end -> ...`: added once, when the game ends
        self.grid = None              # a GridGame when players own decks and place cards
        self.max_rounds = MAX_ROUNDS  # the safety cap: a game still going after it is stopped
        self.decisions: list = []     # the steps of an auction or a decision (compile/auction.py)
        self.team_plan = None         # a TeamPlan when the rules declare `teams ...`
        self.round_points = None      # state -> points per seat, for scores in parts (scoring.py)
        self.score_parts = None       # what round_points computes, for the generator (scoring.ScoreParts)
        self.on_start: list = []      # state -> None: set-up of optional mechanisms (counters)
        self.view_hooks: list = []    # (state, seat, view) -> None: their view keys
        self.restore_hooks: list = []  # (state, full view) -> None: and back
        self.state_class = None       # the generated State subclass (compile/codegen.py), if any
        self.generated = None         # the generated module's file name, if any
        self.move_codes = MoveCodes()  # Move <-> code of the rounds states have finished
        #: the checked expressions behind `end`, `winner_keys` and `final_score` ("end", "winner",
        #: "final": node or list of nodes; "rounds": `end after N rounds`), with the compiler that
        #: compiled them: what the generator writes out (compile/codegen_exprs.py)
        self.expr_nodes: dict = {}
        self.expr_compiler = None

    # ---- teams -------------------------------------------------------------------------------

    def teams(self, players: int) -> tuple[tuple[int, ...], ...] | None:
        """The seats of each team for this many players, or None (no teams declared)."""
        return self.team_plan.teams(players) if self.team_plan is not None else None

    def team_of(self, players: int, seat: int) -> int | None:
        """The team number of a seat (its index in `teams(players)`), or None without teams."""
        if self.team_plan is None or self.team_plan.teams(players) is None:
            return None
        return self.team_plan.team_of(players)[seat]

    # ---- the life of a game ----------------------------------------------------------------

    def start_game(self, st: State) -> None:
        st.dealer = st.random_below(st.n) if self.dealer_first == "random" else 0
        if self.grid is not None:
            self.grid.start(st)
        for start in self.on_start:
            start(st)
        self.reset_round(st)

    def reset_round(self, st: State) -> None:
        n_ = st.n
        st.bids, st.bid_cards, st.pending = [None] * n_, [None] * n_, [None] * n_
        st.tricks_won, st.taken = [0] * n_, [0] * n_
        st.trick, st.last_trick, st.lead, st.trump = [], [], -1, self.fixed_trump
        st.tricks_played, st.revealed, st.leader = 0, False, None

    def end_round(self, st: State) -> None:
        scores = st.scores
        if self.round_points is not None or self.score is not None:
            points = (self.round_points(st) if self.round_points is not None
                      else [self.score(st, seat) for seat in range(st.n)])
            for seat in range(st.n):
                scores[seat] += points[seat]
        else:
            points = [0] * st.n       # a game scored at its end only (a grid game): nothing to add
        st.last_round = {"round": st.round, "bids": list(st.bids), "tricks_won": list(st.tricks_won),
                         "points": points, "scores": list(scores)}
        if st.dealer is not None:
            st.dealt[st.dealer] += 1
        ended = self.end(st, None) or (self.grid is not None and self.grid.stalled(st))
        if ended or st.round >= self.max_rounds:
            self.finish(st, ended)
            return
        seal(st)                      # the game goes on: its moves become codes (engine/history.py)
        st.round += 1
        if self.dealer_then == "next" and st.dealer is not None:
            st.dealer = (st.dealer + 1) % st.n
        self.reset_round(st)

    def finish(self, st: State, ended: bool) -> None:
        """The game is over: by its end condition (`ended`) or stopped by the round cap."""
        if self.final_score is not None:
            finals = [self.final_score(st, seat) for seat in range(st.n)]
            st.scores = [score + final for score, final in zip(st.scores, finals)]
        st.is_terminal = True
        st.current_player = None
        # stopped by the cap: nobody won (the view says `capped`, see `capped`)
        st.winners = self.winners_of(st) if ended else []

    def capped(self, st: State) -> bool:
        """Was the game stopped by the round cap (`max_rounds`) rather than by its rules?
        Only then is a finished game without winners."""
        return st.is_terminal and not st.winners and st.round >= self.max_rounds

    def winners_of(self, st: State) -> list[int]:
        """The seats whose keys (score, then each tie-break) are highest, compared in order: a
        tie-break is worked out only for the seats still tied (the keys are pure expressions,
        so the seats are those of comparing every key of every seat)."""
        seats = range(st.n)
        for sign, fn in self.winner_keys:
            keys = [sign * fn(st, seat) for seat in seats]
            best = max(keys)
            seats = [seat for seat, key in zip(seats, keys) if key == best]
            if len(seats) == 1:
                break
        return list(seats)

    # ---- views -------------------------------------------------------------------------------

    def view(self, st: State, seat: int | None) -> dict:
        return views.view(self, st, seat)

    def restore(self, data: dict) -> State:
        return views.restore(self, data)

    def clone_extra(self, extra: dict) -> dict:
        if self.grid is not None:
            return self.grid.clone_extra(extra)
        return dict(extra)

    def phase_index(self, name: str) -> int:
        for index, step in enumerate(self.steps):
            if step.name == name:
                return index
        raise KeyError(name)


def _grid_game(sections: dict):
    """The grid mechanism (`grid_game.py` and the engine's grid modules, ~100 KB of source):
    imported by the games that place cards only, so that the others load faster."""
    from .grid_game import GridGame
    return GridGame(sections)


def build_ruleset(sections: dict, title: str) -> Ruleset:
    """Compile checked sections. The checker has passed them, so names resolve."""
    players = sections["players"]
    grid = _grid_game(sections) if "player decks" in sections else None
    deck = grid.deck if grid is not None else build_deck(sections["deck"])
    rules = Ruleset(title, range(players.low, players.high + 1), deck)
    rules.team_plan = team_plan(sections)
    tables = {}
    constant = ExprCompiler({}, {}, _unreachable)
    for key, item in sections.items():
        if key.startswith("table "):
            tables[key[6:]] = compile_table(item, lambda e: constant.compile(e).fn(None, 0))
    words = grid.words if grid is not None else words_for_deck(deck)
    exprs = SetExprCompiler({**BASE_NAMES, **auctions.ROLE_NAMES, **extra_names(sections)}, tables,
                            _unreachable, words)
    _build_round(rules, sections, exprs)
    if grid is not None:
        grid.build(rules, sections, exprs)
    if not build_scoring(rules, sections, exprs, _unreachable):
        _build_score(rules, sections.get("score"), exprs)
    auctions.install(rules, _clauses(sections))
    if "player errors" in sections:
        from . import table_play         # imported by the games that use it only
        table_play.install(rules, sections["player errors"], exprs)
    nodes = rules.expr_nodes
    rules.expr_compiler = exprs
    final = sections["final score"].expr if "final score" in sections else None
    if final is not None:
        nodes["final"] = final
        rules.final_score = exprs.compile(final).fn
    end = sections["end"]
    if isinstance(end, n.EndAfterRounds):
        rounds = nodes["rounds"] = end.rounds
        rules.end = lambda st, seat: st.round >= rounds
    else:
        nodes["end"] = end.condition
        rules.end = exprs.compile(end.condition).fn
    nodes["end_fn"] = rules.end     # the generator writes `end` out only while it is this one
    winner = sections.get("winner")
    keys = winner.keys if winner else (n.TieKey("highest", n.Ref("score")),)
    nodes["winner"] = [(1 if k.pick == "highest" else -1, k.expr) for k in keys]
    rules.winner_keys = [(sign, exprs.compile(node).fn) for sign, node in nodes["winner"]]
    space = codegen.install(rules, sections)  # the hot steps, written out as Python for this game
    if grid is not None:
        grid.fill_points = space.get(getattr(grid, "points_function", None))
    return rules


def _clauses(sections: dict) -> dict:
    rnd = sections.get("round")
    return {type(c): c for c in rnd.clauses} if rnd else {}


def _no_tricks(st) -> int:
    return 0


def _unreachable(node, message, hint=None):
    raise AssertionError(f"the checker let through: {message}")


def _build_round(rules: Ruleset, sections: dict, exprs: ExprCompiler) -> None:
    rnd = sections.get("round")
    clauses = {type(c): c for c in rnd.clauses} if rnd else {}
    deck = rules.deck
    dealer = clauses.get(n.Dealer)
    if dealer:
        rules.dealer_first = dealer.first.text
        rules.dealer_then = dealer.then.text if dealer.then else "same"
    bid = clauses.get(n.BidNumber) or clauses.get(n.BidCard)
    trump = clauses.get(n.TrumpFromBid) or clauses.get(n.TrumpFixed) or clauses.get(n.TrumpTurned) \
        or clauses.get(n.TrumpLastDealt)
    deal_step = None
    if n.Deal in clauses:
        # a turned card is part of dealing (a fresh deal during bidding turns one too)
        rules.turns_card = isinstance(trump, n.TrumpTurned)
        kind = DealShowLast if isinstance(trump, n.TrumpLastDealt) else st_.DealTurn if rules.turns_card else st_.Deal
        deal_step = kind(deck, clauses[n.Deal].counts)
        deal_step.players = rules.players       # the generator writes the deal out for each count
        if kind is DealShowLast:
            shown_hooks(rules)
        rules.steps.append(deal_step)
    if n.Pass in clauses:
        rules.steps.append(st_.Pass(deck, _pass_plan(clauses[n.Pass])))
    decide_first = _decision_before_bids(clauses)
    if decide_first:
        rules.steps.extend(auctions.round_steps(rules, clauses))
    if isinstance(bid, n.BidNumber):
        first = _seat_fn(_option(bid, n.InTurn).seat, bid) if _option(bid, n.InTurn) else _seat_fn(
            n.SeatRef("named", n.Name("dealer")), bid)
        rules.steps.append(_bid_number_step(bid, first, clauses.get(n.Deal), exprs))
        if bid.named:
            named_bid_hooks(rules, tuple(name.text for name in bid.named))
    elif isinstance(bid, n.BidCard):
        repeat = clauses.get(n.Repeat)
        rules.steps.append(st_.BidCard(deck, _option(bid, n.Value).attr.text,
                                       _repeat(repeat, bid, exprs) if repeat else None,
                                       deal_step.deal if deal_step else None,
                                       _restarts(repeat)))
    if isinstance(trump, n.TrumpFromBid):
        rules.steps.append(st_.TrumpFromBid(deck, _highest_bidder(bid)))
    elif isinstance(trump, n.TrumpFixed) and trump.suit.text != "none":
        rules.fixed_trump = deck.suit_names.index(trump.suit.text)
    if not decide_first:
        rules.steps.extend(auctions.round_steps(rules, clauses))
    tricks = clauses.get(n.Tricks) or clauses.get(n.TricksAll)
    if tricks is not None:
        rules.steps.append(_tricks_step(rules, sections, tricks, bid))
        rules.taken_face_up = tricks.taken is not None and tricks.taken.text == "face up"
        rules.trick_count = _trick_count(tricks, clauses.get(n.Deal))


def _decision_before_bids(clauses: dict) -> bool:
    """A trump decision in a round without an auction comes before the bids, which are made
    knowing the trump (a Wizard turned: the dealer names the trump, then all bid)."""
    return auctions.an.ChooseTrump in clauses and auctions.an.Auction not in clauses and (
        n.BidNumber in clauses or n.BidCard in clauses)


def _trick_count(tricks, deal):
    """state -> the tricks this round plays: the `tricks` count, or with `tricks all` the
    round's deal (every card dealt is played)."""
    if isinstance(tricks, n.Tricks):
        count = tricks.count
        return lambda st: count
    counts = deal.counts if deal is not None else (0,)
    return lambda st: counts[(st.round - 1) % len(counts)]


def _bid_number_step(bid: n.BidNumber, first, deal, exprs: ExprCompiler):
    """The plain step for a fixed range; a limited one for `0..hand` or `not allowed when`."""
    simultaneous = _option(bid, n.Simultaneous) is not None
    restriction = _option(bid, n.NotAllowed)
    if bid.upto is None and restriction is None and not bid.named and bid.limit is None:
        return st_.BidNumber(bid.low, bid.high, first, simultaneous)
    high = bid.high if bid.upto is None else max(bid.low, max(deal.counts) if deal is not None else 0)
    high = bid.low if high is None else high
    forbidden = None
    if restriction is not None:
        names = {**exprs.names, **BID_NAMES}
        forbidden = SetExprCompiler(names, exprs.tables, _unreachable, exprs.words).compile(
            restriction.condition).fn
    if bid.limit is not None:
        return BidUpTo(bid.low, bid.low, first, tuple(name.text for name in bid.named), False, forbidden,
                       exprs.compile(bid.limit).fn)
    if bid.named:
        return BidNamed(bid.low, high, first, tuple(name.text for name in bid.named), bid.upto is not None,
                        forbidden)
    return st_.BidNumberLimited(bid.low, high, first, simultaneous, bid.upto is not None, forbidden)


def _option(bid, kind):
    return next((o for o in bid.options if isinstance(o, kind)), None)


def _pass_plan(clause: n.Pass) -> tuple[tuple[int, int], ...]:
    plan = []
    for item in clause.items:
        word = item.direction.text if item.direction else "left"
        plan.append((item.count, _OFFSETS[word]))
    return tuple(plan)


def _seat_fn(ref: n.SeatRef, bid, deck=None):
    if ref.kind == "holder":
        return _holder(deck, ref.name.text)
    if ref.name is not None and ref.name.text in auctions.ROLE_SEATS:
        return auctions.seat_fn(ref)
    if ref.kind == "highest_bidder":
        return _highest_bidder(bid)
    if ref.kind == "left_of":
        return _written(lambda st: (st.dealer + 1) % st.n, "(st.dealer + 1) % st.n")
    return _written(lambda st: st.dealer, "st.dealer")


def _written(fn, source: str):
    """`fn`, with the source of what it returns (`source`, an expression of `st`) for the
    generator to write in where it would call it (`codegen_round.entered`)."""
    fn.written = source
    return fn


def _holder(deck, text: str):
    """`holder of clubs 2`: the seat holding that card (or that played it to the trick in
    play); the dealer's left if no seat does."""
    cards = sum(1 << c for c, t in enumerate(deck.texts) if t == text)

    def holder(st):
        for seat in range(st.n):
            if st.hands[seat] & cards:
                return seat
        for seat, card in st.trick:         # already led to the trick in play
            if cards >> card & 1:
                return seat
        return (st.dealer + 1) % st.n
    return holder


def _highest_bidder(bid):
    if isinstance(bid, n.BidCard):
        def highest(st):            # the first seat whose card has the highest key
            cards, key = st.bid_cards, st.rules.deck.key
            best, top = 0, key[cards[0]]
            for seat in range(1, len(cards)):       # a loop: `max(..., key=)` calls a wrapper per seat
                if key[cards[seat]] > top:
                    best, top = seat, key[cards[seat]]
            return best
        return highest
    first = _seat_fn(_option(bid, n.InTurn).seat, bid) if bid is not None and _option(bid, n.InTurn) \
        else (lambda st: st.dealer)

    def highest_number(st):
        start = first(st)
        order = [(start + i) % st.n for i in range(st.n)]
        return max(order, key=lambda seat: (st.bids[seat], -order.index(seat)))
    return highest_number


def _repeat(clause: n.Repeat, bid, exprs: ExprCompiler):
    condition = exprs.compile(clause.condition).fn
    actions = []
    for action in clause.actions:
        if isinstance(action, n.SetAside):
            actions.append(st_.set_aside_bid_cards)
        elif isinstance(action, n.Award):
            actions.append(_award(_seat_fn(action.seat, bid), exprs.compile(action.points).fn))
    return condition, actions


def _restarts(clause: n.Repeat | None) -> bool:
    """Does a seat out of cards start the round again (`start the round again`), rather than
    get a new deal inside the bidding (`deal again`, the default)?"""
    actions = clause.actions if clause is not None else ()
    return any(isinstance(a, n.OutOfCards) and a.restart for a in actions)


def _award(seat_fn, points):
    def award(st):
        st.scores[seat_fn(st)] += points(st, None)
    return award


def _tricks_step(rules: Ruleset, sections: dict, clause, bid):
    deck = rules.deck
    preds = PredicateTables(deck)
    table = follow_table(sections["follow"], preds)         # (a first-trick case counts as not met)
    preds.follow_table = table
    winner = winner_rule(sections["trick winner"], preds)
    then = None if clause.then.name is not None and clause.then.name.text == "winner" else _seat_fn(
        clause.then, bid, deck)
    first = _seat_fn(clause.first, bid, deck)
    if leads.uses_rules(sections):          # lead rules and the like: a step of their own
        rules_ = leads.step_rules(sections, preds)
        if isinstance(clause, n.TricksAll):
            return trick_rules.RuledTricksAll(deck, first, table, winner, then, **rules_)
        return trick_rules.RuledTricks(deck, clause.count, first, table, winner, then, **rules_)
    clauses = sections["round"].clauses
    if isinstance(clause, n.TricksAll):
        return auctions.tricks_class(clauses, st_.TricksAll)(deck, first, table, winner, then)
    return auctions.tricks_class(clauses, st_.Tricks)(deck, clause.count, first, table, winner, then)


def _build_score(rules: Ruleset, score, exprs: ExprCompiler) -> None:
    if score is None:
        return
    cases, nodes = [], []
    for case in score.cases:
        condition = case.condition
        if isinstance(condition, n.Made):
            test, kind = (lambda st, seat: st.bids[seat] == st.tricks_won[seat]), "made"     # noqa: E731
        elif isinstance(condition, n.Missed):
            test, kind = (lambda st, seat: st.bids[seat] != st.tricks_won[seat]), "missed"   # noqa: E731
        elif isinstance(condition, n.CondExpr):
            test, kind = exprs.compile(condition.expr).fn, "test"
        else:
            test, kind = (lambda st, seat: True), "else"                                    # noqa: E731
        cases.append((test, exprs.compile(case.expr).fn))
        nodes.append((kind, condition.expr if kind == "test" else None, case.expr))

    def score_of(st, seat):
        for test, points in cases:
            if test(st, seat):
                return points(st, seat)
        return 0
    score_of.nodes = nodes          # what the generator writes out (compile/codegen_round.py)
    rules.score = score_of
