"""Who sits at a live table, and who has joined it, kept in step with the database.

A table's seats (names, invite links, computers sitting in) and the people who have
joined are held in memory and written to the database, where other server processes
read them. Every change made here, and every read of them from the database, happens
under the table's ``seats_lock``: a read taken while a change was being written (and
so older than it) was otherwise applied over the change and undid it (a person's name
lost from their seat, a person who joined forgotten and the table left waiting for
them, a seat handed to the computer that its keeper then saw as a person's).

Each function waits for the lock (never holding the table's game ``lock`` inside it)
and does its database work in a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator
from typing import Any

from handfoot.server.live.table import LiveTable
from handfoot.server.storage.store import Store

Seats = list[dict[str, Any]]


@contextlib.asynccontextmanager
async def changing(store: Store, table: LiveTable) -> AsyncIterator[Seats]:
    """A copy of the table's seats to change; on leaving the block the table takes it
    and it is written (nothing changes if the block raises)::

        async with seats.changing(store, table) as new:
            new[seat]["name"] = "Ann"
    """
    async with table.seats_lock:
        new = [dict(s) for s in table.seats]
        yield new
        table.row = dataclasses.replace(table.row, seats=new)  # (a new link holds at once)
        await asyncio.to_thread(store.set_seats, table.id, new)


async def read_again(store: Store, table: LiveTable) -> None:
    """Read the seats again (another process may have changed them: a new invite link,
    a seat handed to the computer), and, while the table waits for its people, who has
    joined; a waiting table whose people have all joined starts."""
    async with table.seats_lock:
        row = await asyncio.to_thread(store.table, table.id)
        if row is not None and row.seats != table.seats:
            table.row = dataclasses.replace(table.row, seats=row.seats)
        if table.waiting:
            table.joined, table.waiting = await asyncio.to_thread(_who_joined, store,
                                                                  table.id)
            await _start_if_all_here(store, table)


async def join(store: Store, table: LiveTable, seat: int) -> None:
    """The seat's person opened their invite link; a waiting table whose people have
    all joined starts."""
    async with table.seats_lock:
        if seat not in table.joined:
            table.joined.add(seat)
            await asyncio.to_thread(store.join_seat, table.id, seat)
        await _start_if_all_here(store, table)


async def give_back(store: Store, table: LiveTable, seat: int) -> None:
    """The person came back: a computer that sat in for them (handed their seat while
    they were away, or when the table was started without them) gives it back."""
    if table.seats[seat].get("stand_in"):
        async with changing(store, table) as new:
            new[seat].pop("stand_in", None)
            new[seat]["computer"] = False


async def unjoin(store: Store, table: LiveTable, seat: int) -> None:
    """The seat has a new invite link: nobody has joined with it yet."""
    async with table.seats_lock:
        table.joined.discard(seat)
        await asyncio.to_thread(store.unjoin_seat, table.id, seat)


async def start(store: Store, table: LiveTable, level: str) -> None:
    """Start a waiting table now: computer players (at ``level``) take the seats of
    the people who have not joined (each takes their seat back on joining)."""
    async with changing(store, table) as new:
        for i in table.waiting_for():
            new[i].update(computer=True, stand_in=True)
            new[i].setdefault("level", level)
    async with table.seats_lock:
        if table.waiting:
            table.waiting = False
            await asyncio.to_thread(store.start_table, table.id)


async def _start_if_all_here(store: Store, table: LiveTable) -> None:
    if table.waiting and not table.waiting_for():
        table.waiting = False
        await asyncio.to_thread(store.start_table, table.id)


def _who_joined(store: Store, table_id: str) -> tuple[set[int], bool]:
    return store.joined_seats(table_id), store.is_waiting(table_id)
