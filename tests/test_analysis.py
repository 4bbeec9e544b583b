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


def _winner(game, players, cards, trump=-1):
    """The seat the compiled trick-winner rule gives a trick of these card texts (seat i
    plays cards[i], seat 0 leads)."""
    rules = game.ruleset(players)
    step = next(s for s in rules.steps if hasattr(s, "winner"))
    ids, taken = [], set()
    for text in cards:
        card = next(c for c in range(rules.deck.size) if rules.deck.texts[c] == text and c not in taken)
        taken.add(card)
        ids.append(card)
    trick = list(enumerate(ids))
    return step.winner(trick, sum(1 << c for c in ids), ids[0], trump)


def test_equal_cards_under_highest_go_to_the_one_played_first():
    """The reference: "When two cards are equal under the order, the one played first counts
    as higher". `highest trump` over Instinct's six equal trumps loads, and the first trump
    played takes the trick (Instinct itself says `last trump`: "whoever played the last trump
    card captures the trick")."""
    text = (ROOT / "rules" / "instinct.rules").read_text()
    text = changed("any trump played -> last trump", "any trump played -> highest trump", text)
    game = rulekit.loads(text)
    assert _winner(game, 4, ["red 3", "trump", "blue 5", "trump"]) == 1
    assert _winner(rulekit.load("instinct"), 4, ["red 3", "trump", "blue 5", "trump"]) == 3


def test_an_order_that_ignores_suits_lets_the_first_of_equal_ranks_win():
    text = changed("  ranks 1..8\n", "  ranks 1..8\n  order rank\n")
    text = changed("otherwise -> highest card of lead suit", "otherwise -> highest card", text)
    game = rulekit.loads(text)
    assert _winner(game, 3, ["red 1", "blue 1", "green 1"]) == 0
    assert _winner(game, 3, ["red 1", "blue 2", "green 2"]) == 1
    lowest = rulekit.loads(changed("highest card", "lowest card", text))
    assert _winner(lowest, 3, ["red 2", "blue 1", "green 1"]) == 1


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


def test_a_turned_special_card_makes_no_suit_trump():
    """A turned card makes its suit trump, but a special card turned makes none (the engine:
    "A special card turned ... gives no trump"), so the jokers are never `highest trump`
    candidates as trumps; and equal jokers would go to the one played first anyway."""
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
    game = rulekit.loads(text)
    assert _winner(game, 3, ["joker", "red 2", "joker"], trump=-1) == 0
    assert _winner(game, 3, ["red 2", "blue 6", "blue 3"], trump=1) == 1
    joker_suit = game.ruleset(3).deck.suit_names.index("joker")
    turned = [game.new_game(players=3, seed=seed).view() for seed in range(30)]
    jokers = [view for view in turned if view.get("turned") == "joker"]
    assert jokers and all(view["trump"] is None for view in jokers)
    assert joker_suit >= game.ruleset(3).deck.regular_suits



TWO_SUITS = """game "Two suits"
players 2..4
deck {
  suits red, blue
  ranks 1..6
}
round {
  deal 3 each
  tricks 3, first led by dealer, then by winner
}
follow { otherwise -> same suit as lead if able }
trick winner {
  lead is red -> highest red
  otherwise   -> highest blue
}
score { otherwise -> tricks }
end after 3 rounds
"""


def test_a_lead_is_guard_counts_for_the_cases_after_it():
    """After `lead is red -> ...`, only blue leads reach `otherwise`, and `highest blue` always
    finds the lead there: the file loads, and the engine agrees on every lead."""
    game = rulekit.loads(TWO_SUITS)
    assert _winner(game, 2, ["blue 2", "red 6"]) == 0
    assert _winner(game, 2, ["blue 2", "blue 6"]) == 1
    assert _winner(game, 2, ["red 2", "blue 6"]) == 0


def test_without_the_guard_covering_every_other_lead_the_case_is_refused():
    """With a third suit, a green lead reaches `otherwise -> highest blue` and a trick of
    green cards holds no blue card: the rule does not say who wins it."""
    text = TWO_SUITS.replace("suits red, blue", "suits red, blue, green")
    assert problems(text) == [(14, "this case can find no card to win the trick")]


def test_a_case_guarded_by_any_played_finds_its_card():
    text = TWO_SUITS.replace("  lead is red -> highest red\n", "  any red played -> highest red\n")
    text = text.replace("suits red, blue", "suits red, blue, green")
    assert problems(text) == [(14, "this case can find no card to win the trick")]
    text = text.replace("otherwise   -> highest blue", "otherwise   -> highest card of lead suit")
    assert problems(text) == []


def test_the_refused_case_really_finds_no_card_in_play():
    """The game behind the refusal above: compiled without the checker, a trick led green
    with no blue card reaches `otherwise -> highest blue`, which admits no card of it, so
    the rule names no winner (the engine can only fall back on the leader)."""
    from rulekit.compile.game import build_ruleset
    from rulekit.dsl.merge import sections
    from rulekit.dsl.parser import parse

    text = TWO_SUITS.replace("suits red, blue", "suits red, blue, green")
    rules = build_ruleset(sections(parse(text).items, lambda *a: None), "Three suits")
    step = next(s for s in rules.steps if hasattr(s, "winner"))
    texts = rules.deck.texts
    green_2, green_5 = texts.index("green 2"), texts.index("green 5")
    trick = [(0, green_2), (1, green_5)]
    blue = [c for c in range(rules.deck.size) if texts[c].startswith("blue")]
    assert not any(card in blue for _, card in trick)
    assert step.winner(trick, (1 << green_2) | (1 << green_5), green_2, -1) == 0   # the leader, by default
