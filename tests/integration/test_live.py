"""Live pages without reloads: the protokoll, a drive table's page and the hall screen answer a small conditional
request (`/live` with If-None-Match: 304 and a few hundred bytes when nothing changed, the fresh page when something
did), and the 50-hand protokoll stays under 30 KB. The browser half is tests/browser/test_live_browser.py."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask import template_rendered

from helpers import PLAYERS
from scorekeeper.games import cache, service
from scorekeeper.server.db import get_db
from variants import EXAMPLES

PAGE_HANDS = 50
PAGE_BYTES = 30_000


def imported(app, variant: str, n: int, title: str = "Thursday at Bo's") -> tuple[str, str]:
    data = {
        "format": service.EXPORT_FORMAT,
        "variant": variant,
        "title": title,
        "players": list(PLAYERS[variant]),
        "dealer": 0,
        "options": dict(EXAMPLES[variant].LONG[0]),
        "hands": EXAMPLES[variant].long_hands(n, 1),
    }
    with app.app_context():
        return service.import_game(get_db(), data)


@pytest.mark.parametrize("editor", [False, True], ids=["read-only", "editor"])
def test_protokoll_of_fifty_hands_is_under_30_kb(app, editor):
    game_id, key = imported(app, "danish", PAGE_HANDS)
    client = app.test_client()
    if editor:
        client.get(f"/g/{game_id}/k/{key}")
    page = client.get(f"/g/{game_id}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert html.count('class="hand') >= PAGE_HANDS and "<svg" in html  # every hand and the chart are there
    assert len(page.data) < PAGE_BYTES, len(page.data)


# ---------------------------------------------------------------- the light twin: 304 when nothing changed

TAG = re.compile(r'data-live-tag="([^"]+)"')
LIVE = re.compile(r'data-live-url="([^"]+)"')


@pytest.fixture
def rendered(app):
    """The templates rendered while the test runs (Flask's template_rendered signal)."""
    names: list[str] = []

    def seen(sender, template, context, **extra):
        names.append(template.name)

    template_rendered.connect(seen, app)
    yield names
    template_rendered.disconnect(seen, app)


def live_of(html: str) -> tuple[str, str]:
    return unescape(LIVE.search(html).group(1)), TAG.search(html).group(1)


def wire_bytes(response) -> int:
    """What the answer costs on the wire: the status line, the headers and the body (as HTTP/1.1 sends them)."""
    head = f"HTTP/1.1 {response.status}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in response.headers.items()) + "\r\n"
    return len(head.encode()) + len(response.data)


def test_the_protokoll_answers_304_without_a_replay_or_a_template(app, api, statements, rendered):
    game = api.create("danish")
    for hand in EXAMPLES["danish"].long_hands(20, 1):
        api.hand(game, hand)
    viewer = app.test_client()
    page = viewer.get(f"/g/{game['id']}").get_data(as_text=True)
    url, tag = live_of(page)
    assert url == f"/g/{game['id']}/live"
    assert '<noscript><meta http-equiv="refresh" content="20"></noscript>' in page  # without JS: as before
    cache.games.clear()
    statements(), rendered.clear()
    r = viewer.get(url, headers={"If-None-Match": f'"{tag}"'})
    assert r.status_code == 304 and r.data == b"" and r.headers["ETag"] == f'"{tag}"'
    assert wire_bytes(r) < 600, r.headers  # a few hundred bytes
    assert rendered == [] and len(cache.games) == 0  # no template, no game scored (or read from the kept ones)
    assert [s for s in statements() if "hands" in s] == []  # the game's row only, not its hands
    # a phone without the tag (or with an old one) gets the page as it is, tagged with what it carries
    r = viewer.get(url)
    assert r.status_code == 200 and r.headers["ETag"] == f'"{tag}"' and live_of(r.get_data(as_text=True))[1] == tag


def test_a_hand_entered_elsewhere_changes_the_tag_and_the_fresh_page_shows_it(app, api):
    game = api.create("danish")
    api.hand(game, EXAMPLES["danish"].long_hands(1, 1)[0])
    viewer = app.test_client()
    url, tag = live_of(viewer.get(f"/g/{game['id']}").get_data(as_text=True))
    assert viewer.get(url, headers={"If-None-Match": f'"{tag}"'}).status_code == 304
    api.hand(game, EXAMPLES["danish"].long_hands(2, 1)[1])  # the scorer's phone, by the API
    r = viewer.get(url, headers={"If-None-Match": f'"{tag}"'})
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and 'id="hand-2"' in html and "Hand 3:" in html
    new_url, new_tag = live_of(html)
    assert new_tag != tag and r.headers["ETag"] == f'"{new_tag}"' and new_url == url
    assert viewer.get(url, headers={"If-None-Match": f'"{new_tag}"'}).status_code == 304
    # so does a deal's bids (their own version) and the edit right of the phone that asks
    editor = app.test_client()
    editor.get(f"/g/{game['id']}/k/{game['edit_key']}")
    assert editor.get(url, headers={"If-None-Match": f'"{new_tag}"'}).status_code == 200


def test_the_page_without_javascript_is_as_before(app, api):
    game = api.create("german")
    viewer = app.test_client()
    page = viewer.get(f"/g/{game['id']}").get_data(as_text=True)
    assert page.count('http-equiv="refresh"') == 1 and "<noscript>" in page and "live.js" in page
    editor = app.test_client()
    editor.get(f"/g/{game['id']}/k/{game['edit_key']}")
    mine = editor.get(f"/g/{game['id']}").get_data(as_text=True)
    assert 'http-equiv="refresh"' not in mine and "live.js" in mine  # the editor's page never reloaded itself
    for _ in range(20):
        if "Game over" in viewer.get(f"/g/{game['id']}").get_data(as_text=True):
            break
        api.hand(game, {"tricks": [13, 0]})
    over = viewer.get(f"/g/{game['id']}").get_data(as_text=True)
    assert "Game over" in over
    assert 'http-equiv="refresh"' not in over
    # a finished game's page still asks, more slowly: a deleted last hand brings it back (issue 43)
    assert "data-live-url" in over and "live.js" in over and 'data-live-every="30"' in over


def test_a_finished_games_answer_keeps_asking_slowly_and_a_deleted_last_hand_comes_back(app, api):
    """Issue 43 (low): the answer that shows a game over still carries the live address (live.js stopped for good
    without it), with the slower pace; the deleted last hand's answer shows the game going on, at the usual pace."""
    game = api.create("german")
    api.hand(game, {"tricks": [8, 5]})
    viewer = app.test_client()
    url, tag = live_of(viewer.get(f"/g/{game['id']}").get_data(as_text=True))
    while not api.get(game)["finished"]:
        api.hand(game, {"tricks": [8, 5]})
    last = len(api.get(game)["hands"])
    asked = {"X-Live-Parts": "1"}
    over = viewer.get(url, headers={**asked, "X-Live-Tag": tag})
    html = over.get_data(as_text=True)
    assert over.status_code == 200 and "Game over" in html and LIVE.search(html) and 'data-live-every="30"' in html
    tag = over.headers["ETag"].strip('"')
    assert viewer.get(url, headers={**asked, "X-Live-Tag": tag}).data == b""  # nothing changed: still asked
    r = api.client.delete(f"/api/games/{game['id']}/hands/{last}", headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == 200
    back = viewer.get(url, headers={**asked, "X-Live-Tag": tag})
    html = back.get_data(as_text=True)
    assert back.status_code == 200 and "Game over" not in html and LIVE.search(html)
    assert "data-live-every" not in html and f'data-live-gone="hand-{last}"' in html  # what changed, as parts


def test_an_unknown_game_is_a_404(client):
    assert client.get("/g/nosuchgame/live").status_code == 404


# ---------------------------------------------------------------- a drive: the table's page and the hall screen

LADIES = ["Ann", "Bea", "Cat", "Dot", "Eve", "Fay"]
GENTS = ["Al", "Ben", "Cy", "Dan", "Ed", "Fred"]


def a_drive(client) -> tuple[dict, dict[int, str]]:
    r = client.post("/api/drives", json={"format": "progressive", "ladies": LADIES, "gents": GENTS, "hands": 3})
    assert r.status_code == 201, r.json
    drive = r.json
    assert client.get(drive["edit_page"]).status_code == 302
    cards = client.get(f"/d/{drive['id']}/cards").get_data(as_text=True)
    urls = {int(t): path for path, t in re.findall(r'<a href="http://localhost(/d/[^"]+)" data-table="(\d)"', cards)}
    return drive, urls


def result(client, drive, table: int, tricks: int, hand: int = 1):
    r = client.post(
        f"/api/drives/{drive['id']}/hands/{hand}/tables/{table}",
        json={"tricks": [tricks, 13 - tricks]},
        headers={"X-Edit-Key": drive["edit_key"]},
    )
    assert r.status_code == 201, r.json


def test_a_drive_tables_page_answers_304_until_a_result_is_entered(app, client, rendered):
    drive, urls = a_drive(client)
    phone = app.test_client()
    page = phone.get(urls[1]).get_data(as_text=True)
    url, tag = live_of(page)
    assert url == urls[1] + "/live" and 'id="live-form" data-live' in page and 'id="live-info" data-live' in page
    rendered.clear()
    r = phone.get(url, headers={"If-None-Match": f'"{tag}"'})
    assert r.status_code == 304 and r.data == b"" and wire_bytes(r) < 600 and rendered == []
    result(client, drive, 2, 8)  # another table's result: this table's page says whom it waits for
    r = phone.get(url, headers={"If-None-Match": f'"{tag}"'})
    assert r.status_code == 200 and live_of(r.get_data(as_text=True))[1] != tag
    assert r.headers["ETag"] == f'"{live_of(r.get_data(as_text=True))[1]}"'
    assert phone.get(url.replace("/t/1/", "/t/2/")).status_code == 403  # another table's number, this table's token
    assert phone.get("/d/nosuchdrive/t/1/x/live").status_code == 404


def test_the_hall_screen_answers_304_until_a_result_is_entered(app, client, rendered):
    drive, _urls = a_drive(client)
    hall = app.test_client()
    page = hall.get(f"/d/{drive['id']}/screen?seconds=3").get_data(as_text=True)
    url, tag = live_of(page)
    assert url == f"/d/{drive['id']}/screen/live?seconds=3" and 'data-live-defer="1"' in page
    assert '<noscript><meta http-equiv="refresh"' in page
    rendered.clear()
    r = hall.get(url, headers={"If-None-Match": f'"{tag}"'})
    assert r.status_code == 304 and wire_bytes(r) < 600 and rendered == []
    assert hall.get(url.replace("seconds=3", "seconds=4"), headers={"If-None-Match": f'"{tag}"'}).status_code == 200
    result(client, drive, 1, 7)
    r = hall.get(url, headers={"If-None-Match": f'"{tag}"'})
    assert r.status_code == 200 and 'id="provisional"' in r.get_data(as_text=True)


# ---------------------------------------------------------------- what changed, not the whole page (issue 37)

PARTS = EXAMPLES["danish"].long_hands(6, 1)


def asking(tag: str) -> dict:
    """What static/live.js sends."""
    return {"X-Live-Tag": tag, "X-Live-Parts": "1"}


def watched(app, api, hands: int = 3):
    game = api.create("danish")
    for hand in PARTS[:hands]:
        api.hand(game, hand)
    viewer = app.test_client()
    url, tag = live_of(viewer.get(f"/g/{game['id']}").get_data(as_text=True))
    return game, viewer, url, tag


def test_a_watching_phone_gets_the_new_hands_row_and_the_standing_not_the_page(app, api):
    game, viewer, url, tag = watched(app, api)
    unchanged = viewer.get(url, headers=asking(tag))
    assert unchanged.status_code == 200 and unchanged.data == b""
    api.hand(game, PARTS[3])
    r = viewer.get(url, headers=asking(tag))
    delta = r.get_data(as_text=True)
    page = viewer.get(f"/g/{game['id']}").get_data(as_text=True)
    new_url, new_tag = live_of(delta)
    assert r.status_code == 200 and "data-live-delta" in delta and new_url == url and new_tag == live_of(page)[1]
    assert r.headers["ETag"] == f'"{new_tag}"'
    assert re.search(r'<tbody data-live-part data-live-after="hand-3" id="hand-4"', delta), delta
    assert '<section data-live-part class="standing" id="standing"' in delta and "Hand 5:" in delta
    assert 'data-live-attrs class="sheet' in delta and 'data-hands="4"' in delta
    assert 'id="hand-1"' not in delta and 'id="share"' not in delta and 'id="paper"' not in delta
    assert len(delta) < len(page) / 2
    assert viewer.get(url, headers=asking(new_tag)).data == b""  # and the phone's new tag is the page's


def test_a_deleted_hand_is_gone_and_an_edited_one_replaced(app, api):
    game, viewer, url, tag = watched(app, api, hands=4)
    r = api.client.delete(f"/api/games/{game['id']}/hands/4", headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == 200, r.json
    delta = viewer.get(url, headers=asking(tag)).get_data(as_text=True)
    assert '<i data-live-gone="hand-4"></i>' in delta and 'id="hand-3"' not in delta
    tag = live_of(delta)[1]
    r = api.client.put(f"/api/games/{game['id']}/hands/2", json=PARTS[4], headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == 200, r.json
    delta = viewer.get(url, headers=asking(tag)).get_data(as_text=True)
    assert '<tbody data-live-part id="hand-2"' in delta and "data-live-after" not in delta


@pytest.mark.parametrize("who", ["asks for the page", "tag unknown here", "may edit"])
def test_the_whole_page_where_the_server_cannot_tell_or_the_phone_asks_for_it(app, api, who):
    game, viewer, url, tag = watched(app, api)
    api.hand(game, PARTS[3])
    headers = asking(tag)
    if who == "asks for the page":
        headers = {"X-Live-Tag": tag}
    elif who == "tag unknown here":
        headers = asking("0123456789abcdef")
    else:
        viewer.get(f"/g/{game['id']}/k/{game['edit_key']}")
    html = viewer.get(url, headers=headers).get_data(as_text=True)
    assert "data-live-delta" not in html and 'id="share"' in html and 'id="hand-4"' in html


def test_a_page_drawn_by_another_process_is_cut_into_the_same_parts(app, api):
    """A big game's page for a reader is drawn by a process of the worker's own (server/heavy.py) and comes as bytes."""
    from scorekeeper.testing import page_parts

    game, viewer, _url, _tag = watched(app, api)
    page = viewer.get(f"/g/{game['id']}").get_data(as_text=True)
    assert page_parts.parts_of(page.encode()) == page_parts.parts_of(page) is not None
