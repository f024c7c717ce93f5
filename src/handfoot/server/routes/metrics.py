"""``/metrics``: the server's figures in Prometheus' text format
(:mod:`handfoot.server.diagnostics.metrics` says what each is). The Caddyfile in
deploy/ keeps it from the public: a monitor asks the server on its own address."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from handfoot.server.diagnostics import metrics
from handfoot.server.services import services


async def page(request: Request) -> Response:
    """The figures; the worker pools' queues as they are now."""
    work = services(request).manager.work
    metrics.QUEUE.labels("bots").set(work.bots.queued())
    metrics.QUEUE.labels("people").set(work.people.queued())
    return Response(metrics.render(), media_type=metrics.CONTENT_TYPE)


routes: list[BaseRoute] = [Route("/metrics", page)]
