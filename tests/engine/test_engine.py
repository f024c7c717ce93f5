"""General engine behaviour not tied to one sheet's sentence."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Iterator

import pytest

from handfoot import actions, compiled
from handfoot.actions import (
    DRAW,
    GO_DOWN,
    Action,
    AddToMeld,
    AnswerGoOut,
    AskToGoOut,
    ChooseHand,
    Discard,
    Draw,
    EndTurn,
    LayDown,
    LayMeld,
    PickUpFoot,
    TakeBack,
    TakePile,
    TakeUpcard,
    action_from_json,
    action_to_json,
    parse_action,
)
from handfoot.cards import JOKER, NUM_CARDS, parse_card, parse_cards
from handfoot.engine import BadMeld, Hand, NotYourTurn, WrongPhase, count_books
from handfoot.engine.deal import Deal
from handfoot.rules import PRESET_NAMES, preset
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


def test_a_wild_card_meld_laid_with_a_dirty_meld_at_once_is_laid_after_it() -> None:
    # samba: "once the wild card canasta has been started, no wild cards can be laid down
    # on other melds until the wild card canasta is complete": laid at once, the
    # wild-card meld is taken as laid after the others, whatever the order listed; a
    # second wild-card meld laid with it is still refused.
    rules = preset("samba")
    for dirty in ("KH KD 2S", "KH KD KS KC 2S"):  # shorter and longer than the wild meld
        hand = Hand(rules, stacked_deal(
            rules, hands={0: "2C 2D JK JK KH KD KS KC 2S AH AD AS 4C"}, stock="5C 6C"))
        hand.apply(Draw())
        hand.apply(LayDown((parse_cards("2C 2D JK JK"), parse_cards(dirty))))
        assert sorted(len(m.cards) for m in hand.melds[0]) == sorted([4, len(dirty.split())])
    hand = Hand(rules, stacked_deal(
        rules, hands={0: "2C 2D JK JK KH KD KS KC 2S 2H 2D AS 4C"}, stock="5C 6C"))
    hand.apply(Draw())
    before = snapshot(hand)
    with pytest.raises(BadMeld, match="already has a wild-card meld open"):
        hand.apply(LayDown((parse_cards("2C 2D JK"), parse_cards("JK 2S 2H"))))
    assert snapshot(hand) == before


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
    deal = stacked_deal(rules, hands={0: "QH QD QS QC QH QD QS QC QH QD 5C"}, stock="9C 9D")
    hand = Hand(rules, deal)
    hand.apply(Draw())
    action = parse_action("lay QH QD QS QC QH QD QS | QC QH QD")
    # Laid down at once: accepted, though only single melds are listed.
    assert action in hand.legal() and action not in hand.legal_actions()
    hand.apply(action)
    assert sorted(len(m.cards) for m in hand.melds[0]) == [3, 7]
    # The same opening a meld at a time: the book is laid out from its smallest listed
    # form a card at a time, then the second meld of its rank, then the team goes down.
    staged = Hand(rules, deal)
    staged.apply(Draw())
    melds = [a for a in staged.legal_actions() if isinstance(a, LayMeld)]
    assert [len(m.cards) for m in melds] == [3]  # queens are all alike here: listed once
    staged.apply(melds[0])
    assert staged.opened == [False, False] and staged.melds[0][0].size == 3
    # A second meld of queens may not be started while the first is open.
    assert not any(isinstance(a, LayMeld) for a in staged.legal_actions())
    for _ in range(4):
        add = next(a for a in staged.legal_actions() if isinstance(a, AddToMeld))
        staged.apply(add)
    assert staged.melds[0][0].size == 7
    staged.apply(next(a for a in staged.legal_actions() if isinstance(a, LayMeld)))
    assert GO_DOWN in staged.legal_actions()
    staged.apply(GO_DOWN)
    assert staged.opened[0] and sorted(m.size for m in staged.melds[0]) == [3, 7]
    assert staged.hand_len[0] == hand.hand_len[0] == 3


def test_put_meld_takes_the_cards_out_of_the_stock() -> None:
    rules = preset("classic")
    hand = Hand(rules, stacked_deal(rules, reserve="9H 9D 9S"))
    census = hand.card_census()
    put_meld(hand, 0, "9H 9D 9S")
    assert hand.card_census() == census and hand.opened[0]




@pytest.mark.parametrize("name", ["texas-good-sam", "classic", "samba"])
def test_a_clone_and_its_original_never_change_each_others_melds(name: str) -> None:
    """A clone shares its melds until one side adds to one (copy on write): whatever
    either side adds, even to a meld it has just added to itself, the other's melds
    stay as they were."""
    from handfoot.arena import seat_bots
    from handfoot.game import Game
    from handfoot.game.views import seat_view

    rules = preset(name)
    game = Game(rules, 11)
    bots = seat_bots(rules, ("heuristic",), 11)
    checked = 0
    while not game.results:
        for first in game.hand.legal_actions():
            if not isinstance(first, AddToMeld):
                continue
            base = game.hand.clone()
            base.push(first)  # base has changed this meld: it is base's own now
            again = [a for a in base.legal_actions()
                     if isinstance(a, AddToMeld) and a.meld == first.meld]
            if not again:
                continue
            clone = base.clone()
            before = snapshot(clone)
            base.push(again[0])
            assert snapshot(clone) == before  # the original's add left the clone alone
            after = snapshot(base)
            clone.push(again[-1])
            assert snapshot(base) == after  # and the clone's add left the original
            checked += 1
        seat = game.actor
        game.apply(bots[seat].choose(seat_view(game, seat), game.legal_actions()), seat)
    assert checked >= 5


def _whole_hands() -> Iterator[tuple[str, int, Hand]]:
    """Every decision of whole hands of every preset (seeds 0 to 2, a heuristic team
    against a random one): the preset, the seed and the hand as it stands; the player to
    act then plays on."""
    from handfoot.arena import seat_bots
    from handfoot.game import Game

    for name, seed in ((name, seed) for name in PRESET_NAMES for seed in range(3)):
        rules = preset(name)
        game = Game(rules, seed)
        bots = seat_bots(rules, ("heuristic", "random"), seed)
        while not game.results:
            yield name, seed, game.hand
            seat = game.actor
            game.apply(bots[seat].choose(None, game.legal_actions()), seat)


def _plays_in_foot(hand: Hand) -> bool:
    """Whether the player to act is in the foot, on a team down, and playing."""
    p = hand.actor
    return bool(hand.in_foot[p] and hand.opened[hand.team_of[p]]
                and hand.phase.name == "PLAY")


def test_whether_a_player_could_go_out_after_a_meld_is_counted_as_carried_out() -> None:
    """The emptying rule asks whether a player could go out after a meld made or cards
    added: counted from the team's books with the one meld changed
    (:meth:`HandState.go_out_blocker_after`), it is the answer of a copy with the play
    carried out, for every such move listed or tried (one of each card on each meld,
    and every new meld listed) through whole hands, and the state is unchanged. What a
    team still needs, kept for its table's version, is what its books say at every move."""
    from handfoot.actions import AddToMeld, LayMeld

    blocked = set()
    compared = dict.fromkeys(((name, seed) for name in PRESET_NAMES for seed in range(3)), 0)
    for name, seed, hand in _whole_hands():
        p = hand.actor
        team = hand.team_of[p]
        for t in range(hand.teams):  # (kept for the table's version: never stale)
            assert hand.books_missing(t) == hand._missing_words(*hand.books(t))
        if _plays_in_foot(hand):
            moves = [a for a in hand.legal_actions()
                     if isinstance(a, (AddToMeld, LayMeld))]
            moves += [AddToMeld(i, (c,)) for i in range(len(hand.melds[team]))
                      for c in range(NUM_CARDS) if hand.hands[p][c]
                      and hand.is_legal(AddToMeld(i, (c,)))]
            # and two cards at once, a card and a wild card (a book made dirty)
            wilds = [w for w in (0, 1, 2, 3, JOKER) if hand.hands[p][w]]
            moves += [AddToMeld(i, (c, w)) for i in range(len(hand.melds[team]))
                      for c in range(4, NUM_CARDS) for w in wilds[:1]
                      if hand.hands[p][c] and (c != w or hand.hands[p][c] > 1)
                      and hand.is_legal(AddToMeld(i, (c, w)))]
            for action in moves:
                before = snapshot(hand)
                after = hand.trial()
                after.push(action)
                after.permission = hand.permission
                expected = after.go_out_blocker(p)
                assert hand.go_out_blocker_after(p, action) == expected, action
                assert snapshot(hand) == before
                blocked.add(expected is None)
                compared[name, seed] += 1
    for (name, seed), n in compared.items():
        assert n >= 10, (name, seed)
    assert blocked == {True, False}  # some moves would let the player go out, some not


def test_the_card_a_play_would_leave_is_told_unmeldable_without_a_copy() -> None:
    """A player in the foot whose play would leave one card may have it only if it can
    be melded to go out: a copy with the play carried out is asked of each meld it is the
    right kind of card for. Where it is the right kind for none of the team's melds as
    they would be (a meld's kind, rank and suit do not change as cards are added), that
    is told without the copy (:meth:`CheckedHand._no_meld_takes_last`): for every card
    held added to every meld and every new meld listed, legal or not, that leaves one card,
    through whole hands, it is the copy's own answer, and then the copy would find no
    meld to go out on. Where the partners or the partner's answer keep the player from
    going out whatever meld the card went on, the copy asks no meld
    (:meth:`HandState.partners_block_out`): its answer is still each meld's own check."""
    from handfoot.actions import AddToMeld, LayMeld
    from handfoot.engine.checks import may_go_on

    told = set()
    kept_back = set()
    for _, _, hand in _whole_hands():
        p = hand.actor
        team = hand.team_of[p]
        if _plays_in_foot(hand):
            moves: list[AddToMeld | LayMeld] = [
                a for a in hand.legal_actions() if isinstance(a, LayMeld)]
            moves += [AddToMeld(i, (c,)) for i in range(len(hand.melds[team]))
                      for c in range(NUM_CARDS) if hand.hands[p][c]]
            for action in moves:
                if hand.hand_len[p] - len(action.cards) != 1:
                    continue
                before = snapshot(hand)
                none = hand._no_meld_takes_last(p, action)
                assert snapshot(hand) == before
                after = hand.trial()
                after.push(action)
                after.permission = hand.permission  # (as the emptying rule's copy)
                last = next(c for c in range(NUM_CARDS) if after.hands[p][c])
                assert none == (not any(may_go_on(m, last) for m in after.melds[team]))
                if none:
                    assert not after._last_card_goes_out(p)
                told.add(none)
                # Whatever meld it could go on, the partners or the partner's answer
                # may keep the player from going out: then no meld is asked. The
                # answer is the one each meld's own check gives.
                assert after._last_card_goes_out(p) == any(
                    may_go_on(m, last) and after.is_legal(AddToMeld(i, (last,)))
                    for i, m in enumerate(after.melds[team]))
                kept_back.add(after.partners_block_out(p) is not None)
    assert told == {True, False}  # some cards left could go on a meld, some could not
    assert kept_back == {True, False}  # the partners kept some from going out, not all


def test_a_meld_s_book_is_the_one_it_counts_as() -> None:
    """:func:`book_index` tells which of :func:`count_books`'s four counts a meld adds
    to (none until it is a book): a dirty book has a wild card, a clean one none."""
    from handfoot.engine.melds import RANK_MELD, SEQUENCE, WILD_MELD, Shape, book_index

    for kind in (RANK_MELD, SEQUENCE, WILD_MELD):
        for size in range(1, 10):
            for wilds in range(size + 1):
                counts = count_books([Shape(kind, wilds, size)], 7)
                which = book_index(kind, size, wilds, 7)
                assert sum(counts) == (which >= 0) == (size >= 7)
                if which >= 0:
                    assert counts[which] == 1
    assert book_index(RANK_MELD, 7, 0, 7) == 0 and book_index(RANK_MELD, 8, 1, 7) == 1
    assert book_index(WILD_MELD, 7, 7, 7) == 2 and book_index(SEQUENCE, 7, 0, 7) == 3


def test_a_table_s_counts_by_rank_kept_across_a_change_are_the_counts_made_afresh() -> None:
    """The listing reads each team's melds counted by rank (:meth:`table_counts`), kept
    for the table's version; a change that cannot move the counts (a card added to a
    meld that neither was nor became a book, red 3s laid down, going down) keeps them
    for the new version. At every step of whole hands of every preset, and in the
    player's seat copy, they are the counts made afresh from the melds on the table.
    So are the team's books (:meth:`HandState.books`), kept and carried the same way
    where a change leaves them (not where a wild makes a clean book dirty)."""
    from handfoot.arena import seat_bots
    from handfoot.game import Game

    carried = books_carried = 0
    for name, seed in ((name, seed) for name in PRESET_NAMES for seed in range(3)):
        rules = preset(name)
        game = Game(rules, seed)
        bots = seat_bots(rules, ("random", "heuristic"), seed)
        # by team: the version last read, and its list of open melds by rank
        last: dict[int, tuple[int, object]] = {}
        while not game.results:
            hand = game.hand
            copy = hand.seat_copy()
            for team in range(hand.teams):
                version, kept = hand.table_version[team], hand.team_tables[team]
                if (team in last and last[team][0] != version and kept is not None
                        and kept.version == version
                        and kept.open_ranks is last[team][1]):
                    carried += 1  # the table changed, and its counts were kept
                books = hand.team_books[team]
                if team in last and last[team][0] != version and books is not None \
                        and books.version == version:
                    books_carried += 1  # and its books
                assert hand.books(team) == count_books(hand.melds[team],
                                                       rules.meld.book_size), (name, team)
                assert copy.books(team) == hand.books(team)
                counts = hand.table_counts(team)
                assert counts.version == version, (name, team)
                assert counts.counted() == hand._table_state(team), (name, team)
                assert copy.table_counts(team).counted() == copy._table_state(team), \
                    (name, team)
                last[team] = (version, counts.open_ranks)
            seat = game.actor
            game.apply(bots[seat].choose(None, game.legal_actions()), seat)
            if game.results or game.hand is not hand:
                last.clear()
    assert carried > 100  # the counts were kept across changes, not only made afresh
    assert books_carried > 100

def test_the_cards_a_seat_holds_as_bits_are_its_counts_at_every_step() -> None:
    """The listing reads which cards a seat holds from bits kept with its counts
    (:class:`Held`), changed with them by every action. At every step of whole hands of
    every preset (cards drawn, discarded, melded, added, taken back, the pile and feet
    picked up, red 3s replaced from the stock), in the player's seat copy, and in a
    clone played on, they are the bits of the counts; the clone's play leaves the
    hand's own bits as they were."""
    from handfoot.arena import seat_bots
    from handfoot.game import Game

    def bits(counts: list[int]) -> int:
        return sum(1 << c for c in range(NUM_CARDS) if counts[c])

    seen: set[str] = set()
    for name, seed in ((name, seed) for name in PRESET_NAMES for seed in range(3)):
        rules = preset(name)
        game = Game(rules, seed)
        bots = seat_bots(rules, ("random", "heuristic"), seed)
        while not game.results:
            hand = game.hand
            assert [h.bits for h in hand.held] == [bits(x) for x in hand.hands], (name, seed)
            copy = hand.seat_copy()
            assert [h.bits for h in copy.held] == [bits(x) for x in copy.hands]
            seat = game.actor
            action = bots[seat].choose(None, game.legal_actions())
            seen.add(type(action).__name__)
            if len(hand.history) % 5 == 0:
                before = [h.bits for h in hand.held]
                trial = hand.clone()
                trial.apply(action, seat)
                assert [h.bits for h in trial.held] == [bits(x) for x in trial.hands]
                assert [h.bits for h in hand.held] == before
            game.apply(action, seat)
    assert {"Draw", "Discard", "LayMeld", "AddToMeld", "TakeBack", "TakePile",
            "PickUpFoot"} <= seen


def test_a_team_s_kept_books_follow_a_book_made_dirty_laid_whole_or_taken_back() -> None:
    """The books kept for a table's version are carried only where a change leaves
    them: a wild burned on a clean book (a house rule) makes it dirty, a meld laid at a
    book's size is a book at once, and a staged one taken back is none."""
    import dataclasses

    base = preset("texas-good-sam")
    rules = dataclasses.replace(base, meld=dataclasses.replace(base.meld, burn_wilds=True))
    hand = Hand(rules, stacked_deal(rules, hands={0: "2C QH QD QS QC QH QD QS 5C 6C 7C"},
                                    stock="9C 9D 9H"))
    put_meld(hand, 0, "KH KD KS KC KH KD KS")
    hand.apply(Draw())
    assert hand.books(0) == (1, 0, 0, 0)
    hand.apply(AddToMeld(0, (parse_card("2C"),)))  # burned: the clean book is dirty now
    assert hand.books(0) == (0, 1, 0, 0) == count_books(hand.melds[0], 7)
    hand.apply(LayMeld(tuple(parse_cards("QH QD QS QC QH QD QS"))))  # a book at once
    assert hand.books(0) == (1, 1, 0, 0) == count_books(hand.melds[0], 7)
    # Laid out whole before opening, a book of sevens counts until it is taken back.
    hand = Hand(base, stacked_deal(base, hands={0: "7H 7D 7S 7C 7H 7D 7S 5C 6C 8C 9C"},
                                   stock="9D 9H"))
    hand.apply(Draw())
    hand.apply(LayMeld(tuple(parse_cards("7H 7D 7S 7C 7H 7D 7S"))))
    assert hand.books(0) == (1, 0, 0, 0)
    hand.apply(TakeBack(0))
    assert hand.books(0) == (0, 0, 0, 0) == count_books(hand.melds[0], 7)


@pytest.mark.parametrize("name", ["texas-good-sam", "samba"])
def test_a_trial_copy_is_a_clone_without_the_history_and_changes_nothing(name: str) -> None:
    """The emptying rule judges a play on a trial copy with the play carried out: the
    copy holds everything a clone holds but the history (no check reads it), answers
    every legal-move question as a clone does after the same action, and carrying the
    action out on it changes nothing in the original."""
    from handfoot.arena import seat_bots
    from handfoot.game import Game

    rules = preset(name)
    game = Game(rules, 5)
    bots = seat_bots(rules, ("heuristic",), 5)
    compared = 0
    while not game.results and compared < 300:
        hand = game.hand
        for action in hand.legal_actions()[:6]:
            before = snapshot(hand)
            trial, clone = hand.trial(), hand.clone()
            # (the snapshot's fourth from last: the length of the history)
            assert trial.history == [] and snapshot(trial)[-4] == 0
            assert [*snapshot(trial)[:-4], *snapshot(trial)[-3:]] == [*before[:-4],
                                                                      *before[-3:]]
            trial.push(action)
            clone.push(action)
            assert snapshot(hand) == before
            assert trial.legal_actions() == clone.legal_actions()
            assert trial.go_out_blocker(hand.actor) == clone.go_out_blocker(hand.actor)
            compared += 1
        seat = game.actor
        game.apply(bots[seat].choose(None, game.legal_actions()), seat)
    assert compared >= 100


def test_an_action_is_a_value_equal_by_its_fields_and_kept_as_made() -> None:
    """Actions are small values (plain classes, native when compiled): made once, equal
    when of the same kind with equal fields, hashed as their fields' tuple (as the frozen
    dataclasses they were, so a set of actions keeps its order), written out as made,
    pickled and copied whole; compiled, a field cannot be set again."""
    made: list[Action] = [ChooseHand(1), DRAW, TakeUpcard(), TakePile((21, 20), 7, ((43, 42, 41),)),
            LayDown(((43, 42, 41), (2, 5, 4))), LayMeld((21, 20, 22)), TakeBack(2), GO_DOWN,
            AddToMeld(1, (9, 8)), PickUpFoot(), Discard(17), EndTurn(), AskToGoOut(),
            AnswerGoOut(False)]
    for a in made:
        fields = tuple(getattr(a, name) for name in type(a).__match_args__)
        assert hash(a) == hash(fields)
        assert a == type(a)(*fields) and a is not type(a)(*fields)
        assert pickle.loads(pickle.dumps(a)) == a and copy.deepcopy(a) == a
        assert action_from_json(action_to_json(a)) == a
        assert eval(repr(a), vars(actions)) == a
        assert a != fields and all(a != b for b in made if b is not a)
    # The cards of a meld are kept sorted, so one meld laid either way is one action.
    assert LayMeld((22, 21, 20)) == LayMeld([20, 21, 22]) and LayMeld((22, 21, 20)).cards == (
        20, 21, 22)
    assert TakePile((21, 20)).shown == (20, 21) and TakePile().count == 0
    assert repr(AddToMeld(0, (3,))) == "AddToMeld(meld=0, cards=(3,))"
    if compiled.running_compiled():
        with pytest.raises(AttributeError):
            LayMeld((20, 21, 22)).cards = ()  # type: ignore[misc]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_meld_told_in_one_pass_is_the_meld_read_in_full(name: str) -> None:
    """:func:`classify` tells the usual meld (naturals of one rank, any wilds, no 3) in
    one pass and reads every other in full: for any cards, it answers as the full
    reading (:func:`~handfoot.engine.melds._classify`) does, the same kind, rank and
    suit, or the same refusal in the same words."""
    import random

    from handfoot.engine.melds import RANK_MELD, _classify, classify

    rules = preset(name)
    rng = random.Random(5)
    kinds: set[int] = set()
    refused = 0
    for _ in range(3000):
        rank = rng.randrange(4, 15)
        size = rng.randrange(1, 8)
        # mostly one rank with a few wilds; now and then a 3, another rank or a run
        pool = [(rank - 2) * 4 + s for s in range(4)] * 2 + [0, 1, 2, 3, 52]
        pool += rng.choice(([], [4, 7], [5], [(rank - 1) * 4 + 1 if rank < 14 else 9]))
        cards = sorted(rng.choice(pool) for _ in range(size))
        try:
            expected = _classify(rules, cards)
        except BadMeld as e:
            refused += 1
            with pytest.raises(BadMeld) as got:
                classify(rules, cards)
            assert str(got.value) == str(e)
            continue
        assert classify(rules, cards) == expected
        kinds.add(expected[0])
    assert RANK_MELD in kinds and refused > 100


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_team_s_seats_are_the_seats_of_that_team(name: str) -> None:
    """:meth:`HandState.team_seats` (the rule set's lists, kept once): each team's seats
    are those the rule set puts in it, every seat in one team, lowest seat first."""
    rules = preset(name)
    hand = Hand(rules, Deal.shuffled(rules, random.Random(1)))
    teams = [hand.team_seats(t) for t in range(hand.teams)]
    for t, seats in enumerate(teams):
        assert seats == [s for s in range(hand.seats) if hand.team_of[s] == t]
    assert sorted(s for seats in teams for s in seats) == list(range(hand.seats))
