"""Wizard as a rule file (examples/games/wizard.rules): each distinguishing rule on a
scripted position, and the invariants of rulekit.testing on random games.

The rules quoted are the published ones: the rules sheet of U.S. Games Systems' "Wizard"
(Ken Fisher) and Pagat's "Wizard" (pagat.com/exact/wizard.html):
- "The number of rounds depends on the number of players: 3 players 20 rounds, 4 players
  15, 5 players 12, 6 players 10" (60 / players); "in the first round each player is dealt
  one card, in the second round two cards, and so on";
- "The top card of the remaining deck is turned over to determine the trump suit. If a
  Jester is turned, there is no trump; if a Wizard is turned, the dealer picks the trump
  suit. In the final round all cards are dealt and there is no trump";
- "Starting with the player to the left of the dealer, each player bids the number of
  tricks they expect to take";
- "Players must follow suit if able, but Wizards and Jesters may be played at any time";
  "If a Wizard is led, the other players may play any card"; "If a Jester is led, the suit
  is set by the first card that is not a Jester (if that is a Wizard, any card may follow)";
- "The trick is won by the first Wizard played; if there is none, by the highest trump;
  otherwise by the highest card of the suit led. If only Jesters are played, the first
  Jester wins";
- "A correct bid scores 20 points plus 10 per trick taken; otherwise the player loses 10
  points for each trick over or under the bid".
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import rulekit
from rulekit import testing as rt

RULES = Path(__file__).resolve().parent.parent / "examples" / "games" / "wizard.rules"


@pytest.fixture(scope="module")
def game():
    return rulekit.load(RULES)


def at(game, hands, *, current, trick=(), trump=None, turned="diamonds 13", bids=None, round_=None,
       tricks_won=None, leader=None, dealer=0, scores=None):
    players = len(hands)
    view = {
        "players": players, "phase": "play", "round": round_ or len(hands[0]) + len(trick) // players,
        "current_player": current, "scores": scores or [0] * players, "hands": [list(h) for h in hands],
        "dealer": dealer, "leader": leader if leader is not None else (trick[0][0] if trick else current),
        "bids": bids or [0] * players, "tricks_won": tricks_won or [0] * players,
        "trick": [list(t) for t in trick], "trump": trump, "turned": turned,
        "seed": 0, "is_terminal": False, "winners": [],
    }
    return game.restore(view)


def texts(state):
    return [str(m) for m in state.legal_moves()]


def play(state, *cards):
    for card in cards:
        state.apply(f"play {card}")
    return state


# ---- rounds, deals, trump -----------------------------------------------------------------------

@pytest.mark.parametrize("players, rounds", [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_sixty_over_players_rounds_of_one_more_card_each(game, players, rounds):
    state = game.new_game(players=players, seed=players)
    rng = random.Random(players)
    dealt = []
    while not state.is_terminal:
        view = state.view()
        if view["round"] > len(dealt):
            dealt.append(max(view["hand_sizes"]))
        state.apply(rng.choice(state.legal_moves()))
    assert dealt == list(range(1, rounds + 1))


def _first_round_with_turned(game, players, kind):
    for seed in range(400):
        state = game.new_game(players=players, seed=seed)
        if state.view()["turned"] == kind:
            return state
    pytest.fail(f"no deal turned a {kind}")


def test_the_turned_card_sets_trump(game):
    for seed in range(40):
        state = game.new_game(players=4, seed=seed)
        view = state.view()
        if view["turned"] not in ("wizard", "jester"):
            assert view["trump"] == view["turned"].split()[0] and view["phase"] == "bid"
            return
    pytest.fail("every deal turned a special card")


def test_a_jester_turned_means_no_trump(game):
    view = _first_round_with_turned(game, 4, "jester").view()
    assert view["trump"] is None and view["phase"] == "bid"


def test_a_wizard_turned_lets_the_dealer_name_trump_before_the_bids(game):
    # "if a Wizard is turned, the dealer picks the trump suit"; the bids follow
    state = _first_round_with_turned(game, 4, "wizard")
    view = state.view()
    assert view["phase"] == "trump" and state.current_player == view["dealer"]
    assert texts(state) == ["choose clubs", "choose diamonds", "choose hearts", "choose spades"]
    state.apply("choose hearts")
    view = state.view()
    assert view["trump"] == "hearts" and view["phase"] == "bid"
    assert state.current_player == (view["dealer"] + 1) % 4


def test_the_last_round_has_no_trump(game):
    state = game.new_game(players=6, seed=1)
    rng = random.Random(1)
    while state.view()["round"] < 10:
        state.apply(rng.choice(state.legal_moves()))
    view = state.view()
    assert view["round"] == 10 and view["turned"] is None and view["trump"] is None
    assert view["hand_sizes"] == [10] * 6


def test_bids_go_from_the_dealers_left_and_run_from_zero_to_the_hand(game):
    state = game.new_game(players=3, seed=2)
    rng = random.Random(2)
    while state.view()["round"] < 3:
        state.apply(rng.choice(state.legal_moves()))
    while state.view()["phase"] != "bid":
        state.apply(state.legal_moves()[0])
    view = state.view()
    assert state.current_player == (view["dealer"] + 1) % 3
    assert texts(state) == ["bid 0", "bid 1", "bid 2", "bid 3"]


# ---- following ------------------------------------------------------------------------------------

def test_follow_suit_but_wizards_and_jesters_are_always_allowed(game):
    state = at(game, [["clubs 2"], ["hearts 3", "hearts 9", "wizard", "jester", "spades 14"], ["clubs 4"]],
               current=1, trick=[[0, "hearts 10"]], trump="spades")
    assert texts(state) == ["play hearts 3", "play hearts 9", "play wizard", "play jester"]


def test_a_seat_that_cannot_follow_plays_anything(game):
    state = at(game, [["clubs 2"], ["clubs 3", "spades 14", "jester"], ["clubs 4"]],
               current=1, trick=[[0, "hearts 10"]], trump="spades")
    assert texts(state) == ["play clubs 3", "play spades 14", "play jester"]


def test_a_wizard_led_frees_everyone(game):
    state = at(game, [["clubs 2"], ["hearts 3", "clubs 9"], ["clubs 4"]], current=1,
               trick=[[0, "wizard"]], trump="spades")
    assert texts(state) == ["play clubs 9", "play hearts 3"]


def test_a_jester_led_sets_no_suit_the_next_card_does(game):
    state = at(game, [["clubs 2"], ["hearts 3", "clubs 9"], ["clubs 4", "hearts 8"]], current=1,
               trick=[[0, "jester"]], trump="spades")
    assert texts(state) == ["play clubs 9", "play hearts 3"]
    state.apply("play clubs 9")
    assert texts(state) == ["play clubs 4"]


def test_a_wizard_after_a_jester_lead_frees_everyone(game):
    state = at(game, [["clubs 2"], ["wizard"], ["clubs 4", "hearts 8"]], current=1,
               trick=[[0, "jester"]], trump="spades")
    state.apply("play wizard")
    assert texts(state) == ["play clubs 4", "play hearts 8"]


# ---- winning --------------------------------------------------------------------------------------

@pytest.mark.parametrize("cards, winner", [
    (["hearts 10", "wizard", "wizard"], 1),          # the first Wizard
    (["wizard", "spades 14", "wizard"], 0),
    (["hearts 10", "spades 2", "hearts 14"], 1),     # the highest trump
    (["hearts 10", "spades 2", "spades 9"], 2),
    (["hearts 10", "clubs 14", "hearts 12"], 2),     # the highest of the suit led
    (["jester", "hearts 3", "hearts 7"], 2),         # a Jester led: the hearts decide
    (["jester", "jester", "jester"], 0),             # only Jesters: the first
    (["hearts 3", "jester", "jester"], 0),
])
def test_who_takes_the_trick(game, cards, winner):
    fillers = ["diamonds 2", "diamonds 3", "diamonds 4"]          # a second trick to come
    state = at(game, [[cards[s], fillers[s]] for s in range(3)], current=0, trump="spades")
    play(state, *cards)
    won = [0, 0, 0]
    won[winner] = 1
    assert state.view()["tricks_won"] == won


# ---- scoring --------------------------------------------------------------------------------------

def test_a_correct_bid_scores_twenty_and_ten_a_trick_a_wrong_one_ten_a_trick_off(game):
    # round 3, last trick: seat 0 bid 2 and has 1, seat 1 bid 0 and has 0, seat 2 bid 3 and has 1
    state = at(game, [["spades 14"], ["clubs 2"], ["clubs 3"]], current=0, trump="spades", round_=3,
               bids=[2, 0, 3], tricks_won=[1, 0, 1], scores=[10, 20, 30])
    play(state, "spades 14", "clubs 2", "clubs 3")
    assert state.scores == [10 + 20 + 20, 20 + 20, 30 - 20]


def test_the_highest_total_wins(game):
    state = game.new_game(players=3, seed=4)
    rng = random.Random(4)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_moves()))
    assert state.winners == [s for s in range(3) if state.scores[s] == max(state.scores)]


# ---- invariants -----------------------------------------------------------------------------------

def test_random_games_keep_every_invariant(game):
    assert rt.check_rules(game, games=1, seed=5).ok


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hs.data())
def test_states_keep_every_invariant(game, data):
    state = data.draw(rt.states(game, max_moves=60))
    rt.check_move(state, lambda s: data.draw(rt.moves(s)), game=game)
