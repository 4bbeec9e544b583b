"""`state.determinize(seat)`: views equal, what the seat saw respected, the hidden multiset
kept, uniform over the consistent placements (checked by brute force on tiny decks), and
the sample plays on to the end. Runs on every shipped game and on Oh Hell."""
from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings, strategies as hs

import rulekit
from rulekit.engine.cardsets import cards_of
from rulekit.engine.determinize import Placement, gather

TINY_TRICKS = """
game "Tiny tricks"
players 3
deck {
  suits red, blue
  ranks 1..4
  order rank
}
round {
  dealer random, then next
  deal 2 each
  tricks 2, first led by left of dealer, then by winner
}
follow {
  otherwise -> same suit as lead if able
}
trick winner {
  otherwise -> highest card of lead suit
}
score {
  otherwise -> tricks
}
end after 1 rounds
"""

TINY_PASSING = """
game "Tiny passing"
players 3
deck {
  colours red < blue
  numbers 1..4
  order number, then colour
}
round {
  dealer random, then next
  deal 2 each
  pass [1 left] by round
  bid with a card, value number
  trump colour of highest bid
  tricks 2, first led by highest bidder, then by winner
}
follow {
  always -> same colour as lead or same number as lead if able
}
trick winner {
  any trump played -> highest trump
  otherwise        -> highest card that followed
}
score {
  made   -> bid + 2
  missed -> 0
}
end after 1 rounds
"""

GAMES = [("instinct", 4), ("instinct", 3), ("insidious-sevens", 4), ("insidious-sevens", 2),
         ("duell-der-tiere", 2), ("examples/oh-hell.rules", 4)]
_LOADED: dict = {}


def _game(name):
    if name not in _LOADED:
        _LOADED[name] = rulekit.loads(name) if "\n" in name else rulekit.load(name)
    return _LOADED[name]


def _played(game, players, seed, moves):
    rng = random.Random(seed)
    st = game.new_game(players=players, seed=seed)
    for _ in range(moves):
        if st.is_terminal:
            break
        st.apply(rng.choice(st.legal_moves()))
    return st


def _hidden_multiset(view, seat):
    """Cards `seat` cannot see: other hands, undealt cards, decks, other seats' choices."""
    out = Counter(view.get("undealt", []))
    for p, hand in enumerate(view["hands"]):
        if p != seat:
            out.update(hand)
    for deck in view.get("decks", []):
        out.update(deck)
    if "decks" in view:                 # a grid game's chosen card has left the hand
        out.update(c for p, c in enumerate(view["choices"]) if p != seat and isinstance(c, str))
    return out


@pytest.mark.parametrize("name,players", GAMES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 10**6), moves=hs.integers(0, 150), sample_seed=hs.integers(0, 10**6))
def test_a_sample_looks_the_same_to_the_seat_and_plays_on(name, players, seed, moves, sample_seed):
    game = _game(name)
    st = _played(game, players, seed, moves)
    if st.is_terminal:
        return
    truth = st.view()
    for seat in range(players):
        d = st.determinize(seat, seed=sample_seed)
        assert d.view(seat) == st.view(seat)
        full = d.view()
        assert _hidden_multiset(full, seat) == _hidden_multiset(truth, seat)
        assert full["taken"] == truth["taken"] and full["trick"] == truth["trick"]
        _respects_what_was_seen(st, d, seat)
        assert st.view() == truth                    # the real state is untouched
        rng = random.Random(sample_seed)
        while not d.is_terminal:
            d.apply(rng.choice(d.legal_moves()))


def _respects_what_was_seen(st, d, seat):
    known = gather(st, seat)
    assert known.replayed
    for p in range(st.n):
        if p == seat:
            continue
        assert d.hands[p] & known.forbidden[p] == 0, "a card of a suit the seat showed it lacks"
        assert d.hands[p] & known.known[p] & st.hands[p] == known.known[p] & st.hands[p]
        card = st.bid_cards[p]
        if card is not None and st.hands[p] >> card & 1:
            assert d.hands[p] >> card & 1, "a shown bid card left its hand"


def test_voids_and_passed_cards_are_kept_in_a_real_game():
    """A seat that did not follow suit gets no card of that suit; cards passed stay put."""
    game = rulekit.load("insidious-sevens")
    found_void = found_pass = False
    for seed in range(40):
        st = _played(game, 4, seed, 36 + seed % 24)
        if st.is_terminal:
            continue
        for seat in range(4):
            known = gather(st, seat)
            found_void |= any(known.forbidden[p] & st.hands[p] == 0 and known.forbidden[p]
                              for p in range(4) if p != seat)
            found_pass |= any(known.known[p] & st.hands[p] for p in range(4) if p != seat)
            for k in range(5):
                _respects_what_was_seen(st, st.determinize(seat, seed=k), seat)
    assert found_void and found_pass


def test_the_sample_has_a_fresh_future_and_a_history_without_secrets():
    game = rulekit.load("insidious-sevens")
    st = game.new_game(players=4, seed=11)
    rng = random.Random(1)
    while st.view()["phase"] != "bid" or st.pending[1] is None:
        st.apply(rng.choice(st.legal_moves()))
    d = st.determinize(0, seed=3)
    assert d.seed != st.seed
    texts = [t for t in d.history]
    assert any(t == "bid hidden" for t in texts)
    assert not any(t.startswith("pass ") for t in texts)      # others' passes are secret; seat 0's own


def test_a_sample_does_not_give_the_truth_away():
    """Over many samples the other hands take many values: the truth is one among them."""
    game = rulekit.load("instinct")
    st = _played(game, 4, 5, 3)
    seen = Counter(tuple(st.determinize(0, seed=k).hands[1:]) for k in range(200))
    assert len(seen) > 150
    assert seen[tuple(st.hands[1:])] <= 3


def test_bad_seats_and_seeds_are_refused():
    st = rulekit.load("instinct").new_game(players=3, seed=1)
    with pytest.raises(ValueError):
        st.determinize(3)
    with pytest.raises(TypeError):
        st.determinize(0, seed="x")


# ---- uniform over the consistent placements (brute force on tiny decks) ----------------------


def _consistent(st, seat):
    """Every (other hands, undealt, other secret choices) the seat's observations allow, by
    brute force: each deal of the cards it did not see at the start, each secret move of the
    others, replayed through the engine; kept when every move is legal and the seat's view
    after each move is the one it saw."""
    from rulekit.engine.state import State

    rules, n = st.rules, st.n
    start = State(rules, n, st.seed).start()
    observed, cur, secret = [], start.clone(), []
    for text in st.history:
        mover, step = cur.current_player, cur._at
        secret.append(step.simultaneous and mover != seat)
        cur.apply(text)
        observed.append(cur.view(seat))
    mine = start.hands[seat]
    others = [p for p in range(n) if p != seat]
    rest = cards_of(rules.deck.all_mask & ~mine)
    sizes = [start.hands[p].bit_count() for p in others]
    out = set()
    for order in itertools.permutations(rest):
        hands, at = {}, 0
        for p, size in zip(others, sizes):
            hands[p] = sorted(order[at:at + size])
            at += size
        if any(hands[p] != list(order[sum(sizes[:i]):sum(sizes[:i + 1])]) for i, p in enumerate(others)):
            continue                                    # one ordering per deal
        if sorted(order[at:]) != list(order[at:]):
            continue
        deal = start.clone()
        for p in others:
            deal.hands[p] = sum(1 << c for c in hands[p])
        deal.undealt = sum(1 << c for c in order[at:])
        _branch(deal, st, 0, secret, observed, seat, out)
    return out


def _branch(cur, st, index, secret, observed, seat, out):
    if index == len(secret):
        out.add(_key(cur, seat))
        return
    if secret[index]:
        options = cur.legal_moves()
    else:
        text = st.history[index]
        options = [m for m in cur.legal_moves() if m.text == text]
    for move in options:
        nxt = cur.clone()
        nxt.apply(move)
        if nxt.view(seat) == observed[index]:
            _branch(nxt, st, index + 1, secret, observed, seat, out)


def _key(st, seat):
    return (tuple(h for p, h in enumerate(st.hands) if p != seat), st.undealt,
            tuple(c for p, c in enumerate(st.pending) if p != seat))


@pytest.mark.parametrize("text", [TINY_TRICKS, TINY_PASSING], ids=["tricks", "passing"])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 10**6), moves=hs.integers(0, 10), seat=hs.integers(0, 2))
def test_every_consistent_placement_appears_in_proportion(text, seed, moves, seat):
    game = _game(text)
    st = _played(game, 3, seed, moves)
    if st.is_terminal:
        return
    allowed = _consistent(st, seat)
    assert _key(st, seat) in allowed
    per_cell = 40
    counts = Counter(_key(st.determinize(seat, seed=seed * 7919 + k), seat)
                     for k in range(per_cell * len(allowed)))
    assert set(counts) == allowed, "a sample the seat could rule out, or a placement never drawn"
    spread = 6 * per_cell ** 0.5            # six standard deviations: a false alarm ~1e-8 per cell
    assert all(abs(c - per_cell) <= spread for c in counts.values()), counts


def test_the_placement_counts_are_exact():
    """Two classes into three places: the count matches enumeration."""
    placement = Placement([2, 1, 2], [(0b011, [0, 1]), (0b110, [2, 3, 4])])
    brute = 0
    for order in itertools.permutations(range(5)):
        places = [order[:2], order[2:3], order[3:]]
        if all((0b011 if c < 2 else 0b110) >> i & 1 for i, pl in enumerate(places) for c in pl):
            brute += 1
    # permutations count each placement 2!·1!·2! times
    assert placement.count(0, (2, 3)) == brute // 4


def test_the_kept_replay_serves_the_next_decision_and_a_diverging_copy_alike():
    """What a seat knows does not depend on which states were looked at before."""
    from rulekit.engine import determinize as det

    game = rulekit.load("insidious-sevens")
    st = _played(game, 3, 21, 30)
    other = st.clone()
    gather(st, 1)                                   # kept for the next decision
    for state, rng in ((st, random.Random(2)), (other, random.Random(3))):
        for _ in range(6):
            state.apply(rng.choice(state.legal_moves()))
    for state in (st, other, st):
        kept = gather(state, 1)
        det._REPLAYS.clear()
        fresh = gather(state, 1)
        assert fresh.replayed and kept.replayed
        assert (kept.known, kept.forbidden, kept.history) == (fresh.known, fresh.forbidden, fresh.history)


def test_cards_another_seat_drew_and_did_not_keep_are_hidden_in_the_sample():
    """Duell's draft: 'each draw 5 cards and choose 3 to keep ... Return the other 2 cards to the
    bottom of your deck.' While seat 0 puts its cards back, seat 1's two unkept cards wait,
    unseen by seat 0: a sample draws them again from seat 1's hidden cards."""
    game = rulekit.load("duell-der-tiere", variant="draft")
    state = game.new_game(players=2, seed=4)
    state.apply(state.legal_moves()[0])
    state.apply(state.legal_moves()[0])
    assert state.view()["phase"] == "return" and state.current_player == 0
    truth = state.view()["returning"][1]
    seen = set()
    for seed in range(40):
        sample = state.determinize(0, seed=seed)
        assert sample.view(0) == state.view(0)
        full = sample.view()
        assert len(full["returning"][1]) == 2
        mine = Counter(full["hands"][1] + full["decks"][1] + full["returning"][1])
        assert mine == Counter(state.view()["hands"][1] + state.view()["decks"][1] + truth)
        seen.add(tuple(full["returning"][1]))
    assert len(seen) > 1 and seen != {tuple(truth)}


EXAMPLE_FILES = sorted(str(p) for p in __import__("pathlib").Path(__file__).resolve().parent.parent.glob(
    "examples/**/*.rules"))


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.rsplit("/", 1)[-1])
def test_every_example_rule_file_determinizes(path):
    """No per-game code: every example game's samples look the same to the seat and play on."""
    game = rulekit.load(path)
    for players in list(game.players)[:2]:
        for seed in range(3):
            st = _played(game, players, seed, 7 + 11 * seed)
            if st.is_terminal:
                continue
            for seat in range(players):
                d = st.determinize(seat, seed=seed)
                assert d.view(seat) == st.view(seat)
                assert gather(st, seat).replayed
                rng = random.Random(seed)
                while not d.is_terminal:
                    d.apply(rng.choice(d.legal_moves()))
