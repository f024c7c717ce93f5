"""A finished game's review by the hard player, served: worked out in the reviews'
worker process (never on the event loop), kept with the game, the same review as
``handfoot review`` gives for the game's record; refused while the game is played."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from handfoot.bots.review import review
from handfoot.server.storage.store import Store
from handfoot.server.testing import ServerProcess
from server_helpers import finished_one_hand_game, wait_for_review

pytestmark = pytest.mark.served


@pytest.fixture
def server(sqlite_url: str) -> Iterator[ServerProcess]:
    with ServerProcess(sqlite_url, bot_delay=0.0) as s:
        yield s


def test_a_finished_game_is_reviewed_in_a_worker_and_kept(server: ServerProcess,
                                                          sqlite_url: str) -> None:
    tid = finished_one_hand_game(server)
    assert Store(sqlite_url).review(tid) is None  # nothing is worked out before it is asked
    first = server.get(f"/api/tables/{tid}/review")
    assert first == {"status": "working"}
    # the server answers other requests while the review is worked out
    assert server.get(f"/api/tables/{tid}")["over"]
    served = wait_for_review(server, tid)
    # the review of the game's own record, as `handfoot review --json` gives it
    record = server.get(f"/api/tables/{tid}/record")
    assert served == review(record).to_json()
    hand = served["hands"][0]
    assert hand["actions"] == len(record["hands"][0]["actions"]) and hand["decisions"]
    # kept with the game: asked again, read back
    assert Store(sqlite_url).review(tid) is not None
    assert server.get(f"/api/tables/{tid}/review")["review"] == served


def test_a_game_in_play_is_not_reviewed(server: ServerProcess) -> None:
    table = server.post("/api/tables", {"rules": "classic", "seed": 2,
                                        "seats": [{"kind": "human"}] * 4})
    status, err = server.request("GET", f"/api/tables/{table['id']}/review")
    assert status == 403 and "once it is over" in err["error"]
    status, err = server.request("GET", "/api/tables/nosuchtable/review")
    assert status == 404
