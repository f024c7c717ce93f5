"""No fault leaves a table standing still: the database restarted under a running
server, and the SQLite disk filled, then freed. The computer players try again with
backoff, the table says it cannot save moves meanwhile, and play resumes by itself."""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from handfoot.server.testing import Client, ServerProcess
from server_helpers import postgres_database

pytestmark = pytest.mark.served

BOTS = [{"kind": "bot", "level": "easy"}] * 4
CANNOT_SAVE = "cannot save moves right now"


@contextlib.contextmanager
def small_disk(where: Path, size: str = "16m") -> Iterator[Path]:
    """A filesystem of its own (tmpfs, ``size``), to fill; skipped where it cannot be
    mounted (not root)."""
    where.mkdir()
    run = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs",
                          str(where)], capture_output=True, text=True)
    if run.returncode != 0:
        if os.environ.get("HANDFOOT_REQUIRE_FAULTS"):
            raise RuntimeError(run.stderr)
        pytest.skip(f"cannot mount a small filesystem here: {run.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(disk: Path) -> Path:
    """Fill the filesystem to its last byte."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as f:
        for size in (1 << 20, 65536, 4096, 512, 1):
            with contextlib.suppress(OSError):
                while True:
                    f.write(b"\0" * size)
    return filler


def seqs(server: ServerProcess, tids: list[str]) -> dict[str, int]:
    return {t: server.get(f"/api/tables/{t}")["seq"] for t in tids}


def all_move_on(server: ServerProcess, tids: list[str], timeout: float) -> float:
    """Seconds until every table's computer players have moved again."""
    start = time.monotonic()
    before = seqs(server, tids)
    waiting = set(tids)
    while waiting:
        if time.monotonic() - start > timeout:
            raise AssertionError(f"{len(waiting)} of {len(tids)} tables stood still for "
                                 f"{timeout:.0f} s")
        time.sleep(0.2)
        now = seqs(server, list(waiting))
        waiting = {t for t in waiting if now[t] == before[t]
                   and not server.get(f"/api/tables/{t}")["over"]}
    return time.monotonic() - start


def tables(server: ServerProcess, n: int) -> list[str]:
    return [server.post("/api/tables", {"rules": "alabama-samboree", "seats": BOTS})["id"]
            for _ in range(n)]


def test_the_sqlite_disk_filled_then_freed_and_play_resumes(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk, ServerProcess(
            f"sqlite:///{disk / 'handfoot.db'}", bot_delay=0.05) as server:
        tids = tables(server, 6)
        watcher = Client(server, tids[0], None)
        try:
            watcher.wait(lambda m: m["type"] == "state" and m["seq"] > 3)
            filler = fill(disk)
            # the table says why it stands still
            stuck = watcher.wait(lambda m: m["type"] == "state"
                                 and CANNOT_SAVE in (m["notice"] or ""), timeout=30)
            time.sleep(2)  # a while with the disk full: the players keep trying
            filler.unlink()
            took = all_move_on(server, tids, timeout=15)
            print(f"disk freed: all 6 tables moved again within {took:.1f} s")
            watcher.wait(lambda m: m["type"] == "state" and m["seq"] > stuck["seq"]
                         and CANNOT_SAVE not in (m["notice"] or ""), timeout=15)
        finally:
            watcher.close()


def test_a_postgresql_restart_and_play_resumes(tmp_path: Path) -> None:
    if not os.environ.get("HANDFOOT_RESTART_PG"):
        pytest.skip("restarts the machine's PostgreSQL: set HANDFOOT_RESTART_PG=1")
    for pg in postgres_database():
        with ServerProcess(pg, bot_delay=0.05) as server:
            tids = tables(server, 6)
            watcher = Client(server, tids[0], None)
            try:
                watcher.wait(lambda m: m["type"] == "state" and m["seq"] > 3)
                start = time.monotonic()
                subprocess.run(["service", "postgresql", "restart"], check=True,
                               capture_output=True, timeout=120)
                back = time.monotonic() - start
                took = all_move_on(server, tids, timeout=20)
                print(f"PostgreSQL restarted in {back:.1f} s: then all 6 tables moved "
                      f"again within {took:.1f} s")
                # and go on moving (none stopped for good a moment later)
                time.sleep(3)
                took = all_move_on(server, tids, timeout=20)
            finally:
                watcher.close()


def test_a_read_only_database_is_named_at_start(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        url = f"sqlite:///{disk / 'handfoot.db'}"
        with ServerProcess(url) as server:  # made, with a table
            server.post("/api/tables", {"rules": "classic", "seats": BOTS})
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        with pytest.raises(RuntimeError) as failed:
            ServerProcess(url).start()
        message = str(failed.value)
        assert "cannot write to the database" in message, message
        assert "Traceback" not in message


def test_a_read_only_postgresql_database_is_named_at_start() -> None:
    import psycopg
    for pg in postgres_database():
        with ServerProcess(pg) as server:  # made, with its tables
            server.post("/api/tables", {"rules": "classic", "seats": BOTS})
        name = pg.rsplit("/", 1)[1]
        with psycopg.connect(pg, autocommit=True) as c:
            c.execute(f"ALTER DATABASE {name} SET default_transaction_read_only = on")
        with pytest.raises(RuntimeError) as failed:
            ServerProcess(pg).start()
        message = str(failed.value)
        assert "cannot write to the database" in message and "read-only" in message, message
        assert "Traceback" not in message
