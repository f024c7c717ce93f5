"""The server behind Caddy, run for real with deploy/Caddyfile (``tls internal`` on a
port of its own, the name cards.test mapped to this machine in Chromium): the pages and
the WebSockets over HTTPS, invite links with the public address, a reload in the middle
of a turn, the organiser's cookie Secure, requests from another site refused, and the
client's address taken from the proxy's header (a header the client sends cannot
dodge the limits). Skipped where Caddy is not installed (CI installs it: .ci/run)."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import socket
import ssl
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from handfoot.cli import main
from handfoot.server.club.service import event_key
from handfoot.server.testing import ServerProcess, free_port
from pages import state
from web.conftest import ARGS, CHROMIUM
from web.test_server_browser import play_one, wait_my_turn

with contextlib.suppress(ImportError):  # (the tests are skipped then: see conftest.py)
    from playwright.sync_api import Page, sync_playwright

CADDYFILE = Path(__file__).resolve().parents[2] / "deploy" / "Caddyfile"
CADDY = shutil.which("caddy")
NAME = "cards.test"

pytestmark = pytest.mark.skipif(
    CADDY is None and not os.environ.get("HANDFOOT_REQUIRE_CADDY"),
    reason="Caddy is not installed (apt-get install caddy)")


class Proxy:
    """Caddy with deploy/Caddyfile in front of the server on ``upstream``."""

    def __init__(self, upstream: int, port: int, folder: Path) -> None:
        self.port = port
        self.folder = folder
        env = {**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"),
               "XDG_CONFIG_HOME": str(folder / "config"),
               "HANDFOOT_SITE": f"https://{NAME}:{self.port}",
               "HANDFOOT_TLS": "tls internal",
               "HANDFOOT_UPSTREAM": f"127.0.0.1:{upstream}",
               "HANDFOOT_CADDY_OPTIONS": "admin off\nskip_install_trust\n"
                                         "auto_https disable_redirects"}
        self.log = open(folder / "caddy.log", "wb")  # noqa: SIM115 (closed in stop)
        assert CADDY is not None
        self.proc = subprocess.Popen([CADDY, "run", "--config", str(CADDYFILE), "--adapter",
                                      "caddyfile"], env=env, stdout=self.log,
                                     stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            try:
                if self.request("GET", "/api/rule-sets")[0] == 200:
                    break
            except OSError:
                pass
            assert self.proc.poll() is None, (folder / "caddy.log").read_text()
            assert time.monotonic() < deadline, "Caddy did not start"
            time.sleep(0.2)

    @property
    def base(self) -> str:
        return f"https://{NAME}:{self.port}"

    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], Any]:
        """Through Caddy, with the name cards.test (its certificate is Caddy's own: not
        checked)."""
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        raw = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        conn = http.client.HTTPSConnection(NAME, self.port, context=context, timeout=10)
        conn.sock = context.wrap_socket(raw, server_hostname=NAME)
        data = None if body is None else json.dumps(body).encode()
        conn.request(method, path, body=data, headers={
            "Host": f"{NAME}:{self.port}", "Content-Type": "application/json",
            **(headers or {})})
        resp = conn.getresponse()
        text = resp.read()
        conn.close()
        try:
            out = json.loads(text)
        except ValueError:
            out = text
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, out

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)
        self.log.close()


@pytest.fixture
def proxied(sqlite_url: str, tmp_path: Path) -> Iterator[tuple[ServerProcess, Proxy]]:
    assert main(["event", "create", "Club Night", "--variant", "classic", "--rounds", "1",
                 "--password", "pw1234", "--db", sqlite_url]) == 0
    public = free_port()  # Caddy's port: the public address is known before it starts
    with ServerProcess(sqlite_url, bot_delay=0.0, args=(
            "--public-url", f"https://{NAME}:{public}", "--address-header", "X-Forwarded-For",
            "--limit-tables", "4")) as server:
        proxy = Proxy(server.port, public, tmp_path)
        try:
            yield server, proxy
        finally:
            proxy.stop()


def wait_state(page: Page, pred: Any, timeout: float = 30) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        st = state(page)
        if st is not None and pred(st):
            return st
        assert time.monotonic() < deadline, "no such state"
        page.wait_for_timeout(50)


def test_play_through_caddy_over_https(proxied: tuple[ServerProcess, Proxy]) -> None:
    server, proxy = proxied
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            *ARGS, f"--host-resolver-rules=MAP {NAME} 127.0.0.1"])
        try:
            host = browser.new_context(ignore_https_errors=True)
            lobby = host.new_page()
            lobby.goto(proxy.base + "/")
            lobby.wait_for_selector("#new-rules option", state="attached")
            lobby.select_option("#new-rules", "classic")
            lobby.select_option(".seat-kind[data-seat='2']", "human")
            lobby.click("#create-table")  # a POST from the page: its origin is the server's
            lobby.wait_for_selector(".invite .invite-url")
            urls = lobby.eval_on_selector_all(".hosted .invite-url",
                                              "els => els.map(e => e.value)")
            assert len(urls) == 2
            assert all(u.startswith(f"{proxy.base}/table/") for u in urls), urls
            # the links are the public address: no "friends cannot open these links"
            assert lobby.locator(".local-note").count() == 0
            # the page opened at the server's own address on this machine: the links are
            # still the public address, and the note does not show
            local = host.new_page()
            local.goto(server.base + "/")
            local.wait_for_selector("#new-rules option", state="attached")
            local.select_option("#new-rules", "classic")
            local.select_option(".seat-kind[data-seat='2']", "human")
            local.click("#create-table")
            local.wait_for_selector(".invite .invite-url")
            assert local.eval_on_selector_all(
                ".hosted .invite-url", "els => els.map(e => e.value)")[0].startswith(proxy.base)
            assert local.locator(".local-note").count() == 0
            local.close()
            # each invite link opened in its own browser: the game through the proxy's
            # WebSockets
            people = [browser.new_context(ignore_https_errors=True).new_page() for _ in urls]
            for page, url in zip(people, urls, strict=True):
                page.goto(url)
            for page in people:
                page.wait_for_selector("#hand .card")
                assert page.evaluate("location.protocol") == "https:"
            reloaded = False
            for _ in range(80):
                sts = [state(page) for page in people]
                actor = sts[0]["view"]["actor"]
                seats = [st["seat"] for st in sts]
                if actor not in seats:
                    people[0].wait_for_timeout(30)
                    continue
                page = people[seats.index(actor)]
                st = wait_my_turn(page)
                if not reloaded and st["view"]["phase"] == "play":
                    page.reload()  # mid-turn: the same seat and the same state again
                    page.wait_for_selector("#hand .card")
                    again = wait_my_turn(page)
                    assert again["seq"] == st["seq"] and again["view"] == st["view"]
                    reloaded = True
                    st = again
                play_one(page, st)
                wait_state(page, lambda s, st=st: s["seq"] > st["seq"])
                if reloaded and st["seq"] > 20:
                    break
            assert reloaded
            # the organiser's session cookie is Secure (the public address is https)
            key = event_key("Club Night")
            out = lobby.evaluate("""async (key) => (await fetch(`/api/events/${key}/login`,
                {method: 'POST', headers: {'Content-Type': 'application/json'},
                 body: JSON.stringify({password: 'pw1234'})})).status""", key)
            assert out == 200
            cookies = [c for c in host.cookies() if c["name"] == f"hf_org_{key}"]
            assert len(cookies) == 1 and cookies[0]["secure"] and cookies[0]["httpOnly"]
        finally:
            browser.close()
    # /metrics is for a monitor on the machine, not through the proxy
    assert proxy.request("GET", "/metrics")[0] == 404
    with urllib.request.urlopen(server.base + "/metrics", timeout=5) as r:
        assert b"handfoot_websocket_connections_opened_total" in r.read()
    # another site's page is refused, through the proxy as at the server
    status, _, body = proxy.request("POST", "/api/play", {"rules": "classic"},
                                    {"Origin": "https://evil.example"})
    assert status == 403 and "another site" in body["error"]
    # the limits count the address Caddy saw: a header the client sends cannot dodge them
    # (4 tables an hour; the lobbies made two)
    answers = [proxy.request("POST", "/api/play", {"rules": "classic", "level": "random"},
                             {"X-Forwarded-For": f"10.0.0.{i}"})[0] for i in range(3)]
    assert answers[:2] == [200, 200] and answers[2] == 429, answers
    assert server.proc is not None and server.proc.poll() is None
