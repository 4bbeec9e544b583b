"""The generated choosing of a grid round (compile/codegen_grid.py: the choose step's legal
list and apply, which reveals and starts the placing after the last choice) for more than two
seats, two seats' placing order, and its legal lists as copies: every grid game shipped or made
for the tests has two players, so a three-seat version of tests/grid_games/meadow.rules is
compared move by move with the hand-written steps here."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulekit
from rulekit.compile import codegen

from test_codegen import reference_of
from test_grid_codegen import _same, play_alike

MEADOW = Path(__file__).resolve().parent / "grid_games" / "meadow.rules"


def _three(variant=None):
    """Meadow Rows with a third colour of deck and three players."""
    text = MEADOW.read_text().replace("players 2", "players 3").replace(
        "player decks gold, green {", "player decks gold, green, grey {")
    return rulekit.loads(text, variant=variant, file=str(MEADOW), base_dir=str(MEADOW.parent))


@pytest.mark.parametrize("variant", [None, "draft"])
def test_a_three_seat_grid_round_steps_as_the_engine_does(variant, monkeypatch):
    generated = _three(variant)
    assert "gs.revealed = revealed = st.pending" in codegen.source_of(generated.ruleset(3))
    with monkeypatch.context() as patch:
        patch.setattr(codegen, "ENABLED", False)
        reference = _three(variant)
        reference.ruleset(3)
    kinds = set()
    for seed in range(25):
        ours, theirs = generated.new_game(3, seed=seed), reference.new_game(3, seed=seed)
        rng = random.Random(seed)
        _same(ours, theirs)
        while not theirs.is_terminal:
            legal = theirs.legal_moves()
            pick = rng.randrange(len(legal))
            kinds.add(legal[pick].kind)
            assert [m.text for m in ours.legal_moves()] == [m.text for m in legal]
            ours.apply(ours.legal_moves()[pick])
            theirs.apply(legal[pick])
            _same(ours, theirs)
        assert ours.winners == theirs.winners and ours.scores == theirs.scores
    assert {"choose", "place", "slide", "move"} <= kinds


def test_a_choice_list_is_a_copy_that_may_be_changed():
    """The choose list comes from moves kept per hand: the caller's list is its own."""
    game = rulekit.load("duell-der-tiere")
    state = game.new_game(2, seed=1)
    first = state.legal_moves()
    texts = [m.text for m in first]
    first.clear()
    assert [m.text for m in state.legal_moves()] == texts
    other = game.new_game(2, seed=1)
    assert [m.text for m in other.legal_moves()] == texts


@pytest.mark.parametrize("path", ["duell-der-tiere", "meadow", "garden"])
@pytest.mark.parametrize("pairs", [True, False])
def test_two_seats_placing_order_from_the_table_of_pairs_or_the_numbers(path, pairs, monkeypatch):
    """Two seats' placing order after the reveal is read from a table of every pair of cards
    (`PAIRS`), or, for a deck with more pairs than `ORDER_PAIRS`, from the cards' numbers: both
    as the hand-written steps order them (highest or lowest first, ties to the token holder or
    not, the token passed or kept, a card that removes both)."""
    from rulekit.compile import codegen_cache, codegen_grid
    monkeypatch.setenv("RULEKIT_CACHE_DIR", "")           # a module kept would not be made again
    monkeypatch.setattr(codegen_cache, "_ENTRIES", {})
    if not pairs:
        monkeypatch.setattr(codegen_grid, "ORDER_PAIRS", 0)
    file = Path(__file__).resolve().parent / "grid_games" / f"{path}.rules"
    file = file if file.exists() else Path(rulekit.__file__).resolve().parent.parent / "rules" / f"{path}.rules"
    text = file.read_text()
    generated = rulekit.loads(text, file=str(file), base_dir=str(file.parent))
    source = codegen.source_of(generated.ruleset(2))
    assert ("PAIRS_" in source) == pairs
    reference = reference_of(text, monkeypatch, 2, file=str(file), base_dir=str(file.parent))
    for seed in range(30):
        play_alike(generated, reference, 2, seed)
