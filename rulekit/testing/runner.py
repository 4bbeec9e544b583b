"""`check_rules`: random games under every invariant, and the shortest failing move list.

Pipeline place: invariants → **runner** → report. Each game starts from a seed and plays
random legal moves; after every move the invariants are checked. The cheap ones run on
every state; the ones that restore states or try moves (`restore_round_trips`,
`views_hide_hidden_information`, `illegal_move_changes_nothing`) run whenever the phase
changes, while a secret choice is pending, and every few moves in between (on every move
and for every seat with `thorough=True`), so that hundreds of long games stay quick. A failure is then shrunk: cut to the move that first
breaks the invariant (now checked on every move), then moves are deleted and other random
continuations tried while the same invariant still fails and every move stays legal.
"""
from __future__ import annotations

import random
import traceback

from ..errors import IllegalMoveError
from . import invariants as inv
from .custom import as_checks
from .invariants import InvariantError, Look
from .report import Failure, Report

#: Moves between two runs of the costly invariants, unless the phase changes first or a
#: secret choice is pending.
HEAVY_EVERY = 24
#: Moves replayed while shrinking one failure, at most.
SHRINK_BUDGET = 60_000

ENGINE = "runs_without_errors"


class _Checks:
    """Which invariants run after a move, and how thoroughly."""

    def __init__(self, game, max_rounds, thorough: bool, extra=(), skip=()):
        self.game, self.max_rounds, self.thorough, self.extra = game, max_rounds, thorough, as_checks(extra)
        self.skip = frozenset(skip)

    def run(self, look: Look, index: int, phase_changed: bool, only: str | None = None) -> None:
        thorough = self.thorough or only is not None
        heavy = thorough or phase_changed or index % HEAVY_EVERY == 0 or any(look.full.get("choices") or ())
        seats = None if thorough else [index % look.state.n]
        rng = random.Random(index) if heavy else None
        for name, check in self._checks(look, heavy, thorough, seats, rng):
            if (only is None or only == name) and name not in self.skip:
                _guarded(name, check)

    def _checks(self, look, heavy, thorough, seats, rng):
        yield "cards_conserved", lambda: inv._cards_conserved(look)
        yield "one_seat_to_move", lambda: inv._one_seat_to_move(look)
        yield "legal_moves_until_end", lambda: inv._legal_moves_until_end(look, None if thorough else 1)
        yield "one_trick_winner", lambda: inv._one_trick_winner(look)
        yield "scores_change_by_rules", lambda: inv._scores_change_by_rules(look)
        yield "ends_within_bound", lambda: inv._ends_within_bound(look, self.max_rounds)
        if heavy:
            yield "illegal_move_changes_nothing", lambda: inv._illegal_move_changes_nothing(
                look, 12 if thorough else 4, rng)
            yield "restore_round_trips", lambda: inv._restore_round_trips(look, self.game, 1, thorough)
            yield "views_hide_hidden_information", lambda: inv._views_hide(look, seats, rng, self.game)
        for check in self.extra:
            yield getattr(check, "__name__", "invariant"), lambda c=check: c(look.state, look.before)

    def at_end(self, look: Look, only: str | None = None) -> None:
        """Once a game is over: the whole game replays, and restores with its move list."""
        if only in (None, "replay_is_identical") and "replay_is_identical" not in self.skip:
            _guarded("replay_is_identical", lambda: inv._replay_is_identical(look, self.game))
        if only in (None, "restore_round_trips") and "restore_round_trips" not in self.skip:
            _guarded("restore_round_trips", lambda: inv._restore_round_trips(look, self.game, 1, True))


def _guarded(name: str, check) -> None:
    """Run one check; an unexpected exception inside it is a failure of that invariant."""
    try:
        check()
    except InvariantError:
        raise
    except AssertionError as error:     # a check of your own
        raise InvariantError(name, str(error) or "its assertion fails") from error
    except Exception as error:   # noqa: BLE001 - the engine failing under a check is a finding
        raise InvariantError(name, f"checking it raises {_describe(error)}") from error


def _describe(error: BaseException) -> str:
    frames = traceback.extract_tb(error.__traceback__)
    where = f" (at {frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno} in {frames[-1].name})" \
        if frames else ""
    return f"{type(error).__name__}: {error}{where}"


class _Outcome:
    """One game played: its moves, whether it finished, and what failed."""

    def __init__(self):
        self.moves: list[str] = []
        self.finished = False
        self.failed: InvariantError | None = None


def play_checked(game, players: int, seed: int, checks: _Checks, moves=None, only=None) -> _Outcome:
    """Play one game (random moves from `seed`, or the given `moves`), checking after each move."""
    out = _Outcome()
    rng = random.Random(seed * 1_000_003 + players)
    try:
        state = game.new_game(players=players, seed=seed)
    except Exception as error:   # noqa: BLE001 - a game that cannot start is a finding
        out.failed = InvariantError(ENGINE, f"new_game raises {_describe(error)}")
        return out
    try:
        look = Look(state)
        phase = look.full["phase"]
        checks.run(look, 0, True, only)
        while not state.is_terminal if moves is None else len(out.moves) < len(moves):
            move = _next_move(state, rng) if moves is None else moves[len(out.moves)]
            if move is None:
                break
            before, before_full = state.clone(), look.full
            out.moves.append(move)          # first, so that a move that crashes is in the replay
            _apply(state, move)
            look = Look(state, before, before_full)
            changed, phase = look.full["phase"] != phase, look.full["phase"]
            checks.run(look, len(out.moves), changed, only)
        if state.is_terminal:
            out.finished = True
            checks.at_end(Look(state), only)
    except InvariantError as error:
        out.failed = error
    except IllegalMoveError:
        out.moves = None        # a replayed candidate whose moves stop being legal
    return out


def _next_move(state, rng: random.Random) -> str | None:
    legal = state.legal_moves()
    return rng.choice(legal).text if legal else None


def _apply(state, move: str) -> None:
    try:
        state.apply(move)
    except IllegalMoveError:
        raise
    except Exception as error:   # noqa: BLE001 - the engine failing on a legal move is a finding
        raise InvariantError(ENGINE, f"apply({move!r}) raises {_describe(error)}") from error


def check_rules(game, games: int = 200, seed: int = 0, players=None, progress=None, *,
                max_rounds: int | None = None, thorough: bool = False, invariants=(), skip=(),
                shrink: bool = True) -> Report:
    """Play `games` random games per player count under every invariant and report.

    `players`: one count, a list, or None for every count the game allows. `progress(done,
    total)` is called as games finish. `max_rounds` caps games whose rules give no bound
    (default `DEFAULT_MAX_ROUNDS`); `thorough` runs the costly invariants on every move and
    for every seat; `invariants` adds your own checks `f(state, before)` that raise
    `AssertionError`; `skip` names invariants not to check (a known problem being fixed).
    Each player count stops at its first failing game, which is shrunk to the shortest
    failing move list found.
    """
    counts = _counts(game, players)
    unknown = set(skip) - _SHRINKABLE
    if unknown:
        raise ValueError(f"no invariant {sorted(unknown)[0]!r}; invariants: {', '.join(sorted(_SHRINKABLE))}")
    checks = _Checks(game, max_rounds, thorough, invariants, skip)
    report = Report(game.name, counts, variants=tuple(game.selected))
    total, done = games * len(counts), 0
    for count in counts:
        for offset in range(games):
            out = play_checked(game, count, seed + offset, checks)
            report.add_game(len(out.moves), out.finished and out.failed is None)
            done += 1
            if out.failed is not None:
                report.failures.append(_failure(game, count, seed + offset, out, checks, shrink))
                done += games - offset - 1
                if progress:
                    progress(done, total)
                break
            if progress:
                progress(done, total)
    return report


def _counts(game, players) -> list[int]:
    if players is None:
        return list(game.players)
    counts = [players] if isinstance(players, int) else list(players)
    for count in counts:
        if count not in game.players:
            raise ValueError(f"{game.title} is for {game.players[0]}..{game.players[-1]} players, not {count}")
    return counts


def _failure(game, players: int, seed: int, out: _Outcome, checks: _Checks, shrink: bool) -> Failure:
    error = out.failed
    moves = list(out.moves)
    if shrink:
        moves, error = shrink_failure(game, players, seed, moves, error, checks)
    return Failure(error.invariant, error.message, players, seed, moves, game.name, tuple(game.selected))


class _Budget:
    def __init__(self, moves: int):
        self.left = moves

    def spend(self, moves: int) -> bool:
        self.left -= moves
        return self.left >= 0


def shrink_failure(game, players: int, seed: int, moves: list[str], error: InvariantError,
                   checks: _Checks, budget: int = SHRINK_BUDGET):
    """The shortest move list found that still breaks `error.invariant`, and its error."""
    name = error.invariant
    if name not in _SHRINKABLE and not any(getattr(c, "__name__", "") == name for c in checks.extra):
        return moves, error
    spend = _Budget(budget // 8 if name in _COSTLY else budget)
    best, best_error = moves, error
    tried = _fails(game, players, seed, best, name, checks, spend)
    if tried:
        best, best_error = tried
    if name == "ends_within_bound":
        return best, best_error
    for search in (_delete_chunks, _other_paths):
        found = search(game, players, seed, best, name, checks, spend)
        if found:
            best, best_error = found
    return best, best_error


_SHRINKABLE = {f.__name__ for f in inv.INVARIANTS} | {ENGINE}
_COSTLY = {"restore_round_trips", "views_hide_hidden_information", "illegal_move_changes_nothing",
           "replay_is_identical"}


def _fails(game, players, seed, moves, name, checks, spend, free=False):
    """(moves up to the failure, error) when the moves replay legally and break `name`."""
    if not free and not spend.spend(len(moves) + 1):
        return None
    out = play_checked(game, players, seed, checks, moves=moves, only=name)
    if out.moves is not None and out.failed is not None and out.failed.invariant == name:
        return out.moves, out.failed
    return None


def _delete_chunks(game, players, seed, moves, name, checks, spend):
    """Delete runs of moves, long runs first, while the failure persists."""
    best = None
    size = max(1, len(moves) - 1)           # first: could the last move alone do it?
    while size >= 1 and spend.left > 0:
        start = len(moves) - size - 1
        while start >= 0 and spend.left > 0:
            candidate = moves[:start] + moves[start + size:]
            found = _fails(game, players, seed, candidate, name, checks, spend)
            if found:
                moves, best = found[0], found
                start = min(start, len(moves) - size - 1)
            else:
                start -= 1
        size //= 2
    return best


def _other_paths(game, players, seed, moves, name, checks, spend, tries: int = 24):
    """Keep a prefix, continue with other random moves, and keep any shorter failure."""
    best = None
    rng = random.Random(seed)
    for attempt in range(tries):
        if spend.left <= 0 or len(moves) <= 1:
            break
        keep = rng.randrange(len(moves))
        found = _random_tail(game, players, seed, moves[:keep], len(moves) - 1, name, checks, rng, spend)
        if found and len(found[0]) < len(moves):
            moves, best = found[0], found
    return best


def _random_tail(game, players, seed, prefix, limit, name, checks, rng, spend):
    try:
        state = game.new_game(players=players, seed=seed)
        for move in prefix:
            state.apply(move)
    except Exception:   # noqa: BLE001 - this prefix no longer replays; try another
        return None
    moves = list(prefix)
    while len(moves) < limit and not state.is_terminal:
        move = _next_move(state, rng)
        if move is None:
            break
        moves.append(move)
        try:
            state.apply(move)
        except Exception:   # noqa: BLE001 - replayed and judged by _fails below
            break
    return _fails(game, players, seed, moves, name, checks, spend)
