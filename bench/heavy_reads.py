#!/usr/bin/env python3
"""A table's hand entry while one stranger asks for a big game's heavy pages over and over (issue 34, F-S1): the
victim's latency alone and under the attack, on one server `scorekeeper serve` (waitress, 8 threads), in one run, as
ratios.

The stranger (127.0.0.2, one client) imports a 500-hand Danish game (one request), then keeps 40 connections busy
asking for its protokoll, print page and hands.xlsx, one after another on each. Three ways:
- `unbounded`: the heavy reads' bounds and drawing process off (HEAVY_READS_PER_ADDRESS and HEAVY_READS_AT_ONCE null,
  HEAVY_ELSEWHERE false) and every request a new address (`?x=<n>`), so each protokoll is drawn in the server's
  threads (the print page and spreadsheet are kept per version whatever the query since 2026-12-02's last change, so
  only the protokoll stands for what every request was before server/heavy.py);
- `bounded-here`: the same requests with the bounds as shipped (2 per address, 4 in all: beyond them a 429 or 503),
  drawn in the server's own threads (HEAVY_ELSEWHERE off);
- `bounded`: the same, drawn by the worker's drawing process (HEAVY_ELSEWHERE, as shipped);
- `kept`: as shipped, and the plain addresses, as a browser asks them: drawn once per version, then kept;
- `medium`: as shipped, the stranger asking only for the protokoll of a game of 100 hands (HEAVY_HANDS: not a heavy
  read to server/heavy.py), a new address each time, so each is drawn in the server's threads.
Each with the door's guard (server/door_guard.py: a client's reads over its share of the threads, and its known heavy
reads over their bound, answered 429 before Flask) as shipped and, with `--door both` (the default), off too
(REQUESTS_PER_ADDRESS null: every refusal is Flask's), so that both are measured in the same run; a refusal with no body
is the door's (`429 door`).
Meanwhile a table (127.0.0.1) enters hands into its own game through the JSON API, one at a time; a hand that gets no
answer in 60 s counts as 60 s and as failed.

A stranger the door finds flooding (its reads refused 30 times in a second) has its connections held at accept
(server/serve.py): `429 accept` counts the answers given at accept, after a hold or over the connection cap (a 429
with `Connection: close`).
`--impatient 0.5` is a stranger that does not wait for them: it gives up after 0.5 s and connects again at once.

Usage: python bench/heavy_reads.py [--hands 500] [--connections 40] [--requests 20] [--kinds unbounded bounded kept]
       [--door both|on|off] [--share 6] [--impatient SECONDS] [--pace SECONDS]
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from run import game_data  # bench/run.py: the long Danish game its tables use
from slow_clients import free_port, launch, stop

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 60.0
ATTACKER = "127.0.0.2"
SWITCH_INTERVAL = None  # seconds (--switch-interval); None: Python's own (0.005)
SHARE = None  # --share: the door's REQUESTS_PER_ADDRESS and _PER_NETWORK; None: as shipped
# --impatient: the stranger waits at most this long for an answer and asks again at once after an error (as shipped
# it waits TIMEOUT and pauses 0.05 s after an error)
PATIENCE = TIMEOUT
ERROR_PAUSE = 0.05
PACE = 0.0  # --pace: seconds between the table's hands (0: one after another); a long pace spans several floods
KINDS = {
    "unbounded": {
        "SCOREKEEPER_HEAVY_READS_PER_ADDRESS": "null",
        "SCOREKEEPER_HEAVY_READS_AT_ONCE": "null",
        "SCOREKEEPER_HEAVY_ELSEWHERE": "false",
    },
    "bounded-here": {"SCOREKEEPER_HEAVY_ELSEWHERE": "false"},
    "bounded": {},
    "kept": {},
    "medium": {},
}


DOOR_OFF = " (door off)"


def start(kind: str, folder: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {
        "SCOREKEEPER_DATABASE": str(folder / f"{kind}.sqlite"),
        "SCOREKEEPER_SECRET_KEY": "bench",
        "PATH": "/usr/bin:/bin",
        **KINDS[kind.removesuffix(DOOR_OFF)],
    }
    if kind.endswith(DOOR_OFF):
        env["SCOREKEEPER_REQUESTS_PER_ADDRESS"] = "null"
    elif SHARE is not None:
        env["SCOREKEEPER_REQUESTS_PER_ADDRESS"] = env["SCOREKEEPER_REQUESTS_PER_NETWORK"] = str(SHARE)
    cmd = [sys.executable, "-m", "scorekeeper.server.serve", "--host", "127.0.0.1", "--port", str(port)]
    if SWITCH_INTERVAL is not None:  # the interpreter's GIL switch interval, for an experiment
        cmd[1:3] = [
            "-c",
            f"import sys; sys.setswitchinterval({SWITCH_INTERVAL}); from scorekeeper.server.serve import main; "
            "main(sys.argv[1:])",
        ]
    return launch(cmd, env, port, "/healthz", 60, kind)


def post(base: str, path: str, body: dict, headers: dict | None = None) -> dict:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    with urllib.request.urlopen(request, timeout=TIMEOUT) as r:
        return json.load(r)


def big_game(port: int, hands: int) -> dict:
    """The stranger's game: one import, from the stranger's address."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT, source_address=(ATTACKER, 0))
    conn.request(
        "POST",
        "/api/games/import",
        json.dumps(game_data("danish", hands)),
        {"Content-Type": "application/json"},
    )
    answer = conn.getresponse()
    body = answer.read()
    conn.close()
    if answer.status != 201:
        raise RuntimeError(f"import: {answer.status} {body[:300]!r}")
    return json.loads(body)


class Stranger(threading.Thread):
    """One connection of the stranger's, asking for the heavy pages one after another until told to stop."""

    def __init__(self, port: int, paths: list[str], busting: bool, counts: dict, lock: threading.Lock, n: int):
        super().__init__(daemon=True)
        self.port, self.paths, self.busting, self.counts, self.lock, self.n = port, paths, busting, counts, lock, n
        self.stop = threading.Event()

    def run(self) -> None:
        paths = self.paths
        conn = None
        i = 0
        while not self.stop.is_set():
            path = paths[i % len(paths)] + (f"?x={self.n}-{i}" if self.busting else "")
            i += 1
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(
                        "127.0.0.1", self.port, timeout=PATIENCE, source_address=(ATTACKER, 0)
                    )
                conn.request("GET", path)
                answer = conn.getresponse()
                body = answer.read()
                closing = answer.getheader("Connection", "").lower() == "close"
                status = "429 door" if answer.status == 429 and not body else answer.status
                if status == "429 door" and closing:
                    status = "429 accept"
                if closing:
                    conn.close()
                    conn = None
            except (OSError, http.client.HTTPException):
                status = "error"
                if conn is not None:
                    conn.close()
                conn = None
                if ERROR_PAUSE:
                    time.sleep(ERROR_PAUSE)
            with self.lock:
                self.counts[status] = self.counts.get(status, 0) + 1
        if conn is not None:
            conn.close()


def hand_entries(base: str, game: dict, n: int) -> list[float]:
    out = []
    for i in range(n):
        if PACE and i:
            time.sleep(PACE)
        started = time.monotonic()
        try:
            post(base, f"/api/games/{game['id']}/hands", {"passed": True}, {"X-Edit-Key": game["edit_key"]})
            out.append(time.monotonic() - started)
        except OSError:
            out.append(float("inf"))
    return out


def summary(values: list[float]) -> dict:
    finite = sorted(min(v, TIMEOUT) for v in values)
    return {
        "median_ms": round(statistics.median(finite) * 1000, 1),
        "p90_ms": round(finite[min(len(finite) - 1, int(len(finite) * 0.9))] * 1000, 1),
        "max_ms": round(finite[-1] * 1000, 1),
        "failed": sum(v == float("inf") for v in values),
        "requests": len(values),
    }


def run(hands: int = 500, connections: int = 40, requests: int = 20, kinds=tuple(KINDS), door: str = "both") -> dict:
    results: dict = {}
    servers = [
        name
        for kind in kinds
        for name in {"on": [kind], "off": [kind + DOOR_OFF], "both": [kind + DOOR_OFF, kind]}[door]
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for kind in servers:
            proc, base = start(kind, Path(tmp))
            port = int(base.rsplit(":", 1)[1])
            try:
                table = post(base, "/api/games", {"variant": "danish", "players": ["A", "B", "C", "D"]})
                medium = kind.startswith("medium")
                target = big_game(port, 100 if medium else hands)
                paths = [f"/g/{target['id']}"]
                if not medium:
                    paths += [f"/g/{target['id']}/print", f"/g/{target['id']}/hands.xlsx"]
                quiet = summary(hand_entries(base, table, requests))
                counts: dict = {}
                lock = threading.Lock()
                busting = not kind.startswith("kept")
                strangers = [Stranger(port, paths, busting, counts, lock, n) for n in range(connections)]
                for s in strangers:
                    s.start()
                time.sleep(3)
                loaded = summary(hand_entries(base, table, requests))
                for s in strangers:
                    s.stop.set()
                for s in strangers:
                    s.join(TIMEOUT)
                loaded["stranger_answers"] = {str(k): v for k, v in sorted(counts.items(), key=str)}
                loaded["median_over_quiet"] = round(loaded["median_ms"] / quiet["median_ms"], 1)
                loaded["p90_over_quiet"] = round(loaded["p90_ms"] / quiet["p90_ms"], 1)
                results[kind] = {"quiet": quiet, "attacked": loaded}
            finally:
                stop(proc)
    return results


def table(results: dict) -> str:
    lines = [
        "| server | quiet median / p90 (ms) | attacked median / p90 / max (ms) | ×median | ×p90 | failed | "
        "the stranger's answers |",
        "|---|---|---|---|---|---|---|",
    ]
    for kind, r in results.items():
        q, a = r["quiet"], r["attacked"]
        answers = ", ".join(f"{k}: {v}" for k, v in a["stranger_answers"].items())
        lines.append(
            f"| {kind} | {q['median_ms']} / {q['p90_ms']} | {a['median_ms']} / {a['p90_ms']} / {a['max_ms']} | "
            f"×{a['median_over_quiet']} | ×{a['p90_over_quiet']} | {a['failed']}/{a['requests']} | {answers} |"
        )
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--connections", type=int, default=40)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--kinds", nargs="+", default=list(KINDS), choices=list(KINDS))
    parser.add_argument(
        "--door", choices=["both", "on", "off"], default="both", help="the door's guard on, off or both"
    )
    parser.add_argument("--share", type=int, default=None, help="the door's REQUESTS_PER_ADDRESS (default: shipped)")
    parser.add_argument("--switch-interval", type=float, default=None, help="the server's sys.setswitchinterval")
    parser.add_argument(
        "--impatient",
        type=float,
        default=None,
        metavar="SECONDS",
        help="the stranger waits at most SECONDS for an answer and asks again at once after an error",
    )
    parser.add_argument("--pace", type=float, default=0.0, help="seconds between the table's hands (default: none)")
    args = parser.parse_args(argv)
    global SWITCH_INTERVAL, SHARE, PATIENCE, ERROR_PAUSE, PACE
    PACE = args.pace
    SWITCH_INTERVAL, SHARE = args.switch_interval, args.share
    if args.impatient is not None:
        PATIENCE, ERROR_PAUSE = args.impatient, 0.0
    results = run(args.hands, args.connections, args.requests, tuple(args.kinds), args.door)
    print(json.dumps(results, indent=2))
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
