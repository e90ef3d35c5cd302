"""Markup in a name never becomes markup: refused at the door, and escaped everywhere should one get in anyway.

The names below are written straight into the database (as an old file or a hand-edited backup might
hold them), bypassing the checks that refuse < and >, and every page, the PDF and the CSV must show
them as text.
"""

import csv
import io
import json
import sqlite3
import subprocess

import pytest

from helpers import PLAYERS

EVIL = '<script>alert("x")</script>'
FORMULA = '=HYPERLINK("http://evil.example")'


@pytest.fixture
def game(client, db_path):
    g = client.post("/api/games", json={"variant": "danish", "players": PLAYERS["danish"], "title": "Fredag"}).json
    client.post(
        f"/api/games/{g['id']}/hands",
        headers={"X-Edit-Key": g["edit_key"]},
        json={"bidder": 0, "bid": 8, "trump": "spades", "partner": 1, "tricks": 9},
    )
    conn = sqlite3.connect(db_path)
    conn.execute(
        "UPDATE games SET players = ?, title = ? WHERE id = ?",
        [json.dumps([EVIL, FORMULA, "Carl", "Dina"]), EVIL, g["id"]],
    )
    conn.commit()
    conn.close()
    client.get(g["edit_page"])  # this client may edit
    return g


def test_markup_names_are_refused_at_the_door(client):
    r = client.post("/api/games", json={"variant": "german", "players": [EVIL, "Bo"]})
    assert r.status_code == 400 and "players" in r.json["errors"]


@pytest.mark.parametrize(
    "path",
    [
        "/g/{id}",
        "/g/{id}/hands/new",
        "/g/{id}/hands/1",
        "/g/{id}/hands/1/delete",
        "/g/{id}/print",
        "/g/{id}/blank",
        "/",
    ],
)
def test_every_game_page_escapes_names(client, game, path):
    r = client.get(path.format(id=game["id"]))
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html


@pytest.mark.needs_program
def test_the_pdf_prints_the_name_as_text(client, game, tmp_path):
    path = tmp_path / "sheet.pdf"
    path.write_bytes(client.get(f"/g/{game['id']}/sheet.pdf").data)
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    assert EVIL in text


def test_the_csv_guards_formulas_and_keeps_names_as_text(client, game):
    body = client.get(f"/g/{game['id']}/hands.csv").get_data(as_text=True).lstrip("\ufeff")
    cells = [c for row in csv.reader(io.StringIO(body)) for c in row]
    assert not any(c.startswith(("=", "+", "@")) for c in cells)
    assert any(c.startswith("'=HYPERLINK") for c in cells)


def test_the_json_keeps_the_name_as_data(client, game):
    assert client.get(f"/api/games/{game['id']}").json["players"][0] == EVIL


def test_club_pages_escape_member_and_club_names(client, season, db_path):
    conn = sqlite3.connect(db_path)
    conn.execute("UPDATE clubs SET name = ? WHERE id = ?", [EVIL, season["club"]])
    conn.execute("UPDATE club_members SET name = ? WHERE id = ?", [EVIL, season["ids"]["Anna"]])
    conn.execute("UPDATE club_members SET name = ? WHERE id = ?", [FORMULA, season["ids"]["Carl"]])
    conn.commit()
    conn.close()
    club, evening = season["club"], season["evenings"][0]
    for path in (
        f"/c/{club}",
        f"/c/{club}/e/{evening}",
        f"/c/{club}/e/{evening}/result",
        f"/c/{club}/ledger",
        f"/c/{club}/stats",
    ):
        html = client.get(path).get_data(as_text=True)
        assert "<script>alert" not in html, path
        assert "&lt;script&gt;" in html, path
    for path in (f"/c/{club}/e/{evening}/result.csv", f"/c/{club}/ledger.csv"):
        body = client.get(path).get_data(as_text=True).lstrip("\ufeff")
        cells = [c for row in csv.reader(io.StringIO(body)) for c in row]
        assert not any(c.startswith(("=", "@")) for c in cells), path
