"""General mechanisms a rule file can use beyond the shipped games: each with a small rule file."""
from __future__ import annotations

import pytest

import rulekit

BASE = """game "Mechanisms"
players 2..6
deck {
  suits clubs, diamonds, hearts, spades
  ranks 1..8
  order rank
}
round {
  dealer random, then next
  deal 4 each
  PASS
  BID
  tricks 4, first led by dealer, then by THEN
}
follow { otherwise -> same suit as lead if able }
trick winner { otherwise -> highest card of lead suit }
score { made -> 10 + bid  missed -> 0 }
end after 3 rounds
winner highest score
"""


def rules(pass_="", bid="bid 0..4, in turn from dealer", then="winner"):
    return rulekit.loads(BASE.replace("PASS", pass_).replace("BID", bid).replace("THEN", then))


def test_passing_across_goes_half_way_round():
    """`across`: to the seat half-way round the table (with 4 players, the one opposite)."""
    state = rules("pass 1 across").new_game(players=4, seed=3)
    before = [set(h) for h in state.view()["hands"]]
    chosen = []
    for seat in range(4):
        move = state.legal_moves()[0]
        chosen.append(str(move)[5:])
        state.apply(move)
    after = state.view()["hands"]
    for seat in range(4):
        assert set(after[seat]) == (before[seat] - {chosen[seat]}) | {chosen[(seat + 2) % 4]}


def test_then_by_dealer_leads_every_trick_from_the_dealer():
    state = rules(then="dealer").new_game(players=3, seed=5)
    dealer = state.view()["dealer"]
    for _ in range(3):
        state.apply("bid 1")
    for trick in range(4):
        assert state.current_player == dealer and state.view()["trick"] == []
        for _ in range(3):
            state.apply(state.legal_moves()[0])


def test_simultaneous_number_bids_stay_hidden_until_all_have_bid():
    state = rules(bid="bid 0..4, simultaneous").new_game(players=3, seed=2)
    first = state.current_player
    state.apply("bid 3")
    other = (first + 1) % 3
    assert state.view(other)["choices"][first] == "hidden"
    assert state.view(other)["bids"] == [None, None, None]
    assert state.view(first)["choices"][first] == 3
    restored = rules(bid="bid 0..4, simultaneous").restore(state.view())
    assert restored.view() == state.view()
    state.apply("bid 1")
    state.apply("bid 0")
    bids = state.view(other)["bids"]
    assert sorted(bids) == [0, 1, 3] and bids[first] == 3
    assert state.view()["phase"] == "play"


@pytest.mark.parametrize("variant", [dict(pass_="pass 1 across"), dict(then="left of dealer"),
                                     dict(bid="bid 0..4, simultaneous")])
def test_each_mechanism_plays_whole_games(variant):
    game = rules(**variant)
    for players in (2, 4, 5):
        state = game.new_game(players=players, seed=players)
        while not state.is_terminal:
            state.apply(state.legal_moves()[-1])
        assert state.view()["round"] == 3
