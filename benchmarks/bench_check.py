#!/usr/bin/env python3
"""What checking costs: decisions per second of random play with and without the invariants.

    python benchmarks/bench_check.py [--games N] [--repeats R] [--min-decisions D] [--players P]
                                     [--thorough] [--json FILE]

For every shipped game, N random games (the moves `check_rules` plays from their seeds)
run twice in one process: plain, through `legal_moves()` and `apply()` only, and under
`check_rules`'s invariant schedule (`rulekit.testing.runner.play_checked`), without
shrinking. That is repeated `--repeats` times on fresh seeds, plain and checked
interleaved (which runs first alternates: a game's second run finds the engine's caches
warm), and the medians are printed: `× plain` is the time checking takes over plain play,
`÷ plain` its decisions per second over plain play's (the issue asks for at least 0.25).
A repetition plays at least `--min-decisions` decisions (more games than `--games` when
the game is short): the schedule spends its credits over decisions, so it is measured over
enough of them. `--thorough` measures the long run's schedule (every invariant on every
move, for every seat) instead. Absolute figures vary from machine to machine and with load: read the
ratios.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from statistics import median
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import rulekit  # noqa: E402
from rulekit.testing.runner import _Checks, play_checked  # noqa: E402


def plain(game, players: int, seeds) -> tuple[int, float]:
    """Decisions and seconds of random games through the public API (the runner's moves)."""
    decisions, started = 0, time.perf_counter()
    for seed in seeds:
        state = game.new_game(players=players, seed=seed)
        rng = random.Random(seed * 1_000_003 + players)
        while not state.is_terminal:
            legal = state.legal_moves()
            if not legal:
                break
            state.apply(rng.choice(legal).text)
            decisions += 1
    return decisions, time.perf_counter() - started


def checked(game, players: int, seeds, thorough: bool) -> tuple[int, float, int]:
    """Decisions, seconds and invariant checks of the same games under the invariants."""
    checks = _Checks(game, None, thorough)
    decisions, started = 0, time.perf_counter()
    for seed in seeds:
        out = play_checked(game, players, seed, checks)
        if out.failed is not None:
            raise SystemExit(f"{game.name}: {out.failed}")
        decisions += len(out.moves)
    return decisions, time.perf_counter() - started, checks.count


#: Decisions a repetition plays at least (more games than asked for when the game is short):
#: the schedule spends its credits over decisions, so it is measured over enough of them.
MIN_DECISIONS = 1500


def measure(name: str, games: int, players: int | None, thorough: bool, repeats: int = 3,
            min_decisions: int = MIN_DECISIONS) -> dict:
    """Plain and checked play of the same games, `repeats` times interleaved; the medians."""
    game = rulekit.load(name)
    count = players if players in game.players else (4 if 4 in game.players else game.players[0])
    warm = range(10_000, 10_000 + games)        # untimed: the first games of a process pay its set-up
    warm_decisions, _ = plain(game, count, warm)
    checked(game, count, warm, thorough)
    games = max(games, -(-min_decisions * games // max(1, warm_decisions)))
    plain_runs, checked_runs, ratios, total = [], [], [], 0
    for repeat in range(repeats):
        seeds = range(repeat * games, (repeat + 1) * games)     # fresh games in each repetition
        if repeat % 2:          # which one runs first alternates: a game's second run finds warm caches
            decisions, seconds, checks = checked(game, count, seeds, thorough)
            plain_decisions, plain_seconds = plain(game, count, seeds)
        else:
            plain_decisions, plain_seconds = plain(game, count, seeds)
            decisions, seconds, checks = checked(game, count, seeds, thorough)
        assert decisions == plain_decisions, (name, decisions, plain_decisions)
        total += decisions
        plain_runs.append(plain_seconds)
        checked_runs.append(seconds)
        ratios.append(plain_seconds / seconds)
    decisions = total / repeats
    plain_seconds, seconds, speed = median(plain_runs), median(checked_runs), median(ratios)
    return {"game": name, "players": count, "games": games, "decisions": round(decisions), "repeats": repeats,
            "plain_per_second": decisions / plain_seconds, "checked_per_second": decisions / seconds,
            "ratio": 1 / speed, "speed_ratio": speed, "checks": checks, "checks_per_decision": checks / decisions}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--thorough", action="store_true")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--min-decisions", type=int, default=MIN_DECISIONS)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    rows = [measure(name, args.games, args.players, args.thorough, args.repeats, args.min_decisions)
            for name in rulekit.bundled()]
    mode = "thorough" if args.thorough else "default"
    print(f"invariant cost, {mode} schedule, at least {args.games} games and {args.min_decisions} decisions "
          f"per repetition, median of {args.repeats} interleaved repetitions")
    print(f"{'game':<20} {'players':>7} {'decisions':>10} {'plain/s':>10} {'checked/s':>10} "
          f"{'× plain':>8} {'÷ plain':>8} {'checks/decision':>16}")
    for row in rows:
        print(f"{row['game']:<20} {row['players']:>7} {row['decisions']:>10} {row['plain_per_second']:>10,.0f} "
              f"{row['checked_per_second']:>10,.0f} {row['ratio']:>8.1f} {row['speed_ratio']:>8.2f} "
              f"{row['checks_per_decision']:>16.2f}")
    print("÷ plain: checked decisions/s ÷ plain decisions/s (the issue's target: at least 0.25)")
    if args.json:
        args.json.write_text(json.dumps({"mode": mode, "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
