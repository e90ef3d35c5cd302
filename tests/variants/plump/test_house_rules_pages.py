"""Plump's house rules of issue 36 on the pages: ten players, the twice schedules, the bonus round and minus_made
chosen on the new-game page and a club's card in the players' words (the source as help, never a raw key), refused
by the field with nothing stored, said on the printed protokoll, the blank sheet, the PDF and the spreadsheet."""

import io
import re

import pytest
from openpyxl import load_workbook

from helpers import dump, form_data, post_hand, start, token

TEN = ["Anna", "Bo", "Carl", "Dina", "Erik", "Frida", "Gunnar", "Hanne", "Ida", "Jens"]
KEYS = r"\b(up_down_twice|down_up_twice|bonus_round_zero|minus_made|minus_difference)\b"


def text(r) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.get_data(as_text=True)))


def test_the_new_game_page_offers_them_in_words_with_their_sources(client):
    page = client.get("/new/plump").get_data(as_text=True)
    assert 'name="player9"' in page and 'name="opt_bonus_round_zero"' in page
    shown = text(client.get("/new/plump"))
    for said in (
        "from 1 up to the most and down again, the most twice",
        "from the most down to 1 and up again, 1 twice",
        "minus what the bid would have scored",
        "Points for an exact bid of nothing in the bonus round",
        "Oh Hell scorecard",
        "psalaets",
        "sällskapsspel.com",
    ):
        assert said in shown, said
    visible = re.sub(r'(name|value|id|for)="[^"]*"', "", page)
    assert not re.search(KEYS, visible), re.search(KEYS, visible)


def test_ten_players_play_the_twice_schedule_with_the_bonus_round_from_the_page(client, tmp_path):
    gid = start(client, "plump", TEN, schedule="up_down_twice", max_cards="5", bonus_round_zero="20", miss="minus_made")
    game = client.get(f"/api/games/{gid}").json
    assert game["deal_sizes"] == [1, 2, 3, 4, 5, 5, 4, 3, 2, 1]
    assert game["options"]["bonus_round_zero"] == 20 and game["options"]["miss"] == "minus_made"
    printed = text(client.get(f"/g/{gid}/print"))
    assert "1 2 3 4 5 5 4 3 2 1" in printed
    assert "in the bonus round of 5 cards: 20" in printed and "minus what the bid would have scored" in printed
    blank = text(client.get(f"/g/{gid}/blank"))
    assert "in the bonus round of 5 cards: 20" in blank
    book = load_workbook(io.BytesIO(client.get(f"/g/{gid}/hands.xlsx").data))
    about = [[c.value for c in row] for row in book["Game"].iter_rows()]
    assert "minus what the bid would have scored" in about[1][about[0].index("House rules")]
    form = {f"b{s}": "0" for s in range(10)}
    form.update({f"t{s}": "0" for s in range(10)})
    form.update({"t0": "1"})
    post_hand(client, gid, form)
    hand = client.get(f"/api/games/{gid}").json["hands"][0]
    assert hand["points"] == [-5] + [5] * 9  # a missed 0 costs what it would have scored


@pytest.mark.needs_program
def test_the_pdf_and_the_blank_pdf_say_them(client, tmp_path):
    from helpers import pdftotext

    r = client.post(
        "/api/games",
        json={"variant": "plump", "players": TEN[:3], "options": {"schedule": "down_up_twice", "miss": "minus_made"}},
    )
    pdf = " ".join(pdftotext(client.get(f"/g/{r.json['id']}/sheet.pdf").data, tmp_path).split())
    assert "minus what the bid would have scored" in pdf and "10 9 8 7 6 5 4 3 2 1 1 2" in pdf, pdf[:1500]
    query = "&".join(f"player={p}" for p in TEN) + "&schedule=up_down_twice&bonus_round_zero=25"
    blank = client.get(f"/blank/plump.pdf?{query}&dealer=0")
    assert blank.status_code == 200
    said = " ".join(pdftotext(blank.data, tmp_path).split())
    assert "in the bonus round of 5 cards: 25" in said, said[:1500]


@pytest.mark.parametrize(
    "options, field, said",
    [
        ({"bonus_round_zero": "101"}, "bonus_round_zero", "must be from 0 to 100, not 101"),
        ({"bonus_round_zero": "x"}, "bonus_round_zero", "Enter a whole number"),
    ],
)
def test_a_bad_rule_is_refused_in_words_by_its_field_and_nothing_stored(client, db_path, options, field, said):
    data = {**form_data(client.get("/new/plump").get_data(as_text=True)), "dealer": "0"}
    for i, name in enumerate(TEN[:4]):
        data[f"player{i}"] = name
    data.update({f"opt_{k}": v for k, v in options.items()})
    before = dump(db_path)
    html = client.post("/new/plump", data=data).get_data(as_text=True)
    box = re.search(rf'id="o-{field}".*?<p class="error" role="alert">([^<]+)</p>', html, re.S)
    assert box and said in box.group(1), html[:3000]
    assert dump(db_path) == before


def test_a_club_card_chooses_them(client, db):
    from scorekeeper.clubs import service as club_service

    page = client.get("/clubs/new?variant=plump").get_data(as_text=True)
    assert 'name="opt_bonus_round_zero"' in page and "minus what the bid would have scored" in page
    form = {
        "csrf_token": token(client, "/clubs/new?variant=plump"),
        "name": "Plumpklubben",
        "currency": "DKK",
        "preset": "own",
        "opt_schedule": "down_up_twice",
        "opt_max_cards": "",
        "opt_hook": "y",
        "opt_bonus": "10",
        "opt_zero_bid": "10",
        "opt_bonus_round_zero": "20",
        "opt_miss": "minus_made",
        "opt_lead": "left_of_dealer",
        "password": "long enough",
        "password2": "long enough",
    }
    r = client.post("/clubs/new?variant=plump", data=form)
    assert r.status_code == 302, text(r)[:3000]
    club = club_service.get_club(db, r.location.rsplit("/", 1)[-1])
    assert club.options["schedule"] == "down_up_twice" and club.options["bonus_round_zero"] == 20
    assert club.options["miss"] == "minus_made"
    card = text(client.get(r.location))
    assert "minus what the bid would have scored" in card, card[:3000]
