"""Chance events draw words of SHAKE-256 of the seed and the event's number
(`State.random_words`): the first dealer and a toss are uniform over the seats, a grid
game's decks are permutations of each seat's cards with every card equally likely in every
place, and the draws depend on the seed and the event only."""
from __future__ import annotations

from collections import Counter

import pytest

import rulekit
from rulekit.engine.state import State

SEEDS = range(4000)


def _close_to_uniform(counts: Counter, outcomes: int, draws: int) -> None:
    """Each outcome within 5 standard deviations of draws / outcomes (a fixed seed range,
    so the test is deterministic; a biased draw, e.g. always seat 0, fails by far)."""
    expected = draws / outcomes
    spread = 5 * (expected * (1 - 1 / outcomes)) ** 0.5
    assert len(counts) == outcomes
    for outcome, seen in counts.items():
        assert abs(seen - expected) <= spread, (outcome, seen, expected)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_first_dealer_is_any_seat_alike(players):
    # Instinct: "Randomly choose a player to be the dealer".
    game = rulekit.load("instinct")
    dealers = Counter(game.new_game(players=players, seed=seed).dealer for seed in SEEDS[:1500])
    _close_to_uniform(dealers, players, 1500)


def test_the_tiebreaker_goes_to_either_player_alike():
    # Duell der Tiere: "Flip the tiebreaker token in the air ... The player whose color is facing up takes it."
    game = rulekit.load("duell-der-tiere")
    holders = Counter(game.new_game(players=2, seed=seed).extra["grid"].tiebreaker for seed in SEEDS[:1500])
    _close_to_uniform(holders, 2, 1500)


def test_each_deck_is_a_shuffle_of_its_seats_cards_with_every_card_anywhere_alike():
    # Duell der Tiere: "Each shuffle your cards and place them in a deck face down."
    game = rulekit.load("duell-der-tiere")
    places = [Counter() for _ in range(12)]
    for seed in SEEDS[:2400]:
        state = game.new_game(players=2, seed=seed)
        grid = state.extra["grid"]
        for seat in range(2):
            deck = grid.decks[seat] + [c for c in range(24) if state.hands[seat] >> c & 1]
            assert sorted(deck) == list(range(12 * seat, 12 * seat + 12))
        top = grid.decks[0]                 # the 9 cards left after the draw of 3
        for place, card in enumerate(top):
            places[place][card] += 1
    for place in range(9):
        _close_to_uniform(places[place], 12, 2400)


def test_the_words_depend_on_the_seed_and_the_event_only():
    class Bare(State):
        __slots__ = ()

        def __init__(self, seed):
            self.seed, self.chance = seed, 0

    one, two, other = Bare(7), Bare(7), Bare(8)
    assert one.random_words(5) == two.random_words(5) != other.random_words(5)
    assert one.chance == 1
    assert one.random_words(5) != Bare(7).random_words(5)       # the second event draws anew
    assert all(0 <= Bare(seed).random_below(3) < 3 for seed in range(200))


def test_the_words_are_shake_256_of_the_seed_and_the_event_s_number():
    # The engine reads CPython's own SHAKE-256 where it has one (quicker to start than
    # OpenSSL's): the words must be the standard function's, so seeded games stay the same.
    import hashlib
    import struct

    class Bare(State):
        __slots__ = ()

        def __init__(self, seed):
            self.seed, self.chance = seed, 0

    for seed in (0, 1, -5, 2**40, 123456789):
        state = Bare(seed)
        for event, count in enumerate((1, 11, 44, 65, 200), start=1):
            digest = hashlib.shake_256(b"%d/%d" % (seed, event)).digest(4 * count)
            assert state.random_words(count) == struct.unpack("<%dI" % count, digest)
