"""Replay files: one game written down (rules, seed, moves) so that it can be played again.

Pipeline place: api → **replay** → cli (`rulekit replay`, `rulekit play --save`), testing
(`check_rules` failures, `rulekit.testing.replay`). A replay is a small JSON object:

    {"format": "rulekit-replay", "version": 1,
     "game": "rules/house.rules", "variants": ["short"], "players": 4, "seed": 7,
     "moves": ["bid 3", "bid 2", ...],
     "note": "why it was saved (optional)",
     "failure": {"kind": "invariant", "invariant": "cards_conserved", "message": "..."}}

`game` is what `rulekit.load` takes: a bundled name or the path of a rule file (a relative
path is looked up from the working folder, then from the replay file's folder). The same
rules, seed and moves always give the same game, so the moves are all a replay needs.
Reading is strict: a file that is not such an object, or whose fields have the wrong
types, raises `ReplayError` (never a `KeyError` or a JSON error), and nothing is loaded.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import attrs

from .errors import IllegalMoveError, RuleError, RulekitError

FORMAT = "rulekit-replay"
#: The version this rulekit writes; it reads every version up to this one.
VERSION = 1
#: A replay file larger than this is refused before it is read.
MAX_BYTES = 64 * 1024 * 1024
#: Failure kinds: an invariant broken, a game that hit the engine's round cap, the engine raising.
KINDS = ("invariant", "never ends", "engine error")

_KEYS = {"format", "version", "game", "variants", "players", "seed", "moves", "note", "failure",
         "rulekit"}


class ReplayError(RulekitError):
    """A replay file that cannot be read, or whose moves do not replay."""


@attrs.frozen
class ReplayFailure:
    """What a saved failing game broke: its `kind` (see `KINDS`), the invariant and the message."""
    kind: str
    invariant: str | None = None
    message: str = ""

    def to_json(self) -> dict:
        return {"kind": self.kind, "invariant": self.invariant, "message": self.message}


@attrs.frozen
class Replay:
    """One game: the rules it was played under, its seed and every move, in order."""
    game: str
    players: int
    seed: int
    moves: tuple[str, ...] = attrs.field(converter=tuple, default=())
    variants: tuple[str, ...] = attrs.field(converter=tuple, default=())
    note: str | None = None
    failure: ReplayFailure | None = None
    #: The folder a relative `game` path may also be found in (the replay file's own).
    base_dir: str | None = attrs.field(default=None, eq=False, repr=False)

    # ---- building ------------------------------------------------------------------------

    @classmethod
    def of(cls, state, game: str, *, note: str | None = None, failure: ReplayFailure | None = None,
           variants=None) -> "Replay":
        """The replay of `state` so far; `game` is the name or path the game was loaded from.

        `variants` defaults to those in force in the state's rules.
        """
        chosen = getattr(state.rules, "variants", ()) if variants is None else variants
        return cls(game=str(game), players=state.n, seed=state.seed, moves=state.history,
                   variants=tuple(chosen or ()), note=note, failure=failure)

    # ---- playing back --------------------------------------------------------------------

    def load_game(self):
        """The `Game` the replay was played under (`ReplayError` if it cannot be loaded)."""
        from .api import load
        target = self._game_path()
        try:
            return load(target, variant=list(self.variants) or None)
        except RuleError as error:
            raise ReplayError(f"the replay's game {self.game!r} cannot be loaded:\n{error}") from None

    def _game_path(self) -> str:
        path = Path(self.game)
        if path.suffix == ".rules" and not path.is_absolute() and not path.exists() and self.base_dir:
            beside = Path(self.base_dir) / path
            if beside.exists():
                return str(beside)
        return self.game

    def new_game(self, game=None):
        """A new state of the replay's game, before any move."""
        game = self.load_game() if game is None else game
        try:
            return game.new_game(players=self.players, seed=self.seed)
        except (ValueError, TypeError) as error:
            raise ReplayError(f"the replay's game cannot start: {error}") from None

    def steps(self, game=None) -> Iterator[tuple[int, str, object]]:
        """`(number, move, state)` after each move, numbered from 1; the same state object,
        mutated. Raises `ReplayError` at a move that is not legal."""
        state = self.new_game(game)
        for number, move in enumerate(self.moves, 1):
            _apply(state, number, move, len(self.moves))
            yield number, move, state

    def play(self, game=None, upto: int | None = None):
        """The state after the first `upto` moves (default: all of them)."""
        state = self.new_game(game)
        for number, move in enumerate(self.moves[:upto], 1):
            _apply(state, number, move, len(self.moves))
        return state

    # ---- text ----------------------------------------------------------------------------

    def to_json(self) -> dict:
        from . import __version__
        data = {"format": FORMAT, "version": VERSION, "rulekit": __version__, "game": self.game,
                "variants": list(self.variants), "players": self.players, "seed": self.seed,
                "moves": list(self.moves)}
        if self.note is not None:
            data["note"] = self.note
        if self.failure is not None:
            data["failure"] = self.failure.to_json()
        return data

    def dumps(self) -> str:
        """The replay as JSON text: one field a line, one move a line, so that files diff well."""
        data = self.to_json()
        moves = data.pop("moves")
        lines = [f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}," for key, value in data.items()]
        body = ",\n".join("  " + json.dumps(m, ensure_ascii=False) for m in moves)
        return "{\n" + "\n".join(lines) + '\n "moves": [' + ("\n" + body + "\n " if moves else "") + "]\n}\n"

    def write(self, path) -> None:
        """Write the replay to the file `path` (UTF-8 JSON)."""
        Path(path).write_text(self.dumps(), encoding="utf-8")

    def __str__(self) -> str:
        variants = f", variants {', '.join(self.variants)}" if self.variants else ""
        return (f"{self.game}{variants}, {self.players} players, seed {self.seed}, "
                f"{len(self.moves)} move{'s' if len(self.moves) != 1 else ''}")


def _apply(state, number: int, move: str, total: int) -> None:
    try:
        state.apply(move)
    except IllegalMoveError as error:
        raise ReplayError(f"move {number} of {total}, {move!r}, does not replay: {error}") from None


# ---- reading -----------------------------------------------------------------------------

def read(path) -> Replay:
    """The replay in the file `path`; `ReplayError` for anything that is not a valid replay."""
    file = Path(path)
    try:
        size = file.stat().st_size
        if size > MAX_BYTES:
            raise ReplayError(f"{path}: a replay file is at most {MAX_BYTES} bytes, this one has {size}")
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ReplayError(f"cannot read the replay file {str(path)!r}: {error}") from None
    return loads(text, source=str(path), base_dir=str(file.resolve().parent))


def loads(text: str, *, source: str = "<replay>", base_dir: str | None = None) -> Replay:
    """The replay in JSON `text` (see the module docstring); `ReplayError` if it is not one."""
    if not isinstance(text, (str, bytes)):
        raise ReplayError(f"{source}: a replay is JSON text, not {type(text).__name__}")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise ReplayError(f"{source}: not JSON: {error}") from None
    return from_json(data, source=source, base_dir=base_dir)


def from_json(data, *, source: str = "<replay>", base_dir: str | None = None) -> Replay:
    """A `Replay` from decoded JSON, every field checked."""
    def bad(message: str):
        raise ReplayError(f"{source}: {message}")

    if not isinstance(data, dict):
        bad(f"a replay is a JSON object, not {type(data).__name__}")
    if data.get("format") != FORMAT:
        bad(f'not a rulekit replay (it needs "format": "{FORMAT}")')
    version = data.get("version")
    if not _is_int(version) or version < 1:
        bad('"version" must be a positive integer')
    if version > VERSION:
        bad(f"replay version {version} is newer than this rulekit reads (up to {VERSION}): upgrade rulekit")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        bad(f"unknown field {unknown[0]!r}; fields: {', '.join(sorted(_KEYS))}")
    game = data.get("game")
    if not isinstance(game, str) or not game.strip() or "\x00" in game:
        bad('"game" must be a bundled game name or the path of a rule file')
    for key in ("players", "seed"):
        if not _is_int(data.get(key)):
            bad(f'"{key}" must be an integer, not {_shown(data.get(key))}')
    if data["players"] < 1:
        bad('"players" must be at least 1')
    variants = _strings(data.get("variants", []), '"variants"', bad)
    moves = _strings(data.get("moves"), '"moves"', bad)
    note = data.get("note")
    if note is not None and not isinstance(note, str):
        bad('"note" must be a string')
    return Replay(game=game, players=data["players"], seed=data["seed"], moves=moves, variants=variants,
                  note=note, failure=_failure(data.get("failure"), bad), base_dir=base_dir)


def _failure(data, bad) -> ReplayFailure | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        bad('"failure" must be an object with "kind", "invariant" and "message"')
    kind, invariant, message = data.get("kind"), data.get("invariant"), data.get("message", "")
    if kind not in KINDS:
        bad(f'"failure" "kind" must be one of: {", ".join(KINDS)}')
    if invariant is not None and not isinstance(invariant, str):
        bad('"failure" "invariant" must be a string or null')
    if not isinstance(message, str):
        bad('"failure" "message" must be a string')
    return ReplayFailure(kind, invariant, message)


def _strings(value, name: str, bad) -> tuple[str, ...]:
    if not isinstance(value, list):
        bad(f"{name} must be a list of strings, not {_shown(value)}")
    for index, item in enumerate(value):
        if not isinstance(item, str):
            bad(f"{name}[{index}] must be a string, not {_shown(item)}")
    return tuple(value)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value) -> str:
    text = json.dumps(value) if not isinstance(value, (dict, list)) else type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def write(replay: Replay, path) -> None:
    """Write `replay` to the file `path`."""
    replay.write(path)
