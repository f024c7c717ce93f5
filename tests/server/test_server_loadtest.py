"""The load test's glance at a state message, and its reading of the moves listed,
agree with reading the message whole."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from handfoot.server.diagnostics import bench_messages
from handfoot.server.diagnostics.loadtest import glance, legal_of
from handfoot.server.live.messages import Broadcast
from handfoot.server.offloop.work import people_moves

pytestmark = pytest.mark.served  # (left out of the pure-Python pass: see test.sh)


def test_a_glance_at_every_state_message_of_a_hand_reads_what_the_whole_message_says(
        monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[str] = []

    class Keep(Broadcast):
        def __init__(self, table: Any, legal: list[dict[str, Any]] | None) -> None:
            # the seat to act is sent its moves, as a person is shown them
            super().__init__(table, legal if table.game.over else people_moves(table.game))

        def data(self, seat: int | None) -> bytes:
            out = super().data(seat)
            written.append(out.decode())
            return out

    monkeypatch.setattr(bench_messages, "Broadcast", Keep)
    bench_messages.measure("classic", hands=1, seed=4)
    listed = 0
    for text in written:
        msg = orjson.loads(text)
        assert glance(text) == (msg["seq"], msg["view"]["game_over"], bool(msg["legal"]),
                                bool(msg["waiting"]))
        assert glance(text.encode()) == glance(text)
        assert legal_of(text) == msg["legal"]
        listed += bool(msg["legal"])
    assert len(written) > 100 and 0 < listed < len(written)


def test_other_messages_are_read_whole() -> None:
    for msg in ({"type": "hello", "process": "p"}, {"type": "error", "message": "No."},
                {"type": "chat", "text": '"type":"state","table":"t","seq":1,'}):
        assert glance(orjson.dumps(msg).decode()) is None
