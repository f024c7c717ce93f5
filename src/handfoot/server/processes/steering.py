"""Each table's sockets on the process that keeps it (``serve --workers N``).

With several processes on one address the kernel hands each new connection to a process
at random (``SO_REUSEPORT``), so the sockets of one table were spread over the
processes, and every move was applied, told in the log and announced in each process
that had a socket there. A process now reads the first line of each connection it
accepts, without taking it from the socket (``MSG_PEEK``): a table's WebSocket
(``GET /ws/ID``) whose table another process keeps (runs its computer players, see
:class:`handfoot.server.processes.sync.Keepers`) is handed to that process whole, the socket
itself passed over a Unix socket (``SCM_RIGHTS``); everything else is served where it
arrived. The process that receives it serves it as if it had accepted it (the client's
address is the socket's own). So a table's moves are applied and pushed by one process,
and the others need not follow them.

Nothing depends on it: a connection that cannot be handed over (the keeper is being
started again, or nobody keeps the table yet) is served where it arrived, and the
processes keep in step through the database as before. ``handfoot serve --no-steering``
leaves the connections where the kernel put them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

log = logging.getLogger("handfoot.server")

#: seconds a new connection may take to send its first line before it is served where
#: it arrived (uvicorn's own time limits then apply)
PEEK_WAIT = 2.0
#: the most of a request's start read to find its path
PEEK_BYTES = 256
_WS = b"GET /ws/"

#: this process's sockets handed to another process, and handed to it (``/api/server``)
COUNTS = {"handed": 0, "received": 0}

#: the process that keeps a table (its index), None: none, or this one
KeeperOf = Callable[[str], Awaitable[int | None]]


def ws_table(head: bytes) -> str | None:
    """The table of a WebSocket request's first line, if it is one.

    >>> ws_table(b"GET /ws/ab12?token=x HTTP/1.1\\r\\nHost: h")
    'ab12'
    >>> ws_table(b"GET /api/tables/ab12 HTTP/1.1") is None, ws_table(b"GET /ws/a-b HTTP/1.1")
    (True, None)
    """
    if not head.startswith(_WS):
        return None
    rest = head[len(_WS):]
    end = len(rest)
    for stop in (b" ", b"?", b"/", b"#"):
        i = rest.find(stop)
        if 0 <= i < end:
            end = i
    tid = rest[:end]
    if end == len(rest) or not 0 < len(tid) <= 32 or not tid.isalnum() or not tid.isascii():
        return None
    return tid.decode()


def process_of(origin: str) -> int | None:
    """A server process's index in its origin (``serve --workers``: ``HEXwN``)."""
    _, w, index = origin.rpartition("w")
    return int(index) if w and index.isdigit() else None


class Steering:
    """Accepts this process's connections and hands a table's sockets to its keeper.

    ``outlets[j]``: a datagram socket to process j (this process's own is unused);
    ``inlet``: where the others' sockets come to this one; ``factory``: uvicorn's
    protocol for a connection; ``keeper_of``: which process keeps a table."""

    def __init__(self, listener: socket.socket, index: int, outlets: list[socket.socket],
                 inlet: socket.socket, factory: Callable[[], asyncio.Protocol],
                 keeper_of: KeeperOf) -> None:
        self.listener = listener
        self.index = index
        self.outlets = outlets
        self.inlet = inlet
        self.factory = factory
        self.keeper_of = keeper_of
        self._tasks: set[asyncio.Task[Any]] = set()
        self._accepting: asyncio.Task[None] | None = None
        self._closed = False

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self.listener.setblocking(False)
        self.inlet.setblocking(False)
        for outlet in self.outlets:
            outlet.setblocking(False)
        loop.add_reader(self.inlet.fileno(), self._receive)
        self._accepting = loop.create_task(self._accept())

    def close(self) -> None:
        """Stop accepting (the connections served go on)."""
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(self.inlet.fileno())
        if self._accepting is not None:
            self._accepting.cancel()
        for task in list(self._tasks):
            task.cancel()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _accept(self) -> None:
        loop = asyncio.get_running_loop()
        while not self._closed:
            try:
                conn, _ = await loop.sock_accept(self.listener)
            except asyncio.CancelledError:
                raise
            except OSError as e:  # out of file descriptors, say: a moment, then on
                log.warning("accepting a connection: %s", e)
                await asyncio.sleep(0.1)
                continue
            self._spawn(self._route(conn))

    async def _route(self, conn: socket.socket, received: bool = False) -> None:
        """Serve a connection accepted here (or hand it over), or one ``received``
        from another process (served here, never handed on)."""
        try:
            conn.setblocking(False)
            table_id = None if received else ws_table(await self._peek(conn))
            if table_id is not None:
                try:
                    keeper = await self.keeper_of(table_id)
                except Exception:  # the database is away: served here
                    keeper = None
                if keeper is not None and keeper != self.index and self._hand(conn, keeper):
                    return
            await asyncio.get_running_loop().connect_accepted_socket(self.factory, conn)
        except asyncio.CancelledError:
            conn.close()
            raise
        except Exception:
            log.exception("a connection%s", " from another process" if received else "")
            conn.close()

    async def _peek(self, conn: socket.socket) -> bytes:
        """The first bytes the client sent, left in the socket (b"" if none came in
        time, or it closed)."""
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()

        def readable() -> None:
            if not ready.done():
                ready.set_result(None)

        fd = conn.fileno()
        loop.add_reader(fd, readable)
        try:
            async with asyncio.timeout(PEEK_WAIT):
                await ready
        except TimeoutError:
            return b""
        finally:
            loop.remove_reader(fd)
        try:
            return conn.recv(PEEK_BYTES, socket.MSG_PEEK)
        except OSError:
            return b""

    def _hand(self, conn: socket.socket, process: int) -> bool:
        """Pass the socket to ``process``; False if it cannot take it now."""
        if not 0 <= process < len(self.outlets):
            return False
        try:
            socket.send_fds(self.outlets[process], [b"s"], [conn.fileno()])
        except OSError:  # its queue is full (it is being started again): served here
            return False
        conn.close()  # (the socket lives on in the other process)
        COUNTS["handed"] += 1
        return True

    def _receive(self) -> None:
        while True:
            try:
                _, fds, _, _ = socket.recv_fds(self.inlet, 16, 16)
            except (BlockingIOError, InterruptedError):
                return
            except OSError as e:
                log.warning("receiving a connection from another process: %s", e)
                return
            if not fds:
                return
            for fd in fds:
                COUNTS["received"] += 1
                self._spawn(self._route(socket.socket(fileno=fd), received=True))


def steered_server(config: Any, listener: socket.socket, index: int,
                   outlets: list[socket.socket], inlet: socket.socket,
                   keeper_of: KeeperOf) -> Any:
    """A uvicorn server whose connections are accepted by :class:`Steering`."""
    import uvicorn

    class SteeredServer(uvicorn.Server):
        steering: Steering | None = None

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=[])  # the application starts; no listener
            if self.should_exit:
                return
            cfg = self.config

            def factory() -> asyncio.Protocol:
                # (as uvicorn's own startup makes each connection's protocol)
                make: Any = cfg.http_protocol_class
                protocol: asyncio.Protocol = make(config=cfg, server_state=self.server_state,
                                                  app_state=self.lifespan.state)
                return protocol

            self.steering = Steering(listener, index, outlets, inlet, factory, keeper_of)
            self.steering.start()

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            if self.steering is not None:
                self.steering.close()
            await super().shutdown(sockets=sockets)

    return SteeredServer(config)


def keeper_lookup(state: Any) -> KeeperOf:
    """Which process keeps a table, asked of the keepers of the application whose
    ``state`` this is (they are made when the application starts)."""

    async def keeper_of(table_id: str) -> int | None:
        manager = getattr(getattr(state, "services", None), "manager", None)
        keepers = getattr(manager, "keepers", None)
        if keepers is None or not keepers.shared:
            return None
        origin = await keepers.keeper_of(table_id)
        return None if origin is None else process_of(origin)

    return keeper_of
