"""Oh Hell as a rule file (examples/oh-hell.rules), and the four general mechanisms it needs:
`tricks all`, `bid 0..hand`, `trump suit of turned card` and `not allowed when`.

The rules these tests rest on are the task's statement of Oh Hell (as OpenSpiel's `oh_hell`
plays it): "the round's trick count is the round's deal"; a bid's "upper bound may be `hand`
(the cards in the bidder's hand)"; "after the deal the next undealt card is turned face up;
its suit is trump; the turned card is visible to every seat"; and the hook rule, "the last
bidder may not bid so that the bids add up to the number of tricks".
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as hs

import rulekit
from rulekit.testing import cards_conserved, check_rules, restore_round_trips

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "oh-hell.rules"
SCHEDULE = [1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1]
SUITS = ("clubs", "diamonds", "hearts", "spades")


@pytest.fixture(scope="module")
def game():
    return rulekit.load(EXAMPLE)


def small(round_="", deck="suits red, blue\n  ranks 1..6", players="2..4", score="made -> 10 + bid  missed -> 0",
          end="end after 2 rounds"):
    """A small game whose round clauses are `round_` (a deal, bids, trump and tricks)."""
    return f"""game "Small"
players {players}
deck {{
  {deck}
}}
round {{
  dealer first, then next
  {round_}
}}
follow       {{ otherwise -> same suit as lead if able }}
trick winner {{
  any trump played -> highest trump
  otherwise        -> highest card of lead suit
}}
score {{ {score} }}
{end}
"""


def play_to(state, phase: str, rng: random.Random):
    """Random legal moves until the state is in `phase` (or over)."""
    while not state.is_terminal and state.view()["phase"] != phase:
        state.apply(rng.choice(state.legal_moves()))
    return state


def bids_of(state) -> list[int]:
    return [move.arg for move in state.legal_moves()]


def is_last_bidder(state) -> bool:
    bids = state.view()["bids"]
    return bids[(state.current_player + 1) % state.n] is not None


# ---- the hook: `not allowed when last_bidder and sum(bid) = round_tricks` --------------------------

@settings(max_examples=30, deadline=None)
@given(players=hs.integers(3, 7), seed=hs.integers(0, 10_000))
def test_the_hook_forbids_exactly_the_bid_that_makes_the_total(game, players, seed):
    """"the last bidder may not bid so that the bids add up to the number of tricks"."""
    state = game.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    seen_last = 0
    while not state.is_terminal and state.round <= 4:
        view = state.view()
        if view["phase"] == "bid":
            hand = view["hand_sizes"][state.current_player]
            everything = list(range(hand + 1))
            if is_last_bidder(state):
                seen_last += 1
                made = sum(b for b in view["bids"] if b is not None)
                hook = SCHEDULE[state.round - 1] - made
                assert bids_of(state) == [b for b in everything if b != hook]
            else:
                assert bids_of(state) == everything
        state.apply(rng.choice(state.legal_moves()))
    assert seen_last >= 4


def test_the_forbidden_bid_is_refused_and_changes_nothing(game):
    state = game.new_game(players=4, seed=3)
    state.apply("bid 0")
    state.apply("bid 0")
    state.apply("bid 0")
    assert is_last_bidder(state) and state.round == 1
    before = state.view()
    with pytest.raises(rulekit.IllegalMoveError) as error:
        state.apply("bid 1")                        # 0 + 0 + 0 + 1 = the one trick of round 1
    assert [str(m) for m in error.value.legal] == ["bid 0"]
    assert state.view() == before
    state.apply("bid 0")
    assert state.view()["phase"] == "play"


def test_without_the_hook_the_last_bidder_may_bid_anything(game):
    """The `no_hook` variant replaces only the bid clause."""
    free = rulekit.load(EXAMPLE, variant="no_hook")
    state = free.new_game(players=3, seed=1)
    state.apply("bid 0")
    state.apply("bid 0")
    assert bids_of(state) == [0, 1]


def test_a_seat_to_bid_always_has_a_bid():
    """When the condition holds for every bid in the range it is lifted: in a round that deals
    no cards the last bidder's only bid (0) makes the total, and is legal all the same."""
    text = small("deal [0, 2] by round each\n"
                 "  bid 0..hand, in turn from dealer, not allowed when last_bidder and sum(bid) = round_tricks\n"
                 "  tricks all, first led by dealer, then by winner")
    state = rulekit.loads(text).new_game(players=3, seed=0)
    for _ in range(3):
        assert bids_of(state) == [0]
        state.apply("bid 0")
    assert state.round == 2                          # round 1 played no trick
    assert state.view()["last_round"]["tricks_won"] == [0, 0, 0]
    everything = small("deal 2 each\n  bid 0..2, in turn from dealer, not allowed when bid >= 0\n"
                       "  tricks 2, first led by dealer, then by winner")
    state = rulekit.loads(everything).new_game(players=2, seed=0)
    assert bids_of(state) == [0, 1, 2]


def test_the_condition_reads_the_candidate_bid_for_the_bidder():
    """`bid` is the bid being considered; per-seat names are read for the bidder."""
    text = small("deal 3 each\n  bid 0..3, in turn from dealer, not allowed when bid = hand or bid = 1\n"
                 "  tricks 3, first led by dealer, then by winner")
    state = rulekit.loads(text).new_game(players=2, seed=4)
    assert bids_of(state) == [0, 2]
    state.apply("bid 2")
    assert bids_of(state) == [0, 2]


# ---- `bid 0..hand` ------------------------------------------------------------------------------

def test_bids_range_up_to_the_cards_in_hand_with_interned_moves(game):
    state = game.new_game(players=5, seed=2)
    rng = random.Random(2)
    seen = {}
    while state.round <= 3:
        if state.view()["phase"] == "bid" and not is_last_bidder(state):
            moves = state.legal_moves()
            assert bids_of(state) == list(range(SCHEDULE[state.round - 1] + 1))
            for move in moves:                      # one Move object per number, every time
                assert seen.setdefault(move.arg, move) is move
        state.apply(rng.choice(state.legal_moves()))
    assert sorted(seen) == [0, 1, 2, 3]


# ---- `trump suit of turned card` ----------------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(players=hs.integers(3, 7), seed=hs.integers(0, 10_000))
def test_trump_is_the_suit_of_the_turned_card_which_every_seat_sees(game, players, seed):
    """"after the deal the next undealt card is turned face up; its suit is trump; the turned
    card is visible to every seat"."""
    state = game.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(40):
        full = state.view()
        turned = full["turned"]
        assert turned is not None and full["trump"] == turned.split()[0]
        assert all(state.view(seat)["turned"] == turned for seat in range(players))
        assert turned not in full["undealt"] and all(turned not in hand for hand in full["hands"])
        cards_conserved(state)
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_moves()))


def test_the_turned_card_changes_with_each_deal_and_stays_out_of_play(game):
    state = game.new_game(players=4, seed=8)
    rng = random.Random(8)
    turned = {}
    while not state.is_terminal:
        view = state.view()
        turned.setdefault(view["round"], view["turned"])
        assert view["turned"] == turned[view["round"]]
        for move in state.legal_moves():
            assert view["turned"] not in str(move)
        state.apply(rng.choice(state.legal_moves()))
    assert len(turned) == 13 and len(set(turned.values())) > 1


def test_no_card_left_to_turn_means_no_trump():
    """When the deal gives out every card there is no turned card and no trump."""
    text = small("deal [6, 1] by round each\n  trump suit of turned card\n"
                 "  bid 0..hand, in turn from dealer\n  tricks all, first led by dealer, then by winner",
                 players="2")
    state = rulekit.loads(text).new_game(players=2, seed=1)
    view = state.view()
    assert view["turned"] is None and view["trump"] is None and view["undealt"] == []
    cards_conserved(state)
    while state.round == 1:
        state.apply(state.legal_moves()[0])
    view = state.view()
    assert view["turned"] is not None and view["trump"] == view["turned"].split()[0]


def test_a_turned_special_card_gives_no_trump():
    text = small("deal 1 each\n  trump suit of turned card\n  tricks all, first led by dealer, then by winner",
                 deck="suits red\n  ranks 1..2\n  card joker\n  card fool\n  card imp\n  card elf",
                 score="otherwise -> tricks")
    game = rulekit.loads(text)
    found = 0
    for seed in range(30):
        view = game.new_game(players=2, seed=seed).view()
        if view["turned"] != "red 1" and view["turned"] != "red 2":
            assert view["trump"] is None
            found += 1
        else:
            assert view["trump"] == "red"
    assert found


def test_restore_round_trips_the_turned_card(game):
    state = game.new_game(players=6, seed=5)
    rng = random.Random(5)
    for _ in range(60):
        again = game.restore(state.view())
        assert again.view() == state.view()
        assert [str(m) for m in again.legal_moves()] == [str(m) for m in state.legal_moves()]
        restore_round_trips(state, game=game)
        state.apply(rng.choice(state.legal_moves()))
    data = state.view()
    data["undealt"].append(data["turned"])      # the turned card is not also undealt
    with pytest.raises(rulekit.RulekitError):
        game.restore(data)


# ---- `tricks all` and `round_tricks` -------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 7])
def test_each_round_plays_as_many_tricks_as_it_deals(game, players):
    """"the round's trick count is the round's deal": 1, 2, ... 7, ... 2, 1."""
    state = game.new_game(players=players, seed=players)
    rng = random.Random(players)
    played = []
    while not state.is_terminal:
        rnd = state.round
        state.apply(rng.choice(state.legal_moves()))
        if state.round != rnd or state.is_terminal:
            record = state.view()["last_round"]
            played.append(sum(record["tricks_won"]))
            assert state.rules.trick_count(state) == SCHEDULE[(state.round - 1) % 13]
    assert played == SCHEDULE


def test_round_tricks_reads_the_fixed_number_or_the_round_deal():
    fixed = small("deal 3 each\n  bid 0..3, in turn from dealer\n  tricks 2, first led by dealer, then by winner",
                  score="otherwise -> round_tricks * 100 + tricks")
    state = rulekit.loads(fixed).new_game(players=2, seed=0)
    play_to(state, "over", random.Random(0))
    assert state.view()["last_round"]["points"][0] // 100 == 2
    schedule = small("deal [3, 1] by round each\n  tricks all, first led by dealer, then by winner",
                     score="otherwise -> round_tricks * 100 + tricks")
    state = rulekit.loads(schedule).new_game(players=2, seed=0)
    play_to(state, "over", random.Random(0))
    assert state.scores[0] // 100 == 3 + 1


# ---- the whole game --------------------------------------------------------------------------

@pytest.mark.parametrize("variant", [None, "no_hook", "openspiel"])
def test_every_invariant_holds_in_random_games(variant):
    report = check_rules(rulekit.load(EXAMPLE, variant=variant), games=2, players=[3, 5, 7])
    assert report.ok, report


def test_the_openspiel_variant_is_one_deal_of_seven(game):
    state = rulekit.load(EXAMPLE, variant="openspiel").new_game(players=4, seed=9)
    assert state.view()["hand_sizes"] == [7] * 4
    play_to(state, "over", random.Random(9))
    assert state.round == 1 and state.is_terminal
    record = state.view()["last_round"]
    for bid, took, points in zip(record["bids"], record["tricks_won"], record["points"]):
        assert points == (10 + took if bid == took else took)


# ---- the checker ------------------------------------------------------------------------------

def problems(text: str) -> str:
    with pytest.raises(rulekit.RuleError) as error:
        rulekit.loads(text)
    return str(error.value)


ROUND = ("deal [1, 2] by round each\n  trump suit of turned card\n"
         "  bid 0..hand, in turn from dealer, not allowed when last_bidder and sum(bid) = round_tricks\n"
         "  tricks all, first led by dealer, then by winner")


def test_the_small_game_loads_as_written():
    assert rulekit.loads(small(ROUND)).players == range(2, 5)


@pytest.mark.parametrize("old, new, message", [
    ("tricks all", "tricks al", "did you mean `all`?"),
    ("0..hand", "0..hnd", "did you mean `hand`?"),
    ("suit of turned", "suti of turned", "did you mean `suit`?"),
    ("suit of turned", "rank of turned", "trump is a suit"),
    ("last_bidder and", "last_bider and", "did you mean `last_bidder`?"),
    ("sum(bid) = round_tricks", "sum(bid)", "expected a condition here, found a number"),
    ("0..hand", "2..hand", "the lowest bid is 2, but round 1 deals only 1 card each"),
    ("in turn from dealer,", "simultaneous,", "simultaneous bids are hidden"),
    ("deal [1, 2] by round each", "deal [6, 6] by round each", "no card is ever left to turn"),
])
def test_the_checker_reports_each_mistake(old, new, message):
    players = "2" if "[6, 6]" in new else "2..4"            # 2 x 6: the whole deck of 12
    assert message in problems(small(ROUND.replace(old, new), players=players))


def test_the_checker_wants_a_deal_and_number_bids():
    text = problems(small("trump suit of turned card\n  bid 0..hand, in turn from dealer\n"
                          "  tricks all, first led by dealer, then by winner"))
    assert "no cards are dealt" in text and "`tricks all` plays the cards dealt" in text
    assert "the highest bid is the cards in hand" in text
    cards = problems(small("deal 2 each\n  bid with a card, value number, not allowed when bid = 1\n"
                           "  tricks 2, first led by dealer, then by winner"))
    assert "restricts number bids" in cards


def test_the_checker_refuses_two_tricks_clauses_and_bidder_names_elsewhere():
    twice = problems(small(ROUND + "\n  tricks 1, first led by dealer, then by winner"))
    assert "this round clause is given twice" in twice
    elsewhere = problems(small(ROUND, score="made -> if last_bidder then 1 else 2  missed -> 0"))
    assert "`last_bidder` can only be read in a bid's `not allowed when ...`" in elsewhere


def test_names_after_a_restriction_stay_names_in_score_cases():
    """A clause can follow the condition, yet `tricks` or `bid` still start a score case."""
    text = small(ROUND, score="tricks = 0 -> 5  tricks > 1 -> tricks * 2  bid = 1 -> 1  otherwise -> 0")
    assert rulekit.loads(text).players == range(2, 5)
