"""examples/property_test_my_variant.py runs: its variant loads and its tests pass (issue 5:
"a user's own variant of Instinct and a 15-line pytest module that uses rulekit.testing")."""
from __future__ import annotations

import importlib.util
import io
import unittest
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "property_test_my_variant.py"


@pytest.fixture
def example():
    spec = importlib.util.spec_from_file_location("property_test_my_variant", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_variant_is_instinct_with_its_changes(example):
    game = example.game
    assert game.title == "Instinct, nine cards, missed bids cost"
    assert game.players == range(2, 7), "players come from the extended game"
    state = game.new_game(players=3, seed=1)
    assert state.view()["hand_sizes"] == [9, 9, 9]


def test_the_examples_tests_pass(example):
    tests = [getattr(example, name) for name in dir(example) if name.startswith("test_")]
    assert len(tests) == 2
    for test in tests:
        test()
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(example.TestMyVariant)
    result = unittest.TextTestRunner(stream=io.StringIO()).run(suite)
    assert result.wasSuccessful(), result.failures + result.errors
