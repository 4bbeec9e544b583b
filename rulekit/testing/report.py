"""What `check_rules` found: a `Report` of the games played and each `Failure` with its replay.

Pipeline place: testing (runner) → **report** → the user, `rulekit check`, replay files. A
failure's moves are move texts: applied after `game.new_game(players, seed)`, they give the
failing state again; `Failure.to_replay()` writes them down as a replay file
(`rulekit.replay`). Both print as a few readable lines (long move lists elided in the
middle), and their `repr` is that text, so `assert report.ok, report` shows it in pytest.
"""
from __future__ import annotations

import attrs

from .stats import Stats

#: Moves shown in full in a replay; longer replays show their start and end.
SHOWN_MOVES = 60
#: Moves shown on one line in a failure's short form; longer lists show their start and end.
SHOWN_INLINE = 16


@attrs.define(repr=False)
class Failure:
    """An invariant that failed in one game, with the shortest move list found that fails it.

    `kind` is `"invariant"`, `"never ends"` (the game hit a round cap) or `"engine error"`;
    `source` is what `rulekit.load` takes to load the game again (a bundled name or a path).
    """
    invariant: str
    message: str
    players: int
    seed: int
    moves: list[str]
    game: str = ""
    variants: tuple[str, ...] = ()
    kind: str = "invariant"
    source: str | None = None
    #: Moves of the game as first found, before shrinking.
    found_moves: int | None = None

    @property
    def loadable(self) -> str | None:
        """The name or path to load the game with, when known."""
        if self.source:
            return self.source
        import rulekit
        return self.game if self.game in rulekit.bundled() else None

    def replay(self, limit: int | None = None) -> str:
        """Python that sets up the failing state: the game, the seed and the moves."""
        target = self.loadable
        if target is not None:
            variant = f", variant={list(self.variants)!r}" if self.variants else ""
            lines = ["import rulekit", f"game = rulekit.load({target!r}{variant})"]
        else:
            lines = [f"# game: the Game that was checked ({self.game})"]
        lines.append(f"state = game.new_game(players={self.players}, seed={self.seed})")
        if self.moves:
            lines.append("for move in [")
            lines += [f"    {m!r}," for m in _elide(self.moves, limit)]
            lines += ["]:", "    state.apply(move)"]
        return "\n".join(lines)

    def to_replay(self, source: str | None = None):
        """The failure as a `rulekit.replay.Replay` (write it with `.write(path)`)."""
        from ..replay import Replay, ReplayFailure
        target = source or self.loadable or self.game
        return Replay(game=target, players=self.players, seed=self.seed, moves=tuple(self.moves),
                      variants=self.variants, note=f"{self.kind}: {self.invariant} fails",
                      failure=ReplayFailure(self.kind, self.invariant, self.message))

    def write(self, path, source: str | None = None) -> None:
        """Write the failure as a replay file for `rulekit replay` and `rulekit.testing.replay`."""
        self.to_replay(source).write(path)

    def headline(self) -> str:
        count = len(self.moves)
        what = "never ends" if self.kind == "never ends" else f"{self.invariant} fails"
        if self.kind == "engine error":
            what = "the engine raises"
        variants = f" ({', '.join(self.variants)})" if self.variants else ""
        shrunk = ""
        if self.found_moves is not None and self.found_moves > count:
            shrunk = f" (shrunk from {self.found_moves})"
        return (f"{what}: {self.game}{variants} with {self.players} players, seed {self.seed}, "
                f"after {count} move{'s' if count != 1 else ''}{shrunk}")

    def short(self) -> str:
        """A few lines: what failed, where, and the moves (elided past `SHOWN_INLINE`)."""
        lines = [self.headline(), f"  {self.message}"]
        if self.kind == "never ends" and self.invariant != "ends_within_bound":
            lines[1] = f"  {self.invariant}: {self.message}"
        lines.append("  moves: " + (", ".join(_elide_inline(self.moves)) or "(none)"))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.short() + "\nreplay:\n" + _indent(self.replay(SHOWN_MOVES))

    __repr__ = __str__


def _elide(moves: list[str], limit: int | None) -> list[str]:
    if limit is None or len(moves) <= limit:
        return list(moves)
    half = limit // 2
    hidden = len(moves) - 2 * half
    return moves[:half] + [f"... {hidden} more moves: see Failure.moves ..."] + moves[-half:]


def _elide_inline(moves: list[str], limit: int = SHOWN_INLINE) -> list[str]:
    if len(moves) <= limit:
        return list(moves)
    half = limit // 2
    return list(moves[:half]) + [f"... {len(moves) - 2 * half} more ..."] + list(moves[-half:])


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


@attrs.define(repr=False)
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
    #: Invariant checks run (one invariant on one state counts one).
    invariants_checked: int = 0
    seconds: float = 0.0
    #: Balance figures of the games that finished cleanly (see `rulekit.testing.stats`).
    stats: Stats = attrs.field(factory=Stats)

    @property
    def ok(self) -> bool:
        return not self.failures

    def add_game(self, decisions: int, finished: bool, *, players: int | None = None, rounds=(),
                 winners=()) -> None:
        self.games += 1
        self.decisions += decisions
        if finished:
            self.shortest = decisions if self.shortest is None else min(self.shortest, decisions)
            self.longest = decisions if self.longest is None else max(self.longest, decisions)
            if players is not None:
                self.stats.add(players, decisions, list(rounds), list(winners))

    def __str__(self) -> str:
        counts = ", ".join(map(str, self.players))
        name = self.game + (f" ({', '.join(self.variants)})" if self.variants else "")
        lines = [f"{name}: {self.games} games for {counts} players, {self.decisions} decisions, "
                 f"{self.invariants_checked} invariant checks"]
        if self.shortest is not None:
            lines.append(f"game length: {self.shortest}..{self.longest} decisions")
        if self.ok:
            lines.append("every invariant holds")
        else:
            lines.append(f"{len(self.failures)} failure{'s' if len(self.failures) != 1 else ''}:")
            lines += [str(f) for f in self.failures]
        return "\n".join(lines)

    __repr__ = __str__
