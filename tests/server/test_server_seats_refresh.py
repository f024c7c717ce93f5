"""Reading a table's seats again never undoes a change this process made meanwhile
(a seat handed to the computer here while another process's notice was being read:
the table's keeper then saw a person at that seat, and its computer never played; a
person joining here while who had joined was being read: the table waited for them for
ever)."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import threading
from typing import Any

import pytest

from handfoot.rules import preset
from handfoot.server.live.manager import Manager
from handfoot.server.live.table import LiveTable
from handfoot.server.offloop.pool import ServedGame
from handfoot.server.storage.store import TableRow

pytestmark = pytest.mark.served  # (left out of the pure-Python pass: see test.sh)


class SlowStore:
    """A store whose first read of the table waits until the test lets it go, and then
    answers with the row as it was when the read began."""

    postgres = False

    def __init__(self, row: TableRow) -> None:
        self.row = row
        self.reads = 0
        self.reading = threading.Event()
        self.go_on = threading.Event()

    def table(self, table_id: str) -> TableRow:
        self.reads += 1
        answer = self.row
        if self.reads == 1:
            self.reading.set()
            self.go_on.wait(10)
        return answer


def test_a_seat_handed_over_while_the_seats_are_read_stays_handed_over() -> None:
    rules = preset("texas-good-sam")
    seats: list[dict[str, Any]] = [{"kind": "human", "name": n} for n in "ABCD"]
    row = TableRow(id="t1", rules_name="texas-good-sam", rules_toml="", seed=1,
                   seats=seats, created=dt.datetime.now(dt.UTC))
    table = LiveTable(row=row, rules=rules, game=ServedGame(rules, 1))
    store = SlowStore(row)

    async def run() -> None:
        manager = Manager(store, bot_delay=0.0)  # type: ignore[arg-type]
        try:
            refresh = asyncio.create_task(manager.refresh_seats(table))
            await asyncio.to_thread(store.reading.wait, 10)
            # seat 3 handed to the computer here, and written, while the read was on
            handed = [dict(s) for s in seats]
            handed[3]["computer"] = True
            store.row = dataclasses.replace(row, seats=handed)
            table.row = dataclasses.replace(table.row, seats=handed)
            store.go_on.set()
            await refresh
        finally:
            manager.work.close()

    asyncio.run(run())
    assert table.is_bot(3)  # the older row read first did not undo it
    assert store.reads == 2  # it was read again, and that read agreed


class SlowJoins:
    """A store of who has joined whose first read waits until the test lets it go, and
    then answers with the people who had joined when the read began."""

    postgres = False

    def __init__(self, joined: set[int]) -> None:
        self.joined = set(joined)
        self.waiting = True
        self.reads = 0
        self.reading = threading.Event()
        self.go_on = threading.Event()

    def joined_seats(self, table_id: str) -> set[int]:
        self.reads += 1
        answer = set(self.joined)
        if self.reads == 1:
            self.reading.set()
            self.go_on.wait(10)
        return answer

    def is_waiting(self, table_id: str) -> bool:
        return self.waiting

    def join_seat(self, table_id: str, seat: int) -> None:
        self.joined.add(seat)

    def start_table(self, table_id: str) -> bool:
        started, self.waiting = self.waiting, False
        return started


def test_a_person_joining_while_who_joined_is_read_starts_the_table() -> None:
    rules = preset("texas-good-sam")
    seats: list[dict[str, Any]] = [{"kind": "human", "name": n} for n in "ABCD"]
    row = TableRow(id="t1", rules_name="texas-good-sam", rules_toml="", seed=1,
                   seats=seats, created=dt.datetime.now(dt.UTC))
    table = LiveTable(row=row, rules=rules, game=ServedGame(rules, 1), waiting=True,
                      joined={0, 2})
    store = SlowJoins({0, 2})

    async def run() -> None:
        manager = Manager(store, bot_delay=0.0)  # type: ignore[arg-type]
        try:
            # B's socket opens (who joined is read), and D joins here meanwhile
            refresh = asyncio.create_task(manager.refresh_waiting(table))
            await asyncio.to_thread(store.reading.wait, 10)
            await manager.join(table, 3)
            store.go_on.set()
            await refresh
            assert table.joined == {0, 2, 3} and table.waiting  # the older read undid nothing
            await manager.join(table, 1)  # the last person: the game starts
        finally:
            manager.work.close()

    asyncio.run(run())
    assert table.joined == {0, 1, 2, 3}
    assert not table.waiting and not store.waiting
    assert store.reads == 2  # the read begun before D joined was read again
