"""rulekit.testing: each invariant holds in real play and catches a broken state with a
clear message; `check_rules` catches a broken rule file with a replay that reproduces it,
shrinks failures, and reports. Contract: shared/design/architecture.md and issue 5."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulekit
from rulekit import testing as rt
from rulekit.compile import views
from rulekit.engine import steps
from rulekit.engine.state import State
from rulekit.testing import InvariantError

FIXTURES = Path(__file__).parent / "testing_fixtures"


def play_until(state, done, seed=0, limit=20_000):
    """Random legal moves until `done(state)`; returns the state before the last move too."""
    rng = random.Random(seed)
    before = None
    for _ in range(limit):
        if done(state):
            return state, before
        before = state.clone()
        state.apply(rng.choice(state.legal_moves()))
    raise AssertionError("the wanted position never came")


def last_card_of_trick(state):
    return state.view()["phase"] == "play" and len(state.view()["trick"]) == state.n - 1


def raises(invariant, *args, **kwargs) -> str:
    with pytest.raises(InvariantError) as caught:
        invariant(*args, **kwargs)
    assert caught.value.invariant == invariant.__name__
    return caught.value.message


# ---- the invariants hold in real play --------------------------------------------------------

@pytest.mark.parametrize("name, players", [("instinct", 3), ("insidious-sevens", 2), ("insidious-sevens", 4)])
def test_every_invariant_holds_move_by_move(name, players):
    game = rulekit.load(name)
    state, rng = game.new_game(players=players, seed=3), random.Random(3)
    rt.check_all(state, game=game)
    for _ in range(60):
        before = state.clone()
        state.apply(rng.choice(state.legal_moves()))
        rt.check_all(state, before, game=game)


# ---- each invariant catches what it is about -------------------------------------------------

def test_cards_conserved_names_a_card_in_two_places(instinct):
    # Instinct: "five suits ... numbered 1 through 12, 6 TRUMP cards": each card exists once.
    state = instinct.new_game(players=4, seed=1)
    card = (state.hands[1] & -state.hands[1]).bit_length() - 1
    text = state.rules.deck.texts[card]
    state.hands[0] |= 1 << card
    message = raises(rt.cards_conserved, state)
    assert message == f"{text!r} is in 2 places (hands[0], hands[1]) but the deck has 1"


def test_cards_conserved_names_a_lost_card(instinct):
    state = instinct.new_game(players=4, seed=1)
    card = (state.hands[2] & -state.hands[2]).bit_length() - 1
    state.hands[2] &= ~(1 << card)
    message = raises(rt.cards_conserved, state)
    assert message == f"{state.rules.deck.texts[card]!r} is missing: the deck has 1, found 0"


def test_cards_conserved_counts_copies(instinct):
    # "6 TRUMP cards": six cards with one text; a seventh is one too many.
    state = instinct.new_game(players=4, seed=1)
    trump = state.rules.deck.texts.index("trump")
    state.undealt |= 1 << trump
    state.hands = [hand | 1 << trump for hand in state.hands]
    assert raises(rt.cards_conserved, state).startswith("'trump' is in 10 places")


def test_one_seat_to_move_until_the_end(instinct):
    state = instinct.new_game(players=4, seed=1)
    state.current_player = None
    assert raises(rt.one_seat_to_move, state) == "the game is in play but current_player is None, not a seat 0..3"


def test_one_seat_to_move_needs_winners_at_the_end(sevens):
    state, _ = play_until(sevens.new_game(players=3, seed=2), lambda s: s.is_terminal)
    rt.one_seat_to_move(state)
    state.winners = []
    assert "the game is over but its winners are []" in raises(rt.one_seat_to_move, state)


def test_legal_moves_until_end_catches_a_stuck_seat(instinct):
    state, _ = play_until(instinct.new_game(players=3, seed=4), lambda s: s.view()["phase"] == "play")
    state.hands[state.current_player] = 0
    message = raises(rt.legal_moves_until_end, state)
    assert message == f"seat {state.current_player} must move in phase 'play' of round 1, but it has no legal move"


def test_illegal_move_changes_nothing_catches_a_state_that_moves(instinct, monkeypatch):
    # Contract: "apply of an illegal move raises IllegalMoveError ... and leaves the state exactly as it was."
    state = instinct.new_game(players=4, seed=5)
    rt.illegal_move_changes_nothing(state)
    resolve = State._resolve

    def careless(self, move, legal):
        self.scores[0] += 1
        return resolve(self, move, legal)
    monkeypatch.setattr(State, "_resolve", careless)
    message = raises(rt.illegal_move_changes_nothing, state)
    assert "raised, but changed the state: scores: [0, 0, 0, 0] → [1, 0, 0, 0]" in message


def test_illegal_move_must_raise_illegal_move_error(instinct, monkeypatch):
    state = instinct.new_game(players=4, seed=5)

    def crash(self, move, legal):
        raise KeyError(move)
    monkeypatch.setattr(State, "_resolve", crash)
    assert "raises KeyError instead of IllegalMoveError" in raises(rt.illegal_move_changes_nothing, state)


def test_replay_is_identical_catches_a_state_its_moves_do_not_give(sevens):
    # Contract: "the same rule file, seed and moves give the same game."
    state, _ = play_until(sevens.new_game(players=3, seed=6), lambda s: len(s.history) >= 20)
    rt.replay_is_identical(state, game=sevens)
    state.scores[1] += 5
    message = raises(rt.replay_is_identical, state)
    assert message.startswith("replaying the same 20 moves from seed 6 gives a different game: scores:")


def test_restore_round_trips_catches_a_lost_field(sevens, monkeypatch):
    state, _ = play_until(sevens.new_game(players=3, seed=7), lambda s: len(s.history) >= 30)
    rt.restore_round_trips(state, game=sevens)
    restore = views.restore

    def forgetful(rules, data):
        restored = restore(rules, data)
        restored.dealt = [0] * restored.n
        return restored
    monkeypatch.setattr(views, "restore", forgetful)
    message = raises(rt.restore_round_trips, state, game=sevens)
    assert message.startswith("restore(view()) differs from the state: dealt:")


def test_views_hide_hidden_information_catches_a_peek(instinct, request):
    # Contract: hands are "null where that seat may not see it".
    state = instinct.new_game(players=4, seed=8)
    rt.views_hide_hidden_information(state)
    request.getfixturevalue("peeking_views")
    message = raises(rt.views_hide_hidden_information, state, seats=[0])
    assert message.startswith("seat 0's view changes when ")
    assert "which seat 0 may not see: peek:" in message


def test_views_hide_hidden_information_catches_a_shown_choice(sevens, monkeypatch):
    # Sevens: "every player selects 1 card ... face down"; the others see only that one was chosen.
    state, _ = play_until(sevens.new_game(players=3, seed=9), lambda s: any(s.pending))
    rt.views_hide_hidden_information(state)
    chooser = next(p for p in range(3) if state.pending[p] is not None)
    looker = (chooser + 1) % 3
    choice = views._choice

    def shown(rules, st, seat, visible):
        return choice(rules, st, seat, True)
    monkeypatch.setattr(views, "_choice", shown)
    message = raises(rt.views_hide_hidden_information, state, seats=[looker])
    assert message.startswith(f"seat {looker}'s view shows seat {chooser}'s hidden choice: ")


def test_one_trick_winner_catches_two_winners(instinct):
    # Instinct: "whoever played the last trump card captures the trick": one seat takes it.
    state, _ = play_until(instinct.new_game(players=3, seed=10), last_card_of_trick)
    before = state.clone()
    state.apply(state.legal_moves()[0])
    rt.one_trick_winner(state, before)
    winner = state.current_player
    state.tricks_won[(winner + 1) % 3] += 1
    assert "exactly one seat must gain one" in raises(rt.one_trick_winner, state, before)


def test_scores_change_only_at_round_ends(instinct):
    state, _ = play_until(instinct.new_game(players=3, seed=11), lambda s: s.view()["phase"] == "play")
    before = state.clone()
    state.apply(state.legal_moves()[0])
    rt.scores_change_by_rules(state, before)
    state.scores[2] += 3
    message = raises(rt.scores_change_by_rules, state, before)
    assert message.endswith("changed the scores from [0, 0, 0] to [0, 0, 3] in the middle of a round")


def test_scores_at_a_round_end_are_the_score_rule(sevens):
    # Sevens: "score the number they bid + 2 points" or "lose 1 point for each trick ... over or under".
    def last_card_of_round(s):
        return s.view()["phase"] == "play" and len(s.history) and s.hand_size(s.current_player) == 1 \
            and len(s.view()["trick"]) == s.n - 1
    state, _ = play_until(sevens.new_game(players=3, seed=12), last_card_of_round)
    before = state.clone()
    state.apply(state.legal_moves()[0])
    assert state.round == 2
    rt.scores_change_by_rules(state, before)
    right = list(state.scores)
    state.scores[0] += 1
    message = raises(rt.scores_change_by_rules, state, before)
    assert message.endswith(f"so the scores should be {right}, but they are {state.scores}")


def test_ends_within_bound_reads_end_after_rounds(sevens):
    # Sevens: "end after 7 rounds" in the rule file, for the seven rounds of the passing schedule.
    state = sevens.new_game(players=3, seed=13)
    assert rt.round_bound(state.rules, 3) == 7
    state.round = 8
    assert raises(rt.ends_within_bound, state).startswith("the game is in round 8, but its rules end it after 7 rounds")


def test_ends_within_bound_caps_games_without_a_bound(instinct):
    # Instinct ends at 100 points, which no round count guarantees: the cap applies.
    state = instinct.new_game(players=4, seed=1)
    assert rt.round_bound(state.rules, 4) == rt.DEFAULT_MAX_ROUNDS
    state.round = 12
    rt.ends_within_bound(state)
    message = raises(rt.ends_within_bound, state, max_rounds=10)
    assert message.startswith("the game is in round 12 and nothing has ended it")


# ---- check_rules -----------------------------------------------------------------------------

def test_check_rules_is_clean_on_a_short_game(sevens):
    calls = []
    report = rt.check_rules(sevens, games=3, players=3, progress=lambda done, total: calls.append((done, total)))
    assert report.ok, report
    assert report.games == 3 and report.players == [3]
    # "0 1 ← 2 → 3 ← 2 → 1 ← 0": 7 rounds of 3 bids and 7 tricks, and 5 of them pass.
    assert report.shortest == report.longest == 7 * (3 + 7 * 3) + 5 * 3
    assert report.decisions == 3 * report.shortest
    assert calls == [(1, 3), (2, 3), (3, 3)]
    assert str(report).endswith("every invariant holds")


def test_check_rules_catches_a_game_that_never_ends():
    game = rulekit.load(FIXTURES / "never-ends.rules")
    report = rt.check_rules(game, games=2, players=2)
    assert not report.ok
    [failure] = report.failures
    assert failure.invariant == "ends_within_bound"
    assert failure.message.startswith("the game is in round 1001 and nothing has ended it")
    assert (failure.players, failure.seed, len(failure.moves)) == (2, 0, 4000)   # 1000 rounds of 4 decisions
    state = game.new_game(players=failure.players, seed=failure.seed)
    for move in failure.moves:
        state.apply(move)
    with pytest.raises(InvariantError):
        rt.ends_within_bound(state)
    shown = str(report)
    assert failure.kind == "never ends"
    assert "never ends: never-ends with 2 players, seed 0, after 4000 moves" in shown
    assert "state = game.new_game(players=2, seed=0)" in shown and "state.apply(move)" in shown


def test_check_rules_shrinks_to_the_shortest_failing_moves(instinct):
    def nobody_bids_three(state, before):
        if "bid 3" in state.history:
            raise AssertionError("someone bid 3")
    report = rt.check_rules(instinct, games=1, players=2, invariants=[nobody_bids_three])
    [failure] = report.failures
    assert (failure.invariant, failure.message) == ("nobody_bids_three", "someone bid 3")
    assert failure.moves == ["bid 3"], "the first bidder may bid 3 at once"


def test_a_failures_replay_runs_as_written(instinct):
    def no_second_trick(state, before):
        if sum(state.tricks_won) >= 2:
            raise AssertionError("two tricks")
    report = rt.check_rules(instinct, games=1, players=3, invariants=[no_second_trick])
    [failure] = report.failures
    space = {}
    exec(failure.replay(), space)
    assert space["state"].history == failure.moves
    assert sum(space["state"].tricks_won) == 2
    assert len(failure.moves) == 3 + 2 * 3, "three bids, then two tricks of three cards"


def test_check_rules_reports_an_engine_crash_with_its_replay(monkeypatch):
    from rulekit.compile import codegen

    monkeypatch.setattr(codegen, "ENABLED", False)      # the hand-written steps, which we break
    sevens = rulekit.load("insidious-sevens")
    apply = steps.Tricks.apply

    def crashing(self, st, move):
        if st.tricks_played == 2:
            raise RuntimeError("the table fell over")
        return apply(self, st, move)
    monkeypatch.setattr(steps.Tricks, "apply", crashing)
    report = rt.check_rules(sevens, games=1, players=3)
    [failure] = report.failures
    # Seen either by trying the legal moves of the position where any card crashes (when
    # that invariant is due there) or by the random player's own move into it.
    assert failure.invariant in ("legal_moves_until_end", "runs_without_errors")
    assert "RuntimeError: the table fell over" in failure.message
    assert len(failure.moves) <= 3 + 2 * 3 + 1, "three bids and two tricks; then any card crashes"
    report = rt.check_rules(sevens, games=1, players=3, skip=["legal_moves_until_end", "restore_round_trips",
                                                              "illegal_move_changes_nothing"])
    [failure] = report.failures
    assert failure.invariant == "runs_without_errors"
    assert failure.message.startswith(f"apply({failure.moves[-1]!r}) raises RuntimeError: the table fell over")
    assert len(failure.moves) == 3 + 2 * 3 + 1, "three bids, two tricks, the card that crashes"


def test_check_rules_checks_its_arguments(sevens):
    with pytest.raises(ValueError, match="for 2..5 players, not 7"):
        rt.check_rules(sevens, games=1, players=7)
    with pytest.raises(ValueError, match="no invariant 'cards_conserve'"):
        rt.check_rules(sevens, games=1, skip=["cards_conserve"])


# ---- engine bugs found by the invariants -----------------------------------------------------

def test_a_finished_game_restores_to_the_same_view(sevens):
    state, _ = play_until(sevens.new_game(players=2, seed=0), lambda s: s.is_terminal)
    assert sevens.restore(state.view()).view() == state.view()


def test_passing_across_plays(tmp_path):
    text = (FIXTURES / "never-ends.rules").read_text().replace("deal 1 each", "deal 2 each\n  pass 1 across")
    state = rulekit.loads(text).new_game(players=3, seed=0)
    assert state.view()["phase"] == "pass"
    state.apply(state.legal_moves()[0])
