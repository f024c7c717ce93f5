"""A live table: one game in memory, the connections watching it and its seats.

:class:`LiveTable` is what :class:`handfoot.server.live.manager.Manager` keeps for each
table it serves; the computer players' levels and the invite links' tokens are
named here too.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from handfoot import bots as bots_module
from handfoot.bots import BOTS
from handfoot.game.fair import hand_salt, seeded_salt
from handfoot.rules import Rules
from handfoot.server.live.outbox import Connection
from handfoot.server.live.table_log import MoveLog
from handfoot.server.live.table_log import level_word as level_word
from handfoot.server.offloop.pool import ServedGame
from handfoot.server.offloop.work import Origin
from handfoot.server.storage.store import TableRow


def time_notice(rules: Rules) -> str:
    """What everyone at a table is told when time is called there (by the club's clock;
    the same words in every process that hears of it, from the notice or the log)."""
    if rules.game.when_time_is_called == "end-hand":
        return ("Time is called: this hand ends now as it stands (no going-out bonus), "
                "and no new hand starts.")
    return "Time is called: finish this hand; no new hand starts."


def levels() -> list[str]:
    """The computer players' levels offered to people (``easy``...), then every bot."""
    named: dict[str, str] = getattr(bots_module, "LEVELS", {})
    return [*named, *(b for b in BOTS if b not in named)]


def offered_levels() -> list[str]:
    """The levels a person chooses from in the lobby."""
    named: dict[str, str] = getattr(bots_module, "LEVELS", {})
    return list(named) or list(BOTS)


def default_level() -> str:
    """The level a computer player has unless someone chooses: ``medium`` (as in
    ``handfoot play``), a partner good enough not to annoy anyone and quick to play."""
    return "medium" if "medium" in levels() else levels()[0]


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(18)


@dataclass(eq=False)
class LiveTable:
    row: TableRow
    rules: Rules
    game: ServedGame
    seq: int = 0  #: actions applied (the next action's number)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: held while the seats or who has joined change here, or are read from the
    #: database (see :mod:`handfoot.server.live.seats`)
    seats_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: list[Connection] = field(default_factory=list)
    bot_task: asyncio.Task[None] | None = None
    #: seat: (level asked for, level played, seed) of its computer player (the player
    #: itself lives in the worker process that keeps the table's game)
    bots: dict[int, tuple[str, str, int]] = field(default_factory=dict)
    #: time was called after this many actions (None: not called)
    time_seq: int | None = None
    #: the monitor's latest word to the table ("15 minutes left", "Time is called ...")
    notice: str = ""
    #: while the database refuses this table's writes: said instead of the notice
    trouble: str = ""
    #: when it was last used (time.monotonic()): an idle table is unloaded from memory
    used: float = field(default_factory=time.monotonic)
    #: the commitment to each hand's card order (hand number: SHA-256 as hex)
    commitments: dict[int, str] = field(default_factory=dict)
    #: the last finished hand's result as sent (hands finished, its JSON): written once,
    #: not for every message of the hands after it
    last_hand: tuple[int, dict[str, Any] | None] = (0, None)
    #: once the game is over: its deals checked against their commitments
    fair: dict[str, Any] | None = None
    #: waiting for its people: nobody acts, no computer plays, until it starts
    waiting: bool = False
    #: the people's seats whose invite link has been opened
    joined: set[int] = field(default_factory=set)
    #: the recent moves in words, and the pause between hands
    moves: MoveLog = field(default_factory=MoveLog)
    #: time may be called at it (a club event's table)
    timed: bool = True
    #: a club event's table (no hints there); None until looked up
    club_event: bool | None = None
    #: the seats whose person is connected at another server process, by process
    elsewhere: dict[str, set[int]] = field(default_factory=dict)
    #: the seats connected here, as last told to the other processes
    told_here: frozenset[int] = frozenset()
    #: the person sitting in each seat (their player's id), as far as this process knows
    players: dict[int, str] = field(default_factory=dict)
    #: what the seats show beside their names: a person's rating, whether they left
    seat_extra: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: the preset its game is rated under ("": not rated; None: not looked up yet)
    rated: str | None = None
    #: the seats whose person was connected at the last broadcast (who left, who came
    #: back: :mod:`handfoot.server.live.presence`)
    present: set[int] = field(default_factory=set)
    #: each absent person's seat: when they left (time.monotonic())
    left_at: dict[int, float] = field(default_factory=dict)
    #: the turn being timed: (the table's seq, when it began, nudged already)
    turn: tuple[int, float, bool] = (-1, 0.0, False)

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def origin(self) -> Origin:
        """What the game is made from before any action (for the worker processes)."""
        return Origin(self.row.rules_toml, self.row.seed, self.row.secret)

    @property
    def seats(self) -> list[dict[str, Any]]:
        return self.row.seats

    def is_bot(self, seat: int) -> bool:
        s = self.seats[seat]
        return bool(s["kind"] == "bot" or s.get("computer"))

    def waiting_for(self) -> list[int]:
        """The people's seats whose invite link has not been opened yet."""
        return [i for i, s in enumerate(self.seats)
                if s["kind"] == "human" and not s.get("computer") and i not in self.joined]

    def here(self) -> set[int]:
        """The seats whose person is connected to this process."""
        return {c.seat for c in self.connections if c.seat is not None and not c.dropped}

    def connected(self) -> set[int]:
        """The seats whose person is connected, to this process or another."""
        out = self.here()
        for seats in self.elsewhere.values():
            out |= seats
        return out

    def people(self) -> list[int]:
        """The seats of the people at the table now: connected (to any server process),
        not played by a computer."""
        return sorted(i for i in self.connected() if not self.is_bot(i))

    @property
    def paused(self) -> bool:
        """Between hands, until every person at the table has pressed "Next hand"."""
        return self.moves.paused_after is not None

    @property
    def shown_moves(self) -> int | None:
        """The seat shown its moves: the one to act, unless the game is over, waits for
        its people to start, or is paused between hands (no move is taken then)."""
        game = self.game
        return None if game.over or self.waiting or self.paused else game.actor

    def seat_of_token(self, token: str) -> int | None:
        h = token_hash(token)
        for i, s in enumerate(self.seats):
            if s.get("token_hash") and secrets.compare_digest(s["token_hash"], h):
                return i
        return None


def salt_of(row: TableRow) -> Callable[[int], str]:
    """The salt of each hand's commitment at this table."""
    secret, seed = row.secret, row.seed
    if secret:
        return lambda n: hand_salt(secret, n)
    return lambda n: seeded_salt(seed, n)
