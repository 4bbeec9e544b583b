"""`replay(FILE)`: a saved game played again in Python under every invariant.

Pipeline place: replay files (`rulekit.replay`) → **testing** → your regression tests and
`rulekit replay`. A failure that `rulekit check --replay-out FILE` wrote becomes a test:

    from rulekit.testing import replay
    def test_the_house_variant_keeps_scores_up():
        replay("failures/house.json", invariants=[no_deep_negative])   # AssertionError while broken

Needs no Hypothesis.
"""
from __future__ import annotations

from pathlib import Path

from ..replay import Replay, ReplayError, read
from .invariants import InvariantError
from .runner import _Checks, play_checked


def _as_replay(source) -> Replay:
    if isinstance(source, Replay):
        return source
    if isinstance(source, (str, Path)):
        return read(source)
    raise TypeError(f"replay() takes a replay file's path or a Replay, not {type(source).__name__}")


def replay(source, *, game=None, invariants=(), skip=(), max_rounds: int | None = None,
           thorough: bool = True):
    """Play the replay `source` (a file's path or a `Replay`) again, checking every invariant
    after every move (and your own `invariants`); return the final `State`.

    Raises `InvariantError` (an `AssertionError`, so pytest shows its message) at the first
    invariant that fails, and `rulekit.replay.ReplayError` when the file is not a replay or
    a move no longer replays. `game` is the `Game` to play (default: the one the replay names).
    """
    saved = _as_replay(source)
    game = saved.load_game() if game is None else game
    checks = _Checks(game, max_rounds, thorough, _user_checks(invariants), skip)
    out = play_checked(game, saved.players, saved.seed, checks, moves=list(saved.moves))
    if out.moves is None:
        saved.play(game)                 # raises ReplayError naming the move that does not replay
    if out.failed is not None:
        raise out.failed
    return saved.play(game)


def known(name: str | None, invariants=()) -> bool:
    """Can `name` be checked again: a built-in invariant, the engine, or one of `invariants`?"""
    from .custom import invariant_name
    from .runner import _SHRINKABLE
    return name is None or name in _SHRINKABLE or any(invariant_name(f) == name for f in invariants)


def still_fails(saved: Replay, game, state=None, invariants=()) -> str | None:
    """The message of the replay's recorded failure if it happens again, else None."""
    failure = saved.failure
    if failure is None:
        return None
    try:
        replay(saved, game=game, invariants=invariants)
    except InvariantError as error:
        if failure.invariant in (None, error.invariant):
            return error.message
        return f"{error.invariant} fails instead: {error.message}"
    except ReplayError as error:
        return str(error)
    if failure.kind == "never ends":
        state = saved.play(game) if state is None else state
        if not state.is_terminal:
            return None
        cap = getattr(state.rules, "max_rounds", None)
        if cap is not None and state.round >= cap:
            return f"the game stopped at the engine's cap of {cap} rounds"
    return None


def _user_checks(invariants) -> tuple:
    from .custom import as_checks
    return as_checks(invariants)
