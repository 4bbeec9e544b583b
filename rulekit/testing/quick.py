"""Quick forms of the invariants, read from a trick game's own fields instead of its views.

Pipeline place: invariants → **quick** → runner (the default schedule). `rulekit check`
runs these after every move and the view-based invariants (`invariants`) on a sparse
schedule. A quick check answers True (the invariant holds here) or False (it cannot tell,
or it may not hold): on False the runner runs the invariant itself, from the views, which
gives the verdict and the message. So a quick check can make a check cheaper, never more
lenient. They read the state's card masks (`hands`, `taken`, `aside`, `undealt`, the
trick's `(seat, card)` pairs) and counts (`tricks_won`, `scores`, `round`); a state they
do not know (a grid game, or one whose masks do not add up because a card lies in a place
they do not count) is answered False, and the views decide.
"""
from __future__ import annotations


class Before:
    """What the quick checks need of the state before a move, without a whole copy of it."""

    __slots__ = ("round", "is_terminal", "scores", "tricks_won", "trick", "taken", "mover_hand",
                 "tricks_played", "step")

    def __init__(self, st):
        self.scores, self.tricks_won, self.trick, self.taken = [], [], [], []
        self.take(st)

    def take(self, st) -> None:
        """Take what `st` is now (into the same lists: a check after every move makes no garbage)."""
        self.round, self.is_terminal, self.step = st.round, st.is_terminal, st._step
        self.scores[:], self.tricks_won[:] = st.scores, st.tricks_won
        self.trick[:], self.taken[:], self.tricks_played = st.trick, st.taken, st.tricks_played
        seat = st.current_player
        self.mover_hand = st.hands[seat] if seat is not None and 0 <= seat < len(st.hands) else 0


def knows(rules) -> bool:
    """True for the rule sets whose states these checks can read (those with a deck)."""
    return getattr(rules, "deck", None) is not None


def cards_conserved(st) -> bool:
    """Every card of the deck in exactly one of the places counted here: hands, tricks
    taken, cards set aside, the undealt cards, the trick, a card turned up, and in a grid
    game the display, the decks, removed and returning cards."""
    try:
        size = st.rules.deck.size
        total, union = st.undealt.bit_count(), st.undealt
        for masks in (st.hands, st.taken, st.aside):
            for mask in masks:
                total += mask.bit_count()
                union |= mask
        for _, card in st.trick:
            total += 1
            union |= 1 << card
        extra = st.extra
        if extra:
            turned = extra.get("turned")
            if turned is not None:
                total += 1
                union |= 1 << turned
            grid = extra.get("grid")
            if grid is not None:
                total, union = _grid_cards(st, grid, total, union)
    except (AttributeError, TypeError, KeyError):       # a state laid out otherwise: the views decide
        return False
    return total == size and union == (1 << size) - 1


def _grid_cards(st, grid, total: int, union: int) -> tuple[int, int]:
    """The grid's places; and a card chosen (pending) or revealed that left its seat's hand."""
    hands = st.hands
    for seat, (chosen, shown) in enumerate(zip(st.pending, grid.revealed)):
        for card in (chosen, shown):
            if card.__class__ is int and not hands[seat] >> card & 1:
                total += 1
                union |= 1 << card
    for card in grid.at.values():
        total += 1
        union |= 1 << card
    for deck in grid.decks:
        for card in deck:
            total += 1
            union |= 1 << card
    for masks in (grid.removed, grid.returning):
        for mask in masks:
            total += mask.bit_count()
            union |= mask
    return total, union


def one_seat_to_move(st) -> bool:
    """A seat to move until the end, none at the end, and winners only then."""
    seat = st.current_player
    if not st.is_terminal:
        return seat.__class__ is int and 0 <= seat < st.n and not st.winners
    winners = st.winners
    return seat is None and bool(winners) and list(winners) == sorted(set(winners)) and \
        all(0 <= w < st.n for w in winners)


def one_trick_winner(before: Before, after) -> bool:
    """No trick count moves, or exactly one goes up by one and that seat took the trick's
    cards and the card just played. `after` is the state the move left before any round
    end's scoring (the state itself when no round ended). False when a trick may have
    been completed without a winner: the views then decide."""
    if before.is_terminal:
        return True
    gained = [a - b for a, b in zip(after.tricks_won, before.tricks_won)]
    if not any(gained):
        return (not before.trick or bool(after.trick)) and after.tricks_played == before.tricks_played
    winners = [seat for seat, g in enumerate(gained) if g]
    if len(winners) != 1 or gained[winners[0]] != 1:
        return False
    seat = winners[0]
    took = after.taken[seat] & ~before.taken[seat]
    played = 0
    for _, card in before.trick:
        played |= 1 << card
    extra = took & ~played
    return took & played == played and extra.bit_count() == 1 and extra & before.mover_hand == extra
