"""Random card rules on a grid: whatever a designer writes in a card's `scores` rule, in
`score at end` and in the winner keys, the generated end of the game (compile/codegen_grid_end.py,
codegen_grid_points.py) gives the points, scores and winners the compiler's closures give.

The hand-written texts of `test_grid_end.py` cover the shipped game and a few more forms;
here Hypothesis writes the rules from the language's card-set forms (language reference,
"Card sets": `count`, `any`, `all`, `sum`, `max`, `min` over `display`, `centre`, `corners`,
`edges`, `adjacent4`, `adjacent8`, `row`, `column`, `hand`, `S + T`, `S - T`; conditions
about one card: a name, a colour, `own`, `opponent`, `other`, `number`, `points`, `in corner`,
`on edge`, `in centre`), with arithmetic (`/` and `%` by zero give 0), `if ... then ... else`
and tables, so that every way the writer has of putting a form into code meets a game.

Issue 16: "The generated module is readable ... a failing test can show the generated line";
"the golden playthroughs, rulebook tests and property tests are the safety net".
"""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st_

import rulekit
from rulekit.compile import codegen

from codegen_check import assert_only_generator_names
from test_grid_end import _play_both, same_end_at_a_random_position

ROOT = Path(__file__).resolve().parent.parent

NAMES = ("fox", "hen", "elk", "ant", "bee")
#: sets that never hold the card whose rule reads them, and those that may
NEIGHBOURS = ("adjacent4", "adjacent8")
REGIONS = ("display", "centre", "corners", "edges", "row", "column")
PLACES = ("in corner", "on edge", "in centre", "on centre", "in edge")
COMPARE = ("=", "!=", "<", "<=", ">", ">=")


@st_.composite
def card_sets(draw, in_rule: bool) -> str:
    """A card set: a region, a card's neighbours or lines (in a card's rule), the hand, or two
    of them joined."""
    plain = ("display", "centre", "corners", "edges", "hand") + ((*NEIGHBOURS, "row", "column") if in_rule else ())
    first = draw(st_.sampled_from(plain))
    if draw(st_.integers(0, 3)):
        return first
    return f"{first} {draw(st_.sampled_from('+-'))} {draw(st_.sampled_from(plain))}"


@st_.composite
def card_conditions(draw, depth: int, in_rule: bool, points: bool) -> str:
    """A condition about one card of a set (`points` only where the set may not hold the card
    asking, or with `other`, as the checker requires)."""
    kinds = ["name", "colour", "owner", "number", "place"] + (["other"] if in_rule else []) + \
        (["points"] if points else []) + (["not", "and", "or"] if depth > 0 else [])
    kind = draw(st_.sampled_from(kinds))
    if kind == "name":
        return draw(st_.sampled_from(NAMES))
    if kind == "colour":
        return draw(st_.sampled_from(("black", "white")))
    if kind == "owner":
        return draw(st_.sampled_from(("own", "opponent")))
    if kind == "other":
        return "other"
    if kind == "number":
        return f"number {draw(st_.sampled_from(COMPARE))} {draw(st_.integers(0, 7))}"
    if kind == "points":
        return f"points {draw(st_.sampled_from(COMPARE))} {draw(st_.integers(0, 4))}"
    if kind == "place":
        return draw(st_.sampled_from(PLACES))
    inner = card_conditions(depth - 1, in_rule, points)
    if kind == "not":
        return f"not {draw(inner)}"
    return f"({draw(inner)} {kind} {draw(inner)})"


@st_.composite
def set_reads(draw, depth: int, in_rule: bool) -> str:
    """`count`, `sum`, `max` or `min` over a set (`any` and `all` are truths: `truths`); in a
    card's rule, `points` is read over a card's neighbours, or over any set with `other` first."""
    func = draw(st_.sampled_from(("count", "count", "sum", "max", "min")))
    cards = draw(card_sets(in_rule))
    near = cards in NEIGHBOURS
    reads_points = draw(st_.booleans())
    if in_rule and reads_points and not near:
        guard = "other and "
    else:
        guard = ""
    condition = draw(st_.none() | card_conditions(min(depth, 2), in_rule, reads_points))
    if in_rule and reads_points and not near and condition is None:
        condition = "other"
    elif condition is not None:
        condition = guard + condition
    if func == "count":
        return f"count({cards})" if condition is None else f"count({cards}, {condition})"
    value = "points" if reads_points else "number"
    return f"{func}({cards}, {value})" if condition is None else f"{func}({cards}, {condition}, {value})"


@st_.composite
def numbers(draw, depth: int, in_rule: bool) -> str:
    """A number: a literal, a set read, arithmetic, a table entry, or `if ... then ... else`."""
    kinds = ["int", "set", "set"] + (["arith", "neg", "if", "table"] if depth > 0 else [])
    kind = draw(st_.sampled_from(kinds))
    if kind == "int":
        return str(draw(st_.integers(0, 9)))
    if kind == "set":
        return draw(set_reads(depth, in_rule))
    inner = numbers(depth - 1, in_rule)
    if kind == "arith":
        return f"({draw(inner)} {draw(st_.sampled_from('+-*/%'))} {draw(inner)})"
    if kind == "neg":
        return f"-{draw(inner)}"
    if kind == "table":
        return f"bonus[{draw(inner)}]"
    return f"(if {draw(truths(depth - 1, in_rule))} then {draw(inner)} else {draw(inner)})"


@st_.composite
def truths(draw, depth: int, in_rule: bool) -> str:
    """A test: a comparison of numbers, a set read that is a truth (`any`, `all`), where the
    card lies (in its own rule), or a combination."""
    kinds = ["compare", "set"] + (["place"] if in_rule else []) + (["not", "and", "or"] if depth > 0 else [])
    kind = draw(st_.sampled_from(kinds))
    if kind == "compare":
        return f"{draw(numbers(max(depth - 1, 0), in_rule))} {draw(st_.sampled_from(COMPARE))} {draw(st_.integers(0, 5))}"
    if kind == "set":
        func = draw(st_.sampled_from(("any", "all")))
        cards = draw(card_sets(in_rule))
        return f"{func}({cards}, {draw(card_conditions(1, in_rule, cards in NEIGHBOURS))})"
    if kind == "place":
        return draw(st_.sampled_from(PLACES))
    inner = truths(depth - 1, in_rule)
    if kind == "not":
        return f"not {draw(inner)}"
    return f"({draw(inner)} {kind} {draw(inner)})"


@st_.composite
def rule_files(draw) -> str:
    """A grid game over Duell's board and round: five kinds of card a seat (the last two
    share a name), random scoring rules, end score, winner keys and end."""
    rules = [draw(st_.none() | numbers(2, True)) for _ in range(4)]
    deck = []
    for index, name in enumerate(NAMES[:4]):
        cards = f"{name} {index + 1}" if index < 3 else f"{name} 4, {name} 5"
        deck.append(f"  {cards}" + (f"  scores {rules[index]}" if rules[index] is not None else ""))
    deck.append(f"  {NAMES[4]} 6")
    final = draw(st_.sampled_from(("sum(display, own, points)", "count(display, own)")))
    if draw(st_.booleans()):
        final = f"{final} + {draw(numbers(1, False))}"
    keys = ", then ".join(f"{draw(st_.sampled_from(('highest', 'lowest')))} {key}" for key in
                          ["score"] + [draw(numbers(1, False)) for _ in range(draw(st_.integers(0, 2)))])
    return (f'extend "duell-der-tiere"\n'
            "player decks black, white {\n" + "\n".join(deck) + "\n}\n"
            "table bonus { 0: 4, 1..3: 2, 7: -1, else: 0 }\n"
            f"score at end -> {final}\n"
            f"winner {keys}\n"
            "end when count(display) = 12\n")


def _games(text: str):
    """The game as generated, and as the compiler's closures run it (the generator off)."""
    generated = rulekit.loads(text, base_dir=str(ROOT / "rules"))
    generated.ruleset(2)
    previous, codegen.ENABLED = codegen.ENABLED, False
    try:
        reference = rulekit.loads(text, base_dir=str(ROOT / "rules"))
        reference.ruleset(2)
    finally:
        codegen.ENABLED = previous
    return generated, reference


CI = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LONG = settings(CI, max_examples=2000)


@CI
@given(text=rule_files(), data=st_.data())
def test_random_card_rules_score_as_the_closures_on_random_positions_and_games(text, data):
    _same_end(text, data)


@pytest.mark.fuzz
@LONG
@given(text=rule_files(), data=st_.data())
def test_random_card_rules_under_a_long_fuzz(text, data):
    _same_end(text, data)


def _same_end(text: str, data) -> None:
    """Random positions of a random grid game (restored from views) and one random game to
    its end: the views, the final scores and winners of the generated end and of the closures."""
    generated, reference = _games(text)
    assert_only_generator_names(codegen.source_of(generated.ruleset(2)))
    for _ in range(3):
        same_end_at_a_random_position(generated, reference, data)
    _play_both(generated, reference, [data.draw(st_.integers(0, 2**32))], records=True)
