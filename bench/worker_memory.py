#!/usr/bin/env python3
"""A worker's memory at a night's size (issue 47: "workers under 250 MB at 4,000 tables"): a benchmark row, not a test.

    .venv/bin/python bench/worker_memory.py TREE [TREE …] [--tables 4000] [--hands 30] [--night]

Each TREE (a checkout; "." is this one) gets a process of its own with its package first on the path and an app as a
server makes it (the kept games' bounds at their defaults, `LIVE_TAGS` in a folder of /dev/shm with its default
bound) over a fresh SQLite file of `--tables` Danish games of `--hands` hands (imported). Then, as a worker that
serves them: every game read once through the JSON API (the worker scores and keeps it), and read again (a game
not kept is replayed: counted). Reported: the process's resident memory (VmRSS) at start and after, the games kept
and their bytes as counted, the replays of the second pass, and the kept game's bytes per hand (tracemalloc over 200
of the games). `--night` then plays a hand at every table as a night does (a phone's poll with its tag, the hand, a
plain reader's poll with the old tag, answered what changed), so the live pages' memory (their parts, the live tags'
folder) is filled too: the resident memory after it, and the folder's bytes as counted against its bound.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HAND = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9}

CHILD = r"""
import gc, json, logging, os, sys, time, tracemalloc
tree, folder, tables, hands, night, tags = sys.argv[1:7]
tables, hands, night = int(tables), int(hands), night == "1"
sys.path.insert(0, tree)
import scorekeeper
assert scorekeeper.__file__.startswith(tree), scorekeeper.__file__
import scorekeeper.core as core
from scorekeeper import create_app
from scorekeeper.server import db as web_db
from scorekeeper.games import cache, service

replays = [0]
_replay = core.replay
def counted_replay(rules, setup, inputs, start=None):
    inputs = list(inputs)
    if start is None and inputs:
        replays[0] += 1
    return _replay(rules, setup, inputs, start)
core.replay = counted_replay

def rss_mb():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024

app = create_app({
    "DATABASE": os.path.join(folder, "memory.sqlite"), "SECRET_KEY": "memory", "RATELIMIT_ENABLED": True,
    "LIMIT_NEW_GAMES": "100000 per minute", "LOG_LEVEL": "WARNING", "LIVE_TAGS": tags,
    "READS_PER_SECOND": None, "REQUESTS_PER_ADDRESS": 0,
})
client = app.test_client(use_cookies=False)
hand = json.loads(sys.argv[7])
def hand_body(i):
    return dict(hand, bidder=i % 4, partner=(i + 2) % 4, tricks=7 + i % 5)
made = client.post("/api/games", json={"variant": "danish", "players": ["Anna", "Bo", "Carl", "Dina"]}).json
with app.app_context():
    data = service.export_game(web_db.get_db(), made["id"])
    data["hands"] = [hand_body(i) for i in range(hands)]
    pool = [service.import_game(web_db.get_db(), data) for _ in range(tables)]
cache.games.clear()
gc.collect()
out = {"start": rss_mb()}
for game_id, _ in pool:
    assert client.get(f"/api/games/{game_id}").status_code == 200
gc.collect()
out["filled"] = rss_mb()
out["kept"] = len(cache.games)
out["kept_bytes"] = getattr(cache.games, "bytes", None)
replays[0] = 0
for game_id, _ in pool:
    assert client.get(f"/api/games/{game_id}").status_code == 200
out["replays"] = replays[0]
sample = [game_id for game_id, _ in pool[:200]]
with app.app_context():
    db = web_db.get_db()
    for game_id in sample:
        cache.games.forget((os.path.realpath(app.config["DATABASE"]), game_id))
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for game_id in sample:
        service.load(db, game_id)
    gc.collect()
    out["per_hand"] = (tracemalloc.get_traced_memory()[0] - before) / len(sample) / hands
    tracemalloc.stop()
if night:
    shown = {}
    for i, (game_id, key) in enumerate(pool):
        r = client.get(f"/g/{game_id}/live")
        shown[game_id] = r.headers["ETag"].strip('"')
        client.get(f"/g/{game_id}/live", headers={"X-Live-Tag": shown[game_id]})
        r = client.post(f"/api/games/{game_id}/hands", json=hand_body(i), headers={"X-Edit-Key": key})
        assert r.status_code == 201, r.status_code
        client.get(f"/g/{game_id}/live", headers={"X-Live-Tag": shown[game_id], "X-Live-Parts": "1"})
    gc.collect()
    out["night"] = rss_mb()
    publisher = app.extensions.get("live_tags")
    out["tags"] = publisher.accounted() if publisher is not None else None
    out["tags_bound"] = publisher.max_bytes if publisher is not None else None
    out["tag_files"] = sum(len(files) for _, _, files in os.walk(tags))
print(json.dumps(out), flush=True)
"""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="+")
    parser.add_argument("--tables", type=int, default=4000)
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--night", action="store_true", help="then a hand at every table, its phones polling")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    rows = []
    for tree in args.trees:
        with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory(dir="/dev/shm") as shm:
            child = subprocess.run(
                [sys.executable, "-c", CHILD, str(Path(tree).resolve()), tmp, str(args.tables), str(args.hands)]
                + ["1" if args.night else "0", str(Path(shm) / "tags"), json.dumps(HAND)],
                stdout=subprocess.PIPE,
                text=True,
                check=True,
                env={**os.environ, "PYTHONPATH": str(Path(tree).resolve())},
            )
            rows.append((tree, json.loads(child.stdout.strip().splitlines()[-1])))
    load_after = os.getloadavg()
    print(
        f"A worker's memory: {args.tables} Danish games of {args.hands} hands, each read twice through the JSON API"
        f"{', then a hand at every table with its phones polling' if args.night else ''}; load average"
        f" {load_before[0]:.2f} before, {load_after[0]:.2f} after\n"
    )
    print(
        "| tree | RSS at start, MB | RSS with the games kept, MB | games kept | their bytes as counted, MB | replays"
        " of the second pass | kept bytes per hand (tracemalloc) | RSS after the night, MB | LIVE_TAGS counted / bound,"
        " MB | its files |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    mb = 1024 * 1024
    for tree, out in rows:
        counted = "—" if out.get("kept_bytes") is None else f"{out['kept_bytes'] / mb:.0f}"
        tags = "—" if out.get("tags") is None else f"{out['tags'] / mb:.1f} / {out['tags_bound'] / mb:.0f}"
        print(
            f"| {tree} | {out['start']:.0f} | {out['filled']:.0f} | {out['kept']} | {counted} | {out['replays']} "
            f"| {out['per_hand']:.0f} B | {out.get('night', float('nan')):.0f} | {tags} | {out.get('tag_files', '—')} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
