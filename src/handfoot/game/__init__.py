"""A whole game: hand after hand, each with its own deal and opening minimum, the
running totals, the clock, the tie-break and the winner.

>>> from handfoot.rules import preset
>>> game = Game(preset("six-deck"), seed=1)
>>> game.hand.hand_number, game.hand.minimums
(1, [50, 50])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from handfoot.actions import Action
from handfoot.engine import Deal, Hand, LegalActions, Played, high_card_cut
from handfoot.engine.state import PHASE_OVER
from handfoot.game.fair import KeyedRandom
from handfoot.game.scoring import TeamScore, score_hand
from handfoot.rules import Rules


@mypyc_attr(native_class=False)  # frozen: pickled and copied as a Python class
@dataclass(frozen=True, slots=True)
class HandResult:
    number: int
    deal: Deal  #: with the shuffles made during the hand
    actions: tuple[tuple[int, Action], ...]
    scores: tuple[TeamScore, ...]
    ended_by: str  #: "out", "stock" or "time"
    went_out: int | None  #: the seat that went out


def turn_played(hand: Hand) -> bool:
    """Has a turn of this hand begun? Choosing which stack is the hand is not a turn."""
    return any(action.kind != "choose-hand" for _, action in hand.history)


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Game:
    """A game under a rule set. Chance comes from ``seed`` (or recorded ``deals``)."""

    def __init__(self, rules: Rules, seed: int | None = 0, *,
                 deals: Sequence[Deal] | None = None, tie_winner: int | None = None,
                 rng: random.Random | None = None) -> None:
        """``rng``: the game's generator instead of ``random.Random(seed)`` (a served
        game's :class:`handfoot.game.fair.KeyedRandom`; its hands are dealt by its children)."""
        self.rules = rules
        self.seed = seed
        self.rng = rng if rng is not None else random.Random(seed)
        self._deals = list(deals) if deals is not None else None
        self._tie_winner = tie_winner
        self.results: list[HandResult] = []
        self.totals = [0] * rules.players.teams
        self.over = False
        self.winners: list[int] = []
        self.tie_break = ""  #: how a tie was broken: "", "playoff-hand" or "high-card"
        self.time_called = False
        #: when time was called: (hand number, actions of that hand made before it)
        self.time_called_at: tuple[int, int] | None = None
        self.playoff = False
        self._hand: Hand | None = self._new_hand()

    # ---------------------------------------------------------------- hands
    def __repr__(self) -> str:
        """The game at a glance: the rule set, the hands played, the scores, and the hand
        in play as :meth:`Hand.__repr__` shows it.

        >>> from handfoot.rules import preset
        >>> print(repr(Game(preset("classic"), seed=1)).splitlines()[0])  # doctest: +ELLIPSIS
        <Game classic, hand 1 of 4, scores 0 to 0: <Hand classic, hand 1 turn 0: seat ...
        """
        scores = " to ".join(str(t) for t in self.totals)
        if self.over:
            return f"<Game {self.rules.name} over after {len(self.results)} hands: {scores}>"
        hand = "the next hand not dealt yet" if self._hand is None else repr(self._hand)
        return (f"<Game {self.rules.name}, hand {len(self.results) + 1} of "
                f"{self.rules.game.hands}, scores {scores}: {hand}>")

    @property
    def hand(self) -> Hand:
        """The hand in play. Once one ends, the next is dealt when it is first asked for
        (a simulation of single hands never deals one it will not play); the game's
        generator is used by nothing else in between, so the deal is the same."""
        hand = self._hand
        if hand is None:
            hand = self._hand = self._new_hand()
        return hand

    @hand.setter
    def hand(self, hand: Hand) -> None:
        self._hand = hand

    def _new_hand(self) -> Hand:
        number = len(self.results) + 1
        hand_rng: random.Random = (self.rng.child() if isinstance(self.rng, KeyedRandom)
                                   else random.Random(self.rng.getrandbits(64)))
        if self._deals is not None:
            if number > len(self._deals):
                raise ValueError(f"the record has no deal for hand {number}")
            deal = self._deals[number - 1]
        else:
            first: int | None = None
            if self.rules.deal.first_player == "rotate" and self.results:
                first = (self.results[-1].deal.first_seat + 1) % self.rules.players.seats
            deal = Deal.shuffled(self.rules, hand_rng, first)
        return Hand(self.rules, deal, number, self.totals, rng=hand_rng)

    @property
    def actor(self) -> int:
        return self.hand.actor

    @property
    def hand_number(self) -> int:
        return self.hand.hand_number

    def hand_scores(self) -> tuple[tuple[int, ...], ...]:
        """Each finished hand's score per team."""
        return tuple(tuple(s.total for s in r.scores) for r in self.results)

    def verify(self, action: Action, seat: int | None = None) -> None:
        if self.over:
            from handfoot.engine import WrongPhase
            raise WrongPhase("The game is over.")
        self.hand.verify(action, seat)

    def is_legal(self, action: Action, seat: int | None = None) -> bool:
        return not self.over and self.hand.is_legal(action, seat)

    def legal_actions(self, copy: bool = True) -> LegalActions:
        """The legal actions, a lazy sequence: listed when indexed, measured or iterated;
        ``action in game.legal_actions()`` asks the engine directly. ``copy``: as
        :meth:`Hand.actor_legal` (False for a player that reads only the moves)."""
        return LegalActions(None, self.rules) if self.over else self.hand.actor_legal(copy)

    def apply(self, action: Action, seat: int | None = None) -> Played:
        """Check and carry out an action, saying what it did; when it ends the hand,
        score it (the next is dealt when asked for)."""
        self.verify(action, seat)
        return self.play(action)

    def push(self, action: Action) -> None:
        """Carry out an action already checked (no record made: the simulations' way)."""
        self.hand.push(action)
        if self.hand.phase == PHASE_OVER:
            self._finish_hand()

    def play(self, action: Action) -> Played:
        """:meth:`push`, saying what the action did (:meth:`Hand.play`)."""
        played = self.hand.play(action)
        if self.hand.phase == PHASE_OVER:
            self._finish_hand()
        return played

    def call_time(self) -> None:
        """The monitor calls time: no new hand starts; the hand in play ends as it stands
        (or, with ``when_time_is_called = "finish-hand"``, is played out). A hand in
        which no turn has been played yet (the players may still be choosing their
        stacks) is not played: it ends at once and scores nothing (``score_hand``)."""
        if self.over or self.time_called:
            return
        self.time_called = True
        self.time_called_at = (self.hand.hand_number, len(self.hand.history))
        if self.rules.game.when_time_is_called == "end-hand" or not turn_played(self.hand):
            self.hand.call_time()
            self._finish_hand()

    def _finish_hand(self) -> None:
        hand = self.hand
        if hand.ended_by == "time" and not turn_played(hand):
            # Not played: nothing counts (not the cards of the seats that already chose
            # their stacks, nor exact deals), so no result depends on who chose first.
            scores = tuple(TeamScore(team=t) for t in range(hand.teams))
        else:
            scores = tuple(score_hand(hand))
        for s in scores:
            self.totals[s.team] = self.totals[s.team] + s.total
        deal = Deal(hand.deal.order, hand.deal.first_seat, hand.deal.grabs, tuple(hand.shuffles))
        self.results.append(HandResult(hand.hand_number, deal, tuple(hand.history), scores,
                                       hand.ended_by, hand.went_out))
        g = self.rules.game
        played = len(self.results)
        done = (played >= g.hands or self.time_called or self.playoff
                or (g.target_score > 0 and max(self.totals) >= g.target_score))
        if not done:
            self._hand = None  # dealt when asked for (see :attr:`hand`)
            return
        best = max(self.totals)
        leaders = [t for t, s in enumerate(self.totals) if s == best]
        if len(leaders) > 1 and g.tie_break == "playoff-hand" and not self.playoff \
                and not self.time_called:
            self.playoff = True
            self.tie_break = "playoff-hand"
            self._hand = None
            return
        if len(leaders) > 1 and g.tie_break != "none":
            if self._tie_winner is not None and self._tie_winner in leaders:
                winner = self._tie_winner
            else:
                winner = leaders[high_card_cut(len(leaders), self.rng)]
            self.tie_break = "high-card"
            leaders = [winner]
        self.winners = leaders
        self.over = True
