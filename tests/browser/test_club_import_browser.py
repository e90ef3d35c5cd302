"""Issue 45 in real headless Chromium on a laptop (1280×800), in Danish: a treasurer moves her club in mid-season. She
makes the club, pastes its 18 members, names the season, imports her season sheet (wide, Danish headings and dates, a
sheet of points and one of kroner, two names spelled otherwise, one evening's total with a typo; an .xlsx openpyxl
wrote, and an .ods LibreOffice saved), corrects the two names in the preview, confirms once; the ledger, each member's
season and the statistics equal her sheet to the point and the øre; then tonight's evening is played at a table and
joins the season."""

import re
import threading
from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from werkzeug.serving import make_server

import season_sheet
from helpers import artifact
from scorekeeper import create_app

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
LAPTOP = {"width": 1280, "height": 800}
PASSWORD = "spar-dame-7"
TONIGHT = datetime(2027, 1, 14, 18, tzinfo=UTC)
# 9 gode made with 10 tricks: 40 × 2 (gode doubles), seats 1 and 3 +160, the others −160.
HAND = ("bidder-1", "bid-9-gode", "partner-3", "tricks-10")


@pytest.fixture
def laptop_server(tmp_path, migrated_db):
    """The app on 127.0.0.1 with its clock on a Thursday in January, mid-season."""
    from conftest import migrated_copy

    path = migrated_copy(migrated_db, tmp_path / "live.sqlite")
    app = create_app(
        {"DATABASE": path, "SECRET_KEY": "live", "GC_FREEZE": False, "READS_PER_SECOND": None, "CLOCK": lambda: TONIGHT}
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(5)


def number(text: str) -> Decimal:
    """A Danish figure as the page writes it: "−1.234,50 kr." → -1234.50."""
    text = text.replace("\u2212", "-").replace("\xa0", " ")
    text = re.sub(r"[^\d,\-+]", "", text.replace(".", ""))
    return Decimal(text.replace(",", ".").replace("+", ""))


def fits(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"], page.url


# Her sheet as openpyxl writes an .xlsx, and as LibreOffice saved it (.ods, its formulas' values stored:
# tests/fixtures/make_season_ods.py made it).
FILES = {"xlsx": season_sheet.workbook, "ods": lambda: (FIXTURES / "season-2026.ods").read_bytes()}


@pytest.mark.parametrize("kind", list(FILES))
def test_a_treasurer_moves_her_club_in_mid_season(browser, laptop_server, tmp_path, kind):
    base = laptop_server
    sheet = tmp_path / f"saeson.{kind}"
    sheet.write_bytes(FILES[kind]())
    context = browser.new_context(viewport=LAPTOP, locale="da-DK")
    page = context.new_page()

    page.goto(f"{base}/clubs/new")
    page.fill("#name", season_sheet.CLUB)
    page.fill("#opt_rate", "0,05")
    page.fill("#password", PASSWORD)
    page.fill("#password2", PASSWORD)
    page.click("#save-club")
    page.wait_for_selector("#add-member")
    page.fill("#names", "\n".join(season_sheet.MEMBERS))
    page.click("#add-members")
    page.wait_for_selector("#add-member")
    assert page.locator(".member-list li").count() == 18
    club_url = page.url.split("?")[0]

    # The season, named once.
    page.click("#season")
    page.fill("#season-from", "2026-08-01")
    page.fill("#season-to", "2027-05-31")
    page.click("#save-season")
    page.wait_for_selector("#season-links")
    assert "Sæson 2026/27" in page.locator("h1").inner_text()

    # The import: the file, the preview in Danish.
    page.goto(club_url)
    page.click("#import-evenings")
    page.set_input_files("#file", str(sheet))
    page.click("#import-preview")
    page.wait_for_selector("#import-preview-form")
    problems = page.locator("#import-problems").inner_text()
    assert "Vælg hvem “Søren Ø.” er" in problems and "Vælg hvem “Birte Hansen” er" in problems
    typo_day = season_sheet.DAYS[season_sheet.TYPO_EVENING]
    notes = page.locator(f"#import-evening-table tr#import-{typo_day.isoformat()} + tr.notes").inner_text()
    assert "rækken i alt siger 40, medlemmernes point giver tilsammen 0." in notes
    assert page.locator("#import-evening-table tbody tr.evening-new").count() == 14
    fits(page)
    page.screenshot(path=str(artifact(f"club-import-preview-{kind}.png")), full_page=True)

    # The two names corrected, and one confirm.
    for written, member in (("Søren Ø.", "Søren Østergaard"), ("Birte Hansen", "Birthe Hansen")):
        page.locator(f"tr:has(input[value='{written}']) select").select_option(label=f"{member} (ligner)")
    page.click("#import-confirm")
    page.wait_for_selector("#ledger-table")
    assert f"14 spilleaftener hentet fra saeson.{kind}." in page.locator(".flashes").inner_text()

    # The ledger equals the sheet to the point and the øre.
    want = season_sheet.expected()
    rows = page.locator("#ledger-table tbody tr")
    shown = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        cells = row.locator("td").all_inner_texts()
        evenings, _hands, points, net = cells[0], cells[1], cells[2], cells[3]
        shown[row.locator("th").inner_text().strip()] = (int(evenings), int(number(points)), int(number(net) * 100))
    assert shown == {m: (w["evenings"], w["points"], w["net"]) for m, w in want.items()}
    assert "Sæson 2026/27" in page.locator("#season-links").inner_text()
    fits(page)
    page.screenshot(path=str(artifact(f"club-import-ledger-{kind}.png")), full_page=True)

    # Each member's season.
    for member in ("Søren Østergaard", "Birthe Hansen", "Anna Holm"):
        page.goto(club_url)
        page.click(f".member-list a:text-is('{member}')")
        page.wait_for_selector("#season")
        lead = page.locator("#season .lead").inner_text()
        assert f"{want[member]['evenings']} spilleaftener" in lead
        figures = [number(x) for x in re.findall(r"[−+-]?\d[\d.]*(?:,\d+)?", lead.split("·", 1)[1])]
        assert figures[0] == want[member]["points"] and figures[1] * 100 == want[member]["net"]
        assert page.locator("#season tbody tr").count() == want[member]["evenings"]

    # The statistics: each member's evenings and average per evening.
    page.goto(f"{club_url}/stats")
    for section in page.locator("section.member-stats").all():
        member = section.locator("h2").inner_text()
        average = section.locator("dt:text-is('Gennemsnit pr. aften') + dd")
        w = want[member]
        assert average.locator("small").inner_text() == f"{w['evenings']} spilleaftener"
        figure = number(average.inner_text().split("point")[0])
        assert figure == (Decimal(w["points"]) / w["evenings"]).quantize(Decimal("0.1"), ROUND_HALF_UP), member

    # Tonight's evening: a table of four, a hand, and the season follows.
    page.goto(club_url)
    page.click("#new-evening")
    page.fill("#date", TONIGHT.date().isoformat())
    page.click("#make-evening")
    page.wait_for_selector("#start-table")
    table = ["Anna Holm", "Bent Larsen", "Søren Østergaard", "Tove Møller"]
    for seat, name in enumerate(table):
        page.select_option(f"#seat{seat}", label=name)
    page.click("#start-table")
    page.wait_for_selector("#table-1")
    page.click("#open-table-1")
    page.click("#enter-hand")
    page.wait_for_selector("form.hand")
    for value in HAND:
        page.click(f"label[for='{value}']")
    page.click("button.save")
    page.wait_for_selector(".standing")
    page.goto(f"{club_url}/ledger")
    assert page.locator("p.hint").first.inner_text().startswith("15 ")
    tonight = {"Anna Holm": -160, "Bent Larsen": 160, "Søren Østergaard": -160, "Tove Møller": 160}
    rows = page.locator("#ledger-table tbody tr")
    for i in range(rows.count()):
        row = rows.nth(i)
        member = row.locator("th").inner_text().strip()
        cells = row.locator("td").all_inner_texts()
        w = want[member]
        extra = tonight.get(member)
        assert int(cells[0]) == w["evenings"] + (extra is not None)
        assert int(number(cells[2])) == w["points"] + (extra or 0)
        assert int(number(cells[3]) * 100) == w["net"] + (extra or 0) * 5
    context.close()
