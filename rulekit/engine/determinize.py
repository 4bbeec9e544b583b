"""Determinization: a full state that one seat cannot tell apart from the real one.

Pipeline place: **engine** (beside `state.py`), used by `State.determinize`, the seat
handle (`seat.py`) and the agents. Nothing here knows a game: what a seat has seen is
read from the general mechanisms a rule file composes.

What a seat knows, besides its view:

* cards it passed and to whom: still in that hand unless played since;
* bid cards shown (and set-aside cards returned to a hand), a card dealt face up to the
  dealer: in that hand unless played;
* the cards a seat showed it lacks by not following: every `follow` rule compiles to a
  table *trump × lead → cards that follow*; a seat that played outside that set held none
  of it, and a hand only loses cards while tricks are played, so it holds none still;
* everything on the table (tricks, taken cards, turned cards, the grid display).

These facts are gathered by replaying the game's moves from its seed (the only place a
move's seat is known); a chance event (a new deal, a draw) forgets them, since the hands
are new. A state whose history does not replay (a position set up by hand) is sampled
with what its current view shows.

The hidden cards (other hands, the undealt cards, secret card choices, the decks of grid
games) are then dealt again as the same multiset, uniformly over the placements that
respect those facts: cards fall into classes by the places they may lie in, an exact count
of the ways to fill the remaining places (a small dynamic programme over class counts)
picks how many cards of each class each place gets, and a shuffle picks which. Secret
choices another seat has made (a pass, a bid card, a hidden number bid) are drawn again
uniformly from that seat's legal moves in the sampled world. The sample gets a fresh seed,
so future deals are not the real ones, and its history is what the seat could see.
"""
from __future__ import annotations

import random
from collections import OrderedDict
from math import comb

from .history import EMPTY, all_moves, count, move_at, moves_from
from .cardsets import cards_of, mask_of
from .moves import Move
from . import steps as st_

#: History entry of a move the observer could not see (another seat's secret choice).
HIDDEN = "hidden"
#: Kind of the history moves of a sample: what its seat saw, `arg` the seat that moved.
SEEN = "seen"


class Knowledge:
    """What one seat has learned in the current deal: cards known to lie in each hand
    (while they still do), and cards each hand cannot hold."""

    __slots__ = ("known", "forbidden", "history", "replayed")

    def __init__(self, players: int):
        self.known = [0] * players
        self.forbidden = [0] * players
        self.history: list[tuple[int, str]] = []   # (seat, move text or "<verb> hidden")
        self.replayed = False


#: Replays kept for the next decision of the same game: (rules id, players, seed, seat) ->
#: [the replayed state, its Knowledge, the move texts replayed]. A game's next decision
#: replays only the moves made since; bounded, oldest dropped first.
_REPLAYS: "OrderedDict[tuple, list]" = OrderedDict()
REPLAYS_KEPT = 64


def gather(state, seat: int) -> Knowledge:
    """Replay `state`'s moves from its seed and note what `seat` saw on the way (going on
    from the replay of an earlier decision of the same game when there is one)."""
    key = (id(state.rules), state.n, state.seed, seat)
    kept = _REPLAYS.pop(key, None)
    # the kept replay goes on when this history extends it (its last move checked here, the
    # whole state compared at the end; a mismatch replays from the start)
    if (kept is not None and kept[0].rules is state.rules and len(kept[2]) <= count(state)
            and (not kept[2] or move_at(state, len(kept[2]) - 1).text == kept[2][-1])):
        found = _replay(state, seat, kept)
        if found is not None:
            return found
    return _replay(state, seat, None) or _unreplayable(state)


def _replay(state, seat: int, kept):
    from .state import State

    n = state.n
    if kept is None:
        kept = [State(state.rules, n, state.seed).start(), Knowledge(n), []]
    cur, seen, done = kept
    try:
        for text in [m.text for m in moves_from(state, len(done))]:
            if not _replay_move(cur, text, seat, seen):
                return None
            done.append(text)
    except Exception:          # a restored history that this seed does not produce
        return None
    if not _same(cur, state):
        return None
    _REPLAYS[(id(state.rules), n, state.seed, seat)] = kept
    if len(_REPLAYS) > REPLAYS_KEPT:
        _REPLAYS.popitem(last=False)
    out = Knowledge(n)
    out.known, out.forbidden, out.history = list(seen.known), list(seen.forbidden), list(seen.history)
    out.replayed = True
    return out


def _unreplayable(state) -> Knowledge:
    """No replay: what the view shows, and the history a sample keeps (its own seat's)."""
    seen = Knowledge(state.n)
    moves = all_moves(state)
    if moves and all(m.kind == SEEN for m in moves):
        seen.history = [(m.arg, m.text) for m in moves]
    return seen


def _same(a, b) -> bool:
    va, vb = a.view(), b.view()
    va.pop("history", None), vb.pop("history", None)
    return va == vb


def _replay_move(cur, text: str, seat: int, seen: Knowledge) -> bool:
    if cur.is_terminal:
        return False
    mover, step, chance = cur.current_player, cur._at, cur.chance
    move = next((m for m in cur.legal_moves() if m.text == text), None)
    if move is None:
        return False
    follows = None
    obligation = step.obligation(cur) if hasattr(step, "obligation") else None     # lead rules ...
    if obligation is None and isinstance(step, st_.Tricks) and cur.trick:
        follows = step.follow[cur.trump + 1][cur.lead + 1]
    hand, aside = cur.hands[mover], list(cur.aside)
    offset = step._today(cur)[1] if isinstance(step, st_.Pass) else None
    cur.apply(move)
    if step.simultaneous and mover != seat:
        seen.history.append((mover, f"{move.kind} {HIDDEN}"))
    else:
        seen.history.append((mover, move.text))
    if cur.chance != chance:          # a new deal or draw: what was known is gone
        seen.known, seen.forbidden = [0] * cur.n, [0] * cur.n
        return True
    if follows is not None and not (hand & ~cur.hands[mover]) & follows:
        seen.forbidden[mover] |= follows
    if obligation is not None:
        seen.forbidden[mover] |= _shown_lacking(obligation, hand & ~cur.hands[mover])
    if offset is not None and mover == seat:
        seen.known[(mover + offset) % cur.n] |= move.arg
    for other in range(cur.n):
        seen.known[other] |= aside[other] & ~cur.aside[other] & cur.hands[other]
    return True


def _shown_lacking(obligation, played: int) -> int:
    """The cards a seat showed it lacked by playing `played` under `(chain, also)`: the
    masks of the chain before the first one holding the card (all of them if none does);
    nothing for a card that may always be played."""
    chain, also = obligation
    if played & also:
        return 0
    lacking = 0
    for must in chain:
        if played & must:
            return lacking
        lacking |= must
    return lacking


# ---- sampling ------------------------------------------------------------------------------


class Placement:
    """Uniform placements of classes of distinct cards into places of fixed sizes.

    `sizes[p]` is how many cards place p takes; `classes` is a list of (places allowed as a
    bit mask, list of cards). Every placement that puts each card in an allowed place and
    fills every place exactly is equally likely."""

    def __init__(self, sizes: list[int], classes: list[tuple[int, list[int]]]):
        self.sizes = sizes
        self.classes = [(allowed, cards) for allowed, cards in classes if cards]
        self.memo: dict = {}
        self.allowed_at = [[k for k, (allowed, _) in enumerate(self.classes) if allowed >> p & 1]
                           for p in range(len(sizes))]

    def count(self, place: int, rest: tuple) -> int:
        """Ways to fill places `place..` with `rest[k]` cards of each class left."""
        if place == len(self.sizes):
            return 0 if any(rest) else 1
        return self._splits(place, rest)[1]

    def _splits(self, place: int, rest: tuple):
        """([(cards of each class for `place`, placements that follow from it)], their sum),
        worked out once per (place, cards left) and kept."""
        key = (place, rest)
        found = self.memo.get(key)
        if found is not None:
            return found
        allowed = self.allowed_at[place]
        size = self.sizes[place]
        room = [0] * (len(allowed) + 1)          # cards the classes from i on still have
        for i in range(len(allowed) - 1, -1, -1):
            room[i] = room[i + 1] + rest[allowed[i]]
        out = []

        def walk(i: int, left: int, take: list, ways: int):
            if left > room[i]:
                return
            if i == len(allowed):
                after = tuple(r - t for r, t in zip(rest, take))
                total = ways * self.count(place + 1, after)
                if total:
                    out.append((tuple(take), total))
                return
            k = allowed[i]
            for x in range(min(left, rest[k]) + 1):
                take[k] = x
                walk(i + 1, left - x, take, ways * comb(rest[k], x))
            take[k] = 0

        walk(0, size, [0] * len(rest), 1)
        found = self.memo[key] = (out, sum(weight for _, weight in out))
        return found

    def sample(self, rng: random.Random) -> list[list[int]]:
        """One placement: the cards of each place."""
        if len(self.classes) == 1:            # no constraint between places: shuffle and cut
            cards = list(self.classes[0][1])
            rng.shuffle(cards)
            out, at = [], 0
            for size in self.sizes:
                out.append(cards[at:at + size])
                at += size
            return out
        rest = tuple(len(cards) for _, cards in self.classes)
        pools = [list(cards) for _, cards in self.classes]
        for pool in pools:
            rng.shuffle(pool)
        out = []
        for place in range(len(self.sizes)):
            splits, total = self._splits(place, rest)
            pick = rng.randrange(total)
            for take, weight in splits:
                if pick < weight:
                    break
                pick -= weight
            cards = []
            for k, x in enumerate(take):
                if x:
                    cards += pools[k][-x:]
                    del pools[k][-x:]
            out.append(cards)
            rest = tuple(r - t for r, t in zip(rest, take))
        return out


class Determinizer:
    """Samples states that `seat` cannot tell apart from `state`; built once per decision
    (the replay and the counts are shared by every sample)."""

    def __init__(self, state, seat: int, knowledge: Knowledge | None = None):
        if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.n):
            raise ValueError(f"no seat {seat!r}: seats are 0..{state.n - 1}")
        self.state, self.seat = state, seat
        self.knowledge = knowledge if knowledge is not None else gather(state, seat)
        self.grid = state.rules.grid is not None
        self.places: list[tuple[str, int]] = []
        self._seen = None
        self._plan()

    def _plan(self) -> None:
        st, seat, known = self.state, self.seat, self.knowledge
        if self.grid:
            self._plan_grid()
            return
        n = st.n
        sizes, masks, forbid = [], [], []
        fixed = [0] * n
        for p in range(n):
            if p == seat:
                continue
            pin = (known.known[p] | _bid_card(st, p) | _shown(st, p)) & st.hands[p]
            fixed[p] = pin
            free = st.hands[p] & ~pin
            self.places.append(("hand", p))
            sizes.append(free.bit_count())
            masks.append(free)
            forbid.append(known.forbidden[p])
        self.places.append(("undealt", -1))
        sizes.append(st.undealt.bit_count())
        masks.append(st.undealt)
        forbid.append(0)
        self.fixed = fixed
        pool = 0
        for mask in masks:
            pool |= mask
        by_allowed: dict[int, list[int]] = {}
        for card in cards_of(pool):
            allowed = sum(1 << p for p, banned in enumerate(forbid) if not banned >> card & 1)
            by_allowed.setdefault(allowed, []).append(card)
        self.placement = Placement(sizes, sorted(by_allowed.items()))

    def _plan_grid(self) -> None:
        st, seat = self.state, self.seat
        gs = st.extra["grid"]
        owner = st.rules.grid.owner
        sizes, pools = [], {}
        for p in range(st.n):
            if p != seat:
                self.places.append(("hand", p))
                sizes.append(st.hands[p].bit_count())
                if st.pending[p] is not None:
                    self.places.append(("choice", p))
                    sizes.append(1)
                if gs.returning[p]:                      # drawn, not kept, not yet put back
                    self.places.append(("returning", p))
                    sizes.append(gs.returning[p].bit_count())
            self.places.append(("deck", p))
            sizes.append(len(gs.decks[p]))
        hidden = 0
        for p in range(st.n):
            hidden |= mask_of(gs.decks[p])
            if p != seat:
                hidden |= st.hands[p] | (1 << st.pending[p] if st.pending[p] is not None else 0)
                hidden |= gs.returning[p]
        for card in cards_of(hidden):
            pools.setdefault(owner[card], []).append(card)
        classes = [(sum(1 << index for index, (_, who) in enumerate(self.places) if who == p), cards)
                   for p, cards in sorted(pools.items())]        # a seat's cards lie in its own places
        self.fixed = [0] * st.n
        self.placement = Placement(sizes, classes)

    def sample(self, rng: random.Random):
        """A new state: the hidden cards dealt again, a fresh seed, the seat's history."""
        st = self.state
        d = st.clone()
        dealt = self.placement.sample(rng)
        if self.grid:
            gs = d.extra["grid"]
            for (kind, p), cards in zip(self.places, dealt):
                if kind == "hand":
                    d.hands[p] = mask_of(cards)
                elif kind == "choice":
                    d.pending[p] = cards[0]
                elif kind == "returning":
                    gs.returning[p] = mask_of(cards)
                else:
                    rng.shuffle(cards)
                    gs.decks[p] = cards
        else:
            for (kind, p), cards in zip(self.places, dealt):
                if kind == "hand":
                    d.hands[p] = self.fixed[p] | mask_of(cards)
                else:
                    d.undealt = mask_of(cards)
            self._choose_again(d, rng)
        d.seed = rng.getrandbits(63)
        d.chance = 0
        d._legal = None
        seen = self._seen
        if seen is None:
            seen = self._seen = [Move(SEEN, mover, text) for mover, text in self.knowledge.history]
        d._history, d._past = list(seen), EMPTY
        return d

    def _choose_again(self, d, rng: random.Random) -> None:
        """Other seats' secret choices, drawn again from their legal moves in the sample."""
        step = d._at
        if step is None or not step.simultaneous:
            return
        mover = d.current_player
        try:
            for p in range(d.n):
                if p == self.seat or d.pending[p] is None:
                    continue
                d.current_player = p
                d._legal = None
                moves = step.legal(d)
                move = moves[rng.randrange(len(moves))]
                if isinstance(step, st_.BidCard):
                    d.pending[p] = step.table.held(d.hands[p], move.arg)
                else:
                    d.pending[p] = move.arg
        finally:
            d.current_player = mover
            d._legal = None


def _bid_card(st, seat: int) -> int:
    card = st.bid_cards[seat]
    return 0 if card is None else 1 << card


def _shown(st, seat: int) -> int:
    """The card every seat has been shown in this hand (`trump suit of last card dealt`)."""
    card = st.extra.get("shown") if st.extra else None
    return 0 if card is None or seat != st.dealer else 1 << card
