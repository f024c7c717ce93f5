"""What the JSON APIs share: the error a request is refused with, and reading its body."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request


class ApiError(Exception):
    """A request refused, with the message for the person and the HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


async def json_body(request: Request, max_body: int, *, json_only: bool = False
                    ) -> dict[str, Any]:
    """The request's JSON object (an empty body is ``{}``); with ``json_only``, a request
    not sent as JSON is refused (a form posted from another site cannot carry a session
    cookie into the API)."""
    if json_only and "json" not in request.headers.get("content-type", ""):
        raise ApiError("Send the request as JSON.", 415)
    raw = await request.body()
    if len(raw) > max_body:
        raise ApiError("The request is too large.", 413)
    try:
        data = json.loads(raw or b"{}")
    except ValueError:
        raise ApiError("The request is not JSON.") from None
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
