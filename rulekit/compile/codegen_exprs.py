"""The compiler's expressions → Python source: `10 + bonus[bid]`, `max(score) >= 100`.

Pipeline place: compiler (`exprs.py` built the closures) → **codegen** (expressions) →
the generated module. Any generator that runs a rule file's expression (the end of a
round, the end of the game, the winners, a grid game's end) asks `Expressions.write` for
the source of one: an expression over `st` and a seat variable the caller names, made of
Python operators, the state's own lists (`st.scores[seat]`, `max(st.scores)`) and the
file's tables as literal tuples.

Only the checked tree is read, and only through the compiler that compiled it: a node is
written out when it is one of the plain kinds below (numbers, the names every game has,
tables, arithmetic, comparisons, `and`/`or`/`not`, `if`, `abs`, the folds over the seats
and over a team's seats) and the compiler treated it as the plain kind (a name a
mechanism defines, a card word or another function a mechanism defines is none); any
other node is called as the closure the compiler built for it (`ExprCompiler.compiled`,
bound under a generated name), so the source computes exactly what the closures compute.
Every identifier is the generator's own (`Writer.name`); numbers enter as `repr` of
validated ints (`literal`); no name or text of the rule file is ever written.
"""
from __future__ import annotations

from ..dsl import nodes as n
from ..dsl.checker import MAX_PLAYERS
from .codegen import literal
from .exprs import BASE_NAMES

#: the state's list that a per-seat base name reads as it is: `name[seat]`
_LISTS = {"score": "scores", "tricks": "tricks_won", "dealt": "dealt"}
_ARITH = {"+": "+", "-": "-", "*": "*"}
_GUARDED = {"/": "//", "%": "%"}           # 0 when dividing by 0, as the closures do
_COMPARE = {"=": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
#: the names a card-set compiler reads as card words before the game's names
_CARD_WORDS = frozenset({"trump", "rank", "own", "opponent", "other", "number", "points"})


class NotWritten(Exception):
    """An expression node has neither a plain form nor a closure the compiler kept: the
    caller calls the whole expression's closure instead."""


class Expressions:
    """Writes expressions compiled by `compiler` (an `ExprCompiler`) into `w` (a `Writer`)."""

    def __init__(self, w, compiler):
        self.w, self.compiler = w, compiler
        self.names = compiler.names
        words = getattr(compiler, "words", None)
        self.card_words = set(getattr(words, "kinds", ())) | _CARD_WORDS if words is not None else set()
        self.closures = 0           # how many closures the last `write` calls (0: all plain)
        self.shared = None          # a `Shared` while a caller reads repeated reads once

    # ---- the entry points ------------------------------------------------------------------

    def write(self, node, seat: str = "seat") -> str:
        """The source of `node` as one Python expression reading `st` and the variable named
        `seat` (a generated name or a template word); raises `NotWritten`."""
        self.closures = 0
        return self._write(node, seat)

    def function(self, prefix: str, node, doc: str) -> str:
        """A module function `NAME(st, seat)` returning the expression's value; its name."""
        body = self.write(node, "seat")
        name = self.w.name(prefix)
        self.w.lines(f"def {name}(st, seat):\n    \"\"\"{doc}\"\"\"\n    return {body}\n")
        return name

    def plain(self, node) -> bool:
        """Is `node` written without any closure?"""
        from .codegen import Writer
        scratch = Expressions(Writer(), self.compiler)
        try:
            scratch.write(node)
        except NotWritten:
            return False
        return scratch.closures == 0

    # ---- nodes --------------------------------------------------------------------------------

    def _write(self, node, seat: str) -> str:
        method = getattr(self, "_" + type(node).__name__.lower(), None)
        text = method(node, seat) if method is not None else None
        return text if text is not None else self._closure(node, seat)

    def _closure(self, node, seat: str) -> str:
        found = getattr(self.compiler, "compiled", {}).get(id(node))
        if found is None:
            raise NotWritten(type(node).__name__)
        self.closures += 1
        return f"{self.w.bind('expr', found.fn)}(st, {seat})"

    def _int(self, node, seat):
        if node.value.__class__ is not int:
            return None
        text = literal(node.value)
        return f"({text})" if node.value < 0 else text

    def _ref(self, node, seat):
        name = node.name
        known = self.names.get(name)
        if known is None or name in self.card_words:
            return None
        if known is not BASE_NAMES.get(name):     # a mechanism's own name: its reader, bound
            read = getattr(known, "read", None)
            if read is None:
                return None
            self.closures += 1
            return self._share(f"{self.w.bind('read', read)}(st, {seat})", seat)
        if name in _LISTS:
            return f"st.{_LISTS[name]}[{seat}]"
        if name == "bid":
            bid = self.w.name("bid")
            return f"({bid} if ({bid} := st.bids[{seat}]) is not None else 0)"
        if name == "hand":
            return f"st.hands[{seat}].bit_count()"
        if name == "round":
            return "st.round"
        if name == "players":
            return "st.n"
        self.closures += 1
        return f"{self.w.bind('read', known.read)}(st, {seat})"

    def _index(self, node, seat):
        lookup = self.compiler.tables.get(node.table)
        dense = getattr(lookup, "dense", None)
        if dense is None:
            return None
        low, values, fallback = dense
        key = self.w.name("key")
        text = self._write(node.key, seat)
        table = self.w.const("TABLE", tuple(values), "a table of the rule file, from its lowest key")
        at = key if low == 0 else f"{key} - {literal(low)}" if low > 0 else f"{key} + {literal(-low)}"
        return (f"({table}[{at}] if {_int_text(low)} <= ({key} := {text}) <= {_int_text(low + len(values) - 1)} "
                f"else {_int_text(fallback)})")

    def _call(self, node, seat):
        func, args = node.func, node.args
        if func in self.names:
            return self._team_fold(node, seat)
        if self._set_call(node):
            return self._set_count(node, seat)
        if func == "abs" and len(args) == 1:
            return f"abs({self._write(args[0], seat)})"
        if func in ("max", "min") and len(args) > 1:
            return f"{func}({', '.join(self._write(a, seat) for a in args)})"
        if len(args) != 1 or func not in ("max", "min", "sum", "any", "all", "count"):
            return None
        inner = args[0]
        if isinstance(inner, n.Ref) and inner.name in _LISTS and self._ref(inner, seat) is not None \
                and func in ("max", "min", "sum"):
            return f"{func}(st.{_LISTS[inner.name]})"         # the list itself: no copy
        each = self.w.name("each")
        value = self._write(inner, each)
        if func == "count":
            return f"sum([1 for {each} in range(st.n) if {value}])"
        return f"{func}([{value} for {each} in range(st.n)])"

    def _team_fold(self, node, seat):
        """`team_sum(x)`, `team_any(x)`, `team_all(x)`: `x` read as one seat's value for each
        seat of the team (itself included), and folded, as `teams._team_fold` does; None for
        any other function a mechanism defines, whose closure is called."""
        marked = getattr(getattr(self.names.get(node.func), "compile", None), "team_fold", None)
        if marked is None or len(node.args) != 1:
            return None
        fold, plan = marked
        members = team_members(self.w, plan)
        # a fold that may be shared is written the same each time (a comprehension's own name)
        each = "member" if self.shared is not None and seat == "seat" else self.w.name("each")
        names = self.names
        self.names = getattr(names, "seat_names", None) or names    # inside: the words of one seat
        try:
            value = self._write(node.args[0], each)
        finally:
            self.names = names
        return self._share(f"{fold}([{value} for {each} in {members}[st.n][{seat}]])", seat)

    def _share(self, text: str, seat: str) -> str:
        """`text`, or the local that holds its value when the caller reads it once (`Shared`)."""
        if self.shared is None or seat != "seat":
            return text
        return self.shared.use(text)

    def _set_count(self, node, seat):
        """`count`, `any` or `all` of a seat's hand or taken cards (or sums and differences of
        them), under a condition made of card words only: the masks ANDed and counted, as the
        closure does (`cardsets_expr._mask_count`); None for any other set function, whose
        closure is called. The sets and the conditions' masks are read as a grid game's
        game-level sets are (`codegen_grid_points._Source.cards`, `card_masks`)."""
        func, args = node.func, node.args
        if func not in ("count", "any", "all") or len(args) > 2 or (func == "all" and len(args) != 2) \
                or not _seat_cards(args[0]):
            return None
        from .codegen_grid_points import _Source          # only games that count cards need it
        source = _Source(self.w, self.compiler, None)
        source.scope, source.seat = "game", seat
        cards = source.cards(args[0])
        mask = self._card_mask(source, args[1]) if len(args) == 2 else None
        if len(args) == 2 and mask is None:
            return None
        if func == "all":
            return f"({cards} & ~{mask} == 0)"
        if mask is not None:
            cards = f"({cards} & {mask})"
        return f"{cards}.bit_count()" if func == "count" else f"({cards} != 0)"

    def _card_mask(self, source, node):
        """The cards a condition of card words admits, as source: its masks worked out here
        when they are constants (`_Source.card_masks`: suits, colours, card names, a card,
        `own`, `opponent`, with `and`, `or`, `not`), else written part by part around the
        trumps of the moment (`trump`); None for a condition about each card."""
        masks = source.card_masks(node)
        if masks is not None:
            if len(set(masks)) == 1:
                return self.w.const("CARDS", masks[0], "the cards a condition names, as a mask")
            return f"{self.w.const('SEAT_CARDS', masks, 'the cards a condition names, by seat')}[{source.seat}]"
        words = self.compiler.words
        if isinstance(node, n.Ref) and node.name == "trump" and node.name not in self.names \
                and words.trumps is not None:
            return f"{self.w.const('TRUMPS', tuple(words.trumps), 'the trumps by trump + 1, as a mask')}[st.trump + 1]"
        if isinstance(node, n.BoolOp) and node.op in ("and", "or"):
            left, right = self._card_mask(source, node.left), self._card_mask(source, node.right)
            if left is None or right is None:
                return None
            return f"({left} {'&' if node.op == 'and' else '|'} {right})"
        if isinstance(node, n.Not):
            inner = self._card_mask(source, node.operand)
            if inner is None:
                return None
            return f"({self.w.const('ALL_CARDS', words.all_mask, 'every card, as a mask')} & ~{inner})"
        return None

    def _set_call(self, node) -> bool:
        """Does a card-set compiler read this call as a function of a set (`count(hand)`)?"""
        if not self.card_words or not node.args:
            return False
        from .cardsets_expr import SET_FUNCS, _is_set
        return node.func in SET_FUNCS and _is_set(node.args[0])

    def _binop(self, node, seat):
        left, right = self._write(node.left, seat), self._write(node.right, seat)
        if node.op in _ARITH:
            return f"({left} {_ARITH[node.op]} {right})"
        if node.op not in _GUARDED:
            return None
        by = self.w.name("by")
        return f"({left} {_GUARDED[node.op]} {by} if ({by} := {right}) else 0)"

    def _compare(self, node, seat):
        op = _COMPARE.get(node.op)
        if op is None:
            return None
        return f"({self._write(node.left, seat)} {op} {self._write(node.right, seat)})"

    def _boolop(self, node, seat):
        if node.op not in ("and", "or"):
            return None
        return f"({self._write(node.left, seat)} {node.op} {self._write(node.right, seat)})"

    def _not(self, node, seat):
        return f"(not {self._write(node.operand, seat)})"

    def _neg(self, node, seat):
        return f"(-{self._write(node.operand, seat)})"

    def _if(self, node, seat):
        return (f"({self._write(node.then, seat)} if {self._write(node.condition, seat)} "
                f"else {self._write(node.otherwise, seat)})")


def _int_text(value) -> str:
    text = literal(value)
    return f"({text})" if value < 0 else text


def _seat_cards(node) -> bool:
    """Is a set a seat's own cards: `hand`, `taken`, or sums and differences of them?"""
    if isinstance(node, n.BinOp) and node.op in ("+", "-"):
        return _seat_cards(node.left) and _seat_cards(node.right)
    return isinstance(node, n.Ref) and node.name in ("hand", "taken")


#: every player count a constant by player count is written for
PLAYER_COUNTS = range(MAX_PLAYERS + 1)


def team_members(w, plan) -> str:
    """The constant `MEMBERS[players][seat]`: the seats of each seat's team, itself first, for
    every player count (`teams.TeamPlan.members`)."""
    return w.const("MEMBERS", tuple(map(plan.members, PLAYER_COUNTS)),
                   "the seats of each seat's team (itself first), by player count")


class Shared:
    """Reads of a mechanism's name and team folds that several cases of a score part repeat
    (`team_any(makers)` in three cases): written once as locals at the top of the part's loop
    and read from there. Used in two passes over the same cases: `counting` finds the texts
    that come more than once, then each of those gets a local. Only reads of the loop's own
    seat (`seat`) in the cases' tests and points are shared: the locals are set at the top of
    each turn of the loop, before that seat's case changes a counter (a case's changes read
    afresh, after the changes before them), and the expressions have no side effects and are
    defined on every state, so reading them first gives what each case would read."""

    def __init__(self, w):
        self.w, self.counting, self.seen, self.locals = w, True, {}, {}

    def use(self, text: str) -> str:
        if self.counting:
            self.seen[text] = self.seen.get(text, 0) + 1
            return text
        if self.seen.get(text, 0) < 2:
            return text
        if text not in self.locals:
            self.locals[text] = self.w.name("shared")
        return self.locals[text]

    def lines(self, indent: str) -> list[str]:
        """The locals' assignments, in the order the cases first read them."""
        return [f"{indent}{name} = {text}" for text, name in self.locals.items()]
