"""Instinct, from its rulebook (shared/rulebooks/instinct.txt): each test quotes its sentence."""
from __future__ import annotations

import pytest

import rulekit
from positions import legal_texts, play, position


@pytest.fixture(scope="module")
def game():
    return rulekit.load("instinct")


def test_deck_has_66_cards(game):
    """"A 66-card deck made up of five suits ... numbered 1 through 12, 6 TRUMP cards"."""
    deck = game.new_game(players=4, seed=1).rules.deck
    assert deck.size == 66
    assert deck.texts.count("trump") == 6
    assert {t.split()[0] for t in deck.texts if t != "trump"} == {"black", "blue", "green", "red", "white"}


@pytest.mark.parametrize("players", range(2, 7))
def test_deal_and_bidding_start_with_the_dealer(game, players):
    """"The dealer shuffles and deals 11 cards to each player." / "Starting with the dealer"."""
    state = game.new_game(players=players, seed=players)
    view = state.view()
    assert view["hand_sizes"] == [11] * players
    assert len(view["undealt"]) == 66 - 11 * players
    assert view["phase"] == "bid"
    assert state.current_player == view["dealer"]
    assert legal_texts(state) == [f"bid {n}" for n in range(12)]


def test_bids_go_clockwise_and_the_dealer_leads(game):
    """"proceeding clockwise" / "The dealer leads by playing any card from his or her hand."."""
    state = game.new_game(players=4, seed=3)
    dealer = state.view()["dealer"]
    seen = []
    for _ in range(4):
        seen.append(state.current_player)
        state.apply("bid 2")
    assert seen == [(dealer + i) % 4 for i in range(4)]
    assert state.view()["phase"] == "play"
    assert state.current_player == dealer
    assert len(state.legal_moves()) == len({t for t in state.view()["hands"][dealer]})


def test_the_deal_passes_clockwise(game):
    """"The deal will then pass clockwise after each round.\""""
    state = game.new_game(players=3, seed=5)
    first = state.view()["dealer"]
    while state.view()["round"] == 1:
        state.apply(state.legal_moves()[0])
    assert state.view()["dealer"] == (first + 1) % 3
    assert state.current_player == (first + 1) % 3


def test_highest_of_the_suit_led_wins(game):
    """"the second player captures the trick because the blue 9 is the highest card of the suit led"."""
    state = position(game, [["blue 4", "red 2"], ["blue 9", "red 3"], ["blue 7", "red 12"]],
                     current=0, bids=[1, 1, 0])
    play(state, "play blue 4", "play blue 9", "play blue 7")
    assert state.view()["tricks_won"] == [0, 1, 0]
    assert state.current_player == 1, "That player then plays the first card for the next trick."


def test_off_suit_cards_do_not_win(game):
    """"the player who played the highest card in the suit led captures the trick"."""
    state = position(game, [["green 2", "red 2"], ["red 12", "red 3"]], current=0, bids=[1, 1])
    play(state, "play green 2", "play red 12")
    assert state.view()["tricks_won"] == [1, 0]


def test_must_follow_suit_even_holding_a_trump(game):
    """"If a trump card is played on a trick, you still have to play a card of the suit led (if possible)."."""
    state = position(game, [["blue 4", "red 2"], ["blue 9", "trump", "red 3"]], current=0, bids=[1, 1])
    state.apply("play blue 4")
    assert legal_texts(state) == ["play blue 9"]
    with pytest.raises(rulekit.IllegalMoveError):
        state.apply("play trump")


def test_without_the_suit_led_any_card_or_a_trump(game):
    """"If you don't have any cards of the suit led, you may play a card of another suit or a trump card.\""""
    state = position(game, [["blue 4", "red 2"], ["green 9", "trump", "red 3"]], current=0, bids=[1, 1])
    state.apply("play blue 4")
    assert legal_texts(state) == ["play green 9", "play red 3", "play trump"]


def test_a_trump_lead_frees_everyone(game):
    """"If a trump card is led, you may either play a trump card or a card of any other suit (even if you
    have a trump card). This is the only time you are not required to follow the suit led."."""
    state = position(game, [["trump", "red 2"], ["blue 9", "trump", "red 3"]], current=0, bids=[1, 1])
    state.apply("play trump")
    assert legal_texts(state) == ["play blue 9", "play red 3", "play trump"]


def test_a_trump_beats_the_suit_led(game):
    """"If someone plays a trump card, that player captures the trick"."""
    state = position(game, [["blue 12", "red 2"], ["green 1", "trump"], ["blue 1", "red 3"]],
                     current=0, bids=[1, 1, 0])
    play(state, "play blue 12", "play trump", "play blue 1")
    assert state.view()["tricks_won"] == [0, 1, 0]


def test_the_last_trump_played_wins(game):
    """"All trump cards share the same rank. If more than one trump card is played, whoever played the
    last trump card captures the trick."."""
    hands = [["blue 12", "red 2"], ["trump", "red 5"], ["trump", "red 3"], ["blue 1", "red 4"]]
    state = position(game, hands, current=0, bids=[0, 0, 0, 0])
    play(state, "play blue 12", "play trump", "play trump", "play blue 1")
    assert state.view()["tricks_won"] == [0, 0, 1, 0]
    assert state.current_player == 2


def test_the_last_trump_wins_after_a_trump_lead(game):
    """"whoever played the last trump card captures the trick", also when a trump is led."""
    hands = [["trump", "red 2"], ["blue 12", "red 5"], ["trump", "red 3"]]
    state = position(game, hands, current=0, bids=[0, 0, 0])
    play(state, "play trump", "play blue 12", "play trump")
    assert state.view()["tricks_won"] == [0, 0, 1]


def test_the_six_trumps_are_one_move(game):
    """"All trump cards share the same rank": holding two trumps gives one move, `play trump`."""
    state = position(game, [["trump", "trump", "red 2"], ["blue 9", "red 3", "red 4"]], current=0, bids=[1, 1])
    assert legal_texts(state) == ["play red 2", "play trump"]
    state.apply("play trump")
    assert state.view()["hands"][0] == ["red 2", "trump"]


MADE = {0: 20, 1: 15, 2: 10, 3: 10, 4: 15, 5: 20, 6: 60, 7: 60, 8: 60, 9: 60, 10: 60, 11: 60}


def _last_trick(game, bid: int, made: bool):
    """Seat 0 bid `bid`; the last trick of the round decides whether it is made."""
    if made:
        before, seat0_wins = (bid - 1, True) if bid >= 1 else (0, False)
    else:
        before, seat0_wins = (bid, True) if bid <= 10 else (9, True)
    lead, other = ("black 12", "black 1") if seat0_wins else ("black 1", "black 12")
    state = position(game, [[lead], [other]], current=0, bids=[bid, 0], tricks_won=[before, 10 - before])
    play(state, f"play {lead}", f"play {other}")
    assert (state.view()["tricks_won"][0] == bid) == made or state.view()["round"] == 2
    return state


@pytest.mark.parametrize("bid", range(12))
def test_score_table_made(game, bid):
    """"If you capture exactly as many tricks as you bid, you get 10 points." plus the bonus list:
    0 → +10, 1 → +5, 4 → +5, 5 → +10, "6 or more tricks ... 50 bonus points (60 total)"."""
    state = _last_trick(game, bid, made=True)
    view = state.view()
    assert view["scores"][0] == MADE[bid]


@pytest.mark.parametrize("bid", range(12))
def test_score_table_missed(game, bid):
    """"If you capture more or fewer tricks than you bid, you get 0 points.\""""
    state = _last_trick(game, bid, made=False)
    assert state.view()["scores"][0] == 0


def _round_end(game, scores, bids, tricks_won, players=None, dealer=0, variant=None, round=1):
    """Play the last trick of a round from the given totals; seat 0 takes the trick."""
    n = len(scores)
    hands = [["black 12"]] + [[f"black {i}"] for i in range(1, n)]
    state = position(game, hands, current=0, bids=bids, tricks_won=tricks_won, scores=scores,
                     dealer=dealer, round=round)
    for i in range(n):
        state.apply(state.legal_moves()[0])
    return state


def test_the_game_ends_when_someone_reaches_100(game):
    """"The first player to score 100 or more points wins the game.\""""
    state = _round_end(game, [90, 50, 40], bids=[1, 4, 4], tricks_won=[0, 5, 5])
    assert state.is_terminal and state.current_player is None
    assert state.scores == [105, 50, 40]
    assert state.winners == [0]
    assert state.legal_moves() == []


def test_the_game_goes_on_below_100(game):
    """The target is checked after a round: 95 is not enough."""
    state = _round_end(game, [85, 50, 40], bids=[2, 4, 4], tricks_won=[0, 5, 5])
    assert not state.is_terminal
    assert state.scores == [85, 50, 40]
    assert state.view()["round"] == 2


def test_highest_total_wins_when_two_reach_100(game):
    """"If two or more players reach 100 at the same time, the player with the highest total score wins.\""""
    state = _round_end(game, [90, 95, 40], bids=[1, 1, 4], tricks_won=[0, 1, 9])
    assert state.scores == [105, 110, 40]
    assert state.winners == [1]


def test_a_tie_for_high_score_shares_the_win(game):
    """"If there is a tie for high score, both players win the game.\""""
    state = _round_end(game, [90, 90, 40], bids=[1, 1, 4], tricks_won=[0, 1, 9])
    assert state.scores == [105, 105, 40]
    assert state.winners == [0, 1]


def test_short_game_ends_at_60():
    """"(If you want to play a short game, you can play until someone scores 60 points ...)\""""
    short = rulekit.load("instinct", variant="short")
    state = _round_end(short, [50, 0, 0], bids=[1, 4, 4], tricks_won=[0, 5, 5])
    assert state.is_terminal and state.winners == [0]


def test_short_game_ends_when_each_player_has_dealt_twice():
    """"... or until each player has dealt twice, whichever comes first.\""""
    short = rulekit.load("instinct", variant="short")
    state = short.new_game(players=3, seed=11)
    dealers = []
    while not state.is_terminal:
        view = state.view()
        if not dealers or dealers[-1] != (view["round"], view["dealer"]):
            dealers.append((view["round"], view["dealer"]))
        state.apply(state.legal_moves()[-1])
    if max(state.scores) < 60:
        assert len(dealers) == 6
        assert state.view()["dealt"] == [2, 2, 2]
    assert state.view()["dealt"] == [d for d in state.view()["dealt"]]
    assert min(state.view()["dealt"]) >= 2 or max(state.scores) >= 60


def test_short_game_is_a_variant_and_base_game_is_not_short(game):
    assert game.variants == {"short": "Short game", "table": "Table play (Player Errors)"}
    base = _round_end(game, [50, 0, 0], bids=[1, 4, 4], tricks_won=[0, 5, 5])
    assert not base.is_terminal


@pytest.mark.parametrize("players", range(2, 7))
def test_full_seeded_game_plays_to_the_end(game, players):
    state = game.new_game(players=players, seed=42)
    moves = 0
    while not state.is_terminal:
        assert state.legal_moves(), "legal moves are non-empty until the end"
        state.apply(state.legal_moves()[moves % len(state.legal_moves())])
        moves += 1
    assert max(state.scores) >= 100
    assert state.winners and all(state.scores[w] == max(state.scores) for w in state.winners)


def test_a_turned_trick_cannot_be_looked_at(game):
    """"once a trick is turned face-down, players cannot look at those cards": the last trick shows
    until the next card is led, and nobody sees the cards a seat took."""
    hands = [["blue 4", "red 2"], ["blue 9", "red 3"], ["blue 7", "red 12"]]
    state = position(game, hands, current=0, bids=[1, 1, 0])
    play(state, "play blue 4", "play blue 9", "play blue 7")
    assert state.view(2)["last_trick"] == [[0, "blue 4"], [1, "blue 9"], [2, "blue 7"]]
    assert "taken" not in state.view(2)
    state.apply("play red 3")
    assert state.view(2)["last_trick"] == []
    assert state.view()["taken"][1] == ["blue 4", "blue 7", "blue 9"]
