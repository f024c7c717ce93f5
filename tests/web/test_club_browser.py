"""The organiser's flow of a club event in a real browser (Chromium driven by Playwright)
against a real server: create the event, load the players, draw, a paper table's score
sheet typed in, a table played online by computer players, the standings, the players'
page and the printed pages (screenshots in /tmp/handfoot-club-*.png to look at).

Skipped, with the reason, where Chromium or Playwright is missing; CI sets
HANDFOOT_REQUIRE_BROWSER so that there they must run."""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

from handfoot.server.testing import ServerProcess

with contextlib.suppress(ImportError):  # (the tests are skipped then: see conftest.py)
    from playwright.sync_api import Browser, Page, expect

SHOTS = Path(os.environ.get("HANDFOOT_SHOTS", "/tmp"))

PLAYERS = """name,chapter,not_partner_with
Anne Lee,Mobile,Bob Lee
Bob Lee,Mobile,
Carol King,Dothan,Dan King
Dan King,Dothan,
Eve Moss,Mobile,
Frank Moss,Dothan,Eve Moss
Gail Hart,Mobile,
Hank Hart,Dothan,Gail Hart
"""


def shot(page: Page, name: str) -> Path:
    path = SHOTS / f"handfoot-club-{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def test_the_organisers_evening_in_a_browser(browser: Browser, server: ServerProcess) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    # create the event
    page.goto(server.base + "/events")
    page.fill("input[name=name]", "Friday at the Pines")
    page.select_option("#create-rules", "texas-good-sam")
    page.fill("input[name=rounds]", "2")
    page.check("input[name=not_same_chapter]")
    page.fill("input[name=password]", "monitor")
    page.fill("input[name=password2]", "monitr")
    page.click("#create-form button[type=submit]")
    expect(page.locator("#create-error")).to_contain_text("not the same")
    page.fill("input[name=password2]", "monitor")
    shot(page, "1-new-event")
    page.click("#create-form button[type=submit]")
    expect(page.locator("#org-name")).to_have_text("Friday at the Pines")
    key = page.url.split("/events/")[1].split("/")[0]

    # load the players (a typing slip first: refused, naming the line)
    page.fill("#csv-text", PLAYERS.replace("Dan King\n", "Dan Kin\n", 1))
    page.click("#csv-load")
    expect(page.locator("#org-message")).to_contain_text("Line 4: Carol King")
    page.fill("#csv-text", PLAYERS)
    page.click("#csv-load")
    expect(page.locator("#org-message")).to_contain_text("8 players")
    expect(page.locator("#player-count")).to_have_text("(8)")

    # draw round 1 with an announced seed
    page.fill("#draw-seed", "4127")
    page.click("#draw-form button[type=submit]")
    expect(page.locator("#org-message")).to_contain_text("seed 4127")
    expect(page.locator(".tablecard")).to_have_count(2)
    shot(page, "2-drawn")

    # table 1 plays on paper: the scorer's sheet typed in, totals worked out
    card = page.locator(".tablecard").nth(0)
    card.get_by_role("button", name="Enter the score sheets").click()
    expect(page.locator("#paper-panel")).to_be_visible()
    hand = page.locator(".hand-entry").nth(0)
    team1 = hand.locator(".team-entry").nth(0)
    team2 = hand.locator(".team-entry").nth(1)
    team1.locator(".melds").fill("KH KD KS KC KH KD KS\nAH AD AC")
    team1.locator(".exact_deals").fill("1")
    team1.locator(".hand").nth(1).fill("8H 4C")
    team2.locator(".melds").fill("QH QD QS")
    team2.locator(".hand").nth(0).fill("9S 3H")
    page.click("#paper-check")
    expect(page.locator("#paper-result")).to_contain_text("Not saved yet")
    totals = page.locator("#paper-result tr.total td.num").all_inner_texts()
    # 500 red book + 7 kings 70 + aces 60 - 15 + 100 exact deal; 30 - 10 - red 3 500
    assert totals == ["715", "-480"], totals
    shot(page, "3-paper-sheet")
    page.click("#paper-save")
    expect(page.locator("#org-message")).to_contain_text("result saved")
    expect(page.locator("#tstatus-1")).to_contain_text("Team 1 715, Team 2 -480")

    # a slip found later: the sheets open as entered; one figure changed and saved
    card = page.locator(".tablecard").nth(0)
    card.get_by_role("button", name="Correct the score sheets").click()
    expect(page.locator("#paper-correcting")).to_be_visible()
    expect(page.locator("#paper-title")).to_contain_text("correct the score sheets")
    hand = page.locator(".hand-entry").nth(0)
    team1 = hand.locator(".team-entry").nth(0)
    team2 = hand.locator(".team-entry").nth(1)
    expect(team1.locator(".melds")).to_have_value("KH KD KS KC KH KD KS\nAH AD AC")
    expect(team1.locator(".hand").nth(1)).to_have_value("8H 4C")
    expect(team2.locator(".melds")).to_have_value("QH QD QS")
    expect(team2.locator(".hand").nth(0)).to_have_value("9S 3H")
    expect(team1.locator(".exact_deals")).to_have_value("1")
    team1.locator(".exact_deals").fill("0")  # nobody dealt exactly: 100 less
    shot(page, "3b-correcting")
    page.click("#paper-save")
    expect(page.locator("#org-message")).to_contain_text("result saved")
    expect(page.locator("#tstatus-1")).to_contain_text("Team 1 615, Team 2 -480")
    # the standings follow: team 1's partnership has 615 points now
    first, second = card.locator(":scope > div").nth(0).inner_text().split(": ", 1)[1] \
        .split(" & ")
    row = page.locator("#org-standings table.standings").nth(0).locator(
        "tr", has_text=first).filter(has_text=second)
    expect(row).to_contain_text("615")

    # table 2 plays online, every seat a computer player; its result comes in by itself
    card = page.locator(".tablecard").nth(1)
    card.locator("summary").click()
    for box in card.locator("input[type=checkbox]").all():
        box.check()
    card.get_by_role("button", name="Start table 2 online").click()
    expect(page.locator("#org-message")).to_contain_text("playing online")
    links = page.locator(".tablecard").nth(1).locator("a.invite")
    expect(links).to_have_count(4)
    assert all("/table/" in h for h in links.evaluate_all("els => els.map(e => e.href)"))
    expect(page.locator("#tstatus-2")).to_contain_text("Result in", timeout=30_000)
    # without a reload, the finished table's card loses its invite links and buttons
    expect(links).to_have_count(0)
    expect(page.locator(".tablecard").nth(1).locator("button")).to_have_count(0)
    expect(page.locator("#org-standings")).to_contain_text("Anne Lee")
    shot(page, "4-organiser")

    # the printed pages: assignments, score sheets, results
    for name, path in [("assignments", f"/events/{key}/print/assignments/1"),
                       ("score-sheets", f"/events/{key}/print/score-sheets/1"),
                       ("results", f"/events/{key}/print/results")]:
        printed = ctx.new_page()
        printed.goto(server.base + path)
        printed.emulate_media(media="print")
        assert "Friday at the Pines" in printed.title()
        shot(printed, f"print-{name}")
        pdf = printed.pdf(path=str(SHOTS / f"handfoot-club-print-{name}.pdf"))
        assert pdf[:4] == b"%PDF"
        printed.close()

    # the players' page: standings and "find your table", no organiser controls
    public = browser.new_context(viewport={"width": 1000, "height": 800}).new_page()
    public.goto(server.base + f"/events/{key}")
    expect(public.locator("#pub-name")).to_have_text("Friday at the Pines")
    expect(public.locator("#pub-progress")).to_contain_text("2 of 2 tables in")
    public.fill("#find-name", "carol")
    public.click("#find-form button[type=submit]")
    expect(public.locator("#find-result")).to_contain_text(re.compile(r"Round 1: table \d"))
    expect(public.locator("#pub-standings")).to_contain_text("Carol King")
    assert public.locator("#ev-org").is_hidden()
    shot(public, "5-players-page")
    # on a phone the standings fit the screen
    public.set_viewport_size({"width": 390, "height": 844})
    for standing in public.locator("#pub-standings table.standings").all():
        rect = standing.bounding_box()
        assert rect is not None and rect["x"] >= 0 and rect["x"] + rect["width"] <= 390, rect
    assert public.evaluate("document.documentElement.scrollWidth") <= 390
    shot(public, "5-players-page-phone")
    public.set_viewport_size({"width": 1000, "height": 800})
    # the organiser's page asks the password; a wrong one is refused politely
    public.goto(server.base + f"/events/{key}/organiser")
    expect(public.locator("#ev-login")).to_be_visible()
    public.fill("#login-password", "guess")
    public.click("#login-form button[type=submit]")
    expect(public.locator("#login-error")).to_contain_text("not the password")
    public.fill("#login-password", "monitor")
    public.click("#login-form button[type=submit]")
    expect(public.locator("#org-name")).to_have_text("Friday at the Pines")
    assert not errors, errors


def test_a_player_at_an_online_event_table_hears_the_clock(browser: Browser,
                                                           server: ServerProcess) -> None:
    """A player opens their invite link; the organiser sends the warning, then calls
    time: the player's page says so, and the Samboree's hand ends as it stands."""
    from club_pages import Http, create_event
    org = Http(server)
    key = create_event(org, "Samboree night", "alabama-samboree", players=4)
    base = f"/api/events/{key}"
    org.post(base + "/draw", {"round": 1, "seed": 5})
    out = org.post(base + "/online", {"round": 1, "table": 1, "computer": [1, 2, 3],
                                      "level": "heuristic"})
    me = out["invites"][0]
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(me["url"])
    expect(page.locator("#info")).to_contain_text("Hand 1 of 3")
    expect(page.locator("#others")).to_contain_text(out["invites"][1]["name"])
    assert page.locator("#notice").is_hidden()
    assert "1 table(s)" in org.post(base + "/clock", {"round": 1, "do": "warn"})["message"]
    expect(page.locator("#notice")).to_contain_text("15 minutes left")
    org.post(base + "/clock", {"round": 1, "do": "call"})
    expect(page.locator("#notice")).to_contain_text("Time is called")
    expect(page.locator("#end-of-hand")).to_contain_text("Game over")
    shot(page, "6-player-time-called")
    result = org.get(base + "/manage")["rounds_info"][0]["tables"][0]["result"]
    assert result["time_called"] and result["source"] == "online"


def test_breaking_a_tie_for_first_place_in_a_browser(browser: Browser,
                                                     server: ServerProcess) -> None:
    """Two tables with the same sheets: first place is tied. The organiser's page shows
    the tie-break the rules ask for (the Samboree's play-off, or a high-card draw if time
    dictates), and the standings show who won it."""
    from club_pages import PASSWORD, Http, form_hand, tied_event
    org = Http(server)
    key = tied_event(org, "Tied at the Pines", "playoff-hand")
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    page.goto(server.base + f"/events/{key}/organiser")
    page.fill("#login-password", PASSWORD)
    page.click("#login-form button[type=submit]")
    expect(page.locator("#org-name")).to_have_text("Tied at the Pines")
    assert page.locator("#tie-panel").is_hidden()  # table 2 has no result yet
    hand = form_hand(None, ["KH KD KS KC KH KD KS\nAH AD AC", "QH QD QS"], ["8H 4C", "9S"])
    org.post(f"/api/events/{key}/paper", {"round": 1, "table": 2, "hands": [hand],
                                          "save": True})
    expect(page.locator("#tie-panel")).to_be_visible(timeout=10_000)  # the page refreshes
    ties = page.locator("#tie-body .tie")
    expect(ties).to_have_count(3)  # teams, players, chapters
    team_tie = ties.filter(has_text="among the teams")
    names = team_tie.locator(".tie-winner option").all_inner_texts()[1:]
    assert len(names) == 2
    team_tie.get_by_role("button", name="Enter the winner").click()
    expect(page.locator("#tie-error")).to_contain_text("Choose the winner")
    shot(page, "7-tie")
    team_tie.locator(".tie-winner").select_option(names[1])
    team_tie.get_by_role("button", name="Enter the winner").click()
    expect(page.locator("#org-message")).to_contain_text(f"{names[1]} takes first place")
    expect(ties).to_have_count(2)
    standing = page.locator("#org-standings")
    expect(standing).to_contain_text(f"{names[1]}, who won the tie-break (a play-off)")
    # the players' tie: a high-card draw "if time dictates"
    player_tie = ties.filter(has_text="among the players")
    player_tie.locator("summary").click()
    player_tie.locator(".tie-seed").fill("4127")
    player_tie.get_by_role("button", name="Draw high cards").click()
    expect(standing).to_contain_text("a high-card draw, seed 4127")
    expect(standing).to_contain_text("draw 1:")
    expect(ties).to_have_count(1)
    shot(page, "8-tie-broken")
    # the players' page shows it too
    public = browser.new_context(viewport={"width": 1000, "height": 800}).new_page()
    public.goto(server.base + f"/events/{key}")
    expect(public.locator("#pub-standings")).to_contain_text(
        f"{names[1]}, who won the tie-break (a play-off)")
    assert not errors, errors


def page_errors(page: Page) -> list[str]:
    """The script errors the page will raise."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def test_a_paper_table_entered_by_totals_in_a_browser(browser: Browser,
                                                      server: ServerProcess) -> None:
    """The organiser enters one team of a paper table by the printed sheet's totals and
    the other meld by meld, on a phone and on a desk-top screen: the books are named in
    the Samboree's words, the totals match the same table entered meld by meld, a total
    that cannot be is refused naming its line, and the sheets open again as entered.
    Screenshots at 390x844 and 1280x800 (handfoot-club-totals-*.png)."""
    from club_pages import PASSWORD, Http, paper_round
    org = Http(server)
    base, hands = paper_round(org, "Totals at the Pines")
    key = base.rsplit("/", 1)[1]
    by_melds = org.post(base + "/paper", {"round": 1, "table": 1, "hands": hands[:1],
                                          "time_called": True})["totals"]
    for width, height in ((390, 844), (1280, 800)):
        page = browser.new_context(viewport={"width": width, "height": height}).new_page()
        errors = page_errors(page)
        page.goto(server.base + f"/events/{key}/organiser")
        page.fill("#login-password", PASSWORD)
        page.click("#login-form button[type=submit]")
        expect(page.locator("#org-name")).to_have_text("Totals at the Pines")
        page.locator(".tablecard").nth(0).get_by_role(
            "button", name=re.compile("score sheets")).click()
        expect(page.locator("#paper-panel")).to_be_visible()
        hand = page.locator(".hand-entry").nth(0)
        team1, team2 = hand.locator(".team-entry").nth(0), hand.locator(".team-entry").nth(1)
        # team 1 by totals: the meld fields give way to the printed sheet's lines
        expect(team1.locator(".by-totals")).to_be_hidden()
        team1.get_by_label("By totals, as on the printed sheet").check()
        expect(team1.locator(".by-totals")).to_be_visible()
        expect(team1.locator(".by-melds")).to_be_hidden()
        expect(team1.locator(".by-totals")).to_contain_text("Red books")
        expect(team1.locator(".by-totals")).to_contain_text("Black books")
        expect(team1.locator(".by-totals")).not_to_contain_text("canasta")
        team1.get_by_label("Red books").fill("1")
        team1.get_by_label("Card points on the table").fill("133")  # a slip: not x 5
        team1.locator(".exact_deals").fill("1")
        # team 2 meld by meld, as before
        team2.locator(".melds").fill("QH QD QS")
        team2.locator(".short_openings").fill("1")
        team2.locator(".penalties").fill("20")
        team2.locator(".hand").nth(0).fill("9S")
        team2.locator(".foot").nth(0).fill("5C 6C")
        for extra in page.locator(".hand-entry").all()[1:]:
            expect(extra.locator(".team-entry")).to_have_count(2)  # hands 2, 3: blank
        page.check("#paper-time")
        page.click("#paper-check")
        expect(page.locator("#paper-error")).to_contain_text("totals.table_cards = 133")
        team1.get_by_label("Card points on the table").fill("130")
        team1.get_by_label(re.compile("Points of cards left")).fill("10")
        page.click("#paper-check")
        expect(page.locator("#paper-result")).to_contain_text("Not saved yet")
        totals = page.locator("#paper-result tr.total td.num").all_inner_texts()
        assert [int(x) for x in totals] == by_melds, (totals, by_melds)
        team1.scroll_into_view_if_needed()
        shot(page, f"totals-{width}")
        assert not errors, errors
        if width == 390:  # nothing spills off a phone's screen
            overflow = page.evaluate("document.documentElement.scrollWidth")
            assert overflow <= width, overflow
            continue
        page.click("#paper-save")
        expect(page.locator("#org-message")).to_contain_text("result saved")
        # opened again to correct: team 1 by totals, team 2 meld by meld, as entered
        page.locator(".tablecard").nth(0).get_by_role(
            "button", name="Correct the score sheets").click()
        expect(page.locator("#paper-correcting")).to_be_visible()
        hand = page.locator(".hand-entry").nth(0)
        team1, team2 = hand.locator(".team-entry").nth(0), hand.locator(".team-entry").nth(1)
        expect(team1.locator(".by-totals")).to_be_visible()
        expect(team1.get_by_label("Card points on the table")).to_have_value("130")
        expect(team2.locator(".by-melds")).to_be_visible()
        expect(team2.locator(".melds")).to_have_value("QH QD QS")
        shot(page, "totals-correcting")
        assert not errors, errors
