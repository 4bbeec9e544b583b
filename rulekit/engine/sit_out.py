"""Tricks with seats sitting out: a maker who plays alone (`or alone`) leaves its partners
out of the round's play.

Pipeline place: compiler → **engine**, beside `steps.py`. The compiler uses these classes
instead of `Tricks` / `TricksAll` only when a decision of the round allows playing alone,
so other games keep the plain steps. `state.extra["sitting"]` is the bitmask of the seats
that sit out (0: everyone plays): the turn skips them and a trick is full without them.
"""
from __future__ import annotations

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
        if not super().enter(st):       # Tricks, or TricksAll (no trick without cards)
            return False
        st.current_player = st.leader = next_playing(st, st.current_player)
        return True

    def next_seat(self, st, seat: int) -> int | None:
        if len(st.trick) < st.n - st.extra.get("sitting", 0).bit_count():
            return next_playing(st, (seat + 1) % st.n)
        return None

    def end_trick(self, st, trick) -> bool:
        over = Tricks.end_trick(self, st, trick)
        st.current_player = st.leader = next_playing(st, st.current_player)
        return over


class SitOutTricksAll(SitOutTricks, TricksAll):
    """`TricksAll` where the seats in `state.extra["sitting"]` do not play."""

    def end_trick(self, st, trick) -> bool:
        SitOutTricks.end_trick(self, st, trick)
        return not st.hands[st.current_player]
