"""The checker is never wrong (issue #10): every rule file of the project that is not meant
to be broken loads, wherever it lives (shipped games, examples, test fixtures, golden
games), so a refusal the engine would not need shows up here."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulekit

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(p for folder in ("rules", "examples", "tests")
               for p in (ROOT / folder).rglob("*.rules") if "broken_rules" not in p.parts)


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_rule_file_loads_with_every_variant(path):
    game = rulekit.load(path)
    for name in game.variants:
        variant = rulekit.load(path, variant=name)
        assert variant.new_game(players=variant.players[0], seed=1).legal_moves()
    assert game.new_game(players=game.players[0], seed=1).legal_moves()
