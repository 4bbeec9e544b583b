"""A Hypothesis state machine that plays a game and checks the invariants after each step.

Pipeline place: invariants, strategies → **machine** → your test module. `machine_for(game)`
returns a `unittest.TestCase` class: put it in a test module as
`TestMyGame = machine_for(game)` and pytest runs it. Its steps are: a few legal moves,
random legal moves to the end of the round (so that round-end scoring is exercised), a
random text given to `apply` (it must raise `IllegalMoveError` and change nothing, unless it
happens to be legal), and saving and loading the game through `restore(view())`. After each
move the invariants run on `check_rules`'s schedule (your own ones after every move), and at
the end the whole game must replay. By default a run has steps enough to finish a round
by single moves too. A failure shrinks to a short list of steps;
Hypothesis prints them with the seed and the moves (`note`).
"""
from __future__ import annotations

import random
import re

from hypothesis import note
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

from ..errors import IllegalMoveError
from .invariants import InvariantError, Look, replay_is_identical
from .runner import _Checks, _guarded
from .strategies import player_counts, seeds

#: Examples a machine runs unless told otherwise.
MAX_EXAMPLES = 20
#: Most legal moves one `play` step makes.
MOVES_PER_STEP = 12
#: Most moves one `play_to_the_end_of_the_round` step makes.
ROUND_MOVES_CAP = 20_000
DEFAULT_SETTINGS = hsettings(max_examples=MAX_EXAMPLES, stateful_step_count=30, deadline=None)


def round_length(game, players=None, seed: int = 0) -> int:
    """Decisions in the first round of a random game (the most players given or allowed)."""
    counts = [players] if isinstance(players, int) else list(players or game.players)
    state = game.new_game(players=max(counts), seed=seed)
    rng, made = random.Random(seed), 0
    while not state.is_terminal and state.round == 1 and made < 100_000:
        legal = state.legal_moves()
        if not legal:
            break
        state.apply(rng.choice(legal))
        made += 1
    return made


def default_steps(game, players=None) -> int:
    """Steps enough to finish a round: play steps make up to `MOVES_PER_STEP` moves, and
    about one step in three is one."""
    return max(30, 6 * round_length(game, players) // MOVES_PER_STEP + 10)


def machine_for(game, players=None, *, invariants=(), max_steps: int | None = None,
                max_examples: int | None = None, max_rounds: int | None = None, settings=None, skip=(),
                thorough: bool = False):
    """A `TestCase` class that plays `game` (with `players`, an int, list or None for all)
    by a `RuleBasedStateMachine` and checks the invariants (but those named in `skip`),
    and your own `invariants` (functions marked `@invariant`), after each move.

    `max_steps` is Hypothesis's `stateful_step_count` (default: enough to finish the first
    round, see `default_steps`, unless `settings` give their own) and `max_examples` the
    number of games (default 20); `settings` are other Hypothesis settings (default: no
    deadline); `thorough` runs every invariant after every move."""
    skip = tuple(skip)
    checks = _Checks(game, max_rounds, thorough, invariants, skip)

    class GameMachine(RuleBasedStateMachine):
        state = None

        def _check(self, before=None, before_full=None, changed=True):
            self.moves += 1
            look = Look(self.state, before, before_full)
            checks.run(look, self.moves, changed)
            return look

        @initialize(count=player_counts(game, players), seed=seeds())
        def new_game(self, count, seed):
            note(f"game.new_game(players={count}, seed={seed})")
            self.state = game.new_game(players=count, seed=seed)
            self.moves = -1
            checks.new_game()
            self._check()

        @precondition(lambda self: self.state is not None and not self.state.is_terminal)
        @rule(data=st.data())
        def play(self, data):
            count = data.draw(st.integers(min_value=1, max_value=MOVES_PER_STEP), label="moves")
            for _ in range(count):
                legal = self.state.legal_moves()
                if self.state.is_terminal or not legal:
                    break
                move = data.draw(st.sampled_from(legal), label="move")
                before, step = self.state.clone(), self.state._step
                self.state.apply(move)
                self._check(before, changed=self.state._step != step)

        @precondition(lambda self: self.state is not None and not self.state.is_terminal)
        @rule(seed=seeds())
        def play_to_the_end_of_the_round(self, seed):
            """Random legal moves (from `seed`) until the round (or the game) ends."""
            rng, start, made = random.Random(seed), self.state.round, 0
            while not self.state.is_terminal and self.state.round == start and made < ROUND_MOVES_CAP:
                legal = self.state.legal_moves()
                if not legal:
                    break
                before, step = self.state.clone(), self.state._step
                self.state.apply(rng.choice(legal))
                self._check(before, changed=self.state._step != step)
                made += 1

        @precondition(lambda self: self.state is not None)
        @rule(text=st.text(max_size=24) | st.sampled_from(["play", "bid", "pass", "bid 99", "play trump"]))
        def type_a_move(self, text):
            before = self.state.clone()
            view = self.state.view()
            try:
                self.state.apply(text)
            except IllegalMoveError:
                if self.state.view() != view:
                    raise InvariantError("illegal_move_changes_nothing",
                                         f"apply({text!r}) raised, but changed the state") from None
                return
            self._check(before)

        @precondition(lambda self: self.state is not None)
        @rule()
        def save_and_load(self):
            self.state = game.restore(self.state.view())
            self._check()

        def teardown(self):
            if self.state is None:
                return
            note(f"moves: {self.state.history!r}")
            if "replay_is_identical" not in skip:
                _guarded("replay_is_identical", lambda: replay_is_identical(self.state, game=game))

    name = re.sub(r"\W", "", game.title.title()) or "Game"
    GameMachine.__name__ = GameMachine.__qualname__ = f"{name}Machine"
    case = GameMachine.TestCase
    chosen = settings if settings is not None else hsettings(max_examples=MAX_EXAMPLES, deadline=None)
    steps = max_steps
    if steps is None:
        steps = chosen.stateful_step_count if settings is not None else default_steps(game, players)
    case.settings = hsettings(chosen, stateful_step_count=steps,
                              max_examples=max_examples if max_examples is not None else chosen.max_examples)
    return case
