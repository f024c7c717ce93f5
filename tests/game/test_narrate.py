"""The move log: each move in players' words, told to each viewer without a hidden card."""

from __future__ import annotations

import random
import re

import pytest

from handfoot.actions import DRAW, Action, Discard, LayDown, TakePile
from handfoot.cards import Card, format_card, parse_cards
from handfoot.game import Game
from handfoot.game.narrate import narrate, play, who
from handfoot.rules import PRESET_NAMES, preset
from handfoot.testing import stacked_deal

NAMES = ["Ann", "Computer 2", "Cy", "Computer 4"]
CARD = re.compile(r"(10|[2-9JQKA])[♣♦♥♠]|Joker")


def test_who_is_told_from_the_viewer_s_seat() -> None:
    team_of = (0, 1, 0, 1)
    assert who(0, 0, team_of, NAMES) == "You"
    assert who(2, 0, team_of, NAMES) == "Cy (your partner)"
    assert who(2, 0, team_of) == "Your partner"  # a partner without a name
    assert who(1, 0, team_of, NAMES) == "Computer 2"
    assert who(1, None, team_of, NAMES) == "Computer 2"
    assert who(3, 0, team_of) == "Player 4"
    # two teams of three: each partner by name
    assert who(2, 0, (0, 1, 0, 1, 0, 1), NAMES) == "Your partner Cy"


def _game(hands: dict[int, str], stock: str = "", upcard: str | None = None) -> Game:
    rules = preset("classic")
    deal = stacked_deal(rules, hands=hands, stock=stock, upcard=upcard)
    return Game(rules, deals=[deal] * rules.game.hands)


def test_a_draw_shows_its_cards_to_the_player_only() -> None:
    game = _game({0: "4C 4D 4H 5C 5D 5H 6C 6D 6H 7C 7D"}, stock="9H KS")
    move = play(game, 0, DRAW)
    assert narrate(move, 0, NAMES) == "You drew 9♥ K♠"
    assert narrate(move, 2, NAMES) == "Ann (your partner) drew 2 cards"
    assert narrate(move, 2) == "Your partner drew 2 cards"
    assert narrate(move, 1, NAMES) == "Ann drew 2 cards"
    assert narrate(move, None, NAMES) == "Ann drew 2 cards"


def test_the_opening_is_told_with_its_melds_and_points() -> None:
    game = _game({0: "QC QD QH KC KD KH 7C 7D 7H 8S 9S"}, stock="4H 5S")
    play(game, 0, DRAW)
    melds = LayDown((parse_cards("QC QD QH"), parse_cards("KC KD KH"), parse_cards("7C 7D 7H")))
    move = play(game, 0, melds)
    points = sum(game.rules.card_value[c] for m in melds.melds for c in m)
    assert move.points == points and move.opened and move.melds_laid == 3
    assert narrate(move, 2, NAMES) == \
        f"Ann (your partner) laid down 3 melds for {points} (their opening)"
    assert narrate(move, 0, NAMES) == f"You laid down 3 melds for {points} (your opening)"
    move = play(game, 0, Discard(parse_cards("9S")[0]))
    assert narrate(move, 1, NAMES) == "Ann discarded 9♠"


def test_taking_the_pile_names_its_size_and_the_shown_cards() -> None:
    rules = preset("classic")
    game = _game({0: "5H 5C 6C 7D 8S 9H 10C JD QS KH AC",
                  3: "4C 4D 4H 6D 6H 7C 7H 8C 9D 10D 5D"}, stock="JC JS QC QD")
    # seat 0 opens first: draw, discard; then seats 1 and 2 draw and discard; seat 3
    # throws a 5 for seat 0 to take
    game.hand.opened[0] = True  # the team has opened: a pair takes the pile
    play(game, 0, DRAW)
    play(game, 0, Discard(parse_cards("JC")[0]))
    for seat in (1, 2):
        play(game, seat, DRAW)
        play(game, seat, Discard(game.hand.hand_cards(seat)[0]))
    play(game, 3, DRAW)
    play(game, 3, Discard(parse_cards("5D")[0]))
    size = len(game.hand.pile)
    count = rules.pile_take_counts(size).start
    take = next(a for a in game.legal_actions() if isinstance(a, TakePile))
    move = play(game, 0, take)
    text = narrate(move, 3, NAMES)
    assert text.startswith(f"Ann took the pile ({count} cards, 5♦ on top) with ")
    assert text.endswith(" ".join(format_card(c) for c in take.shown))


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_whole_game_is_told_without_a_hidden_card(name: str) -> None:
    """Every sentence told to a seat names only cards that seat saw: its own cards, cards
    on the table or the pile's top. A random game, every move, every viewer."""
    game = Game(preset(name), seed=21)
    rng = random.Random(4)
    seats = game.rules.players.seats
    told = 0
    for _ in range(400):
        if game.over:
            break
        actor = game.actor
        action = rng.choice(game.legal_actions())
        hands_before = [game.hand.hand_cards(s) for s in range(seats)]
        top = game.hand.pile_top
        move = play(game, actor, action)
        for viewer in [*range(seats), None]:
            text = narrate(move, viewer, NAMES[:seats] if seats == 4 else None)
            assert text and text[0].isupper() and "None" not in text
            told += 1
            if viewer == actor:
                continue
            # a draw tells the others a number only
            if action == DRAW:
                assert not CARD.search(text), text
            # any card named is public: laid or shown by the action, or the pile's top
            public = {format_card(c) for c in _cards_of(action)}
            if top is not None:
                public.add(format_card(top))
            for shown in CARD.finditer(text):
                assert shown.group(0) in public, (text, public, hands_before[actor])
    assert told > 100


def test_going_out_is_told() -> None:
    game = Game(preset("classic"), seed=2)
    rng = random.Random(9)
    seen = []
    while not game.over and len(game.results) == 0:
        actor = game.actor
        move = play(game, actor, rng.choice(game.legal_actions()))
        seen.append(narrate(move, (actor + 1) % 4, NAMES))
    result = game.results[0]
    if result.ended_by == "out":
        assert seen[-1].endswith("went out")
    else:
        assert "the hand is over" in seen[-1]


def _cards_of(action: Action) -> list[Card]:
    """The cards an action shows the table."""
    out: list[Card] = []
    for name in ("shown", "cards"):
        out.extend(getattr(action, name, ()))
    for name in ("opening", "melds"):
        for meld in getattr(action, name, ()):
            out.extend(meld)
    if isinstance(action, Discard):
        out.append(action.card)
    return out
