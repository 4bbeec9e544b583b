"""Passing cards and card bids → generated source: `pass [0, 1 left, 2 right] by round` and
`bid with a card, value number`.

Pipeline place: compiler → **codegen** (passes) → engine. Both are simultaneous, hidden
choices made of cards in hand; what the generated class of each does is what the
hand-written one does (`Pass`, `BidCard` in `engine/steps.py`, which stay the reference):

- a pass: the plan of counts and directions is a literal; the legal moves are the
  combinations of the hand's cards (ascending ids), the game's pass moves (`PassMoves`:
  made on first use, of a class of the table's own) read from a list by the rank of each
  set of cards (`Ranked`), and a move is checked by its class and its mask
  (`hand & mask == mask`, the count);
- a card bid: one move per face (the step's `MoveTable`, whose moves carry their cards
  and are of a class of the table's own), the legal list built from the hand's runs of
  suits, the lowest copy held bid, the bids revealed, the `repeat bidding while ...`
  clause and its actions run as the compiler built them.

Each class also gets `walk`: the rest of the step at random, drawn as `randrange` over the
legal list draws, so a playout makes the public loop's moves. The bodies of `legal_moves`
and `apply` are handed to the generated state class too (`codegen.py`).
"""
from __future__ import annotations

from functools import partial
from itertools import combinations, filterfalse, repeat
from math import comb
from operator import add, itemgetter
from string import Template

from ..engine import steps
from ..engine.cardsets import cards_of
from ..engine.moves import Move
from .codegen_tricks import indent

#: no state class of its own while a pass or a card bid decides (compile/codegen.py): for a
#: step of a few decisions a round, switching the state's class costs more than the dispatch
#: it saves (a shipped game with passes and card bids through the API, 4 runs interleaved:
#: 4.46-6.54 us a decision without, 4.88-6.80 with)
OWN_STATE_CLASS = False

#: the end of the state's `apply` after a move that leaves the step going, and after one that ends it
_GOING = "st._legal = None\nst._history.append(move)\nreturn"
_OVER = "st._legal = None\nst._history.append(move)\nst.advance()\nreturn"


class PassMoves(dict):
    """The pass moves of one game: a combination of card ids (ascending) → its move, made
    when first asked for (`__missing__`), so `map(moves.__getitem__, combinations(...))`
    lists a hand's passes at C speed. The moves are of a class of this table's own (`kind`,
    a `Move` with the mask of its cards as `arg`), so a move is checked with one class test.
    The move space is the deck's card sets of the passed sizes (22,100 for 52 cards passing
    3): past `LIMIT` moves, all are forgotten and made again (a forgotten move still
    stands for its cards)."""

    LIMIT = 50_000
    #: a move space up to this size is coded for the history as each move is made
    CODED = 25_000

    def __init__(self, verb: str, texts, size: int):
        super().__init__()
        self.verb, self.texts = verb, texts
        self.kind = type("PassMove", (Move,), {"__slots__": (), "__module__": Move.__module__})
        #: the rule set's `MoveCodes` (engine/history.py), set by the step's `enter` (`use`): a
        #: move is coded when made, so that sealing a round finds every move coded (a pass move
        #: is seldom played twice in a game, and the round that first plays one would code its
        #: moves one by one); None for a move space too large to code whole
        self.codes = None
        self.size = size
        self.coded = size <= self.CODED
        self.bits = tuple(1 << card for card in range(len(texts)))      # card id -> its bit

    def singles(self, part: int) -> tuple:
        """The passes of one card of `part`, ascending."""
        return tuple(self[(card,)] for card in cards_of(part))

    def use(self, codes) -> None:
        """Code moves with `codes` from now on, and the moves made before (at load: the
        single-card passes of a table of pieces made whole) now."""
        if self.codes is not codes:
            self.codes = codes
            codes.encode(list(self.values()))

    def __missing__(self, combo: tuple) -> Move:
        self.burst((combo,))
        return dict.__getitem__(self, combo)

    def burst(self, combos, masks=None, texts=None) -> None:
        """The moves of `combos` (tuples of ascending card ids; with their `masks` and
        `texts` when the caller has them), those not made yet made one after another: their
        texts and masks first, so that the moves lie side by side in memory (a hand's passes,
        read from scattered moves, reach fewer cache lines). The loops over the sets run in C
        (`map`), the moves are coded together (`MoveCodes.add`)."""
        if masks is None or any(map(self.__contains__, combos)):
            combos = list(filterfalse(self.__contains__, combos))
            texts = map((self.verb + " ").__add__, map(", ".join, map(partial(map, self.texts.__getitem__), combos)))
            masks = map(sum, map(partial(map, self.bits.__getitem__), combos))
        moves = list(map(self.kind, repeat(self.verb), masks, texts))
        if len(self) + len(moves) <= self.LIMIT:
            self.update(zip(combos, moves))
        else:
            for combo, move in zip(combos, moves):
                if len(self) >= self.LIMIT:
                    self.clear()
                self[combo] = move
        if self.codes is not None and moves:
            self.codes.add(moves)


class Filled(dict):
    """A dict that fills itself: `filled[key]` is `make(key)`, made once (for keys of a
    bounded kind only: the masks inside one run of card ids)."""

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, key):
        value = self[key] = self.make(key)
        return value


class Ranked:
    """The pass moves of one count, in a list by the rank of their cards (combinatorial
    number system: cards x1 < x2 < ... < xc rank `comb(x1, 1) + comb(x2, 2) + ...`), so a
    hand's passes are read from one compact list (a position's scattered moves cost little
    to reach). Made a block at a time on first use: `missing` has the cards whose block
    (the passes whose highest card it is) is not made yet; `fill` makes the blocks of a
    hand's cards, each move the table's own (`PassMoves`), so every path hands out the same
    objects. Bounded by the move space (the step uses it for one within `PassMoves.LIMIT`)."""

    def __init__(self, table: PassMoves, count: int, size: int):
        self.table, self.count = table, count
        self.moves = [None] * comb(size, count)
        #: the cards whose block is made on first use (below `count - 1`, none is ever asked for)
        self.missing = ((1 << size) - 1) >> (count - 1) << (count - 1)
        self.size = size
        #: the sets of `count - 1` cards in colex order, their masks and texts (`_colex`), made at the first fill
        self.lower = None

    def fill(self, hand: int) -> None:
        """Make the blocks of `hand`'s cards not made yet. A block's sets (those whose highest
        card is `top`) hold the ranks from `comb(top, count)` on in colex order, the order of
        their lower cards' sets among all sets of `count - 1` cards, where those of lower
        cards than `top` come first (`lower`): the block is each of the first
        `comb(top, count - 1)` of them and `top`, made in C in rank order, one slice."""
        table, moves, count = self.table, self.moves, self.count
        if self.lower is None:
            self.lower = _colex(table, count - 1, self.size)
        sets, masks, texts = self.lower
        for top in cards_of(hand & self.missing):
            low, end = comb(top, count), comb(top, count - 1)
            combos = list(map(add, sets[:end], repeat((top,))))
            table.burst(combos, map(add, masks[:end], repeat(1 << top)),
                        map(add, texts[:end], repeat(table.texts[top])))
            moves[low:low + end] = map(table.__getitem__, combos)
        self.missing &= ~hand


def _colex(table: PassMoves, count: int, size: int) -> tuple:
    """The sets of `count` of `size` cards in colex order (by the highest card, then the next
    one, ...; the order of their ranks), with their masks and the texts of their passes
    so far (`pass a, b, `: a card's text ends a pass of one more card)."""
    sets = [()]
    for place in range(count):
        sets = [lower + (top,) for top in range(size) for lower in sets if not lower or lower[-1] < top]
    head = table.verb + " "
    return (sets, [sum(map(table.bits.__getitem__, combo)) for combo in sets],
            [head + "".join(table.texts[card] + ", " for card in combo) for combo in sets])


#: a hand's cards are read a byte of card ids at a time, for decks of at most this many bytes
BYTES_READ = 12


class Shifted:
    """`make` of a run of the hand shifted down to bit 0 (`shifted(part)` is
    `make(part << shift)`): a table of pieces keyed by `hand >> shift & width` holds small
    ints, one slot each, where keys `hand & (width << shift)` share their low bits and
    collide in the dict's slots (a lookup then probes several)."""

    __slots__ = ("make", "shift")

    def __init__(self, make, shift: int):
        self.make, self.shift = make, shift

    def __call__(self, part: int):
        return self.make(part << self.shift)


def _card_tuple(part: int) -> tuple:
    return tuple(cards_of(part))


#: a run of at most this many card ids gets its table of pieces whole, made at load (256
#: tuples, each its predecessor's and one item: well under a millisecond)
WHOLE_BITS = 8


def _whole(item, shift: int, width: int) -> tuple:
    """The pieces of every part of a run of `width` ids from `shift`, by the part shifted
    down: the part's items (`item(card)`), ascending, each one tuple."""
    table = [()]
    for part in range(1, 1 << width):
        top = part.bit_length() - 1
        table.append(table[part ^ 1 << top] + (item(shift + top),))
    return tuple(table)


def _tables(make, runs, item=None) -> list:
    """For each run of card ids (a mask of contiguous bits), a table of its own of the hand's
    part in it, keyed by the part shifted down: a tuple made whole when the run is short
    (`WHOLE_BITS`) and each card gives one `item` (a tuple's slot is one read, where a dict's
    lookup reads its index, entry and key), otherwise filled on first use (`Filled` of `make`,
    `Shifted`)."""
    out = []
    for run in runs:
        shift = (run & -run).bit_length() - 1
        width = (run >> shift).bit_length()
        whole = item is not None and width <= WHOLE_BITS
        out.append(_whole(item, shift, width) if whole else Filled(Shifted(make, shift) if shift else make))
    return out


def _pieces(w, prefix: str, tables, runs, star: str = "") -> list[str]:
    """For each run of card ids and its table (`_tables`), the expression that looks the
    hand's part in it up in the table."""
    out = []
    for run, made in zip(runs, tables):
        shift = (run & -run).bit_length() - 1
        table = w.bind(prefix, made)
        out.append(f"{star}{table}[hand{f' >> {shift}' if shift else ''} & {run >> shift!r}]")
    return out


def _lines(head: str, parts, sep: str, close: str) -> str:
    """`head` and `parts` joined by `sep`, a part a line under the first (readable source)."""
    return head + (sep.rstrip() + "\n" + " " * len(head)).join(parts) + close + "\n"


def emit(w, step):
    """Write the class for a pass or a card bid: (its name, the bodies of legal moves and of
    apply for the generated state), or None for any other step. In the apply body,
    `$STATE` stands for the state's base class. The trump of the highest bid card, which
    takes no decision, gets its class and no bodies."""
    kind = getattr(type(step), "generated_from", type(step))
    if kind is steps.Pass:
        return _pass(w, step)
    if kind is steps.BidCard:
        return _bid_card(w, step)
    if kind is steps.TrumpFromBid:
        return _trump(w, step)
    return None


# ---- the parts both share ----------------------------------------------------------------------

def _next_seat(going: str) -> str:
    """Lines after a seat's choice: the next seat that has not chosen (`next_undecided`),
    then `going`; the lines after them run when every seat has chosen."""
    return ("n = st.n\nnxt = seat + 1\nif nxt < n and pending[nxt] is None:\n    st.current_player = nxt\n"
            + indent(going, 4) + "for nxt in range(seat + 2, seat + n):\n    if pending[nxt % n] is None:\n"
            "        st.current_player = nxt % n\n" + indent(going, 8))


def _methods(legal: str, play) -> str:
    """`legal` (also `legal_moves`: a new list each time), `play` (checked), `apply`
    (a move of the legal list) and `walk`, as the class's source."""
    return ("    def legal(self, st):\n" + indent(legal, 8) + "\n    legal_moves = legal\n\n"
            "    def play(self, st, move):\n"
            "        \"\"\"Check and play an interned move in one pass; None (nothing changed) otherwise.\"\"\"\n"
            + indent(play(True, "return None", "return False", "return True"), 8)
            + "\n    def apply(self, st, move):\n"
            "        \"\"\"Play a move of the legal list (text and equal moves are resolved by `State`).\"\"\"\n"
            + indent(play(False, "", "return False", "return True"), 8) + "\n" + _walk())


def _walk() -> str:
    """`walk`: the public loop inside the step: the legal list, an index drawn as
    `randrange(len(moves))` draws it, the move applied and then recorded (as `State.apply`)."""
    return ("    def walk(self, st, getrandbits):\n"
            "        \"\"\"Random moves to the end of the step, as `randrange` over the legal list draws them.\"\"\"\n"
            "        history = st._history\n        made = 0\n        over = False\n        while not over:\n"
            "            moves = self.legal(st)\n            count = len(moves)\n            bits = count.bit_length()\n"
            "            r = getrandbits(bits)\n            while count and r >= count:\n                r = getrandbits(bits)\n"
            "            move = moves[r]\n            over = self.apply(st, move)\n            history.append(move)\n"
            "            made += 1\n        st._legal = None\n        st.advance()\n        return made\n")


# ---- passing -----------------------------------------------------------------------------------

def _single(table: PassMoves, size: int):
    """`card -> its single-card pass`, every one made now in one burst (`PassMoves.burst`)."""
    table.burst([(card,) for card in range(size)])
    return lambda card: table[(card,)]


class PassTables:
    """The tables a generated pass reads, made from the step alone (so the module cache makes
    them again at a load, `codegen_cache.made`): the pass moves (`PassMoves`), the hand's
    cards a byte of ids at a time (`runs`, `cards_in`; None past `BYTES_READ`), the
    single-card passes of a byte (`passes_of_one`, without copies of a face and when a round
    passes one card; else None), and the `Ranked` list of each other count ((count, ranked),
    ascending; none with copies or past the table's bound)."""

    rebuilds = True

    def __init__(self, step):
        deck, plan = step.deck, tuple(step.plan)
        self.table = table = PassMoves("pass", tuple(deck.texts),
                                       sum(comb(deck.size, count) for count in {c for c, _ in plan}))
        self.copies = tuple(g for g in dict.fromkeys(sum(1 << d for d in range(deck.size) if deck.face[d] == deck.face[c])
                                                     for c in range(deck.size)) if g & (g - 1))
        self.runs = self.cards_in = self.passes_of_one = None
        if deck.size <= 8 * BYTES_READ:
            self.runs = tuple((255 << shift) & ((1 << deck.size) - 1) for shift in range(0, deck.size, 8))
            self.cards_in = tuple(_tables(_card_tuple, self.runs, int))
            if not self.copies and any(count == 1 for count, _ in plan):
                self.passes_of_one = tuple(_tables(table.singles, self.runs, _single(table, deck.size)))
        counts = {count for count, _ in plan if count}
        self.ranked = ()
        if not self.copies and table.size <= PassMoves.LIMIT:     # the ranked lists stay within the table's bound
            self.ranked = tuple((count, Ranked(table, count, deck.size)) for count in sorted(counts)
                                if count > 1 or self.passes_of_one is None)


def _pass(w, step):
    from . import codegen_cache
    deck = step.deck
    plan = tuple(step.plan)
    made = codegen_cache.made(PassTables, step)
    table = made.table
    names = {"BASE": w.bind("Base", steps.Pass), "CLS": w.name("Pass"), "MOVES": w.bind("pass_moves", table),
             "KIND": w.bind("PassMove", table.kind), "COMBINATIONS": w.bind("combinations", combinations)}
    copies = list(made.copies)
    if made.runs is not None:         # the hand's cards, a byte of ids at a time
        names["CARDS"] = _lines("cards = (", _pieces(w, "cards_in", made.cards_in, made.runs), " +", ")")
        if made.passes_of_one is not None:
            names["ONE"] = "if count == 1:\n" + indent(_lines(
                "return [", _pieces(w, "passes_of_one", made.passes_of_one, made.runs, "*"), ",", "]"), 4)
    else:
        names["CARDS"] = f"cards = {w.bind('cards_of', cards_of)}(hand)\n"
    if len(plan) == 1:
        today = f"count, offset = {plan[0][0]!r}, {'st.n // 2' if plan[0][1] is None else repr(plan[0][1])}\n"
    else:
        today = f"count, offset = {w.const('PLAN', plan, 'the count and seat offset passed, by round')}" \
                f"[(st.round - 1) % {len(plan)!r}]\n"
        if any(offset is None for _, offset in plan):
            today += "if offset is None:              # across the table\n    offset = st.n // 2\n"
    enter = ("    def enter(self, st):\n        \"\"\"Seats pass cards this round unless the plan passes none.\"\"\"\n"
             + indent(today + "if count == 0 or offset % st.n == 0:\n    return False\n"
                      + ("$MOVES.use(st.rules.move_codes)\n" if table.coded else "")
                      + "st.pending = [None] * st.n\nst.current_player = 0\nreturn True\n", 8))
    counts = {count for count, _ in plan if count}
    names["RANKED"] = {count: _ranked(w, ranked, count, deck.size) for count, ranked in made.ranked}
    legal = _pass_legal(names, today, copies, counts)
    body = enter + "\n" + _methods(legal, lambda checked, refuse, going, over: _pass_body(
        w, names, today, copies, checked, refuse, going, over))
    w.lines(Template(f"class $CLS($BASE):\n    \"\"\"Generated: the passing of this game.\"\"\"\n"
                     f"    generated_from = $BASE\n\n{body}").substitute(names))
    inline = Template(_pass_body(w, names, today, copies, True, "return $$STATE.apply(st, move)",
                                 _GOING, _OVER)).substitute(names)
    return names["CLS"], Template(legal).substitute(names), inline


def _ranked(w, ranked: Ranked, count: int, size: int) -> str:
    """Lines that list the passes of `count` cards from a `Ranked` list: its missing blocks
    made, the ranks of the hand's sets of cards summed in the order of `combinations`, then
    the moves gathered at them by `itemgetter` (a loop in C: the scattered moves are reached
    several at once, where a loop of Python reaches them one after the other)."""
    names = {"RANKED": w.bind("ranked", ranked), "MOVES": w.bind("passes", ranked.moves),
             "GATHER": w.bind("itemgetter", itemgetter), "COMBINATIONS": w.bind("combinations", combinations)}
    places = ["first", "second", "third"][:count] if count <= 3 else [f"card_{place}" for place in range(1, count + 1)]
    terms = [places[0]] + [f"{w.const('CHOOSE', tuple(comb(card, place) for card in range(size)), f'comb(card, {place}) by card')}"
                           f"[{places[place - 1]}]" for place in range(2, count + 1)]
    return Template(f"if count == {count!r}:\n    if hand & $RANKED.missing:\n        $RANKED.fill(hand)\n"
                    f"    ranks = [{' + '.join(terms)} for {', '.join(places)}{',' if count == 1 else ''}"
                    f" in $COMBINATIONS(cards, {count!r})]\n"
                    "    if len(ranks) > 1:\n        return list($GATHER(*ranks)($MOVES))\n"
                    "    return [$MOVES[rank] for rank in ranks]\n").substitute(names)


def _pass_legal(names, today: str, copies, counts) -> str:
    """Every set of `count` cards of the hand, in the order of `combinations`; with copies of
    a face, the first set of each text only (as the reference lists them). A pass of one
    card (without copies) lists the hand's single-card passes run by run, as a card bid does;
    the others from their ranked lists (`_ranked`)."""
    combos = "$COMBINATIONS(cards, count)"
    today += "hand = st.hands[st.current_player]\n" + names.get("ONE", "") + names["CARDS"]
    if not copies:
        ranked = names.get("RANKED", {})
        rest = set(counts) - set(ranked) - ({1} if "ONE" in names else set())
        return (today + "".join(ranked[count] for count in sorted(ranked))
                + (f"return list(map($MOVES.__getitem__, {combos}))\n" if rest else ""))
    return (today + "found = {}\n" + f"for move in map($MOVES.__getitem__, {combos}):\n"
            "    found.setdefault(move.text, move)\nreturn list(found.values())\n")


def _pass_body(w, names, today: str, copies, checked: bool, refuse: str, going: str, over: str) -> str:
    """Lines that check (`checked`) and play a pass: the mask kept hidden until every seat has
    chosen, then each seat's cards go `offset` seats on."""
    if checked:
        head = ("if move.__class__ is not $KIND:\n" + indent(refuse, 4)
                + "mask = move.arg\nseat = st.current_player\nhand = st.hands[seat]\n" + today
                + "if hand & mask != mask or mask.bit_count() != count:\n" + indent(refuse, 4))
        for group in copies:        # the lowest copies held, as the legal list has them
            head += (f"part = mask & {w.const('COPIES', group)}\n"
                     f"if part and (hand & {w.const('COPIES', group)} ^ part) & ((1 << part.bit_length()) - 1):\n"
                     + indent(refuse, 4))
    else:
        head = "mask = move.arg\nseat = st.current_player\n" + today
    return (head + "pending = st.pending\npending[seat] = mask\n" + _next_seat(going)
            + "hands = st.hands\nfor seat in range(n):\n    hands[seat] &= ~pending[seat]\n"
            "for seat in range(n):\n    hands[(seat + offset) % n] |= pending[seat]\n"
            "st.pending = [None] * n\n" + over + "\n")


# ---- card bids ---------------------------------------------------------------------------------

class BidTables:
    """The tables of a generated card bid's legal list, made from the step alone (as
    `PassTables`): a hand's bids run by run (`_tables` of the step's `MoveTable`), so a load
    makes 256 tuples a run again rather than finding each of their moves by its path), and
    whether the deck has copies of a face."""

    rebuilds = True

    def __init__(self, step):
        table = step.table
        self.copies = any(mask & (mask - 1) for mask in table.face_masks)
        self.tables = tuple(_tables(table.run_moves, table.runs, None if self.copies else table.moves.__getitem__))


def _bid_card(w, step):
    from . import codegen_cache
    table = step.table
    names = {"BASE": w.bind("Base", steps.BidCard), "CLS": w.name("BidCard"),
             "KIND": w.bind("CardMove", table.move_class),
             "STEP": w.bind("step", step),
             "VALUES": w.const("VALUES", tuple(step.values), "the bid each card makes")}
    made = codegen_cache.made(BidTables, step)
    copies = made.copies
    legal = "hand = st.hands[st.current_player]\n" + _lines(
        "return [", _pieces(w, "bids_in", made.tables, table.runs, "*"),
        ",", "]")
    enter = ("    def enter(self, st):\n        \"\"\"Every seat bids, seat 0 first, hidden until all have.\"\"\"\n"
             + ("        if 0 in st.hands:             # a seat with no card left: a fresh deal first\n"
                "            return $BASE.enter(self, st)\n" if step.redeal is not None else "")
             + indent("n = st.n\nst.pending = [None] * n\nst.bids = [None] * n\nst.bid_cards = [None] * n\n"
                      "st.revealed = False\nst.current_player = 0\nreturn True\n", 8))
    body = enter + "\n" + _methods(legal, lambda checked, refuse, going, over: _bid_body(
        w, step, copies, "self", checked, refuse, going, over))
    w.lines(Template(f"class $CLS($BASE):\n    \"\"\"Generated: the card bids of this game.\"\"\"\n"
                     f"    generated_from = $BASE\n\n{body}").substitute(names))
    inline = Template(_bid_body(w, step, copies, "$STEP", True, "return $$STATE.apply(st, move)",
                                _GOING, _OVER)).substitute(names)
    return names["CLS"], Template(legal).substitute(names), inline


def _repeat(w, step, owner: str, going: str, over: str) -> str:
    """The lines after the bids are revealed: the `repeat bidding while C { actions }`
    clause (the bidding starts over from `owner.enter`) and the set-aside cards given back;
    nothing without the clause (no card is ever set aside then)."""
    if step.repeat is None:
        return ""
    condition, actions = step.repeat
    lines = f"if {w.bind('repeat_when', condition)}(st, None):\n" + "".join(
        f"    {w.bind('action', action)}(st)\n" for action in actions)
    if step.restart:
        lines += ("    if 0 in st.hands:             # a seat out of cards: the round starts again\n"
                  "        st.rules.reset_round(st)\n        st.step = st.rules.round_start - 1\n" + indent(over, 8))
    lines += f"    if {owner}.enter(st):           # the bidding starts over\n" + indent(going, 8) + indent(over, 4)
    return lines + ("hands, aside = st.hands, st.aside      # set-aside cards come back\nfor seat in range(n):\n"
                    "    hands[seat] |= aside[seat]\n    aside[seat] = 0\n")


def _bid_body(w, step, copies: bool, owner: str, checked: bool, refuse: str, going: str, over: str) -> str:
    """Lines that check (`checked`) and play a card bid: the card (its lowest copy held) kept
    hidden until every seat has bid, then the bids revealed and the repeat clause read."""
    if checked:
        head = ("if move.__class__ is not $KIND:\n" + indent(refuse, 4)
                + "seat = st.current_player\nheld = st.hands[seat] & move.cards\nif not held:\n" + indent(refuse, 4))
    else:
        head = "seat = st.current_player\n" + ("held = st.hands[seat] & move.cards\n" if copies else "")
    card = ("card = move.arg\npending[seat] = card if held >> card & 1 else (held & -held).bit_length() - 1\n"
            if copies else "pending[seat] = move.arg\n")
    reveal = ("st.bid_cards = list(pending)\nst.bids = [$VALUES[card] for card in pending]\n"
              "st.pending = [None] * n\nst.revealed = True\n")
    return (head + "pending = st.pending\n" + card + _next_seat(going) + reveal
            + _repeat(w, step, owner, going, over) + over + "\n")


# ---- the trump of the highest bid card ---------------------------------------------------------

_TRUMP = """\
class $CLS($BASE):
    \"\"\"Generated: the trump is the suit of the highest bid card.\"\"\"
    generated_from = $BASE

    def enter(self, st):
        st.trump = $SUITS[st.bid_cards[$HIGHEST(st)]]
        return False
"""


def _trump(w, step):
    """`trump colour of highest bid`: the highest bidder is the compiler's seat rule, bound in."""
    names = {"CLS": w.name("TrumpFromBid"), "BASE": w.bind("Base", steps.TrumpFromBid),
             "HIGHEST": w.bind("highest_bidder", step.highest_bidder),
             "SUITS": w.const("SUITS", tuple(step.deck.suit), "the suit of each card")}
    w.lines(Template(_TRUMP).substitute(names))
    return names["CLS"], None, None
