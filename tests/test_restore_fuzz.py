"""The restore fuzz: mutated full views of random games of every shipped and example game.

Issue 11: "`game.restore(view)` is documented to raise `ViewError` for 'a view that does not
describe a state of the game'" ... "`pytest -m fuzz` runs ... 10,000 mutated views with no
exception other than rulekit's own and no accepted impossible state".

Each case takes a full view of a random game (any phase, any round, the end included),
mutates it (a value replaced by a hostile one, a key dropped, a list entry added or removed,
cards moved or swapped between places, the move list blown up), and restores it. A refused
view must raise `ViewError`; an accepted one must keep the invariants of `rulekit.testing`
(every card in one place, one seat to move) and play to its end with a legal move at every
turn and no exception. A position without `step` (the mutation dropped it) is checked as
written by hand: it must play on without an exception until the end or until no move is left.
CI runs a few hundred cases (fixed seeds); `pytest -m fuzz` runs 10,000 with fresh ones.
"""
from __future__ import annotations

import copy
import json
import os
import random
from pathlib import Path

import pytest

import rulekit
from rulekit import testing as rt

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_FILES = sorted((ROOT / "examples").rglob("*.rules"))


def _games():
    games = {}
    for name in rulekit.bundled():
        base = rulekit.load(name)
        for variant in [None, *base.variants]:
            games[name + (f"+{variant}" if variant else "")] = rulekit.load(name, variant=variant)
    for path in EXAMPLE_FILES:
        try:
            games[path.stem] = rulekit.load(path)
        except rulekit.RuleError:       # an example another test shows to be broken on purpose
            continue
    return games


GAMES = _games()

#: Values a mutation puts in place of a value of the view.
HOSTILE = [None, -1, 0, 1, 2, 3, 7, 99, 10**6, 2**63, 10**30, -(10**30), "0", "1", "", "hidden", "over",
           True, False, 1.5, float("nan"), [], [None], [[]], {}, {"round": 1}, "play", "x" * 300]


def random_state(game, rng: random.Random):
    """A state of a random game at a random point (the end included)."""
    players = rng.choice(list(game.players))
    state = game.new_game(players=players, seed=rng.randrange(2**32))
    stop = rng.choice([0, 1, 3, 10, 30, 100, 400, 10**6])
    for _ in range(stop):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_moves()))
    return state


def _paths(value, path=()):
    """Every place in a JSON value: (path, value)."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, path + (index,))


def _get(data, path):
    for key in path:
        data = data[key]
    return data


def _set(data, path, value):
    _get(data, path[:-1])[path[-1]] = value


def _card_lists(view):
    """Paths of the lists of card texts in a full view (hands, undealt, taken, decks, ...)."""
    out = []
    for path, value in _paths(view):
        if path and path[0] in ("hands", "undealt", "taken", "set_aside", "decks", "removed") and \
                isinstance(value, list) and all(isinstance(c, str) for c in value):
            out.append(path)
    return out


def mutate(view: dict, rng: random.Random, texts: list[str]) -> str:
    """Change the view in place, one to three times; returns what was done."""
    done = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        done.append(_one_mutation(view, rng, texts))
    return "; ".join(done)


def _one_mutation(view, rng, texts) -> str:
    kind = rng.choice(["replace", "replace", "replace", "drop", "grow", "shrink", "move card",
                       "swap cards", "card text", "history", "sibling"])
    places = [p for p, _ in _paths(view) if p]
    path = rng.choice(places)
    if kind == "replace":
        value = rng.choice(HOSTILE)
        _set(view, path, copy.deepcopy(value))
        return f"{_name(path)} = {value!r:.40}"
    if kind == "drop":
        key = rng.choice(list(view))
        del view[key]
        return f"del {key}"
    lists = [p for p, v in _paths(view) if isinstance(v, list)]
    if kind in ("grow", "shrink") and lists:
        target = _get(view, rng.choice(lists)) if lists else None
        if kind == "grow":
            item = copy.deepcopy(rng.choice(target)) if target and rng.random() < 0.7 else rng.choice(HOSTILE)
            target.insert(rng.randrange(len(target) + 1), item)
            return f"insert {item!r:.40}"
        if target:
            del target[rng.randrange(len(target))]
            return "remove an entry"
    cards = [p for p in _card_lists(view) if _get(view, p)]
    if kind == "move card" and cards:
        source, target = rng.choice(cards), rng.choice(_card_lists(view))
        card = _get(view, source).pop(rng.randrange(len(_get(view, source))))
        _get(view, target).append(card)
        return f"move {card} from {_name(source)} to {_name(target)}"
    if kind == "swap cards" and len(cards) >= 2:
        a, b = rng.sample(cards, 2)
        i, j = rng.randrange(len(_get(view, a))), rng.randrange(len(_get(view, b)))
        _get(view, a)[i], _get(view, b)[j] = _get(view, b)[j], _get(view, a)[i]
        return f"swap a card of {_name(a)} with one of {_name(b)}"
    if kind == "card text":
        strings = [p for p, v in _paths(view) if isinstance(v, str)]
        if strings:
            where = rng.choice(strings)
            _set(view, where, rng.choice(texts))
            return f"{_name(where)} = a card text"
    if kind == "history":
        count = rng.choice([1, 10, 10**4, 10**5])
        old = view.get("history")
        view["history"] = (old if isinstance(old, list) else []) + ["bid 0"] * count
        return f"history + {count}"
    if kind == "sibling" and isinstance(_get(view, path[:-1]), (list, dict)):
        parent = _get(view, path[:-1])
        keys = list(parent) if isinstance(parent, dict) else list(range(len(parent)))
        other = rng.choice(keys)
        _set(view, path, copy.deepcopy(parent[other]))
        return f"{_name(path)} = its sibling {other!r}"
    value = rng.choice(HOSTILE)
    _set(view, path, copy.deepcopy(value))
    return f"{_name(path)} = {value!r:.40}"


def _name(path) -> str:
    return "".join(f"[{p!r}]" if isinstance(p, int) else (f".{p}" if i else p) for i, p in enumerate(path))


def check_case(name: str, seed: int) -> None:
    """One fuzz case: a mutated view of a random state of game `name`."""
    game, rng = GAMES[name], random.Random(seed)
    state = random_state(game, rng)
    view = json.loads(json.dumps(state.view()))
    if rng.random() < 0.1:
        view.pop("history", None)               # a full view may leave out the move list
    what = mutate(view, rng, list(state.rules.deck.texts))
    where = f"{name}, seed {seed}: {what}"
    try:
        restored = game.restore(view)
    except rulekit.ViewError as error:
        assert str(error), where
        return
    except Exception as error:   # noqa: BLE001 - anything but ViewError is the finding
        pytest.fail(f"{where}: restore raised {type(error).__name__}: {error}")
    plays_to_the_end(restored, full="step" in view, where=where, rng=rng)


def plays_to_the_end(state, *, full: bool, where: str, rng: random.Random) -> None:
    try:
        json.dumps(state.view())
        if full:
            rt.cards_conserved(state)
            rt.one_seat_to_move(state)
            rt.restore_round_trips(state)
        for _ in range(20_000):
            if state.is_terminal:
                assert state.winners, f"{where}: the game ended without winners"
                return
            moves = state.legal_moves()
            if not moves:
                assert not full, f"{where}: seat {state.current_player} has no legal move " \
                                 f"in round {state.round}, phase {state.view()['phase']}"
                return
            state.apply(rng.choice(moves))
    except AssertionError:
        raise
    except Exception as error:   # noqa: BLE001 - an accepted view must play without errors
        pytest.fail(f"{where}: the accepted view fails later with {type(error).__name__}: {error}")
    pytest.fail(f"{where}: the accepted view did not end within 20,000 moves")


NAMES = sorted(GAMES)


@pytest.mark.parametrize("name", NAMES)
def test_mutated_views_are_refused_or_play_to_the_end(name):
    for seed in range(25):
        check_case(name, seed)


@pytest.mark.fuzz
def test_mutated_views_under_a_long_fuzz():
    start = int(os.environ.get("RULEKIT_FUZZ_SEED", random.randrange(2**32)))
    for index in range(10_000):
        check_case(NAMES[index % len(NAMES)], start + index)
