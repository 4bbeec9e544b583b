"""Tests import helpers (positions.py) from this folder; the shipped games as fixtures.

The tests keep rulekit's caches in a folder of their own, made for the session (before any
test module is collected: some load games as they are), never in the user's: a test that
changes the generator for a while (a smaller table bound, a step whose fields are unknown)
would otherwise leave its module under the key every later load of that game reads, and a
user who ran the tests would play that game with it."""
import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

if "RULEKIT_CACHE_DIR" not in os.environ:
    CACHE = os.environ["RULEKIT_CACHE_DIR"] = tempfile.mkdtemp(prefix="rulekit-tests-")     # mode 0700
    atexit.register(shutil.rmtree, CACHE, ignore_errors=True)

import rulekit  # noqa: E402


@pytest.fixture(scope="session")
def instinct():
    return rulekit.load("instinct")


@pytest.fixture(scope="session")
def sevens():
    return rulekit.load("insidious-sevens")


@pytest.fixture
def peeking_views(monkeypatch):
    """A broken engine for the leak checks: every seat's view also shows the other hands."""
    from rulekit.compile import views
    view = views.view

    def peeking(rules, st, seat):
        out = view(rules, st, seat)
        if seat is not None:
            out["peek"] = [sorted(h) for p, h in enumerate(view(rules, st, None)["hands"]) if p != seat]
        return out
    monkeypatch.setattr(views, "view", peeking)
