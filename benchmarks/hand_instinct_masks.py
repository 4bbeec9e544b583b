#!/usr/bin/env python3
"""`hand_instinct.State` with hands held as bit masks: what the representation costs.

    python benchmarks/hand_instinct_masks.py [--games N] [--seed S]    -> one JSON line

The same game as `benchmarks/hand_instinct.py`'s engine behind the step API, drawn from the
same random stream (so a seed deals the same hands), with one change: a hand is one int, a
bit per card id (66 ids: five suits of twelve, then the six trumps), as rulekit holds hands,
and the legal moves are put together from a cache of each suit's part of the hand (a dict
keyed by the part's mask), as rulekit's generated code does. Everything else (the trick's
winner kept card by card, `apply` checking the move against the list it handed out) is
`hand_instinct.State`'s.

`SuitState` holds a hand as six small masks instead, one per suit (ranks 1..12 as bits 0..11;
the trumps as a count of low bits), and takes a suit's moves from a table indexed by that
suit's mask, made up front: what the per-suit layout is worth to hand-written code, which
reads a card's suit from its int. (Built into rulekit's generator, where a card's run and
bit come from tables, the same layout was not faster: docs/performance.md, the eleventh
round.)

`bench_play.py` shows both beside the list-based engine: the ratios are what 66-bit masks,
and what per-suit masks, do to an engine written by hand, and so how much of rulekit's
distance to `hand_instinct.py` is its representation rather than its code.
`tests/test_bench_baselines.py` plays both against `hand_instinct.State` on the same seeds.
"""
from __future__ import annotations

import argparse
import json
import time

import hand_instinct as hi

#: The id of a card (suit << 4 | rank): suit * 12 + rank - 1; the trumps take ids 60..65.
ID_OF = {card: (card >> 4) * 12 + (card & 15) - 1 for card in set(hi.DECK) if card != hi.TRUMP}
#: The mask of a card that is not a trump, by its int (suit << 4 | rank).
MASK_OF = [1 << ID_OF[card] if card in ID_OF else 0 for card in range(hi.TRUMP + 1)]
#: The move of each card id.
MOVE_OF = [hi.PLAYS[(i // 12) << 4 | i % 12 + 1] for i in range(60)] + [hi.PLAYS[hi.TRUMP]] * 6
#: The ids of each suit, as a mask (the last: the six trumps).
SUIT_MASKS = tuple(4095 << 12 * suit for suit in range(5)) + (63 << 60,)
TRUMPS = SUIT_MASKS[hi.TRUMP_SUIT]


def deal(rnd, players: int) -> list[int]:
    """`hand_instinct.deal`'s hands, as masks: the same draws, so the same cards."""
    hands = []
    for hand in hi.deal(rnd, players):
        mask = 0
        for bucket in hand[:hi.TRUMP_SUIT]:
            for card in bucket:
                mask |= MASK_OF[card]
        hands.append(mask | ((1 << len(hand[hi.TRUMP_SUIT])) - 1) << 60)
    return hands


_CACHE: dict[int, tuple] = {}


def _part_moves(part: int) -> tuple:
    """The moves of the cards of one suit's part of a hand, in id order (the trumps once)."""
    moves: list = []
    rest = part
    while rest:
        low = rest & -rest
        move = MOVE_OF[low.bit_length() - 1]
        if not moves or moves[-1] is not move:
            moves.append(move)
        rest ^= low
    found = _CACHE[part] = tuple(moves)
    return found


class State(hi.State):
    """`hand_instinct.State` with hands as 66-bit masks."""

    __slots__ = ()

    def _start_round(self, hands=None) -> None:
        super()._start_round(deal(self.rnd, self.n) if hands is None else hands)

    def legal_moves(self) -> list:
        if self.is_terminal:
            return []
        if self.bidding:
            legal = list(hi.BIDS)
        else:
            hand = self.hands[self.current_player]
            allowed = hand & SUIT_MASKS[self.led] if self.trick and self.led != hi.TRUMP_SUIT else 0
            if allowed:
                legal = [*(_CACHE.get(allowed) or _part_moves(allowed))]
            else:
                legal = []
                for suit in SUIT_MASKS:
                    part = hand & suit
                    if part:
                        legal += _CACHE.get(part) or _part_moves(part)
        self._legal = legal
        return legal

    def apply(self, move) -> None:
        legal = self._legal if self._legal is not None else self.legal_moves()
        if move not in legal:
            raise hi.IllegalMove(f"{move} is not a legal move")
        self._legal = None
        n, seat = self.n, self.current_player
        if self.bidding:
            self.bids[seat] = move.arg
            seat = seat + 1 if seat + 1 < n else 0
            self.current_player = seat
            if seat == self.dealer:
                self.bidding = False
                self.leader = seat
            return
        card = move.arg
        hand = self.hands[seat]
        if card == hi.TRUMP:
            trumps = hand & TRUMPS
            self.hands[seat] = hand ^ (trumps & -trumps)
        else:
            self.hands[seat] = hand ^ MASK_OF[card]
        if self.trick == 0:
            self.led, self.best, self.winner, self.trumped = card >> 4, card, seat, card == hi.TRUMP
        elif card == hi.TRUMP:
            self.winner, self.trumped = seat, True
        elif not self.trumped and card > self.best and card >> 4 == self.led:
            self.best, self.winner = card, seat
        self.trick += 1
        if self.trick < n:
            self.current_player = seat + 1 if seat + 1 < n else 0
            return
        winner = self.winner
        self.tricks[winner] += 1
        self.trick = 0
        self.current_player = self.leader = winner
        self.played += 1
        if self.played == hi.HAND:
            self._end_round()


# ---- hands as one small mask per suit ---------------------------------------------------------

#: The bit of a card that is not a trump in its suit's mask, by its int (suit << 4 | rank).
RANK_BIT = [1 << (card & 15) - 1 if card in ID_OF else 0 for card in range(hi.TRUMP + 1)]
#: By suit, the moves of each mask of that suit (the trumps: one move for any count).
SUIT_TABLES = tuple([tuple(hi.PLAYS[suit << 4 | rank + 1] for rank in range(12) if part >> rank & 1)
                     for part in range(4096)] for suit in range(hi.TRUMP_SUIT)) + (
    [()] + [(hi.PLAYS[hi.TRUMP],)] * 63,)
T0, T1, T2, T3, T4, T5 = SUIT_TABLES


def deal_by_suit(rnd, players: int) -> list[list[int]]:
    """`hand_instinct.deal`'s hands, as six masks each: the same draws, so the same cards."""
    hands = []
    for hand in hi.deal(rnd, players):
        masks = [0] * 6
        for suit in range(hi.TRUMP_SUIT):
            for card in hand[suit]:
                masks[suit] |= RANK_BIT[card]
        masks[hi.TRUMP_SUIT] = (1 << len(hand[hi.TRUMP_SUIT])) - 1
        hands.append(masks)
    return hands


class SuitState(hi.State):
    """`hand_instinct.State` with a hand held as six small masks, one per suit."""

    __slots__ = ()

    def _start_round(self, hands=None) -> None:
        super()._start_round(deal_by_suit(self.rnd, self.n) if hands is None else hands)

    def legal_moves(self) -> list:
        if self.is_terminal:
            return []
        if self.bidding:
            legal = list(hi.BIDS)
        else:
            hand = self.hands[self.current_player]
            if self.trick and self.led != hi.TRUMP_SUIT and hand[self.led]:
                legal = [*SUIT_TABLES[self.led][hand[self.led]]]
            else:
                s0, s1, s2, s3, s4, s5 = hand
                legal = [*T0[s0], *T1[s1], *T2[s2], *T3[s3], *T4[s4], *T5[s5]]
        self._legal = legal
        return legal

    def apply(self, move) -> None:
        legal = self._legal if self._legal is not None else self.legal_moves()
        if move not in legal:
            raise hi.IllegalMove(f"{move} is not a legal move")
        self._legal = None
        n, seat = self.n, self.current_player
        if self.bidding:
            self.bids[seat] = move.arg
            seat = seat + 1 if seat + 1 < n else 0
            self.current_player = seat
            if seat == self.dealer:
                self.bidding = False
                self.leader = seat
            return
        card = move.arg
        hand = self.hands[seat]
        if card == hi.TRUMP:
            hand[hi.TRUMP_SUIT] >>= 1
        else:
            hand[card >> 4] ^= RANK_BIT[card]
        if self.trick == 0:
            self.led, self.best, self.winner, self.trumped = card >> 4, card, seat, card == hi.TRUMP
        elif card == hi.TRUMP:
            self.winner, self.trumped = seat, True
        elif not self.trumped and card > self.best and card >> 4 == self.led:
            self.best, self.winner = card, seat
        self.trick += 1
        if self.trick < n:
            self.current_player = seat + 1 if seat + 1 < n else 0
            return
        winner = self.winner
        self.tricks[winner] += 1
        self.trick = 0
        self.current_player = self.leader = winner
        self.played += 1
        if self.played == hi.HAND:
            self._end_round()


def api_games(games: int, seed: int, players: int = 4, state_class=None) -> dict:
    """Random games through the step API, with the benchmark's loop and draw idiom (of
    `State`, the 66-bit masks, or `SuitState`)."""
    return hi.api_games(games, seed, players, state_class=state_class or State)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    runs = {"lists": hi.api_games(args.games, args.seed), "masks": api_games(args.games, args.seed),
            "suits": api_games(args.games, args.seed, state_class=SuitState)}
    rate = {name: r["decisions"] / r["seconds"] for name, r in runs.items()}
    print(json.dumps({**{f"{name}_dps": round(value) for name, value in rate.items()},
                      "masks_over_lists": round(rate["masks"] / rate["lists"], 3),
                      "suits_over_lists": round(rate["suits"] / rate["lists"], 3)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
