"""The door's guard: one client's excess requests refused before Flask, so that it never holds the threads another
table's hand entry needs (issue 34, F-S1).

The server has a few threads (`scorekeeper serve`: 8), and every request holds one from the moment a thread takes it
until its answer is written. A stranger with 40 connections asking for heavy pages was answered `429` by
server/heavy.py, but each of those refusals went through Flask (the session, the limiter, a row read): thousands a
second, each a thread's turn and the interpreter's time, while the table's hand waited for both. This layer, the
outermost of the WSGI app, counts each client's requests in flight and answers the excess itself, in a few
microseconds, without Flask, the session or the database:

- a read (GET, HEAD, …; not of a file from disk: /static/, the service worker and its manifest) of an address that
  has REQUESTS_PER_ADDRESS reads in the server already (or whose IPv6 /64 has REQUESTS_PER_NETWORK) is answered
  `429` with `Retry-After: 1`: one address never holds more than that share of the threads, and the others always
  find one free. A write is neither counted nor refused here (issue 43: a hall's phones share one address with
  whoever else is behind it, and a table is never refused its next hand, guard.EDIT_KEY); the writes that make rows
  have their own limits in Flask;
- a read of an address (or IPv6 /64) that has asked for more than READS_PER_SECOND reads a second, on average over
  two seconds (a token bucket: READS_PER_SECOND a second, twice that at once), is answered `429` with `Retry-After: 1`:
  a share of the threads bounds the threads, not the interpreter, and a client whose reads are each let in and
  answered at once (a redirect, a kept page) could ask for thousands a second within its share. A hall's phones behind
  one address ask a few a second (a watching phone every five seconds);
- a path that server/heavy.py has counted as a heavy read (it says so by `mark`, as it counts it; the door remembers
  the path, without its query, for HEAVY_PATH_SECONDS) is answered `429` while its client (`guard.client`: the
  address, an IPv6 /64) has HEAVY_READS_PER_ADDRESS heavy requests in flight: what heavy.py would answer (with its
  Retry-After), before Flask.

- an address whose reads the door has refused FLOOD_REFUSALS times within FLOOD_WINDOW seconds, and more than
  FLOOD_RATIO times as often as it let its requests in meanwhile, is a flood for FLOOD_SECONDS (`FLOODS`):
  server/serve.py then closes its open connections at their next request and holds each new one at accept for
  HOLD_SECONDS before answering it `429` and closing it. A refusal answered at once invites the next
  request at once (a client that ignores Retry-After was refused thousands of times a second, and each refusal was
  still a request parsed by waitress's one loop, while the table's hand waited for the interpreter); held, its
  connections cost a file descriptor and no CPU, as nginx's limit_req delays a client's excess requests rather than
  answering them. Counted by the connection's own address only (never behind a proxy, whose address is everyone's).

A client is the address as server/proxy.py makes it (werkzeug's ProxyFix rule over PROXY_FIX hops of
X-Forwarded-For), an IPv6 address whole and its /64 together, as the connection caps count them (docs/operations.md,
"One address or many"). Each process counts its own requests. The refusal has no body: a browser shows its own page
for 429, in its own language, and the phones' scripts wait and ask again. REQUESTS_PER_ADDRESS null (or 0, its
default under TESTING) turns the door off.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections import Counter

from werkzeug.http import parse_list_header

from scorekeeper.clubs.service import client_key

MARK = "scorekeeper.door_guard.heavy"  # in the environ: what server/heavy.py calls (`mark`) when it counts a heavy read
HEAVY_PATH_SECONDS = 300  # how long a path counted heavy is remembered as heavy (a game only grows past the bound)
HEAVY_PATHS = 4096
READS_RETRY_AFTER = 1  # seconds: a read over its address's share waits for one of its own to finish
# A flood: more refusals than an honest phone ever meets (its scripts wait after a 429; a first visit's files are not
# counted), within a second; the address's connections are then held for a while (server/serve.py).
FLOOD_REFUSALS = 30
FLOOD_WINDOW = 1.0  # seconds
# ... and refused more than this many times as often as let in: the phones of a hall behind one address, refused
# together when a stall piles their polls up, are mostly let in; a stranger asking as fast as it is refused is not
FLOOD_RATIO = 2
FLOOD_SECONDS = 10.0  # how long an address stays a flood after its last counted refusal
FLOOD_ADDRESSES = 4096  # addresses remembered (the oldest forgotten first)
BUCKETS = 4096  # addresses whose reads a second are counted; beyond, the ones idle long enough to be full are dropped
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Files from disk, not counted: a phone's first visit asks for a page's scripts and styles and the service worker's
# whole precache at once, on the six connections a browser keeps per server; counted, the one that a finished answer
# had not yet left was refused, and with it the service worker's install (cache.addAll fails on one refusal).
UNCOUNTED = ("/static/", "/sw.js", "/manifest.webmanifest")

log = logging.getLogger("scorekeeper.server.door_guard")


def mark(environ, retry_after: int) -> None:
    """Said by server/heavy.py of a request it counts against its client's heavy reads, with the Retry-After of its
    refusals (nothing, when the door is off)."""
    counted = environ.get(MARK)
    if counted is not None:
        counted(retry_after)


class Floods:
    """The addresses the door has seen flooding it, in this process: `refused` is told of each refusal, `flooding` says
    whether an address (or an IPv6 /64) is one now. Read by the listening socket's accept and the connections' reads
    in waitress's loop (a dict read), written by the door under its own lock."""

    def __init__(
        self,
        refusals: int = FLOOD_REFUSALS,
        window: float = FLOOD_WINDOW,
        seconds: float = FLOOD_SECONDS,
        ratio: float = FLOOD_RATIO,
    ):
        self.refusals, self.window, self.seconds, self.ratio = refusals, window, seconds, ratio
        # address → [its window's start, refusals in it, requests let in during it]: only addresses refused lately
        self.counts: dict[str, list] = {}
        self.until: dict[str, float] = {}  # address → time.monotonic() its flood ends

    def admitted(self, key: str) -> None:
        """Count a request of `key`'s let in (only while it has a window of refusals open: a dict read otherwise)."""
        counted = self.counts.get(key)
        if counted is not None:
            counted[2] += 1

    def refused(self, key: str, now: float) -> bool:
        """Count a refusal of `key`'s; True when that makes it a flood (again)."""
        counted = self.counts.pop(key, None)
        if counted is None or now - counted[0] > self.window:
            counted = [now, 0, 0]
        counted[1] += 1
        if len(self.counts) >= FLOOD_ADDRESSES:
            del self.counts[next(iter(self.counts))]
        self.counts[key] = counted
        if counted[1] < self.refusals or counted[1] <= self.ratio * counted[2]:
            return False
        began = self.until.pop(key, 0.0) <= now
        if len(self.until) >= FLOOD_ADDRESSES:
            del self.until[next(iter(self.until))]
        self.until[key] = now + self.seconds
        return began

    def flooding(self, keys) -> bool:
        if not self.until:
            return False
        now = time.monotonic()
        for key in keys:
            until = self.until.get(key)
            if until is not None:
                if until > now:
                    return True
                self.until.pop(key, None)
        return False

    def clear(self) -> None:
        self.counts.clear()
        self.until.clear()


FLOODS = Floods()  # this process's: the door's refusals, the listening sockets' holds


class Rate:
    """Reads a second per client: a token bucket per address (`per_second` a second, up to twice that at once)."""

    def __init__(self, per_second: float):
        self.per_second = per_second
        self.burst = 2.0 * per_second
        self.buckets: dict[str, list[float]] = {}  # key → [tokens, time.monotonic() of the last take]

    def take(self, keys, now: float) -> str | None:
        """Take a read from each of `keys`' buckets; the first key that has none left (then nothing is taken)."""
        buckets = self.buckets
        found = []
        for key in keys:
            bucket = buckets.get(key)
            if bucket is None:
                if len(buckets) >= BUCKETS:
                    self._prune(now)
                bucket = buckets[key] = [self.burst, now]
            else:
                bucket[0] = min(self.burst, bucket[0] + (now - bucket[1]) * self.per_second)
                bucket[1] = now
            if bucket[0] < 1.0:
                return key
            found.append(bucket)
        for bucket in found:
            bucket[0] -= 1.0
        return None

    def _prune(self, now: float) -> None:
        full = self.burst / self.per_second
        for key in [key for key, (_, last) in self.buckets.items() if now - last >= full]:
            del self.buckets[key]
        while len(self.buckets) >= BUCKETS:
            del self.buckets[next(iter(self.buckets))]


class _Entry:
    """A request in the server: whom it counts against, and whether as a heavy read."""

    __slots__ = ("address", "network", "heavy")

    def __init__(self, address: str, network: str):
        self.address, self.network, self.heavy = address, network, False

    def counted(self) -> tuple[str, ...]:
        return (self.address,) if self.network == self.address else (self.address, self.network)


@functools.lru_cache(maxsize=4096)
def _whom(remote: str) -> tuple[str, str]:
    """The address a request counts against (an IPv6 one whole) and its client for heavy reads (an IPv6 /64): parsed
    once per address, not per request."""
    return client_key(remote, whole=True), client_key(remote)


def _refusal(retry_after: int) -> list[tuple[str, str]]:
    return [
        ("Retry-After", str(retry_after)),
        ("Content-Length", "0"),
        ("Cache-Control", "no-store"),
    ]


class DoorGuard:
    def __init__(
        self,
        wsgi_app,
        per_address: int,
        per_network: int | None,
        heavy_per_client: int | None,
        proxy_hops: int = 0,
        floods: Floods | None = None,
        reads_per_second: float | None = None,
    ):
        self.wsgi_app = wsgi_app
        # behind a proxy every connection is the proxy's: a flood is not told to the sockets
        self.floods = floods if floods is not None and not proxy_hops else None
        self.per_address = per_address
        self.per_network = per_network
        self.rate = Rate(reads_per_second) if reads_per_second else None
        self.heavy_per_client = heavy_per_client
        self.hops = proxy_hops
        self.lock = threading.Lock()
        self.in_flight: Counter[str] = Counter()  # address, and an IPv6 address's /64 → reads in the server
        self.heavy: Counter[str] = Counter()  # guard.client → known heavy reads in the server
        self.heavy_paths: dict[str, tuple[int, float]] = {}  # path → its Retry-After, until when (the oldest first)
        self.refused = 0
        self._warned = float("-inf")

    def client(self, environ) -> str:
        """The client as server/proxy.py's ProxyFix makes it (werkzeug's rule: the `hops`-th value of X-Forwarded-For
        from the right, when there are that many; else the connection's address), without its copy of the environ."""
        if self.hops:
            forwarded = environ.get("HTTP_X_FORWARDED_FOR")
            if forwarded:
                values = parse_list_header(forwarded)
                if len(values) >= self.hops:
                    return values[-self.hops]
        return environ.get("REMOTE_ADDR") or ""

    def __call__(self, environ, start_response):
        if environ.get("PATH_INFO", "").startswith(UNCOUNTED):
            return self.wsgi_app(environ, start_response)
        remote = self.client(environ)
        if environ.get("REQUEST_METHOD") in WRITES:
            if self.floods is not None:  # let in: an address refused in a stall that still writes is no flood
                with self.lock:
                    for key in _Entry(*_whom(remote)).counted():
                        self.floods.admitted(key)
            return self.wsgi_app(environ, start_response)
        entry = _Entry(*_whom(remote))
        path = environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")
        address, network = entry.address, entry.network
        refused: int | None  # the refusal's Retry-After; None: let in
        whose = ""  # whom a refusal counts
        with self.lock:
            known = self.heavy_paths.get(path) if self.heavy_per_client is not None else None
            heavy = known[0] if known is not None and known[1] > time.monotonic() else None
            if heavy and self.heavy_per_client is not None and self.heavy[network] >= self.heavy_per_client:
                refused, whose = heavy, network
            elif self.in_flight[address] >= self.per_address:
                refused, whose = READS_RETRY_AFTER, address
            elif self.rate is not None and (over := self.rate.take(entry.counted(), time.monotonic())):
                refused, whose = READS_RETRY_AFTER, over
            elif network != address and self.per_network is not None and self.in_flight[network] >= self.per_network:
                refused, whose = READS_RETRY_AFTER, network
            else:
                refused = None
                for key in entry.counted():
                    self.in_flight[key] += 1
                    if self.floods is not None:
                        self.floods.admitted(key)
                if heavy:
                    entry.heavy = True
                    self.heavy[network] += 1
        if refused is not None:
            self._refuse(whose)
            start_response("429 Too Many Requests", _refusal(refused))
            return [b""]
        # heavy.py counts the request (it may be the path's first): from then on it counts here too, and the path's
        # next requests over the bound are refused here
        environ[MARK] = lambda retry_after: self._heavy(entry, path, retry_after)
        try:
            body = self.wsgi_app(environ, start_response)
        except BaseException:
            self._leave(entry)
            raise
        return _Counted(body, lambda: self._leave(entry))

    def _heavy(self, entry: _Entry, path: str, retry_after: int) -> None:
        with self.lock:
            self.heavy_paths.pop(path, None)
            if len(self.heavy_paths) >= HEAVY_PATHS:
                del self.heavy_paths[next(iter(self.heavy_paths))]
            self.heavy_paths[path] = (retry_after, time.monotonic() + HEAVY_PATH_SECONDS)
            if not entry.heavy:
                entry.heavy = True
                self.heavy[entry.network] += 1

    def _leave(self, entry: _Entry) -> None:
        with self.lock:
            for key in entry.counted():
                self.in_flight[key] -= 1
                if self.in_flight[key] <= 0:
                    del self.in_flight[key]
            if entry.heavy:
                self.heavy[entry.network] -= 1
                if self.heavy[entry.network] <= 0:
                    del self.heavy[entry.network]

    def _refuse(self, whose: str) -> None:
        """Count a refusal of `whose` (an address, or an IPv6 /64 when the network's share refused it) and warn once a
        minute; a flood is told to the floods at once."""
        now = time.monotonic()
        began = False
        with self.lock:
            self.refused += 1
            if self.floods is not None:
                began = self.floods.refused(whose, now)
            warn = now - self._warned >= 60
            if warn:
                self._warned, refused, self.refused = now, self.refused, 0
        if began and self.floods is not None:
            log.warning(
                "%s floods the server (%d refusals in %.0f s): its connections are held at accept for the next %.0f s",
                whose,
                self.floods.refusals,
                self.floods.window,
                self.floods.seconds,
            )
        if warn:
            log.warning(
                "%s asks for more than its share of the server; %d requests refused before the app", whose, refused
            )


class _Counted:
    """The app's answer, handed on as it is; the request leaves the count when the server closes it (its last byte
    written: the thread is free then), as WSGI says a server closes every answer."""

    def __init__(self, body, leave):
        self.body = body
        self.leave = leave

    def __iter__(self):
        yield from self.body
        self._leave()  # all of it handed to the server (a test client may never close it)

    def _leave(self):
        leave, self.leave = self.leave, None
        if leave is not None:
            leave()

    def close(self):
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            self._leave()


def init_app(app) -> None:
    """The guard as the outermost layer of the app's WSGI stack (outside the live door), unless REQUESTS_PER_ADDRESS
    is null or 0."""
    per_address = app.config.get("REQUESTS_PER_ADDRESS")
    if not per_address:
        return
    app.wsgi_app = DoorGuard(
        app.wsgi_app,
        per_address,
        app.config.get("REQUESTS_PER_NETWORK"),
        app.config.get("HEAVY_READS_PER_ADDRESS"),
        int(app.config.get("PROXY_FIX") or 0),
        FLOODS,
        app.config.get("READS_PER_SECOND"),
    )
