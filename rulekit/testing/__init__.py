"""Tools to prove a rule file sound: invariants, `check_rules`, `assert_sound`, replays,
Hypothesis strategies and a state machine.

Pipeline place: api → **testing** → your tests and `rulekit check`. Everything here works on
any `Game`, shipped or your own:

    import rulekit
    from rulekit.testing import assert_sound, check_rules, invariant

    @invariant
    def no_deep_negative(state):
        assert min(state.scores) >= -200

    report = check_rules(rulekit.load("my-variant.rules"), games=50, invariants=[no_deep_negative])
    assert report.ok, report          # on failure: the invariant, the message and a replay

    from hypothesis import given
    from rulekit.testing import states, cards_conserved
    @given(states(game, players=4))
    def test_cards(state):
        cards_conserved(state)

    TestMyGame = machine_for(game)    # a RuleBasedStateMachine as a unittest TestCase

Random play (`check_rules`, `assert_sound`, `replay`, the invariants) needs nothing beyond
rulekit itself; the Hypothesis strategies (`states`, `playouts`, `moves`), `machine_for` and
`shrink_with_hypothesis` import Hypothesis when they are first used.
"""
from .custom import invariant, load_invariants
from .invariants import (
    DEFAULT_MAX_ROUNDS, INVARIANTS, InvariantError, cards_conserved, check_all, check_move, ends_within_bound,
    illegal_move_changes_nothing, legal_moves_until_end, one_seat_to_move, one_trick_winner,
    replay_is_identical, restore_round_trips, round_bound, scores_change_by_rules,
    views_hide_hidden_information,
)
from .replaying import replay
from .report import Failure, Report
from .runner import Campaign, assert_sound, check_rules
from .stats import Stats, wilson

#: Public names that need Hypothesis, and the module each comes from (imported on first use).
_NEED_HYPOTHESIS = {"states": "strategies", "playouts": "strategies", "moves": "strategies",
                    "Playout": "strategies", "machine_for": "machine"}

__all__ = [
    "check_rules", "Report", "Failure", "InvariantError", "INVARIANTS", "DEFAULT_MAX_ROUNDS",
    "check_all", "check_move", "round_bound", "states", "playouts", "moves", "Playout", "machine_for",
    "cards_conserved", "one_seat_to_move", "legal_moves_until_end", "illegal_move_changes_nothing",
    "replay_is_identical", "restore_round_trips", "views_hide_hidden_information",
    "one_trick_winner", "scores_change_by_rules", "ends_within_bound",
    "invariant", "load_invariants", "replay", "assert_sound", "Campaign", "Stats", "wilson",
]


def __getattr__(name: str):
    module = _NEED_HYPOTHESIS.get(name)
    if module is None:
        raise AttributeError(f"module 'rulekit.testing' has no attribute {name!r}")
    import importlib
    try:
        value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    except ModuleNotFoundError as error:
        if error.name != "hypothesis":
            raise
        raise ImportError(f"rulekit.testing.{name} needs Hypothesis (pip install hypothesis, "
                          "or the package's `test` extra); check_rules, assert_sound and replay work without it"
                          ) from None
    globals()[name] = value
    return value
