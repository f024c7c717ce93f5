"""People in the database: each person known by the player keys their browsers keep
(only the keys' hashes are stored), the seats they sat in, their games, ratings and
optional password, and the table Play again starts from a finished one.

>>> from handfoot.server.storage.store import Store
>>> s = Store("sqlite://")
>>> people = People(s)
>>> me, key = people.new_player("Ann")
>>> people.player_of_key(key).name, people.player_of_key("no such key")
('Ann', None)
>>> t = s.create_table("x", "rules = 1", 7, [{"kind": "human"}, {"kind": "bot"}])
>>> people.sit(t, 0, me.id), people.sit(t, 0, "someone else"), people.seat_players(t) == {0: me.id}
(True, False, True)
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from handfoot.server.storage.store import (
    Store,
    computer_ratings,
    player_keys,
    players,
    rated_tables,
    ratings,
    table_players,
    tables,
)

NAME_LENGTH = 40  #: the longest name a person may choose


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def name_key(name: str) -> str:
    """A name as names are compared (one person's name for signing in is unique)."""
    return " ".join(name.casefold().split())[:NAME_LENGTH]


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str
    password_hash: str | None
    leaderboard: bool
    created: dt.datetime


@dataclass(frozen=True, slots=True)
class Rating:
    rules: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class Game:
    """One of a person's games: the table, their seat and the table's row."""

    table_id: str
    seat: int
    rules_name: str
    rules_toml: str
    seats: list[dict[str, Any]]
    created: dt.datetime
    result: dict[str, Any] | None
    next_table: str | None


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


class People:
    """The people of one database (over the game store's engine)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    # -------------------------------------------------------------- players
    def new_player(self, name: str) -> tuple[Player, str]:
        """A new person with a new player key (returned: only its hash is kept)."""
        pid, key = secrets.token_hex(8), secrets.token_urlsafe(24)
        now = _now()
        with self.engine.begin() as c:
            c.execute(sa.insert(players).values(id=pid, name=name, name_key=name_key(name),
                                                leaderboard=False, created=now))
            c.execute(sa.insert(player_keys).values(key_hash=key_hash(key), player_id=pid,
                                                    created=now))
        return Player(pid, name, None, False, now), key

    def new_key(self, player_id: str) -> str:
        """Another player key for the person (signed in on another device)."""
        key = secrets.token_urlsafe(24)
        with self.engine.begin() as c:
            c.execute(sa.insert(player_keys).values(key_hash=key_hash(key),
                                                    player_id=player_id, created=_now()))
        return key

    @staticmethod
    def _player(row: Any) -> Player:
        return Player(row.id, row.name, row.password_hash, bool(row.leaderboard),
                      row.created)

    def player_of_key(self, key: str) -> Player | None:
        if not key or len(key) > 100:
            return None
        with self.engine.connect() as c:
            row = c.execute(sa.select(players).join(
                player_keys, player_keys.c.player_id == players.c.id)
                .where(player_keys.c.key_hash == key_hash(key))).first()
        return None if row is None else self._player(row)

    def player(self, player_id: str) -> Player | None:
        with self.engine.connect() as c:
            row = c.execute(sa.select(players).where(players.c.id == player_id)).first()
        return None if row is None else self._player(row)

    def named_with_password(self, name: str) -> list[Player]:
        """The people of this name (compared as :func:`name_key`) who set a password."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(players).where(
                players.c.name_key == name_key(name),
                players.c.password_hash.is_not(None))).all()
        return [self._player(r) for r in rows]

    def update(self, player_id: str, **values: Any) -> None:
        """Change a person's ``name``, ``password_hash`` or ``leaderboard``."""
        if "name" in values:
            values["name_key"] = name_key(values["name"])
        with self.engine.begin() as c:
            c.execute(sa.update(players).where(players.c.id == player_id).values(**values))

    # ---------------------------------------------------------------- seats
    def sit(self, table_id: str, seat: int, player_id: str) -> bool:
        """The person opened the seat's invite link: they sit there, unless another
        person sat there first (False then)."""
        try:
            with self.engine.begin() as c:
                c.execute(sa.insert(table_players).values(table_id=table_id, seat=seat,
                                                          player_id=player_id))
        except IntegrityError:
            return self.seat_players(table_id).get(seat) == player_id
        return True

    def unseat(self, table_id: str, seat: int) -> None:
        """The seat has a new invite link: its person no longer sits there."""
        with self.engine.begin() as c:
            c.execute(sa.delete(table_players).where(table_players.c.table_id == table_id,
                                                     table_players.c.seat == seat))

    def seat_players(self, table_id: str) -> dict[int, str]:
        """Each seat's person, by seat."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(table_players.c.seat, table_players.c.player_id)
                             .where(table_players.c.table_id == table_id)).all()
        return {int(r[0]): str(r[1]) for r in rows}

    def games(self, player_id: str, limit: int = 200) -> list[Game]:
        """The person's games, the newest first."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(table_players.c.seat, tables).join(
                    tables, tables.c.id == table_players.c.table_id)
                .where(table_players.c.player_id == player_id)
                .order_by(tables.c.created.desc(), tables.c.id).limit(limit)).all()
        return [Game(r.id, int(r.seat), r.rules_name, r.rules_toml, json.loads(r.seats_json),
                     r.created, json.loads(r.result_json) if r.result_json else None,
                     r.next_table)
                for r in rows]

    # ----------------------------------------------------------- play again
    def play_again(self, table_id: str, new_id: str, rules_name: str, rules_toml: str,
                   seats: list[dict[str, Any]], secret: str, creator_hash: str | None,
                   settings: dict[str, Any], sat: dict[int, str]) -> str:
        """Start the game after ``table_id``'s: the table ``new_id`` with these seats,
        its people in the same seats (``sat``), unless Play again was pressed already
        (then nothing is written). The table that follows, either way."""
        with self.engine.begin() as c:
            done = c.execute(sa.update(tables).where(tables.c.id == table_id,
                                                     tables.c.next_table.is_(None))
                             .values(next_table=new_id))
            if done.rowcount != 1:
                c.rollback()
                row = c.execute(sa.select(tables.c.next_table)
                                .where(tables.c.id == table_id)).first()
                return str(row[0]) if row and row[0] else ""
            c.execute(sa.insert(tables).values(
                id=new_id, rules_name=rules_name, rules_toml=rules_toml, seed=0,
                seats_json=json.dumps(seats), created=_now(), secret=secret,
                creator_hash=creator_hash,
                settings_json=json.dumps(settings) if settings else None))
            for seat, pid in sat.items():
                c.execute(sa.insert(table_players).values(table_id=new_id, seat=seat,
                                                          player_id=pid))
            self.store.seats_changed(c, table_id)
        return new_id

    # -------------------------------------------------------------- ratings
    def ratings_of(self, player_id: str) -> list[Rating]:
        with self.engine.connect() as c:
            rows = c.execute(sa.select(ratings).where(ratings.c.player_id == player_id)
                             .order_by(ratings.c.rules)).all()
        return [Rating(r.rules, float(r.mu), float(r.sigma), int(r.games)) for r in rows]

    def ratings_in(self, rules: str, player_ids: list[str]) -> dict[str, Rating]:
        with self.engine.connect() as c:
            rows = c.execute(sa.select(ratings).where(
                ratings.c.rules == rules, ratings.c.player_id.in_(player_ids))).all()
        return {r.player_id: Rating(r.rules, float(r.mu), float(r.sigma), int(r.games))
                for r in rows}

    def leaderboard(self, rules: str) -> list[tuple[Player, Rating]]:
        """The rated people who chose to appear, with their rating in ``rules``."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(players, ratings.c.mu, ratings.c.sigma,
                                       ratings.c.games).join(
                ratings, ratings.c.player_id == players.c.id)
                .where(ratings.c.rules == rules, players.c.leaderboard.is_(True))).all()
        return [(self._player(r), Rating(rules, float(r.mu), float(r.sigma), int(r.games)))
                for r in rows]

    def computers(self, rules: str) -> dict[str, Rating]:
        """The computer levels' ratings in ``rules``, by level."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(computer_ratings)
                             .where(computer_ratings.c.rules == rules)).all()
        return {r.level: Rating(rules, float(r.mu), float(r.sigma), int(r.games))
                for r in rows}

    def set_computers(self, rules: str, levels: dict[str, Rating]) -> None:
        with self.engine.begin() as c:
            c.execute(sa.delete(computer_ratings).where(computer_ratings.c.rules == rules))
            for level, r in levels.items():
                c.execute(sa.insert(computer_ratings).values(
                    level=level, rules=rules, mu=r.mu, sigma=r.sigma, games=r.games,
                    updated=_now()))

    def rate(self, table_id: str, rules: str | None, new: dict[str, Rating]) -> bool:
        """Keep a finished game's new ratings (``rules`` None: it is not rated), once:
        False if the game was rated before (by this process or another)."""
        try:
            with self.engine.begin() as c:
                c.execute(sa.insert(rated_tables).values(table_id=table_id, rules=rules,
                                                         created=_now()))
                for pid, r in new.items():
                    c.execute(sa.delete(ratings).where(ratings.c.player_id == pid,
                                                       ratings.c.rules == r.rules))
                    c.execute(sa.insert(ratings).values(
                        player_id=pid, rules=r.rules, mu=r.mu, sigma=r.sigma,
                        games=r.games, updated=_now()))
        except IntegrityError:
            return False
        return True

    def was_rated(self, table_id: str) -> bool:
        with self.engine.connect() as c:
            return c.execute(sa.select(rated_tables.c.table_id)
                             .where(rated_tables.c.table_id == table_id)).first() is not None
