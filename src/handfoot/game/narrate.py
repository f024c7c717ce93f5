"""Each move told in players' words, as a person at the table sees it.

A :class:`Move` holds what the whole table saw of one action (who made it, how
many cards were drawn, how many the pile gave, what the melds were worth, who
went out) and, apart, the cards the player drew from the stock, which only that
player saw. :func:`narrate` tells the move to one viewer: "You", "Your partner",
or the player's name, and the drawn cards only to the player who drew them.

The facts are the engine's own record of the action (:class:`~handfoot.engine.Played`,
returned by :meth:`Game.play` and :meth:`Game.apply`), never a rule written again here.

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
from dataclasses import dataclass

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
from handfoot.cards import Card, format_card, sort_key
from handfoot.engine import Played
from handfoot.game import Game
from handfoot.game.scoring import book_kind
from handfoot.rules import Rules

__all__ = ["Move", "cards_text", "move_of", "narrate", "play", "who"]


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
    #: a play of this turn taken back (``turn.take_back_turn``): its cards, and whether
    #: they were a whole meld laid this turn
    taken_back: tuple[Card, ...] = ()
    whole_meld: bool = False


def move_of(rules: Rules, played: Played) -> Move:
    """What the table saw of an action, from the engine's record of it (:class:`Played`,
    as :meth:`Game.play` and :meth:`Game.apply` return it)."""
    action = played.action
    book = None
    back = isinstance(action, TakeBack) and played.had_opened
    if played.meld >= 0 and not back and len(played.meld_cards) >= rules.meld.book_size \
            > played.meld_size_before:
        kind = book_kind(rules, played.meld_kind, played.meld_cards)
        book = rules.words.name(kind) if kind else None
    brought = isinstance(action, Draw | TakeUpcard | TakePile | PickUpFoot)
    return Move(played.seat, played.team, action, tuple(rules.team_of),
                pile_taken=len(played.pile_cards), pile_top=played.pile_top,
                drew=played.drawn if isinstance(action, Draw) else 0, points=played.points,
                melds_laid=played.melds_made, opened=played.opened,
                had_opened=played.had_opened, meld_label=played.meld_label,
                meld_size=len(played.meld_cards), book=book, red_threes=played.red_threes,
                went_out=played.went_out, hand_over=played.ended_by or None,
                private_cards=played.cards_in if brought else (),
                taken_back=played.meld_cards if back else (),
                whole_meld=back and played.meld_size_before == 0)


def play(game: Game, actor: int, action: Action) -> Move:
    """Apply an action the engine has checked (``game.play``) and say what the table saw
    (``actor``: the seat to act, who plays it)."""
    return move_of(game.rules, game.play(action))


def cards_text(cards: Sequence[Card]) -> str:
    """Cards as a person writes them: "5♥ 5♣"."""
    return " ".join(format_card(c) for c in sorted(cards, key=sort_key))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def who(seat: int, viewer: int | None, team_of: Sequence[int],
        names: Sequence[str] | None = None) -> str:
    """The seat as the viewer knows it: "You", its name ("Ann (your partner)" for the
    viewer's partner, "Your partner Computer (hard)"), or "Your partner" where the
    partner has no name."""
    named = names is not None and seat < len(names) and bool(names[seat])
    name = names[seat] if names is not None and named else f"Player {seat + 1}"
    if viewer is None:
        return name
    if seat == viewer:
        return "You"
    if team_of[seat] == team_of[viewer]:
        partners = sum(1 for t in team_of if t == team_of[viewer]) - 1
        if partners == 1 and (not named or name == f"Player {seat + 1}"):
            return "Your partner"
        if partners == 1 and "(" not in name:
            return f"{name} (your partner)"
        return f"Your partner {name}"
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
        if move.had_opened:  # a play of this turn taken back (turn.take_back_turn)
            what = move.meld_label or f"meld {a.meld + 1}"
            if move.whole_meld:
                return f"took back the meld of {what} ({cards_text(move.taken_back)})"
            return f"took back {cards_text(move.taken_back)} from {what}"
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

