"""``expert``: a search player for imperfect information.

At the decisions that matter (draw or take the pile, which card to discard, how to
answer a partner who asks to go out, and the next play against stopping to discard)
the expert takes the best few candidates of its own policy (:mod:`handfoot.bots.policy`:
the heuristic with patient wilds) and scores each by determinized Monte Carlo: it deals
the cards it cannot see at random in a way consistent with everything its seat knows
(:func:`sample_world`: the unseen cards are the full deck minus its own hand, every
meld, the red 3s on the boards, the pile as the public history shows it, and the cards
other players were seen taking from the pile, which stay in their hands), builds a
:class:`~handfoot.engine.Hand` for each such world, plays the candidate, then lets its
team play its policy and the other seats the heuristic for a few turns, and scores the
result: a finished hand by its team's lead, one cut short by a fitted static evaluation
(:mod:`handfoot.bots.evaluation`). The same worlds are used for every candidate, so the
comparison is not drowned by the luck of the deal. Every other decision is its policy's.

The budget is a number of worlds per decision (``worlds``), each played for at most
``turns`` turns; the search and its sampling are seeded from the bot's seed and the
decision's place in the hand, so the same view with the same seed gives the same choice,
however busy the machine. A time cap per decision (``max_seconds``) can be set where
answering quickly matters more than repeating a game exactly; by default there is none
(the budget keeps the median decision near a fiftieth of a second).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Final

from mypy_extensions import mypyc_attr

from handfoot.actions import (
    DRAW,
    NO,
    YES,
    Action,
    Discard,
    Draw,
    EndTurn,
    TakePile,
    TakeUpcard,
)
from handfoot.bots.evaluation import squash, value, weights_for
from handfoot.bots.heuristic import (
    Obs,
    fallback,
    obs_from_hand,
    obs_from_view,
    rules_of,
    wishes,
)
from handfoot.bots.policy import decide_patient, patient_wishes, pile_too_risky, rushed
from handfoot.bots.risk import books_short, caught, ends_list, hand_ends, hand_ends_within
from handfoot.cards import NUM_CARDS, RANK, SUIT, WILD, Card
from handfoot.engine import RANK_MELD, SEQUENCE, WILD_MELD, Hand, Phase, count_books, full_deck
from handfoot.game.scoring import score_hand
from handfoot.game.views import View
from handfoot.rules import Rules

_KINDS = {"rank": RANK_MELD, "sequence": SEQUENCE, "wild": WILD_MELD}
_PHASES = {"draw": Phase.DRAW, "play": Phase.PLAY, "ask": Phase.ASK}


def public_pile(view: View, rules: Rules) -> list[Card | None] | None:
    """The discard pile as the public history shows it (None for a card nobody saw),
    or None if the history cannot account for it (a reshuffle)."""
    pile: list[Card | None] = [None] if rules.deal.upcard else []
    for _, a in view.history:
        if isinstance(a, Discard):
            pile.append(a.card)
        elif isinstance(a, TakeUpcard):
            if not pile:
                return None
            pile.pop()
        elif isinstance(a, TakePile):
            count = a.count or _default_count(rules, len(pile))
            if count > len(pile):
                return None
            del pile[len(pile) - count:]
    if len(pile) != view.pile_size:
        return None
    if pile and view.pile_top is not None:
        pile[-1] = view.pile_top
    return pile


def _default_count(rules: Rules, size: int) -> int:
    p = rules.pile
    if p.take_max == 0:
        low = min(p.take_min, size) if p.take_min else size
        return max(low, 1)
    return min(p.take_min, size)


class _Unseen:
    """The cards of the deck not yet accounted for by what a seat sees."""

    def __init__(self, rules: Rules) -> None:
        self.pool = [0] * NUM_CARDS
        for c in full_deck(rules):
            self.pool[c] = self.pool[c] + 1

    def take(self, c: Card) -> bool:
        """Account for one ``c``; False if the deck holds no more of it (a view that
        cannot be rebuilt)."""
        if self.pool[c] <= 0:
            return False
        self.pool[c] = self.pool[c] - 1
        return True

    def take_all(self, cards: Sequence[Card]) -> bool:
        return all(self.take(c) for c in cards)

    def shuffled(self, rng: random.Random) -> list[Card]:
        cards = [c for c in range(NUM_CARDS) for _ in range(self.pool[c])]
        rng.shuffle(cards)
        return cards


_WorldMeld = tuple[int, int, int, Sequence[Card]]


def _seen_melds(view: View, unseen: _Unseen) -> list[list[_WorldMeld]] | None:
    """Each team's melds as ``Hand.from_world`` takes them, their cards and the red 3s
    accounted for (None where the view holds more of a card than the deck)."""
    melds: list[list[_WorldMeld]] = []
    for t in view.teams:
        ms: list[_WorldMeld] = []
        for m in t.melds:
            if not unseen.take_all(m.cards):
                return None
            kind = _KINDS[m.kind]
            # a meld of one rank: the rank of its cards that are not wild (black 3s too,
            # which are not naturals but make a meld where the rules allow it)
            plain = [c for c in m.cards if not WILD[c]]
            rank = RANK[plain[0]] if kind == RANK_MELD and plain else 0
            suit = SUIT[m.cards[0]] if kind == SEQUENCE else -1
            ms.append((kind, rank, suit, list(m.cards)))
        melds.append(ms)
        if not unseen.take_all(t.red_threes):
            return None
    return melds


def _seen_pile(view: View, rules: Rules) -> list[Card | None]:
    """The pile as far as the seat knows it: None for each card it cannot see."""
    pile = public_pile(view, rules)
    if pile is None:
        pile = [None] * view.pile_size
        if view.pile_top is not None and pile:
            pile[-1] = view.pile_top
    return pile


def _unseen_needed(view: View, pile: Sequence[Card | None]) -> int:
    """How many cards the seat cannot see: other hands, every foot, the stock, the
    pile's hidden cards."""
    me = view.seat
    need = sum(p.hand_count - len(p.known) for p in view.players if p.seat != me)
    need += sum(p.foot_count for p in view.players)
    return need + view.stock_size + sum(1 for c in pile if c is None)


def _turn_facts(view: View, rules: Rules) -> tuple[int, bool, bool]:
    """From the history: turns ended so far, whether the player asked to go out this
    turn, and whether the turn may end without a discard (the upcard taken where the
    rules allow that)."""
    turn_enders = sum(1 for _, a in view.history
                      if isinstance(a, Discard) or isinstance(a, EndTurn))  # noqa: SIM101
    this_turn = []
    for _s, a in reversed(view.history):
        if isinstance(a, Discard) or isinstance(a, EndTurn):  # noqa: SIM101
            break
        this_turn.append(a)
    may_end = (rules.turn.first_turn_upcard == "take-no-discard"
               and any(isinstance(a, TakeUpcard) for a in this_turn))
    return turn_enders, any(a.kind == "ask" for a in this_turn), may_end


def sample_world(view: View, rules: Rules, rng: random.Random) -> Hand | None:
    """A hand consistent with ``view``: the cards the seat cannot see dealt at random.
    None where the view cannot be rebuilt (while hands are chosen, or at the end)."""
    if view.phase not in _PHASES or view.seat is None:
        return None
    me = view.seat
    unseen = _Unseen(rules)
    if not unseen.take_all(view.hand):
        return None
    melds = _seen_melds(view, unseen)
    pile = _seen_pile(view, rules)
    if melds is None or not unseen.take_all([x for x in pile if x is not None]):
        return None
    n = len(view.players)
    hands: list[list[int]] = [[0] * NUM_CARDS for _ in range(n)]
    known: list[list[int]] = [[0] * NUM_CARDS for _ in range(n)]
    for c in view.hand:
        hands[me][c] = hands[me][c] + 1
    for p in view.players:
        if p.seat == me:
            continue
        for c in p.known:
            if not unseen.take(c):
                return None
            hands[p.seat][c] = hands[p.seat][c] + 1
            known[p.seat][c] = known[p.seat][c] + 1
    cards = unseen.shuffled(rng)
    if _unseen_needed(view, pile) != len(cards):
        return None
    feet, full_pile, stock = _deal_unseen(view, cards, hands, pile)
    turns, asked, may_end = _turn_facts(view, rules)
    return Hand.from_world(
        rules, hands=hands, feet=feet, in_foot=[p.in_foot for p in view.players],
        foot_turns=[p.foot_turns for p in view.players], known=known, melds=melds,
        opened=[t.opened for t in view.teams],
        red_threes=[list(t.red_threes) for t in view.teams], pile=full_pile,
        pile_wilds=1 if view.pile_has_wild else 0, stock=stock, seat=view.turn,
        actor=view.actor, phase=_PHASES[view.phase], turn_number=turns,
        asked=asked, permission=view.permission,
        may_end_turn=may_end, hand_number=view.hand_number,
        minimums=[t.minimum for t in view.teams], team_scores=[t.total for t in view.teams],
        rng=random.Random(rng.getrandbits(32)))


def _deal_unseen(view: View, cards: Sequence[Card], hands: list[list[int]],
                 pile: Sequence[Card | None]
                 ) -> tuple[list[list[Card] | None], list[Card], list[Card]]:
    """The shuffled unseen ``cards`` dealt, in order: each other seat's unknown cards
    (into ``hands``), each foot not picked up, the pile's hidden cards, the stock.
    Returns the feet, the whole pile and the stock."""
    pos = 0
    feet: list[list[Card] | None] = []
    for p in view.players:
        if p.seat != view.seat:
            k = p.hand_count - len(p.known)
            for c in cards[pos:pos + k]:
                hands[p.seat][c] = hands[p.seat][c] + 1
            pos += k
        if p.in_foot:
            feet.append(None)
        else:
            feet.append(list(cards[pos:pos + p.foot_count]))
            pos += p.foot_count
    full_pile: list[Card] = []
    for x in pile:
        if x is None:
            full_pile.append(cards[pos])
            pos += 1
        else:
            full_pile.append(x)
    return feet, full_pile, list(cards[pos:pos + view.stock_size])


def rollout(hand: Hand, turns: int, max_actions: int = 3000, team: int | None = None) -> None:
    """Play every seat for ``turns`` turns (or to the end of the hand): the seats of
    ``team`` by the expert's own policy (:mod:`handfoot.bots.policy`), the others by
    the heuristic."""
    ended = 0
    team_of = hand.team_of
    ok = hand.is_legal
    for _ in range(max_actions):
        if hand.phase == Phase.OVER or ended >= turns:
            return
        actor = hand.actor
        o = obs_from_hand(hand, actor)
        # the first wish the engine accepts, as decide and decide_patient choose; the
        # legal moves are listed only where no wish is legal (listing them at every
        # step was half of a rollout's time)
        found: Action | None = None
        for a in (patient_wishes(o, ok, _rollout_ends(hand, actor)) if team_of[actor] == team
                  else wishes(o, ok)):
            if ok(a):
                found = a
                break
        if found is None:
            legal = hand.legal()
            if not legal:
                # A sampled world can be one no real deal leads to (other hands and feet
                # are guesses) and leave a seat without a move (found with black 3s
                # melded only to go out): the rollout stops there and the world is
                # judged as it stands.
                return
            found = fallback(o, legal)
        action = found
        if isinstance(action, Discard) or isinstance(action, EndTurn):  # noqa: SIM101
            ended += 1
        hand.push(action)


def _rollout_ends(hand: Hand, seat: int) -> list[float]:
    """What the policy reads of the risk of being caught in a rollout, only as far as it
    reads it: the whole list before a draw with a pile to take, the next turn's chance
    while playing (:func:`handfoot.bots.policy.rushed`)."""
    phase = hand.phase
    if phase == Phase.DRAW:
        return hand_ends(hand, seat) if len(hand.pile) > 1 else []
    if phase == Phase.PLAY:
        return [0.0, hand_ends_within(hand, seat, 1)]
    return []


def evaluate(hand: Hand, team: int, scale: float = 400.0) -> float:
    """How good the hand's score is for ``team``: its lead over the best other team,
    squashed (winning the hand matters more than by how much), between -1 and 1."""
    scores = [s.total for s in score_hand(hand)]
    lead = scores[team] - max(v for t, v in enumerate(scores) if t != team)
    return squash(lead, scale)


#: how much of the risk of being caught (:func:`handfoot.bots.risk.caught`, in points)
#: the evaluation of a hand cut short counts, in the squashed lead's units (a lead of
#: ``RISK_SCALE`` points near 0 moves it by about 1/RISK_SCALE a point)
RISK_SCALE: Final = 400.0


def estimate(hand: Hand, team: int) -> float:
    """:func:`evaluate` for a hand that is over; for one cut short, the fitted static
    value (:mod:`handfoot.bots.evaluation`) less the points the team may expect to lose
    by being caught, more those the other teams may (:func:`handfoot.bots.risk.caught`,
    in the squashed lead's units)."""
    if hand.phase == Phase.OVER:
        return evaluate(hand, team)
    v = value(hand, team, weights_for(hand.rules))
    others = [caught(hand, t) for t in range(hand.teams) if t != team]
    risk = caught(hand, team) - sum(others) / max(len(others), 1)
    return max(-1.0, min(1.0, v - risk / RISK_SCALE))


def view_ends(view: View, o: Obs) -> list[float]:
    """The chance that the hand ends before the seat's 0th, 1st, ... next turn
    (:func:`handfoot.bots.risk.ends_list`), read from its view."""
    rules = o.rules
    size = o.settings.book_size
    short = [books_short(rules.going_out, count_books(ms, size)) for ms in o.melds]
    return ends_list(rules, o.seat, [p.hand_count for p in view.players],
                     [p.in_foot for p in view.players], short, view.stock_size)


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class ExpertBot:
    """Determinized Monte Carlo over its policy's best candidates (``hard``)."""

    name = "expert"
    uses_view = True
    reads_state = True  #: (said: see HeuristicBot)

    def __init__(self, seed: int = 0, worlds: int = 32, turns: int = 16,
                 candidates: int = 3, max_seconds: float | None = None, margin: float = 1.0,
                 play_search: bool = True, plays: int = 3) -> None:
        self.plays = plays
        self.seed = seed
        self.play_search = play_search
        self.margin = margin
        self.worlds = worlds
        self.turns = turns
        self.candidates = candidates
        self.max_seconds = max_seconds
        self.searched = 0  #: decisions that were searched (for the benchmark)

    def candidate_actions(self, view: View, legal: Sequence[Action]) -> list[Action]:
        """Its policy's best few legal actions here, best first (one: no search).
        Drawing: each way to take the pile (or the upcard) and drawing. Playing: the
        policy's choice, the next plays of other kinds or on other melds (``plays`` in
        all, measured in docs/bots.md), and the best discards (stopping there)."""
        rules = rules_of(view, legal)
        o = obs_from_view(view, rules)
        ok = legal.__contains__
        if view.phase == "ask":
            return [a for a in (YES, NO) if ok(a)]
        if view.phase not in ("draw", "play"):
            return [decide_patient(o, ok, legal)]
        ends = view_ends(view, o)
        rush = view.phase == "play" and rushed(ends)
        risky: bool | None = None  # (asked at the first way to take the pile)
        out: list[Action] = []
        kinds: set[tuple[str, int]] = set()
        discards = 0
        for a in patient_wishes(o, ok, ends):
            if a in out or not ok(a):
                continue
            if view.phase == "draw":
                if isinstance(a, TakePile):
                    # a pile that risks more than it is worth (its policy's judgement) is
                    # not weighed: played out, the chance of a big win with it can
                    # outweigh a likely heavy loss (docs/bots.md)
                    if risky is None:
                        risky = pile_too_risky(o, ends)
                    if risky:
                        continue
                if ((isinstance(a, TakePile) or isinstance(a, Draw)  # noqa: SIM101
                     or isinstance(a, TakeUpcard)) and len(out) < self.candidates):
                    out.append(a)
                continue
            if not out and not self.play_search and not isinstance(a, Discard):
                return [a]  # melding and adding: its policy's call
            if isinstance(a, Discard):
                if out and WILD[a.card]:
                    break  # a wild is thrown only where its policy throws it first
                if rush and out and not isinstance(out[0], Discard):
                    break  # being caught is likely: it plays off what it can first
                if discards < self.candidates - (1 if out and not isinstance(out[0], Discard)
                                                 else 0):
                    out.append(a)
                    discards += 1
                    continue
                break
            key = (a.kind, getattr(a, "meld", -1))
            if key in kinds:
                continue
            kinds.add(key)
            if len(out) < self.plays:
                out.append(a)
        if view.phase == "draw" and DRAW not in out and ok(DRAW):
            out.append(DRAW)
        return out

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        if view is None:
            return legal[0]
        rules = rules_of(view, legal)
        cands = self.candidate_actions(view, legal)
        if not cands:
            o = obs_from_view(view, rules)
            return decide_patient(o, legal.__contains__, legal, view_ends(view, o))
        if len(cands) == 1:
            return cands[0]
        return self.search(view, rules, cands)

    def world(self, view: View, rules: Rules, rng: random.Random) -> Hand | None:
        """One world to weigh the candidates in: :func:`sample_world`, the cards the seat
        cannot see dealt at random (:mod:`handfoot.research.seeing` deals them from the
        true hand instead, to measure what knowing them would be worth)."""
        return sample_world(view, rules, rng)

    def search(self, view: View, rules: Rules, cands: list[Action]) -> Action:
        """Score every candidate on the same sampled worlds; move away from the
        policy's first choice only when another is better by a clear margin (the
        mean paired difference above ``margin`` standard errors)."""
        assert view.seat is not None
        self.searched += 1
        rng = random.Random(hash((self.seed, view.hand_number, len(view.history), view.seat)))
        team = view.players[view.seat].team
        diffs: list[list[float]] = [[] for _ in cands]
        deadline = None if self.max_seconds is None else time.perf_counter() + self.max_seconds
        for _ in range(self.worlds):
            world = self.world(view, rules, rng)
            if world is None:
                break
            values = []
            for a in cands:
                h = world.clone()
                if not h.is_legal(a):
                    values.append(-10.0)
                    continue
                h.push(a)
                rollout(h, self.turns, team=team)
                values.append(estimate(h, team))
            for i, v in enumerate(values):
                diffs[i].append(v - values[0])
            if deadline is not None and time.perf_counter() > deadline:
                break
        best, best_mean = 0, 0.0
        for i in range(1, len(cands)):
            d = diffs[i]
            if len(d) < 2:
                continue
            mean = sum(d) / len(d)
            var = sum((x - mean) ** 2 for x in d) / (len(d) - 1)
            se = (var / len(d)) ** 0.5
            if mean > best_mean and mean > self.margin * se:
                best, best_mean = i, mean
        return cands[best]


__all__ = ["RISK_SCALE", "ExpertBot", "estimate", "evaluate", "public_pile", "rollout",
           "sample_world", "view_ends"]
