"""What `check_rules` found: a `Report` of the games played and each `Failure` with its replay.

Pipeline place: testing (runner) → **report** → the user, `rulekit check`. A failure's moves
are move texts: pasted after `game.new_game(players, seed)` into `state.apply`, they give
the failing state again.
"""
from __future__ import annotations

import attrs

#: Moves shown in full in a replay; longer replays show their start and end.
SHOWN_MOVES = 60


@attrs.define
class Failure:
    """An invariant that failed in one game, with the shortest move list found that fails it."""
    invariant: str
    message: str
    players: int
    seed: int
    moves: list[str]
    game: str = ""
    variants: tuple[str, ...] = ()

    def replay(self, limit: int | None = None) -> str:
        """Python that sets up the failing state: the game, the seed and the moves."""
        import rulekit
        if self.game in rulekit.bundled():
            variant = f", variant={list(self.variants)!r}" if self.variants else ""
            lines = ["import rulekit", f"game = rulekit.load({self.game!r}{variant})"]
        else:
            lines = [f"# game: the Game that was checked ({self.game})"]
        lines.append(f"state = game.new_game(players={self.players}, seed={self.seed})")
        if self.moves:
            lines.append("for move in [")
            lines += [f"    {m!r}," for m in _elide(self.moves, limit)]
            lines += ["]:", "    state.apply(move)"]
        return "\n".join(lines)

    def __str__(self) -> str:
        count = len(self.moves)
        head = (f"{self.invariant} fails with {self.players} players, seed {self.seed}, "
                f"after {count} move{'s' if count != 1 else ''}:\n  {self.message}")
        return head + "\nreplay:\n" + _indent(self.replay(SHOWN_MOVES))


def _elide(moves: list[str], limit: int | None) -> list[str]:
    if limit is None or len(moves) <= limit:
        return list(moves)
    half = limit // 2
    hidden = len(moves) - 2 * half
    return moves[:half] + [f"... {hidden} more moves: see Failure.moves ..."] + moves[-half:]


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


@attrs.define
class Report:
    """Games played by `check_rules` and what failed; `ok` when nothing did."""
    game: str
    players: list[int]
    games: int = 0
    decisions: int = 0
    shortest: int | None = None
    longest: int | None = None
    failures: list[Failure] = attrs.field(factory=list)
    variants: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.failures

    def add_game(self, decisions: int, finished: bool) -> None:
        self.games += 1
        self.decisions += decisions
        if finished:
            self.shortest = decisions if self.shortest is None else min(self.shortest, decisions)
            self.longest = decisions if self.longest is None else max(self.longest, decisions)

    def __str__(self) -> str:
        counts = ", ".join(map(str, self.players))
        name = self.game + (f" ({', '.join(self.variants)})" if self.variants else "")
        lines = [f"{name}: {self.games} games for {counts} players, {self.decisions} decisions"]
        if self.shortest is not None:
            lines.append(f"game length: {self.shortest}..{self.longest} decisions")
        if self.ok:
            lines.append("every invariant holds")
        else:
            lines.append(f"{len(self.failures)} failure{'s' if len(self.failures) != 1 else ''}:")
            lines += [str(f) for f in self.failures]
        return "\n".join(lines)
