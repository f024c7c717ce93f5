"""The site around the table, in Chromium: inviting people (names, Copy, a message to
send, the links again after a reload, a new link), a game that waits for its people,
the house rules form, chat, the replay and accessibility checks. Screenshots at phone
and desktop size go to $HANDFOOT_SHOTS (/tmp) as handfoot-site-NAME-WIDTH.png."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Any

import pytest

from handfoot.server.testing import ServerProcess

with contextlib.suppress(ImportError):  # (the tests are skipped then: see conftest.py)
    from axe_playwright_python.sync_playwright import Axe
    from playwright.sync_api import Browser, Page, ViewportSize

SHOTS = Path(os.environ.get("HANDFOOT_SHOTS", "/tmp"))
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}


def shoot(page: Page, name: str) -> None:
    """A screenshot at phone size and at desktop size, to look at."""
    size = page.viewport_size
    for vp in (PHONE, DESKTOP):
        page.set_viewport_size(vp)
        page.wait_for_timeout(100)
        page.screenshot(path=str(SHOTS / f"handfoot-site-{name}-{vp['width']}.png"),
                        full_page=True)
    if size:
        page.set_viewport_size(size)


def no_wider_than_the_screen(page: Page) -> None:
    """Nothing is cut off at the right edge of a phone."""
    page.set_viewport_size(PHONE)
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= PHONE["width"], f"the page is {wide}px wide on a 390px phone"


def fits_on_a_phone(page: Page, selector: str) -> None:
    """This part of the page is not cut off at the right edge of a phone."""
    page.set_viewport_size(PHONE)
    right = page.eval_on_selector(selector, "e => e.getBoundingClientRect().right")
    assert right <= PHONE["width"], f"{selector} reaches {right}px on a 390px phone"


def state(page: Page) -> Any:
    return page.evaluate("async () => (await import('/static/state.js')).table.state")


def wait_state(page: Page, pred: Any, timeout: float = 20) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        st = state(page)
        if st is not None and pred(st):
            return st
        assert time.monotonic() < deadline, f"no such state; last {st and st['seq']}"
        page.wait_for_timeout(50)


@pytest.mark.slow
def test_inviting_people_and_a_game_that_waits_for_them(browser: Browser,
                                                        server: ServerProcess) -> None:
    host = browser.new_context(viewport=PHONE)
    host.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base)
    lobby = host.new_page()
    lobby.on("dialog", lambda d: d.accept())
    lobby.goto(server.base + "/")
    lobby.wait_for_selector("#new-rules option", state="attached")
    lobby.select_option("#new-rules", "classic")
    lobby.fill(".seat-name[data-seat='0']", "Ann")
    lobby.select_option(".seat-kind[data-seat='2']", "human")
    lobby.fill(".seat-name[data-seat='2']", "Grandpa Bob")
    # a computer's seat has no name to fill in
    assert not lobby.is_visible(".seat-name[data-seat='1']")
    lobby.click("#create-table")
    lobby.wait_for_selector(".invite .invite-url")
    invites = lobby.locator(".hosted .invite")
    assert invites.count() == 2
    assert "Grandpa Bob" in invites.nth(1).inner_text()
    # opened at 127.0.0.1: friends cannot reach it, and how to start the server for them
    note = lobby.inner_text(".local-note")
    assert "--host 0.0.0.0" in note and "--public-url" in note
    urls = lobby.eval_on_selector_all(".hosted .invite-url", "els => els.map(e => e.value)")
    assert all("/table/" in u and "token=" in u for u in urls)
    # Copy puts the link on the clipboard
    invites.nth(1).locator(".copy-link").click()
    lobby.wait_for_selector(".invite .copy-link:has-text('Copied')")
    assert lobby.evaluate("navigator.clipboard.readText()") == urls[1]
    # a message ready to send (the share sheet where the browser has one)
    lobby.evaluate("navigator.share = undefined")
    invites.nth(1).locator(".share-link").click()
    message = invites.nth(1).locator(".share-text").input_value()
    assert "Grandpa Bob" in message and urls[1] in message and "seat 3" in message
    shoot(lobby, "invites")
    no_wider_than_the_screen(lobby)
    # after a reload the host sees the same links again (from this browser only)
    lobby.reload()
    lobby.wait_for_selector(".hosted .invite-url")
    assert lobby.eval_on_selector_all(".hosted .invite-url",
                                      "els => els.map(e => e.value)") == urls
    stranger = browser.new_page()
    stranger.goto(server.base + "/")
    stranger.wait_for_selector("#table-list li")
    assert stranger.locator(".hosted").count() == 0
    assert "waiting for its players" in stranger.inner_text("#table-list")
    stranger.close()
    # a new link for Bob: the old one is refused
    lobby.locator(".hosted .invite").nth(1).locator(".new-link").click()
    lobby.wait_for_function(
        f"document.querySelectorAll('.hosted .invite-url')[1].value !== {urls[1]!r}")
    new_bob = lobby.eval_on_selector_all(".hosted .invite-url", "els => els.map(e => e.value)")[1]
    old = browser.new_page()
    old.goto(urls[1])
    old.wait_for_selector("#waiting-room:has-text('not valid for this table')")
    assert old.is_visible("#waiting-room a[href='/']")
    shoot(old, "old-link")
    old.close()
    # Ann (the host, in the same browser) opens her seat: the game waits for Bob
    ann = host.new_page()
    ann.goto(urls[0])
    ann.wait_for_selector("#waiting-room:has-text('Waiting for everyone')")
    st = wait_state(ann, lambda s: s["waiting_to_start"])
    assert st["legal"] == [] and "not joined yet" in ann.inner_text("#waiting-room")
    assert ann.is_visible("#waiting-room .start-now")
    assert ann.locator("button.away").count() == 0  # "Start now" is the host's way here
    # the host's lobby sees her arrive
    lobby.wait_for_selector(".hosted .invite[data-seat='0'] .joined:has-text('at the table now')",
                            timeout=15_000)
    shoot(ann, "waiting-host")
    # Bob arrives: it starts by itself; the "let the computer play" buttons are the host's
    bob_ctx = browser.new_context(viewport=DESKTOP)
    bob = bob_ctx.new_page()
    bob.goto(new_bob)
    wait_state(bob, lambda s: not s["waiting_to_start"])
    wait_state(ann, lambda s: not s["waiting_to_start"])
    assert ann.is_hidden("#waiting-room")
    bob.close()
    ann.wait_for_selector("button.away")  # Bob left: the host may hand his seat over
    bob = bob_ctx.new_page()
    bob.goto(new_bob)
    wait_state(ann, lambda s: s["seats"][2]["connected"])
    ann.close()
    wait_state(bob, lambda s: not s["seats"][0]["connected"])
    assert bob.locator("button.away").count() == 0  # Bob is not the host
    bob_ctx.close()
    host.close()


def test_the_host_starts_with_computers_in_the_empty_seats(browser: Browser,
                                                           server: ServerProcess) -> None:
    host = browser.new_context(viewport=DESKTOP)
    lobby = host.new_page()
    lobby.goto(server.base + "/")
    lobby.wait_for_selector("#new-rules option", state="attached")
    lobby.select_option("#new-rules", "classic")
    lobby.select_option(".seat-kind[data-seat='1']", "human")
    lobby.fill(".seat-name[data-seat='1']", "Cousin Sue")
    lobby.click("#create-table")
    lobby.wait_for_selector(".hosted .invite-url")
    url = lobby.eval_on_selector_all(".hosted .invite-url", "els => els.map(e => e.value)")[0]
    ann = host.new_page()
    ann.goto(url)
    ann.wait_for_selector("#waiting-room .start-now")
    ann.click("#waiting-room .start-now")
    st = wait_state(ann, lambda s: not s["waiting_to_start"])
    assert st["seats"][1]["computer"]
    assert ann.is_hidden("#waiting-room")
    wait_state(ann, lambda s: s["seq"] > 0 or s["legal"])  # the game is played
    host.close()


def test_the_lobby_loads_its_modules_as_javascript(browser: Browser,
                                                   server: ServerProcess) -> None:
    """Every module is served as JavaScript (a module with another type is refused), the
    page runs without an error and shares nothing through globals; a screenshot of the
    lobby at both sizes."""
    page = browser.new_page(viewport=PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    types: dict[str, str] = {}
    page.on("response", lambda r: types.update(
        {r.url.rsplit("/", 1)[-1]: r.headers.get("content-type", "")} if "/static/" in r.url
        and r.url.endswith(".js") else {}))
    page.goto(server.base + "/")
    page.wait_for_selector("#new-rules option", state="attached")
    page.wait_for_selector("#table-list h3")
    assert {"main.js", "state.js", "table.js", "lobby.js"} <= set(types), types
    assert all(t.startswith("text/javascript") for t in types.values()), types
    assert page.evaluate("typeof window.hf") == "undefined"
    no_wider_than_the_screen(page)
    shoot(page, "lobby")
    assert not errors, errors


def test_house_rules_as_a_form(browser: Browser, server: ServerProcess) -> None:
    page = browser.new_page(viewport=PHONE)
    page.on("dialog", lambda d: d.accept())
    page.goto(server.base + "/")
    page.wait_for_selector("#new-rules option", state="attached")
    page.select_option("#new-rules", "classic")
    page.click("#house > summary")
    page.wait_for_selector("#group-scores")
    assert page.locator(".rule-group").count() == 9
    page.click("#group-scores > summary")
    field = page.locator('.setting[data-setting="scores.going_out"]')
    assert "classic: 100" in field.inner_text()  # the preset's value, beside its explanation
    # a mistake is named next to the setting, in the engine's words
    field.locator("input").fill("lots")
    page.wait_for_selector('.setting[data-setting="scores.going_out"] '
                           '.setting-error:has-text("must be a whole number")')
    shoot(page, "house-rules-error")
    field.locator("input").fill("500")
    page.wait_for_selector("#house-result:has-text('100 → 500')")
    assert field.locator(".setting-error").inner_text() == ""
    assert "going_out = 500" in page.input_value("#house-toml")
    assert "1 changed" in page.inner_text("#group-scores > summary")
    # pasted TOML shows in the form too
    page.fill("#house-toml", "[scores]\ngoing_out = 300\n[pile]\nmin_size = 2\n")
    page.click("#house-check")
    page.wait_for_selector("#house-result:has-text('pile.min_size')")
    assert field.locator("input").input_value() == "300"
    assert "1 changed" in page.inner_text("#group-pile > summary")
    page.fill("#house-name", "Sunday club")
    page.click("#house-save")
    page.wait_for_selector("#my-rule-sets:has-text('Sunday club')")
    assert page.input_value("#new-rules") == "Sunday club"
    shoot(page, "house-rules")
    no_wider_than_the_screen(page)
    page.click("#my-rule-sets .delete-rules")
    page.wait_for_function("!document.querySelector('#my-rule-sets').textContent"
                           ".includes('Sunday club')")
    assert "Sunday club" not in page.inner_text("#new-rules")
    page.close()


def test_chat_and_quick_reactions_at_the_table(browser: Browser,
                                               server: ServerProcess) -> None:
    made = server.post("/api/tables", {"rules": "classic", "seed": 8, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"},
        {"kind": "human", "name": "Bob"}, {"kind": "bot", "level": "easy"}]})
    ann_ctx, bob_ctx = browser.new_context(viewport=PHONE), browser.new_context(viewport=DESKTOP)
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    ann.goto(made["invites"][0]["url"])
    bob.goto(made["invites"][1]["url"])
    ann.wait_for_selector("#chat-reactions button", state="attached")
    bob.wait_for_selector("#chat-reactions button")
    # on a phone the chat is a tap away; a new line is told where Ann is looking
    bob.fill("#chat-text", "Hello Ann")
    bob.press("#chat-text", "Enter")
    bob.evaluate("document.activeElement.blur()")  # (Bob looks at the game again)
    ann.wait_for_selector("#chat-notice:not([hidden])")
    assert "Bob: Hello Ann" in ann.inner_text("#chat-notice")
    box = ann.locator("#chat-notice").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    assert "1" in ann.inner_text('#views button[data-view="chat"] .badge')
    shoot(ann, "chat-notice")
    ann.click("#chat-notice")
    assert ann.evaluate("document.activeElement.id") == "chat-text"
    assert ann.locator("#chat-notice").is_hidden()
    assert ann.locator('#views button[data-view="chat"] .badge').count() == 0
    sneaky = '<img src=x onerror="window.hacked=1">Hello Bob'
    ann.fill("#chat-text", sneaky)
    ann.press("#chat-text", "Enter")
    bob.wait_for_selector("#chat-lines p:has-text('Hello Bob')")
    line = bob.locator("#chat-lines p").last
    assert line.inner_text() == "Ann: " + sneaky  # text, never markup
    assert bob.locator("#chat-lines img").count() == 0 and not bob.evaluate("window.hacked")
    assert "1 new" in bob.inner_text("#chat-title")
    bob.click("#chat-reactions button:has-text('Good game!')")
    ann.wait_for_selector("#chat-lines p:has-text('Bob: Good game!')")
    assert ann.locator("#chat-lines p.mine").count() == 1
    shoot(ann, "chat")
    fits_on_a_phone(ann, "#chat")
    ann_ctx.close()
    bob_ctx.close()


def serious_violations(page: Page) -> list[str]:
    """What axe-core finds on the page that is serious or critical."""
    found = Axe().run(page).response["violations"]
    return [f"{v['impact']} {v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in found if v["impact"] in ("serious", "critical")]


def finished_game(server: ServerProcess, seed: int = 11) -> str:
    """A whole game of four easy computers (one hand): its table."""
    made = server.post("/api/tables", {"rules": "texas-good-sam", "seed": seed,
                                       "seats": [{"kind": "bot", "level": "easy"}] * 4})
    deadline = time.monotonic() + 120
    while not server.get(f"/api/tables/{made['id']}")["over"]:
        assert time.monotonic() < deadline, "the computers did not finish the game"
        time.sleep(0.2)
    return str(made["id"])


def test_no_serious_accessibility_problem_on_any_page(browser: Browser,
                                                      server: ServerProcess) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    problems: dict[str, list[str]] = {}

    def check(name: str) -> None:
        for vp in (PHONE, DESKTOP):
            page.set_viewport_size(vp)
            problems[f"{name} at {vp['width']}"] = serious_violations(page)

    # the lobby, with the house rules form and a table's invites open
    page.goto(server.base + "/")
    page.wait_for_selector("#new-rules option", state="attached")
    page.click("#house > summary")
    page.click("#group-pile > summary")
    page.click("#group-scores > summary")
    page.click("#create-table")
    page.wait_for_selector(".invite-url")
    check("lobby")
    # a table in the middle of a game, with its chat
    made = server.post("/api/tables", {"rules": "classic", "seed": 8, "seats": [
        {"kind": "human", "name": "Ann"}, *[{"kind": "bot", "level": "easy"}] * 3]})
    page.goto(made["invites"][0]["url"])
    page.wait_for_selector("#hand .card")
    page.wait_for_selector("#chat-reactions button")
    check("table")
    # the replay of a finished game
    page.goto(server.base + f"/?replay={finished_game(server)}")
    page.wait_for_selector("#replay-body .team")
    page.click("#replay-next")
    check("replay")
    # the events: the list, an event's players' page, the organiser's page
    made_event = page.request.post(server.base + "/api/events", data={
        "name": "Autumn Samboree", "rules": "classic", "rounds": 2, "password": "secret1"})
    key = made_event.json()["key"]
    page.request.post(server.base + f"/api/events/{key}/players", data={
        "csv": "name,chapter\n" + "".join(f"Player {i},Club {i % 2}\n" for i in range(8))})
    page.request.post(server.base + f"/api/events/{key}/draw", data={"round": 1, "seed": 3})
    page.goto(server.base + "/events")
    page.wait_for_selector("text=Autumn Samboree")
    check("events")
    page.goto(server.base + f"/events/{key}")
    page.wait_for_selector("#pub-name:has-text('Autumn Samboree')")
    check("event")
    page.goto(server.base + f"/events/{key}/organiser")
    page.wait_for_selector("#org-name:has-text('Autumn Samboree')")
    page.wait_for_selector("#org-chat")
    check("organiser")
    # a person's page (this browser sat at a table as Ann), a stranger's, the leaderboard
    page.goto(server.base + "/me")
    page.wait_for_selector("#me-board")
    check("me")
    context.clear_cookies()
    page.goto(server.base + "/me")
    page.wait_for_selector("#new-me")
    check("me, a stranger")
    page.goto(server.base + "/leaderboard")
    page.wait_for_selector("#board h3")
    check("leaderboard")
    assert {k: v for k, v in problems.items() if v} == {}
    # the check finds what it should: a button nobody can name
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<button></button>')")
    assert any("button-name" in p for p in serious_violations(page))
    context.close()


def test_the_replay_draws_the_board_and_tells_each_move(browser: Browser,
                                                        server: ServerProcess) -> None:
    tid = finished_game(server, seed=5)
    page = browser.new_page(viewport=PHONE)
    page.goto(server.base + f"/?replay={tid}")
    page.wait_for_selector("#replay-step:has-text('step 0 of')")
    total = int(page.inner_text("#replay-step").split(" of ")[1])
    assert page.inner_text("#replay-said") == "The cards are dealt."
    assert page.locator(".replay-player").count() == 4
    assert page.locator(".replay-hand").first.locator(".card").count() == 11
    page.click("#replay-next")
    page.wait_for_selector("#replay-step:has-text('step 1 of')")
    said = page.inner_text("#replay-said")
    assert said.startswith("1. Computer ") and "drew" in said, said
    # autoplay steps on by itself, and pauses
    page.select_option("#replay-speed", "500")
    page.click("#replay-play")
    page.wait_for_selector("#replay-step:has-text('step 3 of')")
    page.click("#replay-play")
    page.wait_for_selector("#replay-play[aria-pressed='false']")
    paused = page.inner_text("#replay-step")
    page.wait_for_timeout(1200)
    assert page.inner_text("#replay-step") == paused
    assert page.locator("#replay-moves li").count() >= 2  # the moves before, in words
    # the end: the melds as the table shows them, numbered from 1, and no raw data
    page.click("#replay-last")
    page.wait_for_selector(f"#replay-step:has-text('step {total} of {total}')")
    numbers = page.eval_on_selector_all("#replay-melds .meld > b",
                                        "els => els.map(e => e.textContent)")
    assert numbers and numbers[0] == "1." and "0." not in numbers
    body = page.inner_text("#replay")
    assert "{" not in body and '"type"' not in body and "Game over" in body
    shoot(page, "replay-end")
    page.click("#replay-prev")
    page.wait_for_selector(f"#replay-step:has-text('step {total - 1} of')")
    page.click("#replay-first")
    page.wait_for_selector("#replay-step:has-text('step 0 of')")
    shoot(page, "replay-start")
    no_wider_than_the_screen(page)
    page.close()
