"""A whole small whist drive in headless Chromium at a phone's size: the organiser starts it on the form, each table
opens its own page from its card's address and taps its tricks; the moves each table page shows match the API's
seating, and the standings on the final sheet match the API's."""

import json
import re
import urllib.request

import pytest

from helpers import artifact

pytestmark = pytest.mark.browser

LADIES = ["Ann", "Bea", "Cat", "Dot", "Eve", "Fay"]
GENTS = ["Al", "Ben", "Cy", "Dan", "Ed", "Fred"]
# Each hand's tricks for the first pair at tables 1, 2, 3
TRICKS = [(8, 5, 7), (6, 9, 7), (13, 0, 4), (7, 7, 6)]


def api(base, drive_id):
    with urllib.request.urlopen(f"{base}/api/drives/{drive_id}") as r:
        return json.load(r)


def seats_of(hand_round):
    """name → table in one hand as the API seats it."""
    return {name: t["table"] for t in hand_round["tables"] for pair in t["pairs"] for name in pair}


def test_a_drive_of_three_tables_and_four_hands(live_server, browser, browser_context_args):
    base, _db = live_server
    organiser = browser.new_context(**browser_context_args)
    page = organiser.new_page()
    page.goto(f"{base}/")
    page.click("#drives")
    page.click("#new-drive")
    page.fill("input[name=title]", "Village hall")
    page.fill("textarea[name=ladies]", "\n".join(LADIES))
    page.fill("textarea[name=gents]", "\n".join(GENTS))
    page.fill("input[name=hands]", "4")
    page.fill("input[name=interval_after]", "2")
    page.fill("input[name=fee]", "20")
    page.fill("input[name=prize0_name]", "Vin")  # the first prize row: 1st place, ladies
    page.fill("input[name=prize0_amount]", "50")
    page.click("#start-drive")
    page.wait_for_selector(".drive-head")
    drive_id = page.url.split("#")[0].rsplit("/", 1)[-1]  # the form's action ends in #first-error
    page.click("#cards-link")
    links = page.locator(".card-url a")
    urls = {int(links.nth(i).get_attribute("data-table")): links.nth(i).get_attribute("href") for i in range(3)}
    assert sorted(urls) == [1, 2, 3]

    tables = {}  # each table's phone: a browser context of its own, no session, opened from its card's address
    for t, url in urls.items():
        ctx = browser.new_context(**browser_context_args)
        tables[t] = ctx.new_page()
        tables[t].goto(url)
        assert tables[t].locator("h1").inner_text().startswith(f"Table {t}")

    for hand, tricks in enumerate(TRICKS, start=1):
        for t, first in zip((1, 2, 3), tricks):
            p = tables[t]
            p.goto(urls[t])
            assert f"Hand {hand} of 4" in p.locator("h1").inner_text()
            p.click(f"label[for='tricks-{first}']")  # one tap: "8–5"
            p.click("#send")
            p.wait_for_selector(".drive-head")
            assert p.locator(".error-box").count() == 0, p.content()
        d = api(base, drive_id)
        if hand < 4:
            assert d["current"] == hand + 1
            expected = seats_of(d["rounds"][hand])  # where everyone sits for the next hand
            before = seats_of(d["rounds"][hand - 1])
            for t, p in tables.items():
                p.goto(urls[t])
                shown = {
                    li.get_attribute("data-name"): int(li.get_attribute("data-table"))
                    for li in p.locator("#leaving li").all()
                }
                assert set(shown) == {n for n, at in before.items() if at == t}
                assert all(expected[n] == at for n, at in shown.items()), (hand, t, shown)
            if hand == 1:
                tables[1].screenshot(path=str(artifact("drive-table-moves.png")), full_page=True)

    d = api(base, drive_id)
    assert d["finished"]
    page.goto(f"{base}/d/{drive_id}/standings")
    rows = page.locator("#standings tbody tr").all_inner_texts()
    shown = [re.split(r"\s+", r.strip()) for r in rows]
    expected = [[str(s["place"]), s["names"][0], str(s["total"])] for s in d["standings"]]
    assert shown == expected
    raised = page.locator("#raised").inner_text()  # the organiser's page: with the money
    assert raised.replace("\xa0", " ") == "£190.00"  # 12 × 20 − 50, in pounds: the English page's currency
    page.goto(f"{base}/d/{drive_id}/screen")
    page.screenshot(path=str(artifact("drive-screen.png")), full_page=True)
    assert page.locator(".screen-page.shown .screen-head h1").inner_text()
