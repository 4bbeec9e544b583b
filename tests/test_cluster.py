"""Work on a Dask cluster (issue 14: "batches of seeds go to the workers and results come back
identical to the local run for the same seed ... Test with a `LocalCluster` in CI").

The module's own tests use a LocalCluster of threads (fast to start); the CLI tests start
`local:2` with worker processes, as a user's run does.
"""
from __future__ import annotations

import pytest

from rulekit.cluster import ClusterError, client_for, map_ordered, parse

distributed = pytest.importorskip("distributed")


def test_a_spec_names_a_local_cluster_or_a_scheduler():
    assert parse("local:4") == ("local", 4)
    assert parse(" tcp://10.0.0.5:8786 ") == ("address", "tcp://10.0.0.5:8786")
    for bad in ("local", "local:0", "local:x", "10.0.0.5:8786", "", "http://host:1"):
        with pytest.raises(ClusterError, match="cluster"):
            parse(bad)


def _slow_square(batch, offset):
    import time

    time.sleep(0.05 * (len(batch) % 2))           # odd batches finish later
    return [x * x + offset for x in batch]


def test_results_come_back_in_batch_order():
    batches = [[i, i + 1] if i % 3 else [i] for i in range(12)]
    with client_for("local:2", processes=False) as client:
        results = list(map_ordered(client, _slow_square, batches, 1))
    assert results == [_slow_square(b, 1) for b in batches]


def test_an_unreachable_scheduler_is_our_error():
    with pytest.raises(ClusterError, match="cannot reach"):
        with client_for("tcp://127.0.0.1:9", timeout=2):
            pass


def test_simulate_on_a_local_cluster_writes_the_same_games(tmp_path):
    """Issue 14, done when: "`rulekit simulate instinct --games 40 --seed 1 --out B --cluster
    local:2` writes the same games as the run without `--cluster`"."""
    from click.testing import CliRunner

    from rulekit.cli import main

    here, there = tmp_path / "A.jsonl", tmp_path / "B.jsonl"
    runner = CliRunner()
    alone = runner.invoke(main, ["simulate", "instinct", "--games", "40", "--seed", "1", "--out", str(here)])
    assert alone.exit_code == 0, alone.output
    spread = runner.invoke(main, ["simulate", "instinct", "--games", "40", "--seed", "1", "--out", str(there),
                                  "--cluster", "local:2"])
    assert spread.exit_code == 0, spread.output
    assert there.read_text() == here.read_text() and len(here.read_text().splitlines()) == 40


def test_simulate_with_a_bad_cluster_is_a_usage_error(tmp_path):
    from click.testing import CliRunner

    from rulekit.cli import main

    result = CliRunner().invoke(main, ["simulate", "instinct", "--games", "2", "--cluster", "local:zero"])
    assert result.exit_code == 2 and "not a cluster" in result.output


def test_a_check_campaign_on_a_cluster_reports_what_it_reports_here():
    """Same games, same failures (a broken custom invariant fails at the same seed), same counts.
    (Without shrinking: Hypothesis's shrinking runs a varying number of checks, here as there.)"""
    import rulekit
    from rulekit.cluster import cluster_campaign
    from rulekit.testing.runner import Campaign

    def no_score_above_20(state, before=None):
        assert max(state.scores) <= 20, "a score above 20"

    games = [rulekit.load("instinct", variant="short"), rulekit.load("insidious-sevens")]
    options = dict(games=3, seed=5, invariants=[no_score_above_20], max_rounds=None, shrink=False)
    here = Campaign(games, [2, 3], **options).run()
    with client_for("local:2", processes=False) as client:
        there = cluster_campaign(client, games, [2, 3], **options).run()
    shown = [(r.games, r.decisions, r.invariants_checked, [(f.invariant, f.seed, f.moves) for f in r.failures])
             for r in here]
    assert shown == [(r.games, r.decisions, r.invariants_checked, [(f.invariant, f.seed, f.moves) for f in r.failures])
                     for r in there]
    assert any(r.failures for r in here)


def test_check_on_a_cluster_needs_a_number_of_games_and_prints_the_same_table(tmp_path):
    from click.testing import CliRunner

    from rulekit.cli import main

    runner = CliRunner()
    result = runner.invoke(main, ["check", "instinct", "--cluster", "local:1"])
    assert result.exit_code == 2 and "--games" in result.output
    args = ["check", "instinct", "--variant", "short", "--players", "2", "--games", "3", "--seed", "2"]
    alone = runner.invoke(main, args)
    spread = runner.invoke(main, args + ["--cluster", "local:1"])
    assert alone.exit_code == spread.exit_code == 0, spread.output

    def table(output):
        return [line for line in output.splitlines() if "random play" not in line and " in " not in line]
    assert table(spread.output) == table(alone.output)
