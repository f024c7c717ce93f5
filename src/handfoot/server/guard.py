"""What keeps the server's doors: who is asking (the client's address, behind a proxy
from a header the operator names, believed only from the proxies the operator names),
how often they may create things, how many slow password checks run at once, and that
a request changing anything comes from the server's own pages.

>>> limits = RateLimits(tables=2)
>>> [limits.take("tables", "1.2.3.4", now=0.0) for _ in range(3)]
[True, True, False]
>>> limits.take("tables", "1.2.3.4", now=3601.0), limits.take("tables", "5.6.7.8", now=0.0)
(True, True)
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from handfoot.server.routes.http import ApiError

WINDOW = 3600.0  #: the limits count what one address made in the last hour
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass
class RateLimits:
    """Per address and hour: tables (with games against the computer), saved rule sets
    and club events created. 0: no limit."""

    tables: int = 60
    rule_sets: int = 60
    events: int = 10
    #: new people (player keys made for a name)
    players: int = 60
    window: float = WINDOW
    #: spectators' sockets open at once: at one table, and from one address (0: no limit)
    spectators: int = 100
    spectators_per_address: int = 20
    _seen: dict[tuple[str, str], list[float]] = field(default_factory=dict, repr=False)
    _watching: dict[str, int] = field(default_factory=dict, repr=False)

    def watch(self, who: str, at_table: int) -> str:
        """Let one more spectator's socket in from ``who`` at a table with ``at_table``
        spectators already (counted until :meth:`unwatch`), or say why not."""
        if self.spectators and at_table >= self.spectators:
            return (f"This table already has {self.spectators} spectators, as many as it "
                    "can take; please try again later.")
        if self.spectators_per_address and \
                self._watching.get(who, 0) >= self.spectators_per_address:
            return (f"At most {self.spectators_per_address} tables can be watched at once "
                    "from one address; close one to watch another.")
        self._watching[who] = self._watching.get(who, 0) + 1
        return ""

    def unwatch(self, who: str) -> None:
        left = self._watching.get(who, 0) - 1
        if left > 0:
            self._watching[who] = left
        else:
            self._watching.pop(who, None)

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


#: the proxies believed when the operator names a header but no proxy
LOOPBACK = ("127.0.0.1", "::1")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(addresses: Iterable[str]) -> tuple[Network, ...]:
    """The proxies' addresses (``10.0.0.5``, ``10.0.0.0/8``, ``::1``) as networks;
    ValueError names one that is not an address."""
    out = []
    for a in addresses:
        a = a.strip()
        if not a:
            continue
        try:
            out.append(ipaddress.ip_network(a, strict=False))
        except ValueError:
            raise ValueError(f"{a!r} is not an address or a network (10.0.0.5, "
                             "10.0.0.0/8)") from None
    return tuple(out)


@dataclass(frozen=True)
class AddressSource:
    """Where a client's address comes from: the socket's peer, unless the operator
    names a ``header`` (``--address-header``) and the peer is one of the operator's
    ``proxies`` (``--trusted-proxy``; the loopback addresses if none is named). A
    header sent by anyone else is ignored.

    >>> src = AddressSource("X-Forwarded-For", networks(["10.0.0.5"]))
    >>> src.believes("10.0.0.5"), src.believes("127.0.0.1"), AddressSource().believes("::1")
    (True, False, False)
    """

    header: str = ""
    proxies: tuple[Network, ...] = ()

    def __post_init__(self) -> None:
        if self.header and not self.proxies:
            object.__setattr__(self, "proxies", networks(LOOPBACK))

    def believes(self, peer: str) -> bool:
        """Whether ``peer`` may say, in the header, whose request it passes on."""
        if not self.header:
            return False
        try:
            address = ipaddress.ip_address(peer)
        except ValueError:
            return False
        return any(address.version == n.version and address in n for n in self.proxies)


def client_address(conn: HTTPConnection, source: AddressSource | None = None) -> str:
    """The client's address: the last address in the operator's header (the one the
    operator's proxy added) when the peer is one of the operator's proxies, else the
    socket's peer."""
    peer = conn.client.host if conn.client else "?"
    if source is not None and source.believes(peer):
        value = conn.headers.get(source.header, "")
        last = value.split(",")[-1].strip()
        if last:
            return last[:100]
    return peer


T = TypeVar("T")


class Busy(ApiError):
    """More slow checks are waiting than the pool takes (503)."""

    message = "Too many sign-ins at once; please try again in a moment."


class HashPool:
    """The slow password hashes (scrypt), worked out off the event loop on ``workers``
    threads of their own, at most ``queue`` more waiting: beyond that a request is
    refused (:class:`Busy`) rather than queued, so that a flood of sign-ins neither
    takes every core from the tables nor waits without end."""

    def __init__(self, workers: int = 1, queue: int = 8) -> None:
        self.workers = workers
        self.queue = queue
        self.pending = 0
        self._pool: ThreadPoolExecutor | None = None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        if self.pending >= self.workers + self.queue:
            raise Busy(Busy.message, 503)
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="hash")
        self.pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)
        finally:
            self.pending -= 1

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)


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
