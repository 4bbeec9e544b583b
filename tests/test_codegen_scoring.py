"""The written points of scores in parts, teams and counters (rulekit/compile/codegen_scoring.py)
against the closures of `scoring.py`, which stay the reference: whole games side by side,
every round's record, scores, counters and view the same."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import rulekit
from rulekit.compile import codegen

from lockstep import play_in_lockstep
from test_codegen import reference_of
from test_teams import small

#: every kind of case and part the writer handles: per seat and per team, `made`/`missed`
#: for a seat and for a team, expressions, `otherwise` first, counters per seat and per
#: team changed by `add` and `set` and read by a later change, case and part, the team
#: folds, reads that several cases repeat (made once, before the part changes anything)
PARTS = small(extra="counter bags per team\ncounter streak per seat", end="end after 6 rounds", score="""
score { made -> 10 + bid, add 1 to streak  missed -> 0 - bid, set streak to 0 }
score contract per team {
  made -> team_tricks, add team_tricks - team_bid to bags
  team_any(tricks = 0) -> 0 - team_bid
  otherwise -> team_sum(if bid = 0 then 5 else 0), add 1 to bags
}
score penalty per team { bags >= 3 -> -10 - bags, set bags to bags % 3, add bags to bags  otherwise -> 0 }
score streaky { otherwise -> streak }
score last per team { otherwise -> if team_all(tricks >= 1) then 1 else 0 }
""")

#: teams of three, listed
THREES = small(players="6", teams="teams 0+1+2, 3+4+5", end="end after 4 rounds",
               score="score per team { team_any(tricks >= 2) -> 100 + team_sum(bid)  otherwise -> team_tricks }")

#: a round thrown in (`if all pass -> void`) scores nothing: the written points ask first
VOID = small(bid="auction { calls 3..3  once each  if all pass -> void }", end="end after 12 rounds",
             score="score per team { team_any(declarer) -> team_tricks  otherwise -> 1 }")

#: a challenged round (table play) gives its settled points: the written points ask first
TABLE = small(extra="""player errors {
  bids out of turn stand
  plays out of turn stand
  revokes stand until challenged
  challenge ends the round {
    right -> challenger scores as made, accused scores -10, others score as made
    wrong -> accused scores as made, challenger scores -10, others score as made
  }
}""", score="score per team { made -> 10 + team_bid  missed -> 0 - team_bid }")

GAMES = Path(__file__).resolve().parent.parent / "examples" / "games"

#: a text, its player count, and what shows that its games reach the case it is here for
#: (the last round's record, the move, the counters before it and after)
TEXTS = {"parts": (PARTS, 4, lambda record, move, before, after: after["bags"] < before["bags"]),  # the penalty
         "threes": (THREES, 6, lambda record, move, before, after: record["points"][0] >= 100),
         "void": (VOID, 4, lambda record, move, before, after: record["points"] == [0] * 4),
         "table": (TABLE, 4, lambda record, move, before, after: move.startswith("challenge"))}


@pytest.mark.parametrize("name", TEXTS)
def test_written_points_play_as_the_closures_round_by_round(name, monkeypatch):
    text, players, shows = TEXTS[name]
    generated = rulekit.loads(text)
    source = codegen.source_of(generated.ruleset(players))
    assert "def round_points_" in source          # written, not the closures bound
    reference = reference_of(text, monkeypatch, players)
    shown = 0
    for seed in range(6):
        ours, theirs = generated.new_game(players, seed=seed), reference.new_game(players, seed=seed)
        rng = random.Random(seed)
        while not theirs.is_terminal:
            legal = theirs.legal_moves()
            pick = rng.randrange(len(legal))
            before = theirs.view().get("counters")
            ours.apply(ours.legal_moves()[pick])
            theirs.apply(legal[pick])
            after = theirs.view().get("counters")
            assert (ours.last_round, ours.scores, ours.view().get("counters")) == (
                theirs.last_round, theirs.scores, after)
            shown += theirs.last_round is not None and shows(theirs.last_round, legal[pick].text, before, after)
        assert ours.view() == theirs.view() and ours.winners == theirs.winners
    assert shown, "the games never reached the case this text is for"


def test_a_wrapper_the_writer_does_not_know_keeps_the_closures():
    """Points changed after `scoring.py` built them, not through `override_round_points`, are
    called as the closures, not written (the written form would miss the change)."""
    rules = rulekit.loads(THREES).ruleset(6)
    inner = rules.round_points
    rules.round_points = lambda st: [2 * p for p in inner(st)]
    source = codegen.source_of(rules)
    assert "def round_points_" not in source


@pytest.mark.parametrize("name", ["euchre", "spades", "whist"])
def test_the_team_games_write_their_points_and_play_as_the_closures(name, monkeypatch):
    path = GAMES / f"{name}.rules"
    generated = rulekit.load(path)
    assert "def round_points_" in codegen.source_of(generated.ruleset(4))
    reference = reference_of(path.read_text(encoding="utf-8"), monkeypatch, 4)
    for seed in (21, 22):
        ours, theirs = generated.new_game(4, seed=seed), reference.new_game(4, seed=seed)
        play_in_lockstep(ours, theirs, random.Random(seed))
        assert ours.view() == theirs.view() and ours.winners == theirs.winners


@pytest.mark.parametrize("name", ["__import__", "st", "work", "value", "of", "team_points", "TEAM_OF_1", "counter_9"])
def test_a_counter_named_like_python_or_like_the_generated_code_stays_a_bound_string(name, monkeypatch):
    """A counter's name reaches the written points as a bound object, never as source: the
    module holds only the generator's names, and the game plays as the closures."""
    from codegen_check import assert_only_generator_names

    text = re.sub(r"\bbags\b", name, (GAMES / "spades.rules").read_text(encoding="utf-8"))
    generated = rulekit.loads(text)
    source = codegen.source_of(generated.ruleset(4))
    assert "def round_points_" in source
    assert_only_generator_names(source)
    reference = reference_of(text, monkeypatch, 4)
    ours, theirs = generated.new_game(4, seed=3), reference.new_game(4, seed=3)
    play_in_lockstep(ours, theirs, random.Random(3))
    assert ours.view() == theirs.view() and name in ours.view()["counters"]
