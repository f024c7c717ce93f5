"""What the server counts for those who monitor it, in Prometheus' text format at
``/metrics`` (:mod:`handfoot.server.routes.metrics`), read by ``handfoot status``:
requests answered, WebSocket connections open, actions applied, how long an action
takes from its arrival to the states queued for every connection at the table (a
histogram), the worker pools' queues, and the errors logged.

Each server process counts its own (with ``--workers N``, each worker's figures are
its own: scrape each, or sum them). Counting takes no lock the event loop waits on
for long (``prometheus_client``'s counters are a lock-guarded float each).

>>> before = ACTIONS.labels("person")._value.get()
>>> ACTIONS.labels("person").inc()
>>> ACTIONS.labels("person")._value.get() - before
1.0
>>> b"handfoot_actions_applied_total" in render()
True
"""

from __future__ import annotations

import logging
import time

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from handfoot import __version__

REGISTRY = CollectorRegistry(auto_describe=True)

INFO = Gauge("handfoot_info", "The server's version (always 1)", ["version"],
             registry=REGISTRY)
INFO.labels(__version__).set(1)
REQUESTS = Counter("handfoot_http_requests", "HTTP requests answered, by method and status",
                   ["method", "status"], registry=REGISTRY)
CONNECTIONS = Gauge("handfoot_websocket_connections", "WebSocket connections open now",
                    registry=REGISTRY)
CONNECTED = Counter("handfoot_websocket_connections_opened",
                    "WebSocket connections opened since the server started", registry=REGISTRY)
ACTIONS = Counter("handfoot_actions_applied", "Actions verified, logged and applied, by "
                  "who played them (person or computer)", ["by"], registry=REGISTRY)
PUSH = Histogram("handfoot_push_seconds", "From a person's action arriving to the new "
                 "states queued for every connection at the table",
                 buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
                          5.0), registry=REGISTRY)
QUEUE = Gauge("handfoot_pool_queue", "Questions waiting for an answer from the worker "
              "processes (the computer players' and the people's pools)", ["pool"],
              registry=REGISTRY)
ERRORS = Counter("handfoot_errors", "Errors logged by the server (each one is in its log)",
                 registry=REGISTRY)
LAST_ERROR = Gauge("handfoot_last_error_timestamp_seconds",
                   "When the last error was logged (Unix time; 0: none)", registry=REGISTRY)

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def render() -> bytes:
    return bytes(generate_latest(REGISTRY))


class ErrorCounter(logging.Handler):
    """Counts the errors the server logs (``handfoot.server``'s and uvicorn's)."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)

    def emit(self, record: logging.LogRecord) -> None:
        ERRORS.inc()
        LAST_ERROR.set(record.created)


_COUNTER = ErrorCounter()


def count_errors() -> None:
    """Count what the server's loggers log at ERROR and above (once a process)."""
    for name in ("handfoot", "uvicorn.error"):
        logger = logging.getLogger(name)
        if _COUNTER not in logger.handlers:
            logger.addHandler(_COUNTER)


class MetricsMiddleware:
    """Counts every HTTP answer by status, and the WebSocket connections open (and,
    from when the application is built, the errors logged)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        count_errors()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            accepted = False

            async def sending(message: Message) -> None:
                nonlocal accepted
                if message["type"] == "websocket.accept" and not accepted:
                    accepted = True
                    CONNECTIONS.inc()
                    CONNECTED.inc()
                await send(message)

            try:
                await self.app(scope, receive, sending)
            finally:
                if accepted:
                    CONNECTIONS.dec()
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = [500]

        async def answering(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, answering)
        finally:
            REQUESTS.labels(scope.get("method", "GET"), str(status[0])).inc()


def parse(text: str) -> dict[str, float]:
    """The samples of a ``/metrics`` page, by name with labels (``name{a="b"}``).

    >>> parse('# HELP x y\\nx_total 3.0\\nq{pool="bots"} 2.0\\n')
    {'x_total': 3.0, 'q{pool="bots"}': 2.0}
    """
    out: dict[str, float] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            try:
                out[name] = float(value)
            except ValueError:
                continue
    return out


def observe_push(start: float) -> None:
    PUSH.observe(time.perf_counter() - start)

