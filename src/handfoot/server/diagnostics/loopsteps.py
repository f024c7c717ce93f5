"""Where a busy event loop's CPU goes, step by step: a diagnostic for load tests.

Started with ``HANDFOOT_LOOP_STEPS=1`` in the server's environment, each callback the
event loop runs is timed with the loop thread's CPU clock (``time.thread_time``) and
counted under a name: for a task's step, the task's coroutine and the line it resumed
at, then the line it stopped at (``Manager._run_bots | wait_async:270 -> sleep:649``:
the step that began when an append's answer came and ran until the computer player's
next pause); for any other callback, the callback's own name. ``/api/server`` then
shows the busiest names under ``loop_steps``.

A profiler that samples the stacks does not see this on a full machine: a process is
most often preempted as it comes back from a system call, so the samples pile up on
whatever made the last one. Timing each step with the thread's own clock does not
depend on the load.

To see where a task is, the loop's tasks are made as Python objects
(``asyncio.tasks._PyTask``, the standard library's own code) rather than by its C
accelerator; that and the two clock readings a step make the server slower (a fifth or
so), so this is for finding where the time goes, never for serving people.
"""

from __future__ import annotations

import asyncio
import asyncio.events
import asyncio.tasks
import time
from typing import Any

#: the standard library's modules, as untyped objects (this patches their internals)
_loop_handles: Any = asyncio.events
_tasks: Any = asyncio.tasks
#: asyncio's tasks written in Python (the C accelerator's do not show where they wait)
_PY_TASK: Any = vars(asyncio.tasks)["_PyTask"]

#: name -> [steps, CPU seconds]
STEPS: dict[str, list[float]] = {}
_saved: dict[str, Any] = {}


def _where(task: Any) -> str:
    """The innermost frame a task waits in: its function and line."""
    coro = task.get_coro()
    last = "?"
    for _ in range(40):
        if coro is None:
            break
        frame = (getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
                 or getattr(coro, "ag_frame", None))
        if frame is None:
            break
        last = f"{frame.f_code.co_qualname}:{frame.f_lineno}"
        coro = (getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
                or getattr(coro, "ag_await", None))
    return last


def _name(callback: Any) -> tuple[str, Any]:
    """A callback's name, and its task if it is a task's step."""
    task = getattr(callback, "__self__", None)
    if isinstance(task, _PY_TASK):
        coro = task.get_coro()
        return f"{getattr(coro, '__qualname__', '?')} | {_where(task)}", task
    return str(getattr(callback, "__qualname__", type(callback).__name__)), None


def install() -> None:
    """Time every callback of event loops run from now on (tasks made from now on are
    Python tasks). Call before the server's loop starts."""
    if _saved:
        return
    _saved["run"] = run = _loop_handles.Handle._run
    _saved["task"] = _tasks.Task
    _tasks.Task = _PY_TASK
    clock = time.thread_time

    def timed_run(handle: Any) -> None:
        name, task = _name(handle._callback)
        start = clock()
        try:
            run(handle)
        finally:
            spent = clock() - start
            if task is not None and not task.done():
                name = f"{name} -> {_where(task)}"
            entry = STEPS.get(name)
            if entry is None:
                entry = STEPS[name] = [0, 0.0]
            entry[0] += 1
            entry[1] += spent

    _loop_handles.Handle._run = timed_run


def uninstall() -> None:
    """Back to the standard loop (tests)."""
    if _saved:
        _loop_handles.Handle._run = _saved.pop("run")
        _tasks.Task = _saved.pop("task")


def installed() -> bool:
    return bool(_saved)


def report(top: int = 40) -> list[dict[str, Any]]:
    """The ``top`` names by CPU time: each with its steps, seconds and µs a step."""
    rows = sorted(STEPS.items(), key=lambda kv: -kv[1][1])[:top]
    return [{"step": name, "count": int(n), "seconds": round(s, 3),
             "us_each": round(1e6 * s / n, 1) if n else 0.0} for name, (n, s) in rows]
