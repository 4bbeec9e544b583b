"""The steps of a trick-taking round: deal, pass, bid (a number or a card), trump, tricks.

Pipeline place: compiler → **engine**. Each step is one general mechanism, configured by
the compiler from the rule file; a round is the list of steps the rule file declares.
A step's `enter` returns True when a seat must decide; `apply` returns True when the step
is over. Simultaneous steps ask one seat at a time and keep each choice in
`state.pending`, hidden from the other seats until all have chosen.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from .cardsets import MoveTable, cards_of, mask_of
from .moves import Move


class Step:
    """Base: a named part of a round."""
    name = "step"
    simultaneous = False
    #: `walk(st, getrandbits) -> moves made`: the rest of the step at random, for
    #: `State.playout`; generated for the hot steps (compile/codegen*.py), else None
    walk = None

    def enter(self, st) -> bool:
        return False

    def legal(self, st) -> list[Move]:
        """The legal moves in a stable order (a list the step may share: callers keep it as is)."""
        return []

    def legal_moves(self, st) -> list[Move]:
        """What `State.legal_moves` returns: a list the caller owns. This default keeps the
        step's list for `accepts` and hands out a copy; a step whose `legal` builds a new
        list each time and checks moves without it returns that list."""
        legal = st._legal = self.legal(st)
        return list(legal)

    def accepts(self, st, move) -> bool:
        """Whether `move` (any object) is one of the interned legal moves. Steps on the hot
        path answer from masks; this default looks in the legal list, built once per decision."""
        legal = st._legal
        if legal is None:
            legal = st._legal = self.legal(st)
        return any(candidate is move for candidate in legal)

    def apply(self, st, move) -> bool:
        return True

    def legal_for(self, st, seat: int) -> list[Move]:
        """What `seat`, whose turn it is not, may do now: nothing, but in table play."""
        return []

    def apply_for(self, st, seat: int, move) -> bool:
        """Play a move of `legal_for(st, seat)` (table play only, so never reached here)."""
        raise AssertionError("only table-play steps take moves out of turn")

    def play(self, st, move) -> bool | None:
        """`apply` if `move` is an interned legal move, else None with nothing changed (text,
        an equal Move or an illegal one then go through `State._resolve`): what `State.apply`
        calls. A hot step overrides it to check and play in one pass."""
        if self.accepts(st, move):
            return self.apply(st, move)
        return None

    def canonical(self, st, text: str) -> str:
        """The text of a move as the legal list spells it (orders cards, for instance)."""
        return text

    def choice_view(self, st, pending):
        """A hidden choice (`state.pending[seat]`) as its own seat sees it: a card's text."""
        return st.rules.deck.texts[pending]

    def why_illegal(self, st, text: str) -> str | None:
        return None

    def next_undecided(self, st) -> bool:
        """Simultaneous steps: move to the next seat that has not chosen; False when all have."""
        pending, n = st.pending, st.n
        for offset in range(1, n + 1):
            seat = (st.current_player + offset) % n
            if pending[seat] is None:
                st.current_player = seat
                return True
        return False


class Deal(Step):
    """`deal 11 each`: shuffle every card and deal the round's count to each seat."""
    name = "deal"
    turn = 0            # places shuffled after the hands' (1: the card `DealTurn` turns up)

    def __init__(self, deck, counts: tuple[int, ...]):
        self.deck, self.counts = deck, counts

    def enter(self, st) -> bool:
        self.deal(st)
        return False

    def deal(self, st) -> tuple[list[int], int]:
        """Deal the round's hands; returns the shuffled cards and how many were dealt."""
        count = self.counts[(st.round - 1) % len(self.counts)]
        dealt_cards = st.n * count
        cards = list(range(self.deck.size))
        places = min(dealt_cards + self.turn, len(cards) - 1)
        partial_shuffle(st.random_words(max(places, 0)), cards, places)
        dealt = 0
        for seat in range(st.n):
            hand = st.hands[seat] = sum(map((1).__lshift__, cards[seat * count:(seat + 1) * count]))
            dealt |= hand
            st.aside[seat] = 0
        st.undealt = self.deck.all_mask ^ dealt
        return cards, dealt_cards

    def show(self, st, key: str, card: int | None) -> None:
        """`card` shown face up (`state.extra[key]`; None: no card to show): its suit is trump
        this round, and no suit is for a special card or none."""
        st.extra[key] = card
        suit = -1 if card is None else self.deck.suit[card]
        st.trump = suit if suit < self.deck.regular_suits else -1


class DealTurn(Deal):
    """`deal ...` with `trump suit of turned card`: after the deal the next undealt card is
    turned face up (`state.extra["turned"]`, out of play and no longer undealt) and its suit
    is trump this round. A special card turned, or no card left to turn, gives no trump."""
    turn = 1

    def deal(self, st) -> tuple[list[int], int]:
        cards, dealt_cards = Deal.deal(self, st)
        turned = cards[dealt_cards] if dealt_cards < self.deck.size else None
        if turned is not None:
            st.undealt ^= 1 << turned
        self.show(st, "turned", turned)
        return cards, dealt_cards


def partial_shuffle(words, cards: list, positions: int) -> None:
    """Fisher-Yates over the first `positions` places only (the cards that are dealt): each
    place takes a card drawn among those not yet placed, by one 32-bit random word (the
    draw's bias is below size / 2**32, a few in a hundred million). The rest stay undealt."""
    size = len(cards)
    for i in range(positions):
        j = i + ((words[i] * (size - i)) >> 32)
        cards[i], cards[j] = cards[j], cards[i]


class Pass(Step):
    """`pass [0, 1 left, 2 right] by round`: each seat picks cards, hidden; all move at once.

    The legal moves are the sets of the round's count of cards in hand (ascending ids, in the
    order of `combinations`), each set's move made once (`move_of`, a bounded cache); with
    identical copies of a face, the first set of each text stands for all. Generated for
    every game that passes (compile/codegen_passes.py); this is the reference."""
    name = "pass"
    simultaneous = True

    def __init__(self, deck, plan: tuple[tuple[int, int], ...]):
        self.deck, self.plan = deck, plan        # plan: (count, seat offset) per round
        self.text_order = {t: c for c, t in reversed(list(enumerate(deck.texts)))}
        self.move_of = lru_cache(maxsize=1 << 16)(self._move)     # a set of cards -> its move

    def _today(self, st) -> tuple[int, int]:
        count, offset = self.plan[(st.round - 1) % len(self.plan)]
        return count, (st.n // 2 if offset is None else offset)     # None: across the table

    def choice_view(self, st, pending):
        return [st.rules.deck.texts[c] for c in cards_of(pending)]

    def enter(self, st) -> bool:
        count, offset = self._today(st)
        if count == 0 or offset % st.n == 0:
            return False
        st.pending = [None] * st.n
        st.current_player = 0
        return True

    def legal(self, st) -> list[Move]:
        count, _ = self._today(st)
        first = {}          # by text: with copies of a face, the first set stands for all
        for move in map(self.move_of, combinations(cards_of(st.hands[st.current_player]), count)):
            first.setdefault(move.text, move)
        return list(first.values())

    def _move(self, combo: tuple[int, ...]) -> Move:
        return Move("pass", mask_of(combo), "pass " + ", ".join(self.deck.texts[c] for c in combo))

    def apply(self, st, move) -> bool:
        st.pending[st.current_player] = move.arg
        if self.next_undecided(st):
            return False
        _, offset = self._today(st)
        for seat in range(st.n):
            st.hands[seat] &= ~st.pending[seat]
        for seat in range(st.n):
            st.hands[(seat + offset) % st.n] |= st.pending[seat]
        st.pending = [None] * st.n
        return True

    def canonical(self, st, text: str) -> str:
        verb, _, rest = text.partition(" ")
        cards = [c.strip() for c in rest.split(",")]
        if verb != "pass" or not all(c in self.text_order for c in cards):
            return text
        return "pass " + ", ".join(sorted(cards, key=self.text_order.__getitem__))

    def why_illegal(self, st, text: str) -> str | None:
        count, _ = self._today(st)
        return f"pass exactly {count} card{'s' if count != 1 else ''} from your hand, separated by commas"


class BidNumber(Step):
    """`bid 0..11, in turn from dealer`: each seat in turn says a number; bids are open.
    With `simultaneous`, each seat picks its number hidden and all are revealed together."""
    name = "bid"

    def __init__(self, low: int, high: int, first, simultaneous: bool = False):
        self.moves = [Move("bid", v, f"bid {v}") for v in range(low, high + 1)]
        self.interned = frozenset(map(id, self.moves))
        self.first = first
        self.simultaneous = simultaneous

    def enter(self, st) -> bool:
        st.bids = [None] * st.n
        st.pending = [None] * st.n
        st.revealed = False
        st.current_player = self.first(st)
        return True

    def choice_view(self, st, pending):
        return pending

    def legal(self, st) -> list[Move]:
        return self.moves

    def accepts(self, st, move: Move) -> bool:
        return id(move) in self.interned

    def apply(self, st, move) -> bool:
        if self.simultaneous:
            st.pending[st.current_player] = move.arg
            if self.next_undecided(st):
                return False
            st.bids, st.pending, st.revealed = list(st.pending), [None] * st.n, True
            return True
        st.bids[st.current_player] = move.arg
        nxt = (st.current_player + 1) % st.n
        if st.bids[nxt] is None:
            st.current_player = nxt
            return False
        st.revealed = True
        return True


class BidNumberLimited(BidNumber):
    """`bid 0..hand` (the highest bid is the number of cards in the bidder's hand) and/or
    `..., not allowed when C`: C is read for the bidder once per bid in the range, with the
    bidder's `bid` set to that bid, and the bids for which it holds are not legal. When it
    holds for every bid in the range, the restriction is lifted for that bidder: a seat to
    bid always has a legal bid. Moves stay interned: one Move per number, lists sliced."""

    def __init__(self, low: int, high: int, first, simultaneous: bool = False,
                 up_to_hand: bool = False, forbidden=None):
        super().__init__(low, high, first, simultaneous)
        self.low, self.up_to_hand, self.forbidden = low, up_to_hand, forbidden

    def legal(self, st) -> list[Move]:
        seat = st.current_player
        moves = self.moves
        if self.up_to_hand:         # at least the lowest bid, even from a hand smaller than it
            moves = moves[:max(1, st.hands[seat].bit_count() - self.low + 1)]
        return self.not_forbidden(st, seat, moves)

    def not_forbidden(self, st, seat: int, moves: list[Move]) -> list[Move]:
        """The bids of `moves` the condition allows the bidder, or all of them when it
        forbids every one."""
        forbidden = self.forbidden
        if forbidden is None:
            return moves
        bids = st.bids
        own = bids[seat]
        allowed = []
        try:
            for move in moves:
                bids[seat] = move.arg
                if not forbidden(st, seat):
                    allowed.append(move)
        finally:
            bids[seat] = own
        return allowed or list(moves)

    def accepts(self, st, move) -> bool:
        return Step.accepts(self, st, move)


class BidCard(Step):
    """`bid with a card, value number`: simultaneous hidden card bids, revealed together.

    With a `repeat bidding while ...` clause the bidding starts over while the condition
    holds, after its actions (award points, set bid cards aside). Set-aside cards come back
    when bidding is over. A seat with no card left to bid with means a fresh deal: inside
    this step (`redeal`), or, with `restart`, the round starts again from its first step
    (dealing, then passing), scores kept.
    """
    name = "bid"
    simultaneous = True

    def __init__(self, deck, value_attr: str, repeat=None, redeal=None, restart: bool = False):
        self.deck, self.value_attr = deck, value_attr
        self.table = MoveTable(deck, "bid")
        self.values = [deck.attribute(card, value_attr) for card in range(deck.size)]   # card -> its bid
        self.repeat, self.redeal = repeat, redeal   # repeat: (condition, [actions])
        self.restart = restart and redeal is not None

    def enter(self, st) -> bool:
        if self.redeal is not None and not all(st.hands):
            for seat in range(st.n):
                st.hands[seat] |= st.aside[seat]
            self.redeal(st)
        st.pending = [None] * st.n
        st.bids = [None] * st.n
        st.bid_cards = [None] * st.n
        st.revealed = False
        st.current_player = 0
        return True

    def legal(self, st) -> list[Move]:
        return self.table.by_runs(st.hands[st.current_player])

    def apply(self, st, move) -> bool:
        """The card bid (its lowest copy held), then the next seat to bid, or (all have) the
        bids revealed; True when bidding is over."""
        st.pending[st.current_player] = self.table.held(st.hands[st.current_player], move.arg)
        if self.next_undecided(st):
            return False
        pending = st.pending
        st.bid_cards = list(pending)
        st.bids = list(map(self.values.__getitem__, pending))
        st.pending = [None] * st.n
        st.revealed = True
        if self.repeat is not None and self.repeat[0](st, None):
            for action in self.repeat[1]:
                action(st)
            if self.restart and not all(st.hands):
                st.rules.reset_round(st)                 # no bids stand until the new ones
                st.step = st.rules.round_start - 1      # `advance` goes on with the deal
                return True
            return not self.enter(st)
        for seat in range(st.n):
            st.hands[seat] |= st.aside[seat]
            st.aside[seat] = 0
        return True


def set_aside_bid_cards(st) -> None:
    """Action `set aside bid cards`."""
    for seat, card in enumerate(st.bid_cards):
        st.hands[seat] &= ~(1 << card)
        st.aside[seat] |= 1 << card


class TrumpFromBid(Step):
    """`trump colour of highest bid`: the highest bid card's suit is trump this round."""
    name = "trump"

    def __init__(self, deck, highest_bidder):
        self.deck, self.highest_bidder = deck, highest_bidder

    def enter(self, st) -> bool:
        st.trump = self.deck.suit[st.bid_cards[self.highest_bidder(st)]]
        return False


class Tricks(Step):
    """`tricks 11, first led by dealer, then by winner`: play cards to tricks."""
    name = "play"

    def __init__(self, deck, count: int, first, follow, winner, then=None):
        self.table = MoveTable(deck, "play")
        self.count, self.first = count, first
        self.then = then                  # who leads after a trick: None for its winner
        self.follow, self.winner = follow, winner

    def enter(self, st) -> bool:
        st.tricks_played = 0
        st.trick = []
        st.lead = -1
        st.current_player = st.leader = self.first(st)
        return True

    #: which copy of a face is played: the lowest held (True) or the lowest allowed
    copies_from_hand = True
    #: `sets_lead[trump + 1]`: the cards that set a trick's lead (None: the first card led)
    sets_lead = None

    def allowed(self, st) -> int:
        """The cards of the current player's hand it may play now: those that follow, or
        any card when none does (lead rules: `trick_rules.py`)."""
        hand = st.hands[st.current_player]
        if st.trick:
            return hand & self.follow[st.trump + 1][st.lead + 1] or hand
        return hand

    def legal(self, st) -> list[Move]:
        return self.table.for_mask(self.allowed(st))

    legal_moves = legal

    def play(self, st, move: Move) -> bool | None:
        """Check and play in one pass: the move (one of this table's, `CardMove`) must meet
        the allowed cards; the lowest copy is played. This is the reference the generator
        (compile/codegen_tricks.py) writes out per game."""
        if type(move) is not self.table.move_class:
            return None
        cards, card = move.cards, move.card
        seat = st.current_player
        hand = st.hands[seat]
        allowed = self.allowed(st)
        if not allowed & cards:
            return None
        if card < 0:                      # copies of one face: the lowest one
            held = (hand if self.copies_from_hand else allowed) & cards
            cards = held & -held
            card = cards.bit_length() - 1
        st.hands[seat] = hand ^ cards
        trick = st.trick
        if st.lead < 0 and (self.sets_lead[st.trump + 1] >> card & 1 if self.sets_lead is not None else not trick):
            st.lead = card
        trick.append((seat, card))
        following = self.next_seat(st, seat)
        if following is not None:
            st.current_player = following
            return False
        return self.end_trick(st, trick)

    apply = play

    def next_seat(self, st, seat: int) -> int | None:
        """The seat to play next to the trick, or None when the trick is full."""
        return (seat + 1) % st.n if len(st.trick) < st.n else None

    def end_trick(self, st, trick) -> bool:
        """The trick is full: its winner takes it and leads next. True after the last trick."""
        played = 0
        for _, card in trick:
            played |= 1 << card
        winner = self.winner(trick, played, st.lead, st.trump)
        st.tricks_won[winner] += 1
        st._won += [*trick, winner]
        st.last_trick = trick
        st.trick = []
        st.lead = -1
        st.tricks_played += 1
        st.current_player = st.leader = winner if self.then is None else self.then(st)
        return st.tricks_played == self.count

    def why_illegal(self, st, text: str) -> str | None:
        if st.trick:
            return "you must follow the lead if you are able"
        return None


class TricksAll(Tricks):
    """`tricks all, first led by ..., then by ...`: tricks until the hands are empty, so the
    round plays as many tricks as each seat holds cards when play starts (the round's deal).
    Every hand holds as many cards as the others, so the next leader's empty hand ends it."""

    def __init__(self, deck, first, follow, winner, then=None):
        super().__init__(deck, None, first, follow, winner, then)

    def enter(self, st) -> bool:
        if not st.hands[self.first(st)]:
            return False            # a round that deals no cards plays no trick
        return Tricks.enter(self, st)

    def end_trick(self, st, trick) -> bool:
        Tricks.end_trick(self, st, trick)
        return not st.hands[st.current_player]
