"""Scores in parts, teams and counters → generated source: the points of a round.

Pipeline place: compiler (`scoring.py` built the closures) → **codegen** (scoring) → the
generated module. A rule file with `teams ...`, `counter ...` or several score parts gets
its round's points from `scoring.py`: every case of every part is a closure, and a team's
function (`team_any(makers)`) a closure calling closures per seat. Here the same parts are
written as one function: per part a loop over the seats (or over each team's first seat),
its cases an `if`/`elif` chain whose tests and points are Python (`codegen_exprs.py`),
the counter changes in place, the partners' totals added up at the end. It does exactly
what `scoring._round_result` and `_keeping` do, which stay the reference: the parts in the
order of the file, the first case that applies, its changes made at once so that a later
case or part reads them, a seat's points given to its team.

A mechanism that gives some rounds' points itself (a round thrown in, a challenge settled)
said so with `scoring.override_round_points`; the written function asks it first, as the
closures do. When `rules.round_points` is not what `scoring.py` and those mechanisms made
(something else changed it), or a player count the game allows forms no teams, nothing is
written and the closures are called as before.
"""
from __future__ import annotations

from string import Template

from ..dsl import nodes as n
from .codegen_exprs import PLAYER_COUNTS, Expressions, NotWritten, Shared, team_members

_POINTS = """\
def $NAME(st):
    \"\"\"The round's points from the score parts, in the file's order; a case's counter
    changes are made at once (a later case reads them), and a seat's points go to its team.\"\"\"
    n = st.n
$OPEN$SEATS$PARTS$CLOSE$TEAMS    return points
"""

#: a mechanism's own points for some rounds (`scoring.override_round_points`)
_OVERRIDE = """\
    found = $OVERRIDE(st)
    if found is not None:               # a mechanism's own points for this round
        return found
"""

#: counters that a case changes: worked on as lists, kept as tuples (`scoring._round_result`)
_OPEN = """\
    work = {key: list(values) for key, values in st.extra["counters"].items()}
    st.extra["counters"] = work          # the cases read the changes made so far
"""
_CLOSE = """\
    st.extra["counters"] = {key: tuple(values) for key, values in work.items()}
"""

#: a seat's own points go to its team (`$$ADD`: when a part is per seat), and partners share
_TEAMS = """\
$ADD    points = [team_points[of[seat]] for seat in range(n)]
"""
_ADD = """\
    for seat in range(n):
        team_points[of[seat]] += points[seat]
"""


def emit(w, rules) -> str | None:
    """Write the round's points as a function of the state; its name, or None when the
    closures are called (`rules.round_points`)."""
    parts = rules.score_parts
    if parts is None or rules.round_points is not parts.built:
        return None
    plan = parts.plan
    if plan is not None and any(plan.teams(players) is None for players in rules.players):
        return None
    body, opened = [], any(case.changes for part in parts.parts for case in part.cases)
    try:
        for part in parts.parts:
            body.append(_part(w, part, parts))
    except NotWritten:
        return None
    per_seat = not all(part.team for part in parts.parts)        # a part scores each seat
    head, teams = "", ""
    if plan is not None:
        team_of = w.const("TEAM_OF", tuple(plan.team_of(k) for k in PLAYER_COUNTS), "each seat's team, by player count")
        head = f"    of = {team_of}[n]\n    team_points = [0] * len({_firsts(w, plan)}[n])\n"
        teams = Template(_TEAMS).substitute(ADD=_ADD if per_seat else "")
    name = w.name("round_points")
    overrides = "".join(Template(_OVERRIDE).substitute(OVERRIDE=w.bind("override", override))
                        for override in parts.overrides)
    seats = "    points = [0] * n\n" if per_seat or plan is None else ""
    w.lines(Template(_POINTS).substitute(NAME=name, OPEN=overrides + head + (_OPEN if opened else ""), SEATS=seats,
                                         PARTS="".join(body), CLOSE=_CLOSE if opened else "", TEAMS=teams))
    return name


def call(w, rules) -> str:
    """The name to call for the round's points (`rules.round_points` is set): the written
    function, or the closures bound."""
    return emit(w, rules) or w.bind("round_points", rules.round_points)


def _firsts(w, plan) -> str:
    return w.const("TEAM_FIRSTS", tuple(tuple(team[0] for team in plan.teams(k) or ()) for k in PLAYER_COUNTS),
                   "the first seat of each team, by player count")


def _part(w, part, parts) -> str:
    """One part's loop: each seat, or each team read for its first seat. The reads its cases
    repeat are made once, at the top of the loop (`codegen_exprs.Shared`)."""
    exprs, plan = Expressions(w, part.compiler), parts.plan
    shared = exprs.shared = Shared(w)
    _cases(w, exprs, part, parts)          # a first pass counts the repeated reads
    shared.counting = False
    cases = _cases(w, exprs, part, parts)
    exprs.shared = None
    if part.team:
        lines = [f"    for index, seat in enumerate({_firsts(w, plan)}[n]):"]
        add = "        team_points[index] += value"
    else:
        lines = ["    for seat in range(n):"]
        add = "        points[seat] += value"
    return "\n".join(lines + shared.lines("        ") + cases + [add]) + "\n"


def _cases(w, exprs, part, parts) -> list[str]:
    """The cases as an `if`/`elif` chain setting `value`, with their counter changes."""
    lines, word, plan = [], "if", parts.plan
    for case in part.cases:
        test = _test(w, exprs, case.condition, plan if part.team else None)
        lines.append(f"        {word} {test}:" if test is not None else
                     ("        else:" if word == "elif" else "        if True:"))
        lines.append(f"            value = {exprs.write(case.expr, 'seat')}")
        shared, exprs.shared = exprs.shared, None     # a change reads the changes before it
        lines.extend(_change(w, exprs, change, parts) for change in case.changes)
        exprs.shared = shared
        if test is None:
            break
        word = "elif"
    else:
        lines.append("        else:" if word == "elif" else "        if True:")
        lines.append("            value = 0")
    return lines


def _test(w, exprs, condition, team_plan) -> str | None:
    """A case's test as source, or None for a case that always applies (`otherwise`);
    `team_plan`: the teams, for a part scored per team."""
    if isinstance(condition, (n.Made, n.Missed)):
        equal = "==" if isinstance(condition, n.Made) else "!="
        if team_plan is None:
            return f"st.bids[seat] {equal} st.tricks_won[seat]"
        members = team_members(w, team_plan)
        each = w.name("each")
        return (f"sum([st.bids[{each}] or 0 for {each} in {members}[n][seat]]) {equal} "
                f"sum([st.tricks_won[{each}] for {each} in {members}[n][seat]])")
    if isinstance(condition, n.CondExpr):
        return exprs.write(condition.expr, "seat")
    return None


def _change(w, exprs, change, parts) -> str:
    """`add X to bags` / `set bags to X`: the counter of the seat, or of its team."""
    name = change.counter.text
    counter = f"work[{w.bind('counter', name)}]"
    at = "of[seat]" if parts.counters[name] and parts.plan is not None else "seat"
    value = exprs.write(change.expr, "seat")
    if isinstance(change, n.AddTo):
        return f"            {counter}[{at}] += {value}"
    return f"            {counter}[{at}] = {value}"
