"""Reading a table's seats, and who has joined it, again never undoes a change this
process made meanwhile: the read and the change take turns (``LiveTable.seats_lock``).
Each test holds one database call of a slow store while the other side runs: a seat
handed to the computer (whose keeper otherwise saw a person there, and its computer
never played), a person's name on their seat (otherwise lost when three people opened
their links at once), and a person who joined (otherwise forgotten: the table waited
for them for ever)."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import threading
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from handfoot.rules import preset
from handfoot.server.live import seats
from handfoot.server.live.manager import Manager
from handfoot.server.live.table import LiveTable
from handfoot.server.offloop.pool import ServedGame
from handfoot.server.storage.store import TableRow

pytestmark = pytest.mark.served  # (left out of the pure-Python pass: see test.sh)


class SlowStore:
    """A store of one table whose first call of the method named ``hold`` waits until
    the test lets it go; a read answers with what was written when it began."""

    postgres = False

    def __init__(self, row: TableRow, joined: set[int], hold: str) -> None:
        self.row, self.joined, self.waiting = row, set(joined), True
        self.hold = hold
        self.calls: dict[str, int] = {}
        self.holding = threading.Event()
        self.go_on = threading.Event()

    def _call(self, name: str) -> None:
        self.calls[name] = self.calls.get(name, 0) + 1
        if name == self.hold and self.calls[name] == 1:
            self.holding.set()
            self.go_on.wait(10)

    def table(self, table_id: str) -> TableRow:
        answer = self.row
        self._call("table")
        return answer

    def set_seats(self, table_id: str, seats: list[dict[str, Any]]) -> None:
        self._call("set_seats")
        self.row = dataclasses.replace(self.row, seats=seats)

    def joined_seats(self, table_id: str) -> set[int]:
        answer = set(self.joined)
        self._call("joined_seats")
        return answer

    def is_waiting(self, table_id: str) -> bool:
        return self.waiting

    def join_seat(self, table_id: str, seat: int) -> None:
        self._call("join_seat")
        self.joined.add(seat)

    def start_table(self, table_id: str) -> bool:
        started, self.waiting = self.waiting, False
        return started


def a_table(waiting: bool = False, joined: frozenset[int] = frozenset()) -> LiveTable:
    rules = preset("texas-good-sam")
    row = TableRow(id="t1", rules_name="texas-good-sam", rules_toml="", seed=1,
                   seats=[{"kind": "human", "name": n} for n in ("seat one", "B", "C", "D")],
                   created=dt.datetime.now(dt.UTC))
    return LiveTable(row=row, rules=rules, game=ServedGame(rules, 1), waiting=waiting,
                     joined=set(joined))


def while_held(store: SlowStore, first: Callable[[], Coroutine[Any, Any, None]],
               then: Callable[[Manager], Coroutine[Any, Any, None]],
               after: Callable[[Manager], Coroutine[Any, Any, None]] | None = None) -> None:
    """Run ``first`` until its held call, ``then`` meanwhile (as far as it goes before
    it must wait), let the held call go, and finish both; then ``after``."""
    async def run() -> None:
        manager = Manager(store, bot_delay=0.0)  # type: ignore[arg-type]
        try:
            held = asyncio.create_task(first())
            await asyncio.to_thread(store.holding.wait, 10)
            other = asyncio.create_task(then(manager))
            await asyncio.sleep(0.2)  # (it has gone as far as it can)
            store.go_on.set()
            await asyncio.gather(held, other)
            if after is not None:
                await after(manager)
        finally:
            manager.work.close()
    asyncio.run(run())


def test_a_seat_handed_over_while_the_seats_are_read_stays_handed_over() -> None:
    table = a_table()
    store = SlowStore(table.row, set(), hold="table")

    async def hand_over(manager: Manager) -> None:
        async with table.lock:
            await manager.set_computer(table, 3, True)

    while_held(store, lambda: seats.read_again(store, table),  # type: ignore[arg-type]
               hand_over)
    assert table.is_bot(3)  # the older row read first did not undo it
    assert store.row.seats[3]["computer"]


def test_a_read_begun_while_a_name_is_written_waits_for_it() -> None:
    table = a_table()
    store = SlowStore(table.row, set(), hold="set_seats")

    async def name_ann() -> None:
        async with seats.changing(store, table) as new:  # type: ignore[arg-type]
            new[0]["name"] = "Ann"

    async def read(manager: Manager) -> None:
        await manager.refresh_seats(table)

    while_held(store, name_ann, read)
    assert table.seats[0]["name"] == "Ann" == store.row.seats[0]["name"]
    assert store.calls["table"] == 1  # read once, after the write


def test_a_person_joining_while_who_joined_is_read_starts_the_table() -> None:
    table = a_table(waiting=True, joined=frozenset({0, 2}))
    store = SlowStore(table.row, {0, 2}, hold="joined_seats")

    async def d_joins(manager: Manager) -> None:
        await manager.join(table, 3)

    async def b_joins(manager: Manager) -> None:
        assert table.joined == {0, 2, 3} == store.joined and table.waiting
        await manager.join(table, 1)  # the last person: the game starts

    # B's socket opens (who joined is read), and D joins here meanwhile
    while_held(store, lambda: seats.read_again(store, table),  # type: ignore[arg-type]
               d_joins, b_joins)
    assert table.joined == {0, 1, 2, 3} and not table.waiting and not store.waiting
