"""What keeps the server's doors: who is asking (the client's address, behind a proxy
from a header the operator names), how often they may create things, and that a
request changing anything comes from the server's own pages.

>>> limits = RateLimits(tables=2)
>>> [limits.take("tables", "1.2.3.4", now=0.0) for _ in range(3)]
[True, True, False]
>>> limits.take("tables", "1.2.3.4", now=3601.0), limits.take("tables", "5.6.7.8", now=0.0)
(True, True)
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

WINDOW = 3600.0  #: the limits count what one address made in the last hour
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass
class RateLimits:
    """Per address and hour: tables (with games against the computer), saved rule sets
    and club events created. 0: no limit."""

    tables: int = 60
    rule_sets: int = 60
    events: int = 10
    window: float = WINDOW
    _seen: dict[tuple[str, str], list[float]] = field(default_factory=dict, repr=False)

    def limit(self, what: str) -> int:
        return int(getattr(self, what))

    def take(self, what: str, who: str, now: float | None = None) -> bool:
        """Count one more ``what`` for ``who``, if the limit allows (checked and counted
        at once, with no wait between: concurrent requests cannot slip past it)."""
        limit = self.limit(what)
        if limit <= 0:
            return True
        now = time.monotonic() if now is None else now
        key = (what, who)
        recent = [t for t in self._seen.get(key, []) if now - t < self.window]
        if len(recent) >= limit:
            self._seen[key] = recent
            return False
        recent.append(now)
        self._seen[key] = recent
        if len(self._seen) > 100_000:  # forget addresses with nothing recent
            self._seen = {k: v for k, v in self._seen.items() if v and now - v[-1] < self.window}
        return True

    def give_back(self, what: str, who: str) -> None:
        """The thing was not made after all (refused): it does not count."""
        seen = self._seen.get((what, who))
        if seen:
            seen.pop()


def client_address(conn: HTTPConnection, header: str = "") -> str:
    """The client's address: from ``header`` (the last address in it, the one the
    operator's proxy added) when the operator names one, else the socket's peer."""
    if header:
        value = conn.headers.get(header, "")
        last = value.split(",")[-1].strip()
        if last:
            return last[:100]
    return conn.client.host if conn.client else "?"


def same_origin(scope: Scope, public_url: str = "") -> str:
    """Why a request that changes something is refused ("" if it is not): it must come
    from the server's own pages (``Origin`` the server's address; a browser's
    ``Sec-Fetch-Site`` same-origin). Requests without these headers (scripts, tests)
    are not from a browser page and carry no cookie of the organiser's by accident."""
    headers = {k.decode("latin-1").lower(): v.decode("latin-1")
               for k, v in scope.get("headers", [])}
    site = headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return "This request comes from another site's page and is refused."
    origin = headers.get("origin")
    if origin is None:
        return ""
    own = {_origin_of(public_url)} if public_url else set()
    host = headers.get("host", "")
    scheme = scope.get("scheme", "http")
    own.add(f"{scheme}://{host}".lower())
    if origin.lower() not in own:
        return "This request comes from another site's page and is refused."
    return ""


def _origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


class SameOriginMiddleware:
    """Refuse (403) every request that changes something (POST, PUT, PATCH, DELETE)
    from another site's page, another port of the same host included."""

    def __init__(self, app: ASGIApp, public_url: str = "") -> None:
        self.app = app
        self.public_url = public_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and (
                "\x00" in scope.get("path", "") or b"%00" in scope.get("query_string", b"")
                or b"\x00" in scope.get("query_string", b"")):
            await _refuse(scope, receive, send, "An address may not hold NUL characters.")
            return
        if scope["type"] == "http" and scope.get("method", "GET") not in SAFE_METHODS:
            why = same_origin(scope, self.public_url)
            if why:
                response: Any = JSONResponse({"error": why}, status_code=403)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def _refuse(scope: Scope, receive: Receive, send: Send, message: str) -> None:
    if scope["type"] == "http":
        response: Any = JSONResponse({"error": message}, status_code=400)
        await response(scope, receive, send)
        return
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send",
                "text": json.dumps({"type": "error", "fatal": True, "message": message})})
    await send({"type": "websocket.close", "code": 4400})
