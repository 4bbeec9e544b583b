"""Seeds: what `Game.new_game(seed=...)` and a restored view accept, and how a seed is kept.

Pipeline place: api / views → **seeds** → engine. A seed is any `int` (or an integer type
such as numpy's, through `operator.index`). Seeds of up to 128 bits are used as they are,
so games seeded as before stay identical; a larger one is reduced to 128 bits by BLAKE2b
of its bytes, which keeps every later chance event (and `str(seed)` in a view) small.
`None` draws a fresh 64-bit seed from the operating system's generator.
"""
from __future__ import annotations

import hashlib
import operator
import random

#: Seeds with an absolute value below this are kept as they are.
KEPT = 2**128
_SYSTEM = random.SystemRandom()


def checked_seed(seed) -> int:
    """The seed a state keeps for `seed`; raises TypeError at once for anything but an int."""
    if seed is None:
        return _SYSTEM.randrange(2**64)
    if isinstance(seed, bool):
        raise TypeError(f"a seed is an int, not a bool ({seed!r})")
    try:
        value = operator.index(seed)
    except TypeError:
        shown = repr(seed)
        shown = shown if len(shown) <= 40 else shown[:40] + "..."
        raise TypeError(f"a seed is an int, not {type(seed).__name__} {shown}") from None
    if -KEPT < value < KEPT:
        return value
    size = (value.bit_length() + 8) // 8
    digest = hashlib.blake2b(value.to_bytes(size, "little", signed=True), digest_size=16).digest()
    return int.from_bytes(digest, "little")
