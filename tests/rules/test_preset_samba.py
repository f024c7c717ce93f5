"""The `samba` preset ("Canasta Hand and Foot"), sentence by sentence
(shared/seeds/003_467312a6598beb3c.txt).

Each test is named after the sentence of the sheet it checks; docs/rules/samba.md
lists every sentence beside its setting and its test.
"""

from __future__ import annotations

import dataclasses
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
    LayDown,
    LayMeld,
    PickUpFoot,
    TakeBack,
    TakePile,
    TakeUpcard,
)
from handfoot.cards import JOKER, parse_card, parse_cards
from handfoot.club.event import Event
from handfoot.engine import (
    RANK_MELD,
    SEQUENCE,
    WILD_MELD,
    BadMeld,
    CannotGoOut,
    Deal,
    Hand,
    IllegalAction,
    OpeningTooLow,
    Phase,
    PileNotAvailable,
)
from handfoot.game import Game
from handfoot.game.scoring import score_hand, score_team
from handfoot.rules import Players, Rules, Scores, preset
from handfoot.testing import stacked_deal
from helpers import book_words, lay, refused
from stacked import on_table, phase_of, put_in_foot, put_pile, stacked_hand

RULES = preset("samba")

# Hands for the seats a test does not name: no red 3s (which would be laid at once
# and replaced from the stock) and no wild cards.
FILLERS = {
    0: "4C 5D 6H 7S 8C 9D 10H JS QC KD AH 4S 5H",
    1: "4C 5C 6C 8C 9C 10C JC QC KC AC 4S 5S 6S",
    2: "4D 5D 6D 8D 9D 10D JD QD KD AD 4H 5H 6H",
    3: "8H 9H 10H JH QH KH AH 8S 9S 10S JS QS KS",
}
# What going out needs: 2 red, 2 black and a wild-card canasta.
CANASTAS = (
    "4C 4D 4H 4S 4C 4D 4H",
    "5C 5D 5H 5S 5C 5D 5H",
    "7C 7D 7H 7S 7C 2C JK",
    "8C 8D 8H 8S 8C 8D 2D",
    "2C 2D 2H 2S JK JK 2C",
)


# ---------------------------------------------------------------- helpers
def deal(rules: Rules = RULES, hands: dict[int, str] | None = None,
         feet: dict[int, str] | None = None, stock: str = "", upcard: str = "9S",
         first_seat: int = 0) -> Hand:
    """A stacked deal: unnamed hands are the fillers; the upcard is 9S unless named.
    Cards taken out of play for the set-up come from the stock or the feet, never from
    a hand."""
    all_hands = {s: FILLERS[s] for s in range(4)} if rules.players.seats == 4 else {}
    all_hands.update(hands or {})
    return stacked_hand(rules, all_hands, feet, stock, first_seat, upcard=upcard,
                        from_hands=False)


def ready_to_go_out(partner_in_foot: bool = True) -> Hand:
    """Team 0 has all its canastas; seat 0 is in its foot with K K K Q Q and draws Q 9."""
    hand = deal(stock="QS 9C")
    for canasta in CANASTAS:
        on_table(hand, 0, canasta)
    put_in_foot(hand, 0, "KH KD KS QH QD")
    if partner_in_foot:
        put_in_foot(hand, 2, "AH AD 6H")
    hand.apply(Draw(), 0)
    return hand


# ------------------------------------------------------- decks and seats
def test_5_decks_including_jokers_for_4_people() -> None:
    assert RULES.players.seats == 4 and RULES.num_decks == 5 and RULES.num_cards == 270
    hand = Hand(RULES, Deal.shuffled(RULES, random.Random(1)))
    census = hand.card_census()
    assert sum(census) == 270 and census[JOKER] == 10


def test_7_decks_including_jokers_for_6_people() -> None:
    six = dataclasses.replace(RULES, players=Players(seats=6, teams=2))
    assert six.num_decks == 7 and six.num_cards == 378
    # Two partnerships, as "North and South ... East and West": three a side, alternating.
    assert six.team_of == (0, 1, 0, 1, 0, 1)
    # A club event at six-seat tables seats samba the same way.
    assert Event.create("Samba night", "samba", seats=6).rules.players == six.players
    game = Game(six, seed=4)
    assert all(game.hand.hand_len[s] == 13 for s in range(6))
    rng = random.Random(4)
    acted = set()
    for _ in range(300):
        if game.hand.phase == Phase.OVER:
            break
        acted.add(game.hand.actor)
        game.apply(rng.choice(game.legal_actions()))
        assert sum(game.hand.card_census()) == 378
    assert acted == set(range(6))


def test_with_6_people_every_member_of_a_team_must_be_in_their_foot() -> None:
    six = dataclasses.replace(RULES, players=Players(seats=6, teams=2))
    hand = deal(six, hands={**FILLERS, 4: FILLERS[2], 5: FILLERS[3]}, stock="QS 9C")
    for canasta in CANASTAS:
        on_table(hand, 0, canasta)
    put_in_foot(hand, 0, "KH KD KS QH QD")
    put_in_foot(hand, 2, "AH AD 6H")
    hand.apply(Draw(), 0)
    msg = refused(hand, AskToGoOut(), CannotGoOut, 0)  # seat 4 is still in its hand
    assert "partner must be in their foot" in msg
    put_in_foot(hand, 4, "AC AS 6S")
    hand.apply(AskToGoOut(), 0)
    assert hand.actor == 2  # the next partner in turn order answers
    hand.apply(AnswerGoOut(True), 2)
    hand.apply(lay("KH KD KS"), 0)
    hand.apply(lay("QH QD QS"), 0)
    hand.apply(Discard(parse_card("9C")), 0)
    assert hand.ended_by == "out" and hand.went_out == 0


def test_north_and_south_are_partners_east_and_west_are_partners() -> None:
    assert RULES.team_of == (0, 1, 0, 1)  # N=0, E=1, S=2, W=3
    hand = deal()
    assert hand.partner_to_ask(0) == 2 and hand.partner_to_ask(3) == 1


def test_shuffle_thoroughly() -> None:
    a = Deal.shuffled(RULES, random.Random(1)).order
    b = Deal.shuffled(RULES, random.Random(2)).order
    assert a != b and sorted(a) == sorted(b) and len(a) == 270


# ------------------------------------------------------------- the deal
def test_deal_2_hands_of_13_cards_each_for_each_player() -> None:
    assert (RULES.deal.hand_size, RULES.deal.foot_size) == (13, 13)
    hand = deal()
    for seat in range(4):
        assert hand.hand_len[seat] == 13
        assert len(hand.feet[seat] or []) == 13


def test_put_the_rest_in_2_piles_and_flip_over_one_card_between_them() -> None:
    hand = deal(upcard="KH")
    assert hand.pile == [parse_card("KH")]
    assert len(hand.stock) == 270 - 4 * 26 - 1


def test_this_becomes_the_discard_or_pick_up_pile() -> None:
    hand = deal(upcard="KH", stock="8C 8D")
    hand.apply(Draw(), 0)
    hand.apply(Discard(parse_card("8C")), 0)
    assert hand.pile == list(parse_cards("KH 8C"))


def test_each_player_chooses_one_hand_the_other_under_their_bottom_no_peeking() -> None:
    assert RULES.deal.choose_hand == "blind"
    hand = deal(feet={0: "AH AD AS AC KH KD KS KC QH QD QS QC JH"})
    assert hand.phase == Phase.DRAW  # a blind choice: nothing to choose between
    assert hand.foot_known == [None] * 4
    hand.apply(Draw(), 0)
    assert hand.hands[0][parse_card("AS")] == 0  # the foot is not in the hand
    refused(hand, lay("AH AD AS"), IllegalAction, 0)


# ------------------------------------------------------------- opening
def test_a_player_must_have_50_points_to_open_in_the_first_game_90_second_120_third() -> None:
    assert RULES.opening.minimums == (50, 90, 120) and RULES.game.hands == 3
    for number, minimum in ((1, 50), (2, 90), (3, 120)):
        hand = Hand(RULES, Deal.shuffled(RULES, random.Random(number)), hand_number=number)
        assert hand.minimums == [minimum, minimum]
    game = Game(RULES, seed=3)
    assert game.hand.minimums == [50, 50]


def test_the_second_game_needs_90_points() -> None:
    rules = RULES
    hands = dict(FILLERS)
    hands[0] = "KH KD KS AH AD AS 5H 5D 5S 9C 9D 4C 4D"
    hand = Hand(rules, stacked_deal(rules, hands=hands, stock="8C 8D", upcard="9S"),
                hand_number=2)
    hand.apply(Draw(), 0)
    msg = refused(hand, lay("KH KD KS | 5H 5D 5S"), OpeningTooLow, 0)  # 45
    assert "90 points" in msg
    refused(hand, lay("AH AD AS | 5H 5D 5S"), OpeningTooLow, 0)  # 75
    hand.apply(lay("AH AD AS | KH KD KS"), 0)  # 90
    assert hand.opened[0]


def test_to_open_you_must_have_50_points_of_cards_to_put_down() -> None:
    hand = deal(hands={0: "KH KD KS 10H 10D 10S 5H 5D 5S 6C 6D 6H 6S"}, stock="8C 8D")
    hand.apply(Draw(), 0)
    msg = refused(hand, lay("KH KD KS | 5H 5D 5S"), OpeningTooLow, 0)
    assert "50 points" in msg and "make 45" in msg
    hand.apply(lay("10H 10D 10S | 6C 6D 6H 6S"), 0)  # exactly 50
    assert hand.opened[0]


def test_a_meld_is_three_cards_all_the_same_or_two_of_the_same_and_one_wild() -> None:
    hand = deal(hands={0: "QH QD QS KH KD 2C JK 2D AH AD AS 9C 9D"}, stock="8C 8D")
    on_table(hand, 0, "6H 6D 6S")
    hand.apply(Draw(), 0)
    refused(hand, lay("QH QD"), BadMeld, 0)
    refused(hand, lay("AH 2C 2D"), BadMeld, 0)  # one natural only
    refused(hand, lay("AH KD QH"), BadMeld, 0)  # not a sequence, not a rank
    hand.apply(lay("QH QD QS"), 0)
    hand.apply(lay("KH KD 2C"), 0)
    assert [(m.rank, m.naturals, m.wilds) for m in hand.melds[0][1:]] == [(12, 3, 0), (13, 2, 1)]


@pytest.mark.parametrize(("card", "points"), [
    ("8C", 10), ("9D", 10), ("10H", 10), ("JS", 10), ("QC", 10), ("KD", 10),
    ("4C", 5), ("5D", 5), ("6H", 5), ("7S", 5), ("AH", 20), ("2C", 20), ("JK", 50),
])
def test_cards_8_to_king_10_points_4_to_7_5_aces_and_2s_20_jokers_50(
        card: str, points: int) -> None:
    c = parse_card(card)
    assert RULES.card_value[c] == points
    assert score_team(RULES, 0, melds=[], held=[c]).total == -points


def test_opening_value_counts_aces_twos_and_jokers() -> None:
    hand = deal(hands={0: "AH AD 2C 5H 5D JK 4C 4D 7S 8H 9H 10C JC"}, stock="8C 8D")
    hand.apply(Draw(), 0)
    refused(hand, lay("5H 5D 2C"), OpeningTooLow, 0)  # 30
    hand.apply(lay("AH AD 2C"), 0)  # 60
    assert hand.opened[0]
    hand2 = deal(hands={0: "AH AD 2C 5H 5D JK 4C 4D 7S 8H 9H 10C JC"}, stock="8C 8D")
    hand2.apply(Draw(), 0)
    hand2.apply(lay("5H 5D JK"), 0)  # 60 with the joker
    assert hand2.opened[0]


# ------------------------------------------------------------- wild cards
def test_twos_and_jokers_are_wild_cards() -> None:
    hand = deal(hands={0: "QH QD 2C KH KD JK AH AD AS 9C 9D 4C 4D"}, stock="8C 8D")
    on_table(hand, 0, "6H 6D 6S")
    hand.apply(Draw(), 0)
    hand.apply(lay("QH QD 2C"), 0)
    hand.apply(lay("KH KD JK"), 0)
    assert [m.wilds for m in hand.melds[0][1:]] == [1, 1]


def test_no_canasta_can_contain_more_than_three_wild_cards() -> None:
    assert RULES.meld.max_wilds == 3
    hand = deal(hands={0: "QH QD QS QC 2C 2D 2H JK AH AD 9C 9D 4C"}, stock="8C 8D")
    on_table(hand, 0, "6H 6D 6S")
    hand.apply(Draw(), 0)
    refused(hand, lay("QH QD QS QC 2C 2D 2H JK"), BadMeld, 0)
    hand.apply(lay("QH QD QS QC 2C 2D 2H"), 0)
    msg = refused(hand, AddToMeld(1, parse_cards("JK")), BadMeld, 0)
    assert "Wild cards cannot be added to a complete" in msg
    assert hand.books(0) == (0, 1, 0, 0)


def test_two_of_the_same_and_one_wild_so_naturals_always_outnumber_wilds() -> None:
    """"two of the same and one wild": a meld never holds as many wilds as naturals."""
    hand = deal(hands={0: "QH QD QS 2C 2D 2H JK AH AD 9C 9D 4C 5C"}, stock="8C 8D")
    on_table(hand, 0, "6H 6D 6S")
    hand.apply(Draw(), 0)
    msg = refused(hand, lay("QH QD 2C 2D JK"), BadMeld, 0)
    assert "more natural cards than wild cards" in msg
    refused(hand, lay("QH QD 2C 2D"), BadMeld, 0)
    hand.apply(lay("QH QD 2C"), 0)
    refused(hand, AddToMeld(1, parse_cards("2D 2H")), BadMeld, 0)
    refused(hand, AddToMeld(1, parse_cards("JK")), BadMeld, 0)
    hand.apply(AddToMeld(1, parse_cards("QS 2D")), 0)
    assert (hand.melds[0][1].naturals, hand.melds[0][1].wilds) == (3, 2)


# ------------------------------------------------------------- the turn
def test_to_start_a_player_picks_up_two_cards_from_a_face_down_pile() -> None:
    hand = deal(stock="8C 8D 8H")
    hand.apply(Draw(), 0)
    assert hand.hand_len[0] == 15 and hand.stock[-1] == parse_card("8H")


def test_or_picks_up_the_card_in_the_discard_pile() -> None:
    assert RULES.turn.first_turn_upcard == "take"
    hand = deal(upcard="KH")
    hand.apply(TakeUpcard(), 0)
    assert hand.pile == [] and hand.hand_len[0] == 14
    assert hand.hands[0][parse_card("KH")] == 1
    refused(hand, EndTurn(), IllegalAction, 0)  # a discard still ends the turn
    hand.apply(Discard(parse_card("4S")), 0)
    assert hand.pile == [parse_card("4S")]


def test_only_the_first_player_may_take_the_upcard() -> None:
    hand = deal(upcard="KH", stock="8C 8D")
    hand.apply(Draw(), 0)
    hand.apply(Discard(parse_card("4S")), 0)
    msg = refused(hand, TakeUpcard(), IllegalAction, 1)
    assert "first turn" in msg


def test_if_the_player_can_open_they_lay_down_50_or_more_in_as_many_melds_as_they_choose() -> None:
    hand = deal(hands={0: "KH KD KS QH QD 2C 9H 9D 9S 4C 4D 4S 5H"}, stock="8C 8D")
    hand.apply(Draw(), 0)
    hand.apply(lay("KH KD KS | QH QD 2C | 9H 9D 9S | 4C 4D 4S"), 0)
    assert sorted(m.rank for m in hand.melds[0]) == [4, 9, 12, 13]


def test_the_beginnings_of_sambas_can_also_be_laid_down() -> None:
    assert RULES.meld.sequences
    hand = deal(hands={0: "6H 7H 8H 9H KH KD KS 4C 4D 4S 5C 10C JC"}, stock="8C 8D")
    hand.apply(Draw(), 0)
    refused(hand, lay("6H 7H 8H | 4C 4D 4S"), OpeningTooLow, 0)  # 20 + 15
    hand.apply(lay("6H 7H 8H 9H | KH KD KS"), 0)  # 30 + 30
    seq = next(m for m in hand.melds[0] if m.kind == SEQUENCE)
    assert sorted(seq.cards) == sorted(parse_cards("6H 7H 8H 9H"))


def test_a_samba_is_in_sequence_not_using_threes() -> None:
    hand = deal(hands={0: "3H 4H 5H 6H 2H JK 7C 8D 9S 10S JS QS KD"}, stock="8C 8D")
    on_table(hand, 0, "AH AD AS")
    hand.apply(Draw(), 0)
    refused(hand, lay("3H 4H 5H"), BadMeld, 0)
    refused(hand, lay("4H 5H 2H"), BadMeld, 0)
    refused(hand, lay("4H 5H JK"), BadMeld, 0)
    refused(hand, lay("9S 10S QS"), BadMeld, 0)  # a gap
    refused(hand, lay("8D 9S 10S"), BadMeld, 0)  # two suits
    hand.apply(lay("4H 5H 6H"), 0)
    hand.apply(lay("9S 10S JS QS"), 0)
    assert [m.kind for m in hand.melds[0]] == [RANK_MELD, SEQUENCE, SEQUENCE]


# ------------------------------------------------------------- the pile
def test_only_after_a_team_has_opened_may_a_player_pick_up_the_discard_pile() -> None:
    assert RULES.pile.before_opening == "never"
    hand = deal(hands={0: "QH QD KH KD KS AH AD AS 9C 9D 4C 4D 5S"})
    put_pile(hand, "4H 5C 6C 7C 8C QS")
    msg = refused(hand, TakePile(parse_cards("QH QD"), opening=(parse_cards("KH KD KS"),)),
                  PileNotAvailable, 0)
    assert "must open" in msg
    refused(hand, TakePile(parse_cards("QH QD")), PileNotAvailable, 0)


def test_to_pick_up_the_pile_they_must_have_two_cards_like_the_top_card() -> None:
    hand = deal(hands={0: "QH QD KH KD KS AH AD AS 9C 9D 4C 4D 5S"})
    on_table(hand, 0, "6H 6D 6S")
    put_pile(hand, "4H 5C 6C 7C 8C 10D JD QS")
    refused(hand, TakePile(parse_cards("KH KD")), PileNotAvailable, 0)
    hand.apply(TakePile(parse_cards("QH QD")), 0)
    queens = hand.melds[0][-1]
    assert sorted(queens.cards) == sorted(parse_cards("QH QD QS"))


def test_or_one_like_the_top_card_and_a_wild_card() -> None:
    hand = deal(hands={0: "QH 2D KH KD KS AH AD AS 9C 9D 4C 4D 5S"})
    on_table(hand, 0, "6H 6D 6S")
    put_pile(hand, "4H 5C 6C 7C 8C 10D JD QS")
    hand.apply(TakePile(parse_cards("QH 2D")), 0)
    queens = hand.melds[0][-1]
    assert (queens.rank, queens.naturals, queens.wilds) == (12, 2, 1)


def test_or_a_meld_already_on_the_board() -> None:
    hand = deal(hands={0: "QH KH KD KS AH AD AS 9C 9D 4C 4D 5S 5C"})
    on_table(hand, 0, "6H 6D 6S")
    put_pile(hand, "4H 5C 6C 7C 8C 10D JD QS")
    msg = refused(hand, TakePile(()), PileNotAvailable, 0)
    assert "no meld of Queens" in msg
    queens = on_table(hand, 0, "QC QC 2C")
    hand.apply(TakePile(()), 0)
    assert len(queens.cards) == 4 and queens.cards[-1] == parse_card("QS")


def test_a_player_must_pick_up_at_least_7_cards_including_the_top_one() -> None:
    assert (RULES.pile.take_min, RULES.pile.take_max) == (7, 0)
    hand = deal(hands={0: "QH QD KH KD KS AH AD AS 9C 9D 4C 4D 5S"})
    on_table(hand, 0, "6H 6D 6S")
    put_pile(hand, "4C 5C 6C 7C 8C 9C 10C 4D 5D QS")
    refused(hand, TakePile(parse_cards("QH QD"), 6), PileNotAvailable, 0)
    assert hand.is_legal(TakePile(parse_cards("QH QD"), 10))  # or more, up to all
    hand.apply(TakePile(parse_cards("QH QD")), 0)
    assert hand.pile == list(parse_cards("4C 5C 6C"))
    assert hand.hand_len[0] == 13 - 2 + 6
    for c in parse_cards("7C 8C 9C 10C 4D 5D"):
        assert hand.hands[0][c] >= 1


def test_or_all_the_discard_pile_if_there_are_less_than_7_cards() -> None:
    hand = deal(hands={0: "QH QD KH KD KS AH AD AS 9C 9D 4C 4D 5S"})
    on_table(hand, 0, "6H 6D 6S")
    put_pile(hand, "4C 5C 7C QS")
    refused(hand, TakePile(parse_cards("QH QD"), 3), PileNotAvailable, 0)
    hand.apply(TakePile(parse_cards("QH QD")), 0)
    assert hand.pile == [] and hand.hand_len[0] == 13 - 2 + 3


def test_the_top_card_must_be_used_right_away() -> None:
    hand = deal(hands={0: "QH QD KH KD KS AH AD AS 9C 9D 4C 4D 5S"})
    on_table(hand, 0, "6H 6D 6S")
    put_pile(hand, "4C 5C 7C QS")
    hand.apply(TakePile(parse_cards("QH QD")), 0)
    assert hand.hands[0][parse_card("QS")] == 0
    assert parse_card("QS") in hand.melds[0][-1].cards


# ------------------------------------------------------------- canastas
def test_to_finish_each_team_must_have_two_red_two_black_and_one_wild_card_canasta() -> None:
    go = RULES.going_out
    assert (go.clean_books, go.dirty_books, go.wild_books) == (2, 2, 1)
    hand = deal(stock="QS 9C")
    for canasta in CANASTAS[:4]:
        on_table(hand, 0, canasta)
    on_table(hand, 0, "6H 7H 8H 9H 10H JH QH")  # a samba does not stand in
    on_table(hand, 0, "JC JD JH JS JC JD JH")  # nor does a third red canasta
    put_in_foot(hand, 0, "KH KD KS QH QD")
    put_in_foot(hand, 2, "AH AD 6H")
    hand.apply(Draw(), 0)
    msg = refused(hand, AskToGoOut(), CannotGoOut, 0)
    assert "1 more wild-card canasta" in msg
    on_table(hand, 0, CANASTAS[4])
    hand.apply(AskToGoOut(), 0)
    assert hand.phase == Phase.ASK


def test_a_red_canasta_is_composed_of_7_cards_all_the_same() -> None:
    hand = deal()
    on_table(hand, 0, "QH QD QS QC QH QD QS")
    on_table(hand, 0, "KH KD KS KC KH KD")
    assert hand.books(0) == (1, 0, 0, 0)
    s = score_team(RULES, 0, [(RANK_MELD, parse_cards("QH QD QS QC QH QD QS"))], ())
    assert (s.clean_books, s.clean_book_points, s.total) == (1, 500, 570)


def test_a_black_canasta_can_have_up_to_three_wild_cards() -> None:
    hand = deal()
    on_table(hand, 0, "QH QD QS QC 2H 2D JK")
    on_table(hand, 0, "KH KD KS KC KH KD 2S")
    assert hand.books(0) == (0, 2, 0, 0)
    s = score_team(RULES, 0, [(RANK_MELD, parse_cards("QH QD QS QC 2H 2D JK"))], ())
    assert (s.dirty_books, s.dirty_book_points, s.total) == (1, 300, 300 + 40 + 40 + 50)


def test_a_wild_card_canasta_is_made_up_of_2s_and_jokers() -> None:
    assert RULES.meld.wild_melds
    hand = deal(hands={0: "2C 2D JK 2H 2S JK 2C QH 9C 9D 4C 4D 5S"}, stock="2D 8C")
    on_table(hand, 0, "6H 6D 6S")
    hand.apply(Draw(), 0)
    hand.apply(lay("2C 2D JK"), 0)
    wild = hand.melds[0][-1]
    assert wild.kind == WILD_MELD
    refused(hand, AddToMeld(1, parse_cards("QH")), BadMeld, 0)
    hand.apply(AddToMeld(1, parse_cards("2H 2S JK 2C")), 0)
    assert hand.books(0) == (0, 0, 1, 0)
    msg = refused(hand, AddToMeld(1, parse_cards("2D")), BadMeld, 0)
    assert msg == "A wild-card canasta is complete at 7 cards."  # the sheet's words


OPENING_HAND = "KH KD 2S 2C 2D JK 2H 9C 9D 4C 5S 6H 7S"


def test_once_the_wild_card_canasta_has_been_started_only_later_wilds_are_kept_off_other_melds(
        ) -> None:
    # "once the wild card canasta has been started, no wild cards can be laid down on
    # other melds until the wild card canasta is complete": a dirty meld laid before the
    # wild-card canasta is started is not kept back, in an opening as after it.
    dirty, wild = parse_cards("KH KD 2S"), parse_cards("2C 2D JK")
    # one meld at a time, the dirty meld first, then going down
    hand = deal(hands={0: OPENING_HAND}, stock="5C 6C")
    hand.apply(Draw(), 0)
    hand.apply(LayMeld(dirty), 0)
    assert LayMeld(wild) in hand.legal_actions()  # listed, as every legal meld is
    hand.apply(LayMeld(wild), 0)
    hand.apply(GoDown(), 0)
    assert hand.opened[0] and [m.kind for m in hand.melds[0]] == [RANK_MELD, WILD_MELD]
    # laid down at once, in either order: the wild-card canasta is laid after the other
    for melds in ((dirty, wild), (wild, dirty)):
        hand = deal(hands={0: OPENING_HAND}, stock="5C 6C")
        hand.apply(Draw(), 0)
        hand.apply(LayDown(melds), 0)
        assert hand.opened[0] and {m.kind for m in hand.melds[0]} == {RANK_MELD, WILD_MELD}


def test_a_wild_laid_after_the_wild_card_canasta_is_started_is_refused_with_a_way_that_works(
        ) -> None:
    dirty, wild = parse_cards("KH KD 2S"), parse_cards("2C 2D JK")
    hand = deal(hands={0: OPENING_HAND}, stock="5C 6C")
    hand.apply(Draw(), 0)
    hand.apply(LayMeld(wild), 0)
    msg = refused(hand, LayMeld(dirty), BadMeld, 0)
    assert msg == ("While your wild-card canasta is open, no wild may go on another meld: "
                   "complete the wild-card canasta first, or take it back, lay this meld, "
                   "then lay out the wild-card canasta again.")
    # the advice works
    hand.apply(TakeBack(0), 0)
    hand.apply(LayMeld(dirty), 0)
    hand.apply(LayMeld(wild), 0)
    hand.apply(GoDown(), 0)
    assert hand.opened[0]
    # once down, with the wild-card canasta open, a wild waits for it to be complete
    msg = refused(hand, AddToMeld(0, parse_cards("2H")), BadMeld, 0)
    assert msg == ("While your wild-card canasta is open, no wild may go on another meld: "
                   "complete the wild-card canasta first.")
    hand.apply(AddToMeld(1, parse_cards("2H")), 0)


def test_once_the_wild_card_canasta_is_started_no_wilds_go_on_other_melds() -> None:
    assert RULES.meld.wild_meld_blocks_wilds
    hand = deal(hands={0: "2C 2D JK 2H 2S JK 2C QH QD 9C 9D 4C 5S"}, stock="2D 8C")
    on_table(hand, 0, "6H 6D 6S")
    hand.apply(Draw(), 0)
    hand.apply(lay("2C 2D JK"), 0)
    refused(hand, AddToMeld(0, parse_cards("2H")), BadMeld, 0)
    msg = refused(hand, lay("QH QD 2H"), BadMeld, 0)
    assert "wild-card canasta is open" in msg
    hand.apply(AddToMeld(1, parse_cards("2H 2S JK 2C")), 0)  # complete
    hand.apply(AddToMeld(0, parse_cards("2D")), 0)
    assert hand.melds[0][0].wilds == 1


def test_no_wilds_to_pick_up_the_pile_while_the_wild_card_canasta_is_open() -> None:
    hand = deal(hands={0: "QH 2D KH KD KS AH AD AS 9C 9D 4C 4D 5S"})
    on_table(hand, 0, "6H 6D 6S")
    on_table(hand, 0, "2C 2H JK")
    put_pile(hand, "4H 5C 6C 7C 8C 10D JD QS")
    refused(hand, TakePile(parse_cards("QH 2D")), BadMeld, 0)


def test_a_samba_is_a_7_card_sequence_of_the_same_suit_that_can_have_no_wild_cards() -> None:
    hand = deal(hands={0: "6H 7H 8H 9H 10H JH QH KH 2C 5S 9C 9D 4C"}, stock="5H 8C")
    on_table(hand, 0, "AH AD AS")
    hand.apply(Draw(), 0)
    hand.apply(lay("6H 7H 8H"), 0)
    refused(hand, AddToMeld(1, parse_cards("2C")), BadMeld, 0)
    refused(hand, AddToMeld(1, parse_cards("5S")), BadMeld, 0)  # another suit
    refused(hand, AddToMeld(1, parse_cards("10H")), BadMeld, 0)  # a gap
    hand.apply(AddToMeld(1, parse_cards("9H 10H")), 0)
    hand.apply(AddToMeld(1, parse_cards("JH QH")), 0)
    assert hand.books(0) == (0, 0, 0, 1)
    msg = refused(hand, AddToMeld(1, parse_cards("KH")), BadMeld, 0)
    assert msg == "This samba is complete at 7 cards and takes no more."  # the sheet's words
    refused(hand, AddToMeld(1, parse_cards("5H")), BadMeld, 0)


def test_a_samba_can_have_no_wild_cards_in_it_and_a_refused_one_says_so() -> None:
    # "A samba is a 7 card sequence of the same suit that can have no wild cards in it":
    # 6H 7H 2C is a samba with a wild, not a meld mixing two ranks.
    hand = deal(hands={0: "6H 7H 8H 9H 10H JH QH KH 2C 5S 9C 9D 4C"}, stock="5H 8C")
    on_table(hand, 0, "AH AD AS")
    hand.apply(Draw(), 0)
    msg = refused(hand, lay("6H 7H 2C"), BadMeld, 0)
    assert msg == ("A samba takes no wild card: 6♥ 7♥ 2♣ holds 2♣. A samba is natural cards "
                   "of one suit in sequence.")
    msg = refused(hand, lay("6H 8H 2C"), BadMeld, 0)  # the gap a wild would fill
    assert msg.startswith("A samba takes no wild card")
    hand.apply(lay("6H 7H 8H"), 0)
    msg = refused(hand, AddToMeld(1, parse_cards("2C")), BadMeld, 0)
    assert msg == "A samba takes no wild card (2♣)."
    # two ranks of different suits are still told apart as ranks
    msg = refused(hand, lay("9H 9C 10H"), BadMeld, 0)
    assert "one rank" in msg


def test_for_example_6_7_8_9_10_j_q_of_hearts() -> None:
    cards = parse_cards("6H 7H 8H 9H 10H JH QH")
    hand = deal(hands={0: "6H 7H 8H 9H 10H JH QH KH 2C 5S 9C 9D 4C"}, stock="5H 8C")
    on_table(hand, 0, "AH AD AS")
    hand.apply(Draw(), 0)
    hand.apply(LayDown((cards,)), 0)
    assert hand.melds[0][-1].kind == SEQUENCE and hand.books(0) == (0, 0, 0, 1)
    s = score_team(RULES, 0, [(SEQUENCE, cards)], ())
    assert (s.sequence_books, s.sequence_book_points, s.table_cards) == (1, 1500, 60)
    assert s.total == 1560


# ------------------------------------------------------------- threes
def test_black_3s_are_only_used_as_discard_cards() -> None:
    hand = deal(hands={0: "3C 3S 3C KH KD KS AH AD AS 9C 9D 4C 5S"}, stock="8C 8D")
    on_table(hand, 0, "6H 6D 6S")
    hand.apply(Draw(), 0)
    refused(hand, lay("3C 3S 3C"), BadMeld, 0)
    hand.apply(Discard(parse_card("3S")), 0)
    assert hand.pile_top == parse_card("3S")


def test_black_3s_freeze_the_pile_for_the_next_player() -> None:
    hand = deal(hands={0: "3C KH KD KS AH AD AS 9C 9D 4C 5S 6C 7C",
                       1: "9H 9S 4C 5C 6C 8C 10C JC QC KC AC 4S 5D",
                       2: "9C JK 4D 5D 6D 8D 10D JD QD KD AD 4H 6H"},
                stock="8C 8D 10S 10H")
    on_table(hand, 0, "6H 6D 6S")
    on_table(hand, 1, "7H 7D 7S")
    put_pile(hand, "4H 5H 6C 7C 8H 9D")
    hand.apply(Draw(), 0)
    hand.apply(Discard(parse_card("3C")), 0)
    msg = refused(hand, TakePile(parse_cards("9H 9S")), PileNotAvailable, 1)
    assert "a 3" in msg
    hand.apply(Draw(), 1)
    hand.apply(Discard(parse_card("9H")), 1)
    # only the next player was frozen out: the one after takes it with a natural and a wild
    hand.apply(TakePile(parse_cards("9C JK")), 2)
    assert hand.melds[0][-1].rank == 9


def test_red_3s_are_put_down_on_the_board_and_replaced_with_another_card() -> None:
    assert RULES.threes.red == "board"
    hand = deal(hands={0: "3H KH KD KS AH AD AS 9C 9D 4C 5S 6C 7C"}, stock="QH 3D 8C 8D")
    # dealt: laid before play and replaced from the stock
    assert hand.red_threes[0] == [parse_card("3H")]
    assert hand.hand_len[0] == 13 and hand.hands[0][parse_card("QH")] == 1
    # drawn: laid at once and replaced
    hand.apply(Draw(), 0)
    assert hand.red_threes[0] == list(parse_cards("3H 3D"))
    assert hand.hand_len[0] == 15
    assert hand.hands[0][parse_card("8C")] == 1 and hand.hands[0][parse_card("8D")] == 1
    assert hand.hands[0][parse_card("3D")] == 0


def test_red_3s_in_the_foot_go_to_the_board_when_it_is_picked_up() -> None:
    hand = deal(hands={0: "KH KD KS QH QD QS JH JD JS 9C 9D 9H 9S"},
                feet={0: "3H 3D AH AD AS 4D 4H 5C 5D 5H 6C 6D 6H"},
                stock="9D 5S 8C 8D 10S 10H JC JD 4S 5C")
    on_table(hand, 0, "7H 7D 7S")
    hand.apply(Draw(), 0)
    for m in ("KH KD KS", "QH QD QS", "JH JD JS", "9C 9D 9H 9S 9D"):
        hand.apply(lay(m), 0)
    hand.apply(Discard(parse_card("5S")), 0)  # emptied by a discard: the foot waits
    assert hand.hand_len[0] == 0 and not hand.in_foot[0]
    for seat in (1, 2, 3):
        hand.apply(Draw(), seat)
        hand.apply(Discard(hand.hand_cards(seat)[0]), seat)
    hand.apply(PickUpFoot(), 0)
    assert hand.red_threes[0] == list(parse_cards("3D 3H"))
    assert hand.hand_len[0] == 13
    assert hand.hands[0][parse_card("4S")] == 1 and hand.hands[0][parse_card("5C")] == 2


def test_red_3s_count_as_100_points() -> None:
    hand = deal(hands={0: "3H KH KD KS AH AD AS 9C 9D 4C 5S 6C 7C"}, stock="QH 3D 8C 8D")
    hand.apply(Draw(), 0)
    hand.call_time()
    team0 = score_hand(hand)[0]
    assert (team0.red_threes_count, team0.red_threes) == (2, 200)


def test_a_red_3_left_in_an_unplayed_foot_counts_100_against_the_team() -> None:
    hand = deal(feet={1: "3H 4D 4H 5C 5D 5H 6C 6D 6H 7C 7D 7H 8S",
                      3: "4S 5S 6S 7S 8C 9S 10S JS QS KS AS 4C 4D"})
    hand.call_time()
    team1 = score_hand(hand)[1]
    assert team1.threes == -100 and team1.red_threes == 0


# --------------------------------------------------------- foot, going out
def test_when_a_player_uses_up_all_cards_in_their_hand_they_pick_up_the_foot() -> None:
    hand = deal(hands={0: "KH KD KS QH QD QS JH JD JS 9C 9D 9H 4C"},
                feet={0: "3H AH AD AS 4D 4H 5C 5D 5H 6C 6D 6H 7C"},
                stock="4S 4H 10S 10H")
    on_table(hand, 0, "7H 7D 7S")
    hand.apply(Draw(), 0)
    for m in ("KH KD KS", "QH QD QS", "JH JD JS", "9C 9D 9H", "4C 4S 4H"):
        hand.apply(lay(m), 0)
    assert hand.hand_len[0] == 0
    hand.apply(PickUpFoot(), 0)
    assert hand.in_foot[0] and hand.hand_len[0] == 13
    assert hand.red_threes[0] == [parse_card("3H")]  # laid, replaced by 10S
    assert hand.hands[0][parse_card("10S")] == 1


def test_play_continues_until_both_members_of_a_team_are_in_their_feet() -> None:
    assert RULES.going_out.partners == "in-foot"
    hand = ready_to_go_out(partner_in_foot=False)
    msg = refused(hand, AskToGoOut(), CannotGoOut, 0)
    assert "partner must be in their foot" in msg
    put_in_foot(hand, 2, "AH AD 6H")  # no turn from the foot needed
    hand.apply(AskToGoOut(), 0)
    assert hand.phase == Phase.ASK


def test_to_end_a_player_may_discard_the_last_card() -> None:
    hand = ready_to_go_out()
    hand.apply(AskToGoOut(), 0)
    hand.apply(AnswerGoOut(True), 2)
    hand.apply(lay("KH KD KS"), 0)
    hand.apply(lay("QH QD QS"), 0)
    hand.apply(Discard(parse_card("9C")), 0)
    assert hand.ended_by == "out" and hand.pile_top == parse_card("9C")


def test_to_end_a_player_may_meld_every_card_without_a_discard() -> None:
    hand = ready_to_go_out()
    nines = on_table(hand, 0, "9H 9D 9S")  # laid earlier
    hand.apply(AskToGoOut(), 0)
    hand.apply(AnswerGoOut(True), 2)
    hand.apply(lay("KH KD KS"), 0)
    hand.apply(lay("QH QD QS"), 0)
    refused(hand, AddToMeld(0, parse_cards("9C")), BadMeld, 0)  # not on the 4s
    hand.apply(AddToMeld(hand.melds[0].index(nines), parse_cards("9C")), 0)
    assert hand.ended_by == "out" and hand.went_out == 0 and hand.hand_len[0] == 0


def test_before_going_out_the_player_must_ask_their_teammate() -> None:
    hand = ready_to_go_out()
    hand.apply(lay("KH KD KS"), 0)
    msg = refused(hand, lay("QH QD QS"), CannotGoOut, 0)
    assert "ask your partner" in msg
    hand.apply(AskToGoOut(), 0)
    assert hand.actor == 2


def _one_card_short_of_the_last_canasta(held: str) -> Hand:
    """Team 0 has every canasta but a second black one: its 8s are six cards. Seat 0,
    in its foot, holds ``held`` and draws Q 9."""
    hand = deal(stock="QS 9C")
    for canasta in (*CANASTAS[:3], CANASTAS[4]):
        on_table(hand, 0, canasta)
    on_table(hand, 0, "8C 8D 8H 8S 8C 2D")
    put_in_foot(hand, 0, held)
    put_in_foot(hand, 2, "AH AD 6H")
    hand.apply(Draw(), 0)
    return hand


def test_before_going_out_a_player_who_can_complete_the_last_canasta_may_ask() -> None:
    # "Before doing so, the player must ask their teammate if they may go out": a player
    # who can complete the last canasta and use up the cards this turn may ask, so the
    # card that completes it can be part of going out.
    hand = _one_card_short_of_the_last_canasta("8D KH KD KS QH QD")
    assert hand.books_missing(0) == "1 more black canasta"
    assert AskToGoOut() in hand.legal_actions()
    hand.apply(AskToGoOut(), 0)
    hand.apply(AnswerGoOut(True), 2)
    hand.apply(AddToMeld(4, parse_cards("8D")), 0)  # the last canasta
    hand.apply(lay("KH KD KS"), 0)
    hand.apply(lay("QH QD QS"), 0)
    hand.apply(Discard(parse_card("9C")), 0)
    assert hand.ended_by == "out" and hand.went_out == 0


def test_a_player_who_cannot_complete_the_last_canasta_this_turn_may_not_ask() -> None:
    hand = _one_card_short_of_the_last_canasta("KH KD KS QH QD 4H")  # no 8, no wild
    msg = refused(hand, AskToGoOut(), CannotGoOut, 0)
    assert msg == "Your team cannot go out yet: it needs 1 more black canasta."
    assert AskToGoOut() not in hand.legal_actions()


def test_if_the_teammate_says_yes_then_the_game_can_end() -> None:
    hand = ready_to_go_out()
    hand.apply(AskToGoOut(), 0)
    hand.apply(AnswerGoOut(True), 2)
    hand.apply(lay("KH KD KS"), 0)
    hand.apply(lay("QH QD QS"), 0)
    hand.apply(Discard(parse_card("9C")), 0)
    assert phase_of(hand) == Phase.OVER and hand.ended_by == "out"


def test_if_the_teammate_says_no_the_player_cannot_go_out_that_turn() -> None:
    hand = ready_to_go_out()
    hand.apply(AskToGoOut(), 0)
    hand.apply(AnswerGoOut(False), 2)
    hand.apply(lay("KH KD KS"), 0)
    msg = refused(hand, lay("QH QD QS"), CannotGoOut, 0)
    assert "said no" in msg


# --------------------------------------------------------- the frozen pile
def _frozen_by_a_wild() -> Hand:
    hand = deal(hands={0: "2C KH KD KS AH AD AS 9C 4C 5S 6C 7C 8C",
                       1: "9H 9S 4C 5C 6C 8C 10C JC QC KH AC 4S 5D",
                       2: "9C 9D JK 5D 6D 8D 10D JD QD KH AD 4H 6H",
                       3: "KD JK 10H JH QH 8H AH 8S 9S 10S JS QS 4D"},
                stock="8C 8D 10S 10H 4S 5S 6S 7S")
    on_table(hand, 0, "9H 9D 9S")
    on_table(hand, 1, "9C 9C 9C")
    put_pile(hand, "4H 5H 6H 7H 8H 10D JD")
    hand.apply(Draw(), 0)
    hand.apply(Discard(parse_card("2C")), 0)
    return hand


def test_if_a_player_discards_a_wild_card_the_next_player_cannot_pick_up_the_pile() -> None:
    hand = _frozen_by_a_wild()
    refused(hand, TakePile(()), PileNotAvailable, 1)
    msg = refused(hand, TakePile(parse_cards("9H 9S")), PileNotAvailable, 1)
    assert "wild card" in msg
    assert not any(isinstance(a, TakePile) for a in hand.legal_actions())


def test_the_following_players_must_have_two_of_a_card_to_pick_up_the_pile() -> None:
    hand = _frozen_by_a_wild()
    hand.apply(Draw(), 1)
    hand.apply(Discard(parse_card("9S")), 1)
    msg = refused(hand, TakePile(()), PileNotAvailable, 2)  # a meld on the board: no
    assert "frozen" in msg
    refused(hand, TakePile(parse_cards("9C JK")), PileNotAvailable, 2)  # natural + wild: no
    hand.apply(TakePile(parse_cards("9C 9D")), 2)  # a natural pair: yes
    assert len(hand.melds[0][0].cards) == 6


def test_after_this_happens_the_deck_is_unfrozen() -> None:
    hand = _frozen_by_a_wild()
    hand.apply(Draw(), 1)
    hand.apply(Discard(parse_card("9S")), 1)
    hand.apply(TakePile(parse_cards("9C 9D")), 2)  # takes 7, the 2C among them
    assert hand.pile_wilds == 0 and hand.pile == list(parse_cards("4H 5H"))
    hand.apply(Discard(parse_card("KH")), 2)
    hand.apply(TakePile(parse_cards("KD JK")), 3)  # natural + wild is enough again
    assert hand.melds[1][-1].rank == 13 and hand.pile == []


def test_the_pile_is_unfrozen_once_taken_even_if_a_wild_lies_deeper() -> None:
    hand = _frozen_by_a_wild()
    hand.apply(Draw(), 1)
    hand.apply(Discard(parse_card("9S")), 1)
    put_pile(hand, "JK 4H 5H 6H 7H 8H 10D JD 9S")  # a wild deep under 9 cards
    assert hand.pile_wilds == 1
    hand.apply(TakePile(parse_cards("9C 9D"), 7), 2)  # takes the top 7 only
    assert hand.pile == list(parse_cards("JK 4H")) and hand.pile_wilds == 0
    hand.apply(Discard(parse_card("KH")), 2)
    hand.apply(TakePile(parse_cards("KD JK")), 3)  # natural + wild takes it again
    assert hand.melds[1][-1].rank == 13


def test_a_red_3_or_wild_first_turnover_card_is_placed_back_and_another_drawn() -> None:
    assert RULES.deal.upcard_turn_back == ("red-three", "wild")
    for first in ("3H", "3D", "2C", "JK"):
        hand = deal(upcard=first, stock="7C 8D 9S")
        assert hand.pile == [parse_card("7C")]
        assert hand.stock[-1] == parse_card("8D")
        assert hand.stock[0] == parse_card(first)  # back at the bottom of the stock
    hand = deal(upcard="3H", stock="JK 2S 7C 8D")
    assert hand.pile == [parse_card("7C")] and hand.stock[-1] == parse_card("8D")
    # a black 3 is not turned back, and it freezes the pile: the first player draws
    hand = deal(upcard="3C")
    assert hand.pile == [parse_card("3C")]
    assert "freezes the pile" in refused(hand, TakeUpcard(), PileNotAvailable, 0)


# ------------------------------------------------------------- scoring
def test_going_out_500_points() -> None:
    assert RULES.scores.going_out == 500
    hand = ready_to_go_out()
    hand.apply(AskToGoOut(), 0)
    hand.apply(AnswerGoOut(True), 2)
    hand.apply(lay("KH KD KS"), 0)
    hand.apply(lay("QH QD QS"), 0)
    hand.apply(Discard(parse_card("9C")), 0)
    scores = score_hand(hand)
    assert scores[0].going_out == 500 and scores[1].going_out == 0
    # 2 red (1000) + 2 black (600) + wild (1500); cards: 4s 35, 5s 35, 7s 25+20+50,
    # 8s 60+20, wilds 20*5+100, KKK 30, QQQ 30; seat 2 holds A A 6 (-45)
    assert scores[0].total == 1000 + 600 + 1500 + (35 + 35 + 95 + 80 + 200 + 60) - 45 + 500


@pytest.mark.parametrize(("count", "points"), [
    (1, 100), (2, 200), (3, 300), (4, 400), (5, 1000), (6, 1100), (7, 1200), (10, 1500),
])
def test_red_3s_100_each_unless_a_team_has_5_then_1000_and_each_further_100(
        count: int, points: int) -> None:
    s = score_team(RULES, 0, [], (), red_threes_on_board=count)
    assert s.red_threes == points and s.total == points


def test_red_canasta_500_points() -> None:
    s = score_team(RULES, 0, [(RANK_MELD, parse_cards("4H 4D 4S 4C 4H 4D 4S"))], ())
    assert s.clean_book_points == 500 and s.total == 535


def test_black_canasta_300_points() -> None:
    s = score_team(RULES, 0, [(RANK_MELD, parse_cards("4H 4D 4S 4C 4H 4D 2S"))], ())
    assert s.dirty_book_points == 300 and s.total == 300 + 30 + 20


def test_wild_card_canasta_1500_points() -> None:
    s = score_team(RULES, 0, [(WILD_MELD, parse_cards("2C 2D 2H 2S 2C 2D 2H"))], ())
    assert s.wild_book_points == 1500 and s.total == 1500 + 140


def test_samba_1500_points() -> None:
    s = score_team(RULES, 0, [(SEQUENCE, parse_cards("8S 9S 10S JS QS KS AS"))], ())
    assert s.sequence_book_points == 1500 and s.total == 1500 + 80


def test_some_people_play_that_a_canasta_of_all_red_7s_is_worth_1500() -> None:
    red7s = parse_cards("7H 7D 7H 7D 7H 7D 7H")
    assert RULES.scores.red_sevens_book == 0  # off unless a house turns it on
    assert score_team(RULES, 0, [(RANK_MELD, red7s)], ()).clean_book_points == 500
    house = dataclasses.replace(RULES, scores=dataclasses.replace(
        RULES.scores, red_sevens_book=1500))
    assert isinstance(house.scores, Scores)
    s = score_team(house, 0, [(RANK_MELD, red7s)], ())
    assert (s.red_sevens_books, s.red_sevens_book_points, s.clean_book_points) == (1, 1500, 0)
    # switched back to a regular canasta by adding a black 7
    s = score_team(house, 0, [(RANK_MELD, (*red7s, parse_card("7S")))], ())
    assert (s.red_sevens_books, s.clean_books, s.clean_book_points) == (0, 1, 500)


def test_the_canasta_alias_is_the_samba_preset() -> None:
    assert preset("canasta") == RULES and RULES.name == "samba"


def test_two_red_canastas_two_black_canastas_and_a_wild_card_canasta_in_those_words(
) -> None:
    # "each team must have two red canastas, two black canastas and one wild card
    # canasta"; "A samba is a 7 card sequence".
    seen = book_words(RULES, ["QC QD QH QS QC QD QH", "JC JD JH JS 2C 2D JK",
                              "6H 7H 8H 9H 10H JH QH"])
    assert seen["names"] == ["red canasta", "black canasta", "samba"]
    need = "1 more red canasta and 1 more black canasta and 1 more wild-card canasta"
    assert seen["to_go_out"] == need
    assert seen["refusals"] == [
        f"You cannot go out yet: your team needs {need}. Keep at least one card.",
        f"Your team cannot go out yet: it needs {need}."]
    assert "(samba)" in seen["terminal"] and "(black canasta)" in seen["terminal"]
    assert seen["sheet"][:3] == ["Red canastas (1)", "Black canastas (1)", "Sambas (1)"]
    assert not any(w in str(seen) for w in ("clean", "dirty", "book"))
