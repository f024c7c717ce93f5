"""deploy/handfoot.service: systemd finds nothing wrong in it (where systemd-analyze is
on the machine), and the commands it runs upgrade the database, serve, and end cleanly
on SIGTERM (what ``systemctl stop`` sends), with every committed action kept."""

from __future__ import annotations

import shlex
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import sqlalchemy as sa

from handfoot.server.testing import free_port

pytestmark = pytest.mark.served

UNIT = Path(__file__).resolve().parents[2] / "deploy" / "handfoot.service"
INSTALLED = "/opt/handfoot/bin/handfoot"


def unit_lines() -> dict[str, list[str]]:
    """The unit's settings (continued lines joined), each key's values in order."""
    text = UNIT.read_text("utf-8").replace("\\\n", " ")
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            out.setdefault(key.strip(), []).append(value.strip())
    return out


def test_the_unit_says_what_hosting_needs() -> None:
    unit = unit_lines()
    assert unit["User"] == ["handfoot"] and unit["Restart"] == ["on-failure"]
    assert unit["KillSignal"] == ["SIGTERM"] and unit["StateDirectory"] == ["handfoot"]
    assert unit["ExecStart"][0].startswith(f"{INSTALLED} serve ")
    assert unit["ExecStartPre"][0].startswith(f"{INSTALLED} db upgrade ")


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not on this machine")
def test_systemd_analyze_verify_finds_nothing_wrong(tmp_path: Path) -> None:
    # the unit as installed, with the handfoot command where this machine has it
    here = shutil.which("handfoot") or str(Path(sys.executable).parent / "handfoot")
    unit = tmp_path / "handfoot.service"
    unit.write_text(UNIT.read_text("utf-8").replace(INSTALLED, here), "utf-8")
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "", done.stderr
    broken = tmp_path / "broken.service"  # (and it does find a fault)
    broken.write_text(unit.read_text("utf-8").replace(here, "/no/such/handfoot"), "utf-8")
    done = subprocess.run(["systemd-analyze", "verify", str(broken)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode != 0 and "/no/such/handfoot" in done.stderr


def command(line: str, db: str, port: int) -> list[str]:
    argv = shlex.split(line)
    assert argv[0] == INSTALLED
    argv = [sys.executable, "-m", "handfoot.cli", *argv[1:]]
    argv[argv.index("--db") + 1] = db
    if "--port" in argv:
        argv[argv.index("--port") + 1] = str(port)
    return argv


def test_the_unit_s_commands_serve_and_stop_cleanly_on_sigterm(tmp_path: Path) -> None:
    unit = unit_lines()
    db = f"sqlite:///{tmp_path / 'handfoot.db'}"
    port = free_port()
    pre = subprocess.run(command(unit["ExecStartPre"][0], db, port), capture_output=True,
                         text=True, timeout=60)
    assert pre.returncode == 0 and "upgraded from schema revision (none)" in pre.stdout
    proc = subprocess.Popen(command(unit["ExecStart"][0], db, port), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(base + "/api/rule-sets", timeout=2):
                    break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline
                time.sleep(0.1)
        req = urllib.request.Request(base + "/api/tables", data=(
            b'{"rules": "classic", "seed": 1, "seats": [{"kind": "bot", "level": "random"},'
            b'{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]}'),
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10):
            pass
        time.sleep(1.0)  # the computers play
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=30)  # (TimeoutStopSec is 30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # uvicorn shuts down, then ends by the signal it caught (which systemd counts as a
    # clean stop); the shutdown closed every database connection: SQLite's write-ahead
    # log was folded into the file and removed (after kill -9 it stays)
    assert proc.returncode in (0, -signal.SIGTERM), out
    assert "Traceback" not in out, out
    assert not (tmp_path / "handfoot.db-wal").exists()
    engine = sa.create_engine(db)
    with engine.connect() as c:
        seqs = [r[0] for r in c.execute(sa.text("SELECT seq FROM actions ORDER BY seq"))]
    engine.dispose()
    assert seqs and seqs == list(range(len(seqs)))  # the log whole, no gap


HOSTING = Path(__file__).resolve().parents[2] / "docs" / "hosting.md"


def test_the_hosting_page_shows_the_deploy_files_as_they_are() -> None:
    doc = HOSTING.read_text("utf-8")
    for name, fence in (("handfoot.service", "ini"), ("Caddyfile", "caddy")):
        text = (UNIT.parent / name).read_text("utf-8")
        assert f"```{fence}\n{text}```" in doc, f"docs/hosting.md: {name} is not as it is"


def test_the_hosting_page_s_cron_line_makes_a_backup(tmp_path: Path) -> None:
    doc = HOSTING.read_text("utf-8")
    line = next(x for x in doc.splitlines() if x.startswith("15 3 * * * "))
    # as cron runs it: % written \% in a crontab; the folders and the command of this test
    shell = line.split(" ", 5)[5].replace("\\%", "%").replace(
        "/var/lib/handfoot", str(tmp_path)).replace(
        INSTALLED, f"{shlex.quote(sys.executable)} -m handfoot.cli")
    (tmp_path / "backups").mkdir()
    from handfoot.server.storage.store import Store
    store = Store(f"sqlite:///{tmp_path / 'handfoot.db'}")
    tid = store.create_table("classic", "", 1, [{"kind": "bot"}] * 4)
    store.append_action(tid, 0, 0, {"type": "draw"})
    store.close()
    done = subprocess.run(["sh", "-c", shell], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    made = list((tmp_path / "backups").iterdir())
    assert len(made) == 1 and made[0].name.startswith("handfoot-")
    engine = sa.create_engine(f"sqlite:///{made[0]}")
    with engine.connect() as c:
        assert c.execute(sa.text("SELECT COUNT(*) FROM actions")).scalar_one() == 1
    engine.dispose()
