"""An event: its rule set, rounds, clock and policies, its players, and what happened.

Players are registered by name (unique, case does not matter), with a chapter or club
and the names of those who may not be their partner (spouses, good friends). The list
is read from and written to CSV with the header ``name,chapter,not_partner_with``, the
names in the last column separated by ``;``. A restriction holds both ways.

>>> ev = Event.create("Friday", "texas-good-sam", rounds=2)
>>> ev.add_player("Anne", "Austin", ["Bob"]); ev.add_player("Bob", "Austin")
>>> ev.forbidden_pairs()
{frozenset({1, 2})}
>>> read_players_csv(players_csv(ev.players)) == ev.players
True
"""

from __future__ import annotations

import csv
import dataclasses
import functools
import io
from dataclasses import dataclass, field
from typing import Any

from handfoot.rules import Players, Rules, RulesError, load_rules

PARTNER_POLICIES = ("redraw", "keep")
ODD_POLICIES = ("bye", "individuals")
CSV_HEADER = ("name", "chapter", "not_partner_with")


class EventError(ValueError):
    """An event setting, player list or result that cannot be used; the message says why."""


@dataclass(frozen=True, slots=True)
class Player:
    id: int
    name: str
    chapter: str = ""
    #: names, as registered, of people who may not be this player's partner
    not_partners: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TableAssignment:
    """One table in one round. ``seats[s]`` is the player at seat s; seat s belongs to
    team ``s % teams`` (partners sit across the table, as the engine seats them)."""

    number: int
    seats: tuple[int, ...]
    teams: int
    individuals: bool = False

    def team_members(self, team: int) -> tuple[int, ...]:
        return self.seats[team::self.teams]

    def team_list(self) -> list[tuple[int, ...]]:
        return [self.team_members(t) for t in range(self.teams)]

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "seats": list(self.seats), "teams": self.teams,
                "individuals": self.individuals}

    @staticmethod
    def from_json(d: dict[str, Any]) -> TableAssignment:
        return TableAssignment(int(d["number"]), tuple(int(x) for x in d["seats"]),
                               int(d["teams"]), bool(d.get("individuals", False)))


@dataclass(frozen=True, slots=True)
class RoundDraw:
    """The draw of one round: tables, byes, and notes on what could not be avoided."""

    round: int
    seed: int
    tables: tuple[TableAssignment, ...]
    byes: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()

    def table(self, number: int) -> TableAssignment:
        for t in self.tables:
            if t.number == number:
                return t
        raise EventError(f"round {self.round} has no table {number} "
                         f"(tables 1 to {len(self.tables)})")

    def teams(self) -> list[tuple[int, ...]]:
        return [m for t in self.tables if not t.individuals for m in t.team_list()]

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "seed": self.seed,
                "tables": [t.to_json() for t in self.tables],
                "byes": list(self.byes), "notes": list(self.notes)}

    @staticmethod
    def from_json(d: dict[str, Any]) -> RoundDraw:
        return RoundDraw(int(d["round"]), int(d["seed"]),
                         tuple(TableAssignment.from_json(t) for t in d["tables"]),
                         tuple(int(b) for b in d.get("byes", [])),
                         tuple(str(n) for n in d.get("notes", [])))


@dataclass(frozen=True, slots=True)
class TableResult:
    """A table's result for a round: each team's total (team t: seats t, t+teams, ...),
    hand by hand. ``source`` is "online" (a game record) or "paper" (score sheets)."""

    round: int
    table: int
    source: str
    hands: tuple[tuple[int, ...], ...]  #: per hand, each team's score
    totals: tuple[int, ...]
    time_called: bool = False
    detail: dict[str, Any] = field(default_factory=dict)  #: the record or the sheets

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.table, "source": self.source,
                "hands": [list(h) for h in self.hands], "totals": list(self.totals),
                "time_called": self.time_called, "detail": self.detail}

    @staticmethod
    def from_json(d: dict[str, Any]) -> TableResult:
        return TableResult(int(d["round"]), int(d["table"]), str(d["source"]),
                           tuple(tuple(int(x) for x in h) for h in d["hands"]),
                           tuple(int(x) for x in d["totals"]), bool(d.get("time_called")),
                           dict(d.get("detail") or {}))


@dataclass(frozen=True, slots=True)
class TieBreak:
    """How a tie for first place was broken, kept with the event.

    ``kind`` is "team", "player" or "chapter"; ``tied`` the tied entries' keys;
    ``method`` "high-card" (``detail`` lists each draw) or "playoff" (entered by the
    organiser after a short play-off)."""

    kind: str
    tied: tuple[str, ...]
    method: str
    winner: str
    detail: tuple[str, ...] = ()
    seed: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "tied": list(self.tied), "method": self.method,
                "winner": self.winner, "detail": list(self.detail), "seed": self.seed}

    @staticmethod
    def from_json(d: dict[str, Any]) -> TieBreak:
        return TieBreak(str(d["kind"]), tuple(str(x) for x in d["tied"]), str(d["method"]),
                        str(d["winner"]), tuple(str(x) for x in d.get("detail", [])),
                        None if d.get("seed") is None else int(d["seed"]))


@dataclass(slots=True)
class Event:
    """An evening (or a weekend) of rounds. Build one with :meth:`create`."""

    name: str
    rules_name: str
    rules_toml: str
    rounds: int = 1
    time_limit_minutes: int = 0  #: 0: no clock
    time_warning_minutes: int = 0
    #: how partners are found in rounds after the first: "redraw" (new partners, new
    #: tables) or "keep" (the previous round's teams move between tables); one for all
    #: later rounds, or one for each of rounds 2, 3, ... separated by commas
    partner_policy: str = "redraw"
    #: players left over when the count does not fill the tables: "bye" (they sit out
    #: the round, in turn) or "individuals" (they play a table of individuals)
    odd_players: str = "bye"
    #: also keep players of the same chapter apart as partners
    avoid_same_chapter: bool = False
    players: list[Player] = field(default_factory=list)
    draws: dict[int, RoundDraw] = field(default_factory=dict)
    results: list[TableResult] = field(default_factory=list)  #: append-only; last wins
    tie_breaks: list[TieBreak] = field(default_factory=list)

    # ------------------------------------------------------------- creating
    @staticmethod
    def create(name: str, rules: str | Rules, rounds: int = 1, *, seats: int | None = None,
               time_limit_minutes: int | None = None, time_warning_minutes: int | None = None,
               partner_policy: str = "redraw", odd_players: str = "bye",
               avoid_same_chapter: bool = False) -> Event:
        """``rules``: a preset name, TOML text (house rules, may say ``extends``) or a
        :class:`Rules`. ``seats`` changes the seats per table (6: two teams of three).
        The clock comes from the rule set unless given here."""
        if not name.strip():
            raise EventError("an event needs a name")
        try:
            r = rules if isinstance(rules, Rules) else load_rules(rules)
            if seats is not None and seats != r.players.seats:
                r = dataclasses.replace(r, players=Players(seats, 2))
        except RulesError as e:
            raise EventError(f"rules: {e}") from e
        if rounds < 1:
            raise EventError("an event has at least one round")
        policies = [x.strip() for x in partner_policy.split(",")]
        if any(x not in PARTNER_POLICIES for x in policies) or \
                len(policies) not in (1, rounds - 1):
            raise EventError(f"partner policy {partner_policy!r}: give one of "
                             f"{', '.join(PARTNER_POLICIES)} for every later round, or one "
                             f"for each of rounds 2 to {rounds}, separated by commas")
        partner_policy = ",".join(policies)
        if odd_players not in ODD_POLICIES:
            raise EventError(f"odd-player policy {odd_players!r} is not one of "
                             f"{', '.join(ODD_POLICIES)}")
        limit = r.game.time_limit_minutes if time_limit_minutes is None else time_limit_minutes
        warning = (r.game.time_warning_minutes if time_warning_minutes is None
                   else time_warning_minutes)
        if limit < 0 or warning < 0 or (warning and warning >= max(limit, 1)):
            raise EventError("the warning must come before the end of the time limit")
        if limit != r.game.time_limit_minutes or warning != r.game.time_warning_minutes:
            r = dataclasses.replace(r, game=dataclasses.replace(
                r.game, time_limit_minutes=limit, time_warning_minutes=warning))
        return Event(name.strip(), r.name, r.to_toml(), rounds, limit, warning,
                     partner_policy, odd_players, avoid_same_chapter)

    def policy_for(self, round_no: int) -> str:
        """How round ``round_no``'s partners are found (round 1: always drawn)."""
        if round_no <= 1:
            return "redraw"
        policies = self.partner_policy.split(",")
        return policies[0] if len(policies) == 1 else policies[min(round_no - 2,
                                                                   len(policies) - 1)]

    @property
    def rules(self) -> Rules:
        return _rules_from_toml(self.rules_toml)

    def table_rules(self, table: TableAssignment) -> Rules:
        """The rules a table plays: the event's, or for a table of individuals the same
        with one team per seat."""
        rules = self.rules
        if table.individuals:
            n = len(table.seats)
            return dataclasses.replace(rules, players=Players(n, n))
        return rules

    # -------------------------------------------------------------- players
    def player(self, pid: int) -> Player:
        for p in self.players:
            if p.id == pid:
                return p
        raise EventError(f"no player number {pid}")

    def by_name(self, name: str) -> Player:
        key = name.strip().casefold()
        for p in self.players:
            if p.name.casefold() == key:
                return p
        raise EventError(f"no player called {name!r}")

    def add_player(self, name: str, chapter: str = "", not_partners: list[str] | None = None
                   ) -> None:
        name = " ".join(name.split())
        if not name:
            raise EventError("a player needs a name")
        if any(p.name.casefold() == name.casefold() for p in self.players):
            raise EventError(f"{name} is already registered")
        pid = max((p.id for p in self.players), default=0) + 1
        self.players.append(Player(pid, name, chapter.strip(),
                                   tuple(" ".join(n.split()) for n in not_partners or ())))

    def set_players(self, players: list[Player]) -> None:
        if any(d for d in self.draws):
            raise EventError("the players cannot be replaced once a round is drawn")
        self.players = list(players)

    def name_of(self, pid: int) -> str:
        return self.player(pid).name

    def team_name(self, members: tuple[int, ...] | list[int]) -> str:
        return " & ".join(self.name_of(m) for m in members)

    def forbidden_pairs(self) -> set[frozenset[int]]:
        """Every pair that may not be partners (both directions of each restriction).
        Names not registered are refused (:func:`check_players`)."""
        out: set[frozenset[int]] = set()
        for p in self.players:
            for other in p.not_partners:
                out.add(frozenset((p.id, self.by_name(other).id)))
        return out

    # -------------------------------------------------------------- results
    def result(self, round_no: int, table: int) -> TableResult | None:
        """The latest result entered for a table (a later entry corrects an earlier)."""
        found = None
        for r in self.results:
            if r.round == round_no and r.table == table:
                found = r
        return found

    def current_results(self) -> list[TableResult]:
        out = []
        for rnd in sorted(self.draws):
            for t in self.draws[rnd].tables:
                r = self.result(rnd, t.number)
                if r is not None:
                    out.append(r)
        return out

    def missing_results(self) -> list[tuple[int, int]]:
        return [(rnd, t.number) for rnd in sorted(self.draws) for t in self.draws[rnd].tables
                if self.result(rnd, t.number) is None]

    # ------------------------------------------------------------- settings
    def settings_json(self) -> dict[str, Any]:
        return {"name": self.name, "rules_name": self.rules_name, "rules_toml": self.rules_toml,
                "rounds": self.rounds, "time_limit_minutes": self.time_limit_minutes,
                "time_warning_minutes": self.time_warning_minutes,
                "partner_policy": self.partner_policy, "odd_players": self.odd_players,
                "avoid_same_chapter": self.avoid_same_chapter,
                "players": [{"id": p.id, "name": p.name, "chapter": p.chapter,
                             "not_partners": list(p.not_partners)} for p in self.players]}

    @staticmethod
    def from_settings_json(d: dict[str, Any]) -> Event:
        players = [Player(int(p["id"]), str(p["name"]), str(p.get("chapter", "")),
                          tuple(str(n) for n in p.get("not_partners", [])))
                   for p in d.get("players", [])]
        return Event(str(d["name"]), str(d["rules_name"]), str(d["rules_toml"]),
                     int(d["rounds"]), int(d["time_limit_minutes"]),
                     int(d["time_warning_minutes"]), str(d["partner_policy"]),
                     str(d["odd_players"]), bool(d["avoid_same_chapter"]), players)


@functools.lru_cache(maxsize=32)
def _rules_from_toml(text: str) -> Rules:
    return Rules.from_toml(text)


# -------------------------------------------------------------------- CSV


def check_players(players: list[Player]) -> None:
    """Names unique, every not-partner name registered, nobody naming themselves."""
    seen: dict[str, Player] = {}
    for p in players:
        key = p.name.casefold()
        if key in seen:
            raise EventError(f"{p.name} is registered twice")
        seen[key] = p
    for p in players:
        for other in p.not_partners:
            if other.casefold() == p.name.casefold():
                raise EventError(f"{p.name} is listed as not to partner themselves")
            if other.casefold() not in seen:
                raise EventError(f"{p.name} may not partner {other!r}, who is not registered")


def read_players_csv(text: str) -> list[Player]:
    """Players from CSV text (header ``name,chapter,not_partner_with``). Errors name the
    line: an empty name, a name twice, a not-partner who is not in the list, too many
    columns."""
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    while rows and not any(c.strip() for c in rows[-1]):
        rows.pop()
    if not rows:
        raise EventError("the player list is empty")
    header = tuple(c.strip().lower() for c in rows[0])
    if header[:1] != ("name",) or not set(header) <= set(CSV_HEADER) or len(set(header)) != \
            len(header):
        raise EventError(f"line 1: the header must be {','.join(CSV_HEADER)} "
                         f"(chapter and not_partner_with may be left out), not {','.join(header)}")
    col = {h: i for i, h in enumerate(header)}
    players: list[Player] = []
    lines: dict[str, int] = {}
    for n, row in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in row):
            continue
        if len(row) > len(header):
            raise EventError(f"line {n}: {len(row)} columns, but the header has "
                             f"{len(header)} (put several names in one column, separated "
                             "by ';')")

        def cell(key: str, row: list[str] = row) -> str:
            i = col.get(key)
            return " ".join(row[i].split()) if i is not None and i < len(row) else ""

        name = cell("name")
        if not name:
            raise EventError(f"line {n}: the name is empty")
        if name.casefold() in lines:
            raise EventError(f"line {n}: {name} is already on line {lines[name.casefold()]}")
        lines[name.casefold()] = n
        others = tuple(" ".join(x.split()) for x in cell("not_partner_with").split(";")
                       if x.strip())
        players.append(Player(len(players) + 1, name, cell("chapter"), others))
    for p in players:
        for other in p.not_partners:
            if other.casefold() == p.name.casefold():
                raise EventError(f"line {lines[p.name.casefold()]}: {p.name} may not be "
                                 "their own partner; leave their own name out")
            if other.casefold() not in lines:
                raise EventError(f"line {lines[p.name.casefold()]}: {p.name} may not partner "
                                 f"{other!r}, but nobody of that name is in the list (check "
                                 "the spelling, or leave out people not playing)")
    return players


def players_csv(players: list[Player]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_HEADER)
    for p in players:
        w.writerow([p.name, p.chapter, ";".join(p.not_partners)])
    return out.getvalue()
