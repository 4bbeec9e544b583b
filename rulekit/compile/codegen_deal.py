"""The deal → generated source: `deal 11 each` (and the card turned up for trump).

Pipeline place: compiler → **codegen** (deal) → engine. The round's counts, the deck's
size and the widths of the shuffle are literals; the partial Fisher-Yates shuffle and the
hands are one function with no calls but the state's random words. It deals exactly what
`Deal.deal` (`engine/steps.py`) deals, which stays the reference (and the `deal` a card
bid's fresh deal calls).
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
$COUNT        n = st.n
        dealt_cards = n * count
        places = min(dealt_cards + $TURN, $LAST)
        words = st.random_words(places if places > 0 else 0)
        cards = list($CARDS)
        hands, aside = st.hands, st.aside
        dealt = 0
        if places >= dealt_cards:       # each place drawn is dealt at once (its card stays put)
            i = 0
            for seat in range(n):
                hand = 0
                for i in range(i, i + count):
                    j = i + ((words[i] * $SPANS[i]) >> 32)
                    card = cards[j]
                    cards[j] = cards[i]
                    hand |= $BITS[card]
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
            bit = $BITS.__getitem__
            for seat in range(n):
                hand = hands[seat] = sum(map(bit, cards[seat * count:seat * count + count]))
                dealt |= hand
                aside[seat] = 0
        st.undealt = $ALL ^ dealt
$TURNED        return False
"""

_TURNED = """\
        if dealt_cards < $SIZE:
            turned = cards[dealt_cards]
            st.undealt ^= 1 << turned
            st.extra["turned"] = turned
            suit = $SUITS[turned]
            st.trump = suit if suit < $REGULAR else -1
        else:
            st.extra["turned"] = None
            st.trump = -1
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
             "LAST": repr(size - 1), "CARDS": w.const("CARDS", tuple(range(size))),
             "SPANS": w.const("SPANS", tuple(size - i for i in range(size))),
             "BITS": w.const("BITS", tuple(1 << c for c in range(size))), "ALL": w.const("ALL", deck.all_mask),
             "SIZE": repr(size)}
    names["TURNED"] = ""
    if kind is steps.DealTurn:
        names["TURNED"] = Template(_TURNED).substitute(
            SIZE=repr(size), SUITS=w.const("SUITS", tuple(deck.suit)), REGULAR=repr(deck.regular_suits))
    w.lines(Template(_ENTER).substitute(names))
    return names["CLS"], None, None
