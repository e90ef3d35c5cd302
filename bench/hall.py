#!/usr/bin/env python3
"""A village hall behind one address (issue 43): a benchmark row, and the engine of
tests/integration/test_hall_one_address.py, which runs the same hall for 40 seconds.

Forty phones behind one NAT address (HALL, 127.0.0.7: Linux routes all of 127/8 to lo, so every phone's connections
come from it) play a whist drive of ten tables, as Chromium and the pages' scripts ask:
- each arrives within `arrival` seconds and opens its table's page from the card's QR code: the page, then its
  stylesheets, scripts and manifest on up to six connections at once (a browser's per server), the manifest's icons,
  the service worker (/sw.js), its importScripts and its whole precache (one file not given and the install fails);
- asks the page's live twin every five seconds with its tag (static/live.js), on a kept connection;
- the table's scorer sends the table's result through the page's form (a POST, then the page it is sent to) at a time
  drawn in the hand's second half; once every table's result is in, each phone opens its next table's page within
  three seconds (a navigation: the page and /sw.js; the files come from the service worker);
- the organiser's laptop shows the hall screen and asks its live twin; a game's scorer at the hall enters a hand
  through the JSON API (its edit key) every three seconds.
A stranger elsewhere (ELSEWHERE, 127.0.0.9) asks for the hall screen all the while, as fast as his eight connections
are answered (at most `flood_rate` a second in all, so that this one Python process leaves the server its cores).
Then, for `own` seconds more, a second stranger does the same from the hall's own address, while the tables send the
hand's remaining results and the game its hands.

Counted: every request's outcome by phase (`hall`, then `own`), kind and outcome: its status (`429 app` for the
app's own refusal, which has no body), or `reset` (the connection ended without an answer, after the one retry a
browser makes on a kept connection the server had closed). A refusal is a 429, a 503 or a reset. Times are not asserted anywhere: the schedule is the clock's, and a slower
machine only answers later.

Usage: python bench/hall.py [--seconds 600] [--own 60] [--deployment nginx direct]; prints Markdown and writes
bench/results/hall.json. Needs nginx and openssl (scripts/system-packages.sh test).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import queue
import random
import re
import ssl
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from urllib.parse import urlencode, urljoin, urlsplit

ROOT = Path(__file__).resolve().parent.parent
HALL = "127.0.0.7"  # every phone of the hall, as behind one NAT
ELSEWHERE = "127.0.0.9"  # a stranger somewhere else
SETUP = "127.0.0.1"  # the organiser making the drive at home, before the evening
TIMEOUT = 60.0
HAND = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9}  # a Danish hand


@dataclass
class Plan:
    phones: int = 40
    arrival: float = 30.0  # the phones arrive over this many seconds
    hand: float = 120.0  # a hand's tables send their results in the second half of this many seconds
    seconds: float = 600.0  # the hall plays this long with the stranger elsewhere ...
    own: float = 60.0  # ... then this long with a stranger behind its own address too (0: none)
    poll: float = 5.0  # live.js's every
    lanes: int = 6  # a browser's connections to one server
    flood_connections: int = 8
    flood_rate: float = 200.0  # a stranger's requests a second at most, in all
    game_every: float = 3.0  # the game's scorer: a hand every this many seconds


class Target:
    """Where the phones connect: host, port, TLS or not."""

    def __init__(self, port: int, tls: bool):
        self.port, self.tls = port, tls
        self.context = None
        if tls:
            self.context = ssl.create_default_context()
            self.context.check_hostname = False
            self.context.verify_mode = ssl.CERT_NONE

    def connect(self, source: str) -> http.client.HTTPConnection:
        if self.tls:
            return http.client.HTTPSConnection(
                "127.0.0.1", self.port, timeout=TIMEOUT, context=self.context, source_address=(source, 0)
            )
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT, source_address=(source, 0))

    @property
    def host(self) -> str:
        return f"localhost:{self.port}"


class Tally:
    """Outcomes counted by (phase, kind, outcome), from every thread."""

    def __init__(self):
        self.counts: Counter[tuple[str, str, str]] = Counter()
        self.lock = threading.Lock()
        self.phase = "hall"

    def add(self, kind: str, outcome: str, phase: str | None = None) -> None:
        with self.lock:
            self.counts[(phase or self.phase, kind, outcome)] += 1


class Lane:
    """One connection of a client, kept between requests, opened again when the server closed it; a request on a kept
    connection that ends without an answer is sent once more on a new one, as browsers do."""

    def __init__(self, target: Target, source: str, host: str):
        self.target, self.source, self.host = target, source, host
        self.conn: http.client.HTTPConnection | None = None

    def ask(self, method: str, path: str, headers=None, body=None):
        """(status, headers, body), or None for a connection ended without an answer."""
        for attempt in range(2):
            reused = self.conn is not None
            if self.conn is None:
                self.conn = self.target.connect(self.source)
            try:
                self.conn.request(method, path, body=body, headers={"Host": self.host, **(headers or {})})
                answer = self.conn.getresponse()
                data = answer.read()
            except (OSError, http.client.HTTPException):
                self.close()
                if reused and attempt == 0:
                    continue
                return None
            if answer.will_close:
                self.close()
            return answer.status, answer.headers, data
        return None

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def outcome(answer) -> str:
    """A status, `429 app` for the app's own refusal (no body: server/door_guard.py, serve.py) or `reset`."""
    if answer is None:
        return "reset"
    return "429 app" if answer[0] == 429 and not answer[2] else str(answer[0])


class Hall:
    """The drive as the hall plays it: which hand, when each table sends its result, who has sent."""

    def __init__(self, plan: Plan, tables: int, urls: dict[int, str], started: float):
        self.plan, self.tables, self.urls = plan, tables, urls
        self.lock = threading.Lock()
        self.hand = 1
        self.taken: set[int] = set()
        self.due: dict[int, float] = {}
        self.random = random.Random(43)
        self.schedule(started + plan.arrival)
        self.results_taken = 0

    def schedule(self, start: float) -> None:
        self.due = {t: start + self.plan.hand * self.random.uniform(0.5, 1.0) for t in range(1, self.tables + 1)}

    def own_begins(self, start: float, seconds: float) -> None:
        """The hand's results not yet in are sent while the stranger behind the hall's address floods."""
        with self.lock:
            for table in self.due:
                if table not in self.taken:
                    self.due[table] = start + seconds * self.random.uniform(0.1, 0.7)

    def table_of(self, phone: int, hand: int) -> int:
        return (phone // 4 + hand - 1) % self.tables + 1

    def took(self, table: int, hand: int) -> None:
        with self.lock:
            if hand != self.hand or table in self.taken:
                return
            self.taken.add(table)
            self.results_taken += 1
            if len(self.taken) == self.tables:
                self.hand += 1
                self.taken = set()
                self.schedule(time.monotonic())


class Phone(threading.Thread):
    def __init__(self, n: int, hall: Hall, target: Target, tally: Tally, stop: threading.Event, arrive: float):
        super().__init__(name=f"phone-{n}", daemon=True)
        self.n, self.hall, self.target, self.tally, self.stop = n, hall, target, tally, stop
        self.arrive = arrive
        self.lanes = [Lane(target, HALL, target.host) for _ in range(hall.plan.lanes)]
        self.cookies: dict[str, str] = {}
        self.cookie_lock = threading.Lock()
        self.installed: bool | None = None
        self.hand = 0  # the hand of the page it shows
        self.table = 0
        self.page = ""
        self.live_url = self.live_tag = None
        self.random = random.Random(n)

    # -- requests

    def ask(self, lane: int, kind: str, method: str, path: str, headers=None, body=None):
        with self.cookie_lock:
            cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        answer = self.lanes[lane].ask(method, path, {**({"Cookie": cookie} if cookie else {}), **(headers or {})}, body)
        self.tally.add(kind, outcome(answer))
        if answer is not None:
            with self.cookie_lock:
                for value in answer[1].get_all("Set-Cookie") or []:
                    name, _, rest = value.partition("=")
                    self.cookies[name] = rest.split(";", 1)[0]
        return answer

    def fetch_all(self, paths: list[str], kind: str) -> dict[str, tuple]:
        """The paths at once, each lane taking the next (a browser's connections to one server)."""
        todo: queue.SimpleQueue = queue.SimpleQueue()
        for path in paths:
            todo.put(path)
        out: dict[str, tuple] = {}

        def work(lane: int) -> None:
            while True:
                try:
                    path = todo.get_nowait()
                except queue.Empty:
                    return
                out[path] = self.ask(lane, kind, "GET", path)

        workers = [
            threading.Thread(target=work, args=(i,), daemon=True) for i in range(min(len(paths), len(self.lanes)))
        ]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        return out

    # -- what a phone does

    def navigate(self, path: str) -> bool:
        """Open a page (lane 0): the first time with its files and the service worker's install, later with the
        worker's update check only. False when the page was not given."""
        answer = self.ask(0, "page", "GET", path)
        if answer is None or answer[0] != 200:
            return False
        self.take(answer[2].decode())
        if self.installed is None:
            self.first_visit()
        else:
            self.ask(1, "sw", "GET", "/sw.js")
        return True

    def first_visit(self) -> None:
        page = self.page
        files = re.findall(r'<link rel="stylesheet" href="([^"]+)"', page) + re.findall(r'<script src="([^"]+)"', page)
        manifest = re.search(r'<link rel="manifest" href="([^"]+)"', page)
        paths = files + ([manifest.group(1)] if manifest else [])
        got = self.fetch_all(paths, "file")
        icons = []
        if manifest and got.get(manifest.group(1)) and got[manifest.group(1)][0] == 200:
            icons = [icon["src"] for icon in json.loads(got[manifest.group(1)][2])["icons"]]
        sw = re.search(r'data-sw="([^"]+)"', page)
        got = self.fetch_all(icons + ([sw.group(1)] if sw else []), "file")
        worker = got.get(sw.group(1)) if sw else None
        if worker is None or worker[0] != 200:
            self.installed = False
            self.tally.add("install", "failed")
            return
        source = worker[2].decode()
        version = json.loads(re.search(r"var VERSION = (\"[^\"]*\");", source).group(1))
        precache = json.loads(re.search(r"var PRECACHE = (\[[^\]]*\]);", source).group(1))
        imported = [p + version for p in re.findall(r'importScripts\("([^"]+)" \+ VERSION\)', source)]
        got = self.fetch_all(imported + precache, "file")
        self.installed = all(a is not None and a[0] == 200 for a in got.values())
        self.tally.add("install", "ok" if self.installed else "failed")

    def take(self, page: str) -> None:
        self.page = page
        url = re.search(r'data-live-url="([^"]+)"', page)
        tag = re.search(r'data-live-tag="([^"]+)"', page)
        if url:
            self.live_url = unescape(url.group(1))
        if tag:
            self.live_tag = tag.group(1)
        hand = re.search(r'name="hand" type="hidden" value="(\d+)"', page)
        if hand:
            self.hand = int(hand.group(1))

    def poll(self) -> None:
        if not self.live_url:
            return
        answer = self.ask(0, "poll", "GET", self.live_url, {"X-Live-Tag": self.live_tag or "", "X-Live-Parts": "1"})
        if answer is not None and answer[0] == 200 and answer[2]:
            self.take(answer[2].decode())

    def send(self, table: int, hand: int) -> None:
        """The scorer's tap on a result and Send: the page's form, then the page it is sent to."""
        path = urlsplit(self.hall.urls[table]).path
        fields = [("hand", str(hand)), ("was", ""), ("tricks", str(self.random.randint(0, 13)))]
        if self.hand == hand and self.table == table:
            fields += [("seated", unescape(n)) for n in re.findall(r'name="seated" value="([^"]*)"', self.page)]
        answer = self.ask(
            2, "result", "POST", path, {"Content-Type": "application/x-www-form-urlencoded"}, urlencode(fields)
        )
        if answer is not None and answer[0] in (302, 303):
            self.hall.took(table, hand)
            location = urlsplit(urljoin(path, answer[1]["Location"]))
            self.navigate(location.path + (f"?{location.query}" if location.query else ""))

    def run(self) -> None:
        plan = self.hall.plan
        if self.stop.wait(max(0.0, self.arrive - time.monotonic())):
            return
        next_poll = float("inf")
        moving_at = None
        while not self.stop.is_set():
            now = time.monotonic()
            hand = self.hall.hand
            table = self.hall.table_of(self.n, hand)
            if table != self.table and moving_at is None:
                moving_at = now if self.table == 0 else now + self.random.uniform(0.0, 3.0)
            if moving_at is not None and now >= moving_at:
                if self.navigate(urlsplit(self.hall.urls[table]).path):
                    self.table = table
                    next_poll = time.monotonic() + plan.poll
                    moving_at = None
                else:  # the browser's own error page: its player reloads a few seconds later
                    moving_at = time.monotonic() + self.random.uniform(2.0, 5.0)
            elif self.n % 4 == 0 and self.table == table:
                with self.hall.lock:
                    due = self.hall.due.get(table) if table not in self.hall.taken and hand == self.hall.hand else None
                if due is not None and now >= due:
                    self.send(table, hand)
                    with self.hall.lock:
                        if table in self.hall.due and hand == self.hall.hand and table not in self.hall.taken:
                            self.hall.due[table] = time.monotonic() + plan.poll  # tapped Send again a moment later
            if now >= next_poll:
                self.poll()
                next_poll = max(next_poll + plan.poll, time.monotonic())
            self.stop.wait(0.1)
        for lane in self.lanes:
            lane.close()


class Screen(threading.Thread):
    """The organiser's laptop showing the hall screen, asking its live twin every five seconds."""

    def __init__(self, drive: str, target: Target, tally: Tally, stop: threading.Event, poll: float):
        super().__init__(name="screen", daemon=True)
        self.drive, self.tally, self.stop, self.every = drive, tally, stop, poll
        self.lane = Lane(target, HALL, target.host)

    def run(self) -> None:
        answer = self.lane.ask("GET", f"/d/{self.drive}/screen")
        self.tally.add("page", outcome(answer))
        page = answer[2].decode() if answer is not None and answer[0] == 200 else ""
        url = re.search(r'data-live-url="([^"]+)"', page)
        tag = re.search(r'data-live-tag="([^"]+)"', page)
        while url and not self.stop.wait(self.every):
            answer = self.lane.ask("GET", unescape(url.group(1)), {"X-Live-Tag": tag.group(1) if tag else ""})
            self.tally.add("poll", outcome(answer))
            if answer is not None and answer[0] == 200 and answer[2]:
                page = answer[2].decode()
                url = re.search(r'data-live-url="([^"]+)"', page) or url
                tag = re.search(r'data-live-tag="([^"]+)"', page) or tag
        self.lane.close()


class Scorer(threading.Thread):
    """A game's scorer at the hall: a hand through the JSON API (its edit key) every `every` seconds."""

    def __init__(self, game: dict, target: Target, tally: Tally, stop: threading.Event, every: float):
        super().__init__(name="scorer", daemon=True)
        self.game, self.tally, self.stop, self.every = game, tally, stop, every
        self.lane = Lane(target, HALL, target.host)
        self.stored = 0

    def run(self) -> None:
        while not self.stop.wait(self.every):
            answer = self.lane.ask(
                "POST",
                f"/api/games/{self.game['id']}/hands",
                {"Content-Type": "application/json", "X-Edit-Key": self.game["edit_key"]},
                json.dumps(HAND),
            )
            self.tally.add("hand", outcome(answer))
            if answer is not None and answer[0] == 201:
                self.stored += 1
        self.lane.close()


class Flood:
    """A stranger asking for `path` over `connections` kept connections from `source`, as fast as he is answered (at
    most `rate` a second in all); his outcomes counted under `kind`."""

    def __init__(self, target: Target, source: str, path: str, tally: Tally, kind: str, connections: int, rate: float):
        self.target, self.source, self.path, self.tally, self.kind = target, source, path, tally, kind
        self.stop = threading.Event()
        self.gap = connections / rate if connections else 0.0
        self.threads = [threading.Thread(target=self.work, daemon=True) for _ in range(connections)]

    def work(self) -> None:
        lane = Lane(self.target, self.source, self.target.host)
        while not self.stop.is_set():
            began = time.monotonic()
            answer = lane.ask("GET", self.path)
            self.tally.add(self.kind, outcome(answer))
            self.stop.wait(max(0.0, self.gap - (time.monotonic() - began)))
        lane.close()

    def __enter__(self):
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for t in self.threads:
            t.join(TIMEOUT + 5)


# ---------------------------------------------------------------- the evening


def setup(target: Target, phones: int) -> dict:
    """The drive (a table for every four phones) and a game, made from SETUP; the tables' page addresses."""
    lane = Lane(target, SETUP, target.host)
    tables = phones // 4
    people = [f"Player {i:02d}" for i in range(2 * tables * 2)]
    body = {"format": "progressive", "ladies": people[: 2 * tables], "gents": people[2 * tables :], "hands": 24}
    status, _, data = lane.ask("POST", "/api/drives", {"Content-Type": "application/json"}, json.dumps(body))
    assert status == 201, data[:300]
    drive = json.loads(data)
    status, headers, _ = lane.ask("GET", drive["edit_page"])
    cookie = "; ".join(c.split(";", 1)[0] for c in headers.get_all("Set-Cookie") or [])
    status, _, cards = lane.ask("GET", f"/d/{drive['id']}/cards", {"Cookie": cookie})
    assert status == 200, status
    urls = {
        int(t): urlsplit(unescape(u)).path
        for u, t in re.findall(r'<a href="([^"]+/t/[^"]+)" data-table="(\d+)"', cards.decode())
    }
    assert len(urls) == tables, urls
    status, _, data = lane.ask(
        "POST",
        "/api/games",
        {"Content-Type": "application/json"},
        json.dumps({"variant": "danish", "players": ["A", "B", "C", "D"]}),
    )
    assert status == 201, data[:300]
    lane.close()
    return {"drive": drive, "urls": urls, "game": json.loads(data)}


def evening(target: Target, plan: Plan, tally: Tally | None = None, elsewhere: bool = True) -> dict:
    """The hall's evening on `target` (with the stranger elsewhere, or without him); what was counted and stored."""
    tally = tally or Tally()
    made = setup(target, plan.phones)
    drive = made["drive"]
    stop = threading.Event()
    started = time.monotonic()
    hall = Hall(plan, plan.phones // 4, made["urls"], started)
    arrivals = random.Random(7)  # in no order of tables, some at once
    phones = [
        Phone(n, hall, target, tally, stop, started + arrivals.uniform(0.0, plan.arrival)) for n in range(plan.phones)
    ]
    others = [
        Screen(drive["id"], target, tally, stop, plan.poll),
        Scorer(made["game"], target, tally, stop, plan.game_every),
    ]
    screen = f"/d/{drive['id']}/screen"
    with Flood(
        target,
        ELSEWHERE,
        screen,
        tally,
        "stranger elsewhere",
        plan.flood_connections if elsewhere else 0,
        plan.flood_rate,
    ):
        for t in phones + others:
            t.start()
        stop.wait(max(0.0, started + plan.seconds - time.monotonic()))
        if plan.own:
            taken_before = hall.results_taken
            stored_before = others[1].stored
            with tally.lock:
                tally.phase = "own"
            hall.own_begins(time.monotonic(), plan.own)
            with Flood(target, HALL, screen, tally, "stranger at the hall", plan.flood_connections, plan.flood_rate):
                stop.wait(plan.own)
                results_during_own = hall.results_taken - taken_before
                hands_during_own = others[1].stored - stored_before
        stop.set()
        for t in phones + others:
            t.join(TIMEOUT + 5)
    installs = Counter(p.installed for p in phones)
    out = {
        "counts": {" / ".join(k): n for k, n in sorted(tally.counts.items())},
        "installs": {"ok": installs[True], "failed": installs[False], "never": installs[None]},
        "results_taken": hall.results_taken,
        "hands_stored": others[1].stored,
        "hand_reached": hall.hand,
    }
    if plan.own:
        out["results_during_own"] = results_during_own
        out["hands_during_own"] = hands_during_own
    return out


# ---------------------------------------------------------------- the benchmark: both deployments, as shipped


@contextlib.contextmanager
def deployment(kind: str, folder: Path):
    """`scorekeeper serve` as shipped (its workers, its door), directly (plain http, a worker per core) or behind
    deploy/nginx.conf over TLS as deploy/scorekeeper.service starts it (PROXY_FIX=1, LIVE_TAGS, --port-per-worker with
    the workers the upstream lists): the Target."""
    sys.path.insert(0, str(ROOT / "tests"))
    # tests/nginx_stack.py: the shipped site over TLS, and the app as the shipped service starts it
    from nginx_stack import free_port, nginx_in_front, served_per_worker

    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE": str(folder / "hall.sqlite"),
        "SCOREKEEPER_SECRET_KEY": "bench",
        "SCOREKEEPER_LOG_LEVEL": "WARNING",
    }
    if kind == "nginx":
        env |= {"SCOREKEEPER_PROXY_FIX": "1", "SCOREKEEPER_LIVE_TAGS": str(folder / "live-tags")}
        with (
            served_per_worker(folder, env) as app,
            nginx_in_front(folder, app["ports"], worker_connections=4096) as front,
        ):
            yield Target(front["tls"], tls=True)
        return
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper", "serve", "--host", "0.0.0.0", "--port", str(port)],
        cwd=folder,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("scorekeeper serve did not start") from None
                time.sleep(0.2)
        yield Target(port, tls=False)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def table(rows: dict[str, dict]) -> str:
    """Markdown: each deployment's counts by phase and kind."""
    kinds = ["page", "file", "sw", "poll", "result", "hand", "install", "stranger elsewhere", "stranger at the hall"]
    lines = ["| deployment | phase | kind | answers |", "|---|---|---|---|"]
    for name, row in rows.items():
        for phase in ("hall", "own"):
            for kind in kinds:
                found = {k.split(" / ")[2]: n for k, n in row["counts"].items() if k.startswith(f"{phase} / {kind} / ")}
                if found:
                    answers = ", ".join(f"{n} × {o}" for o, n in sorted(found.items()))
                    lines.append(f"| {name} | {phase} | {kind} | {answers} |")
        lines.append(
            f"| {name} | | stored | {row['results_taken']} results (hand {row['hand_reached']} reached), "
            f"{row['hands_stored']} game hands; during `own`: {row.get('results_during_own')} results, "
            f"{row.get('hands_during_own')} hands |"
        )
    return "\n".join(lines)


def main(argv=None) -> int:
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600.0, help="the hall with a stranger elsewhere (600)")
    parser.add_argument("--own", type=float, default=60.0, help="then with a stranger at the hall's address too (60)")
    parser.add_argument("--arrival", type=float, default=30.0)
    parser.add_argument("--hand", type=float, default=120.0)
    parser.add_argument("--phones", type=int, default=40)
    parser.add_argument("--deployment", nargs="+", default=["nginx", "direct"], choices=["nginx", "direct"])
    args = parser.parse_args(argv)
    plan = Plan(phones=args.phones, arrival=args.arrival, hand=args.hand, seconds=args.seconds, own=args.own)
    rows = {}
    for kind in args.deployment:
        with tempfile.TemporaryDirectory() as folder, deployment(kind, Path(folder)) as target:
            rows[kind] = evening(target, plan)
        print(f"{kind}: {json.dumps(rows[kind], indent=1)}", file=sys.stderr)
    print(table(rows))
    results = ROOT / "bench" / "results"
    results.mkdir(exist_ok=True)
    (results / "hall.json").write_text(json.dumps({"plan": plan.__dict__, "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
