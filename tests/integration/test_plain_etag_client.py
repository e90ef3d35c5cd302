"""Issue 47: a plain ETag client of a live page (`If-None-Match`, no X-Live-Tag: a script, a feed reader, another
app) keeps its connection across a `304` where a club hosts the app: behind nginx as deploy/nginx.conf puts it (TLS,
each table on one worker), whose connection to the client is its own. Served directly (`make run`, waitress 3.0.2)
the connection is closed after every `304`: waitress sends no Content-Length on an answer that may carry none and
closes instead (its pull request #502 would mend it; the app keeps to waitress's public API). That test is a strict
xfail: the day waitress keeps the connection, it fails, and docs/operations.md's sentence about it goes."""

from __future__ import annotations

import http.client
import json
import ssl

import pytest

from nginx_stack import nginx_in_front, served_per_worker

NEW_GAME = {"variant": "classic", "players": ["Ida", "Anna", "Carl", "Eva"]}
POLLS = 5
JSON = {"Content-Type": "application/json"}


class Counted:
    """http.client's connection, counting the TCP connections it opens (it opens another when the server closed)."""

    connects = 0

    def connect(self):
        type(self).connects += 1
        super().connect()


class CountedHTTPS(Counted, http.client.HTTPSConnection):
    connects = 0


class CountedHTTP(Counted, http.client.HTTPConnection):
    connects = 0


def polled(conn: http.client.HTTPConnection, host: str) -> list[int]:
    """A game made, its live page asked once for its ETag, then POLLS times with If-None-Match: the statuses."""
    conn.request("POST", "/api/games", body=json.dumps(NEW_GAME), headers={"Host": host, **JSON})
    made = conn.getresponse()
    assert made.status == 201
    game = json.loads(made.read())
    conn.request("GET", f"/g/{game['id']}/live", headers={"Host": host})
    first = conn.getresponse()
    first.read()
    assert first.status == 200
    tag = first.getheader("ETag")
    assert tag
    statuses = []
    for _ in range(POLLS):
        conn.request("GET", f"/g/{game['id']}/live", headers={"Host": host, "If-None-Match": tag})
        answer = conn.getresponse()
        assert answer.read() == b""
        statuses.append(answer.status)
    return statuses


@pytest.mark.needs_program
def test_a_plain_etag_client_keeps_its_connection_across_304s_behind_nginx(tmp_path):
    env = {
        "SCOREKEEPER_DATABASE": str(tmp_path / "scorekeeper.sqlite"),
        "SCOREKEEPER_SECRET_KEY": "plain-etag",
        "SCOREKEEPER_PROXY_FIX": "1",
        "SCOREKEEPER_LIVE_TAGS": str(tmp_path / "live-tags"),
    }
    with served_per_worker(tmp_path, env) as app, nginx_in_front(tmp_path, app["ports"]) as nginx:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        conn = CountedHTTPS("127.0.0.1", nginx["tls"], timeout=30, context=context)
        try:
            statuses = polled(conn, f"localhost:{nginx['tls']}")
        finally:
            conn.close()
    assert statuses == [304] * POLLS
    assert CountedHTTPS.connects == 1, f"the client connected {CountedHTTPS.connects} times for {POLLS + 2} requests"


@pytest.mark.needs_program
@pytest.mark.xfail(strict=True, reason="waitress 3.0.2 closes the connection after every 304 (issue 47)")
def test_a_plain_etag_client_keeps_its_connection_across_304s_served_directly(tmp_path):
    env = {"SCOREKEEPER_DATABASE": str(tmp_path / "scorekeeper.sqlite"), "SCOREKEEPER_SECRET_KEY": "plain-etag"}
    with served_per_worker(tmp_path, env, workers=1) as app:  # asked on the shared port, as make run serves it
        conn = CountedHTTP("127.0.0.1", app["port"], timeout=30)
        try:
            statuses = polled(conn, f"127.0.0.1:{app['port']}")
        finally:
            conn.close()
    assert statuses == [304] * POLLS
    assert CountedHTTP.connects == 1, f"the client connected {CountedHTTP.connects} times for {POLLS + 2} requests"
