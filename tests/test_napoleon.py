"""Napoleon (Nap) as a rule file (examples/games/napoleon.rules), tested against the published
rules it follows (Britannica's "Nap"; Wikipedia's "Napoleon (card game)"):

- "each player being dealt five cards. The player to the dealer's left declares, or bids,
  the number of tricks he can win against the rest ..., or else he passes."
- "The next player has the option of declaring to make more tricks than the previous bid or
  passing, and so on, all round. There is only one round of bidding."
- "If all hands pass, the dealer bids 1."
- "whoever bids the highest number of tricks chooses trumps" (Wikipedia); "The highest
  bidder leads".
- "If the bidder fulfills the contract, he collects chips equal to the number bid from each
  player. If he loses, he pays that many. A nap bid, however, is worth 10 if accomplished
  but costs only 5 if it fails."
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import rulekit
from rulekit import testing as rt

RULES = Path(__file__).resolve().parent.parent / "examples" / "games" / "napoleon.rules"
CALLS = ["bid 1", "bid 2", "bid 3", "bid 4", "bid nap"]


@pytest.fixture(scope="module")
def game():
    return rulekit.load(RULES)


def texts(state) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def dealt(game, players=4, seed=1, hands=None):
    """A new game; with `hands`, the same game with those hands (restored from a full view)."""
    state = game.new_game(players=players, seed=seed)
    if hands is None:
        return state
    view = state.view()
    view["hands"] = hands
    del view["undealt"]
    return game.restore(view)


def play_first_legal(state) -> None:
    """Play the round's tricks with the first legal card each time."""
    while state.view()["phase"] == "play":
        state.apply(state.legal_moves()[0])


def test_the_file_names_the_rules_it_follows(game):
    header = RULES.read_text().split("game ")[0]
    assert "Britannica" in header and "Napoleon (card game)" in header
    assert game.title == "Napoleon" and game.players == range(2, 7)


def test_five_cards_each_and_the_seat_left_of_the_dealer_bids_first(game):
    for players in game.players:
        state = game.new_game(players=players, seed=players)
        view = state.view()
        assert view["hand_sizes"] == [5] * players
        assert view["phase"] == "auction"
        assert state.current_player == (view["dealer"] + 1) % players
        assert texts(state) == ["pass", *CALLS]


def test_each_bid_must_be_more_tricks_than_the_previous_one(game):
    state = dealt(game)
    state.apply("bid 2")
    assert texts(state) == ["pass", "bid 3", "bid 4", "bid nap"]
    before = state.view()
    for lower in ("bid 1", "bid 2"):
        with pytest.raises(rulekit.IllegalMoveError, match="beat the highest so far"):
            state.apply(lower)
    assert state.view() == before
    state.apply("pass")
    assert texts(state) == ["pass", "bid 3", "bid 4", "bid nap"]


def test_there_is_only_one_round_of_bidding_and_the_highest_bidder_names_trumps(game):
    state = dealt(game)
    first = state.current_player
    for move in ("bid 2", "bid 3", "pass", "pass"):
        state.apply(move)
    view = state.view()
    declarer = (first + 1) % 4
    assert view["phase"] == "trump" and state.current_player == declarer
    assert view["calls"] == [[first, "bid 2"], [declarer, "bid 3"], [(first + 2) % 4, "pass"],
                             [(first + 3) % 4, "pass"]]
    assert (view["declarer"], view["makers"], view["contract"]) == (declarer, [declarer], 3)
    assert texts(state) == ["choose clubs", "choose diamonds", "choose hearts", "choose spades"]
    state.apply("choose hearts")
    view = state.view()
    assert view["trump"] == "hearts" and view["phase"] == "play"
    assert state.current_player == declarer == view["leader"]       # "The highest bidder leads"


def test_nap_cannot_be_beaten_so_it_ends_the_bidding(game):
    state = dealt(game, players=5)
    first = state.current_player
    state.apply("bid nap")
    assert state.view()["phase"] == "trump" and state.current_player == first


def test_if_all_pass_the_dealer_must_bid(game):
    state = dealt(game)
    dealer = state.view()["dealer"]
    for _ in range(3):
        state.apply("pass")
    assert state.current_player == dealer
    assert texts(state) == CALLS                                     # no `pass` for the dealer
    with pytest.raises(rulekit.IllegalMoveError):
        state.apply("pass")
    state.apply("bid 1")
    assert state.view()["declarer"] == dealer and state.view()["contract"] == 1


def _dealer_zero_seed(game, players=3) -> int:
    return next(s for s in range(100) if game.new_game(players=players, seed=s).view()["dealer"] == 0)


def test_nap_made_collects_10_from_each_opponent(game):
    seed = _dealer_zero_seed(game)
    hands = [["clubs 2", "clubs 3", "clubs 4", "clubs 5", "clubs 6"],
             ["spades 10", "spades 11", "spades 12", "spades 13", "spades 14"],
             ["hearts 2", "hearts 3", "hearts 4", "hearts 5", "hearts 6"]]
    state = dealt(game, players=3, seed=seed, hands=hands)
    state.apply("bid nap")
    state.apply("choose spades")
    play_first_legal(state)
    last = state.view()["last_round"]
    assert last["tricks_won"] == [0, 5, 0]
    assert last["points"] == [-10, 20, -10]                        # "worth 10 if accomplished"


def test_nap_failed_pays_5_to_each_opponent(game):
    seed = _dealer_zero_seed(game)
    hands = [["diamonds 2", "diamonds 3", "diamonds 4", "diamonds 5", "diamonds 6"],
             ["clubs 2", "clubs 3", "clubs 4", "clubs 5", "clubs 6"],
             ["clubs 14", "hearts 3", "hearts 4", "hearts 5", "hearts 6"]]
    state = dealt(game, players=3, seed=seed, hands=hands)
    state.apply("bid nap")
    state.apply("choose spades")
    play_first_legal(state)                                          # clubs 14 takes a trick
    last = state.view()["last_round"]
    assert last["tricks_won"][1] < 5
    assert last["points"] == [5, -10, 5]                             # "costs only 5 if it fails"


def test_a_bid_of_three_made_or_failed_wins_or_pays_three_from_each(game):
    seed = _dealer_zero_seed(game, players=4)
    hands = [["diamonds 2", "diamonds 3", "diamonds 4", "diamonds 5", "diamonds 6"],
             ["spades 14", "spades 13", "spades 12", "clubs 2", "clubs 3"],
             ["clubs 14", "clubs 13", "hearts 4", "hearts 5", "hearts 6"],
             ["hearts 7", "hearts 8", "hearts 9", "hearts 10", "hearts 11"]]
    state = dealt(game, players=4, seed=seed, hands=hands)
    for move in ("bid 3", "pass", "pass", "pass", "choose spades"):
        state.apply(move)
    play_first_legal(state)
    last = state.view()["last_round"]
    assert last["tricks_won"][1] >= 3
    assert last["points"] == [-3, 9, -3, -3]
    state = dealt(game, players=4, seed=seed, hands=hands)
    for move in ("bid 3", "pass", "pass", "pass", "choose diamonds"):
        state.apply(move)
    play_first_legal(state)
    last = state.view()["last_round"]
    assert last["tricks_won"][1] < 3
    assert last["points"] == [3, -9, 3, 3]


def test_scores_are_chips_so_every_round_sums_to_zero(game):
    rng = random.Random(4)
    for players in game.players:
        state = game.new_game(players=players, seed=players * 7)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_moves()))
            last = state.view()["last_round"]
            if last is not None:
                assert sum(last["points"]) == 0
        assert sum(state.scores) == 0


def test_the_two_up_variant_starts_at_two_and_throws_in_a_round_all_pass():
    game = rulekit.load(RULES, variant="two_up")
    state = game.new_game(players=4, seed=2)
    assert texts(state) == ["pass", "bid 2", "bid 3", "bid 4", "bid nap"]
    dealer = state.view()["dealer"]
    for _ in range(4):
        state.apply("pass")
    view = state.view()
    assert view["round"] == 2 and view["phase"] == "auction"
    assert view["scores"] == [0, 0, 0, 0] and view["last_round"]["points"] == [0, 0, 0, 0]
    assert view["dealer"] == (dealer + 1) % 4                       # the deal passes to the left
    assert view["calls"] == [] and view["declarer"] is None


def test_the_calls_are_open_to_every_seat_and_the_hands_are_not(game):
    state = dealt(game)
    state.apply("bid 2")
    state.apply("pass")
    full = state.view()
    for seat in range(4):
        view = state.view(seat)
        assert view["calls"] == full["calls"]
        assert [h is not None for h in view["hands"]] == [p == seat for p in range(4)]


def test_restore_reads_the_auction_and_the_roles_back(game):
    state = dealt(game)
    state.apply("bid 2")
    state.apply("pass")
    again = game.restore(state.view())
    assert again.view() == state.view()
    assert texts(again) == texts(state)
    state.apply("bid 4")
    state.apply("pass")
    again = game.restore(state.view())
    assert again.view() == state.view() and again.current_player == state.view()["declarer"]
    again.apply("choose clubs")
    assert again.view()["leader"] == state.view()["declarer"]


QUICK = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("variant", [None, "two_up"])
def test_random_games_keep_every_invariant(variant):
    report = rt.check_rules(rulekit.load(RULES, variant=variant), games=2, seed=9)
    assert report.ok, report


@pytest.mark.parametrize("variant", [None, "two_up"])
def test_states_keep_every_invariant(variant):
    game = rulekit.load(RULES, variant=variant)

    @QUICK
    @given(rt.states(game, max_moves=60), hs.data())
    def check(state, data):
        rt.check_move(state, lambda s: data.draw(rt.moves(s)), game=game)
    check()


def test_every_auction_and_trump_move_is_a_numbered_action(game):
    """The fixed action space (rulekit.engine.actions) numbers `pass`, every call and every
    `choose <suit>`; each legal move encodes to one action the mask allows and decodes back."""
    pytest.importorskip("numpy")
    space = game.actions(4)
    assert {"pass", "bid 1", "bid nap", "choose hearts"} <= set(space.labels)
    rng = random.Random(2)
    state = game.new_game(players=4, seed=2)
    while not state.is_terminal and state.round <= 2:
        legal = set(state.legal_actions())
        for move in state.legal_moves():
            (action,) = space.encode(state, move)
            assert action in legal and space.decode(state, [action]) == move
        state.apply_action([space.encode(state, rng.choice(state.legal_moves()))[0]])


def test_the_observation_array_shows_the_declarer_the_makers_and_the_contract(game):
    pytest.importorskip("numpy")
    from rulekit.engine.observe import encoder_for

    state = dealt(game)
    first = state.current_player
    for move in ("pass", "bid 3", "pass", "pass"):
        state.apply(move)
    declarer = (first + 1) % 4
    encoder = encoder_for(game.ruleset(4), 4)
    for seat in range(4):
        obs = state.observation(seat)
        segment = {name: obs[a:b].tolist() for name, (a, b) in encoder.offsets.items()}
        mine = [1.0 if (seat + i) % 4 == declarer else 0.0 for i in range(4)]   # seats from `seat` on
        assert segment["declarer"] == mine == segment["makers"]
        assert segment["contract"] == [3.0]
