"""The loader and the engine under hostile input (issue 5, architecture "Errors and bad input").

"Rule files are untrusted text. Loading one must never run code from it, never read files
other than the ones it `extend`s by name or relative path, and always end quickly";
"No other exception type escapes `load`/`loads` for any input text"; "Moves from users are
untrusted too: unknown text, a card not in hand, the wrong seat → IllegalMoveError".

Issue 11 ("Tests"): "Keep the fuzzers: a loader fuzz (mutations, splices of the shipped
files, huge numbers, deep nesting, long files, unicode, NUL, CRLF) ... each a fast run in CI
and a long run under `pytest -m fuzz`"; "`pytest -m fuzz` runs 100,000 mutated rule files
... with no exception other than rulekit's own". The corpus is every shipped rule file and
every example rule file.

The CI part runs a few hundred derandomized examples; `pytest -m fuzz` runs 100,000 rule
texts (and the move fuzz), with fresh randomness each time.
"""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulekit
from rulekit import testing as rt
from rulekit.api import _bundled_dir

SHIPPED = {path.stem: path.read_text() for path in sorted(_bundled_dir().glob("*.rules"))}
_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
#: Shipped and example rule files: what the mutations and splices start from.
CORPUS = {**SHIPPED, **{f"examples/{p.relative_to(_EXAMPLES)}": p.read_text(encoding="utf-8")
                        for p in sorted(_EXAMPLES.rglob("*.rules"))}}
TOKEN = re.compile(r'\s+|#[^\n]*|"[^"\n]*"|[A-Za-z_][A-Za-z0-9_]*|\d+|\.\.|->|<=|>=|!=|.', re.S)

#: Digits of the huge integers the fuzz writes (longer ones: see test_a_number_past_the_int_limit).
MAX_DIGITS = 4000

CI = settings(max_examples=120, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
LONG = settings(max_examples=3000, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
#: The long loader fuzz: 100,000 rule texts.
LONG_LOAD = settings(LONG, max_examples=100_000)
#: Seconds any one text may take to load or be refused (generous: the machine is shared).
SLOWEST = 20


# ---- rule texts ------------------------------------------------------------------------------

def tokens(text: str) -> list[str]:
    return TOKEN.findall(text)


def _replace(kind):
    """A mutation that replaces one token (of `kind`, a predicate) with a drawn text."""
    @st.composite
    def mutate(draw, toks, new):
        places = [i for i, t in enumerate(toks) if kind(t)] or list(range(len(toks)))
        i = draw(st.sampled_from(places))
        return toks[:i] + [draw(new)] + toks[i + 1:]
    return mutate


is_number = str.isdigit


def is_name(tok: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z_]\w*", tok))


@st.composite
def mutated(draw, text: str):
    """A shipped rule file with 1 to 4 mutations: tokens deleted, duplicated or swapped; huge
    numbers; deep nesting; long names; unicode."""
    toks = tokens(text)
    for _ in range(draw(st.integers(1, 4))):
        toks = draw(_mutation(toks))
    return "".join(toks)


def _mutation(toks):
    n = len(toks)
    index = st.integers(0, n - 1)
    huge = st.integers(20, MAX_DIGITS).map(lambda d: "9" * d)
    nested = st.integers(1, 400).map(lambda k: "(" * k + "1" + ")" * k)
    long_name = st.integers(50, 20_000).map(lambda k: "x" * k)
    weird = st.text(st.characters(blacklist_categories=["Cs"]), min_size=1, max_size=8)
    return st.one_of(
        index.map(lambda i: toks[:i] + toks[i + 1:]),
        index.map(lambda i: toks[:i + 1] + toks[i:]),
        st.tuples(index, index).map(lambda ij: _swap(toks, *ij)),
        _replace(is_number)(toks, huge),
        _replace(is_number)(toks, nested),
        _replace(is_name)(toks, long_name),
        _replace(lambda t: True)(toks, weird),
        st.tuples(index, weird).map(lambda iw: toks[:iw[0]] + [iw[1]] + toks[iw[0]:]),
    )


def _swap(toks, i, j):
    toks = list(toks)
    toks[i], toks[j] = toks[j], toks[i]
    return toks


@st.composite
def spliced(draw):
    """Lines of one corpus file with a run of lines of another put in, or in place of some."""
    names = sorted(CORPUS)
    a = CORPUS[draw(st.sampled_from(names))].split("\n")
    b = CORPUS[draw(st.sampled_from(names))].split("\n")
    i = draw(st.integers(0, len(a)))
    j = draw(st.integers(0, len(b)))
    k = draw(st.integers(j, min(len(b), j + 40)))
    cut = draw(st.integers(0, 10))
    return "\n".join(a[:i] + b[j:k] + a[i + cut:])


@st.composite
def reshaped(draw):
    """A corpus file with its line ends, bytes or size changed: CRLF or lone CR line ends,
    NUL and other control characters, a section repeated into a long file, deep braces."""
    text = draw(st.sampled_from(sorted(CORPUS.values())))
    kind = draw(st.sampled_from(["crlf", "cr", "nul", "controls", "repeat", "braces", "bom"]))
    if kind == "crlf":
        return text.replace("\n", "\r\n")
    if kind == "cr":
        return text.replace("\n", "\r")
    if kind in ("nul", "controls"):
        chars = ["\x00"] if kind == "nul" else ["\x00", "\x0b", "\x0c", "\x1b", "\x7f", "\u2028", "\ufeff"]
        for _ in range(draw(st.integers(1, 5))):
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(st.sampled_from(chars)) + text[at:]
        return text
    if kind == "repeat":
        lines = text.split("\n")
        i = draw(st.integers(0, len(lines) - 1))
        j = draw(st.integers(i + 1, min(len(lines), i + 12)))
        times = draw(st.integers(2, 3000))
        return "\n".join(lines[:j] + lines[i:j] * times + lines[j:])[:400_000]
    if kind == "braces":
        depth = draw(st.integers(10, 3000))
        at = draw(st.integers(0, len(text)))
        return text[:at] + "{" * depth + "}" * draw(st.integers(0, depth)) + text[at:]
    return "\ufeff" + text


def rule_texts():
    """Random text, rule-like soup, mutations and splices of every shipped and example rule
    file, and those files reshaped (line ends, NUL, long, deeply nested)."""
    words = st.sampled_from(sorted({t for text in CORPUS.values() for t in tokens(text) if t.strip()}))
    soup = st.lists(st.one_of(words, st.sampled_from([" ", "\n", "{", "}", "(", ")", ","])), max_size=80)
    return st.one_of(
        st.text(max_size=200),
        soup.map("".join),
        spliced(),
        reshaped(),
        *[mutated(text) for text in CORPUS.values()],
    )


def load_or_reject(text: str):
    """`loads` returns a Game or raises RuleError whose diagnostics point into the text."""
    try:
        game = rulekit.loads(text)
    except rulekit.RuleError as error:
        assert error.diagnostics, "a RuleError says what is wrong"
        str(error)
        lines = text.split("\n")         # lines as the parser counts them: only "\n" ends one
        for d in error.diagnostics:
            if d.file != "<rules>":
                continue                # a diagnostic in a bundled file this one extends
            assert 1 <= d.line <= max(1, len(lines)), f"line {d.line} is outside the text: {d}"
            assert 1 <= d.column <= len(lines[d.line - 1]) + 1 if d.line <= len(lines) else d.column == 1, \
                f"column {d.column} is outside line {d.line}: {d}"
        return None
    assert isinstance(game, rulekit.Game)
    return game


def plays_a_little(game) -> None:
    """A game that loads starts at every player count and takes random legal moves."""
    for players in game.players:
        state = game.new_game(players=players, seed=players)
        for step in range(12):
            if state.is_terminal:
                break
            moves = state.legal_moves()
            assert moves, f"seat {state.current_player} has no legal move"
            state.apply(moves[step % len(moves)])


def check_text(text: str) -> None:
    game = load_or_reject(text)
    if game is not None:
        plays_a_little(game)


@CI
@given(rule_texts())
def test_loads_returns_a_game_or_raises_rule_error(text):
    check_text(text)


@pytest.mark.fuzz
@LONG_LOAD
@given(rule_texts())
def test_loads_under_a_long_fuzz(text):
    start = time.perf_counter()
    check_text(text)
    assert time.perf_counter() - start < SLOWEST, f"{len(text)} characters took over {SLOWEST} s"


@CI
@given(st.one_of(spliced(), reshaped()))
def test_splices_and_reshaped_files_load_or_raise_rule_errors(text):
    check_text(text)


#: names and strings that look like Python, for the generator (compile/codegen.py)
PYTHONISH = st.sampled_from(["__import__", "exec", "eval", "os", "system", "st", "move", "self", "_",
                             "EngineState_1", "Tricks_2", "FOLLOW_3", "__builtins__", "__class__",
                             "globals", "getrandbits", "True", "None", "lambda_", "import_"])
PYTHONISH_TEXT = st.one_of(st.sampled_from(["x'); import os; ('", "back\\slash \\n", "'''", "{TITLE}", "$STATE",
                                            "__import__('os').system('x')", "\u00e9\u2028\u03c0"]),
                           st.text(st.characters(blacklist_characters='"\n', blacklist_categories=["Cs"]),
                                   max_size=20))


@st.composite
def pythonish(draw):
    """A corpus file whose names (cards, suits, variants, counters) and strings look like Python."""
    text = CORPUS[draw(st.sampled_from(sorted(CORPUS)))]
    declared = re.findall(r"^\s*(?:suits|colours|colors)\s+([^\n#]*)", text, re.M)
    names = sorted({n for line in declared for n in re.findall(r"[A-Za-z_]\w*", line)}
                   | set(re.findall(r"^\s*(?:card|variant|counter)\s+([A-Za-z_]\w*)", text, re.M))) or ["game"]
    toks = tokens(text)
    for _ in range(draw(st.integers(1, 6))):
        old, new = draw(st.sampled_from(names)), draw(PYTHONISH)
        toks = [new if t == old else t for t in toks]
    title = draw(PYTHONISH_TEXT)
    return "".join(f'"{title}"' if t.startswith('"') else t for t in toks)


@settings(CI, max_examples=40)
@given(pythonish())
def test_python_looking_names_never_become_generated_code(text):
    """The generator under names and strings that look like Python (tests/codegen_check.py)."""
    from codegen_check import assert_only_generator_names
    from rulekit.compile.codegen import source_of

    game = load_or_reject(text)
    if game is None:
        return
    for players in game.players:
        assert_only_generator_names(source_of(game.ruleset(players)))
    plays_a_little(game)


@pytest.mark.parametrize("text", [
    "(" * 5000,
    "end when " + "-" * 5000 + "1 > 0",
    "end when " + "not " * 3000 + "1 > 0",
    "end when " + " or ".join(["1 > 0"] * 5000),
    "players " + "9" * MAX_DIGITS,
    "deck { suits " + "a" * 150_000 + " ranks 1..2 }",
    "x" * 300_000,
    "game \"\x00\u202e\ud7ff\"",
    "\ufeffgame \"x\"",
], ids=["brackets", "negations", "nots", "ors", "huge-number", "long-name", "too-long", "odd-title", "bom"])
def test_hostile_texts_give_rule_errors(text):
    with pytest.raises(rulekit.RuleError):
        rulekit.loads(text)


def test_a_diagnostic_shows_its_own_line():
    text = 'game "x"\x0c\nplayers 2\nbogus'
    with pytest.raises(rulekit.RuleError) as caught:
        rulekit.loads(text)
    [diagnostic] = [d for d in caught.value.diagnostics if d.line == 3]
    assert diagnostic.source_line == "bogus"


def test_a_number_past_the_int_limit_is_a_rule_error():
    with pytest.raises(rulekit.RuleError):
        rulekit.loads("players " + "9" * 5000)


GIANT = [1 << 20_000, -(1 << 20_000)]          # past Python's 4,300 digits of int-to-text


@pytest.mark.parametrize("number", GIANT, ids=["positive", "negative"])
def test_giant_numbers_from_a_caller_give_our_errors_and_change_nothing(number):
    """An int too long to print, as a move, a seat, a player count or a game's name: our own
    error, its message naming the number by its size, and the state as it was."""
    game = rulekit.load("instinct")
    state = game.new_game(4, seed=1)
    before = state.view()
    for call, error in ((lambda: state.apply(number), rulekit.IllegalMoveError),
                        (lambda: state.apply("bid 1", seat=number), rulekit.IllegalMoveError),
                        (lambda: state.legal_moves(seat=number), rulekit.IllegalMoveError),
                        (lambda: state.view(number), ValueError),
                        (lambda: game.new_game(number), ValueError),
                        (lambda: game.actions(number), ValueError),
                        (lambda: rulekit.load(number), rulekit.RuleError)):
        with pytest.raises(error, match="20001-bit number"):
            call()
    assert state.view() == before


def test_a_seat_that_is_no_seat_is_refused_with_the_moves_of_the_seat_to_move():
    state = rulekit.load("instinct").new_game(4, seed=1)
    for call in (lambda: state.legal_moves(seat=4), lambda: state.apply("bid 1", seat=-1)):
        with pytest.raises(rulekit.IllegalMoveError) as caught:
            call()
        assert "seats are 0..3" in str(caught.value) and caught.value.legal == [m.text for m in state.legal_moves()]
        assert "game is over" not in str(caught.value)


# ---- extend ---------------------------------------------------------------------------------

def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def _variant_of(target: str) -> str:
    return f'extend "{target}"\nend when max(score) >= 50\n'


def test_extend_reads_the_same_folder(tmp_path):
    _write(tmp_path / "base.rules", SHIPPED["instinct"])
    game = rulekit.load(_write(tmp_path / "mine.rules", _variant_of("base.rules")))
    assert game.title == "Instinct"


def test_extend_may_not_leave_its_folder(tmp_path):
    _write(tmp_path / "base.rules", SHIPPED["instinct"])
    mine = _write(tmp_path / "sub" / "mine.rules", _variant_of("../base.rules"))
    with pytest.raises(rulekit.RuleError) as caught:
        rulekit.load(mine)
    [diagnostic] = [d for d in caught.value.diagnostics if d.message.startswith("no rule file")]
    assert diagnostic.message == "no rule file '../base.rules'"
    assert diagnostic.hint.startswith("`extend` reads bundled games and files in the same folder (or a search path given to load)")
    assert rulekit.load(mine, search_path=[tmp_path]).title == "Instinct"


def test_extend_may_not_name_an_absolute_path(tmp_path):
    base = _write(tmp_path / "elsewhere" / "base.rules", SHIPPED["instinct"])
    mine = _write(tmp_path / "sub" / "mine.rules", _variant_of(str(base)))
    with pytest.raises(rulekit.RuleError, match="no rule file"):
        rulekit.load(mine)


def test_extend_cycles_are_reported(tmp_path):
    a = _write(tmp_path / "a.rules", 'extend "b.rules"\nplayers 2..4\n')
    _write(tmp_path / "b.rules", 'extend "a.rules"\nplayers 2..5\n')
    with pytest.raises(rulekit.RuleError) as caught:
        rulekit.load(a)
    assert any("`extend` makes a cycle" in d.message for d in caught.value.diagnostics)


def test_a_file_extending_itself_is_a_cycle(tmp_path):
    me = _write(tmp_path / "me.rules", 'extend "me.rules"\nplayers 2..4\n')
    with pytest.raises(rulekit.RuleError) as caught:
        rulekit.load(me)
    assert any("`extend` makes a cycle" in d.message for d in caught.value.diagnostics)


def test_text_without_a_folder_cannot_extend_an_absolute_path(tmp_path):
    base = _write(tmp_path / "base.rules", SHIPPED["instinct"])
    with pytest.raises(rulekit.RuleError):
        rulekit.loads(_variant_of(str(base)))


# ---- moves ----------------------------------------------------------------------------------

GAMES = {name: rulekit.load(name) for name in rulekit.bundled()}


def move_texts(state):
    """Random text, and near misses of the legal moves: case, spaces, cut, padded, crossed."""
    legal = [m.text for m in state.legal_moves()] or ["play x"]
    base = st.sampled_from(legal)
    return st.one_of(
        st.text(max_size=40),
        base.map(str.upper),
        base.map(lambda t: "  " + t.replace(" ", "   ") + " "),
        st.tuples(base, st.integers(0, 30)).map(lambda ti: ti[0][:ti[1]]),
        st.tuples(base, st.text(max_size=6)).map("".join),
        st.tuples(base, base).map(lambda ab: ab[0].split(" ")[0] + " " + ab[1].split(" ", 1)[-1]),
        st.sampled_from(["", ",", "pass", "pass ,", "bid -0", "bid 1e3", "play play", "choose at 0,0"]),
    )


def apply_fuzzed(state, data) -> None:
    text = data.draw(move_texts(state))
    view = state.view()
    try:
        state.apply(text)
    except rulekit.IllegalMoveError:
        assert state.view() == view, f"apply({text!r}) raised, but changed the state"
        return
    rt.legal_moves_until_end(state, tries=1)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_apply_of_any_text_is_legal_or_an_illegal_move_error(name):
    game = GAMES[name]

    @settings(max_examples=40, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(rt.states(game, max_moves=60), st.data())
    def check(state, data):
        for _ in range(5):
            apply_fuzzed(state, data)
    check()


@pytest.mark.fuzz
@pytest.mark.parametrize("name", sorted(GAMES))
def test_apply_under_a_long_fuzz(name):
    game = GAMES[name]

    @LONG
    @given(rt.states(game, max_moves=400), st.data())
    def check(state, data):
        for _ in range(20):
            apply_fuzzed(state, data)
    check()
