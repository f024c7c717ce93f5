"""Write ``old-database.db`` (and ``old-database.json``, what the upgrade test expects
of it) with the handfoot of before schema migrations were kept: the test upgrades it
and checks that nothing was lost (tests/server/test_migrations.py).

Run with that version's source first on the path, from the repository's root::

    git archive <commit> src | tar -x -C /tmp/base
    PYTHONPATH=/tmp/base/src:tests .venv/bin/python tests/data/make_old_database.py

What it holds: saved house rules; a finished game of computer players on them; a game
in progress of a person and three computers (with chat, the person's invite token kept
in the JSON); a table waiting for two people, one of whom has joined; a club event of
one round with every table's result (standings in the JSON); a game dealt from a
secret, with the person's hand at its first turn.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parents[1] / "examples" / "score"
NAMES = ["Anne Lee", "Bob Lee", "Carol King", "Dan King", "Eve Moss", "Frank Moss",
         "Gail Hart", "Hank Hart"]


def main() -> int:
    from handfoot.cli import main as cli
    from handfoot.club.results import play_table, result_from_game
    from handfoot.club.store import ClubStore
    from handfoot.server.testing import ServerProcess

    db_file = HERE / "old-database.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db_file}{suffix}").unlink(missing_ok=True)
    url = f"sqlite:///{db_file}"
    env = {"PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    expect: dict[str, object] = {}
    with ServerProcess(url, bot_delay=0.0, env=env) as s:
        saved = s.post("/api/rule-sets/check", {"base": "classic", "name": "One-hand classic",
                                                "toml": "[game]\nhands = 1\n"})
        expect["rule_set"] = {"name": saved["name"], "owner": saved["owner"]}
        done = s.post("/api/tables", {"rules": "One-hand classic", "seed": 11,
                                      "seats": [{"kind": "bot", "level": "medium"}] * 4})
        deadline = time.monotonic() + 300
        while not s.get(f"/api/tables/{done['id']}").get("over"):
            assert time.monotonic() < deadline, "the computers did not finish"
            time.sleep(0.5)
        live = s.post("/api/play", {"rules": "texas-good-sam", "level": "random", "seed": 3})
        c = s.client(live["id"], live["token"])
        last = [-1]
        for _ in range(3):
            state = c.wait(lambda m: m["type"] == "state" and m["view"]["actor"] == 0
                           and bool(m.get("legal")) and m["seq"] > last[0])
            c.act(state["legal"][0])
            last[0] = state["seq"]
            c.wait(lambda m: m["type"] == "state" and m["seq"] > last[0])
        c.send({"type": "chat", "text": "Good luck, everyone"})
        c.wait(lambda m: m["type"] == "chat" and m["lines"])
        seq = c.state()["seq"]
        c.close()
        # dealt from a secret (no seed given): the same hand after the upgrade
        dealt = s.post("/api/play", {"rules": "classic", "level": "random"})
        d = s.client(dealt["id"], dealt["token"])
        shown = d.wait(lambda m: m["type"] == "state" and m["view"]["actor"] == 0
                       and bool(m.get("legal")))
        d.close()
        expect["secret"] = {"id": dealt["id"], "token": dealt["token"], "seq": shown["seq"],
                            "hand": shown["view"]["hand"]}
        waiting = s.post("/api/tables", {"rules": "classic", "seed": 5, "wait": True, "seats": [
            {"kind": "human", "name": "Ann"}, {"kind": "bot"}, {"kind": "human", "name": "Bob"},
            {"kind": "bot"}]})
        ann = s.client(waiting["id"], waiting["invites"][0]["token"])
        ann.wait(lambda m: m["type"] == "state")
        ann.close()
        tables = s.get("/api/tables")
        expect["finished"] = done["id"]
        expect["live"] = {"id": live["id"], "token": live["token"], "seq": seq}
        expect["waiting"] = {"id": waiting["id"], "creator": waiting["creator"],
                             "tokens": [i["token"] for i in waiting["invites"]]}
        expect["tables"] = tables
        expect["records"] = {done["id"]: s.get(f"/api/tables/{done['id']}/record")}
    db = ["--db", url]
    assert cli(["event", "create", "Winter Social", "--variant", "texas-good-sam",
                "--rounds", "1", "--password", "pw1234", *db]) == 0
    players = io.StringIO()
    w = csv.writer(players, lineterminator="\n")
    w.writerow(["name", "chapter"])
    for i, n in enumerate(NAMES):
        w.writerow([n, ("Waco", "Austin")[i % 2]])
    (HERE / "old-players.csv").write_text(players.getvalue(), "utf-8")
    assert cli(["event", "import", "Winter Social", str(HERE / "old-players.csv"), *db]) == 0
    (HERE / "old-players.csv").unlink()
    assert cli(["event", "draw", "Winter Social", "--round", "1", "--seed", "7", *db]) == 0
    assert cli(["event", "result", "Winter Social", "--round", "1", "--table", "1", "--sheet",
                str(EXAMPLES / "texas-good-sam.toml"), *db]) == 0
    club = ClubStore(url)
    ev = club.load("Winter Social")
    club.close()
    game = play_table(ev, 1, 2, ["heuristic"], seed=2)
    record = result_from_game(ev, 1, 2, game).detail["record"]
    (HERE / "old-table2.json").write_text(json.dumps(record), "utf-8")
    assert cli(["event", "result", "Winter Social", "--round", "1", "--table", "2",
                "--record", str(HERE / "old-table2.json"), *db]) == 0
    (HERE / "old-table2.json").unlink()
    out = io.StringIO()
    real, sys.stdout = sys.stdout, out
    try:
        assert cli(["event", "standings", "Winter Social", "--csv", *db]) == 0
    finally:
        sys.stdout = real
    expect["standings_csv"] = out.getvalue()
    import gc
    import sqlite3
    gc.collect()  # (the command's stores, and their connections)
    with sqlite3.connect(db_file) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("PRAGMA journal_mode=DELETE")
        expect["rows"] = {name: conn.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0]
                          for (name,) in conn.execute(
                              "SELECT name FROM sqlite_master WHERE type = 'table'")}
    (HERE / "old-database.json").write_text(json.dumps(expect, indent=1) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
