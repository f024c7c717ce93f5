"""Which event loop the server runs on (``handfoot serve --event-loop``).

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
