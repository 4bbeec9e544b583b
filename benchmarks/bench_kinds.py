#!/usr/bin/env python3
"""Where a decision's time goes: random play timed by the kind of decision.

    python benchmarks/bench_kinds.py [GAME ...] [--games N] [--players P] [--json FILE]

For each game (the shipped games by default; a name or a rule file's path), random games on
fresh seeds through the public API, as `bench_play.py` plays them, with every `legal_moves()`
and every `apply(move)` timed apart. A decision's kind is the kind of the move played
(`play`, `bid`, `pass`, `choose`, `place`, ...), with `, ends the round` when the move
ends a round (its `apply` pays the turn of the round: scoring, the next deal, packing the
round's moves). Per kind the table shows how many such decisions a game has, the
nanoseconds of a `legal_moves()` and of an `apply()`, and the kind's share of the time.

Timing each call costs time itself: the clock's own cost, measured at the start, is taken
off every call, and the untimed rate of the same games is printed beside the timed one.
Read the shares and the ratios between kinds rather than the absolute figures, which vary
with the machine. `docs/performance.md` (the twelfth round) reads its shares from here.

With `--hand`, the hand-written Instinct engines behind the same step API that `bench_play.py`
measures rulekit against (`hand_instinct.py`, hands as lists, and `hand_instinct_masks.py`,
hands as 66-bit masks) are timed the same way, over the same seeds, and each of their kinds
is shown beside rulekit Instinct's: where the gap between the engine and its yardstick lies.
A round of theirs ends when the dealer moves on (or the game ends). With `--by-place`, a card
played is told apart by its place in the trick (`play (card 1 of the trick)` leads it).
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

# benchmarks/bench_play.py: the benchmark's loop (importing it puts the checkout first on the path)
from bench_play import PLAYERS, random_game  # noqa: E402
import rulekit  # noqa: E402

ENDS = ", ends the round"


def clock_cost(samples: int = 20_000) -> float:
    """Nanoseconds two back-to-back clock reads add to a timed call (the median)."""
    now = time.perf_counter_ns
    gaps = []
    for _ in range(samples):
        start = now()
        gaps.append(now() - start)
    return statistics.median(gaps)


def players_for(game, players: int | None) -> int:
    if players is not None and players in game.players:
        return players
    return PLAYERS if PLAYERS in game.players else game.players[0]


def untimed(game, players: int, seeds: range) -> float:
    """Decisions per second of the same games with no clock around the calls."""
    rnd = random.Random(seeds.start).random
    decisions, elapsed = 0, 0.0
    for seed in seeds:
        state = game.new_game(players=players, seed=seed)
        began = time.perf_counter()
        decisions += random_game(state, rnd)
        elapsed += time.perf_counter() - began
    return decisions / elapsed


def timed(game, players: int, seeds: range, cost: float, round_of=None,
          place_of=None) -> dict[str, list[float]]:
    """{kind: [decisions, ns listing, ns applying]} over the games, the clock's cost taken off;
    `round_of(state)` tells rounds apart (rulekit's `state.round` unless given); with
    `place_of(state)` (the cards already in the trick), a card played is told apart by its
    place in the trick."""
    now = time.perf_counter_ns
    rnd = random.Random(seeds.start).random
    kinds: dict[str, list[float]] = {}
    round_of = round_of or _round
    for seed in seeds:
        state = game.new_game(players=players, seed=seed)
        while not state.is_terminal:
            round_ = round_of(state)
            place = place_of(state) if place_of is not None else None
            start = now()
            moves = state.legal_moves()
            listed = now()
            move = moves[int(rnd() * len(moves))]
            begun = now()
            state.apply(move)
            done = now()
            kind = move.kind
            if place is not None and kind == "play":
                kind += f" (card {place + 1} of the trick)"
            kind += ENDS if state.is_terminal or round_of(state) != round_ else ""
            entry = kinds.setdefault(kind, [0, 0.0, 0.0])
            entry[0] += 1
            entry[1] += max(listed - start - cost, 0)
            entry[2] += max(done - begun - cost, 0)
    return kinds


def _round(state) -> int:
    return state.round


class HandGame:
    """A hand-written Instinct engine made to look like a loaded game: `new_game`, `players`."""

    def __init__(self, module):
        self.module = module
        self.players = range(2, 7)

    def new_game(self, players: int, seed: int):
        return self.module.State(players, seed)


def _dealer(state):
    """A hand-written engine's round, told by its dealer (who moves on at each round's end)."""
    return state.dealer


def _cards_in_trick(state) -> int:
    return len(state.trick)


def _hand_cards_in_trick(state) -> int:
    """A hand-written engine's trick: the number of cards in it."""
    return state.trick


def hand_games() -> dict[str, HandGame]:
    """The yardsticks `bench_play.py` measures Instinct against, by the name shown."""
    import hand_instinct
    import hand_instinct_masks
    return {"hand_instinct.py (hands as lists)": HandGame(hand_instinct),
            "hand_instinct_masks.py (66-bit hands)": HandGame(hand_instinct_masks)}


def measure(name: str, games: int, players: int | None, seed: int, game=None,
            by_place: bool = False) -> dict:
    hand = game is not None
    game = game or rulekit.load(name)         # a shipped game's name or a rule file's path
    count = players_for(game, players)
    seeds = range(seed, seed + games)
    untimed(game, count, range(seed + games, seed + games + max(1, games // 10)))   # warm-up
    cost = clock_cost()
    place_of = (_hand_cards_in_trick if hand else _cards_in_trick) if by_place else None
    kinds = timed(game, count, seeds, cost, _dealer if hand else None, place_of)
    rate = untimed(game, count, seeds)
    total = sum(listing + applying for _, listing, applying in kinds.values()) or 1.0
    decisions = sum(entry[0] for entry in kinds.values())
    rows = [{"kind": kind, "per_game": n / games, "list_ns": listing / n, "apply_ns": applying / n,
             "share": (listing + applying) / total}
            for kind, (n, listing, applying) in sorted(kinds.items(), key=lambda kv: -(kv[1][1] + kv[1][2]))]
    return {"game": name, "players": count, "games": games, "decisions": decisions,
            "timed_ns_per_decision": total / decisions, "untimed_ns_per_decision": 1e9 / rate,
            "clock_ns": cost, "kinds": rows}


def report(out: dict) -> str:
    width = _width(out)
    lines = [f"{out['game']} ({out['players']} players, {out['games']} games, "
             f"{out['decisions'] / out['games']:.1f} decisions a game): "
             f"{out['timed_ns_per_decision']:,.0f} ns a decision timed by call, "
             f"{out['untimed_ns_per_decision']:,.0f} untimed (clock {out['clock_ns']:.0f} ns a read pair, taken off)",
             f"  {'kind':{width}} {'a game':>8} {'list ns':>9} {'apply ns':>9} {'share':>7}"]
    for row in out["kinds"]:
        lines.append(f"  {row['kind']:{width}} {row['per_game']:8.2f} {row['list_ns']:9,.0f} "
                     f"{row['apply_ns']:9,.0f} {row['share']:7.1%}")
    return "\n".join(lines)


def beside(ours: dict, hands: list[dict]) -> str:
    """rulekit Instinct's nanoseconds by kind ÷ each hand-written engine's, and the time of a
    game's decisions of each kind (nanoseconds a decision of the whole game) against theirs."""
    def by_kind(out):
        return {row["kind"]: row for row in out["kinds"]}
    mine = by_kind(ours)
    width = _width(ours)
    lines = ["rulekit instinct ÷ the hand-written engines, by kind (list, apply, the kind's ns a decision of the game)"]
    for out in hands:
        theirs = by_kind(out)
        lines.append(f"  ÷ {out['game']}: a decision {ours['timed_ns_per_decision'] / out['timed_ns_per_decision']:.3f} "
                     f"timed, {ours['untimed_ns_per_decision'] / out['untimed_ns_per_decision']:.3f} untimed")
        for kind, row in mine.items():
            other = theirs.get(kind)
            if other is None:
                continue
            share_ns = row["share"] * ours["timed_ns_per_decision"]
            other_ns = other["share"] * out["timed_ns_per_decision"]
            lines.append(f"    {kind:{width}} list {_over(row['list_ns'], other['list_ns'])}  "
                         f"apply {_over(row['apply_ns'], other['apply_ns'])}  "
                         f"{share_ns:6,.0f} ns against {other_ns:6,.0f} ({share_ns - other_ns:+,.0f})")
    return "\n".join(lines)


def _width(out: dict) -> int:
    """The kind column's width: the longest kind's, and at least 32."""
    return max(32, *(len(row["kind"]) for row in out["kinds"]))


def _over(top: float, bottom: float) -> str:
    return f"{top / bottom:5.2f}" if bottom > 0 else "    -"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_", nargs="*", metavar="GAME", help="names or rule files (default: the shipped games)")
    parser.add_argument("--games", type=int, default=300, help="random games per game (default 300)")
    parser.add_argument("--players", type=int, default=None,
                        help=f"players (default {PLAYERS}, or the game's first count), as bench_play.py")
    parser.add_argument("--seed", type=int, default=50_000, help="the first game's seed")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument("--hand", action="store_true",
                        help="also time the hand-written Instinct engines (the yardsticks) and "
                             "show their kinds beside rulekit Instinct's")
    parser.add_argument("--by-place", action="store_true",
                        help="tell a card played apart by its place in the trick (1 leads)")
    args = parser.parse_args(argv)
    names = args.games_ or rulekit.bundled()
    if args.hand and "instinct" not in names:
        names = [*names, "instinct"]
    results = []
    for name in names:
        results.append(measure(name, max(1, args.games), args.players, args.seed, by_place=args.by_place))
        print(report(results[-1]), flush=True)
    if args.hand:
        ours = next(row for row in results if row["game"] == "instinct")
        for name, game in hand_games().items():
            results.append(measure(name, max(1, args.games), ours["players"], args.seed, game, args.by_place))
            print(report(results[-1]), flush=True)
        print(beside(ours, results[-2:]), flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps({"rows": results}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
