"""Live tables: a game rebuilt from its action log, the connections watching it and the
computer players that act for bot seats.

Every action is verified by the engine, committed to the log, applied, and only then
pushed to the connections: each seat receives its own view, spectators the public view.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from handfoot.actions import (
    Action,
    AddToMeld,
    LayDown,
    LayMeld,
    action_from_json,
    action_to_json,
)
from handfoot.bots import make_bot
from handfoot.engine import IllegalAction
from handfoot.server.diagnostics import cpu, metrics
from handfoot.server.live import presence, seats
from handfoot.server.live.messages import Broadcast
from handfoot.server.live.outbox import Connection
from handfoot.server.live.reasons import reasons
from handfoot.server.live.table import LiveTable, default_level, time_notice
from handfoot.server.live.table_log import seat_names
from handfoot.server.offloop.pool import BrokenWorker, rules_from_toml
from handfoot.server.offloop.work import Work, make_game
from handfoot.server.processes.sync import Bus, LocalKeepers, once
from handfoot.server.protocol import (
    ErrorOut,
    HintOut,
    PresenceOut,
    PreviewOut,
    error,
    farewell,
    notice_of,
)
from handfoot.server.storage.appender import Appender
from handfoot.server.storage.database import archive_dir
from handfoot.server.storage.store import ActionRow, SeqTaken, Store, TimeCalled

log = logging.getLogger("handfoot.server")

#: said at a table while the database refuses its moves
CANNOT_SAVE = ("The server cannot save moves right now; play goes on by itself as soon "
               "as it can.")
#: the computer players' waits between tries while the database refuses (seconds)
BACKOFF = (0.25, 0.5, 1.0, 2.0)


def storage_failed(e: BaseException) -> bool:
    """The database (or its disk) failed, rather than the game: worth trying again."""
    import sqlite3

    import sqlalchemy.exc
    return (isinstance(e, sqlalchemy.exc.SQLAlchemyError | sqlite3.Error | OSError)
            or type(e).__module__.split(".")[0] == "psycopg")


#: said to a seat's sockets when another socket opens the seat
SEAT_OPENED = ("Your seat was just opened in another window or on another device. If "
               "that was not you, ask the person who set up the table for a new link.")

#: what a connection's queue knows of a state message (its JSON text is sent)
_STATE: dict[str, Any] = {"type": "state"}

IDLE = 600.0  #: seconds after which a table nobody watches is unloaded from memory
#: ... a table another process keeps, with nobody connected here: this process only
#: followed its moves (applied each as it heard it, for nobody); read again from the
#: log when next wanted
FOLLOWED_IDLE = 60.0

__all__ = ["Manager"]


class Manager:
    """All live tables of one server process."""

    def __init__(self, store: Store, bot_delay: float = 0.6, work: Work | None = None,
                 idle: float = IDLE) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.work = work or Work()
        self.idle = idle
        self.live: dict[str, LiveTable] = {}
        self.loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        self.closing = False
        #: called (with the table's lock held) when a table's game is over
        self.on_over: list[Callable[[LiveTable], None]] = []
        #: the tables whose computer players this process runs (all of them, unless
        #: several processes share a PostgreSQL database: :mod:`handfoot.server.processes.sync`)
        self.keepers: LocalKeepers = LocalKeepers()
        #: what other processes change, heard as it is committed (PostgreSQL)
        self.bus: Bus | None = None
        #: appends from the event loop, without a thread (PostgreSQL)
        self.appender = Appender(store) if store.postgres else None
        self.bot_actions = 0  #: computer players' actions written by this process
        self.bot_lost = 0  #: ... refused because another writer was first
        self._claiming: set[asyncio.Task[None]] = set()
        #: finished games' results on their way to the database
        self._writing: set[asyncio.Task[None]] = set()

    def in_step(self) -> bool:
        """Whether other processes' changes reach this one as they are made (then a
        table is not read from the log before each computer player's move)."""
        return self.bus is not None and self.bus.healthy

    # -------------------------------------------------------------- loading
    def _keep(self, table: LiveTable) -> None:
        """Hold a table just read (and caught up with the log) in memory. One read
        between two hands (a hand over and nobody has played in the next) waits for its
        people again, as it did before the server restarted. (With several processes
        it does not: another may have played on already, and its people's "Next hand"
        went by before this one listened.)"""
        game = table.game
        if game.over and table.row.result is None:
            self._over(table)
        elif (self.bus is None and game.results and not game.hand.history
              and not table.waiting
              and any(not table.is_bot(i) for i in range(len(table.seats)))):
            table.moves.paused_after = game.results[-1].number
            table.moves.ready = set()
        self.live[table.id] = table
        if self.keepers.shared and not game.over:
            # the first process to hold a table keeps it, and the sockets of its table
            # are handed to it (:mod:`handfoot.server.processes.steering`)
            self._claim(table)

    def _who(self, table: LiveTable) -> dict[str, Any] | None:
        """The question to the other processes, on reading a table into memory, of who
        is connected to them there (None: nothing to ask)."""
        if self.bus is None or table.game.over:
            return None
        return {"k": "who", "t": table.id}

    def load(self, table_id: str) -> LiveTable | None:
        """The live table (rebuilt here from its log if it is not in memory: use
        :meth:`aload` where a request waits for it)."""
        table = self.live.get(table_id)
        if table is not None:
            table.used = time.monotonic()
            return table
        row = self.store.table(table_id)
        if row is None:
            return None
        rules = rules_from_toml(row.rules_toml)
        timed = self.store.event_table(table_id) is not None
        table = LiveTable(row, rules, make_game(rules, row.seed, row.secret), seq=0,
                          time_seq=self.store.time_called(table_id),
                          waiting=self.store.is_waiting(table_id),
                          joined=self.store.joined_seats(table_id),
                          timed=timed, club_event=timed)
        self._catch_up(table)
        self._keep(table)
        who = self._who(table)
        if who is not None:
            self.store.notify(who)
        return table

    async def aload(self, table_id: str) -> LiveTable | None:
        """The live table; one not in memory is rebuilt from its log in a worker
        process, so that loading it holds up no other table."""
        table = self.live.get(table_id)
        if table is not None:
            table.used = time.monotonic()
            return table
        return await once(self.loading, table_id, lambda: self._aload(table_id))

    async def _aload(self, table_id: str) -> LiveTable | None:
        row = await asyncio.to_thread(self.store.table, table_id)
        if row is None:
            return None
        logged = await asyncio.to_thread(self.store.actions, table_id)
        time_seq = await asyncio.to_thread(self.store.time_called, table_id)
        timed = await asyncio.to_thread(self.store.event_table, table_id) is not None
        waiting = await asyncio.to_thread(self.store.is_waiting, table_id)
        joined = await asyncio.to_thread(self.store.joined_seats, table_id)
        game, moves = await self.work.rebuild_logged(
            row.rules_toml, row.seed, row.secret, [(a.seat, a.action) for a in logged],
            time_seq)
        # (with the move log told again while the game was rebuilt)
        table = LiveTable(row, rules_from_toml(row.rules_toml), game, seq=len(logged),
                          time_seq=time_seq, waiting=waiting, joined=joined, timed=timed,
                          moves=moves, club_event=timed)
        await self._acatch_up(table)
        known = self.live.get(table_id)  # loaded meanwhile by another path
        if known is not None:
            return known
        self._keep(table)
        who = self._who(table)
        if who is not None:
            await asyncio.to_thread(self.store.notify, who)
        return table

    def _catch_up(self, table: LiveTable) -> None:
        """Apply the actions other writers logged after ours (none with one process),
        calling time where it was called."""
        self._apply_logged(table, self.store.actions(table.id, after=table.seq - 1))

    async def _acatch_up(self, table: LiveTable) -> None:
        """:meth:`_catch_up`, reading the log in a thread (the loop never waits for the
        database)."""
        self._apply_logged(table, await asyncio.to_thread(self.store.actions, table.id,
                                                          table.seq - 1))

    async def resync(self, table: LiveTable, time_too: bool = True) -> None:
        """Read the table's log again (and when time was called): what another process
        wrote that this one has not heard of."""
        if time_too and table.time_seq is None:
            called = await asyncio.to_thread(self.store.time_called, table.id)
            if called is not None and called < table.seq:  # cannot be: start again
                log.error("table %s: time was called before actions applied here", table.id)
                await self.rebuild(table)
                return
            table.time_seq = called
        await self._acatch_up(table)

    async def rebuild(self, table: LiveTable) -> None:
        """Rebuild the table's game from its log (in a worker process)."""
        logged = await asyncio.to_thread(self.store.actions, table.id)
        time_seq = await asyncio.to_thread(self.store.time_called, table.id)
        table.game = await self.work.rebuild(table.row.rules_toml, table.row.seed,
                                             table.row.secret,
                                             [(a.seat, a.action) for a in logged], time_seq)
        table.seq, table.time_seq = len(logged), time_seq

    def _apply_logged(self, table: LiveTable, logged: list[ActionRow]) -> None:
        for a in logged:
            if a.seq < table.seq:
                continue
            self._time_point(table)
            action = action_from_json(a.action)
            self.apply_heard(table, a.seat, action)
        self._time_point(table)

    def apply_heard(self, table: LiveTable, seat: int | None, action: Action) -> None:
        """Apply an action another process wrote (from its notice or the log), as the
        table's own: told in the move log, and the hand it ends waits for the people."""
        start = cpu.now()
        table.game.verify(action, seat)
        table.moves.play(table.game, table.seq, action,
                         wait_for_people=bool(table.people()))
        cpu.spent("move heard", start)
        table.seq += 1

    @staticmethod
    def _time_point(table: LiveTable) -> None:
        """Call time in the game if it was called at this point of the log (learned
        from the log, or from an action refused for it, before the notice that says so
        is heard: the table is told in the same words as the notice's)."""
        if table.time_seq is not None and table.time_seq == table.seq:
            if not table.game.time_called:
                table.notice = time_notice(table.rules)
            table.game.call_time()

    def _over(self, table: LiveTable) -> None:
        """The game is over: its summary for the lobby, and whoever waits for it. The
        table stays kept here until its result is written: until then it is unfinished
        in the database, and another process that took it as keeperless could let its
        computers decide on a copy that has not heard the last moves yet."""
        g = table.game
        result = {"totals": list(g.totals), "winners": list(g.winners), "seq": table.seq,
                  "hand_number": g.hand_number, "time_called": g.time_called}
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # (a table read outside the loop: written here)
            try:
                self.store.set_result(table.id, result)
            finally:
                self.keepers.release(table.id)
        else:  # the loop never waits for the database: written in a thread
            task = loop.create_task(asyncio.to_thread(self.store.set_result, table.id,
                                                      result))
            self._writing.add(task)
            tid = table.id

            def written(task: asyncio.Task[None]) -> None:
                self._written(task)
                self.keepers.release(tid)
            task.add_done_callback(written)
        for hook in self.on_over:
            try:
                hook(table)
            except Exception:  # a listener's failure never stops the game
                log.exception("after the game at table %s", table.id)

    def _written(self, task: asyncio.Task[None]) -> None:
        self._writing.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a finished game's result was not written",
                      exc_info=task.exception())

    def unload_idle(self, now: float | None = None) -> list[str]:
        """Forget the tables nobody has used for :attr:`idle` seconds (no connection, no
        computer player acting), and for :data:`FOLLOWED_IDLE` seconds those another
        process keeps; they are rebuilt from their logs when next wanted."""
        now = time.monotonic() if now is None else now
        gone = []
        for tid, t in list(self.live.items()):
            busy = t.connections or t.lock.locked() or (
                t.bot_task is not None and not t.bot_task.done())
            # (one process keeps every table it has)
            idle = self.idle if self.keepers.keeps(tid) else min(self.idle, FOLLOWED_IDLE)
            if not busy and now - t.used > idle:
                del self.live[tid]
                gone.append(tid)
        return gone

    async def sweep(self, every: float = 60.0) -> None:
        """Unload idle tables every ``every`` seconds (runs while the server does)."""
        while not self.closing:
            await asyncio.sleep(every)
            self.unload_idle()

    async def call_time(self, table: LiveTable, notice: str = "") -> bool:
        """The monitor calls time at a table: kept beside its log (so a restart calls it
        at the same point), then the game follows ``game.when_time_is_called``. False if
        the game was over or time was called before."""
        async with table.lock:
            for _ in range(5):
                self._catch_up(table)
                if table.game.over or table.game.time_called:
                    return False
                try:
                    if not self.store.call_time(table.id, table.seq, notice):
                        await self.resync(table)  # called by another process
                        return False
                    break
                except SeqTaken:  # another process wrote an action first: read it
                    continue
            else:
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
            conn.push(notice_of(notice))
        await self.broadcast(table)

    async def announce(self, table_id: str, notice: str) -> None:
        """Say something at a table, to the people connected to every process."""
        table = self.live.get(table_id)
        if table is not None:
            await self.notify(table, notice)
        await asyncio.to_thread(self.store.notify, {"k": "notice", "t": table_id,
                                                    "n": notice[:500]})

    def resume_all(self) -> None:
        """On start: rebuild every unfinished game and let its computer players go on."""
        for row in self.store.tables(finished=False):
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
        start = time.perf_counter()
        async with table.lock:
            await self._act_locked(table, seat, action)
        await self.broadcast(table)
        metrics.observe_push(start)
        self.kick_bots(table)

    async def _act_locked(self, table: LiveTable, seat: int, action: Action,
                          again: bool = True) -> bool:
        """Verify, log (committed in a thread: the loop does not wait for the disk) and
        apply, with the table's lock held. If another process wrote first, its actions
        are read and, with ``again``, this one is checked and written again (else False:
        a computer player decides again on the new state)."""
        table.used = time.monotonic()
        if table.paused:
            raise IllegalAction("The next hand starts when everyone at the table has "
                                "pressed Next hand.")
        written = action_to_json(action)
        for _ in range(5):
            table.game.verify(action, seat)
            try:
                if self.appender is not None and not table.timed:
                    await self.appender.append(table.id, table.seq, seat, written,
                                               table.time_seq)
                else:
                    await asyncio.to_thread(self.store.append_action, table.id, table.seq,
                                            seat, written, table.time_seq, table.timed)
            except SeqTaken as e:  # another server process wrote first: read its actions
                await self.resync(table, time_too=isinstance(e, TimeCalled))
                if not again:
                    return False
                continue
            except Exception as e:
                if storage_failed(e) and not table.trouble:
                    table.trouble = CANNOT_SAVE
                    await self.broadcast(table)
                raise
            table.trouble = ""
            start = cpu.now()
            table.moves.play(table.game, table.seq, action,
                             wait_for_people=bool(table.people()))
            cpu.spent("move", start)
            table.seq += 1
            metrics.ACTIONS.labels("computer" if table.is_bot(seat) else "person").inc()
            if table.game.over:
                self._over(table)
            return True
        raise IllegalAction("The table is busy; try again.")

    def preview(self, table: LiveTable, seat: int, action: Action) -> PreviewOut:
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
        selected = action.cards if isinstance(action, LayMeld | AddToMeld) else ()
        return {"type": "preview", "ok": ok, "message": message, "value": value,
                "minimum": None if opened else game.hand.minimums[team],
                "reasons": {} if table.paused else reasons(game, seat, selected)}

    async def broadcast(self, table: LiveTable, only: Connection | None = None) -> None:
        """Queue each connection's state (the seat to act gets its legal actions:
        :meth:`Work.legal`); ``only``: that connection's alone (a spectator arriving).
        Never waits for a client."""
        if table.connections:  # (a move pushed to nobody is not a use)
            table.used = time.monotonic()
        if only is None:  # who left, who came back: told to the others at once
            for seat, words in presence.changes(table, time.monotonic()):
                self.tell(table, seat, words)
        game, seq = table.game, table.seq
        legal: list[dict[str, Any]] | None = None
        actor = table.shown_moves
        if actor is not None and (only.seat == actor if only is not None
                                  else any(c.seat == actor for c in table.connections)):
            try:
                legal = await self.work.legal(game, table.origin)
            except Exception:  # the pool was shut down (the server is stopping)
                if not self.closing:
                    log.exception("listing the legal actions at table %s", table.id)
                return
            if table.seq != seq or table.game is not game:
                return  # it changed meanwhile: the broadcast of that change follows
        written: dict[int | None, bytes] = {}  # once for each seat
        messages: Broadcast | None = None
        for conn in [only] if only is not None else list(table.connections):
            if conn.dropped:
                with contextlib.suppress(ValueError):
                    table.connections.remove(conn)
                continue
            text = written.get(conn.seat)
            if text is None:
                start = cpu.now()
                if messages is None:
                    messages = Broadcast(table, legal)
                text = written[conn.seat] = messages.data(conn.seat)
                cpu.spent("state message", start)
            conn.push(_STATE, text)

    async def refresh_seats(self, table: LiveTable) -> None:
        """Read the table's seats, and who has joined it, again (another server process
        may have changed them): :func:`seats.read_again`."""
        await seats.read_again(self.store, table)

    def close_seat(self, table: LiveTable, seat: int, message: str) -> None:
        """The seat's invite link was revoked: close the sockets opened with it."""
        for conn in list(table.connections):
            if conn.seat == seat and (conn.token is None
                                      or table.seat_of_token(conn.token) != seat):
                conn.drop(message, code=4403,
                          farewell=farewell(message))

    @staticmethod
    def tell(table: LiveTable, seat: int | None, text: str, only: bool = False) -> None:
        """Someone at the table left or came back (``seat``): the others are told;
        ``only``: the words are for that seat alone (the turn timer's nudge)."""
        out: PresenceOut = {"type": "presence", "seat": seat, "message": text}
        for conn in list(table.connections):
            if (conn.seat == seat) == only and not conn.dropped:
                conn.push(out)

    async def watch_presence(self, every: float = 1.0) -> None:
        """Every ``every`` seconds: the absent seats that may now be handed to the
        computer are shown so, and the turn timer nudges (runs while the server does)."""
        while not self.closing:
            await asyncio.sleep(every)
            now = time.monotonic()
            for table in list(self.live.values()):
                if not table.connections:
                    continue
                for seat, text in presence.nudges(table, now):
                    self.tell(table, seat, text, only=seat is not None)
                if table.left_at and presence.mark(table, now):
                    await self.broadcast(table)

    async def give_back(self, table: LiveTable, seat: int) -> None:
        """The person came back: a computer that sat in for them gives it back."""
        async with table.lock:
            await seats.give_back(self.store, table, seat)

    # ------------------------------------------------------------ computers
    async def set_computer(self, table: LiveTable, seat: int, on: bool,
                           stand_in: bool = False) -> None:
        """``stand_in``: handed over by another person while this one was away (given
        back when they return). Called with the table's lock held."""
        if table.seats[seat]["kind"] != "human":
            return
        async with seats.changing(self.store, table) as new:
            new[seat]["computer"] = on
            if on and stand_in:
                new[seat]["stand_in"] = True
            else:
                new[seat].pop("stand_in", None)
            new[seat].setdefault("level", default_level())

    async def join(self, table: LiveTable, seat: int) -> None:
        """A person opened their invite link: they have joined (kept beside the seats);
        a waiting table whose people have all joined starts, and a computer that sat in
        for them gives the seat back (before any computer is let play)."""
        await seats.join(self.store, table, seat)
        await self.give_back(table, seat)
        self.kick_bots(table)

    async def start(self, table: LiveTable) -> None:
        """The host starts a waiting table: computer players take the seats of the
        people who have not joined (each can take their seat back on joining)."""
        async with table.lock:
            await seats.start(self.store, table, default_level())
        await self.broadcast(table)
        self.kick_bots(table)

    async def remove(self, table: LiveTable) -> None:
        """Remove a table: a game with moves is archived first (its log and record kept
        in a file: :meth:`archive`), then its computers stop, its sockets close (at
        every process), and its rows go."""
        if table.seq > 0:
            await asyncio.to_thread(self.archive, table)
        await self.forget(table)
        await asyncio.to_thread(self.store.delete_table, table.id)
        if self.bus is not None:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.store.notify, {"k": "removed", "t": table.id})

    def archive(self, table: LiveTable) -> Path:
        """Keep a table's game before its rows go: its rules, seed, seats (without their
        tokens' hashes), every logged action and its record, in
        ``archive/<table>.json`` (:func:`archive_dir`), written whole or not at all."""
        from handfoot.game.records import commitments_json, dumps, game_record
        from handfoot.server.live.table import salt_of
        rows = self.store.actions(table.id)
        names = seat_names(table.seats)
        record = game_record(table.game, names, {"table": table.id})
        if table.game.over:
            record["commitments"] = commitments_json(table.game, salt_of(table.row))
        kept = {"table": table.id, "archived": time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                                             time.gmtime()),
                "rules_name": table.row.rules_name, "rules_toml": table.row.rules_toml,
                "seed": table.row.seed, "secret": table.row.secret,
                "seats": [{k: v for k, v in s.items() if k != "token_hash"}
                          for s in table.seats],
                "actions": [{"seq": a.seq, "seat": a.seat, "action": a.action}
                            for a in rows],
                "record": record}
        folder = archive_dir(self.store.url)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{table.id}.json"
        part = path.with_suffix(".part")
        part.write_text(dumps(kept), "utf-8")
        part.replace(path)
        return path

    async def forget(self, table: LiveTable) -> None:
        """Forget a table here (removed, here or by another process): its computers
        stop and its sockets close."""
        if table.bot_task is not None:
            table.bot_task.cancel()
            with contextlib.suppress(BaseException):
                await table.bot_task
        for conn in list(table.connections):
            conn.drop("This table was removed by its host.", code=4410,
                      farewell=farewell("This table was removed by its host."))
        self.live.pop(table.id, None)
        with contextlib.suppress(Exception):
            self.keepers.release(table.id)

    async def hint(self, table: LiveTable, seat: int) -> HintOut | ErrorOut:
        """What the medium computer player would do for this seat now, and why (worked out
        in a worker process, from the seat's own legal actions)."""
        if table.club_event is None:
            table.club_event = await asyncio.to_thread(
                lambda: self.store.event_table(table.id) is not None)
        if table.club_event:
            return error("Hints are off at club-event tables.")
        game = table.game
        if game.over or table.paused or game.actor != seat:
            return error("A hint is for your own turn.")
        seq = table.seq
        try:
            out = await self.work.hint(game, table.origin)
        except Exception:
            if not self.closing:
                log.exception("a hint at table %s", table.id)
            return error("No hint just now; try again.")
        return {"type": "hint", "seq": seq, "action": out["action"], "text": out["text"]}

    async def next_hand(self, table: LiveTable, seat: int | None) -> None:
        """A person is ready for the next hand (``seat`` None: nobody new; someone left or
        handed a seat to the computer). Play goes on once every person is ready."""
        if not table.paused:
            return
        hand = table.moves.paused_after
        await self.ready_heard(table, seat, hand)
        if seat is not None and self.bus is not None:  # the people at other processes
            await asyncio.to_thread(self.store.notify, {"k": "ready", "t": table.id,
                                                        "h": hand, "seat": seat})

    async def ask_who(self, table: LiveTable, wait: float = 0.3) -> None:
        """Before a decision that depends on who is connected anywhere (a new link, a
        removal): ask the other server processes, and give them ``wait`` seconds to
        answer (they answer through the same notices as moves)."""
        if self.bus is None or not self.bus.healthy:
            return
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.store.notify, {"k": "who", "t": table.id})
            await asyncio.sleep(wait)

    async def seat_opened(self, table: LiveTable, seat: int, conn: Connection) -> None:
        """Another socket opened ``seat``: its holders (here, and at the other server
        processes) are told."""
        self.tell_seat(table, seat, conn)
        if self.bus is not None:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.store.notify, {"k": "opened", "t": table.id,
                                                            "seat": seat})

    def tell_seat(self, table: LiveTable, seat: int, new: Connection | None) -> None:
        """Tell the sockets on ``seat`` (all but ``new``) that another one opened it."""
        for c in list(table.connections):
            if c.seat == seat and c is not new and not c.dropped:
                c.push(notice_of(SEAT_OPENED))

    async def tell_here(self, table: LiveTable) -> None:
        """Tell the other server processes who is connected to this one at the table
        (when that changed), so that a pause between hands waits for them too."""
        here = frozenset(table.here())
        if self.bus is None or here == table.told_here:
            return
        table.told_here = here
        await asyncio.to_thread(self.store.notify, {"k": "here", "t": table.id,
                                                    "seats": sorted(here)})

    async def forget_stopped(self, running: set[str]) -> None:
        """The people connected through server processes that stopped (killed, even by
        ``kill -9``, or lost) are no longer here: the seats show it and the pause
        between hands stops waiting for them. ``running``: the processes' origins."""
        for table in list(self.live.values()):
            stopped = [o for o in table.elsewhere if o not in running]
            if not stopped:
                continue
            for origin in stopped:
                del table.elsewhere[origin]
            who = self._who(table)
            if who is not None:  # a process only cut off from the database a moment
                # ago answers again once it is back
                await asyncio.to_thread(self.store.notify, who)
            if table.paused:
                await self.ready_heard(table, None, table.moves.paused_after)
            else:
                await self.broadcast(table)

    async def ready_heard(self, table: LiveTable, seat: int | None, hand: int | None) -> None:
        """``seat`` is ready to play on after hand ``hand`` (here or at another process)."""
        if not table.paused or table.moves.paused_after != hand:
            return  # play went on already (or the note is about another pause)
        if seat is not None:
            table.moves.ready.add(seat)
        if not table.moves.waiting_for(table.people()):
            table.moves.paused_after = None
            table.moves.ready = set()
        await self.broadcast(table)
        self.kick_bots(table)

    def kick_bots(self, table: LiveTable) -> None:
        """Let the computer players act, if one is to act and this process keeps the
        table (else it tries to become its keeper, in the background)."""
        if self.closing or table.waiting or table.game.over or table.paused \
                or not table.is_bot(table.game.actor):
            return
        if not self.keepers.keeps(table.id):
            if self.keepers.shared:
                self._claim(table)
            return
        if table.bot_task is None or table.bot_task.done():
            table.bot_task = asyncio.get_running_loop().create_task(self._run_bots(table))

    def _claim(self, table: LiveTable) -> None:
        """Become the table's keeper if nobody is, in the background."""
        if self.keepers.keeps(table.id):
            return

        async def claim() -> None:
            with contextlib.suppress(Exception):
                if await self.keepers.take(table.id):
                    self.kick_bots(table)
        task = asyncio.get_running_loop().create_task(claim())
        self._claiming.add(task)
        task.add_done_callback(self._claiming.discard)

    async def keep(self, table_ids: list[str]) -> None:
        """This process became the keeper of these tables (their keeper stopped, or
        they had none): load them and let their computer players go on."""
        for tid in table_ids:
            try:
                table = await self.aload(tid)
            except Exception:
                log.exception("table %s cannot be rebuilt from its log", tid)
                continue
            if table is None or table.game.over:
                self.keepers.release(tid)
            else:
                self.kick_bots(table)

    async def _run_bots(self, table: LiveTable) -> None:
        """The computer players act until a person is to act (or the game is over);
        while the database refuses, they try again and again, waiting longer each time
        (at most :data:`BACKOFF`'s last), and the table says so."""
        failures = 0
        while not self.closing:
            try:
                await self._bots_act(table)
                return
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if self.closing:
                    return
                if not storage_failed(e):
                    log.exception("computer player failed at table %s", table.id)
                    return
                if failures == 0:
                    log.warning("table %s: the database refuses (%s); the computer "
                                "players try again", table.id, e)
                if not table.trouble:
                    table.trouble = CANNOT_SAVE
                    with contextlib.suppress(Exception):
                        await self.broadcast(table)
                await asyncio.sleep(BACKOFF[min(failures, len(BACKOFF) - 1)])
                failures += 1
                if self.keepers.shared and not self.keepers.keeps(table.id):
                    return  # another process keeps it now (or will: kick_bots asks)

    async def _bots_act(self, table: LiveTable) -> None:
        lost = 0  # worker processes lost in a row (one is started again for each)
        # the rest of a computer player's turn, as its worker planned it in one
        # question, and the point of the game its next move was planned for: the
        # seat, the table's number of actions, the player's level and seed, the game
        # and whether time was called (anything else: it is asked again)
        planned: list[Action] = []
        planned_for: tuple[Any, ...] = ()
        while not self.closing and not table.game.over and not table.paused \
                and table.is_bot(table.game.actor):
            await asyncio.sleep(self.bot_delay)
            async with table.lock:
                # without notices, the log is read first; and on becoming the keeper
                # (the last one's last moves may not have been heard here yet)
                if self.keepers.newly_taken(table.id):
                    await self.resync(table)
                elif not self.in_step():
                    await self._acatch_up(table)
                game = table.game
                if game.over or table.paused or not table.is_bot(game.actor) \
                        or not self.keepers.keeps(table.id):
                    break
                seat = game.actor
                _, level, seed = self._bot(table, seat)
                point = (seat, table.seq, level, seed, game, game.time_called)
                if not planned or planned_for != point:
                    # the computer thinks in a worker process, within its time
                    # budget; the lock keeps the game still meanwhile
                    try:
                        planned = await self.work.plan(game, table.origin, seat,
                                                       level, seed)
                    except BrokenWorker:
                        lost += 1
                        if lost >= 3 or self.closing:
                            raise
                        log.warning("a worker process ended; table %s goes on",
                                    table.id)
                        continue
                    lost = 0
                action = planned.pop(0)
                try:
                    done = await self._act_locked(table, seat, action, again=False)
                except IllegalAction:  # cannot be (the point was checked): ask again
                    log.exception("table %s: a planned move is refused", table.id)
                    planned = []
                    continue
                if done:
                    self.bot_actions += 1
                    planned_for = (seat, table.seq, level, seed, game,
                                   game.time_called)
                else:
                    self.bot_lost += 1
                    planned = []
            await self.broadcast(table)

    @staticmethod
    def _bot(table: LiveTable, seat: int) -> tuple[str, str, int]:
        """The computer player at ``seat``: the level asked for, the level it plays (the
        first, for a level this version does not have) and its seed."""
        level = table.seats[seat].get("level") or default_level()
        held = table.bots.get(seat)
        if held is not None and held[0] == level:
            return held
        # a table dealt from a secret: its computers' own chance is unrelated to it
        seed = (secrets.randbits(62) if table.row.secret
                else table.row.seed * 10 + seat)
        played = level
        try:
            make_bot(level, seed=seed)
        except Exception:  # a level this version does not have
            log.exception("no computer player %r; playing at the first level", level)
            played = default_level()
        table.bots[seat] = held = (level, played, seed)
        return held

    async def close(self) -> None:
        self.closing = True
        if self._writing:  # the results of games just finished are written first
            await asyncio.wait(list(self._writing), timeout=10)
        for t in self.live.values():
            if t.bot_task is not None:
                t.bot_task.cancel()
                with contextlib.suppress(BaseException):
                    await t.bot_task
            for conn in list(t.connections):
                await conn.stop()
        for task in list(self._claiming):
            task.cancel()
        if self.bus is not None:
            await self.bus.close()
        await self.keepers.close()
        if self.appender is not None:
            await self.appender.close()
        self.work.close()
