"""The generated listings of a grid game (compile/codegen_grid.py) on boards of every shape the
generator treats apart: lines longer than its slide tables (`SHORT_LINE`: the masks worked out
instead) and rows wider than one picker (`grid_moves.SPAN`: picked in parts) give the slides
`grid.slides` defines, and a whole game lists and plays as the engine's steps do; on any
display, anywhere in its frame, the place list and a moved card's moves are the engine's."""
from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from hypothesis import given, settings, strategies as st

import rulekit
from rulekit.compile import codegen, codegen_grid, codegen_grid_slides
from rulekit.engine import grid, grid_moves, grid_steps
from rulekit.engine.grid_state import GridState

from test_grid import boards
from test_grid_codegen import SLIDING, _same, assert_generated_slides_are_the_geometrys

#: (rows, cols): a line longer than the tables each way, a row wider than a picker (18 cells: the cards)
SHAPES = [(2, 9), (9, 2)]
assert all(max(r, c) > codegen_grid_slides.SHORT_LINE and max(r, c) + 1 > grid_moves.SPAN for r, c in SHAPES)


@settings(max_examples=150, deadline=None)
@given(boards(SHAPES, least=1), st.integers(-4, 4), st.integers(-4, 4))
def test_the_generated_slides_of_long_lines_are_those_of_the_geometry(board, dr, dc):
    assert_generated_slides_are_the_geometrys(board, dr, dc)


@pytest.mark.parametrize("rows,cols", SHAPES)
@pytest.mark.parametrize("adjacency", [4, 8])
def test_a_game_on_a_long_board_lists_and_plays_as_the_engine_does(rows, cols, adjacency, monkeypatch):
    text = SLIDING.format(rows=rows, cols=cols, adjacency=adjacency, cells=rows * cols)
    generated = rulekit.loads(text)
    with monkeypatch.context() as patch:
        patch.setattr(codegen, "ENABLED", False)
        reference = rulekit.loads(text)
        reference.ruleset(2)
    assert "def place_legal_" in codegen.source_of(generated.ruleset(2))
    for seed in range(8):
        ours, theirs = generated.new_game(2, seed=seed), reference.new_game(2, seed=seed)
        rng = random.Random(seed)
        while not theirs.is_terminal:
            legal = theirs.legal_moves()
            mine = ours.legal_moves()
            assert [m.text for m in mine] == [m.text for m in legal]
            pick = rng.randrange(len(legal))
            ours.apply(mine[pick])
            theirs.apply(legal[pick])
            _same(ours, theirs)


MOVING = SLIDING.replace("gust 9       is placed by sliding into a row or column",
                         "gust 9       when placed, move one other card")
_MODULES: dict = {}


def _generated(text: str, max_boxes: int):
    """The rule set of a game and its generated module's functions, by name prefix (with at
    most `max_boxes` boxes in one table: none, the window from its parts)."""
    if (text, max_boxes) not in _MODULES:
        kept, grid.MAX_BOXES = grid.MAX_BOXES, max_boxes
        try:
            rules = rulekit.loads(text).ruleset(2)
            source, bound, _, _ = codegen.generate(rules)
        finally:
            grid.MAX_BOXES = kept
        namespace = {"__name__": "listing", "__builtins__": codegen._BUILTINS, **bound}
        exec(compile(source, "<listing>", "exec"), namespace)
        functions = {name.rsplit("_", 1)[0]: fn for name, fn in namespace.items() if callable(fn)}
        _MODULES[text, max_boxes] = rules, functions, source
    return _MODULES[text, max_boxes][:2]


def _position(text, board, dr, dc, max_boxes=grid.MAX_BOXES):
    """A placing step's state on a display of `board` (a sun, card 0, to place), the step, and
    the generated functions."""
    rows, cols, adjacency, d = board
    rules, functions = _generated(text.format(rows=rows, cols=cols, adjacency=adjacency, cells=rows * cols), max_boxes)
    step = next(s for s in rules.steps if isinstance(s, grid_steps.PlaceCards))
    gs = GridState(2, step.board, step.config.kinds)
    gs.load({(r + dr, c + dc): card for (r, c), card in d.items()})
    gs.revealed = [0, None]
    state = SimpleNamespace(extra={"grid": gs}, current_player=0, _legal=None, n=2, hands=[0, 0], rules=rules)
    return state, gs, step, functions


@settings(max_examples=200, deadline=None)
@given(boards(), st.integers(-9, 9), st.integers(-9, 9), st.sampled_from([grid.MAX_BOXES, 0]))
def test_the_generated_place_list_is_the_geometry_s_placements(board, dr, dc, max_boxes):
    """Wherever the display lies in its frame (its box at the interior's corner: the picks start
    in the ring around it), the generated place list is the interned moves of `BitBoard.placements`,
    the box's window from one table or from its parts (a board with more boxes than `MAX_BOXES`)."""
    state, gs, step, functions = _position(SLIDING, board, dr, dc, max_boxes)
    assert ("boxes_" in _MODULES[SLIDING.format(rows=board[0], cols=board[1], adjacency=board[2],
                                               cells=board[0] * board[1]), max_boxes][2]) == (max_boxes > 0)
    if not gs.occ:
        return
    found = functions["place_legal"](state)
    expected = step.places.listed(step.config.texts[0], gs.origin, step.board.placements(gs.occ, gs.box))
    assert found == expected and all(a is b for a, b in zip(found, expected)) and found.free == expected.free


@pytest.mark.parametrize("max_boxes", [grid.MAX_BOXES, 0])
def test_the_window_s_parts_are_written_only_where_read_and_only_for_boxes_in_the_interior(max_boxes):
    """The window's parts (by a box's rows, by its columns) are written only for a board with
    too many boxes for one table, and hold a mask only for a box in the interior: on a large
    board the rest would be a frame-wide mask per pair of frame rows and of frame columns,
    none of it ever read."""
    text = SLIDING.format(rows=3, cols=5, adjacency=8, cells=15)
    rules, _ = _generated(text, max_boxes)
    source = _MODULES[text, max_boxes][2]
    board = next(s for s in rules.steps if isinstance(s, grid_steps.PlaceCards)).board
    names = ("ROWS_WINDOW", "COLS_WINDOW", "ROW_FROM", "ROW_TO", "COL_FROM")
    if max_boxes:
        assert not any(name in source for name in names)
        return
    namespace: dict = {}
    exec("\n".join(line for line in source.splitlines() if line.startswith(names)), namespace)
    rows = next(value for name, value in namespace.items() if name.startswith("ROWS_WINDOW"))
    cols = next(value for name, value in namespace.items() if name.startswith("COLS_WINDOW"))
    assert {at for at, mask in enumerate(rows) if mask} == {r0 * board.height + r1 for r0, r1 in board.spans[0]}
    assert {at for at, mask in enumerate(cols) if mask} == {c0 * board.width + c1 for c0, c1 in board.spans[1]}
    for r0, r1 in board.spans[0]:
        for c0, c1 in board.spans[1]:
            assert rows[r0 * board.height + r1] & cols[c0 * board.width + c1] == board.window((r0, r1, c0, c1))


@settings(max_examples=200, deadline=None)
@given(boards(), st.integers(-9, 9), st.integers(-9, 9), st.sampled_from([grid.MAX_BOXES, 0]))
def test_the_generated_relocations_are_the_geometry_s(board, dr, dc, max_boxes):
    """A placed card that moves one other card: the generated plan and moves are the engine's."""
    rows, cols, adjacency, d = board
    if not d:
        return
    top = max(d.values())           # the last card placed is the mover, gust 9 (card 8)
    d = {pos: 8 if card == top else top if card == 8 else card for pos, card in d.items()}
    state, gs, step, functions = _position(MOVING, (rows, cols, adjacency, d), dr, dc, max_boxes)
    gs.effect = (0, 8, None)
    expected = grid_steps.PlaceCards._plan(step, state, gs)
    gs.effect = (0, 8, None)
    assert [entry[:4] for entry in functions["plan"](state, gs)] == list(expected)
    found = functions["relocations"](state, gs)
    assert [m.text for m in found] == [m.text for m in grid_steps.PlaceCards._relocation_moves(step, gs, expected)]


@pytest.mark.parametrize("rows,cols", [(4, 4), (3, 5), (5, 3), (2, 2), (2, 9), (9, 2)])
def test_the_written_out_picks_reach_the_rows_of_every_box(rows, cols):
    """A place list's (and a moved card's) picks are written out, `pick_count` of them: enough
    for the frame rows from `start` to `stop` of every box, where the free cells lie."""
    board = grid.BitBoard(rows, cols, 8)
    moves = grid_moves.CellMoves(board, lambda key, cells: [], 1)
    reach = codegen_grid.pick_count(moves) * moves.rows * board.width
    assert all(0 < stop - start <= reach for _, start, stop in board.boxes.values())


#: displays (rows of the board's text: a digit is a card, `.` an empty cell) in which lifting a
#: card splits the others into two, three or four groups, or into groups that wind around
SPLITTING = [
    ("1.2", "345", "6.7"),
    ("123", ".4.", "567"),
    (".1.", "234", ".5."),
    ("12.3", "4567", "...."),
    ("1...", "2345", "...6", "...7"),
]


@pytest.mark.parametrize("rows", SPLITTING)
@pytest.mark.parametrize("adjacency", [4, 8])
@pytest.mark.parametrize("shift", [(0, 0), (-3, 2)])
def test_the_generated_plan_floods_the_groups_a_lifted_card_leaves_as_the_engine_does(rows, adjacency, shift):
    """A lifted card whose neighbours are not joined around it (the plan floods the others'
    groups in line): each card's cells to go to are the engine's, on displays where the others
    fall into several groups, anywhere in the frame."""
    d = {(r, c): int(ch) - 1 for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."}
    if not grid.is_connected(d, adjacency):
        return
    mover = next(pos for pos, card in d.items() if card == max(d.values()))
    d[mover] = 8                    # gust 9, whose effect moves one other card
    state, gs, step, functions = _position(MOVING, (4, 4, adjacency, d), *shift)
    gs.effect = (0, 8, None)
    expected = grid_steps.PlaceCards._plan(step, state, gs)
    gs.effect = (0, 8, None)
    assert [entry[:4] for entry in functions["plan"](state, gs)] == list(expected)
    if adjacency == 4 or rows != SPLITTING[2]:        # (the cross is joined by its corners in 8)
        assert any(not grid.is_connected(set(gs.cells) - {step.board.pos(bit, gs.origin)}, adjacency)
                   for bit, *_ in expected)
