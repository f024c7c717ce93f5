"""What a table remembers of its moves for the people at it: the move log in words (each
viewer's own sentences), the cards a person just drew or took, the last hand's final
melds, and the pause between hands until every person at the table is ready.

Every sentence is told by :mod:`handfoot.game.narrate` for one viewer, so a card drawn from
the stock is named only to the player who drew it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from handfoot import bots as bots_module
from handfoot.actions import (
    Action,
    Draw,
    PickUpFoot,
    TakePile,
    TakeUpcard,
    action_from_json,
)
from handfoot.cards import card_code
from handfoot.game import Game
from handfoot.game.narrate import Move, move_of, narrate
from handfoot.game.views import meld_json, team_views

#: moves kept for the log (about two hands' worth of a four-seat table)
KEEP = 240
#: entries sent with each state
SHOWN = 40


@dataclass(eq=False)
class MoveLog:
    """A table's recent moves and the state between hands."""

    #: (seq, hand, move, the move's log entry for each viewer told so far)
    moves: list[tuple[int, int, Move, dict[int | None, dict[str, Any]]]] = field(
        default_factory=list)
    #: the last finished hand's melds, as the table saw them when it ended
    final_melds: list[list[dict[str, Any]]] | None = None
    #: the hand whose end the people are looking at (None: play goes on)
    paused_after: int | None = None
    #: the seats whose person pressed "Next hand"
    ready: set[int] = field(default_factory=set)
    #: the seats' names the entries were told with (a change tells them again)
    names: tuple[str, ...] = ()
    #: each viewer's entries as last told, and how many moves had been added then
    shown: dict[int | None, tuple[int, list[dict[str, Any]]]] = field(default_factory=dict)
    #: moves added so far
    added: int = 0
    #: each viewer's entries as last written as JSON: the entries, each one's JSON, and
    #: the whole list's
    written: dict[int | None, tuple[list[dict[str, Any]], list[bytes], bytes]] = field(
        default_factory=dict)
    #: each viewer's entries made by putting one new entry before its last ones: the
    #: list made, and the list it was made from (their JSON is kept: :meth:`entries_json`)
    after: dict[int | None, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = field(
        default_factory=dict)

    def play(self, game: Game, seq: int, action: Action, wait_for_people: bool) -> None:
        """Carry out ``action`` (checked already) in ``game`` and tell it in the log
        (``seq``: its number in the log), from the engine's record of it."""
        hand = game.hand
        played = game.play(action)
        if self.paused_after is not None:  # play went on (a move made at another process)
            self.paused_after = None
            self.ready = set()
        self.moves.append((seq, hand.hand_number, move_of(game.rules, played), {}))
        self.added += 1
        del self.moves[:-KEEP]
        if played.ended_by:  # it ended
            self.final_melds = [[meld_json(m) for m in t.melds] for t in team_views(hand)]
            self.paused_after = hand.hand_number if wait_for_people and not game.over \
                else None
            self.ready = set()

    def entries(self, viewer: int | None, names: Sequence[str]) -> list[dict[str, Any]]:
        """The newest moves first, each in the viewer's words. Each entry is told once
        for each viewer and kept (every state message carries the newest
        :data:`SHOWN`; telling them again was a seventh of a busy server's time), so
        the entries are shared: read them, never change them."""
        if tuple(names) != self.names:
            self.names = tuple(names)
            self.shown.clear()
            for *_, told in self.moves:
                told.clear()
        kept = self.shown.get(viewer)
        if kept is not None and kept[0] == self.added:
            return kept[1]
        if kept is not None and kept[0] == self.added - 1 and self.moves:
            # one move since this viewer's last message: its entry, then the others
            out = [self._entry(self.moves[-1], viewer), *kept[1][:SHOWN - 1]]
            self.after[viewer] = (out, kept[1])
        else:
            out = [self._entry(move, viewer) for move in reversed(self.moves[-SHOWN:])]
            self.after.pop(viewer, None)
        self.shown[viewer] = (self.added, out)
        return out

    def entries_json(self, viewer: int | None, names: Sequence[str]) -> bytes:
        """:meth:`entries` as JSON. Each entry is written once for each viewer: after one
        more move, the viewer's list is the new entry's JSON and the others' kept."""
        out = self.entries(viewer, names)
        kept = self.written.get(viewer)
        if kept is not None and kept[0] is out:
            return kept[2]
        after = self.after.get(viewer)
        if kept is not None and after is not None and after[0] is out \
                and after[1] is kept[0]:
            # the list is one new entry, then the first of those last written
            parts = [orjson.dumps(out[0]), *kept[1][:len(out) - 1]]
        else:
            told = {} if kept is None else {id(e): j for e, j in zip(kept[0], kept[1],
                                                                     strict=True)}
            parts = [told.get(id(e)) or orjson.dumps(e) for e in out]
        text = b"[" + b",".join(parts) + b"]"
        self.written[viewer] = (out, parts, text)
        return text

    def _entry(self, move: tuple[int, int, Move, dict[int | None, dict[str, Any]]],
               viewer: int | None) -> dict[str, Any]:
        seq, hand, m, told = move
        entry = told.get(viewer)
        if entry is None:
            entry = told[viewer] = {"seq": seq, "hand": hand, "seat": m.actor,
                                    "kind": m.action.kind,
                                    "text": narrate(m, viewer, self.names)}
        return entry

    def fresh(self, seat: int | None, hand_number: int) -> list[str]:
        """The cards ``seat`` just drew or took: those of its last move, if that move
        brought cards into its hand in the hand now played."""
        if seat is None:
            return []
        for _, hand, m, _ in reversed(self.moves):
            if m.actor != seat:
                continue
            if hand == hand_number and isinstance(
                    m.action, Draw | TakePile | TakeUpcard | PickUpFoot):
                return [card_code(c) for c in m.private_cards]
            return []
        return []

    def waiting_for(self, people: Sequence[int]) -> list[int]:
        """The people who have not yet pressed "Next hand" (none when play goes on)."""
        if self.paused_after is None:
            return []
        return [s for s in people if s not in self.ready]


def replay_with_log(game: Game, actions: Sequence[tuple[int | None, dict[str, Any]]],
                    time_seq: int | None) -> MoveLog:
    """Apply a table's logged actions to its new game, telling each move: the log of a
    table rebuilt after a restart (used by :func:`handfoot.server.offloop.work.rebuild_logged`)."""
    moves = MoveLog()
    for i, (seat, data) in enumerate(actions):
        if time_seq == i:
            game.call_time()
        action = action_from_json(data)
        game.verify(action, seat)
        moves.play(game, i, action, wait_for_people=False)
    if time_seq == len(actions):
        game.call_time()
    return moves


def level_word(level: str | None) -> str | None:
    """A computer player's level as people are offered it: easy, medium or hard (a
    table set up with a bot's own name, as older ones and tests are, shows its level).

    >>> level_word("heuristic"), level_word("hard"), level_word("policy"), level_word(None)
    ('medium', 'hard', 'policy', None)
    """
    named: dict[str, str] = getattr(bots_module, "LEVELS", {})
    if level is None or level in named:
        return level
    return next((word for word, bot in named.items() if bot == level), level)


def seat_names(seats: Sequence[dict[str, Any]]) -> list[str]:
    """Each seat's name, as the move log, the results, the lobby and the replay say it:
    the person's name, or "Player 3"; a computer player by its level, "Computer
    (hard)" (with its seat, "Computer 2 (medium)", where two play at one level).

    >>> seat_names([{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "hard"},
    ...             {"kind": "human", "name": ""}, {"kind": "bot", "level": "heuristic"}])
    ['Ann', 'Computer (hard)', 'Player 3', 'Computer (medium)']
    >>> seat_names([{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}])
    ['Computer 1 (easy)', 'Computer 2 (easy)']
    """
    words = [level_word(s.get("level")) or "medium" if s.get("kind") == "bot" else None
             for s in seats]
    out = []
    for i, s in enumerate(seats):
        name = str(s.get("name") or "").strip()
        if name and name != "You":  # the lobby's quick game named its one person "You"
            out.append(name)
        elif words[i] is not None:
            alone = words.count(words[i]) == 1
            out.append(f"Computer ({words[i]})" if alone else f"Computer {i + 1} ({words[i]})")
        else:
            out.append(f"Player {i + 1}")
    return out
