"""The end of a round and of the game in a grid game → generated source.

Pipeline place: compiler → **codegen** (grid end) → engine. For a game that places cards on a
board (`player decks`), the generator writes what `Ruleset.end_round` and `Ruleset.finish`
(`compile/game.py`, which stay the reference) do with the compiler's closures, as plain
functions of the generated module:

- `finish_N(st, ended)`: the final scores (`score at end -> ...`) and the winners (each
  `winner` key for the seats still tied), with set expressions over the display such as
  `sum(display, own, points)` or `count(display, own and points > 0)` written as masks
  and one comprehension over the members (`compile/codegen_grid_points.py`, which also
  writes `display_points_N`, the points of the cards on the display, that these read).
- `end_round_N(st)`: the history seal, the round's record (`last_round`), the end test
  (`end when count(display) = 16` is a bit count), and the game's end or the next round;
  written into the round's tail after its last placement when there is one
  (`compile/codegen_grid_tail.py`, `write_tails`).

Game-level expressions go through `codegen_exprs.Expressions` (names, tables, folds over
seats), with the functions of card sets written by `codegen_grid_points._Source`. Whatever
neither writer knows is called as the closure the compiler built for that very node, so the
generated code computes exactly what the closures do: `tests/test_grid_end.py` checks it on
random positions, `tests/test_codegen.py` move for move against `RULEKIT_CODEGEN=0`. Values
from the rule file enter only as masks, numbers and tables of them (`Writer.const`).
"""
from __future__ import annotations

import re
from string import Template

from ..engine import grid_steps as gsteps
from .codegen import literal
from . import codegen_round
from .codegen_grid_points import _Source, _Unwritable, _points_functions
from .codegen_round import next_round, reset_lines, seal_lines
from .codegen_tricks import indent
from .codegen_exprs import Expressions, NotWritten


# ---- the end of the game and of a round --------------------------------------------------

_FINISH = """\
def $NAME(st, ended):
    \"\"\"The game is over (by its end condition when `ended`, else stopped by the round cap).\"\"\"
    gs = st.extra["grid"]
$POINTS    scores = st.scores
$FINAL    st.is_terminal = True
    st.current_player = None
    if not ended:
        st.winners = []
        return
$FIRST$KEYS    st.winners = list(seats)
"""

#: the first winner key, over every seat: one seat with the best key wins (found by the
#: list's own `count` and `index`), else the seats tied on it go on to the next key
_FIRST_KEY = """\
    found = $FOUND
    top = max(found)
    if found.count(top) == 1:
        st.winners = [found.index(top)]
        return
    seats = [seat for seat in range(st.n) if found[seat] == top]
"""

_KEY = """\
    found = [$SIGN($EXPR) for seat in seats]
    top = max(found)
    seats = [seat for seat, key in $PAIRS(seats, found) if key == top]
    if len(seats) == 1:
        st.winners = seats
        return
"""

_END_ROUND = """\
def $NAME(st):
    \"\"\"The round is over: its record, then the end of the game, or the next round up to its
    first decision (then True: what `State.advance` does after a round).\"\"\"
"""

#: the round's end (`$$FINISHED`: what the tail of a round does after the game's end)
_END_BODY = """\
    scores = st.scores
$ROUND_POINTS$RECORD    if st.dealer is not None:
        st.dealt[st.dealer] += 1
    gs = st.extra["grid"]
$SEAT    ended = $END or not any(st.hands)
    if ended or st.round >= $RULES.max_rounds:
$LAST_RECORD        $FINISH(st, ended)
$FINISHED        return
$MARK$SEAL    st.round += 1
$NEXT    n = st.n
$RESET$ENTER"""

#: the round's record (`State.last_round`)
_RECORD = """\
    st._last_round = {"round": st.round, "bids": list(st.bids), "tricks_won": list(st.tricks_won),
                      "points": $POINTS, "scores": list(scores)}
"""

#: ... or, for a round that won no points and whose steps write no bids or tricks, only its
#: number while the game goes on: `State.last_round` makes the record from the state when it
#: is read (the round's end makes it at once when the game ends, whose final scores differ)
_MARK = "    st._last_round = st.round     # the record is made when read (`State.last_round`)\n"


def _record(rules) -> dict:
    """`$$RECORD`, `$$LAST_RECORD` and `$$MARK` of `_END_ROUND`."""
    fields, points = _written_fields(rules), rules.round_points is not None or rules.score is not None
    if not points and fields is not None and not {"bids", "tricks_won", "scores"} & fields:
        return {"RECORD": "", "LAST_RECORD": indent(Template(_RECORD).substitute(POINTS="[0] * st.n"), 4), "MARK": _MARK}
    return {"RECORD": Template(_RECORD).substitute(POINTS="points" if points else "[0] * st.n"), "LAST_RECORD": "",
            "MARK": ""}


#: the round's last placement made (`codegen_grid_tail.write_tails`): its draws, then the end of
#: the round written in, for these rules (anything standing in for them, such as a recorder
#: of round ends, is asked for the end of the round as `State.advance` asks it)
_FUSED = """\
def $TAIL(st):
    \"\"\"The round's last placement is made: its draws, then the end of the round as `$NAME` ends it.\"\"\"
    hands = st.hands
    decks = st.extra["grid"].decks
$DRAWS    if st.rules is not $RULES:
        st.__class__ = $STATE            # from the choosing class, which advances from choosing only
        st._step = $LAST
        st.advance()
        return
"""

#: the next round's choosing (`ChooseCard.enter`; its choices were reset just above)
_ENTER_CHOOSING = """\
    st._step, st._at = $INDEX, $STEP
    hands = st.hands
$SEATS    st.advance()
    return True
"""
_FIRST_SEAT = """\
    for seat in range(n):
        if hands[seat]:
            st.current_player = seat
            return True
"""
#: ... each seat written out, when the rules are for one number of seats
_SEAT = """\
    if hands[$SEAT]:
        st.current_player = $SEAT
        return True
"""


def _seats(rules) -> int | None:
    """The number of seats of every game of these rules, or None when it may vary."""
    return rules.players[0] if len(rules.players) == 1 else None

#: the fields of `Ruleset.reset_round` each step of a grid game writes (its steps, their
#: generated code included); a game with a step not listed here resets every field
_WRITES = {gsteps.ShuffleDecks: (), gsteps.GiveTiebreaker: (), gsteps.DrawCards: (), gsteps.ReturnCards: (),
           gsteps.ChooseCard: ("pending",), gsteps.RevealCards: ("pending", "revealed"), gsteps.PlaceCards: ()}


def _written_fields(rules) -> set | None:
    """The round fields some step of the game writes, or None for all of them."""
    fields = set()
    for step in rules.steps:
        written = _WRITES.get(getattr(type(step), "generated_from", type(step)))
        if written is None:
            return None
        fields.update(written)
    return fields


def _left_fresh(rules) -> tuple[str, ...]:
    """Round fields a round leaves as the next one starts them: the choices (`pending`) when a
    reveal, which empties them (`RevealCards.enter`), follows the round's last choosing and
    every step is one whose writes are known (`_WRITES`: the others may write anything)."""
    if _written_fields(rules) is None:
        return ()
    kinds = [getattr(type(step), "generated_from", type(step)) for step in rules.steps[rules.round_start:]]
    chosen = [index for index, kind in enumerate(kinds) if kind is gsteps.ChooseCard]
    return ("pending",) if chosen and gsteps.RevealCards in kinds[chosen[-1]:] else ()


def _entry(w, rules) -> str:
    """The entry into the next round: its choosing written out, any other first step as
    `codegen_round` enters it."""
    start = rules.round_start
    step = rules.steps[start] if 0 <= start < len(rules.steps) else None
    fields = _written_fields(rules)
    kind = getattr(type(step), "generated_from", type(step))
    if kind is gsteps.ChooseCard and (fields is None or "pending" in fields):
        seats = _FIRST_SEAT if _seats(rules) is None else \
            "".join(Template(_SEAT).substitute(SEAT=literal(seat)) for seat in range(_seats(rules)))
        return Template(_ENTER_CHOOSING).substitute(INDEX=literal(start), STEP=w.bind("step", step), SEATS=seats)
    if step is None:
        return ""
    return codegen_round.enter(w, rules)


class _GameExpressions(Expressions):
    """Game-level expressions of a grid game: `codegen_exprs.Expressions`, with the functions
    of card sets (`sum(display, own, points)`) written by `_Source`; `uses` collects what
    they read (`points`: every card's points must be known first)."""

    def __init__(self, w, compiler):
        super().__init__(w, compiler)
        self.sets = _Source(w, compiler, None)
        self.sets.scope = "game"
        self.uses = self.sets.uses

    def _call(self, node, seat):
        if self._set_call(node):
            return self.sets.game_call(node.func, node.args, seat)
        return super()._call(node, seat)


def emit(w, rules) -> str | None:
    """Write the end of a grid game's round and of the game; the end of round's name, or
    None for a game this does not cover (no grid, or no checked expressions to write). The
    tails of the round's placing (`codegen_grid_tail.write_tails`) are written here too, with
    the end written in when it is."""
    from . import codegen_grid_tail
    from .codegen import state_class
    names = _emit(w, rules)
    if names is None:
        codegen_grid_tail.write_tails(w)
        return None

    def fused(tail: dict) -> str:
        finished = f"        st.step = {tail['START']} - 1\n        st.current_player = None\n"
        return Template(_FUSED + _END_BODY).substitute(names, **tail, FINISHED=finished, STATE=state_class(w))

    codegen_grid_tail.write_tails(w, fused, _seats(rules))
    return names["NAME"]


def _emit(w, rules) -> dict | None:
    grid, compiler = rules.grid, rules.expr_compiler
    if grid is None or compiler is None or rules.end is None:
        return None
    try:
        points = _points_functions(w, grid)
        finish = _finish(w, rules, compiler, points)
        end = _end_test(w, rules, compiler)
    except (_Unwritable, NotWritten):
        return None
    grid.points_function = points         # the views' points too (`cardsets_expr.display_points`)
    names = {"NAME": w.name("end_round"), "SEAL": seal_lines(w), "RULES": w.bind("rules", rules),
             "FINISH": finish, "END": end, "ROUND_POINTS": _round_points(w, rules),
             "SEAT": "    seat = None             # the end test is about no seat\n" if re.search(r"\bseat\b", end) else "",
             "NEXT": next_round(rules), "RESET": reset_lines(rules, _written_fields(rules), _left_fresh(rules)),
             "ENTER": _entry(w, rules),
             **_record(rules)}
    w.lines(Template(_END_ROUND + _END_BODY).substitute(names, FINISHED=""))
    return names


def _round_points(w, rules) -> str:
    if rules.round_points is not None:
        from . import codegen_scoring
        lines = f"    points = {codegen_scoring.call(w, rules)}(st)\n"
    elif rules.score is not None:
        lines = f"    points = [{w.bind('score', rules.score)}(st, seat) for seat in range(st.n)]\n"
    else:
        return ""                 # no points (`_record`)
    return lines + "    for seat in range(st.n):\n        scores[seat] += points[seat]\n"


def _end_test(w, rules, compiler) -> str:
    nodes = rules.expr_nodes
    if "rounds" in nodes and rules.end is nodes.get("end_fn"):
        return f"st.round >= {literal(nodes['rounds'])}"
    node = nodes.get("end")
    if node is None or rules.end is not nodes.get("end_fn"):     # wrapped by a mechanism: as built
        return f"{w.bind('end', rules.end)}(st, None)"
    source = _GameExpressions(w, compiler)
    text = source.write(node, "seat")
    if "points" in source.uses:           # the points of the cards: through the closure
        return f"{w.bind('end', rules.end)}(st, None)"
    return text


def _finish(w, rules, compiler, points: str | None) -> str:
    nodes, source = rules.expr_nodes, _GameExpressions(w, compiler)
    final = nodes.get("final")
    lines = ""
    if final is not None:
        lines = f"    st.scores = [scores[seat] + {source.write(final, 'seat')} for seat in range(st.n)]\n"
    (sign, node), *rest = nodes["winner"]
    first = Template(_FIRST_KEY).substitute(FOUND=_first_keys(source.write(node, "seat"), sign))
    keys = "".join(Template(_KEY).substitute(SIGN="" if sign > 0 else "-", PAIRS=w.bind("pairs", zip),
                                             EXPR=source.write(node, "seat"))
                   for sign, node in rest)
    if "points" in source.uses and points is None:
        raise _Unwritable(final)
    name = w.name("finish")
    w.lines(Template(_FINISH).substitute(NAME=name, FINAL=lines, FIRST=first, KEYS=keys,
                                         POINTS=f"    points = {points}(st, gs)\n" if "points" in source.uses else ""))
    return name


def _first_keys(expr: str, sign: int) -> str:
    """The first winner key of every seat, as a list: the scores list itself for `highest
    score` (only read: `count`, `index`, `max`), else one comprehension."""
    if expr == "st.scores[seat]" and sign > 0:
        return "st.scores"
    return f"[{'' if sign > 0 else '-'}({expr}) for seat in range(st.n)]"
