"""The database's schema and its migrations (Alembic; the files in ``migrations/``).

Every store brings the database up to the newest revision as it opens it
(:func:`ensure_schema`; on PostgreSQL under the lock that several server processes
starting at once take in turn), and ``handfoot db upgrade`` does the same on its own.
A database made before migrations were kept is brought up by the first migration
(which creates only the tables it lacks). A database written by a newer version of
handfoot, whose revision this one does not know, is refused before anything is written.

>>> import sqlalchemy as sa
>>> engine = sa.create_engine("sqlite://")
>>> upgrade(engine) == (None, HEAD)
True
>>> revision(engine) == HEAD == head()
True
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from handfoot.server.storage.database import SCHEMA_LOCK

if TYPE_CHECKING:  # (Alembic is imported when a database is opened: --help stays quick)
    from alembic.script import ScriptDirectory

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


class SchemaError(Exception):
    """The database cannot be used by this version (written by a newer one)."""


@cache
def scripts() -> ScriptDirectory:
    from alembic.script import ScriptDirectory
    return ScriptDirectory(str(MIGRATIONS), version_locations=[str(MIGRATIONS)])


#: the newest revision, this version's (the migrations' last file)
HEAD = max(p.stem.split("_")[0].removeprefix("v") for p in MIGRATIONS.glob("v[0-9]*.py"))


def head() -> str:
    """The newest revision, as Alembic finds it (the same as :data:`HEAD`)."""
    found = scripts().get_current_head()
    assert found is not None
    return found


def known_revisions() -> set[str]:
    return {s.revision for s in scripts().walk_revisions()}


def current_revision(conn: sa.Connection) -> str | None:
    from alembic.runtime.migration import MigrationContext
    heads = MigrationContext.configure(conn).get_current_heads()
    return heads[0] if heads else None


def revision(engine: sa.Engine) -> str | None:
    """The database's schema revision (None: none recorded, an empty database or one
    made before migrations were kept)."""
    with engine.connect() as c:
        return current_revision(c)


def check_known(current: str | None, url: str = "") -> None:
    """Raise :class:`SchemaError` if ``current`` is a revision this version does not
    know: the database was written by a newer version."""
    if current is not None and current not in known_revisions():
        where = f" ({url})" if url else ""
        raise SchemaError(
            f"the database{where} was written by a newer version of handfoot (its schema "
            f"is at revision {current}; this version knows revisions up to {HEAD}). "
            f"Nothing was written to it. Install the newer version "
            f"(pip install --upgrade handfoot) or use a database of this version.")


def _upgrade_in(conn: sa.Connection) -> str | None:
    """Run the migrations that ``conn``'s database lacks, in its transaction; the
    revision it had."""
    current = current_revision(conn)
    check_known(current)
    if current == HEAD:
        return current
    from alembic.config import Config
    from alembic.runtime.environment import EnvironmentContext
    script = scripts()
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))

    def steps(rev: Any, _context: Any) -> Any:
        return script._upgrade_revs(HEAD, rev)

    with EnvironmentContext(config, script, fn=steps, destination_rev=HEAD) as env:
        env.configure(connection=conn, transaction_per_migration=False)
        with env.begin_transaction():
            env.run_migrations()
    return current


def upgrade(engine: sa.Engine) -> tuple[str | None, str]:
    """Bring the database up to :data:`HEAD`: (the revision it had, the one it has).
    All in one transaction (on PostgreSQL under :data:`SCHEMA_LOCK`): a migration
    that fails leaves the database as it was."""
    with engine.begin() as c:
        if engine.dialect.name == "postgresql":
            c.execute(SCHEMA_LOCK)
        before = _upgrade_in(c)
    return before, HEAD


def ensure_schema(engine: sa.Engine) -> None:
    """What a store does as it opens the database: nothing if it is up to date (one
    quick read), else :func:`upgrade`."""
    if revision(engine) != HEAD:
        upgrade(engine)
