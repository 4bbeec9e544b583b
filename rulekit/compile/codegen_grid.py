"""Choosing, placing, sliding and moving cards on a grid → generated source, inside the game's state class.

Pipeline place: compiler → **codegen** (grid steps) → engine. Every decision of a grid
round is a choice of a card in hand or a placing one (`engine/grid_steps.py` says what they
do), so the generated state's `legal_moves` and `apply` hold both steps:

- choosing: the hand's interned moves, the choice checked by its move's class (the step's
  own) and the card's bit; the last choice reveals the cards (`when revealed` removals as a
  card mask) and starts the placing, in the choose apply;
- placing on a free cell: the cells next to the display inside the board, as bit shifts over
  the board's frame with its width and window tables written in (`place_legal_N`), the move
  checked by its class (the step's `place_class`: its argument is its cell in the virtual
  grid of `grid_moves.CellMoves`, the same at every origin near home), its identity in the
  place list's table and the list's cell mask (`grid_moves.CellList`), and played right there in `apply`, which
  puts the card with the file's card tables (which kinds of card a card is) as literals;
- sliding a card into a line and moving a card after a `when placed` effect: listed by
  generated functions (`compile/codegen_grid_slides.py` writes them, the engine's
  `grid.BitBoard.slides` and `targets` are the reference), checked by identity in the short
  list and played by generated functions (`slide_N`, `relocate_N`, here);
- the rest of a placing: the next seat of the placing order, or the round's end
  (`placed_N`). When the steps after placing are plain draws (`draw N each`, nothing kept),
  the last placement of a round also runs what `State.advance` would: the draws,
  the end of the round and the next round's choosing, in one generated function
  (`after_placing_N`, `compile/codegen_grid_tail.py`, which also writes the set-up's
  `shuffle each deck`), so a round pays no step loop.

While choosing or placing decides, the state has a class of that step's own (`OWN_STATE_CLASS`,
compile/codegen.py), so its `legal_moves` and `apply` test no step; the generated moves from
one step to the other (the last choice, the round's last placement) give it the next
step's class at once, and anything else leaves by `advance` or the `step` setter.

Anything else (a move given as text, a move that is not legal) goes through the engine's
`State.apply` and the steps, which keep their classes' behaviour: the generated subclasses
only list moves through the generated functions (`legal_moves`). Each also gets `walk`, the
public loop inside the step (the legal list, an index drawn as `randrange` draws it, the
state's `apply`) to the step's or the round's end, so `State.playout` of a grid game runs in
generated code and makes the moves the public loop makes.
"""
from __future__ import annotations

from string import Template
from textwrap import dedent

from ..engine import grid_steps
from ..engine.grid_moves import CellList, SlideList
from ..engine.moves import Move
from ..engine.state import State
from .codegen import ALIAS, literal, own_class
from .codegen_grid_slides import _EFFECT, _RELOCATIONS, _plan, _slides
from .codegen_grid_tail import _leave, _shuffle, _tail
from .codegen_tricks import indent

#: the state takes a class of its own while choosing or placing decides (compile/codegen.py);
#: the generated moves from one step to the other give it the next step's class at once
OWN_STATE_CLASS = True


def _mask(table) -> int:
    """The cards whose entry in a per-card table is set, as a mask."""
    mask = 0
    for card, entry in enumerate(table):
        if entry is not None and entry is not False:
            mask |= 1 << card
    return mask


_CLASS = """\
class $CLS($BASE):
    \"\"\"Generated: $WHAT of this game, written into the state's `legal_moves` and `apply`.\"\"\"
    generated_from = $BASE
$WALK"""

_CLASS_LEGAL = """\
class $CLS($BASE):
    \"\"\"Generated: $WHAT of this game, written into the state's `legal_moves` and `apply`.\"\"\"
    generated_from = $BASE

    def legal_moves(self, st):
        return $LEGAL(st)
$PLAN_METHOD$WALK"""

#: `walk` (`State.playout`): the public loop inside the step, to its end or the round's: the
#: legal list (`$$LIST`), an index drawn as `randrange(len(moves))` draws it, the move played
#: by the state's `apply`
_WALK = """\

    def walk(self, st, getrandbits):
        \"\"\"Random moves to the end of the step, as `randrange` over the legal list draws them.\"\"\"
        made, start = 0, st.round
        while st._at is self and st.round == start and not st.is_terminal:
            moves = $LIST
            count = len(moves)
            bits = count.bit_length()
            r = getrandbits(bits)
            while count and r >= count:
                r = getrandbits(bits)
            st.apply(moves[r])
            made += 1
        return made
"""

_PLAN_METHOD = """\

    def _plan(self, st, gs):
        return $PLAN(st, gs)
"""

# ---- choosing -------------------------------------------------------------------------------

_CHOOSE_LEGAL = """\
moves = $CACHE.get(st.hands[st.current_player])
if moves is None:
    moves = st._at.legal(st)
return [*moves]
"""

#: choosing a card in hand; the last seat to choose ends the step (`$$STATE`: the base state)
_CHOOSE_APPLY = """\
if move.__class__ is not $CHOICE:
    return $$STATE.apply(st, move)
seat = st.current_player
hands = st.hands
card = move.arg
hand = hands[seat]
if not hand >> card & 1:
    return $$STATE.apply(st, move)
st.pending[seat] = card
hands[seat] = hand ^ 1 << card
st._legal = None
st._history.append(move)
n = st.n
seat += 1
while seat < n:
    if hands[seat]:
        st.current_player = seat
        return
    seat += 1
$AFTER"""

#: after the last seat has chosen, when a reveal and the placing follow: what `State.advance`
#: does from the choosing step (the reveal, as `RevealCards.enter`, then the placing's start;
#: two seats' cards that remove no card go straight to their placing order), written into the
#: choose apply after the last choice (`n`: the seat count; `_after_choosing` takes off the first indent)
_AFTER_CHOOSING = """\
    # every seat has chosen: the cards are revealed and the placing begins
    gs = st.extra["grid"]
    gs.revealed = revealed = st.pending
    st.revealed = True
    st._step, st._at = $PLACE_AT, $PLACE
    st.__class__ = $PLACE_STATE
    if n == 2:
        st.pending = [None, None]
        first, second = revealed
        if first is not None and second is not None$KEPT:
$ORDER            gs.queue = [first, 1 - first]
            if len(gs.at) < $CELLS:
                st.current_player = first
                return
            if not $PLACE._next(st, gs):
                st.advance()
            return
    else:
        st.pending = [None] * n
$REMOVING    if $PLACE.enter(st):
        return
    st.advance()
"""

#: two seats' revealed cards in placing order (`PlaceCards.enter`'s common case): by number,
#: equal numbers as the token says
_ORDER = """\
            first, second = $NUMBER[first], $NUMBER[second]
            if first == second:
                first = $TIED
                gs.passer = $PASSER
            else:
                first = 0 if first $BEFORE second else 1
                gs.passer = None
"""

#: ... from one table by the two cards (`_pairs`: `first` is already the entry, -1 for equal
#: numbers; an entry of -2, a card that removes both, is kept out by `$$KEPT`)
_ORDER_PAIRS = """\
            if first == -1:
                first = $TIED
                gs.passer = $PASSER
            else:
                gs.passer = None
"""

#: the order of two seats' cards is read from a table of every pair (`_pairs`) when there are
#: at most this many pairs of cards
ORDER_PAIRS = 4096


def _pairs(place, removing: int) -> tuple[int, ...]:
    """By the first seat's card * the cards + the second seat's: the seat that places first (0 or
    1), -1 when the numbers are equal (the token decides), -2 when either card removes both."""
    number, size = place.config.number, len(place.config.number)
    out = []
    for first in range(size):
        for second in range(size):
            a, b = number[first], number[second]
            out.append(-2 if (removing >> first | removing >> second) & 1 else -1 if a == b else
                       0 if (a > b if place.descending else a < b) else 1)
    return tuple(out)


#: a revealed card that removes the revealed cards (`RevealCards.enter`)
_REMOVING = """\
    for card in revealed:
        if card is not None and $REMOVES >> card & 1:
            removed = gs.removed
            for seat in range(n):
                card = revealed[seat]
                if card is not None:
                    removed[seat] |= 1 << card
            gs.revealed = [None] * n
$NOTHING_PLACED"""

#: ... and nothing is left to place (`PlaceCards.enter` and `_next` with no revealed card):
#: the rest of the round at once (`_tail`)
_NOTHING_PLACED = """\
            gs.queue, gs.passer = [], None
$LEAVE            $TAIL(st)
            return
"""


def _after_choosing(w, step) -> str:
    """The lines of the choose apply that reveal and start the placing after the last choice
    (`_AFTER_CHOOSING`), or `st.advance()` when the steps after choosing are not a reveal and
    then a placing."""
    steps = getattr(step, "round_steps", None)
    if steps is None or step not in steps:
        return "st.advance()\n"
    at = steps.index(step)
    if at + 2 >= len(steps):
        return "st.advance()\n"
    reveal, place = steps[at + 1], steps[at + 2]
    if type(reveal) is not grid_steps.RevealCards or \
            getattr(type(place), "generated_from", type(place)) is not grid_steps.PlaceCards:
        return "st.advance()\n"
    removing = kept = ""
    if reveal.removing:
        removes = w.const("REMOVES", reveal.removing, "the cards that remove the revealed cards, as a mask")
        tail = _tail(w, place)
        nothing = "            break\n" if tail == "st.advance" else \
            Template(_NOTHING_PLACED).substitute(TAIL=tail, LEAVE=indent(_leave(w, place, tail), 8))
        removing = Template(_REMOVING).substitute(REMOVES=removes, NOTHING_PLACED=nothing)
        kept = f" and not ({removes} >> first | {removes} >> second) & 1"
    token = dict(TIED="gs.tiebreaker" if place.ties_to_holder else "0", PASSER="gs.tiebreaker" if place.passes else "None")
    size = len(place.config.number)
    if size * size <= ORDER_PAIRS:
        pairs = w.const("PAIRS", _pairs(place, reveal.removing), "by two seats' cards (first * cards + second): the seat "
                        "placing first, -1 for equal numbers, -2 when a card removes both")
        kept = f" and (first := {pairs}[first * {literal(size)} + second]) != -2"
        order = Template(_ORDER_PAIRS).substitute(token)
    else:
        order = Template(_ORDER).substitute(token, NUMBER=w.const("NUMBER", tuple(place.config.number), "each card's number"),
                                            BEFORE=">" if place.descending else "<")
    return dedent(Template(_AFTER_CHOOSING).substitute(
        REMOVING=removing, KEPT=kept, PLACE_AT=literal(at + 2), PLACE=w.bind("step", place), ORDER=order,
        CELLS=literal(place.cells), PLACE_STATE=own_class(w, w.bind("step", place))))


# ---- placing --------------------------------------------------------------------------------

#: the legal moves of the place step: a free cell next to the display inside the board (the
#: frame's neighbourhood as shifts, the board's window per bounding box: `$$WINDOW`); a
#: sliding card's slides; the moves of a pending `when placed` effect. The free cells lie in
#: the frame rows from `$$ROW_FROM` to `$$ROW_TO` (by the box's rows) and in the board's columns
#: + 1 cells of each from `$$COL_FROM` (by its columns): one pick of the interned moves a row
#: (`$$PICK_PLACES`; `grid_moves.CellMoves`: one table of a card text's moves for the origins
#: near home, by virtual cell, `$$VIRTUAL[bit] + base`: the moves of a few cells from a cell,
#: made by the table's `run` (`pick`) when first read, and a picker per pattern of them)
_PLACE_LEGAL = """\
def $NAME(st, seat=None):
    \"\"\"The legal moves of the placing step (a place list is handed out as it is: it is
    checked by its cell mask, so changing it changes nothing; other lists as copies); the
    placing state's `legal_moves` itself.\"\"\"
    if seat is not None:
        return $ENGINE_STATE.legal_moves(st, seat)
    gs = st.extra["grid"]
    if gs.effect is not None:
        legal = st._legal = $RELOCATIONS(st, gs)
        return list(legal)
    card = gs.revealed[st.current_player]
    occ = gs.occ
    if not occ:
        legal = st._legal = $LISTED($TEXTS[card], gs.origin, 1 << gs.bit_of((0, 0)))
        return legal
    box = gs._box or gs.box
$SLIDES$WINDOW    wide = occ | occ << 1 | occ >> 1
    free = $GROW & window ^ occ
    cells, runs, base, pick = $BY_CARD[card].get(gs.origin) or $TABLE($TEXTS[card], gs.origin)
    legal = st._legal = $CELL_LIST()
    legal.free, legal.cells, legal.base = free, cells, base
$PICK_PLACES    return legal
"""


#: a place move of the listed cells (a move of the step's place class holds a cell bit), played
#: here (`_PLACE`); a slide or a card moved (in the short list of the decision, by identity: a
#: slide with its entry); anything else through the engine's `State.apply`
_PLACE_APPLY = """\
if move.__class__ is $PLACE_MOVE:
    legal = st._legal
    if legal.__class__ is $CELL_LIST and legal.cells[move.arg] is move:
        bit = $FRAME_BIT[move.arg - legal.base]
        if legal.free >> bit & 1:
$PLACE
            return
elif move.__class__ is $MOVE:
    legal = st._legal
    if legal.__class__ is $SLIDE_LIST:
        i = 0
        for found in legal:
            if found is move:
                $SLIDE(st, move, legal.entries[i])
                return
            i += 1
    elif legal is not None:
        for found in legal:
            if found is move:
                $RELOCATE(st, move)
                return
return $$STATE.apply(st, move)
"""

#: `GridState.put`, written out with the card's kinds (`Kinds.of`) as a literal table (the
#: points' memo needs no reset: it is kept per move count, and the move is recorded next)
_PUT = """\
    gs.at[bit] = card
    gs.where[card] = bit
    gs.mask |= 1 << card
    here = 1 << bit
    gs.occ = occ = gs.occ | here
$KEEP_KINDS    box = gs._box
    r, c = $ROW_OF[bit], $COL_OF[bit]
    if box is not None:
        r0, r1, c0, c1 = box
        if not (r0 <= r <= r1 and c0 <= c <= c1):
            gs._box = (r if r < r0 else r0, r if r > r1 else r1, c if c < c0 else c0, c if c > c1 else c1)
    elif occ == here:
        gs._box = (r, r, c, c)
"""

#: the start of putting the seat's revealed card on the board, and the end of it: the frame
#: recentred, the move recorded, the card's effect planned or the next seat
_TAKE_REVEALED = '''\
    gs = st.extra["grid"]
    seat = st.current_player
    revealed = gs.revealed
    card = revealed[seat]
    revealed[seat] = None
'''
_PUT_PLACED = """\
$PUT    if occ & $OUTSIDE:
        gs.recentre()
    st._legal = None
    st._history.append(move)
$EFFECT"""
_PUT_DONE = _PUT_PLACED + "    $PLACED(st, gs, seat)\n"

#: the kinds of card the card is one of get its cell (`$$CHANGE`: `|= here`), or change by
#: its old and new cells (`^= change`): one slot of `GridState.kind_cells` after the other
#: when every card is of as many kinds (one or two), else in a loop
_KINDS_LOOP = """\
    cells = gs.kind_cells
    for slot in $SLOTS[card]:
        cells[slot] $CHANGE
"""
_KINDS_ONE = """\
    gs.kind_cells[$SLOTS[card]] $CHANGE
"""
_KINDS_TWO = """\
    cells = gs.kind_cells
    i, j = $SLOTS[card]
    cells[i] $CHANGE
    cells[j] $CHANGE
"""

#: a seat has placed (`PlaceCards._placed`, `_next`): the token passes if it must, the next
#: seat places, or the step is over
_NEXT_SEAT = """\
    queue = gs.queue
    del queue[0]
    if gs.passer == seat:
        gs.tiebreaker = (seat + 1) % len(gs.revealed)
        gs.passer = None
    if queue:
        if len(gs.at) < $CELLS:
            st.current_player = queue[0]
            return
        if $STEP._next(st, gs):
            return
$LEAVE    $AFTER(st)
"""

#: `place CARD at R,C`: the revealed card is put on a free cell (`PlaceCards.apply`), and the
#: next seat places or the rest of the round is played; written into the state's `apply`
_PLACE = _TAKE_REVEALED + _PUT_PLACED + _NEXT_SEAT

#: a slide (its docstring); the card is put as `_PUT` puts it, and the display's box is kept
#: when the other lines reach both of its ends along the line (grown to the pushed cards and
#: the card: `low` to `high` along the line, which lies in the box), else it is worked out when asked
_SLIDE = """\
def $NAME(st, move, entry):
    \"\"\"`slide CARD into row 1 from left`: the line's cards are pushed, the card takes the
    cell behind them (`PlaceCards.apply`: `GridState.shift` by `grid.slide_cells`, written out:
    the line's cards, in cell order, go to the cells from the entry's first one on, a step
    apart; `entry`: the slide's entry of the list).\"\"\"
""" + _TAKE_REVEALED + """\
    _, line, step, new, bit = entry
    at, where, cells = gs.at, gs.where, gs.kind_cells
    occ = rest = gs.occ ^ line
    first = new
    moved = []
    while line:
        low = line & -line
        line ^= low
        moved.append((at.pop(low.bit_length() - 1), low))
    for mover, low in moved:
        at[new] = mover
        where[mover] = new
        here = 1 << new
        occ |= here
        change = low ^ here
$SLIDE_KINDS        new += step
    at[bit] = card
    where[card] = bit
    gs.mask |= 1 << card
    here = 1 << bit
    gs.occ = occ = occ | here
$KEEP_KINDS    box = gs._box
    if box is not None:
        r0, r1, c0, c1 = box
        low, high = (bit, new - step) if bit < first else (first, bit)
        if step == 1 and rest & $COL_CELLS[c0] and rest & $COL_CELLS[c1]:
            c, last = $COL_OF[low], $COL_OF[high]
            gs._box = (r0, r1, c if c < c0 else c0, last if last > c1 else c1)
        elif step != 1 and rest & $ROW_CELLS[r0] and rest & $ROW_CELLS[r1]:
            r, last = $ROW_OF[low], $ROW_OF[high]
            gs._box = (r if r < r0 else r0, last if last > r1 else r1, c0, c1)
        else:
            gs._box = None
""" + _PUT_DONE.replace("$PUT", "")

#: the card leaves its cell and takes the new one (`GridState.lift` and `put`, written out:
#: it stays on the display, so its kinds' cells and the occupied cells change by the two cells); the
#: display's box is kept, grown to the new cell, unless the card leaves a first or last row or
#: column of the box empty (then it is worked out when asked)
_RELOCATE = """\
def $NAME(st, move):
    \"\"\"`move CARD to R,C`: the placed card's effect moves one card (`PlaceCards.apply`).\"\"\"
    gs = st.extra["grid"]
    seat = st.current_player
    card, index = move.arg          # its cell in the virtual grid (`grid_moves.CellMoves`)
    bit = $FRAME_BIT[index - $MOVE_BASE(gs.origin)]
    at, where = gs.at, gs.where
    old = where[card]
    del at[old]
    at[bit] = card
    where[card] = bit
    change = 1 << old | 1 << bit
    gs.occ = occ = gs.occ ^ change
$MOVE_KINDS    box = gs._box
    if box is not None:
        r0, r1, c0, c1 = box
        r, c, rest = $ROW_OF[old], $COL_OF[old], occ ^ 1 << bit
        if (r == r0 or r == r1) and not rest & $ROW_CELLS[r] or (c == c0 or c == c1) and not rest & $COL_CELLS[c]:
            gs._box = None
        else:
            r, c = $ROW_OF[bit], $COL_OF[bit]
            gs._box = (r if r < r0 else r0, r if r > r1 else r1, c if c < c0 else c0, c if c > c1 else c1)
    gs.effect = None
    if occ & $OUTSIDE:
        gs.recentre()
    st._legal = None
    st._history.append(move)
    $PLACED(st, gs, seat)
"""

_PLACED = """\
def $NAME(st, gs, seat):
    \"\"\"A seat has placed: the next seat of the placing order, or the rest of the round.\"\"\"
""" + _NEXT_SEAT

#: a box's window and the first and past-last bits of the frame rows its free cells lie in:
#: from one table by the box (`BitBoard.boxes`: a display lies in the frame's interior when its
#: moves are listed), or from four by its rows and its columns on a board with too many boxes
_BOX_WINDOW = """\
    window, start, stop = $BOXES[$BOX]
"""
_BOX_WINDOW_PARTS = """\
    rows, cols = r0 * $HEIGHT + r1, c0 * $WIDTH + c1
    first = $COL_FROM[cols]
    window, start, stop = $ROWS_WINDOW[rows] & $COLS_WINDOW[cols], $ROW_FROM[rows] + first, $ROW_TO[rows] + first
"""


def _box_window(w, board, names) -> tuple[str, str]:
    """`$$WINDOW` of `_PLACE_LEGAL` and `$$REST_WINDOW` of `_PLAN` (the others' box, `r0, r1,
    c0, c1`): `_BOX_WINDOW`, or `_BOX_WINDOW_PARTS` with its tables (`_window_parts`)."""
    if board.boxes is None:
        parts = Template(_BOX_WINDOW_PARTS).substitute(names, **_window_parts(w, board))
        return "    r0, r1, c0, c1 = box\n" + parts, indent(parts, 4)
    boxes = w.bind("boxes", board.boxes)
    return (Template(_BOX_WINDOW).substitute(BOXES=boxes, BOX="box"),
            indent(Template(_BOX_WINDOW).substitute(BOXES=boxes, BOX="r0, r1, c0, c1"), 4))


def _board_tables(w, board) -> dict:
    """The board's frame as generated names: its size, its neighbourhood as shifts, and the
    frame row and column of each bit."""
    width = board.width
    grow = f"(wide | wide << {width} | wide >> {width})" if board.adjacency == 8 else \
        f"(wide | occ << {width} | occ >> {width})"
    return {"WIDTH": literal(width), "HEIGHT": literal(board.height), "GROW": grow,
            "ROW_OF": w.const("ROW_OF", [bit // width for bit in range(board.size)], "the frame row of each bit"),
            "COL_OF": w.const("COL_OF", [bit % width for bit in range(board.size)], "the frame column of each bit"),
            "OUTSIDE": w.const("OUTSIDE", board.outside, "the frame's cells outside its interior")}


def _window_parts(w, board) -> dict:
    """The window (`BitBoard.window`: where one more card keeps the display inside the board)
    of a bounding box as the rows part by (first row, last row) and the columns part by (first
    column, last column), so that the window is one `&` of two table entries, on a board with
    too many boxes for one table by box (`BitBoard.boxes`). Only a box in the interior is ever
    looked up (`BitBoard.spans`); the other entries are 0, so that a large frame does not
    hold a frame-wide mask for each pair of its rows and of its columns."""
    width, height = board.width, board.height
    rows, cols = [0] * height * height, [0] * width * width
    for r0, r1 in board.spans[0]:
        rows[r0 * height + r1] = board.rect(r1 - board.rows + 1, r0 + board.rows - 1, 0, width - 1)
    for c0, c1 in board.spans[1]:
        cols[c0 * width + c1] = board.rect(0, height - 1, c1 - board.cols + 1, c0 + board.cols - 1)
    # the frame rows a card placed next to the display may take (as bit offsets, by the box's
    # rows) and the first column (by its columns): within a card of the box and the board's size
    row_from = [max(r0 - 1, r1 - board.rows + 1) * width if r0 <= r1 else 0 for r0 in range(height) for r1 in range(height)]
    row_to = [(min(r1 + 1, r0 + board.rows - 1) + 1) * width if r0 <= r1 else 0 for r0 in range(height) for r1 in range(height)]
    col_from = [max(c0 - 1, c1 - board.cols + 1) if c0 <= c1 else 0 for c0 in range(width) for c1 in range(width)]
    return {"ROWS_WINDOW": w.const("ROWS_WINDOW", rows, "the window's frame rows, by a box's (first row * height + last row)"),
            "COLS_WINDOW": w.const("COLS_WINDOW", cols, "the window's frame columns, by (first column * width + last column)"),
            "ROW_FROM": w.const("ROW_FROM", row_from, "the first frame row's bit of the free cells, by a box's rows"),
            "ROW_TO": w.const("ROW_TO", row_to, "... and the first bit past their last frame row"),
            "COL_FROM": w.const("COL_FROM", col_from, "the first frame column of the free cells, by a box's columns")}


def _pick(names, into: str, depth: int, level: int) -> str:
    """The statement that adds the interned moves of a frame row's free cells from bit `at`
    (and of the next row's, when a pick takes two) to the list `into`, from the table's picks
    (`runs`, or made by the table's `run` when first read: `pick`) of virtual cell `index`
    (the first pick's) + the rows of `level` picks: one pick, or one per `span` cells on a
    board wider than that (`free` shifted down to bit `at`: `cut`). A pick of two rows reads
    its pattern as one `&` of `free >> at` and a remainder when the frame is wide enough
    (`_folded`), so that no shift of the board's whole mask is made per pick."""
    span, wide, pad, moves = names["SPAN_CELLS"], names["ROW_SPAN"], " " * depth, names["CELL_MOVES"]
    mask, takes = literal((1 << span) - 1), names["TAKES"]
    at = f"index + {literal(level * moves.rows * moves.width)}" if level else "index"
    run = f"runs[{at}] or pick({at})"
    if moves.rows == 2:
        width = names["FRAME_WIDTH"]
        if _folded(span, width):
            both = literal((1 << span) - 1 | ((1 << span) - 1) << width)
            return f"{pad}{into} += {takes}[(free >> at & {both}) % {literal((1 << width) - (1 << span))}]({run})\n"
        return (f"{pad}{into} += {takes}[cut & {mask} | cut >> {literal(width - span)} "
                f"& {literal(((1 << span) - 1) << span)}]({run})\n")
    if wide <= span:
        return f"{pad}{into} += {takes}[cut & {mask}]({run})\n"
    return (f"{pad}for part in range({literal(wide // span + (wide % span > 0))}):\n"
            f"{pad}    {into} += {takes}[cut >> part * {literal(span)} & {mask}]"
            f"(runs[{at} + part * {literal(span)}] or pick({at} + part * {literal(span)}))\n")


def _folded(span: int, width: int) -> bool:
    """Whether two rows' `span` cells, `a | b << width` (a, b < 2 ** span), give the picker's
    pattern `a | b << span` as their remainder by 2 ** width - 2 ** span: 2 ** width leaves
    2 ** span, so the remainder is a + b * 2 ** span whenever that is below the divisor."""
    return 1 << 2 * span <= (1 << width) - (1 << span)


def pick_count(moves) -> int:
    """How many picks of `moves` (a `grid_moves.CellMoves`) take the board's rows + 1 frame rows."""
    return -(-(moves.board.rows + 1) // moves.rows)


def _picks(names, into: str, depth: int) -> str:
    """The statements that add the interned moves of the free cells of the frame rows from
    bit `start` to `stop` to the list `into`: a pick (`_pick`) from `start`, then one from each
    pick's rows further on while `stop` is not reached, written out (the free cells of a
    place list or a moved card lie in at most the board's rows + 1 frame rows)."""
    step, moves = names["PICK_STEP"], names["CELL_MOVES"]
    cut = moves.rows != 2 or not _folded(names["SPAN_CELLS"], names["FRAME_WIDTH"])     # picks read `cut`
    out = (" " * depth + ("at, cut = start, free >> start\n" if cut else "at = start\n")
           + " " * depth + f"index = {names['VIRTUAL']}[start] + base\n" + _pick(names, into, depth, 0))
    for level in range(1, pick_count(moves)):
        pad = " " * (depth + 4 * (level - 1))
        out += (f"{pad}at += {step}\n{pad}if at < stop:\n" + (f"{pad}    cut >>= {step}\n" if cut else "")
                + _pick(names, into, depth + 4 * level, level))
    return out



def _placing(w, step) -> dict:
    """The generated functions of the placing step; their names for the templates."""
    config = step.config
    names = _board_tables(w, step.board)
    names.update(STEP=w.bind("step", step), MOVE=w.bind("Move", Move), CELL_LIST=w.bind("CellList", CellList),
                 ENGINE_STATE=w.bind("EngineState", State),
                 PLACE_MOVE=w.bind("PlaceMove", step.place_class),
                 SLIDE_LIST=w.bind("SlideList", SlideList), SLIDE_TABLES=w.bind("slide_tables", step.interned),
                 LISTED=w.bind("listed", step.places.listed),
                 BY_CARD=w.bind("place_tables", step.place_tables),
                 TABLE=w.bind("place_table", step.places.table),
                 TAKES=w.bind("takes", step.places.takes), SPAN_CELLS=step.places.span, ROW_SPAN=step.board.cols + 1,
                 CELL_MOVES=step.places, FRAME_WIDTH=step.board.width,
                 VIRTUAL=w.const("VIRTUAL", step.places.virtual, "each frame bit's cell in the virtual grid of the "
                                 "interned moves (`grid_moves.CellMoves`)"),
                 FRAME_BIT=w.bind("frame_bit", step.places.frame_bit), MOVE_BASE=w.bind("move_base", step.moves.base),
                 PICK_STEP=literal(step.places.rows * step.board.width),
                 TEXTS=w.bind("texts", config.texts), CELLS=literal(step.cells),
                 ROW_CELLS=w.const("ROW_CELLS", tuple(step.board.row_cells), "the cells of each frame row"),
                 COL_CELLS=w.const("COL_CELLS", tuple(step.board.col_cells), "the cells of each frame column"))
    names["PICK_PLACES"], names["PICK_MOVES"] = _picks(names, "legal", 4), _picks(names, "moves", 8)
    names["WINDOW"], names["REST_WINDOW"] = _box_window(w, step.board, names)
    names["SLIDES"] = "" if not step.sliding else _slides(w, step, names)
    moving = _mask(step.movers)
    names["EFFECT"] = names["PLAN_METHOD"] = ""
    if moving:
        names["PLAN"] = _plan(w, step, names)
        names["EFFECT"] = Template(_EFFECT).substitute(
            names, MOVING=w.const("MOVING", moving, "the cards with a `when placed` effect, as a mask"))
        names["PLAN_METHOD"] = Template(_PLAN_METHOD).substitute(names)
        names["RELOCATIONS"] = w.name("relocations")
        w.lines(Template(_RELOCATIONS).substitute(names, NAME=names["RELOCATIONS"],
                                                  MOVE_TABLE=w.bind("move_table", step.moves.table),
                                                  MOVE_TABLES=w.bind("move_tables", step.move_tables)))
    else:
        names["RELOCATIONS"] = w.bind("relocations", step.relocations)
    counts = {len(config.kinds.of[c]) for c in range(len(config.texts))}
    kinds = {0: "", 1: _KINDS_ONE, 2: _KINDS_TWO}.get(counts.pop(), _KINDS_LOOP) if len(counts) == 1 else _KINDS_LOOP
    slots = tuple(config.kinds.of[c] if kinds is not _KINDS_ONE else config.kinds.of[c][0] for c in range(len(config.texts)))
    slots = w.const("SLOTS", slots, "the kinds of card (`GridState.kind_cells`) each card is one of")
    names["KEEP_KINDS"] = Template(kinds).substitute(SLOTS=slots, CHANGE="|= here")
    names["MOVE_KINDS"] = Template(kinds).substitute(SLOTS=slots, CHANGE="^= change")
    # a pushed card's kinds change by its old and new cells, one slot after the other as for
    # the placed card, else in a loop
    slide_kinds = {_KINDS_ONE: "        cells[$SLOTS[mover]] ^= change\n",
                   _KINDS_TWO: "        i, j = $SLOTS[mover]\n        cells[i] ^= change\n        cells[j] ^= change\n"}.get(
        kinds, "        for slot in $SLOTS[mover]:\n            cells[slot] ^= change\n")
    names["SLIDE_KINDS"] = "" if kinds == "" else Template(slide_kinds).substitute(SLOTS=slots)
    names["PUT"] = Template(_PUT).substitute(names)
    names["AFTER"] = _tail(w, step)
    names["LEAVE"] = _leave(w, step, names["AFTER"])
    names["PLACE"] = indent(dedent(Template(_PLACE).substitute(names)), 12).rstrip("\n")
    for key, prefix, template in (("PLACED", "placed", _PLACED), ("SLIDE", "slide", _SLIDE),
                                  ("RELOCATE", "relocate", _RELOCATE), ("LEGAL", "place_legal", _PLACE_LEGAL)):
        names[key] = w.name(prefix)
        w.lines(Template(template).substitute(names, NAME=names[key]))
    return names


def emit(w, step):
    """(the generated class's name, the bodies of legal moves and of apply for the generated
    state) for choosing or placing on a grid, or None for any other step."""
    kind = getattr(type(step), "generated_from", type(step))
    if kind is grid_steps.ShuffleDecks:
        name = _shuffle(w, step, kind)
        return None if name is None else (name, None, None)
    if kind is grid_steps.ChooseCard:
        names = {"CACHE": w.bind("hand_moves", step.cache), "CHOICE": w.bind("ChoiceMove", step.move_class),
                 "AFTER": _after_choosing(w, step)}
        legal, apply, what, cls = _CHOOSE_LEGAL, _CHOOSE_APPLY, "choosing a card", _CLASS
        names["LIST"] = Template("$CACHE.get(st.hands[st.current_player]) or self.legal(st)").substitute(names)
    elif kind is grid_steps.PlaceCards:
        names = _placing(w, step)
        legal, apply, what, cls = ALIAS + "$LEGAL\n", _PLACE_APPLY, "placing cards", _CLASS_LEGAL
        names["LIST"] = names["LEGAL"] + "(st)"
    else:
        return None
    names.update(CLS=w.name("Grid"), BASE=w.bind("Base", kind), WHAT=what)
    names["WALK"] = Template(_WALK).substitute(names)
    w.lines(Template(cls).substitute(names))
    return names["CLS"], Template(legal).substitute(names), Template(apply).substitute(names)
