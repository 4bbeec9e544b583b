"""Static analysis (issue 5): rule files that load but cannot work as written are refused
with an exact message, and the shipped games and examples pass every analysis."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulekit

ROOT = Path(__file__).parent.parent

#: A small, sound trick game; each test changes one line of it.
BASE = """\
game "Small"
players 2..4
deck {
  suits red, blue, green
  ranks 1..8
}
round {
  dealer first, then next
  deal 5 each
  bid 0..5, in turn from dealer
  tricks 5, first led by dealer, then by winner
}
follow {
  otherwise -> same suit as lead if able
}
trick winner {
  otherwise -> highest card of lead suit
}
score {
  made   -> 10 + bid
  missed -> 0
}
end after 3 rounds
"""


def problems(text: str) -> list[tuple[int, str]]:
    """(line, message) of each diagnostic, or [] when the text loads."""
    try:
        rulekit.loads(text)
    except rulekit.RuleError as error:
        return [(d.line, d.message) for d in error.diagnostics]
    return []


def changed(old: str, new: str, text: str = BASE) -> str:
    assert old in text
    return text.replace(old, new)


def test_the_base_game_is_sound():
    assert problems(BASE) == []


@pytest.mark.parametrize("path", sorted(ROOT.glob("rules/*.rules")) + sorted(ROOT.glob("examples/*.rules")),
                         ids=lambda p: p.name)
def test_shipped_rules_and_examples_pass_every_analysis(path):
    game = rulekit.load(path)
    for variant in game.variants:
        rulekit.load(path, variant=variant)


def test_no_tricks_means_the_round_never_ends():
    text = changed("tricks 5,", "tricks 0,")
    assert problems(text) == [(11, "`tricks 0` plays no trick, so the round can never end")]


def test_a_pass_larger_than_that_rounds_deal():
    # Passing schedules and deals by round cycle together; round 2 deals 1 card but passes 2.
    text = changed("deal 5 each", "deal [5, 1] by round each\n  pass [0, 2 left] by round")
    text = changed("tricks 5,", "tricks 1,", text)
    assert problems(text) == [(10, "round 2 deals 1 card each, but this passes 2")]


def test_card_bids_need_a_card_in_every_round():
    text = """\
game "Card bids"
players 2..4
deck {
  suits red, blue, green
  ranks 1..8
}
round {
  dealer first, then next
  deal [5, 0] by round each
  bid with a card, value rank
}
score {
  otherwise -> bid
}
end after 3 rounds
"""
    assert problems(text) == [(10, "bids are made with a card, but round 2 deals no cards")]


def test_a_winner_rule_that_can_name_two_winners():
    # Instinct: "All trump cards share the same rank", so `highest trump` cannot choose between
    # two of them; the rule file says "whoever played the last trump card captures the trick".
    text = (ROOT / "rules" / "instinct.rules").read_text()
    text = changed("any trump played -> last trump", "any trump played -> highest trump", text)
    line = text.splitlines().index("  any trump played -> highest trump") + 1
    assert problems(text) == [(line, "this case can name two winners: two copies of `trump` are equal "
                                   "in the card order, and `highest` cannot choose between them")]


def test_an_order_that_ignores_suits_ties_across_suits():
    text = changed("  ranks 1..8\n", "  ranks 1..8\n  order rank\n")
    text = changed("otherwise -> highest card of lead suit", "otherwise -> highest card", text)
    assert problems(text) == [(18, "this case can name two winners: `red 1` and `blue 1` are equal "
                                   "in the card order, and `highest` cannot choose between them")]


def test_a_first_or_last_pick_never_ties():
    text = changed("otherwise -> highest card of lead suit", "otherwise -> first card", BASE)
    assert problems(text) == []


def test_a_variant_that_changes_nothing():
    text = BASE + 'variant same "Same" {\n  end after 3 rounds\n}\n'
    assert problems(text) == [(24, "variant `same` changes nothing: its rules are the base game's")]


def test_a_variant_that_changes_a_round_clause_is_kept():
    text = BASE + 'variant long {\n  round {\n    deal 4 each\n    bid 0..4, in turn from dealer\n' \
                  '    tricks 4, first led by dealer, then by winner\n  }\n}\n'
    assert problems(text) == []


def test_a_variant_that_deals_fewer_cards_than_the_bids_reach_is_refused():
    text = BASE + 'variant long {\n  round {\n    deal 4 each\n    tricks 4, first led by dealer, then by winner\n  }\n}\n'
    assert problems(text) == [(10, "a bid can be 5, but no hand holds more than 4 cards")]


def test_deals_beyond_the_deck_for_some_player_count():
    # Checked by the checker: 24 cards cannot deal 5 to each of 5 players.
    text = changed("players 2..4", "players 2..5")
    assert problems(text) == [(9, "5 players × 5 cards is 25, but the deck has only 24 cards")]


def test_a_score_table_without_an_entry_for_a_bid():
    # Checked by the checker: every bid 0..5 must find an entry.
    text = changed("made   -> 10 + bid", "made   -> 10 + bonus[bid]") + "table bonus { 0: 10, 1..3: 5 }\n"
    assert problems(text) == [(20, "table `bonus` has no entry for 4, 5, but a bid can be 0..5")]


def test_a_winner_case_that_can_find_no_card():
    # Checked by the checker: a case must pick among cards that can be in every trick it sees.
    text = changed("otherwise -> highest card of lead suit", "otherwise -> highest red")
    assert problems(text) == [(17, "this case can find no card to win the trick")]


def test_a_turned_card_trump_is_checked_for_ties():
    """A turned card can make any suit trump, a suit of equal copies included: `highest trump`
    could then meet two equal cards."""
    text = """game "Turned"
players 2..4
deck {
  suits red, blue
  ranks 1..6
  card joker x2
}
round {
  dealer random, then next
  deal 3 each
  trump suit of turned card
  tricks all, first led by dealer, then by winner
}
follow { otherwise -> same suit as lead if able }
trick winner {
  any trump played -> highest trump
  otherwise        -> highest card of lead suit
}
score { otherwise -> tricks }
end after 3 rounds
"""
    with pytest.raises(rulekit.RuleError) as caught:
        rulekit.loads(text)
    assert any("can name two winners" in d.message for d in caught.value.diagnostics)
