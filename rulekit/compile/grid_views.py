"""Grid games ↔ JSON-ready views: the display, deck sizes, the token; restoring from a view.

Pipeline place: engine → **views** (grid part) → api. `view` adds the grid keys to the
common view of `views.py`: `display` (a list of {"row", "col", "card", "owner", "points"};
points are what the card would score if the game ended now), `deck_sizes`, `tiebreaker`,
`revealed`, `to_place`, `pending_effect`, `removed`, `returning` (the drawn cards a seat
did not keep and has still to put back, null for the other seats); the full view adds
`decks` (top card first). A seat never sees another seat's hand, deck order or hidden choice.

`restore` reads card texts per owner, since both colours have cards with the same texts.
Cards a view does not mention go to the bottom of their owner's deck, in card order.
"""
from __future__ import annotations

from ..engine import grid
from ..engine.grid_state import GridState
from ..engine.moves import normalize
from .cardsets_expr import card_points
from ..engine.cardsets import cards_of
from ..engine.seeds import checked_seed
from . import restore_check
from .views import ViewError, restore_progress


def view(game, st, seat, out: dict) -> None:
    gs = st.extra["grid"]
    texts, owner = game.deck.texts, game.owner
    out["display"] = [{"row": pos[0], "col": pos[1], "card": texts[card], "owner": owner[card],
                       "points": card_points(st, gs, card)}
                      for pos, card in sorted(gs.cells.items())]
    out["colours"] = list(game.colours)
    out["deck_sizes"] = [len(d) for d in gs.decks]
    out["tiebreaker"] = gs.tiebreaker
    out["tiebreaker_passer"] = gs.passer
    out["revealed"] = [texts[c] if c is not None else None for c in gs.revealed]
    out["to_place"] = list(gs.queue)
    out["pending_effect"] = None if gs.effect is None else {
        "seat": gs.effect[0], "card": texts[gs.effect[1]], "effect": "move"}
    out["removed"] = [[texts[c] for c in cards_of(mask)] for mask in gs.removed]
    out["returning"] = [[texts[c] for c in cards_of(mask)] if seat is None or seat == p else None
                        for p, mask in enumerate(gs.returning)]
    if seat is None:
        out["decks"] = [[texts[c] for c in deck] for deck in gs.decks]


def restore(game, rules, data: dict):
    """A state from a view of a grid game (a full view, or a hand-built position). `views.restore`
    checks the view's keys before and the state after (`restore_check`)."""
    from ..engine.state import State

    return _restore(game, rules, data, State)


class _Cards:
    """Hands out each seat's card ids by text, each at most once."""

    def __init__(self, game):
        self.game = game
        self.used = 0

    def take(self, seat: int, text: str) -> int:
        by_text = self.game.config.by_text
        if not isinstance(seat, int) or not 0 <= seat < len(by_text):
            raise ViewError(f"no seat {seat!r} owns cards")
        card = by_text[seat].get(normalize(text))
        if card is None:
            raise ViewError(f"{self.game.colours[seat]} has no card {text!r}")
        if self.used >> card & 1:
            raise ViewError(f"{self.game.colours[seat]} {text!r} appears twice in the view")
        self.used |= 1 << card
        return card

    def take_all(self, seat: int, texts) -> int:
        mask = 0
        for text in texts or ():
            mask |= 1 << self.take(seat, text)
        return mask


def _restore(game, rules, data: dict, State):
    players = restore_check.players_of(data, rules.players)
    st = State(rules, players, checked_seed(data.get("seed", 0)))
    gs = st.extra["grid"] = GridState(players, game.config.board, game.config.kinds)
    cards = _Cards(game)
    hands = data.get("hands", [[]] * players)
    if any(h is None for h in hands):
        raise ViewError("a full view is needed: this one hides a hand")
    st.hands = [cards.take_all(seat, h) for seat, h in enumerate(hands)]
    _restore_display(game, gs, cards, data.get("display", []))
    st.pending = [_one(cards, seat, c) for seat, c in enumerate(data.get("choices", [None] * players))]
    gs.revealed = [_one(cards, seat, c) for seat, c in enumerate(data.get("revealed", [None] * players))]
    gs.removed = [cards.take_all(seat, r) for seat, r in enumerate(data.get("removed", [[]] * players))]
    returning = data.get("returning") or [[]] * players
    if any(r is None for r in returning):
        raise ViewError("a full view is needed: this one hides the cards a seat is returning")
    gs.returning = [cards.take_all(seat, r) for seat, r in enumerate(returning)]
    decks = data.get("decks", [[]] * players)
    gs.decks = [[cards.take(seat, t) for t in deck] for seat, deck in enumerate(decks)]
    restore_check.cards_placed(rules, data, rules.deck.all_mask & ~cards.used, "decks")
    for seat in range(players):
        gs.decks[seat] += [c for c in game.seat_cards[seat] if not cards.used >> c & 1]
    gs.tiebreaker = data.get("tiebreaker", 0)
    gs.passer = data.get("tiebreaker_passer")
    gs.queue = [int(s) for s in data.get("to_place", [])]
    effect = data.get("pending_effect")
    if effect:
        seat = int(effect["seat"])
        gs.effect = (seat, _on_display(game, gs, seat, effect["card"]), None)
    restore_progress(rules, st, data, default_phase=data.get("phase", "choose"))
    st.revealed = any(c is not None for c in gs.revealed)
    if (not st.is_terminal and st.rules.steps[st.step].name == "place" and "to_place" not in data):
        st.rules.steps[st.step].enter(st)
    return st


def _restore_display(game, gs, cards, entries) -> None:
    cells = {}
    for entry in entries:
        owner = entry["owner"]
        if isinstance(owner, str):
            owner = game.colours.index(owner)
        pos = (int(entry["row"]), int(entry["col"]))
        if pos in cells:
            raise ViewError(f"two cards lie at {pos[0]},{pos[1]}")
        cells[pos] = cards.take(owner, entry["card"])
    config = game.config
    if not grid.fits(cells, config.rows, config.cols):
        raise ViewError(f"the display does not fit in {config.rows}x{config.cols}")
    if not grid.is_connected(cells, config.adjacency):
        raise ViewError("the display is not connected")
    gs.load(cells)


def _one(cards, seat: int, text):
    if text is None:
        return None
    if text == "hidden":
        raise ViewError("a full view is needed: this one hides a seat's choice")
    return cards.take(seat, text)


def _on_display(game, gs, seat: int, text: str) -> int:
    card = game.config.by_text[seat].get(normalize(text))
    if card is None or card not in gs.where:
        raise ViewError(f"the card {text!r} of the pending effect is not on the display")
    return card
