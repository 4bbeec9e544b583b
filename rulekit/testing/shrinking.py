"""Shrinking a failing game with Hypothesis's own shrinker.

Pipeline place: runner (a failure found by random play) → **shrinking** → the report. A game
is a list of choices, one per decision: which of `legal_moves()` to play. Drawn by
Hypothesis one at a time (`st.integers` inside a composite strategy), every list of choices
is a legal game, so `hypothesis.find` can search and shrink them freely: towards fewer
decisions before the invariant breaks, and towards the first moves of each list. It runs
twice: first with every choice counted from the front of the legal list, then with each
seat drawing, per kind of move, whether it counts from the front or the back (the two ends
are the extreme choices: the lowest and the highest bid, the first and the last card), so
that shrinking lands on extreme, short games. Both runs are deterministic (`derandomize`)
and share a time budget; the runner keeps the shortest failure and polishes it with its
own passes. Needs Hypothesis: without it the runner shrinks on its own.
"""
from __future__ import annotations

import time

from .invariants import InvariantError, Look

#: Examples Hypothesis may try per search (generation and shrinking together).
MAX_EXAMPLES = 300
#: Seconds one shrink may spend in Hypothesis, at most.
TIME_BUDGET = 4.0


class _OutOfTime(Exception):
    """The shrinking's time budget is spent: stop the search, keep the best found."""


def available() -> bool:
    try:
        import hypothesis  # noqa: F401
    except ImportError:
        return False
    return True


def play_choices(game, players: int, seed: int, choose, limit: int, checks, name: str):
    """Play by `choose(legal, seat) -> index` for at most `limit` moves, checking only `name`.

    Returns (moves, error) when `name` fails, else None."""
    state = game.new_game(players=players, seed=seed)
    moves: list[str] = []
    look = Look(state)
    phase = look.full["phase"]
    try:
        checks.run(look, 0, True, name)
        while not state.is_terminal and len(moves) < limit:
            legal = state.legal_moves()
            if not legal:
                break
            move = legal[choose(legal, state.current_player)].text
            before, before_full = state.clone(), look.full
            moves.append(move)
            state.apply(move)
            look = Look(state, before, before_full)
            changed, phase = look.full["phase"] != phase, look.full["phase"]
            checks.run(look, len(moves), changed, name)
        if state.is_terminal:
            checks.at_end(Look(state), name)
    except InvariantError as error:
        if error.invariant == name:
            return moves, error
    except Exception:   # noqa: BLE001 - another failure on the way is not the one being shrunk
        return None
    return None


def shrink_with_hypothesis(game, players: int, seed: int, moves: list[str], name: str, checks,
                           *, seconds: float = TIME_BUDGET, max_examples: int = MAX_EXAMPLES):
    """The shortest (moves, error) Hypothesis finds that breaks `name` in at most
    `len(moves)` moves, or None (no Hypothesis, or nothing found in time)."""
    if not available():
        return None
    from hypothesis import HealthCheck, Phase, Verbosity, find, settings
    from hypothesis import strategies as st
    from hypothesis.errors import HypothesisException

    deadline = time.perf_counter() + seconds
    best: list = [None]

    def search(policies):
        limit = len(best[0][0]) if best[0] is not None else len(moves)

        @st.composite
        def games(draw):
            if time.perf_counter() > deadline:
                raise _OutOfTime
            state_of: dict = {}

            def choose(legal, seat) -> int:
                kind = legal[0].kind
                if (seat, kind) not in state_of:
                    state_of[seat, kind] = draw(st.booleans()) if policies is None else policies
                index = draw(st.integers(min_value=0, max_value=len(legal) - 1))
                return len(legal) - 1 - index if state_of.get((seat, kind)) else index
            found = play_choices(game, players, seed, choose, limit, checks, name)
            if found is not None and (best[0] is None or len(found[0]) < len(best[0][0])):
                best[0] = found
            return found
        return games()

    options = settings(max_examples=max_examples, database=None, deadline=None, derandomize=True,
                       suppress_health_check=list(HealthCheck), phases=[Phase.generate, Phase.shrink],
                       verbosity=Verbosity.quiet, report_multiple_bugs=False)
    for policies in (False, True, None):       # all from the front, all from the back, drawn
        try:
            find(search(policies), lambda found: found is not None, settings=options)
        except (_OutOfTime, HypothesisException):
            continue            # out of time, or nothing found this way: keep the best so far
        if time.perf_counter() > deadline:
            break
    return best[0]
