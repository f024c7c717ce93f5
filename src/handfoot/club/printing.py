"""Pages to print: the table assignments, a score sheet for each table made for the
event's rule set, and the results; HTML with print styles (open in a browser and
print, or save as PDF), and CSV.

>>> from handfoot.club.event import Event
>>> from handfoot.club.draw import draw_round
>>> ev = Event.create("Friday", "alabama-samboree")
>>> for n in "ABCDEFGH": ev.add_player(n)
>>> ev.draws[1] = draw_round(ev, 1, 1)
>>> "Meld 150" in score_sheets_html(ev, 1)
True
"""

from __future__ import annotations

import csv
import io
import json
from html import escape
from itertools import groupby

from handfoot.club.event import Event, EventError, RoundDraw, TableAssignment
from handfoot.club.standings import Line, standings
from handfoot.rules import VALUE_KEYS, Rules

STYLE = """
:root { --ink: #111; --rule: #444; --light: #ddd; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", Arial, Helvetica, sans-serif; color: var(--ink);
       font-size: 15pt; line-height: 1.35; margin: 1.5rem; }
h1 { font-size: 24pt; margin: 0 0 .2em; }
h2 { font-size: 19pt; margin: 1em 0 .3em; }
.sub { font-size: 13pt; margin: 0 0 .8em; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1.5px solid var(--rule); padding: .3em .5em; text-align: left;
         vertical-align: top; }
th { background: #eee; }
td.num, th.num { text-align: right; }
.tables { display: grid; grid-template-columns: 1fr 1fr; gap: .8rem; }
.card { border: 2px solid var(--ink); border-radius: 6px; padding: .5em .8em;
        break-inside: avoid; }
.card h2 { margin: 0 0 .2em; font-size: 21pt; }
.team { margin: .2em 0; }
.seat { color: #555; font-size: 11pt; }
.chapter { color: #555; font-size: 12pt; }
.index { columns: 3; font-size: 13pt; }
.index div { break-inside: avoid; }
.sheet { page-break-after: always; break-after: page; }
.sheet:last-child { page-break-after: auto; break-after: auto; }
.sheet table td { height: 1.9em; }
.sheet td.label { width: 15em; font-weight: 600; }
.hint { color: #555; font-size: 11pt; font-weight: normal; display: block; }
@media screen { .sheet { border-bottom: 2px dashed #999; padding-bottom: 1.5em;
                         margin-bottom: 1.5em; } }
.sheet tr.total td { border-top: 3px solid var(--ink); font-weight: 700; }
.sheet th.hand { text-align: center; font-size: 14pt; }
.rules { font-size: 12pt; margin: .6em 0; }
.sign { margin-top: 1.2em; font-size: 13pt; display: flex; gap: 3em; }
.note { font-size: 12pt; color: #333; }
@media print {
  body { margin: 0; font-size: 13pt; }
  @page { margin: 10mm; }
  .noprint { display: none; }
  .sheet h1 { font-size: 18pt; }
  .sheet { font-size: 12pt; }
  .sheet ul { margin: .2em 0 .5em; }
  .sheet table td { height: 2em; padding: .15em .4em; }
  .sheet th.num { white-space: nowrap; font-size: 11pt; }
  .sheet td.label { width: 13em; }
  .hint { font-size: 9pt; }
  .rules, .sign { font-size: 10.5pt; }
}
"""


def _page(title: str, body: str, landscape: bool = False) -> str:
    page = "@page { size: landscape; }" if landscape else ""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title><style>{STYLE}\n@media print {{ {page} }}"
            f"</style></head><body>\n{body}\n</body></html>\n")


def _draw(event: Event, round_no: int) -> RoundDraw:
    draw = event.draws.get(round_no)
    if draw is None:
        raise EventError(f"round {round_no} has not been drawn")
    return draw


def _who(event: Event, pid: int) -> str:
    p = event.player(pid)
    chapter = f' <span class="chapter">({escape(p.chapter)})</span>' if p.chapter else ""
    return f"{escape(p.name)}{chapter}"


def clock_text(event: Event) -> str:
    if not event.time_limit_minutes:
        return "No time limit."
    rules = event.rules
    text = f"Time limit {event.time_limit_minutes} minutes"
    if event.time_warning_minutes:
        text += f"; players are warned {event.time_warning_minutes} minutes before the end"
    text += ". When time is called, " + (
        "the hand being played ends as it stands (no going-out bonus) and no new hand starts."
        if rules.game.when_time_is_called == "end-hand"
        else "the hand being played is finished and no new hand starts.")
    return text


def team_label(table: TableAssignment, team: int) -> str:
    if table.individuals:
        return f"Player {team + 1}"
    seats = " & ".join(str(s + 1) for s in range(team, len(table.seats), table.teams))
    return f"Team {team + 1} (seats {seats})"


# ------------------------------------------------------------ assignments


def assignments_html(event: Event, round_no: int) -> str:
    draw = _draw(event, round_no)
    rules = event.rules
    cards = []
    where: dict[int, str] = {}
    for t in draw.tables:
        teams = []
        for k in range(t.teams):
            members = t.team_members(k)
            for m in members:
                where[m] = f"Table {t.number}"
            names = " &amp; ".join(_who(event, m) for m in members)
            teams.append(f'<div class="team"><b>{escape(team_label(t, k))}</b><br>{names}</div>')
        kind = " &mdash; individuals" if t.individuals else ""
        cards.append(f'<div class="card"><h2>Table {t.number}{kind}</h2>{"".join(teams)}</div>')
    byes = ""
    if draw.byes:
        for b in draw.byes:
            where[b] = "bye"
        byes = ("<h2>Sitting out this round (bye)</h2><p>"
                + ", ".join(_who(event, b) for b in draw.byes) + "</p>")
    index = "".join(f"<div>{escape(event.name_of(p))}: <b>{where[p]}</b></div>"
                    for p in sorted(where, key=lambda p: event.name_of(p).casefold()))
    notes = "".join(f'<p class="note">{escape(n)}</p>' for n in draw.notes)
    body = (f"<h1>{escape(event.name)}: round {round_no}</h1>"
            f'<p class="sub">{escape(rules.title or rules.name)}; partners and tables drawn '
            f"at random with seed {draw.seed}. {escape(clock_text(event))}</p>"
            f'<div class="tables">{"".join(cards)}</div>{byes}{notes}'
            f'<h2>Find your table</h2><div class="index">{index}</div>')
    return _page(f"{event.name}: round {round_no}", body)


def assignments_csv(event: Event, round_no: int) -> str:
    draw = _draw(event, round_no)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["round", "table", "seat", "team", "player", "chapter"])
    for t in draw.tables:
        for s, pid in enumerate(t.seats):
            p = event.player(pid)
            w.writerow([round_no, t.number, s + 1, s % t.teams + 1, p.name, p.chapter])
    for pid in draw.byes:
        p = event.player(pid)
        w.writerow([round_no, "bye", "", "", p.name, p.chapter])
    return out.getvalue()


# ------------------------------------------------------------ score sheets


def values_text(rules: Rules) -> str:
    """Card values, runs of equal value joined: "4-7: 5, 8-K: 10, A: 20, ..."."""
    values = dict(rules.scores.values)
    naturals = [k for k in VALUE_KEYS if k not in ("2", "Joker")]
    parts = []
    for value, run in groupby(naturals, key=lambda k: values[k]):
        keys = list(run)
        parts.append(f"{keys[0]}–{keys[-1]}: {value}" if len(keys) > 1 else f"{keys[0]}: {value}")
    parts.append(f"2: {values['2']}, Joker: {values['Joker']}")
    s = rules.scores
    threes = f"red 3 left in hand: {s.red_three_held}, black 3: {s.black_three_held}"
    return ", ".join(parts) + "; " + threes


def opening_text(rules: Rules, hand: int) -> str:
    o = rules.opening
    parts = []
    if o.by_score:
        parts.append("meld by score")
    elif rules.opening_minimum(hand):
        parts.append(f"Meld {rules.opening_minimum(hand)}")
    if o.clean_melds or o.dirty_melds:
        parts.append(f"{o.clean_melds} clean + {o.dirty_melds} dirty meld(s)")
    if o.books:
        parts.append(f"{o.books} book(s)")
    return ", ".join(parts) or "no minimum"


def going_out_text(rules: Rules) -> str:
    g, w = rules.going_out, rules.words
    need = [f"{n} {w.name(kind, n)}" for kind, n in (
        ("clean", g.clean_books), ("dirty", g.dirty_books), ("wild", g.wild_books),
        ("sequence", g.sequence_books)) if n or kind in ("clean", "dirty")]
    return "To go out: " + " + ".join(need) + "."


def sheet_rows(rules: Rules) -> list[tuple[str, str]]:
    """(item, hint) rows of a score sheet for a rule set: only what it can score."""
    s, w = rules.scores, rules.words
    rows = [(w.title("clean"), f"number × {s.clean_book}"),
            (w.title("dirty"), f"number × {s.dirty_book}")]
    if rules.meld.wild_melds:
        rows.append((w.title("wild"), f"number × {s.wild_book}"))
    if rules.meld.sequences:
        rows.append((w.title("sequence"), f"number × {s.sequence_book}"))
    if s.red_sevens_book:
        rows.append((w.title("red-sevens"), f"number × {s.red_sevens_book}"))
    if rules.threes.red == "board":
        extra = (f"; {s.red_threes_set} together: {s.red_threes_set_bonus}"
                 if s.red_threes_set else "")
        rows.append(("Red 3s on the board", f"{s.red_three_on_board} each{extra}"))
    rows.append(("Cards on the table", f"count of every card in melds and {w.book}s"))
    rows.append(("Cards left in hand and foot", "minus their count"))
    rows.append(("3s left in hand and foot",
                 f"red {s.red_three_held}, black {s.black_three_held} each"))
    if s.going_out:
        rows.append(("Going out", f"+{s.going_out}"))
    if rules.deal.exact_grab_bonus:
        total = rules.deal.hand_size + rules.deal.foot_size
        rows.append(("Exact deal", f"+{rules.deal.exact_grab_bonus} per player who grabbed "
                     f"exactly {total}"))
    if rules.opening.short_penalty:
        rows.append(("Short meld exposed", f"−{rules.opening.short_penalty} each"))
    rows.append(("Other penalties", "minus, as the monitor rules"))
    return rows


def score_sheet_html(event: Event, round_no: int, table: TableAssignment) -> str:
    rules = event.table_rules(table)
    hands = rules.game.hands
    teams = table.teams
    head = "".join(
        f'<th class="hand" colspan="{teams}">Hand {h}<br><span class="hint">'
        f"{escape(opening_text(rules, h))}</span></th>" for h in range(1, hands + 1))
    sub = "".join(f'<th class="num">{"Team" if not table.individuals else "Player"} {k + 1}'
                  "</th>" for _ in range(hands) for k in range(teams))
    blank = "<td></td>" * (hands * teams)
    rows = "".join(f'<tr><td class="label">{escape(item)}<span class="hint">{escape(hint)}'
                   f"</span></td>{blank}</tr>" for item, hint in sheet_rows(rules))
    rows += f'<tr class="total"><td class="label">Hand total</td>{blank}</tr>'
    rows += f'<tr class="total"><td class="label">Running total</td>{blank}</tr>'
    names = "".join(
        f"<li><b>{escape(team_label(table, k))}</b>: "
        + " &amp; ".join(_who(event, m) for m in table.team_members(k)) + "</li>"
        for k in range(teams))
    tie = {"none": "A tie stands.",
           "high-card": "A tie is broken by a high-card draw.",
           "playoff-hand": "A tie is broken by a short play-off (or a high-card draw if time "
                           "dictates)."}[rules.game.tie_break]
    return (f'<section class="sheet"><h1>{escape(event.name)}: round {round_no}, '
            f"table {table.number}</h1>"
            f'<p class="sub">{escape(rules.title or rules.name)}'
            f"{' (individuals)' if table.individuals else ''}. One scorer keeps score for "
            f"the whole table.</p><ul>{names}</ul>"
            f"<table><tr><th></th>{head}</tr><tr><th></th>{sub}</tr>{rows}</table>"
            f'<p class="rules">{escape(going_out_text(rules))} Card values: '
            f"{escape(values_text(rules))}. {escape(clock_text(event))} {tie}</p>"
            '<div class="sign"><span>Scorer: ____________________</span>'
            "<span>Checked by: ____________________</span></div></section>")


def score_sheets_html(event: Event, round_no: int) -> str:
    draw = _draw(event, round_no)
    body = "".join(score_sheet_html(event, round_no, t) for t in draw.tables)
    widest = max(t.teams for t in draw.tables) * event.rules.game.hands
    landscape = widest > 8
    return _page(f"{event.name}: score sheets, round {round_no}", body, landscape)


def sheet_template(event: Event, round_no: int, table: TableAssignment) -> str:
    """A table's score file for one hand in the ``handfoot score`` format, the teams and
    players named, for the scorer to fill in (one copy per hand)."""
    rules = event.table_rules(table)

    def q(text: str) -> str:
        return json.dumps(text, ensure_ascii=False)

    lines = [f"# {event.name}, round {round_no}, table {table.number}: the score of one hand",
             "# (handfoot score format, docs/scorekeeper.md). Copy this file for each hand",
             "# and set hand; then enter the hands in order with",
             f"#   handfoot event result {q(event.name)} --round {round_no} "
             f"--table {table.number} --sheet HAND1 HAND2 ...",
             "hand = 1",
             "# went_out = 0   # the team that went out (0 is the first below); leave it out "
             "if nobody did", ""]
    for k in range(table.teams):
        members = table.team_members(k)
        lines += ["[[teams]]",
                  f"name = {q(team_label(table, k) + ': ' + event.team_name(members))}",
                  "melds = []        # each meld as it lies, e.g. \"QH QD QS QC 2C\""]
        if rules.threes.red == "board":
            lines.append("red_threes = 0    # red 3s on the board")
        if rules.deal.exact_grab_bonus:
            lines.append("exact_deals = 0   # players who grabbed exactly the right number")
        if rules.opening.short_penalty:
            lines.append("short_openings = 0")
        lines.append("penalties = 0")
        for pid in members:
            lines += ["[[teams.players]]", f"name = {q(event.name_of(pid))}",
                      'hand = ""         # cards left in the hand', 'foot = ""         '
                      "# the foot, if never picked up"]
        lines.append("")
    return "\n".join(lines)


# ---------------------------------------------------------------- results


def _points(x: Line) -> str:
    return f"{x.points:g}" if isinstance(x.points, float) else str(x.points)


def _standing_table(lines: list[Line], kind: str) -> str:
    extra = {"team": "Games won", "player": "Byes", "chapter": ""}[kind]
    head = (f"<tr><th>Place</th><th>{kind.title()}</th><th class=\"num\">Games</th>"
            f"<th class=\"num\">{'Average' if kind == 'chapter' else 'Points'}</th>"
            + (f"<th>{extra}</th>" if extra else "") + "<th>Note</th></tr>")
    rows = []
    for x in lines:
        cell = {"team": str(x.won), "player": str(x.byes) if x.byes else "",
                "chapter": ""}[kind]
        note = x.note
        if x.bye_credit:
            note = (note + "; " if note else "") + f"bye credit {x.bye_credit}"
        rows.append(f"<tr><td>{x.place_text}</td><td>{escape(x.name)}</td>"
                    f'<td class="num">{x.games}</td><td class="num"><b>{_points(x)}</b></td>'
                    + (f"<td>{cell}</td>" if extra else "") + f"<td>{escape(note)}</td></tr>")
    return f"<table>{head}{''.join(rows)}</table>"


def results_html(event: Event) -> str:
    st = standings(event)
    rules = event.rules
    parts = [f"<h1>{escape(event.name)}: results</h1>",
             f'<p class="sub">{escape(rules.title or rules.name)}, {event.rounds} round(s).</p>']
    if st.missing:
        parts.append('<p class="note">Still to come: '
                     + ", ".join(f"round {r} table {t}" for r, t in st.missing) + ".</p>")
    for kind in st.pending:
        parts.append(f'<p class="note">A tie for first place in the {kind} standings is '
                     "still to be broken.</p>")
    parts.append("<h2>Teams</h2>" + _standing_table(st.teams, "team"))
    parts.append("<h2>Players</h2>" + _standing_table(st.players, "player"))
    if st.chapters:
        parts.append("<h2>Chapters</h2><p class=\"note\">The average of the chapter's "
                     "players' points.</p>" + _standing_table(st.chapters, "chapter"))
    for tb in event.tie_breaks:
        how = "high-card draw" if tb.method == "high-card" else "play-off"
        seed = f" (seed {tb.seed})" if tb.seed is not None else ""
        parts.append(f"<h2>Tie-break ({escape(tb.kind)}), {how}{seed}</h2><p>"
                     + "<br>".join(escape(d) for d in tb.detail) + "</p>")
    rows = []
    for rnd, draw in sorted(event.draws.items()):
        for t in draw.tables:
            r = event.result(rnd, t.number)
            teams = "<br>".join(escape(event.team_name(m)) for m in t.team_list())
            scores = "<br>".join(str(x) for x in r.totals) if r else "—"
            how = ("" if r is None else r.source + (", time called" if r.time_called else ""))
            rows.append(f"<tr><td>{rnd}</td><td>{t.number}</td><td>{teams}</td>"
                        f'<td class="num">{scores}</td><td>{escape(how)}</td></tr>')
    parts.append("<h2>Every table</h2><table><tr><th>Round</th><th>Table</th><th>Teams</th>"
                  f"<th class=\"num\">Score</th><th>Entered</th></tr>{''.join(rows)}</table>")
    return _page(f"{event.name}: results", "".join(parts))


def standings_csv(event: Event) -> str:
    st = standings(event)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["kind", "place", "name", "games", "points", "won", "byes", "bye_credit",
                "note"])
    for kind in ("team", "player", "chapter"):
        for x in st.by_kind(kind):
            w.writerow([kind, x.place_text, x.name, x.games, _points(x), x.won, x.byes,
                        x.bye_credit, x.note])
    return out.getvalue()
