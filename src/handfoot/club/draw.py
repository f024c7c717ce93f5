"""The draw: partners and tables at random, seeded, honouring every restriction.

Everything random comes from ``random.Random(seed)``, so the same players, event and
seed always give the same draw: announce the seed before the draw (or draw it from a
hat) and anyone can repeat it with ``handfoot event draw``.

Partners are found by a randomised backtracking search over a shuffled order: the
player with the fewest possible partners left is placed first, with partners tried in
shuffled order, so every draw that honours the restrictions can come out. Restrictions
are hard: nobody is ever partnered with someone on their not-partner list (either way
round), nor, when the event says so, with someone of the same chapter. In later rounds
the draw also tries, as a wish that gives way when it cannot be met, not to repeat a
partnership and not to seat players at a table with someone they have already played
with or against; what could not be avoided is written in the draw's notes.

When the players do not fill the tables, the players left over either have a bye
(those with the fewest byes so far, in seeded order: byes go round fairly) or play a
table of individuals (one team per seat; 2 or 3 players left over play as such; 1 left
over joins a full table, making a table of 5 (or 7) individuals where the deck
allows; otherwise that player has a bye). In a round that keeps partners the players
left over are those of the round before; rounds that redraw rotate them.

>>> from handfoot.club.event import Event
>>> ev = Event.create("x", "classic", rounds=1)
>>> for n in "ABCDEFGH": ev.add_player(n, "", ["B"] if n == "A" else [])
>>> d = draw_round(ev, 1, seed=5)
>>> d == draw_round(ev, 1, seed=5), len(d.tables), check_draw(ev, d)
(True, 2, [])
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Iterable

from handfoot.club.event import Event, EventError, RoundDraw, TableAssignment
from handfoot.rules import Players, Rules, RulesError

#: search steps before a draw gives up (with the restrictions only)
BUDGET = 200_000
#: search steps before a draw gives up on a wish (no repeat partners)
WISH_BUDGET = 3_000


class DrawError(EventError):
    """No draw honours every restriction. ``players`` names those at fault."""

    def __init__(self, message: str, players: Iterable[str] = ()) -> None:
        super().__init__(message)
        self.players = tuple(players)


class _OutOfSteps(Exception):
    pass


# ------------------------------------------------------------------ partners


def _partition(ids: list[int], k: int, bad: set[frozenset[int]], rng: random.Random,
               budget: int = BUDGET) -> list[tuple[int, ...]] | None:
    """Split ``ids`` into groups of ``k`` with no pair from ``bad`` inside a group; None
    if there is none. Raises :class:`_OutOfSteps` when the search runs too long."""
    order = ids[:]
    rng.shuffle(order)
    pos = {p: i for i, p in enumerate(order)}
    ok = {p: [q for q in order if q != p and frozenset((p, q)) not in bad] for p in order}
    steps = [0]

    def rec(left: set[int]) -> list[tuple[int, ...]] | None:
        if not left:
            return []
        steps[0] += 1
        if steps[0] > budget:
            raise _OutOfSteps
        p = min(left, key=lambda x: (sum(1 for q in ok[x] if q in left), pos[x]))
        cands = [q for q in ok[p] if q in left]
        for rest in itertools.combinations(cands, k - 1):
            if any(frozenset(pair) in bad for pair in itertools.combinations(rest, 2)):
                continue
            found = rec(left - {p, *rest})
            if found is not None:
                return [(p, *rest), *found]
        return None

    return rec(set(ids))


def _hard_pairs(event: Event, ids: list[int]) -> set[frozenset[int]]:
    bad = event.forbidden_pairs()
    if event.avoid_same_chapter:
        for a, b in itertools.combinations(ids, 2):
            ca, cb = event.player(a).chapter, event.player(b).chapter
            if ca and ca.casefold() == cb.casefold():
                bad.add(frozenset((a, b)))
    return bad


def _why(event: Event, ids: list[int], bad: set[frozenset[int]], p: int) -> str:
    """A player's restrictions and whom they leave: "Ann (not Bob) may partner only Cy"."""
    names = event.name_of
    reasons = []
    pl = event.player(p)
    others = {event.by_name(o).id for o in pl.not_partners}
    others |= {q.id for q in event.players if any(
        o.casefold() == pl.name.casefold() for o in q.not_partners)}
    if others & set(ids):
        reasons.append("not " + ", ".join(names(o) for o in sorted(others & set(ids))))
    if event.avoid_same_chapter and pl.chapter:
        reasons.append(f"not chapter {pl.chapter}")
    allowed = [q for q in ids if q != p and frozenset((p, q)) not in bad]
    tail = ("nobody" if not allowed else "only " + ", ".join(names(q) for q in allowed)
            if len(allowed) <= 4 else f"{len(allowed)} players")
    return f"{names(p)} ({'; '.join(reasons)}) may partner {tail}"


def _precheck(event: Event, ids: list[int], k: int, bad: set[frozenset[int]]
              ) -> DrawError | None:
    """The plain reasons a draw is impossible, found without a search."""
    names = event.name_of
    n_teams = len(ids) // k

    def why(p: int) -> str:
        return _why(event, ids, bad, p)

    alone = [p for p in ids
             if sum(1 for q in ids if q != p and frozenset((p, q)) not in bad) < k - 1]
    if alone:
        return DrawError("No draw honours every restriction: "
                         + "; ".join(why(p) for p in alone) + ".",
                         [names(p) for p in alone])
    if event.avoid_same_chapter:
        counts = Counter(event.player(p).chapter.casefold() for p in ids
                         if event.player(p).chapter)
        for chapter, c in counts.most_common():
            if c > n_teams:
                members = [p for p in ids if event.player(p).chapter.casefold() == chapter]
                label = event.player(members[0]).chapter
                return DrawError(
                    f"No draw keeps chapters apart: chapter {label} has {c} of the "
                    f"{len(ids)} players, but there are only {n_teams} teams and each may "
                    f"hold one of them ({', '.join(names(p) for p in members)}).",
                    [names(p) for p in members])
    return None


def _explain(event: Event, ids: list[int], k: int, bad: set[frozenset[int]]) -> DrawError:
    """Say which players' restrictions cannot all be met."""
    names = event.name_of

    def why(p: int) -> str:
        return _why(event, ids, bad, p)

    early = _precheck(event, ids, k, bad)
    if early is not None:
        return early
    # Whose restrictions, dropped alone, would make a draw possible?
    rng = random.Random(0)
    by_restriction = sorted(ids, key=lambda p: -sum(1 for pair in bad if p in pair))
    culprits = []
    for p in by_restriction:
        relaxed = {pair for pair in bad if p not in pair}
        try:
            if _partition(ids, k, relaxed, rng, budget=20_000) is not None:
                culprits.append(p)
        except _OutOfSteps:
            continue
    if not culprits:
        culprits = by_restriction[:4]
    return DrawError("No draw honours every restriction; the restrictions of these players "
                     "cannot all be met together: " + "; ".join(why(p) for p in culprits)
                     + ".", [names(p) for p in culprits])


# -------------------------------------------------------------------- tables


def _met_before(event: Event, round_no: int) -> tuple[set[frozenset[int]],
                                                      set[frozenset[int]]]:
    """(partner pairs, pairs who sat at one table) in the rounds before ``round_no``."""
    partners: set[frozenset[int]] = set()
    met: set[frozenset[int]] = set()
    for r, d in event.draws.items():
        if r >= round_no:
            continue
        for t in d.tables:
            for team in t.team_list():
                partners.update(frozenset(p) for p in itertools.combinations(team, 2))
            met.update(frozenset(p) for p in itertools.combinations(t.seats, 2))
    return partners, met


def _arrange(teams: list[tuple[int, ...]], per_table: int, met: set[frozenset[int]],
             rng: random.Random, tries: int = 60) -> tuple[list[list[tuple[int, ...]]], int]:
    """Group teams into tables of ``per_table``, as few players meeting again as the
    seeded restarts find; returns (tables, pairs meeting again)."""

    def cost(a: tuple[int, ...], b: tuple[int, ...]) -> int:
        return sum(1 for x in a for y in b if frozenset((x, y)) in met)

    best: list[list[tuple[int, ...]]] = []
    best_cost = -1
    for _ in range(tries):
        left = teams[:]
        rng.shuffle(left)
        tables: list[list[tuple[int, ...]]] = []
        total = 0
        while left:
            table = [left.pop(0)]
            while len(table) < per_table:
                i = min(range(len(left)), key=lambda j: sum(cost(left[j], t) for t in table))
                total += sum(cost(left[i], t) for t in table)
                table.append(left.pop(i))
            tables.append(table)
        if best_cost < 0 or total < best_cost:
            best, best_cost = tables, total
        if best_cost == 0:
            break
    return best, best_cost


def individuals_rules(rules: Rules, n: int) -> Rules | None:
    """The event's rules for a table of ``n`` individuals, or None if they do not allow it."""
    if not 2 <= n <= 8:
        return None
    try:
        return dataclasses.replace(rules, players=Players(n, n))
    except RulesError:
        return None


# ---------------------------------------------------------------------- draw


def _leftover(event: Event, ids: list[int], seats: int, round_no: int,
              rng: random.Random) -> tuple[list[int], list[int], bool]:
    """(players in teams, players left over, whether the left-over play as individuals)."""
    r = len(ids) % seats
    if not r:
        return ids, [], False
    size = r
    individuals = False
    if event.odd_players == "individuals":
        if r >= 2 and individuals_rules(event.rules, r) is not None:
            individuals = True
        elif r == 1 and len(ids) > seats and individuals_rules(event.rules,
                                                               seats + 1) is not None:
            size, individuals = seats + 1, True
    history: Counter[int] = Counter()
    for rnd, d in event.draws.items():
        if rnd < round_no:
            history.update(d.byes)
            for t in d.tables:
                if t.individuals:
                    history.update(t.seats)
    order = ids[:]
    rng.shuffle(order)
    order.sort(key=lambda p: history[p])  # stable: the shuffle breaks ties
    left = sorted(order[:size])
    return [p for p in ids if p not in left], left, individuals


def draw_round(event: Event, round_no: int, seed: int) -> RoundDraw:
    """Draw round ``round_no`` (from 1) with ``seed``. Rounds after the first follow the
    event's partner policy and the draws already made. Raises :class:`DrawError`."""
    if not 1 <= round_no <= event.rounds:
        raise EventError(f"the event has rounds 1 to {event.rounds}, not {round_no}")
    missing = [r for r in range(1, round_no) if r not in event.draws]
    if missing:
        raise EventError(f"draw round {missing[0]} first")
    seats, per_table = event.rules.players.seats, event.rules.players.teams
    ids = [p.id for p in event.players]
    if len(ids) < seats:
        raise EventError(f"{len(ids)} players cannot fill a table of {seats}")
    rng = random.Random(seed)
    partners_before, met = _met_before(event, round_no)
    notes: list[str] = []
    if round_no > 1 and event.policy_for(round_no) == "keep":
        teams, leftover, individuals = _kept_partners(event, round_no, ids)
    else:
        teams, leftover, individuals = _new_partners(event, round_no, ids, rng,
                                                     partners_before, notes)
    groups, again = _arrange(list(teams), per_table, met, rng)
    if again:
        notes.append(f"{again} pair(s) of players meet again at a table")
    tables = _seat_tables(groups, seats, per_table, rng)
    byes: tuple[int, ...] = ()
    if leftover and individuals:
        seat_list = leftover[:]
        rng.shuffle(seat_list)
        tables.append(TableAssignment(len(tables) + 1, tuple(seat_list), len(seat_list), True))
    elif leftover:
        byes = tuple(sorted(leftover))
    return RoundDraw(round_no, seed, tuple(tables), byes, tuple(notes))


def _kept_partners(event: Event, round_no: int, ids: list[int]
                   ) -> tuple[list[tuple[int, ...]], list[int], bool]:
    """The partnerships of the round before, kept: (teams, players left over, whether
    those play as individuals at a table of their own)."""
    prev = event.draws[round_no - 1]
    teams = prev.teams()
    leftover_tables = [t for t in prev.tables if t.individuals]
    placed = {p for t in teams for p in t} | {p for t in leftover_tables for p in t.seats}
    new = [event.name_of(p) for p in ids if p not in placed and p not in prev.byes]
    if new:
        raise EventError(f"partners are kept from round {round_no - 1}, but these players "
                         f"were not in its draw: {', '.join(new)}")
    leftover = sorted(p for t in leftover_tables for p in t.seats) or list(prev.byes)
    return list(teams), leftover, bool(leftover_tables)


def _new_partners(event: Event, round_no: int, ids: list[int], rng: random.Random,
                  partners_before: set[frozenset[int]], notes: list[str]
                  ) -> tuple[list[tuple[int, ...]], list[int], bool]:
    """Partnerships drawn afresh, honouring every restriction, avoiding partners of
    earlier rounds where possible (a note says how many repeat): (teams, players left
    over, whether those play as individuals)."""
    seats, per_table = event.rules.players.seats, event.rules.players.teams
    k = seats // per_table
    active, leftover, individuals = _leftover(event, ids, seats, round_no, rng)
    bad = _hard_pairs(event, ids)
    attempts = [active]
    if leftover:  # other fair choices of who sits out, should this one fail
        for _ in range(20):
            a2, _l2, _i2 = _leftover(event, ids, seats, round_no, rng)
            attempts.append(a2)
    for act in attempts:
        if _precheck(event, act, k, bad) is not None:
            continue
        found = _partners_for(event, act, k, bad, partners_before, rng, notes)
        if found is not None:
            if act is not active:
                leftover = sorted(set(ids) - set(act))
            return found, leftover, individuals
    raise _explain(event, active, k, bad)


def _partners_for(event: Event, players: list[int], k: int, bad: set[frozenset[int]],
                  partners_before: set[frozenset[int]], rng: random.Random,
                  notes: list[str]) -> list[tuple[int, ...]] | None:
    """Teams of ``k`` from ``players``: without earlier partners if that can be found
    within the wish budget, else with as few restrictions as must hold."""
    try:
        return _partition(players, k, bad | partners_before, rng, WISH_BUDGET)
    except _OutOfSteps:
        pass
    found = _partition_or_fail(players, k, bad, rng)
    if found is not None:
        repeats = [t for t in found if any(frozenset(pair) in partners_before
                                           for pair in itertools.combinations(t, 2))]
        notes.append(f"{len(repeats)} partnership(s) repeat an earlier round: "
                     + ", ".join(event.team_name(t) for t in repeats))
    return found


def _partition_or_fail(players: list[int], k: int, bad: set[frozenset[int]],
                       rng: random.Random) -> list[tuple[int, ...]] | None:
    try:
        return _partition(players, k, bad, rng)
    except _OutOfSteps as e:
        raise DrawError("the draw could not be completed within its search "
                        "limit; the restrictions leave very few choices") from e


def _seat_tables(groups: list[list[tuple[int, ...]]], seats: int, per_table: int,
                 rng: random.Random) -> list[TableAssignment]:
    """Each group of teams at a table, partners across from each other, the order of
    teams and of each team's players shuffled."""
    tables: list[TableAssignment] = []
    for number, group in enumerate(groups, start=1):
        order = [list(t) for t in group]
        rng.shuffle(order)
        for t in order:
            rng.shuffle(t)
        seat_list = [order[s % per_table][s // per_table] for s in range(seats)]
        tables.append(TableAssignment(number, tuple(seat_list), per_table))
    return tables


def check_draw(event: Event, draw: RoundDraw) -> list[str]:
    """Every rule a draw must keep, checked; the list of what it breaks (empty: none)."""
    problems = []
    seen = Counter([p for t in draw.tables for p in t.seats] + list(draw.byes))
    for p in event.players:
        if seen[p.id] != 1:
            problems.append(f"{p.name} is placed {seen[p.id]} times")
    bad = event.forbidden_pairs()
    rules = event.rules
    for t in draw.tables:
        size = len(t.seats)
        if not t.individuals and (size != rules.players.seats or t.teams != rules.players.teams):
            problems.append(f"table {t.number} has {size} seats and {t.teams} teams")
        if t.individuals:
            continue
        for team in t.team_list():
            for a, b in itertools.combinations(team, 2):
                if frozenset((a, b)) in bad:
                    problems.append(f"{event.team_name((a, b))} may not be partners")
                ca, cb = event.player(a).chapter, event.player(b).chapter
                if event.avoid_same_chapter and ca and ca.casefold() == cb.casefold():
                    problems.append(f"{event.team_name((a, b))} are both of chapter {ca}")
    return problems
