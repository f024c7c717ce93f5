"""The old way of listing openings, kept as a test oracle (not the engine's path).

Before the engine listed moves one meld at a time, it listed every whole opening a
hand could lay down at once, by enumerating combinations of melds (exponential in the
hand). The property tests check, for small hands, that the openings reachable by
laying melds out one at a time and going down are exactly the ones this lists.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations_with_replacement

from handfoot.cards import JOKER, NATURAL, NUM_CARDS, RANK, Card
from handfoot.engine import Hand, IllegalAction
from handfoot.engine.melds import TWOS, Pending


def _fits(m: Sequence[Card], used: list[int], hand: list[int]) -> bool:
    need = [0] * NUM_CARDS
    for c in m:
        need[c] += 1
    return all(used[c] + need[c] <= hand[c] for c in set(m))


def _plus(used: list[int], cards: Sequence[Card]) -> list[int]:
    out = used[:]
    for c in cards:
        out[c] += 1
    return out


class OldOpenings:
    """The old enumeration of whole openings, over a hand's own checks."""

    def __init__(self, hand: Hand) -> None:
        self.hand = hand

    def openings(self) -> list[tuple[tuple[Card, ...], ...]]:
        """Every opening the old engine listed for the player to act."""
        h = self.hand
        p = h.actor
        return [m for m in self._opening_options(p, h.hands[p], h._table_state(h.team_of[p]))
                if self._opening_ok(p, m)]

    def _pick(self, hand: list[int], candidates: Sequence[Card], n: int) -> list[tuple[Card, ...]]:
        """Ways to take ``n`` cards among ``candidates`` from ``hand``, one per
        interchangeable choice."""
        avail = [(c, hand[c]) for c in candidates if hand[c]]
        total = sum(k for _, k in avail)
        if n > total:
            return []
        if n == 0:
            return [()]
        if not self.hand.rules.suits_matter or len(avail) == 1:
            out: list[Card] = []
            for c, k in avail:
                take = min(k, n - len(out))
                out.extend([c] * take)
                if len(out) == n:
                    break
            return [tuple(out)]
        cards = [c for c, _ in avail]
        limit = dict(avail)
        ways = []
        for combo in combinations_with_replacement(cards, n):
            if all(combo.count(c) <= limit[c] for c in set(combo)):
                ways.append(combo)
        return ways

    def _wild_options(self, hand: list[int], max_w: int) -> list[tuple[Card, ...]]:
        """Choices of up to ``max_w`` wild cards (twos are interchangeable; jokers too)."""
        twos = sum(hand[c] for c in TWOS)
        jokers = hand[JOKER]
        out: list[tuple[Card, ...]] = []
        two_cards = [c for c in TWOS for _ in range(hand[c])]
        for j in range(min(jokers, max_w) + 1):
            for t in range(min(twos, max_w - j) + 1):
                out.append(tuple(two_cards[:t]) + (JOKER,) * j)
        return out

    def _rank_options(self, hand: list[int], rank: int,
                      wilds: list[tuple[Card, ...]]) -> Iterator[tuple[Card, ...]]:
        """New melds of one rank from ``hand``, with each of the ``wilds`` choices."""
        rules = self.hand.rules.meld
        base = (rank - 2) * 4
        have = hand[base] + hand[base + 1] + hand[base + 2] + hand[base + 3]
        suits = range(base, base + 4)
        for n in range(rules.min_naturals, have + 1):
            for w in wilds:
                k = len(w)
                if n + k < rules.min_size or k > rules.max_wilds:
                    continue
                if rules.naturals_exceed_wilds and k >= n:
                    continue
                if any(hand[c] < w.count(c) for c in set(w)):
                    continue
                for nat in self._pick(hand, suits, n):
                    yield tuple(sorted(nat + w))

    def _meld_options(self, seat: int, hand: list[int],
                      tables: tuple[list[int], list[int], bool]
                      ) -> Iterator[tuple[Card, ...]]:
        """Every single new meld the hand could lay on this team's table."""
        rules = self.hand.rules.meld
        open_ranks, book_ranks, wild_open = tables
        wild_ok = not (wild_open and rules.wild_meld_blocks_wilds)
        no_wild: list[tuple[Card, ...]] = [()]
        wilds = self._wild_options(hand, rules.max_wilds) if wild_ok else no_wild
        for rank in range(4, 15):
            base = (rank - 2) * 4
            have = hand[base] + hand[base + 1] + hand[base + 2] + hand[base + 3]
            if have < rules.min_naturals:
                continue
            if rules.one_open_meld_per_rank and open_ranks[rank]:
                continue
            if rules.books_per_rank and (book_ranks[rank] + open_ranks[rank]
                                         >= rules.books_per_rank):
                continue
            yield from self._rank_options(hand, rank, wilds)
        if rules.wild_melds and not wild_open:
            for w in self._wild_options(hand, rules.book_size):
                if len(w) >= rules.min_size:
                    yield tuple(sorted(w))
        if rules.sequences:
            for suit in range(4):
                run: list[Card] = []
                for rank in range(4, 16):
                    c = (rank - 2) * 4 + suit
                    if rank <= 14 and hand[c]:
                        run.append(c)
                        continue
                    for i in range(len(run)):
                        for j in range(i + rules.min_size, min(len(run), i + rules.book_size) + 1):
                            yield tuple(run[i:j])
                    run = []

    def _opening_options(self, seat: int, hand: list[int],
                         tables: tuple[list[int], list[int], bool]
                         ) -> Iterator[tuple[tuple[Card, ...], ...]]:
        """Every non-empty set of new melds the hand could lay at once: at most one meld
        of a rank unless the one before it is already a complete book."""
        size = self.hand.rules.meld.book_size
        singles = list(dict.fromkeys(self._meld_options(seat, hand, tables)))
        groups: dict[int, list[tuple[Card, ...]]] = {}
        for m in singles:
            naturals = [c for c in m if NATURAL[c]]
            key = RANK[naturals[0]] if naturals and len({RANK[c] for c in naturals}) == 1 \
                else 100 + len(groups)
            groups.setdefault(key, []).append(m)
        slots = list(groups.items())
        wild_ok = not (tables[2] and self.hand.rules.meld.wild_meld_blocks_wilds)
        seen: set[tuple[tuple[Card, ...], ...]] = set()

        def grow(i: int, chosen: list[tuple[Card, ...]], used: list[int]
                 ) -> Iterator[tuple[tuple[Card, ...], ...]]:
            if i == len(slots):
                if chosen:
                    melds = tuple(sorted(chosen))
                    if melds not in seen:
                        seen.add(melds)
                        yield melds
                return
            yield from grow(i + 1, chosen, used)
            rank, options = slots[i]
            for m in options:
                if not _fits(m, used, hand):
                    continue
                chosen.append(m)
                after = _plus(used, m)
                yield from grow(i + 1, chosen, after)
                if len(m) >= size and rank < 100:
                    # A complete book: another meld of its rank may be laid with it,
                    # from the cards the book leaves.
                    rest = [hand[c] - after[c] for c in range(NUM_CARDS)]
                    no_wild: list[tuple[Card, ...]] = [()]
                    wilds = (self._wild_options(rest, self.hand.rules.meld.max_wilds)
                             if wild_ok else no_wild)
                    for m2 in self._rank_options(rest, rank, wilds):
                        chosen.append(m2)
                        yield from grow(i + 1, chosen, _plus(after, m2))
                        chosen.pop()
                chosen.pop()

        yield from grow(0, [], [0] * NUM_CARDS)

    def _opening_ok(self, seat: int, melds: tuple[tuple[Card, ...], ...]) -> bool:
        team = self.hand.team_of[seat]
        pending = Pending()
        try:
            self.hand._check_melds(team, melds, pending)
            if self.hand._opening_refusal(team, pending) is not None:
                return False
            self.hand._check_emptying(seat, self.hand.hand_len[seat] - sum(pending.used), False)
        except IllegalAction:
            return False
        return True

