"""Regression tests for issue 11 (hostile input): seeds, short illegal-move messages, and the
answers `rulekit play` reads.

Issue 11: "`new_game(seed=10**4400)` fails inside the deal with Python's integer-string
limit ... `seed="abc"` raises a bare `ValueError` and `seed=1.9` is silently truncated.
Accept any int (hash it), and refuse other types with a clear `TypeError` at once";
"`IllegalMoveError` messages stay short (the first legal moves, then "and N more")";
"`rulekit play` crashes on the answers `²` and a 4,301-digit number".
"""
from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

import rulekit
from rulekit import cli
from rulekit.engine.seeds import KEPT, checked_seed

GAMES = {name: rulekit.load(name) for name in rulekit.bundled()}
HUGE = 10**4400


def play_to_end(state, seed=0):
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_moves()))
    return state


# ---- seeds --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_huge_seed_plays_a_whole_game(name):
    state = play_to_end(GAMES[name].new_game(players=2, seed=HUGE))
    assert state.winners
    json.dumps(state.view())             # the seed a view shows is small enough for JSON


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_restored_view_with_a_huge_seed_plays_on(name):
    game = GAMES[name]
    state = game.new_game(players=2, seed=5)
    for _ in range(3):
        state.apply(state.legal_moves()[0])
    view = state.view()
    view["seed"] = HUGE
    restored = game.restore(view)
    assert restored.seed == checked_seed(HUGE)
    play_to_end(restored)


def test_a_huge_seed_is_the_same_game_every_time_and_another_than_its_neighbour():
    game = GAMES["instinct"]
    a, b, c = (game.new_game(players=3, seed=s).view() for s in (HUGE, HUGE, HUGE + 1))
    assert a == b
    assert a["hands"] != c["hands"]


def test_seeds_in_todays_range_are_kept_as_they_are():
    # The golden playthroughs (tests/golden) use small seeds: they must not change.
    for seed in (0, 1, 7, -3, 2**63 - 1, 2**64, KEPT - 1, -(KEPT - 1)):
        assert checked_seed(seed) == seed
        assert GAMES["instinct"].new_game(players=3, seed=seed).seed == seed
    assert checked_seed(KEPT) != KEPT and 0 <= checked_seed(KEPT) < KEPT


@pytest.mark.parametrize("seed", ["abc", "7", 1.9, 2.0, True, False, [1], None.__class__, b"1"])
def test_a_seed_that_is_no_int_is_a_type_error_at_once(seed):
    with pytest.raises(TypeError, match="a seed is an int"):
        GAMES["instinct"].new_game(players=3, seed=seed)


def test_an_integer_type_that_is_not_int_is_accepted():
    class Index:                                    # numpy's integers behave like this
        def __index__(self):
            return 11
    game = GAMES["instinct"]
    assert game.new_game(players=3, seed=Index()).view() == game.new_game(players=3, seed=11).view()


def test_without_a_seed_a_64_bit_seed_is_drawn():
    seeds = {GAMES["instinct"].new_game(players=3).seed for _ in range(20)}
    assert all(isinstance(s, int) and 0 <= s < 2**64 for s in seeds)
    assert len(seeds) == 20


# ---- illegal-move messages ---------------------------------------------------------------

def test_an_illegal_move_message_lists_the_first_legal_moves_then_how_many_more():
    game = rulekit.loads(GAMES_TEXT_WITH_MANY_BIDS)
    state = game.new_game(players=2, seed=1)
    with pytest.raises(rulekit.IllegalMoveError) as caught:
        state.apply("bid -5")
    error = caught.value
    assert len(error.legal) == 401                  # every legal move is still on the error
    message = str(error)
    assert len(message) < 300
    assert message.endswith("Legal moves: bid 0, bid 1, bid 2, bid 3, bid 4, bid 5, bid 6, bid 7, "
                            "bid 8, bid 9, bid 10, bid 11 and 389 more")


def test_a_long_illegal_move_is_cut_in_the_message():
    state = GAMES["instinct"].new_game(players=3, seed=1)
    with pytest.raises(rulekit.IllegalMoveError) as caught:
        state.apply("play " + "x" * 10_000)
    assert len(str(caught.value)) < 400
    assert caught.value.move == "play " + "x" * 10_000


GAMES_TEXT_WITH_MANY_BIDS = """
game "Many bids"
players 2
deck { suits red, blue  ranks 1..500 }
round {
  dealer random, then next
  deal 400 each
  bid 0..400, in turn from dealer
  tricks 400, first led by dealer, then by winner
}
follow { otherwise -> same suit as lead if able }
trick winner { otherwise -> highest card of lead suit }
score { made -> 1  missed -> 0 }
end after 1 rounds
"""


# ---- rulekit play answers ----------------------------------------------------------------

def run_play(answers: str):
    return CliRunner().invoke(cli.main, ["play", "instinct", "-p", "2", "-s", "3", "-v", "short"],
                              input=answers)


@pytest.mark.parametrize("answer", ["²", "٣", "①", "9" * 4301, "0", "00000000000000000001"])
def test_play_takes_odd_digits_as_no_move_number_and_goes_on(answer):
    result = run_play(answer + "\nq\n")
    assert result.exit_code == 0, result.output
    assert result.exception is None, result.exception
    assert "Game abandoned." in result.output
    assert "Traceback" not in result.output


def test_play_says_a_long_number_is_no_move_number_without_printing_it_whole():
    result = run_play("9" * 4301 + "\nq\n")
    assert "no move number 999999999999...: pick 1.." in result.output


def test_play_refuses_a_superscript_digit_as_an_illegal_move():
    result = run_play("²\nq\n")
    assert "illegal move '²'" in result.output
