"""Expressions written out as Python (rulekit/compile/codegen_exprs.py) compute what the
compiler's closures compute.

Issue 16: "the compiler turns a checked rule file into Python source for that game — ... its
scoring and its card rules as plain functions over small ints and bit masks, with the tables
and constants of the file written in as literals"; "Generated source is built from the
checked AST only: identifiers are ones the generator makes itself, values from the file
enter as `repr` of validated ints and strings". A property test: random expressions of
every plain kind (and of kinds the writer leaves to their closures), on random states,
give the same value both ways; and the written source passes the generator's whitelist.
"""
from __future__ import annotations

from types import SimpleNamespace

from hypothesis import HealthCheck, given, settings, strategies as s

from rulekit.compile import codegen
from rulekit.compile.codegen_exprs import Expressions
from rulekit.compile.exprs import BASE_NAMES, ExprCompiler, FuncDef, Compiled, compile_table
from rulekit.dsl import nodes as n

from codegen_check import assert_only_generator_names

INT_NAMES = ["score", "bid", "tricks", "dealt", "hand", "round", "players", "round_tricks", "doubled"]


def _team_sum(compiler, node):
    """A function of a mechanism (as `team_sum(...)`): the writer calls its closure."""
    inner = compiler.compile(node.args[0], "int").fn
    return Compiled(lambda st, p: sum(inner(st, q) for q in range(st.n)) + 1, "int", False)


NAMES = {**BASE_NAMES,
         # a name a mechanism defines (teams, counters): read through its own reader
         "doubled": BASE_NAMES["score"].__class__("int", True, lambda st, p: 2 * st.scores[p]),
         "twice": FuncDef(_team_sum)}
TABLE = n.Table(n.Name("t"), (n.TableEntry(0, 0, n.Int(10)), n.TableEntry(2, 4, n.Int(-5)),
                              n.TableEntry(7, 7, n.Int(3)), n.TableEntry(None, None, n.Int(1))))
WIDE = n.Table(n.Name("w"), (n.TableEntry(-3, -1, n.Int(4)), n.TableEntry(10_000, 10_000, n.Int(8))))


def _tables():
    constant = ExprCompiler({}, {}, _fail)
    return {table.name.text: compile_table(table, lambda e: constant.compile(e).fn(None, 0))
            for table in (TABLE, WIDE)}


def _fail(node, message, hint=None):
    raise ValueError(message)


def _ints(children):
    return s.one_of(
        s.builds(n.BinOp, s.sampled_from(["+", "-", "*", "/", "%"]), children, children),
        s.builds(n.Neg, children),
        s.builds(lambda a: n.Call("abs", (a,)), children),
        s.builds(lambda f, a: n.Call(f, (a,)), s.sampled_from(["max", "min", "sum"]), children),
        s.builds(lambda f, a, b: n.Call(f, (a, b)), s.sampled_from(["max", "min"]), children, children),
        s.builds(lambda t, k: n.Index(t, k), s.sampled_from(["t", "w"]), children),
        s.builds(lambda a: n.Call("twice", (a,)), children),
    )


INT_LEAVES = s.one_of(s.builds(n.Int, s.integers(-7, 12)), s.builds(n.Ref, s.sampled_from(INT_NAMES)))
INTS = s.recursive(INT_LEAVES, _ints, max_leaves=8)


def _bools(children):
    return s.one_of(
        s.builds(n.BoolOp, s.sampled_from(["and", "or"]), children, children),
        s.builds(n.Not, children),
        s.builds(lambda f, a: n.Call(f, (a,)), s.sampled_from(["any", "all"]), children),
    )


COMPARES = s.builds(n.Compare, s.sampled_from(["=", "!=", "<", "<=", ">", ">="]), INTS, INTS)
BOOLS = s.recursive(COMPARES, _bools, max_leaves=4)
EXPRS = s.one_of(INTS, BOOLS, s.builds(n.If, BOOLS, INTS, INTS),
                 s.builds(lambda a: n.Call("count", (a,)), BOOLS))


class Fake(SimpleNamespace):
    """What an expression reads of a state (`State.hand_size` as the engine's)."""

    def hand_size(self, seat):
        return self.hands[seat].bit_count()


@s.composite
def states(draw):
    players = draw(s.integers(2, 6))
    seats = s.lists(s.integers(-150, 150), min_size=players, max_size=players)
    return Fake(
        n=players, round=draw(s.integers(1, 40)), scores=draw(seats), dealt=draw(seats),
        tricks_won=draw(s.lists(s.integers(0, 13), min_size=players, max_size=players)),
        bids=draw(s.lists(s.none() | s.integers(0, 13), min_size=players, max_size=players)),
        hands=draw(s.lists(s.integers(0, 2**66), min_size=players, max_size=players)),
        rules=SimpleNamespace(trick_count=lambda st: 11))


def _compiled(node):
    """(the closure, the written function) for an expression, or None when the compiler
    refuses it (a type error: the checker would have refused the file)."""
    problems = []
    compiler = ExprCompiler(NAMES, _tables(), lambda node, message, hint=None: problems.append(message))
    closure = compiler.compile(node)
    if problems:
        return None
    w = codegen.Writer()
    name = Expressions(w, compiler).function("value", node, "The expression.")
    source = w.source("expressions")
    assert_only_generator_names(source)
    space = {"__builtins__": codegen._BUILTINS, **w.bound}
    exec(compile(source, "<expressions>", "exec"), space)
    return closure.fn, space[name], closure.per_seat


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EXPRS, states(), s.data())
def test_written_expressions_give_what_the_closures_give(node, st, data):
    made = _compiled(node)
    if made is None:
        return
    closure, written, per_seat = made
    seats = range(st.n) if per_seat else [None, data.draw(s.integers(0, st.n - 1))]
    for seat in seats:
        assert written(st, seat) == closure(st, seat), (node, seat)


def test_plain_kinds_are_written_without_closures_and_others_call_theirs():
    compiler = ExprCompiler(NAMES, _tables(), _fail)
    plain = n.Compare(">=", n.Call("max", (n.Ref("score"),)), n.BinOp("+", n.Int(10), n.Index("t", n.Ref("bid"))))
    mechanism = n.Call("twice", (n.Ref("score"),))
    for node in (plain, mechanism):
        compiler.compile(node)
    w = codegen.Writer()
    exprs = Expressions(w, compiler)
    text = exprs.write(plain, "seat")
    assert exprs.plain(plain) and "max(st.scores)" in text and "(10, " in "\n".join(w.head)
    assert not exprs.plain(mechanism) and exprs.plain(n.Ref("round"))
    assert exprs.write(mechanism, "seat").endswith("(st, seat)")


# ---- functions of a seat's cards: `count(taken, hearts)` ------------------------------------
#
# Hearts scores `count(taken, hearts) + 13 * count(taken, spades 12)` for every seat at the
# end of every round; the generator writes such a count as the masks ANDed and counted
# instead of calling the set compiler's closure (two calls and an object per count).

SUIT_MASKS = {"hearts": 0x1FFF, "spades": 0x1FFF << 13, "red": 0x3FFFFFF, "queens": 1 << 11 | 1 << 24}
CARD_MASKS = {"spades 12": 1 << 24, "hearts 2": 1 << 1}
DECK = (1 << 52) - 1


def _words(own_decks: bool):
    from rulekit.compile.cardsets_expr import CardWords
    halves = [DECK & ~(-1 << 26), DECK & (-1 << 26)]
    return CardWords(dict(SUIT_MASKS), [card % 13 + 1 for card in range(52)], halves if own_decks else None,
                     False, None, all_mask=DECK, cards=dict(CARD_MASKS),
                     trumps=[0] + [SUIT_MASKS["hearts"], SUIT_MASKS["spades"], 0x1FFF << 26, 0x1FFF << 39])


def _conditions(children):
    return s.one_of(s.builds(n.BoolOp, s.sampled_from(["and", "or"]), children, children),
                    s.builds(n.Not, children))


CONDITION_LEAVES = s.one_of(
    s.builds(n.Ref, s.sampled_from(sorted(SUIT_MASKS) + ["own", "opponent", "trump", "number"])),
    s.builds(lambda text: n.CardLit(*text.split()[:1], int(text.split()[1])), s.sampled_from(sorted(CARD_MASKS))),
    s.builds(lambda v: n.Compare(">", n.Ref("number"), n.Int(v)), s.integers(0, 13)))   # about each card: a closure
CONDITIONS = s.recursive(CONDITION_LEAVES, _conditions, max_leaves=4)
CARD_SETS = s.recursive(s.builds(n.Ref, s.sampled_from(["hand", "taken"])),
                        lambda inner: s.builds(n.BinOp, s.sampled_from(["+", "-"]), inner, inner), max_leaves=3)
SET_CALLS = s.one_of(
    s.builds(lambda f, a: n.Call(f, (a,)), s.sampled_from(["count", "any"]), CARD_SETS),
    s.builds(lambda f, a, c: n.Call(f, (a, c)), s.sampled_from(["count", "any", "all"]), CARD_SETS, CONDITIONS))


@s.composite
def card_states(draw, own_decks: bool):
    players = 2 if own_decks else draw(s.integers(2, 6))      # a deck of its own for each of two seats
    masks = s.lists(s.integers(0, DECK), min_size=players, max_size=players)
    return Fake(n=players, hands=draw(masks), taken=draw(masks), trump=draw(s.integers(-1, 3)), extra={})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SET_CALLS, s.booleans(), s.data())
def test_written_counts_of_a_seats_cards_give_what_the_closures_give(node, own_decks, data):
    from rulekit.compile.cardsets_expr import SetExprCompiler
    problems = []
    compiler = SetExprCompiler(NAMES, {}, lambda node, message, hint=None: problems.append(message), _words(own_decks))
    closure = compiler.compile(node)
    if problems:
        return
    st = data.draw(card_states(own_decks))
    w = codegen.Writer()
    exprs = Expressions(w, compiler)
    name = exprs.function("value", node, "The expression.")
    source = w.source("expressions")
    assert_only_generator_names(source)
    space = {"__builtins__": codegen._BUILTINS, **w.bound}
    exec(compile(source, "<expressions>", "exec"), space)
    for seat in range(st.n):
        assert space[name](st, seat) == closure.fn(st, seat), (node, seat)


def test_a_count_of_taken_cards_under_card_words_is_written_without_a_closure():
    from rulekit.compile.cardsets_expr import SetExprCompiler
    compiler = SetExprCompiler(NAMES, {}, _fail, _words(True))
    moon = n.BinOp("+", n.Call("count", (n.Ref("taken"), n.Ref("hearts"))),
                   n.BinOp("*", n.Int(13), n.Call("count", (n.Ref("taken"), n.CardLit("spades", 12)))))
    mixed = n.Call("any", (n.BinOp("-", n.Ref("hand"), n.Ref("taken")),
                           n.BoolOp("and", n.Ref("own"), n.Not(n.Ref("trump")))))
    each = n.Call("count", (n.Ref("taken"), n.Compare(">", n.Ref("number"), n.Int(9))))
    for node in (moon, mixed, each):
        compiler.compile(node)
    w = codegen.Writer()
    exprs = Expressions(w, compiler)
    assert exprs.plain(moon) and exprs.plain(mixed)
    assert exprs.write(moon, "seat") == ("((st.taken[seat] & CARDS_1).bit_count()"
                                         " + (13 * (st.taken[seat] & CARDS_2).bit_count()))")
    assert "st.hands[seat] & ~st.taken[seat]" in exprs.write(mixed, "seat")
    assert not exprs.plain(each)            # a condition about each card: its closure is called
