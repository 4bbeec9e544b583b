"""Checks of a `player errors` section (table play): what it allows must exist in the round,
and a challenge must say how every outcome is settled.

Pipeline place: nodes → **checker** (called by `checker.Checker.run`). Each refusal names
what is missing in the rule file's own words.
"""
from __future__ import annotations

from . import nodes as n

KINDS = ("bids", "plays")
ROLES = ("challenger", "accused", "others")
OUTCOMES = ("right", "wrong")


def run(checker) -> None:
    section = checker.s.get("player errors")
    if section is None:
        return
    if "player decks" in checker.s:
        checker.report(section, "player errors are for trick games: this game places cards on a board",
                       "remove the `player errors` section")
        return
    round_ = checker.s.get("round")
    clauses = {type(c) for c in round_.clauses} if round_ is not None else set()
    tricks = bool(clauses & {n.Tricks, n.TricksAll})
    said: dict[str, object] = {}
    for item in section.items:
        key = _key(checker, item)
        if key is None:
            continue
        if key in said:
            checker.report(item, "the player errors say this twice", "keep one line of each kind")
        said[key] = item
        _needs(checker, item, key, tricks)
    _pairs(checker, section, said)


def _key(checker, item) -> str | None:
    if isinstance(item, n.OutOfTurn):
        return item.kind.text if checker.word(item.kind, KINDS, "kind of move out of turn") else None
    return "revokes" if isinstance(item, n.Revokes) else "challenge"


def _needs(checker, item, key: str, tricks: bool) -> None:
    """What the round must have for a line to mean something."""
    if key == "bids":
        bid = checker.bid
        in_turn = isinstance(bid, n.BidNumber) and not any(isinstance(o, n.Simultaneous) for o in bid.options)
        if not in_turn:
            checker.report(item, "bids out of turn need bids made in turn, like `bid 0..11, in turn from dealer`",
                           "the round has no `bid` clause" if bid is None else
                           "card bids and simultaneous bids have no turn to be out of")
    elif not tricks:
        checker.report(item, f"`{_words(key)}` needs tricks: the round plays none",
                       "add a `tricks ...` clause to the round, or remove this line")
    if key == "challenge":
        _challenge(checker, item)


def _words(key: str) -> str:
    return {"plays": "plays out of turn stand", "revokes": "revokes stand until challenged",
            "challenge": "challenge ends the round"}[key]


def _pairs(checker, section, said: dict) -> None:
    """Revokes and the challenge come together: one is what the other settles."""
    if "revokes" in said and "challenge" not in said:
        checker.report(said["revokes"], "revokes stand until challenged, but nothing says how a challenge is settled",
                       "add `challenge ends the round { right -> ...  wrong -> ... }`")
    if "challenge" in said and "revokes" not in said:
        checker.report(said["challenge"], "a challenge settles revokes, but no seat may revoke",
                       "add `revokes stand until challenged`")


def _challenge(checker, rule: n.ChallengeRule) -> None:
    seen = set()
    for case in rule.cases:
        if not checker.word(case.outcome, OUTCOMES, "outcome of a challenge"):
            continue
        if case.outcome.text in seen:
            checker.report(case, f"the challenge says twice what happens when it is {case.outcome.text}")
        seen.add(case.outcome.text)
        roles = set()
        for settle in case.settles:
            _settle(checker, settle, roles)
    for outcome in OUTCOMES:
        if outcome not in seen:
            checker.report(rule, f"the challenge does not say what happens when it is {outcome}",
                           f"add a case `{outcome} -> challenger scores ..., accused scores ...`")


def _settle(checker, settle: n.Settle, roles: set) -> None:
    if not checker.word(settle.role, ROLES, "role in a challenge"):
        return
    if settle.role.text in roles:
        checker.report(settle, f"this case gives `{settle.role.text}` points twice")
    roles.add(settle.role.text)
    if settle.points is None:
        if checker.bid is None:
            checker.report(settle, "`as made` scores a seat as if it took the tricks it bid, but nobody bids",
                           "give points instead, like `scores 10`")
    else:
        checker.exprs().compile(settle.points, "int")
