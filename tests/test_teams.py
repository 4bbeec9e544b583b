"""Teams, team values, counters and scores in parts as general mechanisms (issue #9,
items 1, 7 and 10), on small games written for the test: "seats grouped into partnerships
(fixed opposite seats, or listed); tricks, bids and scores per team where the rule file
says so. `state.scores` stays one entry per seat, partners showing their team's total";
"Counters that persist between rounds, per seat or team, readable and changeable in score
rules"."""
from __future__ import annotations

import random

import pytest

import rulekit
from rulekit import testing as rt


def small(players="4", teams="teams opposite", score="score { otherwise -> tricks }", extra="",
          bid="bid 0..3, in turn from dealer", end="end after 3 rounds"):
    return f"""game "Small"
players {players}
{teams}
deck {{
  suits clubs, hearts, spades
  ranks 1..6
  order rank
}}
round {{
  dealer first, then next
  deal 3 each
  {bid}
  tricks 3, first led by dealer, then by winner
}}
follow {{ otherwise -> same suit as lead if able }}
trick winner {{ otherwise -> highest card of lead suit }}
{score}
{extra}
{end}
"""


def play(game, players, seed=0):
    state, rng = game.new_game(players=players, seed=seed), random.Random(seed)
    rounds = []
    while not state.is_terminal:
        before = state.round
        state.apply(rng.choice(state.legal_moves()))
        if state.round != before or state.is_terminal:
            rounds.append(state.view()["last_round"])
    return state, rounds


def test_opposite_teams_pair_seats_across_the_table_at_six():
    game = rulekit.loads(small(players="6"))
    rules = game.ruleset(6)
    assert rules.teams(6) == ((0, 3), (1, 4), (2, 5))
    assert [rules.team_of(6, seat) for seat in range(6)] == [0, 1, 2, 0, 1, 2]
    assert game.new_game(players=6, seed=1).view()["teams"] == [[0, 3], [1, 4], [2, 5]]


def test_without_teams_the_ruleset_and_the_view_say_none():
    game = rulekit.load("instinct")
    assert game.ruleset(4).teams(4) is None and game.ruleset(4).team_of(4, 0) is None
    assert game.new_game(players=4, seed=1).view()["teams"] is None


def test_a_seats_points_go_to_its_team_and_partners_show_the_total():
    game = rulekit.loads(small())
    state, rounds = play(game, 4, seed=3)
    for record in rounds:
        tricks = record["tricks_won"]
        assert record["points"] == [tricks[0] + tricks[2], tricks[1] + tricks[3]] * 2
    assert state.scores[0] == state.scores[2] and set(state.winners) in ({0, 2}, {1, 3}, {0, 1, 2, 3})


def test_listed_teams_of_three_add_over_the_team():
    text = small(players="6", teams="teams 0+1+2, 3+4+5",
                 score="score per team { team_any(tricks >= 2) -> 100 + team_sum(bid)  otherwise -> team_tricks }")
    state, rounds = play(rulekit.loads(text), 6, seed=2)
    for record in rounds:
        for team in ((0, 1, 2), (3, 4, 5)):
            tricks = [record["tricks_won"][s] for s in team]
            bids = sum(record["bids"][s] for s in team)
            expected = 100 + bids if max(tricks) >= 2 else sum(tricks)
            assert {record["points"][s] for s in team} == {expected}


def test_partner_values_read_the_seat_across():
    text = small(score="score { otherwise -> 10 * partner_tricks + partner(bid) - partner_bid }")
    _, rounds = play(rulekit.loads(text), 4, seed=5)
    for record in rounds:
        t = record["tricks_won"]
        assert record["points"][0] == 10 * t[2] + 10 * t[0]      # seat 0's and seat 2's parts


def test_a_per_seat_counter_lasts_between_rounds_and_is_read_by_the_end():
    text = small(teams="", score="score { tricks = 0 -> -1, add 1 to misses  otherwise -> tricks }",
                 extra="counter misses per seat", end="end when max(misses) >= 2 or round >= 40")
    state, rounds = play(rulekit.loads(text), 4, seed=1)
    misses = [sum(1 for r in rounds if r["tricks_won"][s] == 0) for s in range(4)]
    assert state.view()["counters"] == {"misses": misses}
    assert max(misses) >= 2 or state.round >= 40


def test_score_parts_add_up_in_the_order_of_the_file_and_see_changed_counters():
    text = small(teams="", extra="counter streak per seat",
                 score="score { otherwise -> tricks, add 1 to streak }\nscore bonus { streak = 2 -> 5  otherwise -> 0 }")
    _, rounds = play(rulekit.loads(text), 4, seed=4)
    assert [r["points"][0] - r["tricks_won"][0] for r in rounds] == [0, 5, 0]


def test_team_games_keep_every_invariant():
    game = rulekit.loads(small(extra="counter bags per team",
                               score="score per team { otherwise -> team_tricks, add team_tricks to bags }"))
    assert rt.check_rules(game, games=3, seed=2).ok


def test_a_file_without_teams_pays_nothing_for_them():
    """No team handling is compiled in: the plain per-seat score closure, no hooks."""
    rules = rulekit.load("instinct").ruleset(4)
    assert rules.round_points is None and not rules.on_start and not rules.view_hooks
    assert rules.team_plan is None


@pytest.mark.parametrize("word", ["team_tricks", "team_bid", "partner_bid", "team_sum(tricks)", "partner(bid)"])
def test_team_words_need_teams(word):
    with pytest.raises(rulekit.RuleError, match="reads teams, but the rules declare none"):
        rulekit.loads(small(teams="", score=f"score {{ otherwise -> {word} }}"))
