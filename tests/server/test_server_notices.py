"""What a server process does with the notices it hears
(:class:`handfoot.server.processes.sync.Bus`): each handed to its kind's handler, several
written together as one JSON array handed one by one in order, and its own let go unread."""

from __future__ import annotations

from typing import Any

import orjson

from handfoot.server.processes.sync import Bus


def _bus() -> tuple[Bus, list[tuple[str, Any]]]:
    bus = Bus("postgresql://handfoot@127.0.0.1/none", origin="ab12cd34")
    got: list[tuple[str, Any]] = []
    bus.on("act", lambda note: got.append(("act", note["s"])))
    bus.on("seats", lambda note: got.append(("seats", note["t"])))
    return bus, got


def test_notices_written_together_are_handed_one_by_one_in_order() -> None:
    bus, got = _bus()
    other = [{"o": "ffff0000", "k": "act", "t": "t1", "s": s, "seat": 0} for s in (4, 5)]
    bus._dispatch(orjson.dumps(other).decode())
    bus._dispatch(orjson.dumps({"o": "ffff0000", "k": "seats", "t": "t2"}).decode())
    bus._dispatch(orjson.dumps([{"o": "ffff0000", "k": "act", "t": "t1", "s": 6}]).decode())
    assert got == [("act", 4), ("act", 5), ("seats", "t2"), ("act", 6)]
    assert bus.heard == 4


def test_a_process_lets_its_own_notices_go_unread_and_bad_ones_change_nothing() -> None:
    bus, got = _bus()
    mine = [{"o": "ab12cd34", "k": "act", "t": "t1", "s": s} for s in (1, 2)]
    bus._dispatch(orjson.dumps(mine).decode())
    bus._dispatch(orjson.dumps(mine[0]).decode())
    # recognised by how it begins, before it is read: the rest is never parsed
    bus._dispatch('[{"o":"ab12cd34","k":"act", this is not JSON')
    # its own written by another library, with spaces: read, then let go
    bus._dispatch('{"o": "ab12cd34", "k": "act", "t": "t1", "s": 3}')
    assert got == [] and bus.heard == 0
    # nothing raised by what is not a notice, nor by a handler that fails on one (the
    # act handler here wants "s": its error is logged)
    for bad in ("not json", "[1, 2]", '{"k": "nobody"}', '[{"o": "x", "k": "act"}, 7]'):
        bus._dispatch(bad)
    assert got == [] and bus.heard == 1
