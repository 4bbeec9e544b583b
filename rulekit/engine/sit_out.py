"""Tricks with seats sitting out: a maker who plays alone (`or alone`) leaves its partners
out of the round's play.

Pipeline place: compiler → **engine**, beside `steps.py`. The compiler uses these classes
instead of `Tricks` / `TricksAll` only when a decision of the round allows playing alone,
so other games keep the plain steps. `state.extra["sitting"]` is the bitmask of the seats
that sit out (0: everyone plays): the turn skips them and a trick is full without them.
"""
from __future__ import annotations

from .moves import Move
from .steps import Tricks, TricksAll


def next_playing(st, seat: int) -> int:
    """`seat` itself if it plays, else the next seat clockwise that does."""
    sitting = st.extra.get("sitting", 0)
    while sitting >> seat & 1:
        seat = (seat + 1) % st.n
    return seat


class SitOutTricks(Tricks):
    """`Tricks` where the seats in `state.extra["sitting"]` do not play."""

    def enter(self, st) -> bool:
        if not Tricks.enter(self, st):
            return False
        st.current_player = st.leader = next_playing(st, st.current_player)
        return True

    def play(self, st, move: Move) -> bool | None:
        entry = self.cards_of_move.get(id(move))
        if entry is None:
            return None
        cards, card = entry
        seat = st.current_player
        hand = st.hands[seat]
        trick = st.trick
        if trick:
            if not (hand & self.follow[st.trump + 1][st.lead + 1] or hand) & cards:
                return None
        elif not hand & cards:
            return None
        if card < 0:
            held = hand & cards
            cards = held & -held
            card = cards.bit_length() - 1
        st.hands[seat] = hand ^ cards
        if not trick:
            st.lead = card
        trick.append(self.pairs[seat][card])
        if len(trick) < st.n - st.extra.get("sitting", 0).bit_count():
            st.current_player = next_playing(st, (seat + 1) % st.n)
            return False
        return self.end_trick(st, trick)

    apply = play

    def end_trick(self, st, trick) -> bool:
        over = Tricks.end_trick(self, st, trick)
        st.current_player = st.leader = next_playing(st, st.current_player)
        return over


class SitOutTricksAll(SitOutTricks, TricksAll):
    """`TricksAll` where the seats in `state.extra["sitting"]` do not play."""

    def enter(self, st) -> bool:
        if not st.hands[self.first(st)]:
            return False
        return SitOutTricks.enter(self, st)

    def end_trick(self, st, trick) -> bool:
        SitOutTricks.end_trick(self, st, trick)
        return not st.hands[st.current_player]
