"""Why each of a turn's buttons cannot be pressed now, in the engine's own words.

The table page shows a button for each thing a turn is made of (draw, take the pile, lay
a meld, add to a meld, discard, go down); one the engine would refuse is shown greyed
with the reason beside it. The reasons come from the engine's refusal of the action the
button stands for (:meth:`handfoot.engine.Hand.refusal`), for the player to act and the
cards they have selected; only where nothing is selected yet and the button needs cards
is the reason the selection itself. They go to the player to act alone, and name only
cards of their own hand or on the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from handfoot.actions import Action, AddToMeld, Discard, Draw, GoDown, LayMeld, TakePile
from handfoot.cards import Card, sorted_from_counts
from handfoot.engine import Hand, Phase
from handfoot.engine.checks import may_go_on
from handfoot.game import Game

#: the words for a button that needs cards selected first (the same for each: the page
#: says it once for them all)
SELECT_MELD = SELECT_ADD = SELECT_DISCARD = "Select cards first."
ONE_DISCARD = "Select only the card to discard."
NO_MELDS = "Your team has no melds to add to yet."


def _why(hand: Hand, action: Action, seat: int) -> str | None:
    refused = hand.refusal(action, seat)
    return None if refused is None else str(refused)


def reasons(game: Game, seat: int, selected: Sequence[Card] = (),
            legal: Sequence[dict[str, Any]] | None = None) -> dict[str, str]:
    """The buttons of ``seat``'s turn that the engine would refuse now, each with why
    (the button's name: "draw", "pile", "lay", "add", "discard", "go-down"); empty when
    it is not this seat's turn to draw or play. ``legal``: the seat's legal actions as
    JSON, where they are listed already."""
    hand = game.hand
    if game.over or hand.actor != seat or hand.phase not in (Phase.DRAW, Phase.PLAY):
        return {}
    # (without the listed actions, the engine is asked about each button's action alone:
    # listing every move of a large hand is work for the pool, not for the loop)
    kinds = {a["type"] for a in legal} if legal is not None else set()
    out: dict[str, str] = {}
    if hand.phase == Phase.DRAW:
        out["draw"] = _why(hand, Draw(), seat) or ""
        if legal is not None and "take-pile" not in kinds:  # (a pair shown may take it)
            out["pile"] = _why(hand, TakePile(), seat) or ""
        return {k: v for k, v in out.items() if v}
    team = game.rules.team_of[seat]
    if not hand.opened[team] and hand.melds[team]:
        out["go-down"] = _why(hand, GoDown(), seat) or ""
    cards = list(selected)
    lay = _why(hand, LayMeld(cards), seat) if cards else SELECT_MELD
    add = _add_reason(game, seat, cards)
    discard = (_why(hand, Discard(cards[0]), seat) if len(cards) == 1
               else SELECT_DISCARD if not cards and ("discard" in kinds or _any_discard(
                   game, seat, legal))
               else _why(hand, Discard((cards or _held(game, seat) or [Card(0)])[0]), seat)
               or ONE_DISCARD)
    for name, why in (("lay", lay), ("add", add), ("discard", discard)):
        if why is not None:
            out[name] = why
    return {k: v for k, v in out.items() if v}


def _any_discard(game: Game, seat: int, legal: Sequence[dict[str, Any]] | None) -> bool:
    """Whether some card of the hand may be discarded (asked only without the list)."""
    return legal is None and any(game.hand.refusal(Discard(c), seat) is None
                                 for c in set(_held(game, seat)))


def _held(game: Game, seat: int) -> list[Card]:
    return sorted_from_counts(game.hand.hands[seat])


def _add_reason(game: Game, seat: int, cards: list[Card]) -> str | None:
    """Why the selected cards go on none of the team's melds (None: they go on one)."""
    hand = game.hand
    melds = hand.melds[game.rules.team_of[seat]]
    if not melds:
        return NO_MELDS
    if not cards:
        return SELECT_ADD
    said: list[str] = []
    for i in range(len(melds)):
        why = _why(hand, AddToMeld(i, cards), seat)
        if why is None:
            return None
        said.append(why)
    # the meld these cards are for says why best (the 7s for a 7), else the first
    mine = [why for why, meld in zip(said, melds, strict=True) if may_go_on(meld, cards[0])]
    return mine[0] if mine and len(mine) < len(melds) else said[0]
