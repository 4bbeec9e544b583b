"""Validate a house variant with rulekit.testing: `pytest examples/validate_house_rules.py`.

The variant (missed-bids-cost.rules, beside this file) makes a missed bid cost ten points a
trick. Its designer wants nobody to sink below -200 points, and says so as an invariant of
their own. `assert_sound` plays random games under every built-in invariant and that one,
and fails with a readable report: the invariant, the message, the seed and the shortest
move list found, ready to replay. Walked through in docs/validate.md.
"""
from pathlib import Path

import pytest

import rulekit
from rulekit.testing import assert_sound, invariant

HERE = Path(__file__).resolve().parent
RULES = HERE / "missed-bids-cost.rules"
game = rulekit.load(RULES)


@invariant
def no_deep_negative(state):
    """The house rule: nobody sinks below -200 points."""
    assert min(state.scores) >= -200, f"a score fell to {min(state.scores)}"


def test_random_games_keep_every_invariant_and_ours():
    report = assert_sound(game, games=3, players=[2, 3], invariants=[no_deep_negative])
    assert report.games == 6


def test_before_the_fix_our_invariant_fails_with_a_short_replay():
    text = RULES.read_text(encoding="utf-8")
    unfixed = rulekit.loads(text.replace("or min(score) <= -90 ", ""), file="unfixed.rules")
    with pytest.raises(AssertionError) as caught:
        assert_sound(unfixed, games=1, players=2, invariants=[no_deep_negative])
    report = str(caught.value)
    assert "no_deep_negative fails" in report and "a score fell to" in report
    assert "state = game.new_game(players=2, seed=0)" in report


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
