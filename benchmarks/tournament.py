"""Tournament: how much better than random the search agents play, in every shipped game.

    python benchmarks/tournament.py [--games 200] [--agent ismcts:30] [--jobs 2] [--seed 0]

For each game, one agent (default ISMCTS at 30 iterations a decision) against random players
at every other seat, the agent's seat rotating over the games (each seat equally often), the
games dealt from seeds seed..seed+games-1 (`rulekit.simulate.run_games`, so any --jobs gives
the same figures). Printed per game: the agent's and the random seats' win share with a 95%
Wilson interval, mean score with a 95% interval, and bid success (trick games). Targets
(issue #13): at least 70% of Duell games won; in the trick games a higher mean score and
bid success rate than the random seats.
"""
from __future__ import annotations

import argparse
import math
import time

import rulekit
from rulekit import simulate as sim

GAMES = [("duell-der-tiere", 2, ()), ("insidious-sevens", 4, ()), ("instinct", 4, ())]


def rotated(agent: str, players: int, seat: int) -> list[str]:
    return [agent if s == seat else "random" for s in range(players)]


def play(name: str, players: int, variants, agent: str, games: int, seed: int, jobs: int) -> list[dict]:
    game = rulekit.load(name, variant=list(variants) or None)
    records = []
    per_seat = [games // players + (1 if s < games % players else 0) for s in range(players)]
    start = seed
    for seat, count in enumerate(per_seat):
        seeds = range(start, start + count)
        records += list(sim.run_parallel(game, seeds, rotated(agent, players, seat), players, jobs, chunk=4))
        start += count
    return records


def mean_interval(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def report(name: str, agent: str, records: list[dict]) -> dict:
    groups = {"agent": [], "random": []}
    for record in records:
        winners = record["winners"]
        for seat, who in enumerate(record["agents"]):
            key = "agent" if who == agent else "random"
            groups[key].append((record["scores"][seat], 1 / len(winners) if seat in winners else 0.0,
                                record["bids"][seat], record["bids_made"][seat]))
    out = {}
    for key, rows in groups.items():
        wins = sum(r[1] for r in rows)
        bids, made = sum(r[2] for r in rows), sum(r[3] for r in rows)
        out[key] = {"seats": len(rows), "win_share": wins / len(rows), "win_95": sim.interval(wins, len(rows)),
                    "score": mean_interval([r[0] for r in rows]),
                    "bid_success": made / bids if bids else None, "bids": bids}
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--agent", default="ismcts:30")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", default=None, help="one game name")
    args = parser.parse_args()
    print(f"{args.agent} against random players, {args.games} games per game, seeds from {args.seed}")
    for name, players, variants in GAMES:
        if args.only and name != args.only:
            continue
        started = time.perf_counter()
        records = play(name, players, variants, args.agent, args.games, args.seed, args.jobs)
        seconds = time.perf_counter() - started
        result = report(name, args.agent, records)
        print(f"\n{name}, {players} players: {len(records)} games in {seconds:.0f} s"
              f" ({sum(r['stuck'] for r in records)} stuck)")
        print(f"  {'':8} {'seats':>6} {'win share':>10} {'95% interval':>15} {'mean score':>16} {'bid success':>12}")
        for key in ("agent", "random"):
            row = result[key]
            low, high = row["win_95"]
            score, half = row["score"]
            bids = "–" if row["bid_success"] is None else f"{row['bid_success']:.1%}"
            label = args.agent if key == "agent" else "random"
            print(f"  {label:8} {row['seats']:>6} {row['win_share']:>10.1%} {low:>7.1%}–{high:<7.1%}"
                  f" {score:>9.2f} ± {half:<5.2f} {bids:>12}")
        if players > 2:
            fair = 1 / players
            print(f"  (a seat's fair win share with equal players: {fair:.1%})")


if __name__ == "__main__":
    main()
