"""A PettingZoo AEC environment: one agent per seat (``seat_0`` …), a game of a rule set.

Each agent's observation is a dictionary: ``observation``, the flat vector of its seat's
view (:mod:`handfoot.research.observation`), and ``action_mask``, an ``int8`` array of
:attr:`~handfoot.research.encoding.MoveCodec.size` with 1 at the number of each move the engine
lists as legal (all zeros for an agent not to act). Actions are those numbers
(:class:`~handfoot.research.encoding.MoveCodec`); the engine checks each one, and a number it
refuses raises :class:`~handfoot.engine.IllegalAction` (nothing changes).

Rewards come at the end of each hand: each seat gets its team's score for the hand minus
the mean of the other teams' (with two teams, the point difference), so that over a game
they add up to the difference of the final totals. At the end of the game the winners
get ``win_reward`` more and the others ``-win_reward`` (default 0). With ``max_hands``
the episode is truncated after that many hands (the game not over).

``reset(seed=S)`` plays the game :class:`~handfoot.game.Game` deals from ``S``, so the
same seed and the same actions give the same game.

>>> env = env_for("classic", max_hands=1)
>>> env.reset(seed=3)
>>> obs = env.observe(env.agent_selection)
>>> int(obs["action_mask"].sum()) >= 1, obs["observation"].shape == (env.obs_size,)
(True, True)
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from handfoot.game import Game
from handfoot.game.views import public_view, seat_view
from handfoot.research.encoding import MoveCodec
from handfoot.research.observation import hand_rewards, observation_size, observation_vector
from handfoot.rules import Rules, load_rules

ObsDict = dict[str, npt.NDArray[Any]]


class HandAndFootEnv(AECEnv[str, ObsDict, int]):  # type: ignore[misc]
    """A game of Hand and Foot under ``rules`` as a PettingZoo AEC environment."""

    metadata: ClassVar[dict[str, Any]] = {"name": "handfoot_v0", "render_modes": ["ansi"],
                                          "is_parallelizable": False}

    def __init__(self, rules: Rules, *, max_hands: int | None = None,
                 win_reward: float = 0.0, render_mode: str | None = None) -> None:
        super().__init__()
        self.rules = rules
        self.codec = MoveCodec(rules)
        self.max_hands = max_hands
        self.win_reward = win_reward
        self.render_mode = render_mode
        seats = rules.players.seats
        self.possible_agents = [f"seat_{s}" for s in range(seats)]
        self.agents: list[str] = []
        self.obs_size = observation_size(rules)
        box = spaces.Box(low=-np.inf, high=np.inf, shape=(self.obs_size,), dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(self.codec.size,), dtype=np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.codec.size) for a in self.possible_agents}
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ play
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self.game = Game(self.rules, seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.actor]

    def _seat(self, agent: str) -> int:
        return int(agent.rsplit("_", 1)[1])

    def observe(self, agent: str) -> ObsDict:
        game = self._game()
        seat = self._seat(agent)
        mask = np.zeros(self.codec.size, dtype=np.int8)
        if (not game.over and game.actor == seat and agent in self.terminations
                and not (self.terminations[agent] or self.truncations[agent])):
            legal = game.legal_actions()
            mask[self.codec.mask(legal, game.hand.pile_top)] = 1
        return {"observation": observation_vector(seat_view(game, seat)), "action_mask": mask}

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() first")
        return self.game

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: an action number is needed")
        game = self._game()
        seat = self._seat(agent)
        self._cumulative_rewards[agent] = 0.0
        move = self.codec.decode(int(action), game.hand)
        hands_before = len(game.results)
        game.apply(move, seat)  # the engine checks it: an illegal number changes nothing
        for a in self.agents:
            self.rewards[a] = 0.0
        if len(game.results) > hands_before:
            scores = [sc.total for sc in game.results[-1].scores]
            for s, r in enumerate(hand_rewards(self.rules, scores)):
                self.rewards[self.possible_agents[s]] = r
            if game.over:
                for s, a in enumerate(self.possible_agents):
                    won = self.rules.team_of[s] in game.winners
                    self.rewards[a] += self.win_reward if won else -self.win_reward
                    self.terminations[a] = True
            elif self.max_hands is not None and len(game.results) >= self.max_hands:
                for a in self.agents:
                    self.truncations[a] = True
        if not game.over and not any(self.truncations.values()):
            self.agent_selection = self.possible_agents[game.actor]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        view = public_view(self.game)
        return (f"hand {view.hand_number}, seat {view.actor} to act ({view.phase}); pile: "
                f"{view.describe_pile()}; stock {view.stock_size}; totals {list(view.totals)}")

    def close(self) -> None:
        pass


def env_for(rules: Rules | str, *, max_hands: int | None = None, win_reward: float = 0.0,
            render_mode: str | None = None) -> HandAndFootEnv:
    """An environment for a preset's name, a rule set's TOML, or a rule set."""
    if isinstance(rules, str):
        rules = load_rules(rules)
    return HandAndFootEnv(rules, max_hands=max_hands, win_reward=win_reward,
                          render_mode=render_mode)
