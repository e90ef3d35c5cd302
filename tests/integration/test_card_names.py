"""Issue 32: the club's own names for its sol bids and its columns on every page, button and sheet; the table is the
card square by square (no factor it does not have, no row hidden); no shorthand that contradicts the house."""

import re

from helpers import PASSWORD
from scorekeeper.clubs import service as club_service
from scorekeeper.variants.danish import grid
from scorekeeper.variants.danish import house as model
from scorekeeper.variants.danish import rules as danish

PLAYERS = ["Inger", "Grethe", "Poul", "Erik"]
CARD = grid.Grid(
    columns=(
        grid.Column("almindelig, vip (1. kort vendt)", ("plain", "vip")),
        grid.Column("vip (2. kort vendt), sans, halve", ("vip2", "sans", "halve")),
        grid.Column("vip (3. kort vendt), gode", ("vip3", "gode")),
    ),
    levels=(8, 9, 10, 11, 12, 13),
    values={8: (1, 2, 3), 9: (2, 3, 4), 10: (5, 7, 9), 11: (12, 16, 20), 12: (28, 36, 44), 13: (64, 80, 96)},
    made="over",
    lost="per_trick",
)
SOL = {"sol": {"max_tricks": 1, "won": 3, "lost": 3}, "bordlaegger": {"max_tricks": 1, "won": 14, "lost": 14}}
NAMES = grid.names_of(CARD, {"bordlaegger": "stor bordlægger"})


def card_options():
    house = model.merged(danish.build_house({}), grid.house_parts(CARD) | {"sol": SOL, "gaa_med": "independent"})
    return {"house": model.check_house(house), "card_names": NAMES}


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def new_game(client, options):
    r = client.post("/api/games", json={"variant": "danish", "players": PLAYERS, "options": options})
    assert r.status_code == 201, r.json
    return r.json["id"], r.json["edit_key"]


def test_the_clubs_sol_names_are_on_every_page_button_and_sheet(client):
    game, key = new_game(client, card_options())
    client.get(f"/g/{game}/k/{key}")  # this phone may enter hands
    form = client.get(f"/g/{game}/hands/new?lang=da").get_data(as_text=True)
    solo = [
        text_of(x).replace("\u00ad", "").strip()
        for x in re.findall(r'<label for="bid-[^"]*" class="solo">(.*?)</label>', form)
    ]
    assert solo == ["sol", "stor bordlægger"]
    r = client.post(
        f"/api/games/{game}/hands", headers={"X-Edit-Key": key}, json={"bidder": 1, "bid": "bordlaegger", "tricks": 1}
    )
    assert r.status_code == 201 and r.json["points"] == [-14, 42, -14, -14]
    for url in (f"/g/{game}?lang=da", f"/g/{game}/print?lang=da"):
        words = text_of(client.get(url).get_data(as_text=True))
        assert "Grethe stor bordlægger" in words, url
    sheet = client.get(f"/g/{game}/print?lang=da").get_data(as_text=True)
    rows = [
        text_of(h).strip()
        for h in re.findall(r"<tr><th>(.*?)</th>", sheet.split('class="matrix"')[1].split("</table>")[0])
    ]
    assert len(rows) == 6 * 3 and rows[:3] == [f"8 {c.heading}" for c in CARD.columns]  # every square, no row hidden
    tariff = text_of(sheet.split('class="tariff"')[1])
    assert "×" not in tariff and "tæller dobbelt" not in tariff  # no factor the card does not have
    assert "stor bordlægger 14/14" in text_of(sheet)  # the head's rules


def test_no_shorthand_contradicts_the_house(client, db):
    """card.json and game options carried "tariff": [10, 20, 40 …], "lost": "flat", sol 50 … for a card of its own."""
    game, _key = new_game(client, card_options())
    options = client.get(f"/api/games/{game}").json["options"]
    assert not {"tariff", "lost", "solo_values"} & set(options)
    assert options["card_names"] == NAMES
    standard, _key = new_game(client, {"preset": "per_trick"})
    options = client.get(f"/api/games/{standard}").json["options"]
    assert options["tariff"] == [10, 20, 40, 80, 160, 320, 640] and options["lost"] == "per_trick"
    club_id = club_service.create_club(
        db,
        {"name": "Læderwhist", "currency": "DKK", "variant": "danish", "options": card_options(), "password": PASSWORD},
    )
    card = client.get(f"/c/{club_id}/card.json").json
    assert not {"tariff", "lost", "solo_values"} & set(card["options"]) and card["options"]["card_names"] == NAMES


def test_names_are_refused_in_words_naming_the_option(client):
    r = client.post(
        "/api/games", json={"variant": "danish", "players": PLAYERS, "options": {"card_names": {"sol": {"grand": "x"}}}}
    )
    assert r.status_code == 400 and any("card_names" in key for key in r.json["errors"]), r.json
