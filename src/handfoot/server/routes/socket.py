"""The table's WebSocket, ``/ws/{table}?token=T`` (no token: a spectator): a seat's
messages read by :mod:`handfoot.server.protocol` and each type answered by its handler
in :data:`ANYONE` or :data:`SEATED`; the table's states, chat and notices sent through the
connection's outbox (:mod:`handfoot.server.live.outbox`), which never waits for a
slow client."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from handfoot.engine import IllegalAction
from handfoot.rules.words import book_words, going_on, rules_in_words
from handfoot.server.guard import client_address
from handfoot.server.live import presence
from handfoot.server.live.compression import WRITE_NOW
from handfoot.server.live.manager import storage_failed
from handfoot.server.live.outbox import Connection
from handfoot.server.live.table import LiveTable, token_hash
from handfoot.server.protocol import (
    MAX_MESSAGE,
    Act,
    Computer,
    HelloOut,
    Hint,
    NextHand,
    Ping,
    Preview,
    Refused,
    Say,
    ServerOut,
    envelope,
    error,
    farewell,
    read,
)
from handfoot.server.routes.http import ApiError
from handfoot.server.services import Services, services, valid_table_id

log = logging.getLogger("handfoot.server")

Reply = ServerOut | None


@dataclass(frozen=True, slots=True)
class Viewer:
    """Where a message came from: the table and the socket (a spectator's too)."""

    svc: Services
    table: LiveTable
    conn: Connection


@dataclass(frozen=True, slots=True)
class Seated(Viewer):
    """A message from a seated person, whose invite link still holds the seat."""

    seat: int


async def ws_endpoint(ws: WebSocket) -> None:
    """One viewer of a table, from the socket's opening to its end."""
    await ws.accept()
    svc = services(ws)
    table, seat = await opened(ws, svc)
    if table is None:
        return
    watcher = None  # a spectator's address, counted while the socket is open
    if seat is None:
        who = client_address(ws, svc.addresses)
        why = svc.limits.watch(who, sum(1 for c in table.connections if c.seat is None))
        if why:
            await ws.send_json(farewell(why))
            await ws.close(4429)
            return
        watcher = who

    async def close(code: int, reason: str) -> None:
        await ws.close(code)

    svc.manager.kick_bots(table)  # a table unloaded while idle: its computers go on
    # (written at once through the protocol when nothing waits: see outbox)
    write_now = ws.scope.get("extensions", {}).get(WRITE_NOW)
    conn = Connection(seat, ws.send_text, close, ws.query_params.get("token"),
                      write_now=write_now)
    conn.start()
    table.connections.append(conn)
    try:
        await arrive(svc, table, conn, ws)
        await listen(ws, svc, table, conn)
    except WebSocketDisconnect:
        pass
    finally:
        if watcher is not None:
            svc.limits.unwatch(watcher)
        await leave(svc, table, conn)


async def opened(ws: WebSocket, svc: Services) -> tuple[LiveTable | None, int | None]:
    """The table and the seat a socket opened (None: a spectator's); no table when it
    is refused (it is closed then, with the reason)."""
    table_id = ws.path_params["id"]
    try:
        table = await svc.manager.aload(table_id) if valid_table_id(table_id) else None
    except Exception:
        table = None
    if table is None:
        await ws.send_json(error("There is no such table."))
        await ws.close(4404)
        return None, None
    token = ws.query_params.get("token")
    if token is None:
        return table, None
    # the seats as the database has them: another server process may have replaced
    # this link a moment ago, and its notice may not have reached this one yet
    await svc.manager.refresh_seats(table)
    seat = table.seat_of_token(token)
    if seat is None:
        await ws.send_json(farewell("This invite link is not valid for this table."))
        await ws.close(4403)
        return None, None
    return table, seat


async def arrive(svc: Services, table: LiveTable, conn: Connection,
                 ws: WebSocket | None = None) -> None:
    """Greet a new viewer; a seated one joins, and hears the chat."""
    conn.push(await hello(svc, table, conn.seat))
    if table.row.next_table:  # Play again was pressed: the page goes on to the next game
        conn.push({"type": "again", "table": table.row.next_table})
    if conn.seat is not None:  # (after joining the connections: a revocation finds it)
        await svc.manager.seat_opened(table, conn.seat, conn)
        await svc.manager.join(table, conn.seat)
        if ws is not None:
            await take_seat(svc, table, conn.seat, ws)
        await svc.manager.tell_here(table)
        await svc.chat.welcome(table, conn)
    if conn.seat is None:  # a spectator: nothing changes for the others
        await svc.manager.broadcast(table, only=conn)
        return
    await svc.manager.broadcast(table)  # this one's view, and everyone sees who is here


async def take_seat(svc: Services, table: LiveTable, seat: int, ws: WebSocket) -> None:
    """The person of the socket's player key (if it has one) sits in the seat under
    their name (nothing if another person sat there first)."""
    if not svc.people.key_of(ws) or table.players.get(seat):
        return
    with contextlib.suppress(ApiError):
        player = await svc.people.player(ws)
        if player is not None:
            await svc.people.sit(table, seat, player)


async def listen(ws: WebSocket, svc: Services, table: LiveTable, conn: Connection) -> None:
    """Answer the viewer's messages until the socket ends or is dropped."""
    while conn.heard:
        raw = await ws.receive()
        if raw["type"] == "websocket.disconnect":
            break
        text = raw.get("text")
        if text is None:
            data_bytes = raw.get("bytes") or b""
            text = None if len(data_bytes) > MAX_MESSAGE else data_bytes.decode(
                "utf-8", "replace")
        if text is None or len(text) > MAX_MESSAGE:
            conn.push(error("That message is too large."))
            continue
        try:
            reply = await answer(svc, table, conn, text)
        except Exception as e:  # never the socket's end: the person hears of it
            if storage_failed(e):
                log.warning("table %s: the database refuses (%s)", table.id, e)
                reply = error("The server cannot save moves right now; nothing was "
                              "changed. Please try again in a moment.")
            else:
                log.exception("a message at table %s", table.id)
                reply = error("That message could not be handled; nothing was changed.")
        if reply is not None:
            conn.push(reply)


async def leave(svc: Services, table: LiveTable, conn: Connection) -> None:
    """The socket ended: the others see who is still here."""
    with contextlib.suppress(ValueError):
        table.connections.remove(conn)
    await conn.stop()
    if conn.seat is not None and not svc.manager.closing:
        with contextlib.suppress(Exception):
            await svc.manager.tell_here(table)
            await svc.manager.broadcast(table)
            await svc.manager.next_hand(table, None)  # nobody waits for who left


async def hello(svc: Services, table: LiveTable, seat: int | None) -> HelloOut:
    """The first message on a socket: the table, the seat and its rules in words."""
    if table.club_event is None:
        table.club_event = await asyncio.to_thread(
            lambda: svc.store.event_table(table.id) is not None)
    return {"type": "hello", "table": table.id, "seat": seat,
            "rules": table.row.rules_name, "process": svc.origin,
            # "This table's rules" in plain words; hints are off at club events
            "rules_words": rules_in_words(table.rules), "hint": not table.club_event,
            "book_words": book_words(table.rules), "going_on": going_on(table.rules)}


async def answer(svc: Services, table: LiveTable, conn: Connection, text: str) -> Reply:
    """The answer to one message (None: none, its effect is seen in the next state)."""
    try:
        kind, body = envelope(text)
        if kind in ANYONE:
            return await ANYONE[kind](Viewer(svc, table, conn), read(kind, body))
        seat = conn.seat
        if seat is None:
            return error("Spectators cannot play; open your invite link.")
        if not await still_seated(svc, table, conn, kind):
            return None
        msg = read(kind, body)  # (an unknown type is refused here)
    except Refused as e:
        return error(str(e))
    return await SEATED[kind](Seated(svc, table, conn, seat), msg)


async def still_seated(svc: Services, table: LiveTable, conn: Connection, kind: str) -> bool:
    """The socket's invite link still holds its seat; if it was revoked since the socket
    opened (here, or by another server process sharing the database: heard of as it is
    made, or read here when the notices are not heard), the socket is dropped."""
    if kind == "computer" or (kind == "action" and not svc.manager.in_step()):
        await svc.manager.refresh_seats(table)
    if conn.token is not None and table.seat_of_token(conn.token) == conn.seat:
        return True
    message = "This invite link was replaced; ask the organiser for the new one."
    conn.drop(message, code=4403, farewell=farewell(message))
    return False


async def on_ping(at: Viewer, msg: Ping) -> Reply:
    return {"type": "pong"}


async def on_action(at: Seated, msg: Act) -> Reply:
    if at.table.is_bot(at.seat):
        return error("A computer player holds your seat; take it back first.")
    if at.table.waiting:
        return error("The game starts when everyone has joined, or when the person who "
                     "set up the table starts it.")
    try:
        await at.svc.manager.act(at.table, at.seat, msg.action)
    except IllegalAction as e:
        return error(str(e))
    return None


async def on_preview(at: Seated, msg: Preview) -> Reply:
    return at.svc.manager.preview(at.table, at.seat, msg.action)


async def on_computer(at: Seated, msg: Computer) -> Reply:
    table, manager = at.table, at.svc.manager
    target = at.seat if msg.seat is None else msg.seat
    if not 0 <= target < len(table.seats):
        return error("There is no such seat.")
    if table.seats[target]["kind"] != "human":
        return error("This seat is a computer player's.")
    if target != at.seat and (not msg.on or target in table.connected()):
        return error("Only a person who has left can have their seat played by the "
                     "computer; only they can take it back.")
    if not may_hand_over(table, at.seat, target, msg.creator):
        why = presence.hand_over_refusal(table, target, time.monotonic())
        if why is not None:
            return error(why)
    async with table.lock:
        await manager.set_computer(table, target, msg.on, stand_in=target != at.seat)
    await manager.broadcast(table)
    manager.kick_bots(table)
    await manager.next_hand(table, None)  # nobody waits for a computer player
    return None


def may_hand_over(table: LiveTable, seat: int, target: int, creator: str | None) -> bool:
    """Who may hand an absent seat to the computer: its own holder, or the table's
    creator (with the creator's token)."""
    if target == seat:
        return True
    return (creator is not None and table.row.creator_hash is not None
            and len(creator) <= 100
            and secrets.compare_digest(token_hash(creator), table.row.creator_hash))


async def on_chat(at: Seated, msg: Say) -> Reply:
    return await at.svc.chat.say(at.table, at.seat, msg)


async def on_next_hand(at: Seated, msg: NextHand) -> Reply:
    await at.svc.manager.next_hand(at.table, at.seat)
    return None


async def on_hint(at: Seated, msg: Hint) -> Reply:
    return await at.svc.manager.hint(at.table, at.seat)


#: the dispatch: each message type a client may send, and its handler (its fields read
#: first by :data:`handfoot.server.protocol.PARSERS`); a spectator may send only these
ANYONE: dict[str, Callable[[Viewer, Any], Awaitable[Reply]]] = {
    "ping": on_ping,
}
#: and these only a seated person, whose invite link still holds the seat
SEATED: dict[str, Callable[[Seated, Any], Awaitable[Reply]]] = {
    "action": on_action,
    "preview": on_preview,
    "computer": on_computer,
    "chat": on_chat,
    "next-hand": on_next_hand,
    "hint": on_hint,
}

routes: list[BaseRoute] = [WebSocketRoute("/ws/{id}", ws_endpoint)]
