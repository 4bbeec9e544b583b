"""`rulekit simulate` with agents (issue #13) and its hostile cases (issue #11): the same
records for any --jobs, one JSON line per game, a summary per seat and per agent, a stuck
game that ends the game instead of crashing, a huge --games that announces its time, and
Ctrl-C that stops with the summary so far and no traceback."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

import rulekit
from rulekit import cli, cli_simulate, simulate as sim


def run(*args):
    return CliRunner().invoke(cli.main, [str(a) for a in args])


def test_records_are_the_same_for_any_number_of_jobs(tmp_path):
    outs = []
    for jobs in (1, 2, 3):
        out = tmp_path / f"r{jobs}.jsonl"
        result = run("simulate", "duell-der-tiere", "--agents", "ismcts:8,random", "--games", 7, "--seed", 3,
                     "--jobs", jobs, "--out", out)
        assert result.exit_code == 0, result.output
        outs.append(out.read_text())
    assert outs[0] == outs[1] == outs[2]
    records = [json.loads(line) for line in outs[0].splitlines()]
    assert [r["seed"] for r in records] == list(range(3, 10))
    for record in records:
        assert record["agents"] == ["ismcts:8", "random"]
        assert set(record) >= {"seed", "agents", "scores", "winners", "decisions"}
        assert record["decisions"] > 0 and record["winners"] and not record["stuck"]


def test_run_games_is_a_plain_function_of_the_seeds():
    game = rulekit.load("insidious-sevens")
    whole = sim.run_games(game, range(5), ["flatmc:2", "random", "ismcts:5"], players=3)
    parts = sim.run_games(game, [0, 1], ["flatmc:2", "random", "ismcts:5"], 3) + \
        sim.run_games(("insidious-sevens", ()), [2, 3, 4], ["flatmc:2", "random", "ismcts:5"], 3)
    assert whole == parts
    assert [r["agents"] for r in whole] == [["flatmc:2", "random", "ismcts:5"]] * 5
    assert all(sum(r["bids"]) == 3 * 7 for r in whole)       # 7 rounds, every seat bids


def test_the_summary_has_seats_agents_intervals_and_bids():
    result = run("simulate", "insidious-sevens", "-p", 3, "-n", 4, "--agents", "ismcts:4,random", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["agents_per_seat"] == ["ismcts:4", "random", "ismcts:4"]
    assert set(report["agents"]) == {"ismcts:4", "random"}
    assert report["agents"]["ismcts:4"]["games"] == 8 and report["agents"]["random"]["games"] == 4
    for group in report["seats"] + list(report["agents"].values()):
        low, high = group["win_share_95"]
        assert 0 <= low <= group["win_share"] <= high <= 1
        assert group["score_spread"] >= 0 and 0 <= group["bid_success"] <= 1
    assert sum(report["win_share"]) == pytest.approx(1)
    table = run("simulate", "insidious-sevens", "-p", 3, "-n", 2, "--agents", "random,flatmc:1")
    for label in ("agent", "spread", "95% interval", "bid success", "games/s", "flatmc:1"):
        assert label in table.output


def test_the_readme_command_still_works_and_stays_random():
    result = run("simulate", "instinct", "--players", 4, "--games", 30, "--seed", 1, "--json")
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["agents_per_seat"] == ["random"] * 4 and report["games"] == 30


@pytest.mark.parametrize("bad", ["nobody", "ismcts:x", "ismcts:0", "random:3", ","])
def test_bad_agents_are_a_usage_error(bad):
    result = run("simulate", "instinct", "--agents", bad, "-n", 1)
    assert result.exit_code == 2 and "Traceback" not in result.output


@pytest.mark.parametrize("text,number", [("1000", 1000), ("1e6", 10**6), ("10**12", 10**12), ("2^10", 1024)])
def test_game_counts_may_be_written_as_powers(text, number):
    assert cli_simulate.GameCount().convert(text, None, None) == number


@pytest.mark.parametrize("bad", ["0", "-5", "10**100", "ten", "1e" + "9" * 5, "²"])
def test_bad_game_counts_are_refused(bad):
    result = run("simulate", "instinct", "--games", bad)
    assert result.exit_code == 2 and "Traceback" not in result.output


class _Stuck:
    """A state whose rules cannot go on: not over, and no legal move."""
    n, is_terminal, scores, winners, round, last_round, current_player = 2, False, [0, 0], [], 1, None, 0

    def legal_moves(self):
        return []


class _StuckGame:
    players = range(2, 3)

    def new_game(self, players, seed):
        return _Stuck()


def test_a_stuck_game_ends_there_and_is_marked(monkeypatch):
    records = sim.run_games(_StuckGame(), [1, 2], ["random"], players=2)
    assert [r["stuck"] for r in records] == [True, True]
    summary = sim.Summary(2)
    for record in records:
        summary.add(record)
    assert summary.report()["stuck_games"] == 2


def test_a_huge_run_announces_its_time_and_ctrl_c_prints_the_summary(monkeypatch):
    real = sim.run_parallel

    def fake_parallel(game, seeds, agents, players, jobs, chunk=1):
        for index, record in enumerate(real(game, seeds, agents, players, 1)):
            if index == 4:
                time.sleep(0.01)
                raise KeyboardInterrupt
            yield record
    monkeypatch.setattr(sim, "run_parallel", fake_parallel)
    result = run("simulate", "instinct", "-p", 3, "--games", "10**12")
    assert result.exit_code == cli_simulate.EXIT_INTERRUPTED
    assert "to go" in result.output and "years" in result.output
    assert "Interrupted" in result.output and "4 (seeds 0..3)" in result.output
    assert "Traceback" not in result.output


def _ctrl_c_as_at_a_terminal() -> None:
    """The child hears Ctrl-C as a command typed at a terminal does. A test run started in
    the background by a shell without job control (`pytest &` in a script) ignores SIGINT,
    and its children inherit that: Python then installs no handler, the run never stops, and
    this test used to fail after its two-minute timeout whenever pytest ran that way."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(os.name != "posix", reason="signals")
def test_ctrl_c_in_a_real_run_with_jobs_leaves_no_traceback(tmp_path):
    out = tmp_path / "r.jsonl"
    proc = subprocess.Popen([sys.executable, "-c", "from rulekit.cli import main; main()", "simulate", "instinct", "--games", "10**12",
                             "--jobs", "2", "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True, preexec_fn=_ctrl_c_as_at_a_terminal)
    try:
        line = proc.stdout.readline()
        assert "to go" in line, line
        waited = time.monotonic() + 120                # a loaded machine starts the workers slowly:
        while time.monotonic() < waited and proc.poll() is None and (  # interrupt once a game is written
                not out.exists() or "\n" not in out.read_text()):
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)            # Ctrl-C reaches the whole process group
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == cli_simulate.EXIT_INTERRUPTED, stderr
    # a failure says what the run printed (it failed once on a machine running three test
    # suites on two cores, without saying which part)
    assert "Traceback" not in stderr and "Interrupted" in stdout, (stdout, stderr)
    assert out.read_text().count("\n") >= 1, (stdout, stderr)


def test_plot_draws_an_image(tmp_path):
    pytest.importorskip("matplotlib")
    image = tmp_path / "p.png"
    result = run("simulate", "duell-der-tiere", "-n", 4, "--agents", "random,flatmc:1", "--plot", image)
    assert result.exit_code == 0, result.output
    assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
