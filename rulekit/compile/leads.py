"""Lead rules, chains of obligations, always-playable cards, first-trick follow rules and
the card that sets the lead → masks for the engine.

Pipeline place: checker → **compiler** (leads) → engine (`engine/trick_rules.py`). Built
only for rule files that use them. A result `P if able, else Q if able, but X may always be
played` becomes a *chain* of masks `(P, Q)` and an *also* mask `X`: a seat plays from the
first mask of the chain it holds a card of (or any card when it holds none), and may play
its `X` cards beside. Follow results are tables `[trump + 1][lead + 1] -> (chain, also)`,
one for the round's first trick and one for the others; lead results are read without a
lead, so each is one `(chain, also)` per trump.
"""
from __future__ import annotations

from ..dsl import nodes as n
from .tricks import PredicateTables, case_rows, follow_condition

#: A chain that lets every card be played.
FREE = ((), 0)


def uses_rules(sections: dict) -> bool:
    """Whether the tricks need `RuledTricks` (a lead section, a first-trick follow case, a
    chain of obligations, always-playable cards, a lead set by a matching card)."""
    follow = sections.get("follow")
    return "lead" in sections or follow.lead_from is not None or any(
        isinstance(c.condition, n.FirstTrick) or getattr(c.result, "always", None) is not None
        or getattr(c.result, "fallbacks", ()) for c in follow.cases)


def step_rules(sections: dict, preds: PredicateTables) -> dict:
    """The keyword arguments of `RuledTricks` for these sections."""
    follow = sections["follow"]
    lead = sections.get("lead")
    first_trick = any(isinstance(c.condition, n.FirstTrick) for c in follow.cases)
    return {
        "lead_rule": lead_rule(lead, preds) if lead is not None else None,
        "chains": follow_chains(follow, preds, False),
        "first_chains": follow_chains(follow, preds, True) if first_trick else None,
        "sets_lead": _no_lead(preds, follow.lead_from.pred) if follow.lead_from is not None else None,
    }


def _no_lead(preds: PredicateTables, pred) -> list[int]:
    """`pred` as one mask per trump (index trump + 1), read without a lead."""
    return [row[0] for row in preds.table(pred)]


def follow_chains(follow: n.Follow, preds: PredicateTables, first: bool):
    """`table[trump + 1][lead + 1] -> (chain, also)` on the round's first trick (`first`)
    or on the others; no lead yet (column 0): every card. Made row by row as the follow
    table is (`tricks.follow_table`): equal rows are one list, equal entries one tuple."""
    cases = [(follow_condition(c.condition, preds, first), _result_rows(c.result, preds))
             for c in follow.cases]
    return case_rows(preds, "chains", cases, FREE)


def _result_rows(result, preds: PredicateTables):
    """A result → `rows(trump)`: the row by lead of `(chain, also)`, each distinct entry one tuple."""
    if isinstance(result, n.FollowAny):
        return lambda trump: preds._row(("free",), (), lambda: [FREE] * len(preds.leads))
    chain = [preds.rows(p) for p in (result.pred, *result.fallbacks)]
    also = preds.rows(result.always) if result.always is not None else None

    def rows(trump):
        parts = tuple(f(trump) for f in chain)
        extra = also(trump) if also is not None else preds.flat(0)

        def make():
            made: dict = {}
            return [made.setdefault(entry, entry) for entry in zip(zip(*parts), extra)]
        return preds._row(("chain", *map(id, parts), id(extra)), (*parts, extra), make)
    return rows


def _result_fns(result, preds: PredicateTables):
    """A result → `f(lead, trump) -> (chain, also)`."""
    if isinstance(result, n.FollowAny):
        return lambda lead, trump: FREE
    chain = [preds.compile(p) for p in (result.pred, *result.fallbacks)]
    also = preds.compile(result.always) if result.always is not None else None
    return lambda lead, trump: (tuple(f(lead, trump) for f in chain),
                                also(lead, trump) if also is not None else 0)


def lead_rule(lead: n.Lead, preds: PredicateTables):
    """The `lead` section → `rule(st) -> (chain, also)`, tried case by case."""
    cases = [(_lead_condition(c.condition, preds), _lead_result(c.result, preds)) for c in lead.cases]

    def rule(st):
        played = 0
        for taken in st.taken if st._won else st._taken:     # (read at every lead: no call when no log waits)
            played |= taken
        for condition, result in cases:
            if condition(st, played):
                return result[st.trump + 1]
        return FREE

    return rule


def _lead_condition(condition, preds: PredicateTables):
    if isinstance(condition, n.FirstTrick):
        return lambda st, played: st.tricks_played == 0
    if isinstance(condition, (n.AnyPlayed, n.NonePlayed)):
        masks = _no_lead(preds, condition.pred)
        if isinstance(condition, n.AnyPlayed):
            return lambda st, played: played & masks[st.trump + 1] != 0
        return lambda st, played: played & masks[st.trump + 1] == 0
    return lambda st, played: True


def _lead_result(result, preds: PredicateTables) -> list:
    """Per trump (index trump + 1): `(chain, also)`."""
    fn = _result_fns(result, preds)
    return [fn(-1, trump) for trump in preds.trumps]
