"""Live tables: a game rebuilt from its action log, the connections watching it and the
computer players that act for bot seats.

Every action is verified by the engine, committed to the log, applied, and only then
pushed to the connections: each seat receives its own view, spectators the public view.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from handfoot import bots as bots_module
from handfoot.actions import (
    Action,
    AddToMeld,
    LayDown,
    LayMeld,
    action_from_json,
    action_to_json,
)
from handfoot.bots import BOTS, Bot, make_bot
from handfoot.engine import IllegalAction
from handfoot.game import Game
from handfoot.rules import Rules
from handfoot.server.store import SeqTaken, Store, TableRow
from handfoot.views import public_view, seat_view

log = logging.getLogger("handfoot.server")



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


Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass(eq=False)
class Connection:
    seat: int | None
    send: Send


@dataclass(eq=False)
class LiveTable:
    row: TableRow
    rules: Rules
    game: Game
    seq: int = 0  #: actions applied (the next action's number)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: list[Connection] = field(default_factory=list)
    bot_task: asyncio.Task[None] | None = None
    bots: dict[int, tuple[str, Bot]] = field(default_factory=dict)  #: seat: (level, bot)
    #: time was called after this many actions (None: not called)
    time_seq: int | None = None
    #: the monitor's latest word to the table ("15 minutes left", "Time is called ...")
    notice: str = ""

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def seats(self) -> list[dict[str, Any]]:
        return self.row.seats

    def is_bot(self, seat: int) -> bool:
        s = self.seats[seat]
        return bool(s["kind"] == "bot" or s.get("computer"))

    def seat_of_token(self, token: str) -> int | None:
        h = token_hash(token)
        for i, s in enumerate(self.seats):
            if s.get("token_hash") and secrets.compare_digest(s["token_hash"], h):
                return i
        return None


def apply_logged(game: Game, seat: int | None, action_json: dict[str, Any]) -> None:
    game.apply(action_from_json(action_json), seat)


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


def message_for(table: LiveTable, seat: int | None) -> dict[str, Any]:
    """The state message one seat (or a spectator, with ``seat`` None) receives."""
    game = table.game
    connected = {c.seat for c in table.connections if c.seat is not None}
    view = public_view(game) if seat is None else seat_view(game, seat)
    legal: list[dict[str, Any]] = []
    if seat is not None and not game.over and game.actor == seat:
        # the engine's moves, one meld or one card at a time (few: never the
        # combinations of a whole opening); it checks any larger selection when sent
        legal = [action_to_json(a) for a in game.hand.legal_actions()]
    return {
        "type": "state",
        "table": table.id,
        "seq": table.seq,
        "seat": seat,
        "rules": table.row.rules_name,
        "seats": [{"seat": i, "kind": s["kind"], "computer": table.is_bot(i),
                   "level": s.get("level"), "name": s.get("name", ""),
                   "connected": i in connected}
                  for i, s in enumerate(table.seats)],
        "view": view.to_json(),
        "legal": legal,
        "last_hand": last_hand_json(game),
        "notice": table.notice,
        "time_called": game.time_called,
    }


class Manager:
    """All live tables of one server process."""

    def __init__(self, store: Store, bot_delay: float = 0.6) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.live: dict[str, LiveTable] = {}
        self.closing = False
        #: called (with the table's lock held) when a table's game is over
        self.on_over: list[Callable[[LiveTable], None]] = []

    # -------------------------------------------------------------- loading
    def load(self, table_id: str) -> LiveTable | None:
        table = self.live.get(table_id)
        if table is not None:
            return table
        row = self.store.table(table_id)
        if row is None:
            return None
        rules = Rules.from_toml(row.rules_toml)
        table = LiveTable(row, rules, Game(rules, row.seed),
                          time_seq=self.store.time_called(table_id))
        self._catch_up(table)
        if table.game.over and row.result is None:
            self._over(table)
        self.live[table_id] = table
        return table

    def _catch_up(self, table: LiveTable) -> None:
        """Apply the actions other writers logged after ours (none with one process),
        calling time where it was called."""
        for a in self.store.actions(table.id, after=table.seq - 1):
            self._time_point(table)
            apply_logged(table.game, a.seat, a.action)
            table.seq = a.seq + 1
        self._time_point(table)

    @staticmethod
    def _time_point(table: LiveTable) -> None:
        if table.time_seq is not None and table.time_seq == table.seq:
            table.game.call_time()

    def _over(self, table: LiveTable) -> None:
        """The game is over: its summary for the lobby, and whoever waits for it."""
        g = table.game
        self.store.set_result(table.id, {"totals": list(g.totals),
                                         "winners": list(g.winners), "seq": table.seq,
                                         "hand_number": g.hand_number})
        for hook in self.on_over:
            try:
                hook(table)
            except Exception:  # a listener's failure never stops the game
                log.exception("after the game at table %s", table.id)

    async def call_time(self, table: LiveTable, notice: str = "") -> bool:
        """The monitor calls time at a table: kept beside its log (so a restart calls it
        at the same point), then the game follows ``game.when_time_is_called``. False if
        the game was over or time was called before."""
        async with table.lock:
            self._catch_up(table)
            if table.game.over or table.game.time_called:
                return False
            if not self.store.call_time(table.id, table.seq):
                return False
            table.time_seq = table.seq
            table.game.call_time()
            if notice:
                table.notice = notice
            if table.game.over:
                self._over(table)
        await self.broadcast(table)
        self.kick_bots(table)
        return True

    async def notify(self, table: LiveTable, notice: str) -> None:
        """Say something to everyone at the table (the clock's warning)."""
        table.notice = notice
        for conn in list(table.connections):
            with contextlib.suppress(Exception):
                await conn.send({"type": "notice", "message": notice})
        await self.broadcast(table)

    def resume_all(self) -> None:
        """On start: rebuild every unfinished game and let its computer players go on."""
        for row in self.store.tables():
            if row.result is not None:
                continue
            try:
                table = self.load(row.id)
            except Exception:  # one table's log no longer replays: the others go on
                log.exception("table %s cannot be rebuilt from its log", row.id)
                continue
            if table is not None and not table.game.over:
                self.kick_bots(table)

    # --------------------------------------------------------------- acting
    async def act(self, table: LiveTable, seat: int, action: Action) -> None:
        """Verify, log, apply and broadcast; raises the engine's IllegalAction."""
        async with table.lock:
            self._act_locked(table, seat, action)
        await self.broadcast(table)
        self.kick_bots(table)

    def _act_locked(self, table: LiveTable, seat: int, action: Action) -> None:
        for _ in range(5):
            self._catch_up(table)
            table.game.verify(action, seat)
            try:
                self.store.append_action(table.id, table.seq, seat, action_to_json(action))
            except SeqTaken:
                continue
            table.game.push(action)
            table.seq += 1
            if table.game.over:
                self._over(table)
            return
        raise IllegalAction("The table is busy; try again.")

    def preview(self, table: LiveTable, seat: int, action: Action) -> dict[str, Any]:
        """What a meld would be worth (before the team has gone down, with the melds laid
        out for its opening), and the engine's word on it."""
        game = table.game
        team = game.rules.team_of[seat]
        values = game.rules.card_value
        value = 0
        if isinstance(action, LayDown):
            value = sum(values[c] for m in action.melds for c in m)
        elif isinstance(action, LayMeld | AddToMeld):
            value = sum(values[c] for c in action.cards)
        if not game.hand.opened[team]:
            value += sum(values[c] for m in game.hand.melds[team] for c in m.cards)
        try:
            game.verify(action, seat)
            ok, message = True, ""
        except IllegalAction as e:
            ok, message = False, str(e)
        opened = game.hand.opened[team]
        return {"type": "preview", "ok": ok, "message": message, "value": value,
                "minimum": None if opened else game.hand.minimums[team]}

    async def broadcast(self, table: LiveTable) -> None:
        for conn in list(table.connections):
            try:
                await conn.send(message_for(table, conn.seat))
            except Exception:  # a closed socket: its handler removes it
                with contextlib.suppress(ValueError):
                    table.connections.remove(conn)

    # ------------------------------------------------------------ computers
    def set_computer(self, table: LiveTable, seat: int, on: bool) -> None:
        seats = [dict(s) for s in table.seats]
        if seats[seat]["kind"] != "human":
            return
        seats[seat]["computer"] = on
        seats[seat].setdefault("level", default_level())
        self.store.set_seats(table.id, seats)
        table.row = dataclasses.replace(table.row, seats=seats)

    def kick_bots(self, table: LiveTable) -> None:
        if self.closing or table.game.over or not table.is_bot(table.game.actor):
            return
        if table.bot_task is None or table.bot_task.done():
            table.bot_task = asyncio.get_running_loop().create_task(self._run_bots(table))

    async def _run_bots(self, table: LiveTable) -> None:
        try:
            while not self.closing and not table.game.over and table.is_bot(table.game.actor):
                await asyncio.sleep(self.bot_delay)
                async with table.lock:
                    self._catch_up(table)
                    game = table.game
                    if game.over or not table.is_bot(game.actor):
                        break
                    seat = game.actor
                    bot = self._bot(table, seat)
                    legal = game.legal_actions()
                    view = seat_view(game, seat) if bot.uses_view else None
                    # a slow computer player thinks in a thread; the lock keeps the game still
                    action = await asyncio.to_thread(bot.choose, view, legal)
                    self._act_locked(table, seat, action)
                await self.broadcast(table)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer player failed at table %s", table.id)

    @staticmethod
    def _bot(table: LiveTable, seat: int) -> Bot:
        level = table.seats[seat].get("level") or default_level()
        held = table.bots.get(seat)
        if held is not None and held[0] == level:
            return held[1]
        try:
            bot = make_bot(level, seed=table.row.seed * 10 + seat)
        except Exception:  # a level this version does not have
            log.exception("no computer player %r; playing at the first level", level)
            bot = make_bot(default_level(), seed=table.row.seed * 10 + seat)
        table.bots[seat] = (level, bot)
        return bot

    async def close(self) -> None:
        self.closing = True
        for t in self.live.values():
            if t.bot_task is not None:
                t.bot_task.cancel()
                with contextlib.suppress(BaseException):
                    await t.bot_task
