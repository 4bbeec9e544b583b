"""The default schedule of `rulekit check`: which invariants run after a move, and from what.

Pipeline place: invariants, quick → **schedule** → runner. Checking every invariant from
the views after every move costs a hundred times a move; the default schedule keeps a
check at a few times plain play, and stays deterministic from the game's seed and moves
(so a failure found replays, and `--thorough` finds it again on every move):

- after every move, from the state's own fields (`quick`): one seat to move, a legal move
  for it, one winner per trick, scores changing only by the rules, the game ending within
  its bound, and the cards in exactly one place (counted every `COUNT_EVERY` moves and at
  every phase, trick and round end); and your own invariants. When a quick check cannot
  vouch for a state, the invariant itself runs, from the views.
- the same invariants from the views (`cards_conserved`, `one_seat_to_move`,
  `legal_moves_until_end`, `one_trick_winner`): once every `LIGHT_EVERY` decisions, at the
  next first move of a phase, completed trick or round end.
- the costly ones (`illegal_move_changes_nothing`, `restore_round_trips`,
  `views_hide_hidden_information`, for one seat): once every `HEAVY_EVERY` decisions, in
  the phase and from the seat whose turn it is (`Plan`).
- once a game is over, in a share of the games that grows with their length
  (`END_FIXED`, `END_PER_MOVE`): the same seed played again by `state.playout` must give
  the same moves and the same state (`replay_is_identical`), and `restore` with the move
  list round-trips.
- one game in `FULL_EVERY` by seed runs each of these at its first chance.

The state before a move, which some checks need, is kept as a copy taken every few moves
and the moves since (`Past`): it is made again only when a check asks for it.
"""
from __future__ import annotations

import traceback
from math import isqrt

from ..engine.history import count
from . import invariants as inv
from . import quick
from .invariants import InvariantError, Look

#: Decisions between two runs of the view-based invariants (at the next first move of a
#: phase, completed trick or round end, or at once after twice as many).
LIGHT_EVERY = 150
#: Decisions between two runs of the costly invariants (at the next first move of a phase,
#: trick, round or secret choice, or at once after twice as many).
HEAVY_EVERY = 2000
#: A game of L decisions ends with a replay and a restore with its move list with the
#: chance L / (END_FIXED + END_PER_MOVE * L) (about what those cost, in decisions, over
#: a sixth of the game's own cost), drawn from its seed.
END_FIXED, END_PER_MOVE = 2000, 12
#: One game in this many (by seed, the first of a run among them) runs each kind of check
#: at its first chance, and ends with the replay and the restore.
FULL_EVERY = 16
#: Decisions between two quick counts of the cards, unless a phase, trick or round ends first.
COUNT_EVERY = 4
#: Most decisions between two copies of the state kept for checks that need the state before a move.
COPY_EVERY = 24


class Plan:
    """What is due in one game, from its seed and its moves alone (so that a failure replays).

    Each kind of costly check has a credit that grows by one a decision. The view-based
    invariants run at the next moment that shows something new (a phase's first move, a
    trick or round ending) once their credit reaches `LIGHT_EVERY`; the costly ones at the
    next such moment, or with a secret choice pending, in the phase whose turn it is (the
    phases met so far as the credit draws near, with and without a secret choice pending,
    taken in turn),
    for the seat whose turn it is, once their credit reaches `HEAVY_EVERY`; either at once
    after twice its period. The credits start where the seed puts them, and the turns
    start at the seed: games of consecutive seeds check different moments, phases and
    seats, and one game in `FULL_EVERY` (the first of a run among them) checks everything
    at its first chance."""

    def __init__(self, seed: int = 0):
        self.seed = seed
        full = seed % FULL_EVERY == 0
        self.light = LIGHT_EVERY if full else _spread(seed, 0x9E3779B97F4A7C15, LIGHT_EVERY)
        self.heavy = HEAVY_EVERY if full else _spread(seed, 0xD1B54A32D192ED03, HEAVY_EVERY)
        self.full, self.draw = full, _spread(seed, 0xC2B2AE3D27D4EB4F, 1000)
        self.kinds: list = []       # (step, secret pending) seen at decisions, in the order first seen
        self.heavies = 0            # costly checks run in this game
        self.rules = self.knows = self.per_round = self._bound = None

    def setup(self, st) -> None:
        """What stays the same through a game of these rules and players."""
        self.rules, self.knows = st.rules, quick.knows(st.rules)
        self.per_round, self._bound = inv.decisions_per_round(st.rules, st.n), None

    def bound(self, st, max_rounds) -> int:
        """The round after which the game must have ended (`invariants.round_bound`)."""
        if self._bound is None:
            self._bound = inv.round_bound(st.rules, st.n, max_rounds or inv.DEFAULT_MAX_ROUNDS)
        return self._bound

    def due(self, st, index: int, phase_changed: bool, round_ended: bool, trick_done: bool):
        """(light, heavy) after move number `index`."""
        self.light += 1
        self.heavy += 1
        new = index == 0 or phase_changed or round_ended or trick_done
        light = self.light >= LIGHT_EVERY and (new or self.light >= 2 * LIGHT_EVERY)
        if light:
            self.light = 0
        if st.is_terminal or self.heavy < HEAVY_EVERY // 2:
            return light, False
        secret = any(p is not None for p in st.pending)
        kind = (st._step, secret)
        if kind not in self.kinds:          # the kinds met while the costly checks draw near
            self.kinds.append(kind)
        heavy = self.heavy >= 2 * HEAVY_EVERY or (self.heavy >= HEAVY_EVERY and (new or secret) and
                                                  kind == self.kinds[(self.seed + self.heavies) % len(self.kinds)])
        return light, heavy

    def heavy_seat(self, players: int) -> int:
        """The seat the costly checks look from now, and the next turn taken."""
        turn = self.seed + self.heavies
        self.heavy, self.heavies = 0, self.heavies + 1
        return turn // max(1, len(self.kinds)) % players

    def full_end(self, moves: int) -> bool:
        """True when this game of `moves` decisions ends with a replay and a restore with its move list."""
        return self.full or self.draw * (END_FIXED + END_PER_MOVE * moves) < 1000 * moves


def _spread(seed: int, odd: int, period: int) -> int:
    """A number in 0..period-1 for `seed`: consecutive seeds fall far apart, evenly over
    the range (the fraction of seed * odd / 2**64, as in Fibonacci hashing)."""
    return ((seed * odd) & 0xFFFFFFFFFFFFFFFF) * period >> 64


class Past:
    """The state before the last move, made on demand: a copy now and then, and the moves since.

    How often it copies follows how often a check asks for the state before (about the
    square root of twice the moves between two asks, so that copying and replaying cost
    alike); which copy it starts from changes only the cost: it is always the same state."""

    def __init__(self, state, every: int | None = None):
        self.copy, self.since = state.clone(), []
        self.fixed = every is not None
        self.every = every or 8
        self.moves, self.asked = 0, 0
        self._before = None

    def moving(self, state) -> None:
        """`state` is about to make a move."""
        self._before = None
        self.moves += 1
        if len(self.since) >= self.every:
            self.copy, self.since = state.clone(), []
            if not self.fixed:
                self.every = max(1, min(COPY_EVERY, isqrt(2 * self.moves // (self.asked + 1))))

    def moved(self, move) -> None:
        self.since.append(move)

    def before(self):
        if self._before is None:
            self.asked += 1
            self._before = self._made()
        return self._before

    def _made(self):
        """The state before the last move of `since`."""
        if len(self.since) <= 1:
            return self.copy
        state = self.copy.clone()
        for move in self.since[:-1]:
            state.apply(move)
        self.copy, self.since = state, self.since[-1:]
        return state


class LazyLook(Look):
    """A `Look` whose state before the move is made only when a check reads it."""

    def __init__(self, state, past: Past | None, quick_before: quick.Before | None):   # noqa: D107
        self.state, self._past, self.quick_before = state, past, quick_before
        self._full = self._before_full = self._trace = self.legal = self._seats = None

    def renew(self) -> None:
        """Forget what was seen of the state: it has made a move."""
        self._full = self._before_full = self._trace = self.legal = self._seats = None

    def seat(self, seat: int) -> dict:
        if self._seats is None:
            self._seats = {}
        return super().seat(seat)

    @property
    def before(self):
        return self._past.before() if self._past is not None else None

    @before.setter
    def before(self, value):
        if value is not None:
            raise AttributeError("a LazyLook's before comes from its Past")

    def one_step(self) -> bool:
        return self._past is not None

    @property
    def round_ended(self) -> bool:
        st, before = self.state, self.quick_before
        return st.round != before.round or st.is_terminal != before.is_terminal


def run_quick(checks, look, light: bool, count_cards: bool = True) -> None:
    """The invariants due after every move, in their quick forms where these can vouch for
    the state (the full form runs where they cannot); with `light`, the view-based forms
    of the first four run instead (`view_checks`). Cards are counted when `count_cards`
    (a card lost or doubled stays so: it is found at the next count, and the failure is
    then cut to the move that first breaks it)."""
    qb = look.quick_before
    if checks.skip or light or qb is None:
        _run_quick(checks, look, light, count_cards)
        return
    st, plan = look.state, checks.plan          # the usual move, written out: it is most of them
    name = "cards_conserved"
    try:
        if count_cards and not (plan.knows and quick.cards_conserved(st)):
            inv._cards_conserved(look)
        name = "one_seat_to_move"
        seat, terminal = st.current_player, st.is_terminal
        if (terminal or seat.__class__ is not int or not 0 <= seat < st.n or st.winners) and \
                not quick.one_seat_to_move(st):
            inv._one_seat_to_move(look)
        name = "legal_moves_until_end"
        look.legal = legal = st.legal_moves()
        if bool(legal) == terminal:
            inv._legal_moves_until_end(look, 1)
        name = "one_trick_winner"
        ended = st.round != qb.round or terminal != qb.is_terminal
        if (st.tricks_won != qb.tricks_won or st.tricks_played != qb.tricks_played or (qb.trick and not st.trick)
                or ended) and _trick_moved(st, qb, look):
            after = look.trace.before_scoring if ended else st
            if not quick.one_trick_winner(qb, after):
                inv._one_trick_winner(look)
        name = "scores_change_by_rules"
        if (st.scores != qb.scores or ended) and _scores_moved(st, qb, look):
            inv._scores_change_by_rules(look)
        name = "ends_within_bound"
        bound = plan._bound if plan._bound is not None else plan.bound(st, checks.max_rounds)
        if terminal or st.round > bound or count(st) > st.round * plan.per_round:
            inv._ends_within_bound(look, checks.max_rounds)
    except InvariantError:
        raise
    except Exception as error:   # noqa: BLE001 - the engine failing under a check is a finding
        raise InvariantError(name, f"checking it raises {describe(error)}") from error
    checks.count += 6 if count_cards else 5


def _run_quick(checks, look, light: bool, count_cards: bool) -> None:
    """`run_quick` in general: with invariants skipped, the view-based forms due, or no state before."""
    st, qb, skip, plan = look.state, look.quick_before, checks.skip, checks.plan
    name = "cards_conserved"
    try:
        if not light:
            if count_cards and name not in skip:
                checks.count += 1
                if not (plan.knows and quick.cards_conserved(st)):
                    inv._cards_conserved(look)
            name = "one_seat_to_move"
            if name not in skip:
                checks.count += 1
                if not quick.one_seat_to_move(st):
                    inv._one_seat_to_move(look)
            name = "legal_moves_until_end"
            if name not in skip:
                checks.count += 1
                look.legal = legal = st.legal_moves()
                if bool(legal) == st.is_terminal:
                    inv._legal_moves_until_end(look, 1)
            name = "one_trick_winner"
            if qb is not None and name not in skip:
                checks.count += 1
                if _trick_moved(st, qb, look):
                    after = look.trace.before_scoring if look.round_ended else st
                    if not quick.one_trick_winner(qb, after):
                        inv._one_trick_winner(look)
        name = "scores_change_by_rules"
        if name not in skip:
            checks.count += 1
            if qb is not None and _scores_moved(st, qb, look):
                inv._scores_change_by_rules(look)
        name = "ends_within_bound"
        if name not in skip:
            checks.count += 1
            if st.is_terminal or st.round > plan.bound(st, checks.max_rounds) or \
                    count(st) > st.round * plan.per_round:
                inv._ends_within_bound(look, checks.max_rounds)
    except InvariantError:
        raise
    except Exception as error:   # noqa: BLE001 - the engine failing under a check is a finding
        raise InvariantError(name, f"checking it raises {describe(error)}") from error


def _trick_moved(st, qb, look) -> bool:
    """True when a trick count moved or a trick may have been completed by the last move
    (a round end counts unless the move was no card played to a trick: its counts are
    then those of the round's end before scoring, unchanged)."""
    if st.tricks_won != qb.tricks_won or st.tricks_played != qb.tricks_played or (qb.trick and not st.trick):
        return True
    return look.round_ended and (bool(qb.trick) or _phase(st.rules, qb.step) == "play")


def _phase(rules, step: int) -> str | None:
    steps = rules.steps
    return steps[step].name if 0 <= step < len(steps) else None


def _scores_moved(st, qb, look) -> bool:
    """True unless the scores stayed as they were and no rule could have changed them: no
    round ended, or one ended in a game whose rounds score nothing (`score` is None) and
    that goes on."""
    if st.scores != qb.scores:
        return True
    return look.round_ended and (st.is_terminal or getattr(st.rules, "score", None) is not None)


def describe(error: BaseException) -> str:
    """An exception and where it was raised, for a failure's message."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f" (at {frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno} in {frames[-1].name})" \
        if frames else ""
    return f"{type(error).__name__}: {error}{where}"


def view_checks(checks, look, light: bool, heavy: bool, seats, rng):
    """(name, check) for the view-based invariants due now."""
    if light:
        yield "cards_conserved", lambda: inv._cards_conserved(look)
        yield "one_seat_to_move", lambda: inv._one_seat_to_move(look)
        yield "legal_moves_until_end", lambda: inv._legal_moves_until_end(look, 1)
        if look.quick_before is not None:
            yield "one_trick_winner", lambda: _trick_winner_views(look)
    if heavy:
        yield "illegal_move_changes_nothing", lambda: inv._illegal_move_changes_nothing(look, 4, rng)
        if not look.state.is_terminal:          # at the end, `at_end` restores with the move list
            yield "restore_round_trips", lambda: inv._restore_round_trips(look, checks.game, 1, False)
        yield "views_hide_hidden_information", lambda: inv._views_hide(look, seats, rng, checks.game)


def _trick_winner_views(look) -> None:
    if _trick_moved(look.state, look.quick_before, look):   # else the views would say the same
        inv._one_trick_winner(look)
