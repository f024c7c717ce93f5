"""What the host of a table may do, from the browser that set it up: see the invite
links of the seats nobody has taken yet, make a new link for a seat nobody is at (the
old one stops working), start the game with computer players in the seats of people
who have not come, and remove the table once it is finished or abandoned.

A seat in use is its person's alone: once its link has been opened the host is never
given it again (it would show that seat's hand), and while its person is connected (to
any server process) no new link replaces theirs.

The host's browser keeps the creator token it was given when the table was made; only
its hash is stored. Each seat's invite token is derived from the creator token (HMAC),
the table and the seat's link number, so the server can give the host the links again
without keeping any token: it derives them and checks each against the seat's stored
hash.

>>> t = invite_token("creator", "abc123", 0, 0)
>>> len(t), t == invite_token("creator", "abc123", 0, 0)
(24, True)
>>> t == invite_token("creator", "abc123", 0, 1), t == invite_token("other", "abc123", 0, 0)
(False, False)
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import secrets
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from handfoot.server.live import seats
from handfoot.server.live.table import LiveTable, token_hash
from handfoot.server.routes.http import ApiError, json_body
from handfoot.server.services import Services, services

MAX_BODY = 16 * 1024


def invite_token(creator: str, table_id: str, seat: int, link: int) -> str:
    """The invite token of ``seat``'s ``link``-th link (0 first), as long as
    ``secrets.token_urlsafe(18)``."""
    digest = hmac.new(creator.encode(), f"invite:{table_id}:{seat}:{link}".encode(),
                      hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


def is_host(table: LiveTable, creator: Any) -> bool:
    """``creator`` is the token given to whoever set the table up."""
    return (isinstance(creator, str) and 0 < len(creator) <= 100
            and table.row.creator_hash is not None
            and secrets.compare_digest(token_hash(creator), table.row.creator_hash))


def abandoned(table: LiveTable) -> bool:
    """Nobody plays at it any more: no person has the table open, through this server
    process or another (computer players do not count)."""
    return not any(c.seat is not None for c in table.connections) \
        and not table.connected()


async def hosted(request: Request) -> tuple[Services, LiveTable, dict[str, Any]]:
    """The table and the request's body, if its ``creator`` token is the host's."""
    svc = services(request)
    table = await svc.table(request.path_params["id"])
    data = await json_body(request, MAX_BODY)
    if not is_host(table, data.get("creator")):
        raise ApiError("Only the person who set up this table, from the browser they "
                       "set it up in, can do that.", 403)
    return svc, table, data


def seats_json(request: Request, svc: Services, table: LiveTable, creator: str
               ) -> list[dict[str, Any]]:
    """Every seat as the host sees it: who sits there, and the invite link of a
    person's seat nobody has taken yet (never of a seat in use)."""
    connected = table.connected()
    out = []
    for i, s in enumerate(table.seats):
        url = None
        if s["kind"] == "human" and i not in table.joined and i not in connected:
            tok = invite_token(creator, table.id, i, int(s.get("link", 0)))
            if s.get("token_hash") and secrets.compare_digest(token_hash(tok),
                                                              s["token_hash"]):
                url = svc.invite_url(request, table.id, tok)
        out.append({"seat": i, "team": table.rules.team_of[i], "name": s.get("name", ""),
                    "kind": s["kind"], "computer": table.is_bot(i),
                    "joined": i in table.joined, "connected": i in connected,
                    "url": url, "in_use": s["kind"] == "human" and (
                        i in table.joined or i in connected)})
    return out


async def api_host(request: Request) -> Response:
    """The table as its host sees it: every seat with its invite link."""
    svc, table, data = await hosted(request)
    await svc.manager.ask_who(table)
    return JSONResponse({"id": table.id, "rules": table.row.rules_name,
                         "waiting": table.waiting, "over": table.game.over,
                         "started": table.seq > 0 or not table.waiting,
                         "removable": table.game.over or abandoned(table),
                         "seats": seats_json(request, svc, table, data["creator"])})


async def api_new_link(request: Request) -> Response:
    """A new invite link for a person's seat; the old one stops working at once."""
    svc, table, data = await hosted(request)
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) \
            or not 0 <= seat < len(table.seats):
        raise ApiError("There is no such seat.")
    if table.seats[seat]["kind"] != "human":
        raise ApiError("That seat is a computer player's; it has no invite link.")
    await svc.manager.ask_who(table)
    if seat in table.connected():
        raise ApiError("Someone is at that seat now; a new link can be made for it once "
                       "they have left the table.", 409)
    said = await asyncio.to_thread(svc.store.chat, table.id, 1)
    async with table.lock:
        async with seats.changing(svc.store, table) as new:
            link = int(new[seat].get("link", 0)) + 1
            tok = invite_token(data["creator"], table.id, seat, link)
            # the new holder reads the chat from here on
            new[seat].update(link=link, token_hash=token_hash(tok),
                             chat_after=said[-1].id if said else 0)
        await seats.unjoin(svc.store, table, seat)
    svc.manager.close_seat(table, seat, "This invite link was replaced; ask the person "
                           "who set up the table for the new one.")
    await svc.manager.broadcast(table)
    return JSONResponse({"seat": seat, "url": svc.invite_url(request, table.id, tok)})


async def api_start(request: Request) -> Response:
    """Start now: computer players sit in for the people who have not joined."""
    svc, table, _ = await hosted(request)
    if not table.waiting:
        raise ApiError("This game has already started.", 409)
    await svc.manager.start(table)
    return JSONResponse({"ok": True, "waiting": table.waiting})


async def api_remove(request: Request) -> Response:
    """Remove a finished or abandoned table (its record and replay go with it; a game
    with moves is archived first)."""
    svc, table, _ = await hosted(request)
    bus = svc.manager.bus
    if bus is not None and not bus.healthy and not table.game.over:
        raise ApiError("The server cannot tell right now whether someone is at this "
                       "table; please try again in a moment.", 503)
    await svc.manager.ask_who(table)
    if not (table.game.over or abandoned(table)):
        raise ApiError("Someone is still playing at this table; it can be removed "
                       "once the game is over or everyone has left.", 409)
    svc.lobby.forget()
    svc.replays.forget(lambda key: isinstance(key, tuple) and key[0] == table.id)
    try:
        await svc.manager.remove(table)
    except OSError as e:
        raise ApiError("This table's game could not be archived, so it was not removed "
                       f"({e.strerror or e}).", 500) from None
    return JSONResponse({"ok": True, "removed": table.id})


routes: list[BaseRoute] = [
    Route("/api/tables/{id}/host", api_host, methods=["POST"]),
    Route("/api/tables/{id}/invite", api_new_link, methods=["POST"]),
    Route("/api/tables/{id}/start", api_start, methods=["POST"]),
    Route("/api/tables/{id}/remove", api_remove, methods=["POST"]),
]

