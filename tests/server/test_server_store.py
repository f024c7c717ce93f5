"""The storage layer, against SQLite and (where available) a real PostgreSQL server."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from handfoot.actions import action_from_json
from handfoot.engine import IllegalAction
from handfoot.game import Game
from handfoot.game.views import seat_view
from handfoot.rules import preset
from handfoot.server.live.manager import Manager
from handfoot.server.storage.database import normalise_url
from handfoot.server.storage.store import SeqTaken, Store
from handfoot.server.testing import free_port
from server_helpers import postgres_database

pytestmark = pytest.mark.served  # (left out of the pure-Python pass: see test.sh)


def test_tables_rule_sets_and_the_append_only_log(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.save_rule_set("our club", "six-deck", "name = 'our club'")
        assert store.rule_set("our club") == ("six-deck", "name = 'our club'")
        assert ("our club", "six-deck") in store.rule_sets()
        seats = [{"kind": "human", "token_hash": "ab"}, {"kind": "bot", "level": "random"}]
        tid = store.create_table("six-deck", "x = 1", 2**40 + 3, seats)
        row = store.table(tid)
        assert row is not None and row.seed == 2**40 + 3 and row.seats == seats
        assert tid in [t.id for t in store.tables()]
        store.append_action(tid, 0, 0, {"type": "draw"})
        store.append_action(tid, 1, None, {"type": "discard", "card": "QH"})
        with pytest.raises(SeqTaken):  # a second writer of the same number loses
            store.append_action(tid, 1, 2, {"type": "draw"})
        assert [(a.seq, a.seat, a.action["type"]) for a in store.actions(tid)] == [
            (0, 0, "draw"), (1, None, "discard")]
        assert [a.seq for a in store.actions(tid, after=0)] == [1]
        store.set_seats(tid, [{"kind": "bot"}, {"kind": "bot"}])
        again = store.table(tid)
        assert again is not None and again.seats[0] == {"kind": "bot"}
        assert store.table("nope") is None
    finally:
        store.close()
    reopened = Store(db_url)  # the data outlives the connection
    try:
        assert len(reopened.actions(tid)) == 2
    finally:
        reopened.close()


def test_postgres_urls_use_psycopg() -> None:
    assert normalise_url("postgres://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert normalise_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("sqlite:///x.db") == "sqlite:///x.db"


def test_two_server_processes_share_a_table_through_its_log(tmp_path: Path) -> None:
    """Each process catches up from the log before it acts, and the log's unique action
    numbers keep two writers from both taking the same turn."""
    url = f"sqlite:///{tmp_path / 'shared.db'}"

    async def scenario() -> None:
        a, b = Manager(Store(url), bot_delay=0), Manager(Store(url), bot_delay=0)
        tid = a.store.create_table("texas-good-sam", preset("texas-good-sam").to_toml(), 4,
                                   [{"kind": "human"}] * 4)
        ta, tb = a.load(tid), b.load(tid)
        assert ta is not None and tb is not None
        for _ in range(12):  # the two processes take turns acting on the same table
            for m, t in ((a, ta), (b, tb)):
                g = t.game
                m._catch_up(t)
                await m.act(t, g.actor, g.legal_actions()[0])
        assert ta.seq < tb.seq  # a is behind until it reads the log again
        a._catch_up(ta)
        assert ta.seq == tb.seq == 24
        assert seat_view(ta.game, 0) == seat_view(tb.game, 0)
        # a stale writer: b acts, then a tries the move that was legal before b's
        stale = ta.game.legal_actions()[0]
        actor = ta.game.actor
        await b.act(tb, tb.game.actor, tb.game.legal_actions()[0])
        with contextlib.suppress(IllegalAction):
            await a.act(ta, actor, stale)
        rows = a.store.actions(tid)
        assert [r.seq for r in rows] == list(range(len(rows)))  # no gap, no double
        replayed = Game(preset("texas-good-sam"), 4)
        for r in rows:
            replayed.apply(action_from_json(r.action), r.seat)
        assert seat_view(replayed, 1) == seat_view(ta.game, 1)

    asyncio.run(scenario())


def test_handfoot_serve_uses_sqlite_in_the_data_folder_and_prints_the_address(
        tmp_path: Path) -> None:
    port = free_port()
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from handfoot.cli import main; sys.exit(main())",
         "serve", "--port", str(port)], env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert f"http://localhost:{port}/" in line
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                    assert b"Hand and Foot" in r.read()
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.1)
        assert (tmp_path / "handfoot" / "handfoot.db").exists()
    finally:
        proc.terminate()
        proc.wait(10)



@pytest.fixture
def pg_url() -> Iterator[str]:
    yield from postgres_database()


@contextlib.contextmanager
def _store_and_listener(pg_url: str, origin: str) -> Iterator[tuple[Store, Any, str]]:
    """A store writing as ``origin``, a connection listening for its notices, and a new
    table of four computer players."""
    import psycopg

    from handfoot.server.processes.sync import psycopg_url
    from handfoot.server.storage.store import CHANNEL

    store = Store(pg_url)
    store.origin = origin
    listener = psycopg.connect(psycopg_url(pg_url), autocommit=True)
    try:
        listener.execute(f"LISTEN {CHANNEL}")
        yield store, listener, store.create_table("six-deck", "", 7, [{"kind": "bot"}] * 4)
    finally:
        listener.close()
        store.close()


def test_appends_from_the_event_loop_write_announce_and_refuse_as_the_store_does(
        pg_url: str) -> None:
    """PostgreSQL: :class:`Appender` writes an action and announces it in one statement
    from the event loop (no thread), and the actions waiting together in one, with one
    notice for them all; a second
    writer of the same number is refused (``SeqTaken``), alone or among others written,
    and so is an action written after time was called by a writer who did not know it
    (``TimeCalled``)."""
    import json

    from handfoot.server.storage.appender import Appender
    from handfoot.server.storage.store import TimeCalled

    with _store_and_listener(pg_url, "appender-test") as (store, listener, tid):

        written: list[dict[str, Any]] = [
            {"type": "draw"}, {"type": "discard", "card": "QH"},
            {"type": "lay-meld", "cards": ["4H", "4D", "2C"], "note": "ça"},
            {"type": "draw"}, {"type": "pick-up-foot"}]
        began = dt.datetime.now(dt.UTC).replace(tzinfo=None)

        async def appends() -> None:
            appender = Appender(store, connections=2)
            try:
                await asyncio.gather(*(  # several at once: written by one statement
                    appender.append(tid, seq, seq % 4, written[seq], None)
                    for seq in range(5)))
                assert (appender.statements, appender.appended) == (1, 5)
                with pytest.raises(SeqTaken):
                    await appender.append(tid, 3, 0, {"type": "draw"}, None)
                # one refused among others written together: its writer hears why
                out = await asyncio.gather(
                    appender.append(tid, 5, 1, {"type": "draw"}, None),
                    appender.append(tid, 2, 0, {"type": "draw"}, None),
                    return_exceptions=True)
                assert out[0] is None and isinstance(out[1], SeqTaken)
                assert store.call_time(tid, 6)
                with pytest.raises(TimeCalled):  # the writer did not know
                    await appender.append(tid, 6, 2, {"type": "draw"}, None)
                await appender.append(tid, 6, 2, {"type": "draw"}, 6)  # it knew
            finally:
                await appender.close()

        asyncio.run(appends())
        rows = store.actions(tid)
        assert [(a.seq, a.seat) for a in rows] == [
            (0, 0), (1, 1), (2, 2), (3, 3), (4, 0), (5, 1), (6, 2)]
        # the rows written together hold each its own action and the time it was written
        assert [a.action for a in rows[:5]] == written
        created = [c for (c,) in listener.execute(
            "SELECT created FROM actions WHERE table_id = %s ORDER BY seq", (tid,))]
        assert len(created) == 7 and all(
            began - dt.timedelta(seconds=1) <= c
            <= dt.datetime.now(dt.UTC).replace(tzinfo=None) for c in created)
        payloads = [n.payload for n in listener.notifies(timeout=2, stop_after=4)]
        # the five written together in one notice, by number; then the one written
        # with one refused (a notice of one), time called, and the last, alone
        notices = [json.loads(p) for p in payloads]
        assert [n["s"] for n in notices[0]] == [1, 2, 3, 4, 5]
        assert [n["s"] for n in notices[1]] == [6] and notices[2]["k"] == "time"
        heard = [n for ns in notices for n in (ns if isinstance(ns, list) else [ns])]
        assert len(heard) == 8
        acts = sorted(n["s"] for n in heard if n["k"] == "act")
        assert acts == [1, 2, 3, 4, 5, 6, 7]  # each written action, once
        assert all(n["o"] == "appender-test" and n["t"] == tid for n in heard)
        told = {n["s"] - 1: (n["seat"], n["a"]) for n in heard if n["k"] == "act"}
        assert [told[seq] for seq in range(5)] == [(seq % 4, written[seq])
                                                   for seq in range(5)]


def test_appends_written_together_are_announced_in_notices_that_fit(pg_url: str) -> None:
    """PostgreSQL refuses a notice of 8,000 bytes or more: the appends waiting together
    go in as many statements as their notices need, each announced in one notice of at
    most :data:`NOTICE_BYTES`, every action once, in order."""
    import json

    from handfoot.server.storage.appender import Appender
    from handfoot.server.storage.store import NOTICE_BYTES

    with _store_and_listener(pg_url, "big-notices") as (store, listener, tid):
        # a meld of 50 cards with a long note: some 500 bytes a notice
        action = {"type": "lay-meld", "cards": ["4H"] * 50, "note": "x" * 200}

        async def appends() -> tuple[int, int]:
            appender = Appender(store, connections=1, writers=1)
            try:
                await asyncio.gather(*(appender.append(tid, seq, seq % 4, action, None)
                                       for seq in range(60)))
                return appender.statements, appender.appended
            finally:
                await appender.close()

        statements, appended = asyncio.run(appends())
        assert appended == 60 and [a.seq for a in store.actions(tid)] == list(range(60))
        payloads = [n.payload for n in listener.notifies(timeout=2, stop_after=statements)]
        assert len(payloads) == statements and 60 * 500 // NOTICE_BYTES < statements < 60
        assert all(len(p.encode()) <= NOTICE_BYTES for p in payloads)
        heard = [n for p in payloads for n in (json.loads(p) if p.startswith("[") else
                                                [json.loads(p)])]
        assert [n["s"] for n in heard] == list(range(1, 61))
        assert all(n["a"] == action for n in heard)
