"""Several server processes on one PostgreSQL database are one server (issue 16): what is
done through process A is seen through process B (moves, a seat handed to the computer,
a revoked invite link, time called, an event's results), a table's computer players are
run by one process only and, after ``kill -9`` of that process, by another; and
``handfoot serve --workers N``. Real processes on a real PostgreSQL server (required in
CI), with short timeouts and few tables."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from club_pages import Http, create_event, form_hand, wait_for
from handfoot.game.records import replay
from handfoot.server.testing import Client, ServerProcess, free_port
from server_helpers import postgres_database

pytestmark = pytest.mark.served  # (left out of the pure-Python pass: see test.sh)

PAPER = [form_hand(None, ["KH KD KS KC KH KD KS\nAH AD AC", "QH QD QS"], ["8H 4C", "9S"])]


@pytest.fixture
def pg_url() -> Iterator[str]:
    yield from postgres_database()


@pytest.fixture
def two(pg_url: str) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Processes A and B on one database (computer players' pause: 0.05 s)."""
    a = ServerProcess(pg_url, bot_delay=0.05).start()
    try:
        b = ServerProcess(pg_url, bot_delay=0.05).start()
        try:
            yield a, b
        finally:
            b.stop()
    finally:
        a.stop()


def four_people(server: ServerProcess, seed: int = 5) -> tuple[str, list[str]]:
    out = server.post("/api/tables", {"rules": "texas-good-sam", "seed": seed,
                                      "seats": [{"kind": "human"}] * 4})
    return out["id"], [i["token"] for i in sorted(out["invites"], key=lambda i: i["seat"])]


def pick(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A person's simple turn: draw, then discard."""
    return next((a for a in legal if a["type"] in ("draw", "choose")),
                next((a for a in legal if a["type"] == "discard"), legal[0]))


def test_moves_made_through_a_are_seen_through_b(
        two: tuple[ServerProcess, ServerProcess]) -> None:
    a, b = two
    tid, tokens = four_people(a)
    # seats 0 and 2 play through A, seats 1 and 3 through B; a spectator watches on B
    seats = {s: (a if s % 2 == 0 else b).client(tid, tokens[s]) for s in range(4)}
    watcher = b.client(tid)
    try:
        assert {seats[0].wait(lambda m: m["type"] == "hello")["process"],
                seats[1].wait(lambda m: m["type"] == "hello")["process"]} == {
            a.get("/api/server")["process"], b.get("/api/server")["process"]}
        late = []
        for seq in range(16):
            st = watcher.state(seq)
            actor = st["view"]["actor"]
            mine = seats[actor].state(seq)  # its own process pushes it its moves
            assert mine["legal"], f"seat {actor} was offered no legal move at {seq}"
            start = time.monotonic()
            seats[actor].act(pick(mine["legal"]))
            watcher.state(seq + 1, timeout=5)  # seen by the spectator on B
            late.append(time.monotonic() - start)
            for s in range(4):  # and by every seat, through either process
                assert seats[s].state(seq + 1, timeout=5)["seq"] == seq + 1
        assert a.get(f"/api/tables/{tid}")["seq"] == b.get(f"/api/tables/{tid}")["seq"] == 16
        assert a.get(f"/api/tables/{tid}")["view"] == b.get(f"/api/tables/{tid}")["view"]
        assert max(late) < 2.0, late
    finally:
        for c in [*seats.values(), watcher]:
            c.close()


def ann_at_a_and_bob_at_b(a: ServerProcess, b: ServerProcess,
                          bob_presses_next_hand: bool = True,
                          rules: str = "classic") -> tuple[Client, Client]:
    """A table (classic) of Ann and Bob and two computers: Ann connected through A, Bob
    through B."""
    out = a.post("/api/tables", {"rules": rules, "seed": 4, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"},
        {"kind": "bot"}, {"kind": "bot"}]})
    tokens = {i["seat"]: i["token"] for i in out["invites"]}
    return (a.client(out["id"], tokens[0]),
            b.client(out["id"], tokens[1], next_hand=bob_presses_next_hand))


def test_the_next_hand_waits_for_the_people_at_both_processes(
        two: tuple[ServerProcess, ServerProcess]) -> None:
    # Ann plays through A, Bob through B. The hand over, Ann presses "Next hand" at once;
    # the table waits for Bob too (each process used to wait only for its own people),
    # and deals on when he presses at B (four decks: a shorter hand than classic's five)
    ann, bob = ann_at_a_and_bob_at_b(*two, bob_presses_next_hand=False,
                                     rules="alabama-samboree")
    people = [ann, bob]
    rng = random.Random(3)
    acted = [-1, -1]
    deadline = time.monotonic() + 300
    try:
        wait_for(lambda: all(st["seats"][0]["connected"] and st["seats"][1]["connected"]
                             for st in (ann.state(), bob.state())), 10, "both seen here")
        while True:
            states = [c.state() for c in people]
            if states[1]["waiting"] is not None:
                break
            assert time.monotonic() < deadline
            for i, (c, st) in enumerate(zip(people, states, strict=True)):
                if (st["legal"] and st["view"]["actor"] == st["seat"] and st["seq"] != acted[i]
                        and st["waiting"] is None):
                    acted[i] = st["seq"]
                    c.act(rng.choice(st["legal"]))
            time.sleep(0.02)
        seq = states[1]["seq"]
        for c in people:  # both processes wait for both people; Ann is ready
            wait_for(lambda c=c: c.state()["waiting"] == {"hand": 1, "ready": [0],
                                                          "people": [0, 1]}, 10, "Ann ready")
        time.sleep(1.0)
        assert [c.state()["seq"] for c in people] == [seq, seq]  # nobody plays on
        assert ann.pressed == {1}
        bob.send({"type": "next-hand"})
        for c in people:
            st = c.wait(lambda m: m["type"] == "state" and m["view"]["hand_number"] == 2
                        and m["waiting"] is None, timeout=30)
        # the move log tells every move at both processes, whoever's process made it
        logs = [[e["seq"] for e in c.state(seq)["log"] if e["seq"] < seq] for c in people]
        assert logs[0] and logs[0] == logs[1]
    finally:
        for c in people:
            c.close()


def test_a_table_waiting_for_its_people_starts_when_they_join_at_two_processes(
        two: tuple[ServerProcess, ServerProcess]) -> None:
    # Ann opens her link at A, Bob his at B: the table starts, seen at both (each process
    # used to know only of the person who joined there, and waited for the other)
    a, b = two
    made = a.post("/api/tables", {"rules": "classic", "wait": True, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"},
        {"kind": "human", "name": "Bob"}, {"kind": "bot", "level": "easy"}]})
    tokens = {i["seat"]: i["token"] for i in made["invites"]}
    ann = a.client(made["id"], tokens[0])
    try:
        assert ann.state()["waiting_to_start"]
        b.get(f"/api/tables/{made['id']}")  # B has the table in memory, waiting
        bob = b.client(made["id"], tokens[2])
        try:
            for c in (ann, bob):
                st = c.wait(lambda m: m["type"] == "state" and not m["waiting_to_start"])
                assert [s["joined"] for s in st["seats"]][0::2] == [True, True]
            for server in (a, b):  # the lobby of either process says it has started
                listed = {t["id"]: t for t in server.get("/api/tables")["tables"]}
                assert not listed[made["id"]]["waiting"]
        finally:
            bob.close()
    finally:
        ann.close()


def test_a_seat_handed_to_the_computer_through_a_is_played_through_b(
        two: tuple[ServerProcess, ServerProcess]) -> None:
    a, b = two
    tid, tokens = four_people(a, seed=8)
    watcher = b.client(tid)
    seat_b = b.client(tid, tokens[1])
    try:
        st = watcher.state()
        actor = st["view"]["actor"]
        # the person to act hands their seat to the computer through A
        person = a.client(tid, tokens[actor])
        person.state()
        person.send({"type": "computer", "on": True})
        handed = watcher.wait(lambda m: m["type"] == "state"
                              and m["seats"][actor]["computer"], timeout=5)
        assert handed["seats"][actor]["computer"]
        assert b.get(f"/api/tables/{tid}")["seats"][actor]["computer"]
        # the computer played the seat's turn (its first decision starts a worker
        # process: seconds on a busy machine)
        watcher.state(1, timeout=30)
        assert b.get(f"/api/tables/{tid}")["seq"] >= 1
        person.close()
        # B still refuses a person acting for another seat, and seat 1 plays on through B
        st1 = seat_b.state(watcher.state()["seq"])
        assert st1["seats"][actor]["computer"]
    finally:
        watcher.close()
        seat_b.close()


def test_a_link_revoked_through_a_stops_working_through_b(pg_url: str) -> None:
    a = ServerProcess(pg_url, bot_delay=0.05).start()
    b = ServerProcess(pg_url, bot_delay=0.05).start()
    try:
        org = Http(a)
        key = create_event(org, "Revoke night", players=4)
        base = f"/api/events/{key}"
        org.post(base + "/draw", {"round": 1, "seed": 3})
        out = org.post(base + "/online", {"round": 1, "table": 1})
        tid = out["table_id"]
        old = out["invites"][2]["token"]
        on_b = b.client(tid, old)
        on_b.state()
        fresh = org.post(base + "/invite", {"round": 1, "table": 1, "seat": 2})
        bye = on_b.wait(lambda m: m["type"] == "error" and m.get("fatal"), timeout=5)
        assert "replaced" in bye["message"]
        again = b.client(tid, old)  # the old link, through B: refused
        refused = again.wait(lambda m: m["type"] == "error", timeout=5)
        assert refused.get("fatal") and "not valid" in refused["message"]
        new = b.client(tid, fresh["url"].split("token=")[1])
        assert new.state()["seat"] == 2
        for c in (on_b, again, new):
            c.close()
    finally:
        b.stop()
        a.stop()


def test_time_called_and_results_through_a_are_seen_through_b(pg_url: str) -> None:
    """The clock, started through A, runs in both processes and rings once: one warning
    and one time call at each table, seen through both; the results of the tables
    (played online by computers kept by either process, and one entered on paper
    through A) are in the standings through B."""
    a = ServerProcess(pg_url, bot_delay=0.03, minute=0.4).start()
    b = ServerProcess(pg_url, bot_delay=0.03, minute=0.4).start()
    watchers: list[Client] = []
    try:
        org, org_b = Http(a), Http(b)
        key = create_event(org, "Clock night", "alabama-samboree", players=12,
                           time_limit=8, warning=4)
        org_b.cookie = org.cookie  # the organiser's session is in the database
        base = f"/api/events/{key}"
        org.post(base + "/draw", {"round": 1, "seed": 5})
        tables = [org.post(base + "/online", {
            "round": 1, "table": t, "computer": [0, 1, 2, 3], "level": "random"})["table_id"]
            for t in (1, 2)]
        watchers = [server.client(tid) for tid in tables for server in (a, b)]
        for w in watchers:
            w.state()
        org.post(base + "/clock", {"round": 1, "do": "start"})
        for w in watchers:
            called = w.wait(lambda m: m["type"] == "state" and m["time_called"], timeout=15)
            assert "Time is called" in called["notice"]
        for w in watchers:  # the warning came once to each screen, through either process
            warnings = [m for m in w.messages if m["type"] == "notice"
                        and "Time warning" in m["message"]]
            assert len(warnings) == 1, warnings
        # table 3 plays on paper: its sheets entered through A
        paper = org.post(base + "/paper", {"round": 1, "table": 3, "time_called": True,
                                           "save": True, "hands": PAPER})
        assert paper["saved"]
        info = wait_for(lambda: all(t["result"] for t in org_b.get(
            base + "/manage")["rounds_info"][0]["tables"][:2])
            and org_b.get(base + "/manage")["rounds_info"][0], 30, "the results through B")
        assert info["tables"][2]["result"]["totals"] == paper["totals"]
        for t, tid in zip(info["tables"][:2], tables, strict=True):
            assert t["result"]["time_called"] and t["result"]["source"] == "online"
            status, _, text = Http(b).request("GET", f"/api/tables/{tid}/record")
            assert status == 200 and replay(json.loads(text)).ok
            # time was called once, at one point of the log, whichever process called it
            assert json.loads(text)["result"]["time_called_at"]
        public = Http(b).get(f"/api/events/{key}")
        assert public["drawn"][0]["results"] == 3
        assert sum(x["games"] for x in public["standings"]["players"]) == 12
        assert info["clock"]["called"]
    finally:
        for w in watchers:
            w.close()
        b.stop()
        a.stop()


def _server_info(server: ServerProcess, table: str = "") -> dict[str, Any]:
    info: dict[str, Any] = server.get("/api/server" + (f"?table={table}" if table else ""))
    return info


def test_computer_players_never_act_twice_with_two_processes(pg_url: str) -> None:
    """Both processes watch the same tables of four computers (no pause between their
    moves); each computer's every decision is made by one process and written once."""
    with ServerProcess(pg_url) as a, ServerProcess(pg_url) as b:
        _never_twice(a, b)


def _never_twice(a: ServerProcess, b: ServerProcess) -> None:
    tids = [str(a.post("/api/tables", {"rules": "texas-good-sam", "seed": 30 + i, "seats": [
        {"kind": "bot", "level": "heuristic"}] * 4})["id"]) for i in range(2)]
    clients = [s.client(t) for t in tids for s in (a, b)]
    try:
        for c in clients:
            c.state(30, timeout=30)
        keepers = [[_server_info(s, t)["keeps"] for s in (a, b)] for t in tids]
        # one keeper each, until the game is over (its keeper then lets go): a table
        # still going after the keepers were asked had one while they were asked
        over = [a.get(f"/api/tables/{t}")["over"] for t in tids]
        assert all(sum(k) == 1 or (sum(k) == 0 and done)
                   for k, done in zip(keepers, over, strict=True)), (keepers, over)
        for t in tids:  # stop the computers: hand no more (the tables are finished)
            wait_for(lambda t=t: a.get(f"/api/tables/{t}")["over"], 90, "the games' end")
        time.sleep(0.3)
        infos = [_server_info(s) for s in (a, b)]
        written = sum(a.get(f"/api/tables/{t}")["seq"] for t in tids)
        assert sum(i["bot_actions"] for i in infos) == written
        assert sum(i["bot_lost"] for i in infos) == 0
        assert sum(i["decisions"] for i in infos) == written  # no decision made twice
        # a computer player's turn is one question to its worker, for all its moves
        plans = sum(i["plans"] for i in infos)
        assert written // 8 < plans < written
        # each question sent its worker the game whole or only the news; whole only the
        # first time (not with every question, as before the workers kept the games)
        whole = sum(i["sent_whole"] for i in infos)
        assert whole + sum(i["sent_since"] for i in infos) == plans
        assert len(tids) <= whole <= 2 * len(tids) < plans // 10
        assert all(len(i["gc_passes"]) == len(i["gc_seconds"]) == 3 for i in infos)
    finally:
        for c in clients:
            c.close()


def test_kill_9_of_the_keeper_and_the_game_goes_on_through_the_other(
        two: tuple[ServerProcess, ServerProcess]) -> None:
    a, b = two
    tid = str(a.post("/api/tables", {"rules": "six-deck", "seed": 3, "seats": [
        {"kind": "bot", "level": "random"}] * 4})["id"])
    watchers = {s.port: s.client(tid) for s in (a, b)}
    try:
        watchers[a.port].state(5, timeout=20)
        keeper, other = (a, b) if _server_info(a, tid)["keeps"] else (b, a)
        assert not _server_info(other, tid)["keeps"]
        keeper.kill()
        seen = watchers[other.port]
        at = seen.state()["seq"]
        killed = time.monotonic()
        seen.state(at + 3, timeout=10)  # the computers play on, run by the other process
        took = time.monotonic() - killed
        assert _server_info(other, tid)["keeps"]
        assert took < 5.0, took
    finally:
        for c in watchers.values():
            c.close()


def test_serve_workers_needs_postgresql(sqlite_url: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "handfoot.server", "--port", str(free_port()), "--db",
         sqlite_url, "--workers", "2"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "PostgreSQL" in proc.stderr and "--workers" in proc.stderr


@pytest.mark.parametrize("steering", [True, False], ids=["steering", "no-steering"])
def test_serve_workers_starts_n_processes_on_one_address(pg_url: str, steering: bool) -> None:
    """Two workers on one port; one killed with kill -9 is started again, and a table of
    computers plays on meanwhile. The sockets of a table all reach the worker that keeps
    it (the kernel gave about half of them to the other, which handed them over); with
    ``--no-steering`` they stay where the kernel puts them, so both workers serve some."""
    args = ("--workers", "2") + (() if steering else ("--no-steering",))
    server = ServerProcess(pg_url, bot_delay=0.05, args=args).start()
    clients: list[Client] = []
    try:
        tid = str(server.post("/api/tables", {"rules": "six-deck", "seed": 4, "seats": [
            {"kind": "bot", "level": "random"}] * 4})["id"])

        def processes() -> dict[str, dict[str, Any]]:
            seen: dict[str, dict[str, Any]] = {}
            for _ in range(40):  # new connections are spread over the workers
                try:
                    info = _server_info(server, tid)
                except OSError:  # reached the worker as it was killed
                    continue
                seen[info["process"]] = info
                assert info["root"] == server.proc.pid if server.proc else False
                if len(seen) == 2:
                    break
            return seen

        first = wait_for(lambda: (lambda s: s if len(s) == 2 and any(
            i["keeps"] for i in s.values()) else None)(processes()), 30,
            "both workers, one keeping the table")
        keeper = next(p for p, i in first.items() if i["keeps"])
        # the kernel spreads new connections at random (SO_REUSEPORT): twelve all reach
        # one worker 1 time in 2,048
        hellos = []
        for _ in range(12):
            clients.append(server.client(tid))
            hellos.append(clients[-1].wait(lambda m: m["type"] == "hello")["process"])
        if steering:
            assert set(hellos) == {keeper}
            counts = [i["steering"] for i in processes().values()]
            assert sum(c["handed"] for c in counts) == sum(c["received"] for c in counts) > 0
        else:
            assert len(set(hellos)) == 2
        victim = first[keeper]["pid"]
        os.kill(victim, signal.SIGKILL)
        # the worker is started again, and the game goes on whichever process we reach
        pids = {i["pid"] for i in first.values()}
        after = wait_for(lambda: (lambda s: s if len(s) == 2 and {
            i["pid"] for i in s.values()} != pids else None)(processes()), 30,
            "the worker started again")
        assert victim not in {i["pid"] for i in after.values()}
        watcher = server.client(tid)
        clients.append(watcher)
        at = watcher.state()["seq"]
        watcher.state(at + 3, timeout=10)
    finally:
        for c in clients:
            c.close()
        server.stop()


def test_the_load_test_measures_tables_served_by_two_workers(pg_url: str) -> None:
    """``handfoot loadtest`` (short, quick people) against ``serve --workers 2``: every
    person's push is timed, the moves are seen through both processes, nothing fails,
    and the CPU of both workers (and their pools) is counted.

    The kernel hands each socket to a worker by a hash of its address and port, so a
    table's sockets may all reach one worker: with 4 tables of 3 or 4 sockets that was
    the case for every table about once in a few hundred runs (one CI run failed so), and
    nothing was seen through the other process. 6 tables of 4 sockets: about once in
    250,000. (Served with ``--no-steering``: steered, each table's sockets would be
    handed to one worker.)"""
    with ServerProcess(pg_url, bot_delay=0.05,
                       args=("--workers", "2", "--limit-tables", "0", "--no-steering")
                       ) as server:
        wait_for(lambda: len({_server_info(server)["process"] for _ in range(20)}) == 2,
                 30, "both workers")
        out = subprocess.run(
            [sys.executable, "-m", "handfoot.cli", "loadtest", server.base, "--tables", "6",
             "--seconds", "6", "--warmup", "4", "--ramp", "1", "--think", "0.2-0.4",
             "--think-more", "0.1-0.2", "--rules", "texas-good-sam", "--level", "random",
             "--people", "2", "--spectators", "2", "--json"],
            capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        result = json.loads(out.stdout)
        assert result["people_actions"] >= 10 and result["errors"] == 0, result
        assert (result["ramp_s"], result["warmup_s"]) == (1, 4)  # as asked
        assert result["disconnects"] == 0, json.dumps(result)[:3000]
        pushed = result["action_to_push_ms"]
        assert pushed["n"] == result["people_actions"]
        assert 0 < pushed["p50"] <= pushed["p90"] <= pushed["p99"] <= pushed["max"] < 5000
        assert result["seen_other_process_ms"]["n"] > 0  # the other process pushed them
        assert result["server_processes"] >= 3 and result["server_cpu_cores"] > 0, result
        # the CPU for each person's action is the cores over the run, shared out
        assert result["server_cpu_ms_per_action"] == pytest.approx(
            1000 * result["server_cpu_cores"] * result["seconds"] / result["people_actions"],
            rel=0.05, abs=0.5)
        # the load test's own collector made no passes while it measured (its pauses
        # would be measured as the server's)
        assert result["loadtest_collector"]["passes"] == 0, result["loadtest_collector"]
        assert result["loadtest_collector"]["garbage_at_end"] >= 0
        speed = result["machine_speed_us"]  # (sum(range(10000)): 185 µs on a good day)
        assert 20 < speed["before"] < 20_000 and 20 < speed["after"] < 20_000, speed


def test_the_load_test_only_tests_this_machine() -> None:
    out = subprocess.run([sys.executable, "-m", "handfoot.cli", "loadtest",
                          "http://example.invalid:8000", "--tables", "1"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "this machine" in out.stderr


def test_people_at_a_process_killed_with_kill_9_are_no_longer_shown_here(
        two: tuple[ServerProcess, ServerProcess]) -> None:
    # Ann plays through A, Bob through B; B is killed: A stops showing Bob as here
    # (before, he stayed "connected" at A until he came back through another process)
    a, b = two
    ann, bob = ann_at_a_and_bob_at_b(a, b)
    try:
        wait_for(lambda: ann.state()["seats"][1]["connected"], 10, "Bob seen here at A")
        b.kill()
        killed = time.monotonic()
        wait_for(lambda: not ann.state()["seats"][1]["connected"], 20,
                 "Bob no longer shown here at A")
        assert time.monotonic() - killed < 15
        assert ann.state()["seats"][0]["connected"]  # Ann, at the process still running
    finally:
        for c in (ann, bob):
            c.close()


def test_processes_starting_together_on_a_new_database_all_start(pg_url: str) -> None:
    """``serve --workers N`` on a database with no tables yet: every process opens its
    store at once; one creates the tables and the others find them (two once created the
    same table, and one process stopped as it started; then the club events' store did,
    when two processes first started on a new database together)."""
    import threading

    from handfoot.club.store import ClubStore
    from handfoot.server.storage.store import Store

    failures: list[Exception] = []
    stores: list[Store] = []
    clubs: list[ClubStore] = []
    go = threading.Barrier(6)

    def open_store() -> None:
        go.wait()
        try:
            stores.append(Store(pg_url))
            # then the club events' store, as each server process opens it
            clubs.append(ClubStore(pg_url))
        except Exception as e:  # reported below
            failures.append(e)

    threads = [threading.Thread(target=open_store) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    try:
        assert failures == [] and len(stores) == 6 and len(clubs) == 6
        stores[0].save_rule_set("opened", "classic", "")
        assert all(s.rule_set("opened") is not None for s in stores)
        assert all(c.names() == [] for c in clubs)
    finally:
        for s in stores:
            s.close()
        for c in clubs:
            c.close()


def test_play_again_pressed_at_one_process_moves_the_pages_at_the_other(
        two: tuple[ServerProcess, ServerProcess]) -> None:
    """A person's page at process B follows Play again pressed through process A."""
    a, b = two
    made = a.post("/api/tables", {"rules": "texas-good-sam", "seats": [
        {"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3})
    tid, token = str(made["id"]), str(made["invites"][0]["token"])
    page = b.client(tid, token)
    try:
        page.wait(lambda m: m["type"] == "state")
        page.send({"type": "computer", "on": True})
        page.wait(lambda m: m["type"] == "state" and m["view"]["game_over"], timeout=120)
        status, out = a.request("POST", f"/api/tables/{tid}/again", {"token": token})
        assert status == 200, out
        assert out["id"] != tid
        assert page.wait(lambda m: m["type"] == "again")["table"] == out["id"]
    finally:
        page.close()
    # at B too, the old table now names the next game
    again = b.request("POST", f"/api/tables/{tid}/again", {"token": token})
    assert again == (200, out)
