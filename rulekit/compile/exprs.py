"""Expressions → Python closures `f(state, seat)`, type-checked on the way.

Pipeline place: checker and compiler both use this module: the checker for its diagnostics
(unknown names with "did you mean", a number where a condition belongs, a per-seat value
where one value is needed), the compiler for the closures. Closures are built once at load
time; evaluating one never looks at the syntax tree.

Types are "int" and "bool"; a value is *per seat* when it depends on which seat is asked
(`score`, `bid`), and aggregates (`max(score)`, `any(score >= 100)`) fold it over the seats.
"""
from __future__ import annotations

from bisect import bisect_right

import difflib
import operator

from .._records import frozen

from ..dsl import nodes as n


@frozen
class NameDef:
    """A name an expression may read: its type, whether it is per seat, how to read it."""
    type: str
    per_seat: bool
    read: object          # (state, seat) -> value
    doc: str = ""


@frozen
class FuncDef:
    """A function an expression may call beyond the built-in ones (`team_sum(tricks)`):
    `compile(compiler, call_node) -> Compiled` builds its closure."""
    compile: object
    doc: str = ""
    type: str = "int"
    per_seat: bool = False


@frozen
class Unavailable:
    """A known word that cannot be read here: reading it reports `message` and `hint`."""
    message: str
    hint: str | None = None
    type: str = "int"
    per_seat: bool = False


#: Words that only rules declaring something may read (`team_tricks` needs `teams ...`):
#: name -> (message, hint), filled by the modules of those mechanisms.
NEEDS: dict[str, tuple[str, str]] = {}


def _seat_list(attr):
    return lambda st, p: getattr(st, attr)[p]


#: Names every game has.
BASE_NAMES = {
    "score": NameDef("int", True, _seat_list("scores"), "the seat's running total"),
    "bid": NameDef("int", True, lambda st, p: st.bids[p] if st.bids[p] is not None else 0,
                   "the seat's bid this round"),
    "tricks": NameDef("int", True, _seat_list("tricks_won"), "tricks the seat took this round"),
    "dealt": NameDef("int", True, _seat_list("dealt"), "how many rounds the seat has dealt"),
    "hand": NameDef("int", True, lambda st, p: st.hand_size(p), "cards in the seat's hand"),
    "round": NameDef("int", False, lambda st, p: st.round, "the round number, from 1"),
    "players": NameDef("int", False, lambda st, p: st.n, "how many play"),
    "round_tricks": NameDef("int", False, lambda st, p: st.rules.trick_count(st),
                            "how many tricks this round plays"),
}

#: Names read only while a seat chooses its bid: in the bid option `not allowed when ...`,
#: which is read for the bidder (`bid` is then the bid it considers).
BID_NAMES = {
    "last_bidder": NameDef("bool", False, lambda st, p: st.bids[(p + 1) % st.n] is not None,
                           "the bidder is the last to bid this round"),
}
#: Where each name of `BID_NAMES` may be read, for the message when it is read elsewhere.
_ONLY_IN = {name: "a bid's `not allowed when ...`" for name in BID_NAMES}

_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul,
          "/": lambda a, b: a // b if b else 0, "%": lambda a, b: a % b if b else 0}
_COMPARE = {"=": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}
_FOLDS = {"max": max, "min": min, "sum": sum}
_TESTS = {"any": any, "all": all, "count": lambda values: sum(1 for v in values if v)}


def suggest(word: str, known) -> str | None:
    """A "did you mean" hint for a misspelt word, or None."""
    close = difflib.get_close_matches(word, sorted(known), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None


@frozen
class Compiled:
    fn: object
    type: str
    per_seat: bool


class ExprCompiler:
    """Compiles expressions against a set of names and tables, reporting problems.

    `report(node, message, hint)` receives every problem; compilation goes on with a
    harmless stand-in so that all problems in a file are found in one pass.
    """

    def __init__(self, names: dict, tables: dict, report):
        self.names, self.tables = names, tables
        self.problems = 0
        #: id(node) -> its closure, for every node compiled (the generator calls those it
        #: does not write out itself: compile/codegen_exprs.py)
        self.compiled: dict[int, Compiled] = {}

        def counted(node, message, hint=None):
            self.problems += 1
            report(node, message, hint)
        self.report = counted

    def compile(self, node, want: str | None = None, per_seat_ok: bool = True) -> Compiled:
        before = self.problems
        result = self._compile(node)
        if self.problems > before:
            return result           # one problem at a time: no follow-on complaints
        if want and result.type != want:
            self.report(node, f"expected {_type_word(want)} here, found {_type_word(result.type)}",
                        "compare with = or >= to make a condition" if want == "bool" else
                        "use `if ... then ... else ...` to turn a condition into a number")
        if result.per_seat and not per_seat_ok:
            self.report(node, "this value differs from seat to seat, but one value is needed here",
                        "fold it over the seats: max(...), min(...), sum(...), any(...), all(...)")
        return result

    def _compile(self, node) -> Compiled:
        result = self.compiled[id(node)] = self._dispatch(node)
        return result

    def _dispatch(self, node) -> Compiled:
        word = node.name if isinstance(node, n.Ref) else node.func if isinstance(node, n.Call) else None
        if word is not None:
            known = self.names.get(word)
            if isinstance(known, FuncDef) and isinstance(node, n.Call):
                return known.compile(self, node)
            if isinstance(known, (FuncDef, Unavailable)) or (known is None and word in NEEDS):
                message, hint = (known.message, known.hint) if isinstance(known, Unavailable) else \
                    NEEDS[word] if known is None else (f"`{word}` is a function", f"write `{word}(...)`")
                self.report(node, message, hint)
                return Compiled(lambda st, p: 0, getattr(known, "type", "int"), False)
        if isinstance(node, n.Ref) and node.name in _ONLY_IN and node.name not in self.names:
            self.report(node, f"`{node.name}` can only be read in {_ONLY_IN[node.name]}",
                        "it is known while a seat chooses its bid, not here")
            return Compiled(lambda st, p: False, BID_NAMES[node.name].type, False)
        method = getattr(self, "_" + type(node).__name__.lower(), None)
        if method is None:          # a construct of a richer compiler (card sets, cards) used here
            self.report(node, "this cannot be used here: a number or a condition is expected",
                        "write a number, a name like `bid` or `tricks`, or an expression of them")
            return Compiled(lambda st, p: 0, "int", False)
        return method(node)

    def _int(self, node):
        value = node.value
        return Compiled(lambda st, p: value, "int", False)

    def _ref(self, node):
        known = self.names.get(node.name)
        if known is None:
            self.report(node, f"unknown name `{node.name}`",
                        suggest(node.name, list(self.names) + list(self.tables)))
            return Compiled(lambda st, p: 0, "int", False)
        return Compiled(known.read, known.type, known.per_seat)

    def _index(self, node):
        key = self.compile(node.key, "int")
        table = self.tables.get(node.table)
        if table is None:
            self.report(node, f"unknown table `{node.table}`", suggest(node.table, self.tables))
            return Compiled(lambda st, p: 0, "int", key.per_seat)
        lookup, kf = table, key.fn
        return Compiled(lambda st, p: lookup(kf(st, p)), "int", key.per_seat)

    def _call(self, node):
        name, args = node.func, node.args
        if name == "abs" and len(args) == 1:
            a = self.compile(args[0], "int").fn
            return Compiled(lambda st, p: abs(a(st, p)), "int", self._compile(args[0]).per_seat)
        if name in _FOLDS and len(args) == 1:
            return self._fold(node, _FOLDS[name], "int", "int")
        if name in _TESTS and len(args) == 1:
            return self._fold(node, _TESTS[name], "bool", "int" if name == "count" else "bool")
        if name in ("max", "min") and len(args) > 1:
            parts = [self.compile(a, "int") for a in args]
            fold, fns = _FOLDS[name], [c.fn for c in parts]
            return Compiled(lambda st, p: fold(f(st, p) for f in fns), "int", any(c.per_seat for c in parts))
        known = ["abs", *_FOLDS, *_TESTS]
        if name in known:
            self.report(node, f"`{name}` takes {'one value' if name != 'max' else 'values'}, not {len(args)}")
        else:
            self.report(node, f"unknown function `{name}`", suggest(name, known))
        return Compiled(lambda st, p: 0, "int", False)

    def _fold(self, node, fold, arg_type, result_type):
        before = self.problems
        inner = self.compile(node.args[0], arg_type)
        if not inner.per_seat and self.problems == before:
            self.report(node, f"`{node.func}` folds a value over the seats, but this one is the same for all",
                        "write it without the fold")
        f = inner.fn
        return Compiled(lambda st, p: fold([f(st, q) for q in range(st.n)]), result_type, False)

    def _binop(self, node):
        a, b = self.compile(node.left, "int"), self.compile(node.right, "int")
        op, fa, fb = _ARITH[node.op], a.fn, b.fn
        return Compiled(lambda st, p: op(fa(st, p), fb(st, p)), "int", a.per_seat or b.per_seat)

    def _compare(self, node):
        a, b = self.compile(node.left, "int"), self.compile(node.right, "int")
        op, fa, fb = _COMPARE[node.op], a.fn, b.fn
        return Compiled(lambda st, p: op(fa(st, p), fb(st, p)), "bool", a.per_seat or b.per_seat)

    def _boolop(self, node):
        a, b = self.compile(node.left, "bool"), self.compile(node.right, "bool")
        fa, fb = a.fn, b.fn
        fn = ((lambda st, p: fa(st, p) and fb(st, p)) if node.op == "and"
              else (lambda st, p: fa(st, p) or fb(st, p)))
        return Compiled(fn, "bool", a.per_seat or b.per_seat)

    def _not(self, node):
        a = self.compile(node.operand, "bool")
        f = a.fn
        return Compiled(lambda st, p: not f(st, p), "bool", a.per_seat)

    def _neg(self, node):
        a = self.compile(node.operand, "int")
        f = a.fn
        return Compiled(lambda st, p: -f(st, p), "int", a.per_seat)

    def _if(self, node):
        c = self.compile(node.condition, "bool")
        a, b = self._compile(node.then), self._compile(node.otherwise)
        if a.type != b.type:
            self.report(node, "both branches of `if` must give the same kind of value")
        fc, fa, fb = c.fn, a.fn, b.fn
        return Compiled(lambda st, p: fa(st, p) if fc(st, p) else fb(st, p), a.type,
                        c.per_seat or a.per_seat or b.per_seat)


def _type_word(kind: str) -> str:
    return {"int": "a number", "bool": "a condition"}.get(kind, kind)


def compile_table(table: n.Table, compile_value) -> object:
    """A table → `lookup(key) -> int`. Entries are tried in order; `else` catches the rest."""
    entries, default = [], None
    for entry in table.entries:
        value = compile_value(entry.value)
        if entry.low is None:
            default = value
        else:
            entries.append((entry.low, entry.high, value))
    low = min((e[0] for e in entries), default=0)
    high = max((e[1] for e in entries), default=-1)
    fallback = default if default is not None else 0
    if high - low <= 4096:
        dense = [fallback] * (high - low + 1)
        for lo, hi, value in reversed(entries):     # the first entry of a key wins
            dense[lo - low:hi - low + 1] = [value] * (hi - lo + 1)
        lookup = lambda key: dense[key - low] if low <= key <= high else fallback   # noqa: E731
        lookup.dense = (low, tuple(dense), fallback)        # what the generator writes out
        return lookup
    ranges = sorted(entries, key=lambda e: e[0])    # the checker refuses keys given twice
    starts = [e[0] for e in ranges]

    def lookup(key):
        at = bisect_right(starts, key) - 1
        return ranges[at][2] if at >= 0 and key <= ranges[at][1] else fallback
    return lookup
