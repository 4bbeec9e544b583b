"""Prove your own variant sound with rulekit.testing: run `pytest examples/property_test_my_variant.py`.

The variant below is a house rule for Instinct, written as rule text that extends the
bundled game. The tests play it at random under every invariant (cards conserved, one seat
to move, legal moves until the end, illegal moves change nothing, replays, save and load,
hidden hands stay hidden, one winner per trick, scores as the rules say, an end in sight)
and fail with the invariant, a message and a replay you can paste.
"""
import rulekit
from hypothesis import given, settings
from rulekit.testing import cards_conserved, check_rules, machine_for, states, views_hide_hidden_information

MY_VARIANT = """
extend "instinct"
game "Instinct, nine cards, missed bids cost"
round {
  deal 9 each
  bid 0..9, in turn from dealer
  tricks 9, first led by dealer, then by winner
}
score {
  made   -> 10 + bonus[bid]
  missed -> -abs(tricks - bid)
}
end when max(score) >= 60 or round >= 40
"""
game = rulekit.loads(MY_VARIANT)


def test_random_games_keep_every_invariant():
    report = check_rules(game, games=3, players=3)
    assert report.ok, report


@settings(max_examples=25, deadline=None)
@given(states(game, max_moves=150))
def test_cards_are_conserved_and_hands_stay_hidden(state):
    cards_conserved(state)
    views_hide_hidden_information(state)


TestMyVariant = machine_for(game, players=3)
