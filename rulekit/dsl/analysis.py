"""Static analysis beyond name and type checks: rules that can never work as written.

Pipeline place: nodes → merge → checker (**analysis**) → compiler. `run` is called by the
checker after its own checks, with the checker itself, so it can `report` in the same way;
`variant_changes_nothing` is called by the loader for each variant, which only it can see.
Each analysis looks for one way a rule file can load and still fail in play: a round that
waits for a card nobody can give, a trick-winner case that finds no card, a variant that is
the base game, an end that can never come.
"""
from __future__ import annotations

from math import lcm

from . import nodes as n

#: Rounds of `[...] by round` schedules compared at most (their cycle repeats after that).
MAX_SCHEDULE = 10_000
#: Leads × trump suits tabulated at most for the trick-winner rule (larger decks get the
#: simpler syntactic checks, so that loading stays quick).
MAX_TABLE_CASES = 200_000


def run(checker) -> None:
    """Every analysis in turn; each reports through `checker.report`."""
    follow_never_reads_followed(checker)
    tricks_need_a_trick(checker)
    tricks_need_cards(checker)
    bids_fit_the_hand(checker)
    checker.cached(end_can_come, *(checker.s.get(k) for k in ("end", "players", "player decks", "board")),
                   *(v for k, v in checker.s.items() if "score" in k), *_clauses(checker, n.Repeat))
    passes_fit_each_round(checker)
    card_bids_need_cards(checker)
    s = checker.s
    # what winner_cases reads: the deck, the follow and winner rules, the trump clauses (not
    # the deal or the player count, which differ per count in games that read `players`)
    trumps = _clauses(checker, (n.TrumpFromBid, n.TrumpTurned, n.TrumpFixed))
    checker.cached(winner_cases, s.get("deck"), s.get("follow"), s.get("trick winner"),
                   s.get("player decks"), *trumps)


def follow_never_reads_followed(checker) -> None:
    """`card that followed` is defined by the follow rule, so the follow rule cannot use it."""
    follow = checker.s.get("follow")
    for case in follow.cases if follow else ():
        result = case.result
        for pred in _preds(getattr(result, "pred", None)):
            if isinstance(pred, n.PFollowed):
                checker.report(pred, "the follow rule cannot use `that followed`: it defines it",
                               "say what may be played, like `same suit as lead if able`")


def _preds(pred):
    stack = [pred] if pred is not None else []
    while stack:
        node = stack.pop()
        yield node
        for field in ("left", "right", "operand"):
            child = getattr(node, field, None)
            if child is not None:
                stack.append(child)


# ---- rounds that wait for a move nobody can make ---------------------------------------------

def _clauses(checker, kind) -> list:
    rnd = checker.s.get("round")
    return [c for c in getattr(rnd, "clauses", ()) if isinstance(c, kind)]


def tricks_need_a_trick(checker) -> None:
    """`tricks 0` would ask for a card and never end the round: the last trick never comes."""
    for clause in _clauses(checker, n.Tricks):
        if clause.count < 1:
            checker.report(clause, "`tricks 0` plays no trick, so the round can never end",
                           "play at least 1 trick, or leave the `tricks` clause out")


def tricks_need_cards(checker) -> None:
    """Tricks need cards in hand: a round that deals none waits for a lead nobody can make."""
    if _clauses(checker, n.Deal):
        return
    for clause in _clauses(checker, n.Tricks):
        checker.report(clause, "tricks are played, but no cards are dealt, so nobody can lead",
                       "add `deal N each` to the round")


def bids_fit_the_hand(checker) -> None:
    """A number bid counts cards or tricks of a hand: a range beyond the largest hand offers
    bids nobody can make (and a move for each of them)."""
    from .checker import MAX_CARDS

    counts = _deals(checker)
    for clause in _clauses(checker, n.BidNumber):
        if clause.upto is not None or clause.high is None or clause.low > clause.high:
            continue
        most = max(counts) if counts else None
        if most is not None and clause.high > most:
            checker.report(clause, f"a bid can be {clause.high}, but no hand holds more than {most} "
                                   f"card{'s' if most != 1 else ''}",
                           f"bid at most {most} (`bid {clause.low}..{max(clause.low, most)}`), "
                           "or up to the cards in hand: `bid 0..hand`")
        elif most is None and clause.high - clause.low >= MAX_CARDS:
            checker.report(clause, f"`bid {clause.low}..{clause.high}` offers "
                                   f"{clause.high - clause.low + 1} bids; at most {MAX_CARDS} are supported",
                           "bid a smaller range")


# ---- ends that never come -------------------------------------------------------------------

class _Probe:
    """A stand-in state with only what never changes in a game (the player count), the round,
    and the scores when no rule ever changes them; reading anything else raises."""
    __slots__ = ("n", "round", "scores")


def end_can_come(checker) -> None:
    """`end when C` must be able to hold: refused when C can be decided from the rules alone
    and holds in no round up to the engine's cap (it reads only the round, the player count
    or scores no rule changes), or when it waits for a display fuller than the decks or the
    board can make it."""
    end = checker.s.get("end")
    if not isinstance(end, n.EndWhen):
        return
    most = _display_most(checker)
    if most is not None and _never(end.condition, most):
        checker.report(end, f"this end can never come: the display can never hold that many cards, "
                            f"only {most[0]} ({most[1]})",
                       "end when the display is full, like `end when count(display) = "
                       f"{most[0]}`, or make the board or the decks fit (as written, play would "
                       "only stop when the hands run out)")
        return
    count = _never_in_any_round(checker, end)
    if count is not None:
        from ..compile.game import MAX_ROUNDS
        checker.report(end, f"the game never ends: this condition depends only on the round, the "
                            f"player count and scores no rule changes, and with {count} players it "
                            f"holds in no round up to the engine's cap of {MAX_ROUNDS} rounds",
                       "end on something the game changes, like `end when max(score) >= 100`, "
                       "or `end after N rounds`")


def _never_in_any_round(checker, end) -> int | None:
    """A player count for which the condition, read from `_Probe` alone, holds in no round."""
    from ..compile.cardsets_expr import SetExprCompiler
    from ..compile.exprs import BASE_NAMES
    from ..compile.game import MAX_ROUNDS

    failed = []
    compiler = SetExprCompiler(dict(BASE_NAMES), {}, lambda *a, **k: failed.append(a), checker.card_words)
    try:
        fn = compiler.compile(end.condition, "bool", per_seat_ok=False).fn
    except Exception:   # noqa: BLE001 - what the checker reported itself
        return None
    if failed:
        return None
    low, high = checker.players_range
    fixed_scores = _scores_never_change(checker)
    for count in range(max(low, 1), min(high, 16) + 1):
        probe = _Probe()
        probe.n = count
        if fixed_scores:
            probe.scores = [0] * count
        try:
            if not any(_holds(fn, probe, rnd) for rnd in range(1, MAX_ROUNDS + 1)):
                return count
        except Exception:   # noqa: BLE001 - it reads more than the probe knows: not decidable
            return None
    return None


def _holds(fn, probe, rnd: int) -> bool:
    probe.round = rnd
    return bool(fn(probe, None))


def _scores_never_change(checker) -> bool:
    """No rule can change a score: the one `score` section gives 0 in every case, and no other
    section (named or team scores, awards, a final score) can add points."""
    score = checker.s.get("score")
    others = [k for k in checker.s if "score" in k and k != "score"]
    if score is None or others or _clauses(checker, n.Repeat):
        return False
    return all(isinstance(case.expr, n.Int) and case.expr.value == 0 for case in score.cases)


def _display_most(checker):
    """The most cards a grid game's display can hold, and why: (count, reason), or None."""
    decks = checker.s.get("player decks")
    if decks is None:
        return None
    cards = sum(len(card.heads) for card in decks.cards) * max(1, len(decks.colours))
    board = checker.s.get("board")
    cells = board.rows * board.cols if board is not None else None
    if cells is not None and cells < cards:
        return cells, f"the board has {board.rows}×{board.cols} cells"
    return cards, f"the decks hold {cards} cards"


def _never(expr, most) -> bool:
    """Does `expr` never hold while the display holds 0..most cards (and whatever else)?"""
    if isinstance(expr, n.BoolOp):
        left, right = _never(expr.left, most), _never(expr.right, most)
        return (left or right) if expr.op == "and" else (left and right)
    if isinstance(expr, n.Compare):
        sides = (expr.left, expr.right)
        for this, other, flip in ((sides[0], sides[1], False), (sides[1], sides[0], True)):
            if _is_display_count(this) and isinstance(other, n.Int):
                op = _FLIPPED.get(expr.op, expr.op) if flip else expr.op
                return not any(_COMPARE[op](value, other.value) for value in range(most[0] + 1))
    return False


def _is_display_count(expr) -> bool:
    return isinstance(expr, n.Call) and expr.func == "count" and len(expr.args) == 1 and \
        isinstance(expr.args[0], n.Ref) and expr.args[0].name == "display"


_COMPARE = {"=": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
_FLIPPED = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}


def _deals(checker):
    deal = next(iter(_clauses(checker, n.Deal)), None)
    return deal.counts if deal is not None and deal.counts else None


def _rounds(*lengths: int) -> int:
    """Rounds after which schedules of these lengths all start over (bounded)."""
    return min(lcm(*[max(1, x) for x in lengths]), MAX_SCHEDULE)


def passes_fit_each_round(checker) -> None:
    """A round's pass cannot ask for more cards than that round deals (the checker compares
    with the largest deal only)."""
    counts = _deals(checker)
    for clause in _clauses(checker, n.Pass) if counts else ():
        items = clause.items
        for rnd in range(_rounds(len(items), len(counts))):
            item, dealt = items[rnd % len(items)], counts[rnd % len(counts)]
            if dealt < item.count <= max(counts):
                checker.report(item, f"round {rnd + 1} deals {dealt} card{'s' if dealt != 1 else ''} "
                                     f"each, but this passes {item.count}",
                               "make each round's pass at most that round's deal")
                break


def card_bids_need_cards(checker) -> None:
    """Bidding with a card needs a card in every hand: a round that deals none waits forever."""
    counts = _deals(checker)
    bids = _clauses(checker, n.BidCard)
    if not bids or not counts or 0 not in counts:
        return
    rnd = counts.index(0) + 1
    checker.report(bids[0], f"bids are made with a card, but round {rnd} deals no cards",
                   "deal at least 1 card in every round")


# ---- trick winners ----------------------------------------------------------------------------

def winner_cases(checker) -> None:
    """Every trick-winner case must find a card in each trick it applies to (see
    `cases_find_a_card`). Two cards equal under the order are no problem: the one played
    first counts as higher (and as lower), as the reference says and the engine does."""
    rule = checker.s.get("trick winner")
    deck = _deck_model(checker) if rule is not None else None
    tables = None
    if deck is not None and (len(deck.suit_names) + 1) * (deck.size + 1) <= MAX_TABLE_CASES:
        try:
            tables = _winner_tables(checker, rule, deck)
        except (KeyError, ValueError, IndexError, AttributeError, TypeError):
            tables = None       # names the checker has already reported
    if rule is not None:
        cases_find_a_card(checker, rule, deck, tables)


def cases_find_a_card(checker, rule, deck, tables) -> None:
    """A case that applies to a trick must find a card of its pick there. With the deck's
    tables this is decided per trump and lead, so the cases before it count: after
    `lead is red -> ...`, `otherwise -> highest blue` is fine in a deck of red and blue.
    Without them (a deck too large to tabulate), the pick must admit the lead, or the case
    be guarded by its own predicate."""
    if tables is None:
        flagged = [i for i, case in enumerate(rule.cases) if not _admits_lead_syntactically(case)]
    else:
        trumps, leads = _trumps(checker, deck), _possible_leads(checker, deck)
        if leads is not None and not any(leads):
            leads = None        # a lead rule no card meets: reported by the checker itself
        flagged = sorted(_cases_finding_no_card(deck, tables, trumps, leads))
    for index in flagged:
        checker.report(rule.cases[index], "this case can find no card to win the trick",
                       "pick among cards the lead always belongs to (`card of lead suit`, "
                       "`card that followed`), or guard it with `any ... played`")


def _admits_lead_syntactically(case) -> bool:
    from .checker import _admits_lead

    guarded = isinstance(case.condition, (n.AnyPlayed, n.LeadIs)) and \
        n.shape(case.condition.pred) == n.shape(case.pred)
    return guarded or _admits_lead(case.pred)


def _cases_finding_no_card(deck, tables, trumps: list[int], leads) -> set[int]:
    """The cases for which some trick reaches them, meets their condition, and holds no card
    their pick admits. The lead is in every trick; `any P played` needs a P card in it.

    Per trump and lead the cases are walked once, in order, keeping the cards a trick that
    gets this far may hold: an earlier case whose condition holds passes a trick on only
    when none of the cards it picks among was played (so a file with many cases costs its
    number of cases, not its square)."""
    flagged: set[int] = set()
    for trump in trumps:
        for lead in range(deck.size):
            if leads is not None and not leads[trump + 1] >> lead & 1:
                continue
            allowed = -1
            for index, (kind, table, pick) in enumerate(tables):
                picked = pick[trump + 1][lead + 1]
                condition = table[trump + 1][lead + 1] if table is not None else None
                applies = kind is not n.LeadIs or condition >> lead & 1
                if index not in flagged and applies and not picked >> lead & 1 and \
                        not (kind is n.AnyPlayed and not condition & allowed & ~picked):
                    flagged.add(index)
                if not applies:
                    continue
                if kind is n.AnyPlayed:
                    picked &= condition
                if picked >> lead & 1:
                    break               # every trick with this lead is decided here
                allowed &= ~picked
    return flagged


def _deck_model(checker):
    """The compiled deck of a trick game, or None when there is none to analyse."""
    from ..compile.deck import build_deck
    from .checker import MAX_CARDS

    deck = checker.s.get("deck")
    if deck is None or "player decks" in checker.s or not 0 < getattr(checker, "deck_size", 0) <= MAX_CARDS:
        return None
    try:
        return build_deck(deck)
    except (KeyError, ValueError, IndexError, AttributeError, TypeError):
        return None


def _winner_tables(checker, rule, deck):
    """Per case: (condition kind, condition table or None, pick table)."""
    from ..compile.tricks import PredicateTables, follow_table

    preds = PredicateTables(deck)
    if checker.s.get("follow") is not None:
        preds.follow_table = follow_table(checker.s["follow"], preds)
    out = []
    for case in rule.cases:
        cond = case.condition
        table = preds.table(cond.pred) if isinstance(cond, (n.AnyPlayed, n.LeadIs)) else None
        out.append((type(cond), table, preds.table(case.pred)))
    return out


def _trumps(checker, deck) -> list[int]:
    """Trump suits a round can have (-1: no trump)."""
    for clause in _clauses(checker, (n.TrumpFromBid, n.TrumpTurned, n.TrumpFixed)):
        if isinstance(clause, n.TrumpTurned):      # a special card turned gives no trump
            return [-1] + list(range(deck.regular_suits))
        if isinstance(clause, n.TrumpFromBid):
            return [-1] + list(range(len(deck.suit_names)))
        if clause.suit.text in deck.suit_names:
            return [deck.suit_names.index(clause.suit.text)]
    return [-1]


def _possible_leads(checker, deck):
    """Per trump (index trump + 1), the cards that can be a trick's lead: all, unless
    `lead suit from first P` leaves some cards out."""
    follow = checker.s.get("follow")
    if follow is None or follow.lead_from is None:
        return None
    from ..compile.tricks import PredicateTables

    try:
        return [row[0] for row in PredicateTables(deck).table(follow.lead_from.pred)]
    except (KeyError, ValueError, IndexError, AttributeError, TypeError):
        return None             # names the checker has already reported


# ---- variants -------------------------------------------------------------------------------

def variant_changes_nothing(name: str, variant, base: dict, merged: dict, report,
                            memo: dict | None = None) -> None:
    """A variant whose sections, once merged, are the base game's (spans aside) changes nothing.
    `memo` keeps the shapes of sections across variants, so the base is shaped once."""
    from .merge import section_key

    if any(section_key(item) not in merged for item in variant.items):
        return          # the merge has already reported what it could not apply
    memo = {} if memo is None else memo
    if variant.items and any(merged.get(k) is not base.get(k) and
                             _shape(merged.get(k), memo) != _shape(base.get(k), memo)
                             for k in {*base, *merged}):
        return
    report(variant, f"variant `{name}` changes nothing: its rules are the base game's",
           "change a rule inside it, or remove it")


def _shape(node, memo: dict):
    hit = memo.get(id(node))
    if hit is None or hit[0] is not node:
        hit = memo[id(node)] = (node, n.shape(node))
    return hit[1]
