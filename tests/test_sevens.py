"""Insidious Sevens, from its rulebook (shared/rulebooks/insidious-sevens.txt)."""
from __future__ import annotations

import pytest

import rulekit
from positions import legal_texts, play, position

ARTHUR, BEATRICE, CHARLIE, DOROTHY = range(4)

# "Playing Example 1": the four hands, seats clockwise Arthur, Beatrice, Charlie, Dorothy.
HANDS = [
    ["red 6", "yellow 2", "yellow 6", "blue 2", "blue 6", "purple 1", "purple 5"],
    ["red 0", "yellow 4", "green 1", "green 2", "green 3", "blue 1", "purple 0"],
    ["yellow 3", "yellow 5", "yellow 7", "green 5", "green 7", "blue 0", "blue 4"],
    ["red 2", "red 3", "red 4", "red 7", "green 0", "purple 6", "purple 7"],
]


@pytest.fixture(scope="module")
def game():
    return rulekit.load("insidious-sevens")


def test_deck_and_card_order(game):
    """"one card of each number 0 to 7 in each of 5 colours" and "Number value takes precedence over
    colour. So a green 4 is higher than a red 4, and higher than a purple 3.\""""
    deck = game.new_game(players=4, seed=1).rules.deck
    assert deck.size == 40
    key = {t: deck.key[i] for i, t in enumerate(deck.texts)}
    assert key["green 4"] > key["red 4"] > key["purple 3"]
    assert key["purple 7"] == max(key.values()) and key["red 0"] == min(key.values())


def bidding_position(game):
    return position(game, HANDS, phase="bid", current=ARTHUR)


def test_bidding_example(game):
    """"Charlie's yellow 3 is the highest bid. Therefore the yellow trump indicator is placed in the middle
    of the table, showing that yellow cards are trumps. Charlie also goes first in the playing step.\""""
    state = bidding_position(game)
    play(state, "bid blue 2", "bid red 0", "bid yellow 3", "bid red 3")
    view = state.view()
    assert view["bids"] == [2, 0, 3, 3]
    assert view["trump"] == "yellow"
    assert view["phase"] == "play"
    assert state.current_player == CHARLIE
    assert view["hand_sizes"] == [7, 7, 7, 7], "After bidding, the cards return to the players' hands"


def test_bids_stay_hidden_until_all_have_chosen(game):
    """"places it face down ... Once all players have decided their bid, the cards are revealed
    simultaneously.\""""
    state = bidding_position(game)
    play(state, "bid blue 2", "bid red 0")
    for seat in (BEATRICE, CHARLIE, DOROTHY):
        view = state.view(seat)
        assert view["choices"][ARTHUR] == "hidden"
        assert "blue 2" not in str(view["choices"])
        assert view["bids"] == [None] * 4
    assert state.view(ARTHUR)["choices"][ARTHUR] == "blue 2"


def playing_position(game):
    state = bidding_position(game)
    return play(state, "bid blue 2", "bid red 0", "bid yellow 3", "bid red 3")


def test_playing_example_1(game):
    """"Charlie leads green 7. ... Arthur has no card that matches the lead, so he may play any card he
    wishes. He plays a trump (yellow 2) and wins the trick.\""""
    state = playing_position(game)
    state.apply("play green 7")
    assert legal_texts(state) == ["play red 7", "play green 0", "play purple 7"]
    state.apply("play purple 7")
    assert len(legal_texts(state)) == 7, "Arthur has no matching card: any card"
    state.apply("play yellow 2")
    assert legal_texts(state) == ["play green 1", "play green 2", "play green 3"]
    state.apply("play green 3")
    view = state.view()
    assert view["tricks_won"] == [1, 0, 0, 0]
    assert state.current_player == ARTHUR, "The player who won the trick ... leads the next trick."


def test_playing_example_2(game):
    """"Arthur ... leads red 6 for the next trick. Beatrice has no choice. Charlie has no matching card, so
    he decides to hold on to his trump cards. Dorothy plays purple 6 and wins, because purple beats red.\""""
    state = playing_position(game)
    play(state, "play green 7", "play purple 7", "play yellow 2", "play green 3")
    state.apply("play red 6")
    assert legal_texts(state) == ["play red 0"], "Beatrice has no choice."
    state.apply("play red 0")
    assert len(legal_texts(state)) == 6, "Charlie has no matching card: any card, trumps included"
    state.apply("play blue 0")
    assert legal_texts(state) == ["play red 2", "play red 3", "play red 4", "play red 7", "play purple 6"]
    state.apply("play purple 6")
    assert state.view()["tricks_won"] == [1, 0, 0, 1]
    assert state.current_player == DOROTHY


def test_must_follow_even_holding_a_trump(game):
    """"Important: If a player is able to follow the lead, they must do so, even if they have a trump card
    that does not match the lead.\""""
    state = position(game, [["red 1", "blue 2"], ["red 5", "yellow 3"]], current=0, trump="yellow",
                     bids=[1, 1], tricks_won=[3, 2])
    state.apply("play red 1")
    assert legal_texts(state) == ["play red 5"]


def test_highest_trump_wins_even_without_following(game):
    """"If any trump cards were played, the highest trump wins automatically, even if it did not follow the
    lead.\""""
    hands = [["red 7", "blue 2"], ["yellow 2", "blue 3"], ["yellow 5", "blue 4"]]
    state = position(game, hands, current=0, trump="yellow", bids=[1, 1, 1], tricks_won=[2, 2, 1])
    play(state, "play red 7", "play yellow 2", "play yellow 5")
    assert state.view()["tricks_won"] == [2, 2, 2]


def test_cards_that_did_not_follow_cannot_win(game):
    """"Non-trump cards that did not follow the lead cannot win the trick.\""""
    hands = [["red 1", "blue 2"], ["blue 7", "blue 3"], ["green 1", "blue 4"]]
    state = position(game, hands, current=0, trump="yellow", bids=[1, 1, 1], tricks_won=[2, 2, 1])
    play(state, "play red 1", "play blue 7", "play green 1")
    assert state.view()["tricks_won"] == [2, 2, 2], "green 1 matches the number and beats red 1 by colour"


def test_following_by_number_then_colour_breaks_the_tie(game):
    """"If 2 cards are tied on number, use the colour order to decide.\""""
    hands = [["green 4", "blue 2"], ["red 4", "blue 3"], ["purple 4", "blue 5"]]
    state = position(game, hands, current=0, trump="yellow", bids=[1, 1, 1], tricks_won=[2, 2, 1])
    play(state, "play green 4", "play red 4", "play purple 4")
    assert state.view()["tricks_won"] == [2, 2, 2]


def test_scoring_example(game):
    """"Arthur bid 3 and won 4 tricks. He loses 1 point. Beatrice bid 0 and won 0 tricks. She scores 2
    points. Charlie bid 3 and won 1 trick. He loses 2 points. Dorothy bid 2 and won 2 tricks. She scores 4
    points (2 + 2).\" (the last trick goes to Arthur)"""
    hands = [["purple 7"], ["red 0"], ["red 1"], ["red 2"]]
    state = position(game, hands, current=ARTHUR, trump="blue", bids=[3, 0, 3, 2], tricks_won=[3, 0, 1, 2])
    play(state, "play purple 7", "play red 0", "play red 1", "play red 2")
    assert state.scores == [-1, 2, -2, 4]


PASSES = {1: (0, 0), 2: (1, +1), 3: (2, -1), 4: (3, +1), 5: (2, -1), 6: (1, +1), 7: (0, 0)}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_passing_in_every_round(game, players):
    """"In the 2nd and 6th rounds, every player passes 1 card to the player on their left. In the 3rd and
    5th rounds, every player passes 2 cards to the player on their right. In the 4th round, every player
    passes 3 cards to the player on their left." (left = the next seat clockwise)"""
    state = game.new_game(players=players, seed=players)
    for rnd in range(1, 8):
        count, direction = PASSES[rnd]
        view = state.view()
        assert view["round"] == rnd
        if count == 0:
            assert view["phase"] == "bid", "In the first and last rounds there is no passing step."
        else:
            assert view["phase"] == "pass"
            before = [set(h) for h in view["hands"]]
            chosen = []
            for seat in range(players):
                assert state.current_player == seat
                move = state.legal_moves()[-1]
                assert len(str(move)[5:].split(", ")) == count
                chosen.append(set(str(move)[5:].split(", ")))
                state.apply(move)
                if seat < players - 1:
                    other = (seat + 1) % players
                    assert state.view(other)["choices"][seat] == "hidden"
                    assert state.view(other)["hands"][seat] is None
            after = state.view()["hands"]
            for seat in range(players):
                giver = (seat - direction) % players
                assert set(after[seat]) == (before[seat] - chosen[seat]) | chosen[giver]
        while state.view()["round"] == rnd and not state.is_terminal:
            state.apply(state.legal_moves()[0])
    assert state.is_terminal and state.view()["round"] == 7, "After the 7 rounds, the player with the highest score wins."


def test_pass_text_accepts_any_card_order(game):
    state = game.new_game(players=3, seed=4)
    while state.view()["phase"] != "pass":
        state.apply(state.legal_moves()[0])
    move = str(state.legal_moves()[0])
    cards = move[5:].split(", ")
    typed = "PASS  " + " , ".join(reversed(cards))
    copy = state.clone()
    copy.apply(typed)
    assert copy.history[-1] == move


def test_two_players_always_use_pico():
    """"when only 2 players are playing, the Pico rule must be used" — the rule file says so."""
    game = rulekit.load("insidious-sevens")
    assert game.new_game(players=2, seed=1).view()["variants"] == ["pico"]
    assert game.new_game(players=3, seed=1).view()["variants"] == []


def pico_game(hands):
    game = rulekit.load("insidious-sevens", variant="pico")
    return game, position(game, hands, phase="bid", current=0, round=1)


def test_pico_chain_of_rebids():
    """"if the bids add up to exactly 7 ... the player who made the highest bid immediately scores 1 point
    ... the cards used in the bidding step are set aside ... every player must bid again using the 6 cards
    remaining ... Several Picos can occur in a row ... Then the players take all of their cards back.\""""
    hands = [["red 3", "yellow 3", "green 0", "blue 1", "blue 2", "purple 1", "purple 2"],
             ["red 4", "yellow 4", "green 1", "blue 3", "blue 4", "purple 3", "purple 4"]]
    game, state = pico_game(hands)
    play(state, "bid red 3", "bid red 4")
    view = state.view()
    assert view["scores"] == [0, 1] and view["phase"] == "bid"
    assert view["set_aside"] == [["red 3"], ["red 4"]]
    assert view["hand_sizes"] == [6, 6]
    play(state, "bid yellow 3", "bid yellow 4")
    assert state.view()["scores"] == [0, 2]
    play(state, "bid green 0", "bid green 1")
    view = state.view()
    assert view["phase"] == "play" and view["bids"] == [0, 1]
    assert view["hand_sizes"] == [7, 7] and view["set_aside"] == [[], []]
    assert view["trump"] == "green"
    assert sorted(view["hands"][0]) == sorted(hands[0])


def test_pico_redeal_when_no_cards_are_left():
    """"In the rare case where 7 Picos occur in a row and the players have no cards left to bid with, the
    deck is reshuffled and a new hand is dealt. (Players keep their Pico points.)\""""
    hands = [[f"red {n}" for n in range(7)], [f"yellow {7 - n}" for n in range(7)]]
    game, state = pico_game(hands)
    for n in range(7):
        play(state, f"bid red {n}", f"bid yellow {7 - n}")
    view = state.view()
    assert view["scores"] == [3, 4], "yellow 7, 6, 5, 4 beat red 0..3; red 4, 5, 6 beat yellow 3, 2, 1"
    assert view["phase"] == "bid" and view["hand_sizes"] == [7, 7]
    assert view["set_aside"] == [[], []]
    assert sorted(view["hands"][0] + view["hands"][1]) != sorted(hands[0] + hands[1])
    total = view["hands"][0] + view["hands"][1] + view["undealt"]
    assert len(total) == 40 and len(set(total)) == 40


def _seven_picos(variant, round):
    hands = [[f"red {n}" for n in range(7)], [f"yellow {7 - n}" for n in range(7)]]
    game = rulekit.load("insidious-sevens", variant=variant)
    state = position(game, hands, phase="bid", current=0, round=round)
    for n in range(7):
        play(state, f"bid red {n}", f"bid yellow {7 - n}")
    return state.view()


def test_after_seven_picos_the_passing_is_not_repeated():
    """"the deck is reshuffled and a new hand is dealt": the rule sits in the bidding step, so in
    the 2nd round (pass 1 left) the new hands go straight to bidding again."""
    view = _seven_picos("pico", round=2)
    assert view["phase"] == "bid" and view["hand_sizes"] == [7, 7] and view["scores"] == [3, 4]


def test_variant_pico_restart_repeats_the_rounds_passing():
    """The other reading: "To start each round, the dealer deals 7 cards to each player" and "In the
    2nd and 6th rounds, every player passes 1 card to the player on their left", so a new hand
    starts the round again, passing included; "(Players keep their Pico points.)"
    """
    view = _seven_picos("pico_restart", round=2)
    assert view["variants"] == ["pico", "pico_restart"]
    assert view["phase"] == "pass" and view["round"] == 2 and view["hand_sizes"] == [7, 7]
    assert view["scores"] == [3, 4] and view["bids"] == [None, None] and view["set_aside"] == [[], []]
    total = view["hands"][0] + view["hands"][1] + view["undealt"]
    assert len(total) == 40 and len(set(total)) == 40
    assert _seven_picos("pico_restart", round=1)["phase"] == "bid"   # round 1 has no passing step


def test_no_pico_without_the_variant(game):
    """The Pico rule is "(Optional)" for 3 to 5 players."""
    hands = [["red 3", "blue 1"], ["red 4", "blue 2"], ["red 0", "blue 3"]]
    state = position(game, hands, phase="bid", current=0)
    play(state, "bid red 3", "bid red 4", "bid red 0")
    assert state.view()["phase"] == "play" and state.scores == [0, 0, 0]


@pytest.mark.parametrize("players", [2, 4])
def test_seeded_games_play_to_the_end(game, players):
    state = game.new_game(players=players, seed=9)
    while not state.is_terminal:
        moves = state.legal_moves()
        state.apply(moves[len(state.history) % len(moves)])
    assert state.view()["round"] == 7
    assert state.winners == [s for s in range(players) if state.scores[s] == max(state.scores)]


def test_taken_tricks_lie_face_up(game):
    """"The player who won the trick takes the cards and places them face up in front of them"."""
    state = playing_position(game)
    play(state, "play green 7", "play purple 7", "play yellow 2", "play green 3", "play red 6")
    view = state.view(BEATRICE)
    assert view["taken"][ARTHUR] == ["yellow 2", "green 3", "green 7", "purple 7"]
    assert view["last_trick"] == [[CHARLIE, "green 7"], [DOROTHY, "purple 7"], [ARTHUR, "yellow 2"],
                                  [BEATRICE, "green 3"]]
