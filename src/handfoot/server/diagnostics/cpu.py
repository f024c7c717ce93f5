"""The CPU time of the event loop's busiest steps, shown by ``/api/server``.

Each step adds its count and the CPU time of the event loop's thread it took
(``time.thread_time``: other threads and processes do not count, nor does waiting).
Writing a state message, sending it through a socket and applying a move are the
steps of every move at every table; a profiler slows a loaded server and names
compiled frames badly, and these counters cost two clock readings a step.
"""

from __future__ import annotations

import time
from typing import Any

#: step -> [how many, CPU seconds]
STEPS: dict[str, list[float]] = {}

now = time.thread_time  #: the event loop thread's CPU clock


def spent(step: str, start: float) -> None:
    """One ``step`` done, begun at ``start`` (a reading of :func:`now`)."""
    entry = STEPS.get(step)
    if entry is None:
        entry = STEPS[step] = [0, 0.0]
    entry[0] += 1
    entry[1] += time.thread_time() - start


def report() -> dict[str, Any]:
    """This process's CPU seconds (all its threads, and the event loop's thread alone)
    and each step's count, seconds and microseconds a step. Called on the loop."""
    return {
        "process_s": round(time.process_time(), 3),
        "event_loop_s": round(time.thread_time(), 3),
        "steps": {name: {"count": int(n), "seconds": round(s, 3),
                         "us_each": round(1e6 * s / n, 1) if n else 0.0}
                  for name, (n, s) in sorted(STEPS.items())},
    }
