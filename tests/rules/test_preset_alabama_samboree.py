"""The `alabama-samboree` preset, sentence by sentence against its sheet
(shared/seeds/001_c3bb4dd4a2c0b707.txt; traceability in docs/rules/alabama-samboree.md).

Each test is named after the sentence it proves and asserts the outcome the sheet gives:
the refused action's exception type with the state left unchanged, or the exact figure.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random

import pytest

from handfoot.actions import (
    AddToMeld,
    AnswerGoOut,
    AskToGoOut,
    ChooseHand,
    Discard,
    Draw,
    EndTurn,
    LayMeld,
    PickUpFoot,
    TakeBack,
    TakePile,
)
from handfoot.cards import JOKER, parse_card
from handfoot.cards import parse_cards as cards
from handfoot.engine import (
    RANK_MELD,
    BadMeld,
    CannotGoOut,
    Deal,
    Hand,
    IllegalAction,
    NotYourTurn,
    OpeningTooLow,
    Phase,
    PileNotAvailable,
    WrongPhase,
    full_deck,
)
from handfoot.game import Game
from handfoot.game.records import dumps, game_record, replay
from handfoot.game.scoring import TeamScore, score_hand, score_team
from handfoot.rules import preset
from handfoot.scorekeeper import score_text
from handfoot.testing import put_meld, stacked_deal
from helpers import assert_refused, book_words, lay, meld_index
from reserved import put_pile, reserved_hand

RULES = preset("alabama-samboree")

# Seat 0's hand in the foot tests: five sets that empty it once 8D 8H are drawn.
HAND = "4C 4D 4H 5C 5D 5H 6C 6D 6H 7C 7D 7H 8C"
# Seat 0's foot: 9s, 10s, one more 4, 5, 6 and 7, and a king to discard.
FOOT = "9C 9D 9H 9S 10C 10D 10H 10S 4S 5S 6S 7S KC"
CLEAN_BOOKS = ("QC QD QH QS QC QD QH", "KC KD KH KS KC KD KH")
DIRTY_BOOKS = ("AC AD AH AS 2C 2D JK", "JC JD JH JS JC 2H JK")
PARTNER_HAND = "3H 3S 8C 9C 10C JC KC AC 2C JK 4C 5C 6C"
PARTNER_FOOT = "8S 8S 8S 8S JS JS JS 7H 7H 7H AH AH AH"


# --------------------------------------------------------------------------- helpers
# A stacked hand under these rules in which every seat has chosen its first stack
# (``hands``) as its hand, unless ``choose=False``; see reserved.reserved_hand.
new_hand = functools.partial(reserved_hand, RULES, choose=True)


def foot_hand(dirty: int = 2, partner: bool = False, grabs: tuple[int, ...] = ()) -> Hand:
    """Seat 0's team has two red books and ``dirty`` black books; seat 0 draws 8D 8H,
    melds its whole hand without discarding and picks up its foot (FOOT)."""
    books = (*CLEAN_BOOKS, *DIRTY_BOOKS[:dirty])
    h = new_hand(hands={0: HAND, **({2: PARTNER_HAND} if partner else {})},
                 feet={0: FOOT, **({2: PARTNER_FOOT} if partner else {})},
                 stock="8D 8H", grabs=grabs, reserve=" ".join(books))
    for book in books:
        put_meld(h, 0, book)
    h.apply(Draw())
    for meld in ("4C 4D 4H", "5C 5D 5H", "6C 6D 6H", "7C 7D 7H", "8C 8D 8H"):
        h.apply(lay(meld))
    assert h.hand_len[0] == 0
    h.apply(PickUpFoot())
    return h


def down_to_two(h: Hand) -> None:
    """From FOOT: lay the 9s and 10s and add 4S 5S 6S, keeping 7S and KC."""
    h.apply(lay("9C 9D 9H 9S"))
    h.apply(lay("10C 10D 10H 10S"))
    for c in ("4S", "5S", "6S"):
        h.apply(AddToMeld(meld_index(h, 0, c), cards(c)))
    assert sorted(h.hand_cards(0)) == sorted(cards("7S KC"))


def draw_and_discard(h: Hand) -> None:
    h.apply(Draw())
    h.apply(Discard(h.hand_cards(h.actor)[0]))


def play_game(game: Game) -> None:
    """Everyone chooses the first stack, then draws and discards the lowest card."""
    while not game.over:
        if game.hand.phase == Phase.CHOOSE:
            game.apply(ChooseHand(0))
            continue
        game.apply(Draw())
        game.apply(Discard(game.hand.hand_cards(game.actor)[0]))


def mirror_deal(seed: int) -> Deal:
    """A deal in which seat 1 gets exactly seat 0's cards and seat 3 exactly seat 2's, in
    hands, feet and draws (4 decks hold every card an even number of times), so that a
    hand played the same way by every seat ends in a tie."""
    half = sorted(full_deck(RULES))[::2]
    random.Random(seed).shuffle(half)
    h0, f0, h2, f2, rest = half[:13], half[13:26], half[26:39], half[39:52], half[52:]
    order = h0 + f0 + h0 + f0 + h2 + f2 + h2 + f2
    for i in range(0, len(rest), 4):
        a, b = rest[i:i + 2], rest[i + 2:i + 4]
        order += a + a + b + b
    return Deal(tuple(order), 0, (26, 26, 26, 26))


# ------------------------------------------------------------------- GENERAL RULES
def test_use_4_decks_of_cards_with_8_jokers() -> None:
    deck = full_deck(RULES)
    assert RULES.num_decks == 4
    assert len(deck) == 4 * 52 + 8 == 216 == RULES.num_cards
    assert deck.count(JOKER) == 8
    assert deck.count(parse_card("QH")) == 4
    assert sum(new_hand().card_census()) == 216


def test_seating_and_partners_are_set_by_the_game_monitor() -> None:
    # The engine takes the seating it is given: seats 0 and 2 against seats 1 and 3.
    assert (RULES.players.seats, RULES.players.teams) == (4, 2)
    assert RULES.team_of == (0, 1, 0, 1)


def test_one_person_keeps_score_for_the_entire_table() -> None:
    # One score sheet for the whole table scores both teams at once.
    _, scores = score_text(
        'variant = "alabama-samboree"\n'
        '[[teams]]\nmelds = ["QH QD QS QC QH QD QS"]\n'
        '[[teams.players]]\nhand = "9C"\n'
        '[[teams]]\nmelds = ["KH KD KS 2C"]\n'
        '[[teams.players]]\nhand = "3S"\n', "toml")
    assert [s.total for s in scores] == [70 + 500 - 5, 50 + 0]


def test_three_hands_one_game_with_melds_of_90_120_and_150() -> None:
    assert RULES.game.hands == 3
    assert [RULES.opening_minimum(n) for n in (1, 2, 3)] == [90, 120, 150]
    game = Game(RULES, seed=3)
    minimums = []
    while not game.over:
        if game.hand.phase == Phase.CHOOSE and game.hand.actor == game.hand.first_seat \
                and game.hand.feet[game.hand.first_seat] is None:
            minimums.append(game.hand.minimums[:])
        if game.hand.phase == Phase.CHOOSE:
            game.apply(ChooseHand(0))
            continue
        game.apply(Draw())
        game.apply(Discard(game.hand.hand_cards(game.actor)[0]))
    assert minimums == [[90, 90], [120, 120], [150, 150]]
    assert [r.number for r in game.results] == [1, 2, 3]
    assert game.totals == [sum(r.scores[t].total for r in game.results) for t in (0, 1)]


def test_a_meld_below_90_is_refused_in_the_first_hand() -> None:
    # 9 9 9 (9s count 5: 15) + A A A (60) = 75; with 10s (10 each) it is 90.
    h = new_hand(hands={0: "9H 9D 9S 10H 10D 10S AH AD AS 4C 5C 6C 7C"})
    h.apply(Draw())
    msg = assert_refused(h, lay("9H 9D 9S | AH AD AS"), OpeningTooLow)
    assert "90" in msg and "75" in msg
    h.apply(lay("10H 10D 10S | AH AD AS"))
    assert h.opened == [True, False]


def test_the_meld_is_120_in_the_second_hand_and_150_in_the_third() -> None:
    # A A A (60) + K K K (30) + Q Q Q (30) = 120; + J J J (30) = 150.
    text = "AH AD AS KH KD KS QH QD QS JH JD JS 4C"
    h2 = new_hand(hands={0: text}, hand_number=2)
    assert h2.minimums == [120, 120]
    h2.apply(Draw())
    h2.apply(lay("AH AD AS | KH KD KS | QH QD QS"))
    h3 = new_hand(hands={0: text}, hand_number=3)
    assert h3.minimums == [150, 150]
    h3.apply(Draw())
    msg = assert_refused(h3, lay("AH AD AS | KH KD KS | QH QD QS"), OpeningTooLow)
    assert "150" in msg and "120" in msg
    h3.apply(lay("AH AD AS | KH KD KS | QH QD QS | JH JD JS"))
    assert h3.opened[0]


def test_time_limit_of_one_and_a_half_hours_and_the_monitor_calls_time() -> None:
    assert (RULES.game.time_limit_minutes, RULES.game.time_warning_minutes) == (90, 15)
    game = Game(RULES, seed=4)
    for _ in range(4):
        game.apply(ChooseHand(0))
    for _ in range(6):
        game.apply(Draw())
        game.apply(Discard(game.hand.hand_cards(game.actor)[0]))
    game.call_time()
    assert game.over and len(game.results) == 1
    assert game.results[0].ended_by == "time"
    assert all(s.going_out == 0 for s in game.results[0].scores)


@pytest.mark.parametrize("chosen", range(5))
def test_monitor_will_call_time_before_any_turn_the_hand_is_not_played(chosen: int) -> None:
    # Every hand starts with the players choosing their stacks: time called then (here
    # after 0 to 4 seats chose) stops a hand nobody played, which scores nothing, so
    # the result cannot depend on who chose first (seed 21 scored [0, -740] with one
    # seat chosen and [-530, -1985] with all four).
    game = Game(RULES, seed=21)
    for _ in range(chosen):
        game.apply(ChooseHand(0))
    game.call_time()
    assert game.over and len(game.results) == 1 and game.results[0].ended_by == "time"
    assert [s.total for s in game.results[0].scores] == [0, 0]
    assert all(s == TeamScore(team=s.team) for s in game.results[0].scores)
    assert game.totals == [0, 0]
    # the record keeps the choices made and replays to the same result
    record = json.loads(dumps(game_record(game)))
    assert len(record["hands"][0]["actions"]) == chosen
    report = replay(record)
    assert report.ok, report.message


def test_monitor_will_call_time_after_a_hand_only_the_hands_played_count() -> None:
    game = Game(RULES, seed=21)
    while len(game.results) < 1:
        if game.hand.phase == Phase.CHOOSE:
            game.apply(ChooseHand(0))
        else:
            draw_and_discard_game(game)
    first = [s.total for s in game.results[0].scores]
    assert first != [0, 0]
    for _ in range(3):
        game.apply(ChooseHand(1))
    game.call_time()
    assert [s.total for s in game.results[1].scores] == [0, 0]
    assert game.totals == first and len(game.results) == 2


def test_monitor_will_call_time_once_a_turn_is_played_the_hand_counts_as_it_stands() -> None:
    game = Game(RULES, seed=21)
    for _ in range(4):
        game.apply(ChooseHand(0))
    draw_and_discard_game(game)
    game.call_time()
    expected = [s.total for s in score_hand(game.hand)]
    assert [s.total for s in game.results[0].scores] == expected
    assert expected != [0, 0]  # the cards left in every hand and foot count


@pytest.mark.parametrize(("melds", "down"), [
    (("QC QD QH", "AC AD AS"), True),     # 30 + 60 = 90: the count for the first hand
    (("QC QD QH", "10C 10D 10H"), False),  # 60: short
])
def test_when_time_is_called_melds_laid_out_with_the_count_finish_going_down(
        melds: tuple[str, ...], down: bool) -> None:
    # "Monitor will call time": a player who has laid out the melds of an opening that
    # makes the count, and not yet said "down", finishes the play in progress: the melds
    # count on the table for the team. Short of the count they go back to the hand, and
    # no short meld is charged (the player did not take them back).
    deal = stacked_deal(RULES, hands={0: "QC QD QH AC AD AS 10C 10D 10H 5C 5D 4H 8C"})
    game = Game(RULES, deals=[deal] * 3)
    for _ in range(4):
        game.apply(ChooseHand(0))
    game.apply(Draw())
    for meld in melds:
        game.apply(LayMeld(cards(meld)))
    game.call_time()
    hand = game.hand
    scores = game.results[0].scores
    assert hand.opened[0] is down and scores[0].penalties == 0
    laid = sum(RULES.card_value[c] for m in melds for c in cards(m))
    assert scores[0].table_cards == (laid if down else 0)
    held = [c for s in (0, 2) for c in (*hand.hand_cards(s), *(hand.feet[s] or ()))]
    assert scores[0].total == score_team(
        RULES, 0, [(m.kind, m.cards) for m in hand.melds[0]], held).total
    assert replay(json.loads(dumps(game_record(game)))).ok


def test_time_called_before_any_turn_ends_the_game_at_once_when_hands_are_played_out() -> None:
    finish = dataclasses.replace(RULES, game=dataclasses.replace(
        RULES.game, when_time_is_called="finish-hand"))
    game = Game(finish, seed=21)
    game.apply(ChooseHand(0))
    game.call_time()  # the hand in play would be played out, but none was begun
    assert game.over and [s.total for s in game.results[0].scores] == [0, 0]


def draw_and_discard_game(game: Game) -> None:
    game.apply(Draw())
    game.apply(Discard(game.hand.hand_cards(game.actor)[0]))


def test_each_hand_terminates_with_the_bottom_of_the_draw_pile() -> None:
    h = new_hand(first_seat=3)
    turns = 0
    while not h.over:
        assert h.stock
        draw_and_discard(h)
        turns += 1
    assert (h.ended_by, h.went_out, h.stock) == ("stock", None, [])
    assert turns == (216 - 4 * 26) // 2 == 56
    assert len(h.pile) == turns  # the player who drew the bottom cards still discarded
    assert_refused(h, Draw(), WrongPhase)


# ---------------------------------------------------------------------- RULES OF PLAY 1
def test_each_player_deals_two_stacks_of_13_cards_each() -> None:
    h = new_hand(choose=False)
    assert [(len(a), len(b)) for a, b in h.stacks] == [(13, 13)] * 4
    assert len(h.stock) == 216 - 4 * 26 == 112
    assert h.pile == []
    for _ in range(4):
        h.apply(ChooseHand(0))
    assert h.hand_len == [13] * 4 and [len(f or ()) for f in h.feet] == [13] * 4


def test_the_top_card_of_each_stack_is_turned_up() -> None:
    h = new_hand(hands={1: "QH 4C 4D 4H 5C 5D 5H 6C 6D 6H 7C 7D 7H"},
                 feet={1: "KS 8C 8D 8H 9C 9D 9H 10C 10D 10H JC JD JH"}, choose=False)
    assert h.phase == Phase.CHOOSE
    assert h.stacks[1][0][0] == parse_card("QH") and h.stacks[1][1][0] == parse_card("KS")
    for _ in range(4):
        h.apply(ChooseHand(0))
    # Both top cards were seen by the whole table.
    assert h.known[1][parse_card("QH")] == 1
    assert h.foot_known[1] == parse_card("KS")


def test_dealing_exactly_26_cards_earns_the_player_100_points() -> None:
    h = new_hand(grabs=(26, 25, 27, 26))
    h.call_time()
    assert [s.deal_bonus for s in score_hand(h)] == [100, 100]
    h2 = new_hand(grabs=(26, 27, 26, 25))
    h2.call_time()
    assert [s.deal_bonus for s in score_hand(h2)] == [200, 0]


def test_the_highest_card_draw_determines_who_starts_first_play() -> None:
    h = new_hand(first_seat=1, choose=False)
    assert h.actor == 1
    assert_refused(h, ChooseHand(0), NotYourTurn, seat=0)
    for seat in (1, 2, 3, 0):
        h.apply(ChooseHand(0), seat)
    assert (h.phase, h.actor) == (Phase.DRAW, 1)
    draw_and_discard(h)
    assert h.actor == 2


def test_the_player_chooses_one_stack_as_hand_and_the_other_is_the_foot() -> None:
    h = new_hand(hands={0: "QH 4C 4D 4H 5C 5D 5H 6C 6D 6H 7C 7D 7H"},
                 feet={0: "KS 8C 8D 8H 9C 9D 9H 10C 10D 10H JC JD JH"}, choose=False)
    assert h.legal_actions() == [ChooseHand(0), ChooseHand(1)]
    assert_refused(h, Draw(), WrongPhase)
    h.apply(ChooseHand(1))  # seat 0 takes the king's stack as its hand
    assert sorted(h.hand_cards(0)) == sorted(cards("KS 8C 8D 8H 9C 9D 9H 10C 10D 10H JC "
                                                   "JD JH"))
    assert sorted(h.feet[0] or ()) == sorted(cards("QH 4C 4D 4H 5C 5D 5H 6C 6D 6H 7C 7D "
                                                   "7H"))
    assert h.foot_known[0] == parse_card("QH")


def test_the_foot_must_remain_on_the_table_in_full_view() -> None:
    # The foot stays whole until the hand is empty; everyone sees its size.
    h = new_hand()
    assert [h.foot_size(s) for s in range(4)] == [13] * 4
    h.apply(Draw())
    assert_refused(h, PickUpFoot(), IllegalAction)


# ---------------------------------------------------------------------- RULES OF PLAY 2
def test_no_consulting_with_partner_except_for_permission_to_go_out() -> None:
    # The one question a player may put to the partner is "may I go out?".
    h = foot_hand()
    down_to_two(h)
    asks = [a for a in h.legal_actions() if isinstance(a, AskToGoOut | AnswerGoOut)]
    assert asks == [AskToGoOut()]


def test_only_one_partner_must_make_meld() -> None:
    # Seat 2 makes the team's 90; seat 0 then lays a 15-point meld with no minimum.
    h = new_hand(hands={2: "KH KD KS AH AD AS 8C 8D 9C 10C JC QC 4S",
                        0: "4C 4D 4H 8S 9S 10S JS QS KS AC 6C 6D 7C"}, first_seat=2)
    h.apply(Draw())
    h.apply(lay("KH KD KS | AH AD AS"))  # exactly 90
    h.apply(Discard(parse_card("8C")))
    draw_and_discard(h)
    assert h.actor == 0
    h.apply(Draw())
    h.apply(lay("4C 4D 4H"))
    assert [m.rank for m in h.melds[0]] == [13, 14, 4]


def test_each_player_must_draw_two_cards_and_discard_one() -> None:
    h = new_hand(hands={0: HAND}, stock="KH AS")
    assert_refused(h, Discard(parse_card("4C")), WrongPhase)
    h.apply(Draw())
    assert h.hand_len[0] == 15 and len(h.stock) == 110
    assert h.hands[0][parse_card("KH")] == 1 and h.hands[0][parse_card("AS")] == 1
    assert_refused(h, Draw(), WrongPhase)
    assert_refused(h, EndTurn(), IllegalAction)  # the turn ends only with a discard
    h.apply(Discard(parse_card("KH")))
    assert (h.actor, h.hand_len[0], h.pile) == (1, 14, [parse_card("KH")])


def test_or_pick_up_the_first_six_cards_showing_two_naturals_matching_the_top_card() -> None:
    h = new_hand(hands={0: "QH QD 4C 5C 6C 7C 8C 9C 10C JC KC AC 4S"},
                 reserve="AH AD AS 4D 5D 6D 7D 8D 9D 10D QS")
    put_meld(h, 0, "AH AD AS")
    put_pile(h, "4D 5D 6D 7D 8D 9D 10D QS")
    h.apply(TakePile(cards("QH QD")))
    assert h.pile == list(cards("4D 5D"))
    assert sorted(h.melds[0][meld_index(h, 0, "QS")].cards) == sorted(cards("QH QD QS"))
    for c in cards("6D 7D 8D 9D 10D"):
        assert h.hands[0][c] == 1
    assert h.hand_len[0] == 13 - 2 + 5
    h.apply(Discard(parse_card("4S")))  # and discard one
    assert h.actor == 1


def test_six_cards_are_taken_not_five_or_seven() -> None:
    h = new_hand(hands={0: "QH QD 4C 5C 6C 7C 8C 9C 10C JC KC AC 4S"},
                 reserve="AH AD AS 4D 5D 6D 7D 8D 9D 10D QS")
    put_meld(h, 0, "AH AD AS")
    put_pile(h, "4D 5D 6D 7D 8D 9D 10D QS")
    assert_refused(h, TakePile(cards("QH QD"), count=5), PileNotAvailable)
    assert_refused(h, TakePile(cards("QH QD"), count=7), PileNotAvailable)


def test_with_fewer_than_six_cards_in_the_pile_all_of_them_are_taken() -> None:
    h = new_hand(hands={0: "QH QD 4C 5C 6C 7C 8C 9C 10C JC KC AC 4S"},
                 reserve="AH AD AS 8D 9D QS")
    put_meld(h, 0, "AH AD AS")
    put_pile(h, "8D 9D QS")
    h.apply(TakePile(cards("QH QD")))
    assert h.pile == []
    assert h.hand_len[0] == 13 - 2 + 2


def test_the_two_cards_shown_must_be_natural() -> None:
    h = new_hand(hands={0: "QH 2C JK 4C 5C 6C 7C 8C 9C 10C JC KC AC"},
                 reserve="AH AD AS 4D 5D 6D 7D 8D QS")
    put_meld(h, 0, "AH AD AS")
    put_pile(h, "4D 5D 6D 7D 8D QS")
    assert_refused(h, TakePile(cards("QH 2C")), PileNotAvailable)
    assert_refused(h, TakePile(cards("QH JK")), PileNotAvailable)
    assert_refused(h, TakePile(cards("QH")), PileNotAvailable)


def test_the_top_card_in_the_six_must_be_played_in_making_a_book() -> None:
    # With a meld of queens open, the top queen goes onto it; the two naturals were only
    # shown ("using two natural cards from hand which you show") and stay in the hand.
    assert RULES.pile.shown_cards == "kept"
    h = new_hand(hands={0: "QH QD 4C 5C 6C 7C 8C 9C 10C JC KC AC 4S"},
                 reserve="QC QC 2C 4D 5D 6D 7D 8D QS")
    put_meld(h, 0, "QC QC 2C")
    put_pile(h, "4D 5D 6D 7D 8D QS")
    h.apply(TakePile(cards("QH QD")))
    assert len(h.melds[0]) == 1
    assert sorted(h.melds[0][0].cards) == sorted(cards("QC QC 2C QS"))
    assert h.hands[0][parse_card("QH")] == 1 and h.hands[0][parse_card("QD")] == 1
    assert h.hand_len[0] == 13 + 5


def test_the_two_naturals_shown_make_a_new_book_with_the_top_card_when_none_is_open() -> None:
    h = new_hand(hands={0: "QH QD 4C 5C 6C 7C 8C 9C 10C JC KC AC 4S"},
                 reserve="AH AD AS 4D 5D 6D 7D 8D QS")
    put_meld(h, 0, "AH AD AS")
    put_pile(h, "4D 5D 6D 7D 8D QS")
    h.apply(TakePile(cards("QH QD")))
    assert sorted(h.melds[0][-1].cards) == sorted(cards("QH QD QS"))
    assert h.hand_len[0] == 13 - 2 + 5


def test_all_cards_in_open_books_must_remain_visible() -> None:
    # Every card played to a meld stays in it, listed, for the rest of the hand.
    h = new_hand(hands={0: "QH QD QS 2C 4C 5C 6C 7C 8C 9C 10C JC AC"}, reserve="KH KD KS")
    put_meld(h, 0, "KH KD KS")
    h.apply(Draw())
    h.apply(lay("QH QD QS 2C"))
    assert sorted(h.melds[0][1].cards) == sorted(cards("QH QD QS 2C"))
    assert (h.melds[0][1].naturals, h.melds[0][1].wilds) == (3, 1)


# ---------------------------------------------------------------------- RULES OF PLAY 3
def test_no_cards_may_be_picked_up_until_one_player_from_the_team_has_made_meld() -> None:
    h = new_hand(hands={0: "QH QD 4C 5C 6C 7C 8C 9C 10C JC KC AC 4S"},
                 reserve="4D 5D 6D 7D 8D QS AH AD AS")
    put_pile(h, "4D 5D 6D 7D 8D QS")
    msg = assert_refused(h, TakePile(cards("QH QD")), PileNotAvailable)
    assert "open" in msg
    put_meld(h, 1, "AH AD AS")  # the other team's meld does not help
    assert_refused(h, TakePile(cards("QH QD")), PileNotAvailable)


def test_exposing_a_short_meld_is_penalized_100_points() -> None:
    # At a real table the scorer records a short meld shown (short_openings) and the
    # score sheet takes 100 off, as the engine does for one shown in play (next test).
    assert RULES.opening.short_penalty == 100
    _, scores = score_text(
        'variant = "alabama-samboree"\n'
        '[[teams]]\nmelds = ["QH QD QS QC QH QD QS"]\nshort_openings = 1\n'
        '[[teams.players]]\nhand = "3H 9C"\n'
        '[[teams]]\nmelds = []\n', "toml")
    assert scores[0].penalties == -100
    assert scores[0].total == 70 + 500 - 500 - 5 - 100


def test_if_you_expose_your_hand_to_meld_down_without_enough_count_you_are_penalized_100() -> None:
    # "If you expose your hand to meld down, and don't have enough count, you are
    # penalized 100 points": 75 laid out of 90 and taken back costs the team 100 on the
    # hand's score; the record keeps it (it follows from the actions) and replays alike.
    deal = stacked_deal(RULES, hands={0: "QC QD QH 10C 10D 10H 5C 5D 5H 4C 4D 4H 8C"})
    game = Game(RULES, deals=[deal] * 3)
    for _ in range(4):
        game.apply(ChooseHand(0))
    game.apply(Draw())
    game.apply(LayMeld(cards("QC QD QH")))
    game.apply(LayMeld(cards("10C 10D 10H")))
    game.apply(LayMeld(cards("5C 5D 5H")))
    assert game.hand.laid_out(0)[0] == 75
    assert "costs your team 100 points" in (game.hand.short_warning(0) or "")
    for i in (2, 1, 0):
        game.apply(TakeBack(i))
    assert game.hand.short_openings == [1, 0]
    game.apply(Discard(parse_card("8C")))
    game.call_time()
    scores = game.results[0].scores
    assert scores[0].penalties == -100 and scores[1].penalties == 0
    unpenalised = score_team(RULES, 0, [], [c for s in (0, 2) for c in (
        *game.hand.hand_cards(s), *(game.hand.feet[s] or ()))])
    assert scores[0].total == unpenalised.total - 100
    record = json.loads(dumps(game_record(game)))
    report = replay(record)
    assert report.ok, report.message


def test_played_cards_must_always_have_one_more_natural_card_than_wild_cards() -> None:
    h = new_hand(hands={0: "QC QD 2C 2D KC KD KH 2H JK 8C 9C 10C JC"}, reserve="AH AD AS")
    put_meld(h, 0, "AH AD AS")
    h.apply(Draw())
    assert_refused(h, lay("QC QD 2C 2D"), BadMeld)   # 2 natural, 2 wild
    h.apply(lay("KC KD KH 2H JK"))                    # 3 natural, 2 wild
    h.apply(lay("QC QD 2C"))
    assert_refused(h, AddToMeld(meld_index(h, 0, "QC"), cards("2D")), BadMeld)
    assert_refused(h, AddToMeld(meld_index(h, 0, "KC"), cards("2D")), BadMeld)  # 3 and 3


def test_once_a_discard_is_shown_it_may_not_be_picked_up() -> None:
    h = new_hand(hands={0: "QH QD QS 4C 5C 6C 7C 8C 9C 10C JC KC AC"})
    h.apply(Draw())
    h.apply(Discard(parse_card("QS")))
    assert h.pile[-1] == parse_card("QS") and h.actor == 1
    assert_refused(h, TakePile(cards("QH QD")), NotYourTurn, seat=0)
    assert_refused(h, Draw(), NotYourTurn, seat=0)


# ---------------------------------------------------------------------- RULES OF PLAY 4
def test_only_natural_cards_may_be_added_to_closed_books() -> None:
    h = new_hand(hands={0: "QH 2H JK 4C 5C 6C 7C 8C 9C 10C JC KC AC"},
                 reserve="QC QC QD QD QS QS 2C")
    put_meld(h, 0, "QC QC QD QD QS QS 2C")
    h.apply(Draw())
    assert_refused(h, AddToMeld(0, cards("2H")), BadMeld)
    assert_refused(h, AddToMeld(0, cards("JK")), BadMeld)
    h.apply(AddToMeld(0, cards("QH")))
    assert len(h.melds[0][0].cards) == 8 and h.books(0) == (0, 1, 0, 0)


def test_all_cards_of_the_hand_played_without_discarding_continue_with_the_foot() -> None:
    h = new_hand(hands={0: HAND}, feet={0: FOOT}, stock="8D 8H", reserve="AH AD AS")
    put_meld(h, 0, "AH AD AS")
    h.apply(Draw())
    for meld in ("4C 4D 4H", "5C 5D 5H", "6C 6D 6H", "7C 7D 7H", "8C 8D 8H"):
        h.apply(lay(meld))
    assert h.hand_len[0] == 0 and h.actor == 0
    assert h.legal_actions() == [PickUpFoot()]
    h.apply(PickUpFoot())
    assert h.in_foot[0] and h.hand_len[0] == 13 and h.phase == Phase.PLAY
    h.apply(lay("9C 9D 9H 9S"))  # and play on from the foot in the same turn
    h.apply(Discard(parse_card("KC")))
    assert h.actor == 1


def test_with_a_discard_the_foot_waits_until_the_next_turn() -> None:
    h = new_hand(hands={0: "4C 4D 4H 5C 5D 5H 6C 6D 6H 7C 7D 7H KS"}, feet={0: FOOT},
                 stock="7S 7S", reserve="AH AD AS")
    put_meld(h, 0, "AH AD AS")
    h.apply(Draw())
    for meld in ("4C 4D 4H", "5C 5D 5H", "6C 6D 6H", "7C 7D 7H 7S 7S"):
        h.apply(lay(meld))
    h.apply(Discard(parse_card("KS")))  # the hand is emptied by a discard
    assert h.hand_len[0] == 0 and h.feet[0] is not None and not h.in_foot[0]
    assert h.actor == 1
    assert_refused(h, PickUpFoot(), NotYourTurn, seat=0)
    for _ in range(3):
        draw_and_discard(h)
    assert h.actor == 0
    assert h.legal_actions() == [PickUpFoot()]
    assert_refused(h, Draw(), IllegalAction)
    h.apply(PickUpFoot())
    assert h.in_foot[0] and h.phase == Phase.DRAW
    h.apply(Draw())
    assert h.hand_len[0] == 15


# ---------------------------------------------------------------------- RULES OF PLAY 5
def test_a_book_consists_of_seven_cards() -> None:
    six = score_team(RULES, 0, [(RANK_MELD, cards("QC QD QH QS QC QD"))], [])
    seven = score_team(RULES, 0, [(RANK_MELD, cards("QC QD QH QS QC QD QH"))], [])
    assert (six.clean_books, six.total) == (0, 60)
    assert (seven.clean_books, seven.total) == (1, 570)
    assert RULES.meld.book_size == 7


def test_a_red_book_must_have_all_natural_cards() -> None:
    s = score_team(RULES, 0, [(RANK_MELD, cards("9C 9D 9H 9S 9C 9D 9H"))], [])
    assert (s.clean_books, s.clean_book_points, s.dirty_books, s.total) == (1, 500, 0, 535)


def test_a_black_book_has_at_least_4_natural_cards_and_up_to_3_wild_cards() -> None:
    s = score_team(RULES, 0, [(RANK_MELD, cards("9C 9D 9H 9S 2C 2D JK"))], [])
    assert (s.dirty_books, s.dirty_book_points, s.clean_books) == (1, 300, 0)
    assert s.total == 20 + 40 + 50 + 300
    h = new_hand(hands={0: "QC QD QH QS QC 2C 2D 2H JK JK 9C 10C JC"}, reserve="AH AD AS")
    put_meld(h, 0, "AH AD AS")
    h.apply(Draw())
    assert_refused(h, lay("QC QD QH 2C 2D JK JK"), BadMeld)              # 3 natural, 4 wild
    assert_refused(h, lay("QC QD QH QS QC 2C 2D JK JK"), BadMeld)        # 4 wild
    h.apply(lay("QC QD QH QS 2C 2D JK"))                                 # 4 and 3
    assert h.books(0) == (0, 1, 0, 0)


def test_you_may_not_make_a_book_of_wild_cards() -> None:
    h = new_hand(hands={0: "2C 2D 2H 2S JK JK JK 9C 10C JC QC KC AC"}, reserve="AH AD AS")
    put_meld(h, 0, "AH AD AS")
    h.apply(Draw())
    assert_refused(h, lay("2C 2D JK"), BadMeld)
    assert_refused(h, lay("2C 2D 2H 2S JK JK JK"), BadMeld)


def test_two_red_books_and_two_black_books_are_required_to_go_out() -> None:
    h = foot_hand(dirty=1)
    assert h.books(0) == (2, 1, 0, 0)
    down_to_two(h)
    assert h.go_out_blocker(0) == "your team needs 1 more black book"
    assert_refused(h, AskToGoOut(), CannotGoOut)
    assert_refused(h, AddToMeld(meld_index(h, 0, "7S"), cards("7S")), CannotGoOut)
    h.apply(Discard(parse_card("7S")))  # a discard that leaves a card is fine
    assert not h.over and h.hand_len[0] == 1


@pytest.mark.parametrize("top", ["3S", "3C", "3H", "3D", "2C", "JK"])
def test_black_threes_cannot_be_picked_up_with_a_pair(top: str) -> None:
    h = new_hand(hands={0: "3S 3C 3S 3H 3D 3H 2D 2D JK JK QC QD KC"},
                 reserve=f"AH AD AS QS QH 4C {top}")
    put_meld(h, 0, "AH AD AS")
    put_pile(h, f"QS QH 4C {top}")
    shown = {"3S": "3S 3S", "3C": "3S 3C", "3H": "3H 3H", "3D": "3H 3D", "2C": "2D 2D",
             "JK": "JK JK"}[top]
    msg = assert_refused(h, TakePile(cards(shown)), PileNotAvailable)
    assert "frozen" in msg
    assert not any(isinstance(a, TakePile) for a in h.legal_actions())


def test_you_must_ask_your_partner_for_permission_before_going_out() -> None:
    h = foot_hand()
    down_to_two(h)
    assert h.go_out_blocker(0) == "you must ask your partner first"
    assert_refused(h, AddToMeld(meld_index(h, 0, "7S"), cards("7S")), CannotGoOut)
    h.apply(AskToGoOut())
    assert (h.phase, h.actor) == (Phase.ASK, 2)
    assert_refused(h, Discard(parse_card("KC")), NotYourTurn, seat=0)
    h.apply(AnswerGoOut(True), seat=2)
    assert (h.phase, h.actor, h.permission) == (Phase.PLAY, 0, True)
    h.apply(AddToMeld(meld_index(h, 0, "7S"), cards("7S")))
    h.apply(Discard(parse_card("KC")))
    assert (h.over, h.ended_by, h.went_out) == (True, "out", 0)


def test_a_partners_no_stops_going_out_this_turn() -> None:
    h = foot_hand()
    down_to_two(h)
    h.apply(AskToGoOut())
    h.apply(AnswerGoOut(False))
    assert h.go_out_blocker(0) == "your partner said no this turn"
    assert_refused(h, AddToMeld(meld_index(h, 0, "7S"), cards("7S")), CannotGoOut)
    assert_refused(h, AskToGoOut(), IllegalAction)  # once a turn
    h.apply(Discard(parse_card("7S")))
    assert not h.over and h.actor == 1


def test_asking_to_go_out_needs_the_player_in_the_foot() -> None:
    h = new_hand(hands={0: HAND}, reserve=" ".join((*CLEAN_BOOKS, *DIRTY_BOOKS)))
    for book in (*CLEAN_BOOKS, *DIRTY_BOOKS):
        put_meld(h, 0, book)
    h.apply(Draw())
    assert_refused(h, AskToGoOut(), IllegalAction)


def test_player_must_have_a_discard_when_going_out() -> None:
    h = foot_hand()
    down_to_two(h)
    h.apply(AskToGoOut())
    h.apply(AnswerGoOut(True))
    h.apply(AddToMeld(meld_index(h, 0, "7S"), cards("7S")))
    # KC would burn on the complete book of kings, but going out needs a discard.
    msg = assert_refused(h, AddToMeld(meld_index(h, 0, "KC"), cards("KC")), CannotGoOut)
    assert "discard" in msg
    h.apply(Discard(parse_card("KC")))
    assert h.ended_by == "out"


def test_player_gets_100_extra_points_for_going_out() -> None:
    h = foot_hand(partner=True, grabs=(26, 27, 26, 25))
    down_to_two(h)
    h.apply(AskToGoOut())
    h.apply(AnswerGoOut(True))
    h.apply(AddToMeld(meld_index(h, 0, "7S"), cards("7S")))
    h.apply(Discard(parse_card("KC")))
    us, them = score_hand(h)
    assert us.going_out == 100 and them.going_out == 0
    # table: Q book 70, K book 70, A book 170, J book 120; 4s 5s 6s 7s 20 each,
    # 8s 15, 9s 20, 10s 40 -> 585; books 2 x 500 + 2 x 300.
    assert us.table_cards == 585
    assert (us.clean_book_points, us.dirty_book_points) == (1000, 600)
    assert us.deal_bonus == 200
    assert us.total == 585 + 1600 + 100 + us.held_cards + us.threes + 200


def test_when_a_player_goes_out_all_cards_left_count_against_them_including_partner() -> None:
    h = foot_hand(partner=True, grabs=(26, 27, 26, 25))
    down_to_two(h)
    h.apply(AskToGoOut())
    h.apply(AnswerGoOut(True))
    h.apply(AddToMeld(meld_index(h, 0, "7S"), cards("7S")))
    h.apply(Discard(parse_card("KC")))
    us, them = score_hand(h)
    # Partner's hand: 8C 9C 4C 5C 6C 5 each (25), 10C JC KC 30, AC 2C 40, JK 50 -> 145,
    # 3H -500, 3S 0; partner's unplayed foot: 8S x4 20, JS x3 30, 7H x3 15, AH x3 60 -> 125.
    assert us.held_cards == -(145 + 125)
    assert us.threes == -500
    assert us.total == 585 + 1600 + 100 - 270 - 500 + 200 == 1715
    for team, score in ((1, them), ):
        held = [c for s in h.team_seats(team) for c in (*h.hand_cards(s), *(h.feet[s] or ()))]
        assert score.held_cards + score.threes == sum(RULES.held_value[c] for c in held) < 0
        assert score.total == score.held_cards + score.threes + score.deal_bonus


# ------------------------------------------------------------------- winner, tie-break
def test_team_with_high_score_at_the_end_of_3_rounds_wins() -> None:
    game = Game(RULES, seed=8)
    play_game(game)
    assert len(game.results) == 3 and game.tie_break == ""
    assert game.totals[0] != game.totals[1]
    assert game.winners == [0 if game.totals[0] > game.totals[1] else 1]


def test_or_when_time_is_called_the_high_score_wins() -> None:
    game = Game(RULES, seed=8)
    while len(game.results) < 1:
        if game.hand.phase == Phase.CHOOSE:
            game.apply(ChooseHand(0))
        else:
            game.apply(Draw())
            game.apply(Discard(game.hand.hand_cards(game.actor)[0]))
    for _ in range(4):
        game.apply(ChooseHand(0))
    game.call_time()
    assert game.over and len(game.results) == 2
    assert game.results[1].ended_by == "time"
    assert game.totals == [game.results[0].scores[t].total + game.results[1].scores[t].total
                           for t in (0, 1)]
    assert game.winners == [0 if game.totals[0] > game.totals[1] else 1]


def test_a_tie_is_broken_by_a_short_play_off_then_a_high_card_draw() -> None:
    game = Game(RULES, deals=[mirror_deal(n) for n in range(4)], tie_winner=1)
    play_game(game)
    assert [r.scores[0].total == r.scores[1].total for r in game.results] == [True] * 4
    assert len(game.results) == 4 and game.playoff        # 3 hands, then one play-off hand
    assert (game.tie_break, game.winners) == ("high-card", [1])


def test_when_time_dictates_a_tie_goes_to_a_high_card_draw_not_a_later_play_off() -> None:
    game = Game(RULES, deals=[mirror_deal(7)], tie_winner=0)
    for _ in range(4):
        game.apply(ChooseHand(0))
    game.call_time()
    assert game.totals[0] == game.totals[1]
    assert game.over and not game.playoff and len(game.results) == 1
    assert (game.tie_break, game.winners) == ("high-card", [0])


# ---------------------------------------------------------------------------- SCORES
@pytest.mark.parametrize(("card", "points"), [
    ("JK", 50),                                                      # Joker (wild) = 50
    ("AS", 20),                                                      # Ace = 20
    ("KH", 10), ("QD", 10), ("JC", 10), ("10S", 10),                 # King through 10 = 10
    ("9H", 5), ("8C", 5), ("7D", 5), ("6S", 5), ("5H", 5), ("4C", 5),  # 9 thru 4 = 5
    ("2D", 20),                                                      # 2 (wild) = 20
])
def test_card_scores(card: str, points: int) -> None:
    c = parse_card(card)
    assert RULES.card_value[c] == points
    assert RULES.held_value[c] == -points


def test_red_book_500_and_black_book_300() -> None:
    s = score_team(RULES, 0, [(RANK_MELD, cards("KC KD KH KS KC KD KH")),
                              (RANK_MELD, cards("8C 8D 8H 8S 8C 2C JK"))], [])
    assert (s.clean_book_points, s.dirty_book_points) == (500, 300)
    assert s.table_cards == 70 + (25 + 20 + 50)
    assert s.total == 500 + 300 + 165


def test_black_three_is_0() -> None:
    assert RULES.held_value[parse_card("3S")] == 0
    assert RULES.held_value[parse_card("3C")] == 0
    s = score_team(RULES, 0, [], cards("3S 3C 3S"))
    assert (s.threes, s.total) == (0, 0)


def test_red_three_in_hand_at_end_of_play_is_500_against() -> None:
    assert RULES.held_value[parse_card("3H")] == -500
    assert RULES.held_value[parse_card("3D")] == -500
    s = score_team(RULES, 0, [], cards("3H 3D"))
    assert (s.threes, s.total) == (-1000, -1000)
    # discarded, it costs nothing
    h = new_hand(hands={0: "3H 4C 4D 4H 5C 5D 5H 6C 6D 6H 7C 7D 7H",
                        2: "4S 4S 5S 5S 6S 6S 7S 7S 8S 8S 9S 9S 10S"},
                 feet={0: "8C 8D 8H 8S 9C 9D 9H 9S 10C 10D 10H 10S JC",
                       2: "JS JS QS QS KS KS AS AS 2S 2S JK 4D 5D"}, stock="KD KH")
    h.apply(Draw())
    before = h.clone()
    before.call_time()
    assert score_hand(before)[0].threes == -500
    h.apply(Discard(parse_card("3H")))
    h.call_time()
    assert score_hand(h)[0].threes == 0


def test_a_red_book_and_a_black_book_are_named_so_everywhere() -> None:
    # "A red book must have all natural cards, and a black book ..."; "Two red books and
    # two black books are required to go out."
    seen = book_words(RULES, ["QC QD QH QS QC QD QH", "JC JD JH JS 2C 2D JK"])
    assert seen["names"] == ["red book", "black book"]
    need = "1 more red book and 1 more black book"
    assert seen["to_go_out"] == need
    assert seen["refusals"] == [
        f"You cannot go out yet: your team needs {need}. Keep at least one card.",
        f"Your team cannot go out yet: it needs {need}."]
    assert "(red book)" in seen["terminal"] and "(black book)" in seen["terminal"]
    assert seen["sheet"][:2] == ["Red books (1)", "Black books (1)"]
    assert not any(w in str(seen) for w in ("clean", "dirty", "canasta"))
