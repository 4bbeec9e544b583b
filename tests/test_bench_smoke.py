"""A smoke run of benchmarks/bench_play.py, so the benchmark cannot rot.

The performance issue asks for "a quick smoke run of the benchmark (few games) runs in CI".
Tests never assert on time: only that the run completes and prints its tables.
"""
from __future__ import annotations

import json

import rulekit

from bench_script import ROOT, run_benchmark


def test_quick_benchmark_prints_the_table(tmp_path):
    raw = tmp_path / "figures.json"
    run = run_benchmark("bench_play.py", "--quick", "--json", str(raw), COLUMNS="200")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "decisions/s" in out and "µs/decision" in out
    for name in rulekit.bundled():
        assert f"rulekit {name}" in out, f"no row for {name}"
    for engine in ("rulekit instinct playout()", "hand-written tight loop", "hand-written behind the step API",
                   "hand-written Duell behind the step API"):
        assert engine in out, f"no row for {engine}"
    # every row of the table
    for measure in ("through the step API ÷ the API-shaped hand-written engine", "÷ OpenSpiel oh_hell",
                    "playout() decisions/s ÷ the tight hand-written loop", "µs per decision ÷ Instinct's",
                    "rulekit check decisions/s ÷ plain play", "first load in a new process",
                    "state size in round 21 of Instinct"):
        assert measure in out, f"no row for {measure}"
    assert "hand-written, 66-bit hand masks, step API" in out and "hand-written, per-suit hand masks, step API" in out
    for measure in ("rulekit Duell ÷ hand-written Duell (API)", "hand-written Duell ÷ hand-written Instinct",
                    "66-bit hand masks ÷ hands as lists", "per-suit hand masks ÷ hands as lists",
                    "Instinct ÷ the hand-written engine with 66-bit hand masks"):
        assert measure in out, f"no row for {measure}"
    figures = json.loads(raw.read_text())
    assert {f"rulekit {name}" for name in rulekit.bundled()} <= set(figures["play"])
    assert all(entry["decisions"] > 0 for entry in figures["play"].values())
    assert set(figures["load"]) == set(rulekit.bundled())
    assert set(figures["check"]) == set(rulekit.bundled())
    assert figures["ratios"]["duell_over_hand"] > 0 and figures["ratios"]["hand_duell_over_hand"] > 0
    assert figures["ratios"]["masks_over_lists"] > 0 and figures["ratios"]["api_masks"] > 0
    assert figures["ratios"]["suits_over_lists"] > 0
    assert "runs' quartiles" in out
    assert set(figures["spreads"]) == set(figures["ratios"])
    if not any(note.startswith("shared yardsticks not found") for note in figures["notes"]):
        # the shared API-shaped yardstick's state, also driven by this benchmark's own loop
        assert "shared api_limit_instinct.py State (this benchmark's loop)" in figures["play"]
        assert figures["ratios"]["api_shared_loop"] > 0 and "api_limit's State, this benchmark's loop" in out


def test_ratios_are_medians_of_pairs_with_their_quartiles():
    """A ratio pairs the two engines' rates repetition by repetition; the spread is the
    quartiles of those pairs (none with fewer than four repetitions)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_play", ROOT / "benchmarks" / "bench_play.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    top = [{"decisions": d, "seconds": 1.0} for d in (90, 80, 100, 70, 60)]
    bottom = [{"decisions": 100, "seconds": 1.0}] * 5
    runs = {"a": top, "b": bottom}
    assert bench.pair_ratios(runs, "a", "b") == [0.9, 0.8, 1.0, 0.7, 0.6]
    assert bench.ratio(runs, "a", "b") == 0.8
    low, high = bench.spread(runs, "a", "b")
    assert low < 0.8 < high and 0.6 <= low and high <= 1.0
    assert bench.spread({"a": top[:3], "b": bottom[:3]}, "a", "b") is None
    assert bench.ratio(runs, "a", "missing") is None and bench.spread(runs, "missing", "b") is None
