"""Follow rules, card predicates and trick-winner rules → precomputed tables and closures.

Pipeline place: checker → **compiler** (tricks) → engine. A card predicate depends on the
lead card and the trump suit only, so each one becomes a table `mask[trump + 1][lead]` of
bitmasks over card ids, filled once at load time. During play, "which cards may I play"
is one table read and an AND; "who won" scans the few cards of one trick.
"""
from __future__ import annotations

from ..dsl import nodes as n
from .deck import ATTRIBUTES, DeckModel
from .exprs import _COMPARE
from .identity import colour_of, identities

NO_LEAD = -1


class PredicateTables:
    """Turns predicate nodes into `table[trump + 1][lead] -> mask` (lead -1: no lead yet).

    A card's suit and order may depend on the trump (`top trumps` in the deck): suits are
    read from the trump's `Identity`, so `hearts` or `same suit as lead` mean the cards'
    effective suits under that trump."""

    def __init__(self, deck: DeckModel, follow_table=None):
        self.deck = deck
        self.trumps = range(-1, len(deck.suit_names))
        self.leads = range(-1, deck.size)
        self.identity = identities(deck)
        masks_of = {}
        self.suit_masks_by = [masks_of.setdefault(id(i), _suit_masks(i.suit, len(deck.suit_names)))
                              for i in self.identity]
        self.suit_masks = self.suit_masks_by[0]
        ranks = sorted(set(deck.rank))
        self.rank_masks = {r: sum(1 << c for c in range(deck.size) if deck.rank[c] == r) for r in ranks}
        self.follow_table = follow_table

    def trump_mask(self, trump: int) -> int:
        return self.deck.always_trump | (self.suit_masks_by[trump + 1][trump] if trump >= 0 else 0)

    def key(self, trump: int) -> list[int]:
        """Card id → order key under `trump`."""
        return self.identity[trump + 1].key

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
            return self._same_as_lead(pred.attr.text)
        if isinstance(pred, n.PFollowed):
            table = self.follow_table
            return lambda lead, trump: (table[trump + 1][lead + 1] | (1 << lead)) if lead >= 0 else 0
        if isinstance(pred, n.PNamed):
            return self._named(pred.name.text)
        if isinstance(pred, (n.PCard, n.PCompare)):
            mask = card_mask(deck, pred)
            return lambda lead, trump: mask
        if isinstance(pred, n.PNot):
            inner = self.compile(pred.operand)
            return lambda lead, trump: everything & ~inner(lead, trump)
        left, right = self.compile(pred.left), self.compile(pred.right)
        if isinstance(pred, n.PAnd):
            return lambda lead, trump: left(lead, trump) & right(lead, trump)
        return lambda lead, trump: left(lead, trump) | right(lead, trump)

    def _same_as_lead(self, attr: str):
        deck, by = self.deck, self.suit_masks_by
        if ATTRIBUTES[attr] == "suit":
            if attr != "suit" and deck.colour_names:        # `same colour as lead`: its group
                return lambda lead, trump: self._colour_mask(
                    colour_of(deck, self.identity[trump + 1].suit[lead]), trump) if lead >= 0 else 0
            return lambda lead, trump: by[trump + 1][self.identity[trump + 1].suit[lead]] if lead >= 0 else 0
        return lambda lead, trump: (self.rank_masks.get(deck.rank[lead], 0)
                                    if lead >= 0 and deck.rank[lead] >= 0 else 0)

    def _named(self, name: str):
        deck, by = self.deck, self.suit_masks_by
        if name in deck.suit_names:
            suit = deck.suit_names.index(name)
            if suit >= deck.regular_suits:          # a special card: itself, wherever it belongs
                mask = deck.suit_mask(suit)
                return lambda lead, trump: mask
            return lambda lead, trump: by[trump + 1][suit]
        colour = deck.colour_names.index(name)
        return lambda lead, trump: self._colour_mask(colour, trump)

    def _colour_mask(self, colour: int, trump: int) -> int:
        """Cards whose effective suit has that colour under `trump` (none for colour -1)."""
        if colour < 0:
            return 0
        masks = self.suit_masks_by[trump + 1]
        return sum(masks[s] for s, c in enumerate(self.deck.suit_colour) if c == colour)


def _suit_masks(suit: list[int], suits: int) -> list[int]:
    masks = [0] * suits
    for card, s in enumerate(suit):
        masks[s] |= 1 << card
    return masks


def card_mask(deck: DeckModel, pred) -> int:
    """The cards a trump- and lead-free predicate atom names: `spades 12`, `rank >= 10`
    (a card without a rank counts 0, as `number` does in card sets)."""
    if isinstance(pred, n.PCard):
        return sum(1 << c for c, text in enumerate(deck.texts) if text == pred.card.text)
    test = _COMPARE[pred.op]
    return sum(1 << c for c in range(deck.size) if test(max(deck.rank[c], 0), pred.value))


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
    if isinstance(condition, n.FirstTrick):     # tables of the later tricks (compile/leads.py)
        return lambda lead, trump: False
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
    """The trick-winner rule → `winner(trick, played, lead, trump) -> seat`.

    `trick` is the list of `(seat, card)` in play order and `played` the mask of its cards;
    the first case whose condition holds picks the winner among the cards its predicate
    admits. Conditions and predicates depend on the lead and trump only, so for each
    (trump, lead) the cases are resolved at load time to `(needed, admitted, pick)`: the
    case applies when the trick holds a card of `needed` and one of `admitted`. Among the
    admitted cards played (`hit`) the winning card is the only one, or the highest or lowest
    bit when the rule's order follows the card ids there (`_HIGHEST_BIT`, `_LOWEST_BIT`);
    otherwise `pick(trick, hit)` scans the trick.
    """
    resolved, seen = [], set()
    for case in rule.cases:
        written = (n.shape(case.condition), n.shape(case.pred), case.pick)
        if written in seen:         # a case written again never decides: the first did not
            continue
        seen.add(written)
        needed = _needed_table(case.condition, preds)
        resolved.append((needed, preds.table(case.pred), case.pick))
    picks = {}     # (pick, admitted) -> pick function: few distinct admitted masks

    def pick_for(pick, admitted, key):
        found = picks.get((pick, admitted, id(key)))
        if found is None:
            found = picks[pick, admitted, id(key)] = _pick(pick, admitted, key)
        return found

    def case(needed, admitted, pick, key):
        # a condition that any admitted card already meets is no test (None)
        return (None if needed | admitted == needed else needed, admitted, pick_for(pick, admitted, key))

    plans = [[tuple(case(needed[t][l], admitted[t][l], pick, preds.key(t - 1)) for needed, admitted, pick in resolved
                    if needed[t][l])
              for l in range(len(preds.leads))] for t in range(len(preds.trumps))]

    def winner(trick, played, lead, trump):
        for needed, admitted, pick in plans[trump + 1][lead + 1]:
            if needed is not None and not played & needed:
                continue
            hit = played & admitted
            if not hit:
                continue
            if pick is _HIGHEST_BIT or not hit & (hit - 1):      # or the only admitted card
                card = hit.bit_length() - 1
            elif pick is _LOWEST_BIT:
                card = (hit & -hit).bit_length() - 1
            else:
                return pick(trick, hit)
            for seat, played_card in trick:
                if played_card == card:
                    return seat
        return trick[0][0]

    winner.plans = plans            # what the generator writes out (compile/codegen_tricks.py)
    return winner


def _needed_table(condition, preds: PredicateTables) -> list[list[int]]:
    """A case's condition as `table[trump + 1][lead + 1]`: the trick must hold one of these cards
    (all cards: always holds; no card: never, for this lead and trump)."""
    everything = preds.deck.all_mask
    if isinstance(condition, n.AnyPlayed):
        return preds.table(condition.pred)
    if isinstance(condition, n.LeadIs):
        table = preds.table(condition.pred)
        return [[everything if lead >= 0 and row[lead + 1] >> lead & 1 else 0 for lead in preds.leads]
                for row in table]
    return [[everything] * len(preds.leads) for _ in preds.trumps]


#: Picks done with bit arithmetic by `winner` itself.
_HIGHEST_BIT, _LOWEST_BIT = "highest bit", "lowest bit"


def _pick(pick: str, admitted: int, key: list[int]):
    """How one case picks at one (trump, lead), specialised on the admitted cards' shape:
    when their order keys rise strictly with the card id (a suit ranked in order, say),
    the highest card is the highest bit; else a scan of the trick, `pick(trick, hit) -> seat`."""
    if pick == "first":
        return _first
    if pick == "last":
        return _last
    ids = [c for c in range(admitted.bit_length()) if admitted >> c & 1]
    if all(key[a] < key[b] for a, b in zip(ids, ids[1:])):
        return _HIGHEST_BIT if pick == "highest" else _LOWEST_BIT
    return _by_key(key, 1 if pick == "highest" else -1)


def _first(trick, hit: int) -> int:
    for seat, card in trick:
        if hit >> card & 1:
            return seat


def _last(trick, hit: int) -> int:
    for seat, card in reversed(trick):
        if hit >> card & 1:
            return seat


def _by_key(key: list[int], sign: int):
    """Highest (sign 1) or lowest (sign -1) key; among equal keys the first played."""
    def best(trick, hit):
        found, top = None, None
        for seat, card in trick:
            if hit >> card & 1 and (found is None or sign * key[card] > top):
                found, top = seat, sign * key[card]
        return found
    best.key, best.sign = key, sign
    return best
