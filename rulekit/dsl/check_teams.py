"""Checks of teams, counters, score parts and named bids, for `checker.Checker`.

Pipeline place: nodes → merge → **checker** → compiler. `run(checker)` is called once per
game after the other sections; each problem goes through `checker.report` in the
language's own words ("`team_tricks` reads teams, but the rules declare none").
"""
from __future__ import annotations

from ..compile.cardsets_expr import SetExprCompiler
from ..compile.exprs import BASE_NAMES, BID_NAMES, suggest
from ..compile.teams import TeamPlan, per_team, score_sections, team_scope
from . import nodes as n

PER_WORDS = ("seat", "team")


def run(checker) -> None:
    s = checker.s
    check_teams(checker, s.get("teams"))
    for key, item in s.items():
        if key.startswith("counter "):
            check_counter(checker, item)
    for key, score in score_sections(s):
        check_part(checker, key, score)
    check_named_bids(checker)


def check_teams(checker, teams: n.Teams | None) -> None:
    if teams is None:
        return
    low, high = checker.players_range
    if teams.kind == "opposite":
        odd = [count for count in range(low, high + 1) if count % 2 or count < 2]
        if odd:
            checker.report(teams, f"`teams opposite` pairs each seat with the one across the table, "
                                  f"but {_counts(odd)} cannot sit in pairs",
                           "allow only even player counts (`players 4`), or list the teams: `teams 0+2, 1+3`")
        return
    seats = [seat for team in teams.seats for seat in team]
    doubled = sorted({seat for seat in seats if seats.count(seat) > 1})
    if doubled:
        checker.report(teams, f"seat {doubled[0]} is in more than one team", "list each seat once")
    for count in range(low, high + 1):
        if sorted(set(seats)) != list(range(count)):
            checker.report(teams, f"the teams list seats {_seats(seats)}, but {count} players sit at seats "
                                  f"0..{count - 1}", "list every seat once, like `teams 0+2, 1+3`, or "
                                                     "use `teams opposite`")
            break


def _counts(counts: list[int]) -> str:
    words = [str(c) for c in counts]
    return (", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]) + " players"


def _seats(seats: list[int]) -> str:
    return ", ".join(map(str, sorted(set(seats))))


def check_counter(checker, counter: n.Counter) -> None:
    if not checker.word(counter.per, PER_WORDS, "way to keep a counter"):
        return
    if counter.per.text == "team" and "teams" not in checker.s:
        checker.report(counter.per, "this counter is kept per team, but the rules declare no teams",
                       "declare the partnerships: `teams opposite` or `teams 0+2, 1+3`, or keep it `per seat`")
    taken = set(BASE_NAMES) | set(BID_NAMES) | set(checker.extra_names) - {counter.name.text}
    if counter.name.text in taken or counter.name.text in ("team_sum", "partner"):
        checker.report(counter.name, f"`{counter.name.text}` already names a value the rules read",
                       "give the counter a name of its own, like `bags`")


def check_part(checker, key: str, score: n.Score) -> None:
    """One score part: its `per` word, its cases, the counters its cases change."""
    team = per_team(score)
    if score.per is not None and checker.word(score.per, PER_WORDS, "way to score") and team \
            and "teams" not in checker.s:
        checker.report(score.per, "this score is per team, but the rules declare no teams",
                       "declare the partnerships: `teams opposite` or `teams 0+2, 1+3`, or score `per seat`")
        return
    if key == "score":
        compiler = None                     # `Checker.check_score` reads its cases
    else:
        names = checker.exprs().names
        compiler = SetExprCompiler(team_scope(names, checker.s) if team else names, checker.exprs().tables,
                                   checker.report, checker.card_words)
    for case in score.cases:
        if compiler is not None:
            if isinstance(case.condition, (n.Made, n.Missed)) and checker.bid is None:
                checker.report(case.condition, "`made` and `missed` compare tricks with the bid, "
                                               "but the round has no bidding")
            if isinstance(case.condition, n.CondExpr):
                compiler.compile(case.condition.expr, "bool")
            compiler.compile(case.expr, "int")
        for change in case.changes:
            check_change(checker, change, team, compiler or checker.exprs())


def check_change(checker, change, team: bool, compiler) -> None:
    name = change.counter.text
    counter = checker.s.get(f"counter {name}")
    if counter is None:
        known = [key[8:] for key in checker.s if key.startswith("counter ")]
        checker.report(change.counter, f"unknown counter `{name}`",
                       suggest(name, known) or "declare it: `counter " + name + " per team` (or `per seat`)")
    elif team and counter.per.text == "seat":
        checker.report(change.counter, f"`{name}` is kept per seat, but this score is per team",
                       "change it in a per-seat score, or keep the counter `per team`")
    compiler.compile(change.expr, "int")


def check_named_bids(checker) -> None:
    bid = checker.bid
    if not isinstance(bid, n.BidNumber) or not bid.named:
        return
    if any(isinstance(o, n.Simultaneous) for o in bid.options):
        checker.report(bid.named[0], "a bid by name is made in turn, but these bids are simultaneous",
                       "bid in turn: `in turn from left of dealer` instead of `simultaneous`")
    seen: set[str] = set()
    taken = set(BASE_NAMES) | set(BID_NAMES) | {k[8:] for k in checker.s if k.startswith("counter ")}
    for name in bid.named:
        if name.text in seen:
            checker.report(name, f"the bid `{name.text}` is named twice")
        elif name.text in taken or name.text.startswith(("team", "partner")):
            checker.report(name, f"`{name.text}` already names a value the rules read",
                           "call the bid something else, like `nil`")
        seen.add(name.text)


def check_bid_limit(checker, clause: n.BidNumber) -> None:
    """`bid 0..(13 - round)`: the highest bid is a number read for the bidder."""
    checker.exprs().compile(clause.limit, "int")


def check_trump_last_dealt(checker, clause: n.TrumpLastDealt) -> None:
    """`trump suit of last card dealt`: a suit, and a deal to take the card from."""
    if checker.word(clause.attr, ("suit", "colour", "color"), "card attribute") is False:
        return
    if checker.deal is None:
        checker.report(clause, "the trump comes from the last card dealt, but no cards are dealt",
                       "add `deal N each`")


__all__ = ["run", "check_trump_last_dealt", "TeamPlan"]
