"""Replay files (rulekit/replay.py), `rulekit replay FILE` and `rulekit.testing.replay(FILE)`.

Contract (architecture.md): "Seeds make everything reproducible: the same rule file, seed
and moves give the same game." A replay file writes down exactly those three, so reading
one back and playing its moves must give the very state that was saved.
"""
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulekit
from rulekit import cli
from rulekit.replay import KINDS, VERSION, Replay, ReplayError, ReplayFailure, loads, read
from rulekit import testing
from rulekit.testing import InvariantError, invariant

RULES = Path(__file__).resolve().parent.parent / "rules"
NEVER_ENDS = Path(__file__).resolve().parent / "testing_fixtures" / "never-ends.rules"


def played(name="instinct", variant=None, players=3, seed=5, moves=40):
    state = rulekit.load(name, variant=variant).new_game(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_moves()))
    return state


def run(*args, input=None):
    return CliRunner().invoke(cli.main, [str(a) for a in args], input=input)


@pytest.mark.parametrize("name", rulekit.bundled())
def test_a_saved_game_reads_back_and_replays_to_the_same_state(name, tmp_path):
    game = rulekit.load(name)
    variant = next(iter(game.variants), None)
    state = played(name, variant, players=game.players[0], moves=60)
    path = tmp_path / "game.json"
    Replay.of(state, name, note="saved by a test").write(path)
    saved = read(path)
    assert (saved.game, saved.players, saved.seed) == (name, state.n, state.seed)
    assert list(saved.moves) == state.history
    assert saved.variants == tuple(state.rules.variants)
    assert saved.note == "saved by a test"
    assert saved.play().view() == state.view()


def test_the_file_is_versioned_json_one_move_a_line():
    state = played(moves=3)
    text = Replay.of(state, "instinct").dumps()
    data = json.loads(text)
    assert data["format"] == "rulekit-replay" and data["version"] == VERSION
    assert data["moves"] == state.history
    assert all(f'  "{move}"' in text.splitlines() or f'  "{move}",' in text.splitlines() for move in state.history)


def test_a_failure_and_its_kind_round_trip():
    failure = ReplayFailure("never ends", "ends_within_bound", "round 1001 and nothing ended it")
    replay = Replay("instinct", 3, 1, ["bid 1"], failure=failure)
    assert loads(replay.dumps()).failure == failure
    assert "never ends" in KINDS


def test_play_upto_stops_after_that_many_moves():
    state = played(moves=10)
    replay = Replay.of(state, "instinct")
    assert replay.play(upto=4).history == state.history[:4]
    assert replay.play(upto=0).history == []


def test_a_rule_file_path_is_found_beside_the_replay_file(tmp_path):
    rules = tmp_path / "mine.rules"
    rules.write_text((RULES / "instinct.rules").read_text())
    state = rulekit.load(str(rules)).new_game(players=3, seed=2)
    state.apply(state.legal_moves()[0])
    folder = tmp_path / "saved"
    folder.mkdir()
    Replay.of(state, "../mine.rules").write(folder / "r.json")
    assert read(folder / "r.json").play().history == state.history


BAD = [
    ("not json", "not JSON"),
    ("[]", "a replay is a JSON object"),
    ('{"version": 1}', "not a rulekit replay"),
    ('{"format": "rulekit-replay", "version": 99}', "newer than this rulekit reads"),
    ('{"format": "rulekit-replay", "version": "1"}', '"version" must be a positive integer'),
    ('{"format": "rulekit-replay", "version": 1, "game": "", "players": 2, "seed": 0, "moves": []}', '"game"'),
    ('{"format": "rulekit-replay", "version": 1, "game": "instinct", "players": true, "seed": 0, "moves": []}',
     '"players" must be an integer'),
    ('{"format": "rulekit-replay", "version": 1, "game": "instinct", "players": 2, "seed": 1.5, "moves": []}',
     '"seed" must be an integer'),
    ('{"format": "rulekit-replay", "version": 1, "game": "instinct", "players": 2, "seed": 0, "moves": "bid 1"}',
     '"moves" must be a list of strings'),
    ('{"format": "rulekit-replay", "version": 1, "game": "instinct", "players": 2, "seed": 0, "moves": [1]}',
     '"moves"[0] must be a string'),
    ('{"format": "rulekit-replay", "version": 1, "game": "instinct", "players": 2, "seed": 0, "moves": [],'
     ' "failure": {"kind": "boom"}}', '"kind" must be one of'),
    ('{"format": "rulekit-replay", "version": 1, "game": "instinct", "players": 2, "seed": 0, "moves": [],'
     ' "extra": 1}', "unknown field 'extra'"),
    ("[" * 100_000, "not JSON"),
]


@pytest.mark.parametrize("text, says", BAD)
def test_a_bad_file_gives_our_own_error(text, says):
    with pytest.raises(ReplayError, match=None) as caught:
        loads(text)
    assert says in str(caught.value)
    assert isinstance(caught.value, rulekit.RulekitError)


def test_a_missing_file_a_wrong_game_and_a_move_that_no_longer_replays(tmp_path):
    with pytest.raises(ReplayError, match="cannot read the replay file"):
        read(tmp_path / "missing.json")
    with pytest.raises(ReplayError, match="cannot be loaded"):
        Replay("no-such-game", 2, 0).play()
    with pytest.raises(ReplayError, match="cannot start"):
        Replay("instinct", 99, 0).play()
    with pytest.raises(ReplayError, match=r"move 2 of 2, 'bid 99', does not replay"):
        Replay("instinct", 3, 0, ["bid 1", "bid 99"]).play()


# ---- rulekit replay FILE -------------------------------------------------------------------

def test_replay_prints_every_move_and_the_board_before_it(tmp_path):
    state = played(moves=12)
    Replay.of(state, "instinct", note="look at move 7").write(tmp_path / "r.json")
    result = run("replay", tmp_path / "r.json", "--no-pause")
    assert result.exit_code == 0, result.output
    assert "Instinct, 3 players, seed 5: 12 moves (instinct)" in result.output
    assert "note: look at move 7" in result.output
    for number, move in enumerate(state.history, 1):
        assert f"move {number}/12: seat " in result.output and f": {move}\n" in result.output
    assert result.output.count("Instinct — round 1") == 13          # before each move, and at the end
    assert "seat 0 holds: " in result.output                         # the full truth by default
    assert "End of the replay: round 1, seat" in result.output


def test_replay_as_one_seat_shows_only_that_seats_hand(tmp_path):
    Replay.of(played(moves=5), "instinct").write(tmp_path / "r.json")
    result = run("replay", tmp_path / "r.json", "--no-pause", "--seat", 1)
    assert result.exit_code == 0, result.output
    assert "your hand: " in result.output and "seat 0 holds" not in result.output


def test_replay_moves_only_to_the_end_of_a_game(tmp_path):
    state = played(name="instinct", variant="short", players=2, moves=100_000)
    assert state.is_terminal
    Replay.of(state, "instinct").write(tmp_path / "r.json")
    result = run("replay", tmp_path / "r.json", "--moves-only")      # input is no terminal: no pauses
    assert result.exit_code == 0, result.output
    assert "Instinct — round" not in result.output
    assert "round 1 is over" in result.output and "Game over after" in result.output


def test_replay_pauses_between_moves_and_quits_on_q(tmp_path):
    Replay.of(played(moves=6), "instinct").write(tmp_path / "r.json")
    result = run("replay", tmp_path / "r.json", "--pause", "--moves-only", input="\n\nq\n")
    assert result.exit_code == 0, result.output
    assert "move 3/6" in result.output and "move 4/6" not in result.output
    assert "Replay stopped." in result.output


def test_replay_jumps_to_a_move_number(tmp_path):
    Replay.of(played(moves=8), "instinct").write(tmp_path / "r.json")
    result = run("replay", tmp_path / "r.json", "--pause", input="6\n\n\n\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("Instinct — round 1") == 1 + 3 + 1     # move 1, moves 6-8, the end


def test_replay_of_a_bad_file_exits_2_with_our_message(tmp_path):
    (tmp_path / "bad.json").write_text('{"format": "rulekit-replay", "version": 1}')
    result = run("replay", tmp_path / "bad.json")
    assert result.exit_code == 2
    assert '"game" must be' in result.output and "Traceback" not in result.output


def test_replay_of_a_move_that_does_not_replay_exits_1(tmp_path):
    Replay("instinct", 3, 0, ["bid 1", "bid 99"]).write(tmp_path / "r.json")
    result = run("replay", tmp_path / "r.json", "--no-pause")
    assert result.exit_code == 1
    assert "move 2 of 2, 'bid 99', does not replay" in result.output


def test_replay_rechecks_a_recorded_failure(tmp_path):
    fine = Replay.of(played(moves=6), "instinct",
                     failure=ReplayFailure("invariant", "cards_conserved", "a card vanished"))
    fine.write(tmp_path / "fixed.json")
    result = run("replay", tmp_path / "fixed.json", "--moves-only")
    assert result.exit_code == 0, result.output
    assert "recorded failure (invariant): cards_conserved: a card vanished" in result.output
    assert "cards_conserved holds now" in result.output


# ---- rulekit.testing.replay ----------------------------------------------------------------

def test_testing_replay_returns_the_final_state_when_every_invariant_holds(tmp_path):
    state = played(moves=30)
    Replay.of(state, "instinct").write(tmp_path / "r.json")
    assert testing.replay(tmp_path / "r.json").view() == state.view()


def test_testing_replay_raises_the_invariant_that_fails(tmp_path):
    state = played(moves=30)
    Replay.of(state, "instinct").write(tmp_path / "r.json")

    @invariant
    def at_most_twenty_moves(state):
        assert len(state.history) <= 20, f"{len(state.history)} moves"

    with pytest.raises(InvariantError, match="at_most_twenty_moves: 21 moves") as caught:
        testing.replay(tmp_path / "r.json", invariants=[at_most_twenty_moves])
    assert isinstance(caught.value, AssertionError)
