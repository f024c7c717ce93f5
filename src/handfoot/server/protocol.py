"""The table's WebSocket protocol: every message a client may send (in) and every
message the server sends (out), as typed definitions. A socket is opened at
``/ws/{table}?token=T`` (no token: a spectator); each message is one JSON object with a
``"type"``.

In, each parsed and checked by :func:`parse` (a message refused raises
:class:`Refused` with the reason in players' words; the socket stays open)::

    {"type": "ping"}                                   -> pong
    {"type": "action", "action": {...}}                an action, in the record's JSON form
    {"type": "preview", "action": {...}}               -> preview: what it would be worth
    {"type": "computer", "on": true, "seat"?: 2, "creator"?: "..."}
                                                       hand a seat to a computer (or back)
    {"type": "chat", "text": "..."} or {"type": "chat", "reaction": "Nice play!"}
    {"type": "next-hand"}                              ready for the next hand
    {"type": "hint"}                                   -> hint: what the computer would do

Out: ``hello`` once, then ``state`` after every change (only this viewer's view),
``chat`` lines, ``notice``, and the answers ``pong``, ``preview``, ``hint`` and
``error``. The state message is written by :mod:`handfoot.server.live.messages` from
fragments serialised once for every viewer; :class:`StateOut` gives its shape.

>>> parse('{"type": "computer", "on": true}')
Computer(on=True, seat=None, creator=None)
>>> parse('{"type": "computer", "on": "yes"}')
Traceback (most recent call last):
...
handfoot.server.protocol.Refused: Say on: true or on: false.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal, NotRequired, TypedDict

from handfoot.actions import Action, ActionSyntaxError, action_from_json
from handfoot.server.routes.http import ApiError, parse_json

MAX_MESSAGE: Final = 64 * 1024  #: the largest message a client may send
#: the quick reactions of the chat, one tap each
REACTIONS: Final = ("😀", "😮", "Nice play!", "Well done!", "Good game!", "Thinking…",
                    "Back soon")


class Refused(Exception):
    """A client's message refused; its text is the reason, told to the player."""


# -- in: client to server ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ping:
    """Is the socket alive? Answered with :class:`Pong`, also to a spectator."""


@dataclass(frozen=True, slots=True)
class Act:
    """Play ``action`` for the sender's seat."""

    action: Action


@dataclass(frozen=True, slots=True)
class Preview:
    """What ``action`` would be worth, and whether the rules allow it now."""

    action: Action


@dataclass(frozen=True, slots=True)
class Computer:
    """Hand ``seat`` (None: the sender's) to a computer player, or take it back.
    ``creator``: the table's creator token, to hand over another person's seat."""

    on: bool
    seat: int | None
    creator: str | None


@dataclass(frozen=True, slots=True)
class Say:
    """A line of chat: ``text``, or one of the quick :data:`REACTIONS`."""

    text: str | None
    reaction: str | None


@dataclass(frozen=True, slots=True)
class NextHand:
    """The sender is ready for the next hand (after one ended)."""


@dataclass(frozen=True, slots=True)
class Hint:
    """What the medium computer player would do now, for the sender's own turn."""


ClientIn = Ping | Act | Preview | Computer | Say | NextHand | Hint


def _action(body: dict[str, Any]) -> Action:
    try:
        return action_from_json(body.get("action"))
    except ActionSyntaxError as e:
        raise Refused(str(e)) from None


def _computer(body: dict[str, Any]) -> Computer:
    on, seat, creator = body.get("on"), body.get("seat"), body.get("creator")
    if not isinstance(on, bool):
        raise Refused("Say on: true or on: false.")
    # a seat given must be a seat's number (left out: the sender's own)
    if "seat" in body and (not isinstance(seat, int) or isinstance(seat, bool)):
        raise Refused("There is no such seat.")
    # a creator token that is not text is no token at all: the seat is not handed over
    return Computer(on, seat, creator if isinstance(creator, str) else None)


def _say(body: dict[str, Any]) -> Say:
    reaction, text = body.get("reaction"), body.get("text")
    if reaction is not None:
        if not isinstance(reaction, str) or reaction not in REACTIONS:
            raise Refused("That is not one of the quick reactions.")
        return Say(None, reaction)
    if not isinstance(text, str):
        raise Refused("Say something: the text of the message.")
    return Say(text, None)


#: each message type a client may send, and how its fields are read
PARSERS: Final[dict[str, Callable[[dict[str, Any]], ClientIn]]] = {
    "ping": lambda body: Ping(),
    "action": lambda body: Act(_action(body)),
    "preview": lambda body: Preview(_action(body)),
    "computer": _computer,
    "chat": _say,
    "next-hand": lambda body: NextHand(),
    "hint": lambda body: Hint(),
}


def envelope(text: str) -> tuple[str, dict[str, Any]]:
    """A message's type and its object, before its fields are read; refused if it is
    not a JSON object with a ``type`` (too deep or holding NUL characters too)."""
    try:
        msg = parse_json(text)
    except ApiError as e:
        raise Refused(str(e)) from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise Refused("A message must be an object with a 'type'.")
    return msg["type"], msg


def read(kind: str, body: dict[str, Any]) -> ClientIn:
    """The message of type ``kind`` with its fields checked, or :class:`Refused`."""
    parser = PARSERS.get(kind)
    if parser is None:
        raise Refused(f"Unknown message type {kind!r}.")
    return parser(body)


def parse(text: str) -> ClientIn:
    """A client's message, checked whole (:func:`envelope`, then :func:`read`)."""
    return read(*envelope(text))


# -- out: server to client ---------------------------------------------------------------


class HelloOut(TypedDict):
    """First on every socket: the table, the viewer's seat (None: a spectator)."""

    type: Literal["hello"]
    table: str
    seat: int | None
    rules: str  #: the rule set's name
    process: str  #: the server process serving this socket
    rules_words: list[str]  #: "This table's rules" in plain words
    book_words: dict[str, str]  #: "book" and its kinds in the rule set's words ("canasta")
    going_on: str | None  #: where going out does not end the hand: that play goes on, why
    hint: bool  #: hints are offered (off at a club event's tables)


class StateOut(TypedDict):
    """The table as this viewer sees it, after every change (written by
    :class:`handfoot.server.live.messages.Broadcast`)."""

    type: Literal["state"]
    table: str
    seq: int  #: actions played so far
    seat: int | None
    rules: str
    #: each seat's name (``called``: as the log says it), kind, who is here, who left
    #: (``away``; ``hand_over``: anyone may hand it to the computer) and ratings
    seats: list[dict[str, Any]]
    waiting_to_start: bool
    view: dict[str, Any]  #: the seat's view (a spectator's: the public view)
    legal: list[dict[str, Any]]  #: the actions the viewer may take now
    last_hand: dict[str, Any] | None
    notice: str | None
    time_called: bool
    commitment: dict[str, Any]  #: the deal's commitment (provably fair)
    seeded: bool  #: dealt from a seed chosen when the table was set up (not a fair deal)
    log: list[dict[str, Any]]  #: the moves in this viewer's words, newest first
    fresh: list[str]  #: the cards the viewer just got
    pile_reason: str | None  #: why the viewer could not take the pile now
    reasons: dict[str, str]  #: the seat to act's greyed buttons, each with the engine's why
    final_melds: list[list[dict[str, Any]]] | None
    waiting: dict[str, Any] | None  #: between hands: who is ready
    went_out: int | None  #: the first seat to go out in this hand (where play goes on)


class PongOut(TypedDict):
    type: Literal["pong"]


class PreviewOut(TypedDict):
    """The answer to a preview: allowed now (``ok``, else why not in ``message``), its
    ``value``, and the team's opening ``minimum`` (None once it has gone down)."""

    type: Literal["preview"]
    ok: bool
    message: str
    value: int
    minimum: int | None
    reasons: dict[str, str]  #: the greyed buttons with these cards selected, and why


class HintOut(TypedDict):
    """The answer to a hint: the action the computer would take, in words."""

    type: Literal["hint"]
    seq: int  #: the state it was worked out for
    action: dict[str, Any] | None
    text: str


class ChatLineOut(TypedDict):
    """One line of chat, shown as text (never as HTML)."""

    id: int
    seat: int
    kind: str  #: "text" or "reaction"
    text: str
    at: str  #: when it was said, ISO 8601 in UTC


class ChatOut(TypedDict):
    """On joining: whether chat is on, the last lines and the reactions; then each new
    line as it is said (seated people only)."""

    type: Literal["chat"]
    on: bool
    lines: list[ChatLineOut]
    reactions: NotRequired[list[str]]


class NoticeOut(TypedDict):
    """A word from the table to everyone at it (time is called, a seat handed over)."""

    type: Literal["notice"]
    message: str


class PresenceOut(TypedDict):
    """Someone at the table left or came back (``seat``), or the turn timer's nudge
    (``seat`` None: to the others), in words."""

    type: Literal["presence"]
    seat: int | None
    message: str


class AgainOut(TypedDict):
    """Play again started the next game at ``table`` (the same invite link opens the
    same seat there): the page goes to it."""

    type: Literal["again"]
    table: str


class ErrorOut(TypedDict):
    """A message refused (nothing was changed), or, ``fatal``, why the socket closes."""

    type: Literal["error"]
    fatal: NotRequired[Literal[True]]
    message: str


ServerOut = (HelloOut | StateOut | PongOut | PreviewOut | HintOut | ChatOut | NoticeOut
             | PresenceOut | AgainOut | ErrorOut)


def error(message: str) -> ErrorOut:
    """A message refused: the reason, in players' words."""
    return {"type": "error", "message": message}


def notice_of(message: str) -> NoticeOut:
    """A word to everyone at the table."""
    return {"type": "notice", "message": message}


def farewell(message: str) -> ErrorOut:
    """Why the socket closes (sent last, just before it does)."""
    return {"type": "error", "fatal": True, "message": message}
