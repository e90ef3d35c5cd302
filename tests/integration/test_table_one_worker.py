"""Issue 47: behind nginx each table's requests are served by one worker. deploy/nginx.conf as shipped (TLS,
tests/nginx_stack.py) in front of the app as deploy/scorekeeper.service starts it (`scorekeeper serve --workers N
--port-per-worker`, N the servers the upstream lists): one game's page, its live poll and its hands through the JSON
API all reach one worker, two games can reach different ones, and a request that names no table is spread over them.
Which worker answered is the app's request log (each line names its worker)."""

from __future__ import annotations

import http.client
import json
import re
import ssl
from pathlib import Path

import pytest

from nginx_stack import deployed_workers, nginx_in_front, served_per_worker

NEW_GAME = {"variant": "classic", "players": ["Ida", "Anna", "Carl", "Eva"]}
HAND = {"trump": "hearts", "tricks": [7, 6]}
LOGGED = re.compile(r"\[worker (\d+)\] scorekeeper\.request: (\S+) (\S+) (\d+) ")
GAMES = 20  # made at most until two land on different workers (each does with one chance in two)


class Phone:
    """One kept HTTPS connection to nginx, as a phone's browser keeps it."""

    def __init__(self, port: int):
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        self.conn = http.client.HTTPSConnection("127.0.0.1", port, timeout=30, context=context)
        self.host = f"localhost:{port}"

    def ask(self, method: str, path: str, body: dict | None = None, headers: dict | None = None) -> tuple[int, bytes]:
        sent = {"Host": self.host, **(headers or {})}
        if body is not None:
            sent["Content-Type"] = "application/json"
        self.conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=sent)
        response = self.conn.getresponse()
        return response.status, response.read()


def served(log: Path) -> list[tuple[int, str, str, int]]:
    """(worker, method, path, status) of every request the app logged."""
    return [(int(k), method, path, int(status)) for k, method, path, status in LOGGED.findall(log.read_text())]


@pytest.mark.needs_program
def test_a_tables_requests_reach_one_worker_and_two_tables_can_reach_two(tmp_path):
    log = tmp_path / "app.log"
    env = {
        "SCOREKEEPER_DATABASE": str(tmp_path / "scorekeeper.sqlite"),
        "SCOREKEEPER_SECRET_KEY": "one-worker",
        "SCOREKEEPER_PROXY_FIX": "1",
        "SCOREKEEPER_LIVE_TAGS": str(tmp_path / "live-tags"),
    }
    assert deployed_workers() >= 2, "deploy/nginx.conf's upstream lists one server a worker"
    with (
        served_per_worker(tmp_path, env, log=log) as app,
        nginx_in_front(tmp_path, app["ports"]) as nginx,
    ):
        phone = Phone(nginx["tls"])
        try:
            tables = one_worker_a_table(phone, log)
            spread = spread_over_workers(phone, log)
        finally:
            phone.conn.close()
    assert set().union(*tables.values()) == {1, 2}, f"{len(tables)} games, all on one worker: {tables}"
    assert spread == {1, 2}, "/healthz through nginx always reached one worker"


def one_worker_a_table(phone: Phone, log: Path) -> dict[str, set[int]]:
    """Games made through nginx and played a little, each by its page, its poll and its hands by the JSON API, until
    two were served by different workers (GAMES at most): each game's workers, one each."""
    tables: dict[str, set[int]] = {}
    while len(tables) < GAMES and len(set().union(*tables.values()) if tables else ()) < 2:
        status, body = phone.ask("POST", "/api/games", NEW_GAME)
        assert status == 201, body
        game = json.loads(body)
        key = {"X-Edit-Key": game["edit_key"]}
        assert phone.ask("GET", f"/g/{game['id']}")[0] == 200
        assert phone.ask("GET", f"/g/{game['id']}/live")[0] == 200  # no tag: nginx passes it to the app
        assert phone.ask("POST", f"/api/games/{game['id']}/hands", HAND, key)[0] == 201
        assert phone.ask("POST", f"/api/games/{game['id']}/hands", HAND, key)[0] == 201
        assert phone.ask("GET", f"/g/{game['id']}/live")[0] == 200
        assert phone.ask("GET", f"/api/games/{game['id']}")[0] == 200
        lines = [(k, method, path) for k, method, path, _status in served(log) if f"/{game['id']}" in path]
        assert len(lines) == 6, lines  # every one reached the app
        tables[game["id"]] = {k for k, _method, _path in lines}
        assert len(tables[game["id"]]) == 1, f"one game's requests reached workers {lines}"
    return tables


def spread_over_workers(phone: Phone, log: Path) -> set[int]:
    """The workers that answered a request naming no table (/healthz), asked until two did (60 at most)."""
    spread: set[int] = set()
    for n in range(60):
        assert phone.ask("GET", f"/healthz?n={n}")[0] == 200
        spread = {k for k, _method, path, _status in served(log) if path.startswith("/healthz?n=")}
        if len(spread) == 2:
            break
    return spread
