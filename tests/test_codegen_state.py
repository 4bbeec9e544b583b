"""The generated state classes (rulekit/compile/codegen.py) and the moves that carry their cards.

Issue 16: "Keep the public API and the contract exactly as they are"; the contract
(shared/design/architecture.md): "`apply` of an illegal move raises
`rulekit.IllegalMoveError` ... and leaves the state exactly as it was", "`state.clone()`
independent copy", "`state.apply(move)` a Move or its text". While a generated step decides,
a state has that step's class of its own (its `legal_moves` and `apply` are the step's
alone); these tests hold the state to the class of the step it is at, whatever way it gets
there, and hold a move to the game it came from.
"""
from __future__ import annotations

import pickle
import random

import pytest

import rulekit
from rulekit.engine.moves import CardMove, Move
from rulekit.engine.state import State
from rulekit.errors import IllegalMoveError


def _class_fits(state) -> bool:
    """The state's class is the game's, or (not over) the class of the step it is at."""
    generic = state.rules.state_class
    kind = type(state)
    if kind is generic:
        return True
    return (not state.is_terminal and kind.__base__ is generic
            and f"{type(state._at).__name__})" in kind.__doc__)


@pytest.mark.parametrize("name", ["instinct", "insidious-sevens"])
def test_a_state_always_has_the_class_of_the_step_it_is_at(name):
    game = rulekit.load(name)
    state = game.new_game(4, seed=11)
    rng = random.Random(11)
    seen = set()
    while not state.is_terminal:
        moves = state.legal_moves()
        assert _class_fits(state)
        seen.add(type(state))
        state.apply(moves[rng.randrange(len(moves))])
        assert _class_fits(state)
    assert type(state) is state.rules.state_class and state.legal_moves() == []
    assert len(seen) >= 2           # the steps' own classes were taken


@pytest.mark.parametrize("name", ["instinct", "duell-der-tiere", "examples/plain-whist.rules",
                                  "examples/nomination.rules"])
def test_a_step_with_a_class_of_its_own_gives_it_as_the_state_enters_the_step(name):
    """When a generated step (or the round's end) moves the state into a step that has a class
    of its own, the state takes that class at once: the caller's next call meets the class
    the state keeps for the step (a call site in the caller's loop that saw another class for
    one call would look its method up anew)."""
    game = rulekit.load(name)
    players = 4 if 4 in game.players else game.players[0]
    for seed in range(3):
        state, rng = game.new_game(players, seed=seed), random.Random(seed)
        state.legal_moves()
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_moves()))
            kind = type(state)
            state.legal_moves()
            assert type(state) is kind and _class_fits(state)


def test_a_state_told_to_be_at_another_step_leaves_its_steps_class():
    state = rulekit.load("instinct").new_game(4, seed=3)
    for _ in range(6):
        state.apply(state.legal_moves()[0])
    assert type(state) is not state.rules.state_class          # in the trick step's class
    bid = next(i for i, s in enumerate(state.rules.steps) if s.name == "bid")
    state.step = bid
    assert type(state) is state.rules.state_class
    state.bids = [None] * 4
    state.current_player = 0
    assert [m.text for m in state.legal_moves()][:2] == ["bid 0", "bid 1"]


def test_clones_and_pickles_of_a_state_in_a_steps_class_play_on_alike():
    state = rulekit.load("instinct").new_game(4, seed=5)
    for _ in range(9):
        state.apply(state.legal_moves()[-1])
    copy, unpickled = state.clone(), pickle.loads(pickle.dumps(state))
    assert type(copy) is type(state) and isinstance(unpickled, State)
    for other in (copy, unpickled):
        assert other.view() == state.view()
    rng = random.Random(5)
    while not state.is_terminal:
        moves = [m.text for m in state.legal_moves()]
        assert [m.text for m in copy.legal_moves()] == moves == [m.text for m in unpickled.legal_moves()]
        pick = moves[rng.randrange(len(moves))]
        for each in (state, copy, unpickled):
            each.apply(pick)
    assert copy.view() == state.view() == unpickled.view()


def test_card_moves_carry_their_cards_and_stay_moves():
    state = rulekit.load("instinct").new_game(4, seed=8)
    for _ in range(4):
        state.apply(state.legal_moves()[0])
    move = state.legal_moves()[0]
    assert isinstance(move, CardMove) and isinstance(move, Move)
    assert move.cards >> move.arg & 1 and (move.card == move.arg or move.card == -1)
    again = pickle.loads(pickle.dumps(move))
    assert type(again) is Move and again == move and str(again) == str(move)


def test_a_move_of_another_load_is_played_by_its_text_and_an_illegal_one_changes_nothing():
    one, two = rulekit.load("instinct"), rulekit.load("instinct")
    a, b = one.new_game(4, seed=6), two.new_game(4, seed=6)
    for _ in range(5):
        move = a.legal_moves()[1 % len(a.legal_moves())]
        assert all(m is not move for m in b.legal_moves())      # another table's object
        b.apply(move)
        a.apply(move)
    assert a.view() == b.view()
    # a card move of another game, with a text no legal move has: refused, nothing changed
    other = rulekit.load("insidious-sevens").new_game(4, seed=1)
    while other.legal_moves()[0].kind != "play":
        other.apply(other.legal_moves()[0])
    foreign = [m for m in other.legal_moves() if m.text not in {x.text for x in b.legal_moves()}]
    assert foreign and all(isinstance(m, CardMove) for m in foreign)
    before = b.view()
    for move in foreign:
        with pytest.raises(IllegalMoveError):
            b.apply(move)
        assert b.view() == before


def _reference(path: str):
    """The game as the hand-written steps run it (the generator switched off)."""
    from rulekit.compile import codegen
    was, codegen.ENABLED = codegen.ENABLED, False
    try:
        game = rulekit.load(path)
        for players in game.players:
            game.ruleset(players)
    finally:
        codegen.ENABLED = was
    return game


def test_a_trick_state_takes_the_class_of_its_trump_and_seat_count_and_plays_as_the_reference():
    """A trick step's state class is made per trump and seat count, with their follow and
    strength rows bound in: a round turns a new trump, so one game meets several classes,
    each made once, and plays every move as the hand-written steps do."""
    path = "examples/oh-hell.rules"
    generated, reference = rulekit.load(path), _reference(path)
    classes: dict = {}
    for players, seed in ((3, 1), (4, 2), (5, 3), (4, 4)):
        ours, theirs = generated.new_game(players, seed=seed), reference.new_game(players, seed=seed)
        rng = random.Random(seed)
        while not theirs.is_terminal:
            legal = theirs.legal_moves()
            assert [m.text for m in ours.legal_moves()] == [m.text for m in legal]
            if legal[0].kind == "play":
                assert classes.setdefault((ours.trump, players), type(ours)) is type(ours)
                assert _class_fits(ours) and type(ours) is not ours.rules.state_class
            pick = legal[rng.randrange(len(legal))].text
            ours.apply(pick)
            theirs.apply(pick)
            assert ours.view() == theirs.view()
        assert ours.history == theirs.history
    trumps = {trump for trump, _ in classes}
    assert len(trumps) >= 3 and {n for _, n in classes} == {3, 4, 5}
    assert len(set(classes.values())) == len(classes)        # one class per trump and seat count


class _CountingEnds:
    """Stands in for a rule set (as `rulekit.testing.invariants` does) and counts its round ends."""

    def __init__(self, rules):
        self.rules, self.ends = rules, 0

    def __getattr__(self, name):
        return getattr(self.rules, name)

    def end_round(self, st):
        self.ends += 1
        return self.rules.end_round(st)


def test_a_step_s_own_class_moves_on_as_the_engine_s_loop_does():
    """A step's own class writes out the first turn of `State.advance` (the next step entered;
    after the last step, the round's end read from `st.rules`, as the engine reads it): the
    steps a state is at and every round's end are those of the engine's loop."""
    game = rulekit.load("instinct")
    ours, theirs = game.new_game(4, seed=5), game.new_game(4, seed=5)
    recorder = _CountingEnds(ours.rules)
    ours.rules = recorder
    rng = random.Random(5)
    while not theirs.is_terminal:
        move = theirs.legal_moves()[rng.randrange(len(theirs.legal_moves()))]
        ours.apply(move)
        theirs.__class__ = theirs.rules.state_class       # the engine's own `advance`, below
        State.apply(theirs, move)
        assert (ours._step, ours._at, ours.current_player) == (theirs._step, theirs._at, theirs.current_player)
    assert ours.is_terminal and recorder.ends == theirs.round and ours.view() == theirs.view()


def test_a_trick_state_of_each_written_seat_count_has_that_count_s_apply():
    """The trick's own class, made per seat count, holds the full trick of its count read card
    by card (codegen_tricks.UNROLLED), no test of the count per move; more seats, a loop."""
    from rulekit.compile import codegen, codegen_tricks
    source = codegen.source_of(rulekit.load("instinct").ruleset(4))
    for n in codegen_tricks.UNROLLED:
        assert f"if len(trick) < {n}:" in source
    assert source.count("def apply(st, move, seat=None):") >= len(codegen_tricks.UNROLLED) + 2
    assert "n == 4:\n                (winner" not in source


def test_a_follow_row_over_several_runs_is_listed_run_by_run():
    """A follow row inside one run is one subscript of the moves cache; a game with a row over
    several runs (euchre's trumps with the left bower) looks the cards up, else lists them run
    by run; a row of every card (a trump led in Instinct) is the whole hand."""
    from rulekit.compile import codegen, codegen_tricks
    runs = (0b1111, 0b1111 << 4)
    follow = ((0, 0b0011, 0b1111 << 4, 0b11 | 1 << 5, 0xFF),)
    assert codegen_tricks._one_run(follow, runs) == ((0, 0b0011, 0b1111 << 4, 0, 0),)
    assert codegen_tricks._spread(follow, runs)
    assert not codegen_tricks._spread(((0, 0b0011, 0xFF),), runs)
    euchre = rulekit.load("examples/games/euchre.rules")
    assert "found = cache_" in codegen.source_of(euchre.ruleset(4)).split("def play")[0]
    assert "follow_one" in codegen.source_of(rulekit.load("instinct").ruleset(4))
