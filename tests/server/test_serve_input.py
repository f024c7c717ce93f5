"""``handfoot serve`` refuses bad input before it starts, with a message naming the
problem and what to do, a non-zero exit status and nothing written: a malformed
``--public-url``, a database that cannot be reached."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from handfoot.server.testing import free_port

pytestmark = pytest.mark.served


def serve(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "handfoot.cli", "serve", "--port",
                           str(free_port()), *argv], capture_output=True, text=True,
                          timeout=60)


@pytest.mark.parametrize(("url", "says"), [
    ("cards.example.org", "must start with https://"),
    ("ftp://cards.example.org", "must start with https://"),
    ("https://", "names no machine"),
    ("https://cards.example.org/play", "without /play"),
    ("https://cards.example.org?x=1", "without ?x=1"),
    ("https://cards.example.org:99999", "not an address"),
    ("https://me:pw@cards.example.org", "user name or password"),
])
def test_a_malformed_public_url_is_refused(url: str, says: str, tmp_path: Path) -> None:
    db = tmp_path / "handfoot.db"
    done = serve("--public-url", url, "--db", f"sqlite:///{db}")
    assert done.returncode == 2
    assert f"--public-url {url!r}" in done.stderr and says in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert not db.exists()  # nothing written


def test_a_database_that_cannot_be_reached_is_named(tmp_path: Path) -> None:
    done = serve("--db", "postgresql://handfoot:secret@127.0.0.1:1/handfoot")
    assert done.returncode == 1
    assert "cannot open the database postgresql://handfoot:***@127.0.0.1:1/handfoot" in \
        done.stderr and "secret" not in done.stderr
    assert "Traceback" not in done.stderr
    done = serve("--db", f"sqlite:///{tmp_path / 'no' / 'such' / 'folder.db'}")
    assert done.returncode == 1 and "cannot open the database" in done.stderr
    done = serve("--db", "mysql+nothing://x")
    assert done.returncode in (1, 2) and "Traceback" not in done.stderr, done.stderr
