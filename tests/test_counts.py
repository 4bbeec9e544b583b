"""Values read from `players` and `round` (`deal round each`, `end after 60 / players
rounds`) and variants required for some player counts only.

Issue #9, item 8: "round counts and deal schedules as expressions of `players` (and
`round`); a `required when` variant is checked only against the player counts it applies
to (today it is checked against every count and refused)". The published rule behind the
example schedule is Wizard's (https://www.pagat.com/exact/wizard.html): "In the first deal
each player gets one card, in the second deal two cards, and so on", for 60 / players deals.
"""
from __future__ import annotations

import random

from pathlib import Path

import pytest

import rulekit
from rulekit import testing as rt


def game_text(deal="deal round each", end="end after 60 / players rounds", players="3..6", extra=""):
    return f"""game "Rising"
players {players}
deck {{
  suits clubs, diamonds, hearts, spades
  ranks 1..15
  order rank
}}
round {{
  dealer first, then next
  {deal}
  bid 0..hand, in turn from left of dealer
  tricks all, first led by left of dealer, then by winner
}}
follow {{ otherwise -> same suit as lead if able }}
trick winner {{ otherwise -> highest card of lead suit }}
score {{
  made   -> 10 + bid
  missed -> 0
}}
{end}
{extra}
"""


def hands_by_round(state, rng):
    """The hand size at each round's first bid, to the end of a random game."""
    sizes = {}
    while not state.is_terminal:
        if state.view()["phase"] == "bid":
            sizes.setdefault(state.round, state.view()["hand_sizes"][0])
        state.apply(rng.choice(state.legal_moves()))
    return sizes


@pytest.mark.parametrize("players, rounds", [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_round_r_deals_r_cards_for_60_over_players_rounds(players, rounds):
    game = rulekit.loads(game_text())
    state = game.new_game(players=players, seed=players)
    sizes = hands_by_round(state, random.Random(0))
    assert state.round == rounds and sizes == {r: r for r in range(1, rounds + 1)}


def test_a_count_read_from_players_only():
    game = rulekit.loads(game_text(deal="deal 60 / players - 5 each", end="end after 2 rounds"))
    assert [game.new_game(players=p, seed=1).view()["hand_sizes"] for p in (3, 6)] == [[15] * 3, [5] * 6]


def test_each_count_is_checked_and_compiled_on_its_own():
    game = rulekit.loads(game_text())
    assert game.ruleset(3) is not game.ruleset(4) and game.ruleset(4) is game.ruleset(4)
    with pytest.raises(rulekit.RuleError, match="4 players × 16 cards is 64"):
        rulekit.loads(game_text(deal="deal round + 1 each"))


def test_games_by_count_keep_every_invariant():
    report = rt.check_rules(rulekit.loads(game_text(players="5..6")), games=1, seed=3)
    assert report.ok, report


def test_the_round_is_known_only_with_an_end_after_rounds():
    with pytest.raises(rulekit.RuleError, match="needs `end after N rounds`"):
        rulekit.loads(game_text(end="end when max(score) >= 100"))


THREE = """
variant three "Three: seventeen each" required when players = 3 {
  round {
    deal 17 each
    bid 0..hand, in turn from left of dealer
  }
}
"""


def test_a_required_variant_is_checked_only_for_its_counts():
    text = game_text(deal="deal 13 each", end="end after 2 rounds", players="3..4", extra=THREE)
    game = rulekit.loads(text)                   # 17 each for 4 players would need 68 cards
    assert game.new_game(players=3, seed=1).view()["hand_sizes"] == [17] * 3
    assert game.new_game(players=4, seed=1).view()["hand_sizes"] == [13] * 4
    chosen = rulekit.loads(text, variant="three")
    with pytest.raises(rulekit.RuleError, match="only be played with 3 players, not 4"):
        chosen.new_game(players=4)


def test_a_required_variant_is_still_checked_for_its_own_counts():
    broken = THREE.replace("deal 17 each", "deal 21 each")      # 3 × 21 = 63 > 60 cards
    with pytest.raises(rulekit.RuleError, match="3 players × 21 cards is 63"):
        rulekit.loads(game_text(deal="deal 13 each", end="end after 2 rounds", players="3..4", extra=broken))


def test_a_required_variant_that_checks_everywhere_may_be_chosen_everywhere():
    sevens = rulekit.load("insidious-sevens", variant="pico")
    assert sevens.new_game(players=3, seed=1).view()["variants"] == ["pico"]


def test_a_bid_range_read_from_the_round():
    """Issue #9, item 7: "bid ranges depending on the round"."""
    text = game_text(deal="deal 9 each", end="end after 4 rounds", players="3").replace(
        "bid 0..hand", "bid 0..(round + 1)")
    game = rulekit.loads(text)
    state, rng, seen = game.new_game(players=3, seed=1), random.Random(0), {}
    while not state.is_terminal:
        if state.view()["phase"] == "bid":
            seen.setdefault(state.round, [str(m) for m in state.legal_moves()])
            if state.round == 2:
                with pytest.raises(rulekit.IllegalMoveError):
                    state.apply("bid 4")
        state.apply(rng.choice(state.legal_moves()))
    assert seen == {r: [f"bid {b}" for b in range(r + 2)] for r in range(1, 5)}
    assert rt.check_rules(game, games=1, seed=2).ok


def test_a_bid_bound_read_for_the_bidder_with_a_restriction():
    text = game_text(deal="deal 5 each", end="end after 2 rounds", players="3").replace(
        "bid 0..hand, in turn from left of dealer",
        "bid 0..(hand - 1), in turn from left of dealer, not allowed when last_bidder and sum(bid) = 4")
    state = rulekit.loads(text).new_game(players=3, seed=1)
    state.apply("bid 2")
    state.apply("bid 2")
    assert [str(m) for m in state.legal_moves()] == ["bid 1", "bid 2", "bid 3", "bid 4"]  # 0 makes 4; 5 > hand - 1


def test_a_count_read_from_players_without_a_usable_player_range_is_a_rule_error():
    """Found by the loader fuzz (a spliced Wizard without its `players` line): the deal read
    from `round` had no count to be read for, and the checker met an empty schedule."""
    wizard = (Path(__file__).parent.parent / "examples" / "games" / "wizard.rules").read_text()
    assert "players 3..6" in wizard
    for players in ("", "players 5..3"):
        with pytest.raises(rulekit.RuleError) as caught:
            rulekit.loads(wizard.replace("players 3..6", players))
        messages = [d.message for d in caught.value.diagnostics]
        assert any("players" in m for m in messages), messages


def test_a_lead_suit_rule_naming_a_card_the_deck_lacks_is_a_rule_error():
    """Found by the loader fuzz (Wizard without its Jesters): `lead suit from first not jester`
    with no `jester` in the deck is an unknown name, reported, not a crash of the analysis."""
    wizard = (Path(__file__).parent.parent / "examples" / "games" / "wizard.rules").read_text()
    assert "  card jester x4\n" in wizard
    with pytest.raises(rulekit.RuleError) as caught:
        rulekit.loads(wizard.replace("  card jester x4\n", ""))
    assert any("jester" in d.message for d in caught.value.diagnostics)


@pytest.mark.parametrize("deals", ["  deal round each\n  deal round each\n  deal round each\n",
                                   "  deal 1 each\n  deal round each\n"])
def test_every_deal_of_a_round_is_read_for_the_count(deals):
    """Found by the long loader fuzz (a spliced Wizard whose `deal round each` came three
    times): only the first deal was read for each player count, and the checker met the
    others unread (`max()` of an empty schedule). Each is read, and the repeat reported."""
    wizard = (Path(__file__).parent.parent / "examples" / "games" / "wizard.rules").read_text()
    line = "  deal round each                    # round r deals r cards\n"
    assert line in wizard
    with pytest.raises(rulekit.RuleError) as caught:
        rulekit.loads(wizard.replace(line, deals))
    assert "this round clause is given twice" in [d.message for d in caught.value.diagnostics]
