"""The loop's CPU, step by step (``HANDFOOT_LOOP_STEPS=1``): each task's steps are
timed under its coroutine and where it waited."""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict

import pytest

from handfoot.server.diagnostics import loopsteps
from handfoot.server.testing import ServerProcess
from server_helpers import play_one_move

pytestmark = pytest.mark.served  # (left out of the pure-Python pass: see test.sh)


def _busy(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_each_step_is_timed_under_its_task_and_where_it_waited() -> None:
    standard_task = asyncio.tasks.Task
    loopsteps.install()
    try:
        loopsteps.STEPS.clear()

        async def heavy() -> None:
            for _ in range(3):
                _busy(0.02)
                await asyncio.sleep(0)

        async def light() -> None:
            for _ in range(3):
                _busy(0.002)
                await asyncio.sleep(0)

        async def main() -> None:
            await asyncio.gather(heavy(), light())

        asyncio.run(main())
        rows = loopsteps.report(top=100)
    finally:
        loopsteps.uninstall()
    assert asyncio.tasks.Task is standard_task
    assert not loopsteps.installed()
    seconds: dict[str, float] = defaultdict(float)
    for row in rows:
        seconds[row["step"].split(" | ")[0].rsplit(".", 1)[-1]] += row["seconds"]
    assert seconds["heavy"] >= 0.055  # its three steps of 20 ms
    assert 0.005 <= seconds["light"] < seconds["heavy"] / 4
    # a step that paused is named by where it resumed and where it stopped
    paused = [r["step"] for r in rows if r["step"].split(" | ")[0].endswith("heavy")]
    assert any(" -> " in step and "heavy:" in step for step in paused), paused
    assert all(r["count"] >= 1 and r["us_each"] >= 0 for r in rows)


def test_a_server_started_with_it_lists_its_busiest_steps(sqlite_url: str) -> None:
    """``HANDFOOT_LOOP_STEPS=1``: ``/api/server`` lists the loop's busiest steps, the
    computer players' moves among them; without it, it lists none."""
    with ServerProcess(sqlite_url, env={"HANDFOOT_LOOP_STEPS": "1"}) as server:
        play_one_move(server)
        info = server.get("/api/server")
        steps = info["loop_steps"]
    assert info["event_loop"] == "asyncio"  # whose steps it can time
    assert steps and all(s["count"] >= 1 and s["seconds"] >= 0 for s in steps)
    assert [s["seconds"] for s in steps] == sorted((s["seconds"] for s in steps),
                                                   reverse=True)
    # the computer players' moves, each with its state messages written and sent in
    # the same step (a socket that takes them needs no step of its own)
    assert any(s["step"].startswith("Manager._run_bots | ") for s in steps), steps
