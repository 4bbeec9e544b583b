"""The generated trick step's check-and-play (compile/codegen_tricks.py `play_body`): every
interned card move offered to it, legal or not, is played or refused exactly as the
hand-written steps decide (engine/steps.py), on every shipped and example trick game.

The check reads whether the card was in the hand from the hand without it (`rest > hand`)
and whether it may follow from a per-lead table of faces (`inside`), so a move that is not
held, one that does not follow while the hand could, and a face with copies all go through
it here, not only the moves of the legal list.
"""
from __future__ import annotations

import random

import pytest

import rulekit
from rulekit.compile import codegen
from rulekit.errors import IllegalMoveError

from test_codegen import GAMES, IDS, _players, _reference

@pytest.mark.parametrize("path,variant", GAMES, ids=IDS)
def test_every_card_move_is_played_or_refused_as_the_reference_decides(path, variant, monkeypatch):
    generated = rulekit.load(path, variant=variant)
    if generated.ruleset(_players(generated)).grid is not None:
        pytest.skip("a grid game: no trick step")
    reference = _reference(path, variant, monkeypatch)
    players = _players(generated)
    checked = 0
    for seed in (5, 6):
        ours, theirs = generated.new_game(players, seed=seed), reference.new_game(players, seed=seed)
        rng, made = random.Random(seed), 0
        while not theirs.is_terminal and made < 300:
            legal = theirs.legal_moves()
            table = getattr(ours._at, "table", None)
            if table is not None and getattr(ours._at, "name", "") == "play" and made % 3 == 0:
                texts = {m.text for m in legal}
                before = ours.view()
                for move in dict.fromkeys(table.moves):          # each face's interned move once
                    trial = ours.clone()
                    trial.legal_moves()                          # the step's own class, as a caller has it
                    if move.text in texts:
                        trial.apply(move)
                        other = theirs.clone()
                        other.apply(move.text)
                        assert trial.view() == other.view() and trial.history == other.history, move.text
                    else:
                        with pytest.raises(IllegalMoveError):
                            trial.apply(move)
                        assert trial.view() == before, move.text
                    checked += 1
            pick = rng.randrange(len(legal))
            ours.apply(ours.legal_moves()[pick])
            theirs.apply(legal[pick])
            made += 1
        assert ours.view() == theirs.view() and ours.history == theirs.history
    if checked == 0:
        pytest.skip("no trick step with a card table")


def test_a_round_s_end_leaves_the_bids_to_the_bid_step_that_sets_them_anew():
    """`codegen_round.fresh_fields`: a plain number bid's `enter` makes the round's bids,
    hidden bids and `revealed` anew, so the generated end of the round does not reset them
    first; the next round starts with fresh lists all the same, and the record keeps the old."""
    from rulekit.compile import codegen_round
    game = rulekit.load("instinct")
    rules = game.ruleset(4)
    assert codegen_round.fresh_fields(rules) == ("bids", "pending", "revealed")
    source = codegen.source_of(rules)
    end = source[source.index("def end_round"):]
    end = end[:end.index("\nclass ")]
    assert "st.bids = [None]" not in end and "st.pending = [None]" not in end and "st._taken, st._won = [0] * n, []" in end
    state, rng = game.new_game(4, seed=8), random.Random(8)
    while state.round == 1:
        state.apply(rng.choice(state.legal_moves()))
    assert state.bids == [None] * 4 and state.pending == [None] * 4 and state.revealed is False
    assert state.last_round["bids"] is not state.bids and None not in state.last_round["bids"]


def test_one_comparison_against_the_best_strength_with_its_low_bit_cleared_is_the_tie_rule():
    """The unrolled full trick (`_unrolled`) keeps the best strength with its low bit cleared:
    a card beats it when stronger, or as strong and odd (of equals, the last played wins)."""
    for best in range(0, 600):
        for rank in range(0, 600):
            assert (rank > best & -2) == (rank > best or rank == best and bool(rank & 1)), (rank, best)


def test_a_lead_in_the_state_s_own_class_is_its_own_branch():
    """A seat count written out card by card plays a lead without testing the trick's length."""
    source = codegen.source_of(rulekit.load("instinct").ruleset(4))
    assert "if not trick:\n                    st.hands[seat] = rest\n                    st.lead = card" in source
