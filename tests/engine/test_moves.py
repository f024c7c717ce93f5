"""The move model, one meld and one card at a time (docs/records.md, docs/bots.md).

- The listed moves are exactly the legal moves of their kind: every listed move is
  accepted, and every smallest meld, single card added, discard, take-back, going
  down or pile pick-up that the engine accepts is listed (checked against every move
  number of :class:`~handfoot.research.encoding.MoveCodec` that could apply).
- For small hands, the openings a player reaches by laying melds out one at a time and
  going down are exactly the whole openings the old engine listed (``oracle_openings``).
- A hand of 60 cards answers every question, with a number of moves that grows with
  the hand only polynomially.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handfoot.actions import (
    GO_DOWN,
    Action,
    AddToMeld,
    AskToGoOut,
    Discard,
    Draw,
    EndTurn,
    GoDown,
    LayDown,
    LayMeld,
    PickUpFoot,
    TakeBack,
    parse_action,
)
from handfoot.arena import seat_bots
from handfoot.bots import Bot
from handfoot.cards import NUM_CARDS, parse_cards
from handfoot.engine import Hand, IllegalAction, Phase
from handfoot.engine.checks import may_go_on
from handfoot.game import Game
from handfoot.game.views import seat_view
from handfoot.research.encoding import MoveCodec
from handfoot.rules import MAX_DECKS, MAX_HAND_SIZE, PRESET_NAMES, Rules, preset
from handfoot.testing import put_meld, stacked_deal
from helpers import snapshot
from oracle_openings import OldOpenings
from stacked import out_with_black_threes
from strategies import rule_sets


def candidates(hand: Hand, codec: MoveCodec) -> Iterator[int]:
    """The move numbers that could be legal now (the others cannot: a meld that is not
    on the table, a card of a kind not held)."""
    held = hand.hands[hand.actor]
    classes = sorted({hand.rules.card_class[c] for c in range(NUM_CARDS) if held[c]})
    yield from range(codec.discard_base)
    yield from (codec.discard_base + c for c in classes)
    team = hand.team_of[hand.actor]
    melds = len(hand.melds[team])
    yield from (codec.back_base + i for i in range(min(melds + 1, codec.max_melds)))
    for i in range(min(melds + 1, codec.max_melds)):
        yield from (codec.add_base + i * NUM_CARDS + c for c in classes)
    yield from range(codec.meld_base, codec.pile_base)
    if codec.black_threes:  # black 3s added two or more at once, to go out
        for i in range(min(melds, codec.max_melds)):
            base = codec.black_base + i * (codec.black_threes - 1)
            yield from range(base, base + codec.black_threes - 1)
    top = hand.pile_top
    if top is not None and hand.phase == Phase.DRAW:
        places = len(hand.rules.rank_classes[(top >> 2) + 2]) if top < 52 else 0
        counts = hand.pile_counts()
        for show, shape in enumerate(codec.shows):
            if any(p >= places for p in shape if p >= 0):
                continue
            for count in {counts.start, counts.stop - 1, counts.stop, 1}:
                if 0 < count <= codec.max_count:
                    yield codec.pile_base + show * (codec.max_count + 1) + count


def check_moves(hand: Hand, codec: MoveCodec) -> None:
    """The listed moves are accepted, numbered once each, and read back the same; every
    move of a listed kind the engine accepts is listed."""
    listed = hand.legal_actions()
    assert len(set(listed)) == len(listed), "a move is listed twice"
    if hand.phase == Phase.PLAY:  # the points counted first answer as the full check
        assert hand.may_go_down() == hand.is_legal(GO_DOWN)
    numbers: dict[int, Action] = {}
    for move in listed:
        hand.verify(move)
        number = codec.encode(move, hand.pile_top)
        assert number not in numbers, f"{move} and {numbers.get(number)} share a number"
        numbers[number] = move
        assert codec.decode(number, hand) == move
    mask = codec.mask(listed, hand.pile_top)
    assert mask.shape == (codec.size,) and int(mask.sum()) == len(listed)
    assert all(mask[n] for n in numbers)
    for number in candidates(hand, codec):
        move = codec.decode(number, hand)
        if hand.is_legal(move):
            assert number in numbers, f"{move.notation()!r} is legal but not listed"


def check_refusals(hand: Hand, codec: MoveCodec) -> int:
    """:meth:`Hand.is_legal` agrees with :meth:`Hand.verify` (whether the refusal is
    answered, by :meth:`Hand.refusal`, or raised by a deeper check) for every move number
    that could apply and the moves outside the numbering, and asking changes nothing.
    Returns how many moves were refused."""
    before = (list(hand.history), [list(h) for h in hand.hands],
              [[list(m.cards) for m in team] for team in hand.melds], list(hand.pile))
    moves = [codec.decode(n, hand) for n in candidates(hand, codec)]
    moves += [Draw(), EndTurn(), GO_DOWN, TakeBack(40), AskToGoOut(), PickUpFoot(),
              *(Discard(c) for c in range(NUM_CARDS))]
    refused = 0
    for move in moves:
        try:
            hand.verify(move)
            legal = True
        except IllegalAction as e:
            assert str(e), move  # refused in words
            legal = False
            refused += 1
        assert hand.is_legal(move) == legal, move
    assert before == (hand.history, hand.hands,
                      [[list(m.cards) for m in team] for team in hand.melds], hand.pile)
    return refused


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_whether_a_move_is_legal_agrees_with_its_check_and_asking_changes_nothing(
        name: str) -> None:
    rules = preset(name)
    game = Game(rules, 5)
    codec = MoveCodec(rules)
    players = seat_bots(rules, ("random",), 5)
    refused = steps = 0
    while not game.results:
        if steps % 3 == 0:
            refused += check_refusals(game.hand, codec)
        seat = game.actor
        game.apply(players[seat].choose(None, game.legal_actions()), seat)
        steps += 1
    assert refused > 100  # most candidates are refused: the test sees many refusals


def play_and_check(rules: Rules, bots: tuple[str, ...], seed: int, every: int = 1) -> int:
    game = Game(rules, seed)
    codec = MoveCodec(rules)
    players: list[Bot] = seat_bots(rules, bots, seed)
    steps = 0
    while not game.results:
        if steps % every == 0:
            check_moves(game.hand, codec)
        seat = game.actor
        bot = players[seat]
        legal = game.legal_actions()
        view = seat_view(game, seat) if bot.uses_view else None
        game.apply(bot.choose(view, legal), seat)
        steps += 1
        assert steps < 20_000
    return steps


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize("bots", [("random",), ("heuristic",), ("heuristic", "random")])
def test_the_listed_moves_are_exactly_the_legal_moves_at_every_step(
        name: str, bots: tuple[str, ...]) -> None:
    for seed in range(2):
        play_and_check(preset(name), bots, seed)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@pytest.mark.slow
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_the_listed_moves_are_exactly_the_legal_moves_under_random_rule_sets(
        data: st.DataObject, seed: int) -> None:
    rules = data.draw(rule_sets())
    play_and_check(rules, ("heuristic", "random"), seed, every=2)


# ------------------------------------------------------------- the old oracle
def shape(rules: Rules, melds: tuple[tuple[int, ...], ...] | list[list[int]]) -> tuple[
        tuple[int, ...], ...]:
    """Melds as the kinds of their cards (suits that no rule tells apart left out)."""
    cls = rules.card_class
    return tuple(sorted(tuple(sorted(cls[c] for c in m)) for m in melds))


def reachable_openings(hand: Hand) -> set[tuple[tuple[int, ...], ...]]:
    """Every opening reached by laying melds out (smallest forms, then single cards
    added) and going down, from ``hand`` (nothing laid out yet)."""
    seen: set[tuple[tuple[int, ...], ...]] = set()
    found: set[tuple[tuple[int, ...], ...]] = set()
    team = hand.team_of[hand.actor]
    todo = [hand]
    while todo:
        h = todo.pop()
        here = shape(h.rules, [m.cards for m in h.melds[team]])
        if here in seen:
            continue
        seen.add(here)
        for move in h.legal_actions():
            if isinstance(move, GoDown):
                found.add(here)
            elif isinstance(move, LayMeld | AddToMeld):
                nxt = h.clone()
                nxt.apply(move)
                todo.append(nxt)
    return found


def small_hand(rules: Rules, rng: random.Random, cards: int) -> Hand:
    """The first player, having drawn, holds ``cards`` cards of a few ranks and some wild
    cards (so that openings are many), not in the foot, with nothing on the table; the
    opening minimum is low enough for such hands. Its 2s are all clubs: the old
    enumeration gave every meld of an opening the lowest 2 held, so it missed openings
    whose melds need 2s of two suits (the new model finds them, tested below)."""
    low = dataclasses.replace(rules, opening=dataclasses.replace(
        rules.opening, minimums=(rng.choice([0, 50, 70]),)))
    game = Game(low, rng.randrange(2**32))
    h = game.hand
    while h.phase != Phase.DRAW:  # hands chosen blind
        h.apply(h.legal_actions()[0])
    h.apply(Draw())
    p = h.actor
    ranks = rng.sample(range(4, 15), 3)
    pool = [(r - 2) * 4 + s for r in ranks for s in range(4) for _ in range(2)]
    pool += [0, 0, 0, 52, 52, 4, 7]
    held = [0] * NUM_CARDS
    for c in rng.sample(pool, cards):
        held[c] += 1
    h.hands[p] = held
    h.recount(p)
    return h


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_openings_reached_a_meld_at_a_time_are_the_old_engines_openings(name: str) -> None:
    rules = preset(name)
    rng = random.Random(name)
    checked = 0
    for _ in range(40):
        hand = small_hand(rules, rng, rng.randint(7, 10))
        if hand.phase != Phase.PLAY or hand.opened[hand.team_of[hand.actor]]:
            continue
        old = {shape(rules, m) for m in OldOpenings(hand).openings()}
        assert reachable_openings(hand) == old
        checked += bool(old)
    assert checked >= 3, "too few hands that can open to compare"


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_openings_reached_a_meld_at_a_time_under_random_rule_sets(
        data: st.DataObject, seed: int) -> None:
    # The old listing never offered two open melds of one rank at once, even where the
    # rules allow them: compared where they do not.
    rules = data.draw(rule_sets())
    rules = dataclasses.replace(rules, meld=dataclasses.replace(
        rules.meld, one_open_meld_per_rank=True))
    hand = small_hand(rules, random.Random(seed), 8)
    if hand.phase != Phase.PLAY:
        return
    old = {shape(rules, m) for m in OldOpenings(hand).openings()}
    assert reachable_openings(hand) == old


# ------------------------------------------------------------ laying out
def test_melds_laid_out_count_only_once_the_player_goes_down() -> None:
    rules = preset("texas-good-sam")  # 120 to go down
    hand = Hand(rules, stacked_deal(
        rules, hands={0: "KH KD KS AH AD AS QH QD 2C 5C 6C"}, stock="9C 9D"))
    hand.apply(Draw())
    hand.apply(parse_action("meld KH KD KS"))
    assert not hand.opened[0] and hand.melds[0][0].size == 3
    before = snapshot(hand)
    with pytest.raises(IllegalAction, match="needs 120 points to go down; these melds make 30"):
        hand.apply(GO_DOWN)
    with pytest.raises(IllegalAction, match="Go down with the melds you laid out"):
        hand.apply(Discard(parse_cards("5C")[0]))
    assert snapshot(hand) == before
    hand.apply(parse_action("meld AH AD AS"))
    hand.apply(parse_action("meld QH QD 2C"))
    assert GO_DOWN in hand.legal_actions()  # 30 + 60 + 40 = 130
    hand.apply(GO_DOWN)
    assert hand.opened[0] and len(hand.melds[0]) == 3


def test_a_meld_laid_out_can_be_taken_back_and_the_table_saw_it() -> None:
    rules = preset("texas-good-sam")
    hand = Hand(rules, stacked_deal(rules, hands={0: "KH KD KS 5C 6C 7C 8C 9C 10C JC QC"},
                                    stock="4D 4H"))
    hand.apply(Draw())
    held = hand.hands[0][:]
    hand.apply(parse_action("meld KH KD KS"))
    assert TakeBack(0) in hand.legal_actions()
    hand.apply(TakeBack(0))
    assert hand.hands[0] == held and hand.melds[0] == [] and not hand.opened[0]
    assert sum(hand.known[0]) == 3  # everyone saw the kings go back into the hand
    hand.apply(Discard(parse_cards("5C")[0]))  # nothing laid out: the turn may end


def test_a_whole_opening_at_once_is_accepted_but_not_listed() -> None:
    rules = preset("texas-good-sam")
    hand = Hand(rules, stacked_deal(
        rules, hands={0: "KH KD KS AH AD AS QH QD 2C 5C 6C"}, stock="9C 9D"))
    hand.apply(Draw())
    whole = parse_action("lay KH KD KS | AH AD AS | QH QD 2C")
    assert whole in hand.legal() and whole not in hand.legal_actions()
    assert not any(isinstance(a, LayDown) for a in hand.legal_actions())
    hand.apply(whole)
    assert hand.opened[0]


def test_a_player_goes_out_with_the_book_their_last_cards_complete() -> None:
    rules = preset("texas-good-sam")  # 2 clean and 3 dirty books; no permission
    hand = Hand(rules, stacked_deal(
        rules, hands={0: "QH QD QS QC QH QD QS"}, feet={0: "4C 4D 4H 4S 5C 5D 5H 5S 6C 6D 6H"},
        stock="7C 7D", reserve="KH KD KS KC KH KD KS JH JD JS JC JH JD 2C 8H 8D 8S 8C 8H 8D "
        "2D 10H 10S 10D 10C 10H 10S 2H"))
    put_meld(hand, 0, "KH KD KS KC KH KD KS")
    for dirty in ("JH JD JS JC JH JD 2C", "8H 8D 8S 8C 8H 8D 2D", "10H 10S 10D 10C 10H 10S 2H"):
        put_meld(hand, 0, dirty)
    # In the foot, holding seven queens: they make the last clean book, and the player
    # goes out by laying them down (the book counts, though it is not down yet).
    hand.hands[0] = [0] * NUM_CARDS
    for c in parse_cards("QH QD QS QC QH QD QS"):
        hand.hands[0][c] += 1
    hand.recount(0)
    hand.feet[0] = None
    hand.in_foot[0] = True
    hand.phase = Phase.PLAY
    assert hand.books_missing(0) == "1 more red canasta"
    core = next(a for a in hand.legal_actions() if isinstance(a, LayMeld))
    hand.apply(core)  # three queens down, four held
    for _ in range(3):
        hand.apply(next(a for a in hand.legal_actions() if isinstance(a, AddToMeld)))
    assert hand.hand_len[0] == 1  # allowed: the last queen completes the book
    hand.apply(next(a for a in hand.legal_actions() if isinstance(a, AddToMeld)))
    # Out: in texas-good-sam play goes on until the stock is drawn, so the turn passes.
    assert hand.went_out == 0 and hand.hand_len[0] == 0 and hand.actor == 1


def test_an_opening_may_use_2s_of_two_suits_in_two_melds() -> None:
    rules = preset("texas-good-sam")
    hand = Hand(rules, stacked_deal(
        rules, hands={0: "9H 9D 2C KH KD KS 2D JK 5C 6C 7C"}, stock="4D 4H"))
    hand.apply(Draw())
    whole = parse_action("lay 9H 9D 2C | KH KD KS 2D JK")
    assert whole in hand.legal()  # 60 + 40 + 20 = 120 (the old listing missed it)
    hand.apply(parse_action("meld 9H 9D 2C"))
    hand.apply(parse_action("meld KH KD KS 2D"))
    hand.apply(parse_action("add 2 JK"))
    hand.apply(GO_DOWN)
    assert hand.opened[0]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_hand_of_60_cards_answers_every_question(name: str) -> None:
    # The largest hand a rule set deals is 30 cards; play can grow it (drawing two and
    # discarding one a turn): here to 60, with cards from the stock.
    rules = preset(name)
    rules = dataclasses.replace(
        rules, deal=dataclasses.replace(rules.deal, hand_size=MAX_HAND_SIZE,
                                        choose_hand="blind"),
        deck=dataclasses.replace(rules.deck, decks=MAX_DECKS, decks_per_player=0))
    codec = MoveCodec(rules)
    game = Game(rules, 3)
    hand = game.hand
    me = hand.actor
    while hand.hand_len[me] < 60 - hand.draw_count:
        hand.hands[me][hand.stock.pop()] += 1
        hand.recount(me)
    hand.apply(Draw())
    assert hand.hand_len[me] == 60
    laid = 0
    for _ in range(12):  # a few decisions: lay out, add, go down, meld
        legal = hand.legal_actions()
        assert 0 < len(legal) < 2000
        check_moves(hand, codec)
        pick = next((a for a in legal if isinstance(a, GoDown)), None) or next(
            (a for a in legal if isinstance(a, LayMeld | AddToMeld)), legal[0])
        hand.apply(pick)
        laid += isinstance(pick, LayMeld | AddToMeld)
        if hand.phase != Phase.PLAY:
            break
    assert laid and hand.melds[hand.team_of[me]]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_only_move_is_the_only_legal_move(name: str) -> None:
    rules = preset(name)
    game = Game(rules, 4)
    players = seat_bots(rules, ("random",), 4)
    forced = 0
    while not game.results:
        only = game.hand.only_move()
        legal = game.hand.legal_actions()
        if only is not None:
            assert legal == [only]
            forced += 1
        game.apply(players[game.actor].choose(None, game.legal_actions()))
    assert forced > 10



@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_discards_are_one_of_each_class_held_lowest_card_first(name: str) -> None:
    """Where the cards' classes are the usual ones (or every natural its own), the
    melds' pass over the hand lists the discards too; they are exactly the general
    pass's (:func:`_discards`: the lowest card held of each class, in card order), at
    every step where a discard is legal, whether the team has opened or not."""
    from handfoot.engine.moves import _discards

    rules = preset(name)
    game = Game(rules, 6)
    players = seat_bots(rules, ("random",), 6)
    compared = set()
    while not game.results:
        hand = game.hand
        p = hand.actor
        held = [c for c in range(NUM_CARDS) if hand.hands[p][c]]
        if hand.phase == Phase.PLAY and held and not hand.must_go_out(p) \
                and hand.is_legal(Discard(held[0])):
            listed = [a for a in hand.legal_actions() if isinstance(a, Discard)]
            expected: list = []  # type: ignore[type-arg]
            _discards(hand.hands[p], rules.card_class, expected)
            assert listed == expected
            compared.add(hand.opened[hand.team_of[p]])
        game.apply(players[game.actor].choose(None, game.legal_actions()))
    assert compared == {True, False}
    # (samba tells the suits of its naturals apart: each is its own class)
    assert hand.settings.plain_classes == (name != "samba")
    assert hand.settings.suit_classes == (name == "samba")


def cores_compared(hand: Hand, seed: int, made_directly: Callable[
        [int, list[int], int, int], list[Action]]) -> int:
    """400 random holdings of a rank (every count of each suit), with every mix of 2s and
    jokers, put in the hand of the player to act: for each number of wilds usable, the
    smallest melds ``made_directly`` are exactly those the general way picks class by
    class (:meth:`Hand._class_cores`), in the same order. Returns the melds compared."""
    rng = random.Random(seed)
    made = 0
    for _ in range(400):
        counts = [0] * NUM_CARDS
        rank = rng.randrange(4, 15)
        for c in range((rank - 2) * 4, (rank - 1) * 4):
            counts[c] = rng.choice((0, 0, 1, 1, 2, 3, 5))
        twos = sorted(rng.choice(range(4)) for _ in range(rng.randrange(4)))
        for c in twos:
            counts[c] += 1
        jokers = counts[52] = rng.randrange(3)
        hand.hands[hand.actor] = counts
        hand.recount(hand.actor)
        for usable in range(4):
            direct = made_directly(rank, twos, jokers, usable)
            assert direct == hand._class_cores(rank, twos, jokers, usable)
            made += len(direct)
    return made


@pytest.mark.parametrize("name", [n for n in PRESET_NAMES if n != "samba"])
def test_the_smallest_melds_made_directly_are_the_melds_picked_by_class(name: str) -> None:
    """Under the usual classes a rank's smallest melds are made from its lowest cards
    held (:meth:`Hand._plain_cores`); they are exactly the melds the general way picks
    class by class (:meth:`Hand._class_cores`), in the same order, for hands of every
    count of each suit, with every mix of 2s and jokers and every number of wilds."""
    rules = preset(name)
    hand = Hand(rules, stacked_deal(rules, hands={}, stock="", reserve=""))
    assert hand.settings.plain_classes
    made = cores_compared(hand, 11, hand._plain_cores)
    assert made > 400  # (melds were made, not only empty lists compared)


@pytest.mark.parametrize("min_size", [3, 2, 4])
def test_the_smallest_melds_made_from_kept_suit_picks_are_the_melds_picked_by_class(
        min_size: int) -> None:
    """Where each natural is its own class (samba), a rank's smallest melds are made from
    the ways to pick suits kept for its counts (:meth:`Hand._suit_cores`, the same for
    every rank); they are exactly the melds the general way picks class by class, in
    the same order, for every count of each suit, mix of wilds and number usable, in
    melds of two, three and four cards at the least."""
    base = preset("samba")
    rules = dataclasses.replace(base, meld=dataclasses.replace(
        base.meld, min_size=min_size, min_naturals=min(base.meld.min_naturals, min_size)))
    hand = Hand(rules, stacked_deal(rules, hands={}, stock="", reserve=""))
    assert hand.settings.suit_classes and not hand.settings.plain_classes
    made = cores_compared(hand, 12, hand._suit_cores)
    assert made > 400  # (melds were made, not only empty lists compared)
    assert len(hand.settings.suit_picks) < 400  # (kept for counts, shared by the ranks)


def test_a_wild_that_would_spoil_a_needed_clean_book_is_no_way_to_go_out() -> None:
    # Asked and agreed where the player must then play every card (classic's reading),
    # holding two 2s whose only room is on the one clean book going out needs: burning
    # one would make it dirty, so going out is not possible and the player discards.
    base = preset("classic")
    rules = dataclasses.replace(
        base, meld=dataclasses.replace(base.meld, max_wilds=1, burn_wilds=True),
        going_out=dataclasses.replace(base.going_out, clean_books=1, dirty_books=1,
                                      partners="none"))
    hand = Hand(rules, stacked_deal(rules, hands={0: "2C 2D 9C 9D"}, stock="4C 4D",
                                    reserve="5C 5D 5H 5H 5H 5S 5S 7C 7D 7D 7D 7H 7S 2H"))
    put_meld(hand, 0, "5C 5D 5H 5H 5H 5S 5S")
    put_meld(hand, 0, "7C 7D 7D 7D 7H 7S 2H")
    hand.hands[0] = [0] * NUM_CARDS
    for c in parse_cards("2C 2D"):
        hand.hands[0][c] += 1
    hand.recount(0)
    hand.feet[0] = None
    hand.in_foot[0] = True
    hand.phase = Phase.PLAY
    hand.asked, hand.permission = True, True
    assert hand.out_this_turn_blocker(0) is not None and not hand.must_go_out(0)
    legal = hand.legal_actions()
    assert any(isinstance(a, Discard) for a in legal)
    with pytest.raises(IllegalAction, match="needs 1 more clean book"):
        hand.apply(AddToMeld(0, parse_cards("2C")))


def test_black_3s_melded_only_to_go_out_are_numbered_all_at_once() -> None:
    rules = Rules.from_toml('extends = "six-deck"\n[threes]\nblack_melded = "to-go-out"\n')
    codec = MoveCodec(rules)
    assert codec.describe()["add-black-3s"] == codec.max_melds * (2 * rules.num_decks - 1)
    assert MoveCodec(preset("six-deck")).describe()["add-black-3s"] == 0
    # five black 3s left, the team's meld of 3s on the table
    hand = out_with_black_threes(rules, "3C 3S 3C 3S KD KS", "KC 3C", threes_meld=True)
    check_moves(hand, codec)
    listed = hand.legal_actions()
    assert AddToMeld(2, parse_cards("3C 3C 3C 3S 3S")) in listed
    assert AddToMeld(2, parse_cards("3C 3C 3C 3S")) in listed
    number = codec.encode(AddToMeld(2, parse_cards("3C 3C 3C 3S 3S")))
    assert number >= codec.black_base
    hand.apply(codec.decode(number, hand), 0)
    assert hand.ended_by == "out"


# ------------------------------------------------- the quick question about one card

def check_may_go_on(hand: Hand) -> int:
    """Every card ``may_go_on`` turns away from a meld is one the full check refuses."""
    refused = 0
    for team, melds in enumerate(hand.melds):
        for i, meld in enumerate(melds):
            for card in range(NUM_CARDS):
                if may_go_on(meld, card):
                    continue
                with pytest.raises(IllegalAction):
                    hand._check_add(team, i, (card,))
                refused += 1
    return refused


def play_checking_may_go_on(rules: Rules, seed: int, every: int) -> int:
    game = Game(rules, seed)
    players: list[Bot] = seat_bots(rules, ("heuristic",), seed)
    refused = steps = 0
    while not game.results:
        if steps % every == 0:
            refused += check_may_go_on(game.hand)
        seat = game.actor
        view = seat_view(game, seat)
        game.apply(players[seat].choose(view, game.legal_actions()), seat)
        steps += 1
    return refused


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_card_turned_away_from_a_meld_at_a_glance_is_refused_by_the_full_check(
        name: str) -> None:
    # The last card of a player in the foot is tried on the team's melds to see whether
    # it can go out by melding it; only the melds it may go on are checked in full.
    assert play_checking_may_go_on(preset(name), 3, every=7) > 1000


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_a_card_turned_away_at_a_glance_is_refused_under_random_rule_sets(
        data: st.DataObject, seed: int) -> None:
    play_checking_may_go_on(data.draw(rule_sets()), seed, every=11)


def test_a_seat_left_with_no_card_by_the_stock_s_last_red_3_ends_its_turn() -> None:
    """Found by the random-rule-set test: a seat in its foot with no card (play goes on
    until the stock is drawn) draws the stock's last card, a red 3; it goes on the board
    and nothing replaces it. The seat holds nothing to play or discard, so it ends its
    turn (before, no move was listed at all and the game could not go on)."""
    from pathlib import Path

    text = (Path(__file__).parents[1] / "data" / "red-three-last-card.toml").read_text()
    rules = Rules.from_toml(text)
    game = Game(rules, 383)
    players = seat_bots(rules, ("heuristic", "random"), 383)
    codec = MoveCodec(rules)
    corners = 0
    while not game.results:
        hand, seat = game.hand, game.actor
        if hand.phase == Phase.PLAY and hand.in_foot[seat] and hand.hand_len[seat] == 0:
            corners += 1
            listed = list(game.legal_actions())
            assert EndTurn() in listed  # and at most asking to go out beside it
            assert {a.kind for a in listed} <= {"end-turn", "ask"}, listed
            assert game.is_legal(EndTurn(), seat)
            check_moves(hand, codec)
            with pytest.raises(IllegalAction):
                game.apply(Discard(parse_cards("5H")[0]), seat)
        legal = game.legal_actions()
        assert len(legal) > 0
        bot = players[seat]
        game.apply(bot.choose(seat_view(game, seat) if bot.uses_view else None, legal), seat)
    assert corners >= 1


@given(st.lists(st.lists(st.integers(8, 51), max_size=4).map(sorted), max_size=5),
       st.integers(0, 7))
def test_the_ways_to_take_cards_from_classes_are_the_same_counted_out_or_made(
        groups: list[list[int]], n: int) -> None:
    # (picks counts one or two cards out by loops, and more by plain recursive calls;
    # the games depend on their order)
    from handfoot.engine.moves import all_picks, picks
    assert picks(groups, n) == list(all_picks(groups, n))


# --------------------------------- the quick yes-or-no question and its words

def play_checking_the_pile_s_answer(rules: Rules, seed: int) -> int:
    """At every step of a hand of heuristic players, for every seat: the pile may be
    taken (``pile_open``, asked at every listing) exactly when no words say why not
    (``pile_blocker``). Returns how often it was yes."""
    game = Game(rules, seed)
    players: list[Bot] = seat_bots(rules, ("heuristic",), seed)
    yes = 0
    while not game.results:
        hand = game.hand
        for s in range(rules.players.seats):
            assert hand.pile_open(s) == (hand.pile_blocker(s) is None)
            yes += hand.pile_open(s)
        seat = game.actor
        game.apply(players[seat].choose(seat_view(game, seat), game.legal_actions()), seat)
    return yes


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_whether_the_pile_may_be_taken_agrees_with_the_words_why_not(name: str) -> None:
    assert sum(play_checking_the_pile_s_answer(preset(name), seed) for seed in range(3)) > 0


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_whether_the_pile_may_be_taken_agrees_with_the_words_under_random_rule_sets(
        data: st.DataObject, seed: int) -> None:
    play_checking_the_pile_s_answer(data.draw(rule_sets()), seed)


# --------------------------------- the worked-out melds kept per rule set

def play_checking_the_kept_melds(rules: Rules, seed: int, bots: str) -> int:
    """At every step of a hand, the moves listed with the rule set's kept melds (worked out
    for other hands with the same key) are the moves listed with nothing kept: no two
    hands that make different melds share a key. And each team's table as the listing
    counts it (kept from one change of the table to the next, shared with the seat
    copies) is the table counted afresh. Returns the listings compared."""
    game = Game(rules, seed)
    players: list[Bot] = seat_bots(rules, (bots,), seed)
    memo = rules.memo
    compared = 0
    while not game.results:
        hand = game.hand
        seen = hand.seat_copy() if hand.phase != Phase.OVER else hand
        for team in range(hand.teams):
            assert hand.table_counts(team).counted() == hand._table_state(team)
            assert seen.table_counts(team).counted() == hand._table_state(team)
        if hand.phase in (Phase.DRAW, Phase.PLAY):
            kept = hand.legal_actions()
            # (the smallest melds are kept in the rule set's memo and in its settings'
            # tables by the wilds usable: all forgotten, then put back)
            st = hand.settings
            saved = (dict(memo), list(st.cores_by_index), dict(st.cores_by_key),
                     list(st.wild_melds_by), dict(st.suit_picks), st.cores_last)
            memo.clear()
            st.cores_by_index.clear()
            st.cores_by_key.clear()
            st.cores_last = (-1, [])
            st.wild_melds_by.clear()
            st.suit_picks.clear()
            try:
                assert hand.legal_actions() == kept
            finally:
                memo.clear()
                memo.update(saved[0])
                st.cores_by_index[:] = saved[1]
                st.cores_by_key.clear()
                st.cores_by_key.update(saved[2])
                st.wild_melds_by[:] = saved[3]
                st.suit_picks.clear()
                st.suit_picks.update(saved[4])
                st.cores_last = saved[5]
            compared += 1
        seat = game.actor
        game.apply(players[seat].choose(seat_view(game, seat), game.legal_actions()), seat)
    return compared


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_melds_kept_for_one_hand_are_the_melds_another_hand_with_the_key_makes(
        name: str) -> None:
    rules = preset(name)
    for seed in range(3):  # (random players lay out more kinds of hands)
        assert play_checking_the_kept_melds(rules, seed, "random") > 50
    assert play_checking_the_kept_melds(rules, 3, "heuristic") > 50


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_melds_kept_for_one_hand_are_right_for_another_under_random_rule_sets(
        data: st.DataObject, seed: int) -> None:
    play_checking_the_kept_melds(data.draw(rule_sets()), seed, "random")


@pytest.mark.parametrize("name", ["classic", "samba"])
@pytest.mark.parametrize(("min_size", "min_naturals"), [(2, 1), (4, 2), (5, 3), (6, 4)])
def test_melds_of_other_sizes_are_listed_exactly_and_kept_right(
        name: str, min_size: int, min_naturals: int) -> None:
    """Melds of two to six cards at the least (the smallest melds are kept in a list by
    their key up to four cards, in a dict above): at every step the listed moves are
    exactly the legal ones, and those listed with the kept melds are those listed
    afresh."""
    base = preset(name)
    rules = dataclasses.replace(base, meld=dataclasses.replace(
        base.meld, min_size=min_size, min_naturals=min_naturals))
    laid = steps = 0
    game = Game(rules, 1)
    codec = MoveCodec(rules)
    players = seat_bots(rules, ("random",), 1)
    while not game.results:
        if steps % 5 == 0:
            check_moves(game.hand, codec)
        action = players[game.actor].choose(None, game.legal_actions())
        laid += isinstance(action, LayMeld) and len(action.cards) == min_size
        game.apply(action)
        steps += 1
    assert laid > 0  # (melds of that size were listed and laid)
    assert play_checking_the_kept_melds(rules, 2, "random") > 50


def test_a_rule_set_s_tables_forgotten_are_worked_out_again_the_same() -> None:
    """``forget_tables`` (the legal-move bench times each question first with the tables
    forgotten, as when a rule set is first met) empties the memo and the settings' own
    tables, those a hand already holds too; the moves listed afterwards are the same."""
    from handfoot.engine.settings import forget_tables

    rules = preset("texas-good-sam")
    game = Game(rules, 4)
    players = seat_bots(rules, ("random",), 4)
    for _ in range(60):  # into the hand, where melds are listed
        game.apply(players[game.actor].choose(None, game.legal_actions()))
    while game.hand.phase != Phase.PLAY:  # a player to meld or discard
        game.apply(players[game.actor].choose(None, game.legal_actions()))
    hand = game.hand
    listed = hand.legal_actions()
    st = hand.settings
    assert any(t is not None for t in st.cores_by_index) and rules.memo
    forget_tables(rules)
    assert not st.cores_by_index and not st.books_missing and not rules.memo
    assert hand.legal_actions() == listed
    # worked out again, in the tables the hand holds
    assert any(t is not None for t in st.cores_by_index)
