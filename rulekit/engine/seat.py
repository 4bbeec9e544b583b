"""`state.for_seat(seat)`: a read-only handle on a game for code that plays one seat.

Pipeline place: **engine** (beside `state.py`), handed to agents and to untrusted bots. A
`State` shows everything (the other hands, secret choices, the seed that fixes every future
deal); the handle offers only what its seat may know: its view, its legal moves, the
history it could see (another seat's secret choice shows as "<verb> hidden"), and
`determinize(seed)`, a full State it cannot tell apart from the real one (`determinize.py`).

The handle keeps no reference to the state in any attribute, slot or closure: the state
lives in a private table keyed by the handle. It follows the game as it goes on (it reads
the live state) and cannot change it. It cannot be pickled or copied: send a view or a
determinized state to another process instead.
"""
from __future__ import annotations

import random
import weakref

from .determinize import Determinizer
from .history import count

#: handle -> [state, seat, determinizer or None, history length it was built at]
_TARGETS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


class SeatHandle:
    """What one seat may see and do: give this, not the `State`, to untrusted code."""

    __slots__ = ("__weakref__",)

    def __init__(self, state, seat: int):
        if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.n):
            raise ValueError(f"no seat {seat!r}: seats are 0..{state.n - 1}")
        _TARGETS[self] = [state, seat, None, -1]

    @property
    def seat(self) -> int:
        return _TARGETS[self][1]

    @property
    def players(self) -> int:
        return _TARGETS[self][0].n

    @property
    def is_terminal(self) -> bool:
        return _TARGETS[self][0].is_terminal

    @property
    def current_player(self) -> int | None:
        return _TARGETS[self][0].current_player

    def view(self) -> dict:
        """What this seat sees: `state.view(seat)`."""
        state, seat = _TARGETS[self][:2]
        return state.view(seat)

    def legal_moves(self) -> list:
        """The seat's legal moves when it is to move; [] while another seat is."""
        state, seat = _TARGETS[self][:2]
        if state.is_terminal or state.current_player != seat:
            return []
        return state.legal_moves()

    @property
    def history(self) -> list[tuple[int, str]]:
        """The moves this seat could see, oldest first: (seat that moved, move text)."""
        return list(_determinizer(self).knowledge.history)

    def determinize(self, seed=None):
        """A full state this seat cannot tell apart from the real one. `seed`: an int, a
        `random.Random` to draw from, or None (fresh randomness)."""
        return _determinizer(self).sample(_rng(seed))

    def __repr__(self) -> str:
        state, seat = _TARGETS[self][:2]
        return f"<seat {seat} of {state.rules.title}>"

    def __reduce__(self):
        raise TypeError("a seat handle cannot be pickled: send view() or determinize() instead")

    def __copy__(self):
        raise TypeError("a seat handle cannot be copied")

    __deepcopy__ = __copy__


def _determinizer(handle) -> Determinizer:
    entry = _TARGETS[handle]
    state = entry[0]
    at = count(state)
    if entry[2] is None or entry[3] != at:
        entry[2], entry[3] = Determinizer(state, entry[1]), at
    return entry[2]


def _rng(seed) -> random.Random:
    if isinstance(seed, random.Random):
        return seed
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise TypeError(f"a seed is an int, a random.Random or None, not {type(seed).__name__}")
    return random.Random(seed)
