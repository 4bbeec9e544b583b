#!/usr/bin/env python3
"""Instinct written by hand, twice: the yardsticks `bench_play.py` measures rulekit against.

    python benchmarks/hand_instinct.py [--games N] [--seed S]    -> one JSON line

Both play whole random games of Instinct for 4 players, as `rules/instinct.rules` says:
66 cards (five suits ranked 1..12 and six identical trumps), 11 each, bids 0..11 from the
dealer clockwise, follow the led suit if able (a trump lead frees everyone), the last trump
played wins the trick (else the highest card of the led suit), a bid made exactly scores
10 + bonus[bid], and the game ends once a seat has 100 points. Every decision is uniform
over the distinct legal moves (the six trumps are one move), drawn as `int(rnd() * k)`
with `rnd = random.Random(seed).random`, the draw idiom of the benchmark's random loop.

- `tight_games` is the tight loop: no API, no move objects, hands as lists per suit, every
  decision drawn where it is made. Nothing behind a public API can be faster.
- `State` is the same game behind rulekit's step API, as tightly as we could write it:
  `legal_moves()` returns a list of move objects, `apply(move)` checks that the move is
  one of them and plays it, `is_terminal`, `scores`. It is the ceiling for an engine with
  that API in plain Python: rulekit through its public API is measured against it.

`tests/test_bench_baselines.py` plays both against rulekit's Instinct move by move, so the
yardsticks play the same game as the rule file.
"""
from __future__ import annotations

import argparse
import json
import random
import time

SUITS = ("black", "blue", "green", "red", "white")
TRUMP_SUIT = 5
#: A card is suit << 4 | rank; the six trumps are the same int.
TRUMP = TRUMP_SUIT << 4
DECK = tuple([s << 4 | r for s in range(5) for r in range(1, 13)] + [TRUMP] * 6)
HAND = 11
#: Points of a bid made exactly: 10 + bonus[bid], bonus {0: 10, 1: 5, 4: 5, 5: 10, 6..11: 50}.
POINTS = (20, 15, 10, 10, 15, 20) + (60,) * 6
TARGET = 100


def card_text(card: int) -> str:
    return "trump" if card == TRUMP else f"{SUITS[card >> 4]} {card & 15}"


def deal(rnd, players: int) -> list[list[list[int]]]:
    """A partial Fisher-Yates over the dealt places; hands as six lists, one per suit."""
    deck = list(DECK)
    size = len(deck)
    for i in range(players * HAND):
        j = i + int(rnd() * (size - i))
        deck[i], deck[j] = deck[j], deck[i]
    hands = []
    for seat in range(players):
        hand = [[], [], [], [], [], []]
        for card in deck[seat * HAND:(seat + 1) * HAND]:
            hand[card >> 4].append(card)
        hands.append(hand)
    return hands


# ---- the tight loop ---------------------------------------------------------------------------

def _pick_any(hand, size: int, rnd) -> int:
    """Any card of the hand, uniform over the distinct ones (the trumps count once)."""
    trumps = len(hand[TRUMP_SUIT])
    k = int(rnd() * (size - trumps + (1 if trumps else 0)))
    for bucket in hand:
        if k < len(bucket):
            return bucket.pop(k)
        k -= len(bucket)
    raise AssertionError("no card")


def tight_game(rnd, players: int) -> tuple[int, list[int]]:
    """One random game; returns (decisions, final scores)."""
    scores = [0] * players
    dealer = int(rnd() * players)
    decisions = 0
    while True:
        hands = deal(rnd, players)
        bids = [int(rnd() * 12) for _ in range(players)]      # the dealer first, clockwise
        tricks = [0] * players
        leader = dealer
        for size in range(HAND, 0, -1):
            hand = hands[leader]
            card = _pick_any(hand, size, rnd)
            winner, best, led, trumped = leader, card, card >> 4, card == TRUMP
            seat = leader
            for _ in range(players - 1):
                seat = seat + 1 if seat + 1 < players else 0
                hand = hands[seat]
                bucket = hand[led]
                if bucket and led != TRUMP_SUIT:
                    card = bucket.pop(int(rnd() * len(bucket)))
                else:
                    card = _pick_any(hand, size, rnd)
                if card == TRUMP:
                    winner, trumped = seat, True
                elif not trumped and card > best and card >> 4 == led:
                    best, winner = card, seat
            tricks[winner] += 1
            leader = winner
        decisions += players * (HAND + 1)
        for seat in range(players):
            if bids[(seat - dealer) % players] == tricks[seat]:
                scores[seat] += POINTS[tricks[seat]]
        if max(scores) >= TARGET:
            return decisions, scores
        dealer = dealer + 1 if dealer + 1 < players else 0


def tight_games(games: int, seed: int, players: int = 4) -> dict:
    rnd = random.Random(seed).random
    decisions, started = 0, time.perf_counter()
    for _ in range(games):
        decisions += tight_game(rnd, players)[0]
    return {"decisions": decisions, "seconds": time.perf_counter() - started, "games": games}


# ---- the same game behind the step API --------------------------------------------------------

class Move:
    __slots__ = ("kind", "arg", "text")

    def __init__(self, kind: str, arg: int, text: str):
        self.kind, self.arg, self.text = kind, arg, text

    def __str__(self) -> str:
        return self.text


BIDS = tuple(Move("bid", b, f"bid {b}") for b in range(HAND + 1))
PLAYS = {card: Move("play", card, "play " + card_text(card)) for card in set(DECK)}


class IllegalMove(ValueError):
    pass


class State:
    """A game of Instinct with `legal_moves()` / `apply(move)` / `is_terminal` / `scores`."""

    __slots__ = ("n", "rnd", "hands", "bids", "tricks", "scores", "dealer", "current_player",
                 "bidding", "leader", "trick", "led", "best", "winner", "trumped", "played",
                 "is_terminal", "_legal")

    def __init__(self, players: int, seed: int, hands=None, dealer=None):
        self.n, self.rnd = players, random.Random(seed).random
        self.scores = [0] * players
        self.dealer = int(self.rnd() * players) if dealer is None else dealer
        self.is_terminal = False
        self._start_round(hands)

    def _start_round(self, hands=None) -> None:
        self.hands = deal(self.rnd, self.n) if hands is None else hands
        self.bids = [None] * self.n
        self.tricks = [0] * self.n
        self.current_player = self.dealer
        self.bidding = True
        self.played = self.trick = 0
        self._legal = None

    def legal_moves(self) -> list[Move]:
        if self.is_terminal:
            return []
        if self.bidding:
            legal = list(BIDS)
        else:
            hand = self.hands[self.current_player]
            if self.trick and self.led != TRUMP_SUIT and hand[self.led]:
                legal = [PLAYS[card] for card in hand[self.led]]
            else:
                legal = [PLAYS[card] for bucket in hand[:TRUMP_SUIT] for card in bucket]
                if hand[TRUMP_SUIT]:
                    legal.append(PLAYS[TRUMP])
        self._legal = legal
        return legal

    def apply(self, move: Move) -> None:
        legal = self._legal if self._legal is not None else self.legal_moves()
        if move not in legal:
            raise IllegalMove(f"{move} is not a legal move")
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
        self.hands[seat][card >> 4].remove(card)
        if self.trick == 0:
            self.led, self.best, self.winner, self.trumped = card >> 4, card, seat, card == TRUMP
        elif card == TRUMP:
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
        if self.played == HAND:
            self._end_round()

    def _end_round(self) -> None:
        for seat in range(self.n):
            if self.bids[seat] == self.tricks[seat]:
                self.scores[seat] += POINTS[self.bids[seat]]
        if max(self.scores) >= TARGET:
            self.is_terminal = True
            self.current_player = None
            return
        self.dealer = self.dealer + 1 if self.dealer + 1 < self.n else 0
        self._start_round()


def api_games(games: int, seed: int, players: int = 4, state_class=None) -> dict:
    """Random games through the step API, with the benchmark's loop and draw idiom (of
    `State`, or of `state_class`, made as `State` is)."""
    make = State if state_class is None else state_class
    rnd = random.Random(seed).random
    decisions, started = 0, time.perf_counter()
    for game in range(games):
        state = make(players, seed + game)
        while not state.is_terminal:
            moves = state.legal_moves()
            state.apply(moves[int(rnd() * len(moves))])
            decisions += 1
    return {"decisions": decisions, "seconds": time.perf_counter() - started, "games": games}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    tight, api = tight_games(args.games, args.seed), api_games(args.games, args.seed)
    rate = {name: r["decisions"] / r["seconds"] for name, r in (("tight", tight), ("api", api))}
    print(json.dumps({"tight_dps": round(rate["tight"]), "api_dps": round(rate["api"]),
                      "api_over_tight": round(rate["api"] / rate["tight"], 3)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
