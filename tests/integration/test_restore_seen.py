"""Issue 43, "a restore unseen": after `scorekeeper restore` a phone drawn before it must never be told "nothing
changed" because the game's version number came back to the same value over other hands, and no file the LIVE_TAGS
folder kept before the restore may answer a poll after it (nginx answers from them: server/live_tags.py)."""

from __future__ import annotations

import re

import pytest

from helpers import Api
from scorekeeper import create_app
from scorekeeper.server import live_tags
from scorekeeper.storage.backup import backup, restore

# Three Danish hands: the one in the backup, the one entered after it and regretted, the one entered after the restore.
BACKED_UP = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9}
REGRETTED = {"bidder": 1, "bid": 9, "suffix": "plain", "trump": "hearts", "partner": 3, "tricks": 6}
AFTER = {"bidder": 2, "bid": 8, "suffix": "plain", "trump": "clubs", "partner": 0, "tricks": 10}


def _app(db_path, **config):
    return create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "x", **config})


def _tag(page: bytes) -> str:
    return re.search(rb'data-live-tag="([^"]+)"', page).group(1).decode()


def _totals(api, game) -> list:
    return api.get(game)["totals"]


def _same_version_other_hands(app, db_path, tmp_path):
    """A game whose phone drew it at version v over hands [BACKED_UP, REGRETTED], then restored to [BACKED_UP] and
    given AFTER: version v again, over other hands. (the phone's client, its tag, the game, the totals it showed)"""
    writer, phone = app.test_client(), app.test_client()
    api = Api(writer)
    game = api.create("danish")
    api.hand(game, BACKED_UP)
    saved = backup(db_path, str(tmp_path / "saved.sqlite"))
    api.hand(game, REGRETTED)
    shown = _totals(api, game)
    page = phone.get(f"/g/{game['id']}")
    tag = _tag(page.data)
    assert phone.get(f"/g/{game['id']}/live", headers={"X-Live-Tag": tag}).data == b""  # nothing changed, yet
    version = api.get(game)["version"]
    return phone, tag, game, shown, version, saved


@pytest.mark.parametrize("door", [True, False], ids=["live door", "flask"])
def test_a_phone_drawn_before_a_restore_is_not_told_nothing_changed(db_path, tmp_path, door):
    """The finding: the phone showed the regretted hand's totals while the game, restored and played on, had others."""
    app = _app(db_path, LIVE_DOOR=door)
    phone, tag, game, shown, version, saved = _same_version_other_hands(app, db_path, tmp_path)
    restore(str(saved), db_path)
    api = Api(app.test_client())
    api.hand(game, AFTER)
    assert api.get(game)["version"] == version  # the version number came back, over other hands
    assert _totals(api, game) != shown
    for parts in ({}, {"X-Live-Parts": "1"}):
        answer = phone.get(f"/g/{game['id']}/live", headers={"X-Live-Tag": tag, **parts})
        assert answer.status_code == 200 and answer.data != b"", "told 'nothing changed' of a restored game"
        assert _tag(answer.data) != tag
    page = phone.get(f"/g/{game['id']}").data
    assert _tag(page) != tag  # the page drawn now carries a tag of its own, not the one before the restore


def test_a_restore_changes_the_tag_even_over_the_same_rows(db_path, tmp_path):
    """The tag is the restore's too: a backup put back over the very rows a page shows still makes a new tag (the
    epoch, server/live_door.py), so no page, kept answer or file of before a restore is the one after it."""
    app = _app(db_path)
    client = app.test_client()
    game = Api(client).create("danish")
    before = _tag(client.get(f"/g/{game['id']}").data)
    saved = backup(db_path, str(tmp_path / "saved.sqlite"))
    restore(str(saved), db_path)
    after = _tag(client.get(f"/g/{game['id']}").data)
    assert after != before
    assert client.get(f"/g/{game['id']}/live", headers={"X-Live-Tag": before}).data != b""
    assert client.get(f"/g/{game['id']}/live", headers={"X-Live-Tag": after}).data == b""


def _call(port: int, path: str, method: str = "GET", headers=None, body=None) -> tuple[int, bytes]:
    """A request to nginx over TLS, as a phone makes it (after a 429 of nginx's limit_req, again a moment later)."""
    import http.client
    import ssl
    import time

    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    for _ in range(100):
        conn = http.client.HTTPSConnection("127.0.0.1", port, timeout=10, context=context)
        try:
            conn.request(method, path, body=body, headers={"Host": f"localhost:{port}", **(headers or {})})
            answer = conn.getresponse()
            status, data = answer.status, answer.read()
        finally:
            conn.close()
        if status != 429:
            return status, data
        time.sleep(0.2)
    raise AssertionError("refused for good")


def _kept_files(folder) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and p.name != ".lock")


def test_the_files_of_before_a_restore_are_gone_when_the_app_starts_again(db_path, tmp_path):
    """The folder outlives the app (a restart, as operations.md asks around a restore): the app that starts after the
    restore finds files of before it, which nginx would answer from; they are gone before its first request."""
    folder = tmp_path / "live-tags"
    app = _app(db_path, LIVE_TAGS=str(folder))
    live_tags.publisher(app).every = 3600.0
    phone, tag, game, shown, version, saved = _same_version_other_hands(app, db_path, tmp_path)
    assert (folder / "g" / game["id"] / tag).is_file()  # what nginx answers the phone's next poll from

    restore(str(saved), db_path)  # the app stopped; the folder (in /run) stays
    again = _app(db_path, LIVE_TAGS=str(folder))
    live_tags.publisher(again).every = 3600.0
    assert _kept_files(folder) == []  # checked at the start: nothing of before the restore is left for nginx

    api = Api(again.test_client())
    api.hand(game, AFTER)
    assert api.get(game)["version"] == version
    assert not (folder / "g" / game["id"] / tag).exists()
    answer = again.test_client().get(f"/g/{game['id']}/live", headers={"X-Live-Tag": tag})
    assert answer.data != b""


def test_the_restore_command_empties_the_folder_at_once(db_path, tmp_path):
    """A restore while the app runs: the command itself takes the kept files away (the workers would within TICK)."""
    folder = tmp_path / "live-tags"
    app = _app(db_path, LIVE_TAGS=str(folder))
    live_tags.publisher(app).every = 3600.0
    phone, tag, game, shown, version, saved = _same_version_other_hands(app, db_path, tmp_path)
    assert (folder / "g" / game["id"] / tag).is_file()
    result = app.test_cli_runner().invoke(args=["restore", "--yes", str(saved)])
    assert result.exit_code == 0, result.output
    assert _kept_files(folder) == []


def test_a_running_workers_files_go_at_its_next_look_and_it_keeps_no_file_for_the_old_tag(db_path, tmp_path):
    folder = tmp_path / "live-tags"
    app = _app(db_path, LIVE_TAGS=str(folder))
    publisher = live_tags.publisher(app)
    publisher.every = 3600.0
    phone, tag, game, shown, version, saved = _same_version_other_hands(app, db_path, tmp_path)
    restore(str(saved), db_path)  # by another program: no request of this app's looked yet
    publisher.tick()
    assert _kept_files(folder) == []
    api = Api(app.test_client())
    api.hand(game, AFTER)
    assert phone.get(f"/g/{game['id']}/live", headers={"X-Live-Tag": tag}).data != b""
    assert not (folder / "g" / game["id"] / tag).exists()


@pytest.mark.parametrize("paper", ["print", "sheet.pdf"])
def test_a_sheet_kept_before_a_restore_is_not_the_one_after_it(db_path, tmp_path, paper):
    """The print page's ETag and the kept PDF (a file in pdf/, which outlives the app) are the epoch's too: after a
    restore that brings the version back over other hands, the browser's copy is not "not modified" and the PDF of
    before is not served."""
    app = _app(db_path)
    phone, tag, game, shown, version, saved = _same_version_other_hands(app, db_path, tmp_path)
    before = phone.get(f"/g/{game['id']}/{paper}")
    assert before.status_code == 200 and before.headers.get("ETag")
    restore(str(saved), db_path)
    Api(app.test_client()).hand(game, AFTER)
    after = phone.get(f"/g/{game['id']}/{paper}", headers={"If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200 and after.headers["ETag"] != before.headers["ETag"]
    assert after.data != before.data


@pytest.mark.needs_program
def test_through_nginx_a_restore_is_seen_by_a_phone_drawn_before_it(tmp_path):
    """The deployment operations.md recommends (deploy/nginx.conf over TLS, LIVE_TAGS): a restore while the app runs
    (`scorekeeper restore`), a hand after it at the same version number; the phone's next poll, nginx's or the
    app's, is never "nothing changed"."""
    import json

    from helpers import waitress_in_thread
    from nginx_stack import nginx_in_front
    from scorekeeper.storage import migrate

    database = str(tmp_path / "scorekeeper.sqlite")
    migrate(database)
    app = _app(database, LIVE_TAGS=str(tmp_path / "live-tags"), PROXY_FIX=1)
    with (
        waitress_in_thread(app, threads=2, clear_untrusted_proxy_headers=False) as server,
        nginx_in_front(tmp_path, server.effective_port) as nginx,
    ):
        port = nginx["tls"]
        created = _call(
            port,
            "/api/games",
            "POST",
            {"Content-Type": "application/json"},
            json.dumps({"variant": "danish", "players": list("ABCD")}),
        )
        game = json.loads(created[1])
        write = {"Content-Type": "application/json", "X-Edit-Key": game["edit_key"]}
        assert _call(port, f"/api/games/{game['id']}/hands", "POST", write, json.dumps(BACKED_UP))[0] == 201
        saved = backup(database, str(tmp_path / "saved.sqlite"))
        assert _call(port, f"/api/games/{game['id']}/hands", "POST", write, json.dumps(REGRETTED))[0] == 201
        tag = _tag(_call(port, f"/g/{game['id']}")[1])
        assert _call(port, f"/g/{game['id']}/live", headers={"X-Live-Tag": tag})[1] == b""  # nginx's, from its file
        result = app.test_cli_runner().invoke(args=["restore", "--yes", str(saved)])
        assert result.exit_code == 0, result.output
        answer = _call(port, f"/g/{game['id']}/live", headers={"X-Live-Tag": tag})[1]
        assert answer != b"" and b"hand-2" not in answer  # at once: the restored game, one hand
        assert _call(port, f"/api/games/{game['id']}/hands", "POST", write, json.dumps(AFTER))[0] == 201
        answer = _call(port, f"/g/{game['id']}/live", headers={"X-Live-Tag": tag})[1]
        assert answer != b"" and b"hand-2" in answer and _tag(answer) != tag
        assert _call(port, f"/g/{game['id']}/live", headers={"X-Live-Tag": _tag(answer)})[1] == b""


def test_the_restore_makes_its_epoch_as_the_pages_go_in(db_path, tmp_path, monkeypatch):
    """A backup made after the last restore carries today's epoch: until the restore's new one, the restored rows would
    pass for today's. It is made with the pages, before the migrations run (and again after them)."""
    import sqlite3

    from scorekeeper.storage import backup as backups

    def epoch() -> int:
        with sqlite3.connect(db_path) as conn:
            return conn.execute("SELECT version FROM live_versions WHERE scope = 'epoch'").fetchone()[0]

    first = backup(db_path, str(tmp_path / "first.sqlite"))
    restore(str(first), db_path)  # an epoch, as after any restore
    today = epoch()
    saved = backup(db_path, str(tmp_path / "saved.sqlite"))  # the nightly backup: today's epoch in it
    seen = []
    migrate = backups.migrate
    monkeypatch.setattr(backups, "migrate", lambda target: seen.append(epoch()) or migrate(target))
    restore(str(saved), db_path)
    assert seen and seen[0] != today  # while the migrations ran, the rows put back were already of a new epoch
    assert epoch() not in (today, seen[0])
