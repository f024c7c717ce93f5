"""Computer players. A bot sees only its seat's view and the legal actions.

>>> from handfoot.bots import make_bot
>>> make_bot("random", seed=1).name
'random'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, Protocol

from mypy_extensions import i64, mypyc_attr

from handfoot.actions import Action, AddToMeld, GoDown, LayMeld, TakeBack, TakePile
from handfoot.engine.moves import LegalActions, add_discards, count_discards, nth_discard
from handfoot.game.views import View


class Bot(Protocol):
    name: str
    #: whether :meth:`choose` reads the view (the arena skips building it if not)
    uses_view: bool
    # A bot may also say ``reads_state = False``: it reads only the moves and the turn
    # (LegalActions.turn, .laying_out), not LegalActions.seat_state, so its moves are
    # listed without a seat copy (see reads_state below).

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        """Pick one of ``legal`` (never empty)."""
        ...


#: the low 32 bits
_MASK32: Final = 0xFFFFFFFF


def first_state(seed: int) -> int:
    """The random player's first state for ``seed`` (any whole number): the seed taken
    modulo the largest prime below 2**32 and mixed (the finaliser of MurmurHash3, so
    that near seeds start far apart), never 0. In Python's own numbers (made once a
    player): the same on every machine."""
    h = seed % 0xFFFFFFFB
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & _MASK32
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & _MASK32
    h ^= h >> 16
    return h if h else 0x9E3779B9


def xorshift32(x: i64) -> i64:
    """The state after ``x`` (32 bits, not 0): Marsaglia's xorshift with shifts 13, 17
    and 5, whose states run through every 32-bit number but 0. Every value stays below
    2**45, so compiled and pure Python draw the same numbers."""
    x ^= (x << 13) & _MASK32
    x ^= x >> 17
    x ^= (x << 5) & _MASK32
    return x


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class RandomBot:
    """Picks uniformly among the legal moves (``easy``).

    An opening is laid out a meld at a time; while melds are laid out it goes down
    (or takes the pile with them) as soon as it may, otherwise lays out more, or gives
    up (as likely as any one meld it could add) and takes them all back, and does not
    try again that turn. Without this, choosing uniformly among laying out and taking
    back would wander for a long time before the turn ended. Where the house rules let
    this turn's plays be taken back once down (``turn.take_back_turn``), it never does.
    """

    name = "random"
    uses_view = False
    reads_state = False  #: only the moves and the turn: listed without a seat copy

    def __init__(self, seed: int = 0) -> None:
        # Its own small generator (:func:`first_state`, :meth:`_below`): a Mersenne
        # Twister seeded for each player took some 36,000 machine instructions, a
        # fortieth of a random hand, and each number drawn was a call through Python.
        self._state: i64 = first_state(seed)
        # the turn it last chose in (hand and turn number: two numbers, compared
        # directly where a tuple kept would be compared by Python's generic comparison)
        self._hand_number = -1
        self._turn_number = -1
        self._gave_up = False

    def _below(self, n: int) -> int:
        """A number drawn uniformly below ``n`` (at least 1): the top bits of the next
        state, as many as ``n - 1`` has, drawn again until below ``n``."""
        k: i64 = 0
        m: i64 = n - 1
        while m:
            k += 1
            m >>= 1
        x: i64 = self._state
        while True:
            x = xorshift32(x)
            r: i64 = x >> (32 - k) if k else 0
            if r < n:
                self._state = x
                return int(r)

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        # (known to be LegalActions, compiled code calls its methods directly)
        if isinstance(legal, LegalActions) and legal.for_actor:
            hand_number, turn_number = legal.turn()
            self._in_turn(hand_number, turn_number)
            if not self._gave_up and not legal.laying_out():
                n = len(legal)  # nothing laid out: the usual case
                if n == 1:
                    return legal[0]
                chosen = legal[self._below(n)]
                if isinstance(chosen, TakeBack):  # a play of this turn: kept (see the class)
                    return self._without_backs(list(legal))
                return chosen
        return self._choose_among(list(legal))

    def choose_split(self, moves: list[Action], discards: i64, at: i64, hand_number: int,
                     turn_number: int, laying_out: bool, base: i64 = 0) -> Action:
        """:meth:`choose`, given the moves as the engine lists them for a caller that
        takes one by its place (:meth:`~handfoot.engine.moves.Hand.moves_and_discards`:
        the moves but the discards, the discards as bits and where they stand), the
        hand's and the turn's numbers, and whether the team has melds laid out for its
        opening, by a caller that lists them itself (the arena): the same choice,
        drawing the same numbers, without a :class:`LegalActions` made and freed at
        every move, nor the discards made but the one chosen. The moves listed are those
        of ``moves`` from ``base`` on (a caller that keeps one list for many listings,
        each put after the last; ``at`` counts from the list's start, as the engine
        gives it). ``moves`` is left as it was."""
        self._in_turn(hand_number, turn_number)
        if not self._gave_up and not laying_out:
            held = count_discards(discards)
            n = len(moves) - base + held
            if n == 1:
                return moves[base] if len(moves) > base else nth_discard(discards, 0)
            r: i64 = base + self._below(n)
            if r < at:
                if isinstance(moves[r], TakeBack):  # a play of this turn: kept
                    whole = moves[base:]
                    add_discards(whole, discards, at - base)
                    return self._without_backs(whole)
                return moves[r]
            if r < at + held:
                return nth_discard(discards, r - at)
            return moves[r - held]
        whole = moves[base:]
        if discards:
            add_discards(whole, discards, at - base)
        return self._choose_among(whole)

    def _in_turn(self, hand_number: int, turn_number: int) -> None:
        """A new turn: it has not given up laying out in it."""
        if hand_number != self._hand_number or turn_number != self._turn_number:
            self._hand_number, self._turn_number = hand_number, turn_number
            self._gave_up = False

    def _without_backs(self, moves: list[Action]) -> Action:
        """A move other than taking back a play of this turn, where the house rules list
        those (``turn.take_back_turn``): a player choosing at random does not undo."""
        kept = [m for m in moves if not isinstance(m, TakeBack)]
        return kept[self._below(len(kept))] if kept else moves[0]

    def _choose_among(self, moves: list[Action]) -> Action:
        """The choice while melds are laid out, or after giving up (see the class)."""
        if len(moves) == 1:
            return moves[0]  # no choice, and no chance drawn on (as when the arena plays it)
        backs = [m for m in moves if isinstance(m, TakeBack)]
        if backs:
            done = [m for m in moves if isinstance(m, GoDown) or isinstance(m, TakePile)]  # noqa: SIM101
            if done:
                return done[self._below(len(done))]
            more = [m for m in moves
                    if isinstance(m, LayMeld) or isinstance(m, AddToMeld)]  # noqa: SIM101
            if self._gave_up or not more or self._below(len(more) + 1) == 0:
                self._gave_up = True
                return backs[0]
            return more[self._below(len(more))]
        if self._gave_up:
            moves = [m for m in moves if not isinstance(m, LayMeld)] or moves
        return moves[self._below(len(moves))]


def _heuristic(seed: int) -> Bot:
    from handfoot.bots.heuristic import HeuristicBot
    return HeuristicBot(seed)


def _expert(seed: int) -> Bot:
    from handfoot.bots.expert import ExpertBot
    return ExpertBot(seed)


BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot, "heuristic": _heuristic, "expert": _expert}

#: The levels offered in the user interface (docs/bots.md).
LEVELS: dict[str, str] = {"easy": "random", "medium": "heuristic", "hard": "expert"}


#: bot classes loaded from files, by "PATH.py:Class"
_FROM_FILES: dict[str, Callable[[int], Bot]] = {}


def is_bot_file(name: str) -> bool:
    """Whether ``name`` names a bot class in a Python file, as ``PATH.py:Class``: another
    version of a bot (an older heuristic saved with ``git show``, say) to match against
    this one in ``handfoot sim``."""
    path, _, cls = name.rpartition(":")
    return path.endswith(".py") and cls.isidentifier()


def _bot_from_file(name: str) -> Callable[[int], Bot]:
    made = _FROM_FILES.get(name)
    if made is not None:
        return made
    import importlib.util
    import sys
    path, _, cls = name.rpartition(":")
    module_name = f"handfoot_bot_file_{len(_FROM_FILES)}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"{path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # (dataclasses and pickling look modules up)
    try:
        spec.loader.exec_module(module)
    except OSError as e:
        raise ValueError(f"cannot read {path}: {e.strerror}") from None
    found: Callable[[int], Bot] | None = getattr(module, cls, None)
    if not callable(found):
        raise ValueError(f"{path} has no bot class {cls}")
    _FROM_FILES[name] = found
    return found


def reads_state(bot: Bot) -> bool:
    """Whether ``bot`` reads the state its legal actions answer from
    (:attr:`LegalActions.seat_state`, a seat copy); a bot says no with
    ``reads_state = False``, and is then given actions listed without the copy."""
    return bool(getattr(bot, "reads_state", True))


def make_bot(name: str, seed: int = 0) -> Bot:
    name = LEVELS.get(name, name)
    if is_bot_file(name):
        return _bot_from_file(name)(seed)
    try:
        cls = BOTS[name]
    except KeyError:
        raise ValueError(f"there is no bot called {name!r}; the bots are "
                         f"{', '.join(BOTS)}") from None
    return cls(seed)
