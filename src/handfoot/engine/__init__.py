"""One hand of Hand and Foot: the state, every action checked, and the legal moves.

The engine does no I/O and reads no clock; its only randomness is a shuffle of
the pile when the stock runs out, taken from an injected ``random.Random`` and
kept in :attr:`Hand.shuffles` so that a record replays without it.

Every action goes through :meth:`Hand.verify` before anything changes, so a
refused action (an :class:`IllegalAction`, a ``ValueError``) leaves the state
exactly as it was. :meth:`Hand.apply` verifies and applies, and returns what the action did (a
:class:`Played`); :meth:`Hand.push` applies an action already known to be legal and
keeps no record (the fast path for simulations).

The modules, in the order they build on each other:

- :mod:`~handfoot.engine.deal`: the deal (what chance decides);
- :mod:`~handfoot.engine.melds`: melds and books, and the checks on a meld's cards;
- :mod:`~handfoot.engine.state`: the state of a hand and carrying out actions;
- :mod:`~handfoot.engine.checks`: every action checked (:meth:`Hand.verify`);
- :mod:`~handfoot.engine.moves`: the legal moves, one meld and one card at a time.
"""

from handfoot.engine.deal import Deal, full_deck, high_card_cut
from handfoot.engine.errors import (
    BadMeld,
    CannotGoOut,
    CardsNotHeld,
    IllegalAction,
    NotYourTurn,
    OpeningTooLow,
    PileNotAvailable,
    WrongPhase,
)
from handfoot.engine.melds import (
    RANK_MELD,
    SEQUENCE,
    TWOS,
    WILD_MELD,
    Meld,
    books_missing,
    check_table_meld,
    count_books,
)
from handfoot.engine.moves import Hand, LegalActions
from handfoot.engine.state import FACE_DOWN, Phase, Played

__all__ = [
    "FACE_DOWN", "RANK_MELD", "SEQUENCE", "TWOS", "WILD_MELD", "BadMeld", "CannotGoOut",
    "CardsNotHeld", "Deal", "Hand", "IllegalAction", "LegalActions", "Meld", "NotYourTurn",
    "OpeningTooLow", "Phase", "PileNotAvailable", "Played", "WrongPhase", "books_missing",
    "check_table_meld", "count_books", "full_deck", "high_card_cut",
]
