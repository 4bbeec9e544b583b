"""Round scores from the score parts of a rule file, with teams and counters.

Pipeline place: compiler → **scoring** → engine (`Ruleset.end_round`). Only a rule file that
declares teams, counters or scores in parts comes here (`teams.needs_scoring`); the others
keep the one per-seat score closure of `game.py`.

At the end of a round every part (`score`, `score per team`, `score bags per team`, ...) is
read in the order of the file: a per-seat part once per seat, a per-team part once per
team. The first case that applies gives the points and makes its counter changes at once,
so a later case or part reads the changed counters. A seat's points go to its team: every
seat of a team adds the team's total, so partners always show the same score. The result
is worked out on a copy of the counters (`round_result` changes nothing), which the end
of the round then keeps.
"""
from __future__ import annotations

from ..dsl import nodes as n
from .cardsets_expr import SetExprCompiler
from .teams import counters, per_team, score_sections, team_scope


def build_scoring(rules, sections: dict, exprs, unreachable) -> bool:
    """Set `rules.score`, `rules.round_points` and the counter hooks; False when the file
    needs none of it (its plain `score` is built as before)."""
    from .teams import needs_scoring
    if not needs_scoring(sections):
        return False
    plan = rules.team_plan
    parts, written = [], []
    for _, score in score_sections(sections):
        team = per_team(score)
        names = team_scope(exprs.names, sections) if team else exprs.names
        compiler = SetExprCompiler(names, exprs.tables, unreachable, exprs.words)
        cases = [(_test(case.condition, compiler, team, plan), compiler.compile(case.expr).fn,
                  tuple(_change(change, compiler, plan, sections) for change in case.changes))
                 for case in score.cases]
        parts.append((team, cases))
        written.append(ScorePart(team, compiler, tuple(score.cases)))
    result = _round_result(parts, plan)
    rules.score = lambda st, seat: result(st)[0][seat]
    rules.round_points = _keeping(result)
    kept = counters(sections)
    rules.score_parts = ScoreParts(tuple(written), plan, {c.name.text: c.per.text == "team" for c in kept},
                                   built=rules.round_points)
    if kept:
        _count_between_rounds(rules, kept, plan)
    return True


class ScorePart:
    """One score part as the file gives it, with the compiler that compiled its cases.
    (Plain classes, not attrs: a first load imports no more than it needs.)"""
    __slots__ = ("team", "compiler", "cases")

    def __init__(self, team: bool, compiler, cases: tuple):
        self.team = team            # `score ... per team`: once per team, read for its first seat
        self.compiler = compiler    # its cases' closures are this compiler's (`compiled` by node)
        self.cases = cases          # the `n.ScoreCase` nodes, in order


class ScoreParts:
    """What `rules.round_points` computes, for the generator to write out
    (`codegen_scoring.py`): the parts, the teams, the counters (name -> per team?) and the
    mechanisms that give some rounds' points themselves (`override_round_points`), in the
    order they are asked. `built` is the function made last: when `rules.round_points` is
    another, something the generator does not know changed it, and the closures are called."""
    __slots__ = ("parts", "plan", "counters", "built", "overrides")

    def __init__(self, parts: tuple, plan, counters: dict, built):
        self.parts, self.plan, self.counters, self.built = parts, plan, counters, built
        self.overrides: list = []


def override_round_points(rules, override) -> None:
    """A mechanism that gives some rounds' points itself (a round thrown in scores nothing, a
    challenge settles them): `override(st)` returns them, or None for the parts' points (and
    their counter changes). The written points ask the same function first."""
    inner = rules.round_points

    def round_points(st):
        found = override(st)
        return found if found is not None else inner(st)
    rules.round_points = round_points
    parts = rules.score_parts
    if parts is not None:
        parts.overrides.insert(0, override)
        parts.built = round_points


def _test(condition, compiler, team: bool, plan):
    if isinstance(condition, (n.Made, n.Missed)):
        made = isinstance(condition, n.Made)
        if team:
            members = plan.members

            def team_made(st, p):
                seats = members(st.n)[p]
                return (sum(st.bids[q] or 0 for q in seats) == sum(st.tricks_won[q] for q in seats)) is made
            return team_made
        return lambda st, p: (st.bids[p] == st.tricks_won[p]) is made
    if isinstance(condition, n.CondExpr):
        return compiler.compile(condition.expr).fn
    return lambda st, p: True


def _change(change, compiler, plan, sections):
    name = change.counter.text
    counter = sections[f"counter {name}"]
    value = compiler.compile(change.expr).fn
    of = plan.team_of if counter.per.text == "team" and plan is not None else None
    adds = isinstance(change, n.AddTo)

    def apply(st, seat, work):
        index = of(st.n)[seat] if of is not None else seat
        amount = value(st, seat)
        work[name][index] = work[name][index] + amount if adds else amount
    return apply


def _round_result(parts, plan):
    def result(st):
        """(points per seat, counters after the round), without changing the state."""
        players = st.n
        teams = plan.teams(players) if plan is not None else None
        saved = st.extra.get("counters")
        work = {key: list(values) for key, values in saved.items()} if saved is not None else None
        seat_points, team_points = [0] * players, [0] * (len(teams) if teams else 0)
        if work is not None:
            st.extra["counters"] = work
        try:
            for team, cases in parts:
                units = [members[0] for members in teams] if team else range(players)
                for index, seat in enumerate(units):
                    value = _case_points(cases, st, seat, work)
                    if team:
                        team_points[index] += value
                    else:
                        seat_points[seat] += value
        finally:
            if work is not None:
                st.extra["counters"] = saved
        kept = {key: tuple(values) for key, values in work.items()} if work is not None else None
        if not teams:
            return seat_points, kept
        of = plan.team_of(players)
        for seat, value in enumerate(seat_points):
            team_points[of[seat]] += value
        return [team_points[of[seat]] for seat in range(players)], kept
    return result


def _case_points(cases, st, seat: int, work) -> int:
    for test, points, changes in cases:
        if test(st, seat):
            value = points(st, seat)
            for change in changes:
                change(st, seat, work)
            return value
    return 0


def _keeping(result):
    def round_points(st) -> list[int]:
        points, kept = result(st)
        if kept is not None:
            st.extra["counters"] = kept
        return points
    return round_points


# ---- counters: set-up, views, restore ---------------------------------------------------------

def _count_between_rounds(rules, kept: list, plan) -> None:
    def sizes(players: int) -> dict[str, int]:
        teams = plan.teams(players) if plan is not None else None
        return {c.name.text: len(teams) if c.per.text == "team" and teams else players for c in kept}

    def start(st) -> None:
        st.extra["counters"] = {name: (0,) * size for name, size in sizes(st.n).items()}

    def view(st, seat, out) -> None:
        out["counters"] = {name: list(values) for name, values in st.extra["counters"].items()}

    def restore(st, data) -> None:
        from .views import ViewError
        wanted = sizes(st.n)
        given = data.get("counters")
        if given is None:
            start(st)
            return
        if not isinstance(given, dict) or set(given) != set(wanted):
            raise ViewError(f"`counters` must give {', '.join(sorted(wanted))}")
        for name, values in given.items():
            if not isinstance(values, list) or len(values) != wanted[name] or \
                    not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
                raise ViewError(f"counter {name!r} needs {wanted[name]} whole numbers")
        st.extra["counters"] = {name: tuple(given[name]) for name in wanted}

    rules.on_start.append(start)
    rules.view_hooks.append(view)
    rules.restore_hooks.append(restore)

