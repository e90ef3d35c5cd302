"""A club moves in mid-season (issue 45), through the pages over the real SQLite file: the preview stores nothing; one
confirm stores it all (the ledger, each member's season and the statistics equal the sheet to the point and the øre)
or nothing; the same file twice adds nothing; the ledger's .xlsx imports back to the same ledger; the .ods LibreOffice
made and CSV files read the same; a bad file is named by sheet, row and column in the reader's language; a file above
the import's limit is refused before it is read; the season, named once, opens the ledger and its winners' paper."""

import csv
import io
import re
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path

import pytest

import season_sheet
from helpers import PASSWORD, form_data, log_in, token
from scorekeeper.clubs import service as club_service
from scorekeeper.clubs.pages.imports import request_bound
from scorekeeper.clubs.service import imports as import_service
from scorekeeper.storage import store

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
NOW = datetime(2027, 1, 15, 12, tzinfo=UTC)  # mid-season: the sheet's "10.9." is last September
DANISH = {"Accept-Language": "da"}


@pytest.fixture
def club(app, client, db):
    """A Danish whist club at 5 øre a point with the sheet's 18 members, its admin logged in, the clock mid-season."""
    app.config["CLOCK"] = lambda: NOW
    db.clock = lambda: NOW
    club_id = club_service.create_club(
        db,
        {"name": season_sheet.CLUB, "currency": "DKK", "variant": "danish", "options": {"rate": "0.05"},
         "password": PASSWORD},
    )  # fmt: skip
    ids = club_service.add_members(db, club_id, season_sheet.MEMBERS)
    log_in(client, club_id)
    return club_id, dict(zip(season_sheet.MEMBERS, ids))


def counts(db) -> dict:
    return {
        table: db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        for table in ("club_members", "club_evenings", "club_imports", "club_imported_results")
    }


def upload(client, club_id, data: bytes, name: str, headers=None):
    return client.post(
        f"/c/{club_id}/import",
        data={"csrf_token": token(client, f"/c/{club_id}/import"), "file": (io.BytesIO(data), name)},
        content_type="multipart/form-data",
        headers=headers or {},
    )


def choose(html: str, names: dict[str, str]) -> dict:
    """The preview's form as the browser sends it, with `names` (the sheet's name → the choice) chosen."""
    data = form_data(html)
    for key, value in list(data.items()):
        if key.startswith("name") and value in names:
            data[f"who{key[4:]}"] = names[value]
    return data


def corrected(ids) -> dict[str, str]:
    return {season_sheet.sheet_name(m): f"m:{ids[m]}" for m in season_sheet.SPELLED}


def confirm(client, club_id, data):
    return client.post(f"/c/{club_id}/import/confirm", data=data)


def ledger_by_name(db, club_id, start=None, end=None) -> dict[str, tuple]:
    members = club_service.members(db, club_id)
    ledger = club_service.season(db, club_id, start, end)
    return {members[line.member].name: (line.evenings, line.points, line.net, line.unsettled) for line in ledger.lines}


def test_the_preview_stores_nothing_and_says_what_it_reads(client, db, club):
    club_id, _ids = club
    before = counts(db)
    page = upload(client, club_id, season_sheet.workbook(), "saeson.xlsx", DANISH)
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert counts(db) == before
    # The two names spelled otherwise are offered, not joined: the preview waits for a choice.
    assert "Vælg hvem “Søren Ø.” er: et medlem eller et nyt medlem." in html
    assert "Søren Østergaard (ligner)" in html and "Birthe Hansen (ligner)" in html
    # The total row's typo is said plainly, with its evening and its cell.
    assert "rækken i alt siger 40, medlemmernes point giver tilsammen 0." in html
    assert "ark “Point”, række 22, kolonne H" in html
    assert "Hent 14 spilleaftener" in html
    # Previewing again with the choices made still stores nothing.
    again = client.post(f"/c/{club_id}/import", data=choose(html, corrected(_ids)))
    assert again.status_code == 200 and "Vælg hvem" not in again.get_data(as_text=True)
    assert counts(db) == before


def test_one_confirm_stores_the_season_and_the_ledger_equals_the_sheet(client, db, club):
    club_id, ids = club
    html = upload(client, club_id, season_sheet.workbook(), "saeson.xlsx").get_data(as_text=True)
    answer = confirm(client, club_id, choose(html, corrected(ids)))
    assert answer.status_code == 302, answer.get_data(as_text=True)[:3000]
    want = season_sheet.expected()
    got = ledger_by_name(db, club_id)
    assert got == {m: (w["evenings"], w["points"], w["net"], 0) for m, w in want.items()}
    assert counts(db)["club_members"] == 18  # the two names were the members they are like: nobody new
    # Each member's season, through the page: the evenings and the net.
    søren = ids["Søren Østergaard"]
    page = client.get(f"/c/{club_id}/members/{søren}").get_data(as_text=True)
    assert page.count("(imported)") == want["Søren Østergaard"]["evenings"]
    # The statistics count the evenings and their points (not hands: the sheet kept none).
    stats = {s.member: s for s in club_service.stats(db, club_id)}
    for member, w in want.items():
        s = stats[ids[member]]
        assert (s.evenings, s.points, s.bids) == (w["evenings"], w["points"], 0)
    # The ledger's CSV says the same to the øre.
    rows = list(csv.DictReader(io.StringIO(client.get(f"/c/{club_id}/ledger.csv").data.decode("utf-8-sig"))))
    by_member = {r["member"]: r for r in rows}
    for member, w in want.items():
        assert Decimal(by_member[member]["net (DKK)"]) == Decimal(w["net"]) / 100
        assert int(by_member[member]["points"]) == w["points"]
    # The club's log names the file and the time.
    (record,) = store.club_imports(db, club_id)
    assert (record.file_name, record.evenings, record.members, record.at) == ("saeson.xlsx", 14, 0, NOW.isoformat())
    log = client.get(f"/c/{club_id}/import").get_data(as_text=True)
    assert "saeson.xlsx" in log and "14 evenings" in log


def test_the_same_file_twice_adds_nothing(client, db, club):
    club_id, ids = club
    data = season_sheet.workbook()
    html = upload(client, club_id, data, "saeson.xlsx").get_data(as_text=True)
    assert confirm(client, club_id, choose(html, corrected(ids))).status_code == 302
    after = counts(db)
    html = upload(client, club_id, data, "saeson.xlsx").get_data(as_text=True)
    assert "This file was imported on" in html and 'id="import-confirm"' not in html
    again = confirm(client, club_id, form_data(html))
    assert again.status_code == 302 and counts(db) == after
    # Saved again by the spreadsheet (other bytes, the same evenings): each evening is known by its day.
    resaved = season_sheet.workbook(typo=False)
    html = upload(client, club_id, resaved, "saeson (2).xlsx").get_data(as_text=True)
    assert html.count("imported before: left out") == 14
    assert confirm(client, club_id, form_data(html)).status_code == 302 and counts(db) == after


def test_a_confirm_that_fails_half_way_stores_nothing(client, db, club, monkeypatch):
    club_id, ids = club
    html = upload(client, club_id, season_sheet.workbook(), "saeson.xlsx").get_data(as_text=True)
    names = corrected(ids) | {"Søren Ø.": "new"}  # a new member too, so the members' table is written first
    before = counts(db)
    real, calls = store.put_imported_result, []

    def failing(*args, **kwargs):
        calls.append(args)
        if len(calls) == 100:
            raise RuntimeError("the disk went away")
        return real(*args, **kwargs)

    monkeypatch.setattr(store, "put_imported_result", failing)
    with pytest.raises(RuntimeError):
        confirm(client, club_id, choose(html, names))
    assert counts(db) == before


def test_the_ods_libreoffice_made_imports_to_the_same_ledger(client, db, club):
    club_id, ids = club
    data = (FIXTURES / "season-2026.ods").read_bytes()
    html = upload(client, club_id, data, "season-2026.ods").get_data(as_text=True)
    assert confirm(client, club_id, choose(html, corrected(ids))).status_code == 302
    want = season_sheet.expected()
    assert ledger_by_name(db, club_id) == {m: (w["evenings"], w["points"], w["net"], 0) for m, w in want.items()}


@pytest.mark.parametrize("encoding,sep,decimal", [("cp1252", ";", ","), ("utf-8-sig", ",", "."), ("utf-8", ";", ",")])
def test_a_long_csv_file(client, db, club, encoding, sep, decimal):
    """A row per member per evening, Danish headings, kroner with the file's decimal sign, hands counted."""
    club_id, ids = club
    lines = [sep.join(["Dato", "Navn", "Point", "Kr.", "Spil"])]
    for member, p, hands in (("Søren Østergaard", 30, 20), ("Anna Holm", -30, 20), ("Bent Larsen", 0, 16)):
        kroner = f"{p * 5 / 100:.2f}".replace(".", decimal)
        cell = f'"{kroner}"' if sep == decimal else kroner
        lines.append(sep.join(["12.9.2026", member, str(p), cell, str(hands)]))
    data = ("\r\n".join(lines) + "\r\n").encode(encoding)
    html = upload(client, club_id, data, "aftener.csv").get_data(as_text=True)
    assert confirm(client, club_id, form_data(html)).status_code == 302
    (result,) = [e.result for e in club_service.evenings(db, club_id)]
    got = {m.member: (m.points, m.winnings, m.net, m.hands) for m in result.members}
    assert got == {
        ids["Søren Østergaard"]: (30, 150, 150, 20),
        ids["Anna Holm"]: (-30, -150, -150, 20),
        ids["Bent Larsen"]: (0, 0, 0, 16),
    }
    assert club_service.season(db, club_id).lines[0].hands in (0, 16, 20)


def test_a_bad_cell_is_named_by_sheet_row_and_column_in_the_readers_language(client, db, club):
    club_id, _ids = club
    lines = ["Navn;10.9.;17.9.", "Anna Holm;10;syg", "Bent Larsen;-10;5"]
    html = upload(client, club_id, "\r\n".join(lines).encode("cp1252"), "aftener.csv", DANISH).get_data(as_text=True)
    assert "“syg” er ikke et antal point (ark “aftener.csv”, række 2, kolonne C)" in html
    before = counts(db)
    answer = confirm(client, club_id, form_data(html))
    assert answer.status_code == 400 and counts(db) == before
    broken = upload(client, club_id, b"PK\x03\x04" + b"\0" * 64, "saeson.xlsx", DANISH)
    assert broken.status_code == 400
    assert "Filen er beskadiget" in broken.get_data(as_text=True)


def multipart(csrf: str, data: bytes) -> tuple[bytes, str]:
    """A form with the file, as bytes (the test client would spool a large one to a file it never closes)."""
    boundary = "----scorekeeper-import"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n{csrf}\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\n'
            "Content-Type: text/csv\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


def test_a_file_above_the_limit_is_refused_before_it_is_read(client, db, club, app):
    club_id, _ids = club
    limit = app.config["IMPORT_MAX_BYTES"]
    assert limit == 2 * 1024 * 1024
    csrf = token(client, f"/c/{club_id}/import")
    # A request larger than the import's bound: 413 from its Content-Length, before its body is read.
    body, kind = multipart(csrf, b"x" * (request_bound(limit) + 1))
    answer = client.post(f"/c/{club_id}/import", data=body, content_type=kind)
    assert answer.status_code == 413
    # Within the request's bound but over the file's: refused by its size, in words.
    body, kind = multipart(csrf, b"x" * (limit + 1))
    answer = client.post(f"/c/{club_id}/import", data=body, content_type=kind)
    assert answer.status_code == 413 and "larger than 2048 KiB" in answer.get_data(as_text=True)
    # Every other route keeps MAX_CONTENT_LENGTH (64 KiB).
    other = client.post(f"/c/{club_id}/members", data={"csrf_token": csrf, "names": "x" * (100 * 1024)})
    assert other.status_code == 413
    assert counts(db)["club_imports"] == 0


def test_an_imported_evening_is_an_evening_corrected_and_deleted_like_one(client, db, club):
    club_id, ids = club
    html = upload(client, club_id, season_sheet.workbook(), "saeson.xlsx").get_data(as_text=True)
    assert confirm(client, club_id, choose(html, corrected(ids))).status_code == 302
    first = club_service.evenings(db, club_id)[0]
    evening_id = first.record.id
    page = client.get(f"/c/{club_id}/e/{evening_id}").get_data(as_text=True)
    assert "Imported from saeson.xlsx" in page and 'id="start-table"' not in page
    assert first.record.settled is not None and first.result.changed_since_settled is False
    # Correct a member's points: the ledger follows, as it does a table's corrected hand.
    anna = ids["Anna Holm"]
    form = client.get(f"/c/{club_id}/e/{evening_id}/imported").get_data(as_text=True)
    data = form_data(form)
    row = next(k[1:] for k, v in data.items() if k.startswith("m") and v == str(anna))
    before = next(m for m in first.result.members if m.member == anna)
    assert data[f"k{row}"] == f"{before.winnings / 100:.2f}"  # the sheet's kroner, as it gave them
    data[f"p{row}"], data[f"k{row}"] = str(before.points + 4), ""  # no money: the points at the evening's rate
    assert client.post(f"/c/{club_id}/e/{evening_id}/imported", data=data).status_code == 302
    after = next(m for m in club_service.evening(db, club_id, evening_id).result.members if m.member == anna)
    assert (after.points, after.winnings) == (before.points + 4, before.winnings + 20)
    assert "Imported from" in client.get(f"/c/{club_id}/e/{evening_id}/result").get_data(as_text=True)
    # A wrong figure is refused beside its row, and nothing changes.
    data[f"p{row}"] = "mange"
    assert client.post(f"/c/{club_id}/e/{evening_id}/imported", data=data).status_code == 400
    # Deleted like any evening without tables: its members' figures go with it.
    delete = client.post(f"/c/{club_id}/e/{evening_id}/delete", data={"csrf_token": token(client, f"/c/{club_id}")})
    assert delete.status_code == 302
    assert store.imported_results(db, [evening_id]) == {}
    assert len(club_service.evenings(db, club_id)) == 13


def test_the_ledgers_xlsx_imports_back_to_the_same_ledger(client, db, season):
    """The round trip: a season played here (three evenings, tables of Danish and classic whist, fees, a kitty),
    settled, written as the ledger's .xlsx and imported into a new club: every line and the kitty as they were."""
    club_id = season["club"]
    log_in(client, club_id)
    for evening_id in season["evenings"]:
        club_service.set_settled(db, club_id, evening_id, "pairwise", True)
    before = club_service.season(db, club_id)
    workbook = client.get(f"/c/{club_id}/ledger.xlsx").data
    other = club_service.create_club(
        db,
        {"name": "Flyttet", "currency": "DKK", "variant": "danish", "options": {"rate": "0.05"}, "password": PASSWORD},
    )
    names = club_service.members(db, club_id)
    club_service.add_members(db, other, [m.name for m in names.values()])
    log_in(client, other)
    html = upload(client, other, workbook, "ledger.xlsx").get_data(as_text=True)
    assert "What must be put right first" not in html, re.sub(r"<[^>]+>", " ", html)[:3000]
    assert confirm(client, other, form_data(html)).status_code == 302
    after = club_service.season(db, other)
    theirs = club_service.members(db, other)

    def lines(ledger, members):
        return {
            members[line.member].name: (line.evenings, line.hands, line.points, line.net, line.unsettled)
            for line in ledger.lines
            if line.evenings
        }

    assert lines(after, theirs) == lines(before, names)
    assert (after.kitty, after.kitty_unsettled) == (before.kitty, before.kitty_unsettled)
    assert [r.evening.date for r in after.results] == [r.evening.date for r in before.results]


def test_the_season_named_once_opens_the_ledger_and_its_winners_paper(client, db, club, tmp_path):
    club_id, ids = club
    html = upload(client, club_id, season_sheet.workbook(), "saeson.xlsx").get_data(as_text=True)
    assert confirm(client, club_id, choose(html, corrected(ids))).status_code == 302
    # An evening of the season before, played here: outside the season the club names.
    old = club_service.create_evening(db, club_id, "2026-03-05")
    assert old
    page = client.get(f"/c/{club_id}/season")
    csrf = token(client, f"/c/{club_id}/season")
    named = client.post(f"/c/{club_id}/season", data={"csrf_token": csrf, "from": "2026-08-01", "to": "2027-05-31"})
    assert page.status_code == 200 and named.status_code == 302
    assert store.club_season(db, club_id) == {"from": "2026-08-01", "to": "2027-05-31"}
    ledger = client.get(f"/c/{club_id}/ledger").get_data(as_text=True)
    assert "14 evenings" in ledger and "Season 2026/27" in ledger
    every = client.get(f"/c/{club_id}/ledger?from=&to=").get_data(as_text=True)
    assert "15 evenings" in every
    # The winners: by the season's points, with the club's print language on paper.
    want = season_sheet.expected()
    best = max(want, key=lambda m: want[m]["points"])
    winners = client.get(f"/c/{club_id}/season").get_data(as_text=True)
    first_row = re.search(r'<tbody><tr[^>]*><td class="place">1</td><th scope="row"><a[^>]*>([^<]+)</a>', winners)
    assert first_row and first_row.group(1) == best
    club_record = club_service.get_club(db, club_id)
    club_service.update_club(
        db, club_id,
        {"name": club_record.name, "currency": "DKK", "variant": "danish", "options": club_record.options,
         "language": "da"},
    )  # fmt: skip
    printed = client.get(f"/c/{club_id}/season/print").get_data(as_text=True)
    assert "Sæson 2026/27" in printed and "Sæsonens stilling" in printed and best in printed
    pdf = client.get(f"/c/{club_id}/season.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    from pypdf import PdfReader

    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
    assert "Sæson 2026/27" in text and best in text


def test_a_table_cannot_be_started_on_an_imported_evening(db, client, club):
    club_id, ids = club
    html = upload(client, club_id, season_sheet.workbook(), "saeson.xlsx").get_data(as_text=True)
    assert confirm(client, club_id, choose(html, corrected(ids))).status_code == 302
    evening_id = club_service.evenings(db, club_id)[0].record.id
    from scorekeeper.core import InputError

    with pytest.raises(InputError):
        club_service.add_table(db, club_id, evening_id, [ids[m] for m in season_sheet.MEMBERS[:4]])
    assert import_service.evening_files(db, [evening_id]) == {evening_id: "saeson.xlsx"}
    assert date.fromisoformat(club_service.evenings(db, club_id)[0].record.date) == season_sheet.DAYS[0]
