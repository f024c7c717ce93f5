"""Why an action is refused: each is a ``ValueError`` whose message is for the player."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message is for the player."""


class NotYourTurn(IllegalAction):
    pass


class WrongPhase(IllegalAction):
    pass


class CardsNotHeld(IllegalAction):
    pass


class BadMeld(IllegalAction):
    pass


class OpeningTooLow(IllegalAction):
    pass


class PileNotAvailable(IllegalAction):
    pass


class CannotGoOut(IllegalAction):
    pass
