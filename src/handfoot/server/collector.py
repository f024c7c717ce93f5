"""The cyclic garbage collector in a server process: short pauses, and rare long ones.

CPython's collector keeps objects in three generations. A young pass looks at the
objects made since the last one (50,000 here), and moves those still alive to the
middle generation; a middle pass, after 20 young ones, looks at everything moved there
since the last middle pass. A served game keeps most of what it makes (its moves, its
melds, the views last written for each screen, its sockets' tasks), so at 1,000 tables
a middle pass went over some 400,000 live objects to find a few hundred that were
garbage (closed sockets' transports, which refer to themselves), and held the event
loop for 0.8 s every two to three minutes: every move pushed meanwhile waited, and on
a full machine the backlog took seconds to clear (docs/server.md).

So each young pass's survivors are frozen (``gc.freeze``: left out of every later pass),
and the collector's middle and old passes find nothing to look at. What is frozen is
still freed as usual when nothing refers to it; only garbage held in a cycle waits, for
a full pass that looks at everything (:func:`full_pass`), every :data:`FULL_EVERY`
seconds (:func:`full_passes`, a task of the server). Every pass is timed, and counted
in ``/api/server``.
"""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

#: new objects between young passes (CPython's own is 700; smaller passes here came more
#: often and cost more in all, 20,000 as 5,000 and 10,000: docs/server.md)
YOUNG = 50_000
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
#: set up for a server (:func:`configure`): each young pass freezes what it kept
_CONFIGURED = [False]


def _on_pass(phase: str, info: dict[str, Any]) -> None:
    """``gc.callbacks``: time each pass; after a young one, freeze what it left."""
    if phase == "start":
        _START[0] = time.perf_counter()
        return
    generation = info["generation"]
    PASSES[generation] += 1
    SECONDS[generation] += time.perf_counter() - _START[0]
    COLLECTED[generation] += info["collected"]
    if generation == 0 and _CONFIGURED[0]:
        gc.freeze()  # the pass is over: its survivors join the frozen


def configure() -> None:
    """Set the collector up for a server process: what exists at start is frozen, and
    the young passes come every :data:`YOUNG` new objects and leave what they kept
    frozen too."""
    gc.freeze()
    gc.set_threshold(YOUNG, 20, 20)
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
    :func:`configure` set the young passes to freeze what they keep)."""
    while True:
        await asyncio.sleep(every)
        if _CONFIGURED[0]:
            full_pass()


def figures() -> dict[str, Any]:
    """For ``/api/server``."""
    return {"gc_passes": PASSES, "gc_seconds": [round(t, 3) for t in SECONDS],
            "gc_collected": COLLECTED, "gc_frozen": gc.get_freeze_count(),
            "gc_full": {**FULL, "seconds": round(FULL["seconds"], 3)}}
