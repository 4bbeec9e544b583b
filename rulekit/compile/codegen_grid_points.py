"""The points of the cards on a grid game's display, and the card-set expressions of its rules → generated source.

Pipeline place: compiler → **codegen** (grid end: card points) → engine. For a game that
places cards on a board (`player decks`), the generator writes what the compiler's closures
of the cards' `scores` rules compute (`compile/cardsets_expr.py`, which stays the reference)
as plain functions of the generated module:

- `display_points_N(st, gs)`: the points of every card on the display, `{card: points}`,
  worked out once per position (the memo of `GridState.points_memo`, shared with the
  closures of `compile/cardsets_expr.py`; the views' `points` read it too). Each card's
  `scores` rule becomes plain code over the display's bit masks: `count`/`any` of a set of
  places (`adjacent8`, `row + column`, `corners`, ...) with a condition of card words are
  ANDs of the board's cell tables (written in as literals) and a bit count; `in corner`
  reads the region masks. The rules that read no other card's points are worked out first,
  card by card in one loop per rule; then those that do (`max(adjacent4, own, points)`),
  each a function, left to right and top to bottom, reading other cards' points through the
  memo in card order exactly as `card_points` does (a card being worked out reads 0, which
  breaks copy cycles).
- `_Source`, the writer of these expressions, also writes the functions of card sets at game
  level (`sum(display, own, points)`, `count(display, own and points > 0)`: masks and one
  comprehension over the members) for the end of the game (`compile/codegen_grid_end.py`).

Whatever the writer does not know (a name of another mechanism, a condition about a member
that needs its own card) is called as the closure the compiler built for that very node, so
the generated code computes exactly what the closures do: `tests/test_grid_end.py` and
`tests/test_card_expressions.py` check it on random positions. Values from the rule file
enter only as masks, numbers and tables of them (`Writer.const`).
"""
from __future__ import annotations

import re
from string import Template

from ..dsl import nodes as n
from ..engine.cardsets import cards_of
from ..engine.grid import NEAR_TABLE_CELLS
from .cardsets_expr import _BUSY, _REGION_SLOTS, REGIONS, SETS, Here
from .codegen import literal
from .exprs import BASE_NAMES

_OPS = {"=": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">=", "+": "+", "-": "-", "*": "*"}
_PLACES = {"centre": "centre", "corners": "corner", "edges": "edge"}


def fold_max(values) -> int:
    """`max(...)` of a card set: 0 when the set is empty."""
    return max(values) if values else 0


def fold_min(values) -> int:
    return min(values) if values else 0


class _Source:
    """Writes an expression of a rule file as Python source, or None where it cannot; the
    caller then calls the node's compiled closure (`fallback`).

    `scope` is "rule" inside a card's rule (variables `st`, `gs`, `points`, `card`, `seat`,
    and on demand `occ`, `bit`, `regions`, `kinds`, `h`), "game" for a set function at game
    level (`game_call`: `st`, `gs`, the seat variable, and `points` once every card's points
    are known), "member" for the cards of such a set (the member is `c`). `uses` collects
    the variables the text needs."""

    def __init__(self, w, compiler, points_of: str | None):
        self.w, self.compiler, self.words = w, compiler, compiler.words
        self.points_of = points_of        # the generated function reading the points of the cards on cells (rules)
        self.uses: set[str] = set()
        self.scope = "rule"
        self.seat = "seat"                # the variable holding the seat asked about
        self.occupied: set[str] = set()   # texts of `cell_mask` whose cells are all occupied

    # ---- plumbing ---------------------------------------------------------------------------

    def fallback(self, node) -> str:
        found = self.compiler.compiled.get(id(node))
        if found is None:
            raise _Unwritable(node)
        if self.scope == "member":          # a member's closure needs its own Here: the whole set falls back
            raise _Unwritable(node)
        fn = self.w.bind("closure", found.fn)
        self.uses.add("h")
        return f"{fn}(h, {self.seat})"

    def write(self, node) -> str:
        method = getattr(self, "_" + type(node).__name__.lower(), None)
        text = method(node) if method is not None else None
        return self.fallback(node) if text is None else text

    def const(self, prefix: str, value) -> str:
        return self.w.const(prefix, value)

    def _local(self, name: str) -> bool:
        """Is `name` a name of the file's own (a table, a counter), hiding a built-in word?"""
        return name in self.compiler.names and self.compiler.names[name] is not BASE_NAMES.get(name)

    # ---- numbers and conditions -------------------------------------------------------------

    def _int(self, node):
        text = literal(node.value)
        return f"({text})" if node.value < 0 else text

    def _if(self, node):
        return f"({self.write(node.then)} if {self.write(node.condition)} else {self.write(node.otherwise)})"

    def _compare(self, node):
        return f"({self.write(node.left)} {_OPS[node.op]} {self.write(node.right)})"

    def _binop(self, node):
        op = _OPS.get(node.op)
        return None if op is None else f"({self.write(node.left)} {op} {self.write(node.right)})"

    def _boolop(self, node):
        return f"({self.write(node.left)} {node.op} {self.write(node.right)})"

    def _not(self, node):
        return f"(not {self.write(node.operand)})"

    def _neg(self, node):
        return f"(-{self.write(node.operand)})"

    def _ref(self, node):
        name = node.name
        if self.scope == "member" and name in ("number", "points") and not self._local(name):
            if name == "number":
                return f"{self.const('NUMBER', tuple(self.words.number))}[c]"
            self.uses.add("points")
            return _POINT
        if self.scope == "member" and not self._local(name):
            mask = self.card_mask(node)
            if mask is not None:
                return f"({mask} >> c & 1 == 1)"
        return None

    def _inregion(self, node):
        region = REGIONS.get(node.word.text)
        if region is None or self.scope != "rule":
            return None
        self.uses.update(("bit", "regions"))
        return f"(regions[{_REGION_SLOTS[region]}] >> bit & 1 == 1)"

    # ---- sets of cards ----------------------------------------------------------------------

    def _call(self, node):
        func, args = node.func, node.args
        if not args or not _is_set(args[0]):
            return None
        return self._rule_call(func, args) if self.scope == "rule" else None

    def _rule_call(self, func, args):
        """In a card's rule: counts of places around the card as cell masks (as the
        closures count cells, one card a cell), folds over the cards on them."""
        valued = func in ("sum", "max", "min")
        if func not in ("count", "any", "sum", "max", "min") or len(args) > (3 if valued else 2) or \
                (valued and len(args) < 2):
            return None
        condition = args[1] if len(args) == (3 if valued else 2) else None
        mask = self.cell_mask(condition) if condition is not None else None
        # cells of cards on the display need no `& occ` on the places they are taken from
        base = self.cells(args[0], raw=mask in self.occupied)
        if base is None or (condition is not None and mask is None):
            return None
        chosen = base if mask is None else f"({base} & {mask})"
        if not valued:
            return f"{chosen}.bit_count()" if func == "count" else f"({chosen} != 0)"
        value = args[-1]
        if not isinstance(value, n.Ref) or value.name not in ("points", "number") or self._local(value.name):
            return None
        members = f"{self.w.bind('cards_of', cards_of)}(gs.cards_at({chosen}))"
        if value.name == "points":        # (`points_of` is the module's `_POINTS_AT`)
            return f"{self._fold(func)}({self.points_of}(st, gs, points, {chosen}))"
        else:
            each = f"{self.const('NUMBER', tuple(self.words.number))}[c]"
        return f"{self._fold(func)}([{each} for c in {members}])"

    def _fold(self, func: str) -> str:
        return {"sum": "sum", "max": self.w.bind("fold_max", fold_max), "min": self.w.bind("fold_min", fold_min)}[func]

    def cells(self, node, raw: bool = False) -> str | None:
        """A set of places on the board around the rule's card → an expression of its occupied
        cells (with `raw`, of its cells: the caller keeps only occupied ones)."""
        occupied = "" if raw else " & occ"
        if isinstance(node, n.BinOp):
            left, right = self.cells(node.left, raw), self.cells(node.right, raw)
            if left is None or right is None:
                return None
            return f"({left} | {right})" if node.op == "+" else f"({left} & ~{right})"
        name, bits = node.name, self.words.bits        # (in a set's place a set name is the set)
        if name in ("adjacent4", "adjacent8"):
            self.uses.update(("bit", "occ"))
            if bits.size > NEAR_TABLE_CELLS:        # a large frame: the pattern shifted (`BitBoard.around`)
                pattern = self.const("NEAR_PATTERN", bits.pattern(int(name[-1])))
                return f"({pattern} << bit >> {literal(bits.width + 1)}{occupied})"
            return f"({self.const('NEAR', tuple(bits.near(int(name[-1]))))}[bit]{occupied})"
        if name == "row":
            self.uses.update(("bit", "occ"))
            cells = tuple(bits.row_cells[bit // bits.width] for bit in range(bits.width * bits.height))
            return f"({self.const('ROW_AT', cells)}[bit]{occupied})"
        if name == "column":
            self.uses.update(("bit", "occ"))
            cells = tuple(bits.col_cells[bit % bits.width] for bit in range(bits.width * bits.height))
            return f"({self.const('COLUMN_AT', cells)}[bit]{occupied})"
        if name in _PLACES:
            self.uses.add("regions")
            return f"regions[{_REGION_SLOTS[_PLACES[name]]}]"
        if name == "display":
            self.uses.add("occ")
            return "occ"
        return None

    def _kind_cells(self, cards: int) -> str:
        kept = self.words.kept
        slot = None if kept is None else kept.index.get(cards)
        if slot is None:
            return f"gs.cells_of({literal(cards)})"
        self.uses.add("kinds")
        return f"kinds[{slot}]"

    def cell_mask(self, node) -> str | None:
        """A condition of card words → the display's cells whose cards meet it (the cells of
        a kind or of a seat's cards are kept by the grid state, `GridState.kind_cells`); a
        text whose cells are all occupied goes into `occupied`."""
        text = self._cell_mask(node)
        if text is not None and self._all_occupied(node, text):
            self.occupied.add(text)
        return text

    def _all_occupied(self, node, text: str) -> bool:
        if text.startswith(("kinds[", "gs.cells_of(", "(occ ^ ", "(occ & ~")):
            return True
        if isinstance(node, n.BoolOp):          # (its parts are written again, the same texts)
            parts = [self.cell_mask(part) in self.occupied for part in (node.left, node.right)]
            return all(parts) if node.op == "or" else any(parts)
        return False

    def _card_word(self, node) -> str | None:
        """The name a `Ref` gives, unless the rule file names something else by it (a card
        word is then not meant): what `_cell_mask` and `card_masks` map to masks."""
        return None if node.name in self.compiler.names else node.name

    def _cell_mask(self, node) -> str | None:
        words = self.words
        if isinstance(node, n.Ref):
            name = self._card_word(node)
            if name is None:
                return None
            if name in words.kinds:
                return self._kind_cells(words.kinds[name])
            if name in ("own", "opponent") and words.seat_masks is not None:
                self.uses.add("occ")
                kept = words.kept
                slots = [None if kept is None else kept.index.get(mask) for mask in words.seat_masks]
                if self.seat.isdigit():         # a card of one seat's (`_PLAIN_CARD`): its slot
                    seat = int(self.seat)
                    slot, mask = slots[seat], words.seat_masks[seat]
                    own = f"gs.cells_of({literal(mask)})" if slot is None else f"kinds[{literal(slot)}]"
                elif None in slots:
                    own = f"gs.cells_of({self.const('SEAT_CARDS', tuple(words.seat_masks))}[{self.seat}])"
                else:
                    own = f"kinds[{self.const('SEAT_SLOT', tuple(slots))}[{self.seat}]]"
                if "kinds" in own:
                    self.uses.add("kinds")
                return own if name == "own" else f"(occ ^ {own})"     # own cells are occupied
            if name == "other":
                self.uses.add("bit")
                return "~(1 << bit)"
            return None
        if isinstance(node, n.BoolOp):
            left, right = self.cell_mask(node.left), self.cell_mask(node.right)
            if left is None or right is None:
                return None
            return f"({left} {'&' if node.op == 'and' else '|'} {right})"
        if isinstance(node, n.Not):
            inner = self.cell_mask(node.operand)
            self.uses.add("occ")
            if inner is None:
                return None
            return f"(occ ^ {inner})" if inner in self.occupied else f"(occ & ~{inner})"
        return None

    def card_mask(self, node) -> str | None:
        """A condition of card words → the mask of the card ids that meet it (any card): a
        literal, or a table by seat for a condition about the seat (`own`, `opponent`)."""
        masks = self.card_masks(node)
        if masks is None:
            return None
        if len(set(masks)) == 1:
            return literal(masks[0])
        return f"{self.const('SEAT_CARDS', masks)}[{self.seat}]"

    def card_masks(self, node) -> tuple[int, ...] | None:
        """`card_mask` as values: the mask for each seat (one for all when the game has no
        own decks, whose seats are not told apart by cards), or None."""
        words = self.words
        seats = words.seat_masks
        if isinstance(node, n.Ref):
            name = self._card_word(node)
            if name is None:
                return None
            if name in words.kinds:
                return (words.kinds[name],) * len(seats or (0,))
            if name in ("own", "opponent") and seats is not None:
                return tuple(seats) if name == "own" else tuple(words.all_mask & ~mask for mask in seats)
            return None
        if isinstance(node, n.CardLit):
            mask = words.cards.get(f"{node.suit} {node.rank}")
            return None if mask is None else (mask,) * len(seats or (0,))
        if isinstance(node, n.BoolOp):
            left, right = self.card_masks(node.left), self.card_masks(node.right)
            if left is None or right is None:
                return None
            if node.op == "and":
                return tuple(a & b for a, b in zip(left, right))
            return tuple(a | b for a, b in zip(left, right))
        if isinstance(node, n.Not):
            inner = self.card_masks(node.operand)
            return None if inner is None else tuple(words.all_mask & ~mask for mask in inner)
        return None

    # ---- sets at game level -----------------------------------------------------------------

    def cards(self, node) -> str | None:
        """A set at game level → an expression of its card ids (a mask)."""
        if isinstance(node, n.BinOp):
            left, right = self.cards(node.left), self.cards(node.right)
            if left is None or right is None:
                return None
            return f"({left} | {right})" if node.op == "+" else f"({left} & ~{right})"
        name = node.name
        if name == "display":
            return "gs.mask"
        if name == "hand":
            return f"st.hands[{self.seat}]"
        if name == "taken":
            return f"st.taken[{self.seat}]"
        if name in _PLACES:
            return f"gs.cards_at(gs.region_masks()[{_REGION_SLOTS[_PLACES[name]]}])"
        return None

    def _split(self, node):
        """A condition about members → (mask text or None, member test texts); None if unwritable."""
        mask = self.card_mask(node)
        if mask is not None:
            return mask, []
        if isinstance(node, n.BoolOp) and node.op == "and":
            left, right = self._split(node.left), self._split(node.right)
            if left is None or right is None:
                return None
            masks = [m for m in (left[0], right[0]) if m is not None]
            return (" & ".join(masks) if masks else None), left[1] + right[1]
        test = self._member(node)
        return None if test is None else (None, [test])

    def _member(self, node) -> str | None:
        scope, self.scope = self.scope, "member"
        try:
            return self.write(node)
        except _Unwritable:
            return None
        finally:
            self.scope = scope

    def game_call(self, func, args, seat: str):
        """A set function at game level for the seat in variable `seat`, or None."""
        self.seat = seat
        try:
            return self._game_call(func, args)
        finally:
            self.seat = "seat"

    def _game_call(self, func, args):
        valued = func in ("sum", "max", "min")
        wants = {"count": (1, 2), "any": (1, 2), "all": (2,), "sum": (2, 3), "max": (2, 3), "min": (2, 3)}
        if func not in wants or len(args) not in wants[func]:
            return None
        base = self.cards(args[0])
        condition = args[1] if len(args) == (3 if valued else 2) else None
        split = self._split(condition) if condition is not None else (None, [])
        if base is None or split is None:
            return None
        mask, tests = split
        chosen = base if mask is None else f"({base} & {mask})"
        if func == "all":
            return f"({base} & ~{mask} == 0)" if mask is not None and not tests else None
        value = self._member(args[-1]) if valued else None
        if valued and value is None:
            return None
        if not tests and not valued:
            return f"{chosen}.bit_count()" if func == "count" else f"({chosen} != 0)"
        if func == "sum" and base == "gs.mask" and not tests and value == _POINT:
            return self._points_sum(condition)
        if base == "gs.mask" and any(_POINT in text for text in tests + [value or ""]):
            # the memo of points holds exactly the display's cards: one pass over it
            tests = ([f"{mask} >> c & 1"] if mask is not None else []) + [t.replace(_POINT, "value") for t in tests]
            value = value.replace(_POINT, "value") if valued else None
            members, each = "points.items()", "c, value"
        else:
            members, each = f"{self.w.bind('cards_of', cards_of)}({chosen})", "c"
        test = f" if {' and '.join(tests)}" if tests else ""
        if not valued:
            found = f"len([c for {each} in {members}{test}])"
            return found if func == "count" else f"({found} != 0)"
        return f"{self._fold(func)}([{value} for {each} in {members}{test}])"

    def _points_sum(self, condition) -> str:
        """`sum(display, CONDITION, points)` for a condition of card words: the memo's
        points of the cards that meet it (`dict.get` mapped over their ids, 0 for those off
        the display), cards and zeros as tables by seat."""
        if condition is None:
            return "sum(points.values())"
        cards = tuple(tuple(cards_of(mask)) for mask in self.card_masks(condition))
        zeros = tuple((0,) * len(ids) for ids in cards)
        if len(set(cards)) == 1:
            return f"sum(map(points.get, {self.const('CARDS', cards[0])}, {self.const('ZEROS', zeros[0])}))"
        return (f"sum(map(points.get, {self.const('CARDS', cards)}[{self.seat}], "
                f"{self.const('ZEROS', zeros)}[{self.seat}]))")


#: how a member's points are read at game level (every card's points are known by then)
_POINT = "points.get(c, 0)"


class _Unwritable(Exception):
    """A node without a compiled closure to fall back on (never for checked files)."""


def _is_set(node) -> bool:
    if isinstance(node, n.Ref):
        return node.name in SETS
    return isinstance(node, n.BinOp) and node.op in ("+", "-") and _is_set(node.left) and _is_set(node.right)


# ---- the points of the cards on the display -------------------------------------------------

_READER = """\
def $NAME(st, gs, points, card, seat):
    \"\"\"The points of a card of this rule, which reads other cards' points.\"\"\"
$LOCALS    return $BODY
"""

_CARD_POINTS = """\
def $NAME(st, gs, points, card):
    \"\"\"The points of a card read by a card's rule: known, being worked out (0), or worked out
    now. Cards whose rules read no points are all known before any rule reads points.\"\"\"
    value = points.get(card)
    if value is None:
        if card not in gs.where:
            return 0
        points[card] = $BUSY
        value = points[card] = $READERS[card](st, gs, points, card, $OWNER[card])
        return value
    return 0 if value == $BUSY else value
"""

#: the points of the cards on some cells, in card order, as a card's rule reads them
#: (`card_points` for each: the cards on the display are known when the rules that read
#: points run, but for those being worked out or not worked out yet)
_POINTS_AT = """\
def $NAME(st, gs, points, cells):
    \"\"\"The points of the cards on `cells`, in card order (`$CARD_POINTS` for each).\"\"\"
    at, cards = gs.at, 0
    while cells:
        low = cells & -cells
        cards |= 1 << at[low.bit_length() - 1]
        cells ^= low
    found = []
    while cards:
        low = cards & -cards
        cards ^= low
        card = low.bit_length() - 1
        value = points.get(card)
        if value is None:
            value = $CARD_POINTS(st, gs, points, card)
        elif value == $BUSY:
            value = 0
        found.append(value)
    return found
"""

_DISPLAY_POINTS = """\
def $NAME(st, gs):
    \"\"\"The points of every card on the display, worked out once per position: first the
    cards whose rules read no other card's points (in any order), then the others left to
    right, top to bottom, as the rules say.\"\"\"
    points = gs.points_memo(len(st._past) + len(st._history))
    if points or not gs.at:
        return points
    where = gs.where
$LOCALS$PLAIN$READ    return points
"""

#: the cards of one rule on the display, each given its points (`$$EXPR`)
_PLAIN = """\
    # the rule of cards $IDS
    cards = gs.mask & $CARDS
    while cards:
        low = cards & -cards
        cards ^= low
        card = low.bit_length() - 1
$EACH        points[card] = $EXPR
"""

_UNRULED = """\
    for card in $CARDS_OF(gs.mask & $CARDS):
        points[card] = 0
"""

#: ... or written out card by card, each with its seat as a number (`_Source.seat`), when the
#: deck has at most `_UNROLLED` cards and the rule needs no closure (`$$BIT`: its cell, if read)
_PLAIN_CARD = """\
    if mask & $ONE:
$BIT        points[$CARD] = $EXPR
"""
_UNRULED_CARD = """\
    if mask & $ONE:
        points[$CARD] = 0
"""
_UNROLLED = 64

_READ = """\
    at = gs.at
    for bit in $ORDER:
        card = at[bit]
        if card not in points:
            points[card] = $BUSY
            points[card] = $READERS[card](st, gs, points, card, $OWNER[card])
"""

#: the variables a rule's text may read, and how each is set
_LOCALS = (("occ", "occ = gs.occ"), ("regions", "regions = gs.region_masks()"), ("kinds", "kinds = gs.kind_cells"),
           ("mask", "mask = gs.mask"))
_EACH = (("bit", "bit = where[card]"), ("seat", "seat = $OWNER[card]"), ("h", "h = $HERE(st, gs, card, None)"))


def _mask(cards) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _points_functions(w, grid) -> str | None:
    """Write the display's points (and a function per rule that reads other cards' points);
    its name, or None when there is nothing to write (no board, a rule not compiled)."""
    rules = [getattr(fn, "rule", None) if fn is not None else None for fn in grid.points]
    if grid.words.bits is None or not any(rules) or any(
            fn is not None and rule is None for fn, rule in zip(grid.points, rules)):
        return None
    groups: dict[int, tuple] = {}
    for card, rule in enumerate(rules):
        if rule is not None:
            groups.setdefault(id(rule[0]), (rule, []))[1].append(card)
    owner = w.const("OWNER", tuple(grid.owner))
    card_points, points_at = w.name("card_points"), w.name("points_at")
    plain, readers, uses = [], {}, set()
    unrolled = len(rules) <= _UNROLLED
    for rule, cards in groups.values():
        if _reads_points(rule[0]):
            readers[_reader(w, rule, points_at, owner)] = cards
        else:
            plain.append(_plain_cards(w, rule, cards, grid.owner, owner, uses) if unrolled
                         else _plain(w, rule, cards, owner, uses))
    unruled = [card for card, rule in enumerate(rules) if rule is None]
    if unruled and unrolled:
        uses.add("mask")
        plain.extend(Template(_UNRULED_CARD).substitute(CARD=literal(card), ONE=literal(1 << card)) for card in unruled)
    elif unruled:
        plain.append(Template(_UNRULED).substitute(CARDS_OF=w.bind("cards_of", cards_of), CARDS=literal(_mask(unruled))))
    if "bit" in uses:
        uses.add("occ")
    common = {"BUSY": literal(_BUSY), "OWNER": owner}
    read = ""
    if readers:
        table = w.name("READERS")
        by_card = {card: name for name, cards in readers.items() for card in cards}
        idle = w.name("no_reader")
        w.lines(f"def {idle}(st, gs, points, card, seat):\n    \"\"\"Never called: only cards whose rules read "
                "points are worked out on demand.\"\"\"\n    return 0")
        w.lines(f"{table} = ({', '.join(by_card.get(card, idle) for card in range(len(rules)))},)")
        common["READERS"] = table
        w.lines(Template(_CARD_POINTS).substitute(common, NAME=card_points))
        w.lines(Template(_POINTS_AT).substitute(common, NAME=points_at, CARD_POINTS=card_points))
        if unrolled:        # the reading cards of the deck, each tested on the display's mask
            uses.add("mask")
            read = "    order = []\n" + "".join(f"    if mask & {literal(1 << card)}:\n        order.append(where[{literal(card)}])\n"
                                             for card in sorted(by_card)) + "    order.sort()\n"
            order = "order"
        else:
            order = f"{w.bind('in_order', sorted)}([where[card] for card in {w.bind('cards_of', cards_of)}(gs.mask & {literal(_mask(by_card))})])"
        read += Template(_READ).substitute(common, ORDER=order)
    name = w.name("display_points")
    locals_ = "".join(f"    {line}\n" for word, line in _LOCALS if word in uses)
    w.lines(Template(_DISPLAY_POINTS).substitute(common, NAME=name, LOCALS=locals_, PLAIN="".join(plain), READ=read))
    return name


def _reads_points(node) -> bool:
    return any(isinstance(item, n.Ref) and item.name == "points" for item in n.walk(node))


def _plain_cards(w, rule, cards, owners, owner: str, uses: set) -> str:
    """The lines giving each card of a rule that reads no points its points (`_PLAIN_CARD`,
    the rule written once per seat), or the loop of `_plain` for a rule that needs a closure."""
    node, compiler = rule
    texts = {}
    for seat in sorted({owners[card] for card in cards}):
        source = _Source(w, compiler, None)
        source.seat = literal(seat)
        texts[seat] = source.write(node), source.uses
        if "h" in source.uses:
            return _plain(w, rule, cards, owner, uses)
    lines = [f"    # the rule of cards {', '.join(literal(card) for card in cards)}\n"]
    for card in cards:
        expr, used = texts[owners[card]]
        uses |= used | {"mask"}
        bit = f"        bit = where[{literal(card)}]\n" if "bit" in used else ""
        lines.append(Template(_PLAIN_CARD).substitute(CARD=literal(card), ONE=literal(1 << card), BIT=bit, EXPR=expr))
    return "".join(lines)


def _plain(w, rule, cards, owner: str, uses: set) -> str:
    """The loop giving the cards of a rule that reads no points their points (in place)."""
    node, compiler = rule
    source = _Source(w, compiler, None)
    expr = source.write(node)
    uses |= source.uses
    here = w.bind("Here", Here) if "h" in source.uses else ""
    each = "".join("        " + Template(line).substitute(OWNER=owner, HERE=here) + "\n"
                   for word, line in _EACH if word in source.uses or (word == "seat" and re.search(r"\bseat\b", expr)))
    return Template(_PLAIN).substitute(CARDS=literal(_mask(cards)), EACH=each, EXPR=expr,
                                       IDS=", ".join(literal(card) for card in cards))


def _reader(w, rule, points_at: str, owner: str) -> str:
    node, compiler = rule
    source = _Source(w, compiler, points_at)
    body = source.write(node)
    if "bit" in source.uses:
        source.uses.add("occ")
    here = w.bind("Here", Here) if "h" in source.uses else ""
    lines = [line for word, line in _LOCALS if word in source.uses]
    lines += [Template(line).substitute(HERE=here) for word, line in _EACH if word in source.uses and word != "seat"]
    lines = [line.replace("where[card]", "gs.where[card]") for line in lines]
    name = w.name("rule")
    w.lines(Template(_READER).substitute(NAME=name, LOCALS="".join(f"    {line}\n" for line in lines), BODY=body))
    return name
