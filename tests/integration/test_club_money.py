"""Issue 32, the money as the evening settles it, through the pages over a real SQLite file: a table of an evening
settled through the kitty never tells members to pay each other (page, print, PDF, the evening's PDF); the CSV files'
numbers stay numbers; the evening's paper and spreadsheets speak the club's print language; the table sheets and the
evening's PDF carry the card's matrix as the card has it; Play again after the evening's last half asks first; a gå
med hand says each sol player's result."""

import csv
import io
import re
from decimal import Decimal

import pytest

from helpers import PASSWORD, dump, log_in, pdftotext, token
from scorekeeper.clubs import service as club_service
from scorekeeper.games import service

MEMBERS = ["Inger", "Grethe", "Hanne", "Ib", "Jens", "Karen", "Lis", "Mogens"]
SOL_MADE = {"bidder": 1, "bid": "sol", "tricks": 0}
PLAIN = {"bidder": 2, "bid": 7, "suffix": "plain", "trump": "hearts", "partner": 3, "tricks": 8}
LOST = {"bidder": 0, "bid": 9, "suffix": "plain", "trump": "spades", "partner": 1, "tricks": 6}

# A card laid out in columns as Danish cards are (bids from 8): almindelig and vip | sans and halve | gode, made = the
# value plus the value per overtrick, lost = the value per missing trick. No factor per suffix gives its columns: the
# house keeps factor 1 and the other columns as its own values.
COLUMNS = {
    1: {8: 1, 9: 2, 10: 5, 11: 12, 12: 28, 13: 64},
    2: {8: 2, 9: 3, 10: 7, 11: 16, 12: 36, 13: 80},
    3: {8: 3, 9: 4, 10: 9, 11: 20, 12: 44, 13: 96},
}


def level(v):
    return {"made": v, "over": v, "lost": 0, "short": v}


CARD = {
    "levels": {str(n): level(v) for n, v in COLUMNS[1].items()},
    "suffixes": {s: {"base": 1, "trick": 1} for s in ("plain", "vip", "gode", "sans", "halve")},
    "overrides": {
        **{f"{n}/{s}": level(v) for n, v in COLUMNS[2].items() for s in ("sans", "halve")},
        **{f"{n}/gode": level(v) for n, v in COLUMNS[3].items()},
    },
    "sol": {
        "sol": {"max_tricks": 1, "won": 3, "lost": 3, "won_per_under": 0, "lost_per_over": 0},
        "bordlaegger": {"max_tricks": 1, "won": 14, "lost": 14, "won_per_under": 0, "lost_per_over": 0},
    },
    "gaa_med": "independent",
}


def make_club(client, db, options=None, language=None):
    club_id = club_service.create_club(
        db,
        {
            "name": "Læderwhist",
            "currency": "DKK",
            "variant": "danish",
            "options": {"rate": "2", **(options or {})},
            "password": PASSWORD,
            "language": language,
        },
    )
    ids = [club_service.add_member(db, club_id, name) for name in MEMBERS]
    assert log_in(client, club_id).status_code == 302
    return club_id, ids


def play(db, game_id, key, hands):
    for inp in hands:
        service.add_hand(db, game_id, inp, key)


def evening(db, club_id, ids, settlement, fee="", hands=(SOL_MADE, PLAIN, LOST)):
    """An evening of two tables of four, each played."""
    evening_id = club_service.create_evening(db, club_id, "2026-12-01", fee, settlement)
    games = []
    for members in (ids[:4], ids[4:]):
        game_id, key, _ = club_service.add_table(db, club_id, evening_id, members)
        play(db, game_id, key, hands)
        games.append(game_id)
    return evening_id, games


def pairwise_lines(text: str) -> list[str]:
    """Every "X pays Y" between two members (the kitty is no member)."""
    names = "|".join(map(re.escape, MEMBERS))
    return re.findall(rf"\b(?:{names})\s+pays\s+(?:{names})\b", text)


# ---------------------------------------------------------------- 1. the kitty, never pairwise


@pytest.mark.needs_program  # pdftotext reads the PDF back
def test_a_table_of_a_kitty_evening_shows_the_money_to_and_from_the_kitty(client, db, tmp_path):
    club_id, ids = make_club(client, db)
    evening_id, games = evening(db, club_id, ids, "kitty", fee="10")
    reader = client.application.test_client()
    game_id = games[0]
    scored = service.load(db, game_id)
    page = reader.get(f"/g/{game_id}").get_data(as_text=True)
    assert pairwise_lines(page) == []
    section = page[page.index('class="settlement') :]
    section = section[: section.index("</section>")]
    # Each player's money at this table, to or from the kitty, and the way to the evening's settlement.
    assert "to the kitty" in section and "from the kitty" in section
    assert f'href="/c/{club_id}/e/{evening_id}/result' in section
    assert "The evening settles through the kitty" in section
    assert len(re.findall(r'class="kitty-(?:to|from|even)"', section)) == len(scored.game.players)
    for where in (f"/g/{game_id}/print", f"/c/{club_id}/e/{evening_id}/print"):
        text = reader.get(where).get_data(as_text=True)
        assert pairwise_lines(text) == [], where
        assert "to the kitty" in text and "The evening settles through the kitty" in text
    for where in (f"/g/{game_id}/sheet.pdf", f"/c/{club_id}/e/{evening_id}/evening.pdf"):
        r = reader.get(where)
        assert r.status_code == 200, where
        text = " ".join(pdftotext(r.data, tmp_path).split())
        assert pairwise_lines(text) == [], (where, pairwise_lines(text))
        assert "to the kitty" in text and "The evening settles through the kitty" in text


@pytest.mark.needs_program  # pdftotext reads the PDF back
def test_the_kitty_evenings_pdfs_say_what_their_print_pages_say(client, db, tmp_path):
    """The table's sheet and the evening's paper on a kitty evening: the PDF's words are the print page's."""
    import html as html_lib

    from helpers import page_words, paper_words, pdf_words, raw_pages

    club_id, ids = make_club(client, db)
    evening_id, games = evening(db, club_id, ids, "kitty", fee="10")
    page = client.get(f"/g/{games[0]}/print").get_data(as_text=True)
    words = page_words(page)
    header = words[words.index("#") : words.index("σ") + 1]
    title = "Læderwhist · Table 1 · Dec 1, 2026"
    assert pdf_words(client.get(f"/g/{games[0]}/sheet.pdf").data, tmp_path, title, header) == words
    page = client.get(f"/c/{club_id}/e/{evening_id}/print").get_data(as_text=True)
    titles = [html_lib.unescape(t) for t in re.findall(r"<h1>([^<]*)</h1>", page)]
    texts = raw_pages(client.get(f"/c/{club_id}/e/{evening_id}/evening.pdf").data, tmp_path)
    drawn = []
    for number, text in enumerate(texts, 1):
        got = paper_words(text)
        foot = next(f for t in titles if got[-len(f := paper_words(f"{t} {number} / {len(texts)}")) :] == f)
        drawn += got[: -len(foot)]
    assert drawn == page_words(page)


def test_a_pairwise_evening_keeps_its_pairwise_payments(client, db):
    club_id, ids = make_club(client, db)
    _evening_id, games = evening(db, club_id, ids, "pairwise")
    page = client.get(f"/g/{games[0]}").get_data(as_text=True)
    assert pairwise_lines(page) and "to the kitty" not in page


def test_changing_the_way_of_settling_changes_the_table_page(client, db):
    """The table page (and its live tag) follows the evening's way of settling when the admin changes it."""
    club_id, ids = make_club(client, db)
    evening_id, games = evening(db, club_id, ids, "pairwise")
    assert pairwise_lines(client.get(f"/g/{games[0]}").get_data(as_text=True))
    club_service.change_evening(db, club_id, evening_id, "2026-12-01", "", "kitty")
    page = client.get(f"/g/{games[0]}").get_data(as_text=True)
    assert pairwise_lines(page) == [] and "to the kitty" in page


# ---------------------------------------------------------------- 2. CSV numbers stay numbers


def read_csv(text: str, delimiter: str = ",") -> list[list[str]]:
    return list(csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=delimiter))


def number(text: str, comma: bool) -> Decimal | None:
    if comma:
        text = text.replace(",", ".")
    try:
        return Decimal(text)
    except ArithmeticError:
        return None


def test_csv_numbers_stay_numbers_and_text_formulas_are_guarded(client, db):
    club_id, ids = make_club(client, db)
    formulas = ["=1+1", "+Bo", "-Carl", "@Dina"]
    for member, name in zip(ids[4:], formulas):
        club_service.rename_member(db, club_id, member, name)
    evening_id, games = evening(db, club_id, ids, "kitty", fee="10")
    data = club_service.evening(db, club_id, evening_id)
    assert any(m.net < 0 for m in data.result.members)
    files = {
        "hands": (f"/g/{games[1]}/hands.csv", False),
        "result": (f"/c/{club_id}/e/{evening_id}/result.csv", False),
        "result;": (f"/c/{club_id}/e/{evening_id}/result.csv?sep=semicolon", True),
        "ledger": (f"/c/{club_id}/ledger.csv", False),
        "ledger;": (f"/c/{club_id}/ledger.csv?sep=semicolon", True),
    }
    seen_negative = set()
    for name, (url, semicolon) in files.items():
        rows = read_csv(client.get(url).get_data(as_text=True), ";" if semicolon else ",")
        for row in rows:
            for cell in row:
                if cell.startswith("'"):  # guarded: only a text that would start a formula, never a number
                    assert cell[1:].startswith(("=", "+", "-", "@")), (name, cell)
                    assert number(cell[1:], semicolon) is None, (name, cell)
                elif (value := number(cell, semicolon)) is not None and value < 0:
                    seen_negative.add(name)
        texts = {cell for row in rows for cell in row}
        assert {"'=1+1", "'-Carl", "'@Dina"} <= texts or name == "hands", (name, texts)
    assert seen_negative == set(files), seen_negative
    # The column a Danish spreadsheet adds up is the evening's money: the nets and the kitty add up to zero.
    rows = read_csv(client.get(files["result;"][0]).get_data(as_text=True), ";")
    net = rows[0].index("net")
    assert sum(number(r[net], True) for r in rows[1:]) == 0
    assert sorted(number(r[net], True) for r in rows[1:-1]) == sorted(Decimal(m.net) / 100 for m in data.result.members)
    ledger = read_csv(client.get(files["ledger;"][0]).get_data(as_text=True), ";")
    column = ledger[0].index("net (DKK)")
    assert sum(number(r[column], True) for r in ledger[1:]) == 0


# ---------------------------------------------------------------- 3. the club's print language


@pytest.mark.needs_program  # pdftotext reads the PDF back
def test_the_evenings_paper_and_spreadsheets_speak_the_clubs_print_language(client, db, tmp_path):
    import openpyxl

    club_id, ids = make_club(client, db, language="da")
    evening_id, _games = evening(db, club_id, ids, "kitty", fee="10")
    base = f"/c/{club_id}/e/{evening_id}"
    english = {"Accept-Language": "en-GB,en;q=0.9"}
    assert "Result" in client.get(f"{base}/result", headers=english).get_data(as_text=True)  # the page: the reader's
    printed = client.get(f"{base}/print", headers=english).get_data(as_text=True)
    assert "Resultat" in printed and "Result of" not in printed and '<html lang="da"' in printed
    text = pdftotext(client.get(f"{base}/evening.pdf", headers=english).data, tmp_path)
    assert "Resultat" in text and "Result of" not in text
    book = openpyxl.load_workbook(io.BytesIO(client.get(f"{base}/result.xlsx", headers=english).data))
    assert book.sheetnames[0] == "Resultat" and book.active["A1"].value == "medlem"
    ledger = openpyxl.load_workbook(io.BytesIO(client.get(f"/c/{club_id}/ledger.xlsx", headers=english).data))
    assert ledger[ledger.sheetnames[0]]["A1"].value == "medlem"
    # An explicit ?lang= still wins, as on a game's sheet.
    assert "Result of" in client.get(f"{base}/print?lang=en").get_data(as_text=True)


# ---------------------------------------------------------------- 4. the card's matrix on paper


@pytest.mark.needs_program  # pdftotext reads the PDF back
def test_table_sheets_and_the_evening_pdf_carry_the_cards_matrix(client, db, tmp_path):
    club_id, ids = make_club(client, db, {"house": CARD})
    hand = {"bidder": 1, "bid": 9, "suffix": "gode", "trump": "clubs", "partner": 3, "tricks": 10}
    evening_id, games = evening(db, club_id, ids, "kitty", hands=(hand,))
    assert service.load(db, games[0]).protokoll.hands[0].points[1] == 8  # 9 gode: 4 + 4 for the overtrick
    sheet = client.get(f"/g/{games[0]}/print").get_data(as_text=True)
    head = sheet[: sheet.index('class="hands"')]
    for suffix in ("gode", "sans", "halve"):  # the card has no factor for them: its columns are its own values
        assert f"{suffix} ×" not in head and f"{suffix}: own values (in the table)" in head
    tariff = sheet[sheet.index('class="tariff"') :]
    rows = dict(re.findall(r"<tr><th>([^<]+)</th>((?:<td[^>]*>[^<]*</td>)+)</tr>", tariff))
    cells = {name: re.findall(r">([^<]*)</td>", tds) for name, tds in rows.items()}
    # A row per bid and column of the card (issue 32's card editor): the columns are plain and vip, sans and halve, gode.
    assert (
        cells["9 gode"][9:11] == ["4", "8"] and cells["10 sans, halve"][10] == "7" and cells["8 plain, vip"][8] == "1"
    )
    assert cells["sol"] == ["3", "3"] and cells["bordlægger"] == ["14", "14"]
    printed = client.get(f"/c/{club_id}/e/{evening_id}/print").get_data(as_text=True)
    assert printed.count('class="tariff"') == 1  # the evening's tables play one card: printed once
    text = " ".join(pdftotext(client.get(f"/c/{club_id}/e/{evening_id}/evening.pdf").data, tmp_path).split())
    assert "Tariff" in text and "9 gode" in text and "10 sans" in text and "bordlægger 14 14" in text


@pytest.mark.needs_program  # pdftotext reads the PDF back
def test_an_evening_whose_card_changed_prints_each_card_with_its_tables(client, db, tmp_path):
    club_id, ids = make_club(client, db, {"house": CARD})
    evening_id = club_service.create_evening(db, club_id, "2026-12-01")
    club_service.add_table(db, club_id, evening_id, ids[:4])
    changed = {**CARD, "levels": {**CARD["levels"], "8": level(6)}}
    club_service.update_club(
        db,
        club_id,
        {"name": "Læderwhist", "currency": "DKK", "variant": "danish", "options": {"rate": "2", "house": changed}},
    )
    club_service.add_table(db, club_id, evening_id, ids[4:])
    printed = client.get(f"/c/{club_id}/e/{evening_id}/print").get_data(as_text=True)
    assert printed.count('class="tariff"') == 2
    assert re.findall(r'<p class="tariff-tables">(?:<b>)?([^<]*)', printed) == [
        "Table 1",
        "Table 2",
    ]  # bold as on the PDF
    text = " ".join(pdftotext(client.get(f"/c/{club_id}/e/{evening_id}/evening.pdf").data, tmp_path).split())
    assert text.count("Tariff") >= 2 and "Table 1" in text and "Table 2" in text


# ---------------------------------------------------------------- 5. Play again after the last half


def again(client, game_id, **extra):
    page = client.get(f"/g/{game_id}").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    return client.post(f"/g/{game_id}/again", data={"csrf_token": csrf, **extra})


@pytest.mark.parametrize("halves", ["1", "2"])
def test_play_again_after_the_evenings_last_half_asks_first(client, db, db_path, halves):
    club_id, ids = make_club(client, db)
    client.post(
        f"/c/{club_id}/format",
        data={"csrf_token": token(client, f"/c/{club_id}/format"), "halves": halves, "deals": "1", "places": "0"},
    )
    evening_id = club_service.create_evening(db, club_id, "2026-12-01")
    game_id, key, _ = club_service.add_table(db, club_id, evening_id, ids[:4])
    play(db, game_id, key, [PLAIN])
    if halves == "2":
        club_service.add_table(db, club_id, evening_id, ids[4:])
        club_service.make_draw(db, club_id, evening_id)
        started = club_service.start_draw(db, club_id, evening_id)
        game_id, key, _ = started[0]
        play(db, game_id, key, [PLAIN])
    assert service.load(db, game_id).protokoll.finished
    client.get(f"/c/{club_id}/k/{club_service.table_of(db, game_id).table.code}")
    before = dump(db_path)
    r = again(client, game_id)
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and "The evening's last half is over" in page
    assert 'id="again-anyway"' in page and f'href="/c/{club_id}/e/{evening_id}/result"' in page
    assert dump(db_path) == before  # nothing started
    tables = len(club_service.evening(db, club_id, evening_id).tables)
    r = again(client, game_id, confirm="1")
    assert r.status_code == 302 and len(club_service.evening(db, club_id, evening_id).tables) == tables + 1


def test_play_again_in_a_half_still_being_played_starts_the_next_table(client, db):
    club_id, ids = make_club(client, db)
    evening_id = club_service.create_evening(db, club_id, "2026-12-01")
    game_id, key, _ = club_service.add_table(db, club_id, evening_id, ids[:4])
    play(db, game_id, key, [PLAIN])  # no deals set: the table is not finished
    client.get(f"/c/{club_id}/k/{club_service.table_of(db, game_id).table.code}")
    assert again(client, game_id).status_code == 302


# ---------------------------------------------------------------- 6. gå med: each sol player's result


@pytest.mark.needs_program  # pdftotext reads the PDF back
def test_a_gaa_med_hand_says_each_sol_players_result(client, db, tmp_path):
    club_id, ids = make_club(client, db, {"house": CARD})
    evening_id = club_service.create_evening(db, club_id, "2026-12-01")
    game_id, key, _ = club_service.add_table(db, club_id, evening_id, ids[:4])
    # Grethe makes her sol (1 trick); Ib plays the same sol with her and loses it (2 tricks).
    play(db, game_id, key, [{"bidder": 1, "bid": "sol", "tricks": 1, "with": [{"seat": 3, "tricks": 2}]}])
    assert list(service.load(db, game_id).protokoll.hands[0].points) == [0, 12, 0, -12]
    made = [{"bidder": 1, "bid": "sol", "tricks": 0, "with": [{"seat": 3, "tricks": 1}]}]
    play(db, game_id, key, made)
    page = client.get(f"/g/{game_id}").get_data(as_text=True)
    row = page[page.index('id="hand-1"') :]
    row = row[: row.index("</tbody>")]
    assert "Grethe sol, 1 trick, made; Ib too, 2 tricks, lost" in row
    assert 'class="outcome made"' not in row and 'class="outcome lost"' not in row  # no one word for the hand
    two = page[page.index('id="hand-2"') :]
    assert "Grethe sol, 0 tricks, made; Ib too, 1 trick, made" in two[: two.index("</tbody>")]
    sheet = client.get(f"/g/{game_id}/print").get_data(as_text=True)
    assert "Grethe sol, 1 trick, made; Ib too, 2 tricks, lost" in sheet
    text = " ".join(pdftotext(client.get(f"/g/{game_id}/sheet.pdf").data, tmp_path).split())
    assert "Grethe sol, 1 trick, made; Ib too, 2 tricks, lost" in text
    client.get("/lang/da")
    assert "Grethe sol, 1 stik, vundet; Ib går med, 2 stik, tabt" in client.get(f"/g/{game_id}").get_data(as_text=True)
