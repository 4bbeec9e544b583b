"""`state.for_seat(seat)`: the read-only handle for untrusted code (issue #11, "A seat-limited
handle for bots"). Nothing reachable from it shows another seat's hidden information: it
holds no reference to the state, its outputs are the same for two states that differ only
where the seat cannot look, and what it offers is exactly the documented set."""
from __future__ import annotations

import gc
import random
import types

import pytest

import rulekit
from rulekit.engine.state import State
from rulekit.testing.invariants import _nothing_secret, Look

PUBLIC = {"seat", "players", "is_terminal", "current_player", "view", "legal_moves", "history",
          "determinize"}
GAMES = [("instinct", 4), ("insidious-sevens", 4), ("insidious-sevens", 2), ("duell-der-tiere", 2),
         ("examples/oh-hell.rules", 3)]


def _states(name, players, count=6):
    game = rulekit.load(name)
    for seed in range(count):
        st = game.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(60)):
            if st.is_terminal:
                break
            st.apply(rng.choice(st.legal_moves()))
        if not st.is_terminal:
            yield st


def _reachable(root):
    """Every object the handle's own data reaches (not its class, code or modules)."""
    seen, todo, out = {id(root)}, [root], []
    while todo:
        obj = todo.pop()
        for ref in gc.get_referents(obj):
            if isinstance(ref, (type, types.ModuleType, types.FunctionType, types.CodeType)):
                continue
            if id(ref) not in seen:
                seen.add(id(ref))
                out.append(ref)
                todo.append(ref)
    return out


def test_the_handle_offers_only_what_is_documented():
    st = next(_states("instinct", 4))
    handle = st.for_seat(1)
    assert {a for a in dir(handle) if not a.startswith("_")} == PUBLIC
    assert not hasattr(handle, "__dict__")
    for name in ("apply", "state", "_state", "seed", "pending", "clone", "hands"):
        assert not hasattr(handle, name)
    with pytest.raises(AttributeError):
        handle.seat = 2
    assert not any(isinstance(obj, State) for obj in _reachable(handle))


@pytest.mark.parametrize("name,players", GAMES)
def test_outputs_show_nothing_hidden_and_follow_the_game(name, players):
    for st in _states(name, players):
        for seat in range(players):
            handle = st.for_seat(seat)
            assert handle.view() == st.view(seat)
            _nothing_secret(Look(st), seat)
            mine = seat == st.current_player
            assert [m.text for m in handle.legal_moves()] == ([m.text for m in st.legal_moves()] if mine else [])
            assert (handle.current_player, handle.is_terminal, handle.players) == (st.current_player, False, players)
            _history_hides_secrets(st, seat, handle.history)
        before = st.for_seat(0)
        st.apply(st.legal_moves()[0])
        assert before.view() == st.view(0)          # the handle follows the live game


def _history_hides_secrets(st, seat, history):
    """Moves of other seats in secret steps show as `<verb> hidden`; the rest as played."""
    assert [text for _, text in history if not text.endswith(" hidden")] == [
        text for (mover, text), true in zip(history, st.history) if text == true]
    assert len(history) == len(st.history)
    for (mover, text), true in zip(history, st.history):
        assert text == true or (mover != seat and text == true.split()[0] + " hidden")


@pytest.mark.parametrize("name,players", GAMES)
def test_two_states_the_seat_cannot_tell_apart_give_the_same_answers(name, players):
    """A determinized twin differs from the real state only where the seat cannot look:
    every answer of the two handles but a new sample is the same."""
    for st in _states(name, players, 4):
        for seat in range(players):
            twin = st.determinize(seat, seed=5)
            assert twin.view() != st.view() or players == 1 or not any(st.hands)
            a, b = st.for_seat(seat), twin.for_seat(seat)
            assert a.view() == b.view()
            assert [m.text for m in a.legal_moves()] == [m.text for m in b.legal_moves()]
            assert a.history == b.history
            assert (a.current_player, a.is_terminal) == (b.current_player, b.is_terminal)


def test_a_determinized_state_from_the_handle_is_a_sample_not_the_truth():
    st = next(_states("insidious-sevens", 4))
    handle = st.for_seat(2)
    samples = [handle.determinize(seed) for seed in range(30)]
    assert all(s.view(2) == st.view(2) for s in samples)
    assert all(s.seed != st.seed for s in samples)
    assert sum(s.hands == st.hands for s in samples) < 3
    assert handle.determinize(4).view() == handle.determinize(4).view()      # seeded
    with pytest.raises(TypeError):
        handle.determinize("four")


def test_no_seat_no_handle():
    st = next(_states("instinct", 3))
    for bad in (-1, 3, "0", True, None):
        with pytest.raises(ValueError):
            st.for_seat(bad)
