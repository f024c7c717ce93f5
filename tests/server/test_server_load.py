"""No engine or computer-player work on the server's event loop (issue 13, item 4): a
hand of 30 cards (the most a rule set deals; the engine before moves one meld at a time
took seconds to list its moves) holds up no other table and gets its whole list of
moves; computer players keep to their time budget. The figure (a person's push
while 20 tables of hard computers play) is measured by ``python -m
handfoot.server.diagnostics.bench_latency`` (docs/server.md), not here: this asserts behaviour."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator

import pytest

from handfoot.actions import action_from_json
from handfoot.game import Game
from handfoot.rules import preset
from handfoot.server.testing import ServerProcess

pytestmark = pytest.mark.served  # (left out of the pure-Python pass: see test.sh)

HUGE = "[deal]\nhand_size = 30\nfoot_size = 11\n"


@pytest.fixture
def server(sqlite_url: str) -> Iterator[ServerProcess]:
    with ServerProcess(sqlite_url, bot_delay=0.0) as s:
        yield s


def test_the_largest_hand_holds_up_no_other_table(server: ServerProcess) -> None:
    server.post("/api/rule-sets/check", {"base": "six-deck", "name": "forty", "toml": HUGE})
    big = server.post("/api/tables", {"rules": "forty", "seed": 5,
                                      "seats": [{"kind": "human"}] * 4})
    small = server.post("/api/tables", {"rules": "texas-good-sam", "seed": 5,
                                        "seats": [{"kind": "human"}] * 4})
    big_tokens = {i["seat"]: i["token"] for i in big["invites"]}
    small_tokens = {i["seat"]: i["token"] for i in small["invites"]}
    watcher = server.client(big["id"])
    actor = watcher.state()["view"]["actor"]
    giant = server.client(big["id"], big_tokens[actor])
    small_actor = server.client(small["id"]).state()["view"]["actor"]
    other = server.client(small["id"], small_tokens[small_actor])
    try:
        st = giant.state()
        draw = next(a for a in st["legal"] if a["type"] in ("draw", "take-upcard"))
        giant.act(draw)  # the 30-card hand's moves are now being listed
        time.sleep(0.2)
        # meanwhile a person at another table draws and hears back at once
        seq = other.state()["seq"]
        start = time.monotonic()
        other.act({"type": "draw"})
        after = other.state(seq + 1, timeout=30)
        took = time.monotonic() - start
        assert after["legal"] and took < 2.0, took
        # the big hand's whole list comes too: one meld and one card at a time, a few
        # dozen moves (never the millions of whole openings)
        big_state = giant.state(st["seq"] + 1, timeout=30)
        kinds = {a["type"] for a in big_state["legal"]}
        assert {"meld", "discard"} <= kinds and "lay-down" not in kinds
        assert len(big_state["legal"]) < 300
    finally:
        for c in (watcher, giant, other):
            c.close()


def test_computer_players_keep_to_their_time_budget(sqlite_url: str) -> None:
    # a budget no hard computer player can meet: each plays its first legal move instead,
    # and the table plays on
    with ServerProcess(sqlite_url, bot_delay=0.0,
                       args=("--decision-budget", "0.0005")) as server:
        out = server.post("/api/tables", {"rules": "texas-good-sam", "seed": 3, "seats": [
            {"kind": "bot", "level": "hard"}] * 4})
        watcher = server.client(out["id"])
        try:
            assert watcher.state(40, timeout=60)["seq"] >= 40
        finally:
            watcher.close()
    # the moves were the first legal ones (the hard player's own choices differ from
    # them about half the time; a decision quicker than the timer's tick may be its own)
    with sqlite3.connect(sqlite_url.removeprefix("sqlite:///")) as c:
        logged = c.execute("select seat, action_json from actions where table_id = ? "
                           "order by seq", (out["id"],)).fetchall()
    game = Game(preset("texas-good-sam"), 3)
    own = []
    for seat, text in logged[:40]:
        first = next(iter(game.hand.seat_copy().iter_legal_actions()))
        action = action_from_json(json.loads(text))
        if action != first:
            own.append((len(game.hand.history), action, first))
        game.apply(action, seat)
    assert len(own) <= 4, own


def test_the_worker_processes_end_with_the_server(sqlite_url: str) -> None:
    for stop in ("kill", "stop"):
        server = ServerProcess(sqlite_url, bot_delay=0.0).start()
        try:
            out = server.post("/api/tables", {"rules": "texas-good-sam", "seed": 3,
                                              "seats": [{"kind": "bot", "level": "hard"}] * 4})
            watcher = server.client(out["id"])
            try:
                watcher.state(3, timeout=60)  # the computers' workers are running
            finally:
                watcher.close()
            assert server.proc is not None
            with open(f"/proc/{server.proc.pid}/task/{server.proc.pid}/children") as f:
                children = [int(p) for p in f.read().split()]
            assert len(children) >= 2, children
        finally:
            getattr(server, stop)()
        deadline = time.monotonic() + 15
        while any(_alive(p) for p in children):
            assert time.monotonic() < deadline, f"left running after {stop}: {children}"
            time.sleep(0.2)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False
