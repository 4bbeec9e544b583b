"""The set-up shuffle and the rest of a grid round after its last placement → generated source.

Pipeline place: compiler → **codegen** (grid steps: set-up and round tail) → engine. Two
parts of a grid round that are not a decision, written for `compile/codegen_grid.py`:

- `shuffle each deck` (`_shuffle`): the engine's shuffle written out draw by draw as a
  class of the step's own, so a seeded game deals the same decks;
- the tail of the round (`_tail`, `write_tails`): when the steps after placing are plain
  draws (`draw N each`, nothing kept), what `State.advance` does after the round's last
  placement (the draws, the end of the round, the next round's choosing) as one generated
  function (`after_placing_N`). It is named while the place step is written and written
  once the generated end of the round is known (`compile/codegen_grid_end.py` calls
  `write_tails`), with that end written in.
"""
from __future__ import annotations

import weakref
from string import Template

from ..engine import grid_steps
from .codegen import literal, own_class

# ---- set-up ---------------------------------------------------------------------------------

#: `shuffle each deck` written out: `grid_steps.ShuffleDecks` (one chance event's words for
#: all decks, each deck shuffled from its first place on by `steps.partial_shuffle`; a grid
#: game has exactly one seat per colour of decks, `check_grid`), each draw with its
#: constants, for decks of at most `SHUFFLE_UNROLLED` cards in all (larger decks shuffle
#: through the engine's step, whose loop costs little beside them)
_SHUFFLE = """\
class $CLS($BASE):
    \"\"\"Generated: each seat's own cards shuffled into its deck, as `ShuffleDecks` shuffles them.\"\"\"
    generated_from = $BASE

    def enter(self, st):
        words = st.random_words($TOTAL)
        decks = st.extra["grid"].decks
$BODY        return False
"""
_SHUFFLE_SEAT = """\
        cards = $CARDS
$DRAWS        decks[$SEAT] = cards
"""
_SHUFFLE_DRAW = """\
        j = (words[$WORD] * $LEFT >> 32)$PLUS
        cards[$PLACE], cards[j] = cards[j], cards[$PLACE]
"""
SHUFFLE_UNROLLED = 256


def _shuffle(w, step, kind) -> str | None:
    """The generated shuffle's class name, or None when the decks are too large to write out."""
    seat_cards = step.config.seat_cards
    if sum(map(len, seat_cards)) > SHUFFLE_UNROLLED:
        return None
    name, base, body, at = w.name("Shuffle"), w.bind("Base", kind), [], 0
    for seat, cards in enumerate(seat_cards):
        size = len(cards)
        draws = "".join(Template(_SHUFFLE_DRAW).substitute(
            WORD=literal(at + place), LEFT=literal(size - place), PLACE=literal(place),
            PLUS=f" + {literal(place)}" if place else "") for place in range(size - 1))
        body.append(Template(_SHUFFLE_SEAT).substitute(SEAT=literal(seat), CARDS=f"[*{literal(tuple(cards))}]",
                                                       DRAWS=draws))
        at += size
    w.lines(Template(_SHUFFLE).substitute(CLS=name, BASE=base, BODY="".join(body), TOTAL=literal(at)))
    return name


# ---- the rest of a round after its last placement -------------------------------------------

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
