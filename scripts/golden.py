#!/usr/bin/env python3
"""Record golden playthroughs: one seeded random game per entry, step by step, as text.

    python scripts/golden.py            # rewrite tests/golden/*.txt (only when a rule change is intended)

tests/test_golden.py replays each entry and diffs it with its file.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import rulekit

FOLDER = Path(__file__).resolve().parent.parent / "tests" / "golden"

#: (game, players, seed, variant): one file each.
GOLDEN = [
    ("instinct", 4, 1, None),
    ("instinct", 3, 2, "short"),
    ("insidious-sevens", 4, 1, None),
    ("insidious-sevens", 2, 3, None),
    ("duell-der-tiere", 2, 1, None),
]


def file_name(game: str, players: int, seed: int, variant: str | None) -> str:
    return f"{game}{'-' + variant if variant else ''}-{players}p-seed{seed}.txt"


def playthrough(game_name: str, players: int, seed: int, variant: str | None = None) -> str:
    """The text of one seeded game: moves chosen by random.Random(seed) among the legal ones."""
    game = rulekit.load(game_name, variant=variant)
    state = game.new_game(players=players, seed=seed)
    chooser = random.Random(seed)
    lines = [f"# {game.title}, {players} players, seed {seed}, variant {variant or 'none'}",
             "# regenerate with: python scripts/golden.py"]
    current_round = None
    while not state.is_terminal:
        view = state.view()
        if view["round"] != current_round:
            current_round = view["round"]
            lines.append(f"round {current_round}: scores {view['scores']}")
            for seat, hand in enumerate(view["hands"]):
                lines.append(f"  hand {seat}: {', '.join(hand)}")
        moves = state.legal_moves()
        move = moves[int(chooser.random() * len(moves))]
        lines.append(f"  seat {state.current_player}: {move}")
        state.apply(move)
    lines.append(f"end: scores {state.scores}, winners {state.winners}")
    return "\n".join(lines) + "\n"


def entries():
    known = set(rulekit.bundled())
    return [entry for entry in GOLDEN if entry[0] in known]


def main() -> int:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for entry in entries():
        path = FOLDER / file_name(*entry)
        path.write_text(playthrough(*entry))
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
