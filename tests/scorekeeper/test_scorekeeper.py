"""The scorekeeper (``handfoot score FILE``): the worked examples in examples/score,
scored by hand from each club sheet's point table, and malformed score files."""

from __future__ import annotations

import dataclasses
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from handfoot.cli import main
from handfoot.game.scoring import _COUNTS, TeamScore, red_threes_points, team_score
from handfoot.rules import PRESET_NAMES, preset
from handfoot.scorekeeper import ScoreSheetError, read_sheet, score_file, score_sheet, score_text

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "score"


def expected(team: int, **items: int) -> dict[str, Any]:
    """A team's full itemised score: every item not given is 0."""
    out = TeamScore(team=team).to_json()
    unknown = set(items) - set(out)
    assert not unknown, unknown
    out.update(items)
    return out


# Each example's score, worked out by hand from its sheet's table (shared/seeds).
HAND_SCORED: dict[str, tuple[str, list[dict[str, Any]]]] = {
    # Texas (000): 4-7 = 5, 8-K = 10, A = 20, 2 = 20, Joker = 50; red 3 held -500,
    # black 3 held -100; red canasta 500, black 300; going out 0; exact deal 100;
    # short opening exposed -100.
    "texas-good-sam.toml": ("texas-good-sam", [
        # Table: K x7 = 70; A x8 = 160; Q x4 = 40 + 2C 2D JK 90 = 130;
        # 7 x5 = 25 + 2S 2H 40 = 65; 9 x6 = 60 + 2C 20 = 80; 5 x3 = 15.
        # 70+160+130+65+80+15 = 520. Books 2 red (1000), 3 black (900).
        # Held: South 8H 10 + 4C 5 = 15; 3S -100. Exact deal +100.
        # 1000 + 900 + 520 - 15 - 100 + 100 = 2405 (going out: 0 in Texas).
        expected(0, clean_books=2, clean_book_points=1000, dirty_books=3,
                 dirty_book_points=900, table_cards=520, held_cards=-15, threes=-100,
                 deal_bonus=100, total=2405),
        # Table: J x7 = 70; 10 x3 = 30 + 2H 2S 40 = 70; 6 x4 = 20 + 2D 20 = 40 -> 180.
        # Held: East AS 20 + JK 50 + 4D 5 = 75; West 8C 8D = 20; West's foot
        # KC QD 9S = 30, 7C 6H 5S 4H = 20, 2C AC = 40 -> 90. 75 + 20 + 90 = 185.
        # Red 3s: 3H in hand, 3D 3H in the foot = 3 x -500 = -1500. Short opening -100.
        # 500 + 180 - 185 - 1500 - 100 = -1105.
        expected(1, clean_books=1, clean_book_points=500, table_cards=180, held_cards=-185,
                 threes=-1500, penalties=-100, total=-1105),
    ]),
    # Alabama (001): 4-9 = 5, K-10 = 10, A = 20, 2 = 20, Joker = 50; black 3 = 0,
    # red 3 in hand -500; red book 500, black 300; going out +100; exact 26 cards 100.
    "alabama-samboree.toml": ("alabama-samboree", [
        # Table: 9 x7 = 35; 8 x8 = 40; 10 x4 = 40 + 2H 2D JK 90 = 130;
        # A x5 = 100 + 2C 2S 40 = 140; KH KD 20 + 2C 20 = 40. 35+40+130+140+40 = 385.
        # Books 2 red (1000), 2 black (600). Held: Bob 9C 8S = 10, 3C = 0.
        # Going out 100, two exact deals 200.
        # 1000 + 600 + 385 - 10 + 100 + 200 = 2275.
        expected(0, clean_books=2, clean_book_points=1000, dirty_books=2,
                 dirty_book_points=600, table_cards=385, held_cards=-10, going_out=100,
                 deal_bonus=200, total=2275),
        # Table: Q x7 = 70; 5 x4 = 20 + 2D JK 70 = 90; J x3 = 30 -> 190.
        # Held: Carol 9D 8C 4S = 15; her foot JK 50 + 2H 20 + AC 20 + KS 10 + 10D 10
        # = 110, 9H 8D 7C 6S 5D 4C = 6 x 5 = 30 -> 140; Dan KC 10.
        # 15 + 140 + 10 = 165. Red 3s 3H (hand) 3D (foot) = -1000; 3S 0.
        # 500 + 190 - 165 - 1000 = -475.
        expected(1, clean_books=1, clean_book_points=500, table_cards=190, held_cards=-165,
                 threes=-1000, total=-475),
    ]),
    # Classic (002): 4-7 = 5, 8-K = 10, A and 2 = 20, Joker = 50; black 3 -5,
    # red 3 -100; clean 500, dirty 300; going out 100; exact 22 cards 100.
    "classic.toml": ("classic", [
        # Table: K 70; Q 70; 4 x7 = 35; J x4 40 + 2H 2D 2S 60 = 100;
        # 10 x5 50 + 2C JK 70 = 120; 6 x6 30 + JK 50 = 80; A x4 80 + JK JK 2C 120 = 200.
        # 70+70+35+100+120+80+200 = 675. Books 3 clean (1500), 4 dirty (1200).
        # Held: South 9S 10 + 5C 5 = 15. Going out 100.
        # 1500 + 1200 + 675 - 15 + 100 = 3460.
        expected(0, clean_books=3, clean_book_points=1500, dirty_books=4,
                 dirty_book_points=1200, table_cards=675, held_cards=-15, going_out=100,
                 total=3460),
        # Table: 8 x7 = 70; 7H 7D 10 + 2C 20 = 30; 9 x3 = 30 -> 130.
        # Held: East 5H 5; West KD 10; West's foot AS 20 2H 20 JK 50 QC JD 10S 9D 40
        # 7C 6S 4D 15 = 145. 5 + 10 + 145 = 160.
        # 3s: 3C 3S -10, 3D -100, 3H (foot) -100 = -210. Exact deal 100.
        # 500 + 130 - 160 - 210 + 100 = 360.
        expected(1, clean_books=1, clean_book_points=500, table_cards=130, held_cards=-160,
                 threes=-210, deal_bonus=100, total=360),
    ]),
    # Samba (003): card values as classic; red canasta 500, black 300, wild-card
    # canasta 1500, samba 1500; red 3s 100 each, 5 = 1000 and each further 100;
    # going out 500. Not said, as classic: black 3 held -5, red 3 held -100.
    "samba.toml": ("samba", [
        # Table: samba 6H-QH = 5+5+10+10+10+10+10 = 60; samba 4S-10S = 5x4 + 10x3 = 50;
        # wild 2C 2D 2H 2S 2C = 100 + JK JK 100 = 200; K 70; A 140;
        # Q x4 40 + 2H 2D JK 90 = 130; J x6 60 + 2S 20 = 80; 5 x3 15.
        # 60+50+200+70+140+130+80+15 = 745.
        # Books: 2 sambas 3000, 1 wild 1500, 2 red 1000, 2 black 600.
        # 6 red 3s: 1000 + 100 = 1100. Going out 500. North 7C 5, 3S -5.
        # 3000 + 1500 + 1000 + 600 + 745 + 1100 + 500 - 5 - 5 = 8435.
        expected(0, clean_books=2, clean_book_points=1000, dirty_books=2,
                 dirty_book_points=600, wild_books=1, wild_book_points=1500,
                 sequence_books=2, sequence_book_points=3000, table_cards=745,
                 held_cards=-5, threes=-5, red_threes=1100, red_threes_count=6,
                 going_out=500, total=8435),
        # Table: 9C-KC 50; 8 x7 70; 4H 4D 10 + JK 50 = 60 -> 180. 2 red 3s 200.
        # Held: East AC 9D 30; West 6S 5; West's foot 2S 20 JK 50 AD 20 KS QH 10D
        # 9S 8C 50 7D 6C 4C 15 = 155. 30 + 5 + 155 = 190. 3H 3D in the foot -200.
        # 500 + 180 + 200 - 190 - 200 = 490.
        expected(1, clean_books=1, clean_book_points=500, table_cards=180, held_cards=-190,
                 threes=-200, red_threes=200, red_threes_count=2, total=490),
    ]),
    # Six-deck (004): Joker 50; 2 and A 20; K-8 10; 7-4 5; black 3 -5; red 3 left in
    # hand or foot -500; red book 500, black 300; going out 100.
    "six-deck.json": ("six-deck", [
        # Table: A x7 140; K x4 40 + 2H 2D JK 90 = 130; 7 x4 20; 10H 10D 20 + 2C 20 = 40.
        # 140 + 130 + 20 + 40 = 330. Books 1 red 500, 1 black 300. South QS 4D 15.
        # 500 + 300 + 330 - 15 + 100 = 1215.
        expected(0, clean_books=1, clean_book_points=500, dirty_books=1,
                 dirty_book_points=300, table_cards=330, held_cards=-15, going_out=100,
                 total=1215),
        # Table: J x5 50 + 2S JK 70 = 120; 6 x3 15 -> 135.
        # Held: East 9C 10; West 5C 5; West's foot AC 20 KC QC JC 10C 9D 8D 60
        # 6C 5S 4S 15 = 95. 10 + 5 + 95 = 110. 3s: 3H -500, 3S -5, 3D -500 = -1005.
        # 300 + 135 - 110 - 1005 = -680.
        expected(1, dirty_books=1, dirty_book_points=300, table_cards=135, held_cards=-110,
                 threes=-1005, total=-680),
    ]),
    # The Texas table again, entered by totals as the printed score sheet asks for them.
    "texas-good-sam-totals.toml": ("texas-good-sam", [
        expected(0, clean_books=2, clean_book_points=1000, dirty_books=3,
                 dirty_book_points=900, table_cards=520, held_cards=-15, threes=-100,
                 deal_bonus=100, total=2405),
        expected(1, clean_books=1, clean_book_points=500, table_cards=180, held_cards=-185,
                 threes=-1500, penalties=-100, total=-1105),
    ]),
    # The same table with the sheet's tournament note: 500 for going out, not 100.
    "six-deck-tournament.toml": ("six-deck", [
        # 500 + 300 + 330 - 15 + 500 = 1615.
        expected(0, clean_books=1, clean_book_points=500, dirty_books=1,
                 dirty_book_points=300, table_cards=330, held_cards=-15, going_out=500,
                 total=1615),
        expected(1, dirty_books=1, dirty_book_points=300, table_cards=135, held_cards=-110,
                 threes=-1005, total=-680),
    ]),
}

PRESETS = ("texas-good-sam", "alabama-samboree", "classic", "samba", "six-deck")


def test_every_preset_has_an_example() -> None:
    names = {p.name for p in EXAMPLES.iterdir()}
    assert names == set(HAND_SCORED)
    assert {variant for variant, _ in HAND_SCORED.values()} == set(PRESETS)
    assert any(n.endswith(".json") for n in names)
    assert any("totals" in n for n in names)


@pytest.mark.parametrize("name", sorted(HAND_SCORED))
def test_example_scores_as_worked_by_hand(name: str) -> None:
    variant, teams = HAND_SCORED[name]
    rules, scored = score_file(EXAMPLES / name)
    assert rules.name == variant
    assert [s.score.to_json() for s in scored] == teams
    for s in scored:  # the total is the sum of the items
        assert s.score.total == sum(points for _, points in s.score.lines())


@pytest.mark.parametrize("name", sorted(HAND_SCORED))
def test_cli_prints_the_scores_as_json(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    variant, teams = HAND_SCORED[name]
    assert main(["score", str(EXAMPLES / name), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["variant"] == variant
    assert [{k: v for k, v in t.items() if k != "name"} for t in out["teams"]] == teams
    assert all(isinstance(t["name"], str) and t["name"] for t in out["teams"])


def test_cli_prints_a_table_with_names_and_totals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(EXAMPLES / "samba.toml")]) == 0
    out = capsys.readouterr().out
    for text in ("North-South", "East-West", "8435", "490", "Red 3s on the board"):
        assert text in out


TEXAS = 'variant = "texas-good-sam"\n'
TWO_EMPTY_TEAMS = "[[teams]]\n[[teams]]\n"

MALFORMED: list[tuple[str, str, str]] = [
    ("unknown key", TEXAS + "colour = 1\n" + TWO_EMPTY_TEAMS, "unknown key(s): colour"),
    ("unknown team key", TEXAS + "[[teams]]\nmeld = []\n[[teams]]\n", "unknown key(s) meld"),
    ("unknown player key", TEXAS + '[[teams]]\n[[teams.players]]\nhnd = "QS"\n[[teams]]\n',
     "unknown key(s) hnd"),
    ("bad card", TEXAS + '[[teams]]\nmelds = ["QH QD QX"]\n[[teams]]\n', "'QX' is not a card"),
    ("bad card in a foot", TEXAS + '[[teams]]\n[[teams.players]]\nfoot = "4H 11C"\n[[teams]]\n',
     "player 1, foot: '11C' is not a card"),
    ("3 wilds with 2 naturals in texas",
     TEXAS + '[[teams]]\nmelds = ["QH QD 2C 2D JK"]\n[[teams]]\n',
     "more natural cards than wild cards"),
    ("a 3 in a meld", TEXAS + '[[teams]]\nmelds = ["QH QD QS 3C"]\n[[teams]]\n',
     "3s cannot be melded"),
    ("mixed ranks", TEXAS + '[[teams]]\nmelds = ["QH QD KS"]\n[[teams]]\n', "mixes"),
    ("wild-card book in texas", TEXAS + '[[teams]]\nmelds = ["2H 2D JK"]\n[[teams]]\n',
     "Wild cards cannot make a meld"),
    ("one team", TEXAS + "[[teams]]\n", "give the 2 teams"),
    ("three teams", TEXAS + "[[teams]]\n" * 3, "give the 2 teams"),
    ("no variant", TWO_EMPTY_TEAMS, "say which rule set"),
    ("unknown variant", 'variant = "texaz"\n' + TWO_EMPTY_TEAMS, "no preset called 'texaz'"),
    ("bad rules override", TEXAS + "[rules]\nmeld = 3\n" + TWO_EMPTY_TEAMS, "rules: [meld]"),
    ("went_out out of range", TEXAS + "went_out = 2\n" + TWO_EMPTY_TEAMS, "went_out must be"),
    ("went_out without the books", TEXAS + "went_out = 1\n" + TWO_EMPTY_TEAMS,
     "team 1 cannot have gone out: it needs 2 more red canastas and 3 more black canastas"),
    ("red 3s on the board in texas", TEXAS + "[[teams]]\nred_threes = 1\n[[teams]]\n",
     "red 3s are not laid on the board in texas-good-sam"),
    ("exact deal where there is no bonus", 'variant = "samba"\n[[teams]]\nexact_deals = 1\n'
     "[[teams]]\n", "samba has no bonus for an exact deal"),
    ("more exact deals than players", TEXAS + "[[teams]]\nexact_deals = 3\n[[teams]]\n",
     "exact_deals is 3"),
    ("short opening where there is no penalty", 'variant = "classic"\n[[teams]]\n'
     "short_openings = 1\n[[teams]]\n", "classic has no penalty for a short opening"),
    ("negative penalty", TEXAS + "[[teams]]\npenalties = -100\n[[teams]]\n",
     "penalties = -100: write penalties as a positive number (penalties = 100 takes 100 "
     "points off)"),
    ("two open melds of a rank", 'variant = "samba"\n[[teams]]\nmelds = ["QH QD QS", '
     '"QC QD 2H"]\n[[teams]]\n', "2 unfinished melds of Queens"),
    ("more of a card than the decks hold", TEXAS + '[[teams]]\nmelds = ["QH QH QH QH QH QH '
     'QD"]\n[[teams]]\n', "6 x QH, but the 5 decks of texas-good-sam hold only 5"),
    ("three players on a team", TEXAS + "[[teams]]\n" + "[[teams.players]]\n" * 3
     + "[[teams]]\n", "lists 3 players"),
    ("melds not a list", TEXAS + '[[teams]]\nmelds = "QH QD QS"\n[[teams]]\n',
     "melds must be a list"),
    ("bad hand number", TEXAS + "hand = 0\n" + TWO_EMPTY_TEAMS, "hand must be"),
    ("not TOML", "variant = \n", "not valid TOML"),
]


@pytest.mark.parametrize(("what", "text", "message"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_file_exits_2_naming_the_problem(
        what: str, text: str, message: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hand.toml"
    path.write_text(text, "utf-8")
    assert main(["score", str(path)]) == 2, what
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err
    assert captured.err.startswith("handfoot: ")
    assert "Traceback" not in captured.err


def test_malformed_json_and_a_missing_file(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hand.json"
    path.write_text('{"variant": "classic", "teams": [{}, {}', "utf-8")
    assert main(["score", str(path), "--json"]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    path.write_text('["classic"]', "utf-8")
    assert main(["score", str(path), "--json"]) == 2
    assert "a score sheet is a table" in capsys.readouterr().err
    assert main(["score", str(tmp_path / "missing.toml")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_error_names_the_team_by_its_name() -> None:
    text = TEXAS + '[[teams]]\nname = "Smiths"\nmelds = ["QH QD 2C 2D"]\n[[teams]]\n'
    with pytest.raises(ScoreSheetError, match=r"team 0 \(Smiths\), meld 1"):
        score_text(text, "toml")


def test_cards_may_be_written_as_lists_and_in_any_case() -> None:
    as_text = TEXAS + '[[teams]]\nmelds = ["qh qd qs"]\n[[teams.players]]\nhand = "3h 4c"\n' \
        "[[teams]]\n"
    as_list = TEXAS + '[[teams]]\nmelds = [["QH", "QD", "QS"]]\n[[teams.players]]\n' \
        'hand = ["3H", "4C"]\n[[teams]]\n'
    a = score_text(as_text, "toml")[1]
    b = score_text(as_list, "toml")[1]
    assert a == b
    # 30 on the table, 4C -5, red 3 -500.
    assert [s.total for s in a] == [30 - 5 - 500, 0]


def test_rules_override_with_a_preset_changes_only_that_setting() -> None:
    base = (EXAMPLES / "six-deck-tournament.toml").read_text("utf-8")
    plain = base.replace("[rules.scores]\ngoing_out = 500\n", "")
    assert plain != base
    with_override = score_text(base, "toml")[1]
    without = score_text(plain, "toml")[1]
    assert with_override[0].total - without[0].total == 400
    assert with_override[1] == without[1]


def test_samba_red_threes_beyond_five() -> None:
    def red(n: int) -> int:
        text = f'variant = "samba"\n[[teams]]\nred_threes = {n}\n[[teams]]\n'
        return score_text(text, "toml")[1][0].red_threes
    # 100 each; five together 1000; each further one +100.
    assert [red(n) for n in range(8)] == [0, 100, 200, 300, 400, 1000, 1100, 1200]


def test_completed_book_may_hold_burned_naturals_but_no_extra_wild() -> None:
    ok = TEXAS + '[[teams]]\nmelds = ["QH QD QS QC 2C 2D JK QH QD"]\n[[teams]]\n'
    # 6 queens 60 + 2C 2D JK 90 = 150, black canasta 300.
    assert score_text(ok, "toml")[1][0].total == 450
    bad = TEXAS + '[[teams]]\nmelds = ["QH QD QS QC 2C 2D JK 2H"]\n[[teams]]\n'
    with pytest.raises(ScoreSheetError, match="at most 3 wild cards"):
        score_text(bad, "toml")


# --------------------------------------------------------------- entry by totals
def as_totals(data: dict[str, Any]) -> dict[str, Any]:
    """A meld-by-meld sheet written as the printed score sheet's totals: each team's
    books of each kind, card points on the table, points of cards left and 3s left,
    counted by hand from the cards written (not by the scorekeeper)."""
    from handfoot.cards import RANK, WILD, is_red_three, parse_cards
    from handfoot.rules import preset

    rules = preset(data["variant"])
    out = {k: v for k, v in data.items() if k != "teams"}
    out["teams"] = []
    for team in data["teams"]:
        books = {"clean_books": 0, "dirty_books": 0, "wild_books": 0, "sequence_books": 0}
        table = 0
        for text in team.get("melds", []):
            cards = parse_cards(text)
            table += sum(rules.card_value[c] for c in cards)
            if len(cards) >= 7:
                if all(WILD[c] for c in cards):
                    books["wild_books"] += 1
                elif len({RANK[c] for c in cards}) > 1 and not any(WILD[c] for c in cards):
                    books["sequence_books"] += 1
                elif any(WILD[c] for c in cards):
                    books["dirty_books"] += 1
                else:
                    books["clean_books"] += 1
        left = [c for p in team.get("players", [])
                for c in parse_cards(" ".join((p.get("hand", ""), p.get("foot", ""))))]
        totals = {**{k: v for k, v in books.items() if v}, "table_cards": table,
                  "cards_left": sum(rules.card_value[c] for c in left if RANK[c] != 3),
                  "red_threes_left": sum(1 for c in left if is_red_three(c)),
                  "black_threes_left": sum(1 for c in left if RANK[c] == 3
                                           and not is_red_three(c))}
        entry = {k: v for k, v in team.items() if k not in ("melds", "players")}
        entry["players"] = [{"name": p["name"]} for p in team.get("players", [])]
        entry["totals"] = totals
        out["teams"].append(entry)
    return out


@pytest.mark.parametrize("name", sorted(n for n in HAND_SCORED if "totals" not in n))
def test_totals_entry_scores_as_meld_by_meld_entry_for_every_preset(name: str) -> None:
    path = EXAMPLES / name
    data = read_sheet(path.read_text("utf-8"), "json" if name.endswith(".json") else "toml")
    by_melds = score_sheet(data)[1]
    by_totals = score_sheet(as_totals(data))[1]
    assert [t.score for t in by_totals] == [t.score for t in by_melds]
    assert [t.score.to_json() for t in by_totals] == HAND_SCORED[name][1]


def test_the_printed_sheets_totals_example_is_the_texas_table() -> None:
    by_melds = score_file(EXAMPLES / "texas-good-sam.toml")[1]
    by_totals = score_file(EXAMPLES / "texas-good-sam-totals.toml")[1]
    assert [t.score for t in by_totals] == [t.score for t in by_melds]


SAMBA = 'variant = "samba"\n'


def totals(variant: str, *teams: str, top: str = "") -> str:
    """A sheet whose teams are entered by totals (each a TOML inline table's body)."""
    return f'variant = "{variant}"\n{top}' + "".join(
        f"[[teams]]\ntotals = {{{t}}}\n" for t in teams)


TOTALS_REFUSED: list[tuple[str, str, str]] = [
    ("more red canastas than 5 decks make", totals("texas-good-sam", "clean_books = 23, "
     "table_cards = 5000", ""), "team 0, totals.clean_books = 23: the 5 decks of "
     "texas-good-sam make at most 22 red canastas for a team"),
    ("wild-card canastas in texas", totals("texas-good-sam", "wild_books = 1, "
     "table_cards = 140", ""), "totals.wild_books = 1: texas-good-sam has no wild-card "
     "canastas"),
    ("sambas in six-deck", totals("six-deck", "sequence_books = 1, table_cards = 60", ""),
     "six-deck has no sequence books"),
    ("card points not a multiple of 5", totals("classic", "table_cards = 523", ""),
     "totals.table_cards = 523: card points are a sum of card values, all multiples of 5"),
    ("points of cards left not a multiple of 5", totals("alabama-samboree",
     "cards_left = 12", ""), "totals.cards_left = 12"),
    ("fewer card points than the books hold", totals("samba", "clean_books = 2, "
     "dirty_books = 1, table_cards = 100", ""), "team 0, totals.table_cards = 100: 2 red "
     "canastas and 1 black canasta hold at least 120 points of cards"),
    ("more card points than every card", totals("six-deck", "cards_left = 99995", ""),
     "every card of the 6 decks together counts"),
    ("both teams' canastas need more naturals than the decks hold",
     totals("texas-good-sam", "clean_books = 16, table_cards = 1200",
            "clean_books = 16, table_cards = 1200"),
     "totals: the sheet has at least 224 natural cards (4s to aces), but the 5 decks of "
     "texas-good-sam hold only 220"),
    ("more red 3s left than the decks hold", totals("six-deck", "red_threes_left = 7",
     "red_threes_left = 6"), "the sheet has 13 red 3s"),
    ("black canastas where a house rule allows no wild card in a meld",
     totals("texas-good-sam", "dirty_books = 1, table_cards = 50", "",
            top="[rules.meld]\nmax_wilds = 0\nnaturals_exceed_wilds = false\n"),
     "totals.dirty_books = 1: texas-good-sam has no black canastas"),
    ("a negative total", totals("classic", "dirty_books = -1", ""),
     "totals.dirty_books must be a whole number, 0 or more"),
    ("an unknown total", totals("classic", "red_books = 1", ""),
     "unknown total(s) red_books"),
    ("went out without the books, by totals", totals("six-deck", "clean_books = 1, "
     "table_cards = 35", "", top="went_out = 0\n"),
     "team 0 cannot have gone out: it needs 1 more black book in six-deck"),
    ("totals and melds both", 'variant = "classic"\n[[teams]]\nmelds = ["QH QD QS"]\n'
     "totals = {table_cards = 30}\n[[teams]]\n",
     "give the team's totals or its melds and cards left, not both"),
    ("totals and cards left both", 'variant = "classic"\n[[teams]]\n'
     'totals = {table_cards = 30}\n[[teams.players]]\nhand = "4C"\n[[teams]]\n',
     "not both"),
]


@pytest.mark.parametrize(("what", "text", "message"), TOTALS_REFUSED,
                         ids=[m[0] for m in TOTALS_REFUSED])
def test_totals_are_checked_for_what_totals_can_show(what: str, text: str,
                                                      message: str) -> None:
    with pytest.raises(ScoreSheetError) as info:
        score_text(text, "toml")
    assert message in str(info.value), what


def test_totals_at_the_limits_are_accepted() -> None:
    # 22 red canastas (two of each rank from 5 decks) hold at least 22 x 35 points.
    teams = score_text(totals("texas-good-sam", "clean_books = 22, table_cards = 770", ""),
                       "toml")[1]
    assert teams[0].clean_books == 22 and teams[0].total == 22 * 500 + 770
    # the least a black canasta holds in texas: six 4s and a 2 = 50 points
    assert score_text(totals("texas-good-sam", "dirty_books = 1, table_cards = 50", ""),
                      "toml")[1][0].total == 350
    # a samba of 4 to 10 holds 50 points; red 3s left count as the sheet says
    samba = score_text(totals("samba", "sequence_books = 1, table_cards = 50, "
                              "red_threes_left = 1, black_threes_left = 2", ""), "toml")[1][0]
    assert (samba.sequence_book_points, samba.threes, samba.total) == (1500, -110, 1440)


# --------------------------------------------------------- impossible tables
def test_red_3s_count_100_each_but_no_more_red_3s_than_5_decks_hold() -> None:
    # samba (003): "5 decks(including jokers) for 4 people"; 5 decks hold 10 red 3s.
    ok = SAMBA + "[[teams]]\nred_threes = 8\n[[teams]]\nred_threes = 2\n"
    assert [t.red_threes for t in score_text(ok, "toml")[1]] == [1300, 200]
    thirteen = SAMBA + "[[teams]]\nred_threes = 13\n[[teams]]\n"
    with pytest.raises(ScoreSheetError, match=r"red_threes: the sheet has 13 red 3s "
                       r"\(team 0: 13 on the board and 0 left; team 1: 0 on the board and "
                       r"0 left\), but the 5 decks of samba hold only 10"):
        score_text(thirteen, "toml")
    # on the board and in a foot together
    split = SAMBA + "[[teams]]\nred_threes = 9\n[[teams]]\nname = \"EW\"\n" \
        '[[teams.players]]\nfoot = "3H 3D"\n'
    with pytest.raises(ScoreSheetError, match="11 red 3s"):
        score_text(split, "toml")


SAMBA_OUT = (EXAMPLES / "samba.toml").read_text("utf-8")


def test_both_members_of_a_team_are_in_their_feet_before_it_goes_out() -> None:
    # samba (003): "Play continues until a team has all their canastas and both members
    # of a team are in their feet." North-South went out; a foot for North is impossible.
    bad = SAMBA_OUT.replace('name = "North"\nhand = "7C 3S"',
                            'name = "North"\nhand = "7C 3S"\nfoot = "4D"')
    assert bad != SAMBA_OUT
    with pytest.raises(ScoreSheetError) as info:
        score_text(bad, "toml")
    assert str(info.value) == (
        "team 0 (North-South), player 1 (North), foot: the team went out, but this player "
        "never picked up the foot; in samba every partner must be in the foot before a "
        "player goes out")
    # East-West did not go out: West's foot never picked up is as it should be.
    assert [t.total for t in score_text(SAMBA_OUT, "toml")[1]] == [8435, 490]


@pytest.mark.parametrize("name", ["classic.toml", "six-deck.json"])
def test_the_other_partner_has_picked_up_his_foot_before_one_goes_out(name: str) -> None:
    # classic (002): "... and the other partner has picked up his foot and played at
    # least one turn from it"; six-deck (004): "both are in foot". North-South went out
    # in both examples; a foot written for a North-South player cannot be.
    data = read_sheet((EXAMPLES / name).read_text("utf-8"),
                      "json" if name.endswith(".json") else "toml")
    assert data["went_out"] == 0
    assert score_sheet(data)[1][0].score.going_out == 100
    partner = next(p for p in data["teams"][0]["players"] if p.get("hand"))
    partner["foot"] = "4D"
    with pytest.raises(ScoreSheetError, match=r"team 0 \(North-South\), player \d "
                       r"\(\w+\), foot: the team went out, but this player never picked "
                       r"up the foot"):
        score_sheet(data)


def test_in_texas_the_player_who_went_out_may_hold_cards_drawn_since() -> None:
    """texas-good-sam plays on until the stock is drawn: the player who went out kept
    drawing, so may hold cards at the end (never a foot); going out is worth nothing."""
    texas = (EXAMPLES / "texas-good-sam.toml").read_text("utf-8")
    marked = texas.replace('name = "North"           # went out: nothing left',
                           'name = "North"\nwent_out = true\nhand = "9C 4D"')
    assert marked != texas
    teams = score_text(marked, "toml")[1]
    assert teams[0].held_cards == -(15 + 10 + 5) and teams[0].going_out == 0
    with pytest.raises(ScoreSheetError, match="went out but still holds"):
        score_text(marked.replace('hand = "9C 4D"', 'foot = "9C 4D"'), "toml")


def test_where_no_rule_asks_for_the_partner_in_the_foot_an_unplayed_foot_is_fine() -> None:
    texas = (EXAMPLES / "texas-good-sam.toml").read_text("utf-8")
    # Texas (000) asks only for the canastas: a partner may never have reached the foot.
    fine = texas.replace('name = "South"\nhand = "8H 4C 3S"',
                         'name = "South"\nhand = "8H 4C 3S"\nfoot = "4D"')
    assert fine != texas
    assert score_text(fine, "toml")[1][0].held_cards == -20


def test_a_player_who_went_out_holds_no_cards() -> None:
    marked = SAMBA_OUT.replace('name = "South"           # went out',
                               'name = "South"\nwent_out = true')
    assert marked != SAMBA_OUT
    assert [t.total for t in score_text(marked, "toml")[1]] == [8435, 490]
    holding = marked.replace('name = "South"\nwent_out = true',
                             'name = "South"\nwent_out = true\nhand = "9C"')
    with pytest.raises(ScoreSheetError) as info:
        score_text(holding, "toml")
    assert str(info.value) == ("team 0 (North-South), player 2 (South) went out but still "
                               "holds 9♣; a player who went out has no cards left")
    # nobody marked, but both players of the team that went out hold cards
    both = SAMBA_OUT.replace('name = "South"           # went out',
                             'name = "South"\nhand = "9C"')
    with pytest.raises(ScoreSheetError, match="team 0 \\(North-South\\) went out, but every "
                       "one of its players still holds cards"):
        score_text(both, "toml")
    # the player marked says which team went out
    inferred = marked.replace("went_out = 0\n", "")
    assert [t.going_out for t in score_text(inferred, "toml")[1]] == [500, 0]
    wrong = marked.replace("went_out = 0\n", "went_out = 1\n")
    with pytest.raises(ScoreSheetError, match="plays for team 0"):
        score_text(wrong, "toml")


# ------------------------------------------------- six players, individuals
def test_six_players_in_two_teams_of_three() -> None:
    # classic (002): "It can also be played by six in two teams of three"; 7 decks.
    text = """variant = "classic"
went_out = 1
[rules.players]
seats = 6
teams = 2
[[teams]]
melds = ["QH QD QS QC QH QD QH"]
exact_deals = 3
[[teams.players]]
hand = "4C"
[[teams.players]]
hand = "5C"
[[teams.players]]
foot = "6C"
[[teams]]
melds = ["KH KD KS KC KH KD KS", "AH AD AS AC AH AD AS", "JH JD JS JC JH JD JS",
         "10H 10D 10S 10C 2H 2D JK", "9H 9D 9S 9C 2C 2S JK", "8H 8D 8S 8C 2H 2D 2C",
         "7H 7D 7S 7C 2S JK JK"]
[[teams.players]]
hand = "8C"
"""
    teams = score_text(text, "toml")[1]
    # 500 + 70 - 15 + 300 (three exact deals) = 855
    assert teams[0].total == 500 + 70 - 15 + 300 == 855
    assert teams[1].going_out == 100
    with pytest.raises(ScoreSheetError, match="a team has 3 in classic"):
        score_text(text.replace("[[teams]]\nmelds = [\"KH", "[[teams.players]]\n"
                                "[[teams]]\nmelds = [\"KH"), "toml")


def test_individuals_one_team_each() -> None:
    text = """variant = "classic"
went_out = 2
[rules.players]
seats = 3
teams = 3
[[teams]]
[[teams.players]]
hand = "4C 3H"
[[teams]]
melds = ["QH QD QS"]
[[teams]]
name = "Carol"
melds = ["KH KD KS KC KH KD KS", "AH AD AS AC AH AD AS", "JH JD JS JC JH JD JS",
         "10H 10D 10S 10C 2H 2D JK", "9H 9D 9S 9C 2C 2S JK", "8H 8D 8S 8C 2H 2D 2C",
         "7H 7D 7S 7C 2S JK JK"]
"""
    teams = score_text(text, "toml")[1]
    assert [t.total for t in teams][:2] == [-5 - 100, 30]
    assert teams[2].going_out == 100
    with pytest.raises(ScoreSheetError, match="a team has 1 in classic"):
        score_text(text.replace("[[teams]]\n[[teams.players]]\n",
                                "[[teams]]\n[[teams.players]]\n[[teams.players]]\n"), "toml")
    # the individual who went out holds nothing
    with pytest.raises(ScoreSheetError, match="went out, but every one of its players"):
        score_text(text + '[[teams.players]]\nhand = "4D"\n', "toml")


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_team_s_items_are_its_rule_s_and_its_total_their_sum(name: str) -> None:
    """Each item of a team's score is the rule set's value for it, each field in its
    place, and the total is the sum of every item but the counts."""
    rules = preset(name)
    s = rules.scores
    books = {"clean": 2, "dirty": 3, "wild": 1, "sequence": 4, "red-sevens": 5}
    score = team_score(rules, 1, books, 470, -85, -300, red_threes_on_board=3,
                       went_out=True, exact_grabs=2, penalties=50)
    assert (score.team, score.clean_books, score.dirty_books, score.wild_books,
            score.sequence_books, score.red_sevens_books) == (1, 2, 3, 1, 4, 5)
    assert score.clean_book_points == 2 * s.clean_book
    assert score.dirty_book_points == 3 * s.dirty_book
    assert score.wild_book_points == s.wild_book
    assert score.sequence_book_points == 4 * s.sequence_book
    assert score.red_sevens_book_points == 5 * s.red_sevens_book
    assert (score.table_cards, score.held_cards, score.threes) == (470, -85, -300)
    assert score.red_threes == red_threes_points(rules, 3) and score.red_threes_count == 3
    assert score.going_out == s.going_out
    assert score.deal_bonus == 2 * rules.deal.exact_grab_bonus
    assert score.penalties == -50
    items = [getattr(score, f.name) for f in dataclasses.fields(TeamScore)
             if f.name not in _COUNTS and f.name not in ("team", "total")]
    assert score.total == sum(items)
    assert team_score(rules, 0, {}, 0, 0, 0) == TeamScore(team=0)
    # made field by field, it is the dataclass made by its own __init__ in every way
    again = TeamScore(**dataclasses.asdict(score))
    assert score == again and hash(score) == hash(again) and repr(score) == repr(again)
    assert pickle.loads(pickle.dumps(score)) == score
    with pytest.raises(dataclasses.FrozenInstanceError):
        score.total = 0  # type: ignore[misc]
