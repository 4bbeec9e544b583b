"""`game.restore(view)` refuses every view that is no state of the game (issue 11, "Restore").

Issue 11: "`game.restore(view)` is documented to raise `ViewError` for 'a view that does not
describe a state of the game', but accepts many: lists with the wrong number of seats
(`bids`, `tricks_won`, `dealt`, `choices`), a dealer or leader that is no seat (`99`,
`"0"`), `step = -1`, a hand of 3 cards while the others hold 11, winners that are not
seats, a negative round, scores of the wrong type; several of these crash later with
`IndexError`, `TypeError` or `AttributeError`, or leave a game with no legal moves. A
10⁶-entry history is accepted and makes every later `view()` slow."

Each case below is one of those, on a real full view; the last ones check that what is
right still restores: full views of every phase, and positions written by hand.
"""
from __future__ import annotations

import json
import random
import time

import pytest

import rulekit

INSTINCT = rulekit.load("instinct")
SEVENS = rulekit.load("insidious-sevens")
DUELL = rulekit.load("duell-der-tiere")


def view_in_play(game=INSTINCT, players=3, moves=8, seed=4) -> dict:
    state = game.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_moves()))
    return json.loads(json.dumps(state.view()))


def view_at(game, phase: str, players=2, seed=1, after=0, when=lambda view: True) -> dict:
    """A full view of the first state in `phase` (and `when` it holds), then `after` moves on."""
    state = game.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    while state.view()["phase"] != phase or not when(state.view()):
        state.apply(rng.choice(state.legal_moves()))
    for _ in range(after):
        state.apply(rng.choice(state.legal_moves()))
    return json.loads(json.dumps(state.view()))


def refused(game, view, match: str | None = None) -> str:
    with pytest.raises(rulekit.ViewError) as caught:
        game.restore(view)
    if match is not None:
        assert match in str(caught.value), str(caught.value)
    return str(caught.value)


# ---- the cases the issue names ------------------------------------------------------------------

@pytest.mark.parametrize("key", ["bids", "tricks_won", "dealt", "choices", "scores", "hands",
                                 "bid_cards", "taken", "set_aside", "hand_sizes"])
@pytest.mark.parametrize("change", ["short", "long"])
def test_a_per_seat_list_with_another_number_of_seats(key, change):
    view = view_in_play()
    view[key] = view[key][:-1] if change == "short" else view[key] + [view[key][0]]
    refused(INSTINCT, view, "one entry per seat (3)")


@pytest.mark.parametrize("key", ["dealer", "leader", "current_player"])
@pytest.mark.parametrize("value", [99, -1, "0", 1.0, True, [0]])
def test_a_dealer_leader_or_player_that_is_no_seat(key, value):
    view = view_in_play()
    view[key] = value
    refused(INSTINCT, view, f"{key} must be a seat 0..2")


@pytest.mark.parametrize("step", [-1, 3, 99, "1", 1.0, None])
def test_a_step_out_of_range(step):
    view = view_in_play()
    view["step"] = step
    refused(INSTINCT, view, "step must be")


def test_a_step_that_asks_no_one():
    view = view_in_play()
    view["step"], view["phase"] = 0, "deal"
    refused(INSTINCT, view, "no seat decides in the deal step")


def test_a_hand_of_three_cards_while_the_others_hold_eleven():
    view = view_at(INSTINCT, "bid", players=3)
    assert view["hand_sizes"] == [11, 11, 11]
    view["undealt"] += view["hands"][0][3:]
    view["hands"][0] = view["hands"][0][:3]
    view["hand_sizes"][0] = 3
    refused(INSTINCT, view, "hands[0] holds 3 cards, but after the deal of 11 and 0 tricks it must hold 11")


def test_hand_sizes_follow_the_tricks_played():
    view = view_at(INSTINCT, "play", players=3, after=7)      # two tricks and one card
    sizes = view["hand_sizes"]
    leader = view["leader"]
    assert sizes[leader] == 8 and sorted(sizes) == [8, 9, 9]
    mover = view["current_player"]
    view["undealt"].append(view["hands"][mover].pop())
    view["hand_sizes"][mover] -= 1
    refused(INSTINCT, view, f"hands[{mover}] holds 8 cards")


@pytest.mark.parametrize("winners", [[7], [-1], ["0"], [True], [1, 0], [0, 0], 0, None])
def test_winners_that_are_not_seats(winners):
    state = INSTINCT.new_game(players=3, seed=2)
    rng = random.Random(2)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_moves()))
    view = json.loads(json.dumps(state.view()))
    view["winners"] = winners
    refused(INSTINCT, view)


def test_winners_must_be_the_ones_the_winner_rule_gives():
    state = INSTINCT.new_game(players=3, seed=2)
    rng = random.Random(2)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_moves()))
    view = json.loads(json.dumps(state.view()))
    view["winners"] = [s for s in range(3) if s not in view["winners"]][:1]
    refused(INSTINCT, view, "as the game's winner rule gives")


def test_winners_while_the_game_is_in_play():
    view = view_in_play()
    view["winners"] = [0]
    refused(INSTINCT, view, "a game in play has no winners yet")


@pytest.mark.parametrize("round_", [0, -3, "2", 2.5, True, 10**6])
def test_a_round_that_is_not_one_or_more(round_):
    view = view_in_play()
    view["round"] = round_
    refused(INSTINCT, view, "round must be")


@pytest.mark.parametrize("score", ["10", 1.5, None, True, [1], 10**100])
def test_scores_of_the_wrong_type(score):
    view = view_in_play()
    view["scores"][1] = score
    refused(INSTINCT, view, "scores[1] must be")


def test_a_million_entry_history_is_refused_at_once():
    view = view_in_play()
    view["history"] = ["bid 0"] * 10**6
    start = time.perf_counter()
    refused(INSTINCT, view, "history has 1000000 entries, more than the")
    assert time.perf_counter() - start < 1


def test_history_entries_are_move_texts():
    view = view_in_play()
    view["history"][0] = 7
    refused(INSTINCT, view, "history[0] must be a move's text")


# ---- the card multiset --------------------------------------------------------------------------

def test_a_card_twice():
    view = view_in_play()
    view["hands"][0].append(view["hands"][1][0])
    refused(INSTINCT, view)


def test_a_card_missing_from_a_full_view():
    view = view_in_play()
    lost = view["undealt"].pop()
    refused(INSTINCT, view, f"a full view places every card; missing: {lost}")


def test_an_unknown_card():
    view = view_in_play()
    view["hands"][0][0] = "purple 99"
    refused(INSTINCT, view, "no card 'purple 99'")


def test_a_trick_card_still_in_a_hand():
    view = view_at(INSTINCT, "play", players=3, after=1)
    card = view["trick"][0][1]
    view["hands"][1].append(card)
    view["undealt"].remove(view["undealt"][0]) if card in view["undealt"] else None
    refused(INSTINCT, view)


def test_taken_cards_match_the_tricks_won():
    view = view_at(INSTINCT, "play", players=3, after=4)       # one trick won
    winner = view["tricks_won"].index(1)
    view["undealt"].append(view["taken"][winner].pop())
    refused(INSTINCT, view, f"seat {winner} won 1 tricks, so it took 3 cards, not 2")


# ---- the step and the rest of the view ----------------------------------------------------------

def test_the_current_player_is_the_one_the_trick_expects():
    view = view_at(INSTINCT, "play", players=3, after=1)
    view["current_player"] = (view["current_player"] + 1) % 3
    refused(INSTINCT, view)


def test_the_bidder_is_the_one_the_bidding_expects():
    view = view_at(INSTINCT, "bid", players=3, after=1)
    view["current_player"] = (view["current_player"] + 1) % 3
    refused(INSTINCT, view, "have bid")


def test_bids_before_the_bidding_is_over_or_missing_after_it():
    view = view_at(INSTINCT, "play", players=3)
    view["bids"][0] = None
    refused(INSTINCT, view, "every seat's bid must be a number")
    view = view_at(INSTINCT, "bid", players=3)
    view["bids"] = [12, None, None]
    refused(INSTINCT, view, "bids[0] must be 0..11")


def test_a_hidden_card_bid_must_be_a_card_of_that_hand():
    view = view_at(SEVENS, "bid", players=3, after=1)
    view["choices"][0] = view["hands"][1][0]
    refused(SEVENS, view)


def test_a_pass_of_the_wrong_number_of_cards():
    view = view_at(SEVENS, "pass", players=3, after=1)
    assert len(view["choices"][0]) == 1                    # round 2: "1 left"
    view["choices"][0] = []
    refused(SEVENS, view, "choices[0] must pass 1 card")


def test_a_trump_that_is_not_the_highest_bid_cards_colour():
    view = view_at(SEVENS, "play", players=3)
    view["trump"] = next(s for s in ("red", "yellow", "green", "blue", "purple") if s != view["trump"])
    refused(SEVENS, view, "trump must be")


def test_dealt_follows_the_dealers_of_the_rounds_so_far():
    state = INSTINCT.new_game(players=3, seed=6)
    rng = random.Random(6)
    while state.round < 3:
        state.apply(rng.choice(state.legal_moves()))
    view = json.loads(json.dumps(state.view()))
    assert sum(view["dealt"]) == 2
    view["dealt"] = [2, 0, 0] if view["dealt"] != [2, 0, 0] else [0, 2, 0]
    refused(INSTINCT, view, "dealt must be")


def test_a_view_of_another_game_or_variant():
    view = view_in_play()
    refused(SEVENS, {**view, "players": 3}, "this is a view of 'Instinct'")
    refused(rulekit.load("instinct", variant="short"), view, "variants")


def test_a_hidden_view_is_refused():
    state = INSTINCT.new_game(players=3, seed=1)
    refused(INSTINCT, state.view(0), "full view")


@pytest.mark.parametrize("view", [None, [], "view", 7, {"players": True, "hands": []},
                                  {"players": 2.0, "hands": [[], []]}, {"players": 99}, {}])
def test_what_is_no_view_at_all(view):
    with pytest.raises(rulekit.ViewError):
        INSTINCT.restore(view)


@pytest.mark.parametrize("seed", ["abc", 1.9, True, None, [1]])
def test_a_seed_that_is_no_int(seed):
    view = view_in_play()
    view["seed"] = seed
    refused(INSTINCT, view, "a seed is an int")


def test_a_huge_seed_restores_and_plays_on():
    view = view_in_play()
    view["seed"] = 10**4400
    state = INSTINCT.restore(view)
    rng = random.Random(0)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_moves()))
    json.dumps(state.view())


# ---- grid games -----------------------------------------------------------------------------------

def test_a_grid_card_twice_or_of_the_wrong_colour():
    view = view_at(DUELL, "choose", after=1)
    view["hands"][0].append(view["hands"][0][0])
    refused(DUELL, view)


def test_a_grid_seat_to_place_without_a_revealed_card():
    view = view_at(DUELL, "place")
    mover = view["current_player"]
    card = view["revealed"][mover]
    view["revealed"][mover] = None
    view["decks"][mover].append(card)
    refused(DUELL, view)


@pytest.mark.parametrize("key, value", [("tiebreaker", "0"), ("tiebreaker", 2), ("to_place", [0, 0]),
                                        ("tiebreaker_passer", 5), ("display", [{"row": 0}]),
                                        ("colours", ["red", "blue"])])
def test_grid_keys_of_the_wrong_kind(key, value):
    view = view_at(DUELL, "place")
    view[key] = value
    refused(DUELL, view)


def test_a_pending_effect_of_a_card_that_moves_nothing():
    view = view_at(DUELL, "place", when=lambda v: v["display"])
    placed = view["display"][0]
    view["pending_effect"] = {"seat": view["current_player"], "card": placed["card"], "effect": "move"}
    refused(DUELL, view)


# ---- what is right still restores ---------------------------------------------------------------

GAMES = [rulekit.load(name, variant=v) for name in rulekit.bundled()
         for v in [None, *rulekit.load(name).variants]]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g.name}{'+' + ','.join(g.selected) if g.selected else ''}")
def test_every_full_view_of_a_random_game_restores_to_the_same_view(game):
    for seed in range(3):
        state = game.new_game(players=random.Random(seed).choice(list(game.players)), seed=seed)
        rng = random.Random(seed)
        while True:
            view = json.loads(json.dumps(state.view()))
            assert game.restore(view).view() == state.view()
            if state.is_terminal:
                break
            for _ in range(rng.randrange(1, 9)):
                if not state.is_terminal:
                    state.apply(rng.choice(state.legal_moves()))


def test_a_full_view_may_list_a_hand_in_any_order():
    view = view_in_play()
    view["hands"][0].reverse()
    view["undealt"].reverse()
    assert INSTINCT.restore(view).view()["hands"][0] == sorted(view["hands"][0], key=INSTINCT.restore(
        view_in_play()).rules.deck.texts.index)


def test_a_position_written_by_hand_restores():
    # docs/api.md, "Restore: save, load, set up"
    position = INSTINCT.restore({
        "players": 3, "phase": "play", "round": 1, "current_player": 1,
        "hands": [["red 2"], ["blue 9", "trump", "red 3"], ["green 1"]],
        "trick": [[0, "blue 5"]], "dealer": 0, "leader": 0,
        "bids": [0, 1, 0], "tricks_won": [0, 0, 0], "scores": [0, 0, 0],
    })
    assert [str(m) for m in position.legal_moves()] == ["play blue 9"]


def test_a_position_still_needs_the_bids_its_phase_reads():
    with pytest.raises(rulekit.ViewError, match="every seat's bid must be a number"):
        INSTINCT.restore({"players": 2, "phase": "play", "current_player": 0, "dealer": 0,
                          "hands": [["red 2"], ["red 3"]], "bids": [None, 1]})


@pytest.mark.parametrize("game", [INSTINCT, SEVENS], ids=["instinct", "insidious-sevens"])
def test_a_last_trick_holding_a_card_twice_is_refused(game):
    """Found by the long restore fuzz: a last trick whose second card was rewritten as its
    first (`last_trick[1][1] = last_trick[0][1]`) raised StopIteration while its copies
    were told apart; it is a ViewError."""
    view = view_at(game, "play", players=4, when=lambda v: bool(v["last_trick"]))
    first = view["last_trick"][0][1]
    view["last_trick"][1][1] = first
    refused(game, view)


def test_json_equality_of_views_tells_texts_numbers_and_bools_apart():
    """`restore_check._equal`, which compares a full view with the view of what it built:
    lists and tuples alike, texts compared at once (a history), a bool never a number."""
    from rulekit.compile.restore_check import _equal

    texts = ["bid 2", "play blue 9"] * 500
    assert _equal(texts, tuple(texts)) and _equal([], ())
    assert not _equal(texts, texts[:-1] + ["play blue 8"]) and not _equal(texts, texts[:-1])
    assert not _equal(["1", "2"], ["1", 2]) and not _equal([1, "2"], ["1", "2"])
    assert not _equal([1, 0], [True, False]) and not _equal([[1], ["a"]], [[True], ["a"]])
    assert _equal([[0, "blue 9"], ["a"]], ([0, "blue 9"], ("a",)))
