"""``handfoot status``: the operator's view of a server and its database: the version,
the database and its schema revision, games in progress and waiting, games finished
today, and from the running server (its ``/metrics``, asked on this machine) the people
connected, the actions applied and the errors logged since it started."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import urllib.error
import urllib.request
from typing import Any

import sqlalchemy as sa

from handfoot import __version__


def database_figures(url: str) -> dict[str, Any]:
    from handfoot.server.storage.database import normalise_url
    from handfoot.server.storage.schema import HEAD, known_revisions, revision
    engine = sa.create_engine(normalise_url(url), poolclass=sa.pool.NullPool)
    try:
        current = revision(engine)
        out: dict[str, Any] = {
            "revision": current, "newest": HEAD,
            "schema": ("up to date" if current == HEAD
                       else "empty (made when the server starts)" if current is None
                       else "written by a newer version" if current not in known_revisions()
                       else "older: run handfoot db upgrade (or start the server)")}
        if current is None:
            return out
        today = dt.datetime.now(dt.UTC).replace(tzinfo=None, hour=0, minute=0, second=0,
                                                microsecond=0)
        hour_ago = dt.datetime.now(dt.UTC).replace(tzinfo=None) - dt.timedelta(hours=1)
        with engine.connect() as c:
            def one(sql: str, **params: Any) -> int:
                return int(c.execute(sa.text(sql), params).scalar_one())
            out["tables"] = one("SELECT COUNT(*) FROM tables")
            out["waiting"] = one("SELECT COUNT(*) FROM waiting_tables")
            out["in_progress"] = one(
                "SELECT COUNT(*) FROM tables WHERE result_json IS NULL AND id NOT IN "
                "(SELECT table_id FROM waiting_tables)")
            out["played_last_hour"] = one(
                "SELECT COUNT(DISTINCT table_id) FROM actions WHERE created >= :t", t=hour_ago)
            out["finished_today"] = one(
                "SELECT COUNT(*) FROM tables t WHERE t.result_json IS NOT NULL AND "
                "(SELECT MAX(created) FROM actions a WHERE a.table_id = t.id) >= :t", t=today)
            out["events"] = one("SELECT COUNT(*) FROM club_events")
        return out
    finally:
        engine.dispose()


def server_figures(base: str) -> dict[str, Any] | str:
    """The running server's figures (from its /metrics), or why there are none."""
    from handfoot.server.diagnostics.metrics import parse
    try:
        with urllib.request.urlopen(base.rstrip("/") + "/metrics", timeout=5) as r:
            samples = parse(r.read().decode())
    except (OSError, urllib.error.URLError) as e:
        return f"no server answers at {base} ({getattr(e, 'reason', e)})"

    def total(prefix: str) -> float:
        return sum(v for k, v in samples.items() if k.split("{")[0] == prefix)

    errors_at = samples.get("handfoot_last_error_timestamp_seconds", 0.0)
    version = next((k.split('"')[1] for k in samples if k.startswith("handfoot_info{")), "?")
    return {
        "version": version,
        "connected": int(total("handfoot_websocket_connections")),
        "requests": int(total("handfoot_http_requests_total")),
        "server_errors": int(sum(v for k, v in samples.items()
                                 if k.startswith("handfoot_http_requests_total{")
                                 and 'status="5' in k)),
        "actions": int(total("handfoot_actions_applied_total")),
        "errors": int(total("handfoot_errors_total")),
        "last_error": (dt.datetime.fromtimestamp(errors_at, dt.UTC).isoformat(timespec="seconds")
                       if errors_at else None),
        "queue": int(total("handfoot_pool_queue")),
    }


def cmd_status(args: argparse.Namespace) -> int:
    from handfoot.server.storage.command import database_errors, shown_url
    from handfoot.server.storage.database import default_url
    url = str(args.db or default_url())
    figures: dict[str, Any] = {}

    def run() -> int:
        figures.update(database_figures(url))
        return 0
    code = database_errors("status", url, run)
    if code:
        return code
    server = server_figures(args.server)
    if args.json:
        print(json.dumps({"version": __version__, "database": shown_url(url), **figures,
                          "server": server}, indent=1))
        return 0
    print(f"handfoot {__version__}")
    print(f"database: {shown_url(url)}")
    print(f"schema: revision {figures['revision'] or '(none)'}, {figures['schema']}")
    if "tables" in figures:
        print(f"tables: {figures['in_progress']} in progress ({figures['played_last_hour']} "
              f"played in the last hour), {figures['waiting']} waiting for their people, "
              f"{figures['tables']} in all; {figures['finished_today']} finished today "
              f"(UTC); {figures['events']} club event(s)")
    if isinstance(server, str):
        print(f"server: {server}")
    else:
        last = f", the last at {server['last_error']}" if server["last_error"] else ""
        print(f"server at {args.server}: version {server['version']}, {server['connected']} "
              f"connection(s) open, {server['actions']} action(s) applied and "
              f"{server['requests']} request(s) answered since it started, "
              f"{server['queue']} question(s) queued for the workers")
        print(f"errors: {server['errors']} logged, {server['server_errors']} request(s) "
              f"answered with a server error{last} (the server's log has each)")
    return 0


def add_parser(sub: Any) -> None:
    p = sub.add_parser("status", help="the operator's view: version, database, schema, "
                                      "tables, and the running server's figures")
    p.add_argument("--db", default=None,
                   help="database URL (default: the server's SQLite file in your data "
                        "folder)")
    p.add_argument("--server", default="http://127.0.0.1:8000", metavar="URL",
                   help="the running server, asked on this machine "
                        "(http://127.0.0.1:8000)")
    p.add_argument("--json", action="store_true", help="the same as JSON")
    p.set_defaults(func=cmd_status)
