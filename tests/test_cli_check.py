"""`rulekit check` (rulekit/cli_check.py): loading, random play within a budget, the summary
table, failures in a few lines that replay, `--replay-out`, `--invariants`, `--stats`, folders.

Issue 12: "`rulekit check` fast by default ... a summary table per file: games, decisions,
invariants checked, failures"; "A game that hits the engine's round cap is a failure of its
own kind ("never ends"), reported in a few lines"; issue 11: "`rulekit check DIR` should check
the rule files in a folder".
"""
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import rulekit
from rulekit import cli, cli_check
from rulekit.replay import read

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules"
RULE_FILES = sorted(str(p) for p in RULES.glob("*.rules"))
NEVER_ENDS = str(Path(__file__).resolve().parent / "testing_fixtures" / "never-ends.rules")
INSTINCT = str(RULES / "instinct.rules")

BIDS_NO_THREE = '''
from rulekit.testing import invariant

@invariant
def nobody_bids_three(state):
    assert "bid 3" not in state.history, "someone bid 3"
'''


def run(*args, input=None):
    return CliRunner().invoke(cli.main, [str(a) for a in args], input=input)


def test_budget_parses_seconds_minutes_and_decisions():
    assert cli_check.parse_budget("20s") == (20.0, None)
    assert cli_check.parse_budget("1.5m") == (90.0, None)
    assert cli_check.parse_budget("50000") == (None, 50000)
    assert cli_check.parse_budget("800 decisions") == (None, 800)
    for bad in ("", "fast", "-3s", "0"):
        with pytest.raises(click.BadParameter):
            cli_check.parse_budget(bad)


def test_only_loading_with_no_games():
    result = run("check", *RULE_FILES, "--games", 0)
    assert result.exit_code == 0, result.output
    for path in RULE_FILES:
        assert f"{path}: " in result.output and " loads (" in result.output
    assert "file(s) clean" in result.output


def test_a_decision_budget_plays_every_variant_and_count_and_prints_a_table():
    result = run("check", INSTINCT, "--budget", "300")
    assert result.exit_code == 0, result.output
    assert "random-play checks are unavailable" not in result.output
    table = result.output[result.output.index("random play"):]
    for header in ("variant", "players", "games", "decisions", "checks", "failures"):
        assert header in table
    names = ["(base)", *rulekit.load(INSTINCT).variants]
    rows = {line.split()[0]: line.split() for line in table.splitlines() if line.strip().startswith(tuple(names))}
    assert set(rows) == set(names)
    for row in rows.values():
        assert row[1] == "2–6" and int(row[2]) >= 5, "one game at least for each player count"
    assert re.search(r"total\s+\d+\s+[\d,]+\s+[\d,]+\s+0", table)


def test_games_n_plays_exactly_n_per_variant_and_count():
    result = run("check", RULES / "insidious-sevens.rules", "--games", 1, "--players", 3, "--variant", "pico")
    assert result.exit_code == 0, result.output
    assert re.search(r"pico\s+3\s+1\s", result.output)
    assert "(base)" not in result.output


def test_an_unknown_variant_is_a_problem():
    result = run("check", INSTINCT, "--variant", "long", "--games", 1)
    assert result.exit_code == 1
    known = ", ".join(rulekit.load(INSTINCT).variants)
    assert f"has no variant 'long' (variants: {known})" in result.output


def test_a_game_that_never_ends_fails_in_a_few_lines():
    result = run("check", NEVER_ENDS, "--games", 1)
    assert result.exit_code == 1, result.output
    failed = result.output[result.output.index("FAILED"):]
    assert failed.startswith("FAILED never ends: never-ends with 2 players, seed 0, after 4000 moves")
    assert "nothing has ended it" in failed
    assert "... 3984 more ..." in failed
    assert "--replay-out failure.json" in failed
    assert "the same failure also with: 3 players, seed 0, 6000 moves" in failed
    assert len(failed.splitlines()) <= 8
    assert max(len(line) for line in failed.splitlines()) < 400, "no replay of thousands of moves on a line"


def test_max_rounds_raises_the_cap(tmp_path):
    result = run("check", NEVER_ENDS, "--games", 1, "--players", 2, "--max-rounds", 5)
    assert result.exit_code == 1
    assert "after 20 moves" in result.output and "--max-rounds 5" in result.output


def test_replay_out_writes_a_file_that_rulekit_replay_steps_through(tmp_path):
    out = tmp_path / "never.json"
    result = run("check", NEVER_ENDS, "--games", 1, "--players", 2, "--max-rounds", 3, "--replay-out", out)
    assert result.exit_code == 1
    assert f"replay written to {out}: rulekit replay {out}" in result.output
    saved = read(out)
    assert (saved.game, saved.players, saved.seed, len(saved.moves)) == (NEVER_ENDS, 2, 0, 12)
    assert saved.failure.kind == "never ends" and saved.failure.invariant == "ends_within_bound"
    shown = run("replay", out, "--moves-only")
    assert "move 12/12" in shown.output and "recorded failure (never ends)" in shown.output


def test_own_invariants_from_a_file_and_the_rerun_command(tmp_path):
    mine = tmp_path / "mine.py"
    mine.write_text(BIDS_NO_THREE)
    result = run("check", INSTINCT, "--games", 1, "--players", 2, "--invariants", mine)
    assert result.exit_code == 1, result.output
    assert "FAILED nobody_bids_three fails: instinct with 2 players, seed 0, after 1 move" in result.output
    assert "someone bid 3" in result.output and "moves: bid 3" in result.output
    rerun = re.search(r"to replay it: (rulekit check .*)", result.output)[1]
    assert f"--invariants {mine}" in rerun and "--players 2 --seed 0 --games 1" in rerun
    out = tmp_path / "f.json"
    again = run(*rerun.split()[1:-1], out)
    assert again.exit_code == 1 and read(out).moves == ("bid 3",)


def test_an_invariants_file_without_invariants_or_that_raises_exits_2(tmp_path):
    empty = tmp_path / "empty.py"
    empty.write_text("x = 1\n")
    assert "no function marked @invariant" in run("check", INSTINCT, "--invariants", empty).output
    broken = tmp_path / "broken.py"
    broken.write_text("raise ValueError('nope')\n")
    result = run("check", INSTINCT, "--invariants", broken)
    assert result.exit_code == 2 and "importing it raises ValueError: nope" in result.output


def test_stats_give_lengths_wins_with_intervals_bids_and_lead_changes():
    result = run("check", INSTINCT, "--games", 4, "--players", 3, "--variant", "short", "--stats")
    assert result.exit_code == 0, result.output
    assert "balance figures, instinct (short) (random players):" in result.output
    assert "3 players, 4 games:" in result.output
    assert re.search(r"length: \d+\.\.\d+ decisions \(median", result.output)
    assert re.search(r"wins \(95% interval\): seat 0 \d+% \(\d+%–\d+%\)", result.output)
    assert "bids made exactly: " in result.output and "lead changes per game: " in result.output


def test_a_folder_checks_its_rule_files(tmp_path):
    result = run("check", RULES, "--games", 0)
    assert result.exit_code == 0, result.output
    for path in RULE_FILES:
        assert f"{path}: " in result.output
    assert f"{len(RULE_FILES)} file(s) clean" in result.output
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run("check", empty)
    assert result.exit_code == 1 and "no .rules files in this folder" in result.output


def test_a_bundled_name_is_checked_too():
    result = run("check", "instinct", "--games", 0)
    assert result.exit_code == 0 and "instinct: Instinct loads" in result.output


def test_a_crash_while_loading_is_reported_against_the_file(monkeypatch):
    def broken_load(name, variant=None):
        raise AttributeError("no such clause")

    monkeypatch.setattr(cli, "load", broken_load)
    result = run("check", RULE_FILES[0], "--games", 0)
    assert result.exit_code == 1, result.output
    assert f"{RULE_FILES[0]}: loading crashed: AttributeError: no such clause" in result.output


def test_a_crash_of_the_checker_is_a_failed_check(monkeypatch):
    from rulekit.testing import runner

    def boom(self, progress=None):
        raise RuntimeError("boom")
    monkeypatch.setattr(runner.Campaign, "run", boom)
    result = run("check", RULE_FILES[0], "--games", 1)
    assert result.exit_code == 1
    assert "random play crashed: RuntimeError: boom" in result.output


def test_a_player_count_the_game_does_not_allow_skips_random_play():
    result = run("check", *RULE_FILES, "--games", 1, "--players", 6)
    assert result.exit_code == 0, result.output
    for path in RULE_FILES:
        game = rulekit.load(path)
        assert (f"{path}: random play skipped" in result.output) == (6 not in game.players)


def test_a_misspelt_name_shows_where_with_a_caret_and_a_suggestion(tmp_path):
    # Contract: "its `str()` shows each with the source line and a caret"; the checker
    # reports unknown names "with did you mean".
    text = (RULES / "instinct.rules").read_text().replace("dealer random", "dealer randon")
    broken = tmp_path / "broken.rules"
    broken.write_text(text)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "dealer randon" in row)
    column = text.splitlines()[line - 1].index("randon") + 1
    result = run("check", broken, *RULE_FILES, "--games", 0)
    assert result.exit_code == 1, result.output
    assert f"broken.rules:{line}:{column}: " in result.output
    assert re.search(r"^\s+dealer randon, then next", result.output, re.M)
    assert "did you mean `random`?" in result.output
    assert f"1 of {1 + len(RULE_FILES)} file(s) have problems" in result.output


def test_an_unknown_file_exits_1():
    result = run("check", "no-such-file.rules", "--games", 0)
    assert result.exit_code == 1
    assert "no rule file 'no-such-file.rules'" in result.output
