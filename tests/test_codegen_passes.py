"""Generated passes and card bids (rulekit/compile/codegen_passes.py) play as the hand-written
steps do (`RULEKIT_CODEGEN=0`), move for move, for passes of every count and direction and
for card bids with and without copies of a face and a repeat clause.

Issue 16: "the compiler turns a checked rule file into Python source for that game ... the
steps of its round"; "seeded games must stay identical"; `state.playout` must make "exactly
those of the public loop"; "Bad input gets a clear error ... and changes nothing" (briefing).
The rule files below are small games written for these tests (no published game): they
exist to reach the cases the shipped games do not (copies of a face, passing across an odd
table, `deal again` inside the bidding, a single-entry plan).
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulekit
from rulekit.compile import codegen, codegen_passes
from rulekit.engine import steps
from rulekit.engine.moves import Move
from rulekit.engine.state import State
from rulekit.errors import IllegalMoveError

from codegen_check import assert_only_generator_names
from public_loop import assert_playout_makes_the_public_loop_moves

#: passes of every direction and of several counts, with three copies of a joker
JOKERS = """
game "Jokers passed"
players 3..5
deck {
  suits red, blue, green
  ranks 1..8
  card joker x3
  order rank
}
round {
  dealer random, then next
  deal 5 each
  pass [2 right, 1 across, 3 left, 0, 1 right] by round
  bid with a card, value rank
  tricks 5, first led by highest bidder, then by winner
}
follow { otherwise -> same suit as lead if able }
trick winner { otherwise -> highest card of lead suit }
score {
  made   -> bid + 2
  missed -> 0
}
end after 6 rounds
winner highest score
"""

#: one pass for every round (a plan of one entry), across the table
ACROSS = JOKERS.replace("pass [2 right, 1 across, 3 left, 0, 1 right] by round", "pass 2 across").replace(
    'game "Jokers passed"', 'game "Passed across"')

#: card bids with a repeat clause that sets the bid cards aside, and a deal again inside the bidding
PICO = """
game "Repeated bids"
players 2..4
deck {
  colours red < yellow < green
  numbers 0..4
  order number, then colour
}
round {
  dealer random, then next
  deal 3 each
  pass 1 left
  bid with a card, value number
  trump colour of highest bid
  tricks 3, first led by highest bidder, then by winner
  repeat bidding while sum(bid) <= 4 {
    highest bidder scores 1
    set aside bid cards
    when no cards are left, deal again
  }
}
follow { always -> same colour as lead or same number as lead if able }
trick winner {
  any trump played -> highest trump
  otherwise        -> highest card that followed
}
score {
  made   -> bid + 2
  missed -> -abs(tricks - bid)
}
end after 5 rounds
winner highest score
"""

#: the same, but a seat out of cards starts the round again (passing included)
RESTART = PICO.replace("when no cards are left, deal again", "when no cards are left, start the round again").replace(
    'game "Repeated bids"', 'game "Repeated bids, restarted"')

TEXTS = {"jokers": JOKERS, "across": ACROSS, "pico": PICO, "restart": RESTART}
GAMES = [(name, players) for name in TEXTS for players in (2, 3, 4, 5)
         if players in rulekit.loads(TEXTS[name]).players]
SHIPPED = [("insidious-sevens", None, 2), ("insidious-sevens", "pico_restart", 3),
           ("insidious-sevens", None, 5), ("hearts", None, 4), ("hearts", "clean_first_trick", 4)]


HEARTS = str(Path(__file__).resolve().parent.parent / "examples" / "games" / "hearts.rules")


def _load(name: str, variant=None):
    if name in TEXTS:
        return rulekit.loads(TEXTS[name])
    return rulekit.load(HEARTS if name == "hearts" else name, variant=variant)


def _reference(name: str, variant, players: int, monkeypatch):
    with monkeypatch.context() as patch:
        patch.setattr(codegen, "ENABLED", False)
        game = _load(name, variant)
        game.ruleset(players)
    return game


def _both_ways(ours, theirs, seed: int, moves: int = 600) -> None:
    """Random play of the reference; the generated state gets the same move as an interned
    move, as its text, or as an equal Move made by hand; every list and view the same."""
    rng, made = random.Random(seed), 0
    while not theirs.is_terminal and made < moves:
        legal = theirs.legal_moves()
        assert [m.text for m in ours.legal_moves()] == [m.text for m in legal]
        pick = legal[rng.randrange(len(legal))]
        how = made % 3
        ours.apply(ours.legal_moves()[legal.index(pick)] if how == 0 else pick.text if how == 1
                   else Move(pick.kind, pick.arg, pick.text))
        theirs.apply(pick)
        made += 1
        assert ours.current_player == theirs.current_player and ours.pending == theirs.pending
    assert ours.view() == theirs.view() and ours.history == theirs.history


@pytest.mark.parametrize("name,players", GAMES)
def test_generated_passes_and_card_bids_play_as_the_reference(name, players, monkeypatch):
    generated, reference = _load(name), _reference(name, None, players, monkeypatch)
    for seed in (1, 2, 3):
        ours, theirs = generated.new_game(players, seed=seed), reference.new_game(players, seed=seed)
        assert type(theirs) is State and type(ours) is not State
        _both_ways(ours, theirs, seed)


@pytest.mark.parametrize("name,variant,players", SHIPPED)
def test_the_shipped_games_that_pass_or_bid_cards_play_as_the_reference_at_other_table_sizes(
        name, variant, players, monkeypatch):
    generated, reference = _load(name, variant), _reference(name, variant, players, monkeypatch)
    for seed in (7, 8):
        _both_ways(generated.new_game(players, seed=seed), reference.new_game(players, seed=seed), seed, 300)


@pytest.mark.parametrize("name,players", GAMES + [(n, p) for n, _, p in SHIPPED])
def test_a_playout_through_passes_and_card_bids_makes_the_public_loop_moves(name, players):
    game = _load(name)
    for seed in (5, 6):
        assert_playout_makes_the_public_loop_moves(game, players, seed)


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_every_pass_and_card_bid_is_written_out_in_readable_generated_source(name):
    rules = _load(name).ruleset(3)
    source = codegen.source_of(rules)
    assert_only_generator_names(source)
    kinds = dict(codegen.covered(rules))
    assert kinds["Pass"] and kinds["BidCard"] and kinds.get("TrumpFromBid", True)
    assert "class Pass_" in source and "class BidCard_" in source
    rest = source.rsplit("\n# Steps that run as the engine's classes:", 1)[1]
    assert "Pass" not in rest and "Bid" not in rest and "Trump" not in rest


def _at(game, players: int, seed: int, kind):
    """A game in play at its first decision of step class `kind`."""
    for attempt in range(40):
        state = game.new_game(players, seed=seed + attempt)
        rng = random.Random(seed)
        while not state.is_terminal and not isinstance(state._at, kind):
            legal = state.legal_moves()
            state.apply(legal[rng.randrange(len(legal))])
        if not state.is_terminal:
            return state
    raise AssertionError("no such decision")


def test_an_illegal_pass_changes_nothing():
    game = rulekit.load("insidious-sevens")
    state = _at(game, 4, 11, steps.Pass)
    state.apply(state.legal_moves()[0])                 # seat 0 has passed: seat 1 chooses
    before, seat = state.view(), state.current_player
    first = state.legal_moves()[0]
    count = len(first.text.split(","))
    hand = state.hands[seat]
    foreign = next(m for m in _at(game, 4, 50, steps.Pass).legal_moves() if m.arg & ~hand)   # interned
    own = [c for c in range(40) if hand >> c & 1]
    too_many = ", ".join(state.rules.deck.texts[c] for c in own[:count + 1])
    for bad in (foreign, foreign.text, "pass " + too_many, "pass", "bid 3", object(), 7, None,
                Move("pass", hand, "pass everything")):
        with pytest.raises(IllegalMoveError):
            state.apply(bad)
        assert state.view() == before and state.current_player == seat
    state.apply(Move("pass", foreign.arg, first.text))     # an equal move: its text decides
    assert state.pending[seat] == first.arg and state.history[-1] == first.text


def test_an_illegal_card_bid_changes_nothing():
    state = _at(rulekit.load("insidious-sevens"), 4, 12, steps.BidCard)
    before, seat = state.view(), state.current_player
    hand = state.hands[seat]
    card = next(c for c in range(40) if not hand >> c & 1)
    text = "bid " + state.rules.deck.texts[card]
    play = "play " + state.rules.deck.texts[card]
    held = next(c for c in range(40) if hand >> c & 1)
    tricks = next(s for s in state.rules.steps if isinstance(s, steps.Tricks))
    for bad in (text, play, Move("bid", card, text), "bid", object(), 3,
                tricks.table.moves[held], tricks.table.moves[card]):     # moves of another table
        with pytest.raises(IllegalMoveError):
            state.apply(bad)
        assert state.view() == before and state.current_player == seat


def _namespace(rules) -> dict:
    """The generated module a rule set runs (its pass step's class's globals)."""
    return next(type(step).play.__globals__ for step in rules.steps if isinstance(step, steps.Pass))


def test_a_pass_of_copies_takes_the_lowest_copies_held(monkeypatch):
    """With identical copies, the legal list has the first set of cards of each text; a move
    of the same text made of other copies (an interned one, or one made by hand) passes those
    first copies, as the reference does."""
    game = rulekit.loads(JOKERS)
    reference = _reference("jokers", None, 3, monkeypatch)
    deck = game.ruleset(3).deck
    jokers = [c for c in range(deck.size) if deck.texts[c] == "joker"]
    table = next(v for v in _namespace(game.ruleset(3)).values() if isinstance(v, codegen_passes.PassMoves))
    tried = 0
    for seed in range(200):
        ours, theirs = game.new_game(3, seed=seed), reference.new_game(3, seed=seed)
        held = [c for c in jokers if ours.hands[0] >> c & 1]
        if len(held) < 2:
            continue
        legal = ours.legal_moves()
        texts = [m.text for m in legal]
        assert len(texts) == len(set(texts)) == len(theirs.legal_moves())
        lowest = next(m for m in legal if m.text.count("joker") == 1)
        assert lowest.arg >> held[0] & 1
        cards = sorted(c for c in range(deck.size) if (lowest.arg ^ 1 << held[0] | 1 << held[1]) >> c & 1)
        for other in (table[tuple(cards)], Move("pass", sum(1 << c for c in cards), lowest.text)):
            assert other.text == lowest.text and other is not lowest
            state = ours.clone()
            state.apply(other)
            assert state.pending[0] == lowest.arg
        ours.apply(table[tuple(cards)])
        theirs.apply(lowest.text)
        assert ours.view() == theirs.view() and ours.pending == theirs.pending
        tried += 1
    assert tried >= 5, tried


def test_the_table_of_pass_moves_forgets_past_its_limit_and_plays_on(monkeypatch):
    from rulekit.compile import codegen_cache
    monkeypatch.setattr(codegen_passes.PassMoves, "LIMIT", 30)
    monkeypatch.setattr(codegen_cache, "read", lambda key: None)       # made anew, and not kept:
    monkeypatch.setattr(codegen_cache, "write", lambda key, entry: None)   # the bound shapes the source
    game = _load("hearts")
    reference = _reference("hearts", None, 4, monkeypatch)
    for seed in (21, 22):
        _both_ways(game.new_game(4, seed=seed), reference.new_game(4, seed=seed), seed, 300)
    table = next(v for v in _namespace(game.ruleset(4)).values() if isinstance(v, codegen_passes.PassMoves))
    assert 0 < len(table) <= 30 and all(type(m) is table.kind for m in table.values())


def test_pass_moves_are_coded_for_the_history_as_they_are_made():
    """A round's seal finds every move it has seen coded (engine/history.py): a pass move is
    coded when the table makes it, so the round that first plays it pays no registering."""
    game = rulekit.load("insidious-sevens")
    state = _at(game, 4, 31, steps.Pass)
    codes = state.rules.move_codes
    for move in state.legal_moves():
        assert codes.moves[move._code - codes.base] is move
    table = next(v for v in _namespace(state.rules).values() if isinstance(v, codegen_passes.PassMoves))
    assert table.coded and table.codes is codes


def test_a_move_space_too_large_to_code_whole_is_coded_as_played():
    big = JOKERS.replace("ranks 1..8", "ranks 1..40").replace("deal 5 each", "deal 12 each").replace(
        "tricks 5", "tricks 12").replace('game "Jokers passed"', 'game "Many cards passed"')
    game = rulekit.loads(big)
    state = game.new_game(4, seed=3)
    table = next(v for v in _namespace(state.rules).values() if isinstance(v, codegen_passes.PassMoves))
    assert not table.coded and table.codes is None
    assert all(getattr(m, "_code", None) is None for m in state.legal_moves())
    state.playout(seed=4, round_only=True)               # the first round is sealed as it ends
    passed = [t for t in state.history if t.startswith("pass")]
    coded = [t for t in state.rules.move_codes.texts if t.startswith("pass")]
    assert len(passed) == 4 and sorted(coded) == sorted(set(passed))       # the played ones only


@pytest.mark.parametrize("name", ["jokers", "insidious-sevens"])
def test_the_highest_bidder_is_the_first_seat_whose_bid_card_ranks_highest(name):
    """The card bids' highest bidder (the trump's suit and the first leader of a game like
    Insidious Sevens) against the rule it stands for: the first seat, in seat order, whose
    bid card has the highest key, copies (equal keys) and every table size included."""
    game = _load(name)
    rng = random.Random(3)
    for players in game.players:
        rules = game.ruleset(players)
        tricks = next(step for step in rules.steps if isinstance(step, steps.Tricks))    # first led by highest bidder
        key = rules.deck.key
        state = game.new_game(players, seed=1)
        for _ in range(300):
            state.bid_cards = [rng.randrange(rules.deck.size) for _ in range(players)]
            expected = max(range(players), key=lambda seat: key[state.bid_cards[seat]])
            assert tricks.first(state) == expected


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_a_ranked_list_reads_every_set_of_cards_of_a_hand_in_the_order_of_combinations(count):
    """`Ranked`: a hand's passes read at the ranks of its sets of cards are the table's
    moves for `combinations(cards, count)`, in that order, for hands of every size (fewer
    cards than the count, exactly as many, more); blocks are made as hands first need them,
    each move the table's own (one object per set of cards, whichever path asks)."""
    from itertools import combinations
    from math import comb
    size = 14
    table = codegen_passes.PassMoves("pass", tuple(f"c{card}" for card in range(size)), comb(size, count))
    ranked = codegen_passes.Ranked(table, count, size)
    rng = random.Random(count)
    for _ in range(300):
        cards = tuple(sorted(rng.sample(range(size), rng.randrange(size + 1))))
        hand = sum(1 << card for card in cards)
        if hand & ranked.missing:
            ranked.fill(hand)
        assert not hand & ranked.missing
        ranks = [sum(comb(card, place) for place, card in enumerate(combo, 1)) for combo in combinations(cards, count)]
        got = [ranked.moves[rank] for rank in ranks]
        assert got == [table[combo] for combo in combinations(cards, count)]
        assert all(a is b for a, b in zip(got, map(table.__getitem__, combinations(cards, count))))
    assert ranked.missing == 0 and None not in ranked.moves and len(table) == comb(size, count)


@pytest.mark.parametrize("count", [2, 3, 4])
def test_a_ranked_block_is_made_in_rank_order_and_coded_in_that_order(count):
    """`Ranked.fill` makes a block (the sets under one highest card) in colex order, the
    order of their ranks: the block's slice of the ranked list holds the table's move of
    each set at its rank, and the moves were made and coded in that order, one burst."""
    from itertools import combinations
    from math import comb
    from rulekit.engine.history import MoveCodes
    size = 12
    table = codegen_passes.PassMoves("pass", tuple(f"c{card}" for card in range(size)), comb(size, count))
    codes = MoveCodes()
    table.use(codes)
    ranked = codegen_passes.Ranked(table, count, size)
    ranked.fill((1 << size) - 1)
    for top in range(count - 1, size):
        low, high = comb(top, count), comb(top + 1, count)
        block = ranked.moves[low:high]
        sets = sorted((combo for combo in combinations(range(size), count) if combo[-1] == top),
                      key=lambda combo: sum(comb(card, place) for place, card in enumerate(combo, 1)))
        assert block == [table[combo] for combo in sets]
        marks = [move._code for move in block]
        assert marks == list(range(marks[0], marks[0] + len(block)))
    assert len(codes) == comb(size, count)


def test_the_moves_a_burst_makes_are_those_made_one_by_one_and_coded():
    """`PassMoves.burst` makes the moves of many sets at once, with the texts, masks and
    class `__missing__` gives them, keeps the ones already made, and codes the new ones."""
    game = rulekit.load("insidious-sevens")
    state = _at(game, 4, 31, steps.Pass)
    table = next(v for v in _namespace(state.rules).values() if isinstance(v, codegen_passes.PassMoves))
    texts = table.texts
    made = table[(0, 1)]
    table.burst([(0, 1), (0, 2), (5, 7, 9)])
    assert table[(0, 1)] is made
    for combo in ((0, 2), (5, 7, 9)):
        move = table[combo]
        assert type(move) is table.kind and move.arg == sum(1 << c for c in combo)
        assert move.text == "pass " + ", ".join(texts[c] for c in combo)
        assert state.rules.move_codes.moves[move._code - state.rules.move_codes.base] is move


def test_a_whole_table_of_pieces_holds_what_the_table_filled_on_first_use_makes():
    """`_whole` (a short run's pieces, made at load) against `Filled` of `Shifted` (made as
    asked for): for every part of every run of a deck, the same items in the same order."""
    rules = rulekit.load("insidious-sevens").ruleset(4)
    bids = next(step for step in rules.steps if isinstance(step, steps.BidCard)).table
    for run in bids.runs:
        shift = (run & -run).bit_length() - 1
        width = (run >> shift).bit_length()
        for item, make in ((bids.moves.__getitem__, bids.run_moves), (int, codegen_passes._card_tuple)):
            whole = codegen_passes._whole(item, shift, width)
            filled = codegen_passes.Filled(codegen_passes.Shifted(make, shift))
            assert len(whole) == 1 << width
            assert all(whole[part] == filled[part] for part in range(1 << width))
