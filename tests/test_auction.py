"""The auction and trump-decision clauses on small rule files: every part of `auction { ... }`
and every option of `choose trump, ...`, the roles they set, and what the checker refuses.
The reference is docs/language.md ("auction", "choose trump", "Names")."""
from __future__ import annotations

import random

import pytest

import rulekit
from rulekit import testing as rt


def small(round_: str, score: str = "contract_made -> 1\n  otherwise -> 0", players: str = "3..4",
          deck: str = "suits clubs, diamonds, hearts, spades\n  ranks 1..6", end: str = "end after 3 rounds") -> str:
    return f"""game "Small"
players {players}
deck {{
  {deck}
  order rank
}}
round {{
  dealer first, then next
  deal 4 each
  {round_}
}}
follow {{ otherwise -> same suit as lead if able }}
trick winner {{
  any trump played -> highest trump
  otherwise        -> highest card of lead suit
}}
score {{
  {score}
}}
{end}
"""


def texts(state) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def problems(text: str) -> list[str]:
    with pytest.raises(rulekit.RuleError) as caught:
        rulekit.loads(text)
    return [d.message for d in caught.value.diagnostics]


LEVEL_AND_SUIT = """auction {
    calls 1..2 with suits
    order clubs < diamonds < spades < hearts
    from dealer
    until all but one pass
    higher than last
    if all pass -> redeal
  }
  tricks 4, first led by declarer, then by winner"""


def test_level_and_suit_calls_rank_by_level_then_by_the_declared_order():
    state = rulekit.loads(small(LEVEL_AND_SUIT)).new_game(players=3, seed=1)
    assert texts(state) == ["pass", "bid 1 clubs", "bid 1 diamonds", "bid 1 spades", "bid 1 hearts",
                            "bid 2 clubs", "bid 2 diamonds", "bid 2 spades", "bid 2 hearts"]
    state.apply("bid 1 spades")
    assert texts(state) == ["pass", "bid 1 hearts", "bid 2 clubs", "bid 2 diamonds", "bid 2 spades",
                            "bid 2 hearts"]


def test_until_all_but_one_pass_seats_that_pass_are_out_and_the_winning_call_sets_trump():
    state = rulekit.loads(small(LEVEL_AND_SUIT)).new_game(players=4, seed=1)
    assert state.current_player == 0                      # `from dealer`, dealer first
    for seat, move in ((0, "bid 1 clubs"), (1, "pass"), (2, "bid 1 hearts"), (3, "pass"),
                       (0, "bid 2 clubs")):
        assert state.current_player == seat
        state.apply(move)
    assert state.current_player == 2                      # 1 and 3 passed: they are out
    state.apply("pass")
    view = state.view()
    assert view["phase"] == "play" and view["trump"] == "clubs"
    assert (view["declarer"], view["makers"], view["contract"]) == (0, [0], 2)
    assert state.current_player == view["leader"] == 0    # `first led by declarer`


def test_the_highest_call_ends_the_auction_at_once():
    state = rulekit.loads(small(LEVEL_AND_SUIT)).new_game(players=4, seed=1)
    state.apply("bid 2 hearts")
    assert state.view()["phase"] == "play" and state.view()["declarer"] == 0


def test_redeal_when_all_pass_deals_again_from_the_same_dealer_in_the_same_round():
    state = rulekit.loads(small(LEVEL_AND_SUIT)).new_game(players=3, seed=1)
    before = state.view()
    for _ in range(3):
        state.apply("pass")
    after = state.view()
    assert after["phase"] == "auction" and after["round"] == 1 and after["dealer"] == before["dealer"]
    assert after["hands"] != before["hands"] and after["calls"] == []
    assert after["scores"] == [0, 0, 0]


def test_without_higher_than_last_any_call_may_follow_and_the_first_of_the_highest_wins():
    rules = small("""auction { calls 1..3  once each }
  tricks 4, first led by left of declarer, then by winner""")
    state = rulekit.loads(rules).new_game(players=3, seed=2)
    first = state.current_player
    assert first == 1                                     # the default: left of the dealer
    for move in ("bid 2", "bid 1", "bid 2"):
        assert texts(state) == ["pass", "bid 1", "bid 2", "bid 3"]
        state.apply(move)
    view = state.view()
    assert view["declarer"] == 1 and view["contract"] == 2
    assert view["leader"] == 2                            # left of the declarer


def test_a_void_round_scores_nothing_and_plays_no_card():
    rules = small("auction { calls 1..3  once each  higher than last  if all pass -> void }\n"
                  "  tricks 4, first led by declarer, then by winner", score="otherwise -> 5")
    state = rulekit.loads(rules).new_game(players=3, seed=3)
    for _ in range(3):
        state.apply("pass")
    assert state.view()["round"] == 2 and state.scores == [0, 0, 0]
    state.apply("bid 1")
    state.apply("pass")
    state.apply("pass")
    while state.view()["round"] == 2:
        state.apply(state.legal_moves()[0])
    assert state.scores == [5, 5, 5]


def test_suit_calls_name_the_trump_and_set_a_contract_of_zero():
    rules = small("auction { calls suits  higher than last }\n  tricks 4, first led by declarer, then by winner",
                  deck="suits clubs < diamonds < hearts < spades\n  ranks 1..6",
                  score="makers -> makers_tricks\n  otherwise -> defenders_tricks")
    state = rulekit.loads(rules).new_game(players=3, seed=4)
    assert texts(state) == ["pass", "bid clubs", "bid diamonds", "bid hearts", "bid spades"]
    for move in ("bid diamonds", "pass", "pass"):
        state.apply(move)
    assert state.view()["trump"] == "diamonds" and state.view()["contract"] == 0
    while state.view()["round"] == 1:
        state.apply(state.legal_moves()[0])
    last = state.view()["last_round"]
    makers = last["tricks_won"][1]
    assert last["points"] == [4 - makers, makers, 4 - makers]


TURNED = """trump suit of turned card
  choose trump, in turn from left of dealer, or pass, except turned suit, if all pass -> dealer must choose
  tricks 4, first led by left of dealer, then by winner"""


def test_a_decision_in_turn_skips_the_turned_suit_and_forces_the_dealer():
    game = rulekit.loads(small(TURNED, score="makers -> makers_tricks\n  otherwise -> 0"))
    state = game.new_game(players=3, seed=5)
    turned = state.view()["turned"].split()[0]
    offered = [f"choose {s}" for s in ("clubs", "diamonds", "hearts", "spades") if s != turned]
    assert state.current_player == 1 and texts(state) == ["pass", *offered]
    state.apply("pass")
    assert state.view()["trump_passes"] == 1
    state.apply("pass")
    assert state.current_player == 0 and texts(state) == offered      # the dealer may not pass
    state.apply(offered[0])
    view = state.view()
    assert view["trump"] == offered[0].split()[1] and view["declarer"] == 0 and view["makers"] == [0]
    assert game.restore(view).view() == view


def test_a_decision_when_the_turned_card_matches_only():
    deck = "suits clubs, hearts\n  ranks 1..4\n  card jester"
    rules = small("trump suit of turned card\n  choose trump, by dealer, when turned card is jester\n"
                  "  tricks 4, first led by left of dealer, then by winner",
                  deck=deck, players="2", score="otherwise -> tricks", end="end after 60 rounds")
    game = rulekit.loads(rules)
    rng = random.Random(6)
    state = game.new_game(players=2, seed=6)
    seen = set()
    while not state.is_terminal:
        view = state.view()
        if view["phase"] == "trump":
            assert view["turned"] == "jester" and state.current_player == view["dealer"]
            assert texts(state) == ["choose clubs", "choose hearts"]
        elif view["phase"] == "play" and not view["trick"] and not any(view["tricks_won"]):
            seen.add(view["turned"] == "jester")
        state.apply(rng.choice(state.legal_moves()))
    assert seen == {True, False}


@pytest.mark.parametrize("round_", [LEVEL_AND_SUIT, TURNED,
                                    "auction { calls 1..3, 3 as all  once each  higher than last }\n"
                                    "  choose trump, by declarer, or pass\n"
                                    "  tricks 4, first led by declarer, then by winner"])
def test_small_auction_games_keep_every_invariant(round_):
    report = rt.check_rules(rulekit.loads(small(round_, score="makers -> 1\n  otherwise -> 0")), games=2, seed=3)
    assert report.ok, report


# ---- what the checker refuses ------------------------------------------------------------------

def test_roles_need_a_step_that_sets_them():
    found = problems(small("tricks 4, first led by declarer, then by winner",
                           score="makers and contract_made -> 1\n  otherwise -> 0"))
    assert found == [
        "`declarer` is set by an auction or a trump decision, but the round has none that sets it every round",
        "`makers` is set by an auction or a trump decision, but the round has neither",
        "`contract_made` is set by an auction or a trump decision, but the round has neither",
    ]


def test_an_auction_that_may_never_end_and_an_order_with_an_unknown_suit():
    found = problems(small("auction { calls 1..2 with suits  order clubs < dimonds < hearts  until all but one pass }\n"
                           "  tricks 4, first led by declarer, then by winner"))
    assert found == [
        "unknown suit `dimonds` in the order of calls",
        "this auction may never end: calls need not beat the last one, so the seats still in can go on calling",
    ]


@pytest.mark.parametrize("clause, message", [
    ("auction { once each }", "the auction has no calls"),
    ("auction { calls 3..1 }", "`3..1` is an empty range of calls"),
    ("auction { calls 1..3, 4 as nap }", "4 is not a call: calls go from 1 to 3"),
    ("auction { calls 1..3 with sutis }", "unknown kind of call `sutis`"),
    ("auction { calls 1..3  once each  once each }", "the auction says this twice"),
    ("auction { calls suits  higher than last }", "calls must beat the last one, but the suits have no order"),
    ("auction { calls suits  order clubs < diamonds < hearts }", "the order of calls leaves out spades"),
    ("auction { calls suits  order clubs < diamonds < hearts < clubs < spades }", "`clubs` is ranked twice"),
    ("auction { calls 1..3, 2 as two, 3 as two }", "two calls are named `two`"),
    ("auction { calls 1..3  order clubs < diamonds < hearts < spades }",
     "the order ranks suits, but the calls name no suit"),
    ("auction { calls 1..3  from declarer }", "the auction starts before anyone has won it"),
    ("auction { calls 1..3  from dealer  if all pass -> dealer must call }",
     "the dealer must speak last to be forced, but the turn does not end with the dealer"),
    ("auction { calls 1..3  if all pass -> redo }", "unknown thing to do when all pass `redo`"),
    ("auction { calls 1..900 with suits }", "the auction has 3600 different calls; at most 500 are supported"),
    ("choose trump", "the rules do not say who chooses the trump"),
    ("choose trump, by dealer, in turn from dealer", "the trump is chosen either by one seat or in turn, not both"),
    ("choose trump, by declarer", "`declarer` is set by an auction or a trump decision, "
                                  "but the round has none that sets it every round"),
    ("choose trump, by dealer, except turned suit", "no card is turned after the deal"),
    ("choose trump, by dealer, if all pass -> void", "nobody may pass this decision"),
    ("trump suit of turned card\n  choose trump, by dealer, when turned card is same suit as lead",
     "the turned card is looked at before any trick or trump"),
])
def test_the_checker_refuses(clause, message):
    assert message in problems(small(clause + "\n  tricks 4, first led by dealer, then by winner",
                                     score="otherwise -> 0"))


def test_made_after_an_auction_points_to_contract_made():
    with pytest.raises(rulekit.RuleError) as caught:
        rulekit.loads(small("auction { calls 1..3 }\n  tricks 4, first led by declarer, then by winner",
                            score="made -> 1\n  missed -> 0"))
    assert caught.value.diagnostics[0].hint == "after an auction, test `contract_made`"


PARTNERS = """game "Partners"
players 4
teams opposite
deck {
  suits clubs, diamonds, hearts, spades
  ranks 1..6
  order rank
}
round {
  dealer first, then next
  deal 6 each
  auction { calls 3..6 with suits  order clubs < diamonds < hearts < spades  higher than last
            if all pass -> void }
  tricks 6, first led by left of declarer, then by winner
}
follow { otherwise -> same suit as lead if able }
trick winner {
  any trump played -> highest trump
  otherwise        -> highest card of lead suit
}
score per team {
  team_any(makers) and contract_made -> contract
  team_any(makers)                   -> -contract
  otherwise                          -> 0
}
end after 4 rounds
"""


def test_with_teams_the_makers_are_the_declarers_team_and_score_together():
    game = rulekit.loads(PARTNERS)
    state = game.new_game(players=4, seed=8)
    for move in ("bid 3 hearts", "pass", "pass", "pass"):
        state.apply(move)
    view = state.view()
    assert view["declarer"] == 1 and view["makers"] == [1, 3] and view["trump"] == "hearts"
    assert state.current_player == 2                          # left of the declarer leads
    while state.view()["round"] == 1:
        state.apply(state.legal_moves()[0])
    last = state.view()["last_round"]
    made = last["tricks_won"][1] + last["tricks_won"][3] >= 3
    points = 3 if made else -3
    assert last["points"] == [0, points, 0, points]


def test_a_void_round_with_team_scores_scores_nothing():
    state = rulekit.loads(PARTNERS).new_game(players=4, seed=8)
    for _ in range(4):
        state.apply("pass")
    assert state.view()["round"] == 2 and state.scores == [0, 0, 0, 0]


def test_a_partnership_auction_keeps_every_invariant():
    report = rt.check_rules(rulekit.loads(PARTNERS), games=3, seed=2)
    assert report.ok, report
