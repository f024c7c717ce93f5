"""Storage: rule sets, tables, seats and each table's append-only action log.

The game state is never stored: it is rebuilt by replaying a table's actions on
``Game(rules, seed)``. Works with SQLite (the default) and PostgreSQL. Beside the
log: when the monitor called time at a table (``time_calls``; not an action, replayed
at its point), and which club event's round and table a table plays (``event_tables``).

>>> s = Store("sqlite://")
>>> t = s.create_table("x", "rules = 1", 7, [{"kind": "human"}])
>>> s.append_action(t, 0, 0, {"type": "draw"})
>>> [a.action for a in s.actions(t)]
[{'type': 'draw'}]
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
from dataclasses import dataclass, field
from typing import Any

import orjson
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from handfoot.server.storage.database import normalise_url
from handfoot.server.storage.schema import ensure_schema

metadata = sa.MetaData()

rule_sets = sa.Table(
    "rule_sets", metadata,
    sa.Column("name", sa.String(80), primary_key=True),
    sa.Column("base", sa.String(80), nullable=False),
    sa.Column("toml", sa.Text, nullable=False),
    sa.Column("created", sa.DateTime, nullable=False),
    #: who saved it: the hash of the token their browser keeps (None: saved before
    #: owners were kept; nobody may save over it)
    sa.Column("owner_hash", sa.String(64), nullable=True),
)

tables = sa.Table(
    "tables", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("rules_name", sa.String(80), nullable=False),
    sa.Column("rules_toml", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("seats_json", sa.Text, nullable=False),
    sa.Column("created", sa.DateTime, nullable=False),
    #: set once the game is over (a summary for the lobby); the log stays the truth
    sa.Column("result_json", sa.Text, nullable=True),
    #: the secret its deals come from (never shown while the game is played; None for a
    #: table made before these were kept: dealt from ``seed``)
    sa.Column("secret", sa.String(128), nullable=True),
    #: the hash of its creator's token (who may hand an absent seat to the computer)
    sa.Column("creator_hash", sa.String(64), nullable=True),
    #: the table Play again started from this one, once its game was over
    sa.Column("next_table", sa.String(32), nullable=True),
    #: its settings as JSON (the wait before an absent seat may be handed to the
    #: computer, the turn timer; None: the defaults)
    sa.Column("settings_json", sa.Text, nullable=True),
)

actions = sa.Table(
    "actions", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("action_json", sa.Text, nullable=False),
    sa.Column("created", sa.DateTime, nullable=False),
    sa.PrimaryKeyConstraint("table_id", "seq"),
)


#: a table played for a club event: which event, round and table of the draw it is
#: (a table started again for the same round and table replaces the earlier one)
event_tables = sa.Table(
    "event_tables", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("event", sa.String(120), nullable=False, index=True),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("table_no", sa.Integer, nullable=False),
    sa.Column("created", sa.DateTime, nullable=False),
)

#: time called at a table by the monitor: after ``seq`` actions (calling time is not an
#: action of the game, so it is kept beside the log and replayed at that point)
time_calls = sa.Table(
    "time_calls", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("created", sa.DateTime, nullable=False),
)


#: a table that waits for its people: it starts (the row is removed) when every person
#: has opened their invite link, or when its host starts it with computer players in
#: the empty seats (a table without a row here has started)
waiting_tables = sa.Table(
    "waiting_tables", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("created", sa.DateTime, nullable=False),
)

#: the people's seats whose invite link has been opened (the waiting table starts when
#: every person has joined)
joined_seats = sa.Table(
    "joined_seats", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.PrimaryKeyConstraint("table_id", "seat"),
)

#: a finished game's review by the hard player (``handfoot review --json``), once made
reviews = sa.Table(
    "reviews", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("review_json", sa.Text, nullable=False),
    sa.Column("created", sa.DateTime, nullable=False),
)

#: what the people at a table said: chat lines and quick reactions, in order
chat_lines = sa.Table(
    "chat_lines", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False,
              index=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(10), nullable=False),  # "text" or "reaction"
    sa.Column("text", sa.String(400), nullable=False),
    sa.Column("created", sa.DateTime, nullable=False),
)

#: club events whose organiser turned chat off at their tables
quiet_events = sa.Table(
    "quiet_events", metadata,
    sa.Column("event", sa.String(120), primary_key=True),
)


#: a person, known by the player keys their browsers keep (only the keys' hashes are
#: kept); ``name_key`` is the name as compared (case folded), ``password_hash`` the
#: optional password for signing in on another device (scrypt)
players = sa.Table(
    "players", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(40), nullable=False),
    sa.Column("name_key", sa.String(40), nullable=False, index=True),
    sa.Column("password_hash", sa.String(300), nullable=True),
    #: shown on the leaderboard (the person chose to be)
    sa.Column("leaderboard", sa.Boolean, nullable=False),
    sa.Column("created", sa.DateTime, nullable=False),
)

#: the player keys of each person (one for each browser or device signed in)
player_keys = sa.Table(
    "player_keys", metadata,
    sa.Column("key_hash", sa.String(64), primary_key=True),
    sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False,
              index=True),
    sa.Column("created", sa.DateTime, nullable=False),
)

#: who sat in each person's seat: the first person to open its invite link
table_players = sa.Table(
    "table_players", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False,
              index=True),
    sa.PrimaryKeyConstraint("table_id", "seat"),
)

#: each person's rating per rule set (OpenSkill, Plackett-Luce)
ratings = sa.Table(
    "ratings", metadata,
    sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
    sa.Column("rules", sa.String(80), nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated", sa.DateTime, nullable=False),
    sa.PrimaryKeyConstraint("player_id", "rules"),
)

#: the computer levels' ratings per rule set, from arena matches (``handfoot ratings``)
computer_ratings = sa.Table(
    "computer_ratings", metadata,
    sa.Column("level", sa.String(40), nullable=False),
    sa.Column("rules", sa.String(80), nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated", sa.DateTime, nullable=False),
    sa.PrimaryKeyConstraint("level", "rules"),
)

#: the finished games whose result was looked at for ratings (each once; ``rules``:
#: the rule set it was rated under, None: not rated)
rated_tables = sa.Table(
    "rated_tables", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("rules", sa.String(80), nullable=True),
    sa.Column("created", sa.DateTime, nullable=False),
)


@dataclass(frozen=True, slots=True)
class ChatLine:
    id: int
    seat: int
    kind: str
    text: str
    created: dt.datetime


class SeqTaken(Exception):
    """Another writer appended this action number first."""


class TimeCalled(SeqTaken):
    """Time was called at the table (by another server process) before this action: the
    writer reads the log and the time call again, and checks its action again."""


#: the PostgreSQL channel on which every process hears of changes (see
#: :mod:`handfoot.server.processes.sync`); each database has its own
CHANNEL = "handfoot"


@dataclass(frozen=True, slots=True)
class TableRow:
    id: str
    rules_name: str
    rules_toml: str
    seed: int
    seats: list[dict[str, Any]]
    created: dt.datetime
    result: dict[str, Any] | None = None
    #: the secret the deals come from (None: dealt from ``seed``)
    secret: str | None = None
    creator_hash: str | None = None
    #: the table Play again started from this one (None: none yet)
    next_table: str | None = None
    #: the table's settings (:data:`handfoot.server.live.presence.DEFAULTS` fill the rest)
    settings: dict[str, Any] = field(default_factory=dict)


class RuleSetTaken(Exception):
    """Someone else saved a rule set under this name."""


@dataclass(frozen=True, slots=True)
class EventTableRow:
    table_id: str
    event: str
    round: int
    table_no: int
    created: dt.datetime


@dataclass(frozen=True, slots=True)
class ActionRow:
    seq: int
    seat: int | None
    action: dict[str, Any]


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


class Store:
    def __init__(self, url: str) -> None:
        url = normalise_url(url)
        self.url = url
        #: PostgreSQL: every change other server processes must hear of is announced
        #: (``NOTIFY``) in the transaction that makes it, so they hear of it exactly
        #: when it is committed; the payload says which process made it
        self.postgres = url.startswith("postgresql")
        self.origin = ""
        if url.startswith("sqlite"):
            self.engine = sa.create_engine(url, connect_args={"check_same_thread": False})

            @sa.event.listens_for(self.engine, "connect")
            def _pragmas(conn: Any, _record: Any) -> None:
                cur = conn.cursor()
                if url not in ("sqlite://", "sqlite:///:memory:"):
                    cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=FULL")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.close()
        else:
            # no ping before each use (a round trip per transaction): a connection the
            # database closed fails once and the pool then opens new ones
            self.engine = sa.create_engine(url, pool_size=8, max_overflow=16)
        #: single statements, each its own transaction (no BEGIN and COMMIT to wait for)
        self.autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        # the schema brought up to date (the migrations: several processes starting on
        # a new PostgreSQL database take turns under a lock, so one creates the tables
        # and the others find them there); a newer version's database: SchemaError
        ensure_schema(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def check_writable(self) -> None:
        """Raise (the database's own error) unless a change can be written: a write
        that changes no row, rolled back (SQLite refuses it on a read-only file or
        filesystem; PostgreSQL in a read-only transaction or on a standby)."""
        with self.engine.connect() as c, c.begin() as t:
            c.execute(sa.update(tables).where(sa.false()).values(seed=0))
            t.rollback()

    # ------------------------------------------------------------ rule sets
    def save_rule_set(self, name: str, base: str, toml: str, owner_hash: str = "") -> None:
        """Save a rule set under ``name``; raises :class:`RuleSetTaken` if that name is
        someone else's (another owner, or saved before owners were kept)."""
        try:
            with self.engine.begin() as c:
                exists = c.execute(sa.select(rule_sets.c.owner_hash)
                                   .where(rule_sets.c.name == name)).first()
                if exists is not None:
                    if exists[0] is None or not owner_hash or exists[0] != owner_hash:
                        raise RuleSetTaken(name)
                    c.execute(sa.update(rule_sets).where(rule_sets.c.name == name)
                              .values(base=base, toml=toml, created=_now()))
                    return
                c.execute(sa.insert(rule_sets).values(name=name, base=base, toml=toml,
                                                      created=_now(),
                                                      owner_hash=owner_hash or None))
        except IntegrityError as e:  # saved by another at the same moment
            raise RuleSetTaken(name) from e

    def rule_set(self, name: str) -> tuple[str, str] | None:
        with self.engine.connect() as c:
            row = c.execute(sa.select(rule_sets.c.base, rule_sets.c.toml)
                            .where(rule_sets.c.name == name)).first()
        return None if row is None else (row[0], row[1])

    def delete_rule_set(self, name: str, owner_hash: str) -> bool:
        """Delete a rule set saved by ``owner_hash``; False if it is not theirs (or
        there is none). Tables keep their own copy of their rules."""
        with self.engine.begin() as c:
            owner = c.execute(sa.select(rule_sets.c.owner_hash)
                              .where(rule_sets.c.name == name)).first()
            if owner is None or not owner_hash or owner[0] != owner_hash:
                return False
            c.execute(sa.delete(rule_sets).where(rule_sets.c.name == name))
        return True

    def rule_set_owner(self, name: str) -> str | None:
        with self.engine.connect() as c:
            row = c.execute(sa.select(rule_sets.c.owner_hash)
                            .where(rule_sets.c.name == name)).first()
        return None if row is None or row[0] is None else str(row[0])

    def rule_sets(self) -> list[tuple[str, str]]:
        with self.engine.connect() as c:
            rows = c.execute(sa.select(rule_sets.c.name, rule_sets.c.base)
                             .order_by(rule_sets.c.name)).all()
        return [(r[0], r[1]) for r in rows]

    # --------------------------------------------------------------- tables
    def create_table(self, rules_name: str, rules_toml: str, seed: int,
                     seats: list[dict[str, Any]], table_id: str | None = None,
                     secret: str | None = None, creator_hash: str | None = None,
                     waiting: bool = False, settings: dict[str, Any] | None = None) -> str:
        """A new table; with ``secret``, its deals come from the secret (``seed`` is
        then not used); ``waiting``: it waits for its people (:meth:`start_table`)."""
        tid = table_id or secrets.token_hex(6)
        with self.engine.begin() as c:
            c.execute(sa.insert(tables).values(
                id=tid, rules_name=rules_name, rules_toml=rules_toml, seed=seed,
                seats_json=json.dumps(seats), created=_now(), secret=secret,
                creator_hash=creator_hash,
                settings_json=json.dumps(settings) if settings else None))
            if waiting:
                c.execute(sa.insert(waiting_tables).values(table_id=tid, created=_now()))
        return tid

    def is_waiting(self, table_id: str) -> bool:
        with self.engine.connect() as c:
            return c.execute(sa.select(waiting_tables.c.table_id)
                             .where(waiting_tables.c.table_id == table_id)).first() is not None

    def start_table(self, table_id: str) -> bool:
        """The table waits no longer; False if it was not waiting."""
        with self.engine.begin() as c:
            done = c.execute(sa.delete(waiting_tables)
                             .where(waiting_tables.c.table_id == table_id))
            if done.rowcount:
                self._seats_changed(c, table_id)
        return bool(done.rowcount)

    def _seats_changed(self, c: Any, table_id: str) -> None:
        """Tell the other server processes, when the change is made, that the table's
        seats, the people who joined or its waiting changed (PostgreSQL)."""
        if self.postgres:
            c.execute(_NOTIFY, {"ch": CHANNEL, "p": json.dumps(
                {"o": self.origin, "k": "seats", "t": table_id})})

    def seats_changed(self, c: Any, table_id: str) -> None:
        """:meth:`_seats_changed`, for the other stores writing beside this one."""
        self._seats_changed(c, table_id)

    def join_seat(self, table_id: str, seat: int) -> None:
        """Keep that the seat's person has opened their invite link."""
        try:
            with self.engine.begin() as c:
                c.execute(sa.insert(joined_seats).values(table_id=table_id, seat=seat))
                self._seats_changed(c, table_id)
        except IntegrityError:
            pass  # joined before

    def unjoin_seat(self, table_id: str, seat: int) -> None:
        """The seat has a new invite link: nobody has joined with it yet."""
        with self.engine.begin() as c:
            c.execute(sa.delete(joined_seats).where(joined_seats.c.table_id == table_id,
                                                    joined_seats.c.seat == seat))

    def joined_seats(self, table_id: str) -> set[int]:
        with self.engine.connect() as c:
            rows = c.execute(sa.select(joined_seats.c.seat)
                             .where(joined_seats.c.table_id == table_id)).all()
        return {int(r[0]) for r in rows}

    def delete_table(self, table_id: str) -> None:
        """Remove a table with its log and everything kept beside it."""
        with self.engine.begin() as c:
            for t in (actions, time_calls, waiting_tables, chat_lines,
                      joined_seats, event_tables, table_players, rated_tables,
                      reviews):
                c.execute(sa.delete(t).where(t.c.table_id == table_id))
            c.execute(sa.delete(tables).where(tables.c.id == table_id))

    def set_seats(self, table_id: str, seats: list[dict[str, Any]]) -> None:
        with self.engine.begin() as c:
            c.execute(sa.update(tables).where(tables.c.id == table_id)
                      .values(seats_json=json.dumps(seats)))
            self._seats_changed(c, table_id)

    def save_review(self, table_id: str, review_json: str) -> None:
        """Keep a finished game's review (the first one kept stays)."""
        try:
            with self.engine.begin() as c:
                c.execute(sa.insert(reviews).values(
                    table_id=table_id, review_json=review_json, created=_now()))
        except IntegrityError:
            pass  # another process kept the same review first

    def review(self, table_id: str) -> str | None:
        """The finished game's review as kept (JSON), or None."""
        with self.engine.connect() as c:
            found: str | None = c.execute(sa.select(reviews.c.review_json).where(
                reviews.c.table_id == table_id)).scalar()
        return found

    def set_result(self, table_id: str, result: dict[str, Any]) -> None:
        with self.engine.begin() as c:
            c.execute(sa.update(tables).where(tables.c.id == table_id)
                      .values(result_json=json.dumps(result)))

    @staticmethod
    def _table(row: Any) -> TableRow:
        return TableRow(row.id, row.rules_name, row.rules_toml, int(row.seed),
                        json.loads(row.seats_json), row.created,
                        json.loads(row.result_json) if row.result_json else None,
                        row.secret, row.creator_hash, row.next_table,
                        json.loads(row.settings_json) if row.settings_json else {})

    _select = sa.select(tables)

    def table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as c:
            row = c.execute(self._select.where(tables.c.id == table_id)).first()
        return None if row is None else self._table(row)

    def tables(self, *, finished: bool | None = None) -> list[TableRow]:
        """Tables, the newest first; ``finished`` True or False: only those."""
        q = self._select.order_by(tables.c.created.desc(), tables.c.id)
        if finished is not None:
            q = q.where(tables.c.result_json.is_not(None) if finished
                        else tables.c.result_json.is_(None))
        with self.engine.connect() as c:
            rows = c.execute(q).all()
        return [self._table(r) for r in rows]

    @staticmethod
    def _in_lobby(since: dt.datetime) -> Any:
        return sa.or_(tables.c.result_json.is_(None), tables.c.created >= since)

    def lobby(self, since: dt.datetime, limit: int, offset: int = 0) -> list[TableRow]:
        """The lobby's tables: every unfinished one, and those finished that were made
        since ``since``; the newest first, a page at a time."""
        q = (self._select.where(self._in_lobby(since))
             .order_by(tables.c.created.desc(), tables.c.id).limit(limit).offset(offset))
        with self.engine.connect() as c:
            rows = c.execute(q).all()
        return [self._table(r) for r in rows]

    def lobby_count(self, since: dt.datetime) -> int:
        q = sa.select(sa.func.count()).select_from(tables).where(self._in_lobby(since))
        with self.engine.connect() as c:
            return int(c.execute(q).scalar_one())

    def action_count(self, table_id: str) -> int:
        with self.engine.connect() as c:
            return int(c.execute(sa.select(sa.func.count()).select_from(actions)
                                 .where(actions.c.table_id == table_id)).scalar_one())

    # -------------------------------------------------------------- actions
    def append_action(self, table_id: str, seq: int, seat: int | None,
                      action: dict[str, Any], time_seq: int | None = None,
                      timed: bool = True) -> None:
        """Append action number ``seq`` (from 0); raises :class:`SeqTaken` if another
        writer got there first, :class:`TimeCalled` if time was called at the table and
        the writer did not know it (``time_seq``: after how many actions the writer
        knows time was called). Returns once the action is committed. ``timed``: time
        may be called at this table (a club event's): with PostgreSQL, the action is
        then written under the table's lock, one after the other with a time call;
        otherwise in one statement."""
        params, note = self.append_params(table_id, seq, seat, action, time_seq)
        try:
            if not self.postgres:
                with self.engine.begin() as c:
                    done = c.execute(_APPEND, params).rowcount == 1
            elif timed:
                with self.engine.begin() as c:
                    self._lock_and_notify(c, table_id, note)
                    done = c.execute(_APPEND, params).rowcount == 1
            else:
                done = self._append_quickly(params, note)
        except IntegrityError as e:
            raise SeqTaken(f"action {seq} of table {table_id} is already written") from e
        if not done:
            raise TimeCalled(f"time was called at table {table_id}")

    def append_params(self, table_id: str, seq: int, seat: int | None,
                      action: dict[str, Any], time_seq: int | None
                      ) -> tuple[dict[str, Any], dict[str, Any]]:
        """An action's row, and its notice to the other processes (with PostgreSQL)."""
        # (orjson: the same text for the engine's actions, in a fifteenth of the time of
        # the standard library's, on the event loop for every move)
        text = orjson.dumps(action).decode()
        params: dict[str, Any] = {"t": table_id, "seq": seq, "seat": seat, "a": text,
                                  "created": _now(), "known": time_seq}
        note: dict[str, Any] = {"o": self.origin, "k": "act", "t": table_id, "s": seq + 1,
                                "seat": seat}
        if len(text) < 6000:  # the others apply it without reading the log
            note["a"] = action
        return params, note

    def _append_quickly(self, params: dict[str, Any], note: dict[str, Any]) -> bool:
        """PostgreSQL: append and announce in one statement, its own transaction, sent
        through the driver itself (the busiest statement: no SQL to compile)."""
        import psycopg
        conn = self.engine.raw_connection()
        try:
            driver: Any = conn.driver_connection
            driver.autocommit = True
            try:
                row = driver.execute(APPEND_NOTIFY_SQL, append_notify_args(
                    params, json.dumps(note, separators=(",", ":")))).fetchone()
            except psycopg.errors.UniqueViolation as e:
                raise IntegrityError(APPEND_NOTIFY_SQL, None, e) from e
            finally:
                driver.autocommit = False
            return row is not None
        finally:
            conn.close()

    def _lock_and_notify(self, c: Any, table_id: str, note: dict[str, Any]) -> None:
        """PostgreSQL: hold the table's write lock until the transaction ends (an action
        and a time call at one table are written one after the other, each seeing the
        other) and announce the change (sent when the transaction is committed, never
        if it is not)."""
        c.execute(_LOCK_NOTIFY, {"t": table_id, "ch": CHANNEL,
                                 "p": json.dumps(note, separators=(",", ":"))})

    def notify(self, note: dict[str, Any]) -> None:
        """Announce a change that is not written (PostgreSQL; nothing with SQLite)."""
        if self.postgres:
            with self.engine.begin() as c:
                c.execute(_NOTIFY, {"ch": CHANNEL, "p": json.dumps(
                    {"o": self.origin, **note}, separators=(",", ":"))})

    def actions(self, table_id: str, after: int = -1) -> list[ActionRow]:
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(actions.c.seq, actions.c.seat, actions.c.action_json)
                .where(actions.c.table_id == table_id, actions.c.seq > after)
                .order_by(actions.c.seq)).all()
        return [ActionRow(int(r[0]), None if r[1] is None else int(r[1]), json.loads(r[2]))
                for r in rows]

    # ----------------------------------------------------------- club events
    def tag_event_table(self, table_id: str, event: str, round_no: int, table_no: int) -> None:
        """Mark a table as round ``round_no``, table ``table_no`` of a club event."""
        with self.engine.begin() as c:
            c.execute(sa.insert(event_tables).values(
                table_id=table_id, event=event, round=round_no, table_no=table_no,
                created=_now()))

    def event_table(self, table_id: str) -> EventTableRow | None:
        with self.engine.connect() as c:
            row = c.execute(sa.select(event_tables)
                            .where(event_tables.c.table_id == table_id)).first()
        return None if row is None else EventTableRow(row.table_id, row.event, int(row.round),
                                                      int(row.table_no), row.created)

    def event_tables(self, event: str) -> list[EventTableRow]:
        """The event's tables, oldest first (a later one for the same round and table
        replaces an earlier one)."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(event_tables).where(event_tables.c.event == event)
                             .order_by(event_tables.c.created)).all()
        return [EventTableRow(r.table_id, r.event, int(r.round), int(r.table_no), r.created)
                for r in rows]

    # ------------------------------------------------------------------ chat
    def add_chat(self, table_id: str, seat: int, kind: str, text: str) -> ChatLine:
        now = _now()
        with self.engine.begin() as c:
            done = c.execute(sa.insert(chat_lines).values(
                table_id=table_id, seat=seat, kind=kind, text=text, created=now))
            key = done.inserted_primary_key
            assert key is not None
        return ChatLine(int(key[0]), seat, kind, text, now)

    def chat(self, table_id: str, limit: int = 50) -> list[ChatLine]:
        """The table's last ``limit`` lines, oldest first."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(chat_lines).where(chat_lines.c.table_id == table_id)
                             .order_by(chat_lines.c.id.desc()).limit(limit)).all()
        return [ChatLine(int(r.id), int(r.seat), r.kind, r.text, r.created)
                for r in reversed(rows)]

    def set_event_chat(self, event: str, on: bool) -> None:
        """Chat at a club event's tables: on (the default) or off."""
        with self.engine.begin() as c:
            c.execute(sa.delete(quiet_events).where(quiet_events.c.event == event))
            if not on:
                c.execute(sa.insert(quiet_events).values(event=event))

    def event_chat(self, event: str) -> bool:
        with self.engine.connect() as c:
            return c.execute(sa.select(quiet_events.c.event)
                             .where(quiet_events.c.event == event)).first() is None

    # ----------------------------------------------------------------- clock
    def call_time(self, table_id: str, seq: int, notice: str = "") -> bool:
        """Keep that time was called at a table after ``seq`` actions; False if it was
        called before. Raises :class:`SeqTaken` if action ``seq`` is already written
        (the caller reads the log and calls time again)."""
        try:
            with self.engine.begin() as c:
                if self.postgres:
                    self._lock_and_notify(c, table_id, {"o": self.origin, "k": "time",
                                                        "t": table_id, "s": seq,
                                                        "n": notice[:500]})
                done = c.execute(_CALL_TIME, {"t": table_id, "seq": seq, "created": _now()})
        except IntegrityError:
            return False
        if done.rowcount != 1:
            raise SeqTaken(f"action {seq} of table {table_id} is already written")
        return True

    def time_called(self, table_id: str) -> int | None:
        """After how many actions time was called at a table, or None."""
        with self.engine.connect() as c:
            row = c.execute(sa.select(time_calls.c.seq)
                            .where(time_calls.c.table_id == table_id)).first()
        return None if row is None else int(row[0])


# the statements of the hot path, written once: an action is appended only if time was
# not called at the table unknown to the writer; time is called only before an action
# not yet written
_APPEND = sa.text(
    "INSERT INTO actions (table_id, seq, seat, action_json, created) "
    "SELECT CAST(:t AS VARCHAR(32)), CAST(:seq AS INTEGER), :seat, CAST(:a AS TEXT), "
    ":created WHERE NOT EXISTS (SELECT 1 FROM time_calls WHERE time_calls.table_id = "
    "CAST(:t AS VARCHAR(32)) AND (:known IS NULL OR time_calls.seq <> :known))"
).bindparams(sa.bindparam("created", type_=sa.DateTime),
             sa.bindparam("known", type_=sa.Integer), sa.bindparam("seat", type_=sa.Integer))
#: PostgreSQL: the same, and the notice of it, in one statement
_APPEND_NOTIFY = sa.text(
    "WITH written AS (" + str(_APPEND.text) + " RETURNING seq) "
    "SELECT pg_notify(CAST(:ch AS TEXT), CAST(:p AS TEXT)) FROM written"
).bindparams(sa.bindparam("created", type_=sa.DateTime),
             sa.bindparam("known", type_=sa.Integer), sa.bindparam("seat", type_=sa.Integer))
#: the same for the driver itself
def append_notify_args(params: dict[str, Any], note: str) -> tuple[Any, ...]:
    """The arguments of :data:`APPEND_NOTIFY_SQL` for an action's row and notice (as
    JSON)."""
    return (params["t"], params["seq"], params["seat"], params["a"], params["created"],
            params["t"], params["known"], params["known"], CHANNEL, note)


#: PostgreSQL: append an action unless time was called, and announce it, in one statement
#: (its one row back says it was written)
APPEND_NOTIFY_SQL = (
    "WITH written AS (INSERT INTO actions (table_id, seq, seat, action_json, created) "
    "SELECT %s::varchar(32), %s::integer, %s::integer, %s::text, %s::timestamp "
    "WHERE NOT EXISTS (SELECT 1 FROM time_calls WHERE time_calls.table_id = "
    "%s::varchar(32) AND (%s::integer IS NULL OR time_calls.seq <> %s::integer)) "
    "RETURNING seq) SELECT pg_notify(%s::text, %s::text) FROM written")
#: PostgreSQL: several actions appended at once (each unless its number is taken or
#: time was called at its table unknown to its writer), and those written announced in
#: one notice: their notices as one JSON array, by table and number (every process
#: hears every notice, so one for each statement, not one for each action: fewer for
#: PostgreSQL to queue and deliver, and for each process to read). The rows back are
#: the (table, number) written. The notices must fit in PostgreSQL's 8,000 bytes
#: (:data:`NOTICE_BYTES`; the appender sends no more together)
APPEND_MANY_NOTIFY_SQL = (
    "WITH input AS MATERIALIZED (SELECT * FROM jsonb_to_recordset(%s::jsonb) "
    "AS i(t varchar(32), seq integer, seat integer, a text, created timestamp, "
    "known integer, note text)), "
    "written AS (INSERT INTO actions (table_id, seq, seat, action_json, created) "
    "SELECT i.t, i.seq, i.seat, i.a, i.created FROM input i "
    "WHERE NOT EXISTS (SELECT 1 FROM time_calls WHERE time_calls.table_id = i.t "
    "AND (i.known IS NULL OR time_calls.seq <> i.known)) "
    "ON CONFLICT DO NOTHING RETURNING table_id, seq), "
    "told AS MATERIALIZED (SELECT pg_notify(%s::text, "
    "'[' || string_agg(i.note, ',' ORDER BY i.t, i.seq) || ']') FROM written w "
    "JOIN input i ON i.t = w.table_id AND i.seq = w.seq HAVING count(*) > 0) "
    "SELECT w.table_id, w.seq FROM written w, told")
#: the most bytes of notices one statement announces together (PostgreSQL refuses a
#: notice of 8,000 bytes or more)
NOTICE_BYTES = 7_900
_CALL_TIME = sa.text(
    "INSERT INTO time_calls (table_id, seq, created) SELECT CAST(:t AS VARCHAR(32)), "
    "CAST(:seq AS INTEGER), :created WHERE NOT EXISTS (SELECT 1 FROM actions WHERE "
    "actions.table_id = CAST(:t AS VARCHAR(32)) AND actions.seq >= CAST(:seq AS INTEGER))"
).bindparams(sa.bindparam("created", type_=sa.DateTime))
# (2, 0): creating the tables, SCHEMA_LOCK; (1, table): a table's writes
_LOCK_NOTIFY = sa.text("SELECT pg_advisory_xact_lock(1, hashtext(CAST(:t AS TEXT))), "
                       "pg_notify(CAST(:ch AS TEXT), CAST(:p AS TEXT))")
_NOTIFY = sa.text("SELECT pg_notify(CAST(:ch AS TEXT), CAST(:p AS TEXT))")
