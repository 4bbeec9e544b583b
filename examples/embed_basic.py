"""Embed rulekit: load a game, play a seeded game with a simple agent, print the result.

    python examples/embed_basic.py [seed]

The agent plays Instinct from seat 0 by a rule of thumb; the other seats play at random.
Everything it knows comes from `state.view(seat)`, what that seat may see.
"""
from __future__ import annotations

import random
import sys

import rulekit


def thumb_agent(state, seat: int):
    """Bid the number of trumps and 11s/12s held; then win with the top card while short."""
    view = state.view(seat)
    hand = view["hands"][seat]
    legal = state.legal_moves()
    if view["phase"] == "bid":
        strong = sum(1 for card in hand if card == "trump" or card.endswith((" 11", " 12")))
        return f"bid {min(strong, 11)}"
    wanted = view["bids"][seat] > view["tricks_won"][seat]
    ranked = sorted(legal, key=lambda move: _strength(str(move)))
    return ranked[-1] if wanted else ranked[0]


def _strength(move_text: str) -> int:
    card = move_text.removeprefix("play ")
    return 13 if card == "trump" else int(card.split()[1])


def main(seed: int = 7) -> None:
    game = rulekit.load("instinct")
    state = game.new_game(players=4, seed=seed)
    others = random.Random(seed)
    while not state.is_terminal:
        seat = state.current_player
        move = thumb_agent(state, seat) if seat == 0 else others.choice(state.legal_moves())
        state.apply(move)                       # a Move, or its text such as "bid 3"
    print(f"{game.title}: {state.view()['round']} rounds, {len(state.history)} moves")
    print("scores: ", state.scores)
    print("winners:", state.winners, "(seat 0 is the rule-of-thumb agent)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
