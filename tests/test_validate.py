"""rulekit.testing as a product (issue 12): shrinking with Hypothesis, assert_sound, custom
invariants, budgets, balance figures, readable reprs, machine_for options, strategies that
note their seed, and random play without Hypothesis installed.
"""
import math
import os
import subprocess
import sys
import textwrap
import unittest
from pathlib import Path

import pytest
from hypothesis import Phase, given, settings

import rulekit
from rulekit import testing as rt
from rulekit.testing import InvariantError, assert_sound, check_rules, invariant, wilson
from rulekit.testing.machine import default_steps, round_length

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "testing_fixtures"

#: Issue 12: "The shrinker left a failure that one designer invariant found (scores falling
#: below −200 in a house variant) at all 480 moves." A house variant whose missed bids cost
#: ten points a trick, and the designer's invariant.
HOUSE = """
extend "instinct"
game "Instinct, missed bids cost ten a trick"
score {
  made   -> 10 + bonus[bid]
  missed -> -10 * abs(tricks - bid)
}
end when max(score) >= 100 or round >= 30
"""


@invariant
def no_deep_negative(state):
    assert min(state.scores) >= -200, f"a score fell to {min(state.scores)}"


@pytest.fixture(scope="module")
def house():
    return rulekit.loads(HOUSE, name="house")


# ---- shrinking -----------------------------------------------------------------------------

def test_the_house_variant_failure_shrinks_to_a_few_dozen_moves(house):
    report = check_rules(house, games=1, players=2, seed=1, invariants=[no_deep_negative])
    [failure] = report.failures
    assert failure.invariant == "no_deep_negative" and failure.kind == "invariant"
    assert failure.found_moves >= 144, "random play breaks it late: six rounds of 24 decisions or more"
    # Two seats, 11 cards: a round is 2 bids and 22 cards. Missing by 11 costs 110, so two
    # rounds are the least that can break it; random play found it after six rounds or more.
    assert len(failure.moves) <= 72, failure.short()
    state = house.new_game(players=2, seed=failure.seed)
    for move in failure.moves:
        state.apply(move)
    assert min(state.scores) < -200
    assert f"(shrunk from {failure.found_moves})" in failure.short()


def test_hypothesis_searches_choices_from_both_ends_of_the_legal_list(house):
    from rulekit.testing import shrinking
    from rulekit.testing.runner import _Checks
    checks = _Checks(house, None, False, [no_deep_negative])
    report = check_rules(house, games=1, players=2, seed=0, invariants=[no_deep_negative], shrink=False)
    [failure] = report.failures
    found = shrinking.shrink_with_hypothesis(house, 2, 0, failure.moves, "no_deep_negative", checks)
    assert found is not None and len(found[0]) < len(failure.moves)
    assert found[1].invariant == "no_deep_negative"


def test_without_hypothesis_the_runner_still_shrinks(house, monkeypatch):
    from rulekit.testing import shrinking
    monkeypatch.setattr(shrinking, "available", lambda: False)

    def nobody_bids_three(state, before):
        assert "bid 3" not in state.history, "someone bid 3"
    report = check_rules(rulekit.load("instinct"), games=1, players=2, invariants=[nobody_bids_three])
    assert report.failures[0].moves == ["bid 3"]


def test_a_game_the_engine_stops_at_its_round_cap_never_ends(monkeypatch):
    from rulekit.compile import game as compiled
    monkeypatch.setattr(compiled, "MAX_ROUNDS", 6)          # the engine's cap, made small
    game = rulekit.load(FIXTURES / "never-ends.rules")
    report = check_rules(game, games=1, players=2, max_rounds=50)
    [failure] = report.failures
    assert failure.kind == "never ends" and failure.invariant == "ends_within_bound"
    assert failure.message.startswith("the game never ends: the engine stopped it at its cap of 6 rounds")
    assert len(failure.moves) == 6 * 4
    assert failure.short().startswith("never ends: never-ends with 2 players, seed 0, after 24 moves")


# ---- assert_sound, reprs -------------------------------------------------------------------

def test_assert_sound_returns_the_report_when_sound():
    report = assert_sound("insidious-sevens", games=1, players=2)
    assert report.ok and report.games == 1 and report.invariants_checked > 0


def test_assert_sound_raises_with_the_readable_report(house):
    with pytest.raises(AssertionError) as caught:
        assert_sound(house, games=1, players=2, invariants=[no_deep_negative])
    message = str(caught.value)
    assert "no_deep_negative fails: house with 2 players, seed 0" in message
    assert "a score fell to" in message and "moves: bid " in message
    assert "state = game.new_game(players=2, seed=0)" in message


def test_assert_sound_of_a_path_prints_how_to_load_it():
    path = str(FIXTURES / "never-ends.rules")
    with pytest.raises(AssertionError) as caught:
        assert_sound(path, games=1, players=2, max_rounds=3)
    assert f"game = rulekit.load({path!r})" in str(caught.value)
    assert "never ends: never-ends with 2 players" in str(caught.value)


def test_a_reports_repr_is_the_readable_report(house):
    report = check_rules(house, games=1, players=2, invariants=[no_deep_negative])
    assert repr(report) == str(report)
    assert repr(report.failures[0]) == str(report.failures[0])
    with pytest.raises(AssertionError) as caught:
        assert report.ok, report                     # the documented idiom
    assert "no_deep_negative fails" in str(caught.value)


def test_a_states_repr_shows_players_seed_and_the_last_moves():
    state = rulekit.load("instinct").new_game(players=3, seed=42)
    assert repr(state) == "<State Instinct round 1, seat 0 to move; players=3 seed=42, 0 moves>" or \
        "players=3 seed=42, 0 moves>" in repr(state)
    for move in ("bid 1", "bid 2", "bid 3", "bid 4")[:3]:
        state.apply(move)
    assert repr(state).endswith("players=3 seed=42, 3 moves, last: bid 1, bid 2, bid 3>")


# ---- custom invariants, budgets ------------------------------------------------------------

def test_custom_invariants_take_the_state_or_the_state_and_the_one_before():
    seen = []

    @invariant
    def one_argument(state):
        seen.append("one")

    @invariant(name="moves_grow_by_one")
    def two_arguments(state, before):
        seen.append("two")
        if before is not None:
            assert len(state.history) == len(before.history) + 1

    report = check_rules(rulekit.load("instinct", variant="short"), games=1, players=2,
                         invariants=[one_argument, two_arguments])
    assert report.ok, report
    assert seen.count("one") == seen.count("two") > report.decisions


def test_a_custom_invariant_that_fails_is_named_and_its_replay_reproduces_it(tmp_path, house):
    report = check_rules(house, games=1, players=2, invariants=[no_deep_negative])
    [failure] = report.failures
    failure.write(tmp_path / "f.json", source="house.rules")
    (tmp_path / "house.rules").write_text(HOUSE)
    os.chdir(tmp_path)
    with pytest.raises(InvariantError, match="no_deep_negative: a score fell to"):
        rt.replay(tmp_path / "f.json", invariants=[no_deep_negative])
    assert rt.replay(tmp_path / "f.json").scores == check_state(house, failure).scores


def check_state(game, failure):
    state = game.new_game(players=failure.players, seed=failure.seed)
    for move in failure.moves:
        state.apply(move)
    return state


def test_a_time_budget_plays_each_count_once_at_least_then_stops():
    game = rulekit.load("instinct", variant="short")
    report = check_rules(game, games=None, budget=0.01)
    assert report.games >= len(game.players)
    assert sorted(report.stats.counts) == list(game.players)


def test_a_decision_budget_stops_near_its_figure():
    report = check_rules(rulekit.load("insidious-sevens"), games=None, decisions=2000, players=3)
    assert 2000 <= report.decisions < 2000 + 400
    with pytest.raises(ValueError, match="give a number of games"):
        check_rules(rulekit.load("instinct"), games=None)


# ---- balance figures -----------------------------------------------------------------------

def test_wilson_interval():
    low, high = wilson(50, 100)
    assert math.isclose(low, 0.4038, abs_tol=1e-3) and math.isclose(high, 0.5962, abs_tol=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 10)[0] == 0.0 and math.isclose(wilson(10, 10)[1], 1.0)


def test_stats_count_lengths_wins_bids_and_lead_changes():
    game = rulekit.load("instinct", variant="short")
    report = check_rules(game, games=6, players=3)
    [figures] = report.stats.summary()
    assert figures["players"] == 3 and figures["games"] == 6
    assert figures["length"]["min"] == report.shortest and figures["length"]["max"] == report.longest
    assert sum(share for share in figures["win_share"]) >= 1.0 - 1e-9, "every game has a winner"
    for (low, high), share in zip(figures["win_interval"], figures["win_share"]):
        assert low <= share <= high
    assert 0 < figures["bid_success"] < 1
    assert figures["lead_changes"] >= 0
    assert any("bids made exactly" in line for line in report.stats.lines())


# ---- machine_for, strategies ---------------------------------------------------------------

def test_machine_for_runs_long_enough_to_finish_a_round_and_uses_custom_invariants():
    game = rulekit.load("instinct", variant="short")
    rounds = []

    @invariant
    def record_round(state):
        rounds.append(state.round)

    case = rt.machine_for(game, players=2, invariants=[record_round], max_examples=12)
    assert case.settings.stateful_step_count == default_steps(game, 2) >= round_length(game, 2) // 2
    result = unittest.TextTestRunner(stream=open(os.devnull, "w")).run(
        unittest.defaultTestLoader.loadTestsFromTestCase(case))
    assert result.wasSuccessful(), result.failures + result.errors
    assert max(rounds) >= 2, "a round ended, so round-end scoring was checked"


def test_machine_for_reports_a_broken_custom_invariant():
    game = rulekit.load("instinct", variant="short")

    @invariant
    def nobody_bids(state):                      # broken by the first move of any game
        assert not any(text.startswith("bid ") for text in state.history), "someone bid"

    case = rt.machine_for(game, players=2, invariants=[nobody_bids], max_steps=10,
                          settings=settings(max_examples=30, deadline=None, database=None,
                                            derandomize=True, phases=[Phase.generate]))
    result = unittest.TextTestRunner(stream=open(os.devnull, "w")).run(
        unittest.defaultTestLoader.loadTestsFromTestCase(case))
    assert not result.wasSuccessful()
    assert "nobody_bids: someone bid" in (result.failures + result.errors)[0][1]


def test_states_notes_the_seed_and_the_moves(capsys):
    game = rulekit.load("instinct")

    @settings(max_examples=5, deadline=None, database=None)
    @given(rt.states(game, players=2, min_moves=3, max_moves=5))
    def broken(state):
        raise AssertionError("always")

    with pytest.raises(AssertionError) as caught:
        broken()
    shown = str(caught.value) + "".join(getattr(caught.value, "__notes__", []))
    assert "state = game.new_game(players=2, seed=" in shown and "state.apply(move)" in shown


# ---- no Hypothesis -------------------------------------------------------------------------

NO_HYPOTHESIS = textwrap.dedent('''
    import sys
    sys.modules["hypothesis"] = None                 # as if it were not installed
    import rulekit
    from rulekit.testing import assert_sound, check_rules, invariant, replay
    report = check_rules(rulekit.load("instinct", variant="short"), games=1, players=2)
    assert report.ok and report.games == 1 and report.invariants_checked > 0, report
    try:
        from rulekit.testing import states
    except ImportError as error:
        assert "needs Hypothesis" in str(error), error
    else:
        raise SystemExit("states imported without hypothesis")
    from click.testing import CliRunner
    from rulekit import cli
    result = CliRunner().invoke(cli.main, ["check", sys.argv[1], "--games", "1", "--players", "2"])
    assert result.exit_code == 0, result.output
    assert "unavailable" not in result.output and "random play" in result.output, result.output
    result = CliRunner().invoke(cli.main, ["check", sys.argv[2], "--games", "1", "--players", "2"])
    assert result.exit_code == 1 and "never ends" in result.output, result.output
    print("random play without hypothesis: ok")
''')


def test_random_play_checks_work_without_hypothesis():
    rules = ROOT / "rules" / "instinct.rules"
    result = subprocess.run([sys.executable, "-c", NO_HYPOTHESIS, str(rules), str(FIXTURES / "never-ends.rules")],
                            capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "random play without hypothesis: ok" in result.stdout
