"""The expert's own policy in the race to the books: a clean meld takes no wild while
clean books are still needed, and a discard weighs the chance that the next player holds
a natural pair of its rank (and so may take the pile with it)."""

from __future__ import annotations

import random
from math import comb

import pytest

from handfoot.actions import AddToMeld, Discard
from handfoot.bots.heuristic import MeldInfo, MeldLike, Obs, decide, obs_from_hand
from handfoot.bots.policy import at_least, discards, pair_chances, patient
from handfoot.cards import NATURAL, NUM_CARDS, RANK, parse_card
from handfoot.engine import RANK_MELD, Deal, Hand, Phase, count_books
from handfoot.rules import preset


def reading(name: str = "classic") -> Obs:
    """A seat's reading of a real hand at its first decision after drawing."""
    rules = preset(name)
    h = Hand(rules, Deal.shuffled(rules, random.Random(4)), rng=random.Random(5))
    while h.phase != Phase.PLAY:
        if h.phase == Phase.CHOOSE:
            h.push(h.legal()[0])
        else:
            h.push(decide(obs_from_hand(h, h.actor), h.is_legal, h.legal()))
    return obs_from_hand(h, h.actor)


def book(rank: int, naturals: int = 7, wilds: int = 0) -> MeldInfo:
    return MeldInfo(RANK_MELD, rank, 0, naturals + wilds, naturals, wilds, 0, 0)


def all_but_one(o: Obs, rank: int) -> list[MeldLike]:
    """Melds that hold every natural of ``rank`` in the decks but one."""
    total = sum(o.settings.deck_counts[c] for c in range(NUM_CARDS)
                if RANK[c] == rank and NATURAL[c])
    left = total - 1
    melds: list[MeldLike] = []
    while left > 0:
        melds.append(book(rank, naturals=min(left, 7)))
        left -= min(left, 7)
    return melds


def holding(o: Obs, cards: list[str], next_holds: int = 8) -> None:
    o.hand = [0] * NUM_CARDS
    for c in cards:
        o.hand[parse_card(c)] += 1
    o.hand_len = len(cards)
    o.known_next = [0] * NUM_CARDS
    o.next_hand_len = next_holds


@pytest.mark.parametrize("need", [0, 1, 2])
def test_at_least_is_the_hypergeometric_tail(need: int) -> None:
    for pool in range(1, 13):
        for good in range(pool + 1):
            for drawn in range(pool + 1):
                exact = sum(comb(good, k) * comb(pool - good, drawn - k)
                            for k in range(need, min(good, drawn) + 1)) / comb(pool, drawn)
                assert at_least(need, pool, good, drawn) == pytest.approx(exact, abs=1e-12)


def test_the_chance_of_a_pair_next_reads_the_melds_and_the_cards_seen_taken() -> None:
    o = reading()
    holding(o, ["QH", "KH", "5C"])
    queen, king, jack = RANK[parse_card("QH")], RANK[parse_card("KH")], RANK[parse_card("JH")]
    # every queen but the one held is on the opponents' side
    o.melds = [[], all_but_one(o, queen)]
    o.known_next[parse_card("JS")] = 2  # the next player took two jacks with the pile
    chances = pair_chances(o)
    assert chances[queen] == 0.0  # one queen left unseen: no pair
    assert chances[jack] == 1.0
    assert 0.05 < chances[king] < 0.5
    # one jack seen taken: any other unseen jack among the cards held makes the pair
    o.known_next[parse_card("JS")] = 1
    assert chances[king] < pair_chances(o)[jack] < 1.0
    # the more cards the next player holds, the likelier a pair
    o.next_hand_len = 3
    few = pair_chances(o)[king]
    o.next_hand_len = 12
    assert few < pair_chances(o)[king]


def test_the_discard_is_the_rank_the_next_player_is_least_likely_to_pair() -> None:
    o = reading()
    holding(o, ["QH", "KH", "5C", "5D"])  # the 5s are a pair: kept
    queen, king = RANK[parse_card("QH")], RANK[parse_card("KH")]
    o.melds = [[], all_but_one(o, queen)]
    assert discards(o)[0] == Discard(parse_card("QH"))
    o.melds = [[], all_but_one(o, king)]
    assert discards(o)[0] == Discard(parse_card("KH"))


def test_a_clean_meld_takes_no_wild_while_clean_books_are_needed() -> None:
    o = reading()
    nine, eight = RANK[parse_card("9H")], RANK[parse_card("8H")]
    holding(o, ["2C", "2D"])
    o.in_foot = True
    o.melds[o.team] = [book(nine, naturals=5), book(eight, naturals=5, wilds=1)]
    o.books = count_books(o.melds[o.team], o.settings.book_size)
    two = (parse_card("2C"),)
    assert not patient(o, AddToMeld(0, two))  # no clean book yet: the 9s stay clean
    assert patient(o, AddToMeld(1, two))  # the dirty 8s take it
    # the three clean books made, a wild may go on the 9s (in the foot)
    o.melds[o.team] += [book(RANK[parse_card(r)]) for r in ("4H", "5H", "6H")]
    o.books = count_books(o.melds[o.team], o.settings.book_size)
    assert patient(o, AddToMeld(0, two))
