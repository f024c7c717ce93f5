"""Club events in the game server (issue 6, the web part), through the real HTTP API of a
real server on 127.0.0.1: the organiser's password, what public pages show (and never
show), a whole event of 24 players whose every table is played online by computer
players with the results flowing in by themselves, paper score sheets, and calling time
for a round."""

from __future__ import annotations

import html
import json
from collections import defaultdict
from collections.abc import Iterator

import pytest

from club_pages import (
    PASSWORD,
    Http,
    create_event,
    form_hand,
    paper_round,
    players_csv,
    tied_event,
    wait_for,
)
from handfoot.club.event import Event, TableResult
from handfoot.club.results import result_from_record, result_from_sheets
from handfoot.club.standings import high_card_draw, standings
from handfoot.club.store import ClubStore
from handfoot.game.records import replay
from handfoot.server.testing import ServerProcess

pytestmark = pytest.mark.served  # (left out of the pure-Python pass: see test.sh)







@pytest.fixture
def server(sqlite_url: str) -> Iterator[ServerProcess]:
    with ServerProcess(sqlite_url, bot_delay=0.0) as s:
        yield s






# ------------------------------------------------------------- the password


def test_organiser_actions_need_the_password(server: ServerProcess) -> None:
    org = Http(server)
    key = create_event(org)
    anyone = Http(server)
    base = f"/api/events/{key}"
    # without logging in: refused, and nothing changes
    for method, path, body in [("GET", "/manage", None),
                               ("POST", "/players", {"csv": players_csv(4)}),
                               ("POST", "/draw", {"round": 1, "seed": 1}),
                               ("POST", "/online", {"round": 1, "table": 1}),
                               ("POST", "/paper", {"round": 1, "table": 1, "hands": []}),
                               ("POST", "/clock", {"round": 1, "do": "call"}),
                               ("GET", "/paper?round=1&table=1", None),
                               ("POST", "/tiebreak", {"kind": "team", "seed": 1})]:
        status, data, _ = anyone.request(method, base + path, body)
        assert status == 401 and "password" in data["error"], (path, status, data)
    for page in ["/print/results", "/print/assignments/1", "/print/score-sheets/1",
                 "/players.csv"]:
        status, _, text = anyone.request("GET", f"/events/{key}{page}")
        assert status == 401 and "password" in text, page
    assert anyone.get(base)["players"] == 8  # the players' page is open to all
    # a wrong password is refused politely; the right one lets the organiser in
    status, data, _ = anyone.request("POST", base + "/login", {"password": "guess"})
    assert status == 403 and "not the password" in data["error"]
    assert not anyone.cookie
    anyone.post(base + "/login", {"password": PASSWORD})
    assert anyone.get(base + "/manage")["name"] == "Spring Samboree"
    # a session is for its own event only
    other = create_event(Http(server), "Another evening", players=0)
    status, _, _ = anyone.request("GET", f"/api/events/{other}/manage")
    assert status == 401
    # logging out ends the session
    anyone.post(base + "/logout", {})
    status, _, _ = anyone.request("GET", base + "/manage")
    assert status == 401
    # many wrong passwords in a minute: refused for a while, even the right one
    stranger = Http(server)
    codes = [stranger.request("POST", base + "/login", {"password": f"x{i}"})[0]
             for i in range(7)]
    assert codes[:5] == [403] * 5 and codes[5:] == [429, 429]
    status, data, _ = stranger.request("POST", base + "/login", {"password": PASSWORD})
    assert status == 429 and "wait a minute" in data["error"]
    # not JSON, a bad round, an unknown event: clear refusals, no crash
    status, data, _ = org.request("POST", base + "/draw", b"round=1", "text/plain")
    assert status == 415
    status, data, _ = org.request("POST", base + "/draw", {"round": 9})
    assert status == 400 and "between 1 and 3" in data["error"]
    status, data, _ = org.request("POST", base + "/draw", {"round": "two"})
    assert status == 400 and "whole number" in data["error"]
    assert anyone.request("GET", "/api/events/nosuchevent")[0] == 404
    status, data, _ = org.request("POST", "/api/events", {"name": "Spring Samboree",
                                                          "rules": "classic",
                                                          "password": "abcd"})
    assert status == 400 and "already an event" in data["error"]
    status, data, _ = org.request("POST", "/api/events", {"name": "New", "rules": "classic",
                                                          "password": "ab"})
    assert status == 400 and "at least 4" in data["error"]


def test_public_pages_leak_no_tokens(server: ServerProcess, sqlite_url: str) -> None:
    org = Http(server)
    key = create_event(org, players=8)
    base = f"/api/events/{key}"
    org.post(base + "/draw", {"round": 1, "seed": 7})
    started = org.post(base + "/online", {"round": 1, "table": 1, "computer": []})
    tokens = [i["token"] for i in started["invites"]]
    assert len(tokens) == 4 and all(i["url"].endswith(i["token"]) for i in started["invites"])
    assert [i["name"] for i in started["invites"]] == \
        org.get(base + "/manage")["rounds_info"][0]["tables"][0]["seats"]
    public = Http(server)
    seen = [public.request("GET", p)[2] for p in [
        "/api/events", base, base + "/find?name=player%2003", f"/events/{key}",
        "/api/tables", f"/api/tables/{started['table_id']}"]]
    # the organiser's page holds no token either: a lost link is replaced, not shown
    seen.append(org.request("GET", base + "/manage")[2])
    hashed = ClubStore(sqlite_url)
    pw_hash = hashed.engine.connect().exec_driver_sql(
        "select password_hash from club_events").scalar()
    hashed.close()
    for text in seen:
        assert not any(t in text for t in tokens)
        assert "scrypt" not in text and str(pw_hash) not in text and PASSWORD not in text
        assert "token" not in text
    found = public.get(base + "/find?name=player%2003")
    assert found["name"] == "Player 03" and len(found["rounds"]) == 1
    r1 = found["rounds"][0]
    assert r1["table"] in (1, 2) and len(r1["partners"]) == 1 and len(r1["opponents"]) == 1
    status, data, _ = public.request("GET", base + "/find?name=Player")
    assert status == 404 and "Several players match" in data["error"]
    status, data, _ = public.request("GET", base + "/find?name=Nobody")
    assert status == 404 and "check the spelling" in data["error"]
    # a new link for a seat: the old one stops working
    new = org.post(base + "/invite", {"round": 1, "table": 1, "seat": 2})
    assert new["name"] == started["invites"][2]["name"] and tokens[2] not in new["url"]
    client = server.client(started["table_id"], tokens[2])
    err = client.wait(lambda m: m["type"] == "error")
    assert "not valid" in err["message"]
    client.close()
    client = server.client(started["table_id"], new["url"].split("token=")[1])
    assert client.state()["seat"] == 2
    client.close()


# ------------------------------------------------------- a whole event online


@pytest.mark.slow
def test_a_whole_event_of_24_players_online(server: ServerProcess,
                                            sqlite_url: str) -> None:
    """24 players, three rounds, every table played online by computer players; each
    result flows in by itself when the game ends; the standings agree with the games'
    own records."""
    org = Http(server)
    key = create_event(org, "County tournament", "texas-good-sam", players=24,
                       not_same_chapter=True)
    base = f"/api/events/{key}"
    table_ids: dict[tuple[int, int], str] = {}
    for rnd in (1, 2, 3):
        drawn = org.post(base + "/draw", {"round": rnd, "seed": 100 + rnd})
        assert drawn["seed"] == 100 + rnd
        info = org.get(base + "/manage")["rounds_info"][rnd - 1]
        assert len(info["tables"]) == 6 and not info["byes"]
        for t in info["tables"]:
            out = org.post(base + "/online", {"round": rnd, "table": t["number"],
                                              "computer": [0, 1, 2, 3],
                                              "level": "heuristic"})
            table_ids[(rnd, t["number"])] = out["table_id"]
        # a table is not started twice, and a round playing online is not drawn again
        status, data, _ = org.request("POST", base + "/online", {"round": rnd, "table": 1})
        assert status == 400 and ("already" in data["error"])
        status, data, _ = org.request("POST", base + "/draw", {"round": rnd, "seed": 1})
        assert status == 400 and "stands" in data["error"]

        def round_in(rnd: int = rnd) -> bool:
            tables = org.get(base + "/manage")["rounds_info"][rnd - 1]["tables"]
            return all(t["result"] is not None for t in tables)

        wait_for(round_in, 60, f"round {rnd}'s results")
    manage = org.get(base + "/manage")
    public = Http(server).get(base)
    assert public["standings"] == manage["standings"]
    assert not public["standings"]["missing"]

    # every game's own record, replayed, against what the server stored
    store = ClubStore(sqlite_url)
    event = store.load("County tournament")
    store.close()
    check = Event.from_settings_json(event.settings_json())
    check.draws = dict(event.draws)
    team_points: dict[frozenset[str], int] = defaultdict(int)
    player_points: dict[str, int] = defaultdict(int)
    for (rnd, tno), tid in sorted(table_ids.items()):
        status, _, text = Http(server).request("GET", f"/api/tables/{tid}/record")
        assert status == 200
        record = json.loads(text)
        assert replay(record).ok
        result = result_from_record(check, rnd, tno, record)
        check.results.append(result)
        stored = event.result(rnd, tno)
        assert stored is not None and stored.source == "online"
        assert stored.totals == result.totals and stored.hands == result.hands
        assert stored.detail["server_table"] == tid
        names = record["players"]
        table = event.draws[rnd].table(tno)
        assert names == [event.name_of(p) for p in table.seats]
        for team in range(2):
            members = names[team::2]
            team_points[frozenset(members)] += record["result"]["totals"][team]
            for m in members:
                player_points[m] += record["result"]["totals"][team]
    want = standings(check)
    shown = manage["standings"]
    assert [(x["name"], x["points"], x["place"]) for x in shown["players"]] == \
        [(x.name, x.points, x.place_text) for x in want.players]
    assert [(x["name"], x["points"]) for x in shown["teams"]] == \
        [(x.name, x.points) for x in want.teams]
    assert [(x["name"], x["points"]) for x in shown["chapters"]] == \
        [(x.name, x.points) for x in want.chapters]
    assert {frozenset(x["name"].split(" & ")): x["points"] for x in shown["teams"]} == \
        dict(team_points)
    assert {x["name"]: x["points"] for x in shown["players"]} == dict(player_points)
    assert len(shown["teams"]) == 36 and len(shown["chapters"]) == 4
    # not-same-chapter held at every table
    for x in event.draws.values():
        for t in x.tables:
            for members in t.team_list():
                assert len({event.player(m).chapter for m in members}) == len(members)
    # the printed results are there for the organiser
    status, _, text = org.request("GET", f"/events/{key}/print/results")
    assert status == 200 and "County tournament: results" in text
    assert want.players[0].name in text


# ------------------------------------------------------------ paper tables






def test_a_paper_table_scored_by_the_scorekeeper(server: ServerProcess,
                                                 sqlite_url: str) -> None:
    org = Http(server)
    base, hands = paper_round(org, "Paper night")
    # worked out first (nothing kept), then saved
    shown = org.post(base + "/paper", {"round": 1, "table": 1, "hands": hands,
                                       "time_called": True})
    assert not shown["saved"] and len(shown["hands"]) == 2
    assert org.get(base + "/manage")["rounds_info"][0]["tables"][0]["result"] is None
    saved = org.post(base + "/paper", {"round": 1, "table": 1, "hands": hands,
                                       "time_called": True, "save": True})
    assert saved["saved"] and saved["totals"] == shown["totals"]
    # the totals are the scorekeeper's, sheet by sheet
    store = ClubStore(sqlite_url)
    event = store.load("Paper night")
    store.close()
    result = event.result(1, 1)
    assert result is not None and result.source == "paper" and result.time_called
    again = result_from_sheets(event, 1, 1, result.detail["sheets"], True)
    assert again.totals == tuple(saved["totals"]) and again.hands == result.hands
    assert saved["totals"] == [sum(h[t] for h in saved["hands"]) for t in range(2)]
    first = saved["scores"][0][0]  # itemised, as handfoot score gives it
    assert first["clean_books"] == 1 and first["deal_bonus"] == 100
    assert first["total"] == saved["hands"][0][0]
    # without time called, a short game is refused with the reason
    status, data, _ = org.request("POST", base + "/paper", {"round": 1, "table": 2,
                                                            "hands": hands})
    assert status == 400 and "time was called" in data["error"]
    # a typing slip is named, and nothing is kept
    bad = [form_hand(0, ["KH KD KS KZ", ""], ["", ""])]
    status, data, _ = org.request("POST", base + "/paper", {"round": 1, "table": 2,
                                                            "hands": bad, "save": True,
                                                            "time_called": True})
    assert status == 400 and "KZ" in data["error"], data
    status, data, _ = org.request("POST", base + "/paper", {"round": 1, "table": 2,
                                                            "hands": [{"teams": "x"}]})
    assert status == 400 and "every team" in data["error"]
    public = Http(server).get(base)
    assert public["drawn"] == [{"round": 1, "tables": 2, "results": 1}]
    assert {x["points"] for x in public["standings"]["teams"]} >= set(saved["totals"])


def test_correcting_a_paper_tables_sheets(server: ServerProcess,
                                          sqlite_url: str) -> None:
    """"Correct the score sheets" opens the sheets entered before, in the form's shape;
    the organiser changes one figure and saves; the corrected result replaces the
    earlier one and both are kept."""
    org = Http(server)
    base, hands = paper_round(org, "Correction night")
    first = org.post(base + "/paper", {"round": 1, "table": 1, "hands": hands,
                                       "time_called": True, "save": True})
    # the sheets come back as they were typed, every field of the form filled in
    got = org.get(base + "/paper?round=1&table=1")
    assert got["time_called"] is True and got["totals"] == first["totals"]
    assert len(got["hands"]) == 2
    for sent, back in zip(hands, got["hands"], strict=True):
        assert back["went_out"] is None
        for t_sent, t_back in zip(sent["teams"], back["teams"], strict=True):
            assert t_back["melds"] == t_sent["melds"]
            assert t_back["players"] == t_sent["players"]
            for field in ("exact_deals", "short_openings", "penalties", "red_threes"):
                assert t_back[field] == t_sent.get(field, 0), field
    # sent back unchanged, the same totals
    same = org.post(base + "/paper", {"round": 1, "table": 1, "hands": got["hands"],
                                      "time_called": got["time_called"]})
    assert same["totals"] == first["totals"] and same["hands"] == first["hands"]
    # one figure corrected (team 2's other penalties in hand 2: 20 -> 120) and saved
    fixed = json.loads(json.dumps(got["hands"]))
    fixed[1]["teams"][1]["penalties"] = 120
    saved = org.post(base + "/paper", {"round": 1, "table": 1, "hands": fixed,
                                       "time_called": True, "save": True})
    assert saved["totals"] == [first["totals"][0], first["totals"][1] - 100]
    table = org.get(base + "/manage")["rounds_info"][0]["tables"][0]
    assert table["result"]["totals"] == saved["totals"]
    assert org.get(base + "/paper?round=1&table=1")["hands"][1]["teams"][1]["penalties"] == 120
    team2 = " & ".join(table["teams"][1]["players"])
    points = {x["name"]: x["points"] for x in org.get(base)["standings"]["teams"]}
    assert points[team2] == saved["totals"][1]
    store = ClubStore(sqlite_url)
    try:
        event = store.load("Correction night")
        kept = [r for r in event.results if (r.round, r.table) == (1, 1)]
        assert [list(r.totals) for r in kept] == [first["totals"], saved["totals"]]

        # sheets entered with `handfoot event result --sheet`: melds and cards as lists,
        # players in another order; the form shows them under the right names
        t2 = event.draws[1].table(2)
        names = [[event.name_of(m) for m in t2.team_members(k)] for k in range(2)]
        sheet = {"hand": 1, "teams": [
            {"melds": [["KH", "KD", "KS", "KC", "KH", "KD", "KS"], "AH AD AC"],
             "exact_deals": 1, "players": [{"name": names[0][1], "hand": ["8H", "4C"]}]},
            {"melds": ["QH QD QS"], "players": [{"name": names[1][1], "foot": "5C 6C"},
                                               {"name": names[1][0], "hand": "9S"}]}]}
        store.add_result(event, result_from_sheets(event, 1, 2, [sheet], True))
    finally:
        store.close()
    got = org.get(base + "/paper?round=1&table=2")
    assert got["hands"][0]["went_out"] is None
    team1, team2_ = got["hands"][0]["teams"]
    assert team1["melds"] == "KH KD KS KC KH KD KS\nAH AD AC" and team1["exact_deals"] == 1
    assert team1["players"] == [{"hand": "", "foot": ""}, {"hand": "8H 4C", "foot": ""}]
    assert team2_["players"] == [{"hand": "9S", "foot": ""}, {"hand": "", "foot": "5C 6C"}]
    again = org.post(base + "/paper", {"round": 1, "table": 2, "hands": got["hands"],
                                       "time_called": True})
    assert again["totals"] == org.get(base + "/manage")["rounds_info"][0]["tables"][1][
        "result"]["totals"]
    # refusals: not logged in, no result, a round not drawn
    status, data, _ = Http(server).request("GET", base + "/paper?round=1&table=1")
    assert status == 401
    status, data, _ = org.request("GET", base + "/paper?round=2&table=1")
    assert status == 400 and "not been drawn" in data["error"]
    status, data, _ = org.request("GET", base + "/paper?round=1")
    assert status == 400 and "The table must be a whole number" in data["error"]


def test_paper_correction_of_old_and_online_results(server: ServerProcess,
                                                    sqlite_url: str) -> None:
    org = Http(server)
    key = create_event(org, "Old night", "texas-good-sam", players=8)
    base = f"/api/events/{key}"
    org.post(base + "/draw", {"round": 1, "seed": 4})
    status, data, _ = org.request("GET", base + "/paper?round=1&table=1")
    assert status == 400 and "no result yet" in data["error"]
    store = ClubStore(sqlite_url)
    try:
        event = store.load("Old night")
        store.add_result(event, TableResult(1, 1, "paper", ((300, 100),), (300, 100)))
    finally:
        store.close()
    status, data, _ = org.request("GET", base + "/paper?round=1&table=1")
    assert status == 400 and "not kept" in data["error"] and "enter them again" in data["error"]
    org.post(base + "/online", {"round": 1, "table": 2, "computer": [0, 1, 2, 3],
                                "level": "random"})
    status, data, _ = org.request("GET", base + "/paper?round=1&table=2")
    assert status == 400 and "plays online" in data["error"]


# ------------------------------------------------------------ tie-breaks




def test_breaking_a_tie_by_a_high_card_draw(server: ServerProcess,
                                            sqlite_url: str) -> None:
    org = Http(server)
    key = tied_event(org, "High card night", "high-card")
    base = f"/api/events/{key}"
    hand = form_hand(None, ["KH KD KS KC KH KD KS\nAH AD AC", "QH QD QS"], ["8H 4C", "9S"])
    # not before the event is over: a tie after round 1 of 2 is not broken
    early = create_event(org, "Early night", "Texas, tie by high-card", players=8, rounds=2)
    org.post(f"/api/events/{early}/draw", {"round": 1, "seed": 5})
    for table in (1, 2):
        org.post(f"/api/events/{early}/paper", {"round": 1, "table": table,
                                                "hands": [hand], "save": True})
    assert org.get(f"/api/events/{early}/manage")["rounds_to_draw"] == [2]
    status, data, _ = org.request("POST", f"/api/events/{early}/tiebreak",
                                  {"kind": "team", "seed": 77})
    assert status == 400 and "round 2 still to be played" in data["error"]
    org.post(f"/api/events/{key}/login", {"password": PASSWORD})
    # not before every result is in
    status, data, _ = org.request("POST", base + "/tiebreak", {"kind": "team", "seed": 77})
    assert status == 400 and "round 1 table 2 still to come" in data["error"]
    org.post(base + "/paper", {"round": 1, "table": 2, "hands": [hand], "save": True})
    st = org.get(base + "/manage")["standings"]
    assert st["pending"] == ["chapter", "player", "team"] and len(st["tied"]["team"]) == 2
    assert [x["place"] for x in st["teams"][:2]] == ["1=", "1="]
    assert org.get(base + "/manage")["tie_break"] == "high-card"
    # refused: without the organiser's session, a play-off winner, no seed, a bad kind
    for who, body, code, words in [
            (Http(server), {"kind": "team", "seed": 77}, 401, "password"),
            (org, {"kind": "team", "winner": st["tied"]["team"][0]}, 400, "high-card draw"),
            (org, {"kind": "team"}, 400, "seed"),
            (org, {"kind": "team", "seed": "seventy"}, 400, "whole number"),
            (org, {"kind": "table", "seed": 77}, 400, "team, player or chapter")]:
        status, data, _ = who.request("POST", base + "/tiebreak", body)
        assert status == code and words in data["error"], (body, status, data)
    store = ClubStore(sqlite_url)
    try:
        event = store.load("High card night")
    finally:
        store.close()
    assert event.tie_breaks == []
    want = high_card_draw(event, "team", 77)  # the club's own draw, the same seed
    got = org.post(base + "/tiebreak", {"kind": "team", "seed": 77})
    assert got["method"] == "high-card" and got["seed"] == 77
    assert got["detail"] == list(want.detail) and "drew" in got["detail"][0]
    assert got["winner"] == event.team_name(tuple(int(x) for x in want.winner[1:].split("-")))
    assert got["winner"] in got["message"]
    public = Http(server).get(base)["standings"]
    assert public["teams"][0]["name"] == got["winner"] and public["teams"][0]["place"] == "1"
    assert "won the tie-break (high-card draw)" in public["teams"][0]["note"]
    assert public["teams"][1]["place"] == "2" and public["pending"] == ["chapter", "player"]
    assert public["tie_breaks"] == [{"kind": "team", "method": "high-card", "seed": 77,
                                     "winner": got["winner"], "detail": got["detail"],
                                     "in_effect": True}]
    # a tie is broken once
    status, data, _ = org.request("POST", base + "/tiebreak", {"kind": "team", "seed": 78})
    assert status == 400 and "already broken" in data["error"]
    store = ClubStore(sqlite_url)
    try:
        assert len(store.load("High card night").tie_breaks) == 1
    finally:
        store.close()
    # the printed results show the cards drawn
    status, _, text = org.request("GET", f"/events/{key}/print/results")
    assert status == 200 and html.escape(got["detail"][0]) in text


def test_breaking_a_tie_by_a_playoff_or_not_at_all(server: ServerProcess) -> None:
    org = Http(server)
    key = tied_event(org, "Play-off night", "playoff-hand")
    base = f"/api/events/{key}"
    hand = form_hand(None, ["KH KD KS KC KH KD KS\nAH AD AC", "QH QD QS"], ["8H 4C", "9S"])
    org.post(base + "/paper", {"round": 1, "table": 2, "hands": [hand], "save": True})
    st = org.get(base + "/manage")["standings"]
    tied = st["tied"]["team"]
    status, data, _ = org.request("POST", base + "/tiebreak", {"kind": "team",
                                                               "winner": "Nobody"})
    assert status == 400 and "not among those tied" in data["error"]
    status, data, _ = org.request("POST", base + "/tiebreak", {"kind": "team"})
    assert status == 400 and "winner of the play-off" in data["error"]
    got = org.post(base + "/tiebreak", {"kind": "team", "winner": tied[1].upper()})
    assert got["method"] == "playoff" and got["winner"] == tied[1]
    st = org.get(base + "/manage")["standings"]
    assert st["teams"][0]["name"] == tied[1] and "(play-off)" in st["teams"][0]["note"]
    # "or high card draw if time dictates": the players' tie by a draw
    got = org.post(base + "/tiebreak", {"kind": "player", "seed": 5})
    assert got["method"] == "high-card" and got["winner"] in st["tied"]["player"]
    st = org.get(base + "/manage")["standings"]
    assert st["pending"] == ["chapter"] and st["players"][0]["name"] == got["winner"]
    # rules without a tie-break: first place is shared
    key = tied_event(org, "Shared night", "none")
    base = f"/api/events/{key}"
    org.post(base + "/paper", {"round": 1, "table": 2, "hands": [hand], "save": True})
    st = org.get(base + "/manage")["standings"]
    assert st["pending"] == [] and [x["place"] for x in st["teams"][:2]] == ["1=", "1="]
    status, data, _ = org.request("POST", base + "/tiebreak", {"kind": "team", "seed": 1})
    assert status == 400 and "first place is shared" in data["error"]


# ------------------------------------------------------------ calling time


@pytest.mark.parametrize("when", ["end-hand", "finish-hand"])
def test_calling_time_for_a_round(sqlite_url: str, when: str) -> None:
    """The round's clock (a minute lasts 0.5 s here): the warning is pushed to the
    players at the tables, then time is called as the rule set says."""
    with ServerProcess(sqlite_url, bot_delay=0.03, minute=0.5) as server:
        org = Http(server)
        rules = "alabama-samboree"
        if when == "finish-hand":
            org.post("/api/rule-sets/check", {
                "base": rules, "name": "Samboree, hand finished",
                "toml": '[game]\nwhen_time_is_called = "finish-hand"\n'})
            rules = "Samboree, hand finished"
        key = create_event(org, f"Timed {when}", rules, players=8, time_limit=6,
                           warning=3)
        base = f"/api/events/{key}"
        org.post(base + "/draw", {"round": 1, "seed": 11})
        invites = []
        for t in (1, 2):
            out = org.post(base + "/online", {"round": 1, "table": t,
                                              "computer": [1, 2, 3] if t == 1 else [0, 1, 2, 3],
                                              "level": "random"})
            invites.append(out)
        # the person at table 1, seat 1, hands their seat to the computer but stays
        person = server.client(invites[0]["table_id"], invites[0]["invites"][0]["token"])
        person.send({"type": "computer", "on": True})
        watcher = server.client(invites[1]["table_id"])
        clock = org.post(base + "/clock", {"round": 1, "do": "start"})["clock"]
        assert clock["started"] and clock["ends_at"] and not clock["called"]
        warned = person.wait(lambda m: m["type"] == "notice", timeout=10)
        assert "3 minutes left" in warned["message"]
        assert "3 minutes left" in watcher.wait(lambda m: m["type"] == "notice")["message"]
        called = person.wait(lambda m: m["type"] == "state" and m["time_called"], timeout=10)
        assert "Time is called" in called["notice"]
        info = wait_for(lambda: all(
            t["result"] for t in org.get(base + "/manage")["rounds_info"][0]["tables"])
            and org.get(base + "/manage")["rounds_info"][0], 30, "the results")
        assert info["clock"]["called"]
        for t, out in zip(info["tables"], invites, strict=True):
            assert t["result"]["time_called"] and t["result"]["source"] == "online"
            status, _, text = Http(server).request("GET",
                                                   f"/api/tables/{out['table_id']}/record")
            assert status == 200
            record = json.loads(text)
            assert replay(record).ok and record["result"]["time_called_at"]
            called_hand, _ = record["result"]["time_called_at"]
            assert len(record["hands"]) == called_hand  # no new hand after time
            last = record["hands"][-1]["result"]
            if when == "end-hand":
                assert last["ended_by"] == "time"
            else:
                assert last["ended_by"] in ("out", "stock")
            assert t["result"]["totals"] == record["result"]["totals"]
        person.close()
        watcher.close()
        # calling time again changes nothing
        assert "at 0 table(s)" in org.post(base + "/clock", {"round": 1, "do": "call"})[
            "message"]


def test_time_called_survives_a_restart(db_url: str) -> None:
    """Calling time is kept beside the log: after kill -9 the game is rebuilt with time
    called at the same point (in SQLite and in PostgreSQL)."""
    server = ServerProcess(db_url, bot_delay=0.2).start()
    try:
        org = Http(server)
        org.post("/api/rule-sets/check", {"base": "six-deck", "name": "six, finish",
                                          "toml": '[game]\nwhen_time_is_called = '
                                                  '"finish-hand"\n'})
        key = create_event(org, "Restart night", "six, finish", players=4)
        base = f"/api/events/{key}"
        org.post(base + "/draw", {"round": 1, "seed": 2})
        out = org.post(base + "/online", {"round": 1, "table": 1, "computer": [0, 1, 2, 3],
                                          "level": "random"})
        tid = out["table_id"]
        wait_for(lambda: Http(server).get(f"/api/tables/{tid}")["seq"] > 3, 20, "play")
        assert "at 1 table(s)" in org.post(base + "/clock", {"round": 1, "do": "call"})[
            "message"]
        server.kill()
        server = ServerProcess(db_url, bot_delay=0.0, port=server.port).start()
        org.server = server
        wait_for(lambda: org.get(base + "/manage")["rounds_info"][0]["tables"][0]["result"],
                 60, "the result after the restart")
        status, _, text = Http(server).request("GET", f"/api/tables/{tid}/record")
        assert status == 200
        record = json.loads(text)
        assert replay(record).ok
        assert len(record["hands"]) == record["result"]["time_called_at"][0] == 1
    finally:
        server.stop()


def test_a_result_missed_by_a_crash_comes_in_on_restart(db_url: str) -> None:
    """A game that ended without its result reaching the event (the server stopped in
    between) is collected when the server starts again (in SQLite and in PostgreSQL)."""
    with ServerProcess(db_url, bot_delay=0.0) as server:
        org = Http(server)
        key = create_event(org, "Crash night", "texas-good-sam", players=4)
        base = f"/api/events/{key}"
        org.post(base + "/draw", {"round": 1, "seed": 9})
        out = org.post(base + "/online", {"round": 1, "table": 1, "computer": [0, 1, 2, 3],
                                          "level": "heuristic"})
        first = wait_for(lambda: org.get(base + "/manage")["rounds_info"][0]["tables"][0][
            "result"], 30, "the result")
    store = ClubStore(db_url)
    with store.engine.begin() as c:
        c.exec_driver_sql("delete from club_results")
    store.close()
    with ServerProcess(db_url, bot_delay=0.0) as server:
        org.server = server
        info = org.get(base + "/manage")["rounds_info"][0]["tables"][0]
        assert info["result"] == first
        assert info["online"]["table_id"] == out["table_id"] and info["online"]["over"]


def test_a_paper_table_entered_by_totals_as_the_printed_sheet_asks(
        server: ServerProcess) -> None:
    """Alabama Samboree's "One person at each table will keep score for entire table":
    the scorer's totals (books of each kind, card points on the table, points of cards
    left, 3s) give the same result as the same table entered meld by meld; the form
    names the books in the sheet's words; a total that cannot be is refused, naming it;
    the sheets come back as entered to be corrected."""
    org = Http(server)
    base, hands = paper_round(org, "Totals night")
    form = org.get(base + "/manage")["form"]
    labels = [x["label"] for x in form["totals"]]
    assert labels[:2] == ["Red books", "Black books"]  # the Samboree's words
    assert "Wild-card books" not in labels and "Sambas" not in labels
    assert "Card points on the table" in labels
    by_melds = org.post(base + "/paper", {"round": 1, "table": 1, "hands": hands,
                                          "time_called": True})
    # Alabama: K-10 count 10, 9-4 count 5, A 20. Hand 1: team 1 has a red book of kings
    # (70) and three aces (60); 8H 4C left (10). Team 2: three queens (30); 9S in hand,
    # 5C 6C in a foot (15). Hand 2: team 1 a black book of six 7s and a 2 (50), nothing
    # left; team 2 a red book of jacks (70) and three 5s (15), KS and 5C 6C left (20).
    totals = [
        [{"clean_books": 1, "table_cards": 130, "cards_left": 10}, {"table_cards": 30,
                                                                   "cards_left": 15}],
        [{"dirty_books": 1, "table_cards": 50}, {"clean_books": 1, "table_cards": 85,
                                                 "cards_left": 20}],
    ]
    by_totals = json.loads(json.dumps(hands))
    for h, hand in enumerate(by_totals):
        for k, team in enumerate(hand["teams"]):
            team.update(entry="totals", totals=totals[h][k], melds="",
                        players=[{"hand": "", "foot": ""}] * 2)
    shown = org.post(base + "/paper", {"round": 1, "table": 1, "hands": by_totals,
                                       "time_called": True})
    assert shown["hands"] == by_melds["hands"] and shown["totals"] == by_melds["totals"]
    assert shown["scores"] == by_melds["scores"]
    # one team by totals, the other meld by meld, on one sheet
    mixed = json.loads(json.dumps(hands))
    mixed[0]["teams"][0] = by_totals[0]["teams"][0]
    assert org.post(base + "/paper", {"round": 1, "table": 1, "hands": mixed,
                                      "time_called": True})["totals"] == by_melds["totals"]
    # card points that are not a sum of card values are refused, naming the line
    bad = json.loads(json.dumps(by_totals))
    bad[0]["teams"][1]["totals"]["table_cards"] = 33
    status, data, _ = org.request("POST", base + "/paper", {"round": 1, "table": 1,
                                                            "hands": bad, "save": True,
                                                            "time_called": True})
    assert status == 400 and "sheet 1" in data["error"] and "table_cards = 33" in data["error"]
    assert org.get(base + "/manage")["rounds_info"][0]["tables"][0]["result"] is None
    # saved, then opened again to correct: each team as it was entered
    saved = org.post(base + "/paper", {"round": 1, "table": 1, "hands": mixed,
                                       "time_called": True, "save": True})
    got = org.get(base + "/paper?round=1&table=1")
    assert got["totals"] == saved["totals"]
    first = got["hands"][0]["teams"]
    assert first[0]["entry"] == "totals" and first[1]["entry"] == "melds"
    assert first[0]["totals"]["table_cards"] == 130 and first[0]["totals"]["clean_books"] == 1
    assert first[0]["exact_deals"] == 1 and first[1]["melds"] == "QH QD QS"
    again = org.post(base + "/paper", {"round": 1, "table": 1, "hands": got["hands"],
                                       "time_called": True})
    assert again["totals"] == saved["totals"]
