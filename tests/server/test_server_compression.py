"""The WebSocket compression the server offers: a window that holds a whole state
message, so that each message, sent after the one before it, takes a few hundred bytes."""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.sync.client import connect

from handfoot.server.diagnostics import bench_messages
from handfoot.server.live import compression
from handfoot.server.live.messages import Broadcast
from handfoot.server.testing import ServerProcess

pytestmark = pytest.mark.served  # (left out of the pure-Python pass: see test.sh)

#: what a browser offers (Chromium: any window for the server, one for itself)
BROWSER_OFFER = [("client_max_window_bits", None)]


def seat_messages(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The state messages seat 0 is sent, move after move, through a six-deck hand."""
    written: list[bytes] = []

    class Keep(Broadcast):
        def data(self, seat: int | None) -> bytes:
            out = super().data(seat)
            if seat == 0:
                written.append(out)
            return out

    monkeypatch.setattr(bench_messages, "Broadcast", Keep)
    bench_messages.measure("six-deck", hands=1, seed=2)
    return written


def sent_bytes(factory: ServerPerMessageDeflateFactory, messages: list[bytes]) -> int:
    """The bytes of every message as compressed by the server's extension, in order
    on one connection (each compressor keeps its window from message to message); each
    is read back whole by a decompressor with the window the extension agreed to."""
    response, extension = factory.process_request_params(BROWSER_OFFER, [])
    bits = dict(response).get("server_max_window_bits")
    reader = zlib.decompressobj(-int(bits or 15))
    sent = 0
    for m in messages:
        data = bytes(extension.encode(Frame(Opcode.TEXT, m)).data)
        assert reader.decompress(data + b"\x00\x00\xff\xff") == m
        sent += len(data)
    return sent


def test_state_messages_compress_against_the_one_before(
        monkeypatch: pytest.MonkeyPatch) -> None:
    messages = seat_messages(monkeypatch)
    assert len(messages) > 100 and max(len(m) for m in messages) > 6000
    assert max(len(m) for m in messages) < 1 << compression.WINDOW_BITS  # each fits
    ours = sent_bytes(compression.deflate(), messages)  # (ISA-L, its fastest level)
    uvicorns = sent_bytes(ServerPerMessageDeflateFactory(
        server_max_window_bits=12, client_max_window_bits=12,
        compress_settings={"memLevel": 5}), messages)
    zlibs = sent_bytes(ServerPerMessageDeflateFactory(  # zlib with the larger window
        server_max_window_bits=compression.WINDOW_BITS, client_max_window_bits=12,
        compress_settings={"memLevel": 5}), messages)
    raw = sum(len(m) for m in messages)
    # about 445 bytes a message (zlib with the same window: 128; with a 4 KB window:
    # 1,440; the module's figures), read back with the 16 KB window
    assert zlibs < ours and ours * 2 < uvicorns < raw
    assert ours < 600 * len(messages)


@pytest.fixture
def server(sqlite_url: str) -> Iterator[ServerProcess]:
    with ServerProcess(sqlite_url, bot_delay=0.0) as s:
        yield s


def test_the_server_compresses_with_the_larger_window(server: ServerProcess) -> None:
    out = server.post("/api/play", {"rules": "six-deck", "level": "random", "seed": 3})
    url = f"ws://127.0.0.1:{server.port}/ws/{out['id']}?token={out['token']}"
    with connect(url, max_size=1 << 24, open_timeout=10) as ws:
        assert ws.response is not None
        agreed = ws.response.headers["Sec-WebSocket-Extensions"]
        assert agreed.startswith("permessage-deflate")
        assert f"server_max_window_bits={compression.WINDOW_BITS}" in agreed
        states: list[dict[str, Any]] = []
        while len(states) < 3:  # a client with the usual window reads them whole
            msg = orjson.loads(ws.recv(timeout=10))
            if msg["type"] != "state":
                continue
            states.append(msg)
            if msg["legal"]:  # this seat to act: the next message follows the move
                ws.send(orjson.dumps({"type": "action", "action": msg["legal"][0]}).decode())
        assert all(s["seat"] == 0 and s["view"]["hand"] for s in states)
        assert states[0]["seq"] < states[1]["seq"] < states[2]["seq"]
