"""Appending actions to PostgreSQL from the event loop itself.

Every move is written to the log before it is applied; with PostgreSQL it is one
statement that appends the action and announces it to the other processes
(:data:`handfoot.server.store.APPEND_NOTIFY_SQL`). Written through the store's
SQLAlchemy engine, each append ran in a thread of its own (``asyncio.to_thread``): on
a busy server that thread, done with the database, waited for the interpreter lock
while the event loop worked (up to 5 ms, the interpreter's switch interval), then
handed its answer back through the loop's own queue. :class:`Appender` sends the same
statement over psycopg's asynchronous connections (a few, in psycopg's own pool), so
the event loop waits for the database as it waits for a socket, without a thread.

Tables where time may be called (a club event's) keep the store's path: their actions
are written under the table's lock, one after another with a time call.
"""

from __future__ import annotations

from typing import Any

from handfoot.server.store import (
    APPEND_NOTIFY_SQL,
    SeqTaken,
    Store,
    TimeCalled,
    append_notify_args,
)
from handfoot.server.sync import KEEPALIVES, psycopg_url

#: connections a process keeps for its appends (each append is one short statement)
CONNECTIONS = 4


class Appender:
    """The store's quick appends (PostgreSQL, tables without a clock), on the loop."""

    def __init__(self, store: Store, connections: int = CONNECTIONS) -> None:
        self.store = store
        self.connections = connections
        self._pool: Any = None

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
        import psycopg
        params, note = self.store.append_params(table_id, seq, seat, action, time_seq)
        pool = await self._open()
        try:
            async with pool.connection() as conn:
                cursor = await conn.execute(APPEND_NOTIFY_SQL,
                                            append_notify_args(params, note))
                row = await cursor.fetchone()
        except psycopg.errors.UniqueViolation as e:
            raise SeqTaken(f"action {seq} of table {table_id} is already written") from e
        if row is None:
            raise TimeCalled(f"time was called at table {table_id}")

    async def close(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()
