"""Sections for some of the player counts, and values read from `players` and `round`.

Pipeline place: merge → **counts** → checker and compiler. `end after 60 / players rounds`
and `deal round each` are turned into plain numbers and schedules for one player count
(`specialise`), so the checker and the compiler see the same nodes as for
`end after 20 rounds` and `deal [1, 2, ..., 20] by round each`. A game using them is checked
and compiled once per player count; every other game is untouched (`depends_on_count`).
`restrict` gives the sections for part of the player range, for a variant that is
required only for some counts (`required when players = 3`).
"""
from __future__ import annotations

from .._records import evolve

from ..compile.exprs import BASE_NAMES, ExprCompiler
from . import nodes as n

#: The most rounds a deal schedule read from `round` may have (an `end after` beyond it is
#: refused: the checker reads the schedule round by round).
MAX_SCHEDULE = 1000
_NAMES = {name: BASE_NAMES[name] for name in ("players", "round")}


class _Table:
    """Stands in for a state: what a count expression may read."""

    def __init__(self, players: int, round_: int = 1):
        self.n, self.round = players, round_


def depends_on_count(sections: dict) -> bool:
    end = sections.get("end")
    return isinstance(end, n.EndAfterRounds) and end.expr is not None or \
        any(deal.expr is not None for deal in _deals(sections))


def _deals(sections: dict) -> list:
    """The round's `deal` clauses (a round may deal more than once)."""
    rnd = sections.get("round")
    return [c for c in rnd.clauses if isinstance(c, n.Deal)] if rnd else []


def runs(counts) -> list[tuple[int, int]]:
    """Consecutive player counts as (lowest, highest) ranges: [2, 3, 5] → [(2, 3), (5, 5)]."""
    out: list[list[int]] = []
    for count in sorted(counts):
        if out and out[-1][1] == count - 1:
            out[-1][1] = count
        else:
            out.append([count, count])
    return [tuple(r) for r in out]


#: The sections `specialise` and `restrict` may replace.
_REPLACED = ("players", "end", "round")


def _memoised(memo: dict | None, key: tuple, sections: dict, make) -> dict:
    """`make()`'s sections, made once per `key` and the identity of the sections it may
    replace: a variant that keeps them gets the same nodes again, so the checker's cached
    analyses (keyed by node identity) are not repeated for every variant."""
    if memo is None:
        return make()
    originals = tuple(sections.get(k) for k in _REPLACED)
    full_key = key + tuple(map(id, originals))
    hit = memo.get(full_key)
    if hit is None:
        out = make()
        changed = {k: out[k] for k in _REPLACED if k in out and out[k] is not sections.get(k)}
        hit = memo[full_key] = (originals, changed)      # the originals kept alive: ids stay theirs
    return {**sections, **hit[1]} if hit[1] else sections


def restrict(sections: dict, low: int, high: int, memo: dict | None = None) -> dict:
    """The sections with `players low..high`."""
    players = sections.get("players")
    if players is None or (players.low, players.high) == (low, high):
        return sections
    return _memoised(memo, ("restrict", low, high), sections,
                     lambda: {**sections, "players": evolve(players, low=low, high=high)})


def specialise(sections: dict, players: int, report, memo: dict | None = None) -> dict:
    """The sections for one player count, with count values read as numbers. With a `memo`,
    sections already specialised for this count give the same nodes again."""
    return _memoised(memo, ("specialise", players), sections, lambda: _specialise(sections, players, report))


def _specialise(sections: dict, players: int, report) -> dict:
    out = dict(restrict(sections, players, players))
    end = out.get("end")
    rounds = None
    if isinstance(end, n.EndAfterRounds):
        rounds = end.rounds
        if end.expr is not None:
            rounds = _value(end.expr, players, 1, report, "the number of rounds")
            out["end"] = evolve(end, rounds=rounds, expr=None)
    for deal in _deals(out):            # every deal read from a count, not only the first
        if deal.expr is not None:
            out["round"] = _with_deal(out["round"], deal, _schedule(deal, players, rounds, report))
    return out


def _schedule(deal: n.Deal, players: int, rounds: int | None, report) -> n.Deal:
    reads_round = any(isinstance(node, n.Ref) and node.name == "round" for node in n.walk(deal.expr))
    if not reads_round:
        return evolve(deal, counts=(_value(deal.expr, players, 1, report, "a deal"),), expr=None)
    if rounds is None:
        report(deal, "a deal that changes with `round` needs `end after N rounds`, so that "
                     "every deal of the game is known",
               "end the game after a number of rounds, or list the deals: `deal [1, 2, 3] by round each`")
        return evolve(deal, counts=(0,), expr=None)
    if rounds > MAX_SCHEDULE:
        report(deal, f"a deal read from `round` is known for at most {MAX_SCHEDULE} rounds, not {rounds}")
        return evolve(deal, counts=(0,), expr=None)
    counts = tuple(_value(deal.expr, players, r, report, "a deal") for r in range(1, max(rounds, 1) + 1))
    return evolve(deal, counts=counts, by_round=True, expr=None)


def _with_deal(rnd: n.Round, old: n.Deal, new: n.Deal) -> n.Round:
    return evolve(rnd, clauses=tuple(new if c is old else c for c in rnd.clauses))


def _value(expr, players: int, round_: int, report, what: str) -> int:
    """`expr` read for a player count (and round); a problem is reported, 1 stands in."""
    compiler = ExprCompiler(_NAMES, {}, report)
    compiled = compiler.compile(expr, "int", per_seat_ok=False)
    if compiler.problems:
        return 1                    # a stand-in that causes no further complaint
    value = compiled.fn(_Table(players, round_), None)
    if value < 0:
        at = f"in round {round_} " if any(isinstance(x, n.Ref) and x.name == "round" for x in n.walk(expr)) else ""
        report(expr, f"{what} comes to {value} {at}with {players} players", "it must be 0 or more")
        return 1
    return value
