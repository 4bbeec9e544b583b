"""Determinization speed: samples per second for each shipped game and Oh Hell.

    python benchmarks/bench_determinize.py [--samples 2000]

For states a few moves into a round (and later, with voids known), the time of building the
sampler once per decision (the replay of the moves so far) and of each sample after it.
Figures depend on the machine; run it alone.
"""
from __future__ import annotations

import argparse
import random
import time

import rulekit

GAMES = [("instinct", 4), ("insidious-sevens", 4), ("duell-der-tiere", 2), ("examples/oh-hell.rules", 4)]


def position(game, players: int, seed: int, moves: int):
    st = game.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if st.is_terminal:
            break
        st.apply(rng.choice(st.legal_moves()))
    return st


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=2000)
    args = parser.parse_args()
    print(f"{'game':<28} {'moves':>5} {'setup ms':>9} {'samples/s':>10}")
    for name, players in GAMES:
        game = rulekit.load(name)
        for moves in (6, 25, 60):
            st = position(game, players, 1, moves)
            if st.is_terminal:
                continue
            start = time.perf_counter()
            handle = st.for_seat(st.current_player)
            handle.determinize(0)
            setup = time.perf_counter() - start
            rng = random.Random(2)
            start = time.perf_counter()
            for _ in range(args.samples):
                handle.determinize(rng)
            rate = args.samples / (time.perf_counter() - start)
            print(f"{name:<28} {moves:>5} {setup * 1000:>9.2f} {rate:>10.0f}")


if __name__ == "__main__":
    main()
