"""Overrides (issue #9, item 9): "`extend` and variants can change a single table entry,
add a table, add or remove a follow or winner case, without restating the rest"."""
from __future__ import annotations

import pytest

import rulekit
from positions import legal_texts, position

BASE = """game "Base"
players 2
deck {
  suits red, blue, green
  ranks 1..6
  order rank
}
round {
  dealer first, then next
  deal 2 each
  bid 0..2, in turn from dealer
  trump green
  tricks 2, first led by dealer, then by winner
}
follow {
  otherwise -> same suit as lead if able
}
trick winner {
  any trump played -> highest trump
  otherwise        -> highest card of lead suit
}
score {
  made   -> bonus[bid]
  missed -> 0
}
table bonus { 0: 5, 1..2: 10 }
end after 3 rounds
"""


def load(tmp_path, house: str, variant=None):
    (tmp_path / "base.rules").write_text(BASE)
    (tmp_path / "house.rules").write_text('extend "base.rules"\n' + house)
    return rulekit.load(tmp_path / "house.rules", variant=variant)


def made_with(game, bid: int) -> int:
    """Points for making `bid`: seat 0 takes the last trick, having bid `bid`."""
    won = [bid - 1, 1 - (bid - 1)] if bid else [0, 1]
    hands = [["green 6"], ["red 1"]] if bid else [["red 1"], ["green 6"]]
    state = position(game, hands, current=0, dealer=0, leader=0, bids=[bid, 2 - bid], tricks_won=won,
                     trump="green")
    state.apply(state.legal_moves()[0])
    state.apply(state.legal_moves()[0])
    return state.view()["last_round"]["points"][0]


def test_one_table_entry_changes_and_the_others_stay(tmp_path):
    game = load(tmp_path, "change table bonus { 2: 30 }")
    assert [made_with(game, bid) for bid in (0, 1, 2)] == [5, 10, 30]      # 1..2 split in two


def test_a_variant_adds_a_table_it_reads(tmp_path):
    game = load(tmp_path, 'variant rich { table rich { 0..2: 50 }\n score { made -> rich[bid] missed -> 0 } }',
                variant="rich")
    assert made_with(game, 1) == 50


def test_a_follow_case_is_added_before_the_last(tmp_path):
    game = load(tmp_path, "change follow { add lead is red -> any }")
    state = position(game, [["blue 2"], ["red 3", "blue 4"]], current=1, trick=[[0, "red 5"]],
                     bids=[1, 1], trump="green")
    assert legal_texts(state) == ["play red 3", "play blue 4"]
    state = position(game, [["blue 2"], ["red 3", "blue 4"]], current=1, trick=[[0, "blue 5"]],
                     bids=[1, 1], trump="green")
    assert legal_texts(state) == ["play blue 4"]                            # the old case still holds


def test_a_trick_winner_case_is_removed(tmp_path):
    game = load(tmp_path, "change trick winner { remove any trump played }")
    state = position(game, [["red 2"], ["green 6"]], current=0, bids=[0, 0], trump="green")
    state.apply("play red 2")
    state.apply("play green 6")                                            # a trump, but no longer wins
    assert state.view()["tricks_won"] == [1, 0]


def test_several_changes_in_one_block_and_in_a_variant(tmp_path):
    house = ("variant loose { change follow { add lead is red -> any\n add lead is blue -> any } "
             "change table bonus { 0: 1, 1: 2 } }")
    game = load(tmp_path, house, variant="loose")
    assert [made_with(game, bid) for bid in (0, 1, 2)] == [1, 2, 10]
    assert len(game.ruleset(2).steps) > 0


@pytest.mark.parametrize("house, message", [
    ("change table bonus { 3: 1 }", "table `bonus` has no entry for 3 to change"),
    ("change table bonus { else: 1 }", "table `bonus` has no `else` entry to change"),
    ("change table bonsu { 0: 1 }", "there is no `table bonsu` to change"),
    ("change follow { remove lead is red }", "`follow` has no case with this condition to remove"),
    ("change trick winner { remove otherwise }", "the last case of `trick winner` cannot be removed"),
    ("variant v { table bonsu { 0: 1 } }", "variant `v` adds `table bonsu`, which no rule reads"),
])
def test_what_cannot_be_changed_is_refused(tmp_path, house, message):
    with pytest.raises(rulekit.RuleError, match=message.replace("(", r"\(")):
        load(tmp_path, house)
