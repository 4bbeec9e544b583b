"""The generator (rulekit/compile/codegen*.py): a checked rule file written out as Python.

Issue 16: "the compiler turns a checked rule file into Python source for that game ... and
`exec`s it once"; "`rulekit compile GAME --python` prints it, and a failing test can show
the generated line"; "Keep the public API and the contract exactly as they are ... seeded
games must stay identical"; "Security: rule files are untrusted. Generated source is built
from the checked AST only: identifiers are ones the generator makes itself, values from the
file enter as `repr` of validated ints and strings, and no rule text is ever spliced into
code; the loader fuzz must also try names and strings that look like Python (quotes,
newlines, `__import__`, unicode identifiers) against the generator."
"""
from __future__ import annotations

import random
import traceback
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulekit
from rulekit.cli import main
from rulekit.compile import codegen
from rulekit.engine.state import State
from rulekit.errors import IllegalMoveError

from codegen_check import assert_only_generator_names
from lockstep import play_in_lockstep
from public_loop import assert_playout_makes_the_public_loop_moves

ROOT = Path(__file__).resolve().parent.parent
FILES = [str(p) for p in sorted((ROOT / "rules").glob("*.rules"))] + [
    str(p) for p in sorted((ROOT / "examples").rglob("*.rules"))]
GAMES = [(path, variant) for path in FILES for variant in [None, *rulekit.load(path).variants]]
IDS = [f"{Path(p).stem}-{v or 'base'}" for p, v in GAMES]


def _players(game) -> int:
    return 4 if 4 in game.players else game.players[0]


# ---- every shipped and example game -----------------------------------------------------------

@pytest.mark.parametrize("path,variant", GAMES, ids=IDS)
def test_compile_python_prints_the_generated_module_of_every_game(path, variant):
    args = ["compile", path, "--python"] + (["--variant", variant] if variant else [])
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    game = rulekit.load(path, variant=variant)
    assert result.output == codegen.source_of(game.ruleset(_players(game)))
    assert_only_generator_names(result.output)
    summary = CliRunner().invoke(main, args[:-1] if not variant else ["compile", path, "--variant", variant])
    assert summary.exit_code == 0 and "step 0:" in summary.output


def test_compile_refuses_a_player_count_the_game_does_not_allow():
    result = CliRunner().invoke(main, ["compile", "instinct", "--python", "--players", "9"])
    assert result.exit_code == 2 and "not 9" in result.output


def _reference(path, variant, monkeypatch):
    """The game of a file as the hand-written steps run it (the generator switched off)."""
    return reference_of(Path(path).read_text(), monkeypatch, variant=variant, file=path,
                        base_dir=str(Path(path).parent))


def reference_of(text, monkeypatch, players=None, **load):
    """The game of a rule text as the hand-written steps run it, its rules compiled for
    `players` (the usual count by default) while the generator is switched off."""
    with monkeypatch.context() as patch:
        patch.setattr(codegen, "ENABLED", False)
        game = rulekit.loads(text, **load)
        game.ruleset(players or _players(game))
    return game


@pytest.mark.parametrize("path,variant", GAMES, ids=IDS)
def test_the_generated_steps_play_exactly_as_the_hand_written_ones(path, variant, monkeypatch):
    generated = rulekit.load(path, variant=variant)
    reference = _reference(path, variant, monkeypatch)
    players = _players(generated)
    for seed in (3, 4):
        ours, theirs = generated.new_game(players, seed=seed), reference.new_game(players, seed=seed)
        assert type(theirs) is State
        rng, moves = random.Random(seed), 0
        while not theirs.is_terminal and moves < 400:
            legal = theirs.legal_moves()
            assert [m.text for m in ours.legal_moves()] == [m.text for m in legal]
            pick = rng.randrange(len(legal))
            ours.apply(ours.legal_moves()[pick]) if moves % 3 else ours.apply(legal[pick].text)
            theirs.apply(legal[pick])
            moves += 1
        assert ours.view() == theirs.view() and ours.history == theirs.history


@pytest.mark.parametrize("path,variant", GAMES, ids=IDS)
def test_every_round_ends_with_the_same_points_record_and_end_both_ways(path, variant, monkeypatch):
    """The generated end of the round (points, `last_round`, the end test, the next dealer and
    deal) against `Ruleset.end_round` and the hand-written steps, after every round."""
    generated = rulekit.load(path, variant=variant)
    reference = _reference(path, variant, monkeypatch)
    players = _players(generated)
    ours, theirs = generated.new_game(players, seed=7), reference.new_game(players, seed=7)
    rng, rounds = random.Random(7), 0
    for _ in range(3000):
        if theirs.is_terminal:
            break
        legal = theirs.legal_moves()
        move = legal[rng.randrange(len(legal))]
        ours.apply(move.text)
        theirs.apply(move)
        if (ours.round, ours.is_terminal, ours.last_round) != (theirs.round, theirs.is_terminal, theirs.last_round):
            pytest.fail(f"round {theirs.round}: {ours.last_round} != {theirs.last_round}")
        if theirs.last_round is not None and theirs.last_round["round"] > rounds:
            rounds = theirs.last_round["round"]
            assert (ours.scores, ours.dealt, ours.dealer, ours.hands, ours.current_player) == (
                theirs.scores, theirs.dealt, theirs.dealer, theirs.hands, theirs.current_player)
    assert ours.view() == theirs.view() and ours.winners == theirs.winners and rounds >= 1


TRICK_GAMES = [path for path in FILES if "trick winner" in Path(path).read_text()]


@pytest.mark.parametrize("path", TRICK_GAMES, ids=[Path(p).stem for p in TRICK_GAMES])
def test_every_seat_count_s_full_trick_goes_to_the_winner_of_the_reference(path, monkeypatch):
    """The state's own class reads a full trick card by card for the seat counts it writes
    out (codegen_tricks.UNROLLED) and in a loop for more: each count the game allows plays
    as the hand-written steps do, trick by trick."""
    generated = rulekit.load(path)
    with monkeypatch.context() as patch:
        patch.setattr(codegen, "ENABLED", False)
        reference = rulekit.loads(Path(path).read_text(), file=path, base_dir=str(Path(path).parent))
        for players in reference.players:
            reference.ruleset(players)
    for players in generated.players:
        ours, theirs = generated.new_game(players, seed=players), reference.new_game(players, seed=players)
        rng, moves = random.Random(players), 0
        while not theirs.is_terminal and moves < 600:
            legal = theirs.legal_moves()
            move = legal[rng.randrange(len(legal))]
            ours.apply(ours.legal_moves()[legal.index(move)])
            theirs.apply(move)
            moves += 1
            if not theirs.trick:
                assert (ours.last_trick, ours.tricks_won, ours.taken, ours.current_player) == (
                    theirs.last_trick, theirs.tricks_won, theirs.taken, theirs.current_player)
        assert ours.view() == theirs.view() and ours.history == theirs.history


RULED = [path for path in TRICK_GAMES if "\nlead {" in Path(path).read_text()]


@pytest.mark.parametrize("path", RULED, ids=[Path(p).stem for p in RULED])
def test_a_game_with_lead_rules_lists_a_follow_of_the_suit_led_by_one_subscript(path, monkeypatch):
    """Hearts and Spades lead by rules (`no hearts played -> not hearts if able`) but follow
    the suit led: the generated list reads the cards that may follow from one row, as a game
    without lead rules does (`FOLLOW_ONE`), and lists what the hand-written steps list,
    every decision of whole games."""
    generated = rulekit.load(path)
    players = _players(generated)
    text = CliRunner().invoke(main, ["compile", path, "--python"]).output
    assert "FOLLOW_ONE" in text and "lead_rule" in text
    reference = _reference(path, None, monkeypatch)
    for seed in (11, 12, 13):
        ours, theirs = generated.new_game(players, seed=seed), reference.new_game(players, seed=seed)
        play_in_lockstep(ours, theirs, random.Random(seed))
        assert ours.view() == theirs.view() and ours.winners == theirs.winners

IDLE = """game "Idle"
players 2..4
deck {
  suits red, blue
  ranks 1..6
  order rank
}
round {
  dealer random, then next
  deal 2 each
}
score {
  otherwise -> 0
}
end after 2000 rounds
winner highest score
"""


def test_rounds_that_ask_no_decision_do_not_nest_a_call_each(monkeypatch):
    """Found by the long loader fuzz (a Euchre with its auction and tricks cut out): the
    generated end of a round entered the next round and, when no step asked a decision,
    called `advance` from inside `advance`, a level of the stack per round, so a game whose
    rounds ask nothing raised RecursionError (not a rulekit error) before its end. The
    engine's loop now goes on instead: 2,000 rounds without a decision end as the
    hand-written steps end them."""
    ours = rulekit.loads(IDLE).new_game(3, seed=1)
    theirs = reference_of(IDLE, monkeypatch, players=3).new_game(3, seed=1)
    assert ours.is_terminal and ours.round == 2000 and ours.last_round["round"] == 2000
    assert (ours.view(), ours.winners, ours.dealt) == (theirs.view(), theirs.winners, theirs.dealt)

FINAL_SCORE = """game "Ends"
players 2..3
deck {
  suits red, blue
  ranks 1..5
  order rank
}
round {
  deal 3 each
  bid 0..3, in turn from dealer
  tricks 3, first led by dealer, then by winner
}
follow {
  otherwise -> same suit as lead if able
}
trick winner {
  otherwise -> highest card of lead suit
}
score {
  made -> 10 + bid
  missed -> 0 - abs(tricks - bid) % 2
}
score at end -> tricks * 3 - bid
end after 3 rounds
winner highest score, then lowest abs(tricks - bid), then highest dealt
"""


def test_the_generated_end_of_a_game_gives_the_scores_and_winners_of_the_reference(monkeypatch):
    """`score at end` and tie-breaks written out (codegen_round's finish) against `Ruleset.finish`."""
    generated = rulekit.loads(FINAL_SCORE)
    assert "def finish_" in codegen.source_of(generated.ruleset(3))
    with monkeypatch.context() as patch:
        patch.setattr(codegen, "ENABLED", False)
        reference = rulekit.loads(FINAL_SCORE)
        reference.ruleset(3), reference.ruleset(2)
    ties = 0
    for seed in range(60):
        players = 2 + seed % 2
        ours, theirs = generated.new_game(players, seed=seed), reference.new_game(players, seed=seed)
        rng = random.Random(seed)
        while not theirs.is_terminal:
            legal = theirs.legal_moves()
            move = legal[rng.randrange(len(legal))]
            ours.apply(move.text)
            theirs.apply(move)
        assert (ours.scores, ours.winners, ours.view()) == (theirs.scores, theirs.winners, theirs.view())
        top = sorted(theirs.scores)
        ties += top[-1] == top[-2]
    assert ties     # some games end level on score: the tie-breaks decide


@pytest.mark.parametrize("path,variant", GAMES, ids=IDS)
def test_a_playout_of_every_game_and_variant_makes_the_public_loop_moves(path, variant):
    game = rulekit.load(path, variant=variant)
    players = _players(game)
    for seed in (5, 6):
        assert_playout_makes_the_public_loop_moves(game, players, seed)


@pytest.mark.parametrize("path,variant", GAMES, ids=IDS)
def test_a_playout_from_the_middle_of_a_step_makes_the_public_loop_moves(path, variant):
    """A walk that starts with a trick (or a pass, a round of bids) under way: what it reads
    of the state at its start (the trick's lead, its strongest card so far, the seat to play)
    is what the public loop would have read."""
    game = rulekit.load(path, variant=variant)
    rng = random.Random(11)
    for made in (5, 6, 7, 9, 14, 23):
        state = game.new_game(_players(game), seed=made)
        for _ in range(made):
            if state.is_terminal:
                break
            legal = state.legal_moves()
            state.apply(legal[rng.randrange(len(legal))])
        ours, theirs = state.clone(), state.clone()
        count = ours.playout(seed=made)
        loop = random.Random(made)
        while not theirs.is_terminal:
            legal = theirs.legal_moves()
            theirs.apply(legal[loop.randrange(len(legal))])
        assert ours.history == theirs.history and count == len(theirs.history) - len(state.history)
        assert ours.view() == theirs.view()


def test_an_illegal_move_in_a_generated_step_changes_nothing():
    state = rulekit.load("instinct").new_game(4, seed=2)
    assert type(state) is not State and isinstance(state, State)
    for _ in range(4):
        state.apply(state.legal_moves()[0])
    before = state.view()
    hand = set(before["hands"][state.current_player])
    other = next(c for h in before["hands"] for c in h if c not in hand)
    for bad in (f"play {other}", "bid 3", object(), 7, "play nothing"):
        with pytest.raises(IllegalMoveError):
            state.apply(bad)
        assert state.view() == before


def test_a_traceback_through_generated_code_shows_the_generated_line(monkeypatch):
    state = rulekit.load("instinct").new_game(4, seed=2)
    for _ in range(4):
        state.apply(state.legal_moves()[0])
    monkeypatch.setattr(state, "trick", None)           # break the state under the generated apply
    with pytest.raises(AttributeError) as caught:
        state.apply(state.legal_moves()[0])
    text = "".join(traceback.format_exception(caught.value))
    assert "<rulekit: Instinct#" in text and "trick.append(" in text.split("<rulekit: Instinct#")[-1]


def test_the_compiled_code_is_cached_by_the_source_hash():
    first = rulekit.loads(Path(ROOT / "rules" / "instinct.rules").read_text())
    second = rulekit.loads(Path(ROOT / "rules" / "instinct.rules").read_text())
    a, b = first.ruleset(4), second.ruleset(4)
    assert a.generated == b.generated and a.state_class is not b.state_class   # one code, own tables
    digest = a.generated.rsplit("#", 1)[1][:-1]
    assert any(key.startswith(digest) for key in codegen._CODE)


# ---- hostile names and strings ----------------------------------------------------------------

HOSTILE_NAMES = ["__import__", "exec", "eval", "os", "system", "st", "move", "self", "EngineState_1",
                 "Base_1", "Tricks_3", "FOLLOW_2", "__builtins__", "__class__", "print", "open", "True",
                 "lambda_", "_", "getrandbits", "globals"]
#: a rule file's strings hold anything but a double quote and a newline (the lexer's STRING)
HOSTILE_STRINGS = ["x'); import os; ('", "back\\\\slash \\\\n", "'''", "\u00e9t\u00e9 \u2028 \u0000x",
                   "__import__('os').system('echo hacked')", "{TITLE} $STATE ${CLS}", "\u03c0 \U0001F0A1"]


def hostile_rules(suits: list[str], card: str, title: str, variant: str, variant_title: str,
                  table: str = "bonus") -> str:
    return f'''game "{title}"
players 3..4
deck {{
  suits {", ".join(suits)}
  ranks 1..6
  card {card} x2, always trump
  order rank
}}
round {{
  deal 5 each
  bid 0..5, in turn from dealer
  tricks 5, first led by dealer, then by winner
}}
follow {{
  lead is trump -> any
  otherwise -> same suit as lead if able
}}
trick winner {{
  any trump played -> last trump
  otherwise -> highest card of lead suit
}}
score {{
  made -> 10 + bid + {table}[bid]
  missed -> 0 - {table}[tricks - bid]
}}
table {table} {{ 0: 3, 2..4: 7, else: 1 }}
end after 2 rounds
variant {variant} "{variant_title}" {{
  end after 1 rounds
}}
'''


@pytest.mark.parametrize("index", range(len(HOSTILE_STRINGS)))
def test_names_and_strings_that_look_like_python_never_become_code(index, monkeypatch):
    names = HOSTILE_NAMES[index * 3 % len(HOSTILE_NAMES):][:3] + HOSTILE_NAMES[:1]
    suits = list(dict.fromkeys(names))[:3]
    card = HOSTILE_NAMES[(index * 5 + 7) % len(HOSTILE_NAMES)]
    if card in suits:
        card = "trump"
    title = HOSTILE_STRINGS[index]
    table = next(name for name in HOSTILE_NAMES[index * 7 % len(HOSTILE_NAMES):] + HOSTILE_NAMES
                 if name not in suits and name != card)
    text = hostile_rules(suits, card, title, HOSTILE_NAMES[index % 5], HOSTILE_STRINGS[-1 - index], table)
    ran = []
    monkeypatch.setattr("os.system", lambda *a: ran.append(a))
    game = rulekit.loads(text)
    for variant in (None, *game.variants):
        played = rulekit.loads(text, variant=variant)
        rules = played.ruleset(3)
        source = codegen.source_of(rules)
        assert_only_generator_names(source)
        assert "TABLE_" in source and "+ TABLE" not in source      # the table written out, under our name
        assert rules.state_class is not None and rules.generated.startswith("<rulekit: ")
        assert "\n" not in rules.generated and all(c.isalnum() or c in " -_#:<>" for c in rules.generated)
        assert played.new_game(3, seed=1).playout(seed=2) > 0
    assert not ran


def test_an_int_too_long_for_decimal_text_is_written_in_hexadecimal():
    """Python turns an int of more than `sys.get_int_max_str_digits()` decimal digits (at
    least 640) into text or back only by raising: a large board's masks are written in base
    16, which has no limit, and read back as the same int."""
    import sys

    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)
    try:
        for value in (1 << codegen.DECIMAL_BITS + 1, -(3 << 30_000), (1 << 50_000) - 1):
            text = codegen.literal((value, 5))
            assert text.startswith(("(0x", "(-0x")) and eval(text) == (value, 5)
        assert codegen.literal((1 << codegen.DECIMAL_BITS) - 1) == repr((1 << codegen.DECIMAL_BITS) - 1)
    finally:
        sys.set_int_max_str_digits(before)


def test_a_large_floating_board_loads_and_plays():
    """A floating board of 10x40 cells (the checker allows 64 a side and 400 cells): its
    frame's masks pass Python's int-to-text limit; the game loads and plays to its end."""
    text = (Path(__file__).resolve().parent.parent / "rules" / "duell-der-tiere.rules").read_text()
    text = text.replace("board 4x4, floating", "board 10x40, floating").replace(
        "end when count(display) = 16", "end when count(display) = 24")
    game = rulekit.loads(text)
    state = game.new_game(2, seed=3)
    assert "def place_legal_" in codegen.source_of(game.ruleset(2))
    rng = random.Random(3)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_moves()))
    assert state.is_terminal and len(state.view()["display"]) > 16      # past a 4x4 board's cells


def test_the_literals_refuse_anything_but_ints_strings_and_tuples():
    assert codegen.literal((1, "a\nb", (None, True))) == "(1, 'a\\nb', (None, True))"
    for bad in (1.5, {"a": 1}, object(), [lambda: 0], b"x"):
        with pytest.raises(TypeError):
            codegen.literal(bad)
    writer = codegen.Writer()
    for bad in ("x; import os", "1a", "é", "a b", ""):
        with pytest.raises((ValueError, IndexError)):
            writer.name(bad)


def test_the_module_leaves_out_what_nothing_reads():
    """A writer may make a constant or hand in an object for a form it then does not write;
    the module leaves out what no other line reads, and then what only those read."""
    w = codegen.Writer()
    read, unread = w.const("READ", (1, 2), "read"), w.const("UNREAD", (3, 4), "not read")
    entry = w.const("ENTRY", (5, 6))
    table = w.table("TABLE", [[(5, 6)]], "a table of constants nothing reads")    # reads `entry` alone
    big = w.const("BIG", tuple(range(codegen.MAX_LITERAL_ITEMS + 1)), "too large, handed in, not read")
    used, idle = w.bind("used", len), w.bind("idle", max)
    w.lines(f"def f():\n    # {unread} in a comment is not a read\n    return {read}, {used}")
    source = w.source("t")
    words = {word for line in source.splitlines() if not line.lstrip().startswith("#") for word in codegen._WORD.findall(line)}
    assert {read, used} <= words and not {unread, entry, table, big, idle} & words
    assert set(w.bound) == {used}
    namespace = {"__builtins__": {}, **w.bound}
    exec(source, namespace)
    assert namespace["f"]() == ((1, 2), len)


GRID_FILES = [str(p) for p in sorted((ROOT / "tests" / "grid_games").glob("*.rules"))]


@pytest.mark.parametrize("path", FILES + GRID_FILES, ids=[Path(p).stem for p in FILES + GRID_FILES])
def test_every_name_of_a_generated_module_is_read(path):
    """What the module defines as a constant or is handed is read by its code (the title
    aside): no table is written or made for nothing."""
    game = rulekit.load(path)
    for players in game.players:
        source, bound, _, _ = codegen.generate(game.ruleset(players))
        code = [line for line in source.splitlines() if not line.lstrip().startswith("#")]
        defined = {line.partition(" = ")[0] for line in code if " = " in line and not line.startswith(" ")}
        reads = Counter(word for line in code for word in codegen._WORD.findall(line))
        assert [name for name in defined - {"TITLE"} if reads[name] < 2] == []
        assert [name for name in bound if not reads[name]] == []


@pytest.mark.parametrize("path", FILES, ids=[Path(p).stem for p in FILES])
def test_the_generated_deal_deals_what_the_hand_written_one_deals_every_round(path):
    from rulekit.engine import steps

    game = rulekit.load(path)
    for players in game.players:
        rules = game.ruleset(players)
        deal = rules.steps[0] if rules.steps else None
        if not isinstance(deal, steps.Deal) or type(deal).enter is steps.Deal.enter:
            continue
        reference = type(deal).generated_from.deal
        for round_ in range(1, len(deal.counts) + 2):
            ours, theirs = game.new_game(players, seed=round_), game.new_game(players, seed=round_)
            for state in (ours, theirs):
                state.round, state.chance = round_, 7
            deal.enter(ours)
            reference(deal, theirs)
            assert (ours.hands, ours.undealt, ours.trump, ours.extra.get("turned"), ours.chance) == (
                theirs.hands, theirs.undealt, theirs.trump, theirs.extra.get("turned"), theirs.chance)


def test_a_new_process_reads_the_compiled_module_from_the_private_cache(tmp_path):
    import os
    import subprocess
    import sys

    code = ("import rulekit\nfrom rulekit.compile import codegen\ns = rulekit.load('instinct').new_game(4, seed=3)\n"
            "s.playout(seed=1)\nprint(len(s.history), s.rules.generated)")
    env = dict(os.environ, RULEKIT_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))
    first = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    kept = sorted(p.name for p in (tmp_path / "cache").glob("codegen-*.code"))
    assert len(kept) == 1
    (tmp_path / "cache" / kept[0]).write_bytes(b"not marshal")      # a damaged file: compiled again
    second = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    third = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert first.stdout == second.stdout == third.stdout and "<rulekit: Instinct#" in first.stdout
