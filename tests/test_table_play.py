"""Table play: Instinct's "Player Errors" (rulebook shared/rulebooks/instinct.txt, last section),
as the variant `table` resolves them, and the `player errors` mechanism it is written in.

Positions come from real deals: the hands of a seeded game are rearranged among the seats (the
same cards, the same hand sizes), so that a seat holds or lacks what the rule needs.
"""
from __future__ import annotations

import random

import pytest

import rulekit

TABLE = rulekit.load("instinct", variant="table")
PLAIN = rulekit.load("instinct")
BONUS = {0: 10, 1: 5, 4: 5, 5: 10}           # `table bonus`: 6..11 give 50, the rest 0


def made(bid: int) -> int:
    """Instinct's points for a made bid: 10 + bonus[bid]."""
    return 10 + (50 if bid >= 6 else BONUS.get(bid, 0))


def suit(card: str) -> str:
    return card.split()[0]


def deal_to_play(bids=(2, 3, 1, 0), seed=5):
    """A 4-player table game of a real deal at its first play (the dealer leads); seat s bid
    `bids[s]`."""
    state = TABLE.new_game(players=4, seed=seed)
    while state.view()["phase"] == "bid":
        state.apply(f"bid {bids[state.current_player]}")
    return state


def _rearranged(view, hold, lack):
    """`view` with the same cards (hands and undealt) in hands of the same sizes, seat s
    holding `hold[s]` and no card of a suit in `lack[s]`; the rest undealt."""
    pool = [card for hand in view["hands"] for card in hand] + view["undealt"]
    sizes = [len(h) for h in view["hands"]]
    out = [[] for _ in sizes]
    for seat, cards in hold.items():
        for card in cards:
            pool.remove(card)
            out[seat].append(card)
    for seat in sorted(range(len(sizes)), key=lambda s: -len(lack.get(s, ()))):
        fits = [c for c in pool if suit(c) not in lack.get(seat, ()) and c not in hold_all(hold)]
        take = fits[:sizes[seat] - len(out[seat])]
        for card in take:
            pool.remove(card)
        out[seat] += take
    assert [len(h) for h in out] == sizes
    return dict(view, hands=out, undealt=pool)


def hold_all(hold) -> set:
    return {card for cards in hold.values() for card in cards}


# ---- "Bidding out of turn" --------------------------------------------------------------------

def test_a_bid_out_of_turn_stands_and_bidding_goes_on_in_order():
    """"If someone makes a bid out of turn, the bid stands and the other players continue bidding in
    the proper order. There's no penalty for bidding out of turn.\"
    """
    state = TABLE.new_game(players=4, seed=3)
    first = state.current_player
    early = (first + 2) % 4
    assert state.legal_moves(seat=early)[:2] == ["bid 0", "bid 1"]
    state.apply("bid 4", seat=early)
    assert state.view()["bids"][early] == 4 and state.current_player == first
    asked = []
    while state.view()["phase"] == "bid":
        asked.append(state.current_player)
        state.apply("bid 1")
    assert asked == [first, (first + 1) % 4, (first + 3) % 4]      # the early bidder is not asked again
    assert state.view()["bids"][early] == 4 and state.scores == [0, 0, 0, 0]
    assert f"seat {early}: bid 4" in state.history


def test_a_seat_that_has_bid_may_not_bid_again():
    state = TABLE.new_game(players=4, seed=3)
    early = (state.current_player + 1) % 4
    state.apply("bid 2", seat=early)
    before = state.view()
    assert state.legal_moves(seat=early) == []
    with pytest.raises(rulekit.IllegalMoveError, match="may not act now"):
        state.apply("bid 3", seat=early)
    assert state.view() == before


# ---- "Playing cards out of turn" --------------------------------------------------------------

def test_a_card_played_out_of_turn_stays_and_the_proper_order_decides_the_last_trump():
    """"If someone plays a card out of turn, the card remains in play and the other players
    continue playing cards in the proper order. To determine which trump card was played last,
    pretend all cards were played in the proper order.\"
    """
    state = deal_to_play()
    lead = state.current_player
    second, third, fourth = ((lead + k) % 4 for k in (1, 2, 3))
    view = state.view()
    view = _rearranged(view, {lead: ["blue 5"], second: ["trump"], fourth: ["trump"]},
                       {second: ["blue"], fourth: ["blue"]})
    state = TABLE.restore(view)
    state.apply("play blue 5")
    state.apply("play trump", seat=fourth)                       # out of turn, before the 2nd and 3rd
    seen = state.view(third)
    assert seen["out_of_turn"] == [[fourth, "trump"]] and state.current_player == second
    assert seen["proper_order"] == [[lead, "blue 5"], [fourth, "trump"]]
    state.apply("play trump")                                    # the 2nd, in turn: the later trump in time
    assert state.current_player == third
    state.apply(state.legal_moves()[0])                          # the 3rd completes the trick
    winner = state.view()["leader"]
    assert winner == fourth, "in the proper order the 4th seat's trump comes last"
    assert state.view()["tricks_won"][fourth] == 1


def test_plain_instinct_takes_no_move_out_of_turn():
    """Without the variant the engine offers only moves in turn, as before."""
    state = PLAIN.new_game(players=4, seed=3)
    other = (state.current_player + 1) % 4
    assert state.legal_moves(seat=other) == []
    assert state.legal_moves(seat=state.current_player) == state.legal_moves()
    before = state.view()
    with pytest.raises(rulekit.IllegalMoveError, match=f"it is seat {state.current_player}'s turn"):
        state.apply("bid 1", seat=other)
    with pytest.raises(rulekit.IllegalMoveError):
        state.apply(f"seat {other}: bid 1")
    assert state.view() == before and "out_of_turn" not in before and "revokes" not in before


# ---- "Revoking" and the challenge -------------------------------------------------------------

def _revoke_position():
    """Seat `lead` leads blue 5; the next seat holds blue 9 but plays red 3: a revoke."""
    state = deal_to_play()
    lead = state.current_player
    revoker = (lead + 1) % 4
    view = state.view()
    view = _rearranged(view, {lead: ["blue 5"], revoker: ["blue 9", "red 3"]}, {})
    return TABLE.restore(view), lead, revoker


def test_a_revoke_is_allowed_and_nobody_else_sees_it():
    """"Revoking: Failing to follow suit when you are able to do so. Players should not
    intentionally revoke, but revoking does occasionally happen by mistake.\"
    """
    state, lead, revoker = _revoke_position()
    state.apply("play blue 5")
    assert "play red 3" in state.legal_moves()                   # a table lets any card be played
    state.apply("play red 3")
    assert state.view()["revokes"][revoker] == [{"trick": 1, "card": "red 3", "lead": "blue 5"}]
    assert state.view(revoker)["revokes"][revoker] == state.view()["revokes"][revoker]
    for other in range(4):
        if other != revoker:
            assert state.view(other)["revokes"][revoker] is None


def test_a_right_challenge_ends_the_round():
    """"When a challenge has been made, the round ends and all other players score as if they made
    their bids. If the challenger is correct, he or she scores his or her bid and the player who
    revoked scores -10 points.\"
    """
    state, lead, revoker = _revoke_position()
    bids = state.view()["bids"]
    state.apply("play blue 5")
    state.apply("play red 3")
    challenger = (revoker + 2) % 4
    state.apply(f"challenge {revoker}", seat=challenger)
    view = state.view()
    expected = [made(bids[s]) if s != revoker else -10 for s in range(4)]
    assert view["scores"] == expected and view["last_round"]["points"] == expected
    assert view["round"] == 2 and view["phase"] == "bid" and view["hand_sizes"] == [11] * 4
    challenge = view["last_challenge"]
    assert challenge["right"] and challenge["challenger"] == challenger and challenge["accused"] == revoker
    assert challenge["revokes"] == [{"trick": 1, "card": "red 3", "lead": "blue 5"}]
    assert state.view(lead)["last_challenge"] == challenge           # the challenge reveals it to all


def test_a_wrong_challenge_costs_the_challenger():
    """"If the accused player did not in fact revoke, he or she scores his or her bid and the
    challenger scores -10 points."
    """
    state, lead, revoker = _revoke_position()
    bids = state.view()["bids"]
    state.apply("play blue 5")
    state.apply("play blue 9")                                   # followed: no revoke
    challenger = state.current_player                           # the seat to play challenges instead
    state.apply(f"challenge {revoker}")
    assert state.history[-1] == f"challenge {revoker}"
    view = state.view()
    expected = [made(bids[s]) if s != challenger else -10 for s in range(4)]
    assert view["scores"] == expected
    assert view["last_challenge"] == {"round": 1, "challenger": challenger, "accused": revoker,
                                      "right": False, "revokes": [], "points": expected}


def test_a_challenge_after_the_last_trick_is_too_late():
    """"he or she must challenge that player before the end of the round.\"
    """
    state, lead, revoker = _revoke_position()
    state.apply("play blue 5")
    state.apply("play red 3")
    while state.view()["phase"] == "play":
        state.apply(next(m for m in state.legal_moves() if not str(m).startswith("challenge")))
    assert state.view()["round"] == 2 and state.view()["last_challenge"] is None
    assert state.view()["scores"] == state.view()["last_round"]["points"]   # the revoke stood
    before = state.view()
    with pytest.raises(rulekit.IllegalMoveError, match="Legal moves: bid 0"):
        state.apply(f"challenge {revoker}")
    assert state.view() == before


def test_challenges_are_offered_to_every_seat_for_every_other_seat():
    state, lead, revoker = _revoke_position()
    state.apply("play blue 5")
    moves = [str(m) for m in state.legal_moves(seat=lead)]
    assert [m for m in moves if m.startswith("challenge")] == [f"challenge {s}" for s in range(4) if s != lead]


# ---- the history replays, views restore -------------------------------------------------------

def test_random_table_play_replays_from_its_history_and_restores_everywhere():
    """Moves out of turn are recorded as `seat N: move`, which `apply` takes back: a table game
    replays from its history alone, and every position restores from its full view."""
    for seed in range(8):
        state = TABLE.new_game(players=4, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if state.is_terminal:
                break
            seat = rng.randrange(4)
            moves = state.legal_moves(seat=seat)
            if not moves:
                continue
            cards = [m for m in moves if not str(m).startswith("challenge")]
            state.apply(rng.choice(cards) if cards and rng.random() < 0.98 else rng.choice(moves), seat=seat)
            view = state.view()
            assert TABLE.restore(view).view() == view
        again = TABLE.new_game(players=4, seed=seed)
        for text in state.history:
            again.apply(text)
        assert again.view() == state.view()


# ---- properties: whatever seat acts, whenever ----------------------------------------------------

from hypothesis import given, settings, strategies as st                          # noqa: E402

from rulekit.testing import (                                                     # noqa: E402
    cards_conserved, restore_round_trips, scores_change_by_rules, views_hide_hidden_information,
)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**31), st.integers(3, 5), st.floats(0.0, 0.2))
def test_any_seat_acting_at_any_time_keeps_every_invariant(seed, players, challenges):
    """Seats picked at random make random moves out of turn, revoke and challenge; after each
    move the cards are all there, the views hide what they must (revokes included), the full
    view restores, and the scores only move at the end of a round; the game ends."""
    state = TABLE.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(20_000):                        # a seat picked may have nothing to do
        if state.is_terminal:
            break
        before = state.clone()
        seat = rng.randrange(players)
        moves = state.legal_moves(seat=seat)
        if not moves:
            continue
        cards = [m for m in moves if not str(m).startswith("challenge")]
        state.apply(rng.choice(cards) if cards and rng.random() >= challenges else rng.choice(moves), seat=seat)
        cards_conserved(state, before)
        views_hide_hidden_information(state, before, game=TABLE)
        restore_round_trips(state, before, game=TABLE)
        scores_change_by_rules(state, before)
    assert state.is_terminal
