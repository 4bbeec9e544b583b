"""Properties of random games of Instinkt: Duell der Tiere (both the base game and the draft
variant), checked after every move.

Rulebook: shared/rulebooks/duell-der-tiere.txt. 'At the end of the game, the display must make
a 4x4 square.' 'Afterwards, all cards must still be adjacent to each other.' 'If at least one
of the two cards revealed is a Snake (X), both cards are removed from the game.' 'Keep your
cards hidden from the other player.'
"""
from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings, strategies as st

import rulekit
from rulekit.engine import grid

GAMES = {None: rulekit.load("duell-der-tiere"), "draft": rulekit.load("duell-der-tiere", variant="draft")}
CARDS = Counter(["crow", "bat", "moth", "spider 4", "spider 5", "cat", "owl", "wolf", "jackalope", "deer",
                 "raccoon", "snake"])
NUMBERS = {"crow": 1, "bat": 2, "moth": 3, "spider 4": 4, "spider 5": 5, "cat": 6, "owl": 7, "wolf": 8,
           "jackalope": 9, "deer": 10, "raccoon": 11, "snake": 0}


def owned_cards(view: dict, seat: int) -> Counter:
    """Every card of one owner, wherever it lies, from a full view."""
    found = Counter(view["hands"][seat]) + Counter(view["decks"][seat]) + Counter(view["removed"][seat])
    found += Counter(view["returning"][seat])
    found += Counter(e["card"] for e in view["display"] if e["owner"] == seat)
    for key in ("choices", "revealed"):
        if view[key][seat] is not None:
            found[view[key][seat]] += 1
    return found


def check_position(state) -> None:
    view = state.view()
    spots = [(e["row"], e["col"]) for e in view["display"]]
    assert len(set(spots)) == len(spots)
    assert grid.is_connected(spots, 8) and grid.fits(spots, 4, 4)
    for seat in (0, 1):
        assert owned_cards(view, seat) == CARDS
        seen = state.view(seat)
        other = 1 - seat
        assert seen["hands"][other] is None and "decks" not in seen
        assert seen["choices"][other] in (None, "hidden") and seen["returning"][other] is None
        assert seen["hands"][seat] == view["hands"][seat]


def check_end(state) -> None:
    view = state.view()
    assert len(view["display"]) == 16
    box = grid.bounds((e["row"], e["col"]) for e in view["display"])
    assert box[1] - box[0] == 3 and box[3] - box[2] == 3
    totals = [sum(e["points"] for e in view["display"] if e["owner"] == seat) for seat in (0, 1)]
    assert view["scores"] == totals
    keys = [(totals[seat], sum(1 for e in view["display"] if e["owner"] == seat and e["points"] > 0),
             sum(NUMBERS[c] for c in view["hands"][seat])) for seat in (0, 1)]
    assert state.winners == [seat for seat in (0, 1) if keys[seat] == max(keys)]


def play(game, seed: int) -> None:
    rng = random.Random(seed)
    state = game.new_game(players=2, seed=seed)
    while not state.is_terminal:
        moves = state.legal_moves()
        assert moves and state.current_player in (0, 1)
        move = moves[rng.randrange(len(moves))]
        before = state.view()
        state.apply(move)
        check_position(state)
        check_snake(before, state.view(), move)
    check_end(state)


def check_snake(before: dict, after: dict, move) -> None:
    """After the last choice of a round with a Snake, both chosen cards are out of the game."""
    if move.kind != "choose" or before["current_player"] != 1:
        return
    chosen = [before["choices"][0], str(move)[len("choose "):]]
    if "snake" not in chosen:
        return
    for seat in (0, 1):
        assert chosen[seat] in after["removed"][seat]
        assert chosen[seat] not in [e["card"] for e in after["display"] if e["owner"] == seat]
    assert len(after["display"]) == len(before["display"])


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**31), st.sampled_from([None, "draft"]))
def test_random_games_keep_every_property(seed, variant):
    play(GAMES[variant], seed)


def test_snakes_come_up_in_these_games():
    """The snake check above is exercised: in a few seeds a Snake is revealed."""
    removed = 0
    for seed in range(10):
        state = GAMES[None].new_game(players=2, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
        removed += sum(len(r) for r in state.view()["removed"])
    assert removed >= 4
