"""The history of finished rounds is kept as codes (`rulekit/engine/history.py`).

What must hold: every reader of the history (`history`, views, restore, pickling, clones,
determinize, the seat handle) sees exactly the moves made, in order, whether they are in the
coded past or in the current round; clones share the past and never disturb each other; a
game past 256 distinct moves switches to two bytes a move; a full code table leaves rounds
uncoded rather than failing.
"""
from __future__ import annotations

import pickle
import random
from array import array
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import rulekit
from rulekit.engine import history as h
from rulekit.engine.moves import Move
from rulekit.engine.state import State

GAMES = {name: rulekit.load(name) for name in rulekit.bundled()}
TABLE = rulekit.load("instinct", variant="table")
RULES = Path(__file__).resolve().parent.parent / "rules"


def play(state, moves: int, rng: random.Random, recorded: list[str]) -> None:
    """Random legal moves through the public API, each one's text noted in `recorded`."""
    for _ in range(moves):
        if state.is_terminal:
            return
        legal = state.legal_moves()
        move = legal[rng.randrange(len(legal))]
        recorded.append(move.text)
        state.apply(move)


def sample_game(name: str = "instinct"):
    """Any player count the game allows (its first, for a one-count game)."""
    game = GAMES[name]
    return game, (4 if 4 in game.players else game.players[0])


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_history_is_every_move_made_in_order_across_rounds(name):
    game, n = sample_game(name)
    for seed in range(3):
        state, rng, recorded = game.new_game(players=n, seed=seed), random.Random(seed), []
        while not state.is_terminal and state.round < 4:
            play(state, 1, rng, recorded)
            assert state.history == recorded
            assert h.count(state) == len(recorded)
        assert state.round > 1 or state.is_terminal
        assert len(state._past) > 0, "a finished round's moves are coded"
        assert [m.text for m in h.all_moves(state)] == recorded
        for start in (0, 1, len(state._past) - 1, len(state._past), len(recorded)):
            assert [m.text for m in h.moves_from(state, start)] == recorded[start:]
        assert h.move_at(state, -1).text == recorded[-1]
        assert h.move_at(state, 0).text == recorded[0]


def test_interned_moves_decode_to_the_same_objects():
    game, n = sample_game()
    state, rng = game.new_game(players=n, seed=7), random.Random(7)
    made = []
    while state.round == 1:
        legal = state.legal_moves()
        made.append(legal[rng.randrange(len(legal))])
        state.apply(made[-1])
    assert len(state._past) == len(made) and state._history == []
    assert all(a is b for a, b in zip(h.all_moves(state), made))


def test_a_clone_shares_the_past_and_plays_on_alone():
    game, n = sample_game()
    state, rng, recorded = game.new_game(players=n, seed=11), random.Random(11), []
    while state.round < 3:
        play(state, 1, rng, recorded)
    play(state, 5, rng, recorded)
    copy = state.clone()
    assert copy._past is state._past
    theirs = list(recorded)
    while copy.round < 5 and not copy.is_terminal:
        play(copy, 1, rng, theirs)
    assert state.history == recorded
    assert copy.history == theirs and theirs[:len(recorded)] == recorded


@pytest.mark.parametrize("name", sorted(GAMES))
def test_pickled_and_restored_states_keep_the_whole_history(name):
    game, n = sample_game(name)
    state, rng, recorded = game.new_game(players=n, seed=5), random.Random(5), []
    while not state.is_terminal and state.round < 3:
        play(state, 1, rng, recorded)
    again = pickle.loads(pickle.dumps(state))
    assert again.history == recorded and again.view() == state.view()
    restored = game.restore(state.view())
    assert restored.history == recorded
    play(restored, 60, random.Random(1), list(recorded))        # and it plays on into new rounds
    assert restored.history[:len(recorded)] == recorded


def test_a_restored_history_is_coded_at_once_and_reads_back_as_texts():
    """A restore codes the view's history texts straight into the past (no Move per entry),
    as the moves of kind "?" that a restore has always made of them: every reader sees the
    same texts, a clone shares them, and the restored game plays on and packs its rounds."""
    game = GAMES["instinct"]
    state, recorded = game.new_game(players=4, seed=6), []
    play(state, 500, random.Random(6), recorded)
    restored = game.restore(state.view())
    assert restored._history == [] and len(restored._past) == len(recorded)
    assert restored.history == recorded and h.count(restored) == len(recorded)
    moves = h.all_moves(restored)
    assert [m.text for m in moves] == recorded and {m.kind for m in moves} == {"?"}
    assert h.moves_from(restored, 100)[0].text == recorded[100] and h.move_at(restored, -1).text == recorded[-1]
    twice = game.restore(state.view())
    assert twice._past == restored._past                     # the same texts, the same codes
    copy = restored.clone()
    play(copy, 120, random.Random(1), list(recorded))
    assert copy.round > restored.round and copy.history[:len(recorded)] == recorded
    assert restored.history == recorded


def test_a_restored_history_in_any_spelling_reads_back_normalized():
    """Texts are compared normalized (case, spaces): an odd spelling codes as its normal
    form, and only normal forms are remembered by text, so odd spellings cannot grow the
    table's look-up past one entry a code."""
    table = h.MoveCodes()
    rules = type("Rules", (), {"move_codes": table})()
    texts = ["bid 2", "play blue 9", "seat 1: play red 3"]
    odd = ["  BID   2", "Play Blue 9 ", "Seat 1:  PLAY red 3"]
    past, current = h.restored(rules, odd + texts + odd)
    assert current == [] and list(past) == [0, 1, 2] * 3
    assert [m.text for m in table.moves] == texts and {m.kind for m in table.moves} == {"?"}
    assert sorted(table._by_text) == sorted(texts)
    assert h.restored(rules, []) == (h.EMPTY, [])


def test_a_full_table_restores_the_history_as_moves(monkeypatch):
    """With no room left in the code table, a restored history waits as a list of moves."""
    game = GAMES["instinct"]
    state, recorded = game.new_game(players=4, seed=8), []
    play(state, 80, random.Random(8), recorded)
    view = state.view()
    monkeypatch.setattr(h, "MAX_CODES", 0)
    monkeypatch.setattr(state.rules, "move_codes", h.MoveCodes())
    restored = game.restore(view)
    assert restored._past == h.EMPTY and [m.text for m in restored._history] == recorded
    assert restored.history == recorded


def test_a_replay_of_the_history_gives_the_same_game():
    game, n = sample_game()
    state, rng = game.new_game(players=n, seed=2), random.Random(2)
    play(state, 300, rng, [])
    again = game.new_game(players=n, seed=2)
    for text in state.history:
        again.apply(text)
    assert again.view() == state.view()


def test_moves_out_of_turn_are_coded_by_text_and_read_back():
    """Table play records a move out of turn as a fresh `seat N: move`: coded by its text."""
    state, rng = TABLE.new_game(players=4, seed=3), random.Random(3)
    recorded = []
    while state.round < 3 and not state.is_terminal:
        seat = rng.randrange(4)
        legal = [m for m in state.legal_moves(seat=seat) if not m.text.startswith("challenge")]
        if not legal:
            continue
        move = rng.choice(legal)
        before = state.current_player
        state.apply(move, seat=seat)
        recorded.append(move.text if seat == before else f"seat {seat}: {move.text}")
    assert any(t.startswith("seat ") for t in recorded)
    assert state.history == recorded
    again = TABLE.new_game(players=4, seed=3)
    for text in state.history:
        again.apply(text)
    assert again.view() == state.view()


def test_the_seat_handle_and_determinize_see_the_coded_past():
    game, n = sample_game()
    state, rng = game.new_game(players=n, seed=4), random.Random(4)
    while state.round < 3:
        play(state, 1, rng, [])
    play(state, 3, rng, [])
    seat = state.current_player
    handle = state.for_seat(seat)
    assert [text for _, text in handle.history] == state.history      # nothing secret in instinct
    sample = state.determinize(seat, seed=1)
    assert sample.history == state.history and sample.view(seat) == state.view(seat)
    assert sample._past == h.EMPTY           # a sample's moves are what its seat saw, uncoded
    play(sample, 80, random.Random(9), [])   # and it plays on through round ends
    assert sample.history[:h.count(state)] == state.history


def test_the_information_state_replays_the_coded_past():
    game, n = sample_game()
    state, rng = game.new_game(players=n, seed=8), random.Random(8)
    while state.round < 3:
        play(state, 1, rng, [])
    play(state, 2, rng, [])
    copy = game.new_game(players=n, seed=8)
    for text in state.history:
        copy.apply(text)
    copy._past, copy._history = h.EMPTY, h.all_moves(state)     # the same moves, none coded
    assert (state.information_state(0) == copy.information_state(0)).all()


# ---- the code table ---------------------------------------------------------------------

def test_past_256_codes_a_past_takes_two_bytes_a_move():
    table = h.MoveCodes()
    moves = [Move("bid", i, f"bid {i}") for i in range(300)]
    past = h.extend(h.EMPTY, table.encode(moves[:10]))
    assert type(past) is bytes and list(past) == list(range(10))
    wider = h.extend(past, table.encode(moves[10:]))
    assert isinstance(wider, array) and wider.typecode == "H" and list(wider) == list(range(300))
    assert list(past) == list(range(10)), "the shared past is never changed"
    assert table.decode(wider) == moves and all(a is b for a, b in zip(table.decode(wider), moves))
    assert list(h.extend(wider, [1])) == list(range(300)) + [1]
    assert list(wider) == list(range(300)), "a wide shared past is never changed either"
    for code in (-1, h.MAX_CODES):
        with pytest.raises(OverflowError):
            h.extend(wider, [code])


@pytest.mark.parametrize("generated", [True, False], ids=["generated", "reference"])
@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_last_round_of_a_game_is_not_packed_and_reads_back_the_same(name, generated, monkeypatch):
    """A round's moves are packed when the game goes on after it: those of the round that ends
    the game stay in the current list, by the generated end of round and `Ruleset.end_round`."""
    from rulekit.compile import codegen
    monkeypatch.setattr(codegen, "ENABLED", generated)
    game = GAMES[name] if generated else rulekit.loads((RULES / f"{name}.rules").read_text())
    n = 4 if 4 in game.players else game.players[0]
    for seed in range(3):
        state, recorded = game.new_game(players=n, seed=seed), []
        assert (type(state) is not State) is generated
        rng = random.Random(seed)
        while not state.is_terminal:
            round_before, packed = state.round, len(state._past)
            play(state, 1, rng, recorded)
        assert len(state._past) == packed and state._history, "the game's last round stays as moves"
        assert round_before == state.round and state.history == recorded
        clone = pickle.loads(pickle.dumps(state))
        assert clone.history == recorded and clone.is_terminal


def test_equal_moves_share_a_code_and_different_kinds_do_not():
    table = h.MoveCodes()
    first, same = Move("play", 3, "play blue 9"), Move("play", 3, "play blue 9")
    seen = Move("seen", 1, "play blue 9")
    assert table.encode([first, same, seen, first]) == [0, 0, 1, 0]
    assert len(table) == 2 and table.decode([1])[0].kind == "seen"
    assert table.encode([Move("keep", [1, 2], "keep x")]) == [2]          # a payload that does not hash


def test_moves_coded_together_get_the_codes_and_marks_one_by_one_gives(monkeypatch):
    """`MoveCodes.add` (moves made in bulk, a pass table's) against `encode`: the same codes,
    texts and marks; a batch with a move an equal one coded before, a repeated move, a marked
    one, a payload that does not hash, or too many for the table takes `encode`'s path."""
    def made(count, start=0):
        return [Move("pass", 1 << card, f"pass c{card}") for card in range(start, start + count)]

    together, alone = h.MoveCodes(), h.MoveCodes()
    for table in (together, alone):
        table.encode([Move("bid", 1, "bid 1")])
    batch, single = made(5), made(5)
    together.add(batch)
    assert alone.encode(single) == [1, 2, 3, 4, 5]
    assert together.texts == alone.texts and together.encode(batch) == [1, 2, 3, 4, 5]
    assert [m._code - together.base for m in batch] == [m._code - alone.base for m in single]
    assert together.decode([3])[0] is batch[2]

    again = made(2, start=4)               # `pass c4` is coded already: its code is kept
    together.add(again)
    assert [m._code - together.base for m in again] == [5, 6] and len(together) == 7
    twice = made(1, start=9) * 2
    together.add(twice)
    assert twice[0]._code - together.base == 7 and len(together) == 8
    unhashable = [Move("keep", [1, 2], "keep x")]
    together.add(unhashable)
    assert together.decode([8])[0] is unhashable[0] and len(together) == 9
    monkeypatch.setattr(h, "MAX_CODES", 10)
    full = made(3, start=20)
    together.add(full)                     # one fits, then the table is full
    assert len(together) == 10 and full[0]._code - together.base == 9
    assert not hasattr(full[1], "_code") and together.encode(full) is None


def test_a_full_table_leaves_the_round_uncoded(monkeypatch):
    """A table with no room left (restores of hostile histories could fill one) codes no new
    move: a round that plays one stays uncoded, beside the codes the generated steps append
    (the moves a rule set codes up front, its bids and cards), and every reader sees it all."""
    game = rulekit.load("insidious-sevens")             # its pass moves: coded as its rounds make them
    monkeypatch.setattr(h, "MAX_CODES", len(game.ruleset(4).move_codes))
    state, recorded = game.new_game(players=4, seed=1), []
    play(state, 200, random.Random(1), recorded)
    assert state.round > 2 and len(state._history) > 2 * h.SEAL_AT       # rounds left uncoded
    assert any(type(m) is int for m in state._history) and any(type(m) is not int for m in state._history)
    assert state.history == recorded and [m.text for m in h.all_moves(state.clone())] == recorded


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.integers(0, 2**31), st.integers(0, 400))
def test_any_game_reads_back_every_move_after_any_number_of_moves(name, seed, moves):
    game, n = sample_game(name)
    state, recorded = game.new_game(players=n, seed=seed), []
    play(state, moves, random.Random(seed), recorded)
    assert state.history == recorded
    assert h.count(state) == len(recorded)
    assert [m.text for m in h.all_moves(state.clone())] == recorded


def test_a_late_instinct_state_is_small():
    """Issue #16: a 4-player Instinct state in round 21 under 4 KB (benchmarks/sizes.py)."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from sizes import deep_size

    state, rng = GAMES["instinct"].new_game(players=4, seed=3), random.Random(3)
    while not state.is_terminal and (state.round <= 20 or len(state.trick) < 2):
        legal = state.legal_moves()
        state.apply(legal[int(rng.random() * len(legal))])
    assert state.round == 21
    assert deep_size(state, exclude=state.rules) < 4_000


def test_a_code_from_another_table_is_not_trusted():
    """A move coded by one rule set's table carries that table's mark; another table codes
    it by kind, payload and text instead, and decodes to an equal move."""
    first, second = h.MoveCodes(), h.MoveCodes()
    moves = [Move("bid", i, f"bid {i}") for i in range(5)]
    assert first.encode(moves) == [0, 1, 2, 3, 4]
    other = Move("play", 9, "play x")
    assert second.encode([other, moves[3]]) == [0, 1]
    assert second.encode([moves[3], other]) == [1, 0]
    back = second.decode([1])[0]
    assert (back.kind, back.arg, back.text) == ("bid", 3, "bid 3")
    assert first.decode(first.encode(moves)) == moves


def test_a_copied_move_carries_no_code():
    table = h.MoveCodes()
    move = Move("bid", 2, "bid 2")
    table.encode([move])
    for copy_ in (pickle.loads(pickle.dumps(move)), __import__("copy").copy(move)):
        assert (copy_.kind, copy_.arg, copy_.text) == ("bid", 2, "bid 2")
        assert not hasattr(copy_, "_code")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_playout_keeps_every_move_through_the_round_ends(name):
    """The engine's own playout (generated walks included) appends to the round's list while
    round ends seal it: the history must still replay to the same game."""
    game, n = sample_game(name)
    for seed in range(3):
        state = game.new_game(players=n, seed=seed)
        made = state.playout(seed=seed)
        assert h.count(state) == made and state.is_terminal
        again = game.new_game(players=n, seed=seed)
        for text in state.history:
            again.apply(text)
        assert again.view() == state.view()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_moves_generated_steps_append_as_codes_are_coded_by_their_own_rule_set(name):
    """A generated trick step or number bid appends `move._code & 65535`, not the move: every such
    move is coded up front by the table of its own rule set (each player count, each variant)."""
    from rulekit.engine.cardsets import MoveTable
    from rulekit.engine.steps import BidNumber
    game, checked = GAMES[name], 0
    for variant in [None, *game.variants]:
        for n in game.players:
            rules = (game if variant is None else rulekit.load(name, variant=variant)).ruleset(n)
            for step in rules.steps:
                table = getattr(step, "table", None)
                moves = step.moves if isinstance(step, BidNumber) else table.moves if isinstance(table, MoveTable) else []
                for move in moves:
                    assert rules.move_codes.moves[move._code & 65535] is move
                    assert move._code >> 16 == rules.move_codes.base >> 16
                    checked += 1
    assert checked or name == "duell-der-tiere"        # (a grid game: its moves are appended as they are)


def test_codes_and_moves_mixed_in_a_round_read_back_and_seal_alike():
    """Moves made by their text (the engine's own path appends the Move) among moves made by
    the interned objects (the generated path appends their codes): the round reads back in
    order, is sealed at its end, and a clone reads the same."""
    game, rng = GAMES["instinct"], random.Random(9)
    state, recorded = game.new_game(players=4, seed=9), []
    while state.round < 3:
        legal = state.legal_moves()
        move = legal[rng.randrange(len(legal))]
        recorded.append(move.text)
        state.apply(move.text if rng.random() < 0.3 else move)
        if state.round == 1 and len(state._history) > 8:
            kinds = {type(entry) is int for entry in state._history}
            assert kinds == {True, False}
            assert state.history == recorded
    assert len(state._past) == len(recorded) - len(state._history) and state.history == recorded
    assert all(type(entry) is int or isinstance(entry, Move) for entry in state._history)
    assert state.clone().history == recorded and h.all_moves(state)[-1].text == recorded[-1]
