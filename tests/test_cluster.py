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
