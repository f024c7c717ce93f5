"""Backups of the server's database, made while tables play, restored into an empty
database of either kind.

A backup is one SQLite file holding every table's rows and the schema revision they
were written at (``alembic_version``): ``handfoot serve --db sqlite:///FILE`` could
play on it as it is. From SQLite it is SQLite's online backup (a consistent copy of
the file while others write to it); from PostgreSQL, a copy of the rows read in one
``REPEATABLE READ`` transaction (one snapshot: every action committed before it began,
none half written). Restoring brings the backup's schema up to this version's (the
migrations) and copies every row into the target in one transaction, after checking
that the target holds no rows.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from handfoot.server.storage.database import SCHEMA_LOCK, normalise_url
from handfoot.server.storage.schema import (
    HEAD,
    SchemaError,
    check_known,
    current_revision,
    revision,
    upgrade,
)

VERSION_TABLE = "alembic_version"
BATCH = 2000


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why and what to do."""


def _engine(url: str) -> sa.Engine:
    return sa.create_engine(normalise_url(url), poolclass=sa.pool.NullPool)


def _sqlite_path(url: str) -> str | None:
    parsed = sa.engine.make_url(normalise_url(url))
    if parsed.get_backend_name() != "sqlite":
        return None
    if not parsed.database or parsed.database == ":memory:":
        raise BackupError("an in-memory SQLite database cannot be backed up or restored")
    return parsed.database


def _file_engine(path: str | Path) -> sa.Engine:
    return sa.create_engine(f"sqlite:///{path}", poolclass=sa.pool.NullPool)


def _data_tables(engine: sa.Engine) -> list[sa.Table]:
    """The database's tables (but the revision's), parents before children."""
    meta = sa.MetaData()
    meta.reflect(engine)
    return [t for t in meta.sorted_tables if t.name != VERSION_TABLE]


def backup(url: str, file: str | Path) -> int:
    """Copy the database at ``url`` into the new SQLite file ``file`` (written beside
    it and renamed at the end: never half written); the number of rows copied."""
    file = Path(file)
    if file.is_dir():
        raise BackupError(f"{file} is a folder: name the backup file to write")
    if not file.parent.is_dir():
        raise BackupError(f"there is no folder {file.parent} to write the backup in")
    path = _sqlite_path(url)
    if path is not None and not Path(path).is_file():
        raise BackupError(f"there is no database file {path}")
    source = _engine(url)
    try:
        current = revision(source)
        check_known(current)
        if current is None:
            raise BackupError("the database holds no handfoot tables: nothing to back up")
        partial = file.with_name(file.name + ".partial")
        partial.unlink(missing_ok=True)
        try:
            if path is not None:
                with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as src, \
                        closing(sqlite3.connect(partial)) as dst:
                    src.backup(dst)  # one step: a consistent copy while others write
                rows = _count(_file_engine(partial))
            else:
                rows = _copy_postgres(source, partial, current)
            os.replace(partial, file)
        finally:
            partial.unlink(missing_ok=True)
        return rows
    finally:
        source.dispose()


def _count(engine: sa.Engine) -> int:
    try:
        with engine.connect() as c:
            return sum(int(c.execute(sa.select(sa.func.count()).select_from(t)).scalar_one())
                       for t in _data_tables(engine))
    finally:
        engine.dispose()


def _copy_postgres(source: sa.Engine, partial: Path, current: str) -> int:
    if current != HEAD:
        raise BackupError(f"the database's schema is at revision {current}, older than "
                          f"this version's ({HEAD}): run `handfoot db upgrade` first")
    target = _file_engine(partial)
    try:
        upgrade(target)
        tables = _data_tables(target)
        rows = 0
        with source.connect() as s, target.begin() as t:
            s.execute(sa.text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"))
            for table in tables:
                result: sa.CursorResult[Any] = s.execution_options(yield_per=BATCH).execute(
                    sa.select(*[sa.column(c.name) for c in table.columns])
                    .select_from(sa.table(table.name)))
                for part in result.mappings().partitions(BATCH):
                    t.execute(sa.insert(table), [dict(r) for r in part])
                    rows += len(part)
        return rows
    finally:
        target.dispose()


def open_backup(file: str | Path) -> str | None:
    """Check that ``file`` is a handfoot backup that this version can restore; its
    schema revision (None: a server's SQLite file from before revisions were kept,
    which is restored too)."""
    file = Path(file)
    if not file.is_file():
        raise BackupError(f"there is no backup file {file}")
    with open(file, "rb") as f:
        magic = f.read(16)
    if magic != b"SQLite format 3\x00":
        raise BackupError(f"{file} is not a handfoot backup (not an SQLite database); "
                          f"name a file written by `handfoot db backup`")
    engine = _file_engine(file)
    try:
        names = sa.inspect(engine).get_table_names()
        if "tables" not in names or "actions" not in names:
            raise BackupError(f"{file} is an SQLite database but not a handfoot backup "
                              f"(it has no handfoot tables)")
        current = revision(engine)
    except sa.exc.DatabaseError as e:
        raise BackupError(f"{file} is not a handfoot backup ({e.orig})") from e
    finally:
        engine.dispose()
    try:
        check_known(current)
    except SchemaError as e:
        raise BackupError(f"the backup {file} was made by a newer version of handfoot "
                          f"(schema revision {current}); restore it with that version") from e
    return current


def _rows_in(c: sa.Connection) -> tuple[str, int] | None:
    """A table of ``c``'s database holding rows, and how many (None: all empty)."""
    inspector = sa.inspect(c)
    for name in inspector.get_table_names():
        if name == VERSION_TABLE:
            continue
        n = int(c.execute(sa.select(sa.func.count()).select_from(sa.table(name))).scalar_one())
        if n:
            return name, n
    return None


def restore(file: str | Path, url: str) -> int:
    """Restore the backup ``file`` into the empty database at ``url`` (its tables made
    if missing); the number of rows restored. Refuses, writing nothing, a file that is
    not a backup and a database that holds rows."""
    current = open_backup(file)
    with tempfile.TemporaryDirectory() as tmp:
        source_path = Path(file)
        if current != HEAD:  # an older version's backup: brought up to date in a copy
            source_path = Path(tmp) / "upgraded.db"
            shutil.copyfile(file, source_path)
            upgrade(_file_engine(source_path))
        source = _file_engine(source_path)
        target = _engine(url)
        try:
            tables = _data_tables(source)
            rows = 0
            with target.begin() as t:
                if target.dialect.name == "postgresql":
                    t.execute(SCHEMA_LOCK)
                full = _rows_in(t)
                if full is not None:
                    raise BackupError(
                        f"the database is not empty (its table {full[0]} holds {full[1]} "
                        f"rows): restore into a new, empty database (a new SQLite file, or "
                        f"`createdb` for PostgreSQL); nothing was written")
                check_known(current_revision(t))
            upgrade(target)
            with source.connect() as s, target.begin() as t:
                if target.dialect.name == "postgresql":
                    t.execute(SCHEMA_LOCK)
                full = _rows_in(t)
                if full is not None:  # written to meanwhile
                    raise BackupError(f"the database was written to during the restore "
                                      f"(table {full[0]}); restore into an empty database")
                mine = {x.name: x for x in _data_tables(target)}
                for table in tables:
                    into = mine[table.name]
                    result: sa.CursorResult[Any] = s.execute(sa.select(table))
                    for part in result.mappings().partitions(BATCH):
                        t.execute(sa.insert(into), [dict(r) for r in part])
                        rows += len(part)
                if target.dialect.name == "postgresql":
                    _reset_sequences(t, list(mine.values()))
            return rows
        finally:
            source.dispose()
            target.dispose()


def _reset_sequences(c: sa.Connection, tables: list[sa.Table]) -> None:
    """PostgreSQL: each serial column's sequence continues after the restored rows."""
    for table in tables:
        for col in table.primary_key.columns:
            if col.autoincrement is True or (
                    col.autoincrement == "auto" and isinstance(col.type, sa.Integer)
                    and len(table.primary_key.columns) == 1):
                seq = c.execute(sa.text("SELECT pg_get_serial_sequence(:t, :c)"),
                                {"t": table.name, "c": col.name}).scalar()
                if seq:
                    c.execute(sa.text(
                        f'SELECT setval(:s, COALESCE((SELECT MAX("{col.name}") FROM '
                        f'"{table.name}"), 0) + 1, false)'), {"s": seq})
