"""The pages on a phone in Chromium, portrait 390×844 and landscape 844×390: nothing scrolls sideways with five long
names and four-digit totals, every tap target is at least 44×44 px, the Danish hand form shows Save and the tricks
without scrolling once a trick bid is chosen, the landscape sheet gets most of the height, and the dark scheme."""

import json
import urllib.request

import pytest

from helpers import artifact

pytestmark = pytest.mark.browser

NAMES = ["Anne-Kathrine", "Christoffer", "Kirsten-Marie", "Bo", "Maximilian"]
LANDSCAPE = {"width": 844, "height": 390}
# Every link, button and radio label a thumb taps: its box, unless hidden.
TAPS = """() => [...document.querySelectorAll('a, button, .buttons label, label.dealer-pick, summary')]
  .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
  .map(e => { const r = e.getBoundingClientRect();
    return [e.tagName + (e.id ? '#' + e.id : '') + ' ' + e.textContent.trim().slice(0, 24), Math.round(r.width), Math.round(r.height)] })
  .filter(([_, w, h]) => w < 44 || h < 44)"""


def post(url, body, key=None):
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    if key:
        request.add_header("X-Edit-Key", key)
    with urllib.request.urlopen(request) as r:
        return json.loads(r.read())


def danish_game(base, names, hands):
    """A Danish game of `names` with `hands` made through the API; (game id, edit key)."""
    game = post(f"{base}/api/games", {"variant": "danish", "players": names, "options": {"rate": "0.05"}})
    for hand in hands:
        post(f"{base}/api/games/{game['id']}/hands", hand, game["edit_key"])
    return game["id"], game["edit_key"]


def big(n: int, seats: int = 5) -> list[dict]:
    """Grand slams bid and made by seats 1 and 3 (passed out while one of them deals): four-digit totals soon."""
    slam = {"bidder": 1, "bid": 13, "suffix": "plain", "trump": "spades", "partner": 3, "tricks": 13}
    return [{"passed": True} if seats == 5 and d % 5 in (1, 3) else slam for d in range(n)]


@pytest.fixture
def five(live_server, page):
    base, _ = live_server
    game_id, key = danish_game(base, NAMES, big(12))
    page.goto(f"{base}/g/{game_id}/k/{key}?lang=da")
    return base, game_id


def no_sideways_scroll(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} is {width}px wide"


def test_five_long_names_and_four_digit_totals_fit(five, page):
    base, game_id = five
    totals = page.locator(".totals .total").all_inner_texts()
    assert any(len(t.strip("−+")) >= 4 for t in totals), totals
    no_sideways_scroll(page)
    for box in page.locator(".totals li").all():
        name, total = box.locator(".name"), box.locator(".total")
        assert total.evaluate("e => e.scrollWidth <= e.clientWidth"), total.inner_text()
        # A name breaks only where it may (at a hyphen): every line of it starts a word part.
        lines = name.evaluate(
            "e => { const r = document.createRange(); r.selectNodeContents(e); return r.getClientRects().length }"
        )
        text = name.inner_text()
        assert lines <= text.count("-") + text.count(" ") + 1, text
    page.screenshot(path=str(artifact("layout-five-totals.png")), full_page=True)
    for url in (f"/g/{game_id}/hands/new", f"/g/{game_id}/hands/1", "/new/danish", "/blank/", f"/g/{game_id}/print"):
        page.goto(base + url)
        no_sideways_scroll(page)


def test_tap_targets_are_44_px(five, page):
    base, game_id = five
    for url in (f"/g/{game_id}", f"/g/{game_id}/hands/new", "/new/danish", "/new/classic", "/blank/", "/"):
        page.goto(base + url)
        assert page.evaluate(TAPS) == [], url


def test_danish_trick_bid_fits_one_screen(live_server, page):
    base, _ = live_server
    game_id, key = danish_game(base, NAMES[:4], [])
    page.goto(f"{base}/g/{game_id}/k/{key}?lang=da")
    page.goto(f"{base}/g/{game_id}/hands/new")
    height = page.viewport_size["height"]
    save = page.locator("button.save").bounding_box()
    assert save["y"] + save["height"] <= height  # Save in view from the start (a sticky bar)
    page.locator("label[for=bidder-1]").tap()
    page.locator("label[for=bid-9]").tap()
    assert page.evaluate("scrollY") == 0
    for selector in ("#f-trump", "#f-partner", "#f-tricks", "button.save"):
        box = page.locator(selector).bounding_box()
        assert box["y"] + box["height"] <= height, (selector, box)
    for label in ("trump-spades", "partner-3", "tricks-9"):
        page.locator(f"label[for={label}]").tap()
    assert page.evaluate("scrollY") == 0
    page.locator("button.save").tap()
    page.wait_for_selector(".standing")
    assert page.locator("tbody.hand").count() == 1


def test_an_error_is_shown_where_it_is(live_server, page):
    base, _ = live_server
    game_id, key = danish_game(base, NAMES[:4], [])
    page.goto(f"{base}/g/{game_id}/k/{key}?lang=da")
    page.goto(f"{base}/g/{game_id}/hands/new")
    for label in ("bidder-1", "bid-9", "trump-spades", "partner-3"):
        page.locator(f"label[for={label}]").tap()
    page.locator("button.save").tap()  # no tricks
    page.wait_for_selector("#first-error")
    assert page.url.endswith("#first-error")
    box = page.locator("#first-error").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]
    assert "Stik" in page.locator("#first-error").inner_text() or page.locator("#f-tricks.has-error").count()


def test_landscape_gives_the_sheet_the_height(live_server, browser):
    base, _ = live_server
    game_id, key = danish_game(base, NAMES, big(12))
    context = browser.new_context(viewport=LANDSCAPE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{base}/g/{game_id}/k/{key}?lang=da")
    page.evaluate("window.scrollTo(0, 400)")
    standing = page.locator(".standing").bounding_box()
    covered = max(0, min(standing["y"] + standing["height"], LANDSCAPE["height"]) - max(standing["y"], 0))
    assert covered <= LANDSCAPE["height"] * 0.25, standing
    no_sideways_scroll(page)
    page.screenshot(path=str(artifact("layout-landscape.png")))
    context.close()


def test_dark_scheme(live_server, page):
    base, _ = live_server
    game_id, key = danish_game(base, NAMES[:4], big(1, 4))
    page.emulate_media(color_scheme="dark")
    page.goto(f"{base}/g/{game_id}/k/{key}?lang=da")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    ink = page.evaluate("getComputedStyle(document.body).color")
    assert background == "rgb(20, 24, 28)", background
    assert ink == "rgb(231, 234, 238)", ink
    card = page.evaluate("getComputedStyle(document.querySelector('.totals li')).backgroundColor")
    assert card != "rgb(255, 255, 255)"
    page.screenshot(path=str(artifact("layout-dark.png")))
