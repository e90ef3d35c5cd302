"""Issue 32 in real headless Chromium at a phone's size (390×844), in Danish: the club's quarter-point card typed as
printed (¾, 2½, 2 1/2) with "ingen afrunding", two hands entered with the buttons, and the protokoll shows
¾ and 7½ as the card prints them, never 1 or 3."""

import pytest

from helpers import artifact

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]


def test_the_protokoll_shows_quarter_points_on_a_phone(page, live_server):
    base, _db = live_server
    page.goto(f"{base}/lang/da?next=/new/danish")
    for i, name in enumerate(PLAYERS):
        page.fill(f"#player{i}", name)
    page.click("#card-fold > summary")  # the new-game page shows the card folded under its name (issue 44)
    page.select_option("#card-made", "over")  # made: the value and the value per trick over
    page.select_option("#card-lost", "per_trick")  # lost: the value per missing trick
    page.fill("#card-cell-8-0", "¾")
    page.fill("#card-sol-sol-won", "2½")
    page.fill("#card-sol-sol-lost", "2 1/2")
    page.select_option("#card-rounding", "none")
    page.select_option("#card-selvmakker-rounding", "none")
    page.click("#start")
    page.wait_for_selector(".standing")
    for labels in (
        ("bidder-0", "bid-8", "trump-hearts", "partner-2", "tricks-8"),
        ("bidder-1", "bid-sol", "tricks-1"),
    ):
        page.click("#enter-hand")
        page.wait_for_selector("form.hand")
        for value in labels:
            page.click(f"label[for='{value}']")
        page.click("button.save")
        page.wait_for_selector(".standing")
        assert page.locator(".error, .error-box").count() == 0, page.content()
    first = page.locator("tbody.hand").nth(0).inner_text()
    assert "+¾" in first and "−¾" in first
    second = page.locator("tbody.hand").nth(1).inner_text()
    assert "+7½" in second and "−2½" in second
    totals = [t.replace("+", "") for t in page.locator(".totals .total").all_inner_texts()]
    assert totals == ["−1¾", "6¾", "−1¾", "−3¼"]
    # the money rounded once per balance by largest remainder: −8,75 øre, 33,75, −8,75, −16,25 → −9, 34, −9, −16
    balances = [b.replace("\xa0", " ") for b in page.locator(".settlement .balances b").all_inner_texts()]
    assert balances == ["−0,09 kr.", "0,34 kr.", "−0,09 kr.", "−0,16 kr."]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(artifact("exact-points-protokoll.png")), full_page=True)
