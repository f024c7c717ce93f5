"""The cyclic garbage collector in a server process: no pauses but a rare full pass.

CPython's collector keeps objects in three generations. A young pass looks at the
objects made since the last one, and moves those still alive to the middle generation;
a middle pass, after some young ones, looks at everything moved there since. A served
game keeps most of what it makes (its moves, its melds, the views last written for
each screen, its sockets' tasks), so at 1,000 tables a middle pass went over some
400,000 live objects to find a few hundred that were garbage, and held the event loop
for 0.8 s every two to three minutes. Freezing what each young pass kept (``gc.freeze``:
left out of every later pass) did away with those; but the young passes themselves,
every 50,000 new objects, then found almost nothing (21 garbage objects in a run of
51,000 moves a process: what was young and already garbage held in a cycle) and held
the loop for 70 to 90 ms each, 17 or 18 times a run, about 1 % of the time: just where
the 99th percentile of a full server's pushes is read (docs/server.md).

So the collector makes no passes of its own in a server process (``gc.disable``; what
exists at start is frozen). Reference counting frees everything as ever, at once, as
soon as nothing refers to it; only garbage held in a cycle waits, for a full pass that
looks at everything (:func:`full_pass`), every :data:`FULL_EVERY` seconds
(:func:`full_passes`, a task of the server). With the young passes, a cycle that lived
through one of them waited for the same full pass; now a cycle made and dropped
between two of them waits too: a few objects a minute at 1,000 tables. Each full pass
is timed and counted in ``/api/server``, with any other pass (none, unless something
calls ``gc.collect``).
"""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

#: seconds between the full passes that free the cycles frozen since the last
FULL_EVERY = 30 * 60.0

#: the passes in this process, by generation: how many, their seconds all told, and
#: the objects each generation's passes found to be garbage
PASSES = [0, 0, 0]
SECONDS = [0.0, 0.0, 0.0]
COLLECTED = [0, 0, 0]
#: the full passes (:func:`full_pass`): how many, their seconds, the garbage they found
FULL = {"passes": 0, "seconds": 0.0, "collected": 0}
_START = [0.0]
#: set up for a server (:func:`configure`): no passes but the full ones
_CONFIGURED = [False]


def _on_pass(phase: str, info: dict[str, Any]) -> None:
    """``gc.callbacks``: time each pass."""
    if phase == "start":
        _START[0] = time.perf_counter()
        return
    generation = info["generation"]
    PASSES[generation] += 1
    SECONDS[generation] += time.perf_counter() - _START[0]
    COLLECTED[generation] += info["collected"]


def configure() -> None:
    """Set the collector up for a server process: what exists at start is frozen, and
    the collector makes no passes of its own (the full passes: :func:`full_passes`)."""
    gc.freeze()
    gc.disable()
    _CONFIGURED[0] = True
    if _on_pass not in gc.callbacks:
        gc.callbacks.append(_on_pass)


def full_pass() -> int:
    """Look at every object once, frozen or not, and free the garbage held in cycles;
    then freeze the rest again. The objects found to be garbage."""
    start = time.perf_counter()
    gc.unfreeze()
    collected = gc.collect()
    gc.freeze()
    FULL["passes"] += 1
    FULL["seconds"] += time.perf_counter() - start
    FULL["collected"] += collected
    return collected


async def full_passes(every: float = FULL_EVERY) -> None:
    """A full pass every ``every`` seconds, while the server runs (where
    :func:`configure` set the collector up for it)."""
    while True:
        await asyncio.sleep(every)
        if _CONFIGURED[0]:
            full_pass()


def figures() -> dict[str, Any]:
    """For ``/api/server``."""
    return {"gc_passes": PASSES, "gc_seconds": [round(t, 3) for t in SECONDS],
            "gc_collected": COLLECTED, "gc_frozen": gc.get_freeze_count(),
            "gc_full": {**FULL, "seconds": round(FULL["seconds"], 3)}}
