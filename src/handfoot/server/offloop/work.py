"""Engine and computer-player work off the server's event loop, in processes.

The event loop only moves messages; anything that may take long runs here:

* computer players decide in a pool of processes sized to the machine
  (``os.cpu_count()``), each decision within a time budget (past it, the worker's alarm
  interrupts the player and the first legal action is played instead: a table never
  waits for ever);
* the legal actions shown to a person holding a large hand (more than
  :data:`LIST_HERE` cards: house rules deal up to 60), listed within a time budget
  too, a hint, and rebuilding a table from its log, run in a second, small pool, so
  that a person never waits behind the computers.

The legal actions of a person holding at most :data:`LIST_HERE` cards, the usual
case, are listed on the loop itself, as the engine checks and applies each move there:
the engine lists moves one meld and one card at a time, and for such a hand this took
20 to 171 µs at the median by hand size (99 to 231 µs at the 99th percentile), about
what the loop spent asking a worker.

A thread would not help: the interpreter lock would keep the loop waiting. Each pool
(:class:`handfoot.server.offloop.pool.Pool`) keeps a copy of each table's game in the worker
that works for it, and is sent only the actions played since it last heard; the
computer players live there too, each with its own generator.
"""

from __future__ import annotations

import contextlib
import copyreg
import dataclasses
import importlib
import json
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from types import FrameType
from typing import Any, TypeVar

from handfoot.actions import Action, AddToMeld, Discard, action_from_json, action_to_json
from handfoot.bots import Bot, make_bot, reads_state
from handfoot.bots.hint import hint_text
from handfoot.game import Game
from handfoot.game.records import replay
from handfoot.game.views import View, seat_view
from handfoot.server.diagnostics import cpu
from handfoot.server.live.table_log import MoveLog, replay_with_log
from handfoot.server.offloop.pool import (
    Kept,
    Origin,
    Pool,
    ServedGame,
    catch_up,
    make_game,
    rules_from_toml,
)

__all__ = ["Origin", "Work", "make_game"]

T = TypeVar("T")

#: seconds a computer player may think about one decision
DECISION_BUDGET = 10.0
#: seconds the legal actions shown to a person may take to list
LISTING_BUDGET = 2.0
PEOPLE_WORKERS = 2
#: the finished games' reviews: one worker, below the computer players' priority (a
#: review takes a core for a minute or more, and no one waits on it to play)
REVIEW_NICENESS = 15
#: moves with nothing to choose, asked about one by one when a listing is cut short
SIMPLE_MOVES = ("draw", "take-upcard", "pick-up-foot", "end-turn", "ask")


class OutOfTime(Exception):
    """A computer player's time budget ran out."""


#: [installed, armed]: the alarm's handler is installed once in each process (doing it
#: for each decision cost more than the decision); it interrupts only while armed, so
#: a signal that arrives as the budget ends is dropped rather than raised elsewhere
_ALARM = [False, False]


def _alarm(signum: int, frame: FrameType | None) -> None:
    if _ALARM[1]:
        _ALARM[1] = False
        raise OutOfTime


@contextlib.contextmanager
def _budget(seconds: float) -> Iterator[None]:
    """Raise :class:`OutOfTime` in the block after ``seconds`` of this process's CPU
    time (not the wall clock: a busy machine does not cut the work short)."""
    timer = hasattr(signal, "setitimer") and seconds > 0
    if timer:
        if not _ALARM[0]:
            signal.signal(signal.SIGPROF, _alarm)
            _ALARM[0] = True
        _ALARM[1] = True
        signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        if timer:
            _ALARM[1] = False
            signal.setitimer(signal.ITIMER_PROF, 0)


def decide(bot: Bot, view: View | None, legal: Sequence[Action], budget: float
           ) -> tuple[Action, bool]:
    """The bot's choice within ``budget`` seconds (else the first legal action), and
    whether it ran out of time."""
    with _budget(budget):
        try:
            return bot.choose(view, legal), False
        except OutOfTime:
            pass
    return next(_each(legal)), True


def _each(legal: Sequence[Action]) -> Iterator[Action]:
    """The legal actions one at a time (the engine's lazy list builds the whole list
    before giving the first; the state it answers from gives them as it finds them)."""
    state = getattr(legal, "seat_state", None)
    each = getattr(state, "iter_legal_actions", None)
    return iter(each()) if each is not None else iter(legal)


def _listed(legal: Sequence[Action], budget: float) -> list[Action]:
    """Every legal move: the engine lists them one meld and one card at a time (a few
    hundred at most, in well under a millisecond); the budget is a guard: listing stops
    after ``budget`` seconds with what it has, and the engine is then asked about each
    simple move directly."""
    out: list[Action] = []
    finished = False
    with _budget(budget), contextlib.suppress(OutOfTime):
        for a in _each(legal):
            out.append(a)
        finished = True
    if not finished:  # cut short: the engine is asked about each simple move directly
        listed = {a.kind for a in out}
        for kind in SIMPLE_MOVES:
            if kind not in listed:
                with contextlib.suppress(Exception):
                    action = action_from_json({"type": kind})
                    if action in legal:
                        out.append(action)
    return out


def list_legal(legal: Sequence[Action], budget: float = LISTING_BUDGET
               ) -> list[dict[str, Any]]:
    """Every legal move, in its JSON form (:func:`_listed`)."""
    return [action_to_json(a) for a in _listed(legal, budget)]


def decide_at(kept: Kept, seat: int, level: str, seed: int, budget: float
              ) -> tuple[Action, bool]:
    """In the worker keeping the table: the choice of its computer player at ``seat``
    (kept there from one decision to the next, made anew if its level or seed changed),
    and whether it ran out of time."""
    game = kept.game
    if game.over or game.actor != seat:
        raise RuntimeError(f"it is not seat {seat}'s turn")
    held = kept.bots.get(seat)
    if held is not None and held[0] == level and held[1] == seed:
        bot = held[2]
    else:
        bot = make_bot(level, seed=seed)
        kept.bots[seat] = (level, seed, bot)
    view = seat_view(game, seat) if bot.uses_view else None
    return decide(bot, view, game.legal_actions(reads_state(bot)), budget)


#: the most moves of one turn a computer player plans in one question to its worker
MOST_AHEAD = 16


def plan_at(kept: Kept, seat: int, level: str, seed: int, budget: float
            ) -> tuple[list[Action], bool]:
    """In the worker keeping the table: the computer player's moves for the rest of its
    turn (until another player is to act, the hand ends, or :data:`MOST_AHEAD` moves),
    each decided as :func:`decide_at` decides it and played on the worker's copy, as the
    table will play them one by one; and whether one ran out of time. The player
    decides each move seeing what the one before did, exactly as when asked move by
    move (the same choices: tested). The table holds its moves to these at its next
    question (:meth:`Pool.at_table`'s ``played_ahead``)."""
    game = kept.game
    hand = game.hand.hand_number
    out: list[Action] = []
    late = False
    while True:
        action, out_of_time = decide_at(kept, seat, level, seed, budget)
        game.apply(action, seat)
        kept.count += 1
        out.append(action)
        late = late or out_of_time
        if late or game.over or game.hand.hand_number != hand or game.actor != seat \
                or len(out) >= MOST_AHEAD:
            return out, late


def people_moves(game: Game, budget: float = LISTING_BUDGET) -> list[dict[str, Any]]:
    """The moves a person to act is shown, as JSON: every legal move
    (:func:`list_legal`), and each discard and each one card added to a meld also for
    every other card the person holds of the same class. The engine lists one card of
    each class (the rule set's ``card_class``: 9♦ and 9♠ where suits do not matter),
    for the computer players and for learning code; a person picks a particular card,
    and a page that finds only 9♦ listed would refuse 9♠. Each card added is asked of
    the engine."""
    out = _listed(game.legal_actions(), budget)
    if game.over:
        return [action_to_json(a) for a in out]
    hand = game.hand
    seat = hand.actor
    held = hand.hands[seat]
    cls = game.rules.card_class
    by_class: dict[int, list[int]] = {}
    more: list[Action] = []
    for action in out:
        meld = -1  # (a discard)
        if type(action) is Discard:
            listed = action.card
        elif type(action) is AddToMeld and len(action.cards) == 1:
            listed, meld = action.cards[0], action.meld
        else:
            continue
        if not by_class:
            for c in range(len(held)):
                if held[c]:
                    by_class.setdefault(cls[c], []).append(c)
        for c in by_class.get(cls[listed], ()):
            if c == listed:
                continue
            other: Action = Discard(c) if meld < 0 else AddToMeld(meld, (c,))
            if game.is_legal(other, seat):
                more.append(other)
    return [action_to_json(a) for a in (*out, *more)]


#: the most cards a person to act may hold for their moves to be listed on the server's
#: event loop rather than in a worker: at most this many, :func:`people_moves` took
#: 20 to 171 µs at the median by hand size, 99 to 231 µs at the 99th percentile
#: (compiled, sixteen whole six-deck and samba games of medium players), about what
#: the loop spent asking a worker (200 to 240 µs). Larger hands (house rules deal up
#: to 60 cards) are listed in a worker.
LIST_HERE = 40


def listed_here(game: Game, most: int = LIST_HERE) -> bool:
    """Whether the moves of the person to act are listed on the event loop: they hold
    at most ``most`` cards."""
    return game.over or game.hand.hand_len[game.hand.actor] <= most


def list_legal_at(kept: Kept) -> list[dict[str, Any]]:
    """In the worker keeping the table: the moves the person to act is shown, as
    JSON (:func:`people_moves`)."""
    return people_moves(kept.game)


def hint_at(kept: Kept) -> dict[str, Any]:
    """In the worker keeping the table: a hint for the player to act."""
    return hint_text(kept.game.legal_actions())


def rebuild(rules_toml: str, seed: int | None, secret: str | None,
            actions: Sequence[tuple[int | None, dict[str, Any]]], time_seq: int | None
            ) -> ServedGame:
    """A table's game after the actions of its log (time called after ``time_seq``)."""
    kept = Kept(make_game(rules_from_toml(rules_toml), seed, secret))
    catch_up(kept, [(seat, action_from_json(a)) for seat, a in actions], time_seq)
    return kept.game


def rebuild_logged(rules_toml: str, seed: int | None, secret: str | None,
                   actions: Sequence[tuple[int | None, dict[str, Any]]], time_seq: int | None
                   ) -> tuple[ServedGame, MoveLog]:
    """:func:`rebuild`, with the table's recent moves told in words (its move log)."""
    game = make_game(rules_from_toml(rules_toml), seed, secret)
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


def review_game(record: dict[str, Any]) -> str:
    """The hard player's review of a finished game's record, as JSON (``handfoot review
    --json``; :mod:`handfoot.bots.review`): run in the reviews' worker."""
    from handfoot.bots.review import review

    return json.dumps(review(record).to_json(), ensure_ascii=False)


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
_TRAVELLING = ("handfoot.actions", "handfoot.cards", "handfoot.rules", "handfoot.game.views",
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


class Work:
    """The two pools of one server process (their workers start on first use, and end
    with the server)."""

    def __init__(self, bot_workers: int | None = None,
                 budget: float = DECISION_BUDGET) -> None:
        self.bot_workers = bot_workers or max(1, os.cpu_count() or 1)
        self.budget = budget
        self.bots = Pool(self.bot_workers, niceness=10)
        self.people = Pool(PEOPLE_WORKERS)
        self.reviews = Pool(1, niceness=REVIEW_NICENESS)
        self.decisions = 0  #: the computer players' moves decided
        self.plans = 0  #: the questions that asked for them (a turn's moves each)
        self.out_of_time = 0
        self.listed_here = 0  #: the people's moves listed on the event loop
        self.list_here = LIST_HERE  #: listed there for a person holding at most this many

    async def run(self, which: str, func: Callable[..., T], *args: Any) -> T:
        """``func(*args)`` in a worker of the pool ``which`` ("bots" or "people")."""
        pool = self.bots if which == "bots" else self.people
        result: T = await pool.call(func, *args)
        return result

    async def plan(self, game: ServedGame, origin: Origin, seat: int, level: str, seed: int
                   ) -> list[Action]:
        """The moves the computer player at ``seat`` (of ``level``, seeded with ``seed``)
        plans for the rest of its turn (:func:`plan_at`), in one question to its worker:
        the table plays them one by one, each checked again as it is played, and asks
        again if anything else happened meanwhile."""
        actions: list[Action]
        late: bool
        actions, late = await self.bots.at_table(
            game, origin, plan_at, seat, level, seed, self.budget,
            played_ahead=lambda answer: answer[0])
        self.decisions += len(actions)
        self.plans += 1
        self.out_of_time += late
        return actions

    async def legal(self, game: ServedGame, origin: Origin) -> list[dict[str, Any]]:
        """The moves the person to act is shown, as JSON (:func:`people_moves`): listed
        here when they hold at most :data:`LIST_HERE` cards, else in a worker."""
        if listed_here(game, self.list_here):
            self.listed_here += 1
            start = cpu.now()
            moves = people_moves(game, 0)
            cpu.spent("moves listed", start)
            return moves
        out: list[dict[str, Any]] = await self.people.at_table(game, origin, list_legal_at)
        return out

    async def hint(self, game: ServedGame, origin: Origin) -> dict[str, Any]:
        out: dict[str, Any] = await self.people.at_table(game, origin, hint_at)
        return out

    async def rebuild(self, rules_toml: str, seed: int | None, secret: str | None,
                      actions: Sequence[tuple[int | None, dict[str, Any]]],
                      time_seq: int | None) -> ServedGame:
        return await self.run("people", rebuild, rules_toml, seed, secret, list(actions),
                              time_seq)

    async def rebuild_logged(self, rules_toml: str, seed: int | None, secret: str | None,
                             actions: Sequence[tuple[int | None, dict[str, Any]]],
                             time_seq: int | None) -> tuple[ServedGame, MoveLog]:
        return await self.run("people", rebuild_logged, rules_toml, seed, secret,
                              list(actions), time_seq)

    async def review(self, record: dict[str, Any]) -> str:
        """The finished game's review as JSON (:func:`review_game`), in the reviews'
        worker."""
        out: str = await self.reviews.call(review_game, record)
        return out

    def close(self) -> None:
        self.bots.close()
        self.people.close()
        self.reviews.close()
