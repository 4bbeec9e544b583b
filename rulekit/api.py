"""The public entry points: `load`, `loads`, `bundled` and the `Game` they return.

Pipeline place: text → parser → merge → checker → compiler → **api**. Loading runs the
whole pipeline once; a `Game` then starts any number of `State`s. Every problem in the
text comes out as one `RuleError`, never as another exception.
"""
from __future__ import annotations

import os
from pathlib import Path

from .compile.exprs import ExprCompiler, BASE_NAMES
from .compile.game import build_ruleset
from .dsl import analysis, nodes as n
from .dsl.checker import Checker
from .dsl.checker import MAX_PLAYERS
from .dsl.counts import depends_on_count, restrict, runs, specialise
from .dsl.merge import apply_items, sections
from .dsl.parser import MAX_TEXT, diagnostic_at, parse_all
from .engine.seeds import checked_seed
from .engine.state import State
from .errors import MAX_DIAGNOSTICS, Diagnostic, RuleError, shown

RULE_SUFFIX = ".rules"
MAX_EXTEND_DEPTH = 8


def _bundled_dir() -> Path:
    """The shipped rule files: `rulekit/rules` when installed, `rules/` in a checkout.
    (Not `importlib.resources`: importing it costs more than the rest of a first load's
    file handling, and a package on the file system has its files beside `__file__`.)"""
    here = Path(__file__).resolve().parent
    for folder in (here / "rules", here.parent / "rules"):
        if folder.is_dir():
            return folder
    from importlib import resources
    return Path(str(resources.files(__package__).joinpath("rules")))


def bundled() -> list[str]:
    """Names of the games shipped with rulekit, for `load`."""
    return sorted(p.name[: -len(RULE_SUFFIX)] for p in _bundled_dir().glob("*" + RULE_SUFFIX))


def load(name_or_path, variant=None, *, search_path=None) -> "Game":
    """Load a bundled game by name (see `bundled()`) or a rule file by path."""
    if not isinstance(name_or_path, (str, os.PathLike)):
        raise RuleError([Diagnostic(shown(name_or_path), 1, 1, "a game is loaded by its name or the path of its file",
                                    f"bundled games: {', '.join(bundled())}")])
    text, file, folder = _read(str(name_or_path), top=True)
    return loads(text, variant=variant, file=file, base_dir=folder, search_path=search_path,
                 name=Path(file).name.removesuffix(RULE_SUFFIX))


def loads(text: str, variant=None, *, file: str = "<rules>", base_dir=None, search_path=None,
          name: str | None = None) -> "Game":
    """Load a game from rule text. `variant` is a name or a list of names."""
    if not isinstance(text, str):
        raise RuleError([Diagnostic(file, 1, 1, "rule text must be a string")])
    loader = _Loader(search_path)
    try:
        base = loader.sections(text, file, Path(base_dir) if base_dir else None, ())
    except RecursionError:
        raise RuleError([Diagnostic(file, 1, 1, "the rules are nested too deeply")]) from None
    game = Game(base, loader, name or Path(file).name.removesuffix(RULE_SUFFIX))
    loader.raise_if_any()
    game.source = (text, file, None if base_dir is None else str(base_dir),   # for pickling
                   tuple(str(p) for p in search_path or ()), name)
    game.select(variant)
    return game


class _Loader:
    """Reads, parses and merges files (following `extend`), collecting diagnostics."""

    def __init__(self, search_path):
        self.texts: dict[str, str] = {}
        self.diagnostics: list[Diagnostic] = []
        self.omitted = 0                # problems beyond MAX_DIAGNOSTICS: counted only
        # After a syntax error the sections are what could be read: the checker then adds only
        # unknown names, and only when no part that declares names was damaged.
        self.syntax_errors, self.names_reliable = False, True
        self._seen: set[tuple] = set()
        self.search_path = [Path(p) for p in (search_path or [])]

    def report(self, node, message: str, hint: str | None = None) -> None:
        if self.syntax_errors and not (self.names_reliable and message.startswith("unknown ")):
            return
        span = getattr(node, "span", None)
        where = (span.file, span.line, span.column) if span is not None else None
        if (where, message, hint) in self._seen:
            return
        self._seen.add((where, message, hint))
        if len(self.diagnostics) >= MAX_DIAGNOSTICS:
            self.omitted += 1
            return
        if span is None:
            file = next(iter(self.texts), "<rules>")
            self.diagnostics.append(diagnostic_at(self.texts.get(file, ""), file, 1, 1, message, hint))
            return
        end = span.end_column if span.end_line == span.line else None
        self.diagnostics.append(diagnostic_at(self.texts.get(span.file, ""), span.file, span.line,
                                              span.column, message, hint, end))

    def _add(self, diagnostics) -> None:
        for diagnostic in diagnostics:
            if len(self.diagnostics) >= MAX_DIAGNOSTICS:
                self.omitted += 1
            else:
                self.diagnostics.append(diagnostic)

    def raise_if_any(self) -> None:
        if self.diagnostics:
            unique = list(dict.fromkeys(self.diagnostics))
            unique.sort(key=lambda d: (d.file, d.line, d.column))
            raise RuleError(unique, self.omitted)

    def sections(self, text: str, file: str, folder: Path | None, chain: tuple) -> dict:
        self.texts.setdefault(file, text)
        parsed = parse_all(text, file)
        if parsed.errors:
            self.syntax_errors = True
            self.names_reliable = self.names_reliable and parsed.names_reliable
            self._add(parsed.errors)
        if parsed.rules is None:
            return {}
        tree = parsed.rules
        extend = next((i for i in tree.items if isinstance(i, n.Extend)), None)
        base: dict = {}
        if extend is not None:
            base = self.extended(extend, folder, chain + (file,))
        return apply_items(base, tree.items, self.report, "this file")

    def extended(self, extend: n.Extend, folder: Path | None, chain: tuple) -> dict:
        if len(chain) > MAX_EXTEND_DEPTH:
            self.report(extend, "too many files extend one another", f"at most {MAX_EXTEND_DEPTH} levels")
            return {}
        try:
            text, file, sub = _read(extend.target, folder, self.search_path)
        except RuleError as error:
            self.report(extend, error.diagnostics[0].message, error.diagnostics[0].hint)
            return {}
        if file in chain:
            self.report(extend, f"`extend` makes a cycle: {' → '.join(chain + (file,))}")
            return {}
        self.texts.setdefault(file, text)
        sections_ = self.sections(text, file, sub, chain)
        sections_.pop("extend", None)
        return sections_


def _read(target: str, folder: Path | None = None, search_path=(), top: bool = False) -> tuple[str, str, Path]:
    """Find and read a rule file: a bundled name, or a path.

    `top` is the file the user asked `load` for: any path. A file named by `extend` is a
    bundled name, or a path inside the extending file's folder or a given search path;
    text given to `loads` without a folder may extend bundled games only.
    """
    if "\x00" in target:
        raise RuleError([Diagnostic("<extend>", 1, 1, "a rule file's name cannot contain a NUL character")])
    candidates = []
    bundled_name = None
    if "/" not in target and "\\" not in target and not target.endswith(RULE_SUFFIX):
        bundled_name = _bundled_dir() / (target + RULE_SUFFIX)
        candidates.append(bundled_name)
    roots = [folder] if folder is not None else []
    roots += list(search_path)
    path = Path(target)
    for root in roots:
        candidate = (root / path).resolve()
        if any(_inside(candidate, r) for r in roots):
            candidates.append(candidate)
    if top:
        candidates.append(path)
    for candidate in candidates:
        if _is_file(candidate):
            shown = candidate.name if candidate == bundled_name else str(candidate if folder else target)
            return _read_bounded(candidate), shown, candidate.parent
    hint = f"bundled games: {', '.join(bundled())}"
    if not top:
        hint = "`extend` reads bundled games and files in the same folder (or a search path given to load); " + hint
    raise RuleError([Diagnostic(target, 1, 1, f"no rule file {target!r}", hint)])


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):       # a name the system refuses (too long, NUL, ...)
        return False


def _read_bounded(path: Path) -> str:
    """The file's text, its size checked before a byte is read (at most 4 bytes a character)."""
    try:
        with path.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > 4 * MAX_TEXT:
                raise RuleError([Diagnostic(str(path), 1, 1, f"the rule file is too long ({size} bytes)",
                                            f"keep rule files under {MAX_TEXT} characters")])
            data = handle.read(4 * MAX_TEXT + 1)
        text = data.decode("utf-8")
    except (OSError, ValueError) as error:      # UnicodeDecodeError is a ValueError
        raise RuleError([Diagnostic(str(path), 1, 1, f"cannot read the rule file: {error}")]) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")     # as text mode reads it


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root.resolve())
        return True
    except ValueError:
        return False


class _Count:
    """Stands in for a state when a variant's `required when` is evaluated."""

    def __init__(self, players: int):
        self.n = players
        self.round = 1


def _supported(counts: range) -> range:
    """The player counts worth checking one by one: those past the supported range are
    refused by the checker (`at most 16 players`), not checked each (`players 3..1000000`
    would otherwise mean a million checks)."""
    if isinstance(counts, range):
        return range(counts.start, max(counts.start, min(counts.stop, MAX_PLAYERS + 1)))
    return [count for count in counts if count <= MAX_PLAYERS]


def _check(sections: dict, counts, report, memo: dict) -> None:
    """Check `sections` for these player counts: once for the whole range when nothing
    depends on the count, once per count when values do (`end after 60 / players rounds`)."""
    players = sections.get("players")
    counts = _supported(counts)
    if depends_on_count(sections):
        # Values read from `players` need a count. Without a usable range (no `players`
        # section, an empty one) the checker says so, and one stand-in count checks the rest.
        if players is not None:         # each count's check sees `players C..C`: the range is checked here
            Checker({"players": players}, report, memo).check_players()
        if list(counts):
            for count in counts:
                Checker(specialise(sections, count, report, memo), report, memo).run()
        else:
            stand_in = specialise(sections, players.low if players is not None else 2, report, memo)
            Checker({**stand_in, "players": players} if players is not None else stand_in, report, memo).run()
    elif players is None or list(_supported(counts)) == list(_supported(range(players.low, players.high + 1))):
        Checker(sections, report, memo).run()
    else:
        for low, high in runs(counts):
            Checker(restrict(sections, low, high, memo), report, memo).run()


class Game:
    """A loaded rule file: start games with `new_game`, set up positions with `restore`."""

    def __init__(self, base: dict, loader: _Loader, name: str):
        self.name = name
        self._loader = loader
        self._base = {k: v for k, v in base.items() if not k.startswith("variant ")}
        self._variants = {k[8:]: v for k, v in base.items() if k.startswith("variant ")}
        self._selected: tuple[str, ...] = ()
        self._compiled: dict[tuple, object] = {}
        self._by_count: dict[tuple, object] = {}      # (selected variants, players) -> `ruleset`'s answer
        self._merged: dict[tuple, dict] = {}      # variants chosen -> their merged sections
        self._required = {}
        self._only_for: dict[str, tuple] = {}   # variant -> the only counts it can be played with
        memo: dict = {}
        players = self._base.get("players")
        self.players = range(players.low, players.high + 1) if players else range(0)
        _check(self._base, self.players, loader.report, memo)
        for vname, node in self._variants.items():
            merged = apply_items(self._base, node.items, loader.report, f"variant `{vname}`")
            if node.required is None:
                _check(merged, self.players, loader.report, memo)
            else:
                self._check_required(vname, node, merged, memo)
            analysis.variant_changes_nothing(vname, node, self._base, merged, loader.report, memo)
        title = self._base.get("game")
        self.title = title.title if title else name

    def _check_required(self, vname: str, node, merged: dict, memo: dict) -> None:
        """A variant `required when C` is checked for the counts where C holds; for the
        others it is checked quietly, and if it does not check there it may not be chosen there."""
        report = self._loader.report
        names = {k: BASE_NAMES[k] for k in ("players",)}
        compiler = ExprCompiler(names, {}, report)
        fn = compiler.compile(node.required, "bool", per_seat_ok=False).fn
        if compiler.problems:
            _check(merged, self.players, report, memo)
            return
        self._required[vname] = fn
        required = [count for count in _supported(self.players) if fn(_Count(count), None)]
        if not required and self.players:
            report(node.required, f"no allowed player count ({self.players[0]}..{self.players[-1]}) meets "
                                  f"this condition, so variant `{vname}` is never required",
                   "check the condition, or leave out `required when`")
        _check(merged, required, report, memo)
        others = [count for count in _supported(self.players) if count not in required]
        found: list = []
        _check(merged, others, lambda *problem: found.append(problem), {})
        if found:
            self._only_for[vname] = tuple(required)

    @property
    def variants(self) -> dict[str, str]:
        """Variant names and titles the rule file declares."""
        return {k: (v.title or k) for k, v in self._variants.items()}

    @property
    def selected(self) -> tuple[str, ...]:
        return self._selected

    def select(self, variant) -> None:
        chosen = () if variant is None else ((variant,) if isinstance(variant, str) else tuple(variant))
        for name in chosen:
            if name not in self._variants:
                known = ", ".join(self._variants) or "none"
                raise RuleError([Diagnostic(self.name, 1, 1, f"{self.title} has no variant {name!r}",
                                            f"variants: {known}")])
        self._selected = chosen

    def ruleset(self, players: int):
        """The compiled rules in force for a number of players (required variants included)."""
        found = self._by_count.get((self._selected, players))
        if found is not None:       # asked before (each new game asks): the same answer
            return found
        active = list(self._selected)
        for name, required in self._required.items():
            if name not in active and required(_Count(players), None):
                active.append(name)
        for name in active:
            only = self._only_for.get(name)
            if only is not None and players not in only:
                counts = ", ".join(map(str, only)) or "no count"
                raise RuleError([Diagnostic(self.name, 1, 1, f"variant {name!r} can only be played with "
                                                             f"{counts} players, not {players}",
                                            "its rules are checked only for the player counts it is required for")])
        key = tuple(sorted(active))
        merged = self._merged.get(key)
        if merged is None:
            merged = self._base
            for name in key:
                merged = apply_items(merged, self._variants[name].items, self._loader.report, name)
            self._merged[key] = merged
        by_count = depends_on_count(merged)
        if by_count:
            key = key + (players,)
        if key not in self._compiled:
            rules = build_ruleset(specialise(merged, players, self._loader.report) if by_count else merged,
                                  self.title)
            rules.variants = [k for k in key if isinstance(k, str)]
            rules.game = self
            self._compiled[key] = rules
        found = self._by_count[(self._selected, players)] = self._compiled[key]
        return found

    def actions(self, players: int | None = None):
        """The fixed, numbered action space for a player count (`rulekit.engine.actions`)."""
        from .engine.actions import space_for
        players = self.checked_players(players)
        return space_for(self.ruleset(players), players)

    def checked_players(self, players: int | None = None) -> int:
        """`players` when the game allows that count, else ValueError; None gives the default
        count: 4 when the game allows it, else the fewest."""
        if players is None:
            return 4 if 4 in self.players else self.players[0]
        if players not in self.players:
            raise ValueError(f"{self.title} is for {self.players[0]}..{self.players[-1]} players, not {shown(players)}")
        return players

    def new_game(self, players: int | None = None, seed: int | None = None) -> State:
        """A new game, dealt and ready for the first decision. Same seed, same game.

        `seed` is any int; without one a fresh 64-bit seed is drawn from the system's
        generator (`state.seed` shows it). Another type raises TypeError."""
        players = self.checked_players(players)
        seed = checked_seed(seed)           # TypeError at once for a str, float or bool
        return State(self.ruleset(players), players, seed).start()

    def restore(self, view: dict) -> State:
        """A state from a full-truth view (`state.view()`): save and load, or set up a position.
        Raises ViewError for a view that is no state of this game (`compile/restore_check.py`)."""
        from .compile.restore_check import players_of
        players = players_of(view, self.players)        # ViewError for anything but a view
        return self.ruleset(players).restore(view)

    def __reduce__(self):
        """A game pickles as its rule text, file name and variants (`rulekit/pickling.py`)."""
        from .pickling import reduce_game
        return reduce_game(self)

    def __repr__(self) -> str:
        return f"<Game {self.title!r} players {self.players.start}..{self.players.stop - 1}>"
