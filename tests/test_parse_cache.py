"""Parses kept by the rule text's hash (`dsl/parse_cache.py`).

A kept parse gives exactly the nodes Lark gives (every shipped, example and test rule file);
a load of a known file in a new process imports no Lark; texts with syntax errors are never
kept; an entry that is damaged, of another key, or names anything but a node class is ignored
and the text parsed again; the key changes with the file name; the table in the process is
bounded.
"""
from __future__ import annotations

import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rulekit
from rulekit import cache_dir
from rulekit.dsl import parse_cache as pc, parser
from rulekit.dsl.grammar import parse_tree

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted([*ROOT.glob("rules/*.rules"), *ROOT.glob("examples/**/*.rules"), *ROOT.glob("tests/**/*.rules")])


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(folder))
    monkeypatch.setattr(pc, "_TREES", {})
    return folder


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("parse-*.nodes"))


def test_every_rule_file_reads_back_as_the_nodes_lark_gives(cache):
    kept = 0
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        fresh = parse_tree(text, str(path))
        if fresh.errors or fresh.rules is None:
            continue
        pc.write(text, str(path), fresh.rules)
        pc._TREES.clear()                       # read from the disk, not this process's table
        again = pc.read(text, str(path))
        assert again == fresh.rules and repr(again) == repr(fresh.rules), path
        kept += 1
    assert kept >= 10 and len(_entries(cache)) == kept


def test_a_kept_parse_is_what_parse_all_gives_and_is_shared(cache):
    text = (ROOT / "rules" / "instinct.rules").read_text(encoding="utf-8")
    first = parser.parse_all(text, "instinct.rules")
    assert not first.errors and len(_entries(cache)) == 1
    second = parser.parse_all(text, "instinct.rules")
    assert second.rules is first.rules and second.errors == [] and second.names_reliable
    other = parser.parse_all(text, "elsewhere.rules")        # spans name the file: another key
    assert other.rules == parse_tree(text, "elsewhere.rules").rules
    assert other.rules.items[0].span.file == "elsewhere.rules" and len(_entries(cache)) == 2


def test_a_text_with_syntax_errors_is_never_kept(cache):
    text = 'game "Broken"\nplayers 2..4\ndeck { suits red blue ranks 1..5 \n'
    for _ in range(2):
        found = parser.parse_all(text, "broken.rules")
        assert found.errors
    assert _entries(cache) == [] and pc._TREES == {}


def test_a_new_process_loads_a_known_file_without_lark(cache):
    code = ("import sys, rulekit; game = rulekit.load('duell-der-tiere'); game.new_game(seed=1);"
            "print('lark' in sys.modules, game.title)")
    env = dict(os.environ, PYTHONPATH=str(ROOT), RULEKIT_CACHE_DIR=str(cache))
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                           check=True, cwd=str(ROOT)).stdout.split(maxsplit=1) for _ in range(2)]
    assert runs[0][0] == "True" and runs[1][0] == "False"
    assert runs[0][1] == runs[1][1]


@pytest.mark.parametrize("damage", [
    b"not marshal data",
    marshal.dumps((pc.FORMAT, "another key", ["nodes.RuleFile"])),
    marshal.dumps((pc.FORMAT + 1, "KEY", None)),
    marshal.dumps((pc.FORMAT, "KEY", ["builtins.eval", "print(1)"])),
    marshal.dumps((pc.FORMAT, "KEY", ["nodes.Name", "x"])),              # wrong number of fields
    marshal.dumps((pc.FORMAT, "KEY", ["nodes.Name", "x", None])),        # a node, not a RuleFile
    marshal.dumps((pc.FORMAT, "KEY", ["nodes.RuleFile", {"a": 1}, None])),
])
def test_a_damaged_or_foreign_entry_is_ignored_and_the_text_parsed_again(cache, damage):
    text = (ROOT / "rules" / "instinct.rules").read_text(encoding="utf-8")
    expected = parse_tree(text, "instinct.rules").rules
    parser.parse_all(text, "instinct.rules")
    [entry] = _entries(cache)
    key = pc._key(text, "instinct.rules")
    entry.write_bytes(damage.replace(b"KEY", key.encode()) if b"KEY" in damage else damage)
    pc._TREES.clear()
    assert pc.read(text, "instinct.rules") is None
    again = parser.parse_all(text, "instinct.rules")
    assert again.rules == expected and not again.errors


def test_a_tree_with_a_value_no_entry_can_hold_is_not_kept(cache):
    class Odd:
        pass
    text = (ROOT / "rules" / "instinct.rules").read_text(encoding="utf-8")
    tree = parse_tree(text, "x.rules").rules
    odd = rulekit.dsl.nodes.evolve(tree, items=tree.items + (Odd(),))
    pc.write(text, "x.rules", odd)
    assert _entries(cache) == [] and pc._TREES == {}


def test_the_key_covers_the_text_the_file_and_rulekit(monkeypatch):
    key = pc._key("game \"G\"\n", "g.rules")
    assert pc._key("game \"G\"\n", "g.rules") == key
    assert pc._key("game \"H\"\n", "g.rules") != key                 # the text
    assert pc._key("game \"G\"\n", "h.rules") != key                 # the file spans name
    monkeypatch.setattr(rulekit, "__version__", "0.0.0-other")
    assert pc._key("game \"G\"\n", "g.rules") != key                 # rulekit's version
    monkeypatch.undo()
    monkeypatch.setattr(cache_dir, "_SOURCES", ["rulekit's sources edited"])
    assert pc._key("game \"G\"\n", "g.rules") != key                 # rulekit's own files (the grammar too)


def test_the_table_in_the_process_is_bounded(cache, monkeypatch):
    monkeypatch.setattr(pc, "LIMIT", 3)
    monkeypatch.setenv("RULEKIT_CACHE_DIR", "")
    for i in range(10):
        parser.parse_all(f'game "G{i}"\n', "g.rules")
        assert len(pc._TREES) <= 3
