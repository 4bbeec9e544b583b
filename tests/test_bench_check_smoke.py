"""A smoke run of benchmarks/bench_check.py (the cost of the invariants), so it cannot rot.

Issue 12: "measure decisions per second with and without them in `benchmarks/`". Tests
never assert on time: only that the run completes, plays the same decisions both ways and
prints its table.
"""
from __future__ import annotations

import json

import rulekit

from bench_script import run_benchmark


def test_the_invariant_cost_benchmark_prints_its_table(tmp_path):
    raw = tmp_path / "figures.json"
    run = run_benchmark("bench_check.py", "--games", "1", "--players", "2", "--json", str(raw))
    assert run.returncode == 0, run.stderr
    assert "plain/s" in run.stdout and "checked/s" in run.stdout and "× plain" in run.stdout
    rows = json.loads(raw.read_text())["rows"]
    assert [row["game"] for row in rows] == rulekit.bundled()
    assert all(row["decisions"] > 0 and row["checks"] > 0 and row["ratio"] > 0 for row in rows)
