"""Euchre as a rule file (examples/games/euchre.rules), tested against the published rules it
follows (Pagat's "Euchre", https://www.pagat.com/euchre/euchre.html):

- "four players in fixed partnerships, partners sitting opposite ... a 24 card pack";
  "Each player is dealt five cards ... the top card is turned face up."
- "Starting with the player to dealer's left, each player in turn may either pass or 'order
  up' ... the dealer adds the turned up card to his hand and discards one card face down."
- "If all four players pass ... a second round ... name any suit except the suit of the turned
  up card. If all four players pass in the second round, the cards are thrown in and the next
  player deals."
- "The highest trump is the jack of the trump suit, called the right bower. The second highest
  trump is the other jack of the same colour, called the left bower ... the left bower is
  considered to belong to the trump suit."
- "The player to dealer's left leads to the first trick."
- "3 or 4 tricks they score 1 point; ... all five tricks (a march) they score 2 points. ...
  euchred, and the other side scores 2 points." "If a lone player wins all five tricks, his
  side scores 4 points." "The first team to score 10 points wins."
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import rulekit
from rulekit import testing as rt

RULES = Path(__file__).resolve().parent.parent / "examples" / "games" / "euchre.rules"
SUITS = ("clubs", "diamonds", "hearts", "spades")


@pytest.fixture(scope="module")
def game():
    return rulekit.load(RULES)


def texts(state) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def dealer_zero_seed(game) -> int:
    return next(s for s in range(200) if game.new_game(players=4, seed=s).view()["dealer"] == 0)


def arranged(game, hands, turned, variant_game=None):
    """A game dealt by seat 0 with these hands and this card turned up (restored from a view)."""
    g = variant_game or game
    state = g.new_game(players=4, seed=dealer_zero_seed(g))
    view = state.view()
    view["hands"], view["turned"] = hands, turned
    del view["undealt"]
    return g.restore(view)


def play_out(state, prefer=()):
    """Play the round's tricks: the first card of `prefer` that is legal, else the first legal."""
    start = state.view()["round"]
    while not state.is_terminal and state.view()["round"] == start:
        legal = texts(state)
        state.apply(next((p for p in prefer if p in legal), legal[0]))
    return state.view()["last_round"]


STRONG = ["hearts 11", "diamonds 11", "hearts 14", "hearts 13", "hearts 12"]
HANDS = [["clubs 9", "clubs 10", "clubs 11", "clubs 12", "clubs 13"],
         STRONG,
         ["spades 9", "spades 10", "spades 11", "spades 12", "spades 13"],
         ["diamonds 9", "diamonds 10", "diamonds 12", "diamonds 13", "diamonds 14"]]


def test_the_file_names_the_rules_it_follows(game):
    assert "pagat.com/euchre" in RULES.read_text().split("game ")[0]
    assert game.title == "Euchre" and game.players == range(4, 5)


def test_partners_sit_opposite_and_five_cards_each_from_24_with_one_turned_up(game):
    state = game.new_game(players=4, seed=1)
    view = state.view()
    assert view["teams"] == [[0, 2], [1, 3]]
    assert view["hand_sizes"] == [5, 5, 5, 5] and len(view["undealt"]) == 3
    assert view["turned"] is not None and all(state.view(s)["turned"] == view["turned"] for s in range(4))
    assert view["phase"] == "order" and view["trump"] is None          # nothing is trumps yet
    assert state.current_player == (view["dealer"] + 1) % 4
    assert texts(state) == ["pass", "order up", "order up alone"]


def test_ordering_up_makes_the_turned_suit_trumps_and_the_dealer_takes_it_and_discards(game):
    state = arranged(game, HANDS, "hearts 9")
    state.apply("pass")                                                 # seat 1
    state.apply("order up")                                             # seat 2, the dealer's partner
    view = state.view()
    assert view["trump"] == "hearts" and view["declarer"] == 2 and view["makers"] == [0, 2]
    assert view["phase"] == "discard" and state.current_player == 0
    assert "hearts 9" in view["hands"][0] and view["hand_sizes"][0] == 6 and view["turned"] is None
    assert texts(state) == [f"discard {c}" for c in ["clubs 9", "clubs 10", "clubs 11", "clubs 12",
                                                    "clubs 13", "hearts 9"]]
    state.apply("discard clubs 9")
    view = state.view()
    assert view["hand_sizes"] == [5, 5, 5, 5] and "clubs 9" in view["undealt"]
    assert view["phase"] == "play" and state.current_player == 1        # left of the dealer leads
    for seat in (1, 2, 3):
        assert "clubs 9" not in str(state.view(seat))                   # discarded face down


def test_after_four_passes_a_second_round_names_another_suit(game):
    state = arranged(game, HANDS, "hearts 9")
    for _ in range(4):
        state.apply("pass")
    view = state.view()
    assert view["phase"] == "trump" and state.current_player == 1 and view["hand_sizes"][0] == 5
    offered = [f"choose {s}" for s in SUITS if s != "hearts"]
    assert texts(state) == ["pass", *offered, *(f"{m} alone" for m in offered)]
    with pytest.raises(rulekit.IllegalMoveError):
        state.apply("choose hearts")
    state.apply("pass")
    state.apply("choose spades")
    view = state.view()
    assert view["trump"] == "spades" and view["declarer"] == 2 and view["makers"] == [0, 2]
    assert view["phase"] == "play" and view["turned"] == "hearts 9"    # nobody took it up


def test_if_all_pass_twice_the_hand_is_thrown_in_and_the_next_player_deals(game):
    state = game.new_game(players=4, seed=3)
    dealer = state.view()["dealer"]
    for _ in range(8):
        state.apply("pass")
    view = state.view()
    assert view["round"] == 2 and view["scores"] == [0, 0, 0, 0] and view["dealer"] == (dealer + 1) % 4


def test_stick_the_dealer_forces_the_dealer_to_name_a_suit():
    game = rulekit.load(RULES, variant="stick_the_dealer")
    state = game.new_game(players=4, seed=3)
    for _ in range(7):
        state.apply("pass")
    assert state.current_player == state.view()["dealer"]
    assert "pass" not in texts(state) and len(texts(state)) == 6      # 3 suits, alone or not


def test_the_bowers_are_the_two_highest_trumps_and_the_left_bower_follows_trumps(game):
    hands = [["clubs 9", "clubs 10", "diamonds 14", "hearts 10", "spades 9"],
             ["hearts 14", "hearts 13", "clubs 11", "spades 10", "spades 12"],
             ["diamonds 11", "diamonds 9", "clubs 12", "spades 13", "spades 14"],
             ["hearts 11", "hearts 12", "diamonds 10", "clubs 13", "clubs 14"]]
    state = arranged(game, hands, "hearts 9")
    state.apply("order up")
    state.apply("discard clubs 9")
    state.apply("play hearts 14")                                       # seat 1 leads the ace of trumps
    assert texts(state) == ["play diamonds 11"]                         # the left bower must follow trumps
    state.apply("play diamonds 11")
    assert texts(state) == ["play hearts 11", "play hearts 12"]
    state.apply("play hearts 11")                                       # seat 3: the right bower
    state.apply("play hearts 9")                                        # the dealer, with the card taken up
    assert state.view()["tricks_won"] == [0, 0, 0, 1]                   # right bower > left bower > ace
    state.apply("play hearts 12")
    assert texts(state) == ["play hearts 10"]                           # diamonds 14 is no trump


def test_a_march_scores_2_and_a_lone_march_4(game):
    last = _ordered(game, "order up")
    assert last["tricks_won"][1] + last["tricks_won"][3] == 5
    assert last["points"] == [0, 2, 0, 2]
    last = _ordered(game, "order up alone")
    assert last["tricks_won"][1] == 5 and last["tricks_won"][3] == 0
    assert last["points"] == [0, 4, 0, 4]


def _ordered(game, move):
    state = arranged(game, HANDS, "hearts 9")
    state.apply(move)                                                   # seat 1, with five top trumps
    state.apply("discard clubs 9")
    return play_out(state)


def test_playing_alone_leaves_the_partner_out_of_every_trick(game):
    state = arranged(game, HANDS, "hearts 9")
    state.apply("pass")
    state.apply("pass")
    state.apply("order up alone")                                       # seat 3: seat 1 sits out
    view = state.view()
    assert view["sitting_out"] == [1] and view["declarer"] == 3 and view["makers"] == [1, 3]
    state.apply("discard clubs 9")
    assert state.current_player == 2                                    # the lead passes over seat 1
    seen = set()
    while state.view()["round"] == 1:
        seen.add(state.current_player)
        trick = state.view()["trick"]
        assert len(trick) < 3 and all(seat != 1 for seat, _ in trick)
        state.apply(state.legal_moves()[0])
    assert seen == {0, 2, 3}
    assert state.view()["last_round"]["tricks_won"][1] == 0


def test_when_the_dealer_sits_out_the_turned_card_is_not_taken_up(game):
    state = arranged(game, HANDS, "hearts 9")
    state.apply("pass")
    state.apply("order up alone")                                       # seat 2: the dealer sits out
    view = state.view()
    assert view["sitting_out"] == [0] and view["phase"] == "play" and view["hand_sizes"][0] == 5
    assert view["turned"] == "hearts 9" and view["trump"] == "hearts"


def test_makers_euchred_give_the_defenders_2(game):
    hands = [HANDS[0], HANDS[2], STRONG, HANDS[3]]
    state = arranged(game, hands, "hearts 9")
    state.apply("order up")                                             # seat 1 without a trump
    state.apply("discard clubs 9")
    last = play_out(state)
    assert last["tricks_won"][1] + last["tricks_won"][3] < 3
    assert last["points"] == [2, 0, 2, 0]


def test_three_or_four_tricks_score_1(game):
    hands = [["clubs 9", "clubs 10", "clubs 11", "hearts 13", "hearts 12"],
             ["hearts 11", "diamonds 11", "hearts 14", "spades 9", "spades 10"],
             ["clubs 14", "clubs 13", "clubs 12", "spades 14", "spades 13"],
             ["diamonds 9", "diamonds 10", "diamonds 12", "diamonds 13", "spades 11"]]
    state = arranged(game, hands, "hearts 9")
    state.apply("order up")
    state.apply("discard clubs 9")
    last = play_out(state, prefer=["play hearts 11", "play diamonds 11", "play hearts 14"])
    assert last["tricks_won"][1] + last["tricks_won"][3] in (3, 4)
    assert last["points"] == [0, 1, 0, 1]


def test_the_first_team_to_10_wins_together(game):
    rng = random.Random(5)
    state = game.new_game(players=4, seed=5)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_moves()))
        view = state.view()
        assert view["scores"][0] == view["scores"][2] and view["scores"][1] == view["scores"][3]
    assert max(state.scores) >= 10 and state.winners in ([0, 2], [1, 3])


def test_restore_reads_the_decisions_back(game):
    state = arranged(game, HANDS, "hearts 9")
    for move in ("pass", "pass", "order up alone"):
        state.apply(move)
        again = game.restore(state.view())
        assert again.view() == state.view() and texts(again) == texts(state)
    state = arranged(game, HANDS, "hearts 9")
    for move in ("pass", "pass", "pass", "pass", "pass"):
        state.apply(move)
    again = game.restore(state.view())
    assert again.view()["trump_passes"] == 1 and texts(again) == texts(state)


QUICK = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("variant", [None, "stick_the_dealer"])
def test_random_games_keep_every_invariant(variant):
    report = rt.check_rules(rulekit.load(RULES, variant=variant), games=3, seed=4)
    assert report.ok, report


def test_states_keep_every_invariant(game):
    @QUICK
    @given(rt.states(game, max_moves=80), hs.data())
    def check(state, data):
        rt.check_move(state, lambda s: data.draw(rt.moves(s)), game=game)
    check()


def test_every_move_is_a_numbered_action(game):
    pytest.importorskip("numpy")
    space = game.actions(4)
    assert {"pass", "order up", "order up alone", "choose spades alone", "discard hearts 9"} <= set(space.labels)
    rng = random.Random(3)
    state = game.new_game(players=4, seed=3)
    while not state.is_terminal and state.round <= 3:
        for move in state.legal_moves():
            (action,) = space.encode(state, move)
            assert space.decode(state, [action]) == move
        state.apply(rng.choice(state.legal_moves()))
