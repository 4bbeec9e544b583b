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
