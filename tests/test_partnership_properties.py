"""The partnership games of examples/games/ keep every invariant of rulekit.testing, like
the bundled games in test_properties.py: Hypothesis states (cards conserved, one seat to
move, views hide what is hidden, restore round trips, illegal moves change nothing) and
whole games that end and replay. Beside them, what partnerships add: partners always show
one score, and they win (or share a tie) together."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulekit
from rulekit import testing as rt

GAMES = sorted((Path(__file__).resolve().parent.parent / "examples" / "games").glob("*.rules"))
PARTNERSHIPS = [path for path in GAMES if rulekit.load(path).ruleset(4).team_plan is not None]
QUICK = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("path", PARTNERSHIPS, ids=lambda p: p.stem)
def test_states_keep_every_invariant(path):
    game = rulekit.load(path)

    @QUICK
    @given(rt.states(game, max_moves=80), st.data())
    def check(state, data):
        rt.check_move(state, lambda s: data.draw(rt.moves(s)), game=game)
    check()


@pytest.mark.parametrize("path", PARTNERSHIPS, ids=lambda p: p.stem)
def test_partners_share_their_score_and_their_win(path):
    game = rulekit.load(path)

    @settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(rt.playouts(game))
    def check(playout):
        for _, _, after in playout.steps():
            teams = after.rules.teams(after.n)
            for team in teams:
                assert len({after.scores[seat] for seat in team}) == 1
        assert after.is_terminal
        winners = set(after.winners)
        assert winners and all(set(team) <= winners or not set(team) & winners for team in teams)
        rt.replay_is_identical(after, game=game)
    check()


def test_rulekit_check_passes_the_example_games():
    """`rulekit check examples/games/*.rules`: every file loads, every variant plays clean."""
    from click.testing import CliRunner

    from rulekit.cli import main

    result = CliRunner().invoke(main, ["check", *map(str, GAMES), "--games", "2"])
    assert result.exit_code == 0, result.output
    assert f"{len(GAMES)} file(s) clean" in result.output
