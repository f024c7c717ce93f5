"""A whole hand played in Chromium as a person plays it: at phone size with taps only, and
at desktop size with the keyboard only. Screenshots of both are saved (HANDFOOT_SHOTS,
/tmp by default) as ``handfoot-phone-*.png`` and ``handfoot-desktop-*.png``."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from handfoot.server.testing import ServerProcess
from pages import SHOTS, TABLE, state

with contextlib.suppress(ImportError):  # (the tests are skipped then: see conftest.py)
    from playwright.sync_api import Browser, Page


def shot(page: Page, name: str) -> None:
    w = (page.viewport_size or {"width": 0})["width"]
    kind = "phone" if w < 600 else "desktop"
    page.wait_for_timeout(600)  # the brief animations are over
    page.screenshot(path=str(SHOTS / f"handfoot-{kind}-{name}-{w}.png"))


def wait_for(page: Page, what: Callable[[Any], bool], timeout: float = 30) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        st = state(page)
        if st is not None and what(st):
            return st
        assert time.monotonic() < deadline, (
            f"it did not come: {page.inner_text('#prompt')!r} {page.inner_text('#message')!r}")
        page.wait_for_timeout(40)


def my_move_or_hand_over(st: Any) -> bool:
    return bool(st["waiting"] or st["view"]["game_over"] or (
        st["view"]["actor"] == st["seat"] and st["legal"]))


def after(page: Page, st: Any) -> Any:
    """The state after the action just sent (a new move, or the table waiting)."""
    return wait_for(page, lambda s: s["seq"] > st["seq"] or s["waiting"] is not None)


def start(page: Page, base: str, rules: str) -> None:
    page.goto(base + "/")
    page.wait_for_selector("#quick-rules option", state="attached")
    page.select_option("#quick-rules", rules)


#: counts the brief animations the page starts (none where less motion is asked for)
COUNT_ANIMATIONS = """window.animations = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) { window.animations += 1;
  return animate.apply(this, args); };"""


#: every card drawn takes clicks exactly when it is not flying in
IN_FLIGHT_TAKE_NO_CLICKS = """[...document.querySelectorAll('#hand .card.fresh')].every((el) =>
  (getComputedStyle(el).pointerEvents === 'none') ===
  el.getAnimations().some((a) => a.playState !== 'finished'))"""


class Turns:
    """A simple player: draw, go down or lay down what the engine lists (taking back what
    cannot open), add, discard the first card the engine allows; it remembers what it saw."""

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self.took_back = False

    def choose(self, st: Any) -> tuple[str, Any]:
        legal = st["legal"]
        kinds = {a["type"] for a in legal}
        for simple in ("choose-hand", "answer", "draw", "pick-up-foot", "go-down"):
            if simple in kinds:
                return simple, next(a for a in legal if a["type"] == simple)
        if "discard" not in kinds and "take-back" in kinds:
            self.took_back = True
            return "take-back", next(a for a in legal if a["type"] == "take-back")
        if "meld" in kinds and not self.took_back:
            return "meld", next(a for a in legal if a["type"] == "meld")
        if "add" in kinds:
            return "add", next(a for a in legal if a["type"] == "add")
        if "discard" in kinds:
            self.took_back = False
            return "discard", next(a for a in legal if a["type"] == "discard")
        return kinds.pop(), legal[0]


# ------------------------------------------------------------------ phone, taps
def tap_cards(page: Page, cards: list[str]) -> None:
    for code in cards:
        page.locator(f'#hand .card[data-code="{code}"]:not(.selected)').first.tap()


def phone_move(page: Page, st: Any, kind: str, a: Any) -> None:
    if kind == "choose-hand":
        page.locator("button.take-stack").nth(a["stack"]).tap()
    elif kind == "answer":
        page.locator("#act-yes").tap()
    elif kind in ("draw", "pick-up-foot", "go-down"):
        page.locator({"draw": "#act-draw", "pick-up-foot": "#act-foot",
                      "go-down": "#act-go-down"}[kind]).tap()
    elif kind == "take-back":
        page.locator(f'#melds button.take-back[data-meld="{a["meld"]}"]').tap()
    elif kind == "meld":
        tap_cards(page, a["cards"])
        page.wait_for_selector("#act-lay:not([disabled])")
        page.locator("#act-lay").tap()
    elif kind == "add":
        tap_cards(page, a["cards"])
        page.wait_for_selector("#act-add:not([disabled])")
        chip = page.locator(f'#melds .meld.target[data-meld="{a["meld"]}"] .chip')
        # a tap straight on a meld asks first: "Not now" adds nothing, "Add" adds
        chip.tap()
        page.wait_for_selector("#confirm:not([hidden])")
        assert f"to meld {a['meld'] + 1} (" in page.inner_text("#confirm")
        page.locator("#confirm-no").tap()
        assert state(page)["seq"] == st["seq"] and page.locator("#confirm").is_hidden()
        assert page.locator("#hand .card.selected").count() == len(a["cards"])
        chip.tap()
        page.locator("#confirm-add").tap()
    elif kind == "discard":
        tap_cards(page, [a["card"]])
        # one card: no meld preview, and the prompt says what Discard does
        assert page.inner_text("#preview") == ""
        assert "Discard" in page.inner_text("#prompt")
        page.locator("#act-discard").tap()
    else:
        page.locator(f"#act-{kind}").tap()


def check_phone_layout(page: Page, zones: tuple[str, ...] = ("#stock", "#pile", "#dock")
                       ) -> None:
    """The hand and the buttons at the bottom of the screen, the turn, pile and stock at
    the top, even scrolled; nothing wider than the screen; targets of 44 px at least."""
    page.evaluate("window.scrollTo(0, document.body.scrollHeight / 2)")
    page.wait_for_timeout(100)
    dock = page.locator("#dock").bounding_box()
    top = page.locator("#table-top").bounding_box()
    assert dock is not None and top is not None
    assert abs(dock["y"] + dock["height"] - 844) <= 2, dock
    assert top["y"] >= -1 and top["y"] + top["height"] < 844 / 3, top
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for sel in zones:
        box = page.locator(sel).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, (sel, box)
    small = page.evaluate("""() => [...document.querySelectorAll(
        '#table button:not([hidden]), #hand .card')].filter((e) => e.offsetParent)
        .map((e) => [e.id || e.className || e.textContent, e.getBoundingClientRect()])
        .filter(([, r]) => r.width < 44 || r.height < 44).map(([n]) => n)""")
    assert not small, small
    cut = page.evaluate("""() => [...document.querySelectorAll('#table button, #hand .card')]
        .filter((e) => e.offsetParent && e.getBoundingClientRect().right > innerWidth)
        .map((e) => e.id || e.textContent)""")
    assert not cut, cut  # nothing cut off at the right edge
    page.evaluate("window.scrollTo(0, 0)")


#: whether the whole element is on the screen, and not under anything else
IN_VIEW = """(el) => {
    const r = el.getBoundingClientRect();
    if (!r.width || r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth)
        return false;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return Boolean(hit && el.contains(hit));
}"""


def in_viewport(page: Page, selector: str) -> bool:
    return bool(page.locator(selector).evaluate(IN_VIEW))


def watch_the_computers(page: Page, st: Any) -> int:
    """Until it is this person's turn again: each computer move, as it comes, is the last
    move told at the top, on the screen, with the hand on the screen too; returns how many
    were seen."""
    seen = 0
    last_seq = st["seq"]
    while True:
        # (the state and the page read at once: the next move may come any moment)
        now, told, top, hand = page.evaluate(f"""async () => {{
            const s = {TABLE}.table.state, seen = {IN_VIEW}, $ = (q) => document.querySelector(q);
            return [s, $('#last-move-text').textContent, seen($('#last-move')), seen($('#hand'))];
        }}""")
        if my_move_or_hand_over(now):
            return seen
        if now["seq"] != last_seq and now["log"] and now["log"][0]["seat"] != now["seat"]:
            last_seq = now["seq"]
            assert told == now["log"][0]["text"]
            assert top and hand
            seen += 1
        page.wait_for_timeout(15)


#: each greyed button's action as the prompt would name it
PROMPT_WORDS = {"act-draw": "draw", "act-pile": "take the pile", "act-lay": "lay ",
                "act-go-down": "go down", "act-add": "add ", "act-discard": "discard"}


def greyed_buttons_say_why(page: Page, st: Any) -> int:
    """Every greyed button of the turn has its reason beside it (the server's, from the
    engine), and the prompt names none of them unless it says how to make it work (select
    cards); returns how many buttons were greyed."""
    greyed = page.eval_on_selector_all("#actions button:disabled", """els => els.map((b) => {
        const why = document.getElementById(b.getAttribute('aria-describedby') || '');
        return [b.id, why && why.offsetParent ? why.textContent : null]; })""")
    prompt = page.inner_text("#prompt")
    team = st["view"]["teams"][st["view"]["players"][st["seat"]]["team"]]
    # (the warning that taking back short costs points says how to avoid it: "go down")
    prompt = prompt.replace(team.get("short_warning") or "\0", "").lower()
    reasons = st.get("reasons") or {}
    for button, why in greyed:
        assert why, f"{button} is greyed with no reason beside it"
        name = button.removeprefix("act-")
        assert reasons.get(name) and why.endswith(reasons[name]), (button, why, reasons)
        if reasons[name] != "Select cards first.":
            assert PROMPT_WORDS.get(button, "?!") not in prompt, (button, prompt)
    return len(greyed)


def both_teams_melds_in_reach(page: Page) -> None:
    """The opponents' melds one tap away, the hand still on the screen; and back."""
    page.locator('#views button[data-view="them"]').tap()
    assert page.locator("#melds .team").nth(1).is_visible()
    assert not page.locator("#melds .team").first.is_visible()
    assert in_viewport(page, "#melds .team >> nth=1 >> h3") and in_viewport(page, "#hand")
    assert in_viewport(page, "#melds .team >> nth=1 >> .meld >> nth=0")
    assert in_viewport(page, "#dock")
    shot(page, "6-opponents")
    page.locator('#views button[data-view="moves"]').tap()
    assert in_viewport(page, "#log li:first-child")
    page.locator('#views button[data-view="us"]').tap()
    assert page.locator("#melds .team").first.is_visible()


@pytest.fixture
def paced_server(sqlite_url: str) -> Iterator[ServerProcess]:
    """A server whose computers wait a moment before each move (as they do when served:
    a person sees each one), short enough for a test."""
    with ServerProcess(sqlite_url, bot_delay=0.05) as s:
        yield s


@pytest.mark.slow
def test_a_whole_hand_at_phone_size_with_taps_only(browser: Browser,
                                                    paced_server: ServerProcess) -> None:
    server = paced_server
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True, device_scale_factor=1,
                                  reduced_motion="reduce")
    page = context.new_page()
    page.add_init_script(COUNT_ANIMATIONS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    start(page, server.base, "alabama-samboree")
    page.locator("#quick-play").tap()
    # hand and foot are chosen: the two stacks with their face-up cards
    page.wait_for_selector("button.take-stack")
    st = wait_for(page, my_move_or_hand_over)
    if any(a["type"] == "choose-hand" for a in st["legal"]):
        assert page.locator(".stack .card:not(.back)").count() == 2
        assert "Your hand is empty" not in page.inner_text("#dock")
        shot(page, "1-choose-stack")
    player = Turns()
    computer_moves = greyed = 0
    shots = {"2-your-turn", "3-drawn", "4-meld-open", "5-hand-over", "6-opponents"}
    for _ in range(400):
        st = wait_for(page, my_move_or_hand_over)
        if st["waiting"] or st["view"]["game_over"]:
            break
        kind, a = player.choose(st)
        greyed += greyed_buttons_say_why(page, st)
        if kind == "draw" and "2-your-turn" in shots:
            assert page.title().startswith("● Your turn")
            assert page.inner_text("#prompt").startswith("Draw from the stock")
            assert page.is_disabled("#act-pile") == ("take-pile" not in {
                x["type"] for x in st["legal"]})
            check_phone_layout(page)
            shot(page, "2-your-turn")
            shots.discard("2-your-turn")
        phone_move(page, st, kind, a)
        new = after(page, st)
        if kind == "discard" and not new["waiting"]:
            computer_moves += watch_the_computers(page, new)
        if kind == "draw" and new["fresh"] and "3-drawn" in shots:
            # the cards just drawn are marked in the hand, and the log says so first
            page.wait_for_selector("#hand .card.fresh")
            assert page.locator("#hand .card.fresh").count() == len(new["fresh"])
            assert page.evaluate("window.animations") == 0  # asked for less motion: none
            assert page.inner_text("#log li:first-child").startswith("You drew ")
            # the prompt names first what the engine allows first (the partner may have
            # opened already: then adding comes first, not laying out)
            kinds = {x["type"] for x in new["legal"]}
            first = next(words for kind, words in (
                ("go-down", "Go down"), ("meld", "Lay "), ("add", "Add to your melds"),
                ("take-back", "Take back"), ("discard", "Choose a card to discard"),
                ("pick-up-foot", "Pick up your foot"), ("ask", "Ask to go out"),
                ("end-turn", "End your turn")) if kind in kinds)
            assert page.inner_text("#prompt").startswith(first)
            shot(page, "3-drawn")
            shots.discard("3-drawn")
        team = new["view"]["teams"][new["view"]["players"][new["seat"]]["team"]]
        if team["melds"] and "4-meld-open" in shots and not new["waiting"]:
            # a meld is a chip on a phone; a tap opens it to show its cards
            chip = page.locator("#melds .team.mine .meld .chip").first
            assert not page.locator("#melds .team.mine .meld .cards").first.is_visible()
            if not page.locator("#melds .team.mine .meld.target").count():
                chip.tap()
                assert page.locator("#melds .team.mine .meld.open .cards").first.is_visible()
                shot(page, "4-meld-open")
                chip.tap()
                shots.discard("4-meld-open")
        others = [t for t in new["view"]["teams"] if t is not team]
        if any(t["melds"] for t in others) and "6-opponents" in shots and not new["waiting"] \
                and my_move_or_hand_over(new):
            both_teams_melds_in_reach(page)
            shots.discard("6-opponents")
    else:
        raise AssertionError("the hand did not end")
    # the end of the hand: who went out, each team's score, item by item, and Next hand
    page.wait_for_selector("#end-of-hand:not([hidden])")
    text = page.inner_text("#end-of-hand")
    st = state(page)
    assert f"Hand {st['last_hand']['number']} is over" in text
    assert "Your team:" in text and "Team 2:" in text
    for team in st["last_hand"]["teams"]:
        for label, _ in team["lines"]:
            assert label in text
    if st["last_hand"]["ended_by"] == "out":
        assert "went out" in text
    assert computer_moves > 0 and greyed > 0
    check_phone_layout(page, ("#dock", "#end-of-hand"))  # (the next hand's pile: hidden)
    shot(page, "5-hand-over")
    assert st["waiting"] == {"hand": 1, "ready": [], "people": [0]}
    page.locator("#act-next-hand").tap()
    st = wait_for(page, lambda s: s["waiting"] is None)
    assert st["view"]["hand_number"] == 2
    page.wait_for_selector("#end-of-hand", state="hidden")
    assert not errors, errors
    context.close()


# ------------------------------------------------------------- desktop, keyboard
def focused_pos(page: Page) -> int | None:
    pos = page.evaluate("document.activeElement && document.activeElement.dataset "
                        "&& document.activeElement.closest('#hand') ? "
                        "document.activeElement.dataset.pos : null")
    return None if pos is None else int(pos)


def key_select(page: Page, cards: list[str]) -> None:
    """Select cards with the arrow keys and Space."""
    for code in cards:
        target = page.eval_on_selector(
            f'#hand .card[data-code="{code}"]:not(.selected)', "e => Number(e.dataset.pos)")
        at = focused_pos(page)
        if at is None:  # an arrow key brings the focus back to the hand
            page.keyboard.press("ArrowLeft")
            at = focused_pos(page)
            assert at is not None
        while at != target:
            page.keyboard.press("ArrowRight" if target > at else "ArrowLeft")
            now = focused_pos(page)
            assert now == at + (1 if target > at else -1)  # focus follows the arrows
            at = now
        page.keyboard.press("Space")


def key_move(page: Page, st: Any, kind: str, a: Any) -> None:
    keys = {"draw": "d", "pick-up-foot": "f", "go-down": "o", "answer": "y", "end-turn": "e"}
    if kind in keys:
        page.keyboard.press(keys[kind])
    elif kind == "choose-hand":
        page.keyboard.press(str(a["stack"] + 1))
    elif kind == "take-back":  # B: the last meld laid out
        page.keyboard.press("b")
    elif kind == "meld":
        key_select(page, a["cards"])
        page.wait_for_selector("#act-lay:not([disabled])")
        page.keyboard.press("l")
    elif kind == "add":
        key_select(page, a["cards"])
        page.wait_for_selector("#act-add:not([disabled])")
        page.keyboard.press("a")
        number = a["meld"] + 1
        for digit in str(number):
            page.keyboard.press(digit)
        team = st["view"]["teams"][st["view"]["players"][st["seat"]]["team"]]
        if len(team["melds"]) >= number * 10:  # "1" could begin "12": Enter says it is 1
            page.keyboard.press("Enter")
    elif kind == "discard":
        key_select(page, [a["card"]])
        page.wait_for_selector("#act-discard:not([disabled])")
        page.keyboard.press("x")


@pytest.mark.slow
def test_a_whole_hand_at_desktop_size_with_the_keyboard_only(
        browser: Browser, server: ServerProcess) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.add_init_script(COUNT_ANIMATIONS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    start(page, server.base, "classic")
    for _ in range(40):  # Tab to the button, Enter
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "quick-play":
            break
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand .card")
    st = wait_for(page, my_move_or_hand_over)
    # Tab into the hand lands on one card; the arrows move from the card that has the focus
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert focused_pos(page) == 2
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    assert focused_pos(page) == 2
    page.keyboard.press("ArrowRight")
    assert focused_pos(page) == 3
    name = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert " of " in name or name.startswith("joker")  # "queen of hearts"
    player = Turns()
    landed = False
    shots = {"1-your-turn", "2-refused-then-esc", "3-melds"}
    for _ in range(500):
        st = wait_for(page, my_move_or_hand_over)
        if st["waiting"] or st["view"]["game_over"]:
            break
        kind, a = player.choose(st)
        if kind == "draw" and "1-your-turn" in shots:
            # the hint: what the medium computer player would do, and why, in one line
            page.keyboard.press("h")
            page.wait_for_function("/^Hint: [A-Z].*\\.$/.test(document.querySelector('#hint-line')"
                                   ".textContent)")
            assert page.inner_text("#hint-line").startswith(("Hint: Draw", "Hint: Take"))
            # this table's rules, in plain words
            assert "To go out your team needs" in (page.text_content("#rules-words") or "")
            page.evaluate("document.querySelector('#rules-box').open = true")
            shot(page, "1-your-turn")
            page.evaluate("document.querySelector('#rules-box').open = false")
            shots.discard("1-your-turn")
        if kind == "discard" and "2-refused-then-esc" in shots:
            # a selection the engine refuses: its word is shown; Esc clears it all
            hand = st["view"]["hand"]
            three = list({c[:-1]: c for c in hand if c != "JK" and c[:-1] != "2"}.values())[:3]
            if len(three) == 3:
                key_select(page, three)
                page.wait_for_function("document.querySelector('#preview').textContent"
                                       ".includes(' — ')")
                assert page.is_disabled("#act-lay")
                shot(page, "2-refused-then-esc")
                page.keyboard.press("Escape")
                assert page.inner_text("#preview") == ""
                assert page.locator("#hand .card.selected").count() == 0
                shots.discard("2-refused-then-esc")
        key_move(page, st, kind, a)
        new = after(page, st)
        if kind == "draw" and new["fresh"] and not landed:
            # the cards drawn fly in from the stock; in flight they take no clicks (one
            # meant for the card a flying card passes over reaches that card), landed
            # they do
            assert page.evaluate(IN_FLIGHT_TAKE_NO_CLICKS), "a card in flight took clicks"
            page.wait_for_function("[...document.querySelectorAll('#hand .card.fresh')]"
                                   ".every((el) => !el.getAnimations().length)")
            assert page.evaluate("[...document.querySelectorAll('#hand .card.fresh')].every("
                                 "(el) => getComputedStyle(el).pointerEvents === 'auto')")
            landed = True
        mine = new["view"]["teams"][new["view"]["players"][new["seat"]]["team"]]
        if len(mine["melds"]) >= 2 and "3-melds" in shots and not new["waiting"]:
            shot(page, "3-melds")
            shots.discard("3-melds")
    else:
        raise AssertionError("the hand did not end")
    page.wait_for_selector("#end-of-hand:not([hidden])")
    st = state(page)
    text = page.inner_text("#end-of-hand")
    assert "Your team:" in text
    assert "went out" in text or "stock ran out" in text
    assert page.is_enabled("#act-next-hand")
    # the log tells the last move as the viewer knows it
    assert page.locator("#log li").count() > 10
    # the cards drawn flew in from the stock, melds grew in; each move was announced
    assert page.evaluate("window.animations") > 0
    assert page.text_content("#live")
    shot(page, "4-hand-over")
    page.keyboard.press("n")  # Next hand
    st = wait_for(page, lambda s: s["waiting"] is None)
    assert st["view"]["hand_number"] == 2
    assert not errors, errors
    page.close()


# ------------------------------------------------------------ sorting, dragging
def hand_codes(page: Page) -> list[str]:
    return list(page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.code)"))


#: no animation runs on the element or inside it (a card drawn flies in, and takes no
#: pointer until it lands: pressed in flight, a drag would never start)
SETTLED = """(el) => el.getAnimations({subtree: true}).every((a) =>
  a.playState === 'finished' || a.playState === 'idle')"""

#: a point of the element a person can press: on the screen and not under anything else
#: (cards of the hand overlap, and the bars at the top and bottom stay in place over the
#: melds scrolled under them); null if there is none
HIT_POINT = """(el) => {
  const r = el.getBoundingClientRect();
  for (const fy of [0.5, 0.3, 0.7, 0.15, 0.85]) {
    for (const fx of [0.5, 0.25, 0.1, 0.75, 0.9]) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      const hit = document.elementFromPoint(x, y);
      if (hit && el.contains(hit)) return [x, y];
    }
  }
  return null;
}"""

Point = tuple[float, float]


def drag_points(page: Page, source: str, target: str) -> tuple[Point, Point] | None:
    """Where a person would press a card and let it go on a meld (or another card), both
    on the screen at once (the target scrolled into view), once neither moves any more;
    None where they cannot both be reached (the test then adds by clicks)."""
    page.wait_for_selector(target)
    page.locator(target).scroll_into_view_if_needed()
    points = []
    for where in (source, target):
        page.locator(where).wait_for(state="visible")
        page.wait_for_function(SETTLED, arg=page.locator(where).element_handle())
        point = page.locator(where).evaluate(HIT_POINT)
        if point is None:
            return None
        points.append((float(point[0]), float(point[1])))
    return points[0], points[1]


def drag(page: Page, points: tuple[Point, Point]) -> None:
    """Press at the first point, move past the page's drag threshold, let go at the
    second."""
    (ax, ay), (bx, by) = points
    page.mouse.move(ax, ay)
    page.mouse.down()
    page.mouse.move(ax + 15, ay - 12, steps=3)
    page.mouse.move(bx, by, steps=8)
    page.mouse.up()


def test_the_hand_sorted_by_suit_and_rearranged_by_dragging(
        browser: Browser, server: ServerProcess) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    start(page, server.base, "texas-good-sam")
    page.click("#quick-play")
    page.wait_for_selector("#hand .card")
    st = wait_for(page, my_move_or_hand_over)
    by_rank = hand_codes(page)
    assert by_rank == st["view"]["hand"]  # sorted by rank, as the server sends it
    page.click("#sort-suit")
    by_suit = hand_codes(page)
    suits = [c[-1] for c in by_suit if c != "JK"]
    assert suits == sorted(suits, key="CDHS".index) and sorted(by_suit) == sorted(by_rank)
    assert page.get_attribute("#sort-suit", "aria-pressed") == "true"
    # the last card dragged before the first one: the person's own order, kept
    last = by_suit[-1]
    points = drag_points(page, "#hand .card >> nth=-1", "#hand .card >> nth=0")
    assert points is not None, "the hand's first and last cards cannot both be reached"
    drag(page, points)
    page.wait_for_function(f"document.querySelector('#hand .card').dataset.code === '{last}'")
    assert hand_codes(page) == [last, *by_suit[:-1]]
    assert page.get_attribute("#sort-suit", "aria-pressed") == "false"
    # a click still selects (a drag is not a click)
    assert page.locator("#hand .card.selected").count() == 0
    page.click("#hand .card >> nth=1")
    assert page.locator("#hand .card.selected").count() == 1
    page.click("#sort-rank")
    assert hand_codes(page) == st["view"]["hand"]
    page.keyboard.press("Escape")
    # play on (clicks) until a card can go on a meld: dragged there, it is added
    player = Turns()
    for _ in range(300):
        st = wait_for(page, my_move_or_hand_over)
        assert not st["view"]["game_over"], "no card could be added to a meld this game"
        kind, a = player.choose(st)
        source = f'#hand .card[data-code="{a["cards"][0]}"] >> nth=0' if kind == "add" else ""
        target = f'#melds .meld.target[data-meld="{a["meld"]}"] .chip' if kind == "add" else ""
        points = drag_points(page, source, target) \
            if kind == "add" and len(a["cards"]) == 1 else None
        if points is not None:
            drag(page, points)
            new = after(page, st)
            mine = new["view"]["teams"][new["view"]["players"][new["seat"]]["team"]]
            assert a["cards"][0] in mine["melds"][a["meld"]]["cards"]
            assert new["log"][0]["text"].startswith("You added ")
            break
        if kind in ("draw", "pick-up-foot", "answer"):
            page.keyboard.press({"draw": "d", "pick-up-foot": "f", "answer": "y"}[kind])
        elif kind == "discard":
            page.click(f'#hand .card[data-code="{a["card"]}"] >> nth=0')
            page.click("#act-discard")
        elif kind == "meld":
            for code in a["cards"]:
                page.click(f'#hand .card[data-code="{code}"]:not(.selected) >> nth=0')
            page.wait_for_selector("#act-lay:not([disabled])")
            page.click("#act-lay")
        elif kind == "add":
            for code in a["cards"]:
                page.click(f'#hand .card[data-code="{code}"]:not(.selected) >> nth=0')
            page.click("#act-add")
            page.click(f'#melds .meld.target[data-meld="{a["meld"]}"] .chip')
        elif kind == "take-back":
            page.click(f'#melds button.take-back[data-meld="{a["meld"]}"]')
        else:
            page.click("#act-" + {"end-turn": "end"}.get(kind, kind))
        after(page, st)
    else:
        raise AssertionError("no card was dragged onto a meld")
    assert not errors, errors
    page.close()


# ------------------------------------------------------------ going out told
def test_going_out_where_the_hand_goes_on_is_told(browser: Browser,
                                                  paced_server: ServerProcess) -> None:
    """texas-good-sam: going out does not end the hand. Whoever watches is told who went
    out, that the hand goes on until the stock is drawn, and (a tap away) why."""
    server = paced_server
    made = server.post("/api/tables", {"rules": "texas-good-sam", "seed": 4,
                                       "seats": [{"kind": "bot", "level": "medium"}] * 4})
    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + f"/table/{made['id']}")
    st = wait_for(page, lambda s: s["went_out"] is not None or s["view"]["phase"] == "over",
                  timeout=120)
    page.wait_for_selector("#banner:not([hidden])")
    who = st["went_out"]
    assert who is not None and st["view"]["phase"] != "over"
    text = page.inner_text("#banner")
    assert f"{st['seats'][who]['called']} went out." in text  # "Computer 3 (medium)"
    assert "The hand goes on until the stock has been drawn." in text
    page.click("#banner summary")
    assert "going out does not end the hand" in page.inner_text("#banner")
    shot(page, "7-went-out")
    assert in_viewport(page, "#banner")
    assert not errors, errors
    page.close()


# ------------------------------------------------- sizes, access, focus, keys
#: what is too small on the page for a finger or an older eye: controls under 44 px tall
#: (a checkbox inside its label counts as the label), text under 14 px; and its width
TOO_SMALL = """() => {
  const seen = (e) => e.offsetParent !== null;
  const name = (e) => (e.id ? '#' + e.id : e.tagName.toLowerCase() + '.' + String(e.className))
    + ' ' + (e.textContent || e.value || '').trim().slice(0, 24);
  const targets = [...document.querySelectorAll(
      'a[href], button, select, input, textarea, summary, [role=button]')]
    .filter(seen).filter((e) => !(e.matches('input[type=checkbox], input[type=radio]')
                                  && e.closest('label')))
    .map((e) => [e.closest('label') && e.matches('input') ? e.closest('label') : e, e])
    .filter(([box]) => box.getBoundingClientRect().height < 44)
    .map(([, e]) => name(e) + ' ' + Math.round(e.getBoundingClientRect().height));
  const text = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const el = walk.currentNode.parentElement;
    if (!walk.currentNode.textContent.trim() || !el || !seen(el)
        || el.closest('.sr-only, .visually-hidden')) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 14) text.push(name(el) + ' ' + size + 'px');
  }
  return {targets: [...new Set(targets)], text: [...new Set(text)],
          width: document.documentElement.scrollWidth};
}"""


def sized_for_a_phone(page: Page, where: str) -> None:
    """At 390 px wide: every control 44 px tall, no text under 14 px, nothing wider."""
    found = page.evaluate(TOO_SMALL)
    assert found == {"targets": [], "text": [], "width": 390}, (where, found)


def serious_violations(page: Page) -> list[str]:
    """What axe-core finds on the page that is serious or critical."""
    from axe_playwright_python.sync_playwright import Axe
    found = Axe().run(page).response["violations"]
    return [f"{v['impact']} {v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in found if v["impact"] in ("serious", "critical")]


def send_action(page: Page, action: Any) -> None:
    """An action sent as the page sends it (to reach a table in the middle of a game)."""
    page.evaluate("async (a) => (await import('/static/socket.js')).send("
                  "{type: 'action', action: a})", action)


def play_until(page: Page, done: Callable[[Any], bool], limit: int = 300) -> Any:
    """The person's moves made by a simple player until ``done(state)`` on their turn."""
    player = Turns()
    for _ in range(limit):
        st = wait_for(page, my_move_or_hand_over)
        assert not st["waiting"], "the hand ended first"
        if done(st):
            return st
        send_action(page, player.choose(st)[1])
        after(page, st)
    raise AssertionError("never came")


def melds_on_both_sides(st: Any) -> bool:
    return all(t["melds"] for t in st["view"]["teams"]) and any(
        e["seat"] != st["seat"] for e in st["log"])


def test_a_table_mid_game_is_sized_for_a_phone_and_accessible(
        browser: Browser, server: ServerProcess) -> None:
    """After computer moves, with melds on the table: at 390 px every control is 44 px
    tall and no text is under 14 px; axe-core finds nothing serious at either size;
    the focus stays at the table after an action; Take back has a key."""
    made = server.post("/api/tables", {"rules": "classic", "seed": 8, "seats": [
        {"kind": "human", "name": "Ann"}, *[{"kind": "bot", "level": "medium"}] * 3]})
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(made["invites"][0]["url"])
    page.wait_for_selector("#hand .card")
    st = play_until(page, lambda s: melds_on_both_sides(s) and s["view"]["phase"] == "draw")
    sized_for_a_phone(page, "table")
    page.click("#top summary")  # the settings: card size, four colours, sound
    sized_for_a_phone(page, "table settings")
    page.click("#top summary")
    problems = {}
    for view in ("them", "moves", "us"):
        page.click(f'#views button[data-view="{view}"]')
        problems[f"table {view} at 390"] = serious_violations(page)
    page.set_viewport_size({"width": 1280, "height": 800})
    problems["table at 1280"] = serious_violations(page)
    assert {k: v for k, v in problems.items() if v} == {}
    shot(page, "8-mid-game")
    # the focus stays at the table: Draw pressed with the keyboard, then the turn goes on
    page.focus("#act-draw")
    page.keyboard.press("Enter")
    st = after(page, st)
    page.wait_for_timeout(100)
    assert page.evaluate("document.activeElement.closest('#table') !== null"), \
        page.evaluate("document.activeElement.outerHTML.slice(0, 80)")
    assert not errors, errors
    context.close()


def test_take_back_has_a_key(browser: Browser, server: ServerProcess) -> None:
    """A meld laid out for the opening is taken back with B (the last one laid out)."""
    made = server.post("/api/tables", {"rules": "classic", "seed": 5, "seats": [
        {"kind": "human", "name": "Ann"}, *[{"kind": "bot", "level": "easy"}] * 3]})
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(made["invites"][0]["url"])
    page.wait_for_selector("#hand .card")
    st = play_until(page, lambda s: s["view"]["phase"] == "play" and any(
        a["type"] == "meld" for a in s["legal"]) and not s["view"]["teams"][0]["opened"])
    send_action(page, next(a for a in st["legal"] if a["type"] == "meld"))
    st = after(page, st)
    page.wait_for_selector("#melds button.take-back")
    assert page.get_attribute("#melds button.take-back", "aria-keyshortcuts") == "B"
    page.keyboard.press("b")
    st = after(page, st)
    assert st["log"][0]["text"].startswith("You took back"), st["log"][0]
    assert not st["view"]["teams"][0]["melds"]
    page.close()


def test_the_lobby_and_club_pages_are_sized_for_a_phone(browser: Browser,
                                                        server: ServerProcess) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(server.base + "/")
    page.wait_for_selector("#new-rules option", state="attached")
    page.click("#house > summary")
    page.click("#group-pile > summary")
    sized_for_a_phone(page, "lobby")
    made = page.request.post(server.base + "/api/events", data={
        "name": "Autumn Samboree", "rules": "classic", "rounds": 2, "password": "secret1"})
    key = made.json()["key"]
    page.request.post(server.base + f"/api/events/{key}/players", data={
        "csv": "name,chapter\n" + "".join(f"Player {i},Club {i % 2}\n" for i in range(8))})
    page.request.post(server.base + f"/api/events/{key}/draw", data={"round": 1, "seed": 3})
    page.goto(server.base + "/events")
    page.wait_for_selector("text=Autumn Samboree")
    sized_for_a_phone(page, "events")
    page.goto(server.base + f"/events/{key}")
    page.wait_for_selector("#pub-name:has-text('Autumn Samboree')")
    sized_for_a_phone(page, "event")
    page.goto(server.base + f"/events/{key}/organiser")
    page.wait_for_selector("#org-name:has-text('Autumn Samboree')")
    sized_for_a_phone(page, "organiser")
    page.close()


def test_the_lobby_offers_a_first_game(browser: Browser, server: ServerProcess) -> None:
    """Quick play starts from the rule set for a first game; each rule set is told in one
    line with how long a game takes; the chosen one is told under its choice."""
    rule_sets = server.get("/api/rule-sets")
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(server.base + "/")
    page.wait_for_selector("#quick-rules option", state="attached")
    first = rule_sets["first_game"]
    assert page.input_value("#quick-rules") == first
    assert "good for a first game" in page.inner_text("#quick-rules option:checked")
    about = page.inner_text("#quick-about")
    chosen = next(r for r in rule_sets["rule_sets"] if r["name"] == first)
    assert chosen["about"] in about and f"about {chosen['minutes_computer']} minutes" in about
    page.click("#rule-sets-box > summary")
    lines = page.locator("#rule-sets-list li")
    presets = [r for r in rule_sets["rule_sets"] if not r["saved"]]
    assert lines.count() == len(presets)
    for r, line in zip(presets, lines.all(), strict=True):
        text = line.inner_text()
        assert text.startswith(r["title"]) and "against the computer" in text
    # a one-hand game is quicker than a four-hand one of the same kind of hands
    by_name = {r["name"]: r for r in presets}
    assert by_name["texas-good-sam"]["minutes_computer"] < by_name["classic"]["minutes_computer"]
    page.select_option("#quick-rules", "texas-good-sam")
    assert "one hand" in page.inner_text("#quick-about")
    shot(page, "9-lobby")
    page.close()


def test_a_play_of_this_turn_taken_back_at_a_friendly_table(browser: Browser,
                                                             server: ServerProcess) -> None:
    """A table set up in the lobby lets this turn's plays be taken back until the discard
    (a house rule its rules show); a mis-tap is undone with the meld's Take back."""
    made = server.post("/api/tables", {"rules": "classic", "seed": 5, "seats": [
        {"kind": "human", "name": "Ann"}, *[{"kind": "bot", "level": "medium"}] * 3]})
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(made["invites"][0]["url"])
    page.wait_for_selector("#hand .card")
    assert "take back the cards you added" in (page.text_content("#rules-words") or "")
    st = play_until(page, lambda s: s["view"]["phase"] == "play" and any(
        a["type"] in ("add", "meld") for a in s["legal"])
        and s["view"]["teams"][0]["opened"], limit=600)
    before = sorted(st["view"]["hand"])
    play = next(a for a in st["legal"] if a["type"] in ("add", "meld"))
    send_action(page, play)
    st = after(page, st)
    page.locator("#melds .team.mine button.take-back").first.wait_for(state="attached")
    page.wait_for_selector("#act-undo")  # beside the turn's other buttons too
    shot(page, "10-take-back")
    page.keyboard.press("b")
    st = after(page, st)
    assert st["log"][0]["text"].startswith("You took back ")
    assert sorted(st["view"]["hand"]) == before
    assert page.locator("#melds .team.mine button.take-back").count() == 0
    page.close()
