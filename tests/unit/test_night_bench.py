"""bench/night.py's own parts (issue 47), without running a night: how a generator reads an answer (a length, chunks,
gzip, a 304, a body ended by the connection's end), that every table has an address of its own on the loopback, and
that the nginx configurations it writes from deploy/nginx.conf (the proxy as deployed, the floor logging as deployed)
are what nginx accepts, so that a change to deploy/nginx.conf that the benchmark no longer follows fails here."""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
try:
    import night  # (bench/night.py)
    import night_load  # (bench/night_load.py)
finally:  # bench/'s other modules (live, drives, run...) must not shadow anything for the rest of the session
    sys.path[:] = [p for p in sys.path if p != str(ROOT / "bench")]


def answer(*pieces: bytes, eof: bool = False):
    client = night_load.Client()
    for piece in pieces:
        client.buffer += piece
    return client.parse(eof), client.buffer


def test_an_answer_with_its_length_and_the_next_bytes_left():
    head = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nSet-Cookie: s=1; Path=/\r\n\r\n"
    (status, got, body, closes), rest = answer(head, b"hello", b"HTTP/1.1")
    assert (status, body, closes, rest) == (200, b"hello", False, b"HTTP/1.1")
    assert got[b"set-cookie"] == b"s=1; Path=/"
    assert answer(head, b"hel")[0] is None  # not all there yet


def test_a_chunked_gzipped_answer_is_read_whole():
    page = b'<div data-live-tag="0123456789abcdef">' + b"x" * 3000
    packed = gzip.compress(page)
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in (packed[:40], packed[40:]))
    head = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n"
    (status, _, body, _), rest = answer(head, chunks, b"0\r\n\r\n")
    assert (status, body, rest) == (200, page, b"")
    assert answer(head, chunks)[0] is None  # the last chunk not yet there


def test_a_304_has_no_body_and_a_body_without_length_ends_with_the_connection():
    (status, _, body, closes), _ = answer(b'HTTP/1.1 304 Not Modified\r\nETag: "1"\r\n\r\n')
    assert (status, body, closes) == (304, b"", False)
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\nsome"
    assert answer(head)[0] is None
    (status, _, body, closes), _ = answer(head, eof=True)
    assert (status, body, closes) == (200, b"some", True)
    (_, _, _, closes), _ = answer(b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    assert closes


def test_every_table_has_an_address_of_its_own_on_the_loopback():
    addresses = [night_load.address(n) for n in range(20_000)]
    assert len(set(addresses)) == len(addresses)
    for a in addresses:
        first, second, third, fourth = (int(x) for x in a.split("."))
        assert first == 127 and second >= 100 and 0 < third < 255 and 0 < fourth < 255


def test_the_floor_logs_with_deploy_nginx_confs_own_format_and_map():
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    logging = night.logging_of(site)
    assert logging.startswith("map $request_uri $scorekeeper_logged_uri {")
    assert "log_format scorekeeper '$remote_addr" in logging and logging.rstrip().endswith("';")
    assert "access_log" not in logging and "server {" not in logging


def test_the_app_behind_nginx_is_started_with_a_port_per_worker_unless_the_tree_is_older():
    """deploy/nginx.conf's upstream lists one server a worker (issue 47), so the night starts the app with
    --port-per-worker; a tree of before (--app-root), whose upstream lists the shared port 5000, is served as it was;
    any other upstream stops the night with what to update."""
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    listed = night.upstream_ports(site)
    assert len(listed) >= 2 and night.per_worker(site)
    older = site.replace("\n".join(f"    server 127.0.0.1:{port};" for port in listed), "    server 127.0.0.1:5000;")
    assert night.upstream_ports(older) == [5000] and not night.per_worker(older)
    with pytest.raises(SystemExit, match="update bench/night.py"):
        night.upstream_ports(site.replace("server 127.0.0.1:5001;", "server 127.0.0.1:6001;"))


@pytest.mark.needs_program  # nginx -t
def test_nginx_takes_the_proxy_and_the_floor_as_night_writes_them(tmp_path):
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    assert Path(binary).exists(), "nginx is not installed: run scripts/system-packages.sh (make test does)"
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    tags = tmp_path / "tags"
    tags.mkdir()
    for name, conf in (
        ("proxy", lambda here: night.proxy_conf(here, 18080, 18081, tags, [18084, 18085, 18086], 2, 4096, site)),
        ("floor", lambda here: night.floor_conf(here, 18083, 2, 4096, site)),
    ):
        here = tmp_path / name
        (here / "site").mkdir(parents=True)
        text = conf(here)
        assert "worker_connections 3896;" in text and "worker_rlimit_nofile 4096;" in text
        (here / "nginx.conf").write_text(text)
        check = subprocess.run(
            [binary, "-t", "-p", str(here), "-c", str(here / "nginx.conf")], capture_output=True, text=True, timeout=30
        )
        assert check.returncode == 0, check.stderr
        if name == "proxy":
            assert "listen 127.0.0.1:18080;" in text and "ssl_certificate" not in text and " 443 " not in text
            assert f"root {tags};" in text and "limit_req zone=scorekeeper_req" in text
            upstream = [
                line.strip() for line in text.split("upstream scorekeeper {", 1)[1].split("}", 1)[0].splitlines()
            ]
            servers = [f"server 127.0.0.1:{port};" for port in (18084, 18085, 18086)]
            assert [line for line in upstream if line] == [
                "hash $scorekeeper_table consistent;",
                *servers,
                "keepalive 8;",
            ]
            assert f"access_log {here / 'access.log'} scorekeeper;" in text
        else:
            assert f"access_log {here / 'access.log'} scorekeeper;" in text


@pytest.mark.slow  # real time: a few seconds of a small night
def test_a_small_night_against_a_server_that_never_changes_counts_its_stale_answers(monkeypatch):
    """Two tables against a toy server whose live twin always says "nothing changed": every poll asked after a hand of
    its table was acknowledged is a stale answer; each kind of request is timed; no phone connects again."""
    import asyncio
    import concurrent.futures

    monkeypatch.setattr(night_load, "POLL_EVERY", 0.3)
    monkeypatch.setattr(night_load, "HAND_EVERY", 1.0)
    page = b'<main data-live-url="/g/a/live" data-live-tag="0123456789abcdef"></main>'

    async def serve(reader, writer):
        try:
            await answers(reader, writer)
        finally:
            writer.close()

    async def answers(reader, writer):
        while True:
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except (asyncio.IncompleteReadError, ConnectionError):
                return
            if head.startswith(b"POST"):
                length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
                await reader.readexactly(length)
                writer.write(b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n")
            elif b"/live " in head.split(b"\r\n")[0]:
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
            else:
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nSet-Cookie: s=1\r\n\r\n%s" % (len(page), page))

    async def night():
        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        games = [{"id": "a", "key": "k", "n": 0}, {"id": "a", "key": "k", "n": 1}]
        n = night_load.Night({"kind": "ours", "web": port, "writes": port, "games": games, "seconds": 2.5})
        assert await n.load() == 6 and await n.wake_all() == 6
        await n.night(asyncio.get_running_loop().time() + 0.05)
        await asyncio.sleep(0.1)  # the phones' connections closed, the server's side too
        server.close()
        await server.wait_closed()
        return n.result(0.0)

    # A thread of its own: a browser test before it on the same worker may leave an event loop running in this one.
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        result = thread.submit(lambda: asyncio.run(night())).result()
    assert len(result["times"]["hand"]) >= 2 and len(result["times"]["poll, unchanged"]) >= 40
    assert result["errors"] == {} and result["phone_connects"] == 0 and result["scorer_connects"] == 2
    assert result["stale"] > 0
