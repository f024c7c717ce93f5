"""Where the server's database is and how it is reached: the default SQLite file in the
user's data folder, URLs made to use psycopg 3, and the lock held while tables are
created. The game store and the club store share them."""

from __future__ import annotations

import os
from pathlib import Path

import sqlalchemy as sa

#: PostgreSQL: held while a store creates its tables, by the game store and the club
#: store alike, so that several server processes starting on a new database create each
#: table once
SCHEMA_LOCK = sa.text("SELECT pg_advisory_xact_lock(2, 0)")


def default_url() -> str:
    """The server's own SQLite file in the user's data folder (made if missing)."""
    import platformdirs
    folder = Path(platformdirs.user_data_dir("handfoot"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'handfoot.db'}"


def archive_dir(url: str) -> Path:
    """Where removed tables' games are kept (a JSON file each): ``HANDFOOT_ARCHIVE_DIR``
    if set, else ``archive`` beside an SQLite file, else in the user's data folder."""
    import os
    if os.environ.get("HANDFOOT_ARCHIVE_DIR"):
        return Path(os.environ["HANDFOOT_ARCHIVE_DIR"])
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        return Path(url.removeprefix("sqlite:///")).parent / "archive"
    import platformdirs
    return Path(platformdirs.user_data_dir("handfoot")) / "archive"


def normalise_url(url: str) -> str:
    """Accept ``postgresql://`` and ``postgres://`` URLs and use psycopg 3 for them."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def read_only_file(url: str) -> str:
    """Why an SQLite database file cannot be written ("" if it can, or if ``url`` is not
    an SQLite file): its filesystem is mounted read-only, or the file is not writable."""
    url = normalise_url(url)
    if not url.startswith("sqlite:///") or url == "sqlite:///:memory:":
        return ""
    path = Path(url.removeprefix("sqlite:///"))
    if not path.exists():
        return ""
    if os.statvfs(path).f_flag & os.ST_RDONLY:
        return "its filesystem is read-only"
    if not os.access(path, os.W_OK):
        return "the file is read-only"
    return ""
