"""What both adapters share: a game in play, decided action by action.

Pipeline place: api → **envs**. A `Table` holds a rulekit state, the parts chosen so far of
a move made in parts (a pass of several cards is one action per card; the move is applied
once its last card is chosen) and the round's move log for information states. It also
turns a view into text for `render()`.
"""
from __future__ import annotations

import rulekit
from ..engine.actions import space_for
from ..engine.observe import RoundLog, encoder_for


def load(game, variant=None):
    """A `Game` from a `Game`, a bundled name or a path (with its variants)."""
    if isinstance(game, rulekit.Game):
        if variant is not None:
            raise ValueError("pass the game's name or path to choose a variant, not a loaded Game")
        return game
    return rulekit.load(game, variant=variant)


class Table:
    """One game in play, made of numbered actions (see the module docstring)."""

    def __init__(self, game, players: int):
        self.game, self.n = game, players
        self.rules = game.ruleset(players)
        self.space = space_for(self.rules, players)
        self.encoder = encoder_for(self.rules, players)
        self.state = None
        self.chosen: list[int] = []
        self.log = RoundLog(self.space)

    @property
    def obs_size(self) -> int:
        """The observation, then the parts chosen so far (one slot per action)."""
        return self.encoder.size + len(self.space)

    @property
    def info_size(self) -> int:
        return self.encoder.info_size + len(self.space)

    def start(self, seed: int) -> None:
        self.state = self.game.new_game(players=self.n, seed=seed)
        self.chosen = []
        self.log = RoundLog(self.space)
        self.log.sync(self.state)

    def copy(self) -> "Table":
        other = Table.__new__(Table)
        other.__dict__.update(self.__dict__)
        other.state = self.state.clone() if self.state is not None else None
        other.chosen, other.log = list(self.chosen), self.log.copy()
        return other

    def legal(self) -> list[int]:
        return self.space.legal(self.state, self.chosen)

    def act(self, action: int) -> bool:
        """Choose one action; True when it completed a move (which is then applied)."""
        if action not in self.legal():
            legal = ", ".join(self.space[i] for i in self.legal()[:10])
            raise rulekit.IllegalMoveError(self.label(action), self.state.legal_moves(),
                                           f"legal actions now include {legal}")
        move = self.space.decode(self.state, self.chosen + [action])
        if move is None:
            self.chosen.append(action)
            return False
        self.log.record(self.state, move)
        self.state.apply(move)
        self.log.sync(self.state)
        self.chosen = []
        return True

    def label(self, action) -> str:
        if isinstance(action, int) and 0 <= action < len(self.space):
            return self.space[action]
        return repr(action)

    def _chosen_for(self, seat: int, out) -> None:
        if self.chosen and seat == self.state.current_player:
            out[self.chosen] = 1

    def observation(self, seat: int):
        import numpy as np

        out = np.zeros(self.obs_size, dtype=np.float32)
        out[:self.encoder.size] = self.encoder.observation(self.state, seat)
        self._chosen_for(seat, out[self.encoder.size:])
        return out

    def information_state(self, seat: int):
        import numpy as np

        out = np.zeros(self.info_size, dtype=np.float32)
        out[:self.encoder.info_size] = self.encoder.information_state(self.state, seat, self.log)
        self._chosen_for(seat, out[self.encoder.info_size:])
        return out

    def information_text(self, seat: int) -> str:
        """A string that differs exactly where the information state does."""
        entries = []
        for mover, actions, public in self.log.entries:
            shown = ", ".join(self.space[a] for a in actions) if public or mover == seat else "hidden"
            entries.append(f"{mover}:{shown}")
        return self.observation_text(seat) + "\nround moves: " + "; ".join(entries)

    def observation_text(self, seat: int) -> str:
        text = render(self.state.view(seat), seat)
        if self.chosen and seat == self.state.current_player:
            text += "\nchosen so far: " + ", ".join(self.space[a] for a in self.chosen)
        return text


def render(view: dict, seat: int | None = None) -> str:
    """A view as a few lines of text: whose turn, scores, hands, bids, trick, trump, display."""
    lines = [f"{view['game']}, round {view['round']}, {view['phase']}"]
    if view["is_terminal"]:
        lines.append(f"game over; winners: {', '.join(map(str, view['winners']))}")
    else:
        lines.append(f"seat {view['current_player']} to move")
    lines.append("scores: " + " ".join(f"{s}:{v}" for s, v in enumerate(view["scores"])))
    for s, hand in enumerate(view["hands"]):
        shown = ", ".join(hand) if hand is not None else f"{view['hand_sizes'][s]} cards"
        lines.append(f"seat {s}{' (you)' if s == seat else ''}: {shown}")
    if any(b is not None for b in view.get("bids", [])):
        lines.append("bids: " + " ".join(f"{s}:{'?' if b is None else b}" for s, b in enumerate(view["bids"])))
    if view.get("trick"):
        lines.append("trick: " + ", ".join(f"{s}:{c}" for s, c in view["trick"]))
    if view.get("trump"):
        lines.append(f"trump: {view['trump']}")
    for cell in view.get("display") or []:
        lines.append(f"display {cell['row']},{cell['col']}: {cell['card']} (seat {cell['owner']})")
    return "\n".join(lines)
