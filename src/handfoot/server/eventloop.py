"""How uvicorn runs the server: which event loop (``handfoot serve --event-loop``), the
pings, and the WebSocket compression (:func:`uvicorn_options`).

uvloop's, where it is installed (a dependency everywhere but Windows, which it does not
support): at 1,000 tables on two processes a person's action reached the screens sooner
on it, and cost the server less, than on asyncio's own loop (docs/server.md, "The event
loop"). asyncio's where uvloop is missing, when asked for, and always for the loop-step
diagnostic (``HANDFOOT_LOOP_STEPS``: :mod:`.loopsteps`), which times asyncio's steps and
cannot see into uvloop's.
"""

from __future__ import annotations

import importlib.util
import os
from typing import Any

from handfoot.server.live.compression import protocol

#: what ``--event-loop`` accepts
EVENT_LOOPS = ("auto", "uvloop", "asyncio")


class NoSuchLoop(ValueError):
    """An event loop that is unknown or not installed."""


def event_loop(asked: str = "auto") -> str:
    """uvicorn's name for the loop to run on, as ``asked`` ("auto": uvloop's if it is
    installed, else asyncio's)."""
    if asked not in EVENT_LOOPS:
        raise NoSuchLoop(f"There is no event loop {asked!r}; choose one of "
                         f"{', '.join(EVENT_LOOPS)}.")
    if asked == "asyncio" or os.environ.get("HANDFOOT_LOOP_STEPS"):
        return "asyncio"
    if importlib.util.find_spec("uvloop") is None:
        if asked == "uvloop":
            raise NoSuchLoop("uvloop is not installed here (pip install uvloop), so the "
                             "server cannot run on it.")
        return "asyncio"
    return "uvloop"


PING_SECONDS = 20.0  #: uvicorn's own default


def uvicorn_options(ping: float = PING_SECONDS, loop: str = "auto") -> dict[str, Any]:
    """uvicorn's settings; ``ping``: seconds between the pings that tell a connection
    that is still there from one that is gone or never reads (one that has not answered
    within as long again is closed); ``loop``: as asked of :func:`event_loop`
    (which says why uvloop's is the default)."""
    options: dict[str, Any] = {"log_level": "warning", "ws_max_size": 1 << 20,
                               "loop": event_loop(loop),
                               "ws_ping_interval": ping, "ws_ping_timeout": ping,
                               # the client's address is the peer's, or read from the
                               # operator's header by the server itself (guard.py)
                               "proxy_headers": False}
    ws = protocol()  # a compression window that holds a whole state message
    if ws is not None:
        options["ws"] = ws
    return options
