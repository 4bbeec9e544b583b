"""Build trick-game positions from a few facts, through the public `Game.restore`."""
from __future__ import annotations


def position(game, hands, *, phase="play", current, dealer=0, leader=None, trick=(), bids=None,
             tricks_won=None, scores=None, round=1, trump=None, bid_cards=None, seed=0):
    """A full view with the given facts and the rest empty; `restore` fills in the undealt cards."""
    players = len(hands)
    view = {
        "players": players,
        "phase": phase,
        "round": round,
        "current_player": current,
        "scores": scores or [0] * players,
        "hands": [list(h) for h in hands],
        "dealer": dealer,
        "leader": leader if leader is not None else (trick[0][0] if trick else current),
        "bids": bids or [None] * players,
        "bid_cards": bid_cards or [None] * players,
        "tricks_won": tricks_won or [0] * players,
        "trick": [list(t) for t in trick],
        "trump": trump,
        "seed": seed,
        "is_terminal": False,
        "winners": [],
    }
    return game.restore(view)


def play(state, *moves):
    for move in moves:
        state.apply(move)
    return state


def legal_texts(state):
    return [str(m) for m in state.legal_moves()]
