"""What every route of one server process shares, set once on the application's state
when it is made (:func:`handfoot.server.app.create_app`) and read by each handler
through :func:`services`: the store, the live tables, the club events, the chat, the
limits on what one address may create, and the addresses the invites are made with."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from starlette.datastructures import State
from starlette.requests import HTTPConnection, Request

from handfoot.server.club.service import EventService
from handfoot.server.guard import AddressSource, RateLimits, client_address
from handfoot.server.live.chat import Chat
from handfoot.server.live.manager import Manager
from handfoot.server.live.table import LiveTable
from handfoot.server.people.service import PeopleService
from handfoot.server.routes.http import Answers, ApiError
from handfoot.server.storage.store import Store


def valid_table_id(table_id: str) -> bool:
    return 0 < len(table_id) <= 32 and table_id.isascii() and table_id.isalnum()


@dataclass(frozen=True, slots=True)
class Services:
    """One server process's parts, as its routes reach them."""

    store: Store
    manager: Manager  #: the live tables
    club: EventService  #: the club events
    chat: Chat
    limits: RateLimits  #: what one address may create in an hour
    public_url: str  #: the address invites are made with ("" for the request's own)
    addresses: AddressSource  #: where a client's address is read (peer or proxy's header)
    origin: str  #: this process, in notices and in ``hello``
    people: PeopleService  #: people across tables: names, games, ratings
    #: the lobby's pages being made (asked for at once: made once); forgotten when a
    #: table is made or removed
    lobby: Answers = field(default_factory=lambda: Answers(ttl=0.0))
    #: finished games' replay steps (they never change)
    replays: Answers = field(default_factory=lambda: Answers(ttl=600.0, size=2048))
    #: the finished games whose review this process is working out, by table
    reviewing: dict[str, asyncio.Task[None]] = field(default_factory=dict)

    async def table(self, table_id: str) -> LiveTable:
        """The live table (read from the database if it is not in memory), or a 404."""
        manager = self.manager
        table = await manager.aload(table_id) if valid_table_id(table_id) else None
        if table is None:
            raise ApiError("There is no such table.", 404)
        if manager.bus is not None and not manager.bus.healthy:
            async with table.lock:  # not hearing of other processes' changes: read them
                await manager.resync(table)
        return table

    def limit(self, request: Request, what: str, message: str) -> str:
        """Count one ``what`` made by the request's address (returned), or refuse it
        with ``message`` once the address has made its hour's share."""
        who = client_address(request, self.addresses)
        if not self.limits.take(what, who):
            raise ApiError(message + f" (at most {self.limits.limit(what)} an hour from "
                           "one address); please try again later.", 429)
        return who

    def invite_url(self, request: Request, table_id: str, token: str) -> str:
        base = self.public_url or str(request.base_url).rstrip("/")
        return f"{base}/table/{table_id}?token={token}"


def services(conn: HTTPConnection) -> Services:
    """The services of the application a request or socket reached."""
    return of_state(conn.app.state)


def of_state(state: State) -> Services:
    """The services kept on an application's ``state``."""
    found = state.services
    assert isinstance(found, Services), "create_app sets the services once"
    return found
