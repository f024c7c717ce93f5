"""Several server processes on one PostgreSQL database, one set of live tables.

Every process keeps its own copy of the tables its clients watch; the action log stays
the source of truth. What keeps the copies in step:

* **Notifications** (:class:`Bus`). Each change is announced with PostgreSQL's
  ``NOTIFY`` in the transaction that makes it (:class:`handfoot.server.storage.store.Store`), so
  every process hears of it when, and only if, it is committed: an action (the table,
  its new number, and the action itself when it is small), seats changed (a seat handed
  to the computer, a new invite link), time called, the monitor's notice, a round's
  clock started. Each process listens on one connection of its own (``LISTEN``),
  applies what it hears to the tables it has in memory (reading the log whenever it
  misses a number) and pushes to its own clients. If that connection is lost, the
  process reads the log again for every live table once it is back.
* **Keepers** (:class:`Keepers`). Exactly one process runs a table's computer players:
  the one holding the table's PostgreSQL advisory lock (a session lock, on a
  connection of its own). When that process dies, even by ``kill -9``, PostgreSQL
  drops its connection and the lock with it; every process looks for tables without
  a keeper every :data:`SWEEP` seconds and takes them. A new keeper reads the log
  before its computers decide (:meth:`Keepers.newly_taken`: the moves its last keeper
  wrote may not have been heard yet); a finished game's keeper lets it go once its
  result is written. An action is still written
  only if its number is free (the log's key), so even a process that lost its lock
  without knowing it cannot make a computer play twice.

With SQLite there is one process and nothing to share: :class:`LocalKeepers` keeps every
table and no bus runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import orjson
import sqlalchemy as sa

from handfoot.server.storage.store import CHANNEL

log = logging.getLogger("handfoot.server")

SWEEP = 1.0  #: seconds between two looks for tables without a keeper
#: seconds the notices are left to gather before they are read: each read of the
#: connection (waiting for it, reading, its wait ended) costs the event loop some 100
#: µs of system calls on a busy machine, whether it brings one notice or forty; most
#: notices are of tables this process does not hold, and one it follows is seen this
#: much later at most
GATHER = 0.015
#: seconds between two looks for the server processes still running (whose people the
#: others count as here)
ALIVE = 5.0
#: the start of each process's keeper connection's name (its origin follows)
KEEPER_NAME = "handfoot keeper "
REFUSED = 30.0  #: seconds before asking again for a table another process keeps
RETRY = 1.0  #: seconds before a lost connection to PostgreSQL is made again
#: TCP keepalives: a database server that vanished is noticed within about 20 seconds
KEEPALIVES: dict[str, Any] = {"keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 5,
              "keepalives_count": 3}

Handler = Callable[[dict[str, Any]], Awaitable[None] | None]
T = TypeVar("T")


async def once(pending: dict[str, asyncio.Future[T]], key: str,
               work: Callable[[], Awaitable[T]]) -> T:
    """``work()``'s answer, asked once at a time for ``key``: a caller that comes while
    it is on its way waits for the same answer (``pending`` holds those on their way)."""
    known = pending.get(key)
    if known is not None:
        return await asyncio.shield(known)
    future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
    pending[key] = future
    try:
        answer = await work()
    except BaseException as e:
        future.set_exception(e)
        future.exception()  # retrieved: no warning if nobody else waits
        raise
    finally:
        pending.pop(key, None)
    future.set_result(answer)
    return answer


def psycopg_url(url: str) -> str:
    """The libpq address of an SQLAlchemy PostgreSQL URL."""
    return sa.engine.make_url(url).set(drivername="postgresql").render_as_string(
        hide_password=False)


def new_origin() -> str:
    """A name for this process in the notifications it sends (never a secret)."""
    return secrets.token_hex(4)


class Bus:
    """Listens for the changes other processes announce, and hands each to the handler
    registered for its kind (``act``, ``seats``, ``time``, ``notice``, ``clock``)."""

    def __init__(self, url: str, origin: str, gather: float = GATHER) -> None:
        self.url = psycopg_url(url)
        self.origin = origin
        #: how this process's own notices begin (each names its origin first)
        own = orjson.dumps({"o": origin}).decode()[:-1]
        self._own = (own, "[" + own)
        self.gather = gather
        self.handlers: dict[str, Handler] = {}
        #: called after the connection was lost and made again (notices may be missed)
        self.on_reconnect: list[Callable[[], Awaitable[None]]] = []
        self.healthy = False
        self.heard = 0
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._pending: set[asyncio.Task[Any]] = set()

    def on(self, kind: str, handler: Handler) -> None:
        self.handlers[kind] = handler

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._listen())

    async def started(self, timeout: float = 10.0) -> None:
        """Wait until the first ``LISTEN`` is in place (or ``timeout`` passed)."""
        for _ in range(int(timeout / 0.02)):
            if self.healthy or self._closing:
                return
            await asyncio.sleep(0.02)

    async def _listen(self) -> None:
        import psycopg
        first = True
        while not self._closing:
            try:
                conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True,
                                                             **KEEPALIVES)
            except Exception as e:
                log.warning("cannot listen for other server processes: %s", e)
                await asyncio.sleep(RETRY)
                continue
            try:
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.healthy = True
                    if not first:
                        for hook in self.on_reconnect:
                            self._spawn(hook())
                    first = False
                    while True:
                        # all the notices that came together, then a pause while
                        # more come (see GATHER)
                        async for note in conn.notifies(stop_after=1):
                            self._dispatch(note.payload)
                        await asyncio.sleep(self.gather)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if not self._closing:
                    log.warning("lost the connection for notices: %s", e)
            self.healthy = False
            if not self._closing:
                await asyncio.sleep(RETRY)

    def _dispatch(self, payload: str) -> None:
        """A notice, or several written together (a JSON array: the actions one
        statement appended)."""
        if payload.startswith(self._own):
            return  # our own change (or changes): applied here already, and not read
        try:
            heard = orjson.loads(payload)  # (every other process's notices are read)
        except ValueError:
            return
        for note in heard if isinstance(heard, list) else (heard,):
            self._handle(note, payload)

    def _handle(self, note: Any, payload: str) -> None:
        if not isinstance(note, dict) or note.get("o") == self.origin:
            return  # our own change: applied here already
        handler = self.handlers.get(str(note.get("k")))
        if handler is None:
            return
        self.heard += 1
        try:
            result = handler(note)
        except Exception:
            log.exception("a notice from another server process: %s", payload[:200])
            return
        if result is not None:
            self._spawn(result)

    def _spawn(self, work: Awaitable[Any]) -> None:
        async def run() -> None:
            try:
                await work
            except Exception:
                if not self._closing:
                    log.exception("handling a notice from another server process")
        task = asyncio.get_running_loop().create_task(run())
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def close(self) -> None:
        self._closing = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        for task in list(self._pending):
            task.cancel()


class LocalKeepers:
    """One process: it keeps (runs the computer players of) every table."""

    shared = False

    def __init__(self) -> None:
        self.kept: set[str] = set()

    def keeps(self, table_id: str) -> bool:
        return True

    async def take(self, table_id: str) -> bool:
        return True

    def newly_taken(self, table_id: str) -> bool:
        """Whether the table was taken since this was last asked: its copy here may then
        be behind the log (the moves its last keeper wrote just before it let go are
        heard a moment later), so the log is read before its computers decide."""
        return False

    def release(self, table_id: str) -> None:
        pass

    def start(self, on_taken: Callable[[list[str]], Awaitable[None]],
              on_running: Callable[[set[str]], Awaitable[None]] | None = None) -> None:
        pass

    async def close(self) -> None:
        pass


class Keepers(LocalKeepers):
    """The tables whose computer players this process runs: those whose advisory lock
    (``pg_try_advisory_lock(hashtextextended(id, 2))``, a key of 64 bits) it holds on
    its own connection."""

    shared = True

    def __init__(self, url: str, sweep: float = SWEEP, origin: str = "") -> None:
        super().__init__()
        self.url = psycopg_url(url)
        self.origin = origin  #: this process, named in its connection's name
        self.sweep_every = sweep
        self._conn: Any = None
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._releasing: set[asyncio.Task[None]] = set()
        self._refused: dict[str, float] = {}
        self._taking: dict[str, asyncio.Future[bool]] = {}
        self._new: set[str] = set()  #: taken, and not read from the log since

    def newly_taken(self, table_id: str) -> bool:
        if table_id in self._new:
            self._new.discard(table_id)
            return table_id in self.kept
        return False

    def keeps(self, table_id: str) -> bool:
        return table_id in self.kept

    async def _connection(self) -> Any:
        import psycopg
        if self._conn is None or self._conn.closed:
            self.kept.clear()  # a new session holds no lock
            self._conn = await psycopg.AsyncConnection.connect(
                self.url, autocommit=True, application_name=KEEPER_NAME + self.origin,
                **KEEPALIVES)
        return self._conn

    async def _query(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        async with self._lock:
            try:
                conn = await self._connection()
                cur = await conn.execute(sql, params)
                return list(await cur.fetchall()) if cur.description else []
            except Exception:
                # the session, and every lock it held, may be gone: start again
                self.kept.clear()
                if self._conn is not None:
                    with contextlib.suppress(Exception):
                        await self._conn.close()
                self._conn = None
                raise

    async def take(self, table_id: str) -> bool:
        """Become the table's keeper if nobody is. (One question at a time for a
        table: a session's advisory lock taken twice must be given back twice.)"""
        if table_id in self.kept:
            return True
        return await once(self._taking, table_id, lambda: self._take(table_id))

    async def _take(self, table_id: str) -> bool:
        now = time.monotonic()
        if now - self._refused.get(table_id, -1e9) < REFUSED:
            return False  # another process keeps it (asked lately; the sweep finds it
            # if that process stops)
        if len(self._refused) > 10_000:
            self._refused = {k: v for k, v in self._refused.items() if now - v < REFUSED}
        rows = await self._query("SELECT pg_try_advisory_lock(hashtextextended(%s, 2))",
                                 (table_id,))
        if rows and rows[0][0]:
            self.kept.add(table_id)
            self._new.add(table_id)
            return True
        self._refused[table_id] = now
        return False

    def release(self, table_id: str) -> None:
        """The game is over: another process need not keep it either."""
        if table_id not in self.kept or self._closing:
            return
        self.kept.discard(table_id)
        self._new.discard(table_id)

        async def unlock() -> None:
            with contextlib.suppress(Exception):
                await self._query("SELECT pg_advisory_unlock(hashtextextended(%s, 2))",
                                  (table_id,))
        task = asyncio.get_running_loop().create_task(unlock())
        self._releasing.add(task)
        task.add_done_callback(self._releasing.discard)

    async def sweep(self) -> list[str]:
        """Take every unfinished table that has no keeper; the tables taken."""
        rows = await self._query(_ORPHANS, (list(self.kept),))
        taken = [str(r[0]) for r in rows]
        self.kept.update(taken)
        self._new.update(taken)
        return taken

    async def keeper_of(self, table_id: str) -> str | None:
        """The origin of the process that keeps the table (None: nobody does)."""
        if table_id in self.kept:
            return self.origin
        rows = await self._query(_KEEPER, (table_id,))
        return str(rows[0][0])[len(KEEPER_NAME):] if rows else None

    async def running(self) -> set[str]:
        """The origins of the server processes running now: those whose keeper
        connection PostgreSQL still holds (a process killed, even by ``kill -9``, loses
        it at once)."""
        rows = await self._query(
            "SELECT application_name FROM pg_stat_activity WHERE application_name LIKE %s",
            (KEEPER_NAME + "%",))
        return {str(r[0])[len(KEEPER_NAME):] for r in rows}

    def start(self, on_taken: Callable[[list[str]], Awaitable[None]],
              on_running: Callable[[set[str]], Awaitable[None]] | None = None) -> None:
        async def run() -> None:
            looked = 0.0
            while not self._closing:
                try:
                    taken = await self.sweep()
                    if taken:
                        await on_taken(taken)
                    if on_running is not None and time.monotonic() - looked >= ALIVE:
                        looked = time.monotonic()
                        await on_running(await self.running())
                except asyncio.CancelledError:
                    raise
                except Exception as e:
                    if not self._closing:
                        log.warning("looking for tables without a keeper: %s", e)
                await asyncio.sleep(self.sweep_every)
        self._task = asyncio.get_running_loop().create_task(run())

    async def close(self) -> None:
        self._closing = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()


# unfinished tables whose lock nobody holds (pg_locks shows an advisory lock of one 64-bit
# key as classid, its high 32 bits, and objid, its low ones, with objsubid 1), then those
# this session gets (one statement: the candidates are fixed before any lock is tried)
_ORPHANS = """
WITH candidates AS MATERIALIZED (
    SELECT t.id FROM tables t
    WHERE t.result_json IS NULL AND NOT (t.id = ANY(%s))
      AND NOT EXISTS (
        SELECT 1 FROM pg_locks l
        WHERE l.locktype = 'advisory' AND l.objsubid = 1
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended(t.id, 2))
)
SELECT id FROM candidates WHERE pg_try_advisory_lock(hashtextextended(id, 2))
"""
# the keeper connection holding a table's lock (its name holds the process's origin)
_KEEPER = """
SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended(%s, 2)
  AND a.application_name LIKE 'handfoot keeper %%'
LIMIT 1
"""
