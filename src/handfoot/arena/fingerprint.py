"""The same games: one hash of the moves and scores of a fixed set of seeded hands, and
the machine instructions a hundred hands cost.

A change meant to keep every game (a refactoring, a faster path) keeps
:func:`games_fingerprint` (``handfoot bench --fingerprint``), compiled and pure
Python alike; the tests pin its value. :func:`instructions` counts what 100 hands of
:func:`handfoot.arena.play_deal` cost with ``valgrind --tool=callgrind``: the same
count for the same build and inputs whatever else the machine does, unlike seconds
(``handfoot bench --instructions``; docs/design.md, "Checking a change").
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence

from handfoot.arena import SimSpec, hand_seed, play, play_deal, seat_bots
from handfoot.game import Game
from handfoot.rules import PRESET_NAMES, preset

#: (preset, bots) of the instruction counts reported by default
MEASURES: tuple[tuple[str, str], ...] = (
    ("classic", "random"), ("samba", "random"), ("texas-good-sam", "heuristic"))


def games_fingerprint(random_hands: int = 24, heuristic_hands: int = 6, seed: int = 3) -> str:
    """16 hex digits of SHA-256 over every preset's first ``random_hands`` random and
    ``heuristic_hands`` heuristic hands: each move's notation, the scores, how the hand
    ended and who went out."""
    digest = hashlib.sha256()
    for name in sorted(PRESET_NAMES):
        rules = preset(name)
        for bot, hands in (("random", random_hands), ("heuristic", heuristic_hands)):
            for i in range(hands):
                s = hand_seed(seed, i)
                game = Game(rules, s)
                play(game, seat_bots(rules, [bot, bot], s), hands=1)
                result = game.results[0]
                digest.update(f"{name} {bot} {i}\n".encode())
                for seat, action in result.actions:
                    digest.update(f"{seat} {action.notation()}\n".encode())
                totals = [score.total for score in result.scores]
                digest.update(f"{totals} {result.ended_by} {result.went_out}\n".encode())
    return digest.hexdigest()[:16]


def play_passes(name: str, bot: str, passes: int, hands: int = 100) -> None:
    """Play deals 0 to ``hands`` - 1 of ``name``, ``passes`` times (what is counted)."""
    spec = SimSpec(preset(name), 0, (bot, bot))
    for _ in range(passes):
        for i in range(hands):
            play_deal(spec, i)


def count_instructions(name: str, bot: str, passes: int) -> int:
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "PYTHONHASHSEED": "0"}
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         "-m", "handfoot.arena.fingerprint", name, bot, str(passes)],
        capture_output=True, text=True, env=env, check=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        raise RuntimeError(f"callgrind reported no count: {run.stderr[-500:]}")
    return int(found.group(1))


def instructions(name: str, bot: str) -> float:
    """Millions of machine instructions of 100 hands, second pass (the start-up, the
    imports and the first pass's warming subtracted: two passes minus one)."""
    if shutil.which("valgrind") is None:
        raise RuntimeError("valgrind is not installed (Debian: apt-get install valgrind)")
    return round((count_instructions(name, bot, 2) - count_instructions(name, bot, 1)) / 1e6, 1)


def instruction_table(measures: Sequence[tuple[str, str]] = MEASURES) -> dict[str, float]:
    """:func:`instructions` of each (preset, bots), keyed ``"preset bots"``."""
    return {f"{name} {bot}": instructions(name, bot) for name, bot in measures}


if __name__ == "__main__":  # the process callgrind counts: PRESET BOTS PASSES
    play_passes(sys.argv[1], sys.argv[2], int(sys.argv[3]))
