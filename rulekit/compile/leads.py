"""Lead rules, always-playable cards and the card that sets the lead → masks for the engine.

Pipeline place: checker → **compiler** (leads) → engine (`engine/trick_rules.py`). Built
only for rule files that use them. Every predicate here is read without a lead (the trick
is empty, or no card has set the lead yet), so each becomes one mask per trump:
`PredicateTables.table(pred)[trump + 1][0]`.
"""
from __future__ import annotations

from ..dsl import nodes as n
from .tricks import PredicateTables


def uses_rules(sections: dict) -> bool:
    """Whether the tricks need `RuledTricks` (a lead section, always-playable cards, a lead
    set by a matching card)."""
    follow = sections.get("follow")
    return "lead" in sections or follow.lead_from is not None or any(
        getattr(c.result, "always", None) is not None for c in follow.cases)


def step_rules(sections: dict, preds: PredicateTables) -> dict:
    """The keyword arguments of `RuledTricks` for these sections."""
    follow = sections["follow"]
    lead = sections.get("lead")
    return {
        "lead_rule": lead_rule(lead, preds) if lead is not None else None,
        "always": always_table(follow, preds),
        "sets_lead": _no_lead(preds, follow.lead_from.pred) if follow.lead_from is not None else None,
    }


def _no_lead(preds: PredicateTables, pred) -> list[int]:
    """`pred` as one mask per trump (index trump + 1), read without a lead."""
    return [row[0] for row in preds.table(pred)]


def always_table(follow: n.Follow, preds: PredicateTables):
    """`table[trump + 1][lead + 1]` → cards allowed beside the obligation of the case that
    applies, or None when no case has `..., but P may always be played`."""
    if not any(getattr(c.result, "always", None) is not None for c in follow.cases):
        return None
    from .tricks import _lead_condition
    cases = [(_lead_condition(c.condition, preds),
              preds.compile(c.result.always) if getattr(c.result, "always", None) is not None else None)
             for c in follow.cases]

    def extra(lead, trump):
        if lead < 0:
            return 0
        for condition, always in cases:
            if condition(lead, trump):
                return always(lead, trump) if always is not None else 0
        return 0

    return [[extra(lead, trump) for lead in preds.leads] for trump in preds.trumps]


def lead_rule(lead: n.Lead, preds: PredicateTables):
    """The `lead` section → `rule(st) -> (must, also)`, tried case by case."""
    everything = preds.deck.all_mask
    cases = [(_condition(c.condition, preds), _result(c.result, preds, everything)) for c in lead.cases]

    def rule(st):
        played = 0
        for taken in st.taken:
            played |= taken
        for condition, (must, also) in cases:
            if condition(st, played):
                return must[st.trump + 1], also[st.trump + 1]
        return everything, 0

    return rule


def _condition(condition, preds: PredicateTables):
    if isinstance(condition, n.FirstTrick):
        return lambda st, played: st.tricks_played == 0
    if isinstance(condition, (n.AnyPlayed, n.NonePlayed)):
        masks = _no_lead(preds, condition.pred)
        if isinstance(condition, n.AnyPlayed):
            return lambda st, played: played & masks[st.trump + 1] != 0
        return lambda st, played: played & masks[st.trump + 1] == 0
    return lambda st, played: True


def _result(result, preds: PredicateTables, everything: int):
    trumps = len(preds.trumps)
    if isinstance(result, n.FollowAny):
        return [everything] * trumps, [0] * trumps
    also = _no_lead(preds, result.always) if result.always is not None else [0] * trumps
    return _no_lead(preds, result.pred), also
