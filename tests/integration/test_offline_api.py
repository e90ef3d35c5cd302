"""What the offline phone relies on, through the test client: a kept hand sent as the page's fields is stored once under
its form token, a hand someone else entered is a 409, the form page is never kept by the browser, the app installs."""

import struct

import pytest

from helpers import ROOT, fields, post_hand, start

HAND = {"bidder": "1", "bid": "9-gode", "trump": "clubs", "partner": "3", "tricks": "10"}


def send(client, game_id, key, body, token, number):
    headers = {"X-Edit-Key": key, "Idempotency-Key": f"form:{token}", "X-Hand-Number": str(number)}
    return client.post(f"/api/games/{game_id}/hands", json=body, headers=headers)


@pytest.fixture
def game(api):
    return api.create("danish")


def test_a_kept_hand_sent_twice_is_stored_once(client, api, game):
    first = send(client, game["id"], game["edit_key"], {"form": HAND}, "t1", 1)
    again = send(client, game["id"], game["edit_key"], {"form": HAND}, "t1", 1)
    assert first.status_code == again.status_code == 201
    assert first.json == again.json
    assert first.json["input"] == {
        "bidder": 1,
        "bid": 9,
        "suffix": "gode",
        "trump": "clubs",
        "partner": 3,
        "tricks": 10,
    }
    assert len(api.get(game)["hands"]) == 1


def test_a_hand_the_page_saved_is_not_stored_again_by_the_phone(client, api):
    game_id = start(client, "danish")
    page = client.get(f"/g/{game_id}/hands/new").get_data(as_text=True)
    token = fields(page)["token"]
    key = page.split('data-edit-key="')[1].split('"')[0]
    client.post(f"/g/{game_id}/hands/new", data={**fields(page), **HAND})
    answer = send(client, game_id, key, {"form": HAND}, token, 1)  # the POST's answer was lost; the phone retries
    assert answer.status_code == 201 and answer.json["number"] == 1
    assert len(client.get(f"/api/games/{game_id}").json["hands"]) == 1


def test_a_hand_someone_else_entered_is_a_conflict(client, api, game):
    api.hand(game, {"passed": True})
    r = send(client, game["id"], game["edit_key"], {"form": HAND}, "t2", 1)
    assert r.status_code == 409 and r.json["latest"] == 1
    assert len(api.get(game)["hands"]) == 1


def test_bad_kept_fields_are_refused(client, game):
    r = send(client, game["id"], game["edit_key"], {"form": {"bidder": 1}}, "t3", 1)
    assert r.status_code == 400 and "form" in r.json["errors"]
    r = send(client, game["id"], game["edit_key"], {"form": {"bid": "9"}}, "t4", 1)
    assert r.status_code == 400


def test_the_hand_form_is_never_kept_and_carries_the_key_only_there(client):
    game_id = start(client, "danish")
    form = client.get(f"/g/{game_id}/hands/new")
    assert form.headers["Cache-Control"] == "no-store"
    assert 'autocomplete="off"' in form.get_data(as_text=True)
    other = client.application.test_client()  # a phone without the edit key
    assert "data-edit-key" not in other.get(f"/g/{game_id}").get_data(as_text=True)


def test_saving_says_so_and_points_at_the_row(client):
    game_id = start(client, "german")
    r = post_hand(client, game_id, {"tricks": "8"})
    assert r.headers["Location"].endswith(f"/g/{game_id}?saved=1#hand-1")
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    assert 'id="hand-1" class="hand saved"' in html and "Hand 1 saved." in html


def test_passed_out_asks_before_replacing_a_played_hand(client):
    game_id = start(client, "danish")
    post_hand(client, game_id, HAND)
    r = post_hand(client, game_id, {"passed": "1"}, number=1, expect=200)
    assert 'id="confirm-passed"' in r.get_data(as_text=True)
    assert client.get(f"/api/games/{game_id}").json["hands"][0]["input"]["bid"] == 9
    post_hand(client, game_id, {"passed": "confirmed"}, number=1)
    assert client.get(f"/api/games/{game_id}").json["hands"][0]["input"] == {"passed": True}


def test_the_app_installs(client):
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker.mimetype == "text/javascript"
    assert "__VERSION__" not in worker.get_data(as_text=True)
    manifest = client.get("/manifest.webmanifest").json
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    for icon in manifest["icons"]:
        png = (ROOT / "scorekeeper" / icon["src"].lstrip("/")).read_bytes()
        width, height = struct.unpack(">II", png[16:24])
        assert icon["sizes"] == f"{width}x{height}"
        served = client.get(icon["src"])
        assert served.status_code == 200
        served.close()
    assert any(i.get("purpose") == "maskable" for i in manifest["icons"])
