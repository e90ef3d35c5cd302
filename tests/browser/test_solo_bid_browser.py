"""Solo whist and Bid whist in real headless Chromium at a phone's size (390×844), counting the taps each hand takes:
solo's partner buttons only for a prop and cop, Bid whist to the end of a game; the contract first (a deal in
progress): entered on one phone, shown on another, the tricks after; offline, kept and sent in order."""

import json
import urllib.request

import pytest
from test_browser import Table

pytestmark = pytest.mark.browser


@pytest.fixture
def table(page, live_server):
    base, _ = live_server
    return Table(page, base)


def tap_targets(page):
    return page.evaluate(
        "() => [...document.querySelectorAll('.buttons label')].filter(l => l.getClientRects().length)"
        ".map(l => l.getBoundingClientRect().height)"
    )


def test_a_solo_whist_evening_three_taps_a_contract_four_for_prop_and_cop(table, page):
    table.start("solo", ["Ann-Kristin", "Søren", "Åsa", "Bo"])
    page.click("#enter-hand")
    page.wait_for_selector("form.hand")
    table.fits()
    assert min(tap_targets(page)) >= 40, "tap targets are too small"
    assert page.is_visible("#f-partner")  # nothing tapped yet: the partner's buttons are there
    page.click("label[for='bid-solo']")
    assert not page.is_visible("#f-partner")  # a solo has no partner
    page.click("label[for='bid-prop']")
    assert page.is_visible("#f-partner")
    table.shot("solo-hand-entry")
    page.go_back()
    page.wait_for_selector(".standing")
    # 1: Søren solo, 7 tricks: made, +3 / −1.
    table.hand("bid-solo", "bidder-1", "tricks-7", limit=3)
    # 2: Ann-Kristin prop, Åsa cop, 8 tricks: ±1.
    table.hand("bid-prop", "bidder-0", "partner-2", "tricks-8", limit=4)
    # 3: Bo misère, no trick: +6 / −2.
    table.hand("bid-misere", "bidder-3", "tricks-0", limit=3)
    # 4: passed out.
    table.hand(passed=True, limit=1)
    # 5: Åsa abundance declared, all 13: she leads; +18 / −6.
    table.hand("bid-abundance_declared", "bidder-2", "tricks-13", limit=3)
    assert table.totals() == ["-8", "-6", "16", "-2"]
    assert page.locator("td.sum").all_inner_texts() == ["0"] * 5
    assert "Ann-Kristin prop, Åsa cop, 8 tricks" in page.inner_text("#hand-2")
    assert "Bo misère, 0 tricks" in page.inner_text("#hand-3")
    table.shot("solo-protokoll")
    table.fits()
    # Edit hand 1: Søren took only 4: lost, −3 / +1.
    page.click("#hand-1 a.edit")
    page.wait_for_selector("form.hand")
    assert page.is_checked("#bid-solo") and page.is_checked("#tricks-7") and not page.is_visible("#f-partner")
    page.click("label[for='tricks-4']")
    page.click("button.save")
    page.wait_for_selector(".standing")
    assert table.totals() == ["-6", "-12", "18", "0"]
    # In Danish the contracts' longer words still fit four across.
    page.goto(page.url.split("?")[0].split("#")[0] + "/hands/new?lang=da")
    page.wait_for_selector("form.hand")
    assert "erklæret abondance" in page.inner_text("#f-bid") and "forslag og accept" in page.inner_text("#f-bid")
    table.fits()
    table.shot("solo-hand-entry-da")


def test_a_bid_whist_game_four_taps_a_hand_to_the_target(table, page):
    table.start("bid", ["Anna", "Bo", "Carl", "Dina"])
    page.click("#enter-hand")
    page.wait_for_selector("form.hand")
    table.fits()
    assert min(tap_targets(page)) >= 40, "tap targets are too small"
    table.shot("bid-hand-entry")
    page.go_back()
    page.wait_for_selector(".standing")
    # 1: Anna 4 uptown, 10 books with the kitty: made, 4.
    table.hand("bidder-0", "bid-4", "direction-uptown", "tricks-10", limit=4)
    # 2: Bo 3 no trump, 8 books: set, −3 × 2 for Bo & Dina; Anna & Carl's 5 books score nothing.
    table.hand("bidder-1", "bid-3", "direction-no_trump", "tricks-8", limit=4)
    # 3: passed out.
    table.hand(passed=True, limit=1)
    assert table.totals() == ["4", "-6"]
    assert "Bo 3 no trump, 8 books" in page.inner_text("#hand-2")
    # 4: Carl 3 downtown, 9 books: made, 3: Anna & Carl reach 7.
    table.hand("bidder-2", "bid-3", "direction-downtown", "tricks-9", limit=4)
    assert table.totals() == ["7", "-6"]
    assert "Anna & Carl won" in page.inner_text(".banner")
    assert page.locator("#enter-hand").count() == 0
    table.shot("bid-protokoll")
    table.fits()


# ------------------------------------------------------------------ the contract first: a deal in progress


def server_game(base, game_id):
    with urllib.request.urlopen(f"{base}/api/games/{game_id}") as r:
        return json.load(r)


def test_solo_the_contract_on_one_phone_appears_on_another_then_the_tricks(table, page, browser, live_server):
    base, _ = live_server
    url = table.start("solo", ["Anna", "Bo", "Carl", "Dina"])
    game_id = url.split("#")[0].rsplit("/", 1)[1]
    other = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    other.goto(f"{base}/g/{game_id}")
    page.click("#enter-bids")
    page.wait_for_selector("form.hand[data-kind=bids]")
    assert page.locator("#f-tricks").count() == 0 and page.locator("button.passed").count() == 0
    table.fits()
    for label in ("bid-prop", "bidder-0", "partner-2"):  # three taps and save
        page.click(f"label[for='{label}']")
    page.click("button.save")
    page.wait_for_selector("#open-deal")
    other.reload()
    seen = other.inner_text("#open-deal")
    assert "Anna prop, Carl cop" in seen and "Bo leads" in seen and "being played" in seen
    table.shot("solo-deal-in-progress")
    page.click("#enter-hand")  # the contract filled in, the tricks asked
    page.wait_for_selector("form.hand")
    assert page.is_checked("#bid-prop") and page.is_checked("#bidder-0") and page.is_checked("#partner-2")
    assert page.locator("button.passed").count() == 0
    page.click("label[for='tricks-9']")  # one tap
    page.click("button.save")
    page.wait_for_selector("#hand-1")
    assert table.totals() == ["1", "-1", "1", "-1"]
    other.reload()
    other.wait_for_selector("#hand-1")
    assert other.locator("#open-deal").count() == 0
    other.context.close()


def test_bid_whist_offline_the_contract_and_then_the_books_are_kept_and_sent_in_order(
    table, page, context, live_server
):
    base, _ = live_server
    url = table.start("bid", ["Anna", "Bo", "Carl", "Dina"])
    game_id = url.split("#")[0].rsplit("/", 1)[1]
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.wait_for_selector("html[data-offline-ready]", state="attached")
    context.set_offline(True)
    page.click("#enter-bids")
    page.wait_for_selector("form.hand[data-kind=bids]")
    assert page.locator("#f-tricks").count() == 0
    page.click("label[for='bidder-1']")
    assert "Bo" in page.inner_text(".hand-head .who")  # the bidder leads: the header follows the tap
    for label in ("bid-4", "direction-downtown"):
        page.click(f"label[for='{label}']")
    table.fits()
    table.shot("bid-contract-first")
    page.click("button.save")
    page.wait_for_selector("#pending-bids-1")
    assert "bids of hand 1" in page.inner_text(".offline-note").lower()
    page.click("#enter-hand")
    page.wait_for_selector("form.hand")
    assert page.is_checked("#bidder-1") and page.is_checked("#bid-4") and page.is_checked("#direction-downtown")
    page.click("label[for='tricks-11']")
    page.click("button.save")
    page.wait_for_selector("#pending-1")
    assert server_game(base, game_id)["hands"] == []
    with page.expect_navigation():  # back online, the page sends what it kept and reloads itself: wait for that
        context.set_offline(False)
    page.wait_for_selector("#hand-1")
    page.wait_for_selector("tbody.pending", state="detached")
    got = server_game(base, game_id)
    assert [h["input"] for h in got["hands"]] == [{"bidder": 1, "bid": 4, "direction": "downtown", "tricks": [2, 11]}]
    assert got["hands"][0]["points"] == [0, 4] and "open_deal" not in got
