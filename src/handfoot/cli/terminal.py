"""Playing in the terminal: one person, with a bot partner, against two bots.

The person sits at seat 1, the partner at seat 3, the opponents at seats 2 and 4 (with
more seats, every teammate is a partner bot and everyone else an opponent bot). Before
each of the person's moves the table is shown in plain lines: the score, the pile's top
card and whether it is frozen, the stock, the other players' card counts, both teams'
melds and books, and the hand sorted by rank (also written the way cards are typed).
Actions are typed in the card notation of :mod:`handfoot.actions`; ``help`` lists the
legal ones (a number from that list also works). A refused action shows the engine's
own message. A bot's turn is shown in one line. Each hand ends with the itemised score.

Levels: ``easy`` is the random bot, ``medium`` the heuristic bot and ``hard`` the expert
bot (:data:`handfoot.bots.LEVELS`, the same levels as in the browser).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from rich.console import Console

from handfoot.actions import (
    HELP,
    Action,
    ActionSyntaxError,
    AnswerGoOut,
    ChooseHand,
    Draw,
    parse_action,
)
from handfoot.bots import BOTS, LEVELS, Bot, make_bot, reads_state
from handfoot.cards import card_code, format_card, format_cards, sort_cards
from handfoot.cli.show import describe, score_table
from handfoot.engine import IllegalAction, Phase
from handfoot.game import Game
from handfoot.game.views import TeamView, View, seat_view
from handfoot.rules import Rules

HELP_LIMIT: Final = 40  #: legal actions listed by ``help`` (``help all``: every one)


def level_bot(level: str) -> str:
    """The bot that plays a level (:data:`handfoot.bots.LEVELS`), or a bot named directly.

    >>> level_bot("easy"), level_bot("hard"), level_bot("heuristic")
    ('random', 'expert', 'heuristic')
    """
    name = LEVELS.get(level, level)
    if name not in BOTS:
        raise ValueError(f"there is no level or bot called {level!r}; the levels are "
                         f"{', '.join(LEVELS)} and the bots {', '.join(BOTS)}")
    return name


class Quit(Exception):
    """The person left the game."""


class TerminalGame:
    """A game at the terminal. ``read`` is :func:`input` (or a stand-in for tests);
    with ``autoplay``, once the input runs out the person's seat plays the first legal
    action each time."""

    def __init__(self, rules: Rules, seed: int, partner: str = "easy",
                 opponents: str = "easy", *, console: Console | None = None,
                 read: Callable[[str], str] = input, autoplay: bool = False,
                 echo: bool = False, human: int = 0) -> None:
        self.rules = rules
        self.game = Game(rules, seed)
        self.human = human
        self.team = rules.team_of[human]
        self.console = console or Console(highlight=False)
        self.read = read
        self.autoplay = autoplay
        self.echo = echo  #: repeat what was read (when the input is not a terminal)
        self.shown_turn: tuple[int, int] | None = None
        self.eof = False
        self.bots: dict[int, Bot] = {}
        for s in range(rules.players.seats):
            if s != human:
                level = partner if rules.team_of[s] == self.team else opponents
                self.bots[s] = make_bot(level_bot(level), seed * 31 + s)
        self.hands_seen = 0
        self.pending: list[str] = []  #: what the bot now playing has done this turn
        self.pending_seat: int | None = None

    # ------------------------------------------------------------ output
    def say(self, text: str = "") -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)

    def seat_name(self, seat: int) -> str:
        if seat == self.human:
            return f"Seat {seat + 1} (you)"
        role = "partner" if self.rules.team_of[seat] == self.team else "opponent"
        return f"Seat {seat + 1} ({role})"

    def team_name(self, team: int) -> str:
        seats = " & ".join(str(s + 1) for s in range(self.rules.players.seats)
                           if self.rules.team_of[s] == team)
        who = "Us" if team == self.team else ("Them" if self.rules.players.teams == 2
                                              else f"Team {team + 1}")
        return f"{who} (seats {seats})"

    def show_table(self, view: View, full: bool = True) -> None:
        """The table before the person's move; at the start of a turn (or on 'look')
        all of it, later in the turn only the pile, the team's melds and the hand."""
        whose = "your move" if view.actor == self.human else self.seat_name(view.actor)
        self.console.rule(f"Hand {view.hand_number} of {view.hands_in_game} · {whose} · "
                          f"{view.phase}")
        if not full:
            self.show_ours(view)
            return
        self.say("Score: " + "   ".join(f"{self.team_name(t.team)} {t.total}"
                                        for t in view.teams))
        mins = [t for t in view.teams if not t.opened and t.minimum]
        if mins:
            self.say("To open: " + "   ".join(f"{self.team_name(t.team)} needs {t.minimum}"
                                              for t in mins))
        if view.pile_top is None:
            self.say("Pile: empty")
        else:
            frozen = " (frozen)" if view.pile_frozen and "frozen" in view.pile_frozen else ""
            self.say(f"Pile: {format_card(view.pile_top)} on top, {view.pile_size} "
                     f"card{'s' if view.pile_size != 1 else ''}{frozen}")
            if view.pile_frozen:
                self.say(f"      {view.pile_frozen}")
        self.say(f"Stock: {view.stock_size} cards")
        for p in view.players:
            if p.seat == self.human:
                continue
            foot = "playing from the foot" if p.in_foot else "foot not picked up"
            self.say(f"{self.seat_name(p.seat)}: {p.hand_count} card"
                     f"{'s' if p.hand_count != 1 else ''} in hand, {foot}")
        for t in view.teams:
            if t.team != self.team:
                books = f"{self.rules.words.book}s"
                self.say(f"Their melds and {books}:" if self.rules.players.teams == 2
                         else f"Team {t.team + 1}'s melds and {books}:")
                self.show_melds(t)
        self.show_ours(view)

    def show_melds(self, t: TeamView) -> None:
        if not t.melds:
            self.say("  no melds yet")
        elif not t.opened:
            self.say(f"  laid out for the opening, not down yet: {t.laid_out_points} of "
                     f"{t.minimum} ('down' goes down, 'back N' takes meld N back)")
        for m in t.melds:
            state = m.book_name if m.book_name else \
                f"{m.needs} more for a {self.rules.words.book}"
            self.say(f"  {m.index + 1}. {m.label}: {format_cards(m.cards)}  ({state})")
        if t.red_threes:
            self.say(f"  red 3s: {format_cards(t.red_threes)}")
        if t.books_to_go_out:
            self.say(f"  to go out: {t.books_to_go_out}")

    def show_ours(self, view: View) -> None:
        self.say(f"Our melds and {self.rules.words.book}s:")
        self.show_melds(view.teams[self.team])
        if view.phase == "choose":
            tops = view.stack_tops[self.human]
            self.say(f"Your two stacks: stack 1 shows {format_card(tops[0])}, stack 2 shows "
                     f"{format_card(tops[1])}. Type 'choose 1' or 'choose 2'.")
            return
        me = view.players[self.human]
        hand = sort_cards(view.hand)
        where = "foot" if me.in_foot else "hand"
        self.say(f"Your {where} ({len(hand)} card{'s' if len(hand) != 1 else ''}): "
                 f"{format_cards(hand)}")
        self.say(f"  to type: {' '.join(card_code(c) for c in hand)}")
        if not me.in_foot:
            self.say(f"Your foot: {me.foot_count} cards, not picked up yet")

    def show_help(self, everything: bool = False) -> None:
        legal = list(self.game.legal_actions())
        self.say("You can type any of these now (or its number):")
        shown = legal if everything else legal[:HELP_LIMIT]
        for i, a in enumerate(shown, 1):
            self.say(f"  {i:>3}. {a.notation()}")
        if len(shown) < len(legal):
            self.say(f"  ... and {len(legal) - len(shown)} more: type 'help all' for every one")
        self.say("How actions are written:")
        for line in HELP.splitlines():
            self.say("  " + line)
        self.say("Also: 'look' shows the table again, 'quit' leaves the game.")

    def flush_bot_line(self) -> None:
        if self.pending_seat is not None and self.pending:
            self.say(f"{self.seat_name(self.pending_seat)}: " + "; ".join(self.pending) + ".")
        self.pending = []
        self.pending_seat = None

    def bot_words(self, action: Action) -> str:
        if isinstance(action, AnswerGoOut):
            return "agrees to going out" if action.yes else "says not yet"
        return describe(action)

    # ------------------------------------------------------------ input
    def ask(self, prompt: str) -> str | None:
        if self.eof:
            return None
        try:
            text = self.read(prompt)
        except EOFError:
            self.eof = True
            self.say()
            return None
        if self.echo:
            self.say(text)
        return text

    def human_move(self) -> Action:
        """Read until the person gives a legal action; raises :class:`Quit`."""
        g = self.game
        asked = g.hand.phase == Phase.ASK
        show = True
        full = self.shown_turn != (g.hand_number, g.hand.turn_number)
        self.shown_turn = (g.hand_number, g.hand.turn_number)
        while True:
            if show:
                self.show_table(seat_view(g, self.human), full)
                show = False
            if asked:
                self.say("Your partner asks to go out. Do you agree? (yes or no)")
            text = self.ask("yes or no> " if asked else "your move> ")
            if text is None:
                if not self.autoplay:
                    raise Quit
                action = g.legal_actions()[0]
                self.say(f"(auto) {action.notation()}")
                return action
            words = text.strip().lower()
            if words in ("quit", "exit", "q"):
                raise Quit
            if words in ("", "look", "show", "table"):
                show = full = True
                continue
            if words in ("help", "?", "h", "help all"):
                self.show_help(everything=words == "help all")
                continue
            if asked and words in ("y", "n"):
                words = "yes" if words == "y" else "no"
            if asked and words not in ("yes", "no") and not words.isdigit():
                self.say("Your partner is waiting for your answer: type yes or no.")
                continue
            if words.isdigit():
                legal = list(g.legal_actions())
                k = int(words)
                if 1 <= k <= len(legal):
                    return legal[k - 1]
                self.say(f"There is no action number {k}; type 'help' for the list.")
                continue
            try:
                action = parse_action(words)
                g.verify(action, self.human)
            except (ActionSyntaxError, IllegalAction) as e:
                self.say(f"Not allowed: {e}")
                continue
            return action

    # ------------------------------------------------------------ the game
    def after_action(self) -> None:
        g = self.game
        if len(g.results) <= self.hands_seen:
            return
        self.flush_bot_line()
        r = g.results[-1]
        self.hands_seen = len(g.results)
        how = {"out": f"{self.seat_name(r.went_out or 0)} went out",
               "stock": "the stock ran out", "time": "time was called"}[r.ended_by]
        self.console.rule(f"Hand {r.number} is over: {how}")
        names = [self.team_name(t) for t in range(self.rules.players.teams)]
        self.console.print(score_table(f"Hand {r.number}", names, r.scores, self.rules.words))
        self.say("Totals: " + "   ".join(f"{names[t]} {v}" for t, v in enumerate(g.totals)))

    def run(self) -> int:
        g = self.game
        partners = [str(s + 1) for s in self.bots if self.rules.team_of[s] == self.team]
        self.console.rule(f"{self.rules.title or self.rules.name}: you are seat "
                          f"{self.human + 1}, your partner seat {' & '.join(partners)}")
        self.say("Type 'help' at any time for the moves you can make.")
        try:
            while not g.over:
                seat = g.actor
                if seat == self.human:
                    self.flush_bot_line()
                    before = sort_cards(g.hand.hand_cards(seat))
                    action = self.human_move()
                    g.apply(action, seat)
                    verb, _, rest = self.bot_words(action).partition(" ")
                    line = f"You {verb.removesuffix('s')} {rest}".rstrip()
                    if isinstance(action, ChooseHand):
                        line = f"You take stack {action.stack + 1} as your hand"
                    if isinstance(action, Draw) and not g.results[self.hands_seen:]:
                        got = list(g.hand.hand_cards(seat))
                        for c in before:
                            if c in got:
                                got.remove(c)
                        if got:
                            line += f" {format_cards(got)}"
                    self.say(line + ".")
                else:
                    if self.pending_seat != seat:
                        self.flush_bot_line()
                        self.pending_seat = seat
                    bot = self.bots[seat]
                    view = seat_view(g, seat) if bot.uses_view else None
                    action = bot.choose(view, g.legal_actions(reads_state(bot)))
                    g.apply(action, seat)
                    self.pending.append(self.bot_words(action))
                self.after_action()
        except Quit:
            self.flush_bot_line()
            self.say("You left the game.")
            return 0
        self.flush_bot_line()
        best = max(g.totals)
        if g.winners == [self.team]:
            verdict = "you win"
        elif self.team in g.winners:
            verdict = "a tie"
        else:
            verdict = "you lose"
        self.console.rule(f"Game over: {verdict}")
        self.say("Final score: " + "   ".join(
            f"{self.team_name(t)} {v}{' *' if v == best else ''}"
            for t, v in enumerate(g.totals)))
        return 0
