"""The deck a rule file declares, as flat tables over small-int cards.

Pipeline place: checker → **compiler** (deck) → engine. Cards are ids 0..N-1 in declaration
order (suit by suit, rank by rank, then special cards); identical copies get their own ids
and share a *face* (their text). Hands and tricks are bitmasks over these ids.
"""
from __future__ import annotations

from .._records import Factory, define

from ..dsl import nodes as n

#: Words a rule file may use for the two card attributes.
ATTRIBUTES = {"suit": "suit", "colour": "suit", "color": "suit", "rank": "rank", "number": "rank"}


@define
class DeckModel:
    """Everything about the cards, as tables indexed by card id."""
    suit_names: list[str]          # regular suits first, then one suit per special card
    regular_suits: int
    texts: list[str]               # card id -> text ("blue 9", "trump")
    suit: list[int]                # card id -> suit index
    rank: list[int]                # card id -> rank (-1 for cards without one)
    key: list[int]                 # card id -> order key (higher wins)
    face: list[int]                # card id -> lowest id with the same text
    always_trump: int              # mask of cards that are always trumps
    colour_names: list = Factory(list)   # colour groups (`colour red: diamonds, hearts`)
    suit_colour: list = Factory(list)    # regular suit index -> colour group (-1: none)
    top_trumps: tuple = ()                     # `top trumps ...`: (kind, rank, card text) each

    @property
    def size(self) -> int:
        return len(self.texts)

    @property
    def all_mask(self) -> int:
        return (1 << self.size) - 1

    def suit_mask(self, suit: int) -> int:
        return sum(1 << c for c in range(self.size) if self.suit[c] == suit)

    def ids_by_text(self) -> dict[str, list[int]]:
        found: dict[str, list[int]] = {}
        for card, text in enumerate(self.texts):
            found.setdefault(text, []).append(card)
        return found

    def attribute(self, card: int, attr: str) -> int:
        return self.suit[card] if ATTRIBUTES[attr] == "suit" else self.rank[card]


def build_deck(deck: n.Deck) -> DeckModel:
    """Build the card tables from a checked `deck` block."""
    suits = next((i for i in deck.items if isinstance(i, n.Suits)), None)
    ranks = next((i for i in deck.items if isinstance(i, n.Ranks)), None)
    specials = [i for i in deck.items if isinstance(i, n.Special)]
    order = next((i for i in deck.items if isinstance(i, n.Order)), None)
    suit_names = [s.text for s in suits.names] if suits else []
    rank_values = list(range(ranks.low, ranks.high + 1)) if ranks else []
    texts, suit, rank = [], [], []
    for s, name in enumerate(suit_names):
        for r in rank_values:
            texts.append(f"{name} {r}")
            suit.append(s)
            rank.append(r)
    regular = len(suit_names)
    always = 0
    for special in specials:
        suit_names.append(special.name.text)
        for _ in range(special.copies):
            if special.always_trump:
                always |= 1 << len(texts)
            texts.append(special.name.text)
            suit.append(len(suit_names) - 1)
            rank.append(-1)
    first = {}
    face = [first.setdefault(t, c) for c, t in enumerate(texts)]
    keys = [a.text for a in order.keys] if order else ["rank", "suit"]
    model = DeckModel(suit_names, regular, texts, suit, rank, [0] * len(texts), face, always)
    model.key = [_order_key(model, c, keys) for c in range(len(texts))]
    _identity_items(model, deck, regular)
    return model


def _identity_items(model: DeckModel, deck: n.Deck, regular: int) -> None:
    """Colour groups and top trumps, the data the per-trump identity is built from."""
    groups = [i for i in deck.items if isinstance(i, n.ColourGroup)]
    model.colour_names = [g.name.text for g in groups]
    model.suit_colour = [-1] * regular
    for index, group in enumerate(groups):
        for name in group.suits:
            model.suit_colour[model.suit_names.index(name.text)] = index
    top = next((i for i in deck.items if isinstance(i, n.TopTrumps)), None)
    if top is not None:
        model.top_trumps = tuple((c.kind, c.rank, c.card.text if c.card else None) for c in top.cards)


def _order_key(model: DeckModel, card: int, keys: list[str]) -> int:
    value = 0
    for attr in keys:
        if ATTRIBUTES[attr] == "suit":
            value = value * (len(model.suit_names) + 1) + model.suit[card] + 1
        else:
            value = value * 1_000_003 + model.rank[card] + 1
    return value
