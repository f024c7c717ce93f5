"""``/metrics``: the server's figures in Prometheus' text format
(:mod:`handfoot.server.diagnostics.metrics` says what each is). The Caddyfile in
deploy/ keeps it from the public: a monitor asks the server on its own address."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from handfoot.server.diagnostics import metrics
from handfoot.server.live.manager import Manager


def metrics_routes(manager: Manager) -> list[Route]:
    metrics.count_errors()
    metrics.queue_function("bots", manager.work.bots.queued)
    metrics.queue_function("people", manager.work.people.queued)

    async def page(request: Request) -> Response:
        return Response(metrics.render(), media_type=metrics.CONTENT_TYPE)

    return [Route("/metrics", page)]
