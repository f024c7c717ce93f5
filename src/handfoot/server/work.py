"""Engine and computer-player work off the server's event loop, in processes.

The event loop only moves messages; anything that may take long runs here:

* computer players decide in a pool of processes sized to the machine
  (``os.cpu_count()``), each decision within a time budget (past it, the worker's alarm
  interrupts the player and the first legal action is played instead: a table never
  waits for ever);
* the legal actions a person is shown (listed within a time budget too), and
  rebuilding a table from its log, run in a second, small pool, so that a person never
  waits behind the computers.

A thread would not help: the interpreter lock would keep the loop waiting. The worker
processes start fresh (``spawn``), as children of the server that end with it, lower
their priority for the computers' pool, and hold no state: every call carries what it
needs.
"""

from __future__ import annotations

import asyncio
import contextlib
import copyreg
import dataclasses
import importlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from types import FrameType
from typing import Any, TypeVar

from handfoot.actions import Action, action_from_json, action_to_json
from handfoot.bots import Bot
from handfoot.fair import KeyedRandom
from handfoot.game import Game
from handfoot.records import replay
from handfoot.rules import Rules
from handfoot.server.table_log import MoveLog, replay_with_log
from handfoot.views import View

T = TypeVar("T")

#: seconds a computer player may think about one decision
DECISION_BUDGET = 10.0
#: seconds the legal actions shown to a person may take to list
LISTING_BUDGET = 2.0
PEOPLE_WORKERS = 2
#: moves with nothing to choose, asked about one by one when a listing is cut short
SIMPLE_MOVES = ("draw", "take-upcard", "pick-up-foot", "end-turn", "ask")


class OutOfTime(Exception):
    """A computer player's time budget ran out."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise OutOfTime


@contextlib.contextmanager
def _budget(seconds: float) -> Iterator[None]:
    """Raise :class:`OutOfTime` in the block after ``seconds`` of this process's CPU
    time (not the wall clock: a busy machine does not cut the work short)."""
    timer = hasattr(signal, "setitimer") and seconds > 0
    if timer:
        signal.signal(signal.SIGPROF, _alarm)
        signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        if timer:
            signal.setitimer(signal.ITIMER_PROF, 0)


def _worker_init(parent: int, niceness: int) -> None:
    """In each worker: a lower priority for the computers' pool, and an end of the
    worker when the server is gone (even after ``kill -9``)."""
    if niceness:
        with contextlib.suppress(OSError, AttributeError):
            os.nice(niceness)  # people's work (the other pool, the loop) comes first

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="watch-server").start()


def decide(bot: Bot, view: View | None, legal: Sequence[Action], budget: float
           ) -> tuple[Action, Bot, bool]:
    """The bot's choice within ``budget`` seconds (else the first legal action), the bot
    as it is after choosing (its generator moved on) and whether it ran out of time."""
    with _budget(budget):
        try:
            return bot.choose(view, legal), bot, False
        except OutOfTime:
            pass
    return next(_each(legal)), bot, True


def _each(legal: Sequence[Action]) -> Iterator[Action]:
    """The legal actions one at a time (the engine's lazy list builds the whole list
    before giving the first; the state it answers from gives them as it finds them)."""
    state = getattr(legal, "seat_state", None)
    each = getattr(state, "iter_legal_actions", None)
    return iter(each()) if each is not None else iter(legal)


def list_legal(legal: Sequence[Action], budget: float = LISTING_BUDGET
               ) -> list[dict[str, Any]]:
    """Every legal move, in its JSON form. The engine lists them one meld and one card at
    a time (a few hundred at most, in well under a millisecond); the budget is a guard:
    listing stops after ``budget`` seconds with what it has, and the engine is then asked
    about each simple move directly."""
    out: list[dict[str, Any]] = []
    finished = False
    with _budget(budget), contextlib.suppress(OutOfTime):
        for a in _each(legal):
            out.append(action_to_json(a))
        finished = True
    if not finished:  # cut short: the engine is asked about each simple move directly
        listed = {a["type"] for a in out}
        for kind in SIMPLE_MOVES:
            if kind not in listed:
                with contextlib.suppress(Exception):
                    action = action_from_json({"type": kind})
                    if action in legal:
                        out.append(action_to_json(action))
    return out


def make_game(rules: Rules, seed: int | None, secret: str | None) -> Game:
    """A table's game before any action: from its secret if it has one, else its seed."""
    if secret:
        return Game(rules, None, rng=KeyedRandom(secret))
    return Game(rules, seed)


def rebuild(rules_toml: str, seed: int | None, secret: str | None,
            actions: Sequence[tuple[int | None, dict[str, Any]]], time_seq: int | None
            ) -> Game:
    """A table's game after the actions of its log (time called after ``time_seq``)."""
    rules = Rules.from_toml(rules_toml)
    game = make_game(rules, seed, secret)
    for i, (seat, action) in enumerate(actions):
        if time_seq == i:
            game.call_time()
        game.apply(action_from_json(action), seat)
    if time_seq == len(actions):
        game.call_time()
    return game


def rebuild_logged(rules_toml: str, seed: int | None, secret: str | None,
                   actions: Sequence[tuple[int | None, dict[str, Any]]], time_seq: int | None
                   ) -> tuple[Game, MoveLog]:
    """:func:`rebuild`, with the table's recent moves told in words (its move log)."""
    game = make_game(Rules.from_toml(rules_toml), seed, secret)
    return game, replay_with_log(game, actions, time_seq)


def check_record(record: dict[str, Any]) -> tuple[bool, int, str]:
    """``handfoot replay``'s verdict on a record: whether it replays, how many hands'
    deals match their commitments, and its message."""
    report = replay(record)
    return report.ok, report.deals_verified, report.message


# ------------------------------------------------------- sending work to the pools
# Every call carries the game's state: the hand's actions so far, its melds and its rule
# set, a hundred or more small frozen dataclasses. Each pickles through dataclasses'
# own __getstate__, which looks up the class's fields every time (most of a busy
# server's time in its pools' feeder thread). The same fields, looked up once per class:


def _restore(cls: type, values: tuple[Any, ...]) -> Any:
    obj: Any = object.__new__(cls)
    for name, value in zip(_FIELDS[cls], values, strict=True):
        object.__setattr__(obj, name, value)
    return obj


def _reduce(obj: Any) -> tuple[Any, ...]:
    return _restore, (type(obj), tuple([getattr(obj, n) for n in _FIELDS[type(obj)]]))


_FIELDS: dict[type, tuple[str, ...]] = {}
#: the modules whose slotted dataclasses travel to the pools (a module compiled by
#: mypyc pickles its classes itself, and is left alone)
_TRAVELLING = ("handfoot.actions", "handfoot.cards", "handfoot.rules", "handfoot.views",
               "handfoot.engine.melds", "handfoot.engine.moves", "handfoot.engine.state",
               "handfoot.engine.deal")


def _pickle_dataclasses_quickly() -> None:
    for name in _TRAVELLING:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        for cls in list(vars(module).values()):
            getstate = getattr(cls, "__getstate__", None)
            if (isinstance(cls, type) and dataclasses.is_dataclass(cls)
                    and cls.__module__ == name and "__slots__" in vars(cls)
                    and getattr(getstate, "__qualname__", "") == "_dataclass_getstate"):
                _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
                copyreg.pickle(cls, _reduce)


_pickle_dataclasses_quickly()


def _context() -> Any:
    # started fresh (not forked from a process with a running event loop and threads),
    # as children of the server, so that they end with it
    return multiprocessing.get_context("spawn")


class Work:
    """The two pools of one server process (made on first use, closed with the server)."""

    def __init__(self, bot_workers: int | None = None,
                 budget: float = DECISION_BUDGET) -> None:
        self.bot_workers = bot_workers or max(1, os.cpu_count() or 1)
        self.budget = budget
        self._bots: Executor | None = None
        self._people: Executor | None = None
        self.decisions = 0
        self.out_of_time = 0

    def _pool(self, which: str) -> Executor:
        if which == "bots":
            if self._bots is None:
                self._bots = ProcessPoolExecutor(self.bot_workers, mp_context=_context(),
                                                 initializer=_worker_init,
                                                 initargs=(os.getpid(), 10))
            return self._bots
        if self._people is None:
            self._people = ProcessPoolExecutor(PEOPLE_WORKERS, mp_context=_context(),
                                               initializer=_worker_init,
                                               initargs=(os.getpid(), 0))
        return self._people

    async def run(self, which: str, func: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(which), func, *args)

    async def decide(self, bot: Bot, view: View | None, legal: Sequence[Action]
                     ) -> tuple[Action, Bot]:
        action, bot, late = await self.run("bots", decide, bot, view, legal, self.budget)
        self.decisions += 1
        self.out_of_time += late
        return action, bot

    async def legal(self, legal: Sequence[Action]) -> list[dict[str, Any]]:
        return await self.run("people", list_legal, legal)

    async def rebuild(self, rules_toml: str, seed: int | None, secret: str | None,
                      actions: Sequence[tuple[int | None, dict[str, Any]]],
                      time_seq: int | None) -> Game:
        return await self.run("people", rebuild, rules_toml, seed, secret, list(actions),
                              time_seq)

    async def rebuild_logged(self, rules_toml: str, seed: int | None, secret: str | None,
                             actions: Sequence[tuple[int | None, dict[str, Any]]],
                             time_seq: int | None) -> tuple[Game, MoveLog]:
        return await self.run("people", rebuild_logged, rules_toml, seed, secret,
                              list(actions), time_seq)

    def close(self) -> None:
        for pool in (self._bots, self._people):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        self._bots = self._people = None
