"""The host of a table (the browser that set it up): invite links seen again, a new
link for a seat, a game that waits for its people or is started by the host, and a
finished or abandoned table removed. Through a real server's HTTP API and sockets,
on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from handfoot.server.testing import ServerProcess

pytestmark = pytest.mark.served  # (left out of the pure-Python pass: see test.sh)


@pytest.fixture
def server(db_url: str) -> Iterator[ServerProcess]:
    with ServerProcess(db_url, bot_delay=0.0) as s:
        yield s


def hosted_table(server: ServerProcess) -> Any:
    return server.post("/api/tables", {"rules": "classic", "wait": True, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"},
        {"kind": "human", "name": "  Bob\n Smith "}, {"kind": "bot", "level": "easy"}]})


def test_the_host_sees_the_links_again_and_replaces_one(server: ServerProcess) -> None:
    made = hosted_table(server)
    tid, creator = made["id"], made["creator"]
    assert made["waiting"] is True
    urls = {i["seat"]: i["url"] for i in made["invites"]}
    assert [i["name"] for i in made["invites"]] == ["Ann", "Bob Smith"]
    # after a reload the host's browser asks again, with its creator token
    host = server.post(f"/api/tables/{tid}/host", {"creator": creator})
    assert {s["seat"]: s["url"] for s in host["seats"] if s["kind"] == "human"} == urls
    assert [s["url"] for s in host["seats"] if s["kind"] == "bot"] == [None, None]
    assert host["waiting"] and host["removable"]  # nobody is at it yet
    # nobody else gets them: no token, a wrong one, another table's
    other = hosted_table(server)
    for body in ({}, {"creator": "guess"}, {"creator": other["creator"]}, {"creator": 5}):
        status, err = server.request("POST", f"/api/tables/{tid}/host", body)
        assert status == 403 and "set up this table" in err["error"]
        assert "url" not in str(err)
    # a new link for Bob: the old one stops working, the new one seats him
    old_token = urls[2].split("token=")[1]
    new = server.post(f"/api/tables/{tid}/invite", {"creator": creator, "seat": 2})
    assert new["seat"] == 2 and new["url"] != urls[2]
    stale = server.client(tid, old_token)
    assert "not valid" in stale.wait(lambda m: m["type"] == "error")["message"]
    stale.close()
    again = server.post(f"/api/tables/{tid}/host", {"creator": creator})
    assert again["seats"][2]["url"] == new["url"] and again["seats"][0]["url"] == urls[0]
    for body in ({"creator": creator, "seat": 1}, {"creator": creator, "seat": 9},
                 {"creator": creator, "seat": "2"}, {"creator": "x", "seat": 2}):
        status, err = server.request("POST", f"/api/tables/{tid}/invite", body)
        assert status in (400, 403) and err["error"]
    assert server.post(f"/api/tables/{tid}/host", {"creator": creator}) == again


def test_the_game_waits_for_everyone_then_starts_by_itself(server: ServerProcess) -> None:
    made = hosted_table(server)
    tid = made["id"]
    tokens = [i["token"] for i in made["invites"]]
    ann = server.client(tid, tokens[0])
    st = ann.state()
    assert st["waiting_to_start"] and st["legal"] == [] and st["seq"] == 0
    assert [s["joined"] for s in st["seats"]] == [True, False, False, False]
    ann.act({"type": "draw"})  # whoever's turn it is, nothing moves before the start
    assert "everyone has joined" in ann.wait(lambda m: m["type"] == "error")["message"]
    listed = {t["id"]: t for t in server.get("/api/tables")["tables"]}
    assert listed[tid]["waiting"] and not listed[tid]["started"]
    bob = server.client(tid, tokens[1])
    st = bob.wait(lambda m: m["type"] == "state" and not m["waiting_to_start"])
    # now it is played: the computers by themselves, the people with their moves listed
    if st["view"]["actor"] in (0, 2):
        who = ann if st["view"]["actor"] == 0 else bob
        assert who.wait(lambda m: m["type"] == "state" and m["legal"])
    else:
        ann.state(min_seq=1, timeout=30)
    assert not server.post(f"/api/tables/{tid}/host", {"creator": made["creator"]})["waiting"]
    status, err = server.request("POST", f"/api/tables/{tid}/start",
                                 {"creator": made["creator"]})
    assert status == 409 and "already started" in err["error"]
    ann.close()
    bob.close()


def test_the_host_starts_with_computers_who_give_the_seat_back(server: ServerProcess) -> None:
    made = hosted_table(server)
    tid, creator = made["id"], made["creator"]
    tokens = [i["token"] for i in made["invites"]]
    ann = server.client(tid, tokens[0])
    assert ann.state()["waiting_to_start"]
    status, _ = server.request("POST", f"/api/tables/{tid}/start", {"creator": "nope"})
    assert status == 403
    server.post(f"/api/tables/{tid}/start", {"creator": creator})
    st = ann.wait(lambda m: m["type"] == "state" and not m["waiting_to_start"])
    assert st["seats"][2]["computer"] and not st["seats"][0]["computer"]
    if st["view"]["actor"] != 0:  # the computers (Bob's seat too) play until Ann's turn
        ann.wait(lambda m: m["type"] == "state" and m["seq"] > 0, timeout=30)
    # Bob comes after all: his seat is his again
    bob = server.client(tid, tokens[1])
    assert not bob.wait(lambda m: m["type"] == "state"
                        and not m["seats"][2]["computer"])["seats"][2]["computer"]
    ann.close()
    bob.close()


def test_only_the_host_hands_an_absent_seat_to_the_computer(server: ServerProcess) -> None:
    made = server.post("/api/tables", {"rules": "classic", "seed": 3, "seats": [
        {"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]})
    tid, creator = made["id"], made["creator"]
    tokens = [i["token"] for i in made["invites"]]
    ann = server.client(tid, tokens[0])
    ann.state()
    ann.send({"type": "computer", "seat": 1, "on": True})
    assert "set up this table" in ann.wait(lambda m: m["type"] == "error")["message"]
    ann.send({"type": "computer", "seat": 1, "on": True, "creator": creator})
    assert ann.wait(lambda m: m["type"] == "state" and m["seats"][1]["computer"])
    ann.close()


def test_a_seat_handed_to_the_computer_just_before_leaving_is_played(
        server: ServerProcess) -> None:
    """A person who taps "computer" and closes the page at once: the message was sent,
    so the computer plays their seat (the server reads what a closed socket sent)."""
    for _ in range(3):
        made = server.post("/api/tables", {"rules": "texas-good-sam", "seats": [
            {"kind": "human"}, {"kind": "bot"}, {"kind": "human"}, {"kind": "bot"}]})
        tid, tokens = made["id"], [i["token"] for i in made["invites"]]
        watcher = server.client(tid, tokens[1])
        watcher.state()
        leaving = server.client(tid, tokens[0])
        leaving.send({"type": "computer", "on": True})
        leaving.close()  # before any answer came
        # the page has gone, and the computer holds the seat
        assert watcher.wait(lambda m: m["type"] == "state" and m["seats"][0]["computer"]
                            and not m["seats"][0]["connected"])
        watcher.close()


def test_the_host_removes_a_finished_or_abandoned_table(server: ServerProcess) -> None:
    made = hosted_table(server)
    tid, creator = made["id"], made["creator"]
    ann = server.client(tid, made["invites"][0]["token"])
    ann.state()
    status, err = server.request("POST", f"/api/tables/{tid}/remove", {"creator": creator})
    assert status == 409 and "still playing" in err["error"]
    ann.close()
    status, err = server.request("POST", f"/api/tables/{tid}/remove", {"creator": "x"})
    assert status == 403
    server.post(f"/api/tables/{tid}/remove", {"creator": creator})
    assert tid not in [t["id"] for t in server.get("/api/tables")["tables"]]
    status, _ = server.request("GET", f"/api/tables/{tid}")
    assert status == 404


def test_the_computer_levels_offered_are_easy_medium_and_hard(server: ServerProcess) -> None:
    from club_pages import Http, create_event
    assert server.get("/api/rule-sets")["levels"] == ["easy", "medium", "hard"]
    org = Http(server)
    key = create_event(org)
    assert org.get(f"/api/events/{key}/manage")["levels"] == ["easy", "medium", "hard"]
    # a bot's own name, as older tables and tests have it, is still taken and shown
    # in the words people were offered
    made = server.post("/api/tables", {"rules": "classic", "seats": [
        {"kind": "bot", "level": "heuristic"}, {"kind": "bot", "level": "random"},
        {"kind": "bot", "level": "hard"}, {"kind": "human"}]})
    table = server.get(f"/api/tables/{made['id']}")
    assert [s["level"] for s in table["seats"]] == ["medium", "easy", "hard", None]
    status, err = server.request("POST", "/api/tables", {"rules": "classic", "seats": [
        {"kind": "bot", "level": "genius"}] * 4})
    assert status == 400 and err["error"].endswith("the levels are easy, medium, hard.")
