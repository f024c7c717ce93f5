"""Help at the table: the rule set in plain words, and the hint (the medium computer
player's move and why), which names no card the player cannot see."""

from __future__ import annotations

import random
import re

import pytest

from handfoot.bots.heuristic import HeuristicBot
from handfoot.bots.hint import hint_text
from handfoot.cards import format_card
from handfoot.game import Game
from handfoot.rules import PRESET_NAMES, preset
from handfoot.rules.words import rules_in_words

CARD = re.compile(r"(10|[2-9JQKA])[♣♦♥♠]|Joker")


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_each_rule_set_is_told_from_its_own_settings(name: str) -> None:
    rules = preset(name)
    lines = rules_in_words(rules)
    text = " ".join(lines)
    assert all((line[0].isupper() or line[0].isdigit()) and line.endswith(".") for line in lines)
    assert f"{rules.deal.hand_size} cards" in text
    assert f"{rules.meld.book_size} cards make a {rules.words.book}" in text
    assert str(rules.scores.clean_book) in text and str(rules.scores.going_out) in text
    assert rules.words.name("clean", 2 if rules.going_out.clean_books > 1 else 1) in text


def test_a_house_rule_shows_up_in_the_words() -> None:
    rules = preset("classic")
    changed = rules.from_toml("[pile]\nbefore_opening = \"never\"\n[scores]\ngoing_out = 250\n",
                              base=rules)
    text = " ".join(rules_in_words(changed))
    assert "going out 250" in text
    assert "must have opened before it can take the pile" in text
    assert "must have opened" not in " ".join(rules_in_words(rules))


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_hint_is_the_medium_player_s_move_and_names_only_cards_seen(name: str) -> None:
    game = Game(preset(name), seed=8)
    rng = random.Random(8)
    hinted = 0
    for _ in range(250):
        if game.over:
            break
        legal = game.legal_actions()
        hint = hint_text(legal)
        # the same move the medium computer player makes
        expected = HeuristicBot(0).choose(None, game.legal_actions())
        assert hint["action"]["type"] == expected.kind
        text = hint["text"]
        assert text[0].isupper() and text.endswith(".") and "\n" not in text
        hand = game.hand
        seen = {format_card(c) for c in hand.hand_cards(hand.actor)}
        seen |= {format_card(c) for t in range(hand.teams) for m in hand.melds[t]
                 for c in m.cards}
        if hand.pile:
            seen.add(format_card(hand.pile[-1]))
        for a, b in hand.stacks or ():
            seen |= {format_card(a[0]), format_card(b[0])}
        for shown in CARD.finditer(text):
            assert shown.group(0) in seen, (text, seen)
        hinted += 1
        game.apply(rng.choice(game.legal_actions()))
    assert hinted > 50
