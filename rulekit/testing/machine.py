"""A Hypothesis state machine that plays a game and checks every invariant after each step.

Pipeline place: invariants, strategies → **machine** → your test module. `machine_for(game)`
returns a `unittest.TestCase` class: put it in a test module as
`TestMyGame = machine_for(game)` and pytest runs it. Its steps are: a legal move, a random
text given to `apply` (it must raise `IllegalMoveError` and change nothing, unless it
happens to be legal), and saving and loading the game through `restore(view())`. A
failure shrinks to a short list of steps and prints them.
"""
from __future__ import annotations

import re

from hypothesis import settings as hsettings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

from ..errors import IllegalMoveError
from .invariants import InvariantError, check_all, replay_is_identical
from .strategies import player_counts, seeds

DEFAULT_SETTINGS = hsettings(max_examples=20, stateful_step_count=30, deadline=None)


def machine_for(game, players=None, *, max_rounds: int | None = None, settings=None, skip=()):
    """A `TestCase` class that plays `game` (with `players`, an int, list or None for all)
    by a `RuleBasedStateMachine` and checks every invariant after each step (but those
    named in `skip`). `settings` are Hypothesis settings (default: `DEFAULT_SETTINGS`)."""
    skip = tuple(skip)

    def check(state, before=None):
        check_all(state, before, game=game, max_rounds=max_rounds, replay=False, skip=skip)

    class GameMachine(RuleBasedStateMachine):
        state = None

        @initialize(count=player_counts(game, players), seed=seeds())
        def new_game(self, count, seed):
            self.state = game.new_game(players=count, seed=seed)
            check(self.state)

        @precondition(lambda self: self.state is not None and not self.state.is_terminal)
        @rule(data=st.data())
        def play(self, data):
            legal = self.state.legal_moves()
            move = data.draw(st.sampled_from(legal), label="move")
            before = self.state.clone()
            self.state.apply(move)
            check(self.state, before)

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
            check(self.state, before)

        @precondition(lambda self: self.state is not None)
        @rule()
        def save_and_load(self):
            self.state = game.restore(self.state.view())
            check(self.state)

        def teardown(self):
            if self.state is not None and "replay_is_identical" not in skip:
                replay_is_identical(self.state, game=game)

    name = re.sub(r"\W", "", game.title.title()) or "Game"
    GameMachine.__name__ = GameMachine.__qualname__ = f"{name}Machine"
    case = GameMachine.TestCase
    case.settings = settings or DEFAULT_SETTINGS
    return case
