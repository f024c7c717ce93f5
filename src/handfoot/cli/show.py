"""What the terminal shows: a hand's score table and a move in a few words."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table

from handfoot.actions import Action, AddToMeld, Discard, LayDown, LayMeld, TakeBack, TakePile
from handfoot.cards import format_card, format_cards
from handfoot.game.scoring import TeamScore
from handfoot.rules import Words


def score_table(title: str, names: Sequence[str], scores: Sequence[TeamScore],
                words: Words | None = None) -> Table:
    """The score table of a hand, its books named in the rule set's ``words``."""
    table = Table(title=title)
    table.add_column("")
    for n in names:
        table.add_column(n, justify="right")
    labels: list[str] = []
    for s in scores:
        for label, _ in s.lines(words):
            base = label.split(" (")[0]
            if base not in labels:
                labels.append(base)
    for label in labels:
        row = [label]
        for s in scores:
            found = [p for lab, p in s.lines(words) if lab.split(" (")[0] == label]
            count = [lab for lab, _ in s.lines(words) if lab.split(" (")[0] == label]
            text = str(found[0]) if found else ""
            if count and "(" in count[0]:
                text = count[0][count[0].index("("):] + " " + text
            row.append(text)
        table.add_row(*row)
    table.add_row("Total", *[f"[bold]{s.total}[/bold]" for s in scores])
    return table


def describe(action: Action) -> str:
    if isinstance(action, Discard):
        return f"discards {format_card(action.card)}"
    if isinstance(action, LayDown):
        return "lays down " + " | ".join(format_cards(m) for m in action.melds)
    if isinstance(action, LayMeld):
        return "melds " + format_cards(action.cards)
    if isinstance(action, TakeBack):
        return f"takes laid-out meld {action.meld + 1} back"
    if isinstance(action, AddToMeld):
        return f"adds {format_cards(action.cards)} to meld {action.meld + 1}"
    if isinstance(action, TakePile):
        return "takes the pile" + (f" showing {format_cards(action.shown)}" if action.shown
                                   else "")
    return {"draw": "draws", "take-upcard": "takes the upcard", "pick-up-foot":
            "picks up the foot", "end-turn": "ends the turn", "ask": "asks to go out",
            "choose-hand": "chooses a hand", "go-down": "goes down"}.get(
                action.kind, action.notation())
