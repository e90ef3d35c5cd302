#!/usr/bin/env python3
"""The two LRU stores, hand-written (an OrderedDict and its bookkeeping) against cachetools' LRUCache, in one run
(issue 35): the scored games (games/cache.Kept) and the live door's kept 304s (server/live_door.LiveDoor).

    python bench/caches.py [--before REV] [--rounds 7]

The hand-written versions are the files at REV (git show; default the commit before cachetools came in), loaded as
modules of their own beside this tree's. Each round times, for each version in turn:

- Kept: a hand entry's look-up (get, a hit) and a kept game's replacement (put of the same key), over 500 games of
  100 hands, and a put that makes the store drop its least recently used (600 games cycled through 500 places);
- the live door: a watching phone's poll answered from the door (a kept 304; the database's data_version read as
  the door does), and a poll that misses and is kept (3,000 phones cycled through 2,048 places).

Medians of the rounds in ns per operation, and each ÷ the hand-written; the load average before and after.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
BEFORE = "3cb3dc7"


def load(rev: str, path: str, name: str):
    """The module at `path` as of `rev`, as a module named `name`."""
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{path}"], capture_output=True, check=True).stdout
    folder = Path(tempfile.mkdtemp())
    (folder / f"{name}.py").write_bytes(source)
    spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def per_op(fn, n: int) -> float:
    started = time.perf_counter_ns()
    fn(n)
    return (time.perf_counter_ns() - started) / n


def kept_rows(module) -> dict:
    kept = module.Kept()
    for i in range(500):
        kept.put(("db", i), ("game", i), 100)

    def hits(n):
        for i in range(n):
            kept.get(("db", i % 500))

    def replaces(n):
        for i in range(n):
            kept.put(("db", i % 500), ("game", i), 100)

    def evicts(n):
        for i in range(n):
            kept.put(("db", 1000 + i % 600), ("game", i), 100)

    return {
        "kept get": per_op(hits, 200_000),
        "kept put": per_op(replaces, 100_000),
        "kept evict": per_op(evicts, 100_000),
    }


def door_rows(module, database: str) -> dict:
    def app(environ, start_response):
        module.mark(environ)
        start_response("304 NOT MODIFIED", [("ETag", '"1"')])
        return [b""]

    door = module.LiveDoor(app, database)

    def environ(i):
        return {
            "REQUEST_METHOD": "GET",
            "PATH_INFO": "/g/abc/live",
            "QUERY_STRING": "",
            "HTTP_IF_NONE_MATCH": '"1"',
            "REMOTE_ADDR": f"10.0.{i // 250}.{i % 250}",
        }

    def start_response(status, headers, exc_info=None):
        return None

    warm = [environ(i) for i in range(2000)]
    for e in warm:
        door(e, start_response)

    def hits(n):
        for i in range(n):
            door(warm[i % 2000], start_response)

    cycled = [environ(i) for i in range(3000, 6000)]

    def misses(n):
        for i in range(n):
            door(cycled[i % 3000], start_response)

    return {"door hit": per_op(hits, 50_000), "door miss": per_op(misses, 30_000)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", default=BEFORE)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    import logging

    from scorekeeper.games import cache
    from scorekeeper.server import live_door

    logging.getLogger("scorekeeper.request").setLevel(logging.WARNING)
    old_cache = load(args.before, "scorekeeper/games/cache.py", "cache_before")
    old_door = load(args.before, "scorekeeper/server/live_door.py", "live_door_before")
    folder = tempfile.mkdtemp()
    database = os.path.join(folder, "door.sqlite")
    sqlite3.connect(database).execute("CREATE TABLE t (x)").connection.close()
    load_before = os.getloadavg()[0]
    results: dict[str, dict[str, list[float]]] = {"hand-written": {}, "cachetools": {}}
    for _ in range(args.rounds):
        for label, cache_module, door_module in (
            ("hand-written", old_cache, old_door),
            ("cachetools", cache, live_door),
        ):
            for key, value in {**kept_rows(cache_module), **door_rows(door_module, database)}.items():
                results[label].setdefault(key, []).append(value)
    load_after = os.getloadavg()[0]
    print(
        f"LRU stores, {args.rounds} alternating rounds, hand-written = {args.before}; "
        f"load average {load_before:.1f} before, {load_after:.1f} after\n"
    )
    print("| operation | hand-written, ns | cachetools, ns | ÷ hand-written |")
    print("|---|---:|---:|---:|")
    for key in results["hand-written"]:
        old = statistics.median(results["hand-written"][key])
        new = statistics.median(results["cachetools"][key])
        print(f"| {key} | {old:.0f} | {new:.0f} | {new / old:.2f} |")


if __name__ == "__main__":
    main()
