"""Issue 24's Done-when, in real headless Chromium on phones only: a club runs an evening of two halves with a draw at
the break. The admin's phone starts the tables and shows each table's QR code; the code is decoded from a screenshot
of that phone (zbarimg, Debian's zbar-tools) and opened on the scorer's phone, which then scores the table; the
draw is shown on every table's phone; the evening's result, prizes and payments come out on one PDF (pdftotext).
And every page of the evening is no wider than the phone, upright (390×844) and on its side (844×390)."""

import re
import subprocess

import pytest

from helpers import PHONE, SEASON, artifact, pdftotext
from scorekeeper import create_app
from scorekeeper.clubs import service as club_service
from scorekeeper.games import service
from scorekeeper.storage import close, connect

pytestmark = [pytest.mark.browser, pytest.mark.needs_program]  # zbarimg reads the QR codes

LANDSCAPE = {"width": 844, "height": 390}
MEMBERS = ["Anna", "Bo", "Carl", "Dina", "Eva", "Finn", "Gro", "Hans", "Ida"]
PASSWORD = "spar-dame-7"
# Two deals a half at every table: a sol made by the player left of the dealer (who never sits out), then a pass.
HANDS = [("bidder-1", "bid-sol", "tricks-0"), "passed"]


def phone(browser, viewport=PHONE):
    context = browser.new_context(viewport=viewport, device_scale_factor=2, is_mobile=True, has_touch=True)
    return context, context.new_page()


def no_wider_than_the_phone(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} is {width}px wide at {page.viewport_size}"


def scanned(page, name) -> str:
    """What the QR code on the phone's screen says: a screenshot decoded by zbarimg."""
    path = artifact(f"{name}.png")
    page.screenshot(path=str(path))
    out = subprocess.run(["zbarimg", "--raw", "-q", str(path)], capture_output=True, text=True, check=True).stdout
    codes = out.split()
    assert len(codes) == 1, out
    return codes[0]


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


def hand_over(admin, scorer, name):
    """The admin's phone shows the table's code large; the scorer's phone scans it and may score the table."""
    url = scanned(admin, name)
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/c/[^/]+/k/[A-Z0-9]{6}", url), url
    players = admin.locator("#players").inner_text()
    scorer.goto(url)
    scorer.wait_for_selector("#enter-hand")  # this phone keeps the table's score now
    assert scorer.locator(".totals .name").all_inner_texts() == players.split(", ")
    return scorer.url


def play(scorer):
    for taps in HANDS:
        enter(scorer, taps)
    assert scorer.locator("#enter-hand").count() == 0  # the half's two deals are played


def test_a_club_night_of_two_halves_on_phones_only(browser, live_server, tmp_path):
    base, _ = live_server
    context, admin = phone(browser)
    scorer_contexts = [phone(browser) for _ in range(2)]
    scorers = [p for _, p in scorer_contexts]

    admin.goto(f"{base}/clubs/new")
    admin.fill("#name", "Kløverklubben")
    admin.fill("#password", PASSWORD)
    admin.fill("#password2", PASSWORD)
    admin.click("#save-club")
    admin.fill("#names", "\n".join(MEMBERS))
    admin.click("#add-members")
    admin.wait_for_selector("#edit-format")
    admin.click("#edit-format")
    admin.fill("#halves", "2")
    admin.fill("#deals", "2")
    admin.fill("#places", "3")
    admin.check("#prize-alone_made")
    admin.click("#save-format")
    assert "2 halves of 2 deals" in admin.locator("#format").inner_text()
    admin.click("#new-evening")
    admin.fill("#date", "2026-12-03")
    admin.click("#make-evening")
    admin.wait_for_selector("#start-table")
    evening_url = admin.url
    admin.click("#start-table")  # the first four members, filled in
    admin.wait_for_selector("#table-1")
    admin.select_option("#seat4", label="Ida")  # the other five
    admin.click("#start-table")
    admin.wait_for_selector("#table-2")
    no_wider_than_the_phone(admin)

    # The first half: each table handed to its scorer in one scan, one tap on to the next.
    admin.click("#hand-over-1")
    admin.wait_for_selector("#qr svg")
    no_wider_than_the_phone(admin)
    first_half = [hand_over(admin, scorers[0], "night-qr-1")]
    admin.click("#next-table")
    admin.wait_for_selector("#qr svg")
    first_half.append(hand_over(admin, scorers[1], "night-qr-2"))
    for scorer in scorers:
        play(scorer)

    # The break: the draw, on the evening page and on every table's phone.
    admin.goto(evening_url)
    admin.click("#make-draw")
    admin.wait_for_selector("#draw-tables")
    draw = admin.locator("#draw-tables li").all_inner_texts()
    assert len(draw) == 2
    seated = sorted(n for line in draw for n in line.split(": ", 1)[1].split(", "))
    assert seated == sorted(MEMBERS)
    for scorer, url in zip(scorers, first_half):
        scorer.goto(url)
        scorer.wait_for_selector("#next-half")
        assert scorer.locator("#next-half .draw li").all_inner_texts() == draw
        no_wider_than_the_phone(scorer)
    admin.screenshot(path=str(artifact("night-draw.png")), full_page=True)

    # One tap starts the second half; each new table is handed over the same way.
    admin.click("#start-draw")
    admin.wait_for_selector("#qr svg")
    hand_over(admin, scorers[0], "night-qr-3")
    admin.click("#next-table")
    admin.wait_for_selector("#qr svg")
    hand_over(admin, scorers[1], "night-qr-4")
    for scorer in scorers:
        assert "half 2" in scorer.locator("h1.title").inner_text()
        play(scorer)

    # The result: the evening's standings and prizes on the phone, then one PDF with the result, prizes and payments.
    admin.goto(evening_url)
    admin.click("#result")
    admin.wait_for_selector("#prizes")
    no_wider_than_the_phone(admin)
    prizes = admin.locator("#prizes li").all_inner_texts()
    assert any(p.startswith("Place 1") for p in prizes) and any("Most solo bids made" in p for p in prizes)
    payments = admin.locator("#settlement .payments li").all_inner_texts()
    assert payments
    admin.screenshot(path=str(artifact("night-result.png")), full_page=True)
    pdf = admin.request.get(base + admin.get_attribute("#evening-pdf", "href"))
    assert pdf.ok and pdf.headers["content-type"] == "application/pdf"
    text = " ".join(pdftotext(pdf.body(), tmp_path).split())
    assert "Kløverklubben" in text and "Result of Dec 3, 2026" in text and "Prizes" in text
    for line in prizes + payments:
        assert " ".join(line.split()) in text, line
    for table in ("Table 1, half 1", "Table 2, half 1", "Table 1, half 2", "Table 2, half 2"):
        assert f"Kløverklubben · {table} · Dec 3, 2026" in text  # every table's sheet, the club's name on each
    for c, _p in scorer_contexts:
        c.close()
    context.close()


def test_every_page_of_the_evening_fits_the_phone(browser, live_server):
    """Upright and on its side, no page of the evening is wider than the viewport: the club, the evening (as its admin
    and as a reader), a table's hand-over, the result, the ledger, the statistics, a member's season."""
    base, _ = live_server
    context, admin = phone(browser)
    admin.goto(f"{base}/clubs/new")
    admin.fill("#name", "Torsdagsklubben for lange navne")
    admin.fill("#password", PASSWORD)
    admin.fill("#password2", PASSWORD)
    admin.click("#save-club")
    names = ["Anne-Marie Kristoffersen", "Bo", "Carl Christian", "Dina", "Eva", "Finn-Ove", "Gro", "Hans-Henrik"]
    admin.fill("#names", "\n".join(names))
    admin.click("#add-members")
    admin.click("#new-evening")
    admin.fill("#date", "2026-12-03")
    admin.fill("#fee", "12,50")
    admin.click("#make-evening")
    admin.wait_for_selector("#start-table")
    evening_url = admin.url
    for number in (1, 2):
        admin.click("#start-table")
        admin.wait_for_selector(f"#table-{number}")
        admin.click(f"#open-table-{number}")
        for taps in [
            ("bidder-1", "bid-sol", "tricks-0"),
            ("bidder-2", "bid-10", "trump-hearts", "partner-0", "tricks-13"),
        ]:
            enter(admin, taps)
        admin.goto(evening_url)
    club_url = admin.locator("h1 .variant-name a").get_attribute("href")
    hand_over = admin.get_attribute("#hand-over-1", "href")
    admin.goto(base + club_url)
    member = admin.locator(".member-list a").first.get_attribute("href")
    pages = [club_url, evening_url.replace(base, ""), hand_over, evening_url.replace(base, "") + "/result",
             club_url + "/ledger", club_url + "/stats", member]  # fmt: skip
    reader_context, reader = phone(browser)
    for viewport in (PHONE, LANDSCAPE):
        for p in (admin, reader):
            p.set_viewport_size(viewport)
            for path in pages:
                p.goto(base + path if path.startswith("/") else path)
                no_wider_than_the_phone(p)
    admin.set_viewport_size(PHONE)
    for path, table in ((club_url + "/ledger", "#ledger-table"), (evening_url.replace(base, "") + "/result", "#money")):
        admin.goto(base + path)
        box = admin.locator(table).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (path, box)  # no table scrolls on its own
    admin.goto(evening_url + "/result")
    for cell in admin.locator("#money td, #money th, #places td, #places th").all():
        assert cell.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), cell.inner_text()  # nothing cut off
    admin.goto(base + club_url + "/ledger")
    admin.screenshot(path=str(artifact("night-ledger.png")), full_page=True)
    reader_context.close()
    context.close()


LONG_NAME = "Maren-Kirstine Christoffersen-Skovbjærg"


@pytest.mark.parametrize("rate", ["0.05", "10"])
def test_a_long_name_fits_every_club_page_in_every_language(browser, live_server, rate):
    """A member called Maren-Kirstine Christoffersen-Skovbjærg in a two-half evening with a fee, its amounts of up to
    four digits (10 kr. a point): the result, the evening, the ledger, the statistics, her own page and the club's are
    no wider than an upright phone in any language, and no amount or name in the result's tables is cut off."""
    base, path = live_server
    app = create_app({"DATABASE": path, "SECRET_KEY": "live", "GC_FREEZE": False})
    names = [LONG_NAME, "Bo", "Carl", "Dina", "Eva", "Finn", "Gro", "Hans"]
    db = connect(path)
    with app.test_request_context():
        card = {"name": "Kløverklubben", "currency": "DKK", "variant": "danish", "options": {"rate": rate}}
        club = club_service.create_club(db, card | {"password": PASSWORD})
        club_service.set_format(db, club, {"halves": "2", "places": "3"})
        ids = {name: club_service.add_member(db, club, name) for name in names}
        evening = club_service.create_evening(db, club, "2026-12-03", "12,50", "pairwise")
        for half, tables in ((1, (names[:4], names[4:])), (2, (names[::2], names[1::2]))):
            for seats in tables:
                game_id, key, _ = club_service.add_table(db, club, evening, [ids[n] for n in seats], 0, half=half)
                for hand in SEASON[0][3][0][2]:
                    service.add_hand(db, game_id, hand[0], key)
    close(db)
    context, page = phone(browser)
    pages = [f"/c/{club}/e/{evening}/result", f"/c/{club}/e/{evening}", f"/c/{club}/ledger", f"/c/{club}/stats",
             f"/c/{club}/members/{ids[LONG_NAME]}", f"/c/{club}"]  # fmt: skip
    for lang in ("en", "da", "nb", "sv"):
        for url in pages:
            page.goto(f"{base}{url}?lang={lang}")
            assert LONG_NAME in page.inner_text("main"), url
            no_wider_than_the_phone(page)
        page.goto(f"{base}{pages[0]}?lang={lang}")
        cut = page.locator("#money td, #money th, #places td, #places th").evaluate_all(
            "cells => cells.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
        )
        assert cut == [], (lang, cut)
    page.screenshot(path=str(artifact(f"night-long-name-{rate}.png")), full_page=True)
    context.close()
