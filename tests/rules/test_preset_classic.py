"""The `classic` preset, sentence by sentence (shared/seeds/002_64c4ba27c6fcd689.txt).

Each test is named after the sentence of the sheet it checks; docs/rules/classic.md
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
    LayDown,
    PickUpFoot,
    TakePile,
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
from handfoot.rules import Players, Rules, preset
from helpers import book_words, refused
from stacked import on_table, phase_of, put_in_foot, put_pile, stacked_hand

RULES = preset("classic")

# Three clean and four dirty books: what going out needs.
BOOKS = (
    "4C 4D 4H 4S 4C 4D 4H",
    "5C 5D 5H 5S 5C 5D 5H",
    "6C 6D 6H 6S 6C 6D 6H",
    "7C 7D 7H 7S 7C 2C JK",
    "8C 8D 8H 8S 8C 8D 2D",
    "9C 9D 9H 9S 9C 2H 2S",
    "10C 10D 10H 10S 10C 10D JK",
)


# ---------------------------------------------------------------- helpers
# A stacked hand under these rules; another rules' hand is stacked_hand(rules, ...).
deal = functools.partial(stacked_hand, RULES)


def ready_to_go_out(rules: Rules = RULES, partner_turns: int = 1) -> Hand:
    """Team 0 (seats 0, 2) has 3 clean + 4 dirty books; seat 0 is in the foot holding
    K K K Q Q and draws Q 9; seat 2 has played ``partner_turns`` turns from its foot."""
    hand = stacked_hand(rules, stock="QS 9C")
    for book in BOOKS:
        on_table(hand, 0, book)
    put_in_foot(hand, 0, "KH KD KS QH QD")
    put_in_foot(hand, 2, "AH AD 5H", foot_turns=partner_turns)
    hand.apply(Draw(), 0)
    return hand


def census_total(hand: Hand) -> int:
    return sum(hand.card_census())


# ------------------------------------------------------------ paragraph 1
def test_each_player_is_dealt_two_sets_of_cards_the_hand_and_the_foot() -> None:
    hand = Hand(RULES, Deal.shuffled(RULES, random.Random(5)))
    for seat in range(4):
        assert hand.hand_len[seat] == 11
        foot = hand.feet[seat]
        assert foot is not None and len(foot) == 11
        assert not hand.in_foot[seat]
    assert census_total(hand) == 270


def test_the_foot_is_played_when_the_hand_is_exhausted() -> None:
    hand = deal(hands={0: "KH KD KS QH QD QS JH JD JS 9C 9D"}, stock="10C 10D")
    on_table(hand, 0, "AH AD AS")
    hand.apply(Draw(), 0)
    msg = refused(hand, PickUpFoot(), IllegalAction, 0)
    assert "Play every card of your hand" in msg


def test_the_game_described_here_is_for_four_players_in_partnership() -> None:
    assert RULES.players.seats == 4
    assert RULES.players.teams == 2
    assert RULES.team_size == 2


def test_it_can_also_be_played_by_six_in_two_teams_of_three() -> None:
    six = dataclasses.replace(RULES, players=Players(seats=6, teams=2))
    assert six.team_of == (0, 1, 0, 1, 0, 1)
    assert six.num_decks == 7 and six.num_cards == 378
    game = Game(six, seed=11)
    hand = game.hand
    assert [hand.hand_len[s] for s in range(6)] == [11] * 6
    assert hand.team_seats(0) == [0, 2, 4]
    rng = random.Random(3)
    acted: set[int] = set()
    for _ in range(400):
        if game.over or game.hand.phase == Phase.OVER:
            break
        acted.add(game.hand.actor)
        game.apply(rng.choice(game.legal_actions()))
        assert census_total(game.hand) == 378
    assert acted == set(range(6))


def test_six_players_go_out_only_when_both_partners_have_played_from_the_foot() -> None:
    six = dataclasses.replace(RULES, players=Players(seats=6, teams=2))
    hand = stacked_hand(six, stock="QS 9C")
    for book in BOOKS:
        on_table(hand, 0, book)
    put_in_foot(hand, 0, "KH KD KS QH QD")
    put_in_foot(hand, 2, "AH AD 5H", foot_turns=1)
    hand.apply(Draw(), 0)
    msg = refused(hand, AskToGoOut(), CannotGoOut, 0)
    assert "picked up their foot" in msg
    put_in_foot(hand, 4, "AC AS 5S", foot_turns=1)
    hand.apply(AskToGoOut(), 0)
    assert hand.actor == 2  # the next partner in turn order answers
    hand.apply(AnswerGoOut(True), 2)
    hand.apply(LayDown(((parse_cards("KH KD KS")),)), 0)
    hand.apply(LayDown(((parse_cards("QH QD QS")),)), 0)
    hand.apply(Discard(parse_card("9C")), 0)
    assert hand.phase == Phase.OVER and hand.ended_by == "out" and hand.went_out == 0


def test_or_by_any_number_of_people_playing_as_individuals() -> None:
    for seats in (2, 3, 5):
        alone = dataclasses.replace(RULES, players=Players(seats=seats, teams=seats))
        assert alone.individuals
        assert alone.num_decks == seats + 1
        game = Game(alone, seed=seats)
        rng = random.Random(seats)
        for _ in range(150):
            if game.hand.phase == Phase.OVER:
                break
            game.apply(rng.choice(game.legal_actions()))
        assert census_total(game.hand) == alone.num_cards


def test_individuals_go_out_without_asking_anyone() -> None:
    alone = dataclasses.replace(RULES, players=Players(seats=3, teams=3))
    hand = stacked_hand(alone, stock="QS 9C")
    for book in BOOKS:
        on_table(hand, 0, book)
    put_in_foot(hand, 0, "KH KD KS QH QD")
    hand.apply(Draw(), 0)
    refused(hand, AskToGoOut(), IllegalAction, 0)
    assert hand.go_out_blocker(0) is None
    hand.apply(LayDown(((parse_cards("KH KD KS")),)), 0)
    hand.apply(LayDown(((parse_cards("QH QD QS")),)), 0)
    hand.apply(Discard(parse_card("9C")), 0)
    assert hand.ended_by == "out"
    scores = score_hand(hand)
    assert len(scores) == 3
    assert scores[0].going_out == 100 and scores[1].going_out == 0


def test_additional_decks_must_be_added_number_of_players_plus_one_deck() -> None:
    for seats, teams in ((4, 2), (6, 2), (6, 3), (2, 2), (5, 5)):
        rules = dataclasses.replace(RULES, players=Players(seats=seats, teams=teams))
        assert rules.num_decks == seats + 1
        assert rules.num_cards == (seats + 1) * 54


# ------------------------------------------------------------ paragraph 2
def test_partners_sit_kitty_corner() -> None:
    assert RULES.team_of == (0, 1, 0, 1)
    hand = deal()
    assert hand.partner_to_ask(0) == 2 and hand.partner_to_ask(1) == 3


def test_five_decks_including_two_jokers_per_deck_270_cards() -> None:
    assert RULES.num_decks == 5
    assert RULES.deck.jokers_per_deck == 2
    assert RULES.num_cards == 270
    hand = deal()
    census = hand.card_census()
    assert census[JOKER] == 10
    assert census[parse_card("QH")] == 5
    assert sum(census) == 270


def test_the_cards_are_stacked_in_two_piles_leaving_room_for_the_discard_pile() -> None:
    hand = deal()
    assert hand.pile == []  # no upcard: the first player's discard starts the pile
    assert len(hand.stock) == 270 - 4 * 22


# ------------------------------------------------------------ paragraph 3
def test_choose_which_partner_will_play_first() -> None:
    assert RULES.deal.first_player == "rotate"
    hand = deal(first_seat=3)
    assert hand.actor == 3 and hand.phase == Phase.DRAW
    game = Game(RULES, seed=2)
    first = game.hand.first_seat
    while game.hand.hand_number == 1:
        game.hand.call_time()
        game._finish_hand()
    assert game.hand.first_seat == (first + 1) % 4


def test_deals_two_piles_of_11_cards_each() -> None:
    assert (RULES.deal.hand_size, RULES.deal.foot_size) == (11, 11)
    hand = deal(hands={1: "KH KD KS QH QD QS JH JD JS 9C 9D"},
                feet={1: "4C 4D 4H 5C 5D 5H 6C 6D 6H 7C 7D"})
    assert sorted(hand.hand_cards(1)) == sorted(parse_cards("KH KD KS QH QD QS JH JD JS 9C 9D"))
    assert sorted(hand.feet[1] or []) == sorted(parse_cards("4C 4D 4H 5C 5D 5H 6C 6D 6H 7C 7D"))


def test_the_left_pile_is_a_hand_and_the_other_pile_the_foot_no_choice() -> None:
    assert RULES.deal.choose_hand == "blind"
    hand = deal()
    assert hand.phase == Phase.DRAW  # no choosing phase


def test_play_passes_clockwise_from_the_first_player() -> None:
    hand = deal(hands={1: "KH KD KS QH QD QS JH JD JS 9C 9D"}, first_seat=1)
    hand.apply(Draw(), 1)
    refused(hand, Draw(), IllegalAction, 2)
    hand.apply(Discard(parse_card("9C")), 1)
    assert hand.actor == 2 and hand.phase == Phase.DRAW


def test_a_player_who_cuts_exactly_22_cards_earns_his_team_100_points() -> None:
    assert RULES.deal.exact_grab_bonus == 100
    hand = deal(grabs=(22, 21, 22, 23))
    hand.call_time()
    scores = score_hand(hand)
    assert scores[0].deal_bonus == 200  # seats 0 and 2, both exact
    assert scores[1].deal_bonus == 0
    hand = deal(grabs=(23, 22, 20, 24))
    hand.call_time()
    assert [s.deal_bonus for s in score_hand(hand)] == [0, 100]


def test_each_player_sets_his_foot_aside_face_down_without_looking() -> None:
    hand = deal(hands={0: "KH KD KS QH QD QS JH JD JS 9C 9D"},
                feet={0: "AH AD AS 4C 4D 4H 5C 5D 5H 6C 6D"}, stock="10C 10D")
    on_table(hand, 0, "8H 8D 8S")
    hand.apply(Draw(), 0)
    # foot cards cannot be played while the foot is set aside
    refused(hand, LayDown(((parse_cards("AH AD AS")),)), CardsNotHeld, 0)
    assert hand.known[0] == [0] * len(hand.known[0])


def test_play_begins_by_the_player_chosen_to_play_first() -> None:
    hand = deal(first_seat=2)
    refused(hand, Draw(), IllegalAction, 0)
    hand.apply(Draw(), 2)
    assert hand.phase == Phase.PLAY


# ------------------------------------------------------------ paragraph 4
def test_the_object_is_to_play_the_hand_then_the_foot_forming_books_and_go_out() -> None:
    hand = ready_to_go_out()
    hand.apply(AskToGoOut(), 0)
    hand.apply(AnswerGoOut(True), 2)
    hand.apply(LayDown(((parse_cards("KH KD KS")),)), 0)
    hand.apply(LayDown(((parse_cards("QH QD QS")),)), 0)
    hand.apply(Discard(parse_card("9C")), 0)
    assert hand.phase == Phase.OVER
    assert hand.ended_by == "out" and hand.went_out == 0


def test_the_team_going_out_first_earns_an_extra_100_points() -> None:
    hand = ready_to_go_out()
    hand.apply(AskToGoOut(), 0)
    hand.apply(AnswerGoOut(True), 2)
    hand.apply(LayDown(((parse_cards("KH KD KS")),)), 0)
    hand.apply(LayDown(((parse_cards("QH QD QS")),)), 0)
    hand.apply(Discard(parse_card("9C")), 0)
    scores = score_hand(hand)
    assert scores[0].going_out == 100
    assert scores[1].going_out == 0


# ------------------------------------------------------------ paragraph 5
def test_a_meld_is_a_set_of_from_three_to_seven_cards_of_equal_rank() -> None:
    hand = deal(hands={0: "KH KD KS KC QH QD QS JH JD 9C 9D"}, stock="10C 10D")
    on_table(hand, 0, "AH AD AS")
    hand.apply(Draw(), 0)
    refused(hand, LayDown(((parse_cards("KH KD")),)), BadMeld, 0)
    refused(hand, LayDown(((parse_cards("KH KD QS")),)), BadMeld, 0)
    hand.apply(LayDown(((parse_cards("KH KD KS")),)), 0)
    meld = hand.melds[0][-1]
    assert meld.kind == RANK_MELD and meld.rank == 13 and len(meld.cards) == 3


def test_melds_belong_to_the_partnership_not_the_individual() -> None:
    hand = deal(hands={0: "KH KD KS QH QD QS JH JD JS 9C 9D",
                       2: "KC KH 5C 5D 6C 6D 7H 8H 9H 10H JC"}, stock="4C 4D 4H 4S")
    on_table(hand, 0, "AH AD AS")
    hand.apply(Draw(), 0)
    hand.apply(LayDown(((parse_cards("KH KD KS")),)), 0)
    hand.apply(Discard(parse_card("9C")), 0)
    hand.apply(Draw(), 1)
    hand.apply(Discard(hand.hand_cards(1)[0]), 1)
    hand.apply(Draw(), 2)
    index = len(hand.melds[0]) - 1
    hand.apply(AddToMeld(index, parse_cards("KC KH")), 2)
    assert len(hand.melds[0][index].cards) == 5
    assert hand.melds[1] == []


def test_either_partner_can_add_to_a_meld_to_form_a_book_of_seven() -> None:
    hand = deal(hands={2: "KC KH 5C 5D 6C 6D 7H 8H 9H 10H JC"}, first_seat=2)
    meld = on_table(hand, 0, "KD KS KH KD KS")
    hand.apply(Draw(), 2)
    hand.apply(AddToMeld(0, parse_cards("KC KH")), 2)
    assert len(meld.cards) == 7
    assert hand.books(0) == (1, 0, 0, 0)


def test_any_cards_except_threes_jokers_and_twos_can_be_melded() -> None:
    hand = deal(hands={0: "3C 3S 3C 3H 3D 3H QD QS JH JD 9C"}, stock="10C 10D")
    on_table(hand, 0, "AH AD AS")
    hand.apply(Draw(), 0)
    refused(hand, LayDown(((parse_cards("3C 3S 3C")),)), BadMeld, 0)
    refused(hand, LayDown(((parse_cards("3H 3D 3H")),)), BadMeld, 0)
    for rank in ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"):
        other = deal(hands={0: f"{rank}C {rank}D {rank}H"})
        on_table(other, 0, "AH AD AS" if rank != "A" else "KH KD KS")
        other.apply(Draw(), 0)
        other.apply(LayDown(((parse_cards(f"{rank}C {rank}D {rank}H")),)), 0)


def test_jokers_and_twos_are_wild_and_cannot_be_used_as_books_on_their_own() -> None:
    assert not RULES.meld.wild_melds
    hand = deal(hands={0: "2C 2D 2H JK JK 2S 2C QS JH JD 9C"}, stock="10C 10D")
    on_table(hand, 0, "AH AD AS")
    hand.apply(Draw(), 0)
    msg = refused(hand, LayDown(((parse_cards("2C 2D 2H")),)), BadMeld, 0)
    assert "Wild cards cannot make a meld" in msg
    refused(hand, LayDown(((parse_cards("2C 2D 2H JK JK 2S 2C")),)), BadMeld, 0)


def test_a_discarded_two_or_joker_freezes_the_pile_against_an_opponent() -> None:
    for wild in ("2C", "JK"):
        hand = deal(hands={0: f"{wild} KD KS QH QD QS JH JD JS 9C 9D",
                           1: "9H 9S 4C 5C 6C 7C 8C 10C JC KC AC"})
        on_table(hand, 1, "AH AD AS")
        put_pile(hand, "5H 6H 8D 4S")
        hand.apply(Draw(), 0)
        hand.apply(Discard(parse_card(wild)), 0)
        assert hand.pile_top == parse_card(wild)
        msg = refused(hand, TakePile(parse_cards("9H 9S")), PileNotAvailable, 1)
        assert "frozen" in msg
        assert not any(isinstance(a, TakePile) for a in hand.legal_actions())


def test_threes_are_discard_cards_only_and_also_freeze_the_pile() -> None:
    for three in ("3C", "3H"):
        hand = deal(hands={0: f"{three} KD KS QH QD QS JH JD JS 9C 9D",
                           1: "9H 9S 4C 5C 6C 7C 8C 10C JC KC AC"})
        on_table(hand, 1, "AH AD AS")
        put_pile(hand, "5H 6H 9D")
        hand.apply(Draw(), 0)
        hand.apply(Discard(parse_card(three)), 0)
        msg = refused(hand, TakePile(parse_cards("9H 9S")), PileNotAvailable, 1)
        assert "a 3" in msg
        # once covered, the 3 no longer freezes it
        hand.apply(Draw(), 1)
        hand.apply(Discard(parse_card("4C")), 1)
        assert hand.pile_blocker(2) is None


# ------------------------------------------------------------ paragraph 6
def test_wild_cards_cannot_be_used_if_they_equal_or_outnumber_the_original_card() -> None:
    hand = deal(hands={0: "QH QD 2C 2D JK 9S JH JD JS 9C 9D"}, stock="10C 10D")
    on_table(hand, 0, "AH AD AS")
    hand.apply(Draw(), 0)
    refused(hand, LayDown(((parse_cards("QH 2C 2D")),)), BadMeld, 0)
    refused(hand, LayDown(((parse_cards("QH QD 2C 2D JK")),)), BadMeld, 0)
    # and never later either: adding a second wild to Q Q 2 is refused
    hand.apply(LayDown(((parse_cards("QH QD 2C")),)), 0)
    index = len(hand.melds[0]) - 1
    msg = refused(hand, AddToMeld(index, parse_cards("2D")), BadMeld, 0)
    assert "more natural cards than wild cards" in msg


def test_two_queens_and_one_wild_card_can_be_used_for_three_queens() -> None:
    hand = deal(hands={0: "QH QD 2C 2D JK 9S JH JD JS 9C 9D"}, stock="10C 10D")
    on_table(hand, 0, "AH AD AS")
    hand.apply(Draw(), 0)
    hand.apply(LayDown(((parse_cards("QH QD JK")),)), 0)
    meld = hand.melds[0][-1]
    assert (meld.rank, meld.naturals, meld.wilds) == (12, 2, 1)


def test_two_wild_cards_and_two_queens_cannot_be_used() -> None:
    hand = deal(hands={0: "QH QD 2C 2D JK 9S JH JD JS 9C 9D"}, stock="10C 10D")
    on_table(hand, 0, "AH AD AS")
    hand.apply(Draw(), 0)
    msg = refused(hand, LayDown(((parse_cards("QH QD 2C 2D")),)), BadMeld, 0)
    assert "2 natural and 2 wild" in msg


def test_only_three_wild_cards_can_be_used_to_form_a_book() -> None:
    hand = deal(hands={0: "QH QD QS QC QH 2C 2D 2H JK 9C 9D"}, stock="10C 10D")
    on_table(hand, 0, "AH AD AS")
    hand.apply(Draw(), 0)
    refused(hand, LayDown(((parse_cards("QH QD QS QC 2C 2D 2H JK")),)), BadMeld, 0)
    hand.apply(LayDown(((parse_cards("QH QD QS QC 2C 2D 2H")),)), 0)
    assert hand.books(0) == (0, 1, 0, 0)


def test_wild_cards_cannot_be_added_to_a_book_that_has_been_completed() -> None:
    hand = deal(hands={0: "QH 2C JK QS JH JD JS 9C 9D 8C 8D"}, stock="10C 10D")
    on_table(hand, 0, "KH KD KS KC KH KD KS")
    on_table(hand, 0, "AH AD AS AC AH 2D 2S")
    hand.apply(Draw(), 0)
    msg = refused(hand, AddToMeld(0, parse_cards("2C")), BadMeld, 0)
    assert "complete book" in msg
    refused(hand, AddToMeld(1, parse_cards("JK")), BadMeld, 0)


# ------------------------------------------------------------ paragraph 7
def test_an_initial_meld_must_include_one_clean_book_and_one_dirty_book() -> None:
    assert RULES.opening.minimums == (0,)
    hand = deal(hands={0: "KH KD KS QH QD 2C 7S 7H 7D 9C 9D"}, stock="10C 10D")
    hand.apply(Draw(), 0)
    msg = refused(hand, LayDown(((parse_cards("KH KD KS")),)), OpeningTooLow, 0)
    assert "dirty" in msg
    msg = refused(hand, LayDown(((parse_cards("QH QD 2C")),)), OpeningTooLow, 0)
    assert "clean" in msg
    hand.apply(LayDown((parse_cards("KH KD KS"), parse_cards("QH QD 2C"))), 0)
    assert hand.opened[0]
    assert len(hand.melds[0]) == 2


def test_there_is_no_point_minimum_for_the_initial_meld() -> None:
    hand = deal(hands={0: "4H 4D 4S 5H 5D 2C 7S 7H 7D 9C 9D"}, stock="10C 10D")
    hand.apply(Draw(), 0)
    hand.apply(LayDown((parse_cards("4H 4D 4S"), parse_cards("5H 5D 2C"))), 0)  # 50 points
    assert hand.opened[0] and hand.minimums == [0, 0]


def test_one_clean_book_must_contain_only_the_original_cards_no_wild_cards() -> None:
    hand = deal(hands={0: "KH KD JK QH QD 2C 7S 7H 7D 9C 9D"}, stock="10C 10D")
    hand.apply(Draw(), 0)
    refused(hand, LayDown((parse_cards("KH KD JK"), parse_cards("QH QD 2C"))),
            OpeningTooLow, 0)


def test_the_dirty_book_must_contain_at_least_one_wild_card() -> None:
    hand = deal(hands={0: "KH KD KS QH QD QS 7S 7H 7D 9C 9D"}, stock="10C 10D")
    hand.apply(Draw(), 0)
    msg = refused(hand, LayDown((parse_cards("KH KD KS"), parse_cards("QH QD QS"))),
                  OpeningTooLow, 0)
    assert "dirty" in msg


def test_additional_books_may_be_started_at_the_time_of_the_initial_meld() -> None:
    hand = deal(hands={0: "KH KD KS QH QD 2C 7S 7H 7D 9C 9D"}, stock="10C 10D")
    hand.apply(Draw(), 0)
    hand.apply(LayDown((parse_cards("KH KD KS"), parse_cards("QH QD 2C"),
                        parse_cards("7S 7H 7D"))), 0)
    assert sorted(m.rank for m in hand.melds[0]) == [7, 12, 13]


def test_after_the_initial_meld_new_books_are_started_one_at_a_time() -> None:
    hand = deal(hands={0: "KH KD KS QH QD 2C 7S 7H 7D 9C 9D"}, stock="9S 10C")
    hand.apply(Draw(), 0)
    hand.apply(LayDown((parse_cards("KH KD KS"), parse_cards("QH QD 2C"))), 0)
    msg = refused(hand, LayDown((parse_cards("7S 7H 7D"), parse_cards("9C 9D 9S"))), BadMeld, 0)
    assert "one meld at a time" in msg


# ------------------------------------------------------------ paragraph 8
def test_one_partner_keeps_the_books_the_other_the_completed_books() -> None:
    """Table manners: the software keeps every meld and book of a team in one list,
    shared by the partners; complete books are told apart by their size."""
    hand = deal()
    on_table(hand, 0, "KH KD KS KC KH KD KS")
    on_table(hand, 0, "QH QD QS")
    assert [len(m.cards) >= RULES.meld.book_size for m in hand.melds[0]] == [True, False]
    assert hand.books(0) == (1, 0, 0, 0)


def test_a_crosswise_card_shows_a_clean_or_dirty_book_with_one_card_to_go() -> None:
    """The hint is shown by the software: every meld knows its wilds and its size."""
    hand = deal()
    clean = on_table(hand, 0, "KH KD KS KC KH KD")
    dirty = on_table(hand, 0, "QH QD QS QC QH 2C")
    assert (len(clean.cards), clean.wilds) == (6, 0)
    assert (len(dirty.cards), dirty.wilds) == (6, 1)


def test_you_score_for_cards_played_and_lose_for_cards_left_in_your_hand() -> None:
    s = score_team(RULES, 0, melds=[(RANK_MELD, parse_cards("KH KD KS"))],
                   held=parse_cards("QH 5C"))
    assert s.table_cards == 30
    assert s.held_cards == -15
    assert s.total == 15


# ------------------------------------------------------------ paragraph 9
def test_a_clean_book_is_seven_original_cards() -> None:
    hand = deal()
    on_table(hand, 0, "KH KD KS KC KH KD KS")
    assert hand.books(0) == (1, 0, 0, 0)
    s = score_team(RULES, 0, melds=[(RANK_MELD, parse_cards("KH KD KS KC KH KD KS"))],
                   held=())
    assert (s.clean_books, s.clean_book_points, s.dirty_books) == (1, 500, 0)


def test_a_dirty_book_is_seven_cards_with_not_more_than_three_wild_cards() -> None:
    hand = deal()
    on_table(hand, 0, "KH KD KS KC 2C 2D JK")
    on_table(hand, 0, "QH QD QS QC QH QD 2S")
    on_table(hand, 0, "JH JD JS JC JH JD")
    assert hand.books(0) == (0, 2, 0, 0)
    s = score_team(RULES, 0, melds=[(RANK_MELD, parse_cards("KH KD KS KC 2C 2D JK"))],
                   held=())
    assert (s.dirty_books, s.dirty_book_points, s.clean_books) == (1, 300, 0)


def test_a_team_cannot_have_two_books_of_the_same_kind_in_play_at_the_same_time() -> None:
    hand = deal(hands={0: "KH KD KS QH QD QS JH JD JS 9C 9D"}, stock="10C 10D")
    on_table(hand, 0, "KC KC 2C")
    hand.apply(Draw(), 0)
    msg = refused(hand, LayDown(((parse_cards("KH KD KS")),)), BadMeld, 0)
    assert "complete it before starting another" in msg


def test_a_book_must_be_completed_before_another_of_the_same_original_is_started() -> None:
    hand = deal(hands={0: "KH KD KS QH QD QS JH JD JS 9C 9D"}, stock="10C 10D")
    on_table(hand, 0, "KC KC KC KS KS KD KD")  # a complete book of kings
    hand.apply(Draw(), 0)
    hand.apply(LayDown(((parse_cards("KH KD KS")),)), 0)
    assert [m.rank for m in hand.melds[0]] == [13, 13]


# ------------------------------------------------------------ paragraph 10
def test_a_hand_is_completed_with_3_clean_and_4_dirty_books_and_the_partner_in_foot() -> None:
    assert (RULES.going_out.clean_books, RULES.going_out.dirty_books) == (3, 4)
    assert RULES.going_out.partners == "played-from-foot"
    hand = deal(stock="QS 9C")
    for book in BOOKS[:-1]:  # 3 clean, only 3 dirty
        on_table(hand, 0, book)
    put_in_foot(hand, 0, "KH KD KS QH QD")
    put_in_foot(hand, 2, "AH AD 5H", foot_turns=1)
    hand.apply(Draw(), 0)
    msg = refused(hand, AskToGoOut(), CannotGoOut, 0)
    assert "1 more dirty book" in msg
    # a fourth clean book does not stand in for the missing dirty one
    on_table(hand, 0, "JC JD JH JS JC JD JH")
    refused(hand, AskToGoOut(), CannotGoOut, 0)
    on_table(hand, 0, "10C 10D 10H 10S 10C 10D JK")
    hand.apply(AskToGoOut(), 0)
    assert hand.phase == Phase.ASK


def test_the_other_partner_must_have_picked_up_his_foot_and_played_a_turn_from_it() -> None:
    hand = ready_to_go_out(partner_turns=0)
    msg = refused(hand, AskToGoOut(), CannotGoOut, 0)
    assert "played a turn from it" in msg
    hand.apply(Discard(parse_card("9C")), 0)
    hand.apply(Draw(), 1)
    hand.apply(Discard(hand.hand_cards(1)[0]), 1)
    hand.apply(Draw(), 2)  # the partner's turn from the foot
    hand.apply(Discard(parse_card("5H")), 2)
    assert hand.foot_turns[2] == 1
    hand.apply(Draw(), 3)
    hand.apply(Discard(hand.hand_cards(3)[0]), 3)
    hand.apply(Draw(), 0)
    hand.apply(AskToGoOut(), 0)
    assert hand.phase == Phase.ASK


def test_a_partner_still_in_the_hand_blocks_going_out() -> None:
    hand = deal(stock="QS 9C")
    for book in BOOKS:
        on_table(hand, 0, book)
    put_in_foot(hand, 0, "KH KD KS QH QD")
    hand.apply(Draw(), 0)
    assert hand.go_out_blocker(0) == \
        "your partner must have picked up their foot and played a turn from it"
    refused(hand, AskToGoOut(), CannotGoOut, 0)


def test_the_partner_going_out_must_ask_the_other_partner_for_permission() -> None:
    hand = ready_to_go_out()
    hand.apply(LayDown(((parse_cards("KH KD KS")),)), 0)
    msg = refused(hand, LayDown(((parse_cards("QH QD QS")),)), CannotGoOut, 0)
    assert "ask your partner" in msg
    hand.apply(AskToGoOut(), 0)
    assert hand.actor == 2 and hand.phase == Phase.ASK
    refused(hand, LayDown(((parse_cards("QH QD QS")),)), IllegalAction, 0)
    hand.apply(AnswerGoOut(True), 2)
    assert hand.actor == 0 and phase_of(hand) == Phase.PLAY
    hand.apply(LayDown(((parse_cards("QH QD QS")),)), 0)
    hand.apply(Discard(parse_card("9C")), 0)
    assert hand.ended_by == "out"


def test_if_the_partner_agrees_you_must_be_able_to_play_the_rest_of_your_cards() -> None:
    """"If the other partner agrees, you must be able to play the rest of the cards in
    your hand": after a yes the player goes out; a discard before the last card is
    refused (nothing changes), and the melds then play every card."""
    assert RULES.going_out.ask_when_able
    hand = ready_to_go_out()
    hand.apply(AskToGoOut(), 0)
    hand.apply(AnswerGoOut(True), 2)
    msg = refused(hand, Discard(parse_card("9C")), CannotGoOut, 0)
    assert "play the rest of your cards" in msg
    assert Discard(parse_card("9C")) not in hand.legal_actions()
    hand.apply(LayDown(((parse_cards("KH KD KS")),)), 0)
    refused(hand, Discard(parse_card("9C")), CannotGoOut, 0)
    hand.apply(LayDown(((parse_cards("QH QD QS")),)), 0)
    hand.apply(Discard(parse_card("9C")), 0)  # the last card may be the discard
    assert hand.ended_by == "out" and hand.went_out == 0


def test_asking_is_refused_when_you_cannot_play_the_rest_of_your_cards() -> None:
    """A player who could not play every card this turn may not ask (the reason is given);
    the hand is as it was."""
    hand = stacked_hand(RULES, stock="JS 10C")
    for book in BOOKS:
        on_table(hand, 0, book)
    put_in_foot(hand, 0, "KH KD KS QH 8D")
    put_in_foot(hand, 2, "AH AD 5H", foot_turns=1)
    hand.apply(Draw(), 0)  # K K K Q 8 J 10: three cards with no meld
    msg = refused(hand, AskToGoOut(), CannotGoOut, 0)
    assert "Ask only when you can play the rest of your cards" in msg
    assert AskToGoOut() not in hand.legal_actions()


def test_a_lone_card_with_no_meld_may_be_the_discard_so_asking_is_allowed() -> None:
    hand = stacked_hand(RULES, stock="QS 10C")
    for book in BOOKS:
        on_table(hand, 0, book)
    put_in_foot(hand, 0, "KH KD KS QH QD")
    put_in_foot(hand, 2, "AH AD 5H", foot_turns=1)
    hand.apply(Draw(), 0)  # K K K Q Q Q and a lone 10: the 10 is the discard
    assert hand.out_this_turn_blocker(0) is None
    hand.apply(AskToGoOut(), 0)
    assert hand.phase == Phase.ASK


def test_wild_cards_must_have_room_on_the_melds_to_ask() -> None:
    hand = stacked_hand(RULES, stock="2D JK")
    for book in BOOKS:
        on_table(hand, 0, book)
    put_in_foot(hand, 0, "KH KD KS 2H 2S")
    put_in_foot(hand, 2, "AH AD 5H", foot_turns=1)
    hand.apply(Draw(), 0)  # K K K and four wilds: three kings take two wilds at most
    assert "wild" in (hand.out_this_turn_blocker(0) or "")
    refused(hand, AskToGoOut(), CannotGoOut, 0)


def test_if_the_partner_agrees_but_you_can_no_longer_go_out_you_discard_as_usual() -> None:
    """A yes binds only while going out is still possible: a player who has made it
    impossible (the wild played where the queens needed it) discards and plays on."""
    hand = stacked_hand(RULES, stock="2C 9C")
    for book in BOOKS:
        on_table(hand, 0, book)
    put_in_foot(hand, 0, "KH KD KS QH QD")
    put_in_foot(hand, 2, "AH AD 5H", foot_turns=1)
    hand.apply(Draw(), 0)  # K K K, Q Q with the 2, and the 9 to discard
    hand.apply(AskToGoOut(), 0)
    hand.apply(AnswerGoOut(True), 2)
    refused(hand, Discard(parse_card("9C")), CannotGoOut, 0)
    hand.apply(LayDown(((parse_cards("KH KD KS 2C")),)), 0)
    assert hand.out_this_turn_blocker(0) is not None
    hand.apply(Discard(parse_card("9C")), 0)
    assert hand.phase == Phase.DRAW and hand.permission is None


def test_you_can_use_the_last_card_for_a_discard() -> None:
    hand = ready_to_go_out()
    hand.apply(AskToGoOut(), 0)
    hand.apply(AnswerGoOut(True), 2)
    hand.apply(LayDown(((parse_cards("KH KD KS")),)), 0)
    hand.apply(LayDown(((parse_cards("QH QD QS")),)), 0)
    hand.apply(Discard(parse_card("9C")), 0)
    assert hand.ended_by == "out" and hand.pile_top == parse_card("9C")


def test_but_you_are_not_required_to_have_a_discard() -> None:
    hand = ready_to_go_out()
    hand.apply(AskToGoOut(), 0)
    hand.apply(AnswerGoOut(True), 2)
    hand.apply(LayDown(((parse_cards("KH KD KS")),)), 0)
    hand.apply(LayDown(((parse_cards("QH QD QS")),)), 0)
    nines = next(i for i, m in enumerate(hand.melds[0]) if m.rank == 9)
    hand.apply(AddToMeld(nines, parse_cards("9C")), 0)  # a natural on a complete book
    assert hand.ended_by == "out" and hand.went_out == 0
    assert hand.hand_len[0] == 0


def test_if_the_other_partner_says_no_you_cannot_go_out_on_that_turn() -> None:
    hand = ready_to_go_out()
    hand.apply(AskToGoOut(), 0)
    hand.apply(AnswerGoOut(False), 2)
    hand.apply(LayDown(((parse_cards("KH KD KS")),)), 0)
    msg = refused(hand, LayDown(((parse_cards("QH QD QS")),)), CannotGoOut, 0)
    assert "said no" in msg
    refused(hand, AskToGoOut(), IllegalAction, 0)  # no second asking this turn
    hand.apply(Discard(parse_card("QH")), 0)
    assert hand.phase == Phase.DRAW and hand.actor == 1


# ----------------------------------------------------------- paragraph 11
def test_each_player_takes_two_cards_from_the_stacks_to_begin_his_turn() -> None:
    hand = deal(stock="10C 10D 4S")
    hand.apply(Draw(), 0)
    assert hand.hand_len[0] == 13
    assert hand.hands[0][parse_card("10C")] >= 1 and hand.hands[0][parse_card("10D")] >= 1
    assert hand.stock[-1] == parse_card("4S")


def test_or_lays_down_two_original_cards_that_match_the_top_card_of_the_pile() -> None:
    hand = deal(hands={0: "QD QS 2C 2D KH KD KS JH JD JS 9C"})
    on_table(hand, 0, "AH AD AS")
    put_pile(hand, "4C 5C 6C QH")
    refused(hand, TakePile(parse_cards("QD 2C")), PileNotAvailable, 0)
    refused(hand, TakePile(parse_cards("KH KD")), PileNotAvailable, 0)
    refused(hand, TakePile(()), PileNotAvailable, 0)
    hand.apply(TakePile(parse_cards("QD QS")), 0)
    assert hand.phase == Phase.PLAY


def test_the_player_takes_the_top_three_cards_top_card_and_pair_to_the_table() -> None:
    assert (RULES.pile.take_min, RULES.pile.take_max) == (3, 3)
    hand = deal(hands={0: "QD QS 2C 2D KH KD KS JH JD JS 9C"})
    on_table(hand, 0, "AH AD AS")
    put_pile(hand, "4C 5C 8H 7S QH")
    refused(hand, TakePile(parse_cards("QD QS"), 4), PileNotAvailable, 0)
    hand.apply(TakePile(parse_cards("QD QS")), 0)
    queens = hand.melds[0][-1]
    assert sorted(queens.cards) == sorted(parse_cards("QH QD QS"))
    assert hand.pile == list(parse_cards("4C 5C"))
    assert hand.hand_len[0] == 11 - 2 + 2
    assert hand.hands[0][parse_card("8H")] == 1 and hand.hands[0][parse_card("7S")] == 1


def test_the_top_card_and_pair_go_onto_a_book_being_played() -> None:
    hand = deal(hands={0: "QD QS 2C 2D KH KD KS JH JD JS 9C"})
    on_table(hand, 0, "AH AD AS")
    queens = on_table(hand, 0, "QC QC 2H")
    put_pile(hand, "4C 5C 8H 7S QH")
    hand.apply(TakePile(parse_cards("QD QS")), 0)
    assert len(queens.cards) == 6 and len(hand.melds[0]) == 2


def test_only_the_top_card_from_the_pile_can_be_counted_toward_an_initial_meld() -> None:
    assert RULES.pile.before_opening == "with-opening"
    hand = deal(hands={0: "QD QS 7C 2D KH KD KS JH JD JS 9C"})
    put_pile(hand, "4C 7H 7S QH")
    # the pile's 7s are not in the hand yet: they cannot help the opening
    refused(hand, TakePile(parse_cards("QD QS"), opening=(parse_cards("7C 7H 2D"),)),
            CardsNotHeld, 0)
    # top card + pair is the clean meld; the dirty one must come from the hand
    msg = refused(hand, TakePile(parse_cards("QD QS")), OpeningTooLow, 0)
    assert "dirty" in msg
    hand.apply(TakePile(parse_cards("QD QS"), opening=(parse_cards("KH KD 2D"),)), 0)
    assert hand.opened[0]
    assert hand.hands[0][parse_card("7H")] == 1 and hand.hands[0][parse_card("7S")] == 1


# ----------------------------------------------------------- paragraph 12
def test_the_player_may_add_to_complete_or_start_books_on_the_table() -> None:
    hand = deal(hands={0: "KH QD QS QC JH JD JS 9C 9D 8C 8D"}, stock="10C 10D")
    on_table(hand, 0, "KC KS KD")
    on_table(hand, 0, "AH AD AS AC AH AD")
    hand.apply(Draw(), 0)
    hand.apply(AddToMeld(0, parse_cards("KH")), 0)  # add to a book in play
    assert len(hand.melds[0][0].cards) == 4
    hand.apply(LayDown(((parse_cards("QD QS QC")),)), 0)  # start a new book
    assert len(hand.melds[0]) == 3


def test_additional_cards_may_be_added_to_completed_books_but_not_wild_cards() -> None:
    hand = deal(hands={0: "KH 2C QS QC JH JD JS 9C 9D 8C 8D"}, stock="10C 10D")
    book = on_table(hand, 0, "KC KS KD KC KS KD KH")
    hand.apply(Draw(), 0)
    refused(hand, AddToMeld(0, parse_cards("2C")), BadMeld, 0)
    refused(hand, AddToMeld(0, parse_cards("KH 2C")), BadMeld, 0)
    hand.apply(AddToMeld(0, parse_cards("KH")), 0)
    assert len(book.cards) == 8 and hand.books(0) == (1, 0, 0, 0)


# ----------------------------------------------------------- paragraph 13
def test_after_the_turn_he_discards_one_card_and_play_passes_to_the_left() -> None:
    hand = deal(hands={0: "KH 2C QS QC JH JD JS 9C 9D 8C 8D"}, stock="10C 10D")
    hand.apply(Draw(), 0)
    refused(hand, EndTurn(), IllegalAction, 0)
    hand.apply(Discard(parse_card("8D")), 0)
    assert hand.pile_top == parse_card("8D")
    assert hand.actor == 1 and hand.hand_len[0] == 12


def test_a_player_whose_hand_plays_without_a_discard_picks_up_his_foot_and_plays_on() -> None:
    hand = deal(hands={0: "KH KD KS QH QD QS JH JD JS 9C 9D"},
                feet={0: "AH AD AS 4C 4D 4H 5C 5D 5H 6C 6D"}, stock="9S 8C")
    on_table(hand, 0, "8H 8D 8S")
    hand.apply(Draw(), 0)
    for meld in ("KH KD KS", "QH QD QS", "JH JD JS", "9C 9D 9S"):
        hand.apply(LayDown((parse_cards(meld),)), 0)
    hand.apply(AddToMeld(0, parse_cards("8C")), 0)
    assert hand.hand_len[0] == 0
    refused(hand, Discard(parse_card("8C")), IllegalAction, 0)
    hand.apply(PickUpFoot(), 0)
    assert hand.in_foot[0] and hand.hand_len[0] == 11 and hand.phase == Phase.PLAY
    hand.apply(LayDown((parse_cards("AH AD AS"),)), 0)  # continues playing
    hand.apply(Discard(parse_card("6D")), 0)
    assert hand.foot_turns[0] == 1


def test_a_hand_emptied_by_a_discard_takes_the_foot_at_the_next_turn() -> None:
    hand = deal(hands={0: "KH KD KS QH QD QS JH JD JS 9C 9D"},
                feet={0: "AH AD AS 4C 4D 4H 5C 5D 5H 6C 6D"}, stock="9S 4S")
    on_table(hand, 0, "8H 8D 8S")
    hand.apply(Draw(), 0)
    for meld in ("KH KD KS", "QH QD QS", "JH JD JS", "9C 9D 9S"):
        hand.apply(LayDown((parse_cards(meld),)), 0)
    hand.apply(Discard(parse_card("4S")), 0)
    assert hand.hand_len[0] == 0 and not hand.in_foot[0]
    for seat in (1, 2, 3):
        hand.apply(Draw(), seat)
        hand.apply(Discard(hand.hand_cards(seat)[0]), seat)
    assert hand.legal_actions() == [PickUpFoot()]
    refused(hand, Draw(), IllegalAction, 0)
    hand.apply(PickUpFoot(), 0)
    hand.apply(Draw(), 0)
    assert hand.hand_len[0] == 13


def test_at_least_one_card_must_be_held_prior_to_going_out() -> None:
    """In the foot, a player who may not go out keeps a card to discard and one to hold."""
    hand = ready_to_go_out(partner_turns=0)
    hand.apply(LayDown(((parse_cards("KH KD KS")),)), 0)
    msg = refused(hand, LayDown(((parse_cards("QH QD QS")),)), CannotGoOut, 0)
    assert "Keep at least two cards" in msg


def test_if_necessary_the_discard_pile_may_be_shuffled_and_replayed() -> None:
    assert RULES.going_out.stock_out == "reshuffle-pile"
    hand = deal(hands={0: "KH KD KS QH QD QS JH JD JS 9C 9D"})
    put_pile(hand, "4C 5C 6C 7C 8C 9H 10H")
    hand.pile[:0] = hand.stock[::-1]  # the stock has run out into the pile
    hand.stock.clear()
    size = len(hand.pile)
    hand.apply(Draw(), 0)
    assert len(hand.shuffles) == 1 and len(hand.shuffles[0]) == size - 1
    assert hand.pile == [parse_card("10H")]  # the top card stays as the new pile
    assert hand.hand_len[0] == 13 and len(hand.stock) == size - 3
    assert census_total(hand) == 270


def test_the_hand_ends_by_the_stock_only_when_the_pile_cannot_make_a_new_stock() -> None:
    hand = deal(hands={0: "KH KD KS QH QD QS JH JD JS 9C 9D"}, stock="4C 5C")
    # all but two cards of the stock have been played elsewhere (held in a foot here)
    foot = hand.feet[3]
    assert foot is not None
    foot.extend(hand.stock[:-2])
    del hand.stock[:-2]
    hand.apply(Draw(), 0)
    assert hand.stock == [] and hand.phase == Phase.PLAY
    hand.apply(Discard(parse_card("9C")), 0)  # a pile of one card cannot be a new stock
    assert phase_of(hand) == Phase.OVER and hand.ended_by == "stock" and hand.went_out is None
    assert census_total(hand) == 270


# ----------------------------------------------------------- paragraph 15
def test_when_the_hand_is_ended_cards_left_in_the_partners_hands_are_deducted() -> None:
    hand = ready_to_go_out()
    hand.apply(AskToGoOut(), 0)
    hand.apply(AnswerGoOut(True), 2)
    hand.apply(LayDown(((parse_cards("KH KD KS")),)), 0)
    hand.apply(LayDown(((parse_cards("QH QD QS")),)), 0)
    hand.apply(Discard(parse_card("9C")), 0)
    team0 = score_hand(hand)[0]
    # seat 2 still holds A A 5: 20 + 20 + 5 against the team
    assert team0.held_cards == -45
    # 3 clean (500 each) + 4 dirty (300 each); cards: 4s 35, 5s 35, 6s 35,
    # 7s 5*5+20+50 = 95, 8s 6*10+20 = 80, 9s 5*10+40 = 90, 10s 6*10+50 = 110, KKK 30, QQQ 30
    assert team0.clean_book_points == 1500 and team0.dirty_book_points == 1200
    assert team0.table_cards == 35 + 35 + 35 + 95 + 80 + 90 + 110 + 30 + 30
    assert team0.total == 1500 + 1200 + 540 - 45 + 100


def test_opponents_who_have_not_played_their_foot_deduct_hand_and_foot() -> None:
    hand = ready_to_go_out()
    opp_hand = hand.hand_cards(1) + hand.hand_cards(3)
    opp_feet = (hand.feet[1] or []) + (hand.feet[3] or [])
    hand.apply(AskToGoOut(), 0)
    hand.apply(AnswerGoOut(True), 2)
    hand.apply(LayDown(((parse_cards("KH KD KS")),)), 0)
    hand.apply(LayDown(((parse_cards("QH QD QS")),)), 0)
    hand.apply(Discard(parse_card("9C")), 0)
    team1 = score_hand(hand)[1]
    held = opp_hand + opp_feet
    assert len(held) == 44
    expected = sum(RULES.held_value[c] for c in held)
    assert team1.held_cards + team1.threes == expected
    assert team1.total == expected


# ----------------------------------------------------------- paragraph 16
def test_all_cards_on_the_table_and_in_books_are_counted_by_their_values() -> None:
    s = score_team(RULES, 0, melds=[
        (RANK_MELD, parse_cards("KH KD KS KC KH KD KS")),
        (RANK_MELD, parse_cards("5H 5D 2S")),
        (RANK_MELD, parse_cards("AH AD AS AC AH AD JK AS")),  # burned ace on a book
    ], held=())
    assert s.table_cards == 70 + 30 + (7 * 20 + 50)
    assert s.clean_book_points == 500 and s.dirty_book_points == 300
    assert s.total == 70 + 30 + 190 + 500 + 300


# ------------------------------------------------------- the point table
def test_each_completed_clean_book_500_points() -> None:
    assert RULES.scores.clean_book == 500
    s = score_team(RULES, 0, melds=[(RANK_MELD, parse_cards("4H 4D 4S 4C 4H 4D 4S")),
                                    (RANK_MELD, parse_cards("9H 9D 9S 9C 9H 9D 9S"))], held=())
    assert s.clean_book_points == 1000 and s.total == 1000 + 35 + 70


def test_each_completed_dirty_book_300_points() -> None:
    assert RULES.scores.dirty_book == 300
    s = score_team(RULES, 0, melds=[(RANK_MELD, parse_cards("4H 4D 4S 4C 2H 2D JK"))], held=())
    assert s.dirty_book_points == 300 and s.total == 300 + 20 + 40 + 50


def test_going_out_100_points() -> None:
    assert RULES.scores.going_out == 100
    assert score_team(RULES, 0, melds=[], held=(), went_out=True).total == 100


@pytest.mark.parametrize(("cards", "points"), [
    ("JK", 50), ("2C", 20), ("2H", 20), ("AS", 20), ("AD", 20),
    ("8C", 10), ("9D", 10), ("10H", 10), ("JS", 10), ("QC", 10), ("KD", 10),
    ("4C", 5), ("5D", 5), ("6H", 5), ("7S", 5),
])
def test_card_values_jokers_50_twos_and_aces_20_eights_to_kings_10_fours_to_sevens_5(
        cards: str, points: int) -> None:
    c = parse_card(cards)
    assert RULES.card_value[c] == points
    assert RULES.held_value[c] == -points
    assert score_team(RULES, 0, melds=[], held=[c]).total == -points


def test_black_threes_5_points_against_the_player() -> None:
    s = score_team(RULES, 0, melds=[], held=parse_cards("3C 3S 3C"))
    assert s.threes == -15 and s.total == -15


def test_red_threes_100_points_against_the_player() -> None:
    s = score_team(RULES, 0, melds=[], held=parse_cards("3H 3D"))
    assert s.threes == -200 and s.total == -200
    # a red 3 in an unplayed foot counts too
    hand = deal(feet={1: "3H 3D 4C 4D 4H 5C 5D 5H 6C 6D 6H",
                      3: "4S 5S 6S 7S 8S 9S 10S JS QS KS AS"},
                hands={1: "8C 8D 8H 8S 9C 9D 9H 9S 10C 10D 10H",
                       3: "4C 4D 4H 5C 5D 5H 6C 6D 6H 7C 7D"})
    hand.call_time()
    team1 = score_hand(hand)[1]
    assert team1.threes == -200


def test_books_earn_points_based_on_whether_they_are_clean_or_dirty_named_so() -> None:
    # "(Books earn points based on whether they are Clean or Dirty for the final count)"
    seen = book_words(RULES, ["QC QD QH QS QC QD QH", "JC JD JH JS 2C 2D JK"])
    assert seen["names"] == ["clean book", "dirty book"]
    need = "2 more clean books and 3 more dirty books"
    assert seen["to_go_out"] == need
    assert seen["refusals"] == [
        f"You cannot go out yet: your team needs {need}. Keep at least one card.",
        f"Your team cannot go out yet: it needs {need}."]
    assert "(clean book)" in seen["terminal"] and "(dirty book)" in seen["terminal"]
    assert seen["sheet"][:2] == ["Clean books (1)", "Dirty books (1)"]
    assert not any(w in str(seen) for w in ("red ", "black", "canasta"))
