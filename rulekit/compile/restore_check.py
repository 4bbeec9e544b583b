"""Is a view a state of the game? The checks `Game.restore` runs before and after building.

Pipeline place: api → compile (`views.restore`, `grid_views.restore`) → **restore_check**.
Views come from strangers (a client's saved game, a hand-written position), so nothing in
one is trusted: `check_fields` validates every key's type, range and length before a state
is built (a bool is no number, `"0"` is no seat, every per-seat list has one entry per seat,
numbers are bounded, the move list no longer than the game could have made it); the builder
then places every card once (`views._Pool`, `grid_views._Cards`); and `check_state` checks
the built state against the step it is in: who is to move, which bids and choices are made,
the trick, the trump, what the game's end left.

Two kinds of view are told apart, and each is checked for what it claims:

- a *position* (written by hand without a `step` key, or the full view of a state restored
  from one, which says `"position": true`) is checked for everything the engine relies on —
  types, seats, cards, the phase, the bids the phase needs, a trick played seat after seat,
  the same view back for a full view — and otherwise taken as written: cards it does not
  place are undealt, and its hands need not match the tricks still to play (so it may stop
  with no legal move when they run out);
- the *full view of a game* (`state.view()` of a dealt game: a `step`, no `position`) claims
  to have been reached by play, and must be: every key of a full view (`history` may be left
  out, and `undealt`: the cards it places nowhere else), every card of the deck in exactly
  one place, hands that match the deal and the
  tricks played, taken cards that match the tricks won, the last trick's winner leading, the
  dealers, trump, last round and winners as play leaves them, the same view back from the
  state built, a legal move for the seat to move, and a round that plays on into the next.

Every refusal is a `ViewError`; nothing else escapes.
"""
from __future__ import annotations

import random

from ..engine import grid_steps as gsteps
from ..engine import steps as tsteps
from ..engine import trick_rules
from ..engine.bidding import MAX_BID
from ..engine.cardsets import cards_of
from ..engine.seeds import checked_seed
from ..errors import RulekitError, ViewError, shown

#: Scores, bids and counts in a view stay within what JSON readers keep exact.
MAX_NUMBER = 2**53
#: Longest card or move text a view may hold.
MAX_TEXT = 200
#: Coordinates of a display entry (the board's own size bounds the display further).
MAX_COORD = 1000


# ---- small validators ------------------------------------------------------------------------

def _int(value, what: str, low: int = -MAX_NUMBER, high: int = MAX_NUMBER) -> int:
    if value.__class__ is not int:
        raise ViewError(f"{what} must be a whole number, not {shown(value)}")
    if not low <= value <= high:
        raise ViewError(f"{what} must be {low}..{high}, not {shown(value)}")
    return value


def _seat(value, n: int, what: str, none: bool = False):
    if value is None and none:
        return None
    if value.__class__ is not int or not 0 <= value < n:
        raise ViewError(f"{what} must be a seat 0..{n - 1}{' or null' if none else ''}, not {shown(value)}")
    return value


def _list(value, what: str, length: int | None = None, most: int | None = None) -> list:
    if value.__class__ not in (list, tuple):
        raise ViewError(f"{what} must be a list, not {shown(value)}")
    if length is not None and len(value) != length:
        raise ViewError(f"{what} must have one entry per seat ({length}), not {len(value)}")
    if most is not None and len(value) > most:
        raise ViewError(f"{what} has {len(value)} entries, more than the {most} this game can have")
    return value


def _text(value, what: str, none: bool = False):
    if value is None and none:
        return None
    if value.__class__ is not str or len(value) > MAX_TEXT:
        raise ViewError(f"{what} must be a card's text, not {shown(value)}")
    return value


def _texts(value, what: str, most: int) -> list:
    for index, text in enumerate(_list(value, what, most=most)):
        _text(text, f"{what}[{index}]")
    return value


def _bool(value, what: str) -> bool:
    if value.__class__ is not bool:
        raise ViewError(f"{what} must be true or false, not {shown(value)}")
    return value


# ---- before building: every key on its own ----------------------------------------------------

def players_of(data, allowed: range) -> int:
    """The player count of a view (its `players`, or the number of hands), checked."""
    if not isinstance(data, dict):
        raise ViewError(f"a view is a dict (state.view()), not {shown(data)}")
    players = data.get("players")
    if players is None:
        hands = data.get("hands")
        if hands.__class__ not in (list, tuple):
            raise ViewError("a view needs its `players` or its `hands`")
        players = len(hands)
    if players.__class__ is not int or players not in allowed:
        raise ViewError(f"{shown(players)} players cannot play this game "
                        f"({allowed[0]}..{allowed[-1]})" if allowed else "this game has no player count")
    return players


def is_full(data: dict) -> bool:
    """A full view (as `state.view()` makes it) has a `step`; a hand-written position has not."""
    return "step" in data


def is_played(data: dict) -> bool:
    """A full view of a game in play (not of a position: no `"position": true`) claims to
    have been reached by play: it is checked for that too (hand sizes, every card placed,
    the tricks taken, the dealers so far, a round that plays on)."""
    return is_full(data) and data.get("position") is not True


def check_fields(rules, data: dict) -> int:
    """Check every key a view may have, before anything is built; returns the player count."""
    n = players_of(data, rules.players)
    size = rules.deck.size
    if "game" in data and data["game"] != rules.title:
        raise ViewError(f"this is a view of {shown(data['game'])}, not of {rules.title}")
    if "variants" in data:
        variants = _list(data["variants"], "variants", most=64)
        if is_full(data) and sorted(map(str, variants)) != sorted(rules.variants):
            raise ViewError(f"this view is of the variants {shown(list(variants))}, but the game is "
                            f"loaded with {shown(list(rules.variants))}")
    if "phase" in data:
        names = {step.name for step in rules.steps} | {"over"}
        if data["phase"].__class__ is not str or data["phase"] not in names:
            raise ViewError(f"phase must be one of {', '.join(sorted(names))}, not {shown(data['phase'])}")
    cap = getattr(rules, "max_rounds", None) or _max_rounds()
    rounds = _int(data.get("round", 1), "round", 1, cap)
    terminal = _bool(data.get("is_terminal", False), "is_terminal")
    _seat(data.get("current_player"), n, "current_player", none=True)
    if not terminal and data.get("current_player") is None:
        raise ViewError("a game in play needs a current_player (a seat number)")
    if terminal and data.get("current_player") is not None:
        raise ViewError("a game that is over has no current_player")
    for key in ("scores", "dealt", "tricks_won", "hand_sizes"):
        if key in data:
            for seat, value in enumerate(_list(data[key], key, n)):
                _int(value, f"{key}[{seat}]", 0 if key != "scores" else -MAX_NUMBER,
                     MAX_NUMBER if key == "scores" else (rounds if key == "dealt" else size))
    if "hands" not in data:
        raise ViewError("a view needs the `hands`")
    for seat, hand in enumerate(_list(data["hands"], "hands", n)):
        if hand is None:
            raise ViewError("a seat's view hides the other hands: restore needs the full view, state.view()")
        _texts(hand, f"hands[{seat}]", size)
    for key in ("set_aside", "taken", "removed", "decks"):
        if key in data:
            for seat, cards in enumerate(_list(data[key], key, n)):
                _texts(cards, f"{key}[{seat}]", size)
    if "undealt" in data:
        _texts(data["undealt"], "undealt", size)
    winners = _list(data.get("winners", []), "winners", most=n)
    for index, seat in enumerate(winners):
        _seat(seat, n, f"winners[{index}]")
    if list(winners) != sorted(set(winners)):
        raise ViewError(f"winners must be seats in order, each once, not {shown(list(winners))}")
    if terminal != bool(winners) and not (terminal and rounds >= cap):     # stopped by the round cap
        raise ViewError("a game that is over has winners, and a game in play has none"
                        if terminal else "a game in play has no winners yet")
    for key in ("dealer", "leader"):
        _seat(data.get(key), n, key, none=True)
    for seat, bid in enumerate(_list(data.get("bids", [None] * n), "bids", n)):
        if bid is not None:
            _int(bid, f"bids[{seat}]")
    for key in ("bid_cards", "revealed"):
        for seat, card in enumerate(_list(data.get(key, [None] * n), key, n)):
            _text(card, f"{key}[{seat}]", none=True)
    sitting = data.get("sitting_out")                  # seats left out play no card
    playing = n - len(sitting) if isinstance(sitting, list) and len(sitting) < n else n
    for key in ("trick", "last_trick"):
        _check_trick(data.get(key, []), key, n, playing)
    if data.get("trump") is not None and data["trump"] not in rules.deck.suit_names:
        raise ViewError(f"trump must be one of {', '.join(rules.deck.suit_names)} or null, not {shown(data['trump'])}")
    _text(data.get("turned"), "turned", none=True)
    for seat, choice in enumerate(_list(data.get("choices", [None] * n), "choices", n)):
        _check_choice(choice, f"choices[{seat}]", size)
    _check_last_round(data.get("last_round"), n, rounds)
    if "position" in data:
        _bool(data["position"], "position")
    if data.get("teams") is not None:
        for index, team in enumerate(_list(data["teams"], "teams", most=n)):
            for seat in _list(team, f"teams[{index}]", most=n):
                _seat(seat, n, f"teams[{index}] seat")
    if "seed" in data:
        if data["seed"] is None:
            raise ViewError("a seed is an int, not null")
        try:
            checked_seed(data["seed"])
        except TypeError as error:
            raise ViewError(str(error)) from None
    history = _list(data.get("history", []), "history", most=rounds * moves_per_round(rules, n))
    for index, text in enumerate(history):
        if text.__class__ is not str or len(text) > MAX_TEXT:
            raise ViewError(f"history[{index}] must be a move's text, not {shown(text)}")
    _int(data.get("chance", 0), "chance", 0, chance_bound(rules, rounds, len(history)))
    if "step" in data:
        low = rules.round_start - 1 if terminal else 0
        _int(data["step"], "step", low, low if terminal else len(rules.steps) - 1)
    if rules.grid is not None:
        _check_grid_fields(rules, data, n)
    return n


def _max_rounds() -> int:
    from .game import MAX_ROUNDS
    return MAX_ROUNDS


def moves_per_round(rules, n: int) -> int:
    """A bound on the decisions of one round: every step that decides may take each seat
    once per card of the deck (and twice for a placed card's move), and no fewer than n."""
    size = rules.deck.size
    return max(1, len(rules.steps)) * 2 * n * (size + 1)


def chance_bound(rules, rounds: int, moves: int) -> int:
    """A bound on the chance events so far: each step may draw once per round, and a decision
    may start a fresh deal (a repeated bidding); `moves` is the length of the history."""
    return (len(rules.steps) + 2) * (rounds + 1) + moves + 2


def _check_trick(trick, what: str, n: int, playing: int) -> None:
    _list(trick, what, most=playing)
    seats = []
    for index, entry in enumerate(trick):
        if entry.__class__ not in (list, tuple) or len(entry) != 2:
            raise ViewError(f"{what}[{index}] must be [seat, card], not {shown(entry)}")
        seats.append(_seat(entry[0], n, f"{what}[{index}] seat"))
        _text(entry[1], f"{what}[{index}] card")
    if trick and len(trick) < playing and what == "last_trick":
        raise ViewError(f"last_trick must be empty or a whole trick of {playing} cards")
    if len(set(seats)) != len(seats):
        raise ViewError(f"{what} has two cards of one seat: {shown([list(e) for e in trick])}")


def _check_choice(choice, what: str, size: int) -> None:
    if choice is None or choice.__class__ is str:
        if choice == "hidden":
            raise ViewError("a full view is needed: this one hides a seat's choice")
        return _text(choice, what, none=True)
    if choice.__class__ is int:
        return _int(choice, what)
    _texts(choice, what, size)


_ROUND_KEYS = ("round", "bids", "tricks_won", "points", "scores")


def _check_last_round(record, n: int, rounds: int) -> None:
    if record is None:
        return
    if not isinstance(record, dict) or sorted(record) != sorted(_ROUND_KEYS):
        raise ViewError(f"last_round must be null or a dict of {', '.join(_ROUND_KEYS)}")
    _int(record["round"], "last_round.round", 1, rounds)
    for key in _ROUND_KEYS[1:]:
        for seat, value in enumerate(_list(record[key], f"last_round.{key}", n)):
            if value is not None or key != "bids":
                _int(value, f"last_round.{key}[{seat}]")


def _check_grid_fields(rules, data: dict, n: int) -> None:
    grid = rules.grid
    if "colours" in data and list(_list(data["colours"], "colours")) != grid.colours:
        raise ViewError(f"colours must be {', '.join(grid.colours)}")
    display = _list(data.get("display", []), "display", most=rules.deck.size)
    for index, entry in enumerate(display):
        what = f"display[{index}]"
        if not isinstance(entry, dict) or not {"row", "col", "card", "owner"} <= set(entry):
            raise ViewError(f"{what} must be a dict with row, col, card and owner")
        _int(entry["row"], f"{what}.row", -MAX_COORD, MAX_COORD)
        _int(entry["col"], f"{what}.col", -MAX_COORD, MAX_COORD)
        _text(entry["card"], f"{what}.card")
        owner = entry["owner"]
        if not (owner.__class__ is str and owner in grid.colours):
            _seat(owner, n, f"{what}.owner")
        if "points" in entry:
            _int(entry["points"], f"{what}.points")
    if data.get("returning") is not None:
        for seat, cards in enumerate(_list(data["returning"], "returning", n)):
            if cards is not None:
                _texts(cards, f"returning[{seat}]", rules.deck.size)
    for key in ("deck_sizes",):
        if key in data:
            for seat, value in enumerate(_list(data[key], key, n)):
                _int(value, f"{key}[{seat}]", 0, rules.deck.size)
    _seat(data.get("tiebreaker", 0), n, "tiebreaker")
    _seat(data.get("tiebreaker_passer"), n, "tiebreaker_passer", none=True)
    queue = _list(data.get("to_place", []), "to_place", most=n)
    for index, seat in enumerate(queue):
        _seat(seat, n, f"to_place[{index}]")
    if len(set(queue)) != len(queue):
        raise ViewError(f"to_place names a seat twice: {shown(list(queue))}")
    effect = data.get("pending_effect")
    if effect is not None:
        if not isinstance(effect, dict) or "seat" not in effect or "card" not in effect:
            raise ViewError("pending_effect must be null or a dict with seat and card")
        _seat(effect["seat"], n, "pending_effect.seat")
        _text(effect["card"], "pending_effect.card")
        if effect.get("effect", "move") != "move":
            raise ViewError(f"pending_effect.effect must be \"move\", not {shown(effect.get('effect'))}")


# ---- after building: the state against its step ---------------------------------------------

def check_state(rules, st, data: dict) -> None:
    """Check a built state against the step it is in (and, for a full view, everything)."""
    full, played = is_full(data), is_played(data)
    if not played:
        st.extra["position"] = True             # its views say so, and restore them as positions
    if not st.is_terminal:
        step = rules.steps[st.step]
        if _kind(step) in _NO_DECISION or (isinstance(step, gsteps.DrawCards) and step.keep is None):
            raise ViewError(f"no seat decides in the {step.name} step: a view is taken at a decision")
    if rules.grid is not None:
        _grid_state(rules, st, played)
    else:
        _trick_state(rules, st, data, full, played)
    if st.is_terminal:
        expected = [] if not st.winners and rules.capped(st) else rules.winners_of(st)
        if st.winners != expected:
            raise ViewError(f"winners must be {expected}, as the game's winner rule gives, not {st.winners}")
    elif played and not st.legal_moves():
        raise ViewError(f"seat {st.current_player} has no legal move in this view")
    if full:
        _same_view(st, data, played)
    if played:
        _plays_on(st)


def _kind(step) -> type:
    """The engine class of a step (the one the generator's subclass was made from)."""
    return getattr(type(step), "generated_from", type(step))


_NO_DECISION = (tsteps.Deal, tsteps.DealTurn, tsteps.TrumpFromBid, gsteps.ShuffleDecks,
                gsteps.GiveTiebreaker, gsteps.RevealCards)


def _index(rules, kinds) -> int | None:
    return next((i for i, step in enumerate(rules.steps) if isinstance(step, kinds)), None)


#: The trick-game steps whose states `_trick_state` knows (subclasses included). A rule set
#: with another step (table play, say) gets the checks of every game and the full view's.
_KNOWN_TRICK_STEPS = (tsteps.Deal, tsteps.Pass, tsteps.BidNumber, tsteps.BidCard, tsteps.TrumpFromBid,
                      tsteps.Tricks)


def _trick_state(rules, st, data: dict, full: bool, played: bool) -> None:
    n, steps = st.n, rules.steps
    at = len(steps) if st.is_terminal else st.step          # past every step once over
    if st.dealer is None:
        raise ViewError("a trick game needs its dealer (a seat number)")
    step = steps[at] if at < len(steps) else None
    if (step is None or not step.simultaneous) and any(p is not None for p in st.pending):
        raise ViewError("no seat chooses in secret now: choices must be null")
    if not all(isinstance(step, _KNOWN_TRICK_STEPS) for step in steps):
        return
    deal_i = _index(rules, tsteps.Deal)
    dealt = steps[deal_i].counts[(st.round - 1) % len(steps[deal_i].counts)] if deal_i is not None else 0
    bid_i = _index(rules, (tsteps.BidNumber, tsteps.BidCard))
    _bids(rules, st, at, bid_i, played)
    _choices(rules, st, at, played)
    tricks_i = _index(rules, tsteps.Tricks)
    _tricks(rules, st, at, tricks_i, dealt, played)
    if not (bid_i is not None and isinstance(steps[bid_i], tsteps.BidCard) and steps[bid_i].repeat) and any(st.aside):
        raise ViewError("no card is set aside in this game")
    if played:
        _hand_sizes(rules, st, at, bid_i, tricks_i, dealt)
        _trump(rules, st, at)
        _dealers(rules, st)
        _last_round(rules, st, bid_i)


def _bids(rules, st, at: int, bid_i: int | None, full_check: bool) -> None:
    n = st.n
    if bid_i is None:
        if any(b is not None for b in st.bids) or any(c is not None for c in st.bid_cards):
            raise ViewError("this game has no bidding: bids and bid_cards must be null")
        return
    step = rules.steps[bid_i]
    by_card = isinstance(step, tsteps.BidCard)
    if by_card:
        low, high = 0, max(rules.deck.attribute(c, step.value_attr) for c in range(rules.deck.size))
    else:
        values = [m.arg for m in step.moves + list(getattr(step, "named", ()))]
        low, high = min(values), max(values)
        if getattr(step, "limit", None) is not None:        # a range read from the state
            high = max(high, MAX_BID)
    for seat, bid in enumerate(st.bids):
        if bid is not None and not low <= bid <= high:
            raise ViewError(f"bids[{seat}] must be {low}..{high}, not {bid}")
    made = [b is not None for b in st.bids]
    if at < bid_i or (at == bid_i and (by_card or step.simultaneous)):
        if any(made) or any(c is not None for c in st.bid_cards):
            raise ViewError("no bid is open before the bidding is over: bids must be null")
    elif at > bid_i:
        if not all(made):
            raise ViewError("the bidding is over: every seat's bid must be a number")
        if full_check and by_card:
            if not all(c is not None for c in st.bid_cards):
                raise ViewError("the bidding is over: every seat's bid card must be named")
            values = [rules.deck.attribute(c, step.value_attr) for c in st.bid_cards]
            if values != st.bids:
                raise ViewError(f"the bids must be the values of the bid cards, {values}, not {st.bids}")
    else:                                       # an open bid in turn: the seats before the bidder
        cp = st.current_player
        count = sum(made)
        run = [(cp - k) % n for k in range(1, count + 1)]
        if made[cp] or any(not made[seat] for seat in run):
            raise ViewError(f"seat {cp} bids now, so the seats that have bid are those just before it")
        if full_check:
            first = step.first(st)
            order = [(first + i) % n for i in range(n)]
            expected = [order.index(seat) < order.index(cp) for seat in range(n)]
            if made != expected:
                raise ViewError(f"seat {cp} bids now, so exactly seats "
                                f"{[s for s in order if expected[s]]} have bid")
    if not by_card and any(c is not None for c in st.bid_cards):
        raise ViewError("this game bids numbers: bid_cards must be null")


def _choices(rules, st, at: int, full: bool) -> None:
    """Hidden choices are made only in a simultaneous step, by the seats before the chooser."""
    n, steps = st.n, rules.steps
    step = steps[at] if at < len(steps) else None
    chosen = [p is not None for p in st.pending]
    if step is None or not step.simultaneous:
        if any(chosen):
            raise ViewError("no seat chooses in secret now: choices must be null")
        return
    if isinstance(step, tsteps.Pass):
        count, offset = step._today(st)
        if count == 0 or offset % n == 0:
            raise ViewError(f"no cards are passed in round {st.round}")
        for seat, mask in enumerate(st.pending):
            if mask is not None and mask.bit_count() != count:
                raise ViewError(f"choices[{seat}] must pass {count} card{'s' if count != 1 else ''}")
    elif isinstance(step, tsteps.BidNumber):
        low, high = step.moves[0].arg, step.moves[-1].arg
        for seat, bid in enumerate(st.pending):
            if bid is not None and (bid.__class__ is not int or not low <= bid <= high):
                raise ViewError(f"choices[{seat}] must be a bid {low}..{high}")
    elif isinstance(step, tsteps.BidCard):
        for seat, card in enumerate(st.pending):
            if card is not None and card.__class__ is not int:
                raise ViewError(f"choices[{seat}] must be a card of that seat's hand")
    if st.pending[st.current_player] is not None:
        raise ViewError(f"seat {st.current_player} is to choose but has chosen already")
    if full:
        first = step.first(st) if isinstance(step, tsteps.BidNumber) else 0
        order = [(first + i) % n for i in range(n)]
        expected = [order.index(seat) < order.index(st.current_player) for seat in range(n)]
        if chosen != expected:
            raise ViewError(f"seat {st.current_player} chooses now, so exactly seats "
                            f"{[s for s in order if expected[s]]} have chosen")


def _tricks(rules, st, at: int, tricks_i: int | None, dealt: int, full: bool) -> None:
    """`full`: the checks of a played view (the first leader, the last trick, taken cards)."""
    n = st.n
    played = sum(st.tricks_won)
    if tricks_i is None or at < tricks_i:
        if played or st.trick or st.last_trick or any(st.taken):
            raise ViewError("no trick is played before the play: trick, last_trick, tricks_won and "
                            "taken must be empty")
        if full and st.leader is not None:
            raise ViewError("no one leads before the play: leader must be null")
        return
    step = rules.steps[tricks_i]
    count = step.count if step.count is not None else dealt
    if at == tricks_i:
        if played >= count:
            raise ViewError(f"{played} tricks are played, but the round has only {count}")
        if st.leader is None:
            raise ViewError("a trick in play needs its leader (a seat number)")
        if st.trick and st.trick[0][0] != st.leader:
            raise ViewError(f"the trick is led by seat {st.trick[0][0]}, but leader is {st.leader}")
        for index, (seat, _) in enumerate(st.trick):
            if seat != _seat_after(st, st.leader, index):
                raise ViewError(f"the trick must be played seat after seat, clockwise: {[s for s, _ in st.trick]}")
        nxt = _seat_after(st, st.leader, len(st.trick))
        if st.current_player != nxt:
            raise ViewError(f"seat {nxt} plays next to this trick, not seat {st.current_player}")
    elif played != count or st.trick:
        raise ViewError(f"the round is over, so its {count} tricks are played and none is open")
    if not full:
        return
    first = _seat_after(st, step.first(st), 0)
    if played == 0 and at == tricks_i and st.leader != first:
        raise ViewError(f"seat {first} leads the first trick, not seat {st.leader}")
    if bool(played) != bool(st.last_trick):
        raise ViewError("last_trick is the last whole trick played: empty before the first")
    playing = n - st.extra.get("sitting", 0).bit_count()
    for seat in range(n):
        if st.taken[seat].bit_count() != playing * st.tricks_won[seat]:
            raise ViewError(f"seat {seat} won {st.tricks_won[seat]} tricks, so it took "
                            f"{playing * st.tricks_won[seat]} cards, not {st.taken[seat].bit_count()}")
    if st.last_trick:
        winner = _winner_of(rules, step, st)
        texts = rules.deck.texts
        pile = sorted(texts[c] for c in cards_of(st.taken[winner]))
        for _, card in st.last_trick:
            if texts[card] not in pile:
                raise ViewError(f"seat {winner} won the last trick, so {texts[card]} is among the cards it took")
            pile.remove(texts[card])
        leader = _seat_after(st, winner if step.then is None else step.then(st), 0)
        if at == tricks_i and leader != st.leader:
            raise ViewError(f"seat {winner} won the last trick, so seat {leader} leads, not {st.leader}")


def _seat_after(st, seat: int, count: int) -> int:
    """The seat `count` playing seats after `seat` (0: `seat` itself, or the next that plays);
    seats that sit out (a partner of a seat playing alone) are passed over."""
    sitting, n = st.extra.get("sitting", 0), st.n
    while sitting >> seat & 1:
        seat = (seat + 1) % n
    for _ in range(count):
        seat = (seat + 1) % n
        while sitting >> seat & 1:
            seat = (seat + 1) % n
    return seat


def _winner_of(rules, step, st) -> int:
    """The winner of `st.last_trick`, its copies of a card told apart as in play."""
    texts, ids = rules.deck.texts, rules.deck.ids_by_text()
    mask, trick = 0, []
    for seat, card in st.last_trick:
        card = next((c for c in ids[texts[card]] if not mask >> c & 1), None)
        if card is None:
            text = texts[st.last_trick[len(trick)][1]]
            raise ViewError(f"last_trick holds {text} more often than the deck has it")
        mask |= 1 << card
        trick.append((seat, card))
    sets = getattr(step, "sets_lead", None)
    lead = trick_rules.lead_of(trick, sets[st.trump + 1]) if sets is not None else trick[0][1]
    return step.winner(trick, mask, lead, st.trump)


def _hand_sizes(rules, st, at: int, bid_i, tricks_i, dealt: int) -> None:
    n = st.n
    played = sum(st.tricks_won)
    in_trick = {seat for seat, _ in st.trick}
    for seat in range(n):
        expected = dealt
        if tricks_i is not None and at >= tricks_i:
            expected -= played + (seat in in_trick)
        else:
            expected -= st.aside[seat].bit_count()
        size = st.hands[seat].bit_count()
        if size != expected:
            raise ViewError(f"hands[{seat}] holds {size} cards, but after the deal of {dealt} and "
                            f"{played} tricks it must hold {expected}")
    asides = {m.bit_count() for m in st.aside}
    if len(asides) > 1 or (asides != {0} and (bid_i is None or at != bid_i)):
        raise ViewError("set-aside cards come back after the bidding, one a seat per bidding")


def _trump(rules, st, at: int) -> None:
    deck = rules.deck
    trump_i = _index(rules, tsteps.TrumpFromBid)
    if trump_i is not None and at > trump_i:
        bidder = rules.steps[trump_i].highest_bidder(st)
        expected = deck.suit[st.bid_cards[bidder]]
    elif _kind(next((s for s in rules.steps if isinstance(s, tsteps.Deal)), None)) not in (
            tsteps.Deal, tsteps.DealTurn, type(None)):
        return                                  # a trump shown otherwise: its own view key says
    elif rules.turns_card:
        turned = st.extra.get("turned")
        suit = deck.suit[turned] if turned is not None else -1
        expected = suit if 0 <= suit < deck.regular_suits else -1
    else:
        expected = rules.fixed_trump
    if st.trump != expected:
        name = deck.suit_names[expected] if expected >= 0 else None
        raise ViewError(f"trump must be {shown(name)} here, not {shown(deck.suit_names[st.trump] if st.trump >= 0 else None)}")


def _dealers(rules, st) -> None:
    """`dealt` counts the rounds each seat dealt: the rounds before this one (and this one,
    once the game is over), going back from the dealer as the dealer rule passes it on."""
    n = st.n
    rounds = st.round - 1 + st.is_terminal
    if rules.dealer_then == "next":
        first_back = 0 if st.is_terminal else 1      # the dealer of a finished game dealt its last round
        expected = []
        for seat in range(n):
            lag = (st.dealer - first_back - seat) % n     # rounds back to that seat's last deal
            expected.append(0 if lag >= rounds else (rounds - 1 - lag) // n + 1)
    else:
        expected = [rounds if seat == st.dealer else 0 for seat in range(n)]
    if st.dealt != expected:
        raise ViewError(f"with dealer {st.dealer} in round {st.round}, dealt must be {expected}, not {st.dealt}")


def _last_round(rules, st, bid_i) -> None:
    """`last_round` records the round before this one (this one once over): null in round 1;
    its scores are today's, unless points came since (a repeated bidding, the end's points)."""
    record = st.last_round
    finished = st.round - 1 + st.is_terminal
    if (record is None) != (finished == 0) or (record is not None and record["round"] != finished):
        raise ViewError(f"last_round must be {'null' if finished == 0 else f'the record of round {finished}'}")
    if record is None:
        return
    awards = bid_i is not None and getattr(rules.steps[bid_i], "repeat", None)
    if not awards and not (st.is_terminal and rules.final_score is not None) and record["scores"] != st.scores:
        raise ViewError(f"last_round.scores must be the scores {st.scores}: no points are won in a round")
    if st.is_terminal and (record["bids"] != st.bids or record["tricks_won"] != st.tricks_won):
        raise ViewError("the game is over: last_round records its last round's bids and tricks_won")


def _grid_state(rules, st, full: bool) -> None:
    gs, n, steps = st.extra["grid"], st.n, rules.steps
    if st.dealer is not None or any(st.dealt) or st.leader is not None:
        raise ViewError("a grid game has no dealer or leader: dealer and leader are null, dealt zeros")
    if any(b is not None for b in st.bids) or any(c is not None for c in st.bid_cards) or \
            any(st.tricks_won) or st.trick or st.last_trick or any(st.taken) or any(st.aside):
        raise ViewError("a grid game has no bids or tricks: those keys are empty")
    if st.is_terminal:
        step = None
    else:
        step = steps[st.step]
    choosing = isinstance(step, gsteps.ChooseCard)
    placing = isinstance(step, gsteps.PlaceCards)
    if not choosing and any(p is not None for p in st.pending):
        raise ViewError("no seat chooses now: choices must be null")
    if choosing and st.pending[st.current_player] is not None:
        raise ViewError(f"seat {st.current_player} is to choose but has chosen already")
    if not placing:
        if gs.effect is not None or gs.queue or (full and gs.passer is not None):
            raise ViewError("no card is being placed: to_place, pending_effect and the token's passer are empty")
        if full and any(c is not None for c in gs.revealed):
            raise ViewError("revealed cards are placed in the same round: revealed must be null")
        if full and choosing:
            _chosen_before(st)
        return
    for seat in gs.queue[1 if gs.effect is not None else 0:]:      # (the first has placed, with an effect)
        if gs.revealed[seat] is None:
            raise ViewError(f"seat {seat} is to place, but has no revealed card")
    if not gs.queue or gs.queue[0] != st.current_player:
        raise ViewError(f"the seat to place first (to_place) must be the current player {st.current_player}")
    if gs.effect is not None:
        seat, card, _ = gs.effect
        if seat != st.current_player or rules.grid.config.movers[card] is None:
            raise ViewError("pending_effect must be the current player's card that moves another")
        if gs.revealed[seat] is not None:
            raise ViewError(f"seat {seat} has placed its card: its revealed card is null")
    elif gs.revealed[st.current_player] is None:
        raise ViewError(f"seat {st.current_player} is to place, but has no revealed card")
    if full:
        waiting = {s for s, c in enumerate(gs.revealed) if c is not None}
        if waiting - set(gs.queue):
            raise ViewError(f"every seat with a revealed card is to place: to_place must name {sorted(waiting)}")


def _chosen_before(st) -> None:
    """In a simultaneous choice the seats before the chooser have chosen, unless their hand is empty."""
    for seat in range(st.current_player):
        if st.pending[seat] is None and st.hands[seat]:
            raise ViewError(f"seat {st.current_player} chooses now, so seat {seat} has chosen")
    for seat in range(st.current_player + 1, st.n):
        if st.pending[seat] is not None:
            raise ViewError(f"seat {st.current_player} chooses now, so seat {seat} has not chosen yet")


# ---- a full view: the same view back, and a round that plays on --------------------------------

def _same_view(st, data: dict, played: bool) -> None:
    shown = st.view()
    for key in ("history", "undealt"):          # a full view may leave out the move list, and the
        if key not in data:                     # undealt cards: those not placed elsewhere
            del shown[key]
    missing = [key for key in shown if key not in data]
    if missing:
        raise ViewError(f"a full view (one with `step`) has every key of state.view(); this one lacks "
                        f"{', '.join(missing[:6])}")
    shown["seed"] = data["seed"] if checked_seed(data["seed"]) == st.seed else shown["seed"]
    for key, value in shown.items():
        if not _equal(_canonical(key, value), _canonical(key, data[key])):
            raise ViewError(f"{key} does not match the rest of the view: it must be {shown(value)}, "
                            f"not {shown(data[key])}")


#: Keys whose per-seat card lists are sets: a view lists them in card order, an edited one may not.
_UNORDERED = ("hands", "undealt", "taken", "set_aside", "removed", "choices")


def _canonical(key: str, value):
    """A view's value with the order that carries no meaning taken out."""
    def texts(cards):
        if cards.__class__ in (list, tuple) and all(c.__class__ is str for c in cards):
            return sorted(cards)
        return cards
    if key == "undealt":
        return texts(value)
    if key in _UNORDERED and value.__class__ in (list, tuple):
        return [texts(cards) for cards in value]
    if key == "display" and value.__class__ in (list, tuple):
        return sorted(value, key=lambda e: (e.get("row"), e.get("col")) if isinstance(e, dict) else (0, 0))
    return value


_TEXT = frozenset({str})


def _equal(a, b) -> bool:
    """JSON equality: lists and tuples alike, a bool never a number."""
    if a.__class__ in (list, tuple) and b.__class__ in (list, tuple):
        if len(a) != len(b):
            return False
        if set(map(type, a)) <= _TEXT and set(map(type, b)) <= _TEXT:      # texts (a history): at once
            return list(a) == list(b)
        return all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    return a.__class__ is b.__class__ and a == b


def _plays_on(st) -> None:
    """Play the rest of the round (and into the next) on a copy: every seat to move has a move."""
    probe = st.clone()
    rng = random.Random(len(st._past) + len(st._history))
    start = probe.round
    budget = moves_per_round(st.rules, st.n) * 2
    try:
        while not probe.is_terminal and budget > 0:
            moves = probe.legal_moves()
            if not moves:
                raise ViewError(f"this view cannot be played on: seat {probe.current_player} gets stuck "
                                f"with no legal move in round {probe.round}")
            probe.apply(moves[rng.randrange(len(moves))])
            budget -= 1
            if probe.round != start:
                if not probe.is_terminal and not probe.legal_moves():
                    raise ViewError(f"this view cannot be played on: round {probe.round} starts with no legal move")
                break
    except RulekitError as error:
        if isinstance(error, ViewError):
            raise
        raise ViewError(f"this view cannot be played on: {error}") from None
    except (ArithmeticError, LookupError, TypeError, ValueError, AttributeError) as error:
        raise ViewError(f"this view cannot be played on: {type(error).__name__}: {error}") from None


def cards_placed(rules, data: dict, rest: int, rest_key: str = "undealt") -> None:
    """A full view of a game that lists the undealt cards places every card of the deck: none
    may be left over (without `undealt`, the cards placed nowhere else are the undealt ones;
    in a grid game, `decks` and the bottoms of the decks)."""
    if is_played(data) and rest_key in data and rest:
        missing = [rules.deck.texts[c] for c in cards_of(rest)]
        raise ViewError(f"a full view places every card; missing: {', '.join(missing[:8])}"
                        + (f" and {len(missing) - 8} more" if len(missing) > 8 else ""))
