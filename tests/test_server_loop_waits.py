"""The event loop never waits for the database: starting a table and reading or
saving a rule set go through a thread (the store's calls are made where no event loop
runs), so that one slow statement holds up no other table."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

from handfoot.server.app import create_app
from handfoot.server.store import Store
from handfoot.server.work import Work
from server_fixtures import sqlite_url  # noqa: F401

pytestmark = pytest.mark.served  # (left out of the pure-Python pass: see test.sh)


async def _request(app: Any, method: str, path: str, body: Any = None
                   ) -> tuple[int, dict[str, Any]]:
    """One HTTP request to the application itself (ASGI), as from this machine."""
    raw = b"" if body is None else json.dumps(body).encode()
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": b"", "root_path": "",
             "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
                         (b"content-length", str(len(raw)).encode())],
             "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 80)}
    sent = False
    status = 0
    chunks: list[bytes] = []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": raw, "more_body": False}
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, json.loads(b"".join(chunks) or b"null")


def test_starting_a_table_and_rule_sets_never_wait_on_the_event_loop(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    where: dict[str, list[str]] = {}

    def spy(name: str) -> None:
        original: Callable[..., Any] = getattr(Store, name)

        def called(self: Store, *args: Any, **kwargs: Any) -> Any:
            try:
                asyncio.get_running_loop()
                where.setdefault(name, []).append("event loop")
            except RuntimeError:
                where.setdefault(name, []).append("thread")
            return original(self, *args, **kwargs)

        monkeypatch.setattr(Store, name, called)

    for name in ("create_table", "rule_set", "rule_sets", "save_rule_set"):
        spy(name)

    async def run() -> None:
        app = create_app(sqlite_url, work=Work(bot_workers=1))
        async with app.router.lifespan_context(app):
            status, saved = await _request(app, "POST", "/api/rule-sets/check", {
                "base": "classic", "toml": "[deal]\nhand_size = 13\n", "name": "Ours"})
            assert status == 200 and saved["ok"], saved
            status, made = await _request(app, "POST", "/api/tables", {
                "rules": "Ours", "seed": 4, "seats": [{"kind": "bot", "level": "random"}] * 4})
            assert status == 200 and made["rules"] == "Ours", made
            status, listed = await _request(app, "GET", "/api/rule-sets")
            assert status == 200 and "Ours" in [r["name"] for r in listed["rule_sets"]]
            status, rules = await _request(app, "GET", "/api/rules/Ours")
            assert status == 200 and "hand_size = 13" in rules["toml"]

    asyncio.run(run())
    assert set(where) == {"create_table", "rule_set", "rule_sets", "save_rule_set"}
    assert all(w == "thread" for calls in where.values() for w in calls), where
