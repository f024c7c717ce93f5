"""Club events: players and their CSV, and the draw (issue 6).

The draw, over many seeds, never breaks a restriction and is repeatable by its seed;
restrictions that cannot all be met give a message naming the players."""

from __future__ import annotations

import itertools
import random

import pytest

from handfoot.club.draw import DrawError, check_draw, draw_round
from handfoot.club.event import Event, EventError, players_csv, read_players_csv


def club(n: int, *, rules: str = "texas-good-sam", rounds: int = 3, chapters: int = 5,
         same_chapter: bool = False, couples: bool = True, **kw: str) -> Event:
    """``n`` players in ``chapters`` chapters; players 0-1, 2-3, ... are couples."""
    ev = Event.create("Club night", rules, rounds=rounds, avoid_same_chapter=same_chapter,
                      **kw)  # type: ignore[arg-type]
    for i in range(n):
        spouse = [f"Player {i + 1}"] if couples and i % 2 == 0 and i + 1 < n else []
        ev.add_player(f"Player {i}", f"Chapter {i % chapters}", spouse)
    return ev


def run_rounds(ev: Event, seed: int) -> None:
    for r in range(1, ev.rounds + 1):
        d = draw_round(ev, r, seed * 10 + r)
        assert check_draw(ev, d) == [], (seed, r)
        ev.draws[r] = d


@pytest.mark.parametrize("n", [8, 13, 24, 27, 60])
def test_many_seeds_never_break_a_restriction(n: int) -> None:
    for seed in range(25 if n < 60 else 8):
        for policy in ("redraw", "keep"):
            ev = club(n, same_chapter=True, partner_policy=policy,
                      odd_players="individuals" if seed % 2 else "bye")
            run_rounds(ev, seed)
            # couples never partner, chapters never partner
            bad = ev.forbidden_pairs()
            for d in ev.draws.values():
                for t in d.tables:
                    if t.individuals:
                        continue
                    for team in t.team_list():
                        assert frozenset(team) not in bad
                        assert len({ev.player(p).chapter for p in team}) == len(team)


def test_random_restrictions_over_many_seeds() -> None:
    rng = random.Random(4)
    for seed in range(60):
        n = rng.choice([8, 12, 16, 20, 24, 32])
        ev = Event.create("x", "six-deck", rounds=2)
        for i in range(n):
            others = rng.sample([f"P{j}" for j in range(n) if j != i], rng.randint(0, 3))
            ev.add_player(f"P{i}", "", others)
        try:
            run_rounds(ev, seed)
        except DrawError as e:
            assert e.players, str(e)


def test_same_seed_same_draw_and_seeds_differ() -> None:
    ev = club(24)
    a, b = draw_round(ev, 1, 42), draw_round(ev, 1, 42)
    assert a == b
    others = {draw_round(ev, 1, s).tables for s in range(20)}
    assert len(others) == 20


def test_the_draw_is_uniform_enough() -> None:
    """With no restrictions, each player partners each other about equally often."""
    ev = club(8, couples=False)
    counts: dict[frozenset[int], int] = {}
    for seed in range(700):
        for team in draw_round(ev, 1, seed).teams():
            key = frozenset(team)
            counts[key] = counts.get(key, 0) + 1
    assert len(counts) == 28  # every pair of the 8 happened
    assert max(counts.values()) < 2.5 * min(counts.values())


def test_later_rounds_avoid_repeat_partners_and_opponents() -> None:
    ev = club(24, couples=False)
    run_rounds(ev, 3)
    pairs = [frozenset(t) for d in ev.draws.values() for t in d.teams()]
    assert len(pairs) == len(set(pairs))
    assert all(not d.notes for d in ev.draws.values())


def test_keep_partners_moves_teams_between_tables() -> None:
    ev = club(16, partner_policy="keep")
    run_rounds(ev, 5)
    teams = [sorted(map(sorted, d.teams())) for d in ev.draws.values()]
    assert teams[0] == teams[1] == teams[2]
    opponents = [{frozenset(t.team_list()) for t in d.tables} for d in ev.draws.values()]
    assert not opponents[0] & opponents[1]


def test_partner_policy_round_by_round() -> None:
    ev = club(16, rounds=4, partner_policy="keep, redraw,keep")
    assert [ev.policy_for(r) for r in (1, 2, 3, 4)] == ["redraw", "keep", "redraw", "keep"]
    run_rounds(ev, 2)
    teams = [sorted(map(sorted, d.teams())) for d in ev.draws.values()]
    assert teams[0] == teams[1] != teams[2] == teams[3]
    assert not {frozenset(t) for t in teams[0]} & {frozenset(t) for t in teams[2]}
    for bad in ("keep,keep,keep,keep", "keep,swap,keep"):
        with pytest.raises(EventError, match="for each of rounds 2 to 4"):
            club(8, rounds=4, partner_policy=bad)


def test_byes_rotate_fairly() -> None:
    ev = club(26, rounds=6, couples=False)  # 2 left over each round
    run_rounds(ev, 1)
    byes = [p for d in ev.draws.values() for p in d.byes]
    assert len(byes) == 12 and len(set(byes)) == 12  # nobody sits out twice


def test_individuals_tables() -> None:
    for n, size in ((26, 2), (27, 3), (25, 5)):
        ev = club(n, odd_players="individuals", rounds=1)
        d = draw_round(ev, 1, 1)
        ind = [t for t in d.tables if t.individuals]
        assert len(ind) == 1 and len(ind[0].seats) == size and ind[0].teams == size
        assert not d.byes and check_draw(ev, d) == []
        assert ev.table_rules(ind[0]).individuals


def test_six_seats_two_teams_of_three() -> None:
    ev = club(24, rules="classic", seats=6, same_chapter=True)  # type: ignore[arg-type]
    assert ev.rules.players.seats == 6
    run_rounds(ev, 2)
    assert all(len(team) == 3 for d in ev.draws.values() for team in d.teams())


def test_impossible_restrictions_name_the_players() -> None:
    ev = Event.create("x", "texas-good-sam")
    ev.add_player("Ann", "", ["Bob", "Cy", "Di"])
    for n in ("Bob", "Cy", "Di"):
        ev.add_player(n)
    with pytest.raises(DrawError, match=r"Ann .*may partner nobody") as e:
        draw_round(ev, 1, 1)
    assert e.value.players == ("Ann",)

    ev = Event.create("x", "texas-good-sam")
    ev.add_player("A", "", ["B", "D"])
    ev.add_player("B", "", ["D"])
    ev.add_player("C")
    ev.add_player("D")
    with pytest.raises(DrawError, match=r"A .*may partner only C; B .*may partner only C") as e:
        draw_round(ev, 1, 1)
    assert {"A", "B"} <= set(e.value.players)


def test_too_many_of_one_chapter() -> None:
    ev = Event.create("x", "texas-good-sam", avoid_same_chapter=True)
    for i in range(8):
        ev.add_player(f"P{i}", "Dallas" if i < 5 else "Waco")
    with pytest.raises(DrawError, match="chapter Dallas has 5 of the 8 players"):
        draw_round(ev, 1, 1)


def test_rounds_in_order() -> None:
    ev = club(8)
    with pytest.raises(EventError, match="draw round 1 first"):
        draw_round(ev, 2, 1)
    with pytest.raises(EventError, match="rounds 1 to 3"):
        draw_round(ev, 4, 1)


# ---------------------------------------------------------------------- CSV


def test_csv_round_trip() -> None:
    ev = club(10)
    text = players_csv(ev.players)
    assert text.splitlines()[0] == "name,chapter,not_partner_with"
    assert read_players_csv(text) == ev.players
    assert "Player 0,Chapter 0,Player 1" in text


def test_csv_with_several_names_spaces_and_bom() -> None:
    text = "\ufeffname,chapter,not_partner_with\n Anne  Lee ,Waco,Bob; Cy\nBob,,\nCy,Waco,\n\n"
    players = read_players_csv(text)
    assert [p.name for p in players] == ["Anne Lee", "Bob", "Cy"]
    assert players[0].not_partners == ("Bob", "Cy")
    assert read_players_csv("name\nA\nB\n")[1].name == "B"


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty"),
    ("nom,club\nA,B\n", "line 1: the header"),
    ("name,chapter\nA,x\n,y\n", "line 3: the name is empty"),
    ("name,chapter\nA,x\nB,y\na,z\n", "line 4: a is already on line 2"),
    ("name,chapter,not_partner_with\nA,x,Bobby\nBob,y,\n",
     "line 2: A may not partner 'Bobby', but nobody of that name"),
    ("name,chapter,not_partner_with\nA,x,A\n", "line 2: A may not be their own partner"),
    ("name,chapter,not_partner_with\nA,x,B,C\nB,,\n", "line 2: 4 columns"),
])
def test_bad_csv_lines(text: str, message: str) -> None:
    with pytest.raises(EventError, match=message):
        read_players_csv(text)


def test_event_settings() -> None:
    ev = Event.create("Samboree", "alabama-samboree", rounds=3)
    assert (ev.time_limit_minutes, ev.time_warning_minutes) == (90, 15)
    ev = Event.create("Quick", "alabama-samboree", time_limit_minutes=60,
                      time_warning_minutes=10)
    assert ev.rules.game.time_limit_minutes == 60
    for bad in ({"rounds": 0}, {"partner_policy": "swap"}, {"odd_players": "sit"},
                {"time_limit_minutes": 10, "time_warning_minutes": 15}):
        with pytest.raises(EventError):
            Event.create("x", "classic", **bad)
    with pytest.raises(EventError, match="rules: there is no preset"):
        Event.create("x", "gin-rummy")
    house = 'extends = "six-deck"\n[scores]\ngoing_out = 500\n'
    assert Event.create("x", house).rules.scores.going_out == 500
    ev = club(4)
    with pytest.raises(EventError, match="already registered"):
        ev.add_player("player 1")
    assert list(itertools.chain(*ev.forbidden_pairs())) != []


def test_a_big_impossible_draw_is_refused_at_once() -> None:
    """Over 60 players, most of one chapter, chapters apart: said without a long search."""
    ev = Event.create("x", "texas-good-sam", avoid_same_chapter=True)
    for i in range(61):
        ev.add_player(f"P{i}", "Big" if i < 31 else f"C{i % 5}")
    # 61 players: one bye; whoever sits out, 30 or 31 Big members are left for 30 teams
    d = draw_round(ev, 1, 1)
    assert check_draw(ev, d) == [] and len(d.byes) == 1
    assert ev.player(d.byes[0]).chapter == "Big"
    for i in (61, 62, 63):  # 64 players, no byes, 32 teams
        ev.add_player(f"P{i}", "Big")
    with pytest.raises(DrawError, match="chapter Big has 34 of the 64 players"):
        draw_round(ev, 1, 1)
