"""Play again: a new game from a protokoll with the same players, variant and house rules, the next dealer first."""

import re

from helpers import dump, post_hand, start

FORM = re.compile(
    r'<form method="post" action="(/g/[^"]+/again)"[^>]*><input type="hidden" name="csrf_token" value="([^"]+)"'
)


def again_form(client, gid):
    html = client.get(f"/g/{gid}").get_data(as_text=True)
    m = FORM.search(html)
    assert m, "no Play again form"
    return html, m.group(1), {"csrf_token": m.group(2)}


def api_game(client, gid):
    return client.get(f"/api/games/{gid}").json


def test_play_again_copies_players_and_options_and_deals_on(client, db_path):
    gid = start(client, "classic", ["Anna", "Bo", "Carl", "Dina"], target="7", honours="y", revoke_penalty="2")
    post_hand(client, gid, {"trump": "hearts", "tricks": "8"})
    post_hand(client, gid, {"trump": "spades", "tricks": "5"})
    old = api_game(client, gid)
    before = {t: rows for t, rows in dump(db_path).items() if t in ("games", "hands")}
    html, url, data = again_form(client, gid)
    assert 'class="button" id="play-again"' in html  # mid-game: there, but not the big button
    r = client.post(url, data=data)
    assert r.status_code == 302
    new_id = r.headers["Location"].rsplit("/", 1)[-1]
    assert new_id != gid
    new = api_game(client, new_id)
    assert new["variant"] == "classic" and new["players"] == old["players"]
    assert new["options"] == old["options"] and new["options"]["target"] == 7 and new["options"]["honours"] is True
    assert new["dealer"] == old["next_dealer"] == 2
    assert new["hands"] == [] and new["title"] == old["title"]
    # This phone holds the new game's edit key; the old game is as it was.
    assert "Enter hand 1" in client.get(f"/g/{new_id}").get_data(as_text=True)
    after = dump(db_path)
    assert [row for row in after["games"] if gid in row] == [row for row in before["games"] if gid in row]
    assert [row for row in after["hands"] if gid in row] == [row for row in before["hands"] if gid in row]


def test_a_finished_game_offers_it_big_and_a_danish_tariff_carries_over(client):
    gid = start(client, "danish", preset="per_trick", deals="1")
    post_hand(client, gid, {"bidder": "1", "bid": "9-gode", "partner": "3", "tricks": "10"})
    old = api_game(client, gid)
    assert old["finished"]
    html, url, data = again_form(client, gid)
    assert 'class="button primary big" id="play-again"' in html
    new_id = client.post(url, data=data).headers["Location"].rsplit("/", 1)[-1]
    new = api_game(client, new_id)
    assert new["options"] == old["options"] and new["dealer"] == old["next_dealer"] == 1


def test_only_the_phone_with_the_edit_key_may_play_again(client, app, db_path):
    gid = start(client, "german", ["Anna", "Bo"])
    _, url, data = again_form(client, gid)
    other = app.test_client()
    assert "play-again" not in other.get(f"/g/{gid}").get_data(as_text=True)
    before = dump(db_path)
    assert other.post(url, data=data).status_code in (400, 403)
    assert client.post(url, data={}).status_code == 400  # no CSRF token
    assert dump(db_path) == before


def test_play_again_counts_against_the_new_game_limit(db_path):
    from scorekeeper import create_app

    app = create_app(
        {
            "TESTING": True,
            "DATABASE": db_path,
            "SECRET_KEY": "t",
            "RATELIMIT_ENABLED": True,
            "LIMIT_NEW_GAMES": "2 per minute",
        }
    )
    client = app.test_client()
    gid = start(client, "german", ["Anna", "Bo"])
    _, url, data = again_form(client, gid)
    assert client.post(url, data=data).status_code == 302
    assert client.post(url, data=data).status_code == 429


def test_a_second_tap_opens_the_game_the_first_one_started(client, db_path):
    gid = start(client, "german", ["Anna", "Bo"])
    post_hand(client, gid, {"tricks": "9"})
    _, url, data = again_form(client, gid)
    first = client.post(url, data=data)
    games_after_first = len(dump(db_path)["games"])
    second = client.post(url, data=data)  # the same form again: a double tap, or Back and a tap
    assert second.status_code == 302 and second.headers["Location"] == first.headers["Location"]
    assert len(dump(db_path)["games"]) == games_after_first
    # A hand later the game has moved on: Play again starts another one.
    post_hand(client, gid, {"tricks": "8"})
    _, url, data = again_form(client, gid)
    third = client.post(url, data=data)
    assert third.headers["Location"] != first.headers["Location"]
