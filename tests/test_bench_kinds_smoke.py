"""A smoke run of benchmarks/bench_kinds.py (time by kind of decision), so it cannot rot.

docs/performance.md (the twelfth round) reads its shares from it. Tests never assert on
time: only that the run completes, counts every decision under one kind, and prints its table.
"""
from __future__ import annotations

import json

import pytest

from bench_script import ROOT, run_benchmark

WHIST = ROOT / "examples" / "games" / "whist.rules"


def test_the_kinds_benchmark_accounts_for_every_decision(tmp_path):
    raw = tmp_path / "kinds.json"
    run = run_benchmark("bench_kinds.py", "instinct", "duell-der-tiere", str(WHIST), "--games", "2", "--json", str(raw))
    assert run.returncode == 0, run.stderr
    assert "list ns" in run.stdout and "apply ns" in run.stdout and "share" in run.stdout
    rows = {row["game"]: row for row in json.loads(raw.read_text())["rows"]}
    assert set(rows) == {"instinct", "duell-der-tiere", str(WHIST)}
    for row in rows.values():
        kinds = row["kinds"]
        assert sum(kind["per_game"] for kind in kinds) * row["games"] == pytest.approx(row["decisions"])
        assert abs(sum(kind["share"] for kind in kinds) - 1) < 1e-9
        # every game here has rounds: the decision that ends one is told apart
        assert any(kind["kind"].endswith(", ends the round") for kind in kinds)
    assert {kind["kind"] for kind in rows["instinct"]["kinds"]} >= {"bid", "play", "play, ends the round"}
    assert {"choose", "place"} <= {kind["kind"] for kind in rows["duell-der-tiere"]["kinds"]}


def test_the_hand_written_engines_are_timed_by_kind_beside_rulekit_instinct(tmp_path):
    raw = tmp_path / "kinds.json"
    run = run_benchmark("bench_kinds.py", "instinct", "--hand", "--games", "3", "--json", str(raw))
    assert run.returncode == 0, run.stderr
    rows = {row["game"]: row for row in json.loads(raw.read_text())["rows"]}
    assert set(rows) == {"instinct", "hand_instinct.py (hands as lists)", "hand_instinct_masks.py (66-bit hands)"}
    for row in rows.values():
        # the same game, so the same kinds, each round's last card told apart by the dealer moving on
        assert {kind["kind"] for kind in row["kinds"]} == {"bid", "play", "play, ends the round"}
        assert sum(kind["per_game"] for kind in row["kinds"]) * row["games"] == pytest.approx(row["decisions"])
        ends = next(kind for kind in row["kinds"] if kind["kind"] == "play, ends the round")
        bids = next(kind for kind in row["kinds"] if kind["kind"] == "bid")
        assert bids["per_game"] == pytest.approx(4 * ends["per_game"])     # four bids a round
    assert "÷ hand_instinct.py (hands as lists)" in run.stdout
    assert "÷ hand_instinct_masks.py (66-bit hands)" in run.stdout


def test_cards_are_told_apart_by_their_place_in_the_trick(tmp_path):
    raw = tmp_path / "kinds.json"
    run = run_benchmark("bench_kinds.py", "instinct", "--hand", "--by-place", "--games", "3", "--json", str(raw))
    assert run.returncode == 0, run.stderr
    places = [f"play (card {place} of the trick)" for place in (1, 2, 3, 4)]
    for row in json.loads(raw.read_text())["rows"]:
        kinds = {kind["kind"]: kind["per_game"] for kind in row["kinds"]}
        # four players: a round ends on a trick's fourth card, and every trick has one card in each place
        assert set(kinds) == {*places, places[3] + ", ends the round", "bid"}, row["game"]
        for place in places[1:3]:
            assert kinds[place] == pytest.approx(kinds[places[0]])
        assert kinds[places[3]] + kinds[places[3] + ", ends the round"] == pytest.approx(kinds[places[0]])
