"""Every file in tests/broken_rules/ must fail to load with exactly the diagnostics in its .expected file.

Regenerate on purpose after a wording change: RULEKIT_REGEN=1 pytest tests/test_broken_rules.py
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

import rulekit

FOLDER = Path(__file__).parent / "broken_rules"
CASES = sorted(FOLDER.glob("*.rules"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_broken_rule_file_gives_its_diagnostics(path):
    with pytest.raises(rulekit.RuleError) as caught:
        rulekit.loads(path.read_text(), file=path.name)
    text = str(caught.value)
    expected = path.with_suffix(".expected")
    if os.environ.get("RULEKIT_REGEN"):
        expected.write_text(text + "\n")
    assert text + "\n" == expected.read_text()
    for diagnostic in caught.value.diagnostics:
        assert diagnostic.file == path.name
        assert 1 <= diagnostic.line <= len(path.read_text().splitlines())
        assert diagnostic.column >= 1
        assert diagnostic.message


def test_every_broken_file_has_an_expectation():
    assert CASES, "the folder of broken rule files is empty"
    for path in CASES:
        assert path.with_suffix(".expected").exists() or os.environ.get("RULEKIT_REGEN"), path.name
