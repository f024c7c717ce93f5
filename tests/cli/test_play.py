"""``handfoot play``: a person at the terminal with a bot partner against two bots,
driven through its input and read from its output."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence

import pytest
from rich.console import Console

from handfoot.actions import ASK, Action, AnswerGoOut, parse_action
from handfoot.bots import BOTS, LEVELS
from handfoot.bots.heuristic import HeuristicBot
from handfoot.cards import card_code, format_card, format_cards, parse_card, sort_cards, sort_key
from handfoot.cli import main
from handfoot.cli.terminal import TerminalGame, level_bot
from handfoot.engine import IllegalAction, Phase
from handfoot.game.views import View, seat_view
from handfoot.rules import preset

ARGS = ["play", "--variant", "texas-good-sam", "--seed", "3", "--partner", "easy",
        "--opponents", "easy"]


class AskerBot(HeuristicBot):
    """Asks to go out whenever it may; otherwise plays as ``medium``."""

    name = "asker"

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        return ASK if ASK in legal else super().choose(view, legal)


def first_view() -> tuple[TerminalGame, View]:
    """The game of ARGS as it stands when the person is first asked to move."""
    t = TerminalGame(preset("texas-good-sam"), 3, "easy", "easy",
                     console=Console(file=io.StringIO()))
    g = t.game
    while g.actor != 0:
        g.apply(t.bots[g.actor].choose(None, g.legal_actions()), g.actor)
    return t, seat_view(g, 0)


def test_levels_are_the_bots_levels() -> None:
    assert [level_bot(x) for x in ("easy", "medium", "hard")] == [
        LEVELS["easy"], LEVELS["medium"], LEVELS["hard"]] == ["random", "heuristic", "expert"]
    assert level_bot("random") == "random"
    with pytest.raises(ValueError, match="no level or bot called 'genius'"):
        level_bot("genius")


def test_a_hand_played_through_stdin(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    game, view = first_view()
    with pytest.raises(IllegalAction) as refused:
        game.game.verify(parse_action("lay 4H 4D 4S"), 0)
    legal = [a.notation() for a in game.game.legal_actions()]
    monkeypatch.setattr("sys.stdin", io.StringIO("help\nbogus\ndiscard ZZ\nlay 4H 4D 4S\n"))
    assert main([*ARGS, "--autoplay"]) == 0
    out = capsys.readouterr().out

    # the table before the first move: the pile, the stock, the others' cards, the hand
    hand = sort_cards(view.hand)
    assert f"Your hand ({len(hand)} cards): {format_cards(hand)}\n" in out
    assert f"  to type: {' '.join(card_code(c) for c in hand)}\n" in out
    assert view.pile_top is not None
    assert f"Pile: {format_card(view.pile_top)} on top, {view.pile_size} cards" in out
    assert f"Stock: {view.stock_size} cards\n" in out
    for p in view.players[1:]:
        assert f"({'partner' if p.seat == 2 else 'opponent'}): {p.hand_count} cards in hand" \
            in out
    # every hand shown is sorted by rank
    shown = re.findall(r"^  to type: (.*)$", out, re.M)
    assert len(shown) > 10
    for line in shown:
        cards = [parse_card(c) for c in line.split()]
        assert cards == sorted(cards, key=sort_key)

    # help lists the legal actions in notation; errors are the engine's own words
    assert "your move> help\n" in out
    for i, notation in enumerate(legal, 1):
        assert f"{i:>5}. {notation}\n" in out
    assert "Not allowed: 'bogus' is not an action." in out
    assert "Not allowed: 'zz' is not a card" in out
    assert f"Not allowed: {refused.value}\n" in out
    # then the first legal action each time, until the hand (the whole game) is over
    assert "(auto) draw\nYou draw " in out
    assert "Hand 1 is over: " in out
    table = out[out.index("Hand 1 is over: "):]
    assert "Us (seats 1 & 3)" in table and "Them (seats 2 & 4)" in table
    assert "Cards on the table" in table
    totals = re.search(r"Totals: Us \(seats 1 & 3\) (-?\d+)   Them \(seats 2 & 4\) (-?\d+)",
                       table)
    assert totals is not None
    total_row = re.search(r"Total\s*│\s*(-?\d+)\s*│\s*(-?\d+)", table)
    assert total_row is not None and total_row.groups() == totals.groups()
    assert "Game over: " in out
    # bots' turns are one line each
    assert re.search(r"^Seat 2 \(opponent\): draws; .*discards .*\.$", out, re.M)


def test_answering_a_partner_who_asks_to_go_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "asker", AskerBot)
    buf = io.StringIO()
    answers = ["maybe", "y"]
    prompts: list[str] = []
    t: TerminalGame | None = None

    def read(prompt: str) -> str:
        assert t is not None
        prompts.append(prompt)
        if prompt.startswith("yes or no"):
            return answers.pop(0) if answers else "quit"
        if not answers:
            return "quit"
        game = t.game
        return HeuristicBot().choose(seat_view(game, 0), game.legal_actions()).notation()

    t = TerminalGame(preset("six-deck"), 1, "asker", "easy", read=read,
                     console=Console(file=buf, width=100))
    assert t.run() == 0
    out = buf.getvalue()
    assert "yes or no> " in prompts
    assert "Seat 3 (partner): " in out and "asks to go out." in out
    assert "Your partner asks to go out. Do you agree? (yes or no)" in out
    assert "Your partner is waiting for your answer: type yes or no." in out
    assert "You agree to going out." in out
    answered = [(s, a) for r in t.game.results for s, a in r.actions] + t.game.hand.history
    assert (0, AnswerGoOut(True)) in answered


@pytest.mark.parametrize("text", ["quit\n", ""])
def test_leaving(text: str, monkeypatch: pytest.MonkeyPatch,
                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(ARGS) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("You left the game.") and "Hand 1 is over" not in out


def test_a_number_from_the_help_list(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n99\nquit\n"))
    assert main(ARGS) == 0
    out = capsys.readouterr().out
    assert "your move> 1\nYou draw " in out
    assert "There is no action number 99" in out


def test_unknown_level_or_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--partner", "genius"]) == 2
    assert "no level or bot called 'genius'" in capsys.readouterr().err
    assert main(["play", "--variant", "nowhere"]) == 2
    assert capsys.readouterr().err.startswith("handfoot: ")


def test_laying_out_an_opening_at_the_terminal() -> None:
    """A meld laid out shows as not down yet, with what it is worth; 'back 1' takes it
    back; then the person discards."""
    t, _ = first_view()
    buf = io.StringIO()
    t.console = Console(file=buf, width=100)
    said: list[str] = []

    def read(prompt: str) -> str:
        g = t.game
        legal = g.legal_actions()
        if g.hand.phase == Phase.DRAW or (said and said[-1].startswith("discard")):
            said.append("draw" if not said else "quit")
        elif not said or said[-1] == "draw":
            meld = next((a for a in legal if a.kind == "meld"), None)
            said.append(meld.notation() if meld is not None else "quit")
        elif said[-1].startswith("meld"):
            said.append("back 1")
        else:
            said.append(next(a for a in legal if a.kind == "discard").notation())
        return said[-1]

    t.read = read
    assert t.run() == 0
    assert said[1].startswith("meld"), "the seeded deal lays out a meld after drawing"
    out = buf.getvalue()
    assert "laid out for the opening, not down yet:" in out
    assert "('down' goes down, 'back N' takes meld N back)" in out
    kinds = [a.kind for s, a in t.game.hand.history if s == 0]
    assert kinds[:4] == ["draw", "meld", "take-back", "discard"]
