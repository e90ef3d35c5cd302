"""Issue 43, "a stranger fills the server's memory": the LIVE_TAGS folder (a tmpfs in /run: server/live_tags.py) is
bounded by construction. Strangers try to pass LIVE_TAGS_MAX_BYTES as the finding did (many games with big pages,
many tags for one page), workers write it at once, files grow old: the folder stays within its bound, its count of
bytes is exact, and every answer nginx would give from it stays right (a file that is not there only sends the poll to
the app)."""

from __future__ import annotations

import logging
import multiprocessing
import os
import re
import sqlite3
import time

import pytest

from helpers import Api
from scorekeeper import create_app
from scorekeeper.server import live_tags

DANISH = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9}
KiB = 1024


def measured(folder) -> int:
    """What the folder holds, counted as the docs say (a file's bytes in whole 4 KiB pages and 1 KiB for itself, a
    folder 1 KiB), by walking it: not the app's own count."""
    total = 0
    for path in folder.rglob("*"):
        if path.parent == folder and path.name == live_tags.LOCK:
            continue
        total += KiB if path.is_dir() else KiB + -(-path.stat().st_size // 4096) * 4096
    return total


def _app(db_path, folder, **config):
    app = create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "x", "LIVE_TAGS": str(folder), **config})
    live_tags.publisher(app).every = 3600.0  # the thread asleep: each test says when the changes are looked at
    return app


def _tag(page: bytes) -> str:
    return re.search(rb'data-live-tag="([^"]+)"', page).group(1).decode()


def _nginx(folder, game_id: str, tag: str, parts: bool) -> bytes | None:
    """What deploy/nginx.conf answers a poll from (try_files): the tag's empty file, else the kept answer; None: the
    poll goes to the app."""
    here = folder / "g" / game_id
    for name in (tag, f"{tag}.{'parts' if parts else 'page'}"):
        try:
            return (here / name).read_bytes()
        except FileNotFoundError:
            continue
    return None


def _poll_as_behind_nginx(client, folder, game_id: str, tag: str) -> bytes:
    """A watching phone's poll: what nginx would answer from the folder is held to what the app answers itself (a
    "nothing changed" only while nothing did, a kept answer only one that brings the page to its current state)."""
    from_nginx = _nginx(folder, game_id, tag, parts=True)
    answer = client.get(f"/g/{game_id}/live", headers={"X-Live-Tag": tag, "X-Live-Parts": "1"}).data
    if from_nginx == b"":
        assert answer == b"", "nginx would have said 'nothing changed' of a page that changed"
    elif from_nginx is not None:
        assert answer != b"" and _tag(from_nginx) == _tag(answer), "nginx would have answered with an old page"
    return answer


def test_a_stranger_with_many_games_and_big_pages_cannot_pass_the_bound(db_path, tmp_path, caplog):
    """The finding's attack: one stranger's games, each page read in every language at many addresses (each a page of
    its own, kept with its mark), while a real table plays on and its phone watches through nginx."""
    folder, bound = tmp_path / "live-tags", 256 * KiB
    app = _app(db_path, folder, LIVE_TAGS_MAX_BYTES=bound)
    publisher = live_tags.publisher(app)
    table, reader = Api(app.test_client()), app.test_client()
    game = table.create("danish")
    table.hand(game, DANISH)
    tag = _tag(reader.get(f"/g/{game['id']}").data)

    stranger = app.test_client()
    games = [Api(stranger).create("danish", title=f"Big {n}") for n in range(14)]
    for n, each in enumerate(games):
        for _ in range(2 + 3 * n):  # pages of 7 to 21 KB: past some 15 hands more than a sixteenth of the bound
            Api(stranger).hand(each, DANISH)
    caplog.set_level(logging.WARNING, logger="scorekeeper.server.live_tags")
    written = 0
    for round in range(6):
        for each in games:
            for language in ("en", "da", "sv"):
                answer = stranger.get(
                    f"/g/{each['id']}/live",
                    headers={
                        "X-Live-Tag": "0123456789abcdef",
                        "Host": f"r{round}.example",
                        "Accept-Language": language,
                    },
                )
                written += len(answer.data)
            held = measured(folder)
            assert held <= bound, f"the folder holds {held} bytes, past its bound of {bound}"
            assert publisher.accounted() == held  # the count is what the folder holds, not a guess
        table.hand(game, DANISH)  # the table plays on; its phone asks as live.js does, through nginx
        answer = _poll_as_behind_nginx(reader, folder, game["id"], tag)
        assert answer != b"" and _tag(answer) != tag
        tag = _tag(answer)
        assert _poll_as_behind_nginx(reader, folder, game["id"], tag) == b""
        assert (folder / "g" / game["id"] / tag).is_file()  # the table's own page is still answered by nginx
    assert written > 10 * bound  # the stranger's pages were ten times the bound
    assert any("reached LIVE_TAGS_MAX_BYTES" in r.getMessage() for r in caplog.records)
    largest = max(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    assert largest <= bound // live_tags.LARGEST  # a page past a sixteenth of the bound is never kept


def test_a_stranger_with_many_tags_for_one_page_cannot_pass_the_bound(db_path, tmp_path):
    """One game, asked at a new address each time: a tag and a mark each, thousands of small files."""
    folder, bound = tmp_path / "live-tags", 64 * KiB
    app = _app(db_path, folder, LIVE_TAGS_MAX_BYTES=bound)
    stranger = app.test_client()
    game = Api(stranger).create("danish")
    highest = 0
    for n in range(150):
        stranger.get(f"/g/{game['id']}/live", headers={"X-Live-Tag": "0123456789abcdef", "Host": f"h{n}.example"})
        highest = max(highest, measured(folder))
    assert highest <= bound
    assert highest > bound // 2  # it filled the folder, again and again
    assert live_tags.publisher(app).accounted() == measured(folder)
    reader = app.test_client()  # and the page still answers right, through nginx or not
    tag = _tag(reader.get(f"/g/{game['id']}").data)
    assert _poll_as_behind_nginx(reader, folder, game["id"], tag) == b""


def _flood(folder: str, database: str, first: int, count: int, bound: int) -> None:
    """One worker process keeping tags and big marks of games of its own, as fast as it can."""
    publisher = live_tags.Publisher(folder, database, tick=3600.0, max_bytes=bound)
    publisher.thread_pid = os.getpid()  # no thread of its own
    publisher.tick()  # its look at the folder, as at a worker's start
    db = sqlite3.connect(database)
    for n in range(first, first + count):
        ident = f"flood{n}"
        before = publisher.versions(db, "g", ident)
        publisher.publish(db, "g", ident, f"{n:016x}", before, "en", "x" * (3000 + 40 * (n % 100)))
    db.close()


def test_workers_writing_at_once_share_one_bound(db_path, tmp_path):
    """The count is the folder's, held under its lock across processes: four workers that each stay within the bound
    on their own do not make four times it together."""
    folder, bound = tmp_path / "live-tags", 256 * KiB
    _app(db_path, folder, LIVE_TAGS_MAX_BYTES=bound)  # the folder as the app leaves it at start
    fork = multiprocessing.get_context("fork")
    workers = [fork.Process(target=_flood, args=(str(folder), db_path, 1000 * w, 150, bound)) for w in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
        assert worker.exitcode == 0
    held = measured(folder)
    assert bound // 2 < held <= bound
    assert live_tags.Publisher(str(folder), db_path, max_bytes=bound).accounted() == held
    assert not (folder / "g" / "flood0").exists()  # the games written to longest ago went first


def test_files_older_than_the_age_go_at_the_sweep(db_path, tmp_path):
    folder = tmp_path / "live-tags"
    app = _app(db_path, folder, LIVE_TAGS_MAX_AGE=600)
    publisher = live_tags.publisher(app)
    api, reader = Api(app.test_client()), app.test_client()
    old, new = api.create("danish"), api.create("danish")
    old_tag = _tag(reader.get(f"/g/{old['id']}").data)
    new_tag = _tag(reader.get(f"/g/{new['id']}").data)
    long_ago = time.time() - 601
    for path in (folder / "g" / old["id"]).iterdir():
        os.utime(path, (long_ago, long_ago))
    publisher.sweep()
    assert not (folder / "g" / old["id"]).exists()  # its files went, and the folder they left empty
    assert (folder / "g" / new["id"] / new_tag).is_file()
    assert publisher.accounted() == measured(folder)
    # its phone is answered by the app, and its tag kept again
    assert _poll_as_behind_nginx(reader, folder, old["id"], old_tag) == b""
    assert (folder / "g" / old["id"] / old_tag).is_file()
    publisher.sweep(now=time.time() + 601)  # an hour on, nothing read again: everything goes
    assert [p for p in folder.rglob("*") if p.is_file() and p.name != live_tags.LOCK] == []
    assert publisher.accounted() == measured(folder)


def test_one_process_sweeps_at_a_time(db_path, tmp_path):
    folder = tmp_path / "live-tags"
    _app(db_path, folder, LIVE_TAGS_MAX_AGE=600)
    first, second = (live_tags.Publisher(str(folder), db_path, max_age=600) for _ in range(2))
    assert first._sweep_due() and not second._sweep_due()
    assert first.sweep_every == 60.0
    assert live_tags.Publisher(str(folder), db_path, max_age=20).sweep_every == 5.0


def test_a_worker_that_starts_keeps_what_still_stands_and_takes_away_what_changed(db_path, tmp_path):
    """Checked at start, not only emptied: a worker started again (or the heavy reads' process, or a command) finds
    the record of the folder's files, takes away the pages that changed while no app looked, and keeps the rest."""
    folder = tmp_path / "live-tags"
    app = _app(db_path, folder)
    api, reader = Api(app.test_client()), app.test_client()
    standing, changed = api.create("danish"), api.create("danish")
    standing_tag = _tag(reader.get(f"/g/{standing['id']}").data)
    changed_tag = _tag(reader.get(f"/g/{changed['id']}").data)
    with sqlite3.connect(db_path) as other:  # while no app looks: another program renames one game
        other.execute("UPDATE games SET title = 'Renamed' WHERE id = ?", (changed["id"],))
    _app(db_path, folder)
    assert (folder / "g" / standing["id"] / standing_tag).is_file()
    assert not (folder / "g" / changed["id"] / changed_tag).exists()

    (folder / live_tags.LOCK).write_bytes(b"")  # a folder without a record (an older build's): emptied at start
    again = _app(db_path, folder)
    assert [p for p in folder.rglob("*") if p.is_file() and p.name != live_tags.LOCK] == []
    assert live_tags.publisher(again).accounted() == measured(folder)


# ------------------------------------------------------------------ through the real nginx (deploy/nginx.conf, TLS)


def _call(port: int, path: str, method: str = "GET", headers=None, body=None) -> tuple[int, bytes]:
    import http.client
    import ssl

    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    for _ in range(100):  # nginx's limit_req holds one address to its rate: wait as live.js does after a 429
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


@pytest.mark.needs_program
def test_through_nginx_a_strangers_pages_stay_within_the_bound_and_a_tables_phone_is_answered_right(tmp_path):
    import json

    from helpers import waitress_in_thread
    from nginx_stack import nginx_in_front
    from scorekeeper.storage import migrate

    folder, bound = tmp_path / "live-tags", 96 * KiB
    database = str(tmp_path / "scorekeeper.sqlite")
    migrate(database)
    app = _app(database, folder, LIVE_TAGS_MAX_BYTES=bound, PROXY_FIX=1)
    with (
        waitress_in_thread(app, threads=2, clear_untrusted_proxy_headers=False) as server,
        nginx_in_front(tmp_path, server.effective_port) as nginx,
    ):
        port = nginx["tls"]
        json_headers = {"Content-Type": "application/json"}
        created = _call(
            port, "/api/games", "POST", json_headers, json.dumps({"variant": "danish", "players": list("ABCD")})
        )
        game = json.loads(created[1])
        tag = _tag(_call(port, f"/g/{game['id']}")[1])
        highest = 0
        for n in range(40):  # a stranger: the table's page at a new address each time, a page and a mark each
            _call(port, f"/g/{game['id']}/live", headers={"X-Live-Tag": "0123456789abcdef", "Host": f"s{n}.example"})
            highest = max(highest, measured(folder))
        assert bound // 2 < highest <= bound
        assert _call(port, f"/g/{game['id']}/live", headers={"X-Live-Tag": tag})[1] == b""
        hand = json.dumps(DANISH)
        assert (
            _call(
                port, f"/api/games/{game['id']}/hands", "POST", {**json_headers, "X-Edit-Key": game["edit_key"]}, hand
            )[0]
            == 201
        )
        answer = _call(port, f"/g/{game['id']}/live", headers={"X-Live-Tag": tag})[1]
        assert answer != b"" and b"hand-1" in answer  # never "nothing changed" from a file of before the hand
        assert _call(port, f"/g/{game['id']}/live", headers={"X-Live-Tag": _tag(answer)})[1] == b""
    assert measured(folder) <= bound
