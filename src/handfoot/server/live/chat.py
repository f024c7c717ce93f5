"""Chat and quick reactions at a table: stored with the table, heard only by the people
seated at it (a spectator hears none of it), limited in length and rate, and off at a
club event's tables when its organiser says so. The page shows every line as text,
never as HTML.

WebSocket, client to server: ``{"type": "chat", "text": "..."}`` or
``{"type": "chat", "reaction": "Nice play!"}``; server to the seated clients:
``{"type": "chat", "on": true, "lines": [{"id", "seat", "kind", "text", "at"}, ...]}``
(on joining, the last lines; then each new line as it is said). A line said through
one server process reaches the people at the others through the same notices as moves
(PostgreSQL ``NOTIFY``: :meth:`Chat.heard`).

>>> clean_text("  Hello\\n  there\\u202e! ")
'Hello there!'
"""

from __future__ import annotations

import asyncio
import time
import unicodedata
from collections import deque
from typing import Final

from handfoot.server.live.outbox import Connection
from handfoot.server.live.table import LiveTable
from handfoot.server.protocol import REACTIONS, ChatLineOut, ChatOut, ErrorOut, Say, error
from handfoot.server.storage.store import ChatLine, Store

MAX_TEXT: Final = 200  #: characters in one line of chat
HISTORY: Final = 50  #: lines a person sees on joining
RATE: Final = (5, 15.0)  #: at most 5 lines from one seat in any 15 seconds


def clean_text(text: str) -> str:
    """One line of plain text: whitespace and line breaks as single spaces, no control
    or formatting characters (which could reverse or hide what is shown)."""
    kept = "".join(c for c in text if unicodedata.category(c)[0] != "C" or c in " \t\n")
    return " ".join(kept.split())


def line_json(line: ChatLine) -> ChatLineOut:
    return {"id": line.id, "seat": line.seat, "kind": line.kind, "text": line.text,
            "at": line.created.isoformat(timespec="seconds") + "Z"}


class Chat:
    """The chat of every table of one server process."""

    def __init__(self, store: Store, rate: tuple[int, float] = RATE) -> None:
        self.store = store
        self.rate = rate
        self.said: dict[tuple[str, int], deque[float]] = {}

    def is_on(self, table_id: str) -> bool:
        """Chat is on, unless the table is a club event's whose organiser turned it off."""
        tagged = self.store.event_table(table_id)
        return tagged is None or self.store.event_chat(tagged.event)

    async def welcome(self, table: LiveTable, conn: Connection) -> None:
        """A seated person joins: whether chat is on, and the last lines (said since
        the seat's link was made: a seat's new holder does not read what was said to
        the one before)."""
        seat = conn.seat
        after = int(table.seats[seat].get("chat_after", 0)) if seat is not None else 0

        def read() -> ChatOut:
            on = self.is_on(table.id)
            lines = [line_json(x) for x in self.store.chat(table.id, HISTORY)
                     if x.id > after] if on else []
            return {"type": "chat", "on": on, "lines": lines, "reactions": list(REACTIONS)}
        conn.push(await asyncio.to_thread(read))

    def _too_fast(self, key: tuple[str, int], now: float) -> bool:
        most, window = self.rate
        recent = self.said.setdefault(key, deque())
        while recent and now - recent[0] > window:
            recent.popleft()
        if len(recent) >= most:
            return True
        recent.append(now)
        if len(self.said) > 10_000:  # forget the seats that have not spoken lately
            self.said = {k: v for k, v in self.said.items() if v and now - v[-1] < window}
        return False

    async def say(self, table: LiveTable, seat: int, msg: Say) -> ErrorOut | None:
        """A line said at the table (its fields checked by :mod:`..protocol`): stored
        and sent to everyone seated; or the reason it was refused (nothing is stored
        then)."""
        if msg.reaction is not None:
            kind, said = "reaction", msg.reaction
        else:
            said = clean_text(msg.text or "")
            if not said:
                return error("The message is empty.")
            if len(said) > MAX_TEXT:
                return error(f"A message may hold at most {MAX_TEXT} characters; this one "
                             f"has {len(said)}.")
            kind = "text"
        if not await asyncio.to_thread(self.is_on, table.id):
            return error("Chat is off at this event's tables.")
        if self._too_fast((table.id, seat), time.monotonic()):
            return error("You are sending messages very fast; please wait a few seconds.")
        line = await asyncio.to_thread(self.store.add_chat, table.id, seat, kind, said)
        said_json = line_json(line)
        self.tell(table, said_json)
        # the people at the other server processes (nothing with SQLite)
        await asyncio.to_thread(self.store.notify, {"k": "chat", "t": table.id,
                                                    "line": dict(said_json)})
        return None

    @staticmethod
    def tell(table: LiveTable, line: ChatLineOut) -> None:
        """Send a line to everyone seated at the table through this process."""
        out: ChatOut = {"type": "chat", "on": True, "lines": [line]}
        for conn in list(table.connections):
            if conn.seat is not None and not conn.dropped:
                conn.push(out)

    @classmethod
    def heard(cls, table: LiveTable, line: object) -> None:
        """A line said through another server process (as its notice holds it)."""
        if not isinstance(line, dict):
            return
        try:
            checked: ChatLineOut = {
                "id": int(line["id"]), "seat": int(line["seat"]),
                "kind": str(line["kind"]), "text": str(line["text"])[:MAX_TEXT],
                "at": str(line["at"])[:40]}
        except (KeyError, TypeError, ValueError):
            return
        cls.tell(table, checked)
