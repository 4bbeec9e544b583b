"""Run a script of `benchmarks/` as a user would, for the smoke tests that keep it from rotting.

The checkout comes first on the path, so the script measures this tree's rulekit.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_benchmark(script: str, *args: str, **env: str) -> subprocess.CompletedProcess:
    """`python benchmarks/SCRIPT ARGS...` from the checkout's root, with `env` added to the
    environment; its output captured as text."""
    environ = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), **env)
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args],
                          capture_output=True, text=True, env=environ, cwd=str(ROOT), timeout=300)
