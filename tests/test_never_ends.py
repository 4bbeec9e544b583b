"""Ends that never come (issue #10): refused when the rules decide it, otherwise visible in
the view (`capped`) and a failure of `rulekit check` reported in a few lines."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulekit
from rulekit.api import _bundled_dir
from rulekit.cli import main
from rulekit.compile.game import MAX_ROUNDS
from rulekit.testing import check_rules

INSTINCT = (_bundled_dir() / "instinct.rules").read_text()
NEVER_ENDS = Path(__file__).resolve().parent / "testing_fixtures" / "never-ends.rules"


def messages(text):
    with pytest.raises(rulekit.RuleError) as caught:
        rulekit.loads(text)
    return [d.message for d in caught.value.diagnostics]


# ---- decided from the rules: refused ----------------------------------------------------------

def test_a_display_the_decks_cannot_fill_is_refused():
    """`extend "duell-der-tiere"` on a 5x5 board, ending at 25 cards: the two decks hold 24."""
    text = 'extend "duell-der-tiere"\nboard 5x5, floating, place adjacent8\nend when count(display) = 25\n'
    assert messages(text) == ["this end can never come: the display can never hold that many cards, "
                              "only 24 (the decks hold 24 cards)"]


def test_a_display_larger_than_the_board_is_refused():
    text = 'extend "duell-der-tiere"\nboard 3x3, floating, place adjacent8\nend when count(display) >= 10\n'
    assert messages(text) == ["this end can never come: the display can never hold that many cards, "
                              "only 9 (the board has 3×3 cells)"]


def test_a_display_the_decks_can_fill_loads():
    text = 'extend "duell-der-tiere"\nboard 5x5, floating, place adjacent8\nend when count(display) = 24\n'
    assert rulekit.loads(text).players == range(2, 3)


@pytest.mark.parametrize("end", ["end when players > 6", "end when round < 0 and max(score) > 3",
                                 "end when round = 0 or players = 9"])
def test_an_end_on_values_that_never_get_there_is_refused(end):
    text = INSTINCT.replace("end when max(score) >= 100", end)
    assert messages(text) == ["the game never ends: this condition depends only on the round, the player "
                              "count and scores no rule changes, and with 2 players it holds in no round "
                              f"up to the engine's cap of {MAX_ROUNDS} rounds"]


def test_a_target_score_that_no_rule_can_change_is_refused():
    text = INSTINCT.replace("made   -> 10 + bonus[bid]", "made   -> 0")
    assert len(messages(text)) == 1 and messages(text)[0].startswith("the game never ends")


@pytest.mark.parametrize("end", ["end when round = 20", "end when round >= players * 3",
                                 "end when max(score) >= 100 or round > 50"])
def test_ends_the_round_or_scores_reach_load(end):
    assert rulekit.loads(INSTINCT.replace("end when max(score) >= 100", end)).title == "Instinct"


# ---- undecided: the engine's cap, visible in the view -----------------------------------------

def _play_to_the_end(state, seed=0):
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_moves()))
    return state


def test_a_game_stopped_by_the_cap_says_so_and_has_no_winner():
    game = rulekit.load(NEVER_ENDS)
    game.ruleset(2).max_rounds = 5          # the engine's cap, made small for the test
    state = _play_to_the_end(game.new_game(players=2, seed=3))
    view = state.view()
    assert (view["round"], view["is_terminal"], view["capped"], view["winners"]) == (5, True, True, [])
    assert state.view(0)["capped"] is True
    assert game.restore(view).view() == view


def test_a_game_its_rules_end_is_not_capped():
    state = _play_to_the_end(rulekit.load("instinct", variant="short").new_game(players=3, seed=1))
    assert state.view()["capped"] is False and state.winners
    assert rulekit.load("instinct").new_game(players=3, seed=1).view()["capped"] is False


def test_check_rules_fails_a_capped_game_as_never_ending():
    game = rulekit.load(NEVER_ENDS)
    game.ruleset(2).max_rounds = 4
    report = check_rules(game, games=1, players=2, max_rounds=50)
    [failure] = report.failures
    assert failure.invariant == "ends_within_bound"
    assert failure.message.startswith("the game never ends: the engine stopped it at its cap of 4 rounds")


def test_rulekit_check_reports_a_never_ending_game_in_a_few_lines():
    result = CliRunner().invoke(main, ["check", str(NEVER_ENDS), "-n", "1", "-p", "2"])
    assert result.exit_code != 0
    lines = result.output.splitlines()
    start = next(i for i, line in enumerate(lines) if "FAILED" in line)
    assert lines[start].lstrip().startswith("FAILED never ends")
    block = [line for line in lines[start:] if line.startswith("  ")]
    assert len(block) <= 6 and sum(len(line) for line in block) < 2000     # 4000 moves, not listed
