"""Partnership Whist as a rule file (examples/games/whist.rules), tested against the
published rules it follows (https://whiteknucklecards.com/games/whist.html):

- "Whist is a game for four players in two fixed-partnerships" (partners sit opposite);
- "Each player is dealt 13 cards ... finishing with the dealer's last and 13th card, which
  is turned up and calls trumps. This card belongs to the dealer but remains face up on the
  table until it is dealer's turn to play to the first trick";
- "The person to the dealer's left leads first and thereafter the winner of the trick leads";
- "the side which has won the most tricks scores 1 point for each trick they won in excess
  of 6. The partnership which first reaches 5 points wins the game".
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulekit
from rulekit import testing as rt
from positions import position

WHIST = Path(__file__).resolve().parent.parent / "examples" / "games" / "whist.rules"


@pytest.fixture(scope="module")
def game():
    return rulekit.load(WHIST)


def last_trick(game, *, tricks_won, scores, leader=0, dealer=3, hands=None):
    """The last trick of a round, `leader` to lead; spades are trumps."""
    hands = hands or [["hearts 14"], ["hearts 2"], ["hearts 3"], ["hearts 4"]]
    view = position(game, hands, current=leader, dealer=dealer, leader=leader, tricks_won=tricks_won,
                    scores=scores, trump="spades").view()
    view["teams"] = [[0, 2], [1, 3]]
    return game.restore(view)


def test_partners_sit_opposite_and_every_view_says_so(game):
    state = game.new_game(seed=1)
    assert state.view()["teams"] == [[0, 2], [1, 3]]
    assert all(state.view(seat)["teams"] == [[0, 2], [1, 3]] for seat in range(4))
    rules = state.rules
    assert rules.teams(4) == ((0, 2), (1, 3))
    assert [rules.team_of(4, seat) for seat in range(4)] == [0, 1, 0, 1]


@pytest.mark.parametrize("seed", range(6))
def test_the_dealers_last_card_is_shown_to_all_and_calls_trumps(game, seed):
    state = game.new_game(seed=seed)
    view = state.view()
    dealer, shown = view["dealer"], view["trump_card"]
    assert shown in view["hands"][dealer]            # "This card belongs to the dealer"
    assert shown.split()[0] == view["trump"]         # "... which is turned up and calls trumps"
    assert all(state.view(seat)["trump_card"] == shown for seat in range(4))
    assert view["current_player"] == (dealer + 1) % 4    # "The person to the dealer's left leads first"


def test_the_shown_card_is_no_longer_shown_once_the_dealer_has_played_it(game):
    state = game.new_game(seed=4)
    dealer, shown = state.view()["dealer"], state.view()["trump_card"]
    rng = random.Random(0)
    while shown in state.view()["hands"][dealer]:
        if state.current_player == dealer and shown in [str(m)[5:] for m in state.legal_moves()]:
            state.apply(f"play {shown}")
        else:
            state.apply(rng.choice(state.legal_moves()))
    assert state.view()["trump_card"] is None


def test_a_side_scores_a_point_for_each_trick_over_six(game):
    state = last_trick(game, tricks_won=[4, 2, 4, 2], scores=[1, 2, 1, 2])
    for move in ("play hearts 14", "play hearts 2", "play hearts 3", "play hearts 4"):
        state.apply(move)
    # seats 0 and 2 took 5 + 4 = 9 tricks: three over six, for both partners
    assert state.view()["last_round"]["points"] == [3, 0, 3, 0]
    assert state.scores == [4, 2, 4, 2]


def test_a_side_with_six_tricks_or_fewer_scores_nothing(game):
    state = last_trick(game, tricks_won=[3, 3, 2, 4], scores=[0, 0, 0, 0])
    for move in ("play hearts 14", "play hearts 2", "play hearts 3", "play hearts 4"):
        state.apply(move)
    assert state.view()["last_round"]["points"] == [0, 1, 0, 1]    # 6 against 7


def test_the_partnership_that_first_reaches_five_wins_together(game):
    state = last_trick(game, tricks_won=[4, 2, 4, 2], scores=[3, 4, 3, 4])
    for move in ("play hearts 14", "play hearts 2", "play hearts 3", "play hearts 4"):
        state.apply(move)
    assert state.is_terminal and state.scores == [6, 4, 6, 4] and state.winners == [0, 2]


def test_the_long_game_goes_to_ten(game):
    long = rulekit.load(WHIST, variant="long")
    state = last_trick(long, tricks_won=[4, 2, 4, 2], scores=[3, 4, 3, 4])
    for move in ("play hearts 14", "play hearts 2", "play hearts 3", "play hearts 4"):
        state.apply(move)
    assert not state.is_terminal and state.scores == [6, 4, 6, 4]


@pytest.mark.parametrize("seed", range(3))
def test_random_games_keep_every_invariant_and_partners_share_one_score(game, seed):
    report = rt.check_rules(game, games=2, seed=seed)
    assert report.ok, report
    rng = random.Random(seed)
    state = game.new_game(seed=seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_moves()))
        assert state.scores[0] == state.scores[2] and state.scores[1] == state.scores[3]
    assert max(state.scores) >= 5 and set(state.winners) in ({0, 2}, {1, 3})


def test_a_view_round_trips_through_restore_with_its_teams_and_trump_card(game):
    state = game.new_game(seed=2)
    rt.restore_round_trips(state, game=game)
    view = state.view()
    view["teams"] = [[0, 1], [2, 3]]
    with pytest.raises(rulekit.ViewError if hasattr(rulekit, "ViewError") else ValueError, match="teams"):
        game.restore(view)


@pytest.mark.parametrize("seed", range(8))
def test_a_seat_cannot_tell_a_determinized_state_apart_the_shown_card_stays_with_the_dealer(game, seed):
    """Every seat saw the dealer's turned-up card: a sampled world keeps it in that hand."""
    state, rng = game.new_game(seed=seed), random.Random(seed)
    for _ in range(seed * 2):
        state.apply(rng.choice(state.legal_moves()))
    seat = state.current_player
    sample = state.determinize(seat, seed=seed)
    assert sample.view(seat) == state.view(seat)
    shown = state.view()["trump_card"]
    assert shown is None or shown in sample.view()["hands"][state.view()["dealer"]]
