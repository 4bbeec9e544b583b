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
