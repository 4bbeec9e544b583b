"""`help` in `rulekit play`: what the moves on offer mean, from the rule file itself.

Pipeline place: api → **cli**. For every kind of legal move (bid, pass, play, choose,
place, slide, move) a line on what it does and how to write it; the rule file's own lines
where they decide (the `follow` rules before playing a card; in grid games, each card's
definition: what it scores and what it does when revealed or placed). Nothing here knows a
game: the words come from the verbs and the rule text.
"""
from __future__ import annotations

from rich.console import Group
from rich.text import Text

from .engine import steps as st_

_VERBS = {
    "bid": "bid N — say how many tricks you will take this round",
    "pass": "pass CARD, CARD — give these cards (face down) to the seat the round passes to",
    "play": "play CARD — play a card from your hand to the trick",
    "choose": "choose CARD — pick a card face down; the chosen cards are revealed together",
    "place": "place CARD at ROW,COL — put your revealed card in the display (the first card lies at 0,0)",
    "slide": "slide CARD into row R from left|right (or column C from top|bottom) — push it into a line",
    "move": "move CARD to ROW,COL — the placed card's effect: move one of your cards elsewhere",
    "draw": "draw — take cards from your deck",
    "keep": "keep CARD, CARD — keep these cards, the rest go back under your deck",
}
_CARD_BID = "bid CARD — put one of your cards face down as your bid; the bids are revealed together"


def move_help(game, state, seat: int, legal: list) -> Group:
    """The help shown for the moves `legal` of `seat` in `state`."""
    lines = [Text("How to answer: the number of a move in the list, or its text (case and spaces "
                  "do not matter); `q` quits, `help` shows this.", style="bold")]
    verbs = list(dict.fromkeys(str(m).split(" ", 1)[0] for m in legal))
    step = state.rules.steps[state.step] if not state.is_terminal else None
    for verb in verbs:
        text = _CARD_BID if verb == "bid" and isinstance(step, st_.BidCard) else _VERBS.get(verb, verb)
        example = next(str(m) for m in legal if str(m).split(" ", 1)[0] == verb)
        lines.append(Text(f"  {text}   e.g. `{example}`"))
    if "play" in verbs and state.view(seat).get("trick"):
        lines += _source(game, game._base.get("follow"), "What you may play (the rule file's follow rules):")
    if state.rules.grid is not None:
        lines += _cards(game, state, seat)
    return Group(*lines)


def _source(game, node, title: str) -> list[Text]:
    """The rule file lines of a node, under a title."""
    span = getattr(node, "span", None)
    if span is None:
        return []
    text = game._loader.texts.get(span.file)
    if text is None:
        return []
    source = text.splitlines()[span.line - 1:span.end_line]
    return [Text(title, style="bold")] + [Text("  " + line.rstrip(), style="dim") for line in source]


def _cards(game, state, seat: int) -> list[Text]:
    """Grid games: the rule line of each card in the seat's hand, revealed or to place."""
    view = state.view(seat)
    names = set(view["hands"][seat] or [])
    names.update(c for c in view.get("revealed") or [] if c)
    decks = game._base.get("player decks")
    if decks is None or not names:
        return []
    out = [Text("What your cards do (from the rule file):", style="bold")]
    for card in decks.cards:
        texts = {h.name.text if h.number is None else f"{h.name.text} {h.number}" for h in card.heads}
        texts |= {h.name.text for h in card.heads}
        if texts & names:
            out += _source(game, card, "")[1:]
    return out
