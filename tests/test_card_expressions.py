"""Card sets in expressions: count, any, all, sum, max, min over sets of cards, with conditions
and values about one member card; in trick games (`taken`, `hand`) and in grid games (the
display and the places around a card); static checks and the copy-cycle rule.

The language page: docs/language-grid.md, "Card sets".
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulekit

ROOT = Path(__file__).resolve().parent.parent

TRICKS = """
game "Sets"
players 2..4
deck {
  suits clubs, diamonds, hearts, spades
  ranks 2..14
  card joker
  order rank
}
round {
  dealer random, then next
  deal 5 each
  tricks 5, first led by dealer, then by winner
}
follow { otherwise -> same suit as lead if able }
trick winner { otherwise -> highest card of lead suit }
score { otherwise -> EXPR }
end after 1 rounds
"""


def trick_value(expr: str, hands, taken, seat: int = 0) -> int:
    """What the score rule `otherwise -> expr` gives `seat` with these hands and taken cards."""
    game = rulekit.loads(TRICKS.replace("EXPR", expr))
    state = game.restore({"players": len(hands), "phase": "play", "current_player": 0,
                          "hands": [list(h) for h in hands], "taken": [list(t) for t in taken]})
    return state.rules.score(state, seat)


def problems(text: str) -> str:
    with pytest.raises(rulekit.RuleError) as caught:
        rulekit.loads(text)
    return str(caught.value)


HANDS = (["hearts 2", "hearts 14", "spades 12", "joker"], ["clubs 3"])
TAKEN = (["hearts 5", "spades 11", "clubs 12", "diamonds 12"], ["hearts 9", "diamonds 4"])


# ---- trick games: hand and taken ---------------------------------------------------------------

@pytest.mark.parametrize("expr, value", [
    ("count(taken)", 4),
    ("count(taken, hearts)", 1),
    ("count(taken, spades and number = 11)", 1),
    ("count(taken, number = 12)", 2),
    ("count(taken, not hearts and not joker)", 3),
    ("count(hand, hearts or spades)", 3),
    ("sum(hand, number)", 28),                    # 2 + 14 + 12; the joker has no number: 0
    ("sum(hand, hearts, number)", 16),
    ("max(hand, number)", 14),
    ("min(hand, not joker, number)", 2),
    ("max(taken, joker, number)", 0),             # no such card: 0
    ("if any(hand, joker) then 10 else 0", 10),
    ("if all(hand, hearts) then 1 else 0", 0),
    ("if all(taken, number > 4) then 1 else 0", 1),
    ("count(hand + taken, spades)", 2),
    ("count(hand - taken, hearts)", 2),
])
def test_card_sets_of_one_player(expr, value):
    """A set is read for the seat being scored: its hand, the cards it took in tricks."""
    assert trick_value(expr, HANDS, TAKEN) == value


def test_card_sets_differ_by_seat():
    assert trick_value("count(taken, hearts)", HANDS, TAKEN, seat=1) == 1
    assert trick_value("count(hand)", HANDS, TAKEN, seat=1) == 1


def test_seat_folds_keep_their_meaning():
    """`sum(hand)` with one argument still folds the hand sizes over the seats, and `hand`
    alone is still the number of cards in hand."""
    assert trick_value("sum(hand)", HANDS, TAKEN) == 5
    assert trick_value("hand + 1", HANDS, TAKEN) == 5
    assert trick_value("max(count(hand, hearts))", HANDS, TAKEN) == 2


def test_mask_and_per_card_conditions_agree():
    """Conditions made of card words become bit masks, others are asked card by card; the
    two ways give the same counts."""
    rng = random.Random(7)
    deck = [f"{s} {r}" for s in ("clubs", "diamonds", "hearts", "spades") for r in range(2, 15)]
    for _ in range(20):
        cards = rng.sample(deck, 12)
        taken = (cards[:6], cards[6:])
        split = trick_value("count(taken, hearts and number > 9)", ([], []), taken)
        per_card = trick_value("count(taken, number > 9 and hearts)", ([], []), taken)
        by_hand = sum(1 for c in taken[0] if c.startswith("hearts") and int(c.split()[1]) > 9)
        assert split == per_card == by_hand


def test_heart_hunt_example_scores_every_heart_taken():
    """examples/heart-hunt.rules: 'Every heart taken is a point and the queen of spades is five'.
    With four players the whole deck is dealt, so each deal gives out 13 + 5 points."""
    game = rulekit.load(ROOT / "examples" / "heart-hunt.rules")
    for seed in range(3):
        state = game.new_game(players=4, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_moves()))
        assert sum(state.scores) == 4 * 18


# ---- grid games -----------------------------------------------------------------------------------

COPIES = """
extend "duell-der-tiere"
player decks black, white {
  mirror 1  scores max(adjacent4, points)
  echo 2    scores max(adjacent4, points)
  seed 3    scores 2
  stone 4, stone 5, stone 6
}
end when count(display) = 12
"""


def grid_points(text: str, entries) -> dict:
    game = rulekit.loads(text)
    state = game.restore({"players": 2, "phase": "choose", "current_player": 0, "hands": [[], []],
                          "display": [{"row": r, "col": c, "card": card, "owner": o} for r, c, card, o in entries]})
    return {(e["row"], e["col"]): e["points"] for e in state.view()["display"]}


def test_a_copy_cycle_reads_zero_for_the_card_being_worked_out():
    """Two cards that copy each other: cards are scored left to right, top to bottom ('Go
    through each of the cards from left to right, top to bottom'); the first asks the second,
    which finds the first still being worked out and reads 0 for it."""
    got = grid_points(COPIES, [(0, 0, "mirror", 0), (0, 1, "echo", 0), (1, 0, "seed", 0)])
    assert got == {(0, 0): 2, (0, 1): 0, (1, 0): 2}
    got = grid_points(COPIES, [(0, 0, "echo", 1), (0, 1, "mirror", 0), (1, 0, "seed", 1)])
    assert got == {(0, 0): 2, (0, 1): 0, (1, 0): 2}


def test_regions_and_lines_of_the_board():
    text = COPIES.replace("mirror 1  scores max(adjacent4, points)",
                          "mirror 1  scores count(row + column, other) * 10 + count(display - corners)")
    got = grid_points(text, [(0, 0, "mirror", 0), (0, 1, "echo", 0), (1, 1, "seed", 0), (1, 0, "stone 4", 1)])
    # mirror: row 0 holds echo, column 0 holds stone -> 2; the box is 2x2, all four in corners -> 0
    assert got[0, 0] == 20


@pytest.mark.parametrize("expr, values", [
    ("sum(display, own, points)", [4, 2]),
    ("count(display, own and points > 0)", [2, 1]),
    ("count(display, points >= 2 and own)", [2, 1]),
    ("count(display, 1 < points)", [3, 3]),
    ("count(hand + display, own and points = 0)", [1, 2]),   # a card in hand scores 0
])
def test_conditions_on_points_outside_card_rules(expr, values):
    """'Go through each of the cards ... If the conditions of the cards are fulfilled, they
    score points': outside card rules every card's points are known first, and a condition
    on them picks the cards at once (cards off the board score 0)."""
    game = rulekit.loads(COPIES + f"\nscore at end -> {expr}\n")
    display = [(0, 0, "seed", 0), (0, 1, "mirror", 0), (1, 0, "echo", 1), (1, 1, "stone 4", 1)]
    state = game.restore({"players": 2, "phase": "choose", "current_player": 0,
                          "hands": [["stone 5"], ["seed"]],
                          "display": [{"row": r, "col": c, "card": card, "owner": o} for r, c, card, o in display]})
    assert [e["points"] for e in state.view()["display"]] == [2, 2, 2, 0]
    assert [state.rules.final_score(state, seat) for seat in (0, 1)] == values


@pytest.mark.parametrize("text", [(ROOT / "rules" / "duell-der-tiere.rules").read_text(), COPIES,
                                  COPIES.replace("mirror 1  scores max(adjacent4, points)",
                                                 "mirror 1  scores count(row - column, not own) * 2 - count(edges, other)")])
def test_written_out_card_rules_score_as_their_closures(text, monkeypatch):
    """The card rules run as the generated module writes them (compile/codegen_grid_points.py):
    'If the conditions of the cards are fulfilled, they score points' exactly as the compiled
    closures say (the generator switched off)."""
    from rulekit.compile import codegen

    written = rulekit.loads(text)
    written.new_game(players=2, seed=0)
    monkeypatch.setattr(codegen, "ENABLED", False)
    plain = rulekit.loads(text)
    plain.new_game(players=2, seed=0)
    monkeypatch.undo()
    for seed in range(12):
        a, b = written.new_game(players=2, seed=seed), plain.new_game(players=2, seed=seed)
        rng = random.Random(seed)
        while not a.is_terminal:
            move = rng.choice(a.legal_moves()).text
            a.apply(move)
            b.apply(move)
            assert a.view() == b.view()
        assert (a.scores, a.winners) == (b.scores, b.winners)


@pytest.mark.parametrize("card_rule, message", [
    ("scores sum(row, own, points)", "this card's points would depend on its own points"),
    ("scores points", "a card's rule cannot read its own points"),
    ("scores count(adjacent8, friendly)", "unknown name `friendly`"),
    ("scores count(adjacent8, moth, 2)", "count takes a set and maybe a condition"),
    ("scores if in middle then 1 else 0", "unknown place on the board `middle`"),
    ("scores adjacent8", "`adjacent8` is a set of cards"),
    ("scores if other then 1 else 0", "`other` compares a card with the card whose rule or set this is"),
])
def test_card_rules_are_checked(card_rule, message):
    text = COPIES.replace("seed 3    scores 2", f"seed 3    {card_rule}")
    assert message in problems(text)


def test_a_copy_rule_that_leaves_itself_out_is_accepted():
    text = COPIES.replace("seed 3    scores 2", "seed 3    scores sum(row, own and other, points)")
    assert rulekit.loads(text).title


@pytest.mark.parametrize("expr, message", [
    ("count(display)", "the set `display` needs a `board`"),
    ("hearts", "`hearts` describes one card, and no card is meant here"),
    ("count(taken, moth)", "unknown name `moth`"),
    ("count(taken, own)", "`own` needs cards owned by players"),
    ("sum(taken, other, number)", "`other` compares a card with the card whose rule or set this is"),
    ("points", "`points` needs cards with `scores` rules on a board"),
    ("taken", "`taken` is a set of cards, not a number"),
    ("if in corner then 1 else 0", "needs a `board`"),
])
def test_expressions_in_trick_games_are_checked(expr, message):
    assert message in problems(TRICKS.replace("EXPR", expr))


def test_a_set_around_one_card_needs_a_card():
    text = 'extend "duell-der-tiere"\nend when count(adjacent8) = 16\n'
    assert "`adjacent8` is around one card, and no card is meant here" in problems(text)
