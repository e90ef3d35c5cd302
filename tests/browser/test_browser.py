"""Whole games in real headless Chromium at a phone's size (390×844), counting the taps each hand takes."""

import re

import pytest

from helpers import artifact

pytestmark = pytest.mark.browser

DANISH_PLAYERS = ["Ann-Kristin", "Søren", "Åsa", "Bo"]


class Table:
    """Drives the pages like a player: every click on the hand form is a tap, and is counted."""

    def __init__(self, page, base):
        self.page, self.base = page, base

    def start(self, variant, players, **checks):
        page = self.page
        page.goto(f"{self.base}/")
        page.click("#new-game")
        page.click(f"#variant-{variant}")
        for i, name in enumerate(players):
            page.fill(f"#player{i}", name)
        for name in checks:
            page.check(f"input[name=opt_{name}]")
        page.click("#start")
        page.wait_for_selector(".standing")
        return page.url

    def hand(self, *labels, limit, passed=False):
        """Open the entry form, tap each button, save; fail if the hand needed more than `limit` taps."""
        page = self.page
        rows_before = page.locator("tbody.hand").count()
        page.click("#enter-hand")
        page.wait_for_selector("form.hand")
        taps = 0
        for value in labels:
            page.click(f"label[for='{value}']")
            taps += 1
        if passed:
            page.click("button.passed")
            taps += 1
        else:
            page.click("button.save")
        page.wait_for_selector(".standing")
        assert page.locator(".error, .error-box").count() == 0, page.content()
        assert page.locator("tbody.hand").count() == rows_before + 1
        assert taps <= limit, f"{taps} taps for a hand, the target is {limit}"
        return taps

    def totals(self):
        return [t.replace("−", "-") for t in self.page.locator(".totals .total").all_inner_texts()]

    def shot(self, name):
        self.page.screenshot(path=str(artifact(f"{name}.png")), full_page=True)

    def fits(self):
        """Nothing sticks out sideways at 390 px, and no name is cut off."""
        width = self.page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"page is {width}px wide"
        clipped = self.page.evaluate("""() => [...document.querySelectorAll('label, .name, th')]
            .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)""")
        assert not clipped, clipped


@pytest.fixture
def table(page, live_server):
    base, _ = live_server
    return Table(page, base)


def test_a_danish_evening_then_editing_hand_2(table, page):
    table.start("danish", DANISH_PLAYERS)
    # 1: Søren 9 gode, partner Bo, 10 tricks: 40 × 2 × 2 = 160 (clubs filled in by the bid).
    table.hand("bidder-1", "bid-9-gode", "partner-3", "tricks-10", limit=6)
    # 2: Ann-Kristin sol, 1 trick: made, +150 / −50.
    table.hand("bidder-0", "bid-sol", "tricks-1", limit=6)
    # 3: passed out.
    table.hand(passed=True, limit=1)
    # 4: Åsa 8 ♥ selvmakker, 8 tricks: +60 / −20.
    table.hand("bidder-2", "bid-8", "trump-hearts", "partner-self", "tricks-8", limit=6)
    # 5: Bo 7 sans, partner Ann-Kristin, 6 tricks: lost, 2 × 10 × 2 = 40.
    table.hand("bidder-3", "bid-7-sans", "partner-0", "tricks-6", limit=6)
    # 6: Søren 10 ♠, partner Åsa, 11 tricks: 80 × 2 = 160.
    table.hand("bidder-1", "bid-10", "trump-spades", "partner-2", "tricks-11", limit=6)
    assert table.totals() == ["-230", "290", "50", "-110"]
    assert page.locator("td.sum").all_inner_texts() == ["0"] * 6
    assert "Søren 9 gode ♣, partner Bo, 10 tricks" in page.inner_text("#hand-1")
    assert "alone (selvmakker)" in page.inner_text("#hand-4")
    assert "Passed out" in page.inner_text("#hand-3")
    table.shot("danish-protokoll")
    table.fits()

    page.click("#hand-2 a.edit")
    page.wait_for_selector("form.hand")
    assert page.is_checked("#bid-sol") and page.is_checked("#tricks-1")
    table.shot("danish-edit-hand-2")
    page.click("label[for='tricks-2']")
    page.click("button.save")
    page.wait_for_selector(".standing")
    assert table.totals() == ["-680", "440", "200", "40"]
    assert page.locator("#hand-2.changed").count() == 1
    assert "Ann-Kristin sol, 2 tricks" in page.inner_text("#hand-2")


def test_danish_entry_form_at_phone_size(table, page):
    table.start("danish", DANISH_PLAYERS)
    page.click("#enter-hand")
    page.wait_for_selector("form.hand")
    table.shot("danish-hand-entry")
    table.fits()
    heights = page.evaluate(
        "() => [...document.querySelectorAll('.buttons label')].map(l => l.getBoundingClientRect().height)"
    )
    assert min(heights) >= 40, "tap targets are too small"
    # A sol hides trump and partner; gode picks clubs.
    page.click("label[for='bid-sol']")
    assert not page.is_visible("#f-partner")
    page.click("label[for='bid-sol']")  # the ladder folded to the chosen bid: a tap on it opens the ladder again
    page.click("label[for='bid-8-gode']")
    assert page.is_visible("#f-partner") and page.is_checked("#trump-clubs")


def test_a_classic_game_to_5_with_honours(table, page):
    table.start("classic", ["Anna", "Bo", "Carl", "Dina"], honours=True)
    table.hand("trump-hearts", "tricks-8", "honours-3", limit=3)  # 2 tricks + 2 honours
    table.hand("trump-spades", "tricks-6", "honours-4", limit=3)  # Bo & Dina 1; Anna & Carl at 4 score no honours
    assert table.totals() == ["4", "1"]
    page.click("#enter-hand")
    page.wait_for_selector("form.hand")
    table.shot("classic-hand-entry")
    table.fits()
    page.go_back()
    page.wait_for_selector(".standing")
    table.hand("trump-diamonds", "tricks-9", limit=3)
    assert table.totals() == ["7", "1"]
    assert "Anna & Carl won" in page.inner_text(".banner")
    assert page.locator("#enter-hand").count() == 0
    table.shot("classic-protokoll")
    table.fits()


def test_a_german_game_to_its_end(table, page):
    table.start("german", ["Anna", "Bo"])
    table.hand("tricks-9", limit=3)
    table.hand("tricks-5", limit=3)
    table.hand("tricks-10", limit=3)
    assert table.totals() == ["7", "2"]
    assert re.search(r"Anna won", page.inner_text(".banner"))
    table.shot("german-protokoll")


def test_norwegian_and_swedish_hands_take_two_taps(table, page):
    table.start("norwegian", ["Ola", "Kari", "Per", "Liv"])
    table.hand("bid-grand-2", "tricks-5", limit=3)
    assert table.totals() == ["0", "4"]
    table.start("swedish", ["Åsa", "Björn", "Örjan", "Märta"])
    table.hand("red-black", "tricks-4", limit=3)
    assert table.totals() == ["3", "0"]


def test_the_read_only_link_changes_nothing_and_refreshes(table, page, browser, live_server):
    url = table.start("german", ["Anna", "Bo"])
    table.hand("tricks-9", limit=3)
    other = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    other.goto(url)
    assert other.locator("#enter-hand").count() == 0
    assert other.locator("a.edit").count() == 0
    # it follows the game in place (static/live.js); its meta refresh is for a phone without scripts (<noscript>)
    assert other.locator("main[data-live-url]").count() == 1 and other.locator("meta[http-equiv=refresh]").count() == 0
    assert other.goto(url + "/hands/new").status == 403
    assert other.goto(url + "/hands/1").status == 403
    page.click("#show-edit-link")  # the edit link has a page of its own, never kept on the phone
    edit_link = page.get_attribute("#edit-link", "href")
    other.goto(edit_link)
    assert other.locator("#enter-hand").count() == 1
    other.context.close()
