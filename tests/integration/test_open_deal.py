"""A deal in progress: bids entered before the deal is played (a variant's BID_FIELDS), kept as entered, checked in
their place by the variant, shown on every phone's protokoll, editable until the tricks complete the hand through the
normal hand entry. The API's routes (PUT, GET and DELETE /api/games/<id>/bids) with the edit key, X-Hand-Number,
If-Match on the bids' own version and Idempotency-Key; a client that posts whole hands sees no difference."""

import re

import pytest

from helpers import dump, fields, form_data, start

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]


def text(r) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.get_data(as_text=True)))


@pytest.fixture
def game(client):
    r = client.post("/api/games", json={"variant": "plump", "players": PLAYERS, "options": {"lead": "highest_bid"}})
    return r.json


def key(game, **more):
    return {"X-Edit-Key": game["edit_key"], **more}


def bids(client, game, values, status=None, **headers):
    r = client.put(f"/api/games/{game['id']}/bids", json={"bids": values}, headers=key(game, **headers))
    if status is not None:
        assert r.status_code == status, r.json
    return r


def test_bids_first_then_the_tricks_complete_the_hand(client, game):
    assert client.get(f"/api/games/{game['id']}/bids").status_code == 404
    assert "open_deal" not in client.get(f"/api/games/{game['id']}").json
    r = bids(client, game, [3, 2, 0, 4], 201, **{"X-Hand-Number": "1"})
    deal = r.json["open_deal"]
    assert deal == {"number": 1, "dealer": 0, "leader": 3, "input": {"bids": [3, 2, 0, 4]}, "version": 1, "cards": 10}
    got = client.get(f"/api/games/{game['id']}/bids")
    assert got.json == deal and got.headers["ETag"] == '"1"'
    r = bids(client, game, [3, 2, 1, 3], 200, **{"If-Match": '"1"'})
    assert (
        r.json["open_deal"]["version"] == 2 and r.json["open_deal"]["leader"] == 3
    )  # 3 and 3: Dina first from the dealer's left
    assert r.json["version"] == game["version"]  # the hands' version: the bids have their own
    hand = client.post(
        f"/api/games/{game['id']}/hands",
        json={"bids": [3, 2, 1, 3], "tricks": [3, 2, 1, 4]},
        headers=key(game, **{"X-Hand-Number": "1"}),
    )
    assert hand.status_code == 201 and hand.json["points"] == [13, 12, 11, 0] and hand.json["leader"] == 3
    assert client.get(f"/api/games/{game['id']}/bids").status_code == 404
    assert "open_deal" not in client.get(f"/api/games/{game['id']}").json


def test_the_hook_is_checked_when_the_bids_are_entered_and_nothing_is_stored(client, app, game):
    before = dump(app.config["DATABASE"])
    r = bids(client, game, [3, 3, 0, 4], 400)
    assert "bids" in r.json["errors"] and "may not bid 3" in r.json["errors"]["bids"]  # Anna deals
    for bad in ([3, 2, 0], [11, 0, 0, 0], "3204", None):
        assert bids(client, game, bad).status_code == 400
    r = client.put(
        f"/api/games/{game['id']}/bids", json={"bids": [1, 1, 1, 1], "tricks": [1, 1, 1, 7]}, headers=key(game)
    )
    assert r.status_code == 400 and "tricks" in r.json["errors"]  # only the bids come first
    assert dump(app.config["DATABASE"]) == before


def test_the_edit_key_the_hand_number_and_the_bids_version_are_checked(client, app, game):
    r = client.put(f"/api/games/{game['id']}/bids", json={"bids": [1, 1, 1, 1]})
    assert r.status_code == 403
    r = client.put(f"/api/games/{game['id']}/bids", json={"bids": [1, 1, 1, 1]}, headers={"X-Edit-Key": "wrong"})
    assert r.status_code == 403
    r = bids(client, game, [1, 1, 1, 1], 409, **{"X-Hand-Number": "2"})
    assert "number" in r.json["errors"] and r.json["latest"] == 0
    bids(client, game, [1, 1, 1, 1], 201)
    before = dump(app.config["DATABASE"])
    r = bids(client, game, [2, 1, 1, 1], 409, **{"If-Match": '"0"'})  # another phone's bids came first
    assert "If-Match" in r.json["errors"] and r.json["version"] == 1
    assert client.delete(f"/api/games/{game['id']}/bids", headers=key(game, **{"If-Match": "0"})).status_code == 409
    assert client.delete(f"/api/games/{game['id']}/bids").status_code == 403
    assert dump(app.config["DATABASE"]) == before


def test_a_retried_entry_with_its_idempotency_key_changes_nothing_more(client, game):
    first = bids(client, game, [1, 1, 1, 1], 201, **{"Idempotency-Key": "k1"})
    again = bids(client, game, [1, 1, 1, 1], 200, **{"Idempotency-Key": "k1"})
    assert again.json["open_deal"]["version"] == first.json["open_deal"]["version"] == 1
    r = bids(client, game, [2, 1, 1, 1], 400, **{"Idempotency-Key": "k1"})
    assert "Idempotency-Key" in r.json["errors"]


def test_clearing_the_bids(client, game):
    assert client.delete(f"/api/games/{game['id']}/bids", headers=key(game)).status_code == 404
    bids(client, game, [1, 1, 1, 1], 201)
    r = client.delete(f"/api/games/{game['id']}/bids", headers=key(game, **{"If-Match": '"1"'}))
    assert r.status_code == 200 and "open_deal" not in r.json
    r = bids(client, game, [1, 1, 1, 1], 201)
    assert r.json["open_deal"]["version"] == 3  # its version never starts again: an old If-Match cannot match


def test_a_client_posting_whole_hands_sees_no_difference(client, game):
    """Another phone's bids neither change the game's version (If-Match on a hand still holds) nor stop a whole hand:
    the hand posted is the hand, and the deal it played is closed."""
    client.post(
        f"/api/games/{game['id']}/hands", json={"bids": [3, 2, 0, 4], "tricks": [3, 1, 0, 6]}, headers=key(game)
    )
    version = client.get(f"/api/games/{game['id']}").json["version"]
    bids(client, game, [2, 2, 2, 2], 201)
    r = client.put(
        f"/api/games/{game['id']}/hands/1",
        json={"bids": [3, 2, 0, 4], "tricks": [3, 2, 0, 5]},
        headers=key(game, **{"If-Match": f'"{version}"'}),
    )
    assert r.status_code == 200
    r = client.post(
        f"/api/games/{game['id']}/hands", json={"bids": [0, 0, 0, 0], "tricks": [9, 0, 0, 0]}, headers=key(game)
    )
    assert r.status_code == 201 and r.json["input"]["bids"] == [0, 0, 0, 0]
    assert "open_deal" not in client.get(f"/api/games/{game['id']}").json


def test_a_change_to_the_hands_that_the_deal_in_progress_no_longer_fits_is_refused(client, app):
    game = client.post(
        "/api/games", json={"variant": "plump", "players": PLAYERS, "options": {"schedule": [3, 2, 1]}}
    ).json
    client.post(
        f"/api/games/{game['id']}/hands", json={"bids": [1, 1, 0, 0], "tricks": [1, 1, 1, 0]}, headers=key(game)
    )
    bids(client, game, [1, 1, 1, 0], 201)  # deal 2 of 2 cards; as deal 1 of 3 cards they would add up: the hook
    before = dump(app.config["DATABASE"])
    r = client.delete(f"/api/games/{game['id']}/hands/1", headers=key(game))
    assert r.status_code == 400 and "bids of hand 2" in r.json["errors"]["hand"], r.json
    assert dump(app.config["DATABASE"]) == before
    bids(client, game, [2, 1, 1, 0], 200)  # fits deal 2 (2 cards) and deal 1 (3 cards): the deletion moves it up
    r = client.delete(f"/api/games/{game['id']}/hands/1", headers=key(game))
    assert r.status_code == 200 and r.json["open_deal"]["number"] == 1 and r.json["open_deal"]["cards"] == 3
    assert r.json["open_deal"]["dealer"] == 0


def test_a_finished_game_takes_no_bids_and_an_edit_may_not_end_it_under_an_open_deal(client):
    game = client.post("/api/games", json={"variant": "plump", "players": PLAYERS, "options": {"schedule": [1]}}).json
    client.post(
        f"/api/games/{game['id']}/hands", json={"bids": [1, 1, 0, 0], "tricks": [1, 0, 0, 0]}, headers=key(game)
    )
    assert bids(client, game, [0, 0, 0, 0]).status_code == 409


def test_a_variant_without_bids_first_refuses_them(client):
    game = client.post("/api/games", json={"variant": "german", "players": ["Anna", "Bo"]}).json
    r = client.put(f"/api/games/{game['id']}/bids", json={"tricks": [7, 6]}, headers=key(game))
    assert r.status_code == 400 and "input" in r.json["errors"]
    assert client.get(f"/api/games/{game['id']}/bids").status_code == 404


def test_a_kept_bid_entry_is_sent_as_the_bids_pages_fields(client, game):
    """What a phone kept offline: the page's fields, read by the variant's own form, with the session's key and a
    CSRF token, as a kept hand is."""
    client.get(game["edit_page"])
    page = client.get(f"/g/{game['id']}/bids").get_data(as_text=True)
    token = re.search(
        r'name="csrf_token" type="hidden" value="([^"]+)"|id="csrf_token" name="csrf_token" type="hidden" value="([^"]+)"',
        page,
    )
    csrf = next(g for g in token.groups() if g)
    r = client.put(
        f"/api/games/{game['id']}/bids",
        json={"form": {"b0": "1", "b1": "0", "b2": "2", "b3": "1", "cards": "10"}},
        headers={"X-CSRFToken": csrf, "X-Hand-Number": "1", "Idempotency-Key": "form:abc"},
    )
    assert r.status_code == 201, r.json
    assert r.json["open_deal"]["input"] == {"bids": [1, 0, 2, 1]}


# ---------------------------------------------------------------- the pages


def test_the_pages_bids_on_one_phone_shown_on_another_then_the_tricks(app, game):
    table, viewer = app.test_client(), app.test_client()
    table.get(game["edit_page"])
    sheet = table.get(f"/g/{game['id']}").get_data(as_text=True)
    assert 'id="enter-bids"' in sheet and "Enter the bids first" in sheet
    assert 'id="enter-bids"' not in viewer.get(f"/g/{game['id']}").get_data(as_text=True)
    assert viewer.get(f"/g/{game['id']}/bids").status_code == 403
    page = table.get(f"/g/{game['id']}/bids")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and 'data-kind="bids"' in html and 'name="b3"' in html and 'name="t0"' not in html
    r = table.post(f"/g/{game['id']}/bids", data={**fields(html), "b0": "3", "b1": "3", "b2": "0", "b3": "4"})
    assert r.status_code == 400 and "may not bid 3" in text(r)  # the hook, on the page: Anna deals
    r = table.post(f"/g/{game['id']}/bids", data={**fields(html), "b0": "3", "b1": "2", "b2": "0", "b3": "4"})
    assert r.status_code == 302
    seen = text(viewer.get(f"/g/{game['id']}"))
    assert "Hand 1 is being played" in seen and "bid 3" in seen and "bid 4" in seen and "Dina leads" in seen
    assert "bids 3–2–0–4: 9 bid for 10 tricks" in seen
    # Changed on the table's phone until the tricks are in.
    html = table.get(f"/g/{game['id']}/bids").get_data(as_text=True)
    assert 'id="b2-0" value="0" checked' in html and "Clear the bids" in html
    r = table.post(f"/g/{game['id']}/bids", data={**form_data(html), "b1": "1"})
    assert r.status_code == 302 and "bid 1" in text(viewer.get(f"/g/{game['id']}"))
    # The hand form opens with the bids filled in; the tricks complete the hand.
    form = table.get(f"/g/{game['id']}/hands/new").get_data(as_text=True)
    assert 'id="b3-4" value="4" checked' in form and "Leads: <b>Dina</b>" in form
    r = table.post(f"/g/{game['id']}/hands/new", data={**form_data(form), "t0": "3", "t1": "2", "t2": "1"})
    assert r.status_code == 302
    seen = text(viewer.get(f"/g/{game['id']}"))
    assert "being played" not in seen and "3/3" in seen and "4/4" in seen


def test_the_bids_can_be_cleared_on_the_page(client, game):
    client.get(game["edit_page"])
    html = client.get(f"/g/{game['id']}/bids").get_data(as_text=True)
    client.post(f"/g/{game['id']}/bids", data={**fields(html), "b0": "1", "b1": "1", "b2": "1", "b3": "1"})
    html = client.get(f"/g/{game['id']}/bids").get_data(as_text=True)
    r = client.post(f"/g/{game['id']}/bids/clear", data=fields(html))
    assert r.status_code == 302 and "being played" not in text(client.get(f"/g/{game['id']}"))


def test_the_bids_page_speaks_the_readers_language(client, game):
    client.get(game["edit_page"])
    client.get("/lang/da")
    html = client.get(f"/g/{game['id']}/bids").get_data(as_text=True)
    r = client.post(f"/g/{game['id']}/bids", data={**fields(html), "b0": "3", "b1": "3", "b2": "0", "b3": "4"})
    assert r.status_code == 400 and "giveren (der melder sidst) må ikke melde 3" in text(r)
    assert "Gem meldingerne" in text(r)


def test_a_variant_without_bids_first_has_no_bids_page(client):
    gid = start(client, "german", ["Anna", "Bo"])
    assert client.get(f"/g/{gid}/bids").status_code == 404
    assert 'id="enter-bids"' not in client.get(f"/g/{gid}").get_data(as_text=True)
