"""The event loop never waits for the database: starting a table, reading or saving a
rule set, writing a finished game's result, and a club organiser's evening go through
a thread (the stores' calls are made where no event loop runs), so that one slow
statement holds up no other table."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

from handfoot.club.store import ClubStore
from handfoot.server.app import create_app
from handfoot.server.offloop.work import Work
from handfoot.server.services import of_state
from handfoot.server.storage.store import Store

pytestmark = pytest.mark.served  # (left out of the pure-Python pass: see test.sh)


async def _request(app: Any, method: str, path: str, body: Any = None,
                   jar: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    """One HTTP request to the application itself (ASGI), as from this machine; with
    ``jar``, the cookies it holds are sent and those set are kept there."""
    raw = b"" if body is None else json.dumps(body).encode()
    cookies = [] if not jar else [
        (b"cookie", "; ".join(f"{k}={v}" for k, v in jar.items()).encode())]
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": method, "scheme": "http", "path": path.partition("?")[0],
             "raw_path": path.partition("?")[0].encode(),
             "query_string": path.partition("?")[2].encode(), "root_path": "",
             "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
                         (b"content-length", str(len(raw)).encode()), *cookies],
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
            for name, value in message.get("headers", []):
                if jar is not None and name.lower() == b"set-cookie":
                    k, _, v = value.decode().split(";")[0].partition("=")
                    jar[k] = v
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, json.loads(b"".join(chunks) or b"null")


def _spy(monkeypatch: pytest.MonkeyPatch, names: list[str], of: type = Store
         ) -> dict[str, list[str]]:
    """Where each call of these methods of the store (``of``) is made: "event loop" or
    "thread"."""
    where: dict[str, list[str]] = {}

    def spy(name: str) -> None:
        original: Callable[..., Any] = getattr(of, name)

        def called(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                asyncio.get_running_loop()
                where.setdefault(name, []).append("event loop")
            except RuntimeError:
                where.setdefault(name, []).append("thread")
            return original(self, *args, **kwargs)

        monkeypatch.setattr(of, name, called)

    for name in names:
        spy(name)
    return where


def test_starting_a_table_and_rule_sets_never_wait_on_the_event_loop(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    where = _spy(monkeypatch, ["create_table", "rule_set", "rule_sets", "save_rule_set"])

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


def test_a_finished_game_s_result_is_written_off_the_event_loop(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game of one hand between computers: when it ends, its result (for the lobby)
    is written in a thread, and whether it was a club event's table is not asked of the
    database again (it was read with the table)."""
    where = _spy(monkeypatch, ["set_result", "event_table"])

    async def run() -> None:
        app = create_app(sqlite_url, bot_delay=0.0, work=Work(bot_workers=1))
        async with app.router.lifespan_context(app):
            status, _ = await _request(app, "POST", "/api/rule-sets/check", {
                "base": "alabama-samboree", "toml": "[game]\nhands = 1\n",
                "name": "One hand"})
            assert status == 200
            status, made = await _request(app, "POST", "/api/tables", {
                "rules": "One hand", "seed": 6,
                "seats": [{"kind": "bot", "level": "random"}] * 4})
            assert status == 200
            manager = of_state(app.state).manager
            table = manager.live[made["id"]]
            row = None
            for _ in range(1200):  # (a minute at most)
                if table.game.over:
                    row = await asyncio.to_thread(manager.store.table, made["id"])
                    if row is not None and row.result is not None:
                        break
                await asyncio.sleep(0.05)
            assert table.game.over and row is not None and row.result is not None
            assert row.result["hand_number"] == 1 and row.result["seq"] == table.seq

    asyncio.run(run())
    assert where["set_result"] == ["thread"]
    assert all(w == "thread" for w in where["event_table"]), where


def test_a_club_organisers_evening_never_waits_on_the_event_loop(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """An event made, its players listed, a round drawn and started online (a computer
    at every seat), the organiser's and the players' pages read, a link replaced, the
    round's clock started, and the games played to their end: every read and write of
    the event or its tables is made in a thread, the tables' games rebuilt off the
    loop."""
    club_calls = ["names", "load", "new_session", "session_event", "save_settings",
                  "save_draw", "clocks", "start_clock", "add_result"]
    table_calls = ["event_tables", "table", "create_table", "tag_event_table",
                   "set_seats", "event_chat", "event_table"]

    async def run() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        app = create_app(sqlite_url, bot_delay=0.0, work=Work(bot_workers=1))
        club = _spy(monkeypatch, club_calls, of=ClubStore)  # (the start's reads too)
        async with app.router.lifespan_context(app):
            tables = _spy(monkeypatch, table_calls)
            org: dict[str, str] = {}
            status, made = await _request(app, "POST", "/api/events", {
                "name": "Evening", "rules": "texas-good-sam", "rounds": 1,
                "password": "game monitor", "time_limit": 90}, jar=org)
            assert status == 200, made
            base = f"/api/events/{made['key']}"
            steps: list[tuple[str, str, Any]] = [
                ("POST", "/players", {"csv": "name\n" + "".join(
                    f"Player {i}\n" for i in range(4))}),
                ("POST", "/draw", {"round": 1, "seed": 7}),
                ("POST", "/online", {"round": 1, "table": 1, "computer": [0, 1, 2, 3],
                                     "level": "random"}),
                ("GET", "/manage", None),
                ("POST", "/invite", {"round": 1, "table": 1, "seat": 2}),
                ("POST", "/clock", {"round": 1, "do": "start"}),
                ("GET", "", None),
                ("GET", "/find?name=Player%201", None)]
            for method, path, body in steps:
                status, answer = await _request(app, method, base + path, body, jar=org)
                assert status == 200, (path, answer)
            for _ in range(1200):  # (a minute at most) the games end, their result kept
                status, page = await _request(app, "GET", base, jar=org)
                if page["drawn"][0]["results"] == 1:
                    break
                await asyncio.sleep(0.05)
            assert page["drawn"][0]["results"] == 1
        return club, tables

    club, tables = asyncio.run(run())
    assert set(club) >= {"names", "clocks", "load", "new_session", "save_draw",
                         "start_clock", "add_result"}
    assert set(tables) >= {"event_tables", "create_table", "set_seats", "event_table"}
    assert all(w == "thread" for calls in (*club.values(), *tables.values())
               for w in calls), (club, tables)
