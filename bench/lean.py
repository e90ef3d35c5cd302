#!/usr/bin/env python3
"""The CPU one JSON hand entry costs in-process, checkout beside checkout, in alternating rounds (issue 27).

    python bench/lean.py TREE [TREE …] [--rounds 7] [--hands 400] [--games 50]

Each TREE (a checkout; "." is this one) gets a process of its own with that tree's package first on the path, an app
as a server makes it (not TESTING: the rate limiter on, with limits no bench reaches; the request log at INFO to a
handler that writes to /dev/null), a fresh SQLite file and `--games` Danish games. Then, round after round and tree
after tree, each posts `--hands` hands round-robin over its games through the Flask test client (the JSON API with
the edit key, as bench/run.py's wrk does) and reports its process's CPU time per hand; the SQL statements per hand
are counted in one more round (sqlite3's trace callback). The figure is the user CPU time (getrusage): the system time
is mostly the disk flush's, which the other work on a shared machine's disk moves far more than any change here.
Medians of the rounds, and each tree ÷ the first, in one run: what the load of the machine moves it moves for all
alike. HTTP, gunicorn and the disk flush are left out: the
figure is the app's own work (bench/run.py --only floor measures the whole request against the floor). `--workers 2`
hands each game's hands to two simulated workers in turn, each with its own kept sheets (as gunicorn's two workers
take a table's hands): every hand then catches up on the other's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HAND = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9}

CHILD = r"""
import json, logging, os, resource, sys, time
tree, folder, games, workers = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[5])
sys.path.insert(0, tree)
import scorekeeper
assert scorekeeper.__file__.startswith(tree), scorekeeper.__file__
from scorekeeper import create_app
from scorekeeper.server import db as web_db
from scorekeeper.games import cache
kept = [cache.games] + [cache.Kept() for _ in range(workers - 1)]  # each simulated worker keeps its own sheets
app = create_app({
    "DATABASE": os.path.join(folder, "lean.sqlite"), "SECRET_KEY": "lean", "RATELIMIT_ENABLED": True,
    "LIMIT_NEW_GAMES": "100000 per minute", "LOG_LEVEL": "INFO",
})
handler = logging.StreamHandler(open(os.devnull, "w"))
handler.setFormatter(logging.Formatter("[%(asctime)s] %(levelname)s in %(module)s: %(message)s"))
logging.getLogger("scorekeeper").handlers[:] = [handler]  # as Flask's own handler would, to no terminal
client = app.test_client()
pool = []
for k in range(games):
    r = client.post("/api/games", json={"variant": "danish", "players": ["Anna", "Bo", "Carl", "Dina"]})
    assert r.status_code == 201, r.status_code
    pool.append((r.json["id"], r.json["edit_key"]))
hand = json.loads(sys.argv[4])
seen = []
def post(n):
    for i in range(n):
        game_id, key = pool[i % len(pool)]
        cache.games = kept[(i // len(pool) + i % len(pool)) % workers]  # the next hand of a game goes to the other worker
        body = dict(hand, bidder=i % 4, partner=(i + 2) % 4)
        r = client.post(f"/api/games/{game_id}/hands", json=body, headers={"X-Edit-Key": key})
        assert r.status_code == 201, (r.status_code, r.get_data(as_text=True))
post(len(pool))  # every game's sheet kept, as a worker that served it
print("ready", flush=True)
for line in sys.stdin:
    what, n = line.split()
    n = int(n)
    if what == "cpu":
        before = resource.getrusage(resource.RUSAGE_SELF)
        post(n)
        after = resource.getrusage(resource.RUSAGE_SELF)
        user, system = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
        print(user / n * 1e6, system / n * 1e6, flush=True)
    else:
        with app.app_context():
            conn = web_db.get_db().conn
        conn.set_trace_callback(seen.append)
        post(n)
        conn.set_trace_callback(None)
        distinct = [s for i, s in enumerate(seen) if i == 0 or s != seen[i - 1]]  # a trigger's steps: one statement
        print(len(distinct) / n, flush=True)
"""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="+")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument(
        "--workers", type=int, default=1, help="simulated workers, each with its own kept sheets, taking turns per hand"
    )
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    children = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, tree in enumerate(args.trees):
            folder = Path(tmp) / str(k)
            folder.mkdir()
            child = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    CHILD,
                    str(Path(tree).resolve()),
                    str(folder),
                    str(args.games),
                    json.dumps(HAND),
                    str(args.workers),
                ],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env={**os.environ, "PYTHONPATH": str(Path(tree).resolve())},
            )
            assert child.stdout.readline().strip() == "ready", tree
            children.append(child)

        def ask(child, what: str, n: int) -> list[float]:
            child.stdin.write(f"{what} {n}\n")
            child.stdin.flush()
            return [float(x) for x in child.stdout.readline().split()]

        cpu: list[list[float]] = [[] for _ in children]
        system: list[list[float]] = [[] for _ in children]
        for _ in range(args.rounds):
            for k, child in enumerate(children):
                user, sys_ = ask(child, "cpu", args.hands)
                cpu[k].append(user)
                system[k].append(sys_)
        statements = [ask(child, "sql", 20)[0] for child in children]
        for child in children:
            child.stdin.close()
            child.wait()
    load_after = os.getloadavg()[0]
    first = statistics.median(cpu[0])
    print(
        f"JSON hand entry in-process, {args.rounds} alternating rounds of {args.hands} hands over {args.games} Danish"
        f" games, {args.workers} simulated worker(s) taking turns; load average {load_before:.2f} before, {load_after:.2f} after\n"
    )
    print(
        "| tree | user CPU µs per hand (median) | rounds (min–max) | ÷ the first | system CPU µs (the fsync's) "
        "| SQL statements per hand |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for tree, rounds, sys_rounds, sql in zip(args.trees, cpu, system, statements):
        median = statistics.median(rounds)
        print(
            f"| {tree} | {median:.0f} | {min(rounds):.0f}–{max(rounds):.0f} | {median / first:.2f} | "
            f"{statistics.median(sys_rounds):.0f} | {sql:.1f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
