"""`rulekit simulate GAME`: many games between agents, summarised per seat and per agent.

Pipeline place: simulate → **cli** (registered on the `rulekit` click group by `rulekit.cli`).
The games are played by `rulekit.simulate.run_games` over their seeds (game i has seed S+i),
in `--jobs` processes; the records come back in seed order, so the output is the same for
any number of jobs. A long run says how long it will take; Ctrl-C stops it and prints the
summary of the games played so far (exit status 130), without a traceback.
"""
from __future__ import annotations

import json
import re
import time

import click
from rich import box
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from . import cli
from . import simulate as sim
from .agents import AGENTS, parse_agents
from .agents.base import AgentError

#: Exit status after Ctrl-C (the summary of the games played is still printed).
EXIT_INTERRUPTED = 130
#: A run estimated to take longer than this (seconds) says so before going on.
ANNOUNCE_AFTER = 20.0
_POWER = re.compile(r"^\s*(\d+)\s*(?:\*\*|\^)\s*(\d+)\s*$")
_EXPONENT = re.compile(r"^\s*(\d+)\s*[eE]\s*(\d+)\s*$")


class GameCount(click.ParamType):
    """A positive number of games: `1000`, `1e6` or `10**12`."""
    name = "count"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            number = value
        else:
            text = str(value).replace("_", "").strip()
            match_power, match_exp = _POWER.match(text), _EXPONENT.match(text)
            if text.isascii() and text.isdigit() and len(text) <= 30:
                number = int(text)
            elif match_power and len(match_power[2]) <= 2:
                number = int(match_power[1]) ** int(match_power[2])
            elif match_exp and len(match_exp[2]) <= 2:
                number = int(match_exp[1]) * 10 ** int(match_exp[2])
            else:
                self.fail(f"{value!r} is not a number of games (say 1000, 1e6 or 10**12)", param, ctx)
        if number < 1:
            self.fail("play at least one game", param, ctx)
        if number > 10**30:
            self.fail("at most 10**30 games", param, ctx)
        return number


class _Rate(ProgressColumn):
    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.1f} games/s" if speed else "– games/s")


def _agents_option(ctx, param, value):
    try:
        return parse_agents(value)
    except AgentError as error:
        raise click.BadParameter(str(error)) from None


@cli.main.command()
@click.argument("game")
@click.option("--agents", "-a", default="random", show_default=True, callback=_agents_option,
              help="Agents, comma-separated, one per seat and cycled: "
                   + "; ".join(f"{k}: {v}" for k, v in AGENTS.items()) + ".")
@click.option("--players", "-p", type=int, default=None, help="Number of players (default: the game's own).")
@click.option("--games", "-n", type=GameCount(), default=100, show_default=True,
              help="Games to play (1000, 1e6, 10**12).")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Seed of the first game.")
@click.option("--variant", "-v", "variants", multiple=True, help="A variant to play with (repeatable).")
@click.option("--jobs", "-j", type=click.IntRange(min=1, max=256), default=1, show_default=True,
              help="Processes to play in (the results do not depend on it).")
@click.option("--cluster", default=None, metavar="local:N|tcp://HOST:PORT",
              help="Play on a Dask cluster: local:N starts N worker processes here, tcp://HOST:PORT "
                   "uses a running scheduler (needs the `dask` extra; the results do not depend on it).")
@click.option("--out", "out", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write one JSON object per game to this file (JSON lines).")
@click.option("--plot", "plot_file", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Draw score distributions and win shares to this image (needs the `plot` extra).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def simulate(game, agents, players, games, seed, variants, jobs, cluster, out, plot_file, as_json):
    """Play GAMES games of GAME between AGENTS and summarise scores, wins and bids.

    Game i is dealt from seed S+i. With only random agents one random.Random(S+i) makes
    every move; other agents of seat s are seeded with "S+i/s". Ctrl-C stops early and
    prints the summary so far.
    """
    loaded = cli._load(game, variants)
    first = cli._start(loaded, players, seed)          # a player count the game does not allow stops here
    players = first.n
    console = cli._console(stderr=as_json or out == "-")
    try:
        sink = open(out, "w", encoding="utf-8") if out else None
    except OSError as error:
        cli._stop(f"cannot write {out}: {error}")
    summary = sim.Summary(players)
    started = time.perf_counter()
    interrupted = False
    if cluster is not None and jobs > 1:
        raise click.UsageError("give --jobs (processes here) or --cluster (Dask workers), not both")
    if cluster is not None:
        records = _on_cluster(cluster, loaded, range(seed, seed + games), agents, players)
    else:
        records = sim.run_parallel(loaded, range(seed, seed + games), agents, players, jobs,
                                   chunk=_chunk(games, jobs, agents))
    try:
        with _progress(console) as progress:
            task = progress.add_task("simulating", total=games)
            announced = False
            for record in records:
                summary.add(record)
                if sink is not None:
                    sink.write(json.dumps(record) + "\n")
                progress.advance(task)
                if not announced:
                    announced = _announce(console, summary.games, games, time.perf_counter() - started)
    except KeyboardInterrupt:
        interrupted = True
        records.close()
    finally:
        if sink is not None:
            sink.close()
    seconds = time.perf_counter() - started
    report = _report(loaded, summary, seed, agents, seconds, interrupted)
    if summary.stuck:
        cli._console(stderr=True).print(Text(
            f"{summary.stuck} game(s) got stuck: no legal move while the game was not over "
            f"(the rule file cannot go on); they end where they stopped, marked \"stuck\" in the records.",
            style="yellow"))
    if plot_file and summary.games:
        try:
            sim.plot(summary, plot_file, loaded.title)
        except (RuntimeError, OSError) as error:
            cli._stop(str(error))
    if as_json:
        click.echo(json.dumps(report, indent=2))
    else:
        _print_summary(cli._console(stderr=out == "-"), report, interrupted)
    if interrupted:
        raise click.exceptions.Exit(EXIT_INTERRUPTED)


def _on_cluster(spec: str, game, seeds, agents: list[str], players: int):
    """The records from a Dask cluster (`rulekit.cluster`), or a usage error for a bad spec."""
    from .cluster import ClusterError, parse, simulate_on

    try:
        parse(spec)
    except ClusterError as error:
        raise click.BadParameter(str(error), param_hint="--cluster") from None

    def records():
        try:
            yield from simulate_on(spec, game, seeds, agents, players)
        except ClusterError as error:
            cli._stop(str(error))
    return records()


def _chunk(games: int, jobs: int, agents: list[str]) -> int:
    """Games per batch sent to a process: small for search agents (steady progress)."""
    if jobs <= 1:
        return 1
    searching = any(a != "random" for a in agents)
    return max(1, min(5 if searching else 50, games // (jobs * 4) or 1))


def _announce(console, done: int, games: int, seconds: float) -> bool:
    """After the first games: say how long the whole run will take, when that is long.
    Returns True once the estimate is made."""
    if done < min(games, 3) and seconds < 2.0:
        return False
    rate = done / seconds if seconds > 0 else float("inf")
    left = (games - done) / rate if rate else float("inf")
    if left > ANNOUNCE_AFTER:
        console.print(Text(f"{games:,} games at about {rate:,.3g} games/s: about {_duration(left)} to go. "
                           f"Ctrl-C stops and prints the summary of the games played so far.", style="yellow"))
    return True


def _duration(seconds: float) -> str:
    if seconds == float("inf"):
        return "forever"
    years = seconds / (365.25 * 86400)
    if years >= 1:
        return f"{years:,.0f} years"
    days, rest = divmod(int(seconds), 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min {secs} s" if minutes else f"{secs} s"


def _progress(console) -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), _Rate(),
                    TimeElapsedColumn(), console=console, transient=True, disable=not console.is_terminal)


def _report(game, summary: sim.Summary, seed: int, agents: list[str], seconds: float, interrupted: bool) -> dict:
    report = summary.report()
    report.update({
        "game": game.title, "variants": list(game.selected), "seed": seed,
        "agents_per_seat": sim.seat_agents(agents, summary.players),
        "seconds": round(seconds, 6),
        "decisions_per_second": summary.decisions / seconds if seconds > 0 else None,
        "games_per_second": summary.games / seconds if seconds > 0 else None,
        "interrupted": interrupted,
    })
    return report


def _print_summary(console, report: dict, interrupted: bool) -> None:
    if interrupted:
        console.print(Text(f"Interrupted: the summary of the {report['games']} games played.", style="yellow"))
    if not report["games"]:
        return
    console.print(_totals_table(report))
    console.print(_group_table("seat", [(str(i), s) for i, s in enumerate(report["seats"])], report,
                               [report["agents_per_seat"][i] for i in range(report["players"])]))
    if len(report["agents"]) > 1:
        console.print(_group_table("agent", list(report["agents"].items()), report))


def _totals_table(report: dict) -> Table:
    variants = f" ({', '.join(report['variants'])})" if report["variants"] else ""
    table = Table(show_header=False, box=box.SIMPLE,
                  title=f"{report['game']}{variants}, {report['players']} players")
    last_seed = report["seed"] + report["games"] - 1
    table.add_row("games", f"{report['games']} (seeds {report['seed']}..{last_seed})")
    table.add_row("agents", ", ".join(report["agents_per_seat"]))
    table.add_row("decisions", str(report["decisions"]))
    rate, games_rate = report["decisions_per_second"], report["games_per_second"]
    table.add_row("decisions/s", f"{rate:,.0f}" if rate else "–")
    table.add_row("games/s", f"{games_rate:,.1f}" if games_rate else "–")
    table.add_row("mean length", f"{report['mean_decisions']:.1f} decisions, {report['mean_rounds']:.2f} rounds")
    if report["stuck_games"]:
        table.add_row("stuck games", str(report["stuck_games"]))
    return table


def _group_table(label: str, rows: list, report: dict, agents: list | None = None) -> Table:
    """Per seat or per agent: mean score ± spread, win share with its 95% interval, bids made."""
    bids = report["bid_success"] is not None
    columns = [label] + (["agent"] if agents else []) + ["mean score", "spread", "win share", "95% interval"]
    table = Table(*columns, *(["bid success"] if bids else []), box=box.SIMPLE_HEAD)
    for index, (name, group) in enumerate(rows):
        low, high = group["win_share_95"]
        cells = [name] + ([agents[index]] if agents else []) + [
            f"{group['mean_score']:.2f}", f"{group['score_spread']:.2f}", f"{group['win_share']:.1%}",
            f"{low:.1%}–{high:.1%}"]
        if bids:
            cells.append("–" if group["bid_success"] is None else f"{group['bid_success']:.1%}")
        table.add_row(*cells)
    return table
