"""A game's finished rounds of moves, stored as small codes.

Pipeline place: compiler → **engine**. During a round a state appends its moves to a plain
list, `state._history`: the hot path pays one list append per move. The generated steps of
tricks and number bids append their moves' codes (the low 16 bits of `Move._code`: the
rules code those moves as they are built), any other step the (interned) `Move` objects. At the end of a round that
the game goes on after, `seal` turns that list into codes and adds them to `state._past`, an
immutable `bytes` (or `array('H')` once a game has more than 256 distinct moves) shared by
every clone. The code ↔ move table, `MoveCodes`, lives on the compiled rules (one per rule
set, shared by all its states), so a state keeps one byte per move of its past instead of an
8-byte list slot, and `clone()` copies only the moves not sealed yet. After its first round
(always sealed: a game's first moves are its most repeated ones), a state's moves wait in the
list until a round end finds `SEAL_AT` of them: a game of short rounds, such as a grid
game's choose-and-place, pays one packing per several rounds instead of one per round, and
the moves of the game's last rounds (on fresh positions, often moves never coded before)
are seldom packed at all (those of its last round never are). Every reader sees `_past` followed by `_history`, so when the
packing happens changes no history, view, clone or pickle.

A move's code is written on the move object when a table first codes it (`Move._code`,
offset by the table's own base, a multiple of 65536, so that a code from another table is
recognised as out of range), so coding a round is one attribute read a move; a move without one (or with
another table's) is found by its kind, payload and text (moves made fresh: `seat N: ...` out
of turn, sampled histories). A restored history (a view's texts) is coded by text straight
into `_past` (`restored`), so restoring a long game builds no Move objects. Decoding gives
back a move equal in kind, payload and text: the very object for interned moves. The table is bounded (`MAX_CODES`): past it, rounds stay uncompacted
(correct, only larger), so histories restored from untrusted views cannot grow it without end.
"""
from __future__ import annotations

import itertools
import threading
from array import array
from operator import attrgetter

from .moves import Move, normalize

_KIND, _ARG, _TEXT = attrgetter("kind"), attrgetter("arg"), attrgetter("text")

#: The past of a state that has finished no round yet (and of a sampled one).
EMPTY = b""
#: After the first round, a round end seals the moves not sealed yet once there are this many
#: (a round of a trick game for four has more: each of its rounds is sealed as it ends).
SEAL_AT = 32
#: Distinct moves one rule set codes at most; codes fit an unsigned 16-bit array.
MAX_CODES = 1 << 16
_TABLES = itertools.count(1)      # each table's serial: its codes on moves start at serial << 16


class MoveCodes:
    """Move ↔ small int code, for one compiled rule set (grows as new moves are sealed)."""

    __slots__ = ("moves", "texts", "base", "_by_key", "_by_text", "_lock")

    def __init__(self):
        self.moves: list = []          # code -> the Move it stands for
        self.texts: list[str] = []     # code -> its text
        self.base = next(_TABLES) << 16       # a move coded here carries `_code = base + code`
        self._by_key: dict[tuple, int] = {}    # (kind, arg, text) -> code
        self._by_text: dict[str, int] = {}     # a restored move's text -> code (`code_texts`)
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.moves)

    def encode(self, moves) -> list[int] | None:
        """The codes of `moves`, or None when the table is full and one of them is new: by
        each move's mark, else by its kind, payload and text (registered when new)."""
        base, known = self.base, len(self.moves)
        codes = []
        for m in moves:
            code = m if m.__class__ is int else getattr(m, "_code", -1) - base      # a code already
            if not 0 <= code < known:
                code = self._register(m)
                if code is None:
                    return None
                known = len(self.moves)
            codes.append(code)
        return codes

    def add(self, moves: list) -> None:
        """Code `moves`, interned moves just made together, none coded yet (a table's moves
        made in bulk: `PassMoves.burst`, compile/codegen_passes.py), as `encode` would one by
        one, with the loops in C: their codes follow the table's last. Moves that an equal
        move coded before, that repeat one another, or that would not fit take `encode`'s
        path. (That none carries a code is the caller's word: asking each costs an
        AttributeError a move.)"""
        try:
            keys = list(zip(map(_KIND, moves), map(_ARG, moves), map(_TEXT, moves)))
            with self._lock:
                start = len(self.moves)
                fits = (start + len(keys) <= MAX_CODES and self._by_key.keys().isdisjoint(keys)
                        and len(set(keys)) == len(keys))
                if fits:
                    self.moves += moves
                    self.texts += map(_TEXT, moves)
                    self._by_key.update(zip(keys, range(start, start + len(keys))))
        except TypeError:            # a payload that does not hash
            fits = False
        if not fits:
            self.encode(moves)
            return
        first = self.base + start
        any(map(setattr, moves, itertools.repeat("_code"), range(first, first + len(moves))))   # marked, in C

    def code_texts(self, texts) -> list[int] | None:
        """The codes of a restored history, given as its moves' texts (what a view keeps of a
        move), as `encode` would code `Move("?", None, normalize(text))` for each; None when
        the table is full and one of them is new. A text met before costs one look-up: only
        texts already normalized are remembered, so there is at most one entry a code."""
        by_text = self._by_text
        codes = list(map(by_text.get, texts))
        if None in codes:
            for index, code in enumerate(codes):
                if code is None:
                    raw = texts[index]
                    text = normalize(raw)
                    code = self._register(Move("?", None, text))
                    if code is None:
                        return None
                    if text == raw:
                        by_text[raw] = code
                    codes[index] = code
        return codes

    def _register(self, move) -> int | None:
        key = _key(move)
        with self._lock:
            code = self._by_key.get(key)
            if code is None:
                if len(self.moves) >= MAX_CODES:
                    return None
                code = len(self.moves)
                self.moves.append(move)
                self.texts.append(move.text)
                self._by_key[key] = code
        if getattr(move, "_code", None) is None:     # first coded here: mark it (never re-marked)
            try:
                move._code = self.base + code
            except AttributeError:       # a move-like object without the slot: found by key
                pass
        return code

    def decode(self, codes) -> list:
        """The moves of `codes` (a state's `_past`, or a slice of it)."""
        return list(map(self.moves.__getitem__, codes))


def _key(move) -> tuple:
    key = (move.kind, move.arg, move.text)
    try:
        hash(key)
    except TypeError:             # a payload that does not hash: told apart by its repr
        key = (move.kind, "repr", repr(move.arg), move.text)
    return key


def seal(st) -> None:
    """Move the state's current moves (`_history`) into its coded past (`_past`): at the end
    of the first round, then once there are `SEAL_AT` of them (fewer wait for a later round's end)."""
    moves = st._history
    if len(moves) < SEAL_AT and (st._past or not moves):
        return
    table = getattr(st.rules, "move_codes", None)
    if table is None:           # a stand-in for rules, with no table: nothing is sealed
        return
    try:    # codes, as generated steps append them, or moves marked by this table (0..65535: another's are not)
        past = extend(st._past, moves if moves[0].__class__ is int and moves[-1].__class__ is int
                      else [m if m.__class__ is int else m._code - table.base for m in moves])
    except (AttributeError, OverflowError, TypeError):
        codes = table.encode(moves)         # one by one, registering the moves not coded yet
        if codes is None:
            return
        past = extend(st._past, codes)
    st._past, st._history = past, []


def restored(rules, texts: list[str]) -> tuple:
    """`(_past, _history)` of a state restored from a view's history (texts): each move one of
    kind "?" (a restore knows a move by its text only), already coded into the past when the
    rule set's table has room, so restoring a long history builds no Move objects; else (a
    full table, or rules without one) the moves as a list, as a round's moves wait."""
    if not texts:
        return EMPTY, []
    table = getattr(rules, "move_codes", None)
    codes = None if table is None else table.code_texts(texts)
    if codes is None:
        return EMPTY, [Move("?", None, normalize(text)) for text in texts]
    return extend(EMPTY, codes), []


def extend(past, codes: list[int]):
    """A new past: `past` followed by `codes` (never changes `past`, which clones share);
    OverflowError for a code that is not one of a table's (below 0 or past 65535)."""
    if past.__class__ is bytes:
        try:
            return past + bytearray(codes)     # a bytes (bytearray() reads a list twice as fast as bytes())
        except ValueError:       # a code of 256 or more: two bytes per move from now on
            past = array("H", list(past))
    return past + array("H", codes)


def count(st) -> int:
    """How many moves the game has seen so far."""
    return len(st._past) + len(st._history)


def all_moves(st) -> list:
    """Every move of the game so far, oldest first (Move objects)."""
    return moves_from(st, 0)


def all_texts(st) -> list[str]:
    texts = [m.text for m in _current(st, st._history)]
    return list(map(st.rules.move_codes.texts.__getitem__, st._past)) + texts if st._past else texts


def moves_from(st, start: int) -> list:
    """The moves from index `start` on (what a replay that got that far still needs)."""
    past = st._past
    if start >= len(past):
        return _current(st, st._history[start - len(past):])
    return st.rules.move_codes.decode(past[start:]) + _current(st, st._history)


def _current(st, entries: list) -> list:
    """The moves of entries of `_history`: Move objects, or the codes generated steps append."""
    table = getattr(st.rules, "move_codes", None)       # (none for a stand-in for rules)
    return [table.moves[e] if e.__class__ is int else e for e in entries]


def move_at(st, index: int):
    """The move at `index` (negative counts from the end), as a list would give it."""
    past, current = st._past, st._history
    count = len(past) + len(current)
    if index < 0:
        index += count
    if not 0 <= index < count:
        raise IndexError("history index out of range")
    if index >= len(past):
        return _current(st, [current[index - len(past)]])[0]
    return st.rules.move_codes.moves[past[index]]
