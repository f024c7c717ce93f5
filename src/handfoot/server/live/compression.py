"""WebSocket compression suited to the state messages.

Browsers and the server compress each WebSocket message (permessage-deflate), and
each side keeps its compressor's window from one message to the next. A state message
(7 to 10 KB of JSON in a six-deck hand) differs little from the one before it, so a
window that holds the whole previous message compresses it to about a hundred bytes.
uvicorn's default window is 4 KB (``server_max_window_bits=12``): it sees only part of
the previous message, so each one still takes about 1.4 KB and twice the time.

Measured on the messages one seat receives through a six-deck hand
(``zlib`` level 6, memory level 5): 4 KB window, 94 µs and 1,440 bytes a message;
16 KB window, 38 µs and 124 bytes. The larger window costs about 60 KB more memory
per connection (about 90 KB in all: some 225 MB for 2,500 sockets).

Compressing was then the largest part of sending a message (about 70 of 90 µs on a
busy machine), so the server compresses with ISA-L's deflate (the ``isal`` package,
Intel's library for the same format) at its fastest level, with fixed Huffman codes:
the same hand's messages in 10 µs and 445 bytes each, against zlib's 47 µs and 128
bytes measured at the same moment; 32 KB of memory a compressor against zlib's 56 KB.
The window is the same 16 KB (ISA-L keeps its matches within it: the messages are read
back with a 16 KB window in the tests). Browsers decompress with zlib as before: the
format does not change, only how hard the server looks for matches.

:func:`protocol` is the uvicorn WebSocket protocol to serve with: uvicorn's own
(``websockets-sansio``) with the 16 KB window; or None, for uvicorn's default, if
this uvicorn does not have that protocol. It also lends the application a way to write
a message at once (:data:`WRITE_NOW`, in the connection's ASGI scope): framed,
compressed and handed to the transport in the caller's own step
(:class:`handfoot.server.live.outbox.Connection` uses it whenever nothing waits).
"""

from __future__ import annotations

import logging
from typing import Any

#: the server's compression window, as a power of two (16 KB: a whole state message)
WINDOW_BITS = 14
#: the window asked of browsers: they send only small actions
CLIENT_WINDOW_BITS = 12
#: zlib's memory level (1 to 9): 5, as uvicorn and websockets use
MEMORY_LEVEL = 5


#: ISA-L's level (0 to 3): 0, its fastest
LEVEL = 0

#: the key, in a WebSocket's ASGI scope's ``extensions``, of its protocol's
#: ``write_now(text) -> bool`` (see :func:`protocol`)
WRITE_NOW = "handfoot.write_now"


def deflate() -> Any:
    """The permessage-deflate extension the server offers, with the larger window,
    compressing with ISA-L (:data:`LEVEL`)."""
    from isal import isal_zlib
    from websockets.extensions.permessage_deflate import (
        PerMessageDeflate,
        ServerPerMessageDeflateFactory,
    )

    class Factory(ServerPerMessageDeflateFactory):
        def process_request_params(self, params: Any, accepted: Any
                                   ) -> tuple[Any, PerMessageDeflate]:
            response, extension = super().process_request_params(params, accepted)
            if not extension.local_no_context_takeover:
                # (asked to start afresh with each message, websockets' own zlib does)
                encoder: Any = isal_zlib.compressobj(  # (zlib's compressor's methods)
                    LEVEL, isal_zlib.DEFLATED, -extension.local_max_window_bits,
                    strategy=isal_zlib.Z_FIXED)
                extension.encoder = encoder
            return response, extension

    return Factory(
        server_max_window_bits=WINDOW_BITS, client_max_window_bits=CLIENT_WINDOW_BITS,
        compress_settings={"memLevel": MEMORY_LEVEL})


def protocol() -> type[Any] | None:
    """uvicorn's sans-I/O websockets protocol, compressing with :func:`deflate`."""
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import (
            WebSocketsSansIOProtocol,
        )
        from websockets.server import ServerProtocol
    except ImportError:  # an older uvicorn: its default protocol, its default window
        return None

    class Protocol(WebSocketsSansIOProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            if self.config.ws_per_message_deflate:
                # the handshake has not begun: the connection is made again, as
                # uvicorn makes it, with the larger window
                self.conn = ServerProtocol(extensions=[deflate()],
                                           max_size=self.config.ws_max_size,
                                           logger=logging.getLogger("uvicorn.error"))

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)  # (none: the handshake was refused)
            if scope is not None:  # (the application has not started: a task to come)
                scope["extensions"][WRITE_NOW] = self.write_now

        def write_now(self, text: str | bytes) -> bool:
            """Send ``text`` (or text in UTF-8) as one message now, as ``send`` would
            once the socket is writable: True; or False, writing nothing, if the
            handshake is not done, the socket is closing or gone, or its transport's
            buffer is full (the caller then waits for it as before)."""
            if not self.handshake_complete or self.close_sent or self.disconnected \
                    or not self.writable.is_set() or self.transport.is_closing():
                return False
            try:
                self.conn.send_text(text if isinstance(text, bytes) else text.encode())
            except Exception:  # (the client began to close: the queue's way says so)
                return False
            self.transport.write(b"".join(self.conn.data_to_send()))
            return True

    return Protocol
