"""The `six-deck` preset, sentence by sentence (shared/seeds/004_3efbdc94a0700f95.txt).

Each test is named after the sentence of the sheet it checks; docs/rules/six-deck.md
lists every sentence beside its setting and its test.
"""

from __future__ import annotations

import dataclasses
import functools
import random

import pytest

from handfoot.actions import (
    AddToMeld,
    AnswerGoOut,
    AskToGoOut,
    Discard,
    Draw,
    EndTurn,
    GoDown,
    LayMeld,
    TakePile,
    TakeUpcard,
)
from handfoot.cards import JOKER, parse_card, parse_cards
from handfoot.engine import (
    RANK_MELD,
    BadMeld,
    CannotGoOut,
    CardsNotHeld,
    Deal,
    Hand,
    IllegalAction,
    OpeningTooLow,
    Phase,
    PileNotAvailable,
)
from handfoot.game import Game
from handfoot.game.scoring import score_hand, score_team
from handfoot.rules import Rules, preset
from handfoot.testing import stacked_deal
from helpers import book_words, lay, refused
from stacked import (
    on_table,
    out_with_black_threes,
    phase_of,
    put_in_foot,
    put_pile,
    stacked_hand,
)

RULES = preset("six-deck")


# ---------------------------------------------------------------- helpers
# A stacked hand under these rules; the upcard is 9S unless named.
deal = functools.partial(stacked_hand, RULES, upcard="9S")


def ready_to_go_out(partner_in_foot: bool = True) -> Hand:
    """Team 0 has a red and a black book; seat 0 is in its foot with K K K Q Q and
    draws Q 9; seat 2 is in its foot too (unless told otherwise)."""
    hand = deal(stock="QS 9C")
    on_table(hand, 0, "4C 4D 4H 4S 4C 4D 4H")
    on_table(hand, 0, "8C 8D 8H 8S 2C 2D JK")
    put_in_foot(hand, 0, "KH KD KS QH QD")
    if partner_in_foot:
        put_in_foot(hand, 2, "AH AD 5H")
    hand.apply(Draw(), 0)
    return hand


def go_out(hand: Hand) -> None:
    hand.apply(AskToGoOut(), 0)
    hand.apply(AnswerGoOut(True), 2)
    hand.apply(lay("KH KD KS"), 0)
    hand.apply(lay("QH QD QS"), 0)
    hand.apply(Discard(parse_card("9C")), 0)


# --------------------------------------------------------------- the cards
def test_6_regular_decks_with_jokers() -> None:
    assert RULES.num_decks == 6 and RULES.deck.jokers_per_deck == 2
    assert RULES.num_cards == 324
    census = Hand(RULES, Deal.shuffled(RULES, random.Random(1))).card_census()
    assert sum(census) == 324 and census[JOKER] == 12 and census[parse_card("QS")] == 6


# ---------------------------------------------------------------- object
def test_red_books_count_500_points_and_black_books_300() -> None:
    s = score_team(RULES, 0, [(RANK_MELD, parse_cards("QH QD QS QC QH QD QS")),
                              (RANK_MELD, parse_cards("KH KD KS KC 2H 2D JK"))], ())
    assert (s.clean_books, s.clean_book_points) == (1, 500)
    assert (s.dirty_books, s.dirty_book_points) == (1, 300)
    assert s.total == 500 + 300 + 70 + (40 + 40 + 50)


# --------------------------------------------------------------- melding
def test_a_meld_is_at_least_3_cards_of_the_same_rank() -> None:
    hand = deal(hands={0: "QH QD QS KH KD 5S 6S 7S 9C 9D 4C"}, stock="8C 8D")
    on_table(hand, 0, "AH AD AS")
    hand.apply(Draw(), 0)
    refused(hand, lay("QH QD"), BadMeld, 0)
    refused(hand, lay("5S 6S 7S"), BadMeld, 0)  # no sequences here
    hand.apply(lay("QH QD QS"), 0)
    assert hand.melds[0][-1].rank == 12


def test_a_meld_is_3_naturals_or_2_naturals_and_a_wild_card() -> None:
    hand = deal(hands={0: "QH QD QS KH KD 2C JK 2D AC 9D 4C"}, stock="8C 8D")
    on_table(hand, 0, "6H 6D 6S")
    hand.apply(Draw(), 0)
    refused(hand, lay("AC 2C JK"), BadMeld, 0)  # one natural only
    hand.apply(lay("QH QD QS"), 0)
    hand.apply(lay("KH KD JK"), 0)
    assert [(m.naturals, m.wilds) for m in hand.melds[0][1:]] == [(3, 0), (2, 1)]


def test_3_naturals_or_2_naturals_and_a_wild_so_naturals_always_outnumber_wilds() -> None:
    """"3 naturals or 2 naturals and a wild card ... four (4) naturals with three (3) wild
    cards": at every size a meld holds more naturals than wilds."""
    hand = deal(hands={0: "QH QD 2C JK 2D 2H QS AC 9D 4C 5C"}, stock="8C 8D")
    on_table(hand, 0, "6H 6D 6S")
    hand.apply(Draw(), 0)
    msg = refused(hand, lay("QH QD 2C JK"), BadMeld, 0)
    assert "more natural cards than wild cards" in msg
    refused(hand, lay("QH QD 2C 2D JK"), BadMeld, 0)
    hand.apply(lay("QH QD 2C"), 0)
    refused(hand, AddToMeld(1, parse_cards("2D 2H")), BadMeld, 0)
    refused(hand, AddToMeld(1, parse_cards("JK")), BadMeld, 0)
    hand.apply(AddToMeld(1, parse_cards("QS JK")), 0)
    assert (hand.melds[0][1].naturals, hand.melds[0][1].wilds) == (3, 2)


def test_q_q_2_2_joker_does_not_count_toward_the_opening() -> None:
    hand = deal(hands={0: "QH QD 2C JK 2D KH KD KS 9D 4C 5C"}, stock="8C 8D")
    hand.apply(Draw(), 0)
    refused(hand, lay("QH QD 2C 2D JK"), BadMeld, 0)
    refused(hand, lay("QH QD 2C 2D JK | KH KD KS"), BadMeld, 0)


def test_a_book_is_seven_cards_with_no_wild_worth_500_or_4_naturals_and_3_wilds_300() -> None:
    hand = deal()
    on_table(hand, 0, "QH QD QS QC QH QD QS")
    on_table(hand, 0, "KH KD KS KC 2H 2D JK")
    on_table(hand, 0, "JH JD JS JC JH JD 2S")  # fewer wilds: still a black book
    assert hand.books(0) == (1, 2, 0, 0)
    s = score_team(RULES, 0, [(RANK_MELD, parse_cards("JH JD JS JC JH JD 2S"))], ())
    assert s.dirty_book_points == 300


def test_no_more_than_3_wild_cards_in_a_book() -> None:
    hand = deal(hands={0: "QH QD QS QC 2C 2D 2H JK 9D 4C 5C"}, stock="8C 8D")
    on_table(hand, 0, "6H 6D 6S")
    hand.apply(Draw(), 0)
    refused(hand, lay("QH QD QS QC 2C 2D 2H JK"), BadMeld, 0)
    refused(hand, lay("QH QD QS 2C 2D 2H JK"), BadMeld, 0)
    hand.apply(lay("QH QD QS QC 2C 2D 2H"), 0)
    assert hand.books(0) == (0, 1, 0, 0)


def test_wild_cards_are_jokers_and_deuces_and_cannot_meld_alone() -> None:
    hand = deal(hands={0: "2C 2D JK 2H QD QS QC 8H 9D 4C 5C"}, stock="8C 8D")
    on_table(hand, 0, "6H 6D 6S")
    hand.apply(Draw(), 0)
    msg = refused(hand, lay("2C 2D JK"), BadMeld, 0)
    assert "Wild cards cannot make a meld" in msg


# -------------------------------------------------------------- the play
def test_high_card_draw_to_determine_first_dealer() -> None:
    assert RULES.deal.first_player == "rotate"
    firsts = {Deal.shuffled(RULES, random.Random(seed)).first_seat for seed in range(40)}
    assert firsts == {0, 1, 2, 3}  # chance decides
    hand = deal(first_seat=2)
    assert hand.actor == 2


def test_each_player_draws_22_cards_two_stacks_of_eleven() -> None:
    assert (RULES.deal.hand_size, RULES.deal.foot_size) == (11, 11)
    hand = Hand(RULES, Deal.shuffled(RULES, random.Random(3)))
    assert hand.hand_len == [11, 11, 11, 11]
    assert [len(f or []) for f in hand.feet] == [11, 11, 11, 11]


def test_the_22_cards_are_counted_so_no_bonus_for_an_exact_grab() -> None:
    assert RULES.deal.exact_grab_bonus == 0
    hand = deal(grabs=(22, 22, 22, 22))
    hand.call_time()
    assert [s.deal_bonus for s in score_hand(hand)] == [0, 0]


def test_without_looking_one_stack_becomes_the_foot_the_other_the_playing_hand() -> None:
    assert RULES.deal.choose_hand == "blind"
    hand = deal(feet={0: "AH AD AS 4C 4D 4H 5C 5D 5H 6C 6D"}, stock="8C 8D")
    assert hand.phase == Phase.DRAW and hand.foot_known == [None] * 4
    on_table(hand, 0, "KH KD KS")
    hand.apply(Draw(), 0)
    refused(hand, lay("AH AD AS"), IllegalAction, 0)  # the foot is not in the hand


def test_the_remaining_cards_are_placed_in_2_piles_with_room_for_a_discard_pile() -> None:
    hand = deal(upcard="KH")
    assert len(hand.stock) == 324 - 4 * 22 - 1


def test_a_card_is_turned_up_to_begin_the_discard_pile() -> None:
    assert RULES.deal.upcard and RULES.deal.upcard_turn_back == ()
    hand = deal(upcard="KH")
    assert hand.pile == [parse_card("KH")]
    assert deal(upcard="JK").pile == [JOKER]  # a wild or 3 is not turned back


def test_the_starting_player_may_pick_up_that_card_and_not_have_to_discard() -> None:
    assert RULES.turn.first_turn_upcard == "take-no-discard"
    hand = deal(hands={0: "QH QD QS KH KD 5S 6S 7S 9C 9D 4C"}, upcard="KS")
    hand.apply(TakeUpcard(), 0)
    assert hand.hand_len[0] == 12 and hand.pile == []
    hand.apply(EndTurn(), 0)
    assert hand.actor == 1 and hand.hand_len[0] == 12 and hand.pile == []


def test_after_taking_the_upcard_the_starting_player_may_play_and_may_discard() -> None:
    hand = deal(hands={0: "QH QD QS KH KD 5S 6S 7S 9C 9D 4C"}, upcard="KS")
    hand.apply(TakeUpcard(), 0)
    hand.apply(lay("QH QD QS | KH KD KS"), 0)  # 60 points
    hand.apply(Discard(parse_card("4C")), 0)
    assert hand.pile == [parse_card("4C")] and hand.actor == 1


def test_or_he_may_draw_and_when_finished_playing_discard() -> None:
    hand = deal(hands={0: "QH QD QS KH KD 5S 6S 7S 9C 9D 4C"}, upcard="KS", stock="8C 8D")
    hand.apply(Draw(), 0)
    refused(hand, EndTurn(), IllegalAction, 0)
    hand.apply(Discard(parse_card("4C")), 0)
    assert hand.pile == list(parse_cards("KS 4C"))
    refused(hand, TakeUpcard(), IllegalAction, 1)  # only the starting player


@pytest.mark.parametrize("upcard", ["3C", "3H", "2D", "JK"])
def test_a_3_or_a_wild_turned_up_to_begin_the_discard_pile_freezes_it(upcard: str) -> None:
    """"A card is turned up to begin the discard pile"; "A black three or a red three
    freezes the discard pile from pickup"; "freeze the pile with a wild card": the
    starting player may not take a 3 or a wild turned up, and must draw."""
    hand = deal(hands={0: "QH QD QS KH KD 5S 6S 7S 9C 9D 4C"}, upcard=upcard, stock="8C 8D")
    msg = refused(hand, TakeUpcard(), PileNotAvailable, 0)
    assert "freezes the pile" in msg
    assert TakeUpcard() not in hand.legal_actions()
    hand.apply(Draw(), 0)
    assert hand.pile == [parse_card(upcard)]


def test_thereafter_players_draw_two_cards() -> None:
    hand = deal(stock="8C 8D 10H 10S")
    hand.apply(Draw(), 0)
    hand.apply(Discard(parse_card("8C")), 0)
    hand.apply(Draw(), 1)
    assert hand.hand_len[1] == 13 and hand.hands[1][parse_card("10H")] >= 1


def test_or_pick_up_the_discard_pile_if_it_has_a_five_card_minimum() -> None:
    assert RULES.pile.min_size == 5
    hand = deal(hands={0: "QH QD KH KD KS 5S 6S 7S 9C 9D 4C"})
    on_table(hand, 0, "AH AD AS")
    put_pile(hand, "4H 5H 6H QS")
    msg = refused(hand, TakePile(parse_cards("QH QD")), PileNotAvailable, 0)
    assert "at least 5" in msg
    put_pile(hand, "4H 5H 6H 7H QS")
    hand.apply(TakePile(parse_cards("QH QD")), 0)
    assert hand.pile == []


def test_the_whole_discard_pile_is_picked_up() -> None:
    assert (RULES.pile.take_min, RULES.pile.take_max) == (0, 0)
    hand = deal(hands={0: "QH QD KH KD KS 5S 6S 7S 9C 9D 4C"})
    on_table(hand, 0, "AH AD AS")
    put_pile(hand, "4H 5H 6H 7H 8H 9H 10H JH QS")
    refused(hand, TakePile(parse_cards("QH QD"), 5), PileNotAvailable, 0)
    hand.apply(TakePile(parse_cards("QH QD")), 0)
    assert hand.pile == [] and hand.hand_len[0] == 11 - 2 + 8


def test_to_pick_up_the_pile_the_player_must_have_two_naturals() -> None:
    hand = deal(hands={0: "QH 2D JK KD KS 5S 6S 7S 9C 9D 4C"})
    on_table(hand, 0, "AH AD AS")
    on_table(hand, 0, "QC QC QC")
    put_pile(hand, "4H 5H 6H 7H QS")
    refused(hand, TakePile(parse_cards("QH 2D")), PileNotAvailable, 0)
    refused(hand, TakePile(()), PileNotAvailable, 0)  # a meld on the table is not enough
    refused(hand, TakePile(parse_cards("KD KS")), PileNotAvailable, 0)


def test_then_proceed_playing_and_discard() -> None:
    hand = deal(hands={0: "QH QD KH KD KS 5S 6S 7S 9C 9D 4C"})
    on_table(hand, 0, "AH AD AS")
    put_pile(hand, "4H 5H 6H 7H QS")
    hand.apply(TakePile(parse_cards("QH QD")), 0)
    assert hand.phase == Phase.PLAY
    refused(hand, EndTurn(), IllegalAction, 0)
    hand.apply(Discard(parse_card("4C")), 0)
    assert hand.actor == 1


def test_melding_with_the_pile_only_the_top_card_may_be_used_in_the_meld() -> None:
    assert RULES.pile.before_opening == "with-opening"
    hand = deal(hands={0: "QH QD KH KD 5S 6S 7S 9C 9D 4C 4D"})
    put_pile(hand, "KS 8H 8D 8S QS")
    # an opening of Q Q Q (30) + K K K needs the pile's K: refused
    refused(hand, TakePile(parse_cards("QH QD"), opening=(parse_cards("KH KD KS"),)),
            CardsNotHeld, 0)
    msg = refused(hand, TakePile(parse_cards("QH QD")), OpeningTooLow, 0)  # 30 < 50
    assert "50 points" in msg
    assert hand.hands[0][parse_card("KS")] == 0


def test_the_two_naturals_are_shown_and_only_the_top_card_goes_on_an_open_meld() -> None:
    """"the player must have two naturals in his/her hand ... only the top card may be
    used in the meld": with a meld of the rank open, the top card goes onto it alone and
    the two naturals, only shown, stay in the hand."""
    assert RULES.pile.shown_cards == "kept"
    hand = deal(hands={0: "QH QD KH KD KS 5S 6S 7S 9C 9D 4C"})
    on_table(hand, 0, "QC QC 2C")
    put_pile(hand, "4H 5H 6H 7H QS")
    hand.apply(TakePile(parse_cards("QH QD")), 0)
    assert sorted(hand.melds[0][0].cards) == sorted(parse_cards("QC QC 2C QS"))
    assert hand.hands[0][parse_card("QH")] == 1 and hand.hands[0][parse_card("QD")] == 1
    assert hand.hand_len[0] == 11 + 4


def test_after_laying_down_he_may_play_the_other_cards_picked_up_from_the_pile() -> None:
    hand = deal(hands={0: "QH QD KH KD 2C 6S 7S 9C 9D 4C 4D"})
    put_pile(hand, "KS 8H 8D 8S QS")
    hand.apply(TakePile(parse_cards("QH QD"), opening=(parse_cards("KH KD 2C"),)), 0)  # 70
    assert hand.opened[0]
    hand.apply(lay("8H 8D 8S"), 0)  # the pile's cards, now in the hand
    hand.apply(AddToMeld(next(i for i, m in enumerate(hand.melds[0]) if m.rank == 13),
                         parse_cards("KS")), 0)
    assert sorted(len(m.cards) for m in hand.melds[0]) == [3, 3, 4]


def test_partners_play_on_their_cards_and_opponents_on_their_own() -> None:
    hand = deal(hands={0: "QH QD KH KD 2C 6S 7S 9C 9D 4C 4D"}, stock="8C 8D")
    on_table(hand, 1, "KS KC KC")  # the opponents' kings
    on_table(hand, 0, "QS QC QC")
    hand.apply(Draw(), 0)
    hand.apply(AddToMeld(0, parse_cards("QH")), 0)  # index 0 is the team's own meld
    refused(hand, AddToMeld(0, parse_cards("KH")), BadMeld, 0)
    refused(hand, AddToMeld(1, parse_cards("KH")), BadMeld, 0)  # no meld 2 of one's own
    assert len(hand.melds[1][0].cards) == 3


def test_a_black_three_or_a_red_three_freezes_the_discard_pile_from_pickup() -> None:
    for three in ("3C", "3H"):
        hand = deal(hands={0: f"{three} KD KS QH QD QS JH JD JS 9C 9D",
                           1: "9H 9S 4C 5C 6C 7C 8C 10C JC KC AC"},
                    stock="8C 8D 4S 5S")
        on_table(hand, 1, "AH AD AS")
        put_pile(hand, "5H 6H 8D 9D")
        hand.apply(Draw(), 0)
        hand.apply(Discard(parse_card(three)), 0)
        msg = refused(hand, TakePile(parse_cards("9H 9S")), PileNotAvailable, 1)
        assert "a 3" in msg


def test_sometimes_you_have_to_freeze_the_pile_with_a_wild_card() -> None:
    hand = deal(hands={0: "2C KD KS QH QD QS JH JD JS 9C 9D",
                       1: "9H 9S 4C 5C 6C 7C 8C 10C JC KC AC"},
                stock="8C 8D 4S 5S")
    on_table(hand, 1, "AH AD AS")
    put_pile(hand, "5H 6H 8D 9D")
    hand.apply(Draw(), 0)
    hand.apply(Discard(parse_card("2C")), 0)
    msg = refused(hand, TakePile(parse_cards("9H 9S")), PileNotAvailable, 1)
    assert "wild card" in msg


# ---------------------------------------------------------- initial meld
@pytest.mark.parametrize(("card", "points"), [
    ("JK", 50), ("2C", 20), ("AH", 20), ("KS", 10), ("QD", 10), ("JC", 10), ("10H", 10),
    ("9S", 10), ("8D", 10), ("7C", 5), ("6H", 5), ("5S", 5), ("4D", 5),
])
def test_joker_50_deuce_and_ace_20_kings_thru_8_10_7_thru_4_5(card: str, points: int) -> None:
    c = parse_card(card)
    assert RULES.card_value[c] == points
    assert score_team(RULES, 0, [], [c]).total == -points


def test_black_3s_5_points() -> None:
    s = score_team(RULES, 0, [], parse_cards("3C 3S"))
    assert s.threes == -10 and s.total == -10
    # The preset's reading: black 3s are never melded, so they only count when held.
    assert RULES.threes.black_melded == "never"
    hand = deal(hands={0: "3C 3S 3C KH KD KS 9C 9D 4C 5C 6C"}, stock="8C 8D")
    on_table(hand, 0, "AH AD AS")
    hand.apply(Draw(), 0)
    assert "3s cannot be melded" in refused(hand, LayMeld(parse_cards("3C 3C 3S")), BadMeld, 0)
    assert not any(isinstance(a, LayMeld) and 4 in a.cards for a in hand.legal_actions())


def literal_black_threes(when: str) -> Rules:
    """A club that reads "Black 3's = 5 Points" under "EACH CARD HAS A POINT VALUE FOR
    MELDING" literally: black 3s may be melded (``when``) and count 5 on the table."""
    return Rules.from_toml(f'extends = "six-deck"\n[threes]\nblack_melded = "{when}"\n')


def test_black_3s_5_points_for_melding_read_literally_a_club_may_meld_them_any_time() -> None:
    rules = literal_black_threes("any-time")
    assert rules.card_value[parse_card("3C")] == 5 and rules.card_value[parse_card("3H")] == 0
    hand = stacked_hand(rules, hands={0: "3C 3S 3C 3H 2C KH KD KS QH QD QS"}, upcard="9S",
                        stock="8C 8D")
    hand.apply(Draw(), 0)
    assert LayMeld(parse_cards("3C 3C 3S")) in hand.legal_actions()
    refused(hand, LayMeld(parse_cards("3C 3S 2C")), BadMeld, 0)  # no wilds with them
    refused(hand, LayMeld(parse_cards("3C 3S 3H")), BadMeld, 0)  # nor red 3s
    hand.apply(LayMeld(parse_cards("3C 3C 3S")), 0)
    hand.apply(LayMeld(parse_cards("KH KD KS")), 0)
    refused(hand, GoDown(), OpeningTooLow, 0)  # 15 + 30 = 45 < 50
    hand.apply(LayMeld(parse_cards("QH QD QS")), 0)
    hand.apply(GoDown(), 0)  # 15 + 30 + 30 = 75
    assert hand.opened[0]
    refused(hand, AddToMeld(0, parse_cards("3H")), BadMeld, 0)
    refused(hand, AddToMeld(0, parse_cards("2C")), BadMeld, 0)
    s = score_team(rules, 0, [(RANK_MELD, parse_cards("3C 3C 3S"))], ())
    assert s.table_cards == 15


def test_black_3s_melded_only_to_go_out_as_a_house_rule() -> None:
    rules = literal_black_threes("to-go-out")
    hand = stacked_hand(rules, upcard="9S", stock="KC 9C")
    on_table(hand, 0, "4C 4D 4H 4S 4C 4D 4H")
    on_table(hand, 0, "8C 8D 8H 8S 2C 2D JK")
    put_in_foot(hand, 0, "3C 3S 3C KH KD KS")
    put_in_foot(hand, 2, "AH AD 5H")
    hand.apply(Draw(), 0)  # 3C 3S 3C KH KD KS KC 9C
    msg = refused(hand, LayMeld(parse_cards("3C 3C 3S")), BadMeld, 0)
    assert "only to go out" in msg
    assert LayMeld(parse_cards("3C 3C 3S")) not in hand.legal_actions()
    hand.apply(AskToGoOut(), 0)
    hand.apply(AnswerGoOut(True), 2)
    hand.apply(LayMeld(parse_cards("KH KD KS KC")), 0)
    assert LayMeld(parse_cards("3C 3C 3S")) in hand.legal_actions()
    hand.apply(LayMeld(parse_cards("3C 3C 3S")), 0)  # the 9 is left to discard
    hand.apply(Discard(parse_card("9C")), 0)
    assert hand.ended_by == "out"
    assert score_hand(hand)[0].table_cards == 35 + 130 + 40 + 15  # the black 3s count 5 each


def test_black_3s_melded_only_to_go_out_all_go_on_at_once_and_are_offered() -> None:
    # found by the random-rule-set property test: a player holding nothing but black 3s,
    # with the team's meld of 3s on the table, could go out only by adding them all at
    # once, and that move was not listed (so a computer player had no move at all)
    rules = literal_black_threes("to-go-out")
    assert rules.going_out.discard == "optional"
    # 3C 3S 3S left after the kings, and out they must go
    hand = out_with_black_threes(rules, "3C 3S KD KS", "KC 3S", threes_meld=True)
    legal = hand.legal_actions()
    assert AddToMeld(2, parse_cards("3C 3S 3S")) in legal  # all of them: out
    assert AddToMeld(2, parse_cards("3C 3S")) in legal  # or two, and discard the last
    assert "only to go out" in refused(hand, AddToMeld(2, parse_cards("3C")), BadMeld, 0)
    assert AddToMeld(2, parse_cards("3C")) not in legal
    hand.apply(AddToMeld(2, parse_cards("3C 3S 3S")), 0)
    assert hand.ended_by == "out"


def test_black_3s_melded_only_to_go_out_a_new_meld_of_them_all_is_offered() -> None:
    rules = literal_black_threes("to-go-out")
    hand = out_with_black_threes(rules, "3C 3S 3C 3S KD KS", "KC 3C", threes_meld=False)
    legal = hand.legal_actions()  # five black 3s left
    assert LayMeld(parse_cards("3C 3C 3C 3S 3S")) in legal  # all of them: out
    assert LayMeld(parse_cards("3C 3C 3C 3S")) in legal  # or four, and discard the last
    assert LayMeld(parse_cards("3C 3C 3C")) not in legal  # two would be left
    hand.apply(LayMeld(parse_cards("3C 3C 3C 3S 3S")), 0)
    assert hand.ended_by == "out"


def test_black_3s_melded_only_to_go_out_are_no_part_of_an_opening() -> None:
    rules = literal_black_threes("to-go-out")
    hand = stacked_hand(rules, hands={0: "3C 3S 3C KH KD KS QH QD QS 4C 5C"}, upcard="9S",
                        stock="8C 8D")
    hand.apply(Draw(), 0)
    assert "opening" in refused(hand, LayMeld(parse_cards("3C 3C 3S")), BadMeld, 0)


def test_red_threes_500_points_when_left_in_hand_or_foot() -> None:
    s = score_team(RULES, 0, [], parse_cards("3H"))
    assert s.threes == -500 and s.total == -500
    hand = deal(hands={1: "3D 4C 5C 6C 7C 8C 10C JC KC AC 9H",
                       3: "4D 5D 6D 7D 8D 9D 10D JD QD KD AD"},
                feet={1: "3H 4S 5S 6S 7S 8S 9S 10S JS QS KS",
                      3: "4H 5H 6H 7H 8H 9H 10H JH QH KH AH"})
    hand.call_time()
    assert score_hand(hand)[1].threes == -1000


def test_the_first_meld_of_the_game_must_total_a_minimum_of_50_points() -> None:
    hand = deal(hands={0: "KH KD KS 5H 5D 5S 10H 10D 10S 6C 6D"}, stock="6H 6S")
    hand.apply(Draw(), 0)
    msg = refused(hand, lay("KH KD KS | 5H 5D 5S"), OpeningTooLow, 0)  # 45
    assert "50 points" in msg
    hand.apply(lay("10H 10D 10S | 6C 6D 6H 6S"), 0)  # 50
    assert hand.opened[0]


def test_to_calculate_add_the_value_of_the_cards_laid_from_your_hand() -> None:
    hand = deal(hands={0: "AH AD JK 5H 5D 5S 10H 10D 10S 6C 6D"}, stock="6H 6S")
    hand.apply(Draw(), 0)
    hand.apply(lay("AH AD JK"), 0)  # 90 points in one meld
    assert hand.opened[0]


def test_you_must_have_one_red_book_and_one_black_book_to_go_out() -> None:
    assert (RULES.going_out.clean_books, RULES.going_out.dirty_books) == (1, 1)
    hand = deal(stock="QS 9C")
    on_table(hand, 0, "4C 4D 4H 4S 4C 4D 4H")
    on_table(hand, 0, "5C 5D 5H 5S 5C 5D 5H")  # two red books, no black
    put_in_foot(hand, 0, "KH KD KS QH QD")
    put_in_foot(hand, 2, "AH AD 5H")
    hand.apply(Draw(), 0)
    msg = refused(hand, AskToGoOut(), CannotGoOut, 0)
    assert "1 more black book" in msg
    on_table(hand, 0, "8C 8D 8H 8S 2C 2D JK")
    hand.apply(AskToGoOut(), 0)
    assert hand.phase == Phase.ASK


def test_second_hand_90_third_hand_120_fourth_hand_150() -> None:
    assert RULES.opening.minimums == (50, 90, 120, 150)
    for number, minimum in ((1, 50), (2, 90), (3, 120), (4, 150)):
        hand = Hand(RULES, Deal.shuffled(RULES, random.Random(number)), hand_number=number)
        assert hand.minimums == [minimum, minimum]
    hands = {0: "KH KD KS AH AD AS 5H 5D 5S 9C 9D"}
    hand = Hand(RULES, stacked_deal(RULES, hands=hands, stock="8C 8D"), hand_number=2)
    hand.apply(Draw(), 0)
    refused(hand, lay("AH AD AS | 5H 5D 5S"), OpeningTooLow, 0)  # 75
    hand.apply(lay("AH AD AS | KH KD KS"), 0)  # 90
    assert hand.opened[0]


def test_once_you_have_made_your_initial_meld_you_may_add_or_make_new_melds() -> None:
    hand = deal(hands={0: "KH KD KS QH QD QS JH JD 9C 9D 4C"}, stock="KC JS")
    hand.apply(Draw(), 0)
    hand.apply(lay("KH KD KS | QH QD QS"), 0)
    kings = next(i for i, m in enumerate(hand.melds[0]) if m.rank == 13)
    hand.apply(AddToMeld(kings, parse_cards("KC")), 0)
    hand.apply(lay("JH JD JS"), 0)
    hand.apply(Discard(parse_card("4C")), 0)
    assert len(hand.melds[0]) == 3 and hand.actor == 1


def test_in_tournament_games_you_receive_500_points_for_going_out_not_100() -> None:
    assert RULES.scores.going_out == 100
    hand = ready_to_go_out()
    go_out(hand)
    assert score_hand(hand)[0].going_out == 100
    tournament = dataclasses.replace(
        RULES, scores=dataclasses.replace(RULES.scores, going_out=500))
    assert score_team(tournament, 0, [], (), went_out=True).going_out == 500


# ------------------------------------------------------------ going out
def test_the_hand_ends_when_a_partner_has_no_more_cards_and_both_are_in_foot_and_agree() -> None:
    hand = ready_to_go_out()
    go_out(hand)
    assert phase_of(hand) == Phase.OVER and hand.ended_by == "out" and hand.went_out == 0


def test_both_partners_must_be_in_their_foot() -> None:
    hand = ready_to_go_out(partner_in_foot=False)
    msg = refused(hand, AskToGoOut(), CannotGoOut, 0)
    assert "partner must be in their foot" in msg
    hand.apply(lay("KH KD KS"), 0)
    refused(hand, lay("QH QD QS"), CannotGoOut, 0)


def test_both_partners_must_agree_to_end_the_hand() -> None:
    hand = ready_to_go_out()
    hand.apply(lay("KH KD KS"), 0)
    msg = refused(hand, lay("QH QD QS"), CannotGoOut, 0)
    assert "ask your partner" in msg
    hand.apply(AskToGoOut(), 0)
    hand.apply(AnswerGoOut(False), 2)
    msg = refused(hand, lay("QH QD QS"), CannotGoOut, 0)
    assert "said no" in msg


def test_going_out_may_be_by_melding_the_last_card() -> None:
    hand = ready_to_go_out()
    hand.apply(AskToGoOut(), 0)
    hand.apply(AnswerGoOut(True), 2)
    hand.apply(lay("KH KD KS"), 0)
    hand.apply(lay("QH QD QS"), 0)
    nines = on_table(hand, 0, "9H 9D 9S")  # laid earlier
    hand.apply(AddToMeld(hand.melds[0].index(nines), parse_cards("9C")), 0)
    assert hand.ended_by == "out"


def test_count_points_by_value_of_cards_on_the_table_plus_books_plus_going_out() -> None:
    hand = ready_to_go_out()
    go_out(hand)
    team0 = score_hand(hand)[0]
    # red book (500) + black book (300); cards 4s 35, 8s 40+40+50, K K K 30, Q Q Q 30;
    # seat 2 still holds A A 5 (-45)
    assert team0.table_cards == 35 + 130 + 30 + 30
    assert team0.held_cards == -45
    assert team0.total == 500 + 300 + 225 - 45 + 100


def test_opponents_subtract_the_cards_left_in_hand_and_foot_from_their_meld() -> None:
    hand = ready_to_go_out()
    on_table(hand, 1, "KC KC KC")
    held = hand.hand_cards(1) + hand.hand_cards(3) + (hand.feet[1] or []) + (hand.feet[3] or [])
    go_out(hand)
    team1 = score_hand(hand)[1]
    assert team1.table_cards == 30
    assert team1.held_cards + team1.threes == sum(RULES.held_value[c] for c in held)
    assert team1.total == 30 + sum(RULES.held_value[c] for c in held)


def test_highest_score_at_the_end_of_4_hands_is_the_winner() -> None:
    assert RULES.game.hands == 4
    game = Game(RULES, seed=7)
    minimums = []
    for number in range(1, 5):
        assert not game.over and game.hand.hand_number == number
        minimums.append(game.hand.minimums[0])
        game.hand.call_time()
        game._finish_hand()
    assert game.over and minimums == [50, 90, 120, 150]
    best = max(game.totals)
    assert game.winners == [t for t, s in enumerate(game.totals) if s == best]


def test_you_must_have_one_red_book_and_one_black_book_named_so_everywhere() -> None:
    # "you must have one red book [...] and one black book [...] to go out"
    seen = book_words(RULES, ["QC QD QH QS QC QD QH"])
    assert seen["names"] == ["red book"]
    need = "1 more black book"
    assert seen["to_go_out"] == need
    assert seen["refusals"] == [
        f"You cannot go out yet: your team needs {need}. Keep at least one card.",
        f"Your team cannot go out yet: it needs {need}."]
    assert "(red book)" in seen["terminal"]
    assert seen["sheet"][0] == "Red books (1)"
    assert not any(w in str(seen) for w in ("clean", "dirty", "canasta"))
