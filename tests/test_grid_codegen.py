"""The generated grid round (compile/codegen_grid.py): choosing, placing, sliding and moving
cards written into the state's `legal_moves` and `apply`, and the rest of a round after its
last placement (the draws, `end_round`, the next round's choosing) in one generated function,
must leave every state exactly as the engine's steps and `State.advance` do: compared move by
move with the generator switched off, on Duell and on two placement games made for these
tests (tests/grid_games/: other board sizes, orthogonal placement, lowest first, a token that
stays, slides into rows or columns only, moves of any other card or of a kind of card, two
draws a round, a draft)."""
from __future__ import annotations

import pickle
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import rulekit
from rulekit.compile import codegen
from rulekit.engine import grid_steps

from codegen_check import assert_only_generator_names
from lockstep import play_in_lockstep
from public_loop import assert_playout_makes_the_public_loop_moves
from rulekit.errors import IllegalMoveError
from test_codegen import GAMES, _players, _reference
from test_grid import boards

HERE = Path(__file__).resolve().parent
MADE = [str(p) for p in sorted((HERE / "grid_games").glob("*.rules"))]
GRID = [(p, v) for p, v in GAMES if rulekit.load(p, variant=v).ruleset(_players(rulekit.load(p, variant=v))).grid is not None]
GRID += [(p, v) for p in MADE for v in [None, *rulekit.load(p).variants]]
GRID_IDS = [f"{Path(p).stem}-{v or 'base'}" for p, v in GRID]


def _same(ours, theirs) -> None:
    assert (ours._step, ours.current_player, ours.round, ours.is_terminal) == \
        (theirs._step, theirs.current_player, theirs.round, theirs.is_terminal)
    assert type(ours._at).__name__.startswith(("Grid", type(theirs._at).__name__)) or ours._at is None
    assert ours.view() == theirs.view()
    assert ours.last_round == theirs.last_round and ours.history == theirs.history


def play_alike(generated, reference, players: int, seed: int, seen=None):
    """One seeded random game in the generated steps and in the hand-written ones, the same
    pick at each decision: the legal lists and the states must stay the same after every
    move (`seen(move)` is told each move picked). Returns the two final states."""
    ours, theirs = generated.new_game(players, seed=seed), reference.new_game(players, seed=seed)
    rng = random.Random(seed)
    _same(ours, theirs)
    while not theirs.is_terminal:
        legal = theirs.legal_moves()
        pick = rng.randrange(len(legal))
        mine = ours.legal_moves()
        assert [m.text for m in mine] == [m.text for m in legal]
        ours.apply(mine[pick])
        theirs.apply(legal[pick])
        if seen is not None:
            seen(legal[pick])
        _same(ours, theirs)
    return ours, theirs


def test_there_is_a_grid_game_with_a_generated_round_tail():
    source = codegen.source_of(rulekit.load("duell-der-tiere").ruleset(2))
    # the tail holds the generated end of the round, each seat's draw and entry written out
    tail = source[source.index("def after_placing_"):]
    tail = tail[:tail.index("\ndef ") if "\ndef " in tail else tail.index("\nclass ")]
    assert "hands[1] |= 1 << deck.pop(0)" in tail and "st._last_round = st.round" in tail
    assert "if hands[1]:\n        st.current_player = 1" in tail and "range(" not in tail


class _Recorder:
    """Rules standing in for a game's own: each round end they are asked for is kept."""

    def __init__(self, rules):
        self.rules, self.ends = rules, []

    def __getattr__(self, name):
        return getattr(self.rules, name)

    def end_round(self, st):
        self.ends.append(st.round)
        return self.rules.end_round(st)


def test_rules_standing_in_for_the_games_are_asked_for_each_round_end_the_tail_makes():
    game = rulekit.load("duell-der-tiere")
    for seed in range(4):
        ours, theirs = game.new_game(2, seed=seed), game.new_game(2, seed=seed)
        ours.rules = recorder = _Recorder(theirs.rules)
        rng = random.Random(seed)
        while not theirs.is_terminal:
            pick = rng.randrange(len(theirs.legal_moves()))
            ours.apply(ours.legal_moves()[pick])
            theirs.apply(theirs.legal_moves()[pick])
            assert ours.view() == theirs.view() and ours.last_round == theirs.last_round
        assert recorder.ends == list(range(1, theirs.round + 1))


def test_the_games_made_for_these_tests_have_every_kind_of_grid_move():
    kinds = set()
    for path in MADE:
        game = rulekit.load(path)
        for seed in range(10):
            state = game.new_game(2, seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal:
                legal = state.legal_moves()
                kinds |= {(m.kind, " at " in m.text and m.kind == "move") for m in legal}
                state.apply(rng.choice(legal))
    # a moved card told apart by its place: `move sun at 0,1 to 1,1`
    assert kinds == {("choose", False), ("place", False), ("slide", False), ("move", False), ("move", True)}


@pytest.mark.parametrize("path,variant", GRID, ids=GRID_IDS)
def test_the_generated_grid_module_holds_only_generator_names(path, variant):
    game = rulekit.load(path, variant=variant)
    source = codegen.source_of(game.ruleset(_players(game)))
    assert_only_generator_names(source)
    assert "def place_legal_" in source and "def after_placing_" in source
    # the placing state's `legal_moves` is the place list itself: one call per list
    assert re.search(r"\n    legal_moves = place_legal_\d+\n", source)


def test_a_placing_state_lists_another_seat_s_moves_as_the_engine_does():
    """The place list is the placing state's `legal_moves`: asked for another seat, it
    answers as the engine's state does (nothing: only table play acts out of turn)."""
    from rulekit.engine.state import State
    game = rulekit.load("duell-der-tiere")
    state = game.new_game(2, seed=3)
    while not type(state).__name__.startswith("StateAt") or not state.legal_moves() or \
            state.legal_moves()[0].kind != "place":
        state.apply(state.legal_moves()[0])
    other = 1 - state.current_player
    assert state.legal_moves(other) == State.legal_moves(state, other)
    assert state.legal_moves(state.current_player) == state.legal_moves()


@pytest.mark.parametrize("path,variant", GRID, ids=GRID_IDS)
def test_generated_placing_and_round_ends_step_as_the_engine_does(path, variant, monkeypatch):
    generated = rulekit.load(path, variant=variant)
    reference = _reference(path, variant, monkeypatch)
    players = _players(generated)
    for seed in range(12 if path not in MADE else 30):
        ours, theirs = play_alike(generated, reference, players, seed)
        assert ours.winners == theirs.winners and ours.scores == theirs.scores


@pytest.mark.parametrize("path,variant", GRID, ids=GRID_IDS)
def test_the_generated_shuffle_deals_the_decks_the_engine_deals(path, variant, monkeypatch):
    """`shuffle each deck` written out draws as the engine's `ShuffleDecks` does (one chance
    event's words, each deck by `partial_shuffle`): the same decks for every seed, and the
    same chance events after it; decks too large to write out shuffle through the step."""
    generated = rulekit.load(path, variant=variant)
    reference = _reference(path, variant, monkeypatch)
    players = _players(generated)
    steps = generated.ruleset(players).steps
    assert any(type(s).__name__.startswith("Shuffle") and type(s) is not grid_steps.ShuffleDecks for s in steps)
    for seed in range(200):
        ours, theirs = generated.new_game(players, seed=seed), reference.new_game(players, seed=seed)
        assert ours.extra["grid"].decks == theirs.extra["grid"].decks and ours.hands == theirs.hands
        assert (ours.chance, ours.extra["grid"].tiebreaker) == (theirs.chance, theirs.extra["grid"].tiebreaker)


def test_a_shuffle_of_decks_too_large_to_write_out_is_the_engines(monkeypatch):
    from rulekit.compile import codegen_cache, codegen_grid_tail
    monkeypatch.setattr(codegen_grid_tail, "SHUFFLE_UNROLLED", 0)
    monkeypatch.setattr(codegen_cache, "read", lambda key: None)       # (the cache holds the files' source as it is)
    monkeypatch.setattr(codegen_cache, "write", lambda key, entry: None)
    path = GRID[0][0]
    game = rulekit.loads(Path(path).read_text(), file=path, base_dir=str(Path(path).parent))
    steps = game.ruleset(_players(game)).steps
    assert any(type(s) is grid_steps.ShuffleDecks for s in steps)
    assert "class Shuffle" not in codegen.source_of(game.ruleset(_players(game)))
    reference = _reference(path, None, monkeypatch)
    for seed in range(20):
        ours, theirs = game.new_game(_players(game), seed=seed), reference.new_game(_players(game), seed=seed)
        assert ours.extra["grid"].decks == theirs.extra["grid"].decks and ours.hands == theirs.hands


@pytest.mark.parametrize("path,variant", GRID, ids=GRID_IDS)
def test_an_illegal_grid_move_changes_nothing(path, variant):
    """A move of another position (the same text elsewhere, a stale list's move), a move
    object of another kind and text that is no move are refused, and the state stays."""
    game = rulekit.load(path, variant=variant)
    players = _players(game)
    for seed in range(4):
        state, rng, stale = game.new_game(players, seed=seed), random.Random(seed), []
        while not state.is_terminal:
            legal = state.legal_moves()
            texts = {m.text for m in legal}
            before = (state.view(), state.history)
            for bad in [m for m in stale if m.text not in texts][:3] + [object(), "place nothing at 9,9", 7]:
                with pytest.raises(IllegalMoveError):
                    state.apply(bad)
                assert (state.view(), state.history) == before
            stale = legal
            state.apply(legal[rng.randrange(len(legal))])


SLIDING = """
game "Slides"
players 2
player decks red, blue {{
  sun 1, sun 2, sun 3, sun 4, sun 5, sun 6, sun 7, sun 8
               scores 1
  gust 9       is placed by sliding into a row or column
}}
board {rows}x{cols}, floating, place adjacent{adjacency}
setup {{
  shuffle each deck
  draw 1 each
}}
round {{
  choose a card, simultaneous
  reveal
  place revealed cards, highest number first
  draw 1 each
}}
score at end -> sum(display, own, points)
end when count(display) = {cells}
winner highest score
"""
_SLIDERS: dict = {}


def _generated_slides(rows: int, cols: int, adjacency: int):
    """The board and the generated row and column slide functions of a game on that board."""
    key = (rows, cols, adjacency)
    if key not in _SLIDERS:
        rules = rulekit.loads(SLIDING.format(rows=rows, cols=cols, adjacency=adjacency, cells=rows * cols)).ruleset(2)
        source, bound, _, _ = codegen.generate(rules)
        namespace = {"__name__": "slides", "__builtins__": codegen._BUILTINS, **bound}
        exec(compile(source, "<slides>", "exec"), namespace)
        found = [namespace[name] for name in sorted(namespace) if name.startswith(("row_slides_", "column_slides_"))]
        _SLIDERS[key] = rules.grid.config.board, sorted(found, key=lambda f: not f.__name__.startswith("row"))
    return _SLIDERS[key]


@settings(max_examples=300, deadline=None)
@given(boards(), st.integers(-9, 9), st.integers(-9, 9))
def test_the_generated_slides_are_those_of_the_geometry(board, dr, dc):
    """`row_slides_N` and `column_slides_N` (the generated slides, on the frame's bits) give
    the slides `grid.slides` defines, through `BitBoard.slides`, wherever the display lies."""
    if board[3]:
        assert_generated_slides_are_the_geometrys(board, dr, dc)


def assert_generated_slides_are_the_geometrys(board, dr, dc) -> None:
    """The generated row and column slides of `board`'s display, moved by (dr, dc) in its
    frame, are those `BitBoard.slides` gives."""
    from rulekit.engine.grid_state import GridState

    rows, cols, adjacency, d = board
    bits, (by_row, by_column) = _generated_slides(rows, cols, adjacency)
    gs = GridState(2, bits)
    gs.load({(r + dr, c + dc): card for (r, c), card in d.items()})
    found = []
    by_row(gs.occ, gs.box, found)
    by_column(gs.occ, gs.box, found)
    assert found == bits.slides(gs.occ, gs.box, "row or column")


@pytest.mark.parametrize("path,variant", GRID, ids=GRID_IDS)
def test_a_grid_playout_makes_the_public_loop_moves(path, variant):
    """`state.playout(seed)` lists each decision's moves through the generated steps (their
    `legal_moves`): the moves are those of the public loop with `random.Random(seed)`."""
    game = rulekit.load(path, variant=variant)
    players = _players(game)
    for seed in range(6):
        assert_playout_makes_the_public_loop_moves(game, players, seed)


@pytest.mark.parametrize("path,variant", GRID, ids=GRID_IDS)
def test_a_grid_state_has_the_class_of_the_step_it_is_at_and_its_copies_play_on_alike(path, variant):
    """Choosing and placing give the state a class of its own (compile/codegen.py), and the
    generated moves from one step to the other give it the next step's at once: whatever
    way it gets there, the class is that of the step it is at, and a clone or a pickle taken
    in either class plays on as the state does."""
    from test_codegen_state import _class_fits

    game = rulekit.load(path, variant=variant)
    players = _players(game)
    seen = set()
    for seed in range(6):
        state, rng = game.new_game(players, seed=seed), random.Random(seed)
        copies = []
        while not state.is_terminal:
            assert _class_fits(state)
            moves = state.legal_moves()
            assert _class_fits(state)
            if type(state) is not state.rules.state_class:
                seen.add(type(state))
            if len(copies) < 4 and rng.random() < 0.2:
                copies.append(state.clone())
                copies.append(pickle.loads(pickle.dumps(state)))
            pick = moves[rng.randrange(len(moves))].text
            for each in [state] + copies:
                each.apply(pick)
            assert _class_fits(state)
        assert type(state) is state.rules.state_class and state.legal_moves() == []
        for each in copies:
            assert each.view() == state.view() and each.history == state.history
    assert len(seen) >= 2          # the two steps' own classes were taken


@pytest.mark.parametrize("path,variant", GRID, ids=GRID_IDS)
def test_the_cells_of_each_kind_of_card_are_those_of_the_display_after_every_move(path, variant):
    """`GridState.kind_cells` is kept as cards come and go (the generated placing, sliding and
    moving write it themselves): after any move, of the state, a clone or a pickle, it holds
    the cells of exactly the display's cards of each kind."""
    game = rulekit.load(path, variant=variant)
    players = _players(game)
    for seed in range(4):
        state, rng = game.new_game(players, seed=seed), random.Random(seed)
        while not state.is_terminal:
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
            for each in (state, state.clone(), pickle.loads(pickle.dumps(state))):
                gs = each.extra["grid"]
                assert gs.kind_cells == [sum(1 << bit for bit, card in gs.at.items() if mask >> card & 1)
                                         for mask in gs.kinds.masks]


@pytest.mark.parametrize("path,variant", GRID, ids=GRID_IDS)
def test_a_grid_round_playout_runs_in_the_generated_walks_and_stops_at_the_round_end(path, variant):
    """Choosing and placing have generated walks (`walk`), so a playout of a grid game plays
    inside generated code; a round's playout, from the start or from the middle of a round
    (a clone), makes the public loop's moves and stops where it stops."""
    game = rulekit.load(path, variant=variant)
    players = _players(game)
    for seed in range(6):
        state = game.new_game(players, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(8)):
            if state.is_terminal:
                break
            state.apply(state.legal_moves()[0])
        while not state.is_terminal:
            if getattr(state._at, "generated_from", None) in (grid_steps.ChooseCard, grid_steps.PlaceCards):
                assert type(state._at).walk is not None
            ours, theirs = state.clone(), state.clone()
            made = ours.playout(seed=seed, round_only=True)
            start, pick = theirs.round, random.Random(seed)
            while not theirs.is_terminal and theirs.round == start:
                moves = theirs.legal_moves()
                theirs.apply(moves[pick.randrange(len(moves))])
            assert ours.history == theirs.history and made == len(theirs.history) - len(state.history)
            assert ours.view() == theirs.view() and ours.round == theirs.round
            state = ours


@pytest.mark.parametrize("span", range(1, 6))
def test_a_folded_pick_reads_the_pattern_of_two_rows_cells(span):
    from rulekit.compile.codegen_grid import _folded
    for width in range(span + 1, 20):
        if not _folded(span, width):
            continue
        mask, divisor = (1 << span) - 1 | ((1 << span) - 1) << width, (1 << width) - (1 << span)
        for a in range(1 << span):
            for b in range(1 << span):
                other = random.Random(a * 64 + b).getrandbits(3 * width) << span & ~mask   # cells the pick leaves
                assert ((a | b << width | other) & mask) % divisor == a | b << span


@pytest.mark.parametrize("path,variant", GRID, ids=GRID_IDS)
def test_the_generated_legal_lists_are_the_engines_move_for_move(path, variant, monkeypatch):
    generated = rulekit.load(path, variant=variant)
    reference = _reference(path, variant, monkeypatch)
    players = _players(generated)
    for seed in range(40):
        ours, theirs = generated.new_game(players, seed=seed), reference.new_game(players, seed=seed)
        play_in_lockstep(ours, theirs, random.Random(seed))
