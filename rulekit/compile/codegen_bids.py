"""The number bid → generated source: `bid 0..11, in turn from dealer` (or simultaneous).

Pipeline place: compiler → **codegen** (bids) → engine. Only the plain `BidNumber` step is
written out: its moves are one fixed list, so the legal list is a copy of it, a move is
checked by identity, and `walk` draws an index into it as `randrange` would. Bids limited
by the hand, by a condition or by name (`BidNumberLimited`, `engine/bidding.py`) run as
hand-written, and `walk`-less steps play through the public loop in a playout.
"""
from __future__ import annotations

from string import Template

from ..engine import steps
from .codegen_tricks import seat_after

#: the state takes a class of its own while this step decides (compile/codegen.py)
OWN_STATE_CLASS = True

_SEQUENTIAL = """\
    def play(self, st, move):
        \"\"\"An interned bid: the seat's bid, the turn to the next seat that has none.\"\"\"
        if id(move) not in $INTERNED:
            return None
        seat = st.current_player
        bids = st.bids
        bids[seat] = move.arg
        seat = $AFTER[st.n][seat]
        if bids[seat] is None:
            st.current_player = seat
            return False
        st.revealed = True
        return True

    apply = play
"""

_SIMULTANEOUS = """\
    def play(self, st, move):
        \"\"\"An interned bid (hidden until all have bid), else None with nothing changed.\"\"\"
        if id(move) not in $INTERNED:
            return None
        return self.apply(st, move)
"""

#: a sequential bid inside the generated state's `apply` (`$STATE`: its base class)
_INLINE = """\
if id(move) not in $INTERNED:
    return $$STATE.apply(st, move)
seat = st.current_player
bids = st.bids
bids[seat] = move.arg
seat = $AFTER[st.n][seat]
st._history.append(move._code & 65535)
if bids[seat] is None:
    st.current_player = seat
    return
st.revealed = True
st._legal = None
st.advance()
return
"""

_CLASS = """\
class $CLS($BASE):
    \"\"\"Generated: the number bid of this game, $COUNT bids.\"\"\"
    generated_from = $BASE

    def legal_moves(self, st):
        return [*$MOVES]

$PLAY
$WALK"""

#: one random bid of a walk, drawn as `randrange` over the legal list draws it, and kept
_DRAW = """\
            r = getrandbits($BITS)
            while r >= $COUNT:
                r = getrandbits($BITS)
            move = $MOVES[r]
            history.append(move._code & 65535)
            made += 1
"""

#: `walk` of bids in turn: `play`'s loop with the bid drawn, the seat in a local
_SEQUENTIAL_WALK = """\
    def walk(self, st, getrandbits):
        \"\"\"Random bids to the end of the step, as `randrange` over the legal list draws them.\"\"\"
        history, bids = st._history, st.bids
        after = $AFTER[st.n]
        seat = st.current_player
        made = 0
        while True:
$DRAW            bids[seat] = move.arg
            if bids[after[seat]] is not None:
                break
            seat = after[seat]
        st.current_player = seat
        st.revealed = True
        st._legal = None
        st.advance()
        return made
"""

#: `walk` of hidden bids: the step's own `apply` for each
_SIMULTANEOUS_WALK = """\
    def walk(self, st, getrandbits):
        \"\"\"Random bids to the end of the step, as `randrange` over the legal list draws them.\"\"\"
        history = st._history
        made = 0
        while True:
$DRAW            if self.apply(st, move):
                break
        st._legal = None
        st.advance()
        return made
"""


def emit(w, step):
    """Write the class for a plain number bid: (its name, the bodies of legal moves and of
    apply for the generated state), or None for any other step."""
    if getattr(type(step), "generated_from", type(step)) is not steps.BidNumber:
        return None
    count = len(step.moves)
    names = {"BASE": w.bind("Base", steps.BidNumber), "INTERNED": w.bind("interned", step.interned),
             "MOVES": w.bind("bid_moves", tuple(step.moves)), "COUNT": repr(count),
             "BITS": repr(count.bit_length()), "CLS": w.name("BidNumber")}
    names["AFTER"] = seat_after(w)
    names["PLAY"] = Template(_SIMULTANEOUS if step.simultaneous else _SEQUENTIAL).substitute(names)
    names["DRAW"] = Template(_DRAW).substitute(names)
    names["WALK"] = Template(_SIMULTANEOUS_WALK if step.simultaneous else _SEQUENTIAL_WALK).substitute(names)
    w.lines(Template(_CLASS).substitute(names))
    inline = None if step.simultaneous else Template(_INLINE).substitute(names)
    return names["CLS"], Template("return [*$MOVES]\n").substitute(names), inline
