"""The server, tested through its real HTTP API and WebSocket protocol: a real server
process on 127.0.0.1, real sockets, and the database behind it."""

from __future__ import annotations

import contextlib
import json
import random
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from handfoot.actions import action_from_json
from handfoot.arena import seat_bots
from handfoot.cards import NUM_CARDS, card_code, parse_card
from handfoot.game import Game
from handfoot.game.records import replay
from handfoot.game.views import public_view, seat_view
from handfoot.rules import PRESET_NAMES, Rules, preset
from handfoot.server.eventloop import event_loop
from handfoot.server.offloop.work import list_legal, people_moves
from handfoot.server.testing import Client, ServerProcess
from server_helpers import play_one_move

CARD = re.compile(r"^(10|[2-9JQKA])[CDHS]$|^JK$")


@pytest.fixture
def server(sqlite_url: str) -> Iterator[ServerProcess]:
    with ServerProcess(sqlite_url, bot_delay=0.0) as s:
        yield s


def four_people(server: ServerProcess, rules: str = "texas-good-sam",
                seed: int = 5) -> tuple[str, list[str]]:
    out = server.post("/api/tables", {"rules": rules, "seed": seed,
                                      "seats": [{"kind": "human"}] * 4})
    return out["id"], [i["token"] for i in sorted(out["invites"], key=lambda i: i["seat"])]


# ---------------------------------------------------------------------- the API
def test_rule_sets_house_rules_and_tables(server: ServerProcess) -> None:
    data = server.get("/api/rule-sets")
    names = [r["name"] for r in data["rule_sets"]]
    assert names[:5] == ["texas-good-sam", "alabama-samboree", "classic", "samba", "six-deck"]
    assert "random" in data["all_levels"] and data["levels"]
    assert data["default_level"] == "medium" and "medium" in data["levels"]
    assert "[scores]" in server.get("/api/rules/six-deck")["toml"]
    # the changes from the preset, checked by the engine's own validation
    checked = server.post("/api/rule-sets/check",
                          {"base": "six-deck", "toml": "[scores]\ngoing_out = 500\n"})
    assert checked["changes"] == [{"setting": "scores.going_out", "from": 100, "to": 500}] \
        or [c["setting"] for c in checked["changes"]] == ["scores.going_out"]
    status, err = server.request("POST", "/api/rule-sets/check",
                                 {"base": "six-deck", "toml": "[scores]\nnonsense = 1\n"})
    assert status == 400 and "nonsense" in err["error"]
    status, err = server.request("POST", "/api/rule-sets/check", {"base": "six-deck",
                                                                  "toml": "[x"})
    assert status == 400 and "TOML" in err["error"]
    # saved under a name, a table can be set up with it
    server.post("/api/rule-sets/check", {"base": "six-deck", "name": "Tuesday club",
                                         "toml": "[scores]\ngoing_out = 500\n"})
    assert "Tuesday club" in [r["name"] for r in server.get("/api/rule-sets")["rule_sets"]]
    table = server.post("/api/tables", {"rules": "Tuesday club", "seats": [
        {"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "human"},
        {"kind": "bot"}]})
    assert [i["seat"] for i in table["invites"]] == [0, 2]
    assert all(f"/table/{table['id']}?token=" in i["url"] for i in table["invites"])
    listed = {t["id"]: t for t in server.get("/api/tables")["tables"]}
    assert listed[table["id"]]["rules"] == "Tuesday club"
    assert not listed[table["id"]]["over"]
    # refused set-ups
    for body in ({"rules": "nope", "seats": []},
                 {"rules": "classic", "seats": [{"kind": "human"}]},
                 {"rules": "classic", "seats": [{"kind": "alien"}] * 4},
                 {"rules": "classic", "seats": [{"kind": "bot", "level": "genius"}] * 4}):
        status, err = server.request("POST", "/api/tables", body)
        assert status in (400, 404) and err["error"]
    status, err = server.request("POST", "/api/tables", b"{not json")
    assert status == 400
    status, _ = server.request("POST", "/api/tables", b"x" * 300_000)
    assert status == 413
    # a record only once the game is over; no table, no record
    status, _ = server.request("GET", f"/api/tables/{table['id']}/record")
    assert status == 403
    status, _ = server.request("GET", "/api/tables/nope/record")
    assert status == 404


def test_play_against_the_computer_starts_at_once(server: ServerProcess) -> None:
    out = server.post("/api/play", {"rules": "texas-good-sam", "level": "random", "seed": 3})
    c = server.client(out["id"], out["token"])
    try:
        state = c.wait(lambda m: m["type"] == "state" and m["view"]["actor"] == 0)
        assert state["seat"] == 0 and len(state["view"]["hand"]) > 0
        assert [s["computer"] for s in state["seats"]] == [False, True, True, True]
        assert state["legal"]
        def mine(m: dict[str, Any]) -> bool:
            return bool(m["type"] == "state" and m["view"]["actor"] == 0)

        if state["view"]["phase"] == "choose":
            n = c.count()
            c.act({"type": "choose-hand", "stack": 0})
            state = c.wait_new(n, lambda m: mine(m) and m["view"]["phase"] == "draw")
        n = c.count()
        c.act({"type": "draw"})
        state = c.wait_new(n, lambda m: mine(m) and m["view"]["phase"] == "play")
        # what a selection is worth against the opening minimum, and the engine's word
        hand = state["view"]["hand"]
        n = c.count()
        c.send({"type": "preview", "action": {"type": "lay-down", "melds": [hand[:3]]}})
        p = c.wait_new(n, lambda m: m["type"] == "preview")
        rules = preset("texas-good-sam")
        assert p["minimum"] == 120
        assert p["value"] == sum(rules.card_value[parse_card(x)] for x in hand[:3])
        assert p["ok"] or p["message"]
        assert c.state()["seq"] == state["seq"]  # a preview changes nothing
    finally:
        c.close()


# ----------------------------------------------------------- the WebSocket protocol
def test_bad_input_gets_a_clear_error_for_that_client_only(server: ServerProcess) -> None:
    tid, tokens = four_people(server)
    clients = [server.client(tid, t) for t in tokens]
    watcher = server.client(tid)
    try:
        first = clients[0].state()
        seq = first["seq"]
        actor = first["view"]["actor"]
        other = (actor + 1) % 4
        c = clients[actor]
        cases: list[tuple[Any, str]] = [
            ("not json", "not JSON"),
            ("[1, 2]", "object"),
            ({"type": "dance"}, "Unknown message"),
            ({"type": "action"}, "action"),
            ({"type": "action", "action": {"type": "discard", "card": "ZZ"}}, ""),
            ({"type": "action", "action": {"type": "lay-down", "melds": [["QH"] * 500]}}, ""),
            ({"type": "action", "action": {"type": "discard", "card": "QH"}}, ""),
            ("x" * 70_000, "too large"),
        ]
        for msg, words in cases:
            n = c.count()
            c.send(msg)
            err = c.wait_new(n, lambda m: m["type"] == "error")
            assert words in err["message"], (msg, err)
        # out of turn: the engine's message, to that seat only
        n = clients[other].count()
        clients[other].act({"type": "choose-hand", "stack": 0}
                           if first["view"]["phase"] == "choose" else {"type": "draw"})
        err = clients[other].wait_new(n, lambda m: m["type"] == "error")
        assert "turn" in err["message"] or "not" in err["message"]
        # a spectator cannot act
        n = watcher.count()
        watcher.act({"type": "draw"})
        assert "Spectators" in watcher.wait_new(n, lambda m: m["type"] == "error")["message"]
        time.sleep(0.3)
        for cl in [*clients, watcher]:  # nothing changed; nobody else heard of it
            states = [m for m in cl.messages if m["type"] == "state"]
            assert states[-1]["seq"] == seq
        assert server.get(f"/api/tables/{tid}")["seq"] == seq
    finally:
        for cl in [*clients, watcher]:
            cl.close()


def test_a_wrong_token_or_table_is_refused(server: ServerProcess) -> None:
    tid, _ = four_people(server)
    c = server.client(tid, "not-a-token")
    err = c.wait(lambda m: m["type"] == "error")
    assert "invite link is not valid" in err["message"]
    c.thread.join(5)
    assert c.closed
    c2 = server.client("nope", None)
    assert "no such table" in c2.wait(lambda m: m["type"] == "error")["message"]
    c2.thread.join(5)
    # a message larger than the server reads at all closes that connection only
    big = server.client(tid, None)
    other = server.client(tid, None)
    big.state()
    with contextlib.suppress(Exception):
        big.send("x" * (2 << 20))
    big.thread.join(10)
    assert big.closed
    n = other.count()
    other.send({"type": "ping"})
    assert other.wait_new(n, lambda m: m["type"] == "pong")
    other.close()


# ---------------------------------------------------------------- whole games
def cards_in(x: Any) -> list[str]:
    if isinstance(x, str):
        return [x] if CARD.match(x) else []
    if isinstance(x, dict):
        return [c for v in x.values() for c in cards_in(v)]
    if isinstance(x, list):
        return [c for v in x for c in cards_in(v)]
    return []


def play_to_the_end(clients: dict[int, Client], rng: random.Random,
                    limit: int = 5000) -> int:
    """Each person's client plays a random legal action when it is to act; computer
    players (the seats without a client) play on the server."""
    first = next(iter(clients.values()))
    seq = 0
    for _ in range(limit):
        seq = int(first.state(seq)["seq"])
        states = {s: c.state(seq) for s, c in clients.items()}
        if any(st["seq"] != seq for st in states.values()):
            continue  # the computers moved on meanwhile
        view = states[next(iter(states))]["view"]
        if view["game_over"]:
            return seq
        actor = view["actor"]
        if actor not in clients:
            first.state(seq + 1)
            continue
        st = states[actor]
        if st["waiting"]:  # between hands: no move until each person pressed Next hand
            assert st["legal"] == [], st
            clients[actor].resumed(seq)
            continue
        assert st["legal"], st
        clients[actor].act(rng.choice(st["legal"]))
        seq += 1
    raise AssertionError("the game did not end")


def check_no_hidden_card(record: dict[str, Any], received: list[list[dict[str, Any]]]) -> int:
    """Replay the game; every state a seat received must be that seat's view of the state
    at that moment: its own hand, and otherwise only what a spectator sees."""
    rules = Rules.from_dict(record["rules"])
    actions = [(a["seat"], action_from_json(a)) for h in record["hands"] for a in h["actions"]]
    by_seq: dict[int, list[tuple[int | None, dict[str, Any]]]] = {}
    for msgs in received:
        for m in msgs:
            if m["type"] == "state":
                by_seq.setdefault(m["seq"], []).append((m["seat"], m))
            else:
                assert not cards_in(m) or m["type"] == "preview", m
    game = Game(rules, record["seed"])
    checked = 0
    for seq in range(len(actions) + 1):
        for who, m in by_seq.get(seq, []):
            # the pushes leave the hand's actions out (the move log tells them)
            truth = public_view(game).to_json(history=False) if who is None else \
                seat_view(game, who).to_json(history=False)
            assert m["view"] == json.loads(json.dumps(truth)), (seq, who)
            pub = json.loads(json.dumps(public_view(game).to_json(history=False)))
            mine = dict(m["view"], hand=[], seat=None)
            assert mine == pub  # beyond its own hand, a seat sees what a spectator sees
            own = sorted(m["view"]["hand"])
            for a in m["legal"]:  # legal actions use only its own cards
                for c in cards_in(a):
                    assert c in own, (a, own)
            assert not m["legal"] or m["view"]["actor"] == who
            checked += 1
        if seq < len(actions):
            actor, action = actions[seq]
            game.apply(action, actor)
    return checked


def test_four_people_play_a_whole_game_and_no_seat_sees_a_hidden_card(
        server: ServerProcess) -> None:
    tid, tokens = four_people(server, "texas-good-sam", seed=11)
    clients = [server.client(tid, t) for t in tokens]
    watcher = server.client(tid)
    try:
        play_to_the_end(dict(enumerate(clients)), random.Random(1))
        watcher.wait(lambda m: m["type"] == "state" and m["view"]["game_over"])
        status, record = server.request("GET", f"/api/tables/{tid}/record")
        assert status == 200 and record["result"]["complete"]
        assert replay(record).ok
        listed = {t["id"]: t for t in server.get("/api/tables")["tables"]}
        assert listed[tid]["over"] and listed[tid]["winners"] == record["result"]["winners"]
        received = [c.messages for c in clients] + [watcher.messages]
        for seat, msgs in enumerate(received[:4]):
            assert {m["seat"] for m in msgs if m["type"] == "state"} == {seat}
        assert check_no_hidden_card(record, received) > 4 * 100
        last = clients[0].messages[-1]
        assert last["last_hand"]["teams"][0]["lines"]
        # a finished game, step by step
        step = server.get(f"/api/tables/{tid}/replay?step=3")
        assert step["step"] == 3 and step["total"] == len(
            [a for h in record["hands"] for a in h["actions"]])
        assert len(step["views"]) == 4
    finally:
        for c in [*clients, watcher]:
            c.close()


def test_a_seat_handed_to_the_computer_and_back(server: ServerProcess) -> None:
    out = server.post("/api/play", {"rules": "texas-good-sam", "seed": 4})
    # no level asked for: the computer players are medium
    seats = server.get(f"/api/tables/{out['id']}")["seats"]
    assert [s.get("level") for s in seats[1:]] == ["medium"] * 3
    c = server.client(out["id"], out["token"])
    try:
        c.wait(lambda m: m["type"] == "state" and m["view"]["actor"] == 0)
        c.send({"type": "computer", "on": True})
        c.wait(lambda m: m["type"] == "state" and m["seats"][0]["computer"])
        later = c.state(c.state()["seq"] + 8)  # the computer plays for me
        assert later["seats"][0]["computer"]
        n = c.count()
        c.act({"type": "draw"})
        c.wait_new(n, lambda m: (m["type"] == "error" and "computer" in m["message"])
                   or m["type"] == "state")
        c.send({"type": "computer", "on": False})
        st = c.wait(lambda m: m["type"] == "state" and not m["seats"][0]["computer"]
                    and m["seq"] >= later["seq"])
        assert not st["seats"][0]["computer"]
    finally:
        c.close()


# ------------------------------------------------------------------ restarts
def test_a_game_continues_after_kill_9_and_a_refresh_returns_the_seat(
        db_url: str) -> None:
    rng = random.Random(2)
    s = ServerProcess(db_url, bot_delay=0.0).start()
    port = s.port
    try:
        tid, tokens = four_people(s, "six-deck", seed=9)
        clients = [s.client(tid, t) for t in tokens]
        seq = 0
        for _ in range(40):  # play a while
            st = [c.state(seq) for c in clients]
            actor = st[0]["view"]["actor"]
            clients[actor].act(rng.choice(st[actor]["legal"]))
            seq += 1
        before = [c.state(seq) for c in clients]
        s.kill()
        for c in clients:
            c.thread.join(5)
    finally:
        s.kill()
    s = ServerProcess(db_url, bot_delay=0.0, port=port).start()
    try:
        clients = [s.client(tid, t) for t in tokens]  # the same invite links
        after = [c.state() for c in clients]
        for b, a in zip(before, after, strict=True):
            assert a["seq"] == b["seq"] == seq
            assert a["view"] == b["view"] and a["legal"] == b["legal"]
        # and it plays on; a refresh (a new connection with the same token) mid-turn
        for _ in range(10):
            st = [c.state(seq) for c in clients]
            actor = st[0]["view"]["actor"]
            clients[actor].act(rng.choice(st[actor]["legal"]))
            seq += 1
        actor = clients[0].state(seq)["view"]["actor"]
        old = clients[actor].state(seq)
        clients[actor].close()
        clients[actor] = s.client(tid, tokens[actor])
        assert clients[actor].state(seq)["view"] == old["view"]
        for c in clients:
            c.close()
    finally:
        s.stop()


def test_computer_players_resume_after_kill_9(sqlite_url: str) -> None:
    s = ServerProcess(sqlite_url, bot_delay=0.01).start()
    port = s.port
    try:
        table = s.post("/api/tables", {"rules": "texas-good-sam", "seed": 8,
                                       "seats": [{"kind": "bot"}] * 4})
        deadline = time.monotonic() + 20
        while s.get(f"/api/tables/{table['id']}")["seq"] < 30:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        s.kill()
    s = ServerProcess(sqlite_url, bot_delay=0.0, port=port).start()
    try:
        deadline = time.monotonic() + 60
        while not s.get(f"/api/tables/{table['id']}")["over"]:
            assert time.monotonic() < deadline, "the computers did not play on"
            time.sleep(0.1)
        status, record = s.request("GET", f"/api/tables/{table['id']}/record")
        assert status == 200 and replay(record).ok  # no action lost, none doubled
    finally:
        s.stop()


def test_the_seat_of_a_person_who_left_is_played_by_the_computer(
        server: ServerProcess) -> None:
    out = server.post("/api/tables", {"rules": "texas-good-sam", "seed": 6, "seats": [
        {"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]})
    tokens = [i["token"] for i in sorted(out["invites"], key=lambda i: i["seat"])]
    me = server.client(out["id"], tokens[0])
    try:
        st = me.state()
        assert st["seats"][0]["connected"] and not st["seats"][1]["connected"]
        # only the seat's holder or the table's creator (with the creator's token)
        for creator in (None, "not-the-token", tokens[0]):
            n = me.count()
            me.send({"type": "computer", "seat": 1, "on": True, "creator": creator})
            error = me.wait_new(n, lambda m: m["type"] == "error")
            assert "set up this table" in error["message"]
        assert not me.state()["seats"][1]["computer"]
        me.send({"type": "computer", "seat": 1, "on": True, "creator": out["creator"]})
        me.wait(lambda m: m["type"] == "state" and m["seats"][1]["computer"])
        n = me.count()
        me.send({"type": "computer", "seat": 1, "on": False})  # only they take it back
        assert "only they" in me.wait_new(n, lambda m: m["type"] == "error")["message"]
        n = me.count()
        me.send({"type": "computer", "seat": 2, "on": True})
        assert "computer player's" in me.wait_new(n, lambda m: m["type"] == "error")["message"]
        back = server.client(out["id"], tokens[1])
        try:
            back.state()
            back.send({"type": "computer", "on": False})
            back.wait(lambda m: m["type"] == "state" and not m["seats"][1]["computer"])
            n = back.count()
            back.send({"type": "computer", "seat": 0, "on": True})  # seat 0 is here
            assert "only they" in back.wait_new(n, lambda m: m["type"] == "error")["message"]
        finally:
            back.close()
    finally:
        me.close()


def test_two_people_and_two_computers_play_a_game_of_three_hands_and_no_seat_sees_a_hidden_card(
        server: ServerProcess) -> None:
    out = server.post("/api/tables", {"rules": "alabama-samboree", "seed": 21, "seats": [
        {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "human"}]})
    tokens = {i["seat"]: i["token"] for i in out["invites"]}
    clients = {s: server.client(out["id"], t) for s, t in tokens.items()}
    watcher = server.client(out["id"])
    try:
        play_to_the_end(clients, random.Random(3))
        watcher.wait(lambda m: m["type"] == "state" and m["view"]["game_over"])
        status, record = server.request("GET", f"/api/tables/{out['id']}/record")
        assert status == 200 and len(record["hands"]) >= 3
        received = [c.messages for c in clients.values()] + [watcher.messages]
        assert check_no_hidden_card(record, received) > 100
    finally:
        for c in [*clients.values(), watcher]:
            c.close()


def test_the_server_reports_the_cpu_of_its_busiest_steps(server: ServerProcess) -> None:
    """``/api/server`` counts and times the steps of every move: writing each state
    message, sending it (written at once to a socket that takes it: "socket write";
    through the socket's queue: "socket send"), applying the move; the event loop's CPU
    is part of the process's."""
    play_one_move(server)
    info = server.get("/api/server")
    assert "loop_steps" not in info  # only with HANDFOOT_LOOP_STEPS=1
    # uvloop's event loop where it is installed (server.eventloop)
    assert info["event_loop"] == event_loop("auto")
    cpu = info["cpu"]
    assert 0 < cpu["event_loop_s"] <= cpu["process_s"]
    steps = cpu["steps"]
    assert steps["move"]["count"] >= 1  # the person's move (the computers' too)
    assert steps["state message"]["count"] >= 2
    # a socket that reads its messages gets them at once, not through its queue's task
    assert steps["socket write"]["count"] >= 2
    for step in steps.values():
        assert step["seconds"] >= 0 and step["us_each"] * step["count"] / 1e6 == \
            pytest.approx(step["seconds"], abs=1e-3)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_person_is_offered_each_card_they_hold_not_one_of_each_class(name: str) -> None:
    """The engine lists one card of each class (9♦ for 9♦ and 9♠ where suits do not
    matter); a person picks a particular card, and is shown a discard, and a card added
    to a meld, for every card they hold that the engine would take."""
    rules = preset(name)
    cls = rules.card_class
    shared_classes = len(set(cls)) < len(cls)  # (samba's suits all matter: none shared)
    more = 0
    for seed in range(3):
        game = Game(rules, seed)
        bots = seat_bots(rules, ["random"], seed)
        for step in range(300):
            if game.over:
                break
            seat = game.actor
            if game.hand.phase.name == "PLAY" and step % 2 == 0:
                shown = people_moves(game)
                listed = list_legal(game.legal_actions())
                keys = [json.dumps(a, sort_keys=True) for a in shown]
                assert len(keys) == len(set(keys)), keys  # each once
                assert {json.dumps(a, sort_keys=True) for a in listed} <= set(keys)
                for a in shown:  # and the engine takes every one
                    assert game.is_legal(action_from_json(a), seat), a
                held = [c for c in range(NUM_CARDS) if game.hand.hands[seat][c]]
                discards = {cls[parse_card(a["card"])] for a in listed
                            if a["type"] == "discard"}
                adds = {(a["meld"], cls[parse_card(a["cards"][0])]) for a in listed
                        if a["type"] == "add" and len(a["cards"]) == 1}
                offered = {(a["type"], a.get("meld"), a.get("card") or a["cards"][0])
                           for a in shown if a["type"] in ("discard", "add")}
                for c in held:
                    if cls[c] in discards:
                        assert ("discard", None, card_code(c)) in offered, card_code(c)
                    for meld, k in adds:
                        if k == cls[c]:
                            assert ("add", meld, card_code(c)) in offered, card_code(c)
                more += len(shown) - len(listed)
            game.apply(bots[seat].choose(None, game.legal_actions()), seat)
    assert (more > 0) == shared_classes
