"""The steps of a grid game: own decks, a tie-breaker token, and rounds of choose, reveal, place, draw.

Pipeline place: compiler → **engine**. Like `steps.py`, each step is one general mechanism
configured by the compiler (`GridConfig`): shuffling own decks, drawing (and keeping some),
handing out the tie-breaker token, a simultaneous hidden choice, revealing (with `when
revealed` effects), placing the revealed cards in order (on a space, or by sliding into a
line; then `when placed` moves), and drawing again.

Moves: `keep sun, bee, frost`, `choose bee`, `place bee at 1,2`, `slide gust into row 1
from left`, `move sun to 0,3` (row,col in the fixed frame where the first card lies at 0,0;
`PlaceCards` says how they are interned), listed for each position with `grid.BitBoard`.
These classes are the reference: a compiled game's hot paths are generated
(`compile/codegen_grid.py`).
"""
from __future__ import annotations

from itertools import combinations

from . import grid
from .cardsets import cards_of, mask_of
from .grid_state import NO_KINDS
from .grid_moves import CellMoves, SlideList
from .moves import Move
from .steps import Step, partial_shuffle

#: tables of interned moves kept (per card or text and frame origin), and move lists kept per
#: hand (a step's `cache`), before all are forgotten: memory stays bounded however many hands
#: a long run of games meets
_CACHE_LIMIT = 4096


class GridConfig:
    """What the steps need to know about the cards and the board, filled by the compiler."""

    def __init__(self, texts, owner, number, seat_cards, rows, cols, adjacency):
        self.texts, self.owner, self.number = texts, owner, number
        self.seat_cards = seat_cards        # seat -> its card ids in deck order
        self.rows, self.cols, self.adjacency = rows, cols, adjacency
        self.board = grid.BitBoard(rows, cols, adjacency)
        size = len(texts)
        self.slides = [None] * size         # card -> "row or column" / "row" / "column"
        self.movers = [None] * size         # card -> f(st, gs, card, seat) -> mask it may move
        self.plain_movers = [None] * size   # card -> the same as masks (`GridGame._plain_movers`), or None
        self.removes = [False] * size       # card -> when revealed, remove the revealed cards
        self.by_text = [{texts[c]: c for c in cards} for cards in seat_cards]
        self.kinds = NO_KINDS               # masks whose cells a GridState keeps (the compiler's)


def _kept(cache: dict, key, moves: list[Move]) -> list[Move]:
    """`moves` kept in `cache` under `key` (emptied first when full: `_CACHE_LIMIT`)."""
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = moves
    return moves


# ---- set-up -------------------------------------------------------------------------------

class ShuffleDecks(Step):
    """`shuffle each deck`: each seat's own cards, shuffled, are its deck (top first)."""
    name = "shuffle"

    def __init__(self, config: GridConfig):
        self.config = config

    def enter(self, st) -> bool:
        decks, seat_cards = st.extra["grid"].decks, self.config.seat_cards      # a seat per colour
        words, at = st.random_words(sum(map(len, seat_cards))), 0
        for seat, cards in enumerate(seat_cards):
            cards = list(cards)
            partial_shuffle(words[at:at + len(cards)], cards, len(cards))
            decks[seat], at = cards, at + len(cards)
        return False


class GiveTiebreaker(Step):
    """`tiebreaker to a random player`."""
    name = "tiebreaker"

    def enter(self, st) -> bool:
        st.extra["grid"].tiebreaker = st.random_below(st.n)
        return False


class DrawCards(Step):
    """`draw 1 each`; with `keep 3, return the rest to the bottom` each seat then keeps some.

    Drawing from an empty deck draws nothing. Keeping is a decision of each seat that holds
    more cards than it keeps, asked seat by seat; the others never see it (hands and deck
    order are hidden). The cards not kept wait in `GridState.returning` for `ReturnCards`,
    where the seat puts them back in the order it chooses.
    """

    def __init__(self, config: GridConfig, count: int, keep: int | None = None):
        self.config, self.count, self.keep = config, count, keep
        self.name = "draw" if keep is None else "keep"
        self.cache: dict[int, list[Move]] = {}

    def enter(self, st) -> bool:
        hands, count = st.hands, self.count
        for seat, deck in enumerate(st.extra["grid"].decks):
            for card in deck[:count]:
                hands[seat] |= 1 << card
            del deck[:count]
        return self.keep is not None and self._ask(st, 0)

    def _ask(self, st, start: int) -> bool:
        for seat in range(start, st.n):
            if st.hands[seat].bit_count() > self.keep:
                st.current_player = seat
                return True
        return False

    def legal(self, st) -> list[Move]:
        hand, texts = st.hands[st.current_player], self.config.texts
        return self.cache.get(hand) or _kept(self.cache, hand, [
            Move("keep", mask_of(combo), "keep " + ", ".join(texts[c] for c in combo))
            for combo in combinations(cards_of(hand), self.keep)])

    def apply(self, st, move) -> bool:
        seat = st.current_player
        st.extra["grid"].returning[seat] |= st.hands[seat] & ~move.arg
        st.hands[seat] = move.arg
        return not self._ask(st, seat + 1)

    def canonical(self, st, text: str) -> str:
        verb, _, rest = text.partition(" ")
        by_text = self.config.by_text[st.current_player]
        names = [t.strip() for t in rest.split(",")]
        if verb != "keep" or not all(t in by_text for t in names):
            return text
        return "keep " + ", ".join(sorted(names, key=by_text.__getitem__))

    def why_illegal(self, st, text: str) -> str | None:
        return f"keep exactly {self.keep} cards of your hand, separated by commas"


class ReturnCards(Step):
    """`..., return the rest to the bottom` (or `top`): the cards a seat drew and did not keep
    go back under (or onto) its own deck one at a time, in the order the seat chooses.

    Each decision is `return <card>`: that card goes next to the bottom (the last one returned
    lies at the very bottom; with `top`, the last one returned is drawn first). The last
    card goes by itself, since there is nothing left to choose. Like keeping, it is hidden:
    the other seat sees neither the cards nor their order.
    """
    name = "return"

    def __init__(self, config: GridConfig, bottom: bool = True):
        self.config, self.bottom = config, bottom
        self.cache: dict[int, list[Move]] = {}

    def enter(self, st) -> bool:
        return self._ask(st, 0)

    def _ask(self, st, start: int) -> bool:
        returning = st.extra["grid"].returning
        for seat in range(start, st.n):
            if returning[seat].bit_count() == 1:
                self._put_back(st, seat, returning[seat].bit_length() - 1)
            if returning[seat]:
                st.current_player = seat
                return True
        return False

    def _put_back(self, st, seat: int, card: int) -> None:
        gs = st.extra["grid"]
        gs.returning[seat] &= ~(1 << card)
        if self.bottom:
            gs.decks[seat].append(card)
        else:
            gs.decks[seat].insert(0, card)

    def legal(self, st) -> list[Move]:
        waiting, texts = st.extra["grid"].returning[st.current_player], self.config.texts
        return self.cache.get(waiting) or _kept(self.cache, waiting, [
            Move("return", c, "return " + texts[c]) for c in cards_of(waiting)])

    def apply(self, st, move) -> bool:
        seat = st.current_player
        self._put_back(st, seat, move.arg)
        return not self._ask(st, seat)

    def why_illegal(self, st, text: str) -> str | None:
        where = "bottom" if self.bottom else "top"
        return f"return one of the cards you did not keep to the {where} of your deck"


# ---- a round --------------------------------------------------------------------------------

class ChooseCard(Step):
    """`choose a card, simultaneous`: each seat holding cards picks one, face down.

    The card leaves the hand into `state.pending` and stays hidden from the other seats
    until the reveal. A seat with no card in hand chooses nothing this round.
    """
    name = "choose"
    simultaneous = True

    def __init__(self, config: GridConfig):
        self.config = config
        #: a class of its own for its moves: generated code checks a choice by it
        self.move_class = type("ChoiceMove", (Move,), {"__slots__": (), "__module__": Move.__module__})
        self.moves = [self.move_class("choose", c, "choose " + t) for c, t in enumerate(config.texts)]
        self.cache: dict[int, list[Move]] = {}

    def enter(self, st) -> bool:
        st.pending = [None] * st.n
        hands = st.hands
        for seat in range(st.n):
            if hands[seat]:
                st.current_player = seat
                return True
        return False

    def legal(self, st) -> list[Move]:
        hand = st.hands[st.current_player]
        return self.cache.get(hand) or _kept(self.cache, hand, [
            self.moves[c] for c in cards_of(hand)])

    def apply(self, st, move) -> bool:
        seat, hands = st.current_player, st.hands
        st.pending[seat] = move.arg
        hands[seat] &= ~(1 << move.arg)
        for seat in range(seat + 1, st.n):
            if hands[seat]:
                st.current_player = seat
                return False
        return True

    def why_illegal(self, st, text: str) -> str | None:
        return "choose one card from your hand"


class RevealCards(Step):
    """`reveal`: chosen cards are turned over. A revealed card that says `when revealed,
    remove both revealed cards` sends every card revealed this round out of the game."""
    name = "reveal"

    def __init__(self, config: GridConfig):
        self.config = config
        self.removing = mask_of(c for c, removes in enumerate(config.removes) if removes)

    def enter(self, st) -> bool:
        gs = st.extra["grid"]
        gs.revealed = revealed = st.pending
        st.pending = [None] * st.n
        st.revealed = True
        for card in revealed:
            if card is not None and self.removing >> card & 1:
                for seat, chosen in enumerate(revealed):
                    if chosen is not None:
                        gs.removed[seat] |= 1 << chosen
                gs.revealed = [None] * st.n
                break
        return False


class PlaceCards(Step):
    """`place revealed cards, highest number first, ties to tiebreaker holder, who passes it`.

    Seats place in order of their revealed card's number; equal numbers go to the token
    holder first (then clockwise), and when the holder's number was tied the token passes to
    the next seat after the holder has placed. A card is placed on an empty space next to a
    card (`board ... place adjacent8`) keeping the display within the board; a card that
    `is placed by sliding` slides into a line instead when it can (grid.py says how), and is
    placed normally when no slide is possible. After placing a card that says `when placed,
    move one ... card`, the same seat moves one such card if any move is legal; a moved card's
    own effects do not happen. A card that fits nowhere leaves the game.

    Place and move moves are interned per card text (or card) and cell, whatever the frame's
    origin: a place move's argument is its cell's virtual code (`grid_moves.CellMoves`), a
    move's (card, that code). A slide's is its line as its text says it (`row` or `column`,
    index, side), interned per card text and that, and listed per frame origin by slide
    number (`grid.BitBoard.slide_name`). So a move is checked by being one of the legal list's.
    """
    name = "place"

    def __init__(self, config: GridConfig, descending: bool, ties_to_holder: bool, passes: bool):
        self.config, self.board = config, config.board
        self.descending, self.ties_to_holder, self.passes = descending, ties_to_holder, passes
        self.cells, self.movers, self.outside = config.rows * config.cols, config.movers, config.board.outside
        self.sliding = mask_of(c for c, lines in enumerate(config.slides) if lines is not None)
        texts = config.texts
        #: place moves per card text, of a class of their own (argument: the cell's virtual code;
        #: generated code checks a place by it), move moves per card (argument: its card and the cell's)
        self.place_class = place = type("PlaceMove", (Move,), {"__slots__": (), "__module__": Move.__module__})
        self.places = CellMoves(config.board, lambda text, cells: [
            place("place", v, f"place {text} at {at}") for v, at in cells], _CACHE_LIMIT)
        self.moves = CellMoves(config.board, lambda card, cells: [
            Move("move", (card, v), f"move {texts[card]} to {at}") for v, at in cells], _CACHE_LIMIT)
        #: per card, {origin: table} of its text's place moves and of its move moves (`CellMoves.origins`)
        self.place_tables = tuple(map(self.places.origins, texts))
        self.move_tables = tuple(map(self.moves.origins, range(len(texts))))
        self.interned: dict = {}        # (card text, frame origin) -> its move per slide number
        self.slide_moves: dict = {}     # (card text, line, index, side) -> its move, at any origin

    # -- order
    def enter(self, st) -> bool:
        gs = st.extra["grid"]
        number, n, revealed, holder = self.config.number, st.n, gs.revealed, gs.tiebreaker
        sign = -1 if self.descending else 1
        keys = []
        for seat, card in enumerate(revealed):
            if card is not None:
                keys.append((sign * number[card], (seat - holder) % n if self.ties_to_holder else seat, seat))
        keys.sort()
        gs.queue = [seat for _, _, seat in keys]
        held, gs.passer = revealed[holder], None
        if held is not None and self.passes:
            for _, _, seat in keys:
                if seat != holder and number[revealed[seat]] == number[held]:
                    gs.passer = holder
                    break
        return self._next(st, gs)

    def _next(self, st, gs) -> bool:
        """The next seat to place; cards that fit nowhere leave the game. False when done."""
        queue = gs.queue
        while queue:
            st.current_player = seat = queue[0]
            # a connected display smaller than the board always has a free space next to it
            if len(gs.at) < self.cells:
                return True
            gs.removed[seat] |= 1 << gs.revealed[seat]
            gs.revealed[seat] = None
            self._placed(gs, seat)
        return False

    @staticmethod
    def _placed(gs, seat: int) -> None:
        gs.queue.pop(0)
        if gs.passer == seat:
            gs.tiebreaker = (seat + 1) % len(gs.revealed)
            gs.passer = None

    # -- moves
    def legal(self, st) -> list[Move]:
        gs = st.extra["grid"]
        if gs.effect is not None:
            return self.relocations(st, gs)
        card = gs.revealed[st.current_player]
        if self.sliding >> card & 1 and gs.occ:
            slides = self._slides(gs, card, self.config.slides[card])
            if slides:
                return slides
        free = gs.board.placements(gs.occ, gs.box) if gs.occ else 1 << gs.bit_of((0, 0))
        return self.places.listed(self.config.texts[card], gs.origin, free)

    def apply(self, st, move) -> bool:
        gs = st.extra["grid"]
        seat, kind = st.current_player, move.kind
        if kind == "move":
            card, dst = move.arg
            gs.lift(card)
            gs.put(card, self.moves.bit(dst, gs.origin))
            gs.effect = None
        else:
            revealed = gs.revealed
            card, revealed[seat] = revealed[seat], None
            if kind == "slide":
                slides, number = self.board.slides(gs.occ, gs.box, self.config.slides[card]), self._number(gs, move.arg)
                pairs, target = grid.slide_cells(next(s for s in slides if s[0] == number))
                gs.shift(pairs)
                gs.put(card, target)
            else:
                gs.put(card, self.places.bit(move.arg, gs.origin))
        if gs.occ & self.outside:
            gs.recentre()
        if kind != "move" and self.movers[card] is not None:
            gs.effect = (seat, card, None)
            if any(entry[2] for entry in self._plan(st, gs)):
                return False
            gs.effect = None
        self._placed(gs, seat)
        return not self._next(st, gs)

    def why_illegal(self, st, text: str) -> str | None:
        gs, config = st.extra["grid"], self.config
        example = self.legal(st)[0]
        if gs.effect is not None:
            return ("move one card the placed card allows to another empty space next to a card, "
                    f"keeping every card connected and the display within the board, like `{example}`")
        if example.kind == "slide":
            return f"slide it into a row or column that is not full, like `{example}`"
        return (f"place it on an empty space next to a card, keeping the display within "
                f"{config.rows}x{config.cols}, like `{example}`")

    def _slides(self, gs, card: int, lines: str) -> SlideList:
        """`slide ... into row 1 from left` for every slide into a line `lines` names, with
        the entries of `grid.BitBoard.slides`: each move the card text's at this frame origin
        by slide number (`_slide_table`)."""
        text, slides = self.config.texts[card], self.board.slides(gs.occ, gs.box, lines)
        table = self.interned.get((text, gs.origin)) or self._slide_table(text, gs.origin)
        moves = SlideList([table[slide[0]] for slide in slides])
        moves.entries = slides
        return moves

    def _slide_table(self, text: str, origin) -> list[Move]:
        """The slide moves of a card text at a frame origin, by slide number (`interned`): each
        the text's move of its line, whatever the origin (`slide_moves`, bounded as `interned`)."""
        shared, moves = self.slide_moves, []
        if len(shared) >= _CACHE_LIMIT:
            shared.clear()
        for line, index, side in map(self.board.slide_name, range(2 * (self.board.height + self.board.width))):
            key = (text, line, index + origin[line != "row"], side)
            move = shared.get(key)
            if move is None:
                move = shared[key] = Move("slide", key[1:], f"slide {text} into {line} {key[2]} from {side}")
            moves.append(move)
        return _kept(self.interned, (text, origin), moves)

    def _number(self, gs, line) -> int:
        """The slide number (`grid.BitBoard.slide_name`) at the state's origin of a slide
        move's line (its argument: `row` or `column`, index, side)."""
        kind, index, side = line
        index -= gs.origin[kind != "row"]
        return 2 * (index if kind == "row" else self.board.height + index) + (side in ("right", "bottom"))

    def _plan(self, st, gs) -> tuple:
        """The pending `when placed, move ...` effect's movable cards, each (cell, card, the
        cells it may move to, whether no other movable card has its text), in cell order:
        worked out once and kept in `gs.effect`."""
        seat, card, plan = gs.effect
        if plan is None:
            movable = self.config.movers[card](st, gs, card, seat) & gs.mask
            board, where, occ, box, found = self.board, gs.where, gs.occ, gs.box, []
            texts = [self.config.texts[c] for c in cards_of(movable)]
            for src in sorted(map(where.__getitem__, cards_of(movable))):
                mover = gs.at[src]
                found.append((src, mover, board.targets(occ, box, src), texts.count(self.config.texts[mover]) == 1))
            plan = tuple(found)
            gs.effect = (seat, card, plan)
        return plan

    def relocations(self, st, gs) -> list[Move]:
        """The moves of the pending `when placed` effect."""
        return self._relocation_moves(gs, self._plan(st, gs))

    def _relocation_moves(self, gs, plan) -> list[Move]:
        """`move sun to 0,3` for each cell a movable card may go to. Two movable cards with one
        text are told apart by their place: `move bee at 1,2 to 0,3` (such moves are made per list).
        (The entries of a generated plan also say which frame rows their cells lie in.)"""
        texts, origin, moves, pos = self.config.texts, gs.origin, [], self.board.pos
        virtual, base = self.moves.virtual, self.moves.base(origin)
        for src, mover, free, unique, *_ in plan:
            if unique:
                moves += self.moves.listed(mover, origin, free)
                continue
            sr, sc = pos(src, origin)
            while free:
                low = free & -free
                dst = low.bit_length() - 1
                free ^= low
                r, c = pos(dst, origin)
                moves.append(Move("move", (mover, virtual[dst] + base), f"move {texts[mover]} at {sr},{sc} to {r},{c}"))
        return moves
