"""Tools to prove a rule file sound: invariants, Hypothesis strategies, a state machine, `check_rules`.

Pipeline place: api → **testing** → your tests and `rulekit check`. Everything here works on
any `Game`, shipped or your own:

    import rulekit
    from rulekit.testing import check_rules
    report = check_rules(rulekit.load("my-variant.rules"), games=50)
    assert report.ok, report          # on failure: the invariant, the message and a replay

    from hypothesis import given
    from rulekit.testing import states, cards_conserved
    @given(states(game, players=4))
    def test_cards(state):
        cards_conserved(state)

    TestMyGame = machine_for(game)    # a RuleBasedStateMachine as a unittest TestCase
"""
from .invariants import (
    DEFAULT_MAX_ROUNDS, INVARIANTS, InvariantError, cards_conserved, check_all, ends_within_bound,
    illegal_move_changes_nothing, legal_moves_until_end, one_seat_to_move, one_trick_winner,
    replay_is_identical, restore_round_trips, round_bound, scores_change_by_rules,
    views_hide_hidden_information,
)
from .machine import machine_for
from .report import Failure, Report
from .runner import check_rules
from .strategies import Playout, moves, playouts, states

__all__ = [
    "check_rules", "Report", "Failure", "InvariantError", "INVARIANTS", "DEFAULT_MAX_ROUNDS",
    "check_all", "round_bound", "states", "playouts", "moves", "Playout", "machine_for",
    "cards_conserved", "one_seat_to_move", "legal_moves_until_end", "illegal_move_changes_nothing",
    "replay_is_identical", "restore_round_trips", "views_hide_hidden_information",
    "one_trick_winner", "scores_change_by_rules", "ends_within_bound",
]
