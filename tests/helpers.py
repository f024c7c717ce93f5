"""Shared test helpers: a snapshot of everything in a hand, for "nothing changed" checks,
the check that a refused action changes nothing, and short ways to name melds."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import pytest
from rich.console import Console

from handfoot.actions import Action, LayDown
from handfoot.cards import RANK, parse_card, parse_cards
from handfoot.engine import Hand, IllegalAction
from handfoot.rules import Rules


def snapshot(hand: Hand) -> tuple[Any, ...]:
    """Every piece of a hand's state that an action could change."""
    return (
        [h[:] for h in hand.hands], hand.hand_len[:],
        [None if f is None else f[:] for f in hand.feet], hand.in_foot[:], hand.foot_turns[:],
        [[(m.kind, m.rank, m.suit, m.cards[:], m.size, m.naturals, m.wilds, m.low, m.high)
          for m in ms]
         for ms in hand.melds],
        hand.opened[:], [r[:] for r in hand.red_threes], hand.pile[:], hand.pile_wilds,
        hand.stock[:], hand.phase, hand.seat, hand.actor, hand.turn_number, hand.asked,
        hand.permission, hand.may_end_turn, hand.went_out, hand.ended_by, len(hand.history),
        [k[:] for k in hand.known], hand.foot_known[:], hand.shuffles[:],
    )


def refused(hand: Hand, action: Action, error: type[IllegalAction], seat: int | None = None,
            *, exact: bool = False) -> str:
    """Assert that ``action`` (by ``seat``) is refused with ``error`` and changes nothing
    in the hand's :func:`snapshot`; return the message. A subclass of ``error`` will do,
    unless ``exact``: then it must be ``error`` itself, and ``is_legal`` must say no too."""
    before = snapshot(hand)
    with pytest.raises(IllegalAction if exact else error) as info:
        hand.apply(action, seat)
    if exact:
        assert type(info.value) is error, f"{type(info.value).__name__}: {info.value}"
    assert snapshot(hand) == before
    if exact:
        assert not hand.is_legal(action, seat)
    return str(info.value)


def assert_refused(hand: Hand, action: Action, error: type[IllegalAction],
                   seat: int | None = None) -> str:
    """:func:`refused` with ``exact``: the action is refused with exactly ``error``,
    nothing changes and ``is_legal`` agrees; returns the message."""
    return refused(hand, action, error, seat, exact=True)


def lay(text: str) -> LayDown:
    """Lay down these melds: ``"QH QD QS | 5H 5D 5S"``, melds split by ``|``."""
    return LayDown(tuple(parse_cards(m) for m in text.split("|")))


def meld_index(hand: Hand, team: int, rank_card: str) -> int:
    """Where the team's last meld of this card's rank lies (for ``AddToMeld``)."""
    rank = RANK[parse_card(rank_card)]
    return max(i for i, m in enumerate(hand.melds[team]) if m.rank == rank)


def book_words(rules: Rules, books: Sequence[str]) -> dict[str, Any]:
    """Everywhere a player reads the name of a book. Team 0 has ``books`` on the table;
    seat 0 (its partners too) is in the foot, holds 9C 9D 9H 4C 4D 4H after drawing and
    lays 9C 9D 9H. Returns ``names`` (the table page's label of each complete book, as sent),
    ``to_go_out`` (what the team still needs, on the table page and in the terminal),
    ``refusals`` (melding every card, and asking to go out where the rules ask),
    ``terminal`` (the terminal game's lines for the team) and ``sheet`` (the labels of
    the hand's score)."""
    from handfoot.actions import AskToGoOut, ChooseHand, Draw
    from handfoot.cli.terminal import TerminalGame
    from handfoot.engine import CannotGoOut, Phase
    from handfoot.game import Game
    from handfoot.game.scoring import score_hand
    from handfoot.game.views import seat_view
    from handfoot.testing import put_meld, stacked_deal
    from stacked import put_in_foot

    game = Game(rules, deals=[stacked_deal(rules, reserve=" ".join(books))])
    while game.hand.phase == Phase.CHOOSE:
        game.apply(ChooseHand(0))
    hand = game.hand
    for book in books:
        put_meld(hand, 0, book)
    hand.apply(Draw(), 0)
    for seat in hand.team_seats(0):
        put_in_foot(hand, seat, "9C 9D 9H 4C 4D 4H" if seat == 0 else "KH KD KS")
    hand.apply(lay("9C 9D 9H"), 0)
    refusals = [refused(hand, lay("4C 4D 4H"), CannotGoOut, 0)]
    if rules.going_out.permission:
        refusals.append(refused(hand, AskToGoOut(), CannotGoOut, 0))
    view = seat_view(game, 0)
    console = Console(record=True, width=200, file=io.StringIO())
    TerminalGame(rules, 1, console=console).show_melds(view.teams[0])
    # what the table page is sent (server/static/table-board.js shows book_name)
    sent = view.to_json()["teams"][0]["melds"]
    return {"names": [m["book_name"] for m in sent if m["complete"]],
            "to_go_out": view.teams[0].books_to_go_out, "refusals": refusals,
            "terminal": console.export_text(),
            "sheet": [label for label, _ in score_hand(hand)[0].lines(rules.words)]}
