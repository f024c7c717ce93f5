"""The server tests' databases and a first move: a throwaway PostgreSQL database where
one is running, and one move played at a new table."""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Iterator
from typing import Any

import pytest

from handfoot.server.testing import ServerProcess

#: an administrator's URL; .ci/run creates this role (see README)
PG_ADMIN = os.environ.get("HANDFOOT_TEST_PG",
                          "postgresql://handfoot:handfoot@127.0.0.1:5432/postgres")


def postgres_database() -> Iterator[str]:
    """Create a throwaway database and yield its URL; skip if PostgreSQL is not there."""
    try:
        import psycopg
    except ImportError:  # pragma: no cover
        pytest.skip("psycopg is not installed")
    try:
        admin = psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=3)
    except psycopg.Error as e:
        if os.environ.get("HANDFOOT_REQUIRE_PG"):
            raise
        pytest.skip(f"no PostgreSQL server at {PG_ADMIN.split('@')[-1]}: {e}".strip())
    name = "handfoot_test_" + secrets.token_hex(4)
    admin.execute(f"CREATE DATABASE {name}")
    base = PG_ADMIN.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        if admin.closed or admin.broken:  # (the server was restarted by the test)
            admin = psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=10)
        try:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        except psycopg.OperationalError:  # the connection died with a restart
            admin = psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=10)
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.close()


def play_one_move(server: ServerProcess) -> None:
    """A person's first move at a new table against random computers, and the state
    that follows it."""
    out = server.post("/api/play", {"rules": "texas-good-sam", "level": "random", "seed": 3})
    c = server.client(out["id"], out["token"])
    try:
        state = c.wait(lambda m: m["type"] == "state" and m["view"]["actor"] == 0)
        n = c.count()
        c.act(state["legal"][0])
        c.wait_new(n, lambda m: m["type"] == "state" and m["seq"] > state["seq"])
    finally:
        c.close()


def finished_one_hand_game(server: ServerProcess, seed: int = 3) -> str:
    """A game of one hand of alabama-samboree, four medium computers: its table."""
    server.post("/api/rule-sets/check", {"base": "alabama-samboree", "name": "One hand",
                                         "toml": "[game]\nhands = 1\n"})
    made = server.post("/api/tables", {"rules": "One hand", "seed": seed,
                                       "seats": [{"kind": "bot", "level": "medium"}] * 4})
    deadline = time.monotonic() + 120
    while not server.get(f"/api/tables/{made['id']}")["over"]:
        assert time.monotonic() < deadline, "the computers did not finish the game"
        time.sleep(0.2)
    return str(made["id"])


def wait_for_review(server: ServerProcess, tid: str, seconds: float = 300) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        out = server.get(f"/api/tables/{tid}/review")
        if out["status"] == "ready":
            review_json: dict[str, Any] = out["review"]
            return review_json
        assert out == {"status": "working"}
        assert time.monotonic() < deadline, "the review was not worked out"
        time.sleep(0.5)
