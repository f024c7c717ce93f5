"""``handfoot sim --ray [ADDRESS]``: the deals of a simulation spread over a Ray cluster.

Each task plays a run of deals with :func:`handfoot.arena.play_chunk`, exactly as a
``--jobs`` worker process does; every deal's chance and every bot's choices come from the
seed and the deal's number only, and :func:`handfoot.arena.summarise` adds the outcomes
up in deal order, so the summary and the records are the same as with ``--jobs`` (or one
process) for the same seed. Records are written by the tasks, to ``record_dir`` as the
workers see it: on a cluster of several machines, a shared file system.

Without an address, a local Ray instance is started (and stopped at the end); with one
(``ray://host:10001`` or ``host:6379``, or ``auto``), the cluster is joined.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from handfoot.arena import Outcome, SimSpec, Summary, chunks, play_chunk, summarise
from handfoot.rules import Rules


def _remote_chunk(spec: SimSpec, start: int, stop: int) -> list[Outcome]:
    return play_chunk(spec, start, stop)


def simulate_ray(rules: Rules, hands: int, seed: int, bot_names: Sequence[str],
                 record_dir: Path | None = None, *, games: bool = False,
                 duplicate: bool = False, address: str | None = None,
                 num_cpus: int | None = None,
                 progress: Callable[[int], None] | None = None) -> Summary:
    """As :func:`handfoot.arena.simulate`, the deals played as Ray tasks.
    ``address`` None starts a local Ray instance (with ``num_cpus``)."""
    import ray

    k = rules.players.teams
    spec = SimSpec(rules, seed, tuple(bot_names[t % len(bot_names)] for t in range(k)),
                   games=games, duplicate=duplicate,
                   record_dir=None if record_dir is None else str(record_dir))
    if record_dir is not None:
        record_dir.mkdir(parents=True, exist_ok=True)
    started_here = not ray.is_initialized()
    if started_here:
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                   "configure_logging": False}
        if address is None:
            options["num_cpus"] = num_cpus
        else:
            options["address"] = address
        ray.init(**options)
    try:
        resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        workers = max(1, int(resources.get("CPU", 1)))
        task = ray.remote(_remote_chunk)
        start = time.perf_counter()
        spec_ref = ray.put(spec)
        pending = {task.remote(spec_ref, a, b): b - a for a, b in chunks(hands, workers)}
        outcomes: list[Outcome] = []
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                outcomes.extend(ray.get(ref))
                n = pending.pop(ref)
                if progress is not None:
                    progress(n)
        return summarise(spec, outcomes, time.perf_counter() - start, workers)
    finally:
        if started_here:
            ray.shutdown()
