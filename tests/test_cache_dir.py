"""Lark's parse tables are cached only where no other user can plant a file (`cache_dir.py`).

Lark reads its cache back with pickle, which runs whatever the file says: the shared temp
folder (Lark's default for `cache=True`) would let any local user run code in our process.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulekit import cache_dir as cd
from rulekit.dsl import grammar as p

ROOT = Path(__file__).resolve().parent.parent


def test_the_folder_is_made_private(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(tmp_path / "c"))
    folder = cd.cache_dir()
    assert folder == tmp_path / "c"
    assert folder.stat().st_mode & 0o777 == 0o700


def test_an_empty_setting_turns_caching_off(monkeypatch):
    monkeypatch.setenv("RULEKIT_CACHE_DIR", "")
    assert cd.cache_dir() is None
    assert p._tables_file("grammar") is None


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_folder_others_may_write_is_not_used(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(shared))
    assert cd.cache_dir() is None
    shared.chmod(0o770)
    assert cd.cache_dir() is None
    shared.chmod(0o755)
    assert cd.cache_dir() == shared


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="symlinks")
def test_a_symlinked_folder_or_file_is_not_used(tmp_path, monkeypatch):
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    (tmp_path / "link").symlink_to(real)
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(tmp_path / "link"))
    assert cd.cache_dir() is None
    (real / "planted").write_text("x")
    (real / "pointer").symlink_to(real / "planted")
    assert cd.private_file(real, "pointer") is None
    assert cd.private_file(real, "planted") == real / "planted"
    assert cd.private_file(real, "new") == real / "new"


def test_the_tables_are_keyed_by_the_grammar_and_kept_in_the_private_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(tmp_path))
    one, two = p._tables_file("a: 'x'"), p._tables_file("a: 'y'")
    assert one != two and Path(one).parent == tmp_path == Path(two).parent


def test_a_new_process_writes_and_then_reads_its_tables_there(tmp_path):
    env = dict(os.environ, RULEKIT_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))
    code = "import rulekit; print(rulekit.load('instinct').new_game(players=4, seed=1).legal_moves()[0])"
    first = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    files = sorted((tmp_path / "cache").iterdir())      # the parser's tables, the parse, the generated module
    assert [f.name.split("-")[0] for f in files] == ["codegen", "grammar", "parse"]
    again = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert first.stdout == again.stdout and first.stdout.strip()
    assert sorted((tmp_path / "cache").iterdir()) == files


def test_an_entry_is_written_whole_and_read_back_as_data(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(tmp_path / "c"))
    cd.write_entry("parse-abc.nodes", (1, "abc", ("x", 2)), keep=8)
    assert cd.read_entry("parse-abc.nodes") == (1, "abc", ("x", 2))
    assert [p.name for p in (tmp_path / "c").iterdir()] == ["parse-abc.nodes"]   # no temporary left
    (tmp_path / "c" / "parse-bad.nodes").write_bytes(b"not marshal data")
    assert cd.read_entry("parse-bad.nodes") is None
    assert cd.read_entry("parse-missing.nodes") is None


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="symlinks")
def test_an_entry_behind_a_symlink_is_neither_read_nor_written(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(tmp_path / "c"))
    cd.write_entry("codegen-real.code", (1,), keep=8)
    (tmp_path / "c" / "codegen-link.code").symlink_to(tmp_path / "c" / "codegen-real.code")
    assert cd.read_entry("codegen-link.code") is None
    cd.write_entry("codegen-link.code", (2,), keep=8)
    assert cd.read_entry("codegen-real.code") == (1,)


def test_only_the_newest_entries_of_a_kind_are_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(tmp_path / "c"))
    cd.write_entry("codegen-other.code", 0, keep=2)          # another kind: never pruned here
    for number in range(5):
        cd.write_entry(f"parse-{number}.nodes", number, keep=2)
        os.utime(tmp_path / "c" / f"parse-{number}.nodes", ns=(number * 10**9, number * 10**9))
    cd.write_entry("parse-5.nodes", 5, keep=2)
    names = sorted(p.name for p in (tmp_path / "c").iterdir())
    assert names == ["codegen-other.code", "parse-4.nodes", "parse-5.nodes"]
