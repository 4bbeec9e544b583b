"""Every bundled game, in each of its variants and at every player count, keeps every
invariant of rulekit.testing: random games under `check_rules`, Hypothesis states and
whole games, and a state machine per game. Contract: shared/design/architecture.md
("Seeds make everything reproducible", "apply of an illegal move ... leaves the state
exactly as it was", "game.restore(state.view())", "what a seat chose stays hidden"), and
each rulebook's end rule ("The first player to score 100 or more points wins the game",
"end after 7 rounds", "The game ends ... once the 4×4 display is full")."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulekit
from rulekit import testing as rt

#: (game name, variant or None) for every bundled game and declared variant.
GAMES = [(name, variant) for name in rulekit.bundled()
         for variant in [None, *rulekit.load(name).variants]]
IDS = [name + (f"-{variant}" if variant else "") for name, variant in GAMES]

#: Random games per player count: a few long ones, more short ones.
GAMES_PER_COUNT = 3
QUICK = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def load(name, variant):
    return rulekit.load(name, variant=variant)


@pytest.mark.parametrize("name, variant", GAMES, ids=IDS)
def test_random_games_keep_every_invariant(name, variant):
    game = load(name, variant)
    report = rt.check_rules(game, games=GAMES_PER_COUNT, seed=100)
    assert report.ok, report
    assert report.games == GAMES_PER_COUNT * len(game.players)
    assert report.shortest >= 1


@pytest.mark.parametrize("name, variant", GAMES, ids=IDS)
def test_states_keep_every_invariant(name, variant):
    game = load(name, variant)

    @QUICK
    @given(rt.states(game, max_moves=120), st.data())
    def check(state, data):
        rt.check_move(state, lambda s: data.draw(rt.moves(s)), game=game)
    check()


@pytest.mark.parametrize("name, variant", GAMES, ids=IDS)
def test_whole_games_end_and_replay(name, variant):
    game = load(name, variant)

    @settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(rt.playouts(game))
    def check(playout):
        final = playout.final
        assert final.is_terminal, "a random game ends"
        rt.one_seat_to_move(final)
        rt.ends_within_bound(final)
        rt.replay_is_identical(final, game=game)
        assert final.history == list(playout.moves)
    check()


@pytest.mark.parametrize("name, variant", GAMES, ids=IDS)
def test_every_step_of_a_game_keeps_the_step_invariants(name, variant):
    game = load(name, variant)

    @settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(rt.playouts(game))
    def check(playout):
        for before, _, after in playout.steps():
            rt.one_trick_winner(after, before)
            rt.scores_change_by_rules(after, before)
            rt.cards_conserved(after)
    check()


def _machine_name(name, variant) -> str:
    words = (name + (f"-{variant}" if variant else "")).replace("-", " ").title().replace(" ", "")
    return f"Test{words}Machine"


#: A state machine per game and variant; pytest collects these TestCase classes.
for _name, _variant in GAMES:
    globals()[_machine_name(_name, _variant)] = rt.machine_for(
        load(_name, _variant),
        settings=settings(max_examples=10, stateful_step_count=30, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow]))
