"""The end of a round → generated source: the points of a plain `score` section, the end
test and the bookkeeping of `Ruleset.end_round`, as one function.

Pipeline place: compiler → **codegen** (round) → engine. Written only for a trick game
without a grid. A plain `score { made -> ..., missed -> ... }` gets its cases and points
written out as Python (`codegen_exprs.py`: `10 + bonus[bid]` is an addition and a literal
table), and so does the `end when ...` test (`max(score) >= 100` reads `st.scores`);
scores in parts, teams, counters or a wrapped score (auctions, table play) are called as
the compiler built them, as is any part of an expression the writer has no plain form
for. The end of the game (final scores, winners) stays `Ruleset.finish`. It does exactly
what `Ruleset.end_round` (`compile/game.py`) does, which stays the reference, and then
what `State.advance` does after it: it enters the next round's steps up to the first
decision and returns True, so the engine's loop stops there.
"""
from __future__ import annotations

import contextlib
from string import Template

from ..engine import steps
from ..engine.history import SEAL_AT, seal
from .codegen import literal
from .codegen_exprs import Expressions, NotWritten
from .codegen_tricks import indent

#: the round's record (`last_round`): it keeps the round's own bid and trick lists, and the
#: state takes fresh ones (copies when the game ends, new lists for the next round)
RECORD = """\
    bids, won = st.bids, st.tricks_won
    st._last_round = (st.round, bids, won, points, list(scores))     # a dict when read (`State.last_round`)
    if st.dealer is not None:
        st.dealt[st.dealer] += 1
"""

#: the game goes on (`$$NEXT`: the dealer moves on; `$$SEAL`, `$$RESET`: `seal_lines`,
#: `reset_lines`), and the next round starts as `Ruleset.reset_round` starts it
NEXT_ROUND = """\
    if ended or st.round >= $RULES.max_rounds:
        st.bids, st.tricks_won = list(bids), list(won)
        $FINISH(st, ended)
        return
$SEAL    st.round += 1
$NEXT    n = st.n
$RESET"""

#: `Ruleset.reset_round`, field by field (`n` is the player count)
RESETS = (("bids", "[None] * n"), ("bid_cards", "[None] * n"), ("pending", "[None] * n"),
          ("tricks_won", "[0] * n"), ("taken", "[0] * n, []"), ("trick", "[]"), ("last_trick", "[]"),
          ("lead", "-1"), ("trump", None), ("tricks_played", "0"), ("revealed", "False"),
          ("leader", "None"))


def reset_lines(rules, fields=None, fresh=()) -> str:
    """The lines of `Ruleset.reset_round` for `fields` (all when None): a game whose steps
    never write a field keeps it as the first round started it; a field in `fresh` is set
    anew by the round's first decision step as it is entered (`fresh_fields`)."""
    return "".join(f"    st.{_STORED.get(field, field)} = {literal(rules.fixed_trump) if value is None else value}\n"
                   for field, value in RESETS if (fields is None or field in fields) and field not in fresh)


#: fields of `RESETS` stored otherwise: `taken` is a property (`State.taken`) over the masks
#: `_taken` and the log `_won` of the tricks won since they were read, and its reset sets both
_STORED = {"taken": "_taken, st._won"}


def fresh_fields(rules) -> tuple[str, ...]:
    """The fields of `RESETS` that the first step entered after the round's deals sets anew
    in its `enter`, before any decision and without reading them (a plain number bid: its
    bids, hidden bids and `revealed`), so the end of the round need not reset them first;
    none for any other step. The deals before it read none of them."""
    first = first_decision(rules)
    return () if first is None else _FRESH.get(type(rules.steps[first]).enter, ())


def first_decision(rules) -> int | None:
    """The index of the round's first step that asks a decision (the deals before it never
    do), or None when none does."""
    from . import codegen_deal
    steps = rules.steps
    return next((i for i in range(rules.round_start, len(steps)) if not codegen_deal.never_decides(steps[i])), None)


#: a step's `enter` -> the fields of `RESETS` it sets before anything reads them
_FRESH = {steps.BidNumber.enter: ("bids", "pending", "revealed")}


def seal_lines(w, codes: bool = False) -> str:
    """`history.seal` when it would pack: after the first round, only once `SEAL_AT` moves
    wait (a game of short rounds calls it seldom). With `codes` (every step that decides
    appends codes: `codes_only`), its common case is written in: codes below 256 after a
    past of one byte a move, packed by one `bytearray()` (the past stays bytes); anything
    else (a Move among them, a wider code or past) raises, and `seal` packs it."""
    call = f"{w.bind('seal', seal)}(st)\n"
    if codes:
        call = ("try:\n"
                "            st._past, st._history = st._past + bytearray(st._history), []\n"
                f"        except (TypeError, ValueError):\n            {call}")
    return (f"    if len(st._history) >= {literal(SEAL_AT)} or not st._past:   # the game goes on: pack its moves\n"
            f"        {call}")


def codes_only(rules, classes) -> bool:
    """Does a round append only codes to the history: is every step that decides generated
    (`classes`: by index) and one whose moves the rules code up front (`codegen.coded_moves`)?"""
    from . import codegen_deal
    from .codegen import coded_moves
    return all(codegen_deal.never_decides(step) or index in classes and coded_moves(step) is not None
               for index, step in enumerate(rules.steps))


_END_ROUND = """\
def $NAME(st):
    \"\"\"The round is over: its points, the record of it, the end of the game or the next round's
    steps up to its first decision (then True: what `State.advance` does after a round).\"\"\"
$POINTS""" + RECORD + """\
    ended = $END
""" + NEXT_ROUND + "$ENTER"


def next_round(rules) -> str:
    """`$$NEXT` of `NEXT_ROUND`: the dealer's move to the next seat, when the rules move it."""
    return ("    if st.dealer is not None:\n        st.dealer = (st.dealer + 1) % st.n\n"
            if rules.dealer_then == "next" else "")

_FINISH = """\
def $NAME(st, ended):
    \"\"\"The game is over: by its end condition (`ended`) or stopped by the round cap (then
    nobody won); the winners are the seats whose keys are highest, compared in order.\"\"\"
$FINAL    st.is_terminal = True
    st.current_player = None
    seats = list(range(st.n)) if ended else []
$KEYS    st.winners = seats
"""

_KEY = """\
    if len(seats) > 1:
        keys = {seat: $KEY for seat in seats}
        best = max(keys.values())
        seats = [seat for seat in seats if keys[seat] == best]
"""

_ENTER_STEP = """\
    st._step, st._at = $INDEX, $STEP
    if $STEP.enter(st):
        return True
"""

#: a step's `enter`, written in, by the function: the lines that enter it (`$$FIRST`: the
#: first seat, `entered`), for an `enter` that always asks a decision (it returns True): a
#: number bid's (its bids, hidden bids and `revealed` anew, the first seat to bid) and a
#: plain trick step's
ENTERS = {
    steps.BidNumber.enter: "st.bids, st.pending, st.revealed = [None] * st.n, [None] * st.n, False\n"
                           "st.current_player = $FIRST\n",
    steps.Tricks.enter: "st.tricks_played = 0\nst.trick = []\nst.lead = -1\n"
                        "st.current_player = st.leader = $FIRST\n",
}


def entered(step, bound: str, depth: int) -> str | None:
    """The lines of `ENTERS` that enter `step` (bound as `bound`), indented by `depth`, or None
    when its `enter` is not written in. Its first seat is the seat rule's own source when the
    compiler gave it one (`first.written`: the dealer, the dealer's left), else a call of it."""
    lines = ENTERS.get(type(step).enter)
    if lines is None:
        return None
    first = getattr(step.first, "written", None) or f"{bound}.first(st)"
    return indent(Template(lines).substitute(FIRST=first), depth)


_DEAL_STEP = """\
    st._step, st._at = $INDEX, $STEP
$DEAL"""


def _deal(w, step, bound: str) -> str:
    """The call of a deal step (never a decision): its deal written out for the state's player
    count when the generator wrote one (`Writer.deals`), else its `enter`."""
    call = f"{bound}.enter(st)                     # a deal: never a decision\n"
    written = w.deals.get(id(step))
    if not written:
        return "    " + call
    return "".join(f"    {'if' if i == 0 else 'elif'} st.n == {literal(n)}:\n        {name}(st)\n"
                   for i, (n, name) in enumerate(written)) + "    else:\n        " + call


def emit(w, rules, classes=()) -> str | None:
    """Write the end of the round (and the entry into the next); the end's name, or None for
    a game this does not cover (`classes`: the steps generated, by index)."""
    if rules.grid is not None or rules.end is None or not 0 <= rules.round_start < len(rules.steps):
        return None
    names = {"NAME": w.name("end_round"), "SEAL": seal_lines(w, codes_only(rules, classes)), "RULES": w.bind("rules", rules),
             "END": end_test(w, rules), "NEXT": next_round(rules),
             "RESET": reset_lines(rules, fresh=fresh_fields(rules))}
    names["POINTS"] = _points(w, rules)
    names["FINISH"] = _finish(w, rules)
    names["ENTER"] = enter(w, rules)
    w.lines(Template(_END_ROUND).substitute(names))
    return names["NAME"]


def _finish(w, rules) -> str:
    """The end of the game (`Ruleset.finish`, `winners_of`) with the `score at end` points and
    the winner keys written out; `rules.finish` itself when they cannot be (or the rules no
    longer run the closures compiled from them)."""
    nodes, compiler = rules.expr_nodes, rules.expr_compiler
    fallback = f"{w.bind('rules', rules)}.finish"
    keys = nodes.get("winner", [])
    if compiler is None or len(keys) != len(rules.winner_keys) or not all(
            _compiled(compiler, node) is fn for (_, node), (_, fn) in zip(keys, rules.winner_keys)):
        return fallback
    if ("final" in nodes or rules.final_score is not None) and _compiled(compiler, nodes.get("final")) \
            is not rules.final_score:
        return fallback
    exprs = Expressions(w, compiler)
    try:
        final = ""
        if "final" in nodes:
            final = (f"    finals = [{exprs.write(nodes['final'], 'seat')} for seat in range(st.n)]\n"
                     "    st.scores = [st.scores[seat] + finals[seat] for seat in range(st.n)]\n")
        written = "".join(Template(_KEY).substitute(KEY=exprs.write(node, "seat") if sign > 0
                                                    else f"-{exprs.write(node, 'seat')}")
                          for sign, node in keys)
    except NotWritten:
        return fallback
    name = w.name("finish")
    w.lines(Template(_FINISH).substitute(NAME=name, FINAL=final, KEYS=written))
    return name


def _compiled(compiler, node):
    """The closure the compiler built for `node`, or None."""
    found = compiler.compiled.get(id(node)) if node is not None else None
    return found.fn if found is not None else None


def enter(w, rules) -> str:
    """The entry into the next round's steps, at the end of `end_round_N`: for the steps from
    `round_start` on, each called in turn as `State.advance` would, a generated deal (never
    a decision) without the test; when every step is entered without a decision (none
    asks one), the engine's loop goes on from the last."""
    from . import codegen_deal
    steps = rules.steps
    lines = []
    for index in range(rules.round_start, len(steps)):
        step, bound = steps[index], w.bind("step", steps[index])
        written = entered(step, bound, 4)
        if written is not None:             # a decision: the next round waits for it
            return "".join(lines) + f"    st._step, st._at = {literal(index)}, {bound}\n" + written + "    return True\n"
        block = _DEAL_STEP if codegen_deal.never_decides(step) else _ENTER_STEP
        lines.append(Template(block).substitute(INDEX=literal(index), STEP=bound, DEAL=_deal(w, step, bound)))
        if block is _ENTER_STEP:
            break
    # no step asked a decision: False, and the engine's loop goes on after the step entered
    # last (calling `st.advance()` here would nest a call per round, and a game whose rounds
    # ask nothing would run out of stack before its round cap)
    return "".join(lines) + "    return False\n"


def end_test(w, rules) -> str:
    """The source of `rules.end(st, None)`: `end after N rounds` and `end when ...` written
    out, any other end condition called as its closure."""
    nodes = rules.expr_nodes
    if rules.end is nodes.get("end_fn"):
        if "rounds" in nodes:
            return f"st.round >= {literal(nodes['rounds'])}"
        if "end" in nodes and rules.expr_compiler is not None:
            with contextlib.suppress(NotWritten):          # no plain form: its closure, below
                return Expressions(w, rules.expr_compiler).write(nodes["end"], "None")
    return f"{w.bind('end', rules.end)}(st, None)"


#: the points, each seat's added to its score
ADD_POINTS = """\
    scores = st.scores
    for seat in range(st.n):
        scores[seat] += points[seat]
"""


def _points(w, rules) -> str:
    """Lines that set `points`, one per seat, and add them to the scores: the score cases
    written out, else (no checked form of them) the score's closure called for each seat.
    Written cases that read no score are added as each seat's are known, in one loop
    (a comprehension is a function call, and a round's end runs cold)."""
    if rules.round_points is not None:
        from . import codegen_scoring
        return f"    points = {codegen_scoring.call(w, rules)}(st)\n" + ADD_POINTS
    if rules.score is None:
        return "    points = [0] * st.n\n" + ADD_POINTS
    written = _written_cases(w, rules)
    if written is None:
        return f"    points = [{w.bind('score', rules.score)}(st, seat) for seat in range(st.n)]\n" + ADD_POINTS
    cases, reads_scores = written
    if reads_scores:            # every seat's points from the scores before any is added
        return f"    points = [{cases}\n              for seat in range(st.n)]\n" + ADD_POINTS
    return ("    scores, points = st.scores, [0] * st.n\n"
            "    for seat in range(st.n):\n"
            f"        points[seat] = point = ({cases})\n"
            "        scores[seat] += point\n")


def _written_cases(w, rules) -> tuple[str, bool] | None:
    """The score cases as one expression of `seat` (`A if made else B if ... else 0`), and
    whether it may read the scores (it names them, or calls a closure); None when the rules
    keep no checked form of them."""
    nodes = getattr(rules.score, "nodes", None)
    if nodes is None or rules.expr_compiler is None:
        return None
    exprs = Expressions(w, rules.expr_compiler)
    parts, kinds, closures = [], set(), 0
    try:
        for kind, test, value in nodes:
            points = exprs.write(value, "seat")
            closures += exprs.closures
            kinds.add(kind)
            if kind == "else" or kinds == {"made", "missed"}:    # the rest of the seats: all of them
                parts.append(points)
                break
            condition = {"made": "st.bids[seat] == st.tricks_won[seat]",
                         "missed": "st.bids[seat] != st.tricks_won[seat]"}.get(kind)
            if condition is None:
                condition = exprs.write(test, "seat")
                closures += exprs.closures
            parts.append(f"{points} if {condition}\n              else ")
        else:
            parts.append("0")
    except NotWritten:
        return None
    cases = "".join(parts)
    return cases, closures > 0 or "st.scores" in cases
