"""Choosing and placing cards on a grid → generated source, inside the game's state class.

Pipeline place: compiler → **codegen** (grid steps) → engine. Half of a grid game's
decisions choose a card and most of the rest place one, so the generated state's
`legal_moves` and `apply` hold those two steps' common paths (`engine/grid_steps.py`
says what they do): choosing a card of the hand, and placing a card on a free cell, checked
by the cell mask of the place list (`grid_moves.CellList`). Anything else (a slide, moving a
card after a placement, a move given as text) goes through the steps as before. The steps
keep their classes' behaviour: their generated subclasses add nothing.

A placement of a card without a `when placed` effect is played in the generated `apply`
itself (`PlaceCards.apply`'s path for it, written out). When the round's steps after placing
are plain draws (`draw N each`, nothing kept), the last placement of a round also runs what
`State.advance` would: the draws, `rules.end_round`, and the next round's choosing, in
one generated function (`after_placing_N`), and the last choice reveals the cards and
starts the placing (`after_choosing_N`), so a round of four decisions pays no step loop.
"""
from __future__ import annotations

from string import Template

from ..engine import grid_steps
from ..engine.grid_moves import CellList
from ..engine.moves import Move
from .codegen import literal


def _mask(table) -> int:
    """The cards whose entry in a per-card table is set, as a mask."""
    mask = 0
    for card, entry in enumerate(table):
        if entry is not None:
            mask |= 1 << card
    return mask

_CLASS = """\
class $CLS($BASE):
    \"\"\"Generated: $WHAT of this game, written into the state's `legal_moves` and `apply`.\"\"\"
    generated_from = $BASE
"""

_CHOOSE_LEGAL = """\
moves = $CACHE.get(st.hands[st.current_player])
return list(moves if moves is not None else at.legal(st))
"""

#: choosing a card in hand; the last seat to choose ends the step (`$$STATE`: the base state)
_CHOOSE_APPLY = """\
card = $CARD_OF.get(id(move))
seat = st.current_player
hands = st.hands
if card is None or not hands[seat] >> card & 1:
    return $$STATE.apply(st, move)
st.pending[seat] = card
hands[seat] ^= 1 << card
st._legal = None
st._history.append(move)
for seat in range(seat + 1, st.n):
    if hands[seat]:
        st.current_player = seat
        return
$AFTER(st)
return
"""

#: after the last seat has chosen, when a reveal and the placing follow: what `State.advance`
#: does from the choosing step (the reveal, then the placing's start)
_AFTER_CHOOSING = """\
def $NAME(st):
    \"\"\"Every seat has chosen: the cards are revealed and the placing begins.\"\"\"
    st._step, st._at = $REVEAL_AT, $REVEAL
    $REVEAL.enter(st)
    st._step, st._at = $PLACE_AT, $PLACE
    if $PLACE.enter(st):
        return
    st.advance()
"""


def _after_choosing(w, step) -> str:
    """The generated function that reveals and starts the placing after the last choice, or
    `st.advance` when the steps after choosing are not a reveal and then a placing."""
    steps = getattr(step, "round_steps", None)
    if steps is None or step not in steps:
        return "st.advance"
    at = steps.index(step)
    if at + 2 >= len(steps):
        return "st.advance"
    reveal, place = steps[at + 1], steps[at + 2]
    if type(reveal) is not grid_steps.RevealCards or \
            getattr(type(place), "generated_from", type(place)) is not grid_steps.PlaceCards:
        return "st.advance"
    name = w.name("after_choosing")
    w.lines(Template(_AFTER_CHOOSING).substitute(NAME=name, REVEAL_AT=literal(at + 1), REVEAL=w.bind("reveal", reveal),
                                                 PLACE_AT=literal(at + 2), PLACE=w.bind("step", place)))
    return name

_PLACE_LEGAL = """\
gs = st.extra["grid"]
if gs.effect is None:
    card = gs.revealed[st.current_player]
    if not $SLIDING >> card & 1:
        occ = gs.occ
        free = $PLACEMENTS(occ, gs._box or gs.box) if occ else 1 << gs.bit_of((0, 0))
        legal = st._legal = $LISTED($TEXTS[card], gs.origin, free)
        return legal
return at.legal_moves(st)
"""

#: a place move of the listed cells: a card without a `when placed` effect is put here (as
#: `PlaceCards.apply` does), any other through the step's `apply`; then the next seat, or the
#: end of the step
_PLACE_APPLY = """\
legal = st._legal
if legal.__class__ is $CELL_LIST and move.__class__ is $MOVE:
    bit = move.arg
    if bit.__class__ is $INT and bit >= 0 and legal.free >> bit & 1 and legal.cells[bit] is move:
        gs = st.extra["grid"]
        seat = st.current_player
        revealed = gs.revealed
        card = revealed[seat]
        if $MOVING >> card & 1:
            over = at.apply(st, move)
        else:
            revealed[seat] = None
            gs.put(card, bit)
            if gs.occ & $OUTSIDE:
                gs.recentre()
            queue = gs.queue
            queue.pop(0)
            if gs.passer == seat:
                gs.tiebreaker = (seat + 1) % len(revealed)
                gs.passer = None
            if queue and len(gs.at) < $CELLS:
                st.current_player = queue[0]
                over = False
            else:
                over = not at._next(st, gs)
        st._legal = None
        st._history.append(move)
        if over:
            $AFTER(st)
        return
return $$STATE.apply(st, move)
"""

#: the steps after placing, when they are plain draws: what `State.advance` does from the
#: place step (each draw, the end of the round, the next round's steps up to a decision)
_TAIL = """\
def $TAIL(st):
    \"\"\"The round's last placement is made: its draws, its end, the next round's choosing.\"\"\"
    hands = st.hands
    decks = st.extra["grid"].decks
$DRAWS    rules = st.rules
    st._step = $COUNT
    rules.end_round(st)
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
    st._step, st._at = $INDEX, $STEP
    for seat in range(st.n):
        deck = decks[seat]
        if deck:
            hands[seat] |= 1 << deck.pop(0)
"""

_DRAW_MANY = """\
    st._step, st._at = $INDEX, $STEP
    for seat in range(st.n):
        deck = decks[seat]
        for card in deck[:$COUNT]:
            hands[seat] |= 1 << card
        del deck[:$COUNT]
"""


def _tail(w, step, names) -> str:
    """The name of the generated function that runs the rest of a round after its last
    placement (`_TAIL`), or `st.advance` when the steps after placing are not plain draws
    followed by the round's end and a choosing step."""
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
        block = _DRAW_ONE if draw.count == 1 else _DRAW_MANY
        draws.append(Template(block).substitute(INDEX=literal(index), STEP=w.bind("draw", draw),
                                                COUNT=literal(draw.count)))
    tail = w.name("after_placing")
    w.lines(Template(_TAIL).substitute(TAIL=tail, DRAWS="".join(draws), COUNT=literal(len(steps)),
                                       START=literal(start), CHOOSE=w.bind("choose", choose)))
    return tail


def emit(w, step):
    """(the generated class's name, the bodies of legal moves and of apply for the generated
    state) for choosing or placing on a grid, or None for any other step."""
    kind = getattr(type(step), "generated_from", type(step))
    if kind is grid_steps.ChooseCard:
        names = {"CACHE": w.bind("hand_moves", step.cache), "CARD_OF": w.bind("card_of_move", step.card_of_move),
                 "AFTER": _after_choosing(w, step)}
        legal, apply, what = _CHOOSE_LEGAL, _CHOOSE_APPLY, "choosing a card"
    elif kind is grid_steps.PlaceCards:
        names = {"SLIDING": w.const("SLIDING", step.sliding, "the cards placed by sliding, as a mask"),
                 "PLACEMENTS": w.bind("placements", step.board.placements),
                 "LISTED": w.bind("listed", step.places.listed), "TEXTS": w.bind("texts", step.config.texts),
                 "CELL_LIST": w.bind("CellList", CellList), "MOVE": w.bind("Move", Move), "INT": w.bind("int", int),
                 "MOVING": w.const("MOVING", _mask(step.movers), "the cards with a `when placed` effect, as a mask"),
                 "OUTSIDE": w.bind("outside", step.outside),
                 "CELLS": literal(step.cells)}
        names["AFTER"] = _tail(w, step, names)
        legal, apply, what = _PLACE_LEGAL, _PLACE_APPLY, "placing cards"
    else:
        return None
    names.update(CLS=w.name("Grid"), BASE=w.bind("Base", kind), WHAT=what)
    w.lines(Template(_CLASS).substitute(names))
    return names["CLS"], Template(legal).substitute(names), Template(apply).substitute(names)
