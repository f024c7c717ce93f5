"""Events kept in the game server's database (SQLite or PostgreSQL), in tables of their
own whose names begin with ``club_``, created on first use.

* ``club_events``: one row per event: its settings and players (JSON) and the hash of
  the organiser's password (scrypt with a random salt; the password is never stored).
* ``club_draws``: the draw of each round (a round may be drawn again until a result
  is entered for it).
* ``club_results``: every result entered, append-only; a later entry for the same table
  corrects an earlier one, and both are kept.
* ``club_tie_breaks``: every tie-break, append-only.
* ``club_sessions``: the organisers logged in through the web pages (the hash of each
  session's random token, and when it expires).
* ``club_clocks``: when each round's clock was started, and time called.
* ``club_clock_warnings``: the rounds whose time warning was given (once, whichever
  server process gives it).

>>> s = ClubStore("sqlite://")
>>> ev = Event.create("Friday", "classic")
>>> s.create(ev, "secret")
>>> s.load("Friday").rules_name, s.check_password("Friday", "secret")
('classic', True)
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import secrets
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from handfoot.club.event import Event, EventError, RoundDraw, TableResult, TieBreak
from handfoot.server.storage.database import default_url, normalise_url
from handfoot.server.storage.schema import ensure_schema

metadata = sa.MetaData()


club_events = sa.Table(
    "club_events", metadata,
    sa.Column("name", sa.String(120), primary_key=True),
    sa.Column("settings_json", sa.Text, nullable=False),
    sa.Column("password_hash", sa.String(300), nullable=False),
    sa.Column("created", sa.DateTime, nullable=False),
)

club_draws = sa.Table(
    "club_draws", metadata,
    sa.Column("event", sa.String(120), sa.ForeignKey("club_events.name"), nullable=False),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("draw_json", sa.Text, nullable=False),
    sa.Column("created", sa.DateTime, nullable=False),
    sa.PrimaryKeyConstraint("event", "round"),
)

club_results = sa.Table(
    "club_results", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("event", sa.String(120), sa.ForeignKey("club_events.name"), nullable=False),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("table_no", sa.Integer, nullable=False),
    sa.Column("result_json", sa.Text, nullable=False),
    sa.Column("created", sa.DateTime, nullable=False),
)

club_tie_breaks = sa.Table(
    "club_tie_breaks", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("event", sa.String(120), sa.ForeignKey("club_events.name"), nullable=False),
    sa.Column("tie_break_json", sa.Text, nullable=False),
    sa.Column("created", sa.DateTime, nullable=False),
)

#: organisers logged in through the web pages: the hash of each session's random token
club_sessions = sa.Table(
    "club_sessions", metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("event", sa.String(120), sa.ForeignKey("club_events.name"), nullable=False),
    sa.Column("expires", sa.DateTime, nullable=False),
)

#: a round's clock, started by the organiser (the time limit and warning are the event's)
club_clocks = sa.Table(
    "club_clocks", metadata,
    sa.Column("event", sa.String(120), sa.ForeignKey("club_events.name"), nullable=False),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("started", sa.DateTime, nullable=False),
    sa.Column("called", sa.DateTime, nullable=True),
    sa.PrimaryKeyConstraint("event", "round"),
)

#: a round's time warning, given once (by one server process of several)
club_clock_warnings = sa.Table(
    "club_clock_warnings", metadata,
    sa.Column("event", sa.String(120), sa.ForeignKey("club_events.name"), nullable=False),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("created", sa.DateTime, nullable=False),
    sa.PrimaryKeyConstraint("event", "round"),
)

SESSION_HOURS = 24

SCRYPT = {"n": 2 ** 14, "r": 8, "p": 1}


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, dklen=32, **SCRYPT)
    return f"scrypt${SCRYPT['n']}${SCRYPT['r']}${SCRYPT['p']}${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt":
            return False
        mine = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r),
                              p=int(p), dklen=len(digest) // 2)
    except ValueError:
        return False
    return hmac.compare_digest(mine.hex(), digest)


def session_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


class ClubStore:
    def __init__(self, url: str | None = None) -> None:
        url = normalise_url(url or default_url())
        self.url = url
        if url.startswith("sqlite"):
            memory = url in ("sqlite://", "sqlite:///:memory:")
            # in memory: one connection, or each would see its own empty database
            self.engine = sa.create_engine(
                url, connect_args={"check_same_thread": False},
                **({"poolclass": sa.pool.StaticPool} if memory else {}))

            @sa.event.listens_for(self.engine, "connect")
            def _pragmas(conn: Any, _record: Any) -> None:
                cur = conn.cursor()
                if not memory:
                    cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=FULL")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.close()

        else:
            self.engine = sa.create_engine(url, pool_pre_ping=True)
        # the schema brought up to date, the game store's and the club's together (on
        # PostgreSQL under the lock several server processes starting at once take)
        ensure_schema(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # -------------------------------------------------------------- events
    def create(self, event: Event, password: str) -> None:
        if len(password) < 4:
            raise EventError("the organiser's password needs at least 4 characters")
        try:
            with self.engine.begin() as c:
                c.execute(sa.insert(club_events).values(
                    name=event.name, settings_json=json.dumps(event.settings_json()),
                    password_hash=hash_password(password), created=_now()))
        except IntegrityError as e:
            raise EventError(f"there is already an event called {event.name!r}") from e

    def names(self) -> list[str]:
        with self.engine.connect() as c:
            rows = c.execute(sa.select(club_events.c.name).order_by(club_events.c.created))
            return [str(r[0]) for r in rows]

    def check_password(self, name: str, password: str) -> bool:
        with self.engine.connect() as c:
            row = c.execute(sa.select(club_events.c.password_hash)
                            .where(club_events.c.name == name)).first()
        return row is not None and verify_password(password, str(row[0]))

    def save_settings(self, event: Event) -> None:
        """Players and settings (the draws, results and tie-breaks are saved apart)."""
        with self.engine.begin() as c:
            done = c.execute(sa.update(club_events).where(club_events.c.name == event.name)
                             .values(settings_json=json.dumps(event.settings_json())))
            if done.rowcount != 1:
                raise EventError(f"there is no event called {event.name!r}")

    def load(self, name: str) -> Event:
        with self.engine.connect() as c:
            row = c.execute(sa.select(club_events.c.settings_json)
                            .where(club_events.c.name == name)).first()
            if row is None:
                known = self.names()
                raise EventError(f"there is no event called {name!r}"
                                 + (f"; the events are {', '.join(known)}" if known else ""))
            event = Event.from_settings_json(json.loads(row[0]))
            for (text,) in c.execute(sa.select(club_draws.c.draw_json)
                                     .where(club_draws.c.event == name)
                                     .order_by(club_draws.c.round)):
                d = RoundDraw.from_json(json.loads(text))
                event.draws[d.round] = d
            for (text,) in c.execute(sa.select(club_results.c.result_json)
                                     .where(club_results.c.event == name)
                                     .order_by(club_results.c.id)):
                event.results.append(TableResult.from_json(json.loads(text)))
            for (text,) in c.execute(sa.select(club_tie_breaks.c.tie_break_json)
                                     .where(club_tie_breaks.c.event == name)
                                     .order_by(club_tie_breaks.c.id)):
                event.tie_breaks.append(TieBreak.from_json(json.loads(text)))
        return event

    # ------------------------------------------------------ draws, results
    def save_draw(self, event: Event, draw: RoundDraw) -> None:
        """Keep a round's draw; refused once the round has a result or a later round
        is drawn."""
        if any(r.round == draw.round for r in event.results):
            raise EventError(f"round {draw.round} already has results; its draw stands")
        if any(r > draw.round for r in event.draws):
            raise EventError(f"a later round is drawn; round {draw.round}'s draw stands")
        with self.engine.begin() as c:
            c.execute(sa.delete(club_draws).where(club_draws.c.event == event.name,
                                                  club_draws.c.round == draw.round))
            c.execute(sa.insert(club_draws).values(event=event.name, round=draw.round,
                                                   draw_json=json.dumps(draw.to_json()),
                                                   created=_now()))
        event.draws[draw.round] = draw

    def add_result(self, event: Event, result: TableResult) -> None:
        with self.engine.begin() as c:
            c.execute(sa.insert(club_results).values(
                event=event.name, round=result.round, table_no=result.table,
                result_json=json.dumps(result.to_json()), created=_now()))
        event.results.append(result)

    def add_tie_break(self, event: Event, tie_break: TieBreak) -> None:
        with self.engine.begin() as c:
            c.execute(sa.insert(club_tie_breaks).values(
                event=event.name, tie_break_json=json.dumps(tie_break.to_json()),
                created=_now()))
        event.tie_breaks.append(tie_break)

    # ------------------------------------------------------- organisers' sessions
    def new_session(self, name: str) -> str:
        """A session for the organiser of event ``name`` (after the password was
        checked); returns the random token (only its hash is kept)."""
        token = secrets.token_urlsafe(24)
        now = _now()
        with self.engine.begin() as c:
            c.execute(sa.delete(club_sessions).where(club_sessions.c.expires < now))
            c.execute(sa.insert(club_sessions).values(
                token_hash=session_hash(token), event=name,
                expires=now + dt.timedelta(hours=SESSION_HOURS)))
        return token

    def session_event(self, token: str) -> str | None:
        """The event whose organiser holds this session token, while it is valid."""
        with self.engine.connect() as c:
            row = c.execute(sa.select(club_sessions.c.event, club_sessions.c.expires)
                            .where(club_sessions.c.token_hash == session_hash(token))).first()
        if row is None or row[1] < _now():
            return None
        return str(row[0])

    def end_session(self, token: str) -> None:
        with self.engine.begin() as c:
            c.execute(sa.delete(club_sessions)
                      .where(club_sessions.c.token_hash == session_hash(token)))

    # ---------------------------------------------------------------- clocks
    def start_clock(self, name: str, round_no: int) -> dt.datetime:
        """Start round ``round_no``'s clock now (UTC); a clock already started stands."""
        now = _now()
        with self.engine.begin() as c:
            row = c.execute(sa.select(club_clocks.c.started).where(
                club_clocks.c.event == name, club_clocks.c.round == round_no)).first()
            if row is not None:
                return row[0]  # type: ignore[no-any-return]
            c.execute(sa.insert(club_clocks).values(event=name, round=round_no, started=now))
        return now

    def clock_called(self, name: str, round_no: int) -> bool:
        """Keep that time was called for the round (started then, if it was not); True
        if it was not called before (of several server processes whose clocks ring
        together, one is told True)."""
        now = _now()
        try:
            with self.engine.begin() as c:
                done = c.execute(sa.update(club_clocks).where(
                    club_clocks.c.event == name, club_clocks.c.round == round_no,
                    club_clocks.c.called.is_(None)).values(called=now))
                if done.rowcount == 1:
                    return True
                exists = c.execute(sa.select(club_clocks.c.round).where(
                    club_clocks.c.event == name, club_clocks.c.round == round_no)).first()
                if exists is not None:
                    return False
                c.execute(sa.insert(club_clocks).values(event=name, round=round_no,
                                                        started=now, called=now))
        except IntegrityError:  # another process called it at the same moment
            return False
        return True

    def claim_warning(self, name: str, round_no: int) -> bool:
        """True for the first to give the round's time warning, False after."""
        try:
            with self.engine.begin() as c:
                c.execute(sa.insert(club_clock_warnings).values(event=name, round=round_no,
                                                                created=_now()))
        except IntegrityError:
            return False
        return True

    def clocks(self, name: str | None = None
               ) -> list[tuple[str, int, dt.datetime, dt.datetime | None]]:
        """(event, round, started, called) of every clock (of one event)."""
        q = sa.select(club_clocks.c.event, club_clocks.c.round, club_clocks.c.started,
                      club_clocks.c.called)
        if name is not None:
            q = q.where(club_clocks.c.event == name)
        with self.engine.connect() as c:
            return [(str(r[0]), int(r[1]), r[2], r[3]) for r in c.execute(q)]

