"""Every file in tests/broken_rules/ must fail to load with exactly the diagnostics in its .expected file.

Regenerate on purpose after a wording change: RULEKIT_REGEN=1 pytest tests/test_broken_rules.py
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

import rulekit

FOLDER = Path(__file__).parent / "broken_rules"
CASES = sorted(FOLDER.glob("*.rules"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_broken_rule_file_gives_its_diagnostics(path):
    with pytest.raises(rulekit.RuleError) as caught:
        rulekit.loads(path.read_text(), file=path.name)
    text = str(caught.value)
    expected = path.with_suffix(".expected")
    if os.environ.get("RULEKIT_REGEN"):
        expected.write_text(text + "\n")
    assert text + "\n" == expected.read_text()
    for diagnostic in caught.value.diagnostics:
        assert diagnostic.file == path.name
        assert 1 <= diagnostic.line <= len(path.read_text().splitlines())
        assert diagnostic.column >= 1
        assert diagnostic.message


def test_every_broken_file_has_an_expectation():
    assert CASES, "the folder of broken rule files is empty"
    for path in CASES:
        assert path.with_suffix(".expected").exists() or os.environ.get("RULEKIT_REGEN"), path.name


# ---- the reference page: every refusal, with the file that shows it ------------------------------

REFERENCE = Path(__file__).resolve().parent.parent / "docs" / "checker-reports.md"

#: Sections of the page, by the words a broken file's name starts with (first match wins).
GROUPS = (
    ("Several problems at once", ("many_problems",)),
    ("Syntax: what the parser reports", ("unclosed", "missing_arrow", "unknown_character", "misspelt_keywords",
                                          "syntax_error", "huge_number")),
    ("Players, teams and the deck", ("players", "too_many_players", "team", "deck", "suit_where", "colour",
                                     "top_trumps", "trump_colour", "missing_sections", "duplicate")),
    ("Round: dealing, passing, bidding, trump", ("round_clause", "pass", "bid", "card_bid", "highest_bidder",
                                                 "trump", "turned", "named_bids", "repeat", "auction", "call_order",
                                                 "roles", "count_from", "deal_by_round", "out_of_cards",
                                                 "misspelt_dealer")),
    ("Tricks: leads, follow and the trick winner", ("trick", "lead_rule", "follow", "winner_", "card_predicate",
                                                    "challenge", "player_errors", "unknown_suit")),
    ("Scores, tables, the end and the winner", ("score", "table", "per_seat", "seat_values", "end", "no_end",
                                                "display_never", "wide_bids", "number_where", "card_where",
                                                "expression", "unknown_expression", "unknown_table")),
    ("Variants, overrides and extend", ("variant", "override")),
    ("Grid games: player decks, board, set-up, card sets", ("grid", "board", "player_deck", "card_clause", "setup",
                                                            "card_set", "card_words")),
)
INTRO = """# What the checker reports

Loading a rule file runs the parser and the checker, which report every problem at once:
file, line, column, the line itself with a caret, and a hint. This page lists every refusal,
each with the file of `tests/broken_rules/` that shows it and its exact diagnostics (the test
suite checks that this page, the files and the checker agree). Past a syntax error the
parser goes on: it reports each syntax error once, an unclosed `{` where it was opened, and
the checker adds the unknown names it can still be sure of (none when the error was in a
part that declares names: a deck, a table, a board, a variant). At most 100 problems are
kept; past them the error counts the rest ("... and N more").

Not refused, on purpose: two cards equal under the card order met by `highest` or `lowest`
(the one played first counts as higher, and as lower: see [deck](language.md#deck)).

Beyond these files, loading also refuses: a rule file over 200,000 characters (checked on
the file's size before `extend` reads it), brackets nested more than 48 deep, an expression
nested more than 120 deep, `extend` chains more than 8 files long or making a cycle, an
`extend` naming a file outside the extending file's folder (or a search path), and a name
with a NUL character.
"""


#: What the files derived from Instinct show (their own first lines quote the rulebook).
ABOUT = {
    "colour_order_without_order": "An order by suit needs suits listed with `<`.",
    "deck_too_small": "Seven players of eleven cards each need more cards than the deck has.",
    "duplicate_section": "A section given twice.",
    "follow_case_after_otherwise": "A follow case after `otherwise` can never apply.",
    "huge_number": "A number past the largest a rule may write.",
    "many_problems": "Misspelt words, a deal too large and an unknown name, all reported at once.",
    "missing_arrow": "A score case without its `->`.",
    "misspelt_dealer_word": "A misspelt dealer rule gets a did-you-mean.",
    "no_end": "The rules never say when the game ends.",
    "number_where_condition_belongs": "A number where a condition belongs.",
    "per_seat_value_needs_a_fold": "A value per seat where one value is needed.",
    "player_errors_incomplete": "Player-error rules (table mode) with unknown words and parts left out.",
    "score_table_gap": "A score table read at the bid misses some bids.",
    "suit_where_rank_belongs": "A suit where a rank belongs.",
    "unclosed_block": "A `{` never closed: reported where it was opened.",
    "unknown_character": "A character the language does not use.",
    "unknown_expression_name": "A name no expression knows.",
    "unknown_suit_in_rule": "A suit the deck does not have.",
    "unknown_table": "A table that is not defined.",
    "variant_replaces_nothing": "A variant adding a table that no rule reads (a misspelt table name).",
    "winner_can_find_no_card": "A trick-winner case that can find no card in some trick it applies to.",
    "winner_without_otherwise": "A trick-winner rule without a last `otherwise`.",
}


def _about(path: Path) -> str:
    if path.stem in ABOUT:
        return ABOUT[path.stem]
    lines = []
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("# ").strip())
    return " ".join(lines) or path.stem.replace("_", " ")


def _group_of(stem: str) -> str:
    for title, prefixes in GROUPS:
        if stem.startswith(prefixes):
            return title
    return "Other"


def reference_page() -> str:
    sections: dict[str, list[str]] = {title: [] for title, _ in GROUPS}
    sections["Other"] = []
    for path in CASES:
        about = _about(path)
        expected = path.with_suffix(".expected").read_text().rstrip("\n")
        body = expected.split("\n", 1)[1] if "\n" in expected else ""
        shown = "\n".join(line.split(": ", 1)[1] if line.startswith(path.name + ":") else line
                          for line in body.splitlines())
        sections[_group_of(path.stem)].append(
            f"### `{path.stem}`\n\n{about}\n\n```text\n{shown}\n```\n")
    out = [INTRO]
    for title, entries in sections.items():
        if entries:
            out.append(f"## {title}\n")
            out.extend(entries)
    return "\n".join(out)


def test_every_refusal_is_in_the_reference():
    """docs/checker-reports.md lists every broken file with its exact diagnostics.
    Regenerate with RULEKIT_REGEN=1 after adding a file."""
    page = reference_page()
    if os.environ.get("RULEKIT_REGEN"):
        REFERENCE.write_text(page)
    assert REFERENCE.read_text() == page, \
        "docs/checker-reports.md is out of date: RULEKIT_REGEN=1 pytest tests/test_broken_rules.py"
