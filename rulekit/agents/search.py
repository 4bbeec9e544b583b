"""Search agents: flat Monte Carlo and single-observer information-set MCTS.

Pipeline place: api → **agents**. Both search in *determinizations*: full states the seat
cannot tell apart from the real one (`handle.determinize()`, uniform over what the seat
has seen), so neither ever looks at a hidden card. A play-out runs to the end of the round
that changes the scores (or of the game, for games that score at the end) and rewards each
seat by its share of the win or by how its score grew against the others' (`base.reward`).

ISMCTS (Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search", IEEE
TCIAIG 2012): one tree over the observer's information set; each iteration samples a
determinization, walks down the tree among the moves legal in that sample (UCB1, counting
for each node how often it was available), adds one node, plays out at random and backs the
result up, each node scored for the seat that moved into it.
"""
from __future__ import annotations

import math
import random
import time

from .base import rollout, to_the_end


def _one_move(handle):
    moves = handle.legal_moves()
    if not moves:
        raise ValueError(f"seat {handle.seat} is not to move")
    return moves


def _in(state, text: str):
    for move in state.legal_moves():
        if move.text == text:
            return move
    raise AssertionError(f"{text!r} is not legal in a determinization")   # a bug in determinize


class FlatMonteCarloAgent:
    """For each legal move, `samples` determinizations played out at random after it; the
    move with the best mean reward wins. Deterministic for a seed."""

    def __init__(self, samples: int = 16, seed=None):
        if not isinstance(samples, int) or samples < 1:
            raise ValueError("samples must be a positive int")
        self.name = f"flatmc:{samples}"
        self.samples = samples
        self.rng = random.Random(seed)

    def choose(self, handle):
        moves = _one_move(handle)
        if len(moves) == 1:
            return moves[0]
        seat, rng = handle.seat, self.rng
        totals = [0.0] * len(moves)
        for _ in range(self.samples):
            for index, move in enumerate(moves):
                world = handle.determinize(rng)
                before, start = list(world.scores), world.round
                world.apply(_in(world, move.text))
                totals[index] += rollout(world, rng, before, start)[seat]
        best = max(range(len(moves)), key=lambda i: (totals[i], -i))
        return moves[best]


class _Node:
    __slots__ = ("mover", "children", "visits", "total", "avail")

    def __init__(self, mover):
        self.mover = mover
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1


class ISMCTSAgent:
    """Information-set MCTS for one observer. Budget: `iterations` a decision, or `seconds`
    (then results depend on the machine's speed). Deterministic for a seed with an
    iteration budget."""

    def __init__(self, iterations: int | None = 200, seconds: float | None = None, seed=None,
                 exploration: float = 0.7):
        if seconds is not None:
            if not seconds > 0:
                raise ValueError("seconds must be positive")
            iterations = None
        elif not isinstance(iterations, int) or iterations < 1:
            raise ValueError("iterations must be a positive int")
        self.iterations, self.seconds, self.exploration = iterations, seconds, exploration
        self.name = f"ismcts:{seconds}s" if seconds is not None else f"ismcts:{iterations}"
        self.rng = random.Random(seed)
        self.last_tree: _Node | None = None

    def choose(self, handle):
        moves = _one_move(handle)
        if len(moves) == 1:
            return moves[0]
        root = _Node(None)
        rng = self.rng
        if self.seconds is not None:
            deadline = time.perf_counter() + self.seconds
            while True:
                self._iterate(handle, root, rng)
                if time.perf_counter() >= deadline:
                    break
        else:
            for _ in range(self.iterations):
                self._iterate(handle, root, rng)
        self.last_tree = root
        best = max(moves, key=lambda m: (root.children[m.text].visits if m.text in root.children else -1,
                                         -moves.index(m)))
        return best

    def _iterate(self, handle, root: _Node, rng: random.Random) -> None:
        world = handle.determinize(rng)
        before = list(world.scores)
        start_round = world.round
        whole_game = to_the_end(world)
        node, path = root, []
        c = self.exploration
        while not world.is_terminal and (whole_game or world.round == start_round):
            legal = world.legal_moves()
            children = node.children
            untried = []
            best, best_value = None, -1.0
            for move in legal:
                child = children.get(move.text)
                if child is None:
                    untried.append(move)
                    continue
                child.avail += 1
                if not untried:
                    value = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                    if value > best_value:
                        best, best_value = (move, child), value
            if untried:
                move = untried[rng.randrange(len(untried))]
                child = children[move.text] = _Node(world.current_player)
                path.append(child)
                world.apply(move)
                break
            move, child = best
            child.mover = world.current_player
            path.append(child)
            world.apply(move)
            node = child
        rewards = rollout(world, rng, before, start_round, whole_game)
        for child in path:
            child.visits += 1
            child.total += rewards[child.mover]
