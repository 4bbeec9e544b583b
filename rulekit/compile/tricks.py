"""Follow rules, card predicates and trick-winner rules → precomputed tables and closures.

Pipeline place: checker → **compiler** (tricks) → engine. A card predicate depends on the
lead card and the trump suit only, so each one becomes a table `mask[trump + 1][lead]` of
bitmasks over card ids, filled once at load time. During play, "which cards may I play"
is one table read and an AND; "who won" scans the few cards of one trick.
"""
from __future__ import annotations

from ..dsl import nodes as n
from ..engine.cardsets import cards_of
from .deck import ATTRIBUTES, DeckModel
from .exprs import _COMPARE
from .identity import colour_of, identities


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
        self.suit_masks_by = suit_masks_by(deck, self.identity)
        ranks = sorted(set(deck.rank))
        self.rank_masks = {r: sum(1 << c for c in range(deck.size) if deck.rank[c] == r) for r in ranks}
        self.follow_table = follow_table
        self._made: dict = {}       # what a row was made of (by ids) -> (the row, what it was made of)
        self._flat: dict = {}       # id of a row of one value throughout -> that value

    def trump_mask(self, trump: int) -> int:
        return self.deck.always_trump | (self.suit_masks_by[trump + 1][trump] if trump >= 0 else 0)

    def key(self, trump: int) -> list[int]:
        """Card id → order key under `trump`."""
        return self.identity[trump + 1].key

    def table(self, pred) -> list[list[int]]:
        """`pred` as `table[trump + 1][lead + 1] -> mask` (rows shared: read it, do not change it)."""
        rows = self.rows(pred)
        return [rows(trump) for trump in self.trumps]

    # ---- rows: a table worked out once per class of equal cases ----------------------------------
    #
    # A predicate's row for one trump (`row[lead + 1]`, lead -1 first) is made from the rows of
    # its parts, and a row made of the same rows is made once (`_row`): a row that does not
    # depend on the trump (`same suit as lead` without top trumps, say) is one list shared by
    # every trump, and a row that does not depend on the lead (`trump`) is one value throughout
    # (`_flat`), combined with another in one step. So a deck of a thousand suits costs a
    # thousand rows of work, not a million entries of it (docs/performance.md).

    def rows(self, pred):
        """A predicate node → `rows(trump) -> row`, `row[lead + 1]` the mask of `compile(pred)(lead, trump)`."""
        deck, everything = self.deck, self.deck.all_mask
        if isinstance(pred, n.PTrump):
            return lambda trump: self.flat(self.trump_mask(trump))
        if isinstance(pred, n.PAny):
            return lambda trump: self.flat(everything)
        if isinstance(pred, n.PSameAsLead):
            return self._same_as_lead_rows(pred.attr.text)
        if isinstance(pred, n.PFollowed):
            return self._followed_rows
        if isinstance(pred, n.PNamed):
            named = self._named(pred.name.text)
            return lambda trump: self.flat(named(-1, trump))
        if isinstance(pred, (n.PCard, n.PCompare)):
            mask = card_mask(deck, pred)
            return lambda trump: self.flat(mask)
        if isinstance(pred, n.PNot):
            inner = self.rows(pred.operand)
            return lambda trump: self._not(inner(trump))
        left, right = self.rows(pred.left), self.rows(pred.right)
        if isinstance(pred, n.PAnd):
            return lambda trump: self._both(int.__and__, left(trump), right(trump))
        return lambda trump: self._both(int.__or__, left(trump), right(trump))

    def flat(self, value: int) -> list[int]:
        """The row of one value for every lead (one list per value)."""
        return self._row(("flat", value), (), lambda: [value] * len(self.leads), value)

    def _row(self, key: tuple, parts: tuple, make, flat=None):
        """The row made by `make()` from `parts` (rows; `key` names them by id): made once,
        and kept with its parts (so no id in a key is reused). `flat`: its one value, if it has one."""
        found = self._made.get(key)
        if found is None:
            row = make()
            found = self._made[key] = (row, parts)
            if flat is not None:
                self._flat[id(row)] = flat
        return found[0]

    def _not(self, row: list[int]) -> list[int]:
        everything = self.deck.all_mask
        value = self._flat.get(id(row))
        if value is not None:
            return self.flat(everything & ~value)
        return self._row(("not", id(row)), (row,), lambda: [everything & ~x for x in row])

    def _both(self, op, left: list[int], right: list[int]) -> list[int]:
        a, b = self._flat.get(id(left)), self._flat.get(id(right))
        if a is not None and b is not None:
            return self.flat(op(a, b))
        if a is not None:
            return self._row((op, id(left), id(right)), (left, right), lambda: [op(x, a) for x in right])
        if b is not None:
            return self._row((op, id(left), id(right)), (left, right), lambda: [op(x, b) for x in left])
        return self._row((op, id(left), id(right)), (left, right), lambda: list(map(op, left, right)))

    def lead_in(self, row: list[int]) -> int:
        """The mask of the leads that are in their own entry of `row` (`row[lead + 1] >> lead & 1`)."""
        value = self._flat.get(id(row))
        if value is not None:
            return value & self.deck.all_mask
        return self._row(("in", id(row)), (row,),
                         lambda: sum(1 << lead for lead, x in enumerate(row[1:]) if x >> lead & 1))

    def _same_as_lead_rows(self, attr: str):
        deck = self.deck
        if ATTRIBUTES[attr] != "suit":
            row = [0] + [self.rank_masks.get(r, 0) if r >= 0 else 0 for r in deck.rank]
            return lambda trump: row
        if attr != "suit" and deck.colour_names:        # `same colour as lead`: its group

            def colours(trump):
                suits = self.identity[trump + 1].suit
                masks = {}
                for suit in dict.fromkeys(suits):
                    masks[suit] = self._colour_mask(colour_of(deck, suit), trump)
                return [0] + [masks[suit] for suit in suits]
            return lambda trump: self._row(("colour", id(self.identity[trump + 1])), (), lambda: colours(trump))

        def suits(trump):
            by = self.suit_masks_by[trump + 1]
            return [0] + [by[suit] for suit in self.identity[trump + 1].suit]
        return lambda trump: self._row(("suit", id(self.identity[trump + 1])), (), lambda: suits(trump))

    def _followed_rows(self, trump: int) -> list[int]:
        follow = self.follow_table[trump + 1]
        return self._row(("followed", id(follow)), (follow,),
                         lambda: [0] + [f | 1 << lead for lead, f in enumerate(follow[1:])])

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


def _choose(mask: int, yes: list, no: list) -> list:
    """`[yes[i] if mask >> i & 1 else no[i] for i in range(len(no))]`: a copy of the list most
    entries come from, the others put in (a mask of a few leads costs a few steps)."""
    size = len(no)
    mask &= (1 << size) - 1
    if mask.bit_count() * 2 <= size:
        out, src = list(no), yes
    else:
        out, src, mask = list(yes), no, ((1 << size) - 1) ^ mask
    while mask:
        low = mask & -mask
        out[low.bit_length() - 1] = src[low.bit_length() - 1]
        mask ^= low
    return out


def suit_masks_by(deck: DeckModel, identities: list) -> list[list[int]]:
    """Each suit's mask under each identity of the deck (index trump + 1): an identity shared
    by several trumps (a deck without top trumps has one) is worked out once."""
    made: dict = {}
    for i in identities:
        if id(i) not in made:
            made[id(i)] = _suit_masks(i.suit, len(deck.suit_names))
    return [made[id(i)] for i in identities]


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
    """`table[trump + 1][lead + 1]` → the mask of cards that follow; all cards when free.
    Worked out row by row (`PredicateTables.rows`): equal rows are one list."""
    cases = [(follow_condition(c.condition, preds), _follow_result(c.result, preds)) for c in follow.cases]
    return case_rows(preds, "follow", cases, preds.deck.all_mask)


def case_rows(preds: PredicateTables, tag: str, cases, otherwise) -> list[list]:
    """`table[trump + 1][lead + 1]` from cases tried in order, each `(condition, result)`:
    `condition(trump)` is True, falsy, or the mask of the leads it holds for; `result(trump)`
    a row by lead + 1. Where no case holds, `otherwise`; without a lead (column 0) too. A row
    made of the same parts is made once (`PredicateTables._row`, keyed by `tag` and them)."""
    size = preds.deck.size

    def row(trump):
        chosen = []             # (condition: True or the mask of the leads it holds for, result row)
        for condition, result in cases:
            met = condition(trump)
            if met:
                chosen.append((met, result(trump)))
                if met is True:
                    break
        key = tuple((met if met is True else ("leads", met), id(result)) for met, result in chosen)

        def make():
            out = [otherwise] * size
            for met, result in reversed(chosen):    # the first case that holds decides
                out = result[1:] if met is True else _choose(met, result[1:], out)
            return [otherwise] + out
        return preds._row((tag, key), tuple(chosen), make)

    return [row(trump) for trump in preds.trumps]


def follow_condition(condition, preds: PredicateTables, first: bool | None = None):
    """A follow case's condition → `met(trump)`: falsy (never), True (always), or the mask of
    the leads (card ids) it holds for. `first trick` holds as `first` says: the follow table
    is the later tricks' (None), `compile/leads.py` makes the first trick's too."""
    if isinstance(condition, n.FirstTrick):
        return lambda trump: first
    if isinstance(condition, n.LeadIs):
        rows = preds.rows(condition.pred)
        return lambda trump: preds.lead_in(rows(trump))
    return lambda trump: True


def _follow_result(result, preds: PredicateTables):
    if isinstance(result, n.FollowAny):
        return lambda trump: preds.flat(preds.deck.all_mask)
    return preds.rows(result.pred)


def winner_rule(rule: n.TrickWinner, preds: PredicateTables):
    """The trick-winner rule → `winner(trick, played, lead, trump) -> seat`.

    `trick` is the list of `(seat, card)` in play order and `played` the mask of its cards;
    the first case whose condition holds picks the winner among the cards its predicate
    admits. Conditions and predicates depend on the lead and trump only, so for each
    (trump, lead) the cases are resolved at load time to `(needed, admitted, pick)`: the
    case applies when the trick holds a card of `needed` and one of `admitted`. Among the
    admitted cards played (`hit`) the winning card is the only one, or the highest or lowest
    bit when the rule's order follows the card ids there (`_HIGHEST_BIT`, `_LOWEST_BIT`);
    otherwise `pick(trick, hit)` scans the trick. The entries are kept per case, a row by
    lead for each trump (a million plans of a deck of a thousand suits would be a million
    tuples), made from the predicates' rows (`PredicateTables.rows`), each distinct entry once.
    """
    resolved, seen = [], set()
    for case in rule.cases:
        written = (n.shape(case.condition), n.shape(case.pred), case.pick)
        if written in seen:         # a case written again never decides: the first did not
            continue
        seen.add(written)
        resolved.append((_needed_rows(case.condition, preds), preds.rows(case.pred), case.pick))
    # pick functions by (pick, admitted mask, key) and by the mask's id (a row repeats one
    # object: no hashing of a long mask each time); entries by the ids of their masks
    picks, picks_by_id, entries = {}, {}, {}

    def pick_for(pick, admitted, key):
        found = picks_by_id.get((pick, id(admitted), id(key)))
        if found is None:
            made = picks.get((pick, admitted, id(key)))
            if made is None:
                made = picks[pick, admitted, id(key)] = _pick(pick, admitted, key)
            found = picks_by_id[pick, id(admitted), id(key)] = (admitted, made)
        return found[1]

    def entry(needed, admitted, pick, key):
        # None: the case does not apply (no card is needed); a condition that any admitted
        # card already meets is no test (None in the entry)
        if not needed:
            return None
        found = entries.get((id(needed), id(admitted), pick, id(key)))
        if found is None:
            made = (None if needed | admitted == needed else needed, admitted, pick_for(pick, admitted, key))
            found = entries[id(needed), id(admitted), pick, id(key)] = (needed, admitted, made)
        return found[2]

    def case_row(needed, admitted, pick, key):
        flat = preds._flat.get(id(needed)), preds._flat.get(id(admitted))
        if None not in flat:
            return preds._row(("case", id(needed), id(admitted), pick, id(key)), (needed, admitted, key),
                              lambda: [entry(*flat, pick, key)] * len(preds.leads))
        return preds._row(("case", id(needed), id(admitted), pick, id(key)), (needed, admitted, key),
                          lambda: [entry(a, b, pick, key) for a, b in zip(needed, admitted)])

    def cases_of(trump):
        key = preds.key(trump)
        rows = tuple(case_row(needed(trump), admitted(trump), pick, key) for needed, admitted, pick in resolved)
        return preds._row(("cases", *map(id, rows)), rows, lambda: rows)

    cases = [cases_of(trump) for trump in preds.trumps]

    def winner(trick, played, lead, trump):
        for row in cases[trump + 1]:
            entry = row[lead + 1]
            if entry is None:                   # the case does not apply to this lead and trump
                continue
            needed, admitted, pick = entry
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

    # what the generator writes out (compile/codegen_tricks.py): per trump, per case, the
    # case's entry by lead (None where it does not apply); `plans(rows)` makes a trump's plans
    winner.cases = cases
    return winner


def plans(rows: tuple) -> list[tuple]:
    """A trump's case rows (`winner.cases[trump + 1]`) → its plans by lead (index lead + 1):
    the entries `(needed, admitted, pick)` of the cases that apply, in order."""
    if not rows:
        return []
    if not any(None in row for row in rows):
        return list(zip(*rows))
    return [tuple([entry for entry in entries if entry is not None]) for entries in zip(*rows)]


def _needed_rows(condition, preds: PredicateTables):
    """A case's condition as `rows(trump)`, `row[lead + 1]`: the trick must hold one of these
    cards (all cards: always holds; no card: never, for this lead and trump)."""
    everything = preds.deck.all_mask
    if isinstance(condition, n.AnyPlayed):
        return preds.rows(condition.pred)
    if isinstance(condition, n.LeadIs):
        rows = preds.rows(condition.pred)

        def lead_is(trump):
            met, size = preds.lead_in(rows(trump)), preds.deck.size
            return preds._row(("lead is", met), (), lambda: [0] + _choose(met, [everything] * size, [0] * size))
        return lead_is
    return lambda trump: preds.flat(everything)


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
    ids = cards_of(admitted)
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
