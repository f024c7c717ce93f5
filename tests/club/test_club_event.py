"""A whole club event (issue 6): 24 players, three rounds, every table played by
computer players; standings checked against the games' own records. Paper score
entry for every preset against ``handfoot score``; tie-breaks; storage."""

from __future__ import annotations

import copy
import json
import tomllib
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from club_events import register, store_event, tied_event
from handfoot.cli import main
from handfoot.club.draw import check_draw, draw_round
from handfoot.club.event import Event, EventError, TableResult
from handfoot.club.results import (
    play_table,
    result_from_game,
    result_from_record,
    result_from_sheets,
)
from handfoot.club.standings import high_card_draw, record_playoff, standings
from handfoot.club.store import ClubStore, verify_password
from handfoot.game.records import replay

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "score"




def run_event(store: ClubStore, ev: Event, bots: list[str], minutes_per_turn: float = 0.0
              ) -> list[dict[str, Any]]:
    """Draw every round, let computer players play every table, store each result
    from its game record; the records, as the games wrote them."""
    records = []
    for r in range(1, ev.rounds + 1):
        draw = draw_round(ev, r, seed=1000 + r)
        assert check_draw(ev, draw) == []
        store.save_draw(ev, draw)
        for table in draw.tables:
            game = play_table(ev, r, table.number, bots, seed=r * 100 + table.number,
                              minutes_per_turn=minutes_per_turn)
            record = result_from_game(ev, r, table.number, game).detail["record"]
            record = json.loads(json.dumps(record))  # as a file would hold it
            store.add_result(ev, result_from_record(ev, r, table.number, record))
            records.append(record)
    return records


def expected_from_records(records: list[dict[str, Any]], ev: Event
                          ) -> tuple[dict[frozenset[str], int], dict[str, int]]:
    """Team and player points worked out from the records alone (names at seats,
    the game's totals; seat s plays for team s % teams)."""
    teams: dict[frozenset[str], int] = defaultdict(int)
    players: dict[str, int] = defaultdict(int)
    for rec in records:
        n_teams = rec["rules"]["players"]["teams"]
        names = rec["players"]
        totals = rec["result"]["totals"]
        for t in range(n_teams):
            members = names[t::n_teams]
            if len(members) > 1:
                teams[frozenset(members)] += totals[t]
            for m in members:
                players[m] += totals[t]
    return teams, players


@pytest.mark.parametrize(("rules", "policy", "bots", "clock"), [
    ("alabama-samboree", "redraw", ["random"], 1.0),
    ("texas-good-sam", "keep", ["heuristic"], 0.0),
])
def test_a_whole_event_of_24_players(tmp_path: Path, rules: str, policy: str,
                                     bots: list[str], clock: float) -> None:
    url = f"sqlite:///{tmp_path / 'club.db'}"
    store = ClubStore(url)
    ev = Event.create("Spring tournament", rules, rounds=3, partner_policy=policy,
                      avoid_same_chapter=True)
    register(ev, 24)
    store.create(ev, "monitor")
    store.save_settings(ev)
    records = run_event(store, ev, bots, clock)
    assert len(records) == 18
    assert all(rec["result"]["complete"] for rec in records)
    if clock:  # the Samboree's 1½ hours: time was called at some tables
        assert any(h["result"]["ended_by"] == "time" for rec in records for h in rec["hands"])
    else:
        assert all(replay(rec).ok for rec in records)
    store.close()

    # a restart: everything comes back from the database
    store = ClubStore(url)
    again = store.load("Spring tournament")
    assert again.draws == ev.draws and again.results == ev.results
    assert again.players == ev.players
    table = standings(again)
    assert table.complete
    teams, players = expected_from_records(records, again)
    assert {frozenset(again.name_of(m) for m in x.members): x.points
            for x in table.teams} == teams
    assert {x.name: x.points for x in table.players} == players
    if policy == "keep":
        assert all(x.games == 3 for x in table.teams) and len(table.teams) == 12
    else:
        assert len(table.teams) == 36
    # chapters: the average of their players' points
    for line in table.chapters:
        members = [again.player(m).name for m in line.members]
        assert len(members) == 6
        assert line.points == round(sum(players[m] for m in members) / 6, 1)
    # places: by points, best first
    points = [x.points for x in table.players]
    assert points == sorted(points, reverse=True)
    assert table.players[0].place == 1
    store.close()


# -------------------------------------------------------------- paper sheets


def sheets_for(example: Path, hands: int) -> list[dict[str, Any]]:
    text = example.read_text("utf-8")
    data = json.loads(text) if example.suffix == ".json" else tomllib.loads(text)
    out = []
    for h in range(hands):
        sheet = copy.deepcopy(data)
        sheet["hand"] = h + 1
        out.append(sheet)
    return out


def handfoot_score(example: Path, capsys: pytest.CaptureFixture[str]) -> list[int]:
    assert main(["score", str(example), "--json"]) == 0
    return [t["total"] for t in json.loads(capsys.readouterr().out)["teams"]]


@pytest.mark.parametrize("example", sorted(EXAMPLES.iterdir()), ids=lambda p: p.name)
def test_paper_totals_match_handfoot_score(example: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    totals = handfoot_score(example, capsys)
    first = sheets_for(example, 1)[0]
    rules = str(first["variant"])
    if "rules" in first:  # house rules: the event is created with them
        from handfoot.rules import Rules, preset
        rules = Rules.from_dict(first["rules"], preset(rules)).to_toml()
    ev = Event.create("Paper", rules, rounds=1)
    register(ev, 8)
    ev.draws[1] = draw_round(ev, 1, 3)
    hands = ev.rules.game.hands
    result = result_from_sheets(ev, 1, 2, sheets_for(example, hands))
    assert result.hands == tuple(tuple(totals) for _ in range(hands))
    assert result.totals == tuple(t * hands for t in totals)
    assert result.source == "paper" and not result.time_called
    # without the variant the table's rules are used
    bare = sheets_for(example, hands)
    for sheet in bare:
        sheet.pop("variant")
        sheet.pop("rules", None)
    assert result_from_sheets(ev, 1, 2, bare).totals == result.totals
    # time called after the first hand
    if hands > 1:
        short = result_from_sheets(ev, 1, 1, sheets_for(example, 1), time_called=True)
        assert short.time_called and short.totals == tuple(totals)


def test_paper_sheets_refused_with_reasons() -> None:
    ev = Event.create("Paper", "alabama-samboree", rounds=1)
    register(ev, 8)
    ev.draws[1] = draw_round(ev, 1, 3)
    sheets = sheets_for(EXAMPLES / "alabama-samboree.toml", 3)
    with pytest.raises(EventError, match=r"1 sheet.* for a game of 3 hands.*--time-called"):
        result_from_sheets(ev, 1, 1, sheets[:1])
    wrong = sheets_for(EXAMPLES / "texas-good-sam.toml", 3)
    with pytest.raises(EventError, match="sheet 1: it is for texas-good-sam rules"):
        result_from_sheets(ev, 1, 1, wrong)
    sheets[1]["hand"] = 3
    with pytest.raises(EventError, match="sheet 2: it says hand 3"):
        result_from_sheets(ev, 1, 1, sheets)
    bad = sheets_for(EXAMPLES / "alabama-samboree.toml", 3)
    bad[2]["teams"][0]["melds"].append("QH QD 2C 2D")
    with pytest.raises(EventError, match="table 1, sheet 3: team 0"):
        result_from_sheets(ev, 1, 1, bad)
    with pytest.raises(EventError, match="round 2 has not been drawn"):
        result_from_sheets(ev, 2, 1, sheets)
    with pytest.raises(EventError, match="no table 9"):
        result_from_sheets(ev, 1, 9, sheets)


def test_a_corrected_result_replaces_the_first() -> None:
    ev = Event.create("x", "texas-good-sam")
    register(ev, 8)
    ev.draws[1] = draw_round(ev, 1, 1)
    ev.results.append(TableResult(1, 1, "paper", ((10, 20),), (10, 20)))
    ev.results.append(TableResult(1, 1, "paper", ((30, 20),), (30, 20)))
    assert ev.result(1, 1) is not None and ev.result(1, 1).totals == (30, 20)  # type: ignore
    assert ev.missing_results() == [(1, 2)]
    assert not standings(ev).complete


# ---------------------------------------------------------------- tie-breaks






def test_high_card_draw_breaks_a_tie_seeded_and_recorded(tmp_path: Path) -> None:
    ev = tied_event("high-card")
    store = ClubStore(f"sqlite:///{tmp_path / 'c.db'}")
    store_event(store, ev)
    table = standings(ev)
    assert [x.place_text for x in table.teams[:2]] == ["1=", "1="]
    assert {"team", "player"} <= set(table.pending)
    tb = high_card_draw(ev, "team", seed=77)
    assert tb == high_card_draw(ev, "team", seed=77)  # repeatable
    assert tb.winner in tb.tied and tb.detail and "drew" in tb.detail[0]
    store.add_tie_break(ev, tb)
    again = store.load("Tied")
    assert again.tie_breaks == [tb]
    table = standings(ev)
    first = table.teams[0]
    assert first.key == tb.winner and first.place_text == "1" and "tie-break" in first.note
    assert table.teams[1].place_text == "2"
    assert "team" not in table.pending


def test_playoff_entered_by_the_organiser() -> None:
    ev = tied_event("playoff-hand")
    lines = standings(ev).teams
    winner = lines[1].name
    with pytest.raises(EventError, match="not among those tied"):
        record_playoff(ev, "team", "Nobody")
    ev.tie_breaks.append(record_playoff(ev, "team", winner))
    assert standings(ev).teams[0].name == winner


def test_no_tie_break_shares_first_place() -> None:
    ev = tied_event("none")
    table = standings(ev)
    assert [x.place_text for x in table.teams[:2]] == ["1=", "1="] and not table.pending
    with pytest.raises(EventError, match="standings are by team, player, chapter"):
        high_card_draw(ev, "table", 1)
    ev.results.append(TableResult(1, 2, "paper", ((100, 400),), (100, 400)))
    with pytest.raises(EventError, match="no tie for first place in the team"):
        high_card_draw(ev, "team", 1)


# ------------------------------------------------------------------- storage


def test_store_password_and_draw_rules(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    store = ClubStore(url)
    ev = Event.create("Evening", "classic", rounds=2)
    register(ev, 8)
    store.create(ev, "open sesame")
    with pytest.raises(EventError, match="already an event called"):
        store.create(ev, "other")
    with pytest.raises(EventError, match="at least 4"):
        store.create(Event.create("Other", "classic"), "x")
    assert store.check_password("Evening", "open sesame")
    assert not store.check_password("Evening", "open sesame!")
    assert not store.check_password("Nope", "open sesame")
    assert not verify_password("x", "garbage")
    store.save_settings(ev)
    d1 = draw_round(ev, 1, 1)
    store.save_draw(ev, d1)
    store.save_draw(ev, draw_round(ev, 1, 2))  # drawn again before any result
    store.add_result(ev, TableResult(1, 1, "paper", ((1, 2),), (1, 2)))
    with pytest.raises(EventError, match="already has results"):
        store.save_draw(ev, d1)
    store.close()
    again = ClubStore(url).load("Evening")
    assert again.draws[1].seed == 2 and len(again.results) == 1
    with pytest.raises(EventError, match="no event called 'Nope'; the events are Evening"):
        ClubStore(url).load("Nope")


def test_events_live_beside_the_servers_tables(db_url: str) -> None:
    """The same database as the game server (SQLite, and PostgreSQL where one runs):
    the club's tables beside the server's, both surviving a reopening."""
    from handfoot.server.storage.store import Store
    server = Store(db_url)
    tid = server.create_table("classic", "x = 1", 7, [{"kind": "human"}])
    store = ClubStore(db_url)
    ev = Event.create("Beside", "classic", rounds=1)
    register(ev, 8)
    store.create(ev, "pass word")
    store.save_settings(ev)
    store.save_draw(ev, draw_round(ev, 1, 5))
    store.add_result(ev, TableResult(1, 2, "paper", ((5, 6),), (5, 6)))
    tb_ev = store.load("Beside")
    server.close()
    store.close()
    again = ClubStore(db_url).load("Beside")
    assert again.players == tb_ev.players and again.draws == tb_ev.draws
    assert again.results == [TableResult(1, 2, "paper", ((5, 6),), (5, 6))]
    assert Store(db_url).table(tid) is not None


def test_byes_are_credited_with_the_players_average() -> None:
    ev = Event.create("Byes", "texas-good-sam", rounds=2)
    register(ev, 10)  # 2 byes a round
    for r in (1, 2):
        ev.draws[r] = draw_round(ev, r, r)
        for t in ev.draws[r].tables:
            ev.results.append(TableResult(r, t.number, "paper", ((100 * r, 50),), (100 * r, 50)))
    lines = {x.name: x for x in standings(ev).players}
    sat_out = [ev.name_of(p) for r in (1, 2) for p in ev.draws[r].byes]
    assert len(set(sat_out)) == 4
    for name in sat_out:
        x = lines[name]
        assert x.byes == 1 and x.games == 1
        played = x.points - x.bye_credit
        assert x.bye_credit == played  # one game played, one bye: credited its score
