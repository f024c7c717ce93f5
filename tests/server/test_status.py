"""The operator's view: ``/metrics`` in Prometheus' text format, and ``handfoot status``
reading the database and the running server."""

from __future__ import annotations

import subprocess
import sys
import urllib.request

import pytest

from handfoot import __version__
from handfoot.server.diagnostics.metrics import parse
from handfoot.server.storage.schema import HEAD
from handfoot.server.testing import ServerProcess, free_port
from server_helpers import play_one_move

pytestmark = pytest.mark.served


def status(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "handfoot.cli", "status", *argv],
                          capture_output=True, text=True, timeout=60)


def test_metrics_and_status_of_a_running_server(db_url: str) -> None:
    with ServerProcess(db_url, bot_delay=0.0) as s:
        play_one_move(s)
        made = s.post("/api/tables", {"rules": "classic", "seed": 2, "wait": True, "seats": [
            {"kind": "human"}, {"kind": "bot"}, {"kind": "human"}, {"kind": "bot"}]})
        watcher = s.client(made["id"])
        watcher.wait(lambda m: m["type"] == "state")
        with urllib.request.urlopen(s.base + "/metrics", timeout=5) as r:
            assert r.headers["Content-Type"].startswith("text/plain; version=0.0.4")
            samples = parse(r.read().decode())
        assert samples["handfoot_websocket_connections"] == 1  # the watcher's
        assert samples["handfoot_websocket_connections_opened_total"] >= 2
        assert samples['handfoot_actions_applied_total{by="person"}'] >= 1
        assert samples["handfoot_push_seconds_count"] >= 1
        assert samples['handfoot_push_seconds_bucket{le="+Inf"}'] >= 1
        assert samples['handfoot_http_requests_total{method="POST",status="200"}'] >= 2
        assert 'handfoot_pool_queue{pool="bots"}' in samples
        assert samples[f'handfoot_info{{version="{__version__}"}}'] == 1
        assert samples["handfoot_errors_total"] == 0
        done = status("--db", db_url, "--server", s.base)
        assert done.returncode == 0, done.stderr
        out = done.stdout
        assert f"handfoot {__version__}" in out and f"revision {HEAD}, up to date" in out
        assert "1 in progress" in out and "1 waiting for their people" in out
        assert "2 in all" in out
        assert "1 connection(s) open" in out and "0 logged" in out
        watcher.close()
    # no server: the database's figures, and a line saying so
    done = status("--db", db_url, "--server", f"http://127.0.0.1:{free_port()}")
    assert done.returncode == 0 and "no server answers" in done.stdout
    assert "2 in all" in done.stdout


def test_status_of_a_database_that_cannot_be_reached() -> None:
    done = status("--db", "postgresql://nobody:secret@127.0.0.1:1/none")
    assert done.returncode == 1
    assert "cannot open the database" in done.stderr and "secret" not in done.stderr
    assert "Traceback" not in done.stderr


def test_errors_logged_are_counted_with_the_time_of_the_last() -> None:
    import logging
    import time

    from handfoot.server.diagnostics import metrics
    metrics.count_errors()
    metrics.count_errors()  # (once, however often it is asked)
    before = parse(metrics.render().decode())["handfoot_errors_total"]
    logging.getLogger("handfoot.server").warning("not an error")
    logging.getLogger("handfoot.server").error("a message at table x")
    logging.getLogger("uvicorn.error").error("Exception in ASGI application")
    after = parse(metrics.render().decode())
    assert after["handfoot_errors_total"] == before + 2
    assert abs(after["handfoot_last_error_timestamp_seconds"] - time.time()) < 60
