"""What the JSON APIs share: the error a request is refused with, reading its body,
and answers shared by requests that ask the same at once (:class:`Answers`).

>>> check_json({"a": [1, {"b": "x"}]})
>>> check_json({"name": "a\\x00b"})
Traceback (most recent call last):
...
handfoot.server.routes.http.ApiError: Text may not hold NUL characters.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

from starlette.requests import Request

MAX_DEPTH = 32  #: how deeply the lists and objects of a request may nest
SEED_RANGE = (-(2**63), 2**63 - 1)  #: a seed is kept as a signed 64-bit number


class ApiError(Exception):
    """A request refused, with the message for the person and the HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def check_json(data: Any) -> None:
    """Refuse JSON nested more than :data:`MAX_DEPTH` deep, or holding a NUL character
    (no database keeps one in text); walked without recursion."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise ApiError("Text may not hold NUL characters.")
        elif isinstance(item, dict | list):
            if depth >= MAX_DEPTH:
                raise ApiError("The request is nested too deeply.")
            if isinstance(item, dict):
                stack.extend((k, depth + 1) for k in item)
                stack.extend((v, depth + 1) for v in item.values())
            else:
                stack.extend((v, depth + 1) for v in item)


def parse_json(raw: str | bytes) -> Any:
    """JSON text as data, refused (:class:`ApiError`) if it is not JSON, is nested too
    deeply or holds a NUL character."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise ApiError("The request is not JSON (or is nested too deeply).") from None
    check_json(data)
    return data


def is_json_type(content_type: str) -> bool:
    """``application/json`` exactly (with at most a UTF-8 charset): a page of another
    site can post ``text/plain`` without asking, never ``application/json``."""
    media, _, params = content_type.partition(";")
    if media.strip().lower() != "application/json":
        return False
    for p in params.split(";"):
        if p.strip() and p.strip().lower().replace(" ", "") not in ("charset=utf-8",):
            return False
    return True


def seed_value(value: Any) -> int | None:
    """A seed from a request (None if none was given), a signed 64-bit whole number."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise ApiError("The seed must be a whole number.")
    if not SEED_RANGE[0] <= value <= SEED_RANGE[1]:
        raise ApiError("The seed must be a whole number between -2**63 and 2**63 - 1.")
    return value


async def json_body(request: Request, max_body: int, *, json_only: bool = True
                    ) -> dict[str, Any]:
    """The request's JSON object (an empty body is ``{}``); one not sent as
    ``application/json`` is refused (415), as is anything nested too deeply or holding
    NUL characters (400)."""
    if json_only and not is_json_type(request.headers.get("content-type", "")):
        raise ApiError("Send the request as JSON (Content-Type: application/json).", 415)
    raw = await request.body()
    if len(raw) > max_body:
        raise ApiError("The request is too large.", 413)
    data = parse_json(raw or b"{}")
    if not isinstance(data, dict):
        raise ApiError("The request must be a JSON object.")
    return data


def whole_number(data: dict[str, Any], key: str, what: str, default: int | None = None,
                 low: int | None = None, high: int | None = None) -> int:
    """A whole number from a request (a number, or digits as text), refused in words that
    name it (``what``) when it is missing, not a number, or outside ``low``..``high``."""
    value = data.get(key, default)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value.strip())
    if value is None or isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(f"{what} must be a whole number.")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ApiError(f"{what} must be between {low} and {high}.")
    return value


def text_field(data: dict[str, Any], key: str, limit: int = 2000) -> str:
    """Text from a request, cut to ``limit`` characters ("" when missing)."""
    value = data.get(key, "")
    if value is None:
        return ""
    if not isinstance(value, str | int):
        raise ApiError(f"{key.replace('_', ' ')} must be text.")
    return str(value)[:limit]


class Answers:
    """Answers (response bodies, as bytes) kept for ``ttl`` seconds, at most ``size`` of
    them; requests asking the same while it is being made wait for that one answer
    rather than make it again. So a crowd asking for the lobby or a replay costs the
    server one answer, made off the event loop, not one each.

    >>> async def main() -> tuple[list[bytes], int]:
    ...     answers, made = Answers(ttl=60), []
    ...     async def make() -> bytes:
    ...         made.append(1)
    ...         await asyncio.sleep(0.01)
    ...         return b"x"
    ...     out = await asyncio.gather(*(answers.get("k", make) for _ in range(5)))
    ...     return out, len(made)
    >>> asyncio.run(main())
    ([b'x', b'x', b'x', b'x', b'x'], 1)
    """

    def __init__(self, ttl: float = 1.0, size: int = 512) -> None:
        self.ttl = ttl
        self.size = size
        self._kept: OrderedDict[Hashable, tuple[float, bytes]] = OrderedDict()
        self._making: dict[Hashable, asyncio.Future[bytes]] = {}

    async def get(self, key: Hashable, make: Callable[[], Awaitable[bytes]]) -> bytes:
        now = time.monotonic()
        kept = self._kept.get(key)
        if kept is not None and now - kept[0] < self.ttl:
            self._kept.move_to_end(key)
            return kept[1]
        making = self._making.get(key)
        if making is not None:
            return await asyncio.shield(making)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._making[key] = future
        try:
            body = await make()
        except BaseException as e:
            future.set_exception(e)
            future.exception()  # (retrieved: nobody else may be waiting)
            raise
        finally:
            self._making.pop(key, None)
        future.set_result(body)
        self._kept[key] = (time.monotonic(), body)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return body

    def forget(self, match: Callable[[Hashable], bool] = lambda _: True) -> None:
        """Forget the answers whose key ``match`` (all by default); one being made is
        made again for whoever asks next."""
        for key in [k for k in self._kept if match(k)]:
            del self._kept[key]
        for key in [k for k in self._making if match(k)]:
            del self._making[key]
