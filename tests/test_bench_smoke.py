"""A smoke run of benchmarks/bench_play.py, so the benchmark cannot rot.

The performance issue asks for "a quick smoke run of the benchmark (few games) runs in CI".
Tests never assert on time: only that the run completes and prints its tables.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import rulekit

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "bench_play.py"


def test_quick_benchmark_prints_the_table(tmp_path):
    raw = tmp_path / "figures.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               COLUMNS="200")
    run = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--games", "1", "--json", str(raw)],
                         capture_output=True, text=True, env=env, cwd=str(ROOT), timeout=300)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "decisions/s" in out and "µs/decision" in out and "× baseline" in out
    for name in rulekit.bundled():
        assert f"rulekit {name}" in out, f"no row for {name}"
    assert "clone, mid-round instinct state" in out
    assert "state size, mid-round instinct" in out
    figures = json.loads(raw.read_text())
    assert set(figures["play"]) == set(rulekit.bundled())
    assert all(entry["decisions"] > 0 for entry in figures["play"].values())
    assert set(figures["load"]) == set(rulekit.bundled())
