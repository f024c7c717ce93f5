"""One socket's outgoing queue (handfoot.server.live.outbox): messages go out in order, a
newer state replaces one still waiting, and a client whose send never completes is
dropped after the time limit, without holding anything else up."""

from __future__ import annotations

import asyncio

import pytest

from handfoot.server.live.outbox import Connection

pytestmark = pytest.mark.served  # (left out of the pure-Python pass: see test.sh)


def test_messages_go_out_and_a_newer_state_replaces_a_waiting_one() -> None:
    sent: list[str] = []

    async def send_text(text: str) -> None:
        sent.append(text)

    async def run() -> None:
        conn = Connection(0, send_text)
        conn.push({"type": "state", "seq": 1}, "s1")
        conn.push({"type": "chat", "text": "hi"}, "c")
        conn.push({"type": "state", "seq": 2}, "s2")  # replaces s1, still waiting
        conn.start()
        await asyncio.sleep(0.05)
        conn.push({"type": "state", "seq": 3})  # written here, no text given
        await asyncio.sleep(0.05)
        await conn.stop()

    asyncio.run(run())
    assert sent == ["c", "s2", '{"type": "state", "seq": 3}']


def test_a_client_that_never_takes_a_message_is_dropped_after_the_time_limit() -> None:
    closed: list[tuple[int, str]] = []

    async def never(text: str) -> None:
        await asyncio.sleep(3600)

    async def close(code: int, why: str) -> None:
        closed.append((code, why))

    async def run() -> tuple[bool, str, float]:
        conn = Connection(None, never, close, send_timeout=0.2)
        conn.start()
        loop = asyncio.get_running_loop()
        start = loop.time()
        conn.push({"type": "state", "seq": 1}, "s")
        while not conn.dropped and loop.time() - start < 5:
            await asyncio.sleep(0.01)
        took = loop.time() - start
        assert conn.closing is not None
        await conn.closing
        await conn.stop()
        return conn.dropped, conn.why, took

    dropped, why, took = asyncio.run(run())
    assert dropped and why == "the connection does not keep up"
    assert 0.2 <= took < 2.0
    assert closed == [(1008, "the connection does not keep up")]


def test_a_message_is_written_at_once_when_nothing_waits_and_queued_in_order_otherwise(
        ) -> None:
    """With a ``write_now`` (the protocol's own), a message goes out in the step that
    pushes it; while the socket takes no more (``write_now`` says False), messages wait
    in the queue, and a later one never overtakes one still waiting or being sent."""
    wire: list[str] = []
    takes = [True]
    gate = asyncio.Event()

    def write_now(text: str | bytes) -> bool:
        if takes[0]:
            wire.append("now " + (text if isinstance(text, str) else text.decode()))
        return takes[0]

    async def send_text(text: str) -> None:
        await gate.wait()  # the socket's buffer drains
        wire.append("queued " + text)

    async def run() -> None:
        conn = Connection(0, send_text, write_now=write_now)
        conn.start()
        conn.push({"type": "chat"}, "a")
        assert wire == ["now a"]  # no step of the loop taken
        takes[0] = False
        conn.push({"type": "chat"}, "b")  # the buffer is full: it waits
        await asyncio.sleep(0.01)  # the task is sending b, and waits for the socket
        assert conn.sending and wire == ["now a"]
        takes[0] = True
        conn.push({"type": "chat"}, "c")  # behind b, though the socket would take it
        assert wire == ["now a"] and [m[1] for m in conn.queue] == ["c"]
        gate.set()
        await asyncio.sleep(0.01)
        assert wire == ["now a", "queued b", "queued c"] and not conn.sending
        conn.push({"type": "chat"}, "d")  # nothing waits: at once again
        assert wire[-1] == "now d"
        await conn.stop()

    asyncio.run(run())
