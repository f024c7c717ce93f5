"""In Chromium (issue 13): a page on another port of the same host cannot change anything
with the organiser's cookie, a finished game's page says its deal was verified, and the
lobby shows its tables a page at a time."""

from __future__ import annotations

import http.server
import json
import re
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from club_pages import Http, create_event
from handfoot.server.testing import ServerProcess, free_port

if TYPE_CHECKING:
    from playwright.sync_api import Browser

ATTACK = """<!DOCTYPE html><html><body><form id="f" method="POST" action="%(target)s"
enctype="text/plain"><input name='{"add": {"name": "Form Mallory", "x": "' value='"}}'>
</form><script>
(async () => {
  const body = JSON.stringify({add: {name: "Mallory"}});
  const tries = [
    {mode: "no-cors", headers: {"Content-Type": "text/plain; a=json"}},
    {mode: "no-cors", headers: {"Content-Type": "text/plain"}},
    {mode: "cors", headers: {"Content-Type": "application/json"}},
  ];
  for (const t of tries) {
    try { await fetch("%(target)s", {method: "POST", credentials: "include", body, ...t}); }
    catch (e) { /* refused by the browser */ }
  }
  document.title = "sent";
})();
</script></body></html>"""


@pytest.fixture
def evil_site() -> Iterator[tuple[int, dict[str, str]]]:
    """A web server on another port of the same host, serving the page it is given."""
    pages: dict[str, str] = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = pages.get(self.path, "").encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    port = free_port()
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield port, pages
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_page_on_another_port_cannot_act_with_the_organisers_cookie(
        browser: Browser, server: ServerProcess,
        evil_site: tuple[int, dict[str, str]]) -> None:
    port, pages = evil_site
    http = Http(server)
    key = create_event(http, players=0)
    name, value = http.cookie.split("=", 1)
    target = f"{server.base}/api/events/{key}/players"
    pages["/"] = ATTACK % {"target": target}
    context = browser.new_context()
    try:
        # the organiser is logged in in this browser (the cookie of the server's host)
        context.add_cookies([{"name": name, "value": value, "url": server.base,
                              "httpOnly": True, "sameSite": "Strict"}])
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_function("document.title === 'sent'", timeout=20_000)
        page.evaluate("document.getElementById('f').submit()")
        page.wait_for_load_state()
        time.sleep(0.5)
        # nothing was added
        assert http.get(f"/api/events/{key}/manage")["players"] == []
        # while the organiser's own page, in the same browser, still can
        own = context.new_page()
        own.goto(f"{server.base}/events/{key}/organiser")
        got = own.evaluate("""async (target) => {
            const r = await fetch(target, {method: "POST", credentials: "include",
              headers: {"Content-Type": "application/json"},
              body: JSON.stringify({add: {name: "Ann"}})});
            return [r.status, await r.text()];
        }""", target)
        assert got[0] == 200, got
        names = [p["name"] for p in http.get(f"/api/events/{key}/manage")["players"]]
        assert names == ["Ann"]
    finally:
        context.close()


def test_a_finished_games_page_says_the_deal_was_verified(
        browser: Browser, server: ServerProcess) -> None:
    out = server.post("/api/tables", {"rules": "texas-good-sam", "seats": [
        {"kind": "bot", "level": "easy"}] * 4})
    tid = out["id"]
    deadline = time.monotonic() + 180
    while not server.get(f"/api/tables/{tid}")["over"]:
        assert time.monotonic() < deadline, "the computers did not finish"
        time.sleep(0.5)
    page = browser.new_page()
    try:
        page.goto(f"{server.base}/table/{tid}")
        page.wait_for_selector("#end-of-hand .fair:has-text('deal verified')", timeout=20_000)
        text = page.inner_text("#end-of-hand")
        assert "Game over" in text and "deal verified (1 hand)" in text, text
        # the seal of the deal, shown at the table (opened by the record)
        seal = server.get(f"/api/tables/{tid}/record")["commitments"][0]["sha256"]
        assert seal in page.inner_text("#seal")
        page.goto(f"{server.base}/?replay={tid}")
        page.wait_for_selector("#replay .fair:has-text('deal verified')", timeout=20_000)
    finally:
        page.close()
    assert json.dumps(server.get(f"/api/tables/{tid}")["fair"]).count("true") == 1


def test_the_lobby_shows_its_tables_a_page_at_a_time(browser: Browser,
                                                     sqlite_url: str) -> None:
    with ServerProcess(sqlite_url, args=("--limit-tables", "0")) as lobby:
        for i in range(55):
            lobby.post("/api/tables", {"rules": "classic", "seed": i,
                                        "seats": [{"kind": "human"}] * 4})
        page = browser.new_page()
        try:
            page.goto(lobby.base + "/")
            page.wait_for_selector("#lobby-next")
            assert "Page 1 of 2 (55 tables)" in page.inner_text(".pages")
            assert page.inner_text("#table-list").count("classic") == 50
            page.click("#lobby-next")
            page.wait_for_selector("#lobby-prev")
            assert "Page 2 of 2" in page.inner_text(".pages")
            assert page.inner_text("#table-list").count("classic") == 5
        finally:
            page.close()


def test_a_seeded_table_says_so_before_play_and_a_fair_one_shows_its_whole_seal(
        browser: Browser, server: ServerProcess) -> None:
    from pages import SHOTS
    seats = [{"kind": "human"}, {"kind": "bot", "level": "easy"}] * 2
    for seed, name in ((7, "seeded"), (None, "sealed")):
        out = server.post("/api/tables", {"rules": "texas-good-sam", "seats": seats,
                                          **({"seed": seed} if seed else {})})
        for width, height in ((390, 844), (1280, 800)):
            page = browser.new_page(viewport={"width": width, "height": height})
            try:
                page.goto(out["invites"][1]["url"])  # the other person's seat
                if width < 600:  # (on a phone the seal is with the moves, a tap away)
                    page.click('#views button[data-view="moves"]')
                page.wait_for_selector("#seal:not(:empty)", timeout=20_000)
                text = page.inner_text("#seal")
                if seed:
                    assert "chosen when it was set up" in text and "not a fair deal" in text
                    assert "sealed" not in text
                    assert page.locator("#info .seeded").is_visible()  # at the top too
                else:
                    assert re.search(r"SHA-256 [0-9a-f]{64} ", text), text
                    assert page.locator("#info .seeded").count() == 0
                page.locator("#seal").scroll_into_view_if_needed()
                page.screenshot(path=str(SHOTS / f"handfoot-seal-{name}-{width}.png"))
            finally:
                page.close()


def test_the_page_checks_the_deal_itself_from_the_record(
        browser: Browser, server: ServerProcess) -> None:
    """The finished game's page hashes the record's deals in the browser: a record
    altered on its way (the server still says verified) is caught by the page."""
    out = server.post("/api/tables", {"rules": "texas-good-sam", "seats": [
        {"kind": "bot", "level": "easy"}] * 4})
    tid = out["id"]
    deadline = time.monotonic() + 180
    while not server.get(f"/api/tables/{tid}")["over"]:
        assert time.monotonic() < deadline, "the computers did not finish"
        time.sleep(0.5)
    from pages import SHOTS
    record = server.get(f"/api/tables/{tid}/record")
    assert server.get(f"/api/tables/{tid}")["fair"]["verified"]
    for width, height in ((390, 844), (1280, 800)):
        for altered in (False, True):
            page = browser.new_page(viewport={"width": width, "height": height})
            try:
                rec = json.loads(json.dumps(record))
                if altered:  # one grab count changed: the commitment no longer matches
                    rec["hands"][0]["deal"]["grabs"][1] += 1
                body = json.dumps(rec)
                page.route(f"**/api/tables/{tid}/record", lambda route, _req, b=body:
                           route.fulfill(status=200, content_type="application/json", body=b))
                page.goto(f"{server.base}/table/{tid}")
                page.wait_for_selector("#end-of-hand .fair:not(:empty)", timeout=20_000)
                text = page.inner_text("#end-of-hand .fair")
                if altered:
                    assert "deal NOT verified: hand 1: the deal is not the one committed" \
                        in text, text
                else:
                    assert "deal verified (1 hand) by this browser" in text, text
                    page.locator("#end-of-hand .fair").scroll_into_view_if_needed()
                    page.screenshot(path=str(SHOTS / f"handfoot-fair-browser-{width}.png"))
            finally:
                page.close()


def test_the_hosts_page_shows_no_link_for_a_seat_in_use(
        browser: Browser, server: ServerProcess) -> None:
    from pages import SHOTS
    made = server.post("/api/tables", {"rules": "classic", "wait": True, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"},
        {"kind": "human", "name": "Bob"}, {"kind": "bot", "level": "easy"}]})
    ann = server.client(made["id"], made["invites"][0]["token"])
    ann.state()
    try:
        for width, height in ((390, 844), (1280, 800)):
            page = browser.new_page(viewport={"width": width, "height": height})
            try:
                page.goto(server.base + "/")
                page.evaluate("([id, c]) => { localStorage.setItem('hf-creator-' + id, c); "
                              "localStorage.setItem('hf-hosted', JSON.stringify([id])); }",
                              [made["id"], made["creator"]])
                page.goto(server.base + "/")
                page.wait_for_selector(".invite .in-use", timeout=20_000)
                seat_1 = page.locator(".invite[data-seat='0']")
                assert "Only the person at this seat has its link" in seat_1.inner_text()
                assert seat_1.locator(".invite-url").count() == 0
                assert made["invites"][0]["token"] not in page.content()
                assert page.locator(".invite[data-seat='2'] .invite-url").count() == 1
                seat_1.scroll_into_view_if_needed()
                page.screenshot(path=str(SHOTS / f"handfoot-invites-in-use-{width}.png"))
            finally:
                page.close()
    finally:
        ann.close()
