"""Computer players. A bot sees only its seat's view and the legal actions.

>>> from handfoot.bots import make_bot
>>> make_bot("random", seed=1).name
'random'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
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


BOTS: dict[str, type[RandomBot]] = {"random": RandomBot}


def make_bot(name: str, seed: int = 0) -> Bot:
    try:
        cls = BOTS[name]
    except KeyError:
        raise ValueError(f"there is no bot called {name!r}; the bots are "
                         f"{', '.join(BOTS)}") from None
    return cls(seed)
