"""What the offline phone relies on, through the test client: a kept hand sent as the page's fields is stored once under
its form token, a hand someone else entered is a 409, the form page is never kept by the browser, no page the phone
keeps holds the edit key (the edit link has its own page), a kept hand goes with the phone's session and its page's
CSRF token, the app installs."""

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


def phone_sends(client, game_id, body, token, number, csrf):
    """A kept hand as offline.js sends it: no key in the request, the phone's session and its page's CSRF token."""
    headers = {"X-CSRFToken": csrf, "Idempotency-Key": f"form:{token}", "X-Hand-Number": str(number)}
    return client.post(f"/api/games/{game_id}/hands", json=body, headers=headers)


def test_a_hand_the_page_saved_is_not_stored_again_by_the_phone(client, api):
    game_id = start(client, "danish")
    page = client.get(f"/g/{game_id}/hands/new").get_data(as_text=True)
    token = fields(page)["token"]
    client.post(f"/g/{game_id}/hands/new", data={**fields(page), **HAND})
    # the POST's answer was lost; the phone retries
    answer = phone_sends(client, game_id, {"form": HAND}, token, 1, fields(page)["csrf_token"])
    assert answer.status_code == 201 and answer.json["number"] == 1
    assert len(client.get(f"/api/games/{game_id}").json["hands"]) == 1


def session_key(client, game_id):
    with client.session_transaction() as session:
        return session["keys"][game_id]


def test_no_page_the_phone_keeps_holds_the_edit_key(client):
    """The service worker keeps home, the protokoll and its new-hand form for a lost network: none of them may hold
    the key, so a phone handed on (cookies cleared, offline) gives the next user no edit link."""
    game_id = start(client, "danish")
    post_hand(client, game_id, HAND)
    key = session_key(client, game_id)
    for path in ("/", f"/g/{game_id}", f"/g/{game_id}?changed=1&saved=1", f"/g/{game_id}/hands/new"):
        html = client.get(path).get_data(as_text=True)
        assert key not in html and "/k/" not in html and "data-edit-key" not in html, path
    assert f'href="/g/{game_id}/edit-link"' in client.get(f"/g/{game_id}").get_data(as_text=True)


def test_the_edit_link_has_a_page_of_its_own_never_kept(client):
    game_id = start(client, "danish")
    key = session_key(client, game_id)
    page = client.get(f"/g/{game_id}/edit-link")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    assert f"/g/{game_id}/k/{key}" in page.get_data(as_text=True)
    other = client.application.test_client()  # a phone without the edit key
    assert other.get(f"/g/{game_id}/edit-link").status_code == 403
    assert "edit-link" not in other.get(f"/g/{game_id}").get_data(as_text=True)


def test_a_kept_hand_goes_with_the_phones_session_and_its_csrf_token_only(client, app):
    game_id = start(client, "danish")
    page = client.get(f"/g/{game_id}/hands/new").get_data(as_text=True)
    csrf, token = fields(page)["csrf_token"], fields(page)["token"]
    no_token = client.post(f"/api/games/{game_id}/hands", json={"form": HAND}, headers={"X-Hand-Number": "1"})
    assert no_token.status_code == 403  # a cookie alone never writes: another site could send it
    assert phone_sends(client, game_id, {"form": HAND}, token, 1, "forged").status_code == 403
    stranger = app.test_client()  # cookies cleared: the page's token and the game id, no session holding the key
    stranger.get("/")
    assert phone_sends(stranger, game_id, {"form": HAND}, token, 1, csrf).status_code == 403
    assert client.get(f"/api/games/{game_id}").json["hands"] == []
    assert phone_sends(client, game_id, {"form": HAND}, token, 1, csrf).status_code == 201
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


def test_the_hand_form_is_never_kept_by_the_browser(client):
    game_id = start(client, "danish")
    form = client.get(f"/g/{game_id}/hands/new")
    assert form.headers["Cache-Control"] == "no-store"
    assert 'autocomplete="off"' in form.get_data(as_text=True)


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


def test_every_script_and_stylesheet_of_a_kept_page_is_precached(client, api):
    """A page the phone keeps (a read-only protokoll that follows the game, the scorer's protokoll, the hand form)
    opens offline with all its scripts and stylesheets, live.js too: each is in the service worker's precache list."""
    import re

    game = api.create("danish")
    worker = client.get("/sw.js").get_data(as_text=True)
    viewer = client.application.test_client().get(f"/g/{game['id']}").get_data(as_text=True)
    assert "/static/live.js" in viewer
    client.get(game["edit_page"])
    for html in (
        viewer,
        client.get(f"/g/{game['id']}").get_data(as_text=True),
        client.get(f"/g/{game['id']}/hands/new").get_data(as_text=True),
    ):
        assets = re.findall(r'<script src="([^"]+)"', html) + re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)
        assert assets
        for asset in assets:
            assert f'"{asset.split("?")[0]}"' in worker, asset
