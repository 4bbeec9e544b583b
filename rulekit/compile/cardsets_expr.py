"""Card sets in expressions: `count(adjacent8, flower)`, `sum(hand, number)`, `max(adjacent4, own, points)`.

Pipeline place: checker and compiler, like `exprs.py`, whose `ExprCompiler` this extends.
A *card set* is written as the first argument of `count`, `any`, `all`, `sum`, `max` or
`min`: a set name (`display`, `adjacent4`, `adjacent8`, `row`, `column`, `centre`,
`corners`, `edges`, `hand`, `taken`) or a union/difference of them (`row + column`). The
next arguments are about one member card at a time: a condition (`own and flower`) and,
for `sum`/`max`/`min`, a value (`number`, `points`).

Inside a card's rule and inside those arguments there is a *this card*; card words then
read it: a card name, suit or colour (`flower`, `hearts`, `red`), `own` and `opponent` (its
owner against the seat being asked), `other` (not the card whose rule or set this is),
`number` (no number counts 0), `points` (what the card scores on the board; a card off
the board scores 0), `in corner`, `on edge`, `in centre`.

Closures: at game level `f(state, seat)` as in `exprs.py`; where a card is in scope
`f(here, seat)` with a `Here` (state, grid state, card, enclosing Here). Card sets are
bitmasks over card ids; conditions made only of card words become masks too, so
`count(adjacent8, flower)` is a few ANDs and a bit count.
"""
from __future__ import annotations

from contextlib import contextmanager

from .._records import Factory, define, evolve
from ..dsl import nodes as n
from ..engine.cardsets import cards_of
from .exprs import _COMPARE, Compiled, ExprCompiler, suggest

SET_FUNCS = ("count", "any", "all", "sum", "max", "min")
#: Set names: (needs a board, needs this card, differs by seat, may hold this card).
SETS = {
    "display": (True, False, False, True), "centre": (True, False, False, True),
    "corners": (True, False, False, True), "edges": (True, False, False, True),
    "adjacent4": (True, True, False, False), "adjacent8": (True, True, False, False),
    "row": (True, True, False, True), "column": (True, True, False, True),
    "hand": (False, False, True, False), "taken": (False, False, True, False),
}
REGIONS = {"corner": "corner", "edge": "edge", "centre": "centre", "center": "centre"}
_REGION_SLOTS = {"corner": 0, "edge": 1, "centre": 2}       # places in `GridState.region_masks()`
CARD_WORDS = ("own", "opponent", "other", "number", "points")
_SEAT_WORDS = {"own", "opponent", "hand", "taken"}
_BUSY = -(1 << 62)


class Here:
    """The card an expression is about, with the state around it and the enclosing card."""

    __slots__ = ("st", "gs", "card", "up", "n")

    def __init__(self, st, gs, card, up):
        self.st, self.gs, self.card, self.up, self.n = st, gs, card, up, st.n


@define
class CardWords:
    """What card words mean in one game: masks by kind, numbers, owners, board and points."""
    kinds: dict              # card name, suit or colour -> mask of card ids
    number: list             # card id -> number (0 when none)
    seat_masks: list | None  # seat -> mask of the cards it owns (own decks), else None
    board: bool              # a board exists: display sets, regions
    points: list | None      # card id -> points closure or None; None when cards have no points
    all_mask: int = 0
    bits: object = None      # the board's `grid.BitBoard`, for rules the generator writes out
    cards: dict = Factory(dict)   # card text (`spades 12`) -> mask of its copies
    trumps: list | None = None          # trump + 1 -> mask of the trumps (`trump`); None: no trumps
    kept: object = None      # the masks whose cells a grid state keeps (`grid_state.Kinds`), or None

    @classmethod
    def empty(cls) -> "CardWords":
        return cls({}, [], None, False, None)


# ---- run time ---------------------------------------------------------------------------

def card_points(st, gs, card: int) -> int:
    """Points `card` scores on the board now. Cards are scored left to right, top to bottom;
    a card whose points are being worked out counts 0 when read again (copy cycles)."""
    if gs is None:
        return 0
    memo = display_points(st, gs)
    value = memo.get(card)
    if value is None:
        return _compute(st, gs, memo, card) if card in gs.where else 0
    return 0 if value == _BUSY else value


def display_points(st, gs) -> dict:
    """{card: points} of every card on the display, worked out once per position (in the
    middle of working them out, the cards done so far)."""
    grid = st.rules.grid
    written = getattr(grid, "fill_points", None)
    if written is not None:                 # the generated module's (compile/codegen_grid_points.py)
        return written(st, gs)
    memo = gs.points_memo(len(st._past) + len(st._history))
    if not memo and gs.at:
        points, owner, at = grid.points, grid.owner, gs.at
        here = Here(st, gs, None, None)         # closures never keep it: one serves every card
        for _, card in sorted(at.items()):
            if card not in memo:
                fn = points[card]
                if fn is None:
                    memo[card] = 0
                else:
                    memo[card] = _BUSY
                    here.card = card
                    memo[card] = fn(here, owner[card])
    return memo


def _compute(st, gs, memo, card: int) -> int:
    value = memo.get(card)
    if value is not None:
        return 0 if value == _BUSY else value
    fn = st.rules.grid.points[card]
    if fn is None:
        memo[card] = 0
        return 0
    memo[card] = _BUSY
    value = memo[card] = fn(Here(st, gs, card, None), st.rules.grid.owner[card])
    return value


def points_mask(st, gs, op, bound: int, flipped: bool, everything: int) -> int:
    """The cards whose points pass `op(points, bound)` (`op(bound, points)` if `flipped`),
    once every card's points are known; cards off the board score 0."""
    if gs is None:
        return everything if (op(bound, 0) if flipped else op(0, bound)) else 0
    mask = 0
    for card, value in display_points(st, gs).items():
        if op(bound, value) if flipped else op(value, bound):
            mask |= 1 << card
    if op(bound, 0) if flipped else op(0, bound):
        mask |= everything & ~gs.mask
    return mask


def keep_where(mask: int, test, h: Here, p) -> int:
    """The cards of `mask` for which `test(member, p)` holds. One Here serves every member:
    closures never keep it, so it is safe to move it from card to card."""
    member = Here(h.st, h.gs, None, h)
    for card in cards_of(mask):
        member.card = card
        if not test(member, p):
            mask &= ~(1 << card)
    return mask


# ---- compiling ----------------------------------------------------------------------------

class SetExprCompiler(ExprCompiler):
    """`ExprCompiler` with card sets and card words. `depth` counts the cards in scope:
    0 at game level, 1 in a card's rule (or a member at game level), 2+ inside sets there."""

    def __init__(self, names: dict, tables: dict, report, words: CardWords | None = None,
                 depth: int = 0, rule: bool = False):
        super().__init__(names, tables, report)
        self.words = words or CardWords.empty()
        self.depth, self.rule = depth, rule
        self.compiled: dict[int, Compiled] = {}     # id(node) -> its closure, where a card is in scope

    def card_rule(self) -> "SetExprCompiler":
        """A compiler for a card's own rule: this card is in scope."""
        return SetExprCompiler(self.names, self.tables, self.report, self.words, 1, True)

    @contextmanager
    def _member(self):
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1

    def compile(self, node, want=None, per_seat_ok=True):
        if want and isinstance(node, n.Ref) and node.name in SETS and node.name not in self.names:
            self.report(node, f"`{node.name}` is a set of cards, not {'a number' if want == 'int' else 'a condition'}",
                        f"count it: count({node.name}), or test it: any({node.name}, ...)")
            return Compiled(lambda st, p: 0, want, False)
        return super().compile(node, want, per_seat_ok)

    def _compile(self, node):
        result = super()._compile(node)
        self.compiled[id(node)] = result          # for `compile_rule` and `_compare`
        return result

    def _compare(self, node):
        """As `ExprCompiler._compare`; against a number (`count(display) = 16`, read after
        every round), one closure fewer."""
        result = super()._compare(node)
        left = self.compiled.get(id(node.left))
        if left is None or not isinstance(node.right, n.Int) or left.type != "int":
            return result
        return evolve(result, fn=_COMPARE_WITH[node.op](left.fn, node.right.value))

    def compile_rule(self, node):
        """A card's `scores` rule → f(here, seat), the compiled closure; it carries the rule
        (`.rule`: the node and this compiler) for the generator, which writes the rules of a
        game out as plain code over the display's bit masks (compile/codegen_grid_points.py)."""
        fn = self.compile(node, "int").fn

        def rule(h, p):
            return fn(h, p)
        rule.rule = (node, self)
        return rule

    # -- names
    def _ref(self, node):
        name, words, card = node.name, self.words, self.depth > 0
        if name in words.kinds:
            mask = words.kinds[name]
            return self._card_word(node, lambda h, p: mask >> h.card & 1 == 1)
        if name == "trump" and words.trumps is not None:
            trumps = words.trumps
            return self._card_word(node, lambda h, p: trumps[h.st.trump + 1] >> h.card & 1 == 1)
        if name == "rank" and name not in self.names:
            return self._ref(n.Ref("number", node.span))
        if name in ("own", "opponent"):
            if words.seat_masks is None:
                self.report(node, f"`{name}` needs cards owned by players", "declare `player decks ...`")
            return self._card_word(node, self._owner_test(name), per_seat=True)
        if name == "other":
            if card and self.depth < 2:
                self.report(node, "`other` compares a card with the card whose rule or set this is, "
                                  "and there is none here", "use it inside count(...), any(...), sum(...)")
            return self._card_word(node, lambda h, p: h.card != h.up.card)
        if name == "number":
            table = words.number
            return self._card_word(node, lambda h, p: table[h.card], "int")
        if name == "points":
            return self._points(node)
        if name in SETS and name not in self.names:
            self.report(node, f"`{name}` is a set of cards", f"count it: count({name}), or sum(..., number)")
            return Compiled(lambda st, p: 0, "int", False)
        if name not in self.names:
            known = list(self.names) + list(self.tables) + list(words.kinds) + list(CARD_WORDS) + list(SETS)
            self.report(node, f"unknown name `{name}`", suggest(name, known))
            return Compiled(lambda st, p: 0, "int", False)
        found = super()._ref(node)
        if not card:
            return found
        read = found.fn
        return Compiled(lambda h, p: read(h.st, p), found.type, found.per_seat)

    def _cardlit(self, node):
        """`spades 12`: the card is that card."""
        text = f"{node.suit} {node.rank}"
        mask = self.words.cards.get(text)
        if mask is None:
            self.report(node, f"unknown card `{text}`", suggest(text, self.words.cards))
            mask = 0
        return self._card_word(node, lambda h, p: mask >> h.card & 1 == 1)

    def _card_word(self, node, fn, kind="bool", per_seat=False):
        if self.depth == 0:
            self.report(node, f"`{getattr(node, 'name', 'this')}` describes one card, and no card is meant here",
                        "use it about the cards of a set, as in count(display, flower), "
                        "or in a card's `scores` rule")
        return Compiled(fn, kind, per_seat)

    def _owner_test(self, name: str):
        masks = self.words.seat_masks or []
        if name == "own":
            return lambda h, p: masks[p] >> h.card & 1 == 1
        return lambda h, p: not masks[p] >> h.card & 1

    def _points(self, node):
        if self.words.points is None:
            self.report(node, "`points` needs cards with `scores` rules on a board",
                        "give cards a `scores ...` rule in `player decks`")
        elif self.rule and self.depth == 1:
            self.report(node, "a card's rule cannot read its own points",
                        "read other cards' points: max(adjacent4, own, points)")
        return self._card_word(node, lambda h, p: card_points(h.st, h.gs, h.card), "int")

    def _inregion(self, node):
        word = node.word.text
        region = REGIONS.get(word)
        if region is None:
            self.report(node.word, f"unknown place on the board `{word}`",
                        suggest(word, REGIONS) or "use `in corner`, `on edge` or `in centre`")
            region = "corner"
        if not self.words.board:
            self.report(node, f"`{'on' if region == 'edge' else 'in'} {word}` needs a `board`")
        if self.depth == 0:
            self.report(node, f"`in {word}` is about one card, and no card is meant here",
                        "use it in a card's `scores` rule")
        return Compiled(lambda h, p: h.gs.in_region(h.card, region), "bool", False)

    # -- set functions
    def _call(self, node):
        args = node.args
        if node.func in SET_FUNCS and args and _is_set(args[0]) and (
                node.func in ("count", "any") or len(args) > 1):
            return self._set_call(node)
        return super()._call(node)

    def _set_call(self, node):
        func, args = node.func, node.args
        base, on_board = self._set(args[0])
        if base is _read_display:               # the whole display: its cards are at hand
            base, on_board = _read_display_cards, False
        wants = {"count": (0, 1), "any": (0, 1), "all": (1,), "sum": (1, 2), "max": (1, 2), "min": (1, 2)}
        extra = len(args) - 1
        if extra not in wants[func]:
            self.report(node, _arity_message(func))
            return Compiled(lambda st, p: 0, "bool" if func in ("any", "all") else "int", False)
        valued = func in ("sum", "max", "min")
        condition = args[1] if (extra == 2 or (extra == 1 and not valued)) else None
        value = args[-1] if valued else None
        masker, tester = self.compile_filter(condition) if condition is not None else (None, None)
        valuer = None
        if value is not None:
            with self._member():
                valuer = self._value(value)
        self._check_self_points(node, args[0], condition, value)
        impl = _set_impl(func, base, on_board, masker, tester, valuer, not self.rule)
        per_seat = any(_mentions(a, _SEAT_WORDS | {k for k, v in self.names.items() if v.per_seat})
                       for a in args)
        kind = "bool" if func in ("any", "all") else "int"
        if self.depth > 0:
            return Compiled(impl, kind, per_seat)
        direct = _DIRECT.get(args[0].name) if isinstance(args[0], n.Ref) and len(args) == 1 else None
        if direct is not None:
            return Compiled(direct if func == "count" else (lambda st, p: direct(st, p) > 0), kind, per_seat)
        return Compiled(lambda st, p: impl(Here(st, st.extra.get("grid"), None, None), p), kind, per_seat)

    def _value(self, node):
        """A value about each member: a table by card id for `number`, `card_points` itself
        for `points` (both read without a Here), else a closure."""
        if isinstance(node, n.Ref) and node.name in ("number", "points") and node.name not in self.names:
            self.compile(node, "int")
            return self.words.number if node.name == "number" else card_points
        return self.compile(node, "int").fn

    def compile_filter(self, node):
        """A condition about member cards → (mask closure or None, test closure or None).
        The mask closure takes the Here of the set's owner card; the test takes the member's."""
        mask = self._mask(node)
        if mask is not None:
            return mask, None
        if self._points_test(node):
            with self._member():
                self.compile(node, "bool")          # for its diagnostics
            op, everything = _COMPARE[node.op], self.words.all_mask
            flipped = isinstance(node.left, n.Int)          # `0 < points`
            bound = node.left.value if flipped else node.right.value
            return (lambda h, p: points_mask(h.st, h.gs, op, bound, flipped, everything)), None
        if isinstance(node, n.BoolOp) and node.op == "and":
            lm, lt = self.compile_filter(node.left)
            rm, rt = self.compile_filter(node.right)
            return _both(lm, rm), _both_tests(lt, rt)
        with self._member():
            test = self.compile(node, "bool").fn
        return None, test

    def _points_test(self, node) -> bool:
        """`points > 0` (points against a number) outside a card's rule: then every card's
        points are known before the test, and it becomes a mask of cards."""
        if self.rule or not isinstance(node, n.Compare) or "points" in self.names:
            return False
        sides = (node.left, node.right)
        return (any(isinstance(x, n.Ref) and x.name == "points" for x in sides)
                and any(isinstance(x, n.Int) for x in sides))

    def _mask(self, node):
        """Closure (site, seat) -> mask of cards meeting `node`, or None if it needs a card."""
        words = self.words
        if isinstance(node, n.Ref):
            name = node.name
            if name in self.names:
                return None
            if name in words.kinds:
                mask = words.kinds[name]
                return lambda h, p: mask
            if name in ("own", "opponent") and words.seat_masks is not None:
                masks, owned = words.seat_masks, words.all_mask
                if name == "own":
                    return lambda h, p: masks[p]
                return lambda h, p: owned & ~masks[p]
            if name == "other" and self.depth >= 1:
                return lambda h, p: ~(1 << h.card)
            if name == "trump" and words.trumps is not None:
                trumps = words.trumps
                return lambda h, p: trumps[h.st.trump + 1]
            return None
        if isinstance(node, n.CardLit):
            mask = words.cards.get(f"{node.suit} {node.rank}")
            return None if mask is None else (lambda h, p: mask)
        if isinstance(node, n.BoolOp):
            left, right = self._mask(node.left), self._mask(node.right)
            if left is None or right is None:
                return None
            if node.op == "and":
                return lambda h, p: left(h, p) & right(h, p)
            return lambda h, p: left(h, p) | right(h, p)
        if isinstance(node, n.Not):
            inner, everything = self._mask(node.operand), words.all_mask
            return None if inner is None else (lambda h, p: everything & ~inner(h, p))
        return None

    def _set(self, node):
        """A set expression → (closure (here, seat) -> mask, on the board): sets of places on
        the board are masks of cells (`GridState`), the others (and mixtures) of card ids."""
        if isinstance(node, n.BinOp) and node.op in ("+", "-"):
            (left, left_board), (right, right_board) = self._set(node.left), self._set(node.right)
            if left_board != right_board:
                left, right = (_as_cards(left) if left_board else left), (_as_cards(right) if right_board else right)
            if node.op == "+":
                return (lambda h, p: left(h, p) | right(h, p)), left_board and right_board
            return (lambda h, p: left(h, p) & ~right(h, p)), left_board and right_board
        name = node.name
        needs_board, needs_card, _, _ = SETS[name]
        if needs_board and not self.words.board:
            self.report(node, f"the set `{name}` needs a `board`", "declare `board 4x4, ...`, or use hand/taken")
        if needs_card and self.depth == 0:
            self.report(node, f"`{name}` is around one card, and no card is meant here",
                        "use it in a card's `scores` rule; at game level use display, centre, corners, edges")
        return _SET_READERS[name], needs_board

    def _check_self_points(self, node, base, condition, value) -> None:
        """A card's rule may not read, through a set, the points of a set that can hold itself."""
        if not (self.rule and self.depth == 1):
            return
        reads = any(a is not None and _mentions(a, {"points"}) for a in (condition, value))
        if reads and _may_hold_self(base) and not _excludes_self(condition):
            self.report(node, "this card's points would depend on its own points",
                        "leave the card out with `other`, as in sum(row, own and other, points)")


def _set_impl(func, base, on_board, masker, tester, valuer, settled=False):
    """The closure of a set function over `base`, a set of cells (`on_board`) or of cards;
    `settled`: outside any card's rule, so every card's points are known before they are read."""
    if tester is None and func in ("count", "any"):
        if on_board and masker is not None:
            cards = masker
            masker = lambda h, p: h.gs.cells_of(cards(h, p))       # noqa: E731
        return _mask_count(func, base, masker)
    if on_board:
        base = _as_cards(base)

    def members(h, p):
        mask = base(h, p)
        if masker is not None:
            mask &= masker(h, p)
        if tester is not None and mask:
            mask = keep_where(mask, tester, h, p)
        return mask

    if func == "count":
        return lambda h, p: members(h, p).bit_count()
    if func == "any":
        return lambda h, p: members(h, p) != 0
    if func == "all":
        if masker is not None and tester is None:
            return lambda h, p: base(h, p) & ~masker(h, p) == 0
        return lambda h, p: base(h, p) == members(h, p)
    fold = {"sum": sum, "max": max, "min": min}[func]
    if isinstance(valuer, list):                      # a table by card id (`number`)
        table = valuer

        def by_table(h, p):
            values = [table[card] for card in cards_of(members(h, p))]
            return fold(values) if values else 0
        return by_table
    if valuer is card_points and settled:
        def by_known_points(h, p):
            gs = h.gs
            if gs is None:
                return 0
            get = display_points(h.st, gs).get
            values = [get(card, 0) for card in cards_of(members(h, p))]
            return fold(values) if values else 0
        return by_known_points
    if valuer is card_points:
        def by_points(h, p):
            st, gs = h.st, h.gs
            values = [card_points(st, gs, card) for card in cards_of(members(h, p))]
            return fold(values) if values else 0
        return by_points

    def folded(h, p):
        member = Here(h.st, h.gs, None, h)
        values = []
        for card in cards_of(members(h, p)):
            member.card = card
            values.append(valuer(member, p))
        return fold(values) if values else 0
    return folded


def _as_cards(cells):
    """A set of cells as the set of the cards on them."""
    if cells is _read_display:
        return _read_display_cards
    return lambda h, p: h.gs.cards_at(cells(h, p))


def _read_display(h, p):
    return h.gs.occ


def _read_display_cards(h, p):
    return h.gs.mask


def _mask_count(func, base, masker):
    """`count`/`any` of a set whose condition is all card words: one closure of a few ANDs."""
    if masker is None:
        if func == "count":
            return lambda h, p: base(h, p).bit_count()
        return lambda h, p: base(h, p) != 0
    if func == "count":
        return lambda h, p: (base(h, p) & masker(h, p)).bit_count()
    return lambda h, p: base(h, p) & masker(h, p) != 0


def _both(left, right):
    if left is None or right is None:
        return left or right
    return lambda h, p: left(h, p) & right(h, p)


def _both_tests(left, right):
    if left is None or right is None:
        return left or right
    return lambda h, p: left(h, p) and right(h, p)


_COMPARE_WITH = {
    "=": lambda f, v: lambda st, p: f(st, p) == v,
    "!=": lambda f, v: lambda st, p: f(st, p) != v,
    "<": lambda f, v: lambda st, p: f(st, p) < v,
    "<=": lambda f, v: lambda st, p: f(st, p) <= v,
    ">": lambda f, v: lambda st, p: f(st, p) > v,
    ">=": lambda f, v: lambda st, p: f(st, p) >= v,
}


def _read_hand(h, p):
    return h.st.hands[p]


def _read_taken(h, p):
    return h.st.taken[p]


#: `count(display)`, `count(hand)`, `count(taken)` at game level, read straight from the state.
_DIRECT = {
    "display": lambda st, p: st.extra["grid"].mask.bit_count(),
    "hand": lambda st, p: st.hands[p].bit_count(),
    "taken": lambda st, p: st.taken[p].bit_count(),
}

#: Set names → readers (sets on the board as cells, see `GridState`; hand and taken as cards).
_SET_READERS = {
    "display": _read_display,
    "adjacent4": lambda h, p: h.gs.near_cells(h.card, 4),
    "adjacent8": lambda h, p: h.gs.near_cells(h.card, 8),
    "row": lambda h, p: h.gs.line_cells(h.card, "row"),
    "column": lambda h, p: h.gs.line_cells(h.card, "column"),
    "centre": lambda h, p: h.gs.region_cells("centre"),
    "corners": lambda h, p: h.gs.region_cells("corner"),
    "edges": lambda h, p: h.gs.region_cells("edge"),
    "hand": _read_hand,
    "taken": _read_taken,
}


def _arity_message(func: str) -> str:
    return {
        "count": "count takes a set and maybe a condition: count(adjacent8) or count(adjacent8, flower)",
        "any": "any takes a set and maybe a condition: any(adjacent4, own and flower)",
        "all": "all takes a set and a condition: all(row, own)",
    }.get(func, f"{func} takes a set, maybe a condition, and a value: {func}(adjacent4, own, points)")


def _is_set(node) -> bool:
    if isinstance(node, n.Ref):
        return node.name in SETS
    return isinstance(node, n.BinOp) and node.op in ("+", "-") and _is_set(node.left) and _is_set(node.right)


def _may_hold_self(node) -> bool:
    if isinstance(node, n.Ref):
        return SETS[node.name][3]
    if node.op == "-":
        return _may_hold_self(node.left)
    return _may_hold_self(node.left) or _may_hold_self(node.right)


def _excludes_self(condition) -> bool:
    if isinstance(condition, n.Ref):
        return condition.name == "other"
    if isinstance(condition, n.BoolOp) and condition.op == "and":
        return _excludes_self(condition.left) or _excludes_self(condition.right)
    return False


def _mentions(node, names) -> bool:
    """True when `node` reads any of `names` (not counting set positions)."""
    return any(isinstance(item, n.Ref) and item.name in names for item in n.walk(node))


def words_for_deck(deck) -> CardWords:
    """Card words of a shared deck: each suit and special card names its cards."""
    from .identity import colour_of, identities
    from .tricks import suit_masks_by

    each = identities(deck)
    by_identity = suit_masks_by(deck, each)
    kinds = dict(zip(deck.suit_names, by_identity[0]))
    for index, colour in enumerate(deck.colour_names):
        kinds[colour] = sum(1 << c for c in range(deck.size) if colour_of(deck, deck.suit[c]) == index)
    cards = {}
    for card, text in enumerate(deck.texts):
        cards[text] = cards.get(text, 0) | 1 << card
    trumps = [deck.always_trump | by_identity[trump + 1][trump] if trump >= 0 else deck.always_trump
              for trump in range(-1, len(each) - 1)]
    return CardWords(kinds, [max(r, 0) for r in deck.rank], None, False, None, deck.all_mask,
                     cards=cards, trumps=trumps)
