"""The expert's own fast policy: the heuristic's wishes with patient wilds.

The heuristic puts wilds on unfinished melds as soon as it holds two or its team
still needs dirty books (in most rule sets: from the first turn). Measured against the
heuristic on duplicate deals (both playing every seat of their team, straight on the
engine), holding the wilds until they complete a book, or until the player is in its
foot, wins about 60% of the hands in texas-good-sam, alabama-samboree and six-deck
and breaks even in classic and samba: a wild on a meld of four does nothing a wild
kept in hand cannot do later, and a wild kept can finish whichever meld gets close
first. Pairs laid with a wild are kept (dropping them lost clearly everywhere).

This policy is the expert's default choice where it does not search, its source of
candidates where it does, and the way its own team plays in its rollouts.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from handfoot.actions import Action, AddToMeld
from handfoot.bots.heuristic import Obs, Ok, fallback, wishes
from handfoot.cards import WILD
from handfoot.engine import RANK_MELD


def patient(o: Obs, action: Action) -> bool:
    """False for wilds added to an unfinished meld of a rank that they do not complete
    (outside the foot)."""
    if o.in_foot or not isinstance(action, AddToMeld):
        return True
    if not all(WILD[c] for c in action.cards):
        return True
    melds = o.melds[o.team]
    if not 0 <= action.meld < len(melds):
        return True
    m = melds[action.meld]
    return m.kind != RANK_MELD or m.size + len(action.cards) >= o.rules.meld.book_size


def patient_wishes(o: Obs, ok: Ok) -> Iterator[Action]:
    """The heuristic's wishes, best first, without the impatient wilds."""
    for a in wishes(o, ok):
        if patient(o, a):
            yield a


def decide_patient(o: Obs, ok: Ok, legal: Sequence[Action] = ()) -> Action:
    """The first patient wish that ``ok`` accepts (else the heuristic's fallback)."""
    for a in patient_wishes(o, ok):
        if ok(a):
            return a
    return fallback(o, legal)


__all__ = ["decide_patient", "patient", "patient_wishes"]
