"""Each move told in players' words, as a person at the table sees it.

A :class:`Move` holds what the whole table saw of one action (who made it, how
many cards were drawn, how many the pile gave, what the melds were worth, who
went out) and, apart, the cards the player drew from the stock, which only that
player saw. :func:`narrate` tells the move to one viewer: "You", "Your partner",
or the player's name, and the drawn cards only to the player who drew them.

The facts are read from the game before and after the action (:func:`before_move`,
:func:`after_move`), never from a rule written again here.

>>> from handfoot.actions import DRAW, Discard
>>> from handfoot.cards import parse_card
>>> from handfoot.game import Game
>>> from handfoot.rules import preset
>>> game = Game(preset("classic"), seed=3)
>>> seat = game.actor
>>> move = play(game, seat, DRAW)
>>> narrate(move, viewer=(seat + 1) % 4, names=["Ann", "Bob", "Cy", "Di"]) in (
...     "Ann drew 2 cards", "Bob drew 2 cards", "Cy drew 2 cards", "Di drew 2 cards")
True
>>> narrate(move, viewer=seat).startswith("You drew ")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

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
)
from handfoot.cards import NUM_CARDS, Card, format_card, sort_key
from handfoot.engine import Hand
from handfoot.game import Game

__all__ = ["Before", "Move", "after_move", "before_move", "cards_text", "narrate", "play",
           "who"]


@dataclass(frozen=True, slots=True)
class Before:
    """What :func:`after_move` compares with: the table just before the action."""

    actor: int
    action: Action
    hand_number: int
    team: int
    pile_size: int
    pile_top: Card | None
    stock_size: int
    opened: bool
    melds: int  #: the team's melds on the table
    laid_out_points: int  #: the team's melds laid out for its opening, before going down
    hand_count: int  #: cards in the actor's hand
    red_threes: int  #: the team's red 3s on the table
    own: tuple[int, ...]  #: the actor's cards by kind (for the actor's eyes only)
    went_out: int | None  #: the seat that had gone out this hand
    meld_size: int  #: the size of the meld the action adds to (0: none)
    #: the hand the action is played in (read after it; never shown to anyone)
    state: Hand = field(compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Move:
    """One action and what the table saw of it."""

    actor: int
    team: int
    action: Action
    team_of: tuple[int, ...]  #: each seat's team
    pile_taken: int = 0  #: cards taken from the pile
    pile_top: Card | None = None  #: the pile's top card before the action
    drew: int = 0  #: cards drawn from the stock (none shown to the others)
    points: int = 0  #: what the cards laid down are worth
    melds_laid: int = 0  #: new melds on the table
    opened: bool = False  #: this action opened the team (went down)
    had_opened: bool = False  #: the team had gone down before the action
    meld_label: str = ""  #: the meld laid, added to or taken back: "Queens"
    meld_size: int = 0  #: its cards afterwards
    book: str | None = None  #: the book it became, in the rule set's words
    red_threes: int = 0  #: red 3s laid on the table by the action
    went_out: bool = False
    hand_over: str | None = None  #: "out", "stock" or "time" when the action ended the hand
    #: the cards the actor drew or took into the hand: shown to the actor only
    private_cards: tuple[Card, ...] = ()


def before_move(game: Game, actor: int, action: Action) -> Before:
    """The table before ``action``: call it just before the action is applied."""
    hand = game.hand
    team = game.rules.team_of[actor]
    values = game.rules.card_value
    laid = 0 if hand.opened[team] else sum(values[c] for m in hand.melds[team] for c in m.cards)
    return Before(actor, action, hand.hand_number, team, len(hand.pile), hand.pile_top,
                  len(hand.stock), hand.opened[team], len(hand.melds[team]), laid,
                  hand.hand_len[actor], len(hand.red_threes[team]), tuple(hand.hands[actor]),
                  hand.went_out, _size_of(hand.melds[team], action), hand)


def after_move(game: Game, before: Before) -> Move:
    """What the table saw of the action, once it has been applied."""
    action, actor, team = before.action, before.actor, before.team
    rules = game.rules
    values = rules.card_value
    team_of = tuple(rules.team_of)
    hand = before.state  # as it is after the action, even if the next hand is dealt
    over = None
    went_out = hand.went_out == actor and before.went_out != actor
    if game.results and game.results[-1].number == before.hand_number:
        result = game.results[-1]  # the action ended the hand
        over, went_out = result.ended_by, result.went_out == actor and went_out
    melds = hand.melds[team]
    red = len(hand.red_threes[team]) - before.red_threes
    label, size, book = "", 0, None
    index = _meld_index(action, before, len(melds))
    if index is not None and 0 <= index < len(melds):
        meld = melds[index]
        label, size = meld.describe(), len(meld.cards)
        if size >= rules.meld.book_size > before.meld_size:
            from handfoot.game.scoring import book_kind
            kind = book_kind(rules, meld.kind, meld.cards)
            book = rules.words.name(kind) if kind else None
    drew = 0
    if isinstance(action, Draw):
        drew = hand.hand_len[actor] - before.hand_count + red
    taken = before.pile_size - len(hand.pile) if isinstance(action, TakePile | TakeUpcard) else 0
    opened = not before.opened and hand.opened[team]
    private: tuple[int, ...] = ()  # the cards it brought into the actor's hand
    if isinstance(action, Draw | TakeUpcard | TakePile | PickUpFoot):
        own, now = before.own, hand.hands[actor]
        private = tuple(c for c in range(NUM_CARDS) if now[c] > own[c]
                        for _ in range(now[c] - own[c]))
    return Move(actor, team, action, team_of, pile_taken=taken, pile_top=before.pile_top,
                drew=drew, points=_laid_points(action, values, before),
                melds_laid=max(len(melds) - before.melds, 0) if not isinstance(action, TakeBack)
                else 0, opened=opened, meld_label=label, meld_size=size, book=book,
                had_opened=before.opened, red_threes=max(red, 0), went_out=went_out,
                hand_over=over, private_cards=private)


def _size_of(melds: Sequence[Any], action: Action) -> int:
    if isinstance(action, AddToMeld) and 0 <= action.meld < len(melds):
        return len(melds[action.meld].cards)
    return 0


def play(game: Game, actor: int, action: Action) -> Move:
    """Apply an action the engine has checked (``game.push``) and say what the table saw."""
    before = before_move(game, actor, action)
    game.push(action)
    return after_move(game, before)


def _meld_index(action: Action, before: Before, now: int) -> int | None:
    if isinstance(action, AddToMeld):
        return action.meld
    if isinstance(action, LayMeld | LayDown | TakePile) and now > before.melds:
        return now - 1
    return None


def _laid_points(action: Action, values: Sequence[int], before: Before) -> int:
    if isinstance(action, LayDown):
        return sum(values[c] for m in action.melds for c in m)
    if isinstance(action, LayMeld | AddToMeld):
        return sum(values[c] for c in action.cards)
    if isinstance(action, GoDown):
        return before.laid_out_points
    if isinstance(action, TakePile):
        top = 0 if before.pile_top is None else values[before.pile_top]
        return (top + sum(values[c] for c in action.shown)
                + sum(values[c] for m in action.opening for c in m))
    return 0


def cards_text(cards: Sequence[Card]) -> str:
    """Cards as a person writes them: "5♥ 5♣"."""
    return " ".join(format_card(c) for c in sorted(cards, key=sort_key))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def who(seat: int, viewer: int | None, team_of: Sequence[int],
        names: Sequence[str] | None = None) -> str:
    """The seat as the viewer knows it: "You", "Your partner", or its name."""
    name = names[seat] if names is not None and seat < len(names) and names[seat] \
        else f"Player {seat + 1}"
    if viewer is None:
        return name
    if seat == viewer:
        return "You"
    if team_of[seat] == team_of[viewer]:
        partners = sum(1 for t in team_of if t == team_of[viewer]) - 1
        return "Your partner" if partners == 1 else f"Your partner {name}"
    return name


def narrate(move: Move, viewer: int | None, names: Sequence[str] | None = None) -> str:
    """The move in one sentence for ``viewer`` (None: a spectator), without a card the
    viewer may not see."""
    a = move.action
    you = viewer == move.actor
    subject = who(move.actor, viewer, move.team_of, names)
    own = "your" if you else "their"
    text = _verb_phrase(move, a, you, own)
    extra = []
    if move.red_threes:
        extra.append(f"laid {_plural(move.red_threes, 'red 3')} on the table")
    if move.went_out:
        extra.append("went out")
    elif move.hand_over == "stock":
        extra.append("the stock ran out: the hand is over")
    elif move.hand_over == "time":
        extra.append("time was called: the hand is over")
    sentence = f"{subject} {text}"
    for e in extra:
        sentence += f" and {e}" if not e.startswith("the ") and not e.startswith("time") \
            else f"; {e}"
    return sentence


def _verb_phrase(move: Move, a: Action, you: bool, own: str) -> str:
    if isinstance(a, ChooseHand):
        return f"chose stack {a.stack + 1} as {own} hand"
    if isinstance(a, Draw):
        if you and move.private_cards:
            return "drew " + cards_text(move.private_cards)
        return "drew " + _plural(move.drew, "card") if move.drew else "drew from the stock"
    if isinstance(a, TakeUpcard):
        top = f" ({format_card(move.pile_top)})" if move.pile_top is not None else ""
        return f"took the upcard{top}"
    if isinstance(a, TakePile):
        top = f", {format_card(move.pile_top)} on top" if move.pile_top is not None else ""
        text = f"took the pile ({_plural(move.pile_taken, 'card')}{top})"
        if a.shown:
            text += f" with {cards_text(a.shown)}"
        if a.opening:
            text += f" and laid {_plural(len(a.opening), 'more meld')}"
        if move.opened:
            text += f", opening for {move.points}"
        return text
    if isinstance(a, LayDown):
        n = len(a.melds)
        text = f"laid down {_plural(n, 'meld')} for {move.points}"
        return text + (" (their opening)" if move.opened and not you else
                       " (your opening)" if move.opened else "")
    if isinstance(a, LayMeld):
        what = move.meld_label or "a meld"
        if not move.had_opened:
            return f"laid out {what} ({cards_text(a.cards)}) for the opening"
        return f"laid down {what}: {cards_text(a.cards)}"
    if isinstance(a, TakeBack):
        return f"took back laid-out meld {a.meld + 1}"
    if isinstance(a, GoDown):
        return f"went down for {move.points}"
    if isinstance(a, AddToMeld):
        what = move.meld_label or f"meld {a.meld + 1}"
        text = f"added {cards_text(a.cards)} to {what}"
        if move.book:
            text += f", making a {move.book}"
        elif move.meld_size:
            text += f" (now {move.meld_size} cards)"
        return text
    if isinstance(a, PickUpFoot):
        return f"picked up {own} foot"
    if isinstance(a, Discard):
        return f"discarded {format_card(a.card)}"
    if isinstance(a, EndTurn):
        return "ended the turn"
    if isinstance(a, AskToGoOut):
        return "asked to go out"
    if isinstance(a, AnswerGoOut):
        return "said yes to going out" if a.yes else "said not yet to going out"
    return a.notation()

