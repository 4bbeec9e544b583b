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
- sliding a card into a line and moving a card after a `when placed` effect: listed by the
  engine (`grid.BitBoard.slides`, `targets`), checked by identity in the short list and played
  by generated functions (`slide_N`, `relocate_N`);
- the rest of a placing: the next seat of the placing order, or the round's end
  (`placed_N`). When the steps after placing are plain draws (`draw N each`, nothing kept),
  the last placement of a round also runs what `State.advance` would: the draws,
  the end of the round and the next round's choosing, in one generated function
  (`after_placing_N`, written by `write_tails` once the generated end of the round, which
  it holds, is known: `compile/codegen_grid_end.py`), so a round pays no step loop.

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

import functools
import weakref
from string import Template
from textwrap import dedent

from ..engine import grid, grid_steps
from ..engine.grid_moves import CellList, SlideList
from ..engine.moves import Move
from ..engine.state import State
from .codegen import ALIAS, literal, own_class
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

# ---- set-up ---------------------------------------------------------------------------------

#: `shuffle each deck`: `random.Random.shuffle` written out (the same draws: for each place
#: from the last down, `getrandbits(k)` until below the count of places left; the generated
#: module exists only where `randrange` draws so, `codegen.exact_randbelow`), by seat the
#: cards in deck order and each draw's (count, bits)
_SHUFFLE = """\
class $CLS($BASE):
    \"\"\"Generated: each seat's own cards shuffled into its deck, as `random.Random.shuffle` shuffles them.\"\"\"
    generated_from = $BASE

    def enter(self, st):
        getrandbits = st.random().getrandbits
        decks = st.extra["grid"].decks
        for seat in range(st.n):
            cards, draws = $DECKS[seat]
            cards = list(cards)
            for count, bits in draws:
                r = getrandbits(bits)
                while r >= count:
                    r = getrandbits(bits)
                i = count - 1
                cards[i], cards[r] = cards[r], cards[i]
            decks[seat] = cards
        return False
"""


#: ... written out draw by draw for decks of at most `SHUFFLE_UNROLLED` cards in all
_SHUFFLE_UNROLLED = """\
class $CLS($BASE):
    \"\"\"Generated: each seat's own cards shuffled into its deck, as `random.Random.shuffle` shuffles them.\"\"\"
    generated_from = $BASE

    def enter(self, st):
        getrandbits = st.random().getrandbits
        decks = st.extra["grid"].decks
        n = st.n
$SEATS        return False
"""
_SHUFFLE_SEAT = """\
        if n > $SEAT:
            cards = $CARDS
$DRAWS            decks[$SEAT] = cards
"""
_SHUFFLE_DRAW = """\
            r = getrandbits($BITS)
            while r >= $COUNT:
                r = getrandbits($BITS)
            cards[$LAST], cards[r] = cards[r], cards[$LAST]
"""
SHUFFLE_UNROLLED = 256


def _shuffle(w, step, kind) -> str:
    seat_cards, name, base = step.config.seat_cards, w.name("Shuffle"), w.bind("Base", kind)
    if sum(map(len, seat_cards)) <= SHUFFLE_UNROLLED:
        seats = "".join(Template(_SHUFFLE_SEAT).substitute(
            SEAT=literal(seat), CARDS=f"[*{literal(tuple(cards))}]", DRAWS="".join(
                Template(_SHUFFLE_DRAW).substitute(BITS=literal(count.bit_length()), COUNT=literal(count),
                                                   LAST=literal(count - 1)) for count in range(len(cards), 1, -1)))
            for seat, cards in enumerate(seat_cards))
        w.lines(Template(_SHUFFLE_UNROLLED).substitute(CLS=name, BASE=base, SEATS=seats))
        return name
    decks = tuple((tuple(cards), tuple((count, count.bit_length()) for count in range(len(cards), 1, -1)))
                  for cards in seat_cards)
    w.lines(Template(_SHUFFLE).substitute(CLS=name, BASE=base, DECKS=w.const(
        "DECKS", decks, "by seat: its cards in deck order, and each draw of the shuffle (count, bits)")))
    return name


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

#: the pending `when placed` effect's movable cards (`PlaceCards._plan`): each (cell, card,
#: the cells it may move to as `BitBoard.targets` finds them, whether no other movable card
#: has its text, and the first bits of the frame rows those cells lie in: from `start` to
#: `stop`, in the board's columns + 1 cells from each, as for a place list), in cell order,
#: kept in `gs.effect`. The others' box is the display's (its window, its rows' bits `low`
#: to `high`) unless the card is alone in the box's first or last row or column (`alone`)
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
            free = -1
            for part in $GROUPS(rest):
                wide = part | part << 1 | part >> 1
                free &= $GROW_PART
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

#: the steps after placing, when they are plain draws: what `State.advance` does from the
#: place step (each draw, the end of the round, the next round's steps up to a decision; a
#: generated end of round enters them itself and says so)
_TAIL = """\
def $TAIL(st):
    \"\"\"The round's last placement is made: its draws, its end, the next round's choosing.\"\"\"
    hands = st.hands
    decks = st.extra["grid"].decks
$DRAWS    rules = st.rules
    if rules.end_round(st):
        return
    if st.is_terminal:
        st.step = $START - 1
        st.current_player = None
        return
    st._step, st._at = $START, $CHOOSE
    st.pending = [None] * st.n
    for seat in range(st.n):
        if hands[seat]:
            st.current_player = seat
            return
    st.advance()
"""

_DRAW_ONE = """\
    for seat in range(st.n):
        deck = decks[seat]
        if deck:
            hands[seat] |= 1 << deck.pop(0)
"""

_DRAW_MANY = """\
    for seat in range(st.n):
        deck = decks[seat]
        for card in deck[:$COUNT]:
            hands[seat] |= 1 << card
        del deck[:$COUNT]
"""

#: ... each seat's written out, when the rules are for one number of seats
_DRAW_SEAT_ONE = """\
    deck = decks[$SEAT]
    if deck:
        hands[$SEAT] |= 1 << deck.pop(0)
"""

_DRAW_SEAT_MANY = """\
    deck = decks[$SEAT]
    for card in deck[:$COUNT]:
        hands[$SEAT] |= 1 << card
    del deck[:$COUNT]
"""


def _leave(w, step, tail: str) -> str:
    """The line that gives the state the class of the round's choosing before the generated
    tail runs (the tail enters that step without `advance`), or none for `st.advance`."""
    if tail == "st.advance":
        return ""
    return f"    st.__class__ = {own_class(w, w.bind('choose', step.round_steps[step.round_start]))}\n"


def _tail(w, step) -> str:
    """The name of the generated function that runs the rest of a round after its last
    placement (`_TAIL`, written once per module by `write_tails`), or `st.advance` when the
    steps after placing are not plain draws followed by the round's end and a choosing step."""
    written = _TAILS.setdefault(w, {})
    if step not in written:
        written[step] = _plan_tail(w, step)
    return written[step]


#: the tails named so far, per writer and place step; and those not written yet, per writer
_TAILS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_PENDING: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def write_tails(w, fused=None, seats: int | None = None) -> None:
    """Write the tails `_tail` named: each with the end of the round written in (`fused(names)
    -> source`, given by the generated end of a grid game, `codegen_grid_end.emit`, which
    runs after the steps are written), or calling `rules.end_round`; with `seats`, the rules'
    only number of seats, each seat's draws written out."""
    for names in _PENDING.pop(w, ()):
        draws = []
        for count in names["COUNTS"]:
            if seats is None:
                draws.append(Template(_DRAW_ONE if count == 1 else _DRAW_MANY).substitute(COUNT=literal(count)))
            else:
                draws.extend(Template(_DRAW_SEAT_ONE if count == 1 else _DRAW_SEAT_MANY).substitute(
                    COUNT=literal(count), SEAT=literal(seat)) for seat in range(seats))
        names = dict(names, DRAWS="".join(draws))
        w.lines(Template(_TAIL).substitute(names) if fused is None else fused(names))


def _plan_tail(w, step) -> str:
    steps, start = getattr(step, "round_steps", None), getattr(step, "round_start", None)
    if steps is None or start is None or step not in steps or not 0 <= start < len(steps):
        return "st.advance"
    choose = steps[start]
    if getattr(type(choose), "generated_from", type(choose)) is not grid_steps.ChooseCard:
        return "st.advance"
    draws = []
    for index in range(steps.index(step) + 1, len(steps)):
        draw = steps[index]
        if type(draw) is not grid_steps.DrawCards or draw.keep is not None or draw.count.__class__ is not int:
            return "st.advance"
        draws.append(draw.count)
    tail = w.name("after_placing")
    _PENDING.setdefault(w, []).append({"TAIL": tail, "COUNTS": draws, "START": literal(start), "LAST": literal(len(steps) - 1),
                                       "CHOOSE": w.bind("choose", choose)})
    return tail


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
    c0, c1`): `_BOX_WINDOW` or `_BOX_WINDOW_PARTS`."""
    if board.boxes is None:
        parts = Template(_BOX_WINDOW_PARTS).substitute(names)
        return "    r0, r1, c0, c1 = box\n" + parts, indent(parts, 4)
    boxes = w.bind("boxes", board.boxes)
    return (Template(_BOX_WINDOW).substitute(BOXES=boxes, BOX="box"),
            indent(Template(_BOX_WINDOW).substitute(BOXES=boxes, BOX="r0, r1, c0, c1"), 4))


def _board_tables(w, board) -> dict:
    """The board's frame as generated names: its neighbourhood as shifts, and the window
    (`BitBoard.window`: where one more card keeps the display inside the board) of a
    bounding box as the rows part by (first row, last row) and the columns part by (first
    column, last column), so that the window is one `&` of two table entries."""
    width, height = board.width, board.height
    rows = [board.rect(r1 - board.rows + 1, r0 + board.rows - 1, 0, width - 1) if r0 <= r1 else 0
            for r0 in range(height) for r1 in range(height)]
    cols = [board.rect(0, height - 1, c1 - board.cols + 1, c0 + board.cols - 1) if c0 <= c1 else 0
            for c0 in range(width) for c1 in range(width)]
    # the frame rows a card placed next to the display may take (as bit offsets, by the box's
    # rows) and the first column (by its columns): within a card of the box and the board's size
    row_from = [max(r0 - 1, r1 - board.rows + 1) * width if r0 <= r1 else 0 for r0 in range(height) for r1 in range(height)]
    row_to = [(min(r1 + 1, r0 + board.rows - 1) + 1) * width if r0 <= r1 else 0 for r0 in range(height) for r1 in range(height)]
    col_from = [max(c0 - 1, c1 - board.cols + 1) if c0 <= c1 else 0 for c0 in range(width) for c1 in range(width)]
    grow = f"(wide | wide << {width} | wide >> {width})" if board.adjacency == 8 else \
        f"(wide | occ << {width} | occ >> {width})"
    return {"WIDTH": literal(width), "HEIGHT": literal(height), "GROW": grow,
            "ROWS_WINDOW": w.const("ROWS_WINDOW", rows, "the window's frame rows, by a box's (first row * height + last row)"),
            "COLS_WINDOW": w.const("COLS_WINDOW", cols, "the window's frame columns, by (first column * width + last column)"),
            "ROW_FROM": w.const("ROW_FROM", row_from, "the first frame row's bit of the free cells, by a box's rows"),
            "ROW_TO": w.const("ROW_TO", row_to, "... and the first bit past their last frame row"),
            "COL_FROM": w.const("COL_FROM", col_from, "the first frame column of the free cells, by a box's columns"),
            "ROW_OF": w.const("ROW_OF", board.row_of, "the frame row of each bit"),
            "COL_OF": w.const("COL_OF", board.col_of, "the frame column of each bit"),
            "OUTSIDE": w.const("OUTSIDE", board.outside, "the frame's cells outside its interior")}


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
        names, NAME=name, MOVABLE=movable, GROUPS=w.bind("groups", board.groups),
        RING_OF=_ring_of(width),
        KEEPS=w.const("KEEPS", keeps, "per 3x3 neighbourhood: 1 if a card may leave it without splitting the display"),
        COL_CELLS=w.const("COL_CELLS", tuple(board.col_cells), "the cells of each frame column"),
        ROW_CELLS=w.const("ROW_CELLS", tuple(board.row_cells), "the cells of each frame row"),
        SAME_TEXT=w.const("SAME_TEXT", tuple(same), "per card, the cards with its text"),
        GROW_REST=grow.format(board.width, "rest"), GROW_PART=grow.format(board.width, "part")))
    return name


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
        return _shuffle(w, step, kind), None, None
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
