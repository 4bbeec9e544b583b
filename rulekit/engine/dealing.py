"""A deal whose last card is shown: `trump suit of last card dealt`.

Pipeline place: compiler → **engine**. The last card of the deal goes to the dealer, face
up: its suit is trump this round, every seat sees it (`state.extra["shown"]`, view key
`trump_card`) while the dealer still holds it, and it stays in the dealer's hand to be played.
"""
from __future__ import annotations

from .steps import Deal


class DealShowLast(Deal):
    """`deal ...` with `trump suit of last card dealt`."""

    def deal(self, st) -> tuple[list[int], int]:
        cards, dealt_cards = Deal.deal(self, st)
        count = dealt_cards // st.n if st.n else 0
        dealer = st.dealer if st.dealer is not None else 0
        # the last card of the dealer's part of the shuffle
        self.show(st, "shown", cards[dealer * count + count - 1] if count else None)
        return cards, dealt_cards

