"""A club evening in real headless Chromium at a phone's size (390×844): two tables, a few hands each, the result."""

import re
from decimal import Decimal

import pytest

from helpers import artifact

pytestmark = pytest.mark.browser

TABLES = [["Anna", "Bo", "Carl", "Dina"], ["Eva", "Finn", "Gro", "Hans"]]
# The hands (the buttons tapped) and what they give, by hand: standard tariff, 0.05 DKK a point.
HANDS = [
    [
        (("bidder-1", "bid-9-gode", "partner-3", "tricks-10"), [-160, 160, -160, 160]),  # 40 × 2, gode doubles
        (("bidder-0", "bid-sol", "tricks-1"), [150, -50, -50, -50]),
    ],
    [
        (("bidder-2", "bid-8", "trump-hearts", "partner-self", "tricks-8"), [-20, -20, 60, -20]),
        ("passed", [0, 0, 0, 0]),
        (("bidder-3", "bid-7-sans", "partner-0", "tricks-6"), [-40, 40, 40, -40]),
    ],  # lost: 2 × 10 × 2
]


def fits(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{page.url} is {width}px wide"


def shot(page, name):
    page.screenshot(path=str(artifact(f"{name}.png")), full_page=True)


def enter(page, taps):
    page.click("#enter-hand")
    page.wait_for_selector("form.hand")
    if taps == "passed":
        page.click("button.passed")
    else:
        for value in taps:
            page.click(f"label[for='{value}']")
        page.click("button.save")
    page.wait_for_selector(".standing")
    assert page.locator(".error, .error-box").count() == 0, page.content()


def money(text):
    return int(Decimal(text.replace("−", "-").replace("+", "")) * 100)


def test_a_club_evening_with_two_tables(page, live_server):
    base, _ = live_server
    page.goto(f"{base}/")
    page.click("#clubs")
    page.click("#new-club")
    page.fill("#name", "Torsdagsklubben")
    page.fill("#password", "spar-dame-7")
    page.fill("#password2", "spar-dame-7")
    page.click("#save-club")
    page.wait_for_selector("#add-member")
    page.fill("#names", "\n".join(n for table in TABLES for n in table))  # all of them at once, one per line
    page.click("#add-members")
    page.wait_for_selector("#add-member")
    assert page.evaluate("document.activeElement.id") == "names"  # ready for more
    assert page.locator(".member-list li").count() == 8
    fits(page)
    shot(page, "club-page")

    page.click("#new-evening")
    page.fill("#date", "2026-03-05")
    page.click("#make-evening")
    page.wait_for_selector("#start-table")
    page.click("#edit-evening")  # the date was a day off: correct it
    assert page.input_value("#date") == "2026-03-05"
    page.fill("#date", "2026-03-06")
    page.click("#save-evening")
    page.wait_for_selector("#start-table")
    assert re.search(r"Mar\s+6,\s+2026", page.locator("h1").inner_text())
    evening_url = page.url
    for number, names in enumerate(TABLES, 1):
        for seat, name in enumerate(names):
            page.select_option(f"#seat{seat}", label=name)
        page.click("#start-table")
        page.wait_for_selector(f"#table-{number}")
        code = page.locator(f"#code-{number}").inner_text()  # to hand the table to its scorer
        assert re.fullmatch(r"[A-Z0-9]{3}-[A-Z0-9]{3}", code)
    fits(page)
    shot(page, "club-evening")

    for number, hands in enumerate(HANDS, 1):
        page.goto(evening_url)
        page.click(f"#open-table-{number}")
        page.wait_for_selector("#enter-hand")  # this phone holds the edit key
        for taps, _ in hands:
            enter(page, taps)
        totals = [int(t.replace("−", "-")) for t in page.locator(".totals .total").all_inner_texts()]
        assert totals == [sum(p[i] for _, p in hands) for i in range(4)]

    page.goto(evening_url)
    page.click("#result")
    page.wait_for_selector("#settlement")
    fits(page)
    shot(page, "club-evening-result")
    points = {name: sum(p[i] for _, p in hands) for names, hands in zip(TABLES, HANDS) for i, name in enumerate(names)}
    balances = {name: pts * 5 for name, pts in points.items()}  # 5 øre a point
    rows = page.locator("#money tbody tr")
    shown = {
        rows.nth(i).locator("th").inner_text(): rows.nth(i).locator("td").last.inner_text() for i in range(rows.count())
    }
    places = page.locator("#places tbody tr")
    shown_points = {
        places.nth(i).locator("th").inner_text(): places.nth(i).locator("td").last.inner_text()
        for i in range(places.count())
    }
    assert {name: (int(shown_points[name].replace("−", "-")), money(net)) for name, net in shown.items()} == {
        name: (points[name], balances[name]) for name in points
    }
    payments = page.locator("#settlement .payments li").all_inner_texts()
    assert 0 < len(payments) <= len(points) - 1
    left = dict(balances)
    for line in payments:
        payer, payee, amount = re.fullmatch(r"(\w+) pays (\w+) DKK\s([\d.]+)", line.strip()).groups()
        left[payer] += money(amount)
        left[payee] -= money(amount)
    assert set(left.values()) == {0}, (payments, left)

    page.click("#mark-settled")
    page.wait_for_selector("#settled")
    page.click(".variant-name a")
    page.click("#ledger")
    page.wait_for_selector("#ledger-table")
    fits(page)
    shot(page, "club-ledger")
