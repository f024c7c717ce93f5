"""What the browser tests share about the page: where screenshots go, and the page's state."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

with contextlib.suppress(ImportError):  # (the tests are skipped then: see conftest.py)
    from playwright.sync_api import Page


SHOTS = Path(os.environ.get("HANDFOOT_SHOTS", "/tmp"))


def state(page: Page) -> Any:
    return page.evaluate("window.hf.state")
