"""Plump in real Chromium at a phone's size (390×844): every player's bid and tricks on one screen for eight players,
the dealer's forbidden bid marked, the last player's tricks filled in, hands played counting the taps; a deal in
progress: the bids entered on one phone appear on a second phone's protokoll, then the tricks complete the hand;
offline, a bid entry is kept and sent like a hand."""

import json
import urllib.request

import pytest

from helpers import artifact

pytestmark = pytest.mark.browser

EIGHT = ["Anne-Kathrine", "Christoffer", "Kirsten-Marie", "Bo", "Sønderborg", "Åsa-Lena", "Østergaard", "Ida"]
# Every link, button and radio label a thumb taps, smaller than 44×44 px (as tests/browser/test_layout.py).
SMALL_TAPS = """() => [...document.querySelectorAll('a, button, .buttons label')]
  .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
  .map(e => { const r = e.getBoundingClientRect(); return [e.textContent.trim().slice(0, 20), r.width, r.height] })
  .filter(([_, w, h]) => w < 43.5 || h < 43.5)"""


def api_game(base, players, options=None):
    body = json.dumps({"variant": "plump", "players": players, "options": options or {}}).encode()
    request = urllib.request.Request(f"{base}/api/games", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as r:
        return json.load(r)


def server_game(base, game_id):
    with urllib.request.urlopen(f"{base}/api/games/{game_id}") as r:
        return json.load(r)


class Counter:
    """Taps on the hand form, counted: a count of 0, 1 or 2 by − and +, any other by opening its row (2 taps)."""

    def __init__(self, page):
        self.page, self.taps = page, 0

    def tap(self, selector):
        self.page.click(selector)
        self.taps += 1

    def count(self, field, n):
        box = f"#f-{field}"
        stepper = f".stepper:has({box})"
        if n == 0:
            self.tap(f"{stepper} button.less")
        elif n <= 2:
            for _ in range(n):
                self.tap(f"{stepper} button.more")
        else:
            self.tap(f"{stepper} .value")
            self.tap(f"label[for='{field}-{n}']")
        assert self.page.is_checked(f"#{field}-{n}"), (field, n)

    def value(self, field):
        return self.page.eval_on_selector(f"#f-{field}", "f => (f.querySelector('input:checked') || {}).value")


def in_view(page, selector):
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844


def test_eight_players_bid_and_take_tricks_on_one_screen(page, live_server):
    base, _ = live_server
    game = api_game(base, EIGHT)  # 6 cards each, down to 1 and up again
    page.goto(base + game["edit_page"])
    page.click("#enter-hand")
    page.wait_for_selector("#plump-seats.stepping")
    assert "6 cards each" in page.inner_text("#deal-size")
    # Every player's bid and tricks and Save, without scrolling, each tap target thumb-sized.
    for s in range(8):
        assert in_view(page, f".stepper:has(#f-b{s}) button.more"), s
        assert in_view(page, f".stepper:has(#f-t{s}) button.more"), s
    assert in_view(page, "button.save")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(SMALL_TAPS) == []
    page.screenshot(path=str(artifact("plump-eight-players.png")))

    taps = Counter(page)
    # The bids go round from the dealer's left; Anne-Kathrine deals and bids last.
    for s, bid in zip(range(1, 8), [1, 0, 2, 0, 1, 0, 1]):
        taps.count(f"b{s}", bid)
    assert page.is_visible(".plump-seat.dealer .forbidden")
    assert page.inner_text(".plump-seat.dealer .forbidden b") == "1"  # 5 bid of 6: she may not bid 1
    page.click(".stepper:has(#f-b0) button.more")  # from none to 1 would be forbidden: the stepper skips to 2
    taps.taps += 1
    assert taps.value("b0") == "2"
    tricks = [2, 0, 1, 0, 1, 0, 2]  # seats 0..6; seat 7's (none) is filled in
    for s, n in enumerate(tricks):
        taps.count(f"t{s}", n)
    assert taps.value("t7") == "0"
    assert page.is_visible("#f-t7.auto") or page.locator("#f-t7.auto").count() == 1
    taps.tap("button.save")
    page.wait_for_selector("#hand-1")
    assert taps.taps <= 2 * 15 + 1, taps.taps
    hand = server_game(base, game["id"])["hands"][0]
    assert hand["input"] == {"bids": [2, 1, 0, 2, 0, 1, 0, 1], "tricks": [2, 0, 1, 0, 1, 0, 2, 0]}
    assert hand["points"] == [12, 0, 0, 0, 0, 0, 0, 0]


def test_a_few_hands_of_four_counting_the_taps(page, live_server):
    base, _ = live_server
    page.goto(f"{base}/")
    page.click("#new-game")
    page.click("#variant-plump")
    for i, name in enumerate(["Anna", "Bo", "Carl", "Dina"]):
        page.fill(f"#player{i}", name)
    page.select_option("select[name=opt_schedule]", "down")
    page.fill("input[name=opt_max_cards]", "3")
    page.click("#start")
    page.wait_for_selector(".standing")
    game_id = page.url.rsplit("/", 1)[1]
    hands = [  # (bids from seat 0, tricks of seats 0..2): 3, 2, 1 cards
        ([1, 1, 0, 0], [1, 1, 1]),
        ([0, 1, 0, 0], [0, 1, 1]),
        ([1, 1, 1, 1], [1, 0, 0]),
    ]
    for bids, tricks in hands:
        page.click("#enter-hand")
        page.wait_for_selector("#plump-seats.stepping")
        taps = Counter(page)
        for s, b in enumerate(bids):
            taps.count(f"b{s}", b)
        for s, t in enumerate(tricks):
            taps.count(f"t{s}", t)
        taps.tap("button.save")
        page.wait_for_selector(".standing")
        assert page.locator(".error, .error-box").count() == 0, page.content()
        assert taps.taps <= 2 * 7 + 1, taps.taps
    got = server_game(base, game_id)
    assert got["finished"] and got["totals"] == [27, 22, 0, 10]
    assert "Anna won" in page.inner_text(".banner")


def test_bids_on_one_phone_appear_on_another_then_the_tricks_complete_the_hand(page, browser, live_server):
    base, _ = live_server
    game = api_game(base, ["Anna", "Bo", "Carl", "Dina"], {"lead": "highest_bid"})
    page.goto(base + game["edit_page"])
    other = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    other.goto(f"{base}/g/{game['id']}")
    assert other.locator("#open-deal").count() == 0 and other.locator("#enter-bids").count() == 0

    page.click("#enter-bids")
    page.wait_for_selector("form.hand[data-kind=bids]")
    assert page.locator("#f-t0").count() == 0  # the bids alone
    taps = Counter(page)
    for s, b in zip([1, 2, 3, 0], [2, 0, 3, 2]):  # round from the dealer's left; Anna deals
        taps.count(f"b{s}", b)
    taps.tap("button.save")
    page.wait_for_selector("#open-deal")
    assert taps.taps <= 9

    other.reload()
    other.wait_for_selector("#open-deal")
    seen = other.inner_text("#open-deal")
    assert "bid 2" in seen and "bid 3" in seen and "Dina leads" in seen and "being played" in seen
    assert "Hand 1 is being played" in other.inner_text(".standing")
    other.screenshot(path=str(artifact("plump-deal-in-progress.png")), full_page=True)

    page.click("#enter-hand")  # "Enter the tricks of hand 1": the bids are filled in
    page.wait_for_selector("#plump-seats.stepping")
    assert [page.eval_on_selector(f"#f-b{s}", "f => f.querySelector('input:checked').value") for s in range(4)] == [
        "2",
        "2",
        "0",
        "3",
    ]
    assert "Dina" in page.inner_text(".hand-head .who")
    taps = Counter(page)
    for s, t in enumerate([2, 2, 0]):
        taps.count(f"t{s}", t)
    taps.tap("button.save")
    page.wait_for_selector("#hand-1")
    assert taps.taps <= 7
    other.reload()
    other.wait_for_selector("#hand-1")
    assert other.locator("#open-deal").count() == 0
    assert server_game(base, game["id"])["hands"][0]["input"] == {"bids": [2, 2, 0, 3], "tricks": [2, 2, 0, 6]}
    other.context.close()


def test_offline_the_bids_and_then_the_tricks_are_kept_and_sent_in_order(page, context, live_server):
    base, _ = live_server
    page.goto(f"{base}/")
    page.click("#new-game")
    page.click("#variant-plump")
    for i, name in enumerate(["Anna", "Bo", "Carl"]):
        page.fill(f"#player{i}", name)
    page.click("#start")
    page.wait_for_selector(".standing")
    game_id = page.url.rsplit("/", 1)[1]
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.wait_for_selector("html[data-offline-ready]", state="attached")

    context.set_offline(True)
    page.click("#enter-bids")
    page.wait_for_selector("form.hand[data-kind=bids]")
    taps = Counter(page)
    for s, b in enumerate([1, 2, 0]):
        taps.count(f"b{s}", b)
    page.click("button.save")
    page.wait_for_selector("#pending-bids-1")
    assert "bids of hand 1" in page.inner_text(".offline-note").lower()
    page.click("#enter-hand")
    page.wait_for_selector("#plump-seats.stepping")
    assert taps.value("b1") == "2"  # the kept bids, filled in
    for s, t in enumerate([1, 9]):
        taps.count(f"t{s}", t)
    assert taps.value("t2") == "0"
    page.click("button.save")
    page.wait_for_selector("#pending-1")
    assert server_game(base, game_id)["hands"] == []

    with page.expect_navigation():  # back online, the page sends what it kept and reloads itself: wait for that
        context.set_offline(False)
    page.wait_for_selector("#hand-1")
    page.wait_for_selector("tbody.pending", state="detached")
    got = server_game(base, game_id)
    assert [h["input"] for h in got["hands"]] == [{"bids": [1, 2, 0], "tricks": [1, 9, 0]}]
    assert "open_deal" not in got


NAME_COVERED = """(seat) => {
  const row = document.querySelector(`.plump-seat[data-seat="${seat}"]`);
  const name = row.querySelector('h2.who');
  const r = name.getBoundingClientRect();
  const x = r.left + Math.min(r.width, 40) / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  const open = row.querySelector('.field.open fieldset.count').getBoundingClientRect();
  const overlap = !(open.bottom <= r.top || open.top >= r.bottom || open.right <= r.left || open.left >= r.right);
  return {covered: !(hit && name.contains(hit)), overlap};
}"""


@pytest.mark.parametrize("kind", ["hand", "bids"])
def test_the_opened_row_of_number_buttons_leaves_the_players_name_in_sight(page, live_server, kind):
    """Issue 33: tapping a count to open its row of number buttons covered the player's name at 390×844."""
    base, _ = live_server
    game = api_game(base, ["Anne-Kathrine", "Christoffer", "Kirsten-Marie", "Bo"])
    page.goto(base + game["edit_page"])
    page.click("#enter-bids" if kind == "bids" else "#enter-hand")
    page.wait_for_selector("#plump-seats.stepping")
    for field in ("b1", "t2") if kind == "hand" else ("b1",):
        seat = int(field[1:])
        page.click(f".stepper:has(#f-{field}) .value")
        page.wait_for_selector(f".field.open #f-{field}")
        seen = page.evaluate(NAME_COVERED, seat)
        assert seen == {"covered": False, "overlap": False}, (field, seen)
        page.screenshot(path=str(artifact(f"plump-open-row-{kind}-{field}.png")))
        page.click(f"label[for='{field}-7']")
        assert page.is_checked(f"#{field}-7")


def test_ten_players_play_a_hand_without_sideways_scrolling(page, live_server):
    base, _ = live_server
    game = api_game(base, EIGHT + ["Maj-Britt", "Jens"])  # 5 cards each
    page.goto(base + game["edit_page"])
    page.click("#enter-hand")
    page.wait_for_selector("#plump-seats.stepping")
    assert "5 cards each" in page.inner_text("#deal-size")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(SMALL_TAPS) == []
    taps = Counter(page)
    for s in range(1, 10):
        taps.count(f"b{s}", 0)
    taps.count("b0", 1)
    for s, n in enumerate([1, 1, 1, 1, 1, 0, 0, 0, 0]):
        taps.count(f"t{s}", n)
    assert taps.value("t9") == "0"
    taps.tap("button.save")
    page.wait_for_selector("#hand-1")
    assert server_game(base, game["id"])["hands"][0]["points"] == [11, 0, 0, 0, 0, 5, 5, 5, 5, 5]


def test_a_missing_bid_opens_the_page_at_the_players_marked_row(page, live_server):
    """Issue 33: a missing bid named no player and marked no row."""
    base, _ = live_server
    game = api_game(base, EIGHT)  # 6 cards each
    page.goto(base + game["edit_page"])
    page.click("#enter-hand")
    page.wait_for_selector("#plump-seats.stepping")
    taps = Counter(page)
    for s in (1, 2, 3, 4, 6, 7, 0):  # Åsa-Lena (seat 5) forgotten
        taps.count(f"b{s}", 0)
    for s, n in enumerate([2, 0, 1, 0, 1, 0, 2]):
        taps.count(f"t{s}", n)
    page.click("button.save")
    page.wait_for_selector(".plump-seat.missing")
    assert page.locator(".plump-seat.missing").count() == 1
    row = '.plump-seat.missing[data-seat="5"]'
    assert "no bid for Åsa-Lena" in page.inner_text(row)
    assert in_view(page, f"{row} h2.who") and in_view(page, f"{row} .error")
    assert page.evaluate("document.querySelectorAll('.error, .error-box p').length") == 1
    page.screenshot(path=str(artifact("plump-missing-bid.png")))
    assert server_game(base, game["id"])["hands"] == []
