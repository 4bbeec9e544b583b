"""Pickling games and states, so that process pools and clusters can receive them.

Pipeline place: beside **api**. A compiled game is closures, which do not pickle; it
travels as what it was loaded from instead — its rule text, file name, folder, search path
and the variants selected — and the other side loads it again, once per process (the
loaded games are cached by that key). A state travels as its game and its full view
(`state.view()`, which `restore` turns back into an equal state).

A file that `extend`s another by path is read again on the receiving side, from the same
folder: a cluster's workers need the same files (bundled games always are).
"""
from __future__ import annotations

import copyreg
import threading

from .engine.state import State

_CACHE: dict = {}
_LOCK = threading.Lock()
#: loaded games kept per process
CACHE_SIZE = 64


def reduce_game(game):
    source = getattr(game, "source", None)
    if source is None:
        raise TypeError(f"{game!r} was not loaded from rule text and cannot be pickled")
    return _game_from, (source, tuple(game.selected))


def _game_from(source: tuple, variants: tuple):
    key = (source, variants)
    with _LOCK:
        found = _CACHE.get(key)
    if found is None:
        from .api import loads

        text, file, base_dir, search_path, name = source
        found = loads(text, variant=list(variants) or None, file=file, base_dir=base_dir,
                      search_path=list(search_path) or None, name=name)
        with _LOCK:
            if len(_CACHE) >= CACHE_SIZE:
                _CACHE.pop(next(iter(_CACHE)))
            _CACHE[key] = found
    return found


def _reduce_state(state: State):
    game = getattr(state.rules, "game", None)
    if game is None:
        raise TypeError("this state's rules were not loaded through rulekit.load/loads and cannot be pickled")
    return _state_from, (game, tuple(state.rules.variants), state.n, state.view())


def _state_from(game, variants: tuple, players: int, view: dict) -> State:
    if tuple(game.selected) != variants:
        game = _game_from(game.source, variants)
    return game.ruleset(players).restore(view)


copyreg.pickle(State, _reduce_state)
