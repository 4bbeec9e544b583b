"""Sliding a card into a line and the `when placed` effect's plan → generated source, for the placing step.

Pipeline place: compiler → **codegen** (grid steps: slides and relocations) → engine. The
placing step's writer (`compile/codegen_grid.py`) asks this module for the parts of the
place list that are not a free cell:

- the slides of a sliding card (`_slides`): a generated function per direction some card
  slides in (`row_slides_N`, `column_slides_N`), which lists what `grid.BitBoard.slides`
  lists, from the box's cards packed line after line and, for short lines, tables of the
  lines on either side (`_near_table`, `_slide_tables`);
- the pending `when placed` effect (`_plan`, `_EFFECT`, `_RELOCATIONS`): the movable cards
  with the cells each may move to (`PlaceCards._plan`), and the moves listed from them
  (`PlaceCards._relocation_moves`).

Playing a slide or a move (`slide_N`, `relocate_N`) puts a card as the place apply does,
so those templates stay with it in `compile/codegen_grid.py`. The engine's listing is the
reference: `tests/test_grid_slides.py` and `tests/test_grid_slide_code.py` check these
functions against it on random displays.
"""
from __future__ import annotations

import functools
from string import Template

from ..engine import grid
from .codegen import literal

# ---- the slides of a sliding card -----------------------------------------------------------

_SLIDES_LEGAL = """\
    if $SLIDING >> card & 1:
        found = []
$SLIDE_CALLS        if found:
            text = $TEXTS[card]
            table = $SLIDE_TABLES.get((text, gs.origin)) or $STEP._slide_table(text, gs.origin)
            legal = st._legal = $SLIDE_LIST([table[entry[0]] for entry in found])
            legal.entries = found
            return list(legal)
"""

#: the slides into the rows or the columns (what `grid.slides` defines), one template for
#: both. The box's cards are first packed into a small int, line after line (`$$STRIDE` bits
#: a line: a place along the line is a bit, one more bit keeps lines apart), and each line
#: becomes a pattern of places (`lines`); `once` and `twice` hold the places that one line
#: and two lines cover, so the places of the others are `twice | once & ~line`. Each line
#: of 1 to length - 1 cards is pushed from each side as far as the display stays within the
#: board and joined. With the line's cards lifted, the others fall into groups before and
#: after it; since the display was connected, each group reaches the neighbouring line, and
#: the pushed block (k + 1 cells with the sliding card) joins it exactly when it meets the
#: group's footprint on the line (the cells next to the group's cells in the neighbouring
#: line). So the block's first places that keep the display in the board (`$$FIT`, by k and
#: the others' places) and meet every footprint (`$$HIT`, by k and a group's places in the
#: neighbouring line) are one mask (place + length as bit): from the left the block goes as
#: far as its highest first place, from the right its lowest, each if no card moves back.
#: A neighbouring line whose cards are one run is one group; only for the others
#: (`$$MULTI`) are the groups flooded, on the packed int. Lines of at most `SHORT_LINE` places
#: read a line's count (`$$COUNT`, 0 for a full line) and its block's first place when pushed
#: 0 from either side (`$$LEFT_NEED`, `$$RIGHT_NEED`) from tables; the line's first frame bit
#: (`base`) and its first slide's number go along with the line.
_LINE_SLIDES = """\
def $NAME(occ, box, out):
    \"\"\"The slides into the display's ${LINE}s, appended to `out` as `BitBoard.slides` gives them.\"\"\"
    r0, r1, c0, c1 = box
$PACK    last = len(lines) - 1
    base, number = r0 * $WIDTH + c0 - $NEXT_LINE, $NUMBER_BEFORE
    for i in range(last + 1):
        base += $NEXT_LINE
        number += 2
        line = lines[i]
        k = $COUNT
        if $NO_SLIDE:
            continue
        rest = twice | once & ~line
        if not rest:
$ALONE            continue
$FIT        if i:
            near = lines[i - 1]
            if $MULTI:
                part = packed & (1 << i * $STRIDE) - 1
$FLOOD_BEFORE            else:
                block &= $HIT_NEAR
        if i < last:
            near = lines[i + 1]
            if $MULTI:
                part = packed >> (i + 1) * $STRIDE
$FLOOD_AFTER            else:
                block &= $HIT_NEAR
$PUSHED"""

#: ... the same from tables of the lines on either side (`$$NEAR`, `_near_table`: by the
#: lines before the line, the nearest in the lowest places, or those after it), when the
#: lines are short and the box holds few: the lines are packed `$$LENGTH` bits each into
#: `after`, which keeps the lines after the current one (`near`: those up to it, `front`: before it)
_NEAR_SLIDES = """\
def $NAME(occ, box, out):
    \"\"\"The slides into the display's ${LINE}s, appended to `out` as `BitBoard.slides` gives them.\"\"\"
    r0, r1, c0, c1 = box
$PACK    base, number, near = r0 * $WIDTH + c0 - $NEXT_LINE, $NUMBER_BEFORE, 0
    for i in range($LINES):
        base += $NEXT_LINE
        number += 2
        line = after & $LINE_MASK
        after >>= $LENGTH
        front, near = near, near << $LENGTH | line
        k = $COUNT
        if $NO_SLIDE:
            continue
        if not front | after:
$ALONE            continue
        block = ($NEAR[front] & $NEAR[after]) >> $FIELD_AT & $FIELD_MASK
$PUSHED"""

#: the only line of the display: pushed 0 from either side
_ALONE = """\
            cells = $LINE_BITS
            at = base + ($LEFT_NEED)$TIMES_STEP
            out.append((number, cells, $STEP, at + $STEP, at))
            at = base + ($RIGHT_NEED)$TIMES_STEP
            out.append((number + 1, cells, $STEP, at, at + $K_STEPS))
"""

#: the slides of the block's first places (`block`) found
_PUSHED = """\
        if block:
            cells = $LINE_BITS
            along = $HIGH_ALONG
            if along >= $LEFT_NEED:
                at = base + along$TIMES_STEP
                out.append((number, cells, $STEP, at + $STEP, at))
            along = $LOW_ALONG
            if along <= $RIGHT_NEED:
                at = base + along$TIMES_STEP
                out.append((number + 1, cells, $STEP, at, at + $K_STEPS))
"""

#: the groups of the others on one side of the line (`part`, packed), each narrowing the
#: block's first places to those that meet its footprint (`$$NEAR`: its places in the
#: neighbouring line)
_FLOOD = """\
                while part:
                    group = part & -part
                    while True:
                        wide = group | group << 1 | group >> 1
                        grown = ($GROW) & part
                        if grown == group:
                            break
                        group = grown
                    block &= $HIT_GROUP
                    part ^= group
"""

#: the box's rows as lines (places: columns from the box's first)
_PACK_ROWS = """\
    lines, once, twice, packed, at = [], 0, 0, 0, r0 * $WIDTH + c0
    for i in range(r1 - r0 + 1):
        line = occ >> at & $LINE_MASK
        lines.append(line)
        twice |= once & line
        once |= line
        packed |= line << i * $STRIDE
        at += $WIDTH
"""
#: ... and its columns (places: rows from the box's first; a row's cells spread by `$$SPREAD`)
_SPREAD_ROWS = """\
    packed, at = 0, r0 * $WIDTH + c0
    for i in range(r1 - r0 + 1):
        packed |= $SPREAD << i
        at += $WIDTH
"""
_PACK_COLUMNS = _SPREAD_ROWS + """\
    lines, once, twice = [], 0, 0
    for i in range(c1 - c0 + 1):
        line = packed >> i * $STRIDE & $LINE_MASK
        lines.append(line)
        twice |= once & line
        once |= line
"""

#: the box's rows packed for `_NEAR_SLIDES` (a row's cells from the box's first column), or its
#: columns (a row's cells spread by `$$SPREAD`, a column's places `$$LENGTH` bits apart): one
#: term per row the board has, written out (the box's cells start at bit 0 of `packed`; the
#: frame's cells past the box are empty)
_FAR_LINES = """\
    packed = occ >> r0 * $WIDTH + c0
    after = $PACKED
"""

# ---- the pending `when placed` effect ----------------------------------------------------

#: the pending `when placed` effect's movable cards (`PlaceCards._plan`): each (cell, card,
#: the cells it may move to as `BitBoard.targets` finds them, whether no other movable card
#: has its text, and the first bits of the frame rows those cells lie in: from `start` to
#: `stop`, in the board's columns + 1 cells from each, as for a place list), in cell order,
#: kept in `gs.effect`. The others' box is the display's (its window, its rows' bits `low`
#: to `high`) unless the card is alone in the box's first or last row or column (`alone`)
#: A card whose lifting may split the others (`$$KEEPS`) has their groups flooded here, each
#: group's footprint (its cells and their neighbours) kept from the flood's last step: the cells
#: it may go to lie in every footprint
_PLAN = """\
def $NAME(st, gs):
    \"\"\"The movable cards of the pending effect and where each may go, worked out once.\"\"\"
    seat, card, plan = gs.effect
    if plan is not None:
        return plan
$MOVABLE    where, at, occ = gs.where, gs.at, gs.occ
    box = gs._box or gs.box
    cells = []
    while movable:
        low = movable & -movable
        cells.append(where[low.bit_length() - 1])
        movable ^= low
    cells.sort()
    found = []
$WINDOW    empty, low, high = ~occ & window, start, stop
    alone = 0
    for line in (occ & $ROW_CELLS[box[0]], occ & $ROW_CELLS[box[1]], occ & $COL_CELLS[box[2]], occ & $COL_CELLS[box[3]]):
        if not line & line - 1:
            alone |= line
    for bit in cells:
        mover = at[bit]
        unique = $SAME_TEXT[mover] & movable_cards == 1 << mover
        rest = occ ^ 1 << bit
        if not rest:
            found.append((bit, mover, 0, unique, bit, bit))
            continue
$RING_OF        if $KEEPS[ring]:
            wide = rest | rest << 1 | rest >> 1
            free = $GROW_REST
        else:
            free, part = -1, rest
            while part:
                group = part & -part
                while True:
                    wide = group | group << 1 | group >> 1
                    foot = $GROW_GROUP
                    grown = foot & part
                    if grown == group:
                        break
                    group = grown
                free &= foot
                part ^= group
        if not alone >> bit & 1:
            found.append((bit, mover, free & empty, unique, low, high))
            continue
        r0, r1, c0, c1 = $ROW_OF[(rest & -rest).bit_length() - 1], $ROW_OF[rest.bit_length() - 1], box[2], box[3]
        c = $COL_OF[bit]
        if c == c0:
            while not rest & $COL_CELLS[c0]:
                c0 += 1
        if c == c1:
            while not rest & $COL_CELLS[c1]:
                c1 -= 1
$REST_WINDOW        found.append((bit, mover, free & ~occ & window, unique, start, stop))
    plan = tuple(found)
    gs.effect = (seat, card, plan)
    return plan
"""

#: the cards the effect may move, from the words of `move one ... card` as masks
_MOVABLE = """\
    movable = movable_cards = $MOVE_KINDS[card] & $MOVE_SEATS[card][seat] & gs.mask & ~(($MOVE_OTHER >> card & 1) << card)
"""

#: the moves of the pending effect (`PlaceCards._relocation_moves`): `move sun to 0,3` for each
#: cell a movable card may go to, the interned moves of the card's table taken a frame row
#: at a time as for a place list; two movable cards with one text are told apart by their
#: place, by the engine
_RELOCATIONS = """\
def $NAME(st, gs):
    \"\"\"The legal moves of a pending `when placed` effect.\"\"\"
    origin, moves = gs.origin, []
    for bit, mover, free, unique, start, stop in $PLAN(st, gs):
        if not unique:
            moves += $STEP._relocation_moves(gs, ((bit, mover, free, unique),))
            continue
        cells, runs, base, pick = $MOVE_TABLES[mover].get(origin) or $MOVE_TABLE(mover, origin)
$PICK_MOVES    return moves
"""

#: a placed card with a `when placed` effect: the same seat decides its move, if it has one
_EFFECT = """\
    if $MOVING >> card & 1:
        gs.effect = (seat, card, None)
        for entry in $PLAN(st, gs):
            if entry[2]:
                return
        gs.effect = None
"""


def _keeps_connected(adjacency: int) -> tuple[int, ...]:
    """The 3x3 neighbourhoods of a cell (bits 0-2 the row above, 3 and 5 the cells beside
    it, 6-8 the row below; bit 4, the cell itself, unused) in which the neighbours it is
    adjacent to are joined among themselves, as 1 per such neighbourhood (else 0): lifting the
    cell's card then keeps a connected display connected (every path through the cell can
    go around it). For the others the groups of the rest are worked out."""
    cells = [(r, c) for r in range(3) for c in range(3)]
    keeps = []
    for ring in range(512):
        here = {cells[i] for i in range(9) if ring >> i & 1 and i != 4}
        near = set(grid.neighbours((1, 1), adjacency)) & here
        reach, todo = set(list(near)[:1]), list(near)[:1]
        while todo:
            for cell in grid.neighbours(todo.pop(), adjacency):
                if cell in here and cell not in reach:
                    reach.add(cell)
                    todo.append(cell)
        keeps.append(1 if near <= reach else 0)
    return tuple(keeps)


def _ring_of(width: int) -> str:
    """The statement that reads the 3x3 neighbourhood of `bit` in `occ` as `_keeps_connected`'s
    index: the three frame rows' 3 cells as one `&`, then packed 3 bits a row by a remainder
    when the frame is wide enough (2 ** width leaves 8, so a + b * 2 ** width + c * 2 ** (2 *
    width) leaves a + 8 * b + 64 * c, below the divisor; the cell's own bit 4 is set, and
    `_keeps_connected` reads no bit 4), else by shifts."""
    ring = literal(7 | 7 << width | 7 << 2 * width)
    if width >= 10:
        return f"        ring = (occ >> bit - {width + 1} & {ring}) % {literal((1 << width) - 8)}\n"
    return (f"        ring = occ >> bit - {width + 1} & {ring}\n"
            f"        ring = ring & 7 | ring >> {width - 3} & 40 | ring >> {2 * width - 6} & 448\n")


def _plan(w, step, names) -> str:
    """The generated `PlaceCards._plan` (`_PLAN`); its name."""
    config, board = step.config, step.board
    texts = config.texts
    same = [sum(1 << other for other, text in enumerate(texts) if text == texts[card]) for card in range(len(texts))]
    plain = [config.plain_movers[card] for card in range(len(texts)) if step.movers[card] is not None]
    if not all(entry is not None for entry in plain):
        return w.bind("plan", step._plan)     # a word a name of the file shadows: the engine's
    none = (0, (0,) * len(config.seat_cards), False)
    entries = [config.plain_movers[card] or none for card in range(len(texts))]
    movable = Template(_MOVABLE).substitute(
        MOVE_KINDS=w.const("MOVE_KINDS", tuple(e[0] for e in entries), "per card, the kinds of card its effect moves"),
        MOVE_SEATS=w.const("MOVE_SEATS", tuple(e[1] for e in entries), "per card and seat, the owners' cards it moves"),
        MOVE_OTHER=w.const("MOVE_OTHER", sum(1 << card for card, e in enumerate(entries) if e[2]),
                           "the cards whose effect moves an `other` card, as a mask"))
    keeps = _keeps_connected(board.adjacency)
    grow = "wide | wide << {0} | wide >> {0}" if board.adjacency == 8 else "wide | {1} << {0} | {1} >> {0}"
    name, width = w.name("plan"), board.width
    w.lines(Template(_PLAN).substitute(
        names, NAME=name, MOVABLE=movable,
        RING_OF=_ring_of(width),
        KEEPS=w.const("KEEPS", keeps, "per 3x3 neighbourhood: 1 if a card may leave it without splitting the display"),
        COL_CELLS=w.const("COL_CELLS", tuple(board.col_cells), "the cells of each frame column"),
        ROW_CELLS=w.const("ROW_CELLS", tuple(board.row_cells), "the cells of each frame row"),
        SAME_TEXT=w.const("SAME_TEXT", tuple(same), "per card, the cards with its text"),
        GROW_REST=grow.format(board.width, "rest"), GROW_GROUP=grow.format(board.width, "group")))
    return name


#: a near table's field of at most this many bits (`_near_table`) has its highest and lowest
#: place read from tables (2 ** this entries each)
ALONG_BITS = 10

#: lines of at most this many places have their slides' masks from tables (`_slide_tables`:
#: 2 ** length entries each); longer ones work them out (`_HIT`, `_FIT`)
SHORT_LINE = 8

#: the block's first places that keep the display in the board, worked out (`$$FIT` of `_LINE_SLIDES`)
_FIT = """\
        low, high = (rest & -rest).bit_length() - 1, rest.bit_length() - 1
        block = (1 << max(low - high + $SPAN - k, 0)) - 1 << high + 1
"""

#: ... and those meeting a group's footprint
_HIT = """\
def $NAME(k, places):
    \"\"\"The block's first places (place + length as bit) whose k + 1 places meet the footprint
    of a group with these places in the neighbouring line.\"\"\"
    foot = ($FOOT) << $LENGTH - 1
    for _ in range(k):
        foot |= foot >> 1
    return foot
"""


def _slide_tables(length: int, adjacency: int) -> tuple[tuple, tuple, tuple]:
    """For lines of `length` places (bit p: place p, from the box's first): the block's first
    places (bit a + length: place a) that keep the display within the board, by k << length
    | the others' places (from the last place - length + 1 to the first + length - 1 - k);
    those whose block of k + 1 places meets the footprint of one group, by k << length | the
    group's places in the neighbouring line; and whether a line's cards are more than one run."""
    fit, hit = [0] * (length << length), [0] * (length << length)
    for k in range(length):
        for places in range(1, 1 << length):
            first, last = (places & -places).bit_length() - 1, places.bit_length() - 1
            for a in range(last - length + 1, first + length - k):
                fit[k << length | places] |= 1 << a + length
            foot = places | places << 1 | places << 2 if adjacency == 8 else places << 1
            for f in range(length + 2):             # bit f: place f - 1
                if foot >> f & 1:
                    for a in range(f - 1 - k, f):
                        if a + length >= 0:
                            hit[k << length | places] |= 1 << a + length
    multi = tuple(1 if (places & ~(places << 1)).bit_count() > 1 else 0 for places in range(1 << length))
    return tuple(fit), tuple(hit), multi


#: a direction's slides read the lines on either side of a line from one table (`_near_table`)
#: when its lines are short and the lines on one side fit in this many bits (2 ** this entries)
NEAR_BITS = 12


@functools.lru_cache(maxsize=None)
def _near_table(length: int, most: int, adjacency: int) -> tuple[int, ...]:
    """For at most `most` non-empty lines of `length` places on one side of a line, packed
    `length` bits each, the nearest lowest (the index; 0 for none): per k, the line's cards (1
    to length - 1), a field of 2 * length + 1 bits (k - 1 fields up) holding the block's first
    places (bit a + length: place a, as `_slide_tables`) that keep the display within the
    board with these lines' cards (`fit` of their places) and meet the footprint of each of
    their groups (`hit` of its places in the nearest line); every place when there are none.
    The two sides' entries of a line and-ed are its block's first places."""
    fit, hit, _ = _slide_tables(length, adjacency)
    field, stride, mask = 2 * length + 1, length + 1, (1 << length) - 1
    full = (1 << field) - 1
    table = [sum(full << (k - 1) * field for k in range(1, length))]
    for key in range(1, 1 << length * most):
        places = packed = 0
        for j in range(most):
            line = key >> j * length & mask
            places |= line
            packed |= line << j * stride
        feet, part = [], packed
        while part:
            group = part & -part
            while True:
                wide = group | group << 1 | group >> 1
                grown = (wide | wide << stride | wide >> stride if adjacency == 8 else
                         wide | group << stride | group >> stride) & part
                if grown == group:
                    break
                group = grown
            feet.append(group & mask)
            part ^= group
        entry = 0
        for k in range(1, length):
            block = fit[k << length | places]
            for foot in feet:
                block &= hit[k << length | foot]
            entry |= (block & full) << (k - 1) * field
        table.append(entry)
    return tuple(table)


def _slides(w, step, names) -> str:
    """The slides of the place list (`_SLIDES_LEGAL`): a generated function per direction
    that some card slides in (`_NEAR_SLIDES` when `_near_table` is small enough, else
    `_LINE_SLIDES`); the cards that slide in each as masks."""
    board, lines = step.board, step.config.slides
    width, height, rows, cols = board.width, board.height, board.rows, board.cols
    row_cells = w.const("ROW_CELLS", tuple(board.row_cells), "the cells of each frame row")
    col_cells = w.const("COL_CELLS", tuple(board.col_cells), "the cells of each frame column")
    near = {"row": cols <= SHORT_LINE and cols * (rows - 1) <= NEAR_BITS,
            "column": rows <= SHORT_LINE and rows * (cols - 1) <= NEAR_BITS}
    # a frame row's cells in the box as the columns' places (packed `apart` bits a column),
    # from parts of at most 8 cells
    part = min(cols, SHORT_LINE)
    apart = rows if near["column"] else rows + 1
    spread = w.const("SPREAD", tuple(sum(1 << c * apart for c in range(part) if pattern >> c & 1)
                                     for pattern in range(1 << part)), "a part of a frame row as the columns' places, packed")
    table = spread

    def spread_of(source) -> str:
        """The columns' places of a frame row, `source(at)` the expression whose bit 0 is its cell `at`."""
        return " | ".join(f"{table}[{source(0)} & {literal((1 << cols) - 1)}]" if cols <= part else
                          f"{table}[{source(at)} & {literal((1 << part) - 1)}] << {literal(at * apart)}"
                          for at in range(0, cols, part))
    spread = spread_of(lambda at: f"occ >> at + {literal(at)}" if at else "occ >> at")
    # the near tables' packing (`_FAR_LINES`): the box's rows `cols` bits apart, or its columns
    # from each row spread, one term per board row (`packed`: the box's cells from bit 0)
    packed_rows = " | ".join(f"packed >> {literal(r * (width - cols))} & {literal(((1 << cols) - 1) << r * cols)}" if r else
                             f"packed & {literal((1 << cols) - 1)}" for r in range(rows))
    row_spreads = [spread_of(lambda at, r=r: f"packed >> {literal(r * width + at)}" if r * width + at else "packed")
                   for r in range(rows)]
    packed_columns = " | ".join((f"({term}) << {literal(r)}" if cols > part else f"{term} << {literal(r)}") if r else term
                                for r, term in enumerate(row_spreads))
    axes = {"row": dict(LINE_CELLS=row_cells, LENGTH=literal(cols), STRIDE=literal(cols + 1), INDEX="r0 + i",
                        LINE_MASK=literal((1 << cols) - 1), STEP="1", K_STEPS="k", NEXT_LINE=literal(width),
                        NUMBER_BEFORE="2 * r0 - 2", TIMES_STEP="", LINE_BITS="line << base",
                        PACK=_FAR_LINES if near["row"] else _PACK_ROWS, PACKED=packed_rows, LINES="r1 - r0 + 1",
                        MOST=rows),
            "column": dict(LINE_CELLS=col_cells, LENGTH=literal(rows), STRIDE=literal(rows + 1), INDEX="c0 + i",
                           LINE_MASK=literal((1 << rows) - 1), STEP=literal(width), K_STEPS=f"k * {width}",
                           NEXT_LINE="1", NUMBER_BEFORE=f"2 * c0 + {2 * height - 2}", TIMES_STEP=f" * {width}",
                           LINE_BITS=f"occ & {col_cells}[c0 + i]",
                           PACK=_FAR_LINES if near["column"] else _PACK_COLUMNS, PACKED=packed_columns,
                           SPREAD=f"({spread})" if cols > part else spread, LINES="c1 - c0 + 1", MOST=cols)}
    calls = []
    for direction, axis in axes.items():
        cards = sum(1 << card for card, named in enumerate(lines) if named is not None and direction in named)
        if not cards:
            continue
        name, length = w.name(direction + "_slides"), int(axis["LENGTH"])
        stride = axis["STRIDE"]
        parts = dict(axis, WIDTH=literal(width), ROW_MASK=literal((1 << cols) - 1), OFFSET=literal(length + 1),
                     SPAN=literal(2 * length - 1),
                     GROW=f"wide | wide << {stride} | wide >> {stride}" if board.adjacency == 8 else
                     f"wide | group << {stride} | group >> {stride}")
        if length <= SHORT_LINE:
            fit, hit, multi = _slide_tables(length, board.adjacency)
            first = w.const("FIRST", tuple(line.bit_length() - 1 - line.bit_count() for line in range(1 << length)),
                            "per line's places: its block's first place when pushed 0 from the first side")
            other = w.const("OTHER", tuple((line & -line).bit_length() - 1 for line in range(1 << length)),
                            "... and from the other side")
            count = w.const("COUNT", tuple(line.bit_count() % length for line in range(1 << length)),
                            "per line's places: how many, or 0 when it is full (no slide)")
            parts.update(LEFT_NEED=f"{first}[line]", RIGHT_NEED=f"{other}[line]", COUNT=f"{count}[line]", NO_SLIDE="not k")
        parts.update(HIGH_ALONG=f"block.bit_length() - {length + 1}", LOW_ALONG=f"(block & -block).bit_length() - {length + 1}")
        if near[direction]:
            field = 2 * length + 1
            parts.update(FIELD_MASK=literal((1 << field) - 1), NEAR=w.const(
                "SIDES", _near_table(length, axis["MOST"] - 1, board.adjacency),
                "the block's first places by the lines on one side (`_near_table`), a field per k"))
            parts["FIELD_AT"] = w.const("FIELD_AT", tuple((line.bit_count() % length - 1) * field if line.bit_count() % length else 0
                                                          for line in range(1 << length)),
                                        "per line's places: where its count's field starts in a `_near_table` entry") + "[line]"
            if field <= ALONG_BITS:
                blocks = range(1 << field)
                parts["HIGH_ALONG"] = w.const("HIGH", tuple(block.bit_length() - length - 1 for block in blocks),
                                              "per block's first places (place + length as bit): the highest place") + "[block]"
                parts["LOW_ALONG"] = w.const("LOW", tuple((block & -block).bit_length() - length - 1 for block in blocks),
                                             "... and the lowest") + "[block]"
            template = _NEAR_SLIDES
        elif length <= SHORT_LINE:
            fit = w.const("FIT", fit, "the block's first places in the board, by k << length | the others' places")
            hit = w.const("HIT", hit, "... meeting a group's footprint, by k << length | its places next to the line")
            multi = w.const("MULTI", multi, "whether a line's places are more than one run")
            parts.update(FIT=f"        block = {fit}[k << {length} | rest]\n", MULTI=f"{multi}[near]")
            hit = f"{hit}[k << {length} | {{}}]"
            template = _LINE_SLIDES
        else:
            parts.update(FIT=Template(_FIT).substitute(parts), MULTI="near & ~(near << 1) & (near & ~(near << 1)) - 1",
                         LEFT_NEED="line.bit_length() - 1 - k", RIGHT_NEED="(line & -line).bit_length() - 1",
                         COUNT="line.bit_count()", NO_SLIDE=f"not 0 < k < {length}")
            helper = w.name("hit")
            w.lines(Template(_HIT).substitute(parts, NAME=helper, FOOT="places | places << 1 | places << 2"
                                              if board.adjacency == 8 else "places << 1"))
            hit = f"{helper}(k, {{}})"
            template = _LINE_SLIDES
        parts["PACK"] = Template(axis["PACK"]).substitute(parts)
        parts["ALONE"] = Template(_ALONE).substitute(parts)
        parts["PUSHED"] = Template(_PUSHED).substitute(parts)
        if template is _LINE_SLIDES:
            parts["HIT_NEAR"] = hit.format("near")
            parts["FLOOD_BEFORE"] = Template(_FLOOD).substitute(
                parts, HIT_GROUP=hit.format(f"group >> (i - 1) * {stride} & {axis['LINE_MASK']}"))
            parts["FLOOD_AFTER"] = Template(_FLOOD).substitute(parts, HIT_GROUP=hit.format(f"group & {axis['LINE_MASK']}"))
        w.lines(Template(template).substitute(parts, NAME=name, LINE=direction))
        mask = w.const("SLIDES_" + direction.upper(), cards, f"the cards that slide into a {direction}, as a mask")
        # when every sliding card slides this way, the card is not tested
        calls.append(f"        {name}(occ, box, found)\n" if cards == step.sliding else
                     f"        if {mask} >> card & 1:\n            {name}(occ, box, found)\n")
    return Template(_SLIDES_LEGAL).substitute(
        names, SLIDING=w.const("SLIDING", step.sliding, "the cards placed by sliding, as a mask"),
        SLIDE_CALLS="".join(calls))
