"""The generated slide writers (compile/codegen_grid_slides.py: `row_slides_N`, `column_slides_N`) on
boards whose lines take every path of the writer: the near tables with their fields' highest and
lowest places from tables (4x4, 3x4) or worked out (3x5's rows, a field wider than `ALONG_BITS`),
a board row spread in parts (rows of more than `SHORT_LINE` cells: 1x10, 2x9), and lines without
near tables (2x9's rows are long, its columns' others too many): each against `BitBoard.slides`."""
from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings, strategies as st

import rulekit
from rulekit.compile import codegen_grid_slides

from test_grid import boards
from test_grid_codegen import MADE, assert_generated_slides_are_the_geometrys


def test_the_shapes_below_take_each_path_of_the_writer():
    assert 9 > codegen_grid_slides.SHORT_LINE and 2 * 4 + 1 <= codegen_grid_slides.ALONG_BITS < 2 * 5 + 1
    assert codegen_grid_slides.NEAR_BITS == 12        # 1x10's columns are near; 2x9's are not


@settings(max_examples=300, deadline=None)
@given(boards(shapes=((4, 4), (3, 4), (3, 5), (1, 10), (2, 9), (5, 3))), st.integers(-9, 9), st.integers(-9, 9))
def test_the_generated_slides_of_more_boards_are_those_of_the_geometry(board, dr, dc):
    if board[3]:
        assert_generated_slides_are_the_geometrys(board, dr, dc)



@pytest.mark.parametrize("path", ["duell-der-tiere", *MADE])
def test_a_slide_keeps_the_displays_box_or_forgets_it(path):
    """The generated slide (`slide_N`) puts the card and grows the box once: after each slide
    the box it keeps is the display's, when it keeps one."""
    game = rulekit.load(path)
    slides = 0
    for seed in range(60):
        state, rng = game.new_game(2, seed=seed), random.Random(seed)
        while not state.is_terminal:
            legal = state.legal_moves()
            move = legal[rng.randrange(len(legal))]
            state.apply(move)
            if move.kind == "slide":
                gs = state.extra["grid"]
                assert gs._box is None or gs._box == gs.board.box(gs.occ)
                slides += 1
    assert slides > 20


def test_cards_that_slide_into_rows_and_cards_that_slide_into_columns_play_as_the_engine(monkeypatch):
    """When not every sliding card slides both ways, each direction's slides are listed for
    its own cards only (the place list tests the card); every card else (Duell) needs no test."""
    from rulekit.compile import codegen
    from test_codegen import reference_of
    from test_grid_codegen import SLIDING, play_alike
    text = SLIDING.format(rows=3, cols=4, adjacency=8, cells=12).replace(
        "  gust 9       is placed by sliding into a row or column\n",
        "  gust 9       is placed by sliding into a row\n  gale 10      is placed by sliding into a column\n")
    assert "gale 10" in text
    generated = rulekit.loads(text)
    source = codegen.source_of(generated.ruleset(2))
    assert "if SLIDES_ROW_" in source and "if SLIDES_COLUMN_" in source
    reference = reference_of(text, monkeypatch, 2)
    kinds = set()
    for seed in range(40):
        play_alike(generated, reference, 2, seed,
                   seen=lambda move: kinds.add(move.text.split(" from ")[0].split(" into ")[-1].split(" ")[0]))
    assert {"row", "column"} <= kinds
    duell = codegen.source_of(rulekit.load("duell-der-tiere").ruleset(2))
    assert re.search(r"found = \[\]\n +row_slides_\d+\(occ, box, found\)\n +column_slides_\d+\(occ, box, found\)\n", duell)
