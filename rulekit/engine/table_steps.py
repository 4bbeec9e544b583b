"""Table play: bids and plays out of turn, revokes, and the challenge that settles a revoke.

Pipeline place: compiler → **engine**. A rule file with a `player errors` section gets these
steps in place of its in-turn bid step and its trick step (`compile/table_play.py` builds
them around the ordinary steps, which they ask for legality and for ending a trick). A game
without the section never meets them, so it pays nothing for them.

- A seat may act *out of turn* (`state.apply(move, seat=q)`): its bid or card stands and
  the others go on in the proper order; a seat that acted early is not asked again.
- A trick is judged *in the proper order* (from its leader), whatever order the cards
  came in: "pretend all cards were played in the proper order".
- With revokes, a seat may play any card of its hand. A card that does not follow while
  the hand could follow is a revoke, recorded out of sight of the other seats. Any seat
  may `challenge P` until the round's last trick is complete; the round then ends and
  the compiled challenge rule settles it.

What this adds to a state lives in `state.extra` as immutable values (tuples), so
`clone()` copies it as it copies the rest:
`revokes` (per seat, a tuple of (trick number, card, lead card)), `settled` (the points of
a challenged round, read by the score), `challenge` (the last challenge, for the views).
"""
from __future__ import annotations

from .moves import Move
from .steps import Step

#: What a challenge move's `arg` is: the accused seat.
CHALLENGE = "challenge"


def revokes_of(st) -> tuple:
    """Per seat, the revokes of this round: (trick number, card, lead card)."""
    return st.extra.get("revokes") or ((),) * st.n


class _AsSeat:
    """Lets the ordinary step judge a seat's moves: for a moment, it is that seat's turn."""

    def __init__(self, st, seat: int):
        self.st, self.seat = st, seat

    def __enter__(self):
        self.current, self.st.current_player = self.st.current_player, self.seat

    def __exit__(self, *exc):
        self.st.current_player = self.current


class Challenges:
    """The `challenge P` moves, one list per challenger (every seat but its own)."""

    def __init__(self, seats: int):
        self.moves = [Move(CHALLENGE, seat, f"challenge {seat}") for seat in range(seats)]

    def of(self, st, challenger: int) -> list[Move]:
        return [m for m in self.moves[:st.n] if m.arg != challenger]


class TableBid(Step):
    """An in-turn number bid where any seat that has not bid may bid early: "the bid stands
    and the other players continue bidding in the proper order". Legality is the ordinary
    step's, read as if it were that seat's turn."""
    name = "bid"

    def __init__(self, inner):
        self.inner = inner

    def enter(self, st) -> bool:
        return self.inner.enter(st)

    def choice_view(self, st, pending):
        return self.inner.choice_view(st, pending)

    def legal(self, st) -> list[Move]:
        return self.inner.legal(st)

    def legal_for(self, st, seat: int) -> list[Move]:
        if st.bids[seat] is not None:
            return []
        with _AsSeat(st, seat):
            return list(self.inner.legal(st))

    def apply(self, st, move) -> bool:
        return self.apply_for(st, st.current_player, move)

    def apply_for(self, st, seat: int, move) -> bool:
        st.bids[seat] = move.arg
        for offset in range(st.n):                 # the next seat in order still to bid
            nxt = (st.current_player + offset) % st.n
            if st.bids[nxt] is None:
                st.current_player = nxt
                return False
        st.revealed = True
        return True

    def why_illegal(self, st, text: str) -> str | None:
        return self.inner.why_illegal(st, text)


class TableTricks(Step):
    """Tricks where seats may play out of turn (`early`), revoke (`revokes`) and challenge
    (`settle`: (state, challenger, accused, right) -> points per seat, or None)."""
    name = "play"

    def __init__(self, inner, early: bool, revokes: bool, settle, seats: int):
        self.inner, self.early, self.revokes, self.settle = inner, early, revokes, settle
        self.challenges = Challenges(seats) if settle is not None else None

    def enter(self, st) -> bool:
        st.extra["revokes"] = ((),) * st.n
        st.extra["settled"] = None
        return self.inner.enter(st)

    # ---- what a seat may do ---------------------------------------------------------------

    def legal(self, st) -> list[Move]:
        return self._cards(st, st.current_player) + self._challenges(st, st.current_player)

    def legal_for(self, st, seat: int) -> list[Move]:
        if seat == st.current_player:
            return self.legal(st)
        return self._cards(st, seat) + self._challenges(st, seat)

    def _challenges(self, st, seat: int) -> list[Move]:
        return self.challenges.of(st, seat) if self.challenges is not None else []

    def _cards(self, st, seat: int) -> list[Move]:
        if seat != st.current_player:
            if not self.early or any(s == seat for s, _ in st.trick):
                return []
            if not self.revokes and st.lead < 0:
                return []                          # the follow rule is not known yet
        if self.revokes:
            return list(self.inner.table.by_runs(st.hands[seat]))
        with _AsSeat(st, seat):
            return list(self.inner.legal(st))

    # ---- doing it -------------------------------------------------------------------------

    def apply(self, st, move) -> bool:
        return self.apply_for(st, st.current_player, move)

    def apply_for(self, st, seat: int, move) -> bool:
        if move.kind == CHALLENGE:
            return self._challenge(st, seat, move.arg)
        cards, card = move.cards, move.card
        hand = st.hands[seat]
        if card < 0:                               # copies of one face: the lowest one held
            held = hand & cards
            card = (held & -held).bit_length() - 1
        st.hands[seat] = hand ^ (1 << card)
        st.trick.append((seat, card))
        if seat == st.leader:
            st.lead = card
            for other, early in st.trick[:-1]:     # cards played before the lead: judged now
                self._judge(st, other, early)
        elif st.lead >= 0:
            self._judge(st, seat, card)
        return self._next(st)

    def _next(self, st) -> bool:
        """The next seat in the proper order that has not played; the trick ends when all have."""
        played = {seat for seat, _ in st.trick}
        for offset in range(st.n):
            seat = (st.leader + offset) % st.n
            if seat not in played:
                st.current_player = seat
                return False
        ordered = sorted(st.trick, key=lambda entry: (entry[0] - st.leader) % st.n)
        return self.inner.end_trick(st, ordered)

    def _judge(self, st, seat: int, card: int) -> None:
        """Record a revoke: `card` did not follow, while the hand it came from could have."""
        if not self.revokes:
            return
        hand, trick = st.hands[seat] | 1 << card, st.trick
        st.hands[seat], st.trick = hand, [e for e in trick if e[0] == st.leader]
        try:
            with _AsSeat(st, seat):
                allowed = 0
                for move in self.inner.legal(st):
                    allowed |= move.cards
        finally:
            st.hands[seat], st.trick = hand ^ 1 << card, trick
        if not allowed >> card & 1:
            revokes = list(revokes_of(st))
            revokes[seat] += ((st.tricks_played + 1, card, st.lead),)
            st.extra["revokes"] = tuple(revokes)

    def _challenge(self, st, challenger: int, accused: int) -> bool:
        right = bool(revokes_of(st)[accused])
        points = tuple(self.settle(st, challenger, accused, right))
        texts = st.rules.deck.texts
        st.extra["settled"] = points
        st.extra["challenge"] = {
            "round": st.round, "challenger": challenger, "accused": accused, "right": right,
            "revokes": [{"trick": t, "card": texts[c], "lead": texts[lead]}
                        for t, c, lead in revokes_of(st)[accused]],
            "points": list(points)}
        st.step = len(st.rules.steps) - 1          # the round ends with this move
        return True

    def why_illegal(self, st, text: str) -> str | None:
        if text.startswith(CHALLENGE):
            return "challenge another seat by its number, before the round's last trick is complete"
        if self.revokes:
            return "play a card of your hand"
        return self.inner.why_illegal(st, text)
