"""A served game nobody can freeze, predict or flood (issue 13): the server tried as an
attacker and as a busy club would, through a real server process on 127.0.0.1."""

from __future__ import annotations

import base64
import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from club_pages import PASSWORD, Http, create_event, wait_for
from handfoot.actions import action_from_json
from handfoot.game import Game
from handfoot.game.fair import KeyedRandom, hand_salt
from handfoot.game.records import load, replay
from handfoot.game.views import seat_view
from handfoot.rules import preset
from handfoot.server.testing import Client, ServerProcess

pytestmark = pytest.mark.served  # (left out of the pure-Python pass: see test.sh)


@pytest.fixture
def server_plain(sqlite_url: str) -> Iterator[ServerProcess]:
    with ServerProcess(sqlite_url, bot_delay=0.0) as s:
        yield s


def raw_websocket(port: int, path: str, rcvbuf: int = 2048) -> socket.socket:
    """A WebSocket opened by hand with a tiny receive buffer, never read after the
    handshake."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    assert b" 101 " in head.split(b"\r\n")[0], head
    return s


def play_simply(client: Client, seat: int, turns: int, timeout: float = 30.0) -> list[float]:
    """Play ``turns`` actions for ``seat`` (draw, else discard, else anything legal);
    the seconds each took to come back as a new state."""
    took: list[float] = []
    seq = client.state()["seq"]
    while len(took) < turns:
        st = client.state(seq, timeout)
        if st["view"]["game_over"]:
            break
        if st["waiting"]:  # between hands: the game goes on once each person pressed
            client.resumed(st["seq"], timeout)
            continue
        if st["view"]["actor"] != seat or not st["legal"]:
            seq = st["seq"] + 1
            continue
        legal = st["legal"]
        pick = next((a for a in legal if a["type"] == "draw"),
                    next((a for a in legal if a["type"] == "discard"), legal[0]))
        start = time.monotonic()
        client.act(pick)
        st = client.state(st["seq"] + 1, timeout)
        took.append(time.monotonic() - start)
        seq = st["seq"]
    return took


# ----------------------------------------------------- 1. an idle spectator


@pytest.mark.slow
def test_a_socket_that_never_reads_does_not_freeze_the_table(
        sqlite_url: str) -> None:
    # Compressed, the states never fill what the kernel buffers for a socket that never
    # reads: such a socket is closed when it does not answer the server's ping. Pinged
    # every 10 s (20 served), it is closed about 20 s in, once the play below is over
    # (some 15 to 20 s), not 40 s in.
    with ServerProcess(sqlite_url, bot_delay=0.02, args=("--ping-seconds", "10")) as server:
        # six decks: the states grow long (the code before froze the table at about 270
        # actions, uncompressed)
        out = server.post("/api/tables", {"rules": "six-deck", "seed": 11, "seats": [
            {"kind": "human"}, {"kind": "bot", "level": "easy"},
            {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]})
        tid, token = out["id"], out["invites"][0]["token"]
        stuck = [raw_websocket(server.port, f"/ws/{tid}") for _ in range(3)]
        me = server.client(tid, token)
        watcher = server.client(tid)
        try:
            # the person and the computers play on at normal speed: 150 of the person's
            # actions, each answered at once, while three sockets never read a byte
            took = play_simply(me, 0, 150)
            assert len(took) == 150 or me.state()["view"]["game_over"], len(took)
            assert max(took) < 5.0, took
            seq = me.state()["seq"]
            assert seq > 500 or me.state()["view"]["game_over"], seq
            assert watcher.state(seq)["seq"] >= seq  # a spectator who reads keeps up
            # the sockets that do not keep up were dropped (they can come back)
            for s in stuck:
                s.settimeout(30)
                got = b""
                while True:
                    chunk = s.recv(1 << 16)
                    if not chunk:
                        break
                    got += chunk
                assert got  # it was sent what it could take, then closed
        finally:
            me.close()
            watcher.close()
            for s in stuck:
                s.close()


def test_serve_refuses_a_ping_interval_of_zero() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "handfoot.server", "--port", "1", "--db", "sqlite://",
         "--ping-seconds", "0"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "--ping-seconds must be more than 0" in proc.stderr


# ----------------------------------------------- 2, 3. secret, fair deals


def _secret_of(db: str, tid: str) -> tuple[str, int]:
    path = db.removeprefix("sqlite:///")
    with sqlite3.connect(path) as c:
        secret = c.execute("select secret from tables where id = ?", (tid,)).fetchone()[0]
        seed = c.execute("select seed from tables where id = ?", (tid,)).fetchone()[0]
    return str(secret), int(seed)


def test_a_served_game_is_dealt_from_a_secret_nobody_sees_and_its_deals_are_proved(
        sqlite_url: str, tmp_path: Path) -> None:
    with ServerProcess(sqlite_url, bot_delay=0.0) as server:
        out = server.post("/api/tables", {"rules": "texas-good-sam", "seats": [
            {"kind": "human"}, {"kind": "bot", "level": "easy"},
            {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]})
        tid, token = out["id"], out["invites"][0]["token"]
        secret, seed = _secret_of(sqlite_url, tid)
        assert re.fullmatch(r"[0-9a-f]{64}", secret) and seed == 0  # 256 bits, no seed
        me = server.client(tid, token)
        seen: list[str] = []
        try:
            first = me.wait(lambda m: m["type"] == "state")
            # the deal comes from the secret through the keyed generator, nothing else
            expected = Game(preset("texas-good-sam"), None, rng=KeyedRandom(secret))
            for seat, action in _logged(sqlite_url, tid)[:first["seq"]]:
                expected.apply(action_from_json(action), seat)
            assert first["view"]["hand"] == seat_view(expected, 0).to_json()["hand"]
            commitment = first["commitment"]
            assert commitment["hand"] == 1 and re.fullmatch(r"[0-9a-f]{64}",
                                                            commitment["sha256"])
            play_simply(me, 0, 20, timeout=60)
            # the API while the game is played: the table, the lobby; the record and the
            # replay are refused
            for url in (f"/api/tables/{tid}", "/api/tables", "/api/rule-sets",
                        f"/api/tables/{tid}/record", f"/api/tables/{tid}/replay?step=5"):
                status, body = server.request("GET", url)
                assert status == (403 if "/re" in url else 200), (url, status)
                seen.append(json.dumps(body))
            play_simply(me, 0, 400, timeout=60)
            final = me.wait(lambda m: m["type"] == "state" and m["view"]["game_over"],
                            timeout=120)
            live = [m for m in me.messages if not (m["type"] == "state"
                                                   and m["view"]["game_over"])]
            seen.append(json.dumps(live))
            del final
        finally:
            me.close()
        # what a seat could read while the game was played (its messages, the API) holds
        # neither the secret nor a salt derived from it
        salts = [hand_salt(secret, n) for n in range(1, 4)]
        text = "".join(seen)
        for s in [secret, *salts, secret[:16], salts[0][:16]]:
            assert s not in text
        # once it is over the record reveals the salts and `handfoot replay` checks them
        status, rec = server.request("GET", f"/api/tables/{tid}/record")
        assert status == 200
        assert rec["seed"] is None and secret not in json.dumps(rec)
        assert [c["sha256"] for c in rec["commitments"]][:1] == [commitment["sha256"]]
        assert rec["commitments"][0]["salt"] == salts[0]
        info = server.get(f"/api/tables/{tid}")
        assert info["fair"]["verified"] and info["fair"]["message"] == "deal verified"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    run = subprocess.run([sys.executable, "-m", "handfoot.cli", "replay", str(path)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and "deal verified" in run.stdout, run.stdout + run.stderr
    # a deal changed after the commitment is caught
    bad = load(path)
    order = bad["hands"][0]["deal"]["order"]
    i = next(k for k in range(1, len(order)) if order[k] != order[0])
    order[0], order[i] = order[i], order[0]
    report = replay(bad)
    assert not report.ok and "commitment" in report.message


def _logged(db: str, tid: str) -> list[tuple[int, dict[str, Any]]]:
    with sqlite3.connect(db.removeprefix("sqlite:///")) as c:
        rows = c.execute("select seat, action_json from actions where table_id = ? "
                         "order by seq", (tid,)).fetchall()
    return [(int(r[0]), json.loads(r[1])) for r in rows]


def test_the_record_and_replay_are_refused_while_the_game_is_played(
        server_plain: ServerProcess) -> None:
    out = server_plain.post("/api/tables", {"rules": "classic", "seats": [
        {"kind": "human"}] * 4})
    tid = out["id"]
    for path in (f"/api/tables/{tid}/record", f"/api/tables/{tid}/replay?step=3"):
        status, body = server_plain.request("GET", path)
        assert status == 403 and "over" in body["error"]
    info = server_plain.get(f"/api/tables/{tid}")
    assert "fair" not in info and "secret" not in json.dumps(info)
    lobby = server_plain.get("/api/tables")
    assert tid in [t["id"] for t in lobby["tables"]] and "secret" not in json.dumps(lobby)


# ------------------------------------------------------------ 5. logins


def test_a_burst_of_logins_checks_no_more_passwords_than_the_limit(
        server_plain: ServerProcess) -> None:
    http = Http(server_plain)
    key = create_event(http, players=0)
    results: list[int] = []
    lock = threading.Lock()
    start = threading.Event()

    def login(password: str) -> None:
        body = json.dumps({"password": password}).encode()
        req = urllib.request.Request(f"{server_plain.base}/api/events/{key}/login",
                                     data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
        start.wait()
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                status = r.status
        except urllib.error.HTTPError as e:
            status = e.code
        with lock:
            results.append(status)

    # 200 wrong passwords, all at once: no more than 5 are checked
    threads = [threading.Thread(target=login, args=(f"guess {i}",)) for i in range(200)]
    for t in threads:
        t.start()
    start.set()
    for t in threads:
        t.join(120)
    assert len(results) == 200
    checked = [s for s in results if s in (200, 403)]
    assert checked == [403] * len(checked) and len(checked) <= 5, sorted(results)
    assert results.count(429) >= 195
    # and then even the right one is not checked until the minute is over (sent in the
    # burst, it could be checked among the first five, when the right password rightly
    # wipes the slate: the order in which the threads ran then decided the count)
    login(PASSWORD)
    assert results[-1] == 429


# ------------------------------------------------------- 7. revoked links


def test_a_revoked_invite_link_stops_acting_on_an_open_socket(
        server_plain: ServerProcess) -> None:
    http = Http(server_plain)
    key = create_event(http, players=8)
    http.post(f"/api/events/{key}/draw", {"round": 1, "seed": 3})
    started = http.post(f"/api/events/{key}/online", {"round": 1, "table": 1})
    tid = started["table_id"]
    inv = {i["seat"]: i for i in started["invites"]}
    clients = {s: server_plain.client(tid, inv[s]["token"]) for s in inv}
    try:
        st = clients[0].state()
        actor = st["view"]["actor"]
        old = clients[actor]
        new = http.post(f"/api/events/{key}/invite", {"round": 1, "table": 1,
                                                     "seat": actor})
        assert new["url"] != inv[actor]["url"]
        # the socket opened with the old link is told and closed
        err = old.wait(lambda m: m["type"] == "error" and m.get("fatal"))
        assert "replaced" in err["message"]
        wait_for(lambda: old.closed, 20, "the old socket to close")
        # and the old link acts no more, on a new socket either
        again = server_plain.client(tid, inv[actor]["token"])
        try:
            assert again.wait(lambda m: m["type"] == "error")["message"].startswith(
                "This invite link is not valid")
        finally:
            again.close()
        assert clients[0].state()["seq"] == st["seq"]
        token = new["url"].split("token=")[1]
        fresh = server_plain.client(tid, token)
        try:
            fresh.act({"type": "draw"})
            assert fresh.state(st["seq"] + 1)["seq"] == st["seq"] + 1
        finally:
            fresh.close()
    finally:
        for c in clients.values():
            c.close()


def test_every_action_rechecks_the_token(server_plain: ServerProcess,
                                         sqlite_url: str) -> None:
    """A link replaced through another server process sharing the database (which
    cannot close this process's sockets) stops acting at the next action."""
    http = Http(server_plain)
    key = create_event(http, players=4)
    http.post(f"/api/events/{key}/draw", {"round": 1, "seed": 3})
    started = http.post(f"/api/events/{key}/online", {"round": 1, "table": 1})
    tid = started["table_id"]
    watcher = server_plain.client(tid)
    try:
        st = watcher.state()
        actor = st["view"]["actor"]
        me = server_plain.client(tid, started["invites"][actor]["token"])
        try:
            me.state()
            with ServerProcess(sqlite_url) as other:
                http.server = other
                http.post(f"/api/events/{key}/invite", {"round": 1, "table": 1,
                                                       "seat": actor})
            me.act({"type": "draw"})
            err = me.wait(lambda m: m["type"] == "error" and m.get("fatal"))
            assert "replaced" in err["message"]
            wait_for(lambda: me.closed, 20, "the socket to close")
            time.sleep(0.3)
            assert watcher.state()["seq"] == st["seq"]  # nothing changed
        finally:
            me.close()
    finally:
        watcher.close()


# ---------------------------------------------------------- 8. rule sets


def test_a_saved_rule_set_belongs_to_whoever_saved_it(server_plain: ServerProcess,
                                                      sqlite_url: str) -> None:
    change = "[scores]\ngoing_out = 500\n"
    mine = server_plain.post("/api/rule-sets/check", {"base": "six-deck", "name": "Tuesday",
                                                      "toml": change})
    owner = mine["owner"]
    assert owner
    table = server_plain.post("/api/tables", {"rules": "Tuesday", "seed": 1,
                                              "seats": [{"kind": "human"}] * 4})
    # someone else, with no token or another one, cannot save over it
    for other in ({}, {"owner": "someone else's token"}):
        status, err = server_plain.request("POST", "/api/rule-sets/check", {
            "base": "six-deck", "name": "Tuesday", "toml": "[scores]\ngoing_out = 1\n",
            **other})
        assert status == 409 and "choose another name" in err["error"]
    assert "going_out = 500" in server_plain.get("/api/rules/Tuesday")["toml"]
    # its owner can change it; the table keeps its own copy
    server_plain.post("/api/rule-sets/check", {"base": "six-deck", "name": "Tuesday",
                                               "toml": "[scores]\ngoing_out = 200\n",
                                               "owner": owner})
    assert "going_out = 200" in server_plain.get("/api/rules/Tuesday")["toml"]
    with sqlite3.connect(sqlite_url.removeprefix("sqlite:///")) as c:
        kept = c.execute("select rules_toml from tables where id = ?",
                         (table["id"],)).fetchone()[0]
    assert "going_out = 500" in kept


# ------------------------------------------------------------- 9. limits


def test_creating_is_limited_per_address(sqlite_url: str) -> None:
    with ServerProcess(sqlite_url, args=("--limit-tables", "3", "--limit-rule-sets", "2",
                                         "--limit-events", "1", "--address-header",
                                         "X-Forwarded-For")) as server:
        seats = [{"kind": "human"}] * 4
        hdr = {"X-Forwarded-For": "203.0.113.5"}
        for _ in range(3):
            status, _body = server.request("POST", "/api/tables",
                                           {"rules": "classic", "seats": seats}, hdr)
            assert status == 200
        status, body = server.request("POST", "/api/play", {"rules": "classic"}, hdr)
        assert status == 429 and "at most 3 an hour" in body["error"]
        # another address (as the operator's proxy says) has its own allowance
        status, _body = server.request("POST", "/api/play", {"rules": "classic"},
                                       {"X-Forwarded-For": "203.0.113.5, 198.51.100.7"})
        assert status == 200
        for i, want in enumerate((200, 200, 429)):
            status, _body = server.request("POST", "/api/rule-sets/check", {
                "base": "classic", "name": f"club {i}", "toml": ""}, hdr)
            assert status == want
        assert server.request("POST", "/api/events", {
            "name": "One", "rules": "classic", "password": "abcd"}, hdr)[0] == 200
        status, body = server.request("POST", "/api/events", {
            "name": "Two", "rules": "classic", "password": "abcd"}, hdr)
        assert status == 429 and "events" in body["error"]
        names = [e["name"] for e in server.get("/api/events")["events"]]
        assert names == ["One"]


def test_the_lobby_is_paged_and_shows_open_and_recent_tables(
        sqlite_url: str) -> None:
    with ServerProcess(sqlite_url, args=("--limit-tables", "0")) as server:
        made = [server.post("/api/tables", {"rules": "classic", "seed": i,
                                            "seats": [{"kind": "human"}] * 4})["id"]
                for i in range(55)]
    # a finished table of long ago leaves the lobby; an open one of long ago stays
    with sqlite3.connect(sqlite_url.removeprefix("sqlite:///")) as c:
        c.execute("update tables set created = '2020-01-01 00:00:00', result_json = ? "
                  "where id = ?", (json.dumps({"seq": 1, "hand_number": 1,
                                               "totals": [0, 0], "winners": [0]}), made[0]))
        c.execute("update tables set created = '2020-01-01 00:00:00' where id = ?",
                  (made[1],))
    with ServerProcess(sqlite_url) as server:
        first = server.get("/api/tables")
        assert len(first["tables"]) == 50 and first["pages"] == 2 and first["total"] == 54
        second = server.get("/api/tables?page=1")
        listed = [t["id"] for t in first["tables"] + second["tables"]]
        assert made[0] not in listed and made[1] in listed and len(set(listed)) == 54
        assert listed[0] == made[-1]  # newest first
        # listing them did not load them into memory
        status, body = server.request("GET", "/api/tables?page=x")
        assert status == 400 and "page" in body["error"]


def test_idle_tables_are_unloaded_from_memory(sqlite_url: str) -> None:
    import asyncio

    from handfoot.server.live.manager import Manager
    from handfoot.server.storage.store import Store

    store = Store(sqlite_url)
    tid = store.create_table("classic", preset("classic").to_toml(), 1,
                             [{"kind": "human", "token_hash": "x"}] * 4)

    async def go() -> None:
        manager = Manager(store, idle=60)
        try:
            table = await manager.aload(tid)
            assert table is not None and tid in manager.live
            assert manager.unload_idle(now=table.used + 30) == []
            assert manager.unload_idle(now=table.used + 61) == [tid]
            assert tid not in manager.live
            again = await manager.aload(tid)  # rebuilt from its log when wanted
            assert again is not None and again.seq == 0
        finally:
            await manager.close()

    asyncio.run(go())
    store.close()


def test_a_table_another_process_keeps_is_let_go_sooner_when_nobody_here_watches(
        sqlite_url: str) -> None:
    """With several processes, a table this process only follows (another keeps it and
    nobody is connected here) is let go after FOLLOWED_IDLE seconds, not IDLE: each of
    its moves was applied here for nobody. Moves pushed to nobody do not count as use;
    a table kept here waits the full time."""
    import asyncio

    from handfoot.server.live.manager import FOLLOWED_IDLE, IDLE, Manager
    from handfoot.server.processes.sync import LocalKeepers
    from handfoot.server.storage.store import Store

    class KeptHere(LocalKeepers):
        shared = True

        def keeps(self, table_id: str) -> bool:
            return table_id in self.kept

    store = Store(sqlite_url)
    seats = [{"kind": "human", "token_hash": "x"}] * 4
    followed = store.create_table("classic", preset("classic").to_toml(), 1, seats)
    kept = store.create_table("classic", preset("classic").to_toml(), 2, seats)

    async def go() -> None:
        manager = Manager(store)
        manager.keepers = KeptHere()
        manager.keepers.kept.add(kept)
        try:
            a, b = await manager.aload(followed), await manager.aload(kept)
            assert a is not None and b is not None
            start = max(a.used, b.used)
            await manager.broadcast(a)  # a move heard and pushed to nobody here
            assert a.used <= start
            assert manager.unload_idle(now=start + FOLLOWED_IDLE / 2) == []
            assert manager.unload_idle(now=start + FOLLOWED_IDLE + 1) == [followed]
            assert manager.unload_idle(now=start + IDLE - 1) == []
            assert manager.unload_idle(now=start + IDLE + 1) == [kept]
        finally:
            await manager.close()

    assert FOLLOWED_IDLE < IDLE
    asyncio.run(go())
    store.close()


# ------------------------------------------------------- 11. the cookie


def test_the_session_cookie_is_secure_behind_https(sqlite_url: str) -> None:
    for args, secure in (((), False),
                         (("--public-url", "https://cards.example.org"), True)):
        with ServerProcess(sqlite_url, args=args) as server:
            req = urllib.request.Request(
                server.base + "/api/events", method="POST",
                data=json.dumps({"name": f"Event {secure}", "rules": "classic",
                                 "password": "abcd"}).encode(),
                headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=30) as r:
                cookie = r.headers.get("set-cookie", "")
            assert "HttpOnly" in cookie and "SameSite=strict" in cookie
            assert ("Secure" in cookie) == secure, cookie


# --------------------------------------------------- 6. forgery (no browser)


def test_state_changes_need_json_and_the_servers_own_origin(
        server_plain: ServerProcess) -> None:
    http = Http(server_plain)
    key = create_event(http, players=0)
    path = f"/api/events/{key}/players"
    body = json.dumps({"add": {"name": "Mallory"}}).encode()
    for ctype in ("text/plain; a=json", "text/plain", "application/jsonx",
                  "application/json; a=1", "multipart/form-data; boundary=json"):
        status, _data, _ = http.request("POST", path, body, content_type=ctype)
        assert status == 415, (ctype, status)
    for origin, site in ((f"http://127.0.0.1:{server_plain.port + 1}", "same-site"),
                         ("http://evil.example", "cross-site"), ("null", None)):
        headers = {"Content-Type": "application/json", "Cookie": http.cookie,
                   "Origin": origin}
        if site:
            headers["Sec-Fetch-Site"] = site
        req = urllib.request.Request(server_plain.base + path, data=body, method="POST",
                                     headers=headers)
        try:
            urllib.request.urlopen(req, timeout=30)
            raise AssertionError("accepted")
        except urllib.error.HTTPError as e:
            assert e.code == 403 and "another site" in json.loads(e.read())["error"]
    assert http.get(f"/api/events/{key}/manage")["players"] == []
    # the server's own page may
    headers = {"Content-Type": "application/json", "Cookie": http.cookie,
               "Origin": server_plain.base, "Sec-Fetch-Site": "same-origin"}
    req = urllib.request.Request(server_plain.base + path, data=body, method="POST",
                                 headers=headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        assert r.status == 200
    assert [p["name"] for p in http.get(f"/api/events/{key}/manage")["players"]] == [
        "Mallory"]


def test_every_hand_is_committed_to_when_it_is_dealt(server_plain: ServerProcess) -> None:
    """Three hands: each state shows the commitment of the hand being played, and the
    record of the finished game opens exactly those."""
    out = server_plain.post("/api/tables", {"rules": "alabama-samboree", "seats": [
        {"kind": "bot", "level": "easy"}] * 4})
    watcher = server_plain.client(out["id"])
    try:
        watcher.wait(lambda m: m["type"] == "state" and m["view"]["game_over"], timeout=240)
        shown: dict[int, set[str]] = {}
        for m in watcher.messages:
            if m["type"] == "state" and not m["view"]["game_over"]:
                assert m["commitment"]["hand"] == m["view"]["hand_number"]
                shown.setdefault(m["commitment"]["hand"], set()).add(m["commitment"]["sha256"])
    finally:
        watcher.close()
    assert len(shown) == 3 and all(len(v) == 1 for v in shown.values()), shown
    rec = server_plain.get(f"/api/tables/{out['id']}/record")
    opened = {c["hand"]: c["sha256"] for c in rec["commitments"]}
    assert opened == {n: next(iter(v)) for n, v in shown.items()}
    report = replay(rec)
    assert report.ok and report.deals_verified == 3, report.message
