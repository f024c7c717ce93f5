"""Club events in the game server: the organiser's pages behind the event's password, the
players' public page (standings, "find your table"), online tables whose results flow in
by themselves, paper score sheets, the round's clock and the pages to print.

Organisers log in with the event's password (checked against its salted scrypt hash);
the server answers with a random session token in a cookie, of which only the hash is
kept (``club_sessions``). Wrong passwords are refused politely and, after a few in a
minute, refused for a while. Public answers never hold an invite token or a password
hash.

An event's table played online is an ordinary server table tagged with the event, round
and table (``event_tables``), one person's seat for each drawn player, each with a
secret invite link; when its game is over the result is built from the game
(:func:`handfoot.club.results.result_from_game`) and stored with the event. Calling time
is kept beside the table's log (``time_calls``) and so survives a restart.

The pages and the JSON API that call this service are in
:mod:`handfoot.server.club.routes`.

>>> event_key("Spring Samboree")
'ff1f2e1ef050'
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime as dt
import hashlib
import logging
import random
import time
from pathlib import Path
from typing import Any

from starlette.requests import Request

from handfoot.club import printing
from handfoot.club.draw import draw_round
from handfoot.club.event import (
    Event,
    EventError,
    TableAssignment,
    TableResult,
    TieBreak,
    read_players_csv,
)
from handfoot.club.results import result_from_game, result_from_sheets
from handfoot.club.standings import (
    Line,
    Standings,
    check_tie_break,
    high_card_draw,
    record_playoff,
    standings,
)
from handfoot.club.store import ClubStore
from handfoot.game.fair import new_secret
from handfoot.rules import PRESET_NAMES, Rules, RulesError, preset
from handfoot.server.club.paper import form_from_sheet, form_settings, sheet_from_form
from handfoot.server.guard import AddressSource, HashPool, RateLimits
from handfoot.server.live import seats
from handfoot.server.live.manager import Manager
from handfoot.server.live.table import (
    LiveTable,
    default_level,
    levels,
    new_token,
    offered_levels,
    time_notice,
    token_hash,
)
from handfoot.server.processes.sync import Bus
from handfoot.server.routes.http import ApiError
from handfoot.server.routes.http import text_field as _text
from handfoot.server.routes.http import whole_number as _int
from handfoot.server.storage.store import Store

log = logging.getLogger("handfoot.server.club.service")

STATIC = Path(__file__).parent.parent / "static"
MAX_BODY = 512 * 1024
LOGIN_TRIES = 5  #: wrong passwords allowed per minute from one address for one event
LOGIN_WINDOW = 60.0


class EventApiError(ApiError):
    """A request to the event API refused."""


def event_key(name: str) -> str:
    """The event's short name in addresses (names may hold any character)."""
    return hashlib.sha256(name.encode()).hexdigest()[:12]


def cookie_name(key: str) -> str:
    return f"hf_org_{key}"


def _line(x: Line) -> dict[str, Any]:
    return {"place": x.place_text, "name": x.name, "games": x.games, "points": x.points,
            "won": x.won, "byes": x.byes, "bye_credit": x.bye_credit, "note": x.note}


def standings_json(event: Event) -> dict[str, Any]:
    st = standings(event)
    names = {kind: {x.key: x.name for x in st.by_kind(kind)} for kind in st.pending}
    return {"teams": [_line(x) for x in st.teams], "players": [_line(x) for x in st.players],
            "chapters": [_line(x) for x in st.chapters],
            "missing": [list(m) for m in st.missing], "pending": sorted(st.pending),
            "tied": {kind: sorted((names[kind][k] for k in keys), key=str.casefold)
                     for kind, keys in st.pending.items()},
            "tie_breaks": [tie_break_json(event, tb, tb is _in_effect(event, st, tb.kind))
                           for tb in event.tie_breaks]}


def _in_effect(event: Event, st: Standings, kind: str) -> TieBreak | None:
    """The tie-break that decides first place among ``kind`` now (the latest for the
    entries tied at the top; one for another tie, before a result was corrected, is
    not)."""
    lines = st.by_kind(kind)
    best = max((x.points for x in lines), default=0)
    top = {x.key for x in lines if x.points == best}
    found = None
    for tb in event.tie_breaks:
        if tb.kind == kind and set(tb.tied) == top:
            found = tb
    return found


def tie_break_json(event: Event, tb: TieBreak, in_effect: bool = True) -> dict[str, Any]:
    """A tie-break as shown: who won, how, and every card drawn."""
    return {"kind": tb.kind, "method": tb.method, "seed": tb.seed,
            "winner": _entry_name(event, tb.kind, tb.winner), "detail": list(tb.detail),
            "in_effect": in_effect}


def _entry_name(event: Event, kind: str, key: str) -> str:
    """The name of a standings entry from its key (t1-5, p3, c:mobile)."""
    try:
        if kind == "team":
            return event.team_name(tuple(int(x) for x in key[1:].split("-")))
        if kind == "player":
            return event.name_of(int(key[1:]))
    except (ValueError, EventError):
        return key
    chapter = key.removeprefix("c:")
    return next((p.chapter for p in event.players if p.chapter.casefold() == chapter),
                chapter)


class EventService:
    """The club events of one server process."""

    def __init__(self, store: Store, manager: Manager, public_url: str = "",
                 minute: float = 60.0, limits: RateLimits | None = None,
                 addresses: AddressSource | None = None) -> None:
        self.limits = limits or RateLimits()
        self.addresses = addresses or AddressSource()
        #: the organisers' password hashes, off the loop and bounded
        self.hashes = HashPool()
        #: the session cookie is Secure when the public address is https
        self.secure = public_url.lower().startswith("https://")
        self.store = store
        self.manager = manager
        self.club = ClubStore(store.url)
        self.public_url = public_url
        self.minute = minute  #: seconds in a minute of the clock (tests make it short)
        self.failures: dict[tuple[str, str], list[float]] = {}
        self.clock_tasks: dict[tuple[str, int], asyncio.Task[None]] = {}
        #: finished event tables whose results are being kept (in threads)
        self._keeping: set[asyncio.Task[None]] = set()
        manager.on_over.append(self._game_over)

    # ------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        """After a restart: results of games that ended meanwhile, and running clocks
        (read in threads, the tables rebuilt in the worker pool)."""
        for name in await asyncio.to_thread(self.club.names):
            with contextlib.suppress(Exception):
                await self._collect(await asyncio.to_thread(self.club.load, name))
        now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
        for name, rnd, started, called in await asyncio.to_thread(self.club.clocks):
            if called is None:
                try:
                    event = await asyncio.to_thread(self.club.load, name)
                except EventError:
                    continue
                self._schedule(event, rnd, started, now)

    def follow(self, bus: Bus) -> None:
        """Hear of clocks started through other server processes: each process runs
        every clock, and the first to ring calls time (the database tells which)."""
        async def heard(note: dict[str, Any]) -> None:  # (the bus runs it as a task)
            name, rnd = note.get("e"), note.get("r")
            if isinstance(name, str) and isinstance(rnd, int):
                await self._heard_clock(name, rnd)
        bus.on("clock", heard)

    async def _heard_clock(self, name: str, rnd: int) -> None:
        """Run a clock started at another process (the event read in a thread)."""
        for ev, r, started, called in await asyncio.to_thread(self.club.clocks, name):
            if r == rnd and called is None:
                with contextlib.suppress(EventError):
                    event = await asyncio.to_thread(self.club.load, ev)
                    self._schedule(event, rnd, started,
                                   dt.datetime.now(dt.UTC).replace(tzinfo=None))

    async def clock_started(self, event: Event, round_no: int, started: dt.datetime
                            ) -> None:
        """The organiser started a round's clock here: it runs in every process."""
        self._schedule(event, round_no, started, dt.datetime.now(dt.UTC).replace(tzinfo=None))
        await asyncio.to_thread(self.store.notify,
                                {"k": "clock", "e": event.name, "r": round_no})

    async def close(self) -> None:
        for task in self.clock_tasks.values():
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        await asyncio.gather(*self._keeping, return_exceptions=True)
        self.club.close()

    # ---------------------------------------------------------------- events
    def event(self, key: str) -> Event:
        for name in self.club.names():
            if event_key(name) == key:
                return self.club.load(name)
        raise EventApiError("There is no such event.", 404)

    def organiser(self, request: Request, key: str) -> Event:
        """The event, if the request comes from its logged-in organiser."""
        event = self.event(key)
        token = request.cookies.get(cookie_name(key), "")
        if not token or self.club.session_event(token) != event.name:
            raise EventApiError("Please log in with the event's password first.", 401)
        return event

    def throttle(self, key: str, who: str) -> None:
        """Count this try before the password is checked (with no wait between the
        check and the count, so that concurrent tries cannot slip past the limit); the
        tries are forgotten if the password is right."""
        now = time.monotonic()
        tries = [t for t in self.failures.get((key, who), []) if now - t < LOGIN_WINDOW]
        self.failures[(key, who)] = tries
        if len(tries) >= LOGIN_TRIES:
            raise EventApiError("Too many wrong passwords. Please wait a minute and try "
                                "again.", 429)
        tries.append(now)

    def online_tables(self, event: Event) -> dict[tuple[int, int], str]:
        """(round, table) -> the server table playing it (the latest started)."""
        return {(r.round, r.table_no): r.table_id for r in self.store.event_tables(event.name)}

    # --------------------------------------------------------------- results
    def _game_over(self, table: LiveTable) -> None:
        """A game ended: an event's table's result is kept, in a thread (or at once when
        a finished table is read outside the loop)."""
        if table.club_event is False:  # (known when it was read: nothing to ask)
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._keep_result(table)
            return
        task = loop.create_task(asyncio.to_thread(self._keep_result, table))
        self._keeping.add(task)
        task.add_done_callback(self._kept)

    def _kept(self, task: asyncio.Task[None]) -> None:
        self._keeping.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("an event table's result was not kept", exc_info=task.exception())

    def _keep_result(self, table: LiveTable) -> None:
        tag = self.store.event_table(table.id)
        if tag is None:
            return
        event = self.club.load(tag.event)
        if self.online_tables(event).get((tag.round, tag.table_no)) != table.id:
            return  # a table replaced by another
        self._store_result(event, tag.round, tag.table_no, table)

    def _store_result(self, event: Event, round_no: int, table_no: int,
                      table: LiveTable) -> None:
        have = event.result(round_no, table_no)
        if have is not None and have.detail.get("server_table") == table.id:
            return
        result = result_from_game(event, round_no, table_no, table.game)
        result = dataclasses.replace(result, detail={**result.detail,
                                                     "server_table": table.id})
        self.club.add_result(event, result)
        log.info("%s: round %s table %s: %s", event.name, round_no, table_no,
                 list(result.totals))

    async def _collect(self, event: Event) -> None:
        """Store the result of every online table whose game is over and is not in."""
        for (rnd, tno), tid in (await asyncio.to_thread(self.online_tables, event)).items():
            have = event.result(rnd, tno)
            if have is not None and have.detail.get("server_table") == tid:
                continue
            row = await asyncio.to_thread(self.store.table, tid)
            if row is None or row.result is None:
                continue
            table = await self.manager.aload(tid)
            if table is not None and table.game.over:
                await asyncio.to_thread(self._store_result, event, rnd, tno, table)

    # ----------------------------------------------------------------- clock
    def _clock_times(self, event: Event, started: dt.datetime
                     ) -> tuple[dt.datetime | None, dt.datetime]:
        m = dt.timedelta(seconds=self.minute)
        end = started + m * event.time_limit_minutes
        warn = (end - m * event.time_warning_minutes) if event.time_warning_minutes else None
        return warn, end

    def _schedule(self, event: Event, round_no: int, started: dt.datetime,
                  now: dt.datetime) -> None:
        key = (event.name, round_no)
        old = self.clock_tasks.get(key)
        if old is not None and not old.done():
            return
        warn, end = self._clock_times(event, started)

        async def run() -> None:
            if warn is not None and now < warn:
                await asyncio.sleep((warn - now).total_seconds())
                # once, of all the processes
                if await asyncio.to_thread(self.club.claim_warning, event.name, round_no):
                    await self.warn(event, round_no)
            left = (end - dt.datetime.now(dt.UTC).replace(tzinfo=None)).total_seconds()
            if left > 0:
                await asyncio.sleep(left)
            await self.call_time(event, round_no, rung=True)

        self.clock_tasks[key] = asyncio.get_running_loop().create_task(run())

    async def warn(self, event: Event, round_no: int) -> int:
        """Push the time warning to every online table of the round; how many."""
        minutes = event.time_warning_minutes
        text = (f"Time warning: {minutes} minutes left in this round." if minutes
                else "Time warning: the round is nearly over.")
        n = 0
        for tid in await asyncio.to_thread(self._playing, event, round_no):
            await self.manager.announce(tid, text)  # to every server process
            n += 1
        return n

    def _playing(self, event: Event, round_no: int) -> list[str]:
        """The round's online tables still playing (read in a thread)."""
        out = []
        for (rnd, _), tid in self.online_tables(event).items():
            row = self.store.table(tid) if rnd == round_no else None
            if row is not None and row.result is None:
                out.append(tid)
        return out

    async def call_time(self, event: Event, round_no: int, rung: bool = False) -> int:
        """Call time at every online table of the round still playing; how many.
        ``rung``: the round's clock rang (in every server process: only the first to
        call it calls time at the tables)."""
        first = await asyncio.to_thread(self.club.clock_called, event.name, round_no)
        task = self.clock_tasks.get((event.name, round_no))
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        if rung and not first:
            return 0
        n = 0
        online = await asyncio.to_thread(self.online_tables, event)
        for (rnd, _), tid in online.items():
            table = await self.manager.aload(tid) if rnd == round_no else None
            if table is not None and await self.manager.call_time(
                    table, time_notice(table.rules)):
                n += 1
        return n

    def clock_json(self, event: Event, round_no: int) -> dict[str, Any] | None:
        for name, rnd, started, called in self.club.clocks(event.name):
            if name == event.name and rnd == round_no:
                warn, end = self._clock_times(event, started)

                def iso(t: dt.datetime | None) -> str | None:
                    return None if t is None else t.replace(tzinfo=dt.UTC).isoformat()

                return {"started": iso(started), "warning_at": iso(warn) if
                        event.time_limit_minutes else None,
                        "ends_at": iso(end) if event.time_limit_minutes else None,
                        "called": iso(called)}
        return None

    # ------------------------------------------------------------- answers
    def public_json(self, event: Event) -> dict[str, Any]:
        rules = event.rules
        rounds = []
        for rnd, draw in sorted(event.draws.items()):
            done = sum(1 for t in draw.tables if event.result(rnd, t.number) is not None)
            rounds.append({"round": rnd, "tables": len(draw.tables), "results": done})
        return {"key": event_key(event.name), "name": event.name,
                "rules": rules.title or rules.name, "rules_name": event.rules_name,
                "rounds": event.rounds, "seats": rules.players.seats,
                "players": len(event.players), "clock": printing.clock_text(event),
                "drawn": rounds, "standings": standings_json(event)}

    def find_json(self, event: Event, query: str) -> dict[str, Any]:
        q = " ".join(query.split()).casefold()
        if not q:
            raise EventApiError("Type your name.")
        exact = [p for p in event.players if p.name.casefold() == q]
        found = exact or [p for p in event.players if q in p.name.casefold()]
        if not found:
            raise EventApiError("Nobody of that name is registered. Please check the "
                                "spelling, or ask the organiser.", 404)
        if len(found) > 1:
            raise EventApiError("Several players match: " + ", ".join(
                p.name for p in found[:8]) + ". Please type more of your name.", 404)
        me = found[0]
        online = self.online_tables(event)
        out: list[dict[str, Any]] = []
        for rnd, draw in sorted(event.draws.items()):
            if me.id in draw.byes:
                out.append({"round": rnd, "bye": True})
                continue
            for t in draw.tables:
                if me.id not in t.seats:
                    continue
                seat = t.seats.index(me.id)
                team = seat % t.teams
                out.append({
                    "round": rnd, "bye": False, "table": t.number, "seat": seat + 1,
                    "team": printing.team_label(t, team),
                    "partners": [event.name_of(m) for m in t.team_members(team)
                                 if m != me.id],
                    "opponents": [event.team_name(t.team_members(k))
                                  for k in range(t.teams) if k != team],
                    "online": (rnd, t.number) in online,
                    "result": event.result(rnd, t.number) is not None})
        return {"name": me.name, "rounds": out}

    async def _online_json(self, tid: str) -> dict[str, Any] | None:
        live = self.manager.live.get(tid)
        row = await asyncio.to_thread(self.store.table, tid) if live is None else None
        if live is None and row is not None and row.result is not None:
            # finished and not in memory: its summary, without rebuilding the game
            r = row.result
            return {"table_id": tid, "over": True, "hand_number": r["hand_number"],
                    "totals": r["totals"], "time_called": bool(r.get("time_called")),
                    "started": True, "notice": "",
                    "seats": [{"name": s.get("name", ""),
                               "computer": bool(s["kind"] == "bot" or s.get("computer")),
                               "connected": False} for s in row.seats]}
        try:
            table = await self.manager.aload(tid)
        except Exception:  # a log that no longer replays: shown as such, the rest goes on
            log.exception("table %s cannot be rebuilt", tid)
            return {"table_id": tid, "over": False, "hand_number": 0, "totals": [],
                    "time_called": False, "started": False, "seats": [],
                    "notice": "This table's game cannot be rebuilt from its log."}
        if table is None:
            return None
        connected = {c.seat for c in table.connections}
        g = table.game
        return {"table_id": tid, "over": g.over, "hand_number": g.hand_number,
                "totals": list(g.totals), "time_called": g.time_called,
                "started": table.seq > 0, "notice": table.notice,
                "seats": [{"name": s.get("name", ""), "computer": table.is_bot(i),
                           "connected": i in connected} for i, s in enumerate(table.seats)]}

    async def manage_json(self, event: Event) -> dict[str, Any]:
        """The organiser's page: the tables playing online are loaded (off the loop),
        the rest is read and written in a thread."""
        online = await asyncio.to_thread(self.online_tables, event)
        shown = {(rnd, t.number): await self._online_json(online[(rnd, t.number)])
                 for rnd, draw in event.draws.items() for t in draw.tables
                 if (rnd, t.number) in online}
        return await asyncio.to_thread(self._manage_json, event, shown)

    def _manage_json(self, event: Event, shown: dict[tuple[int, int], dict[str, Any] | None]
                     ) -> dict[str, Any]:
        """``shown``: each table playing online, by round and number."""
        rules = event.rules
        rounds = []
        for rnd in range(1, event.rounds + 1):
            draw = event.draws.get(rnd)
            info: dict[str, Any] = {"round": rnd, "drawn": draw is not None,
                                    "clock": self.clock_json(event, rnd)}
            if draw is not None:
                tables = []
                for t in draw.tables:
                    r = event.result(rnd, t.number)
                    tables.append({
                        "number": t.number, "individuals": t.individuals,
                        "hands": event.table_rules(t).game.hands,
                        "teams": [{"label": printing.team_label(t, k),
                                   "players": [event.name_of(m) for m in t.team_members(k)]}
                                  for k in range(t.teams)],
                        "seats": [event.name_of(p) for p in t.seats],
                        "result": None if r is None else {
                            "source": r.source, "hands": [list(h) for h in r.hands],
                            "totals": list(r.totals), "time_called": r.time_called},
                        "online": shown.get((rnd, t.number))})
                info.update(seed=draw.seed, notes=list(draw.notes), tables=tables,
                            byes=[event.name_of(p) for p in draw.byes],
                            has_results=any(x.round == rnd for x in event.results),
                            later_drawn=any(x > rnd for x in event.draws))
            rounds.append(info)
        return {
            "key": event_key(event.name), "name": event.name, "rules_name": event.rules_name,
            "rules": rules.title or rules.name, "rounds": event.rounds,
            "seats": rules.players.seats, "time_limit": event.time_limit_minutes,
            "warning": event.time_warning_minutes, "partners": event.partner_policy,
            "odd": event.odd_players, "not_same_chapter": event.avoid_same_chapter,
            "clock_text": printing.clock_text(event),
            "when_time_is_called": rules.game.when_time_is_called,
            "tie_break": rules.game.tie_break,
            "rounds_to_draw": [r for r in range(1, event.rounds + 1) if r not in event.draws],
            "form": form_settings(rules),
            "players": [{"id": p.id, "name": p.name, "chapter": p.chapter,
                         "not_partners": list(p.not_partners)} for p in event.players],
            "rounds_info": rounds, "levels": offered_levels(), "default_level": default_level(),
            "chat": self.store.event_chat(event.name),
            "standings": standings_json(event)}

    # -------------------------------------------------------------- actions
    def create(self, data: dict[str, Any]) -> tuple[Event, str]:
        name = " ".join(_text(data, "name", 120).split())
        rules_name = _text(data, "rules", 80)
        password = data.get("password")
        if not isinstance(password, str) or len(password) < 4:
            raise EventApiError("Choose a password of at least 4 characters for the "
                                "organiser.")
        if rules_name in PRESET_NAMES:
            rules: Rules = preset(rules_name)
        else:
            saved = self.store.rule_set(rules_name)
            if saved is None:
                raise EventApiError(f"There is no rule set called {rules_name!r}.")
            try:
                rules = Rules.from_toml(saved[1])
            except RulesError as e:
                raise EventApiError(f"The rule set {rules_name!r} is refused: {e}") from None
        per_table = data.get("seats")
        time_limit = data.get("time_limit")
        warning = data.get("warning")
        event = Event.create(
            name, rules, _int(data, "rounds", "The number of rounds", 1, 1, 20),
            seats=None if per_table in (None, "") else _int(data, "seats", "Seats", None, 2, 8),
            time_limit_minutes=None if time_limit in (None, "") else _int(
                data, "time_limit", "The time limit", None, 0, 24 * 60),
            time_warning_minutes=None if warning in (None, "") else _int(
                data, "warning", "The warning", None, 0, 24 * 60),
            partner_policy=_text(data, "partners", 200) or "redraw",
            odd_players=_text(data, "odd", 20) or "bye",
            avoid_same_chapter=bool(data.get("not_same_chapter")))
        if any(event_key(n) == event_key(event.name) for n in self.club.names()):
            raise EventApiError(f"There is already an event called {event.name!r}.")
        self.club.create(event, password)
        return event, self.club.new_session(event.name)

    def set_players(self, event: Event, data: dict[str, Any]) -> str:
        if "csv" in data:
            players = read_players_csv(_text(data, "csv", MAX_BODY))
            event.set_players(players)
            event.forbidden_pairs()
            self.club.save_settings(event)
            chapters = {p.chapter for p in players if p.chapter}
            return (f"{len(players)} players from {len(chapters)} chapter(s) registered.")
        add = data.get("add")
        if not isinstance(add, dict):
            raise EventApiError("Send the player list (csv) or a player to add.")
        others = [x.strip() for x in _text(add, "not_partners", 500).split(";") if x.strip()]
        for other in others:
            event.by_name(other)
        event.add_player(_text(add, "name", 80), _text(add, "chapter", 80), others)
        self.club.save_settings(event)
        return f"{event.players[-1].name} added; {len(event.players)} players."

    def draw(self, event: Event, data: dict[str, Any]) -> dict[str, Any]:
        rnd = _int(data, "round", "The round", None, 1, event.rounds)
        seed_value = data.get("seed")
        seed = (random.SystemRandom().randrange(10_000) if seed_value in (None, "")
                else _int(data, "seed", "The seed", None, 0, 2**31 - 1))
        if rnd > 1 and rnd - 1 not in event.draws:
            raise EventApiError(f"Draw round {rnd - 1} first.")
        if len(event.players) < 2:
            raise EventApiError("Register the players first.")
        if any(tag.round == rnd for tag in self.store.event_tables(event.name)):
            raise EventApiError(f"Round {rnd} already has tables playing online; its draw "
                                "stands.")
        draw = draw_round(event, rnd, seed)
        self.club.save_draw(event, draw)
        return {"round": rnd, "seed": seed, "notes": list(draw.notes)}

    def _table(self, event: Event, data: dict[str, Any]) -> tuple[int, TableAssignment]:
        rnd = _int(data, "round", "The round", None, 1, event.rounds)
        draw = event.draws.get(rnd)
        if draw is None:
            raise EventApiError(f"Round {rnd} has not been drawn.")
        number = _int(data, "table", "The table", None, 1, len(draw.tables))
        return rnd, draw.table(number)

    def _invite(self, request: Request, tid: str, token: str) -> str:
        base = self.public_url or str(request.base_url).rstrip("/")
        return f"{base}/table/{tid}?token={token}"

    async def start_online(self, request: Request, event: Event, data: dict[str, Any]
                           ) -> dict[str, Any]:
        """Start a drawn table online: its table made (in a thread), its computers
        playing, and the seats' invite links."""
        rnd, number, tid, invites = await asyncio.to_thread(self._new_online, event, data)
        table = await self.manager.aload(tid)
        assert table is not None
        self.manager.kick_bots(table)
        for inv in invites:
            inv["url"] = self._invite(request, tid, str(inv["token"]))
        return {"table_id": tid, "round": rnd, "table": number, "invites": invites}

    def _new_online(self, event: Event, data: dict[str, Any]
                    ) -> tuple[int, int, str, list[dict[str, Any]]]:
        rnd, t = self._table(event, data)
        if event.result(rnd, t.number) is not None:
            raise EventApiError(f"Table {t.number} already has a result.")
        tid = self.online_tables(event).get((rnd, t.number))
        if tid is not None:
            raise EventApiError(f"Table {t.number} is already playing online.")
        computer = data.get("computer", [])
        if not isinstance(computer, list) or not all(
                isinstance(s, int) and not isinstance(s, bool) and 0 <= s < len(t.seats)
                for s in computer):
            raise EventApiError("Say which seats (0, 1, ...) the computer plays.")
        level = _text(data, "level", 40) or default_level()
        if level not in levels():
            raise EventApiError(f"There is no computer player called {level!r}; the levels "
                                f"are {', '.join(offered_levels())}.")
        # an event's deals always come from a secret nobody sees while it is played
        if data.get("seed") not in (None, ""):
            raise EventApiError("An event's tables are always dealt from the server's "
                                "secret; they take no seed.")
        rules = event.table_rules(t)
        seated: list[dict[str, Any]] = []
        invites = []
        for s, pid in enumerate(t.seats):
            tok = new_token()
            seated.append({"kind": "human", "name": event.name_of(pid),
                           "token_hash": token_hash(tok), "level": level,
                           "computer": s in computer})
            invites.append({"seat": s, "name": event.name_of(pid), "computer": s in computer,
                            "token": tok})
        tid = self.store.create_table(rules.name, rules.to_toml(), 0, seated,
                                      secret=new_secret())
        self.store.tag_event_table(tid, event.name, rnd, t.number)
        return rnd, t.number, tid, invites

    async def new_invite(self, request: Request, event: Event, data: dict[str, Any]
                         ) -> dict[str, Any]:
        rnd, t = self._table(event, data)
        tid = (await asyncio.to_thread(self.online_tables, event)).get((rnd, t.number))
        table = None if tid is None else await self.manager.aload(tid)
        if table is None:
            raise EventApiError(f"Table {t.number} is not playing online.")
        seat = _int(data, "seat", "The seat", None, 0, len(table.seats) - 1)
        tok = new_token()
        async with table.lock, seats.changing(self.store, table) as new:
            new[seat]["token_hash"] = token_hash(tok)
        # the old link stops acting at once, on a socket opened with it too
        self.manager.close_seat(table, seat, "This invite link was replaced; ask the "
                                "organiser for the new one.")
        return {"seat": seat, "name": table.seats[seat].get("name", ""),
                "url": self._invite(request, table.id, tok)}

    def paper(self, event: Event, data: dict[str, Any]) -> dict[str, Any]:
        rnd, t = self._table(event, data)
        if (rnd, t.number) in self.online_tables(event):
            raise EventApiError(f"Table {t.number} plays online; its result comes in by "
                                "itself.")
        hands = data.get("hands")
        if not isinstance(hands, list) or not hands:
            raise EventApiError("Fill in the score of each hand played.")
        rules = event.table_rules(t)
        sheets = [sheet_from_form(event, t, rules, i, h) for i, h in enumerate(hands[:20])]
        result = result_from_sheets(event, rnd, t.number, sheets,
                                    bool(data.get("time_called")))
        if data.get("save"):
            self.club.add_result(event, result)
        return self._result_json(event, t, result, bool(data.get("save")))

    def paper_sheets(self, event: Event, data: dict[str, Any]) -> dict[str, Any]:
        """The sheets entered for a paper table, in the form's shape, to correct them."""
        rnd, t = self._table(event, data)
        if (rnd, t.number) in self.online_tables(event):
            raise EventApiError(f"Table {t.number} plays online; its result comes in by "
                                "itself.")
        result = event.result(rnd, t.number)
        if result is None:
            raise EventApiError(f"Table {t.number} has no result yet.")
        if result.source != "paper":
            raise EventApiError(f"Table {t.number}'s result came from a game played "
                                "online; it has no score sheets to correct.")
        sheets = result.detail.get("sheets")
        if not isinstance(sheets, list) or not sheets:
            raise EventApiError(f"The score sheets of table {t.number} were not kept; "
                                "please enter them again.")
        return {"round": rnd, "table": t.number, "time_called": result.time_called,
                "totals": list(result.totals),
                "hands": [form_from_sheet(event, t, s) for s in sheets]}

    def tie_break(self, event: Event, data: dict[str, Any]) -> dict[str, Any]:
        """Break a tie for first place as the rule set says: a seeded high-card draw, or
        the winner of a play-off (``playoff-hand``, or a high-card draw "if time
        dictates"). Kept with the event; only a tie still to be broken."""
        how = event.rules.game.tie_break
        kind = _text(data, "kind", 20) or "team"
        winner = _text(data, "winner", 300).strip()
        check_tie_break(event, kind, playoff=bool(winner))
        seed_value = data.get("seed")
        if winner:
            tb = record_playoff(event, kind, winner)
        elif seed_value not in (None, ""):
            tb = high_card_draw(event, kind, _int(data, "seed", "The seed", None, 0,
                                                  2**31 - 1))
        else:
            raise EventApiError("Give the seed of the high-card draw (announce it first)"
                                + (", or the winner of the play-off."
                                   if how == "playoff-hand" else "."))
        self.club.add_tie_break(event, tb)
        shown = tie_break_json(event, tb)
        return {**shown, "message": f"{shown['winner']} takes first place"
                + (" (high-card draw)." if tb.method == "high-card" else " (play-off).")}

    @staticmethod
    def _result_json(event: Event, t: TableAssignment, r: TableResult, saved: bool
                     ) -> dict[str, Any]:
        scores = r.detail.get("scores", [])
        return {"saved": saved, "hands": [list(h) for h in r.hands], "totals": list(r.totals),
                "time_called": r.time_called, "scores": scores,
                "teams": [event.team_name(m) for m in t.team_list()]}
