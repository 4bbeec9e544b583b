"""Invariants every game must keep, as named checks that raise `InvariantError`.

Pipeline place: api → **testing** (invariants) → strategies, machine, `check_rules`. Each
invariant is a function `name(state, before=None)`: `state` is any state of any game, and
`before` (optional) is a copy of the state just before its last move, for the invariants
about what one move may change. They read the public surface (views, moves, `restore`)
and only the general mechanisms behind it (round ends, scoring), never a game's name, so
they hold for every rule file. A failure raises `InvariantError` naming the invariant and
saying what went wrong in the game's own terms.
"""
from __future__ import annotations

import json
import random
from collections import Counter
from functools import lru_cache

from ..errors import IllegalMoveError
from ..compile.views import ViewError
from ..engine.history import EMPTY, count, move_at
from ..engine.moves import normalize
from ..engine.state import State

#: Rounds a game may last when its rules give no bound of their own (`end after N rounds`).
DEFAULT_MAX_ROUNDS = 1000

#: Full-view keys that hold cards. `bid_cards`, `last_trick` and `pending_effect` only *refer*
#: to cards that lie in one of these places, so they are not counted. `turned` (the card turned
#: face up after the deal) holds one card text or null.
CARD_PLACES = ("hands", "trick", "taken", "set_aside", "undealt", "display", "decks", "discard",
               "removed", "turned", "returning")
#: Per-seat keys of cards a seat has picked: a reference when the card is still in that
#: seat's hand (a secret bid card stays there), a place of its own when it left the hand.
PICKED = ("choices", "revealed")

#: Seat-view keys that would give hidden information away.
SECRET_KEYS = ("seed", "undealt", "history")


class InvariantError(AssertionError):
    """An invariant does not hold. `invariant` names it; `str()` says what went wrong."""

    def __init__(self, invariant: str, message: str):
        self.invariant = invariant
        self.message = message
        super().__init__(f"{invariant}: {message}")


def _fail(name: str, message: str):
    raise InvariantError(name, message)


# ---- a state, seen once per check ----------------------------------------------------------

class Look:
    """One state with its views computed once, shared by the invariants that read them."""

    def __init__(self, state: State, before: State | None = None, before_full: dict | None = None):
        self.state, self.before = state, before
        self._full = None
        self._seats: dict[int, dict] = {}
        self._before_full = before_full
        self._trace = None

    @property
    def full(self) -> dict:
        """The full view without its move list (`history`), which only replays need."""
        if self._full is None:
            self._full = full_view(self.state)
        return self._full

    def seat(self, seat: int) -> dict:
        if seat not in self._seats:
            self._seats[seat] = self.state.view(seat)
        return self._seats[seat]

    @property
    def before_full(self) -> dict | None:
        if self._before_full is None and self.before is not None:
            self._before_full = full_view(self.before)
        return self._before_full

    def one_step(self) -> bool:
        """True when `before` is this state one move earlier."""
        before = self.before
        return before is not None and count(self.state) == count(before) + 1

    @property
    def round_ended(self) -> bool:
        """True when the last move ended a round (or the game)."""
        st, before = self.state, self.before
        return st.round != before.round or st.is_terminal != before.is_terminal

    @property
    def last_move(self) -> str:
        return move_at(self.state, -1).text

    @property
    def trace(self) -> "Trace":
        if self._trace is None:
            self._trace = Trace(self.before, self.last_move)
        return self._trace


def full_view(state: State, history: bool = False) -> dict:
    """`state.view()`, without the `history` key unless asked: the move list grows with the
    game, and every check but a replay can do without it."""
    if history:
        return state.view()
    moves, past, state._history, state._past = state._history, state._past, [], EMPTY
    try:
        view = state.view()
    finally:
        state._history, state._past = moves, past
    view.pop("history", None)
    return view


class _RoundEnds:
    """Stands in for a rule set and keeps a copy of the state at each round end, before scoring."""

    def __init__(self, rules):
        self.rules = rules
        self.snapshots: list[State] = []

    def __getattr__(self, name):
        return getattr(self.rules, name)

    def end_round(self, st: State) -> bool | None:
        snapshot = st.clone()
        snapshot.rules = self.rules
        snapshot.step = min(snapshot.step, len(self.rules.steps) - 1)   # as the last step left it
        self.snapshots.append(snapshot)
        return self.rules.end_round(st)       # True: a generated end entered the next round too


class Trace:
    """The last move played again on a copy of `before`, seen at every round end it causes."""

    def __init__(self, before: State, move: str):
        probe = before.clone()
        recorder = _RoundEnds(before.rules)
        probe.rules = recorder
        try:
            probe.apply(move)
        finally:
            probe.rules = before.rules
        self.after = probe
        self.round_ends = recorder.snapshots

    @property
    def before_scoring(self) -> State:
        """The state as the first round end found it (or the state after the move)."""
        return self.round_ends[0] if self.round_ends else self.after


# ---- the invariants ------------------------------------------------------------------------

def cards_conserved(state: State, before: State | None = None, *, deck=None) -> None:
    """Every card of the deck lies in exactly one place (a hand, the trick, a pile, ...)."""
    _cards_conserved(Look(state, before), deck)


def _cards_conserved(look: Look, deck=None) -> None:
    expected = Counter(deck) if deck is not None else deck_texts(look.state)
    cards: list[str] = []
    for key in CARD_PLACES:
        value = look.full.get(key)
        if value.__class__ is list:
            _flat(value, cards)
        elif value.__class__ is str:
            cards.append(value)
    cards += [card for _, card in _picked(look.full)]
    if expected is None or (deck is None and sorted(cards) == _sorted_deck(look.state)):
        return
    if Counter(cards) == expected:
        return
    places = card_places(look.full)
    found = Counter(card for _, card in places)
    where: dict[str, list[str]] = {}
    for place, card in places:
        where.setdefault(card, []).append(place)
    problems = []
    for card in sorted(set(found) | set(expected)):
        have, want = found[card], expected[card]
        if have > want:
            problems.append(f"{card!r} is in {have} places ({', '.join(where[card])}) "
                            f"but the deck has {want}")
        elif have < want:
            problems.append(f"{card!r} is missing: the deck has {want}, found {have}"
                            + (f" ({', '.join(where[card])})" if have else ""))
    if problems:
        more = f"; and {len(problems) - 4} more" if len(problems) > 4 else ""
        _fail("cards_conserved", "; ".join(problems[:4]) + more)


def card_places(full: dict) -> list[tuple[str, str]]:
    """`(place, card text)` for every card a full view shows, over `CARD_PLACES` and `PICKED`."""
    out = []
    for key in CARD_PLACES:
        value = full.get(key)
        if isinstance(value, list):
            _collect(value, key, out)
        elif isinstance(value, str):
            out.append((key, value))
    return out + _picked(full)


def _picked(full: dict) -> list[tuple[str, str]]:
    """Picked cards that are no longer in their seat's hand (so lie in a place of their own)."""
    out = []
    hands = full.get("hands")
    for key in PICKED:
        picks = full.get(key)
        if picks.__class__ is not list or not any(picks):
            continue
        for seat, pick in enumerate(picks):
            cards = [pick] if isinstance(pick, str) else pick if isinstance(pick, list) else []
            held = Counter(hands[seat] if isinstance(hands, list) and seat < len(hands) and hands[seat] else ())
            for card in cards:
                if held[card] > 0:
                    held[card] -= 1
                else:
                    out.append((f"{key}[{seat}]", card))
    return out


def _flat(value: list, out: list) -> None:
    """The quick form of `_collect`: card texts only."""
    for item in value:
        kind = item.__class__
        if kind is str:
            out.append(item)
        elif kind is list:
            if len(item) == 2 and item[0].__class__ is int and item[1].__class__ is str:
                out.append(item[1])
            else:
                _flat(item, out)
        elif kind is dict and "card" in item:
            out.append(item["card"])


def _collect(value: list, place: str, out: list) -> None:
    """Cards of one place: a list of texts, of `[seat, text]`, of `{"card": text}`, or of such lists."""
    for index, item in enumerate(value):
        if item.__class__ is str:
            out.append((place, item))
        elif item.__class__ is dict:
            if "card" in item:
                out.append((place, item["card"]))
        elif item.__class__ is list:
            if len(item) == 2 and item[0].__class__ is int and item[1].__class__ is str:
                out.append((place, item[1]))          # a `[seat, card]` entry of a trick
            else:
                _collect(item, f"{place}[{index}]", out)
        elif item is None:
            _fail("cards_conserved", f"the full view hides {place}[{index}]")


def deck_texts(state: State) -> Counter | None:
    """The deck's cards as a multiset of texts, or None when the rules keep no deck list."""
    deck = getattr(state.rules, "deck", None)
    texts = getattr(deck, "texts", None)
    return _counted(tuple(texts)) if texts is not None else None


@lru_cache(maxsize=64)
def _counted(texts: tuple) -> Counter:
    return Counter(texts)


def _sorted_deck(state: State) -> list[str]:
    return _sorted_texts(tuple(state.rules.deck.texts))


@lru_cache(maxsize=64)
def _sorted_texts(texts: tuple) -> list[str]:
    return sorted(texts)


def one_seat_to_move(state: State, before: State | None = None) -> None:
    """Until the end exactly one seat is to move; at the end no seat is, and someone won."""
    _one_seat_to_move(Look(state, before))


def _one_seat_to_move(look: Look) -> None:
    st, full, name = look.state, look.full, "one_seat_to_move"
    seat = st.current_player
    if full["is_terminal"] != st.is_terminal or full["current_player"] != seat:
        _fail(name, f"the view says current_player {full['current_player']}, is_terminal "
                    f"{full['is_terminal']}, but the state says {seat}, {st.is_terminal}")
    if not st.is_terminal:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < st.n:
            _fail(name, f"the game is in play but current_player is {seat!r}, not a seat 0..{st.n - 1}")
        if st.winners:
            _fail(name, f"the game is in play but winners are already {st.winners}")
        return
    if seat is not None:
        _fail(name, f"the game is over but seat {seat} is still to move")
    winners = list(st.winners)
    if not winners and _capped(st):
        return                  # stopped by the engine's round cap: `ends_within_bound` says so
    if not winners or winners != sorted(set(winners)) or not all(0 <= w < st.n for w in winners):
        _fail(name, f"the game is over but its winners are {winners!r}: expected one or more seats, "
                    "in order, each once")


def legal_moves_until_end(state: State, before: State | None = None, *, tries: int | None = None) -> None:
    """A seat to move always has a legal move, and each one is accepted as its own text."""
    _legal_moves_until_end(Look(state, before), tries)


def _legal_moves_until_end(look: Look, tries: int | None = None) -> None:
    st, name = look.state, "legal_moves_until_end"
    legal = st.legal_moves()
    if st.is_terminal:
        if legal:
            _fail(name, f"the game is over but it lists legal moves: {_short(legal)}")
        return
    if not legal:
        _fail(name, f"seat {st.current_player} must move in phase {look.full['phase']!r} "
                    f"of round {st.round}, but it has no legal move")
    texts = [m.text for m in legal]
    if [m.text for m in st.legal_moves()] != texts:
        _fail(name, "two calls of legal_moves() give different lists")
    if len(set(texts)) != len(texts):
        twice = [t for t, c in Counter(texts).items() if c > 1]
        _fail(name, f"legal moves are listed twice: {twice[:3]}")
    for move in legal:
        if move.text in _NORMAL:
            continue
        if len(_NORMAL) > 100_000:
            _NORMAL.clear()
        _NORMAL.add(move.text)
        if str(move) != move.text or normalize(move.text) != move.text:
            _fail(name, f"the move {move.text!r} is not written in normal form "
                        f"(str: {str(move)!r}, normalized: {normalize(move.text)!r})")
    for text in _spread(texts, tries):
        probe = st.clone()
        try:
            probe.apply(text)
        except Exception as error:   # noqa: BLE001 - any error here is the finding
            _fail(name, f"the legal move {text!r} given as text raises {type(error).__name__}: {error}")


#: Move texts already found in normal form.
_NORMAL: set[str] = set()


def _spread(items: list, count: int | None) -> list:
    """`count` items spread over the list (all when `count` is None)."""
    if count is None or len(items) <= count:
        return list(items)
    if count <= 1:
        return items[:1]
    step = (len(items) - 1) / (count - 1)
    return list(dict.fromkeys(items[round(i * step)] for i in range(count)))


def illegal_move_changes_nothing(state: State, before: State | None = None, *, tries: int = 12,
                                 rng: random.Random | None = None) -> None:
    """An illegal move raises `IllegalMoveError`, naming the legal moves, and changes nothing."""
    _illegal_move_changes_nothing(Look(state, before), tries, rng)


def _illegal_move_changes_nothing(look: Look, tries: int = 12, rng: random.Random | None = None) -> None:
    st, name = look.state, "illegal_move_changes_nothing"
    rng = rng or random.Random(count(st))
    legal = [m.text for m in st.legal_moves()]
    full = look.full
    for move in illegal_moves(st, legal, rng, tries):
        probe = st.clone()
        try:
            probe.apply(move)
        except IllegalMoveError as error:
            if error.legal != legal:
                _fail(name, f"apply({move!r}) names the legal moves as {_short(error.legal)}, "
                            f"but they are {_short(legal)}")
        except Exception as error:   # noqa: BLE001 - any other error is the finding
            _fail(name, f"apply({move!r}) raises {type(error).__name__} instead of IllegalMoveError: {error}")
        else:
            _fail(name, f"apply({move!r}) was accepted, but the legal moves are {_short(legal)}")
        after = full_view(probe)
        if after != full:
            _fail(name, f"apply({move!r}) raised, but changed the state: {_diff(full, after)}")


def illegal_moves(st: State, legal: list[str], rng: random.Random, count: int) -> list:
    """Moves that are not legal here: nonsense, wrong cards, wrong verbs, wrong types."""
    legal_set = set(legal)
    verbs = sorted({t.split(" ", 1)[0] for t in legal}) or ["play", "bid"]
    cards = sorted(set(deck_texts(st) or ())) or ["card"]
    fixed = ["", "   ", "xyzzy", verbs[0], f"{verbs[0]} 99999", f"{verbs[0]} -1",
             f"{verbs[0]} nothing", None, 7, ["play"]]
    if legal:
        fixed += [legal[0] + " and more", legal[-1] + ",", "un" + legal[0]]
    made = [f"{rng.choice(verbs + ['play', 'bid', 'pass'])} {rng.choice(cards)}" for _ in range(count)]
    made += [f"pass {rng.choice(cards)}, {rng.choice(cards)}, {rng.choice(cards)}"]
    chosen = fixed[:max(1, count // 2)] + rng.sample(fixed, min(len(fixed), count // 2)) + made
    out = []
    for move in chosen:
        if isinstance(move, str) and _as_listed(st, move) in legal_set:
            continue
        if move not in out:
            out.append(move)
    return out[:count]


def _as_listed(st: State, text: str) -> str:
    """The text as the legal list would spell it (cards of a pass in order, for instance)."""
    text = normalize(text)
    steps = getattr(st.rules, "steps", ())
    if st.is_terminal or not 0 <= st.step < len(steps):
        return text
    return steps[st.step].canonical(st, text)


def replay_is_identical(state: State, before: State | None = None, *, game=None) -> None:
    """The same seed and the same moves give the same game (the same full view)."""
    _replay_is_identical(Look(state, before), game)


def _replay_is_identical(look: Look, game=None) -> None:
    st, name = look.state, "replay_is_identical"
    again = fresh(st, game)
    for index, move in enumerate(st.history):
        try:
            again.apply(move)
        except Exception as error:   # noqa: BLE001 - any error is the finding
            _fail(name, f"replaying move {index + 1} ({move!r}) from the same seed raises "
                        f"{type(error).__name__}: {error}")
    view, full = again.view(), st.view()
    if view != full:
        _fail(name, f"replaying the same {count(st)} moves from seed {st.seed} gives a "
                    f"different game: {_diff(full, view)}")


def fresh(st: State, game=None) -> State:
    """A new game with the state's rules, players and seed."""
    if game is not None:
        return game.new_game(players=st.n, seed=st.seed)
    return State(st.rules, st.n, st.seed).start()


def restore_round_trips(state: State, before: State | None = None, *, game=None, follow: int = 1) -> None:
    """`restore(view())` gives back the same state: the same views, moves and next `follow` moves."""
    _restore_round_trips(Look(state, before), game, follow)


def _restore_round_trips(look: Look, game=None, follow: int = 1, history: bool = True) -> None:
    """With `history=False` the move list is left out of the view (restoring it costs the most)."""
    st, name = look.state, "restore_round_trips"
    data = _json_copy(full_view(st, True) if history else look.full, name)
    try:
        again = game.restore(data) if game is not None else st.rules.restore(data)
    except Exception as error:   # noqa: BLE001 - any error is the finding
        _fail(name, f"restore(view()) raises {type(error).__name__}: {error}")
    _same_state(st, again, name, "restore(view())", history)
    original, copy = st.clone(), again
    for step in range(follow):
        moves = original.legal_moves()
        if not moves:
            return
        move = moves[(count(original) * 7 + step) % len(moves)].text
        original.apply(move)
        try:
            copy.apply(move)
        except Exception as error:   # noqa: BLE001 - any error is the finding
            _fail(name, f"after restore(view()), {move!r} raises {type(error).__name__}: {error}")
        _same_state(original, copy, name, f"after restore(view()) and {move!r}", history)


def _same_state(st: State, other: State, name: str, what: str, history: bool = True) -> None:
    full, again = full_view(st, history), full_view(other, history)
    if again != full:
        _fail(name, f"{what} differs from the state: {_diff(full, again)}")
    for seat in range(st.n):
        if other.view(seat) != st.view(seat):
            _fail(name, f"{what} shows seat {seat} another view: {_diff(st.view(seat), other.view(seat))}")
    mine, theirs = [m.text for m in st.legal_moves()], [m.text for m in other.legal_moves()]
    if mine != theirs:
        _fail(name, f"{what} has other legal moves: {_short(theirs)} instead of {_short(mine)}")


def _json_copy(view: dict, name: str) -> dict:
    try:
        copy = json.loads(json.dumps(view))
    except (TypeError, ValueError) as error:
        _fail(name, f"the view is not JSON-ready: {error}")
    if copy != view:
        _fail(name, f"the view changes through JSON: {_diff(view, copy)}")
    return copy


def views_hide_hidden_information(state: State, before: State | None = None, *, seats=None,
                                  rng: random.Random | None = None, game=None) -> None:
    """A seat's view shows no other seat's hidden cards or choices, and stays the same when
    only what it may not see changes (cards swapped among other hands, the undealt cards,
    another choice made in secret)."""
    _views_hide(Look(state, before), seats, rng, game)


def _views_hide(look: Look, seats=None, rng: random.Random | None = None, game=None) -> None:
    st = look.state
    rng = rng or random.Random(st.seed * 31 + count(st))
    for seat in range(st.n) if seats is None else seats:
        _nothing_secret(look, seat)
        changed = hidden_change(look.full, seat, rng)
        if changed is None:
            continue
        data, what = changed
        try:
            other = game.restore(data) if game is not None else st.rules.restore(data)
        except ViewError:
            continue
        mine, theirs = look.seat(seat), other.view(seat)
        if mine != theirs:
            _fail("views_hide_hidden_information",
                  f"seat {seat}'s view changes when {what}, which seat {seat} may not see: "
                  f"{_diff(mine, theirs)}")


def _nothing_secret(look: Look, seat: int) -> None:
    view, full, name = look.seat(seat), look.full, "views_hide_hidden_information"
    for key in SECRET_KEYS:
        if view.get(key) is not None:
            _fail(name, f"seat {seat}'s view shows {key!r}")
    hands = view.get("hands")
    if isinstance(hands, list):
        for other, hand in enumerate(hands):
            if other != seat and hand is not None:
                _fail(name, f"seat {seat}'s view shows seat {other}'s hand: {hand}")
        if seat < len(hands) and hands[seat] != full["hands"][seat]:
            _fail(name, f"seat {seat}'s view shows its own hand as {hands[seat]}, "
                        f"but it is {full['hands'][seat]}")
    choices = view.get("choices")
    if isinstance(choices, list):
        for other, choice in enumerate(choices):
            if other != seat and choice not in (None, "hidden"):
                _fail(name, f"seat {seat}'s view shows seat {other}'s hidden choice: {choice!r}")


def hidden_change(full: dict, seat: int, rng: random.Random):
    """A copy of a full view changed only where `seat` may not look, and what changed; or None."""
    data = json.loads(json.dumps(full))
    changes = [_swap_hidden, _choose_otherwise]
    rng.shuffle(changes)
    for change in changes:
        what = change(data, seat, rng)
        if what:
            return data, what
    return None


def _hidden_pools(data: dict, seat: int) -> list[tuple[str, list, Counter]]:
    """(name, list of cards, pinned cards) for each place whose contents `seat` cannot see."""
    pools = []
    for key in ("hands", "decks", "returning"):
        lists = data.get(key)
        if not isinstance(lists, list):
            continue
        for other, cards in enumerate(lists):
            if other != seat and isinstance(cards, list) and all(isinstance(c, str) for c in cards):
                pools.append((f"{key}[{other}]", cards, _pinned(data, other) if key == "hands" else Counter()))
    if isinstance(data.get("undealt"), list):
        pools.append(("undealt", data["undealt"], Counter()))
    return pools


def _pinned(data: dict, seat: int) -> Counter:
    """Cards of a hand that other fields refer to (a revealed bid card, a secret choice)."""
    pinned = Counter()
    bid_cards = data.get("bid_cards") or []
    if seat < len(bid_cards) and isinstance(bid_cards[seat], str):
        pinned[bid_cards[seat]] += 1
    choices = data.get("choices") or []
    choice = choices[seat] if seat < len(choices) else None
    if isinstance(choice, str):
        pinned[choice] += 1
    elif isinstance(choice, list):
        pinned.update(c for c in choice if isinstance(c, str))
    return pinned


def _free(cards: list, pinned: Counter) -> list[int]:
    """Indices of cards in a pool that no other field refers to."""
    left = Counter(pinned)
    free = []
    for index, card in enumerate(cards):
        if left[card] > 0:
            left[card] -= 1
        else:
            free.append(index)
    return free


def _swap_hidden(data: dict, seat: int, rng: random.Random) -> str | None:
    pools = [(name, cards, _free(cards, pinned)) for name, cards, pinned in _hidden_pools(data, seat)]
    pairs = [(a, b) for a in pools for b in pools if a[0] < b[0] and a[2] and b[2]]
    rng.shuffle(pairs)
    for (name_a, cards_a, free_a), (name_b, cards_b, free_b) in pairs:
        i, j = rng.choice(free_a), rng.choice(free_b)
        if cards_a[i] != cards_b[j]:
            cards_a[i], cards_b[j] = cards_b[j], cards_a[i]
            return f"{cards_b[j]!r} in {name_a} and {cards_a[i]!r} in {name_b} trade places"
    return None


def _choose_otherwise(data: dict, seat: int, rng: random.Random) -> str | None:
    choices, hands = data.get("choices"), data.get("hands")
    if not isinstance(choices, list) or not isinstance(hands, list):
        return None
    others = [s for s, c in enumerate(choices) if s != seat and c is not None and s < len(hands)]
    rng.shuffle(others)
    for other in others:
        choice, hand = choices[other], hands[other]
        if not isinstance(hand, list):
            continue
        held = Counter(hand)
        if isinstance(choice, str) and choice not in held:      # the chosen card left the hand
            options = sorted(c for c in held if c != choice)
            if options:
                new = rng.choice(options)
                hand[hand.index(new)] = choice
                choices[other] = new
                return f"seat {other} secretly chooses {new!r} instead of {choice!r}"
        elif isinstance(choice, str):
            held[choice] -= 1
            options = sorted(c for c in held if held[c] > 0 and c != choice)
            if options:
                choices[other] = rng.choice(options)
                return f"seat {other} secretly chooses {choices[other]!r} instead of {choice!r}"
        elif isinstance(choice, list) and choice:
            held.subtract(choice)
            options = sorted(c for c in held if held[c] > 0)
            if options:
                index = rng.randrange(len(choice))
                old, choice[index] = choice[index], rng.choice(options)
                return f"seat {other} secretly chooses {choice[index]!r} instead of {old!r}"
    return None


def one_trick_winner(state: State, before: State | None = None) -> None:
    """A completed trick has exactly one winner, who played to it: that seat's trick count
    goes up by one, it takes the trick's cards, and no other count moves."""
    _one_trick_winner(Look(state, before))


def _one_trick_winner(look: Look) -> None:
    if not look.one_step():
        return
    before = look.before_full
    if "tricks_won" not in before or "trick" not in before or before["is_terminal"]:
        return
    name, n = "one_trick_winner", look.state.n
    after = full_view(look.trace.before_scoring) if look.round_ended else look.full
    gained = [a - b for a, b in zip(after["tricks_won"], before["tricks_won"])]
    trick = before["trick"]
    playing = n - len(before.get("sitting_out") or ())      # seats left out play no card
    completes = before["phase"] == "play" and len(trick) == playing - 1 and not after["trick"]
    if not completes:
        if any(gained):
            _fail(name, f"{look.last_move!r} completes no trick, but tricks won went from "
                        f"{before['tricks_won']} to {after['tricks_won']}")
        return
    winners = [seat for seat, g in enumerate(gained) if g]
    if len(winners) != 1 or gained[winners[0]] != 1:
        _fail(name, f"the trick {trick + ['...']} completed by {look.last_move!r} changed tricks won "
                    f"from {before['tricks_won']} to {after['tricks_won']}: exactly one seat must gain one")
    _took_the_trick(look, before, after, winners[0])


def _took_the_trick(look: Look, before: dict, after: dict, winner: int) -> None:
    if "taken" not in before or "taken" not in after:
        return
    gained = Counter(after["taken"][winner]) - Counter(before["taken"][winner])
    played = Counter(card for _, card in before["trick"])
    extra = gained - played
    mover = before["current_player"]
    if played - gained or sum(extra.values()) != 1 or \
            not set(extra) <= set(before["hands"][mover] or ()):
        _fail("one_trick_winner", f"seat {winner} won the trick {before['trick']} completed by "
                                  f"{look.last_move!r}, but took {sorted(gained.elements())}")


def scores_change_by_rules(state: State, before: State | None = None) -> None:
    """Scores change only when a round ends, by what the score rule gives each seat, or when
    a repeated bidding awards points."""
    _scores_change_by_rules(Look(state, before))


def _scores_change_by_rules(look: Look) -> None:
    if not look.one_step():
        return
    st, before, name = look.state, look.before, "scores_change_by_rules"
    ends = look.trace.round_ends if look.round_ended else []
    during = ends[0].scores if ends else st.scores
    if during != before.scores and not _awarded(before, st, during):
        _fail(name, f"{look.last_move!r} changed the scores from {before.scores} to {during} "
                    "in the middle of a round")
    if not _scores_by_rule(st.rules):
        return
    score = st.rules.score or (lambda state, seat: 0)
    for index, end in enumerate(ends):
        rule = [int(score(end, seat)) for seat in range(st.n)]
        expected = [s + r for s, r in zip(end.scores, rule)]
        last = index + 1 == len(ends)
        actual = st.scores if last else ends[index + 1].scores
        final = getattr(st.rules, "final_score", None)
        if last and st.is_terminal and final is not None:
            finished = end.clone()
            finished.scores = list(expected)
            expected = [s + int(final(finished, seat)) for seat, s in enumerate(expected)]
        if actual != expected:
            _fail(name, f"round {end.round} ends with scores {end.scores}, and the score rule gives "
                        f"{rule}, so the scores should be {expected}, but they are {actual}")


def _scores_by_rule(rules) -> bool:
    """True when round ends score by the rule set's `score(state, seat)` (the trick mechanism)."""
    from ..compile.game import Ruleset
    return isinstance(rules, Ruleset) and type(rules).end_round is Ruleset.end_round


def _awarded(before: State, after: State, during: list[int]) -> bool:
    """True when the move revealed a repeated bidding whose actions award points."""
    steps = getattr(before.rules, "steps", ())
    step = steps[before.step] if 0 <= before.step < len(steps) else None
    repeat = getattr(step, "repeat", None)
    if not repeat or not getattr(step, "simultaneous", False):
        return False
    undecided = sum(1 for p in before.pending if p is None)
    changed = sum(1 for a, b in zip(during, before.scores) if a != b)
    return undecided == 1 and changed <= len(repeat[1])


def ends_within_bound(state: State, before: State | None = None, *, max_rounds: int | None = None) -> None:
    """The game ends within the rounds its rules imply (`end after N rounds`, else
    `max_rounds`), and no round goes on without end."""
    _ends_within_bound(Look(state, before), max_rounds)


def _ends_within_bound(look: Look, max_rounds: int | None = None) -> None:
    st, name = look.state, "ends_within_bound"
    cap = max_rounds or DEFAULT_MAX_ROUNDS
    if _capped(st):
        _fail(name, f"the game never ends: the engine stopped it at its cap of {st.rules.max_rounds} "
                    f"rounds, with no winner, because its end rule never held (scores {_short(st.scores)})")
    bound = round_bound(st.rules, st.n, cap)
    if st.round > bound and bound < cap:
        _fail(name, f"the game is in round {st.round}, but its rules end it after {bound} rounds")
    if st.round > bound:
        _fail(name, f"the game is in round {st.round} and nothing has ended it: its rules give no "
                    f"bound, and games are expected to end within {cap} rounds (scores {st.scores}; "
                    "a longer game needs max_rounds=, or rulekit check --max-rounds)")
    per_round = decisions_per_round(st.rules, st.n)
    made = count(st)
    if made > st.round * per_round:
        _fail(name, f"{made} decisions in {st.round} round{'s' if st.round > 1 else ''}: round "
                    f"{st.round} never ends (at most {per_round} decisions a round are expected)")


def _capped(st) -> bool:
    capped = getattr(st.rules, "capped", None)
    return bool(capped and capped(st))


class _RoundOnly:
    """A stand-in state that knows only the round and the player count."""
    __slots__ = ("round", "n")


@lru_cache(maxsize=256)
def round_bound(rules, players: int, cap: int = DEFAULT_MAX_ROUNDS) -> int:
    """The first round after which the end rule must hold whatever happened, or `cap`."""
    end = getattr(rules, "end", None)
    if end is None:
        return cap
    probe = _RoundOnly()
    probe.n = players
    for rnd in range(1, cap + 1):
        probe.round = rnd
        try:
            if end(probe, None):
                return rnd
        except Exception:   # noqa: BLE001 - the rule reads more than the round: no bound here
            continue
    return cap


def decisions_per_round(rules, players: int) -> int:
    """A generous bound on the decisions of one round: ten per card in play, per seat."""
    deck = getattr(rules, "deck", None)
    size = getattr(deck, "size", 100)
    return 10 * players * (size + 10)


# ---- all of them ---------------------------------------------------------------------------

#: Every invariant, in the order `check_rules` and the state machine run them.
INVARIANTS = (cards_conserved, one_seat_to_move, legal_moves_until_end, illegal_move_changes_nothing,
              restore_round_trips, views_hide_hidden_information, one_trick_winner,
              scores_change_by_rules, ends_within_bound, replay_is_identical)


def check_all(state: State, before: State | None = None, *, game=None, max_rounds=None,
              replay: bool = True, skip=()) -> None:
    """Every invariant on one state (and the move that led to it, given `before`), for every
    seat and a spread of legal and illegal moves. `skip` names invariants to leave out."""
    look = Look(state, before)
    checks = {
        "cards_conserved": lambda: _cards_conserved(look),
        "one_seat_to_move": lambda: _one_seat_to_move(look),
        "legal_moves_until_end": lambda: _legal_moves_until_end(look, 6),
        "illegal_move_changes_nothing": lambda: _illegal_move_changes_nothing(look, 8),
        "restore_round_trips": lambda: _restore_round_trips(look, game),
        "views_hide_hidden_information": lambda: _views_hide(look, None, None, game),
        "one_trick_winner": lambda: _one_trick_winner(look),
        "scores_change_by_rules": lambda: _scores_change_by_rules(look),
        "ends_within_bound": lambda: _ends_within_bound(look, max_rounds),
        "replay_is_identical": lambda: _replay_is_identical(look, game),
    }
    unknown = set(skip) - set(checks)
    if unknown:
        raise ValueError(f"no invariant {sorted(unknown)[0]!r}; invariants: {', '.join(checks)}")
    for name, check in checks.items():
        if name not in skip and (replay or name != "replay_is_identical"):
            check()


def check_move(state: State, next_move, *, game=None, max_rounds=None) -> None:
    """Every invariant on `state`; then, unless it is over, on the state after `next_move`
    (a move, or a function of the state that picks one) is made in it, judged against the
    state before. The step of a property test over drawn states:
    `check_move(state, lambda s: data.draw(moves(s)), game=game)`."""
    check_all(state, game=game, max_rounds=max_rounds)
    if state.is_terminal:
        return
    before = state.clone()
    state.apply(next_move(state) if callable(next_move) else next_move)
    check_all(state, before, game=game, max_rounds=max_rounds)


# ---- messages ------------------------------------------------------------------------------

def _short(items, limit: int = 8) -> str:
    items = [str(i) for i in items]
    shown = ", ".join(items[:limit])
    return f"[{shown}{', ...' if len(items) > limit else ''}]"


def _diff(expected: dict, actual: dict) -> str:
    """The keys on which two views differ, with both values (shortened)."""
    keys = [k for k in dict.fromkeys([*expected, *actual]) if expected.get(k, "<absent>") != actual.get(k, "<absent>")]
    parts = [f"{k}: {_clip(expected.get(k, '<absent>'))} → {_clip(actual.get(k, '<absent>'))}" for k in keys[:4]]
    return "; ".join(parts) + (f"; and {len(keys) - 4} more keys" if len(keys) > 4 else "")


def _clip(value, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."
