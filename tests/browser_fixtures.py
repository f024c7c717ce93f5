"""What the browser tests share: Chromium driven by Playwright, and a real server.

A test module imports ``pytestmark`` (skipped, with the reason, where Chromium or
Playwright is missing; CI sets HANDFOOT_REQUIRE_BROWSER so that there they must run)
and the ``browser`` and ``server`` fixtures."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from handfoot.server.testing import ServerProcess
from server_fixtures import sqlite_url as sqlite_url  # re-exported: the server fixture needs it

CHROMIUM = os.environ.get("HANDFOOT_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

try:
    from playwright.sync_api import Browser, sync_playwright
except ImportError:  # pragma: no cover
    sync_playwright = None  # type: ignore[assignment]

_missing = ("playwright is not installed" if sync_playwright is None
            else None if Path(CHROMIUM).exists() else f"no Chromium at {CHROMIUM}")
if _missing and os.environ.get("HANDFOOT_REQUIRE_BROWSER"):
    raise RuntimeError(f"browser tests required but {_missing}")
pytestmark = [pytest.mark.served,  # (left out of the pure-Python pass: see test.sh)
              pytest.mark.skipif(_missing is not None, reason=_missing or "")]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def server(sqlite_url: str) -> Iterator[ServerProcess]:
    with ServerProcess(sqlite_url, bot_delay=0.0) as s:
        yield s
