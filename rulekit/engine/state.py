"""The state of one game in play, and the driver that runs a rule set's steps.

Pipeline place: compiler → **engine** → api. A compiled `Ruleset` is a list of *steps*
(deal, pass, bid, play tricks, ...); the state remembers which step it is in and hands
each decision to that step. Steps that need no decision (dealing, revealing) run at once,
so `current_player` is always a seat that must decide. The state is flat: ints, short
lists and bitmasks, so `clone()` is a handful of list copies.
"""
from __future__ import annotations

import random
import struct
try:        # CPython's own SHAKE-256: the same words as OpenSSL's, and quicker to start cold, as a deal's call is
    from _sha3 import shake_256 as _shake
except ImportError:                     # pragma: no cover - a build without it
    from hashlib import shake_256 as _shake

from ..errors import IllegalMoveError, shown
from . import history as _hist
from .moves import Move, normalize

#: Per-seat list fields copied by `clone()`.
_SEAT_LISTS = ("hands", "scores", "bids", "bid_cards", "tricks_won", "dealt", "_taken", "aside", "pending")
_SCALARS = ("rules", "n", "seed", "chance", "round", "_step", "_at", "current_player", "dealer", "leader",
            "lead", "trump", "tricks_played", "is_terminal", "undealt", "revealed", "_last_round",
            "_past")

#: count -> the unpacking of that many little-endian 32-bit words (`random_words`)
_UNPACK: dict = {}


class State:
    """A game in play. Mutated by `apply`; copied by `clone`.

    The moves made so far are `_past` (the finished rounds, as immutable codes shared by
    clones: `engine/history.py`) followed by `_history` (this round's Move objects, a plain
    list the hot path appends to). Read them with `history`, or `engine.history`'s helpers.
    """

    __slots__ = _SEAT_LISTS + _SCALARS + ("trick", "last_trick", "winners", "_history", "_legal",
                                           "extra", "_won")

    def __new__(cls, rules=None, players: int = 0, seed: int = 0):
        """A state of the class the rules generated for their game (`compile/codegen.py`),
        a subclass of this one, when they did."""
        kind = getattr(rules, "state_class", None) if cls is State else None
        return object.__new__(kind if kind is not None else cls)

    def __init__(self, rules, players: int, seed: int):
        self.rules, self.n, self.seed, self.chance = rules, players, seed, 0
        self.round, self.is_terminal, self.winners = 1, False, []
        self.step = -1
        self.current_player = None
        self.hands = [0] * players
        self.scores = [0] * players
        self.dealt = [0] * players
        self.bids = [None] * players
        self.bid_cards = [None] * players
        self.tricks_won = [0] * players
        self._taken, self._won = [0] * players, []
        self.aside = [0] * players
        self.pending = [None] * players
        self.trick, self.last_trick, self.lead, self.trump = [], [], -1, rules.fixed_trump
        self.leader = self.dealer = None
        self.tricks_played, self.undealt, self.revealed = 0, 0, False
        self._history, self._legal, self.extra = [], None, {}
        self._past = _hist.EMPTY    # finished rounds' moves, coded (engine/history.py)
        self._last_round = None     # what the round just finished left: bids, tricks, points

    # ---- the public API ------------------------------------------------------------------

    @property
    def step(self) -> int:
        """Index of the step the game is in (in `rules.steps`)."""
        return self._step

    @step.setter
    def step(self, index: int) -> None:
        steps = self.rules.steps
        self._step = index
        self._at = steps[index] if 0 <= index < len(steps) else None     # the step object itself

    @property
    def last_round(self) -> dict | None:
        """The record of the round just finished: {"round", "bids", "tricks_won", "points",
        "scores"}, or None before the first round ends. A round that won no points and wrote
        no bids or tricks (a grid game's, `compile/codegen_grid_end.py`) leaves only its
        number; its record is made from the state when first read (nothing it holds changes
        until the next round's end, which leaves a record of its own), then kept, so every
        read sees the same dict. A generated round's end leaves the record's values as a tuple."""
        record = self._last_round
        if record.__class__ is int:             # a grid round's: the rest is the state's
            record = (record, list(self.bids), list(self.tricks_won), [0] * self.n, list(self.scores))
        if record.__class__ is tuple:
            record = self._last_round = dict(zip(("round", "bids", "tricks_won", "points", "scores"), record))
        return record

    @last_round.setter
    def last_round(self, record: dict | None) -> None:
        self._last_round = record

    @property
    def taken(self) -> list[int]:
        """Each seat's cards taken in tricks this round, as masks. A trick step logs each trick
        it ends in `_won`, its (seat, card) pairs then its winner; they join the masks when read."""
        if self._won:
            cards, taken = 0, self._taken
            for entry in self._won:
                if entry.__class__ is int:      # the winner of the cards before it
                    taken[entry], cards = taken[entry] | cards, 0
                else:
                    cards |= 1 << entry[1]
            self._won = []
        return self._taken

    @taken.setter
    def taken(self, masks: list[int]) -> None:
        self._taken, self._won = masks, []

    @property
    def history(self) -> list[str]:
        """The texts of every move made so far, oldest first."""
        return _hist.all_texts(self)

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        """The moves the current seat (or `seat`) may make now, in a stable order; empty once
        the game is over. Only table play (a rule file's `player errors`) lets a seat act
        out of turn; elsewhere another seat may do nothing."""
        if self.is_terminal:
            return []
        if seat is None or seat == self.current_player:
            return self._at.legal_moves(self)
        return self._at.legal_for(self, self._seat(seat))

    def apply(self, move, seat: int | None = None) -> None:
        """Make a move (a `Move` or its text) for the current seat, or for `seat` (table play:
        out of turn); raises `IllegalMoveError` and changes nothing if illegal."""
        if self.is_terminal:
            raise IllegalMoveError(move, [], "the game is over")
        if seat is not None and seat != self.current_player:
            return self._apply_for(self._seat(seat), move)
        step = self._at
        over = step.play(self, move)          # None when not an interned legal move
        if over is None:
            if isinstance(move, str) and move.lstrip()[:5].lower() == "seat ":
                return self._apply_seat_text(move)
            legal = self._legal
            move = self._resolve(move, legal if legal is not None else step.legal(self))
            over = step.apply(self, move)
        self._legal = None
        self._history.append(move)
        if over:
            self.advance()

    def playout(self, seed=None, *, round_only: bool = False) -> int:
        """Random legal moves to the end of the game (or, with `round_only`, of this round),
        inside the engine; returns how many moves were made. The moves are exactly those of
        `moves = state.legal_moves(); state.apply(moves[rng.randrange(len(moves))])` with
        `rng = random.Random(seed)`, so a playout replays through the API."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise TypeError(f"a playout's seed is an int or None, not {type(seed).__name__}")
        rng = random.Random(seed)
        randrange, getrandbits = rng.randrange, rng.getrandbits
        start, made = self.round, 0
        while not self.is_terminal and not (round_only and self.round != start):
            step = self._at
            if step.walk is not None:         # a generated step plays itself to its end
                made += step.walk(self, getrandbits)
                continue
            moves = step.legal_moves(self)
            self.apply(moves[randrange(len(moves))])
            made += 1
        return made

    def clone(self) -> "State":
        other = State.__new__(type(self))
        for name in _SCALARS:
            setattr(other, name, getattr(self, name))
        for name in _SEAT_LISTS:
            setattr(other, name, list(getattr(self, name)))
        other.trick, other.last_trick, other._won = list(self.trick), self.last_trick, list(self._won)
        other.winners, other._history, other._legal = list(self.winners), list(self._history), self._legal
        other.extra = self.rules.clone_extra(self.extra) if self.extra else {}
        return other

    def view(self, player: int | None = None) -> dict:
        """The full truth (no argument) or what `player` may see, as JSON-ready data."""
        if player is not None and not (isinstance(player, int) and 0 <= player < self.n):
            raise ValueError(f"no seat {shown(player)}: seats are 0..{self.n - 1}")
        return self.rules.view(self, player)

    # ---- numbered actions and arrays, for learning code (engine/actions.py, observe.py) -----

    @property
    def actions(self):
        """The game's fixed action space for this player count (`rulekit.engine.actions`)."""
        from .actions import space_for
        return space_for(self.rules, self.n)

    def legal_actions(self, chosen=()) -> list[int]:
        """The action numbers that may be chosen now, ascending (after the parts `chosen` so
        far, for a move made in parts such as a pass of several cards)."""
        return self.actions.legal(self, chosen)

    def legal_action_mask(self, chosen=()):
        """`legal_actions` as a numpy int8 array over the whole action space."""
        return self.actions.mask(self, chosen)

    def apply_action(self, action) -> None:
        """Make the move of an action number, or of all the parts of one (a list of numbers)."""
        ids = [action] if isinstance(action, int) else list(action)
        move = self.actions.decode(self, ids)
        if move is None:
            raise IllegalMoveError(", ".join(self.actions[i] for i in ids), self.legal_moves(),
                                   "this move is made of more parts: pass them all at once")
        self.apply(move)

    def observation(self, seat: int):
        """What `seat` sees, as a numpy float32 array (layout: `rulekit.engine.observe`)."""
        from .observe import encoder_for
        return encoder_for(self.rules, self.n).observation(self, self._seat(seat))

    def information_state(self, seat: int):
        """The observation of `seat` followed by the round's moves as that seat saw them."""
        from .observe import encoder_for, replayed_log
        return encoder_for(self.rules, self.n).information_state(self, self._seat(seat), replayed_log(self))

    def for_seat(self, seat: int):
        """A read-only handle that shows only what `seat` may know (`engine/seat.py`): the
        thing to hand to a bot or any untrusted code instead of the state."""
        from .seat import SeatHandle
        return SeatHandle(self, seat)

    def determinize(self, seat: int, seed=None) -> "State":
        """A full state `seat` cannot tell apart from this one (`engine/determinize.py`):
        the same `view(seat)`, the hidden cards dealt again consistently with what the seat
        has seen, uniformly; a fresh seed; the seat's visible history."""
        from .seat import _rng
        from .determinize import Determinizer
        return Determinizer(self, seat).sample(_rng(seed))

    def hand_size(self, seat: int) -> int:
        return self.hands[seat].bit_count()

    def __repr__(self) -> str:
        where = "over" if self.is_terminal else f"seat {self.current_player} to move"
        made = len(self._past) + len(self._history)
        last = ", ".join(m.text for m in _hist.moves_from(self, max(0, made - 3)))
        moves = f"{made} moves" + (f", last: {last}" if last else "")
        return f"<State {self.rules.title} round {self.round}, {where}; players={self.n} seed={self.seed}, {moves}>"

    # ---- driving the steps ---------------------------------------------------------------

    def random_words(self, count: int) -> tuple[int, ...]:
        """`count` random 32-bit numbers for the next chance event (a deal, a shuffle, the dealer,
        a toss), reproducible from the seed: SHAKE-256 of the seed and the event's number, read
        as little-endian words, one C call where seeding a `random.Random` costs some 25,000
        instructions. A number below n is `w * n >> 32` (`random_below`; bias below n / 2**32)."""
        self.chance += 1
        unpack = _UNPACK.get(count) or _UNPACK.setdefault(count, struct.Struct("<%dI" % count).unpack)
        return unpack(_shake(b"%d/%d" % (self.seed, self.chance)).digest(4 * count))

    def random_below(self, n: int) -> int:
        """A number in range(n) for the next chance event (one word of `random_words`)."""
        return self.random_words(1)[0] * n >> 32

    def start(self) -> "State":
        self.rules.start_game(self)
        self.advance()
        return self

    def advance(self) -> None:
        """Run steps until one needs a decision, ending rounds (and the game) on the way."""
        rules = self.rules
        steps = rules.steps
        index = self._step
        while not self.is_terminal:
            index += 1
            if index == len(steps):
                self._step = index
                went_on = rules.end_round(self)
                if went_on:                 # generated: it entered the next round's steps too
                    return
                # False (generated): the next round's steps are entered up to `_step`, none
                # asked a decision, so the loop goes on after it; None: from the round's start
                index = self._step if went_on is False else rules.round_start - 1
                continue
            self._step, self._at = index, steps[index]
            if self._at.enter(self):
                return
        self.step = index
        self.current_player = None

    def _seat(self, seat) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            # the current player's moves, not an empty list, which the message reads as a game over
            raise IllegalMoveError(f"seat {shown(seat)}", [] if self.is_terminal else self.legal_moves(),
                                   f"seats are 0..{self.n - 1}")
        return seat

    def _apply_seat_text(self, text: str) -> None:
        """`seat 2: play blue 9`, the history's text of a move made out of turn."""
        head, colon, rest = text.partition(":")
        number = head.strip()[5:].strip()
        if not colon or not number.isascii() or not number.isdigit() or len(number) > 3:
            raise IllegalMoveError(text, self.legal_moves(), "write `seat N: move` to act for seat N")
        self.apply(rest, seat=int(number))

    def _apply_for(self, seat: int, move) -> None:
        """A move of `seat`, out of turn; recorded in the history as `seat N: move`."""
        step = self._at
        move = self._resolve(move, step.legal_for(self, seat), seat)
        self._legal = None
        over = step.apply_for(self, seat, move)
        self._history.append(Move(move.kind, move.arg, f"seat {seat}: {move.text}"))
        if over:
            self.advance()

    def _resolve(self, move, legal, seat: int | None = None) -> Move:
        """The legal move meant by `move` (text or Move), or raise IllegalMoveError."""
        text = move.text if isinstance(move, Move) else move
        if not isinstance(text, str):
            raise IllegalMoveError(shown(move), legal, "a move is a Move or its text")
        wanted = self.rules.steps[self.step].canonical(self, normalize(text))
        for candidate in legal:
            if candidate.text == wanted:
                return candidate
        reason = self.rules.steps[self.step].why_illegal(self, wanted)
        if seat is not None and not legal:
            reason = f"seat {seat} may not act now: it is seat {self.current_player}'s turn"
        raise IllegalMoveError(text, legal, reason)
