"""Issue 44, "the club's language and clock on all its paper": the club's card (its page, print page and PDF) and every
table's sheet, CSV and spreadsheet speak the club's print language, whenever the table started, in the words the sheet
prints (a suit as ♥, a bid as the card names it), a game of no club the reader's; `?sep=semicolon` wherever a CSV is
offered; one date on every sheet, in the time zone the club plays in (TIME_ZONE), the clock given explicitly; and the
numbers in forms as the reader writes them (20,00 in Danish), read back either way."""

import csv
import io
import re
from datetime import datetime

import openpyxl
import pytest
from pypdf import PdfReader

from helpers import PASSWORD, log_in, token
from scorekeeper.clubs import service as club_service
from scorekeeper.games import service

ENGLISH = {"Accept-Language": "en-GB,en;q=0.9"}
MEMBERS = ["Anna", "Bo", "Carl", "Dina"]
HANDS = [
    {"bidder": 1, "bid": 9, "suffix": "gode", "trump": "clubs", "partner": 3, "tricks": 10},
    {"bidder": 0, "bid": 8, "suffix": "halve", "trump": "hearts", "partner": 2, "tricks": 7},
    {"bidder": 2, "bid": "sol", "tricks": 0},
    {"passed": True},
]


def pdf_text(data: bytes) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages).split())


def rows(text: str, delimiter: str = ",") -> list[list[str]]:
    return list(csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=delimiter))


def make_club(client, db, language=None) -> tuple[str, list[int]]:
    club_id = club_service.create_club(
        db,
        {
            "name": "Kløverklubben",
            "currency": "DKK",
            "variant": "danish",
            "options": {"rate": "0.05"},
            "password": PASSWORD,
            "language": language,
            "evening": {"fee": "20"},
        },
    )
    ids = [club_service.add_member(db, club_id, name) for name in MEMBERS]
    assert log_in(client, club_id).status_code == 302
    return club_id, ids


def table(db, club_id, ids, date="2026-12-03") -> tuple[int, str]:
    evening_id = club_service.create_evening(db, club_id, date, "20", "pairwise")
    game_id, key, _ = club_service.add_table(db, club_id, evening_id, ids)
    for hand in HANDS:
        service.add_hand(db, game_id, hand, key)
    return evening_id, game_id


def set_language(db, club_id, language) -> None:
    club = club_service.get_club(db, club_id)
    club_service.update_club(
        db,
        club_id,
        {"name": club.name, "currency": club.currency, "variant": club.variant, "options": club.options,
         "language": language},
    )  # fmt: skip


# ---------------------------------------------------------------- the club's print language


def test_the_cards_page_print_page_and_pdf_speak_the_clubs_print_language(client, db):
    club_id, _ids = make_club(client, db, language="da")
    page = client.get(f"/c/{club_id}/card", headers=ENGLISH).get_data(as_text=True)
    assert '<html lang="da"' in page and "Solmeldinger" in page and "Sol bids" not in page
    printed = client.get(f"/c/{club_id}/card/print", headers=ENGLISH).get_data(as_text=True)
    assert '<html lang="da"' in printed and "Husregler" in printed and "House rules" not in printed
    text = pdf_text(client.get(f"/c/{club_id}/card.pdf", headers=ENGLISH).data)
    assert "Indsats" in text and "Stake" not in text
    # The club's own pages stay in the reader's language, and ?lang= still wins on its paper.
    assert "House rules" in client.get(f"/c/{club_id}", headers=ENGLISH).get_data(as_text=True)
    assert "House rules" in client.get(f"/c/{club_id}/card/print?lang=en").get_data(as_text=True)


def test_a_table_started_before_the_print_language_was_set_follows_the_clubs_language_now(client, db):
    club_id, ids = make_club(client, db)  # no print language yet: the table is started without one
    _evening_id, game_id = table(db, club_id, ids)
    assert "Players" in client.get(f"/g/{game_id}/print", headers=ENGLISH).get_data(as_text=True)
    set_language(db, club_id, "da")
    printed = client.get(f"/g/{game_id}/print", headers=ENGLISH).get_data(as_text=True)
    assert '<html lang="da"' in printed and "Spillere" in printed and "Players" not in printed
    assert "Spillere" in pdf_text(client.get(f"/g/{game_id}/sheet.pdf", headers=ENGLISH).data)
    assert "Spillere" in client.get(f"/g/{game_id}/blank", headers=ENGLISH).get_data(as_text=True)
    set_language(db, club_id, "sv")  # its current language, not the one it had when the table started
    assert "Spelare" in client.get(f"/g/{game_id}/print", headers=ENGLISH).get_data(as_text=True)
    assert "Spelare" in pdf_text(client.get(f"/g/{game_id}/sheet.pdf", headers=ENGLISH).data)


def test_the_hands_csv_and_spreadsheet_speak_the_sheets_words_in_the_clubs_language(client, db):
    club_id, ids = make_club(client, db, language="da")
    _evening_id, game_id = table(db, club_id, ids)
    got = rows(client.get(f"/g/{game_id}/hands.csv", headers=ENGLISH).get_data(as_text=True))
    head, body = got[0], got[1:]
    english = {"hand", "dealer", "passed", "bidder", "bid", "suffix", "trump", "partner", "tricks", "points Anna"}
    assert not english & set(head), head
    assert head[:3] == ["spil", "giver", "passet"] and "melder" in head and "påhæng" in head and "point Anna" in head
    cells = [dict(zip(head, row)) for row in body]
    assert [c["påhæng"] for c in cells] == ["gode", "halve", "", ""]
    assert [c["trumf"] for c in cells] == ["♣", "♥", "", ""]
    assert [c["melding"] for c in cells] == ["9", "8", "sol", ""]
    assert [c["passet"] for c in cells] == ["", "", "", "ja"]
    assert not {"clubs", "hearts", "yes"} & {v for row in body for v in row}
    book = openpyxl.load_workbook(io.BytesIO(client.get(f"/g/{game_id}/hands.xlsx", headers=ENGLISH).data))
    sheet = book[book.sheetnames[0]]
    assert [c.value for c in sheet[1]] == head
    assert [sheet.cell(row, head.index("trumf") + 1).value for row in (2, 3)] == ["♣", "♥"]


def test_a_game_of_no_club_speaks_its_readers_language_in_its_csv(client, api):
    game = api.create("danish", players=MEMBERS)
    api.hand(game, HANDS[0])
    norwegian = rows(client.get(f"/g/{game['id']}/hands.csv", headers={"Accept-Language": "nb"}).get_data(as_text=True))
    assert norwegian[0][:2] == ["spill", "giver"] and "♣" in norwegian[1]
    english = rows(client.get(f"/g/{game['id']}/hands.csv", headers=ENGLISH).get_data(as_text=True))
    assert english[0][:2] == ["hand", "dealer"] and "♣" in english[1] and "clubs" not in english[1]


def csv_routes(app) -> list[str]:
    return sorted(rule.rule for rule in app.url_map.iter_rules() if rule.rule.endswith(".csv"))


def test_sep_semicolon_works_wherever_a_csv_is_offered(app, client, db):
    club_id, ids = make_club(client, db, language="da")
    evening_id, game_id = table(db, club_id, ids)
    urls = {
        "/g/<game_id>/hands.csv": f"/g/{game_id}/hands.csv",
        "/c/<club_id>/e/<int:evening_id>/result.csv": f"/c/{club_id}/e/{evening_id}/result.csv",
        "/c/<club_id>/ledger.csv": f"/c/{club_id}/ledger.csv",
    }
    assert csv_routes(app) == sorted(urls)  # a new CSV route is held to this too
    for url in urls.values():
        plain = client.get(url).get_data(as_text=True)
        semicolon = client.get(f"{url}?sep=semicolon").get_data(as_text=True)
        assert rows(plain)[0] == rows(semicolon, ";")[0], url  # the same columns, split by semicolons
        assert len(rows(semicolon, ";")[0]) > 1 and ";" in semicolon.splitlines()[0], url
        numbers = [v for row in rows(semicolon, ";")[1:] for v in row if re.fullmatch(r"-?\d+[.,]\d+", v)]
        assert all("," in v for v in numbers), (url, numbers)  # decimal commas
    points = rows(client.get(f"/g/{game_id}/hands.csv?sep=semicolon").get_data(as_text=True), ";")
    assert points[1][points[0].index("point Bo")] == "160"  # 9 gode made with 10 tricks: (40 + 40) × 2


# ---------------------------------------------------------------- one date, in the club's time zone


def at(text: str):
    moment = datetime.fromisoformat(text)
    return lambda: moment


@pytest.mark.parametrize("zone,day", [("Europe/Copenhagen", "2026-12-05"), ("UTC", "2026-12-04")])
def test_one_date_on_every_sheet_in_the_time_zone_the_club_plays_in(app, client, db, zone, day):
    app.config.update(CLOCK=at("2026-12-04T23:30:00+00:00"), TIME_ZONE=zone)  # half past midnight in Copenhagen
    db.clock = app.config["CLOCK"]
    club_id, ids = make_club(client, db, language="da")
    url = f"/c/{club_id}/evenings/new"
    form = client.get(url).get_data(as_text=True)
    assert re.search(r'name="date"[^>]*value="([^"]+)"', form)[1] == day  # tonight, where the club plays
    r = client.post(url, data={"csrf_token": token(client, url), "date": day, "fee": "20"})
    assert r.status_code == 302
    evening_id = club_service.evening_records(db, club_id)[-1].id
    game_id, key, _ = club_service.add_table(db, club_id, evening_id, ids)
    service.add_hand(db, game_id, HANDS[0], key)
    written = datetime.fromisoformat(day).strftime("%-d. december %Y")
    printed = client.get(f"/g/{game_id}/print").get_data(as_text=True)
    head = " ".join(re.sub(r"<[^>]+>", " ", printed[: printed.index('class="hands"')]).split())
    assert f"Dato {written}" in head and f"{int(day[-2:])}. dec. 2026" in head  # the head and the title: one day
    assert not re.search(r"\b(4|5)\. dec", head.replace(f"{int(day[-2:])}. dec", ""))
    about = openpyxl.load_workbook(io.BytesIO(client.get(f"/g/{game_id}/hands.xlsx").data))
    sheet = about[about.sheetnames[1]]
    assert sheet.cell(2, 3).value.date().isoformat() == day

    # A game of no club: the day it was started, where it was played.
    game = client.post("/api/games", json={"variant": "danish", "players": MEMBERS, "language": "da"}).json
    printed = client.get(f"/g/{game['id']}/print").get_data(as_text=True)
    assert f"Dato {written}" in " ".join(re.sub(r"<[^>]+>", " ", printed).split())
    about = openpyxl.load_workbook(io.BytesIO(client.get(f"/g/{game['id']}/hands.xlsx").data))
    assert about[about.sheetnames[1]].cell(2, 3).value.date().isoformat() == day


def test_a_club_tables_sheet_is_dated_by_its_evening(app, client, db):
    app.config.update(CLOCK=at("2026-12-09T19:00:00+00:00"))  # the tables entered a week after the evening
    db.clock = app.config["CLOCK"]
    club_id, ids = make_club(client, db, language="da")
    _evening_id, game_id = table(db, club_id, ids, date="2026-12-03")
    printed = client.get(f"/g/{game_id}/print").get_data(as_text=True)
    head = " ".join(re.sub(r"<[^>]+>", " ", printed[: printed.index('class="hands"')]).split())
    assert "Dato 3. december 2026" in head and "9. dec" not in head
    about = openpyxl.load_workbook(io.BytesIO(client.get(f"/g/{game_id}/hands.xlsx").data))
    assert about[about.sheetnames[1]].cell(2, 3).value.date().isoformat() == "2026-12-03"
    text = pdf_text(client.get(f"/g/{game_id}/sheet.pdf").data)
    assert "3. december 2026" in text and "9. december" not in text


def test_the_time_zone_is_a_documented_setting():
    from scorekeeper import config

    key = config.BY_NAME["TIME_ZONE"]
    assert key.default == "Europe/Copenhagen" and "time zone" in key.meaning


# ---------------------------------------------------------------- numbers in forms


@pytest.mark.parametrize("lang,fee", [("da", "20,00"), ("nb", "20,00"), ("sv", "20,00"), ("en", "20.00")])
def test_the_fee_in_a_form_is_written_as_the_reader_writes_it(client, db, lang, fee):
    club_id, ids = make_club(client, db)
    evening_id = club_service.create_evening(db, club_id, "2026-12-03", "20", "pairwise")
    for url, field in (
        (f"/c/{club_id}/settings", "evening_fee"),
        (f"/c/{club_id}/evenings/new", "fee"),
        (f"/c/{club_id}/e/{evening_id}/edit", "fee"),
    ):
        page = client.get(f"{url}?lang={lang}").get_data(as_text=True)
        assert re.search(rf'name="{field}"[^>]*value="([^"]*)"', page)[1] == fee, (url, lang)


@pytest.mark.parametrize("typed", ["12,50", "12.50", "12,5"])
def test_a_fee_is_read_back_either_way(client, db, typed):
    club_id, _ids = make_club(client, db)
    url = f"/c/{club_id}/evenings/new"
    r = client.post(f"{url}?lang=da", data={"csrf_token": token(client, url), "date": "2026-12-03", "fee": typed})
    assert r.status_code == 302
    assert club_service.evening_records(db, club_id)[-1].fee_cents == 1250


def test_a_drives_fee_and_prizes_are_written_as_the_reader_writes_them(client):
    body = {"format": "couples", "hands": 4, "pairs": [["Ann", "Al"], ["Bea", "Ben"], ["Cat", "Cy"], ["Dot", "Dan"]],
            "currency": "DKK", "fee": "2.50",
            "prizes": [{"kind": "place", "place": 1, "role": "pair", "name": "Vin", "amount": "12.50"}]}  # fmt: skip
    r = client.post("/api/drives", json=body)
    assert r.status_code == 201, r.json
    client.get(r.json["edit_page"])
    page = client.get(f"/d/{r.json['id']}/prizes?lang=da").get_data(as_text=True)
    assert re.search(r'name="fee"[^>]*value="([^"]*)"', page)[1] == "2,50"
    assert re.search(r'name="prize0_amount"[^>]*value="([^"]*)"', page)[1] == "12,50"
