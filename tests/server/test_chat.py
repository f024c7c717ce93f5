"""Chat and quick reactions at a table, through a real server's sockets on SQLite and
PostgreSQL: heard by the seated people only, stored with the table, limited in length
and rate, and off at a club event's tables when the organiser says so."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from handfoot.server.testing import Client, ServerProcess

pytestmark = pytest.mark.served  # (left out of the pure-Python pass: see test.sh)


@pytest.fixture
def server(db_url: str) -> Iterator[ServerProcess]:
    with ServerProcess(db_url, bot_delay=0.0) as s:
        yield s


def chat_lines(client: Client) -> list[dict[str, Any]]:
    with client.cond:
        return [line for m in client.messages if m["type"] == "chat" for line in m["lines"]]


def error_after(client: Client, start: int) -> str:
    return str(client.wait_new(start, lambda m: m["type"] == "error")["message"])


def test_chat_is_heard_at_the_table_and_kept_with_it(server: ServerProcess) -> None:
    made = server.post("/api/tables", {"rules": "classic", "seed": 4, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "bot"}, {"kind": "human", "name": "Bob"},
        {"kind": "bot"}]})
    tid = made["id"]
    ann, bob = (server.client(tid, i["token"]) for i in made["invites"])
    watcher = server.client(tid)
    hello = ann.wait(lambda m: m["type"] == "chat")
    assert hello["on"] and hello["lines"] == [] and "Good game!" in hello["reactions"]
    ann.send({"type": "chat", "text": "<b>Hello</b>\n  Bob\u202e!"})
    line = bob.wait(lambda m: m["type"] == "chat" and m["lines"])["lines"][0]
    # kept as it was typed (the page shows it as text), on one line, no hidden controls
    assert (line["seat"], line["kind"], line["text"]) == (0, "text", "<b>Hello</b> Bob!")
    bob.send({"type": "chat", "reaction": "Nice play!"})
    ann.wait(lambda m: m["type"] == "chat" and any(x["kind"] == "reaction" for x in m["lines"]))
    # refused, and nothing said: too long, empty, an unknown reaction, not text
    for msg, words in (({"text": "x" * 201}, "at most 200"), ({"text": " \n "}, "empty"),
                       ({"reaction": "<script>"}, "quick reactions"), ({"text": 5}, "Say")):
        start = ann.count()
        ann.send({"type": "chat", **msg})
        assert words in error_after(ann, start)
    # a spectator hears none of it and cannot speak
    start = watcher.count()
    watcher.send({"type": "chat", "text": "hi"})
    assert "Spectators" in error_after(watcher, start)
    assert not any(m["type"] == "chat" for m in watcher.messages)
    # kept with the table: someone joining again sees what was said
    ann.close()
    again = server.client(tid, made["invites"][0]["token"])
    history = again.wait(lambda m: m["type"] == "chat")["lines"]
    assert [x["text"] for x in history] == ["<b>Hello</b> Bob!", "Nice play!"]
    # at most 5 lines in 15 seconds from one seat
    for i in range(4):
        bob.send({"type": "chat", "text": f"line {i}"})
    start = bob.count()
    bob.send({"type": "chat", "text": "one too many"})
    assert "very fast" in error_after(bob, start)
    assert "one too many" not in [x["text"] for x in chat_lines(again)]
    for c in (again, bob, watcher):
        c.close()


def test_the_organiser_turns_chat_off_at_the_events_tables(server: ServerProcess) -> None:
    from club_pages import Http, create_event
    org = Http(server)
    key = create_event(org, players=4, rules="classic")
    assert org.get(f"/api/events/{key}/manage")["chat"] is True
    org.post(f"/api/events/{key}/draw", {"round": 1, "seed": 1})
    online = org.post(f"/api/events/{key}/online", {"round": 1, "table": 1,
                                                    "computer": [1, 3]})
    tid = online["table_id"]
    people = [i for i in online["invites"] if not i["computer"]]
    anyone = Http(server)
    status, _, _ = anyone.request("POST", f"/api/events/{key}/chat", {"on": False})
    assert status == 401
    org.post(f"/api/events/{key}/chat", {"on": False})
    assert org.get(f"/api/events/{key}/manage")["chat"] is False
    player = server.client(tid, people[0]["token"])
    assert player.wait(lambda m: m["type"] == "chat")["on"] is False
    start = player.count()
    player.send({"type": "chat", "text": "hello"})
    assert "off at this event" in error_after(player, start)
    org.post(f"/api/events/{key}/chat", {"on": True})
    player.send({"type": "chat", "text": "hello"})
    player.wait(lambda m: m["type"] == "chat" and m["lines"])
    player.close()
