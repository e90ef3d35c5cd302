#!/usr/bin/env python3
"""An ordinary page's latency and failures while 1,100 and 3,000 slow sockets are connected: the server `make run`
starts now (scorekeeper/server/serve.py: waitress with a per-address cap and a total request time) against waitress as it
was before (the same settings, neither limit), in one run, as ratios.

Each slow socket comes from 127.0.0.2 (one client, as one laptop on the hall's Wi-Fi), sends a request line and one
header, then one more header line every 2 s and never the blank line that ends the headers (a "slowloris"); a socket
the server closes is opened again at once, as an attacker's would be. Meanwhile one client on 127.0.0.1 fetches the
home page, one request at a time; a request that gets no answer in 5 s counts as 5 s and as failed.

Usage: python bench/slow_clients.py [--slow 1100 3000] [--requests 20] [--kinds before now gunicorn-sync];
run.py calls run() for its table.
"""

from __future__ import annotations

import argparse
import errno
import json
import resource
import select
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
ATTACKER = "127.0.0.2"
KINDS = {
    "before": "waitress as before (connection_limit 1,000; only silence closes a socket)",
    "now": "scorekeeper serve (cap per address, total request time)",
    "gunicorn-sync": "gunicorn, 2 sync workers (what make run served before waitress)",
}
# waitress as it was: the same settings, waitress's own server and channel.
BEFORE = (
    "import sys, waitress; from scorekeeper import create_app; from scorekeeper.server.serve import SETTINGS; "
    "waitress.serve(create_app(), host='127.0.0.1', port=int(sys.argv[1]), _quiet=True, **SETTINGS)"
)


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
    if kind == "now":
        cmd = [sys.executable, "-m", "scorekeeper.server.serve", "--host", "127.0.0.1", "--port", str(port)]
    elif kind == "before":
        cmd = [sys.executable, "-c", BEFORE, str(port)]
    elif kind == "gunicorn-sync":
        gunicorn = str(Path(sys.executable).with_name("gunicorn"))
        cmd = [gunicorn, "--workers", "2", "--bind", f"127.0.0.1:{port}", "scorekeeper:create_app()"]
    else:  # an unknown kind started gunicorn before (bench/phone.py asked for "waitress" and measured gunicorn)
        raise ValueError(f"no server kind {kind!r}: one of {', '.join(KINDS)}")
    return launch(cmd, env, port, "/", 30, kind)


def launch(cmd: list[str], env: dict, port: int, path: str, seconds: float, what: str) -> tuple[subprocess.Popen, str]:
    """A server started from the checkout and waited for until `path` answers (bench/heavy_reads.py starts its own so)."""
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(base + path, timeout=2).read()
            return proc, base
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"{what} did not start")


def stop(proc: subprocess.Popen) -> None:
    """A server asked to stop, and killed if it will not."""
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


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


class Slowloris(threading.Thread):
    """`count` sockets from ATTACKER kept dripping; non-blocking, so a server that no longer accepts holds the
    attacker up no more than it holds itself up."""

    def __init__(self, port: int, count: int):
        super().__init__(daemon=True)
        self.port, self.count = port, count
        self.stop = threading.Event()
        self.opened = self.dropped = 0

    def _open(self) -> socket.socket | None:
        s = socket.socket()
        s.setblocking(False)
        try:
            s.bind((ATTACKER, 0))
            err = s.connect_ex(("127.0.0.1", self.port))
        except OSError:
            s.close()
            return None
        if err not in (0, errno.EINPROGRESS):
            s.close()
            return None
        self.opened += 1
        return s

    def run(self) -> None:
        socks: dict[socket.socket, bool] = {}  # socket → has sent its request line
        poller = select.poll()
        try:
            while not self.stop.is_set():
                while len(socks) < self.count:
                    s = self._open()
                    if s is None:
                        break
                    socks[s] = False
                    poller.register(s, select.POLLIN)
                gone = {fd for fd, _event in poller.poll(0)}  # readable: a 429, a close or a reset
                for s, started in list(socks.items()):
                    dead = s.fileno() in gone
                    if not dead:
                        try:
                            s.send(b"X-Slow: 1\r\n" if started else b"GET / HTTP/1.1\r\nHost: bench\r\n")
                            socks[s] = True
                        except (BlockingIOError, InterruptedError):
                            pass  # still connecting (or waiting in the server's backlog)
                        except OSError as exc:
                            dead = exc.errno != errno.ENOTCONN
                    if dead:
                        poller.unregister(s)
                        del socks[s]
                        s.close()
                        self.dropped += 1
                self.stop.wait(2)
        finally:
            for s in socks:
                s.close()


def summary(values: list[float]) -> dict:
    finite = sorted(min(v, TIMEOUT) for v in values)
    return {
        "median_ms": round(statistics.median(finite) * 1000, 1),
        "p99_ms": round(finite[min(len(finite) - 1, int(len(finite) * 0.99))] * 1000, 1),
        "failed": sum(v == float("inf") for v in values),
        "requests": len(values),
    }


def _more_files() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 8192:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))


def run(counts=(1100, 3000), requests: int = 20, kinds=("before", "now")) -> dict:
    """{kind: {"quiet": summary, "<n> slow": summary with the attacker's counts}} and the ratios now ÷ before."""
    _more_files()
    results: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        for kind in kinds:
            results[kind] = {}
            for count in counts:
                proc, base = start(kind, Path(tmp))  # a fresh server for each count
                try:
                    quiet = summary(latencies(base, requests))
                    attacker = Slowloris(int(base.rsplit(":", 1)[1]), count)
                    attacker.start()
                    time.sleep(4)  # two rounds: every socket opened and dripping
                    loaded = summary(latencies(base, requests))
                    attacker.stop.set()
                    attacker.join()
                    loaded.update(attacker_opened=attacker.opened, attacker_dropped=attacker.dropped)
                finally:
                    stop(proc)
                results[kind].setdefault("quiet", quiet)
                results[kind][f"{count} slow"] = loaded
    if "before" in results and "now" in results:
        results["ratios"] = {
            f"{count} slow": {
                "median_now_over_before": round(
                    results["now"][f"{count} slow"]["median_ms"] / results["before"][f"{count} slow"]["median_ms"], 4
                ),
                "failed_now_over_before": f"{results['now'][f'{count} slow']['failed']}/"
                f"{results['before'][f'{count} slow']['failed']}",
                "now_loaded_over_quiet": round(
                    results["now"][f"{count} slow"]["median_ms"] / results["now"]["quiet"]["median_ms"], 2
                ),
            }
            for count in counts
        }
    return results


def table(results: dict) -> str:
    counts = [k for k in next(iter(results.values())) if k != "quiet"] if results else []
    head = "| server | median, quiet | " + " | ".join(f"median / p99 / failed, {c}" for c in counts) + " |"
    rows = [head, "|---|---|" + "---|" * len(counts)]
    for kind, r in results.items():
        if kind == "ratios":
            continue
        cells = [
            f"{r[c]['median_ms']} ms / {r[c]['p99_ms']} ms / {r[c]['failed']} of {r[c]['requests']}" for c in counts
        ]
        rows.append(f"| {KINDS.get(kind, kind)} | {r['quiet']['median_ms']} ms | " + " | ".join(cells) + " |")
    ratios = results.get("ratios")
    if ratios:
        cells = [
            f"median ×{v['median_now_over_before']}, failed {v['failed_now_over_before']}, "
            f"×{v['now_loaded_over_quiet']} of quiet"
            for v in ratios.values()
        ]
        rows.append("| now ÷ before | | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slow", type=int, nargs="+", default=[1100, 3000])
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--kinds", nargs="+", default=["before", "now"], choices=list(KINDS))
    args = parser.parse_args(argv)
    results = run(args.slow, args.requests, args.kinds)
    print(json.dumps(results, indent=2))
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
