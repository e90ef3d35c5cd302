#!/usr/bin/env python3
"""How fast scorekeeper keeps score, side by side with the bare framework, in one run of a few minutes.

1. Load: scorekeeper, a bare Flask app (bench/bare.py) and the honest floor (bench/floor.py: the body stored as one
   row, WAL, synchronous=FULL) under gunicorn with the same sync workers on 127.0.0.1, all driven by wrk at 1, 8 and
   32 connections: (a) a hand through the JSON API, (b) the same hand through the HTML form (the POST answered by its
   redirect), (c) the protokoll page of a 50-hand game; each beside the bare route's figures and as a ratio, and the
   workers' CPU time per request. `--only floor`: the floor, JSON and form only, at 8 and 32 clients, in rounds;
   `--before TREE[,TREE…]` adds the JSON hand entry of other checkouts (say, main before a change) served beside it,
   so that a speed-up is measured against what it replaces in the same run.
2. Scaling, in-process (Flask test client): the protokoll page and the JSON game for 10, 100 and 1,000 hands per
   variant, median server time of several runs.
3. The protokoll page of a 50-hand game: bytes (raw and gzip) and the requests of a first visit.
4. PDFs: the first of a worker (its renderer starts), a 60-hand evening, the largest game the app takes (MAX_HANDS;
   the renderer's peak memory), then downloaded again (kept: a file read) and revalidated; Chromium beside it.
5. The phone (bench/phone.py): Save → the updated protokoll painted on a slow phone, beside a static page.
6. Memory: a gunicorn worker's resident memory after serving the protokolls of 1,000 different games.
7. Live pages (bench/live.py): an idle watching phone, its poll (304) against today's meta-refresh reload of the same
   page: the server's CPU and the bytes a minute, the protokoll and a 100-table drive's table page.

Usage: python bench/run.py [--duration 10] [--clients 1,8,32] [--workers 2] [--rounds 2]
       [--only load|floor|scaling|pdf|phone|memory|slow|live] [--before TREE,…]
Results go to bench/results/<date-time>/ (table.md, results.json, the Lua scripts and the server logs).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import re
import resource
import secrets
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import datetime
from html.parser import HTMLParser
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(ROOT / "tests"))
import live as live_bench  # noqa: E402  (bench/live.py)
import phone as phone_bench  # noqa: E402  (bench/phone.py)
import slow_clients  # noqa: E402  (bench/slow_clients.py)
from procstat import cpu_seconds, started_child  # noqa: E402  (bench/procstat.py)

# Every registered variant, its players and the long games it can play, from its own test data
# (tests/variants/<name>.py): a variant without one stops the benchmark here rather than being left out.
from variants import EXAMPLES  # noqa: E402  (tests/variants)

PLAYERS = {name: list(example.PLAYERS) for name, example in EXAMPLES.items()}
# Options that let a game run long, and the most hands the rules then allow (None: no end).
LONG_OPTIONS = {name: dict(example.LONG[0]) for name, example in EXAMPLES.items()}
MAX_HANDS = {name: example.LONG[1] for name, example in EXAMPLES.items() if example.LONG[1]}
SIZES = (10, 100, 1000)
PAGE_HANDS = 50
POOL = 200  # fresh Danish games per hand-entry run; the posts go round-robin over them
HAND_BODY = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9}
FORM_BODY = {"bidder": "0", "bid": "8", "trump": "spades", "partner": "2", "tricks": "9"}  # no number, version, token
WAITRESS_THREADS = 8  # scorekeeper.server.serve.SETTINGS["threads"], as make run serves
TARGETS = {"throughput": 0.5, "p99": 3.0, "ms_1000": 50.0, "page_kb": 30.0}


# ---------------------------------------------------------------- hands that keep a game going


def hands(variant: str, n: int, seed: int = 1) -> list[dict]:
    """n valid hands that do not end the game: the variant's own long_hands (tests/variants/<name>.py)."""
    return EXAMPLES[variant].long_hands(n, seed)


def game_data(variant: str, n: int, title: str | None = None) -> dict:
    from scorekeeper.games import service

    return {
        "format": service.EXPORT_FORMAT,
        "variant": variant,
        "title": title or f"{variant} {n}",
        "players": PLAYERS[variant],
        "dealer": 0,
        "options": dict(LONG_OPTIONS[variant]),
        "hands": hands(variant, n),
    }


# ---------------------------------------------------------------- the machine


def machine() -> dict:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    nproc = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip() or str(os.cpu_count())
    wrk = shutil.which("wrk")
    wrk_version = (
        subprocess.run([wrk, "-v"], capture_output=True, text=True).stdout.split("[")[0].strip() if wrk else None
    )
    gunicorn = subprocess.run([sys.executable, "-m", "gunicorn", "--version"], capture_output=True, text=True)
    return {
        "date": datetime.now().strftime("%Y-%m-%d %H:%M"),
        "nproc": nproc,
        "cpu": cpu,
        "load_before": round(os.getloadavg()[0], 2),
        "python": f"Python {platform.python_version()}",
        "wrk": wrk_version,
        "gunicorn": gunicorn.stdout.strip() or gunicorn.stderr.strip(),
    }


# ---------------------------------------------------------------- servers and HTTP


def served(args) -> str:
    """How the servers ran, in words."""
    get = args.get if isinstance(args, dict) else lambda k, d=None: getattr(args, k, d)
    if get("server", "gunicorn") == "waitress":
        return f"waitress, one process with {WAITRESS_THREADS} threads (as make run)"
    return f"gunicorn --workers {get('workers')} (sync)"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A gunicorn master with its sync workers on 127.0.0.1, or (`kind="waitress"`) one waitress process with its
    threads, as `make run` serves the app (scorekeeper.server.serve, its per-client caps and log lines; any other app under
    plain waitress with the same threads); stopped with SIGTERM to the process we started."""

    def __init__(
        self,
        name: str,
        app: str,
        chdir: Path,
        workers: int,
        out: Path,
        env: dict | None = None,
        kind: str = "gunicorn",
    ):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(out / f"{name}.log", "w")
        self.kind = kind
        if kind == "gunicorn":
            command = [sys.executable, "-m", "gunicorn", "--workers", str(workers), "--bind", f"127.0.0.1:{self.port}"]
            command += ["--chdir", str(chdir), app]
        elif app.startswith("scorekeeper:"):
            command = [sys.executable, "-m", "scorekeeper.server.serve", "--host", "127.0.0.1", "--port", str(self.port)]
        else:
            module, attribute = app.split(":")
            command = [
                sys.executable,
                "-c",
                f"import waitress, {module}; waitress.serve({module}.{attribute}, host='127.0.0.1', "
                f"port={self.port}, threads={WAITRESS_THREADS}, ident='floor')",
            ]
        self.proc = subprocess.Popen(
            command,
            cwd=str(chdir),
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env={**os.environ, **(env or {})},
        )

    def wait(self, path: str, timeout: float = 30) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise SystemExit(f"the server {self.url} stopped; see {self.log.name}")
            try:
                urllib.request.urlopen(self.url + path, timeout=2).read()
                return
            except (urllib.error.URLError, ConnectionError, TimeoutError):  # a busy machine: a first answer in > 2 s
                time.sleep(0.1)
        raise SystemExit(f"the server {self.url} did not answer within {timeout} s")

    def cpu_seconds(self) -> float:
        """User + system CPU time of the master's workers so far (from /proc): what a request costs, hardly moved by
        other work on the machine."""
        return sum(self.cpu_split())

    def cpu_split(self) -> tuple[float, float]:
        """(user, system) CPU time of the master's workers so far: the system part is the kernel's (the connection,
        the disk flush), which another program's disk traffic on a shared machine moves; the user part is the
        app's own work."""
        tick = os.sysconf("SC_CLK_TCK")
        user = system = 0
        try:
            children = (
                Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text().split()
                if self.kind == "gunicorn"
                else [str(self.proc.pid)]  # waitress: one process, its threads' time in its own stat
            )
        except OSError:
            return 0.0, 0.0
        for pid in children:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            user, system = user + int(fields[11]), system + int(fields[12])  # utime, stime
        return user / tick, system / tick

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.log.close()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def call(opener, url: str, method: str = "GET", data: bytes | None = None, headers: dict | None = None):
    """(status, body) of one request; redirects and errors are answers too."""
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    try:
        with opener.open(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


PLAIN = urllib.request.build_opener(NoRedirect)


def new_game(base: str, title: str) -> dict:
    body = json.dumps({"variant": "danish", "players": PLAYERS["danish"], "dealer": 0, "title": title}).encode()
    status, answer = call(PLAIN, base + "/api/games", "POST", body, {"Content-Type": "application/json"})
    if status != 201:
        raise SystemExit(f"POST /api/games answered {status}: {answer[:200]!r}")
    return json.loads(answer)


def form_session(base: str, game: dict) -> tuple[str, str]:
    """What one phone holds after following the edit link and opening the hand form: (Cookie header, CSRF token)."""
    jar = CookieJar()
    opener = urllib.request.build_opener(NoRedirect, urllib.request.HTTPCookieProcessor(jar))
    status, _ = call(opener, base + game["edit_page"])
    if status not in (301, 302, 303):
        raise SystemExit(f"the edit page answered {status}")
    status, page = call(opener, f"{base}/g/{game['id']}/hands/new")
    match = re.search(rb'name="csrf_token"[^>]*value="([^"]+)"', page) or re.search(
        rb'value="([^"]+)"[^>]*name="csrf_token"', page
    )
    if status != 200 or not match:
        raise SystemExit(f"the hand form answered {status} without a CSRF token")
    cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
    return cookie, match.group(1).decode()


# ---------------------------------------------------------------- wrk


LUA = r"""-- Written by bench/run.py: round-robin over prepared requests; done() prints the figures as JSON.
local targets = {
%(targets)s
}
local prepared = {}
local i = 0
local threads = 0

function setup(thread)
  thread:set("offset", threads)
  threads = threads + 1
end

function init(args)
  for k, t in ipairs(targets) do
    prepared[k] = wrk.format(t[1], t[2], t[3], t[4])
  end
  i = ((offset or 0) * 37) %% #prepared
end

function request()
  i = i %% #prepared + 1
  return prepared[i]
end

function done(summary, latency, requests)
  io.write(string.format('BENCH {"requests": %%d, "duration_us": %%d, "p50_us": %%d, "p99_us": %%d, "max_us": %%d, ' ..
    '"errors": {"connect": %%d, "read": %%d, "write": %%d, "status": %%d, "timeout": %%d}}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max,
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.status, summary.errors.timeout))
end
"""


def lua_string(text: str) -> str:
    if not text.isascii():
        raise ValueError("the Lua scripts carry ASCII only")
    return json.dumps(text)  # for ASCII text a JSON string is a valid Lua string


def lua_script(path: Path, targets: list[tuple[str, str, dict, str | None]]) -> Path:
    lines = []
    for method, url_path, headers, body in targets:
        head = ", ".join(f"[{lua_string(k)}] = {lua_string(v)}" for k, v in headers.items())
        lines.append(
            f"  {{{lua_string(method)}, {lua_string(url_path)}, {{{head}}}, "
            f"{lua_string(body) if body is not None else 'nil'}}},"
        )
    path.write_text(LUA % {"targets": "\n".join(lines)})
    return path


def hands_script(path: Path, pool: list[dict]) -> Path:
    """The Lua script of the JSON hand entry: a Danish hand posted with its game's edit key, round-robin over the
    pool (the bidder and partner turn with the game, so every game keeps going)."""
    return lua_script(
        path,
        [
            (
                "POST",
                f"/api/games/{g['id']}/hands",
                {"Content-Type": "application/json", "X-Edit-Key": g["edit_key"]},
                json.dumps({**HAND_BODY, "bidder": k % 4, "partner": (k + 2) % 4}),
            )
            for k, g in enumerate(pool)
        ],
    )


def wrk(base: str, script: Path, clients: int, duration: int) -> dict:
    threads = max(1, min(clients, os.cpu_count() or 1))
    run = subprocess.run(
        ["wrk", f"-t{threads}", f"-c{clients}", f"-d{duration}s", "--timeout", "10s", "-s", str(script), base],
        capture_output=True,
        text=True,
    )
    line = next((out for out in run.stdout.splitlines() if out.startswith("BENCH ")), None)
    if line is None:
        raise SystemExit(f"wrk gave no figures:\n{run.stdout}\n{run.stderr}")
    figures = json.loads(line[6:])
    seconds = figures["duration_us"] / 1e6
    errors = sum(figures["errors"].values())
    return {
        "clients": clients,
        "requests": figures["requests"],
        "rps": figures["requests"] / seconds,
        "p50_ms": figures["p50_us"] / 1000,
        "p99_ms": figures["p99_us"] / 1000,
        "max_ms": figures["max_us"] / 1000,
        "errors": errors,
        "error_detail": figures["errors"],
    }


def hands_stored(db_path: Path, game_ids: list[str]) -> dict:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        marks = ",".join("?" * len(game_ids))
        counts = [
            r[0]
            for r in conn.execute(
                f"SELECT count(h.id) FROM games g LEFT JOIN hands h ON h.game_id = g.id WHERE g.id IN ({marks}) GROUP BY g.id",
                game_ids,
            )
        ]
    finally:
        conn.close()
    return {"total": sum(counts), "max_per_game": max(counts), "mean_per_game": sum(counts) / len(counts)}


def load(args, out: Path, parts=("bare", "floor", "api", "form", "page"), rounds: int = 1) -> dict:
    """wrk against each part in turn (interleaved: bare, floor, api, form, page, then again for the next round), so
    that what else runs on the machine weighs on all of them alike. `rounds` repeats each number of clients."""
    if not shutil.which("wrk"):
        raise SystemExit("wrk is missing: make system (or apt-get install wrk)")
    db_path = out / "bench.sqlite"
    from scorekeeper import storage as db

    db.migrate(str(db_path))  # as make run does (flask init-db) before gunicorn starts its workers
    env = {
        "SCOREKEEPER_DATABASE": str(db_path),
        "SCOREKEEPER_SECRET_KEY": "bench-" + secrets.token_hex(16),
        # The limiter on, as a server runs it (its checks are part of a request's cost), with limits no pool reaches:
        # the pools of games come from one address, hundreds a minute.
        "SCOREKEEPER_RATELIMIT_ENABLED": "true",
        "SCOREKEEPER_LIMIT_NEW_GAMES": "1000000 per minute",
    }
    kind = getattr(args, "server", "gunicorn")
    app = Server("scorekeeper", "scorekeeper:create_app()", ROOT, args.workers, out, env, kind)
    befores = []  # (part name, server, database): the same app from other checkouts, each package first on the path
    for k, tree in enumerate(t for t in (getattr(args, "before", None) or "").split(",") if t):
        tree = str(Path(tree).resolve())
        name = "before" if k == 0 else f"before{k + 1}"
        before_db = out / f"{name}.sqlite"
        subprocess.run(
            [sys.executable, "-c", f"from scorekeeper import storage; storage.migrate({str(before_db)!r})"],
            check=True,
            env={**os.environ, "PYTHONPATH": tree},
        )
        server = Server(
            name,
            "scorekeeper:create_app()",
            Path(tree),
            args.workers,
            out,
            {**env, "SCOREKEEPER_DATABASE": str(before_db), "PYTHONPATH": tree},
            kind,
        )
        server.tree = tree
        befores.append((name, server, before_db))
    bare = Server("bare", "bare:app", BENCH, args.workers, out, kind=kind)
    floor = Server("floor", "floor:app", BENCH, args.workers, out, {"FLOOR_DATABASE": str(out / "floor.sqlite")}, kind)
    try:
        app.wait("/")
        bare.wait("/ping")
        floor.wait("/floor")
        for _, server, _ in befores:
            server.wait("/")
        print(
            f"scorekeeper on {app.url}, bare Flask on {bare.url}, floor on {floor.url}, {served(args)}; "
            f"wrk {args.duration} s per run",
            flush=True,
        )

        # The page everyone reads: a 50-hand Danish game, read-only (no cookie).
        data = game_data("danish", PAGE_HANDS, "bench protokoll")
        status, answer = call(
            PLAIN,
            app.url + "/api/games/import",
            "POST",
            json.dumps(data).encode(),
            {"Content-Type": "application/json"},
        )
        if status != 201:
            raise SystemExit(f"POST /api/games/import answered {status}: {answer[:200]!r}")
        page_game = json.loads(answer)
        scripts = out / "lua"
        scripts.mkdir()
        bare_lua = lua_script(scripts / "bare.lua", [("GET", "/ping", {}, None)])
        read_lua = lua_script(scripts / "protokoll.lua", [("GET", f"/g/{page_game['id']}", {}, None)])
        floor_lua = lua_script(
            scripts / "floor.lua",
            [("POST", "/floor", {"Content-Type": "application/json"}, json.dumps(HAND_BODY))],
        )
        for _ in range(20):  # warm the servers' workers
            call(PLAIN, bare.url + "/ping")
            call(PLAIN, floor.url + "/floor")
            call(PLAIN, f"{app.url}/g/{page_game['id']}")

        parts = (*parts, *(name for name, _, _ in befores))
        runs: dict[str, list] = {name: [] for name in parts}
        for clients in [c for c in args.clients for _ in range(rounds)]:
            before_runs = []  # the JSON hand entry of each --before tree, on a pool of its own
            for name, server, _ in befores:
                before_pool = [new_game(server.url, f"bench {name} {clients}.{k}") for k in range(POOL)]
                before_lua = hands_script(scripts / f"{name}-{clients}.lua", before_pool)
                before_runs.append((name, server.url, before_lua, before_pool))
            # (a) a fresh pool of games for the JSON API
            pool = [new_game(app.url, f"bench api {clients}.{k}") for k in range(POOL)]
            api_lua = hands_script(scripts / f"api-{clients}.lua", pool)
            # (b) a fresh pool for the form: each game's phone holds its edit key and a CSRF token in its session
            form_pool = [new_game(app.url, f"bench form {clients}.{k}") for k in range(POOL)]
            form_targets = []
            for k, g in enumerate(form_pool):
                cookie, token = form_session(app.url, g)
                body = urlencode({"csrf_token": token, **FORM_BODY, "bidder": str(k % 4), "partner": str((k + 2) % 4)})
                form_targets.append(
                    (
                        "POST",
                        f"/g/{g['id']}/hands/new",
                        {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie},
                        body,
                    )
                )
            form_lua = lua_script(scripts / f"form-{clients}.lua", form_targets)

            for name, base, script, ids in (
                ("bare", bare.url, bare_lua, None),
                ("floor", floor.url, floor_lua, None),
                *before_runs,
                ("api", app.url, api_lua, pool),
                ("form", app.url, form_lua, form_pool),
                ("page", app.url, read_lua, None),
            ):
                if name not in parts:
                    continue
                server = {"bare": bare, "floor": floor, **{n: b for n, b, _ in befores}}.get(name, app)
                user, system = server.cpu_split()
                result = wrk(base, script, clients, args.duration)
                user_after, system_after = server.cpu_split()
                requests = max(result["requests"], 1)
                result["cpu_ms_per_request"] = (user_after + system_after - user - system) * 1000 / requests
                result["user_ms_per_request"] = (user_after - user) * 1000 / requests
                result["load"] = round(os.getloadavg()[0], 2)
                if ids:
                    result["stored"] = hands_stored(
                        {n: d for n, _, d in befores}.get(name, db_path), [g["id"] for g in ids]
                    )
                runs[name].append(result)
                extra = f", {result['stored']['total']} hands stored" if ids else ""
                print(
                    f"  {name:5} {clients:3} clients: {result['rps']:8.0f} req/s  p50 {result['p50_ms']:7.2f} ms  "
                    f"p99 {result['p99_ms']:7.2f} ms  CPU {result['cpu_ms_per_request']:.2f} ms/req  "
                    f"errors {result['errors']}{extra}",
                    flush=True,
                )
        return runs
    finally:
        app.stop()
        bare.stop()
        floor.stop()
        for _, server, _ in befores:
            server.stop()


# ---------------------------------------------------------------- scaling, in-process


def median_ms(client, path: str, runs: int, before=None) -> tuple[float, float]:
    """Median wall time and median CPU time of this process, in ms; CPU time hardly moves when others load the machine.

    `before` runs ahead of each timed request, untimed (scaling() forgets the kept sheets there)."""
    client.get(path)  # warm
    wall, cpu = [], []
    for _ in range(runs):
        if before:
            before()
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(path)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        if response.status_code != 200:
            raise SystemExit(f"GET {path} answered {response.status_code}")
    return statistics.median(wall) * 1000, statistics.median(cpu) * 1000


class Subresources(HTMLParser):
    """The URLs a browser fetches while loading the page (not links the user may follow)."""

    def __init__(self):
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        rel = (a.get("rel") or "").lower().split()
        if (
            tag == "link"
            and a.get("href")
            and set(rel)
            & {"stylesheet", "icon", "preload", "modulepreload", "manifest", "apple-touch-icon", "shortcut"}
        ):
            self.urls.append(a["href"])
        elif tag in ("script", "img", "iframe", "embed", "audio", "video", "source", "track") and a.get("src"):
            self.urls.append(a["src"])
        elif tag == "object" and a.get("data"):
            self.urls.append(a["data"])
        elif tag == "input" and (a.get("type") or "").lower() == "image" and a.get("src"):
            self.urls.append(a["src"])
        for name in ("srcset", "poster"):
            if a.get(name):
                self.urls.extend(part.strip().split()[0] for part in a[name].split(",") if part.strip())


def first_visit(client, path: str) -> dict:
    """The page, then everything it pulls in (stylesheets' url() and @import included); data: URIs cost no request."""
    html = client.get(path).data
    parser = Subresources()
    parser.feed(html.decode())
    queue, seen, fetched, external = list(parser.urls), set(), [], []
    total = len(html)
    while queue:
        url = queue.pop(0)
        if url.startswith("data:") or url in seen:
            continue
        seen.add(url)
        parts = urlsplit(url)
        if parts.netloc and parts.hostname not in ("localhost", "127.0.0.1"):
            external.append(url)
            continue
        response = client.get(parts.path + (f"?{parts.query}" if parts.query else ""))
        fetched.append({"url": parts.path, "status": response.status_code, "bytes": len(response.data)})
        total += len(response.data)
        if response.mimetype == "text/css":
            css = response.data.decode()
            queue += re.findall(r"""url\(\s*['"]?([^'")]+)['"]?\s*\)""", css)
            queue += re.findall(r"""@import\s+['"]([^'"]+)['"]""", css)
    return {
        "requests": 1 + len(fetched) + len(external),
        "subresources": fetched,
        "external": external,
        "total_bytes": total,
    }


def scaling(args, out: Path) -> dict:
    """Each read timed twice: by a worker that has not kept the game's sheet (it reads every hand and replays them:
    the first read after a change made elsewhere), and with the sheet kept (only the page or the JSON is made)."""
    from scorekeeper import create_app
    from scorekeeper.games import cache, service
    from scorekeeper.server.db import get_db

    app = create_app({"DATABASE": str(out / "scaling.sqlite"), "SECRET_KEY": "bench"})
    client = app.test_client()
    rows = []
    print("Scaling (in-process, median of runs; replayed, and with the sheet kept):", flush=True)
    for variant in PLAYERS:
        for size in SIZES:
            n = min(size, MAX_HANDS.get(variant, size))
            with app.app_context():
                game_id, _key = service.import_game(get_db(), game_data(variant, n))
            runs = 7 if n >= 500 else 11
            page, page_cpu = median_ms(client, f"/g/{game_id}", runs, before=cache.games.clear)
            api, api_cpu = median_ms(client, f"/api/games/{game_id}", runs, before=cache.games.clear)
            page_kept, _ = median_ms(client, f"/g/{game_id}", runs)
            api_kept, _ = median_ms(client, f"/api/games/{game_id}", runs)
            rows.append(
                {
                    "variant": variant,
                    "hands": n,
                    "page_ms": page,
                    "page_cpu_ms": page_cpu,
                    "json_ms": api,
                    "json_cpu_ms": api_cpu,
                    "page_kept_ms": page_kept,
                    "json_kept_ms": api_kept,
                }
            )
            print(
                f"  {variant:9} {n:5} hands: protokoll {page:7.1f} ms ({page_cpu:.1f} CPU), kept {page_kept:6.1f} ms; "
                f"JSON {api:6.1f} ms ({api_cpu:.1f} CPU), kept {api_kept:6.1f} ms",
                flush=True,
            )

    with app.app_context():
        game_id, key = service.import_game(get_db(), game_data("danish", PAGE_HANDS, "Thursday at Bo's"))
    viewer = client.get(f"/g/{game_id}").data
    editor_client = app.test_client()
    editor_client.get(f"/g/{game_id}/k/{key}")
    editor = editor_client.get(f"/g/{game_id}").data
    visit = first_visit(app.test_client(), f"/g/{game_id}")
    page = {
        "hands": PAGE_HANDS,
        "viewer_bytes": len(viewer),
        "viewer_gzip": len(gzip.compress(viewer, 6)),
        "editor_bytes": len(editor),
        "editor_gzip": len(gzip.compress(editor, 6)),
        **visit,
    }
    print(
        f"  protokoll of {PAGE_HANDS} hands: {page['viewer_bytes']} bytes ({page['viewer_gzip']} gzip) read-only, "
        f"{page['editor_bytes']} ({page['editor_gzip']} gzip) with the edit right; first visit "
        f"{page['requests']} requests, {len(page['external'])} to other hosts",
        flush=True,
    )
    return {"rows": rows, "page": page}


EVENING_HANDS = 60  # a Danish evening


def long_game(n: int) -> dict:
    """The costliest sheet measured: Danish, five players with long names (classic and norwegian draw faster)."""
    data = game_data("danish", n, "Lang aften hos Skovbo-Kristoffersen")
    data["players"] = [f"Skovbo-Kristoffersen-Høegh-Guldberg {i}" for i in range(5)]
    data["options"]["rate"] = 0.05
    # Five at the table: the dealer (seat i % 5 in hand i) sits out, so a hand of theirs is passed out instead.
    data["hands"] = [
        h if h.get("passed") or i % 5 not in (h["bidder"], h.get("partner")) else {"passed": True}
        for i, h in enumerate(data["hands"])
    ]
    return data


def pdf_cost(out: Path) -> dict:
    """A game's PDF as the app draws it now (ReportLab, in the worker's renderer process, through the test client):
    the first of a worker (its renderer starts), a 60-hand Danish evening three times (three games), the largest game
    the app takes (MAX_HANDS hands, five long names: the costliest sheet) by a fresh renderer (its peak memory and CPU
    from /proc), a blank Danish sheet, then downloads again (the kept file) and a revalidation (304). Beside it, in
    the same run, the old path: the same print pages' HTML drawn by WeasyPrint in a renderer process of its own."""
    from flask import render_template

    from scorekeeper import create_app
    from scorekeeper.games import paper, service, sheets
    from scorekeeper.server.db import get_db

    app = create_app({"DATABASE": str(out / "pdf.sqlite"), "SECRET_KEY": "bench", "GC_FREEZE": False})
    n = app.config["MAX_HANDS"]
    load_before = os.getloadavg()
    with app.app_context():
        evenings = []
        for k in range(4):
            data = game_data("danish", EVENING_HANDS, f"Torsdag {k}")
            data["options"]["rate"] = 0.05
            evenings.append(service.import_game(get_db(), data)[0])
        big = service.import_game(get_db(), long_game(n), max_hands=n)[0]
    client = app.test_client()

    def timed(path, **kw):
        started = time.perf_counter()
        answer = client.get(path, **kw)
        took = time.perf_counter() - started
        assert answer.status_code in (200, 304), (path, answer.status_code)
        return took, answer

    for game_id in [*evenings, big]:
        client.get(f"/g/{game_id}")  # the sheets scored and kept: what is timed is the PDF
    sheets.renderer.stop()
    sheets.renderer.workers = 1  # one renderer process, so that its CPU is read from the process that drew
    started: list = []  # the worker's first PDF: its renderer starts (ReportLab imported, fonts registered)
    pid = started_child(lambda: started.append(timed(f"/g/{evenings[0]}/sheet.pdf")[0]))
    first = started[0]
    evening, evening_cpu = [], []
    evening_worker_cpu = []
    for game_id in evenings[1:]:
        before, worker_before = cpu_seconds(pid), time.process_time()
        evening.append(timed(f"/g/{game_id}/sheet.pdf")[0])
        evening_cpu.append(cpu_seconds(pid) - before)
        evening_worker_cpu.append(time.process_time() - worker_before)
    renderer_mib = rss_mib(pid)
    sheets.renderer.stop()
    with app.test_request_context("/"):  # a fresh renderer, warm: its peak is the big sheet's
        pid = started_child(lambda: sheets.render_pdf({"title": "warm", "blocks": []}))
    before, worker_before = cpu_seconds(pid), time.process_time()
    drawn, answer = timed(f"/g/{big}/sheet.pdf")
    drawn_cpu = cpu_seconds(pid) - before
    drawn_worker_cpu = time.process_time() - worker_before
    peak = peak_mib(pid)
    blank, _ = timed("/blank/danish.pdf?seats=5")
    kept = sorted(timed(f"/g/{big}/sheet.pdf")[0] for _ in range(5))[2]
    etag = answer.headers["ETag"]
    revalidated = sorted(timed(f"/g/{big}/sheet.pdf", headers={"If-None-Match": etag})[0] for _ in range(5))[2]
    (out / "big.pdf").write_bytes(answer.data)
    info = subprocess.run(["pdfinfo", str(out / "big.pdf")], capture_output=True, text=True).stdout
    pages = int(re.search(r"Pages:\s+(\d+)", info)[1]) if "Pages:" in info else None
    (out / "big.pdf").unlink()

    # The old path in the same run: WeasyPrint drawing the print pages' own HTML, in a process of its own.
    origin = "https://sheet.invalid"
    with app.test_request_context("/g/x/sheet.pdf"):
        jobs = [
            {
                "name": name,
                "html": render_template(
                    "print/sheet.html", pdf=True, **paper.sheet_context(service.load(get_db(), game_id))
                ),
            }
            for name, game_id in [*((f"evening{k}", g) for k, g in enumerate(evenings[1:])), ("big", big)]
        ]
        wanted = paper.blank_request("danish", {"seats": "5"})
        jobs.append(
            {
                "name": "blank",
                "html": render_template(
                    "print/blank.html", pdf=True, **paper.blank_context("danish", wanted["players"], wanted["options"])
                ),
            }
        )
        spec = {
            "jobs": jobs,
            "static_folder": app.static_folder,
            "prefix": origin + app.static_url_path + "/",
            "base_url": origin + "/",
        }
    (out / "weasy-jobs.json").write_text(json.dumps(spec))
    baseline = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "weasy.py"), str(out / "weasy-jobs.json")],
        capture_output=True,
        text=True,
        check=True,
    )
    (out / "weasy-jobs.json").unlink()
    weasy = json.loads(baseline.stdout.strip().splitlines()[-1])
    weasy_evening = [weasy[f"evening{k}"]["s"] for k in range(len(evenings) - 1)]
    weasy_evening_cpu = [weasy[f"evening{k}"]["cpu_s"] for k in range(len(evenings) - 1)]
    weasy_big, weasy_big_cpu = weasy["big"]["s"], weasy["big"]["cpu_s"]
    weasy_blank, weasy_peak = weasy["blank"]["s"], weasy["peak_mib"]
    result = {
        "hands": n,
        "evening_hands": EVENING_HANDS,
        "load_before": [round(v, 2) for v in load_before],
        "load_after": [round(v, 2) for v in os.getloadavg()],
        "first_s": first,
        "evening_s": evening,
        "evening_median_s": statistics.median(evening),
        "evening_cpu_s": statistics.median(evening_cpu),
        "evening_worker_cpu_s": statistics.median(evening_worker_cpu),
        "drawn_worker_cpu_s": drawn_worker_cpu,
        "drawn_s": drawn,
        "drawn_cpu_s": drawn_cpu,
        "blank_s": blank,
        "pages": pages,
        "renderer_idle_mib": renderer_mib,
        "child_peak_mib": peak,
        "kept_ms": kept * 1000,
        "revalidated_ms": revalidated * 1000,
        "pdf_kb": len(answer.data) / 1000,
        "worker_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "weasy_evening_s": statistics.median(weasy_evening),
        "weasy_evening_cpu_s": statistics.median(weasy_evening_cpu),
        "weasy_big_s": weasy_big,
        "weasy_big_cpu_s": weasy_big_cpu,
        "weasy_blank_s": weasy_blank,
        "weasy_peak_mib": weasy_peak,
    }
    print(
        f"PDF (load {result['load_before']}): first of a worker {first:.2f} s; {EVENING_HANDS}-hand evening "
        + ", ".join(f"{t:.2f}" for t in evening)
        + f" s (WeasyPrint {result['weasy_evening_s']:.2f}); {n} hands (5 players, long names) {drawn:.2f} s, "
        f"{pages} pages, renderer peak {peak:.0f} MiB (WeasyPrint {weasy_big:.1f} s, {weasy_peak:.0f} MiB); "
        f"kept {kept * 1000:.1f} ms, 304 {revalidated * 1000:.1f} ms",
        flush=True,
    )
    return result


def peak_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


# ---------------------------------------------------------------- memory


MEMORY_GAMES = 1000
MEMORY_HANDS = 50


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def memory(args, out: Path) -> dict:
    """A worker's resident memory after serving the protokolls of 1,000 different games (50 hands each, the five
    variants in turn): one gunicorn sync worker, so that every game goes through it and its kept sheets."""
    from scorekeeper import create_app
    from scorekeeper.games import service
    from scorekeeper.server.db import get_db

    db_path = out / "memory.sqlite"
    app = create_app({"DATABASE": str(db_path), "SECRET_KEY": "bench", "GC_FREEZE": False})
    ids = []
    with app.app_context():
        for k in range(MEMORY_GAMES):
            variant = list(PLAYERS)[k % len(PLAYERS)]
            ids.append(service.import_game(get_db(), game_data(variant, MEMORY_HANDS, f"{variant} {k}"))[0])
    env = {
        "SCOREKEEPER_DATABASE": str(db_path),
        "SCOREKEEPER_SECRET_KEY": "bench",
        "SCOREKEEPER_RATELIMIT_ENABLED": "false",
    }
    server = Server("memory", "scorekeeper:create_app()", ROOT, 1, out, env)
    try:
        server.wait("/")
        worker = int(Path(f"/proc/{server.proc.pid}/task/{server.proc.pid}/children").read_text().split()[0])
        call(PLAIN, f"{server.url}/g/{ids[0]}")
        marks = {"started (one protokoll served)": rss_mib(worker)}
        for k, game_id in enumerate(ids, 1):
            status, _ = call(PLAIN, f"{server.url}/g/{game_id}")
            if status != 200:
                raise SystemExit(f"GET /g/{game_id} answered {status}")
            if k in (100, 500, MEMORY_GAMES):
                marks[f"after {k} games"] = rss_mib(worker)
        for game_id in ids[:100]:  # again: the kept sheets of the first games went out of the cache
            call(PLAIN, f"{server.url}/g/{game_id}")
        marks[f"after {MEMORY_GAMES} games and 100 again"] = rss_mib(worker)
    finally:
        server.stop()
    result = {"games": MEMORY_GAMES, "hands": MEMORY_HANDS, "rss_mib": marks}
    for what, mib in marks.items():
        print(f"  worker RSS {what}: {mib:.0f} MiB", flush=True)
    return result


# ---------------------------------------------------------------- the table


def floor_pairs(runs: dict) -> dict[int, list[tuple[dict, dict, dict]]]:
    """(floor, JSON, form) runs made back to back, grouped by the number of clients."""
    out: dict[int, list] = {}
    for floor, api, form in zip(runs["floor"], runs["api"], runs["form"]):
        out.setdefault(floor["clients"], []).append((floor, api, form))
    return out


def before_table(runs: dict, trees: list[str]) -> list[str]:
    """This tree's JSON hand entry beside each --before tree's, every one against the floor of the same round."""
    names = ["before" if k == 0 else f"before{k + 1}" for k in range(len(trees))]
    lines = [
        "",
        "JSON hand entry of each tree against the floor of the same round, run back to back (CPU: the workers' CPU"
        " time per request; load: the load average after the tree's run):",
        "",
        "| tree | clients | round | load | floor CPU ms | CPU ms | of it user | CPU ÷ floor | user ÷ floor's user "
        "| req/s ÷ floor | p99 ms | p99 ÷ floor |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for label, name in [*zip(trees, names), ("this tree", "api")]:
        rounds: dict[int, int] = {}
        for floor, run in zip(runs["floor"], runs[name]):
            k = rounds[floor["clients"]] = rounds.get(floor["clients"], 0) + 1
            fc = floor["cpu_ms_per_request"]
            lines.append(
                f"| {label} | {floor['clients']} | {k} | {run.get('load', '–')} | {fc:.2f} | "
                f"{run['cpu_ms_per_request']:.2f} | {run.get('user_ms_per_request', 0):.2f} | "
                f"{ratio(run['cpu_ms_per_request'], fc)} | "
                f"{ratio(run.get('user_ms_per_request', 0), floor.get('user_ms_per_request', 0))} | "
                f"{ratio(run['rps'], floor['rps'])} | {run['p99_ms']:.1f} | {ratio(run['p99_ms'], floor['p99_ms'])} |"
            )
    lines += [
        "",
        "Medians of the rounds' ratios:",
        "",
        "| tree | clients | CPU ÷ floor | user CPU ms | req/s ÷ floor | p99 ÷ floor |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for label, name in [*zip(trees, names), ("this tree", "api")]:
        by: dict[int, list] = {}
        for floor, run in zip(runs["floor"], runs[name]):
            by.setdefault(floor["clients"], []).append((floor, run))
        for clients, pairs in by.items():
            cpu = statistics.median(r["cpu_ms_per_request"] / f["cpu_ms_per_request"] for f, r in pairs)
            user = statistics.median(r.get("user_ms_per_request", 0) for f, r in pairs)
            rps = statistics.median(r["rps"] / f["rps"] for f, r in pairs)
            p99 = statistics.median(r["p99_ms"] / f["p99_ms"] for f, r in pairs)
            lines.append(f"| {label} | {clients} | {cpu:.2f} | {user:.2f} | {rps:.2f} | {p99:.2f} |")
    return lines


def floor_table(runs: dict) -> list[str]:
    lines = [
        "",
        "Hand entry against the honest floor (bench/floor.py: the request body stored as one row, WAL, "
        "synchronous=FULL, 201; no validation, scoring or log), run back to back (floor, JSON, form) per round:",
        "",
        "| clients | round | floor req/s | floor p99 ms | JSON req/s | JSON p99 ms | form req/s | form p99 ms "
        "| JSON ÷ floor req/s | JSON ÷ floor p99 | form ÷ floor req/s | form ÷ floor p99 "
        "| CPU ms/req floor · JSON · form |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for clients, rounds in floor_pairs(runs).items():
        for k, (floor, api, form) in enumerate(rounds, 1):
            lines.append(
                f"| {clients} | {k} | {floor['rps']:.0f} | {floor['p99_ms']:.2f} | {api['rps']:.0f} | "
                f"{api['p99_ms']:.2f} | {form['rps']:.0f} | {form['p99_ms']:.2f} | {ratio(api['rps'], floor['rps'])} | "
                f"{ratio(api['p99_ms'], floor['p99_ms'])} | {ratio(form['rps'], floor['rps'])} | "
                f"{ratio(form['p99_ms'], floor['p99_ms'])} | {floor['cpu_ms_per_request']:.2f} · "
                f"{api['cpu_ms_per_request']:.2f} · {form['cpu_ms_per_request']:.2f} |"
            )
    return lines


def floor_checks(runs: dict) -> list[tuple[str, bool, str]]:
    """The goals, on the median of the rounds' ratios."""
    checks = []
    for clients, rounds in floor_pairs(runs).items():
        api_cpu = statistics.median(a["cpu_ms_per_request"] / f["cpu_ms_per_request"] for f, a, _ in rounds)
        api_rps = statistics.median(a["rps"] / f["rps"] for f, a, _ in rounds)
        api_p99 = statistics.median(a["p99_ms"] / f["p99_ms"] for f, a, _ in rounds)
        form_rps = statistics.median(m["rps"] / f["rps"] for f, _, m in rounds)
        # Issue 27's goals (≥ 1.0 × the floor's throughput is out of reach on this disk and was retired there).
        checks += [
            (
                f"JSON hand entry CPU per request at {clients} clients ≤ 2.0 × the floor's",
                api_cpu <= 2.0,
                f"{api_cpu:.2f}",
            ),
            (f"JSON hand entry at {clients} clients ≥ 0.6 × the floor's req/s", api_rps >= 0.6, f"{api_rps:.2f}"),
            (f"JSON hand entry p99 at {clients} clients ≤ 2.0 × the floor's p99", api_p99 <= 2.0, f"{api_p99:.2f}"),
            (f"form hand entry at {clients} clients ≥ 0.6 × the floor's req/s", form_rps >= 0.6, f"{form_rps:.2f}"),
        ]
    return checks


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b else "–"


def report(
    info: dict,
    runs: dict | None,
    scale: dict | None,
    pdf: dict | None = None,
    slow: dict | None = None,
    phone: dict | None = None,
    mem: dict | None = None,
    watching: dict | None = None,
) -> str:
    lines = [
        f"Run {info['date']} on {info['nproc']} × {info['cpu']}, {info['python']}, {info['gunicorn']}, "
        f"{info['wrk']}; {served(info)} on 127.0.0.1, wrk {info['duration']} s "
        f"per run; load average before the run {info['load_before']}"
        + (f", after it {info['load_after']}." if "load_after" in info else "."),
        "",
    ]
    checks = []
    if runs and "bare" in runs:
        lines += [
            "| what | clients | req/s | p50 ms | p99 ms | bare req/s | bare p50 ms | bare p99 ms "
            "| req/s ÷ bare | p99 ÷ bare |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        names = {
            "floor": "(f) the floor: the body stored as one row",
            "api": "(a) hand, JSON API",
            "form": "(b) hand, form post → redirect",
            "page": f"(c) protokoll page, {PAGE_HANDS} hands",
        }
        for name, label in ((n, label) for n, label in names.items() if n in runs):
            for run, base in zip(runs[name], runs["bare"]):
                lines.append(
                    f"| {label} | {run['clients']} | {run['rps']:.0f} | {run['p50_ms']:.2f} | "
                    f"{run['p99_ms']:.2f} | {base['rps']:.0f} | {base['p50_ms']:.2f} | {base['p99_ms']:.2f} | "
                    f"{ratio(run['rps'], base['rps'])} | {ratio(run['p99_ms'], base['p99_ms'])} |"
                )
        errors = sum(r["errors"] for rs in runs.values() for r in rs)
        stored = [r["stored"] for n in ("api", "form") if n in runs for r in runs[n]]
        lines += [
            "",
            f"Errors (connect/read/write/timeout, or status ≥ 400): {errors}. Hand entry went round-robin "
            f"over {POOL} fresh Danish games per run; they reached at most "
            f"{max(s['max_per_game'] for s in stored)} hands.",
        ]
        for name, how in (("api", "JSON"), ("form", "form")):
            if name not in runs:
                continue
            run, base = runs[name][-1], runs["bare"][-1]  # the most clients
            checks.append(
                (
                    f"hand entry ({how}) at {run['clients']} clients ≥ {TARGETS['throughput']} × bare req/s",
                    run["rps"] / base["rps"] >= TARGETS["throughput"],
                    ratio(run["rps"], base["rps"]),
                )
            )
            checks.append(
                (
                    f"hand entry ({how}) p99 at {run['clients']} clients < {TARGETS['p99']:.0f} × bare p99",
                    run["p99_ms"] / base["p99_ms"] < TARGETS["p99"],
                    ratio(run["p99_ms"], base["p99_ms"]),
                )
            )
    if runs and "floor" in runs:
        lines += floor_table(runs)
        checks += floor_checks(runs)
        if runs.get("before"):
            lines += before_table(runs, info.get("before", []))
    if scale:
        by = {(r["variant"], r["hands"]): r for r in scale["rows"]}
        variants = list(dict.fromkeys(r["variant"] for r in scale["rows"]))
        lines += [
            "",
            "Server time per request, in-process (median), for games of 10, 100 and 1,000 hands "
            f"({', '.join(f'{v} stops at {n} hands' for v, n in MAX_HANDS.items())}): read "
            'and replayed, as by a worker that has not kept the sheet; "kept": with the sheet kept.',
            "",
            "| variant | hands | protokoll page ms | (CPU ms) | µs per hand | kept ms | JSON game ms | (CPU ms) "
            "| µs per hand | kept ms |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for v in variants:
            for r in (r for r in scale["rows"] if r["variant"] == v):
                lines.append(
                    f"| {v} | {r['hands']} | {r['page_ms']:.1f} | {r['page_cpu_ms']:.1f} | "
                    f"{1000 * r['page_ms'] / r['hands']:.0f} | {r['page_kept_ms']:.1f} | {r['json_ms']:.1f} | "
                    f"{r['json_cpu_ms']:.1f} | {1000 * r['json_ms'] / r['hands']:.0f} | {r['json_kept_ms']:.1f} |"
                )
        p = scale["page"]
        lines += [
            "",
            f"Protokoll page of a {p['hands']}-hand Danish game: {p['viewer_bytes'] / 1000:.1f} KB "
            f"({p['viewer_gzip'] / 1000:.1f} KB gzip) read-only, {p['editor_bytes'] / 1000:.1f} KB "
            f"({p['editor_gzip'] / 1000:.1f} KB gzip) with the edit right. A first visit makes "
            f"{p['requests']} requests ("
            + ", ".join(["the page"] + [s["url"] for s in p["subresources"]])
            + f"), {len(p['external'])} to another host; {p['total_bytes'] / 1000:.1f} KB in all.",
        ]
        big = [r for r in scale["rows"] if r["hands"] == 1000]
        if big:
            slowest = max(big, key=lambda r: r["page_ms"])
            checks.append(
                (
                    f"protokoll of 1,000 hands < {TARGETS['ms_1000']:.0f} ms ({slowest['variant']}, slowest)",
                    slowest["page_ms"] < TARGETS["ms_1000"],
                    f"{slowest['page_ms']:.1f} ms",
                )
            )
        for v in variants:
            small, large = by[(v, 100)], by[(v, max(h for (w, h) in by if w == v))]
            growth = (large["page_ms"] / small["page_ms"]) / (large["hands"] / small["hands"])
            checks.append(
                (
                    f"protokoll grows linearly ({v}: time ratio ÷ hands ratio, {small['hands']} → "
                    f"{large['hands']}, ≤ 1.3)",
                    growth <= 1.3,
                    f"{growth:.2f}",
                )
            )
        checks.append(
            (
                f"protokoll of {p['hands']} hands < {TARGETS['page_kb']:.0f} KB (read-only and editor)",
                max(p["viewer_bytes"], p["editor_bytes"]) < TARGETS["page_kb"] * 1000,
                f"{max(p['viewer_bytes'], p['editor_bytes']) / 1000:.1f} KB",
            )
        )
        checks.append(("no request to another host", not p["external"], str(len(p["external"]))))
    if pdf:
        lines += [
            "",
            f"A game's PDF, server time (the test client), drawn by the worker's renderer process (ReportLab); beside "
            f"it the same print pages' HTML drawn by WeasyPrint (the old path) in the same run. The largest game the "
            f"app takes is {pdf['hands']} Danish hands with five players with long names (the costliest sheet), "
            f"{pdf['pages']} pages. Load average {pdf['load_before'][0]} before, {pdf['load_after'][0]} after.",
            "",
            "| PDF | ReportLab s | (worker + renderer CPU s) | WeasyPrint s | (CPU s) | ratio |",
            "|---|---:|---:|---:|---:|---:|",
            f"| first of a worker ({pdf['evening_hands']} hands; the renderer starts) | {pdf['first_s']:.2f} | | | | |",
            f"| a {pdf['evening_hands']}-hand Danish evening (median of {len(pdf['evening_s'])}) | "
            f"{pdf['evening_median_s']:.3f} | {pdf['evening_worker_cpu_s']:.2f} + {pdf['evening_cpu_s']:.2f} | "
            f"{pdf['weasy_evening_s']:.2f} | "
            f"{pdf['weasy_evening_cpu_s']:.2f} | {ratio(pdf['evening_median_s'], pdf['weasy_evening_s'])} |",
            f"| {pdf['hands']} hands, five players | {pdf['drawn_s']:.2f} | "
            f"{pdf['drawn_worker_cpu_s']:.2f} + {pdf['drawn_cpu_s']:.2f} | "
            f"{pdf['weasy_big_s']:.2f} | {pdf['weasy_big_cpu_s']:.2f} | {ratio(pdf['drawn_s'], pdf['weasy_big_s'])} |",
            f"| a blank Danish sheet, five seats | {pdf['blank_s']:.3f} | | {pdf['weasy_blank_s']:.2f} | | "
            f"{ratio(pdf['blank_s'], pdf['weasy_blank_s'])} |",
            f"| again, from the kept file | {pdf['kept_ms'] / 1000:.4f} | | | | |",
            f"| again with If-None-Match (304) | {pdf['revalidated_ms'] / 1000:.4f} | | | | |",
            "",
            f"Renderer: {pdf['renderer_idle_mib']:.0f} MiB resident after the evenings, peak {pdf['child_peak_mib']:.0f} "
            f"MiB with the largest game (WeasyPrint's {pdf['weasy_peak_mib']:.0f} MiB); the worker's own peak "
            f"{pdf['worker_rss_mib']:.0f} MiB; the PDF {pdf['pdf_kb']:.0f} KB.",
        ]
        checks += [
            (
                f"PDF of a {pdf['evening_hands']}-hand evening ≤ 0.2 s",
                pdf["evening_median_s"] <= 0.2,
                f"{pdf['evening_median_s']:.3f} s",
            ),
            (
                "… its CPU (worker + renderer, which the machine's load hardly moves) ≤ 0.2 s",
                pdf["evening_worker_cpu_s"] + pdf["evening_cpu_s"] <= 0.2,
                f"{pdf['evening_worker_cpu_s'] + pdf['evening_cpu_s']:.2f} s",
            ),
            (f"PDF of {pdf['hands']} hands ≤ 1.5 s", pdf["drawn_s"] <= 1.5, f"{pdf['drawn_s']:.2f} s"),
            (
                "… its CPU (worker + renderer) ≤ 1.5 s",
                pdf["drawn_worker_cpu_s"] + pdf["drawn_cpu_s"] <= 1.5,
                f"{pdf['drawn_worker_cpu_s'] + pdf['drawn_cpu_s']:.2f} s",
            ),
            (
                f"renderer peak with {pdf['hands']} hands ≤ 100 MiB",
                pdf["child_peak_mib"] <= 100,
                f"{pdf['child_peak_mib']:.0f} MiB",
            ),
            ("a repeat download from the kept file ≤ 20 ms", pdf["kept_ms"] <= 20, f"{pdf['kept_ms']:.1f} ms"),
        ]
    if phone:
        lines += ["", "What a phone feels (bench/phone.py):", "", phone_bench.table(phone)]
        checks.append(
            (
                "Save → updated protokoll ≤ 1.3 × a static page of the same size",
                phone["ratio"] <= 1.3,
                f"{phone['ratio']:.2f}",
            )
        )
    if mem:
        lines += [
            "",
            f"A gunicorn worker's resident memory serving the protokolls of {mem['games']} different games "
            f"({mem['hands']} hands each, the variants in turn), one worker:",
            "",
            "| when | RSS MiB |",
            "|---|---:|",
        ] + [f"| {what} | {mib:.0f} |" for what, mib in mem["rss_mib"].items()]
        worst = max(mem["rss_mib"].values()) * 1.048576
        checks.append((f"a worker after {mem['games']} games ≤ 150 MB", worst <= 150, f"{worst:.0f} MB"))
    if slow:
        lines += [
            "",
            "An ordinary page (GET /) while 1,100 and 3,000 slow sockets of one client stay connected, the server "
            "now against waitress as before (bench/slow_clients.py):",
            "",
            slow_clients.table(slow),
        ]
    if watching:
        lines += [
            "",
            "An idle watching phone (bench/live.py): today's meta-refresh reload of the page against live.js's poll "
            "of its /live twin (304), the app under waitress as make run serves it, in one run:",
            "",
            live_bench.table(watching),
        ]
        checks += live_bench.checks(watching)
    if checks:
        lines += ["", "Targets:", ""] + [f"- {'✔' if ok else '✘'} {what}: {value}" for what, ok, value in checks]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=10, help="seconds per wrk run (default 10)")
    parser.add_argument("--clients", default="1,8,32", help="concurrent connections, comma-separated")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers, as make run (default 2)")
    parser.add_argument(
        "--only",
        choices=("load", "floor", "scaling", "pdf", "phone", "memory", "slow", "live"),
        help="run one part only",
    )
    parser.add_argument("--rounds", type=int, default=2, help="rounds of --only floor (default 2)")
    parser.add_argument(
        "--server",
        choices=("gunicorn", "waitress"),
        default="gunicorn",
        help="serve the app, the floor and bare Flask with gunicorn's sync workers (default), or as make run does: "
        f"one waitress process with {WAITRESS_THREADS} threads",
    )
    parser.add_argument(
        "--before", help="with --only floor: a checkout whose JSON hand entry is served beside this one"
    )
    args = parser.parse_args(argv)
    args.clients = [int(c) for c in args.clients.split(",")]
    out = BENCH / "results" / datetime.now().strftime("%Y%m%d-%H%M%S")
    out.mkdir(parents=True)
    info = {**machine(), "workers": args.workers, "duration": args.duration, "server": args.server}
    if args.before:
        info["before"] = [t for t in args.before.split(",") if t]
    print(f"{info['date']}: {info['nproc']} × {info['cpu']}, {info['python']}; results in {out}", flush=True)
    if info["load_before"] > 0.5:
        print(f"Note: the machine is busy (load average {info['load_before']}); the figures will be noisy.", flush=True)
    if args.only == "floor":
        args.clients = [c for c in args.clients if c > 1] or [8, 32]
        runs = load(args, out, parts=("floor", "api", "form"), rounds=args.rounds)
    else:
        runs = load(args, out) if args.only in (None, "load") else None
    scale = scaling(args, out) if args.only in (None, "scaling") else None
    pdf = pdf_cost(out) if args.only in (None, "pdf") else None
    slow = slow_clients.run() if args.only in (None, "slow") else None
    phone = phone_bench.run() if args.only in (None, "phone") else None
    mem = memory(args, out) if args.only in (None, "memory") else None
    watching = live_bench.run() if args.only in (None, "live") else None
    info["load_after"] = round(os.getloadavg()[0], 2)
    table = report(info, runs, scale, pdf, slow, phone, mem, watching)
    (out / "table.md").write_text(table + "\n")
    (out / "results.json").write_text(
        json.dumps(
            {
                "machine": info,
                "load": runs,
                "scaling": scale,
                "pdf": pdf,
                "slow_clients": slow,
                "phone": phone,
                "memory": mem,
                "live": watching,
            },
            indent=1,
        )
    )
    for name in (
        "bench.sqlite",
        "floor.sqlite",
        "scaling.sqlite",
        "pdf.sqlite",
        "memory.sqlite",
    ):  # the figures are kept; the databases are not
        for path in out.glob(name + "*"):
            path.unlink()
    for path in out.glob("before*.sqlite*"):
        path.unlink()
    shutil.rmtree(out / "pdf", ignore_errors=True)  # the kept PDF beside pdf.sqlite
    print("\n" + table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
