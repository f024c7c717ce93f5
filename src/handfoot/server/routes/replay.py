"""A finished game, step by step, for the replay page: every seat's view after a number
of actions, and the moves that led there in words (:mod:`handfoot.game.narrate`), told as
to a spectator of the finished game. Run in a worker process (the server's loop never
replays a game itself).

>>> from handfoot.rules import preset
>>> from handfoot.game import Game
>>> game = Game(preset("classic"), seed=3)
>>> logged = [(game.actor, {"type": "draw"})]
>>> out = replay_step(preset("classic").to_toml(), 3, None, logged, None, 1,
...                   ["Ann", "Bob", "Cy", "Di"])
>>> out["step"], out["moves"][0]["step"], out["moves"][0]["text"].endswith("drew 2 cards")
(1, 1, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from handfoot.actions import action_from_json
from handfoot.game.narrate import narrate, play
from handfoot.game.views import seat_view
from handfoot.rules import Rules
from handfoot.server.offloop.work import make_game

MOVES_SHOWN = 12  #: the moves listed with each step, the newest first


def replay_step(rules_toml: str, seed: int | None, secret: str | None,
                logged: Sequence[tuple[int | None, dict[str, Any]]], time_seq: int | None,
                step: int, names: Sequence[str]) -> dict[str, Any]:
    """Every seat's view after ``step`` of the ``logged`` actions (time called after
    ``time_seq`` of them), with the last moves in words, the newest first."""
    rules = Rules.from_toml(rules_toml)
    game = make_game(rules, seed, secret)
    moves: list[dict[str, Any]] = []
    for i, (seat, action) in enumerate(logged[:step]):
        if time_seq == i:
            game.call_time()
        actor = game.actor if seat is None else seat
        move = play(game, actor, action_from_json(action))
        if i >= step - MOVES_SHOWN:
            moves.append({"step": i + 1, "seat": actor, "text": narrate(move, None, names)})
    if time_seq == step:
        game.call_time()
    return {"step": step, "views": [seat_view(game, s).to_json()
                                    for s in range(rules.players.seats)],
            "moves": moves[::-1]}
