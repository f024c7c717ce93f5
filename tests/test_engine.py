"""General engine behaviour not tied to one sheet's sentence."""

from __future__ import annotations

import pytest

from handfoot.actions import Discard, Draw, LayDown, parse_action
from handfoot.cards import parse_card, parse_cards
from handfoot.engine import BadMeld, Hand, NotYourTurn, WrongPhase
from handfoot.rules import preset
from handfoot.testing import put_meld, stacked_deal
from helpers import snapshot


def test_an_action_out_of_turn_is_refused_and_changes_nothing() -> None:
    rules = preset("texas-good-sam")
    hand = Hand(rules, stacked_deal(rules, first_seat=0))
    before = snapshot(hand)
    with pytest.raises(NotYourTurn, match="seat 1 is playing"):
        hand.apply(Draw(), seat=2)
    assert snapshot(hand) == before


def test_discarding_before_drawing_is_refused() -> None:
    rules = preset("classic")
    hand = Hand(rules, stacked_deal(rules, hands={0: "7H"}))
    before = snapshot(hand)
    with pytest.raises(WrongPhase, match="Draw first"):
        hand.apply(Discard(parse_card("7H")))
    assert snapshot(hand) == before


def test_a_wild_card_meld_laid_with_a_dirty_meld_blocks_its_wilds_whatever_the_order() -> None:
    # samba: "once the wild card canasta has been started, no wild cards can be laid down
    # on other melds until the wild card canasta is complete": started in the same
    # lay-down counts as started.
    rules = preset("samba")
    for dirty in ("KH KD 2S", "KH KD KS KC 2S"):  # shorter and longer than the wild meld
        hand = Hand(rules, stacked_deal(
            rules, hands={0: "2C 2D JK JK KH KD KS KC 2S AH AD AS 4C"}, stock="5C 6C"))
        hand.apply(Draw())
        before = snapshot(hand)
        with pytest.raises(BadMeld, match="wild-card meld is open"):
            hand.apply(LayDown((parse_cards("2C 2D JK JK"), parse_cards(dirty))))
        assert snapshot(hand) == before
        hand.apply(LayDown((parse_cards("2C 2D JK JK"), parse_cards("KH KD KS"))))
        assert [len(m.cards) for m in hand.melds[0]] == [4, 3]


def test_legal_actions_list_interchangeable_discards_once() -> None:
    rules = preset("texas-good-sam")
    hand = Hand(rules, stacked_deal(rules, hands={0: "7H 7D 7S 7C 2C 2D 2H KH KD QS JK"},
                                    stock="4C 4D"))
    hand.apply(Draw())
    discards = [a for a in hand.legal_actions() if isinstance(a, Discard)]
    # Suits do not matter in texas-good-sam: one 7, one 4, one 2, one K, Q, joker.
    assert sorted(a.notation() for a in discards) == sorted(
        ["discard 7C", "discard 4C", "discard 2C", "discard KD", "discard QS", "discard JK"])


def test_legal_actions_keep_suits_apart_where_sequences_make_them_matter() -> None:
    rules = preset("samba")
    hand = Hand(rules, stacked_deal(rules, hands={0: "7H 7D 7S 7C 2C 2D 2H KH KD QS JK 5H 6H"},
                                    stock="4C 4D"))
    hand.apply(Draw())
    discards = {a.notation() for a in hand.legal_actions() if isinstance(a, Discard)}
    assert {"discard 7C", "discard 7D", "discard 7H", "discard 7S"} <= discards


def test_a_complete_book_and_a_new_meld_of_its_rank_may_be_laid_together() -> None:
    rules = preset("six-deck")
    hand = Hand(rules, stacked_deal(
        rules, hands={0: "QH QD QS QC QH QD QS QC QH QD 5C"}, stock="9C 9D"))
    hand.apply(Draw())
    action = parse_action("lay QH QD QS QC QH QD QS | QC QH QD")
    # Suits do not matter here, so legal_actions() lists this lay-down once, in its own suits.
    assert any(isinstance(a, LayDown) and sorted(len(m) for m in a.melds) == [3, 7]
               for a in hand.legal_actions())
    hand.apply(action)
    assert sorted(len(m.cards) for m in hand.melds[0]) == [3, 7]


def test_put_meld_takes_the_cards_out_of_the_stock() -> None:
    rules = preset("classic")
    hand = Hand(rules, stacked_deal(rules, reserve="9H 9D 9S"))
    census = hand.card_census()
    put_meld(hand, 0, "9H 9D 9S")
    assert hand.card_census() == census and hand.opened[0]
