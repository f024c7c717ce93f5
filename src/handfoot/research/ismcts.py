"""OpenSpiel's information-set MCTS against handfoot's bots, hand by hand.

Team 1's seats (``seat % teams == 0`` in the usual seating; whichever seats
``rules.team_of`` puts in team 0) are played by OpenSpiel's ISMCTS bot
(:mod:`open_spiel.python.algorithms.ismcts`) on the ``python_handfoot`` game; the other
seats by a handfoot bot (``heuristic`` by default), which sees its seat's view and the
engine's legal moves, as in ``handfoot sim``. ISMCTS samples the cards it cannot see
with :meth:`~handfoot.research.openspiel_game.HandAndFootState.resample_from_infostate`
and values a leaf by :class:`TableEvaluator`: each team's score for the hand as it
stands (the engine's scoring), minus the other teams'.

    python -m handfoot.research.ismcts --variant texas-good-sam --hands 4 --simulations 30
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel
from open_spiel.python.algorithms import ismcts

from handfoot.arena import hand_seed, wilson
from handfoot.bots import make_bot
from handfoot.game.scoring import score_hand
from handfoot.game.views import seat_view
from handfoot.research.observation import hand_rewards
from handfoot.research.openspiel_game import HandAndFootState, config_of
from handfoot.research.steps import listed_steps


class TableEvaluator:
    """Values a state by the score of the hand as it stands (what each team has laid
    down, less what it holds), added to the totals so far, as :func:`hand_rewards`.
    The prior is uniform over the legal moves."""

    def evaluate(self, state: HandAndFootState) -> npt.NDArray[np.float64]:
        rules = state.hf.rules
        if state.is_terminal():
            return np.asarray(state.returns(), dtype=np.float64)
        if state.box.game is None:
            return np.zeros(rules.players.seats)
        game = state.table
        now = [sc.total for sc in score_hand(game.hand)]
        points = [t + n for t, n in zip(game.totals, now, strict=True)]
        return np.asarray(hand_rewards(rules, points), dtype=np.float64)

    def prior(self, state: HandAndFootState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


@dataclass
class MatchResult:
    hands: int
    ismcts_wins: int
    ties: int
    points: list[tuple[int, ...]]  #: each hand's score per team (team 0: ISMCTS)
    seconds: float

    @property
    def win_rate(self) -> float:
        return self.ismcts_wins / self.hands if self.hands else 0.0


def play_hand(variant: str, seed: int, simulations: int = 30, opponent: str = "heuristic",
              uct_c: float = 2.0, rules_toml: str = "") -> tuple[int, ...]:
    """One hand (the first of a game, its deal chosen by ``seed``): ISMCTS for team 0,
    ``opponent`` for the others. Returns each team's score for the hand."""
    params: dict[str, Any] = {"variant": variant, "max_hands": 1, "seed": seed}
    if rules_toml:
        params["rules"] = rules_toml
    game = pyspiel.load_game("python_handfoot", params)
    cfg = config_of(game.get_parameters())
    rules = cfg.rules
    rng = np.random.RandomState(seed % (1 << 31))
    bot = ismcts.ISMCTSBot(game, TableEvaluator(), uct_c, simulations, random_state=rng,
                           child_selection_policy=ismcts.ChildSelectionPolicy.PUCT)
    others = {s: make_bot(opponent, seed * 31 + s) for s in range(rules.players.seats)
              if rules.team_of[s] != 0}
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            continue
        seat = state.current_player()
        legal_numbers = state.legal_actions()
        if len(legal_numbers) == 1:
            state.apply_action(legal_numbers[0])
        elif seat in others:
            table = state.table
            legal = table.legal_actions()
            view = seat_view(table, seat)
            move = others[seat].choose(view, legal)
            for step in listed_steps(table.hand, move):
                state.apply_action(cfg.codec.encode(step, state.table.hand.pile_top))
        else:
            state.apply_action(int(bot.step(state)))
    return tuple(sc.total for sc in state.table.results[0].scores)


def match(variant: str, hands: int, simulations: int = 30, seed: int = 0,
          opponent: str = "heuristic") -> MatchResult:
    start = time.perf_counter()
    points = [play_hand(variant, hand_seed(seed, i), simulations, opponent)
              for i in range(hands)]
    wins = sum(1 for p in points if p[0] > max(p[1:]))
    ties = sum(1 for p in points if p[0] == max(p[1:]))
    return MatchResult(hands, wins, ties, points, time.perf_counter() - start)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="OpenSpiel's ISMCTS against a handfoot bot")
    p.add_argument("--variant", default="texas-good-sam")
    p.add_argument("--hands", type=int, default=4)
    p.add_argument("--simulations", type=int, default=30)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--opponent", default="heuristic")
    args = p.parse_args(argv)
    r = match(args.variant, args.hands, args.simulations, args.seed, args.opponent)
    lo, hi = wilson(r.ismcts_wins, r.hands)
    for i, pts in enumerate(r.points):
        print(f"hand {i + 1}: ISMCTS {pts[0]}, {args.opponent} {max(pts[1:])}", flush=True)
    print(f"ISMCTS ({args.simulations} simulations a move) won {r.ismcts_wins} of {r.hands} "
          f"hands against {args.opponent} ({100 * r.win_rate:.0f}%, 95% CI "
          f"{100 * lo:.0f}–{100 * hi:.0f}%), {r.ties} tied, in {r.seconds:.0f} s")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
