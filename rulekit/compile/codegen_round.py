"""The end of a round → generated source: the points of a plain `score` section and the
bookkeeping of `Ruleset.end_round`, as one function.

Pipeline place: compiler → **codegen** (round) → engine. Written only for a trick game
without a grid; a plain `score { made -> ..., missed -> ... }` gets its cases as tests on
the bids and tricks with the points' closures bound; scores in parts, teams, counters or a
wrapped score (auctions, table play) are called as the compiler built them. The end of the
game (final scores, winners) stays `Ruleset.finish`. It does exactly what
`Ruleset.end_round` (`compile/game.py`) does, which stays the reference.
"""
from __future__ import annotations

from string import Template

from ..engine.history import seal

_END_ROUND = """\
def $NAME(st):
    \"\"\"The round is over: its points, the record of it, the end of the game or the next round.\"\"\"
    $SEAL(st)
$POINTS    scores = st.scores
    for seat in range(st.n):
        scores[seat] += points[seat]
    st.last_round = {"round": st.round, "bids": list(st.bids), "tricks_won": list(st.tricks_won),
                     "points": points, "scores": list(scores)}
    if st.dealer is not None:
        st.dealt[st.dealer] += 1
    ended = $END(st, None)
    if ended or st.round >= $RULES.max_rounds:
        $RULES.finish(st, ended)
        return
    st.round += 1
$NEXT    $RULES.reset_round(st)
"""


def emit(w, rules) -> str | None:
    """Write the end of the round; its name, or None for a game this does not cover."""
    if rules.grid is not None or rules.end is None:
        return None
    names = {"NAME": w.name("end_round"), "SEAL": w.bind("seal", seal), "RULES": w.bind("rules", rules),
             "END": w.bind("end", rules.end),
             "NEXT": "    if st.dealer is not None:\n        st.dealer = (st.dealer + 1) % st.n\n"
             if rules.dealer_then == "next" else ""}
    names["POINTS"] = _points(w, rules)
    w.lines(Template(_END_ROUND).substitute(names))
    return names["NAME"]


def _points(w, rules) -> str:
    """Lines that set `points`, one per seat."""
    if rules.round_points is not None:
        return f"    points = {w.bind('round_points', rules.round_points)}(st)\n"
    if rules.score is None:
        return "    points = [0] * st.n\n"
    cases = getattr(rules.score, "cases", None)
    if cases is None:
        return f"    points = [{w.bind('score', rules.score)}(st, seat) for seat in range(st.n)]\n"
    lines = ["    bids, won = st.bids, st.tricks_won", "    points = []", "    for seat in range(st.n):"]
    word = "if"
    for kind, test, value in cases:
        if kind == "made":
            lines.append(f"        {word} bids[seat] == won[seat]:")
        elif kind == "missed":
            lines.append(f"        {word} bids[seat] != won[seat]:")
        elif kind == "test":
            lines.append(f"        {word} {w.bind('test', test)}(st, seat):")
        else:
            lines.append("        else:" if word == "elif" else "        if True:")
            lines.append(f"            points.append({w.bind('points', value)}(st, seat))")
            return "\n".join(lines) + "\n"
        lines.append(f"            points.append({w.bind('points', value)}(st, seat))")
        word = "elif"
    lines += ["        else:" if word == "elif" else "        if True:", "            points.append(0)"]
    return "\n".join(lines) + "\n"
