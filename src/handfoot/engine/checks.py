"""Every action checked before anything changes: :meth:`CheckedHand.refusal` says why
an action is refused (an :class:`~handfoot.engine.errors.IllegalAction` whose message a
player understands, returned), :meth:`CheckedHand.verify` raises it; a refused action
leaves the state exactly as it was. Each kind of action has its own short check
(``_verify_draw``, ``_verify_lay_meld``, ...), after the turn and the phase are checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mypy_extensions import i64, mypyc_attr

from handfoot.actions import (
    GO_DOWN,
    Action,
    AddToMeld,
    AnswerGoOut,
    AskToGoOut,
    ChooseHand,
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
from handfoot.cards import (
    JOKER,
    NUM_CARDS,
    RANK,
    RANK_WORDS,
    SUIT,
    SUIT_SYMBOLS,
    WILD,
    Card,
    format_card,
    format_cards,
    is_black_three,
    is_three,
)
from handfoot.engine.errors import (
    BadMeld,
    CannotGoOut,
    CardsNotHeld,
    IllegalAction,
    NotYourTurn,
    OpeningTooLow,
    PileNotAvailable,
    WrongPhase,
)
from handfoot.engine.melds import (
    RANK_MELD,
    SEQUENCE,
    WILD_MELD,
    Meld,
    Pending,
    check_rank_counts,
    classify,
    meld_order,
    most_wilds,
)
from handfoot.engine.settings import pile_take_counts
from handfoot.engine.state import (
    PHASE_ASK,
    PHASE_CHOOSE,
    PHASE_DRAW,
    PHASE_OVER,
    PHASE_PLAY,
    HandState,
    Played,
    TableCounts,
    Tables,
)

#: the order of one meld checked alone (:meth:`CheckedHand._check_melds`)
_FIRST: Final[list[int]] = [0]


def _all_wild(cards: Sequence[Card]) -> bool:
    """Whether every card of a meld is wild (a wild-card meld)."""
    for c in cards:
        if not WILD[c]:
            return False
    return bool(cards)


_STAGED_FIRST: Final = ("Go down with the melds you laid out, or take them back, before you {}.")


def _needs(counts: list[int], held: list[int]) -> str | None:
    """The cards in ``counts`` not held, as text, or None."""
    missing = [c for c in range(NUM_CARDS) if counts[c] > held[c]]  # (compiled: a C loop)
    if not missing:
        return None
    return format_cards(missing)


def _given(counts: list[int], held: list[int]) -> int:
    """How many cards ``counts`` takes from the hand ``held``, or -1 if it lacks any."""
    # (in machine integers: asked at each check of a meld laid or a pile taken)
    total: i64 = 0
    short = False
    c: i64
    for c in range(NUM_CARDS):
        n: i64 = counts[c]
        if n:
            total += n
            have: i64 = held[c]
            if n > have:
                short = True
    return -1 if short else int(total)


def may_go_on(meld: Meld, card: Card) -> bool:
    """Whether ``card`` is the right kind of card for ``meld`` at all: its rank (or a
    wild) on a meld of one rank, its suit and no wild on a sequence, a wild on a
    wild-card meld. False means :meth:`CheckedHand._check_add` refuses it; True leaves
    the rest (room, wilds, books) to that check."""
    if meld.kind == RANK_MELD:
        return WILD[card] or RANK[card] == meld.rank
    if meld.kind == SEQUENCE:
        return not WILD[card] and SUIT[card] == meld.suit
    return WILD[card]


#: the kinds of book :meth:`CheckedHand._may_complete_a_meld` looks for
_ANY: Final = 0
_CLEAN: Final = 1
_WILD: Final = 2


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class CheckedHand(HandState):
    """A hand whose actions are checked: :meth:`verify`, :meth:`is_legal`, :meth:`apply`."""

    # ------------------------------------------------------------ meld checks
    def _wild_meld_open(self, team: int) -> bool:
        size = self.settings.book_size
        return any(m.kind == WILD_MELD and m.size < size for m in self.melds[team])

    def _check_new_meld(self, team: int, cards: Sequence[Card], open_ranks: list[int],
                        book_ranks: list[int], wild_open: bool,
                        count_in: bool = True, wild_started: bool = False
                        ) -> tuple[int, int, int]:
        """Check one new meld against the rules and the team's table (as it would be
        after the melds before it in the same action); update the bookkeeping (unless
        ``count_in`` is False: the last meld of a check, whose counts are not read).
        ``wild_open``: a wild-card meld was open before this meld was laid (it blocks
        wilds, where the rules say so); ``wild_started``: one was started by a meld laid
        with it at once, which blocks none (the player lays it after the others) but is
        still the one wild-card meld open."""
        rules = self.settings  # (compiled fields: the rule set's are read by name)
        kind, rank, suit = classify(self.rules, cards, self.settings)
        wilds = 0
        for c in cards:
            if WILD[c]:
                wilds += 1
        if kind == RANK_MELD:
            check_rank_counts(self.rules, rank, len(cards) - wilds, wilds, False, 0,
                              self.settings)
            if wilds and wild_open and rules.wild_meld_blocks_wilds:
                raise self._wilds_blocked(team)
            if rules.one_open_meld_per_rank and open_ranks[rank]:
                raise BadMeld(f"Your team already has a meld of {RANK_WORDS[rank]} "
                              "on the table: complete it before starting another.")
            complete = len(cards) >= rules.book_size
            if rules.books_per_rank and book_ranks[rank] + open_ranks[rank] \
                    >= rules.books_per_rank:
                raise BadMeld(f"Your team may have only {rules.books_per_rank} "
                              f"{self.rules.words.book}s of {RANK_WORDS[rank]}.")
            if count_in:
                counted = book_ranks if complete else open_ranks
                counted[rank] = counted[rank] + 1
        elif kind == WILD_MELD:
            if wild_open or wild_started:
                raise BadMeld("Your team already has a wild-card meld open: complete it first.")
            if len(cards) > rules.book_size:
                raise BadMeld(f"A {self.rules.words.name('wild')} is complete at "
                              f"{rules.book_size} cards.")
        return kind, rank, suit

    def _wilds_blocked(self, team: int) -> BadMeld:
        """The refusal of a wild laid on another meld while the team's wild-card meld is
        open (``meld.wild_meld_blocks_wilds``), with a way that works."""
        name = self.rules.words.name("wild")
        if self.opened[team]:
            return BadMeld(f"While your {name} is open, no wild may go on another meld: "
                           f"complete the {name} first.")
        return BadMeld(f"While your {name} is open, no wild may go on another meld: "
                       f"complete the {name} first, or take it back, lay this meld, "
                       f"then lay out the {name} again.")

    def table_counts(self, team: int) -> TableCounts:
        """:meth:`_table_state`, counted once for each change of the team's table and
        shared by the seat copies (asked at every listing of the moves, and a seat copy
        is made for every decision): for reading only; a check that counts the melds it
        lays in with the table's asks :meth:`_table_state` for lists of its own."""
        version = self.table_version[team]
        kept = self.team_tables[team]
        if kept is not None and kept.version == version:
            return kept
        open_ranks, book_ranks, wild_open = self._table_state(team)
        kept = self.team_tables[team] = TableCounts(version, open_ranks, book_ranks,
                                                    wild_open)
        return kept

    def _table_state(self, team: int) -> Tables:
        size = self.settings.book_size
        open_ranks = [0] * 16  # (lists, not dicts: this is asked at every listing)
        book_ranks = [0] * 16
        wild_open = False
        for m in self.melds[team]:
            if m.kind == RANK_MELD:
                counted = book_ranks if m.size >= size else open_ranks
                counted[m.rank] = counted[m.rank] + 1
            elif m.kind == WILD_MELD and m.size < size:
                wild_open = True
        return open_ranks, book_ranks, wild_open

    def _check_melds(self, team: int, melds: Sequence[Sequence[Card]], pending: Pending,
                     tables: Tables | None = None, staged: int = 0) -> None:
        """Check melds laid at once, against ``tables`` (the team's table by default).
        The first ``staged`` of them are melds laid out before (an opening's, checked
        again with it): a wild-card meld open among them blocks wilds on the others."""
        # One meld against the team's table (a pile taken, most often) reads the kept
        # counts and is not counted in; several are counted in, one after the other, in
        # a copy of them.
        alone = tables is None and len(melds) == 1
        if tables is None:
            kept = self.table_counts(team)
            tables = (kept.open_ranks, kept.book_ranks, kept.wild_open) if alone else (
                kept.open_ranks[:], kept.book_ranks[:], kept.wild_open)
        open_ranks, book_ranks, wild_open = tables
        st = self.settings  # (compiled fields: the rule set's are read by name)
        size = st.book_size
        values = st.card_value
        # Wild-card melds first, then complete books, so that "complete before starting
        # another" reads the same whatever order the player listed the melds in. A
        # wild-card meld started with others at once is laid after them: it blocks no
        # wild of theirs (only a wild-card meld open before does: the table's, or one
        # laid out before them).
        staged_wild = False
        k = 0
        while k < staged:
            laid = melds[k]
            k += 1
            if len(laid) < size and _all_wild(laid):
                staged_wild = True
        started = False
        n = len(melds)
        # (one meld, the usual case, is not sorted: the key is called through Python)
        order = _FIRST if n < 2 else sorted(range(n), key=lambda i: meld_order(melds[i]))
        k = 0
        while k < n:
            i = order[k]
            k += 1
            cards = melds[i]
            kind, _, _ = self._check_new_meld(
                team, cards, open_ranks, book_ranks, wild_open or (staged_wild and i >= staged),
                not alone, started)
            if kind == WILD_MELD and len(cards) < size:
                started = True
            wilds = 0
            for c in cards:
                pending.used[c] = pending.used[c] + 1
                pending.value += values[c]
                wilds += WILD[c]
            if kind == RANK_MELD:
                if wilds:
                    pending.dirty += 1
                else:
                    pending.clean += 1
            if len(cards) >= size:
                pending.books += 1

    def _check_opening_melds(self, team: int, melds: Sequence[Sequence[Card]]) -> Pending:
        """An opening's melds (those laid out and these), checked as laid at once; the
        pending lay-down counts only the cards of ``melds`` as used from the hand."""
        staged = [m.cards for m in self.melds[team]]
        pending = Pending()
        self._check_melds(team, [*staged, *melds], pending, ([0] * 16, [0] * 16, False),
                          len(staged))
        used = pending.used
        for m in staged:
            for c in m:
                used[c] = used[c] - 1
        return pending

    def _check_stage(self, team: int, cards: Sequence[Card]) -> None:
        """A meld laid out for the opening, against the melds laid out before it."""
        open_ranks, book_ranks, wild_open = self._table_state(team)
        self._check_new_meld(team, cards, open_ranks, book_ranks, wild_open)

    def _check_add(self, team: int, index: int, cards: tuple[Card, ...]) -> Meld:
        """The meld ``cards`` may go on (else the reason, raised); :func:`may_go_on`
        is its first question for one card, asked alone."""
        melds = self.melds[team]
        if not 0 <= index < len(melds):
            raise BadMeld(f"Your team has no meld number {index + 1}.")
        if not cards:
            raise BadMeld("Say which cards to add.")
        meld = melds[index]
        st = self.settings  # (compiled fields: the rule set's are read by name)
        size = st.book_size
        complete = meld.size >= size
        # (the cards counted in one loop; the lists for the refusals made only for them)
        n_threes = added_wilds = n_wrong = 0
        for c in cards:
            if is_three(c):
                n_threes += 1
            if WILD[c]:
                added_wilds += 1
            elif RANK[c] != meld.rank:
                n_wrong += 1
        black_meld = meld.kind == RANK_MELD and meld.rank == 3
        if n_threes:
            threes = [c for c in cards if is_three(c)]
            if not (black_meld and all(is_black_three(c) for c in threes)):
                raise BadMeld(f"3s cannot be melded ({format_cards(threes)})."
                              if not black_meld else
                              f"Only black 3s go on a meld of black 3s ({format_cards(cards)}).")
        if black_meld and n_threes != len(cards):
            raise BadMeld("Only black 3s go on a meld of black 3s (no wild cards).")
        if meld.kind == WILD_MELD:
            if added_wilds != len(cards):
                raise BadMeld("Only wild cards go on a wild-card meld.")
            if meld.size + len(cards) > size:
                raise BadMeld(f"A {self.rules.words.name('wild')} is complete at {size} cards.")
            return meld
        if meld.kind == SEQUENCE:
            if complete:
                raise BadMeld(f"This {self.rules.words.name('sequence')} is complete at {size} "
                              "cards and takes no more.")
            if added_wilds:
                raise BadMeld(f"A {self.rules.words.name('sequence')} takes no wild card "
                              f"({format_cards([c for c in cards if WILD[c]])}).")
            if any(SUIT[c] != meld.suit for c in cards):
                raise BadMeld(f"Only {SUIT_SYMBOLS[meld.suit]} cards that extend the "
                              "sequence can be added to it.")
            ranks = sorted([RANK[c] for c in cards] + [RANK[c] for c in meld.cards])
            if (len(set(ranks)) != len(ranks) or ranks[-1] - ranks[0] != len(ranks) - 1):
                raise BadMeld(f"{format_cards(cards)} does not extend the sequence "
                              f"{format_cards(meld.cards)}.")
            if len(ranks) > size:
                raise BadMeld(f"A {self.rules.words.name('sequence')} is complete at {size} "
                              "cards.")
            return meld
        if n_wrong:
            wrong = [c for c in cards if not WILD[c] and RANK[c] != meld.rank]
            raise BadMeld(f"{format_cards(wrong)} cannot go on the meld of "
                          f"{RANK_WORDS[meld.rank]}.")
        if added_wilds and st.wild_meld_blocks_wilds and self._wild_meld_open(team):
            raise self._wilds_blocked(team)
        check_rank_counts(self.rules, meld.rank, meld.naturals + len(cards) - added_wilds,
                          meld.wilds + added_wilds, complete, added_wilds, st)
        return meld

    def may_go_down(self) -> bool:
        """Whether the player to act may go down now with the melds laid out. What they
        hold is counted first: where it makes no opening (:meth:`opening_met`) nothing
        more need be asked (the full check, :meth:`refusal` of going down, checks the
        melds again together, and the opening with them)."""
        team = self.team_of[self.actor]
        value, clean, dirty, books = self.laid_out(team)
        return self.opening_met(team, value, clean, dirty, books) and self.is_legal(GO_DOWN)

    def _opening_refusal(self, team: int, pending: Pending) -> OpeningTooLow | None:
        """Why these melds do not make an opening (the minimum, the clean and dirty melds
        and the books it must hold), or None."""
        if self.opening_met(team, pending.value, pending.clean, pending.dirty,
                            pending.books):
            return None
        o = self.rules.opening
        minimum = self.minimums[team]
        if pending.value < minimum:
            return OpeningTooLow(f"Your team needs {minimum} points to go down; "
                                f"these melds make {pending.value}.")
        if pending.clean < o.clean_melds:
            return OpeningTooLow(f"Your team's opening must hold {o.clean_melds} clean meld"
                                f"{'s' if o.clean_melds > 1 else ''} (no wild cards).")
        if pending.dirty < o.dirty_melds:
            return OpeningTooLow(f"Your team's opening must hold {o.dirty_melds} dirty meld"
                                f"{'s' if o.dirty_melds > 1 else ''} (with a wild card).")
        if pending.books < o.books:
            return OpeningTooLow(f"Your team's opening must hold {o.books} complete book"
                                f"{'s' if o.books > 1 else ''}.")
        return None

    @staticmethod
    def _check_held(cards: tuple[Card, ...], held: list[int]) -> None:
        for c in cards:
            n = 0
            for d in cards:  # (counted here: compiled, cards.count(c) is a method call)
                if d == c:
                    n += 1
            if held[c] < n:
                used = [0] * NUM_CARDS
                for d in cards:
                    used[d] = used[d] + 1
                raise CardsNotHeld(f"You do not hold {_needs(used, held)}.")

    # -------------------------------------------------------------- going out
    def _check_emptying(self, seat: int, left: int, by_discard: bool,
                        action: Action | None = None) -> None:
        """A player in the foot may run out of cards only by going out, and must keep a
        card to discard (and one to hold) until going out is allowed. A play that leaves
        one card or none is judged on the table as it would be after it (so the book a
        player completes with their last cards counts toward going out): with one card
        left, the player must then be able to go out by discarding it or by melding it."""
        if left > 1 or not self.in_foot[seat] or (left == 1 and by_discard):
            return
        rule = self.settings.out_discard
        # The state after the play, made only when it is asked more than the books: a
        # meld made or cards added change only the books, counted without a copy.
        after: CheckedHand | None = None
        if action is None:
            after = self
            why = self.go_out_blocker(seat)
        elif isinstance(action, AddToMeld) or isinstance(action, LayMeld):  # noqa: SIM101
            why = self.go_out_blocker_after(seat, action)
        else:
            after = self._after(action)
            why = after.go_out_blocker(seat)
        if left == 0:
            if why:
                raise CannotGoOut(f"You cannot go out yet: {why}. Keep at least one card.")
            if by_discard and rule == "forbidden":
                raise CannotGoOut("You cannot go out with a discard: meld your last card.")
            if not by_discard and rule == "required":
                raise CannotGoOut("You must keep a card to discard when you go out.")
            return
        if why is None and rule != "forbidden":
            return  # the last card can be discarded to go out
        if not isinstance(action, TakePile):
            if after is None:
                assert action is not None
                # (no copy made where no meld could take the card left at all)
                if not self._no_meld_takes_last(seat, action):
                    after = self._after(action)
            if after is not None and after._last_card_goes_out(seat):
                return  # the last card can be melded to go out
        if why:
            raise CannotGoOut("Keep at least two cards, one to discard and one to hold, "
                              f"until you can go out: {why}.")
        raise CannotGoOut("You cannot go out with a discard: keep a card you can meld.")

    def _after(self, action: Action) -> CheckedHand:
        """A copy of this state with ``action`` carried out, to be asked and dropped."""
        after = self.trial()
        after.push(action)
        # Where going out does not end the hand it ends the turn, and with it the
        # partner's answer: the answer given this turn is what counts.
        after.permission = self.permission
        return after

    def _no_meld_takes_last(self, seat: int, action: Action) -> bool:
        """Whether, once ``seat`` has made the meld or the addition ``action`` (leaving
        it one card), that card is the right kind of card (:func:`may_go_on`) for none of
        its team's melds as they would then be: what :meth:`_last_card_goes_out` asks
        first of each, told without a copy of the state. A meld's kind, rank and suit
        do not change as cards are added; the one meld a play makes is the only new one.
        False for any other action (asked of a copy)."""
        lays = False  # (a new meld made)
        if isinstance(action, AddToMeld):
            cards = action.cards
        elif isinstance(action, LayMeld):
            lays, cards = True, action.cards
        else:
            return False
        hand = self.hands[seat]
        last = -1
        for c in range(NUM_CARDS):
            n = hand[c]
            if n:
                for d in cards:
                    if d == c:
                        n -= 1
                if n > 0:
                    last = c
                    break
        if last < 0:
            return False
        for m in self.melds[self.team_of[seat]]:
            if may_go_on(m, last):
                return False
        return not lays or not may_go_on(self._meld_of(list(cards)), last)

    def _last_card_goes_out(self, seat: int) -> bool:
        """Whether the one card ``seat`` holds can be added to a meld to go out (only
        the melds it is the right kind of card for are checked in full, and of those,
        where the emptying rule asks it, only those after which the team's books let it
        go out: what that rule asks first, counted without a copy)."""
        if self.partners_block_out(seat):
            return False  # (whatever meld it went on: the partners, or the answer)
        last = next(c for c in range(NUM_CARDS) if self.hands[seat][c])
        team = self.team_of[seat]
        # (the rule applies to a player in the foot of a team that has gone down)
        asked = self.in_foot[seat] and self.opened[team]
        for i, m in enumerate(self.melds[team]):
            if not may_go_on(m, last):
                continue
            add = AddToMeld(i, (last,))
            if asked and self.go_out_blocker_after(seat, add):
                continue
            if self.is_legal(add):
                return True
        return False

    def _fits_emptying(self, seat: int, used: int, by_discard: bool = False,
                       action: Action | None = None) -> bool:
        left = self.hand_len[seat] - used
        if left > 1 or not self.in_foot[seat] or (left == 1 and by_discard):
            return True
        try:
            self._check_emptying(seat, left, by_discard, action)
        except IllegalAction:
            return False
        return True

    def out_this_turn_blocker(self, seat: int) -> str | None:
        """Why ``seat`` cannot play every card it holds this turn (keeping one to discard
        where the rules let it), in words, or None if it can. The reading, checked in
        polynomial time: the naturals of each rank go onto the team's meld of that rank
        (open or complete), or else make a new meld (with at least the naturals a meld
        needs, and the wilds it needs to reach its smallest size); every wild goes onto
        a meld that still has room for it (as many as the rules allow beside the naturals
        it will hold, while it is not yet complete); at most one card, which cannot be
        melded, is the discard. The books needed are checked separately (already down)."""
        st = self.settings
        hand = self.hands[seat]
        team = self.team_of[seat]
        rule = st.out_discard
        options: list[Card | None] = [] if rule == "required" else [None]
        if rule != "forbidden":
            card_class = st.card_class
            seen = [False] * NUM_CARDS
            for c in range(NUM_CARDS):
                if hand[c] and not seen[card_class[c]]:
                    seen[card_class[c]] = True
                    options.append(c)
        why = "you hold no cards"
        for keep in options:
            counts = hand[:]
            if keep is not None:
                counts[keep] = counts[keep] - 1
            why_not = self._placement_blocker(team, counts)
            if why_not is None:
                return None
            why = why_not
        return why

    def may_ask_to_finish_books(self, seat: int) -> bool:
        """Whether ``seat``, in the foot, whose team lacks books, may still ask to go out:
        the partners' part is done and the player can make the books with the cards held
        and play the rest this turn (:meth:`finish_books_blocker`)."""
        return (self.phase == PHASE_PLAY and self.partners_missing(seat) is None
                and self.may_finish_books(seat) and self.finish_books_blocker(seat) is None)

    def may_finish_books(self, seat: int) -> bool:
        """A quick count that :meth:`finish_books_blocker` may find a way: for each kind
        of book the team lacks, an open meld the cards held can complete (a clean one with
        naturals alone, a wild-card one with wilds), and no more than one natural held
        alone with no meld of its rank on the team's table (a lone natural cannot be
        melded; one may be the discard). Asked before every trial, so it reads counts
        only."""
        hand = self.hands[seat]
        team = self.team_of[seat]
        st = self.settings
        clean, _dirty, wild, seq = self._kept_books(team).books
        if seq < self.rules.going_out.sequence_books:
            return False  # (the trial lays no sequence)
        if clean < st.out_clean_books and not self._may_complete_a_meld(hand, team, _CLEAN):
            return False
        if wild < st.out_wild_books and not self._may_complete_a_meld(hand, team, _WILD):
            return False
        if not self._may_complete_a_meld(hand, team, _ANY):
            return False
        tables = self.table_counts(team)
        lone = 0
        rank = 4
        while rank <= 14:
            base = (rank - 2) * 4
            n = hand[base] + hand[base + 1] + hand[base + 2] + hand[base + 3]
            if n == 1 and not tables.open_ranks[rank] and not tables.book_ranks[rank]:
                lone += 1
                if lone > 1:
                    return False
            rank += 1
        return True

    def _may_complete_a_meld(self, hand: list[int], team: int, want: int) -> bool:
        """Whether the cards in ``hand`` can make up what one of the team's open melds (a
        wild-card meld, or of a rank from 4 up) lacks to be a book of the kind ``want``
        (:data:`_ANY`, :data:`_CLEAN`: naturals onto a meld with no wild, :data:`_WILD`:
        wilds onto a wild-card meld)."""
        wilds = 0 if want == _CLEAN else hand[0] + hand[1] + hand[2] + hand[3] + hand[JOKER]
        size = self.settings.book_size
        for m in self.melds[team]:
            if m.size >= size or m.kind == SEQUENCE:
                continue
            have = wilds
            if m.kind == RANK_MELD:
                if m.rank < 4 or want == _WILD or (want == _CLEAN and m.wilds):
                    continue
                base = (m.rank - 2) * 4
                have += hand[base] + hand[base + 1] + hand[base + 2] + hand[base + 3]
            elif want == _CLEAN:
                continue
            if have >= size - m.size:
                return True
        return False

    def finish_books_blocker(self, seat: int) -> str | None:
        """Why ``seat``, in the foot, cannot make the books its team still lacks to go
        out with the cards it holds and play every card this turn (the last one may be
        the discard where the rules let it), or None if it can: "a player who can
        complete the last canasta and use up the cards this turn may ask". Worked out on
        a trial copy, each step checked by the engine as if the partner had agreed: the
        naturals of each rank onto the team's open meld of that rank, then one wild at a
        time onto the open meld nearest to complete (a wild-card meld too), until the
        books are made; then the rest as :meth:`out_this_turn_blocker` reads it. It may
        miss a way that needs another order; it never finds one that does not work."""
        team = self.team_of[seat]
        trial = self.trial()
        trial.permission = True  # (the emptying rule then judges going out alone)
        size = self.settings.book_size
        steps = 0
        while trial.phase == PHASE_PLAY and trial.books_missing(team) is not None \
                and steps < 64:
            steps += 1
            hand = trial.hands[seat]
            melds = trial.melds[team]
            chosen: AddToMeld | None = None
            for i in range(len(melds)):
                m = melds[i]
                if m.kind != RANK_MELD or m.rank < 4 or m.size >= size:
                    continue
                base = (m.rank - 2) * 4
                nats = [c for c in range(base, base + 4) for _ in range(hand[c])]
                if nats:
                    add = AddToMeld(i, tuple(nats))
                    if trial.refusal(add, seat) is None:
                        chosen = add
                        break
            if chosen is None:
                wild = next((c for c in (*range(4), JOKER) if hand[c]), -1)
                if wild < 0:
                    break
                nearest = sorted(range(len(melds)), key=lambda i: -melds[i].size)
                for i in nearest:
                    m = melds[i]
                    if m.size >= size or m.kind == SEQUENCE or (m.kind == RANK_MELD
                                                                 and m.rank < 4):
                        continue
                    add = AddToMeld(i, (wild,))
                    if trial.refusal(add, seat) is None:
                        chosen = add
                        break
            if chosen is None:
                break
            trial.push(chosen)
        if trial.phase == PHASE_OVER:
            return None  # went out
        missing = trial.books_missing(team)
        if missing is not None:
            return f"your team would still need {missing}"
        return trial.out_this_turn_blocker(seat)

    def _placement_blocker(self, team: int, counts: list[int]) -> str | None:
        """Why ``counts`` cannot all be melded onto the team's table this turn, or None."""
        mr = self.settings  # (compiled fields: the rule set's are read by name)
        size = mr.book_size
        melds = self.melds[team]
        threes = [c for c in range(4, 8) if counts[c] and not self._meldable_three(c)]
        if threes:
            return f"3s cannot be melded ({format_cards(threes)})"
        # (added up here: compiled, sum() over a generator or a slice is Python's own)
        wilds = counts[0] + counts[1] + counts[2] + counts[3] + counts[JOKER]
        need = room = 0
        for rank in range(3, 15):
            base = (rank - 2) * 4
            n = (counts[base] + counts[base + 1] + counts[base + 2] + counts[base + 3]
                 if rank != 3 else counts[4] + counts[7])
            same = [m for m in melds if m.kind == RANK_MELD and m.rank == rank]
            if rank == 3:  # black 3s melded: no wilds on them
                if n and not same and n < mr.min_size:
                    return f"{format_cards([4] * n)}: too few black 3s for a meld"
                continue
            open_ = [m for m in same if m.size < size]
            if open_:
                m = open_[-1]
                room += self._wild_room(m.naturals + n, m.wilds, m.size)
                continue
            if n == 0:
                continue
            if same and (n < mr.min_size or (mr.books_per_rank
                                               and len(same) >= mr.books_per_rank)):
                continue  # burned on a complete book
            if n < mr.min_naturals:
                return f"a single {RANK_WORDS[rank][:-1]} has no meld to go on"
            cap = most_wilds(n, mr.max_wilds, mr.naturals_exceed_wilds)
            low = mr.min_size - n if mr.min_size > n else 0
            if low > cap:
                return f"the {RANK_WORDS[rank]} cannot make a meld"
            need += low
            room += cap - low
        # A wild burned on a clean book makes it dirty: only a clean book the team can
        # spare (beyond the clean books going out needs) takes one.
        spare_clean = self.books(team)[0] - mr.out_clean_books
        for m in melds:
            if m.kind == RANK_MELD and m.size >= size and mr.burn_wilds:
                if not m.wilds:
                    if spare_clean <= 0:
                        continue
                    spare_clean -= 1
                room += self._wild_room(m.naturals, m.wilds, 0)
            elif m.kind == WILD_MELD and m.size < size:
                room += size - m.size
        if mr.wild_melds and wilds - need >= mr.min_size:
            room += size
        if need > wilds:
            return "there are too few wild cards for the melds your cards need"
        if wilds - need > room:
            return "your wild cards have no room on your melds"
        return None

    def _wild_room(self, naturals: int, wilds: int, size_before: int) -> int:
        """How many more wilds a meld of ``naturals`` naturals (once all are added) and
        ``wilds`` wilds can take, added before the naturals where that leaves more room
        (``size_before``: its size now; 0 for a meld that takes wilds when complete)."""
        mr = self.settings
        k = 0
        while True:
            w = wilds + k + 1
            if w > most_wilds(naturals, mr.max_wilds, mr.naturals_exceed_wilds):
                return k
            if size_before:
                now = size_before - wilds  # the naturals already in it
                want = w + 1 if mr.naturals_exceed_wilds else now
                least = want if want > now else now
                if least + w - 1 >= mr.book_size:
                    return k
            k += 1

    def _meldable_three(self, c: Card) -> bool:
        return self.settings.black_melded and is_black_three(c)

    def _check_black_threes(self, seat: int, melds: Sequence[Sequence[Card]], left: int) -> None:
        """Where black 3s may be melded only to go out: a play with black 3s must leave
        the player, in the foot and down, no card or one (the emptying rule then checks
        that the player may go out)."""
        if not self.settings.black_to_go_out:
            return
        if not any(is_black_three(c) for cards in melds for c in cards):
            return
        if not self.opened[self.team_of[seat]]:
            raise BadMeld("Black 3s may be melded only to go out, once your team has gone "
                          "down: they cannot be part of an opening.")
        if left > 1 or not self.in_foot[seat]:
            raise BadMeld("Black 3s may be melded only to go out: meld them with your last "
                          "cards.")

    def must_go_out(self, seat: int) -> bool:
        """Whether ``seat``, whose partner agreed to going out where asking says "I can go
        out now" (``going_out.ask_when_able``), must go on to go out: it holds more than
        one card and can still play them all this turn."""
        if not (self.settings.ask_when_able and self.permission is True
                and self.hand_len[seat] > 1):
            return False
        if self.books_missing(self.team_of[seat]):  # (asked when able to make them)
            return self.finish_books_blocker(seat) is None
        return self.out_this_turn_blocker(seat) is None

    def _stuck(self, seat: int) -> bool:
        """A player in the foot left with one card who may neither go out nor discard it,
        or with no card at all (the stock's last card drawn was a red 3, laid on the
        board with nothing to replace it), ends the turn without a discard: rare corners
        when the stock ran dry."""
        n = self.hand_len[seat]
        return (self.in_foot[seat] and n <= 1 and not self._is_staging(seat)
                and (n == 0 or not self._fits_emptying(seat, n, by_discard=True)))

    def _is_staging(self, seat: int) -> bool:
        team = self.team_of[seat]
        return not self.opened[team] and bool(self.melds[team])

    # ------------------------------------------------------------- the pile
    def pile_open(self, seat: int) -> bool:
        """Whether the pile may be taken at all now (:meth:`pile_blocker` says why not).
        Asked at every listing, so it makes no words."""
        pile = self.pile
        if not pile:
            return False
        top = pile[-1]
        if is_three(top) or WILD[top]:
            return False
        if len(pile) < self.settings.pile_min:
            return False
        return self.opened[self.team_of[seat]] or self.settings.pile_with_opening

    def pile_blocker(self, seat: int) -> str | None:
        """Why the pile cannot be taken at all now, or None."""
        if self.pile_open(seat):
            return None
        rules = self.rules.pile
        top = self.pile_top
        if top is None:
            return "The discard pile is empty."
        if is_three(top):
            return f"The pile is frozen: a 3 ({format_card(top)}) is on top."
        if WILD[top]:
            return f"The pile is frozen: a wild card ({format_card(top)}) is on top."
        if len(self.pile) < max(rules.min_size, 1):
            return (f"The pile can be taken only when it holds at least {rules.min_size} "
                    f"cards; it holds {len(self.pile)}.")
        return "Your team must open before it can take the pile."

    def pile_frozen(self) -> bool:
        """Whether a wild card in the pile freezes it, so that only a natural pair takes
        it (where the rules say so)."""
        return self.settings.wild_freezes and self.pile_wilds > 0

    def has_board_meld(self, team: int, rank: int) -> bool:
        """Whether the team has a meld of ``rank`` on the table (open or a book) that a
        pile's top card of that rank may be taken with (none before it has gone down):
        read from the team's table counted by rank and kept (:meth:`table_counts`), not
        by a pass over its melds (asked at every listing of a draw)."""
        if not self.opened[team]:
            return False
        tables = self.table_counts(team)
        return tables.open_ranks[rank] + tables.book_ranks[rank] > 0

    def pile_counts(self) -> range:
        """How many cards a pick-up may take."""
        return pile_take_counts(self.rules, len(self.pile))

    def _take_pile_refusal(self, seat: int, action: TakePile) -> IllegalAction | None:
        """Why the pile may not be taken so, or None (the checks of the melds it makes
        raise theirs)."""
        why = self.pile_blocker(seat)
        if why:
            return PileNotAvailable(why)
        top = self.pile[-1]
        rank = RANK[top]
        team = self.team_of[seat]
        st = self.settings  # (compiled fields: the rule set's are read by name)
        first, stop = st.take_span(self.rules, len(self.pile))
        count = action.count or first
        if not first <= count < stop:
            return PileNotAvailable(
                f"You may take {first}" + (f" to {stop - 1}" if stop - first > 1
                                           else "") + f" cards, not {count}.")
        way = self._shown_way(team, action)
        if not isinstance(way, str):
            return way
        opened = self.opened[team]
        # (the team's table counted by rank and kept: where it has no open meld of the
        # rank, the top card makes a new one, without a pass over its melds)
        tables = self.table_counts(team) if opened else None
        target = self.pile_target(team, rank) \
            if tables is not None and tables.open_ranks[rank] else None
        if way == "meld-on-board" and target is None:
            target = self.last_board_meld(team, rank)
        # (the pending lay-down made only where melds are checked: a pile taken onto a
        # meld on the table, the usual way, lays none)
        pending: Pending | None = None
        if target is not None or opened:
            given = self._pile_given(seat, action, target, tables)
            if not isinstance(given, int):
                return given
        else:  # the top card's meld, the melds laid out and any given here: the opening
            pending = self._check_opening_melds(team, [(top, *action.shown),
                                                       *action.opening])
            used = pending.used
            used[top] = used[top] - 1  # the top card comes from the pile, not the hand
            hand = self.hands[seat]
            # (the cards the hand gives counted here, not by Python's sum over all of them)
            given = _given(used, hand)
            if given < 0:
                return CardsNotHeld(f"You do not hold {_needs(used, hand)}.")
        if not opened:
            refused = self._opening_refusal(team, pending if pending is not None
                                            else Pending())
            if refused is not None:
                return refused
            self._check_black_threes(seat, action.opening, 0)
        self._check_emptying(seat, self.hand_len[seat] - given + count - 1, False, action)
        return None

    def _shown_way(self, team: int, action: TakePile) -> str | IllegalAction:
        """How the cards shown take the pile (``natural-pair``, ``natural-and-wild``,
        ``meld-on-board``, as the rules' ``pile.show`` names them), or why they may not."""
        top = self.pile[-1]
        rank = RANK[top]
        shown = action.shown
        # (fast path: docs/design.md#the-checks)
        wilds = 0
        matched = True
        for c in shown:
            if is_three(c):
                matched = False
            elif WILD[c]:
                wilds += 1
            elif RANK[c] != rank:
                matched = False
        if not matched:
            return PileNotAvailable(f"To take the pile show cards that match the top card, "
                                    f"{format_card(top)}.")
        st = self.settings
        if len(shown) == 2 and wilds == 0:
            way, allowed = "natural-pair", st.show_pair
        elif len(shown) == 2 and wilds == 1:
            way, allowed = "natural-and-wild", st.show_natural_and_wild
        elif not shown:
            way, allowed = "meld-on-board", st.show_meld_on_board
        else:
            way, allowed = "other", False
        if not allowed:
            needs = {"natural-pair": "two natural cards of that rank",
                     "natural-and-wild": "one natural card of that rank and a wild card",
                     "meld-on-board": "a meld of that rank already on the table"}
            ways = " or ".join(needs[w] for w in self.rules.pile.show)
            return PileNotAvailable(f"To take the pile (top card {format_card(top)}) "
                                    f"you must show {ways}.")
        if self.pile_frozen() and way != "natural-pair":
            return PileNotAvailable("The pile is frozen by a wild card in it: only a natural "
                                    f"pair of {RANK_WORDS[rank]} takes it.")
        if way == "meld-on-board" and not self.has_board_meld(team, rank):
            return PileNotAvailable(f"Your team has no meld of {RANK_WORDS[rank]} on "
                                    "the table to take the pile with.")
        if action.opening and self.opened[team]:
            return PileNotAvailable("Your team has already opened: lay further melds "
                                    "after taking the pile.")
        return way

    def _pile_given(self, seat: int, action: TakePile, target: int | None,
                    tables: TableCounts | None) -> int | IllegalAction:
        """How many cards the hand gives to take the pile onto the team's meld
        ``target``, or (None) to make a new meld of a team that has opened; or why
        it may not."""
        shown = action.shown
        hand = self.hands[seat]
        team = self.team_of[seat]
        st = self.settings
        if target is not None and st.shown_kept and shown:
            # The shown cards stay in the hand: the top card alone goes onto the meld.
            self._check_held(shown, hand)
            return 0
        top = self.pile[-1]
        wilds = 0
        for c in shown:
            if WILD[c]:
                wilds += 1
        if target is not None:  # the team has this meld on the table
            meld = self.melds[team][target]
            complete = meld.size >= st.book_size
            check_rank_counts(self.rules, RANK[top], meld.naturals + len(shown) - wilds + 1,
                              meld.wilds + wilds, complete, wilds, st)
            if wilds and st.wild_meld_blocks_wilds and self._wild_meld_open(team):
                return self._wilds_blocked(team)
        else:
            # One new meld, checked alone against the team's kept table (as
            # :meth:`_check_melds` checks one), and the cards shown held: no pending
            # lay-down, whose counts of every card were made and read at each check
            assert tables is not None  # (counted: the team has opened)
            # (fast path: docs/design.md#the-checks)
            self._check_new_meld(team, (top, shown[0], shown[1]) if len(shown) == 2
                                 else (top, *shown), tables.open_ranks, tables.book_ranks,
                                 tables.wild_open, False)
        self._check_held(shown, hand)
        return len(shown)

    # ----------------------------------------------------------------- verify
    def verify(self, action: Action, seat: int | None = None) -> None:
        """Raise an :class:`IllegalAction` saying why ``action`` is not legal now."""
        why = self.refusal(action, seat)
        if why is not None:
            raise why

    def refusal(self, action: Action, seat: int | None = None) -> IllegalAction | None:
        """Why ``action`` is not legal now, or None if it is: every refusal is returned,
        never raised (:meth:`verify` raises it). Returned, because compiled a raised
        exception gathers a traceback at every level it passes, some ten times the cost
        of an answer, and the listing asks of moves that are often refused. The checks of
        a meld's cards (:mod:`.melds`) raise theirs, which are caught here, once."""
        try:
            return self._refusal(action, seat)
        except IllegalAction as why:
            return why

    def _refusal(self, action: Action, seat: int | None) -> IllegalAction | None:
        """:meth:`refusal`: whose turn and which phase, then the action's own check."""
        phase = self.phase
        if phase == PHASE_OVER:
            return WrongPhase("The hand is over.")
        if seat is not None and seat != self.actor:
            return NotYourTurn(self._whose_turn_text())
        if isinstance(action, ChooseHand):
            return self._verify_choose(action)
        if phase == PHASE_CHOOSE:
            return WrongPhase("First choose which of your two stacks is your hand.")
        if isinstance(action, AnswerGoOut):
            return None if phase == PHASE_ASK else WrongPhase("Nobody has asked to go out.")
        if phase == PHASE_ASK:
            return WrongPhase("Your partner has asked to go out: answer yes or no.")
        p = self.actor
        team = self.team_of[p]
        staging = not self.opened[team] and bool(self.melds[team])
        if isinstance(action, PickUpFoot):
            return self._verify_pick_up_foot(p, staging)
        if self.hand_len[p] == 0 and not self.in_foot[p] and not staging \
                and not (self.turn_plays and isinstance(action, TakeBack)):
            return IllegalAction("Your hand is empty: pick up your foot.")
        if isinstance(action, TakePile) and phase == PHASE_DRAW:
            return self._take_pile_refusal(p, action)
        # (fast path: docs/design.md#the-checks)
        if (isinstance(action, Draw) or isinstance(action, TakePile)  # noqa: SIM101
                or isinstance(action, TakeUpcard)):
            return self._verify_draw(p, action, staging)
        if phase == PHASE_DRAW and not self._may_meld_before_drawing(p, action, staging):
            return WrongPhase("Draw first: from the stock, or take the pile.")
        if isinstance(action, LayMeld):
            return self._verify_lay_meld(p, team, action)
        if isinstance(action, AddToMeld):
            return self._verify_add(p, team, action, staging)
        if isinstance(action, TakeBack):
            return self._verify_take_back(team, action)
        if isinstance(action, GoDown):
            return self._verify_go_down(p, team, action, staging)
        if isinstance(action, LayDown):
            return self._verify_lay_down(p, team, action)
        if staging:
            what = {Discard: "discard", EndTurn: "end your turn", AskToGoOut: "ask to go out"}
            return IllegalAction(_STAGED_FIRST.format(what.get(type(action), "do that")))
        if isinstance(action, Discard):
            return self._verify_discard(p, action)
        if isinstance(action, EndTurn):
            return self._verify_end_turn(p)
        if isinstance(action, AskToGoOut):
            return self._verify_ask(p, team)
        return IllegalAction(f"{action!r} is not an action.")  # pragma: no cover

    def _verify_choose(self, action: ChooseHand) -> IllegalAction | None:
        if self.phase != PHASE_CHOOSE:
            return WrongPhase("The hands have already been chosen.")
        if action.stack not in (0, 1):
            return IllegalAction("Choose stack 1 or stack 2.")
        return None

    def _verify_pick_up_foot(self, p: int, staging: bool) -> IllegalAction | None:
        if staging:
            return IllegalAction(_STAGED_FIRST.format("pick up your foot"))
        if self.in_foot[p]:
            return IllegalAction("You have already picked up your foot.")
        if self.hand_len[p]:
            return IllegalAction("Play every card of your hand before you pick up your foot.")
        return None

    def _verify_draw(self, p: int, action: Action, staging: bool) -> IllegalAction | None:
        """Drawing from the stock or taking the upcard (or the pile, once drawn)."""
        if self.phase != PHASE_DRAW:
            return WrongPhase("You have already drawn this turn.")
        if staging:
            return IllegalAction("Take back the melds you laid out before you draw: laid "
                                 "out before drawing, they count only toward taking the pile.")
        if not isinstance(action, TakeUpcard):
            return None
        if self.rules.turn.first_turn_upcard == "no":
            return IllegalAction("These rules do not let you take the upcard.")
        if self.turn_number != 0 or len(self.pile) != 1:
            return IllegalAction("The upcard may be taken only on the first turn.")
        if is_three(self.pile[0]) or WILD[self.pile[0]]:
            # "A black three or a red three freezes the discard pile from pickup";
            # a wild freezes it too (six-deck, samba): the upcard alone as well.
            return PileNotAvailable(
                f"The upcard ({format_card(self.pile[0])}) freezes the pile: "
                "it cannot be taken.")
        return None

    def _may_meld_before_drawing(self, p: int, action: Action, staging: bool) -> bool:
        """Whether ``action`` may come before the draw: a meld laid out taken back, or
        melds laid out to open with the pile where the rules allow it."""
        if isinstance(action, TakeBack) and staging:
            return True
        team = self.team_of[p]
        return ((isinstance(action, LayMeld) or isinstance(action, AddToMeld))  # noqa: SIM101
                and not self.opened[team]
                and self.rules.pile.before_opening == "with-opening"
                and self.pile_open(p))

    def _verify_lay_meld(self, p: int, team: int, action: LayMeld) -> IllegalAction | None:
        self._check_held(action.cards, self.hands[p])
        left = self.hand_len[p] - len(action.cards)
        if not self.opened[team]:
            self._check_stage(team, action.cards)
            self._check_black_threes(p, (action.cards,), left)
            return None
        # (fast path: docs/design.md#the-checks)
        tables = self.table_counts(team)
        self._check_new_meld(team, action.cards, tables.open_ranks, tables.book_ranks,
                             tables.wild_open, False)
        self._check_black_threes(p, (action.cards,), left)
        self._check_emptying(p, left, False, action)
        return None

    def _verify_add(self, p: int, team: int, action: AddToMeld,
                    staging: bool) -> IllegalAction | None:
        opened = self.opened[team]
        if not opened and not staging:
            return IllegalAction("Your team must open before adding to melds.")
        self._check_add(team, action.meld, action.cards)
        self._check_held(action.cards, self.hands[p])
        left = self.hand_len[p] - len(action.cards)
        self._check_black_threes(p, (action.cards,), left)
        if opened:
            self._check_emptying(p, left, False, action)
        return None

    def _verify_take_back(self, team: int, action: TakeBack) -> IllegalAction | None:
        if self.opened[team]:
            if not self.settings.take_back_turn:
                return IllegalAction("Your team has gone down: its melds stay on the table.")
            if self.turn_play(action.meld) < 0:
                return IllegalAction(
                    f"Only what you laid or added this turn can be taken back, until you "
                    f"discard; meld {action.meld + 1} was not changed this turn.")
        if not 0 <= action.meld < len(self.melds[team]):
            return IllegalAction(f"You have no laid-out meld number {action.meld + 1}.")
        return None

    def _verify_go_down(self, p: int, team: int, action: GoDown,
                        staging: bool) -> IllegalAction | None:
        if self.opened[team]:
            return IllegalAction("Your team has already gone down.")
        if not staging:
            return IllegalAction("Lay out your melds first (meld QH QD QS), then go down.")
        refused = self._opening_refusal(team, self._check_opening_melds(team, ()))
        if refused is not None:
            return refused
        self._check_emptying(p, self.hand_len[p], False, action)
        return None

    def _verify_lay_down(self, p: int, team: int, action: LayDown) -> IllegalAction | None:
        opened = self.opened[team]
        if not action.melds:
            return BadMeld("Say which cards to lay down.")
        if opened and len(action.melds) > 1:
            return BadMeld("Lay down one meld at a time once your team has opened.")
        if opened:
            pending = Pending()
            self._check_melds(team, action.melds, pending)
        else:
            pending = self._check_opening_melds(team, action.melds)
        given = _given(pending.used, self.hands[p])
        if given < 0:
            return CardsNotHeld(f"You do not hold {_needs(pending.used, self.hands[p])}.")
        if not opened:
            refused = self._opening_refusal(team, pending)
            if refused is not None:
                return refused
        self._check_black_threes(p, action.melds, self.hand_len[p] - given)
        self._check_emptying(p, self.hand_len[p] - given, False, action)
        return None

    def _verify_discard(self, p: int, action: Discard) -> IllegalAction | None:
        c = action.card
        if not 0 <= c < NUM_CARDS or not self.hands[p][c]:
            name = format_card(c) if 0 <= c < NUM_CARDS else str(c)
            return CardsNotHeld(f"You do not hold {name}.")
        self._check_emptying(p, self.hand_len[p] - 1, True)
        if self.must_go_out(p):
            return CannotGoOut("Your partner agreed to your going out: play the rest of "
                               "your cards (the last one may be your discard).")
        return None

    def _verify_end_turn(self, p: int) -> IllegalAction | None:
        if not self.may_end_turn and not self._stuck(p):
            return IllegalAction("End your turn with a discard.")
        if self.must_go_out(p):
            return CannotGoOut("Your partner agreed to your going out: play the rest of "
                               "your cards.")
        return None

    def _verify_ask(self, p: int, team: int) -> IllegalAction | None:
        if not self.rules.going_out.permission or self.rules.individuals:
            return IllegalAction("These rules do not ask a partner before going out.")
        if self.asked:
            return IllegalAction("You have already asked this turn.")
        if not self.in_foot[p]:
            return IllegalAction("You can ask to go out once you are in your foot.")
        missing = self.books_missing(team)
        if missing:
            # The player who can make them with the cards held this turn, and play the
            # rest, asks (the partners' part first: it is checked the same either way).
            if not self.may_ask_to_finish_books(p):
                return CannotGoOut(f"Your team cannot go out yet: it needs {missing}.")
            return None
        why = self.partners_missing(p)
        if why:
            return CannotGoOut(f"You cannot go out yet: {why}.")
        if self.rules.going_out.ask_when_able:
            why = self.out_this_turn_blocker(p)
            if why:
                return CannotGoOut("Ask only when you can play the rest of your cards "
                                   f"this turn: {why}.")
        return None

    def _whose_turn_text(self) -> str:
        if self.phase == PHASE_ASK:
            return f"It is seat {self.actor + 1}'s turn to answer."
        return f"It is not your turn: seat {self.actor + 1} is playing."

    def is_legal(self, action: Action, seat: int | None = None) -> bool:
        try:  # (as :meth:`refusal`, one call the fewer: asked at every listing)
            return self._refusal(action, seat) is None
        except IllegalAction:
            return False

    def apply(self, action: Action, seat: int | None = None) -> Played:
        """Check the action and carry it out, saying what it did; a refused action
        changes nothing."""
        self.verify(action, seat)
        return self.play(action)
