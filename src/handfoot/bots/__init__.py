"""Computer players. A bot sees only its seat's view and the legal actions.

>>> from handfoot.bots import make_bot
>>> make_bot("random", seed=1).name
'random'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from handfoot.actions import Action
from handfoot.views import View


class Bot(Protocol):
    name: str
    #: whether :meth:`choose` reads the view (the arena skips building it if not)
    uses_view: bool

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        """Pick one of ``legal`` (never empty)."""
        ...


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"
    uses_view = False

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


def _heuristic(seed: int) -> Bot:
    from handfoot.bots.heuristic import HeuristicBot
    return HeuristicBot(seed)


def _expert(seed: int) -> Bot:
    from handfoot.bots.expert import ExpertBot
    return ExpertBot(seed)


BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot, "heuristic": _heuristic, "expert": _expert}

#: The levels offered in the user interface (docs/bots.md).
LEVELS: dict[str, str] = {"easy": "random", "medium": "heuristic", "hard": "expert"}


def make_bot(name: str, seed: int = 0) -> Bot:
    name = LEVELS.get(name, name)
    try:
        cls = BOTS[name]
    except KeyError:
        raise ValueError(f"there is no bot called {name!r}; the bots are "
                         f"{', '.join(BOTS)}") from None
    return cls(seed)
