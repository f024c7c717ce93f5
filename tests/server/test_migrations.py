"""The database's schema migrations (``handfoot db upgrade``, run by ``handfoot serve``
as it starts): a database written before migrations were kept is upgraded with nothing
lost, the migrations make the schema the stores use, and a newer version's database is
refused with nothing written."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import cast

import pytest
import sqlalchemy as sa

from handfoot.cli import main
from handfoot.club import store as club_store
from handfoot.game.records import replay
from handfoot.rules import Rules
from handfoot.server.storage import store as game_store
from handfoot.server.storage.database import normalise_url
from handfoot.server.storage.migrations import v0001_initial
from handfoot.server.storage.schema import HEAD, SchemaError, revision, upgrade
from handfoot.server.storage.store import Store
from handfoot.server.testing import ServerProcess

pytestmark = pytest.mark.served

DATA = Path(__file__).resolve().parents[1] / "data"
OLD = DATA / "old-database.db"
EXPECT = json.loads((DATA / "old-database.json").read_text("utf-8"))


def old_database(url: str, tmp_path: Path) -> None:
    """The database of tests/data/old-database.db at ``url``: a copy of the file for
    SQLite; for PostgreSQL the tables the old version made (the first migration's, by
    ``create_all``, no revision) and the file's rows copied into them."""
    if url.startswith("sqlite"):
        shutil.copyfile(OLD, url.removeprefix("sqlite:///"))
        return
    source = sa.create_engine(f"sqlite:///{OLD}")
    target = sa.create_engine(normalise_url(url))
    schema = v0001_initial.schema()
    schema.create_all(target)
    with source.connect() as s, target.begin() as t:
        for table in schema.sorted_tables:
            rows = [dict(r) for r in s.execute(sa.select(table)).mappings()]
            if rows:
                t.execute(sa.insert(table), rows)
        for name in ("chat_lines", "club_results", "club_tie_breaks"):
            t.execute(sa.text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                              f"(SELECT COALESCE(MAX(id), 0) + 1 FROM {name}), false)"))
    source.dispose()
    target.dispose()


def counts(url: str) -> dict[str, int]:
    engine = sa.create_engine(normalise_url(url))
    try:
        with engine.connect() as c:
            return {name: int(c.execute(sa.text(f'SELECT COUNT(*) FROM "{name}"')).scalar_one())
                    for name in sa.inspect(c).get_table_names() if name != "alembic_version"}
    finally:
        engine.dispose()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_migrations_make_the_schema_the_stores_use(db_url: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext
    engine = sa.create_engine(normalise_url(db_url))
    try:
        assert upgrade(engine) == (None, HEAD)
        both = sa.MetaData()
        for meta in (game_store.metadata, club_store.metadata):
            for table in meta.tables.values():
                table.to_metadata(both)
        with engine.connect() as c:
            diff = compare_metadata(MigrationContext.configure(c), both)
        assert diff == []
        assert upgrade(engine) == (HEAD, HEAD)  # a second time: nothing to do
    finally:
        engine.dispose()


def test_an_old_database_is_upgraded_and_nothing_is_lost(
        db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old_database(db_url, tmp_path)
    assert counts(db_url) == EXPECT["rows"]
    code, out, _ = run(capsys, "db", "upgrade", "--db", db_url)
    assert code == 0 and f"from schema revision (none) to {HEAD}" in out
    # every row kept; the side tables folded into the tables they were beside
    folded = {"table_keys": "SELECT COUNT(*) FROM tables WHERE creator_hash IS NOT NULL",
              "rule_set_owners": "SELECT COUNT(*) FROM rule_sets WHERE owner_hash IS NOT NULL"}
    # (and the tables later versions added, empty)
    added = {"players", "player_keys", "table_players", "ratings", "computer_ratings",
             "rated_tables", "reviews"}
    assert counts(db_url) == {**{k: v for k, v in EXPECT["rows"].items() if k not in folded},
                              **dict.fromkeys(added, 0)}
    engine = sa.create_engine(normalise_url(db_url))
    with engine.connect() as c:
        for name, sql in folded.items():
            assert c.execute(sa.text(sql)).scalar_one() == EXPECT["rows"][name] > 0
    engine.dispose()
    # the event's standings are the same
    code, out, _ = run(capsys, "event", "standings", "Winter Social", "--csv", "--db", db_url)
    assert code == 0 and out == EXPECT["standings_csv"]
    assert len(list(csv.DictReader(io.StringIO(out)))) > 8
    with ServerProcess(db_url, bot_delay=0.0) as s:
        # every table listed, as it was
        def listed() -> dict[str, dict[str, object]]:
            return {t["id"]: t for t in s.get("/api/tables")["tables"]}

        keys = ("id", "rules", "created", "seats", "over", "waiting", "started")
        now = listed()
        assert len(now) == len(EXPECT["tables"]["tables"]) == 4
        for was in EXPECT["tables"]["tables"]:
            shown = cast(list[dict[str, object]], now[was["id"]]["seats"])
            before = cast(list[dict[str, object]], was["seats"])
            # (the seats as they were listed then: later versions list more of them)
            seen = {**now[was["id"]], "seats": [{k: x[k] for k in y} for x, y
                                                in zip(shown, before, strict=True)]}
            assert {k: seen[k] for k in keys} == {k: was[k] for k in keys}
            if was["over"]:
                assert now[was["id"]]["totals"] == was["totals"]
        # every finished record the same, and it replays
        for tid, record in EXPECT["records"].items():
            now = s.get(f"/api/tables/{tid}/record")
            # (the commitments are written in today's scheme, which covers the grabs too:
            # the same hands and salts, each opened and checked by the replay)
            # (the players named as today's server names them: "Computer 2 (medium)"; the
            # same rules: a setting added since is written at its default)
            assert Rules.from_dict(now["rules"]) == Rules.from_dict(record["rules"])
            assert {**now, "commitments": None, "players": None, "rules": None} == {
                **record, "commitments": None, "players": None, "rules": None}
            assert [p.split(" ")[0].lower() for p in now["players"]] == [
                p.split(" ")[0].lower() for p in record["players"]]
            assert ([(c["hand"], c["salt"]) for c in now["commitments"]]
                    == [(c["hand"], c["salt"]) for c in record["commitments"]])
            report = replay(now)
            assert report.ok, report
            # (a seeded deal replays but is never called verified)
            assert ("not verified" in report.message) == (record["seed"] is not None), report
        # the live game goes on, with its chat
        live = EXPECT["live"]
        player = s.client(live["id"], live["token"])
        try:
            chat = player.wait(lambda m: m["type"] == "chat")
            assert [x["text"] for x in chat["lines"]] == ["Good luck, everyone"]
            state = player.wait(lambda m: m["type"] == "state" and m["view"]["actor"] == 0
                           and bool(m.get("legal")))
            assert state["seq"] >= live["seq"]
            player.act(state["legal"][0])
            player.wait(lambda m: m["type"] == "state" and m["seq"] > state["seq"])
        finally:
            player.close()
        # the game dealt from a secret: the same hand (the secret was kept)
        dealt = EXPECT["secret"]
        d = s.client(dealt["id"], dealt["token"])
        try:
            st = d.wait(lambda m: m["type"] == "state" and m["seq"] == dealt["seq"])
            assert st["view"]["hand"] == dealt["hand"]
        finally:
            d.close()
        # the waiting table starts when its last person joins
        waiting = EXPECT["waiting"]
        assert listed()[waiting["id"]]["waiting"]
        bob = s.client(waiting["id"], waiting["tokens"][1])
        try:
            bob.wait(lambda m: m["type"] == "state" and not m.get("waiting", False))
        finally:
            bob.close()
        assert not listed()[waiting["id"]]["waiting"]
        # the saved house rules are there, still their owner's
        sets = s.get("/api/rule-sets")
        assert EXPECT["rule_set"]["name"] in [r["name"] for r in sets["rule_sets"] if r["saved"]]
        mine = s.post("/api/rule-sets/mine", {"owner": EXPECT["rule_set"]["owner"]})
        assert mine["names"] == [EXPECT["rule_set"]["name"]]


def fingerprint(url: str) -> str:
    if url.startswith("sqlite"):
        return hashlib.sha256(Path(url.removeprefix("sqlite:///")).read_bytes()).hexdigest()
    engine = sa.create_engine(normalise_url(url))
    try:
        with engine.connect() as c:
            names = sorted(sa.inspect(c).get_table_names())
            version = c.execute(sa.text("SELECT version_num FROM alembic_version")).all()
        return json.dumps([names, counts(url), [tuple(r) for r in version]])
    finally:
        engine.dispose()


def test_a_newer_version_s_database_is_refused_with_nothing_written(
        db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    Store(db_url).close()
    engine = sa.create_engine(normalise_url(db_url))
    with engine.begin() as c:
        c.execute(sa.text("UPDATE alembic_version SET version_num = '9999'"))
        c.execute(sa.text("DROP TABLE quiet_events"))  # as if a newer version had
    engine.dispose()
    before = fingerprint(db_url)
    code, _, err = run(capsys, "db", "upgrade", "--db", db_url)
    assert code == 1
    assert "written by a newer version of handfoot" in err and "revision 9999" in err
    with pytest.raises(SchemaError, match="newer version"):
        Store(db_url)
    serve = subprocess.run([sys.executable, "-m", "handfoot.server", "--db", db_url,
                            "--port", "1"], capture_output=True, text=True, timeout=60)
    assert serve.returncode == 1 and "newer version" in serve.stderr, serve.stderr
    assert "Traceback" not in serve.stderr
    assert fingerprint(db_url) == before
    engine = sa.create_engine(normalise_url(db_url))
    assert revision(engine) == "9999"
    engine.dispose()
