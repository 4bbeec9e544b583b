"""Teams (partnerships), counters kept from round to round, named bids, and scores in parts.

Pipeline place: checker and compiler → **teams** → engine. Nothing here runs for a game
that declares none of it: `extra_names` is empty, `build_scoring` returns False and the
plain per-seat score of `game.py` stays as it was.

- `teams opposite` / `teams 0+2, 1+3`: a `TeamPlan` gives the seats of each team for a
  player count; expressions read `team_tricks`, `team_bid`, `partner_bid`, `team_sum(...)`,
  `partner(...)`; `score per team { ... }` scores each team once; partners share one total.
- `counter bags per team`: a number per seat or team, from 0, kept between rounds, read
  by name and changed by score cases (`-> 10, add 1 to bags`, `set bags to bags % 10`).
- `bid 1..13 or nil`: `nil` is a bid worth 0 in `bid` and sums, and the word `nil` is true
  for a seat that bid it.
- Scores in parts: `score`, `score per team`, `score bags per team`, ... each add their
  points, in the order the file gives them; a part sees the counters earlier parts changed.
"""
from __future__ import annotations

from ..dsl import nodes as n
from ..dsl.merge import score_key
from .exprs import NEEDS, Compiled, FuncDef, NameDef, Unavailable

_NO_TEAMS = ("reads teams, but the rules declare none",
             "declare the partnerships: `teams opposite` or `teams 0+2, 1+3`")

#: Names and functions that read teams (documented in docs/language.md, "Teams").
TEAM_WORDS = ("team_tricks", "team_bid", "team_score", "team", "partner_tricks", "partner_bid",
              "team_sum", "team_any", "team_all", "partner")
#: Of those, the ones that read one seat's partner: they need teams of two.
PARTNER_WORDS = ("partner_tricks", "partner_bid", "partner")
#: Team words a `score per team` may read (the rest read one seat).
_TEAM_LEVEL = ("team_tricks", "team_bid", "team_score", "team", "score", "team_sum", "team_any", "team_all",
               "round", "players", "round_tricks")

NEEDS.update({word: (f"`{word}` {_NO_TEAMS[0]}", _NO_TEAMS[1]) for word in TEAM_WORDS})


class TeamPlan:
    """The partnerships a rule file declares, for any player count it allows."""

    def __init__(self, node: n.Teams):
        self.kind, self.listed = node.kind, node.seats
        self._teams: dict[int, tuple | None] = {}
        self._members: dict[int, tuple] = {}
        self._team_of: dict[int, tuple] = {}

    def teams(self, players: int) -> tuple[tuple[int, ...], ...] | None:
        """The seats of each team, or None when this many players cannot form them."""
        if players not in self._teams:
            self._teams[players] = self._form(players)
        return self._teams[players]

    def _form(self, players: int):
        if self.kind == "opposite":
            if players < 2 or players % 2:
                return None
            half = players // 2
            return tuple((seat, seat + half) for seat in range(half))
        seats = sorted(seat for team in self.listed for seat in team)
        return self.listed if seats == list(range(players)) else None

    def team_of(self, players: int) -> tuple[int, ...]:
        """Each seat's team number (its place in `teams(players)`)."""
        if players not in self._team_of:
            found = [0] * players
            for index, team in enumerate(self.teams(players) or ()):
                for seat in team:
                    found[seat] = index
            self._team_of[players] = tuple(found)
        return self._team_of[players]

    def members(self, players: int) -> tuple[tuple[int, ...], ...]:
        """For each seat, the seats of its team (itself included)."""
        if players not in self._members:
            teams, of = self.teams(players) or (), self.team_of(players)
            self._members[players] = tuple(teams[of[seat]] if teams else (seat,) for seat in range(players))
        return self._members[players]

    def pairs(self) -> bool:
        """Is every team two seats (so each seat has one partner)?"""
        return self.kind == "opposite" or all(len(team) == 2 for team in self.listed)


def team_plan(sections: dict) -> TeamPlan | None:
    node = sections.get("teams")
    return TeamPlan(node) if node is not None else None


class TeamScope(dict):
    """Names as a `score per team` reads them; `seat_names` inside `team_sum(...)`."""
    seat_names: dict = {}


# ---- names ------------------------------------------------------------------------------

def extra_names(sections: dict) -> dict:
    """The names this rule file adds to expressions: team words, counters, named bids."""
    names: dict = {}
    plan = team_plan(sections)
    if plan is not None:
        names.update(_team_names(plan))
    for key, item in sections.items():
        if key.startswith("counter "):
            names[item.name.text] = _counter_name(item, plan)
    for word in _named_bids(sections):
        names[word] = NameDef("bool", True, _bid_name_test(word), f"the seat bid `{word}`")
    return names


def _named_bids(sections: dict) -> tuple[str, ...]:
    rnd = sections.get("round")
    bid = next((c for c in rnd.clauses if isinstance(c, n.BidNumber)), None) if rnd else None
    return tuple(name.text for name in bid.named) if bid is not None else ()


def _bid_name_test(word: str):
    def test(st, p):
        names = st.extra.get("bid_names")
        return names is not None and names[p] == word
    return test


def _team_names(plan: TeamPlan) -> dict:
    members = plan.members

    def team_total(attr):
        return lambda st, p: sum(getattr(st, attr)[q] or 0 for q in members(st.n)[p])

    def partner_value(attr):
        return lambda st, p: getattr(st, attr)[_partner(members(st.n)[p], p)] or 0

    names = {
        "team_tricks": NameDef("int", True, team_total("tricks_won"), "tricks the seat's team took this round"),
        "team_bid": NameDef("int", True, team_total("bids"), "the team's bids added up (its contract)"),
        "team_score": NameDef("int", True, lambda st, p: st.scores[p], "the team's running total"),
        "team": NameDef("int", True, lambda st, p: plan.team_of(st.n)[p], "the seat's team, from 0"),
        "team_sum": FuncDef(_team_fold(plan, sum, "int", "int"), "a value added over the team's seats"),
        "team_any": FuncDef(_team_fold(plan, any, "bool", "bool"), "a condition true for a seat of the team"),
        "team_all": FuncDef(_team_fold(plan, all, "bool", "bool"), "a condition true for every seat of the team"),
    }
    if plan.pairs():
        names.update({
            "partner_tricks": NameDef("int", True, partner_value("tricks_won"), "tricks the partner took"),
            "partner_bid": NameDef("int", True, partner_value("bids"), "the partner's bid"),
            "partner": FuncDef(_partner_of(plan), "a value read for the seat's partner"),
        })
    else:
        for word in PARTNER_WORDS:
            names[word] = Unavailable(f"`{word}` reads one partner, but the teams have more than two seats",
                                      "add over the team instead: `team_sum(...)`")
    return names


def _partner(team: tuple, seat: int) -> int:
    return team[1] if team[0] == seat else team[0]


def _one_argument(compiler, node) -> bool:
    if len(node.args) == 1:
        return True
    compiler.report(node, f"`{node.func}` takes one value, not {len(node.args)}")
    return False


def _seat_level(compiler, node, want: str) -> Compiled:
    """The argument of a team function, read as one seat's value (even in a team score)."""
    names = compiler.names
    seat_names = getattr(names, "seat_names", None)
    if seat_names:
        compiler.names = seat_names
    try:
        before = compiler.problems
        inner = compiler.compile(node.args[0], want)
    finally:
        compiler.names = names
    if not inner.per_seat and compiler.problems == before:
        compiler.report(node, f"`{node.func}` reads a value of each seat, but this one is the same for all",
                        "write it without the function")
    return inner


def _team_fold(plan: TeamPlan, fold, arg_type: str, result_type: str):
    def compile_(compiler, node) -> Compiled:
        if not _one_argument(compiler, node):
            return Compiled(lambda st, p: 0, result_type, True)
        f, members = _seat_level(compiler, node, arg_type).fn, plan.members
        return Compiled(lambda st, p: fold([f(st, q) for q in members(st.n)[p]]), result_type, True)
    compile_.team_fold = (fold.__name__, plan)     # for the generator (`codegen_exprs._team_fold`)
    return compile_


def _partner_of(plan: TeamPlan):
    def compile_(compiler, node) -> Compiled:
        if not _one_argument(compiler, node):
            return Compiled(lambda st, p: 0, "int", True)
        inner = _seat_level(compiler, node, None)
        f, members = inner.fn, plan.members
        return Compiled(lambda st, p: f(st, _partner(members(st.n)[p], p)), inner.type, True)
    return compile_


def _counter_name(counter: n.Counter, plan: TeamPlan | None) -> NameDef:
    name = counter.name.text
    if counter.per.text == "team" and plan is not None:
        of = plan.team_of
        return NameDef("int", True, lambda st, p: st.extra["counters"][name][of(st.n)[p]],
                       "a counter of the seat's team, kept between rounds")
    return NameDef("int", True, lambda st, p: st.extra["counters"][name][p],
                   "a counter of the seat, kept between rounds")


def team_scope(names: dict, sections: dict) -> TeamScope:
    """`names` as a `score per team` reads them: words of one seat refused, with a hint."""
    scope = TeamScope(names)
    scope.seat_names = names
    team_counters = {item.name.text for key, item in sections.items()
                     if key.startswith("counter ") and item.per.text == "team"}
    for word, known in names.items():
        if word in _TEAM_LEVEL or word in team_counters or not getattr(known, "per_seat", False) \
                and not isinstance(known, FuncDef):
            continue
        if isinstance(known, FuncDef):
            hint = "a team score reads the team's values: `team_sum(...)`"
        elif f"team_{word}" in names:
            hint = f"read the team's value, `team_{word}`, or add it over the team: `team_sum({word})`"
        else:
            hint = f"add it over the team: `team_sum({word})`"
        scope[word] = Unavailable(f"`{word}` is one seat's value, but this score is per team", hint)
    return scope


def needs_scoring(sections: dict) -> bool:
    """Does the file use teams, counters or scores in parts (so `build_scoring` scores)?"""
    return any(key == "teams" or key.startswith("counter ") or (key.startswith("score") and key not in
               ("score", "score at end")) for key in sections) or any(
        case.changes for case in getattr(sections.get("score"), "cases", ()))


def score_sections(sections: dict) -> list[tuple[str, n.Score]]:
    """The score parts in the order of the file."""
    return [(key, item) for key, item in sections.items() if isinstance(item, n.Score)]


def per_team(score: n.Score) -> bool:
    return score.per is not None and score.per.text == "team"


def counters(sections: dict) -> list[n.Counter]:
    return [item for key, item in sections.items() if key.startswith("counter ")]


__all__ = ["TeamPlan", "team_plan", "extra_names", "team_scope", "needs_scoring", "score_sections",
           "per_team", "counters", "score_key", "TEAM_WORDS"]
