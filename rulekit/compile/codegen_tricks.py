"""The trick step → generated source: legal moves, check-and-play, end of trick, winner.

Pipeline place: compiler → **codegen** (tricks) → engine. One class per trick step,
a subclass of the step's own class (`Tricks`, `TricksAll`, their sit-out and lead-rule
forms), written out for that game: the follow table, the winner plans, the runs of
suits and the copies of a face are literals, and only the mechanisms the file uses get
a line (a game without lead rules, sit-outs or copies has none of their code).

What each generated method does is what the hand-written class does (`engine/steps.py`,
`engine/trick_rules.py`, `engine/sit_out.py`): those remain the reference and run every
game the generator does not cover. `walk` plays the rest of the step at random:
uniform over the distinct legal moves, counted from masks (one card per face), drawn as
`random.Random.randrange` draws, so a playout makes the public loop's moves.
"""
from __future__ import annotations

import threading
from string import Template

from ..dsl.checker import MAX_PLAYERS
from ..engine import sit_out, steps, trick_rules
from ..engine.cardsets import cards_of
from .codegen import MAX_LITERAL_ITEMS
from .tricks import _HIGHEST_BIT, _LOWEST_BIT, _first, _last, plans

#: the state takes a class of its own while this step decides (compile/codegen.py)
OWN_STATE_CLASS = True

_PLAIN = {steps.Tricks: False, steps.TricksAll: True}
_SIT = {sit_out.SitOutTricks: False, sit_out.SitOutTricksAll: True}
_RULED = {trick_rules.RuledTricks: False, trick_rules.RuledTricksAll: True}

#: pick codes in the generated winner plans: 0 highest bit, 1 lowest bit, 2 first, 3 last,
#: 4 + 2 * k (+1 for lowest) by the order keys KEYS[k]
_BITS_HIGH, _BITS_LOW, _FIRST, _LAST, _BY_KEY = 0, 1, 2, 3, 4


def emit(w, step):
    """Write the class for a trick step: (its name, the bodies of legal moves and of apply
    for the generated state), or None when the step is not one. In the apply body,
    `$STATE` stands for the state's base class."""
    try:
        return _emit(w, step)
    finally:
        _SEEN.entries = None                    # the follow table's entries: not kept past the step


def _emit(w, step):
    kind = getattr(type(step), "generated_from", type(step))
    if kind in _PLAIN:
        every, sit, ruled = _PLAIN[kind], False, False
    elif kind in _SIT:
        every, sit, ruled = _SIT[kind], True, False
    elif kind in _RULED:
        every, sit, ruled = _RULED[kind], False, True
    else:
        return None
    cases = getattr(step.winner, "cases", None)
    faces = _faces(step)
    if cases is None or faces is None or (not ruled and not _whole_faces(step.follow, faces[1])):
        return None
    pairs = [[(seat, card) for card in range(step.table.deck.size)] for seat in range(MAX_PLAYERS)]
    names = {"BASE": w.bind("Base", kind), "PAIRS": w.bind("pairs", pairs),      # a trick's entries, made once
             "MOVE_CLASS": w.bind("CardMove", step.table.move_class), "CACHE": w.bind("cache", step.table.cache),
             "RUN_MOVES": w.bind("run_moves", step.table.run_moves), "MOVES": w.bind("moves", step.table.moves)}
    strengths = _strengths(step, cases)
    if strengths is not None:
        names["STRENGTH"] = w.table("STRENGTH", strengths, "strength[trump + 1][lead + 1][card]: the strongest card "
                                    "of a full trick wins it (odd: of equals, the last played)")
        names["LAST"] = any(v & 1 for rows in strengths for row in rows for v in row)
        names["BITS"] = w.const("BITS", tuple(1 << card for card in range(step.table.deck.size)), "1 << card")
    else:
        names["WINNER"] = _winner(w, cases, step.table.deck.size + 1)
    names["THEN"] = w.bind("then", step.then) if step.then is not None else ""
    names["AFTER"] = seat_after(w)
    if ruled:
        names.update(_ruled_names(w, step))
    else:
        names["FOLLOW"] = w.const("FOLLOW", step.follow, "follow[trump + 1][lead + 1]: the cards that may follow")
        if not _spread(step.follow, step.table.runs):
            names["ONE"] = w.const("FOLLOW_ONE", _one_run(step.follow, step.table.runs),
                                   "the same, 0 for a row of every card")
        names["INSIDE"] = w.table("INSIDE", _inside(step.table, step.follow),
                                  "inside[trump + 1][lead + 1][face]: 1 when the face's cards may follow")
    shape = {"every": every, "sit": sit, "ruled": ruled, "count": step.count, "faces": faces,
             "slots": [(w.name("who"), w.name("c")) for _ in range(max(UNROLLED))]}
    cls = w.name("Tricks")
    names["CLS"] = cls
    rows = _rows(names)
    # the step's class reads each row from its table; the state's own class has them bound in
    # (and, when the trick's first card always sets the lead, the rows from lead 0 on)
    by_lead = "SETS" not in names
    step_names = {**names, **{key: f"{table}[st.{index}]" for key, (_, table, index, _) in rows.items()},
                  "N": "st.n", "LEAD": "st.lead + 1"}
    own_names = {**names, **{key: local for key, (local, _, _, _) in rows.items()}, "N": "n",
                 "LEAD": "st.lead" if by_lead else "st.lead + 1"}
    legal = ("    def legal(self, st):\n" + indent(legal_body(w, step, shape, names), 8)
             + "\n    legal_moves = legal\n")
    body = "\n".join([legal, _play(shape, names), _walk(w, shape, names)])
    w.lines(Template(f"class $CLS($BASE):\n    \"\"\"Generated: the trick step of this game.\"\"\"\n    generated_from = $BASE\n\n{body}")
            .substitute(step_names))
    # no `st._legal` to forget: no generated step keeps one (it is None until a step's end)
    done = "st._history.append(move._code & 65535)\n"      # its code: the rules code their moves up front

    def inline(unroll, **more):
        body = play_body(shape, names, "return $STATE.apply(st, move)", done + "return",
                         done + "if {END}:\n    st._legal = None\n    st.advance()\nreturn", unroll=unroll)
        return Template(body).substitute(own_names, STATE="$STATE", **more)
    # the state's own class is made per seat count: a count read card by card has a body of its own
    by_count = ({n: inline(n, N=repr(n)) for n in UNROLLED}
                if "STRENGTH" in names and not shape["sit"] else None)
    return (cls, Template(legal_body(w, step, shape, names)).substitute(own_names), inline(by_count is None),
            {local: f"{table}[{index}]" + ("[1:]" if lead and by_lead else "") for local, table, index, lead in rows.values()},
            by_count)


# ---- the parts ---------------------------------------------------------------------------------

#: the rows a trick's code reads per trump (or seat count): its placeholder -> (the local name
#: it has in the state's own class, the table's key in `names`, the index of the row, whether
#: the row is indexed by the lead)
_ROW_OF = {"ROW_FOLLOW": ("follow", "FOLLOW", "trump + 1", True),
           "ROW_INSIDE": ("inside", "INSIDE", "trump + 1", True),
           "ROW_ONE": ("follow_one", "ONE", "trump + 1", True),
           "ROW_STRENGTH": ("strengths", "STRENGTH", "trump + 1", True),
           "ROW_CHAINS": ("chains", "CHAINS", "trump + 1", True), "ROW_FIRST": ("first", "FIRST", "trump + 1", True),
           "ROW_SETS": ("sets", "SETS", "trump + 1", False), "ROW_AFTER": ("after", "AFTER", "n", False)}


def _rows(names) -> dict:
    """The rows this step's code reads: placeholder -> (local name, table name, index, by lead)."""
    return {key: (local, names[table], index, lead) for key, (local, table, index, lead) in _ROW_OF.items()
            if table in names}


def seat_after(w) -> str:
    """The name of the table of the seat after each seat, by player count (`AFTER[n][seat]`:
    a look-up, where `(seat + 1) % n` would be a division)."""
    return w.const("AFTER", tuple(tuple((s + 1) % n for s in range(n)) for n in range(MAX_PLAYERS + 1)),
                   "the seat after each seat, by player count")


def _faces(step):
    """(mask of the cards that are the only copy of their face, masks of faces with copies),
    or None when a face's copies lie in two runs (the legal list would name it twice)."""
    singles, groups = 0, []
    for mask in dict.fromkeys(step.table.face_masks):
        if mask & (mask - 1):
            if not any(mask & run == mask for run in step.table.runs):
                return None
            groups.append(mask)
        else:
            singles |= mask
    return singles, tuple(groups)


def _inside(table, follow) -> list:
    """follow[trump + 1][lead + 1] → a row by card id: 1 when all the cards of that card's
    face lie in the follow row (read at a face's id, a move's `arg`), else 0."""
    faces, size = table.face_masks, len(table.face_masks)

    def inside(row):            # only a card of the row can have its whole face in it
        out = [0] * size
        for card in cards_of(row):
            if card < size and row & faces[card] == faces[card]:
                out[card] = 1
        return tuple(out)
    return _by_entry(follow, inside)


def _by_entry(follow, fn) -> list:
    """follow[trump + 1][lead + 1] → the same table of `fn(entry)`, worked out once per
    distinct entry (and a row of the table met again made once)."""
    made = {row: fn(row) for row in _distinct(follow)}
    by_id = {key: made[row] for key, row in _entries(follow).items()}
    rows: dict = {}
    out = []
    for row in follow:
        found = rows.get(id(row))
        if found is None:
            found = rows[id(row)] = (row, tuple(map(by_id.__getitem__, map(id, row))))
        out.append(found[1])
    return out


#: the last table `_entries` read and its entries (the generator asks several times of one
#: table), per thread: (the table, {id: entry})
_SEEN = threading.local()


def _entries(follow) -> dict:
    """{id: entry} of the entries of follow[trump + 1][lead + 1] (a large deck repeats a few objects)."""
    last = getattr(_SEEN, "entries", None)
    if last is None or last[0] is not follow:
        entries: dict = {}
        for row in {id(row): row for row in follow}.values():
            entries.update(zip(map(id, row), row))
        last = _SEEN.entries = (follow, entries)
    return last[1]


def _distinct(follow) -> set[int]:
    """The distinct rows of follow[trump + 1][lead + 1] (a large deck repeats a few of them)."""
    return set(_entries(follow).values())


def _one_run(follow, runs) -> tuple:
    """follow[trump + 1][lead + 1] with 0 for each row that does not lie inside one run."""
    inside = _in_one_run(runs)
    return tuple(_by_entry(follow, lambda row: row if inside(row) else 0))


def _spread(follow, runs) -> bool:
    """Does a follow row lie over several runs without being every card (so that the cards
    a seat may follow with are fewer than its hand, yet no single run's)?"""
    every, inside = sum(runs), _in_one_run(runs)
    return any(row != every and not inside(row) for row in _distinct(follow))


def _in_one_run(runs):
    """`inside(mask)`: does the mask lie inside one of the runs? The runs are disjoint, so
    only the run of its lowest card can hold it (else each run is tried)."""
    run_of: dict = {}
    for run in runs:
        for card in cards_of(run):
            if run_of.setdefault(1 << card, run) is not run:
                return lambda row: any(row & run == row for run in runs)
    if not runs:
        return lambda row: False

    def inside(row):
        return row & run_of.get(row & -row, 0) == row if row else True
    return inside


def _whole_faces(follow, groups) -> bool:
    """Does every follow mask hold all copies of a face or none (so the lowest copy held
    is also the lowest that may follow)?"""
    return all(row & g in (0, g) for row in _distinct(follow) for g in groups)


def _ruled_names(w, step) -> dict:
    names = {"CHAINS": w.const("CHAINS", step.chains, "chains[trump + 1][lead + 1]: (chain of masks, also)")}
    if step.first_chains is not None:
        names["FIRST"] = w.const("FIRST", step.first_chains, "the same, on the round's first trick")
    if step.sets_lead is not None:
        names["SETS"] = w.const("SETS", step.sets_lead, "sets_lead[trump + 1]: cards that set the lead")
    if step.lead_rule is not None:
        names["LEAD_RULE"] = w.bind("lead_rule", step.lead_rule)
    if step.first_chains is None:
        # a follow whose chain is one mask inside one run, with nothing `also` allowed (the
        # suit led, if able): the cards that may follow are one subscript, as without rules
        inside = _in_one_run(step.table.runs)

        def one(entry):
            chain, also = entry
            return chain[0] if len(chain) == 1 and not also and chain[0] and inside(chain[0]) else 0
        ones = _by_entry(step.chains, one)
        if any(map(any, ones)):
            names["ONE"] = w.const("FOLLOW_ONE", tuple(ones), "the one run a follow's chain asks for "
                                   "first, 0 where the chain is read")
    return names


def indent(block: str, depth: int) -> str:
    """`block` (lines without indentation of their own) indented by `depth` spaces."""
    pad = " " * depth
    return "".join(pad + line + "\n" if line else "\n" for line in block.rstrip("\n").split("\n"))


def _allowed(shape, names) -> str:
    """Lines that set `allowed` from `hand` and `trick` (the cards the seat may play)."""
    if not shape["ruled"]:
        return "allowed = hand\nif trick:\n    allowed = hand & $ROW_FOLLOW[$LEAD] or hand\n"
    table = "($ROW_FIRST if st.tricks_played == 0 else $ROW_CHAINS)" if "FIRST" in names else "$ROW_CHAINS"
    lead = "$LEAD_RULE(st)" if "LEAD_RULE" in names else "(), 0"
    return (f"if trick:\n    chain, also = {table}[$LEAD]\nelse:\n    chain, also = {lead}\n"
            "allowed = hand\nfor must in chain:\n    able = hand & must\n    if able:\n"
            "        allowed = able | (hand & also)\n        break\n")


def legal_body(w, step, shape, names) -> str:
    """The body of `legal(st)`: the distinct moves the current seat may make, in card order."""
    # a subscript where a `get` would be a call: a part missing from the cache (its first
    # time in the process) raises once and is made
    runs = "".join(f"part = hand & {w.const('RUN', run)}\nif part:\n    try:\n        out += $CACHE[part]\n"
                   "    except KeyError:\n        out += $RUN_MOVES(part)\n"
                   for run in step.table.runs)
    one_run = ("if trick:\n    allowed = hand & $ROW_ONE[$LEAD]\n    if allowed:\n"
               "        try:\n            return [*$CACHE[allowed]]\n        except KeyError:\n"
               "            return [*$RUN_MOVES(allowed)]\n")
    if shape["ruled"]:
        head = (one_run if "ONE" in names else "") + _allowed(shape, names) + "hand = allowed\n"
    elif _spread(step.follow, step.table.runs):
        # a follow row over several runs (not every card): the cards that may follow are
        # looked up (often they lie in one run), else listed run by run
        head = ("if trick:\n    allowed = hand & $ROW_FOLLOW[$LEAD]\n    if allowed:\n"
                "        found = $CACHE.get(allowed)\n        if found is not None:\n"
                "            return [*found]\n        hand = allowed\n")
    else:
        # every follow row inside one run (or every card, `ROW_ONE` 0: the whole hand may
        # follow): the cards that may follow are one subscript
        head = one_run
    return "hand = st.hands[st.current_player]\ntrick = st.trick\n" + head + "out = []\n" + runs + "return out\n"


def _copies(shape, source: str) -> str:
    if not shape["faces"][1]:
        return ""
    return (f"if card < 0:                    # copies of one face: the lowest one\n    held = {source} & cards\n"
            "    cards = held & -held\n    card = cards.bit_length() - 1\n")


def _set_lead(names) -> str:
    if "SETS" in names:
        return "if st.lead < 0 and $ROW_SETS >> card & 1:\n    st.lead = card\n"
    return "if not trick:\n    st.lead = card\n"


def _next_seat(shape, then: str) -> str:
    """Lines after a card that does not fill the trick: the turn passes on, then `then`."""
    if shape["sit"]:
        return ("sitting = st.extra.get(\"sitting\", 0)\nif len(trick) < $N - sitting.bit_count():\n"
                "    seat = (seat + 1) % $N\n    while sitting >> seat & 1:\n        seat = (seat + 1) % $N\n"
                "    st.current_player = seat\n" + indent(then, 4))
    return "if len(trick) < $N:\n    st.current_player = $ROW_AFTER[seat]\n" + indent(then, 4)


#: the seat counts whose full trick the state's own class reads card by card, written out
#: (no loop); a trick of more seats is read in a loop
UNROLLED = range(2, 6)


def _unrolled(n: int, ties: str, slots, gather: bool) -> list[str]:
    """Lines that find the winner of a full trick of `n` cards, one by one (and with `gather`
    its cards, `played`); `slots`: the (seat, card) local names of each place of the trick
    (generator names). The last place is the card just played: its `seat`, `card` and bit
    (`cards`) are at hand."""
    seats = ["winner"] + [seat for seat, _ in slots[1:n - 1]] + ["seat"]
    cards = [card for _, card in slots[:n - 1]] + ["card"]
    # with ties to the last played (`ties`: odd strengths), `best` keeps the strength with its
    # low bit cleared: a card beats it when stronger, or as strong and odd, which is one
    # comparison (`rank > best & -2`; equal strengths have the same low bit)
    low = " & -2" if ties else ""
    lines = [", ".join(f"({seats[i]}, {cards[i]})" for i in range(n - 1)) + ", _ = trick",
             "strength = $ROW_STRENGTH[$LEAD]", f"best = strength[{cards[0]}]{low}"]
    for i in range(1, n):
        lines += [f"rank = strength[{cards[i]}]", "if rank > best:"]
        lines += ([f"    best = rank{low}"] if i < n - 1 else []) + [f"    winner = {seats[i]}"]
    return lines + (["played = " + " | ".join(f"$BITS[{card}]" for card in cards[:-1]) + " | cards"] if gather else [])


def _end_trick(shape, names, over: str, played: bool = True, unroll: bool = False) -> str:
    """The full trick: its winner takes it; `over` is the lines that end (with {END} for
    whether the step is over). `played`: the lines gather the trick's cards where they need
    them, else they are at hand as `played` (a walk's); `unroll`:
    for the seat counts `UNROLLED`, card by card (each count a branch on `$N`), or a seat
    count of `UNROLLED`: for that count alone. The winner's taken cards: the trick goes to
    the state's log (`State.taken` adds it when read), but for a step with a lead rule, which
    reads them at every lead, its cards are added at once."""
    lead = "$THEN(st)" if names["THEN"] else "winner"
    eager = shape["ruled"]
    gather = played and eager
    if "STRENGTH" in names:
        ties = " or rank == best and rank & 1" if names["LAST"] else ""
        lines = ["strength = $ROW_STRENGTH[$LEAD]", "best = -1"] + (["played = 0"] if gather else []) + [
                 "for who, c in trick:"] + (["    played |= $BITS[c]"] if gather else []) + [
                 "    rank = strength[c]", f"    if rank > best{ties}:", "        best = rank", "        winner = who"]
        if unroll is not True and unroll in UNROLLED and played and not shape["sit"]:
            lines = _unrolled(unroll, ties, shape["slots"], gather)
        elif unroll and played and not shape["sit"]:
            branches = [f"{'if' if i == 0 else 'elif'} $N == {n!r}:\n"
                        + indent("\n".join(_unrolled(n, ties, shape["slots"], gather)), 4) for i, n in enumerate(UNROLLED)]
            lines = ["".join(branches) + "else:\n" + indent("\n".join(lines), 4).rstrip("\n")]
    else:
        lines = (["played = 0", "for _, c in trick:", "    played |= 1 << c"] if played else []) + [
                 "winner = $WINNER(trick, played, st.lead, st.trump)"]
    taken = ["st._taken[winner] |= played"] if eager else ["st._won.extend(trick)", "st._won.append(winner)"]
    lines += ["st.tricks_won[winner] += 1", *taken, "st.last_trick = trick", "st.trick = []", "st.lead = -1",
              "tricks = st.tricks_played + 1", "st.tricks_played = tricks", f"st.current_player = st.leader = {lead}"]
    if shape["sit"]:
        lines += ["seat = st.current_player", "while sitting >> seat & 1:", "    seat = (seat + 1) % $N",
                  "st.current_player = st.leader = seat"]
    end = "not st.hands[st.current_player]" if shape["every"] else f"tricks == {shape['count']!r}"
    return "\n".join(lines) + "\n" + over.replace("{END}", end)


def play_body(shape, names, refuse: str, going: str, over: str, unroll: bool | int = False) -> str:
    """Check and play `move`: `refuse` when it is no interned legal move (nothing changed),
    `going` after a card that leaves the step going, `over` ({END}) after a full trick
    (`unroll`: see `_end_trick`)."""
    follow = None       # the test of a follow against the row (a condition, then `refuse`)
    if shape["ruled"]:
        check = (_allowed(shape, names) + "if not allowed & cards:\n" + indent(refuse, 4) + _copies(shape, "allowed")
                 + "rest = hand ^ cards\n")
    else:
        # one new int when the card follows: the hand without the card, smaller than the hand
        # only if the card was in it; a card outside the follow row (`inside`: a face lies all
        # in it or all out, `_whole_faces`) only when the hand holds none of the row
        check = ""
        if shape["faces"][1]:
            check = ("if card < 0:                    # copies of one face: the lowest one held\n"
                     "    held = hand & cards\n    if not held:\n" + indent(refuse, 8)
                     + "    cards = held & -held\n    card = cards.bit_length() - 1\n")
        check += "rest = hand ^ cards\nif rest > hand:\n" + indent(refuse, 4)
        follow = "not $ROW_INSIDE[$LEAD][move.arg] and hand & $ROW_FOLLOW[$LEAD]:\n" + indent(refuse, 4)
    head = ("if type(move) is not $MOVE_CLASS:\n" + indent(refuse, 4)
            + "cards = move.cards\ncard = move.card\nseat = st.current_player\nhand = st.hands[seat]\ntrick = st.trick\n")
    if unroll is not True and unroll in UNROLLED and follow is not None and not shape["sit"]:
        # a seat count of its own (two or more): a lead never fills the trick, so it is a
        # branch of its own (no test of the trick's length, none of the follow row)
        lead = ("if not trick:\n    st.hands[seat] = rest\n    st.lead = card\n    trick.append($PAIRS[seat][card])\n"
                "    st.current_player = $ROW_AFTER[seat]\n" + indent(going, 4))
        return (head + check + lead + "if " + follow + "st.hands[seat] = rest\n" + "trick.append($PAIRS[seat][card])\n"
                + _next_seat(shape, going) + _end_trick(shape, names, over, unroll=unroll))
    if follow is not None:
        check += "if trick and " + follow
    return (head + check + "st.hands[seat] = rest\n" + _set_lead(names)
            + "trick.append($PAIRS[seat][card])\n" + _next_seat(shape, going) + _end_trick(shape, names, over, unroll=unroll))


def _play(shape, names) -> str:
    return ("    def play(self, st, move):\n"
            "        \"\"\"Check and play an interned move in one pass; None (nothing changed) otherwise.\"\"\"\n"
            + indent(play_body(shape, names, "return None", "return False", "return {END}"), 8)
            + "\n    apply = play\n")


def _draw(w, shape) -> str:
    """Lines that draw one of the distinct moves in `allowed` (one card per face, the lowest
    copy) as `randrange` over the legal list draws: `cards` (its bit) and `card`."""
    singles, groups = shape["faces"]
    if groups:
        faces = f"faces = allowed & {w.const('SINGLES', singles)}\n" + "".join(
            f"part = allowed & {w.const('COPIES', g)}\nif part:\n    faces |= part & -part\n" for g in groups)
    else:
        faces = "faces = allowed\n"
    return (faces + "count = faces.bit_count()\nbits = count.bit_length()\nr = getrandbits(bits)\n"
            "while r >= count:\n    r = getrandbits(bits)\nwhile r:\n    faces &= faces - 1\n    r -= 1\n"
            "cards = faces & -faces\ncard = cards.bit_length() - 1\n")


#: `walk` of a plain trick step whose winner is the strongest card: the whole step in locals
#: (the follow and strength rows of the lead, the trick's strongest card so far and its
#: seat, the tricks won, the tricks played), written back to the state once, at its end.
_LOCAL_WALK = """\
    def walk(self, st, getrandbits):
        \"\"\"Random moves to the end of the step, as `randrange` over the legal list draws them.\"\"\"
        hands, history = st.hands, st._history
        follow, strengths = $FOLLOW[st.trump + 1], $STRENGTH[st.trump + 1]
        won, log = st.tricks_won, st._won
        n = st.n
        after = $AFTER[n]
        seat = st.current_player
        tricks = st.tricks_played
        start = len(history)
        trick = st.trick
        if trick:                       # a trick under way: its lead and its strongest card so far
            row, strength = follow[st.lead + 1], strengths[st.lead + 1]
            best = -1
            for who, c in trick:
                rank = strength[c]
                if rank > best$TIES:
                    best = rank
                    winner = who
        while True:
            hand = hands[seat]
            allowed = (hand & row or hand) if trick else hand
$DRAW            history.append($MOVES[card]._code & 65535)
            hands[seat] = hand ^ cards
            if trick:
                rank = strength[card]
                if rank > best$TIES:
                    best = rank
                    winner = seat
            else:
                row, strength = follow[card + 1], strengths[card + 1]
                best = strength[card]
                winner = seat
            trick.append($PAIRS[seat][card])
            if len(trick) < n:
                seat = after[seat]
                continue
            won[winner] += 1
            log += trick
            log.append(winner)
            tricks += 1
            if $END:
                break
            trick = []
            seat = winner
        st.last_trick = trick
        st.trick = []
        st.lead = -1
        st.tricks_played = tricks
        st.current_player = st.leader = winner
        st._legal = None
        made = len(history) - start
        st.advance()
        return made
"""


def _walk(w, shape, names) -> str:
    """`walk`: the loop of `play` with the card drawn instead of given; the seat count, the
    follow row of this trump and the trick's cards so far kept in locals (for a plain step
    whose winner is the strongest card, everything: `_LOCAL_WALK`)."""
    if not (shape["ruled"] or shape["sit"] or names["THEN"]) and "STRENGTH" in names:
        end = "not hands[winner]" if shape["every"] else f"tricks == {shape['count']!r}"
        return Template(_LOCAL_WALK).substitute(
            names, END=end, TIES=" or rank == best and rank & 1" if names["LAST"] else "",
            DRAW=indent(_draw(w, shape), 12))
    if shape["ruled"]:
        allowed, setup = _allowed(shape, names), ""
    else:
        allowed = "allowed = hand\nif trick:\n    allowed = hand & follow[st.lead + 1] or hand\n"
        setup = "follow = $FOLLOW[st.trump + 1]\n"
    # the seat to play kept in a local while the trick goes round (written back when it is
    # full), unless a rule the step calls may read `st.current_player` on the way
    local = not (shape["ruled"] or shape["sit"] or names["THEN"])
    again = "\nseat = st.current_player" if local else ""
    ended = _end_trick(shape, names, "if {END}:\n    break\ntrick = st.trick\nplayed = 0" + again, played=False)
    following = ("if len(trick) < n:\n    seat = (seat + 1) % n\n    continue\n" if local
                 else _next_seat(shape, "continue"))
    loop = (("" if local else "seat = st.current_player\n") + "hand = hands[seat]\n" + allowed + _draw(w, shape)
            + "history.append($MOVES[card]._code & 65535)\nmade += 1\nhands[seat] = hand ^ cards\nplayed |= cards\n" + _set_lead(names)
            + "trick.append($PAIRS[seat][card])\n" + following + ended)
    head = ("hands, history = st.hands, st._history\n" + setup
            + ("n = st.n\nseat = st.current_player\n" if local else "") + "trick = st.trick\nplayed = 0\n"
            "for _, c in trick:\n    played |= 1 << c\nmade = 0\nwhile True:\n")
    return ("    def walk(self, st, getrandbits):\n"
            "        \"\"\"Random moves to the end of the step, as `randrange` over the legal list draws them.\"\"\"\n"
            + indent(head, 8) + indent(loop, 12) + "        st._legal = None\n        st.advance()\n        return made\n")


# ---- the winner rule ---------------------------------------------------------------------------

#: the most numbers the strength rows may hold (distinct rows × deck size): past it, a game
#: (a deck of thousands of cards) keeps the winner plans, read per trick
MAX_STRENGTHS = 60_000


def _strengths(step, cases):
    """The winner plans as card strengths, `[trump + 1][lead + 1][card]`, or None when a
    case has a condition of its own (`needed`: it applies only when some other card is
    played) or the rows would be too many (`MAX_STRENGTHS`). A card is as strong as the
    first case that admits it (earlier cases stronger), then as its rank in that case's
    order; 0 when no case admits it. Of two equal cards the first played wins, or the last
    one for a `last` pick (odd strength), so the winner is the strongest card of the trick,
    the leader's when none is admitted."""
    size = step.table.deck.size
    made: dict = {}               # a plan row -> its strengths (rows repeat for every lead of a suit)
    by_trump = {}                 # id of a trump's case rows -> (them, its plans by lead)
    for rows in cases:
        if id(rows) in by_trump:
            continue
        by_trump[id(rows)] = (rows, plans(rows))
        for row in by_trump[id(rows)][1]:
            if row not in made:
                if any(needed for needed, _, _ in row) or (len(made) + 1) * size > MAX_STRENGTHS:
                    return None
                made[row] = None
    most = max(map(len, made), default=0)       # the most cases of any row
    for row in made:
        made[row] = _strength_row(row, most, size)
    return tuple(tuple(map(made.__getitem__, by_trump[id(rows)][1])) for rows in cases)


def _strength_row(row, cases: int, size: int) -> tuple:
    strength = [0] * size
    for index, (_, admitted, pick) in enumerate(row):
        last = pick is _last
        for card, rank in _ranks(admitted, pick).items():
            if not strength[card]:
                strength[card] = (((cases - index) * (size + 1) + rank) << 1) | last
    return tuple(strength)


def _ranks(admitted: int, pick) -> dict[int, int]:
    """Card -> its rank (from 1, higher wins) among the `admitted` cards by the case's pick."""
    cards = [c for c in range(admitted.bit_length()) if admitted >> c & 1]
    if pick is _HIGHEST_BIT:
        order = {c: c for c in cards}
    elif pick is _LOWEST_BIT:
        order = {c: -c for c in cards}
    elif pick is _first or pick is _last:
        order = {c: 0 for c in cards}
    else:
        order = {c: pick.sign * pick.key[c] for c in cards}
    dense = {value: rank for rank, value in enumerate(sorted(set(order.values())), 1)}
    return {c: dense[order[c]] for c in cards}


def _winner(w, cases, leads: int) -> str:
    """The winner's case rows (`winner.cases`: per trump, per case, a row by lead of its
    entry or None; `leads` entries a row) → a generated function `(trick, played, lead,
    trump) -> seat`. A table small enough to write out is written as the plans by trump and
    lead (`tricks.plans`); a larger one is handed in as the case rows, a row per trump and
    case, where the plans would be an entry per trump and lead."""
    keys: list = []
    coded: dict = {}        # id of an entry -> (the entry, its coded form); each distinct entry coded once
    rows_coded: dict = {}   # id of a case row -> (the row, its coded form)
    by_trump: dict = {}     # ids of a trump's coded rows -> (those rows, the coded rows as a tuple)
    table = []
    for rows in cases:
        made = []
        for row in rows:
            found = rows_coded.get(id(row))
            if found is None:
                flat = bool(row) and row.count(row[0]) == len(row)     # one entry throughout
                for entry in (row[:1] if flat else dict(zip(map(id, row), row)).values()):
                    if id(entry) not in coded:
                        coded[id(entry)] = (entry, None if entry is None else
                                            (entry[0] or 0, entry[1], _code(entry[2], keys)))
                if flat:
                    found = (row, (coded[id(row[0])][1],) * len(row))
                else:
                    found = (row, tuple([coded[id(entry)][1] for entry in row]))
                rows_coded[id(row)] = found
            made.append(found[1])
        key = tuple(map(id, made))
        found = by_trump.get(key)
        if found is None:
            found = by_trump[key] = (made, tuple(made))
        table.append(found[1])
    used = {entry[2] if entry[2] < _BY_KEY else _BY_KEY for _, entry in coded.values() if entry is not None}
    if len(table) * leads <= MAX_LITERAL_ITEMS:
        by_rows: dict = {}
        table = [by_rows.setdefault(id(rows), (rows, plans(rows) if rows else [()] * leads))[1] for rows in table]
        plans_name = w.table("PLANS", table, "winner plans[trump + 1][lead + 1]: (needed, admitted, pick), one entry each")
        head = [f"    for needed, admitted, pick in {plans_name}[trump + 1][lead + 1]:"]
    else:
        cases_name = w.const("CASES", tuple(table), "winner cases[trump + 1][case][lead + 1]: (needed, admitted, "
                             "pick) or None where the case does not apply")
        head = [f"    for row in {cases_name}[trump + 1]:", "        entry = row[lead + 1]", "        if entry is None:",
                "            continue", "        needed, admitted, pick = entry"]
    keys_name = w.const("KEYS", tuple(tuple(k) for k in keys), "order keys by card id") if keys else None
    name = w.name("winner")
    lines = [f"def {name}(trick, played, lead, trump):",
             "    \"\"\"The seat that wins a full trick (generated from the file's trick-winner rule).\"\"\"",
             *head, "        if needed and not played & needed:", "            continue",
             "        hit = played & admitted", "        if not hit:", "            continue",
             f"        if pick == {_BITS_HIGH} or not hit & (hit - 1):", "            card = hit.bit_length() - 1"]
    if _BITS_LOW in used:
        lines += [f"        elif pick == {_BITS_LOW}:", "            card = (hit & -hit).bit_length() - 1"]
    if _FIRST in used:
        lines += [f"        elif pick == {_FIRST}:", "            for seat, c in trick:",
                  "                if hit >> c & 1:", "                    return seat"]
    if _LAST in used:
        lines += [f"        elif pick == {_LAST}:", "            for i in range(len(trick) - 1, -1, -1):",
                  "                if hit >> trick[i][1] & 1:", "                    return trick[i][0]"]
    if _BY_KEY in used:
        lines += ["        else:", f"            key = {keys_name}[(pick - {_BY_KEY}) >> 1]",
                  "            sign = -1 if pick & 1 else 1", "            found, top = None, None",
                  "            for seat, c in trick:",
                  "                if hit >> c & 1 and (found is None or sign * key[c] > top):",
                  "                    found, top = seat, sign * key[c]", "            return found"]
    lines += ["        for seat, c in trick:", "            if c == card:", "                return seat",
              "    return trick[0][0]"]
    w.lines("\n".join(lines))
    return name


def _code(pick, keys: list) -> int:
    if pick is _HIGHEST_BIT:
        return _BITS_HIGH
    if pick is _LOWEST_BIT:
        return _BITS_LOW
    if pick is _first:
        return _FIRST
    if pick is _last:
        return _LAST
    key = tuple(pick.key)
    if key not in keys:
        keys.append(key)
    return _BY_KEY + 2 * keys.index(key) + (0 if pick.sign == 1 else 1)
