"""Appending actions to PostgreSQL from the event loop itself.

Every move is written to the log before it is applied; with PostgreSQL it is one
statement that appends the action and announces it to the other processes
(:data:`handfoot.server.storage.store.APPEND_NOTIFY_SQL`). Written through the store's
SQLAlchemy engine, each append ran in a thread of its own (``asyncio.to_thread``): on
a busy server that thread, done with the database, waited for the interpreter lock
while the event loop worked (up to 5 ms, the interpreter's switch interval), then
handed its answer back through the loop's own queue. :class:`Appender` sends the same
statement over psycopg's asynchronous connections (a few, in psycopg's own pool), so
the event loop waits for the database as it waits for a socket, without a thread.

Tables where time may be called (a club event's) keep the store's path: their actions
are written under the table's lock, one after another with a time call.

The actions waiting are written together: while one statement is on its way, the
appends asked for meanwhile wait, and the next statement writes them all
(:data:`handfoot.server.storage.store.APPEND_MANY_NOTIFY_SQL`: the rows as one JSON parameter,
one row each, and one notice for them all, as many as fit in PostgreSQL's 8,000 bytes).
A busy server so
sends fewer statements, and the database commits fewer transactions, the busier it
is; a quiet one writes each action at once, alone. Each action is still written only
if its number is free and time was not called unknown to its writer; one refused is
written again alone, so that its writer hears why (:class:`SeqTaken`,
:class:`TimeCalled`).
"""

from __future__ import annotations

import asyncio
from typing import Any

import orjson

from handfoot.server.processes.sync import KEEPALIVES, psycopg_url
from handfoot.server.storage.store import (
    APPEND_MANY_NOTIFY_SQL,
    APPEND_NOTIFY_SQL,
    CHANNEL,
    NOTICE_BYTES,
    SeqTaken,
    Store,
    TimeCalled,
    append_notify_args,
)

#: connections a process keeps for its appends (each statement is short)
CONNECTIONS = 4
#: statements on their way at once (each writes every append waiting when it starts)
WRITERS = 2
#: the most actions one statement writes
MOST = 200

#: an append waiting: its row's arguments, its notice (JSON), and its writer's answer
_Waiting = tuple[dict[str, Any], str, "asyncio.Future[None]"]


class Appender:
    """The store's quick appends (PostgreSQL, tables without a clock), on the loop."""

    def __init__(self, store: Store, connections: int = CONNECTIONS,
                 writers: int = WRITERS) -> None:
        self.store = store
        self.connections = connections
        self.writers = max(1, min(writers, connections))
        self._pool: Any = None
        self._waiting: list[_Waiting] = []
        self._writing = 0  #: statements on their way
        self.statements = 0  #: statements sent (for the load test's figures)
        self.appended = 0  #: actions written

    async def _open(self) -> Any:
        if self._pool is None:
            from psycopg_pool import AsyncConnectionPool
            pool = AsyncConnectionPool(
                psycopg_url(self.store.url), min_size=1, max_size=self.connections,
                kwargs={"autocommit": True, **KEEPALIVES}, open=False,
                name="handfoot appends")
            await pool.open(wait=False)
            self._pool = pool
        return self._pool

    async def append(self, table_id: str, seq: int, seat: int | None,
                     action: dict[str, Any], time_seq: int | None) -> None:
        """As :meth:`Store.append_action` for a table without a clock: raises
        :class:`SeqTaken` if another writer got there first, :class:`TimeCalled` if
        time was called; returns once the action is committed and announced."""
        params, note = self.store.append_params(table_id, seq, seat, action, time_seq)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((params, orjson.dumps(note).decode(), done))
        if self._writing < self.writers:
            self._writing += 1
            asyncio.get_running_loop().create_task(self._write())
        await done

    async def _write(self) -> None:
        """Write what waits, statement after statement, until nothing does."""
        try:
            while self._waiting:
                batch = self._next_batch()
                try:
                    await self._write_batch(batch)
                except BaseException as e:  # (cancelled: the server stops)
                    for _, _, done in batch:
                        if not done.done():
                            done.set_exception(e)
                    if not isinstance(e, Exception):
                        raise
        finally:
            self._writing -= 1

    def _next_batch(self) -> list[_Waiting]:
        """The appends the next statement writes: the first waiting, and those after
        it while their notices fit in one (and at most :data:`MOST`)."""
        waiting = self._waiting
        size = len(waiting[0][1]) + 2
        end = 1
        while end < len(waiting) and end < MOST:
            size += len(waiting[end][1]) + 1
            if size > NOTICE_BYTES:
                break
            end += 1
        batch, self._waiting = waiting[:end], waiting[end:]
        return batch

    async def _write_batch(self, batch: list[_Waiting]) -> None:
        pool = await self._open()
        if len(batch) == 1:  # alone: the statement that says why it was refused
            params, note, done = batch[0]
            await self._write_one(pool, params, note, done)
            return
        # the rows as one JSON parameter: psycopg wrote seven arrays in Python, 0.5 ms
        # for two rows and 2.3 ms for twenty (JSON: 0.2 ms for either)
        rows = orjson.dumps([{**params, "note": note} for params, note, _ in batch]).decode()
        async with pool.connection() as conn:
            cursor = await conn.execute(APPEND_MANY_NOTIFY_SQL, (rows, CHANNEL))
            written = {(str(t), int(n)) for t, n in await cursor.fetchall()}
        self.statements += 1
        self.appended += len(written)
        for params, note, done in batch:
            if (params["t"], params["seq"]) in written:
                if not done.done():
                    done.set_result(None)
            else:  # refused: written again alone, to tell its writer why
                await self._write_one(pool, params, note, done)

    async def _write_one(self, pool: Any, params: dict[str, Any], note: str,
                         done: asyncio.Future[None]) -> None:
        import psycopg
        try:
            async with pool.connection() as conn:
                cursor = await conn.execute(APPEND_NOTIFY_SQL,
                                            append_notify_args(params, note))
                row = await cursor.fetchone()
        except psycopg.errors.UniqueViolation as e:
            taken = SeqTaken(
                f"action {params['seq']} of table {params['t']} is already written")
            taken.__cause__ = e
            error: BaseException | None = taken
        except Exception as e:
            error = e
        else:
            self.statements += 1
            error = None if row is not None else TimeCalled(
                f"time was called at table {params['t']}")
            if error is None:
                self.appended += 1
        if done.done():
            return
        if error is None:
            done.set_result(None)
        else:
            done.set_exception(error)

    async def close(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()
