"""``handfoot db upgrade|backup|restore``: the database's schema brought up to date,
and backups made and restored (:mod:`.schema`, :mod:`.backup`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa


def shown_url(url: str) -> str:
    """``url`` with its password hidden."""
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except sa.exc.ArgumentError:
        return url


def database_errors(what: str, url: str, run: Callable[[], int]) -> int:
    """Run ``run``; a database that cannot be reached, a URL that is not one, a newer
    version's database or a refused backup: a message naming the problem, exit 1."""
    from handfoot.server.storage.backup import BackupError
    from handfoot.server.storage.schema import SchemaError
    try:
        return run()
    except (BackupError, SchemaError) as e:
        print(f"handfoot {what}: {e}", file=sys.stderr)
        return 1
    except sa.exc.ArgumentError as e:
        print(f"handfoot {what}: {url!r} is not a database URL ({e}); use "
              f"sqlite:///PATH or postgresql://USER:PASSWORD@HOST/DATABASE", file=sys.stderr)
        return 2
    except (sa.exc.OperationalError, sa.exc.InterfaceError) as e:
        reason = str(e.orig if e.orig is not None else e).strip().splitlines()
        print(f"handfoot {what}: cannot open the database {shown_url(url)}: "
              f"{reason[0] if reason else e}. Check that the server is running and the "
              f"address, user and password are right (or the SQLite file's folder "
              f"exists); nothing was written.", file=sys.stderr)
        return 1


def _url(args: argparse.Namespace) -> str:
    from handfoot.server.storage.database import default_url
    return str(args.db or default_url())


def _upgrade(url: str) -> tuple[str | None, str]:
    """The database's schema brought up to date: its revision before (None: no schema
    yet) and after."""
    from handfoot.server.storage.database import normalise_url
    from handfoot.server.storage.schema import upgrade
    engine = sa.create_engine(normalise_url(url), poolclass=sa.pool.NullPool)
    try:
        return upgrade(engine)
    finally:
        engine.dispose()


def prepare(what: str, url: str) -> int:
    """Before the server starts: the database reached and its schema brought up to
    date (a line saying so when it was upgraded); else the message and exit status of
    :func:`database_errors`."""
    from handfoot.server.storage.database import read_only_file
    why = read_only_file(url)
    if why:
        print(f"handfoot {what}: cannot write to the database {shown_url(url)} ({why}). "
              "The server would not be able to save any move: make it writable, then "
              "start it again.", file=sys.stderr)
        return 2

    def run() -> int:
        before, after = _upgrade(url)
        if before is not None and before != after:
            print(f"handfoot: the database's schema was upgraded from revision {before} "
                  f"to {after}", flush=True)
        return 0
    return database_errors(what, url, run)


def cmd_upgrade(args: argparse.Namespace) -> int:
    url = _url(args)

    def run() -> int:
        before, after = _upgrade(url)
        if before == after:
            print(f"handfoot db upgrade: {shown_url(url)} is up to date (schema revision "
                  f"{after})")
        else:
            print(f"handfoot db upgrade: {shown_url(url)} upgraded from schema revision "
                  f"{before or '(none)'} to {after}")
        return 0
    return database_errors("db upgrade", url, run)


def cmd_backup(args: argparse.Namespace) -> int:
    url = _url(args)

    def run() -> int:
        from handfoot.server.storage.backup import backup
        rows = backup(url, args.file)
        print(f"handfoot db backup: {shown_url(url)} copied to {args.file} ({rows} rows)")
        return 0
    return database_errors("db backup", url, run)


def cmd_restore(args: argparse.Namespace) -> int:
    url = _url(args)

    def run() -> int:
        from handfoot.server.storage.backup import restore
        rows = restore(args.file, url)
        print(f"handfoot db restore: {args.file} restored into {shown_url(url)} "
              f"({rows} rows)")
        return 0
    return database_errors("db restore", url, run)


def add_parser(sub: Any) -> None:
    p = sub.add_parser("db", help="the server's database: upgrade its schema, back it up, "
                                  "restore a backup")
    dbs = p.add_subparsers(dest="db_command", required=True)
    db_help = ("database URL: sqlite:///PATH or postgresql://USER:PW@HOST/DB "
               "(default: the server's SQLite file in your data folder)")
    q = dbs.add_parser("upgrade", help="bring the database's schema up to this version's "
                                       "(handfoot serve does it as it starts)")
    q.add_argument("--db", default=None, help=db_help)
    q.set_defaults(func=cmd_upgrade)
    q = dbs.add_parser("backup", help="copy the database into FILE (an SQLite file) while "
                                      "tables play")
    q.add_argument("file", metavar="FILE")
    q.add_argument("--db", default=None, help=db_help)
    q.set_defaults(func=cmd_backup)
    q = dbs.add_parser("restore", help="restore the backup FILE into an empty database")
    q.add_argument("file", metavar="FILE")
    q.add_argument("--db", default=None, help=db_help)
    q.set_defaults(func=cmd_restore)
