"""The whist drive's pages: a drive started through the form (CSRF and all), the tables entering their tricks from
their cards' addresses, the organiser's corrections, the hall's screen, the paper and its PDFs, in four languages."""

import re
import shutil
import subprocess
from html import unescape

import pytest

from helpers import token

LADIES = ["Ann", "Bea", "Cat", "Dot", "Eve", "Fay"]
GENTS = ["Al", "Ben", "Cy", "Dan", "Ed", "Fred"]
LANGS = ("da", "nb", "sv", "en")


def prize_rows(*rows):
    """The new drive's prize rows, as the form has them: (which, for whom, what it is, what it cost)."""
    out = {}
    for n, (what, who, name, amount) in enumerate(rows):
        out.update({f"prize{n}_what": what, f"prize{n}_for": who, f"prize{n}_name": name, f"prize{n}_amount": amount})
    return out


def new_drive(client, expect=302, **fields):
    data = {
        "csrf_token": token(client, "/drives/new"),
        "title": "Village hall",
        "format": "progressive",
        "ladies": "\n".join(LADIES),
        "gents": "\n".join(GENTS),
        "hands": "4",
        "interval_after": "2",
        "tie_break": "share",
        "trump0": "hearts",
        "trump1": "clubs",
        "trump2": "diamonds",
        "trump3": "spades",
        "trump4": "",
        "currency": "GBP",
        "fee": "2.50",
        **prize_rows(
            ("place:1", "lady", "Wine", "5"),
            ("place:1", "gent", "Chocolates", "4.50"),
            ("half_time:1", "any", "Flowers", "3"),
            ("booby", "any", "Wooden spoon", ""),
        ),
        **fields,
    }
    r = client.post("/drives/new", data=data)
    assert r.status_code == expect, r.get_data(as_text=True)[:3000]
    return r.headers["Location"].rsplit("/", 1)[-1] if expect == 302 else r.get_data(as_text=True)


def table_urls(client, drive_id):
    html = client.get(f"/d/{drive_id}/cards").get_data(as_text=True)
    found = dict(re.findall(r'<a href="http://localhost(/d/[^"]+)" data-table="(\d+)"', html))
    return {int(t): path for path, t in found.items()}


def send(client, url, hand, tricks, expect=302):
    r = client.post(url, data={"hand": str(hand), "tricks": str(tricks)})
    assert r.status_code == expect, r.get_data(as_text=True)[:2000]
    return r


def api(client, drive_id):
    return client.get(f"/api/drives/{drive_id}").json


@pytest.fixture
def drive(client):
    drive_id = new_drive(client)
    return drive_id, table_urls(client, drive_id)


def test_the_form_starts_a_drive_and_this_phone_organises_it(client, drive):
    drive_id, urls = drive
    d = api(client, drive_id)
    assert d["title"] == "Village hall" and d["tables"] == 3 and d["hands"] == 4 and d["interval_after"] == 2
    assert d["rounds"][0]["tables"][0]["pairs"] == [["Ann", "Al"], ["Bea", "Ben"]]
    assert sorted(urls) == [1, 2, 3]
    page = client.get(f"/d/{drive_id}").get_data(as_text=True)
    assert "result-1-1" in page and "cards-link" in page  # the organiser's corrections and the cards
    other = client.application.test_client()
    assert "result-1-1" not in other.get(f"/d/{drive_id}").get_data(as_text=True)
    assert other.get(f"/d/{drive_id}/cards").status_code == 403


def test_the_form_says_what_is_wrong(client):
    html = new_drive(client, expect=400, gents="Al\nBen")
    assert 'id="first-error"' in html
    html = new_drive(client, expect=400, fee="lots")
    assert "12.50" in unescape(html)
    html = new_drive(client, expect=400, format="couples", pairs="Ann & Al\nBea & Ben")
    assert "error" in html


def test_a_couples_drive_from_pairs_per_line(client):
    drive_id = new_drive(
        client, format="couples", pairs="Ann & Al\nBea + Ben\nCat & Cy\nDot & Dan", prize0_for="any", prize1_for="any"
    )
    d = api(client, drive_id)
    assert d["pairs"][1] == ["Bea", "Ben"] and d["tables"] == 2


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_speaks(client, drive, lang):
    drive_id, urls = drive
    send(client.application.test_client(), urls[1], 1, 8)
    pages = [
        "/drives",
        "/drives/new",
        f"/d/{drive_id}",
        f"/d/{drive_id}/screen",
        urls[1],
        urls[2],
        f"/d/{drive_id}/cards",
        f"/d/{drive_id}/scorecards",
        f"/d/{drive_id}/tally",
        f"/d/{drive_id}/standings",
        "/drives/blank",
    ]
    for page in pages:
        r = client.get(page, query_string={"lang": lang})
        assert r.status_code == 200, page
        html = r.get_data(as_text=True)
        assert f'<html lang="{lang}' in html, page
        if lang != "en":
            for english in ("Waiting for tables", "Standings", "Table cards", "Trump", "Hand 1 of 4", "Move now"):
                assert f">{english}<" not in html and f"{english}:" not in html, (page, english)
    words = {"da": "Bord 1", "nb": "Bord 1", "sv": "Bord 1", "en": "Table 1"}
    assert words[lang] in client.get(urls[1], query_string={"lang": lang}).get_data(as_text=True)


def test_a_table_sends_its_result_and_the_organiser_sees_it(client, drive):
    drive_id, urls = drive
    table = client.application.test_client()  # any phone at the table: no session, no key
    page = table.get(urls[2]).get_data(as_text=True)
    assert "Cat" in page and "Dot" in page and "N–S <b>7</b>" in page and "E–W 6" in page and "http-equiv" not in page
    send(table, urls[2], 1, 9)
    waiting = table.get(urls[2]).get_data(as_text=True)
    assert (
        'http-equiv="refresh"' in waiting and "N–S 9 · E–W 4" in waiting
    )  # waits for tables 1 and 3, refreshing itself
    assert api(client, drive_id)["rounds"][0]["tables"][1]["tricks"] == [9, 4]
    organiser = client.get(f"/d/{drive_id}").get_data(as_text=True)
    assert re.search(r'id="result-1-2".*?9–4', organiser, re.S)
    assert "Waiting for tables: 1, 3" in organiser


def test_a_resend_counts_once(client, drive):
    drive_id, urls = drive
    table = client.application.test_client()
    send(table, urls[1], 1, 8)
    send(table, urls[1], 1, 8)  # the same taps again (a post that seemed to fail)
    d = api(client, drive_id)
    assert d["rounds"][0]["tables"][0]["tricks"] == [8, 5] and d["version"] == 2
    send(table, urls[2], 1, 6)
    send(table, urls[3], 1, 7)
    send(table, urls[1], 2, 10)  # hand 2 has begun
    send(table, urls[3], 1, 7)  # a late resend of what is stored: fine, nothing changes
    r = send(table, urls[3], 1, 3, expect=409)  # a change is refused: hand 2 is under way
    assert "hand 1" in r.get_data(as_text=True).lower() or "hånd" in r.get_data(as_text=True).lower()
    assert api(client, drive_id)["rounds"][0]["tables"][2]["tricks"] == [7, 6]


def test_a_wrong_table_token_is_refused(client, drive):
    drive_id, urls = drive
    table = client.application.test_client()
    token1 = urls[1].rsplit("/", 1)[-1]
    assert table.get(f"/d/{drive_id}/t/2/{token1}").status_code == 403  # table 1's card is not table 2's
    assert table.post(f"/d/{drive_id}/t/2/{token1}", data={"hand": "1", "tricks": "7"}).status_code == 403
    assert table.get(f"/d/{drive_id}/t/1/xyz").status_code == 403
    assert table.get(f"/d/{drive_id}/t/9/{token1}").status_code == 404
    assert table.get(f"/d/nope/t/1/{token1}").status_code == 404
    assert api(client, drive_id)["rounds"][0]["tables"][1]["tricks"] is None


def test_a_table_without_a_tap_is_told(client, drive):
    _drive_id, urls = drive
    r = client.application.test_client().post(urls[1], data={"hand": "1"})
    assert r.status_code == 400 and 'id="first-error"' in r.get_data(as_text=True)


def test_the_organiser_corrects_until_the_next_hand_starts(client, drive):
    drive_id, urls = drive
    table = client.application.test_client()
    for t, tricks in ((1, 8), (2, 6), (3, 7)):
        send(table, urls[t], 1, tricks)
    r = client.post(
        f"/d/{drive_id}/hands/1/tables/2", data={"csrf_token": token(client, f"/d/{drive_id}"), "tricks": "5"}
    )
    assert r.status_code == 302
    assert api(client, drive_id)["rounds"][0]["tables"][1]["tricks"] == [5, 8]
    client.post(f"/d/{drive_id}/hands/2/tables/1", data={"csrf_token": token(client, f"/d/{drive_id}"), "tricks": "7"})
    r = client.post(
        f"/d/{drive_id}/hands/1/tables/2",
        data={"csrf_token": token(client, f"/d/{drive_id}"), "tricks": "9"},
        follow_redirects=True,
    )
    assert "can no longer change" in r.get_data(as_text=True)
    assert api(client, drive_id)["rounds"][0]["tables"][1]["tricks"] == [5, 8]
    # without the CSRF token, or from a phone without the key: refused
    assert client.post(f"/d/{drive_id}/hands/2/tables/2", data={"tricks": "7"}).status_code == 400
    other = client.application.test_client()
    assert other.post(f"/d/{drive_id}/hands/2/tables/2", data={"tricks": "7"}).status_code in (400, 403)


def test_the_edit_link_claims_the_drive_on_another_phone(client, drive):
    drive_id, _urls = drive
    page = client.get(f"/d/{drive_id}").get_data(as_text=True)
    path = re.search(r'class="edit-link">http://localhost(/d/[^<]+)<', page).group(1)
    other = client.application.test_client()
    assert other.get(path.rsplit("/", 1)[0] + "/wrong").status_code == 403
    assert other.get(path).status_code == 302
    assert "result-1-1" in other.get(f"/d/{drive_id}").get_data(as_text=True)


def play_all(client, drive_id, urls, table_tricks=(8, 6, 7)):
    table = client.application.test_client()
    for hand in range(1, 5):
        for t, tricks in enumerate(table_tricks, start=1):
            send(table, urls[t], hand, tricks)
    return api(client, drive_id)


def test_moves_on_the_table_page_and_screen_follow_the_seating(client, drive):
    drive_id, urls = drive
    table = client.application.test_client()
    for t, tricks in ((1, 8), (2, 6), (3, 7)):
        send(table, urls[t], 1, tricks)
    d = api(client, drive_id)
    seats = {}
    for tbl in d["rounds"][1]["tables"]:
        for pair in tbl["pairs"]:
            for name in pair:
                seats[name] = tbl["table"]
    page = table.get(urls[1]).get_data(as_text=True)
    leaving = {n: int(t) for n, t in re.findall(r'<li data-name="([^"]+)" data-table="(\d+)">', page)}
    assert set(leaving) == {"Ann", "Al", "Bea", "Ben"}
    assert all(seats[n] == t for n, t in leaving.items())
    screen = client.get(f"/d/{drive_id}/screen").get_data(as_text=True)
    shown = {n: int(t) for n, t in re.findall(r'data-name="([^"]+)" data-table="(\d+)"', screen)}
    assert shown == seats and 'http-equiv="refresh"' in screen


def test_the_final_sheet_has_the_prizes_and_the_money(client, drive):
    drive_id, urls = drive
    d = play_all(client, drive_id, urls)
    assert d["finished"]
    html = client.get(f"/d/{drive_id}/standings", query_string={"lang": "en"}).get_data(as_text=True)
    # 12 players × £2.50 = £30.00; prizes £5 + £4.50 + £3 = £12.50; raised £17.50
    assert re.search(r'id="takings">£30\.00<', html)
    assert re.search(r'id="prize-total">£12\.50<', html)
    assert re.search(r'id="raised">£17\.50<', html)
    top_lady = next(s for s in d["standings"] if s["role"] == "lady" and s["place"] == 1)
    assert re.search(r"1st lady</th><td>Wine</td>.*?" + top_lady["names"][0], html, re.S)
    da = client.get(f"/d/{drive_id}/standings", query_string={"lang": "da"}).get_data(as_text=True)
    assert "30,00" in da and "17,50" in da


def test_score_and_tally_cards_carry_the_tricks(client, drive):
    drive_id, urls = drive
    d = play_all(client, drive_id, urls)
    cards = client.get(f"/d/{drive_id}/scorecards").get_data(as_text=True)
    ann = next(s for s in d["standings"] if s["names"] == ["Ann"])
    section = cards.split("<h1>Ann <small", 1)[1].split("</section>", 1)[0]
    assert f"<b>{ann['total']}</b>" in section  # the final total
    assert section.count('class="trump"') == 4
    tally = client.get(f"/d/{drive_id}/tally").get_data(as_text=True)
    assert tally.count('class="tally-card"') == 3 and "Ann &amp; Al" in tally
    blank = client.get("/drives/blank?hands=24&trump=hearts&trump=none").get_data(as_text=True)
    assert blank.count("<tr><td>24</td>") == 2  # two cards per page, each with 24 hands


@pytest.mark.needs_program
@pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils missing")
def test_the_final_standings_as_a_pdf(client, drive, tmp_path):
    drive_id, urls = drive
    play_all(client, drive_id, urls)
    r = client.get(f"/d/{drive_id}/standings.pdf", query_string={"lang": "da"})
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    path = tmp_path / "standings.pdf"
    path.write_bytes(r.data)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    assert "Village hall" in text and "Præmier" in text and "Turneringen indbragte" in text
    assert "17,50" in text and "30,00" in text and "Wooden spoon" in text
    for kind in ("cards", "scorecards", "tally"):
        assert client.get(f"/d/{drive_id}/{kind}.pdf").data.startswith(b"%PDF")
    assert client.get("/drives/blank.pdf?hands=24").data.startswith(b"%PDF")


@pytest.mark.parametrize("lang", LANGS)
def test_a_tables_result_for_a_seating_that_changed_is_refused(client, drive, db_path, lang):
    """Issue 22, finding 5, on the table's page: it shows hand 2's seating; the organiser corrects hand 1 and hand 2
    is seated anew; the page's result (for the players it showed) is a 409 that says so in the reader's language,
    nothing is stored, and the page now shows who plays at the table."""
    from helpers import dump

    drive_id, urls = drive
    table = client.application.test_client()
    for t, tricks in ((1, 8), (2, 6), (3, 7)):
        send(table, urls[t], 1, tricks)
    page = table.get(urls[1], query_string={"lang": lang}).get_data(as_text=True)
    seated = re.findall(r'<input type="hidden" name="seated" value="([^"]+)">', page)
    shown = api(client, drive_id)["rounds"][1]["tables"][0]
    assert seated == [name for pair in shown["pairs"] for name in pair]  # the page sends back whom it showed
    r = client.post(
        f"/d/{drive_id}/hands/1/tables/1", data={"csrf_token": token(client, f"/d/{drive_id}"), "tricks": "5"}
    )
    assert r.status_code == 302
    now = api(client, drive_id)["rounds"][1]["tables"][0]
    assert now["pairs"] != shown["pairs"]
    before = dump(db_path)
    r = table.post(urls[1], data={"hand": "2", "tricks": "7", "seated": seated}, query_string={"lang": lang})
    assert r.status_code == 409
    html = r.get_data(as_text=True)
    expected = {
        "en": "The seating changed — reload",
        "da": "Pladserne er ændret — genindlæs",
        "nb": "Plasseringen er endret — last inn på nytt",
        "sv": "Placeringen har ändrats — ladda om",
    }[lang]
    assert expected in html, html[:3000]
    assert dump(db_path) == before
    for name in now["pairs"][0]:
        assert name in html  # the players seated now
    fresh = re.findall(r'<input type="hidden" name="seated" value="([^"]+)">', html)
    assert fresh == [name for pair in now["pairs"] for name in pair]
    r = table.post(urls[1], data={"hand": "2", "tricks": "7", "seated": fresh})  # sent again as the page is now
    assert r.status_code == 302
    assert api(client, drive_id)["rounds"][1]["tables"][0]["tricks"] == [7, 6]


def test_the_organisers_correction_carries_the_seating_too(client, drive, db_path):
    """The organiser's page shows hand 2's tables; a second organiser corrects hand 1 meanwhile; a result sent from the
    first page for the old pairs is refused with the reason, and nothing is stored."""
    from helpers import dump

    drive_id, urls = drive
    table = client.application.test_client()
    for t, tricks in ((1, 8), (2, 6), (3, 7)):
        send(table, urls[t], 1, tricks)
    page = client.get(f"/d/{drive_id}").get_data(as_text=True)
    form = re.search(r'action="/d/[^"]+/hands/2/tables/1">(.*?)</form>', page, re.S).group(1)
    seated = re.findall(r'<input type="hidden" name="seated" value="([^"]+)">', form)
    assert len(seated) == 4
    client.post(f"/d/{drive_id}/hands/1/tables/1", data={"csrf_token": token(client, f"/d/{drive_id}"), "tricks": "5"})
    before = dump(db_path)
    r = client.post(
        f"/d/{drive_id}/hands/2/tables/1",
        data={"csrf_token": token(client, f"/d/{drive_id}"), "tricks": "7", "seated": seated},
        follow_redirects=True,
    )
    assert "The seating changed — reload" in r.get_data(as_text=True)
    assert dump(db_path) == before


def test_made_up_languages_neither_miss_the_kept_print_pages_nor_push_them_out(app, drive):
    """Issue 34, F-S3: the print pages were kept by the raw ?lang=, so each made-up value was drawn anew and kept."""
    from scorekeeper.drives.pages.paper import PAGES

    drive_id, _urls = drive
    stranger = app.test_client()  # not the organiser: the everyone's standings
    PAGES.clear()
    first = stranger.get(f"/d/{drive_id}/scorecards")
    assert first.status_code == 200
    assert len(PAGES) == 1
    for n in range(20):
        r = stranger.get(f"/d/{drive_id}/scorecards?lang=x{n}")
        assert r.status_code == 200 and r.get_data() == first.get_data()
    assert len(PAGES) == 1
    danish = stranger.get(f"/d/{drive_id}/scorecards?lang=da")
    assert 'lang="da"' in danish.get_data(as_text=True) and "lang=da" in danish.get_data(as_text=True)
    assert len(PAGES) == 2
