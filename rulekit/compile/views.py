"""States ↔ JSON-ready views: what a seat may see, the full truth, and restoring from it.

Pipeline place: engine → **views** → api. A seat's view shows its own hand and choices,
and of the others only what lies open on the table (sizes, bids once revealed, the trick).
The full view adds everything hidden (every hand, the undealt cards, the seed) so that
`Game.restore(state.view())` gives back an equal state.
"""
from __future__ import annotations

from ..engine.cardsets import cards_of
from . import auction as auctions
from ..engine.history import restored
from ..engine.moves import normalize
from ..engine.seeds import checked_seed
from ..errors import ViewError

__all__ = ["ViewError", "view", "restore"]


def view(rules, st, seat: int | None) -> dict:
    full = seat is None
    texts = rules.deck.texts

    def cards(mask):
        return [texts[c] for c in cards_of(mask)]

    phase = "over" if st.is_terminal else rules.steps[st.step].name
    out = {
        "game": rules.title,
        "variants": list(rules.variants),
        "players": st.n,
        "phase": phase,
        "round": st.round,
        "current_player": st.current_player,
        "scores": list(st.scores),
        "hands": [cards(h) if full or p == seat else None for p, h in enumerate(st.hands)],
        "hand_sizes": [h.bit_count() for h in st.hands],
        "is_terminal": st.is_terminal,
        "winners": list(st.winners),
        "capped": rules.capped(st),
        "dealer": st.dealer,
        "dealt": list(st.dealt),
        "leader": st.leader,
        "bids": list(st.bids),
        "bid_cards": [texts[c] if c is not None else None for c in st.bid_cards],
        "tricks_won": list(st.tricks_won),
        "trick": [[s, texts[c]] for s, c in st.trick],
        "last_trick": [[s, texts[c]] for s, c in st.last_trick]
        if full or rules.taken_face_up or not st.trick else [],
        "trump": rules.deck.suit_names[st.trump] if st.trump >= 0 else None,
        "set_aside": [cards(m) for m in st.aside],
        "choices": [_choice(rules, st, p, full or p == seat) for p in range(st.n)],
        "last_round": _copy_round(st.last_round),
        "teams": _teams(rules, st.n),
    }
    for hook in rules.view_hooks:
        hook(st, seat, out)
    if rules.turns_card:                    # face up on the table: every seat sees it
        turned = st.extra.get("turned")
        out["turned"] = texts[turned] if turned is not None else None
    if rules.decisions:
        auctions.view_keys(rules, st, out)
    if full or rules.taken_face_up:
        out["taken"] = [cards(m) for m in st.taken]
    if full and st.extra.get("position"):   # restored from a position written by hand
        out["position"] = True
    if full:
        out.update({
            "seed": st.seed, "chance": st.chance, "step": st.step,
            "undealt": cards(st.undealt),
            "history": st.history,
        })
    if rules.grid is not None:
        rules.grid.view(st, seat, out)
    return out


def _teams(rules, players: int):
    teams = rules.teams(players) if rules.team_plan is not None else None
    return [list(team) for team in teams] if teams is not None else None


def _copy_round(record):
    return None if record is None else {key: (list(v) if isinstance(v, list) else v) for key, v in record.items()}


def _choice(rules, st, seat: int, visible: bool):
    pending = st.pending[seat]
    if pending is None:
        return None
    if not visible:
        return "hidden"
    return rules.steps[st.step].choice_view(st, pending)


def restore(rules, data: dict):
    """A state equal to the one whose full view `data` is (or a hand-written position).

    Every key is checked first and the built state after (`restore_check`): a view that
    does not describe a state of the game raises ViewError, and nothing else escapes."""
    from ..engine.state import State
    from . import restore_check     # here: only a restore needs its ~40 KB of checks

    try:
        players = restore_check.check_fields(rules, data)
        if rules.grid is not None:
            st = rules.grid.restore(rules, data)
        else:
            st = _restore(rules, data, State, players)
        restore_check.check_state(rules, st, data)
        return st
    except ViewError:
        raise
    except (ArithmeticError, LookupError, TypeError, ValueError, AttributeError, RecursionError) as error:
        raise ViewError(f"this view cannot be restored: {type(error).__name__}: {error}") from None


def _restore(rules, data: dict, State, players: int):
    from . import restore_check
    st = State(rules, players, checked_seed(data.get("seed", 0)))
    pool = _Pool(rules)
    st.hands = [pool.take_all(h) for h in data["hands"]]
    st.trick = [(int(s), pool.take(c)) for s, c in data.get("trick", [])]
    st.lead = st.trick[0][1] if st.trick else -1
    st.aside = [pool.take_all(m) for m in data.get("set_aside", [[]] * players)]
    st.taken = [pool.take_all(m) for m in data.get("taken", [[]] * players)]
    if rules.turns_card:
        turned = data.get("turned")
        st.extra["turned"] = pool.take(turned) if turned is not None else None
    if "undealt" in data:
        st.undealt = pool.take_all(data["undealt"])
    restore_check.cards_placed(rules, data, pool.rest())
    st.undealt |= pool.rest()
    st.last_trick = [(int(s), pool.lookup(c)) for s, c in data.get("last_trick", [])]
    for name in ("dealt", "tricks_won"):
        if name in data:
            setattr(st, name, [int(v) for v in data[name]])
    st.bids = [None if b is None else int(b) for b in data.get("bids", [None] * players)]
    st.bid_cards = [None if c is None else pool.in_mask(st.hands[p] | st.aside[p], c, anywhere=True)
                    for p, c in enumerate(data.get("bid_cards", [None] * players))]
    st.dealer, st.leader = data.get("dealer"), data.get("leader")
    if not restore_check.is_full(data):           # a position may leave out who deals and leads
        if "dealer" not in data:
            st.dealer = 0
        if "leader" not in data and data.get("phase") == "play":
            st.leader = st.trick[0][0] if st.trick else data.get("current_player")
    st.trump = rules.deck.suit_names.index(data["trump"]) if data.get("trump") else rules.fixed_trump
    st.tricks_played = sum(st.tricks_won)
    restore_progress(rules, st, data, default_phase=data["phase"] if "step" not in data else None)
    if rules.decisions:
        auctions.restore_keys(rules, st, data)
    step = rules.steps[st.step] if rules.steps else None
    if hasattr(step, "restore_lead"):           # a trick whose lead is not its first card
        step.restore_lead(st)
    st.pending = [_pending(rules, step, st.hands[p], c) for p, c in enumerate(data.get("choices", [None] * players))]
    st.revealed = any(b is not None for b in st.bids)
    if data.get("teams") is not None and data["teams"] != _teams(rules, players):
        raise ViewError(f"this game's teams for {players} players are {_teams(rules, players)}, "
                        f"not {data['teams']}")
    for hook in rules.restore_hooks:
        hook(st, data)
    return st


def restore_progress(rules, st, data: dict, default_phase: str | None) -> None:
    """What every game's view restores alike: scores, round, seed position, step, turn, history."""
    if "scores" in data:
        st.scores = [int(v) for v in data["scores"]]
    st.round = int(data.get("round", 1))
    st.chance = int(data.get("chance", 0))
    st.last_round = _copy_round(data.get("last_round"))
    st.is_terminal = bool(data.get("is_terminal", False))
    st.winners = list(data.get("winners", []))
    st.current_player = None if st.is_terminal else data.get("current_player")
    if "step" in data:
        st.step = int(data["step"])
    elif st.is_terminal:
        st.step = rules.round_start - 1
    else:
        st.step = rules.phase_index(default_phase)
    st._past, st._history = restored(rules, data.get("history", []))
    if not st.is_terminal and not (isinstance(st.current_player, int) and 0 <= st.current_player < st.n):
        raise ViewError("a game in play needs a current_player (a seat number)")


def _pending(rules, step, hand: int, choice):
    if choice is None:
        return None
    if choice == "hidden":
        raise ViewError("a full view is needed: this one hides a seat's choice")
    if isinstance(choice, int) and not isinstance(choice, bool):
        return choice                      # a number chosen in a hidden number bid
    if step is not None and step.name == "pass":
        mask = 0
        for text in choice:
            mask |= 1 << _Pool(rules).in_mask(hand & ~mask, text)
        return mask
    return _Pool(rules).in_mask(hand, choice)


class _Pool:
    """Hands out card ids for card texts; each id once (copies get distinct ids)."""

    def __init__(self, rules):
        self.deck = rules.deck
        self.free = rules.deck.ids_by_text()
        self.used = 0

    def take(self, text: str) -> int:
        ids = self.free.get(normalize(text))
        if not ids:
            raise ViewError(f"no card {text!r} is left to place: the view has too many or it is unknown")
        card = ids.pop(0)
        self.used |= 1 << card
        return card

    def take_all(self, texts) -> int:
        mask = 0
        for text in texts:
            mask |= 1 << self.take(text)
        return mask

    def rest(self) -> int:
        return self.deck.all_mask & ~self.used

    def lookup(self, text: str) -> int:
        return self.deck.ids_by_text()[normalize(text)][0]

    def in_mask(self, mask: int, text: str, anywhere: bool = False) -> int:
        """The id of a card with this text in `mask` (or, `anywhere`, the first with this text)."""
        ids = self.deck.ids_by_text().get(normalize(text), [])
        for card in ids:
            if mask >> card & 1:
                return card
        if anywhere and ids:
            return ids[0]
        raise ViewError(f"{text!r} is not among that seat's cards")
