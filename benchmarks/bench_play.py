#!/usr/bin/env python3
"""Decisions per second for every shipped game, beside the yardsticks, in one run.

    python benchmarks/bench_play.py [--games N] [--quick] [--json FILE]

Each shipped game plays N random games through the public API only: `legal_moves()`,
then `apply(moves[int(rnd() * len(moves))])` on one state, the draw idiom of the
yardsticks. In the same process it runs the hand-written Instinct round simulator
(`ref_instinct.py`) and, when `pyspiel` is installed (`pip install open_spiel`),
OpenSpiel's `oh_hell`. Absolute figures vary from machine to machine: read the ratios.

The yardsticks are found in `$RULEKIT_BENCH_REF` (the folder, or the path of
`ref_instinct.py`) when it is set, else in `../shared/bench/` beside the repository. A
missing one is skipped with a note.

Also measured: `state.clone()` of a mid-round Instinct state, the state's own size
(objects reachable from it and not from the shared compiled rules), and `rulekit.load`
of each shipped file, the first in a fresh subprocess, then warm in this process.
"""
from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import os
import random
import subprocess
import sys
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(Path(__file__).resolve().parent))
import rulekit  # noqa: E402
from sizes import deep_size  # noqa: E402  (benchmarks/sizes.py)

#: The game whose speed the targets are stated for.
MAIN = "instinct"
#: Per game: the player count to bench (the contract's default otherwise).
PLAYERS = 4
#: Targets from the performance issue.
TARGET_BASELINE_SHARE = 0.25
TARGET_SLOWER_THAN_MAIN = 3.0
TARGET_CLONE_US = 20.0
TARGET_STATE_BYTES = 10_000
TARGET_LOAD_WARM_MS = 50.0
TARGET_LOAD_FIRST_MS = 300.0


# ---- yardsticks ------------------------------------------------------------------------------

def yardstick_dir() -> Path | None:
    """Where ref_instinct.py and openspiel_ohhell.py live, or None."""
    given = os.environ.get("RULEKIT_BENCH_REF")
    candidates = [Path(given)] if given else [ROOT.parent / "shared" / "bench"]
    for candidate in candidates:
        folder = candidate.parent if candidate.suffix == ".py" else candidate
        if (folder / "ref_instinct.py").is_file():
            return folder
    return None


@functools.lru_cache(maxsize=None)
def import_path(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bench_baseline(folder: Path, decisions: int, seed: int) -> dict:
    ref = import_path(folder / "ref_instinct.py")
    rounds = max(50, decisions // (PLAYERS * 12))
    out = ref.run(PLAYERS, rounds, seed)
    decisions = rounds * out["decisions_per_round"]      # its "seconds" is rounded: use the rate
    return {"decisions": decisions, "seconds": decisions / out["decisions_per_s"],
            "games": rounds, "unit": "rounds"}


def bench_openspiel(folder: Path, games: int, seed: int) -> dict:
    module = import_path(folder / "openspiel_ohhell.py")
    out = module.bench("oh_hell", games, seed)
    decisions = round(out["decisions_per_game"] * games)
    return {"decisions": decisions, "seconds": decisions / out["decisions_per_s"], "games": games,
            "unit": "games"}


# ---- rulekit -------------------------------------------------------------------------------

def players_for(game) -> int:
    return PLAYERS if PLAYERS in game.players else game.players[0]


def play_random(game, games: int, seed: int) -> dict:
    """N random games through the public API; the timer covers the move loop only."""
    players = players_for(game)
    rnd = random.Random(seed).random
    starts = [game.new_game(players=players, seed=seed + i) for i in range(games)]
    decisions = 0
    began = time.perf_counter()
    for state in starts:
        while not state.is_terminal:
            moves = state.legal_moves()
            state.apply(moves[int(rnd() * len(moves))])
            decisions += 1
    seconds = time.perf_counter() - began
    return {"decisions": decisions, "seconds": seconds, "games": games, "unit": "games",
            "players": players}


def fastest(results: list[dict]) -> dict:
    """The fastest of a few runs (the least disturbed by the rest of the machine)."""
    return min(results, key=lambda r: r["seconds"] / max(r["decisions"], 1))


def decisions_per_game(game, seed: int = 10_000) -> int:
    """Decisions in one random game, to size the runs of games of different lengths alike."""
    return play_random(game, 1, seed)["decisions"]


def game_counts(games: dict, main_games: int) -> dict[str, int]:
    """Games to play of each: `main_games` of the main game, about as many decisions of the others."""
    if MAIN not in games:
        return {name: main_games for name in games}
    target = main_games * decisions_per_game(games[MAIN])
    return {name: main_games if name == MAIN else max(1, round(target / decisions_per_game(game)))
            for name, game in games.items()}


def _openspiel_file(folder: Path | None, notes: list[str]) -> Path | None:
    if importlib.util.find_spec("pyspiel") is None:
        notes.append("OpenSpiel column skipped: pyspiel is not installed (pip install open_spiel)")
        return None
    if folder is None or not (folder / "openspiel_ohhell.py").is_file():
        notes.append("OpenSpiel column skipped: openspiel_ohhell.py not found")
        return None
    return folder / "openspiel_ohhell.py"


def mid_round_state(seed: int = 3):
    """An Instinct state in its first round, bids made and half the tricks played."""
    game = rulekit.load(MAIN)
    state = game.new_game(players=PLAYERS, seed=seed)
    rnd = random.Random(seed).random
    plays = PLAYERS + PLAYERS * 11 // 2 + 1
    for _ in range(plays):
        moves = state.legal_moves()
        state.apply(moves[int(rnd() * len(moves))])
    return state


def late_state(seed: int = 3, rounds: int = 20):
    """An Instinct state mid-round after `rounds` rounds: a long history."""
    game = rulekit.load(MAIN, variant=None)
    state = game.new_game(players=PLAYERS, seed=seed)
    rnd = random.Random(seed).random
    while not state.is_terminal and (state.round <= rounds or len(state.trick) < 2):
        moves = state.legal_moves()
        state.apply(moves[int(rnd() * len(moves))])
    return state


def clone_us(state, number: int) -> float:
    return min(timeit.repeat(state.clone, number=number, repeat=5)) / number * 1e6


def load_first_ms(name: str) -> dict:
    """`import rulekit` and the first `load` in a fresh interpreter, timed inside it."""
    code = ("import time; t0 = time.perf_counter(); import rulekit; t1 = time.perf_counter(); "
            f"rulekit.load({name!r}); t2 = time.perf_counter(); "
            "print((t1 - t0) * 1e3, (t2 - t1) * 1e3)")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True, cwd=str(ROOT))
    imported, loaded = (float(v) for v in out.stdout.split())
    return {"import_ms": imported, "load_ms": loaded}


def load_warm_ms(name: str, repeats: int) -> dict:
    rulekit.load(name)
    load = min(timeit.repeat(lambda: rulekit.load(name), number=1, repeat=repeats)) * 1e3

    def load_and_start():
        rulekit.load(name).new_game(seed=0)
    start = min(timeit.repeat(load_and_start, number=1, repeat=repeats)) * 1e3
    return {"load_ms": load, "load_and_compile_ms": start}


# ---- the run -------------------------------------------------------------------------------

def measure(args) -> dict:
    folder = yardstick_dir()
    games = {name: rulekit.load(name) for name in rulekit.bundled()}
    results: dict = {"python": sys.version.split()[0], "machine": os.uname().machine,
                     "cpus": os.cpu_count(), "notes": []}
    spiel_file = _openspiel_file(folder, results["notes"])
    if folder is None:
        results["notes"].append("hand-written baseline not found: set RULEKIT_BENCH_REF to the folder "
                                "holding ref_instinct.py")
    counts = game_counts(games, args.games)
    target = counts[MAIN] * decisions_per_game(games[MAIN]) if MAIN in games else 100_000
    runs: dict = {name: [] for name in games}
    base_runs, spiel_runs = [], []
    for _ in range(args.repeats):       # interleaved, so that every engine meets the same machine
        for name, game in games.items():
            runs[name].append(play_random(game, counts[name], args.seed))
        if folder is not None:
            base_runs.append(bench_baseline(folder, target, args.seed))
        if spiel_file is not None:
            spiel_runs.append(bench_openspiel(folder, max(10, target // 48), args.seed))
    results["play"] = {name: fastest(r) for name, r in runs.items()}
    results["baseline"] = fastest(base_runs) if base_runs else None
    results["openspiel"] = fastest(spiel_runs) if spiel_runs else None
    mid = mid_round_state()
    late = late_state()
    number = 2_000 if args.quick else 50_000
    results["clone"] = {"mid_round_us": clone_us(mid, number), "late_us": clone_us(late, number),
                        "late_round": late.round}
    results["size"] = {"mid_round_bytes": deep_size(mid, exclude=mid.rules),
                       "late_bytes": deep_size(late, exclude=late.rules), "late_round": late.round,
                       "late_history": len(late.history)}
    repeats = 3 if args.quick else 15
    results["load"] = {name: {"first": load_first_ms(name), "warm": load_warm_ms(name, repeats)}
                       for name in games}
    return results


def rate(entry: dict | None) -> float | None:
    return entry["decisions"] / entry["seconds"] if entry and entry["seconds"] > 0 else None


def report(results: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=max(150, Console().width))
    base, spiel = rate(results["baseline"]), rate(results["openspiel"])
    main_rate = rate(results["play"].get(MAIN))
    table = Table(title=f"Random games through the public API (Python {results['python']}, "
                        f"{results['machine']}, {results['cpus']} CPUs)")
    for column in ("engine", "players", "games", "decisions", "decisions/s", "games/s", "µs/decision",
                   "× baseline", "× OpenSpiel", "µs ÷ instinct µs"):
        table.add_column(column, justify="left" if column == "engine" else "right", no_wrap=column == "engine")
    for name, entry in results["play"].items():
        r = rate(entry)
        table.add_row(f"rulekit {name}", str(entry["players"]), str(entry["games"]), f"{entry['decisions']:,}",
                      f"{r:,.0f}", f"{entry['games'] / entry['seconds']:,.1f}", f"{1e6 / r:.2f}",
                      _ratio(r, base), _ratio(r, spiel), _ratio(main_rate, r))
    for label, entry, r in (("baseline ref_instinct.py", results["baseline"], base),
                            ("OpenSpiel oh_hell", results["openspiel"], spiel)):
        if entry is None:
            table.add_row(label, "", "", "", "skipped", "", "", "", "", "")
            continue
        unit = " rounds" if entry["unit"] == "rounds" else ""
        table.add_row(label, str(PLAYERS), f"{entry['games']:,}{unit}", f"{entry['decisions']:,}", f"{r:,.0f}",
                      f"{entry['games'] / entry['seconds']:,.1f}", f"{1e6 / r:.2f}", _ratio(r, base), _ratio(r, spiel), "")
    table.caption = ("baseline: one hand-written Instinct round per 'game'; "
                     "last column: µs per decision ÷ instinct's")
    console.print(table)
    _report_targets(console, results, main_rate, base, spiel)
    for note in results["notes"]:
        console.print(f"note: {note}")


def _report_targets(console, results, main_rate, base, spiel) -> None:
    from rich.table import Table

    table = Table(title="Targets")
    for column in ("measure", "value", "target", "met"):
        table.add_column(column, justify="left" if column == "measure" else "right")

    def row(label, value, target, ok):
        table.add_row(label, value, target, "yes" if ok else ("NO" if ok is not None else "n/a"))

    row("instinct decisions/s ÷ baseline", _ratio(main_rate, base, 3), f"≥ {TARGET_BASELINE_SHARE:.2f}",
        main_rate / base >= TARGET_BASELINE_SHARE if base else None)
    row("instinct decisions/s ÷ OpenSpiel oh_hell", _ratio(main_rate, spiel, 3), "≥ 1.00",
        main_rate >= spiel if spiel else None)
    for name, entry in results["play"].items():
        if name != MAIN:
            slower = main_rate / rate(entry)
            row(f"{name} µs/decision ÷ instinct's", f"{slower:.2f}", f"≤ {TARGET_SLOWER_THAN_MAIN:.0f}",
                slower <= TARGET_SLOWER_THAN_MAIN)
    clone, size = results["clone"], results["size"]
    row("clone, mid-round instinct state", f"{clone['mid_round_us']:.2f} µs", f"< {TARGET_CLONE_US:.0f} µs",
        clone["mid_round_us"] < TARGET_CLONE_US)
    row(f"clone, instinct state in round {clone['late_round']}", f"{clone['late_us']:.2f} µs",
        f"< {TARGET_CLONE_US:.0f} µs", clone["late_us"] < TARGET_CLONE_US)
    row("state size, mid-round instinct", f"{size['mid_round_bytes']:,} B", f"< {TARGET_STATE_BYTES:,} B",
        size["mid_round_bytes"] < TARGET_STATE_BYTES)
    row(f"state size, round {size['late_round']} ({size['late_history']} moves of history, 8 B each)",
        f"{size['late_bytes']:,} B", f"< {TARGET_STATE_BYTES:,} B", size["late_bytes"] < TARGET_STATE_BYTES)
    for name, entry in results["load"].items():
        first = entry["first"]
        row(f"load {name}, first in a process (import {first['import_ms']:.0f} ms + load)",
            f"{first['import_ms'] + first['load_ms']:.0f} ms", f"< {TARGET_LOAD_FIRST_MS:.0f} ms",
            first["import_ms"] + first["load_ms"] < TARGET_LOAD_FIRST_MS)
        warm = entry["warm"]
        row(f"load {name}, warm (load + compile: {warm['load_and_compile_ms']:.1f} ms)",
            f"{warm['load_ms']:.1f} ms", f"< {TARGET_LOAD_WARM_MS:.0f} ms", warm["load_ms"] < TARGET_LOAD_WARM_MS)
    console.print(table)


def _ratio(value: float | None, reference: float | None, digits: int = 2) -> str:
    return f"{value / reference:.{digits}f}" if value and reference else "—"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=None,
                        help=f"random {MAIN} games per run (the others: as many decisions); "
                             "default 30, 1 with --quick")
    parser.add_argument("--quick", action="store_true", help="a few games, one run: a smoke run")
    parser.add_argument("--repeats", type=int, default=None,
                        help="interleaved runs of every engine, the fastest kept (default 5)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="also write the raw figures to this file")
    args = parser.parse_args(argv)
    args.games = args.games or (1 if args.quick else 30)
    args.repeats = args.repeats or (1 if args.quick else 5)
    results = measure(args)
    report(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
