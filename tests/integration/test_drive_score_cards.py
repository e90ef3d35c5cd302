"""Issue 33 M6: a drive's score cards (the PDF) read and written on at the table, measured with pdfplumber: no text
under 8 pt, rows at least 6 mm high for a pencilled total, no third of a card left empty, hearts and diamonds red,
and the hands a player plays with a dummy at the table marked. Four A6 cards to a sheet while the hands fit at 6 mm
a row, else three to a landscape sheet, else two to a sheet (half its width, its whole height)."""

import io

import pytest

MM = 72 / 25.4
LADIES = [f"Lady {n}" for n in "ABCDEFGH"]
GENTS = [f"Gent {n}" for n in "ABCDEFG"]  # 15 people at 4 tables: one plays with a dummy


def drive_with(client, hands: int, played: int = 3) -> dict:
    r = client.post(
        "/api/drives",
        json={"format": "progressive", "ladies": LADIES, "gents": GENTS, "hands": hands, "interval_after": hands // 2},
    )
    assert r.status_code == 201, r.json
    drive = r.json
    for hand in range(1, played + 1):
        seated = client.get(f"/api/drives/{drive['id']}").json["rounds"][hand - 1]["tables"]
        for t in seated:
            if t.get("plays") == "out":
                continue
            first = (hand + 2 * t["table"]) % 14
            r = client.post(
                f"/api/drives/{drive['id']}/hands/{hand}/tables/{t['table']}",
                json={"tricks": [first, 13 - first]},
                headers={"X-Edit-Key": drive["edit_key"]},
            )
            assert r.status_code == 201, r.json
    return client.get(f"/api/drives/{drive['id']}").json


# hands → cards a sheet, a card's width and height in mm
FORMATS = {12: (4, 105, 148.5), 20: (3, 99, 210), 24: (3, 99, 210), 30: (2, 105, 297)}


@pytest.mark.parametrize("hands", sorted(FORMATS))
def test_score_cards_are_read_and_written_on(client, hands):
    import pdfplumber

    drive = drive_with(client, hands)
    r = client.get(f"/d/{drive['id']}/scorecards.pdf")
    assert r.status_code == 200
    per_sheet, width, height = FORMATS[hands]
    card_w, card_h = width * MM, height * MM
    with pdfplumber.open(io.BytesIO(r.data)) as pdf:
        assert len(pdf.pages) == -(-15 // per_sheet)
        page = pdf.pages[0]
        assert (page.width > page.height) == (per_sheet == 3)
        chars = [c for c in page.chars if c["text"].strip()]
        assert min(c["size"] for c in chars) >= 7.95, sorted({round(c["size"], 1) for c in chars})  # was 6.5 pt
        first = [c for c in chars if c["x1"] <= card_w and c["bottom"] <= card_h]
        # the rows of the first card's grid: header, then one a hand, each at least 6 mm (was 3.6 mm)
        rules = sorted(
            {
                round(e["top"], 1)
                for e in page.horizontal_edges
                if e["x1"] <= card_w and e["bottom"] <= card_h and e["width"] > 40 * MM
            }
        )
        rows = [b - a for a, b in zip(rules, rules[1:])]
        assert len(rows) == hands + 1, rows
        assert min(rows[1:]) >= 6 * MM - 0.05, [round(h / MM, 2) for h in rows]
        # no third of the card empty: its words reach past two thirds of its height (a third was empty at 20 hands)
        assert max(c["bottom"] for c in first) >= card_h * 2 / 3, max(c["bottom"] for c in first) / card_h
        assert "Final:" in page.crop((0, 0, card_w, card_h)).extract_text()  # and nothing runs off the card
        # hearts and diamonds in red, spades and clubs in black
        suits = {}
        for c in first:
            if c["text"] in "♠♥♦♣":
                suits.setdefault(c["text"], set()).add(tuple(round(v, 2) for v in c["non_stroking_color"]))
        assert set(suits) == set("♠♥♦♣"), suits
        for suit, colours in suits.items():
            red = all(len(v) == 3 and v[0] > 0.5 and v[1] < 0.3 and v[2] < 0.3 for v in colours)
            assert red == (suit in "♥♦"), (suit, colours)
        text = "\n".join(p.extract_text() for p in pdf.pages)
    # the hands played at a table with a dummy are marked on the cards of the three who play there
    dummies = sum(3 for r in drive["rounds"] for t in r["tables"] if t.get("plays") == "dummy")
    assert dummies and text.count("dummy") == dummies, (dummies, text.count("dummy"))


@pytest.mark.parametrize("hands", sorted(FORMATS))
def test_the_print_page_lays_the_score_cards_out_as_the_pdf_does(client, hands):
    """The print page (a browser's print-out) takes the PDF's format: its sheets hold as many cards as the PDF's, by
    drives-print.css's class of that format (it said four A6 to a sheet for every drive)."""
    import re
    from pathlib import Path

    drive = drive_with(client, hands)
    page = client.get(f"/d/{drive['id']}/scorecards").get_data(as_text=True)
    per_sheet = FORMATS[hands][0]
    css = {4: "sheet4", 3: "sheet3", 2: "sheet2tall"}[per_sheet]
    assert page.count(f'class="{css}"') == -(-15 // per_sheet)
    styles = (Path(__file__).parents[2] / "scorekeeper/static/drives-print.css").read_text()
    assert re.search(rf"\.{css} td \{{ width: {FORMATS[hands][1]}mm; height: {FORMATS[hands][2]:g}mm", styles) or (
        per_sheet == 4 and ".sheet4 td { width: 105mm; height: 148mm; }" in styles
    )


# hands → blank cards a sheet, a card's height in mm
BLANK = {12: (2, 148.5), 17: (2, 148.5), 24: (1, 297), 30: (1, 297)}


@pytest.mark.parametrize("hands", sorted(BLANK))
def test_blank_cards_are_written_on_in_pencil(client, hands):
    """The blank cards a drive kept on paper is written on (issue 33, M6 for the paper cards too): no type under
    8 pt (was 7), rows at least 6 mm (were 3.9); two A5 to a sheet while the hands fit so, else one A4 a card."""
    import pdfplumber

    per_sheet, height = BLANK[hands]
    r = client.get(f"/drives/blank.pdf?hands={hands}")
    assert r.status_code == 200
    with pdfplumber.open(io.BytesIO(r.data)) as pdf:
        assert len(pdf.pages) == 2 // per_sheet  # the page's two cards
        page = pdf.pages[0]
        chars = [c for c in page.chars if c["text"].strip()]
        assert min(c["size"] for c in chars) >= 7.95, sorted({round(c["size"], 1) for c in chars})
        rules = sorted(
            {round(e["top"], 1) for e in page.horizontal_edges if e["bottom"] <= height * MM and e["width"] > 100 * MM}
        )
        rows = [b - a for a, b in zip(rules, rules[1:])]
        assert len(rows) >= hands + 1, rows
        assert min(rows[-hands:]) >= 6 * MM - 0.05, [round(h / MM, 2) for h in rows]
        assert "Final" in page.crop((0, 0, page.width, height * MM)).extract_text()  # nothing runs off the card
    html = client.get(f"/drives/blank?hands={hands}").get_data(as_text=True)
    assert html.count(f'class="{"sheet2" if per_sheet == 2 else "sheet1"}"') == 2 // per_sheet
