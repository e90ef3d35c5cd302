"""Issue 24: the club evening as it is played, through the pages over a real SQLite file — the format on the club's
card, two halves with a draw at the break, tables handed over by their codes, Play again that stays on the evening,
titles built from data, the standings and the prizes."""

import re

import pytest
import sqlite_utils

from helpers import PASSWORD, dump, log_in, token
from scorekeeper.clubs import service as club_service
from scorekeeper.games import service
from scorekeeper.storage import migrations

NINE = ["Anna", "Bo", "Carl", "Dina", "Eva", "Finn", "Gro", "Hans", "Ida"]
SOL_MADE = {"bidder": 1, "bid": "sol", "tricks": 0}  # seat 2 makes a sol (seat 1 deals: at five it sits out)
PLAIN = {"bidder": 2, "bid": 7, "suffix": "plain", "trump": "hearts", "partner": 3, "tricks": 8}


@pytest.fixture
def club(client, db):
    club_id = club_service.create_club(
        db,
        {"name": "Kløver", "currency": "DKK", "variant": "danish", "options": {"rate": "0.05"}, "password": PASSWORD},
    )
    ids = [club_service.add_member(db, club_id, name) for name in NINE]
    assert log_in(client, club_id).status_code == 302
    return club_id, ids


def set_format(client, club_id, **data):
    return client.post(f"/c/{club_id}/format", data={"csrf_token": token(client, f"/c/{club_id}/format"), **data})


def again(client, game_id, **extra):
    """Play again, with the protokoll's form's token."""
    page = client.get(f"/g/{game_id}").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    return client.post(f"/g/{game_id}/again", data={"csrf_token": csrf, **extra})


def post(client, url, page):
    return client.post(url, data={"csrf_token": token(client, page)})


def test_the_format_on_the_club_card(client, db, db_path, club):
    club_id, _ = club
    before = dump(db_path)
    r = set_format(client, club_id, halves="0", deals="99", places="3")
    page = r.get_data(as_text=True)
    assert r.status_code == 400
    assert "must be a whole number from 1 to 6" in page and "from 1 to 60, or empty" in page
    assert dump(db_path) == before  # nothing stored
    r = set_format(client, club_id, halves="2", deals="16", places="3", prizes=["alone_made"])
    assert r.status_code == 302
    assert "2 halves of 16 deals" in client.get(f"/c/{club_id}").get_data(as_text=True)
    evening_id = club_service.create_evening(db, club_id, "2026-12-01")
    assert club_service.get_evening(db, club_id, evening_id).format == {
        "halves": 2, "deals": 16, "places": 3, "prizes": ["alone_made"]
    }  # fmt: skip
    set_format(client, club_id, halves="1")
    assert club_service.get_evening(db, club_id, evening_id).format["halves"] == 2  # a made evening keeps its own
    reader = client.application.test_client()
    assert reader.get(f"/c/{club_id}/format").status_code == 302  # to the login


def play(db, game_id, key, hands):
    for inp in hands:
        service.add_hand(db, game_id, inp, key)


def test_two_halves_with_a_draw_at_the_break(client, db, club):
    club_id, ids = club
    set_format(client, club_id, halves="2", deals="2", places="2", prizes=["alone_made", "bids_made"])
    evening_id = club_service.create_evening(db, club_id, "2026-12-01")
    evening_url = f"/c/{club_id}/e/{evening_id}"
    first = [
        club_service.add_table(db, club_id, evening_id, ids[:4]),
        club_service.add_table(db, club_id, evening_id, ids[4:]),
    ]
    for game_id, key, _ in first:
        assert service.load(db, game_id).game.options["deals"] == 2  # the format's deals per half
        play(db, game_id, key, [SOL_MADE, PLAIN])
    page = client.get(evening_url)
    assert page.headers["Cache-Control"] == "no-store"  # the admin's page holds the tables' codes
    assert 'id="make-draw"' in page.get_data(as_text=True)
    r = post(client, f"{evening_url}/draw", evening_url)
    assert r.status_code == 302
    draw = club_service.get_evening(db, club_id, evening_id).draw
    assert draw["half"] == 2 and sorted(map(len, draw["tables"])) == [4, 5] and draw["repeats"] == 6
    assert sorted(m for t in draw["tables"] for m in t) == sorted(ids)
    # The draw on the evening page for anyone, and on every table's phone.
    reader = client.application.test_client()
    shown = reader.get(evening_url).get_data(as_text=True)
    names = {m.id: m.name for m in club_service.members(db, club_id).values()}
    for table in draw["tables"]:
        assert ", ".join(names[m] for m in table) in shown
    scorer = client.application.test_client()
    for game_id, _key, _n in first:
        code = club_service.evening(db, club_id, evening_id).tables[_n - 1].record.code
        assert scorer.get(f"/c/{club_id}/k/{code}").status_code == 302
        sheet = scorer.get(f"/g/{game_id}").get_data(as_text=True)
        assert 'id="next-half"' in sheet and "The draw for half 2" in sheet
        assert ", ".join(names[m] for m in draw["tables"][0]) in sheet
    # One tap starts every drawn table; the second tap starts nothing.
    r = post(client, f"{evening_url}/draw/start", evening_url)
    assert r.status_code == 302 and "/hand-over" in r.location
    handover = client.get(r.location)
    assert handover.headers["Cache-Control"] == "no-store" and "<svg" in handover.get_data(as_text=True)
    assert post(client, f"{evening_url}/draw/start", evening_url).status_code == 302
    data = club_service.evening(db, club_id, evening_id)
    second = [t for t in data.tables if t.record.half == 2]
    assert [t.record.shown_number for t in second] == [1, 2] and len(data.tables) == 4
    assert [list(t.record.members) for t in second] == draw["tables"]
    assert club_service.get_evening(db, club_id, evening_id).draw is None
    # The second half's tables are played; the result has the standings by half and the prizes.
    for t in second:
        key = service.handed_key(t.scored_game.game)
        play(db, t.record.game_id, key, [SOL_MADE])
    data = club_service.evening(db, club_id, evening_id)
    assert sum(s.points for s in data.standings) == 0
    for s in data.standings:
        assert sum(s.halves) == s.points and len(s.halves) == 2
    kinds = [p.kind for p in data.prizes]
    assert kinds[:1] == ["place"] and "alone_made" in kinds
    result = client.get(f"{evening_url}/result").get_data(as_text=True)
    assert 'id="prizes"' in result and "Most solo bids made" in result
    assert "Half 1" in result and "Half 2" in result


def test_a_code_hands_over_its_table_and_nothing_else(client, db, club):
    club_id, ids = club
    evening_id = club_service.create_evening(db, club_id, "2026-12-01")
    one, _, _ = club_service.add_table(db, club_id, evening_id, ids[:4])
    two, _, _ = club_service.add_table(db, club_id, evening_id, ids[4:8])
    codes = [t.record.code for t in club_service.evening(db, club_id, evening_id).tables]
    assert all(re.fullmatch(f"[{club_service.CODE_ALPHABET}]{{6}}", c) for c in codes) and codes[0] != codes[1]
    scorer = client.application.test_client()
    assert scorer.get(f"/c/{club_id}/k/AAAAAA").status_code == 404
    typed = f"{codes[0][:3].lower()}-{codes[0][3:]}"  # as a person types it
    r = scorer.post("/k", data={"csrf_token": token(scorer, "/k"), "code": typed})
    assert r.status_code == 302 and r.location.endswith(f"/g/{one}")
    assert "Enter hand 1" in scorer.get(f"/g/{one}").get_data(as_text=True)
    assert "Enter hand 1" not in scorer.get(f"/g/{two}").get_data(as_text=True)  # that table only
    assert scorer.get(f"/g/{two}/hands/new").status_code == 403
    # The pages the service worker keeps on the phone (home, the protokoll, its new-hand form) hold no code, no key.
    handed = service.handed_key(service.load(db, one).game)
    for kept in ("/", f"/g/{one}", f"/g/{one}/hands/new"):
        text = scorer.get(kept).get_data(as_text=True)
        assert handed not in text and codes[0] not in text and codes[0][:3] + "-" not in text, kept
    other = club_service.create_club(db, {"name": "Spar", "currency": "DKK", "variant": "danish", "password": PASSWORD})
    assert scorer.get(f"/c/{other}/k/{codes[1]}").status_code == 404  # a code opens its own club's table only
    # Only the admin sees the codes; the hand-over page is refused to anyone else.
    assert codes[0] not in scorer.get(f"/c/{club_id}/e/{evening_id}").get_data(as_text=True)
    assert scorer.get(f"/c/{club_id}/e/{evening_id}/tables/{one}/hand-over").status_code == 302
    assert codes[0][:3] in client.get(f"/c/{club_id}/e/{evening_id}").get_data(as_text=True)


def test_a_code_gives_the_edit_right_only_while_its_evening_is_open(client, db, club):
    """Issue 34, F-A1: after the evening was settled the code still gave the hand form and a delete went through."""
    from helpers import fields

    club_id, ids = club
    evening_id = club_service.create_evening(db, club_id, "2026-12-01")
    game_id, key, _ = club_service.add_table(db, club_id, evening_id, ids[:4])
    play(db, game_id, key, [PLAIN])
    code = club_service.evening(db, club_id, evening_id).tables[0].record.code
    scorer = client.application.test_client()
    assert scorer.get(f"/c/{club_id}/k/{code}").status_code == 302
    delete_form = fields(scorer.get(f"/g/{game_id}/hands/1/delete").get_data(as_text=True))
    assert scorer.get(f"/g/{game_id}/hands/new").status_code == 200
    club_service.set_settled(db, club_id, evening_id, "pairwise", True)
    # the phone that took the code: no hand form, no delete, in words
    page = scorer.get(f"/g/{game_id}/hands/new")
    assert page.status_code == 403 and "code has expired" in page.get_data(as_text=True)
    assert scorer.post(f"/g/{game_id}/hands/1/delete", data=delete_form).status_code == 403
    assert "Enter hand 2" not in scorer.get(f"/g/{game_id}").get_data(as_text=True)
    handed = service.handed_key(service.load(db, game_id).game)
    r = client.post(f"/api/games/{game_id}/hands", json={"passed": True}, headers={"X-Edit-Key": handed})
    assert r.status_code == 403
    assert len(service.load(db, game_id).hands) == 1
    # the code itself, scanned or typed: expired, in words
    late = client.application.test_client()
    r = late.get(f"/c/{club_id}/k/{code}")
    assert r.status_code == 410 and "code has expired" in r.get_data(as_text=True)
    r = late.post("/k", data={"csrf_token": token(late, "/k"), "code": code})
    assert r.status_code == 410 and "code has expired" in r.get_data(as_text=True)
    assert late.get(f"/g/{game_id}/hands/new").status_code == 403
    # the admin's own edit key still changes it (the evening then shows it changed after settling)
    play(db, game_id, key, [PLAIN])
    # marked not settled again: the code works again
    club_service.set_settled(db, club_id, evening_id, "pairwise", False)
    assert scorer.get(f"/g/{game_id}/hands/new").status_code == 200


def test_play_again_stays_on_the_evening(client, db, club):
    club_id, ids = club
    evening_id = club_service.create_evening(db, club_id, "2026-12-01")
    game_id, key, _ = club_service.add_table(db, club_id, evening_id, ids[:4], 1)
    play(db, game_id, key, [PLAIN])
    scorer = client.application.test_client()
    code = club_service.evening(db, club_id, evening_id).tables[0].record.code
    scorer.get(f"/c/{club_id}/k/{code}")
    r = again(scorer, game_id)
    assert r.status_code == 302
    new_id = r.location.rsplit("/", 1)[-1]
    tables = club_service.evening(db, club_id, evening_id).tables
    assert [t.record.game_id for t in tables] == [game_id, new_id]  # on the evening, never a stray game
    assert tables[1].record.members == tuple(ids[:4]) and tables[1].scored_game.game.dealer == 2
    assert "Enter hand 1" in scorer.get(f"/g/{new_id}").get_data(as_text=True)
    assert again(scorer, game_id).location == r.location  # a second tap: the same table


def test_play_again_asks_when_the_next_half_is_drawn(client, db, club):
    club_id, ids = club
    set_format(client, club_id, halves="2")
    evening_id = club_service.create_evening(db, club_id, "2026-12-01")
    game_id, key, _ = club_service.add_table(db, club_id, evening_id, ids[:4])
    club_service.add_table(db, club_id, evening_id, ids[4:8])
    club_service.make_draw(db, club_id, evening_id)
    client.get(f"/c/{club_id}/k/{club_service.evening(db, club_id, evening_id).tables[0].record.code}")
    r = again(client, game_id)
    assert r.status_code == 200 and 'id="see-draw"' in r.get_data(as_text=True)
    assert len(club_service.evening(db, club_id, evening_id).tables) == 2  # nothing started yet
    r = again(client, game_id, confirm="1")
    assert r.status_code == 302 and len(club_service.evening(db, club_id, evening_id).tables) == 3


def test_titles_are_built_in_the_readers_language(client, db, club):
    club_id, ids = club
    evening_id = club_service.create_evening(db, club_id, "2026-12-01")
    game_id, _, _ = club_service.add_table(db, club_id, evening_id, ids[:4])
    assert service.load(db, game_id).game.title is None  # no text stored
    page = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert "Kløver · Table 1 · Dec 1, 2026" in page
    assert f'href="/c/{club_id}/e/{evening_id}"' in page and f'href="/c/{club_id}"' in page  # back to both
    client.get("/lang/da")
    page = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert "Kløver · Bord 1 · 1. dec. 2026" in page
    assert "Kløver · Bord 1" in client.get(f"/g/{game_id}/print").get_data(as_text=True)


def test_old_stored_titles_are_cleared_where_the_app_made_them(db, db_path, club):
    club_id, ids = club
    evening_id = club_service.create_evening(db, club_id, "2026-01-08")
    made, _, _ = club_service.add_table(db, club_id, evening_id, ids[:4])
    typed, _, _ = club_service.add_table(db, club_id, evening_id, ids[4:8])
    stray, _ = service.start_game(db, {"variant": "danish", "players": NINE[:4], "title": "Bord 3 · 2026-01-08"})
    db.execute("UPDATE games SET title = 'Bord 1 · 2026-01-08' WHERE id = ?", [made])
    db.execute("UPDATE games SET title = 'Finale' WHERE id = ?", [typed])
    db.conn.commit()
    migration = next(m for m in migrations._migrations if m.name == "m141_table_titles_from_data")
    migration.fn(sqlite_utils.Database(db_path))
    titles = {r["id"]: r["title"] for r in sqlite_utils.Database(db_path).query("SELECT id, title FROM games")}
    assert titles[made] is None and titles[typed] == "Finale" and titles[stray] == "Bord 3 · 2026-01-08"


@pytest.fixture
def played(client, db, club):
    """An evening of two tables with a fee, hands played, a member named like a formula."""
    club_id, ids = club
    club_service.rename_member(db, club_id, ids[8], "=1+1")
    set_format(client, club_id, places="2", prizes=["alone_made"])
    evening_id = club_service.create_evening(db, club_id, "2026-12-01", "10")
    for members in (ids[:4], ids[4:]):
        game_id, key, _ = club_service.add_table(db, club_id, evening_id, members)
        play(db, game_id, key, [SOL_MADE, PLAIN])
    return club_id, evening_id


@pytest.mark.needs_program
def test_the_evening_on_paper_one_pdf(client, played, tmp_path):
    from helpers import pdftotext

    club_id, evening_id = played
    r = client.get(f"/c/{club_id}/e/{evening_id}/evening.pdf")
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    text = pdftotext(r.data, tmp_path)
    assert "Result of Dec 1, 2026" in text and "Prizes" in text and "Most solo bids made" in text
    assert "pays" in text and "Before fee" in text  # who pays whom, and the clear column names
    assert text.count("Kløver · Table 1 · Dec 1, 2026") >= 1 and "Kløver · Table 2 · Dec 1, 2026" in text
    page = client.get(f"/c/{club_id}/e/{evening_id}/print").get_data(as_text=True)
    assert page.count('class="table-sheet') == 2


def evening_words(data: bytes, tmp_path, titles: list[str]) -> list[str]:
    """An evening's PDF's words page after page, each page's footer (its sheet's title, "n / N") left out: the result's
    pages carry the result's title, each table's sheet its own."""
    from helpers import paper_words, raw_pages

    texts = raw_pages(data, tmp_path)
    pages = len(texts)
    out: list[str] = []
    for number, text in enumerate(texts, 1):
        words = paper_words(text)
        feet = [paper_words(f"{title} {number} / {pages}") for title in titles]
        foot = next((f for f in feet if words[-len(f) :] == f), None)
        assert foot is not None, f"page {number} ends with {words[-8:]}, not a footer"
        out += words[: -len(foot)]
    return out


@pytest.mark.needs_program
@pytest.mark.parametrize("lang", ["en", "da"])
def test_the_evenings_pdf_says_what_its_print_page_says(client, played, tmp_path, lang):
    """The evening's PDF (ReportLab, clubs/document.py) and its print page: the same words in the same order, the
    result and the card its tables played by first, then each table's sheet on a page of its own with its title in the
    footer."""
    import html as html_lib

    from helpers import artifact, page_words, pdfinfo

    club_id, evening_id = played
    client.get(f"/lang/{lang}")
    page = client.get(f"/c/{club_id}/e/{evening_id}/print").get_data(as_text=True)
    r = client.get(f"/c/{club_id}/e/{evening_id}/evening.pdf")
    assert r.status_code == 200 and r.data.startswith(b"%PDF")
    titles = re.findall(r"<h1>([^<]*)</h1>", page)
    assert len(titles) == 3, titles  # the result, two tables
    titles = [html_lib.unescape(t) for t in titles]
    assert int(pdfinfo(r.data, tmp_path)["Pages"]) == 4  # the result, the card its tables played by, two tables
    artifact(f"evening-{lang}.pdf").write_bytes(r.data)
    assert evening_words(r.data, tmp_path, titles) == page_words(page)


def test_the_spreadsheets_have_typed_cells(client, played, db, tmp_path):
    import datetime
    import io
    from decimal import Decimal

    import openpyxl

    club_id, evening_id = played
    r = client.get(f"/c/{club_id}/e/{evening_id}/result.xlsx")
    assert r.status_code == 200
    book = openpyxl.load_workbook(io.BytesIO(r.data))
    sheet = book[book.sheetnames[0]]
    head = [c.value for c in sheet[1]]
    assert head[:8] == ["member", "place", "tables", "hands", "points", "before fee", "fee", "net"]
    rows = {row[0].value: row for row in sheet.iter_rows(min_row=2)}
    assert "=1+1" in rows and rows["=1+1"][0].data_type == "s"  # a name, not a formula
    anna = rows["Anna"]
    assert isinstance(anna[4].value, int) and anna[6].value == 10 and anna[6].number_format == "#,##0.00"
    data = club_service.evening(db, club_id, evening_id)
    by_name = {m.id: m for m in club_service.members(db, club_id).values()}
    for m in data.result.members:
        assert Decimal(str(rows[by_name[m.member].name][7].value)) == Decimal(m.net) / 100
    about = book["Evening"]
    assert isinstance(about["B2"].value, datetime.datetime) and about["B2"].value.date() == datetime.date(2026, 12, 1)
    ledger = openpyxl.load_workbook(io.BytesIO(client.get(f"/c/{club_id}/ledger.xlsx").data))
    lsheet = ledger[ledger.sheetnames[0]]
    assert [c.value for c in lsheet[1]][4] == "net (DKK)" and lsheet["E2"].number_format == "#,##0.00"
    game_id = data.tables[0].record.game_id
    hands = openpyxl.load_workbook(io.BytesIO(client.get(f"/g/{game_id}/hands.xlsx").data))
    hsheet = hands[hands.sheetnames[0]]
    assert hsheet["A2"].value == 1 and isinstance(hsheet.cell(2, hsheet.max_column).value, int)


NUMBER_AS_TEXT = re.compile(r"[−+-]?\d[\d\s.,]*")


def test_no_spreadsheet_writes_a_number_as_text(client, played, db):
    """The stake (0.05 DKK a point) is a number with the money format on the evening's sheet, and no cell of any
    .xlsx the app answers (the result, the ledger, a table's hands) holds a number as text."""
    import io
    from decimal import Decimal

    import openpyxl

    club_id, evening_id = played
    book = openpyxl.load_workbook(io.BytesIO(client.get(f"/c/{club_id}/e/{evening_id}/result.xlsx").data))
    about = book["Evening"]
    assert about["C1"].value == "rate" and about["C2"].data_type == "n", (about["C2"].value, about["C2"].data_type)
    assert Decimal(str(about["C2"].value)) == Decimal("0.05") and about["C2"].number_format.startswith("#,##0.00")
    game_id = club_service.evening(db, club_id, evening_id).tables[0].record.game_id
    texts = []
    for url in (f"/c/{club_id}/e/{evening_id}/result.xlsx", f"/c/{club_id}/ledger.xlsx", f"/g/{game_id}/hands.xlsx"):
        for sheet in openpyxl.load_workbook(io.BytesIO(client.get(url).data)):
            for row in sheet.iter_rows(min_row=2):
                texts += [
                    f"{url} {sheet.title}!{c.coordinate}: {c.value!r}"
                    for c in row
                    if c.data_type == "s" and NUMBER_AS_TEXT.fullmatch(str(c.value))
                ]
    assert texts == []


def test_a_csv_a_nordic_spreadsheet_splits(client, played):
    import csv

    club_id, evening_id = played
    text = client.get(f"/c/{club_id}/e/{evening_id}/result.csv?sep=semicolon").get_data(as_text=True)
    rows = list(csv.reader(text.lstrip("\ufeff").splitlines(), delimiter=";"))
    assert rows[0][5:8] == ["before fee", "fee", "net"]
    anna = next(r for r in rows if r[0] == "Anna")
    assert anna[6] == "10,00" and "," in anna[7] and "." not in anna[7]
    assert next(r for r in rows if r[0].endswith("=1+1"))[0] == "'=1+1"
    plain = client.get(f"/c/{club_id}/e/{evening_id}/result.csv").get_data(as_text=True)
    assert next(r for r in csv.reader(plain.lstrip("\ufeff").splitlines()) if r[0] == "Anna")[6] == "10.00"
    ledger = client.get(f"/c/{club_id}/ledger.csv?sep=semicolon").get_data(as_text=True)
    assert "net (DKK)" in ledger.splitlines()[0] and ";" in ledger.splitlines()[0]


def test_a_members_season_at_a_glance(client, db, played):
    club_id, evening_id = played
    second = club_service.create_evening(db, club_id, "2026-12-08")
    ids = [m.id for m in club_service.members(db, club_id).values()]
    anna = next(m.id for m in club_service.members(db, club_id).values() if m.name == "Anna")
    game_id, key, _ = club_service.add_table(db, club_id, second, [anna] + [i for i in ids if i != anna][:3])
    play(db, game_id, key, [SOL_MADE])
    reader = client.application.test_client()
    page = reader.get(f"/c/{club_id}/members/{anna}").get_data(as_text=True)
    for chart in ("money-chart", "points-chart"):
        figure = page.split(f'id="{chart}"', 1)[1].split("</figure>", 1)[0]
        points = re.search(r'<polyline class="line line-0" points="([^"]+)"', figure).group(1).split()
        assert len(points) == 3  # 0, then after each of the two evenings
    ledger = reader.get(f"/c/{club_id}/ledger").get_data(as_text=True)
    assert f'id="money-chart-{anna}"' in ledger and f'id="points-chart-{anna}"' in ledger


def test_table_codes_are_tried_a_bounded_number_of_times(db_path):
    """Scanned or typed, a client gets LIMIT_TABLE_CODES tries: a six-character code is not found by guessing."""
    from scorekeeper import create_app

    app = create_app(
        {"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "t", "RATELIMIT_ENABLED": True,
         "LIMIT_TABLE_CODES": "3 per minute", "WTF_CSRF_ENABLED": False}
    )  # fmt: skip
    client = app.test_client()
    assert [client.get("/c/x/k/AAAAAA").status_code for _ in range(3)] == [404, 404, 404]
    assert client.get("/c/x/k/AAAAAA").status_code == 429
    assert client.post("/k", data={"code": "AAAAAA"}).status_code == 429  # one budget for both ways
