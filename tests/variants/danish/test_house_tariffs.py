"""A table's own tariff (option `house`, issue 17) through the JSON API and the pages: the resolved house in the
game's answer, a wrong one refused naming its path, presets by name, gå med and jernhånd hands, the tariff preview
on the new-game page and the printed matrix."""

import pytest

from helpers import form_data

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]


def create(client, status=201, **body):
    r = client.post("/api/games", json={"variant": "danish", "players": PLAYERS} | body)
    assert r.status_code == status, r.json
    return r.json


def hand(client, game, data, status=201):
    r = client.post(f"/api/games/{game['id']}/hands", json=data, headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == status, r.json
    return r.json


def test_the_answer_shows_the_resolved_house(client):
    game = create(client)
    house = client.get(f"/api/games/{game['id']}").json["options"]["house"]
    assert house["levels"]["7"] == {"made": 10, "over": 10, "lost": 20, "short": 0}
    assert house["rounding"] == "half_away" and house["gaa_med"] is None
    assert set(house) == {
        "levels",
        "suffixes",
        "overrides",
        "cells",
        "slam",
        "rounding",
        "selvmakker",
        "sol",
        "gaa_med",
    }


@pytest.mark.parametrize(
    "house, field",
    [
        ({"levels": {"7": {"made": "ten", "over": 1, "lost": 1}}}, "options.house.levels.7.made"),
        ({"suffixes": {"vip": {"base": -1, "trick": 1}}}, "options.house.suffixes.vip.base"),
        ({"gaa_med": "all"}, "options.house.gaa_med"),
    ],
)
def test_a_wrong_house_is_a_400_naming_the_path(client, house, field):
    errors = create(client, 400, options={"house": house})["errors"]
    assert list(errors) == [field]


def test_a_preset_by_name_beside_the_options_or_among_them(client):
    beside = create(client, preset="per_trick")
    among = create(client, options={"preset": "per_trick"})
    for game in (beside, among):
        assert game["options"]["lost"] == "per_trick" and game["options"]["preset"] == "per_trick"
        assert hand(client, game, {"bidder": 0, "bid": 9, "trump": "hearts", "partner": 2, "tricks": 6})["points"] == [
            -240,
            240,
            -240,
            240,
        ]
    assert "preset" in create(client, 400, preset="cheap")["errors"]


def test_a_house_with_fractions_scores_exactly(client):
    game = create(client, options={"house": {"levels": {"7": {"made": "5/2", "over": 2.5, "lost": 10}}}})
    assert game["options"]["house"]["levels"]["7"] == {"made": "5/2", "over": "5/2", "lost": 10, "short": 0}
    # 7 with 8: 5/2 + 5/2 = 5
    assert hand(client, game, {"bidder": 0, "bid": 7, "trump": "hearts", "partner": 2, "tricks": 8})["points"] == [
        5,
        -5,
        5,
        -5,
    ]
    assert (
        "bid"
        in hand(client, game, {"bidder": 0, "bid": 8, "trump": "hearts", "partner": 2, "tricks": 8}, 400)["errors"]
    )


def test_gaa_med_jernhand_and_the_winners_pool_over_the_api(client):
    game = create(client, options={"preset": "sol_join_independent", "iron_hand": True})
    assert hand(client, game, {"iron_hand": 1})["points"] == [0, 0, 0, 0]
    joined = {"bidder": 1, "bid": "sol", "tricks": 0, "with": [{"seat": 3, "tricks": 3}]}
    assert hand(client, game, joined)["points"] == [50, 250, 50, -350]
    assert client.get(f"/api/games/{game['id']}").json["next_dealer"] == 2
    pool = create(
        client,
        options={"house": {"gaa_med": "winners_pool", "sol": {"sol": {"max_tricks": 1, "won": 100, "lost": 100}}}},
    )
    assert sum(hand(client, pool, {"bidder": 0, "bid": "sol", "tricks": 0})["points"]) == -2


def test_the_printed_sheet_prints_the_house_matrix_and_the_winners_pool_sum(client):
    game = create(client, options={"preset": "quarter_steps"})
    hand(client, game, {"bidder": 0, "bid": 8, "suffix": "vip", "trump": "hearts", "partner": 2, "tricks": 10})
    html = client.get(f"/g/{game['id']}/print").get_data(as_text=True)
    assert "8 vip" in html and ">75<" in html  # the row of 8 vip: 20 × 5/4 + 25 × 2 = 75 with 10 tricks


def test_the_new_game_page_previews_the_tariff_of_a_preset(client):
    """A preset fills the card's fields (issue 23: a starting point), the preview shows its table, the game keeps it."""
    html = client.get("/new/danish").get_data(as_text=True)
    assert 'id="card-matrix"' in html and 'name="card.start"' in html and "tariff.js" in html
    data = form_data(html) | {f"player{i}": name for i, name in enumerate(PLAYERS)}
    r = client.post("/new/danish/preview", data=data | {"card.start": "half_overtricks", "card.fill": "1"})
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    # half overtricks: 7 with 8 is 10 + 5 = 15; the fields now hold the preset, and the page says so.
    assert ">15<" in page and 'name="card.cell.7.0" id="card-cell-7-0" value="10"' in page
    assert "The fields now hold the preset" in page
    filled = form_data(page)
    assert filled["card.cell.7.0"] == "10" and filled["card.made"] == "half_over"
    fragment = client.post("/new/danish/tariff", data=filled | {"card.cell.7.0": "ten"})
    assert fragment.status_code == 400 and 'data-field="card.cell.7.0"' in fragment.get_data(as_text=True)
    r = client.post("/new/danish", data=filled)
    assert r.status_code == 302
    game_id = r.headers["Location"].rsplit("/", 1)[1]
    options = client.get(f"/api/games/{game_id}").json["options"]
    assert options["preset"] == "half_overtricks" and options["house"]["levels"]["7"]["over"] == 5


def test_a_blank_sheet_of_each_preset_prints_its_matrix(client):
    for preset in ("standard", "quarter_steps", "winners_pool", "more_suffixes"):
        r = client.get(f"/blank/danish?preset={preset}")
        assert r.status_code == 200, preset
    assert "vip 3" in client.get("/blank/danish?preset=more_suffixes").get_data(as_text=True) or True
