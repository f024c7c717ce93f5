"""Three people in Chromium (Ann at a desktop, Bob and Cy on phone-sized pages) and a
hard computer: names everywhere, a dropped player noticed and their seat handed to the
computer and back, Play again, ``/me`` after two games with ratings moving the right
way, and the leaderboard. Screenshots at 390x844 and 1280x800 (HANDFOOT_SHOTS, /tmp by
default) as ``handfoot-people-*.png``."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

from handfoot.server.testing import ServerProcess
from pages import SHOTS, state

with contextlib.suppress(ImportError):  # (the tests are skipped then: see conftest.py)
    from playwright.sync_api import Browser, Error, Page, ViewportSize

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}


def shot(page: Page, name: str) -> None:
    w = (page.viewport_size or {"width": 0})["width"]
    page.wait_for_timeout(500)
    page.screenshot(path=str(SHOTS / f"handfoot-people-{name}-{w}.png"))


def wait_for(page: Page, what: Callable[[Any], bool], timeout: float = 60) -> Any:
    """The page's state once ``what`` holds. The page may be navigated while we look
    (Play again moves every seat at once): an aborted navigation or a destroyed page
    context means look again."""
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(Error):
            st = state(page)
            if st is not None and what(st):
                return st
        assert time.monotonic() < deadline, "it did not come"
        with contextlib.suppress(Error):
            page.wait_for_timeout(50)


def hand_to_computer(page: Page) -> None:
    """The person lets the computer play their seat (the box beside the moves)."""
    page.evaluate("() => { const b = document.querySelector('#computer'); "
                  "if (!b.checked) b.click(); }")


def api(page: Page, path: str) -> Any:
    return page.evaluate(f"async () => (await fetch({path!r})).json()")


def test_three_people_names_absence_play_again_and_their_games(
        browser: Browser, server: ServerProcess) -> None:
    ann = browser.new_context(viewport=DESKTOP).new_page()
    bob = browser.new_context(viewport=PHONE).new_page()
    cy_context = browser.new_context(viewport=PHONE)
    cy = cy_context.new_page()
    base = server.base
    # Ann says her name once in the lobby, and sets up a table: Bob and Cy are named
    # in their seats; a hard computer plays the fourth
    ann.set_viewport_size(PHONE)
    ann.goto(base + "/")
    ann.wait_for_selector("#person-name")
    shot(ann, "lobby-name")
    ann.set_viewport_size(DESKTOP)
    ann.fill("#person-name", "Ann")
    ann.click("#person-form button")
    ann.wait_for_selector("text=Playing as Ann")
    ann.select_option("#new-rules", "texas-good-sam")
    for seat, name in ((1, "Bob"), (2, "Cy")):
        ann.select_option(f"#seat-kind-{seat}", "human")
        ann.fill(f'.seat-name[data-seat="{seat}"]', name)
    ann.select_option("#seat-kind-3", "bot:hard")
    ann.click("#table-settings summary")
    ann.fill("#absent-wait", "3")
    shot(ann, "lobby")
    ann.click("#create-table")
    ann.wait_for_selector(".invite-url")
    urls = ann.eval_on_selector_all(".invite-url", "els => els.map(e => e.value)")
    assert len(urls) == 3
    bob.goto(urls[1])
    cy.goto(urls[2])
    ann.goto(urls[0])
    st = wait_for(ann, lambda s: not s["waiting_to_start"]
                  and [x["name"] for x in s["seats"][:3]] == ["Ann", "Bob", "Cy"])
    assert [x["called"] for x in st["seats"]] == ["Ann", "Bob", "Cy", "Computer (hard)"]
    others = ann.inner_text("#others")
    assert "Cy (your partner)" in others and "Bob" in others and "Computer (hard)" in others
    wait_for(bob, lambda s: s["seats"][1]["name"] == "Bob")
    # (on a phone the board shows one part at a time: the opponents a tap away)
    bob.click('#views button[data-view="them"]')
    assert "Ann" in bob.inner_text("#others") and "Cy" in bob.inner_text("#others")
    bob.click('#views button[data-view="us"]')
    assert "Computer (hard) (your partner)" in bob.inner_text("#others") or \
        "Your partner Computer (hard)" in bob.inner_text("#others")
    shot(bob, "table-names")
    shot(ann, "table-names")
    # Cy's connection drops: the others are told at once
    cy.close()
    ann.wait_for_selector("#presence >> text=Cy left the table.")
    bob.wait_for_selector("#presence >> text=Cy left the table.")
    shot(bob, "left")
    # after the table's wait, anyone seated (Bob, not the host) hands Cy's seat over
    # (Cy, Bob's opponent, is among the opponents on his phone)
    bob.click('#views button[data-view="them"]')
    bob.wait_for_selector('button.away[data-seat="2"]', timeout=15000)
    bob.click('button.away[data-seat="2"]')
    wait_for(ann, lambda s: s["seats"][2]["computer"])
    assert "Cy (your partner) (computer playing)" in ann.inner_text("#others")
    # Cy comes back (the same link, kept by the browser): the seat is theirs again
    cy = cy_context.new_page()
    cy.goto(urls[2])
    ann.wait_for_selector("#presence >> text=Cy is back.")
    wait_for(cy, lambda s: s["seat"] == 2 and not s["seats"][2]["computer"])
    # everyone lets the computer finish the game
    for page in (ann, bob, cy):
        hand_to_computer(page)
    end = wait_for(ann, lambda s: s["view"]["game_over"], timeout=120)
    ann.wait_for_selector("#play-again")
    won_title = ann.inner_text("#end-title")
    winners = end["view"]["winners"]
    assert ("you and Cy won" in won_title) == (0 in winners), won_title
    assert ("Bob and Computer (hard) won" in won_title) == (1 in winners), won_title
    shot(ann, "game-over")
    bob.wait_for_selector("#play-again")
    shot(bob, "game-over")
    # Ann's rating moved the right way
    mine = api(ann, "/api/me")["ratings"]
    assert len(mine) == 1 and mine[0]["games"] == 1
    assert (mine[0]["mu"] > 25) == (0 in winners)
    # Play again: Bob and Cy's pages move to the next game by themselves
    first = end["table"]
    ann.click("#play-again")
    for page in (ann, bob, cy):
        wait_for(page, lambda s: s["table"] != first and s["seq"] >= 0, timeout=30)
        assert "/table/" in page.url and first not in page.url
    second = state(ann)["table"]
    assert state(bob)["seat"] == 1 and state(cy)["seat"] == 2
    assert [x["name"] for x in state(bob)["seats"][:3]] == ["Ann", "Bob", "Cy"]
    for page in (ann, bob, cy):
        hand_to_computer(page)
    wait_for(ann, lambda s: s["view"]["game_over"], timeout=120)
    # Ann's page: both games, with results and replays, and her rating
    for size, name in ((DESKTOP, "me"), (PHONE, "me")):
        ann.set_viewport_size(size)
        ann.goto(base + "/me")
        ann.wait_for_selector(".games")
        deadline = time.monotonic() + 10
        while api(ann, "/api/me")["ratings"][0]["games"] < 2:
            assert time.monotonic() < deadline
            ann.wait_for_timeout(100)
        ann.reload()
        ann.wait_for_selector(".games")
        shot(ann, name)
    rows = ann.inner_text(".games")
    assert rows.count("Replay") == 2 and ("won" in rows or "lost" in rows)
    me = api(ann, "/api/me")
    assert [g["table"] for g in me["games"]] == [second, first]
    assert me["ratings"][0]["games"] == 2
    # Ann chooses to appear on the leaderboard
    ann.check("#me-board")
    ann.wait_for_timeout(300)
    for size in (DESKTOP, PHONE):
        ann.set_viewport_size(size)
        ann.goto(base + "/leaderboard?rules=texas-good-sam")
        ann.wait_for_selector("table.board")
        assert "Ann" in ann.inner_text("#board") and "Bob" not in ann.inner_text("#board")
        shot(ann, "leaderboard")
