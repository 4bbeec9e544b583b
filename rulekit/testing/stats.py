"""Balance figures of random games, for designers: is it fair, and does it end?

Pipeline place: runner → **stats** → `Report.stats`, `rulekit check --stats`. Collected from
games that finished cleanly, per player count: game length (decisions and rounds), how often
each seat wins (a shared win counts for every winner) with a 95% Wilson interval, how often a
bid is made exactly (rounds whose `last_round` has bids), and how often the lead changes (the
seat alone in front after a round is another than after the last round with a seat alone in
front). Random players say how the rules behave, not how good players play them.
"""
from __future__ import annotations

import math
import statistics

import attrs

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (0..1 each end)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


@attrs.define
class CountStats:
    """Figures for one player count."""
    players: int
    lengths: list[int] = attrs.field(factory=list)
    rounds: list[int] = attrs.field(factory=list)
    wins: list[int] = attrs.field(factory=list)
    bids: int = 0
    made: int = 0
    lead_changes: list[int] = attrs.field(factory=list)

    def __attrs_post_init__(self):
        if not self.wins:
            self.wins = [0] * self.players

    @property
    def games(self) -> int:
        return len(self.lengths)

    def add(self, decisions: int, rounds: list[dict], winners: list[int]) -> None:
        self.lengths.append(decisions)
        self.rounds.append(len(rounds))
        for seat in winners:
            if 0 <= seat < self.players:
                self.wins[seat] += 1
        leader, changes = None, 0
        for record in rounds:
            for bid, tricks in zip(record.get("bids") or [], record.get("tricks_won") or []):
                if isinstance(bid, int):
                    self.bids += 1
                    self.made += bid == tricks
            front = _alone_in_front(record.get("scores") or [])
            if front is not None:
                changes += leader is not None and front != leader
                leader = front
        self.lead_changes.append(changes)

    def summary(self) -> dict:
        games = self.games
        lengths = sorted(self.lengths)
        return {
            "players": self.players, "games": games,
            "length": _spread(lengths), "rounds": _spread(sorted(self.rounds)),
            "win_share": [w / games if games else None for w in self.wins],
            "win_interval": [wilson(w, games) for w in self.wins],
            "bid_success": self.made / self.bids if self.bids else None,
            "lead_changes": statistics.fmean(self.lead_changes) if self.lead_changes else None,
        }


def _alone_in_front(scores: list[int]) -> int | None:
    if not scores:
        return None
    best = max(scores)
    leaders = [seat for seat, score in enumerate(scores) if score == best]
    return leaders[0] if len(leaders) == 1 else None


def _spread(values: list[int]) -> dict | None:
    """min, quartiles and max of sorted values."""
    if not values:
        return None
    def at(q: float) -> float:
        return values[min(len(values) - 1, int(q * (len(values) - 1) + 0.5))]
    return {"min": values[0], "q1": at(0.25), "median": at(0.5), "q3": at(0.75), "max": values[-1],
            "mean": statistics.fmean(values)}


@attrs.define
class Stats:
    """`CountStats` per player count."""
    counts: dict[int, CountStats] = attrs.field(factory=dict)

    def add(self, players: int, decisions: int, rounds: list[dict], winners: list[int]) -> None:
        if players not in self.counts:
            self.counts[players] = CountStats(players)
        self.counts[players].add(decisions, rounds, winners)

    def summary(self) -> list[dict]:
        return [self.counts[p].summary() for p in sorted(self.counts)]

    def lines(self) -> list[str]:
        """The figures as plain text, one block per player count."""
        out = []
        for figures in self.summary():
            out += describe(figures)
        return out


def describe(figures: dict) -> list[str]:
    """A player count's figures as a few lines of text."""
    length, rounds = figures["length"], figures["rounds"]
    lines = [f"{figures['players']} players, {figures['games']} games:"]
    if length:
        lines.append(f"  length: {length['min']}..{length['max']} decisions (median {length['median']:g}, "
                     f"quartiles {length['q1']:g}..{length['q3']:g}); "
                     f"{rounds['min']}..{rounds['max']} rounds (median {rounds['median']:g})")
    shares = []
    for seat, (share, (low, high)) in enumerate(zip(figures["win_share"], figures["win_interval"])):
        if share is not None:
            shares.append(f"seat {seat} {share:.0%} ({low:.0%}–{high:.0%})")
    if shares:
        lines.append("  wins (95% interval): " + ", ".join(shares))
    if figures["bid_success"] is not None:
        lines.append(f"  bids made exactly: {figures['bid_success']:.1%}")
    if figures["lead_changes"] is not None:
        lines.append(f"  lead changes per game: {figures['lead_changes']:.2f}")
    return lines
