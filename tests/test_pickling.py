"""Games and states pickle and unpickle (issue #13): a game as its rule text, file name and
variants, loaded again once per process; a state as its game and full view. A process pool
receives them."""
from __future__ import annotations

import pickle
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

import rulekit
from rulekit import pickling


def _played(name, players, seed, moves, variant=None):
    game = rulekit.load(name, variant=variant)
    st = game.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        st.apply(rng.choice(st.legal_moves()))
    return st


@pytest.mark.parametrize("name,players,variant", [("instinct", 4, None), ("insidious-sevens", 2, None),
                                                  ("insidious-sevens", 3, "pico"),
                                                  ("duell-der-tiere", 2, None)])
def test_a_state_round_trips_and_plays_on_alike(name, players, variant):
    st = _played(name, players, 3, 9, variant)
    again = pickle.loads(pickle.dumps(st))
    assert again.view() == st.view()
    assert [m.text for m in again.legal_moves()] == [m.text for m in st.legal_moves()]
    rng_a, rng_b = random.Random(4), random.Random(4)
    while not st.is_terminal:
        st.apply(rng_a.choice(st.legal_moves()))
        again.apply(rng_b.choice(again.legal_moves()).text)
    assert again.view() == st.view()


def test_a_game_pickles_by_its_text_and_is_loaded_once_per_process():
    game = rulekit.load("insidious-sevens", variant="pico")
    data = pickle.dumps(game)
    assert len(data) < 20_000
    one, two = pickle.loads(data), pickle.loads(data)
    assert one is two                          # cached
    assert one.selected == ("pico",) and one.title == game.title


def test_a_game_from_loads_with_an_extend_pickles(tmp_path):
    base = tmp_path / "mine.rules"
    base.write_text('extend "instinct"\ngame "Mine"\n')
    game = rulekit.load(str(base))
    again = pickle.loads(pickle.dumps(game))
    assert again.title == "Mine"
    assert again.new_game(players=3, seed=1).view() == game.new_game(players=3, seed=1).view()


def _finish(state):
    rng = random.Random(7)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_moves()))
    return state


def test_states_go_through_a_process_pool():
    states = [_played("instinct", 3, seed, 5) for seed in range(3)] + [_played("duell-der-tiere", 2, 1, 4)]
    with ProcessPoolExecutor(max_workers=2) as pool:
        finished = list(pool.map(_finish, states))
    for st, done in zip(states, finished):
        assert done.is_terminal
        assert done.view() == _finish(st.clone()).view()


def test_a_seat_handle_does_not_pickle():
    st = _played("instinct", 3, 1, 2)
    with pytest.raises(TypeError):
        pickle.dumps(st.for_seat(0))


def test_the_cache_is_bounded():
    for k in range(pickling.CACHE_SIZE + 3):
        pickle.loads(pickle.dumps(rulekit.loads(f'extend "instinct"\ngame "G{k}"\n')))
    assert len(pickling._CACHE) <= pickling.CACHE_SIZE
