"""Trick play with the optional rules of who may lead what and what a trick's lead is.

Pipeline place: compiler → **engine**. `Tricks` in `steps.py` is the hot step of every
shipped game; this subclass is used only by rule files that write a `lead { ... }`
section, a `first trick` follow case, `..., else Q if able`, `..., but P may always be
played` or `lead suit from first P`, so the others pay nothing for them. All the rules
arrive as precomputed masks (`compile/leads.py`), as *(chain, also)* pairs: a seat plays
from the first mask of the chain it holds a card of, and may add its `also` cards; holding
none of the chain, it plays any card.

- `lead_rule(st) -> (chain, also)`: what the leader of an empty trick may lead;
- `chains[trump + 1][lead + 1]` (and `first_chains` for the round's first trick): what
  may follow;
- `sets_lead[trump + 1]`: the cards that set a trick's lead; until one is played the
  trick has no lead (`state.lead` -1) and every card may follow.
"""
from __future__ import annotations

from .steps import Tricks, TricksAll

FREE = ((), 0)


class RuledTricks(Tricks):
    """`Tricks` with lead rules, always-playable cards and the lead set by a matching card:
    `allowed` reads the obligations; `Tricks.play` plays from them."""
    copies_from_hand = False

    def __init__(self, deck, count, first, follow, winner, then=None,
                 lead_rule=None, chains=None, first_chains=None, sets_lead=None):
        Tricks.__init__(self, deck, count, first, follow, winner, then)
        self.lead_rule, self.sets_lead = lead_rule, sets_lead
        self.chains, self.first_chains = chains, first_chains

    def obligation(self, st) -> tuple:
        """`(chain, also)` for the current player now."""
        if not st.trick:
            return self.lead_rule(st) if self.lead_rule is not None else FREE
        chains = self.first_chains if self.first_chains is not None and st.tricks_played == 0 else self.chains
        return chains[st.trump + 1][st.lead + 1]

    def allowed(self, st) -> int:
        """The cards of the current player's hand it may play now."""
        hand = st.hands[st.current_player]
        chain, also = self.obligation(st)
        for must in chain:
            able = hand & must
            if able:
                return able | (hand & also)
        return hand

    def restore_lead(self, st) -> None:
        """After a restore: the lead is the first card of the trick that sets it."""
        st.lead = lead_of(st.trick, self.sets_lead[st.trump + 1]) if self.sets_lead is not None else (
            st.trick[0][1] if st.trick else -1)

    def why_illegal(self, st, text: str) -> str | None:
        if not st.trick and self.lead_rule is not None:
            return "you may not lead that card now"
        return Tricks.why_illegal(self, st, text)


class RuledTricksAll(RuledTricks):
    """`RuledTricks` for `tricks all`: tricks until the hands are empty."""

    def __init__(self, deck, first, follow, winner, then=None, **rules):
        RuledTricks.__init__(self, deck, None, first, follow, winner, then, **rules)

    enter = TricksAll.enter
    end_trick = TricksAll.end_trick


def lead_of(trick, sets: int) -> int:
    """The first card of `trick` in the mask `sets`, or -1."""
    for _, card in trick:
        if sets >> card & 1:
            return card
    return -1
