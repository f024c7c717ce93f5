"""``/api/server``: what this server process is doing, for the load test and for an
operator (its tables, its computer players, its event loop's CPU time)."""

from __future__ import annotations

import asyncio
import os
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from handfoot.server import collector
from handfoot.server.diagnostics import cpu, loopsteps
from handfoot.server.live.manager import Manager
from handfoot.server.processes import steering
from handfoot.server.services import Services, services, valid_table_id


async def api_server(request: Request) -> Response:
    """This server process: how many tables it has in memory and keeps (runs the
    computer players of), what its computer players did; its process ids only to
    a client on the same machine (the load test measures their CPU)."""
    svc = services(request)
    out = figures(svc)
    if loopsteps.installed():
        out["loop_steps"] = loopsteps.report()
    tid = request.query_params.get("table", "")
    if tid:
        out["keeps"] = valid_table_id(tid) and svc.manager.keepers.keeps(tid)
    host = request.client.host if request.client else ""
    if host in ("127.0.0.1", "::1"):
        out["pid"] = os.getpid()
        out["root"] = int(os.environ.get("HANDFOOT_SUPERVISOR", "0")) or os.getpid()
    return JSONResponse(out)


def figures(svc: Services) -> dict[str, Any]:
    """The process's counts, as ``/api/server`` gives them."""
    manager = svc.manager
    bus = manager.bus
    return {
        "process": svc.origin, "shared": svc.store.postgres, "in_step": manager.in_step(),
        "live": len(manager.live),
        "kept": len(manager.keepers.kept) if manager.keepers.shared
        else sum(1 for t in manager.live.values() if not t.game.over),
        **play_figures(manager),
        "heard": 0 if bus is None else bus.heard,
        # games sent whole to the worker processes, and calls that sent only news
        "sent_whole": manager.work.bots.sent_whole + manager.work.people.sent_whole,
        "sent_since": manager.work.bots.sent_since + manager.work.people.sent_since,
        **collector.figures(),
        # sockets handed to the process keeping their table, and handed to this one
        "steering": steering.COUNTS,
        # actions appended from the loop, and the statements that wrote them
        "appends": None if manager.appender is None else {
            "actions": manager.appender.appended,
            "statements": manager.appender.statements},
        # CPU seconds: the process, its event loop, and the loop's busiest steps
        "cpu": cpu.report(),
        # the event loop it runs on: "uvloop" or "asyncio" (.eventloop)
        "event_loop": type(asyncio.get_running_loop()).__module__.split(".")[0]}


def play_figures(manager: Manager) -> dict[str, Any]:
    """What the computer players did, and the people's moves listed."""
    work = manager.work
    return {
        # the computer players' moves decided, in how many questions (a turn each)
        "decisions": work.decisions, "plans": work.plans,
        # the people's moves listed on the event loop (the rest in a worker)
        "listed_here": work.listed_here,
        "bot_actions": manager.bot_actions, "bot_lost": manager.bot_lost}


routes: list[BaseRoute] = [Route("/api/server", api_server)]
