"""Each card's scoring condition in Instinkt: Duell der Tiere, on hand-built displays.

Rulebook: shared/rulebooks/duell-der-tiere.txt, "Cards Overview". Displays are set up with
`Game.restore` and read back through the view, whose display entries carry each card's
points. Pictures: one token per cell, `.` for an empty cell, else the owner's colour letter
(B black = seat 0, W white = seat 1) and the card (`Bspider4` is black's spider 4).
"""
from __future__ import annotations

import random
import re

import pytest

import rulekit

GAME = rulekit.load("duell-der-tiere")
NUMBERS = {"crow": 1, "bat": 2, "moth": 3, "spider 4": 4, "spider 5": 5, "cat": 6, "owl": 7, "wolf": 8,
           "jackalope": 9, "deer": 10, "raccoon": 11, "snake": 0}


def display(picture: str, top: int = 0, left: int = 0) -> list[dict]:
    """Display entries from a picture (see the module docstring)."""
    out = []
    for r, line in enumerate(picture.strip().splitlines()):
        for c, token in enumerate(line.split()):
            if token == ".":
                continue
            card = re.sub(r"(\D)(\d)$", r"\1 \2", token[1:])
            out.append({"row": top + r, "col": left + c, "card": card, "owner": "BW".index(token[0])})
    return out


def position(picture: str = "", *, hands=((), ()), phase: str = "choose", current: int = 0,
             top: int = 0, left: int = 0, game=GAME, **more) -> rulekit.State:
    """A state with this display and hands; cards not named lie in their owner's deck."""
    data = {"players": 2, "phase": phase, "current_player": current,
            "hands": [list(h) for h in hands], "display": display(picture, top, left) if picture else []}
    data.update(more)
    return game.restore(data)


def points(state) -> dict:
    """(row, col) -> points of the card there."""
    return {(e["row"], e["col"]): e["points"] for e in state.view()["display"]}


def points_of(picture: str, row: int, col: int) -> int:
    return points(position(picture))[row, col]


# ---- Crow ------------------------------------------------------------------------------------

CROW = """
Bcrow  Wmoth  Bdeer
Bowl   Bmoth  Bcat
Wdeer  Wowl   Bwolf
"""


def test_crow_one_point_for_one_moth_three_for_both():
    """'Crow (1): 1 point if your own or your opponent's Moth is horizontally, vertically or
    diagonally adjacent to it OR 3 points, if both Moths are adjacent to it.'"""
    assert points_of(CROW, 0, 0) == 3                       # both moths: beside and diagonal
    assert points_of(CROW.replace("Wmoth", "Wbat "), 0, 0) == 1     # only its own, diagonal
    assert points_of(CROW.replace("Bmoth", "Bbat "), 0, 0) == 1     # only the opponent's
    assert points_of(CROW.replace("Wmoth", "Wbat ").replace("Bmoth", "Bbat "), 0, 0) == 0


def test_crow_counts_only_adjacent_moths():
    """A Moth two spaces away is not adjacent."""
    assert points_of("Bcrow Bbat Wmoth", 0, 0) == 0


# ---- Bat -------------------------------------------------------------------------------------

def test_bat_scores_with_own_crow_beside_it():
    """'Bat (2): 3 points if your own Crow is vertically or horizontally adjacent to it.'"""
    assert points_of("Bbat Bcrow", 0, 0) == 3
    assert points_of("Bbat\nBcrow", 0, 0) == 3


def test_bat_not_with_diagonal_or_opponents_crow():
    assert points_of("Bbat Bdeer\nWdeer Bcrow", 0, 0) == 0   # own crow only diagonal
    assert points_of("Bbat Wcrow", 0, 0) == 0                # the opponent's crow


# ---- Moth ------------------------------------------------------------------------------------

FULL = """
Bdeer  Braccoon  Bsnake  Bcrow
Wdeer  Bmoth     Wcrow   Wbat
Wraccoon Wsnake  Bbat    Wowl
Bowl   Wwolf     Bwolf   Wcat
"""


def test_moth_three_points_when_the_only_moth_in_the_centre():
    """'Moth (3): 2 points if it is one of the 4 cards in the center OR 3 points if it is also
    the only Moth out of these 4 cards.'"""
    assert points_of(FULL, 1, 1) == 3


def test_two_moths_in_the_centre_score_two_each():
    """Both Moths among the centre four: neither is the only one, so each scores 2."""
    both = FULL.replace("Wcrow", "Wmoth")
    assert points_of(both, 1, 1) == 2 and points_of(both, 1, 2) == 2


def test_moth_outside_the_centre_scores_nothing():
    moved = FULL.replace("Bmoth", "Bcat ").replace("Bdeer", "Bmoth")
    assert points_of(moved, 0, 0) == 0


# ---- Spiders -----------------------------------------------------------------------------------

SPIDERS = """
Bspider4 Braccoon Bsnake  Bspider5
Wdeer    Bmoth    Wcrow   Wbat
Wraccoon Wsnake   Bbat    Wowl
Bowl     Wwolf    Bwolf   Wcat
"""


def test_both_own_spiders_in_corners_score_three_each():
    """'Spider (4/5): 2 points if it is in any corner of the display OR 3 points if both of your
    own Spiders are in any 2 corners of the display. In that case, each of these Spiders scores
    3 points.'"""
    got = points(position(SPIDERS))
    assert got[0, 0] == 3 and got[0, 3] == 3


def test_one_spider_in_a_corner_scores_two():
    one = SPIDERS.replace("Bspider5", "Bcrow   ").replace("Bbat", "Bspider5")
    got = points(position(one))
    assert got[0, 0] == 2 and got[2, 2] == 0


def test_an_opponents_spider_in_the_other_corner_does_not_make_three():
    mixed = SPIDERS.replace("Bspider5", "Wspider5").replace("Wbat", "Bcat")
    got = points(position(mixed))
    assert got[0, 0] == 2 and got[0, 3] == 2


# ---- Cat, Owl, Wolf ------------------------------------------------------------------------------

def test_cat_scores_on_an_edge_but_not_in_a_corner():
    """'Cat (6): 3 points if it is on the edge of the display but not in a corner.'"""
    assert points_of(FULL, 3, 3) == 0                                    # white cat in a corner
    on_edge = """
Bdeer  Braccoon  Bsnake  Bcrow
Wdeer  Bmoth     Wcrow   Wbat
Wraccoon Wsnake  Bbat    Wowl
Bowl   Wcat      Bwolf   Wwolf
"""
    assert points_of(on_edge, 3, 1) == 3                                 # on the bottom edge
    assert points_of(FULL.replace("Bbat", "Bcat"), 2, 2) == 0            # in the centre


def test_owl_counts_own_cards_in_its_row_and_column_not_itself():
    """'Owl (7): 1 point for each of your own cards in its row and column. The Owl itself
    doesn't count.'"""
    got = points(position(FULL))
    assert got[3, 0] == 2            # black owl: Bwolf in its row, Bdeer in its column
    assert got[2, 3] == 4            # white owl: Wraccoon, Wsnake in its row; Wbat, Wcat in its column


def test_wolf_counts_adjacent_opponents_cards():
    """'Wolf (8): 1 point for each of your opponent's cards that is vertically, horizontally and
    diagonally adjacent to it.'"""
    got = points(position(FULL))
    assert got[3, 2] == 4            # black wolf: Wsnake, Wowl, Wwolf, Wcat (not its own Bbat)
    assert got[3, 1] == 3            # white wolf: Bowl, Bbat, Bwolf (not Wraccoon, Wsnake)


# ---- Jackalope -------------------------------------------------------------------------------------

def test_jackalope_copies_the_best_own_neighbour():
    """'Jackalope (9): Copy the points from exactly 1 of your own cards that is vertically or
    horizontally adjacent to it.' A careful player copies the card worth most."""
    got = points(position("Bcrow Bbat Wowl\n. Bjackalope Bwolf"))
    assert got[0, 1] == 3 and got[1, 2] == 1                     # bat (own crow beside), wolf (one owl)
    assert got[1, 1] == 3                                        # copies the bat, not the wolf


def test_jackalope_without_a_scoring_own_neighbour_scores_nothing():
    assert points_of("Bbat Bjackalope Bcrow\n. Wwolf .", 0, 1) == 0       # own neighbours score 0
    assert points_of("Bjackalope Wbat\nBdeer Wcrow", 0, 0) == 0            # the 3-point bat is white's
    got = points(position("Bjackalope Wdeer .\nWraccoon Bbat Bcrow"))
    assert got[1, 1] == 3 and got[0, 0] == 0                     # the own bat is only diagonal


def test_cards_with_effects_score_nothing():
    """'Deer (10): No points.' 'Raccoon (11): No points.' 'Snake (X): No points.'"""
    got = points(position("Bdeer Braccoon Bsnake\nWmoth Wcrow Wbat"))
    assert got[0, 0] == got[0, 1] == got[0, 2] == 0


# ---- the tie example ----------------------------------------------------------------------------

TIE = """
Wspider5 Bspider4  Bcat   Wowl
Wwolf    Wjackalope Bowl  Wdeer
Bcrow    Bmoth     Bwolf  Wcat
Bspider5 Bjackalope Wcrow Wbat
"""
#: The points each card scores in TIE, as worked out by hand from the card overview.
TIE_POINTS = [[2, 0, 3, 4], [3, 3, 2, 0], [1, 3, 5, 3], [2, 3, 1, 3]]


def test_tie_display_scores_as_worked_out_by_hand():
    got = points(position(TIE))
    assert [[got[r, c] for c in range(4)] for r in range(4)] == TIE_POINTS


def test_rulebook_tie_example_white_wins_on_hand_total():
    """'You both scored 19 points. You both scored with 7 cards so there is still a tie. You each
    add up the numbers on the cards in your hand and the result is 14 to 12 – white wins!'
    'Note: The Snake with the X counts as 0.'

    The last round, played through the engine: both place their last card, draw, and the
    game ends with the display full."""
    before = "\n".join(line for line in TIE.strip().splitlines())
    before = before.replace("Wbat", ".").replace("Bspider5", ".")
    state = position(before, hands=(["snake", "deer"], ["snake", "raccoon"]), phase="place",
                     revealed=["spider 5", "bat"], decks=[["bat", "raccoon"], ["moth", "spider 4"]],
                     current=0, tiebreaker=0, round=8)
    assert state.view()["to_place"] == [0, 1]               # 5 beats 2: black places first
    state.apply("place spider 5 at 3,0")
    state.apply("place bat at 3,3")
    assert state.is_terminal
    view = state.view()
    assert view["scores"] == [19, 19]
    scoring = [sum(1 for e in view["display"] if e["owner"] == seat and e["points"] > 0) for seat in (0, 1)]
    assert scoring == [7, 7]
    totals = [sum(NUMBERS[c] for c in hand) for hand in view["hands"]]
    assert totals == [12, 14]
    assert state.winners == [1]


def test_equal_hand_totals_share_the_win():
    """When points, scoring cards and hand totals are all equal, both win: the rulebook names
    no further tie-break (the same reading as the other shipped games)."""
    state = position(TIE, hands=(["raccoon"], ["raccoon"]), scores=[19, 19])
    assert state.rules.winners_of(state) == [0, 1]
    state = position(TIE, hands=(["raccoon"], ["moth"]), scores=[19, 19])
    assert state.rules.winners_of(state) == [0]


# ---- the Jackalope's copy is its owner's best choice ------------------------------------------

def _reads_points(expr) -> bool:
    from rulekit.dsl.nodes import walk
    return any(getattr(node, "name", None) == "points" for node in walk(expr))


def test_copying_the_best_neighbour_is_the_owners_best_choice():
    """'Jackalope (9): Copy the points from exactly 1 of your own cards that is vertically or
    horizontally adjacent to it.' The owner picks; `max(adjacent4, own, points)` is that pick
    because (1) no other card's rule reads points, so the copy changes nothing but the
    Jackalope's own points, and (2) the owner's result only rises with them: the score, then
    the count of own cards that scored, then the hand. Checked on the rule file and on the
    engine's final displays."""
    from pathlib import Path

    from rulekit.dsl import nodes as n
    from rulekit.dsl.parser import parse

    text = (Path(rulekit.__file__).parent.parent / "rules" / "duell-der-tiere.rules").read_text()
    items = parse(text).items
    decks = next(i for i in items if isinstance(i, n.PlayerDecks))
    readers = [card for card in decks.cards for clause in card.clauses
               if isinstance(clause, n.CardScores) and _reads_points(clause.expr)]
    assert [h.name.text for card in readers for h in card.heads] == ["jackalope"]
    copy = next(c for c in readers[0].clauses if isinstance(c, n.CardScores)).expr
    assert copy.func == "max" and [a.name for a in copy.args] == ["adjacent4", "own", "points"]
    winner = next(i for i in items if isinstance(i, n.Winner))
    assert [k.pick for k in winner.keys] == ["highest"] * 3      # more points never hurt the owner

    rng = random.Random(9)
    for seed in range(40):
        state = GAME.new_game(players=2, seed=seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_moves()))
        at = {(e["row"], e["col"]): e for e in state.view()["display"]}
        for (r, c), entry in at.items():
            if entry["card"] != "jackalope":
                continue
            mine = [at[p]["points"] for p in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                    if p in at and at[p]["owner"] == entry["owner"]]
            assert entry["points"] == max(mine, default=0)
