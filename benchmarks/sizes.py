"""Deep size of an object's own data: what it reaches, minus what a shared object reaches.

Used by bench_play.py for "a state under 10 KB": the state's lists, ints, tuples and
the like count; what every state of the game shares does not: the compiled rules it points
to (deck tables, steps, interned moves), the namespace of the game's generated module (its
interned moves and (seat, card) pairs, `shared_roots`), and the objects CPython keeps once
per process (the ints -5..256, True, False, None), which a state holds by reference only.
"""
from __future__ import annotations

import sys
import types

_ATOMS = (int, float, str, bytes, bool, type(None))


def reachable(root, skip: set[int] | None = None) -> dict[int, object]:
    """Every object reachable from `root` (containers, slots, attributes, closures)."""
    seen: dict[int, object] = {}
    stack = [root]
    skip = skip or set()
    while stack:
        obj = stack.pop()
        key = id(obj)
        if key in seen or key in skip:
            continue
        seen[key] = obj
        stack.extend(_children(obj))
    return seen


def deep_size(obj, exclude=None) -> int:
    """Bytes of `obj` and everything it reaches that `exclude` does not reach."""
    shared = set(reachable(exclude)) if exclude is not None else set()
    shared.discard(id(obj))
    return sum(sys.getsizeof(o) for o in reachable(obj, shared).values() if not _per_process(o))


def shared_roots(state) -> tuple:
    """What every state of a game shares: its rules, and its generated module's namespace."""
    for klass in type(state).__mro__:
        for value in vars(klass).values():
            if isinstance(value, types.FunctionType) and value.__module__ == "rulekit.generated":
                return (state.rules, value.__globals__)
    return (state.rules,)


def _per_process(obj) -> bool:
    """One of the objects CPython makes once per process (small ints, True, False, None)."""
    return obj is None or obj is True or obj is False or (type(obj) is int and -5 <= obj <= 256)


def _children(obj):
    if isinstance(obj, _ATOMS) or isinstance(obj, type):
        return ()
    if isinstance(obj, dict):
        return [*obj.keys(), *obj.values()]
    if isinstance(obj, (list, tuple, set, frozenset)):
        return list(obj)
    if isinstance(obj, types.FunctionType):
        cells = obj.__closure__ or ()
        return [c.cell_contents for c in cells if _filled(c)] + list(obj.__defaults__ or ())
    if isinstance(obj, types.MethodType):
        return [obj.__self__, obj.__func__]
    if isinstance(obj, (types.ModuleType, types.BuiltinFunctionType)):
        return ()
    out = []
    for klass in type(obj).__mro__:
        for name in getattr(klass, "__slots__", ()):
            if hasattr(obj, name):
                out.append(getattr(obj, name))
    if hasattr(obj, "__dict__"):
        out.append(vars(obj))
    return out


def _filled(cell) -> bool:
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True
