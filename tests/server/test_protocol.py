"""The WebSocket protocol's messages in: each type read into its definition, each
malformed one refused in players' words, and every type answered by the dispatch."""

from __future__ import annotations

import json
import typing

import pytest

from handfoot.actions import DRAW, Discard, parse_action
from handfoot.server import protocol
from handfoot.server.protocol import (
    REACTIONS,
    Act,
    Computer,
    Hint,
    NextHand,
    Ping,
    Preview,
    Refused,
    Say,
    parse,
)
from handfoot.server.routes.socket import ANYONE, SEATED


def text(**fields: object) -> str:
    return json.dumps(fields)


@pytest.mark.parametrize(("sent", "read"), [
    ({"type": "ping"}, Ping()),
    ({"type": "action", "action": {"type": "draw"}}, Act(DRAW)),
    ({"type": "action", "action": {"type": "discard", "card": "QH"}},
     Act(parse_action("discard QH"))),
    ({"type": "preview", "action": {"type": "meld", "cards": ["7C", "7D", "7S"]}},
     Preview(parse_action("meld 7C 7D 7S"))),
    ({"type": "computer", "on": True}, Computer(True, None, None)),
    ({"type": "computer", "on": False, "seat": 2, "creator": "tok"}, Computer(False, 2, "tok")),
    ({"type": "computer", "on": True, "creator": 7}, Computer(True, None, None)),
    ({"type": "chat", "text": "Hello"}, Say("Hello", None)),
    ({"type": "chat", "reaction": "Nice play!", "text": "ignored"}, Say(None, "Nice play!")),
    ({"type": "next-hand"}, NextHand()),
    ({"type": "hint", "extra": 1}, Hint()),
])
def test_each_message_type_is_read_into_its_definition(sent: dict[str, object],
                                                       read: protocol.ClientIn) -> None:
    assert parse(json.dumps(sent)) == read


def test_an_action_read_is_the_engine_s_action() -> None:
    msg = parse(text(type="action", action={"type": "discard", "card": "QH"}))
    assert isinstance(msg, Act) and isinstance(msg.action, Discard)


@pytest.mark.parametrize(("sent", "words"), [
    ("not json", "The request is not JSON (or is nested too deeply)."),
    ("[1, 2]", "A message must be an object with a 'type'."),
    (text(kind="action"), "A message must be an object with a 'type'."),
    (text(type=3), "A message must be an object with a 'type'."),
    (text(type="chat", text="a\x00b"), "Text may not hold NUL characters."),
    ("[" * 40 + "]" * 40, "The request is nested too deeply."),
    (text(type="dance"), "Unknown message type 'dance'."),
    (text(type="action"), "An action must be an object with a 'type'."),
    (text(type="action", action={"type": "fly"}), "Not a well-formed 'fly' action."),
    (text(type="preview", action="draw"), "An action must be an object with a 'type'."),
    (text(type="computer"), "Say on: true or on: false."),
    (text(type="computer", on="yes"), "Say on: true or on: false."),
    (text(type="computer", on=True, seat="2"), "There is no such seat."),
    (text(type="computer", on=True, seat=True), "There is no such seat."),
    (text(type="computer", on=True, seat=None), "There is no such seat."),
    (text(type="chat"), "Say something: the text of the message."),
    (text(type="chat", text=["hi"]), "Say something: the text of the message."),
    (text(type="chat", reaction="Boo!"), "That is not one of the quick reactions."),
    (text(type="chat", reaction=["Nice play!"]), "That is not one of the quick reactions."),
])
def test_a_malformed_message_is_refused_in_players_words(sent: str, words: str) -> None:
    with pytest.raises(Refused) as refused:
        parse(sent)
    assert str(refused.value) == words


def test_every_quick_reaction_is_accepted() -> None:
    assert [parse(text(type="chat", reaction=r)) for r in REACTIONS] == [
        Say(None, r) for r in REACTIONS]


def test_every_message_type_has_one_handler_in_the_dispatch() -> None:
    assert set(ANYONE).isdisjoint(SEATED)
    assert set(ANYONE) | set(SEATED) == set(protocol.PARSERS)
    assert set(ANYONE) == {"ping"}  # a spectator may only ask whether the socket is alive


def test_each_handler_takes_the_message_its_parser_makes() -> None:
    """The handler of each type is annotated with the definition its parser returns."""
    samples = {"ping": text(type="ping"), "action": text(type="action", action={"type": "draw"}),
               "preview": text(type="preview", action={"type": "draw"}),
               "computer": text(type="computer", on=True), "chat": text(type="chat", text="hi"),
               "next-hand": text(type="next-hand"), "hint": text(type="hint")}
    assert set(samples) == set(protocol.PARSERS)
    for kind, sent in samples.items():
        handler = {**ANYONE, **SEATED}[kind]
        hints = typing.get_type_hints(handler)
        assert isinstance(parse(sent), hints["msg"]), kind


def test_the_server_s_messages_are_declared() -> None:
    """Every type the server sends has its definition, named by its ``type``."""
    declared = {typing.get_type_hints(out)["type"].__args__[0]
                for out in typing.get_args(protocol.ServerOut)}
    assert declared == {"hello", "state", "pong", "preview", "hint", "chat", "notice", "presence",
                        "again", "error"}
    assert protocol.error("No.") == {"type": "error", "message": "No."}
    assert json.dumps(protocol.farewell("Gone.")) == (
        '{"type": "error", "fatal": true, "message": "Gone."}')


def test_the_state_message_has_the_fields_its_definition_declares() -> None:
    """The state written by the fast path (live.messages) is what StateOut says, for a
    seat and for a spectator."""
    import datetime as dt

    import orjson

    from handfoot.rules import preset
    from handfoot.server.live.messages import Broadcast
    from handfoot.server.live.table import LiveTable
    from handfoot.server.offloop.pool import ServedGame
    from handfoot.server.storage.store import TableRow

    rules = preset("classic")
    row = TableRow(id="t", rules_name="classic", rules_toml="", seed=5,
                   seats=[{"kind": "human", "name": "Ann"}] + [{"kind": "bot"}] * 3,
                   created=dt.datetime.now(dt.UTC))
    table = LiveTable(row=row, rules=rules, game=ServedGame(rules, 5))
    declared = set(typing.get_type_hints(protocol.StateOut))
    for viewer in (0, None):
        sent = orjson.loads(Broadcast(table, None).text(viewer))
        assert sent["type"] == "state" and sent["seat"] == viewer
        assert set(sent) == declared
