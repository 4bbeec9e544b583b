"""A compiled game → the Python source of one module for its hot steps, `exec`ed once.

Pipeline place: checker → compiler (`game.py` builds the steps) → **codegen** → engine.
As a template engine turns a template into Python, the generator turns a compiled round
into source: the trick step's legal moves, check-and-play, end of trick and winner rule,
and the number bids, as plain functions over ints and bit masks with the file's tables
written in as literals. Each covered step object gets a generated subclass of its own
class (`step.__class__ = ...`), so every other method (views, restore, table play, action
spaces) keeps working and a step the generator does not cover runs as before. A covered
step also gets `walk(st, getrandbits)`: the rest of the step played at random inside the
engine, move for move what `state.playout` must make (engine/state.py).

Security: rule files are untrusted. The source is built from compiled tables only.
Every identifier in it is one the generator makes (`Writer.name`); a value from the file
enters only as the `repr` of a validated int, str or tuple of them (`literal`), never as
text spliced into code. Objects the compiler built (closures, move tables) are handed to
the module in its namespace under generated names (`Writer.bind`), not written as source.

A first load in a new process takes the module, compiled, from the cache on disk
(`codegen_cache.py`: keyed by what the module is made from, the objects handed in found
again by recipes), so it runs neither the generator nor `compile`. In a process, code is
shared by the SHA-256 of its source (`_CODE`); the source is registered in `linecache`
under `<rulekit: TITLE#HASH>`, so a traceback shows the generated line. `rulekit compile
GAME --python` prints the source (`source_of`, always generated).
"""
from __future__ import annotations

import copyreg
import hashlib
import linecache
import os
import random
import re
from collections import Counter
from string import Template
from types import CodeType, FunctionType

from ..engine.state import State
from . import codegen_cache

#: RULEKIT_CODEGEN=0 runs every game through the hand-written steps (to compare)
ENABLED = os.environ.get("RULEKIT_CODEGEN", "1") != "0"

#: compiled module code by the hash of its source, in this process
_CODE: dict[str, object] = {}

_ATOMS = (int, str, type(None))

#: A table with more numbers than this is handed to the module as an object instead of
#: being written out: compiling a literal of a million numbers takes seconds (a rule file
#: with a large deck or many cases), and nobody reads a table that size in the source.
MAX_LITERAL_ITEMS = 20_000


def _items_past(value, budget: int) -> int:
    """How much of `budget` is left after counting the numbers and strings in `value` (a
    nested tuple or list), an int of more than 64 bits as one per 64 bits (a large board's
    masks); below zero once there are more, and counting stops there."""
    stack = [value]
    while stack and budget >= 0:
        item = stack.pop()
        if item.__class__ in (tuple, list):
            stack.extend(item)
        elif item.__class__ is int:
            budget -= 1 + item.bit_length() // 64
        else:
            budget -= 1
    return budget


#: ints of more bits than this are written in hexadecimal: Python refuses to turn an int of more
#: than `sys.get_int_max_str_digits()` decimal digits (640 at the least it may be set to, about
#: 2,126 bits) into text or back, and a large board's masks pass that; base 16 has no limit
DECIMAL_BITS = 2_000


def literal(value) -> str:
    """`repr` of an int, bool, None, str or (nested) tuple/list of them, as a tuple (a very
    large int in hexadecimal: `DECIMAL_BITS`); anything else is refused (no object of the
    compiler is ever written as source)."""
    if value.__class__ is int and value.bit_length() > DECIMAL_BITS:        # of |value|
        return hex(value)
    if value.__class__ in (int, bool, str, type(None)):
        return repr(value)
    if value.__class__ in (tuple, list):
        items = [literal(item) for item in value]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    raise TypeError(f"the generator writes only ints, strs and tuples as literals, not {type(value).__name__}")


#: a word of source (the generated names are words)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Writer:
    """Lines of source and the names they use, all made here."""

    def __init__(self):
        self.head: list[str] = []         # constants
        self.body: list[str] = []         # classes and functions
        self.bound: dict[str, object] = {}
        self._consts: dict[str, str] = {}
        self._lines: dict[str, list[int]] = {}     # a constant or handed-in name -> its lines of `head`
        self._count = 0
        self.own: dict = {}      # a step's bound name -> its state class's (`own_class`); None -> the game's (`state_class`)
        self.deals: dict = {}    # id of a deal step -> [(player count, its deal written out)] (`codegen_deal`)

    def name(self, prefix: str) -> str:
        """A fresh identifier: `prefix` (always a word of the generator) and a number."""
        if not (prefix.isascii() and prefix.replace("_", "a").isalnum() and prefix[0].isalpha()):
            raise ValueError(f"not a generator name: {prefix!r}")
        self._count += 1
        return f"{prefix}_{self._count}"

    def const(self, prefix: str, value, comment: str = "") -> str:
        """A module constant holding `value` (validated); equal values share one name. A
        table too large to be worth reading (`MAX_LITERAL_ITEMS`) is handed in as an
        object, under the same kind of generated name, with a comment saying so."""
        if _items_past(value, MAX_LITERAL_ITEMS) < 0:       # a tuple, as written: the cache keeps it as a value
            name = self.bind(prefix, tuple(value) if value.__class__ is list else value)
            self._lines.setdefault(name, []).append(len(self.head))
            self.head.append(f"# {name}: {comment + ', ' if comment else ''}a table too large to write out, handed in")
            return name
        return self._constant(prefix, literal(value), comment)

    def _constant(self, prefix: str, text: str, comment: str) -> str:
        """The constant whose source is `text` (a literal the generator wrote): made once."""
        found = self._consts.get(text)
        if found is not None:
            return found
        name = self._consts[text] = self.name(prefix)
        lines = self._lines[name] = [len(self.head)]
        if comment:
            self.head.append(f"# {comment}")
            lines.append(len(self.head))
        self.head.append(f"{name} = {text}")
        return name

    def table(self, prefix: str, rows, comment: str = "") -> str:
        """A module constant made of constants: rows of values, each value written once as
        its own constant (`const`) and the table naming them (a big table of few distinct
        entries stays small, and compiles fast)."""
        rows = tuple(map(tuple, rows))
        if sum(map(len, rows)) > MAX_LITERAL_ITEMS:     # too many names to be worth reading
            return self.const(prefix, rows, comment)
        named: dict[int, str] = {}      # id of an entry -> its constant (tables repeat one object)
        names = tuple(tuple(named.get(id(value)) or named.setdefault(id(value), self.const(prefix + "_ENTRY", value))
                            for value in row) for row in rows)
        text = "(" + "".join("(" + ", ".join(row) + ("," if len(row) == 1 else "") + "),\n    "
                             for row in names).rstrip() + ")"
        return self._constant(prefix, text, comment)

    def bind(self, prefix: str, obj) -> str:
        """An object of the compiler handed to the module under a generated name."""
        for name, known in self.bound.items():
            if known is obj:
                return name
        name = self.name(prefix)
        self.bound[name] = obj
        return name

    def lines(self, block: str) -> None:
        """Generator-made lines (a template filled with generated names and literals)."""
        self.body.extend(block.rstrip("\n").split("\n"))
        self.body.append("")

    def source(self, title: str) -> str:
        """The module's source, without the constants and handed-in objects that no other
        line reads (`_unread`)."""
        unread = self._unread()
        self.bound = {name: obj for name, obj in self.bound.items() if name not in unread}
        gone = {at for name in unread for at in self._lines.get(name, ())}
        self.head = [line for at, line in enumerate(self.head) if at not in gone]
        self._lines = {}
        bound = ", ".join(sorted(self.bound, key=lambda k: int(k.rsplit("_", 1)[1]))) or "nothing"
        top = ["# Generated by rulekit (rulekit/compile/codegen.py) from a checked rule file: do not edit.",
               f"TITLE = {literal(title)}",
               f"# Handed in by the loader (objects the compiler built): {bound}.",
               ""]
        return "\n".join(top + self.head + [""] + self.body) + "\n"

    def _unread(self) -> set[str]:
        """The constants and handed-in objects that no line but their own reads, and then
        those read only by them: a writer may make a table for a form it then does not
        write (a card rule written another way, a window read from one table by box)."""
        def read_by(line: str) -> list[str]:        # a head line is `NAME = ...`: what it reads
            return [] if line.startswith("#") else _WORD.findall(line.partition(" = ")[2])
        reads = Counter(word for line in self.head for word in read_by(line))
        reads.update(word for line in self.body if not line.lstrip().startswith("#") for word in _WORD.findall(line))
        unread: set[str] = set()
        while more := {name for name in (*self._lines, *self.bound) if not reads[name]} - unread:
            unread |= more
            for at in (at for name in more for at in self._lines.get(name, ())):
                reads.subtract(read_by(self.head[at]))
        return unread


def generate(rules) -> tuple[str, dict, dict[int, str], str | None]:
    """(source, bound objects, {step index: generated class name}, the generated state
    class's name or None) for a Ruleset."""
    out = Writer()
    classes, inlined = {}, []
    for index, step in enumerate(rules.steps):
        for emitter in _emitters(rules):
            made = emitter.emit(out, step)
            if made is not None:
                classes[index] = made[0]
                if made[1] is not None:
                    own = getattr(emitter, "OWN_STATE_CLASS", False) and made[2] is not None
                    rows = made[3] if len(made) > 3 else None
                    by_count = made[4] if len(made) > 4 and rows else None
                    inlined.append((out.bind("step", step), made[1], made[2], own and made[0], rows, index, by_count))
                break
    from . import codegen_round
    ending = codegen_round.emit(out, rules, classes) if classes else None
    if ending is None and classes and rules.grid is not None:
        from . import codegen_grid_end
        ending = codegen_grid_end.emit(out, rules)
    if ending is not None:
        classes["end_round"] = ending
    inlined.reverse()          # the last decision step (tricks) decides most often: tested first
    state = _state_class(out, inlined, rules) if inlined else None
    rest = [getattr(type(s), "generated_from", type(s)).__name__ for i, s in enumerate(rules.steps)
            if i not in classes]
    if "end_round" not in classes:
        rest.append("Ruleset.end_round")
    out.lines("# Steps that run as the engine's classes: " + (", ".join(n for n in rest if n.replace(".", "").isidentifier())
                                                            or "none") + ".")
    source = out.source(rules.title)        # leaves out what nothing reads, from `out.bound` too
    return source, out.bound, classes, state


_STATE = """\
class $CLS($STATE):
    \"\"\"Generated: a state of this game; the moves of its hot steps are written in, and
    a state whose step has a class of its own (below) takes that class.\"\"\"
    __slots__ = ()

    def __reduce_ex__(self, protocol):
        return $DISPATCH[$STATE](self)

    def legal_moves(st, seat=None):
        if seat is not None or st.is_terminal:
            return $STATE.legal_moves(st, seat)
        at = st._at
$LEGAL        return at.legal_moves(st)

    def apply(st, move, seat=None):
        if seat is not None or st.is_terminal:
            return $STATE.apply(st, move, seat)
        at = st._at
$APPLY        return $STATE.apply(st, move)
"""

#: the class of a state while one step decides: its `legal_moves` and `apply` are that step's
#: alone. A state takes it on its first call in the step and leaves it (for the class above)
#: whenever it moves on: `advance` and `step` are the only ways out of a step.
_STEP_STATE = """\
class $CLS($GENERIC):
    \"\"\"Generated: a state of this game while its step $STEP ($KIND) decides.\"\"\"
    __slots__ = ()
    step = $STEP_PROPERTY

$LEGAL
$APPLY
    def advance(st):
$NEXT"""

_APPLY = """\
def apply(st, move, seat=None):
    if seat is not None:
        return $STATE.apply(st, move, seat)
"""

#: `State.advance` from a step's own class, its first turn written out: the game's class, the
#: next step entered (the engine's loop goes on from it when it asks no decision) ... A state
#: has a step's own class only while it is at that step, so this is right; code that moves
#: `st._step` elsewhere and then advances gives the state the game's class first
#: (`state_class`) ... A step that asks a decision and has a class of its own gives the
#: state that class at once (`$$TAKE`): the caller's next call meets the class the state
#: keeps, not the game's for one call.
_NEXT_STEP = """\
st.__class__ = $GENERIC
st._step, st._at = $INDEX, $STEP
if $STEP.enter(st):
$TAKE    return
$GENERIC.advance(st)
"""

#: ... or a step whose `enter` is written in (`codegen_round.ENTERS`: always a decision),
#: entered, and the state given its class at once
_ENTERED_STEP = """\
st._step, st._at = $INDEX, $STEP
${ENTER}st.__class__ = $CLASS
"""

#: ... or, after the last step, the end of the round (`rules.end_round`, read from the state as
#: the engine reads it); when that does not enter the next round (None), the engine's loop goes
#: on from the round's start, and when it entered the next round's steps without a decision
#: (False), from the step it entered last
_ROUND_END = """\
st.__class__ = $GENERIC
st._step = $INDEX
went_on = st.rules.end_round(st)
if went_on:
$TAKE    return
if went_on is None:
    st._step = $START
$GENERIC.advance(st)
"""

#: `$$TAKE`: the class of the step the state is at, when that is `$$STEP` (which has one of its own)
_TAKE = """\
    if st._at is $STEP:
        st.__class__ = $CLASS
"""

#: the `legal_moves` of a step's class (`_STEP_STATE`): the step's body, or, when the emitter
#: gives `ALIAS` + the name of a generated function taking `(st, seat=None)`, that function itself
#: (no second call per list)
_STEP_LEGAL = """\
    def legal_moves(st, seat=None):
        if seat is not None:
            return $STATE.legal_moves(st, seat)
$BODY"""
ALIAS = "legal_moves = "

#: a step whose code reads rows of tables by trump or seat count (the follow and strength rows
#: of a trick) gets its class made per trump and seat count, those rows bound in: the class's
#: code indexes one row where the step's own indexes the whole table
_BOUND_STEP_STATE = """def $MAKE(trump, n):
    \"\"\"Generated: the class of a state while its step $STEP ($KIND) decides, for one trump
    and seat count, their rows bound in; made when a state first needs it.\"\"\"
    $LOCALS = $ROWS

$CLASS
    $MADE[trump, n] = $CLS
    return $CLS
"""


def _state_class(w, inlined, rules) -> str:
    """The state class: `legal_moves` and `apply` with the covered steps' bodies inside, and
    for a step whose emitter allows it (`OWN_STATE_CLASS`), a class of the state's own for
    the time that step decides (no test of which step it is, per call)."""
    from .codegen_tricks import indent
    state = w.bind("EngineState", State)
    name = state_class(w)
    legal, apply, own_classes = [], [], []
    makers, taken = {}, {}      # by step index: the names of a class made per trump and seat count;
    for step, _, _, own, rows, index, _ in inlined:     # the class a state takes at a step with its own
        if own and rows:
            made, make = makers[index] = w.name("STATE_AT"), w.name("state_at")
            taken[index] = step, f"{made}.get((st.trump, st.n)) or {w.bind('apart', apart)}({make}, st.trump, st.n)"
        elif own:
            taken[index] = step, own_class(w, step)
    for step, legal_body, apply_body, own, rows, index, by_count in inlined:
        apply_body = None if apply_body is None else Template(apply_body).substitute(STATE=state)
        if own:
            kind = own_class(w, step)
            text = Template(_STEP_STATE).substitute(
                CLS=kind, GENERIC=name, STATE=state, STEP=step, KIND=own, STEP_PROPERTY=w.bind("step_property", LEAVING_STEP),
                LEGAL=indent(legal_body, 4) if legal_body.startswith(ALIAS) else
                Template(_STEP_LEGAL).substitute(STATE=state, BODY=indent(legal_body, 8)),
                APPLY=_apply(state, apply_body, by_count, 4), NEXT=indent(_next(w, rules, index, taken, name), 8))
            if rows:
                made, make = makers[index]
                w.head.append(f"# the classes of a state at {step}, by (trump, seat count), as they are made")
                w.head.append(f"{made} = {{}}")
                text = Template(_BOUND_STEP_STATE).substitute(
                    MAKE=make, STEP=step, KIND=own, LOCALS=", ".join(rows), ROWS=", ".join(rows.values()),
                    CLASS=indent(text, 4).rstrip("\n"), MADE=made, CLS=kind)
                kind = taken[index][1]
                legal_body = f"found = st.__class__ = {kind}\nreturn found.legal_moves(st)\n"
                apply_body = f"found = st.__class__ = {kind}\nreturn found.apply(st, move)\n"
            else:
                legal_body = f"st.__class__ = {kind}\nreturn {kind}.legal_moves(st)\n"
                apply_body = f"st.__class__ = {kind}\nreturn {kind}.apply(st, move)\n"
            own_classes.append(text)
        legal.append(f"        if at is {step}:\n" + indent(legal_body, 12))
        if apply_body is not None:
            apply.append(f"        if at is {step}:\n" + indent(apply_body, 12))
    w.lines(Template(_STATE).substitute(CLS=name, STATE=state, DISPATCH=w.bind("dispatch_table", copyreg.dispatch_table),
                                        LEGAL="".join(legal), APPLY="".join(apply)))
    for text in own_classes:
        w.lines(text)
    return name


def _apply(state: str, body: str, by_count, depth: int) -> str:
    """`apply` of a step's own class, indented by `depth`; with bodies by seat count
    (`by_count`, for a class made per seat count), the one of the class's count (the
    others' when none is)."""
    from .codegen_tricks import indent
    head = Template(_APPLY).substitute(STATE=state)
    if not by_count:
        return indent(head, depth) + indent(body, depth + 4)
    return "".join(" " * depth + f"{'if' if i == 0 else 'elif'} n == {n!r}:\n" + indent(head, depth + 4)
                   + indent(Template(text).substitute(STATE=state), depth + 8)
                   for i, (n, text) in enumerate(by_count.items())) + (
        " " * depth + "else:\n" + indent(head, depth + 4) + indent(body, depth + 8))


def _next(w, rules, index: int, taken, generic: str) -> str:
    """`State.advance` from step `index` (`_NEXT_STEP`, `_ENTERED_STEP`, `_ROUND_END`) for a
    step's own class; `taken`: by step index, (the step, the class a state takes there) for the
    steps with their own; `generic`: the game's state class."""
    from .codegen_round import entered
    steps = rules.steps
    if index + 1 < len(steps):
        take, bound = taken.get(index + 1), w.bind("step", steps[index + 1])
        written = entered(steps[index + 1], bound, 0)
        if written is not None:
            return Template(_ENTERED_STEP).substitute(INDEX=repr(index + 1), STEP=bound, ENTER=written,
                                                      CLASS=take[1] if take else generic)
        return Template(_NEXT_STEP).substitute(INDEX=repr(index + 1), STEP=bound, GENERIC=generic,
                                               TAKE=Template(_TAKE).substitute(STEP=take[0], CLASS=take[1]) if take else "")
    from .codegen_round import first_decision
    take = taken.get(first_decision(rules))
    return Template(_ROUND_END).substitute(INDEX=repr(len(steps)), START=repr(rules.round_start - 1), GENERIC=generic,
                                           TAKE=Template(_TAKE).substitute(STEP=take[0], CLASS=take[1]) if take else "")


def state_class(w) -> str:
    """The name of the game's generated state class, the one whose `legal_moves` and `apply`
    dispatch on the step (made once): generated code that moves a state out of a step's own
    class by another way than that class's `advance` gives it this class first."""
    name = w.own.get(None)
    if name is None:
        name = w.own[None] = w.name("State")
    return name


def own_class(w, step: str) -> str:
    """The name of the class a state takes while the step bound as `step` decides (made
    once): generated code that moves a state into that step may give it the class at once
    (not a step whose classes are made per trump and seat count: the name is their maker's)."""
    name = w.own.get(step)
    if name is None:
        name = w.own[step] = w.name("StateAt")
    return name


def apart(make, *args):
    """`make(*args)` run on a copy of its code and of the code in it. CPython specialises
    code per code object by the types it meets, so the classes one generated maker makes (a
    trick state's, one per trump and seat count) keep theirs apart instead of unlearning
    them whenever a state of another of those classes comes by."""
    return FunctionType(_copied(make.__code__), make.__globals__, make.__name__)(*args)


def _copied(code: CodeType) -> CodeType:
    return code.replace(co_consts=tuple(_copied(c) if isinstance(c, CodeType) else c for c in code.co_consts))


def _leave(st, index, _set=State.step.fset):
    st.__class__ = type(st).__base__
    _set(st, index)


#: `State.step`, whose setter first gives the state back the game's state class (the base of
#: the step's own class): a state told to be at another step leaves it
LEAVING_STEP = property(State.step.fget, _leave, doc=State.step.__doc__)


def _emitters(rules) -> tuple:
    """The step emitters, each `emit(writer, step) -> (class name, legal body, apply body[, rows]) | None`
    (rows: the local names the bodies give the rows they read per trump and seat count, and those rows);
    the grid's only for a grid game (a trick game does not import the grid engine)."""
    from . import codegen_bids, codegen_deal, codegen_passes, codegen_tricks
    if rules.grid is None:
        return codegen_deal, codegen_passes, codegen_bids, codegen_tricks
    from . import codegen_grid
    return codegen_deal, codegen_bids, codegen_tricks, codegen_grid


def covered(rules) -> list[tuple[str, bool]]:
    """(class name, whether the generator writes it out) for each step of a Ruleset."""
    out = []
    for step in rules.steps:
        done = any(emitter.emit(Writer(), step) is not None for emitter in _emitters(rules))
        out.append((getattr(type(step), "generated_from", type(step)).__name__, done))
    return out


def source_of(rules) -> str:
    """The generated module of a Ruleset (what `rulekit compile --python` prints)."""
    return generate(rules)[0]


def install(rules, sections=None) -> dict:
    """Generate the module, or take it from the cache (`codegen_cache.py`, keyed by the
    checked `sections` the rules were built from; without them nothing is kept), run it, and
    give each covered step its class and the rules their state class. Returns the module's
    namespace."""
    if not ENABLED or not exact_randbelow():
        return {}
    key = codegen_cache.key_of(rules.title, sections) if sections is not None else None
    entry = codegen_cache.read(key) if key is not None else None
    root = (rules, sections)
    bound = codegen_cache.resolve(entry.recipes, root) if entry is not None and entry.recipes is not None else None
    if bound is None:
        entry, bound = _generated(rules, root, key, entry)
    if not entry.classes:
        return {}
    code, filename = entry.code, entry.code.co_filename
    if _CODE.setdefault(entry.digest, code) is code:        # this process's first run of it
        linecache.cache[filename] = (len(entry.source), None, entry.source.splitlines(True), filename)
    namespace = {"__name__": "rulekit.generated", "__builtins__": _BUILTINS, **bound}
    exec(code, namespace)
    _code_up_front(rules)
    for index, name in entry.classes.items():
        if isinstance(index, str):                  # rules.end_round(state)
            setattr(rules, index, namespace.get(name))
        else:
            rules.steps[index].__class__ = namespace[name]
    if entry.state is not None:
        rules.state_class = namespace[entry.state]
    rules.generated = filename
    return namespace


def coded_moves(step):
    """The moves of a step that the rules code up front (`_code_up_front`), so that its
    generated code appends their codes to a history: a number bid's bids, the card moves of a
    step with a move table; None for any other step."""
    from ..engine.cardsets import MoveTable
    from ..engine.steps import BidNumber
    if isinstance(step, BidNumber):
        return step.moves
    table = getattr(step, "table", None)
    return table.moves if isinstance(table, MoveTable) else None


def _code_up_front(rules) -> None:
    """Code, in the rule set's history table, the moves whose codes the generated steps append
    to a history instead of the moves (`move._code & 65535`, the code without the table's base:
    a trick step's card moves, a number bid's bids; engine/history.py), before any state plays. Each step makes its own moves, so
    each is marked by this table; a move marked by another would have another's code."""
    table, base = rules.move_codes, rules.move_codes.base
    for step in rules.steps:
        moves = coded_moves(step)
        if moves is None:
            continue
        table.encode(moves)
        codes = [getattr(move, "_code", -1) - base for move in moves]      # (-1: a table full, never at a build)
        if not all(0 <= code < len(table) and table.moves[code] is move for code, move in zip(codes, moves)):
            raise AssertionError(f"a move of step {type(step).__name__} is coded by another rule set")


def _generated(rules, root: tuple, key: str | None, known):
    """(entry, bound objects): the module generated, and compiled unless `known` (the key's
    entry, whose recipes found nothing) holds the same source. The entry is kept under `key`
    with the recipes of the bound objects, read from `root` (the rules, their sections)
    before the generator runs, and from what it made (`codegen_cache.made`)."""
    found = codegen_cache.places(root) if key is not None and (known is None or known.recipes is not None) else None
    with codegen_cache.recording() as makings:
        source, bound, classes, state = generate(rules)
    if known is not None and known.recipes is None and known.source == source:
        return known, bound
    digest = hashlib.sha256(source.encode()).hexdigest()
    code = _CODE.get(digest) or compile(source, f"<rulekit: {_safe(rules.title)}#{digest[:12]}>", "exec")
    recipes = codegen_cache.recipes(bound, found[0], makings) if found is not None else None
    entry = codegen_cache.Entry(digest, source, code, classes, state, recipes)
    if key is not None:
        codegen_cache.write(key, entry)
    return entry, bound


def _safe(title: str) -> str:
    """The title as a file name's part: letters, digits, spaces and dashes only."""
    return "".join(c if c.isalnum() or c in " -" else "_" for c in title)[:40]


#: the builtins the generated code may call: nothing else is reachable from it
_BUILTINS = {"type": type, "len": len, "range": range, "list": list, "tuple": tuple, "id": id, "min": min, "sum": sum, "map": map,
             "max": max, "abs": abs, "any": any, "all": all, "enumerate": enumerate, "bytearray": bytearray,
             "KeyError": KeyError, "TypeError": TypeError, "ValueError": ValueError,
             "__build_class__": __builtins__["__build_class__"] if isinstance(__builtins__, dict)
             else __builtins__.__build_class__}


_RANDBELOW: list = []


def exact_randbelow() -> bool:
    """Does `random.Random.randrange(n)` draw `getrandbits(n.bit_length())` until below n?
    The generated walks draw so themselves (the moves must be those of `randrange`); on a
    Python where it does not, nothing is generated and play runs through today's steps."""
    if not _RANDBELOW:
        ours, theirs = random.Random(12345), random.Random(12345)
        same = True
        for count in list(range(1, 70)) * 3:
            bits = count.bit_length()
            r = ours.getrandbits(bits)
            while r >= count:
                r = ours.getrandbits(bits)
            same = same and r == theirs.randrange(count)
        _RANDBELOW.append(same)
    return _RANDBELOW[0]
