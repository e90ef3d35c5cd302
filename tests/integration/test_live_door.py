"""The live pages' door (server/live_door.py): a watching phone's repeated poll answered before Flask while nothing was
committed to the database, and sent to Flask the moment anything was — by this app, another worker or another
program. Through the real SQLite file; the door's answers equal Flask's (a property test over random sequences)."""

from __future__ import annotations

import logging
import re
import shutil
import socket
import sqlite3
import tempfile
import urllib.request
from html import unescape
from pathlib import Path

import pytest
from flask import request_started
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import examples, waitress_in_thread
from scorekeeper import create_app
from scorekeeper.server.live_door import LiveDoor, mark
from scorekeeper.server.serve import SETTINGS
from scorekeeper.storage.backup import backup, restore
from variants import EXAMPLES

TAG = re.compile(r'data-live-tag="([^"]+)"')
LIVE = re.compile(r'data-live-url="([^"]+)"')
HANDS = EXAMPLES["danish"].long_hands(12, 1)


@pytest.fixture
def entered(app):
    """The requests that reached Flask (its request_started signal), read and cleared."""
    seen: list[str] = []

    def started(sender, **extra):
        from flask import request

        seen.append(request.path)

    request_started.connect(started, app)

    def read():
        out = list(seen)
        seen.clear()
        return out

    yield read
    request_started.disconnect(started, app)


def watch(client, path: str) -> tuple[str, dict]:
    html = client.get(path).get_data(as_text=True)
    return unescape(LIVE.search(html).group(1)), {"If-None-Match": f'"{TAG.search(html).group(1)}"'}


def without_date(response) -> list:
    return [(k, v) for k, v in response.headers.items() if k != "Date"]


def test_a_repeated_poll_never_enters_flask_and_answers_as_flask_did(app, api, entered):
    game = api.create("danish")
    api.hand(game, HANDS[0])
    viewer = app.test_client()
    url, asked = watch(viewer, f"/g/{game['id']}")
    entered()
    first = viewer.get(url, headers=asked)
    assert first.status_code == 304 and entered() == [url]  # Flask read the row and answered
    for _ in range(3):
        again = viewer.get(url, headers=asked)
        assert again.status_code == 304 and again.data == b""
        assert without_date(again) == without_date(first)  # its ETag, Cache-Control, security headers
    assert entered() == []


def test_anything_committed_to_this_game_sends_the_next_poll_to_flask(app, api, db_path, entered):
    game = api.create("danish")
    viewer = app.test_client()
    url, asked = watch(viewer, f"/g/{game['id']}")
    viewer.get(url, headers=asked)
    entered()
    api.hand(game, HANDS[0])  # this game's hand: the fresh page
    entered()
    r = viewer.get(url, headers=asked)
    assert r.status_code == 200 and 'id="hand-1"' in r.get_data(as_text=True) and entered() == [url]
    url, asked = watch(viewer, f"/g/{game['id']}")
    viewer.get(url, headers=asked)
    entered()
    # another program (or another worker) commits to the same file: its own connection, not this app's
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE games SET title = 'Friday at Ea''s' WHERE id = ?", (game["id"],))
    r = viewer.get(url, headers=asked)
    assert r.status_code == 200 and "Friday at Ea" in r.get_data(as_text=True) and entered() == [url]


def test_another_games_hands_leave_this_games_poll_before_flask(app, api, db_path, entered):
    """Issue 37: the door holds a poll to its own game's version, not the file's: the other tables' hands, edits,
    deletions and bids, and another program's writes to other games, leave it answering before Flask."""
    game, other = api.create("danish"), api.create("danish")
    api.hand(game, HANDS[0])
    viewer = app.test_client()
    url, asked = watch(viewer, f"/g/{game['id']}")
    assert viewer.get(url, headers=asked).status_code == 304
    entered()
    for n in range(3):
        api.hand(other, HANDS[n])
        entered()
        assert viewer.get(url, headers=asked).status_code == 304 and entered() == []
    edited = api.client.put(
        f"/api/games/{other['id']}/hands/2", json=HANDS[5], headers={"X-Edit-Key": other["edit_key"]}
    )
    deleted = api.client.delete(f"/api/games/{other['id']}/hands/3", headers={"X-Edit-Key": other["edit_key"]})
    assert edited.status_code == 200 and deleted.status_code == 200, (edited.json, deleted.json)
    gone = api.create("danish")
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE games SET title = 'Elsewhere' WHERE id = ?", (other["id"],))
        conn.execute("DELETE FROM games WHERE id = ?", (gone["id"],))
    entered()
    assert viewer.get(url, headers=asked).status_code == 304 and entered() == []


@pytest.mark.parametrize(
    "change",
    [
        "UPDATE games SET title = 'Renamed' WHERE id = :id",
        "UPDATE games SET players = replace(players, 'A', 'Ann') WHERE id = :id",
        "UPDATE games SET options = options WHERE id = :id",  # a write that changes nothing still counts
        "UPDATE games SET dealer = 1 WHERE id = :id",
        "UPDATE hands SET input = input WHERE game_id = :id",
        "DELETE FROM hands WHERE game_id = :id",
        "INSERT INTO open_deals (game_id, input, version, updated) VALUES (:id, '{\"bidder\": 1, \"bid\": 8}', 1, 'now')",
        "DELETE FROM games WHERE id = :id",
    ],
    ids=["rename", "players", "options", "dealer", "hand edited", "hands deleted", "bids", "game deleted"],
)
def test_any_write_to_this_game_by_another_program_sends_the_next_poll_to_flask(app, api, db_path, entered, change):
    game = api.create("danish")
    api.hand(game, HANDS[0])
    viewer = app.test_client()
    url, asked = watch(viewer, f"/g/{game['id']}")
    viewer.get(url, headers=asked)
    entered()
    assert viewer.get(url, headers=asked).status_code == 304 and entered() == []
    with sqlite3.connect(db_path) as conn:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(change, {"id": game["id"]})
    viewer.get(url, headers=asked)
    assert entered() == [url]


def club_table_poll(app, season):
    """A viewer's live address and tag of the first table of the season's last evening."""
    game_id, _key = season["keys"][2, 0]
    viewer = app.test_client()
    url, asked = watch(viewer, f"/g/{game_id}")
    assert viewer.get(url, headers=asked).status_code == 304
    return viewer, url, asked


def test_a_club_tables_poll_stays_before_flask_while_the_other_tables_play(app, db_path, season, entered):
    viewer, url, asked = club_table_poll(app, season)
    other, _key = season["keys"][2, 1]  # the same evening's next table: its hand, entered by another program
    entered()
    with sqlite3.connect(db_path) as conn:
        conn.execute(
            "INSERT INTO hands (game_id, input, created, updated) SELECT game_id, input, created, updated FROM hands"
            " WHERE game_id = ? ORDER BY id LIMIT 1",
            (other,),
        )
    assert viewer.get(url, headers=asked).status_code == 304 and entered() == []


@pytest.mark.parametrize(
    "change",
    [
        "UPDATE clubs SET name = 'Sparklubben' WHERE id = :club",
        "UPDATE club_members SET name = name || 'x' WHERE club_id = :club",
        "UPDATE club_evenings SET date = '2026-03-07' WHERE club_id = :club",
        "UPDATE club_seats SET member_id = member_id WHERE game_id IN (SELECT game_id FROM club_tables)",
    ],
    ids=["club renamed", "member renamed", "evening", "seats"],
)
def test_a_change_to_its_club_sends_a_club_tables_poll_to_flask(app, db_path, season, entered, change):
    viewer, url, asked = club_table_poll(app, season)
    entered()
    with sqlite3.connect(db_path) as conn:
        conn.execute(change, {"club": season["club"]})
    viewer.get(url, headers=asked)
    assert entered() == [url]


def test_a_restore_sends_every_poll_to_flask(app, api, db_path, tmp_path, entered):
    """A backup put back may hold the same versions over other rows: the restore makes a new epoch."""
    game = api.create("danish")
    viewer = app.test_client()
    url, asked = watch(viewer, f"/g/{game['id']}")
    viewer.get(url, headers=asked)
    copy = backup(db_path, str(tmp_path / "copy.sqlite"))
    entered()
    assert viewer.get(url, headers=asked).status_code == 304 and entered() == []
    restore(str(copy), db_path)
    viewer.get(url, headers=asked)
    assert entered() == [url]


@pytest.mark.parametrize(
    "changed",
    [
        {"Accept-Language": "da"},
        {"Host": "scorer.example"},
        {"If-None-Match": '"something-else"'},
        {"X-Forwarded-For": "10.1.2.3"},
    ],
    ids=["language", "host", "tag", "forwarded"],
)
def test_another_request_is_not_the_same_request(app, api, entered, changed):
    app.config["TRUSTED_HOSTS"] = None
    game = api.create("danish")
    viewer = app.test_client()
    url, asked = watch(viewer, f"/g/{game['id']}")
    viewer.get(url, headers=asked)
    viewer.get(url, headers=asked)
    entered()
    viewer.get(url, headers={**asked, **changed})
    assert entered() == [url]


def test_another_phones_cookie_is_not_the_same_request(app, api, entered):
    game = api.create("danish")
    viewer, editor = app.test_client(), app.test_client()
    url, asked = watch(viewer, f"/g/{game['id']}")
    assert viewer.get(url, headers=asked).status_code == 304
    editor.get(game["edit_page"])  # the scorer's phone: its session holds the key, so its page differs
    entered()
    assert editor.get(url, headers=asked).status_code == 200 and entered() == [url]


def test_a_query_is_part_of_the_request(app, api, entered):
    game = api.create("danish")
    viewer = app.test_client()
    url, asked = watch(viewer, f"/g/{game['id']}")
    viewer.get(url, headers=asked)
    entered()
    viewer.get(url + "?x=1", headers=asked)
    assert entered() == [url]


def test_the_door_is_off_with_live_door_false(db_path, tmp_path):
    app = create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "test", "LIVE_DOOR": False})
    seen = []

    def started(sender, **extra):
        seen.append(1)

    request_started.connect(started, app)
    client = app.test_client()
    r = client.post("/api/games", json={"variant": "german", "players": ["Ann", "Bo"], "dealer": 0})
    url, asked = watch(client, f"/g/{r.json['id']}")
    seen.clear()
    for _ in range(3):
        assert client.get(url, headers=asked).status_code == 304
    assert len(seen) == 3


def test_each_answer_writes_its_log_line_with_the_token_redacted(app, client, caplog):
    r = client.post(
        "/api/drives",
        json={
            "format": "progressive",
            "ladies": ["Ann", "Bea", "Cat", "Dot", "Eve", "Fay"],
            "gents": ["Al", "Ben", "Cy", "Dan", "Ed", "Fred"],
            "hands": 3,
        },
    )
    assert r.status_code == 201, r.json
    drive = r.json
    client.get(drive["edit_page"])
    cards = client.get(f"/d/{drive['id']}/cards").get_data(as_text=True)
    path = re.search(r'<a href="http://localhost(/d/[^"]+)" data-table="1"', cards).group(1)
    token = path.rsplit("/", 1)[1]
    phone = app.test_client()
    url, asked = watch(phone, path)
    assert phone.get(url, headers=asked).status_code == 304
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="scorekeeper.request"):
        assert phone.get(url, headers=asked).status_code == 304
    lines = [r.getMessage() for r in caplog.records if r.name == "scorekeeper.request"]
    assert len(lines) == 1 and lines[0].startswith(f"GET /d/{drive['id']}/t/1/") and " 304 " in lines[0]
    assert token not in lines[0] and "[redacted]" in lines[0]


# ---------------------------------------------------------------- the door itself, around a plain WSGI app


def plain_app(answers: list):
    """A WSGI app answering each request with the next (status, headers, marked) of `answers`; counts its calls."""
    calls = []

    def app(environ, start_response):
        status, headers, marked = answers[min(len(calls), len(answers) - 1)]
        calls.append(environ["PATH_INFO"])
        if marked:
            mark(environ)
        start_response(status, headers)
        return [b""]

    return app, calls


def environ(path: str = "/g/x/live", method: str = "GET", **headers) -> dict:
    return {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "wsgi.url_scheme": "http",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_IF_NONE_MATCH": '"t"',
        **{f"HTTP_{k.upper()}": v for k, v in headers.items()},
    }


def ask(door, env: dict) -> str:
    got = {}
    door(dict(env), lambda status, headers, exc_info=None: got.setdefault("status", status))
    return got["status"]


@pytest.mark.parametrize(
    "answer",
    [
        ("304 NOT MODIFIED", [("ETag", '"t"'), ("Set-Cookie", "session=x")], True),
        ("304 NOT MODIFIED", [("ETag", '"t"')], False),
        ("200 OK", [("ETag", '"t"')], True),
    ],
    ids=["sets a cookie", "not marked by its view", "not a 304"],
)
def test_only_a_marked_304_without_a_cookie_is_kept(tmp_path, answer):
    sqlite3.connect(tmp_path / "f.sqlite").close()
    app, calls = plain_app([answer])
    door = LiveDoor(app, str(tmp_path / "f.sqlite"))
    for _ in range(3):
        ask(door, environ())
    assert len(calls) == 3


def test_only_a_get_of_a_live_address_with_a_tag_goes_through_the_door(tmp_path):
    sqlite3.connect(tmp_path / "f.sqlite").close()
    app, calls = plain_app([("304 NOT MODIFIED", [("ETag", '"t"')], True)])
    door = LiveDoor(app, str(tmp_path / "f.sqlite"))
    for env in (environ("/g/x"), environ(method="HEAD"), {**environ(), "HTTP_IF_NONE_MATCH": None}):
        if env.get("HTTP_IF_NONE_MATCH") is None:
            env.pop("HTTP_IF_NONE_MATCH")
        ask(door, env)
        ask(door, env)
    assert len(calls) == 6
    ask(door, environ())
    ask(door, environ())
    assert len(calls) == 7


def test_the_door_keeps_at_most_its_count_the_oldest_going_first(tmp_path):
    sqlite3.connect(tmp_path / "f.sqlite").close()
    app, calls = plain_app([("304 NOT MODIFIED", [("ETag", '"t"')], True)])
    door = LiveDoor(app, str(tmp_path / "f.sqlite"), kept=2)
    for path in ("/a/live", "/b/live", "/c/live"):
        ask(door, environ(path))
    assert len(door.kept) == 2
    calls.clear()
    ask(door, environ("/c/live"))
    ask(door, environ("/a/live"))
    assert calls == ["/a/live"]


def test_a_database_that_cannot_be_read_keeps_the_door_out_of_the_way(tmp_path):
    app, calls = plain_app([("304 NOT MODIFIED", [("ETag", '"t"')], True)])
    door = LiveDoor(app, str(tmp_path / "missing" / "f.sqlite"))
    for _ in range(3):
        assert ask(door, environ()).startswith("304")
    assert len(calls) == 3


# ---------------------------------------------------------------- the door's answers are Flask's

STEPS = st.lists(
    st.sampled_from(
        ["hand", "other game's hand", "delete a hand", "outside commit", "poll", "poll as editor", "reload"]
    ),
    min_size=1,
    max_size=14,
)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS)
def test_with_the_door_or_without_every_poll_is_answered_alike(migrated_db, steps):
    """Two apps over one SQLite file, the door on in one and off in the other; the same phones (a viewer and the
    scorer) watch the same game on both through every sequence of changes: every poll gets the same status and the
    same tag from both."""
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "s.sqlite")
        shutil.copyfile(migrated_db, path)  # the schema without migrating a file per example (tests/conftest.py)
        apps = {
            door: create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "test", "LIVE_DOOR": door})
            for door in (True, False)
        }
        api = apps[False].test_client()
        game = api.post("/api/games", json={"variant": "danish", "players": ["A", "B", "C", "D"], "dealer": 0}).json
        other = api.post("/api/games", json={"variant": "danish", "players": ["E", "F", "G", "H"], "dealer": 0}).json
        phones = {door: {"viewer": a.test_client(), "editor": a.test_client()} for door, a in apps.items()}
        for door in apps:
            phones[door]["editor"].get(game["edit_page"])
        watched = {(door, who): watch(phones[door][who], f"/g/{game['id']}") for door in apps for who in phones[door]}
        hands = {game["id"]: 0, other["id"]: 0}

        def hand(g):
            r = api.post(
                f"/api/games/{g['id']}/hands", json=HANDS[hands[g["id"]] % 12], headers={"X-Edit-Key": g["edit_key"]}
            )
            assert r.status_code == 201, r.json
            hands[g["id"]] += 1

        for step in steps:
            if step == "hand":
                hand(game)
            elif step == "other game's hand":
                hand(other)
            elif step == "delete a hand" and hands[game["id"]]:
                r = api.delete(
                    f"/api/games/{game['id']}/hands/{hands[game['id']]}", headers={"X-Edit-Key": game["edit_key"]}
                )
                assert r.status_code == 200, r.json
                hands[game["id"]] -= 1
            elif step == "outside commit":  # another program: a title changed in the file itself
                with sqlite3.connect(path) as conn:
                    conn.execute("UPDATE games SET title = title || 'x' WHERE id = ?", (game["id"],))
            elif step == "reload":
                for door in apps:
                    watched[(door, "viewer")] = watch(phones[door]["viewer"], f"/g/{game['id']}")
            else:
                who = "editor" if step == "poll as editor" else "viewer"
                answers = []
                for door in apps:
                    url, asked = watched[(door, who)]
                    for _ in range(2):  # the second is the one the door may answer
                        r = phones[door][who].get(url, headers=asked)
                    tag = TAG.search(r.get_data(as_text=True)).group(1) if r.status_code == 200 else None
                    answers.append((r.status_code, r.headers.get("ETag"), tag))
                assert answers[0] == answers[1], step


# ---------------------------------------------------------------- a watching phone keeps its connection


def polls_on_one_connection(port: int, url: str, tag: str, count: int) -> bytes:
    """`count` polls as live.js sends them, one after the other on one socket; what came back until it went quiet."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        got = b""
        for _ in range(count):
            conn.sendall(f"GET {url} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Live-Tag: {tag}\r\n\r\n".encode())
            head = b""
            while b"\r\n\r\n" not in head:
                data = conn.recv(65536)
                if not data:
                    return got + head
                head += data
            got += head
        return got


def test_a_watching_phone_keeps_its_connection_under_waitress(app, api):
    """Issue 37: waitress closes the connection after every 304 (it has no Content-Length); live.js's question is
    answered with an empty 200 instead, by Flask and by the door alike, and the next poll comes on the same socket."""
    game, other = api.create("danish"), api.create("danish")
    with waitress_in_thread(app, **{**SETTINGS, "threads": 2}) as server:
        port = server.effective_port
        html = urllib.request.urlopen(f"http://127.0.0.1:{port}/g/{game['id']}", timeout=10).read().decode()
        url, tag = unescape(LIVE.search(html).group(1)), TAG.search(html).group(1)
        got = polls_on_one_connection(port, url, tag, 3)  # the first through Flask, the others the door's
        api.hand(other, HANDS[0])
        got += polls_on_one_connection(port, url, tag, 2)
    heads = [h for h in got.split(b"\r\n\r\n") if h]
    assert len(heads) == 5 and all(h.startswith(b"HTTP/1.1 200 OK") for h in heads), got
    assert all(b"Content-Length: 0" in h and b"Connection: close" not in h for h in heads), got
    assert all(f'etag: "{tag}"'.encode() in h.lower() for h in heads), got


def test_live_js_question_is_answered_alike_by_flask_and_the_door(app, api, entered):
    game = api.create("danish")
    viewer = app.test_client()
    url, asked = watch(viewer, f"/g/{game['id']}")
    question = {"X-Live-Tag": asked["If-None-Match"].strip('"')}
    first = viewer.get(url, headers=question)
    assert entered() and first.status_code == 200 and first.data == b"" and first.headers["Content-Length"] == "0"
    again = viewer.get(url, headers=question)
    assert entered() == [] and without_date(again) == without_date(first) and again.data == b""
    api.hand(game, HANDS[0])
    entered()
    fresh = viewer.get(url, headers=question)
    assert entered() == [url] and fresh.status_code == 200 and 'id="hand-1"' in fresh.get_data(as_text=True)
