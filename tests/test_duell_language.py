"""The grid-game part of the rule language: how the shipped rule file reads, what the checker
says about grid rules that cannot work, and that a new placement game is a rule file only.

Reference: docs/language-grid.md.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import rulekit
from rulekit.engine import grid

ROOT = Path(__file__).resolve().parent.parent
RULES = (ROOT / "rules" / "duell-der-tiere.rules").read_text(encoding="utf-8")
PACKAGE = ROOT / "rulekit"
#: Words of the game that must not appear in the engine (not even in comments).
GAME_WORDS = ("duell", "instinkt", "moth", "owl", "wolf", "crow", "deer", "snake", "raccoon",
              "jackalope", "spider", "bat", "cat")


def problems(text: str) -> str:
    with pytest.raises(rulekit.RuleError) as caught:
        rulekit.loads(text)
    return str(caught.value)


def test_the_engine_never_names_the_game_or_its_animals():
    """'rulekit/ must not name the game or its animals anywhere.'"""
    for path in PACKAGE.rglob("*"):
        if path.suffix not in (".py", ".lark") or "rules" in path.parts[len(PACKAGE.parts):-1]:
            continue
        text = path.read_text(encoding="utf-8").lower()
        for word in GAME_WORDS:
            assert not re.search(rf"\b{word}s?\b", text), f"{path.relative_to(ROOT)} names {word!r}"


def test_the_rule_file_lists_every_card_like_the_card_overview():
    """Each card line of the rule file starts with the card's name and number, in the order of
    the rulebook's 'Cards Overview', and quotes its sentence."""
    decks = RULES[RULES.index("player decks"):RULES.index("\n}\n")]
    names = re.findall(r"^  ([a-z]+) (\d+|X)\b", decks, flags=re.M)
    assert names == [("crow", "1"), ("bat", "2"), ("moth", "3"), ("spider", "4"), ("cat", "6"), ("owl", "7"),
                     ("wolf", "8"), ("jackalope", "9"), ("deer", "10"), ("raccoon", "11"), ("snake", "X")]
    for card in ("Crow (1)", "Bat (2)", "Moth (3)", "Spider (4/5)", "Cat (6)", "Owl (7)", "Wolf (8)",
                 "Jackalope (9)", "Deer (10)", "Raccoon (11)", "Snake (X)"):
        assert f'"{card}' in RULES


BASE = RULES


def edit(old: str, new: str) -> str:
    assert old in BASE, old
    return BASE.replace(old, new)


@pytest.mark.parametrize("text, message", [
    (edit("players 2", "players 2..3"), "2 colours of decks need exactly 2 players"),
    (edit("spider 4, spider 5", "spider 4, spider 4"), "two cards are both `spider 4`"),
    (edit("spider 4, spider 5", "spider 4, spider X"), "two cards are both `spider`"),
    (edit("cat 6 ", "display 6 "), "`display` is a word of the rule language and cannot name a card"),
    (edit("cat 6 ", "white 6 "), "`white` is both a colour and a card"),
    (edit("when placed, move one own other card", "when placed, remove both revealed cards"),
     "`remove ... revealed cards` happens `when revealed`, not `when placed`"),
    (edit("when placed, move one own other card", "when drawn, move one own other card"),
     "unknown moment for an effect `drawn`"),
    (edit("move one own other card", "move one friendly card"), "`friendly` does not describe a card"),
    (edit("board 4x4, floating", "board 4x4, fixed"), "unknown kind of board `fixed`"),
    (edit("place adjacent8", "place adjacent6"), "unknown placement rule `adjacent6`"),
    (edit("board 4x4", "board 30x30"), "a board of 900 cells is too large"),
    (edit("tiebreaker to a random player", "shuffle each deck"), "ties go to the tie-breaker holder, but nobody gets the token"),
    (edit("  reveal\n", "\n"), "cards are placed before they are revealed"),
    (edit("highest number first", "highest colour first"), "unknown card attribute `colour`"),
    (edit("draw 5 each, keep 3", "draw 5 each, keep 5"), "keeping 5 of 5 drawn cards keeps them all"),
    (edit("draw 3 each", "draw 13 each"), "cannot draw 13 cards from a deck of 12"),
    (edit("the rest to the bottom", "the rest to the middle"), "unknown place in the deck `middle`"),
    (edit("  draw 1 each\n}", "  draw 1 each\n  deal 3 each\n}"), "a round either plays tricks or places cards"),
    (edit("scores count(adjacent8, opponent)", "scores count(adjacent8, opponent) > 2"),
     "expected a number here, found a condition"),
])
def test_grid_rules_that_cannot_work_are_reported(text, message):
    assert message in problems(text)


def test_grid_sections_need_player_decks():
    text = 'game "Board only"\nplayers 2\ndeck { suits red\n ranks 1..3 }\nboard 3x3, floating\nend after 1 rounds\n'
    assert "`board` needs cards that players own" in problems(text)


def test_a_variant_replaces_one_setup_clause():
    """`variant draft { setup { draw 5 each, keep 3, ... } }` keeps the shuffle and the token."""
    game = rulekit.load("duell-der-tiere", variant="draft")
    names = [step.name for step in game.ruleset(2).steps]
    assert names == ["shuffle", "keep", "return", "tiebreaker", "choose", "reveal", "place", "draw"]


SMALL = """
game "Three in a Garden"
players 2

player decks red, blue {
  sun 1        scores if in centre then 3 else 0
  bee 2        scores count(adjacent8, flower)
  flower 3, flower 4
               scores if any(adjacent4, own and bee) then 2 else 0
  gust 5       is placed by sliding into a row or column
  squirrel 6   when placed, move one own other card
  frost X      when revealed, remove both revealed cards
}

board 3x3, floating, place adjacent4

setup {
  shuffle each deck
  draw 2 each
  tiebreaker to a random player
}

round {
  choose a card, simultaneous
  reveal
  place revealed cards, lowest number first, ties to tiebreaker holder
  draw 1 each
}

score at end -> sum(display, own, points)
end when count(display) = 9
winner highest score, then lowest sum(hand, number)
"""


def test_a_new_placement_game_is_a_rule_file_and_nothing_else():
    """The architecture: 'a new trick-taking or placement game is a new rule file and nothing
    else'. A 3x3 board with orthogonal placement, the lowest card first, no token passing."""
    game = rulekit.loads(SMALL)
    for seed in range(20):
        state = game.new_game(players=2, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_moves()))
        view = state.view()
        assert state.winners
        assert len(view["display"]) == 9 or not any(view["hands"])
        spots = [(e["row"], e["col"]) for e in view["display"]]
        assert grid.is_connected(spots, 4) and grid.fits(spots, 3, 3)


def test_lowest_first_and_a_token_that_stays():
    game = rulekit.loads(SMALL)
    state = game.restore({"players": 2, "phase": "choose", "current_player": 0, "tiebreaker": 1,
                          "hands": [["bee", "sun"], ["bee", "flower 3"]],
                          "display": [{"row": 0, "col": 0, "card": "sun", "owner": 1}]})
    state.apply("choose bee")
    state.apply("choose bee")
    assert state.current_player == 1                 # equal numbers: the holder first
    assert [str(m) for m in state.legal_moves()] == [  # `place adjacent4`: no diagonals
        "place bee at -1,0", "place bee at 0,-1", "place bee at 0,1", "place bee at 1,0"]
    state.apply("place bee at 0,1")
    assert state.view()["tiebreaker"] == 1           # this rule does not pass the token
    assert state.current_player == 0
