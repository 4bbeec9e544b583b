#!/usr/bin/env python3
"""Every row of the performance issue's table, measured in one run, as pairwise ratios.

    python benchmarks/bench_play.py [--seconds S] [--repeats R] [--quick] [--json FILE]

In one process, interleaved, each repetition runs every engine for about S seconds:

- each shipped game, random games through the public API (`legal_moves()`, then
  `apply(moves[int(rnd() * len(moves))])`), every game on a seed not used before in the
  run, so no cache is warm from an earlier game (fresh positions);
- `state.playout(seed)` on fresh Instinct games (random play inside the engine);
- the project's own hand-written Instinct (`benchmarks/hand_instinct.py`): the tight loop
  with no API, and the same game behind the step API, both with the same draw idiom;
- the same hand-written Instinct with hands held as 66-bit masks, as rulekit holds them, and
  as one small mask per suit (`benchmarks/hand_instinct_masks.py`), to show what each
  representation does by itself (informational rows);
- the project's hand-written Duell der Tiere behind the step API (`benchmarks/hand_duell.py`),
  to show what hand-written code reaches on that game (informational rows, not targets);
- when present, the yardsticks in `$RULEKIT_BENCH_REF` or `../shared/bench/` beside the
  repository (`ref_instinct.py`, `api_limit_instinct.py`, `openspiel_ohhell.py` with
  `pip install open_spiel`), so the project's baselines and those can be compared; the
  shared API-shaped yardstick runs twice, by its own loop (which draws with `randrange`,
  about 0.2 µs a decision more) and its `State` by this benchmark's loop, so that the
  ratio against it compares engines and not loops.

A ratio is taken inside each repetition (both engines met the same machine) and the median
over the repetitions is reported, with the quartiles of the repetitions' ratios beside it: on
a shared machine one repetition can stray far, and many short repetitions (every other one
in reverse order) give a steadier median than a few long ones. Also measured: what
`rulekit check` costs per decision (`bench_check.py`), the first load in fresh processes
(median), a warm load, `clone()`, and the state's own size in round 21 of Instinct. Absolute
figures vary with the machine: read the ratios.
"""
from __future__ import annotations

import argparse
import functools
import importlib.util
import itertools
import json
import os
import random
import statistics
import shutil
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
for folder in (ROOT, HERE):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import rulekit  # noqa: E402
import hand_instinct  # noqa: E402  (benchmarks/hand_instinct.py)
import hand_duell  # noqa: E402  (benchmarks/hand_duell.py)
import hand_instinct_masks  # noqa: E402  (benchmarks/hand_instinct_masks.py)
from sizes import deep_size, shared_roots  # noqa: E402  (benchmarks/sizes.py)

#: The game the targets are stated for, and the player count of every run.
MAIN = "instinct"
#: The grid game and its hand-written engine (informational rows).
DUELL, HAND_DUELL = "duell-der-tiere", "hand-written Duell behind the step API"
#: The hand-written Instinct behind the step API, and the same with hands as 66-bit masks or
#: as a small mask per suit.
HAND_API, HAND_MASKS = "hand-written behind the step API", "hand-written, 66-bit hand masks, step API"
HAND_SUITS = "hand-written, per-suit hand masks, step API"
#: the shared API-shaped yardstick's state, driven by this benchmark's loop and draw idiom
SHARED_STATE = "shared api_limit_instinct.py State (this benchmark's loop)"
PLAYERS = 4

#: (label, value key, target text, test) for the issue's table, in its order.
TARGETS = {
    "api": ("Instinct 4p through the step API ÷ the API-shaped hand-written engine", 0.9),
    "openspiel": ("Instinct ÷ OpenSpiel oh_hell", 2.0),
    "playout": ("state.playout() decisions/s ÷ the tight hand-written loop", 0.5),
    "slower": ("µs per decision ÷ Instinct's, fresh positions", 1.5),
    "check": ("rulekit check decisions/s ÷ plain play", 0.25),
    "first_load_ms": ("first load in a new process (import included)", 150.0),
    "state_bytes": ("state size in round 21 of Instinct", 4000),
}


# ---- the engines ------------------------------------------------------------------------------

def yardstick_dir() -> Path | None:
    """Where the shared yardsticks live, or None."""
    given = os.environ.get("RULEKIT_BENCH_REF")
    candidates = [Path(given)] if given else [up / "shared" / "bench" for up in ROOT.parents[:2]]
    for candidate in candidates:
        folder = candidate.parent if candidate.suffix == ".py" else candidate
        if (folder / "ref_instinct.py").is_file():
            return folder
    return None


@functools.lru_cache(maxsize=None)
def import_path(path: Path):
    sys.path.insert(0, str(path.parent))         # api_limit_instinct imports ref_instinct
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Rulekit:
    """Random games of one shipped game through the public API, each on a fresh seed."""

    def __init__(self, name: str, seeds):
        self.name, self.game, self.seeds = name, rulekit.load(name), seeds
        self.players = PLAYERS if PLAYERS in self.game.players else self.game.players[0]

    def run(self, seconds: float) -> dict:
        rnd = random.Random(next(self.seeds)).random
        decisions = games = 0
        elapsed = 0.0
        while elapsed < seconds:
            state = self.game.new_game(players=self.players, seed=next(self.seeds))
            began = time.perf_counter()
            decisions += random_game(state, rnd)
            elapsed += time.perf_counter() - began
            games += 1
        return {"decisions": decisions, "seconds": elapsed, "games": games}


def random_game(state, rnd) -> int:
    """Play `state` to its end by the benchmark's loop (`rnd`: a `random.Random(...).random`);
    the decisions made."""
    decisions = 0
    while not state.is_terminal:
        moves = state.legal_moves()
        state.apply(moves[int(rnd() * len(moves))])
        decisions += 1
    return decisions


class Playout(Rulekit):
    """`state.playout(seed)` on fresh games: random play inside the engine."""

    def run(self, seconds: float) -> dict:
        decisions = games = 0
        elapsed = 0.0
        while elapsed < seconds:
            state = self.game.new_game(players=self.players, seed=next(self.seeds))
            seed = next(self.seeds)
            began = time.perf_counter()
            decisions += state.playout(seed)
            elapsed += time.perf_counter() - began
            games += 1
        return {"decisions": decisions, "seconds": elapsed, "games": games}


class ByGames:
    """An engine run as `run(games, seed) -> {"decisions", "seconds"}`, sized to the budget."""

    def __init__(self, play, seeds):
        self.play, self.seeds, self.per_second = play, seeds, None

    def run(self, seconds: float) -> dict:
        games = 1 if self.per_second is None else max(1, round(self.per_second * seconds))
        out = self.play(games, next(self.seeds))
        self.per_second = games / max(out["seconds"], 1e-9)
        return {"decisions": out["decisions"], "seconds": out["seconds"], "games": games}


def shared_engines(folder: Path | None, seeds, notes: list[str]) -> dict:
    """The yardsticks of ../shared/bench/, those that are there."""
    if folder is None:
        notes.append("shared yardsticks not found (set RULEKIT_BENCH_REF): the project's own "
                     "baselines in benchmarks/hand_instinct.py stand alone")
        return {}
    engines = {}
    ref = import_path(folder / "ref_instinct.py")

    def ref_rounds(rounds, seed):
        out = ref.run(PLAYERS, rounds, seed)
        decisions = rounds * out["decisions_per_round"]
        return {"decisions": decisions, "seconds": decisions / out["decisions_per_s"]}
    engines["shared ref_instinct.py (tight, one round a game)"] = ByGames(ref_rounds, seeds)
    if (folder / "api_limit_instinct.py").is_file():
        limit = import_path(folder / "api_limit_instinct.py")

        class Limit:
            def run(self, seconds):
                rate = limit.api_rate(next(seeds), seconds)
                return {"decisions": round(rate * seconds), "seconds": seconds, "games": None}
        engines["shared api_limit_instinct.py (its own randrange loop)"] = Limit()
        engines[SHARED_STATE] = ByGames(lambda games, seed: hand_instinct.api_games(
            games, seed, PLAYERS, state_class=limit.State), seeds)
    if importlib.util.find_spec("pyspiel") is None:
        notes.append("OpenSpiel skipped: pyspiel is not installed (pip install open_spiel)")
    elif not (folder / "openspiel_ohhell.py").is_file():
        notes.append("OpenSpiel skipped: openspiel_ohhell.py not found")
    else:
        spiel = import_path(folder / "openspiel_ohhell.py")

        def spiel_games(games, seed):
            out = spiel.bench("oh_hell", games, seed)
            decisions = round(out["decisions_per_game"] * games)
            return {"decisions": decisions, "seconds": decisions / out["decisions_per_s"]}
        engines["OpenSpiel oh_hell"] = ByGames(spiel_games, seeds)
    return engines


def engines_for(folder, notes) -> dict:
    seeds = itertools.count(1_000)
    engines = {f"rulekit {name}": Rulekit(name, seeds) for name in rulekit.bundled()}
    engines[f"rulekit {MAIN} playout()"] = Playout(MAIN, seeds)
    engines["hand-written tight loop"] = ByGames(
        lambda games, seed: hand_instinct.tight_games(games, seed, PLAYERS), seeds)
    engines[HAND_API] = ByGames(lambda games, seed: hand_instinct.api_games(games, seed, PLAYERS), seeds)
    engines[HAND_MASKS] = ByGames(lambda games, seed: hand_instinct_masks.api_games(games, seed, PLAYERS), seeds)
    engines[HAND_SUITS] = ByGames(lambda games, seed: hand_instinct_masks.api_games(
        games, seed, PLAYERS, state_class=hand_instinct_masks.SuitState), seeds)
    engines[HAND_DUELL] = ByGames(hand_duell.api_games, seeds)
    engines.update(shared_engines(folder, seeds, notes))
    return engines


def rate(entry: dict) -> float:
    return entry["decisions"] / entry["seconds"] if entry["seconds"] > 0 else 0.0


def play_all(engines: dict, seconds: float, repeats: int) -> dict[str, list[dict]]:
    """Each engine `repeats` times, interleaved, so that all meet the same machine; every
    other repetition runs them in reverse order, so that no engine always runs just after
    the same one (or always first)."""
    runs: dict[str, list[dict]] = {name: [] for name in engines}
    for engine in engines.values():         # a warm-up: imports, first compile, calibration
        engine.run(min(seconds, 0.2))
    order = list(engines.items())
    for repetition in range(repeats):
        for name, engine in order if repetition % 2 == 0 else order[::-1]:
            runs[name].append(engine.run(seconds))
    return runs


def pair_ratios(runs: dict, top: str, bottom: str) -> list[float] | None:
    """rate(top) ÷ rate(bottom) in each repetition (both met the same machine)."""
    if top not in runs or bottom not in runs:
        return None
    return [rate(a) / rate(b) for a, b in zip(runs[top], runs[bottom])]


def ratio(runs: dict, top: str, bottom: str) -> float | None:
    """The median over repetitions of rate(top) ÷ rate(bottom), both of one repetition."""
    pairs = pair_ratios(runs, top, bottom)
    return None if pairs is None else statistics.median(pairs)


def spread(runs: dict, top: str, bottom: str) -> tuple[float, float] | None:
    """The quartiles of the per-repetition ratios (how far one repetition strays), or None
    with fewer than four repetitions."""
    pairs = pair_ratios(runs, top, bottom)
    if pairs is None or len(pairs) < 4:
        return None
    low, _, high = statistics.quantiles(pairs, n=4)
    return low, high


# ---- the other measures ----------------------------------------------------------------------

def late_state(seed: int = 3, rounds: int = 20):
    """An Instinct state mid-trick in round `rounds + 1`: a long history."""
    state = rulekit.load(MAIN).new_game(players=PLAYERS, seed=seed)
    rnd = random.Random(seed).random
    while not state.is_terminal and (state.round <= rounds or len(state.trick) < 2):
        moves = state.legal_moves()
        state.apply(moves[int(rnd() * len(moves))])
    return state


def mid_round_state(seed: int = 3):
    """An Instinct state in its first round, bids made and half the tricks played."""
    state = rulekit.load(MAIN).new_game(players=PLAYERS, seed=seed)
    rnd = random.Random(seed).random
    for _ in range(PLAYERS + PLAYERS * 11 // 2 + 1):
        moves = state.legal_moves()
        state.apply(moves[int(rnd() * len(moves))])
    return state


def clone_us(state, number: int) -> float:
    return min(timeit.repeat(state.clone, number=number, repeat=5)) / number * 1e6


def load_first_ms(name: str, repeats: int, bytecode: bool = True, cached: bool = True) -> dict:
    """`import rulekit`, then `rulekit.load(name).new_game()`, in fresh interpreters (median).
    With `bytecode`, as after `pip install` (which compiles the modules): Python's bytecode
    cache is written by a first run and read by the timed ones. Without, rulekit's modules
    are compiled from source in every run (a copy of the package without bytecode, none
    written), as in a checkout under `PYTHONDONTWRITEBYTECODE`; the standard library keeps
    its bytecode. With `cached`, rulekit's own caches (Lark's tables, the kept parse, the
    generated module) are as a first run left them; without, caching is off
    (`RULEKIT_CACHE_DIR=""`): every run builds Lark's tables, parses and generates."""
    code = ("import time; t0 = time.perf_counter(); import rulekit; t1 = time.perf_counter(); "
            f"rulekit.load({name!r}).new_game(seed=1); t2 = time.perf_counter(); "
            "print((t1 - t0) * 1e3, (t2 - t1) * 1e3)")
    with tempfile.TemporaryDirectory() as copy:
        home = ROOT
        env = dict(os.environ)
        if not cached:
            env["RULEKIT_CACHE_DIR"] = ""
        if bytecode:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
        else:
            home = Path(copy)
            for part in ("rulekit", "rules"):
                shutil.copytree(ROOT / part, home / part, ignore=shutil.ignore_patterns("__pycache__"))
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["PYTHONPATH"] = str(home) + os.pathsep + os.environ.get("PYTHONPATH", "")
        run = [sys.executable, "-c", code]
        if bytecode:
            subprocess.run(run, capture_output=True, env=env, check=True, cwd=str(home))
        samples = []
        for _ in range(repeats):
            out = subprocess.run(run, capture_output=True, text=True, env=env, check=True, cwd=str(home))
            samples.append(tuple(float(v) for v in out.stdout.split()))
    imported, loaded = min(samples, key=sum) if repeats < 3 else sorted(samples, key=sum)[len(samples) // 2]
    return {"import_ms": imported, "load_ms": loaded, "total_ms": imported + loaded}


def load_warm_ms(name: str, repeats: int) -> float:
    rulekit.load(name)
    return min(timeit.repeat(lambda: rulekit.load(name), number=1, repeat=repeats)) * 1e3


def check_cost(games: int) -> dict[str, dict]:
    """`bench_check.py`'s measure for every shipped game: checked and plain decisions/s."""
    import bench_check
    out = {}
    for name in rulekit.bundled():
        row = bench_check.measure(name, games, PLAYERS, False)
        out[name] = {"plain_per_second": row["plain_per_second"],
                     "checked_per_second": row["checked_per_second"],
                     "ratio": row["checked_per_second"] / row["plain_per_second"]}
    return out


def measure(args) -> dict:
    notes: list[str] = []
    engines = engines_for(yardstick_dir(), notes)
    runs = play_all(engines, args.seconds, args.repeats)
    late, mid = late_state(), mid_round_state()
    number = 2_000 if args.quick else 50_000
    return {
        "python": sys.version.split()[0], "machine": os.uname().machine, "cpus": os.cpu_count(),
        "seconds": args.seconds, "repeats": args.repeats, "notes": notes,
        "runs": runs,
        "play": {name: _summed(r) for name, r in runs.items()},
        "ratios": _ratios(runs),
        "spreads": _spreads(runs),
        "check": check_cost(1 if args.quick else 4),
        "size": {"late_bytes": deep_size(late, exclude=shared_roots(late)), "late_round": late.round,
                 "late_history": len(late.history), "mid_round_bytes": deep_size(mid, exclude=shared_roots(mid))},
        "clone": {"mid_round_us": clone_us(mid, number), "late_us": clone_us(late, number)},
        "load": {name: {"first": load_first_ms(name, 1 if args.quick else 9),
                        "first_from_source": load_first_ms(name, 1 if args.quick else 5, bytecode=False),
                        "first_uncached": load_first_ms(name, 1 if args.quick else 3, cached=False),
                        "warm_ms": load_warm_ms(name, 3 if args.quick else 15)}
                 for name in rulekit.bundled()},
    }


def _summed(runs: list[dict]) -> dict:
    return {"decisions": sum(r["decisions"] for r in runs), "seconds": sum(r["seconds"] for r in runs),
            "per_second_median": statistics.median(rate(r) for r in runs)}


def _pairs() -> dict[str, tuple[str, str]]:
    """The ratios reported, by key: (top engine, bottom engine)."""
    main = f"rulekit {MAIN}"
    return {
        "api": (main, HAND_API),
        "api_shared": (main, "shared api_limit_instinct.py (its own randrange loop)"),
        "api_shared_loop": (main, SHARED_STATE),
        "openspiel": (main, "OpenSpiel oh_hell"),
        "playout": (f"{main} playout()", "hand-written tight loop"),
        "playout_shared": (f"{main} playout()", "shared ref_instinct.py (tight, one round a game)"),
        "baseline": (main, "hand-written tight loop"),
        "baseline_shared": (main, "shared ref_instinct.py (tight, one round a game)"),
        "hand_api_over_tight": (HAND_API, "hand-written tight loop"),
        # µs per decision, as the "slower" rows: rulekit's Duell over the hand-written one, and
        # the hand-written Duell over the hand-written Instinct (both behind the step API)
        "duell_over_hand": (HAND_DUELL, f"rulekit {DUELL}"),
        "hand_duell_over_hand": (HAND_API, HAND_DUELL),
        # what 66-bit masks and per-suit masks do to a hand-written engine, and rulekit against
        # the engine that holds hands as rulekit does
        "masks_over_lists": (HAND_MASKS, HAND_API),
        "suits_over_lists": (HAND_SUITS, HAND_API),
        "api_masks": (main, HAND_MASKS),
    }


def _slower(runs: dict) -> dict[str, tuple[str, str]]:
    """µs per decision of every other shipped game ÷ Instinct's: (Instinct, the game)."""
    main = f"rulekit {MAIN}"
    return {name[len("rulekit "):]: (main, name) for name in runs
            if name.startswith("rulekit ") and name != main and not name.endswith("playout()")}


def _ratios(runs: dict) -> dict:
    out = {key: ratio(runs, *pair) for key, pair in _pairs().items()}
    out["slower"] = {name: ratio(runs, *pair) for name, pair in _slower(runs).items()}
    return out


def _spreads(runs: dict) -> dict:
    out = {key: spread(runs, *pair) for key, pair in _pairs().items()}
    out["slower"] = {name: spread(runs, *pair) for name, pair in _slower(runs).items()}
    return out


# ---- the report ------------------------------------------------------------------------------

def report(results: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=max(130, Console().width))
    main = results["play"][f"rulekit {MAIN}"]["per_second_median"]
    table = Table(title=f"Random play, {results['repeats']} interleaved runs of ~{results['seconds']:g} s each "
                        f"(Python {results['python']}, {results['machine']}, {results['cpus']} CPUs)")
    for column in ("engine", "decisions", "decisions/s (median)", "µs/decision", "÷ rulekit instinct"):
        table.add_column(column, justify="left" if column == "engine" else "right")
    for name, entry in results["play"].items():
        per_second = entry["per_second_median"]
        table.add_row(name, f"{entry['decisions']:,}", f"{per_second:,.0f}", f"{1e6 / per_second:.2f}",
                      f"{per_second / main:.2f}")
    table.caption = "4 players (Duell: 2); rulekit games on seeds never used before in the run"
    console.print(table)
    console.print(targets_table(results))
    for note in results["notes"]:
        console.print(f"note: {note}")


def targets_table(results: dict):
    from rich.table import Table

    table = Table(title="The performance issue's targets (ratios: medians of per-run pairs)")
    for column in ("measure", "value", "runs' quartiles", "target", "met"):
        table.add_column(column, justify="left" if column == "measure" else "right")
    ratios, spreads = results["ratios"], results.get("spreads", {})

    def row(label, value, shown, target_text, ok, quartiles=None, digits=3):
        met = "" if ok is None else ("yes" if ok else "NO") if value is not None else "n/a"
        spread_text = f"{quartiles[0]:.{digits}f}–{quartiles[1]:.{digits}f}" if quartiles else ""
        table.add_row(label, shown if value is not None else "—", spread_text, target_text, met)

    def at_least(key, label, value, quartiles=None):
        goal = TARGETS[key][1]
        row(label, value, f"{value:.3f}" if value is not None else "", f"≥ {goal:g}",
            value is not None and value >= goal if value is not None else False, quartiles)

    at_least("api", TARGETS["api"][0] + " (hand_instinct.py)", ratios["api"], spreads.get("api"))
    at_least("api", TARGETS["api"][0] + " (shared api_limit, randrange loop)", ratios["api_shared"],
             spreads.get("api_shared"))
    at_least("api", TARGETS["api"][0] + " (shared api_limit's State, this benchmark's loop)",
             ratios["api_shared_loop"], spreads.get("api_shared_loop"))
    at_least("openspiel", TARGETS["openspiel"][0], ratios["openspiel"], spreads.get("openspiel"))
    at_least("playout", TARGETS["playout"][0] + " (hand_instinct.py)", ratios["playout"], spreads.get("playout"))
    at_least("playout", TARGETS["playout"][0] + " (shared ref_instinct)", ratios["playout_shared"],
             spreads.get("playout_shared"))
    for name, value in ratios["slower"].items():
        goal = TARGETS["slower"][1]
        row(f"{name}: {TARGETS['slower'][0]}", value, f"{value:.2f}" if value else "", f"≤ {goal:g}",
            value is not None and value <= goal, spreads.get("slower", {}).get(name), digits=2)
    for name, entry in results["check"].items():
        at_least("check", f"{name}: {TARGETS['check'][0]}", entry["ratio"])
    for name, entry in results["load"].items():
        first, goal = entry["first"], TARGETS["first_load_ms"][1]
        row(f"{name}: {TARGETS['first_load_ms'][0]}, bytecode cached, median (import {first['import_ms']:.0f} ms)",
            first["total_ms"], f"{first['total_ms']:.0f} ms", f"< {goal:g} ms", first["total_ms"] < goal)
    size, goal = results["size"], TARGETS["state_bytes"][1]
    row(f"{TARGETS['state_bytes'][0]} ({size['late_history']} moves of history)", size["late_bytes"],
        f"{size['late_bytes']:,} B", f"< {goal:,} B", size["late_bytes"] < goal)
    table.add_section()
    for key, label in (("baseline", "Instinct ÷ the tight hand-written loop"),
                       ("baseline_shared", "Instinct ÷ the shared ref_instinct.py"),
                       ("hand_api_over_tight", "hand-written step API ÷ its tight loop"),
                       ("duell_over_hand", "rulekit Duell ÷ hand-written Duell (API), µs per decision"),
                       ("hand_duell_over_hand", "hand-written Duell ÷ hand-written Instinct, µs per decision"),
                       ("masks_over_lists", "hand-written Instinct (API), 66-bit hand masks ÷ hands as lists"),
                       ("suits_over_lists", "hand-written Instinct (API), per-suit hand masks ÷ hands as lists"),
                       ("api_masks", "Instinct ÷ the hand-written engine with 66-bit hand masks (API)")):
        row(f"also: {label}", ratios[key], _fmt(ratios[key]), "", None, spreads.get(key))
    clone = results["clone"]
    row("also: clone(), mid-round / round 21", 1, f"{clone['mid_round_us']:.2f} / {clone['late_us']:.2f} µs",
        "", None)
    row("also: state size mid-round", 1, f"{size['mid_round_bytes']:,} B", "", None)
    for name, entry in results["load"].items():
        source = entry["first_from_source"]
        row(f"also: {name}: first load, every module compiled from source (import {source['import_ms']:.0f} ms)",
            1, f"{source['total_ms']:.0f} ms", "", None)
        bare = entry.get("first_uncached")
        if bare is not None:
            row(f"also: {name}: first load with rulekit's caches off (import {bare['import_ms']:.0f} ms)",
                1, f"{bare['total_ms']:.0f} ms", "", None)
        row(f"also: {name}: warm load", 1, f"{entry['warm_ms']:.1f} ms", "", None)
    return table


def _fmt(value) -> str:
    return f"{value:.3f}" if value is not None else ""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=None,
                        help="seconds of play per engine per run (default 0.35, 0.05 with --quick)")
    parser.add_argument("--repeats", type=int, default=None,
                        help="interleaved runs of every engine (default 15, 1 with --quick)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: short, one run")
    parser.add_argument("--json", type=Path, help="also write the raw figures to this file")
    args = parser.parse_args(argv)
    args.seconds = args.seconds or (0.05 if args.quick else 0.35)
    args.repeats = args.repeats or (1 if args.quick else 15)
    results = measure(args)
    report(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
