"""``handfoot event ...`` from the command line, and the printed pages (issue 6)."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
from pathlib import Path

import pytest

from handfoot.cli import main
from handfoot.club.draw import draw_round
from handfoot.club.event import Event
from handfoot.club.printing import (
    assignments_csv,
    assignments_html,
    results_html,
    score_sheets_html,
    standings_csv,
)
from handfoot.club.results import play_table, result_from_game

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "score"
CHROMIUM = Path("/usr/bin/chromium")

NAMES = ["Anne Lee", "Bob Lee", "Carol King", "Dan King", "Eve Moss", "Frank Moss",
         "Gail Hart", "Hank Hart", "Ivy Stone", "Jack Stone", "Kay Ross", "Leo Ross"]


def players_file(path: Path) -> Path:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["name", "chapter", "not_partner_with"])
    for i, n in enumerate(NAMES):
        w.writerow([n, ("Waco", "Austin", "Dallas")[i % 3], NAMES[i + 1] if i % 2 == 0 else ""])
    path.write_text(out.getvalue(), "utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_an_evening_from_the_command_line(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    db = ["--db", f"sqlite:///{tmp_path / 'club.db'}"]
    code, out, _ = run(capsys, "event", "create", "Good Sam", "--variant", "texas-good-sam",
                       "--rounds", "2", "--not-same-chapter", *db)
    assert code == 0 and "Organiser's password" in out
    code, _, err = run(capsys, "event", "create", "Good Sam", "--password", "pw12", *db)
    assert code == 2 and "already an event" in err
    csv_file = players_file(tmp_path / "players.csv")
    code, out, _ = run(capsys, "event", "import", "Good Sam", str(csv_file), *db)
    assert code == 0 and out.startswith("12 players from 3 chapter(s)")
    code, out, _ = run(capsys, "event", "export", "Good Sam", *db)
    assert out == csv_file.read_text("utf-8")

    code, first, _ = run(capsys, "event", "draw", "Good Sam", "--round", "1", "--seed", "7",
                         *db)
    assert code == 0 and "Table 3:" in first
    code, again, _ = run(capsys, "event", "draw", "Good Sam", "--round", "1", "--seed", "7",
                         *db)
    assert again == first  # the same seed gives the same draw
    code, shown, _ = run(capsys, "event", "show", "Good Sam", "--round", "1", *db)
    assert shown == first

    # table 1 from paper (the texas example sheet), the others from game records
    code, out, _ = run(capsys, "event", "result", "Good Sam", "--round", "1", "--table", "1",
                       "--sheet", str(EXAMPLES / "texas-good-sam.toml"), *db)
    assert code == 0 and "2 table(s) still to come" in out
    from handfoot.club.store import ClubStore
    store = ClubStore(db[1])
    ev = store.load("Good Sam")
    for t in (2, 3):
        game = play_table(ev, 1, t, ["heuristic"], seed=t)
        record = result_from_game(ev, 1, t, game).detail["record"]
        path = tmp_path / f"table{t}.json"
        path.write_text(json.dumps(record), "utf-8")
        code, out, _ = run(capsys, "event", "result", "Good Sam", "--round", "1", "--table",
                           str(t), "--record", str(path), *db)
        assert code == 0, out
    assert "every table is in" in out
    code, out, _ = run(capsys, "event", "standings", "Good Sam", *db)
    assert code == 0 and out.startswith("Teams\n     1") and "Chapters" in out
    code, out, _ = run(capsys, "event", "standings", "Good Sam", "--csv", *db)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["kind"] for r in rows} == {"team", "player", "chapter"}
    assert len([r for r in rows if r["kind"] == "player"]) == 12

    code, out, _ = run(capsys, "event", "print", "Good Sam", "--round", "1", "--out",
                       str(tmp_path / "print"), *db)
    assert code == 0
    files = sorted(p.name for p in (tmp_path / "print").iterdir())
    assert files == ["assignments-round1.csv", "assignments-round1.html", "results.html",
                     "round1-table1.toml", "round1-table2.toml", "round1-table3.toml",
                     "score-sheets-round1.html", "standings.csv"]
    sheets = (tmp_path / "print" / "score-sheets-round1.html").read_text("utf-8")
    assert sheets.count('class="sheet"') == 3 and "Meld 120" in sheets

    # round 2, and errors with their messages
    code, _, err = run(capsys, "event", "result", "Good Sam", "--round", "2", "--table", "1",
                       "--sheet", str(EXAMPLES / "texas-good-sam.toml"), *db)
    assert code == 2 and "round 2 has not been drawn" in err
    code, _, err = run(capsys, "event", "result", "Good Sam", "--round", "1", "--table", "1",
                       "--sheet", str(EXAMPLES / "classic.toml"), *db)
    assert code == 2 and "it is for classic rules" in err
    code, _, err = run(capsys, "event", "standings", "Nope", *db)
    assert code == 2 and "no event called 'Nope'" in err
    code, _, err = run(capsys, "event", "tiebreak", "Good Sam", "--seed", "1", *db)
    assert code == 2 and "first place is shared" in err


def test_cli_bad_csv_and_impossible_draw(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    db = ["--db", f"sqlite:///{tmp_path / 'club.db'}"]
    assert run(capsys, "event", "create", "Tiny", "--variant", "classic", "--password",
               "secret", *db)[0] == 0
    bad = tmp_path / "bad.csv"
    bad.write_text("name,chapter,not_partner_with\nAnn,,Bobb\nBob,,\n", "utf-8")
    code, _, err = run(capsys, "event", "import", "Tiny", str(bad), *db)
    assert code == 2 and "line 2: Ann may not partner 'Bobb'" in err
    good = tmp_path / "good.csv"
    good.write_text("name,chapter,not_partner_with\nAnn,,Bob;Cy;Di\nBob,,\nCy,,\nDi,,\n",
                    "utf-8")
    assert run(capsys, "event", "import", "Tiny", str(good), *db)[0] == 0
    code, _, err = run(capsys, "event", "draw", "Tiny", "--round", "1", "--seed", "1", *db)
    assert code == 2 and "Ann (not Bob, Cy, Di) may partner nobody" in err
    code, out, _ = run(capsys, "event", "list", *db)
    assert out == "Tiny\n"
    # late arrivals: one at a time, their not-partners registered already
    code, _, err = run(capsys, "event", "add-player", "Tiny", "Eve", "--not-partner", "Zed", *db)
    assert code == 2 and "no player called 'Zed'" in err
    for name in ("Eve", "Fay", "Gus", "Hal"):
        assert run(capsys, "event", "add-player", "Tiny", name, "--chapter", "Elks",
                   "--not-partner", "Bob", *db)[0] == 0
    assert "Eve,Elks,Bob" in run(capsys, "event", "export", "Tiny", *db)[1]
    code, out, _ = run(capsys, "event", "draw", "Tiny", "--round", "1", "--seed", "1", *db)
    assert code == 0 and "Table 2:" in out


# ------------------------------------------------------------------- printing


def played_event(rules: str = "alabama-samboree", players: int = 14) -> Event:
    ev = Event.create("Samboree night", rules, rounds=1, odd_players="individuals")
    for i in range(players):
        ev.add_player(NAMES[i % 12] + ("" if i < 12 else f" {i}"), ("Mobile", "Dothan")[i % 2])
    ev.draws[1] = draw_round(ev, 1, 3)
    for t in ev.draws[1].tables:
        ev.results.append(result_from_game(ev, 1, t.number,
                                           play_table(ev, 1, t.number, ["random"], t.number)))
    return ev


@pytest.mark.parametrize("rules", ["texas-good-sam", "alabama-samboree", "classic", "samba",
                                   "six-deck"])
def test_score_sheets_fit_the_preset(rules: str) -> None:
    ev = Event.create("x", rules)
    for n in NAMES[:8]:
        ev.add_player(n)
    ev.draws[1] = draw_round(ev, 1, 1)
    page = score_sheets_html(ev, 1)
    r = ev.rules
    assert page.count('class="sheet"') == 2
    for h in range(1, r.game.hands + 1):
        assert f"Hand {h}<br>" in page
        if r.opening_minimum(h):
            assert f"Meld {r.opening_minimum(h)}" in page
    assert f"Hand {r.game.hands + 1}<br>" not in page
    assert ("Sambas" in page) == r.meld.sequences
    assert ("Wild-card canastas" in page) == r.meld.wild_melds
    # The sheet's own words for its books (red and black canastas or books, clean and
    # dirty books), on the score sheet and in what going out needs.
    clean, dirty = {"texas-good-sam": ("Red canastas", "Black canastas"),
                    "alabama-samboree": ("Red books", "Black books"),
                    "classic": ("Clean books", "Dirty books"),
                    "samba": ("Red canastas", "Black canastas"),
                    "six-deck": ("Red books", "Black books")}[rules]
    assert clean in page and dirty in page
    assert "Clean (red)" not in page and "Dirty (black)" not in page
    need = {"texas-good-sam": "2 red canastas + 3 black canastas",
            "alabama-samboree": "2 red books + 2 black books",
            "classic": "3 clean books + 4 dirty books",
            "samba": "2 red canastas + 2 black canastas + 1 wild-card canasta",
            "six-deck": "1 red book + 1 black book"}[rules]
    assert f"To go out: {need}." in page
    assert ("Red 3s on the board" in page) == (r.threes.red == "board")
    assert ("Going out" in page) == bool(r.scores.going_out)
    assert ("Exact deal" in page) == bool(r.deal.exact_grab_bonus)
    if rules == "classic":
        assert "1 clean + 1 dirty meld(s)" in page
    assert "@media print" in page and "page-break-after: always" in page
    for n in NAMES[:8]:
        assert n in page


def test_assignments_and_results_pages() -> None:
    ev = played_event()
    page = assignments_html(ev, 1)
    for t in ev.draws[1].tables:
        assert f"Table {t.number}" in page
        for pid in t.seats:
            assert ev.name_of(pid) in page
    assert "individuals" in page and "seed 3" in page and "Time limit 90 minutes" in page
    rows = list(csv.DictReader(io.StringIO(assignments_csv(ev, 1))))
    assert len(rows) == 14 and {r["table"] for r in rows} == {"1", "2", "3", "4"}
    page = results_html(ev)
    assert "<h2>Teams</h2>" in page and "<h2>Chapters</h2>" in page
    rows = list(csv.DictReader(io.StringIO(standings_csv(ev))))
    assert rows[0]["kind"] == "team" and rows[0]["place"] in ("1", "1=")


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium")
def test_printed_pages_in_chromium(tmp_path: Path) -> None:
    """Chromium prints each table's score sheet on a page of its own, and draws the
    assignments page (a screenshot is kept next to it)."""
    ev = played_event()
    sheets = tmp_path / "sheets.html"
    sheets.write_text(score_sheets_html(ev, 1), "utf-8")
    assignments = tmp_path / "assignments.html"
    assignments.write_text(assignments_html(ev, 1), "utf-8")
    pdf = tmp_path / "sheets.pdf"
    png = tmp_path / "assignments.png"
    base = [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu",
            f"--user-data-dir={tmp_path / 'profile'}"]
    subprocess.run([*base, f"--print-to-pdf={pdf}", "--no-pdf-header-footer",
                    sheets.as_uri()], check=True, capture_output=True, timeout=120)
    subprocess.run([*base, f"--screenshot={png}", "--window-size=1200,1600",
                    assignments.as_uri()], check=True, capture_output=True, timeout=120)
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes()))
    assert pages == len(ev.draws[1].tables)
    assert png.stat().st_size > 20_000
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_filled_in_template_scores_like_the_example() -> None:
    """The scorer's TOML template, filled in with the Samboree example's table, scores
    what ``handfoot score`` gives for the example; names on the wrong team are refused."""
    import tomllib

    from handfoot.club.event import EventError
    from handfoot.club.printing import sheet_template
    from handfoot.club.results import result_from_sheets
    from handfoot.scorekeeper import score_file

    ev = Event.create("Samboree", "alabama-samboree")
    for n in NAMES[:8]:
        ev.add_player(n)
    ev.draws[1] = draw_round(ev, 1, 2)
    table = ev.draws[1].tables[0]
    example = tomllib.loads((EXAMPLES / "alabama-samboree.toml").read_text("utf-8"))
    sheets = []
    for hand in (1, 2, 3):
        sheet = tomllib.loads(sheet_template(ev, 1, table))
        sheet["hand"] = hand
        sheet["went_out"] = example["went_out"]
        for mine, theirs in zip(sheet["teams"], example["teams"], strict=True):
            for key in ("melds", "exact_deals"):
                if key in theirs:
                    mine[key] = theirs[key]
            for pm, pt in zip(mine["players"], theirs["players"], strict=True):
                pm["hand"], pm["foot"] = pt.get("hand", ""), pt.get("foot", "")
        sheets.append(sheet)
    expected = [t.score.total for t in score_file(EXAMPLES / "alabama-samboree.toml")[1]]
    result = result_from_sheets(ev, 1, 1, sheets)
    assert result.totals == tuple(3 * x for x in expected)
    sheets[1]["teams"].reverse()
    with pytest.raises(EventError, match=r"sheet 2: team 1 lists .*, who plays for team 2"):
        result_from_sheets(ev, 1, 1, sheets)


def test_cli_tiebreak_makes_the_organiser_pages_checks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``handfoot event tiebreak`` refuses what the organiser's page refuses: before the
    event is over, a play-off winner where the rules draw high cards, a tie already
    broken."""
    from club_events import store_event, tied_event
    from handfoot.club.store import ClubStore

    url = f"sqlite:///{tmp_path / 'club.db'}"
    db = ["--db", url]
    store = ClubStore(url)
    try:
        early = tied_event("high-card")  # tied after round 1 of 2
        early.name, early.rounds = "Early", 2
        store_event(store, early)
        ev = tied_event("high-card")
        held_back = store_event(store, ev, keep=1)  # table 2's result is not in yet
    finally:
        store.close()
    code, _, err = run(capsys, "event", "tiebreak", "Early", "--seed", "7", *db)
    assert code == 2 and "round 2 still to be played" in err
    code, _, err = run(capsys, "event", "tiebreak", "Tied", "--seed", "7", *db)
    assert code == 2 and "round 1 table 2 still to come" in err
    store = ClubStore(url)
    try:
        store.add_result(ev, held_back[0])
    finally:
        store.close()
    code, _, err = run(capsys, "event", "tiebreak", "Tied", "--winner", "Anyone", *db)
    assert code == 2 and "high-card draw, not a play-off" in err
    code, out, err = run(capsys, "event", "tiebreak", "Tied", "--seed", "7", *db)
    assert code == 0, err
    assert "drew" in out and "First place (team)" in out
    code, _, err = run(capsys, "event", "tiebreak", "Tied", "--seed", "8", *db)
    assert code == 2 and "already broken" in err
