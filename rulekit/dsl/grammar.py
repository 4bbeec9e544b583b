"""The Lark side of the parser: the grammar's LALR parser and its tree → `nodes`.

Pipeline place: **text → nodes** (behind `parser.py`, which bounds the text and keeps the
parses of rule texts seen before, so a load of a known file imports none of this, nor Lark).
Lark's exceptions stop here: a syntax error becomes a diagnostic that says what was expected
in the rule language's own words.
"""
from __future__ import annotations

import difflib
import hashlib
import sys
from functools import lru_cache
from pathlib import Path

import lark
from lark import Transformer, v_args

from ..cache_dir import cache_dir, private_file
from ..errors import Diagnostic, RuleError
from . import nodes as n
from .lexing import LazyContextualLexer
from .parse_auction import AuctionParts
from .parser import MAX_DEPTH, MAX_INT, Parsed, diagnostic_at, source_line, source_lines

#: How terminals read in messages.
_WORDS = {
    "NAME": "a name", "INT": "a number", "STRING": 'a "quoted title"', "COPIES": "copies like x6",
    "$END": "the end of the file", "SUITS_WORD": "`suits`", "RANKS_WORD": "`ranks`",
}


#: How the grammar is built (also part of the key of its cached tables).
_OPTIONS = {"parser": "lalr", "lexer": "contextual", "propagate_positions": True, "maybe_placeholders": True}


@lru_cache(maxsize=1)
def grammar_parser() -> lark.Lark:
    """The parser, built once per process. Lark keeps its LALR tables in a file keyed by the
    grammar's hash, so a new process loads them instead of building them (~100 ms); the file
    lives in this user's private cache folder (`cache_dir.py`), because Lark reads it back
    with pickle. The lexer is Lark's contextual one, started lazily (`lexing.py`)."""
    text = (Path(__file__).parent / "grammar.lark").read_text(encoding="utf-8")
    return lark.Lark(text, cache=_tables_file(text) or False,
                     _plugins={"ContextualLexer": LazyContextualLexer}, **_OPTIONS)


def _tables_file(grammar: str) -> str | None:
    folder = cache_dir()
    if folder is None:
        return None
    key = hashlib.sha256(repr((grammar, sorted(_OPTIONS.items()), lark.__version__,
                               sys.version_info[:2])).encode()).hexdigest()[:40]
    path = private_file(folder, f"grammar-{key}.lark-tables")
    return None if path is None else str(path)


def parse_tree(text: str, file: str) -> Parsed:
    """Parse rule text that is within the bounds, recovering from syntax errors (see
    `recover`)."""
    try:
        tree, errors, reliable = grammar_parser().parse(text), [], True
    except lark.exceptions.UnexpectedInput:
        from . import recover      # only a text with syntax errors needs the recovery
        found = recover.parse_all(grammar_parser(), text, lambda e: _syntax_diagnostic(e, text, file),
                                  lambda brace, keyword, before: _unclosed(brace, keyword, before, text, file))
        tree, errors, reliable = found.tree, found.errors, found.names_reliable
    if tree is None:
        return Parsed(None, errors, False)
    _check_depth(tree, text, file)
    builder = _ToNodes(text, file)
    try:
        rules = builder.transform(tree)
    except lark.exceptions.VisitError as error:
        if isinstance(error.orig_exc, RuleError):
            raise error.orig_exc from None
        raise
    return Parsed(rules, errors + builder.errors, reliable)


def _unclosed(brace, keyword: str, before, text: str, file: str) -> Diagnostic:
    where = f"before line {before.line}" if before is not None else "at its end"
    return diagnostic_at(text, file, brace.line, brace.column, f"this `{{` of `{keyword}` is never closed",
                         f"close the `{keyword}` block with `}}` {where}")


def _check_depth(tree, text: str, file: str) -> None:
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            meta = node.meta
            raise RuleError([diagnostic_at(text, file, getattr(meta, "line", 1), getattr(meta, "column", 1),
                                           "this expression is nested too deeply",
                                           "split it with a table or simpler terms")])
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, lark.Tree))


def _describe(terminal: str) -> str:
    if terminal in _WORDS:
        return _WORDS[terminal]
    try:
        pattern = grammar_parser().get_terminal(terminal).pattern
    except KeyError:
        return terminal.lower()
    return f"`{pattern.value}`" if pattern.type == "str" else terminal.lower()


def _syntax_diagnostic(error, text: str, file: str) -> Diagnostic:
    line, column = max(getattr(error, "line", 1), 1), max(getattr(error, "column", 1), 1)
    if isinstance(error, lark.exceptions.UnexpectedCharacters):
        char = text[error.pos_in_stream] if error.pos_in_stream < len(text) else "?"
        return diagnostic_at(text, file, line, column, f"unexpected character {char!r}",
                             "names use letters, digits and _; titles go in double quotes; comments start with #")
    expected = sorted({_describe(t) for t in getattr(error, "expected", ()) or ()},
                      key=lambda word: (word != "`}`", word))
    token = getattr(error, "token", None)
    if isinstance(error, lark.exceptions.UnexpectedEOF) or (token is not None and token.type == "$END"):
        lines = source_lines(text)
        line, column = len(lines), len(lines[-1]) + 1
        found = "end of file"
    else:
        shown = str(token)
        found = f"`{shown[:30]}{'...' if len(shown) > 30 else ''}`"
    first = (source_line(text, line) or "")[:column - 1].strip() == ""
    meant = _did_you_mean(token, getattr(error, "expected", ()))
    hint = meant or _hint(found, expected, first)
    message = f"unexpected {found}"
    if expected and not meant:          # with a close keyword, the list would only bury it
        message += "; expected " + (", ".join(expected[:8]) + (" or more" if len(expected) > 8 else ""))
    return diagnostic_at(text, file, line, column, message, hint)


def _did_you_mean(token, expected) -> str | None:
    """"did you mean `follow`?" for a word close to a keyword the parser expected there."""
    if token is None or token.type == "$END" or not str(token).isidentifier():
        return None
    words = []
    for terminal in expected or ():
        try:
            pattern = grammar_parser().get_terminal(terminal).pattern
        except KeyError:
            continue
        if pattern.type == "str" and pattern.value.isidentifier():
            words.append(pattern.value)
    close = difflib.get_close_matches(str(token), sorted(words), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None


def _hint(found: str, expected: list[str], first_on_line: bool = True) -> str | None:
    if "`}`" in expected and found == "end of file":
        return "a `{` block is not closed: add the missing `}`"
    if "`,`" in expected and not first_on_line:
        return "separate the items of a list with `,`"
    if "`}`" in expected and first_on_line:
        return "if the block above is complete, close it with `}`"
    if found == "`}`":
        return "this block ends too early, or the line before it is incomplete"
    if "`->`" in expected:
        return "each case reads `condition -> result`"
    if "`..`" in expected:
        return "a range reads `low..high`, like `2..6`"
    return None


def _int(token, text, file) -> int:
    digits = str(token).lstrip("0") or "0"
    value = int(digits) if len(digits) <= len(str(MAX_INT)) else MAX_INT + 1
    if value > MAX_INT:
        raise RuleError([diagnostic_at(text, file, token.line, token.column,
                                       f"the number {str(token)[:20]}{'...' if len(token) > 20 else ''} is too large",
                                       f"numbers in rule files go up to {MAX_INT}",
                                       token.column + min(len(token), 40))])
    return value


def _copies_digits(token):
    """The digits of a `x6` token, as a token of their own (for its position in messages)."""
    digits = lark.Token.new_borrow_pos("INT", str(token)[1:], token)
    digits.column += 1
    return digits


@v_args(meta=True)
class _ToNodes(AuctionParts, Transformer):
    """Builds `nodes` from Lark's tree; one method per grammar alternative."""

    def __init__(self, text: str, file: str):
        super().__init__()
        self.text, self.file = text, file
        self.errors: list[Diagnostic] = []      # numbers too large: reported, then clamped

    # -- helpers
    def _span(self, meta) -> n.Span | None:
        if getattr(meta, "empty", True):
            return None
        return n.Span(self.file, meta.line, meta.column, meta.end_line, meta.end_column)

    def _name(self, token) -> n.Name | None:
        if token is None:
            return None
        return n.Name(str(token), n.Span(self.file, token.line, token.column, token.end_line, token.end_column))

    def _i(self, token):
        return None if token is None else self._checked_int(token)

    def _checked_int(self, token) -> int:
        try:
            return _int(token, self.text, self.file)
        except RuleError as error:
            self.errors.extend(error.diagnostics)
            return MAX_INT

    def __default_token__(self, token):
        return token

    # -- header
    def start(self, meta, items):
        return n.RuleFile(tuple(items), self._span(meta))

    def extend(self, meta, c):
        return n.Extend(c[0][1:-1], self._span(meta))

    def game(self, meta, c):
        return n.GameTitle(c[0][1:-1], self._span(meta))

    def players(self, meta, c):
        low = self._i(c[0])
        return n.Players(low, self._i(c[1]) if c[1] is not None else low, self._span(meta))

    # -- deck
    def deck(self, meta, c):
        return n.Deck(tuple(c), self._span(meta))

    def suits_plain(self, meta, c):
        return n.Suits(tuple(self._name(t) for t in c[1:]), False, self._span(meta))

    def suits_ordered(self, meta, c):
        return n.Suits(tuple(self._name(t) for t in c[1:]), True, self._span(meta))

    def ranks(self, meta, c):
        return n.Ranks(self._i(c[1]), self._i(c[2]), self._span(meta))

    def special(self, meta, c):
        copies = 1 if c[1] is None else self._checked_int(_copies_digits(c[1]))
        return n.Special(self._name(c[0]), copies, "always_trump" in c[2:], self._span(meta))

    def opt_always_trump(self, meta, c):
        return "always_trump"

    def order(self, meta, c):
        return n.Order(tuple(self._name(t) for t in c), self._span(meta))

    # -- round
    def round(self, meta, c):
        return n.Round(tuple(c), self._span(meta))

    def dealer(self, meta, c):
        return n.Dealer(self._name(c[0]), self._name(c[1]), self._span(meta))

    def deal(self, meta, c):
        counts, by_round = c[0]
        if isinstance(counts, tuple):
            return n.Deal(counts, by_round, self._span(meta))
        return n.Deal((), False, self._span(meta), counts)      # `deal round each`: an expression

    def count_fixed(self, meta, c):
        if isinstance(c[0], n.Int):
            return (c[0].value,), False
        return c[0], False

    def count_by_round(self, meta, c):
        return tuple(self._i(t) for t in c), True

    def pass_(self, meta, c):
        items, by_round = c[0]
        return n.Pass(items, by_round, self._span(meta))

    def pass_fixed(self, meta, c):
        return (n.PassItem(self._i(c[0]), self._name(c[1]), self._span(meta)),), False

    def pass_by_round(self, meta, c):
        return tuple(c), True

    def pass_item(self, meta, c):
        return n.PassItem(self._i(c[0]), self._name(c[1]), self._span(meta))

    def bid_number(self, meta, c):
        named = tuple(self._name(t) for t in c[2:] if isinstance(t, lark.Token))
        options = tuple(t for t in c[2:] if not isinstance(t, lark.Token))
        if not isinstance(c[1], lark.Token):    # `bid 0..(13 - round)`: the bound is an expression
            return n.BidNumber(self._i(c[0]), None, options, self._span(meta), named=named, limit=c[1])
        if c[1].type == "NAME":             # `bid 0..hand`: the bound is a word
            return n.BidNumber(self._i(c[0]), None, options, self._span(meta), self._name(c[1]), named)
        return n.BidNumber(self._i(c[0]), self._i(c[1]), options, self._span(meta), named=named)

    def bid_card(self, meta, c):
        return n.BidCard(tuple(c), self._span(meta))

    def opt_in_turn(self, meta, c):
        return n.InTurn(c[0], self._span(meta))

    def opt_value(self, meta, c):
        return n.Value(self._name(c[0]), self._span(meta))

    def opt_simultaneous(self, meta, c):
        return n.Simultaneous(self._span(meta))

    def opt_not_allowed(self, meta, c):
        return n.NotAllowed(c[0], self._span(meta))

    def trump_from_bid(self, meta, c):
        return n.TrumpFromBid(self._name(c[0]), self._span(meta))

    def trump_turned(self, meta, c):
        return n.TrumpTurned(self._name(c[0]), self._span(meta))

    def trump_last_dealt(self, meta, c):
        return n.TrumpLastDealt(self._name(c[0]), self._span(meta))

    def trump_fixed(self, meta, c):
        return n.TrumpFixed(self._name(c[0]), self._span(meta))

    def tricks(self, meta, c):
        taken = None if c[3] is None else n.Name(f"{c[3]} {c[4]}", self._name(c[3]).span)
        if c[0].type == "NAME":             # `tricks all`: as many as the hands hold
            return n.TricksAll(self._name(c[0]), c[1], c[2], taken, self._span(meta))
        return n.Tricks(self._i(c[0]), c[1], c[2], taken, self._span(meta))

    def repeat(self, meta, c):
        return n.Repeat(c[0], tuple(c[1:]), self._span(meta))

    def award(self, meta, c):
        return n.Award(c[0], c[1], self._span(meta))

    def set_aside(self, meta, c):
        return n.SetAside(self._span(meta))

    def deal_again(self, meta, c):
        return n.OutOfCards(False, self._span(meta))

    def restart_round(self, meta, c):
        return n.OutOfCards(True, self._span(meta))

    def seat_named(self, meta, c):
        return n.SeatRef("named", self._name(c[0]), self._span(meta))

    def seat_left_of(self, meta, c):
        return n.SeatRef("left_of", self._name(c[0]), self._span(meta))

    def seat_holder(self, meta, c):
        return n.SeatRef("holder", c[0], self._span(meta))

    def seat_highest_bidder(self, meta, c):
        return n.SeatRef("highest_bidder", None, self._span(meta))

    # -- follow and trick winner
    def follow(self, meta, c):
        return n.Follow(tuple(c[1:]), self._span(meta), c[0])

    def follow_case(self, meta, c):
        return n.FollowCase(c[0], c[1], self._span(meta))

    def follow_any(self, meta, c):
        return n.FollowAny(self._span(meta))

    def follow_if_able(self, meta, c):
        return n.FollowIfAble(c[0], self._span(meta), c[-1], tuple(c[1:-1]))

    def fallback(self, meta, c):
        return c[0]

    def trick_winner(self, meta, c):
        return n.TrickWinner(tuple(c), self._span(meta))

    def winner_case(self, meta, c):
        return n.WinnerCase(c[0], c[1], c[2], self._span(meta))

    def pick(self, meta, c):
        return str(c[0])

    def cond_otherwise(self, meta, c):
        return n.Otherwise(self._span(meta))

    def cond_always(self, meta, c):
        return n.Always(self._span(meta))

    def cond_lead_is(self, meta, c):
        return n.LeadIs(c[0], self._span(meta))

    def cond_any_played(self, meta, c):
        return n.AnyPlayed(c[0], self._span(meta))

    def p_or(self, meta, c):
        return n.POr(c[0], c[1], self._span(meta))

    def p_and(self, meta, c):
        return n.PAnd(c[0], c[1], self._span(meta))

    def p_not(self, meta, c):
        return n.PNot(c[0], self._span(meta))

    def p_trump(self, meta, c):
        return n.PTrump(self._span(meta))

    def p_any(self, meta, c):
        return n.PAny(self._span(meta))

    def p_same_as_lead(self, meta, c):
        return n.PSameAsLead(self._name(c[0]), self._span(meta))

    def p_followed(self, meta, c):
        return n.PFollowed(self._span(meta))

    def p_named(self, meta, c):
        return n.PNamed(self._name(c[0]), self._span(meta))

    # -- score, tables, end, winner, variant
    def score(self, meta, c):
        return n.Score(tuple(c[2:]), self._span(meta), self._name(c[0]), self._name(c[1]))

    def score_case(self, meta, c):
        return n.ScoreCase(c[0], c[1], self._span(meta), tuple(c[2:]))

    # -- overrides
    def change_table(self, meta, c):
        return n.ChangeTable(self._name(c[0]), tuple(e for e in c[1:] if e is not None), self._span(meta))

    def change_follow(self, meta, c):
        return n.ChangeCases("follow", tuple(c), self._span(meta))

    def change_winner(self, meta, c):
        return n.ChangeCases("trick winner", tuple(c), self._span(meta))

    def add_case(self, meta, c):
        return n.AddCase(c[0], self._span(meta))

    def remove_case(self, meta, c):
        return n.RemoveCase(c[0], self._span(meta))

    # -- teams and counters
    def teams_opposite(self, meta, c):
        return n.Teams("opposite", (), self._span(meta))

    def teams_listed(self, meta, c):
        return n.Teams("listed", tuple(c), self._span(meta))

    def team_seats(self, meta, c):
        return tuple(self._i(t) for t in c)

    def counter(self, meta, c):
        return n.Counter(self._name(c[0]), self._name(c[1]), self._span(meta))

    def change_add(self, meta, c):
        return n.AddTo(c[0], self._name(c[1]), self._span(meta))

    def change_set(self, meta, c):
        return n.SetTo(self._name(c[0]), c[1], self._span(meta))

    def cond_made(self, meta, c):
        return n.Made(self._span(meta))

    def cond_missed(self, meta, c):
        return n.Missed(self._span(meta))

    def cond_expr(self, meta, c):
        return n.CondExpr(c[0], self._span(meta))

    def table(self, meta, c):
        return n.Table(self._name(c[0]), tuple(e for e in c[1:] if e is not None), self._span(meta))

    def table_entry(self, meta, c):
        low, high = c[0]
        return n.TableEntry(low, high, c[1], self._span(meta))

    def key_single(self, meta, c):
        return c[0], c[0]

    def key_range(self, meta, c):
        return c[0], c[1]

    def key_else(self, meta, c):
        return None, None

    def signed(self, meta, c):
        return self._i(c[0])

    def negative(self, meta, c):
        return -self._i(c[0])

    def end_when(self, meta, c):
        return n.EndWhen(c[0], self._span(meta))

    def end_after_rounds(self, meta, c):
        if isinstance(c[0], n.Int):
            return n.EndAfterRounds(c[0].value, self._span(meta))
        return n.EndAfterRounds(0, self._span(meta), c[0])      # `end after 60 / players rounds`

    def winner(self, meta, c):
        return n.Winner(tuple(c), self._span(meta))

    def tie_key(self, meta, c):
        return n.TieKey(c[0], c[1], self._span(meta))

    # -- player errors (table play)
    def player_errors(self, meta, c):
        return n.PlayerErrors(tuple(c), self._span(meta))

    def out_of_turn(self, meta, c):
        return n.OutOfTurn(self._name(c[0]), self._span(meta))

    def revokes(self, meta, c):
        return n.Revokes(self._span(meta))

    def challenge_rule(self, meta, c):
        return n.ChallengeRule(tuple(c), self._span(meta))

    def challenge_case(self, meta, c):
        return n.ChallengeCase(self._name(c[0]), tuple(c[1:]), self._span(meta))

    def settle_made(self, meta, c):
        return n.Settle(self._name(c[0]), None, self._span(meta))

    def settle_points(self, meta, c):
        return n.Settle(self._name(c[0]), c[2], self._span(meta))

    def variant(self, meta, c):
        title = c[1][1:-1] if c[1] is not None else None
        return n.Variant(self._name(c[0]), title, c[2], tuple(c[3:]), self._span(meta))

    # -- expressions
    def int_lit(self, meta, c):
        return n.Int(self._i(c[0]), self._span(meta))

    def name(self, meta, c):
        return n.Ref(str(c[0]), self._span(meta))

    def call(self, meta, c):
        return n.Call(str(c[0]), tuple(a for a in c[1:] if a is not None), self._span(meta))

    def index(self, meta, c):
        return n.Index(str(c[0]), c[1], self._span(meta))

    def binop(self, meta, c):
        return n.BinOp(c[1], c[0], c[2], self._span(meta))

    def compare(self, meta, c):
        return n.Compare(c[1], c[0], c[2], self._span(meta))

    def add_op(self, meta, c):
        return str(c[0])

    mul_op = cmp_op = add_op

    def or_expr(self, meta, c):
        return n.BoolOp("or", c[0], c[1], self._span(meta))

    def and_expr(self, meta, c):
        return n.BoolOp("and", c[0], c[1], self._span(meta))

    def not_expr(self, meta, c):
        return n.Not(c[0], self._span(meta))

    def neg(self, meta, c):
        return n.Neg(c[0], self._span(meta))

    def if_expr(self, meta, c):
        return n.If(c[0], c[1], c[2], self._span(meta))

    # -- grid games
    def player_decks(self, meta, c):
        colours = tuple(self._name(t) for t in c if not isinstance(t, n.CardDef))
        cards = tuple(t for t in c if isinstance(t, n.CardDef))
        return n.PlayerDecks(colours, cards, self._span(meta))

    def card_def(self, meta, c):
        heads = tuple(t for t in c if isinstance(t, n.CardHead))
        return n.CardDef(heads, tuple(t for t in c if not isinstance(t, n.CardHead)), self._span(meta))

    def card_head(self, meta, c):
        number = None if c[1].type == "NO_NUMBER" else self._i(c[1])
        return n.CardHead(self._name(c[0]), number, self._span(meta))

    def card_scores(self, meta, c):
        return n.CardScores(c[0], self._span(meta))

    def card_slides(self, meta, c):
        return n.CardSlides(c[0], self._span(meta))

    def slide_lines(self, meta, c):
        return " ".join(str(t) for t in c)

    def card_effect(self, meta, c):
        return n.CardEffect(self._name(c[0]), c[1], self._span(meta))

    def effect_remove_revealed(self, meta, c):
        return n.RemoveRevealed(self._span(meta))

    def effect_move(self, meta, c):
        return n.MoveCard(tuple(self._name(t) for t in c), self._span(meta))

    def board(self, meta, c):
        rows, _, cols = str(c[0]).replace("×", "x").partition("x")
        return n.Board(self._size(c[0], rows), self._size(c[0], cols), tuple(c[1:]), self._span(meta))

    def _size(self, token, digits: str) -> int:
        value = int(digits.strip()) if len(digits.strip()) <= 4 else 65
        if value > 64:
            self.errors.append(diagnostic_at(self.text, self.file, token.line, token.column,
                                             f"a board of size {token} is too large",
                                             "boards go up to 64 cells a side"))
            return 64
        return value

    def board_word(self, meta, c):
        return n.BoardOption("word", self._name(c[0]), self._span(meta))

    def board_place(self, meta, c):
        return n.BoardOption("place", self._name(c[0]), self._span(meta))

    def setup(self, meta, c):
        return n.Setup(tuple(c), self._span(meta))

    def shuffle(self, meta, c):
        return n.Shuffle(self._span(meta))

    def draw(self, meta, c):
        return n.Draw(self._i(c[0]), self._i(c[1]), self._name(c[2]), self._span(meta))

    def tiebreaker(self, meta, c):
        return n.Tiebreaker(self._name(c[0]), self._span(meta))

    def choose(self, meta, c):
        return n.Choose(self._span(meta))

    def reveal(self, meta, c):
        return n.Reveal(self._span(meta))

    def place(self, meta, c):
        ties = c[2]
        return n.PlaceRevealed(c[0], self._name(c[1]), ties is not None, bool(ties), self._span(meta))

    def place_ties(self, meta, c):
        return c[0] is not None

    def passes(self, meta, c):
        return True

    def final_score(self, meta, c):
        return n.FinalScore(c[0], self._span(meta))

    def in_region(self, meta, c):
        return n.InRegion(self._name(c[0]), self._span(meta))

    # -- card identity, lead rules, what may always be played
    def card_text(self, meta, c):
        text = str(c[0]) if len(c) == 1 else f"{c[0]} {self._i(c[1])}"
        return n.Name(text, self._span(meta))

    def colour_group(self, meta, c):
        return n.ColourGroup(self._name(c[1]), tuple(self._name(t) for t in c[2:]), self._span(meta))

    def top_trumps(self, meta, c):
        return n.TopTrumps(tuple(c), self._span(meta))

    def top_of_trump_suit(self, meta, c):
        return n.TopCard("suit", self._i(c[0]), None, self._span(meta))

    def top_of_trump_colour(self, meta, c):
        return n.TopCard("colour", self._i(c[0]), None, self._span(meta))

    def top_named(self, meta, c):
        return n.TopCard("card", None, c[0], self._span(meta))

    def p_card(self, meta, c):
        return n.PCard(n.Name(f"{c[0]} {self._i(c[1])}", self._span(meta)), self._span(meta))

    def p_compare(self, meta, c):
        return n.PCompare(self._name(c[0]), c[1], self._i(c[2]), self._span(meta))

    def card_lit(self, meta, c):
        return n.CardLit(str(c[0]), self._i(c[1]), self._span(meta))

    def lead(self, meta, c):
        return n.Lead(tuple(c), self._span(meta))

    def lead_case(self, meta, c):
        return n.LeadCase(c[0], c[1], self._span(meta))

    def lead_first_trick(self, meta, c):
        return n.FirstTrick(self._span(meta))

    def lead_none_played(self, meta, c):
        return n.NonePlayed(c[0], self._span(meta))

    def lead_from(self, meta, c):
        return n.LeadFrom(c[0], self._span(meta))

    def always_playable(self, meta, c):
        return c[0]
