"""Solo whist's house rules of issue 36 on the pages: chosen on the new-game page and a club's card in the players'
words (the book as help, never a raw key), refused by the field in words with nothing stored, and said on the
printed protokoll, the blank sheet, the PDF and the spreadsheet."""

import io
import re

import pytest
from openpyxl import load_workbook

from helpers import dump, start, token

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]
KEYS = r"\b(prop_slam|prop_undertricks|first_free|royal_abundance)\b|>(single|double|all)<"


def text(r) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.get_data(as_text=True)))


def test_the_new_game_page_in_words(client):
    page = client.get("/new/solo").get_data(as_text=True)
    for name in ("opt_undertricks", "opt_prop_slam", "opt_prop_undertricks"):
        assert f'name="{name}"' in page
    for name in ("opt_overtricks", "opt_undertricks", "opt_values"):  # "1, 3, 3, 3": a phone's keyboard with a comma
        assert re.search(rf'inputmode="text" name="{name}"', page), name
    shown = text(client.get("/new/solo"))
    assert "overtricks paid double" in shown and "the first undertrick free" in shown
    assert "Hoyle's Games Modernized" in shown and "German Wikipedia" in shown and "Culbertson" in shown
    visible = re.sub(r'(name|value|id|for)="[^"]*"', "", page)
    assert not re.search(KEYS, visible), re.search(KEYS, visible)


def test_a_game_with_every_new_rule_from_the_page_scores_and_says_them(client, tmp_path):
    gid = start(
        client,
        "solo",
        PLAYERS,
        values="6, 6, 12, 18, 18, 24, 36",
        overtricks="1, 3, 3, 3",
        undertricks="1",
        prop_slam="double",
        prop_undertricks="first_free",
    )
    game = client.get(f"/api/games/{gid}").json
    assert game["options"]["overtricks"] == {"prop": 1, "solo": 3, "abundance": 3, "royal_abundance": 3}
    assert game["options"]["undertricks"] == 1
    assert game["options"]["prop_slam"] == "double" and game["options"]["prop_undertricks"] == "first_free"
    printed = text(client.get(f"/g/{gid}/print"))
    for said in (
        "Overtricks prop and cop 1, solo 3, abundance 3, royal abundance 3",
        "Undertricks 1 a trick",
        "Prop and cop taking all thirteen overtricks paid double",
        "Prop and cop lost the first undertrick free",
    ):
        assert said in printed, printed[:2000]
    blank = text(client.get(f"/g/{gid}/blank"))
    assert "overtricks paid double" in blank and "the first undertrick free" in blank
    book = load_workbook(io.BytesIO(client.get(f"/g/{gid}/hands.xlsx").data))
    about = [[c.value for c in row] for row in book["Game"].iter_rows()]
    assert "House rules" in about[0]
    assert "overtricks paid double" in about[1][about[0].index("House rules")]


@pytest.mark.needs_program
def test_the_pdf_says_them(client, api, tmp_path):
    from helpers import pdftotext

    game = api.create("solo", players=PLAYERS, options={"overtricks": {"solo": 3}, "prop_slam": "double"})
    pdf = " ".join(pdftotext(client.get(f"/g/{game['id']}/sheet.pdf").data, tmp_path).split())
    assert "overtricks paid double" in pdf and "solo 3" in pdf, pdf[:1500]


@pytest.mark.parametrize(
    "options, field, said",
    [
        ({"overtricks": "1, 2"}, "opt_overtricks", "Enter one number, or 4 separated by commas."),
        ({"overtricks": "101"}, "opt_overtricks", "must be from 0 to 100, not 101"),
        ({"undertricks": "1, 2, 3, 200"}, "opt_undertricks", "royal abundance must be a whole number from 0 to 100"),
        (
            {"undertricks": "x"},
            "opt_undertricks",
            "must be a whole number from 0 to 100, or one for each of prop and cop",
        ),
    ],
)
def test_a_bad_rule_is_refused_in_words_by_its_field_and_nothing_stored(client, db_path, options, field, said):
    page = client.get("/new/solo")
    from helpers import form_data

    data = {**form_data(page.get_data(as_text=True)), "dealer": "0"}
    for i, name in enumerate(PLAYERS):
        data[f"player{i}"] = name
    data.update({f"opt_{k}": v for k, v in options.items()})
    before = dump(db_path)
    r = client.post("/new/solo", data=data)
    assert r.status_code == 400 or r.status_code == 200
    html = r.get_data(as_text=True)
    box = re.search(rf'id="o-{field[4:]}".*?<p class="error" role="alert">([^<]+)</p>', html, re.S)
    assert box and said in box.group(1).replace("&#39;", "'"), html[:3000]
    assert dump(db_path) == before


def test_the_api_refuses_a_mapping_key_naming_options(client, db_path):
    before = dump(db_path)
    r = client.post(
        "/api/games", json={"variant": "solo", "players": PLAYERS, "options": {"overtricks": {"misere": 1}}}
    )
    assert r.status_code == 400 and "options.overtricks" in r.json["errors"]
    assert "misere" in r.json["errors"]["options.overtricks"]  # the API spells its codes
    assert dump(db_path) == before


def test_a_club_card_chooses_them(client, db):
    from scorekeeper.clubs import service as club_service

    page = client.get("/clubs/new?variant=solo").get_data(as_text=True)
    assert 'name="opt_prop_slam"' in page and "overtricks paid double" in page
    form = {
        "csrf_token": token(client, "/clubs/new?variant=solo"),
        "name": "Soloklubben",
        "currency": "SEK",
        "preset": "own",
        "opt_values": "1, 1, 2, 3, 3, 4, 6",
        "opt_overtricks": "1, 1, 2, 2",
        "opt_undertricks": "1",
        "opt_prop_slam": "double",
        "opt_prop_undertricks": "first_free",
        "opt_deals": "",
        "password": "long enough",
        "password2": "long enough",
    }
    r = client.post("/clubs/new?variant=solo", data=form)
    assert r.status_code == 302, text(r)[:2000]
    club = club_service.get_club(db, r.location.rsplit("/", 1)[-1])
    assert club.options["overtricks"] == {"prop": 1, "solo": 1, "abundance": 2, "royal_abundance": 2}
    assert club.options["undertricks"] == 1 and club.options["prop_undertricks"] == "first_free"
    card = text(client.get(r.location))
    assert "the first undertrick free" in card, card[:3000]
