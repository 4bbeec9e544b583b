"""Checks of card identity, lead rules and the card-predicate words, for `checker.py`.

Pipeline place: nodes → merge → **checker** (this part) → compiler. Covers the deck's
`colour` and `top trumps` lines, the `lead { ... }` section, `first led by holder of ...`,
`lead suit from first ...`, `..., but P may always be played`, and the predicate atoms
`spades 12` and `rank >= 10`. Each function takes the `Checker` and reports through it.
"""
from __future__ import annotations

from ..compile.exprs import suggest
from . import nodes as n

RANK_WORDS = ("rank", "number")


def deck_names(deck: n.Deck) -> tuple[set, set, object]:
    """(colour names, card texts `suit rank` and special names, ranks) of a deck block."""
    suits = next((i for i in deck.items if isinstance(i, n.Suits)), None)
    ranks = next((i for i in deck.items if isinstance(i, n.Ranks)), None)
    colours = {i.name.text for i in deck.items if isinstance(i, n.ColourGroup)}
    texts = {i.name.text for i in deck.items if isinstance(i, n.Special)}
    if suits and ranks and (ranks.high - ranks.low + 1) * len(suits.names) <= 1024:
        texts |= {f"{s.text} {r}" for s in suits.names for r in range(ranks.low, ranks.high + 1)}
    return colours, texts, ranks


def check_deck(checker, deck: n.Deck) -> None:
    """Colour groups name known suits, each suit at most once; top trumps name real cards."""
    colours, texts, ranks = deck_names(deck)
    checker.colour_names, checker.card_texts = colours, texts
    suits = next((i for i in deck.items if isinstance(i, n.Suits)), None)
    regular = {s.text for s in suits.names} if suits else set()
    coloured: set[str] = set()
    for group in (i for i in deck.items if isinstance(i, n.ColourGroup)):
        if group.name.text in checker.card_names:
            checker.report(group.name, f"the colour `{group.name.text}` has the name of a suit or card",
                           "give the colour a name of its own")
        for name in group.suits:
            if name.text not in regular:
                checker.report(name, f"unknown suit `{name.text}`", suggest(name.text, regular))
            elif name.text in coloured:
                checker.report(name, f"the suit `{name.text}` already has a colour")
            coloured.add(name.text)
    top = next((i for i in deck.items if isinstance(i, n.TopTrumps)), None)
    if top is not None:
        _top_trumps(checker, top, ranks, colours, texts)


def _top_trumps(checker, top: n.TopTrumps, ranks, colours: set, texts: set) -> None:
    for card in top.cards:
        if card.kind == "card":
            if card.card.text not in texts:
                checker.report(card.card, f"unknown card `{card.card.text}`", suggest(card.card.text, texts))
        elif ranks is None or not ranks.low <= card.rank <= ranks.high:
            checker.report(card, f"no card has the rank {card.rank}",
                           f"ranks go from {ranks.low} to {ranks.high}" if ranks else "declare `ranks`")
        elif card.kind == "colour" and not colours:
            checker.report(card, f"`{card.rank} of trump colour` needs the colours of the suits",
                           "group the suits by colour: `colour red: diamonds, hearts`")


def pred_atom(checker, pred) -> None:
    """`spades 12` names a card of the deck; `rank >= 10` compares the rank with a number."""
    if isinstance(pred, n.PCard):
        texts = getattr(checker, "card_texts", set())
        if pred.card.text not in texts:
            checker.report(pred.card, f"unknown card `{pred.card.text}`", suggest(pred.card.text, texts))
    elif pred.attr.text not in RANK_WORDS:
        checker.report(pred.attr, f"only the rank of a card compares with a number, not `{pred.attr.text}`",
                       suggest(pred.attr.text, RANK_WORDS) or "write `rank >= 10` or `number = 12`")


def holder(checker, ref: n.SeatRef) -> None:
    """`holder of clubs 2`: a card of the deck."""
    texts = getattr(checker, "card_texts", set())
    clauses = getattr(checker.s.get("round"), "clauses", ())
    if not any(isinstance(c, (n.Tricks, n.TricksAll)) and c.first is ref for c in clauses):
        checker.report(ref, "`holder of ...` can only say who leads the first trick",
                       "write it as `first led by holder of ...` in the `tricks` clause")
    elif ref.name.text not in texts:
        checker.report(ref.name, f"unknown card `{ref.name.text}`", suggest(ref.name.text, texts))


def check_follow_extras(checker, follow: n.Follow) -> None:
    """`lead suit from first P` and `..., but P may always be played`."""
    if follow.lead_from is not None:
        checker.pred(follow.lead_from.pred)
        no_lead(checker, follow.lead_from.pred, "`lead suit from first ...`")
    for case in follow.cases:
        for pred in _extras(case.result):
            checker.pred(pred)


def check_lead(checker) -> None:
    """The `lead` section: cases as in `follow`, conditions over the round so far."""
    lead = checker.s.get("lead")
    if lead is None:
        return
    if not any(isinstance(c, (n.Tricks, n.TricksAll)) for c in getattr(checker.s.get("round"), "clauses", ())):
        checker.report(lead, "the rules say what may be led, but the round plays no tricks",
                       "add `tricks ...` to the round, or remove the `lead` section")
    checker.cases(lead.cases, "lead", (n.FirstTrick, n.AnyPlayed, n.NonePlayed, n.Always, n.Otherwise))
    for case in lead.cases:
        if isinstance(case.condition, n.NonePlayed):
            checker.pred(case.condition.pred)
        for pred in _preds_of_lead_case(case):
            no_lead(checker, pred, "a `lead` case")
        if isinstance(case.result, n.FollowIfAble):
            for pred in (case.result.pred, *_extras(case.result)):
                checker.pred(pred)


def _extras(result):
    """The predicates of a result beside its first: `else Q if able`, `but X may always ...`."""
    yield from getattr(result, "fallbacks", ())
    if getattr(result, "always", None) is not None:
        yield result.always


def _preds_of_lead_case(case):
    if getattr(case.condition, "pred", None) is not None:
        yield case.condition.pred
    if isinstance(case.result, n.FollowIfAble):
        yield case.result.pred
        yield from _extras(case.result)


def no_lead(checker, pred, where: str) -> None:
    """Report lead tests in a predicate read where no card has been led."""
    stack = [pred]
    while stack:
        item = stack.pop()
        if isinstance(item, (n.PSameAsLead, n.PFollowed)):
            checker.report(item, f"{where} is read before a card sets the lead, so it cannot test the lead",
                           "use suits, cards, ranks and `trump` here")
        stack.extend(getattr(item, f) for f in ("left", "right", "operand") if getattr(item, f, None))
