"""House rules as a form: every setting of :mod:`handfoot.rules` grouped as players
think of them, each with a label and one sentence of explanation, and a form's answers
turned back into the settings the engine checks. Nothing here checks a rule: the
engine's own validation (:meth:`Rules.from_dict`) does, and its message is shown next
to the setting it names.

>>> from handfoot.rules import Rules, preset
>>> rules = preset("classic")
>>> [g["group"] for g in form(rules)][:3]
['players', 'deal', 'opening']
>>> changed = settings_from_form({"scores.going_out": 500, "opening.minimums": "50, 90"})
>>> changed
{'scores': {'going_out': 500}, 'opening': {'minimums': [50, 90]}}
>>> Rules.from_dict(changed, base=rules).scores.going_out
500
>>> setting_named("scores.going_out must be a whole number, not 'x'", ["scores.going_out"])
'scores.going_out'
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
import typing
from typing import Any, Final, get_type_hints

from handfoot.rules import CHOICES, SECTIONS, VALUE_KEYS, Rules, RulesError

__all__ = ["DESCRIPTIONS", "GROUPS", "form", "setting_named", "settings_from_form"]

#: The form's groups, in order: (key, heading).
GROUPS: Final[tuple[tuple[str, str], ...]] = (
    ("players", "Players and the game"),
    ("deal", "Cards, the deal and drawing"),
    ("opening", "Opening (the first lay-down)"),
    ("pile", "Taking the discard pile"),
    ("melds", "Melds and 3s"),
    ("books", "Books"),
    ("going_out", "Going out"),
    ("scores", "Scores"),
    ("clock", "Clock (timed games)"),
)

#: Every setting: its group, its label and what it does, in players' words.
DESCRIPTIONS: Final[dict[str, tuple[str, str, str]]] = {
    "players.seats": ("players", "Players", "How many people play (2 to 8)."),
    "players.teams": ("players", "Teams", "How many teams; the same as the players for "
                      "everyone on their own. Partners sit across from each other."),
    "game.hands": ("players", "Hands in a game", "The game ends after this many hands."),
    "game.target_score": ("players", "Target score", "The game also ends when a team "
                          "reaches this score (0: play every hand)."),
    "game.tie_break": ("players", "A tied game", "none: the win is shared; playoff-hand: "
                       "one more hand, then a high-card draw if still tied; high-card: a "
                       "high-card draw."),
    "deck.decks": ("deal", "Decks", "Decks shuffled together."),
    "deck.decks_per_player": ("deal", "Decks per player", "More decks for each player "
                              "(added to the decks above)."),
    "deck.jokers_per_deck": ("deal", "Jokers per deck", "Jokers kept in each deck."),
    "deck.extra_jokers": ("deal", "Extra jokers", "Jokers added beyond those of the decks."),
    "deal.hand_size": ("deal", "Cards in the hand", "Cards dealt to each player's hand."),
    "deal.foot_size": ("deal", "Cards in the foot", "Cards dealt to each player's foot."),
    "deal.exact_grab_bonus": ("deal", "Exact grab bonus", "Points to a player who grabs "
                              "exactly the hand and foot from the stock (0: none)."),
    "deal.grab_spread": ("deal", "Grab spread", "How far a grab may miss, in cards, when "
                         "the computer grabs for a player."),
    "deal.choose_hand": ("deal", "Choosing the hand", "blind: the hand is one stack, "
                         "unseen; seeing-tops: each stack's top card is face up and the "
                         "player chooses which stack is the hand."),
    "deal.upcard": ("deal", "Turn up a card", "A card is turned up to start the pile."),
    "deal.upcard_turn_back": ("deal", "Upcards turned back", "Kinds of upcard put back "
                              "under the stock and replaced."),
    "deal.first_player": ("deal", "Who plays first", "high-card: a cut for high card "
                          "before every hand; rotate: a cut before the first hand, then "
                          "the next player to the left."),
    "turn.draw": ("deal", "Cards drawn", "Cards drawn from the stock each turn."),
    "turn.draw_by_hand": ("deal", "Cards drawn, hand by hand", "Cards drawn in each hand, "
                          "in order (empty: always the number above); the last holds after."),
    "turn.first_turn_upcard": ("deal", "The upcard on the first turn", "no; take: the "
                               "first player may take the upcard alone; take-no-discard: "
                               "and need not discard."),
    "turn.take_back_turn": ("deal", "Take back this turn's plays", "Cards added and "
                            "melds laid this turn may be taken back into the hand until "
                            "the discard (a mis-tap undone): for friendly tables."),
    "opening.minimums": ("opening", "Points to open, hand by hand", "The points a team's "
                         "first lay-down needs in each hand; the last holds after."),
    "opening.by_score": ("opening", "Points to open, by score", "Instead: [score, "
                         "minimum] pairs by rising score, such as [0, 50], [1500, 90]."),
    "opening.clean_melds": ("opening", "Clean melds to open", "Melds without wild cards "
                            "the opening must hold."),
    "opening.dirty_melds": ("opening", "Dirty melds to open", "Melds with a wild card the "
                            "opening must hold."),
    "opening.books": ("opening", "Books to open", "Complete books the opening must hold."),
    "opening.short_penalty": ("opening", "Short opening penalty", "Points lost for "
                              "showing an opening short of the minimum (score sheets)."),
    "pile.take_min": ("pile", "Fewest cards taken", "Cards taken from the pile (all of "
                      "them if it holds fewer)."),
    "pile.take_max": ("pile", "Most cards taken", "The most cards taken (0: up to the "
                      "whole pile)."),
    "pile.min_size": ("pile", "Smallest pile", "The pile must hold at least this many "
                      "cards to be taken."),
    "pile.before_opening": ("pile", "Before the team has opened", "never; with-opening: "
                            "the top card and the shown cards go into the opening."),
    "pile.show": ("pile", "What is shown to take it", "natural-pair: two naturals of the "
                  "top card's rank; natural-and-wild; meld-on-board: a meld of that rank "
                  "already down."),
    "pile.wild_freezes_until_taken": ("pile", "A wild freezes it", "A wild discarded into "
                                      "the pile freezes it until it is taken."),
    "pile.shown_cards": ("pile", "The shown cards", "melded: they go to the table with the "
                         "top card; kept: only shown, they stay in the hand."),
    "meld.min_size": ("melds", "Smallest meld", "Cards in the smallest meld."),
    "meld.min_naturals": ("melds", "Naturals in a meld", "Natural cards a meld needs."),
    "meld.max_wilds": ("melds", "Most wild cards", "Wild cards a meld may hold."),
    "meld.naturals_exceed_wilds": ("melds", "More naturals than wilds", "A meld always "
                                   "holds more natural cards than wild ones."),
    "meld.one_open_meld_per_rank": ("melds", "One meld of a rank at a time", "Complete a "
                                    "meld before starting another of its rank."),
    "meld.sequences": ("melds", "Sequences", "Same-suit sequences (\"sambas\"), 4 to ace, "
                       "without wilds."),
    "meld.wild_melds": ("melds", "Wild-card melds", "Melds of wild cards only."),
    "meld.wild_meld_blocks_wilds": ("melds", "A wild meld holds the wilds", "While a team's "
                                    "wild-card meld is open, no wild goes on another meld."),
    "threes.red": ("melds", "Red 3s", "discard: held or discarded like black 3s; board: "
                   "laid on the team's board at once and replaced from the stock."),
    "threes.black_melded": ("melds", "Black 3s melded", "never; to-go-out: only in the "
                            "play that goes out; any-time."),
    "meld.book_size": ("books", "Cards in a book", "A meld of this many cards is a "
                       "complete book."),
    "meld.books_per_rank": ("books", "Books of one rank", "The most books of one rank a "
                            "team may make (0: no limit)."),
    "meld.burn_wilds": ("books", "Wilds on a book", "Wild cards may be added (\"burned\") "
                        "on a complete book."),
    "words.book": ("books", "A book is called", "What the sheet calls a book: book or "
                   "canasta."),
    "words.clean": ("books", "A clean book is called", "clean or red."),
    "words.dirty": ("books", "A dirty book is called", "dirty or black."),
    "words.sequence": ("books", "A sequence book is called", "Such as samba."),
    "going_out.clean_books": ("going_out", "Clean books to go out", "Clean books a team "
                              "needs to go out."),
    "going_out.dirty_books": ("going_out", "Dirty books to go out", "Dirty books a team "
                              "needs to go out."),
    "going_out.wild_books": ("going_out", "Wild-card books to go out", "Wild-card books a "
                             "team needs (needs wild-card melds)."),
    "going_out.sequence_books": ("going_out", "Sequence books to go out", "Sequence books "
                                 "a team needs (needs sequences)."),
    "going_out.clean_counts_as_dirty": ("going_out", "A clean book counts as dirty", "A "
                                        "clean book may stand in for a dirty one."),
    "going_out.permission": ("going_out", "Ask the partner", "A player asks their partner "
                             "before going out."),
    "going_out.ask_when_able": ("going_out", "Ask only when able", "Asking says \"I can "
                                "go out now\"; after a yes the player must go out."),
    "going_out.discard": ("going_out", "The last card", "optional; required: go out with a "
                          "discard; forbidden: go out by melding every card."),
    "going_out.partners": ("going_out", "What the partners must have done", "none; "
                           "in-foot: picked up their foot; played-from-foot: and played a "
                           "turn from it."),
    "going_out.stock_out": ("going_out", "When the stock runs out", "end-hand; "
                            "reshuffle-pile: the pile but its top card becomes a new stock."),
    "going_out.reshuffles": ("going_out", "Reshuffles", "How often the pile may become a "
                             "new stock in one hand (0: as often as needed)."),
    "going_out.hand_ends": ("going_out", "What ends a hand", "going-out: a player going "
                            "out; stock-drawn: only the stock running out."),
    "scores.values": ("scores", "Card values", "What each card counts on the table (and "
                      "against the team when held at the end)."),
    "scores.red_three_held": ("scores", "Red 3 held", "Each red 3 held at the end."),
    "scores.black_three_held": ("scores", "Black 3 held", "Each black 3 held at the end."),
    "scores.clean_book": ("scores", "Clean book", "Each clean book."),
    "scores.dirty_book": ("scores", "Dirty book", "Each dirty book."),
    "scores.wild_book": ("scores", "Wild-card book", "Each book of wild cards."),
    "scores.sequence_book": ("scores", "Sequence book", "Each sequence book."),
    "scores.red_sevens_book": ("scores", "Red 7s book", "A clean book of red 7s only scores "
                               "this instead (0: no such book)."),
    "scores.going_out": ("scores", "Going out", "Points to the team that goes out."),
    "scores.red_three_on_board": ("scores", "Red 3 on the board", "Each red 3 laid on the "
                                  "board."),
    "scores.red_threes_set": ("scores", "Red 3s together", "With this many red 3s on the "
                              "board (0: off), they score the bonus below instead."),
    "scores.red_threes_set_bonus": ("scores", "Red 3s together: bonus", "What they score "
                                    "together."),
    "game.time_limit_minutes": ("clock", "Time limit", "Minutes in a game (0: no clock)."),
    "game.time_warning_minutes": ("clock", "Warning", "Minutes before the end when the "
                                  "table is warned (0: none)."),
    "game.when_time_is_called": ("clock", "When time is called", "end-hand: the hand is "
                                 "scored as it stands, no going-out bonus; finish-hand: "
                                 "it is played out and no new hand starts."),
}


def _kind(section: str, key: str) -> str:
    """How the form asks for a setting: number, yes-no, choice, choices (a list of
    choice words), text, list (numbers as text), values (the card values)."""
    where = f"{section}.{key}"
    if where == "scores.values":
        return "values"
    hint = get_type_hints(SECTIONS[section])[key]
    if hint is bool:
        return "yes-no"
    if hint is int:
        return "number"
    if hint is str:
        return "choice" if where in CHOICES else "text"
    if typing.get_origin(hint) is tuple:
        return "choices" if where in CHOICES else "list"
    raise AssertionError(where)  # pragma: no cover (a new kind of setting)


def _shown(value: Any) -> Any:
    """A value as the form shows it: a list as its items, comma separated."""
    if isinstance(value, list):
        return ", ".join(_item(v) for v in value)
    return value


def _item(v: Any) -> str:
    return "[" + ", ".join(map(str, v)) + "]" if isinstance(v, list) else str(v)


def form(rules: Rules, base: Rules | None = None) -> list[dict[str, Any]]:
    """The form of ``rules``: its groups, each setting with its label, explanation, how
    it is asked for, its words to choose from, its value, and the value in ``base``
    (the preset it starts from; ``rules`` itself if none)."""
    mine, theirs = rules.to_dict(), (base or rules).to_dict()
    groups: dict[str, list[dict[str, Any]]] = {g: [] for g, _ in GROUPS}
    for where, (group, label, help_text) in DESCRIPTIONS.items():
        section, key = where.split(".")
        kind = _kind(section, key)
        value, preset_value = mine[section][key], theirs[section][key]
        if kind == "list":
            value, preset_value = _shown(value), _shown(preset_value)
        choices = list(VALUE_KEYS) if kind == "values" else list(CHOICES.get(where, ()))
        groups[group].append({"setting": where, "label": label, "help": help_text,
                              "kind": kind, "choices": choices,
                              "value": value, "preset": preset_value})
    titles = dict(GROUPS)
    return [{"group": g, "title": titles[g], "settings": s} for g, s in groups.items()]


def settings_from_form(answers: dict[str, Any]) -> dict[str, Any]:
    """A form's changed settings (``"section.key": value``) as the sections of a rule
    set, for :meth:`Rules.from_dict`. A list written as text ("50, 90") is read as a
    TOML list; the values are not checked here (the engine checks them)."""
    out: dict[str, dict[str, Any]] = {}
    for where, value in answers.items():
        if where not in DESCRIPTIONS:
            raise RulesError(f"unknown setting {where!r}")
        section, key = where.split(".")
        if _kind(section, key) == "list" and isinstance(value, str):
            value = _list_from_text(where, value)
        out.setdefault(section, {})[key] = value
    return out


def _list_from_text(where: str, text: str) -> Any:
    """"50, 90" (or "[50, 90]") as [50, 90]; for a list of pairs, "[0, 50], [1500, 90]"."""
    text = text.strip()
    if "\n" in text or "\r" in text:
        raise RulesError(f"{where}: write the list on one line")
    section, key = where.split(".")
    inner = typing.get_args(get_type_hints(SECTIONS[section])[key])[0]
    pairs = typing.get_origin(inner) is tuple
    if text.startswith("[") and text.endswith("]") and (not pairs or text.startswith("[[")):
        text = text[1:-1]
    try:
        return tomllib.loads(f"v = [{text}]")["v"]
    except tomllib.TOMLDecodeError:
        example = "[0, 50], [1500, 90]" if pairs else "50, 90, 120"
        raise RulesError(f"{where} must be a list separated by commas, such as "
                         f"{example}") from None


def setting_named(message: str, settings: list[str]) -> str | None:
    """The setting an engine's refusal is about: the first of ``settings`` (those
    changed) it names, else the first setting of the form it names, else None."""
    named: list[str] = re.findall(r"\b([a-z_]+\.[a-z_]+)\b", message)
    for where in named:
        if where in settings and where in DESCRIPTIONS:
            return where
    for where in named:
        if where in DESCRIPTIONS:
            return where
    return None


def described_everywhere() -> list[str]:
    """The settings of the rules that have no description (none, when this table is
    up to date): a test keeps the form whole."""
    every = [f"{name}.{f.name}" for name, cls in SECTIONS.items()
             for f in dataclasses.fields(cls)]
    return [w for w in every if w not in DESCRIPTIONS]

