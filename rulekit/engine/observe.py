"""Observation and information-state arrays for learning code, laid out from the rule file.

Pipeline place: engine → **observe** → adapters (`rulekit.envs`). An array is built from
what a seat may see, `state.view(seat)`, so it can never show a hidden card; only the cards
played to finished tricks of the round (public, but not kept in a view) are read from the
state. Its layout is a list of named *segments* derived from the compiled game: a game
without bids has no bid segment, a grid game has a display segment, and so on.

Its layout is `Encoder.layout`, a list of `(name, size)` (`Encoder.describe()` prints it;
docs/actions.md says what each segment holds). Cards are *faces*: one slot per distinct card
text, in deck order (copies count up). Seats are relative to the observing seat: slot 0 is
the seat itself, slot 1 the next seat to its left, and so on. Numbers are plain values.

The information state is the observation followed by the round's move log as the seat saw
it (`RoundLog`): the last `log_length` moves of the round, oldest first, each as the mover's
relative seat (one-hot) and the action (one-hot over the action space; all zero for another
seat's hidden choice).
"""
from __future__ import annotations

from .actions import built_once, space_for
from .cardsets import cards_of


class Encoder:
    """Observation and information-state arrays of one compiled game for one player count."""

    def __init__(self, rules, players: int):
        self.rules, self.n = rules, players
        self.space = space_for(rules, players)
        texts = rules.deck.texts
        self.faces = list(dict.fromkeys(texts))
        self.face_of = {t: i for i, t in enumerate(self.faces)}
        self.card_face = [self.face_of[t] for t in texts]
        self.phases = [s.name for s, k in zip(rules.steps, self.space.kinds) if k is not None]
        self.phases = list(dict.fromkeys(self.phases)) + ["over"]
        self.layout = self._layout()
        self.offsets, at = {}, 0
        for name, size in self.layout:
            self.offsets[name] = (at, at + size)
            at += size
        self.size = at
        self.log_length = _log_length(rules, players, self.space)
        self.log_width = players + len(self.space)
        self.info_size = self.size + self.log_length * self.log_width

    # ---- layout ---------------------------------------------------------------------------

    def _layout(self) -> list[tuple[str, int]]:
        rules, n, faces = self.rules, self.n, len(self.faces)
        kinds = {type(step).__name__ for step in rules.steps}
        out = [("hand", faces)]
        if any(getattr(s, "simultaneous", False) for s in rules.steps):
            out += [("own_choice", faces), ("chosen", n)]
        grid = rules.grid is not None
        if not grid:
            out += [("trick", n * faces), ("played", faces)]
            if rules.turns_card:
                out.append(("turned", faces))
            if "BidCard" in kinds:
                out += [("bid_cards", n * faces), ("set_aside", n * faces)]
            if any(s.name == "bid" for s in rules.steps):
                out.append(("bids", 2 * n))
            out += [("tricks_won", n), ("trump", len(rules.deck.suit_names) + 1), ("dealer", n), ("leader", n)]
            if getattr(rules, "decisions", None):          # an auction or a trump decision
                out += [("declarer", n), ("makers", n), ("contract", 1)]
        else:
            self.rows, self.cols = rules.grid.config.rows, rules.grid.config.cols
            if "ReturnCards" in kinds:
                out.append(("returning", faces))
            cells = self.rows * self.cols
            out += [("display", cells * n * faces), ("display_points", cells), ("revealed", n * faces),
                    ("deck_sizes", n), ("removed", n * faces), ("tiebreaker", n)]
        teams = getattr(rules, "teams", None)
        if teams is not None and teams(n):
            out.append(("partners", n))
        out += [("scores", n), ("hand_sizes", n), ("current_player", n), ("phase", len(self.phases)),
                ("round", 1)]
        return out

    def describe(self) -> str:
        """The layout as text: one line per segment with its slice."""
        return "\n".join(f"{name:16} [{a}:{b}]" for name, (a, b) in self.offsets.items())

    # ---- arrays -------------------------------------------------------------------------------

    def observation(self, st, seat: int):
        """What `seat` sees now, as a float32 array of `self.size`."""
        import numpy as np

        out = np.zeros(self.size, dtype=np.float32)
        view = st.view(seat)
        for name, fill in _FILLERS:
            if name in self.offsets:
                a, b = self.offsets[name]
                fill(self, st, view, seat, out[a:b])
        return out

    def information_state(self, st, seat: int, log: "RoundLog"):
        """The observation, then the round's moves as `seat` saw them (see the module docstring)."""
        import numpy as np

        out = np.zeros(self.info_size, dtype=np.float32)
        out[:self.size] = self.observation(st, seat)
        entries = log.entries[-self.log_length:] if self.log_length else []
        width, n = self.log_width, self.n
        for slot, (mover, actions, public) in enumerate(entries):
            base = self.size + slot * width
            out[base + (mover - seat) % n] = 1
            if public or mover == seat:
                for action in actions:
                    out[base + n + action] = 1
        return out

    # ---- helpers for the fillers --------------------------------------------------------------

    def add_cards(self, texts, into, scale: float = 1.0) -> None:
        for text in texts or ():
            face = self.face_of.get(text)
            if face is not None:
                into[face] += scale

    def rel(self, seat: int, other: int) -> int:
        return (other - seat) % self.n


def _log_length(rules, players: int, space) -> int:
    """Room for the moves of a whole round: each deciding step once per seat, a trick step
    once per card dealt, a step made in parts once per card picked."""
    length = 0
    deal = max((max(s.counts) for s in rules.steps if hasattr(s, "counts")), default=1)
    for step, kind in zip(rules.steps, space.kinds):
        if kind is None:
            continue
        per_seat = 1
        if hasattr(step, "follow"):
            per_seat = deal
        elif hasattr(step, "plan"):
            per_seat = max(count for count, _ in step.plan)
        elif getattr(step, "keep", None):
            per_seat = step.keep
        elif step.name == "place":
            per_seat = 2
        length += per_seat * players
    return length


# ---- one function per segment --------------------------------------------------------------------

def _hand(enc, st, view, seat, out):
    enc.add_cards(view["hands"][seat], out)


def _returning(enc, st, view, seat, out):
    enc.add_cards((view.get("returning") or [None] * enc.n)[seat], out)


def _own_choice(enc, st, view, seat, out):
    choice = view["choices"][seat]
    if isinstance(choice, str):
        enc.add_cards([choice], out)
    elif isinstance(choice, list):
        enc.add_cards(choice, out)


def _chosen(enc, st, view, seat, out):
    for other, choice in enumerate(view["choices"]):
        if choice is not None:
            out[enc.rel(seat, other)] = 1


def _per_seat_cards(key):
    def fill(enc, st, view, seat, out):
        faces = len(enc.faces)
        for other, cards in enumerate(view.get(key) or ()):
            if cards is not None:
                base = enc.rel(seat, other) * faces
                enc.add_cards([cards] if isinstance(cards, str) else cards, out[base:base + faces])
    return fill


def _trick(enc, st, view, seat, out):
    faces = len(enc.faces)
    for other, card in view["trick"]:
        out[enc.rel(seat, other) * faces + enc.face_of[card]] = 1


def _played(enc, st, view, seat, out):
    mask = 0
    for taken in st.taken:
        mask |= taken
    for card in cards_of(mask):
        out[enc.card_face[card]] += 1


def _turned(enc, st, view, seat, out):
    enc.add_cards([view.get("turned")] if view.get("turned") else [], out)


def _bids(enc, st, view, seat, out):
    for other, bid in enumerate(view["bids"]):
        if bid is not None:
            at = 2 * enc.rel(seat, other)
            out[at], out[at + 1] = bid, 1


def _numbers(key):
    def fill(enc, st, view, seat, out):
        for other, value in enumerate(view.get(key) or ()):
            if value is not None:
                out[enc.rel(seat, other)] = value
    return fill


def _one_seat(key):
    def fill(enc, st, view, seat, out):
        other = view.get(key)
        if other is not None:
            out[enc.rel(seat, other)] = 1
    return fill


def _makers(enc, st, view, seat, out):
    for other in view.get("makers") or ():
        out[enc.rel(seat, other)] = 1


def _number(key):
    def fill(enc, st, view, seat, out):
        out[0] = view.get(key) or 0
    return fill


def _trump(enc, st, view, seat, out):
    names = enc.rules.deck.suit_names
    trump = view.get("trump")
    out[names.index(trump) if trump in names else len(names)] = 1


def _window(enc, view) -> list:
    """(index in the rows x cols window at the display's top-left corner, cell) of each card
    on the display."""
    cells = view.get("display") or []
    top, left = min((c["row"] for c in cells), default=0), min((c["col"] for c in cells), default=0)
    return [((c["row"] - top) * enc.cols + c["col"] - left, c) for c in cells]


def _display(enc, st, view, seat, out):
    faces, n = len(enc.faces), enc.n
    for index, cell in _window(enc, view):
        owner = enc.rel(seat, cell["owner"]) if cell.get("owner") is not None else 0
        out[(index * n + owner) * faces + enc.face_of[cell["card"]]] = 1


def _display_points(enc, st, view, seat, out):
    for index, cell in _window(enc, view):
        out[index] = cell.get("points") or 0


def _partners(enc, st, view, seat, out):
    for team in view.get("teams") or ():
        if seat in team:
            for other in team:
                out[enc.rel(seat, other)] = 1


def _phase(enc, st, view, seat, out):
    phase = view["phase"]
    if phase in enc.phases:
        out[enc.phases.index(phase)] = 1


_FILLERS = [
    ("hand", _hand), ("returning", _returning), ("own_choice", _own_choice), ("chosen", _chosen), ("trick", _trick),
    ("played", _played), ("turned", _turned), ("bid_cards", _per_seat_cards("bid_cards")),
    ("set_aside", _per_seat_cards("set_aside")), ("bids", _bids), ("tricks_won", _numbers("tricks_won")),
    ("trump", _trump), ("dealer", _one_seat("dealer")), ("leader", _one_seat("leader")),
    ("declarer", _one_seat("declarer")), ("makers", _makers), ("contract", _number("contract")),
    ("display", _display), ("display_points", _display_points), ("revealed", _per_seat_cards("revealed")),
    ("deck_sizes", _numbers("deck_sizes")), ("removed", _per_seat_cards("removed")),
    ("tiebreaker", _one_seat("tiebreaker")), ("partners", _partners), ("scores", _numbers("scores")),
    ("hand_sizes", _numbers("hand_sizes")), ("current_player", _one_seat("current_player")),
    ("phase", _phase), ("round", _number("round")),
]


class RoundLog:
    """The moves of the current round: (seat, action numbers, public) per move, oldest first.

    `record(state, move)` is called before the move is applied (the action numbers depend on
    the state the move is made in); a new round clears the log."""

    __slots__ = ("space", "round", "entries")

    def __init__(self, space):
        self.space, self.round, self.entries = space, None, []

    def record(self, st, move) -> None:
        self.sync(st)
        kind = self.space.kind(st)
        public = kind.public if kind is not None else True
        self.entries.append((st.current_player, self.space.encode(st, move), public))

    def sync(self, st) -> None:
        """Forget the log once the state has moved on to a new round."""
        if st.round != self.round:
            self.round, self.entries = st.round, []

    def copy(self) -> "RoundLog":
        other = RoundLog(self.space)
        other.round, other.entries = self.round, list(self.entries)
        return other


def encoder_for(rules, players: int) -> Encoder:
    """The encoder of a compiled game for a player count, built once."""
    return built_once(rules, "_encoders", players, Encoder)


def replayed_log(st) -> RoundLog:
    """The round log of a state made by `new_game` and moves: its game replayed from the seed.
    A state set up by `restore` or `determinize` has no moves its seed replays: its log
    starts empty at the position it was set up in."""
    from ..errors import IllegalMoveError
    from .history import all_moves
    from .state import State

    space = space_for(st.rules, st.n)
    log = RoundLog(space)
    try:
        replay = State(st.rules, st.n, st.seed).start()
        for move in all_moves(st):
            log.record(replay, move)
            replay.apply(move)
    except IllegalMoveError:
        log = RoundLog(space)
    log.sync(st)
    return log
