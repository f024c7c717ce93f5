"""The engine's named pieces: each piece of the move listing on a stacked hand, the
meld-shape rule asked in one place, the record an applied action returns, and the
readable form of a hand and a game."""

from __future__ import annotations

from pathlib import Path

import pytest

from handfoot.actions import (
    Action,
    AddToMeld,
    AnswerGoOut,
    AskToGoOut,
    Discard,
    Draw,
    LayMeld,
    TakePile,
    parse_action,
)
from handfoot.cards import (
    BB_TWOS,
    JOKER,
    LOWEST_SUIT,
    card_set,
    counts_of,
    format_card_set,
    lowest_of_each_rank,
    parse_card_set,
    parse_cards,
    popcount,
    scan_forward,
)
from handfoot.engine import BadMeld, CardsNotHeld, Hand, WrongPhase
from handfoot.engine.melds import check_rank_counts, fewest_naturals, most_wilds
from handfoot.engine.moves import discard_bits, sequence_melds
from handfoot.game import Game
from handfoot.rules import PRESET_NAMES, Rules, preset
from handfoot.testing import put_meld, stacked_deal
from stacked import on_table, put_in_foot, stacked_hand

SRC = Path(__file__).resolve().parents[1] / "src" / "handfoot"


def holding(hand: Hand, seat: int, cards: str) -> None:
    """The seat holds exactly ``cards`` (earlier play, which the test stands for)."""
    hand.hands[seat] = counts_of(parse_cards(cards))
    hand.recount(seat)


def in_play(rules: Rules, held: str, seat_melds: tuple[str, ...] = ()) -> Hand:
    """Seat 0 holding ``held`` once it has drawn, its team down with ``seat_melds``."""
    hand = Hand(rules, stacked_deal(rules, reserve=" ".join(seat_melds)))
    for cards in seat_melds:
        put_meld(hand, 0, cards)
    hand.apply(Draw())
    holding(hand, 0, held)
    return hand


def wilds_of(hand: Hand) -> tuple[int, int]:
    """The lowest 2 held (-1: none) and the jokers held, as the listing reads them."""
    bits = hand.held[hand.actor].bits
    twos = bits & BB_TWOS
    return LOWEST_SUIT[twos] if twos else -1, hand.hands[hand.actor][JOKER]


def notation(moves: list[Action]) -> list[str]:
    return [m.notation() for m in moves]


# ------------------------------------------------------------ the card sets

def test_card_sets_name_the_cards_they_hold() -> None:
    cards = parse_card_set("7H 7S 7S 8D 2C 2S JK")
    assert popcount(cards) == 6  # a set: the second 7♠ is the same card
    assert list(scan_forward(cards)) == sorted(set(parse_cards("7H 7S 8D 2C 2S JK")))
    assert format_card_set(lowest_of_each_rank(cards)) == "7♥ 8♦ 2♣ Joker"
    assert card_set([]) == 0


# ------------------------------------------------------------ the listing's pieces

def test_new_melds_of_a_rank_are_the_smallest_with_more_naturals_than_wilds() -> None:
    rules = preset("classic")
    hand = in_play(rules, "QH QD QS 7C 2C JK 9S", seat_melds=("KC KD KH",))
    a_two, jokers = wilds_of(hand)
    out: list[Action] = []
    hand._rank_melds(0, hand.held[0].bits, hand.table_counts(0), a_two, jokers, out)
    # three queens; two queens and a wild of each kind; no meld of one 7 and two wilds
    assert notation(out) == ["meld QD QH QS", "meld QD QH 2C", "meld QD QH JK"]
    for move in out:
        assert isinstance(move, LayMeld) and len(move.cards) == rules.meld.min_size


def test_a_rank_with_an_open_meld_gets_no_second_where_one_is_allowed() -> None:
    rules = Rules.from_toml('extends = "classic"\n[meld]\none_open_meld_per_rank = true\n')
    hand = in_play(rules, "QH QD QS 7C 7D 7S", seat_melds=("QC QD QH",))
    out: list[Action] = []
    hand._rank_melds(0, hand.held[0].bits, hand.table_counts(0), -1, 0, out)
    assert notation(out) == ["meld 7C 7D 7S"]


def test_sequences_are_three_ranks_in_a_row_of_one_suit() -> None:
    out: list[Action] = []
    sequence_melds(parse_card_set("4H 5H 6H 7H 9S 10S JS QD KD 2C"), 3, out)
    assert notation(out) == ["meld 4H 5H 6H", "meld 5H 6H 7H", "meld 9S 10S JS"]


def test_wild_card_melds_are_listed_where_the_rules_have_them() -> None:
    hand = in_play(preset("samba"), "2C 2D JK JK 9S 9H", seat_melds=("KC KD KH",))
    out: list[Action] = []
    hand._wild_card_melds(hand.hands[0], 2, out)
    assert notation(out) == ["meld 2C 2D JK", "meld 2C JK JK"]
    assert hand._may_meld_wilds(0, True, False)
    assert not hand._may_meld_wilds(0, True, True)  # one is open already
    assert not in_play(preset("classic"), "2C 2D JK 9S")._may_meld_wilds(0, True, False)


def test_black_3s_are_melded_only_to_go_out_where_the_rules_say() -> None:
    rules = Rules.from_toml('extends = "six-deck"\n[threes]\nblack_melded = "to-go-out"\n')
    hand = stacked_hand(rules, upcard="9S", stock="KC 3C")
    on_table(hand, 0, "4C 4D 4H 4S 4C 4D 4H")
    on_table(hand, 0, "8C 8D 8H 8S 2C 2D JK")
    put_in_foot(hand, 0, "3C 3S 3C 3S KD KS")
    out: list[Action] = []
    hand.apply(Draw(), 0)
    black = parse_cards("3C 3C 3C 3S 3S")
    hand._black_three_melds(sorted(black), hand.hand_len[0], out)
    assert out == []  # three kings still held: the 3s cannot go out yet


def test_additions_offer_one_card_of_a_kind_for_each_meld() -> None:
    hand = in_play(preset("classic"), "KS QH 2D JK 9S",
                   seat_melds=("KC KD KH", "QC QD QS 2C", "7C 7D 7H 7S 7C 7D 7H"))
    a_two, jokers = wilds_of(hand)
    out: list[Action] = []
    checked = hand._additions(0, hand.held[0].bits, a_two, jokers, [], hand.hand_len[0],
                              False, out)
    assert checked is None
    # kings: a king, a 2, a joker; queens (two naturals more than its wild): a queen,
    # a 2, a joker; the clean book of 7s takes no wild in classic
    assert out == [AddToMeld(0, parse_cards("KS")), AddToMeld(0, parse_cards("2D")),
                   AddToMeld(0, (JOKER,)), AddToMeld(1, parse_cards("QH")),
                   AddToMeld(1, parse_cards("2D")), AddToMeld(1, (JOKER,))]


def test_a_meld_with_as_many_wilds_as_its_rule_allows_takes_no_more() -> None:
    hand = in_play(preset("classic"), "QH 2D 9S", seat_melds=("QC QD 2C",))
    a_two, jokers = wilds_of(hand)
    out: list[Action] = []
    hand._additions(0, hand.held[0].bits, a_two, jokers, [], hand.hand_len[0], False, out)
    assert out == [AddToMeld(0, parse_cards("QH"))]  # two naturals hold one wild at most


def test_the_discards_are_the_lowest_card_of_each_kind_held() -> None:
    held = parse_card_set("2S 2D 3S 3C 3H 7H 7S 8D JK")
    assert format_card_set(discard_bits(held, False)) == "3♣ 3♥ 7♥ 8♦ 2♦ Joker"
    assert format_card_set(discard_bits(held, True)) == "3♣ 3♥ 7♥ 7♠ 8♦ 2♦ Joker"


# ------------------------------------------------------------ the meld-shape rule

@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_meld_has_more_natural_cards_than_wild_cards(name: str) -> None:
    m = preset(name).meld
    for naturals in range(0, 12):
        most = most_wilds(naturals, m.max_wilds, m.naturals_exceed_wilds)
        assert most <= m.max_wilds
        if m.naturals_exceed_wilds:
            assert most < naturals  # "a meld must have more natural cards than wild cards"
        for wilds in range(0, 8):
            fits = naturals >= m.min_naturals and wilds <= most
            try:
                check_rank_counts(preset(name), 9, naturals, wilds, False, 0)
                accepted = True
            except BadMeld:
                accepted = False
            assert accepted == fits, (naturals, wilds)


def test_the_meld_rule_in_numbers() -> None:
    assert most_wilds(2, 3, True) == 1  # 2 naturals: one wild
    assert most_wilds(5, 3, True) == 3  # at most three, however many naturals
    assert most_wilds(2, 3, False) == 3  # where wilds may equal naturals
    assert fewest_naturals(7, 2, 3, True) == 4  # a book of seven: four naturals at least
    for size in range(3, 12):
        for max_wilds in range(0, size):
            for exceed in (True, False):
                least = fewest_naturals(size, 2, max_wilds, exceed)
                assert size - least <= most_wilds(least, max_wilds, exceed)
                assert least == 2 or size - (least - 1) > most_wilds(least - 1, max_wilds, exceed)


# ------------------------------------------------------------ one error channel

def test_every_refusal_is_returned_and_verify_raises_the_same() -> None:
    hand = in_play(preset("classic"), "QH QD 7S 9S", seat_melds=("KC KD KH",))
    for action, error in ((parse_action("meld QH QD 7S"), BadMeld),  # a meld's own check
                          (Draw(), WrongPhase),  # the phase's
                          (Discard(parse_cards("5H")[0]), CardsNotHeld)):  # the action's
        why = hand.refusal(action)
        assert isinstance(why, error) and not hand.is_legal(action)
        with pytest.raises(error) as raised:
            hand.verify(action)
        assert str(raised.value) == str(why)
    assert hand.refusal(parse_action("meld QH QD 2C")) is not None  # no 2 held
    assert hand.refusal(Discard(parse_cards("9S")[0])) is None


# ------------------------------------------------------------ the record of an action

def test_a_draw_records_the_cards_drawn_for_the_drawer() -> None:
    rules = preset("classic")
    hand = Hand(rules, stacked_deal(rules, hands={0: "5C 9S"}, stock="KH 8D"))
    played = hand.apply(Draw())
    assert played.seat == 0 and played.action == Draw()
    assert played.drawn == 2 and played.cards_in == tuple(sorted(parse_cards("KH 8D")))
    assert played.pile_cards == () and played.meld == -1 and not played.ended_by


def test_taking_the_pile_records_its_cards_and_the_meld_it_makes() -> None:
    rules = preset("classic")
    hand = Hand(rules, stacked_deal(rules, reserve="AC AD AH"))
    put_meld(hand, 0, "AC AD AH")
    holding(hand, 0, "9H 9D 5C 6C 7S")
    hand.pile[:] = parse_cards("5D 8D 9C")
    pile = tuple(hand.pile)
    played = hand.apply(next(a for a in hand.legal_actions() if isinstance(a, TakePile)))
    assert played.pile_cards == pile and played.pile_top == parse_cards("9C")[0]
    assert played.meld == len(hand.melds[0]) - 1 == 1 and played.meld_label == "9s"
    assert played.melds_made == 1 and played.drawn == 0
    assert played.points == sum(rules.card_value[c] for c in parse_cards("9C 9H 9D"))
    # the shown pair left the hand for the meld; the pile's other cards came in
    assert played.cards_in == tuple(sorted(parse_cards("5D 8D")))


def test_a_meld_laid_records_its_place_and_points() -> None:
    rules = preset("classic")
    hand = in_play(rules, "QH QD QS QS 9S 4C", seat_melds=("KC KD KH",))
    played = hand.apply(parse_action("meld QH QD QS"))
    assert (played.meld, played.meld_label, played.melds_made) == (1, "Queens", 1)
    assert played.points == 3 * rules.card_value[parse_cards("QH")[0]]
    assert sorted(played.meld_cards) == sorted(parse_cards("QH QD QS"))
    added = hand.apply(AddToMeld(1, parse_cards("QS")))
    assert (added.meld, added.meld_size_before, len(added.meld_cards)) == (1, 3, 4)
    assert added.melds_made == 0 and added.cards_in == ()


def test_going_out_is_recorded_with_the_hand_s_end() -> None:
    rules = preset("six-deck")  # a clean book and a dirty one; ask first
    books = ("4C 4D 4H 4S 4C 4D 4H", "8C 8D 8H 8S 2C 8D 8H")
    hand = Hand(rules, stacked_deal(rules, stock="7C 7D", reserve=" ".join(books)))
    for cards in books:
        put_meld(hand, 0, cards)
    for seat in (0, 2):  # both partners in their feet (the partners' rule)
        hand.feet[seat] = None
        hand.in_foot[seat] = True
    holding(hand, 0, "7S JS")
    played = hand.apply(Draw(), 0)
    assert played.cards_in == tuple(sorted(parse_cards("7C 7D"))) and played.drawn == 2
    hand.apply(AskToGoOut(), 0)
    hand.apply(AnswerGoOut(True), 2)
    played = hand.apply(parse_action("meld 7C 7D 7S"), 0)
    assert not played.went_out and not played.ended_by  # a card left to discard
    played = hand.apply(Discard(parse_cards("JS")[0]), 0)
    assert played.went_out and played.ended_by == "out"


# ------------------------------------------------------------ the readable forms

def test_a_hand_and_a_game_show_the_position_at_a_glance() -> None:
    rules = preset("classic")
    hand = in_play(rules, "QH QD QS 9S", seat_melds=("KC KD KH 2C",))
    hand.pile[:] = parse_cards("5D 8D")
    text = repr(hand)
    assert text.startswith("<Hand classic, hand 1 turn 0: seat 1 to play; pile 2 (8♦ top), "
                           f"stock {len(hand.stock)}")
    assert "  seat 1: hand 9♠ Q♦ Q♥ Q♠, foot 11 cards" in text
    assert "  team 1 down: Kings ×4 dirty" in text and "  team 2 not down: no melds" in text
    game = Game(rules, seed=2)
    assert repr(game).startswith("<Game classic, hand 1 of 4, scores 0 to 0: <Hand classic")
    played = hand.apply(parse_action("meld QH QD QS"))
    assert repr(played) == "<Played seat 1 meld QD QH QS, Queens (3 cards), 30 points>"
