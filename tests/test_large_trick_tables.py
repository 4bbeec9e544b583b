"""The trick tables of large decks (issue #11, "Loading"; docs/performance.md): the follow and
winner tables are indexed by every trump and every lead (a million entries for the checker's
limit of 1,024 cards), but worked out once per distinct row (`PredicateTables.rows`), so the
largest legal deck loads in seconds. The work is counted (distinct entries made) where a wall
clock would be flaky; the one time bound is generous for slow machines.
"""
from __future__ import annotations

import random
import time

from hypothesis import given, settings, strategies as hs

import rulekit
from rulekit.compile import codegen
from rulekit.compile.deck import build_deck
from rulekit.compile.tricks import PredicateTables, _pick, follow_table, plans, winner_rule
from rulekit.dsl import nodes as n
from rulekit.dsl.parser import parse
from test_loading_bounds import INSTINCT, WIZARD


def _instinct(suits: int, ranks: int) -> str:
    """Instinct with `suits` suits of `ranks` cards (and its six trumps), two tricks a round."""
    names = ", ".join(f"s{i}" for i in range(suits))
    return (INSTINCT.replace("suits black, blue, green, red, white", f"suits {names}")
            .replace("ranks 1..12", f"ranks 1..{ranks}").replace("deal 11 each", "deal 2 each")
            .replace("tricks 11", "tricks 2").replace("bid 0..11", "bid 0..2").replace("6..11: 50, ", ""))


def _trick_step(rules):
    return next(step for step in rules.steps if hasattr(step, "winner"))


def test_a_thousand_suits_of_one_card_load_with_work_per_distinct_row():
    """1,000 one-card suits: every trump by every lead is 1,002 × 1,007 winner plans, which
    were made one by one (about 20 s, 2 million entries). Now the case `otherwise -> highest
    card of lead suit` is one row for every trump, and `any trump played -> last trump` one
    entry per trump: a few thousand entries in all."""
    started = time.perf_counter()
    game = rulekit.loads(_instinct(1000, 1))
    state = game.new_game(players=4, seed=1)
    assert state.playout(1) > 0 and state.is_terminal
    assert time.perf_counter() - started < 60          # about 3 s; before, 16-20 s
    step = _trick_step(game.ruleset(4))
    cases = step.winner.cases
    assert len(cases) == 1002 and all(len(row) == 1007 for rows in cases for row in rows)
    entries = {id(entry) for rows in cases for row in rows for entry in row}
    assert len(entries) < 3 * 1007                     # per trump and per lead suit, not per pair
    assert len({id(rows[1]) for rows in cases}) == 1   # the lead suit's case: one row for all trumps
    assert len({id(entry) for row in step.follow for entry in row}) < 3 * 1007


def test_a_large_deck_s_winner_is_the_reference_s_trick_by_trick(monkeypatch):
    """Wizard with 70 suits: its winner table (73 trumps × 359 leads) is too large to write
    out, so the generated module reads the case rows (`CASES`) handed in; every trick of
    random play goes where the hand-written steps send it, under many trumps."""
    names = ", ".join(f"x{i}" for i in range(70))
    text = WIZARD.replace("suits clubs, diamonds, hearts, spades", f"suits {names}").replace("ranks 2..14", "ranks 2..6")
    game = rulekit.loads(text)
    source = codegen.generate(game.ruleset(4))[0]
    assert "winner cases[trump + 1][case][lead + 1]" in source and "PLANS" not in source
    with monkeypatch.context() as patch:
        patch.setattr(codegen, "ENABLED", False)
        reference = rulekit.loads(text)
        reference.ruleset(4)
    tricks = 0
    for seed in range(6):
        ours, theirs = game.new_game(4, seed=seed), reference.new_game(4, seed=seed)
        rng = random.Random(seed)
        for _ in range(200):
            legal = theirs.legal_moves()
            move = legal[rng.randrange(len(legal))]
            ours.apply(move.text)
            theirs.apply(move)
            if not theirs.trick and theirs.last_trick:
                tricks += 1
                assert (ours.last_trick, ours.tricks_won, ours.current_player) == (
                    theirs.last_trick, theirs.tricks_won, theirs.current_player)
        assert ours.view() == theirs.view()
    assert tricks > 100


# ---- the rows are the entries, one by one -------------------------------------------------------

ATOMS = ["clubs", "red", "trump", "spades 7", "rank >= 8", "number < 4", "same suit as lead",
         "same colour as lead", "same rank as lead", "wizard"]

DECK = """game "T"
players 3
deck {{
  suits clubs, diamonds, hearts, spades
  ranks 2..10
  colour red: diamonds, hearts
  colour black: clubs, spades
  {top}
  card wizard x2{always}
  order rank
}}
round {{
  dealer first, then next
  deal 4 each
  trump none
  tricks 4, first led by left of dealer, then by winner
}}
follow {{
  {follow}
}}
trick winner {{
  {winner}
}}
score {{ otherwise -> tricks }}
end after 1 rounds
"""


def predicates():
    return hs.recursive(hs.sampled_from(ATOMS), lambda inner: hs.one_of(
        hs.builds(lambda a, b: f"({a} and {b})", inner, inner),
        hs.builds(lambda a, b: f"({a} or {b})", inner, inner),
        hs.builds(lambda a: f"not {a}", inner)), max_leaves=4)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(hs.lists(predicates(), min_size=4, max_size=4), hs.booleans(), hs.booleans())
def test_tables_made_by_rows_are_the_predicates_entry_by_entry(texts, top, always):
    """Every predicate's table, the follow table and the winner's plans, worked out row by
    row, equal the per-entry definition (`PredicateTables.compile` at each trump and lead),
    with colours, top trumps (an identity per trump) and always-trump cards."""
    a, b, c, d = texts
    source = DECK.format(top="top trumps 9 of trump suit, 9 of trump colour" if top else "",
                         always=", always trump" if always else "",
                         follow=f"lead is {a} -> any\n  lead is {b} -> {c} if able\n  otherwise -> same suit as lead if able",
                         winner=f"lead is {b} -> highest {c}\n  any {a} played -> last {d}\n  "
                                f"otherwise -> highest card of lead suit")
    sections = {type(i).__name__: i for i in parse(source).items}
    deck = build_deck(sections["Deck"])
    preds = PredicateTables(deck)
    fresh = PredicateTables(deck)
    follow = follow_table(sections["Follow"], preds)
    preds.follow_table = fresh.follow_table = follow
    for case in sections["Follow"].cases + sections["TrickWinner"].cases:
        for pred in filter(None, (getattr(case.condition, "pred", None), getattr(case, "pred", None),
                                  getattr(case.result, "pred", None) if hasattr(case, "result") else None)):
            fn = fresh.compile(pred)
            assert preds.table(pred) == [[fn(lead, trump) for lead in fresh.leads] for trump in fresh.trumps]
    expected = []
    for trump in fresh.trumps:
        row = []
        for lead in fresh.leads:
            allowed = deck.all_mask
            for case in sections["Follow"].cases if lead >= 0 else ():
                met = True
                if hasattr(case.condition, "pred"):
                    met = fresh.compile(case.condition.pred)(lead, trump) >> lead & 1
                if met:
                    allowed = (deck.all_mask if not hasattr(case.result, "pred")
                               else fresh.compile(case.result.pred)(lead, trump))
                    break
            row.append(allowed)
        expected.append(row)
    assert follow == expected
    winner = winner_rule(sections["TrickWinner"], preds)
    for trump in fresh.trumps:
        made = plans(winner.cases[trump + 1])
        for lead in fresh.leads:
            assert [_shape(entry) for entry in made[lead + 1]] == _plan(sections["TrickWinner"], fresh, lead, trump)


def _plan(rule, preds, lead, trump) -> list:
    """The plan of one trump and lead by its definition: per case written first (a case
    written again never decides), that applies (some card is needed), `(needed, or None when
    every admitted card is needed; admitted; pick)`."""
    everything, out, seen = preds.deck.all_mask, [], set()
    for case in rule.cases:
        written = (n.shape(case.condition), n.shape(case.pred), case.pick)
        if written in seen:
            continue
        seen.add(written)
        condition = case.condition
        if isinstance(condition, n.AnyPlayed):
            needed = preds.compile(condition.pred)(lead, trump)
        elif isinstance(condition, n.LeadIs):
            needed = everything if lead >= 0 and preds.compile(condition.pred)(lead, trump) >> lead & 1 else 0
        else:
            needed = everything
        admitted = preds.compile(case.pred)(lead, trump)
        if needed:
            pick = _pick(case.pick, admitted, preds.key(trump))
            out.append((None if needed | admitted == needed else needed, admitted, _shape((0, 0, pick))[2]))
    return out


def _shape(entry):
    needed, admitted, pick = entry
    return needed, admitted, (tuple(pick.key), pick.sign) if hasattr(pick, "key") else pick


@settings(max_examples=30, deadline=None, derandomize=True)
@given(hs.lists(predicates(), min_size=4, max_size=4), hs.booleans(), hs.booleans())
def test_follow_chains_made_by_rows_are_the_entries_one_by_one(texts, top, first):
    """The chains of a follow rule with lead rules (`P if able, else Q if able, but X may
    always be played`, a first-trick case), worked out row by row, equal their per-entry
    definition."""
    from rulekit.compile import leads
    a, b, c, d = texts
    source = DECK.format(top="top trumps 9 of trump suit" if top else "", always="",
                         follow=f"first trick -> {d} if able\n  lead is {a} -> any\n  lead is {b} -> {c} if able, "
                                f"else {d} if able, but {a} may always be played\n  "
                                f"otherwise -> same suit as lead if able, but {b} may always be played",
                         winner="otherwise -> highest card of lead suit")
    sections = {type(i).__name__: i for i in parse(source).items}
    follow = sections["Follow"]
    preds = PredicateTables(build_deck(sections["Deck"]))
    chains = leads.follow_chains(follow, preds, first)
    expected = []
    for trump in preds.trumps:
        row = []
        for lead in preds.leads:
            entry = leads.FREE
            for case in follow.cases if lead >= 0 else ():
                condition = case.condition
                if isinstance(condition, n.FirstTrick):
                    met = first
                elif isinstance(condition, n.LeadIs):
                    met = preds.compile(condition.pred)(lead, trump) >> lead & 1
                else:
                    met = True
                if met:
                    entry = leads._result_fns(case.result, preds)(lead, trump)
                    break
            row.append(entry)
        expected.append(row)
    assert chains == expected
