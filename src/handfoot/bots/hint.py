"""A hint at the table: what the medium computer player would do, and why, in one line.

The move is the heuristic player's own choice, made from the legal actions of the
player to act (which answer from that player's knowledge only: no hidden card is
read); the reason is told from the move and the player's own cards and table.

>>> from handfoot.game import Game
>>> from handfoot.rules import preset
>>> game = Game(preset("classic"), seed=3)
>>> hint_text(game.legal_actions())["text"]
'Draw from the stock.'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from handfoot.actions import (
    Action,
    AddToMeld,
    AnswerGoOut,
    AskToGoOut,
    ChooseHand,
    Discard,
    Draw,
    EndTurn,
    GoDown,
    LayDown,
    LayMeld,
    PickUpFoot,
    TakeBack,
    TakePile,
    TakeUpcard,
    action_to_json,
)
from handfoot.bots.heuristic import HeuristicBot
from handfoot.cards import RANK, RANK_WORDS, WILD, format_card, is_black_three, is_three
from handfoot.engine import Hand, LegalActions
from handfoot.game.narrate import cards_text

__all__ = ["hint_text", "why"]


def hint_text(legal: LegalActions) -> dict[str, Any]:
    """The hint for the player to act: ``{"action": ..., "text": ...}``."""
    state = legal.seat_state
    if state is None or not len(legal):
        return {"action": None, "text": "There is nothing to do just now."}
    action = HeuristicBot(0).choose(None, legal)
    return {"action": action_to_json(action), "text": why(action, state, legal)}


def why(a: Action, hand: Hand, legal: LegalActions) -> str:
    """One line: the move and its reason, from the player's own cards and table."""
    reason = _REASONS.get(type(a))
    return a.notation() if reason is None else reason(a, hand, legal)


def _choose(a: Action, hand: Hand, legal: LegalActions) -> str:
    face_up = hand.stacks[hand.actor][cast(ChooseHand, a).stack][0]
    return (f"Take stack {cast(ChooseHand, a).stack + 1}: its face-up {format_card(face_up)} "
            "is the better start.")


def _draw(a: Action, hand: Hand, legal: LegalActions) -> str:
    if any(isinstance(x, TakePile) for x in legal):
        return "Draw from the stock: the pile is not worth what it would cost you now."
    return "Draw from the stock."


def _take_pile(a: Action, hand: Hand, legal: LegalActions) -> str:
    take = cast(TakePile, a)
    if not take.shown:
        return "Take the pile onto your meld of that rank: more cards to meld."
    count = take.count or hand.rules.pile_take_counts(len(hand.pile)).start
    top = f" under {format_card(hand.pile_top)}" if hand.pile_top is not None else ""
    return f"Take the pile with {cards_text(take.shown)}: {count} cards{top} for your melds."


def _lay(a: Action, hand: Hand, legal: LegalActions) -> str:
    team = hand.team_of[hand.actor]
    values = hand.rules.card_value
    cards = ([c for m in a.melds for c in m] if isinstance(a, LayDown)
             else list(cast(LayMeld, a).cards))
    pts = sum(values[c] for c in cards)
    if isinstance(a, LayDown) and not hand.opened[team]:
        return (f"Lay down {' | '.join(cards_text(m) for m in a.melds)} to open: "
                f"{pts} of {hand.minimums[team]}.")
    if not hand.opened[team]:
        laid = sum(values[c] for m in hand.melds[team] for c in m.cards)
        return (f"Lay out {cards_text(cards)} toward your opening: {laid + pts} of "
                f"{hand.minimums[team]}.")
    return f"Lay down {cards_text(cards)}: {pts} points on the table, fewer cards to hold."


def _add(a: Action, hand: Hand, legal: LegalActions) -> str:
    add = cast(AddToMeld, a)
    meld = hand.melds[hand.team_of[hand.actor]][add.meld]
    size = hand.rules.meld.book_size
    left = max(size - len(meld.cards) - len(add.cards), 0)
    book = hand.rules.words.book  # the rule set's own word: "book", "canasta"
    goal = ("one card fewer to hold" if len(meld.cards) >= size
            else f"completes the {book}" if left == 0 else f"{left} more to a {book}")
    return f"Add {cards_text(add.cards)} to meld {add.meld + 1} ({meld.describe()}): {goal}."


def _discard(a: Action, hand: Hand, legal: LegalActions) -> str:
    c = cast(Discard, a).card
    if is_black_three(c):
        return f"Discard {format_card(c)}: a black 3 cannot be melded and blocks the pile."
    if is_three(c):
        return f"Discard {format_card(c)}: a 3 cannot be melded."
    if WILD[c]:
        return f"Discard {format_card(c)}: nothing else can go, and it freezes the pile."
    held = hand.hands[hand.actor]
    same = sum(held[x] for x in range(len(held)) if RANK[x] == RANK[c])
    if same == 1:
        return (f"Discard {format_card(c)}: your only {RANK_WORDS[RANK[c]][:-1]}, "
                "the card least use to you.")
    return f"Discard {format_card(c)}: of your cards, the least use to you now."


def _answer(a: Action, hand: Hand, legal: LegalActions) -> str:
    return ("Say yes: your side gains by ending the hand now." if cast(AnswerGoOut, a).yes
            else "Say not yet: your side has too many cards in hand to end the hand.")


def _said(text: str) -> Callable[[Action, Hand, LegalActions], str]:
    return lambda a, hand, legal: text


#: the reason given for each kind of move
_REASONS: dict[type[Action], Callable[[Action, Hand, LegalActions], str]] = {
    ChooseHand: _choose, Draw: _draw, TakePile: _take_pile, LayDown: _lay, LayMeld: _lay,
    AddToMeld: _add, Discard: _discard, AnswerGoOut: _answer,
    TakeUpcard: _said("Take the upcard: it fits your hand."),
    GoDown: _said("Go down: the melds you laid out make your opening."),
    TakeBack: _said("Take back the laid-out meld: your opening is not there yet this turn."),
    PickUpFoot: _said("Pick up your foot: your hand is played out."),
    EndTurn: _said("End your turn."),
    AskToGoOut: _said("Ask to go out: you can play out every card this turn."),
}
