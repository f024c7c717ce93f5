"""Club events through the server's web API, as an organiser's browser uses it: a client
that keeps the organiser's session, an event made with players, and paper results."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

from handfoot.server.club.service import cookie_name
from handfoot.server.testing import ServerProcess

PASSWORD = "game monitor"


def players_csv(n: int) -> str:
    lines = ["name,chapter,not_partner_with"]
    for i in range(n):
        spouse = f"Player {i + 1:02d}" if i % 4 == 0 else ""
        lines.append(f"Player {i:02d},Chapter {'ABCD'[i % 4]},{spouse}")
    return "\n".join(lines) + "\n"


class Http:
    """HTTP with the organiser's cookie, when there is one."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.cookie = ""

    def request(self, method: str, path: str, body: Any = None,
                content_type: str = "application/json") -> tuple[int, Any, str]:
        data = None if body is None else (
            body if isinstance(body, bytes) else json.dumps(body).encode())
        headers = {"Content-Type": content_type}
        if self.cookie:
            headers["Cookie"] = self.cookie
        req = urllib.request.Request(self.server.base + path, data=data, method=method,
                                     headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                raw, status, head = r.read(), r.status, r.headers
        except urllib.error.HTTPError as e:
            raw, status, head = e.read(), e.code, e.headers
        for value in head.get_all("set-cookie") or []:
            pair = value.split(";")[0]
            if pair.startswith("hf_org_"):
                self.cookie = pair if pair.split("=", 1)[1] else ""
        text = raw.decode()
        kind = head.get("content-type", "")
        return status, json.loads(text) if "json" in kind else None, text

    def get(self, path: str) -> Any:
        status, data, text = self.request("GET", path)
        assert status == 200, (status, text)
        return data

    def post(self, path: str, body: Any) -> Any:
        status, data, text = self.request("POST", path, body)
        assert status == 200, (status, text)
        return data


def create_event(http: Http, name: str = "Spring Samboree", rules: str = "texas-good-sam",
                 players: int = 8, **extra: Any) -> str:
    made = http.post("/api/events", {"name": name, "rules": rules, "rounds": 3,
                                     "password": PASSWORD, **extra})
    key = str(made["key"])
    assert http.cookie.startswith(cookie_name(key) + "=")
    if players:
        http.post(f"/api/events/{key}/players", {"csv": players_csv(players)})
    return key


def wait_for(pred: Any, timeout: float = 60.0, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        got = pred()
        if got:
            return got
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def form_hand(went_out: int | None, melds: list[str], held: list[str]) -> dict[str, Any]:
    return {"went_out": went_out, "teams": [
        {"melds": melds[0], "exact_deals": 1, "penalties": 0,
         "players": [{"hand": "", "foot": ""}, {"hand": held[0], "foot": ""}]},
        {"melds": melds[1], "short_openings": 1, "penalties": 20,
         "players": [{"hand": held[1], "foot": "5C 6C"}, {"hand": "", "foot": ""}]}]}


def paper_round(org: Http, name: str) -> tuple[str, list[dict[str, Any]]]:
    """An alabama-samboree event of 8 with round 1 drawn, and two hands' sheets for a
    table: the event's API address and the hands."""
    key = create_event(org, name, "alabama-samboree", players=8)
    base = f"/api/events/{key}"
    org.post(base + "/draw", {"round": 1, "seed": 3})
    return base, [
        form_hand(None, ["KH KD KS KC KH KD KS\nAH AD AC", "QH QD QS"], ["8H 4C", "9S"]),
        form_hand(None, ["7H 7D 7S 7C 2C 7H 7D", "JH JD JS JC JH JD JS\n5H 5D 5S"], ["", "KS"])]


def tied_event(org: Http, name: str, tie_break: str) -> str:
    """8 players, one round of two tables with the same sheets: team 1 of each table
    ties for first place (and its four players among the players)."""
    rules = "texas-good-sam"
    if tie_break != "none":
        rules = f"Texas, tie by {tie_break}"
        org.post("/api/rule-sets/check", {"base": "texas-good-sam", "name": rules,
                                          "toml": f'[game]\ntie_break = "{tie_break}"\n'})
    key = create_event(org, name, rules, players=8, rounds=1)
    base = f"/api/events/{key}"
    org.post(base + "/draw", {"round": 1, "seed": 5})
    hand = form_hand(None, ["KH KD KS KC KH KD KS\nAH AD AC", "QH QD QS"], ["8H 4C", "9S"])
    org.post(base + "/paper", {"round": 1, "table": 1, "hands": [hand], "save": True})
    return key
