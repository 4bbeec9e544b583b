"""Interned grid moves (engine/grid_moves.py): a key's moves are interned by virtual cell, one
table for every origin within `drift` of home (the board's rows up and down, its columns
across: the same objects wherever the frame lies), a table of its own farther away; the pickers
take a row pattern's moves in bit order (of two rows on narrow boards), and a list of a mask is
the interned moves of its cells, whose arguments lead back to their frame bits, whatever the
board and the origin. A table's moves and picks are made when first named or read, so a new
origin costs nothing more."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from rulekit.engine import grid
from rulekit.engine.grid_moves import CellMoves, pickers
from rulekit.engine.moves import Move

BOARDS = [(4, 4, 8), (3, 5, 4), (2, 2, 8), (5, 3, 8), (2, 9, 8)]     # pairs of rows, rows, parts of rows


def _moves(board, limit=3):
    return CellMoves(board, lambda key, cells: [Move("place", v, f"place {key} at {at}") for v, at in cells], limit)


def _bits(mask: int) -> list[int]:
    """The set bits of `mask`, lowest first."""
    return [bit for bit in range(mask.bit_length()) if mask >> bit & 1]


def _reach(board) -> int:
    mr, mc = board.margins
    return board.rect(mr - 1, mr + 2 * board.rows - 1, mc - 1, mc + 2 * board.cols - 1)


@given(st.integers(0, (1 << 12) - 1), st.lists(st.integers(), min_size=12, max_size=12))
def test_a_picker_takes_the_items_of_its_pattern_in_order_as_a_sequence(pattern, items):
    assert list(pickers(12)[pattern](tuple(items))) == [items[bit] for bit in _bits(pattern)]


def test_the_pickers_of_a_count_are_made_once():
    assert pickers(10) is pickers(10) and len(pickers(10)) == 1 << 10
    board = grid.BitBoard(4, 4)
    assert _moves(board).takes is _moves(board).takes is pickers(10)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(BOARDS), st.integers(-14, 14), st.integers(-14, 14), st.data())
def test_a_list_is_the_interned_moves_of_its_cells(shape, dr, dc, data):
    """Near home and far from it (a table of its own): the texts are the cells' at the origin,
    an argument leads back to its frame bit, and the picks of a cell take its pattern's moves."""
    board = grid.BitBoard(*shape)
    moves, origin = _moves(board), (board.home[0] + dr, board.home[1] + dc)
    reach = _reach(board)
    mask = data.draw(st.integers(0, reach)) & reach
    listed = moves.listed("bee", origin, mask)
    assert [m.text for m in listed] == ["place bee at {},{}".format(*board.pos(bit, origin)) for bit in _bits(mask)]
    assert listed.free == mask and all(listed.cells[m.arg] is m for m in listed)
    assert [moves.frame_bit[m.arg - listed.base] for m in listed] == _bits(mask)
    assert [moves.bit(m.arg, origin) for m in listed] == _bits(mask) and listed.base == moves.base(origin)
    assert (moves.near(origin) is not None) == (abs(dr) <= board.rows and abs(dc) <= board.cols) == (
        abs(dr) <= moves.drift[0] and abs(dc) <= moves.drift[1])
    cells, runs, base, run = moves.table("bee", origin)
    assert cells is listed.cells and base == listed.base
    for bit in _bits(reach):                # every cell a list may name has its move once listed
        v = moves.virtual[bit] + base
        assert moves.listed("bee", origin, 1 << bit)[0].text == "place bee at {},{}".format(*board.pos(bit, origin))
        assert cells[v].text == "place bee at {},{}".format(*board.pos(bit, origin))
    at, span = data.draw(st.sampled_from(_bits(reach))), moves.span
    row = (1 << min(span, board.width - at % board.width)) - 1          # a pick's cells lie in its frame row
    pattern, below, v = mask >> at & row, mask >> at + board.width & row, moves.virtual[at] + base  # two rows: both
    picks = runs[v] or run(v)
    assert runs[v] is picks and (runs[v] or run(v)) is picks       # made once
    if moves.rows == 2:
        assert list(moves.takes[pattern | below << span](picks)) == \
            [cells[moves.virtual[at + bit] + base] for bit in _bits(pattern)] + \
            [cells[moves.virtual[at + board.width + bit] + base] for bit in _bits(below)]
    assert list(moves.takes[pattern](picks)) == [cells[moves.virtual[at + bit] + base] for bit in _bits(pattern)]
    assert all(move.text == "place bee at {},{}".format(*board.pos(at + bit, origin))
               for bit, move in zip(_bits(mask >> at & row) + [b + board.width for b in _bits(below)],
                                    moves.takes[pattern | below << span](picks) if moves.rows == 2
                                    else moves.takes[pattern](picks)))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(BOARDS), st.lists(st.tuples(st.integers(-6, 6), st.integers(-6, 6)), min_size=2, max_size=6))
def test_a_cell_s_move_is_one_object_at_every_origin_near_home(shape, shifts):
    """Origins met one after another (a wandering display): a text cell is one move object at
    all of them that lie near home, its text the cell's, and the picks built for earlier
    origins take the moves later origins made."""
    board = grid.BitBoard(*shape)
    moves, reach = _moves(board, limit=1024), _reach(board)      # nothing forgotten
    seen: dict = {}
    for dr, dc in shifts:
        origin = (board.home[0] + dr, board.home[1] + dc)
        listed = moves.listed("bee", origin, reach)
        for bit, move in zip(_bits(reach), listed):
            pos = board.pos(bit, origin)
            assert move.text == "place bee at {},{}".format(*pos)
            if moves.near(origin) is not None:
                assert seen.setdefault(pos, move) is move
        cells, runs, base, run = moves.table("bee", origin)
        for bit in _bits(reach):
            v = moves.virtual[bit] + base
            picks = runs[v] or run(v)
            n = min(moves.span, moves.width - v % moves.width)      # past the virtual row's end no pick takes a cell
            assert list(picks[:n]) == [cells[v + k] for k in range(n)]
            assert all(cells[v + k].text == "place bee at {},{}".format(*board.pos(bit + k, origin))
                       for k in range(min(moves.span, board.width - bit % board.width)))
    near = {(dr, dc) for dr, dc in shifts if abs(dr) <= moves.drift[0] and abs(dc) <= moves.drift[1]}
    assert len(moves.shared) == (1 if near else 0)


def test_a_far_frame_bit_of_a_virtual_cell_is_no_frame_bit():
    """`frame_bit` of any difference of a virtual cell and a base is the frame bit of that cell
    or a bit past the frame (no mask holds it): a move of another origin is never taken for
    one of this frame's cells."""
    board = grid.BitBoard(4, 4, 8)
    moves = _moves(board)
    frame = {v: bit for bit, v in enumerate(moves.virtual)}
    bases = {moves.base((board.home[0] + dr, board.home[1] + dc)) for dr in range(-9, 10) for dc in range(-9, 10)}
    for base in bases:
        for v in range(moves.size):
            assert moves.frame_bit[v - base] == frame.get(v - base, board.size)


def test_tables_past_the_limit_are_made_again():
    board = grid.BitBoard(2, 2)
    moves = _moves(board)
    at = board.bit((0, 0), board.home)
    first = moves.listed("a", board.home, 1 << at)[0]
    for key in "bcd":
        moves.table(key, board.home)
    again = moves.listed("a", board.home, 1 << at)[0]
    assert again is not first and again.text == first.text and len(moves.tables) <= 3


def test_tables_of_far_origins_are_bounded():
    """Origins far from home (any coordinates a restored view may hold) each get a table of
    their own; past `limit // 16` of them all are forgotten."""
    board = grid.BitBoard(4, 4)
    moves = _moves(board, limit=64)
    for far in range(100):
        origin = (board.home[0] + 1000 + far, board.home[1] - 7 * far)
        assert moves.listed("a", origin, 1 << board.bit((0, 0), board.home))[0].text == \
            "place a at {},{}".format(*board.pos(board.bit((0, 0), board.home), origin))
        assert moves.private <= 4 and len(moves.tables) <= 64


def test_the_tables_held_are_bounded_by_their_cells(monkeypatch):
    """A table holds two slots per virtual cell (about 13,000 cells on a 6x64 or 20x20 board,
    whatever it lists), so 4,096 tables of a large board would be about 900 MB: past
    `CELLS_HELD` cells in all tables held, all are forgotten and made again when needed."""
    from rulekit.engine import grid_moves

    board = grid.BitBoard(4, 4)
    moves = _moves(board, limit=4096)
    monkeypatch.setattr(grid_moves, "CELLS_HELD", 3 * moves.size)
    at = board.bit((0, 0), board.home)
    for key in "abcdefghij":
        assert moves.listed(key, board.home, 1 << at)[0].text == f"place {key} at 0,0"
        assert len(moves.shared) <= 3 and (len(moves.shared) + moves.private) * moves.size <= grid_moves.CELLS_HELD
    assert moves.near(board.home) is not None and len(moves.shared) == 1     # forgotten at 4, 7 and 10


def _steps(text: str):
    import rulekit
    from rulekit.engine import grid_steps
    rules = rulekit.loads(text).ruleset(2)
    return rules, next(s for s in rules.steps if isinstance(s, grid_steps.PlaceCards))


def test_a_slide_move_is_its_text_s_line_at_every_origin():
    """A slide's moves by slide number at an origin: the texts name the line at that origin, the
    argument leads back to the number, and a line's move is one object at every origin."""
    from types import SimpleNamespace
    from test_grid_codegen import SLIDING
    _, step = _steps(SLIDING.format(rows=4, cols=4, adjacency=8, cells=16))
    board, seen = step.board, {}
    for dr in range(-5, 6):
        for dc in range(-5, 6):
            origin = (board.home[0] + dr, board.home[1] + dc)
            table = step._slide_table("gust", origin)
            assert table is step.interned[("gust", origin)]
            for number, move in enumerate(table):
                line, index, side = board.slide_name(number)
                assert move.text == f"slide gust into {line} {index + origin[line != 'row']} from {side}"
                assert step._number(SimpleNamespace(origin=origin), move.arg) == number
                assert seen.setdefault(move.text, move) is move
    assert len(step.slide_moves) == len(seen)


def test_the_moves_of_seeded_games_name_the_cells_they_play():
    """In seeded Duell games, wherever the frame lies: every listed place and relocation move's
    argument leads to the frame cell its text names, and one text is one object near home."""
    import random
    import re
    import rulekit
    from rulekit.engine.grid_moves import CellList
    game = rulekit.load("duell-der-tiere")
    objects, origins = {}, set()
    for seed in range(120):
        state = game.new_game(seed=seed)
        rnd = random.Random(seed).random
        while not state.is_terminal:
            legal = state.legal_moves()
            step = state._at
            if hasattr(step, "places"):
                gs = state.extra["grid"]
                origins.add(gs.origin)
                for move in legal:
                    if move.kind not in ("place", "move"):
                        continue
                    r, c = map(int, re.search(r" (-?\d+),(-?\d+)$", move.text).groups())
                    cells = step.places if move.kind == "place" else step.moves
                    v = move.arg if move.kind == "place" else move.arg[1]
                    assert cells.bit(v, gs.origin) == step.board.bit((r, c), gs.origin), move.text
                    if cells.near(gs.origin) is not None and " at " not in move.text[5:]:
                        assert objects.setdefault((move.arg, move.text), move) is move      # a card and cell: one move
                if legal.__class__ is CellList:
                    assert legal.base == step.places.base(gs.origin)
            state.apply(legal[int(rnd() * len(legal))])
    assert len(origins) > 3            # the frame moved


def test_a_display_restored_anywhere_lists_and_plays_as_the_engine_does(monkeypatch):
    """Views of seeded Duell games, their display moved near home or as far as a view may put it
    (tables of their own), restored in the generated game and in the engine's steps: the same
    moves, the same play to the end."""
    import random
    from pathlib import Path
    import rulekit
    from rulekit.compile import codegen
    from test_grid_codegen import _same
    text = (Path(__file__).resolve().parent.parent / "rules" / "duell-der-tiere.rules").read_text()
    generated = rulekit.loads(text)
    with monkeypatch.context() as patch:
        patch.setattr(codegen, "ENABLED", False)
        reference = rulekit.loads(text)
        reference.ruleset(2)
    for seed, (dr, dc) in enumerate([(0, 0), (3, -2), (-4, 4), (990, -777), (-990, 990)]):     # views hold -1000..1000
        state, rng = generated.new_game(seed=seed), random.Random(seed)
        for _ in range(10 + 3 * seed):
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
        view = state.view()
        view.pop("history")
        for entry in view["display"]:
            entry["row"] += dr
            entry["col"] += dc
        ours, theirs = generated.restore(view), reference.restore(view)
        places = next(s for s in ours.rules.steps if hasattr(s, "places")).places
        if dr == 0 or abs(dr) > 100:            # the game's own coordinates, or far away (own tables)
            assert (places.near(ours.extra["grid"].origin) is None) == (abs(dr) > 100)
        while not theirs.is_terminal:
            legal, mine = theirs.legal_moves(), ours.legal_moves()
            assert [m.text for m in mine] == [m.text for m in legal]
            pick = rng.randrange(len(legal))
            ours.apply(mine[pick])
            theirs.apply(legal[pick])
            _same(ours, theirs)
