"""The syntax tree of a rule file: plain frozen record classes built by `parser.py`.

Pipeline place: text → **nodes** → checker → compiler. Every node ends with its `span`
(file, line, column) so that the checker can point at it. Each class's docstring shows the
rule-file text it stands for.
"""
from __future__ import annotations

from .._records import evolve, fields, frozen as node  # noqa: F401  (evolve, fields: for dsl/)


def walk(expr):
    """Every node of an expression, itself included (iteratively: no depth limit)."""
    stack = [expr]
    while stack:
        item = stack.pop()
        yield item
        for field in ("left", "right", "operand", "key", "condition", "then", "otherwise"):
            child = getattr(item, field, None)
            if child is not None and not isinstance(child, (str, int)):
                stack.append(child)
        stack.extend(getattr(item, "args", ()))


def shape(value):
    """A node (or tuple of nodes) without its spans: two rules as written compare equal."""
    if isinstance(value, (tuple, list)):
        return tuple(shape(item) for item in value)
    if isinstance(value, Name):
        return value.text
    if not hasattr(value, "__attrs_attrs__"):
        return value
    return (type(value).__name__,) + tuple(shape(getattr(value, a.name))
                                           for a in value.__attrs_attrs__ if a.name != "span")


@node
class Span:
    """Where a node stands in its file (1-based line and column)."""
    file: str
    line: int
    column: int
    end_line: int
    end_column: int


@node
class Name:
    """A word written in the rule file: `random`, `left`, `colour`, `bonus`."""
    text: str
    span: Span | None = None


# ---- header -----------------------------------------------------------------------------

@node
class Extend:
    """`extend "whist"`: start from another rule file (bundled name or relative path)."""
    target: str
    span: Span | None = None


@node
class GameTitle:
    """`game "Whist"`."""
    title: str
    span: Span | None = None


@node
class Players:
    """`players 2..6` or `players 2`."""
    low: int
    high: int
    span: Span | None = None


# ---- deck -------------------------------------------------------------------------------

@node
class Suits:
    """`suits black, blue` (no order) or `colours red < yellow < green` (ordered)."""
    names: tuple[Name, ...]
    ordered: bool
    span: Span | None = None


@node
class Ranks:
    """`ranks 1..12` or `numbers 0..7`."""
    low: int
    high: int
    span: Span | None = None


@node
class Special:
    """`card trump x6, always trump`: a card outside the suits, with copies."""
    name: Name
    copies: int
    always_trump: bool
    span: Span | None = None


@node
class Order:
    """`order number, then colour`: how two cards compare (earlier keys weigh more)."""
    keys: tuple[Name, ...]
    span: Span | None = None


@node
class Deck:
    """`deck { suits ...  ranks ...  card ...  order ... }`."""
    items: tuple
    span: Span | None = None


# ---- round structure --------------------------------------------------------------------

@node
class SeatRef:
    """A seat named in a rule: `dealer`, `winner`, `left of dealer`, `highest bidder`."""
    kind: str            # "named", "left_of" or "highest_bidder"
    name: Name | None
    span: Span | None = None


@node
class Dealer:
    """`dealer random, then next`."""
    first: Name
    then: Name | None
    span: Span | None = None


@node
class Deal:
    """`deal 11 each`, `deal [10, 9, 8] by round each`, or `deal round each` (`expr`: a count
    read from `players` and `round`; `counts` is then empty until `counts.specialise`)."""
    counts: tuple[int, ...]
    by_round: bool
    span: Span | None = None
    expr: object = None


@node
class PassItem:
    """One entry of a pass schedule: `2 right`, or `0`."""
    count: int
    direction: Name | None
    span: Span | None = None


@node
class Pass:
    """`pass 3 left` or `pass [0, 1 left, 2 right] by round`."""
    items: tuple[PassItem, ...]
    by_round: bool
    span: Span | None = None


@node
class InTurn:
    """Bid option `in turn from dealer`."""
    seat: SeatRef
    span: Span | None = None


@node
class Value:
    """Bid option `value number`: the bid is that attribute of the card."""
    attr: Name
    span: Span | None = None


@node
class Simultaneous:
    """Bid option `simultaneous`."""
    span: Span | None = None


@node
class NotAllowed:
    """Bid option `not allowed when last_bidder and sum(bid) = round_tricks`: a condition read
    for each bid the bidder could make, with `bid` being that bid; a bid for which it holds
    is not legal (unless it holds for every bid in the range)."""
    condition: object
    span: Span | None = None


@node
class BidNumber:
    """`bid 0..11, in turn from dealer`, or `bid 0..hand, ...` (`high` None, `upto` the word
    `hand`: the highest bid is the number of cards in the bidder's hand)."""
    low: int
    high: int | None
    options: tuple
    span: Span | None = None
    upto: Name | None = None
    named: tuple[Name, ...] = ()     # `bid 1..13 or nil`: bids by name, worth 0 in `bid`
    limit: object = None             # `bid 0..(round + 1)`: the highest bid, read for the bidder


@node
class BidCard:
    """`bid with a card, value number`: simultaneous, hidden, the card goes back to hand."""
    options: tuple
    span: Span | None = None


@node
class TrumpFromBid:
    """`trump colour of highest bid`."""
    attr: Name
    span: Span | None = None


@node
class TrumpTurned:
    """`trump suit of turned card`: after the deal the next undealt card is turned face up;
    its suit is trump this round."""
    attr: Name
    span: Span | None = None


@node
class TrumpLastDealt:
    """`trump suit of last card dealt`: the last card of the deal (the dealer's) is shown to
    every seat and its suit is trump this round; it stays in the dealer's hand."""
    attr: Name
    span: Span | None = None


@node
class TrumpFixed:
    """`trump hearts` or `trump none`."""
    suit: Name
    span: Span | None = None


@node
class Tricks:
    """`tricks 11, first led by dealer, then by winner, taken face up` (default: face down)."""
    count: int
    first: SeatRef
    then: SeatRef
    taken: Name | None = None
    span: Span | None = None


@node
class TricksAll:
    """`tricks all, first led by dealer, then by winner`: tricks until the hands are empty,
    so a round plays as many tricks as it deals cards to each seat. `word` is the word
    written after `tricks` (the checker wants `all`)."""
    word: Name
    first: SeatRef
    then: SeatRef
    taken: Name | None = None
    span: Span | None = None


@node
class Award:
    """`highest bidder scores 1`."""
    seat: SeatRef
    points: object
    span: Span | None = None


@node
class SetAside:
    """`set aside bid cards`: bid cards leave the hand until bidding is over."""
    span: Span | None = None


@node
class OutOfCards:
    """`when no cards are left, deal again` (`restart` False: a new deal, bidding starts over)
    or `when no cards are left, start the round again` (`restart` True: deal, pass, bid)."""
    restart: bool
    span: Span | None = None


@node
class Repeat:
    """`repeat bidding while sum(bid) = 7 { actions }`."""
    condition: object
    actions: tuple
    span: Span | None = None


@node
class Round:
    """`round { dealer ...  deal ...  pass ...  bid ...  trump ...  tricks ... }`."""
    clauses: tuple
    span: Span | None = None


# ---- card predicates --------------------------------------------------------------------

@node
class PTrump:
    """`trump`: the card is a trump."""
    span: Span | None = None


@node
class PAny:
    """`card`: any card."""
    span: Span | None = None


@node
class PSameAsLead:
    """`same suit as lead`, `card of lead suit`."""
    attr: Name
    span: Span | None = None


@node
class PFollowed:
    """`card that followed`: the card obeyed the follow rule of its trick."""
    span: Span | None = None


@node
class PNamed:
    """`red`, `trump` as a name: the card's suit or special name."""
    name: Name
    span: Span | None = None


@node
class PNot:
    """`not trump`."""
    operand: object
    span: Span | None = None


@node
class PAnd:
    """`trump and same suit as lead`."""
    left: object
    right: object
    span: Span | None = None


@node
class POr:
    """`same colour as lead or same number as lead`."""
    left: object
    right: object
    span: Span | None = None


# ---- follow and trick winner ------------------------------------------------------------

@node
class Otherwise:
    """`otherwise ->`: the case taken when no earlier case applies."""
    span: Span | None = None


@node
class Always:
    """`always ->`: the only case."""
    span: Span | None = None


@node
class LeadIs:
    """`lead is trump ->`."""
    pred: object
    span: Span | None = None


@node
class AnyPlayed:
    """`any trump played ->`."""
    pred: object
    span: Span | None = None


@node
class FollowAny:
    """`-> any`: every card in hand may be played."""
    span: Span | None = None


@node
class FollowIfAble:
    """`-> same suit as lead if able`, `..., else trump if able` (`fallbacks`: the next
    obligation when a seat cannot meet the one before), `..., but wizard may always be
    played` (`always`: cards allowed beside the obligation)."""
    pred: object
    span: Span | None = None
    always: object = None
    fallbacks: tuple = ()        # `..., else trump if able`: obligations tried in turn


@node
class FollowCase:
    """`lead is trump -> any`."""
    condition: object
    result: object
    span: Span | None = None


@node
class Follow:
    """`follow { cases }`, or `follow { lead suit from first P  cases }` (`lead_from`)."""
    cases: tuple[FollowCase, ...]
    span: Span | None = None
    lead_from: object = None


@node
class WinnerCase:
    """`any trump played -> last trump`."""
    condition: object
    pick: str            # highest, lowest, first, last
    pred: object
    span: Span | None = None


@node
class TrickWinner:
    """`trick winner { cases }`."""
    cases: tuple[WinnerCase, ...]
    span: Span | None = None


# ---- scoring, tables, end, winner, variants ---------------------------------------------

@node
class Made:
    """`made ->`: tricks taken equal the bid."""
    span: Span | None = None


@node
class Missed:
    """`missed ->`: tricks taken differ from the bid."""
    span: Span | None = None


@node
class CondExpr:
    """`tricks > bid ->`: a score case guarded by an expression."""
    expr: object
    span: Span | None = None


@node
class ScoreCase:
    """`made -> 10 + bonus[bid]`, or with counter changes `-> 10, add 1 to bags`."""
    condition: object
    expr: object
    span: Span | None = None
    changes: tuple = ()


@node
class Score:
    """`score { cases }`: points each seat adds after a round. `score per team { ... }` scores
    each team once; `score bags per team { ... }` names a further part, added to the rest."""
    cases: tuple[ScoreCase, ...]
    span: Span | None = None
    name: Name | None = None
    per: Name | None = None


# ---- teams and counters -----------------------------------------------------------------

@node
class Teams:
    """`teams opposite` (`seats` empty: each seat with the one across the table) or
    `teams 0+2, 1+3` (the seats of each team)."""
    kind: str            # "opposite" or "listed"
    seats: tuple[tuple[int, ...], ...]
    span: Span | None = None


@node
class Counter:
    """`counter bags per team`: a number kept from round to round, from 0, per seat or team."""
    name: Name
    per: Name
    span: Span | None = None


@node
class AddTo:
    """Score-case change `add team_tricks - team_bid to bags`."""
    expr: object
    counter: Name
    span: Span | None = None


@node
class SetTo:
    """Score-case change `set bags to bags % 10`."""
    counter: Name
    expr: object
    span: Span | None = None


@node
class TableEntry:
    """`6..11: 50` (`low`..`high`), `0: 10` (low = high) or `else: 0` (both None)."""
    low: int | None
    high: int | None
    value: object
    span: Span | None = None


@node
class Table:
    """`table bonus { 0: 10, 6..11: 50, else: 0 }`."""
    name: Name
    entries: tuple[TableEntry, ...]
    span: Span | None = None


@node
class EndWhen:
    """`end when max(score) >= 100`, checked after every round."""
    condition: object
    span: Span | None = None


@node
class EndAfterRounds:
    """`end after 7 rounds`, or `end after 60 / players rounds` (`expr`: read from `players`;
    `rounds` is then 0 until `counts.specialise`)."""
    rounds: int
    span: Span | None = None
    expr: object = None


@node
class TieKey:
    """`highest score`: one key of the winner rule."""
    pick: str
    expr: object
    span: Span | None = None


@node
class Winner:
    """`winner highest score, then highest ...`: seats equal on every key share the win."""
    keys: tuple[TieKey, ...]
    span: Span | None = None


@node
class OutOfTurn:
    """`bids out of turn stand` / `plays out of turn stand`: a seat may make that kind of
    move before its turn; it stands and the others go on in the proper order."""
    kind: Name
    span: Span | None = None


@node
class Revokes:
    """`revokes stand until challenged`: a seat may play any card of its hand, even one that
    does not follow; nothing is said until another seat challenges it."""
    span: Span | None = None


@node
class Settle:
    """`challenger scores as made` (`points` None) or `accused scores -10`: one role's points."""
    role: Name
    points: object | None
    span: Span | None = None


@node
class ChallengeCase:
    """`right -> challenger scores as made, accused scores -10, others score as made`."""
    outcome: Name
    settles: tuple[Settle, ...]
    span: Span | None = None


@node
class ChallengeRule:
    """`challenge ends the round { right -> ...  wrong -> ... }`: the move `challenge P`."""
    cases: tuple[ChallengeCase, ...]
    span: Span | None = None


@node
class PlayerErrors:
    """`player errors { ... }`: table play, where seats may act out of turn and revoke."""
    items: tuple
    span: Span | None = None


@node
class ChangeTable:
    """`change table bonus { 5: 20, else: 0 }`: these keys of a table get new values."""
    name: Name
    entries: tuple[TableEntry, ...]
    span: Span | None = None


@node
class AddCase:
    """`add lead is trump -> any` in `change follow { ... }`: a case before the last one."""
    case: object
    span: Span | None = None


@node
class RemoveCase:
    """`remove any trump played` in `change trick winner { ... }`: the case with this condition goes."""
    condition: object
    span: Span | None = None


@node
class ChangeCases:
    """`change follow { add ...  remove ... }` (`section` "follow" or "trick winner")."""
    section: str
    changes: tuple
    span: Span | None = None


@node
class Variant:
    """`variant short "Short game" required when players = 2 { items }`."""
    name: Name
    title: str | None
    required: object
    items: tuple
    span: Span | None = None


@node
class RuleFile:
    """A whole rule file: its items in order."""
    items: tuple
    span: Span | None = None


# ---- expressions ------------------------------------------------------------------------

@node
class Int:
    """`42`."""
    value: int
    span: Span | None = None


@node
class Ref:
    """`score`, `bid`, `round`: a name read from the game."""
    name: str
    span: Span | None = None


@node
class Call:
    """`max(score)`, `abs(tricks - bid)`."""
    func: str
    args: tuple
    span: Span | None = None


@node
class Index:
    """`bonus[bid]`: a table lookup."""
    table: str
    key: object
    span: Span | None = None


@node
class BinOp:
    """`a + b`, `a - b`, `a * b`, `a / b` (whole-number division), `a % b`."""
    op: str
    left: object
    right: object
    span: Span | None = None


@node
class Compare:
    """`a >= b` (`=`, `!=`, `<`, `<=`, `>`, `>=`)."""
    op: str
    left: object
    right: object
    span: Span | None = None


@node
class BoolOp:
    """`a and b`, `a or b`."""
    op: str
    left: object
    right: object
    span: Span | None = None


@node
class Not:
    """`not a`."""
    operand: object
    span: Span | None = None


@node
class Neg:
    """`-a`."""
    operand: object
    span: Span | None = None


@node
class If:
    """`if a then b else c`."""
    condition: object
    then: object
    otherwise: object
    span: Span | None = None


# ---- grid games: own decks, board, set-up, round clauses, final score -------------------

@node
class CardHead:
    """`flower 4` or `frost X` (no number: counts as 0 where numbers are added or compared)."""
    name: Name
    number: int | None
    span: Span | None = None


@node
class CardScores:
    """`scores count(adjacent8, opponent)`: the card's points, about this card."""
    expr: object
    span: Span | None = None


@node
class CardSlides:
    """`is placed by sliding into a row or column`: placed by pushing a line, not on a space."""
    lines: str           # "row or column", "row" or "column"
    span: Span | None = None


@node
class RemoveRevealed:
    """Effect `remove both revealed cards`: every card revealed this round leaves the game."""
    span: Span | None = None


@node
class MoveCard:
    """Effect `move one own other card`: the placing player moves one such card on the board."""
    words: tuple[Name, ...]
    span: Span | None = None


@node
class CardEffect:
    """`when placed, move one own other card` or `when revealed, remove both revealed cards`."""
    event: Name
    effect: object
    span: Span | None = None


@node
class CardDef:
    """`flower 3, flower 4  scores ...`: one or more cards sharing their rules."""
    heads: tuple[CardHead, ...]
    clauses: tuple
    span: Span | None = None


@node
class PlayerDecks:
    """`player decks black, white { cards }`: each player owns a deck of these cards in a colour."""
    colours: tuple[Name, ...]
    cards: tuple[CardDef, ...]
    span: Span | None = None


@node
class BoardOption:
    """`floating` (kind "word") or `place adjacent8` (kind "place")."""
    kind: str
    word: Name
    span: Span | None = None


@node
class Board:
    """`board 4x4, floating, place adjacent8`: a grid display of cards."""
    rows: int
    cols: int
    options: tuple[BoardOption, ...]
    span: Span | None = None


@node
class Shuffle:
    """`shuffle each deck`: each player shuffles their own deck."""
    span: Span | None = None


@node
class Draw:
    """`draw 3 each` or `draw 5 each, keep 3, return the rest to the bottom`."""
    count: int
    keep: int | None
    rest_to: Name | None
    span: Span | None = None


@node
class Tiebreaker:
    """`tiebreaker to a random player`: who holds the tie-breaker token at the start."""
    who: Name
    span: Span | None = None


@node
class Setup:
    """`setup { shuffle ...  draw ...  tiebreaker ... }`: done once, before the first round."""
    clauses: tuple
    span: Span | None = None


@node
class Choose:
    """`choose a card, simultaneous`: every player picks a card from hand, face down."""
    span: Span | None = None


@node
class Reveal:
    """`reveal`: the chosen cards are turned over; `when revealed` effects happen."""
    span: Span | None = None


@node
class PlaceRevealed:
    """`place revealed cards, highest number first, ties to tiebreaker holder, who passes it`."""
    pick: str
    attr: Name
    ties_to_holder: bool
    passes: bool
    span: Span | None = None


@node
class FinalScore:
    """`score at end -> sum(display, own, points)`: added to each score once, when the game ends."""
    expr: object
    span: Span | None = None


@node
class InRegion:
    """`in corner`, `on edge`, `in centre`: where this card lies on the board."""
    word: Name
    span: Span | None = None


# ---- card identity, lead rules, what may always be played ---------------------------------

@node
class ColourGroup:
    """`colour red: diamonds, hearts`: these suits have that colour."""
    name: Name
    suits: tuple[Name, ...]
    span: Span | None = None


@node
class TopCard:
    """One entry of `top trumps`: `11 of trump suit` (kind "suit"), `11 of trump colour`
    (kind "colour": that rank of the other suits of the trump's colour) or a named card
    (kind "card", `clubs 11` or `joker`)."""
    kind: str
    rank: int | None
    card: Name | None
    span: Span | None = None


@node
class TopTrumps:
    """`top trumps 11 of trump suit, 11 of trump colour`: when a suit is trump, these cards
    are its highest trumps, highest first, and belong to the trump suit."""
    cards: tuple[TopCard, ...]
    span: Span | None = None


@node
class PCard:
    """`spades 12` or `joker`... as a predicate: the card is that card (`joker` is `PNamed`)."""
    card: Name
    span: Span | None = None


@node
class PCompare:
    """`rank = 11`, `number >= 10`: the card's rank compared with a number (cards without
    a rank never match)."""
    attr: Name
    op: str
    value: int
    span: Span | None = None


@node
class CardLit:
    """`spades 12` in an expression about one card (`count(taken, spades 12)`)."""
    suit: str
    rank: int
    span: Span | None = None


@node
class FirstTrick:
    """`first trick ->` in a `lead` section: the round's first trick."""
    span: Span | None = None


@node
class NonePlayed:
    """`no hearts played ->` in a `lead` section: no such card was played this round."""
    pred: object
    span: Span | None = None


@node
class LeadCase:
    """`no hearts played -> not hearts if able`."""
    condition: object
    result: object
    span: Span | None = None


@node
class Lead:
    """`lead { cases }`: what the leader of a trick may lead. The cases are tried in order;
    `any P played` and `no P played` look at the cards played to earlier tricks this round."""
    cases: tuple[LeadCase, ...]
    span: Span | None = None


@node
class LeadFrom:
    """`lead suit from first not jester` (first line of `follow`): the first card of a trick
    that satisfies the predicate is its lead; until one is played the trick has no lead."""
    pred: object
    span: Span | None = None
