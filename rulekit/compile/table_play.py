"""`player errors` → table play: steps that take moves out of turn, the challenge's settlement,
and the views' table keys.

Pipeline place: checker → **compiler** → engine. `install` swaps a ruleset's in-turn bid step
and trick step for the table-play steps of `engine/table_steps.py` (which keep the ordinary
steps inside, for legality and for ending a trick), compiles the `challenge ends the round`
cases into one function, and lets the score read a challenged round's settled points. A
rule file without the section is compiled as before.

View keys (table play only): `out_of_turn` (the current trick's cards played ahead of their
turn, `[seat, card]` in the proper order), `proper_order` (the current trick as it is
judged, from its leader), `revokes` (per seat, the round's revokes as `{"trick", "card",
"lead"}`; a seat sees only its own, null for the others: nobody else knows until a
challenge), `last_challenge` (the last challenge: challenger, accused, whether it was right,
the accused's revokes, the points; open to all).
"""
from __future__ import annotations

from ..dsl import nodes as n
from ..engine import steps as st_
from ..engine.table_steps import TableBid, TableTricks, revokes_of
from .scoring import override_round_points
from .views import ViewError

#: The roles a challenge case gives points to.
ROLES = ("challenger", "accused", "others")
#: The outcomes a challenge block has a case for.
OUTCOMES = ("right", "wrong")
_MAX_SEATS = 16


def install(rules, section: n.PlayerErrors, exprs) -> None:
    """Table play for `rules`: its steps, its challenge, its score, its views."""
    early = {item.kind.text for item in section.items if isinstance(item, n.OutOfTurn)}
    revokes = any(isinstance(item, n.Revokes) for item in section.items)
    rule = next((item for item in section.items if isinstance(item, n.ChallengeRule)), None)
    score = rules.score or (lambda st, seat: 0)
    settle = _settlement(rule, score, exprs) if rule is not None else None
    for index, step in enumerate(rules.steps):
        if isinstance(step, st_.BidNumber) and not step.simultaneous and "bids" in early:
            rules.steps[index] = TableBid(step)
        elif isinstance(step, st_.Tricks):
            rules.steps[index] = TableTricks(step, "plays" in early, revokes, settle, _MAX_SEATS)
    rules.score = _settled_or(score)
    if rules.round_points is not None:
        override_round_points(rules, _settled_points)
    table = TableViews(rules)
    rules.view_hooks.append(table.view)
    rules.restore_hooks.append(table.restore)


def _settled_or(score):
    """The score of a round: its settled points when a challenge ended it."""
    def score_of(st, seat):
        settled = st.extra.get("settled")
        return settled[seat] if settled is not None else score(st, seat)
    return score_of


def _settled_points(st) -> list[int] | None:
    """Scores in parts (teams, counters): a challenged round gives its settled points and
    changes no counter."""
    settled = st.extra.get("settled")
    return list(settled) if settled is not None else None


def _as_made(score):
    """A seat's score as if it had taken exactly the tricks it bid."""
    def as_made(st, seat):
        won = st.tricks_won[seat]
        st.tricks_won[seat] = st.bids[seat] if st.bids[seat] is not None else won
        try:
            return score(st, seat)
        finally:
            st.tricks_won[seat] = won
    return as_made


def _settlement(rule: n.ChallengeRule, score, exprs):
    """(state, challenger, accused, right) -> the round's points per seat."""
    made = _as_made(score)
    cases = {}
    for case in rule.cases:
        cases[case.outcome.text] = {s.role.text: made if s.points is None else exprs.compile(s.points).fn
                                    for s in case.settles}

    def settle(st, challenger, accused, right):
        roles = cases["right" if right else "wrong"]
        points = []
        for seat in range(st.n):
            role = "challenger" if seat == challenger else "accused" if seat == accused else "others"
            fn = roles.get(role)
            points.append(fn(st, seat) if fn is not None else 0)
        return points
    return settle


class TableViews:
    """The table-play keys of a view, and reading them back."""

    def __init__(self, rules):
        self.rules = rules

    def view(self, st, seat, out: dict) -> None:
        texts = self.rules.deck.texts
        trick, leader, n_ = st.trick, st.leader, st.n
        ordered = sorted(trick, key=lambda e: (e[0] - leader) % n_) if trick else []
        turn = (st.current_player - leader) % n_ if st.current_player is not None and leader is not None else 0
        out["proper_order"] = [[s, texts[c]] for s, c in ordered]
        out["out_of_turn"] = [[s, texts[c]] for s, c in ordered if (s - leader) % n_ > turn]
        playing = not st.is_terminal and isinstance(self.rules.steps[st.step], TableTricks)
        out["revokes"] = [[{"trick": t, "card": texts[c], "lead": texts[lead]} for t, c, lead in mine]
                          if seat is None or seat == p else None
                          for p, mine in enumerate(revokes_of(st) if playing else ((),) * n_)]
        out["last_challenge"] = st.extra.get("challenge")

    def restore(self, st, data: dict) -> None:
        by_text = {text: card for card, text in enumerate(self.rules.deck.texts)}
        revokes = data.get("revokes") or [[]] * st.n
        if len(revokes) != st.n or any(r is None for r in revokes):
            raise ViewError("a full view is needed: `revokes` lists every seat's revokes")
        st.extra["revokes"] = tuple(tuple((int(r["trick"]), by_text[r["card"]], by_text[r["lead"]])
                                          for r in mine) for mine in revokes)
        st.extra["settled"] = None
        st.extra["challenge"] = data.get("last_challenge")
        led = [c for s, c in st.trick if s == st.leader]
        st.lead = led[0] if led else -1
