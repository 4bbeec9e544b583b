"""A first load imports only what the game uses (issue #16: first load in a new process).

A trick game's `load(...).new_game()` in a fresh interpreter must not import the mechanisms
it does not use, nor the libraries only some calls need: each costs milliseconds of every
first load (more where no bytecode cache is written). The calls that need them still work.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Imported by some games or calls only.
NOT_FOR_A_TRICK_GAME = ["rulekit.compile.grid_game", "rulekit.compile.codegen_grid", "rulekit.compile.codegen_grid_slides",
                        "rulekit.compile.codegen_grid_tail", "rulekit.compile.codegen_grid_points",
                        "rulekit.engine.grid_steps", "rulekit.compile.table_play",
                        "rulekit.compile.restore_check", "rulekit.dsl.recover", "rulekit.engine.actions",
                        "attrs", "attr", "importlib.resources", "numpy", "rich", "click"]


def imported_after(code: str) -> set[str]:
    script = f"import sys, json\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                         check=True, cwd=str(ROOT))
    return set(json.loads(out.stdout.splitlines()[-1]))


def test_a_trick_game_loads_without_the_other_mechanisms():
    loaded = imported_after("import rulekit\nrulekit.load('instinct').new_game(seed=1)")
    assert "rulekit.compile.game" in loaded
    assert sorted(loaded & set(NOT_FOR_A_TRICK_GAME)) == []


def test_the_calls_that_need_them_import_them():
    code = ("import rulekit\ng = rulekit.load('instinct', variant='table')\ns = g.new_game(players=4, seed=1)\n"
            "g.restore(s.view())\nrulekit.load('instinct').new_game(players=4, seed=1).legal_actions()\n"
            "try:\n    rulekit.loads('game \"x\"\\nplayers 2 {')\nexcept rulekit.RuleError:\n    pass\n"
            "rulekit.load('duell-der-tiere').new_game(seed=1)")
    loaded = imported_after(code)
    for name in ("rulekit.compile.grid_game", "rulekit.compile.table_play", "rulekit.compile.restore_check",
                 "rulekit.dsl.recover", "rulekit.engine.actions"):
        assert name in loaded, name
