"""What a player can do, as small frozen values, and their notation.

Each action has a one-line notation that players type in the terminal and that
reads back the same action, and a JSON form used in records:

>>> a = parse_action("lay QH QD QS | 7C 7D 2C")
>>> a
LayDown(melds=((0, 20, 21), (41, 42, 43)))
>>> a.notation()
'lay 7C 7D 2C | QD QH QS'
>>> action_from_json(action_to_json(a)) == a
True
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, final

from handfoot.cards import NUM_CARDS, Card, CardError, card_code, parse_card, parse_cards, sort_key


class ActionSyntaxError(ValueError):
    """Typed or recorded text that is not an action."""


def _codes(cards: tuple[Card, ...]) -> str:
    return " ".join(card_code(c) for c in sorted(cards, key=sort_key))


def _norm(cards: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    if isinstance(cards, tuple):  # (most are made sorted: kept as they are)
        for i in range(1, len(cards)):
            if cards[i - 1] > cards[i]:
                return tuple(sorted(cards))
        return cards
    return tuple(sorted(cards))


def _norm_melds(
    melds: tuple[tuple[Card, ...], ...] | list[list[Card]],
) -> tuple[tuple[Card, ...], ...]:
    return tuple(sorted(tuple(sorted(m)) for m in melds))


# Each action is a small value: its fields are set once, when it is made (typed Final:
# mypy refuses any assignment after, and compiled by mypyc they are read-only), two
# actions are equal when they are of the same class with equal fields, and hash as the
# tuple of their fields (as frozen dataclasses did, so sets of actions keep their
# order). They are written as plain classes rather than dataclasses: mypyc compiles
# these to native classes, whose fields compiled code reads directly and whose class it
# checks by a pointer (a dataclass's generated ``__init__`` and frozen ``__setattr__``
# stay interpreted: a loop step that makes one and reads a field took 550 to 1,000 ns,
# against 120 now). ``__match_args__`` names the fields, in order (``match`` statements,
# and the tests, read them).


class ActionBase:
    """What every action shares: its kind's name in records, and its fields (named in
    order by ``__match_args__``) written out and pickled. An action with fields compares
    and hashes them itself (asked often: compiled, they are read directly); one without
    equals any other of its class."""

    __slots__ = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()
    kind: ClassVar[str] = ""

    def __eq__(self, other: object) -> bool:  # (an action without fields)
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"{type(self).__name__}({fields})"

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), tuple([getattr(self, name) for name in self.__match_args__])


@final
class ChooseHand(ActionBase):
    """Choose which of your two dealt stacks is your hand (0 or 1); the other is your foot."""

    __slots__ = ("stack",)
    __match_args__ = ("stack",)
    kind = "choose-hand"

    def __init__(self, stack: int) -> None:
        self.stack: Final = stack

    def notation(self) -> str:
        return f"choose {self.stack + 1}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ChooseHand) and self.stack == other.stack

    def __hash__(self) -> int:
        return hash((self.stack,))


@final
class Draw(ActionBase):
    """Draw from the stock (two cards in most rule sets)."""

    __slots__ = ()
    kind = "draw"

    def notation(self) -> str:
        return "draw"


@final
class TakeUpcard(ActionBase):
    """On the first turn of a hand, take the card turned up to start the pile."""

    __slots__ = ()
    kind = "take-upcard"

    def notation(self) -> str:
        return "upcard"


@final
class TakePile(ActionBase):
    """Take the discard pile, showing ``shown`` from your hand. The top card and the shown
    cards go to the table at once; ``count`` cards are taken in all (0: as the rules
    say). A team that has not opened lays its opening melds with it in ``opening``."""

    __slots__ = ("count", "opening", "shown")
    __match_args__ = ("shown", "count", "opening")
    kind = "take-pile"

    def __init__(self, shown: tuple[Card, ...] | list[Card] = (), count: int = 0,
                 opening: tuple[tuple[Card, ...], ...] | list[list[Card]] = ()) -> None:
        self.shown: Final = _norm(shown)
        self.count: Final = count
        self.opening: Final = _norm_melds(opening)

    def notation(self) -> str:
        text = "pile"
        if self.shown:
            text += " " + _codes(self.shown)
        if self.count:
            text += f" take {self.count}"
        if self.opening:
            text += " + " + " | ".join(_codes(m) for m in self.opening)
        return text

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, TakePile) and self.shown == other.shown
                and self.count == other.count and self.opening == other.opening)

    def __hash__(self) -> int:
        return hash((self.shown, self.count, self.opening))


@final
class LayDown(ActionBase):
    """Lay new melds on the table at once. A team's first lay-down is its opening and may
    hold several melds (the same as laying each out with :class:`LayMeld` and going
    down); after that, one meld at a time."""

    __slots__ = ("melds",)
    __match_args__ = ("melds",)
    kind = "lay-down"

    def __init__(self, melds: tuple[tuple[Card, ...], ...] | list[list[Card]]) -> None:
        self.melds: Final = _norm_melds(melds)

    def notation(self) -> str:
        return "lay " + " | ".join(_codes(m) for m in self.melds)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LayDown) and self.melds == other.melds

    def __hash__(self) -> int:
        return hash((self.melds,))


@final
class LayMeld(ActionBase):
    """Put one new meld on the table. Before a team has gone down, the meld is laid out
    for the opening (staged): it counts toward the opening once the player goes down
    (:class:`GoDown`) or takes the pile, and can be taken back until then."""

    __slots__ = ("cards",)
    __match_args__ = ("cards",)
    kind = "meld"

    def __init__(self, cards: tuple[Card, ...] | list[Card]) -> None:
        self.cards: Final = _norm(cards)

    def notation(self) -> str:
        return "meld " + _codes(self.cards)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LayMeld) and self.cards == other.cards

    def __hash__(self) -> int:
        return hash((self.cards,))


@final
class TakeBack(ActionBase):
    """Take a meld laid out for the opening back into the hand (``meld`` counts from 0)."""

    __slots__ = ("meld",)
    __match_args__ = ("meld",)
    kind = "take-back"

    def __init__(self, meld: int) -> None:
        self.meld: Final = meld

    def notation(self) -> str:
        return f"back {self.meld + 1}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TakeBack) and self.meld == other.meld

    def __hash__(self) -> int:
        return hash((self.meld,))


@final
class GoDown(ActionBase):
    """Go down: the melds laid out become the team's opening, checked against the
    opening minimum and the rule set's other opening conditions."""

    __slots__ = ()
    kind = "go-down"

    def notation(self) -> str:
        return "down"


@final
class AddToMeld(ActionBase):
    """Add cards to one of your team's melds or books (``meld`` counts from 0)."""

    __slots__ = ("cards", "meld")
    __match_args__ = ("meld", "cards")
    kind = "add"

    def __init__(self, meld: int, cards: tuple[Card, ...] | list[Card]) -> None:
        self.meld: Final = meld
        self.cards: Final = _norm(cards)

    def notation(self) -> str:
        return f"add {self.meld + 1} {_codes(self.cards)}"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, AddToMeld) and self.meld == other.meld
                and self.cards == other.cards)

    def __hash__(self) -> int:
        return hash((self.meld, self.cards))


@final
class PickUpFoot(ActionBase):
    """Pick up your foot once your hand is empty."""

    __slots__ = ()
    kind = "pick-up-foot"

    def notation(self) -> str:
        return "foot"


@final
class Discard(ActionBase):
    """Discard a card; this ends your turn (and, with your last card, may go out)."""

    __slots__ = ("card",)
    __match_args__ = ("card",)
    kind = "discard"

    def __init__(self, card: Card) -> None:
        self.card: Final = card

    def notation(self) -> str:
        return f"discard {card_code(self.card)}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Discard) and self.card == other.card

    def __hash__(self) -> int:
        return hash((self.card,))


@final
class EndTurn(ActionBase):
    """End the turn without a discard (only where the rules allow it)."""

    __slots__ = ()
    kind = "end-turn"

    def notation(self) -> str:
        return "end"


@final
class AskToGoOut(ActionBase):
    """Ask your partner for permission to go out."""

    __slots__ = ()
    kind = "ask"

    def notation(self) -> str:
        return "ask"


@final
class AnswerGoOut(ActionBase):
    """Answer your partner who asked to go out."""

    __slots__ = ("yes",)
    __match_args__ = ("yes",)
    kind = "answer"

    def __init__(self, yes: bool) -> None:
        self.yes: Final = yes

    def notation(self) -> str:
        return "yes" if self.yes else "no"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AnswerGoOut) and self.yes == other.yes

    def __hash__(self) -> int:
        return hash((self.yes,))


Action = (ChooseHand | Draw | TakeUpcard | TakePile | LayDown | LayMeld | TakeBack | GoDown
          | AddToMeld | PickUpFoot | Discard | EndTurn | AskToGoOut | AnswerGoOut)

# The actions without a choice in them, made once and shared (Final: compiled, every
# module that names one reads it directly, where a plain module variable was looked up in
# the module's dict at every use: the listing names DRAW at every draw)
DRAW: Final = Draw()
TAKE_UPCARD: Final = TakeUpcard()
PICK_UP_FOOT: Final = PickUpFoot()
END_TURN: Final = EndTurn()
GO_DOWN: Final = GoDown()
ASK: Final = AskToGoOut()
YES: Final = AnswerGoOut(True)
NO: Final = AnswerGoOut(False)
#: a discard of each card, by card (moves are values; these are shared by the listing and
#: the heuristic rather than made at every move)
DISCARDS: Final = tuple(Discard(c) for c in range(NUM_CARDS))

HELP = """\
draw                       draw from the stock
upcard                     take the upcard (first turn only, where allowed)
pile QH QS [take 7]        take the pile, showing a pair (or one natural and a wild)
pile QH QS + KH KD KS      take the pile and open with more melds (where allowed)
meld QH QD QS              put one meld down (before your team has gone down:
                           lay it out for your opening)
back 2                     take laid-out meld number 2 back into your hand
down                       go down with the melds you laid out
lay QH QD QS | 7C 7D 2C    lay several melds and go down at once
add 2 QH 2C                add cards to your team's meld number 2
foot                       pick up your foot
discard 7H                 discard a card and end your turn
end                        end your turn without a discard (where allowed)
ask / yes / no             ask your partner to go out / answer
choose 1 | choose 2        choose which dealt stack is your hand
Cards: 7H 10S QD AC 2C JK (joker); suits C D H S."""


def _melds_text(text: str) -> tuple[tuple[Card, ...], ...]:
    return tuple(parse_cards(part) for part in text.split("|") if part.strip())


def parse_action(text: str) -> Action:
    """Read an action in the notation above; raises :class:`ActionSyntaxError`."""
    words = text.strip().split(None, 1)
    if not words:
        raise ActionSyntaxError("Type an action, or 'help' for the list.")
    verb, rest = words[0].lower(), (words[1] if len(words) > 1 else "")
    try:
        if verb == "draw" and not rest:
            return DRAW
        if verb == "upcard" and not rest:
            return TAKE_UPCARD
        if verb == "foot" and not rest:
            return PICK_UP_FOOT
        if verb == "end" and not rest:
            return END_TURN
        if verb == "ask" and not rest:
            return ASK
        if verb in ("yes", "no") and not rest:
            return AnswerGoOut(verb == "yes")
        if verb == "choose":
            if rest.strip() not in ("1", "2"):
                raise ActionSyntaxError("Choose stack 1 or stack 2: 'choose 1'.")
            return ChooseHand(int(rest) - 1)
        if verb in ("discard", "d"):
            return Discard(parse_card(rest))
        if verb == "down" and not rest:
            return GO_DOWN
        if verb == "meld":
            if "|" in rest:
                raise ActionSyntaxError("One meld at a time: 'meld QH QD QS' "
                                        "(or 'lay QH QD QS | 7C 7D 2C' to go down at once).")
            cards = parse_cards(rest)
            if not cards:
                raise ActionSyntaxError("Say which cards to meld: 'meld QH QD QS'.")
            return LayMeld(cards)
        if verb == "back":
            if not rest.strip().isdigit() or int(rest) < 1:
                raise ActionSyntaxError("Say which laid-out meld to take back: 'back 1'.")
            return TakeBack(int(rest) - 1)
        if verb == "lay":
            melds = _melds_text(rest)
            if not melds:
                raise ActionSyntaxError("Say which cards to lay down: 'lay QH QD QS'.")
            return LayDown(melds)
        if verb == "add":
            parts = rest.split(None, 1)
            if len(parts) < 2 or not parts[0].isdigit() or int(parts[0]) < 1:
                raise ActionSyntaxError("Say which meld and which cards: 'add 2 QH 2C'.")
            return AddToMeld(int(parts[0]) - 1, parse_cards(parts[1]))
        if verb == "pile":
            head, _, opening = rest.partition("+")
            count = 0
            if " take " in f" {head} ":
                head, _, n = f" {head} ".partition(" take ")
                if not n.strip().isdigit():
                    raise ActionSyntaxError("Say how many cards to take: 'pile QH QS take 7'.")
                count = int(n)
            return TakePile(parse_cards(head), count, _melds_text(opening))
    except CardError as e:
        raise ActionSyntaxError(str(e)) from e
    raise ActionSyntaxError(f"'{text.strip()}' is not an action. Type 'help' for the list.")


def action_to_json(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"type": action.kind}
    if isinstance(action, ChooseHand):
        out["stack"] = action.stack
    elif isinstance(action, TakePile):
        out["shown"] = [card_code(c) for c in action.shown]
        if action.count:
            out["count"] = action.count
        if action.opening:
            out["opening"] = [[card_code(c) for c in m] for m in action.opening]
    elif isinstance(action, LayDown):
        out["melds"] = [[card_code(c) for c in m] for m in action.melds]
    elif isinstance(action, LayMeld):
        out["cards"] = [card_code(c) for c in action.cards]
    elif isinstance(action, TakeBack):
        out["meld"] = action.meld
    elif isinstance(action, AddToMeld):
        out["meld"] = action.meld
        out["cards"] = [card_code(c) for c in action.cards]
    elif isinstance(action, Discard):
        out["card"] = card_code(action.card)
    elif isinstance(action, AnswerGoOut):
        out["yes"] = action.yes
    return out


def action_from_json(data: Any) -> Action:
    """The action of a JSON object; raises :class:`ActionSyntaxError` on anything else."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ActionSyntaxError("An action must be an object with a 'type'.")
    kind = data["type"]
    try:
        simple: dict[str, Action] = {
            "draw": DRAW, "take-upcard": TAKE_UPCARD, "pick-up-foot": PICK_UP_FOOT,
            "end-turn": END_TURN, "ask": ASK, "go-down": GO_DOWN}
        if kind in simple:
            return simple[kind]
        if kind == "choose-hand" and data.get("stack") in (0, 1):
            return ChooseHand(int(data["stack"]))
        if kind == "answer" and isinstance(data.get("yes"), bool):
            return AnswerGoOut(bool(data["yes"]))
        if kind == "discard" and isinstance(data.get("card"), str):
            return Discard(parse_card(data["card"]))
        if kind == "lay-down" and _is_meld_list(data.get("melds")):
            return LayDown(tuple(parse_cards(m) for m in data["melds"]))
        if kind == "meld" and _is_cards(data.get("cards")) and data["cards"]:
            return LayMeld(parse_cards(data["cards"]))
        if kind == "take-back" and _is_index(data.get("meld")):
            return TakeBack(int(data["meld"]))
        if kind == "add" and _is_index(data.get("meld")) and _is_cards(data.get("cards")):
            return AddToMeld(int(data["meld"]), parse_cards(data["cards"]))
        if kind == "take-pile" and _is_cards(data.get("shown", [])):
            count = data.get("count", 0)
            opening = data.get("opening", [])
            if _is_index(count) and _is_meld_list(opening, allow_empty=True):
                return TakePile(parse_cards(data.get("shown", [])), int(count),
                                tuple(parse_cards(m) for m in opening))
    except CardError as e:
        raise ActionSyntaxError(str(e)) from e
    raise ActionSyntaxError(f"Not a well-formed '{kind}' action.")


def _is_index(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 10_000


def _is_cards(x: Any) -> bool:
    return isinstance(x, list) and len(x) <= 400 and all(isinstance(c, str) for c in x)


def _is_meld_list(x: Any, allow_empty: bool = False) -> bool:
    return (isinstance(x, list) and (allow_empty or len(x) > 0) and len(x) <= 60
            and all(_is_cards(m) and m for m in x))
