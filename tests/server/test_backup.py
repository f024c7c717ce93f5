"""``handfoot db backup`` while tables play, and ``handfoot db restore`` into an empty
database of either kind: every action committed before the backup began is in it, the
copy is consistent, and the restored server plays on. Bad input is refused with a
message, exit status 1, nothing written."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from handfoot.cli import main
from handfoot.server.storage.database import normalise_url
from handfoot.server.testing import ServerProcess
from server_helpers import postgres_database

pytestmark = pytest.mark.served

Rows = dict[tuple[str, int], tuple[int | None, str]]


def actions(url: str) -> Rows:
    engine = sa.create_engine(normalise_url(url))
    try:
        with engine.connect() as c:
            rows = c.execute(sa.text("SELECT table_id, seq, seat, action_json FROM actions"))
            return {(r[0], r[1]): (r[2], r[3]) for r in rows}
    finally:
        engine.dispose()


def handfoot(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "handfoot.cli", *argv], capture_output=True,
                          text=True, timeout=120)


@pytest.fixture
def other_pg() -> Iterator[str]:
    yield from postgres_database()


def test_a_backup_taken_while_tables_play_holds_every_committed_action(
        db_url: str, tmp_path: Path, other_pg: str) -> None:
    file = tmp_path / "backup.db"
    with ServerProcess(db_url, bot_delay=0.0) as s:
        ids = [s.post("/api/tables", {"rules": "classic", "seed": i,
                                      "seats": [{"kind": "bot", "level": "random"}] * 4})["id"]
               for i in range(3)]
        deadline = time.monotonic() + 60
        while len(actions(db_url)) < 100:
            assert time.monotonic() < deadline
            time.sleep(0.2)
        before = actions(db_url)
        done = handfoot("db", "backup", str(file), "--db", db_url)
        after = actions(db_url)
        assert done.returncode == 0, done.stderr
        assert "copied to" in done.stdout
        assert len(after) > len(before)  # the tables played on while it was taken
    saved = actions(f"sqlite:///{file}")
    assert set(before) <= set(saved) <= set(after)  # every action committed before it
    assert all(saved[k] == after[k] for k in saved)
    for tid in ids:  # consistent: each table's log without a gap
        seqs = sorted(seq for t, seq in saved if t == tid)
        assert seqs == list(range(len(seqs)))
    # restored into an empty database of each kind, and played on
    for target in (f"sqlite:///{tmp_path / 'restored.db'}", other_pg):
        done = handfoot("db", "restore", str(file), "--db", target)
        assert done.returncode == 0, done.stderr
        assert actions(target) == saved
        with ServerProcess(target, bot_delay=0.0) as s:
            listed = {t["id"]: t for t in s.get("/api/tables")["tables"]}
            assert set(listed) == set(ids)
            deadline = time.monotonic() + 30
            while len(actions(target)) <= len(saved):  # the computers play on
                assert time.monotonic() < deadline, "the restored tables did not play on"
                time.sleep(0.2)


def test_bad_backups_and_restores_are_refused_with_nothing_written(
        sqlite_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def run(*argv: str) -> tuple[int, str]:
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out + err

    with ServerProcess(sqlite_url, bot_delay=0.0) as s:
        s.post("/api/play", {"rules": "classic", "level": "random", "seed": 1})
    backup = tmp_path / "good.db"
    assert run("db", "backup", str(backup), "--db", sqlite_url)[0] == 0
    # a file that is not a backup
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database", "utf-8")
    empty = tmp_path / "empty.db"
    code, says = run("db", "restore", str(junk), "--db", f"sqlite:///{empty}")
    assert code == 1 and "is not a handfoot backup" in says
    assert not empty.exists()
    other = tmp_path / "other.sqlite"
    sa.create_engine(f"sqlite:///{other}").connect().execute(
        sa.text("CREATE TABLE t (x INTEGER)")).close()
    code, says = run("db", "restore", str(other), "--db", f"sqlite:///{empty}")
    assert code == 1 and "not a handfoot backup" in says
    # a server's SQLite file of the version before migrations: restored, and upgraded
    old = Path(__file__).resolve().parents[1] / "data" / "old-database.db"
    moved = tmp_path / "moved.db"
    code, says = run("db", "restore", str(old), "--db", f"sqlite:///{moved}")
    assert code == 0, says
    assert actions(f"sqlite:///{moved}") == actions(f"sqlite:///{old}")
    assert len(actions(f"sqlite:///{moved}")) > 200
    code, says = run("db", "restore", str(tmp_path / "missing.db"), "--db",
                     f"sqlite:///{empty}")
    assert code == 1 and "there is no backup file" in says
    # a database that is not empty
    before = actions(sqlite_url)
    code, says = run("db", "restore", str(backup), "--db", sqlite_url)
    assert code == 1 and "is not empty" in says and "empty database" in says
    assert actions(sqlite_url) == before
    # a database that cannot be reached; a folder that is not there
    code, says = run("db", "backup", str(tmp_path / "x.db"), "--db",
                     "postgresql://nobody:secret@127.0.0.1:1/none")
    assert code == 1 and "cannot open the database" in says and "secret" not in says
    assert not (tmp_path / "x.db").exists()
    code, says = run("db", "backup", str(tmp_path / "no" / "x.db"), "--db", sqlite_url)
    assert code == 1 and "no folder" in says
    code, says = run("db", "backup", str(tmp_path / "x.db"), "--db",
                     f"sqlite:///{tmp_path / 'nothing.db'}")
    assert code == 1 and "no database file" in says
    assert not (tmp_path / "nothing.db").exists()
