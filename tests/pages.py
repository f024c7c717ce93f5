"""What the browser tests share about the page: where screenshots go, and the page's state."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

with contextlib.suppress(ImportError):  # (the tests are skipped then: see conftest.py)
    from playwright.sync_api import Page


SHOTS = Path(os.environ.get("HANDFOOT_SHOTS", "/tmp"))


#: the table's state module, as the page has it (the same module instance: the page
#: shares nothing through globals)
TABLE = "(await import('/static/state.js'))"


def state(page: Page) -> Any:
    """The last state message the page received (None before the first)."""
    return page.evaluate(f"async () => {TABLE}.table.state")
