"""Sections of a rule file, and how `extend` and variants replace them.

Pipeline place: nodes → **merge** → checker. A rule file is a set of sections (`deck`,
`round`, `follow`, `table bonus`, ...). A variant or an extending file names sections to
replace; inside `round`, clauses are replaced one by one (`deal`, `bid`, `repeat`, ...) so
a variant can change one clause and keep the rest.
"""
from __future__ import annotations

from .._records import evolve

from . import auction_nodes as an
from . import nodes as n
from . import overrides

_SECTION = {
    n.GameTitle: "game", n.Players: "players", n.Deck: "deck", n.Round: "round",
    n.Follow: "follow", n.TrickWinner: "trick winner", n.Score: "score",
    n.EndWhen: "end", n.EndAfterRounds: "end", n.Winner: "winner", n.Extend: "extend",
    n.PlayerDecks: "player decks", n.Board: "board", n.Setup: "setup", n.FinalScore: "final score",
    n.PlayerErrors: "player errors",
    n.Teams: "teams",
}
_CLAUSE = {
    n.Dealer: "dealer", n.Deal: "deal", n.Pass: "pass", n.BidNumber: "bid", n.BidCard: "bid",
    n.TrumpFromBid: "trump", n.TrumpFixed: "trump", n.TrumpTurned: "trump", n.TrumpLastDealt: "trump",
    n.Tricks: "tricks", n.TricksAll: "tricks", n.Repeat: "repeat",
    n.Choose: "choose", n.Reveal: "reveal", n.PlaceRevealed: "place", n.Draw: "draw",
    n.Shuffle: "shuffle", n.Tiebreaker: "tiebreaker",
    an.Auction: "auction", an.ChooseTrump: "choose trump", an.OrderUp: "order up",
}
#: Sections whose clauses a variant replaces one by one.
_CLAUSE_SECTIONS = ("round", "setup")


def section_key(item) -> str:
    if isinstance(item, n.Table):
        return f"table {item.name.text}"
    if isinstance(item, n.Variant):
        return f"variant {item.name.text}"
    if isinstance(item, n.Score):
        return score_key(item)
    if isinstance(item, n.Counter):
        return f"counter {item.name.text}"
    if isinstance(item, n.ChangeTable):
        return f"change table {item.name.text}"
    if isinstance(item, n.ChangeCases):
        return f"change {item.section}"
    return _SECTION.get(type(item), type(item).__name__.lower())


def score_key(score: n.Score) -> str:
    """`score`, `score per team`, `score bags` or `score bags per team`."""
    per = score.per.text if score.per is not None and score.per.text != "seat" else None
    name = score.name.text if score.name is not None else None
    return " ".join(["score"] + ([name] if name else []) + ([f"per {per}"] if per else []))


def clause_key(clause) -> str:
    return _CLAUSE.get(type(clause), type(clause).__name__.lower())


def sections(items, report) -> dict[str, object]:
    """Items by section key; a second item with the same key is reported as a duplicate."""
    found: dict[str, object] = {}
    for item in items:
        key = section_key(item)
        if key in found:
            report(item, f"`{key}` is defined twice", "keep one definition; a variant can replace it")
            continue
        found[key] = item
    return found


def apply_items(base: dict, items, report, who: str) -> dict:
    """`base` with the sections in `items` replacing (or, for round clauses, merging into) it."""
    merged = dict(base)
    added = []
    for key, item in sections(items, report).items():
        if key in _CLAUSE_SECTIONS and key in merged:
            merged[key] = merge_round(merged[key], item, report)
        elif key.startswith("change "):
            overrides.change(merged, key[7:], item, report)
        elif key.startswith("table ") and key not in merged and who != "this file":
            merged[key] = item
            added.append(item)
        elif key in ("game", "extend") or key.startswith("variant "):
            if key != "game" or who == "this file":
                merged[key] = item
            else:
                report(item, f"a variant cannot contain `{key}`")
        else:
            merged[key] = item
    for table in added:
        overrides.table_is_read(merged, table, report, who)
    return merged


def merge_round(base: n.Round, change: n.Round, report) -> n.Round:
    """`base`'s clauses with `change`'s clauses replacing those of the same kind."""
    clauses = {clause_key(c): c for c in base.clauses}
    for clause in change.clauses:
        clauses[clause_key(clause)] = clause
    return evolve(base, clauses=tuple(clauses.values()))
