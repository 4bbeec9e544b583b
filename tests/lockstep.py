"""Two states of one game played side by side: the generated engine against the reference."""
from __future__ import annotations


def play_in_lockstep(ours, theirs, rng) -> None:
    """Play both states to the end with the same random moves (`rng.randrange` over the
    reference's list), asserting at every decision that they list the same moves; `ours`
    plays from its own list, so its interned moves take their own path."""
    while not theirs.is_terminal:
        legal = theirs.legal_moves()
        assert [m.text for m in ours.legal_moves()] == [m.text for m in legal]
        pick = rng.randrange(len(legal))
        ours.apply(ours.legal_moves()[pick])
        theirs.apply(legal[pick])
