"""Standings by team, by player and by chapter, from the results entered so far.

* A team is a partnership: the same players together at a table. Its points are the
  sum of its totals in the rounds it played together (with "keep" partners, every
  round; with "redraw", usually one). Players at a table of individuals are in the
  player standings only.
* A player's points are the sum of their team's totals (their own at a table of
  individuals). A player who had a bye is credited, for each bye, with the average
  of the games they played (shown apart as ``bye_credit``), so a bye neither helps
  nor hurts.
* A chapter's points are the average of its players' points (bye credit included),
  so a large chapter has no advantage over a small one. Players without a chapter
  are left out.

Entries with equal points share a place. A tie for first place is broken as the rule
set says (``game.tie_break``): "high-card" is a seeded high-card draw
(:func:`high_card_draw`), "playoff-hand" a short play-off whose winner the organiser
enters (:func:`record_playoff`; a high-card draw may stand in when time dictates),
"none" leaves first place shared. Each tie-break is kept with the event, and a
standing shows who won it.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field

from handfoot.club.event import Event, EventError, TieBreak

KINDS = ("team", "player", "chapter")


@dataclass(frozen=True, slots=True)
class Line:
    place: int
    shared: bool  #: the place is shared (a tie not broken)
    key: str
    name: str
    members: tuple[int, ...]
    games: int
    points: float  #: what the ranking uses (chapters: an average per player)
    won: int = 0  #: games in which this team (player's team) had the top score
    byes: int = 0
    bye_credit: int = 0
    note: str = ""

    @property
    def place_text(self) -> str:
        return f"{self.place}=" if self.shared else str(self.place)


@dataclass(frozen=True, slots=True)
class Standings:
    teams: list[Line]
    players: list[Line]
    chapters: list[Line]
    missing: list[tuple[int, int]]  #: (round, table) still without a result
    pending: dict[str, list[str]] = field(default_factory=dict)  #: ties for first, unbroken

    def by_kind(self, kind: str) -> list[Line]:
        return {"team": self.teams, "player": self.players, "chapter": self.chapters}[kind]

    @property
    def complete(self) -> bool:
        return not self.missing


def team_key(members: tuple[int, ...] | list[int]) -> str:
    return "t" + "-".join(str(m) for m in sorted(members))


def _rank(kind: str, event: Event, lines: list[Line], pending: dict[str, list[str]],
          games: dict[str, tuple[tuple[int, int, int], ...]] | None = None) -> list[Line]:
    """Places; ``games`` (players only): who played which game on which team, so that
    partners who played every game together share a place without a tie-break."""
    lines.sort(key=lambda x: (-x.points, x.name.casefold()))
    out: list[Line] = []
    top = [x for x in lines if lines and x.points == lines[0].points]
    winner = None
    if len(top) > 1 and any(x.games for x in top):
        tied = {x.key for x in top}
        for tb in event.tie_breaks:
            if tb.kind == kind and set(tb.tied) == tied:
                winner = tb.winner
        partners = games is not None and len({games.get(x.key, ()) for x in top}) == 1
        if winner is None and event.rules.game.tie_break != "none" and not partners:
            pending[kind] = sorted(tied)
    for x in lines:
        ahead = sum(1 for y in lines if y.points > x.points)
        same = sum(1 for y in lines if y.points == x.points)
        place, shared, note = ahead + 1, same > 1, x.note
        if winner is not None and x in top:
            if x.key == winner:
                place, shared = 1, False
                tb = [t for t in event.tie_breaks if t.kind == kind and t.winner == winner][-1]
                note = "won the tie-break" + (" (high-card draw)" if tb.method == "high-card"
                                               else " (play-off)")
            else:
                place, shared = 2, len(top) > 2
        out.append(Line(place, shared, x.key, x.name, x.members, x.games, x.points, x.won,
                        x.byes, x.bye_credit, note))
    out.sort(key=lambda x: (x.place, x.name.casefold()))
    return out


def standings(event: Event) -> Standings:
    team_pts: dict[str, int] = defaultdict(int)
    team_games: dict[str, int] = defaultdict(int)
    team_won: dict[str, int] = defaultdict(int)
    team_members: dict[str, tuple[int, ...]] = {}
    pl_pts: dict[int, int] = defaultdict(int)
    pl_games: dict[int, int] = defaultdict(int)
    pl_won: dict[int, int] = defaultdict(int)
    byes: dict[int, int] = defaultdict(int)
    pl_sig: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for rnd, draw in sorted(event.draws.items()):
        for pid in draw.byes:
            byes[pid] += 1
        for table in draw.tables:
            result = event.result(rnd, table.number)
            if result is None:
                continue
            best = max(result.totals)
            for t, members in enumerate(table.team_list()):
                score = result.totals[t]
                won = int(score == best and result.totals.count(best) == 1)
                if not table.individuals:
                    key = team_key(members)
                    team_members[key] = tuple(sorted(members))
                    team_pts[key] += score
                    team_games[key] += 1
                    team_won[key] += won
                for pid in members:
                    pl_sig[f"p{pid}"].append((rnd, table.number, t))
                    pl_pts[pid] += score
                    pl_games[pid] += 1
                    pl_won[pid] += won
    teams = [Line(0, False, k, event.team_name(m), m, team_games[k], team_pts[k], team_won[k])
             for k, m in team_members.items()]
    players = []
    credited: dict[int, float] = {}
    for p in event.players:
        g = pl_games[p.id]
        credit = round(pl_pts[p.id] / g * byes[p.id]) if g and byes[p.id] else 0
        credited[p.id] = pl_pts[p.id] + credit
        players.append(Line(0, False, f"p{p.id}", p.name, (p.id,), g, pl_pts[p.id] + credit,
                            pl_won[p.id], byes[p.id], credit))
    by_chapter: dict[str, list[int]] = defaultdict(list)
    label: dict[str, str] = {}
    for p in event.players:
        if p.chapter and pl_games[p.id]:
            by_chapter[p.chapter.casefold()].append(p.id)
            label.setdefault(p.chapter.casefold(), p.chapter)
    chapters = [Line(0, False, "c:" + c, label[c], tuple(ids), sum(pl_games[i] for i in ids),
                     round(sum(credited[i] for i in ids) / len(ids), 1),
                     note=f"{len(ids)} player(s), {round(sum(credited[i] for i in ids))} "
                          "points in all")
                for c, ids in by_chapter.items()]
    pending: dict[str, list[str]] = {}
    return Standings(_rank("team", event, teams, pending),
                     _rank("player", event, players, pending,
                           {k: tuple(v) for k, v in pl_sig.items()}),
                     _rank("chapter", event, chapters, pending),
                     event.missing_results(), pending)


# ------------------------------------------------------------------ tie-breaks

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("♣", "♦", "♥", "♠")


def high_card_draw(event: Event, kind: str, seed: int) -> TieBreak:
    """Break the tie for first place among ``kind`` entries by a high-card draw: each
    tied entry, in the order of its name, draws a card from a deck shuffled with
    ``seed``; the highest rank wins (suits do not count); those still tied draw again.
    The draw is kept with the event (append it with the store)."""
    tied = _tied(event, kind)
    lines = {x.key: x for x in standings(event).by_kind(kind)}
    rng = random.Random(seed)
    contenders = sorted(tied, key=lambda k: lines[k].name.casefold())
    detail: list[str] = []
    draw_no = 1
    while True:
        deck = [(r, s) for r in range(13) for s in range(4)]
        rng.shuffle(deck)
        cuts = {k: deck.pop() for k in contenders}
        detail.extend(f"draw {draw_no}: {lines[k].name} drew {RANKS[cuts[k][0]]}"
                      f"{SUITS[cuts[k][1]]}" for k in contenders)
        best = max(c[0] for c in cuts.values())
        contenders = [k for k in contenders if cuts[k][0] == best]
        if len(contenders) == 1:
            break
        draw_no += 1
    tb = TieBreak(kind, tuple(sorted(tied)), "high-card", contenders[0], tuple(detail), seed)
    return tb


KIND_PLURALS = {"team": "teams", "player": "players", "chapter": "chapters"}


def check_tie_break(event: Event, kind: str, playoff: bool = False) -> None:
    """Whether a tie for first place among ``kind`` entries may be broken now (a
    play-off's winner entered, with ``playoff``; a high-card draw otherwise): only as
    the rule set says, once the event is over (every round drawn, every result in), and
    only a tie still to be broken. Raises :class:`EventError` in the organiser's words."""
    how = event.rules.game.tie_break
    if how == "none":
        raise EventError("These rules have no tie-break: first place is shared.")
    if kind not in KIND_PLURALS:
        raise EventError("Say which standings: team, player or chapter.")
    to_draw = [r for r in range(1, event.rounds + 1) if r not in event.draws]
    if to_draw:
        raise EventError("A tie for first place is broken when the event is over: "
                         + ", ".join(f"round {r}" for r in to_draw)
                         + " still to be played.")
    st = standings(event)
    if st.missing:
        raise EventError("Enter every table's result first: "
                         + ", ".join(f"round {r} table {n}" for r, n in st.missing[:6])
                         + (" ..." if len(st.missing) > 6 else "") + " still to come.")
    plural = KIND_PLURALS[kind]
    if kind not in st.pending:
        top = st.by_kind(kind)[:1]
        if top and not top[0].shared and "tie-break" in top[0].note:
            raise EventError(f"The tie for first place among the {plural} was already "
                             f"broken: {top[0].name} won.")
        if top and top[0].shared:
            raise EventError(f"First place among the {plural} is shared by partners who "
                             "played every game together; there is no tie to break.")
        raise EventError(f"There is no tie for first place among the {plural}.")
    if playoff and how != "playoff-hand":
        raise EventError("These rules break a tie by a high-card draw, not a play-off: "
                         "give the draw's seed.")


def record_playoff(event: Event, kind: str, winner: str) -> TieBreak:
    """The organiser enters the winner of a play-off (by name, as the standings show it)."""
    tied = _tied(event, kind)
    lines = {x.key: x for x in standings(event).by_kind(kind)}
    match = [k for k in tied if lines[k].name.casefold() == winner.strip().casefold()]
    if not match:
        raise EventError(f"{winner!r} is not among those tied for first: "
                         + ", ".join(lines[k].name for k in tied))
    return TieBreak(kind, tuple(sorted(tied)), "playoff", match[0],
                    (f"{lines[match[0]].name} won the play-off",))


def _tied(event: Event, kind: str) -> list[str]:
    if kind not in KINDS:
        raise EventError(f"standings are by {', '.join(KINDS)}, not {kind!r}")
    lines = standings(event).by_kind(kind)
    top = [x for x in lines if lines and x.points == lines[0].points]
    if len(top) < 2 or not any(x.games for x in top):
        raise EventError(f"there is no tie for first place in the {kind} standings")
    return [x.key for x in top]
