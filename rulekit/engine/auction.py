"""Auctions and decisions: the steps of `auction { ... }` and `choose trump, ...`.

Pipeline place: compiler → **engine**, beside `steps.py`. The compiler adds these steps to a
round only when its rule file has the clauses, so games without them never run this code.

What they leave is kept in `state.extra` under keys of their own, as immutable values (the
state's `clone` copies `extra` shallowly):

- `calls`: the auction so far, a tuple of `(seat, call index)`; index -1 is a pass;
- `high`: `(call index, seat)` of the highest call so far, or None;
- `out`: a bitmask of the seats that passed;
- `roles`: `(declarer, contract level, makers)` once a call or a decision has set them,
  `makers` a tuple of seats (the declarer alone, or the declarer's team with teams);
- `void`: True when every seat passed and the round is thrown in (`if all pass -> void`);
- `choice_turns`: how many seats have passed in the current decision in turn;
- `takes`: True while the dealer, having taken the turned card up, must discard;
- `sitting`: a bitmask of the seats that sit the tricks out (a maker playing alone).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .moves import Move
from .steps import Step

if TYPE_CHECKING:
    from .actions import ActionKind


def _kind(labels, public: bool = True):
    """An `ActionKind` (engine/actions.py, imported only by code that numbers actions)."""
    from .actions import ActionKind
    return ActionKind(labels, public=public)


#: What happens when every seat passes.
REDEAL, VOID, FORCED = "redeal", "void", "forced"


def makers_of(st, declarer: int) -> tuple[int, ...]:
    """The declarer's side: its team when the rules form teams for this table, else itself."""
    rules = st.rules
    team = rules.team_of(st.n, declarer)
    return tuple(rules.teams(st.n)[team]) if team is not None else (declarer,)


def set_roles(st, declarer: int, level: int) -> None:
    st.extra["roles"] = (declarer, level, makers_of(st, declarer))


def play_alone(st) -> None:
    """The declarer plays alone: the other makers sit the round's tricks out."""
    declarer, _, makers = st.extra["roles"]
    st.extra["sitting"] = sum(1 << seat for seat in makers if seat != declarer)


def all_passed(st, how: str) -> None:
    """Every seat passed. `redeal`: the round starts over from its first step (a fresh shuffle
    and deal by the same dealer; scores and the round number stay). `void`: the round is
    thrown in, the driver goes straight to the end of the round (scored 0)."""
    if how == REDEAL:
        st.rules.reset_round(st)
        st._step = st.rules.round_start - 1
    else:
        st.extra["void"] = True
        st._step = len(st.rules.steps) - 1


def pass_in_turn(st, turns: int, all_pass: str | None) -> bool:
    """A seat passed in a decision in turn: the next seat decides, or after `turns` passes
    `all_pass` happens (None: the round goes on). Whether the step is over."""
    passed = st.extra["choice_turns"] = st.extra["choice_turns"] + 1
    if passed < turns:
        st.current_player = (st.current_player + 1) % st.n
        return False
    if all_pass is not None:
        all_passed(st, all_pass)
    return True


class ClearRoles(Step):
    """Before a round's auction or decision: no calls, no roles, the round not thrown in."""
    name = "roles"

    def enter(self, st) -> bool:
        extra = st.extra
        extra["calls"], extra["high"], extra["out"] = (), None, 0
        extra["roles"], extra["void"], extra["takes"], extra["sitting"] = None, False, False, 0
        return False


class Auction(Step):
    """`auction { calls ...  from ...  once each | until all but one pass  higher than last }`.

    `calls` lists `(level, suit, text)` from the lowest call to the highest; a call's index
    in it is its rank. A seat passes (`pass`) or makes a call (`bid 3`, `bid nap`,
    `bid 7 hearts`). With `once each` every seat speaks once; with `until all but one pass`
    a seat that passes is out and the auction goes round until one seat is left. A call
    nobody can beat (the highest, with `higher than last`) ends it at once. The winning call
    sets the declarer (and the makers), the contract level, and the trump when it names a suit.
    """
    name = "auction"

    def __init__(self, calls, first, once_each: bool, higher: bool, all_pass: str):
        self.calls = list(calls)
        self.moves = [Move("bid", index, text) for index, (_, _, text) in enumerate(self.calls)]
        self.pass_move = Move("pass", -1, "pass")
        self.first, self.once_each, self.higher = first, once_each, higher
        self.all_pass = all_pass
        self.top = len(self.calls) - 1

    def enter(self, st) -> bool:
        st.current_player = self.first(st)
        return True

    def legal(self, st) -> list[Move]:
        high = st.extra["high"]
        calls = self.moves[high[0] + 1:] if high is not None and self.higher else self.moves
        spoken = len(st.extra["calls"]) if self.once_each else st.extra["out"].bit_count()
        if self.all_pass == FORCED and high is None and spoken == st.n - 1:     # the last to speak
            return list(calls)
        return [self.pass_move, *calls]

    def apply(self, st, move) -> bool:
        extra, seat = st.extra, st.current_player
        extra["calls"] += ((seat, move.arg),)
        if move.arg < 0:
            extra["out"] |= 1 << seat
        elif extra["high"] is None or move.arg > extra["high"][0]:
            extra["high"] = (move.arg, seat)
        if not self._over(st):
            st.current_player = self._next(st, seat)
            return False
        return self._finish(st)

    def _over(self, st) -> bool:
        extra = st.extra
        high, out = extra["high"], extra["out"]
        if high is not None and self.higher and high[0] == self.top:
            return True
        if self.once_each:
            return len(extra["calls"]) >= st.n
        everyone = (1 << st.n) - 1
        return out == everyone or (high is not None and out | 1 << high[1] == everyone)

    def _next(self, st, seat: int) -> int:
        out = 0 if self.once_each else st.extra["out"]
        for offset in range(1, st.n + 1):
            nxt = (seat + offset) % st.n
            if not out >> nxt & 1:
                return nxt
        return seat

    def _finish(self, st) -> bool:
        high = st.extra["high"]
        if high is None:
            all_passed(st, self.all_pass)
            return True
        level, suit, _ = self.calls[high[0]]
        set_roles(st, high[1], level)
        if suit >= 0:
            st.trump = suit
        return True

    def why_illegal(self, st, text: str) -> str | None:
        high = st.extra["high"]
        if high is not None and self.higher:
            return f"a call must beat the highest so far ({self.calls[high[0]][2]}), or pass"
        return None

    def action_kind(self, players: int) -> ActionKind:
        """For the fixed action space: `pass` and every call, open to all."""
        return _kind(["pass", *(m.text for m in self.moves)])

    def call_index(self, text: str) -> int:
        """The index of a call from its text (`pass` is -1), for `restore`."""
        if text == "pass":
            return -1
        for move in self.moves:
            if move.text == text:
                return move.arg
        raise KeyError(text)


class ChooseTrump(Step):
    """`choose trump, by declarer` or `choose trump, in turn from ..., or pass`: a seat names
    the trump suit (`choose hearts`). In turn, each seat may pass (`pass`) until one chooses;
    the seat that chooses becomes the declarer (the makers are its side) unless an auction
    already decided them. `when` limits the decision to rounds whose turned card matches."""
    name = "trump"

    def __init__(self, deck, first, in_turn: bool, may_pass: bool, not_turned: bool,
                 when_turned: int | None, all_pass: str, may_alone: bool = False):
        regular = range(deck.regular_suits)
        self.suit_moves = [Move("choose", s, f"choose {deck.suit_names[s]}") for s in regular]
        self.may_alone = may_alone
        if may_alone:
            self.suit_moves += [Move("choose alone", s, f"choose {deck.suit_names[s]} alone") for s in regular]
        self.pass_move = Move("pass", -1, "pass")
        self.first, self.in_turn, self.may_pass = first, in_turn, may_pass
        self.not_turned, self.when_turned = not_turned, when_turned
        self.all_pass = all_pass

    def action_kind(self, players: int) -> ActionKind:
        """For the fixed action space: every suit, and `pass` when a seat may pass."""
        return _kind((["pass"] if self.may_pass else []) + [m.text for m in self.suit_moves])

    def enter(self, st) -> bool:
        if self.in_turn and st.extra.get("roles") is not None:
            return False                     # an earlier decision in turn made the contract
        if self.when_turned is not None:
            turned = st.extra.get("turned")
            if turned is None or not self.when_turned >> turned & 1:
                return False
        st.extra["choice_turns"] = 0
        st.current_player = self.first(st)
        return True

    def legal(self, st) -> list[Move]:
        moves = self.suit_moves
        if self.not_turned:
            turned = st.extra.get("turned")
            suit = st.rules.deck.suit[turned] if turned is not None else -1
            moves = [m for m in moves if m.arg != suit]
        forced = self.all_pass == FORCED and st.extra["choice_turns"] == self._turns(st) - 1
        if self.may_pass and not forced:
            return [self.pass_move, *moves]
        return list(moves)

    def _turns(self, st) -> int:
        return st.n if self.in_turn else 1

    def apply(self, st, move) -> bool:
        seat = st.current_player
        if move.arg >= 0:
            st.trump = move.arg
            roles = st.extra.get("roles")
            if self.in_turn or roles is None:
                set_roles(st, seat, roles[1] if roles is not None else 0)
            if move.kind == "choose alone":
                play_alone(st)
            return True
        return pass_in_turn(st, self._turns(st), self.all_pass)


class OrderUp(Step):
    """`order up turned card, in turn from ..., dealer takes it`: each seat in turn accepts
    the suit of the turned card as trump (`order up`) or passes (`pass`). No suit is trump
    while they decide. The seat that orders it up is the declarer; with `dealer takes it`
    the dealer takes the turned card into hand and then discards one (`DealerDiscards`).
    When all pass, the round goes on to its `choose trump` in turn, or `all_pass` happens."""
    name = "order"

    def __init__(self, deck, first, takes: bool, all_pass: str | None, may_alone: bool = False):
        self.order_move, self.pass_move = Move("order", 0, "order up"), Move("pass", -1, "pass")
        self.moves = [self.pass_move, self.order_move]
        self.forced = [self.order_move]
        self.may_alone = may_alone
        if may_alone:
            alone = Move("order", 1, "order up alone")
            self.moves.append(alone)
            self.forced.append(alone)
        self.suit = deck.suit
        self.first, self.takes, self.all_pass = first, takes, all_pass

    def action_kind(self, players: int) -> ActionKind:
        return _kind([m.text for m in self.moves])

    def enter(self, st) -> bool:
        if st.extra.get("turned") is None:
            return False
        st.trump = -1
        st.extra["choice_turns"] = 0
        st.current_player = self.first(st)
        return True

    def legal(self, st) -> list[Move]:
        if self.all_pass == FORCED and st.extra["choice_turns"] == st.n - 1:
            return self.forced
        return self.moves

    def apply(self, st, move) -> bool:
        extra, seat = st.extra, st.current_player
        if move.arg >= 0:
            turned = extra["turned"]
            st.trump = self.suit[turned]
            set_roles(st, seat, 0)
            if move.arg == 1:
                play_alone(st)
            if self.takes and not extra["sitting"] >> st.dealer & 1:
                st.hands[st.dealer] |= 1 << turned
                extra["turned"], extra["takes"] = None, True
            return True
        return pass_in_turn(st, st.n, self.all_pass)


class DealerDiscards(Step):
    """After `dealer takes it`: the dealer discards one card face down (`discard hearts 9`);
    it lies with the undealt cards, out of play. Hidden from the other seats."""
    name = "discard"

    def __init__(self, table):
        self.table = table                    # a MoveTable with the verb `discard`

    def action_kind(self, players: int) -> ActionKind:
        return _kind([m.text for m in self.table.moves], public=False)

    def enter(self, st) -> bool:
        if not st.extra.get("takes"):
            return False
        st.current_player = st.dealer
        return True

    def legal(self, st) -> list[Move]:
        return self.table.for_mask(st.hands[st.current_player])

    legal_moves = legal

    def accepts(self, st, move) -> bool:
        return self.table.allows(st.hands[st.current_player], move)

    def apply(self, st, move) -> bool:
        seat = st.current_player
        hand = st.hands[seat]
        held = hand & self.table.face_masks[move.arg]
        card = held & -held
        st.hands[seat] = hand ^ card
        st.undealt |= card
        st.extra["takes"] = False
        return True
