"""Batches of work on a Dask cluster: what `rulekit simulate --cluster` and `rulekit check --cluster` use.

Pipeline place: api → simulate / testing → **cluster** → cli. Nothing here schedules work
itself: Dask's own scheduler and workers do. A *spec* names the cluster:

- `local:N` starts a `distributed.LocalCluster` of N worker processes on this machine (one
  thread each) for the length of the run;
- `tcp://HOST:PORT` (or `tls://...`) connects to the scheduler of a running cluster, e.g.
  one started with `dask scheduler` and `dask worker tcp://HOST:8786` on other machines,
  each of which has rulekit installed (`pip install "rulekit-cards[dask]"`).

`map_ordered(client, fn, batches, *args)` submits `fn(batch, *args)` for each batch, a few
per worker at a time, and yields the results in the order of the batches, so a run on a
cluster writes exactly what the same run writes here. Needs the extra:
`pip install "rulekit-cards[dask]"`.
"""
from __future__ import annotations

import logging
import re
from contextlib import contextmanager
from itertools import islice

from .errors import RulekitError

_LOCAL = re.compile(r"^local:(\d{1,3})$")
_ADDRESS = re.compile(r"^(tcp|tls|inproc|ucx)://\S+$")
#: Batches in flight per worker: enough to keep each busy while the next result comes back.
IN_FLIGHT = 2


class ClusterError(RulekitError, ValueError):
    """A cluster spec that names no cluster, a cluster that cannot be reached, or Dask missing."""


def parse(spec: str) -> tuple[str, object]:
    """`("local", workers)` or `("address", address)` for a spec; `ClusterError` otherwise."""
    text = str(spec).strip()
    found = _LOCAL.match(text)
    if found:
        workers = int(found.group(1))
        if not 1 <= workers <= 256:
            raise ClusterError(f"local:{workers}: a local cluster has 1 to 256 workers")
        return "local", workers
    if _ADDRESS.match(text):
        return "address", text
    raise ClusterError(f"{text!r} is not a cluster: use local:N (N worker processes here) or "
                       "tcp://HOST:PORT (the scheduler of a running Dask cluster)")


@contextmanager
def client_for(spec: str, *, processes: bool = True, timeout: float = 30):
    """A `distributed.Client` for a spec, closed (and a local cluster stopped) afterwards."""
    kind, value = parse(spec)
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError("--cluster needs Dask: pip install \"rulekit-cards[dask]\"") from None
    cluster = None
    try:
        if kind == "local":
            cluster = LocalCluster(n_workers=value, threads_per_worker=1, processes=processes,
                                   dashboard_address=None, silence_logs=logging.ERROR)
            client = Client(cluster)
        else:
            client = Client(value, timeout=timeout)
    except (OSError, TimeoutError, RuntimeError) as error:
        if cluster is not None:
            cluster.close()
        raise ClusterError(f"cannot reach the cluster {spec}: {error}") from None
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def workers(client) -> int:
    """How many workers the cluster has now (at least 1, for sizing batches)."""
    return max(1, len(client.scheduler_info().get("workers", {})))


def map_ordered(client, fn, batches, *args, game=None):
    """Yield `fn(batch, *args)` for each batch (`fn(game, batch, *args)` with a `game`, which
    is sent to the workers once), in batch order, computed on the cluster. A generator:
    closing it cancels what is still in flight."""
    batches = iter(batches)
    window = IN_FLIGHT * workers(client)
    head = () if game is None else (client.scatter(game, broadcast=True),)

    def submit(batch):
        return client.submit(fn, *head, batch, *args, pure=False)

    pending = [submit(batch) for batch in islice(batches, window)]
    try:
        while pending:
            done = pending.pop(0).result()
            batch = next(batches, None)
            if batch is not None:
                pending.append(submit(batch))
            yield done
    finally:
        for future in pending:
            future.cancel()


def simulate_on(spec: str, game, seeds, agents: list[str], players: int, *, processes: bool = True):
    """`rulekit simulate --cluster`: the records of `simulate.run_games` over `seeds`, played
    on the cluster in batches, in seed order (the same records as a run here)."""
    from . import simulate as sim

    seeds = range(seeds.start, seeds.stop) if isinstance(seeds, range) else list(seeds)
    with client_for(spec, processes=processes) as client:
        size = batch_size(len(seeds), workers(client), searching=any(a != "random" for a in agents))
        for records in map_ordered(client, sim.run_games, sim.chunks(seeds, size), agents, players, game=game):
            yield from records


def batch_size(games: int, workers_: int, searching: bool) -> int:
    """Games per batch: a few batches per worker, small for search agents (steady progress)."""
    return max(1, min(5 if searching else 50, games // (workers_ * 4) or 1))


# ---- rulekit check --cluster ---------------------------------------------------------------

def checked_games(game, players: int, seeds, max_rounds, thorough: bool, invariants=(), skip=()):
    """Play the games of `seeds` under every invariant (as `check_rules` does), stopping at
    the first failure: plain records (the moves, what failed, the checks run) for each.
    Your own `invariants` travel to the workers by value (Dask's cloudpickle)."""
    from .testing.runner import _Checks, play_checked

    checks = _Checks(game, max_rounds, thorough, invariants, skip)
    records = []
    for seed in seeds:
        before = checks.count
        out = play_checked(game, players, seed, checks)
        failed = None if out.failed is None else (out.failed.invariant, out.failed.message)
        records.append({"moves": out.moves, "finished": out.finished, "failed": failed, "rounds": out.rounds,
                        "winners": out.winners, "checks": checks.count - before})
        if failed is not None:
            break
    return records


def cluster_campaign(client, games_, players=None, **options):
    """A `testing.runner.Campaign` whose games are played on the cluster, in batches of seeds
    per variant and player count; the reports equal a run here. Needs a number of games."""
    from .testing.runner import Campaign, _Outcome
    from .testing.invariants import InvariantError

    if options.get("games") is None:
        raise ClusterError("a run on a cluster plays a fixed number of games: give --games N (or --thorough); "
                           "a time or decision budget would not give the same games twice")

    _by_value(options.get("invariants") or ())

    class ClusterCampaign(Campaign):
        def run(self, progress=None):
            self._futures = {}
            shared = {}
            invariants = tuple(options.get("invariants") or ())
            size = batch_size(self.games, workers(client), searching=False)
            for key in self.plan:
                index, count = key
                checks = self.checks[index]
                if index not in shared:
                    shared[index] = client.scatter(checks.game, broadcast=True)
                seeds = [self.seed + offset for offset in range(self.games)]
                self._futures[key] = [client.submit(checked_games, shared[index], count, batch, checks.max_rounds,
                                                    checks.thorough, invariants, tuple(checks.skip),
                                                    pure=False) for batch in chunks(seeds, size)]
            self._size, self._done = size, {}
            try:
                return super().run(progress)
            finally:
                for futures in self._futures.values():
                    for future in futures:
                        future.cancel()

        def play(self, key, offset, game, players, seed, checks):
            batch = self._done.get((key, offset // self._size))
            if batch is None:
                batch = self._done[key, offset // self._size] = self._futures[key][offset // self._size].result()
            record = batch[offset % self._size]
            checks.count += record["checks"]
            out = _Outcome()
            out.moves, out.finished, out.rounds, out.winners = record["moves"], record["finished"], \
                record["rounds"], record["winners"]
            if record["failed"] is not None:
                out.failed = InvariantError(*record["failed"])
            return out

    return ClusterCampaign(games_, players, **options)


def chunks(items, size: int):
    """Consecutive lists of `size` items."""
    items = list(items)
    return [items[i:i + size] for i in range(0, len(items), size)]


def _by_value(functions) -> None:
    """Your invariants come from files loaded by path (`--invariants FILE.py`) or from your
    tests: workers cannot import those modules, so they travel by value."""
    import sys

    import cloudpickle

    for fn in functions:
        name = getattr(fn, "__module__", None)
        module = sys.modules.get(name) if name else None
        if module is not None and name != "__main__" and not name.startswith("rulekit"):
            cloudpickle.register_pickle_by_value(module)
