"""`check_rules`: random games under every invariant, and the shortest failing move list.

Pipeline place: invariants, schedule → **runner** → report. Each game starts from a seed
and plays random legal moves (the moves of `state.playout` from the same seed). By default
the invariants run on `schedule`'s plan, which keeps a check at a few times plain play:
quick forms read from the state's own fields after every move (the invariant itself, from
the views, wherever a quick form cannot vouch), your own invariants after every move, the
view-based and the costly invariants when their credit of decisions comes due (turning
over phases and seats from the seed), and in some games, once over, a replay by
`state.playout` and a restore with the move list.

With `thorough=True` every invariant runs on every move, for every seat, and every game
ends with a replay and a restore. A failure is then shrunk: cut to the move that first
breaks the invariant (now checked on every move), then searched by Hypothesis
(`shrinking`, when installed) and by rulekit's own passes: deleting moves and trying other
random continuations while the same invariant still fails.
"""
from __future__ import annotations

import random
import time

from ..errors import IllegalMoveError
from ..engine.history import count
from . import invariants as inv
from . import quick
from .custom import as_checks
from .invariants import InvariantError, Look
from .report import Failure, Report
from .schedule import COUNT_EVERY, LazyLook, Past, Plan, describe, run_quick, view_checks
from .shrinking import shrink_with_hypothesis

#: Moves replayed while shrinking one failure, at most.
SHRINK_BUDGET = 60_000

ENGINE = "runs_without_errors"


class _Checks:
    """Which invariants run after a move, and how thoroughly (see `schedule`)."""

    def __init__(self, game, max_rounds, thorough: bool, extra=(), skip=()):
        self.game, self.max_rounds, self.thorough, self.extra = game, max_rounds, thorough, as_checks(extra)
        self.skip = frozenset(skip)
        self.count = 0          # invariant checks run so far (the summary's "invariants checked")
        self.new_game()

    def new_game(self, seed: int = 0) -> None:
        self.plan = Plan(seed)

    def run(self, look: Look, index: int, phase_changed: bool, only: str | None = None) -> None:
        """The checks due after move number `index`: every one with `thorough` (or when
        replaying for one invariant, `only`), else those of the default schedule."""
        if not self.thorough and only is None:
            self._scheduled(look, index, phase_changed)
            return
        rng = random.Random(index)
        for name, check in self._checks(look, rng):
            if (only is None or only == name) and name not in self.skip:
                self.count += 1
                _guarded(name, check)

    def _scheduled(self, look: Look, index: int, phase_changed: bool) -> None:
        st, plan = look.state, self.plan
        if plan.rules is not st.rules:
            plan.setup(st)
        if type(look) is not LazyLook:          # a state machine's look: it has the state before
            look.quick_before = quick.Before(look.before) if look.before is not None and look.one_step() \
                else None
            look.legal = None
        qb = look.quick_before
        round_ended = qb is not None and (st.round != qb.round or st.is_terminal != qb.is_terminal)
        trick_done = qb is not None and st.tricks_played != qb.tricks_played
        light, heavy = plan.due(st, index, phase_changed, round_ended, trick_done)
        seats = [plan.heavy_seat(st.n)] if heavy else None
        rng = random.Random(index) if heavy else None
        skip = self.skip
        run_quick(self, look, light, phase_changed or round_ended or trick_done or index % COUNT_EVERY == 0)
        if light or heavy:
            for name, check in view_checks(self, look, light, heavy, seats, rng):
                if name not in skip:
                    self.count += 1
                    _guarded(name, check)
        for check in self.extra:
            self.count += 1
            _guarded(getattr(check, "__name__", "invariant"), lambda: check(look.state, look.before))

    def _checks(self, look, rng):
        """Every invariant, for every seat (the thorough schedule)."""
        yield "cards_conserved", lambda: inv._cards_conserved(look)
        yield "one_seat_to_move", lambda: inv._one_seat_to_move(look)
        yield "legal_moves_until_end", lambda: inv._legal_moves_until_end(look, None)
        yield "one_trick_winner", lambda: inv._one_trick_winner(look)
        yield "scores_change_by_rules", lambda: inv._scores_change_by_rules(look)
        yield "ends_within_bound", lambda: inv._ends_within_bound(look, self.max_rounds)
        yield "illegal_move_changes_nothing", lambda: inv._illegal_move_changes_nothing(look, 12, rng)
        yield "restore_round_trips", lambda: inv._restore_round_trips(look, self.game, 1, True)
        yield "views_hide_hidden_information", lambda: inv._views_hide(look, None, rng, self.game)
        for check in self.extra:
            yield getattr(check, "__name__", "invariant"), lambda c=check: c(look.state, look.before)

    def at_end(self, look: Look, only: str | None = None, playout_seed: int | None = None) -> None:
        """Once a game is over: the whole game replays, and restores with its move list.
        With `playout_seed` (the default schedule: in the games whose turn it is, see
        `schedule.Plan`), the replay is the same seed played again by
        `state.playout(playout_seed)`: the game just checked was its replay."""
        scheduled = playout_seed is not None and only is None and not self.thorough
        if scheduled and not self.plan.full_end(count(look.state)):
            return
        if only in (None, "replay_is_identical") and "replay_is_identical" not in self.skip:
            self.count += 1
            if scheduled:
                played_again(look, self.game, playout_seed)
            else:
                _guarded("replay_is_identical", lambda: inv._replay_is_identical(look, self.game))
        if only in (None, "restore_round_trips") and "restore_round_trips" not in self.skip:
            self.count += 1
            _guarded("restore_round_trips", lambda: inv._restore_round_trips(look, self.game, 1, True))


def played_again(look: Look, game, playout_seed: int) -> None:
    """`replay_is_identical` for a game of random moves from `playout_seed`: a new game of
    the same seed, played by `state.playout(playout_seed)` (the same random choices inside
    the engine), makes the same moves and ends in the same state."""
    st = look.state
    try:
        again = inv.fresh(st, game)
        again.playout(seed=playout_seed)
    except Exception as error:   # noqa: BLE001 - the engine failing where the API did not is a finding
        raise InvariantError(ENGINE, f"state.playout(seed={playout_seed}) from the same seed raises "
                                     f"{_describe(error)}, where the same moves through apply() do not") from error
    mine, theirs = st.history, again.history
    if mine != theirs:
        k = next((i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b), min(len(mine), len(theirs)))
        there = repr(theirs[k]) if k < len(theirs) else "the end of the game"
        here = repr(mine[k]) if k < len(mine) else "the end of the game"
        _guarded("replay_is_identical", lambda: inv._fail(
            "replay_is_identical", f"the same seed and random choices give another game: move {k + 1} is "
                                   f"{there} in state.playout(seed={playout_seed}), {here} here"))
    view, full = again.view(), st.view()
    if view != full:
        _guarded("replay_is_identical", lambda: inv._fail(
            "replay_is_identical", f"replaying the same {len(mine)} moves from seed {st.seed} gives a "
                                   f"different game: {inv._diff(full, view)}"))


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


_describe = describe


class _Outcome:
    """One game played: its moves, whether it finished, and what failed."""

    def __init__(self):
        self.moves: list[str] = []
        self.finished = False
        self.failed: InvariantError | None = None
        self.rounds: list[dict] = []        # each finished round's `last_round` record
        self.winners: list[int] = []


def play_checked(game, players: int, seed: int, checks: _Checks, moves=None, only=None) -> _Outcome:
    """Play one game (random moves from `seed`, or the given `moves`), checking after each move."""
    out = _Outcome()
    checks.new_game(seed)
    playout_seed = seed * 1_000_003 + players
    rng = random.Random(playout_seed)
    try:
        state = game.new_game(players=players, seed=seed)
    except Exception as error:   # noqa: BLE001 - a game that cannot start is a finding
        out.failed = InvariantError(ENGINE, f"new_game raises {_describe(error)}")
        return out
    try:
        if checks.thorough or only is not None:
            _walk_thorough(state, rng, moves, checks, out, only)
        else:
            _walk(state, rng, moves, checks, out)
        if state.is_terminal:
            out.finished = True
            out.winners = list(state.winners)
            checks.at_end(Look(state), only, playout_seed if moves is None else None)
    except InvariantError as error:
        out.failed = error
    except IllegalMoveError:
        out.moves = None        # a replayed candidate whose moves stop being legal
    return out


def _walk(state, rng: random.Random, moves, checks: _Checks, out: _Outcome) -> None:
    """The default schedule: quick checks after every move, the others as they fall due;
    the state before a move is made again only when a check reads it (`Past`). One
    `Before` and one look serve every move, so that checking makes little garbage."""
    past = Past(state, 1 if checks.extra else None)     # your own invariants read the state before every move
    look = LazyLook(state, None, None)
    phase = state._step
    checks.run(look, 0, True)
    before = quick.Before(state)
    legal, look = look.legal, LazyLook(state, past, before)
    while not state.is_terminal if moves is None else len(out.moves) < len(moves):
        if moves is None:
            if legal is None:
                legal = state.legal_moves()
            if not legal:
                break
            move = text = rng.choice(legal).text     # as a replay gives it: the text
        else:
            move = text = moves[len(out.moves)]
        before.take(state)
        last_round = state.last_round
        past.moving(state)
        out.moves.append(text)          # first, so that a move that crashes is in the replay
        _apply(state, move)
        past.moved(move)
        if state.last_round is not last_round and state.last_round is not None:
            out.rounds.append(state.last_round)
        look.renew()
        changed, phase = state._step != phase, state._step
        checks.run(look, len(out.moves), changed)
        legal = look.legal


def _walk_thorough(state, rng: random.Random, moves, checks: _Checks, out: _Outcome, only) -> None:
    """Every invariant (or `only` one) after every move, with a copy of the state before each."""
    look = Look(state)
    phase = state._step
    checks.run(look, 0, True, only)
    while not state.is_terminal if moves is None else len(out.moves) < len(moves):
        move = _next_move(state, rng) if moves is None else moves[len(out.moves)]
        if move is None:
            break
        before, before_full = state.clone(), look._full
        out.moves.append(move)          # first, so that a move that crashes is in the replay
        _apply(state, move)
        if state.last_round is not before.last_round and state.last_round is not None:
            out.rounds.append(state.last_round)
        look = Look(state, before, before_full)
        changed, phase = state._step != phase, state._step
        checks.run(look, len(out.moves), changed, only)


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


def check_rules(game, games: int | None = 200, seed: int = 0, players=None, progress=None, *,
                budget: float | None = None, decisions: int | None = None, max_rounds: int | None = None,
                thorough: bool = False, invariants=(), skip=(), shrink: bool = True) -> Report:
    """Play random games of `game` under every invariant (and your own) and report.

    `games`: games per player count (None: as many as `budget` allows). `budget`: seconds
    to spend playing, spread evenly over the player counts (None: no limit); `decisions` a
    budget in decisions instead (every count plays at least one game). `players`: one
    count, a list, or None for every count the game allows. `progress(done, total)` is
    called as games finish (`total` is the most games that will be played). `max_rounds`
    caps games whose rules give no bound (default `DEFAULT_MAX_ROUNDS`); `thorough` runs the
    costly invariants on every move and for every seat; `invariants` adds your own checks
    (functions marked `@invariant`, or any `f(state)` / `f(state, before)` raising
    `AssertionError`); `skip` names invariants not to check (a known problem being fixed).
    Each player count stops at its first failing game, which is shrunk to the shortest
    failing move list found (with Hypothesis when it is installed, then by rulekit's own
    passes).
    """
    campaign = Campaign([game], players, games=games, budget=budget, decisions=decisions, seed=seed,
                        max_rounds=max_rounds,
                        thorough=thorough, invariants=invariants, skip=skip, shrink=shrink)
    [report] = campaign.run(progress)
    return report


class Campaign:
    """Random games over several `Game`s (a file and its variants) and their player counts,
    taken in turn, so that a time budget is shared fairly; one `Report` per game."""

    def __init__(self, games_, players=None, *, games: int | None = 200, budget: float | None = None,
                 decisions: int | None = None, seed: int = 0, max_rounds=None, thorough=False, invariants=(),
                 skip=(), shrink=True, clock=time.perf_counter):
        if games is None and budget is None and decisions is None:
            raise ValueError("give a number of games, a budget in seconds or decisions, or both")
        self.decisions = decisions
        unknown = set(skip) - _SHRINKABLE
        if unknown:
            raise ValueError(f"no invariant {sorted(unknown)[0]!r}; invariants: {', '.join(sorted(_SHRINKABLE))}")
        self.games, self.budget, self.seed, self.shrink, self.clock = games, budget, seed, shrink, clock
        self.checks = [_Checks(g, max_rounds, thorough, invariants, skip) for g in games_]
        self.reports = [Report(g.name, _counts(g, players), variants=tuple(g.selected)) for g in games_]
        self.plan = [(i, count) for i, report in enumerate(self.reports) for count in report.players]

    def total(self) -> int | None:
        return None if self.games is None else self.games * len(self.plan)

    def run(self, progress=None) -> list[Report]:
        started = self.clock()
        deadline = self._deadline = None if self.budget is None else started + self.budget
        self._shrunk: set[str] = set()
        played = {key: 0 for key in self.plan}
        open_ = list(self.plan)
        done = 0
        while open_:
            for key in list(open_):
                if done >= len(self.plan) and self._spent(deadline):
                    open_ = []
                    break
                if not self._play_one(key, played[key]) or (self.games is not None and played[key] + 1 >= self.games):
                    open_.remove(key)
                played[key] += 1
                done += 1
                if progress:
                    progress(done, self.total() if self.games is not None else None)
        elapsed = self.clock() - started
        for report, checks in zip(self.reports, self.checks):
            report.seconds = elapsed
            report.invariants_checked = checks.count
        return self.reports

    def _spent(self, deadline) -> bool:
        if deadline is not None and self.clock() >= deadline:
            return True
        return self.decisions is not None and sum(r.decisions for r in self.reports) >= self.decisions

    def _play_one(self, key, offset: int) -> bool:
        """Play game number `offset` of one (game, player count); False once it failed."""
        index, count = key
        report, checks = self.reports[index], self.checks[index]
        game, seed = checks.game, self.seed + offset
        out = self.play(key, offset, game, count, seed, checks)
        report.add_game(len(out.moves), out.finished and out.failed is None, players=count,
                        rounds=out.rounds, winners=out.winners)
        if out.failed is None:
            return True
        report.failures.append(_failure(game, count, seed, out, checks, self._shrink_how(out.failed)))
        return False

    def _shrink_how(self, error: InvariantError):
        """Search each invariant's first failure of the run; cut the others, and any failure
        once the time budget is spent: the report shows each fault's shortest replay."""
        if not self.shrink:
            return False
        first = error.invariant not in self._shrunk
        self._shrunk.add(error.invariant)
        late = self._deadline is not None and self.clock() >= self._deadline
        return True if first and not late else "cut"


    def play(self, key, offset: int, game, players: int, seed: int, checks: _Checks) -> _Outcome:
        """Game number `offset` of `key`, played here (`rulekit.cluster` plays it elsewhere)."""
        return play_checked(game, players, seed, checks)


def _counts(game, players) -> list[int]:
    if players is None:
        return list(game.players)
    return [game.checked_players(count) for count in ([players] if isinstance(players, int) else players)]


def _failure(game, players: int, seed: int, out: _Outcome, checks: _Checks, shrink) -> Failure:
    """The failure of one game; `shrink` is True, False or "cut" (only cut to the first
    failing move: for a fault already shrunk in this run, or once the time budget is spent)."""
    error = out.failed
    moves = list(out.moves)
    if shrink:
        moves, error = shrink_failure(game, players, seed, moves, error, checks,
                                      search=shrink != "cut")
    return Failure(error.invariant, error.message, players, seed, moves, game.name, tuple(game.selected),
                   kind=failure_kind(error.invariant, error.message), found_moves=len(out.moves))


def failure_kind(invariant: str, message: str) -> str:
    """`"never ends"`, `"engine error"` or `"invariant"` (see `rulekit.replay.KINDS`)."""
    if invariant == "ends_within_bound" and ("nothing has ended it" in message or "cap of" in message
                                             or "never ends" in message):
        return "never ends"
    return "engine error" if invariant == ENGINE else "invariant"


class _Budget:
    def __init__(self, moves: int):
        self.left = moves

    def spend(self, moves: int) -> bool:
        self.left -= moves
        return self.left >= 0


def shrink_failure(game, players: int, seed: int, moves: list[str], error: InvariantError,
                   checks: _Checks, budget: int = SHRINK_BUDGET, search: bool = True):
    """The shortest move list found that still breaks `error.invariant`, and its error
    (with `search=False`, only cut to the move that first breaks it)."""
    name = error.invariant
    if name not in _SHRINKABLE and not any(getattr(c, "__name__", "") == name for c in checks.extra):
        return moves, error
    spend = _Budget(budget // 8 if name in _COSTLY else budget)
    best, best_error = moves, error
    tried = _fails(game, players, seed, best, name, checks, spend)
    if tried:
        best, best_error = tried
    if not search or failure_kind(name, best_error.message) == "never ends":
        return best, best_error
    found = shrink_with_hypothesis(game, players, seed, best, name, checks)
    if found is not None:
        spend.left //= 4                    # Hypothesis did the searching: only polish what it found
        if len(found[0]) < len(best):
            best, best_error = found
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


def assert_sound(game, games: int | None = 20, *, players=None, seed: int = 0, budget: float | None = None,
                 invariants=(), skip=(), thorough: bool = False, max_rounds: int | None = None,
                 variant=None) -> Report:
    """`check_rules` for pytest: raise `AssertionError` whose message is the readable report
    (each failure with its seed, moves and replay) unless every invariant holds; else
    return the `Report`.

    `game` is a `Game`, or a bundled name or rule file path (loaded with `variant`); the
    other arguments are `check_rules`'s. Needs no Hypothesis."""
    source = None
    if not hasattr(game, "new_game"):
        from ..api import load
        source = str(game)
        game = load(source, variant=variant)
    report = check_rules(game, games=games, seed=seed, players=players, budget=budget, invariants=invariants,
                         skip=skip, thorough=thorough, max_rounds=max_rounds)
    for failure in report.failures:
        failure.source = failure.source or source
    if not report.ok:
        raise AssertionError(str(report))
    return report
