"""`player decks`, `board`, `setup` and the grid `round` clauses → cards, steps and hooks.

Pipeline place: checker → **compiler** (grid games) → engine. `GridGame` builds the card
tables of per-player decks (card ids colour by colour, in the order the rule file lists
them), compiles each card's `scores` rule and effects, and appends the set-up and round
steps of `engine/grid_steps.py` to a `Ruleset`. It also starts a game's `GridState`,
copies it for `clone`, and turns it into view keys (`grid_views.py`).
"""
from __future__ import annotations

from ..dsl import nodes as n
from ..engine import grid_steps as gs_
from ..engine.grid_state import GridState, Kinds
from . import grid_views
from .cardsets_expr import CardWords, Here, keep_where
from .deck import DeckModel


def card_texts(decks: n.PlayerDecks) -> list[tuple[str, int | None, str]]:
    """(name, number, text) of one colour's cards: the text adds the number when a name repeats."""
    heads = [head for card in decks.cards for head in card.heads]
    names = [h.name.text for h in heads]
    out = []
    for head in heads:
        text = head.name.text
        if names.count(text) > 1 and head.number is not None:
            text = f"{text} {head.number}"
        out.append((head.name.text, head.number, text))
    return out


def build_deck(decks: n.PlayerDecks) -> tuple[DeckModel, list[int], list[str]]:
    """The deck model of every colour's cards, with each card's owner seat and name."""
    colours = [c.text for c in decks.colours]
    cards = card_texts(decks)
    texts, suit, rank, owner, names = [], [], [], [], []
    for seat, _ in enumerate(colours):
        for name, number, text in cards:
            texts.append(text)
            suit.append(seat)
            rank.append(number if number is not None else -1)
            owner.append(seat)
            names.append(name)
    size = len(texts)
    key = [(rank[c] + 1) * (len(colours) + 1) + suit[c] for c in range(size)]
    model = DeckModel(colours, len(colours), texts, suit, rank, key, list(range(size)), 0)
    return model, owner, names


class GridGame:
    """The grid part of a compiled game: cards, words for expressions, steps, views."""

    def __init__(self, sections: dict):
        decks = sections["player decks"]
        self.deck, self.owner, self.names = build_deck(decks)
        self.colours = list(self.deck.suit_names)
        size, seats = self.deck.size, len(self.colours)
        self.number = [max(r, 0) for r in self.deck.rank]
        self.seat_cards = [[c for c in range(size) if self.owner[c] == s] for s in range(seats)]
        kinds: dict[str, int] = {}
        for card in range(size):
            kinds[self.names[card]] = kinds.get(self.names[card], 0) | 1 << card
        for seat, colour in enumerate(self.colours):
            kinds[colour] = _mask(self.seat_cards[seat])
        board = sections.get("board")
        self.points: list = [None] * size
        self.words = CardWords(kinds, self.number, [_mask(c) for c in self.seat_cards], board is not None,
                               self.points, self.deck.all_mask)
        rows, cols, adjacency = (board.rows, board.cols, _adjacency(board)) if board else (1, 1, 8)
        self.config = gs_.GridConfig(self.deck.texts, self.owner, self.number, self.seat_cards,
                                     rows, cols, adjacency)
        self.config.kinds = self.words.kept = Kinds(kinds.values(), size)    # their cells are kept
        if board is not None:
            self.words.bits = self.config.board

    # ---- building ------------------------------------------------------------------------

    def build(self, rules, sections: dict, exprs) -> None:
        """Compile the cards' rules and append set-up and round steps to `rules`."""
        rules.grid = self
        cards = card_ids(sections["player decks"], len(self.colours))
        for card_def, ids in cards:
            for clause in card_def.clauses:
                self._clause(clause, ids, exprs)
        setup = sections.get("setup")
        for clause in setup.clauses if setup else ():
            rules.steps.extend(self._setup_steps(clause))
        rules.round_start = len(rules.steps)
        rnd = sections.get("round")
        clauses = {type(c): c for c in rnd.clauses} if rnd else {}
        config = self.config
        if n.Choose in clauses:
            choosing = gs_.ChooseCard(config)
            choosing.round_steps = rules.steps        # the generator writes the reveal after it
            rules.steps.append(choosing)
        if n.Reveal in clauses:
            rules.steps.append(gs_.RevealCards(config))
        place = clauses.get(n.PlaceRevealed)
        if place is not None:
            placing = gs_.PlaceCards(config, place.pick == "highest", place.ties_to_holder, place.passes)
            # the generator writes the rest of the round after it (compile/codegen_grid.py)
            placing.round_steps, placing.round_start = rules.steps, rules.round_start
            rules.steps.append(placing)
        if n.Draw in clauses:
            rules.steps.extend(self._draw(clauses[n.Draw]))

    def _clause(self, clause, ids: list[int], exprs) -> None:
        config = self.config
        if isinstance(clause, n.CardScores):
            fn = exprs.card_rule().compile_rule(clause.expr)
            for card in ids:
                self.points[card] = fn
        elif isinstance(clause, n.CardSlides):
            for card in ids:
                config.slides[card] = clause.lines
        elif isinstance(clause.effect, n.RemoveRevealed):
            for card in ids:
                config.removes[card] = True
        else:
            movers = mover_selector(clause.effect, exprs)
            plain = self._plain_movers(clause.effect.words, exprs.card_rule().names)
            for card in ids:
                config.movers[card] = movers
                config.plain_movers[card] = plain

    def _plain_movers(self, words, names):
        """`move one own other card` as (mask of the kinds named, per seat the mask `own` or
        `opponent` leaves, whether `other` leaves out the placed card), for the generator;
        None when a word is more than a kind of card, `own`, `opponent` or `other` (or a
        name of the file's shadows it), as `SetExprCompiler._mask` reads them."""
        kinds, seat_masks, everything = self.words.kinds, self.words.seat_masks, self.deck.all_mask
        mask, seats, other = everything, [everything] * len(seat_masks), False
        for word in words:
            name = word.text
            if name in names:
                return None
            if name in kinds:
                mask &= kinds[name]
            elif name == "own":
                seats = [part & owned for part, owned in zip(seats, seat_masks)]
            elif name == "opponent":
                seats = [part & everything & ~owned for part, owned in zip(seats, seat_masks)]
            elif name == "other":
                other = True
            else:
                return None
        return mask, tuple(seats), other

    def _setup_steps(self, clause) -> list:
        if isinstance(clause, n.Shuffle):
            return [gs_.ShuffleDecks(self.config)]
        if isinstance(clause, n.Tiebreaker):
            return [gs_.GiveTiebreaker()]
        return self._draw(clause)

    def _draw(self, clause: n.Draw) -> list:
        steps = [gs_.DrawCards(self.config, clause.count, clause.keep)]
        if clause.keep is not None:
            bottom = clause.rest_to is None or clause.rest_to.text == "bottom"
            steps.append(gs_.ReturnCards(self.config, bottom))
        return steps

    # ---- hooks the Ruleset calls -----------------------------------------------------------

    def start(self, st) -> None:
        st.extra["grid"] = GridState(st.n, self.config.board, self.config.kinds)
        st.dealer = None

    def clone_extra(self, extra: dict) -> dict:
        copied = dict(extra)
        copied["grid"] = extra["grid"].copy()
        return copied

    def stalled(self, st) -> bool:
        """Nothing can happen any more: after the round's drawing, no player holds a card."""
        return not any(st.hands)

    def view(self, st, seat, out: dict) -> None:
        grid_views.view(self, st, seat, out)

    def restore(self, rules, data: dict):
        return grid_views.restore(self, rules, data)


def card_ids(decks: n.PlayerDecks, colours: int) -> list[tuple[n.CardDef, list[int]]]:
    """Each card definition with the ids of its cards in every colour."""
    per_colour = sum(len(c.heads) for c in decks.cards)
    out, index = [], 0
    for card_def in decks.cards:
        ids = [colour * per_colour + index + k for colour in range(colours) for k in range(len(card_def.heads))]
        out.append((card_def, ids))
        index += len(card_def.heads)
    return out


def mover_selector(effect: n.MoveCard, exprs):
    """`move one own other card` → f(st, gs, placed card, seat) -> mask of cards that may move."""
    condition = _words_condition(effect.words)
    masker = tester = None
    if condition is not None:
        masker, tester = exprs.card_rule().compile_filter(condition)

    def movers(st, gs, card, seat):
        site = Here(st, gs, card, None)
        mask = gs.mask
        if masker is not None:
            mask &= masker(site, seat)
        if tester is not None and mask:
            mask = keep_where(mask, tester, site, seat)
        return mask
    return movers


def _words_condition(words):
    """`own other` → the condition `own and other` (None when no words)."""
    condition = None
    for word in words:
        ref = n.Ref(word.text, word.span)
        condition = ref if condition is None else n.BoolOp("and", condition, ref, word.span)
    return condition


def _adjacency(board: n.Board) -> int:
    for option in board.options:
        if option.kind == "place":
            return 4 if option.word.text == "adjacent4" else 8
    return 8


def _mask(cards) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask
