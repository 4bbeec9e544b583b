"""The generated turn of a round (compile/codegen_round.py, codegen_grid_end.py and the grid
round's tail in codegen_grid_tail.py): the round's record, the end test, the packing of the
history and the reset for the next round, written only for what the game uses, must leave
every state exactly as `Ruleset.end_round`, `Ruleset.reset_round` and `State.advance` do.

Issue 16: "A game that does not use a mechanism pays nothing for it"; "seeded games must
stay identical".
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulekit
from rulekit.compile import codegen, codegen_cache, codegen_grid_end, codegen_round
from rulekit.compile.codegen_round import RESETS
from rulekit.engine import history

from test_codegen import GAMES, IDS, _players, _reference, reference_of

ROOT = Path(__file__).resolve().parent.parent
DUELL = str(ROOT / "rules" / "duell-der-tiere.rules")
GRIDS = [DUELL] + [str(p) for p in sorted((ROOT / "tests" / "grid_games").glob("*.rules"))]
TRICKS = [str(ROOT / "rules" / name) for name in ("instinct.rules", "insidious-sevens.rules")]
FIELDS = [field for field, _ in RESETS]


def _end_round_source(path) -> str:
    game = rulekit.load(path)
    return _end_round_text(codegen.source_of(game.ruleset(_players(game))))


def _end_round_text(source: str) -> str:
    """The generated `end_round_N` of a module's source."""
    start = source.index("\ndef end_round_")
    return source[start:source.index("\nclass ", start)]


def test_a_grid_game_resets_only_the_round_fields_its_steps_write():
    source = _end_round_source(DUELL)
    # the choices are emptied by the reveal after the round's choosing: nothing to reset
    assert "st.revealed = False" in source and "st.pending = " not in source
    for field in set(FIELDS) - {"revealed"}:
        assert f"st.{field} = " not in source, field


def test_the_choices_a_reveal_empties_are_not_reset_and_are_as_the_engine_leaves_them(monkeypatch):
    reveal = codegen_grid_end.gsteps.RevealCards
    game = rulekit.load(DUELL)
    rules = game.ruleset(2)
    assert codegen_grid_end._left_fresh(rules) == ("pending",)
    kinds = [getattr(type(step), "generated_from", type(step)) for step in rules.steps]
    assert kinds.index(reveal) > kinds.index(codegen_grid_end.gsteps.ChooseCard)
    for seed in range(5):                   # every round starts with no choice made
        state = game.new_game(2, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            if state.step == rules.round_start:
                assert state.pending == [None, None] or state._history
            state.apply(rng.choice(state.legal_moves()))


def test_a_grid_game_with_a_step_the_table_does_not_know_resets_every_field(monkeypatch):
    writes = dict(codegen_grid_end._WRITES)
    del writes[next(kind for kind in writes if kind.__name__ == "PlaceCards")]
    monkeypatch.setattr(codegen_grid_end, "_WRITES", writes)
    monkeypatch.setattr(codegen_cache, "read", lambda key: None)       # made anew, and not kept
    monkeypatch.setattr(codegen_cache, "write", lambda key, entry: None)
    game = rulekit.loads(Path(DUELL).read_text(), file=DUELL, base_dir=str(ROOT / "rules"))
    source = codegen.source_of(game.ruleset(2))
    start = source.index("\ndef end_round_")
    source = source[start:source.index("\nclass ", start)]
    for field in FIELDS:     # `taken` is kept as its masks and the tricks won since (`State.taken`)
        assert f"st.{codegen_round._STORED.get(field, field)} = " in source, field


@pytest.mark.parametrize("path", GRIDS + TRICKS, ids=lambda p: Path(p).stem)
def test_every_round_turn_leaves_the_fields_history_and_record_of_the_reference(path, monkeypatch):
    """Round after round, the reset fields, how many moves are packed and how many wait are
    those of the hand-written round end (which resets every field and calls `seal` each
    round); the codes themselves are the rule set's own (`history.MoveCodes`)."""
    generated = rulekit.load(path)
    reference = _reference(path, None, monkeypatch)
    players = _players(generated)
    for seed in (1, 2, 3):
        ours, theirs = generated.new_game(players, seed=seed), reference.new_game(players, seed=seed)
        rng, rounds = random.Random(seed), 0
        while not theirs.is_terminal and rounds < 30:
            legal = theirs.legal_moves()
            pick = rng.randrange(len(legal))
            ours.apply(ours.legal_moves()[pick])
            theirs.apply(legal[pick])
            if ours.round != rounds:
                rounds = ours.round
                assert [getattr(ours, f) for f in FIELDS] == [getattr(theirs, f) for f in FIELDS]
                assert (len(ours._past), len(ours._history)) == (len(theirs._past), len(theirs._history))
                assert ours.last_round == theirs.last_round and ours.current_player == theirs.current_player
        assert ours.view() == theirs.view() and ours.history == theirs.history


def test_a_round_whose_choices_leave_nothing_to_place_turns_as_the_reference(monkeypatch):
    """Duell's snake removes both revealed cards: the round goes on to its draws and its end
    straight from the choosing (the generated tail), as `State.advance` takes it."""
    generated, reference = rulekit.load(DUELL), _reference(DUELL, None, monkeypatch)
    turned = 0
    for seed in range(40):
        ours, theirs = generated.new_game(2, seed=seed), reference.new_game(2, seed=seed)
        rng = random.Random(seed)
        while not theirs.is_terminal:
            legal = theirs.legal_moves()
            pick, before = rng.randrange(len(legal)), theirs.round
            ours.apply(ours.legal_moves()[pick])
            theirs.apply(legal[pick])
            if theirs.round != before and legal[pick].kind == "choose":
                turned += 1
                assert ours.view() == theirs.view() and ours._step == theirs._step
                assert ours.extra["grid"].queue == theirs.extra["grid"].queue == []
    assert turned > 0


def test_short_rounds_wait_to_be_packed_until_enough_moves_wait():
    game = rulekit.load(DUELL)
    state = game.new_game(2, seed=5)
    rng, waited = random.Random(5), []
    while not state.is_terminal:
        before = state.round
        state.apply(rng.choice(state.legal_moves()))
        if state.round != before and before > 1:
            waited.append(len(state._history))
    assert waited and max(waited) < history.SEAL_AT and any(w > 0 for w in waited)


@pytest.mark.parametrize("path", TRICKS, ids=lambda p: Path(p).stem)
def test_score_cases_the_generator_cannot_write_are_called_as_the_score_s_closure(path, monkeypatch):
    """Without a written form of the score's cases (`_written_cases` gives None), the round's
    points are the score's closure for each seat, and seeded games play and score as the
    hand-written steps play them."""
    reference = _reference(path, None, monkeypatch)
    with monkeypatch.context() as patch:
        patch.setattr(codegen_round, "_written_cases", lambda w, rules: None)
        patch.setattr(codegen_cache, "read", lambda key: None)         # generated anew, not read back
        patch.setattr(codegen_cache, "write", lambda key, entry: None)
        game = rulekit.loads(Path(path).read_text(), file=path, base_dir=str(Path(path).parent))
        rules = game.ruleset(_players(game))
        source = codegen.source_of(rules)
    assert "(st, seat) for seat in range(st.n)]" in _end_round_text(source)
    assert "st.bids[seat] == st.tricks_won[seat]" not in _end_round_text(source)
    _lockstep(game, reference, _players(game), (1, 2), _same_scores)


def _same_scores(ours, theirs):
    assert ours.scores == theirs.scores and ours.last_round == theirs.last_round


def test_a_generated_round_end_leaves_its_record_as_values_read_as_the_dict():
    """The record of the round just finished is left as a tuple of its values (no dict made
    at each round's end); `last_round` reads it as the contract's dict, the same one each time,
    with the round's own bids and tricks and the scores as they stood."""
    state, rng = rulekit.load("instinct").new_game(4, seed=12), random.Random(12)
    while state.round == 1:
        bids, scores = list(state.bids), list(state.scores)
        state.apply(rng.choice(state.legal_moves()))
    assert state._last_round.__class__ is tuple
    record = state.last_round
    assert record is state.last_round and record is state._last_round
    assert list(record) == ["round", "bids", "tricks_won", "points", "scores"]
    assert record["round"] == 1 and record["bids"] == bids and sum(record["tricks_won"]) == 11
    assert record["scores"] == [s + p for s, p in zip(scores, record["points"])] == state.scores
    assert state.view()["last_round"] == record


def _lockstep(game, reference, players, seeds, check):
    """Seeded random games of `game` and its `reference` played move for move; `check(ours,
    theirs)` after every move."""
    for seed in seeds:
        ours, theirs = game.new_game(players, seed=seed), reference.new_game(players, seed=seed)
        rng = random.Random(seed)
        while not theirs.is_terminal:
            legal = theirs.legal_moves()
            pick = rng.randrange(len(legal))
            ours.apply(ours.legal_moves()[pick])
            theirs.apply(legal[pick])
            check(ours, theirs)
        assert ours.is_terminal and ours.winners == theirs.winners and ours.view() == theirs.view()


def _instinct_with(old: str, new: str) -> str:
    text = (ROOT / "rules" / "instinct.rules").read_text()
    assert old in text
    return text.replace(old, new)


def test_score_cases_that_read_the_scores_are_all_known_before_any_is_added(monkeypatch):
    """A seat's points added as they are known (one loop) would change what a later seat's
    case reads: a score that reads the scores keeps every seat's points first."""
    text = _instinct_with("made   -> 10 + bonus[bid]\n  missed -> 0",
                          "made   -> 10 + bonus[bid]\n  missed -> 0 - max(score) / 10")
    game, reference = rulekit.loads(text), reference_of(text, monkeypatch)
    ending = _end_round_text(codegen.source_of(game.ruleset(4)))
    assert "for seat in range(st.n)]" in ending and "points[seat] = point" not in ending
    plain = _end_round_text(codegen.source_of(rulekit.load("instinct").ruleset(4)))
    assert "points[seat] = point" in plain and "for seat in range(st.n)]" not in plain
    lost = []

    def same_scores(ours, theirs):
        _same_scores(ours, theirs)
        if ours.last_round is not None:
            lost.extend(points for points in ours.last_round["points"] if points < 0)
    _lockstep(game, reference, 4, (1, 2, 3), same_scores)
    assert lost, "a missed bid read the scores"


def test_a_round_of_codes_past_255_is_packed_two_bytes_a_move_as_the_reference(monkeypatch):
    """The written-in packing of a round (one `bytearray()`) meets a code past 255 (a deck of 300
    cards) and then a past of two bytes a move: both go to `history.seal`, and the history
    reads back as the hand-written steps' does."""
    text = _instinct_with("ranks 1..12", "ranks 1..60")
    game, reference = rulekit.loads(text), reference_of(text, monkeypatch)
    assert "st._past + bytearray(st._history)" in _end_round_text(codegen.source_of(game.ruleset(4)))
    wide = []

    def same_history(ours, theirs):
        assert (len(ours._past), len(ours._history)) == (len(theirs._past), len(theirs._history))
        wide.append(ours.round > 1 and ours._past.__class__ is not bytes)
    _lockstep(game, reference, 4, (1, 2), same_history)
    state = game.new_game(4, seed=1)
    rng = random.Random(1)
    while state.round < 4:
        state.apply(rng.choice(state.legal_moves()))
    assert any(wide) and not isinstance(state._past, bytes)
    assert state.history == h_texts(state) and state.clone().history == state.history


def h_texts(state) -> list[str]:
    """The history's texts read move by move (`history.moves_from`), not through `State.history`."""
    return [move.text for move in history.moves_from(state, 0)]


@pytest.mark.parametrize("path,variant", GAMES, ids=IDS)
def test_an_enter_written_in_is_the_one_the_installed_step_runs(path, variant):
    """The generated code enters a number bid or a plain trick step by the lines of
    `codegen_round.ENTERS` instead of calling the step's `enter`: that is right only while
    the step, once its generated class is installed, still runs that very `enter`."""
    game = rulekit.load(path, variant=variant)
    for players in game.players:
        for step in game.ruleset(players).steps:
            generated_from = getattr(type(step), "generated_from", type(step))
            if generated_from.enter in codegen_round.ENTERS:
                assert type(step).enter is generated_from.enter, type(step)


@pytest.mark.parametrize("kind", ["named", "left_of"])          # `dealer`, `left of dealer`
def test_a_seat_rule_s_written_source_gives_the_seat_its_closure_gives(kind):
    """The generator writes a plain seat rule's source where it enters a step (its first seat)
    instead of calling the closure: the two must give the same seat at every dealer and count."""
    from types import SimpleNamespace

    from rulekit.compile.game import _seat_fn
    from rulekit.dsl import nodes as n
    fn = _seat_fn(n.SeatRef(kind=kind, name=n.Name("dealer")), None)
    source = compile(fn.written, "<seat>", "eval")
    for players in range(2, 9):
        for dealer in range(players):
            st = SimpleNamespace(dealer=dealer, n=players)
            assert eval(source, {"__builtins__": {}}, {"st": st}) == fn(st)
