"""Issue 12: what a stranger on the network can do to the app, and what it may no longer do.

Each test here failed on the main of 2026-11-30: open redirects, 500s on non-ASCII digits, no rate limits, no
storage guard, idempotency keys kept forever, and a server that slow clients could take away from everyone.
"""

import os
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from helpers import PASSWORD, PLAYERS, dump, token
from scorekeeper import create_app

ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------- one safe redirect helper, used by every `next`

EVIL = [
    "/%09/evil.example/phish",
    "/\t/evil.example/phish",
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "https://evil.example/",
    "/%0d/evil.example",
    "/%0a/evil.example",
    "/\r\n/evil.example",
    " //evil.example",
    "/%5Cevil.example",
    "javascript:alert(1)",
    "/\x00/evil.example",
    "/ /evil.example",
]


def host_a_browser_goes_to(location: str) -> str:
    """Where a browser on https://site.example/ goes with this Location (WHATWG URL parsing, as far as it matters):
    it drops tabs and newlines anywhere and leading/trailing spaces and controls, reads backslashes as slashes."""
    from urllib.parse import urljoin, urlsplit

    cleaned = "".join(c for c in location if c not in "\t\n\r").strip(
        "\x00\x01\x02\x03\x04\x05\x06\x07\x08"
        "\x0b\x0c\x0e\x0f\x10\x11\x12\x13\x14\x15"
        "\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f "
    )
    cleaned = cleaned.replace("\\", "/")
    return urlsplit(urljoin("https://site.example/", cleaned)).netloc


def assert_stays(response):
    assert response.status_code in (302, 303), response.status_code
    location = response.headers["Location"]
    assert location.startswith("/") and not location.startswith("//"), location
    assert host_a_browser_goes_to(location) == "site.example", location


@pytest.mark.parametrize("target", EVIL)
def test_language_switch_never_leaves_the_site(client, target):
    assert_stays(client.get("/lang/da", query_string={"next": target}))


def test_language_switch_with_a_raw_tab_in_the_query(client):
    assert_stays(client.get("/lang/da?next=/%09/evil.example/phish"))
    assert_stays(client.get("/lang/da?next=/%0d/evil.example/phish"))
    assert_stays(client.get("/lang/da?next=/%0a/evil.example/phish"))


def test_language_switch_keeps_a_path_on_the_site(client):
    r = client.get("/lang/da", query_string={"next": "/g/abc?x=1"})
    assert r.headers["Location"] == "/g/abc?x=1"


@pytest.mark.parametrize("target", EVIL)
def test_club_login_never_redirects_off_the_site(app, client, db_path, target):
    from scorekeeper.clubs import service as club_service
    from scorekeeper.storage import close, connect

    db = connect(db_path)
    try:
        club_id = club_service.create_club(
            db, {"name": "Kløverklubben", "currency": "DKK", "variant": "danish", "options": {}, "password": PASSWORD}
        )
    finally:
        close(db)
    r = client.post(
        f"/c/{club_id}/login",
        data={"csrf_token": token(client, f"/c/{club_id}/login"), "password": PASSWORD, "next": target},
    )
    assert_stays(r)


# ---------------------------------------------------------------- one strict parser for every number in a URL or form


@pytest.mark.parametrize("field", ["rows", "dealer", "seats", "target", "deals", "tariff", "solo_values"])
@pytest.mark.parametrize("digits", ["²", "١٢", "１２", "1_0", "+7", "0x1", "7.0"])
def test_blank_sheet_refuses_digits_that_are_not_ascii(client, field, digits):
    variant = "classic" if field in ("target", "deals") else "danish"
    r = client.get(f"/blank/{variant}", query_string={field: digits})
    assert r.status_code == 400, (field, digits, r.status_code)
    assert field.encode() in r.data


def test_blank_sheet_number_error_speaks_the_readers_language(client):
    r = client.get("/blank/danish", query_string={"rows": "²"}, headers={"Accept-Language": "da"})
    assert r.status_code == 400
    assert b"helt tal" in r.data.lower() or b"heltal" in r.data.lower(), r.data.decode()[:2000]


def test_numbers_in_forms_are_ascii_only():
    from scorekeeper.web.inputs import whole_number

    assert whole_number("12") == 12
    for raw in ("²", "١٢", "１２", "1_0", " 7", "+7", "-1", "", None, "0x1", "99999999999"):
        assert whole_number(raw) is None, raw
    assert whole_number("-3", negative=True) == -3


# ---------------------------------------------------------------- rate limits on writes without a key


def limited_app(db_path, **extra):
    return create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "t", "RATELIMIT_ENABLED": True, **extra})


def test_creating_games_is_rate_limited_per_address(db_path):
    app = limited_app(db_path, LIMIT_NEW_GAMES="5 per minute")
    client = app.test_client()
    body = {"variant": "german", "players": PLAYERS["german"]}
    codes = [client.post("/api/games", json=body).status_code for _ in range(7)]
    assert codes == [201] * 5 + [429, 429]
    r = client.post("/api/games", json=body)
    assert "Retry-After" in r.headers and "errors" in r.json
    other = app.test_client()
    r = other.post("/api/games", json=body, environ_base={"REMOTE_ADDR": "10.9.8.7"})
    assert r.status_code == 201  # another address is not refused


def test_default_limit_lets_a_club_start_its_evening(db_path):
    """Twenty phones behind one address start ten tables, each a game and a retry, within a minute: all pass."""
    app = limited_app(db_path)
    client = app.test_client()
    body = {"variant": "danish", "players": PLAYERS["danish"]}
    assert all(client.post("/api/games", json=body).status_code == 201 for _ in range(20))


def test_imports_are_rate_limited(db_path):
    app = limited_app(db_path, LIMIT_IMPORTS="2 per minute")
    client = app.test_client()
    game = client.post("/api/games", json={"variant": "german", "players": PLAYERS["german"]}).json
    exported = client.get(f"/api/games/{game['id']}/export").json
    codes = [client.post("/api/games/import", json=exported).status_code for _ in range(3)]
    assert codes == [201, 201, 429]


def test_new_game_page_is_rate_limited(db_path):
    app = limited_app(db_path, LIMIT_NEW_GAMES="1 per minute", WTF_CSRF_ENABLED=False)
    client = app.test_client()
    data = {f"player{i}": name for i, name in enumerate(PLAYERS["german"])}
    first = client.post("/new/german", data=data)
    assert first.status_code == 302, first.data[:500]
    second = client.post("/new/german", data=data)
    assert second.status_code == 429
    assert b"<html" in second.data.lower()


def test_hand_entry_with_the_key_is_not_limited_by_game_creation(db_path):
    app = limited_app(db_path, LIMIT_NEW_GAMES="1 per minute")
    client = app.test_client()
    game = client.post("/api/games", json={"variant": "german", "players": PLAYERS["german"]}).json
    for _ in range(10):
        r = client.post(
            f"/api/games/{game['id']}/hands", json={"tricks": [7, 6]}, headers={"X-Edit-Key": game["edit_key"]}
        )
        if r.status_code == 409:  # the game is over
            break
        assert r.status_code == 201


# ---------------------------------------------------------------- the storage guard


def test_no_new_game_when_the_database_is_too_big(db_path):
    app = limited_app(db_path, MAX_DATABASE_BYTES=1)
    client = app.test_client()
    before = dump(db_path)
    r = client.post("/api/games", json={"variant": "german", "players": PLAYERS["german"]})
    assert r.status_code == 507 and "errors" in r.json
    assert dump(db_path) == before


def test_no_import_when_the_disk_is_nearly_full(db_path):
    app = limited_app(db_path)
    client = app.test_client()
    game = client.post("/api/games", json={"variant": "german", "players": PLAYERS["german"]}).json
    exported = client.get(f"/api/games/{game['id']}/export").json
    app.config["MIN_FREE_DISK_BYTES"] = 10**18
    before = dump(db_path)
    r = client.post("/api/games/import", json=exported)
    assert r.status_code == 507
    assert dump(db_path) == before
    # a game already started goes on: its table must not lose the evening
    r = client.post(f"/api/games/{game['id']}/hands", json={"tricks": [7, 6]}, headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == 201


def test_new_game_page_says_the_storage_is_full(db_path):
    app = limited_app(db_path, MAX_DATABASE_BYTES=1, WTF_CSRF_ENABLED=False)
    r = app.test_client().post("/new/german", data={"player0": "Anna", "player1": "Bo"})
    assert r.status_code == 507 and b"<html" in r.data.lower()


# ---------------------------------------------------------------- idempotency keys are purged


def test_old_idempotency_keys_are_purged(db_path):
    app = limited_app(db_path, IDEMPOTENCY_MAX_AGE=3600)
    client = app.test_client()
    game = client.post("/api/games", json={"variant": "danish", "players": PLAYERS["danish"]}).json
    headers = {"X-Edit-Key": game["edit_key"]}
    for i in range(3):
        r = client.post(
            f"/api/games/{game['id']}/hands", json={"passed": True}, headers={**headers, "Idempotency-Key": f"k{i}"}
        )
        assert r.status_code == 201
    conn = sqlite3.connect(db_path)
    conn.execute("UPDATE idempotency_keys SET created = '2020-01-01T00:00:00+00:00' WHERE key IN ('k0', 'k1')")
    conn.commit()
    conn.close()
    from scorekeeper.server import guard

    guard.purge_keys_now(app)
    conn = sqlite3.connect(db_path)
    left = [r[0] for r in conn.execute("SELECT key FROM idempotency_keys ORDER BY key")]
    conn.close()
    assert left == ["k2"]
    # the recent key still makes a retry harmless
    r = client.post(
        f"/api/games/{game['id']}/hands", json={"passed": True}, headers={**headers, "Idempotency-Key": "k2"}
    )
    assert r.status_code in (200, 201)
    assert len(client.get(f"/api/games/{game['id']}").json["hands"]) == 3


def test_keys_are_purged_by_requests_without_a_command(db_path):
    app = limited_app(db_path, IDEMPOTENCY_MAX_AGE=3600, IDEMPOTENCY_PURGE_EVERY=0)
    client = app.test_client()
    game = client.post("/api/games", json={"variant": "danish", "players": PLAYERS["danish"]}).json
    client.post(
        f"/api/games/{game['id']}/hands",
        json={"passed": True},
        headers={"X-Edit-Key": game["edit_key"], "Idempotency-Key": "old"},
    )
    conn = sqlite3.connect(db_path)
    conn.execute("UPDATE idempotency_keys SET created = '2020-01-01T00:00:00+00:00'")
    conn.commit()
    conn.close()
    client.get("/")
    conn = sqlite3.connect(db_path)
    assert conn.execute("SELECT count(*) FROM idempotency_keys").fetchone()[0] == 0
    conn.close()


# ---------------------------------------------------------------- slow clients cannot starve the server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def served(tmp_path):
    """The app as the README's run command serves it (scorekeeper.server.serve), on 127.0.0.1 and a free port."""
    port = free_port()
    env = {
        "SCOREKEEPER_DATABASE": str(tmp_path / "served.sqlite"),
        "SCOREKEEPER_SECRET_KEY": "x",
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": os.environ["PYTHONPATH"],
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.server.serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(base + "/", timeout=2).read()
            break
        except OSError as exc:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise AssertionError("the server did not start: " + proc.stderr.read().decode()[-2000:]) from exc
            time.sleep(0.2)
    yield base, port
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
    proc.stderr.close()


def slow_client(port: int) -> socket.socket:
    """From 127.0.0.2, another client than the page's reader (one client may hold only so many sockets)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=("127.0.0.2", 0))
    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the blank line that ends the headers
    return s


@pytest.mark.slow  # 50 slowloris clients against the server
def test_slow_clients_do_not_starve_the_server(served):
    base, port = served
    slow = [slow_client(port) for _ in range(50)]
    try:
        for s in slow:
            s.sendall(b"X-Slow: 1\r\n")
        for _ in range(5):
            started = time.monotonic()
            body = urllib.request.urlopen(base + "/", timeout=10).read()
            assert b"<html" in body.lower()
            assert time.monotonic() - started < 3
    finally:
        for s in slow:
            s.close()


def test_the_readme_run_command_uses_the_buffering_server():
    makefile = (ROOT / "Makefile").read_text()
    run = makefile.split("\nrun:")[1].split("\n\n")[0]
    assert (
        "-m scorekeeper serve" in run and "gunicorn" not in run
    )  # scorekeeper/__main__.py: server/serve.py's waitress
