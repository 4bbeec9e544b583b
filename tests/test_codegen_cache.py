"""The generated module kept on disk by what it is made from (`compile/codegen_cache.py`).

A cached first load runs no generator and plays exactly as a load with no cache; an entry
that is damaged, of another key or format, or whose recipes find nothing is ignored and
written anew; the key changes with everything the module is made from; nothing is kept
outside the private cache folder.
"""
from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

import rulekit
from rulekit import cache_dir as cd
from rulekit.compile import codegen, codegen_cache as cc

ROOT = Path(__file__).resolve().parent.parent

GAMES = ["instinct", "duell-der-tiere", "insidious-sevens", "examples/oh-hell.rules",
         "examples/heart-hunt.rules", "tests/grid_games/meadow.rules"]

#: a load in a new process: whether the generator ran, and what several games played
PLAY = """
import json, sys
import rulekit
from rulekit.compile import codegen
made = []
generate = codegen.generate
codegen.generate = lambda rules: made.append(1) or generate(rules)
game = rulekit.load(sys.argv[1])
out = {"played": []}
for players in game.players[:2]:
    for seed in (1, 2):
        state = game.new_game(players, seed=seed)
        for _ in range(6):
            if state.is_terminal:
                break
            moves = state.legal_moves()
            state.apply(moves[seed % len(moves)])
        state.playout(seed=seed)
        view = state.view()
        view.pop("history", None)
        out["played"].append([players, seed, [str(m) for m in state.history], repr(view),
                              type(state).__name__, state.rules.generated])
out["generated"] = len(made)
print(json.dumps(out))
"""


def _load(game: str, cache, hash_seed: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED=str(hash_seed),
               RULEKIT_CACHE_DIR="" if cache is None else str(cache))
    out = subprocess.run([sys.executable, "-c", PLAY, game], env=env, capture_output=True, text=True,
                         check=True, cwd=str(ROOT))
    return json.loads(out.stdout.splitlines()[-1])


def _entries(folder: Path) -> dict[str, tuple]:
    return {p.name: marshal.loads(p.read_bytes()) for p in folder.glob("codegen-*.code")}


@pytest.mark.parametrize("game", GAMES)
def test_a_cached_first_load_runs_no_generator_and_plays_as_without_a_cache(game, tmp_path):
    cache = tmp_path / "cache"
    first = _load(game, cache, 1)
    kept = _entries(cache)
    assert first["generated"] >= 1 and kept
    second = _load(game, cache, 2)                 # another process, another hash seed
    plain = _load(game, None, 3)
    assert second["played"] == first["played"] == plain["played"]
    every_recipe = all(data[7] is not None for data in kept.values())
    # with every bound object found again, nothing is generated; else only the source is
    assert second["generated"] == (0 if every_recipe else first["generated"])
    assert _entries(cache) == kept


def test_the_trick_and_grid_games_find_every_object_again(tmp_path):
    """The mechanism serves both kinds of game, and a game whose card-set expressions stay
    the compiler's closures (found in its memo by id; a regression guard: a bound object
    made while generating would send them back to generating at every load)."""
    for game in ("instinct", "duell-der-tiere", "examples/heart-hunt.rules",
                 "insidious-sevens", "examples/games/hearts.rules"):     # and the passing games' tables
        _load(game, tmp_path / game, 1)
        assert all(data[7] is not None for data in _entries(tmp_path / game).values()), game


def test_a_pass_step_s_tables_are_made_again_at_a_load(tmp_path):
    """The generator makes a pass's tables (`codegen_passes.PassTables`): the entry reaches
    them by their making, and a load in a new process neither generates nor plays otherwise."""
    for game in ("insidious-sevens", "examples/games/hearts.rules"):
        first = _load(game, tmp_path / game, 1)
        kept = _entries(tmp_path / game)
        assert any("PassTables" in repr(data[7]) for data in kept.values()), game
        second = _load(game, tmp_path / game, 2)
        assert second["generated"] == 0 and second["played"] == first["played"], game


@pytest.mark.parametrize("damage", ["garbage", "foreign", "format", "truncated"])
def test_a_bad_entry_is_ignored_and_written_anew(damage, tmp_path):
    cache = tmp_path / "cache"
    good = _load("duell-der-tiere", cache, 1)
    (path,) = cache.glob("codegen-*.code")
    data = marshal.loads(path.read_bytes())
    if damage == "garbage":
        path.write_bytes(b"not marshal at all")
    elif damage == "foreign":                      # another game's entry under this name
        _load("instinct", tmp_path / "other", 1)
        other = sorted((tmp_path / "other").glob("codegen-*.code"))[0]
        path.write_bytes(other.read_bytes())
    elif damage == "format":
        path.write_bytes(marshal.dumps((cc.FORMAT + 1,) + data[1:]))
    else:
        path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])
    again = _load("duell-der-tiere", cache, 2)
    assert again["played"] == good["played"] and again["generated"] == good["generated"]
    assert marshal.loads(path.read_bytes()) == data          # the entry is whole again
    assert _load("duell-der-tiere", cache, 3)["generated"] == 0


@pytest.fixture
def private(tmp_path, monkeypatch):
    """A fresh cache folder, and no entries kept by this process."""
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cc, "_ENTRIES", {})
    return tmp_path / "cache"


def _counting(monkeypatch) -> list:
    made = []
    generate = codegen.generate
    monkeypatch.setattr(codegen, "generate", lambda rules: made.append(1) or generate(rules))
    return made


def test_an_entry_whose_recipes_find_nothing_is_made_anew(private, monkeypatch):
    rulekit.load("instinct").new_game(4, seed=1)
    (path,) = private.glob("codegen-*.code")
    data = marshal.loads(path.read_bytes())
    name, _ = data[7][0]
    stale = data[:7] + (((name, ("at", (0, "steps", 0, "no_such_field"), "builtins.dict")),) + data[7][1:],)
    path.write_bytes(marshal.dumps(stale))
    monkeypatch.setattr(cc, "_ENTRIES", {})
    made = _counting(monkeypatch)
    state = rulekit.load("instinct").new_game(4, seed=1)
    state.playout(seed=1)
    assert made == [1] and state.is_terminal
    assert marshal.loads(path.read_bytes()) == data


def test_the_key_covers_what_the_module_is_made_from(monkeypatch):
    game = rulekit.load("instinct")
    sections = game._base
    key = cc.key_of("Instinct", sections)
    assert cc.key_of("Instinct", dict(sections)) == key                  # the same: the same key
    assert cc.key_of("Instinct!", sections) != key                       # the title
    changed = dict(sections)
    changed.pop(next(iter(changed)))
    assert cc.key_of("Instinct", changed) != key                         # the checked sections
    monkeypatch.setattr(rulekit, "__version__", "0.0.0-other")
    assert cc.key_of("Instinct", sections) != key                        # rulekit's version
    monkeypatch.undo()
    monkeypatch.setattr(cd, "_SOURCES", ["rulekit's sources edited"])
    assert cc.key_of("Instinct", sections) != key                        # rulekit's own files


def test_each_player_count_and_variant_has_its_own_entry(private):
    game = rulekit.load("instinct")
    for players in game.players:
        game.new_game(players, seed=1)
    rulekit.load("instinct", variant="table").new_game(4, seed=1)
    compiled = {id(game.ruleset(players)) for players in game.players}
    assert len(_entries(private)) == len(compiled) + 1


def test_nothing_is_kept_with_caching_off(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKIT_CACHE_DIR", "")
    monkeypatch.setattr(cc, "_ENTRIES", {})
    assert cd.entry_path(cc._name("0" * 64)) is None
    rulekit.load("duell-der-tiere").new_game(seed=1).playout(seed=1)
    assert len(cc._ENTRIES) == 1                   # kept for this process only


def test_entries_go_to_the_private_folder_only(private):
    rulekit.load("instinct").new_game(4, seed=1)
    assert cd.entry_path(cc._name("0" * 64)).parent == cd.cache_dir() == private
    assert [p.parent for p in private.rglob("codegen-*")] == [private]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="symlinks")
def test_an_entry_that_is_a_link_is_neither_read_nor_written(private, tmp_path):
    rulekit.load("instinct").new_game(4, seed=1)
    (path,) = private.glob("codegen-*.code")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_bytes(path.read_bytes())
    path.unlink()
    path.symlink_to(elsewhere)
    key = marshal.loads(elsewhere.read_bytes())[1]
    cc._ENTRIES.clear()
    assert cc.read(key) is None and cd.entry_path(cc._name(key)) is None


def test_recipes_find_the_objects_again(instinct):
    rules = instinct.ruleset(4)
    root = (rules, instinct._base)
    found, _ = cc.places(root)
    step = rules.steps[0]
    bound = {"value": ("a", 1, ("b", None)), "rules": rules, "step": step, "method": rules.teams,
             "global": codegen.literal, "builtin": sorted, "fresh": [(0, 1), (2, 3)], "moves": tuple(rules.steps)}
    recipes = cc.recipes(bound, found)
    again = cc.resolve(recipes, root)
    assert again["rules"] is rules and again["step"] is step and again["global"] is codegen.literal
    assert again["builtin"] is sorted and again["method"] == rules.teams
    assert again["value"] == bound["value"] and again["fresh"] == bound["fresh"]
    assert all(a is b for a, b in zip(again["moves"], rules.steps))
    assert cc.recipes({"made": object()}, found) is None      # made while generating: no recipe


def _plain_by_definition(value) -> bool:
    return value.__class__ in cc._ATOMS or (value.__class__ is tuple and all(map(_plain_by_definition, value)))


_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=2)
                       | st.just(b"b") | st.just(object()),
                       lambda inner: st.tuples(inner, inner) | st.lists(inner, max_size=3).map(tuple)
                       | st.lists(inner, max_size=2), max_leaves=12)


@given(_VALUES, st.integers(0, 3))
def test_a_value_is_kept_as_it_is_when_made_of_atoms_and_tuples_alone(value, shared):
    """`_plain` looks at a shared row once (a large deck's tables share rows: millions of
    entries in all); it says what the definition says, shared rows or not."""
    table = (value,) * shared + (value, (value, 1))
    assert cc._plain(value) == _plain_by_definition(value)
    assert cc._plain(table) == _plain_by_definition(table)


@pytest.mark.parametrize("recipe", [
    ("global", "os", "system", "builtins.builtin_function_or_method"),
    ("global", "rulekit.compile.codegen", "__builtins__", "builtins.dict"),
    ("at", (0, "__class__"), "builtins.type"),
    ("at", (0, "steps", ("key", "x")), "builtins.dict"),
    ("at", (0, "steps", ("id", (0,))), "builtins.dict"),
    ("method", ("at", (0,), "rulekit.compile.game.Ruleset"), "__reduce__"),
    ("at", (0, "steps", 0), "builtins.int"),
    ("value", ["a list"]),
    ("exec", "print(1)"),
    ("at", (("made", "rulekit.compile.codegen", "literal", (("value", 1),)),), "builtins.str"),
    ("at", (("made", "os", "system", (("value", "true"),)),), "builtins.int"),
    ("at", (0, ("made", "rulekit.compile.codegen_passes", "PassTables", ())), "builtins.int"),
])
def test_a_recipe_reaches_nothing_outside_the_rules_and_rulekit(recipe, instinct):
    assert cc.resolve((("x", recipe),), (instinct.ruleset(4), instinct._base)) is None


def test_the_folder_keeps_the_newest_entries_only(private, monkeypatch):
    """Every edit of a rule file makes a new entry: the oldest go, so the folder does not grow
    without end."""
    private.mkdir(parents=True, exist_ok=True)
    for number in range(5):                       # older entries, of earlier edits
        old = private / f"codegen-old-{number}.code"
        old.write_bytes(b"not an entry")
        os.utime(old, ns=(number * 10**9, number * 10**9))
    monkeypatch.setattr(cc, "KEEP", 3)
    rulekit.load("instinct").new_game(4, seed=1)
    kept = sorted(path.name for path in private.glob("codegen-*.code"))
    assert len(kept) == 3 and "codegen-old-4.code" in kept and "codegen-old-3.code" in kept
    assert [name for name in kept if not name.startswith("codegen-old-")]   # the new one stays
