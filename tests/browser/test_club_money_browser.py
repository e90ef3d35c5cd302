"""Issue 32 in real headless Chromium at 390×844: a table of an evening settled through the kitty shows, on its phone,
each player's part to or from the kitty (never a payment between players), the way to the evening's settlement, and
nothing the evening's result contradicts."""

import re
from decimal import Decimal

import pytest

from helpers import PHONE, artifact

pytestmark = pytest.mark.browser

PASSWORD = "spar-dame-7"
MEMBERS = ["Inger", "Grethe", "Hanne", "Ib"]
HANDS = [
    ("bidder-1", "bid-sol", "tricks-0"),
    ("bidder-2", "bid-10", "trump-hearts", "partner-0", "tricks-13"),
    ("bidder-3", "bid-9", "trump-spades", "partner-1", "tricks-6"),
]


def amount(text: str) -> Decimal:
    """DKK 1,234.50 → 1234.50 (a real minus sign kept as a sign)."""
    return Decimal(re.sub(r"[^\d.\-]", "", text.replace("\u2212", "-")))


def test_a_kitty_evenings_table_shows_each_players_part_to_or_from_the_kitty(browser, live_server):
    base, _ = live_server
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{base}/clubs/new")
    page.fill("#name", "Læderwhist")
    page.fill("#password", PASSWORD)
    page.fill("#password2", PASSWORD)
    page.click("#save-club")
    page.fill("#names", "\n".join(MEMBERS))
    page.click("#add-members")
    page.click("#new-evening")
    page.fill("#date", "2026-12-03")
    page.fill("#fee", "10")
    page.check("input[name=settlement][value=kitty]")
    page.click("#make-evening")
    page.wait_for_selector("#start-table")
    page.click("#start-table")
    page.wait_for_selector("#table-1")
    page.click("#open-table-1")
    for taps in HANDS:
        page.click("#enter-hand")
        page.wait_for_selector("form.hand")
        for value in taps:
            page.click(f"label[for='{value}']")
        page.click("button.save")
        page.wait_for_selector(".standing")
    settlement = page.locator("section.settlement")
    settlement.scroll_into_view_if_needed()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(artifact("club-table-kitty.png")), full_page=True)
    assert settlement.locator(".payments").count() == 0
    assert " pays " not in settlement.inner_text()
    lines = settlement.locator(".kitty li").all()
    assert len(lines) == len(MEMBERS)
    part = {}
    for line in lines:
        name, money = line.locator("span").first.inner_text(), line.locator("b").inner_text()
        way = line.get_attribute("class")
        assert way in ("kitty-to", "kitty-from", "kitty-even")
        words = line.inner_text()
        assert ("to the kitty" in words) == (way == "kitty-to") and ("from the kitty" in words) == (way == "kitty-from")
        part[name] = -amount(money) if way == "kitty-to" else amount(money)
        box = line.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]  # each line whole on the phone
    assert sum(part.values()) == 0 and any(part.values())
    # The way to the evening's settlement; what it says there is this table's part less the fee, never otherwise.
    page.click("#to-settlement")
    page.wait_for_selector("#money")
    assert "/result" in page.url
    for row in page.locator("#money tbody tr").all():
        name = row.locator("th").inner_text()
        before, fee, net = (amount(c) for c in row.locator("td").all_inner_texts())
        assert before == part[name] and net == part[name] - fee and fee == 10
    context.close()
