"""The generated end of a grid game (compile/codegen_grid_end.py, codegen_grid_points.py): the
points of the cards on the display, the final scores and the winners, written out as plain code over the display's
bit masks, must give exactly what the compiler's closures give (`RULEKIT_CODEGEN=0`, the
reference `Ruleset.finish`), on random positions.

Rulebook (shared/rulebooks/duell-der-tiere.txt): "Go through each of the cards from left to
right, top to bottom. If the conditions of the cards are fulfilled, they score points." "The
player with the most points wins! In case of a tie, the player who scored points with more
cards wins. If there is still a tie, add up the numbers on the cards in your hand – the player
with the highest total wins."
"""
from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st_

import rulekit
from rulekit.compile import codegen
from rulekit.compile.game import Ruleset

from codegen_check import assert_only_generator_names

ROOT = Path(__file__).resolve().parent.parent
DUELL = (ROOT / "rules" / "duell-der-tiere.rules").read_text()

#: two cards that copy each other (a copy cycle), and game-level sets of every kind
COPIES = """
extend "duell-der-tiere"
player decks black, white {
  mirror 1  scores max(adjacent4, points)
  echo 2    scores max(adjacent4, points)
  seed 3    scores 2
  stone 4, stone 5, stone 6
}
score at end -> sum(display, own, points) + count(corners, own and points = 0)
winner highest score, then lowest count(display, opponent and points >= 2), then highest min(hand, own, number)
end when count(display) = 12
"""

#: rules that read rows, columns, edges, numbers and points of other cards
LINES = """
extend "duell-der-tiere"
player decks black, white {
  mirror 1  scores count(row - column, not own) * 2 - count(edges, other)
  echo 2    scores sum(row, own and other, points) + min(adjacent8, opponent, number)
  seed 3    scores if in corner or on edge then count(display, seed) else 3
  stone 4, stone 5
  stone 6   scores all(adjacent4, own) and any(column, opponent) then 5 else 1
}
table bonus { 0: 4, 1..3: 2, else: 0 }
score at end -> max(display, own, points) * 2 + sum(edges - corners, own and not stone, number) + bonus[count(corners, own)]
winner lowest score, then highest count(hand + display, own and 0 < points), then highest sum(hand, number)
end when count(display) = 12 or max(score) > 1000
"""
LINES = LINES.replace("all(adjacent4, own) and any(column, opponent) then 5 else 1",
                      "if count(adjacent4, own) > 1 and any(column, opponent) then 5 else 1")

TEXTS = {"duell": DUELL, "copies": COPIES, "lines": LINES}
#: the grid games written for the generator's tests, where present (other boards and placings)
TEXTS.update({path.stem: path.read_text() for path in sorted((ROOT / "tests" / "grid_games").glob("*.rules"))})


def _games(text: str, monkeypatch):
    generated = rulekit.loads(text, base_dir=str(ROOT / "rules"))
    with monkeypatch.context() as patch:
        patch.setattr(codegen, "ENABLED", False)
        reference = rulekit.loads(text, base_dir=str(ROOT / "rules"))
        reference.ruleset(2)
    return generated, reference


def _finish_of(rules):
    """The generated end of the game of a rule set (a function of its generated module)."""
    space = rules.end_round.__globals__
    return next(fn for name, fn in space.items() if name.startswith("finish_"))


def _position(game, cells, cards, hands):
    """A view: `cards` (per seat, texts) laid on `cells` in order, `hands` kept in hand."""
    rules = game.ruleset(2)
    texts, owner = rules.deck.texts, rules.grid.owner
    display = [{"row": r, "col": c, "card": texts[card], "owner": owner[card]} for (r, c), card in zip(cells, cards)]
    held = [[texts[card] for card in hands if owner[card] == seat] for seat in range(2)]
    return {"players": 2, "phase": "choose", "current_player": 0, "hands": held, "display": display}


def _connected(cells, adjacency: int) -> bool:
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        r, c = todo.pop()
        for dr, dc in itertools.product((-1, 0, 1), repeat=2):
            near = (r + dr, c + dc)
            if adjacency == 4 and dr and dc:
                continue
            if near in cells and near not in seen:
                seen.add(near)
                todo.append(near)
    return len(seen) == len(cells)


@pytest.fixture(scope="module")
def pairs():
    patch = pytest.MonkeyPatch()
    made = {name: _games(text, patch) for name, text in TEXTS.items()}
    patch.undo()
    return made


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st_.sampled_from(sorted(TEXTS)), data=st_.data())
def test_generated_points_scores_and_winners_equal_the_closures_on_random_positions(pairs, name, data):
    generated, reference = pairs[name]
    same_end_at_a_random_position(generated, reference, data)


def same_end_at_a_random_position(generated, reference, data) -> None:
    """A random display and hands (`data`: Hypothesis's) restored in both games: the same
    view (the display's points), and the same scores and winners when the game ends there
    (by the generated `finish`, or the rules' own when the generator wrote none: no card
    of the game has a rule)."""
    size, config = generated.ruleset(2).deck.size, generated.ruleset(2).grid.config
    board = [(r, c) for r in range(config.rows) for c in range(config.cols)]
    # no more cells than cards: each cell of the view holds one (the connection is checked on
    # the cells that are filled)
    cells = data.draw(st_.permutations(board))[:data.draw(st_.integers(1, min(len(board) - 1, size)))]
    if not _connected(cells, config.adjacency):
        cells = cells[:1]
    order = data.draw(st_.permutations(range(size)))
    cards, hands = order[:len(cells)], order[len(cells):len(cells) + data.draw(st_.integers(0, 6))]
    view = _position(generated, cells, cards, hands)
    ours, theirs = generated.restore(view), reference.restore(view)
    assert ours.view() == theirs.view()          # the display's points, through the generated code
    space = getattr(ours.rules.end_round, "__globals__", {})
    finish = _finish_of(ours.rules) if any(name.startswith("finish_") for name in space) else ours.rules.finish
    finish(ours, True)
    Ruleset.finish(theirs.rules, theirs, True)
    assert (ours.scores, ours.winners, ours.is_terminal) == (theirs.scores, theirs.winners, True)


def _play_both(generated, reference, seeds, *, records: bool = False) -> None:
    """Random games to the end, the same moves on the generated game and on the closures';
    the final scores, winners and views compared, and with `records` every round's record."""
    import random

    for seed in seeds:
        ours, theirs = generated.new_game(2, seed=seed), reference.new_game(2, seed=seed)
        rng = random.Random(seed)
        while not theirs.is_terminal:
            move = rng.choice(theirs.legal_moves()).text
            ours.apply(move)
            theirs.apply(move)
            if records:
                assert ours.last_round == theirs.last_round
        assert ours.is_terminal and (ours.scores, ours.winners) == (theirs.scores, theirs.winners)
        assert ours.view() == theirs.view()


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_the_generated_end_plays_every_game_as_the_closures(pairs, name):
    """Random games to their end: every round's record and the final scores and winners."""
    generated, reference = pairs[name]
    _play_both(generated, reference, range(8), records=True)


def test_a_rounds_record_made_when_read_is_the_one_the_closures_keep(pairs):
    """A grid round that won no points leaves only its number (`State.last_round` makes the
    record when read): read late, from a clone, or twice, it is the reference's record, and
    the same dict each time."""
    import random

    generated, reference = pairs["duell"]
    for seed in range(6):
        ours, theirs = generated.new_game(2, seed=seed), reference.new_game(2, seed=seed)
        rng, seen = random.Random(seed), 0
        while not theirs.is_terminal:
            move = rng.choice(theirs.legal_moves()).text
            ours.apply(move)
            theirs.apply(move)
            if not ours.is_terminal and ours.round > 1 and rng.random() < 0.3:
                assert ours._last_round.__class__ in (int, dict)
                seen += ours._last_round.__class__ is int
                copy = ours.clone()
                record = ours.last_round
                assert record == theirs.last_round == copy.last_round and record is ours.last_round
        assert ours.last_round == theirs.last_round and ours.view() == theirs.view()
        assert ours._last_round.__class__ is dict         # the last round's, made as the game ended
    assert seen


def test_the_end_of_a_grid_game_is_generated_as_plain_code():
    source = codegen.source_of(rulekit.load("duell-der-tiere").ruleset(2))
    assert "def end_round_" in source and "def finish_" in source and "def display_points_" in source
    # `end when count(display) = 16` and `sum(display, own, points)` are written out, not called
    assert "gs.mask.bit_count() == 16" in source and "sum(map(points.get, CARDS_" in source
    # `winner highest score` reads the scores list itself: one seat with the top score wins at once
    assert "found = st.scores\n    top = max(found)\n    if found.count(top) == 1:" in source
    assert_only_generator_names(source)


HOSTILE = ["__import__", "exec", "eval", "os", "system", "st", "gs", "memo", "seat", "cards", "h", "c",
           "display_points_1", "RULES_2", "__class__", "globals", "print"]


@pytest.mark.parametrize("shift", range(0, len(HOSTILE), 3))
def test_hostile_card_and_colour_names_never_become_code(shift, monkeypatch):
    names = (HOSTILE[shift:] + HOSTILE[:shift])[:5]
    a, b, c, d, e = [name.lower() for name in names]
    text = f"""
extend "duell-der-tiere"
player decks {a}, {b} {{
  {c} 1  scores count(adjacent8, {d}) + max(adjacent4, own, points)
  {d} 2  scores if in corner then count(row + column, own and {c}) else 1
  {e} 3  scores 2
  spare 4, spare 5, spare 6
}}
score at end -> sum(display, own and not {e}, points)
winner highest score, then highest count(display, {d} and points > 0)
end when count(display) = 12
"""
    ran = []
    monkeypatch.setattr("os.system", lambda *args: ran.append(args))
    generated, reference = _games(text, monkeypatch)
    assert_only_generator_names(codegen.source_of(generated.ruleset(2)))
    _play_both(generated, reference, range(3))
    assert not ran


def test_a_large_board_s_neighbours_are_a_shifted_pattern_and_score_as_the_closures(monkeypatch):
    """On a frame past `NEAR_TABLE_CELLS` cells (a 20x20 board) the generated rules find a
    card's neighbours by a shifted pattern, not a table of a mask per cell; scores, winners
    and records are the closures'."""
    text = DUELL.replace("board 4x4, floating", "board 20x20, floating").replace(
        "end when count(display) = 16", "end when count(display) = 24")
    generated, reference = _games(text, monkeypatch)
    source = codegen.source_of(generated.ruleset(2))
    assert "NEAR_PATTERN_" in source and not re.search(r"^NEAR_\d+ = ", source, re.M)
    _play_both(generated, reference, range(4), records=True)


@pytest.mark.parametrize("name", ["duell", "copies", "lines"])
def test_the_points_of_a_deck_past_the_unrolled_bound_are_worked_out_in_loops(name, monkeypatch):
    """A deck of more than `_UNROLLED` cards gets the rules' loops over the display's cards
    instead of a few lines per card: the same scores and winners as the closures."""
    import linecache

    from rulekit.compile import codegen_cache, codegen_grid_points

    monkeypatch.setattr(codegen_grid_points, "_UNROLLED", 0)
    monkeypatch.setattr(codegen_cache, "read", lambda key: None)     # made anew, and not kept
    monkeypatch.setattr(codegen_cache, "write", lambda key, entry: None)
    generated, reference = _games(TEXTS[name], monkeypatch)
    source = "".join(linecache.getlines(generated.ruleset(2).generated))
    assert "    while cards:\n" in source and "    if mask >> 0 & 1:\n" not in source
    _play_both(generated, reference, range(6))
