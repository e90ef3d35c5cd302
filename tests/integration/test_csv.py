"""The hands as CSV: read back with the csv module, they are exactly the game's hands and totals."""

import csv
import io

import pytest

from scorekeeper.games.paper import guard
from variants import EXAMPLES


def read_csv(client, game) -> list[dict]:
    r = client.get(game["links"]["csv"])
    assert r.status_code == 200 and r.mimetype == "text/csv"
    assert r.headers["Content-Disposition"] == f'attachment; filename="protokoll-{game["id"]}.csv"'
    return list(csv.DictReader(io.StringIO(r.data.decode("utf-8-sig"))))


def side_names(game):
    return [" & ".join(game["players"][s] for s in side) for side in game["sides"]]


@pytest.mark.parametrize("variant", EXAMPLES)
def test_the_csv_reads_back_to_the_hands_and_totals(client, api, variant):
    example = EXAMPLES[variant]
    options, hands = example.GAME["options"], example.GAME["hands"]
    game = api.create(variant, players=example.GAME.get("players"), options=options)
    for hand in hands:
        api.hand(game, hand)
    game = api.get(game)
    rows = read_csv(client, game)
    sides = side_names(game)
    assert len(rows) == len(game["hands"])
    for row, hand in zip(rows, game["hands"]):
        assert int(row["hand"]) == hand["number"]
        assert row["dealer"] == game["players"][hand["dealer"]]
        assert example.from_csv(row, game) == hand["input"]
        assert [int(row[f"points {s}"]) for s in sides] == hand["points"]
        assert [int(row[f"total {s}"]) for s in sides] == hand["totals"]
    assert [int(rows[-1][f"total {s}"]) for s in sides] == game["totals"]


@pytest.mark.parametrize("variant", EXAMPLES)
def test_the_spreadsheet_writes_no_number_as_text(client, api, variant):
    """hands.xlsx: every cell that reads as a number (a bid, tricks, points, a total) is a number cell."""
    import re

    import openpyxl

    example = EXAMPLES[variant]
    game = api.create(variant, players=example.GAME.get("players"), options=example.GAME["options"])
    for hand in example.GAME["hands"]:
        api.hand(game, hand)
    book = openpyxl.load_workbook(io.BytesIO(client.get(f"/g/{game['id']}/hands.xlsx").data))
    sheet = book[book.sheetnames[0]]
    texts = [
        f"{c.coordinate} ({sheet.cell(1, c.column).value}): {c.value!r}"
        for row in sheet.iter_rows(min_row=2)
        for c in row
        if c.data_type == "s" and re.fullmatch(r"[−+-]?\d[\d.,]*", str(c.value))
    ]
    assert texts == []


def test_a_rubber_has_its_game_column(client, api):
    game = api.create("classic", options={"rubber": True})
    for hand in ({"trump": "hearts", "tricks": [13, 0]}, {"trump": "spades", "tricks": [0, 13]}):
        api.hand(game, hand)
    rows = read_csv(client, api.get(game))
    assert [row["game"] for row in rows] == ["1", "2"]


def test_text_cells_cannot_run_as_formulas_but_negative_numbers_stay_numbers(client, api):
    players = ["=HYPERLINK(1)", "+Bo", "-Carl", "@Dina"]
    game = api.create("danish", players=players)
    api.hand(game, {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 10})
    r = client.get(f"/g/{game['id']}/hands.csv")
    raw = r.data.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(raw)))
    header, first = rows
    assert "points =HYPERLINK(1)" in header and "total -Carl" in header  # harmless after the word
    assert first[1] == "'=HYPERLINK(1)" and first[3] == "'=HYPERLINK(1)" and first[7] == "'-Carl"
    assert first[-8:] == ["60", "-60", "60", "-60", "60", "-60", "60", "-60"]
    for cell in (c for row in rows for c in row):
        assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell
        assert not cell.startswith("-") or cell.lstrip("-").isdigit(), cell


@pytest.mark.parametrize(
    "value, cell",
    [
        ("=1+1", "'=1+1"),
        ("+45", "'+45"),
        ("-Bo", "'-Bo"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("Åsa", "Åsa"),
        ("", ""),
        (-60, -60),
        (0, 0),
        (None, None),
    ],
)
def test_guard(value, cell):
    assert guard(value) == cell


def test_the_club_rule_columns_come_only_with_the_club_rules(client, api):
    """iron_hand and with (gå med) are columns only where the table's rules allow them (headed with the Danish words
    the pages use for them in every language: jernhånd, gå med)."""
    plain = api.create("danish")
    clubby = api.create("danish", options={"iron_hand": True}, preset="sol_join_independent")
    for game in (plain, clubby):
        api.hand(game, {"passed": True})
    header = {
        g["id"]: next(csv.reader(io.StringIO(client.get(f"/g/{g['id']}/hands.csv").data.decode("utf-8-sig"))))
        for g in (plain, clubby)
    }
    assert "jernhånd" not in header[plain["id"]] and "gå med" not in header[plain["id"]]
    assert "jernhånd" in header[clubby["id"]] and "gå med" in header[clubby["id"]]
