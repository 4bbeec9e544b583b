"""Every example runs: each examples/*.rules loads and plays to the end, each examples/*.py exits 0.

The architecture asks that "a new trick-taking or placement game is a new rule file and
nothing else"; these tests hold the examples to it. Rule files are loaded by path, so an
`extend` of a file next to them resolves inside examples/.
"""
from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import rulekit

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
RULE_FILES = sorted(EXAMPLES.glob("*.rules")) + sorted(EXAMPLES.glob("games/*.rules"))
#: Scripts tested elsewhere (by the engineer who owns them).
TESTED_ELSEWHERE = {"property_test_my_variant.py"}
SCRIPTS = sorted(p for p in EXAMPLES.glob("*.py") if p.name not in TESTED_ELSEWHERE)
#: A hang guard for the scripts, far above what any of them needs; not a speed test.
HANG_GUARD_SECONDS = 300


def player_counts(players: range) -> list[int]:
    """At most three counts: the fewest, one in the middle and the most."""
    counts = [players[0], players[len(players) // 2], players[-1]]
    return sorted(set(counts))


def play_random(state, seed: int):
    rng = random.Random(seed)
    while not state.is_terminal:
        moves = state.legal_moves()
        assert moves, f"no legal move for seat {state.current_player} in a game not over"
        state.apply(rng.choice(moves))
    return state


def test_the_examples_folder_has_rule_files_and_scripts():
    names = {p.name for p in RULE_FILES} | {p.name for p in SCRIPTS}
    assert {"embed_basic.py", "search_agent.py", "house_variant.rules", "plain-whist.rules"} <= names


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.name)
def test_rule_file_loads_and_plays_to_the_end(path):
    game = rulekit.load(path)
    assert len(game.players) >= 1
    for players in player_counts(game.players):
        state = play_random(game.new_game(players=players, seed=players), seed=players)
        assert state.current_player is None
        assert state.winners and set(state.winners) <= set(range(players))
        assert len(state.scores) == players


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.name)
def test_every_variant_of_a_rule_file_plays(path):
    game = rulekit.load(path)
    players = game.players[0]
    for name in game.variants:
        state = play_random(rulekit.load(path, variant=name).new_game(players=players, seed=5), seed=5)
        assert state.is_terminal and state.winners


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.name)
def test_rule_file_games_are_reproducible_from_the_seed(path):
    """Architecture: "the same rule file, seed and moves give the same game"."""
    game = rulekit.load(path)
    players = game.players[-1]
    first = play_random(game.new_game(players=players, seed=11), seed=3)
    again = play_random(game.new_game(players=players, seed=11), seed=3)
    assert first.history == again.history
    assert first.scores == again.scores


def test_house_variant_changes_only_what_it_writes():
    """The house variant extends Instinct: its own end and bonus, the base game's dealer rule."""
    house = rulekit.load(EXAMPLES / "house_variant.rules")
    base = rulekit.load("instinct")
    assert house.title == "Instinct, house rules"
    assert set(house.variants) == set(base.variants) | {"quick"}
    state = house.new_game(players=4, seed=2)
    assert state.view()["hand_sizes"] == [10] * 4
    assert state.current_player == state.view()["dealer"]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_script_runs_and_exits_zero(script):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, str(script)], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=HANG_GUARD_SECONDS)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip(), "an example prints what it did"
