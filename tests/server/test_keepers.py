"""The keeper of a table's computer players, when it changes hands between server
processes on one PostgreSQL database (:mod:`handfoot.server.processes.sync`): a
finished table is let go only once its result is written, and a new keeper reads the
log before its computers decide. Managers in this process, on a real PostgreSQL
server; a game of four computer players at each table."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from handfoot.actions import action_to_json
from handfoot.rules import preset
from handfoot.server.live.manager import Manager
from handfoot.server.offloop.pool import make_game
from handfoot.server.processes.sync import Bus, Keepers
from handfoot.server.storage.store import Store
from server_helpers import postgres_database

pytestmark = pytest.mark.served  # (left out of the pure-Python pass: see test.sh)

RULES = "texas-good-sam"
COMPUTERS = [{"kind": "bot", "level": "random"}] * 4


@pytest.fixture
def pg_url() -> Iterator[str]:
    yield from postgres_database()


async def until(done: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"waited too long for {what}"
        await asyncio.sleep(0.02)


class HeldResults(Store):
    """A store whose finished games' results wait for :attr:`go` before they are
    written (a database slow to write them)."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.go = threading.Event()

    def set_result(self, table_id: str, result: dict[str, Any]) -> None:
        self.go.wait(30)
        super().set_result(table_id, result)


def test_a_finished_table_is_let_go_only_once_its_result_is_written(pg_url: str) -> None:
    """Until its result is written a finished table looks unfinished in the database:
    were it let go at once, another process's look for keeperless tables took it, and
    its computers decided on that process's copy, which may not have heard the last
    moves yet (a decision lost: refused, as the move's number was taken)."""
    store = HeldResults(pg_url)
    tid = store.create_table(RULES, preset(RULES).to_toml(), 31, COMPUTERS)

    async def go() -> None:
        manager = Manager(store, bot_delay=0.0)
        manager.keepers = Keepers(pg_url, origin="aaaa")
        other = Keepers(pg_url, origin="bbbb")
        try:
            table = await manager.aload(tid)  # taken by the first to hold it: this one
            assert table is not None
            await until(lambda: table.game.over, "the game's end")
            assert manager.bot_lost == 0 and manager.bot_actions == table.seq
            row = store.table(tid)
            assert row is not None and row.result is None  # (held back)
            assert await other.sweep() == []  # not keeperless
            assert await other.keeper_of(tid) == "aaaa"
            store.go.set()
            await until(lambda: not manager.keepers.keeps(tid), "the table let go")
            row = store.table(tid)
            assert row is not None and row.result is not None
            assert row.result["seq"] == table.seq
            assert await other.sweep() == []  # finished: nobody keeps it
            assert await other.keeper_of(tid) is None
        finally:
            store.go.set()
            await manager.close()
            await other.close()

    try:
        asyncio.run(go())
    finally:
        store.close()


def test_a_new_keeper_reads_the_log_before_its_computers_decide(pg_url: str) -> None:
    """The last keeper wrote moves this process has not heard of (their notices on
    their way) and stopped; this process takes the table over: its computers decide on
    the game as logged, and none of their decisions is lost."""
    store = Store(pg_url)
    rules = preset(RULES)
    tid = store.create_table(RULES, rules.to_toml(), 32, COMPUTERS)
    written = 6

    async def go() -> None:
        last = Keepers(pg_url, origin="aaaa")
        assert await last.take(tid)
        manager = Manager(store, bot_delay=0.0)
        manager.keepers = Keepers(pg_url, origin="bbbb")
        # in step with the others (the notices' connection is up), so the log is not
        # read before each move; the last keeper's notices are not heard here
        manager.bus = Bus(pg_url, "bbbb")
        manager.bus.healthy = True
        try:
            table = await manager.aload(tid)
            assert table is not None and table.seq == 0
            assert await manager.keepers.take(tid) is False  # the last keeper has it
            game = make_game(rules, 32, None)
            for seq in range(written):  # its last moves, written before it stops
                seat, action = game.actor, game.legal_actions()[0]
                store.append_action(tid, seq, seat, action_to_json(action), None)
                game.apply(action, seat)
            assert table.seq == 0  # not heard here
            await last.close()  # it stops: its lock goes with its connection
            for _ in range(250):  # (PostgreSQL ends its session a moment later)
                if await manager.keepers.keeper_of(tid) is None:
                    break
                await asyncio.sleep(0.02)
            taken = await manager.keepers.sweep()
            assert taken == [tid]
            await manager.keep(taken)
            await until(lambda: table.game.over, "the game's end")
            assert manager.bot_lost == 0
            assert manager.bot_actions == table.seq - written
            logged = store.actions(tid)
            assert [a.seq for a in logged] == list(range(table.seq))
        finally:
            await manager.close()

    try:
        asyncio.run(go())
    finally:
        store.close()
