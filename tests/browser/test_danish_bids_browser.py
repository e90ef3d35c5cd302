"""Danish whist's bids before play in real headless Chromium, two phones at 390×844 in Danish: phone A enters the
bidder, the bid, the called ace and the partner after the auction; phone B, following the game's link, sees them on
its protokoll without a reload (live polling); A completes the hand with one tap for the tricks."""

import json
import urllib.request

import pytest

from helpers import artifact

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "da-DK"}


def api(base, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}{path}", data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as r:
        return json.load(r)


def test_the_bids_on_phone_a_are_seen_on_phone_b_then_a_enters_the_tricks(browser, live_server):
    base, _ = live_server
    game = api(base, "/api/games", {"variant": "danish", "players": ["Anna", "Bo", "Carl", "Dina"]})
    a = browser.new_context(**PHONE).new_page()
    b = browser.new_context(**PHONE).new_page()
    a.goto(base + game["edit_page"])
    a.wait_for_selector(".standing")
    b.goto(f"{base}/g/{game['id']}")
    b.wait_for_selector(".standing")
    assert b.locator("#open-deal").count() == 0 and b.locator("#enter-bids").count() == 0

    a.click("#enter-bids")
    a.wait_for_selector("form.hand[data-kind=bids]")
    assert a.locator("#f-tricks").count() == 0 and a.locator("button.passed").count() == 0
    assert "Kaldt es" in a.inner_text("form.hand")
    taps = 0
    for label in ("bidder-1", "bid-9-gode", "ace-hearts", "partner-3"):  # Bo 9 gode, the ace of hearts: Dina's
        a.click(f"label[for='{label}']")
        taps += 1
    assert a.is_checked("#trump-clubs")  # gode: clubs filled in
    width = a.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the bids page is {width}px wide"
    a.screenshot(path=str(artifact("danish-bids-first.png")), full_page=True)
    a.click("button.save")
    a.wait_for_selector("#open-deal")
    assert taps + 1 <= 5

    b.wait_for_selector("#open-deal")  # no reload: the protokoll follows the game
    seen = b.inner_text("#open-deal")
    assert "Bo 9 gode ♣, es ♥, makker Dina" in seen and "Bo spiller ud" in seen, seen
    b.screenshot(path=str(artifact("danish-deal-in-progress.png")), full_page=True)

    a.click("#enter-hand")  # the bids filled in: the tricks alone are asked
    a.wait_for_selector("form.hand")
    for checked in ("#bidder-1", "#bid-9-gode", "#trump-clubs", "#ace-hearts", "#partner-3"):
        assert a.is_checked(checked), checked
    assert a.is_visible("#f-tricks")
    a.click("label[for='tricks-10']")  # one tap, and save
    a.click("button.save")
    a.wait_for_selector("#hand-1")
    assert a.locator(".error, .error-box").count() == 0
    got = api(base, f"/api/games/{game['id']}")
    assert got["hands"][0]["input"] == {
        "bidder": 1,
        "bid": 9,
        "suffix": "gode",
        "trump": "clubs",
        "ace": "hearts",
        "partner": 3,
        "tricks": 10,
    }
    assert got["hands"][0]["points"] == [-160, 160, -160, 160] and "open_deal" not in got
    b.wait_for_selector("#hand-1")
    assert b.locator("#open-deal").count() == 0
    assert "Bo 9 gode ♣, es ♥, makker Dina, 10 stik" in b.inner_text("#hand-1")
    a.context.close()
    b.context.close()
