"""Issue 22, finding 10: no log line keeps a secret, however its path was spelt.

The secrets in paths are found from the URL map itself (every route with a <key> or <token>), so a new route that
carries one is covered here without a line of this file changing. On the main of 2026-12-01 a drive table's token
was logged in clear, and so were edit keys in /g/<id>//k/<key>, /g/<id>/k//<key> and /g/<id>/K/<key>.
"""

import json
import logging
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from urllib.parse import quote

import pytest

from helpers import PLAYERS, free_port
from scorekeeper.clubs import service as club_service
from scorekeeper.drives import service as drive_service
from scorekeeper.storage import close, connect

SECRET_ARGUMENTS = {"key", "token"}
COUPLES = {"title": "Julewhist", "format": "couples", "pairs": [["A", "B"], ["C", "D"], ["E", "F"], ["G", "H"]]}


def secret_routes(app):
    return sorted((r for r in app.url_map.iter_rules() if set(r.arguments) & SECRET_ARGUMENTS), key=lambda r: r.rule)


@pytest.fixture
def secrets_of(client, db_path):
    """Real values for each secret route's arguments: a game and its key, a drive, its key and table 1's token."""
    game = client.post("/api/games", json={"variant": "german", "players": PLAYERS["german"]}).json
    drive = client.post("/api/drives", json=COUPLES).json
    db = connect(db_path)
    table_token = drive_service.table_token(drive_service.load(db, drive["id"]), 1)
    club_id = club_service.create_club(
        db, {"name": "Kløver", "currency": "DKK", "variant": "german", "password": "kløver-es-42"}
    )
    members = [club_service.add_member(db, club_id, name) for name in PLAYERS["german"]]
    evening_id = club_service.create_evening(db, club_id, "2026-12-01")
    table_game = club_service.add_table(db, club_id, evening_id, members)[0]
    code = club_service.evening(db, club_id, evening_id).tables[0].record.code
    assert table_game and code
    close(db)
    return {
        "clubs": {"club_id": club_id, "key": code},
        "games": {"game_id": game["id"], "key": game["edit_key"]},
        "drives": {"drive_id": drive["id"], "key": drive["edit_key"], "table": 1, "token": table_token},
    }


def canonical(rule, values) -> tuple[str, str]:
    """The route's path with real values, and the secret in it."""
    args = values[
        {"g": "games", "d": "drives", "c": "clubs"}[rule.rule.split("/")[1]]
    ]  # a new kind of secret path: add its values
    path = rule.rule
    for name in rule.arguments:
        path = path.replace(f"<int:{name}>", str(args[name])).replace(f"<{name}>", str(args[name]))
    (secret_name,) = set(rule.arguments) & SECRET_ARGUMENTS
    return path, str(args[secret_name])


def spellings(path: str, secret: str) -> list[str]:
    """Ways a phone, a messenger or a stranger may spell the same path: each still names the secret."""
    head, _, _ = path.rpartition("/" + secret)
    base, marker_and_more = head.split("/", 3)[:3], head.split("/", 3)[3]  # "", "g", "<id>" | "k" or "t/1"
    prefix = "/".join(base)
    out = [
        path,
        f"{prefix}//{marker_and_more}/{secret}",
        f"{prefix}/{marker_and_more}//{secret}",
        f"{prefix}/{marker_and_more.upper()}/{secret}",
        f"{prefix}/./{marker_and_more}/{secret}",
        f"{prefix}\\{marker_and_more}\\{secret}",
        f"{prefix}/{marker_and_more}/{secret}/",
        f"{prefix}/{marker_and_more}/{secret}?lang=da",
        prefix.replace("/g/", "//g/").replace("/d/", "//d/").replace("/c/", "//c/") + f"/{marker_and_more}/{secret}",
        prefix + "/" + quote(marker_and_more, safe="").replace("k", "%6B").replace("t", "%74") + "/" + secret,
        prefix + quote(f"/{marker_and_more}/", safe="") + secret,
        f"/lang/da?next={quote(path, safe='')}",
        f"/lang/da?next={quote(quote(path, safe=''), safe='')}",
    ]
    return out


def test_every_secret_route_is_found(app):
    endpoints = {r.endpoint for r in secret_routes(app)}
    assert {"games.claim", "drives.claim", "drives.table", "clubs.claim_code"} <= endpoints


def test_no_spelling_of_a_secret_path_reaches_the_request_log(app, client, secrets_of, caplog):
    caplog.set_level(logging.INFO)
    leaks = []
    for rule in secret_routes(app):
        path, secret = canonical(rule, secrets_of)
        for spelling in spellings(path, secret):
            caplog.clear()
            client.get(spelling)
            # a development server's or a proxy's line, as werkzeug and gunicorn write it (their filters are ours)
            logging.getLogger("werkzeug").info('%s - - [x] "%s" %s -', "127.0.0.1", f"GET {spelling} HTTP/1.1", 200)
            logging.getLogger("gunicorn.access").info('"GET %s HTTP/1.1" 200', spelling)
            lines = [record.getMessage() for record in caplog.records]
            assert len(lines) >= 3, (spelling, lines)
            leaks += [(spelling, line) for line in lines if secret in line]
    assert not leaks, leaks


def test_redaction_keeps_the_rest_of_the_line():
    from scorekeeper.server.security import redact

    assert redact("GET /g/Qn3w/hands/new 200 1.2ms") == "GET /g/Qn3w/hands/new 200 1.2ms"
    assert redact("GET /g/Qn3w/K/secret 404 0.3ms") == "GET /g/Qn3w/K/[redacted] 404 0.3ms"
    assert redact("POST /d/Dr1/t/4/tok?x=1 302") == "POST /d/Dr1/t/4/[redacted]?x=1 302"
    assert redact("GET /c/C1/login?next=%2Fc%2FC1%2Fsettings 200") == "GET /c/C1/login?next=%2Fc%2FC1%2Fsettings 200"


def test_the_served_apps_log_keeps_no_secret(tmp_path):
    """`python -m scorekeeper.server.serve` (waitress, the root logger's handler): its stderr after the odd spellings."""
    port = free_port()
    env = {
        "SCOREKEEPER_DATABASE": str(tmp_path / "s.sqlite"),
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
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(base + "/healthz", timeout=2).read()
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, "the server did not start"
                time.sleep(0.2)
        request = urllib.request.Request(
            base + "/api/games",
            data=b'{"variant": "german", "players": ["Anna", "Bo"]}',
            headers={"Content-Type": "application/json"},
        )
        made = json.loads(urllib.request.urlopen(request, timeout=10).read())
        game, secret = made["id"], made["edit_key"]
        for path in (f"/g/{game}//k/{secret}", f"/g/{game}/k//{secret}", f"/g/{game}/K/{secret}"):
            try:
                urllib.request.urlopen(base + path, timeout=10).read()
            except urllib.error.HTTPError:
                pass
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert f"/g/{game}" in err  # the requests were logged …
    assert secret not in err  # … without the key


# Issue 27: redact() first looks whether a text may hold a secret at all (every request's line asks, twice).
from hypothesis import example, given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from scorekeeper.server.security import redact, redact_fully  # noqa: E402

PIECES = ["/", "//", "\\", "k", "K", "t", "T", ".", "%2F", "%6B", "%25", "?", "&", ";", "=", "key", "token", "g", "d",
          "abc123", " ", '"', "<", "#", "/k/", "/t/", "x"]  # fmt: skip


@given(st.lists(st.sampled_from(PIECES), max_size=14).map("".join))
@example("/g/abc/%6B/secret")  # each one of the quick look's signs, alone
@example("/g/abc%2Fk%2Fsecret")
@example("/g/abc\\k\\secret")
@example("/d/abc/T/1/secret")
@example("/g/abc?key=secret")
@example("/g/abc;k=secret")
@example("/g/abc&token=secret")
def test_the_quick_look_never_lets_a_secret_through(text):
    assert redact(text) == redact_fully(text)


def test_the_quick_look_passes_a_plain_path_as_it_is():
    assert redact("POST /api/games/Ab3_x-9/hands 201 1.2ms") == "POST /api/games/Ab3_x-9/hands 201 1.2ms"
    assert redact("GET /g/Ab3/k/SECRET 200") == "GET /g/Ab3/k/[redacted] 200"
