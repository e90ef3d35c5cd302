#!/usr/bin/env python3
"""A country's whist night (issues 37 and 47): a benchmark row, not a test.

T tables at once, each entering a hand every HAND_EVERY seconds (its scorer's phone: the JSON API, its edit key)
while its three other phones watch the protokoll, asking its live twin every POLL_EVERY seconds as static/live.js
does (X-Live-Tag and X-Live-Parts, each phone on its own kept connection with its own session; after a hand of its
table a phone gets what changed, or with --pages the fresh page, and takes its new tag). Open loop: every request is
due at its own time whatever the answers before it did, and its time is counted from when it was due (a phone still
waiting sends its next question when it can, late). The phones are driven by --generators processes
(bench/night_load.py, each a slice of the tables on its own asyncio loop, each table from an address of its own on
the loopback), their results merged; their CPU is theirs, not the server's.

Beside it in the same run, in alternating blocks, the floor: nginx answering the same phones' If-None-Match for a
saved copy of the same page with `304` (its ETag), and one durable INSERT per hand (bench/floor.py: a Flask route, one
row, WAL, synchronous=FULL, under gunicorn's 2 sync workers). Both sides log every request they answer as deployed:
the floor's nginx with deploy/nginx.conf's own log_format and redacting map (taken from that file), gunicorn's access
log for its INSERTs; the app's one line per request (LOG_LEVEL INFO, as `make run`) into a file, as nginx's into its
access log. For each block: the server processes' CPU (all of them, from /proc) per table·second and its ratio to the
floor's in the same round, each kind of request's p50/p99/max from when it was due, errors, the phones' reconnects,
stale answers (an unchanged answer to a poll asked after a hand of its table was acknowledged), the servers' peak
memory (VmHWM), the LIVE_TAGS folder at the end, and the load average before and after.

With --behind-nginx, a block of the same phones through nginx in front of the same scorekeeper serve with
deploy/nginx.conf as it is (its proxy settings, gzip, limits and log, each table to one worker by the upstream's
consistent hash, upstream keepalive 8, the unchanged polls answered from the app's LIVE_TAGS folder on tmpfs; only TLS
left out, and its ports and paths swapped), its CPU nginx's and the app's together: the app is then started as
deploy/scorekeeper.service starts it, with --port-per-worker (and --workers, one per core unless given), and the
upstream lists each worker's port (a tree whose upstream lists the one shared port 5000, before issue 47, is served
as before). Every nginx here may hold as many connections as the hard RLIMIT_NOFILE allows.

With --busy-core, another process spins on a core through every measured block (what p99 is with one core busy).

Usage: python bench/night.py [--tables 100 300] [--seconds 40] [--rounds 1] [--workers N] [--behind-nginx]
[--no-direct] [--generators N] [--busy-core] [--app-root DIR] [--app-env KEY=VALUE ...] [--json FILE] [--keep];
prints Markdown.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(ROOT / "tests"))

from night_load import HAND, WATCHERS, percentiles, raise_nofile  # noqa: E402  (bench/night_load.py)
from procstat import cpu_seconds  # noqa: E402  (bench/procstat.py)

from nginx_stack import SERVER, UPSTREAM, free_port, free_ports, swapped_upstream  # noqa: E402  (the tests' nginx)

HANDS_BEFORE = 8  # hands each game has when the night is measured
CONNECTIONS = 4000  # per worker served directly (scorekeeper serve's SERVER_CONNECTION_LIMIT)
TABLES_PER_GENERATOR = 2000  # --generators' default: 8,000 connections a process
KINDS = ("hand", "poll, changed", "poll, unchanged")


def wait_for(url: str, proc: subprocess.Popen, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=5).read()
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


def waited_of(pids: list[int]) -> float:
    """Seconds the processes' threads have waited on a run queue for a core so far (/proc/<pid>/task/<tid>/schedstat:
    time on a core, time waiting for one, slices): what other work on the machine took from the server."""
    total = 0
    for root in pids:
        for pid in tree(root):
            try:
                tasks = os.listdir(f"/proc/{pid}/task")
            except FileNotFoundError:
                continue
            for tid in tasks:
                try:
                    total += int(Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()[1])
                except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
                    pass
    return total / 1e9


def memory_of(root: int) -> dict:
    """The largest peak resident memory (VmHWM) of a process tree's processes, and their resident memory now (VmRSS)
    added up, in MB."""
    peak = now = 0
    for pid in tree(root):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except (FileNotFoundError, ProcessLookupError):
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        peak = max(peak, int(fields.get("VmHWM", "0 kB").split()[0]))
        now += int(fields.get("VmRSS", "0 kB").split()[0])
    return {"peak_mb": round(peak / 1024, 1), "rss_mb": round(now / 1024, 1)}


def folder_size(folder: Path) -> dict:
    """Files under `folder`, their bytes, and what tmpfs keeps for them (whole pages)."""
    files = size = kept = 0
    for here, _, names in os.walk(folder):
        for name in names:
            try:
                st = os.lstat(os.path.join(here, name))
            except FileNotFoundError:
                continue
            files += 1
            size += st.st_size
            kept += st.st_blocks * 512
    return {"files": files, "mb": round(size / 1e6, 1), "kept_mb": round(kept / 1e6, 1)}


def tmpfs_folder(prefix: str) -> tuple[Path, bool]:
    """A new folder on a tmpfs (as /run is where deploy/scorekeeper.service keeps the live tags), or in /tmp."""
    mounts = Path("/proc/mounts").read_text().splitlines()
    for candidate in ("/run", "/dev/shm"):
        if any(line.split()[1] == candidate and line.split()[2] == "tmpfs" for line in mounts):
            folder = Path(tempfile.mkdtemp(prefix=prefix, dir=candidate))
            folder.chmod(0o755)
            return folder, True
    return Path(tempfile.mkdtemp(prefix=prefix)), False


# ---------------------------------------------------------------- the servers


def ours(folder: Path, tags: Path, tables: int, workers: int | None, app_root: Path, app_env: dict, per_worker: bool):
    """scorekeeper serve (as make run; with `per_worker`, `workers` each with its own port as well, as
    deploy/scorekeeper.service) of `app_root`'s tree over a file with `tables` games of HANDS_BEFORE hands each: (its
    process, its shared port, each worker's own port (none without `per_worker`), the games)."""
    database = folder / "night.sqlite"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(app_root), *filter(None, [os.environ.get("PYTHONPATH")])]),
        "SCOREKEEPER_DATABASE": str(database),
        "SCOREKEEPER_SECRET_KEY": "bench",
        # the phones are a few thousand loopback addresses, each table's four behind one: the app's per-address
        # caps and rate limits are nginx's to show (limit_conn, limit_req as deployed), not the app's
        "SCOREKEEPER_SERVER_CONNECTIONS_PER_ADDRESS": "null",
        "SCOREKEEPER_REQUESTS_PER_ADDRESS": "null",  # the door's guard (its share of threads and reads a second)
        "SCOREKEEPER_RATELIMIT_ENABLED": "false",
        "SCOREKEEPER_SERVER_CONNECTION_LIMIT": str(CONNECTIONS),  # four a table: a night holds them all
        "SCOREKEEPER_LIVE_TAGS": str(tags),  # what nginx in front answers from (--behind-nginx)
        **{f"SCOREKEEPER_{k}": v for k, v in app_env.items()},
    }
    from scorekeeper import create_app

    app = create_app({"DATABASE": str(database), "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False})
    app.logger.disabled = True
    logging.getLogger("scorekeeper.request").disabled = True
    client = app.test_client()
    games = []
    started = time.monotonic()
    for n in range(tables):
        body = {"variant": "danish", "players": ["Anna", "Bo", "Carl", "Dina"], "dealer": 0, "title": f"Table {n}"}
        game = client.post("/api/games", json=body).json
        for _ in range(HANDS_BEFORE):
            r = client.post(f"/api/games/{game['id']}/hands", json=HAND, headers={"X-Edit-Key": game["edit_key"]})
            assert r.status_code == 201, r.json
        games.append({"id": game["id"], "key": game["edit_key"], "n": n})
    del app, client
    note(f"{tables} games of {HANDS_BEFORE} hands made in {time.monotonic() - started:.0f} s")
    if per_worker:
        workers = workers or len(os.sched_getaffinity(0))
        port, *own = free_ports(workers + 1)
    else:
        port, own = free_port(), []
    cmd = [sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1", "--port", str(port)]
    if workers is not None:
        cmd += ["--workers", str(workers)]
    if per_worker:
        cmd.append("--port-per-worker")
    # its one line per request (LOG_LEVEL INFO, as make run) into a file, as nginx's access log: deployed, systemd
    # hands the same lines to the journal
    log = open(folder / "app.log", "ab")
    proc = subprocess.Popen(cmd, cwd=app_root, env=env, stdout=log, stderr=log)
    for each in (port, *own):
        wait_for(f"http://127.0.0.1:{each}/healthz", proc)
    return proc, port, own, games


def deployed(app_root: Path) -> str:
    return (app_root / "deploy" / "nginx.conf").read_text()


def upstream_ports(site: str) -> list[int]:
    """The ports `site`'s upstream lists: 5001, 5002, ... one a worker (deploy/scorekeeper.service's
    --port-per-worker), or a tree's before issue 47 the one shared port 5000."""
    block = UPSTREAM.search(site)
    listed = [int(m["port"]) for m in SERVER.finditer(block["body"])] if block else []
    if listed != [5000] and (not listed or listed != list(range(5001, 5001 + len(listed)))):
        raise SystemExit(
            f"deploy/nginx.conf's upstream no longer lists one server a worker from 127.0.0.1:5001 ({listed}): "
            "update bench/night.py"
        )
    return listed


def per_worker(site: str) -> bool:
    """Whether `site` sends each table to a worker's own port (the app then wants --port-per-worker)."""
    return upstream_ports(site) != [5000]


def with_upstream(site: str, apps: list[int]) -> str:
    """`site` with its upstream's servers swapped for one line each of `apps` (the hash and keepalive kept)."""
    upstream_ports(site)
    return swapped_upstream(site, apps)


def logging_of(site: str) -> str:
    """deploy/nginx.conf's access log format and the map it logs the path by (its secrets redacted), as written."""
    lines = site.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("map $request_uri $scorekeeper_logged_uri"))
    end = next(i for i in range(start, len(lines)) if lines[i] == "}")
    fmt = next(i for i, line in enumerate(lines) if line.startswith("log_format scorekeeper "))
    fmt_end = next(i for i in range(fmt, len(lines)) if lines[i].rstrip().endswith("';"))
    return "\n".join(lines[start : end + 1] + lines[fmt : fmt_end + 1])


def main_conf(here: Path, workers: int, nofile: int, body: str) -> str:
    """Debian's /etc/nginx/nginx.conf around `body`, its paths under `here`, its workers allowed every file the hard
    limit allows and as many connections (Debian's 768 would not hold a night: docs/operations.md)."""
    for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (here / name).mkdir(parents=True, exist_ok=True)
    return f"""user root;
daemon off;
worker_processes {workers};
worker_rlimit_nofile {nofile};
pid {here}/nginx.pid;
error_log {here}/error.log;
events {{ worker_connections {nofile - 200}; }}
http {{
    sendfile on;
    tcp_nopush on;
    types_hash_max_size 2048;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {here}/other.access.log;
    gzip on;
    client_body_temp_path {here}/client_body;
    proxy_temp_path {here}/proxy;
    fastcgi_temp_path {here}/fastcgi;
    uwsgi_temp_path {here}/uwsgi;
    scgi_temp_path {here}/scgi;
{body}
}}
"""


def nginx(here: Path, conf: str, probe: str) -> subprocess.Popen:
    """nginx with `conf` as its whole configuration, its prefix `here`, once `probe` answers."""
    (here / "nginx.conf").write_text(conf)
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    check = subprocess.run([binary, "-t", "-p", str(here), "-c", str(here / "nginx.conf")], capture_output=True)
    if check.returncode:
        raise SystemExit(check.stderr.decode())
    proc = subprocess.Popen(
        [binary, "-p", str(here), "-c", str(here / "nginx.conf")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    wait_for(probe, proc)
    return proc


def proxy_conf(
    here: Path, port: int, redirect: int, tags: Path, apps: list[int], workers: int, nofile: int, site: str
) -> str:
    """deploy/nginx.conf (`site`) as it is but TLS (the HTTPS server listens plain, its certificate lines left out),
    its ports, app (`apps`: each worker's own port, or the one shared port of a tree before issue 47) and paths swapped
    as tests/nginx_stack.py swaps them, in Debian's main configuration."""
    site = with_upstream(site, apps)
    swaps = [
        ("listen 80;", f"listen 127.0.0.1:{redirect};"),
        ("listen 443 ssl http2;", f"listen 127.0.0.1:{port};"),
        ("root /run/scorekeeper/live-tags;", f"root {tags};"),
        ("/var/log/nginx/scorekeeper.access.log", str(here / "access.log")),
    ]
    for old, new in swaps:
        if old not in site:
            raise SystemExit(f"deploy/nginx.conf no longer has {old!r}: update bench/night.py")
        site = site.replace(old, new)
    site = "\n".join(line for line in site.splitlines() if "[::]" not in line and not line.strip().startswith("ssl_"))
    return main_conf(here, workers, nofile, site)


def floor_conf(here: Path, port: int, workers: int, nofile: int, site: str) -> str:
    """The floor's nginx: the saved page at /page (its ETag answers If-None-Match with 304), logging as `site`
    (deploy/nginx.conf) logs, with its keep-alive."""
    server = f"""{logging_of(site)}
server {{
    listen 127.0.0.1:{port};
    root {here}/site;
    default_type text/html;
    keepalive_timeout 30s;
    server_tokens off;
    access_log {here}/access.log scorekeeper;
}}"""
    return main_conf(here, workers, nofile, server)


def proxy(folder: Path, tags: Path, apps: list[int], workers: int, nofile: int, app_root: Path):
    """nginx in front of scorekeeper serve as deploy/nginx.conf puts it (proxy_conf): (nginx, its port)."""
    here = folder / "proxy"
    here.mkdir()
    port = free_port()
    conf = proxy_conf(here, port, free_port(), tags, apps, workers, nofile, deployed(app_root))
    return nginx(here, conf, f"http://127.0.0.1:{port}/healthz"), port


def floor(folder: Path, page: bytes, workers: int, nofile: int, app_root: Path):
    """nginx with the saved page at /page, logging as deploy/nginx.conf logs, and bench/floor.py under gunicorn with
    its access log: (processes, nginx's port, floor's)."""
    here = folder / "nginx"
    (here / "site").mkdir(parents=True)
    (here / "site" / "page").write_bytes(page)
    web = free_port()
    conf = floor_conf(here, web, workers, nofile, deployed(app_root))
    static = nginx(here, conf, f"http://127.0.0.1:{web}/page")
    inserts = free_port()
    env = {**os.environ, "FLOOR_DATABASE": str(folder / "floor.sqlite")}
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    app = subprocess.Popen(
        [gunicorn, "--workers", "2", "--bind", f"127.0.0.1:{inserts}", "--access-logfile", str(folder / "floor.log")]
        + ["floor:app"],
        cwd=BENCH,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_for(f"http://127.0.0.1:{inserts}/floor", app)
    return [static, app], web, inserts


# ---------------------------------------------------------------- a block


def note(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


class Generators:
    """--generators processes of bench/night_load.py, each driving a slice of the tables."""

    def __init__(self, count: int, spec: dict, games: list[dict]):
        self.procs = []
        for i in range(count):
            proc = subprocess.Popen(
                [sys.executable, str(BENCH / "night_load.py")],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                cwd=BENCH,
            )
            self.procs.append(proc)
            self.tell(proc, json.dumps({**spec, "games": games[i::count], "seed": i}))

    @staticmethod
    def tell(proc, line: str) -> None:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def all(self, line: str | None = None) -> list[dict]:
        if line is not None:
            for proc in self.procs:
                self.tell(proc, line)
        answers = []
        for proc in self.procs:
            answer = proc.stdout.readline()
            if not answer:
                self.stop()
                raise SystemExit(f"a load generator stopped (exit {proc.wait()})")
            answers.append(json.loads(answer))
        return answers

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait()


def block(kind: str, web: int, writes: int, games: list[dict], pids: list[int], args, logs, tags, memory) -> dict:
    """One block of the night against one server: the phones load their pages and ask once (not measured), then
    `args.seconds` of night."""
    spec = {"kind": "floor" if kind == "floor" else "ours", "web": web, "writes": writes, "seconds": args.seconds}
    spec["parts"] = not args.pages
    started = time.monotonic()
    load = Generators(args.generators, spec, games)
    busy = None
    try:
        loaded = sum(a["loaded"] for a in load.all())
        note(
            f"{kind}, {len(games)} tables: {loaded} of {len(games) * WATCHERS} pages loaded in "
            f"{time.monotonic() - started:.0f} s"
        )
        ready = sum(a["ready"] for a in load.all("wake"))
        busy = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if args.busy_core else None
        load_before = os.getloadavg()
        logged0 = sum(p.stat().st_size for p in logs if p.exists())
        cpu0, waited0, t0 = cpu_of(pids), waited_of(pids), time.monotonic()
        results = load.all(f"go {t0 + 0.2}")
        cpu1, waited1, t1 = cpu_of(pids), waited_of(pids), time.monotonic()
        logged1 = sum(p.stat().st_size for p in logs if p.exists())
        load_after = os.getloadavg()
        busy_cpu = cpu_seconds(busy.pid) if busy is not None else None
    finally:
        load.stop()
        if busy is not None:
            busy.kill()
            busy.wait()
    requests = {}
    for name in KINDS:
        values = [v for r in results for v in r["times"][name]]
        if values:
            requests[name] = {k: round(v, 1) if k != "n" else v for k, v in percentiles(values).items()}
    errors: dict[str, int] = {}
    for r in results:
        for why, n in r["errors"].items():
            errors[why] = errors.get(why, 0) + n
    changed = [b for r in results for b in r["changed_bytes"]]
    stale = [r["stale"] for r in results if r["stale"] is not None]
    return {
        "kind": kind,
        "tables": len(games),
        "phones": ready,
        "seconds": round(t1 - t0, 1),
        "server_cpu_s": round(cpu1 - cpu0, 2),
        # per second of the night: every request counted was due within it (a block overloaded takes longer to end)
        "ms_per_table_second": round((cpu1 - cpu0) * 1000 / (len(games) * args.seconds), 4),
        "server_waited_s": round(waited1 - waited0, 2),
        "generators": args.generators,
        "generator_cpu_s": round(sum(r["cpu_s"] for r in results), 2),
        "busy_core_cpu_s": round(busy_cpu, 1) if busy_cpu is not None else None,
        "load": [round(x, 2) for x in (*load_before, *load_after)],
        "requests": requests,
        "errors": errors,
        "phone_connects": sum(r["phone_connects"] for r in results),  # every phone's connection opened in the night
        "reopened": sum(r["reopened"] for r in results),  # of those, found closed by the server while idle
        "scorer_connects": sum(r["scorer_connects"] for r in results),
        "stale": sum(stale) if stale else None,
        "late": sum(r["late"] for r in results),
        "changed_kb_p50": round(statistics.median(changed) / 1024, 1) if changed else None,
        "changed_whole_pages": sum(r["whole_pages"] for r in results),
        "logged_kb": round((logged1 - logged0) / 1024),
        "memory": {name: memory_of(pid) for name, pid in memory.items()},
        "live_tags": folder_size(tags) if kind != "floor" else None,
    }


# ---------------------------------------------------------------- the report


def ms(k: dict | None) -> str:
    return f"{k['p50']} / {k['p99']} / {k['max']} ({k['n']:,})" if k else "—"


def report(rows: list[dict]) -> str:
    floors = {(r["round"], r["tables"]): r["ms_per_table_second"] for r in rows if r["kind"] == "floor"}

    def ratio(r):
        f = floors.get((r["round"], r["tables"]))
        return "1" if r["kind"] == "floor" else (f"{r['ms_per_table_second'] / f:.1f}×" if f else "—")

    out = [
        "| round | tables | server | CPU ms per table·s | ÷ floor | hand p50 / p99 / max ms (n) | "
        "poll changed p50 / p99 / max ms (n) | poll unchanged p50 / p99 / max ms (n) |",
        "|---:|---:|---|---:|---:|---|---|---|",
    ]
    for r in rows:
        out.append(
            f"| {r['round']} | {r['tables']:,} | {r['kind']} | {r['ms_per_table_second']:.3f} | {ratio(r)} | "
            + " | ".join(ms(r["requests"].get(name)) for name in KINDS)
            + " |"
        )
    out += [
        "",
        "| round | tables | server | errors | phones' reconnects | stale | late | server CPU s (generators', busy "
        "core's) | server's wait for a core s | peak RSS MB (VmHWM, largest process) | LIVE_TAGS files / MB at the "
        "end | logged KB | load 1 min before → after (5, 15 after) |",
        "|---:|---:|---|---|---:|---:|---:|---|---:|---|---|---:|---|",
    ]
    for r in rows:
        errors = ", ".join(f"{n:,} {why}" for why, n in sorted(r["errors"].items())) or "0"
        memory = ", ".join(f"{name} {m['peak_mb']}" for name, m in r["memory"].items())
        tags = f"{r['live_tags']['files']:,} / {r['live_tags']['kept_mb']}" if r["live_tags"] else "—"
        busy = f", {r['busy_core_cpu_s']}" if r["busy_core_cpu_s"] is not None else ""
        load = r["load"]
        out.append(
            f"| {r['round']} | {r['tables']:,} | {r['kind']} | {errors} | {r['phone_connects']:,} | "
            f"{r['stale'] if r['stale'] is not None else '—'} | {r['late']:,} | {r['server_cpu_s']} "
            f"({r['generator_cpu_s']}{busy}) | {r['server_waited_s']} | {memory} | {tags} | {r['logged_kb']:,} | "
            f"{load[0]} → {load[3]} ({load[4]}, {load[5]}) |"
        )
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[100, 300])
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None, help="scorekeeper serve's (default: one per core)")
    parser.add_argument(
        "--behind-nginx", action="store_true", help="also ours with nginx in front (deploy/nginx.conf as it is)"
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
    parser.add_argument(
        "--generators",
        type=int,
        default=None,
        help=f"load generator processes (default: one per {TABLES_PER_GENERATOR:,} tables)",
    )
    parser.add_argument("--busy-core", action="store_true", help="another process spins on a core during each block")
    parser.add_argument(
        "--app-root", type=Path, default=ROOT, help="the scorekeeper tree served (default: this checkout)"
    )
    parser.add_argument(
        "--app-env", action="append", default=[], metavar="KEY=VALUE", help="SCOREKEEPER_KEY for the app, repeatable"
    )
    parser.add_argument("--json", type=Path, help="also write the rows here")
    parser.add_argument("--keep", action="store_true", help="keep each size's folder (logs, configurations, database)")
    args = parser.parse_args()
    app_root = args.app_root.resolve()
    sys.path.insert(0, str(app_root))
    app_env = dict(item.split("=", 1) for item in args.app_env)
    nofile = raise_nofile()  # every process started here inherits it (the generators, nginx's master, the app)
    cores = len(os.sched_getaffinity(0))
    commit = subprocess.run(
        ["git", "-C", str(app_root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    note(
        f"RLIMIT_NOFILE {nofile:,} (hard {resource.getrlimit(resource.RLIMIT_NOFILE)[1]:,}); {cores} cores; "
        f"app {app_root} ({commit.stdout.strip() or 'not a git checkout'}); app env {app_env or 'as make run'}; "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    rows = []
    for tables in args.tables:
        generators = args.generators or max(1, math.ceil(tables / TABLES_PER_GENERATOR))
        each = math.ceil(tables / generators) * (WATCHERS + 1)
        if each > nofile - 100:
            raise SystemExit(
                f"{tables:,} tables need {each:,} connections in each of {generators} generators, more than "
                f"RLIMIT_NOFILE {nofile:,}: use more --generators"
            )
        if tables * (WATCHERS + 1) > cores * (nofile - 300):
            note(
                f"{tables:,} tables are {tables * (WATCHERS + 1):,} connections: more than nginx's {cores} workers "
                f"may hold at RLIMIT_NOFILE {nofile:,}; expect refusals"
            )
        args.generators = generators
        folder = Path(tempfile.mkdtemp(prefix="night-"))
        folder.chmod(0o755)
        tags, on_tmpfs = tmpfs_folder("night-live-tags-")
        if not on_tmpfs:
            note("no tmpfs found: LIVE_TAGS in /tmp")
        servers = []
        try:
            own_ports = args.behind_nginx and per_worker(deployed(app_root))  # as deploy/scorekeeper.service
            proc, port, worker_ports, games = ours(folder, tags, tables, args.workers, app_root, app_env, own_ports)
            servers.append(proc)
            page = urllib.request.urlopen(f"http://127.0.0.1:{port}/g/{games[0]['id']}", timeout=30).read()
            web_workers = args.workers or cores
            floors, web, inserts = floor(folder, page, web_workers, nofile, app_root)
            servers += floors
            if args.behind_nginx:
                front, front_port = proxy(folder, tags, worker_ports or [port], web_workers, nofile, app_root)
                servers.append(front)
            logs = {
                "ours": [folder / "app.log"],
                "ours behind nginx": [folder / "app.log", folder / "proxy" / "access.log"],
                "floor": [folder / "nginx" / "access.log", folder / "floor.log"],
            }
            for n in range(1, args.rounds + 1):
                blocks = []
                if not (args.no_direct and args.behind_nginx):
                    blocks.append(("ours", port, port, [proc.pid], {"app": proc.pid}))
                if args.behind_nginx:
                    blocks.append(
                        (
                            "ours behind nginx",
                            front_port,
                            front_port,
                            [proc.pid, front.pid],
                            {"app": proc.pid, "nginx": front.pid},
                        )
                    )
                floor_pids = {"nginx": floors[0].pid, "gunicorn": floors[1].pid}
                blocks.append(("floor", web, inserts, list(floor_pids.values()), floor_pids))
                for kind, w, wr, pids, memory in blocks:
                    row = block(kind, w, wr, games, pids, args, logs[kind], tags, memory)
                    row["round"] = n
                    rows.append(row)
                    print(json.dumps(row), file=sys.stderr, flush=True)
        finally:
            for p in servers:
                p.terminate()
                try:
                    p.wait(15)
                except subprocess.TimeoutExpired:
                    p.kill()
            shutil.rmtree(tags, ignore_errors=True)
            if args.keep:
                note(f"kept {folder}")
            else:
                shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    print(report(rows))


if __name__ == "__main__":
    main()
