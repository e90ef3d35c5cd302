"""Issue 34, F-S1: one client's flood of reads is refused before Flask, and another table's hand entry finds a thread.

The served test failed on the main of 2026-12-02: a stranger's 24 connections asking again and again for a 100-hand
game's protokoll (drawn anew for each made-up query, and not a heavy read to server/heavy.py) were all let into the
server's 8 threads, none refused; and every refusal of its heavy reads went through Flask (a page in words). Now a
made-up query is sent to the page without it, and the stranger's `?changed=…` (not kept) is within its bound.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time

import pytest

from helpers import serving
from scorekeeper import create_app
from scorekeeper.server.door_guard import DoorGuard

STRANGER = "127.0.0.2"


def _call(port, method, path, body=None, headers=None, source=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120, source_address=(source, 0) if source else None)
    try:
        conn.request(method, path, json.dumps(body) if body is not None else None, headers or {})
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


def _import(port, hands, source):
    from bench.run import game_data

    status, body = _call(
        port,
        "POST",
        "/api/games/import",
        game_data("danish", hands),
        {"Content-Type": "application/json"},
        source,
    )
    assert status == 201, body[:300]
    return json.loads(body)


@pytest.mark.needs_program
@pytest.mark.slow  # a served instance, two imported games and a flood of 24 connections
def test_a_strangers_flood_is_refused_before_the_app_and_a_table_enters_its_hands(tmp_path):
    with serving(tmp_path, LOG_LEVEL="WARNING") as (_base, port):
        table = json.loads(
            _call(
                port,
                "POST",
                "/api/games",
                {"variant": "danish", "players": ["A", "B", "C", "D"]},
                {"Content-Type": "application/json"},
            )[1]
        )
        medium = _import(port, 100, STRANGER)  # its protokoll: not a heavy read, drawn anew for every query
        big = _import(port, 150, STRANGER)
        paths = [f"/g/{medium['id']}?changed={{}}", f"/g/{big['id']}/print?x={{}}", f"/g/{big['id']}/hands.xlsx?x={{}}"]
        answers: list[tuple[str, int, int]] = []
        stop = threading.Event()

        def flood(n):
            conn = None
            i = 0
            while not stop.is_set():
                path = paths[(n + i) % len(paths)].format(n * 1000 + i)
                i += 1
                try:
                    if conn is None:
                        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120, source_address=(STRANGER, 0))
                    conn.request("GET", path)
                    answer = conn.getresponse()
                    body = answer.read()
                    answers.append((path.split("?")[0], answer.status, len(body)))
                except (OSError, http.client.HTTPException):
                    if conn is not None:
                        conn.close()
                    conn = None
            if conn is not None:
                conn.close()

        strangers = [threading.Thread(target=flood, args=(n,), daemon=True) for n in range(24)]
        for s in strangers:
            s.start()
        try:
            while len(answers) < 100:  # the flood is on
                time.sleep(0.05)
            for _ in range(3):
                status, body = _call(
                    port,
                    "POST",
                    f"/api/games/{table['id']}/hands",
                    {"passed": True},
                    {"Content-Type": "application/json", "X-Edit-Key": table["edit_key"]},
                )
                assert status == 201, body[:300]
            flooding = not any(not s.is_alive() for s in strangers)
        finally:
            stop.set()
            for s in strangers:
                s.join(120)
        assert flooding  # the hands were entered while every connection of the stranger's was still asking
        assert any(status == 200 for _, status, _ in answers)  # the stranger is served its share
        for game in (medium, big):
            mine = [(status, size) for path, status, size in answers if path.startswith(f"/g/{game['id']}")]
            # over its client's bound, a read of the stranger's is refused before Flask: no page drawn, not even the
            # refusal's, and it holds no more of the threads
            assert any(status == 429 and size == 0 for status, size in mine), sorted(set(mine))[:5]
        assert not any(status >= 500 for _, status, _ in answers)


# ---------------------------------------------------------------- whom the door counts


def _held(app):
    """The app's door, with the app inside it made to wait in every request until `release` is set."""
    door = app.wsgi_app
    assert isinstance(door, DoorGuard)
    inner = door.wsgi_app
    release, entered = threading.Event(), threading.Semaphore(0)

    def waiting(environ, start_response):
        entered.release()
        release.wait(30)
        return inner(environ, start_response)

    door.wsgi_app = waiting
    return release, entered


def _get(app, out, **environ):
    headers = environ.pop("headers", {})
    out.append(app.test_client().get("/healthz", environ_base=environ, headers=headers).status_code)


def _hold(app, entered, n, **environ):
    answers: list[int] = []
    threads = [threading.Thread(target=_get, args=(app, answers), kwargs=environ) for _ in range(n)]
    for t in threads:
        t.start()
    for _ in threads:
        assert entered.acquire(timeout=30)
    return threads, answers


def test_the_door_counts_the_client_behind_the_proxy(db_path):
    app = create_app({"DATABASE": db_path, "TESTING": True, "PROXY_FIX": 1, "REQUESTS_PER_ADDRESS": 2})
    release, entered = _held(app)
    proxy = {"REMOTE_ADDR": "10.0.0.9"}
    threads, answers = _hold(app, entered, 2, headers={"X-Forwarded-For": "203.0.113.5"}, **proxy)
    try:
        out: list[int] = []
        _get(app, out, headers={"X-Forwarded-For": "203.0.113.5"}, **proxy)
        assert out == [429]  # the third read of the client the proxy names
        other = threading.Thread(target=_get, args=(app, out), kwargs={"headers": {"X-Forwarded-For": "203.0.113.6"}})
        other.start()
        assert entered.acquire(timeout=30)  # another client behind the same proxy is let in
        posted: list[int] = []

        def write():
            headers = {"X-Forwarded-For": "203.0.113.5"}
            posted.append(app.test_client().post("/api/games/x/hands", environ_base=proxy, headers=headers).status_code)

        writer = threading.Thread(target=write)
        writer.start()
        assert entered.acquire(timeout=30)  # a write is counted, never refused by the door
    finally:
        release.set()
        for t in [*threads, other, writer]:
            t.join(30)
    assert answers == [200, 200] and out == [429, 200] and posted and posted[0] != 429


def test_files_from_disk_are_not_counted_so_a_first_visit_is_never_refused(db_path):
    """A phone's first visit asks for the page's scripts and styles and the service worker's whole precache at once;
    counted, the one a finished answer had not yet left was refused (an empty 429), and with it the service worker's
    install. The door lets files from disk by while the address's reads are all in the server."""
    app = create_app({"DATABASE": db_path, "TESTING": True, "REQUESTS_PER_ADDRESS": 2})
    door = app.wsgi_app
    inner = door.wsgi_app
    release, entered = _held(app)
    held = door.wsgi_app  # only the two pages are held in the server; a file is answered at once
    door.wsgi_app = lambda environ, start: (held if environ["PATH_INFO"] == "/healthz" else inner)(environ, start)
    threads, answers = _hold(app, entered, 2)
    try:
        out: list[int] = []
        _get(app, out)
        assert out == [429]  # the address's third read
        client = app.test_client()
        for path in ("/static/app.css", "/static/offline.js", "/sw.js", "/manifest.webmanifest"):
            with client.get(path) as answer:
                assert answer.status_code == 200, path
    finally:
        release.set()
        for t in threads:
            t.join(30)
    assert answers == [200, 200]


def test_the_door_counts_an_ipv6_phone_by_itself_and_its_network_together(db_path):
    app = create_app({"DATABASE": db_path, "TESTING": True, "REQUESTS_PER_ADDRESS": 2, "REQUESTS_PER_NETWORK": 3})
    release, entered = _held(app)
    threads, answers = _hold(app, entered, 2, REMOTE_ADDR="2001:db8::1")
    try:
        out: list[int] = []
        _get(app, out, REMOTE_ADDR="2001:db8::1")
        assert out == [429]
        more, answers2 = _hold(app, entered, 1, REMOTE_ADDR="2001:db8::2")  # another phone of the same Wi-Fi
        _get(app, out, REMOTE_ADDR="2001:db8::3")
        assert out == [429, 429]  # the /64 has its three
        elsewhere, answers3 = _hold(app, entered, 1, REMOTE_ADDR="2001:db8:1::1")  # another network: its own
    finally:
        release.set()
        for t in [*threads, *more, *elsewhere]:
            t.join(30)
    assert answers == [200, 200] and answers2 == [200] and answers3 == [200] and out == [429, 429]


def test_a_made_up_query_on_the_protokoll_is_sent_to_the_page_without_it(client, api):
    game = api.create("danish")
    r = client.get(f"/g/{game['id']}?x=1&lang=da&y=2")
    assert r.status_code == 302 and r.headers["Location"] == f"/g/{game['id']}?lang=da"
    r = client.get(f"/g/{game['id']}?x=1")
    assert r.status_code == 302 and r.headers["Location"] == f"/g/{game['id']}"
    assert client.get(f"/g/{game['id']}?lang=da&changed=1").status_code == 200
    # the service worker's word that it kept a hand (sw.js), read by offline.js: not a made-up query
    assert client.get(f"/g/{game['id']}?kept=2&why=full&what=bids").status_code == 200


@pytest.mark.parametrize("hops", [1, 2])
@pytest.mark.parametrize("forwarded", [None, "", "203.0.113.5", "198.51.100.1, 203.0.113.5", 'a,"b, c" ,d', " , "])
def test_the_door_sees_the_client_proxy_py_sees(forwarded, hops):
    from werkzeug.middleware.proxy_fix import ProxyFix

    environ = {"REMOTE_ADDR": "10.0.0.9", "REQUEST_METHOD": "GET", "PATH_INFO": "/"}
    if forwarded is not None:
        environ["HTTP_X_FORWARDED_FOR"] = forwarded
    seen = ProxyFix(lambda env, _start: env["REMOTE_ADDR"], x_for=hops)(dict(environ), None)
    assert DoorGuard(None, 6, 6, 2, proxy_hops=hops).client(environ) == seen


# ---------------------------------------------------------------- a flood held at accept


def test_an_address_refused_again_and_again_is_a_flood_for_a_while():
    from scorekeeper.server.door_guard import Floods

    floods = Floods(refusals=5, window=1.0, seconds=10.0)
    now = 100.0
    assert not any(floods.refused("10.0.0.2", now + i * 0.1) for i in range(4))  # four in a second: a phone's worst
    assert not floods.refused("10.0.0.2", now + 1.5)  # the fifth, after the window: the first of a new one
    assert [floods.refused("10.0.0.2", now + 1.6 + i * 0.01) for i in range(4)] == [False] * 3 + [True]
    assert floods.until["10.0.0.2"] == pytest.approx(now + 1.63 + 10.0)
    assert not floods.refused("10.0.0.2", now + 1.7)  # still one: not a new flood
    assert "10.0.0.3" not in floods.until


def test_a_hall_behind_one_address_refused_in_a_stall_but_mostly_let_in_is_no_flood():
    """The phones of a hall behind one IPv4 address, whose polls piled up in a stall: many refused at once, but more
    than half of what they ask let in meanwhile. A stranger asking as fast as it is refused is let in far less."""
    from scorekeeper.server.door_guard import Floods

    floods = Floods(refusals=5, window=1.0, ratio=2)
    now = 100.0
    floods.refused("192.0.2.1", now)
    for _ in range(3):
        floods.admitted("192.0.2.1")
    assert not any(floods.refused("192.0.2.1", now + 0.1) for _ in range(5))  # 6 refused, 3 let in
    assert floods.refused("192.0.2.1", now + 0.2)  # 7 refused: more than twice as often
    floods.admitted("192.0.2.9")  # not refused lately: not even counted
    assert "192.0.2.9" not in floods.counts


def test_the_door_tells_the_floods_of_its_refusals_but_not_behind_a_proxy(db_path):
    from scorekeeper.server.door_guard import Floods

    for proxy, expected in ((0, {"127.0.0.1"}), (1, set())):
        app = create_app({"DATABASE": db_path, "TESTING": True, "REQUESTS_PER_ADDRESS": 1, "PROXY_FIX": proxy})
        door = app.wsgi_app
        door.floods = Floods(refusals=3) if not proxy else door.floods
        release, entered = _held(app)
        threads, answers = _hold(app, entered, 1)
        try:
            out: list[int] = []
            for _ in range(3):
                _get(app, out)
        finally:
            release.set()
            for t in threads:
                t.join(30)
        assert out == [429] * 3 and answers == [200]
        assert (set(door.floods.until) if door.floods else set()) == expected


def test_a_flooding_address_is_held_at_accept_unanswered_then_refused(monkeypatch):
    """A flooding client's new connection is held, unread: no turn of waitress's loop is spent on it, and its request
    gets no answer until the hold ends; then 429 and closed. Its connections counted while held; another address is
    let in at once."""
    from scorekeeper.server import serve
    from scorekeeper.server.door_guard import Floods

    floods = Floods(refusals=1)
    hold = serve.Hold(seconds=1.0)
    monkeypatch.setattr(serve, "HOLD", hold)
    limits = serve.Limits(None, 3, floods=floods)
    (listener,) = serve.listeners("127.0.0.1", 0, limits)
    listener.listen(8)
    port = listener.getsockname()[1]
    floods.refused("127.0.0.2", time.monotonic())
    try:
        client = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.2", 0))
        client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        began = time.monotonic()
        with pytest.raises(BlockingIOError):
            listener.accept()
        assert len(hold) == 1 and limits.open["127.0.0.2"] == 1
        client.settimeout(30)
        answer = client.recv(4096)
        assert time.monotonic() - began >= 1.0  # not a byte before the hold ended
        assert answer.startswith(b"HTTP/1.1 429 ") and b"Retry-After: " in answer
        assert client.recv(4096) == b""  # then closed
        client.close()
        deadline = time.monotonic() + 30
        while limits.open["127.0.0.2"] and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not limits.open["127.0.0.2"] and len(hold) == 0

        # one that gives up is let go at once: an impatient client cannot fill its cap with held connections
        monkeypatch.setattr(serve, "HOLD", serve.Hold(seconds=600.0))
        impatient = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.2", 0))
        impatient.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        with pytest.raises(BlockingIOError):
            listener.accept()
        assert limits.open["127.0.0.2"] == 1
        impatient.close()
        while limits.open["127.0.0.2"] and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not limits.open["127.0.0.2"] and len(serve.HOLD) == 0

        # over its cap a flooding client is reset at once, unanswered
        held = []
        for _ in range(3):
            held.append(socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.2", 0)))
            with pytest.raises(BlockingIOError):
                listener.accept()
        assert limits.open["127.0.0.2"] == 3
        over = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.2", 0))
        with pytest.raises(BlockingIOError):
            listener.accept()
        over.settimeout(30)
        with pytest.raises(ConnectionResetError):
            over.recv(10)
        over.close()
        for sock in held:
            sock.close()

        other = socket.create_connection(("127.0.0.1", port))
        accepted, _ = listener.accept()  # another address: handed to waitress
        assert isinstance(accepted, serve.Connection)
        other.sendall(b"GET")
        assert accepted.recv(10) == b"GET"
        floods.refused("127.0.0.1", time.monotonic())  # its address floods now: its next request ends it
        other.sendall(b"GET")
        assert accepted.recv(10) == b""
        accepted.close()
        other.close()
    finally:
        listener.close()


# ---------------------------------------------------------------- reads a second


def test_a_clients_reads_a_second_are_a_token_bucket():
    from scorekeeper.server.door_guard import Rate

    rate = Rate(per_second=5)  # ten at once, then five a second
    now = 100.0
    assert [rate.take(("10.0.0.2",), now) for _ in range(11)] == [None] * 10 + ["10.0.0.2"]
    assert rate.take(("10.0.0.3",), now) is None  # another address: its own
    assert rate.take(("10.0.0.2",), now + 0.1) == "10.0.0.2"  # half a read back: not yet
    assert rate.take(("10.0.0.2",), now + 0.2) is None  # one back
    assert [rate.take(("10.0.0.2",), now + 10) for _ in range(11)] == [None] * 10 + ["10.0.0.2"]  # full, no more
    # an IPv6 phone by itself and its /64 together: a /64 with no reads left refuses its every address
    v6 = [(f"2001:db8::{i:x}", "2001:db8::/64") for i in range(1, 12)]
    assert [rate.take(keys, now) for keys in v6] == [None] * 10 + ["2001:db8::/64"]
    assert rate.buckets["2001:db8::b"][0] == 10  # nothing taken from the refused one's own


def test_reads_over_the_rate_are_refused_before_the_app_and_writes_never(db_path, monkeypatch):
    from types import SimpleNamespace

    from scorekeeper.server import door_guard

    monkeypatch.setattr(door_guard, "time", SimpleNamespace(monotonic=lambda: 1000.0))  # the clock stands still
    app = create_app({"DATABASE": db_path, "TESTING": True, "REQUESTS_PER_ADDRESS": 6, "READS_PER_SECOND": 1})
    client = app.test_client()
    statuses = [client.get("/healthz").status_code for _ in range(3)]  # two at once, then one a second
    assert statuses[:2] == [200, 200] and statuses[2] == 429
    refused = client.get("/healthz")
    assert refused.status_code == 429 and refused.data == b"" and refused.headers["Retry-After"] == "1"
    assert client.post("/api/games", json={}).status_code != 429  # a write: counted, never refused here
    with client.get("/static/app.css") as answer:
        assert answer.status_code == 200  # a file from disk: not counted
    other = client.get("/healthz", environ_base={"REMOTE_ADDR": "127.0.0.9"})
    assert other.status_code == 200
