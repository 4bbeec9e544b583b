"""Every problem at once, past syntax errors (issue #10): the parser recovers, reports each
syntax error once, and the checker adds the unknown names it can still trust."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

import rulekit
from rulekit.api import _bundled_dir
from rulekit.dsl.parser import parse_all

INSTINCT = (_bundled_dir() / "instinct.rules").read_text()


def diagnostics(text):
    with pytest.raises(rulekit.RuleError) as caught:
        rulekit.loads(text, file="t.rules")
    return [(d.line, d.column, d.message, d.hint) for d in caught.value.diagnostics]


def line_of(text, fragment):
    return text[: text.index(fragment)].count("\n") + 1


def test_a_syntax_error_and_two_name_errors_are_reported_together():
    text = INSTINCT.replace("made   -> 10", "made   10").replace("dealer random, then next",
                                                                 "dealer randon, then nxt")
    found = diagnostics(text)
    assert [m for _, _, m, _ in found] == ["unknown dealer rule `randon`", "unknown dealer rotation `nxt`",
                                          "unexpected `10`; expected `->`"]


def test_two_syntax_errors_in_two_sections_are_both_reported():
    text = INSTINCT.replace("lead is trump -> any", "lead is trump any").replace(
        "made   -> 10", "made   10")
    found = diagnostics(text)
    assert [(line, m) for line, _, m, _ in found] == [
        (line_of(text, "lead is trump any"), "unexpected `any`; expected `->`, `or`"),
        (line_of(text, "made   10"), "unexpected `10`; expected `->`")]


@pytest.mark.parametrize("right, wrong, word, meant", [
    ("follow {", "folow {", "folow", "follow"),
    ("trick winner {", "trick winer {", "winer", "winner"),
    ("deal 11 each", "deel 11 each", "deel", "deal"),
    ("order rank", "oder rank", "oder", "order")])
def test_a_misspelt_keyword_gets_did_you_mean(right, wrong, word, meant):
    text = INSTINCT.replace(right, wrong)
    ((line, column, message, hint),) = diagnostics(text)
    assert message.startswith(f"unexpected `{word}`")
    assert hint == f"did you mean `{meant}`?"
    assert line == line_of(text, wrong)


def test_a_misspelt_clause_keyword_does_not_hide_a_misspelt_name():
    text = INSTINCT.replace("deal 11 each", "deel 11 each").replace("end when max(score)", "end when max(scroe)")
    messages = [m for _, _, m, _ in diagnostics(text)]
    assert messages[0].startswith("unexpected `deel`")
    assert "unknown name `scroe`" in messages
    assert not any("dealt" in m for m in messages)      # the skipped deal is no finding of its own


def test_an_unclosed_block_is_reported_where_it_was_opened():
    text = INSTINCT.replace("  order rank\n}", "  order rank\n")
    ((line, column, message, hint),) = diagnostics(text)
    assert (line, column) == (line_of(text, "deck {"), len("deck {"))
    assert message == "this `{` of `deck` is never closed"
    assert hint == f"close the `deck` block with `}}` before line {line_of(text, 'round {')}"


def test_an_unclosed_block_at_the_end_of_the_file():
    text = INSTINCT.rstrip().removesuffix("}")
    ((line, column, message, hint),) = diagnostics(text)
    last = [row for row in text.splitlines() if row.startswith("variant ")][-1]
    assert line == line_of(text, last)
    assert message == "this `{` of `variant` is never closed"
    assert hint == "close the `variant` block with `}` at its end"


def test_names_are_not_reported_when_the_deck_itself_is_damaged():
    """`suits black blue` loses `blue` and the rest: unknown suits would be false errors."""
    text = INSTINCT.replace("suits black, blue", "suits black blue").replace("max(score)", "max(scroe)")
    ((line, _, message, hint),) = diagnostics(text)
    assert message.startswith("unexpected `blue`") and hint == "separate the items of a list with `,`"


def test_only_unknown_names_are_added_after_a_syntax_error():
    """A skipped `deal` would make 'no cards are dealt' a false finding; it is not reported."""
    text = INSTINCT.replace("deal 11 each", "deal 11 eech")
    ((line, _, message, hint),) = diagnostics(text)
    assert message.startswith("unexpected `eech`") and hint == "did you mean `each`?"


def test_numbers_too_large_are_all_reported():
    text = INSTINCT.replace("players 2..6", "players 2..99999999999").replace("ranks 1..12", "ranks 1..7777777")
    assert [m for _, _, m, _ in diagnostics(text)] == ["the number 99999999999 is too large",
                                                       "the number 7777777 is too large"]


def test_a_card_value_where_a_number_belongs_is_a_rule_error():
    found = diagnostics(INSTINCT.replace("1: 5,", "1: ks 10,"))
    assert [m for _, _, m, _ in found] == ["this cannot be used here: a number or a condition is expected"]


def test_recovery_reads_the_clauses_around_the_error():
    parsed = parse_all(INSTINCT.replace("bid 0..11, in turn from dealer", "bid 0..11 in turn from dealer"))
    assert len(parsed.errors) == 1
    (rnd,) = [item for item in parsed.rules.items if type(item).__name__ == "Round"]
    kinds = [type(c).__name__ for c in rnd.clauses]
    assert kinds[:2] == ["Dealer", "Deal"] and kinds[-1] == "Tricks"


def _mutations(seed: int, count: int):
    rng = random.Random(seed)
    texts = [p.read_text() for p in sorted(_bundled_dir().glob("*.rules"))]
    for _ in range(count):
        text = rng.choice(texts)
        for _ in range(rng.randint(1, 4)):
            a = rng.randrange(len(text))
            b = min(len(text), a + rng.randint(0, 30))
            text = text[:a] + rng.choice(["", "{", "}", "->", " x ", "\n", "deal", "(", ","]) + text[b:]
        yield text


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6))
def test_mutated_files_give_a_game_or_diagnostics_in_the_file(seed):
    for text in _mutations(seed, 4):
        try:
            rulekit.loads(text, file="m.rules")
        except rulekit.RuleError as error:
            lines = text.count("\n") + 1
            assert error.diagnostics
            for d in error.diagnostics:
                assert 1 <= d.line <= lines and d.column >= 1 and d.message


@pytest.mark.parametrize("text", ["}\n" * 90000, "deck {\n" + "x y z\n" * 30000,
                                  "variant v {\n" * 40 + "deal 1 each\n" * 10000, "@" * 150000])
def test_recovery_from_a_long_broken_file_is_bounded(text, monkeypatch):
    """Skipping stops after `MAX_SKIPPED` tokens: the work does not grow with the file."""
    from rulekit.dsl import recover

    spent = []
    original = recover._Run._spend
    monkeypatch.setattr(recover._Run, "_spend", lambda self: (spent.append(1), original(self)))
    with pytest.raises(rulekit.RuleError):
        rulekit.loads(text)
    assert len(spent) <= recover.MAX_SKIPPED + 1
