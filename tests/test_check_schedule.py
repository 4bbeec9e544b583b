"""`rulekit check`'s default schedule (rulekit/testing/schedule.py, quick.py): cheap enough
to run at a fair fraction of plain play (issue 16: "`rulekit check` decisions/s ÷ plain
play ≥ 0.25"), and still catching what every invariant catches: quick checks after every
move that hand over to the views where they cannot vouch, the costly checks turning over
phases and seats, the replay played again by `state.playout`, all of it from the seed."""
from __future__ import annotations

import random

import pytest

import rulekit
from rulekit import testing as rt
from rulekit.engine import steps
from rulekit.engine.state import State
from rulekit.testing import invariants as inv
from rulekit.testing import quick, schedule
from rulekit.testing.runner import _Checks, play_checked


def random_states(game, players, seed, count=400):
    state, rng = game.new_game(players=players, seed=seed), random.Random(seed)
    for _ in range(count):
        if state.is_terminal:
            return
        yield state
        state.apply(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("name", rulekit.bundled())
def test_the_quick_card_count_vouches_for_every_state_of_random_play(name):
    game = rulekit.load(name)
    for players in game.players[:2]:
        for state in random_states(game, players, seed=players):
            assert quick.cards_conserved(state)
            inv.cards_conserved(state)


def test_the_quick_card_count_hands_a_lost_or_doubled_card_to_the_views(instinct):
    state = instinct.new_game(players=4, seed=1)
    hand = state.hands[2]
    state.hands[2] = hand & (hand - 1)                       # the lowest card is gone
    assert not quick.cards_conserved(state)
    state.hands[2] = hand
    state.hands[3] |= hand & -hand                           # and now it is in two hands
    assert not quick.cards_conserved(state)


def test_check_rules_catches_a_card_that_vanishes_mid_game(monkeypatch):
    from rulekit.compile import codegen

    monkeypatch.setattr(codegen, "ENABLED", False)      # the hand-written steps, which we break
    sevens = rulekit.load("insidious-sevens")
    apply = steps.Tricks.apply

    def losing(self, st, move):
        over = apply(self, st, move)
        if st.tricks_played == 3 and st.trick == []:
            seat = (st.current_player + 1) % st.n if st.current_player is not None else 0
            st.hands[seat] &= st.hands[seat] - 1             # a card falls off the table
        return over
    monkeypatch.setattr(steps.Tricks, "apply", losing)
    report = rt.check_rules(sevens, games=1, players=3, seed=3, shrink=False)
    [failure] = report.failures
    assert failure.invariant == "cards_conserved" and "is missing" in failure.message


def test_check_rules_catches_a_peek_in_the_first_game_and_in_a_few_games_from_any_seed(instinct, peeking_views):
    for seed, games in ((0, 1), (5, 3)):       # the first of a run checks at once; then every 2000 decisions
        report = rt.check_rules(instinct, games=games, players=4, seed=seed, shrink=False)
        [failure] = report.failures
        assert failure.invariant == "views_hide_hidden_information"


def test_the_costly_checks_turn_over_every_phase_and_seat(sevens, monkeypatch):
    seen = set()
    hide = inv._views_hide

    def recording(look, seats, rng, game):
        st = look.state
        seen.add((st.rules.steps[st.step].name, any(p is not None for p in st.pending), seats[0]))
        return hide(look, seats, rng, game)
    monkeypatch.setattr(inv, "_views_hide", recording)
    monkeypatch.setattr(schedule, "HEAVY_EVERY", 40)
    checks = _Checks(sevens, None, False)
    for seed in range(24):
        assert play_checked(sevens, 3, seed, checks).failed is None
    phases = {("pass", False), ("pass", True), ("bid", False), ("bid", True), ("play", False)}
    assert {(phase, secret) for phase, secret, _ in seen} == phases
    assert {seat for _, _, seat in seen} == {0, 1, 2}
    for phase, secret in phases:
        assert {seat for p, s, seat in seen if (p, s) == (phase, secret)} == {0, 1, 2}, (phase, secret)


def test_the_schedule_is_the_same_for_the_same_seed(sevens):
    counts = []
    for _ in range(2):
        checks = _Checks(sevens, None, False)
        out = play_checked(sevens, 4, 11, checks)
        counts.append((checks.count, out.moves))
    assert counts[0] == counts[1]


def test_the_default_schedule_plays_the_moves_of_plain_random_play(instinct):
    checks = _Checks(instinct, None, False)
    out = play_checked(instinct, 3, 2, checks)
    state = instinct.new_game(players=3, seed=2)
    state.playout(seed=2 * 1_000_003 + 3)
    assert out.moves == state.history and out.finished


def test_a_playout_that_strays_from_the_public_loop_fails_the_replay(instinct, monkeypatch):
    playout = State.playout

    def straying(self, seed=None, *, round_only=False):
        self.apply(self.legal_moves()[-1])
        return 1 + playout(self, seed, round_only=round_only)
    monkeypatch.setattr(State, "playout", straying)
    report = rt.check_rules(instinct, games=1, players=3, shrink=False)
    [failure] = report.failures
    assert failure.invariant == "replay_is_identical"
    assert "state.playout(seed=3)" in failure.message and "move 1 is" in failure.message


def test_thorough_still_checks_every_invariant_on_every_move(sevens):
    default, thorough = _Checks(sevens, None, False), _Checks(sevens, None, True)
    out = play_checked(sevens, 3, 1, default)
    play_checked(sevens, 3, 1, thorough)
    assert thorough.count >= 9 * len(out.moves) > default.count
