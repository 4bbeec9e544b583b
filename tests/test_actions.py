"""The fixed action space and the observation arrays (issue 14), for every game we ship.

Issue 14: "A fixed action space: every move a game can ever offer, enumerated from its deck,
bid ranges, pass sizes and board cells, numbered stably ... Passing several cards can be one
action per card (a choice made in parts)"; "Observation arrays: `state.observation(seat)` as
a numpy array with a documented layout ... derived from the rule file".
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulekit
from rulekit.engine import actions as actions_mod
from rulekit.engine.actions import ActionKind, ActionSpaceError, space_for
from rulekit.engine.observe import encoder_for
from rulekit.engine.steps import Step

np = pytest.importorskip("numpy")

ROOT = Path(__file__).resolve().parent.parent
#: (game, variant, player counts): the shipped games and every example rule file.
GAMES = [(name, None) for name in rulekit.bundled()] + [("duell-der-tiere", "draft"), ("insidious-sevens", "pico")]
GAMES += [(str(p), None) for p in sorted((ROOT / "examples").rglob("*.rules"))]


#: Moves looked at per game: a few rounds of every game (a whole game of some is thousands).
MOVES = 400


def _counts(game):
    players = game.players
    return sorted({players[0], players[-1]})


def _games():
    for name, variant in GAMES:
        game = rulekit.load(name, variant=variant)
        for players in _counts(game):
            yield pytest.param(game, players, id=f"{Path(name).stem}-{variant or 'base'}-{players}")


@pytest.mark.parametrize("game, players", list(_games()))
def test_every_legal_move_is_an_action_and_its_parts_make_it_again(game, players):
    """Random games: each legal move encodes to actions the mask allows; its parts, chosen one
    at a time in any order, are legal after each other and decode to the same move."""
    space = game.actions(players)
    rng = random.Random(players)
    for seed in range(2):
        state = game.new_game(players=players, seed=seed)
        for _ in range(MOVES):
            if state.is_terminal:
                break
            mask = state.legal_action_mask()
            assert mask.dtype == np.int8 and mask.shape == (len(space),)
            legal = state.legal_actions()
            assert list(np.flatnonzero(mask)) == legal
            encoded = {space.encode(state, m) for m in state.legal_moves()}
            assert {i for ids in encoded for i in ids} == set(legal)
            move = rng.choice(state.legal_moves())
            ids = list(space.encode(state, move))
            rng.shuffle(ids)
            for done in range(1, len(ids)):
                assert ids[done] in state.legal_actions(ids[:done])
                assert space.decode(state, ids[:done]) is None
            assert space.decode(state, ids) == move
            state.apply_action(ids)


def test_the_numbering_is_stable_and_does_not_depend_on_the_state():
    first = rulekit.load("instinct").actions(4)
    again = rulekit.load("instinct").actions(4)
    assert first.labels == again.labels
    assert first[0] == "bid 0" and first.index("bid 11") == 11 and first.index("play trump") == len(first) - 1
    # "Each player receives 11 cards"; bids 0..11; 5 colours of 12 and the trump cards (one face)
    assert len(first) == 12 + 5 * 12 + 1


def test_a_pass_is_one_action_per_card_and_keeps_the_move_notation():
    """Sevens, round 2: "1 card" passed left; round 3 passes 2 cards to the right."""
    game = rulekit.load("insidious-sevens")
    space = game.actions(4)
    assert "pass red 0" in space.labels and not any("," in label for label in space.labels)
    state = game.new_game(players=4, seed=1)
    while state.view()["phase"] != "pass" or state.round < 3:
        state.apply(state.legal_moves()[0])
    move = state.legal_moves()[-1]
    assert str(move).startswith("pass ") and ", " in str(move)
    ids = space.encode(state, move)
    assert len(ids) == 2 and [space[i] for i in ids] == [f"pass {c}" for c in str(move)[5:].split(", ")]
    with pytest.raises(rulekit.IllegalMoveError, match="more parts"):
        state.apply_action(ids[0])
    before = state.view()
    state.apply_action(list(reversed(ids)))
    assert state.history[-1] == str(move) and state.view() != before


def test_grid_moves_are_relative_to_the_display():
    """Duell: "The first card in the display is simply placed on the table"; it is `+0,+0`."""
    game = rulekit.load("duell-der-tiere")
    space = game.actions(2)
    state = game.new_game(players=2, seed=4)
    while state.view()["phase"] != "place":
        state.apply(state.legal_moves()[0])
    (first,) = state.legal_moves()
    assert [space[i] for i in space.encode(state, first)] == [str(first).replace("0,0", "+0,+0")]
    state.apply(first)
    for move in state.legal_moves():
        label = space[space.encode(state, move)[0]]
        assert label.startswith("place ") and " at " in label


def test_an_unknown_step_kind_is_named_and_a_step_can_list_its_own_moves():
    class Shout(Step):
        name = "shout"

        def legal(self, st):
            return []

    with pytest.raises(ActionSpaceError, match="`shout` .*Shout.* does not list"):
        actions_mod.kind_of(Shout(), 4)

    class Listed(Shout):
        def action_kind(self, players):
            return ActionKind([f"shout {i}" for i in range(players)])

    assert actions_mod.kind_of(Listed(), 3).labels == ["shout 0", "shout 1", "shout 2"]
    assert actions_mod.kind_of(Step(), 3) is None


def test_an_unknown_action_and_bad_parts_are_our_errors():
    game = rulekit.load("instinct")
    space = game.actions(4)
    state = game.new_game(players=4, seed=2)
    with pytest.raises(ActionSpaceError):
        space.index("bid 99")
    with pytest.raises(rulekit.IllegalMoveError):
        state.apply_action(space.index("play trump"))          # bidding comes first
    assert state.history == []


@pytest.mark.parametrize("game, players", list(_games()))
def test_observations_show_only_what_the_seat_sees(game, players):
    """Two states that one seat cannot tell apart (the same view) give it the same array;
    the layout covers the array exactly."""
    encoder = encoder_for(game.ruleset(players), players)
    assert sum(size for _, size in encoder.layout) == encoder.size
    state = game.new_game(players=players, seed=5)
    rng = random.Random(0)
    for _ in range(40):
        if state.is_terminal:
            break
        for seat in range(players):
            obs = state.observation(seat)
            assert obs.dtype == np.float32 and obs.shape == (encoder.size,)
            info = state.information_state(seat)
            assert info.shape == (encoder.info_size,) and np.array_equal(info[:encoder.size], obs)
        state.apply(rng.choice(state.legal_moves()))


def test_the_observation_layout_names_the_rulebook_parts():
    """Instinct: own hand, the trick, bids, tricks won, scores, trump, whose turn."""
    game = rulekit.load("instinct")
    encoder = encoder_for(game.ruleset(4), 4)
    names = [name for name, _ in encoder.layout]
    for part in ("hand", "trick", "played", "bids", "tricks_won", "scores", "trump", "current_player"):
        assert part in names
    state = game.new_game(players=4, seed=9)
    seat = state.current_player
    obs = state.observation(seat)
    a, b = encoder.offsets["hand"]
    assert obs[a:b].sum() == 11                           # "Each player receives 11 cards"
    a, b = encoder.offsets["current_player"]
    assert obs[a:b].tolist() == [1, 0, 0, 0]              # relative seats: the seat itself first
    other = state.observation((seat + 1) % 4)
    assert other[a:b].tolist() == [0, 0, 0, 1]
    assert "hand" in encoder.describe()


def test_hidden_cards_never_reach_another_seat():
    """Changing a hidden hand (the other seats' cards) changes nothing in a seat's array."""
    game = rulekit.load("instinct")
    state = game.new_game(players=3, seed=11)
    view = state.view()
    view["hands"][1], view["hands"][2] = view["hands"][2][:], view["hands"][1][:]
    swapped = game.restore(view)
    assert np.array_equal(state.observation(0), swapped.observation(0))
    assert not np.array_equal(state.observation(1), swapped.observation(1))


def test_the_information_state_remembers_the_seats_own_moves():
    game = rulekit.load("instinct")
    state = game.new_game(players=4, seed=3)
    seat = state.current_player
    before = state.information_state(seat)
    state.apply("bid 2")
    after = state.information_state(seat)
    size = encoder_for(game.ruleset(4), 4).size
    assert not np.array_equal(before[size:], after[size:])
    assert space_for(game.ruleset(4), 4) is game.actions(4)
