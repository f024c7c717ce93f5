"""What the browser tests share: Chromium driven by Playwright, and a real server.

Every test in this folder is marked ``served`` (left out of test.sh's pure-Python pass)
and skipped, with the reason, where Chromium or Playwright is missing (CI sets
HANDFOOT_REQUIRE_BROWSER so that there they must run); the ``browser`` and ``server``
fixtures are theirs to ask for."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from handfoot.server.testing import ServerProcess

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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.served)
            if _missing is not None:
                item.add_marker(pytest.mark.skip(reason=_missing))


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
