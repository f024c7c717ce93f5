"""The table's move log, the pile's reason and the pause between hands, through the
real WebSocket protocol."""

from __future__ import annotations

import random
import re
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from handfoot.server.testing import Client, ServerProcess

pytestmark = pytest.mark.served  # (left out of the pure-Python pass: see test.sh)

CARD_WORD = re.compile(r"(10|[2-9JQKA])[♣♦♥♠]|Joker")


@pytest.fixture
def server(sqlite_url: str) -> Iterator[ServerProcess]:
    with ServerProcess(sqlite_url, bot_delay=0.0) as s:
        yield s


def _play_until(client: Client, rng: random.Random, done: Any, limit: int = 3000) -> Any:
    """Play random legal moves for the client's seat until ``done(state)``."""
    acted = -1
    for _ in range(limit):
        n = client.count()
        st = client.state()
        if done(st):
            return st
        if st["legal"] and st["view"]["actor"] == st["seat"] and st["seq"] != acted:
            acted = st["seq"]
            client.act(rng.choice(st["legal"]))
        client.wait_new(n, lambda m: m["type"] == "state", timeout=30)
    raise AssertionError("never came")


def test_a_hand_ends_and_waits_for_the_person_and_the_log_tells_each_move(
        server: ServerProcess) -> None:
    out = server.post("/api/tables", {"rules": "classic", "seed": 4, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]})
    token = out["invites"][0]["token"]
    me = server.client(out["id"], token, next_hand=False)
    try:
        st = _play_until(me, random.Random(2), lambda m: m["waiting"] is not None)
        # the hand is over: the people are waited for, the melds it ended with are kept
        assert st["waiting"] == {"hand": 1, "ready": [], "people": [0]}
        assert st["legal"] == []  # no move is listed while the table waits
        assert st["last_hand"]["number"] == 1 and st["final_melds"] is not None
        assert len(st["final_melds"]) == 2
        texts = [e["text"] for e in st["log"]]
        assert texts and st["log"][0]["seq"] > st["log"][-1]["seq"]  # newest first
        assert any(t.endswith("went out") or "the hand is over" in t for t in texts[:2])
        # the others' draws are told as a count; the person's own with the cards
        for e in st["log"]:
            if e["kind"] == "draw":
                if e["seat"] == 0:
                    assert e["text"].startswith("You drew ") and CARD_WORD.search(e["text"])
                else:
                    told = r"(Your partner )?Computer \d \(medium\) drew \d cards?( .*)?"
                    assert re.fullmatch(told, e["text"]), e
                    assert not CARD_WORD.search(e["text"].split(" and ")[0])
        # nobody moves while the table waits: an action is refused, nothing changes
        seq = st["seq"]
        n = me.count()
        me.act({"type": "draw"})
        err = me.wait_new(n, lambda m: m["type"] == "error")
        assert "Next hand" in err["message"]
        assert [m for m in me.messages if m["type"] == "state"][-1]["seq"] == seq
        # pressing Next hand lets play go on
        n = me.count()
        me.send({"type": "next-hand"})
        after = me.wait_new(n, lambda m: m["type"] == "state" and m["waiting"] is None)
        assert after["view"]["hand_number"] == 2
    finally:
        me.close()


def test_the_pile_s_reason_is_the_engine_s_for_each_viewer(server: ServerProcess) -> None:
    out = server.post("/api/tables", {"rules": "classic", "seed": 9, "seats": [
        {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]})
    me = server.client(out["id"], out["invites"][0]["token"])
    try:
        reasons: set[str | None] = set()

        def enough(m: Any) -> bool:
            reasons.add(m["pile_reason"])
            return len(reasons) >= 3 or m["view"]["hand_number"] > 1

        st = _play_until(me, random.Random(5), enough)
        said = {r for r in reasons if r}
        assert said, reasons
        # each one the engine's sentence (checks.pile_blocker), not one word for all
        assert all(r[0].isupper() or r.startswith("frozen") for r in said)
        assert st["type"] == "state"
    finally:
        me.close()


def test_a_hint_for_one_s_own_turn_and_the_table_s_rules_in_words(
        server: ServerProcess) -> None:
    out = server.post("/api/tables", {"rules": "classic", "seed": 3, "seats": [
        {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]})
    me = server.client(out["id"], out["invites"][0]["token"])
    try:
        hello = me.wait(lambda m: m["type"] == "hello")
        assert hello["hint"] is True
        assert any(line.startswith("To go out your team needs") for line in hello["rules_words"])
        st = _play_until(me, random.Random(1), lambda m: bool(m["legal"]))
        n = me.count()
        me.send({"type": "hint"})
        hint = me.wait_new(n, lambda m: m["type"] in ("hint", "error"))
        assert hint["type"] == "hint" and hint["seq"] == st["seq"], hint
        assert hint["action"] in st["legal"] or hint["action"]["type"] in {
            a["type"] for a in st["legal"]}
        assert hint["text"].endswith(".")
        # not one's turn: no hint
        me.act(hint["action"] if hint["action"]["type"] == "draw" else st["legal"][0])
        me.wait_new(n, lambda m: m["type"] == "state" and m["seq"] > st["seq"])
        later = me.state()
        if later["view"]["actor"] != 0:
            n = me.count()
            me.send({"type": "hint"})
            err = me.wait_new(n, lambda m: m["type"] in ("hint", "error"))
            assert err["type"] == "error" and "your own turn" in err["message"]
    finally:
        me.close()


def test_the_site_has_a_favicon(server: ServerProcess) -> None:
    for path in ("/favicon.ico", "/static/favicon.svg"):
        with urllib.request.urlopen(server.base + path, timeout=10) as r:
            assert r.status == 200 and r.headers["content-type"].startswith("image/svg")
            assert b"<svg" in r.read()


def test_the_move_log_is_told_again_after_a_restart(sqlite_url: str) -> None:
    s = ServerProcess(sqlite_url, bot_delay=0.0).start()
    port = s.port
    try:
        out = s.post("/api/tables", {"rules": "classic", "seed": 5, "seats": [
            {"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "human"}]})
        tokens = {i["seat"]: i["token"] for i in out["invites"]}
        me = s.client(out["id"], tokens[0])
        st = me.state()
        rng = random.Random(3)
        while st["seq"] < 6:  # seat 0 and the others (through their own links) play
            actor = st["view"]["actor"]
            other = s.client(out["id"], tokens[actor]) if actor else me
            mine = other.state(st["seq"])
            other.act(rng.choice(mine["legal"]))
            st = me.state(st["seq"] + 1)
            if other is not me:
                other.close()
        before = [e["text"] for e in st["log"]]
        me.close()
    finally:
        s.kill()
    s = ServerProcess(sqlite_url, bot_delay=0.0, port=port).start()
    try:
        me = s.client(out["id"], tokens[0])
        again = me.state()
        assert again["seq"] == st["seq"]
        assert [e["text"] for e in again["log"]] == before and len(before) == st["seq"]
        me.close()
    finally:
        s.stop()


def test_no_hint_at_a_club_event_table(server: ServerProcess) -> None:
    from club_pages import Http, create_event
    org = Http(server)
    key = create_event(org, "Hintless night", "classic", players=4)
    org.post(f"/api/events/{key}/draw", {"round": 1, "seed": 5})
    out = org.post(f"/api/events/{key}/online", {"round": 1, "table": 1,
                                                  "computer": [1, 2, 3], "level": "easy"})
    token = out["invites"][0]["url"].split("token=")[1]
    me = server.client(out["table_id"], token)
    try:
        assert me.wait(lambda m: m["type"] == "hello")["hint"] is False
        st = _play_until(me, random.Random(1), lambda m: bool(m["legal"]))
        n = me.count()
        me.send({"type": "hint"})
        err = me.wait_new(n, lambda m: m["type"] in ("hint", "error"))
        assert err["type"] == "error" and "club-event" in err["message"]
        assert me.state()["seq"] == st["seq"]
    finally:
        me.close()


def test_the_pause_between_hands_is_kept_across_a_restart(
        sqlite_url: str) -> None:
    # Ann is looking at the end of hand 1 when the server restarts: back, the table
    # still waits for her (before, its computers dealt on and played without her)
    s = ServerProcess(sqlite_url, bot_delay=0.0).start()
    port = s.port
    try:
        out = s.post("/api/tables", {"rules": "classic", "seed": 4, "seats": [
            {"kind": "human", "name": "Ann"}, {"kind": "bot"}, {"kind": "bot"},
            {"kind": "bot"}]})
        token = out["invites"][0]["token"]
        me = s.client(out["id"], token, next_hand=False)
        st = _play_until(me, random.Random(2), lambda m: m["waiting"] is not None)
        seq = st["seq"]
    finally:
        # killed while she looks (her leaving first would end the pause: nobody waits
        # for who left, and the computers would deal on before the kill)
        s.kill()
    me.close()
    s = ServerProcess(sqlite_url, bot_delay=0.0, port=port).start()
    try:
        me = s.client(out["id"], token, next_hand=False)
        again = me.state()
        assert again["waiting"] == {"hand": 1, "ready": [], "people": [0]}
        assert again["seq"] == seq and again["final_melds"] is not None
        time.sleep(1.0)
        assert me.state()["seq"] == seq  # nobody played on
        n = me.count()
        me.send({"type": "next-hand"})
        after = me.wait_new(n, lambda m: m["type"] == "state" and m["waiting"] is None)
        assert after["view"]["hand_number"] == 2
        me.close()
    finally:
        s.stop()


def test_the_move_log_told_once_for_each_viewer_is_what_telling_it_afresh_says() -> None:
    """The log's entries are kept for each viewer between moves (a state message for
    every socket carries them): what is kept is word for word what narrating the moves
    again says, a new move comes first at once, and a seat renamed is told again."""
    from handfoot.arena import seat_bots
    from handfoot.game import Game
    from handfoot.game.narrate import narrate
    from handfoot.game.views import seat_view
    from handfoot.rules import preset
    from handfoot.server.live.table_log import SHOWN, MoveLog

    rules = preset("classic")
    game = Game(rules, 5)
    bots = seat_bots(rules, ("heuristic",), 5)
    log = MoveLog()
    names = ["Ann", "Bob", "Cy", "Di"]
    moves = []  # (seq, move) as narrate sees it, kept apart from the log
    for seq in range(60):
        seat = game.actor
        action = bots[seat].choose(seat_view(game, seat), game.legal_actions())
        game.verify(action, seat)
        log.play(game, seq, action, wait_for_people=False)
        moves.append((seq, log.moves[-1][2]))
        if seq % 7 == 3:
            names = [*names[:1], f"Bob {seq}", *names[2:]]  # a seat given a new name
        for viewer in (0, 1, None):
            for _ in range(2):  # the second time from what was kept
                entries = log.entries(viewer, names)
                assert [e["seq"] for e in entries] == \
                    [s for s, _ in reversed(moves[-SHOWN:])]
                assert [e["text"] for e in entries] == \
                    [narrate(m, viewer, names) for _, m in reversed(moves[-SHOWN:])]
        # what the other players are told of a draw never names its cards
        if action.kind == "draw":
            other = (seat + 1) % 4
            assert log.entries(other, names)[0]["text"] != log.entries(seat, names)[0]["text"]
    assert any(f"Bob {s}" in e["text"] for e in log.entries(0, names) for s in range(60))


def test_state_messages_from_what_is_kept_equal_messages_written_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A state message is written from kept parts (the log's entries for each viewer
    and their JSON, each meld's and each team's JSON, the seats written once for every
    viewer, the part every viewer shares written once a broadcast and joined with each
    viewer's own); after every move of a whole hand each viewer's message is byte for
    byte the one written in one piece with nothing kept, and the benchmark of writing
    them measures that hand."""
    from handfoot.game import views
    from handfoot.server.diagnostics import bench_messages
    from handfoot.server.live import messages

    written: list[tuple[str, str]] = []

    class Both(messages.Broadcast):
        def data(self, seat: int | None) -> bytes:
            kept = super().data(seat)
            # the same message with nothing kept; what was kept is put back after
            log = self.table.moves
            caches: list[dict[Any, Any]] = [views._MELD_JSON, messages._TEAM_JSON,
                                            messages._SEATS_JSON, log.shown, log.written,
                                            log.after]
            caches += [told for *_, told in log.moves]
            saved = [dict(c) for c in caches]
            for cache in caches:
                cache.clear()
            fresh = messages.Broadcast(self.table, self.legal).whole(seat)
            for cache, was in zip(caches, saved, strict=True):
                cache.clear()
                cache.update(was)
            written.append((kept.decode(), fresh.decode()))
            return kept

    monkeypatch.setattr(bench_messages, "Broadcast", Both)
    result = bench_messages.measure("classic", hands=1, seed=3)
    assert result["broadcasts"] * 5 == len(written) > 100
    assert all(kept == fresh for kept, fresh in written)
    assert any('"melds":[{' in kept for kept, _ in written)  # melds were on the table
    # the log's entries were written again for a new move only: one entry each time
    assert any('"log":[{' in kept and kept.count('"seq":') > 3 for kept, _ in written)


def test_a_message_is_the_same_whichever_viewer_is_written_first() -> None:
    """The parts every viewer shares are written with the first message of a broadcast:
    the teams' melds are the same in every viewer's message, and each viewer's message
    does not depend on which viewer's was written before it."""
    import datetime as dt

    import orjson

    from handfoot.arena import seat_bots
    from handfoot.rules import preset
    from handfoot.server.diagnostics.bench_messages import each_move
    from handfoot.server.live.messages import Broadcast
    from handfoot.server.live.table import LiveTable
    from handfoot.server.offloop.pool import ServedGame
    from handfoot.server.storage.store import TableRow

    rules = preset("classic")
    game = ServedGame(rules, 21)
    row = TableRow(id="t", rules_name="classic", rules_toml="", seed=21,
                   seats=[{"kind": "human", "name": "Ann"}] + [{"kind": "bot"}] * 3,
                   created=dt.datetime.now(dt.UTC))
    table = LiveTable(row=row, rules=rules, game=game)
    viewers: list[int | None] = [0, 1, 2, 3, None]
    melded = 0
    for _ in each_move(table, seat_bots(rules, ("heuristic",), 21)):
        forward = Broadcast(table, None)
        ahead = {v: forward.text(v) for v in viewers}
        backward = Broadcast(table, None)
        behind = {v: backward.text(v) for v in reversed(viewers)}
        assert ahead == behind
        teams = [orjson.loads(ahead[v])["view"]["teams"] for v in viewers]
        assert all(t == teams[0] for t in teams)
        melded += any(t["melds"] for t in teams[0])
    assert melded > 0


def test_a_message_joined_from_its_shared_part_equals_one_written_whole() -> None:
    """The part of a broadcast every viewer shares is written once, with a mark where
    each viewer's own part goes; each viewer's message joined from it is byte for byte
    the one written in one piece: with the moves listed for the seat to act (and no
    other, and for nobody in the pause between hands: no move is taken then), a
    spectator's without a hand, through the end of a hand and the pause
    after it, time called, and names that JSON must escape (a NUL among them)."""
    import datetime as dt

    import orjson

    from handfoot.actions import action_to_json
    from handfoot.arena import seat_bots
    from handfoot.game.views import seat_view
    from handfoot.rules import preset
    from handfoot.server.live.messages import Broadcast
    from handfoot.server.live.table import LiveTable
    from handfoot.server.offloop.pool import ServedGame
    from handfoot.server.storage.store import TableRow

    rules = preset("classic")
    game = ServedGame(rules, 5)
    row = TableRow(id="t", rules_name="classic", rules_toml="", seed=5,
                   seats=[{"kind": "human", "name": "Ann\x00"}, {"kind": "bot"},
                          {"kind": "human", "name": 'Cy "the kid" \\ \u00e9'},
                          {"kind": "bot"}],
                   created=dt.datetime.now(dt.UTC))
    table = LiveTable(row=row, rules=rules, game=game)
    bots = seat_bots(rules, ("heuristic",), 5)
    viewers: list[int | None] = [0, 1, 2, 3, None]
    listed = paused = timed = moves = 0
    while True:
        actor = game.actor
        legal = [action_to_json(a) for a in game.legal_actions()]
        messages = Broadcast(table, legal)
        for viewer in viewers:
            joined = messages.data(viewer)
            assert joined == Broadcast(table, legal).whole(viewer)
            parsed = orjson.loads(joined)
            assert parsed["seat"] == parsed["view"]["seat"] == viewer
            if viewer == actor and not game.over and not table.paused:
                assert parsed["legal"] == legal
                listed += 1
            else:
                assert parsed["legal"] == []
            if viewer is None:
                assert parsed["view"]["hand"] == [] and parsed["fresh"] == []
            else:
                assert len(parsed["view"]["hand"]) == sum(game.hand.hands[viewer])
            assert parsed["seats"][0]["name"] == "Ann\x00"
            timed += parsed["time_called"]
        if table.paused:  # (its seat to act was shown no moves) everyone presses Next hand
            assert actor in viewers and not game.over
            paused += 1
            table.moves.paused_after = None
        if game.over:
            break
        moves += 1
        if len(game.results) == 1 and not game.time_called and moves % 10 == 0:
            game.call_time()  # in the second hand: it ends the game
            continue
        action = bots[actor].choose(seat_view(game, actor), game.legal_actions())
        game.verify(action, actor)
        table.seq += 1
        table.moves.play(game, table.seq, action, wait_for_people=True)
    assert listed > 50 and paused == 1 and timed > 0


def test_the_last_hand_s_result_is_written_once_and_follows_each_hand() -> None:
    """Every message carries the last finished hand's result; it is written when a hand
    ends, kept for the messages after it, and written again when the next one ends."""
    import datetime as dt

    from handfoot.arena import play, seat_bots
    from handfoot.rules import preset
    from handfoot.server.live.messages import last_hand_json, last_hand_of
    from handfoot.server.live.table import LiveTable
    from handfoot.server.offloop.pool import ServedGame
    from handfoot.server.storage.store import TableRow

    rules = preset("six-deck")
    game = ServedGame(rules, 11)
    row = TableRow(id="t", rules_name="six-deck", rules_toml="", seed=11,
                   seats=[{"kind": "bot"}] * 4, created=dt.datetime.now(dt.UTC))
    table = LiveTable(row=row, rules=rules, game=game)
    bots = seat_bots(rules, ("heuristic",), 11)
    assert last_hand_of(table) is None
    seen = []
    for hands in (1, 2):
        play(game, bots, hands=1)
        assert len(game.results) == hands
        kept = last_hand_of(table)
        assert kept == last_hand_json(game) and kept is not None
        assert kept["number"] == hands
        assert last_hand_of(table) is kept  # kept, not written again
        seen.append(kept)
    assert seen[0] != seen[1]


def test_a_message_shows_the_seats_as_they_are_now_though_their_json_is_kept() -> None:
    """The seats' part of a message is kept from one message to the next, by what it is
    made from: a change to any seat (connected here or elsewhere, joined, handed to the
    computer, named, its level) shows in the next message, and going back shows the
    seats as before, the same bytes."""
    import datetime as dt

    import orjson

    from handfoot.rules import preset
    from handfoot.server.live.messages import Broadcast
    from handfoot.server.live.table import LiveTable
    from handfoot.server.offloop.pool import ServedGame
    from handfoot.server.storage.store import TableRow

    rules = preset("classic")
    row = TableRow(id="t", rules_name="classic", rules_toml="", seed=3,
                   seats=[{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"},
                          {"kind": "human", "name": "Cy"}, {"kind": "bot"}],
                   created=dt.datetime.now(dt.UTC))
    table = LiveTable(row=row, rules=rules, game=ServedGame(rules, 3))

    def seats() -> list[dict[str, Any]]:
        parsed: list[dict[str, Any]] = orjson.loads(Broadcast(table, None).data(None))["seats"]
        return parsed

    first = seats()
    assert [s["connected"] for s in first] == [False] * 4
    assert [s["computer"] for s in first] == [False, True, False, True]
    assert first[1]["level"] == "easy" and first[0]["name"] == "Ann"
    table.elsewhere["other"] = {2}  # Cy connected to another server process
    assert [s["connected"] for s in seats()] == [False, False, True, False]
    table.joined.add(0)
    assert [s["joined"] for s in seats()] == [True, False, False, False]
    table.seats[2]["computer"] = True  # Cy's seat handed to the computer
    assert seats()[2]["computer"] is True
    table.seats[0]["name"] = "Ann B."
    assert seats()[0]["name"] == "Ann B."
    table.seats[1]["level"] = "hard"
    assert seats()[1]["level"] == "hard"
    table.seats[1]["level"] = "easy"
    table.seats[0]["name"] = "Ann"
    del table.seats[2]["computer"]
    table.joined.clear()
    table.elsewhere.clear()
    assert seats() == first
    # the names the move log tells follow the seats too
    assert Broadcast(table, None).names[0] == "Ann"
    table.seats[0]["name"] = "Dee"
    assert Broadcast(table, None).names[0] == "Dee"
