"""Trump-dependent card identity (`colour ...` and `top trumps ...` in the deck), tested on
tests/card_rules/bowers.rules against the published rules of Euchre.

The rules quoted are Bicycle's "Euchre" (bicyclecards.com/how-to-play/euchre), as Hoyle
gives them too: "The highest trump is the jack of the trump suit, called the 'right
bower.' The second-highest trump is the jack of the other suit of the same color, called
the 'left bower.'"; "the left bower is considered to be a trump" (so it is no longer of its
printed suit); "the rank in trumps is: right bower, left bower, A, K, Q, 10, 9"; "each
player must follow suit if possible" and "a trick containing trumps is won by the highest
trump; otherwise by the highest card of the suit led".
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as hs

import rulekit
from rulekit.testing import cards_conserved, check_rules, restore_round_trips
from positions import legal_texts, play, position

RULES = Path(__file__).parent / "card_rules" / "bowers.rules"


@pytest.fixture(scope="module")
def game():
    return rulekit.load(RULES)


def at(game, hands, trump, trick=(), current=None):
    current = current if current is not None else (trick[-1][0] + 1) % 4 if trick else 1
    return position(game, hands, current=current, dealer=0, trick=trick, trump=trump)


def test_right_bower_beats_the_trump_ace_and_left_bower(game):
    # "The highest trump is the jack of the trump suit"
    st = at(game, [["hearts 14"], ["hearts 11"], ["diamonds 11"], ["spades 9"]], "hearts", current=0)
    play(st, "play hearts 14", "play hearts 11", "play diamonds 11", "play spades 9")
    assert st.view()["tricks_won"] == [0, 1, 0, 0]


def test_left_bower_is_second_highest_trump(game):
    # "The second-highest trump is the jack of the other suit of the same color"
    st = at(game, [["hearts 14"], ["diamonds 11"], ["hearts 13"], ["spades 9"]], "hearts", current=0)
    play(st, "play hearts 14", "play diamonds 11", "play hearts 13", "play spades 9")
    assert st.view()["tricks_won"] == [0, 1, 0, 0]


def test_left_bower_trumps_a_plain_lead(game):
    # the left bower is a trump: on a club lead it wins over the ace of clubs
    st = at(game, [["clubs 14"], ["diamonds 11"], ["clubs 13"], ["clubs 9"]], "hearts", current=0)
    play(st, "play clubs 14", "play diamonds 11", "play clubs 13", "play clubs 9")
    assert st.view()["tricks_won"] == [0, 1, 0, 0]


def test_left_bower_follows_a_trump_lead(game):
    # "the left bower is considered to be a trump": a holder of it must play it to a trump
    # lead when it has no other trump, even holding cards of its printed suit
    st = at(game, [["hearts 10"], ["diamonds 11", "diamonds 14", "clubs 9"], ["clubs 10"], ["clubs 12"]],
            "hearts", trick=[[0, "hearts 9"]])
    assert legal_texts(st) == ["play diamonds 11"]


def test_left_bower_does_not_follow_its_printed_suit(game):
    # on a diamond lead (hearts trump) the jack of diamonds is not a diamond: a seat with
    # the jack and another diamond must play the diamond; with only the jack it is free
    st = at(game, [["spades 9"], ["diamonds 11", "diamonds 14", "clubs 9"], ["clubs 10"], ["clubs 12"]],
            "hearts", trick=[[0, "diamonds 9"]])
    assert legal_texts(st) == ["play diamonds 14"]
    st = at(game, [["spades 9"], ["diamonds 11", "clubs 9"], ["clubs 10"], ["clubs 12"]],
            "hearts", trick=[[0, "diamonds 9"]])
    assert legal_texts(st) == ["play clubs 9", "play diamonds 11"]


def test_leading_the_left_bower_leads_trump(game):
    st = at(game, [["spades 9"], ["hearts 9", "diamonds 14"], ["clubs 10"], ["clubs 12"]],
            "hearts", trick=[[0, "diamonds 11"]])
    assert legal_texts(st) == ["play hearts 9"]


def test_jacks_of_the_other_colour_stay_plain(game):
    # with hearts trump the black jacks are plain cards of their suits
    st = at(game, [["clubs 14"], ["clubs 11"], ["spades 11"], ["clubs 9"]], "hearts", current=0)
    play(st, "play clubs 14", "play clubs 11", "play spades 11", "play clubs 9")
    assert st.view()["tricks_won"] == [1, 0, 0, 0]


@pytest.mark.parametrize("trump, right, left", [("clubs", "clubs 11", "spades 11"),
                                                ("spades", "spades 11", "clubs 11"),
                                                ("diamonds", "diamonds 11", "hearts 11")])
def test_every_trump_has_its_own_bowers(game, trump, right, left):
    st = at(game, [[f"{trump} 14"], [left], [right], ["hearts 9" if trump != "hearts" else "clubs 9"]],
            trump, current=0)
    play(st, f"play {trump} 14", f"play {left}", f"play {right}")
    st.apply(st.legal_moves()[0])
    assert st.view()["tricks_won"] == [0, 0, 1, 0]


def test_without_top_trumps_the_same_deck_plays_plainly():
    plain = RULES.read_text().replace("  top trumps 11 of trump suit, 11 of trump colour\n", "")
    game = rulekit.loads(plain)
    st = at(game, [["hearts 14"], ["diamonds 11"], ["hearts 13"], ["spades 9"]], "hearts", current=0)
    play(st, "play hearts 14", "play diamonds 11", "play hearts 13", "play spades 9")
    assert st.view()["tricks_won"] == [1, 0, 0, 0]


def test_a_named_card_and_a_special_card_as_top_trumps():
    # Five Hundred style: the joker above both bowers; a fixed card is named as `suit rank`
    text = RULES.read_text().replace("top trumps 11 of trump suit, 11 of trump colour",
                                     "card joker\n  top trumps joker, 11 of trump suit, 11 of trump colour")
    text = text.replace("deal 5 each", "deal 6 each")
    game = rulekit.loads(text)
    st = at(game, [["hearts 11"], ["joker"], ["diamonds 11"], ["spades 9"]], "hearts", current=0)
    play(st, "play hearts 11", "play joker", "play diamonds 11", "play spades 9")
    assert st.view()["tricks_won"] == [0, 1, 0, 0]


@settings(max_examples=15, deadline=None)
@given(seed=hs.integers(0, 10_000))
def test_random_games_keep_cards_and_round_trip(game, seed):
    st = game.new_game(players=4, seed=seed)
    rng = random.Random(seed)
    while not st.is_terminal:
        cards_conserved(st)
        restore_round_trips(st, game=game)
        trump = st.view()["trump"]
        _follow_obligation_holds(st, trump)
        st.apply(rng.choice(st.legal_moves()))
    assert sum(st.scores) == 4 * 5


def _follow_obligation_holds(st, trump):
    """With the bowers counted as trumps, a seat that can follow the lead's effective suit
    may play only such cards."""
    view = st.view()
    if view["phase"] != "play" or not view["trick"]:
        return
    colour = {"clubs": "black", "spades": "black", "diamonds": "red", "hearts": "red"}

    def suit(card):
        name, rank = card.split()
        if rank == "11" and colour[name] == colour[trump]:
            return trump
        return name

    led = suit(view["trick"][0][1])
    hand = view["hands"][view["current_player"]]
    followers = sorted(c for c in hand if suit(c) == led)
    if followers:
        assert sorted(m.split(" ", 1)[1] for m in map(str, st.legal_moves())) == followers


def test_the_rule_file_passes_the_generic_checks(game):
    assert check_rules(game, games=5).ok
