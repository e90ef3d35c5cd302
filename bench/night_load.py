#!/usr/bin/env python3
"""One load generator of bench/night.py (issue 47): a process driving its slice of a night's tables, with its own
asyncio loop, told what to do on its standard input and answering on its standard output, one JSON line each.

    night.py → {"kind", "web", "writes", "games", "seconds", "parts", ...}   (the block, this process's tables)
    load     ← {"loaded": n}      its phones have loaded their pages (the evening's start, not measured)
    night.py → wake
    load     ← {"ready": n}       each phone has asked once since (none has idled past nginx's keep-alive)
    night.py → go <start>         CLOCK_MONOTONIC, the same clock in every process of the machine
    load     ← {"times": ..., ...} the night, measured: every request's time from when it was due, and what went wrong

Each table has an address of its own on the loopback (127.100.0.1 and up, the table's four phones behind it as a
household's or a club's behind its router), so that a few thousand tables are a few thousand addresses, as a country's
are: the kernel's ports (some 28,000 from one address to one server) and nginx's per-address limits (deploy/nginx.conf's
limit_conn 20 and limit_req 20 r/s) meet a table's four connections and its 0.6 polls a second, not the night's.

A phone asks as a browser does: HTTP/1.1 on its own kept connection with its own session cookie, a phone's User-Agent
and `Accept-Encoding: gzip` (nginx as deployed gzips what it answers above 1 KB: the changed polls' parts), so the
answers may come chunked and gzipped; they are read as such. The generator's CPU is its own (night.py leaves it out of
the server's).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import resource
import socket
import sys
import time
import zlib

POLL_EVERY = 5.0  # seconds between two questions of a watching phone (web.live.SECONDS)
HAND_EVERY = 180.0  # seconds between two hands of a table
WATCHERS = 3  # phones watching each table's protokoll
HAND = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9}
TAG = re.compile(rb'data-live-tag="([^"]+)"')
LIVE = re.compile(rb'data-live-url="([^"]+)"')
TIMEOUT = 30.0  # a request not answered by then is an error (and its connection is closed)
LOADING = 100  # pages loaded at once by one process (the evening's start: phones arrive, they do not storm)
WAKING = 400  # phones asking at once in the wake before the night
IP_BIND_ADDRESS_NO_PORT = 24  # linux/in.h: the port is chosen at connect, by the whole 4-tuple
AGENT = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile "
    "Safari/537.36"
)
FAILURES = (TimeoutError, OSError, ConnectionError, ValueError, zlib.error)


def address(table: int) -> str:
    """The table's own loopback address (never 127.0.0.x, never a .0 or .255)."""
    return f"127.{100 + table // 64516}.{1 + table // 254 % 254}.{1 + table % 254}"


def raise_nofile() -> int:
    """The soft limit of open files raised to the hard one; the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


class Counts:
    """What went wrong or was opened, counted while `on` (the night), not while the pages load."""

    def __init__(self):
        self.on = False
        self.connects = {"phone": 0, "scorer": 0}
        self.reopened = 0  # a phone's kept connection found closed by the server while idle, asked again on a new one
        self.errors: dict[str, int] = {}

    def error(self, why: str) -> None:
        if self.on:
            self.errors[why] = self.errors.get(why, 0) + 1


class Client(asyncio.Protocol):
    """The socket's side of a Conn: the bytes of one answer gathered and read in data_received, no stream between (a
    generator's CPU is what limits how many tables one machine can drive)."""

    def __init__(self):
        self.transport = None
        self.buffer = b""
        self.waiter: asyncio.Future | None = None
        self.closed = False

    def connection_made(self, transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if self.waiter is not None and not self.waiter.done():
            answer = self.parse(False)
            if answer is not None:
                self.waiter.set_result(answer)

    def connection_lost(self, exc) -> None:
        self.closed = True
        if self.waiter is not None and not self.waiter.done():
            answer = self.parse(True) if self.buffer else None
            if answer is not None:
                self.waiter.set_result(answer)
            else:
                self.waiter.set_exception(ConnectionError("closed"))

    def parse(self, eof: bool):
        """(status, headers, body, the server closes) once the buffer holds a whole answer, else None."""
        buf = self.buffer
        end = buf.find(b"\r\n\r\n")
        if end < 0:
            return None
        lines = buf[:end].split(b"\r\n")
        status = int(lines[0].split(None, 2)[1])
        got = {}
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            got.setdefault(name.strip().lower(), value.strip())
        start = end + 4
        closes = got.get(b"connection", b"").lower() == b"close"
        if b"content-length" in got:
            stop = start + int(got[b"content-length"])
            if len(buf) < stop:
                return None
            body = buf[start:stop]
        elif got.get(b"transfer-encoding", b"").lower() == b"chunked":
            chunks, at = [], start
            while True:
                line_end = buf.find(b"\r\n", at)
                if line_end < 0:
                    return None
                size = int(buf[at:line_end].split(b";", 1)[0], 16)
                if len(buf) < line_end + 2 + size + 2:
                    return None
                if not size:
                    stop = line_end + 4  # no trailers here
                    break
                chunks.append(buf[line_end + 2 : line_end + 2 + size])
                at = line_end + 2 + size + 2
            body = b"".join(chunks)
        elif status in (204, 304) or 100 <= status < 200:
            stop, body = start, b""
        elif eof:  # the end of the connection ends the body
            stop, body, closes = len(buf), buf[start:], True
        else:
            return None
        self.buffer = buf[stop:]
        if got.get(b"content-encoding", b"").lower() == b"gzip":
            body = zlib.decompress(body, 31)
        return status, got, body, closes


class Conn:
    """One phone's kept connection: HTTP/1.1 by hand, from its table's address. A request not answered within
    TIMEOUT is ended by the process's watchdog (Night.watchdog), not by a timer of its own."""

    def __init__(self, port: int, source: str, counts: Counts, role: str):
        self.port, self.source, self.counts, self.role = port, source, counts, role
        self.client: Client | None = None
        self.cookie = b""
        self.asked = 0.0  # when the request now waiting was sent (0: none is)
        self.timed_out = False

    async def _open(self) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        loop = asyncio.get_running_loop()
        try:
            sock.setblocking(False)
            sock.setsockopt(socket.IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, 1)
            sock.bind((self.source, 0))
            await loop.sock_connect(sock, ("127.0.0.1", self.port))
            _, self.client = await loop.create_connection(Client, sock=sock)
        except BaseException:
            sock.close()
            raise
        if self.counts.on:
            self.counts.connects[self.role] += 1

    async def request(self, method: str, path: str, headers: bytes, body: bytes = b"") -> tuple[int, dict, bytes]:
        """The answer; TimeoutError after TIMEOUT, ConnectionError if the server closed the connection unanswered."""
        reused = self.client is not None
        self.asked, self.timed_out = time.monotonic(), False
        try:
            try:
                return await self._request(method, path, headers, body)
            except ConnectionError:
                if not reused or method != "GET" or self.timed_out:
                    raise
                # the server closed the kept connection while it was idle (nginx's keepalive_timeout): a browser
                # asks again on a new one, and so does the phone
                self.close()
                if self.counts.on:
                    self.counts.reopened += 1
                return await self._request(method, path, headers, body)
        except ConnectionError:
            self.close()
            if self.timed_out:
                raise TimeoutError from None
            raise
        finally:
            self.asked = 0.0

    async def _request(self, method: str, path: str, headers: bytes, body: bytes) -> tuple[int, dict, bytes]:
        if self.client is None or self.client.closed:
            self.client = None
            await self._open()
        client = self.client
        head = b"%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n%s" % (method.encode(), path.encode(), self.port, headers)
        if self.cookie:
            head += b"Cookie: " + self.cookie + b"\r\n"
        if method == "POST":
            head += b"Content-Length: %d\r\n" % len(body)
        client.waiter = waiter = asyncio.get_running_loop().create_future()
        if client.buffer:  # bytes nobody asked for: the connection is not what it should be
            raise ConnectionError("unasked bytes")
        client.transport.write(head + b"\r\n" + body)
        status, got, data, closes = await waiter
        client.waiter = None
        if b"set-cookie" in got:
            self.cookie = got[b"set-cookie"].split(b";", 1)[0]
        if closes:
            self.close()
        return status, got, data

    def expire(self, now: float) -> None:
        """Ends the request waiting since before now - TIMEOUT (the watchdog's)."""
        if self.asked and now - self.asked > TIMEOUT and self.client is not None:
            self.timed_out = True
            self.client.transport.abort()

    def close(self) -> None:
        if self.client is not None:
            self.client.transport.close()
        self.client = None


def percentiles(values: list[float]) -> dict:
    values = sorted(values)
    n = len(values)
    return {"n": n, "p50": values[n // 2], "p99": values[min(n - 1, int(n * 0.99))], "max": values[-1]}


class Night:
    """The open-loop night of this process's tables against one server."""

    def __init__(self, spec: dict):
        self.kind = spec["kind"]  # "ours" (the app, or nginx in front of it) or "floor"
        self.web, self.writes = spec["web"], spec["writes"]
        self.games = spec["games"]  # [{"id", "key", "n"}]: n, the table's number in the night (its address)
        self.seconds = spec["seconds"]
        self.parts = spec.get("parts", True)  # the phones take what changed (X-Live-Parts), as live.js does
        self.seed = spec.get("seed", 0)
        self.counts = Counts()
        self.times: dict[str, list[float]] = {"hand": [], "poll, changed": [], "poll, unchanged": []}
        self.changed_bytes: list[int] = []
        self.whole_pages = 0
        self.stale = 0  # unchanged answers to a poll asked after a hand of its table was acknowledged (ours only)
        self.late = 0  # questions asked after their next one was due (the phone was still waiting)
        self.hands: dict[str, list[tuple[float, float]]] = {}  # game: (sent, acknowledged) of each hand tonight
        self.phones: list = []
        self.scorers: list[Conn] = []

    # ------------------------------------------------------------ before the night

    async def opened(self, game: dict) -> dict | None:
        """A watching phone that has loaded its page: its connection, live address, tag and when it got that tag."""
        conn = Conn(self.web, address(game["n"]), self.counts, "phone")
        ua = b"User-Agent: " + AGENT.encode() + b"\r\nAccept: text/html\r\nAccept-Encoding: gzip\r\n"
        try:
            async with asyncio.timeout(120):
                if self.kind == "floor":
                    _, got, _ = await conn.request("GET", "/page", ua)
                    url, tag = "/page", got[b"etag"].decode()
                else:
                    _, _, page = await conn.request("GET", f"/g/{game['id']}", ua)
                    url, tag = LIVE.search(page).group(1).decode(), TAG.search(page).group(1).decode()
        except (*FAILURES, AttributeError, KeyError):
            conn.close()
            return None
        return {"conn": conn, "url": url, "tag": tag, "since": time.monotonic(), "game": game["id"]}

    def asked(self, phone: dict, changed: bool = True) -> bytes:
        if self.kind == "floor":
            return b"If-None-Match: %s\r\n" % phone["tag"].encode() + self.agent
        parts = b"X-Live-Parts: 1\r\n" if self.parts and changed else b""
        return b"X-Live-Tag: %s\r\n" % phone["tag"].encode() + parts + self.agent

    agent = b"User-Agent: " + AGENT.encode() + b"\r\nAccept: */*\r\nAccept-Encoding: gzip\r\n"

    async def wake(self, phone: dict | None) -> None:
        """One question before the night is measured (not counted), so that no kept connection has idled past
        nginx's keep-alive when it starts."""
        if phone is not None:
            try:
                async with asyncio.timeout(TIMEOUT):
                    await phone["conn"].request("GET", phone["url"], self.asked(phone))
            except FAILURES:
                phone["conn"].close()

    async def load(self) -> int:
        gate = asyncio.Semaphore(LOADING)

        async def one(game):
            async with gate:
                return await self.opened(game)

        self.phones = await asyncio.gather(*[one(g) for g in self.games for _ in range(WATCHERS)])
        return sum(p is not None for p in self.phones)

    async def wake_all(self) -> int:
        gate = asyncio.Semaphore(WAKING)

        async def one(phone):
            async with gate:
                await self.wake(phone)

        await asyncio.gather(*[one(p) for p in self.phones])
        return sum(p is not None for p in self.phones)

    # ------------------------------------------------------------ the night

    async def watcher(self, phone: dict | None, start: float, rng: random.Random) -> None:
        if phone is None:
            self.counts.error("no page")
            return
        conn, url = phone["conn"], phone["url"]
        hands = self.hands.setdefault(phone["game"], [])
        due = start + rng.uniform(0, POLL_EVERY)
        end = start + self.seconds
        while due < end:
            delay = due - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            sent = time.monotonic()
            try:
                status, got, body = await conn.request("GET", url, self.asked(phone))
            except TimeoutError:
                self.counts.error("timeout")
                conn.close()
            except FAILURES as exc:
                self.counts.error(type(exc).__name__)
                conn.close()
            else:
                now = time.monotonic()
                took = (now - due) * 1000
                if status == 200 and body:
                    self.times["poll, changed"].append(took)
                    self.changed_bytes.append(len(body))
                    self.whole_pages += b"<main" in body
                    found = TAG.search(body)
                    if found:
                        phone["tag"], phone["since"] = found.group(1).decode(), now
                elif status in (200, 304):
                    self.times["poll, unchanged"].append(took)
                    # a hand sent after this phone's tag was told it and acknowledged before this question: the
                    # answer should have been what changed
                    if any(h_sent > phone["since"] and h_ack < sent for h_sent, h_ack in hands):
                        self.stale += 1
                else:
                    self.counts.error(f"status {status}")
            due += POLL_EVERY
            if time.monotonic() > due:
                self.late += 1
        conn.close()

    async def scorer(self, game: dict, start: float, rng: random.Random) -> None:
        conn = Conn(self.writes, address(game["n"]), self.counts, "scorer")
        self.scorers.append(conn)
        due = start + rng.uniform(0, HAND_EVERY)
        body = json.dumps(HAND).encode()
        if self.kind == "floor":
            path, headers = "/floor", b"Content-Type: application/json\r\n" + self.agent
        else:
            path = f"/api/games/{game['id']}/hands"
            headers = b"Content-Type: application/json\r\nX-Edit-Key: %s\r\n" % game["key"].encode() + self.agent
        hands = self.hands.setdefault(game["id"], [])
        while due < start + self.seconds:
            delay = due - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            sent = time.monotonic()
            try:
                status, _, _ = await conn.request("POST", path, headers, body)
            except TimeoutError:
                self.counts.error("timeout")
                conn.close()
            except FAILURES as exc:
                self.counts.error(type(exc).__name__)
                conn.close()
            else:
                if status == 201:
                    now = time.monotonic()
                    self.times["hand"].append((now - due) * 1000)
                    hands.append((sent, now))
                else:
                    self.counts.error(f"status {status}")
            due += HAND_EVERY
        conn.close()

    async def watchdog(self) -> None:
        """Every second, ends the requests waiting longer than TIMEOUT (one look at every connection instead of a
        timer per request)."""
        while True:
            await asyncio.sleep(1.0)
            now = time.monotonic()
            for phone in self.phones:
                if phone is not None:
                    phone["conn"].expire(now)
            for conn in self.scorers:
                conn.expire(now)

    async def night(self, start: float) -> None:
        rng = random.Random(self.seed)
        self.counts.on = True
        self.counts.errors.clear()
        tasks = [self.watcher(phone, start, rng) for phone in self.phones]
        tasks += [self.scorer(g, start, rng) for g in self.games]
        watchdog = asyncio.get_running_loop().create_task(self.watchdog())
        await asyncio.gather(*tasks)
        watchdog.cancel()
        self.counts.on = False

    def result(self, cpu: float) -> dict:
        return {
            "times": {k: [round(v, 2) for v in values] for k, values in self.times.items()},
            "errors": self.counts.errors,
            "phone_connects": self.counts.connects["phone"],
            "scorer_connects": self.counts.connects["scorer"],
            "reopened": self.counts.reopened,
            "stale": self.stale if self.kind != "floor" else None,
            "late": self.late,
            "changed_bytes": self.changed_bytes,
            "whole_pages": self.whole_pages,
            "cpu_s": round(cpu, 3),
        }


def say(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def hear() -> str:
    line = sys.stdin.readline()
    if not line:
        raise SystemExit(0)  # night.py is gone
    return line.strip()


def main() -> None:
    raise_nofile()
    spec = json.loads(hear())
    night = Night(spec)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    say({"loaded": loop.run_until_complete(night.load())})
    if hear() != "wake":
        raise SystemExit("expected wake")
    say({"ready": loop.run_until_complete(night.wake_all())})
    word, start = hear().split()
    if word != "go":
        raise SystemExit("expected go")
    cpu = time.process_time()
    loop.run_until_complete(night.night(float(start)))
    say(night.result(time.process_time() - cpu))
    loop.close()


if __name__ == "__main__":
    main()
