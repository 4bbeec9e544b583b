"""A fixed, numbered action space for a game: every move it can ever offer, for learning code.

Pipeline place: compiler → engine → **actions** → adapters (`rulekit.envs`). Nothing here
knows a game: each step of the compiled round is asked which moves it can ever offer (its
*action kind*), and the labels of all steps, in step order, are numbered 0..N-1. The same
rule file, variants and player count always give the same numbering.

- A move of one decision is one action, labelled with the move's text (`bid 3`, `choose bee`).
- A move that picks several cards (`pass red 2, blue 6`) is made **in parts**: one action per
  card, in any order (numbering every combination would be too large: 22,100 for 3 cards of
  52). `ActionSpace.legal(state, chosen)` says which parts may follow those chosen so far,
  `decode` turns a complete set into the engine's move; the move notation does not change.
- Grid moves name cells relative to the top-left corner of the display's bounding box
  (`place bee at +1,-2`; the first card goes at `+0,+0`): a floating display wanders, so
  absolute coordinates are not bounded; relative ones are.

A step lists its moves by `action_kind(players)` or by keeping its interned moves (`kind_of`,
and docs/actions.md "New kinds of steps").
"""
from __future__ import annotations

import re
from collections import Counter

from ..errors import IllegalMoveError, RulekitError
from .cardsets import MoveTable
from .moves import Move
from .grid_steps import DrawCards, PlaceCards, ReturnCards
from .steps import Pass, Step


class ActionSpaceError(RulekitError, ValueError):
    """A game whose moves cannot be numbered: a step that does not list its moves, or a move
    outside the space the steps listed."""


class ActionKind:
    """The moves of one step as labels. `labels` lists every label it may ever produce;
    `parts(state, move)` gives the labels of a legal move (one, or one per card picked).
    `public`: whether the other seats see the move (hidden choices are not public)."""

    def __init__(self, labels, public: bool = True):
        self.labels = list(dict.fromkeys(labels))
        self.public = public

    def parts(self, st, move: Move) -> tuple[str, ...]:
        return (move.text,)


class CardParts(ActionKind):
    """Moves that pick several cards (`pass a, b`): one label per card, `verb card`."""

    def __init__(self, verb: str, texts, public: bool = False):
        super().__init__([f"{verb} {t}" for t in dict.fromkeys(texts)], public)
        self.verb = verb

    def parts(self, st, move: Move) -> tuple[str, ...]:
        verb, _, rest = move.text.partition(" ")
        return tuple(f"{verb} {card}" for card in rest.split(", "))


_PLACE = re.compile(r"^(place|move) (.+?)(?: at (-?\d+),(-?\d+))?(?: (?:at|to) (-?\d+),(-?\d+))$")
_SLIDE = re.compile(r"^slide (.+) into (row|column) (-?\d+) from (\w+)$")


class GridMoves(ActionKind):
    """Placing, sliding and moving cards on a floating display, in cells relative to the
    top-left corner of the display's bounding box (see the module docstring)."""

    def __init__(self, step):
        config = step.config
        rows, cols = config.rows, config.cols
        texts = list(dict.fromkeys(config.texts))
        labels = [f"place {t} at {_cell(r, c)}" for t in texts
                  for r in range(1 - rows, rows) for c in range(1 - cols, cols)]
        sliding = {config.texts[c]: lines for c, lines in enumerate(config.slides) if lines is not None}
        for t, lines in sliding.items():
            labels += _slide_labels(t, lines, rows, cols)
        targets = [(r, c) for r in range(1 - rows, 2 * rows - 1) for c in range(1 - cols, 2 * cols - 1)]
        labels += [f"move {t} to {_cell(r, c)}" for t in texts for r, c in targets]
        for t in _repeated_texts(config):
            labels += [f"move {t} at {_cell(sr, sc)} to {_cell(r, c)}"
                       for sr in range(rows) for sc in range(cols) for r, c in targets]
        super().__init__(labels)

    def parts(self, st, move: Move) -> tuple[str, ...]:
        top, left = _anchor(st)
        found = _SLIDE.match(move.text)
        if found:
            card, line, index, side = found.groups()
            offset = top if line == "row" else left
            return (f"slide {card} into {line} {int(index) - offset:+d} from {side}",)
        found = _PLACE.match(move.text)
        if not found:
            raise ActionSpaceError(f"the move `{move.text}` is not a grid move this space knows")
        verb, card, sr, sc, r, c = found.groups()
        where = f" at {_cell(int(sr) - top, int(sc) - left)}" if sr is not None else ""
        target = _cell(int(r) - top, int(c) - left)
        return (f"{verb} {card}{where} {'at' if verb == 'place' else 'to'} {target}",)


def _cell(r: int, c: int) -> str:
    return f"{r:+d},{c:+d}"


def _slide_labels(text: str, lines: str, rows: int, cols: int) -> list[str]:
    out = []
    if "row" in lines:
        out += [f"slide {text} into row {i:+d} from {side}" for i in range(rows) for side in ("left", "right")]
    if "column" in lines:
        out += [f"slide {text} into column {i:+d} from {side}" for i in range(cols) for side in ("top", "bottom")]
    return out


def _repeated_texts(config) -> list[str]:
    """Texts held twice by one seat: their moves name the card's cell (`move bee at ...`)."""
    found = []
    for cards in config.seat_cards:
        counts = Counter(config.texts[c] for c in cards)
        found += [t for t, k in counts.items() if k > 1 and t not in found]
    return found


def _anchor(st) -> tuple[int, int]:
    """The top-left corner of the display's bounding box, (0, 0) while it is empty."""
    cells = st.extra["grid"].cells
    if not cells:
        return 0, 0
    return min(r for r, _ in cells), min(c for _, c in cells)


def kind_of(step, players: int) -> ActionKind | None:
    """The action kind of a step: what it says, what it keeps, or None if it never decides."""
    own = getattr(step, "action_kind", None)
    if own is not None:
        return own(players)
    for cls in type(step).__mro__:
        make = _KINDS.get(cls)
        if make is not None:
            return make(step)
    labels = _interned_labels(step)
    if labels:
        return ActionKind(labels, not step.simultaneous)
    if type(step).legal is Step.legal and type(step).legal_moves is Step.legal_moves:
        return None         # a step that never decides
    raise ActionSpaceError(
        f"the step `{step.name}` ({type(step).__name__}) does not list the moves it can offer: "
        "give it `action_kind(players)` returning a rulekit.engine.actions.ActionKind, or keep its "
        "interned moves in `moves` (a list of Move) or `table` (a MoveTable)")


def _interned_labels(step) -> list[str]:
    """The texts of the moves a step keeps: its `MoveTable`s and its lists of `Move`s
    (`moves`, and any other, such as named bids beside the numbers), in attribute order."""
    labels = []
    for value in vars(step).values():
        if isinstance(value, MoveTable):
            labels += [m.text for m in value.moves]
        elif isinstance(value, (list, tuple)) and value and all(isinstance(m, Move) for m in value):
            labels += [m.text for m in value]
    return labels


#: Steps whose moves are not one label each: cards picked together, cells of a display.
_KINDS = {
    Pass: lambda step: CardParts("pass", step.deck.texts),
    DrawCards: lambda step: None if step.keep is None else CardParts("keep", step.config.texts),
    PlaceCards: GridMoves,
    ReturnCards: lambda step: ActionKind([f"return {t}" for t in step.config.texts], public=False),
}


class ActionSpace:
    """Every action of a game for one player count, numbered 0..len-1 (see the module docstring).

    `space[i]` is an action's label, `space.index(label)` its number. For a state of this
    game: `legal(state)` the numbers that may be chosen now (as parts of a multi-card move,
    given the parts `chosen` so far), `mask(state)` the same as a numpy bool array,
    `encode(state, move)` a legal move's numbers and `decode(state, ids)` the move they make.
    """

    def __init__(self, rules, players: int):
        self.players = players
        self.kinds = [kind_of(step, players) for step in rules.steps]
        labels = [label for kind in self.kinds if kind is not None for label in kind.labels]
        self.labels: list[str] = list(dict.fromkeys(labels))
        self._index = {label: i for i, label in enumerate(self.labels)}

    def __len__(self) -> int:
        return len(self.labels)

    def __getitem__(self, action: int) -> str:
        return self.labels[action]

    def index(self, label: str) -> int:
        """The number of an action label (a move's text for one-part moves)."""
        try:
            return self._index[label]
        except KeyError:
            raise ActionSpaceError(f"no action `{label}` in this game's action space") from None

    def kind(self, st) -> ActionKind:
        return self.kinds[st.step]

    def encode(self, st, move) -> tuple[int, ...]:
        """The action numbers of a legal move (a `Move` or its text) in this state."""
        if not isinstance(move, Move):
            move = next((m for m in st.legal_moves() if m == move), None)
            if move is None:
                raise IllegalMoveError(str(move), st.legal_moves())
        kind = self.kinds[st.step]
        labels = kind.parts(st, move) if kind is not None else (move.text,)
        try:
            return tuple(self._index[label] for label in labels)
        except KeyError as missing:
            raise ActionSpaceError(f"the move `{move.text}` (action `{missing.args[0]}`) is not in the "
                                   f"action space the step `{st.rules.steps[st.step].name}` listed") from None

    def legal(self, st, chosen=()) -> list[int]:
        """The action numbers that may be chosen now, ascending: for a move made in parts,
        those that, with the parts `chosen` so far, still lead to a legal move."""
        if st.is_terminal:
            return []
        found = set()
        want = Counter(chosen)
        for move in st.legal_moves():
            parts = self.encode(st, move)
            if not chosen:
                found.update(parts)
                continue
            have = Counter(parts)
            if not want - have:
                found.update((have - want).elements())
        return sorted(found)

    def mask(self, st, chosen=()):
        """`legal` as a numpy array of `len(space)` booleans (int8 with `dtype`)."""
        import numpy as np

        out = np.zeros(len(self.labels), dtype=np.int8)
        out[self.legal(st, chosen)] = 1
        return out

    def decode(self, st, ids) -> Move | None:
        """The legal move made by the action numbers `ids` (its parts, in any order); None
        while a move made in parts still needs more. `IllegalMoveError` if none matches."""
        want = Counter(ids)
        legal = st.legal_moves()
        longer = False
        for move in legal:
            have = Counter(self.encode(st, move))
            if have == want:
                return move
            longer = longer or not want - have
        if longer:
            return None
        shown = ", ".join(self.labels[i] if 0 <= i < len(self.labels) else repr(i) for i in ids)
        raise IllegalMoveError(shown, legal, "these actions make no legal move")


def space_for(rules, players: int) -> ActionSpace:
    """The action space of a compiled game for a player count, built once."""
    return built_once(rules, "_action_spaces", players, ActionSpace)


def built_once(rules, key: str, players: int, make):
    """`make(rules, players)`, made once per compiled game and player count (kept in
    `rules.<key>`, a dict by player count)."""
    made = rules.__dict__.setdefault(key, {})
    found = made.get(players)
    if found is None:
        found = made[players] = make(rules, players)
    return found
