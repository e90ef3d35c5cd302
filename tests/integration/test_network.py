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
    app = limited_app(db_path, IDEMPOTENCY_MAX_AGE=3600, IDEMPOTENCY_KEEP=0)
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
    app = limited_app(db_path, IDEMPOTENCY_MAX_AGE=3600, IDEMPOTENCY_PURGE_EVERY=0, IDEMPOTENCY_KEEP=0)
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


def test_a_clock_that_jumps_forward_purges_no_recent_key(db_path):
    """Issue 34, F-F4: a Raspberry Pi boots with last week's time, NTP then sets it a month on: the next purge must
    not forget the keys of the hands just entered, or a retry doubles a hand."""
    from datetime import UTC, datetime, timedelta

    clock = [datetime(2026, 1, 10, 20, 0, tzinfo=UTC)]
    app = limited_app(db_path, CLOCK=lambda: clock[0], IDEMPOTENCY_PURGE_EVERY=0)
    client = app.test_client()
    game = client.post("/api/games", json={"variant": "danish", "players": PLAYERS["danish"]}).json
    headers = {"X-Edit-Key": game["edit_key"], "Idempotency-Key": "hand-1"}
    assert client.post(f"/api/games/{game['id']}/hands", json={"passed": True}, headers=headers).status_code == 201
    clock[0] += timedelta(days=30)
    client.get("/")  # the first request after the jump purges
    r = client.post(f"/api/games/{game['id']}/hands", json={"passed": True}, headers=headers)
    assert r.status_code in (200, 201) and r.json["number"] == 1
    assert len(client.get(f"/api/games/{game['id']}").json["hands"]) == 1


def test_keys_beyond_the_newest_of_each_game_are_purged_by_age(db_path):
    from scorekeeper.server import guard

    app = limited_app(db_path, IDEMPOTENCY_MAX_AGE=3600, IDEMPOTENCY_KEEP=2)
    client = app.test_client()
    game = client.post("/api/games", json={"variant": "danish", "players": PLAYERS["danish"]}).json
    for i in range(4):
        headers = {"X-Edit-Key": game["edit_key"], "Idempotency-Key": f"k{i}"}
        assert client.post(f"/api/games/{game['id']}/hands", json={"passed": True}, headers=headers).status_code == 201
    conn = sqlite3.connect(db_path)
    conn.execute("UPDATE idempotency_keys SET created = '2020-01-01T00:00:00+00:00'")
    conn.commit()
    conn.close()
    assert guard.purge_keys_now(app) == 2
    conn = sqlite3.connect(db_path)
    assert [r[0] for r in conn.execute("SELECT key FROM idempotency_keys ORDER BY key")] == ["k2", "k3"]
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


@pytest.mark.needs_program
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


# ---------------------------------------------------------------- issue 34, F-S1: heavy reads kept and bounded


def big_game(client, hands=40):
    """A Danish game of many hands, made by one import (as the attack made its 500-hand game)."""
    from bench.run import game_data

    r = client.post("/api/games/import", json=game_data("danish", hands))
    assert r.status_code == 201, r.json
    return r.json


def test_a_strangers_heavy_reads_are_kept_per_version(db_path, monkeypatch):
    from flask import template_rendered

    from scorekeeper.server import heavy
    from scorekeeper.web import xlsx

    heavy.PAGES.clear()
    app = limited_app(db_path)
    owner, stranger = app.test_client(), app.test_client()
    game = big_game(owner)
    drawn: list[str] = []

    def record(sender, template, context, **extra):
        drawn.append(template.name)

    template_rendered.connect(record, app)
    books = []
    real = xlsx.workbook
    monkeypatch.setattr(xlsx, "workbook", lambda sheets: books.append(1) or real(sheets))
    for _ in range(3):
        assert stranger.get(f"/g/{game['id']}").status_code == 200
        assert stranger.get(f"/g/{game['id']}/print").status_code == 200
        assert stranger.get(f"/g/{game['id']}/hands.xlsx").status_code == 200
    assert drawn.count("games/protokoll.html") == 1 and drawn.count("print/sheet.html") == 1 and len(books) == 1
    etag = stranger.get(f"/g/{game['id']}/print").headers["ETag"]
    again = stranger.get(f"/g/{game['id']}/print", headers={"If-None-Match": etag})
    assert again.status_code == 304
    r = owner.post(f"/api/games/{game['id']}/hands", json={"passed": True}, headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == 201
    assert "passed" in stranger.get(f"/g/{game['id']}").get_data(as_text=True).lower()
    stranger.get(f"/g/{game['id']}/hands.xlsx")
    assert drawn.count("games/protokoll.html") == 2 and len(books) == 2  # a new version: drawn once more
    # the table's own phone (its edit key) is drawn for it, with its buttons, never from the stranger's copy
    assert owner.get(f"/g/{game['id']}/k/{game['edit_key']}").status_code == 302
    assert 'id="enter-hand"' in owner.get(f"/g/{game['id']}").get_data(as_text=True)


def test_heavy_reads_drawn_at_once_are_bounded_per_address_and_in_all(db_path, monkeypatch):
    import threading

    from scorekeeper.games import paper
    from scorekeeper.server import heavy

    heavy.PAGES.clear()
    app = limited_app(db_path, HEAVY_READS_PER_ADDRESS=2, HEAVY_READS_AT_ONCE=3)
    game = big_game(app.test_client(), hands=5)
    release, started = threading.Event(), threading.Semaphore(0)
    real = paper.sheet_context

    def slow(*args, **kwargs):
        started.release()
        release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(paper, "sheet_context", slow)

    def fetch(address, path, out):
        client = app.test_client()
        out.append(client.get(path, environ_base={"REMOTE_ADDR": address}))

    answers: list = []
    held = [
        threading.Thread(target=fetch, args=("10.0.0.1", f"/g/{game['id']}/print?n={n}", answers)) for n in range(2)
    ]
    for t in held:
        t.start()
    for _ in held:
        assert started.acquire(timeout=30)
    try:
        third: list = []
        fetch("10.0.0.1", f"/g/{game['id']}/print?n=3", third)
        (refused,) = third
        assert refused.status_code == 429 and refused.headers["Retry-After"].isdigit()
        assert "too many large pages at once" in refused.get_data(as_text=True)
        other = threading.Thread(target=fetch, args=("10.0.0.2", f"/g/{game['id']}/print?n=4", answers))
        other.start()
        assert started.acquire(timeout=30)  # another address is drawn
        busy: list = []
        fetch("10.0.0.3", f"/g/{game['id']}/print?n=5", busy)
        assert busy[0].status_code == 503 and busy[0].headers["Retry-After"].isdigit()
        assert "busy drawing large pages" in busy[0].get_data(as_text=True)
    finally:
        release.set()
        for t in [*held, other]:
            t.join(30)
    assert [a.status_code for a in answers] == [200, 200, 200]
    kept: list = []
    fetch("10.0.0.1", f"/g/{game['id']}/print?n=3", kept)
    assert kept[0].status_code == 200  # the places are given back


def test_a_strangers_heavy_read_is_drawn_by_a_process_of_its_own(db_path, caplog):
    """The drawing process (HEAVY_ELSEWHERE): its CPU and interpreter lock are not the hand entry's; what it draws is
    the page this worker would have drawn."""
    from scorekeeper.server import heavy

    heavy.PAGES.clear()
    here = limited_app(db_path)
    game = big_game(here.test_client(), hands=120)
    there = limited_app(db_path, HEAVY_ELSEWHERE=True)
    try:
        for path in (f"/g/{game['id']}?lang=da", f"/g/{game['id']}/print?lang=da", f"/g/{game['id']}/hands.xlsx"):
            heavy.PAGES.clear()
            drawn = there.test_client().get(path, headers={"Accept-Language": "da"})
            assert drawn.status_code == 200 and heavy._pool[0] is not None, path
            heavy.PAGES.clear()
            local = here.test_client().get(path, headers={"Accept-Language": "da"})
            if path.endswith(".xlsx"):
                assert len(drawn.data) > 1000 and drawn.data[:2] == b"PK"
            else:
                assert drawn.get_data(as_text=True) == local.get_data(as_text=True), path
        assert "drawn here" not in caplog.text
    finally:
        if heavy._pool[0] is not None:
            heavy._pool[0].shutdown()
            heavy._pool[0] = None


def test_a_heavy_read_drawn_elsewhere_speaks_the_readers_chosen_language(db_path):
    """The drawing process sees no session: a reader who chose Danish by the language link (kept in the session) got
    an English print page from it."""
    from scorekeeper.server import heavy

    heavy.PAGES.clear()
    there = limited_app(db_path, HEAVY_ELSEWHERE=True)
    game = big_game(there.test_client(), hands=120)
    reader = there.test_client()
    try:
        reader.get("/lang/da?next=/")
        page = reader.get(f"/g/{game['id']}/print", headers={"Accept-Language": "en"})
        assert page.status_code == 200 and heavy._pool[0] is not None
        assert '<html lang="da"' in page.get_data(as_text=True)
    finally:
        if heavy._pool[0] is not None:
            heavy._pool[0].shutdown()
            heavy._pool[0] = None


ORPHAN_SCRIPT = """
import os, sys
from scorekeeper import create_app
from bench.run import game_data
app = create_app({"TESTING": True, "DATABASE": sys.argv[1], "SECRET_KEY": "t", "HEAVY_ELSEWHERE": True})
client = app.test_client()
game = client.post("/api/games/import", json=game_data("danish", 120)).json
assert client.get(f"/g/{game['id']}/print").status_code == 200  # drawn by the drawing process
assert client.get(f"/g/{game['id']}/sheet.pdf").status_code == 200  # by the PDF renderer's processes
print("ready", flush=True)
sys.stdin.read()
"""


@pytest.mark.needs_program
def test_the_drawing_and_renderer_processes_end_with_the_worker_that_started_them(db_path):
    """A worker killed (SIGKILL, the OOM killer) left its drawing process and PDF renderers running for good, holding
    the database file open: a spawned child keeps both ends of its queue's pipe and never reads its end."""
    with subprocess.Popen(
        [sys.executable, "-c", ORPHAN_SCRIPT, db_path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as worker:
        try:
            assert worker.stdout.readline().strip() == "ready"
            children = [int(p) for p in Path(f"/proc/{worker.pid}/task/{worker.pid}/children").read_text().split()]
            drawing = [p for p in children if b"multiprocessing" in Path(f"/proc/{p}/cmdline").read_bytes()]
            assert len(drawing) >= 2, children  # the drawing process and the renderers (and their trackers)
        finally:
            worker.kill()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and any(Path(f"/proc/{p}").exists() for p in drawing):
        time.sleep(0.2)
    assert not [p for p in drawing if Path(f"/proc/{p}").exists()], "left running after their worker was killed"


def test_a_big_games_watching_phone_gets_what_changed_from_a_page_drawn_elsewhere(db_path):
    """Issue 37: a big game's page is drawn by the drawing process (its bytes); a phone showing it is still sent only
    what changed after a hand."""
    import re

    from scorekeeper.server import heavy

    heavy.PAGES.clear()
    there = limited_app(db_path, HEAVY_ELSEWHERE=True)
    game = big_game(there.test_client(), hands=120)
    viewer = there.test_client()
    try:
        page = viewer.get(f"/g/{game['id']}").get_data(as_text=True)
        assert heavy._pool[0] is not None
        url = re.search(r'data-live-url="([^"]+)"', page).group(1)
        tag = re.search(r'data-live-tag="([^"]+)"', page).group(1)
        hand = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9}
        r = there.test_client().post(
            f"/api/games/{game['id']}/hands", json=hand, headers={"X-Edit-Key": game["edit_key"]}
        )
        assert r.status_code == 201, r.json
        delta = viewer.get(url, headers={"X-Live-Tag": tag, "X-Live-Parts": "1"}).get_data(as_text=True)
        assert "data-live-delta" in delta and 'data-live-after="hand-120" id="hand-121"' in delta
    finally:
        if heavy._pool[0] is not None:
            heavy._pool[0].shutdown()
            heavy._pool[0] = None
