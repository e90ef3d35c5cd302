#!/usr/bin/env python3
"""A country's whist night (issue 37): a benchmark row, not a test.

T tables at once, each entering a hand every HAND_EVERY seconds (its scorer's phone: the JSON API, its edit key)
while its three other phones watch the protokoll, asking its live twin every POLL_EVERY seconds as static/live.js
does (X-Live-Tag and X-Live-Parts, each phone on its own kept connection with its own session; after a hand of its
table a phone gets what changed, or with --pages the fresh page, and takes its new tag). Open loop: every request is due at its own time whatever the answers before it
did, and its time is counted from when it was due (a phone still waiting sends its next question when it can, late).

Beside it in the same run, in alternating blocks, the floor: nginx answering the same phones' If-None-Match for a
saved copy of the same page with `304` (its ETag), and one durable INSERT per hand (bench/floor.py: a Flask route, one
row, WAL, synchronous=FULL, under gunicorn's 2 sync workers). For each: the server processes' CPU (all of them, from
/proc) per table·second, each kind of request's p50/p99/max from when it was due, the connections opened, the errors,
and the load average before and after.

With --behind-nginx, a third block: the same phones through nginx in front of the same scorekeeper serve, as
deploy/nginx.conf puts it (the phones' kept connections held by nginx, eight kept to the app), its CPU nginx's and the
app's together.

Usage: python bench/night.py [--tables 100 300] [--seconds 40] [--rounds 1] [--workers N] [--behind-nginx]; prints
Markdown.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH))

from procstat import cpu_seconds  # noqa: E402  (bench/procstat.py)

POLL_EVERY = 5.0  # seconds between two questions of a watching phone (web.live.SECONDS)
HAND_EVERY = 180.0  # seconds between two hands of a table
WATCHERS = 3  # phones watching each table's protokoll
HANDS_BEFORE = 8  # hands each game has when the night is measured
HAND = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9}
TAG = re.compile(rb'data-live-tag="([^"]+)"')
LIVE = re.compile(rb'data-live-url="([^"]+)"')
TIMEOUT = 30.0
CONNECTIONS = 4000  # per worker (scorekeeper serve's SERVER_CONNECTION_LIMIT; nginx's worker_connections 4096)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, proc: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except OSError:
            if proc.poll() is not None:
                raise SystemExit(f"{proc.args[0]} stopped") from None
            time.sleep(0.2)
    raise SystemExit(f"{url} did not answer")


def tree(pid: int) -> list[int]:
    """A process and its descendants (the serving processes: the supervisor, its workers, their renderers)."""
    out = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except FileNotFoundError:
        return []
    for child in children:
        out.extend(tree(int(child)))
    return out


def cpu_of(pids: list[int]) -> float:
    total = 0.0
    for root in pids:
        for pid in tree(root):
            try:
                total += cpu_seconds(pid)
            except (FileNotFoundError, ProcessLookupError):
                pass
    return total


# ---------------------------------------------------------------- the two servers


def ours(folder: Path, tables: int, workers: int | None) -> tuple[subprocess.Popen, int, list[dict]]:
    """scorekeeper serve (as make run) over a file with `tables` games of HANDS_BEFORE hands each."""
    database = folder / "night.sqlite"
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE": str(database),
        "SCOREKEEPER_SECRET_KEY": "bench",
        # every phone here is 127.0.0.1; a country's are their own addresses (each far under its caps)
        "SCOREKEEPER_SERVER_CONNECTIONS_PER_ADDRESS": "null",
        "SCOREKEEPER_REQUESTS_PER_ADDRESS": "null",  # the door's guard (its share of threads and reads a second)
        "SCOREKEEPER_RATELIMIT_ENABLED": "false",
        "SCOREKEEPER_SERVER_CONNECTION_LIMIT": str(CONNECTIONS),  # four a table: a night holds them all
        "SCOREKEEPER_LIVE_TAGS": str(folder / "live-tags"),  # what nginx in front answers from (--behind-nginx)
    }
    from scorekeeper import create_app

    app = create_app({"DATABASE": str(database), "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False})
    app.logger.disabled = True
    logging.getLogger("scorekeeper.request").disabled = True
    client = app.test_client()
    games = []
    for n in range(tables):
        body = {"variant": "danish", "players": ["Anna", "Bo", "Carl", "Dina"], "dealer": 0, "title": f"Table {n}"}
        game = client.post("/api/games", json=body).json
        for _ in range(HANDS_BEFORE):
            r = client.post(f"/api/games/{game['id']}/hands", json=HAND, headers={"X-Edit-Key": game["edit_key"]})
            assert r.status_code == 201, r.json
        games.append({"id": game["id"], "key": game["edit_key"]})
    port = free_port()
    cmd = [sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1", "--port", str(port)]
    if workers is not None:
        cmd += ["--workers", str(workers)]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(f"http://127.0.0.1:{port}/healthz", proc)
    return proc, port, games


NGINX_HEAD = """daemon off;
worker_processes {workers};
pid {dir}/nginx.pid;
error_log {dir}/error.log;
events {{ worker_connections 4096; }}
http {{
  access_log {dir}/access.log;
  client_body_temp_path {dir}/tmp; proxy_temp_path {dir}/tmp; fastcgi_temp_path {dir}/tmp;
  uwsgi_temp_path {dir}/tmp; scgi_temp_path {dir}/tmp;
  keepalive_requests 100000;
"""
NGINX = (
    NGINX_HEAD
    + """  server {{ listen 127.0.0.1:{port}; root {dir}/site; default_type text/html; }}
}}
"""
)


PROXY = (
    NGINX_HEAD
    + """  keepalive_timeout 30s;
  map $http_x_live_tag $scorekeeper_live_tag {{ "~^\\"?(?<tag>[0-9a-f]{{16}})\\"?$" $tag; default none; }}
  map $http_x_live_parts $scorekeeper_live_want {{ "" page; default parts; }}
  upstream scorekeeper {{ server 127.0.0.1:{app}; keepalive 8; }}
  server {{
    listen 127.0.0.1:{port};
    proxy_request_buffering on;
    proxy_buffering on;
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $host;
    proxy_set_header X-Forwarded-For $remote_addr;
    proxy_set_header X-Forwarded-Proto $scheme;
    location / {{ proxy_pass http://scorekeeper; }}
    location ~ "^/g/(?<live_game>[A-Za-z0-9_-]{{1,64}})/live$" {{
      root {tags};
      try_files /g/$live_game/$scorekeeper_live_tag /g/$live_game/$scorekeeper_live_tag.$scorekeeper_live_want
                @scorekeeper;
      default_type text/html;
      charset utf-8;
      etag off;
      if_modified_since off;
      add_header Cache-Control "no-store" always;
    }}
    location @scorekeeper {{ proxy_pass http://scorekeeper; }}
  }}
}}
"""
)


def nginx(here: Path, conf: str, probe: str) -> subprocess.Popen:
    """nginx with `conf` as its whole configuration, its prefix `here`, once `probe` answers."""
    (here / "nginx.conf").write_text(conf)
    proc = subprocess.Popen(
        [shutil.which("nginx") or "/usr/sbin/nginx", "-p", str(here), "-c", str(here / "nginx.conf")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_for(probe, proc)
    return proc


def proxy(folder: Path, app: int, workers: int) -> tuple[subprocess.Popen, int]:
    """nginx in front of scorekeeper serve as deploy/nginx.conf puts it (its proxy settings, upstream keepalive 8 and
    the unchanged polls answered from the app's LIVE_TAGS; no TLS, and no limit_req: every phone here is 127.0.0.1):
    (nginx, its port)."""
    here = folder / "proxy"
    (here / "tmp").mkdir(parents=True)
    here.chmod(0o755)
    port = free_port()
    tags = folder / "live-tags"
    conf = PROXY.format(dir=here, port=port, app=app, workers=workers, tags=tags)
    return nginx(here, conf, f"http://127.0.0.1:{port}/healthz"), port


def floor(folder: Path, page: bytes, workers: int) -> tuple[list[subprocess.Popen], int, int]:
    """nginx with the saved page at /page, and bench/floor.py under gunicorn: (processes, nginx's port, floor's)."""
    here = folder / "nginx"
    (here / "site").mkdir(parents=True)
    (here / "tmp").mkdir()
    (here / "site" / "page").write_bytes(page)
    for path in (folder, here, here / "site", here / "site" / "page"):  # nginx's workers may be another user (root's)
        path.chmod(0o755 if path.is_dir() else 0o644)
    web = free_port()
    static = nginx(here, NGINX.format(dir=here, port=web, workers=workers), f"http://127.0.0.1:{web}/page")
    inserts = free_port()
    env = {**os.environ, "FLOOR_DATABASE": str(folder / "floor.sqlite")}
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    app = subprocess.Popen(
        [gunicorn, "--workers", "2", "--bind", f"127.0.0.1:{inserts}", "floor:app"],
        cwd=BENCH,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_for(f"http://127.0.0.1:{inserts}/floor", app)
    return [static, app], web, inserts


# ---------------------------------------------------------------- the phones


class Conn:
    """One phone's kept connection: HTTP/1.1 by hand (asyncio streams), reopened when the server closes it."""

    def __init__(self, port: int, stats: dict):
        self.port = port
        self.stats = stats
        self.reader = self.writer = None
        self.cookie = ""

    async def request(self, method: str, path: str, headers: dict, body: bytes = b"") -> tuple[int, dict, bytes]:
        reused = self.writer is not None
        try:
            return await self._request(method, path, headers, body)
        except (ConnectionError, asyncio.IncompleteReadError):
            if not reused or method != "GET":
                raise
            # the server closed the kept connection while it was idle (nginx's keepalive_timeout: a phone that loaded
            # its page long before the night was measured): a browser asks again on a new one, and so does the phone
            self.close()
            self.stats["stale"] = self.stats.get("stale", 0) + 1
            return await self._request(method, path, headers, body)

    async def _request(self, method: str, path: str, headers: dict, body: bytes) -> tuple[int, dict, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            self.stats["connects"] += 1
        head = {"Host": f"127.0.0.1:{self.port}", **headers}
        if self.cookie:
            head["Cookie"] = self.cookie
        if body or method == "POST":
            head["Content-Length"] = str(len(body))
        text = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in head.items()) + "\r\n"
        self.writer.write(text.encode() + body)
        status_line = await self.reader.readline()
        if not status_line:
            self.close()
            raise ConnectionError("closed")
        status = int(status_line.split()[1])
        got = {}
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            got[name.strip().lower()] = value.strip()
        length = int(got.get("content-length", "0"))
        data = await self.reader.readexactly(length) if length else b""
        if "set-cookie" in got:
            self.cookie = got["set-cookie"].split(";", 1)[0]
        if got.get("connection", "").lower() == "close":
            self.close()
        return status, got, data

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Night:
    """The open-loop night against one server: its phones and scorers, and what each request took."""

    def __init__(self, kind: str, web: int, writes: int, games: list[dict], seconds: float, parts: bool = True):
        self.kind, self.web, self.writes, self.games, self.seconds = kind, web, writes, games, seconds
        self.parts = parts  # the phones take what changed (X-Live-Parts), as live.js does
        self.changed_bytes: list[int] = []  # what each changed poll was answered (the parts, or the whole page)
        self.whole_pages = 0
        self.times: dict[str, list[float]] = {"poll, unchanged": [], "poll, changed": [], "hand": []}
        self.stats = {"connects": 0, "errors": 0, "late": 0}

    async def opened(self, game: dict) -> tuple[Conn, str, str] | None:
        """A watching phone that has loaded the page (before the night is measured): its connection, live address
        and tag."""
        conn = Conn(self.web, self.stats)
        try:
            if self.kind != "floor":
                _, _, page = await conn.request("GET", f"/g/{game['id']}", {})
                return conn, LIVE.search(page).group(1).decode(), TAG.search(page).group(1).decode()
            _, got, _ = await conn.request("GET", "/page", {})
            return conn, "/page", got["etag"]
        except (OSError, ConnectionError, AttributeError):
            self.stats["errors"] += 1
            return None

    async def wake(self, phone: tuple[Conn, str, str] | None) -> None:
        """One question before the night is measured (not counted)."""
        if phone is not None:
            conn, url, tag = phone
            ask = {"X-Live-Tag": tag} if self.kind != "floor" else {"If-None-Match": tag}
            try:
                await asyncio.wait_for(conn.request("GET", url, ask), TIMEOUT)
            except (TimeoutError, OSError, ConnectionError, asyncio.IncompleteReadError, ValueError):
                conn.close()

    async def watcher(self, phone: tuple[Conn, str, str] | None, start: float) -> None:
        if phone is None:
            return
        conn, url, tag = phone
        due = start + random.uniform(0, POLL_EVERY)
        while due < start + self.seconds:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            ask = {"X-Live-Tag": tag, **({"X-Live-Parts": "1"} if self.parts else {})}
            if self.kind == "floor":
                ask = {"If-None-Match": tag}
            try:
                status, got, body = await asyncio.wait_for(conn.request("GET", url, ask), TIMEOUT)
            except (TimeoutError, OSError, ConnectionError, asyncio.IncompleteReadError, ValueError):
                self.stats["errors"] += 1
                conn.close()
            else:
                took = time.monotonic() - due
                if status == 200 and body:
                    self.times["poll, changed"].append(took)
                    self.changed_bytes.append(len(body))
                    self.whole_pages += b"<main" in body
                    found = TAG.search(body)
                    tag = found.group(1).decode() if found else tag
                elif status in (200, 304):
                    self.times["poll, unchanged"].append(took)
                else:
                    self.stats["errors"] += 1
                    self.stats.setdefault("statuses", []).append(status)
            due += POLL_EVERY
            if time.monotonic() > due:
                self.stats["late"] += 1
        conn.close()

    async def scorer(self, game: dict, start: float) -> None:
        conn = Conn(self.writes, self.stats)
        due = start + random.uniform(0, HAND_EVERY)
        body = json.dumps(HAND).encode()
        path = f"/api/games/{game['id']}/hands" if self.kind != "floor" else "/floor"
        headers = {"Content-Type": "application/json", "X-Edit-Key": game["key"]}
        while due < start + self.seconds:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            try:
                status, _, _ = await asyncio.wait_for(conn.request("POST", path, headers, body), TIMEOUT)
            except (TimeoutError, OSError, ConnectionError, asyncio.IncompleteReadError, ValueError):
                self.stats["errors"] += 1
                conn.close()
            else:
                if status == 201:
                    self.times["hand"].append(time.monotonic() - due)
                else:
                    self.stats["errors"] += 1
                    self.stats.setdefault("statuses", []).append(status)
            due += HAND_EVERY
        conn.close()

    async def run(self, measure) -> None:
        """The phones load their pages, then `measure()` is called and the night is played."""
        phones = []
        for n in range(0, len(self.games), 50):  # a few at a time: this is the evening's start, not its load
            phones += await asyncio.gather(*[self.opened(g) for g in self.games[n : n + 50] for _ in range(WATCHERS)])
        for n in range(0, len(phones), 150):  # each asks once, as a phone that loaded its page asks within 5 s: none
            await asyncio.gather(*[self.wake(phone) for phone in phones[n : n + 150]])  # has idled past keep-alive
        self.stats["connects"] = 0
        self.stats.pop("stale", None)
        measure()
        start = time.monotonic()
        tasks = [self.watcher(phone, start) for phone in phones]
        tasks += [self.scorer(g, start) for g in self.games]
        await asyncio.gather(*tasks)


def block(
    kind: str, web: int, writes: int, games: list[dict], seconds: float, pids: list[int], parts: bool = True
) -> dict:
    night = Night(kind, web, writes, games, seconds, parts)
    began = {}

    def measure():
        began.update(load=os.getloadavg()[0], cpu=cpu_of(pids), own=time.process_time(), t=time.monotonic())

    asyncio.run(night.run(measure))
    cpu1, own1, t1 = cpu_of(pids), time.process_time(), time.monotonic()
    load_before, cpu0, own0, t0 = began["load"], began["cpu"], began["own"], began["t"]
    kinds = {}
    for name, values in night.times.items():
        if values:
            values = sorted(values)
            kinds[name] = {
                "n": len(values),
                "p50_ms": round(statistics.median(values) * 1000, 1),
                "p99_ms": round(values[min(len(values) - 1, int(len(values) * 0.99))] * 1000, 1),
                "max_ms": round(values[-1] * 1000, 1),
            }
    return {
        "kind": kind,
        "tables": len(games),
        "seconds": round(t1 - t0, 1),
        "server_cpu_s": round(cpu1 - cpu0, 2),
        "ms_per_table_second": round((cpu1 - cpu0) * 1000 / (len(games) * (t1 - t0)), 3),
        "generator_cpu_s": round(own1 - own0, 2),
        "load": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "requests": kinds,
        "changed_kb_p50": round(statistics.median(night.changed_bytes) / 1024, 1) if night.changed_bytes else None,
        "changed_whole_pages": night.whole_pages,
        **night.stats,
    }


def table(rows: list[dict]) -> str:
    out = [
        "| tables | server | CPU ms per table·s | ratio | poll unchanged p50 / p99 | poll changed p50 / p99 | hand p50 / p99 |"
        " connects | errors | load before → after |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    floors = {r["tables"]: r["ms_per_table_second"] for r in rows if r["kind"] == "floor"}
    for r in rows:
        cells = []
        for name in ("poll, unchanged", "poll, changed", "hand"):
            k = r["requests"].get(name)
            cells.append(f"{k['p50_ms']} / {k['p99_ms']} ms ({k['n']})" if k else "—")
        ratio = r["ms_per_table_second"] / floors[r["tables"]] if floors.get(r["tables"]) else None
        out.append(
            f"| {r['tables']} | {r['kind']} | {r['ms_per_table_second']} | {f'{ratio:.1f}×' if ratio else '—'} | "
            + " | ".join(cells)
            + f" | {r['connects']} | {r['errors']} | {r['load'][0]} → {r['load'][1]} |"
        )
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[100, 300])
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None, help="scorekeeper serve's (default: one per core)")
    parser.add_argument(
        "--behind-nginx", action="store_true", help="also ours with nginx in front (deploy/nginx.conf's proxy)"
    )
    parser.add_argument(
        "--no-direct",
        action="store_true",
        help="with --behind-nginx: leave out ours served directly (it cannot carry "
        "thousands of tables on two cores, and its overload would spill into the next block)",
    )
    parser.add_argument(
        "--pages", action="store_true", help="the phones take the whole page after a change (live.js takes the parts)"
    )
    args = parser.parse_args()
    rows = []
    for tables in args.tables:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            proc, port, games = ours(folder, tables, args.workers)
            page = urllib.request.urlopen(f"http://127.0.0.1:{port}/g/{games[0]['id']}", timeout=30).read()
            cores = args.workers or len(os.sched_getaffinity(0))
            floors, web, inserts = floor(folder, page, cores)
            if args.behind_nginx:
                front, front_port = proxy(folder, port, cores)
                floors.append(front)  # stopped with them (its CPU is counted only in its own block)
            try:
                for _ in range(args.rounds):
                    if not (args.no_direct and args.behind_nginx):
                        rows.append(block("ours", port, port, games, args.seconds, [proc.pid], not args.pages))
                        print(json.dumps(rows[-1]), file=sys.stderr)
                    if args.behind_nginx:
                        pids = [proc.pid, front.pid]
                        rows.append(
                            block(
                                "ours behind nginx", front_port, front_port, games, args.seconds, pids, not args.pages
                            )
                        )
                        print(json.dumps(rows[-1]), file=sys.stderr)
                    floor_games = [{"id": g["id"], "key": ""} for g in games]
                    floor_pids = [p.pid for p in floors[:2]]
                    rows.append(block("floor", web, inserts, floor_games, args.seconds, floor_pids))
                    print(json.dumps(rows[-1]), file=sys.stderr)
            finally:
                for p in [proc, *floors]:
                    p.terminate()
                    try:
                        p.wait(15)
                    except subprocess.TimeoutExpired:
                        p.kill()
    print(table(rows))


if __name__ == "__main__":
    main()
