"""The state message: what each connection at a table receives after every change.

A seat's message carries its view of the game (its own hand, everyone's melds), the
seats, the move log in its words, the last hand's result and the pause between hands;
a spectator's, the public view. After a move, :class:`Broadcast` writes the message
of each seat with a socket at the table: everything every viewer shares (the table,
the melds, the scores, the seats) is written as JSON once a broadcast, the seats and
each team's melds are kept from one broadcast to the next until they change, and each
viewer's move log is kept written from one move to the next
(:meth:`handfoot.server.live.table_log.MoveLog.entries_json`), so that a message is mostly
joined from JSON already written.
"""

from __future__ import annotations

from typing import Any, Final

import orjson

from handfoot.game import Game
from handfoot.game.records import deal_commitment
from handfoot.game.views import (
    TeamView,
    check_seat,
    hand_codes,
    public_view,
    seat_view,
    team_json,
)
from handfoot.server.live.reasons import reasons
from handfoot.server.live.table import LiveTable, level_word, salt_of
from handfoot.server.live.table_log import seat_names


def commitment_of(table: LiveTable) -> dict[str, Any]:
    """The commitment to the hand in play's card order, made when it was dealt."""
    n = table.game.hand.hand_number
    digest = table.commitments.get(n)
    if digest is None:
        digest = deal_commitment(table.game.hand.deal, salt_of(table.row)(n))
        table.commitments[n] = digest
    return {"hand": n, "sha256": digest}


def last_hand_of(table: LiveTable) -> dict[str, Any] | None:
    """The last finished hand's result, as every message carries it (kept until the
    next hand ends: a result never changes)."""
    finished = len(table.game.results)
    if table.last_hand[0] != finished:
        table.last_hand = (finished, last_hand_json(table.game))
    return table.last_hand[1]


def last_hand_json(game: Game) -> dict[str, Any] | None:
    if not game.results:
        return None
    r = game.results[-1]
    return {
        "number": r.number, "ended_by": r.ended_by, "went_out": r.went_out,
        "teams": [{"team": s.team, "total": s.total,
                   "lines": [[label, pts] for label, pts in s.lines(game.rules.words)]}
                  for s in r.scores],
    }


#: each team's part of the table as JSON, by its view (shared by every table: a team's
#: view is made again only when its melds, red threes or score change)
_TEAM_JSON: dict[int, tuple[TeamView, bytes]] = {}


def _team_bytes(team: TeamView) -> bytes:
    cached = _TEAM_JSON.get(id(team))
    if cached is not None and cached[0] is team:
        return cached[1]
    text = orjson.dumps(team_json(team), option=orjson.OPT_NON_STR_KEYS)
    if len(_TEAM_JSON) >= 4096:
        _TEAM_JSON.clear()
    _TEAM_JSON[id(team)] = (team, text)
    return text


#: the seats' part of the messages as JSON, and their names in the move log, by what
#: they are made from (shared by every table: seats change far less often than moves)
_SEATS_JSON: dict[tuple[tuple[Any, ...], ...], tuple[orjson.Fragment, list[str]]] = {}


def _seats_of(table: LiveTable) -> tuple[orjson.Fragment, list[str]]:
    """The seats as every message of a table shows them (who sits where, a person or the
    computer, connected, joined), as JSON, and their names in the move log."""
    connected = table.connected()
    joined = table.joined
    extra = table.seat_extra
    key = tuple([(s["kind"], s.get("computer"), s.get("level"), s.get("name"),
                  i in connected, i in joined,
                  tuple(sorted(extra[i].items())) if i in extra else ())
                 for i, s in enumerate(table.seats)])
    made = _SEATS_JSON.get(key)
    if made is None:
        names = seat_names(table.seats)
        seats = [{"seat": i, "kind": s["kind"], "computer": table.is_bot(i),
                  "level": level_word(s.get("level")), "name": s.get("name", ""),
                  "called": names[i], "connected": i in connected, "joined": i in joined,
                  "rating": extra.get(i, {}).get("rating"),
                  "away": bool(extra.get(i, {}).get("away")),
                  "hand_over": bool(extra.get(i, {}).get("hand_over"))}
                 for i, s in enumerate(table.seats)]
        made = (orjson.Fragment(orjson.dumps(seats)), names)
        if len(_SEATS_JSON) >= 4096:
            _SEATS_JSON.clear()
        _SEATS_JSON[key] = made
    return made


#: where a viewer's own part goes in a message written for every viewer of a broadcast
#: (:meth:`Broadcast.data`): a NUL byte, which orjson writes inside a string only as
#: ``\u0000``, so that the bytes around it are found by splitting at it
_OWN: Final = orjson.Fragment(b"\x00")
#: the viewer's own parts, in the order the message's keys put them
_OWN_PARTS: Final = 8


class Broadcast:
    """The state messages of one change at a table, one for each viewer: what they
    share is written once. ``legal``: the actions listed for the seat to act.

    A seat's message and a spectator's differ only in the seat, its hand, its moves
    (the seat to act's), its move log, the cards it just got and why it could not take
    the pile; the rest (most of it: the table, the melds, the scores) is the same for
    every viewer. The first message of a broadcast writes that rest once, with a mark
    where each viewer's own part goes, and each message joins it with its own parts:
    the same bytes as :meth:`whole` writes for the viewer in one piece."""

    def __init__(self, table: LiveTable, legal: list[dict[str, Any]] | None) -> None:
        self.table = table
        self.legal = legal
        self.seats, self.names = _seats_of(table)
        self.teams: orjson.Fragment | None = None  # written with the first view
        self._shared: list[bytes] | None = None  # the rest, between the viewers' parts
        self._frozen: str | None = None  # why the player to act cannot take the pile

    def text(self, seat: int | None) -> str:
        """The message of ``seat`` (None: a spectator's), as JSON."""
        return self.data(seat).decode()

    def data(self, seat: int | None) -> bytes:
        """The message of ``seat`` (None: a spectator's), as JSON in UTF-8 (as it goes
        out to the socket)."""
        shared = self._shared
        if shared is None:
            shared = self._shared = self._message(None, own=False).split(b"\x00")
            if len(shared) != _OWN_PARTS + 1:  # pragma: no cover - a guard
                raise RuntimeError("a shared part of a state message holds a NUL byte")
        table = self.table
        game = table.game
        if seat is None:
            who, hand, moves = b"null", b"[]", b"[]"
        else:
            check_seat(game, seat)
            who = str(seat).encode()
            hand = orjson.dumps(hand_codes(game.hand.hands[seat]))
            moves = orjson.dumps(self.legal or []) if self._mine(seat) else b"[]"
        return b"".join((
            shared[0], who, shared[1], who, shared[2], hand,
            shared[3], moves, shared[4], table.moves.entries_json(seat, self.names),
            shared[5], orjson.dumps(table.moves.fresh(seat, game.hand_number)),
            shared[6], orjson.dumps(pile_reason(table, seat, self._frozen)),
            shared[7], orjson.dumps(self._reasons(seat)),
            shared[8]))

    def whole(self, seat: int | None) -> bytes:
        """The message of ``seat`` written in one piece, without the shared part kept:
        what :meth:`data` joins (the tests hold the two equal)."""
        return self._message(seat, own=True)

    def _mine(self, seat: int | None) -> bool:
        return seat is not None and seat == self.table.shown_moves

    def _reasons(self, seat: int | None) -> dict[str, str]:
        """Why the buttons of the seat to act's turn are greyed (the engine's words)."""
        if seat is None or self.legal is None or not self._mine(seat) or self.table.paused:
            return {}
        return reasons(self.table.game, seat, (), self.legal)

    def _message(self, seat: int | None, own: bool) -> bytes:
        """The message of ``seat``; without ``own``, a spectator's with a mark
        (:data:`_OWN`) for each viewer's own part."""
        table = self.table
        game = table.game
        view = public_view(game) if seat is None else seat_view(game, seat)
        if self.teams is None:  # the same teams in every viewer's view
            self.teams = orjson.Fragment(
                b"[" + b",".join([_team_bytes(t) for t in view.teams]) + b"]")
        self._frozen = view.pile_frozen
        data = view.to_json(history=False, teams=self.teams)
        if not own:
            data["seat"] = data["hand"] = _OWN
        msg = {
            "type": "state",
            "table": table.id,
            "seq": table.seq,
            "seat": seat if own else _OWN,
            "rules": table.row.rules_name,
            "seats": self.seats,
            # the game starts when every person has joined, or when the host starts it
            "waiting_to_start": table.waiting,
            # the hand's actions are left out: the move log below tells them
            "view": data,
            "legal": ((self.legal or []) if self._mine(seat) else []) if own else _OWN,
            "last_hand": last_hand_of(table),
            "notice": table.trouble or table.notice,
            "time_called": game.time_called,
            # provably fair: the deal of this hand was fixed before anyone played
            "commitment": commitment_of(table),
            # dealt from a seed chosen when the table was set up: not a fair deal
            "seeded": not table.row.secret,
            # the move log in this viewer's words, newest first, and the cards it just
            # got
            "log": orjson.Fragment(table.moves.entries_json(seat, self.names))
            if own else _OWN,
            "fresh": table.moves.fresh(seat, game.hand_number) if own else _OWN,
            "pile_reason": pile_reason(table, seat, view.pile_frozen) if own else _OWN,
            # why the buttons of the seat to act's turn are greyed, in the engine's words
            "reasons": self._reasons(seat) if own else _OWN,
            "final_melds": table.moves.final_melds,
            "waiting": ({"hand": table.moves.paused_after,
                         "ready": sorted(table.moves.ready),
                         "people": sorted(table.people())} if table.paused else None),
            # who went out first in the hand, where going out does not end it
            "went_out": game.hand.went_out,
        }
        return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS)


def pile_reason(table: LiveTable, seat: int | None, actor_reason: str | None) -> str | None:
    """Why this viewer could not take the pile now, in the engine's words (a spectator,
    or the player to act: as the view says)."""
    hand = table.game.hand
    if seat is None or seat == hand.actor or not hand.pile or table.game.over \
            or hand.phase.name not in ("DRAW", "PLAY"):
        return actor_reason
    why = hand.pile_blocker(seat)
    if why is None and hand.pile_wilds and table.rules.pile.wild_freezes_until_taken:
        why = "frozen by a wild card: only a natural pair takes it"
    return why
