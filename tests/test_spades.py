"""Spades as a rule file (examples/games/spades.rules), tested against the published rules
it follows (https://www.pagat.com/auctionwhist/spades.html):

- "The four players are in fixed partnerships, with partners sitting opposite each other";
- "A bid of 0 tricks is known as Nil"; a side's bid is its partners' bids added up;
- "A side that takes at least as many tricks as its bid calls for receives a score equal to
  10 times its bid. Additional tricks (bags) are worth an extra one point each";
- "If a side does not make its bid, they lose 10 points for each trick they bid";
- a successful nil wins the side 100, a failed one loses 100, "in addition to the score won
  or lost by the partner of the nil bidder for their tricks";
- "A side which (over several deals) accumulates 10 or more bags has 100 points deducted
  from its score. Any bags beyond 10 are carried over to the next cycle";
- the game is to 500; reached by both sides in one deal, the higher score wins.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulekit
from rulekit import testing as rt
from positions import position

SPADES = Path(__file__).resolve().parent.parent / "examples" / "games" / "spades.rules"
#: The last trick of a round, led by seat 0: the ace of spades (trumps) takes it.
LAST = [["spades 14"], ["hearts 2"], ["hearts 3"], ["hearts 4"]]
#: ... and here seat 1 takes it with the only trump.
SEAT_1_TAKES = [["hearts 14"], ["spades 2"], ["hearts 3"], ["hearts 4"]]


@pytest.fixture(scope="module")
def game():
    return rulekit.load(SPADES)


def finish(game, *, bids, names=(None,) * 4, tricks_won, scores=(0, 0, 0, 0), bags=(0, 0), hands=LAST):
    """Play the last trick of a round whose bids and tricks so far are given."""
    view = position(game, hands, current=0, dealer=3, leader=0, bids=list(bids), tricks_won=list(tricks_won),
                    scores=list(scores), trump="spades").view()
    view.update(teams=[[0, 2], [1, 3]], counters={"bags": list(bags)}, bid_names=list(names))
    state = game.restore(view)
    for seat in range(4):
        state.apply(state.legal_moves()[0])
    return state


def test_seats_0_and_2_play_against_1_and_3(game):
    state = game.new_game(seed=1)
    assert state.view()["teams"] == [[0, 2], [1, 3]]
    assert state.rules.teams(4) == ((0, 2), (1, 3))


def test_each_seat_bids_a_number_of_tricks_or_nil(game):
    state = game.new_game(seed=2)
    texts = [str(m) for m in state.legal_moves()]
    assert texts == [f"bid {n}" for n in range(1, 14)] + ["bid nil"]
    state.apply("bid nil")
    bidder = state.view()["current_player"]
    assert state.view()["bid_names"][(bidder - 1) % 4] == "nil"
    assert state.view()["bids"][(bidder - 1) % 4] == 0


def test_a_made_contract_scores_ten_a_trick_bid_and_one_a_bag(game):
    # seats 0+2 bid 4+3 = 7 and take 6+3 = 9: 70 and 2 bags; seats 1+3 bid 3+5 = 8, take 4
    state = finish(game, bids=[4, 3, 3, 5], tricks_won=[5, 1, 3, 3])
    assert state.view()["last_round"]["points"] == [72, -80, 72, -80]
    assert state.view()["counters"] == {"bags": [2, 0]}


def test_a_successful_nil_adds_100_beside_the_partners_contract(game):
    # seat 1 bid nil and took nothing; seat 3 bid 5 and took 4 (the side's bid is 5): -50 + 100
    state = finish(game, bids=[4, 0, 3, 5], names=[None, "nil", None, None], tricks_won=[5, 0, 4, 3])
    assert state.view()["last_round"]["points"][1] == 50
    assert state.scores[1] == state.scores[3] == 50


def test_a_failed_nil_costs_100_and_its_tricks_do_not_make_the_partners_bid(game):
    # seat 1 (nil) takes the last trick: a trick, so -100; seat 3 bid 4 and took 4 of its own
    state = finish(game, bids=[4, 0, 3, 4], names=[None, "nil", None, None], tricks_won=[4, 0, 4, 4],
                   hands=SEAT_1_TAKES)
    assert state.view()["last_round"]["tricks_won"] == [4, 1, 4, 4]
    assert state.view()["last_round"]["points"][1] == 40 - 100
    # the same trick counted for seat 3 would be a bag; a nil bidder's trick is none
    assert state.view()["counters"]["bags"][1] == 0


def test_a_missed_contract_loses_ten_a_trick_bid(game):
    state = finish(game, bids=[6, 3, 4, 3], tricks_won=[4, 2, 4, 2])
    assert state.view()["last_round"]["points"][0] == -100     # took 9 of 10 bid


def test_ten_bags_cost_the_side_100_and_the_rest_carry_over(game):
    state = finish(game, bids=[4, 3, 3, 5], tricks_won=[5, 1, 3, 3], bags=(9, 4))
    # 2 more bags: 11, so 100 off and 1 carried over
    assert state.view()["last_round"]["points"][0] == 72 - 100
    assert state.view()["counters"] == {"bags": [1, 4]}


def test_bags_are_kept_from_round_to_round(game):
    state = finish(game, bids=[4, 3, 3, 5], tricks_won=[5, 1, 3, 3], bags=(3, 0))
    assert not state.is_terminal and state.view()["round"] == 2
    assert state.view()["counters"] == {"bags": [5, 0]}
    state.apply(state.legal_moves()[0])                        # a bid of round 2
    assert state.view()["counters"] == {"bags": [5, 0]}


def test_the_game_ends_when_a_side_reaches_500_and_the_higher_side_wins(game):
    state = finish(game, bids=[4, 3, 3, 5], tricks_won=[5, 1, 3, 3], scores=(440, 470, 440, 470))
    assert state.is_terminal
    assert state.scores == [512, 390, 512, 390] and state.winners == [0, 2]


def test_both_sides_over_500_and_equal_play_on(game):
    state = finish(game, bids=[4, 3, 3, 5], tricks_won=[5, 1, 3, 3], scores=(450, 602, 450, 602))
    assert state.scores == [522, 522, 522, 522] and not state.is_terminal


def test_a_side_at_minus_200_loses(game):
    state = finish(game, bids=[4, 3, 3, 5], tricks_won=[5, 1, 3, 3], scores=(0, -150, 0, -150))
    assert state.is_terminal and state.winners == [0, 2]


@pytest.mark.parametrize("variant", [None, "to_300"])
def test_random_games_keep_every_invariant(variant):
    game = rulekit.load(SPADES, variant=variant)
    report = rt.check_rules(game, games=4, seed=7)
    assert report.ok, report


def test_partners_always_show_the_same_score_and_win_together(game):
    for seed in range(4):
        rng, state = random.Random(seed), game.new_game(seed=seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_moves()))
            assert state.scores[0] == state.scores[2] and state.scores[1] == state.scores[3]
        assert set(state.winners) in ({0, 2}, {1, 3})


def test_counters_and_named_bids_round_trip_through_restore(game):
    rng, state = random.Random(3), game.new_game(seed=3)
    for _ in range(6):
        state.apply(rng.choice(state.legal_moves()))
        rt.restore_round_trips(state, game=game)


def test_a_view_with_wrong_counters_is_refused(game):
    view = game.new_game(seed=1).view()
    view["counters"] = {"bags": [1, 2, 3]}
    with pytest.raises(ValueError, match="bags"):
        game.restore(view)
    view["counters"], view["bid_names"] = {"bags": [0, 0]}, ["blind", None, None, None]
    with pytest.raises(ValueError, match="bid_names"):
        game.restore(view)


def leading(game, hand, taken=([], [], [], [])):
    """Seat 0 to lead the second trick with `hand`; `taken` the cards of the trick before."""
    others = [["hearts 2", "hearts 3"], ["hearts 4", "hearts 5"], ["hearts 6", "hearts 7"]]
    view = position(game, [hand] + others, current=0, dealer=3, leader=0, bids=[1, 1, 1, 1],
                    tricks_won=[1 if t else 0 for t in taken], trump="spades").view()
    gone = {card for t in taken for card in t}
    view.update(teams=[[0, 2], [1, 3]], taken=[list(t) for t in taken],
                undealt=[card for card in view["undealt"] if card not in gone])
    return [str(m) for m in game.restore(view).legal_moves()]


def test_spades_may_not_be_led_until_one_has_been_played(game):
    """ "Spades may not be led until either some player has played a spade (on a previous
    trick), or the leader has nothing but spades left in hand" """
    assert leading(game, ["spades 14", "clubs 3"]) == ["play clubs 3"]
    assert leading(game, ["spades 14", "spades 3"]) == ["play spades 3", "play spades 14"]
    broken = (["clubs 4", "clubs 5", "spades 2", "clubs 6"], [], [], [])
    assert leading(game, ["spades 14", "clubs 3"], broken) == ["play clubs 3", "play spades 14"]
