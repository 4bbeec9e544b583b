"""Batches of games between agents, and what they add up to: the engine of `rulekit simulate`.

Pipeline place: api → agents → **simulate** → cli. `run_games(game, seeds, agents)` is a
plain function over a list of seeds: each game depends only on its seed, so batches can go
to processes (`run_parallel`) or to a cluster's workers, in any split, and give the same
records. `Summary` adds records up as they come (per seat and per agent: mean and spread
of the scores, win share with a 95% interval, bid success, game length).

A game's record (one JSON line of `--out`):

    {"seed": 7, "agents": ["ismcts:200", "random"], "scores": [12, 9], "winners": [0],
     "decisions": 34, "rounds": 8, "bids": [8, 8], "bids_made": [5, 2], "stuck": false}

Seeds: game `seed` is dealt by `new_game(seed=seed)`. When every agent is `random`, one
`random.Random(seed)` makes every seat's moves (the fast path, as `rulekit simulate` always
did); otherwise the agent of seat s is built with the seed "seed/s".
"""
from __future__ import annotations

import math
from concurrent.futures import ProcessPoolExecutor
from itertools import islice
import random

from .agents import make_agent

#: How many per-seat scores the summary keeps for plots (the rest are only counted).
KEEP_SCORES = 100_000


def load_game(spec):
    """A `Game` from a game, a name or path, or (name or path, variants)."""
    from .api import load

    if hasattr(spec, "new_game"):          # a Game (or anything that starts games like one)
        return spec
    if isinstance(spec, tuple):
        name, variants = spec
        return load(name, variant=list(variants) or None)
    return load(spec)


def seat_agents(agents: list[str], players: int) -> list[str]:
    """The agents of the seats: the list cycled over the seats."""
    return [agents[seat % len(agents)] for seat in range(players)]


def run_games(game_spec, seeds, agents: list[str], players: int | None = None) -> list[dict]:
    """Play one game per seed, `agents` (names, cycled over the seats) at the seats; one
    record per game, in the order of `seeds`."""
    game = load_game(game_spec)
    players = game.checked_players() if players is None else players
    names = seat_agents(list(agents), players)
    return [play_one(game, players, seed, names) for seed in seeds]


def play_one(game, players: int, seed: int, names: list[str]) -> dict:
    state = game.new_game(players=players, seed=seed)
    if all(name == "random" for name in names):
        pick = _shared_random(seed)
    else:
        pick = _agents_pick([make_agent(name, f"{seed}/{seat}") for seat, name in enumerate(names)])
    bids, made = [0] * players, [0] * players
    decisions, stuck, behind = 0, False, None
    while not state.is_terminal:
        moves = state.legal_moves()
        if not moves:                   # rules that cannot go on: end the game here, say so
            stuck = True
            break
        state.apply(pick(state, moves))
        decisions += 1
        finished = state.last_round         # what view()["last_round"] shows, without a view
        if finished is not behind:
            behind = finished
            _count_bids(finished, bids, made)
    return {"seed": seed, "agents": names, "scores": list(state.scores), "winners": list(state.winners),
            "decisions": decisions, "rounds": state.round, "bids": bids, "bids_made": made,
            "stuck": stuck}


def _shared_random(seed: int):
    rng = random.Random(seed)

    def pick(state, moves):
        return rng.choice(moves)
    return pick


def _agents_pick(agents: list):
    def pick(state, moves):
        seat = state.current_player
        return agents[seat].choose(state.for_seat(seat))
    return pick


def _count_bids(finished, bids: list[int], made: list[int]) -> None:
    if finished is None:
        return
    for seat, bid in enumerate(finished["bids"]):
        if bid is not None:
            bids[seat] += 1
            made[seat] += bid == finished["tricks_won"][seat]


# ---- many games, in processes --------------------------------------------------------------


def chunks(seeds, size: int):
    """Consecutive batches of `size` seeds from any iterable (a range of 10**12 is fine)."""
    it = iter(seeds)
    while True:
        batch = list(islice(it, size))
        if not batch:
            return
        yield batch


def run_parallel(game, seeds, agents: list[str], players: int, jobs: int, chunk: int = 20):
    """Records of the games of `seeds`, in seed order, played by `jobs` processes (1: here).
    A generator: stop it (or interrupt) to stop; the same records for any `jobs`."""
    batches = chunks(seeds, chunk)
    if jobs <= 1:
        for batch in batches:
            yield from run_games(game, batch, agents, players)
        return
    with ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_interrupts) as pool:
        pending = []
        try:
            for batch in islice(batches, 2 * jobs):
                pending.append(pool.submit(run_games, game, batch, agents, players))
            while pending:
                done = pending.pop(0).result()
                batch = next(batches, None)
                if batch is not None:
                    pending.append(pool.submit(run_games, game, batch, agents, players))
                yield from done
        finally:
            for future in pending:
                future.cancel()


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops handing out games and summarises."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


# ---- adding up -----------------------------------------------------------------------------


def interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a share (95% by default); shared wins count as fractions."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


class _Group:
    """Running sums for one seat or one agent."""

    def __init__(self):
        self.count = 0
        self.wins = 0.0
        self.total = 0.0
        self.squares = 0.0
        self.bids = self.made = 0
        self.scores: list[int] = []

    def add(self, score: int, win: float, bids: int, made: int) -> None:
        self.count += 1
        self.wins += win
        self.total += score
        self.squares += score * score
        self.bids += bids
        self.made += made
        if len(self.scores) < KEEP_SCORES:
            self.scores.append(score)

    def report(self) -> dict:
        n = self.count
        mean = self.total / n if n else 0.0
        spread = math.sqrt(max(0.0, self.squares / n - mean * mean) * n / (n - 1)) if n > 1 else 0.0
        low, high = interval(self.wins, n)
        return {"games": n, "mean_score": mean, "score_spread": spread, "win_share": self.wins / n if n else 0.0,
                "win_share_95": [low, high],
                "bid_success": self.made / self.bids if self.bids else None, "bids": self.bids}


class Summary:
    """Adds records up, per seat and per agent, as they arrive."""

    def __init__(self, players: int):
        self.players = players
        self.games = self.decisions = self.rounds = self.stuck = 0
        self.seats = [_Group() for _ in range(players)]
        self.agents: dict[str, _Group] = {}
        self.lengths: list[int] = []

    def add(self, record: dict) -> None:
        self.games += 1
        self.decisions += record["decisions"]
        self.rounds += record["rounds"]
        self.stuck += record["stuck"]
        winners = record["winners"]
        for seat, score in enumerate(record["scores"]):
            win = 1 / len(winners) if seat in winners else 0.0
            args = (score, win, record["bids"][seat], record["bids_made"][seat])
            self.seats[seat].add(*args)
            self.agents.setdefault(record["agents"][seat], _Group()).add(*args)
        if len(self.lengths) < KEEP_SCORES:
            self.lengths.append(record["decisions"])

    def report(self) -> dict:
        games = self.games or 1
        seats = [group.report() for group in self.seats]
        return {
            "games": self.games, "players": self.players, "decisions": self.decisions,
            "stuck_games": self.stuck,
            "mean_decisions": self.decisions / games, "mean_rounds": self.rounds / games,
            "mean_score": [s["mean_score"] for s in seats],
            "win_share": [s["win_share"] for s in seats],
            "bid_success": [s["bid_success"] for s in seats] if any(s["bids"] for s in seats) else None,
            "seats": seats,
            "agents": {name: group.report() for name, group in self.agents.items()},
        }


def plot(summary: Summary, path: str, title: str) -> None:
    """Score distributions per agent and win shares with their intervals, to an image file.
    Needs matplotlib (`pip install "rulekit-cards[plot]"`)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RuntimeError('--plot needs matplotlib: pip install "rulekit-cards[plot]"') from None
    names = list(summary.agents)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for name in names:
        scores = summary.agents[name].scores
        if scores:
            bins = min(40, max(5, len(set(scores))))
            left.hist(scores, bins=bins, alpha=0.55, label=name)
    left.set_title("scores per game")
    left.set_xlabel("score")
    left.legend()
    reports = [summary.agents[name].report() for name in names]
    shares = [r["win_share"] for r in reports]
    errors = [[s - r["win_share_95"][0] for s, r in zip(shares, reports)],
              [r["win_share_95"][1] - s for s, r in zip(shares, reports)]]
    right.bar(names, shares, yerr=errors, capsize=6, color="tab:blue", alpha=0.7)
    right.set_ylim(0, 1)
    right.set_title("win share (95% interval)")
    fig.suptitle(f"{title}: {summary.games} games")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
