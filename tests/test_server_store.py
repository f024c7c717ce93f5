"""The storage layer, against SQLite and (where available) a real PostgreSQL server."""

from __future__ import annotations

import pytest

from handfoot.server.store import SeqTaken, Store, normalise_url
from server_fixtures import db_url  # noqa: F401


def test_tables_rule_sets_and_the_append_only_log(db_url: str) -> None:  # noqa: F811
    store = Store(db_url)
    try:
        store.save_rule_set("our club", "six-deck", "name = 'our club'")
        assert store.rule_set("our club") == ("six-deck", "name = 'our club'")
        assert ("our club", "six-deck") in store.rule_sets()
        seats = [{"kind": "human", "token_hash": "ab"}, {"kind": "bot", "level": "random"}]
        tid = store.create_table("six-deck", "x = 1", 2**40 + 3, seats)
        row = store.table(tid)
        assert row is not None and row.seed == 2**40 + 3 and row.seats == seats
        assert tid in [t.id for t in store.tables()]
        store.append_action(tid, 0, 0, {"type": "draw"})
        store.append_action(tid, 1, None, {"type": "discard", "card": "QH"})
        with pytest.raises(SeqTaken):  # a second writer of the same number loses
            store.append_action(tid, 1, 2, {"type": "draw"})
        assert [(a.seq, a.seat, a.action["type"]) for a in store.actions(tid)] == [
            (0, 0, "draw"), (1, None, "discard")]
        assert [a.seq for a in store.actions(tid, after=0)] == [1]
        store.set_seats(tid, [{"kind": "bot"}, {"kind": "bot"}])
        again = store.table(tid)
        assert again is not None and again.seats[0] == {"kind": "bot"}
        assert store.table("nope") is None
    finally:
        store.close()
    reopened = Store(db_url)  # the data outlives the connection
    try:
        assert len(reopened.actions(tid)) == 2
    finally:
        reopened.close()


def test_postgres_urls_use_psycopg() -> None:
    assert normalise_url("postgres://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert normalise_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("sqlite:///x.db") == "sqlite:///x.db"
