"""Hooks that see the game (issue 46): an Israeli-whist-shaped toy (tests/toys.py: THROWN) whose deal thrown in when
all pass counts for none of the game's deals and doubles the next. Its deals left count what it counts (not "-1 deals
left", nor `deals_left: 0` while the game goes on), its hand's fields see the game's state for a scored hand and a deal
in progress alike, it words its own one-tap button, and an error of a field the page shows as several buttons is said
with the field's label."""

from __future__ import annotations

import re

import pytest
from toys import THROWN_FILES, register

from helpers import fields


@pytest.fixture
def thrown(monkeypatch, tmp_path, app):
    return register(monkeypatch, tmp_path, app, "thrown", THROWN_FILES)


def text(r) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.get_data(as_text=True)))


def create(client, **options):
    r = client.post("/api/games", json={"variant": "thrown", "players": ["Ada", "Bea", "Cy"], "options": options})
    assert r.status_code == 201, r.json
    game = r.json
    client.get(f"/g/{game['id']}/k/{game['edit_key']}")  # this phone may edit it
    return game


def hand(client, game, body, status=201):
    r = client.post(f"/api/games/{game['id']}/hands", json=body, headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == status, r.json
    return client.get(f"/api/games/{game['id']}").json


def test_deals_left_count_what_the_variant_counts(client, thrown):
    game = create(client, deals=2)
    assert client.get(f"/api/games/{game['id']}").json["deals_left"] == 2
    after = hand(client, game, {"passed": True})  # thrown in: no deal of the game
    assert (after["deals_left"], after["finished"]) == (2, False)
    after = hand(client, game, {"says": [3, 2, 1], "tricks": [3, 2, 2]})
    assert (after["deals_left"], after["finished"]) == (1, False)
    after = hand(client, game, {"passed": True})
    assert (after["deals_left"], after["finished"]) == (1, False)  # not 2 - 3 = -1
    page = text(client.get(f"/g/{game['id']}"))
    assert "1 deal left" in page and "-1" not in page and "−1 deals" not in page
    after = hand(client, game, {"says": [1, 1, 1], "tricks": [1, 1, 5]})
    assert (after["deals_left"], after["finished"]) == (0, True)


def test_a_hands_fields_see_the_state_for_a_scored_hand_and_a_deal_in_progress(client, thrown):
    game = create(client, deals=3)
    hand(client, game, {"passed": True})
    r = client.put(f"/api/games/{game['id']}/bids", json={"says": [3, 2, 1]}, headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == 201, r.json
    answer = client.get(f"/api/games/{game['id']}")
    assert answer.status_code == 200
    assert answer.json["hands"][0]["factor"] == 1 and answer.json["open_deal"]["factor"] == 2
    assert client.get(f"/api/games/{game['id']}/bids").json["factor"] == 2
    assert client.get(f"/g/{game['id']}").status_code == 200
    assert client.get(f"/g/{game['id']}/live").status_code == 200


def test_the_variant_words_its_own_one_tap_button(client, thrown):
    game = create(client)
    page = client.get(f"/g/{game['id']}/hands/new")
    assert "Thrown in: hand 2 counts double" in text(page) and "Passed out (all passed)" not in text(page)
    assert 'data-confirm="Throw this hand in?"' in page.get_data(as_text=True)
    hand(client, game, {"says": [3, 2, 1], "tricks": [3, 2, 2]})
    edit = client.get(f"/g/{game['id']}/hands/1")
    r = client.post(f"/g/{game['id']}/hands/1", data={**fields(edit.get_data(as_text=True)), "passed": "1"})
    assert "Throw in hand 1 (calls 3–2–1, tricks 3–2–2)?" in text(r) and "Yes, it was thrown in" in text(r)


def test_an_error_of_a_field_of_several_buttons_is_said_with_its_label(client, thrown):
    game = create(client)
    page = client.get(f"/g/{game['id']}/hands/new")
    taps = {"s0": "3", "s1": "2", "s2": "2", "t0": "3", "t1": "2", "t2": "2"}
    r = client.post(f"/g/{game['id']}/hands/new", data={**fields(page.get_data(as_text=True)), **taps})
    assert r.status_code == 400
    assert "Calls: the last to say may not make them add up to 7" in text(r)
    bids = client.get(f"/g/{game['id']}/bids")
    r = client.post(
        f"/g/{game['id']}/bids", data={**fields(bids.get_data(as_text=True)), "s0": "3", "s1": "2", "s2": "2"}
    )
    assert r.status_code == 400 and "Calls: the last to say may not make them add up to 7" in text(r)
