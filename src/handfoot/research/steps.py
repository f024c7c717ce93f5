"""A bot's move as numbered moves, one meld and one card at a time.

The research interfaces take only moves that have a number
(:class:`~handfoot.research.encoding.MoveCodec`): the moves the engine lists. A bot such as
``heuristic`` may answer with a move that does several of them at once (a whole opening
laid down, several cards added to a meld, the pile taken with opening melds). This
module finds, on a clone of the hand and with the engine's own listing and checks, the
listed moves that do the same: each meld laid out as a smallest meld from its cards and
then grown a card at a time (naturals first), the opening's melds laid out before the
pile is taken or the team goes down. Nothing here decides what is legal: every step is
one the engine lists in the state it is made in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from handfoot.actions import GO_DOWN, Action, AddToMeld, LayDown, LayMeld, TakePile
from handfoot.cards import WILD, Card, format_cards
from handfoot.engine import Hand


class NoSteps(ValueError):
    """The move cannot be made of listed moves."""


def _listed(hand: Hand) -> list[Action]:
    return hand.legal_actions()


def _classes(hand: Hand, cards: Sequence[Card]) -> Counter[int]:
    cls = hand.rules.card_class
    return Counter(cls[c] for c in cards)


def _lay_meld(hand: Hand, cards: Sequence[Card]) -> list[Action]:
    """Lay ``cards`` out as one new meld: a listed smallest meld from them, then the
    rest added one at a time (each listed). Cards the rules do not tell apart (a card
    class: the twos, say) are the engine's choice, as it lists them."""
    want = _classes(hand, cards)
    team = hand.team_of[hand.actor]
    cores = [a for a in _listed(hand) if isinstance(a, LayMeld)
             and not _classes(hand, a.cards) - want]
    if not cores:
        raise NoSteps(f"no smallest meld of {format_cards(cards)} is listed")
    core = max(cores, key=lambda a: sum(1 for c in a.cards if not WILD[c]))
    out: list[Action] = [core]
    hand.push(core)
    index = len(hand.melds[team]) - 1
    rest = [c for c in cards]
    for c in core.cards:  # what is left to add, by class
        k = next(i for i, x in enumerate(rest)
                 if hand.rules.card_class[x] == hand.rules.card_class[c])
        del rest[k]
    out.extend(_add(hand, index, rest))
    return out


def _add(hand: Hand, index: int, cards: Sequence[Card]) -> list[Action]:
    out: list[Action] = []
    cls = hand.rules.card_class
    for c in sorted(cards, key=lambda c: (WILD[c], c)):
        step = next((a for a in _listed(hand) if isinstance(a, AddToMeld) and a.meld == index
                     and len(a.cards) == 1 and cls[a.cards[0]] == cls[c]), None)
        if step is None:
            raise NoSteps(f"adding {format_cards([c])} to meld {index + 1} is not listed")
        out.append(step)
        hand.push(step)
    return out


def _listed_take(hand: Hand, take: TakePile) -> TakePile | None:
    """The listed pick-up showing cards of the same classes, taking as many."""
    cls = hand.rules.card_class
    shown = sorted(cls[c] for c in take.shown)
    return next((a for a in _listed(hand) if isinstance(a, TakePile) and a.count == take.count
                 and sorted(cls[c] for c in a.shown) == shown), None)


def listed_steps(hand: Hand, action: Action) -> list[Action]:
    """The listed moves that make ``action`` (itself, if it is listed) for the player to
    act in ``hand`` (which is not changed)."""
    if isinstance(action, TakePile) and action.count == 0:  # 0: as many as the rules say
        action = TakePile(action.shown, hand.pile_counts().start, action.opening)
    if action in _listed(hand):
        return [action]
    if isinstance(action, TakePile) and not action.opening:
        same = _listed_take(hand, action)
        if same is not None:
            return [same]
    trial = hand.clone()
    out: list[Action] = []
    if isinstance(action, LayDown):
        team = trial.team_of[trial.actor]
        opening = not trial.opened[team]
        for meld in action.melds:
            out.extend(_lay_meld(trial, meld))
        if opening:
            out.append(GO_DOWN)
    elif isinstance(action, LayMeld):
        out.extend(_lay_meld(trial, action.cards))
    elif isinstance(action, AddToMeld):
        out.extend(_add(trial, action.meld, action.cards))
    elif isinstance(action, TakePile) and action.opening:
        for meld in action.opening:
            out.extend(_lay_meld(trial, meld))
        take = _listed_take(trial, TakePile(action.shown, action.count))
        if take is None:
            raise NoSteps(f"{action.notation()} is not listed once the opening is laid out")
        out.append(take)
    else:
        raise NoSteps(f"{action.notation()} is not a listed move")
    return out
