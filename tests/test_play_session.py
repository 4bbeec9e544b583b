"""A scripted terminal session (issue #13): `rulekit play` in a pseudo-terminal (pexpect),
a whole game of each shipped game against an agent, `help` and a bad move on the way,
saved with `--save`, then stepped through with `rulekit replay` and reloaded by
`Game.restore`."""
from __future__ import annotations

import os
import shutil
import sys

import pytest

import rulekit
from rulekit import replay

pexpect = pytest.importorskip("pexpect")

PROMPT = r"your move \(number or text, help, q quits\) > "
CASES = [
    ("duell-der-tiere", ["--agents", "ismcts:5"], "What your cards do"),
    ("insidious-sevens", ["--players", "2", "--agents", "flatmc:1"], "How to answer"),
    ("instinct", ["--players", "3", "--variant", "short", "--agents", "random"], "How to answer"),
]


def _rulekit() -> list[str]:
    found = shutil.which("rulekit", path=os.path.dirname(sys.executable))
    return [found] if found else [sys.executable, "-c", "from rulekit.cli import main; main()"]


def _spawn(args: list[str]):
    command = _rulekit() + args
    env = dict(os.environ, NO_COLOR="1", COLUMNS="140", TERM="dumb")
    return pexpect.spawn(command[0], command[1:], env=env, encoding="utf-8", timeout=60,
                         dimensions=(60, 140))


@pytest.mark.parametrize("game,options,helped", CASES, ids=[c[0] for c in CASES])
def test_a_whole_game_in_the_terminal_saved_and_replayed(tmp_path, game, options, helped):
    save = tmp_path / "game.json"
    child = _spawn(["play", game, "--seed", "5", *options, "--save", str(save)])
    child.expect(PROMPT)
    child.sendline("help")
    child.expect(helped)
    child.expect(PROMPT)
    child.sendline("no such move")
    child.expect("illegal move 'no such move'")
    child.expect(PROMPT)
    assert child.before.count("Legal moves") == 1             # the list once, numbered
    assert "1. " in child.before
    answered = 0
    while True:
        child.sendline("1")
        answered += 1
        if child.expect([PROMPT, "Game over"]) == 1:
            break
        assert answered < 2000
    child.expect("Saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    saved = replay.read(save)
    state = saved.play()
    assert state.is_terminal and len(saved.moves) >= answered
    again = rulekit.load(game, variant=list(saved.variants) or None).restore(state.view())
    assert again.view() == state.view()

    viewer = _spawn(["replay", str(save), "--no-pause", "--moves-only"])
    viewer.expect(pexpect.EOF)
    viewer.close()
    assert viewer.exitstatus == 0
    assert saved.moves[-1] in viewer.before
