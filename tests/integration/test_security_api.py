"""Access: security headers, the edit key on every write, and the edit key kept out of answers and logs."""

import logging
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from helpers import PLAYERS, Server, call, dump
from scorekeeper import create_app
from scorekeeper.server.security import HEADERS

CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
)
GERMAN = {"tricks": [8, 5]}


everything = dump  # every table, read straight from the file


def assert_headers(response):
    assert response.headers["Content-Security-Policy"] == CSP
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"  # Flask-WTF wants a Referer over HTTPS
    assert response.headers["X-Frame-Options"] == "DENY"


def test_the_documented_policy_is_the_one_sent():
    assert HEADERS["Content-Security-Policy"] == CSP


@pytest.fixture
def game(api):
    game = api.create("german")
    api.hand(game, GERMAN)
    return game


@pytest.mark.parametrize(
    "method,path,status",
    [
        ("get", "/api/games/{id}", 200),
        ("get", "/api/games/{id}/log", 200),
        ("get", "/api/games/{id}/export", 200),
        ("get", "/api/games/nonesuch", 404),
        ("post", "/api/games/{id}/hands", 403),
        ("post", "/api/games", 400),
        ("get", "/", 200),
        ("get", "/g/{id}", 200),
        ("get", "/g/nonesuch", 404),
        ("get", "/g/{id}/k/wrong", 403),
    ],
)
def test_security_headers_on_every_response(client, game, method, path, status):
    r = getattr(client, method)(path.format(id=game["id"]), json={} if method == "post" else None)
    assert r.status_code == status
    assert_headers(r)


def test_security_headers_on_the_edit_link_redirect(client, game):
    r = client.get(game["edit_page"])
    assert r.status_code in (302, 303)
    assert_headers(r)


WRITES = [
    ("post", "/api/games/{id}/hands", GERMAN),
    ("put", "/api/games/{id}/hands/1", {"tricks": [9, 4]}),
    ("delete", "/api/games/{id}/hands/1", None),
]


@pytest.mark.parametrize("method,path,data", WRITES)
@pytest.mark.parametrize("key", ["missing", "", "wrong", "other game", "upper case", "prefix", "with space"])
def test_every_write_route_needs_the_right_edit_key(client, api, db_path, game, method, path, data, key):
    other = api.create("german")
    keys = {
        "missing": None,
        "": "",
        "wrong": "x" * 32,
        "other game": other["edit_key"],
        "upper case": game["edit_key"].upper(),
        "prefix": game["edit_key"][:-1],
        "with space": game["edit_key"] + " ",
    }
    headers = {} if keys[key] is None else {"X-Edit-Key": keys[key]}
    before = everything(db_path)
    r = getattr(client, method)(path.format(id=game["id"]), json=data, headers=headers)
    assert r.status_code == 403, r.json
    assert r.json == {"errors": {"X-Edit-Key": "missing or wrong edit key for this game"}}
    assert everything(db_path) == before


@pytest.mark.parametrize("method,path,data", WRITES)
def test_a_write_with_the_right_key_succeeds(client, game, method, path, data):
    r = getattr(client, method)(path.format(id=game["id"]), json=data, headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code in (200, 201)


def test_edit_keys_are_long_random_secrets_and_only_their_hash_is_stored(api, db_path):
    games = [api.create("german") for _ in range(20)]
    keys = [g["edit_key"] for g in games]
    assert len(set(keys)) == len(keys) and all(len(k) >= 32 for k in keys)
    raw = b"".join(Path(p).read_bytes() for p in (db_path, db_path + "-wal") if Path(p).exists())
    assert not any(k.encode() in raw for k in keys)


def test_edit_key_never_in_read_only_answers(client, game):
    key = game["edit_key"]
    for path in ("/api/games/{id}", "/api/games/{id}/log", "/api/games/{id}/export", "/g/{id}", "/"):
        r = client.get(path.format(id=game["id"]))
        assert r.status_code == 200, path
        assert key not in r.get_data(as_text=True), path
    assert "edit_key" not in client.get(f"/api/games/{game['id']}").json


def test_werkzeug_request_log_redacts_the_edit_page(tmp_path, caplog):
    from werkzeug.serving import make_server

    app = create_app({"DATABASE": str(tmp_path / "log.sqlite"), "SECRET_KEY": "log", "GC_FREEZE": False})
    game = app.test_client().post("/api/games", json={"variant": "german", "players": PLAYERS["german"]}).json
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with caplog.at_level(logging.INFO, logger="werkzeug"):
            for path in (game["edit_page"], f"/g/{game['id']}/k/{'y' * 32}"):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{server.server_port}{path}", timeout=5)
                except urllib.error.HTTPError:
                    pass  # the wrong key: 403, logged all the same
    finally:
        server.shutdown()
        thread.join(5)
    logged = caplog.text
    assert f"/g/{game['id']}/k/[redacted]" in logged
    assert game["edit_key"] not in logged and "y" * 32 not in logged


@pytest.mark.needs_program
def test_gunicorn_access_log_redacts_the_edit_page(tmp_path):
    access = tmp_path / "access.log"
    server = Server(tmp_path / "live.sqlite", tmp_path / "gunicorn.log", ["--access-logfile", str(access)]).start()
    try:
        status, game = call(server.url + "/api/games", "POST", {"variant": "german", "players": PLAYERS["german"]})
        assert status == 201
        opener = urllib.request.build_opener(
            type("NoRedirect", (urllib.request.HTTPRedirectHandler,), {"redirect_request": lambda *a, **k: None})
        )
        try:
            opener.open(server.url + game["edit_page"], timeout=30)
        except urllib.error.HTTPError as exc:
            assert exc.code in (302, 303)
    finally:
        server.stop()
    logged = access.read_text()
    assert f"/g/{game['id']}/k/[redacted]" in logged
    assert game["edit_key"] not in logged and game["edit_key"] not in (tmp_path / "gunicorn.log").read_text()


def test_sessions_are_signed_with_the_configured_secret(app, client, game):
    assert app.config["SECRET_KEY"] == "test"
    r = client.get(game["edit_page"])
    cookie = r.headers.get("Set-Cookie", "")
    assert "session=" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
