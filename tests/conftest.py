"""Tests import helpers (positions.py) from this folder; the shipped games as fixtures."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

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
