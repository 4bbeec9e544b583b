"""The deal → generated source: `deal 11 each` (and the card turned up for trump).

Pipeline place: compiler → **codegen** (deal) → engine. The round's counts, the deck's
size and the widths of the shuffle are literals; the partial Fisher-Yates shuffle and the
hands are one function with no calls but the state's random words. With one count for
every round, the shuffle of each player count the game allows is written out place by
place, the random words unpacked into locals (`j = 5 + ((w_5 * 61) >> 32)`: a quarter
fewer steps a card than the loop); any
other deal runs the loop. It deals exactly what `Deal.deal` (`engine/steps.py`) deals,
which stays the reference (and the `deal` a card bid's fresh deal calls).
"""
from __future__ import annotations

from string import Template

from ..engine import steps

_ENTER = """\
class $CLS($BASE):
    \"\"\"Generated: the deal of this game.\"\"\"
    generated_from = $BASE

    def enter(self, st):
        \"\"\"Shuffle the places that are dealt and deal the round's count to each seat.\"\"\"
$WRITTEN$COUNT        n = st.n
        dealt_cards = n * count
        places = min(dealt_cards + $TURN, $LAST)
        words = st.random_words(places if places > 0 else 0)
        cards = list($BITS)              # the cards as their bits: a hand is their sum
        hands, aside = st.hands, st.aside
        dealt = 0
        if places >= dealt_cards:       # each place drawn is dealt at once (its card stays put)
            i = 0
            for seat in range(n):
                hand = 0
                for i in range(i, i + count):
                    j = i + ((words[i] * $SPANS[i]) >> 32)
                    hand |= cards[j]
                    cards[j] = cards[i]
                i += 1
                hands[seat] = hand
                dealt |= hand
                aside[seat] = 0
            for i in range(dealt_cards, places):
                j = i + ((words[i] * $SPANS[i]) >> 32)
                cards[i], cards[j] = cards[j], cards[i]
        else:                           # every card dealt: the last place is not drawn
            for i in range(places):
                j = i + ((words[i] * $SPANS[i]) >> 32)
                cards[i], cards[j] = cards[j], cards[i]
            for seat in range(n):
                hand = hands[seat] = sum(cards[seat * count:seat * count + count])
                dealt |= hand
                aside[seat] = 0
        st.undealt = $ALL ^ dealt
$TURNED        return False
"""

_WRITTEN = """\
def $NAME(st):
    \"\"\"The deal for $PLAYERS players, $COUNT cards each: place i takes the card at a place j
    drawn among those not placed yet, and the card that was at i goes to j.\"\"\"
    ($WORDS) = st.random_words($PLACES)
    cards = list($BITS)                  # the cards as their bits: a hand is their sum
    hands = st.hands
$SEATS$REST    aside = st.aside
    $ASIDE = 0
    st.undealt = $ALL ^ dealt
$TURNED    return False
"""

_TURNED = """\
        if dealt_cards < $SIZE:
            bit = cards[dealt_cards]
            turned = bit.bit_length() - 1
            st.undealt ^= bit
            st.extra["turned"] = turned
            suit = $SUITS[turned]
            st.trump = suit if suit < $REGULAR else -1
        else:
            st.extra["turned"] = None
            st.trump = -1
"""


def never_decides(step) -> bool:
    """Is the step a deal (whose `enter` never asks a decision nor ends the game)?"""
    return getattr(type(step), "generated_from", type(step)) in (steps.Deal, steps.DealTurn)


#: a written-out deal's turned card: there is always one left (the hands leave one undealt)
_TURNED_AT = """\
    bit = cards[$AT]
    turned = bit.bit_length() - 1
    st.undealt ^= bit
    st.extra["turned"] = turned
    suit = $SUITS[turned]
    st.trump = suit if suit < $REGULAR else -1
"""


def emit(w, step):
    """Write the class for a plain deal (or one that turns a card up): (its name, None,
    None) (a deal is no decision), or None for any other step."""
    kind = getattr(type(step), "generated_from", type(step))
    if kind not in (steps.Deal, steps.DealTurn) or not step.counts:
        return None
    deck = step.deck
    size = deck.size
    counts = tuple(step.counts)
    if len(counts) == 1:
        count = f"        count = {counts[0]!r}\n"
    else:
        count = f"        count = {w.const('COUNTS', counts)}[(st.round - 1) % {len(counts)!r}]\n"
    names = {"CLS": w.name("Deal"), "BASE": w.bind("Base", kind), "COUNT": count, "TURN": repr(step.turn),
             "LAST": repr(size - 1),
             "SPANS": w.const("SPANS", tuple(size - i for i in range(size))),
             "BITS": w.const("BITS", tuple(1 << c for c in range(size))), "ALL": w.const("ALL", deck.all_mask),
             "SIZE": repr(size)}
    names["TURNED"] = ""
    if kind is steps.DealTurn:
        names.update(SUITS=w.const("SUITS", tuple(deck.suit)), REGULAR=repr(deck.regular_suits))
        names["TURNED"] = Template(_TURNED).substitute(names)
    names["WRITTEN"] = _written(w, step, names) if len(counts) == 1 else ""
    w.lines(Template(_ENTER).substitute(names))
    return names["CLS"], None, None


#: the most places written out for one deal, over all its player counts (beyond: the loop)
MAX_WRITTEN = 400


def _written(w, step, names) -> str:
    """The deals written out for each player count whose hands leave a card undealt (the
    common branch of the loop), and the lines of `enter` that call them."""
    size, count, turn = step.deck.size, step.counts[0], step.turn
    players = [n for n in _players(step) if 0 < n * count <= size - 1]
    if not players or sum(min(n * count + turn, size - 1) for n in players) > MAX_WRITTEN:
        return ""
    calls = []
    for n in players:
        name = w.name("deal_for")
        places = min(n * count + turn, size - 1)
        seats = []
        for seat in range(n):
            for i in range(seat * count, (seat + 1) * count):
                take = "hand =" if i == seat * count else "hand |="
                seats.append(f"    j = {_draw(i, size)}; {take} cards[j]; cards[j] = cards[{i!r}]\n")
            seats.append(f"    hands[{seat!r}] = hand\n")
            seats.append("    dealt = hand\n" if seat == 0 else "    dealt |= hand\n")
        rest = "".join(f"    j = {_draw(i, size)}; cards[{i!r}], cards[j] = cards[j], cards[{i!r}]\n"
                       for i in range(n * count, places))
        aside = " = ".join(f"aside[{seat!r}]" for seat in range(n))
        text = Template(_WRITTEN).substitute(NAME=name, PLAYERS=repr(n), COUNT=repr(count), PLACES=repr(places),
                                             WORDS=_words(places),
                                             SEATS="".join(seats), REST=rest, ASIDE=aside, TURNED="$TURNED",
                                             BITS="$BITS", ALL="$ALL")
        turned = Template(_TURNED_AT).substitute(names, AT=repr(n * count)) if names["TURNED"] else ""
        w.lines(Template(text).substitute(names, TURNED=turned))
        calls.append(f"        if st.n == {n!r}:\n            return {name}(st)\n")
        w.deals.setdefault(id(step), []).append((n, name))
    return "".join(calls)


def _draw(i: int, size: int) -> str:
    """The place that place `i` draws: `i + (word * places left) >> 32`, as `partial_shuffle`."""
    draw = f"((w_{i!r} * {size - i!r}) >> 32)"
    return draw if i == 0 else f"{i!r} + {draw}"


def _words(places: int) -> str:
    """The random words of a written deal as locals `w_0, w_1, ...`, ten to a line."""
    names = [f"w_{i!r}," for i in range(places)]
    return "\n     ".join(" ".join(names[k:k + 10]) for k in range(0, places, 10))


def _players(step) -> list[int]:
    """The player counts a deal may be dealt for: those its rules allow (up to 12)."""
    players = getattr(step, "players", None)
    return list(players) if players is not None else []
