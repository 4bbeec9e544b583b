"""Your own invariants: `@invariant` on a function, used by `check_rules`, `assert_sound`,
`machine_for`, `replay` and `rulekit check --invariants FILE.py`.

Pipeline place: your test file → **testing** (custom) → runner, machine. An invariant is a
function of the state after a move, and optionally of a copy of the state before it:

    from rulekit.testing import invariant

    @invariant
    def no_deep_negative(state):
        assert min(state.scores) >= -200, f"a score fell to {min(state.scores)}"

It fails by raising `AssertionError` (a plain `assert` does) or `InvariantError`. Loading a
file of invariants (`load_invariants`) runs that file as Python: it is your own code, like
a test module, never something taken from a rule file.
"""
from __future__ import annotations

import functools
import importlib.util
import inspect
import sys
from pathlib import Path

#: The attribute `@invariant` sets on the functions it marks.
MARK = "__rulekit_invariant__"


def invariant(fn=None, *, name: str | None = None):
    """Mark `fn(state)` or `fn(state, before)` as an invariant (usable with or without
    arguments: `@invariant` or `@invariant(name="scores_stay_up")`). The function is
    returned unchanged apart from the mark, so it can still be called directly."""
    def mark(f):
        if not callable(f):
            raise TypeError(f"@invariant marks a function, not {type(f).__name__}")
        setattr(f, MARK, name or f.__name__)
        return f
    return mark if fn is None else mark(fn)


def invariant_name(fn) -> str:
    return getattr(fn, MARK, None) or getattr(fn, "__name__", None) or type(fn).__name__


def _takes_before(fn) -> bool:
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return True
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 2 or any(p.kind == p.VAR_POSITIONAL for p in params)


def as_check(fn):
    """`fn` as the runner calls checks: `check(state, before)`, named after the invariant."""
    if not callable(fn):
        raise TypeError(f"an invariant is a function of the state, not {type(fn).__name__}")
    name = invariant_name(fn)
    if _takes_before(fn):
        def check(state, before=None):
            return fn(state, before)
    else:
        def check(state, before=None):
            return fn(state)
    functools.update_wrapper(check, fn)
    check.__name__ = name
    return check


def as_checks(invariants) -> tuple:
    if invariants is None:
        return ()
    if callable(invariants):
        invariants = [invariants]
    return tuple(as_check(fn) for fn in invariants)


class InvariantFileError(Exception):
    """A file given to `load_invariants` that cannot be run or marks no invariant."""


def load_invariants(path) -> list:
    """The functions marked `@invariant` in the Python file `path`, in file order.

    The file is imported as a module (it runs: it is your own code, like a test module).
    """
    file = Path(path)
    if not file.is_file():
        raise InvariantFileError(f"no file {str(path)!r}")
    module_name = f"_rulekit_invariants_{abs(hash(str(file.resolve())))}"
    spec = importlib.util.spec_from_file_location(module_name, file)
    if spec is None or spec.loader is None:
        raise InvariantFileError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:   # noqa: BLE001 - any error in the user's file is reported as such
        sys.modules.pop(module_name, None)
        raise InvariantFileError(f"{path}: importing it raises {type(error).__name__}: {error}") from error
    found = [value for value in vars(module).values() if callable(value) and hasattr(value, MARK)]
    if not found:
        raise InvariantFileError(f"{path}: no function marked @invariant (from rulekit.testing import invariant)")
    return found
