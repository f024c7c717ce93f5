"""The same games: the pinned hash of a fixed set of seeded hands, compiled and pure.

A change that alters play (a rule read differently, a bot deciding otherwise) changes
the hash on purpose; its commit says why and pins the new value. Every other change
keeps it."""

from __future__ import annotations

import os
import shutil

import pytest

from handfoot.arena import fingerprint

#: the moves and scores of 24 random and 6 heuristic hands in each preset (seed 3)
GAMES = "5653a7863fc66b2d"


def test_the_seeded_hands_play_the_same_games() -> None:
    assert fingerprint.games_fingerprint() == GAMES


def test_the_fingerprint_tells_one_changed_hand() -> None:
    assert fingerprint.games_fingerprint(random_hands=23) != GAMES
    assert fingerprint.games_fingerprint(seed=4) != GAMES


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
@pytest.mark.skipif(os.environ.get("HANDFOOT_PURE") == "1",
                    reason="counted once, on the install test.sh's first pass runs")
def test_instructions_are_counted_by_callgrind_and_repeat() -> None:
    start = fingerprint.count_instructions("alabama-samboree", "random", 0)
    assert start > 1_000_000  # the interpreter's start-up and handfoot's imports
    again = fingerprint.count_instructions("alabama-samboree", "random", 0)
    assert again == pytest.approx(start, rel=0.01)
