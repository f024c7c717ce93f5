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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

metadata = sa.MetaData()

rule_sets = sa.Table(
    "rule_sets", metadata,
    sa.Column("name", sa.String(80), primary_key=True),
    sa.Column("base", sa.String(80), nullable=False),
    sa.Column("toml", sa.Text, nullable=False),
    sa.Column("created", sa.DateTime, nullable=False),
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


class SeqTaken(Exception):
    """Another writer appended this action number first."""


@dataclass(frozen=True, slots=True)
class TableRow:
    id: str
    rules_name: str
    rules_toml: str
    seed: int
    seats: list[dict[str, Any]]
    created: dt.datetime
    result: dict[str, Any] | None = None


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


def default_url() -> str:
    import platformdirs
    folder = Path(platformdirs.user_data_dir("handfoot"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'handfoot.db'}"


def normalise_url(url: str) -> str:
    """Accept ``postgresql://`` and ``postgres://`` URLs and use psycopg 3 for them."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


class Store:
    def __init__(self, url: str) -> None:
        url = normalise_url(url)
        self.url = url
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
            self.engine = sa.create_engine(url, pool_pre_ping=True)
        metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------ rule sets
    def save_rule_set(self, name: str, base: str, toml: str) -> None:
        with self.engine.begin() as c:
            c.execute(sa.delete(rule_sets).where(rule_sets.c.name == name))
            c.execute(sa.insert(rule_sets).values(name=name, base=base, toml=toml,
                                                  created=_now()))

    def rule_set(self, name: str) -> tuple[str, str] | None:
        with self.engine.connect() as c:
            row = c.execute(sa.select(rule_sets.c.base, rule_sets.c.toml)
                            .where(rule_sets.c.name == name)).first()
        return None if row is None else (row[0], row[1])

    def rule_sets(self) -> list[tuple[str, str]]:
        with self.engine.connect() as c:
            rows = c.execute(sa.select(rule_sets.c.name, rule_sets.c.base)
                             .order_by(rule_sets.c.name)).all()
        return [(r[0], r[1]) for r in rows]

    # --------------------------------------------------------------- tables
    def create_table(self, rules_name: str, rules_toml: str, seed: int,
                     seats: list[dict[str, Any]], table_id: str | None = None) -> str:
        tid = table_id or secrets.token_hex(6)
        with self.engine.begin() as c:
            c.execute(sa.insert(tables).values(
                id=tid, rules_name=rules_name, rules_toml=rules_toml, seed=seed,
                seats_json=json.dumps(seats), created=_now()))
        return tid

    def set_seats(self, table_id: str, seats: list[dict[str, Any]]) -> None:
        with self.engine.begin() as c:
            c.execute(sa.update(tables).where(tables.c.id == table_id)
                      .values(seats_json=json.dumps(seats)))

    def set_result(self, table_id: str, result: dict[str, Any]) -> None:
        with self.engine.begin() as c:
            c.execute(sa.update(tables).where(tables.c.id == table_id)
                      .values(result_json=json.dumps(result)))

    @staticmethod
    def _table(row: Any) -> TableRow:
        return TableRow(row.id, row.rules_name, row.rules_toml, int(row.seed),
                        json.loads(row.seats_json), row.created,
                        json.loads(row.result_json) if row.result_json else None)

    def table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as c:
            row = c.execute(sa.select(tables).where(tables.c.id == table_id)).first()
        return None if row is None else self._table(row)

    def tables(self) -> list[TableRow]:
        with self.engine.connect() as c:
            rows = c.execute(sa.select(tables).order_by(tables.c.created.desc())).all()
        return [self._table(r) for r in rows]

    # -------------------------------------------------------------- actions
    def append_action(self, table_id: str, seq: int, seat: int | None,
                      action: dict[str, Any]) -> None:
        """Append action number ``seq`` (from 0); raises :class:`SeqTaken` if another
        writer got there first. Returns once the action is committed."""
        try:
            with self.engine.begin() as c:
                c.execute(sa.insert(actions).values(
                    table_id=table_id, seq=seq, seat=seat,
                    action_json=json.dumps(action, separators=(",", ":")), created=_now()))
        except IntegrityError as e:
            raise SeqTaken(f"action {seq} of table {table_id} is already written") from e

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

    # ----------------------------------------------------------------- clock
    def call_time(self, table_id: str, seq: int) -> bool:
        """Keep that time was called at a table after ``seq`` actions; False if it was
        called before."""
        try:
            with self.engine.begin() as c:
                c.execute(sa.insert(time_calls).values(table_id=table_id, seq=seq,
                                                       created=_now()))
        except IntegrityError:
            return False
        return True

    def time_called(self, table_id: str) -> int | None:
        """After how many actions time was called at a table, or None."""
        with self.engine.connect() as c:
            row = c.execute(sa.select(time_calls.c.seq)
                            .where(time_calls.c.table_id == table_id)).first()
        return None if row is None else int(row[0])
