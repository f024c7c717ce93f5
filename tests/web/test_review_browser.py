"""The replay page offers the hard player's review of the finished game: opened, it is
worked out by the server (once) and shown, each hand's costliest decisions in words,
each with a button that steps the replay to the moment before it. Screenshots at phone
and desktop size."""

from __future__ import annotations

import contextlib

from handfoot.server.testing import ServerProcess
from pages import SHOTS
from server_helpers import finished_one_hand_game, wait_for_review

with contextlib.suppress(ImportError):  # (the tests are skipped then: see conftest.py)
    from playwright.sync_api import Browser, ViewportSize

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}


def test_the_replay_shows_the_review_and_steps_to_each_costly_decision(
        browser: Browser, server: ServerProcess) -> None:
    tid = finished_one_hand_game(server)
    page = browser.new_page(viewport=PHONE)
    page.goto(server.base + f"/?replay={tid}")
    page.wait_for_selector("#replay-step:has-text('step 0 of')")
    # worked out in the server's worker once asked for, when the review is opened
    page.click("#replay-review > summary")
    page.wait_for_selector("#replay-review-body:has-text('reviewing this game')")
    review = wait_for_review(server, tid)
    worst = review["hands"][0]["costliest"]
    assert worst, "the hand has decisions that cost something"
    page.wait_for_selector("#replay-review-body .review-list li", timeout=30_000)
    items = page.locator("#replay-review-body .review-list li")
    assert items.count() == len(worst)
    decision = next(d for d in review["hands"][0]["decisions"] if d["index"] == worst[0])
    first = items.first.inner_text()
    assert f"Move {worst[0] + 1}" in first and decision["text"] in first
    assert "{" not in page.inner_text("#replay-review")
    items.first.locator("button").click()
    page.wait_for_selector(f"#replay-step:has-text('step {worst[0]} of')")
    for vp in (PHONE, DESKTOP):
        page.set_viewport_size(vp)
        page.wait_for_timeout(100)
        page.screenshot(path=str(SHOTS / f"handfoot-replay-review-{vp['width']}.png"),
                        full_page=True)
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.close()
