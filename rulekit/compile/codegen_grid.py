"""Choosing and placing cards on a grid → generated source, inside the game's state class.

Pipeline place: compiler → **codegen** (grid steps) → engine. Half of a grid game's
decisions choose a card and most of the rest place one, so the generated state's
`legal_moves` and `apply` hold those two steps' common paths (`engine/grid_steps.py`
says what they do): choosing a card of the hand, and placing a card on a free cell, checked
by the cell mask of the place list (`grid_moves.CellList`). Anything else (a slide, moving a
card after a placement, a move given as text) goes through the steps as before. The steps
keep their classes' behaviour: their generated subclasses add nothing.
"""
from __future__ import annotations

from string import Template

from ..engine import grid_steps
from ..engine.grid_moves import CellList
from ..engine.moves import Move

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
st.advance()
return
"""

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

#: a place move of the listed cells; the step's `apply` places it and says whether it is over
_PLACE_APPLY = """\
legal = st._legal
if legal.__class__ is $CELL_LIST and move.__class__ is $MOVE:
    bit = move.arg
    if bit.__class__ is $INT and bit >= 0 and legal.free >> bit & 1 and legal.cells[bit] is move:
        over = at.apply(st, move)
        st._legal = None
        st._history.append(move)
        if over:
            st.advance()
        return
return $$STATE.apply(st, move)
"""


def emit(w, step):
    """(the generated class's name, the bodies of legal moves and of apply for the generated
    state) for choosing or placing on a grid, or None for any other step."""
    kind = getattr(type(step), "generated_from", type(step))
    if kind is grid_steps.ChooseCard:
        names = {"CACHE": w.bind("hand_moves", step.cache), "CARD_OF": w.bind("card_of_move", step.card_of_move)}
        legal, apply, what = _CHOOSE_LEGAL, _CHOOSE_APPLY, "choosing a card"
    elif kind is grid_steps.PlaceCards:
        names = {"SLIDING": w.const("SLIDING", step.sliding, "the cards placed by sliding, as a mask"),
                 "PLACEMENTS": w.bind("placements", step.board.placements),
                 "LISTED": w.bind("listed", step.places.listed), "TEXTS": w.bind("texts", step.config.texts),
                 "CELL_LIST": w.bind("CellList", CellList), "MOVE": w.bind("Move", Move), "INT": w.bind("int", int)}
        legal, apply, what = _PLACE_LEGAL, _PLACE_APPLY, "placing cards"
    else:
        return None
    names.update(CLS=w.name("Grid"), BASE=w.bind("Base", kind), WHAT=what)
    w.lines(Template(_CLASS).substitute(names))
    return names["CLS"], Template(legal).substitute(names), Template(apply).substitute(names)
