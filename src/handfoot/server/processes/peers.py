"""What one server process does when it hears that another changed a table (see
:mod:`handfoot.server.processes.sync`): bring its own copy up to date, from the notice or from the
log, and push the new state to its own clients; run the computer players if it keeps
the table."""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from handfoot.actions import action_from_json
from handfoot.server.live.chat import Chat
from handfoot.server.live.manager import Manager
from handfoot.server.live.table import LiveTable
from handfoot.server.processes.sync import Bus
from handfoot.server.protocol import AgainOut, farewell

log = logging.getLogger("handfoot.server")

REVOKED = "This invite link was replaced; ask the organiser for the new one."


def follow(manager: Manager, bus: Bus) -> None:
    """Apply every change ``bus`` hears to ``manager``'s tables."""
    bus.on("act", lambda note: _act(manager, note) if _concerns(manager, note) else None)
    bus.on("seats", lambda note: _seats(manager, note))
    bus.on("time", lambda note: _time(manager, note))
    bus.on("notice", lambda note: _notice(manager, note))
    bus.on("ready", lambda note: _ready(manager, note))
    bus.on("here", lambda note: _here(manager, note))
    bus.on("who", lambda note: _who(manager, note))
    bus.on("opened", lambda note: _opened(manager, note))
    bus.on("removed", lambda note: _removed(manager, note))
    bus.on("chat", lambda note: _chat(manager, note))
    bus.on("again", lambda note: _again(manager, note))
    bus.on_reconnect.append(lambda: resync_all(manager))


def _concerns(manager: Manager, note: dict[str, Any]) -> bool:
    """Whether a notice is about a table this process has in memory or keeps (most
    are not, when each table's sockets are on its keeper: they are let go at once,
    without a task for each)."""
    tid = note.get("t")
    return isinstance(tid, str) and (tid in manager.live or manager.keepers.keeps(tid))


async def _table(manager: Manager, note: dict[str, Any]) -> LiveTable | None:
    """The table the notice is about, if this process has it in memory or keeps it
    (a table not in memory is read from the log when next wanted)."""
    tid = note.get("t")
    if not isinstance(tid, str):
        return None
    table = manager.live.get(tid)
    if table is None and manager.keepers.keeps(tid):
        table = await manager.aload(tid)  # read from the log: up to date
    return table


async def _act(manager: Manager, note: dict[str, Any]) -> None:
    table = await _table(manager, note)
    if table is None:
        return
    seq = note.get("s")
    if not isinstance(seq, int):
        return
    async with table.lock:
        if table.seq >= seq:
            return  # heard of already (read from the log)
        applied = False
        if table.seq == seq - 1 and "a" in note:
            try:
                manager._time_point(table)
                seat = note.get("seat")
                manager.apply_heard(table, seat if isinstance(seat, int) else None,
                                    action_from_json(note["a"]))
                applied = True
            except Exception:  # cannot be: the log decides
                log.exception("table %s: an action heard does not apply", table.id)
                await manager.rebuild(table)
        if not applied:
            await manager.resync(table)
        if table.game.over:
            manager.keepers.release(table.id)
    await manager.broadcast(table)
    manager.kick_bots(table)


async def _seats(manager: Manager, note: dict[str, Any]) -> None:
    table = await _table(manager, note)
    if table is None:
        return
    await manager.refresh_seats(table)
    for conn in list(table.connections):  # a link replaced elsewhere stops here too
        if conn.seat is not None and (conn.token is None
                                      or table.seat_of_token(conn.token) != conn.seat):
            conn.drop(REVOKED, code=4403, farewell=farewell(REVOKED))
    await manager.broadcast(table)
    manager.kick_bots(table)


async def _time(manager: Manager, note: dict[str, Any]) -> None:
    table = await _table(manager, note)
    seq = note.get("s")
    if table is None or not isinstance(seq, int):
        return
    async with table.lock:
        if table.time_seq is None:
            if table.seq > seq:  # cannot be (the log's lock): start again from the log
                await manager.rebuild(table)
            else:
                table.time_seq = seq
                manager._time_point(table)
        notice = note.get("n")
        if isinstance(notice, str) and notice:
            table.notice = notice
        if table.game.over:
            manager.keepers.release(table.id)
    await manager.broadcast(table)
    manager.kick_bots(table)


async def _notice(manager: Manager, note: dict[str, Any]) -> None:
    tid, text = note.get("t"), note.get("n")
    table = manager.live.get(tid) if isinstance(tid, str) else None
    if table is not None and isinstance(text, str):
        await manager.notify(table, text)


async def _ready(manager: Manager, note: dict[str, Any]) -> None:
    """A person at another process pressed "Next hand"."""
    tid, seat, hand = note.get("t"), note.get("seat"), note.get("h")
    table = manager.live.get(tid) if isinstance(tid, str) else None
    if table is not None and isinstance(seat, int) and isinstance(hand, int):
        await manager.ready_heard(table, seat, hand)


async def _here(manager: Manager, note: dict[str, Any]) -> None:
    """Who is connected to another process at a table: the pause between hands waits
    for them too, and the seats show them as here."""
    tid, origin, seats = note.get("t"), note.get("o"), note.get("seats")
    table = manager.live.get(tid) if isinstance(tid, str) else None
    if table is None or not isinstance(origin, str) or not isinstance(seats, list):
        return
    now = {s for s in seats if isinstance(s, int)}
    if now:
        table.elsewhere[origin] = now
    else:
        table.elsewhere.pop(origin, None)
    if table.paused:  # nobody waits for who left (ready_heard tells the table)
        await manager.ready_heard(table, None, table.moves.paused_after)
    else:
        await manager.broadcast(table)


async def _chat(manager: Manager, note: dict[str, Any]) -> None:
    """A line of chat said through another process: the people seated here hear it."""
    tid = note.get("t")
    table = manager.live.get(tid) if isinstance(tid, str) else None
    if table is not None:
        Chat.heard(table, note.get("line"))


async def _removed(manager: Manager, note: dict[str, Any]) -> None:
    """Another process removed a table (archived first): it is forgotten here too."""
    tid = note.get("t")
    table = manager.live.get(tid) if isinstance(tid, str) else None
    if table is not None:
        await manager.forget(table)


async def _again(manager: Manager, note: dict[str, Any]) -> None:
    """Play again was pressed at another process: the pages here go to the next game."""
    tid, new = note.get("t"), note.get("n")
    table = manager.live.get(tid) if isinstance(tid, str) else None
    if table is not None and isinstance(new, str):
        table.row = dataclasses.replace(table.row, next_table=new)
        out: AgainOut = {"type": "again", "table": new}
        for conn in list(table.connections):
            conn.push(out)


async def _opened(manager: Manager, note: dict[str, Any]) -> None:
    """A socket opened a seat at another process: that seat's sockets here are told."""
    tid, seat = note.get("t"), note.get("seat")
    table = manager.live.get(tid) if isinstance(tid, str) else None
    if table is not None and isinstance(seat, int):
        manager.tell_seat(table, seat, None)


async def _who(manager: Manager, note: dict[str, Any]) -> None:
    """Another process has just read the table into memory: say who is here."""
    tid = note.get("t")
    table = manager.live.get(tid) if isinstance(tid, str) else None
    if table is not None and table.here():
        table.told_here = frozenset()
        await manager.tell_here(table)


async def resync_all(manager: Manager) -> None:
    """After the connection for notices was lost: read every live table again."""
    for table in list(manager.live.values()):
        try:
            await manager.refresh_seats(table)
            async with table.lock:
                await manager.resync(table)
            await manager.broadcast(table)
            manager.kick_bots(table)
        except Exception:
            log.exception("reading table %s again", table.id)
