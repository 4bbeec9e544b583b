"""Tests for rulekit.engine.grid (grid-board geometry).

The worked examples are reconstructions of the rulebook examples in
/work/shared/rulebooks/duell-der-tiere.txt (whose pictures are not in the
text); rulebook column/row numbers are 1-based, display coordinates here
have the top-left card of each picture at (0, 0).
"""
import importlib.util
import pathlib
import sys

import pytest
from hypothesis import given, settings, strategies as st

try:
    from rulekit.engine import grid
except Exception:  # package temporarily broken by work in progress elsewhere
    _path = pathlib.Path(__file__).resolve().parents[1] / "rulekit" / "engine" / "grid.py"
    _spec = importlib.util.spec_from_file_location("_rulekit_engine_grid", _path)
    grid = importlib.util.module_from_spec(_spec)
    sys.modules[_spec.name] = grid
    _spec.loader.exec_module(grid)


def art(text, top=0, left=0):
    """Display from a picture: '.' is an empty cell, any other char a card
    (the char is the payload); the first line is row ``top``."""
    lines = [ln.strip() for ln in text.strip().splitlines()]
    return {(top + r, left + c): ch
            for r, ln in enumerate(lines) for c, ch in enumerate(ln) if ch != "."}


def apply_slide(display, slide, payload):
    """The display after ``slide``, with ``payload`` as the sliding card (the rulebook's
    pictures, written as the result of a slide)."""
    new = dict(display)
    moved = [(new.pop(old), dst) for old, dst in slide.moves]
    for item, dst in moved:
        new[dst] = item
    new[slide.target] = payload
    return new


def apply_relocation(display, move):
    """The display with the card at ``move[0]`` moved to ``move[1]``."""
    src, dst = move
    new = dict(display)
    new[dst] = new.pop(src)
    return new


def line_of(display, line, index):
    """(sorted positions along the line, the other cells) of a line."""
    a = 0 if line == "row" else 1
    xs = sorted(p[1 - a] for p in display if p[a] == index)
    return xs, [p for p in display if p[a] != index]


def one_slide(display, line, index, side):
    found = [s for s in grid.slides(display, 4, 4)
             if (s.line, s.index, s.side) == (line, index, side)]
    assert len(found) <= 1
    return found[0] if found else None


# --- basics ------------------------------------------------------------------


@pytest.mark.parametrize("rows,cols,adjacency", [(4, 4, 8), (2, 7, 4), (20, 20, 8), (6, 64, 4)])
def test_a_cell_s_neighbours_by_pattern_are_the_table_s_inside_the_frame(rows, cols, adjacency):
    """`around` (a shifted pattern on a large frame) is `near`'s entry for every interior cell,
    where a display lies."""
    board = grid.BitBoard(rows, cols, adjacency)
    cells = _bits_of(board.interior)
    if board.size > grid.NEAR_TABLE_CELLS:
        cells = cells[::37]                         # the table of a large frame is large: a sample
    for bit in cells:
        assert board.pattern(adjacency) << bit >> board.width + 1 == board.near(adjacency)[bit]
        assert board.around(bit, adjacency) == board.near(adjacency)[bit]


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 40), st.integers(1, 40), st.lists(st.integers(-3, 43), min_size=4, max_size=4))
def test_a_frame_rectangle_is_its_cells(width, height, span):
    """`_rect` (the band times a bit per row) holds exactly the frame cells of the rows and
    columns asked, clipped to the frame."""
    r_lo, r_hi, c_lo, c_hi = span
    cells = {r * width + c for r in range(max(r_lo, 0), min(r_hi, height - 1) + 1)
             for c in range(max(c_lo, 0), min(c_hi, width - 1) + 1)}
    assert set(_bits_of(grid._rect(width, height, r_lo, r_hi, c_lo, c_hi))) == cells


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 3), (3, 1), (4, 4), (2, 7), (7, 2)])
@pytest.mark.parametrize("adjacency", [4, 8])
def test_a_frame_cell_s_neighbours_are_the_cells_around_it(rows, cols, adjacency):
    board = grid.BitBoard(rows, cols, adjacency)
    for bit, near in enumerate(board.near(adjacency)):
        r, c = divmod(bit, board.width)
        around = {(r + dr) * board.width + c + dc for dr, dc in grid._offsets(adjacency)
                  if 0 <= r + dr < board.height and 0 <= c + dc < board.width}
        assert set(_bits_of(near)) == around


def test_neighbours():
    assert grid.neighbours((0, 0), 4) == [(-1, 0), (0, -1), (0, 1), (1, 0)]
    assert len(grid.neighbours((2, 3), 8)) == 8
    assert grid.neighbours((2, 3), 8) == sorted(grid.neighbours((2, 3), 8))
    with pytest.raises(ValueError):
        grid.neighbours((0, 0), 6)


def test_bounds_and_fits():
    assert grid.bounds([]) is None
    assert grid.bounds([(0, 0), (-2, 3), (1, -1)]) == (-2, 1, -1, 3)
    assert grid.fits([], 4, 4)
    assert grid.fits([(0, 0), (3, -3)], 4, 4)
    assert not grid.fits([(0, 0), (4, 0)], 4, 4)
    assert not grid.fits([(0, 0), (0, -4)], 4, 4)
    assert grid.fits([(0, 0), (0, 3)], 1, 4) and not grid.fits([(0, 0), (1, 0)], 1, 4)


def test_is_connected():
    assert grid.is_connected([])
    assert grid.is_connected([(0, 0), (1, 1)], 8)
    assert not grid.is_connected([(0, 0), (1, 1)], 4)
    assert not grid.is_connected([(0, 0), (0, 2)], 8)
    assert grid.is_connected(art("#.#\n.#."), 8)


def test_placements():
    assert grid.placements({}, 4, 4) == [(0, 0)]
    assert grid.placements({(0, 0): "a"}, 4, 4) == grid.neighbours((0, 0), 8)
    assert grid.placements({(0, 0): "a"}, 4, 4, 4) == grid.neighbours((0, 0), 4)
    row = art("####")                       # full width: only above/below
    assert grid.placements(row, 4, 4) == [(-1, c) for c in range(4)] + [(1, c) for c in range(4)]
    col = art("#\n#\n#\n#", top=-1)
    assert all(-1 <= r <= 2 for r, _ in grid.placements(col, 4, 4))


def test_placement_rule_forbidden_spaces():
    """'a space is forbidden if placing a card there would make the display
    wider than 4x4 cards, or if the space is not adjacent to another card.'"""
    d = art("###\n.#.")
    legal = grid.placements(d, 4, 4)
    assert (0, 3) in legal and (0, -1) in legal and (2, 1) in legal
    assert (3, 1) not in legal and (0, 5) not in legal   # not adjacent
    d4 = art("####\n.#..")
    assert (0, -1) not in grid.placements(d4, 4, 4)      # would be 5 wide


# --- slides: rulebook examples -----------------------------------------------

def test_slide_stopped_by_square():
    """'You slide the Deer from above into column 2 ... You cannot move them
    further than shown because the 4x4 square must be maintained.'"""
    d = art("""
        AB.
        XC.
        X..
        X..""")
    sl = one_slide(d, "column", 1, "top")
    assert dict(sl.moves) == {(0, 1): (2, 1), (1, 1): (3, 1)} and sl.target == (1, 1)
    after = apply_slide(d, sl, "D")
    assert after == art("""
        A..
        XD.
        XB.
        XC.""")
    # one more step would still be connected, but 5 rows tall
    beyond = set(d) - {(0, 1), (1, 1)} | {(2, 1), (3, 1), (4, 1)}
    assert grid.is_connected(beyond) and not grid.fits(beyond, 4, 4)


def test_slide_stopped_by_adjacency():
    """'You slide the Deer from above into column 2 ... You cannot move them
    further than shown because all cards in the display must remain adjacent
    to each other.'"""
    d = art("ABCE")
    sl = one_slide(d, "column", 1, "top")
    after = apply_slide(d, sl, "D")
    assert after == art("""
        A.CE
        .D..
        .B..""")
    # one more step would fit in 4x4 but cut the pushed cards off
    beyond = {(0, 0), (0, 2), (0, 3), (2, 1), (3, 1)}
    assert grid.fits(beyond, 4, 4) and not grid.is_connected(beyond)


def test_slide_closes_gap():
    """'You slide the Deer from the left into row 2 ... By doing so, the
    space between the cards is closed.'"""
    d = art("""
        WXYZ
        A..B""")
    sl = one_slide(d, "row", 1, "left")
    assert dict(sl.moves) == {(1, 0): (1, 2), (1, 3): (1, 3)} and sl.target == (1, 1)
    assert apply_slide(d, sl, "D") == art("""
        WXYZ
        .DAB""")


def test_slide_pushed_as_far_as_possible_from_below():
    """'You slide the Deer from below into column 3 ... You must slide the
    cards as far as you can, so afterwards, they will be positioned as
    shown.'"""
    d = art("""
        XY.
        X.A
        X.B""")
    sl = one_slide(d, "column", 2, "bottom")
    after = apply_slide(d, sl, "D")
    # not merely filling the gap: the cards go up past the current top row
    assert after == art("""
        ..A
        XYB
        X.D
        X..""", top=-1)
    assert grid.fits(after, 4, 4) and grid.is_connected(after)


def test_relocation_example():
    """'You place the Raccoon and wish to move your Cat to another empty
    space. You may place it on any of the green (allowed) spaces. However,
    you cannot place it on any of the red (forbidden) spaces because then not
    all of the cards would be adjacent to each other.'"""
    d = art("""
        ACR
        B.E""")          # C bridges the left and right halves
    moves = grid.relocations(d, [(0, 1)], 4, 4)
    assert moves == [((0, 1), (-1, 1)), ((0, 1), (1, 1)), ((0, 1), (2, 1))]
    for bad in [(0, -1), (2, 0), (-1, 3), (1, 3)]:   # adjacent but splits display
        assert ((0, 1), bad) not in moves
    assert apply_relocation(d, moves[1]) == art("A.R\nBCE")


# --- slides / relocations: unit ----------------------------------------------

def test_slide_order_and_lines():
    d = art("##\n#.")
    got = [(s.line, s.index, s.side) for s in grid.slides(d, 4, 4)]
    assert got == sorted(got, key=lambda t: (t[0] != "row", t[1], t[2] in ("right", "bottom")))
    assert {t[:2] for t in got} == {("row", 0), ("row", 1), ("column", 0), ("column", 1)}
    assert grid.slides({}, 4, 4) == []


def test_slide_full_line_unavailable_and_lone_line():
    got = [(s.line, s.index) for s in grid.slides(art("####"), 4, 4)]
    assert got == [("column", c) for c in range(4) for _ in "tb"]
    lone = grid.slides({(0, 0): "a"}, 4, 4)           # nothing else: front stays
    assert {(s.side, s.target) for s in lone} == {
        ("left", (0, -1)), ("right", (0, 1)), ("top", (-1, 0)), ("bottom", (1, 0))}
    assert all(dict(s.moves) == {(0, 0): (0, 0)} for s in lone)


def test_slide_minimum_outside_square_pushes_in():
    d = art("AB.\n####")          # row 0 from the left: the sliding card would stick out at col -1
    sl = one_slide(d, "row", 0, "left")
    assert sl.target == (0, 1) and dict(sl.moves) == {(0, 0): (0, 2), (0, 1): (0, 3)}


def test_slide_orthogonal_adjacency():
    d = art("ABCE")
    sl = [s for s in grid.slides(d, 4, 4, adjacency=4)
          if (s.line, s.index, s.side) == ("column", 1, "top")][0]
    assert sl.target == (0, 1) and dict(sl.moves) == {(0, 1): (1, 1)}


def test_relocations_orthogonal_adjacency():
    d = art("AB")
    assert grid.relocations(d, [(0, 1)], 4, 4, adjacency=4) == [
        ((0, 1), p) for p in [(-1, 0), (0, -1), (1, 0)]]


def test_relocations_basic():
    d = art("AB")
    assert grid.relocations(d, [(0, 1)], 4, 4) == [
        ((0, 1), p) for p in [(-1, -1), (-1, 0), (-1, 1), (0, -1), (1, -1), (1, 0), (1, 1)]]
    assert grid.relocations({(0, 0): "a"}, [(0, 0)], 4, 4) == []
    assert grid.relocations(d, [(5, 5)], 4, 4) == []
    assert apply_relocation(d, ((0, 1), (1, 0))) == {(0, 0): "A", (1, 0): "B"}


# --- spatial queries -----------------------------------------------------------

def test_regions_of_a_box():
    """Corners: the box's four corners; edge: its border, corners included; centre: the
    rest (the middle 2x2 of a 4x4 box), also for boxes away from the frame's corner."""
    board = grid.BitBoard(4, 4)
    origin = (0, 0)
    for box in ((0, 3, 0, 3), (2, 4, 5, 7), (6, 8, 3, 6)):       # boxes in the frame's cells
        corner, edge, centre = board.regions(box)
        r0, r1, c0, c1 = box
        cells = [(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]
        want_corner = {p for p in cells if p[0] in (r0, r1) and p[1] in (c0, c1)}
        want_edge = {p for p in cells if p[0] in (r0, r1) or p[1] in (c0, c1)}
        cells_of = lambda mask: {p for p in cells if mask >> board.bit(p, origin) & 1}
        assert cells_of(corner) == want_corner and len(want_corner) == 4
        assert cells_of(edge) == want_edge
        assert cells_of(centre) == set(cells) - want_edge
        assert not (corner | edge | centre) & ~board.rect(r0, r1, c0, c1)
    corner, edge, centre = board.regions((0, 3, 0, 3))
    assert {p for p in ((r, c) for r in range(4) for c in range(4))
            if centre >> board.bit(p, origin) & 1} == {(1, 1), (1, 2), (2, 1), (2, 2)}


# --- properties ------------------------------------------------------------------

@st.composite
def displays(draw, max_cards=16):
    d = {}
    for i in range(draw(st.integers(0, max_cards))):
        legal = grid.placements(d, 4, 4)
        if not legal:
            break
        d[legal[draw(st.integers(0, len(legal) - 1))]] = i
    return d


def ok(d):
    return grid.fits(d, 4, 4) and grid.is_connected(d)


@settings(max_examples=300, deadline=None)
@given(displays())
def test_every_result_stays_legal(d):
    assert ok(d)
    for p in grid.placements(d, 4, 4):
        assert p not in d and ok(list(d) + [p])
    for sl in grid.slides(d, 4, 4):
        after = apply_slide(d, sl, "new")
        assert ok(after) and len(after) == len(d) + 1
        assert sorted(v for v in after.values() if v != "new") == sorted(d.values())
        assert after[sl.target] == "new"
        step = 1 if sl.side in ("left", "top") else -1
        a = 1 if sl.line == "row" else 0
        for old, new in sl.moves:        # along the line, never backwards
            assert old[1 - a] == new[1 - a] == sl.index
            assert (new[a] - old[a]) * step >= 0
    for mv in grid.relocations(d, list(d), 4, 4):
        after = apply_relocation(d, mv)
        assert ok(after) and len(after) == len(d) and mv[1] not in d


@settings(max_examples=300, deadline=None)
@given(displays())
def test_slide_distances_form_interval(d):
    """The push distance chosen is maximal, and legal distances are contiguous."""
    offs = grid._offsets(8)
    for line, side, step in grid._ENTRIES:
        b = grid.bounds(d) or (0, -1, 0, -1)
        lo, hi = (b[0], b[1]) if line == "row" else (b[2], b[3])
        for index in range(lo, hi + 1):
            legal = _push(d, line, index, step, 4, 4, offs, every=True)
            if legal:
                assert legal == list(range(legal[0], legal[-1] + 1))
                assert _push(d, line, index, step, 4, 4, offs) == legal[-1:]
            if legal and legal[0] > 0:   # s=0 fails only by sticking out
                xs, others = line_of(d, line, index)
                front = xs[-1] if step > 0 else xs[0]
                block = [front - step * j for j in range(len(xs) + 1)]
                cells = others + [grid._at(line, index, x) for x in block]
                assert grid.is_connected(cells) and not grid.fits(cells, 4, 4)


def test_full_display_is_closed():
    d = {(r, c): r * 4 + c for r in range(4) for c in range(4)}
    assert grid.placements(d, 4, 4) == []
    assert grid.slides(d, 4, 4) == []
    assert grid.relocations(d, list(d), 4, 4) == []


# --- the fast (bitboard) answers equal brute force ------------------------------------

def naive_connected(cells, adjacency=8):
    cells = set(cells)
    if not cells:
        return True
    todo, seen = [next(iter(cells))], set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        todo.extend(n for n in grid.neighbours(p, adjacency) if n in cells)
    return seen == cells


def naive_placements(d, rows, cols, adjacency):
    if not d:
        return [(0, 0)]
    near = {n for p in d for n in grid.neighbours(p, adjacency)} - set(d)
    return sorted(p for p in near if grid.fits(list(d) + [p], rows, cols))


def naive_relocations(d, movers, rows, cols, adjacency):
    out = []
    for src in set(movers) & set(d):
        rest = set(d) - {src}
        for dst in {n for p in rest for n in grid.neighbours(p, adjacency)} - rest - {src}:
            after = rest | {dst}
            if grid.fits(after, rows, cols) and naive_connected(after, adjacency):
                out.append((src, dst))
    return sorted(out)


def _push(d, line, index, step, rows, cols, offs, every=False):
    """The engine's legal push distances of a slide into a line of a non-empty display
    (cards move by ``step``): just [largest], or all ascending if ``every``."""
    return grid._Lines(d, rows, cols, offs).distances(line, index, step, every)


def naive_push(d, line, index, step, rows, cols, adjacency):
    """Largest push distance by trying each distance and checking the whole display."""
    xs, others = line_of(d, line, index)
    length = cols if line == "row" else rows
    if not 0 < len(xs) < length:
        return []
    if not others:
        return [0]
    front = xs[-1] if step > 0 else xs[0]
    for s in reversed(range(3 * length)):
        f = front + step * s
        block = [grid._at(line, index, f - step * j) for j in range(len(xs) + 1)]
        cells = others + block
        if grid.fits(cells, rows, cols) and naive_connected(cells, adjacency):
            return [s]
    return []


@st.composite
def boards(draw, shapes=((4, 4), (3, 5), (2, 2)), least=0):
    """A board (rows, cols, adjacency) of one of `shapes` and a display of at least `least`
    cards (as far as the rules let it grow) grown on it by the naive rules."""
    rows, cols = draw(st.sampled_from(shapes))
    adjacency = draw(st.sampled_from([4, 8]))
    d = {}
    for i in range(draw(st.integers(least, rows * cols))):
        legal = naive_placements(d, rows, cols, adjacency)
        if not legal:
            break
        d[legal[draw(st.integers(0, len(legal) - 1))]] = i
    return rows, cols, adjacency, d


@settings(max_examples=200, deadline=None)
@given(boards())
def test_fast_geometry_equals_brute_force(board):
    rows, cols, adjacency, d = board
    assert grid.is_connected(d, adjacency) == naive_connected(d, adjacency)
    assert grid.placements(d, rows, cols, adjacency) == naive_placements(d, rows, cols, adjacency)
    movers = list(d)[::2]
    assert grid.relocations(d, movers, rows, cols, adjacency) == naive_relocations(d, movers, rows, cols, adjacency)
    offs = grid._offsets(adjacency)
    b = grid.bounds(d) or (0, -1, 0, -1)
    for line, side, step in grid._ENTRIES:
        lo, hi = (b[0], b[1]) if line == "row" else (b[2], b[3])
        for index in range(lo, hi + 1):
            assert _push(d, line, index, step, rows, cols, offs) == \
                naive_push(d, line, index, step, rows, cols, adjacency), (line, index, side)


def _bits_of(mask):
    return [b for b in range(mask.bit_length()) if mask >> b & 1]


@settings(max_examples=200, deadline=None)
@given(boards(), st.integers(-9, 9), st.integers(-9, 9))
def test_bit_tables_equal_the_geometry(board, dr, dc):
    """The engine's bit tables (`BitBoard`, in a state's frame, which follows the display
    wherever it wanders) give the placements, slides and relocations of the functions above."""
    from rulekit.engine.grid_state import GridState

    rows, cols, adjacency, d = board
    d = {(r + dr, c + dc): card for (r, c), card in d.items()}
    if not d:
        return
    bits = grid.BitBoard(rows, cols, adjacency)
    gs = GridState(2, bits)
    gs.load(d)
    assert gs.cells == dict(sorted(d.items()))

    def pos(bit):
        return bits.pos(bit, gs.origin)
    assert [pos(b) for b in _bits_of(bits.placements(gs.occ, gs.box))] == grid.placements(d, rows, cols, adjacency)
    fast = []
    for entry in bits.slides(gs.occ, gs.box, "row or column"):
        pairs, target = grid.slide_cells(entry)
        line, index, side = bits.slide_name(entry[0])
        fast.append((line, index + gs.origin[line != "row"], side, tuple((pos(a), pos(b)) for a, b in pairs), pos(target)))
    assert fast == [(s.line, s.index, s.side, s.moves, s.target) for s in grid.slides(d, rows, cols, adjacency)]
    moves = [(pos(src), pos(dst)) for src in sorted(gs.where.values())
             for dst in _bits_of(bits.targets(gs.occ, gs.box, src))]
    assert moves == grid.relocations(d, list(d), rows, cols, adjacency)
