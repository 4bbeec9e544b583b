"""The round of Instinkt: Duell der Tiere through the engine: set-up, choosing, revealing,
placing (in order, with the tie-breaker token), the Deer's slide, the Raccoon's move, the
Snake, drawing, the draft variant, move texts, views, and the rulebook's gaps.

Rulebook: shared/rulebooks/duell-der-tiere.txt. The Deer and Raccoon pictures are not in the
text; the positions here are reconstructions of what the text describes (rulebook rows and
columns count from 1, display coordinates from the frame where the first card lay at 0,0).
"""
from __future__ import annotations

import random

import pytest

import rulekit
from test_duell_cards import GAME, position

CARDS = ["crow", "bat", "moth", "spider 4", "spider 5", "cat", "owl", "wolf", "jackalope", "deer",
         "raccoon", "snake"]


def legal(state) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def cells(state) -> dict:
    """(row, col) -> 'Bwolf' style token of the card there."""
    return {(e["row"], e["col"]): "BW"[e["owner"]] + e["card"].replace(" ", "")
            for e in state.view()["display"]}


def placing(picture: str, seat: int, card: str, *, top: int = 0, left: int = 0, **more):
    """A state in which `seat` must place its revealed `card` into the display."""
    revealed = [None, None]
    revealed[seat] = card
    return position(picture, phase="place", current=seat, revealed=revealed, to_place=[seat],
                    top=top, left=left, **more)


# ---- set-up ----------------------------------------------------------------------------------

def test_each_player_draws_three_from_an_own_shuffled_deck():
    """'Each shuffle your cards and place them in a deck face down.' 'Each draw 3 cards from
    your deck.'"""
    for seed in range(5):
        view = GAME.new_game(players=2, seed=seed).view()
        assert view["hand_sizes"] == [3, 3] and view["deck_sizes"] == [9, 9]
        assert view["phase"] == "choose" and view["current_player"] == 0 and view["display"] == []
        for seat in (0, 1):
            assert sorted(view["hands"][seat] + view["decks"][seat]) == sorted(CARDS)


def test_the_tiebreaker_token_goes_to_a_random_player():
    """'Flip the tiebreaker token in the air ... The player whose color is facing up takes it.'"""
    holders = {GAME.new_game(players=2, seed=seed).view()["tiebreaker"] for seed in range(20)}
    assert holders == {0, 1}


def test_the_same_seed_gives_the_same_game():
    one, two = GAME.new_game(players=2, seed=9), GAME.new_game(players=2, seed=9)
    assert one.view() == two.view()


# ---- choose and reveal -------------------------------------------------------------------------

def test_choices_are_made_face_down_and_revealed_together():
    """'Choose 1 card from your hand and place it face down in front of you.' 'Reveal your
    chosen card.'"""
    state = position(hands=(["crow", "wolf"], ["owl", "bat"]))
    state.apply("choose wolf")
    assert state.current_player == 1
    assert state.view(1)["choices"] == ["hidden", None] and state.view(1)["hands"][0] is None
    assert state.view(0)["choices"] == ["wolf", None]
    state.apply("choose owl")
    view = state.view(0)
    assert view["revealed"] == ["wolf", "owl"] and view["phase"] == "place"


def test_the_higher_number_places_first():
    """'If the number on your card is higher than the number on your opponent's card, place
    your card in the display first.'"""
    state = position(hands=(["crow"], ["wolf"]))
    state.apply("choose crow")
    state.apply("choose wolf")
    assert state.current_player == 1 and legal(state) == ["place wolf at 0,0"]
    state.apply("place wolf at 0,0")
    assert state.current_player == 0 and "place crow at 1,1" in legal(state)


def test_equal_numbers_tiebreaker_holder_first_then_passes_the_token():
    """'If the numbers on your cards are the same, the player with the tiebreaker token places
    their card first. Then pass it to your opponent.'"""
    state = position("Bdeer", hands=(["wolf"], ["wolf"]), tiebreaker=1)
    state.apply("choose wolf")
    state.apply("choose wolf")
    assert state.current_player == 1 and state.view()["tiebreaker"] == 1
    state.apply("place wolf at 0,1")
    assert state.view()["tiebreaker"] == 0 and state.current_player == 0
    state.apply("place wolf at 1,0")
    assert state.view()["tiebreaker"] == 0


def test_the_token_stays_when_numbers_differ():
    state = position("Bdeer", hands=(["wolf"], ["owl"]), tiebreaker=1)
    state.apply("choose wolf")
    state.apply("choose owl")
    state.apply("place wolf at 0,1")
    state.apply("place owl at 1,1")
    assert state.view()["tiebreaker"] == 1


@pytest.mark.parametrize("black, white", [("snake", "wolf"), ("owl", "snake"), ("snake", "snake")])
def test_a_snake_removes_both_revealed_cards(black, white):
    """'If at least one of the two cards revealed is a Snake (X), both cards are removed from
    the game. Meaning you do not place cards in the display this round. Proceed with step 4.'"""
    state = position("Bdeer", hands=([black, "crow"], [white, "bat"]))
    deck_sizes = state.view()["deck_sizes"]
    state.apply(f"choose {black}")
    state.apply(f"choose {white}")
    view = state.view()
    assert view["removed"] == [[black], [white]]
    assert [e["card"] for e in view["display"]] == ["deer"]
    assert view["phase"] == "choose" and view["round"] == 2
    assert view["hand_sizes"] == [2, 2] and view["deck_sizes"] == [d - 1 for d in deck_sizes]


# ---- placing -----------------------------------------------------------------------------------

def test_placement_must_touch_a_card_and_keep_within_four_by_four():
    """'You must place your card vertically, horizontally, or diagonally adjacent to another
    card in the display.' 'You may not place cards outside the 4x4 square.'"""
    state = placing("Bcrow Wcrow Bbat Wbat", 0, "wolf")
    spots = legal(state)
    assert spots == [f"place wolf at -1,{c}" for c in range(4)] + [f"place wolf at 1,{c}" for c in range(4)]


def test_the_display_grows_in_every_direction_in_a_fixed_frame():
    """'The first card in the display is simply placed on the table. This is not necessarily
    the middle of the display though. You will build the display bit by bit in all directions.'"""
    state = placing("Bcrow", 0, "wolf")
    assert legal(state) == [f"place wolf at {r},{c}" for r in (-1, 0, 1) for c in (-1, 0, 1) if (r, c) != (0, 0)]
    state.apply("place wolf at -1,-1")
    assert cells(state) == {(0, 0): "Bcrow", (-1, -1): "Bwolf"}


# ---- the Deer ----------------------------------------------------------------------------------

def test_deer_example_stopped_by_the_square():
    """'You slide the Deer from above into column 2 and slide all cards in this column as far as
    you can ahead of the Deer. You cannot move them further than shown because the 4x4 square
    must be maintained.'"""
    state = placing("Bcrow Wowl .\nBcat Wbat .\nWcat . .\nBwolf . .", 0, "deer")
    state.apply("slide deer into column 1 from top")
    assert cells(state) == {(0, 0): "Bcrow", (1, 0): "Bcat", (2, 0): "Wcat", (3, 0): "Bwolf",
                            (1, 1): "Bdeer", (2, 1): "Wowl", (3, 1): "Wbat"}


def test_deer_example_stopped_by_adjacency():
    """'You slide the Deer from above into column 2 ... You cannot move them further than shown
    because all cards in the display must remain adjacent to each other.'"""
    state = placing("Bcrow Wowl Bcat Wbat", 0, "deer")
    state.apply("slide deer into column 1 from top")
    assert cells(state) == {(0, 0): "Bcrow", (0, 2): "Bcat", (0, 3): "Wbat", (1, 1): "Bdeer", (2, 1): "Wowl"}


def test_deer_example_closes_the_gap():
    """'You slide the Deer from the left into row 2 and slide all cards in this row as far as
    you can ahead of the Deer. By doing so, the space between the cards is closed.'"""
    state = placing("Bcrow Wowl Bcat Wbat\nWcrow . . Bbat", 1, "deer")
    state.apply("slide deer into row 1 from left")
    assert cells(state) == {(0, 0): "Bcrow", (0, 1): "Wowl", (0, 2): "Bcat", (0, 3): "Wbat",
                            (1, 1): "Wdeer", (1, 2): "Wcrow", (1, 3): "Bbat"}


def test_deer_example_pushes_as_far_as_it_can():
    """'You slide the Deer from below into column 3 and slide all cards in this row as far as you
    can ahead of the Deer. You must slide the cards as far as you can, so afterwards, they will
    be positioned as shown.'"""
    state = placing("Bcrow Wowl .\nBcat . Wbat\nWcat . Bwolf", 0, "deer")
    state.apply("slide deer into column 2 from bottom")
    assert cells(state) == {(0, 0): "Bcrow", (0, 1): "Wowl", (1, 0): "Bcat", (2, 0): "Wcat",
                            (-1, 2): "Wbat", (0, 2): "Bwolf", (1, 2): "Bdeer"}


def test_the_deer_only_slides_when_it_can():
    """'You place this card in the display differently than the other cards: Slide the Deer
    from outside the display into any row or column with 1–3 cards.'"""
    moves = legal(placing("Bcrow Wowl", 0, "deer"))
    assert moves and all(m.startswith("slide deer into ") for m in moves)
    assert "slide deer into row 0 from left" in moves and "slide deer into column 1 from bottom" in moves


def test_a_deer_with_no_line_to_slide_into_is_placed_normally():
    """'You must resolve it immediately (if possible).' As the first card there is no row or
    column with 1–3 cards, so the Deer is simply placed: 'The first card in the display is
    simply placed on the table.'"""
    state = position(hands=(["deer"], ["crow"]))
    state.apply("choose deer")
    state.apply("choose crow")
    assert legal(state) == ["place deer at 0,0"]


def test_deer_slide_reads_any_case_and_spacing():
    state = placing("Bcrow Wowl", 0, "deer")
    state.apply("  SLIDE Deer into   ROW 0 from Right ")
    # the row holds every card, so the cards stay and the Deer lands behind them (grid.py)
    assert cells(state) == {(0, 0): "Bcrow", (0, 1): "Wowl", (0, 2): "Bdeer"}


# ---- the Raccoon ---------------------------------------------------------------------------------

RACCOON = "Bspider4 Bcat .\nWcrow . Wowl"


def test_raccoon_example_moved_card_keeps_the_display_together():
    """'You place the Raccoon and wish to move your Cat to another empty space. You may place it
    on any of the green (allowed) spaces. However, you cannot place it on any of the red
    (forbidden) spaces because then not all of the cards would be adjacent to each other.'"""
    state = placing(RACCOON, 0, "raccoon")
    state.apply("place raccoon at 0,2")
    assert state.current_player == 0 and state.view()["pending_effect"] == {
        "seat": 0, "card": "raccoon", "effect": "move"}
    cat = [m for m in legal(state) if m.startswith("move cat ")]
    assert cat == ["move cat to -1,1", "move cat to 1,1", "move cat to 2,1"]
    for forbidden in ("0,-1", "2,0", "-1,3", "1,3"):
        with pytest.raises(rulekit.IllegalMoveError):
            state.apply(f"move cat to {forbidden}")
    state.apply("move cat to 1,1")
    assert cells(state)[1, 1] == "Bcat" and state.view()["pending_effect"] is None


def test_raccoon_moves_only_its_owners_other_cards():
    """'you must move 1 of your other cards from the display to any other empty space'"""
    state = placing(RACCOON, 0, "raccoon")
    state.apply("place raccoon at 0,2")
    movers = {m.split(" to ")[0] for m in legal(state)}
    assert movers == {"move spider 4", "move cat"}


def test_raccoon_tip_spider_next_to_the_opponents_spider():
    """'Tip: It would be a good move to move your Spider to the space to the left of the
    opponent's Spider.'"""
    state = placing(". Wspider5 Wcrow\nBspider4 Bcat Wowl", 0, "raccoon")
    state.apply("place raccoon at 1,3")
    assert "move spider 4 to 0,0" in legal(state)
    state.apply("move spider 4 to 0,0")
    assert cells(state)[0, 0] == "Bspider4" and cells(state)[0, 1] == "Wspider5"


def test_raccoon_with_nothing_to_move_ends_the_placement():
    """'(if possible)': the first card has no other card of its owner to move."""
    state = position(hands=(["raccoon"], ["crow"]))
    state.apply("choose raccoon")
    state.apply("choose crow")
    state.apply("place raccoon at 0,0")
    assert state.current_player == 1 and legal(state)[0].startswith("place crow at ")


def test_a_moved_deer_does_not_slide():
    """'Important: If you move the Deer, do not resolve its effect.'"""
    state = placing("Bdeer Wowl\nWcrow .", 0, "raccoon")
    state.apply("place raccoon at 1,1")
    state.apply("move deer to -1,0")
    assert cells(state) == {(-1, 0): "Bdeer", (0, 1): "Wowl", (1, 0): "Wcrow", (1, 1): "Braccoon"}


# ---- drawing and running out ------------------------------------------------------------------------

def test_each_draws_one_card_after_placing():
    """'4. Each Draw 1 Card: Draw 1 card from your deck.'"""
    state = position("Bdeer", hands=(["wolf", "cat", "bat"], ["owl", "moth", "crow"]))
    state.apply("choose wolf")
    state.apply("choose owl")
    state.apply("place wolf at 0,1")
    state.apply("place owl at 1,1")
    assert state.view()["hand_sizes"] == [3, 3]


def test_an_empty_deck_draws_nothing():
    """The rulebook never runs out of cards; an empty deck simply gives nothing to draw."""
    rest = [c for c in CARDS if c not in ("wolf", "cat", "deer")]
    state = position("Bdeer", hands=(["wolf", "cat"], ["wolf", "cat"]), removed=[rest, rest + ["deer"]])
    assert state.view()["deck_sizes"] == [0, 0]
    state.apply("choose wolf")
    state.apply("choose cat")
    state.apply("place wolf at 0,1")
    state.apply("place cat at 1,1")
    assert state.view()["hand_sizes"] == [1, 1] and not state.is_terminal


def test_a_player_without_cards_chooses_nothing_and_the_game_ends_when_none_are_left():
    """With no card in hand there is nothing to choose; the other player goes on alone, and
    when no card is left anywhere the game ends and is scored."""
    black_rest = [c for c in CARDS if c not in ("deer",)]
    white_rest = [c for c in CARDS if c != "owl"]
    state = position("Bdeer", hands=([], ["owl"]), current=1, removed=[black_rest, white_rest])
    assert legal(state) == ["choose owl"]
    state.apply("choose owl")
    assert state.current_player == 1
    state.apply("place owl at 0,1")
    assert state.is_terminal and state.scores == [0, 0] and state.winners == [0, 1]


# ---- the draft variant ----------------------------------------------------------------------------

def test_draft_variant_draw_five_keep_three_rest_to_the_bottom():
    """'Variant: ... each draw 5 cards and choose 3 to keep in your hand. Return the other 2
    cards to the bottom of your deck.'"""
    game = rulekit.load("duell-der-tiere", variant="draft")
    state = game.new_game(players=2, seed=4)
    view = state.view()
    assert view["phase"] == "keep" and view["hand_sizes"] == [5, 5] and view["deck_sizes"] == [7, 7]
    assert len(legal(state)) == 10 and all(m.startswith("keep ") for m in legal(state))
    assert state.view(1)["hands"][0] is None
    hand = view["hands"][0]
    keep, back = hand[:3], hand[3:]
    state.apply("KEEP  " + " , ".join(reversed(keep)))
    view = state.view()
    assert sorted(view["hands"][0]) == sorted(keep) and view["returning"][0] == sorted(back, key=hand.index)
    assert state.view(1)["returning"][0] is None                  # the other seat never sees them
    assert state.current_player == 1
    state.apply(legal(state)[0])
    assert state.view()["phase"] == "return" and state.current_player == 0
    assert state.view()["hand_sizes"] == [3, 3]


def test_draft_variant_the_player_orders_the_returned_cards():
    """'Return the other 2 cards to the bottom of your deck': which card goes under first is the
    player's choice (both are drawn later and count in the hand-total tie-break). The card
    returned first lies above the one returned last, which ends at the very bottom."""
    game = rulekit.load("duell-der-tiere", variant="draft")
    outcomes = set()
    for first in (0, 1):
        state = game.new_game(players=2, seed=4)
        state.apply(legal(state)[0])                              # seat 0 keeps three
        state.apply(legal(state)[0])                              # seat 1 keeps three
        back = state.view()["returning"][0]
        assert sorted(legal(state)) == sorted(f"return {c}" for c in back)
        state.apply(f"return {back[first]}")                      # the other card follows by itself
        deck = state.view()["decks"][0]
        assert deck[-2:] == [back[first], back[1 - first]] and state.view()["returning"][0] == []
        outcomes.add(tuple(deck[-2:]))
    assert len(outcomes) == 2                                     # both orders can be chosen


def test_returning_a_card_not_waiting_to_go_back_is_refused():
    game = rulekit.load("duell-der-tiere", variant="draft")
    state = game.new_game(players=2, seed=4)
    state.apply(legal(state)[0])
    state.apply(legal(state)[0])
    before = state.view()
    kept = before["hands"][0][0]
    with pytest.raises(rulekit.IllegalMoveError, match="did not keep"):
        state.apply(f"return {kept}")
    assert state.view() == before
    assert game.restore(before).view() == before                  # a position mid-return restores


# ---- move texts, errors, views, restore -----------------------------------------------------------

def test_move_texts_read_any_case_and_spacing():
    state = position("Bdeer", hands=(["spider 4", "wolf"], ["owl", "moth"]))
    state.apply("  Choose   SPIDER 4 ")
    state.apply("choose Owl")
    state.apply("Place OWL at 1 , 1")
    state.apply("place spider 4 AT -1,0")
    assert cells(state) == {(0, 0): "Bdeer", (1, 1): "Wowl", (-1, 0): "Bspider4"}


def test_moves_compare_equal_to_their_text():
    state = placing("Bcrow", 0, "wolf")
    first = state.legal_moves()[0]
    assert first == "Place wolf at -1, -1" and str(first) == "place wolf at -1,-1"


def test_an_illegal_move_names_the_legal_ones_and_changes_nothing():
    state = placing("Bcrow", 0, "wolf")
    before = state.view()
    with pytest.raises(rulekit.IllegalMoveError) as caught:
        state.apply("place wolf at 3,3")
    assert "place wolf at -1,-1" in str(caught.value) and "next to a card" in str(caught.value)
    with pytest.raises(rulekit.IllegalMoveError):
        state.apply("choose wolf")
    assert state.view() == before


def test_a_move_listed_for_another_position_is_checked_against_this_one():
    """'You must place your card vertically, horizontally, or diagonally adjacent to another
    card': a move object listed in one position is legal in another only where its space is."""
    here, there = placing("Bcrow", 0, "wolf"), placing("Bcrow Bcat", 0, "wolf")
    far = next(m for m in there.legal_moves() if str(m) == "place wolf at 0,2")
    near = next(m for m in there.legal_moves() if str(m) == "place wolf at 1,0")
    before = here.view()
    with pytest.raises(rulekit.IllegalMoveError):
        here.apply(far)
    assert here.view() == before
    here.apply(near)
    assert cells(here)[1, 0] == "Bwolf"


def test_views_hide_the_other_hand_deck_order_and_choice():
    state = GAME.new_game(players=2, seed=3)
    state.apply(legal(state)[0])
    for seat in (0, 1):
        view = state.view(seat)
        assert view["hands"][1 - seat] is None and "decks" not in view
        assert view["deck_sizes"] == [9, 9] and view["choices"][1 - seat] in (None, "hidden")
    assert state.view(1)["choices"][0] == "hidden"
    assert len(state.view()["decks"][0]) == 9


def test_restore_maps_card_texts_to_each_owners_cards():
    """Both colours have cards with the same names: the view says whose each one is."""
    state = position("Bwolf Wwolf\nWspider4 Bspider4", hands=(["owl"], ["owl"]))
    again = GAME.restore(state.view())
    assert cells(again) == {(0, 0): "Bwolf", (0, 1): "Wwolf", (1, 0): "Wspider4", (1, 1): "Bspider4"}
    assert again.view() == state.view()
    with pytest.raises(rulekit.ViewError):
        position("Bwolf Bwolf")


def test_restore_refuses_a_broken_display():
    with pytest.raises(rulekit.ViewError, match="not connected"):
        position("Bwolf . Wwolf")
    with pytest.raises(rulekit.ViewError, match="does not fit"):
        position("Bwolf Bcat Bowl Bbat Bcrow")


def test_restore_of_a_full_view_in_every_phase_round_trips():
    state = GAME.new_game(players=2, seed=11)
    while not state.is_terminal:
        again = GAME.restore(state.view())
        assert again.view() == state.view() and legal(again) == legal(state)
        state.apply(legal(state)[-1])
    assert GAME.restore(state.view()).view() == state.view()


def test_a_clone_is_independent():
    state = GAME.new_game(players=2, seed=5)
    for _ in range(6):
        state.apply(legal(state)[0])
    before = state.view()
    other = state.clone()
    while not other.is_terminal:
        other.apply(legal(other)[-1])
    assert state.view() == before and len(other.view()["display"]) == 16


def test_place_moves_equal_the_grid_placements_wherever_the_display_lies():
    """The engine lists placements from a bit mask of the display (cached per shape); they are
    the spaces of `grid.placements`, also far from where the first card lay."""
    from rulekit.engine import grid
    rng = random.Random(2)
    for _ in range(150):
        shape = {}
        for i in range(rng.randrange(1, 15)):
            shape[rng.choice(grid.placements(shape, 4, 4))] = i
        dr, dc = rng.randrange(-14, 14), rng.randrange(-14, 14)
        cards = rng.sample([c for c in CARDS if c != "wolf"], min(len(shape), 11)) + ["wolf"] * 5
        picture = [{"row": r + dr, "col": c + dc, "card": cards[k // 2], "owner": k % 2}
                   for k, (r, c) in enumerate(sorted(shape)) if k < 22]
        spots = {(e["row"], e["col"]) for e in picture}
        state = GAME.restore({"players": 2, "phase": "place", "current_player": 0, "hands": [[], []],
                              "display": picture, "revealed": ["wolf", None], "to_place": [0]})
        assert legal(state) == [f"place wolf at {r},{c}" for r, c in grid.placements(spots, 4, 4)]


def test_forgetting_the_move_caches_changes_no_game(monkeypatch):
    """Interned moves are kept in tables per card and frame, forgotten past a limit; a game
    played while they are forgotten every few moves lists the same moves and ends the same."""
    from rulekit.engine import grid_steps
    records = []
    for limit in (None, 3):
        if limit is not None:
            monkeypatch.setattr(grid_steps, "_CACHE_LIMIT", limit)
        game = rulekit.load("duell-der-tiere")          # a new game: its own caches
        games = []
        for seed in range(6):
            state, rng, seen = game.new_game(players=2, seed=seed), random.Random(seed), []
            while not state.is_terminal:
                moves = legal(state)
                seen.append(moves)
                state.apply(rng.choice(moves))
            games.append((seen, state.scores, state.winners))
        records.append(games)
    assert records[0] == records[1]
