"""The `texas-good-sam` preset, sentence by sentence against its sheet
(shared/seeds/000_4950666ac6b8e43d.txt; traceability in docs/rules/texas-good-sam.md).

Each test is named after the sentence it proves and asserts the outcome the sheet gives:
the refused action's exception type with the state left unchanged, or the exact figure.
"""

from __future__ import annotations

import functools

import pytest

from handfoot.actions import (
    AddToMeld,
    AskToGoOut,
    Discard,
    Draw,
    EndTurn,
    GoDown,
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
    CardsNotHeld,
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
from handfoot.game.scoring import score_hand, score_team
from handfoot.rules import preset
from handfoot.scorekeeper import score_text
from handfoot.testing import put_meld
from helpers import assert_refused, book_words, lay, meld_index
from reserved import put_pile, reserved_hand

RULES = preset("texas-good-sam")

# Seat 0's hand in the foot tests: four sets that empty it once two 7s are drawn.
FOUR_TO_SEVEN = "4C 4D 4H 5C 5D 5H 6C 6D 6H 7C 7D"
# Seat 0's foot: 8s, 9s, one more 4, 5 and 6.
FOOT = "8C 8D 8H 8S 9C 9D 9H 9S 4S 5S 6S"
CLEAN_BOOKS = ("QC QD QH QS QC QD QH", "KC KD KH KS KC KD KH")
DIRTY_BOOKS = ("AC AD AH AS AC 2C JK", "JC JD JH JS JC 2D 2H", "10C 10D 10H 10S 10C 2S JK")


# --------------------------------------------------------------------------- helpers
# A stacked hand under these rules; see reserved.reserved_hand.
new_hand = functools.partial(reserved_hand, RULES)


def open_team_with_books(h: Hand, team: int = 0, dirty: int = 3) -> None:
    for book in (*CLEAN_BOOKS, *DIRTY_BOOKS[:dirty]):
        put_meld(h, team, book)


def reach_foot(h: Hand) -> None:
    """Seat 0 (holding FOUR_TO_SEVEN, with 7H 7S on top of the stock) draws, melds its
    whole hand without discarding and picks up its foot."""
    h.apply(Draw())
    for meld in ("4C 4D 4H", "5C 5D 5H", "6C 6D 6H", "7C 7D 7H 7S"):
        h.apply(lay(meld))
    assert h.hand_len[0] == 0
    h.apply(PickUpFoot())


def foot_hand(dirty: int = 3, partner: dict[int, str] | None = None,
              grabs: tuple[int, ...] = ()) -> Hand:
    hands = {0: FOUR_TO_SEVEN, **(partner or {})}
    h = new_hand(hands=hands, feet={0: FOOT, **({2: PARTNER_FOOT} if partner else {})},
                 stock="7H 7S", grabs=grabs, reserve=" ".join((*CLEAN_BOOKS, *DIRTY_BOOKS)))
    open_team_with_books(h, 0, dirty)
    reach_foot(h)
    return h


def play_out(h: Hand) -> None:
    """Every player draws and discards until the hand ends."""
    while not h.over:
        h.apply(Draw())
        h.apply(Discard(h.hand_cards(h.actor)[0]))


PARTNER_HAND = "3H 3S 4S 8S 9S KS AS 2H JK 5S 6S"
PARTNER_FOOT = "7S 7S 7S 8H 8H 8H 9H 9H JS JS JS"


# ------------------------------------------------------------------ the opening lines
def test_objective_is_to_score_as_many_points_as_possible() -> None:
    # The team with the higher score wins the (single-hand) game.
    game = Game(RULES, seed=11)
    while not game.over:
        game.apply(Draw())
        game.apply(Discard(game.hand.hand_cards(game.actor)[0]))
    assert game.totals[0] != game.totals[1]
    assert game.winners == [max(range(2), key=lambda t: game.totals[t])]


def test_the_game_is_played_using_five_decks_of_poker_cards_with_jokers() -> None:
    deck = full_deck(RULES)
    assert RULES.num_decks == 5
    assert len(deck) == 270 == RULES.num_cards
    assert deck.count(JOKER) == 10
    assert deck.count(parse_card("QH")) == 5
    h = new_hand()
    assert sum(h.card_census()) == 270


def test_each_player_deals_two_stacks_of_11_cards_a_hand_and_a_foot() -> None:
    h = new_hand()
    assert h.hand_len == [11, 11, 11, 11]
    assert [len(f or ()) for f in h.feet] == [11, 11, 11, 11]
    assert h.in_foot == [False] * 4


def test_a_canasta_is_a_group_of_seven_cards_of_the_same_face_value() -> None:
    h = new_hand(reserve="QC QD QH QS QC QD KC KD KH KS KC KD KH")
    put_meld(h, 0, "QC QD QH QS QC QD")
    assert h.books(0) == (0, 0, 0, 0)  # six cards: not yet a canasta
    put_meld(h, 1, "KC KD KH KS KC KD KH")
    assert h.books(1) == (1, 0, 0, 0)
    h2 = new_hand(hands={0: "QH QD QS QC KH KD KS 4C 5C 6C 7C"}, reserve="AC AD AH")
    put_meld(h2, 0, "AC AD AH")
    h2.apply(Draw())
    assert_refused(h2, lay("QH QD QS QC KH KD KS"), BadMeld)  # mixed face values


def test_a_red_canasta_contains_only_natural_cards() -> None:
    red = score_team(RULES, 0, [(RANK_MELD, cards("QC QD QH QS QC QD QH"))], [])
    assert (red.clean_books, red.clean_book_points, red.dirty_books) == (1, 500, 0)


def test_a_black_canasta_has_a_wild_card_and_one_more_natural_than_wilds() -> None:
    black = score_team(RULES, 0, [(RANK_MELD, cards("QC QD QH QS 2C 2D JK"))], [])
    assert (black.dirty_books, black.dirty_book_points, black.clean_books) == (1, 300, 0)
    h = new_hand(hands={0: "QC QD QH 2C 2D JK 4C 5C 6C 7C 8C"}, reserve="AC AD AH")
    put_meld(h, 0, "AC AD AH")
    h.apply(Draw())
    assert_refused(h, lay("QC QD QH 2C 2D JK"), BadMeld)  # 3 natural, 3 wild


# ------------------------------------------------------------- one hand, meld of 120
def test_only_one_hand_is_played_and_the_meld_is_120_points() -> None:
    assert RULES.game.hands == 1
    assert RULES.opening_minimum(1) == 120
    game = Game(RULES, seed=5)
    assert game.hand.minimums == [120, 120]
    while not game.over:
        game.apply(Draw())
        game.apply(Discard(game.hand.hand_cards(game.actor)[0]))
    assert len(game.results) == 1
    assert game.results[0].ended_by == "stock"


def test_a_meld_of_119_points_is_refused_and_120_is_accepted() -> None:
    # K K K (30) + A A A (60) + 9 9 9 (30) = 120; with 7 7 7 (15) instead it is 105.
    h = new_hand(hands={0: "KH KD KS AH AD AS 9H 9D 9S 7C 7D"}, stock="7H 4C")
    h.apply(Draw())
    msg = assert_refused(h, lay("KH KD KS | AH AD AS | 7C 7D 7H"), OpeningTooLow)
    assert "120" in msg and "105" in msg
    assert h.opened == [False, False]
    h.apply(lay("KH KD KS | AH AD AS | 9H 9D 9S"))
    assert h.opened == [True, False]
    assert [len(m.cards) for m in h.melds[0]] == [3, 3, 3]


# ------------------------------------------------------------------- partners, chart
def test_draw_for_partners_as_directed_by_game_official() -> None:
    # Partnerships are fixed by seat (the club-event tools record the draw): seats 0 and 2
    # play against seats 1 and 3.
    assert RULES.players.seats == 4 and RULES.players.teams == 2
    assert RULES.team_of == (0, 1, 0, 1)


@pytest.mark.parametrize(("card", "points"), [
    ("4C", 5), ("5D", 5), ("6H", 5), ("7S", 5),        # 4 thru 7: 5 points each
    ("8C", 10), ("9D", 10), ("10H", 10), ("JS", 10), ("QC", 10), ("KD", 10),  # 8 thru King
    ("AH", 20),                                          # Aces: 20
    ("2S", 20),                                          # Deuces: 20 (wild)
    ("JK", 50),                                          # Jokers: 50 (wild)
])
def test_card_point_values(card: str, points: int) -> None:
    c = parse_card(card)
    assert RULES.card_value[c] == points       # on the table, for the team
    assert RULES.held_value[c] == -points      # left in a hand or foot, against it


def test_deuces_and_jokers_are_wild_cards() -> None:
    h = new_hand(hands={0: "QC QD 2C KC KD JK 4C 5C 6C 7C 8C"}, reserve="AC AD AH")
    put_meld(h, 0, "AC AD AH")
    h.apply(Draw())
    h.apply(lay("QC QD 2C"))
    h.apply(lay("KC KD JK"))
    assert [(m.naturals, m.wilds) for m in h.melds[0][1:]] == [(2, 1), (2, 1)]


def test_red_threes_500_and_black_threes_100_not_played_count_against_the_team() -> None:
    assert RULES.held_value[parse_card("3H")] == -500
    assert RULES.held_value[parse_card("3D")] == -500
    assert RULES.held_value[parse_card("3S")] == -100
    assert RULES.held_value[parse_card("3C")] == -100
    s = score_team(RULES, 0, [], cards("3H 3D 3S 3C"))
    assert (s.threes, s.held_cards, s.total) == (-1200, 0, -1200)


def test_threes_are_played_only_by_discarding_them() -> None:
    h = new_hand(hands={0: "3H 3S 3C 4C 5C 6C 7C 8C 9C 10C JC"}, reserve="AC AD AH")
    put_meld(h, 0, "AC AD AH")
    h.apply(Draw())
    assert_refused(h, lay("3H 3S 3C"), BadMeld)
    h.apply(Discard(parse_card("3H")))
    assert h.pile == [parse_card("3H")]
    assert parse_card("3H") not in h.hand_cards(0)


def test_red_canasta_500_points_each_contains_all_natural_cards() -> None:
    s = score_team(RULES, 0, [(RANK_MELD, cards("QC QD QH QS QC QD QH")),
                              (RANK_MELD, cards("4C 4D 4H 4S 4C 4D 4H"))], [])
    assert s.clean_books == 2 and s.clean_book_points == 1000
    assert s.table_cards == 70 + 35
    assert s.total == 1105


def test_black_canasta_300_points_each_natural_and_wild_cards() -> None:
    s = score_team(RULES, 0, [(RANK_MELD, cards("AC AD AH AS 2C 2D JK")),
                              (RANK_MELD, cards("5C 5D 5H 5S 5C 5D JK"))], [])
    assert s.dirty_books == 2 and s.dirty_book_points == 600
    assert s.table_cards == (80 + 40 + 50) + (30 + 50)
    assert s.total == 850


# ----------------------------------------------------------------------------- MELD
def test_a_meld_is_a_group_of_three_or_more_cards() -> None:
    h = new_hand(hands={0: "QC QD 4C 5C 6C 7C 8C 9C 10C JC KC"}, reserve="AC AD AH")
    put_meld(h, 0, "AC AD AH")
    h.apply(Draw())
    assert_refused(h, lay("QC QD"), BadMeld)


def test_a_wild_card_may_be_used_to_make_a_group_of_three() -> None:
    h = new_hand(hands={0: "QC QD 2C 5C 6C 7C 8C 9C 10C JC KC"}, reserve="AC AD AH")
    put_meld(h, 0, "AC AD AH")
    h.apply(Draw())
    h.apply(lay("QC QD 2C"))
    assert sorted(h.melds[0][1].cards) == sorted(cards("QC QD 2C"))


def test_with_wild_cards_at_least_one_more_natural_than_wild_cards() -> None:
    h = new_hand(hands={0: "QC QD 2C 2D KC KD KH 2H JK 8C 9C"}, reserve="AC AD AH")
    put_meld(h, 0, "AC AD AH")
    h.apply(Draw())
    assert_refused(h, lay("QC QD 2C 2D"), BadMeld)  # 2 natural, 2 wild
    h.apply(lay("KC KD KH 2H JK"))                   # 3 natural, 2 wild
    h.apply(lay("QC QD 2C"))
    q = meld_index(h, 0, "QC")
    assert_refused(h, AddToMeld(q, cards("2D")), BadMeld)  # would be 2 and 2


def test_the_meld_value_is_the_sum_of_the_cards_laid_down() -> None:
    # Wilds count toward the meld: Q Q JK (70) + A A 2 (60) = 130 >= 120.
    h = new_hand(hands={0: "QC QD JK AC AD 2C 5C 6C 7C 8C 9C"})
    h.apply(Draw())
    h.apply(lay("QC QD JK | AC AD 2C"))
    assert h.opened[0]


def test_either_team_member_may_meld() -> None:
    # Seat 2 makes the team's meld; seat 0 then lays a 15-point meld without a minimum.
    h = new_hand(hands={2: "KH KD KS AH AD AS 9H 9D 9S 8C 8D", 0: "4C 4D 4H 8S 9C 10C "
                        "JC QC KC AC 6C"}, first_seat=2)
    h.apply(Draw())
    h.apply(lay("KH KD KS | AH AD AS | 9H 9D 9S"))
    h.apply(Discard(parse_card("8C")))
    h.apply(Draw())
    h.apply(Discard(h.hand_cards(3)[0]))
    assert h.actor == 0
    h.apply(Draw())
    h.apply(lay("4C 4D 4H"))
    assert len(h.melds[0]) == 4 and h.melds[0][3].rank == 4


def test_a_short_meld_exposed_at_the_table_is_penalized_100_points() -> None:
    # A scorer recording a real table enters the penalty (short_openings), which comes
    # off the team's score as the engine's does for melds shown short in play (below).
    assert RULES.opening.short_penalty == 100
    s = score_team(RULES, 0, [(RANK_MELD, cards("KC KD KH"))], [],
                   penalties=RULES.opening.short_penalty)
    assert (s.penalties, s.total) == (-100, -70)
    _, sheet = score_text(
        'variant = "texas-good-sam"\n'
        '[[teams]]\nmelds = ["KC KD KH"]\nshort_openings = 1\n'
        '[[teams]]\nmelds = []\n', "toml")
    assert [t.total for t in sheet] == [30 - 100, 0]


def test_a_player_who_exposes_melds_short_of_the_count_is_penalized_100_points() -> None:
    # "If a player exposes their hand to meld and does not have the correct point count,
    # the player is penalized 100 points": K K K (30) and A A A (60) laid out, 90 of 120,
    # then taken back. The penalty is charged once in the turn, on the score sheet.
    h = new_hand(hands={0: "KH KD KS AH AD AS 9H 9D 7S 7C 7D"}, stock="4C 4D")
    h.apply(Draw())
    h.apply(LayMeld(cards("KH KD KS")))
    h.apply(LayMeld(cards("AH AD AS")))
    assert h.short_exposed(0)
    assert h.short_warning(0) == ("Taking these melds back short of 120 points costs your "
                                  "team 100 points: lay out more and go down.")
    h.apply(TakeBack(1))
    assert h.short_openings == [1, 0]
    h.apply(TakeBack(0))  # once a turn
    assert h.short_openings == [1, 0] and not h.short_exposed(0)
    h.apply(LayMeld(cards("KH KD KS")))
    h.apply(TakeBack(0))
    assert h.short_openings == [1, 0]
    h.apply(Discard(parse_card("4C")))
    for _ in range(3):
        h.apply(Draw())
        h.apply(Discard(h.hand_cards(h.actor)[0]))
    # a later turn is charged again
    h.apply(Draw())
    h.apply(LayMeld(cards("7S 7C 7D")))
    h.apply(TakeBack(0))
    assert h.short_openings == [2, 0]
    h.call_time()
    scores = score_hand(h)
    assert (scores[0].penalties, scores[1].penalties) == (-200, 0)
    assert ("Penalties", -200) in scores[0].lines()


def test_melds_laid_out_that_make_the_count_are_not_penalized() -> None:
    # K K K (30) + A A A (60) + 9 9 9 (30) = 120: the count is there. Going down costs
    # nothing, and neither does taking them back (the player showed the count).
    h = new_hand(hands={0: "KH KD KS AH AD AS 9H 9D 9S 7C 7D"})
    h.apply(Draw())
    for meld in ("KH KD KS", "AH AD AS", "9H 9D 9S"):
        h.apply(LayMeld(cards(meld)))
    assert not h.short_exposed(0) and h.short_warning(0) is None
    h.apply(TakeBack(2))
    h.apply(TakeBack(1))
    assert h.short_openings == [0, 0]
    h2 = new_hand(hands={0: "KH KD KS AH AD AS 9H 9D 9S 7C 7D"})
    h2.apply(Draw())
    for meld in ("KH KD KS", "AH AD AS", "9H 9D 9S"):
        h2.apply(LayMeld(cards(meld)))
    h2.apply(GoDown())
    assert h2.opened[0] and h2.short_openings == [0, 0]


def test_the_table_warns_a_player_whose_laid_out_melds_are_short_of_the_count() -> None:
    # The page shows the team view's warning beside the prompt, before anything is lost.
    from handfoot.game.views import seat_view, team_json
    from handfoot.testing import stacked_deal

    game = Game(RULES, deals=[stacked_deal(RULES, hands={0: "KH KD KS AH AD AS 9H 9D 9S 7C 7D"})])
    game.apply(Draw())
    assert seat_view(game, 0).teams[0].short_warning is None
    game.apply(LayMeld(cards("KH KD KS")))
    warning = team_json(seat_view(game, 0).teams[0])["short_warning"]
    assert warning == ("Taking these melds back short of 120 points costs your team 100 "
                       "points: lay out more and go down.")
    game.apply(LayMeld(cards("AH AD AS")))
    game.apply(LayMeld(cards("9H 9D 9S")))  # 120: no warning
    assert seat_view(game, 0).teams[0].short_warning is None
    assert seat_view(game, 1).teams[1].short_warning is None


def test_a_short_opening_refused_whole_exposes_nothing() -> None:
    # Laid down at once, a short opening is refused before anything is on the table.
    h = new_hand(hands={0: "KH KD KS AH AD AS 9H 9D 7S 7C 7D"})
    h.apply(Draw())
    assert_refused(h, lay("KH KD KS | AH AD AS"), OpeningTooLow)
    assert h.short_openings == [0, 0]


# ----------------------------------------------------------------------------- GAME
def test_drawing_and_dealing_exactly_22_cards_earns_a_bonus_of_100_points() -> None:
    h = new_hand(grabs=(22, 23, 21, 21))
    h.call_time()
    scores = score_hand(h)
    assert scores[0].deal_bonus == 100      # seat 0 grabbed exactly 22
    assert scores[1].deal_bonus == 0        # seats 1 and 3 were off by one (seat 2 too)
    h2 = new_hand(grabs=(22, 22, 22, 22))
    h2.call_time()
    assert [s.deal_bonus for s in score_hand(h2)] == [200, 200]


def test_each_player_selects_one_stack_as_hand_the_foot_stays_face_down() -> None:
    # Blind choice: the first dealt stack is the hand, the other the foot, unseen.
    h = new_hand(hands={0: "QC QD QH QS QC QD QH 4C 4D 4H 4S"},
                 feet={0: "KC KD KH KS KC KD KH 5C 5D 5H 5S"})
    assert h.phase == Phase.DRAW  # no choosing step
    assert sorted(h.hand_cards(0)) == sorted(cards("QC QD QH QS QC QD QH 4C 4D 4H 4S"))
    assert sorted(h.feet[0] or ()) == sorted(cards("KC KD KH KS KC KD KH 5C 5D 5H 5S"))
    assert sum(h.known[1]) == 0 and h.foot_known == [None] * 4
    assert_refused(h, PickUpFoot(), IllegalAction)  # the foot waits for an empty hand


# ----------------------------------------------------------------------------- PLAY
def test_the_undealt_cards_become_the_draw_pile_and_no_card_is_turned_up() -> None:
    h = new_hand()
    assert len(h.stock) == 270 - 4 * 22 == 182
    assert h.pile == []


def test_the_highest_cut_plays_first_and_play_rotates_left() -> None:
    h = new_hand(first_seat=2)
    assert h.actor == 2 and h.phase == Phase.DRAW
    assert_refused(h, Draw(), NotYourTurn, seat=0)
    h.apply(Draw())
    assert h.actor == 2
    h.apply(Discard(h.hand_cards(2)[0]))
    assert h.actor == 3
    h.apply(Draw())
    h.apply(Discard(h.hand_cards(3)[0]))
    assert h.actor == 0


def test_each_player_in_turn_draws_two_cards() -> None:
    h = new_hand(hands={0: "4C 4D 4H 5C 5D 5H 6C 6D 6H 7C 7D"}, stock="KH AS")
    h.apply(Draw())
    assert h.hand_len[0] == 13 and len(h.stock) == 180
    assert h.hands[0][parse_card("KH")] == 1 and h.hands[0][parse_card("AS")] == 1
    assert_refused(h, Draw(), WrongPhase)


def test_once_a_meld_is_on_the_table_groups_of_three_start_or_add_to_canastas() -> None:
    h = new_hand(hands={0: "4C 4D 4H 4S QC QD 6C 7C 8C 9C 10C"}, reserve="KC KD KH")
    h.apply(Draw())
    assert_refused(h, lay("4C 4D 4H"), OpeningTooLow)  # 15 points: no meld yet
    put_meld(h, 0, "KC KD KH")
    h.apply(lay("4C 4D 4H"))
    h.apply(AddToMeld(meld_index(h, 0, "4C"), cards("4S")))
    assert len(h.melds[0][meld_index(h, 0, "4C")].cards) == 4


def test_before_the_teams_meld_cards_cannot_be_added_to_the_table() -> None:
    h = new_hand(hands={0: "4C 4D 4H 4S QC QD 6C 7C 8C 9C 10C"}, reserve="4C 4D 4H")
    put_meld(h, 1, "4C 4D 4H")  # the other team's meld is not ours
    h.apply(Draw())
    assert_refused(h, AddToMeld(0, cards("4S")), IllegalAction)


def test_the_pile_can_be_taken_only_after_the_teams_meld_is_down() -> None:
    h = new_hand(hands={0: "QH QD 4C 5C 6C 7C 8C 9C 10C JC KC"},
                 reserve="4D 5D 6D 7D 8D QS AC AD AH")
    put_pile(h, "4D 5D 6D 7D 8D QS")
    assert_refused(h, TakePile(cards("QH QD")), PileNotAvailable)
    put_meld(h, 1, "AC AD AH")  # the other team's meld does not help
    assert_refused(h, TakePile(cards("QH QD")), PileNotAvailable)


def test_after_the_meld_take_the_top_five_cards_with_a_natural_pair() -> None:
    h = new_hand(hands={0: "QH QD 4C 5C 6C 7C 8C 9C 10C JC KC"},
                 reserve="AC AD AH 4D 5D 6D 7D 8D 9D QS")
    put_meld(h, 0, "AC AD AH")
    put_pile(h, "4D 5D 6D 7D 8D 9D QS")
    h.apply(TakePile(cards("QH QD")))
    assert h.pile == list(cards("4D 5D"))             # the top five are gone
    q = h.melds[0][meld_index(h, 0, "QS")]
    assert sorted(q.cards) == sorted(cards("QH QD QS"))  # top card played at once
    for c in cards("6D 7D 8D 9D"):                     # the other four are in the hand
        assert h.hands[0][c] == 1
    assert h.hand_len[0] == 11 - 2 + 4
    assert h.phase == Phase.PLAY


def test_exactly_five_cards_are_taken_not_more_or_fewer() -> None:
    h = new_hand(hands={0: "QH QD 4C 5C 6C 7C 8C 9C 10C JC KC"},
                 reserve="AC AD AH 4D 5D 6D 7D 8D 9D QS")
    put_meld(h, 0, "AC AD AH")
    put_pile(h, "4D 5D 6D 7D 8D 9D QS")
    assert_refused(h, TakePile(cards("QH QD"), count=6), PileNotAvailable)
    assert_refused(h, TakePile(cards("QH QD"), count=4), PileNotAvailable)


def test_the_pair_must_not_be_wild_cards() -> None:
    h = new_hand(hands={0: "QH 2C JK 4C 5C 6C 7C 8C 9C 10C JC"}, reserve="AC AD AH 4D 5D 6D 7D QS")
    put_meld(h, 0, "AC AD AH")
    put_pile(h, "4D 5D 6D 7D QS")
    assert_refused(h, TakePile(cards("QH 2C")), PileNotAvailable)
    assert_refused(h, TakePile(cards("QH JK")), PileNotAvailable)
    assert_refused(h, TakePile(cards("QH")), PileNotAvailable)


def test_the_pair_must_match_the_top_discard_and_be_in_the_hand() -> None:
    h = new_hand(hands={0: "QH QD KH KD 5C 6C 7C 8C 9C 10C JC"}, reserve="AC AD AH 4D 5D 6D 7D QS")
    put_meld(h, 0, "AC AD AH")
    put_pile(h, "4D 5D 6D 7D QS")
    assert_refused(h, TakePile(cards("KH KD")), PileNotAvailable)
    assert_refused(h, TakePile(cards("QC QS")), CardsNotHeld)


def test_with_less_than_five_cards_in_the_pile_the_lesser_number_is_picked_up() -> None:
    h = new_hand(hands={0: "QH QD 4C 5C 6C 7C 8C 9C 10C JC KC"}, reserve="AC AD AH 8D QS")
    put_meld(h, 0, "AC AD AH")
    put_pile(h, "8D QS")
    h.apply(TakePile(cards("QH QD")))
    assert h.pile == []
    assert h.hands[0][parse_card("8D")] == 1
    assert h.hand_len[0] == 11 - 2 + 1


def test_the_top_card_must_be_played_on_the_table() -> None:
    # With a meld of the rank already open, the top card goes on it; the pair was only
    # shown ("must have 2 like cards ... in their hand") and stays in the hand.
    assert RULES.pile.shown_cards == "kept"
    h = new_hand(hands={0: "QH QD 4C 5C 6C 7C 8C 9C 10C JC KC"}, reserve="QC QC 2C 4D 5D 6D 7D QS")
    put_meld(h, 0, "QC QC 2C")
    put_pile(h, "4D 5D 6D 7D QS")
    h.apply(TakePile(cards("QH QD")))
    assert len(h.melds[0]) == 1
    assert sorted(h.melds[0][0].cards) == sorted(cards("QC QC 2C QS"))
    assert h.hands[0][parse_card("QH")] == 1 and h.hands[0][parse_card("QD")] == 1
    assert h.hand_len[0] == 11 + 4
    # the whole table saw the pair
    assert h.known[0][parse_card("QH")] == 1 and h.known[0][parse_card("QD")] == 1


def test_the_pair_is_shown_and_may_be_played_now_or_during_a_later_turn() -> None:
    """"The player must have 2 like cards (a pair) ... in their hand that matches the top
    discard ... The player must play ... the top card. The remaining cards may be played
    now or during a later turn": the pair may follow the top card, or stay in the hand."""
    h = new_hand(hands={0: "QH QD 4C 5C 6C 7C 8C 9C 10C JC KC"}, reserve="QC QC 2C 4D 5D 6D 7D QS")
    put_meld(h, 0, "QC QC 2C")
    put_pile(h, "4D 5D 6D 7D QS")
    h.apply(TakePile(cards("QH QD")))
    h.apply(AddToMeld(0, cards("QH")))
    h.apply(Discard(parse_card("4C")))
    assert h.hands[0][parse_card("QD")] == 1 and h.melds[0][0].size == 5


def test_with_no_open_meld_of_the_rank_the_top_card_starts_one_with_the_pair() -> None:
    h = new_hand(hands={0: "QH QD 4C 5C 6C 7C 8C 9C 10C JC KC"},
                 reserve="AC AD AH 4D 5D 6D 7D QS")
    put_meld(h, 0, "AC AD AH")
    put_pile(h, "4D 5D 6D 7D QS")
    h.apply(TakePile(cards("QH QD")))
    assert sorted(h.melds[0][-1].cards) == sorted(cards("QH QD QS"))
    assert h.hands[0][parse_card("QH")] == 0


def test_the_remaining_cards_may_be_played_now_or_during_a_later_turn() -> None:
    h = new_hand(hands={0: "QH QD 4C 4H 6C 7C 8C 9C 10C JC KC"}, reserve="AC AD AH 4D 5D 6D 7D QS")
    put_meld(h, 0, "AC AD AH")
    put_pile(h, "4D 5D 6D 7D QS")
    h.apply(TakePile(cards("QH QD")))
    h.apply(lay("4C 4H 4D"))  # 4D came from the pile
    h.apply(Discard(parse_card("5D")))  # 6D and 7D stay in the hand for later
    assert h.hands[0][parse_card("6D")] == 1 and h.hands[0][parse_card("7D")] == 1
    assert h.actor == 1


def test_all_cards_of_the_hand_played_without_discarding_pick_up_the_foot() -> None:
    h = new_hand(hands={0: FOUR_TO_SEVEN}, feet={0: FOOT}, stock="7H 7S", reserve="AC AD AH")
    put_meld(h, 0, "AC AD AH")
    h.apply(Draw())
    for meld in ("4C 4D 4H", "5C 5D 5H", "6C 6D 6H", "7C 7D 7H 7S"):
        h.apply(lay(meld))
    assert h.hand_len[0] == 0 and h.actor == 0
    assert_refused(h, Discard(parse_card("4C")), IllegalAction)
    h.apply(PickUpFoot())
    assert h.in_foot[0] and h.feet[0] is None and h.hand_len[0] == 11
    h.apply(lay("8C 8D 8H 8S"))  # and continue playing from the foot, the same turn
    h.apply(Discard(parse_card("9C")))
    assert h.actor == 1


def test_a_hand_emptied_by_a_discard_takes_the_foot_on_the_next_turn() -> None:
    h = new_hand(hands={0: "4C 4D 4H 5C 5D 5H 6C 6D 6H 7C 7D"}, feet={0: FOOT},
                 stock="7H KS", reserve="AC AD AH")
    put_meld(h, 0, "AC AD AH")
    h.apply(Draw())
    for meld in ("4C 4D 4H", "5C 5D 5H", "6C 6D 6H", "7C 7D 7H"):
        h.apply(lay(meld))
    h.apply(Discard(parse_card("KS")))
    assert h.hand_len[0] == 0 and h.feet[0] is not None and h.actor == 1
    for _ in range(3):
        h.apply(Draw())
        h.apply(Discard(h.hand_cards(h.actor)[0]))
    assert h.actor == 0
    assert_refused(h, Draw(), IllegalAction)
    assert h.legal_actions() == [PickUpFoot()]
    h.apply(PickUpFoot())
    h.apply(Draw())
    assert h.hand_len[0] == 13


def test_the_turn_ends_with_a_discard_of_the_players_choice() -> None:
    h = new_hand(hands={0: "4C 4D 4H 5C 5D 5H 6C 6D 6H 7C 7D"})
    h.apply(Draw())
    assert_refused(h, EndTurn(), IllegalAction)
    h.apply(Discard(parse_card("6D")))
    assert h.pile[-1] == parse_card("6D") and h.actor == 1 and h.phase == Phase.DRAW
    assert h.hand_len[0] == 12


def test_a_wild_card_may_be_discarded() -> None:
    h = new_hand(hands={0: "JK 2C 4H 5C 5D 5H 6C 6D 6H 7C 7D"})
    h.apply(Draw())
    h.apply(Discard(JOKER))
    assert h.pile == [JOKER] and h.actor == 1


# ---------------------------------------------------------------- the pile freezes
@pytest.mark.parametrize("top", ["2C", "JK", "3H", "3D", "3S", "3C"])
def test_the_pile_cannot_be_picked_up_with_a_wild_or_a_three_on_top(top: str) -> None:
    h = new_hand(hands={0: "3H 3H 3S 3S 2D 2D JK JK QC QD KC"}, reserve=f"AC AD AH QS QH 4C {top}")
    put_meld(h, 0, "AC AD AH")
    put_pile(h, f"QS QH 4C {top}")
    shown = {"2C": "2D 2D", "JK": "JK JK", "3H": "3H 3H", "3D": "3H 3H"}.get(top, "3S 3S")
    msg = assert_refused(h, TakePile(cards(shown)), PileNotAvailable)
    assert "frozen" in msg
    assert not any(isinstance(a, TakePile) for a in h.legal_actions())


def test_threes_are_not_collected_in_groups_and_canastas_of_threes_are_not_allowed() -> None:
    h = new_hand(hands={0: "3H 3D 3H 3D 3S 3C 3S 4C 5C 6C 7C"}, reserve="AC AD AH")
    put_meld(h, 0, "AC AD AH")
    h.apply(Draw())
    assert_refused(h, lay("3H 3D 3H"), BadMeld)
    assert_refused(h, lay("3H 3D 3H 3D 3S 3C 3S"), BadMeld)


# -------------------------------------------------------------------------- GOING OUT
def test_a_complete_canasta_can_be_burned_with_more_natural_cards() -> None:
    h = new_hand(hands={0: "QH QD 4C 5C 6C 7C 8C 9C 10C JC KC"}, reserve="QC QC QC QS QS QS 2C")
    put_meld(h, 0, "QC QC QC QS QS QS 2C")
    h.apply(Draw())
    h.apply(AddToMeld(0, cards("QH QD")))
    assert len(h.melds[0][0].cards) == 9
    s = score_team(RULES, 0, [(RANK_MELD, h.melds[0][0].cards)], [])
    assert (s.dirty_books, s.dirty_book_points, s.table_cards) == (1, 300, 80 + 20)


def test_wild_cards_cannot_be_burned() -> None:
    h = new_hand(hands={0: "2H JK 4C 5C 6C 7C 8C 9C 10C JC KC"}, reserve="QC QC QC QS QS QS QH")
    put_meld(h, 0, "QC QC QC QS QS QS QH")
    h.apply(Draw())
    assert_refused(h, AddToMeld(0, cards("2H")), BadMeld)
    assert_refused(h, AddToMeld(0, cards("JK")), BadMeld)
    # Nor by laying an over-long meld with a fourth wild at once.
    h2 = new_hand(hands={0: "QC QD QH QS QC 2C 2D 2H JK 9C 10C"}, reserve="AC AD AH")
    put_meld(h2, 0, "AC AD AH")
    h2.apply(Draw())
    assert_refused(h2, lay("QC QD QH QS QC 2C 2D 2H JK"), BadMeld)


def test_a_canasta_must_be_completed_before_starting_another_of_the_same_value() -> None:
    h = new_hand(hands={0: "QH QD QS 4C 5C 6C 7C 8C 9C 10C JC"}, reserve="QC QC QC QS QS QS")
    put_meld(h, 0, "QC QC QC QS QS QS")  # six queens: not complete
    h.apply(Draw())
    assert_refused(h, lay("QH QD QS"), BadMeld)
    h.apply(AddToMeld(0, cards("QH")))   # now complete
    assert h.books(0) == (1, 0, 0, 0)
    h2 = new_hand(hands={0: "QD QS QH 4C 5C 6C 7C 8C 9C 10C JC"}, reserve="QC QC QC QS QS QS QH")
    put_meld(h2, 0, "QC QC QC QS QS QS QH")
    h2.apply(Draw())
    h2.apply(lay("QD QS QH"))
    assert [len(m.cards) for m in h2.melds[0]] == [7, 3]


def test_the_team_must_have_two_red_and_three_black_canastas_to_go_out() -> None:
    h = foot_hand(dirty=2)
    assert h.books(0) == (2, 2, 0, 0)
    h.apply(lay("8C 8D 8H 8S"))
    h.apply(lay("9C 9D 9H 9S"))
    h.apply(AddToMeld(meld_index(h, 0, "4S"), cards("4S")))
    assert h.hand_len[0] == 2
    assert h.go_out_blocker(0) == "your team needs 1 more black canasta"
    # With one black canasta missing the player may not play down to a last card
    # (which would be discarded to go out): a card to discard and one to keep.
    assert_refused(h, AddToMeld(meld_index(h, 0, "5S"), cards("5S")), CannotGoOut)
    h.apply(Discard(parse_card("5S")))
    assert not h.over and h.hand_len[0] == 1 and h.actor == 1


def test_with_the_books_a_player_in_the_foot_goes_out_by_melding_the_last_card() -> None:
    h = foot_hand(dirty=3)
    assert h.books(0) == (2, 3, 0, 0)
    h.apply(lay("8C 8D 8H 8S"))
    h.apply(lay("9C 9D 9H 9S"))
    h.apply(AddToMeld(meld_index(h, 0, "4S"), cards("4S")))
    h.apply(AddToMeld(meld_index(h, 0, "5S"), cards("5S")))
    h.apply(AddToMeld(meld_index(h, 0, "6S"), cards("6S")))  # no discard needed
    # Out of cards, the turn is over; the hand is not (play goes on until the stock is drawn).
    assert (h.over, h.went_out, h.hand_len[0], h.actor) == (False, 0, 0, 1)


def test_going_out_needs_no_partners_permission() -> None:
    h = foot_hand(dirty=3)
    assert not RULES.going_out.permission
    assert_refused(h, AskToGoOut(), IllegalAction)
    h.apply(lay("8C 8D 8H 8S"))
    h.apply(lay("9C 9D 9H 9S"))
    h.apply(AddToMeld(meld_index(h, 0, "4S"), cards("4S")))
    h.apply(AddToMeld(meld_index(h, 0, "5S"), cards("5S")))
    h.apply(Discard(parse_card("6S")))  # going out with a discard is also fine
    assert (h.over, h.went_out, h.hand_len[0], h.actor) == (False, 0, 0, 1)


def test_play_continues_until_the_draw_pile_is_gone() -> None:
    h = new_hand(first_seat=1)
    turns = 0
    while not h.over:
        assert h.stock, "the hand ends only once the draw pile is used up"
        h.apply(Draw())
        h.apply(Discard(h.hand_cards(h.actor)[0]))
        turns += 1
    assert h.ended_by == "stock" and h.went_out is None
    assert h.stock == [] and turns == 182 // 2
    assert len(h.pile) == turns  # the player who drew the last cards still discarded
    assert_refused(h, Draw(), WrongPhase)


def test_play_should_continue_so_going_out_does_not_end_the_hand() -> None:
    """"play should continue to gain all points possible", "The game ends when all cards
    from the draw pile have been drawn": a player who has played every card of hand and
    foot keeps taking turns (drawing, melding, discarding) until the stock is gone."""
    assert RULES.going_out.hand_ends == "stock-drawn"
    h = foot_hand(dirty=3)
    h.apply(lay("8C 8D 8H 8S"))
    h.apply(lay("9C 9D 9H 9S"))
    h.apply(AddToMeld(meld_index(h, 0, "4S"), cards("4S")))
    h.apply(AddToMeld(meld_index(h, 0, "5S"), cards("5S")))
    h.apply(AddToMeld(meld_index(h, 0, "6S"), cards("6S")))
    assert not h.over and h.went_out == 0 and h.hand_len[0] == 0 and h.in_foot[0]
    stock = len(h.stock)
    for seat in (1, 2, 3):
        assert h.actor == seat
        h.apply(Draw())
        h.apply(Discard(h.hand_cards(seat)[0]))
    # Seat 0 takes its turn again: it draws two cards and plays them.
    assert h.actor == 0 and h.phase == Phase.DRAW
    assert_refused(h, Discard(parse_card("6S")), WrongPhase)
    h.apply(Draw())
    assert h.hand_len[0] == 2 and len(h.stock) == stock - 8
    h.apply(Discard(h.hand_cards(0)[0]))
    assert h.hand_len[0] == 1 and h.actor == 1
    play_out(h)
    assert h.ended_by == "stock" and h.stock == [] and h.went_out == 0


def test_after_going_out_the_canastas_are_still_needed_to_play_a_last_card() -> None:
    """The two red and three black canastas are what a player needs to play their last
    card."""
    h = foot_hand(dirty=2)
    h.apply(lay("8C 8D 8H 8S"))
    h.apply(lay("9C 9D 9H 9S"))
    h.apply(AddToMeld(meld_index(h, 0, "4S"), cards("4S")))
    assert_refused(h, AddToMeld(meld_index(h, 0, "5S"), cards("5S")), CannotGoOut)
    assert h.went_out is None


def test_no_points_for_going_out_even_when_the_stock_ends_the_hand() -> None:
    h = foot_hand(dirty=3)
    h.apply(lay("8C 8D 8H 8S"))
    h.apply(lay("9C 9D 9H 9S"))
    h.apply(AddToMeld(meld_index(h, 0, "4S"), cards("4S")))
    h.apply(AddToMeld(meld_index(h, 0, "5S"), cards("5S")))
    h.apply(Discard(parse_card("6S")))
    play_out(h)
    assert h.ended_by == "stock" and h.went_out == 0
    assert [s.going_out for s in score_hand(h)] == [0, 0]


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_bots_play_a_texas_hand_on_until_the_stock_is_drawn(bot: str) -> None:
    from handfoot.arena import play, seat_bots
    game = play(Game(RULES, seed=5), seat_bots(RULES, [bot], 3))
    assert game.results[0].ended_by == "stock"


def test_the_game_ends_when_all_cards_from_the_draw_pile_have_been_drawn() -> None:
    game = Game(RULES, seed=2)
    while not game.over:
        game.apply(Draw())
        game.apply(Discard(game.hand.hand_cards(game.actor)[0]))
    assert game.hand.stock == [] and game.results[0].ended_by == "stock"
    assert game.over and len(game.results) == 1


def test_no_points_are_awarded_for_going_out() -> None:
    assert RULES.scores.going_out == 0
    h = foot_hand(dirty=3, partner={2: PARTNER_HAND}, grabs=(22, 23, 22, 21))
    h.apply(lay("8C 8D 8H 8S"))
    h.apply(lay("9C 9D 9H 9S"))
    h.apply(AddToMeld(meld_index(h, 0, "4S"), cards("4S")))
    h.apply(AddToMeld(meld_index(h, 0, "5S"), cards("5S")))
    h.apply(Discard(parse_card("6S")))
    assert h.went_out == 0
    h.call_time()  # stand the hand here to count it
    us = score_hand(h)[0]
    assert us.going_out == 0
    # table: books Q 70, K 70, A 170, J 90, 10 120; melds 4s 20, 5s 20, 6s 15, 7s 20,
    # 8s 40, 9s 40 -> 675; bonuses 2 x 500 + 3 x 300 = 1900.
    assert us.table_cards == 675
    assert (us.clean_book_points, us.dirty_book_points) == (1000, 900)
    # the partner's hand and unplayed foot count against the team: 3H -500, 3S -100,
    # 4S 5S 6S 15, 8S 9S KS 30, AS 20, 2H 20, JK 50 -> 135; foot 7S x3 15, 8H x3 30,
    # 9H x2 20, JS x3 30 -> 95.
    assert us.threes == -600
    assert us.held_cards == -(135 + 95)
    assert us.deal_bonus == 200  # seats 0 and 2 each dealt exactly 22
    assert us.total == 675 + 1900 - 600 - 230 + 200


# --------------------------------------------------------------------- table manners
def test_no_discussion_or_coaching_between_partners() -> None:
    # The only way a partner is consulted is the permission question, and this sheet
    # has none; the engine has no message action between partners.
    h = foot_hand(dirty=3)
    assert not any(isinstance(a, AskToGoOut) for a in h.legal_actions())


# -------------------------------------------------------------------------- scoring
def test_all_cards_on_the_table_count_toward_the_team_and_unplayed_cards_against() -> None:
    h = new_hand(hands={0: "QH QD QS KH KD KS AH AD AS 4C 4D",
                        2: "5C 5D 5H 6C 6D 6H 7C 7D 7H 8C 8D"},
                 feet={0: "9C 9D 9H 9S 10C 10D 10H 10S JC JD JH",
                       2: "4S 4S 4S 4S 4S 5S 5S 5S 5S 5S JK"},
                 stock="4H 9C")
    h.apply(Draw())
    h.apply(lay("QH QD QS | KH KD KS | AH AD AS"))
    h.apply(lay("4C 4D 4H"))
    h.call_time()  # stand the hand here to count it
    us = score_hand(h)[0]
    assert us.table_cards == 30 + 30 + 60 + 15
    # seat 0 holds 9C (10); seat 0's foot 9s 40, 10s 40, Js 30; seat 2's hand
    # 5s 6s 7s 45, 8s 20; seat 2's foot 4s 25, 5s 25, JK 50.
    assert us.held_cards == -(10 + 110 + 65 + 100)
    assert us.total == 135 - 285


def test_highest_team_score_wins() -> None:
    game = Game(RULES, seed=9)
    while not game.over:
        game.apply(Draw())
        game.apply(Discard(game.hand.hand_cards(game.actor)[0]))
    t = game.results[0].scores
    assert game.totals == [t[0].total, t[1].total]
    assert t[0].total != t[1].total
    assert game.winners == [0 if t[0].total > t[1].total else 1]
    assert game.tie_break == ""


def test_points_are_made_by_forming_red_or_black_canastas_in_those_words() -> None:
    # "Points are made by collecting cards to form either "red" or "black" canastas."
    seen = book_words(RULES, ["QC QD QH QS QC QD QH", "JC JD JH JS 2C 2D JK"])
    assert seen["names"] == ["red canasta", "black canasta"]
    need = "1 more red canasta and 2 more black canastas"
    assert seen["to_go_out"] == need
    assert seen["refusals"] == [f"You cannot go out yet: your team needs {need}. "
                                "Keep at least one card."]
    assert "(red canasta)" in seen["terminal"] and "(black canasta)" in seen["terminal"]
    assert f"to go out: {need}" in seen["terminal"]
    assert seen["sheet"][:2] == ["Red canastas (1)", "Black canastas (1)"]
    assert not any(w in str(seen) for w in ("clean", "dirty", "book"))
