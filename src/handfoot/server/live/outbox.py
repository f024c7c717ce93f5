"""One WebSocket's outgoing messages: a bounded queue that keeps only the latest state,
sent by its own task with a time limit, so that no client can hold up a table.

A client that does not keep up (a send not taken within :data:`SEND_TIMEOUT` seconds,
or more than :data:`MAX_QUEUE` messages waiting) is dropped; it can reconnect and gets
the whole state again.

Most messages do not wait at all: when nothing is queued and the socket takes more
(its transport below its high-water mark), a message is written at once through
``write_now`` (the server's WebSocket protocol's own, see
:mod:`handfoot.server.live.compression`): framed, compressed and handed to the transport in
the step that made it, without a task woken for it, a timer set for its time limit, or
the ASGI layers between the application and the socket. Only a socket that does not
take its messages as they come (its transport's buffer full) goes through the queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from handfoot.server.diagnostics import cpu

log = logging.getLogger("handfoot.server")

SEND_TIMEOUT = 5.0  #: seconds one message may take to go out
MAX_QUEUE = 32  #: messages waiting (a newer state replaces a waiting one)
CLOSED = "closed"  #: why a client is no longer sent to: it closed its socket

SendText = Callable[[str], Awaitable[None]]
Close = Callable[[int, str], Awaitable[None]]
#: writes a message (text, or text in UTF-8) at once and says True, or says False (the
#: socket's buffer is full, or it is closing) and writes nothing
WriteNow = Callable[[str | bytes], bool]


class Connection:
    """A client watching a table: its seat (None: a spectator) and its outgoing queue."""

    def __init__(self, seat: int | None, send_text: SendText | None = None,
                 close: Close | None = None, token: str | None = None,
                 send_timeout: float = SEND_TIMEOUT, write_now: WriteNow | None = None
                 ) -> None:
        self.seat = seat
        self.token = token
        self._send_text = send_text
        self._write_now = write_now
        self.sending = False  #: the task is sending a message (later ones wait behind it)
        self._close = close
        self.send_timeout = send_timeout
        #: each message, and its JSON text (or that text in UTF-8) when it was written
        #: once for several clients
        self.queue: deque[tuple[Mapping[str, Any], str | bytes | None]] = deque()
        self.ready = asyncio.Event()
        self.dropped = False
        self.why = ""
        self.task: asyncio.Task[None] | None = None
        self.closing: asyncio.Task[None] | None = None

    @property
    def heard(self) -> bool:
        """Whether the client's messages are still read: until this server drops it. A
        client that closed its own end is read to the end of what it sent (a move, or a
        seat handed to the computer, sent just before the page closed still counts)."""
        return not self.dropped or self.why == CLOSED

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())

    def push(self, msg: Mapping[str, Any], text: str | bytes | None = None) -> None:
        """Queue a message (never waits); a state replaces the state still waiting.
        ``text``: the message as JSON (text, or text in UTF-8), if it was written
        already."""
        if self.dropped:
            return
        if self._write_now is not None and not self.queue and not self.sending:
            start = cpu.now()
            if self._write_now(text or json.dumps(msg)):
                cpu.spent("socket write", start)
                return
        if msg.get("type") == "state":
            for old in [m for m in self.queue if m[0].get("type") == "state"]:
                self.queue.remove(old)
        self.queue.append((msg, text))
        if len(self.queue) > MAX_QUEUE:
            self.drop("too many messages waiting")
            return
        self.ready.set()

    async def send(self, msg: Mapping[str, Any]) -> None:
        self.push(msg)

    def drop(self, why: str, code: int = 1008, farewell: Mapping[str, Any] | None = None
             ) -> None:
        """Stop sending to this client and close its socket (in the background), after
        a last message if one is given."""
        if self.dropped:
            return
        self.dropped, self.why = True, why
        self.queue.clear()
        self.ready.set()
        task = asyncio.get_running_loop().create_task(self._closing(code, farewell))
        self.closing = task
        _background.add(task)
        task.add_done_callback(_background.discard)

    async def _closing(self, code: int, farewell: Mapping[str, Any] | None) -> None:
        if self.task is not None and not self.task.done() \
                and self.task is not asyncio.current_task():
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        if farewell is not None and self._send_text is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._send_text(json.dumps(farewell)),
                                       self.send_timeout)
        if self._close is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._close(code, self.why), self.send_timeout)

    async def _run(self) -> None:
        try:
            while not self.dropped:
                await self.ready.wait()
                self.ready.clear()
                while self.queue and not self.dropped:
                    msg, text = self.queue.popleft()
                    if self._send_text is None:
                        continue
                    self.sending = True
                    try:
                        start = cpu.now()
                        # a timer, not a task for each message (wait_for made one)
                        async with asyncio.timeout(self.send_timeout):
                            out = text or json.dumps(msg)
                            await self._send_text(
                                out.decode() if isinstance(out, bytes) else out)
                        cpu.spent("socket send", start)
                    except TimeoutError:
                        log.info("dropped a client that does not read its messages")
                        self.drop("the connection does not keep up")
                        return
                    except Exception:  # the socket is closed: its handler ends
                        self.dropped, self.why = True, CLOSED
                        return
                    finally:
                        self.sending = False
        except asyncio.CancelledError:
            pass

    async def stop(self) -> None:
        """The client left (or was dropped): stop the sending task, once the last
        message of a drop has gone out."""
        if self.closing is not None and self.closing is not asyncio.current_task():
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(self.closing), 2 * self.send_timeout)
        self.dropped = True
        self.ready.set()
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task


_background: set[asyncio.Task[None]] = set()
