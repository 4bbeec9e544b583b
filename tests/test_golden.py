"""Golden playthroughs: each recorded seeded game replays to exactly the same text."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "golden.py"
spec = importlib.util.spec_from_file_location("golden", SCRIPT)
golden = importlib.util.module_from_spec(spec)
spec.loader.exec_module(golden)


@pytest.mark.parametrize("entry", golden.entries(), ids=lambda e: golden.file_name(*e)[:-4])
def test_playthrough_matches_its_recording(entry):
    path = golden.FOLDER / golden.file_name(*entry)
    assert path.exists(), f"no recording: run python scripts/golden.py ({path.name})"
    recorded = path.read_text().splitlines()
    replayed = golden.playthrough(*entry).splitlines()
    for number, (old, new) in enumerate(zip(recorded, replayed), start=1):
        assert old == new, f"{path.name}:{number}: recorded {old!r}, now {new!r}"
    assert len(recorded) == len(replayed)
