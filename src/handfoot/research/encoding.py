"""Moves as numbers: a fixed-size integer encoding of the legal moves, with a mask.

For a rule set, :class:`MoveCodec` numbers every move the engine can list (see
:mod:`handfoot.engine.moves`) from 0 to ``size - 1``, ``size`` known before play:
learning code can use a fixed action space and a legal mask directly, while the
notation and the JSON forms stay for people and records.

A move's number says what kind of card it uses, not which suit, where the rules do
not tell the suits apart (:attr:`~handfoot.rules.Rules.card_class`); turning a
number back into a move takes the lowest such cards held, as the engine lists them.

>>> from handfoot.game import Game
>>> from handfoot.rules import preset
>>> game = Game(preset("texas-good-sam"), seed=7)
>>> codec = MoveCodec(game.rules)
>>> legal = game.legal_actions()
>>> [codec.encode(a) for a in legal]
[0]
>>> codec.decode(0, game.hand)
Draw()
>>> int(codec.mask(legal).sum())
1
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations_with_replacement

import numpy as np
import numpy.typing as npt

from handfoot.actions import (
    ASK,
    DRAW,
    END_TURN,
    GO_DOWN,
    NO,
    PICK_UP_FOOT,
    TAKE_UPCARD,
    YES,
    Action,
    AddToMeld,
    ChooseHand,
    Discard,
    LayMeld,
    TakeBack,
    TakePile,
)
from handfoot.cards import JOKER, NUM_CARDS, RANK, WILD, Card
from handfoot.engine import Hand
from handfoot.engine.melds import most_wilds
from handfoot.rules import Rules

_FIXED: tuple[Action, ...] = (DRAW, TAKE_UPCARD, PICK_UP_FOOT, END_TURN, ASK, YES, NO, GO_DOWN,
                              ChooseHand(0), ChooseHand(1))
_TWO, _JOKER = -1, -2  #: a shown wild card, in a pile pick-up's shape
Shape = tuple[int, ...]


class MoveCodec:
    """The moves of one rule set, numbered.

    The numbers, in blocks: the ten moves without cards (draw, take the upcard, pick
    up the foot, end the turn, ask, yes, no, go down, choose stack 1 or 2); a discard
    of each kind of card; taking back laid-out meld ``i``; one card of each kind added
    to meld ``i``; every smallest new meld (as many cards as a meld needs); taking
    the pile showing each shape of cards, for each count taken; and, where black 3s are
    melded only to go out (they go down all at once), two or more black 3s added to meld
    ``i`` (the larger melds of them are among the new melds).
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.card_class = rules.card_class
        n_cards = rules.num_cards
        #: most melds a team can have (each holds at least ``min_size`` cards)
        self.max_melds = n_cards // rules.meld.min_size
        #: most cards a pick-up can take
        self.max_count = n_cards
        self._fixed = {a: i for i, a in enumerate(_FIXED)}
        self.discard_base = len(_FIXED)
        self.back_base = self.discard_base + NUM_CARDS
        self.add_base = self.back_base + self.max_melds
        self.meld_base = self.add_base + self.max_melds * NUM_CARDS
        self.cores: list[Shape] = list(self._all_cores())
        self._core_ids = {shape: i for i, shape in enumerate(self.cores)}
        self.pile_base = self.meld_base + len(self.cores)
        self.shows: list[Shape] = self._all_shows()
        self._show_ids = {shape: i for i, shape in enumerate(self.shows)}
        self.black_base = self.pile_base + len(self.shows) * (self.max_count + 1)
        #: how many black 3s there are, where they go down only all at once, else 0
        self.black_threes = (2 * rules.num_decks if rules.threes.black_melded == "to-go-out"
                             else 0)
        #: how many move numbers there are
        self.size = self.black_base + self.max_melds * max(self.black_threes - 1, 0)

    # ----------------------------------------------------------- the shapes
    def _all_cores(self) -> Iterable[Shape]:
        """Every smallest meld as the classes of its cards, sorted."""
        rules = self.rules
        mr = rules.meld
        k = mr.min_size
        for rank in range(4, 15):
            classes = [members[0] for members in rules.rank_classes[rank]]
            for n in range(k, mr.min_naturals - 1, -1):
                w = k - n
                if w > most_wilds(n, mr.max_wilds, mr.naturals_exceed_wilds):
                    break
                for nat in combinations_with_replacement(classes, n):
                    for t in range(w, -1, -1):
                        yield tuple(sorted((*(0,) * t, *nat, *(JOKER,) * (w - t))))
        if mr.sequences:
            for suit in range(4):
                for low in range(4, 16 - k):
                    yield tuple((r - 2) * 4 + suit for r in range(low, low + k))
        if mr.wild_melds:
            for t in range(k, -1, -1):
                yield (*(0,) * t, *(JOKER,) * (k - t))
        if rules.threes.black_melded != "never":
            yield (self.card_class[4],) * k  # black 3s, where the rules let them be melded
        if rules.threes.black_melded == "to-go-out":  # ... and all at once, to go out
            for n in range(k + 1, 2 * rules.num_decks + 1):
                yield (self.card_class[4],) * n

    def _all_shows(self) -> list[Shape]:
        """What may be shown to take the pile, as positions among the top card's rank's
        classes (0 to 3) and the wild cards."""
        places = range(4)
        out: list[Shape] = [tuple(p) for p in combinations_with_replacement(places, 2)]
        out += [(p, _TWO) for p in places] + [(p, _JOKER) for p in places] + [()]
        return out

    def _shape(self, cards: Sequence[Card]) -> Shape:
        cls = self.card_class
        return tuple(sorted(cls[c] for c in cards))

    def _show_shape(self, top: Card, shown: Sequence[Card]) -> Shape:
        classes = [m[0] for m in self.rules.rank_classes[RANK[top]]]
        out = []
        for c in shown:
            if c == JOKER:
                out.append(_JOKER)
            elif WILD[c]:
                out.append(_TWO)
            else:
                out.append(classes.index(self.card_class[c]))
        return tuple(sorted(out, key=lambda x: (x < 0, x if x >= 0 else -x)))

    # ------------------------------------------------------------ encoding
    def encode(self, action: Action, pile_top: Card | None = None) -> int:
        """The number of a move the engine lists; ``pile_top`` is needed for taking the
        pile. A move the engine accepts but does not list (a larger meld, several cards
        added at once, a whole opening) has no number: ``ValueError``."""
        fixed = self._fixed.get(action)
        if fixed is not None:
            return fixed
        if isinstance(action, Discard):
            return self.discard_base + self.card_class[action.card]
        if isinstance(action, TakeBack):
            if action.meld < self.max_melds:
                return self.back_base + action.meld
        elif isinstance(action, AddToMeld):
            n = len(action.cards)
            if n == 1 and action.meld < self.max_melds:
                return self.add_base + action.meld * NUM_CARDS + self.card_class[action.cards[0]]
            if (1 < n <= self.black_threes and action.meld < self.max_melds
                    and all(c in (4, 7) for c in action.cards)):
                return self.black_base + action.meld * (self.black_threes - 1) + n - 2
        elif isinstance(action, LayMeld):
            core = self._core_ids.get(self._shape(action.cards))
            if core is not None:
                return self.meld_base + core
        elif isinstance(action, TakePile):
            if pile_top is None:
                raise ValueError("taking the pile is numbered by its top card: give pile_top")
            show = self._show_ids.get(self._show_shape(pile_top, action.shown))
            if show is not None and not action.opening and 0 < action.count <= self.max_count:
                return self.pile_base + show * (self.max_count + 1) + action.count
        raise ValueError(f"{action.notation()!r} is not a move the engine lists one at a time")

    def decode(self, number: int, hand: Hand) -> Action:
        """The move of a number for the player to act in ``hand`` (with the lowest cards
        of each kind it holds), whether or not it is legal there."""
        if not 0 <= number < self.size:
            raise ValueError(f"{number} is not a move number (0 to {self.size - 1})")
        held = hand.hands[hand.actor]
        if number < self.discard_base:
            return _FIXED[number]
        if number < self.back_base:
            return Discard(self._lowest(held, number - self.discard_base, 1)[0])
        if number < self.add_base:
            return TakeBack(number - self.back_base)
        if number < self.meld_base:
            meld, cls = divmod(number - self.add_base, NUM_CARDS)
            return AddToMeld(meld, tuple(self._lowest(held, cls, 1)))
        if number < self.pile_base:
            shape = self.cores[number - self.meld_base]
            cards: list[Card] = []
            for cls in sorted(set(shape)):
                cards += self._lowest(held, cls, shape.count(cls))
            return LayMeld(tuple(cards))
        if number >= self.black_base:
            meld, n = divmod(number - self.black_base, self.black_threes - 1)
            return AddToMeld(meld, tuple(self._lowest(held, self.card_class[4], n + 2)))
        show, count = divmod(number - self.pile_base, self.max_count + 1)
        top = hand.pile_top
        shown: list[Card] = []
        if top is not None:
            classes = [m[0] for m in self.rules.rank_classes[RANK[top]]]
            shape = self.shows[show]
            for place in sorted(set(shape)):
                k = shape.count(place)
                cls = 0 if place == _TWO else JOKER if place == _JOKER else (
                    classes[place] if place < len(classes) else -1)
                shown += self._lowest(held, cls, k)
        return TakePile(tuple(shown), count)

    def _lowest(self, held: Sequence[int], cls: int, k: int) -> list[Card]:
        """The ``k`` lowest cards of class ``cls`` held (fewer if fewer are held; the
        class itself if none is, so that a move of a kind not held still reads)."""
        out: list[Card] = []
        for c in self.rules.class_members.get(cls, (cls,)):
            take = min(held[c] if 0 <= c < NUM_CARDS else 0, k - len(out))
            out += [c] * take
        while len(out) < k:
            out.append(max(cls, 0))
        return out

    def mask(self, legal: Iterable[Action], pile_top: Card | None = None
             ) -> npt.NDArray[np.bool_]:
        """A boolean array of ``size``: true at the number of each listed legal move."""
        out = np.zeros(self.size, dtype=np.bool_)
        for a in legal:
            out[self.encode(a, pile_top)] = True
        return out

    def describe(self) -> dict[str, int]:
        """The size of each block of numbers."""
        return {"fixed": len(_FIXED), "discard": NUM_CARDS, "take-back": self.max_melds,
                "add": self.max_melds * NUM_CARDS, "meld": len(self.cores),
                "take-pile": len(self.shows) * (self.max_count + 1),
                "add-black-3s": self.size - self.black_base, "size": self.size}

