"""Hearts as a rule file (examples/games/hearts.rules), each distinguishing rule checked on
a scripted position, and the invariants of rulekit.testing on random games.

The rules quoted are the usual published ones: Bicycle's "Hearts"
(bicyclecards.com/how-to-play/hearts) and Pagat's "Hearts" (pagat.com/reverse/hearts.html):
- "each player selects any three cards and passes them to the player on their left ...
  On the second hand, each player passes three cards to the player on the right, on the
  third hand, to the player across the table. On the fourth hand, no cards are passed.
  The cycle of passing is then repeated" (Bicycle);
- "The player holding the 2 of clubs after the pass makes the opening lead" (Bicycle);
- "Hearts may not be led until a heart has been played ... unless the player has nothing
  but Hearts left in their hand" (the brief's wording of Bicycle's "breaking hearts");
- "Each heart taken counts one point, and the queen of spades 13" (Pagat);
- "If one player takes all the hearts and the queen of spades ... that player scores zero
  and each of the other players scores 26 points" (Pagat, "shooting the moon");
- "The game ends when someone reaches or exceeds 100 points ... the player with the
  lowest score wins" (Pagat: at the end of the hand in which it happens).
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import rulekit
from rulekit import testing as rt

RULES = Path(__file__).resolve().parent.parent / "examples" / "games" / "hearts.rules"
SUITS = ("clubs", "diamonds", "hearts", "spades")
DECK = [f"{s} {r}" for s in SUITS for r in range(2, 15)]


@pytest.fixture(scope="module")
def game():
    return rulekit.load(RULES)


def at(game, hands, *, current, taken=None, trick=(), scores=None, round_=1, leader=None, tricks_won=None):
    """A play position: `taken` per seat (cards of earlier tricks, one trick per 4 cards
    unless `tricks_won` says otherwise), the rest of the deck out of the round."""
    taken = taken or [[] for _ in hands]
    view = {
        "players": 4, "phase": "play", "round": round_, "current_player": current,
        "scores": scores or [0] * 4, "hands": [list(h) for h in hands], "dealer": 3,
        "leader": leader if leader is not None else (trick[0][0] if trick else current),
        "bids": [None] * 4, "tricks_won": tricks_won or [len(t) // 4 for t in taken],
        "taken": [list(t) for t in taken], "trick": [list(t) for t in trick], "trump": None,
        "seed": 0, "is_terminal": False, "winners": [],
    }
    return game.restore(view)


def texts(state):
    return [str(m) for m in state.legal_moves()]


def deal_to_play(game, seed=0):
    """A new game with every seat's first three cards passed: the first trick is next."""
    state = game.new_game(players=4, seed=seed)
    while state.view()["phase"] == "pass":
        state.apply(state.legal_moves()[0])
    return state


# ---- the first trick ------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_the_holder_of_the_two_of_clubs_leads_it(game, seed):
    # "The player holding the 2 of clubs after the pass makes the opening lead"
    state = deal_to_play(game, seed)
    view = state.view()
    holder = next(s for s, hand in enumerate(view["hands"]) if "clubs 2" in hand)
    assert view["phase"] == "play" and state.current_player == holder == view["leader"]
    assert texts(state) == ["play clubs 2"]
    with pytest.raises(rulekit.IllegalMoveError):
        state.apply(next(c for c in view["hands"][holder] if c != "clubs 2").join(["play ", ""]))


def test_the_two_of_clubs_is_led_after_it_was_passed(game):
    # the holder *after the pass* leads: find a deal where the two of clubs is passed on
    for seed in range(200):
        state = game.new_game(players=4, seed=seed)
        before = next(s for s, h in enumerate(state.view()["hands"]) if "clubs 2" in h)
        while state.view()["phase"] == "pass":
            moves = texts(state)
            state.apply(next((m for m in moves if "clubs 2" in m), moves[0]))
        after = next(s for s, h in enumerate(state.view()["hands"]) if "clubs 2" in h)
        if after != before:
            assert after == (before + 1) % 4          # round 1 passes to the left
            assert state.current_player == after and texts(state) == ["play clubs 2"]
            return
    pytest.fail("no deal passed the two of clubs")


# ---- breaking hearts ---------------------------------------------------------------------------

FIRST_TRICK = ["clubs 2", "clubs 3", "clubs 4", "clubs 5"]


def test_hearts_may_not_be_led_before_one_was_played(game):
    hands = [["hearts 5", "hearts 9", "diamonds 4", "spades 12"], ["diamonds 9"],
             ["diamonds 10"], ["diamonds 11"]]
    state = at(game, hands, current=0, taken=[FIRST_TRICK, [], [], []])
    assert texts(state) == ["play diamonds 4", "play spades 12"]


def test_a_leader_with_only_hearts_may_lead_one(game):
    # "... unless the player has nothing but Hearts left in their hand"
    state = at(game, [["hearts 5", "hearts 9"], ["diamonds 9"], ["diamonds 10"], ["diamonds 11"]],
               current=0, taken=[FIRST_TRICK, [], [], []])
    assert texts(state) == ["play hearts 5", "play hearts 9"]


def test_hearts_may_be_led_once_a_heart_was_discarded(game):
    taken = [["clubs 2", "clubs 3", "clubs 4", "hearts 2"], [], [], []]
    state = at(game, [["hearts 5", "diamonds 4"], ["diamonds 9"], ["diamonds 10"], ["diamonds 11"]],
               current=0, taken=taken)
    assert texts(state) == ["play diamonds 4", "play hearts 5"]


def test_a_void_seat_may_discard_a_heart_and_that_breaks_hearts(game):
    # following is the ordinary rule: a seat without clubs may play a heart before they
    # are broken, and the next leader may then lead hearts
    trick = [[0, "clubs 9"], [1, "clubs 10"], [2, "clubs 11"]]
    state = at(game, [["diamonds 2"], ["diamonds 3"], ["diamonds 5"], ["hearts 7", "hearts 8"]],
               current=3, taken=[FIRST_TRICK, [], [], []], trick=trick)
    assert texts(state) == ["play hearts 7", "play hearts 8"]
    state.apply("play hearts 7")
    assert state.current_player == 2                 # the jack of clubs won
    state2 = at(game, [["diamonds 2"], ["diamonds 3"], ["hearts 3", "diamonds 5"], ["hearts 8"]],
                current=2, taken=[FIRST_TRICK, [], ["clubs 9", "clubs 10", "clubs 11", "hearts 7"], []])
    assert texts(state2) == ["play diamonds 5", "play hearts 3"]


def test_playing_to_a_lead_must_follow_suit(game):
    state = at(game, [["diamonds 2"], ["clubs 7", "hearts 9", "spades 12"], ["diamonds 5"], ["diamonds 6"]],
               current=1, taken=[FIRST_TRICK, [], [], []], trick=[[0, "clubs 9"]])
    assert texts(state) == ["play clubs 7"]


# ---- scoring ----------------------------------------------------------------------------------

HEARTS = [f"hearts {r}" for r in range(2, 15)]


def last_trick(game, taken, cards, scores=None):
    """Seats 0-3 play `cards` to the thirteenth trick of a round, seat 0 leading; `taken`
    is what each seat took in the twelve tricks before (seat 0 counted as their taker)."""
    state = at(game, [[c] for c in cards], current=0, taken=taken, scores=scores, tricks_won=[12, 0, 0, 0])
    for card in cards:
        state.apply(f"play {card}")
    return state


def test_a_heart_is_a_point_and_the_queen_of_spades_thirteen(game):
    taken = [["hearts 2", "hearts 3", "spades 12"], ["hearts 5"], [], []]
    # seat 2 takes the last trick with the four of spades, a heart discarded to it
    state = last_trick(game, taken, ["spades 2", "spades 3", "spades 4", "hearts 4"])
    assert state.scores == [15, 1, 1, 0]


def test_taking_every_point_shoots_the_moon(game):
    # "that player scores zero and each of the other players scores 26 points"
    taken = [HEARTS[:-1] + ["spades 12"], [], [], []]
    state = last_trick(game, taken, ["hearts 14", "clubs 2", "clubs 3", "diamonds 2"])
    assert state.scores == [0, 26, 26, 26]


def test_all_but_one_point_is_no_moon(game):
    taken = [HEARTS[:-2] + ["spades 12"], [], [], []]
    state = last_trick(game, taken, ["hearts 13", "hearts 14", "clubs 3", "diamonds 2"])
    assert state.scores == [24, 2, 0, 0]


def test_the_game_ends_after_the_round_in_which_someone_reaches_100(game):
    taken = [["spades 12"], [], [], []]
    cards = ["spades 2", "spades 3", "spades 4", "spades 5"]          # seat 3 takes it
    state = last_trick(game, taken, cards, scores=[80, 40, 50, 60])
    assert state.scores == [93, 40, 50, 60] and not state.is_terminal      # 93: play on
    assert state.view()["round"] == 2
    state = last_trick(game, taken, cards, scores=[90, 40, 50, 60])
    assert state.scores == [103, 40, 50, 60] and state.is_terminal
    # "the player with the lowest score wins"
    assert state.winners == [1]


def test_equal_lowest_scores_share_the_win(game):
    state = last_trick(game, [["spades 12"], [], [], []], ["spades 2", "spades 3", "spades 4", "spades 5"],
                       scores=[90, 40, 40, 60])
    assert state.is_terminal and state.winners == [1, 2]


# ---- passing ----------------------------------------------------------------------------------

def test_passes_go_left_right_across_then_not_at_all_and_cycle(game):
    state = game.new_game(players=4, seed=5)
    rng = random.Random(5)
    offsets = []
    for _ in range(6):
        assert not state.is_terminal
        if state.view()["phase"] != "pass":
            offsets.append(None)
        else:
            passed = {}
            while state.view()["phase"] == "pass":
                seat = state.current_player
                move = rng.choice(state.legal_moves())
                passed[seat] = str(move)[5:].split(", ")
                state.apply(move)
            hands = state.view()["hands"]
            found = {(t - s) % 4 for s, cards in passed.items() for t in range(4)
                     if all(c in hands[t] for c in cards)}
            assert len(found) == 1
            offsets.append(found.pop())
        round_ = state.view()["round"]
        while not state.is_terminal and state.view()["round"] == round_:
            state.apply(rng.choice(state.legal_moves()))
    assert offsets == [1, 3, 2, None, 1, 3]          # left, right, across, hold, left, right


def test_a_pass_is_three_cards_written_as_the_contract_says(game):
    state = game.new_game(players=4, seed=2)
    hand = state.view()["hands"][0]
    text = f"pass {hand[5]}, {hand[0]}, {hand[9]}"
    state.apply(text)
    assert state.current_player == 1


# ---- invariants -------------------------------------------------------------------------------

def test_random_games_keep_every_invariant(game):
    report = rt.check_rules(game, games=3, seed=9)
    assert report.ok, report


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 2**32))
def test_every_round_gives_out_26_points_or_a_moon(game, seed):
    state = game.new_game(players=4, seed=seed)
    rng = random.Random(seed)
    scores = list(state.scores)
    while not state.is_terminal:
        round_ = state.view()["round"]
        _lead_rules_hold(state)
        state.apply(rng.choice(state.legal_moves()))
        if state.is_terminal or state.view()["round"] != round_:
            gained = [a - b for a, b in zip(state.scores, scores)]
            assert sorted(gained) in ([0, 26, 26, 26],) or sum(gained) == 26
            scores = list(state.scores)
    assert max(state.scores) >= 100
    assert state.winners == [s for s in range(4) if state.scores[s] == min(state.scores)]


def _lead_rules_hold(state):
    view = state.view()
    if view["phase"] != "play" or view["trick"]:
        return
    hand = view["hands"][state.current_player]
    legal = [str(m)[5:] for m in state.legal_moves()]
    played = [c for cards in view.get("taken") or [] for c in cards]
    if "clubs 2" in hand:
        assert legal == ["clubs 2"]
    elif not any(c.startswith("hearts") for c in played) and any(not c.startswith("hearts") for c in hand):
        assert all(not c.startswith("hearts") for c in legal)
    else:
        assert sorted(legal) == sorted(hand)


# ---- the variant: no points on the first trick ------------------------------------------------

@pytest.fixture(scope="module")
def clean():
    return rulekit.load(RULES, variant="clean_first_trick")


def test_no_heart_or_queen_may_be_discarded_to_the_first_trick(clean):
    # "If a player has no clubs when the first trick is led, a heart or the queen of spades
    # cannot be discarded" (Bicycle)
    hand = ["hearts 9", "spades 12", "diamonds 4", "spades 3"]
    state = at(clean, [["clubs 9"], hand, ["clubs 4"], ["clubs 5"]], current=1, trick=[[0, "clubs 2"]])
    assert texts(state) == ["play diamonds 4", "play spades 3"]


def test_a_hand_of_only_points_may_discard_them_to_the_first_trick(clean):
    state = at(clean, [["clubs 9"], ["hearts 9", "spades 12"], ["clubs 4"], ["clubs 5"]], current=1,
               trick=[[0, "clubs 2"]])
    assert texts(state) == ["play hearts 9", "play spades 12"]


def test_after_the_first_trick_points_may_be_discarded(clean):
    hand = ["hearts 9", "spades 12", "diamonds 4"]
    state = at(clean, [["clubs 9"], hand, ["clubs 10"], ["clubs 11"]], current=1, trick=[[0, "clubs 8"]],
               taken=[FIRST_TRICK, [], [], []])
    assert texts(state) == ["play diamonds 4", "play hearts 9", "play spades 12"]


def test_the_variant_keeps_every_invariant(clean):
    assert rt.check_rules(clean, games=2, seed=4).ok


@pytest.mark.parametrize("variant", [None, "clean_first_trick"])
def test_states_keep_every_invariant(variant):
    game = rulekit.load(RULES, variant=variant)

    @settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(rt.states(game, max_moves=80), hs.data())
    def check(state, data):
        rt.check_move(state, lambda s: data.draw(rt.moves(s)), game=game)
    check()


def test_a_first_trick_in_play_restores_with_its_leader(game):
    state = deal_to_play(game, 1)
    state.apply("play clubs 2")
    assert game.restore(state.view()).view() == state.view()
