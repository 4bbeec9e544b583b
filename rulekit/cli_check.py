"""`rulekit check PATH...`: load rule files and every variant, then play random games under
every invariant, within a budget, and say what failed in a few lines that replay.

Pipeline place: api, testing → **cli** (registered on the `rulekit` click group by
`rulekit.cli`). A PATH is a rule file, a folder (its `*.rules` files) or a bundled name.
Random play needs nothing beyond rulekit (no Hypothesis). By default each file gets a budget
(`--budget 10s`) shared in turn by its variants and player counts; `--games N` plays exactly
N games of each instead, and `--thorough` is the long run. `--invariants FILE.py` adds the
functions marked `@invariant` in that file: it is the user's own Python, and it runs.
"""
from __future__ import annotations

import re
import time
from contextlib import contextmanager
from pathlib import Path

import click
from rich import box
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from . import cli
from .api import RULE_SUFFIX
from .errors import RuleError

#: The budget of each file when neither `--games` nor `--thorough` is given.
DEFAULT_BUDGET = "10s"
#: Games per variant and player count under `--thorough`.
THOROUGH_GAMES = 200
_BUDGET = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|sec|m|min|d|decisions)?\s*$", re.I)


def parse_budget(text: str) -> tuple[float | None, int | None]:
    """(seconds, decisions) from `20s`, `1.5m`, `50000` or `50000d`."""
    found = _BUDGET.match(text or "")
    if not found:
        raise click.BadParameter(f"{text!r}: give seconds (20s, 1.5m) or decisions (50000)", param_hint="--budget")
    value, unit = float(found[1]), (found[2] or "d").lower()
    if value <= 0:
        raise click.BadParameter("the budget must be more than 0", param_hint="--budget")
    if unit in ("s", "sec"):
        return value, None
    if unit in ("m", "min"):
        return value * 60, None
    return None, int(value)


@cli.main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--budget", "-b", default=DEFAULT_BUDGET, show_default=True,
              help="Random play per file: seconds (20s, 1.5m) or decisions (50000).")
@click.option("--games", "-n", type=click.IntRange(min=0), default=None,
              help="Play exactly N games per variant and player count instead (0: only load).")
@click.option("--thorough", is_flag=True,
              help=f"The long run: {THOROUGH_GAMES} games per variant and player count, every invariant "
                   "on every move for every seat, no budget.")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Seed of the first game.")
@click.option("--players", "-p", type=int, default=None, help="Only this player count (default: every one).")
@click.option("--variant", "-v", "variants", multiple=True,
              help="Only this variant (repeatable; default: the base game and every variant).")
@click.option("--invariants", "invariant_files", multiple=True, type=click.Path(dir_okay=False),
              help="A Python file of your own @invariant functions (repeatable; it is run as your code).")
@click.option("--replay-out", type=click.Path(dir_okay=False), default=None,
              help="Write each failure as a replay file (FILE, then FILE-2, ...) for `rulekit replay`.")
@click.option("--stats", is_flag=True, help="Balance figures: game length, wins per seat, bids made, lead changes.")
@click.option("--cluster", default=None, metavar="local:N|tcp://HOST:PORT",
              help="Play the games on a Dask cluster (needs --games N or --thorough, and the `dask` extra); "
                   "local:N starts N worker processes here, tcp://HOST:PORT uses a running scheduler.")
@click.option("--max-rounds", type=click.IntRange(min=1), default=None,
              help="Rounds a game without a bound of its own may last before it counts as never ending "
                   "(default 1000).")
def check(paths, budget, games, thorough, seed, players, variants, invariant_files, replay_out, stats, cluster,
          max_rounds):
    """Check rule files: load each (and every variant), then play random games under every invariant.

    PATHS are rule files, folders of them, or bundled names. Exits 0 only when every file
    loads and no random game breaks an invariant.
    """
    console = cli._console()
    seconds, decisions = parse_budget(budget)
    extra = _load_invariants(invariant_files)
    files = _expand(paths)
    if not files:
        cli._stop(f"no rule files in {', '.join(paths)}", cli.EXIT_PROBLEMS)
    plan = _Plan(games=games, seconds=seconds, decisions=decisions, thorough=thorough, seed=seed,
                 players=players, variants=variants, invariants=extra, stats=stats,
                 replays=_ReplayNames(replay_out), max_rounds=max_rounds)
    started = time.perf_counter()
    with _cluster(cluster, plan):
        bad = [file for file in files if not _check_file(console, file, plan)]
    took = f" in {time.perf_counter() - started:.1f} s"
    if bad:
        console.print(Text(f"{len(bad)} of {len(files)} file(s) have problems: {', '.join(bad)}{took}", style="red"))
        raise click.exceptions.Exit(cli.EXIT_PROBLEMS)
    console.print(Text(f"{len(files)} file(s) clean{took}", style="green"))


@contextmanager
def _cluster(spec, plan):
    """With `--cluster`, a Dask client in `plan.client` for the whole run (`rulekit.cluster`)."""
    if spec is None:
        yield
        return
    from .cluster import ClusterError, client_for, parse
    try:
        parse(spec)
        if plan.games is None:
            raise ClusterError("a run on a cluster plays a fixed number of games: give --games N (or --thorough)")
    except ClusterError as error:
        raise click.BadParameter(str(error), param_hint="--cluster") from None
    try:
        with client_for(spec) as plan.client:
            yield
    except ClusterError as error:
        cli._stop(str(error))


class _Plan:
    """The options of one `check` run."""

    def __init__(self, *, games, seconds, decisions, thorough, seed, players, variants, invariants, stats,
                 replays, max_rounds=None):
        self.max_rounds = max_rounds
        self.games, self.seconds, self.decisions, self.thorough = games, seconds, decisions, thorough
        if thorough:
            self.games, self.seconds, self.decisions = games or THOROUGH_GAMES, None, None
        elif games is not None:
            self.seconds = self.decisions = None
        self.seed, self.players, self.variants = seed, players, tuple(variants)
        self.invariants, self.stats, self.replays = invariants, stats, replays
        self.client = None      # a Dask client with `--cluster`


class _ReplayNames:
    """FILE, FILE-2.json, FILE-3.json, ... for the failures of one run."""

    def __init__(self, first: str | None):
        self.first, self.count = first, 0

    def next(self) -> str | None:
        if self.first is None:
            return None
        self.count += 1
        if self.count == 1:
            return self.first
        path = Path(self.first)
        return str(path.with_name(f"{path.stem}-{self.count}{path.suffix or '.json'}"))


def _load_invariants(files) -> list:
    from .testing.custom import InvariantFileError, load_invariants
    found = []
    for file in files:
        try:
            found += load_invariants(file)
        except InvariantFileError as error:
            cli._stop(str(error))
    return found


def _expand(paths) -> list[str]:
    """Rule files: each path, or the `*.rules` files of a folder, in order, each once."""
    files: list[str] = []
    for path in paths:
        folder = Path(path)
        if folder.is_dir():
            found = sorted(str(p) for p in folder.glob("*" + RULE_SUFFIX) if p.is_file())
            files += found
            if not found:
                cli._console().print(Text(f"{path}: no {RULE_SUFFIX} files in this folder", style="red"))
                files.append(path)          # reported as a problem below
        else:
            files.append(path)
    return list(dict.fromkeys(files))


def _check_file(console, file: str, plan: _Plan) -> bool:
    if Path(file).is_dir():
        return False
    loaded = _load_all(console, file, plan.variants)
    if loaded is None:
        return False
    ok = all([_starts(console, file, variant, game) for variant, game in loaded])
    if not ok or plan.games == 0:
        return ok
    games = [game for _, game in loaded if plan.players is None or plan.players in game.players]
    if not games:
        title = loaded[0][1].title
        console.print(Text(f"{file}: random play skipped: {title} is for "
                           f"{cli._players_text(loaded[0][1].players)} players, not {plan.players}",
                           style="yellow"))
        return True
    reports = _random_play(console, file, games, plan)
    if reports is None:
        return False
    _print_summary(console, file, reports, plan)
    return all(report.ok for report in reports)


def _load_all(console, file: str, only=()):
    """[(variant or None, Game)] for the file and each variant; None if any fails to load."""
    base = _try_load(console, file, None)
    if base is None:
        return None
    unknown = [name for name in only if name not in base.variants]
    if unknown:
        known = ", ".join(base.variants) or "none"
        console.print(Text(f"{file}: {base.title} has no variant {unknown[0]!r} (variants: {known})", style="red"))
        return None
    names = list(only) if only else list(base.variants)
    loaded = ([] if only else [(None, base)]) + [(name, _try_load(console, file, name)) for name in names]
    if any(game is None for _, game in loaded):
        return None
    variants = ", ".join(base.variants) or "none"
    console.print(Text(f"{file}: {base.title} loads ({cli._players_text(base.players)} players; "
                       f"variants: {variants})", style="green"))
    return loaded


def _try_load(console, file: str, variant: str | None):
    """The game, or None after printing why it cannot be loaded (a crash included)."""
    try:
        return cli.load(file, variant=variant)
    except RuleError as error:
        console.print(Text(str(error)))
    except Exception as error:  # noqa: BLE001 - a crash while loading is a finding against the file
        console.print(Text(f"{_label(file, variant)}: loading crashed: {type(error).__name__}: {error}",
                           style="red"))
    return None


def _label(file: str, variant: str | None) -> str:
    return file if variant is None else f"{file} (variant {variant})"


def _starts(console, file: str, variant, game) -> bool:
    """Can a game start at each player count? Catches what the checker let through."""
    for players in game.players:
        try:
            game.new_game(players=players, seed=0)
        except Exception as error:  # noqa: BLE001 - report any engine failure against the file
            console.print(Text(f"{_label(file, variant)}: a {players}-player game cannot start: "
                               f"{type(error).__name__}: {error}", style="red"))
            return False
    return True


def _random_play(console, file: str, games: list, plan: _Plan):
    """One `Report` per game (the base game and its variants), or None if the checker crashed."""
    from .testing.runner import Campaign
    options = dict(games=plan.games, budget=plan.seconds, decisions=plan.decisions, seed=plan.seed,
                   thorough=plan.thorough, invariants=plan.invariants, max_rounds=plan.max_rounds)
    if plan.client is not None:
        from .cluster import cluster_campaign
        campaign = cluster_campaign(plan.client, games, plan.players, **options)
    else:
        campaign = Campaign(games, plan.players, **options)
    with _progress(console) as progress:
        task = progress.add_task(file, total=_bar_total(campaign, plan), info="")
        started = time.perf_counter()

        def show(done: int, total: int | None) -> None:
            played = sum(r.decisions for r in campaign.reports)
            failures = sum(len(r.failures) for r in campaign.reports)
            info = f"{done} games, {played:,} decisions, {failures} failure(s)"
            if plan.seconds is not None:
                progress.update(task, completed=min(time.perf_counter() - started, plan.seconds), info=info)
            elif plan.decisions is not None:
                progress.update(task, completed=min(played, plan.decisions), info=info)
            else:
                progress.update(task, completed=done, info=info)
        try:
            return campaign.run(show)
        except Exception as error:  # noqa: BLE001 - a crash of the checker is a failed check
            console.print(Text(f"{file}: random play crashed: {type(error).__name__}: {error}", style="red"))
            return None


def _bar_total(campaign, plan: _Plan):
    if plan.seconds is not None:
        return plan.seconds
    if plan.decisions is not None:
        return plan.decisions
    return campaign.total()


def _progress(console) -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[info]}"),
                    TimeElapsedColumn(), console=console, transient=True, disable=not console.is_terminal)


# ---- the summary -------------------------------------------------------------------------

def _print_summary(console, file: str, reports: list, plan: _Plan) -> None:
    console.print(_table(file, reports))
    failures = [(report, failure) for report in reports for failure in report.failures]
    for group in _alike(failures):
        _print_failure(console, file, group, plan)
    if failures:
        console.print(Text("  (each variant and player count stops at its first failing game)", style="dim"))
    if plan.stats:
        for report in reports:
            _print_stats(console, report)


def _table(file: str, reports: list) -> Table:
    seconds = reports[0].seconds if reports else 0.0
    table = Table("variant", "players", "games", "decisions", "length", "checks", "failures",
                  title=f"{file}: random play ({seconds:.1f} s)", title_justify="left", box=box.SIMPLE_HEAD)
    table.columns[0].no_wrap = True
    for column in table.columns[2:]:
        column.justify = "right"
    for report in reports:
        length = f"{report.shortest}..{report.longest}" if report.shortest is not None else "–"
        failures = Text(str(len(report.failures)), style="red" if report.failures else "green")
        table.add_row(", ".join(report.variants) or "(base)", cli._players_text(range(report.players[0],
                      report.players[-1] + 1)) if report.players else "–", str(report.games),
                      f"{report.decisions:,}", length, f"{report.invariants_checked:,}", failures)
    if len(reports) > 1:
        table.add_row("total", "", str(sum(r.games for r in reports)), f"{sum(r.decisions for r in reports):,}",
                      "", f"{sum(r.invariants_checked for r in reports):,}",
                      str(sum(len(r.failures) for r in reports)), style="bold")
    return table


def _alike(failures: list) -> list[list]:
    """(report, failure) pairs grouped by invariant and message, each group shortest first."""
    groups: dict[tuple, list] = {}
    for report, failure in failures:
        groups.setdefault((failure.invariant, _shape(failure.message)), []).append((report, failure))
    return [sorted(group, key=lambda pair: len(pair[1].moves)) for group in groups.values()]


def _shape(message: str) -> str:
    """A message with its numbers blanked, so that one fault at several counts is one group."""
    return re.sub(r"-?\d+", "#", re.sub(r"\[[^\]]*\]", "[...]", message))


def _print_failure(console, file: str, group: list, plan: _Plan) -> None:
    report, failure = group[0]
    failure.source = file
    lines = ["  FAILED " + failure.short().replace("\n", "\n  ")]
    written = plan.replays.next()
    if written is not None:
        failure.write(written, source=file)
        lines.append(f"  replay written to {written}: rulekit replay {written}")
    else:
        lines.append("  to replay it: " + _rerun(file, failure, plan))
    if len(group) > 1:
        also = "; ".join(f"{_variant(f)}{f.players} players, seed {f.seed}, {len(f.moves)} moves"
                         for _, f in group[1:4])
        more = f"; and {len(group) - 4} more" if len(group) > 4 else ""
        lines.append(f"  the same failure also with: {also}{more}")
    console.print(Text("\n".join(lines), style="red"))


def _variant(failure) -> str:
    return f"variant {', '.join(failure.variants)}, " if failure.variants else ""


def _rerun(file: str, failure, plan: _Plan) -> str:
    """The `rulekit check` command that plays exactly this failing game and writes its replay."""
    parts = ["rulekit check", _quote(file)]
    parts += [f"--variant {_quote(v)}" for v in failure.variants if v]
    parts += [f"--players {failure.players}", f"--seed {failure.seed}", "--games 1"]
    if plan.max_rounds is not None:
        parts.append(f"--max-rounds {plan.max_rounds}")
    parts += [f"--invariants {_quote(str(f))}" for f in _invariant_files(plan)]
    parts.append("--replay-out failure.json")
    return " ".join(parts)


def _invariant_files(plan: _Plan) -> list:
    files = []
    for fn in plan.invariants:
        code = getattr(fn, "__code__", None)
        if code is not None and code.co_filename not in files:
            files.append(code.co_filename)
    return files


def _quote(text: str) -> str:
    return text if re.fullmatch(r"[\w./+-]+", text) else "'" + text.replace("'", "'\\''") + "'"


def _print_stats(console, report) -> None:
    name = report.game + (f" ({', '.join(report.variants)})" if report.variants else "")
    lines = report.stats.lines()
    if not lines:
        console.print(Text(f"{name}: no game finished cleanly, so no balance figures", style="yellow"))
        return
    console.print(Text(f"balance figures, {name} (random players):", style="bold"))
    console.print(Text("\n".join("  " + line for line in lines)))
