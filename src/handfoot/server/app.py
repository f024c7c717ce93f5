"""The ASGI application of one server process: its services (:mod:`.services`), the
routes of each area (:mod:`.routes` and :mod:`.club.routes`), the same-origin guard and
the lifespan that starts and stops the live tables and the club events. The WebSocket
protocol is defined in :mod:`.protocol`."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute

from handfoot.server import collector
from handfoot.server.club import routes as club_routes
from handfoot.server.club.service import EventService
from handfoot.server.diagnostics import loopsteps
from handfoot.server.diagnostics.metrics import MetricsMiddleware
from handfoot.server.guard import AddressSource, RateLimits, SameOriginMiddleware, networks
from handfoot.server.live.chat import Chat
from handfoot.server.live.manager import Manager
from handfoot.server.offloop.work import Work
from handfoot.server.people.service import PeopleService
from handfoot.server.processes.peers import follow
from handfoot.server.processes.sync import Bus, Keepers, new_origin
from handfoot.server.routes import (
    hosting,
    metrics,
    pages,
    people,
    rule_sets,
    socket,
    status,
    tables,
)
from handfoot.server.routes.http import ApiError
from handfoot.server.services import Services, of_state
from handfoot.server.storage.store import Store

#: every route, by area
ROUTES: list[BaseRoute] = [
    *pages.routes, *status.routes, *rule_sets.routes, *tables.routes, *socket.routes,
    *hosting.routes, *people.routes, *club_routes.routes, *metrics.routes, pages.static]


def create_app(db_url: str, bot_delay: float = 0.6, public_url: str = "",
               minute: float = 60.0, limits: RateLimits | None = None,
               address_header: str = "", work: Work | None = None,
               process: int | None = None,
               trusted_proxies: tuple[str, ...] = ()) -> Starlette:
    """``minute``: seconds in a minute of an event round's clock (tests shorten it);
    ``limits``: what one address may create in an hour; ``address_header``: the header
    in which the operator's proxy gives the client's address (none: the peer's),
    believed only from ``trusted_proxies`` (the loopback addresses if none);
    ``process``: this process's index among ``serve --workers`` (named in its origin,
    so that the others know where to send a table's sockets: :mod:`.steering`)."""
    if os.environ.get("HANDFOOT_LOOP_STEPS"):  # a diagnostic: the loop's CPU, step by step
        loopsteps.install()
    store = Store(db_url)
    #: this process, in notices and in ``hello``
    origin = store.origin = new_origin() + (f"w{process}" if process is not None else "")
    manager = Manager(store, bot_delay=bot_delay, work=work)
    limits = limits or RateLimits()
    addresses = AddressSource(address_header, networks(trusted_proxies))
    club = EventService(store, manager, public_url, minute, limits=limits,
                        addresses=addresses)
    app = Starlette(routes=ROUTES, lifespan=lifespan,
                    exception_handlers={ApiError: on_api_error},
                    middleware=[Middleware(MetricsMiddleware),
                                Middleware(SameOriginMiddleware, public_url=public_url)])
    persons = PeopleService(store, manager, club.hashes,
                           secure=public_url.lower().startswith("https://"))
    app.state.services = Services(
        store=store, manager=manager, club=club, chat=Chat(store), limits=limits,
        public_url=public_url, addresses=addresses, origin=origin, people=persons)
    return app


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """Start the live tables and the club events (hearing the other processes sharing
    the database), and stop them when the server stops."""
    svc = of_state(app.state)
    store, manager = svc.store, svc.manager
    if store.postgres:  # other processes may share the database
        bus = manager.bus = Bus(store.url, svc.origin)
        follow(manager, bus)
        svc.club.follow(bus)
        bus.start()
        await bus.started()
        keepers = manager.keepers = Keepers(store.url, origin=svc.origin)
        # the unfinished tables nobody else keeps; the processes still running
        keepers.start(manager.keep, manager.forget_stopped)
    else:
        manager.resume_all()
    await svc.club.start()
    sweeper = asyncio.get_running_loop().create_task(manager.sweep())
    watcher = asyncio.get_running_loop().create_task(manager.watch_presence())
    collecting = asyncio.get_running_loop().create_task(collector.full_passes())
    yield
    sweeper.cancel()
    watcher.cancel()
    await svc.people.close()
    collecting.cancel()
    await manager.close()
    await svc.club.close()
    svc.club.hashes.close()
    store.close()


async def on_api_error(request: Request, exc: Exception) -> Response:
    """A request refused: its message in players' words, with its status."""
    assert isinstance(exc, ApiError)
    return JSONResponse({"error": str(exc)}, status_code=exc.status)
