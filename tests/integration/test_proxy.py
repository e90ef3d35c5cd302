"""Behind a reverse proxy: links that do not follow the Host header, TRUSTED_HOSTS, Secure cookies and HSTS over
HTTPS only, the client's own address; and the real thing: deploy/nginx.conf with TLS in front of waitress."""

import http.client
import io
import ssl

import pytest
import segno
from flask import request

from helpers import waitress_in_thread
from nginx_stack import nginx_in_front
from scorekeeper import create_app
from scorekeeper.clubs import service as club_service
from scorekeeper.storage import close, connect

GERMAN = {"tricks": [8, 5]}
EVIL = {"Host": "evil.example"}


def make_app(db_path, **config):
    app = create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "test", **config})

    @app.get("/_test/whoami")
    def whoami():
        return {"remote_addr": request.remote_addr, "host": request.host, "scheme": request.scheme}

    return app


def new_game(client, **headers):
    r = client.post("/api/games", json={"variant": "german", "players": ["Anna", "Bo"]}, headers=headers)
    assert r.status_code == 201, r.json
    return r.json


def qr_svg(url):
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, dark="#111", light="#fff", xmldecl=False)
    return out.getvalue()


def cookies(response):
    return response.headers.getlist("Set-Cookie")


# ------------------------------------------------------------------ the finding, as it was


def test_without_public_url_the_links_are_the_address_the_phone_used(db_path):
    client = make_app(db_path).test_client()
    game = new_game(client)
    client.get(game["edit_page"], headers={"Host": "192.168.1.20:5000"})
    html = client.get(f"/g/{game['id']}", headers={"Host": "192.168.1.20:5000"}).get_data(as_text=True)
    assert f"http://192.168.1.20:5000/g/{game['id']}" in html
    page = client.get(f"/g/{game['id']}/edit-link", headers={"Host": "192.168.1.20:5000"}).get_data(as_text=True)
    assert f"http://192.168.1.20:5000/g/{game['id']}/k/" in page  # the edit link, to this phone only


def test_without_public_url_the_qr_code_is_not_kept_by_shared_caches(db_path):
    client = make_app(db_path).test_client()
    game = new_game(client)
    r = client.get(f"/g/{game['id']}/qr.svg", headers=EVIL)
    assert r.status_code == 200
    assert r.data == qr_svg(f"http://evil.example/g/{game['id']}")
    cache = r.headers["Cache-Control"]
    assert "public" not in cache and "private" in cache and "no-cache" in cache
    assert "Host" in r.headers["Vary"]
    # The ETag is the URL's: the same phone revalidates cheaply, another Host never matches it.
    again = client.get(f"/g/{game['id']}/qr.svg", headers={**EVIL, "If-None-Match": r.headers["ETag"]})
    assert again.status_code == 304
    other = client.get(f"/g/{game['id']}/qr.svg", headers={"Host": "whist.lan", "If-None-Match": r.headers["ETag"]})
    assert other.status_code == 200 and other.headers["ETag"] != r.headers["ETag"]


# ------------------------------------------------------------------ PUBLIC_URL


def test_with_public_url_a_forged_host_gets_links_to_the_public_url_only(db_path):
    app = make_app(db_path, PUBLIC_URL="https://whist.example.org")
    client = app.test_client()
    game = new_game(client, **EVIL)
    client.get(game["edit_page"], headers=EVIL)
    html = client.get(f"/g/{game['id']}", headers=EVIL).get_data(as_text=True)
    assert f"https://whist.example.org/g/{game['id']}" in html
    assert "evil.example" not in html
    html = client.get(f"/g/{game['id']}/edit-link", headers=EVIL).get_data(as_text=True)
    assert f"https://whist.example.org/g/{game['id']}/k/" in html
    assert "evil.example" not in html
    r = client.get(f"/g/{game['id']}/qr.svg", headers=EVIL)
    assert r.data == qr_svg(f"https://whist.example.org/g/{game['id']}")
    assert "evil.example" not in r.get_data(as_text=True)

    conn = connect(db_path)
    try:
        club_id = club_service.create_club(
            conn,
            {
                "name": "Kløverklubben",
                "currency": "DKK",
                "variant": "danish",
                "options": {},
                "password": "kløver-es-42",
            },
        )
    finally:
        close(conn)
    html = client.get(f"/c/{club_id}", headers=EVIL).get_data(as_text=True)
    assert f"https://whist.example.org/c/{club_id}" in html and "evil.example" not in html


def test_public_url_with_a_path_prefix(db_path):
    client = make_app(db_path, PUBLIC_URL="https://example.org/whist/").test_client()
    game = new_game(client)
    # The proxy may pass the path on with its prefix or without it; the links carry it either way.
    for path in (f"/whist/g/{game['id']}", f"/g/{game['id']}"):
        r = client.get(path, headers=EVIL)
        assert r.status_code == 200, path
        html = r.get_data(as_text=True)
        assert f"https://example.org/whist/g/{game['id']}" in html
        assert 'href="/whist/static/app.css"' in html


@pytest.mark.parametrize("url", ["whist.example.org", "ftp://whist.example.org", "https://", "https://x.org/?a=1"])
def test_a_malformed_public_url_stops_the_start(db_path, url):
    with pytest.raises(ValueError, match="PUBLIC_URL"):
        create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "test", "PUBLIC_URL": url})


# ------------------------------------------------------------------ TRUSTED_HOSTS


def test_trusted_hosts_refuse_another_host_with_the_error_page(db_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_TRUSTED_HOSTS", '["whist.example.org"]')
    client = make_app(db_path).test_client()
    r = client.get("/", headers=EVIL)
    assert r.status_code == 400
    assert r.mimetype == "text/html" and "<title>400" in r.get_data(as_text=True)
    assert r.headers["Content-Security-Policy"].startswith("default-src 'self'")
    r = client.get("/api/games/nonesuch", headers=EVIL)
    assert r.status_code == 400 and "errors" in r.json
    assert client.get("/", headers={"Host": "whist.example.org"}).status_code == 200
    assert client.get("/", headers={"Host": "whist.example.org:8443"}).status_code == 200


# ------------------------------------------------------------------ Secure cookies, HSTS, the client's address


def test_plain_http_keeps_working_as_on_a_kitchen_table(db_path):
    client = make_app(db_path).test_client()
    game = new_game(client)
    # Without PROXY_FIX the X-Forwarded headers are anybody's: not believed.
    forged = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "6.6.6.6", "X-Forwarded-Host": "evil.example"}
    r = client.get(game["edit_page"], headers=forged)
    assert r.status_code in (302, 303)
    assert cookies(r) and not any("Secure" in c for c in cookies(r))
    assert "Strict-Transport-Security" not in r.headers
    r = client.get("/lang/da?next=/", headers=forged)
    assert cookies(r) and not any("Secure" in c for c in cookies(r))
    html = client.get(f"/g/{game['id']}", headers=forged).get_data(as_text=True)
    assert f"http://localhost/g/{game['id']}" in html and "evil.example" not in html
    assert client.get("/_test/whoami", headers=forged).json == {
        "remote_addr": "127.0.0.1",
        "host": "localhost",
        "scheme": "http",
    }


def test_behind_one_proxy_https_gives_secure_cookies_and_hsts(db_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_PROXY_FIX", "1")  # as JSON: the number 1
    app = make_app(db_path)
    assert app.config["PROXY_FIX"] == 1
    client = app.test_client()
    game = new_game(client)
    proxied = {
        "X-Forwarded-Proto": "https",
        "X-Forwarded-For": "6.6.6.6, 192.168.1.20",
        "X-Forwarded-Host": "whist.example.org",
    }
    r = client.get(game["edit_page"], headers=proxied)
    assert cookies(r) and all("Secure" in c for c in cookies(r))
    assert r.headers["Strict-Transport-Security"] == "max-age=31536000"
    r = client.get("/lang/da?next=/", headers=proxied)
    assert cookies(r) and all("Secure" in c for c in cookies(r))
    html = client.get(f"/g/{game['id']}", headers=proxied).get_data(as_text=True)
    assert f"https://whist.example.org/g/{game['id']}" in html
    # Only the last hop (the one our proxy wrote) is believed; what the client put before it is not.
    assert client.get("/_test/whoami", headers=proxied).json == {
        "remote_addr": "192.168.1.20",
        "host": "whist.example.org",
        "scheme": "https",
    }
    # The same app over plain http through the proxy: no Secure cookie, no HSTS.
    r = client.get(game["edit_page"], headers={**proxied, "X-Forwarded-Proto": "http"})
    assert cookies(r) and not any("Secure" in c for c in cookies(r))
    assert "Strict-Transport-Security" not in r.headers


def test_an_https_public_url_makes_cookies_secure_and_sends_hsts(db_path):
    client = make_app(db_path, PUBLIC_URL="https://whist.example.org", HSTS="max-age=600").test_client()
    game = new_game(client)
    r = client.get(game["edit_page"])
    assert cookies(r) and all("Secure" in c for c in cookies(r))
    assert r.headers["Strict-Transport-Security"] == "max-age=600"


# ------------------------------------------------------------------ the real thing: nginx with TLS in front


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    """nginx (deploy/nginx.conf, TLS) → waitress → the app with PROXY_FIX=1 and no PUBLIC_URL."""
    tmp = tmp_path_factory.mktemp("nginx")
    app = make_app(str(tmp / "scorekeeper.sqlite"), PROXY_FIX=1, LIVE_TAGS=str(tmp / "live-tags"))
    asked: list[str] = []  # the paths that reached the app
    inner = app.wsgi_app

    def counted(environ, start_response):
        asked.append(environ.get("PATH_INFO", ""))
        return inner(environ, start_response)

    app.wsgi_app = counted
    # waitress drops X-Forwarded-* unless told not to (see deploy/scorekeeper.env.example).
    with (
        waitress_in_thread(app, threads=2, clear_untrusted_proxy_headers=False) as server,
        nginx_in_front(tmp, server.effective_port) as nginx,
    ):
        yield {**nginx, "asked": asked, "app": app}


def call(port, method, path, *, tls=True, headers=None, body=None):
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    conn = (
        http.client.HTTPSConnection("127.0.0.1", port, timeout=10, context=context)
        if tls
        else http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    )
    try:
        conn.request(method, path, body=body, headers={"Host": f"localhost:{port}", **(headers or {})})
        r = conn.getresponse()
        return r.status, r.headers, r.read()
    finally:
        conn.close()


@pytest.mark.needs_program
def test_nginx_with_tls_in_front(stack):
    import json

    tls = stack["tls"]
    status, headers, body = call(
        tls,
        "POST",
        "/api/games",
        headers={"Content-Type": "application/json"},
        body=json.dumps({"variant": "german", "players": ["Anna", "Bo"]}),
    )
    assert status == 201, body
    game = json.loads(body)
    assert headers["Strict-Transport-Security"] == "max-age=31536000"

    status, headers, _ = call(tls, "GET", game["edit_page"])
    assert status in (302, 303)
    session = [c for c in headers.get_all("Set-Cookie") if c.startswith("session=")]
    assert session and "Secure" in session[0] and "HttpOnly" in session[0]
    cookie = session[0].split(";", 1)[0]

    status, headers, body = call(tls, "GET", f"/g/{game['id']}", headers={"Cookie": cookie})
    assert status == 200
    html = body.decode()
    assert f"https://localhost:{tls}/g/{game['id']}" in html  # the share link: the address and scheme the phone used
    assert headers["Strict-Transport-Security"] == "max-age=31536000"
    status, headers, body = call(tls, "GET", f"/g/{game['id']}/edit-link", headers={"Cookie": cookie})
    assert status == 200 and f"https://localhost:{tls}/g/{game['id']}/k/" in body.decode()
    assert "nginx/" not in headers.get("Server", "")

    status, headers, _ = call(tls, "GET", "/lang/da?next=/")
    assert all("Secure" in c for c in headers.get_all("Set-Cookie"))

    # The app sees the client, not nginx's forwarding, and not what the client claims to be.
    for forged in ({}, {"X-Forwarded-For": "6.6.6.6"}, {"X-Forwarded-For": "6.6.6.6, 7.7.7.7"}):
        status, _, body = call(tls, "GET", "/_test/whoami", headers=forged)
        assert status == 200
        assert json.loads(body) == {"remote_addr": "127.0.0.1", "host": f"localhost:{tls}", "scheme": "https"}

    # Plain http only redirects to https, and never reaches the app.
    status, headers, _ = call(stack["http"], "GET", f"/g/{game['id']}?x=1", tls=False)
    assert status == 301
    assert headers["Location"] == f"https://localhost:{tls}/g/{game['id']}?x=1"

    # nginx refuses an oversized body itself; the app's own 64 KiB limit answers just above it.
    status, _, _ = call(tls, "POST", "/api/games", headers={"Content-Type": "application/json"}, body=b"x" * 200_000)
    assert status == 413
    status, _, body = call(tls, "POST", "/api/games", headers={"Content-Type": "application/json"}, body=b"x" * 70_000)
    assert status == 413 and b"64 KiB" in body


@pytest.mark.needs_program
def test_nginx_answers_an_unchanged_poll_from_the_apps_live_tags_and_a_change_reaches_the_app(stack):
    """Issue 37: with LIVE_TAGS, a watching phone's poll of a protokoll that has not changed is answered by nginx
    itself (deploy/nginx.conf's try_files over the app's empty tag files), never reaching the app; after a hand the
    poll reaches the app, which answers what changed and keeps that answer for nginx to give the table's other phones
    that ask with the same tag; a made-up or foreign tag goes to the app, and its answer is not kept."""
    import json
    import re

    port = stack["tls"]
    status, _, body = call(
        port,
        "POST",
        "/api/games",
        headers={"Content-Type": "application/json"},
        body=json.dumps({"variant": "danish", "players": ["A", "B", "C", "D"]}),
    )
    assert status == 201, body
    game = json.loads(body)
    status, headers, page = call(port, "GET", f"/g/{game['id']}")
    cookie = headers["Set-Cookie"].split(";")[0] if headers["Set-Cookie"] else ""
    tag = re.search(rb'data-live-tag="([^"]+)"', page).group(1).decode()
    live = f"/g/{game['id']}/live"
    ask = {"X-Live-Tag": tag, "X-Live-Parts": "1", **({"Cookie": cookie} if cookie else {})}

    stack["asked"].clear()
    for _ in range(3):  # the page told the phone its tag and kept its file: even the first poll is nginx's
        status, headers, body = call(port, "GET", live, headers=ask)
        assert (status, body, headers["Content-Length"]) == (200, b"", "0")
        assert headers["Cache-Control"] == "no-store"
    assert live not in stack["asked"]  # nginx answered them

    status, _, body = call(
        port,
        "POST",
        f"/api/games/{game['id']}/hands",
        headers={"Content-Type": "application/json", "X-Edit-Key": game["edit_key"]},
        body=json.dumps({"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9}),
    )
    assert status == 201, body
    stack["asked"].clear()
    status, _, body = call(port, "GET", live, headers=ask)  # the old tag's file went with the hand
    assert status == 200 and b"hand-1" in body and stack["asked"] == [live]
    page_ask = {k: v for k, v in ask.items() if k != "X-Live-Parts"}
    status, _, page = call(port, "GET", live, headers=page_ask)  # a phone that takes the whole page
    assert status == 200 and b'id="sheet"' in page and stack["asked"] == [live, live]
    stack["asked"].clear()
    for _ in range(2):  # the table's other phones, with the same tag: the answers the app kept, given by nginx
        status, headers, again = call(port, "GET", live, headers=ask)
        assert (status, again, headers["Cache-Control"]) == (200, body, "no-store")
        assert headers["Content-Type"] == "text/html; charset=utf-8"
        status, _, again = call(port, "GET", live, headers=page_ask)
        assert (status, again) == (200, page)
    assert stack["asked"] == []
    for made_up in ("0123456789abcdef", "../../etc/passwd", ""):
        for _ in range(2):  # the app's answer to a tag it never told is never kept
            status, _, _ = call(port, "GET", live, headers={**ask, "X-Live-Tag": made_up})
            assert status == 200
    assert stack["asked"].count(live) == 6
