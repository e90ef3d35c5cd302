#!/usr/bin/env python3
"""An ordinary page's latency while 50 slow clients are connected: the server `make run` starts (waitress, through
`python -m scorekeeper.serve`) against gunicorn's sync workers (what `make run` served before), in one run.

Each slow client opens a connection, sends a request line and one header, then one more header line every 2 s and
never the blank line that ends the headers (a "slowloris"). Meanwhile one client fetches the home page, one request
at a time, and the latencies are recorded; a request that gets no answer in 5 s counts as 5 s and as failed.

Usage: python bench/slow_clients.py [--slow 50] [--requests 40]; run.py calls run() for its table.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 5.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(kind: str, folder: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {
        "SCOREKEEPER_DATABASE": str(folder / f"{kind}.sqlite"),
        "SCOREKEEPER_SECRET_KEY": "bench",
        "PATH": "/usr/bin:/bin",
    }
    if kind == "waitress":
        cmd = [sys.executable, "-m", "scorekeeper.serve", "--host", "127.0.0.1", "--port", str(port)]
    else:
        cmd = [
            str(Path(sys.executable).with_name("gunicorn")),
            "--workers",
            "2",
            "--bind",
            f"127.0.0.1:{port}",
            "scorekeeper:create_app()",
        ]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(base + "/", timeout=2).read()
            return proc, base
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"{kind} did not start")


def latencies(base: str, n: int) -> list[float]:
    out = []
    for _ in range(n):
        started = time.monotonic()
        try:
            urllib.request.urlopen(base + "/", timeout=TIMEOUT).read()
            out.append(time.monotonic() - started)
        except OSError:
            out.append(float("inf"))
    return out


def slowloris(port: int, count: int, stop: threading.Event) -> None:
    socks = []
    try:
        while not stop.is_set():
            while len(socks) < count:  # a client the server dropped comes back, as an attacker's would
                try:
                    s = socket.create_connection(("127.0.0.1", port), timeout=2)
                    s.sendall(b"GET / HTTP/1.1\r\nHost: bench\r\n")
                    socks.append(s)
                except OSError:
                    break
            for s in list(socks):
                try:
                    s.sendall(b"X-Slow: 1\r\n")
                except OSError:
                    socks.remove(s)
                    s.close()
            stop.wait(2)
    finally:
        for s in socks:
            s.close()


def summary(values: list[float]) -> dict:
    finite = sorted(min(v, TIMEOUT) for v in values)
    return {
        "median_ms": round(statistics.median(finite) * 1000, 1),
        "p99_ms": round(finite[min(len(finite) - 1, int(len(finite) * 0.99))] * 1000, 1),
        "failed": sum(v == float("inf") for v in values),
    }


def run(slow: int = 50, requests: int = 40) -> dict:
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("waitress", "gunicorn-sync"):
            proc, base = start(kind, Path(tmp))
            try:
                quiet = summary(latencies(base, requests))
                stop = threading.Event()
                attacker = threading.Thread(target=slowloris, args=(int(base.rsplit(":", 1)[1]), slow, stop))
                attacker.start()
                time.sleep(1)
                loaded = summary(latencies(base, requests))
                stop.set()
                attacker.join()
            finally:
                proc.terminate()
                proc.wait(10)
            results[kind] = {"quiet": quiet, f"with_{slow}_slow": loaded}
    return results


def table(results: dict, slow: int = 50) -> str:
    rows = [
        f"| server | median, quiet | median with {slow} slow clients | p99 with {slow} slow | failed (no answer in 5 s) |",
        "|---|---|---|---|---|",
    ]
    for kind, r in results.items():
        loaded = r[f"with_{slow}_slow"]
        rows.append(
            f"| {kind} | {r['quiet']['median_ms']} ms | {loaded['median_ms']} ms | {loaded['p99_ms']} ms "
            f"| {loaded['failed']} |"
        )
    return "\n".join(rows)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slow", type=int, default=50)
    parser.add_argument("--requests", type=int, default=40)
    args = parser.parse_args(argv)
    results = run(args.slow, args.requests)
    print(json.dumps(results, indent=2))
    print(table(results, args.slow))
    return 0


if __name__ == "__main__":
    sys.exit(main())
