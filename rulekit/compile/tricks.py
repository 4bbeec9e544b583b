"""Follow rules, card predicates and trick-winner rules → precomputed tables and closures.

Pipeline place: checker → **compiler** (tricks) → engine. A card predicate depends on the
lead card and the trump suit only, so each one becomes a table `mask[trump + 1][lead]` of
bitmasks over card ids, filled once at load time. During play, "which cards may I play"
is one table read and an AND; "who won" scans the few cards of one trick.
"""
from __future__ import annotations

from ..dsl import nodes as n
from .deck import ATTRIBUTES, DeckModel

NO_LEAD = -1


class PredicateTables:
    """Turns predicate nodes into `table[trump + 1][lead] -> mask` (lead -1: no lead yet)."""

    def __init__(self, deck: DeckModel, follow_table=None):
        self.deck = deck
        self.trumps = range(-1, len(deck.suit_names))
        self.leads = range(-1, deck.size)
        self.suit_masks = [deck.suit_mask(s) for s in range(len(deck.suit_names))]
        ranks = sorted(set(deck.rank))
        self.rank_masks = {r: sum(1 << c for c in range(deck.size) if deck.rank[c] == r) for r in ranks}
        self.follow_table = follow_table

    def trump_mask(self, trump: int) -> int:
        return self.deck.always_trump | (self.suit_masks[trump] if trump >= 0 else 0)

    def table(self, pred) -> list[list[int]]:
        fn = self.compile(pred)
        return [[fn(lead, trump) for lead in self.leads] for trump in self.trumps]

    def compile(self, pred):
        """A predicate node → `f(lead, trump) -> mask`."""
        deck, everything = self.deck, self.deck.all_mask
        if isinstance(pred, n.PTrump):
            return lambda lead, trump: self.trump_mask(trump)
        if isinstance(pred, n.PAny):
            return lambda lead, trump: everything
        if isinstance(pred, n.PSameAsLead):
            if ATTRIBUTES[pred.attr.text] == "suit":
                return lambda lead, trump: self.suit_masks[deck.suit[lead]] if lead >= 0 else 0
            return lambda lead, trump: (self.rank_masks.get(deck.rank[lead], 0)
                                        if lead >= 0 and deck.rank[lead] >= 0 else 0)
        if isinstance(pred, n.PFollowed):
            table = self.follow_table
            return lambda lead, trump: (table[trump + 1][lead + 1] | (1 << lead)) if lead >= 0 else 0
        if isinstance(pred, n.PNamed):
            suit = deck.suit_names.index(pred.name.text)
            return lambda lead, trump: self.suit_masks[suit]
        if isinstance(pred, n.PNot):
            inner = self.compile(pred.operand)
            return lambda lead, trump: everything & ~inner(lead, trump)
        left, right = self.compile(pred.left), self.compile(pred.right)
        if isinstance(pred, n.PAnd):
            return lambda lead, trump: left(lead, trump) & right(lead, trump)
        return lambda lead, trump: left(lead, trump) | right(lead, trump)


def follow_table(follow: n.Follow, preds: PredicateTables) -> list[list[int]]:
    """`table[trump + 1][lead + 1]` → the mask of cards that follow; all cards when free."""
    everything = preds.deck.all_mask
    cases = [(_lead_condition(c.condition, preds), _follow_result(c.result, preds)) for c in follow.cases]

    def allowed(lead, trump):
        if lead < 0:
            return everything
        for condition, result in cases:
            if condition(lead, trump):
                return result(lead, trump)
        return everything

    return [[allowed(lead, trump) for lead in preds.leads] for trump in preds.trumps]


def _lead_condition(condition, preds: PredicateTables):
    if isinstance(condition, n.LeadIs):
        fn = preds.compile(condition.pred)
        return lambda lead, trump: bool(fn(lead, trump) >> lead & 1)
    return lambda lead, trump: True


def _follow_result(result, preds: PredicateTables):
    if isinstance(result, n.FollowAny):
        everything = preds.deck.all_mask
        return lambda lead, trump: everything
    return preds.compile(result.pred)


def winner_rule(rule: n.TrickWinner, preds: PredicateTables):
    """The trick-winner rule → `winner(trick, lead, trump) -> seat`.

    `trick` is the list of `(seat, card)` in play order; the first case whose condition
    holds picks the winner among the cards its predicate admits.
    """
    key = preds.deck.key
    cases = []
    for case in rule.cases:
        condition = _trick_condition(case.condition, preds)
        cases.append((condition, preds.table(case.pred), case.pick))

    def winner(trick, lead, trump):
        played = 0
        for _, card in trick:
            played |= 1 << card
        for condition, table, pick in cases:
            if not condition(played, lead, trump):
                continue
            admitted = table[trump + 1][lead + 1]
            chosen = [(seat, card) for seat, card in trick if admitted >> card & 1]
            if not chosen:
                continue
            if pick == "first":
                return chosen[0][0]
            if pick == "last":
                return chosen[-1][0]
            best = max if pick == "highest" else min
            return best(chosen, key=lambda entry: key[entry[1]])[0]
        return trick[0][0]

    return winner


def _trick_condition(condition, preds: PredicateTables):
    if isinstance(condition, n.AnyPlayed):
        table = preds.table(condition.pred)
        return lambda played, lead, trump: bool(played & table[trump + 1][lead + 1])
    if isinstance(condition, n.LeadIs):
        table = preds.table(condition.pred)
        return lambda played, lead, trump: bool(table[trump + 1][lead + 1] >> lead & 1)
    return lambda played, lead, trump: True
