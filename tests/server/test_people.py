"""People, not seats: a person's name kept under their player key and shown wherever
their seat is named, Play again, a person's games (``/api/me``), absent players, the
optional password and the ratings; every bad request refused in words, with nothing
changed."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from handfoot.server.testing import Client, ServerProcess

pytestmark = pytest.mark.served


@pytest.fixture
def server(sqlite_url: str) -> Iterator[ServerProcess]:
    with ServerProcess(sqlite_url, bot_delay=0.0) as s:
        yield s


@pytest.fixture
def either(db_url: str) -> Iterator[ServerProcess]:
    """A server on SQLite, and on PostgreSQL where it is running."""
    with ServerProcess(db_url, bot_delay=0.0) as s:
        yield s


def person(server: ServerProcess, name: str) -> str:
    """A new person of that name: their player key."""
    status, out = server.request("POST", "/api/me", {"name": name})
    assert status == 200 and out["name"] == " ".join(name.split()), out
    return str(out["key"])


def as_(key: str) -> dict[str, str]:
    return {"X-Player-Key": key}


def me(server: ServerProcess, key: str) -> dict[str, Any]:
    status, out = server.request("GET", "/api/me", headers=as_(key))
    assert status == 200, out
    return dict(out)


def three_and_a_computer(server: ServerProcess, rules: str = "texas-good-sam",
                         **extra: Any) -> dict[str, Any]:
    """Ann and Cy against Bob and a hard computer."""
    return dict(server.post("/api/tables", {"rules": rules, "seats": [
        {"kind": "human", "name": "seat one"}, {"kind": "human"},
        {"kind": "human"}, {"kind": "bot", "level": "hard"}], **extra}))


def sit(server: ServerProcess, table: str, token: str, key: str) -> dict[str, Any]:
    status, out = server.request("POST", f"/api/tables/{table}/sit", {"token": token},
                                 headers=as_(key))
    assert status == 200, out
    return dict(out)


def test_names_stay_and_are_shown_on_the_seats_in_the_log_lobby_and_record(
        server: ServerProcess) -> None:
    ann, bob, cy = (person(server, n) for n in ("Ann", "Bob", "Cy"))
    made = three_and_a_computer(server)
    tid, tokens = made["id"], [i["token"] for i in made["invites"]]
    for key, token in zip((ann, bob, cy), tokens, strict=True):
        sit(server, tid, token, key)
    c = server.client(tid, tokens[2], player=cy)
    try:
        st = c.wait(lambda m: m["type"] == "state" and m["seats"][0]["name"] == "Ann"
                    and m["seats"][1]["name"] == "Bob")
        assert [s["called"] for s in st["seats"]] == ["Ann", "Bob", "Cy", "Computer (hard)"]
        # the seat's own name given by the host gave way to the person's own
        lobby = {t["id"]: t for t in server.get("/api/tables")["tables"]}[tid]
        assert [s["called"] for s in lobby["seats"]] == ["Ann", "Bob", "Cy", "Computer (hard)"]
        # everyone hands their seat to the computer: the game is played out
        for token, key in zip(tokens, (ann, bob, cy), strict=True):
            other = c if token == tokens[2] else server.client(tid, token, player=key)
            other.send({"type": "computer", "on": True})
            if other is not c:
                other.wait(lambda m: m["type"] == "state")
                other.close()
        over = c.wait(lambda m: m["type"] == "state" and m["view"]["game_over"], timeout=120)
        texts = " | ".join(e["text"] for e in over["log"])
        # (Cy's words: Ann is Cy's partner)
        assert "Ann (your partner) " in texts and "Bob " in texts
        assert "Computer (hard) " in texts and "Player " not in texts
    finally:
        c.close()
    record = server.get(f"/api/tables/{tid}/record")
    assert record["players"] == ["Ann", "Bob", "Cy", "Computer (hard)"]
    replay = server.get(f"/api/tables/{tid}/replay?step=0")
    assert replay["names"] == ["Ann", "Bob", "Cy", "Computer (hard)"]


def test_a_person_s_key_and_the_refusals_of_api_me(server: ServerProcess) -> None:
    status, out = server.request("GET", "/api/me")
    assert status == 401 and "no player key" in out["error"]
    status, out = server.request("GET", "/api/me", headers=as_("not-a-key"))
    assert status == 401 and "not known" in out["error"]
    for bad, words in (({"name": ""}, "Say your name"), ({"name": 5}, "must be text"),
                       ({"name": "x" * 41}, "at most 40"),
                       ({"name": "Ann", "leaderboard": "yes"}, "leaderboard: true")):
        status, out = server.request("POST", "/api/me", bad)
        assert status == 400 and words in out["error"], (bad, out)
    ann = person(server, "  Ann \t Lee ")
    assert me(server, ann)["name"] == "Ann Lee"
    status, out = server.request("POST", "/api/me", {"name": "Annie"}, headers=as_(ann))
    assert status == 200 and out["name"] == "Annie" and me(server, ann)["name"] == "Annie"


def test_play_again_seats_the_same_people_and_old_links_lead_there(
        either: ServerProcess) -> None:
    server = either
    ann, bob, cy = (person(server, n) for n in ("Ann", "Bob", "Cy"))
    outsider = person(server, "Dee")
    made = three_and_a_computer(server)
    tid, tokens = made["id"], [i["token"] for i in made["invites"]]
    for key, token in zip((ann, bob, cy), tokens, strict=True):
        sit(server, tid, token, key)
    status, out = server.request("POST", f"/api/tables/{tid}/again", {"token": tokens[0]})
    assert status == 409 and "once this one is over" in out["error"]
    clients = [server.client(tid, t, player=k) for t, k in zip(tokens, (ann, bob, cy),
                                                                 strict=True)]
    try:
        for c in clients:
            c.wait(lambda m: m["type"] == "state")
            c.send({"type": "computer", "on": True})
        clients[0].wait(lambda m: m["type"] == "state" and m["view"]["game_over"],
                        timeout=120)
        # nobody else may start the next game: not seated, a wrong token, nothing
        for body, headers in (({}, as_(outsider)), ({"token": "nope"}, {}), ({}, {})):
            status, out = server.request("POST", f"/api/tables/{tid}/again", body,
                                         headers=headers)
            assert status in (400, 403), out
        assert server.get("/api/tables")["tables"][0]["id"] == tid  # nothing new
        # Bob presses Play again (by his key), Cy a moment later: one next game
        first = server.request("POST", f"/api/tables/{tid}/again", {}, headers=as_(bob))
        second = server.request("POST", f"/api/tables/{tid}/again", {"token": tokens[2]})
        assert first[0] == second[0] == 200 and first[1]["id"] == second[1]["id"]
        new = first[1]["id"]
        assert new != tid
        # everyone on the page is told where to go
        for c in clients:
            assert c.wait(lambda m: m["type"] == "again")["table"] == new
    finally:
        for c in clients:
            c.close()
    # the same link opens the same seat at the next game, under the same name, with a
    # new deal dealt from a new secret
    again = server.client(new, tokens[1], player=bob)
    try:
        st = again.wait(lambda m: m["type"] == "state")
        assert st["seat"] == 1 and not st["seeded"]
        assert [s["called"] for s in st["seats"]] == ["Ann", "Bob", "Cy", "Computer (hard)"]
        assert not any(s["computer"] for s in st["seats"][:3])
    finally:
        again.close()
    # an old link leads there
    old = server.client(tid, tokens[0])
    try:
        assert old.wait(lambda m: m["type"] == "again")["table"] == new
    finally:
        old.close()
    games = me(server, ann)["games"]
    assert [g["table"] for g in games] == [new, tid]
    assert games[1]["over"] and games[1]["next"] == new and games[1]["partners"] == ["Cy"]
    assert not games[0]["over"]
    status, out = server.request("POST", "/api/tables/nosuch/again", {"token": tokens[0]})
    assert status == 404


def play_out(server: ServerProcess, tid: str, tokens: list[str], keys: list[str]
             ) -> dict[str, Any]:
    """Every person hands their seat to the computer; the finished game's last state."""
    clients = [server.client(tid, t, player=k) for t, k in zip(tokens, keys, strict=True)]
    try:
        for c in clients:
            c.wait(lambda m: m["type"] == "state")
            c.send({"type": "computer", "on": True})
        return clients[0].wait(lambda m: m["type"] == "state" and m["view"]["game_over"],
                               timeout=120)
    finally:
        for c in clients:
            c.close()


def rating(server: ServerProcess, key: str, rules: str) -> dict[str, Any] | None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        found = [r for r in me(server, key)["ratings"] if r["rules"] == rules]
        if found:
            return dict(found[0])
        time.sleep(0.1)
    return None


def test_ratings_move_the_right_way_and_only_rated_games_count(
        server: ServerProcess) -> None:
    ann, bob, cy = (person(server, n) for n in ("Ann", "Bob", "Cy"))
    made = three_and_a_computer(server)
    tid, tokens = made["id"], [i["token"] for i in made["invites"]]
    for key, token in zip((ann, bob, cy), tokens, strict=True):
        sit(server, tid, token, key)
    end = play_out(server, tid, tokens, [ann, bob, cy])
    winners = end["view"]["winners"]
    rated = {k: rating(server, k, "texas-good-sam") for k in (ann, bob, cy)}
    assert all(r is not None and r["games"] == 1 for r in rated.values())
    team_of = {ann: 0, cy: 0, bob: 1}
    for key, r in rated.items():
        assert r is not None
        assert (r["mu"] > 25) == (team_of[key] in winners), (winners, r)
        assert r["sigma"] < 25 / 3
    # a seeded game is not rated
    seeded = three_and_a_computer(server, seed=5)
    stoks = [i["token"] for i in seeded["invites"]]
    for key, token in zip((ann, bob, cy), stoks, strict=True):
        sit(server, seeded["id"], token, key)
    play_out(server, seeded["id"], stoks, [ann, bob, cy])
    time.sleep(0.5)
    assert [r["games"] for r in me(server, ann)["ratings"]] == [1]
    # the leaderboard shows only those who chose to appear
    board = server.get("/api/ratings?rules=texas-good-sam")
    assert board["people"] == []
    server.request("POST", "/api/me", {"leaderboard": True}, headers=as_(bob))
    board = server.get("/api/ratings?rules=texas-good-sam")
    assert [p["name"] for p in board["people"]] == ["Bob"]
    status, out = server.request("GET", "/api/ratings?rules=no-such-rules")
    assert status == 404 and "no rule set called" in out["error"]
    status, out = server.request("GET", "/api/ratings")
    assert status == 400 and "Say which rule set" in out["error"]


def test_a_password_signs_in_on_another_device_and_wrong_ones_are_throttled(
        server: ServerProcess) -> None:
    ann = person(server, "Ann")
    for bad, words in (({}, "Say the password"), ({"password": "short"}, "at least 8"),
                       ({"password": 7}, "Say the password")):
        status, out = server.request("POST", "/api/me/password", bad, headers=as_(ann))
        assert status == 400 and words in out["error"], out
    status, out = server.request("POST", "/api/me/password", {"password": "long enough"})
    assert status == 401
    status, out = server.request("POST", "/api/me/password", {"password": "long enough"},
                                 headers=as_(ann))
    assert status == 200, out
    # another Ann may not take the name for signing in
    other = person(server, "Ann")
    status, out = server.request("POST", "/api/me/password", {"password": "another one"},
                                 headers=as_(other))
    assert status == 409 and "Someone else signs in as" in out["error"]
    status, out = server.request("POST", "/api/me/sign-in",
                                 {"name": "ann", "password": "long enough"})
    assert status == 200 and out["id"] == me(server, ann)["id"] and out["key"] != ann
    assert me(server, out["key"])["id"] == me(server, ann)["id"]
    codes = [server.request("POST", "/api/me/sign-in",
                            {"name": "Ann", "password": f"wrong {i}"})[0] for i in range(7)]
    assert codes[:5] == [403] * 5 and codes[5:] == [429, 429]
    # even the right password waits out the minute
    status, _ = server.request("POST", "/api/me/sign-in",
                               {"name": "Ann", "password": "long enough"})
    assert status == 429


def test_a_person_who_left_is_named_and_their_seat_may_be_handed_over_after_the_wait(
        server: ServerProcess) -> None:
    ann, bob, cy = (person(server, n) for n in ("Ann", "Bob", "Cy"))
    made = three_and_a_computer(server, settings={"absent_wait": 2})
    tid, tokens = made["id"], [i["token"] for i in made["invites"]]
    clients: list[Client] = [server.client(tid, t, player=k)
                             for t, k in zip(tokens, (ann, bob, cy), strict=True)]
    try:
        for c in clients:
            c.wait(lambda m: m["type"] == "state" and [s["name"] for s in m["seats"][:3]]
                   == ["Ann", "Bob", "Cy"])
        ann_c, bob_c, cy_c = clients
        bob_c.close()
        said = ann_c.wait(lambda m: m["type"] == "presence")
        assert said["message"] == "Bob left the table." and said["seat"] == 1
        n = cy_c.count()
        cy_c.send({"type": "computer", "seat": 1, "on": True})
        err = cy_c.wait_new(n, lambda m: m["type"] == "error")
        assert "Bob left" in err["message"] and "after 2 seconds" in err["message"]
        st = cy_c.wait(lambda m: m["type"] == "state" and m["seats"][1]["hand_over"],
                       timeout=10)
        assert st["seats"][1]["away"] and not st["seats"][1]["computer"]
        cy_c.send({"type": "computer", "seat": 1, "on": True})
        cy_c.wait(lambda m: m["type"] == "state" and m["seats"][1]["computer"])
        # Bob comes back: his seat is his again, and the others are told
        n = ann_c.count()
        bob_c = clients[1] = server.client(tid, tokens[1], player=bob)
        assert ann_c.wait_new(n, lambda m: m["type"] == "presence")["message"] == "Bob is back."
        back = bob_c.wait(lambda m: m["type"] == "state" and not m["seats"][1]["computer"])
        assert not back["seats"][1]["away"]
    finally:
        for c in clients:
            c.close()
    for bad in ({"absent_wait": -1}, {"turn_seconds": 5}, {"nap": 3}, "60"):
        status, out = server.request("POST", "/api/tables", {"rules": "classic", "seats": [
            {"kind": "human"}] + [{"kind": "bot"}] * 3, "settings": bad})
        assert status == 400, out


def test_the_turn_timer_nudges_the_person_to_play(server: ServerProcess) -> None:
    out = server.post("/api/tables", {"rules": "texas-good-sam", "settings": {
        "turn_seconds": 15}, "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot"},
                                       {"kind": "bot"}, {"kind": "bot"}], "seed": 4})
    ann = server.client(out["id"], out["invites"][0]["token"])
    try:
        ann.wait(lambda m: m["type"] == "state" and m["view"]["actor"] == 0
                 and bool(m["legal"]))
        nudge = ann.wait(lambda m: m["type"] == "presence", timeout=25)
        assert nudge["message"].startswith("Your turn") and nudge["seat"] == 0
    finally:
        ann.close()


def test_the_computer_levels_are_rated_by_handfoot_ratings_and_shown_beside_people(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from handfoot.cli import main
    db = f"sqlite:///{tmp_path / 'r.db'}"
    args = ["ratings", "--rules", "texas-good-sam", "--levels", "easy,medium",
            "--games", "4", "--seed", "3", "--db", db, "--json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)["texas-good-sam"]
    # the medium computer beats the easy one: its rating is the higher
    assert first["medium"]["mu"] > 25 > first["easy"]["mu"]
    assert first["medium"]["games"] == first["easy"]["games"] == 8
    assert main(args) == 0  # the same seed: the same ratings
    assert json.loads(capsys.readouterr().out)["texas-good-sam"] == first
    assert main(["ratings", "--levels", "easy,superb", "--db", db]) == 2
    assert "superb" in capsys.readouterr().err
    with ServerProcess(db, bot_delay=0.0) as server:
        board = server.get("/api/ratings?rules=texas-good-sam")
        assert board["computers"]["medium"]["mu"] == first["medium"]["mu"]
        assert set(board["computers"]) == {"easy", "medium"}
        ann = person(server, "Ann")
        made = server.post("/api/tables", {"rules": "texas-good-sam", "seats": [
            {"kind": "human"}, {"kind": "bot", "level": "easy"},
            {"kind": "bot", "level": "medium"}, {"kind": "bot", "level": "easy"}]})
        token = made["invites"][0]["token"]
        sit(server, made["id"], token, ann)
        play_out(server, made["id"], [token], [ann])
        mine = rating(server, ann, "texas-good-sam")
        assert mine is not None and mine["like"].endswith("computer")
        assert "computer" in mine["like"] and mine["games"] == 1


def test_a_signed_in_person_rejoins_their_live_seat_on_another_device(
        server: ServerProcess) -> None:
    ann = person(server, "Ann")
    server.request("POST", "/api/me/password", {"password": "long enough"},
                   headers=as_(ann))
    made = server.post("/api/tables", {"rules": "classic", "seats": [
        {"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 3})
    tid, token = made["id"], made["invites"][0]["token"]
    sit(server, tid, token, ann)
    here = server.client(tid, token, player=ann)
    here.wait(lambda m: m["type"] == "state")
    _, phone = server.request("POST", "/api/me/sign-in",
                              {"name": "Ann", "password": "long enough"})
    status, out = server.request("POST", f"/api/tables/{tid}/rejoin", {},
                                 headers=as_(phone["key"]))
    assert status == 409 and "another device" in out["error"]  # still at it here
    here.close()
    time.sleep(0.3)
    outsider = person(server, "Dee")
    status, out = server.request("POST", f"/api/tables/{tid}/rejoin", {},
                                 headers=as_(outsider))
    assert status == 403
    status, out = server.request("POST", f"/api/tables/{tid}/rejoin", {},
                                 headers=as_(phone["key"]))
    assert status == 200 and out["seat"] == 0
    there = server.client(tid, out["token"], player=phone["key"])
    try:
        assert there.wait(lambda m: m["type"] == "state")["seat"] == 0
    finally:
        there.close()
    # the old link no longer opens the seat
    old = server.client(tid, token)
    try:
        assert old.wait(lambda m: m["type"] == "error")["message"].startswith(
            "This invite link is not valid")
    finally:
        old.close()
