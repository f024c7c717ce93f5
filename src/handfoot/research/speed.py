"""Steps per second of a random rollout: through the engine, the PettingZoo environment
and the OpenSpiel game (``handfoot bench`` reports them side by side).

A step is one move (a chance node of the OpenSpiel game counts as one too); every
rollout picks uniformly among the legal moves, for ``hands`` single hands, on one core
(the CPU time of the thread that plays: see :data:`handfoot.arena.bench.cpu`).
"""

from __future__ import annotations

import random
import time
from typing import Any

from handfoot.arena import hand_seed
from handfoot.game import Game
from handfoot.rules import Rules


def engine_steps_per_second(rules: Rules, hands: int, seed: int = 0) -> float:
    """The engine's own: ``Game.legal_actions()``, a uniform pick, ``Game.push``."""
    steps = 0
    start = time.thread_time()
    for i in range(hands):
        s = hand_seed(seed, i)
        rng = random.Random(s)
        game = Game(rules, s)
        while not game.results:
            legal = game.legal_actions()
            game.push(legal[rng.randrange(len(legal))])
            steps += 1
    return steps / (time.thread_time() - start)


def pettingzoo_steps_per_second(rules: Rules, hands: int, seed: int = 0) -> float:
    """``env.last()`` (the observation and mask), a uniform pick among the mask's
    numbers, ``env.step``."""
    import numpy as np

    from handfoot.research.pettingzoo_env import HandAndFootEnv

    env = HandAndFootEnv(rules, max_hands=1)
    steps = 0
    start = time.thread_time()
    for i in range(hands):
        s = hand_seed(seed, i)
        rng = np.random.default_rng(s)
        env.reset(seed=s)
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps / (time.thread_time() - start)


def openspiel_steps_per_second(rules: Rules, hands: int, seed: int = 0) -> float:
    """``state.legal_actions()`` (or ``chance_outcomes()``), a uniform pick,
    ``state.apply_action``."""
    import pyspiel

    from handfoot.research.openspiel_game import rules_param

    game = pyspiel.load_game("python_handfoot", {"rules": rules_param(rules), "max_hands": 1})
    steps = 0
    start = time.thread_time()
    for i in range(hands):
        rng = random.Random(hand_seed(seed, i))
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    return steps / (time.thread_time() - start)


def rollout_speeds(rules: Rules, hands: int, seed: int = 0) -> dict[str, Any]:
    """Steps per second through each interface (None where its library is missing)."""
    out: dict[str, Any] = {"engine_steps_per_s": round(engine_steps_per_second(rules, hands,
                                                                              seed), 1)}
    for key, fn in (("pettingzoo_steps_per_s", pettingzoo_steps_per_second),
                    ("openspiel_steps_per_s", openspiel_steps_per_second)):
        try:
            out[key] = round(fn(rules, hands, seed), 1)
        except ImportError:
            out[key] = None
    return out
