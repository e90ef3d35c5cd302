"""Exact points through the API and the pages (RULES.md "Exact points", API.md "Points that are not whole"; issues 32
and 36): the club's quarter-point card typed as printed, scored exactly, written "p/q" by the API, shown ¾ and 2½ on
the protokoll, the print sheet and the PDF, exact decimals in CSV and .xlsx, and the money to the øre."""

import csv
import io
import re
from decimal import Decimal
from fractions import Fraction

import pytest
from openpyxl import load_workbook

from helpers import page_words, pdftotext, post_hand, start
from variants.danish import QUARTER_BALANCES, QUARTER_CARD, QUARTER_HANDS, QUARTER_PLAYERS, QUARTER_TOTALS


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def quarter_game(api, **house):
    game = api.create("danish", players=QUARTER_PLAYERS, options={"house": QUARTER_CARD | house, "rate": 0.05})
    for inp, _points in QUARTER_HANDS:
        api.hand(game, inp)
    return api.get(game) | {"edit_key": game["edit_key"]}


def written(text):
    return [int(x) if "/" not in x else x for x in text.split()]


# ---------------------------------------------------------------- the API


def test_the_worked_example_through_the_api(client, api):
    game = quarter_game(api)
    assert [h["points"] for h in game["hands"]] == [written(points) for _inp, points in QUARTER_HANDS]
    assert game["totals"] == QUARTER_TOTALS
    assert game["hands"][-1]["totals"] == QUARTER_TOTALS
    assert game["options"]["house"]["rounding"] == "none"
    assert game["options"]["house"]["selvmakker"]["rounding"] == "none"
    assert game["options"]["house"]["overrides"]["8/sans"]["made"] == "5/4"  # "1 1/4" kept in lowest terms
    assert game["options"]["house"]["sol"]["sol"]["won"] == "5/2"
    settlement = client.get(f"/api/games/{game['id']}/settlement").json
    assert settlement["balances"] == QUARTER_BALANCES
    paid = {i: Decimal(0) for i in range(5)}
    for p in settlement["payments"]:
        paid[p["from"]] -= Decimal(p["amount"])
        paid[p["to"]] += Decimal(p["amount"])
    assert [paid[i] for i in range(5)] == [Decimal(b) for b in QUARTER_BALANCES]  # the payments add up exactly


def test_the_totals_are_the_exact_sums_of_the_points(api):
    game = quarter_game(api)
    sums = [sum(Fraction(h["points"][i]) for h in game["hands"]) for i in range(5)]
    assert [Fraction(t) for t in game["totals"]] == sums
    assert all(isinstance(t, int) or re.fullmatch(r"-?[0-9]+/[0-9]+", t) for t in game["totals"])


def test_whole_points_stay_json_integers_in_an_exact_game(api):
    game = quarter_game(api)
    assert game["hands"][2]["points"] == [0, 0, 0, 0, 0]  # the passed-out deal
    assert game["totals"][4] == -14


def test_the_default_rounding_still_rounds(api):
    game = quarter_game(api, rounding="half_away")
    assert game["hands"][0]["points"] == [0, 2, -2, 2, -2]
    assert game["hands"][1]["points"] == [-3, 0, 9, -3, -3]


@pytest.mark.parametrize("value", ["0,75", "¾", "1¼", "1 5/4", "1/0"])
def test_the_paper_forms_are_a_400_over_json_naming_the_path(client, value):
    house = {"levels": {"8": {"made": value, "over": 1, "lost": 1}}}
    r = client.post("/api/games", json={"variant": "danish", "players": QUARTER_PLAYERS, "options": {"house": house}})
    assert r.status_code == 400
    assert list(r.json["errors"]) == ["options.house.levels.8.made"]


@pytest.mark.parametrize("value, kept", [("3/4", "3/4"), ("1 1/4", "5/4"), ("0.75", "3/4"), (0.75, "3/4"), ("3", 3)])
def test_the_ascii_forms_are_read_over_json(client, value, kept):
    house = {"levels": {"8": {"made": value, "over": 1, "lost": 1}}}
    r = client.post("/api/games", json={"variant": "danish", "players": QUARTER_PLAYERS, "options": {"house": house}})
    assert r.status_code == 201, r.json
    assert r.json["options"]["house"]["levels"]["8"]["made"] == kept


# ---------------------------------------------------------------- the pages, the sheet, the PDF, CSV and .xlsx


@pytest.mark.needs_program  # pdftotext reads the PDF back
def test_the_protokoll_the_sheet_and_the_pdf_show_the_points_as_a_card_prints_them(client, api, tmp_path):
    game = quarter_game(api)
    page = client.get(f"/g/{game['id']}?lang=da").get_data(as_text=True)
    words = page_words(page)
    for shown in ("+1½", "−1½", "+7½", "−2½", "+15¾", "−5¼", "−10¾", "23¼", "24¾", "−23¼"):
        assert shown in words, shown
    assert "3/4" not in text_of(page) and "43/4" not in text_of(page)
    for url in (f"/g/{game['id']}/print?lang=da",):
        sheet = page_words(client.get(url).get_data(as_text=True))
        assert "+15¾" in sheet and "−10¾" in sheet and "24¾" in sheet
    pdf = pdftotext(client.get(f"/g/{game['id']}/sheet.pdf?lang=da").data, tmp_path)
    for shown in ("+15¾", "−10¾", "24¾", "+7½"):
        assert shown in pdf.split(), shown
    # the money: each balance rounded once, to the øre
    assert "1,24" in text_of(page) and "−0,54" in text_of(page)


def test_the_card_of_the_sheet_says_the_same_value_for_a_made_bid_and_its_overtrick(client, api):
    """Issue 32: the card page said "8 vundet: 1" and "hvert overstik 8: 0,75"."""
    game = quarter_game(api)
    sheet = client.get(f"/g/{game['id']}/print?lang=da").get_data(as_text=True)
    rules = text_of(re.search(r'<dl class="rules"[^>]*>(.*?)</dl>', sheet, re.S).group(1))
    assert "8: ¾" in rules and "0,75" not in rules and "8: 1," not in rules
    assert "sol 2½/2½" in rules
    matrix = re.search(r'<table class="matrix">.*?<tbody>(.*?)</tbody>', sheet, re.S).group(1)
    row = next(
        r for r in re.findall(r"<tr>(.*?)</tr>", matrix, re.S) if re.search(r"<th[^>]*>\s*8 ", r)
    )  # the first row of bid 8: its plain column
    cells = [text_of(c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
    assert cells[7:11] == ["−¾", "¾", "1½", "2¼"]


def test_csv_and_xlsx_carry_exact_decimals_as_numbers(client, api):
    game = quarter_game(api)
    rows = list(csv.reader(io.StringIO(client.get(f"/g/{game['id']}/hands.csv").data.decode("utf-8-sig"))))
    header, fifth = rows[0], rows[5]
    first_points = header.index("points Anna")
    assert fifth[first_points : first_points + 5] == ["15.75", "-5.25", "-5.25", "-5.25", "0"]  # never '-5.25
    assert rows[-1][header.index("total Anna") :] == ["-10.75", "23.25", "24.75", "-23.25", "-14"]
    book = load_workbook(io.BytesIO(client.get(f"/g/{game['id']}/hands.xlsx").data))
    sheet = book.worksheets[0]
    values = [c.value for c in sheet[sheet.max_row]][-5:]
    assert values == [Decimal("-10.75"), Decimal("23.25"), Decimal("24.75"), Decimal("-23.25"), -14] or values == [
        -10.75,
        23.25,
        24.75,
        -23.25,
        -14,
    ]
    assert all(c.data_type == "n" for c in sheet[sheet.max_row][-5:])


# ---------------------------------------------------------------- typed as printed, on the new-game page


def test_the_card_typed_as_printed_scores_quarter_points(client, api):
    """Issue 32: "1 1/4" was read as 11/4; "¾" and "1¼" were refused. Typed in the card's squares as a card prints
    them: made = the value and the value per trick over, lost = the value per missing trick."""
    game_id = start(
        client,
        "danish",
        QUARTER_PLAYERS[:4],
        rate="0,05",
        **{
            "card.made": "over",
            "card.lost": "per_trick",
            "card.per_trick": "column",
            "card.cell.8.0": "¾",
            "card.cell.9.0": "1 1/4",
            "card.cell.10.0": "1¼",
            "card.sol.sol.won": "2½",
            "card.sol.sol.lost": "2 1/2",
            "card.rounding": "none",
            "card.selvmakker.rounding": "none",
        },
    )
    game = client.get(f"/api/games/{game_id}").json
    house = game["options"]["house"]
    assert house["levels"]["8"] == {"made": "3/4", "over": "3/4", "lost": 0, "short": "3/4"}
    assert house["levels"]["9"]["made"] == house["levels"]["10"]["made"] == "5/4"  # never 11/4
    assert house["sol"]["sol"]["won"] == "5/2" and house["rounding"] == "none"
    post_hand(client, game_id, {"bidder": "0", "bid": "8", "trump": "spades", "partner": "2", "tricks": "9"})
    post_hand(client, game_id, {"bidder": "1", "bid": "sol", "tricks": "1"})
    game = client.get(f"/api/games/{game_id}").json
    assert [h["points"] for h in game["hands"]] == [["3/2", "-3/2", "3/2", "-3/2"], ["-5/2", "15/2", "-5/2", "-5/2"]]
    page = client.get(f"/g/{game_id}?lang=da").get_data(as_text=True)
    assert "+1½" in page_words(page) and "+7½" in page_words(page)


@pytest.mark.parametrize("typed", ["1 5/4", "¾¾", "1,2,3"])
def test_a_number_that_is_none_is_refused_beside_its_field(client, typed):
    from helpers import form_data

    data = form_data(client.get("/new/danish").get_data(as_text=True))
    data |= {"dealer": "0", "card.cell.8.0": typed}
    data |= {f"player{i}": name for i, name in enumerate(QUARTER_PLAYERS[:4])}
    r = client.post("/new/danish?lang=da", data=data)
    assert r.status_code == 400
    page = r.get_data(as_text=True)
    assert re.search(r'id="card-cell-8-0-error" role="alert">(skal være et tal fra 0 til|brøken i et blandet)', page)


# ---------------------------------------------------------------- a club's evening with the card, settled to the øre


@pytest.fixture
def quarter_club(client, db):
    """A club with the quarter-point card, ten members, an evening through the kitty with two tables of five: the
    worked example at the first, its first four hands at the second."""
    from helpers import log_in
    from scorekeeper.clubs import service as club_service
    from scorekeeper.games import service

    club_id = club_service.create_club(
        db,
        {
            "name": "Læderwhist",
            "currency": "DKK",
            "variant": "danish",
            "options": {"rate": "0.05", "house": QUARTER_CARD},
            "password": PASSWORD,
        },
    )
    names = QUARTER_PLAYERS + ["Finn", "Gro", "Hans", "Ida", "Jens"]
    ids = [club_service.add_member(db, club_id, name) for name in names]
    evening_id = club_service.create_evening(db, club_id, "2026-03-05", "0", "kitty")
    for members, hands in ((ids[:5], QUARTER_HANDS), (ids[5:], QUARTER_HANDS[:4])):
        game_id, key, _number = club_service.add_table(db, club_id, evening_id, members, 0, "danish")
        for inp, _points in hands:
            service.add_hand(db, game_id, inp, key)
    assert log_in(client, club_id).status_code == 302
    return {"club": club_id, "evening": evening_id, "names": names}


PASSWORD = "kløver-es-42"
# The second table's four hands: [0, 1½, −1½, 1½, −1½] + [−2½, 0, 7½, −2½, −2½] + 0 + [−3, 3, 3, 0, −3].
SECOND_TABLE = ["-11/2", "9/2", "9", "-1", "-7"]


def test_the_evening_settles_every_member_once_to_the_ore(client, quarter_club):
    from scorekeeper.core.settlement import to_cents

    club_id, evening_id, names = quarter_club["club"], quarter_club["evening"], quarter_club["names"]
    points = [Fraction(x) for x in QUARTER_TOTALS] + [Fraction(x) for x in SECOND_TABLE]
    cents = to_cents(points, "0.05")
    assert sum(cents) == 0 and list(cents[:5]) == [-54, 116, 124, -116, -70]
    page = client.get(f"/c/{club_id}/e/{evening_id}/result?lang=da").get_data(as_text=True)
    words = text_of(page)
    for name, p in zip(names, points):
        assert re.search(rf"{name}\b.*?{re.escape(minus_text(p))}", words), (name, minus_text(p))
    assert "Carl +1,24" in words and "Anna −0,54" in words and "Dina −1,16" in words
    rows = list(csv.reader(io.StringIO(client.get(f"/c/{club_id}/e/{evening_id}/result.csv").data.decode("utf-8-sig"))))
    header = rows[0]
    by_name = {row[0]: row for row in rows[1:]}
    assert by_name["Carl"][header.index("points")] == "24.75"
    assert by_name["Anna"][header.index("points")] == "-10.75"  # a number, never the text '-10.75
    assert by_name["Carl"][header.index("net")] == "1.24" and by_name["Anna"][header.index("net")] == "-0.54"
    book = load_workbook(io.BytesIO(client.get(f"/c/{club_id}/e/{evening_id}/result.xlsx").data))
    sheet = book.worksheets[0]
    column = [c.value for c in sheet[1]].index("points")
    anna = next(row for row in sheet.iter_rows(min_row=2) if row[0].value == "Anna")
    assert anna[column].data_type == "n" and Decimal(str(anna[column].value)) == Decimal("-10.75")


def minus_text(value: Fraction) -> str:
    from scorekeeper.web.i18n import point

    return point(value)


def test_the_clubs_card_shows_the_quarter_points(client, quarter_club):
    page = client.get(f"/c/{quarter_club['club']}/card?lang=da").get_data(as_text=True)
    words = text_of(page)
    assert "8: ¾" in words and "0,75" not in words
    assert "sol 2½/2½" in words
    from scorekeeper.clubs.present import matrix_context

    with client.application.test_request_context("/?lang=da"):
        matrix = matrix_context("danish", {"house": QUARTER_CARD})  # the club settings' matrix
    assert [c["text"] for c in matrix["rows"][0]["cells"][7:11]] == ["−¾", "¾", "1½", "2¼"]
    assert (matrix["sol"][0]["made"], matrix["sol"][0]["lost"]) == ("2½", "2½")


def test_the_season_pages_add_up_exact_points(client, quarter_club):
    club_id = quarter_club["club"]
    stats = client.get(f"/c/{club_id}/stats?lang=da")
    assert stats.status_code == 200
    assert "−10,8" in text_of(stats.get_data(as_text=True))  # Anna: −10¾ in one evening, to one decimal
    ledger = client.get(f"/c/{club_id}/ledger?lang=da")
    assert ledger.status_code == 200 and "−10¾" in text_of(ledger.get_data(as_text=True))
    rows = list(csv.reader(io.StringIO(client.get(f"/c/{club_id}/ledger.csv").data.decode("utf-8-sig"))))
    anna = next(row for row in rows if row[0] == "Anna")
    assert anna[rows[0].index("points")] == "-10.75"


def test_a_card_with_fractions_that_rounds_says_how(client, api):
    """The card said "8 vundet: 1" beside "hvert overstik 8: 0,75" without a word on rounding: now the overtrick is
    ¾ as printed and the rounding is said."""
    game = quarter_game(api, rounding="half_away")
    sheet = client.get(f"/g/{game['id']}/print?lang=da").get_data(as_text=True)
    rules = text_of(re.search(r'<dl class="rules"[^>]*>(.*?)</dl>', sheet, re.S).group(1))
    assert "Afrunding til nærmeste; en halv væk fra nul" in rules
    assert "0,75" not in rules


def test_a_card_without_rounding_keeps_the_selvmakker_share_exact_too(client):
    """The card's "ingen afrunding" chosen once: the selvmakker field, shown "as the points round", follows it (it kept
    rounding to the nearest, and a selvmakker's ¾ became 1)."""
    game_id = start(client, "danish", QUARTER_PLAYERS[:4], **{"card.rounding": "none"})
    house = client.get(f"/api/games/{game_id}").json["options"]["house"]
    assert house["rounding"] == "none" and house["selvmakker"]["rounding"] == "none"
    page = client.get("/new/danish").get_data(as_text=True)
    assert re.search(r'<select name="card\.selvmakker\.rounding"[^>]*><option value="" selected>', page)


def test_the_cards_squares_take_a_fraction_on_a_phones_keyboard(client):
    """A decimal keypad has no "/" and no space: "1 1/4" could not be typed in a square on a phone."""
    page = client.get("/new/danish").get_data(as_text=True)
    square = re.search(r'<input[^>]*name="card\.cell\.8\.0"[^>]*>', page).group(0)
    assert 'inputmode="decimal"' not in square
