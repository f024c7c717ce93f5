"""Worker processes that keep the games of the tables they work for.

A computer player's decision, or the list of moves shown to a person, needs the table's
game as it stands. Sending the whole game with every call (a hand's every action, the
melds, the rule set: ten kilobytes and more late in a hand, pickled by the server and
unpickled by the worker) cost far more than the decision itself. Here each table is
kept by one worker of a pool (always the same one, while it lives), which holds a copy
of the game and is sent only what happened since it last heard: the actions played (a
few small values), and the point at which time was called. A worker that does not hold
the game (it was started since, or let the game go to keep its memory) says so, and is
sent the whole of it: the rule set, the seed or secret, every action.

The server's event loop talks to each worker through a socket of its own, with no
threads: it writes a request and awaits the answer. A worker that dies (``kill -9``)
fails only the calls in flight; the next call starts a new one. The workers start
fresh (``spawn``), end when the server does, and may lower their priority.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import multiprocessing
import os
import pickle
import socket
import struct
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from handfoot.actions import Action
from handfoot.bots import Bot
from handfoot.game import Game
from handfoot.game.fair import KeyedRandom
from handfoot.rules import Rules

#: games a worker keeps (the least recently used is let go past this; a six-deck game
#: in play takes about 80 KB)
KEEP = 1000
_HEAD = struct.Struct("!I")
_OK, _ERROR, _NEED = 0, 1, 2


class BrokenWorker(RuntimeError):
    """The worker process ended while a call was in flight."""


class Origin(NamedTuple):
    """What a table's game is made from before any action."""

    rules_toml: str
    seed: int | None
    secret: str | None


@functools.lru_cache(maxsize=64)
def rules_from_toml(text: str) -> Rules:
    """A rule set from its TOML, read once for all the tables that play it (most play
    one of a few; reading one took longer than sending a game's news)."""
    return Rules.from_toml(text)


class ServedGame(Game):
    """A table's game as the server holds it. It is a :class:`Game` that can be referred
    to weakly, so that the pool forgets what it sent a worker about a game once the
    game is gone: compiled, a ``Game`` cannot be (mypyc's classes have no slot for weak
    references), and the pool's weak dictionary refused every served game. (A class
    made in Python, with no ``__slots__``, has the slot whatever its base.)"""


def make_game(rules: Rules, seed: int | None, secret: str | None) -> ServedGame:
    """A table's game before any action: from its secret if it has one, else its seed."""
    if secret:
        return ServedGame(rules, None, rng=KeyedRandom(secret))
    return ServedGame(rules, seed)


def _hands(game: Game) -> list[Sequence[tuple[int, Action]]]:
    """The actions of each hand: those played, and the one in play (unless the game is
    over, when the last hand played is still the game's hand)."""
    out: list[Sequence[tuple[int, Action]]] = [r.actions for r in game.results]
    if not game.results or game.results[-1].number != game.hand.hand_number:
        out.append(game.hand.history)
    return out


def actions_played(game: Game) -> int:
    """How many actions the game has seen, over all its hands."""
    return sum(len(moves) for moves in _hands(game))


def actions_since(game: Game, start: int, stop: int) -> list[tuple[int, Action]]:
    """The game's actions ``start`` to ``stop`` (counted over all its hands), with the
    seat that played each."""
    out: list[tuple[int, Action]] = []
    n = 0
    for moves in _hands(game):
        if n + len(moves) > start and n < stop:
            out.extend(moves[max(0, start - n):stop - n])
        n += len(moves)
    return out


def time_point(game: Game) -> int | None:
    """After how many actions (over all hands) time was called, or None."""
    if game.time_called_at is None:
        return None
    number, count = game.time_called_at
    return sum(len(r.actions) for r in game.results if r.number < number) + count


# ---------------------------------------------------------------- in the worker
@dataclass
class Kept:
    """A table's game as a worker keeps it, with its computer players (by seat: level,
    seed and the player, whose own generator goes on from decision to decision)."""

    game: ServedGame
    count: int = 0
    bots: dict[int, tuple[str, int, Bot]] = field(default_factory=dict)


def catch_up(kept: Kept, moves: Sequence[tuple[int | None, Action]], time_at: int | None
             ) -> None:
    """Apply ``moves`` to the kept game, each checked by the engine (a seat of None: the
    player to act), calling time when ``time_at`` actions have been played."""
    game = kept.game
    for seat, action in moves:
        if time_at == kept.count:
            game.call_time()
        game.apply(action, seat)
        kept.count += 1
    if time_at == kept.count:
        game.call_time()


def _answer(games: OrderedDict[int, Kept], keep: int, kind: str, payload: Any
            ) -> tuple[int, Any]:
    if kind == "call":
        func, args = payload
        return _OK, func(*args)
    token, base, moves, time_at, check, origin, func, args = payload
    kept = games.get(token)
    if origin is not None:
        kept = games[token] = Kept(make_game(rules_from_toml(origin.rules_toml),
                                             origin.seed, origin.secret))
    elif kept is None or kept.count != base:
        return _NEED, None
    games.move_to_end(token)
    while len(games) > keep:
        games.popitem(last=False)
    try:
        catch_up(kept, moves, time_at)
        game = kept.game
        if (kept.count, game.hand.hand_number, game.over) != check:
            raise RuntimeError(f"the worker's copy of the game went astray: "
                               f"{(kept.count, game.hand.hand_number, game.over)} "
                               f"against {check}")
    except Exception:
        del games[token]  # sent whole next time
        raise
    return _OK, func(kept, *args)


def _serve(sock: socket.socket, parent: int, niceness: int, keep: int) -> None:
    """A worker's life: answer each request in turn until the server is gone."""
    if niceness:
        with contextlib.suppress(OSError, AttributeError):
            os.nice(niceness)  # people's work (the other pool, the loop) comes first

    def watch() -> None:  # end when the server does, even after kill -9
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="watch-server").start()
    games: OrderedDict[int, Kept] = OrderedDict()
    read = sock.makefile("rb")
    while True:
        head = read.read(_HEAD.size)
        if len(head) < _HEAD.size:
            return  # the server closed its end
        body = read.read(_HEAD.unpack(head)[0])
        number, kind, payload = pickle.loads(body)
        try:
            status, value = _answer(games, keep, kind, payload)
        except Exception as e:  # every failure goes back to the caller
            status, value = _ERROR, e
        try:
            out = pickle.dumps((number, status, value), pickle.HIGHEST_PROTOCOL)
        except Exception as e:  # an answer that does not pickle
            out = pickle.dumps((number, _ERROR, RuntimeError(f"{type(e).__name__}: {e}")),
                               pickle.HIGHEST_PROTOCOL)
        sock.sendall(_HEAD.pack(len(out)) + out)


# ---------------------------------------------------------------- in the server
class _Worker:
    generation = itertools.count(1)

    def __init__(self, process: Any, reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter) -> None:
        self.process = process
        self.reader = reader
        self.writer = writer
        self.pending: dict[int, asyncio.Future[tuple[int, Any]]] = {}
        self.alive = True
        self.number = next(self.generation)  #: a worker started later has a larger one
        self.task: asyncio.Task[None] | None = None


@dataclass
class _Sent:
    token: int
    worker: int = 0  #: the worker's number when it was last sent the game
    count: int = 0  #: the actions its copy holds
    #: the moves its copy played ahead of the table (a computer player's turn planned
    #: there), with the number of actions they follow and the time point then known:
    #: the table's own moves are held to them at the next call
    ahead: tuple[int, tuple[Action, ...], int | None] | None = None


class Pool:
    """``size`` worker processes (started on first use); a table's game is kept by
    worker ``token % size``."""

    def __init__(self, size: int, niceness: int = 0, keep: int = KEEP) -> None:
        self.size = max(1, size)
        self.niceness = niceness
        self.keep = keep
        self._workers: list[_Worker | None] = [None] * self.size
        self._starting: list[asyncio.Future[_Worker] | None] = [None] * self.size
        self._sent: weakref.WeakKeyDictionary[ServedGame, _Sent] = weakref.WeakKeyDictionary()
        self._tokens = itertools.count()
        self._numbers = itertools.count()
        self._closed = False
        #: games sent whole, and calls that sent only what happened since
        self.sent_whole = 0
        self.sent_since = 0

    # ------------------------------------------------------------ workers
    async def _worker(self, i: int) -> _Worker:
        w = self._workers[i]
        if w is not None and w.alive:
            return w
        if self._closed:
            raise BrokenWorker("the server is stopping")
        starting = self._starting[i]
        if starting is None:
            starting = self._starting[i] = asyncio.get_running_loop().create_future()
            try:
                w = await self._start()
            except BaseException as e:
                starting.set_exception(e)
                starting.exception()  # retrieved: a waiter may not be there
                raise
            finally:
                self._starting[i] = None
            self._workers[i] = w
            starting.set_result(w)
            return w
        return await asyncio.shield(starting)

    async def _start(self) -> _Worker:
        ours, theirs = socket.socketpair()
        process = multiprocessing.get_context("spawn").Process(
            target=_serve, args=(theirs, os.getpid(), self.niceness, self.keep),
            name="handfoot-worker")
        try:
            process.start()
        finally:
            theirs.close()
        reader, writer = await asyncio.open_connection(sock=ours)
        w = _Worker(process, reader, writer)
        w.task = asyncio.get_running_loop().create_task(self._read(w))
        return w

    async def _read(self, w: _Worker) -> None:
        try:
            while True:
                head = await w.reader.readexactly(_HEAD.size)
                body = await w.reader.readexactly(_HEAD.unpack(head)[0])
                number, status, value = pickle.loads(body)
                future = w.pending.pop(number, None)
                if future is not None and not future.done():
                    future.set_result((status, value))
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        finally:
            self._lost(w)

    def _lost(self, w: _Worker) -> None:
        w.alive = False
        for future in w.pending.values():
            if not future.done():
                future.set_exception(BrokenWorker("a worker process ended"))
        w.pending.clear()
        w.writer.close()
        if w.process.is_alive():
            w.process.kill()
        multiprocessing.active_children()  # reaps those that ended (does not wait)

    async def _ask(self, w: _Worker, kind: str, payload: Any) -> tuple[int, Any]:
        number = next(self._numbers)
        body = pickle.dumps((number, kind, payload), pickle.HIGHEST_PROTOCOL)
        future: asyncio.Future[tuple[int, Any]] = asyncio.get_running_loop().create_future()
        w.pending[number] = future
        w.writer.write(_HEAD.pack(len(body)) + body)
        try:
            return await future
        finally:
            w.pending.pop(number, None)

    def queued(self) -> int:
        """Questions sent to the workers and not answered yet."""
        return sum(len(w.pending) for w in self._workers if w is not None and w.alive)

    # ------------------------------------------------------------ calls
    async def call(self, func: Callable[..., Any], *args: Any) -> Any:
        """``func(*args)`` in the least busy worker (for work that needs no table)."""
        def busy(j: int) -> int:
            w = self._workers[j]
            return len(w.pending) if w is not None and w.alive else 0

        i = min(range(self.size), key=busy)
        status, value = await self._ask(await self._worker(i), "call", (func, args))
        if status == _ERROR:
            raise value
        return value

    async def at_table(self, game: ServedGame, origin: Origin, func: Callable[..., Any],
                       *args: Any,
                       played_ahead: Callable[[Any], Sequence[Action]] | None = None
                       ) -> Any:
        """``func(kept, *args)`` in the worker that keeps ``game`` (a :class:`Kept`, its
        copy of the game as it stands now), sending it only what it has not heard.

        ``played_ahead``: for a ``func`` that plays moves on the worker's copy beyond
        the table's (:func:`handfoot.server.offloop.work.plan_at`), the moves it played, read
        from its answer. At the next call the table's moves since are held to them: if
        the table played them all, in that order, and time was not called meanwhile,
        the copy is sent what followed; otherwise it went another way, and is sent the
        game whole."""
        sent = self._sent.get(game)
        if sent is None:
            sent = self._sent[game] = _Sent(next(self._tokens))
        count, time_at = actions_played(game), time_point(game)
        if sent.ahead is not None:
            start, planned, time_then = sent.ahead
            sent.ahead = None
            end = start + len(planned)
            if count < end or time_at != time_then or \
                    [a for _, a in actions_since(game, start, end)] != list(planned):
                sent.worker = 0  # (no worker has number 0: the game goes whole)
        check = (count, game.hand.hand_number, game.over)
        w = await self._worker(sent.token % self.size)
        whole = sent.worker != w.number or sent.count > count
        for _ in range(2):
            base = 0 if whole else sent.count
            moves = actions_since(game, base, count)
            sent.worker, sent.count = w.number, count
            status, value = await self._ask(w, "table", (
                sent.token, base, moves, time_at, check, origin if whole else None,
                func, args))
            if status == _NEED and not whole:
                whole = True  # it does not hold the game (any more): all of it, then
                continue
            if whole:
                self.sent_whole += 1
            else:
                self.sent_since += 1
            if status == _ERROR:
                sent.worker = 0  # whole next time
                raise value
            if played_ahead is not None:
                ahead = tuple(played_ahead(value))
                if ahead:
                    sent.ahead = (count, ahead, time_at)
                    sent.count = count + len(ahead)
            return value
        raise RuntimeError("a worker asked for a game it was sent whole")

    def close(self) -> None:
        self._closed = True
        for w in self._workers:
            if w is not None:
                if w.task is not None:
                    w.task.cancel()
                with contextlib.suppress(Exception):
                    w.writer.close()
                with contextlib.suppress(Exception):
                    w.process.kill()
        self._workers = [None] * self.size
